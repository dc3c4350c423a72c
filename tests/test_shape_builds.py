"""The point kernel's builds per shape (``trickcore._solve_3x20x4`` etc.: ``_solve.pyx``
compiled with its seats, deck and objective fixed) run the same search as the general build
(``trickcore._solve``): same values, lines and node counts on every layout they take, and
they refuse the layouts of other shapes instead of reading past their key words."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_solver_api import random_position  # noqa: E402

import trickcore.solver as solver  # noqa: E402
from trickcore import _solve, get_game  # noqa: E402
from trickcore.games import GAME_IDS  # noqa: E402
from trickcore.solver import solve_many  # noqa: E402

#: every point layout of a shape with a build of its own: each Goathead shape (trump, and
#: court and leasters with five suits), Clover with and without trump, Gamut hearts (its
#: Q♠ breaks hearts), Hearts, and Sheepshead's partner rules (the called ace's must-play),
#: alone and leaster
SHAPE_CASES = [
    ("goathead3", "hearts"), ("goathead3", "court"), ("goathead3", "leasters"),
    ("goathead4", "clubs"), ("goathead4", "court"), ("goathead4", "leasters"),
    ("clover", "hearts"), ("clover", "notrump"), ("gamut", "hearts"), ("hearts", "hearts"),
    ("sheepshead", "jd"), ("sheepshead", "called_ace_clubs"),
    ("sheepshead", "alone"), ("sheepshead", "leaster"),
]


def _deals(layout, n, seed, tricks=None):
    """``n`` random positions of ``tricks`` cards a hand (whole deals by default), as
    universal bit-boards."""
    rng = np.random.default_rng(seed)
    k = tricks or layout.hand_size
    return np.array([[h.mask for h in random_position(layout, rng, k)] for _ in range(n)],
                    dtype=np.uint64)


def test_every_point_game_shape_has_its_build():
    """Each shape listed is built and dispatched to, and its module is that shape's."""
    shapes = set()
    for gid in GAME_IDS:
        g = get_game(gid)
        for contract in g.contracts:
            lay = g.layout(contract)
            name = _solve.shape_build(lay.core)
            shape = (lay.n_seats, len(lay.deck), len(lay.suits))
            if lay.objective == "points" and shape in _solve.SHAPE_BUILDS:
                assert name == "trickcore._solve_{}x{}x{}".format(*shape), (gid, contract)
                assert solver._kernel(lay) is importlib.import_module(name)
                shapes.add(shape)
            else:
                assert name is None, (gid, contract)
    assert shapes == set(_solve.SHAPE_BUILDS)


@pytest.mark.parametrize("game,contract", SHAPE_CASES)
def test_shape_build_searches_as_the_general_build(game, contract, monkeypatch):
    """Whole deals and positions of a few tricks, exact values with the line and bands to
    a few cuts: every output array, the node counts among them, is the general build's."""
    lay = get_game(game).layout(contract)
    build = solver._kernel(lay)
    assert build is not _solve and build.__name__.startswith("trickcore._solve_")
    rng = np.random.default_rng(7)
    n = 6 if lay.n_seats == 5 or len(lay.deck) == 32 else 30
    # whole 52-card Hearts deals take seconds each: positions of six tricks instead
    first = _deals(lay, 6, 3, tricks=6) if len(lay.deck) == 52 else _deals(lay, n, 3)
    for deals in (first, _deals(lay, 3 * n, 5, tricks=3)):
        lead = rng.integers(0, lay.n_seats, len(deals))
        dec = rng.integers(0, lay.n_seats, len(deals))
        runs = {}
        for kernel in (build, _solve):
            monkeypatch.setattr(solver, "_kernel", lambda _layout, k=kernel: k)
            exact = solve_many(lay, None, deals, leader=lead, declarer=dec)
            band = (solve_many(lay, None, deals, leader=lead, declarer=dec, cuts=[10, 40, 70], line=False)
                    if lay.trick_meld_table is None else None)
            runs[kernel] = (exact, band)
        (fixed, fixed_band), (general, general_band) = runs[build], runs[_solve]
        for field in ("value", "side_tricks", "last_trick_winner", "side_melds", "opp_melds", "nodes"):
            assert (getattr(fixed, field) == getattr(general, field)).all(), field
        if fixed_band is not None:
            for field in ("value", "value_hi", "nodes"):
                assert (getattr(fixed_band, field) == getattr(general_band, field)).all(), field


@pytest.mark.parametrize("shape", _solve.SHAPE_BUILDS)
def test_shape_build_refuses_other_layouts(shape):
    """A layout of another shape (or objective) is a ValueError: the build's key words and
    seat and suit loops are fixed, and reading another shape's hands with them would go
    wrong.  Goathead's court (five suits) against the builds for four, and back."""
    build = importlib.import_module(_solve.shape_module_name(*shape))
    seats, cards, suits = shape
    if cards == 20:         # Goathead: the same seats and deck, the other number of suits
        lay = get_game(f"goathead{seats}").layout("hearts" if suits == 5 else "court")
    else:
        lay = get_game("goathead3").layout("hearts")
    deals = _deals(lay, 1, 1)
    hands = np.ascontiguousarray(lay.to_layout_bits(deals), dtype=np.uint64)
    out = [np.zeros(1, dtype=t) for t in (np.int16, np.int8, np.int8, np.int16, np.int16, np.int64)]
    with pytest.raises(ValueError, match="this build of the point kernel solves"):
        build.solve_batch(lay.core, solver._classes(lay), hands, np.zeros(1, np.int8),
                          np.ones(1, np.uint8), True, 16.0, *out)
    tricks = get_game("spades").layout("spades")           # right seats, wrong objective and deck
    with pytest.raises(ValueError, match="this build of the point kernel solves"):
        build.solve_position(tricks.core, solver._classes(tricks), np.zeros(4, np.uint64), 0,
                             np.zeros(0, np.int8), 0, 0, 0, 1, True, 16.0, False)


def test_search_switches_reach_the_shape_builds():
    """The general build's test hook switches every build: a Sheepshead deal solved
    through its build needs more nodes with the table off, and the same once it is back."""
    lay = get_game("sheepshead").layout("jd")
    deals = _deals(lay, 2, 9, tricks=4)
    try:
        on = solve_many(lay, None, deals).nodes
        _solve._set_search_options(tt=False)
        off = solve_many(lay, None, deals).nodes
    finally:
        _solve._set_search_options()
    assert off.sum() > on.sum()
    assert (solve_many(lay, None, deals).nodes == on).all()
