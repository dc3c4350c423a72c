"""Round engine: every game's phases, the invariants of every round's scores, illegal input."""

from __future__ import annotations

import pytest

from trickcore.cards import Card, CardSet
from trickcore.games import get_game
from trickcore.policies import HeuristicPolicy, RandomPolicy
from trickcore.rounds import play_round, start_round

GAMES = ("goathead3", "goathead4", "clover", "gamut", "sheepshead", "hearts", "spades", "ohhell")


def check_round(rec) -> None:
    """The invariants of one finished round; raises AssertionError naming the broken one."""
    g = get_game(rec.game)
    n = g.n_seats
    pay = rec.payouts
    assert len(pay) == n
    if rec.thrown_in:
        assert pay == [0.0] * n and not rec.tricks
        return
    f = rec.frame
    hand = rec.extra.get("hand_size", g.hand_size)
    tricks = sum(rec.trick_counts)
    # every card of every trick is distinct and each trick has one card per active seat
    cards = [c for t in rec.tricks for _, c in t.plays]
    assert len(cards) == len(set(cards))
    if rec.game in ("goathead3", "goathead4"):
        assert abs(sum(pay)) < 1e-9, "goathead is net zero"
        if rec.contract == "nil" and tricks < hand:
            assert rec.trick_counts[rec.declarer] == 1, "nil stops at the declarer's first trick"
            assert sum(rec.points) + f["kitty_points"] <= 120
        else:
            assert tricks == hand
            assert sum(rec.points) + f["kitty_points"] == 120, "card points total 120"
        if rec.contract != "leasters":
            assert rec.side_mask >> rec.declarer & 1
    elif rec.game == "sheepshead":
        assert abs(sum(pay)) < 1e-9, "sheepshead is net zero"
        assert tricks == hand
        assert sum(rec.points) + f["kitty_points"] == 120
        assert rec.multiplier >= 1 and rec.multiplier & (rec.multiplier - 1) == 0
    elif rec.game == "clover":
        assert tricks == hand
        assert sum(rec.points) == 150, "152 card points, -2 for the last trick"
        assert pay[0] == pay[2] and pay[1] == pay[3], "partners share the team score"
        assert rec.side_mask in (0b0101, 0b1010)
    elif rec.game == "gamut":
        assert tricks == hand
        game = rec.extra["gamut_game"]
        if game == "hearts":
            assert sum(rec.points) == 16, "8 hearts and Q♠ worth 8"
            assert all(-15 * rec.multiplier <= p <= 12 * rec.multiplier for p in pay)
        elif game == "spades":
            assert pay[0] == pay[2] and pay[1] == pay[3]
        else:
            for s in range(n):
                if f[f"folded_{s}"]:
                    assert rec.trick_counts[s] == 0 and pay[s] == 0
                else:
                    assert pay[s] == (2 * rec.trick_counts[s] if rec.trick_counts[s] else -6) * rec.multiplier
    elif rec.game == "hearts":
        assert tricks == hand
        jack = rec.rules["jack_of_diamonds"]
        assert sum(rec.points) == (16 if jack else 26)
        assert sum(pay) in ((16, 68) if jack else (26, 78)), "26 a round, 78 on a moon"
    elif rec.game == "spades":
        assert tricks == hand
        assert pay[0] == pay[2] and pay[1] == pay[3]
    elif rec.game == "ohhell":
        assert tricks == hand
        # 10 for the exact bid, plus 1 a trick as trick_points says, times the multiplier
        mode = rec.rules["trick_points"]
        for s in range(n):
            t = rec.trick_counts[s]
            exact = f[f"bid_{s}"] == t
            per_trick = t if mode == "always" or (mode == "exact_only" and exact) else 0
            assert pay[s] == (10 * exact + per_trick) * rec.multiplier, (s, f[f"bid_{s}"], t, mode)


def _random(n, seed):
    return [RandomPolicy(seed=seed * 10 + s) for s in range(n)]


