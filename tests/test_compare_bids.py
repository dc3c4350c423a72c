"""compare for bid games and games without a declaring side: paired per-seat figures.

Known answers: a fully known Spades deal scored by hand (bids, nil, bags, sandbags), the
paired difference against the per-deal rows of the same deals, and an exact enumeration of
a small Oh Hell case that the sampled interval must cover.
"""

import numpy as np
import pytest

from analysis import compare, simulate
from analysis.bids import bid_frame
from analysis.stats import t_value
from trickcore.deals import enumerate_deals

SPADES_DEAL = ["AS KS QS JS TS 9S AH KH QH AD KD AC KC", "8S 7S 6S 5S 4S 3S 2S JH TH 9H 8H 7H 6H",
               "QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D QC JC", "TC 9C 8C 7C 6C 5C 4C 3C 2C 5H 4H 3H 2H"]
ALL_FIXED = {s: h for s, h in enumerate(SPADES_DEAL)}
QUIET = dict(n_jobs=1, progress=False)


def _row(c, metric):
    return c.set_index("metric").loc[metric]


@pytest.mark.parametrize("a, b, payout_a, payout_b, made_diff", [
    ({"bid": 12}, {"bid": 13}, 120, -130, 1),                              # made / set by one trick
    ({"bid": 5, "bags": 9}, {"bid": 5}, 50 + 7 - 110, 50 + 7, 0),          # 9 + 7 bags pass 10: -110
    ({"bid": 2}, {"bid": 3}, 20 + 10 - 110, 30 + 9, 0),                    # ten bags in one hand
    ({"bid": 5, "rules": {"sandbags": False}}, {"bid": 5}, 50, 57, 0),     # no bag points
    ({"bid": 0}, {"bid": 12}, -100, 120, -1),                              # nil: seat 0 must take a trick
])
def test_spades_known_deal_scored_by_hand(a, b, payout_a, payout_b, made_diff):
    # T = 12: seat 0 and its partner lose only one trick; every deal is this deal.
    c = compare("spades", 2, a, b, fixed=ALL_FIXED, chunk_size=2, **QUIET)
    pay = _row(c, "declarer_payout")
    assert (pay.a, pay.b, pay["diff"]) == (payout_a, payout_b, payout_a - payout_b)
    assert pay.diff_lo == pay["diff"] == pay.diff_hi            # no variation: a point
    assert _row(c, "made")["diff"] == made_diff
    assert c.attrs["per_seat"] is True and c.metric.tolist() == ["made", "declarer_payout", "value"]


@pytest.mark.parametrize("game, rules, a, b", [
    ("ohhell", {"hand_size": 3}, {"contract": "notrump", "bid": 1}, {"contract": "hearts", "bid": 1}),
    ("gamut", {}, {"contract": "spades", "bid": 3}, {"contract": "spades", "bid": 4}),
])
def test_paired_difference_is_the_mean_of_per_deal_differences(game, rules, a, b):
    kw = dict(seed=7, chunk_size=4, **QUIET)
    c = compare(game, 8, a, b, rules=rules, declarer=1, **kw)
    # The same seed and chunking deal the same hands in simulate: score them directly.
    df = simulate(game, 8, contracts=sorted({a["contract"], b["contract"]}), rules=rules, seats=[1], **kw)
    per = {}
    for tag, v in (("a", a), ("b", b)):
        rows = df[(df.contract == v["contract"]) & (df.bid == v["bid"])].sort_values("deal")
        assert len(rows) == 8
        per[tag] = rows
    for metric, col in (("made", "made"), ("declarer_payout", "payout_1"), ("value", "value")):
        x = per["a"][col].to_numpy(dtype=float) - per["b"][col].to_numpy(dtype=float)
        # the paired t interval worked out here (t from the tables: test_stats), not by the
        # library's own interval code
        m, half = x.mean(), t_value(0.95, 7) * x.std(ddof=1) / np.sqrt(8)
        lo, hi = m - half, m + half
        r = _row(c, metric)
        assert r.n == 8 and r["diff"] == pytest.approx(m)
        # every metric, a constant difference too (then the interval is the point itself)
        assert (r.diff_lo, r.diff_hi) == (pytest.approx(lo), pytest.approx(hi))
        assert r.a == pytest.approx(per["a"][col].astype(float).mean())
        assert r.b == pytest.approx(per["b"][col].astype(float).mean())
    # the per-deal rows differ somewhere: not a comparison of two identical columns
    assert (per["a"]["payout_1"].to_numpy() != per["b"]["payout_1"].to_numpy()).any()


