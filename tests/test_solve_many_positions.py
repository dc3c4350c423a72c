"""``solve_many`` from positions: table cards, earlier tricks and the suits led, in one
compiled loop.  Each position is checked against :func:`trickcore.solve` on the same
position (itself checked against the brute force in ``test_solver_api.py``): the value,
and the line's side tricks, last-trick winner and trick melds (the line depends on the
position alone, so the batch follows the same one)."""

from __future__ import annotations

import numpy as np
import pytest

from trickcore import CardSet, get_game, parse_card
from trickcore.games import GAME_IDS
from trickcore.solver import solve, solve_many


def played_out(layout, rng, tricks_left, on_table):
    """A random deal played at random (legal cards, the game's own rules) until
    ``tricks_left`` tricks are left, the current one with ``on_table`` cards on the table:
    ``(hands now, leader, trick, played before, suits led before)``."""
    n = layout.n_seats
    cards = list(layout.deck)
    rng.shuffle(cards)
    size = layout.hand_size
    hands = [CardSet(cards[s * size:(s + 1) * size]) for s in range(n)]
    leader = int(rng.integers(n))
    first = layout.first_lead
    if first is not None:
        leader = next((s for s, h in enumerate(hands) if first in h), leader)
    played, suits_led, trick = CardSet(), 0, []
    ti = 0
    while True:
        if size - ti == tricks_left and len(trick) == on_table:
            return hands, leader, trick, played, suits_led
        turn = (leader + len(trick)) % n
        legal = list(layout.legal_moves(hands[turn], trick[0] if trick else None, trick_index=ti,
                                        played=played | CardSet(trick), suits_led=suits_led))
        card = legal[int(rng.integers(len(legal)))]
        hands[turn] = hands[turn] - CardSet([card])
        trick.append(card)
        if len(trick) == n:
            leader = (leader + layout.trick_winner(trick)) % n
            suits_led |= 1 << layout.effective_suit(trick[0])
            played |= CardSet(trick)
            trick, ti = [], ti + 1


def line_results(layout, hands, leader, trick, line, side):
    """Side tricks, last-trick winner and the sides' trick melds along ``line`` from the
    position (its trick in progress included)."""
    n = layout.n_seats
    table = list(trick)
    tricks = won = 0
    last = -1
    melds = [0, 0]
    for card in line:
        table.append(card)
        if len(table) == n:
            last = (leader + layout.trick_winner(table)) % n
            mine = side >> last & 1
            won += mine
            if layout.trick_meld_table is not None:
                v = int(layout.core.trick_meld_values(np.array([CardSet(table).mask], dtype=np.uint64))[0])
                melds[0 if mine else 1] += v
            tricks += 1
            leader, table = last, []
    return won, last, melds


def _contracts():
    # (and Sheepshead's called ace, whose must-play card reads the suits led before)
    return [(gid, c) for gid in GAME_IDS for c in get_game(gid).contracts] + [("sheepshead", "called_ace_clubs")]


@pytest.mark.parametrize("gid,contract", _contracts())
def test_positions_match_solve(gid, contract):
    lay = get_game(gid).layout(contract)
    n = lay.n_seats
    rng = np.random.default_rng(abs(hash((gid, contract, "positions"))) % 2**32)
    tricks_left = min(lay.hand_size, 3 if n >= 5 else 4)
    for on_table in sorted({0, 1, n - 1}):
        if on_table >= n:
            continue
        positions = [played_out(lay, rng, tricks_left, on_table) for _ in range(12 if lay.must_play_first else 6)]
        hands = np.array([[h.mask for h in p[0]] for p in positions], dtype=np.uint64)
        leaders = np.array([p[1] for p in positions])
        table = np.array([[int(c) for c in p[2]] for p in positions], dtype=np.int64).reshape(len(positions), on_table)
        played = np.array([p[3].mask for p in positions], dtype=np.uint64)
        declarers = rng.integers(0, n, len(positions))
        for led in (None, np.array([p[4] for p in positions])):
            m = solve_many(lay, None, hands, leader=leaders, declarer=declarers, trick=table, played=played,
                           suits_led=led)
            for d, (h, leader, trick, before, suits) in enumerate(positions):
                r = solve(lay, None, list(h), leader=leader, declarer=int(declarers[d]), trick=trick,
                          played=before, suits_led=None if led is None else suits, card_values=False)
                where = (gid, contract, d, on_table, led is None)
                assert m.value[d] == r.value, where
                assert m.side[d] == r.side, where
                won, last, melds = line_results(lay, h, leader, trick, r.line, r.side)
                if lay.objective != "nil":
                    assert (m.side_tricks[d], m.last_trick_winner[d]) == (won, last), where
                assert (m.side_melds[d], m.opp_melds[d]) == tuple(melds), where


