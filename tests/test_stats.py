"""Intervals against known values and known distributions.

The coverage tests draw 500 independent small samples of a quantity whose true value is
known exactly by enumerating every layout, and check the 95 % intervals cover it at least
93 % of the time (a correct interval covers ~95 %; the binomial sd of the count over 500
runs is ~4.9, so 93 % is about two sd below).
"""

import math

import numpy as np
import pytest

from analysis.constraints import Count, Holds
from analysis.odds import deal_probability
from analysis.stats import Moments, diff_interval, mean_interval, t_value, wilson_interval, z_value
from trickcore.deals import enumerate_deals, random_deals

MY_HAND = {0: "JC JS JH AC 10C KC"}


def test_known_quantiles():
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    # Student t quantiles from standard tables.
    for level, dof, value in [(0.95, 1, 12.706205), (0.95, 2, 4.302653), (0.95, 3, 3.182446),
                              (0.95, 5, 2.570582), (0.95, 10, 2.228139), (0.99, 3, 5.840909),
                              (0.95, 30, 2.042272), (0.95, 1000, 1.962339)]:
        assert t_value(level, dof) == pytest.approx(value, abs=2e-6)


def test_wilson_known_values():
    # Wilson (1927) interval, closed form worked by hand for 45 / 100.
    z = 1.959964
    p, n = 0.45, 100
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = wilson_interval(45, 100)
    assert float(lo) == pytest.approx(centre - half, abs=1e-6)
    assert float(hi) == pytest.approx(centre + half, abs=1e-6)
    lo, hi = wilson_interval(0, 10)
    assert float(lo) == 0.0 and 0.25 < float(hi) < 0.35
    lo, hi = wilson_interval(10, 10)
    assert float(hi) == 1.0 and 0.65 < float(lo) < 0.75
    lo, hi = wilson_interval(np.array([1, 2]), np.array([4, 8]))
    assert lo.shape == hi.shape == (2,)
    # element-wise: each entry is the scalar interval of its own count (same p, other n)
    for i, (k, n) in enumerate([(1, 4), (2, 8)]):
        s_lo, s_hi = wilson_interval(k, n)
        assert (float(lo[i]), float(hi[i])) == (pytest.approx(float(s_lo)), pytest.approx(float(s_hi)))
    assert float(hi[1] - lo[1]) < float(hi[0] - lo[0])       # more draws, narrower interval
    with pytest.raises(ValueError):
        wilson_interval(5, 4)
    with pytest.raises(ValueError):
        z_value(1.5)


def test_moments_merge_and_intervals():
    rng = np.random.default_rng(1)
    x = rng.normal(3.0, 2.0, 1001)
    whole = Moments.of(x)
    parts = Moments.of(x[:300]) + Moments.of(x[300:])
    assert parts.n == whole.n
    assert parts.mean == pytest.approx(x.mean())
    assert parts.var == pytest.approx(x.var(ddof=1))
    m, lo, hi = mean_interval(x)
    assert lo < m < hi and (hi - lo) / 2 == pytest.approx(t_value(0.95, 1000) * x.std(ddof=1) / math.sqrt(1001))
    d, dlo, dhi = diff_interval(x, x - 1.0)
    assert d == pytest.approx(1.0) and dlo == pytest.approx(1.0) and dhi == pytest.approx(1.0)
    with pytest.raises(ValueError):
        diff_interval([1, 2], [1])
    m, lo, hi = Moments.of([1.0, 5.0]).interval(exact=True)
    assert lo == hi == m == 3.0


def test_exact_probability_by_enumeration():
    # J♦ is one of the 14 unseen cards; seat 1 holds 6 of them.
    r = deal_probability("goathead3", Holds(1, "JD"), fixed=MY_HAND)
    assert r["method"] == "exact" and r["n"] == 84084
    assert r["p"] == pytest.approx(6 / 14)


def test_wilson_coverage_500_runs():
    """500 runs of 60 sampled deals each: the Wilson interval covers the exact value."""
    event = Count(2, "JD AD 10D KD QD AH 10H", min=3)  # seat 2 holds >= 3 of these 7 cards
    exact = deal_probability("goathead3", event, fixed=MY_HAND)
    assert exact["method"] == "exact"
    p = exact["p"]
    assert 0.1 < p < 0.9
    covered = 0
    widths = []
    for run in range(500):
        deals = random_deals("goathead3", 60, seed=[2024, run], fixed=MY_HAND)
        k = int(event.mask(deals).sum())
        lo, hi = wilson_interval(k, 60)
        covered += float(lo) <= p <= float(hi)
        widths.append(float(hi - lo))
    assert 0.93 * 500 <= covered <= 0.97 * 500, covered
    # Not trivially wide: half-width near 1.96 * sqrt(p(1-p)/60).
    assert np.mean(widths) == pytest.approx(2 * 1.96 * math.sqrt(p * (1 - p) / 60), rel=0.08)


def test_t_interval_coverage_500_runs():
    """A mean known exactly by enumeration (trumps held by seat 1), covered by the t interval."""
    trumps = np.uint64(sum(1 << c for c in _cards("JD AD 10D KD QD")))
    all_deals = enumerate_deals("goathead3", MY_HAND)
    held = np.bitwise_count(all_deals[:, 1] & trumps)
    true_mean, true_sd = held.mean(), held.std()
    covered = 0
    half_widths = []
    for run in range(500):
        d = random_deals("goathead3", 30, seed=[7, run], fixed=MY_HAND)
        m, lo, hi = mean_interval(np.bitwise_count(d[:, 1] & trumps))
        covered += lo <= true_mean <= hi
        half_widths.append((hi - lo) / 2)
    # ~95 %: not too narrow, and not so wide that it covers (nearly) always
    assert 0.93 * 500 <= covered <= 0.97 * 500, covered
    # the mean half-width is t(0.975, 29) * sigma / sqrt(30), sigma known exactly
    assert np.mean(half_widths) == pytest.approx(t_value(0.95, 29) * true_sd / math.sqrt(30), rel=0.05)


def _cards(text):
    from trickcore.cards import parse_hand

    return list(parse_hand(text))
