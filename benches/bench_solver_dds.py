"""Our solver against DDS on the same random bridge deals (spades trump, West leads).

Spades with ``spade_leading='always'`` is bridge double dummy with spades trump.  Both
solvers answer the same question on the same deals, one thread each:

* ours: ``trickcore.solve_many('spades', 'spades', deals, leader=0, declarer=1,
  spade_leading='always')`` — North–South tricks with West on lead (one compiled call,
  GIL released, single thread);
* DDS: ``SolveBoard`` through ``endplay`` with ``first = West``, trump spades, mode
  ``OptimalOne`` (target -1, one solution: the best card and its trick count),
  ``SetMaxThreads(1)``; North–South tricks = 13 − East–West's.

Ours does a little more than DDS here: besides the value it follows a whole optimal line
(``line=True``, the default: ``side_tricks`` and ``last_trick_winner``), where DDS stops
at one optimal card; on the 200 deals of seed 2026 the line took 0.7% of our nodes
(336,530 of 46,215,918).  ``line=False`` would do less than DDS (no card at all), so the
bench keeps the default.

``--every-card`` asks both for every legal card's value instead, the question endplay's
``solve_board(deal)`` answers when no mode is given (``SolveMode.Default``: DDS's
``solutions = 3``) and whose time matches the "about 43 ms" of issue #3 (see
``bench_solver_speed.py``): ours is ``trickcore.solve`` per deal (the value, West's every
card's value and a line), DDS ``SolveBoard`` in that mode, and every card's value must
agree, not only the best.

Timing (session 28): a few deals through each solver first, untimed, then ``--passes``
(default 3) passes over all the deals for each, in alternating order, and the fastest pass
of each compared (the ratio of all passes' sums is printed too).  Until then one cold
pass of ours ran before one of DDS: on a day when the VM's speed drifted, three
interleaved passes read ours 18.80, 19.57 and 19.41 ms/deal against DDS's 18.09, 18.42
and 18.06, so a single pair can move the ratio by several percent.  ``--every-card`` times
the same way since session 29 (it ran one pass each before).

Seat mapping: our seat 0 = West, 1 = North, 2 = East, 3 = South (see
``tests/test_solver_dds.py``).  The script prints ms/deal for both, the ratio and whether
the trick counts agree on every deal (exit status 1 if not).

Usage::

    PYTHONPATH=src python benches/bench_solver_dds.py            # 500 deals, 3 passes each
    PYTHONPATH=src python benches/bench_solver_dds.py --quick    # 50 deals
    PYTHONPATH=src python benches/bench_solver_dds.py --deals 20 --clock wall
    PYTHONPATH=src python benches/bench_solver_dds.py --deals 10 --kernel general   # _solve
    PYTHONPATH=src python benches/bench_solver_dds.py --every-card --deals 100      # every card's value
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np


def random_deals(n: int, seed: int) -> np.ndarray:
    from trickcore import DECK52

    rng = random.Random(seed)
    deck = [int(c) for c in DECK52]
    out = np.zeros((n, 4), dtype=np.uint64)
    for i in range(n):
        rng.shuffle(deck)
        for s in range(4):
            out[i, s] = sum(1 << c for c in deck[13 * s:13 * s + 13])
    return out


def to_endplay(deals: np.ndarray) -> list:
    """``deals`` (seat 0 = West, clockwise) as endplay ``Deal`` objects with West on lead
    and spades trump; sets DDS to one thread."""
    from endplay import _dds
    from endplay.types import Deal, Denom, Player
    from trickcore import CardSet

    _dds.SetMaxThreads(1)
    out = []
    for hands in deals:
        d = Deal.from_pbn("W:" + " ".join(CardSet(int(h)).pbn() for h in hands))
        d.first = Player.west
        d.trump = Denom.spades
        out.append(d)
    return out


def dds_tricks(endplay_deals: list, every_card: bool = False) -> list[int]:
    """East–West's double-dummy tricks on each deal: DDS ``SolveBoard``, mode ``OptimalOne``
    (one best card and its tricks: DDS's ``solutions = 1``), or with ``every_card`` endplay's
    default mode (``SolveMode.Default``, ``solutions = 3``: every legal card with its tricks,
    as ``Result.card_values`` gives; what ``solve_board(deal)`` does when no mode is given)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    mode = SolveMode.Default if every_card else SolveMode.OptimalOne
    return [max(t for _c, t in solve_board(d, mode)) for d in endplay_deals]


def dds_card_tricks(endplay_deals: list) -> list[dict[str, int]]:
    """East–West's tricks after each of West's legal cards, per deal (DDS ``SolveBoard``,
    endplay's default mode), keyed by the card as ``trickcore`` writes it (``"10♠"``)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Denom
    from trickcore import Card

    suits = {Denom.spades: "S", Denom.hearts: "H", Denom.diamonds: "D", Denom.clubs: "C"}
    # endplay's card: a Denom and a Rank named RA .. R2 (RT the ten), as tests/test_solver_dds.py reads it
    return [{str(Card.parse(c.rank.name[1:] + suits[c.suit])): t for c, t in solve_board(d, SolveMode.Default)}
            for d in endplay_deals]


def solve_every_card(deals: np.ndarray) -> list:
    """``trickcore.solve`` per deal: the value, West's every card's value and a line."""
    import trickcore
    from trickcore import CardSet

    return [trickcore.solve("spades", "spades", [CardSet(int(h)) for h in d], leader=0, declarer=1,
                            spade_leading="always") for d in deals]


def cards_agreeing(ours: list, dds: list[dict[str, int]]) -> tuple[int, int]:
    """``(cards that agree, cards)``: our ``card_values`` against DDS's East–West tricks."""
    agree = cards = 0
    for res, theirs in zip(ours, dds):
        mine = {str(c): v for c, v in res.card_values.items()}
        for card, ew in theirs.items():
            cards += 1
            agree += mine.get(card) == 13 - ew
    return agree, cards


def interleaved(run_ours, run_dds, passes: int, clock):
    """``(our pass times, DDS's pass times, our last result, DDS's last result)``: a few
    deals through each first, untimed (our layout, kernel import, card classes and table
    are made at the first call, DDS sets up its memory at its first board), then
    ``passes`` passes of each over all the deals, in alternating order so that a drift of
    the machine's speed hits both alike.  ``run_ours(k)`` / ``run_dds(k)`` solve the first
    ``k`` deals (``None``: all)."""
    run_ours(5)
    run_dds(5)
    t_ours, t_dds, ours, dds = [], [], None, None
    for k in range(passes):
        for who in (("ours", "dds") if k % 2 == 0 else ("dds", "ours")):
            t0 = clock()
            if who == "ours":
                ours = run_ours(None)
                t_ours.append(clock() - t0)
            else:
                dds = run_dds(None)
                t_dds.append(clock() - t0)
    return t_ours, t_dds, ours, dds


def print_times(t_ours: list[float], t_dds: list[float], n: int, ours_note: str, dds_note: str) -> None:
    print(f"ours: {1000 * min(t_ours) / n:9.2f} ms/deal   (fastest pass; {ours_note})")
    print(f"DDS : {1000 * min(t_dds) / n:9.2f} ms/deal   (fastest pass; {dds_note})")
    if len(t_ours) > 1:
        print("passes, ms/deal: ours " + ", ".join(f"{1000 * t / n:.2f}" for t in t_ours)
              + "; DDS " + ", ".join(f"{1000 * t / n:.2f}" for t in t_dds))
        print(f"ratio ours/DDS: {min(t_ours) / min(t_dds):.2f} (fastest passes), "
              f"{sum(t_ours) / sum(t_dds):.2f} (all passes)")
    else:
        print(f"ratio ours/DDS: {t_ours[0] / t_dds[0]:.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--quick", action="store_true", help="50 deals")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="process CPU time (default; robust on a shared machine) or elapsed time")
    ap.add_argument("--kernel", choices=("auto", "general", "tricks"), default=None,
                    help="solver kernel (trickcore.solver.KERNEL): 'general' forces _solve, "
                         "'tricks'/'auto' use _solve_tricks for trick layouts (default: the module's)")
    ap.add_argument("--passes", type=int, default=3,
                    help="timed passes over the deals for each solver, in alternating order (default 3); "
                         "the fastest of each is compared, as bench_solver_speed.py's yardstick does")
    ap.add_argument("--every-card", action="store_true",
                    help="every legal card's value on both sides (trickcore.solve against endplay's default "
                         "SolveBoard mode) instead of the best")
    args = ap.parse_args(argv)
    n = 50 if args.quick else args.deals
    if args.passes < 1:
        ap.error(f"--passes must be at least 1, got {args.passes}")
    if args.kernel:
        import trickcore.solver

        trickcore.solver.KERNEL = args.kernel

    import trickcore

    deals = random_deals(n, args.seed)
    endplay_deals = to_endplay(deals)

    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    head = (f"deals: {n} (seed {args.seed}), spades trump, West leads, one thread each, {args.clock} time, "
            f"{args.passes} interleaved pass{'es' if args.passes > 1 else ''} each")
    if args.every_card:
        t_ours, t_dds, ours, dds = interleaved(lambda k: solve_every_card(deals[:k]),
                                               lambda k: dds_card_tricks(endplay_deals[:k]), args.passes, clock)
        agree, cards = cards_agreeing(ours, dds)
        print(head + ", every legal card's value")
        print_times(t_ours, t_dds, n, "trickcore.solve: value, card_values, line",
                    "endplay SolveBoard, default mode: every card")
        print(f"card values agree: {agree}/{cards}")
        return 0 if agree == cards else 1

    def solve_ours(k):
        return trickcore.solve_many("spades", "spades", deals[:k], leader=0, declarer=1, spade_leading="always")

    t_ours, t_dds, ours, dds_ew = interleaved(solve_ours, lambda k: dds_tricks(endplay_deals[:k]),
                                              args.passes, clock)
    dds_ns = np.array([13 - t for t in dds_ew])
    agree = int((ours.value.astype(int) == dds_ns).sum())
    print(head)
    print_times(t_ours, t_dds, n, f"nodes/deal: mean {ours.nodes.mean():.0f}, max {ours.nodes.max()}",
                "endplay SolveBoard, OptimalOne")
    print(f"trick counts agree: {agree}/{n}")
    for i in np.flatnonzero(ours.value.astype(int) != dds_ns)[:10]:
        print(f"  DISAGREE deal {i}: {endplay_deals[i].to_pbn()}  DDS N-S {dds_ns[i]}, ours {ours.value[i]}")
    return 0 if agree == n else 1


if __name__ == "__main__":
    sys.exit(main())
