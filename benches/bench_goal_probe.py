"""The goal rows against the issue's "quick C probe", rebuilt and timed in the same run.

Issue #3 set its point-game goals against a probe: "A quick C probe here (alpha-beta with a
trick-boundary table, no other tricks) averaged about 200 µs per Goathead 3-player suit
deal, 8.4 ms per Sheepshead deal and 64 ms per 32-card four-player partnership deal with
Clover card points.  Goals: <= 20 µs, <= 0.5 ms and <= 2 ms", that is 10x, 16.8x and 32x
faster than that probe.  ``tests/probe_solver.c`` is such a probe, written from that
sentence (fail-soft alpha-beta over single cards in a fixed card order, a table of bounds at
trick boundaries keyed by the exact hands, nothing else); ``tests/test_solver_probe.py``
checks the kernels' values against it.  This bench times both on the same deals (the goal
rows' deals of ``bench_solver_speed.py``, seed 2026, seat 0 leading and declaring), checks
that every value agrees, and prints how many times faster ours is than the probe beside the
factor the issue asked for.

What it can and cannot tell.  The issue's probe is not known beyond that sentence, and a
plain alpha-beta's time hangs on choices the sentence leaves open: the card order alone
(``high first`` against ``low first``) moves the rebuilt probe's time 1.4-4.4x.  The rebuilt
probe, highest card first, is slower on these VMs than the issue's figures (session 29:
Goathead 3p 0.34 ms, Sheepshead 44 ms, Clover 105 ms a deal, against 0.2, 8.4 and 64 ms),
though DDS says these VMs are as fast as the goals' machine or faster
(``bench_solver_speed.py``'s yardsticks): so it is weaker than the issue's probe, by a
factor that differs per game (1.6x to 5x), and its times do not calibrate the machine.  The ratios are a same-run comparison against an independent
exact solver of the kind the goals were set against, not a reading of the goals.

Run from the repository root after building::

    PYTHONPATH=src python benches/bench_goal_probe.py             # 1000 / 100 / 30 deals
    PYTHONPATH=src python benches/bench_goal_probe.py --quick     # 200 / 20 / 6
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benches"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_solver_speed import fastest_call, fmt_time, random_deals  # noqa: E402
from probe_solver import probe_values  # noqa: E402

from trickcore import get_game  # noqa: E402
from trickcore.solver import solve_many  # noqa: E402

# (label, game, contract, the issue's probe time a deal, the goal, deals, --quick deals)
ROWS = [
    ("Goathead 3p hearts", "goathead3", "hearts", 200e-6, 20e-6, 1000, 200),
    ("Sheepshead jd", "sheepshead", "jd", 8.4e-3, 0.5e-3, 100, 20),
    ("Clover hearts", "clover", "hearts", 64e-3, 2e-3, 30, 6),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a fifth of the deals")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeats", type=int, default=3, help="calls of ours and of the probe, the fastest counting")
    args = ap.parse_args(argv)
    print(f"{'case':20s} {'deals':>5s} {'ours':>10s} {'nodes':>8s} {'probe order':>12s} {'probe':>10s} "
          f"{'nodes':>10s} {'probe/ours':>10s} {'issue asked':>11s}")
    ok = True
    for label, game, contract, issue_probe, goal, n_full, n_quick in ROWS:
        layout = get_game(game).layout(contract)
        n = n_quick if args.quick else n_full
        deals = random_deals(layout, n, args.seed)
        solve_many(layout, None, deals[:1], leader=0, declarer=0)     # imports, tables: untimed
        ours_s, ours = fastest_call(lambda: solve_many(layout, None, deals, leader=0, declarer=0), args.repeats, 0)
        for high_first in (True, False):
            runs = [probe_values(layout, deals, 0, 0, high_first) for _ in range(args.repeats)]
            values, nodes, _ = runs[0]
            probe_s = min(r[2] for r in runs)
            agree = bool((values == ours.value).all())
            ok &= agree
            print(f"{label:20s} {n:5d} {fmt_time(ours_s / n):>10s} {ours.nodes.mean():8.0f} "
                  f"{'high first' if high_first else 'low first':>12s} {fmt_time(probe_s / n):>10s} "
                  f"{nodes.mean():10.0f} {probe_s / ours_s:9.1f}x {issue_probe / goal:10.1f}x"
                  + ("" if agree else "   VALUES DIFFER"))
    print("\nprobe/ours: how many times faster ours is on the same deals (ours with its line, as the goal "
          "rows; the probe the value alone).  issue asked: the issue's probe time over the goal.")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