@pytest.mark.parametrize("game", GAMES)
def test_random_rounds_keep_the_invariants(game):
    n = get_game(game).n_seats
    for seed in range(25):
        rec = play_round(game, _random(n, seed), seed=seed, dealer=seed % n, round_index=seed)
        check_round(rec)
        row = rec.row()
        assert row["game"] == game and f"payout_{n - 1}" in row


@pytest.mark.parametrize("game", GAMES)
def test_heuristic_rounds_keep_the_invariants(game):
    n = get_game(game).n_seats
    for seed in range(8):
        check_round(play_round(game, [HeuristicPolicy()] * n, seed=seed, dealer=seed % n, round_index=seed))


def test_record_converts_to_a_dataframe():
    import pandas as pd

    recs = [play_round("goathead3", _random(3, s), seed=s) for s in range(3)]
    df = pd.DataFrame([r.row() for r in recs])
    assert {"contract", "declarer", "payout_0", "points_2", "tricks_1", "bids"} <= set(df.columns)
    assert len(df) == 3


def test_same_seed_same_round():
    a = play_round("sheepshead", _random(5, 1), seed=42)
    b = play_round("sheepshead", _random(5, 1), seed=42)
    assert a.row() == b.row()


# -- phases ----------------------------------------------------------------------------
def _drive(r, answers):
    """Answer decisions from a list; the rest with the first legal answer."""
    answers = list(answers)
    while not r.done:
        d = r.pending
        if answers and answers[0][0] == d.seat and answers[0][1] == (d.phase or d.kind):
            r.act(answers.pop(0)[2])
        else:
            r.act(d.legal[0] if d.count == 1 else tuple(d.legal[: d.count]))
    assert not answers, f"unused answers {answers}"
    return r.record


def test_goathead_all_pass_is_leasters_and_dealer_left_leads():
    r = start_round("goathead3", seed=5, dealer=2)
    rec = _drive(r, [(0, "bid", "pass"), (1, "bid", "pass"), (2, "bid", "pass")])
    assert rec.contract == "leasters" and rec.declarer is None
    assert rec.tricks[0].leader == 0


def test_goathead_steal_needs_a_lower_game_total():
    r = start_round("goathead3", seed=5, dealer=0, scores=[0, 3, -2])
    r.act("hearts")                                   # seat 1 (3 game points) bids
    assert "steal" in r.pending.legal                 # seat 2 has fewer: may steal
    r.act("steal")
    assert r.pending.seat == 0 and "steal" not in r.pending.legal  # 0 > -2: no steal
    r = start_round("goathead3", seed=5, dealer=0, scores=[0, 3, 3])
    r.act("hearts")
    with pytest.raises(ValueError, match="a steal needs fewer game points than the high bidder"):
        r.act("steal")                                # equal totals may not steal
    with pytest.raises(ValueError, match="must be higher than hearts"):
        r.act("diamonds")
    r = start_round("goathead3", seed=5, dealer=0, scores=[0, 3, -2], steal=False)
    r.act("hearts")
    assert "steal" not in r.pending.legal


def test_goathead3_kitty_bury_and_raise():
    hands = ["JC JS AC 10C KC QC", "JH JD AD 10D KD QD", "AH 10H KH QH AS 10S"]
    r = start_round("goathead3", hands=hands, kitty="KS QS", dealer=2)
    r.act("clubs")                                    # seat 0
    r.act("pass").act("pass")
    assert r.pending.kind == "pick_or_pass"
    r.act(True)
    assert len(r.pending.legal) == 8 and r.pending.count == 2
    with pytest.raises(ValueError, match="needs 2 distinct"):
        r.act(("KS",))
    r.act(("KS", "QS"))
    assert r.pending.phase == "raise" and r.pending.legal == ("clubs", "court")
    r.act("court")
    assert r.contract == "court" and r.exchanged
    obs = r.observe(0)
    assert obs.kitty_known == CardSet.parse("KS QS")
    assert r.observe(1).kitty_known == CardSet()


