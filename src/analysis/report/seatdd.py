"""Double-dummy figures of the games without a declaring side (Hearts, Oh Hell), for seat 0.

``RULINGS.md`` settles a seat's double-dummy value there as its *paranoid* value: the seat
alone against all the others (:mod:`analysis.paranoid`).  A full 13-card Hearts deal is out
of reach (one paranoid solve had not finished in 17 minutes, :mod:`analysis.bids`), so:

* Hearts (:func:`hearts_endgame`): every seat plays the first ``13 − k`` tricks with the
  greedy play-out policy; the last ``k`` tricks are solved exactly for seat 0 against the
  other three, from the real position (cards played so far, so whether hearts are broken,
  and who leads).  Seat 0's *endgame value* is the fewest penalty points it can hold itself
  to in those ``k`` tricks when the others try to load points on it; added to the points it
  took in the opening, it is compared with the points it takes when the greedy play-out goes
  on to the end — on the same deals and the same opening.
* Oh Hell (:func:`ohhell_short`): deals of a short hand size (a rule option the game itself
  uses in its 10-1-10 sequence), where a paranoid solve takes milliseconds.  Seat 0 bids
  what the heuristic policy bids; double dummy, the bid is *makeable* when it lies between
  the fewest and the most tricks seat 0 can force against the other three
  (:func:`analysis.bids.bid_frame`, an optimistic bound); in the greedy play-out (every seat
  bids by the heuristic) the bid is made when seat 0 takes exactly that many tricks.

Examples
--------
>>> from trickcore.deals import random_deals
>>> f = hearts_endgame(random_deals("hearts", 2, seed=3), tricks=2)
>>> list(f.columns)
['deal', 'opening_points', 'greedy_points', 'endgame_dd', 'dd_points', 'hearts_broken']
>>> bool((f.dd_points == f.opening_points + f.endgame_dd).all())
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from trickcore.cards import CardSet
from trickcore.games import get_game

__all__ = ["hearts_endgame", "ohhell_short", "run_parallel"]


def _layout_rules(g, rules: Mapping[str, Any] | None) -> dict[str, Any]:
    return {k: v for k, v in dict(rules or {}).items() if k in g.layout_options}


def hearts_endgame(deals: np.ndarray, *, tricks: int, rules: Mapping[str, Any] | None = None, seat: int = 0,
                   leader: int = 0, deal_index: np.ndarray | None = None) -> pd.DataFrame:
    """Seat ``seat``'s paranoid value of the last ``tricks`` tricks of each Hearts deal after a
    greedy opening (module docstring); one row per deal.

    Columns: ``opening_points`` (penalty points seat took in the greedy opening),
    ``greedy_points`` (its points when the greedy play-out goes on to the end),
    ``endgame_dd`` (the fewest points it can hold itself to in the last ``tricks`` tricks
    against the other three, all cards seen), ``dd_points`` (the sum of the two),
    ``hearts_broken`` (a heart was played in the opening).
    """
    from trickcore.playouts import playout
    from trickcore.solver import solve

    g = get_game("hearts")
    lay_rules = _layout_rules(g, rules)
    lay = g.layout("hearts", **lay_rules)
    hs = lay.hand_size
    if not 1 <= int(tricks) <= hs:
        raise ValueError(f"tricks must be 1..{hs}; got {tricks!r}")
    deals = np.asarray(deals, dtype=np.uint64)
    n_seats = g.n_seats
    hands = np.ascontiguousarray(deals[:, :n_seats])
    r = playout("hearts", "hearts", hands, policy="greedy", leader=leader, declarer=seat, seed=0, **lay_rules)
    cards = np.asarray(r.cards, dtype=np.int64)          # (n, tricks, seats)
    winners = np.asarray(r.winners, dtype=np.int64)      # (n, tricks)
    leaders = np.asarray(r.leaders, dtype=np.int64)
    table = lay.point_table().astype(np.int64)
    trick_pts = np.where(cards >= 0, table[np.clip(cards, 0, 63)], 0).sum(axis=2)  # (n, tricks)
    first = hs - int(tricks)
    opening = np.where(winners[:, :first] == seat, trick_pts[:, :first], 0).sum(axis=1)
    greedy = np.asarray(r.points, dtype=np.int64)[:, seat]
    end = np.zeros(len(deals), dtype=np.int64)
    broken = np.zeros(len(deals), dtype=bool)
    for i in range(len(deals)):
        played = 0
        for c in cards[i, :first].ravel():
            played |= 1 << int(c)
        rest = [int(h) & ~played for h in hands[i]]
        broken[i] = bool(played & (0xFFFF << 32))
        res = solve("hearts", "hearts", rest, leader=int(leaders[i, first]), declarer=seat, sides=1 << seat,
                    goal="min", played=CardSet(played), card_values=False, **lay_rules)
        end[i] = res.value
    return pd.DataFrame({
        "deal": np.arange(len(deals)) if deal_index is None else np.asarray(deal_index, dtype=np.int64),
        "opening_points": opening, "greedy_points": greedy, "endgame_dd": end, "dd_points": opening + end,
        "hearts_broken": broken,
    })


def ohhell_short(contract: str, deals: np.ndarray, *, rules: Mapping[str, Any], seat: int = 0,
                 deal_index: np.ndarray | None = None) -> pd.DataFrame:
    """Seat ``seat``'s heuristic bid on short Oh Hell deals, double dummy and played out.

    ``rules`` must carry the ``hand_size`` of ``deals``.  One row per deal: ``bid`` (the
    heuristic policy's), ``min_tricks`` / ``max_tricks`` (paranoid bounds),
    ``dd_made`` (the bid lies between them), ``dd_payout`` (the scorer's payout of that row
    in :func:`analysis.bids.bid_frame`), ``greedy_tricks``, ``greedy_made`` (exact) and
    ``greedy_payout`` from the play-out where every seat bids by the heuristic.

    >>> from trickcore.deals import random_deals
    >>> f = ohhell_short("notrump", random_deals("ohhell", 3, seed=2, hand_size=3), rules={"hand_size": 3})
    >>> bool(((f.min_tricks <= f.bid) & (f.bid <= f.max_tricks) == f.dd_made).all())
    True
    """
    from ..paranoid import seat_frame
    from .evaluation import evaluate_contract

    deals = np.asarray(deals, dtype=np.uint64)
    idx = np.arange(len(deals)) if deal_index is None else np.asarray(deal_index, dtype=np.int64)
    play = evaluate_contract("ohhell", contract, deals, rules=rules, policy="greedy", deal_index=idx)
    bids = play[f"bid_{seat}"].to_numpy(dtype=np.int64)
    dd = seat_frame("ohhell", contract, deals, seat=seat, rules=rules, deal_index=idx)
    dd = dd.set_index(["deal", "bid"]).loc[list(zip(idx, bids))]
    return pd.DataFrame({
        "deal": idx, "contract": contract, "bid": bids,
        "min_tricks": dd["min_tricks"].to_numpy(dtype=np.int64), "max_tricks": dd["max_tricks"].to_numpy(dtype=np.int64),
        "dd_made": dd["made"].to_numpy(dtype=bool), "dd_payout": dd[f"payout_{seat}"].to_numpy(dtype=float),
        "greedy_tricks": play[f"tricks_{seat}"].to_numpy(dtype=np.int64),
        "greedy_made": (play[f"tricks_{seat}"] == play[f"bid_{seat}"]).to_numpy(dtype=bool),
        "greedy_payout": play[f"payout_{seat}"].to_numpy(dtype=float),
    })


def _chunk(fn, deals: np.ndarray, chunk_size: int, index: int, seed_seq: Any, size: int) -> pd.DataFrame:
    lo = index * chunk_size
    return fn(deals[lo:lo + size], deal_index=np.arange(lo, lo + size, dtype=np.int64))


def run_parallel(fn, deals: np.ndarray, n_jobs: int = -1) -> pd.DataFrame:
    """``fn(deals, deal_index=...)`` over chunks of ``deals`` in parallel (a picklable ``fn``:
    a module-level function or a ``functools.partial`` of one), rows in deal order."""
    from ..engine import default_n_jobs, run_chunks

    n = len(deals)
    if n == 0:
        return pd.DataFrame()
    cs = max(1, -(-n // max(1, 4 * default_n_jobs(n_jobs))))
    task = functools.partial(_chunk, fn, np.ascontiguousarray(deals, dtype=np.uint64), cs)
    return run_chunks(task, n, seed=0, chunk_size=cs, n_jobs=n_jobs, progress=False)
