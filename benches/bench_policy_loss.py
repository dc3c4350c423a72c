"""How far the playing policies stand from double-dummy play: every card of whole rounds
reviewed by :func:`analysis.review_round`.

(``time`` is the whole game's: playing the rounds and reviewing them.)

Run from the repository root after building::

    PYTHONPATH=src python benches/bench_policy_loss.py                    # heuristic, 200 rounds a game
    PYTHONPATH=src python benches/bench_policy_loss.py --policy pimc --rounds 20 --games sheepshead
    PYTHONPATH=src python benches/bench_policy_loss.py --informed --samples 20   # + what the players could know

For each game the same seeds are played with every seat on ``--policy``; each card is
judged against the mover's best card with every hand visible.  The loss is in the game's
unit (card points, tricks; Hearts: the seat's own penalty points, each seat alone against
the others).  A double-dummy loss is not all error: a player who cannot see the other hands
must guess, so even perfect play under hidden information loses against it.  The figures
bound how much of a simulation's payouts can move when the heuristic players stand in for
people (``analysis.pass_odds`` and the report's play-outs use them).

With ``--informed`` each card is also judged by what its player could know
(:func:`analysis.review.play_and_review`: the mean over ``--samples`` deals of the unseen
cards consistent with what the seat had seen, each solved double dummy): the informed loss
per decision is the part of the double-dummy loss a player without sight of the other
hands could have avoided, as far as the samples tell (positions of more than 32 cards are
left out of it: the first five tricks of Spades and Hearts).

Printed per game: decisions (cards with a choice), the share with a positive loss, the mean
loss per decision with its 95% interval (clustered by round: the t interval of the rounds'
totals over their decisions), and the mean loss per round of the declarer's side and of the
defenders.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from analysis.review import play_and_review, review_round
from analysis.stats import mean_interval
from trickcore.games import get_game
from trickcore.policies import HeuristicPolicy, PIMCPolicy
from trickcore.rounds import play_round

GAMES = ("goathead3", "goathead4", "sheepshead", "clover", "gamut", "spades", "hearts")


def _policy(name: str, seat: int, seed: int):
    if name == "heuristic":
        return HeuristicPolicy()
    return PIMCPolicy(seed=seed * 100 + seat)


def _per_decision(totals: np.ndarray, counts: np.ndarray) -> str:
    """The mean loss per decision over the rounds (each round's total loss over its
    decisions) with its 95% interval, clustered by round: the ratio estimator and the t
    interval of the rounds' residuals."""
    mean = totals.sum() / counts.sum()
    lo, hi = mean_interval((totals - mean * counts) / counts.mean())[1:]
    return f"{mean:.3f} [{mean + lo:.3f}, {mean + hi:.3f}]"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--policy", choices=("heuristic", "pimc"), default="heuristic")
    ap.add_argument("--seed", type=int, default=0, help="first round's seed")
    ap.add_argument("--informed", action="store_true", help="also the informed loss (PIMC's view of each card)")
    ap.add_argument("--samples", type=int, default=20, help="deals a decision for --informed")
    ap.add_argument("--hearts-node-budget", type=int, default=200_000,
                    help="Hearts positions are solved up to this many nodes; the rest are left out")
    args = ap.parse_args(argv)
    print(f"policy {args.policy}, {args.rounds} rounds a game from seed {args.seed}\n")
    print(f"{'game':13s} {'rounds':>6s} {'decisions':>9s} {'erring':>7s} {'loss/decision':>29s} "
          f"{'declarer/round':>14s} {'defenders/round':>15s} {'unsolved':>8s} {'time':>7s}"
          + (f" {'informed loss/decision':>29s}" if args.informed else ""))
    for game in args.games:
        n = get_game(game).n_seats
        t0 = time.perf_counter()
        rows: dict[str, dict] = {}        # Gamut's games apart: points in one, tricks in the others
        for r in range(args.rounds):
            seed = args.seed + r
            policies = [_policy(args.policy, s, seed) for s in range(n)]
            budget = args.hearts_node_budget if game == "hearts" else None
            if args.informed:
                rec, rev = play_and_review(game, policies, seed=seed, samples=args.samples, node_budget=budget)
            else:
                rec = play_round(game, policies, seed=seed)
            if not rec.tricks or len({s for t in rec.tricks for s, _ in t.plays}) != n:
                continue                              # thrown in, or seats folded (Gamut)
            if not args.informed:
                rev = review_round(rec, node_budget=budget)
            key = f"gamut/{rec.contract}" if game == "gamut" else game
            acc = rows.setdefault(key, {"unit": rev.objective, "loss": [], "dec": [], "decl": [], "defs": [],
                                        "unsolved": 0, "erring": 0, "ev": [], "ev_dec": []})
            m = rev.moves[~rev.moves.forced & rev.moves.exact]
            acc["unsolved"] += int((~rev.moves.exact).sum())
            acc["erring"] += int((m.loss > 0).sum())
            acc["loss"].append(float(m.loss.sum()))
            acc["dec"].append(len(m))
            if args.informed:
                e = rev.moves[~rev.moves.forced & rev.moves.ev_loss.notna()]
                acc["ev"].append(float(e.ev_loss.sum()))
                acc["ev_dec"].append(len(e))
            if rev.perspective == "side":
                acc["decl"].append(float(m.loss[m.team == "declarer"].sum()))
                acc["defs"].append(float(m.loss[m.team == "defender"].sum()))
        secs = time.perf_counter() - t0
        for key, acc in sorted(rows.items()):
            totals, counts = np.array(acc["loss"]), np.array(acc["dec"])
            ci = f"{_per_decision(totals, counts)} {acc['unit']}"
            side = (f"{np.mean(acc['decl']):14.2f} {np.mean(acc['defs']):15.2f}" if acc["decl"]
                    else f"{'-':>14s} {'-':>15s}")
            informed = ""
            if args.informed:
                informed = f" {_per_decision(np.array(acc['ev']), np.array(acc['ev_dec'])):>29s}"
            print(f"{key:13s} {len(totals):6d} {counts.sum():9d} {acc['erring'] / max(counts.sum(), 1):7.1%} "
                  f"{ci:>29s} {side} {acc['unsolved']:8d} {secs:6.1f}s{informed}", flush=True)

if __name__ == "__main__":
    main()