def test_goathead4_kitty_goes_round_and_sides_follow_the_hands():
    hands = ["JC QH AC 10C", "JS KD 10D QD", "JH JD AD KC", "AH 10H KH AS"]
    r = start_round("goathead4", hands=hands, kitty="10S KS QS QC", dealer=3)
    r.act("hearts")                                   # seat 0 bids hearts
    r.act("pass").act("pass").act("pass")
    order = []
    while r.pending.kind == "exchange":
        order.append(r.pending.seat)
        r.act(None)
    assert order == [0, 1, 2, 3, 3]                   # declarer, then left, dealer again
    assert r.side_mask == 0b0011                      # J♣ (seat 0) and J♠ (seat 1)
    obs = r.observe(2)
    assert obs.partner_cards == CardSet.parse("JC JS QH")
    assert 0 not in obs.known and 1 not in obs.known  # the partners stay hidden


def test_hearts_passing_cycle_and_two_of_clubs_leads():
    for idx, direction in enumerate(("left", "right", "across", "none")):
        r = start_round("hearts", seed=idx, round_index=idx)
        rec = _drive(r, [])
        assert rec.extra["passing"] == direction
        assert rec.tricks[0].plays[0][1] == Card.parse("2C")
    r = start_round("hearts", seed=0, round_index=0, passing="none")
    assert r.pending.kind == "play"


def test_hearts_pass_is_known_to_the_passer_only():
    r = start_round("hearts", seed=3, round_index=0)
    passes = {}
    for s in range(4):
        passes[s] = tuple(r.pending.legal[:3])
        r.act(passes[s])
    assert r.observe(0).known[1] == CardSet(passes[0])   # passed left
    assert 1 not in r.observe(2).known


def test_a_passed_card_the_receiver_saw_is_known_to_be_in_its_own_hand():
    # a card revealed by seat 0 (a turned card) and then passed to seat 1: seat 1 holds it,
    # so it may no longer "know" seat 0 holds it; seat 2 no longer knows where it is
    r = start_round("hearts", seed=3, round_index=0)
    card = CardSet([next(iter(r.hands[0]))])
    r.reveal(0, card)
    r.move(0, 1, card)
    assert card & r.hands[1] == card
    assert not (r.observe(1).known.get(0, CardSet()) & card)
    assert not (r.observe(2).known.get(0, CardSet()) & card)
    assert r.observe(0).known[1] & card == card


def test_spades_first_bidder_leads():
    rec = _drive(start_round("spades", seed=1, dealer=1), [])
    assert [s for s, _, _ in rec.bids] == [2, 3, 0, 1]
    assert rec.tricks[0].leader == 2


def test_ohhell_hand_sizes_trump_and_no_equal_total():
    r = start_round("ohhell", seed=1, dealer=0, round_index=9, no_equal_total=True)
    assert len(r.hands[0]) == 1                       # 10 9 ... 1: the tenth round
    for _ in range(3):
        r.act(0)
    assert r.pending.seat == 0 and 1 not in r.pending.legal
    with pytest.raises(ValueError, match="illegal bid 1 .*dealer may not make the bids add up to 1"):
        r.act(1)
    r = start_round("ohhell", seed=2, trump_card="next_card", sequence="always_13")
    assert r.contract == "notrump" and len(r.hands[0]) == 13   # no card left to turn
    r = start_round("ohhell", seed=2, trump_card="next_card", hand_size=5)
    assert r.turned in r.kitty and r.contract[0].upper() == r.turned.suit_letter
    assert r.observe(1).kitty_known == CardSet([r.turned])


def test_gamut_turned_card_picks_the_game():
    seen = set()
    for seed in range(30):
        r = start_round("gamut", seed=seed)
        rec = _drive(r, [])
        game = rec.extra["gamut_game"]
        seen.add(game)
        if r.turned.suit_letter != "D":
            assert game == {"H": "hearts", "S": "spades", "C": "clubs"}[r.turned.suit_letter]
        if game == "spades":
            assert rec.tricks[0].leader == rec.dealer
        if game == "hearts":
            assert rec.tricks[0].plays[0][1] == Card.parse("9C")
    assert seen == {"hearts", "spades", "clubs"}


