"""The benches' statistics: the solver bench's interval of the mean time per deal
(``benches/bench_solver_speed.py``) and ``benches/bench_ab.py``'s paired ratio of two builds.

The benches are scripts, not part of the installed packages, so their docstring examples are
not run by ``test_doctests``; the first prints the interval that the point-game goals are
read against, the second the figure by which kernel changes are kept or dropped, so their
arithmetic is checked here.
"""

import doctest
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

BENCHES = Path(__file__).resolve().parents[1] / "benches"


def load_bench(name: str):
    """The script ``benches/NAME.py`` as a module (the benches import one another by name)."""
    sys.path.insert(0, str(BENCHES))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHES))


@pytest.fixture(scope="module")
def bench():
    return load_bench("bench_solver_speed")


@pytest.mark.parametrize("name, examples", [("bench_solver_speed", 6), ("bench_ab", 1)])
def test_docstring_examples(name, examples):
    result = doctest.testmod(load_bench(name))
    assert result.attempted >= examples and result.failed == 0


def test_interval_is_the_node_means_t_interval_scaled_to_time(bench):
    rng = np.random.default_rng(5)
    nodes = rng.pareto(1.5, size=400) * 1000 + 50       # heavy-tailed, as a point game's
    lo, hi = bench.mean_time_interval(3e-4, nodes)
    mean, sd, n = nodes.mean(), nodes.std(ddof=1), len(nodes)
    half = 1.9659 * sd / np.sqrt(n)                       # t(0.975, 399)
    assert lo == pytest.approx(3e-4 * (mean - half) / mean, rel=1e-4)
    assert hi == pytest.approx(3e-4 * (mean + half) / mean, rel=1e-4)
    assert lo < 3e-4 < hi


def test_interval_narrows_with_more_deals(bench):
    rng = np.random.default_rng(6)
    nodes = rng.pareto(1.5, size=4000) * 1000 + 50
    lo_small, hi_small = bench.mean_time_interval(1.0, nodes[:100])
    lo_big, hi_big = bench.mean_time_interval(1.0, nodes)
    assert hi_big - lo_big < hi_small - lo_small


def test_paired_ratio_is_the_median_ratio_with_order_statistic_ranks():
    """``bench_ab.py``'s comparison of two builds: the median of the per-round ratios, and
    the ratios at the binomial ranks ``n/2 -+ 1.96 sqrt(n)/2`` as its 95% interval; a
    common drift of both builds' times (the VM speeding up or slowing down) cancels."""
    rng = np.random.default_rng(8)
    ratios = rng.normal(0.97, 0.01, size=100)
    drift = np.linspace(1.0, 1.5, 100)                  # the machine slows by half
    first = 400e-6 * drift
    mid, lo, hi = load_bench("bench_ab").paired_ratio(first, first * ratios)
    ordered = np.sort(ratios)
    assert mid == pytest.approx(np.median(ratios))
    assert (lo, hi) == pytest.approx((ordered[40], ordered[60]))     # 50 -+ 9.8, floor and ceil
    assert lo < 0.97 < hi < 1.0