def test_positions_one_trick_for_every_deal_and_rule_state():
    """A trick and played cards given once stand for every deal; a restricted suit counts
    as broken once its breaker is in ``played`` (Hearts: hearts may be led)."""
    lay = get_game("hearts").layout("hearts")
    hands = [CardSet.parse(h).mask for h in ("2H 3D", "AS KS", "QS 2S", "5C 6C")]
    # seat 0 leads: without hearts broken it must lead the 3♦, with them its 2♥ is open
    closed = solve_many(lay, None, np.array([hands], dtype=np.uint64), leader=0, sides=1, goal="min")
    broken = solve_many(lay, None, np.array([hands], dtype=np.uint64), leader=0, sides=1, goal="min",
                        played="4H")
    for p, r in ((None, closed), ("4H", broken)):
        one = solve(lay, None, hands, leader=0, sides=1, goal="min", played=p)
        assert r.value[0] == one.value
    trick = solve_many(lay, None, np.array([[hands[0], hands[1] & ~CardSet.parse("AS").mask, hands[2], hands[3]]],
                                           dtype=np.uint64) & ~np.uint64(CardSet.parse("AS").mask),
                       leader=1, sides=1, goal="min", trick="AS", played="4H")
    assert trick.value[0] == solve(lay, None, [hands[0], "KS", hands[2], hands[3]], leader=1, sides=1, goal="min",
                                   trick=["AS"], played="4H").value


@pytest.mark.parametrize("kwargs,match", [
    (dict(trick="JC"), "also in a hand"),
    (dict(trick="QS JS"), "do not fit a trick"),
    (dict(trick="QS QS"), "twice in the trick|also in a hand"),
    (dict(trick="QS JS KS"), "complete with 3"),
    (dict(trick="2C"), "not in the deck"),
    (dict(trick="QS", played="JC"), "also in a hand or on the table"),
    (dict(trick="QS", played="2C"), "not in the deck"),
    (dict(trick="QS", suits_led=1 << 7), "suits_led must be"),
    (dict(trick=np.zeros((2, 1), dtype=np.int64)), "int array"),
    (dict(trick="QS", played=np.zeros(3, dtype=np.uint64)), "bit-board array of 1"),
    (dict(trick=7), "cards on the table"),
])
def test_position_errors(kwargs, match):
    lay = get_game("goathead3").layout("hearts")
    hands = np.array([[CardSet.parse(h).mask for h in ("JC AH", "10S", "KH QH")]], dtype=np.uint64)
    with pytest.raises(ValueError, match=match):
        solve_many(lay, None, hands, leader=1, **kwargs)


def test_positions_keep_the_deals_path():
    """Without ``trick``, ``played`` and ``suits_led`` the call is the deals' call it was;
    with empty ones it gives the same values."""
    lay = get_game("sheepshead").layout("jd")
    deals = np.array([[h.mask for h in played_out(lay, np.random.default_rng(s), 3, 0)[0]] for s in range(5)],
                     dtype=np.uint64)
    a = solve_many(lay, None, deals, leader=2)
    b = solve_many(lay, None, deals, leader=2, trick=[], played=CardSet(), suits_led=0)
    assert (a.value == b.value).all() and (a.side_tricks == b.side_tricks).all()


