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
    PYTHONPATH=src python benches/bench_bid_inference.py --bids --games ohhell --rounds 200

``--bids`` scores PIMC's trick bids instead: every seat that bids after another is asked by
both players (the seats bid as the heuristic does), and each bid is compared with the
seat's most tricks alone against the others on the true deal.

Prints per game the decisions, each variant's mean regret and how often it chose a best
card, the paired difference with its 95% t interval (``analysis.stats.diff_interval``), and each
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


def round_bid_errors(game: str, seed: int, bid_samples: int, rules: dict) -> list[tuple[int, int]]:
    """``(error without, error with)`` bid inference of PIMC's trick bid for every seat that
    bids after another (the first has nothing to read), the others bidding as the heuristic
    does: the error is the bid's distance from the seat's most tricks alone against the
    others on the true deal (what PIMC's bid estimates, the median over its samples)."""
    from trickcore.policies import HeuristicPolicy, PIMCPolicy
    from trickcore.policies.inference import trick_bidders
    from trickcore.rounds import start_round
    from trickcore.solver import solve_many

    off = PIMCPolicy(bid_samples=bid_samples, seed=seed, bid_inference=False)
    on = PIMCPolicy(bid_samples=bid_samples, seed=seed, bid_inference=True)
    heuristic = HeuristicPolicy()
    r = start_round(game, seed=seed, **rules)
    out = []
    while r.pending.kind == "bid" and not r.done:
        obs = r.observe(r.pending.seat)
        if obs.phase == "bid" and trick_bidders(obs):
            lead = obs.dealer if obs.game == "gamut" else (obs.dealer + 1) % obs.n_seats
            hands = np.array([[h.mask for h in r.hands]], dtype=np.uint64)
            truth = int(solve_many(obs.layout, None, hands, leader=lead, declarer=obs.seat, sides=1 << obs.seat,
                                   goal="max", line=False).value[0])
            out.append((abs(off.bid(obs) - truth), abs(on.bid(obs) - truth)))
        r.act(heuristic.bid(obs))
    return out


def paired_runs(task, game: str, args, rules: dict, *task_args) -> tuple[np.ndarray, tuple[float, float, float]]:
    """``task(game, seed, *task_args, rules)`` for ``args.rounds`` rounds in parallel: its
    rows (one per decision, columns ``without, with, ...``) in one array, and the paired
    difference ``with - without`` with its 95% t interval."""
    from analysis.stats import diff_interval

    rows = Parallel(n_jobs=args.jobs)(
        delayed(task)(game, args.seed + i, *task_args, rules.get(game, {})) for i in range(args.rounds))
    flat = [x for row in rows for x in row]
    out = np.array(flat, dtype=float).reshape(len(flat), -1)
    return out, diff_interval(out[:, 1], out[:, 0])


def bid_rows(args, rules: dict) -> None:
    """``--bids``: PIMC's trick bids with and without the inference, against the truth."""
    print(f"PIMC bids ({args.bid_samples} samples), the others heuristic; error: |bid - the seat's most tricks "
          "on the true deal|")
    print(f"{'game':8s} {'rounds':>6s} {'bids':>5s} {'error off':>9s} {'error on':>8s} {'exact off':>9s} "
          f"{'exact on':>8s}  on - off (95%)")
    for game in args.games:
        t0 = time.perf_counter()
        err, (m, lo, hi) = paired_runs(round_bid_errors, game, args, rules, args.bid_samples)
        print(f"{game:8s} {args.rounds:6d} {len(err):5d} {err[:, 0].mean():9.3f} {err[:, 1].mean():8.3f} "
              f"{(err[:, 0] == 0).mean():9.1%} {(err[:, 1] == 0).mean():8.1%}  "
              f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]   ({time.perf_counter() - t0:.0f} s)", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=["spades", "ohhell"])
    ap.add_argument("--rounds", type=int, default=40, help="rounds per game")
    ap.add_argument("--samples", type=int, default=20, help="PIMC samples per decision")
    ap.add_argument("--bidders", choices=("heuristic", "pimc"), default="heuristic",
                    help="who bids: the heuristic (the inference's own model) or PIMC")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=-1)
    ap.add_argument("--bids", action="store_true",
                    help="score PIMC's trick bids instead of its card play (the other seats heuristic)")
    ap.add_argument("--bid-samples", type=int, default=12, help="PIMC samples a bid (with --bids)")
    args = ap.parse_args(argv)
    rules = {"spades": {}, "ohhell": {"hand_size": 10}}
    if args.bids:
        bid_rows(args, rules)
        return
    print(f"bidders: {args.bidders}; {args.samples} samples a decision; regret in tricks on the true deal")
    print(f"{'game':8s} {'rounds':>6s} {'decisions':>9s} {'regret off':>10s} {'regret on':>9s} "
          f"{'best off':>8s} {'best on':>7s}  on - off (95%)                  time a decision off, on")
    for game in args.games:
        t0 = time.perf_counter()
        reg, (m, lo, hi) = paired_runs(round_regrets, game, args, rules, args.samples, args.bidders)
        print(f"{game:8s} {args.rounds:6d} {len(reg):9d} {reg[:, 0].mean():10.4f} {reg[:, 1].mean():9.4f} "
              f"{(reg[:, 0] == 0).mean():8.1%} {(reg[:, 1] == 0).mean():7.1%}  "
              f"{m:+.4f} [{lo:+.4f}, {hi:+.4f}]  "
              f"{1e3 * reg[:, 2].mean():6.1f} {1e3 * reg[:, 3].mean():6.1f} ms   ({time.perf_counter() - t0:.0f} s)",
              flush=True)


if __name__ == "__main__":
    main()
