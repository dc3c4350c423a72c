"""One md5 of every output of ``solve_many`` over a fixed set of layouts and deals.

A change meant to leave the search alone (a faster node, a refactor, bookkeeping) must
leave this signature unchanged: it covers the values, side tricks, last-trick winners,
trick melds and node counts of exact solves with the line, of solves without the line and
of paranoid minimums, on both kernels and every point game's build per shape.  Run it
before and after the change (from the repository root, after building)::

    PYTHONPATH=src python benches/solver_signature.py            # prints one md5 per row and overall
    PYTHONPATH=src python benches/solver_signature.py --quick    # fewer deals (seconds)

Any difference in a row names the layout and mode whose search changed.
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

from trickcore import get_game
from trickcore.solver import solve_many

from bench_solver_speed import random_deals

# (game, contract, deals, cards a hand (0: whole deal), solve_many keywords)
ROWS = [
    ("goathead3", "hearts", 200, 0, {}),
    ("goathead3", "hearts", 200, 0, {"line": False}),
    ("goathead3", "hearts", 200, 0, {"cuts": [31, 61, 91]}),
    ("goathead3", "leasters", 100, 0, {}),
    ("goathead4", "clubs", 200, 0, {}),
    ("sheepshead", "jd", 50, 0, {}),
    ("sheepshead", "called_ace_hearts", 10, 0, {"line": False}),
    ("clover", "hearts", 10, 0, {}),
    ("clover", "spades", 4, 5, {"sides": 1, "goal": "min"}),
    ("gamut", "hearts", 6, 6, {}),
    ("hearts", "hearts", 20, 6, {"sides": 1, "goal": "min"}),
    ("spades", "spades", 20, 8, {"declarer": 1}),
    ("ohhell", "hearts", 20, 7, {"sides": 1, "goal": "min"}),
    ("goathead3", "nil", 100, 0, {}),
]


def signature(quick: bool = False) -> str:
    total = hashlib.md5()
    for game, contract, n, tricks, kw in ROWS:
        layout = get_game(game).layout(contract)
        n = max(2, n // 4) if quick else n
        deals = random_deals(layout, n, 2026, tricks)
        r = solve_many(layout, None, deals, **kw)
        row = hashlib.md5()
        for a in (r.value, r.value_hi, r.side_tricks, r.last_trick_winner, r.side_melds, r.opp_melds, r.nodes):
            row.update(np.ascontiguousarray(a).tobytes())
        total.update(row.digest())
        print(f"{game:10s} {contract:18s} {n:4d} {tricks or layout.hand_size:3d} {str(kw):32s} "
              f"{row.hexdigest()}  nodes {int(r.nodes.sum())}", flush=True)
    return total.hexdigest()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a quarter of the deals")
    args = ap.parse_args(argv)
    print(f"signature {signature(args.quick)}")


if __name__ == "__main__":
    main()
