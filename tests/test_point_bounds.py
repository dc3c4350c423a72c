"""Soundness of the point kernel's bound cut-offs (``trickcore._solve``).

The bounds (quick tricks, sure trumps, the fate of the trick on the table, ...) only
settle positions early: with them switched off (``_set_search_options(bounds=False)``)
the search must find the same values, and with them on it must need fewer nodes.  A
subtly unsound bound shows on few deals (last time 400 deals missed a variant that 6,000
caught), hence many Goathead deals, solved to the payout (null-window probes at the
scorer's cuts, the engine's hot path) and exactly, and a few hundred positions of the
other point and trick games with their rule flags.
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest

from trickcore import _solve as kernel
from trickcore import get_game
from trickcore.deals import random_deals
from trickcore.solver import solve_many

from analysis.simulate import _payout_cuts


def _solve(bounds, layout, hands, **kw):
    kernel._set_search_options(bounds=bounds)
    try:
        return solve_many(layout, None, hands, line=False, **kw)
    finally:
        kernel._set_search_options()


def _positions(layout, rng, n, tricks):
    """``n`` random positions of ``tricks`` cards per hand (universal bit-boards)."""
    cards = np.array([int(c) for c in layout.deck], dtype=np.int64)
    out = np.zeros((n, layout.n_seats), dtype=np.uint64)
    for d in range(n):
        pick = rng.permutation(cards)[: tricks * layout.n_seats].reshape(layout.n_seats, tricks)
        for s in range(layout.n_seats):
            out[d, s] = np.uint64(np.bitwise_or.reduce(np.left_shift(np.int64(1), pick[s])))
    return out


GOATHEAD = [
    ("goathead3", "hearts", 6000, 1),
    ("goathead3", "clubs", 3000, 2),
    ("goathead3", "court", 3000, 3),
    ("goathead4", "clubs", 4000, 4),
    ("goathead4", "court", 3000, 5),
]


@pytest.mark.parametrize("game,contract,n,seed", GOATHEAD, ids=[f"{g}-{c}" for g, c, _, _ in GOATHEAD])
def test_goathead_bounds_keep_values_and_bands(game, contract, n, seed):
    g = get_game(game)
    lay = g.layout(contract)
    deals = random_deals(game, n, seed=seed)[:, : g.n_seats]
    declarer = np.random.default_rng(seed).integers(0, g.n_seats, n)
    leader = np.random.default_rng(seed + 100).integers(0, g.n_seats, n)
    kw = dict(declarer=declarer, leader=leader)
    on = _solve(True, lay, deals, **kw)
    off = _solve(False, lay, deals, **kw)
    bad = np.nonzero(on.value != off.value)[0]
    assert bad.size == 0, (game, contract, bad[:5], on.value[bad[:5]], off.value[bad[:5]])
    assert on.nodes.sum() < off.nodes.sum()
    # to the payout: each band [value, value_hi] holds the exact value and no cut
    kitty = np.uint64(lay.deck.mask) & ~np.bitwise_or.reduce(deals, axis=1)
    cuts = _payout_cuts(g, contract, deals, {}, False, kitty)
    exact = off.value
    nodes = []
    for bounds in (True, False):
        r = _solve(bounds, lay, deals, cuts=cuts, **kw)
        inside = (r.value <= exact) & (exact <= r.value_hi)
        cut_inside = ((cuts > r.value[:, None]) & (cuts <= r.value_hi[:, None])).any(axis=1)
        bad = np.nonzero(~inside | cut_inside)[0]
        assert bad.size == 0, (game, contract, bounds, bad[:5], exact[bad[:5]], r.value[bad[:5]],
                               r.value_hi[bad[:5]])
        nodes.append(r.nodes.sum())
    assert nodes[0] < nodes[1]


OTHERS = [
    # game, contract, rules, tricks per hand, positions
    ("sheepshead", "jd", {}, 4, 200),
    ("sheepshead", "called_ace_clubs", {}, 4, 200),
    ("sheepshead", "alone", {}, 4, 120),
    ("sheepshead", "leaster", {}, 4, 120),
    ("clover", "hearts", {}, 4, 200),
    ("clover", "notrump", {}, 4, 120),
    ("hearts", "hearts", {}, 5, 120),
    ("hearts", "hearts", {"queen_breaks_hearts": True, "jack_of_diamonds": True}, 5, 120),
    ("gamut", "hearts", {}, 5, 120),
    ("goathead3", "leasters", {}, 5, 400),
    ("goathead3", "nil", {}, 5, 200),
    ("goathead4", "hearts", {}, 5, 400),
    ("spades", "spades", {}, 5, 120),
    ("ohhell", "hearts", {}, 5, 120),
]


@pytest.mark.parametrize("game,contract,rules,tricks,n", OTHERS,
                         ids=[f"{g}-{c}{'-opts' if r else ''}" for g, c, r, _, _ in OTHERS])
def test_other_games_bounds_keep_values(game, contract, rules, tricks, n):
    lay = get_game(game).layout(contract, **rules)
    rng = np.random.default_rng(zlib.crc32(f"{game} {contract} {rules}".encode()))
    tricks = min(tricks, lay.hand_size)
    deals = _positions(lay, rng, n, tricks)
    kw = dict(declarer=rng.integers(0, lay.n_seats, n), leader=rng.integers(0, lay.n_seats, n))
    on = _solve(True, lay, deals, **kw)
    off = _solve(False, lay, deals, **kw)
    bad = np.nonzero(on.value != off.value)[0]
    assert bad.size == 0, (game, contract, bad[:5], on.value[bad[:5]], off.value[bad[:5]])
    assert on.nodes.sum() <= off.nodes.sum()
