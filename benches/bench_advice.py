"""How long ``analysis.card_odds`` (``trickcore advise``) takes, per game and stage of the hand.

Positions come from heuristic rounds (seeds 0, 1, ...): the first card decision with a
choice at or after the given trick, asked by the seat to play, with the declarer (where
there is one) and the play so far as the round had them.  Each row: the layouts judged
(every one when at most 2,000, else 200 drawn), whether that was every layout, the legal
cards, and the time of one call (the fastest of ``--repeats``), per call and per layout.
No outside tool answers this question for these games (openschafkopf's ``suggest-card``
covers Schafkopf only and is not a Python package), so the figures are absolute.  Run
from the repository root after building::

    PYTHONPATH=src python benches/bench_advice.py
    PYTHONPATH=src python benches/bench_advice.py --games sheepshead --tricks 2 4 --positions 5
"""

from __future__ import annotations

import argparse
import time

from analysis import card_odds
from trickcore.policies import HeuristicPolicy
from trickcore.rounds import play_round

GAMES = ("goathead3", "goathead4", "sheepshead", "clover", "gamut", "spades", "hearts", "ohhell")


def positions(game: str, trick: int, count: int):
    """``count`` positions of ``game`` at or after ``trick`` (1 = the first): the keyword
    arguments of :func:`card_odds` for the seat to play."""
    found, seed = 0, 0
    while found < count and seed < 50 * count:
        rec = play_round(game, [HeuristicPolicy() for _ in range(get_seats(game))], seed=seed)
        seed += 1
        if not rec.tricks or len(rec.tricks) < trick or rec.contract in ("leaster", "leasters"):
            continue
        n = len(rec.tricks[0].plays)
        if n != get_seats(game):
            continue                     # (Gamut with folded seats)
        plays = [(s, c) for t in rec.tricks for s, c in t.plays]
        for k in range((trick - 1) * n, len(plays)):
            seat = plays[k][0]
            hand = [c for s, c in plays if s == seat]
            kw = dict(game=game, contract=rec.contract, hand=" ".join(map(str, hand)), seat=seat,
                      play=" ".join(str(c) for _, c in plays[:k]), leader=rec.tricks[0].leader,
                      rules=dict(rec.rules))
            if rec.declarer is not None and rec.declarer >= 0 and game not in ("spades", "ohhell", "hearts", "gamut"):
                kw["declarer"] = rec.declarer
            if game in ("spades", "ohhell"):
                kw["bid"] = next(b for s, p, b in rec.bids if s == seat and p == "bid")
            try:
                f = card_odds(**{**kw, "samples": 1, "exact_limit": 1})
            except ValueError:
                continue
            if len(f) > 1:
                found += 1
                yield kw
                break


def get_seats(game: str) -> int:
    from trickcore import get_game

    return get_game(game).n_seats


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    ap.add_argument("--tricks", nargs="+", type=int, default=[2, 4], help="the tricks to ask at (1 = the first)")
    ap.add_argument("--positions", type=int, default=3, help="positions per game and trick")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--time-budget", type=float, default=60.0, help="seconds a call (whole Hearts hands are slow)")
    args = ap.parse_args(argv)
    print(f"{'game':10s} {'contract':10s} {'trick':>5s} {'cards':>5s} {'layouts':>8s} {'exact':>5s} "
          f"{'s/call':>8s} {'ms/layout':>9s}")
    for game in args.games:
        for trick in args.tricks:
            for kw in positions(game, trick, args.positions):
                best, f = float("inf"), None
                for _ in range(args.repeats):
                    t0 = time.perf_counter()
                    f = card_odds(**kw, time_budget=args.time_budget)
                    best = min(best, time.perf_counter() - t0)
                a = f.attrs
                flag = "yes" if a["exact"] else "no"
                if a["stopped"]:
                    flag = "stop"
                print(f"{game:10s} {kw['contract']:10s} {trick:5d} {len(f):5d} {a['layouts']:8d} {flag:>5s} "
                      f"{best:8.3f} {best / a['layouts'] * 1e3:9.2f}", flush=True)


if __name__ == "__main__":
    main()
