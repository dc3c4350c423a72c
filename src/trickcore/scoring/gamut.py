"""Gamut scoring, vectorised over a frame of finished rounds.

Gamut has no declaring side: every contract scores from per-seat columns.

Input columns
-------------
Every row: ``contract`` (``hearts spades clubs clubs_3 clubs_2 clubs_1``), optional
``multiplier`` (default 1: the Diamonds throw-in factor the round engine computed under the
``diamonds_doubling`` option), optional ``declarer`` (ignored; −1).

* Hearts rows: ``hearts_{s}`` (hearts taken, the eight add up to 8), ``queen_{s}``
  (bool/0-1: took Q♠).
* Spades rows: ``bid_{s}`` (0-8) and ``tricks_{s}`` (adding up to 8).  Under the rule
  option ``team_bid_cap`` (default) the round engine keeps each team's two bids at most 8
  in all; the scorer scores any bids 0-8 (as Oh Hell's scorer does not check
  ``no_equal_total``).
* Clubs rows: ``tricks_{s}`` (adding up to 8) and ``folded_{s}`` (bool; optional for
  ``clubs``, where nobody folded; required for ``clubs_k``, which has exactly *k* active
  players).  Seats are the table's seats 0-3 (the round engine maps the renumbered
  ``clubs_k`` seats back).

Scoring (``gamut.md`` as settled by ``RULINGS.md``)
---------------------------------------------------
* Hearts: −1 per heart, −8 for Q♠; a player who took all eight hearts and Q♠ shot the moon
  and scores +12 instead (the others took nothing and score 0).  Range −15 … +12.
* Spades: partners 0+2 and 1+3 add their bids; the team scores exact 5 + bid, over
  5 − overtricks, under −2 × bid; both partners score the team's result.  Range −16 … +13
  with team bids of at most 8 (``team_bid_cap``); uncapped, a team bidding 16 scores −32.
* Clubs: 2 per trick; a player who did not fold and took no trick −6; a folded player 0.
* Everything is multiplied by ``multiplier``.  Gamut is not net zero.

Output: ``payout_{s}``, ``made`` (``<NA>``: no declarer), and for spades rows
``team_bid_0/1`` and ``team_tricks_0/1`` (team 0 = seats 0 and 2; ``<NA>`` elsewhere).

Examples
--------
The text's Spades examples (team 0 bids 3 and takes 3; bids 2 and takes 4; bids 2 and takes
1) and a moon:

>>> import pandas as pd
>>> from trickcore.scoring import score
>>> rows = pd.DataFrame({"contract": ["spades"] * 3,
...     "bid_0": [2, 1, 1], "bid_1": [3, 3, 3], "bid_2": [1, 1, 1], "bid_3": [2, 2, 2],
...     "tricks_0": [2, 2, 1], "tricks_1": [3, 2, 4], "tricks_2": [1, 2, 0], "tricks_3": [2, 2, 3]})
>>> score("gamut", rows)[["payout_0", "payout_2", "payout_1"]]
   payout_0  payout_2  payout_1
0       8.0       8.0      10.0
1       3.0       3.0      -10.0
2      -4.0      -4.0       3.0
>>> moon = pd.DataFrame({"contract": ["hearts"], "hearts_0": [8], "hearts_1": [0], "hearts_2": [0],
...     "hearts_3": [0], "queen_0": [True], "queen_1": [False], "queen_2": [False], "queen_3": [False]})
>>> score("gamut", moon).iloc[0, :4].tolist()
[12.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import _frame as F

__all__ = ["score_gamut", "CONTRACTS", "spades_team_score", "hearts_penalties"]

CONTRACTS = ("hearts", "spades", "clubs", "clubs_3", "clubs_2", "clubs_1")
N_HEARTS, N_TRICKS = 8, 8
QUEEN, MOON = 8, 12


def hearts_penalties(hearts: np.ndarray, queen: np.ndarray) -> np.ndarray:
    """Gamut hearts per seat (n, 4) → score (n, 4), the moon included.

    >>> import numpy as np
    >>> hearts_penalties(np.array([[3, 5, 0, 0]]), np.array([[0, 0, 1, 0]])).tolist()
    [[-3, -5, -8, 0]]
    """
    moon = (hearts == N_HEARTS) & (queen != 0)
    shot = moon.any(axis=1, keepdims=True)
    return np.where(shot, np.where(moon, MOON, 0), -hearts - QUEEN * (queen != 0))


def spades_team_score(bid: np.ndarray, tricks: np.ndarray) -> np.ndarray:
    """Gamut spades team score: exact 5 + bid, over 5 − overtricks, under −2 × bid.

    >>> import numpy as np
    >>> spades_team_score(np.array([3, 2, 2]), np.array([3, 4, 1])).tolist()
    [8, 3, -4]
    """
    return np.where(tricks == bid, 5 + bid, np.where(tricks > bid, 5 - (tricks - bid), -2 * bid))


def score_gamut(game: str, frame: pd.DataFrame, rules: dict[str, Any]) -> pd.DataFrame:
    """Score Gamut rounds (see the module docstring); ``rules`` already resolved."""
    n_seats, _ = F.table(game)
    con = F.contracts(frame, CONTRACTS, game)
    mult = F.multiplier(frame)
    n = len(frame)
    payouts = np.zeros((n, n_seats), dtype=np.int64)
    team_bid = np.full((n, 2), -1, dtype=np.int64)
    team_tricks = np.full((n, 2), -1, dtype=np.int64)

    rows = con.is_("hearts")
    if rows.any():
        F.require(frame, [*F.seat_columns("hearts", 4), *F.seat_columns("queen", 4)], "gamut hearts")
        h = F.int_block(frame, "hearts", 4, 0, N_HEARTS, rows)
        q = F.bool_block(frame, "queen", 4, rows).astype(np.int64)
        if (h.sum(axis=1) != N_HEARTS)[rows].any() or (q.sum(axis=1) != 1)[rows].any():
            raise ValueError("gamut hearts: hearts_* must add up to 8 and exactly one queen_* be set")
        F.put(payouts, hearts_penalties(h, q), rows)

    rows = con.is_("spades")
    if rows.any():
        F.require(frame, [*F.seat_columns("bid", 4), *F.seat_columns("tricks", 4)], "gamut spades")
        b = F.int_block(frame, "bid", 4, 0, N_TRICKS, rows)
        t = F.int_block(frame, "tricks", 4, 0, N_TRICKS, rows)
        if (t.sum(axis=1) != N_TRICKS)[rows].any():
            raise ValueError("gamut spades: tricks_* must add up to 8")
        tb = b[:, :2] + b[:, 2:]  # seats 0+2, 1+3
        tt = t[:, :2] + t[:, 2:]  # seats 0+2, 1+3
        ts = spades_team_score(tb, tt)
        F.put(payouts, np.concatenate([ts, ts], axis=1), rows)
        team_bid[rows], team_tricks[rows] = tb[rows], tt[rows]

    rows = con.is_("clubs", "clubs_3", "clubs_2", "clubs_1")
    if rows.any():
        F.require(frame, F.seat_columns("tricks", 4), "gamut clubs")
        t = F.int_block(frame, "tricks", 4, 0, N_TRICKS, rows)
        folded_needed = con.is_("clubs_3", "clubs_2", "clubs_1")
        if folded_needed.any():
            F.require(frame, F.seat_columns("folded", 4), "gamut clubs with folded players")
        if all(c in frame.columns for c in F.seat_columns("folded", 4)):
            fo = F.bool_block(frame, "folded", 4, rows)
        else:
            fo = np.zeros((n, 4), dtype=bool)
        active = con.lookup({"clubs": 4, "clubs_3": 3, "clubs_2": 2, "clubs_1": 1})
        if ((~fo).sum(axis=1) != active)[rows].any():
            raise ValueError("gamut clubs: the number of players not folded must match the contract "
                             "(clubs: 4, clubs_k: k)")
        if ((t > 0) & fo)[rows].any():
            raise ValueError("gamut clubs: a folded player takes no trick")
        if (t.sum(axis=1) != N_TRICKS)[rows].any():
            raise ValueError("gamut clubs: tricks_* must add up to 8")
        s = np.where(fo, 0, np.where(t == 0, -6, 2 * t))
        F.put(payouts, s, rows)

    payouts = payouts * mult[:, None]
    spades = con.is_("spades")
    extras: dict[str, Any] = {"made": F.na_bool(np.zeros(n, dtype=bool), np.zeros(n, dtype=bool))}
    for i in range(2):
        extras[f"team_bid_{i}"] = F.na_int(team_bid[:, i], spades)
        extras[f"team_tricks_{i}"] = F.na_int(team_tricks[:, i], spades)
    return F.result_frame(frame, payouts, extras)
