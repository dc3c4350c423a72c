"""Clover rule options: ``four_low_ranks`` for hand melds in rounds and PIMC, and
``melds_when_set`` (the defenders' own melds when they set the declaring team), and who
leads the first trick."""

import pandas as pd
import pytest

from trickcore.cards import CardSet, parse_card, parse_hand
from trickcore.games import get_game
from trickcore.policies import RandomPolicy
from trickcore.policies.pimc import PIMCPolicy
from trickcore.rounds import drive, start_round
from trickcore.scoring import _frame as F
from trickcore.scoring import score

#: Seat 0 holds four 9s: with spades trump, 40 by default (runs 7-8-9 in clubs and in
#: diamonds), 150 under ``four_low_ranks='jass'`` (four 9s; the 7s and 8s are left over).
HANDS = ["9C 9D 9H 9S 7C 8C 7D 8D",
         "AC KC QC JC 10C AD KD QD",   # run of 5 (100) + run of 3 (20) = 120
         "JD 10D AH KH QH JH 10H 8H",  # run of 5 in hearts = 100
         "7H AS KS QS JS 10S 8S 7S"]   # run of 5 in spades (100) + Bell (20) = 120


def spades_by_seat_0(**rules):
    """Dealer 3, seat 0 declares spades; the partner's card (8♥) goes to seat 0 and back,
    so every hand is as dealt when the melds are counted."""
    r = start_round("clover", seed=1, dealer=3, hands=HANDS, **rules)
    assert r.pending.seat == 0 and r.pending.phase == "accept"
    if r.turned.suit_letter == "S":
        r.act("play")
    else:
        for _ in range(4):
            r.act("pass")
        r.act("spades")
    assert (r.contract, r.declarer) == ("spades", 0)
    eight = parse_card("8H")
    assert (r.pending.seat, r.pending.phase) == (2, "to_declarer")
    r.act(eight)
    assert (r.pending.seat, r.pending.phase) == (0, "to_partner")
    r.act(eight)
    assert [CardSet(h) for h in r.hands] == [parse_hand(h) for h in HANDS]
    return r


# -- four_low_ranks: hand melds in the round engine -------------------------------------------
@pytest.mark.parametrize("rules,seat0,side,opp", [
    ({}, 40, 140, 240),
    ({"four_low_ranks": "set_of_three"}, 40, 140, 240),
    ({"four_low_ranks": "jass"}, 150, 250, 240),
])
def test_round_hand_melds_follow_four_low_ranks(rules, seat0, side, opp):
    r = spades_by_seat_0(**rules)
    assert r.hand_meld == [seat0, 120, 100, 120]
    assert [(s, v) for s, p, v in r.bids if p == "melds"] == [(0, seat0), (1, 120), (2, 100), (3, 120)]
    rec = drive(r, [RandomPolicy(seed=s) for s in range(4)])
    assert rec.frame["side_hand_melds"] == side
    assert rec.frame["opp_hand_melds"] == opp
    assert rec.extra["side_hand_melds"] == side


# -- four_low_ranks: hand melds in PIMC's bid / pass evaluation -------------------------------
@pytest.mark.parametrize("rules,side", [({}, 140), ({"four_low_ranks": "jass"}, 250)])
def test_pimc_clover_margin_hand_melds_follow_four_low_ranks(rules, side):
    r = spades_by_seat_0(**rules)
    obs = r.observe(0)
    p = PIMCPolicy(samples=1, seed=0)
    seen = []
    real = p._score_rows

    def spy(*a, **kw):
        seen.append(kw.get("extra"))
        return real(*a, **kw)

    p._score_rows = spy
    deals = [([parse_hand(h) for h in HANDS], CardSet())]
    eight = parse_card("8H")
    p._clover_margin(obs, "spades", deals, 0, give=eight, back=eight)
    assert len(seen) == 1
    assert seen[0]["side_hand_melds"].tolist() == [side]
    assert seen[0]["opp_hand_melds"].tolist() == [240]


# -- melds_when_set ---------------------------------------------------------------------------
#: The text's score sheet (Team 1 = seats 0 and 2 declares both hands; hand 2 is 75-75: set).
SHEET = pd.DataFrame({
    "contract": ["hearts", "spades"], "declarer": [0, 2], "side_mask": [5, 5],
    "side_points": [127, 75],
    "side_hand_melds": [50, 100], "side_trick_melds": [20, 20],
    "opp_hand_melds": [100, 20], "opp_trick_melds": [40, 20]})


def test_melds_when_set_is_registered_with_the_ruling_as_default():
    opt = get_game("clover").options["melds_when_set"]
    assert opt.default == "defenders_keep"
    assert tuple(opt.choices) == ("defenders_keep", "defenders_lose")
    assert opt.doc
    assert not opt.affects_layout
    assert F.OPTIONS["clover"]["melds_when_set"] == ("defenders_keep", ("defenders_keep", "defenders_lose"))
    assert get_game("clover").check_rules()["melds_when_set"] == "defenders_keep"
    assert F.resolve_rules("clover", {})["melds_when_set"] == "defenders_keep"


