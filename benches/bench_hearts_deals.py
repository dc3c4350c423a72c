"""Whole Hearts deals solved double dummy for one seat, each under a time budget.

Seat 0's paranoid value (its fewest points against the other three), the 2♣'s holder
leading, every legal first card's value (``trickcore.solve``).  A deal that does not finish
within ``--budget`` seconds is reported with the bounds the search had proved by then
(``TimeoutError.value_bounds``).  Run from the repository root after building::

    PYTHONPATH=src python benches/bench_hearts_deals.py                  # 16 deals, 3 s each
    PYTHONPATH=src python benches/bench_hearts_deals.py --deals 8 --budget 40
"""

from __future__ import annotations

import argparse
import time

from trickcore import CardSet, solve
from trickcore.deals import random_deals


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=16)
    ap.add_argument("--budget", type=float, default=3.0, help="seconds per deal")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    two_clubs = CardSet(["2C"]).mask
    finished = []
    print(f"{'deal':>4s} {'leader':>6s} {'seconds':>8s}  result")
    for i, deal in enumerate(random_deals("hearts", args.deals, seed=args.seed)[:, :4]):
        leader = next(s for s in range(4) if int(deal[s]) & two_clubs)
        started = time.perf_counter()
        try:
            r = solve("hearts", "hearts", deal.tolist(), leader=leader, sides=1, goal="min",
                      time_budget=args.budget)
            outcome = f"value {r.value} ({r.nodes:,} nodes)"
            finished.append(i)
        except TimeoutError as stop:
            lo, hi = stop.value_bounds
            outcome = f"stopped: value in [{lo}, {hi}]"
        print(f"{i:4d} {leader:6d} {time.perf_counter() - started:8.2f}  {outcome}", flush=True)
    print(f"{len(finished)} of {args.deals} deals finished within {args.budget:g} s each")


if __name__ == "__main__":
    main()
