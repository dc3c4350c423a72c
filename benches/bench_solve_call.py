"""``trickcore.solve`` one position at a time, against another tree of the code.

``solve`` checks its input, translates the cards to the layout's bits, runs the kernel
(every legal card's value and a line) and turns the answer back into cards.  On small
positions the Python around the kernel is most of a call, so this bench times whole
calls on positions of two tricks and on whole deals (Goathead 3p hearts, Sheepshead jd,
Spades; the layout and ``CardSet`` hands passed, 50 positions a row, seed 7) with this
tree and, interleaved pass by pass in subprocesses (the VM's speed drifts), with
``--other`` (another checkout's ``src``, e.g. the previous commit's), and prints each
row's fastest time per call, the ratio, and whether both trees gave the same values,
card values and lines.  Run from the repository root::

    git worktree add /tmp/prev HEAD~1
    PYTHONPATH=src python benches/bench_solve_call.py --other /tmp/prev/src

(the other tree needs its compiled modules: copy ``src/trickcore/*.so`` into it when the
compiled core did not change, or build it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import timeit
from pathlib import Path

# (label, game, contract, tricks left: 0 for a whole deal)
ROWS = (("Goathead 3p, 2 tricks", "goathead3", "hearts", 2), ("Goathead 3p, whole deals", "goathead3", "hearts", 0),
        ("Sheepshead jd, 2 tricks", "sheepshead", "jd", 2), ("Spades, 2 tricks", "spades", "spades", 2))
POSITIONS = 50


def one_pass() -> dict[str, tuple[float, str]]:
    """Per row: the fastest of five timings of a call per position, in seconds a call,
    and a digest of every call's value, card values and line."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_solver_speed import random_deals

    from trickcore import CardSet, get_game
    from trickcore.solver import solve

    out = {}
    for label, game, contract, tricks in ROWS:
        layout = get_game(game).layout(contract)
        deals = random_deals(layout, POSITIONS, 7, tricks=tricks)
        hands = [[CardSet(int(h)) for h in row] for row in deals]

        def calls():
            return [solve(layout, None, h) for h in hands]

        digest = hashlib.md5(repr([(r.value, sorted(r.card_values.items()), r.line) for r in calls()]).encode())
        best = min(timeit.repeat(calls, number=5, repeat=5)) / (5 * POSITIONS)
        out[label] = (best, digest.hexdigest())
    return out


def timed_pass(src: str) -> dict[str, tuple[float, str]]:
    """:func:`one_pass` in a fresh interpreter with ``src`` on the path."""
    env = dict(os.environ, PYTHONPATH=src)
    run = subprocess.run([sys.executable, __file__, "--one-pass"], env=env, check=True, capture_output=True, text=True)
    return json.loads(run.stdout.splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", help="another tree's src folder to compare with")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--one-pass", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one_pass:
        print(json.dumps(one_pass()))
        return
    here = str(Path(__file__).resolve().parent.parent / "src")
    trees = {"this tree": here} | ({"other": args.other} if args.other else {})
    best: dict[str, dict[str, float]] = {name: {} for name in trees}
    digests: dict[str, dict[str, str]] = {name: {} for name in trees}
    for _ in range(args.passes):
        for name, src in trees.items():
            for label, (t, digest) in timed_pass(src).items():
                best[name][label] = min(best[name].get(label, float("inf")), t)
                digests[name][label] = digest
    for label, *_ in ROWS:
        line = f"{label:28s} this tree {best['this tree'][label] * 1e6:7.1f} us a call"
        if args.other:
            same = "same results" if digests["this tree"][label] == digests["other"][label] else "DIFFERENT results"
            line += (f"   other {best['other'][label] * 1e6:7.1f} us   ratio "
                     f"{best['this tree'][label] / best['other'][label]:.3f}   {same}")
        print(line)


if __name__ == "__main__":
    main()
