"""Sheepshead (five players) scoring, vectorised over a frame of finished rounds.

Input columns
-------------
Every row: ``contract`` (``jd jc js jh called_ace_clubs called_ace_spades
called_ace_hearts called_ten_clubs called_ten_spades called_ten_hearts alone leaster``),
``declarer`` (the picker; −1 for a leaster), optional ``multiplier`` (default 1: doubler
hand, crack ×2, re-crack ×4, blitz / red blitz ×2 each, as the round engine applies them).

Rows with a picker: ``partner`` (the partner's seat, −1 — or the picker's own seat — when
the picker plays alone), ``side_points`` (card points the picking team took in tricks) and
``kitty_points`` (the buried cards' points, which count for the picking team).  Optional
``side_mask``: when given it must agree with ``declarer`` and ``partner``.  ``side_tricks``
is not needed: the table goes by points.

Leaster rows: ``points_{s}``, ``tricks_{s}`` per seat (trick points without the blind),
``last_trick_winner`` and ``kitty_points`` (the blind, which goes to the last trick's
winner).

Scoring (``sheepshead.md`` as settled by ``RULINGS.md``)
--------------------------------------------------------
The picking team's total ``T = side_points + kitty_points`` selects the row of the text's
table; the table is read literally *by points* (the text's column is "Picking team point
total"), so the top row is T = 120 and the bottom row T = 0, not "all tricks" / "no
trick" as some tables play it:

=========  ======  =======  =========
T          picker  partner  opponents
=========  ======  =======  =========
120        +6      +3       −3
91–119     +4      +2       −2
61–90      +2      +1       −1
31–60      −2      −1       +1
1–30       −4      −2       +2
0          −6      −3       +3
=========  ======  =======  =========

60–60 goes to the opponents (the 31–60 row), so ``made`` is T ≥ 61.  A picker alone
collects from (or pays) all four opponents: 4 × the opponents' unit (+4 at 61–90), the
ruling that keeps every hand net zero.  Everything is multiplied by ``multiplier``.

Leaster: the blind goes to the last trick's winner; the player with the fewest points
among those who took at least one trick scores +4, every other player −1 (× multiplier).
The texts are silent on a tie for fewest; rule option ``leaster_tie``:
``'nobody_scores'`` (default) — every player 0, as Goathead's default ``leasters_tie``;
``'split'`` — every player not tied scores −1 and the *k* tied players share those 5 − k
units, (5 − k)/k each (two tied: +1.5 each; all five tied: 0).  Both keep the hand net zero.

Output: ``payout_{s}``, ``made`` (``<NA>`` for a leaster), ``picking_points`` (T, ``<NA>``
for a leaster), ``unit`` (what each opponent wins, before the multiplier; leaster: 1).

Examples
--------
>>> import pandas as pd
>>> from trickcore.scoring import score
>>> rows = pd.DataFrame({"contract": ["jd", "jd", "alone"], "declarer": [0, 0, 0],
...     "partner": [3, 3, -1], "side_points": [60, 70, 70], "kitty_points": [0, 0, 5]})
>>> score("sheepshead", rows).iloc[:, :5]
   payout_0  payout_1  payout_2  payout_3  payout_4
0      -2.0       1.0       1.0      -1.0       1.0
1       2.0      -1.0      -1.0       1.0      -1.0
2       4.0      -1.0      -1.0      -1.0      -1.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import _frame as F

__all__ = ["score_sheepshead", "payout_cuts_sheepshead", "CONTRACTS", "opponent_unit"]

CONTRACTS = (
    "jd", "jc", "js", "jh",
    "called_ace_clubs", "called_ace_spades", "called_ace_hearts",
    "called_ten_clubs", "called_ten_spades", "called_ten_hearts",
    "alone", "leaster",
)
TOTAL_POINTS = 120
N_SEATS = 5
#: The picking team's totals where :func:`opponent_unit` (and so every payout) changes.
UNIT_STEPS = (1, 31, 61, 91, 120)


def opponent_unit(total: np.ndarray) -> np.ndarray:
    """What each opponent wins (negative: pays) by the picking team's point total.

    >>> import numpy as np
    >>> opponent_unit(np.array([120, 119, 91, 90, 61, 60, 31, 30, 1, 0])).tolist()
    [-3, -2, -2, -1, -1, 1, 1, 2, 2, 3]
    """
    t = np.asarray(total)
    return np.select(
        [t >= step for step in reversed(UNIT_STEPS)],
        [-3, -2, -1, 1, 2],
        3,
    )


def payout_cuts_sheepshead(game: str, frame: pd.DataFrame, rules: dict[str, Any]) -> np.ndarray:
    """The ``side_points`` values where the payout of a round with a picker can change.

    ``frame`` has ``contract`` (any but ``leaster``) and ``kitty_points`` (the buried
    cards, which count for the picking team).  Returns ``int64[rows, 5]``: the totals 1,
    31, 61, 91 and 120 of the table, less the kitty points.  Between two consecutive cuts
    :func:`score_sheepshead` gives every value the same payouts and ``made`` (it reads the
    table by points, never by tricks), so a solver may stop once it knows the band.

    >>> import pandas as pd
    >>> f = pd.DataFrame({"contract": ["jd"], "kitty_points": [14]})
    >>> payout_cuts_sheepshead("sheepshead", f, {}).tolist()
    [[-13, 17, 47, 77, 106]]
    """
    con = F.contracts(frame, CONTRACTS, game)
    if con.is_("leaster").any():
        raise ValueError("payout cuts are for rounds with a picker (a leaster scores every seat)")
    F.require(frame, ["kitty_points"], "sheepshead payout cuts")
    kitty = F.ints(frame, "kitty_points", 0, TOTAL_POINTS)
    return np.asarray(UNIT_STEPS, dtype=np.int64)[None, :] - kitty[:, None]


def score_sheepshead(game: str, frame: pd.DataFrame, rules: dict[str, Any]) -> pd.DataFrame:
    """Score Sheepshead rounds (see the module docstring); ``rules`` already resolved."""
    con = F.contracts(frame, CONTRACTS, game)
    F.require(frame, ["declarer"], "sheepshead scoring")
    mult = F.multiplier(frame)
    n = len(frame)
    declarer = F.ints(frame, "declarer")
    leaster = con.is_("leaster")
    picked = ~leaster
    payouts = np.zeros((n, N_SEATS), dtype=np.float64)  # a split leaster tie has fractions
    made = np.zeros(n, dtype=bool)
    total = np.zeros(n, dtype=np.int64)
    unit = np.ones(n, dtype=np.int64)
    if (declarer[leaster] != -1).any():
        raise ValueError("a leaster has no picker: declarer must be -1 on leaster rows")

    if picked.any():
        rows = picked
        F.require(frame, ["partner", "side_points", "kitty_points"], "sheepshead hands with a picker")
        d = F.ints(frame, "declarer", 0, N_SEATS - 1, rows)
        p = F.ints(frame, "partner", -1, N_SEATS - 1, rows)
        pts = F.ints(frame, "side_points", 0, TOTAL_POINTS, rows)
        kit = F.ints(frame, "kitty_points", 0, TOTAL_POINTS, rows)
        if (pts + kit > TOTAL_POINTS)[rows].any():
            raise ValueError("side_points + kitty_points exceed the 120 points in the deck")
        alone = (p < 0) | (p == d)
        if (con.is_("alone") & ~alone & rows).any():
            raise ValueError("contract 'alone' needs partner -1 (or the picker's own seat)")
        dd = np.clip(d, 0, N_SEATS - 1)
        pp = np.clip(p, 0, N_SEATS - 1)
        side = (1 << dd) | np.where(alone, 0, 1 << pp)
        if "side_mask" in frame.columns:
            given = F.ints(frame, "side_mask", 0, 31, rows)
            if (given != side)[rows].any():
                raise ValueError("side_mask disagrees with declarer and partner")
        t = pts + kit
        u = opponent_unit(t)
        seat = np.arange(N_SEATS)
        is_picker = seat == dd[:, None]
        is_partner = (seat == pp[:, None]) & ~alone[:, None]
        picker_gets = np.where(alone, -4 * u, -2 * u)
        s = np.where(is_picker, picker_gets[:, None], np.where(is_partner, -u[:, None], u[:, None]))
        F.put(payouts, s, rows)
        F.put(made, (t >= 61), rows)
        F.put(total, t, rows)
        F.put(unit, u, rows)

    if leaster.any():
        rows = leaster
        F.require(frame, [*F.seat_columns("points", N_SEATS), *F.seat_columns("tricks", N_SEATS),
                          "last_trick_winner", "kitty_points"], "sheepshead leaster")
        pts = F.int_block(frame, "points", N_SEATS, 0, TOTAL_POINTS, rows)
        tr = F.int_block(frame, "tricks", N_SEATS, 0, 6, rows)
        last = F.ints(frame, "last_trick_winner", 0, N_SEATS - 1, rows)
        kit = F.ints(frame, "kitty_points", 0, TOTAL_POINTS, rows)
        if (tr.sum(axis=1) != 6)[rows].any():
            raise ValueError("sheepshead leaster: tricks_* must add up to 6")
        lw = np.clip(last, 0, N_SEATS - 1)
        if (tr[np.arange(n), lw] == 0)[rows].any():
            raise ValueError("sheepshead leaster: the last trick's winner must have taken a trick")
        pts = pts + kit[:, None] * (np.arange(N_SEATS) == lw[:, None])
        if (pts.sum(axis=1) != TOTAL_POINTS)[rows].any():
            raise ValueError("sheepshead leaster: points_* plus kitty_points must add up to 120")
        s = leaster_payouts(pts, tr, rules["leaster_tie"])
        F.put(payouts, s, rows)

    payouts = payouts * mult[:, None]
    return F.result_frame(frame, payouts, {
        "made": F.na_bool(made, picked),
        "picking_points": F.na_int(total, picked),
        "unit": unit,
    })


def leaster_payouts(points: np.ndarray, tricks: np.ndarray, tie: str = "nobody_scores") -> np.ndarray:
    """+4 to the fewest points among trick-takers, −1 to the others; a tie per ``tie``
    (``'nobody_scores'``: all 0; ``'split'``: the others −1, the k tied (5 − k)/k each).

    >>> import numpy as np
    >>> leaster_payouts(np.array([[0, 10, 20, 40, 50]]), np.array([[0, 1, 1, 2, 2]])).tolist()
    [[-1.0, 4.0, -1.0, -1.0, -1.0]]
    >>> tied = np.array([[0, 10, 10, 40, 60]]), np.array([[0, 1, 1, 2, 2]])
    >>> leaster_payouts(*tied).tolist(), leaster_payouts(*tied, "split").tolist()
    ([[0.0, 0.0, 0.0, 0.0, 0.0]], [[-1.0, 1.5, 1.5, -1.0, -1.0]])
    """
    eligible = tricks > 0
    masked = np.where(eligible, points, np.iinfo(np.int64).max)
    lo = masked.min(axis=1, keepdims=True)
    winner = eligible & (points == lo)
    k = winner.sum(axis=1)
    scores = k == 1 if tie == "nobody_scores" else k >= 1
    share = (points.shape[1] - k) / np.maximum(k, 1)
    return np.where(scores[:, None], np.where(winner, share[:, None], -1.0), 0.0)
