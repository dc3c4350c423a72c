"""PIMC card play with and without bid inference: how far each choice is from the best card.

For random Spades, Oh Hell and Gamut rounds the seats bid and play with one policy (the
heuristic, or for the trick bids PIMC with ``--bidders pimc``); at every card-play decision
PIMC handles (at most ``max_cards`` cards in the hands, two or more legal cards) where
there are trick bids to read (in Gamut, the rounds of its Spades game), two PIMC players
are asked the same observation, one with ``bid_inference`` and one without, and each
choice is scored on the *true* deal: its *regret* is the double-dummy value of the best
legal card for the seat minus that of the card chosen (tricks, from the seat's point of
view: its team's in Spades, its own against the others in Oh Hell and Gamut's Spades; see
``PIMCPolicy.card_values``).  The same decisions for both, so the difference is paired.
Rounds run in parallel (joblib).

Run from the repository root after building::

    PYTHONPATH=src python benches/bench_bid_inference.py                     # 40 rounds a game
    PYTHONPATH=src python benches/bench_bid_inference.py --rounds 200 --games spades
    PYTHONPATH=src python benches/bench_bid_inference.py --bidders pimc --rounds 40
    PYTHONPATH=src python benches/bench_bid_inference.py --games gamut --rounds 1000

Prints per game the decisions, each variant's mean regret and how often it chose a best
card, the paired difference with a 95% interval (normal approximation), and each
variant's mean time a decision (the two workers share the machine's cores).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from joblib import Parallel, delayed


def round_regrets(game: str, seed: int, samples: int, bidders: str,
                  rules: dict) -> list[tuple[int, int, float, float]]:
    """``(regret without, regret with, seconds without, seconds with)`` bid inference at
    each PIMC card decision of one round."""
    from trickcore.policies import HeuristicPolicy, PIMCPolicy
    from trickcore.policies.inference import trick_bidders
    from trickcore.rounds import start_round

    off = PIMCPolicy(samples=samples, seed=seed, bid_inference=False)
    on = PIMCPolicy(samples=samples, seed=seed, bid_inference=True)
    heuristic = HeuristicPolicy()
    bidder = PIMCPolicy(samples=samples, seed=seed) if bidders == "pimc" else heuristic
    r = start_round(game, seed=seed, **rules)
    out = []
    while not r.done:
        d = r.pending
        obs = r.observe(d.seat)
        if (d.kind == "play" and len(d.legal) > 1 and sum(obs.hand_sizes) <= off.max_cards
                and trick_bidders(obs)):
            truth = off.card_values(obs, [r.hands[s] for s in range(r.n)])
            best = max(truth.values())
            t0 = time.perf_counter()
            card_off = off.play(obs)
            t1 = time.perf_counter()
            card_on = on.play(obs)
            t2 = time.perf_counter()
            out.append((best - truth[card_off], best - truth[card_on], t1 - t0, t2 - t1))
        answer = bidder.bid(obs) if d.kind == "bid" else getattr(heuristic, d.kind)(obs)
        r.act(answer)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=["spades", "ohhell"])
    ap.add_argument("--rounds", type=int, default=40, help="rounds per game")
    ap.add_argument("--samples", type=int, default=20, help="PIMC samples per decision")
    ap.add_argument("--bidders", choices=("heuristic", "pimc"), default="heuristic",
                    help="who bids: the heuristic (the inference's own model) or PIMC")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=-1)
    args = ap.parse_args(argv)
    rules = {"spades": {}, "ohhell": {"hand_size": 10}}
    print(f"bidders: {args.bidders}; {args.samples} samples a decision; regret in tricks on the true deal")
    print(f"{'game':8s} {'rounds':>6s} {'decisions':>9s} {'regret off':>10s} {'regret on':>9s} "
          f"{'best off':>8s} {'best on':>7s}  on - off (95%)                  time a decision off, on")
    for game in args.games:
        t0 = time.perf_counter()
        rows = Parallel(n_jobs=args.jobs)(
            delayed(round_regrets)(game, args.seed + i, args.samples, args.bidders, rules.get(game, {}))
            for i in range(args.rounds))
        reg = np.array([x for row in rows for x in row], dtype=float).reshape(-1, 4)
        diff = reg[:, 1] - reg[:, 0]
        half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
        print(f"{game:8s} {args.rounds:6d} {len(reg):9d} {reg[:, 0].mean():10.4f} {reg[:, 1].mean():9.4f} "
              f"{(reg[:, 0] == 0).mean():8.1%} {(reg[:, 1] == 0).mean():7.1%}  "
              f"{diff.mean():+.4f} [{diff.mean() - half:+.4f}, {diff.mean() + half:+.4f}]  "
              f"{1e3 * reg[:, 2].mean():6.1f} {1e3 * reg[:, 3].mean():6.1f} ms   ({time.perf_counter() - t0:.0f} s)",
              flush=True)


if __name__ == "__main__":
    main()