@pytest.mark.parametrize("rules", [{}, {"melds_when_set": "defenders_keep"}])
def test_melds_when_set_default_is_the_worked_example(rules):
    s = score("clover", SHEET, rules)
    assert s["made"].tolist() == [True, False]
    assert s["side_score"].tolist() == [12, 0]
    assert s["opp_score"].tolist() == [16, 30]  # hand 2: 4 + 7 + 12 + 7
    assert (int(s["payout_0"].sum()), int(s["payout_1"].sum())) == (12, 46)
    assert s["opp_melds_kept"].tolist() == [True, True]


def test_melds_when_set_defenders_lose_follows_the_texts_note():
    # Hand 2: Team 2 takes its own 75 trick points (7), Team 1's 75 (7) and 120 melds (12),
    # but not its own 40 melds: 26; hand 1 (made) is unchanged: 16.  Team 2 = 42.
    s = score("clover", SHEET, {"melds_when_set": "defenders_lose"})
    assert s["made"].tolist() == [True, False]
    assert s["side_score"].tolist() == [12, 0]
    assert s["opp_score"].tolist() == [16, 26]
    assert (int(s["payout_0"].sum()), int(s["payout_1"].sum())) == (12, 42)
    assert s["opp_melds_kept"].tolist() == [True, False]
    assert s["side_melds_kept"].tolist() == [False, False]


@pytest.mark.parametrize("option,expected", [("defenders_keep", 24), ("defenders_lose", 17)])
def test_melds_when_set_with_defenders_out_melding(option, expected):
    # Set 60-90; declarers' melds 20, defenders' 70: 9 + (7) + 6 + 2.
    row = pd.DataFrame({"contract": ["clubs"], "declarer": [1], "side_mask": [10], "side_points": [60],
                        "side_hand_melds": [20], "side_trick_melds": [0],
                        "opp_hand_melds": [50], "opp_trick_melds": [20], "multiplier": [2]})
    s = score("clover", row, {"melds_when_set": option})
    assert bool(s["made"][0]) is False
    assert int(s["side_score"][0]) == 0
    assert int(s["opp_score"][0]) == 2 * expected
    assert [int(s[f"payout_{k}"][0]) for k in range(4)] == [2 * expected, 0, 2 * expected, 0]


def test_melds_when_set_does_not_change_a_made_bid():
    row = SHEET.iloc[[0]].reset_index(drop=True)
    keep = score("clover", row, {"melds_when_set": "defenders_keep"})
    lose = score("clover", row, {"melds_when_set": "defenders_lose"})
    assert keep["opp_score"].tolist() == lose["opp_score"].tolist() == [16]
    assert keep["side_score"].tolist() == lose["side_score"].tolist() == [12]


@pytest.mark.parametrize("bad", ["defenders", "keep", True, None])
def test_melds_when_set_unknown_value_names_the_option(bad):
    for call in (lambda: score("clover", SHEET, {"melds_when_set": bad}),
                 lambda: start_round("clover", seed=1, melds_when_set=bad)):
        with pytest.raises(ValueError, match="'melds_when_set' cannot be") as e:
            call()
        assert "'defenders_keep'" in str(e.value) and "'defenders_lose'" in str(e.value)


def test_round_scores_with_melds_when_set():
    for option in ("defenders_keep", "defenders_lose"):
        r = spades_by_seat_0(melds_when_set=option)
        rec = drive(r, [RandomPolicy(seed=s) for s in range(4)])
        again = score("clover", pd.DataFrame([rec.frame]), {"melds_when_set": option})
        assert rec.payouts == [float(again[f"payout_{s}"][0]) for s in range(4)]


# -- who leads the first trick ----------------------------------------------------------------
def _to_play(r, declarer):
    """Answer the card pass (the partner's lowest card, the declarer's lowest back)."""
    assert r.declarer == declarer
    partner = (declarer + 2) % 4
    assert (r.pending.seat, r.pending.phase) == (partner, "to_declarer")
    r.act(r.pending.legal[-1])
    assert (r.pending.seat, r.pending.phase) == (declarer, "to_partner")
    r.act(r.pending.legal[-1])
    return r


@pytest.mark.parametrize("dealer,passes", [(3, 1), (3, 2), (0, 2), (1, 3), (2, 0)])
def test_declarer_accepting_in_round_one_leads_the_first_trick(dealer, passes):
    """clover.md: "The Declarer leads the first trick" -- not the dealer's left."""
    r = start_round("clover", seed=7, dealer=dealer)
    for _ in range(passes):
        r.act("pass")
    declarer = (dealer + 1 + passes) % 4
    assert r.pending.seat == declarer
    r.act("play")
    _to_play(r, declarer)
    assert (r.pending.seat, r.pending.kind) == (declarer, "play")
    while len(r.tricks) < 1:
        r.act(r.pending.legal[0])
    assert r.tricks[0].leader == declarer
    assert r.tricks[0].plays[0][0] == declarer
    assert [s for s, _ in r.tricks[0].plays] == [(declarer + k) % 4 for k in range(4)]


def test_declarer_naming_in_round_two_leads_the_first_trick():
    r = start_round("clover", seed=7, dealer=0)
    for _ in range(4):
        r.act("pass")
    r.act("pass")  # seat 1
    assert (r.pending.seat, r.pending.phase) == (2, "name")
    suit = next(b for b in r.pending.legal if b not in ("pass", "notrump"))
    r.act(suit)
    _to_play(r, 2)
    assert r.contract == suit
    rec = drive(r, [RandomPolicy(seed=s) for s in range(4)])
    assert rec.tricks[0].leader == 2
    assert rec.tricks[0].plays[0][0] == 2
