"""Playout speed: trickcore's compiled playouts against OpenSpiel driven from Python.

Usage (from the repository root)::

    PYTHONPATH=src python benches/bench_playouts.py            # full run, a few minutes
    PYTHONPATH=src python benches/bench_playouts.py --quick    # seconds

What is measured
----------------
trickcore, per game (one contract each) and policy: rounds per second of
``trickcore.playouts.playout`` on ``--n`` deals dealt beforehand (input validation, side
rule and result arrays included), and for the random policy also dealing included
(``trickcore.deals.random_deals`` + ``playout``).  Best of ``--repeats`` runs, timed by
the process's CPU time (``--clock wall`` for elapsed time): on a shared machine CPU time
is the steadier measure, and both sides are timed the same way.

OpenSpiel (``pyspiel``): random Hearts, Spades and Oh Hell rounds played by a Python loop
``state.legal_actions()`` + ``state.apply_action(random.choice(...))`` from
``new_initial_state()`` to ``is_terminal()``.  That includes every phase OpenSpiel needs to
finish a round: its chance nodes (Hearts: pass direction and the deal; Spades: the deal; Oh
Hell: dealer, deal and trump card), the Hearts pass (3 cards per player, when the direction
is not "no pass"), the Spades and Oh Hell bids, and the card play.  The chance nodes of
these three games are uniform (checked at start), so a uniform choice samples them exactly.
Games: ``hearts`` (defaults), ``spades`` (defaults), ``oh_hell`` with 4 players and 10
tricks, as trickcore's ``ohhell`` default.  Best of ``--repeats`` runs of
``--openspiel-rounds`` rounds.

Two OpenSpiel drivers are timed, and the ratio is printed against each:

* ``lean``: ``random.choice`` everywhere (the chance nodes of these games are uniform, so
  this samples them exactly) -- the fastest Python loop we know;
* ``documented``: the loop of OpenSpiel's own API documentation and examples
  (``action_list, prob_list = zip(*state.chance_outcomes())`` and
  ``np.random.choice(action_list, p=prob_list)`` at chance nodes, ``random.choice`` of the
  legal actions otherwise) -- how OpenSpiel is usually driven from Python.

The ratio compares trickcore's random-policy playouts (from dealt hands, and with the deal)
with OpenSpiel's rate.  trickcore plays from the hands at the start of play: it has no
bidding or passing phase to run (those decisions belong to the round engine).
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from trickcore.deals import random_deals
from trickcore.games import get_game
from trickcore.playouts import playout

CONTRACTS = [
    ("goathead3", "clubs"), ("goathead4", "clubs"), ("clover", "hearts"), ("gamut", "hearts"),
    ("sheepshead", "jd"), ("hearts", "hearts"), ("spades", "spades"), ("ohhell", "spades"),
]
OPENSPIEL = [("hearts", "hearts", {}), ("spades", "spades", {}),
             ("ohhell", "oh_hell", {"players": 4, "num_tricks_fixed": 10})]


CLOCK = time.process_time


def best_rate(fn, n, repeats):
    best = 0.0
    for _ in range(repeats):
        t = CLOCK()
        fn()
        best = max(best, n / (CLOCK() - t))
    return best


def bench_trickcore(n, repeats, seed=1):
    rates = {}
    for game, contract in CONTRACTS:
        layout = get_game(game).layout(contract)
        hands = random_deals(layout, n, seed=seed)
        playout(layout, None, hands[:100], seed=seed)  # warm up (layout tables, imports)
        for policy in ("random", "greedy"):
            rates[game, policy] = best_rate(lambda: playout(layout, None, hands, policy=policy, seed=seed), n, repeats)
        rates[game, "deal+random"] = best_rate(
            lambda: playout(layout, None, random_deals(layout, n, seed=seed), seed=seed), n, repeats)
        print(f"{game + '/' + contract:22s} random {rates[game, 'random']:>11,.0f}   "
              f"greedy {rates[game, 'greedy']:>11,.0f}   deal+random {rates[game, 'deal+random']:>11,.0f}  rounds/s",
              flush=True)
    return rates


def openspiel_round(game, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def openspiel_round_documented(game, rng):
    """The sampling loop of OpenSpiel's API documentation (numpy choice at chance nodes)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            action_list, prob_list = zip(*state.chance_outcomes())
            state.apply_action(int(np.random.choice(action_list, p=prob_list)))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def check_uniform_chance(game, rounds=3):
    rng = random.Random(0)
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                probs = [p for _, p in state.chance_outcomes()]
                assert max(probs) - min(probs) < 1e-12, "non-uniform chance node"
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def bench_openspiel(rounds, repeats):
    import pyspiel

    rates = {}
    for ours, name, params in OPENSPIEL:
        game = pyspiel.load_game(name, params)
        check_uniform_chance(game)
        for driver, round_fn in (("lean", openspiel_round), ("documented", openspiel_round_documented)):
            rng = random.Random(0)
            np.random.seed(0)

            def run():
                for _ in range(rounds):
                    round_fn(game, rng)

            rates[ours, driver] = best_rate(run, rounds, repeats)
            print(f"OpenSpiel {name:8s} {driver:10s} {rates[ours, driver]:>9,.0f} rounds/s", flush=True)
    return rates


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a few seconds)")
    ap.add_argument("--n", type=int, default=None, help="deals per trickcore timing (default 200,000; quick 20,000)")
    ap.add_argument("--repeats", type=int, default=None, help="timings per figure, best kept (default 5; quick 3)")
    ap.add_argument("--openspiel-rounds", type=int, default=None, help="OpenSpiel rounds per timing (default 400; quick 100)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu: process CPU time (default; steadier on a shared machine), wall: elapsed time")
    ap.add_argument("--no-openspiel", action="store_true")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    n = args.n or (20_000 if args.quick else 200_000)
    repeats = args.repeats or (3 if args.quick else 5)
    os_rounds = args.openspiel_rounds or (100 if args.quick else 400)
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}; "
          f"n={n:,}, best of {repeats}, {args.clock} clock")
    ours = bench_trickcore(n, repeats)
    if args.no_openspiel:
        return
    theirs = bench_openspiel(os_rounds, repeats)
    print("\nrandom rounds/s: trickcore (dealt hands | with deal) vs OpenSpiel Python loops")
    for (game, driver), rate in theirs.items():
        a, b = ours[game, "random"], ours[game, "deal+random"]
        print(f"{game:8s} trickcore {a:>11,.0f} | {b:>11,.0f}   OpenSpiel {driver:10s} {rate:>8,.0f}   "
              f"ratio {a / rate:>6,.0f}x | {b / rate:>6,.0f}x")


if __name__ == "__main__":
    main()
