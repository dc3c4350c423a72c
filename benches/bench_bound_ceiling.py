"""How much of the point solver's search a better bound could save, at most (a measurement).

The question behind it: the point games' exact values are about 2x slower than issue #3's
goals, and the nodes go to null-window proofs ("can the side reach >= t?").  Are those
proofs about positions whose value lies close to the threshold (then only a finer table or
abstraction can help), or far from it (then a stronger bound would settle them unsearched)?

Method.  A scratch build of the kernel (``benches/bound_ceiling.patch``, applied to
``src/trickcore/_solve.pyx`` and built, never committed) logs every trick boundary with at
least three tricks left that the search had to open: its table entry and its bounds did
not settle it.  For each it logs the position, the null window and the node counter
before and after its search.  This script then solves every logged position exactly with
the normal solver, and counts, for a margin ``m``, the nodes under the outermost logged
boundaries whose exact value lies at least ``m`` points beyond the window (``v >= beta +
m`` for a proof, ``v <= alpha - m`` for a refutation): the nodes that a bound no further
than ``m`` points from the truth would have saved.  It also counts those under boundaries
settled by the trick count's two extremes: the side can take no trick (then it takes no
points) or every trick (every point), from a trick-objective solve of the same position.

Run from the repository root::

    git apply benches/bound_ceiling.patch
    TRICKCORE_ONLY='_solve_5x32x4,_solve_4x32x4' python setup.py build_ext --inplace
    PYTHONPATH=src python benches/bench_bound_ceiling.py sheepshead jd --deals 100
    PYTHONPATH=src python benches/bench_bound_ceiling.py clover hearts --deals 40
    git checkout src/trickcore/_solve.pyx   # and rebuild the two modules

Only for layouts solved by null-window bisection (more than 20 live cards: Sheepshead,
Clover, Gamut hearts, Hearts); Goathead's deals are solved in one full-window search.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver_speed import random_deals  # noqa: E402

import trickcore  # noqa: E402
from trickcore import _solve, get_game  # noqa: E402

MARGINS = (1, 2, 3, 5, 8, 12, 20)


def outermost_nodes(n0: np.ndarray, n1: np.ndarray, chosen: np.ndarray) -> int:
    """Nodes under the chosen records that no earlier chosen record contains.  Records are
    in the search's pre-order; the node counter restarts with every deal, so a record lies
    inside the current one iff its start falls in the current one's [n0, n1)."""
    saved, start, end = 0, -1, -1
    for i in np.flatnonzero(chosen):
        if start <= n0[i] < end:
            continue
        saved += int(n1[i] - n0[i])
        start, end = n0[i], n1[i]
    return saved


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("contract")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)

    layout = get_game(args.game).layout(args.contract)
    kernel = importlib.import_module(_solve.shape_build(layout.core))
    if not hasattr(kernel, "_log_start"):
        ap.exit(2, f"{kernel.__name__} has no boundary log: apply benches/bound_ceiling.patch "
                   "and build first (see this script's docstring)\n")
    deals = random_deals(layout, args.deals, args.seed)
    kernel._log_start(20_000_000)
    result = trickcore.solve_many(args.game, args.contract, deals, leader=0, declarer=0,
                                  line=False)
    hands, info = kernel._log_take(deals.shape[1])
    total = int(np.asarray(result.nodes).sum())
    leader, tleft, alpha, beta, n0, n1, side = (info[:, k] for k in range(7))

    # each distinct position once: exact points, and the side's tricks
    universal = layout.to_universal(hands)
    keys = np.concatenate([universal.view(np.int64), info[:, [0, 6]]], axis=1)
    distinct, back = np.unique(keys, axis=0, return_inverse=True)
    back = back.ravel()
    pos_hands = np.ascontiguousarray(distinct[:, :universal.shape[1]].view(np.uint64))
    common = dict(leader=distinct[:, -2], sides=distinct[:, -1], line=False)
    value = np.asarray(trickcore.solve_many(args.game, args.contract, pos_hands, **common).value)[back]
    tricks = np.asarray(trickcore.solve_many(args.game, args.contract, pos_hands,
                                             objective="tricks", **common).value)[back]

    passed = value >= beta
    margin = np.where(passed, value - beta, alpha - value)
    inner = tleft < tleft.max()         # not the root: the deal's own probes
    print(f"{args.game} {args.contract}, {args.deals} deals (seed {args.seed}): {total:,} nodes, "
          f"{len(hands):,} boundaries opened with >= 3 tricks left ({len(distinct):,} distinct)")
    print("\nnodes under boundaries whose value lies >= m points beyond the window")
    print("   m   every boundary   below the root")
    for m in MARGINS:
        far = margin >= m
        print(f"{m:4d}   {outermost_nodes(n0, n1, far) / total:14.1%}   "
              f"{outermost_nodes(n0, n1, far & inner) / total:13.1%}")
    extremes = (~passed & (tricks == 0)) | (passed & (tricks == tleft))
    print(f"\nsettled by the side taking no trick or every trick: {extremes.mean():.1%} of the "
          f"boundaries, {outermost_nodes(n0, n1, extremes & inner) / total:.1%} of the nodes")
    print("\nby tricks left: boundaries, nodes under them (nested included), median margin")
    for t in np.unique(tleft):
        at = tleft == t
        print(f"{t:4d}   {at.sum():8,}   {int((n1 - n0)[at].sum()):10,}   {np.median(margin[at]):5.1f}")


if __name__ == "__main__":
    main()
