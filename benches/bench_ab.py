"""Interleaved wall-time comparison of several builds of the point kernel in one process.

This VM's speed drifts by up to 30% from minute to minute, so builds timed one after the
other in separate runs can be told apart only by large margins.  Here every build of
the point kernel (one ``.so`` file each, e.g. the previous commit's built in a second
checkout) is loaded as its own module object, and ``solve_many`` is pointed at each in
turn, call after call on the same deals: the drift hits every build alike.  A build is
``_solve`` (the general one) or the layout's build per shape (``_solve_3x20x4`` for
Goathead 3p with a trump suit, ``_solve_4x20x4`` 4p, ``_solve_4x32x4`` Clover,
``_solve_5x32x4`` Sheepshead; ``_solve.shape_build(layout.core)`` names it), which
``solve_many`` uses for the point games since session 13; the module's name is read off
the file's.  Run from the repository root after building::

    PYTHONPATH=src python benches/bench_ab.py goathead3 hearts --deals 100 --calls 400 \\
        OLD/src/trickcore/_solve_3x20x4.cpython-311-x86_64-linux-gnu.so \\
        src/trickcore/_solve_3x20x4.cpython-311-x86_64-linux-gnu.so

Prints the fastest, the 10th percentile and the median call per build, in time per deal,
and the mean node count (the search's signature: equal counts mean the same search); for
every build after the first, the median of its time over the first build's in the same
round with a 95% interval (:func:`paired_ratio`), and whether its values, side tricks and
last-trick winners equal the first build's.  Each round runs the builds in a rotated
order, so no build always comes first (session 31: with a fixed order, swapping two
builds' places moved the ratio of their fastest calls by up to 1.6%, as much as some of
the changes timed).  The
deals are the solver bench's (``bench_solver_speed.random_deals``, seed 2026); ``--leader``
and ``--declarer`` set the seats (default 0 and 0), ``--random-seats`` draws them per deal.
When the VM is busy the median moves by 10-30% between runs; a few hundred calls and the
10th percentile tell builds apart.

``--every-card`` times what :func:`trickcore.solve` asks of the kernel instead: every
legal card's value and a line, one deal per call of the kernel's ``solve_position``
(without ``solve``'s own Python work, which is the same for every build), a call here
being one pass over the deals; it also says whether the builds give the same values and
lines.  Session 30's figures for :func:`card_value` came from::

    PYTHONPATH=src python benches/bench_ab.py goathead3 hearts --every-card --random-seats \
        --deals 300 --calls 5 OLD/src/trickcore/_solve_3x20x4...so src/trickcore/_solve_3x20x4...so
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver_speed import payout_cuts_for, random_deals  # noqa: E402

import trickcore.solver as solver  # noqa: E402
from trickcore import get_game  # noqa: E402


def load_build(path: str):
    """The point kernel's extension at ``path`` as a module object of its own (not put in
    ``sys.modules``: several builds live side by side)."""
    name = "trickcore." + Path(path).name.split(".")[0]     # _solve, or a build per shape
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("contract")
    ap.add_argument("builds", nargs="+", help="paths of _solve extension modules to compare")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--calls", type=int, default=40, help="timed calls per build, interleaved")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--payout", action="store_true", help="solve only as far as the payout needs")
    ap.add_argument("--leader", type=int, default=0, help="seat that leads (default 0)")
    ap.add_argument("--declarer", type=int, default=0, help="declarer's seat (default 0)")
    ap.add_argument("--random-seats", action="store_true",
                    help="a random leader and declarer per deal (seeded), instead of --leader/--declarer")
    ap.add_argument("--every-card", action="store_true",
                    help="every legal card's value and a line per deal, as solve() asks (kernel calls only)")
    args = ap.parse_args(argv)

    modules = [load_build(p) for p in args.builds]
    layout = get_game(args.game).layout(args.contract)
    deals = random_deals(layout, args.deals, args.seed)
    cuts = payout_cuts_for(layout, deals) if args.payout else None
    leader, declarer = args.leader, args.declarer
    if args.random_seats:
        seats = np.random.default_rng(args.seed + 1).integers(0, layout.n_seats, (2, args.deals))
        leader, declarer = seats[0], seats[1]
    if args.payout and cuts is None:
        ap.error(f"{args.game} has no payout cuts")
    if args.every_card:
        if args.payout:
            ap.error("--every-card solves exact values; --payout does not apply")
        every_card(modules, args.builds, layout, deals, np.broadcast_to(leader, args.deals),
                   np.broadcast_to(declarer, args.deals), args.calls)
        return
    times = [[] for _ in modules]
    results = [None] * len(modules)
    kernel = solver._kernel
    try:
        for r in range(args.calls):
            for i in range(len(modules)):
                k = (i + r) % len(modules)          # rotated: no build always first
                solver._kernel = lambda _layout, m=modules[k]: m
                t0 = time.perf_counter()
                results[k] = solver.solve_many(layout, None, deals, leader=leader,
                                               declarer=declarer, cuts=cuts,
                                               line=cuts is None)
                times[k].append(time.perf_counter() - t0)
    finally:
        solver._kernel = kernel
    for k, (path, t, res) in enumerate(zip(args.builds, times, results)):
        per = np.array(t) / args.deals * 1e6
        print(f"{path}\n    fastest {per.min():9.1f} us  10th percentile {np.percentile(per, 10):9.1f} us"
              f"  median {np.median(per):9.1f} us  nodes/deal {res.nodes.mean():.0f}")
        if k:
            mid, lo, hi = paired_ratio(times[0], t)
            same = all(np.array_equal(getattr(res, f), getattr(results[0], f))
                       for f in ("value", "value_hi", "side_tricks", "last_trick_winner"))
            print(f"    to the first, round by round: median x{mid:.3f} (95% interval {lo:.3f}-{hi:.3f}); "
                  f"{'same results' if same else 'RESULTS DIFFER'}")


def paired_ratio(first, other) -> tuple[float, float, float]:
    """Median of ``other[i] / first[i]`` over the rounds (each pair timed in the same
    round, so the VM's drift cancels) and a 95% interval of that median from the order
    statistics (the binomial ranks ``n/2 -+ 1.96 sqrt(n)/2``; the whole range for fewer
    than eight rounds).

    >>> paired_ratio([1.0, 2.0, 4.0], [1.1, 2.2, 4.4])
    (1.1, 1.1, 1.1)
    """
    ratios = np.sort(np.asarray(other, dtype=float) / np.asarray(first, dtype=float))
    n = len(ratios)
    half = 1.96 * np.sqrt(n) / 2
    lo = max(int(np.floor(n / 2 - half)), 0)
    hi = min(int(np.ceil(n / 2 + half)), n - 1)
    return float(np.median(ratios)), float(ratios[lo]), float(ratios[hi])


def every_card(modules, paths, layout, deals, leaders, declarers, calls: int) -> None:
    """Time each build's ``solve_position`` with every card's value, deal by deal, the
    builds interleaved pass by pass (process time: the kernel holds no lock to wait on)."""
    cls = solver._classes(layout)
    no_trick = np.zeros(0, dtype=np.int8)
    jobs = []
    for row, lead, decl in zip(deals, leaders, declarers):
        bits = layout.core.to_layout_bits(row[:layout.n_seats])     # a new uint64 array
        jobs.append((bits, int(lead),
                     int(layout.sides(row[:layout.n_seats], int(decl)))))
    times = [[] for _ in modules]
    outputs: list[list] = [[] for _ in modules]
    nodes = [0.0] * len(modules)
    for r in range(calls):
        for i in range(len(modules)):
            k = (i + r) % len(modules)              # rotated, as in main
            module = modules[k]
            out, total = [], 0
            t0 = time.process_time()
            for bits, lead, side in jobs:
                value, values, line, n = module.solve_position(layout.core, cls, bits, lead, no_trick, 0, 0, 0,
                                                               side, True, 256, True, 0, 0)
                out.append((value, values, line))
                total += n
            times[k].append(time.process_time() - t0)
            outputs[k], nodes[k] = out, total / len(jobs)
    for path, t, n, out in zip(paths, times, nodes, outputs):
        per = np.array(t) / len(jobs) * 1e6
        values = "same values" if [o[:2] for o in out] == [o[:2] for o in outputs[0]] else "VALUES DIFFER"
        lines = "same lines" if out == outputs[0] else "other lines"
        mid, lo, hi = paired_ratio(times[0], t)
        print(f"{path}\n    fastest {per.min():9.1f} us  median {np.median(per):9.1f} us  nodes/deal {n:.0f}"
              f"  to the first, round by round: median x{mid:.3f} ({lo:.3f}-{hi:.3f})"
              f"  ({values}, {lines} as the first build)")


if __name__ == "__main__":
    main()
