"""Bid games and games without a declaring side: per-seat double dummy in simulate and odds.

Known answers: the paranoid maxima / minima against the independent brute force of
``tests/bruteforce.py``, the scorers' rules on hand-built rows, exact enumeration against
a direct computation, and reproducibility across ``n_jobs``.
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bruteforce as bf  # noqa: E402
from analysis import contract_odds, simulate, simulate_summary
from analysis.bids import bid_frame, bids_of
from analysis.paranoid import _hearts_payout, seat_frame, seat_kind
from trickcore.cards import CardSet
from trickcore.deals import enumerate_deals, random_deals
from trickcore.games import get_game

SPADES_DEAL = ["AS KS QS JS TS 9S AH KH QH AD KD AC KC", "8S 7S 6S 5S 4S 3S 2S JH TH 9H 8H 7H 6H",
               "QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D QC JC", "TC 9C 8C 7C 6C 5C 4C 3C 2C 5H 4H 3H 2H"]


def _brute(game, contract, deal, seat, goal, side=None, **rules):
    r = bf.rules_for(game, contract, **rules)
    hands = [set(int(c) for c in CardSet(int(m))) for m in deal[:4]]
    pos = bf.Position(r, hands=hands, leader=0, deal=[frozenset(h) for h in hands], declarer=seat)
    return bf.solve(pos, side=frozenset({seat} if side is None else side), goal=goal)


@pytest.mark.parametrize("contract", ["notrump", "hearts"])
def test_ohhell_bounds_match_brute_force_and_scorer(contract):
    rules = {"hand_size": 3}
    deals = random_deals("ohhell", 4, seed=11, **rules)
    f = bid_frame("ohhell", contract, deals, seat=1, rules=rules)
    assert f.groupby("deal").size().tolist() == [4] * 4
    for d in range(4):
        row = f[f.deal == d].iloc[0]
        assert row.max_tricks == _brute("ohhell", contract, deals[d], 1, "max", **rules)
        assert row.min_tricks == _brute("ohhell", contract, deals[d], 1, "min", **rules)
    assert (f.made == ((f.min_tricks <= f.bid) & (f.bid <= f.max_tricks))).all()
    # Exact bid: 10 + tricks; missed: the bound it misses, 1 per trick (trick_points 'always').
    missed_t = np.where(f.bid > f.max_tricks, f.max_tricks, f.min_tricks)
    assert (f.payout_1 == np.where(f.made, 10 + f.bid, missed_t)).all()
    assert f[["payout_0", "payout_2", "payout_3"]].isna().all().all()


def test_spades_team_bids_nil_and_scores():
    d = np.array([[CardSet.parse(h).mask for h in SPADES_DEAL] + [0]], dtype=np.uint64)
    f = bid_frame("spades", "spades", d, seat=0).set_index("bid")
    assert list(f.index) == list(bids_of("spades")) == [0, *range(2, 14)]
    # seat 0 + seat 2 take 12 (only the A♥ K♥ Q♥ ... lose one trick); seat 0 cannot duck all
    assert (f.max_tricks == 12).all() and f.loc[0, "min_tricks"] > 0
    assert not f.loc[0, "made"] and f.loc[0, "payout_0"] == -100
    assert f.loc[12, "made"] and f.loc[12, "payout_0"] == 120 and f.loc[12, "payout_2"] == 120
    assert f.loc[5, "payout_0"] == 50 + 7                        # 7 bags at +1
    assert not f.loc[13, "made"] and f.loc[13, "payout_0"] == -130


def test_gamut_rows_and_scoring_rules():
    deals = random_deals("gamut", 6, seed=4)
    sp = seat_frame("gamut", "spades", deals, seat=2)
    assert sp.groupby("deal").size().tolist() == [9] * 6
    t = sp.max_tricks
    exact = np.where(t == sp.bid, 5 + sp.bid, np.where(t > sp.bid, 5 - (t - sp.bid), -2 * sp.bid))
    assert (sp.payout_2 == exact).all() and (sp.payout_0 == exact).all()   # partners across
    assert (sp.made == (t >= sp.bid)).all()
    h = seat_frame("gamut", "hearts", deals, seat=2)
    assert ((h.value >= 0) & (h.value <= 16)).all()
    assert (h.payout_2 == np.where(h.value == 16, 12, -h.value)).all()
    c = seat_frame("gamut", "clubs", deals, seat=2)
    assert (c.payout_2 == np.where(c.value == 0, -6, 2 * c.value)).all()
    with pytest.raises(ValueError, match="not analysed per seat"):
        seat_kind("gamut", "clubs_2")


def test_hearts_values_are_scored_by_the_scorer():
    g = get_game("hearts")
    v = np.array([0, 5, 13, 20, 26])
    assert _hearts_payout(g, v, 0, {})["payout_0"].tolist() == [0, 5, 13, 20, 0]   # 26: the seat's moon
    jv = np.array([-10, 3, 16])
    assert _hearts_payout(g, jv, 3, {"jack_of_diamonds": True})["payout_3"].tolist() == [-10, 3, 16]


def test_leasters_exact_odds_match_direct_enumeration():
    hand, known = "JC JS AH 10H AC KD", {1: "JH JD KH QH 10C QS"}
    o = contract_odds("goathead3", hand, contracts="leasters", fixed=known, policy="paranoid")
    assert o.attrs["method"] == "exact" and o.n.iloc[0] == 28 and o.bid.iloc[0] == -1
    deals = enumerate_deals("goathead3", {0: hand, **known})
    f = seat_frame("goathead3", "leasters", deals, seat=0)
    assert o.points.iloc[0] == pytest.approx(f.value.mean())
    assert o.p_make.iloc[0] == pytest.approx(f.made.mean())
    assert np.isnan(o.ev.iloc[0])                               # who pays needs every seat's points
    # the kitty counts for the seat exactly when it took the last trick
    assert ((f.value - f.side_points == 0) | (f.last_trick_winner == 0)).all()
    with pytest.raises(ValueError, match="no declarer"):
        contract_odds("goathead3", hand, contracts="leasters", fixed=known)


def test_odds_reproducible_across_njobs_and_budget():
    kw = dict(contracts=["hearts", "clubs"], max_deals=128, chunk_size=32, seed=3, target_se=0.001)
    a = contract_odds("gamut", "AH KH AS 7S 7C 8C 9D 10D", seat=1, **kw)
    b = contract_odds("gamut", "AH KH AS 7S 7C 8C 9D 10D", seat=1, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(a, b)
    assert (a.n == 128).all() and a.bid.tolist() == [-1, -1]
    assert ((a.p_make_lo <= a.p_make) & (a.p_make <= a.p_make_hi) & (a.ev_lo <= a.ev) & (a.ev <= a.ev_hi)).all()
    # a budget too small for any chunk: its solves stop too, and nothing is left to report
    with pytest.raises(TimeoutError, match="no chunk of 32 layouts was solved"):
        contract_odds("gamut", "AH KH AS 7S 7C 8C 9D 10D", seat=1, time_budget=1e-6, **kw)


def test_simulate_per_seat_rows_and_summary():
    kw = dict(seed=2, chunk_size=4, progress=False)
    df = simulate("gamut", 8, contracts=["hearts", "spades"], seats="all", n_jobs=1, **kw)
    assert len(df) == 8 * 4 + 8 * 4 * 9
    assert set(df.seat) == {0, 1, 2, 3} and (df.declarer == -1).all()
    pd.testing.assert_frame_equal(df, simulate("gamut", 8, contracts=["hearts", "spades"], seats="all", n_jobs=2, **kw))
    s = simulate_summary("gamut", 8, contracts=["hearts", "spades"], seats="all", n_jobs=1, **kw)
    assert list(s.columns[:3]) == ["contract", "bid", "seat"] and (s.n == 8).all()
    hs = s[(s.contract == "hearts") & (s.seat == 1)].iloc[0]
    rows = df[(df.contract == "hearts") & (df.seat == 1)]
    assert hs.declarer_payout == pytest.approx(rows.payout_1.mean()) and hs.value == pytest.approx(rows.value.mean())
    assert np.isnan(hs.payout_0)                                 # not determined by seat 1's value
    oh = simulate("ohhell", 4, contracts="spades", rules={"hand_size": 2}, n_jobs=1, **kw)
    assert (np.bitwise_count(oh.hand_0.to_numpy(dtype=np.uint64)) == 2).all() and sorted(set(oh.bid)) == [0, 1, 2]


@pytest.mark.parametrize("game, kwargs, match", [
    ("goathead3", dict(contracts="clubs", policy="paranoid"), "have one"),
    ("gamut", dict(contracts="clubs_3"), "not analysed per seat"),
    ("gamut", dict(seats=[4]), "seats must be"),
    ("goathead3", dict(contracts="leasters"), "no declaring side"),
])
def test_simulate_bad_input(game, kwargs, match):
    with pytest.raises(ValueError, match=match):
        simulate(game, 2, seed=1, chunk_size=2, n_jobs=1, progress=False, **kwargs)


def test_odds_bad_input():
    with pytest.raises(ValueError, match="deals 3"):
        contract_odds("ohhell", "AS KS", rules={"hand_size": 3})
    with pytest.raises(ValueError, match="time_budget"):
        contract_odds("gamut", "AH KH AS 7S 7C 8C 9D 10D", time_budget=0)
    with pytest.raises(ValueError, match="unknown policy"):
        contract_odds("gamut", "AH KH AS 7S 7C 8C 9D 10D", policy="psychic")


def test_large_oh_hell_hands_can_be_fixed():
    # 12-card Oh Hell hands: the fixed cards are checked against the table of hand_size=12
    # (the default table holds 10), with and without a predicate on the other hands.
    from analysis import Holds
    from analysis.simulate import _fixed_masks, _sample_deals

    g = get_game("ohhell")
    rules = {"hand_size": 12}
    hand = random_deals("ohhell", 1, seed=5, **rules)[0, 0]
    fx = _fixed_masks(g, {0: CardSet(int(hand))}, rules)
    other = next(c for c in CardSet(g.deck) if c not in CardSet(int(hand)))
    for where in (None, Holds(1, str(other))):
        d = _sample_deals(g, 3, np.random.SeedSequence(1), fx, where, 10_000, rules)
        assert (d[:, 0] == hand).all() and (np.bitwise_count(d[:, :4]) == 12).all()
        if where is not None:
            assert (d[:, 1] & np.uint64(1 << int(other)) != 0).all()


def test_simulate_leasters_paranoid_every_seat():
    df = simulate("goathead3", 6, seed=4, contracts="leasters", policy="paranoid", seats="all", n_jobs=1,
                  chunk_size=6, progress=False)
    assert len(df) == 18 and (df.policy == "paranoid").all() and (df.bid == -1).all()
    # every seat's paranoid value is at most what it could take with the whole deck's points
    assert ((df.value >= 0) & (df.value <= 120)).all() and df[[f"payout_{s}" for s in range(3)]].isna().all().all()
    one = seat_frame("goathead3", "leasters", np.stack([df[df.seat == 0][c].to_numpy() for c in
                                                         ("hand_0", "hand_1", "hand_2", "kitty")], axis=1), seat=1)
    assert (one.value.to_numpy() == df[df.seat == 1].value.to_numpy()).all()


def test_spades_odds_exact_when_every_card_is_known():
    o = contract_odds("spades", SPADES_DEAL[0], fixed={1: SPADES_DEAL[1], 2: SPADES_DEAL[2]}).set_index("bid")
    assert o.attrs["method"] == "exact" and (o.n == 1).all() and list(o.index) == [0, *range(2, 14)]
    assert o.loc[12, "p_make"] == 1 and o.loc[13, "p_make"] == 0 and o.loc[0, "p_make"] == 0
    assert o.loc[12, "ev"] == 120 and o.loc[0, "ev"] == -100 and o.loc[12, "ev_lo"] == o.loc[12, "ev_hi"]


def test_constraints_honour_the_hand_size_rule():
    """Fixed cards and rejection sampling use the table the rule options make (Oh Hell's
    hand_size), not the default one."""
    from analysis.constraints import Holds, fixed_masks, sample_deals

    thirteen = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
    assert fixed_masks("ohhell", {0: thirteen}, hand_size=13)[0] == CardSet.parse(thirteen).mask
    with pytest.raises(ValueError, match="13"):
        fixed_masks("ohhell", {0: thirteen})  # the default table deals 10 cards
    deals = sample_deals("ohhell", 3, seed=1, fixed={0: thirteen}, where=Holds(1, "AH"), hand_size=13)
    assert deals.shape == (3, 5) and (deals[:, 0] == CardSet.parse(thirteen).mask).all()


# -- Spades bags, Oh Hell no_equal_total ----------------------------------------------------

def test_spades_bag_rollover_in_the_odds_by_hand():
    """T = 12 on this deal: a team bid k leaves 12 - k bags; each ten the running count
    passes costs 110 (hand-computed payouts)."""
    fixed = {1: SPADES_DEAL[1], 2: SPADES_DEAL[2]}
    o0 = contract_odds("spades", SPADES_DEAL[0], fixed=fixed).set_index("bid")            # bags=0
    o9 = contract_odds("spades", SPADES_DEAL[0], fixed=fixed, bags=9).set_index("bid")
    assert o0.attrs["bags"] == 0 and o9.attrs["bags"] == 9
    assert o0.loc[2, "ev"] == 20 + 10 - 110 and o0.loc[2, "bag_penalty"] == -110      # ten bags at once
    assert o0.loc[3, "ev"] == 30 + 9 and o0.loc[3, "bag_penalty"] == 0
    assert o9.loc[5, "ev"] == 50 + 7 - 110 and o9.loc[11, "ev"] == 110 + 1 - 110
    assert o9.loc[12, "ev"] == 120 and o9.loc[12, "bag_penalty"] == 0                  # no overtrick
    assert o9.loc[0, "ev"] == -100                                                    # nil: no bags
    off = contract_odds("spades", SPADES_DEAL[0], fixed=fixed, rules={"sandbags": False}).set_index("bid")
    assert off.loc[2, "ev"] == 20 and off.loc[5, "ev"] == 50 and (off.bag_penalty == 0).all()


@pytest.mark.parametrize("kwargs, match", [
    (dict(rules={"sandbags": False}, bags=3), "sandbags is False"),
    (dict(bags=-1), "at least 0"),
    (dict(bags=1.5), "whole number"),
])
def test_spades_bags_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        contract_odds("spades", SPADES_DEAL[0], fixed={1: SPADES_DEAL[1], 2: SPADES_DEAL[2]}, **kwargs)


def test_bags_only_for_spades():
    with pytest.raises(ValueError, match="means nothing for gamut"):
        contract_odds("gamut", "AH KH AS 7S 7C 8C 9D 10D", contracts="spades", bags=4, max_deals=4)


def test_oh_hell_no_equal_total_restricts_only_the_dealer():
    hand, base = "AS KS 2H", dict(contracts="notrump", max_deals=32, chunk_size=16, seed=1)
    plain = {"hand_size": 3}
    rule = {"hand_size": 3, "no_equal_total": True}
    with pytest.raises(ValueError, match="pass bids_before"):
        contract_odds("ohhell", hand, seat=3, rules=rule, **base)          # seat 3 deals (leader 0)
    free = contract_odds("ohhell", hand, seat=3, rules=plain, **base)
    o = contract_odds("ohhell", hand, seat=3, rules=rule, bids_before=1, **base)
    assert o.attrs["forbidden_bid"] == 2 and o.bid.tolist() == [0, 1, 3]   # 1 + 2 would make 3
    pd.testing.assert_frame_equal(o.reset_index(drop=True),
                                  free[free.bid != 2].reset_index(drop=True), check_dtype=False)
    over = contract_odds("ohhell", hand, seat=3, rules=rule, bids_before=4, **base)
    assert over.attrs["forbidden_bid"] is None and over.bid.tolist() == [0, 1, 2, 3]   # total is over anyway
    # another seat bids freely: the same figures as without the rule
    other = contract_odds("ohhell", hand, seat=1, rules=rule, **base)
    pd.testing.assert_frame_equal(other, contract_odds("ohhell", hand, seat=1, rules=plain, **base))
    # with seat 1 leading, the dealer is seat 0
    with pytest.raises(ValueError, match="seat 0 is the dealer"):
        contract_odds("ohhell", hand, seat=0, rules=rule, leader=1, **base)
    for bad, match in ((dict(bids_before=10), "0..9; got 10"), (dict(seat=1, bids_before=1), "bids_before is for the dealer .*seat 1 is not")):
        kw = {"seat": 3, **bad}
        with pytest.raises(ValueError, match=match):
            contract_odds("ohhell", hand, rules=rule, **kw, **base)
    with pytest.raises(ValueError, match="no_equal_total=True"):
        contract_odds("ohhell", hand, seat=3, rules=plain, bids_before=1, **base)
