"""The double-dummy solves behind the trick-bid analyses: CPU time and nodes per deal.

Run from the repository root after building::

    PYTHONPATH=src python benches/bench_bids.py                 # the defaults below
    PYTHONPATH=src python benches/bench_bids.py --deals 50 --min-deals 0

:func:`analysis.bids.bid_solve` solves each deal once or twice for the analysed seat:

* Spades: the team's most tricks ``T`` (seat and partner against the other two), and for
  the nil bid whether the seat alone can take no trick (the Nil objective,
  ``objective='nil'``).  Until session 15 the nil was answered by the fewest tricks the
  seat can be held to (``goal='min'``, then ``== 0``); that solve is timed here too, on
  ``--min-deals`` of the deals (it takes seconds a deal), as the reference the Nil
  objective replaced: same made/failed answer on every deal (checked), and the ratio.
* Oh Hell: the seat's most and fewest tricks alone against the other three (``M``, ``m``;
  both needed: a bid ``k`` is makeable iff ``m <= k <= M``), for 8- and 10-card hands.

Each row is one ``solve_many`` call over its deals (CPU time, one thread); the node counts
are deterministic for a seed and are the signature to compare between versions.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from analysis.paranoid import seat_solve
from trickcore import get_game
from trickcore.deals import random_deals


def timed(game, contract, deals, **kw):
    t0 = time.process_time()
    r = seat_solve(game, contract, deals, seat=0, line=False, **kw)
    return r, time.process_time() - t0


def row(label, n, seconds, nodes):
    print(f"{label:44s} {n:6d} {seconds / n * 1e3:12.2f} {np.mean(nodes):14,.0f} {np.max(nodes):14,d}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100, help="deals per row (default 100)")
    ap.add_argument("--min-deals", type=int, default=4,
                    help="Spades deals for the reference fewest-tricks solve (seconds each; 0 skips)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)

    print(f"{'solve (seat 0 leads and is analysed)':44s} {'deals':>6s} {'ms/deal':>12s} {'nodes/deal':>14s} {'max nodes':>14s}")
    spades = random_deals("spades", args.deals, seed=args.seed)
    team = get_game("spades").layout("spades").sides(np.ascontiguousarray(spades[:, :4]), 0)
    r, t = timed("spades", "spades", spades, goal="max", sides=np.asarray(team, dtype=np.int64))
    row("Spades: team's most tricks T", len(spades), t, r.nodes)
    nil, t_nil = timed("spades", "spades", spades, goal=None, objective="nil")
    row("Spades: nil (Nil objective)", len(spades), t_nil, nil.nodes)
    made = float(np.mean(nil.value == 0))
    print(f"{'':44s} nil made on {made:.1%} of the deals")
    if args.min_deals:
        k = min(args.min_deals, len(spades))
        low, t_low = timed("spades", "spades", spades[:k], goal="min")
        row("Spades: fewest tricks N (reference)", k, t_low, low.nodes)
        same = bool(np.array_equal(low.value == 0, nil.value[:k] == 0))
        nil_k, t_nil_k = timed("spades", "spades", spades[:k], goal=None, objective="nil")
        print(f"{'':44s} same deals: Nil objective {t_nil_k / k * 1e3:.2f} ms/deal, "
              f"{t_low / max(t_nil_k, 1e-9):,.0f}x faster; same made/failed answer: {same}")
        if not same:
            raise SystemExit("the Nil objective and the fewest tricks disagree on a nil")
    for h in (8, 10):
        oh = random_deals("ohhell", args.deals, seed=args.seed, hand_size=h)
        for contract in ("spades", "notrump"):
            hi, t_hi = timed("ohhell", contract, oh, goal="max", rules={"hand_size": h})
            lo, t_lo = timed("ohhell", contract, oh, goal="min", rules={"hand_size": h})
            row(f"Oh Hell {contract} {h} cards: most tricks M", len(oh), t_hi, hi.nodes)
            row(f"Oh Hell {contract} {h} cards: fewest tricks m", len(oh), t_lo, lo.nodes)


if __name__ == "__main__":
    main()