def test_gamut_diamonds_throw_ins_multiply_or_double_once():
    for rule, expected in (("multiply", 4), ("once", 2)):
        for seed in range(1000):
            r = start_round("gamut", seed=seed, diamonds_doubling=rule)
            for throw in range(2):
                if r.pending.phase != "choose_game":
                    break
                assert r.pending.seat == r.dealer             # the dealer chooses first
                for _ in range(4):
                    r.act("pass")
                assert r.multiplier == (2 if throw == 0 else expected)
            else:
                break
        else:
            pytest.fail("no seed with two diamond deals in a row")
        rec = _drive(r, [])
        assert rec.multiplier == expected and rec.extra["throw_ins"] == 2
        check_round(rec)


def test_gamut_clubs_folding():
    seed = next(s for s in range(200) if start_round("gamut", seed=s).turned.suit_letter == "C")
    r = start_round("gamut", seed=seed, dealer=0)
    assert r.pending.kind == "fold" and r.pending.seat == 1
    r.act(True).act(True).act(False)                  # seats 1, 2 fold; 3 plays
    r.act(True)                                       # the dealer folds too
    rec = _drive(r, [])
    assert rec.contract == "clubs_1" and rec.tricks[0].leader == 3
    assert rec.trick_counts[3] == 8 and rec.payouts == [0.0, 0.0, 0.0, 16.0]
    r = start_round("gamut", seed=seed, dealer=0)
    r.act(True).act(True).act(True)
    assert r.pending.legal == (False,)                # someone must play


def test_clover_bidding_rounds_and_card_pass():
    r = start_round("clover", seed=4, dealer=3)
    turned = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[r.turned.suit_letter]
    for _ in range(4):
        r.act("pass")
    assert r.pending.phase == "name" and turned not in r.pending.legal
    r.act("notrump")                                  # seat 0
    other = next(x for x in r.pending.legal if x not in ("pass", "notrump"))
    assert "notrump" not in r.pending.legal
    r.act(other)                                      # seat 1 outbids with a suit
    assert r.contract == other and r.declarer == 1
    assert r.pending.seat == 3 and r.pending.phase == "to_declarer"
    card = r.pending.legal[0]
    r.act(card)
    assert card in r.hands[1] and r.pending.seat == 1 and r.pending.phase == "to_partner"
    r = start_round("clover", seed=4, dealer=3, notrump_outbid=False)
    for _ in range(4):
        r.act("pass")
    r.act("notrump")
    assert r.contract == "notrump" and r.declarer == 0
    r = start_round("clover", seed=4, dealer=3, turned_suit_again=True)
    for _ in range(4):
        r.act("pass")
    assert turned in r.pending.legal


def test_clover_all_pass_twice_redeals_same_dealer():
    r = start_round("clover", seed=4, dealer=2)
    first = list(r.hands)
    for _ in range(8):
        r.act("pass")
    assert r.pending.phase == "accept" and r.pending.seat == 3 and r.hands != first


def test_sheepshead_no_pick_variants():
    for rule in ("redeal", "doubler"):
        r = start_round("sheepshead", seed=1, no_pick=rule)
        for _ in range(5):
            r.act(False)
        assert r.done and r.record.thrown_in
    r = start_round("sheepshead", seed=1, no_pick="leaster")
    for _ in range(5):
        r.act(False)
    rec = _drive(r, [])
    assert rec.contract == "leaster" and rec.declarer is None
    check_round(rec)
    r = start_round("sheepshead", seed=1, dealer=4)
    for _ in range(5):
        r.act(False)
    assert r.declarer == 4                            # the dealer must pick


def test_sheepshead_called_ace_must_keep_a_card_of_the_called_suit():
    hands = ["AC AS AH 10C 10S 10H", "7H QC QS JC AD 10D", "KH 9H 8H 7S 8S 9S",
             "QH QD JS JH JD KD", "9D 8D 7D KC 9C 8C"]
    r = start_round("sheepshead", hands=hands, kitty="7C KS", dealer=0, partner="called_ace",
                    crack=False, blitz=False)
    r.act(True)                                       # seat 1 picks
    assert r.pending.kind == "call"
    assert set(r.pending.legal) == {"called_ace_clubs", "called_ace_spades", "called_ace_hearts", "alone"}
    r.act("called_ace_hearts")
    with pytest.raises(ValueError, match="must keep a card of the called suit"):
        r.act(("7H", "QC"))
    r.act(("7C", "KS"))
    assert r.partner == 0 and r.side_mask == 0b11
    obs = r.observe(3)
    assert obs.partner_cards == CardSet.parse("AH") and 0 not in obs.known


