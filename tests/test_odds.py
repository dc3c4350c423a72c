"""contract_odds: exact enumeration against a direct computation, sampling, policies, errors."""

import numpy as np
import pandas as pd
import pytest

from analysis import Holds, compare_kitty_policies, contract_odds, evaluate, heuristic_exchange
from analysis.constraints import Count
from trickcore.cards import CardSet
from trickcore.deals import count_deals, enumerate_deals

HAND = "JC JS AH 10H AC KD"
# Seat 1's hand known too: 8 unseen cards, C(8, 2) = 28 layouts (seat 2 and the kitty).
KNOWN = {1: "JH JD KH QH 10C QS"}


def test_exact_matches_direct_enumeration():
    odds = contract_odds("goathead3", HAND, contracts=["hearts", "court"], fixed=KNOWN, kitty_policy="none")
    assert odds.attrs["method"] == "exact" and odds.attrs["n_layouts"] == 28
    assert (odds["method"] == "exact").all() and (odds["n"] == 28).all()
    deals = enumerate_deals("goathead3", {0: HAND, **KNOWN})
    for c in ("hearts", "court"):
        f = evaluate("goathead3", c, deals)
        row = odds.set_index("contract").loc[c]
        assert row.p_make == pytest.approx(f.made.astype(float).mean())
        assert row.ev == pytest.approx(f.payout_0.mean())
        assert row.p_make_lo == row.p_make == row.p_make_hi      # exact: no sampling error
        assert row.ev_lo == row.ev == row.ev_hi


def test_sampled_interval_covers_exact_and_is_labelled():
    exact = contract_odds("goathead3", HAND, contracts="hearts", fixed=KNOWN, kitty_policy="none").iloc[0]
    s = contract_odds("goathead3", HAND, contracts="hearts", fixed=KNOWN, kitty_policy="none", method="sample",
                      target_se=0.03, max_deals=2000, chunk_size=100, seed=4)
    row = s.iloc[0]
    assert s.attrs["method"] == "sampled" and row["method"] == "sampled"
    assert row.p_make_lo <= exact.p_make <= row.p_make_hi
    assert row.ev_lo <= exact.ev <= row.ev_hi


def test_auto_enumerates_when_small_and_samples_when_large():
    # Kitty known as well: C(12, 6) = 924 layouts -> exact under the default limit.
    fixed = {"kitty": "KC QC"}
    assert count_deals("goathead3", {0: HAND, **fixed}) == 924
    o = contract_odds("goathead3", HAND, contracts="spades", fixed=fixed, kitty_policy="none")
    assert o.attrs["method"] == "exact" and o.n.iloc[0] == 924
    o = contract_odds("goathead3", HAND, contracts="spades", fixed=fixed, kitty_policy="none", exact_limit=900,
                      target_se=0.05, chunk_size=64, seed=1)
    assert o.attrs["method"] == "sampled" and o.n.iloc[0] < 924


