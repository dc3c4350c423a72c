"""Gamut rule options ``team_bid_cap`` (Spades) and ``last_may_fold`` (Clubs), and the
Hearts game's one-left-one-right pass."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pandas as pd
import pytest

from trickcore.cards import Card, CardSet
from trickcore.games import get_game
from trickcore.policies import HeuristicPolicy, PIMCPolicy, RandomPolicy
from trickcore.policies.inference import _legal_bids
from trickcore.rounds import drive, play_match, start_round
from trickcore.rounds.gamut import spades_legal_bids
from trickcore.scoring import _frame as F
from trickcore.scoring import score
from trickcore.scoring.gamut import spades_team_score

SUITS = {
    "S": "AS KS QS JS 10S 9S 8S 7S",
    "H": "AH KH QH JH 10H 9H 8H 7H",
    "D": "AD KD QD JD 10D 9D 8D 7D",
    "C": "AC KC QC JC 10C 9C 8C 7C",
}


def fixed_round(game_suit: str, dealer: int = 0, **rules):
    """A round whose dealer holds all eight cards of ``game_suit`` (so the turned card, one
    of them, picks that game); the next seats hold the other suits in the order S H D C."""
    others = [s for s in "SHDC" if s != game_suit]
    hands = [None] * 4
    hands[dealer] = SUITS[game_suit]
    for i, s in enumerate(others, start=1):
        hands[(dealer + i) % 4] = SUITS[s]
    r = start_round("gamut", seed=1, dealer=dealer, hands=hands, **rules)
    assert r.turned.suit_letter == game_suit
    return r


def spades_rounds(n: int, policy_seed: int, **rules):
    """``n`` Gamut rounds that land on the Spades game (turned or chosen), random policies."""
    out = []
    for seed in itertools.count():
        r = start_round("gamut", seed=seed, dealer=seed % 4, **rules)
        rec = drive(r, [RandomPolicy(seed=policy_seed * 100_000 + 4 * seed + s) for s in range(4)])
        if rec.extra["gamut_game"] == "spades":
            out.append(rec)
            if len(out) == n:
                return out


# -- team_bid_cap --------------------------------------------------------------------------
def test_options_registered_with_defaults_and_validated():
    g = get_game("gamut")
    assert g.check_rules()["team_bid_cap"] is True
    assert g.check_rules()["last_may_fold"] is False
    assert g.options["team_bid_cap"].doc and g.options["last_may_fold"].doc
    assert g.layout_options == ()
    assert F.OPTIONS["gamut"]["team_bid_cap"] == (True, (True, False))
    assert F.OPTIONS["gamut"]["last_may_fold"] == (False, (False, True))
    for name in ("team_bid_cap", "last_may_fold"):
        for bad in (1, 0, "yes", None):
            with pytest.raises(ValueError, match="valid values"):
                g.check_rules(**{name: bad})
            with pytest.raises(ValueError, match="valid values"):
                start_round("gamut", seed=4, **{name: bad})
            with pytest.raises(ValueError, match=name):
                F.resolve_rules("gamut", {name: bad})
    assert F.resolve_rules("gamut", {"team_bid_cap": False})["team_bid_cap"] is False


def test_spades_legal_bids():
    assert spades_legal_bids(None) == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    assert spades_legal_bids(8) == (0,)
    assert spades_legal_bids(0) == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    assert spades_legal_bids(3) == (0, 1, 2, 3, 4, 5)
    assert spades_legal_bids(8, cap=False) == tuple(range(9))


def test_second_partner_after_an_eight_may_only_bid_zero():
    r = fixed_round("S", dealer=0)                     # bidding order: seats 1, 2, 3, 0
    assert r.pending.seat == 1 and r.pending.legal == tuple(range(9))
    r.act(8)                                           # seat 1 (team 1+3)
    assert r.pending.seat == 2 and r.pending.legal == tuple(range(9))   # partner 0 has not bid
    r.act(3)                                           # seat 2 (team 0+2)
    assert r.pending.seat == 3 and r.pending.legal == (0,)
    with pytest.raises(ValueError, match="team_bid_cap: the partner bid 8"):
        r.act(1)
    r.act(0)
    assert r.pending.seat == 0 and r.pending.legal == (0, 1, 2, 3, 4, 5)
    with pytest.raises(ValueError, match="team_bid_cap: the partner bid 3"):
        r.act(6)
    r.act(5)
    assert r.pending.kind == "play" and r.bid_of == [5, 8, 3, 0]


@pytest.mark.parametrize("dealer", range(4))
def test_every_legal_bid_sequence_keeps_each_team_at_most_eight(dealer):
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    sequences = 0
    reached_eight = set()

    def walk(prefix):
        nonlocal sequences
        r = fixed_round("S", dealer=dealer)
        for b in prefix:
            r.act(b)
        if len(prefix) == 4:
            assert r.pending.kind == "play"
            bid = r.bid_of
            assert [bid[s] for s in order] == list(prefix)
            team = (bid[0] + bid[2], bid[1] + bid[3])
            assert max(team) <= 8, (prefix, team)
            reached_eight.update(t for t in (0, 1) if team[t] == 8)
            sequences += 1
            return
        seat = order[len(prefix)]
        assert r.pending.seat == seat
        expected = 8 - prefix[len(prefix) - 2] if len(prefix) >= 2 else 8   # the partner bid 2 turns ago
        assert r.pending.legal == tuple(range(expected + 1))
        for b in r.pending.legal:
            walk(prefix + (b,))

    walk(())
    assert sequences == 45 * 45                        # sum over first bids b of (9 - b), per team
    assert reached_eight == {0, 1}                     # the cap is reachable, not stricter


def test_capped_rounds_score_within_the_texts_range():
    # every team bid 0..8 against every trick count: exactly the text's -16 .. 13
    tb, tt = np.meshgrid(np.arange(9), np.arange(9))
    s = spades_team_score(tb.ravel(), tt.ravel())
    assert (int(s.min()), int(s.max())) == (-16, 13)
    # random bidders choose uniformly among the legal bids, so they run into the cap often
    recs = spades_rounds(300, policy_seed=1)
    capped = 0
    for rec in recs:
        b = [rec.frame[f"bid_{i}"] for i in range(4)]
        assert b[0] + b[2] <= 8 and b[1] + b[3] <= 8, b
        unit = [p / rec.multiplier for p in rec.payouts]
        assert all(-16 <= p <= 13 for p in unit), (b, unit)
        capped += sum(1 for t in (b[0] + b[2], b[1] + b[3]) if t == 8)
    assert capped >= 20
    lows = min(p / r.multiplier for r in recs for p in r.payouts)
    assert lows <= -12


def test_uncapped_rounds_leave_the_texts_range():
    recs = spades_rounds(100, policy_seed=1, team_bid_cap=False)
    over = [r for r in recs if max(r.frame["bid_0"] + r.frame["bid_2"], r.frame["bid_1"] + r.frame["bid_3"]) > 8]
    assert len(over) >= 50
    assert min(p / r.multiplier for r in recs for p in r.payouts) < -16


def test_uncapped_eight_zero_eight_zero_is_reachable_and_scores_minus_32():
    r = fixed_round("S", dealer=0, team_bid_cap=False)
    r.act(0).act(8).act(0)                             # seats 1, 2, 3
    assert r.pending.seat == 0 and r.pending.legal == tuple(range(9))
    r.act(8)
    rec = drive(r, [HeuristicPolicy()] * 4)
    assert [rec.frame[f"bid_{s}"] for s in range(4)] == [8, 0, 8, 0]
    assert rec.payouts[0] == rec.payouts[2] == -32.0  # team 0+2 bid 16 of 8 tricks
    t1 = rec.trick_counts[1] + rec.trick_counts[3]
    assert rec.payouts[1] == rec.payouts[3] == (5.0 if t1 == 0 else 5.0 - t1)
    rows = pd.DataFrame({"contract": ["spades"], "bid_0": [8], "bid_1": [0], "bid_2": [8], "bid_3": [0],
                         "tricks_0": [4], "tricks_1": [0], "tricks_2": [4], "tricks_3": [0]})
    out = score("gamut", rows, {"team_bid_cap": False})
    assert out.loc[0, ["payout_0", "payout_1", "payout_2", "payout_3"]].tolist() == [-32.0, 5.0, -32.0, 5.0]
    # the default forbids that deal's last bid
    r = fixed_round("S", dealer=0)
    r.act(0).act(8).act(0)
    assert r.pending.legal == (0,)
    with pytest.raises(ValueError, match="team_bid_cap"):
        r.act(8)


def test_heuristic_and_pimc_bid_within_the_cap():
    # the dealer (seat 0) holds all eight spades: the heuristic wants 5, PIMC all 8 tricks
    for cap, partner, heuristic, pimc in ((True, 6, 2, 2), (True, 8, 0, 0), (False, 6, 5, 8)):
        r = fixed_round("S", dealer=0, team_bid_cap=cap)
        r.act(1).act(partner).act(1)
        obs = r.observe(0)
        assert obs.legal == (tuple(range(9 - partner)) if cap else tuple(range(9)))
        assert HeuristicPolicy().bid(obs) == heuristic
        assert PIMCPolicy(bid_samples=4).bid(obs) == pimc


def test_bid_inference_models_the_capped_legal_bids():
    r = fixed_round("S", dealer=0)
    r.act(2).act(6).act(0).act(1)                      # seats 1, 2, 3, 0
    obs = r.observe(1)
    assert _legal_bids(obs, 1, 8, 0) == tuple(range(9))       # the first bidder
    assert _legal_bids(obs, 2, 8, 1) == tuple(range(9))
    assert _legal_bids(obs, 3, 8, 2) == (0, 1, 2, 3, 4, 5, 6)  # partner 1 bid 2
    assert _legal_bids(obs, 0, 8, 3) == (0, 1, 2)              # partner 2 bid 6
    r = fixed_round("S", dealer=0, team_bid_cap=False)
    r.act(2).act(6).act(0).act(1)
    assert _legal_bids(r.observe(1), 0, 8, 3) == tuple(range(9))


# -- last_may_fold -------------------------------------------------------------------------
CLUBS_SEED = 2                                          # turns a club with dealer 0


def _three_folds(**rules):
    r = start_round("gamut", seed=CLUBS_SEED, dealer=0, **rules)
    assert r.turned.suit_letter == "C" and r.pending.kind == "fold" and r.pending.seat == 1
    return r.act(True).act(True).act(True)             # seats 1, 2, 3


def test_last_may_not_fold_by_default():
    for rules in ({}, {"last_may_fold": False}):
        r = _three_folds(**rules)
        assert r.pending.seat == 0 and r.pending.legal == (False,)
        with pytest.raises(ValueError, match="last_may_fold=False"):
            r.act(True)
        rec = drive(r.act(False), [HeuristicPolicy()] * 4)
        assert rec.contract == "clubs_1" and not rec.thrown_in
        assert rec.payouts == [16.0, 0.0, 0.0, 0.0]


def test_last_may_fold_then_all_four_fold_is_a_void_round():
    r = _three_folds(last_may_fold=True)
    assert r.pending.seat == 0 and r.pending.legal == (False, True)
    r.act(True)
    assert r.done
    rec = r.record
    assert rec.thrown_in and rec.contract is None and rec.tricks == []
    assert rec.payouts == [0.0, 0.0, 0.0, 0.0]
    assert rec.bids == [(1, "fold", True), (2, "fold", True), (3, "fold", True), (0, "fold", True),
                        (0, "all_folded", True)]
    assert rec.extra["gamut_game"] == "clubs"


def test_last_may_fold_but_plays_alone():
    r = _three_folds(last_may_fold=True)
    r.act(False)
    rec = drive(r, [HeuristicPolicy()] * 4)
    assert rec.contract == "clubs_1" and rec.trick_counts == [8, 0, 0, 0]
    assert rec.payouts == [16.0, 0.0, 0.0, 0.0]


def test_folding_not_last_is_unchanged_by_the_option():
    for rules in ({}, {"last_may_fold": True}):
        r = start_round("gamut", seed=CLUBS_SEED, dealer=0, **rules)
        assert r.pending.legal == (False, True)
        r.act(True).act(False)
        assert r.pending.legal == (False, True)        # seat 3: seat 2 plays
        r.act(True)
        assert r.pending.legal == (False, True)        # the dealer: seat 2 plays
        r.act(False)
        rec = drive(r, [HeuristicPolicy()] * 4)
        assert rec.contract == "clubs_2" and not rec.thrown_in


def test_pimc_does_not_fold_when_alone():
    r = _three_folds(last_may_fold=True)
    obs = r.observe(0)
    assert obs.legal == (False, True)
    assert PIMCPolicy(bid_samples=4).fold(obs) is False   # alone: all 8 tricks, +16


def test_heuristic_does_not_fold_when_alone():
    r = _three_folds(last_may_fold=True)
    obs = r.observe(0)
    assert obs.legal == (False, True)
    weak = dataclasses.replace(obs, hand=CardSet.parse("KH QH JH 10H 9H 8H KD QD"))
    assert HeuristicPolicy().fold(weak) is False            # alone: all 8 tricks, +16
    assert HeuristicPolicy().fold(dataclasses.replace(weak, bids=())) is True   # not alone: folds


class AlwaysFold(HeuristicPolicy):
    def fold(self, obs):
        return True if True in obs.legal else obs.legal[0]


@pytest.mark.parametrize("may_fold", [False, True])
def test_all_folding_in_a_match(may_fold):
    m = play_match("gamut", [AlwaysFold()] * 4, seed=3, target=20, last_may_fold=may_fold)
    clubs = [r for r in m.rounds if r.extra["gamut_game"] == "clubs"]
    assert len(clubs) >= 2
    if may_fold:
        assert all(r.thrown_in and r.payouts == [0.0] * 4 for r in clubs)
        assert all(r.bids[-1] == (r.dealer, "all_folded", True) for r in clubs)
    else:
        # the dealer decides last and must play: alone, all 8 tricks
        assert not any(r.thrown_in for r in m.rounds)
        for r in clubs:
            assert r.contract == "clubs_1"
            assert r.payouts == [16.0 * r.multiplier if s == r.dealer else 0.0 for s in range(4)]
    assert [r.dealer for r in m.rounds] == [i % 4 for i in range(len(m.rounds))]   # the deal passes left
    totals = [sum(r.payouts[s] for r in m.rounds) for s in range(4)]
    assert m.scores == pytest.approx(totals)


# -- Hearts pass ---------------------------------------------------------------------------
def test_hearts_pass_one_card_left_and_one_right():
    r = fixed_round("H", dealer=0)                     # seats 0 H, 1 S, 2 D, 3 C
    before = [CardSet(h) for h in r.hands]
    chosen = {}
    for s in range(4):
        d = r.pending
        assert d.kind == "pass_cards" and d.phase == "pass_left_right" and d.count == 2 and d.seat == s
        assert set(d.legal) == set(before[s])          # at once: nobody has received a card yet
        pair = (max(d.legal, key=lambda c: r.layout.rank_order(c)), min(d.legal, key=lambda c: r.layout.rank_order(c)))
        chosen[s] = pair
        r.act(pair)
    assert {s: tuple(str(c) for c in p) for s, p in chosen.items()} == {
        0: ("A♥", "7♥"), 1: ("A♠", "7♠"), 2: ("A♦", "7♦"), 3: ("A♣", "7♣")}
    # the first card goes left (s -> s+1), the second right (s -> s-1)
    expected = {
        0: "KH QH JH 10H 9H 8H 7S AC",                 # keeps 6 hearts, 7♠ from seat 1, A♣ from seat 3
        1: "KS QS JS 10S 9S 8S AH 7D",                 # A♥ from seat 0, 7♦ from seat 2
        2: "KD QD JD 10D 9D 8D AS 7C",                 # A♠ from seat 1, 7♣ from seat 3
        3: "KC QC JC 10C 9C 8C AD 7H",                 # A♦ from seat 2, 7♥ from seat 0
    }
    for s in range(4):
        assert r.hands[s] == CardSet(expected[s]), s
        left, right = chosen[s]
        assert left in r.hands[(s + 1) % 4] and right in r.hands[(s - 1) % 4]
        assert left not in r.hands[s] and right not in r.hands[s]
    # the 9♣ holder (seat 3, who kept it) leads it
    assert r.pending.kind == "play" and r.pending.seat == 3 and r.pending.legal == (Card.parse("9C"),)


def test_hearts_pass_on_a_random_deal():
    r = start_round("gamut", seed=1, dealer=0)
    assert r.turned.suit_letter == "H"
    before = [CardSet(h) for h in r.hands]
    chosen = {}
    for s in range(4):
        legal = r.pending.legal
        chosen[s] = (legal[0], legal[-1])
        r.act(chosen[s])
    for s in range(4):
        gets = CardSet([chosen[(s - 1) % 4][0], chosen[(s + 1) % 4][1]])   # from the right-hand and left-hand seats
        assert r.hands[s] == (before[s] - CardSet(chosen[s])) | gets
        assert len(r.hands[s]) == 8
