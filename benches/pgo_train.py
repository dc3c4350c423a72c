"""Training workload of the profile-guided build measured in benches/RESULTS.md (not adopted).

``python benches/pgo_train.py DIR`` imports trickcore from ``DIR`` (a copy of
``src/trickcore`` holding ``_solve`` and ``_solve_tricks`` built with
``-fprofile-generate``) and solves seeded random deals of every point game (exact values
with the line of play, and to a few cuts without it, as the payout simulations do) and of
the trick games, Spades as bridge among them, through ``trickcore.solver.solve_many``.
Deterministic, needs only numpy (``import trickcore`` pulls in no pandas), about 1 s on
the plain build and 2-3 s instrumented.  Its seeds differ from the benches' (2026), so
the benches do not measure the training deals.

The steps, from the repository root (the flags must go in through ``extra_compile_args``:
a ``CFLAGS`` variable replaces Python's ``-g -fwrapv -O3 -Wall`` instead of adding to them):

1. build both modules with ``-fprofile-generate=PROF -fprofile-update=single`` (also at
   link time) into a scratch ``--build-lib``, ``--build-temp TMP``;
2. copy ``src/trickcore`` to ``DIR/trickcore``, put those two ``.so`` files in, and run this
   script on ``DIR``;
3. rebuild with ``-fprofile-use=PROF -fprofile-partial-training -Wno-missing-profile`` and
   the same ``--build-temp TMP`` (gcc finds the profile by the object file's path, and
   refuses it with -Werror=coverage-mismatch if the generated C changed in between).
"""

import os
import sys
import time


# (game, contract, deals) and (game, contract, deals, declarer, rules); point games
# weighted roughly by how long a deal takes, so that each gets a fair share of the profile.
POINT_CASES = [
    ("goathead3", "hearts", 1000), ("goathead3", "clubs", 600), ("goathead3", "nil", 300),
    ("goathead3", "court", 300), ("goathead3", "leasters", 200),
    ("goathead4", "clubs", 600), ("goathead4", "spades", 300),
    ("sheepshead", "jd", 100), ("sheepshead", "called_ace_clubs", 60), ("sheepshead", "leaster", 20),
    ("clover", "hearts", 20), ("clover", "notrump", 10),
    ("gamut", "hearts", 10),
]
TRICK_CASES = [
    ("spades", "spades", 10, 1, {"spade_leading": "always"}),  # bridge, spades trump
    ("ohhell", "notrump", 20, 0, {}),
    ("ohhell", "hearts", 20, 0, {}),
    ("gamut", "spades", 60, 0, {}),
]


def main(path):
    # trickcore from DIR, before anything imports it (the solver bench's deals too)
    sys.path.insert(0, path)
    sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))
    from bench_solver_speed import random_deals
    from trickcore import get_game
    from trickcore.solver import solve_many

    t0 = time.perf_counter()
    for seed, (game, contract, n) in enumerate(POINT_CASES):
        layout = get_game(game).layout(contract)
        deals = random_deals(layout, n, 1000 + seed)
        leader = seed % layout.n_seats
        solve_many(layout, None, deals, leader=leader, declarer=leader, tt_mb=16)
        if layout.objective == "points" and game != "clover" and game != "gamut":
            total = int(layout.total_points)
            cuts = [total // 3, total // 2 + 1, 2 * total // 3]
            solve_many(layout, None, deals, leader=leader, declarer=leader, tt_mb=16, cuts=cuts, line=False)
    for seed, (game, contract, n, declarer, rules) in enumerate(TRICK_CASES):
        layout = get_game(game).layout(contract, **rules)
        deals = random_deals(layout, n, 2000 + seed)
        solve_many(layout, None, deals, leader=0, declarer=declarer, tt_mb=16)
    print(f"pgo training: {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
