"""Whole matches through the Python round engine, against another tree of the code.

The round engine, the heuristic policy and the card classes are Python: their cost per
card (``Card()``, ``Layout.legal_moves``, ``Layout.trick_winner``, observations) is what a
``trickcore report``'s match sections and every PIMC run pay on top of the solver.  This
bench plays the same matches (Sheepshead 5 rounds, Spades to 150, Clover 8 rounds,
Goathead 3p 6 rounds; seeds 0-3; ``HeuristicPolicy`` everywhere, or with ``--policy
pimc`` a ``PIMCPolicy(samples=20, seed=1)`` in seat 0) with this tree and, interleaved
pass by pass in subprocesses (the VM's speed drifts), with ``--other`` (another
checkout's ``src``, e.g. the previous commit's), and prints the fastest pass of each,
their ratio, and whether both trees played the same cards (a digest of every match's
rounds).  Run from the repository root::

    git worktree add /tmp/prev HEAD~1
    PYTHONPATH=src python benches/bench_rounds.py --other /tmp/prev/src --passes 5
    PYTHONPATH=src python benches/bench_rounds.py --other /tmp/prev/src --passes 3 --policy pimc

(the other tree needs its compiled modules: copy ``src/trickcore/*.so`` into it when the
compiled core did not change, or build it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

MATCHES = (("sheepshead", 5, {"rounds": 5}), ("spades", 4, {"target": 150}),
           ("clover", 4, {"rounds": 8}), ("goathead3", 3, {"rounds": 6}))


def one_pass(policy: str = "heuristic") -> tuple[float, str]:
    """Seconds to play every match of :data:`MATCHES` once, seeds 0-3, and a digest of
    the matches' rounds (every trick's cards and every round's scores)."""
    import hashlib

    from trickcore.policies import HeuristicPolicy, PIMCPolicy
    from trickcore.rounds import play_match

    digest = hashlib.md5()
    t = time.perf_counter()
    for game, seats, rules in MATCHES:
        for seed in range(4):
            first = PIMCPolicy(samples=20, seed=1) if policy == "pimc" else HeuristicPolicy()
            rec = play_match(game, [first] + [HeuristicPolicy()] * (seats - 1), seed=seed, **rules)
            for r in rec.rounds:
                digest.update(repr(([[str(c) for _, c in tr.plays] for tr in r.tricks], r.scored)).encode())
    return time.perf_counter() - t, digest.hexdigest()


def timed_pass(src: str, policy: str) -> tuple[float, str]:
    """:func:`one_pass` in a fresh interpreter with ``src`` on the path (imports untimed)."""
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, __file__, "--one-pass", "--policy", policy], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[-2]), out[-1]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", help="another tree's src folder to compare with")
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--policy", choices=("heuristic", "pimc"), default="heuristic",
                    help="seat 0's policy (the others are heuristic)")
    ap.add_argument("--one-pass", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one_pass:
        one_pass(args.policy)           # warm-up: imports, layouts, caches
        print("%.4f %s" % one_pass(args.policy))
        return
    here = str(Path(__file__).resolve().parent.parent / "src")
    trees = {"this tree": here} | ({"other": args.other} if args.other else {})
    best = {name: float("inf") for name in trees}
    digests = {}
    for _ in range(args.passes):
        for name, src in trees.items():
            t, digests[name] = timed_pass(src, args.policy)
            best[name] = min(best[name], t)
    for name, t in best.items():
        print(f"{name:10s} fastest of {args.passes} passes: {t:.3f} s  (rounds digest {digests[name]})")
    if args.other:
        same = "the same cards" if digests["this tree"] == digests["other"] else "DIFFERENT cards"
        print(f"this tree / other: {best['this tree'] / best['other']:.3f}; both trees played {same}")


if __name__ == "__main__":
    main()