def test_positions_read_the_suits_led():
    """Sheepshead's called ace must be played when its suit is first led, so the suits led
    before decide some values: positions where they do, solved both ways in one call."""
    lay = get_game("sheepshead").layout("called_ace_clubs")
    ace = parse_card("AC")
    club_cards = CardSet(c for c in lay.deck if lay.effective_suit(c) == lay.effective_suit(ace))
    clubs = 1 << lay.effective_suit(ace)
    rng = np.random.default_rng(5)
    found = []
    while len(found) < 3:
        hands, leader, trick, before, _ = played_out(lay, rng, 3, 1)
        if not any(ace in h and len(h & club_cards) > 1 for h in hands):
            continue
        values = [solve(lay, None, hands, leader=leader, trick=trick, played=before, suits_led=led,
                        card_values=False).value for led in (0, clubs)]
        if values[0] != values[1]:
            found.append((hands, leader, trick, before, values))
    rows = np.array([[h.mask for h in f[0]] for f in found] * 2, dtype=np.uint64)
    led = np.array([0] * len(found) + [clubs] * len(found))
    m = solve_many(lay, None, rows, leader=[f[1] for f in found] * 2,
                   trick=np.array([[int(f[2][0])] for f in found] * 2), played=np.array([f[3].mask for f in found] * 2,
                                                                                     dtype=np.uint64), suits_led=led)
    assert m.value.tolist() == [f[4][0] for f in found] + [f[4][1] for f in found]


@pytest.mark.parametrize("gid,contract", _contracts())
def test_solve_after_cards_gives_every_card_value(gid, contract):
    """``solve_after_cards`` gives each card what ``solve``'s ``card_values`` gives, the
    current trick included, for several deals of one position; with the line, the side's
    tricks, last-trick winner and melds of the current trick on (the trick the card
    completes, then ``solve``'s line after it)."""
    from trickcore.solver import solve_after_cards

    lay = get_game(gid).layout(contract)
    n = lay.n_seats
    rng = np.random.default_rng(abs(hash((gid, contract, "after"))) % 2**32)
    tricks_left = min(lay.hand_size, 3 if n >= 5 else 4)
    for on_table in sorted({0, n - 1}):
        hands, leader, trick, before, suits = played_out(lay, rng, tricks_left, on_table)
        mover = (leader + on_table) % n
        # other deals of the same position: the other seats' cards dealt again
        others = [s for s in range(n) if s != mover]
        pool = [c for s in others for c in hands[s]]
        deals = []
        for _ in range(4):
            rng.shuffle(pool)
            d, at = list(hands), 0
            for s in others:
                d[s] = CardSet(pool[at:at + len(hands[s])])
                at += len(hands[s])
            deals.append(d)
        legal = list(lay.legal_moves(hands[mover], trick[0] if trick else None,
                                     trick_index=lay.hand_size - tricks_left, played=before | CardSet(trick),
                                     suits_led=suits))
        declarer = int(rng.integers(n))
        rows = np.array([[h.mask for h in d] for d in deals], dtype=np.uint64)
        r = solve_after_cards(lay, None, rows, legal, leader=leader, trick=trick, played=before, suits_led=suits,
                              declarer=declarer)
        for di, d in enumerate(deals):
            one = solve(lay, None, d, leader=leader, trick=trick, played=before, suits_led=suits, declarer=declarer)
            for i, card in enumerate(legal):
                row = di * len(legal) + i
                where = (gid, contract, on_table, di, str(card))
                assert r.value[row] == one.card_values[card], where
                if lay.objective == "nil":
                    continue
                after = [h - CardSet([card]) if s == mover else h for s, h in enumerate(d)]
                table = trick + [card]
                if len(table) == n:
                    nxt = (leader + lay.trick_winner(table)) % n
                    rest = solve(lay, None, after, leader=nxt, played=before | CardSet(table), sides=one.side,
                                 suits_led=suits | 1 << lay.effective_suit(table[0]), card_values=False) \
                        if any(after) else None
                    line = table + (rest.line if rest else [])
                else:
                    rest = solve(lay, None, after, leader=leader, trick=table, played=before, suits_led=suits,
                                 sides=one.side, card_values=False)
                    line = table + rest.line
                won, last, melds = line_results(lay, d, leader, [], line, one.side)
                assert (r.side_tricks[row], r.last_trick_winner[row]) == (won, last), where
                assert (r.side_melds[row], r.opp_melds[row]) == tuple(melds), where