def test_stopping_rule_and_njobs_independence():
    kw = dict(contracts=["hearts", "clubs"], method="sample", chunk_size=32, seed=8, kitty_policy="heuristic")
    loose = contract_odds("goathead3", HAND, target_se=0.2, max_deals=320, **kw)
    assert (loose.n == 32).all()                                   # one chunk was enough
    tight = contract_odds("goathead3", HAND, target_se=0.001, max_deals=96, **kw)
    assert (tight.n == 96).all()                                   # budget reached
    par = contract_odds("goathead3", HAND, target_se=0.001, max_deals=96, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(tight, par)


def test_dd_best_is_an_upper_bound_on_every_policy():
    kw = dict(contracts="hearts", fixed=KNOWN)
    none = contract_odds("goathead3", HAND, kitty_policy="none", **kw).iloc[0]
    heur = contract_odds("goathead3", HAND, kitty_policy="heuristic", **kw).iloc[0]
    best = contract_odds("goathead3", HAND, kitty_policy="dd_best", **kw)
    assert best.attrs["optimistic"] is True
    b = best.iloc[0]
    assert b.ev >= none.ev - 1e-12 and b.ev >= heur.ev - 1e-12


def test_heuristic_exchange_rules():
    hands = np.array([CardSet.parse("JC QC KH QH KS QS").mask, CardSet.parse("JC JS JH AC 10C AH").mask], dtype=np.uint64)
    kitty = np.array([CardSet.parse("JS 10H").mask, CardSet.parse("KC QD").mask], dtype=np.uint64)
    ex, new, buried = heuristic_exchange("goathead3", "clubs", hands, kitty)
    assert ex.tolist() == [True, False]                     # weak hand picks up, strong keeps
    assert CardSet(int(new[0])) >= CardSet.parse("JC JS QC")  # trumps are never buried
    assert CardSet.parse("10H") <= CardSet(int(buried[0]))  # the unguarded ten goes to the kitty
    assert int(new[1]) == int(hands[1]) and int(buried[1]) == int(kitty[1])
    for h, k, n_, b in zip(hands, kitty, new, buried):
        assert int(n_) | int(b) == int(h) | int(k) and int(n_) & int(b) == 0 and bin(int(b)).count("1") == 2


def test_constraints_condition_the_layouts():
    base = dict(contracts="hearts", fixed=KNOWN, kitty_policy="none")
    o = contract_odds("goathead3", HAND, constraints=Count(2, "AD 10D", min=2), **base)
    deals = enumerate_deals("goathead3", {0: HAND, **KNOWN})
    assert o.n.iloc[0] == int(Count(2, "AD 10D", min=2).mask(deals).sum())
    with pytest.raises(ValueError, match="no layout"):
        contract_odds("goathead3", HAND, constraints=Holds(2, "JD"), **base)  # J♦ is fixed in seat 1


@pytest.mark.parametrize("hand, kwargs, match", [
    ("JC JS AH 10H AC", {}, "5 cards"),
    ("JC JS AH 10H AC KD QD", {}, "7 cards"),
    ("JC JS AH 10H AC 9D", {}, "not in the deck"),
    ("JC JC AH 10H AC KD", {}, "duplicate"),
    ("JC JS AH 10H AC ZZ", {}, "malformed"),
    (HAND, {"contracts": "bridge"}, "unknown contract"),
    (HAND, {"contracts": "leasters"}, "no declarer"),
    (HAND, {"kitty_policy": "psychic"}, "unknown kitty_policy"),
    (HAND, {"method": "guess"}, "unknown method"),
    (HAND, {"seat": 3}, "seat must be"),
    (HAND, {"rules": {"colour": 1}}, "unknown rule option"),
    (HAND, {"fixed": {1: "JC"}}, "already fixed"),
])
def test_bad_input(hand, kwargs, match):
    with pytest.raises(ValueError, match=match):
        contract_odds("goathead3", hand, **kwargs)


def test_unsatisfiable_predicate_when_sampling():
    with pytest.raises(ValueError, match="no deal out of"):
        contract_odds("goathead3", HAND, contracts="hearts", method="sample", max_deals=64, chunk_size=64,
                      constraints=Count(1, "JH JD", min=2) & Count(2, "JH JD", min=1))


def test_compare_kitty_policies_is_paired():
    kw = dict(contracts="hearts", fixed=KNOWN)
    c = compare_kitty_policies("goathead3", HAND, "dd_best", "none", **kw)
    row = c.iloc[0]
    assert c.attrs["method"] == "exact" and c.attrs["optimistic"] is True
    none = contract_odds("goathead3", HAND, kitty_policy="none", **kw).iloc[0]
    best = contract_odds("goathead3", HAND, kitty_policy="dd_best", **kw).iloc[0]
    assert row.a == pytest.approx(best.ev) and row.b == pytest.approx(none.ev)
    assert row["diff"] >= 0 and row.diff_lo == row["diff"] == row.diff_hi
    s = compare_kitty_policies("goathead3", HAND, "heuristic", "none", contracts="clubs", method="sample",
                               max_deals=64, chunk_size=32, seed=3)
    assert s.attrs["method"] == "sampled" and s.n.iloc[0] == 64
    assert s.diff_lo.iloc[0] <= s["diff"].iloc[0] <= s.diff_hi.iloc[0]
    with pytest.raises(ValueError, match="unknown kitty_policy"):
        compare_kitty_policies("goathead3", HAND, "psychic", "none")


@pytest.mark.slow
def test_full_goathead_hand_is_enumerated_exactly():
    """One 3-player Goathead hand: all 84,084 layouts of the unseen cards (~20-60 s)."""
    o = contract_odds("goathead3", HAND, contracts="hearts", n_jobs=2, chunk_size=8192, progress=False)
    assert o.attrs["method"] == "exact" and o.attrs["n_layouts"] == 84084 and o.n.iloc[0] == 84084
    s = contract_odds("goathead3", HAND, contracts="hearts", method="sample", target_se=0.01, seed=2,
                      n_jobs=2, progress=False)
    assert s.p_make_lo.iloc[0] <= o.p_make.iloc[0] <= s.p_make_hi.iloc[0]
