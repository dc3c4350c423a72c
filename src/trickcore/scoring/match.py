"""Match totals: running scores, the end of a match and its winners.

:func:`match_totals` takes the per-round scores that :func:`trickcore.scoring.score`
returns (rows in play order; an optional ``match`` column separates independent matches)
and adds them up.  How a match ends and who wins, per game:

===============  ============================================  ===========================
game             end                                           winners
===============  ============================================  ===========================
goathead3/4      after ``rounds`` rounds (default 15)          highest total
clover           after ``rounds`` rounds (8 or 12)             highest total (a team)
gamut            a total reaches ``target`` (40)               highest total
sheepshead       after ``rounds`` rounds (default 10)          highest total; a tie goes to
                                                               the most hands won (payout
                                                               > 0); still tied: all
hearts           a total reaches ``target`` (100)              lowest total
spades           a team reaches ``target`` (500) and is alone  that team
                 at the top once single bag points are
                 ignored (528–526 is a tie: play on, as the
                 app)
ohhell           ``sequence='10-1-10'``: after 2h − 1 rounds    highest total
                 (h … 1 … h, h = ``hand_size``, 19 by
                 default); ``'always_13'``: a total reaches
                 ``target`` (100)
===============  ============================================  ===========================

Spades bags carry over: the rounds need ``bags_0`` / ``bags_1`` (from ``score``); every
time a team's running bag total passes a multiple of ten it loses 110 (unless the rounds
already carry ``bag_penalty_*``, i.e. were scored with ``bags_before_*``).

Tied winners are all listed: ``winners`` is a bit mask of seats (both partners in team
games); it is 0 on rows where the match is not over.  Rows after the end of a match raise
``ValueError``.

Examples
--------
>>> import pandas as pd
>>> from trickcore.scoring import match_totals
>>> rounds = pd.DataFrame({"payout_0": [30, 40, 20], "payout_1": [20, 30, 60],
...                        "payout_2": [26, 0, 0], "payout_3": [2, 8, 30]})
>>> m = match_totals("hearts", rounds)
>>> m[["total_0", "total_1", "total_2", "total_3", "over", "winners"]]
   total_0  total_1  total_2  total_3   over  winners
0     30.0     20.0     26.0      2.0  False        0
1     70.0     50.0     26.0     10.0  False        0
2     90.0    110.0     26.0     40.0   True        4
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from . import _frame as F
from .spades import bag_penalties

__all__ = ["match_totals"]


def ohhell_sequence_rounds(hand_size: int) -> int:
    """Rounds of the ``'10-1-10'`` sequence started at ``hand_size``: h … 1 … h.

    >>> ohhell_sequence_rounds(10)
    19
    """
    return 2 * hand_size - 1


def _group_cumsum(values: np.ndarray, key: np.ndarray) -> np.ndarray:
    return pd.DataFrame(values).groupby(key, sort=False).cumsum().to_numpy()


def match_totals(game: Any, round_scores: pd.DataFrame, rules: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Running totals, end of match and winners for rounds in play order.

    Parameters
    ----------
    game : str
        A game id.
    round_scores : pandas.DataFrame
        ``payout_{s}`` per seat (the output of :func:`trickcore.scoring.score`, other
        columns allowed), one row per round in play order; optional ``match`` column
        (independent matches, each in play order); Spades also ``bags_0``, ``bags_1``.
    rules : mapping, optional
        The game's rule options (``rounds``, ``target``, ``sequence`` …).

    Returns
    -------
    pandas.DataFrame
        On the input's index: ``total_{s}`` (after this round), ``round`` (1-based within
        its match), ``over`` (the match ends with this round), ``winners`` (bit mask of
        winning seats on the final row, else 0); Spades adds ``bag_total_{t}`` and
        ``bag_penalty_{t}`` (team ``t``; included in the totals).

    Examples
    --------
    Spades: 9 bags then one more costs 110.

    >>> import pandas as pd
    >>> r = pd.DataFrame({"payout_0": [79, 51], "payout_1": [60, 50], "payout_2": [79, 51],
    ...     "payout_3": [60, 50], "bags_0": [9, 1], "bags_1": [0, 0]})
    >>> match_totals("spades", r)[["total_0", "total_1", "bag_penalty_0", "over"]]
       total_0  total_1  bag_penalty_0   over
    0     79.0     60.0              0  False
    1     20.0    110.0           -110  False
    """
    gid = F.check_game(game)
    full = F.resolve_rules(gid, rules)
    frame = F.check_frame(round_scores)
    n_seats, _ = F.table(gid)
    cols = F.seat_columns("payout", n_seats)
    F.require(frame, cols, f"{gid} match totals")
    n = len(frame)
    pay = np.stack([frame[c].to_numpy(dtype=np.float64) for c in cols], axis=1) if n else np.zeros((0, n_seats))
    if np.isnan(pay).any():
        raise ValueError("payout columns have missing values")
    key = frame["match"].to_numpy() if "match" in frame.columns else np.zeros(n, dtype=np.int64)
    rnd = pd.Series(np.zeros(n)).groupby(key, sort=False).cumcount().to_numpy() + 1
    extras: dict[str, Any] = {}

    if gid == "spades":
        if not np.array_equal(pay[:, [0, 1]], pay[:, [2, 3]]):
            raise ValueError("spades: partners (seats 0/2 and 1/3) must have equal payouts")
        team = pay[:, [0, 1]]
        if "bag_penalty_0" in frame.columns:
            pen = np.zeros((n, 2), dtype=np.int64)
            bag_total = None
        else:
            F.require(frame, ["bags_0", "bags_1"], "the spades bag roll-over")
            bags = np.stack([F.ints(frame, c, 0) for c in ("bags_0", "bags_1")], axis=1)
            bag_total = _group_cumsum(bags, key)
            pen = bag_penalties(bag_total - bags, bags)
        team_total = _group_cumsum(team + pen, key)
        total = team_total[:, [0, 1, 0, 1]]
        high = team_total.max(axis=1) if n else np.zeros(0)
        top = np.trunc(team_total / 10) == np.trunc(high / 10)[:, None]
        over_cond = (high >= full["target"]) & (top.sum(axis=1) == 1)
        win_team = top.argmax(axis=1)
        winners = np.where(win_team == 0, 0b0101, 0b1010)
        if bag_total is not None:
            extras.update({f"bag_total_{t}": bag_total[:, t] for t in range(2)})
        extras.update({f"bag_penalty_{t}": pen[:, t] for t in range(2)})
    else:
        total = _group_cumsum(pay, key)
        lowest_wins = gid == "hearts"
        if gid in ("goathead3", "goathead4", "clover", "sheepshead") or (
            gid == "ohhell" and full["sequence"] == "10-1-10"
        ):
            limit = ohhell_sequence_rounds(full["hand_size"]) if gid == "ohhell" else full["rounds"]
            over_cond = rnd >= limit
        else:  # gamut, hearts, ohhell always_13: somebody reached the target
            over_cond = total.max(axis=1) >= full["target"] if n else np.zeros(0, dtype=bool)
        best = total.min(axis=1, keepdims=True) if lowest_wins else total.max(axis=1, keepdims=True)
        is_best = total == best
        if gid == "sheepshead":
            won_hands = _group_cumsum((pay > 0).astype(np.int64), key)
            most = np.where(is_best, won_hands, -1)
            is_best &= most == most.max(axis=1, keepdims=True)
        winners = (is_best * (1 << np.arange(n_seats))).sum(axis=1)

    over_cond = np.asarray(over_cond, dtype=bool)
    ended_before = _group_cumsum(over_cond.astype(np.int64)[:, None], key)[:, 0] - over_cond
    if (ended_before > 0).any():
        raise ValueError("rounds after the end of a match (use a 'match' column to separate matches)")
    out: dict[str, Any] = {f"total_{s}": total[:, s].astype(np.float64) for s in range(n_seats)}
    out["round"] = rnd
    out["over"] = over_cond
    out["winners"] = np.where(over_cond, winners, 0).astype(np.int64)
    out.update(extras)
    return pd.DataFrame(out, index=frame.index)
