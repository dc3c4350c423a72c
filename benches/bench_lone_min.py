"""Solver cost of a lone seat that wants few card points (leasters, Hearts, Gamut Hearts,
the paranoid minima), the slowest layouts of the point kernel.

Run from the repository root after building::

    PYTHONPATH=src python benches/bench_lone_min.py            # the lone-seat rows
    PYTHONPATH=src python benches/bench_lone_min.py --goals    # + one seat's goal max vs min

Each row: the fastest of ``--repeats`` ``solve_many`` calls (exact values, no line), the mean
nodes per deal (deterministic: the signature of the search) and an md5 prefix of the values
(a search change that keeps the values keeps it).  ``--goals`` solves the same Sheepshead
deals for seat 0 alone wanting many points and wanting few, and sides of two and three seats
wanting few: the gap between them is the game, not the layout (session 18, ``_solve.pyx``).
"""

from __future__ import annotations

import argparse
import hashlib
import time

from trickcore import get_game
from trickcore.solver import solve_many

from bench_solver_speed import random_deals

# (game, contract, deals, cards a hand (0: whole deal), solve_many keywords)
ROWS = [
    ("sheepshead", "leaster", 40, 0, {}),
    ("goathead3", "leasters", 300, 0, {}),
    ("goathead4", "leasters", 300, 0, {}),
    ("hearts", "hearts", 40, 7, {"sides": 1, "goal": "min"}),
    ("gamut", "hearts", 20, 0, {}),
    ("clover", "spades", 20, 6, {"sides": 1, "goal": "min"}),
]

# Sheepshead jd deals, declarer's side and goal
GOALS = [(1, "max"), (1, "min"), (0b11, "min"), (0b111, "min")]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--goals", action="store_true", help="also seat 0 of 20 Sheepshead deals, goal max vs min")
    args = ap.parse_args(argv)
    print(f"{'game':10s} {'contract':9s} {'deals':>5s} {'mean/deal':>11s} {'nodes/deal':>11s}  values")
    for game, contract, n, cards, kw in ROWS:
        layout = get_game(game).layout(contract)
        deals = random_deals(layout, n, args.seed, cards)
        solve_many(layout, None, deals[:1], **kw)      # the layout's compiled view, untimed
        best = float("inf")
        for _ in range(args.repeats):
            t = time.perf_counter()
            res = solve_many(layout, None, deals, line=False, **kw)
            best = min(best, time.perf_counter() - t)
        digest = hashlib.md5(res.value.tobytes()).hexdigest()[:8]
        print(f"{game:10s} {contract:9s} {n:5d} {best / n * 1e3:8.3f} ms {res.nodes.mean():11.0f}  {digest}",
              flush=True)
    if args.goals:
        layout = get_game("sheepshead").layout("jd")
        deals = random_deals(layout, 20, args.seed)
        print("\nSheepshead jd, 20 deals, seat 0 leads")
        for sides, goal in GOALS:
            res = solve_many(layout, None, deals, sides=sides, goal=goal, line=False)
            print(f"  side {sides:#07b} goal {goal}: {res.nodes.mean():9.0f} nodes per deal")


if __name__ == "__main__":
    main()
