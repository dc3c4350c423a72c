"""Playouts: every recorded card is legal and every trick scored right (replayed in plain
Python against the Layout), greedy follows its documented rule (a Python re-implementation),
random play is uniform and reproducible, and bad input is refused."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from trickcore.cards import Card, CardSet
from trickcore.games import GAME_IDS, get_game
from trickcore.playouts import playout

CONTRACTS = [(g, c) for g in GAME_IDS for c in get_game(g).contracts]


def deal(layout, n, rng):
    """``n`` random deals as ``uint64[n, n_seats + 1]`` (last column: the kitty)."""
    cards = np.array(sorted(int(c) for c in layout.deck), dtype=np.uint64)
    ns, hs = layout.n_seats, layout.hand_size
    bits = np.uint64(1) << cards[np.argsort(rng.random((n, len(cards))), axis=1)]
    cuts = [(s * hs, (s + 1) * hs) for s in range(ns)] + [(ns * hs, len(cards))]
    return np.stack([np.bitwise_or.reduce(bits[:, a:b], axis=1) if b > a else np.zeros(n, np.uint64)
                     for a, b in cuts], axis=1)


def _rank_and_trump(layout, card):
    """Rank inside the effective suit (0 = lowest) and whether the card is a trump."""
    suit = layout.effective_suit(card)
    low = sum(len(s) for s in layout.suits[:suit])
    trump = layout.trump and suit == len(layout.suits) - 1
    return layout.rank_order(card) - low, trump


def greedy_reference(layout, legal, trick, side, seat, seats_in_trick, last_trick):
    """The greedy rule of the playouts module docstring, written out independently."""
    pts = layout.points if layout.objective == "points" else {}

    def value(c):
        rank, trump = _rank_and_trump(layout, c)
        return 8192 * trump + 64 * pts.get(c, 0) + rank

    legal = sorted(legal, key=layout.rank_order)  # ties: lowest layout bit first
    lowest = min(legal, key=value)
    if not trick:
        return lowest
    win_pos = layout.trick_winner(trick)
    best = trick[win_pos]
    beats = [c for c in legal if layout.trick_winner([best, c]) == 1]
    if layout.objective == "points":
        worth = sum(layout.points.get(c, 0) for c in trick) + (layout.last_trick_bonus if last_trick else 0)
    else:
        worth = 1
    if layout.goal == "max":
        partner = ((side >> seat) & 1) == ((side >> seats_in_trick[win_pos]) & 1)
        if worth > 0 and beats and not partner:
            return min(beats, key=value)
        return lowest
    if worth < 0 and beats:
        return min(beats, key=value)
    ducks = [c for c in legal if c not in beats]
    if ducks:
        return max(ducks, key=value)  # max() keeps the first (lowest bit) of equal values
    last = len(trick) == layout.n_seats - 1
    fewest = min(pts.get(c, 0) for c in beats)
    cands = [c for c in beats if pts.get(c, 0) == fewest]
    return max(cands, key=value) if last else min(cands, key=value)


def replay(layout, hands, r, i, greedy_seats=0):
    """Replay deal ``i`` of result ``r`` card by card; assert legality, winners, scores."""
    ns, hs = layout.n_seats, layout.hand_size
    hand = [CardSet(int(hands[i, s])) for s in range(ns)]
    played = CardSet()
    suits_led = 0
    tricks = [0] * ns
    points = [0] * ns
    n_played = int(r.tricks_played[i])
    first = layout.first_lead
    for t in range(hs):
        if t >= n_played:
            assert (r.cards[i, t] == -1).all() and r.winners[i, t] == -1 and r.leaders[i, t] == -1
            continue
        leader = int(r.leaders[i, t])
        if t == 0 and first is not None and any(first in h for h in hand):
            assert first in hand[leader], "the holder of the first-lead card leads"
        trick, seats = [], []
        for p in range(ns):
            s = (leader + p) % ns
            card = Card(int(r.cards[i, t, s]))
            legal = layout.legal_moves(hand[s], led=trick[0] if trick else None, trick_index=t,
                                       played=played, suits_led=suits_led)
            assert card in legal, f"deal {i} trick {t}: seat {s} played {card}, legal {legal}"
            if (greedy_seats >> s) & 1:
                want = greedy_reference(layout, legal, trick, int(r.side[i]), s, seats, t == hs - 1)
                assert card == want, f"deal {i} trick {t}: greedy seat {s} played {card}, rule says {want}"
            hand[s] = hand[s] - CardSet([card])
            played = played | CardSet([card])
            trick.append(card)
            seats.append(s)
        winner = seats[layout.trick_winner(trick)]
        assert r.winners[i, t] == winner
        suits_led |= 1 << layout.effective_suit(trick[0])
        tricks[winner] += 1
        points[winner] += sum(layout.points.get(c, 0) for c in trick) + (layout.last_trick_bonus if t == hs - 1 else 0)
        if t + 1 < n_played:
            assert r.leaders[i, t + 1] == winner
    assert r.tricks[i].tolist() == tricks
    assert r.points[i].tolist() == points
    if n_played == hs:
        assert all(len(h) == 0 for h in hand)


@pytest.mark.parametrize("game,contract", CONTRACTS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_invariants_and_replay(game, contract, policy):
    check_playouts(game, contract, policy)


# Rule options that change the layout: lead restrictions, first trick, negative points,
# hand size (Oh Hell deals fewer cards; the rest is the "kitty").
LAYOUT_OPTIONS = [
    ("hearts", "hearts", {"jack_of_diamonds": True}),
    ("hearts", "hearts", {"queen_breaks_hearts": True}),
    ("hearts", "hearts", {"points_on_first_trick": True}),
    ("spades", "spades", {"spade_leading": "after_first_trick"}),
    ("spades", "spades", {"spade_leading": "always"}),
    ("ohhell", "notrump", {"hand_size": 1}),
    ("ohhell", "hearts", {"hand_size": 13}),
    ("ohhell", "clubs", {"hand_size": 4}),
]


@pytest.mark.parametrize("game,contract,rules", LAYOUT_OPTIONS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_invariants_with_layout_options(game, contract, rules, policy):
    check_playouts(game, contract, policy, rules, n=80)


def check_playouts(game, contract, policy, rules=None, n=150, n_replay=12):
    """Play ``n`` random deals; check every invariant and replay ``n_replay`` of them."""
    rules = rules or {}
    layout = get_game(game).layout(contract, **rules)
    ns, hs = layout.n_seats, layout.hand_size
    rng = np.random.default_rng(zlib.crc32(f"{game}/{contract}/{sorted(rules.items())}".encode()))
    hands = deal(layout, n, rng)
    leader = rng.integers(0, ns, n)
    declarer = rng.integers(0, ns, n)
    r = playout(game, contract, hands, policy=policy, leader=leader, declarer=declarer, seed=5, **rules)
    assert r.layout.rules == layout.rules
    assert r.tricks.shape == r.points.shape == r.melds.shape == (n, ns)
    assert r.cards.shape == (n, hs, ns) and r.winners.shape == (n, hs)
    assert r.tricks.dtype == np.int8 and r.points.dtype == np.int16 and r.winners.dtype == np.int8

    played = r.tricks_played.astype(int)
    assert (r.tricks.sum(axis=1) == played).all()
    # Every card of every hand is played exactly once, by its holder (complete rounds).
    for i in range(n):
        k = played[i]
        for s in range(ns):
            got = r.cards[i, :k, s]
            assert (got >= 0).all()
            assert np.bitwise_or.reduce(np.uint64(1) << got.astype(np.uint64)) & ~hands[i, s] == 0
            assert len(set(got.tolist())) == k
            if k == hs:
                assert CardSet([int(c) for c in got]) == CardSet(int(hands[i, s]))
        assert (r.cards[i, k:] == -1).all()
    kitty_pts = layout.point_table()
    for i in range(n):
        assert r.kitty_points[i] == sum(int(kitty_pts[c]) for c in CardSet(int(hands[i, -1])))
    if layout.objective == "nil":
        # Play stops right after the declarer's first trick.
        for i in range(n):
            d = declarer[i]
            won = np.flatnonzero(r.winners[i] == d)
            if len(won):
                assert played[i] == won[0] + 1 and r.tricks[i, d] == 1
            else:
                assert played[i] == hs
        assert (played < hs).any() and (played == hs).any()
    else:
        assert (played == hs).all()
    done = played == hs
    total = r.points.sum(axis=1).astype(int) + r.kitty_points
    assert (total[done] == layout.total_points).all()
    assert (r.last_trick_winner[done] == r.winners[done, hs - 1]).all()
    assert (r.last_trick_winner[~done] == -1).all()
    assert (r.side == layout.sides(hands[:, :ns], declarer)).all()
    # Trick melds: the winner of each trick collects its meld value (Clover only).
    if layout.trick_meld_table is not None:
        for i in range(20):
            melds = [0] * ns
            for t in range(played[i]):
                mask = int(np.bitwise_or.reduce(np.uint64(1) << r.cards[i, t].astype(np.uint64)))
                melds[r.winners[i, t]] += int(layout.core.trick_meld_values(np.array([mask], np.uint64))[0])
            assert r.melds[i].tolist() == melds
        assert r.melds.sum() > 0
    else:
        assert not r.melds.any()
    greedy_seats = (1 << ns) - 1 if policy == "greedy" else 0
    for i in range(min(n_replay, n)):
        replay(layout, hands, r, i, greedy_seats)


def test_mixed_policies_follow_the_rule():
    layout = get_game("goathead4").layout("clubs")
    rng = np.random.default_rng(3)
    hands = deal(layout, 40, rng)
    r = playout(layout, None, hands, policy={"declarer": "greedy", "defenders": "random"}, declarer=1, seed=2)
    for i in range(40):
        replay(layout, hands, r, i, greedy_seats=int(r.side[i]))
    r = playout(layout, None, hands, policy=["random", "greedy", "random", "greedy"], seed=2)
    for i in range(40):
        replay(layout, hands, r, i, greedy_seats=0b1010)


def test_first_lead_holder_leads_whatever_leader_says():
    layout = get_game("hearts").layout("hearts")
    hands = deal(layout, 50, np.random.default_rng(1))
    r = playout(layout, None, hands, leader=np.arange(50) % 4, seed=1)
    holder = np.argmax((hands[:, :4] >> np.uint64(int(Card.parse("2C")))) & np.uint64(1), axis=1)
    assert (r.leaders[:, 0] == holder).all()
    assert (r.cards[np.arange(50), 0, holder] == int(Card.parse("2C"))).all()


def test_leader_and_declarer_arrays():
    layout = get_game("goathead3").layout("hearts")
    hands = deal(layout, 30, np.random.default_rng(2))
    r = playout(layout, None, hands, leader=np.arange(30) % 3, seed=0)
    assert (r.leaders[:, 0] == np.arange(30) % 3).all()
    # Without the kitty column the same play (the kitty column is only ignored) ...
    r2 = playout(layout, None, hands[:, :3], leader=np.arange(30) % 3, seed=0)
    assert (r2.cards == r.cards).all() and (r2.kitty_points == r.kitty_points).all()
    # ... and Python ints, signed arrays and scalar numpy seats are accepted.
    r3 = playout(layout, None, hands.astype(np.int64).tolist(), leader=(np.arange(30) % 3).tolist(),
                 declarer=np.int64(2), seed=0)
    assert (r3.cards == r.cards).all() and (r3.declarer == 2).all()
    r4 = playout(get_game("goathead3"), "hearts", hands, leader=np.arange(30) % 3, seed=0)
    assert (r4.cards == r.cards).all()


def test_nil_stops_when_the_declarer_must_win():
    # The declarer (seat 1) leads and holds the four aces and two tens whose aces it
    # holds too: whatever it leads wins, so Nil ends after the first trick.
    hands = np.array([[CardSet.parse(h).mask for h in (
        "KC QC JC KD QD JD", "AC AD AH AS 10C 10D", "KH QH JH KS QS JS", "10H 10S")]], dtype=np.uint64)
    for policy in ("random", "greedy"):
        r = playout("goathead3", "nil", hands, policy=policy, leader=1, declarer=1, seed=0)
        assert r.tricks_played[0] == 1 and r.winners[0].tolist() == [1, -1, -1, -1, -1, -1]
        assert r.tricks[0].tolist() == [0, 1, 0]
        r = playout("goathead3", "nil", hands, policy=policy, leader=1, declarer=0, seed=0)
        assert r.tricks_played[0] == 6 and r.tricks[0].tolist() == [0, 6, 0]


def test_greedy_hand_example():
    # Goathead 3p, hearts (trump Q♥ K♥ 10♥ A♥ J♦ J♥ J♠ J♣): seat 0 leads its cheapest
    # card, the plain K♦ (A♣ has more points, trumps are dearer); seat 1, void, ruffs the
    # 4 points with its cheapest winning trump J♦ (2 points); seat 2, whose partner is
    # winning, follows with its lowest-value diamond Q♦.
    hands = np.array([[CardSet.parse(h).mask for h in (
        "JC JS AH 10H AC KD", "JH JD KH QH 10C QS", "AD 10D QD AS 10S KS", "KC QC")]], dtype=np.uint64)
    r = playout("goathead3", "hearts", hands, policy="greedy")
    assert [str(Card(int(c))) for c in r.cards[0, 0]] == ["K♦", "J♦", "Q♦"]
    replay(r.layout, hands, r, 0, greedy_seats=0b111)


def test_random_is_reproducible_and_seeded():
    layout = get_game("spades").layout("spades")
    hands = deal(layout, 200, np.random.default_rng(4))
    a = playout(layout, None, hands, seed=123)
    b = playout(layout, None, hands, seed=123)
    c = playout(layout, None, hands, seed=124)
    assert (a.cards == b.cards).all() and (a.tricks == b.tricks).all()
    assert (a.cards != c.cards).any()
    g1, g2 = np.random.default_rng(9), np.random.default_rng(9)
    assert (playout(layout, None, hands, seed=g1).cards == playout(layout, None, hands, seed=g2).cards).all()
    # A Generator's state advances: two calls with the same Generator differ.
    assert (playout(layout, None, hands, seed=g1).cards != playout(layout, None, hands, seed=g2.spawn(1)[0]).cards).any()
    ss = np.random.SeedSequence(77)
    assert (playout(layout, None, hands, seed=ss).cards == playout(layout, None, hands, seed=np.random.SeedSequence(77)).cards).all()


def test_portable_bit_code_plays_the_same_cards():
    from trickcore import _playout

    layout = get_game("hearts").layout("hearts")
    hands = deal(layout, 500, np.random.default_rng(10))
    fast = playout(layout, None, hands, seed=3)
    saved = _playout._cpu_features()
    try:
        assert _playout._cpu_features(pdep=False, popcnt=False) == (False, False)
        portable = playout(layout, None, hands, seed=3)
    finally:
        _playout._cpu_features(*saved)
    assert _playout._cpu_features() == saved
    assert (fast.cards == portable.cards).all()


def test_greedy_is_deterministic():
    layout = get_game("clover").layout("hearts")
    hands = deal(layout, 200, np.random.default_rng(5))
    a = playout(layout, None, hands, policy="greedy", seed=1)
    b = playout(layout, None, hands, policy="greedy", seed=2)
    assert (a.cards == b.cards).all() and (a.melds == b.melds).all()


def test_random_choice_is_uniform():
    # One deal played many times: the leader's first card is uniform over its 6 cards.
    hands = np.array([[CardSet.parse(h).mask for h in (
        "JC JS AH 10H AC KD", "JH JD KH QH 10C QS", "AD 10D QD AS 10S KS")]] * 30000, dtype=np.uint64)
    r = playout("goathead3", "hearts", hands, seed=11)
    counts = np.unique(r.cards[:, 0, 0], return_counts=True)[1]
    assert len(counts) == 6
    expected = 30000 / 6
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 25.7  # 5 degrees of freedom, p = 1e-4
    # Following: seat 1 must follow trump with one of its 4 trumps when a trump is led.
    led_trump = np.isin(r.cards[:, 0, 0], [int(Card.parse(c)) for c in ("JC", "JS", "AH", "10H")])
    counts = np.unique(r.cards[led_trump, 0, 1], return_counts=True)[1]
    assert len(counts) == 4
    expected = led_trump.sum() / 4
    assert ((counts - expected) ** 2 / expected).sum() < 21.1  # 3 d.o.f., p = 1e-4


@pytest.mark.parametrize("game,contract", [("goathead3", "clubs"), ("goathead4", "clubs"),
                                           ("goathead3", "leasters")])
def test_greedy_declarer_beats_random(game, contract):
    # The same deals played twice with the same seed: once with the declarer's side
    # greedy and the defenders random, once all random.  The greedy side does better for
    # its goal (more card points; fewer in leasters) by a clear statistical margin: the
    # paired difference per deal is at least 4 standard errors and 0.5 points.
    layout = get_game(game).layout(contract)
    n = 20000
    hands = deal(layout, n, np.random.default_rng(6))
    mixed = playout(layout, None, hands, policy={"declarer": "greedy", "defenders": "random"}, seed=8)
    rand = playout(layout, None, hands, policy="random", seed=8)
    diff = (mixed.side_total() - rand.side_total()).astype(float)
    if layout.goal == "min":
        diff = -diff
    gain, se = diff.mean(), diff.std() / np.sqrt(n)
    assert gain > 4 * se and gain > 0.5, (gain, se)


def test_result_side_total():
    layout = get_game("spades").layout("spades")
    hands = deal(layout, 10, np.random.default_rng(7))
    r = playout(layout, None, hands, declarer=1, seed=0)
    assert (r.side_total() == r.tricks[:, 1] + r.tricks[:, 3]).all()
    assert (r.side_total("points") == 0).all()
    with pytest.raises(ValueError, match="what must be"):
        r.side_total("bids")


def test_empty_input():
    r = playout("hearts", "hearts", np.zeros((0, 4), dtype=np.uint64))
    assert len(r) == 0 and r.cards.shape == (0, 13, 4)


def test_bad_input():
    layout = get_game("goathead3").layout("hearts")
    good = deal(layout, 3, np.random.default_rng(8))
    with pytest.raises(ValueError, match="shape"):
        playout(layout, None, good[:, :2])
    with pytest.raises(ValueError, match="shape"):
        playout(layout, None, good[0])
    bad = good.copy()
    h0, h1 = int(bad[1, 0]), int(bad[1, 1])
    bad[1, 1] = (h1 & (h1 - 1)) | (h0 & -h0)  # seat 1 swaps a card for one of seat 0's
    with pytest.raises(ValueError, match="two hands"):
        playout(layout, None, bad)
    bad = good.copy()
    bad[2, 0] = (bad[2, 0] & (bad[2, 0] - np.uint64(1))) | np.uint64(1 << int(Card.parse("9C")))
    with pytest.raises(ValueError, match="9♣ not in the deck"):
        playout(layout, None, bad)
    bad = good.copy()
    bad[0, 0] &= bad[0, 0] - np.uint64(1)  # seat 0 one card short
    with pytest.raises(ValueError, match="unequal size"):
        playout(layout, None, bad)
    bad = good.copy()
    for s in range(3):
        bad[0, s] &= bad[0, s] - np.uint64(1)
    with pytest.raises(ValueError, match="full hands of 6"):
        playout(layout, None, bad)
    with pytest.raises(ValueError, match="unknown policy 'smart'"):
        playout(layout, None, good, policy="smart")
    with pytest.raises(ValueError, match="unknown policy"):
        playout(layout, None, good, policy=["greedy", "random", "best"])
    with pytest.raises(ValueError, match="policy must be"):
        playout(layout, None, good, policy=["greedy", "random"])
    with pytest.raises(ValueError, match="'declarer' and 'defenders'"):
        playout(layout, None, good, policy={"declarer": "greedy"})
    with pytest.raises(ValueError, match="leader 3 out of range"):
        playout(layout, None, good, leader=3)
    with pytest.raises(ValueError, match="leader -1 out of range"):
        playout(layout, None, good, leader=[0, -1, 0])
    with pytest.raises(ValueError, match="shape"):
        playout(layout, None, good, leader=[0, 1])
    with pytest.raises(ValueError, match="declarer 5 out of range"):
        playout(layout, None, good, declarer=5)
    with pytest.raises(ValueError, match="integers"):
        playout(layout, None, good, declarer=0.5)
    with pytest.raises(ValueError, match="contract must be None"):
        playout(layout, "hearts", good)
    with pytest.raises(ValueError, match="cannot be given with a Layout"):
        playout(layout, None, good, steal=False)
    with pytest.raises(ValueError, match="unknown game"):
        playout("bridge", "hearts", good)
    with pytest.raises(ValueError, match="unknown contract"):
        playout("goathead3", "grand", good)
    with pytest.raises(ValueError, match="unknown rule option"):
        playout("goathead3", "hearts", good, colour="red")
    with pytest.raises(ValueError, match="integer array"):
        playout(layout, None, good.astype(float))
    with pytest.raises(ValueError, match="non-negative"):
        playout(layout, None, -good.astype(np.int64) - 1)
