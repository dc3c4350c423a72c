"""The solver bench's interval of the mean time per deal (``benches/bench_solver_speed.py``).

The benches are scripts, not part of the installed packages, so their docstring examples are
not run by ``test_doctests``; this one prints the interval that the point-game goals are read
against, so its arithmetic is checked here.
"""

import doctest
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

BENCHES = Path(__file__).resolve().parents[1] / "benches"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCHES))
    try:
        spec = importlib.util.spec_from_file_location("bench_solver_speed", BENCHES / "bench_solver_speed.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(BENCHES))


def test_docstring_examples(bench):
    result = doctest.testmod(bench)
    assert result.attempted >= 4 and result.failed == 0


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