def test_sheepshead_jd_picker_alone_or_call_jack_and_multipliers():
    hands = ["JD QC QS 7H 8H 9H", "AC AS AH 10C 10S 10H", "KH QH QD JS JH KD",
             "9D 8D 7D KC 9C 8C", "7S 8S 9S KS JC AD"]
    common = dict(hands=hands, kitty="7C 10D", dealer=4)
    r = start_round("sheepshead", **common)
    r.act(True)                                       # seat 0 picks, holds J♦
    assert r.pending.phase == "blitz"                 # both black queens
    r.act("blitz")
    assert r.pending.phase == "red_blitz" and r.pending.seat == 2
    r.act("red_blitz")
    r.act(("7H", "8H"))                               # bury
    assert r.contract == "jd" and r.side_mask == 1 and r.partner == -1 and r.multiplier == 4
    assert r.pending.phase == "crack" and r.pending.seat == 1
    r.act("crack")
    assert r.pending.phase == "recrack" and r.pending.seat == 0
    r.act("recrack")
    assert r.multiplier == 16
    rec = _drive(r, [])
    check_round(rec)
    r = start_round("sheepshead", jd_picker="call_jack", blitz=False, **common)
    r.act(True)
    assert r.pending.kind == "call" and set(r.pending.legal) == {"jc", "js", "jh", "alone"}
    r.act("jh")
    r.act(("7H", "8H"))
    assert r.partner == 2
    r = start_round("sheepshead", announce_alone=True, blitz=False, crack=False, **common)
    r.act(True).act(("7H", "8H"))
    assert r.contract == "alone"


# -- illegal input -----------------------------------------------------------------------
def test_illegal_bids_and_plays_raise():
    r = start_round("goathead3", seed=1)
    with pytest.raises(ValueError, match=r"illegal bid 'bogus' by seat 1 \(not a contract of the ladder\); legal: 'pass'"):
        r.act("bogus")
    r = start_round("spades", seed=1)
    with pytest.raises(ValueError, match="illegal bid 14"):
        r.act(14)
    with pytest.raises(ValueError, match="illegal bid True"):
        r.act(True)
    r = start_round("hearts", seed=1, passing="none")
    leader = r.pending.seat
    other = next(c for c in r.hands[leader] if c != Card.parse("2C"))
    with pytest.raises(ValueError, match="2♣ must lead the first trick"):
        r.act(other)
    absent = next(c for c in get_game("hearts").deck if c not in r.hands[leader])
    with pytest.raises(ValueError, match=f"{absent} is not in seat {leader}'s hand"):
        r.act(absent)
    r.act("2C")
    seat = r.pending.seat
    hand = r.hands[seat]
    if hand.suit("C") and hand - hand.suit("C"):      # must follow clubs
        with pytest.raises(ValueError, match="must follow clubs, led with 2♣"):
            r.act(next(iter(hand - hand.suit("C"))))
    r.act(r.pending.legal[0])
    rec = _drive(r, [])
    with pytest.raises(ValueError, match="round is over"):
        r.act("2C")
    check_round(rec)


def test_unknown_options_and_values_raise():
    with pytest.raises(ValueError, match="unknown rule option.*valid options: .*steal"):
        start_round("goathead3", seed=1, stael=True)
    with pytest.raises(ValueError, match="valid values"):
        start_round("sheepshead", seed=1, no_pick="sometimes")
    with pytest.raises(ValueError, match="unknown game"):
        start_round("bridge", seed=1)
    with pytest.raises(ValueError, match="needs 3 policies"):
        play_round("goathead3", _random(2, 0), seed=1)
    with pytest.raises(ValueError, match="already in another hand"):
        start_round("goathead3", hands=["JC JS AC 10C KC QC"] * 3)
    with pytest.raises(ValueError, match="dealer"):
        start_round("goathead3", seed=1, dealer=3)
