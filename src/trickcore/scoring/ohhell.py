"""Oh Hell scoring (CardsWithCats rules), vectorised over a frame of finished rounds.

Input columns
-------------
``contract`` (``clubs diamonds hearts spades notrump``: the trump), optional ``declarer``
(−1; Oh Hell has none), optional ``multiplier`` (default 1), and per seat ``bid_{s}`` and
``tricks_{s}`` (0-13; the tricks add up to the round's hand size, which may change from
round to round in a match, so only ≤ 13 is checked; give a ``hand_size`` column to have
the exact sum checked).

Scoring
-------
A player who takes exactly the bid scores 10.  Rule option ``trick_points``: ``'always'``
(default) adds 1 per trick taken whether or not the bid was made; ``'exact_only'`` only with
an exact bid; ``'never'`` adds nothing.  Multiplied by ``multiplier``.  Not net zero.

Output: ``payout_{s}``, ``made`` (``<NA>``: no declarer), ``exact_{s}`` (bool, bid made).

Examples
--------
The text's example: bid 2 and take 2 → 12; bid 2 and take 3 → 3.

>>> import pandas as pd
>>> from trickcore.scoring import score
>>> rows = pd.DataFrame({"contract": ["spades"] * 2,
...     "bid_0": [2, 2], "bid_1": [1, 1], "bid_2": [0, 0], "bid_3": [3, 3],
...     "tricks_0": [2, 3], "tricks_1": [1, 1], "tricks_2": [1, 1], "tricks_3": [6, 5]})
>>> score("ohhell", rows).iloc[:, :4]
   payout_0  payout_1  payout_2  payout_3
0      12.0      11.0       1.0       6.0
1       3.0      11.0       1.0       5.0
>>> score("ohhell", rows, {"trick_points": "exact_only"}).iloc[:, :4].values.tolist()
[[12.0, 11.0, 0.0, 0.0], [0.0, 11.0, 0.0, 0.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import _frame as F

__all__ = ["score_ohhell", "CONTRACTS"]

CONTRACTS = ("clubs", "diamonds", "hearts", "spades", "notrump")
EXACT = 10


def score_ohhell(game: str, frame: pd.DataFrame, rules: dict[str, Any]) -> pd.DataFrame:
    """Score Oh Hell rounds (see the module docstring); ``rules`` already resolved."""
    n_seats, _ = F.table(game)
    F.contracts(frame, CONTRACTS, game)
    mult = F.multiplier(frame)
    if "declarer" in frame.columns and (F.ints(frame, "declarer") != -1).any():
        raise ValueError("oh hell has no declarer: declarer must be -1")
    F.require(frame, [*F.seat_columns("bid", n_seats), *F.seat_columns("tricks", n_seats)], "oh hell scoring")
    b = F.int_block(frame, "bid", n_seats, 0, 13)
    t = F.int_block(frame, "tricks", n_seats, 0, 13)
    total = t.sum(axis=1)
    if (total > 13).any():
        raise ValueError("oh hell: tricks_* add up to more than 13")
    if "hand_size" in frame.columns and (total != F.ints(frame, "hand_size", 1, 13)).any():
        raise ValueError("oh hell: tricks_* must add up to hand_size")
    exact = b == t
    mode = rules["trick_points"]
    per_trick = t if mode == "always" else (np.where(exact, t, 0) if mode == "exact_only" else 0)
    pts = (EXACT * exact + per_trick) * mult[:, None]
    n = len(frame)
    extras: dict[str, Any] = {"made": F.na_bool(np.zeros(n, dtype=bool), np.zeros(n, dtype=bool))}
    extras.update({f"exact_{s}": exact[:, s] for s in range(n_seats)})
    return F.result_frame(frame, np.broadcast_to(pts, (n, n_seats)), extras)
