"""``pass_odds``, ``crack_odds`` and ``recrack_odds`` solve each layout only as far as its
payout needs (the scorer's cuts for the buried or exchanged cards): their tables must
equal those of exact solves, which these tests get by taking the cuts away
(``analysis.simulate._payout_cuts`` returning None makes ``_play`` solve exactly)."""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest

from analysis import crack_odds, pass_odds, recrack_odds

simulate_module = importlib.import_module("analysis.simulate")


class CutsSpy:
    """Wraps ``_payout_cuts``: counts its calls, or (``exact``) answers None so every
    layout is solved exactly."""

    def __init__(self, exact: bool):
        self.exact = exact
        self.calls = 0
        self.real = simulate_module._payout_cuts

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return None if self.exact else self.real(*args, **kwargs)


def _both(monkeypatch, call):
    """``(fast, exact)``: ``call()`` as it runs, then with the cuts taken away."""
    fast_spy, exact_spy = CutsSpy(False), CutsSpy(True)
    monkeypatch.setattr(simulate_module, "_payout_cuts", fast_spy)
    fast = call()
    monkeypatch.setattr(simulate_module, "_payout_cuts", exact_spy)
    exact = call()
    # the fast path did ask the scorer for its cuts (solving exactly would not)
    assert fast_spy.calls > 0
    return fast, exact


def _assert_same(fast, exact):
    if isinstance(fast, tuple):
        for f, e in zip(fast, exact):
            _assert_same(f, e)
        return
    pd.testing.assert_frame_equal(fast, exact)
    assert fast.attrs.keys() == exact.attrs.keys()
    for key, value in fast.attrs.items():
        if isinstance(value, float):
            assert value == pytest.approx(exact.attrs[key], rel=1e-12, abs=1e-12), key
        else:
            assert value == exact.attrs[key], key


@pytest.mark.parametrize("hand,seat,rules,stakes", [
    ("Q♣ Q♠ J♦ A♥ 10♥ 9♣", 3, {}, "base"),
    ("Q♣ Q♠ J♦ A♥ 10♥ 9♣", 3, {}, "heuristic"),
    ("QC JC JD AD 10S 9H", 1, {"partner": "called_ace", "no_pick": "leaster"}, "base"),
    ("7C 8C 9S 7H 8H 9D", 0, {"no_pick": "dealer_picks"}, "base"),
])
def test_sheepshead_pass_odds_equals_exact_solves(monkeypatch, hand, seat, rules, stakes):
    fast, exact = _both(monkeypatch, lambda: pass_odds("sheepshead", hand, seat=seat, rules=rules, stakes=stakes,
                                                       n_deals=120, seed=5))
    assert fast.set_index("outcome").n["pass"] == 120
    _assert_same(fast, exact)


def test_sheepshead_pass_samples_are_solved_exactly():
    """With ``return_samples`` the layouts are solved exactly (the samples hold each
    picking team's points), and the table is the one without samples."""
    kw = dict(seat=2, n_deals=80, seed=2)
    table, samples = pass_odds("sheepshead", "QC QS JD AH 10H 9C", return_samples=True, **kw)
    _assert_same(pass_odds("sheepshead", "QC QS JD AH 10H 9C", **kw), table)
    picked = samples.picker >= 0
    assert picked.any()
    points = samples.picking_points[picked]
    assert ((points >= 0) & (points <= 120)).all() and points.nunique() > 5


@pytest.mark.parametrize("game,hand,seat,rules", [
    ("goathead3", "J♣ J♠ A♥ 10♥ K♥ Q♥", 1, {}),
    ("goathead3", "J♣ J♠ A♥ 10♥ K♥ Q♥", 0, {"kitty_points": "if_exchanged"}),
    ("goathead4", "JC JS AH 10H", 2, {}),
])
def test_goathead_pass_odds_equals_exact_solves(monkeypatch, game, hand, seat, rules):
    fast, exact = _both(monkeypatch, lambda: pass_odds(game, hand, seat=seat, rules=rules, n_deals=60, seed=3,
                                                       return_samples=True))
    assert np.isfinite(fast[1].payout).any()
    _assert_same(fast, exact)


@pytest.mark.parametrize("hand,seat,picker,rules", [
    ("Q♣ Q♠ J♣ A♦ 10♦ 9♦", 4, 0, {}),
    ("JD QH AC 10C 9D 7S", 3, 1, {"partner": "called_ace"}),
])
def test_crack_odds_equals_exact_solves(monkeypatch, hand, seat, picker, rules):
    fast, exact = _both(monkeypatch, lambda: crack_odds(hand, seat=seat, picker=picker, rules=rules, n_deals=120,
                                                        seed=1, return_samples=True))
    _assert_same(fast, exact)


def test_recrack_odds_equals_exact_solves(monkeypatch):
    fast, exact = _both(monkeypatch, lambda: recrack_odds("Q♣ Q♠ J♦ A♦ 10♦ 9♥", seat=1, n_deals=120, seed=1,
                                                          return_samples=True))
    _assert_same(fast, exact)