def test_sampled_interval_covers_the_exact_difference():
    """Oh Hell, 2 cards, three hands known: 1,035 layouts of the last hand, enumerated."""
    rules = {"hand_size": 2}
    fixed = {0: "AS 2H", 1: "KD 7C", 2: "QS 9S"}
    deals = enumerate_deals("ohhell", {s: h for s, h in fixed.items()}, hand_size=2)
    assert len(deals) == 1035
    a, b = {"contract": "spades", "bid": 1}, {"contract": "notrump", "bid": 1}
    exact = {}
    for tag, v in (("a", a), ("b", b)):
        f = bid_frame("ohhell", v["contract"], deals, seat=0, rules=rules, bids=[1])
        exact[tag] = f.payout_0.to_numpy(dtype=float)
    true_diff = float(np.mean(exact["a"] - exact["b"]))
    assert true_diff != 0                                         # a case where the trump matters
    c = compare("ohhell", 240, a, b, rules=rules, fixed=fixed, seed=3, chunk_size=80, **QUIET)
    pay = _row(c, "declarer_payout")
    assert pay.diff_lo <= true_diff <= pay.diff_hi
    assert pay.diff_hi - pay.diff_lo < 0.5 * (np.ptp(exact["a"] - exact["b"]))


@pytest.mark.parametrize("game, kwargs, a, b, match", [
    ("spades", {}, {"contract": "spades"}, {"bid": 4}, "needs a bid"),
    ("spades", {}, {"bid": 1}, {"bid": 4}, "not possible"),
    ("gamut", {}, {"contract": "hearts", "bid": 2}, {"contract": "hearts"}, "has no bids"),
    ("goathead3", {}, {"contract": "clubs", "bid": 2}, "clubs", "bid games"),
    ("goathead3", {}, {"contract": "leasters", "policy": "paranoid"}, "clubs", "like with like"),
    ("goathead3", {}, "leasters", "clubs", "no declaring side"),
    ("spades", {"rules": {"sandbags": False}}, {"bid": 4, "bags": 3}, {"bid": 4}, "sandbags is False"),
    ("ohhell", {"rules": {"no_equal_total": True, "hand_size": 3}, "declarer": 3},
     {"bid": 1}, {"bid": 2}, "pass bids_before"),
    ("ohhell", {"rules": {"no_equal_total": True, "hand_size": 3}, "declarer": 3},
     {"bid": 1, "bids_before": 2}, {"bid": 2, "bids_before": 2}, "forbidden to the dealer"),
    ("ohhell", {"rules": {"hand_size": 3}}, {"bid": 1, "bids_before": 2}, {"bid": 2}, "no_equal_total"),
    ("spades", {}, {"bid": 4, "colour": 1}, {"bid": 4}, "a variant may set"),
    ("ohhell", {"rules": {"hand_size": 3}}, {"bid": 1, "rules": {"hand_size": 4}}, {"bid": 1}, "same deals"),
])
def test_bad_variants(game, kwargs, a, b, match):
    with pytest.raises(ValueError, match=match):
        compare(game, 2, a, b, chunk_size=2, **QUIET, **kwargs)


def test_dealer_may_make_the_other_bids():
    # Earlier bids total 2 of 3 tricks: the dealer may bid anything but 1.
    rules = {"no_equal_total": True, "hand_size": 3}
    c = compare("ohhell", 4, {"bid": 0, "bids_before": 2}, {"bid": 2, "bids_before": 2}, rules=rules,
                declarer=3, seed=1, chunk_size=4, **QUIET)
    plain = compare("ohhell", 4, {"bid": 0}, {"bid": 2}, rules={"hand_size": 3}, declarer=3, seed=1,
                    chunk_size=4, **QUIET)
    assert c[["a", "b", "diff"]].equals(plain[["a", "b", "diff"]])   # the rule removes a bid, nothing else
