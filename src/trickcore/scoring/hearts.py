"""Hearts scoring (CardsWithCats rules), vectorised over a frame of finished rounds.

Input columns
-------------
``contract`` (``hearts``), optional ``declarer`` (−1; Hearts has none), optional
``multiplier`` (default 1), and per seat: ``hearts_{s}`` (hearts taken, the four add up
to 13), ``queen_{s}`` (bool/0-1: took Q♠) and, with the rule option
``jack_of_diamonds=True``, ``jack_{s}`` (bool/0-1: took J♦).

Scoring
-------
Hearts points are *penalties*: ``payout_{s}`` is what seat ``s`` adds to its score, and the
lowest match total wins (:func:`trickcore.scoring.match_totals` knows this).

* 1 per heart, 13 for Q♠; with ``jack_of_diamonds`` the taker of J♦ scores −10.
* Shooting the moon (one player took all 13 hearts and Q♠): that player scores 0 and every
  other player +26.  As in the app, the J♦ is counted on top: the shooter with J♦ scores
  −10 and another player with J♦ scores 26 − 10 = 16.
* Multiplied by ``multiplier``.  Hearts is not net zero (26 points a round, 78 on a moon).

Output: ``payout_{s}``, ``made`` (``<NA>``), ``moon`` (the seat that shot the moon, −1).

Examples
--------
>>> import pandas as pd
>>> from trickcore.scoring import score
>>> rows = pd.DataFrame({"contract": ["hearts"] * 2,
...     "hearts_0": [13, 4], "hearts_1": [0, 9], "hearts_2": [0, 0], "hearts_3": [0, 0],
...     "queen_0": [1, 0], "queen_1": [0, 0], "queen_2": [0, 1], "queen_3": [0, 0]})
>>> score("hearts", rows)[["payout_0", "payout_1", "payout_2", "payout_3", "moon"]]
   payout_0  payout_1  payout_2  payout_3  moon
0       0.0      26.0      26.0      26.0     0
1       4.0       9.0      13.0       0.0    -1
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import _frame as F

__all__ = ["score_hearts", "CONTRACTS", "hearts_points"]

CONTRACTS = ("hearts",)
N_HEARTS, QUEEN, JACK, MOON = 13, 13, -10, 26


def hearts_points(hearts: np.ndarray, queen: np.ndarray, jack: np.ndarray | None = None) -> np.ndarray:
    """Per-seat Hearts points (n, 4) with the moon, from hearts / Q♠ / J♦ taken.

    >>> import numpy as np
    >>> hearts_points(np.array([[13, 0, 0, 0]]), np.array([[1, 0, 0, 0]]), np.array([[0, 1, 0, 0]])).tolist()
    [[0, 16, 26, 26]]
    """
    q = queen != 0
    moon = (hearts == N_HEARTS) & q
    shot = moon.any(axis=1, keepdims=True)
    base = np.where(shot, np.where(moon, 0, MOON), hearts + QUEEN * q)
    if jack is not None:
        base = base + JACK * (jack != 0)
    return base


def score_hearts(game: str, frame: pd.DataFrame, rules: dict[str, Any]) -> pd.DataFrame:
    """Score Hearts rounds (see the module docstring); ``rules`` already resolved."""
    F.contracts(frame, CONTRACTS, game)
    mult = F.multiplier(frame)
    if "declarer" in frame.columns and (F.ints(frame, "declarer") != -1).any():
        raise ValueError("hearts has no declarer: declarer must be -1")
    F.require(frame, [*F.seat_columns("hearts", 4), *F.seat_columns("queen", 4)], "hearts scoring")
    h = F.int_block(frame, "hearts", 4, 0, N_HEARTS)
    q = F.bool_block(frame, "queen", 4)
    if (h.sum(axis=1) != N_HEARTS).any() or (q.sum(axis=1) != 1).any():
        raise ValueError("hearts: hearts_* must add up to 13 and exactly one queen_* be set")
    j = None
    if rules["jack_of_diamonds"]:
        F.require(frame, F.seat_columns("jack", 4), "hearts with the jack_of_diamonds option")
        j = F.bool_block(frame, "jack", 4)
        if (j.sum(axis=1) != 1).any():
            raise ValueError("hearts: exactly one jack_* must be set")
    pts = hearts_points(h, q, j) * mult[:, None]
    moon = (h == N_HEARTS) & q
    n = len(frame)
    return F.result_frame(frame, pts, {
        "made": F.na_bool(np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)),
        "moon": np.where(moon.any(axis=1), moon.argmax(axis=1), -1) if n else np.zeros(0, dtype=np.int64),
    })
