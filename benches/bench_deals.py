"""Benchmark of trickcore.deals: random deals per second per core, and enumeration speed.

Run from the repository root (after building the compiled core):

    PYTHONPATH=src python benches/bench_deals.py            # ~1 minute on a quiet machine
    PYTHONPATH=src python benches/bench_deals.py --quick    # a few seconds

Every figure is measured several times (``--repeats``) and the best and the median are
printed: on a shared machine the best is the closest to the code's real speed, the median
says how noisy the run was.  All rates are single-threaded (one core), in millions of
deals per second of wall time and per second of this thread's CPU time (``thread_time``;
on an overloaded machine the CPU-time rate is the per-core speed, the wall rate is not).

Rows
----
* ``random_deals`` - the public call, default chunk size (one compiled call and one
  SeedSequence child per 65,536 deals), including the output allocation.
* ``kernel`` - the compiled kernel alone filling a preallocated array from one stream.
* ``numpy reference`` - the same deals with plain numpy in the same run:
  ``Generator.permuted(axis=1)`` on a tiled deck, then hands OR-ed from the permuted rows.
  The ratio column is ``random_deals`` / reference.
* ``fixed`` - Sheepshead with the picker's six cards fixed (26 unseen cards dealt).
* ``enumerate`` - every layout of the unseen cards around one known 3-player Goathead hand
  (84,084 deals), deals per second.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np

from trickcore.deals import BIT_GENERATOR, _plan, enumerate_deals, fixed_columns, random_deals, table_of

GAMES = [
    ("sheepshead", "Sheepshead 5x6+2, 32 cards"),
    ("clover", "Clover 4x8, 32 cards"),
    ("goathead3", "Goathead 3x6+2, 20 cards"),
    ("spades", "Spades 4x13, 52 cards"),
]


def _timed(fn, repeats: int) -> tuple[list[float], list[float]]:
    """Wall and thread-CPU seconds of each of ``repeats`` calls."""
    wall, cpu = [], []
    for _ in range(repeats):
        c0, t0 = time.thread_time(), time.perf_counter()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    return wall, cpu


def _rates(n: int, times: tuple[list[float], list[float]]) -> tuple[float, float, float, float]:
    """(wall best, wall median, cpu best, cpu median) in deals per second."""
    wall, cpu = times
    return (n / min(wall), n / statistics.median(wall),
            n / max(min(cpu), 1e-9), n / max(statistics.median(cpu), 1e-9))


def _row(label: str, what: str, r: tuple[float, ...], ratio: str = "") -> str:
    cells = " | ".join(f"{x / 1e6:.2f}" for x in r)
    return f"| {label} | {what} | {cells} | {ratio} |"


def numpy_reference(game: str, n: int, seed: int) -> np.ndarray:
    """Plain-numpy deals: shuffle each row of a tiled deck, OR the hands together."""
    t = table_of(game)
    deck = np.array([c for c in range(64) if t.deck >> c & 1], dtype=np.uint64)
    rng = np.random.Generator(BIT_GENERATOR(seed))
    rows = rng.permuted(np.broadcast_to(deck, (n, len(deck))), axis=1)
    bits = np.left_shift(np.uint64(1), rows)
    out = np.zeros((n, t.n_seats + 1), dtype=np.uint64)
    for s in range(t.n_seats):
        out[:, s] = np.bitwise_or.reduce(bits[:, s * t.hand_size : (s + 1) * t.hand_size], axis=1)
    if t.kitty_size:
        out[:, t.n_seats] = np.bitwise_or.reduce(bits[:, t.n_seats * t.hand_size :], axis=1)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, 3 repeats")
    ap.add_argument("--deals", type=int, default=None, help="deals per measurement (default 2,000,000)")
    ap.add_argument("--repeats", type=int, default=None, help="measurements per figure (default 7)")
    args = ap.parse_args(argv)
    n = args.deals or (200_000 if args.quick else 2_000_000)
    repeats = args.repeats or (3 if args.quick else 7)
    n_ref = max(n // 10, 10_000)

    print(f"# bench_deals: {n:,} deals per measurement, {repeats} repeats; millions of deals per second")
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cpus, "
          f"load average {os.getloadavg()[0]:.1f}, numpy {np.__version__}, bit generator {BIT_GENERATOR.__name__}")
    print()
    print("| deals | what | wall best | wall median | CPU best | CPU median | ratio to numpy (CPU best) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for game, label in GAMES:
        random_deals(game, 1000, seed=0)  # warm caches (layout, plan)
        api = _rates(n, _timed(lambda: random_deals(game, n, seed=1), repeats))
        t = table_of(game)
        plan = _plan(t, fixed_columns(t, None))
        out = np.empty((n, t.n_seats + 1), dtype=np.uint64)
        bg = BIT_GENERATOR(2)
        kernel = _rates(n, _timed(lambda: plan.deal_into(bg, out), repeats))
        ref = _rates(n_ref, _timed(lambda: numpy_reference(game, n_ref, 3), repeats))
        print(_row(label, "random_deals", api, f"{api[2] / ref[2]:.0f}x"))
        print(_row(label, "kernel", kernel, f"{kernel[2] / ref[2]:.0f}x"))
        print(_row(label, "numpy reference", ref, "1x"))

    fixed = {0: "QC QS QH QD JC JS"}
    r = _rates(n, _timed(lambda: random_deals("sheepshead", n, seed=4, fixed=fixed), repeats))
    print(_row("Sheepshead, picker's 6 cards fixed", "random_deals(fixed=...)", r))

    known = {0: "JC JS JH JD AC 10C"}
    count = len(enumerate_deals("goathead3", known))
    r = _rates(count, _timed(lambda: enumerate_deals("goathead3", known), repeats))
    print(_row(f"Goathead 3p, one hand known ({count:,} deals)", "enumerate_deals", r))


if __name__ == "__main__":
    main()