def test_solve_after_cards_errors():
    from trickcore.solver import solve_after_cards

    lay = get_game("goathead3").layout("hearts")
    hands = np.array([[CardSet.parse(h).mask for h in ("JC AH", "10S KS", "KH QH")]], dtype=np.uint64)
    with pytest.raises(ValueError, match="does not hold every card"):
        solve_after_cards(lay, None, hands, ["KS"])
    with pytest.raises(ValueError, match="one or more different cards"):
        solve_after_cards(lay, None, hands, [])
    with pytest.raises(ValueError, match="bit-board array"):
        solve_after_cards(lay, None, hands[:, :2], ["JC"])
    with pytest.raises(ValueError, match="one or more different cards"):
        solve_after_cards(lay, None, hands, 5)
    with pytest.raises(ValueError, match="cards on the table"):
        solve_after_cards(lay, None, hands, ["JC"], trick=7)
    with pytest.raises(ValueError, match="complete with 3"):
        solve_after_cards(lay, None, hands, ["JC"], trick="QS JS KS")
    with pytest.raises(ValueError, match="one per deal"):
        solve_after_cards(lay, None, hands, ["JC"], sides=[1, 1])
    from trickcore.solver import card_runs
    with pytest.raises(ValueError, match="not in the deck"):
        card_runs(lay, ["7S", "AS"])


@pytest.mark.parametrize("gid,contract", [("goathead3", "hearts"), ("clover", "hearts"), ("spades", "spades"),
                                          ("goathead3", "nil")])
def test_solve_after_cards_at_the_last_card(gid, contract):
    """The seat's card ends the play: the last trick alone, with the last-trick bonus."""
    from trickcore.solver import solve_after_cards

    lay = get_game(gid).layout(contract)
    n = lay.n_seats
    rng = np.random.default_rng(3)
    for _ in range(5):
        hands, leader, trick, before, suits = played_out(lay, rng, 1, n - 1)
        mover = (leader + n - 1) % n
        card = next(iter(hands[mover]))
        rows = np.array([[h.mask for h in hands]], dtype=np.uint64)
        r = solve_after_cards(lay, None, rows, [card], leader=leader, trick=trick, played=before, sides=1)
        one = solve(lay, None, hands, leader=leader, trick=trick, played=before, sides=1)
        won, last, melds = line_results(lay, hands, leader, [], trick + [card], 1)
        assert r.value[0] == one.card_values[card] == one.value
        assert (r.side_tricks[0], r.last_trick_winner[0], r.side_melds[0], r.opp_melds[0]) == (won, last, *melds)


@pytest.mark.parametrize("gid,contract,tricks_left,goal", [
    ("goathead3", "hearts", 6, None),       # a whole deal: 18 live cards, one full window a card
    ("sheepshead", "jd", 5, None),          # 25 and more: each card bisected, first at the best so far
    ("clover", "hearts", 7, None),
    ("hearts", "hearts", 6, "min"),         # one seat's fewest points: the minimiser's cards
])
def test_card_values_of_large_positions(gid, contract, tricks_left, goal):
    """``solve``'s every card's value on positions above the brute force's reach (the
    kernel searches each card from the best value found before it) equals each card's
    exact value solved on its own by ``solve_after_cards`` (the kernel's ``exact_value``
    of the position after the card), for the declarer's side and its opponents on move."""
    from trickcore.solver import solve_after_cards

    lay = get_game(gid).layout(contract)
    n = lay.n_seats
    rng = np.random.default_rng(30)
    movers = set()
    for k in range(12):
        on_table = k % n
        hands, leader, trick, before, suits = played_out(lay, rng, tricks_left, on_table)
        mover = (leader + on_table) % n
        sides = 1 << mover if k % 2 else (1 << ((mover + 1) % n))     # the next seat's side, then the mover's
        kw = dict(sides=sides, goal=goal)
        one = solve(lay, None, hands, leader=leader, trick=trick, played=before, suits_led=suits, **kw)
        legal = list(one.card_values)
        rows = np.array([[h.mask for h in hands]], dtype=np.uint64)
        r = solve_after_cards(lay, None, rows, legal, leader=leader, trick=trick, played=before, suits_led=suits,
                              line=False, **kw)
        assert r.value.tolist() == [one.card_values[c] for c in legal], (gid, k)
        assert one.value == (min if (goal == "min") == bool(sides >> mover & 1) else max)(one.card_values.values())
        movers.add(bool(sides >> mover & 1))
    assert movers == {True, False}
