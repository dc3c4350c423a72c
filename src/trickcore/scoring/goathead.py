"""Goathead scoring (three and four players), vectorised over a frame of finished rounds.

Input columns
-------------
Every row: ``contract`` (``diamonds hearts spades clubs court nil leasters``),
``declarer`` (seat, −1 for leasters), optional ``multiplier`` (int ≥ 1, default 1).

Rows with a declarer (every contract but leasters), side-level so that double-dummy
results score directly:

* ``side_mask`` — bit mask of the seats on the declarer's side (3 players: the declarer
  alone; 4 players: from the black jacks / called queen, see :mod:`trickcore.games.goathead`);
* ``side_points`` — card points the declarer's side took in tricks (0–120);
* ``side_tricks`` — tricks the declarer's side took (0–hand size);
* ``kitty_points`` — card points in the kitty at the end of play;
* ``exchanged`` — bool, the declarer exchanged with the kitty.

Leasters rows: ``points_{s}`` and ``tricks_{s}`` per seat (card points / tricks taken in
tricks, kitty excluded), ``last_trick_winner`` (seat) and ``kitty_points``.

Scoring (``RULINGS.md``)
------------------------
* Base: suit 1, nil 2, court 2, leasters 1.
* The declarer's count is ``side_points + kitty_points``: rule option ``kitty_points``
  ``'declarer'`` (default) counts the kitty whether or not the declarer exchanged;
  ``'if_exchanged'`` counts it only after an exchange (otherwise it counts for nobody and
  the thresholds stay 61 / 31).
* Suit and court are made with ≥ 61.  The winning side adds +1 when it took ≥ 90 (for the
  defenders: the declarer counted ≤ 30, "below 31"), or +2 instead when it took every trick.
* Nil is made iff the declarer's side took no trick; no 90 / all-tricks bonus.
* A declarer who did not exchange adds +1 (option ``no_exchange_bonus``: ``'won_or_lost'``,
  default, or ``'won_only'``).  This applies to nil as well.
* The stake is multiplied by ``multiplier``.  Each member of the larger side wins or loses
  one stake and the smaller side shares the opposite total, so the round sums to zero:
  3 players ±stake per defender and ∓2 stakes for the declarer; 4 players alone ±3 stakes;
  two against two ±stake each.
* Leasters: the kitty goes to the last trick's winner; the player with the most points pays
  the base (1 × multiplier) to the player with the fewest.  A tie for most or for fewest:
  option ``leasters_tie`` ``'nobody_pays'`` (default) or ``'split'`` — the tied players
  share the payment (each of *k* tied payers pays 1/k, each of *j* tied receivers gets 1/j;
  if everybody ties nobody pays).

Output: ``payout_{s}``, ``made`` (nullable bool, ``<NA>`` for leasters), ``stake`` (what one
defender wins or loses; leasters: the base times the multiplier) and ``declarer_points``
(the declarer's count, ``<NA>`` for leasters).

Examples
--------
The three worked examples of the rule text (3 players, declarer seat 0):

>>> import pandas as pd
>>> from trickcore.scoring import score
>>> rounds = pd.DataFrame({
...     "contract": ["hearts", "court", "spades"],
...     "declarer": [0, 0, 0], "side_mask": [1, 1, 1],
...     "side_points": [60, 29, 110], "kitty_points": [6, 0, 10],
...     "side_tricks": [3, 1, 6], "exchanged": [True, True, False]})
>>> score("goathead3", rounds)[["payout_0", "payout_1", "payout_2", "made"]]
   payout_0  payout_1  payout_2   made
0       2.0      -1.0      -1.0   True
1      -6.0       3.0       3.0  False
2       8.0      -4.0      -4.0   True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import _frame as F

__all__ = ["score_goathead", "payout_cuts_goathead", "CONTRACTS", "BASE"]

CONTRACTS = ("diamonds", "hearts", "nil", "spades", "clubs", "court", "leasters")
#: Base stake of each contract.
BASE = {"diamonds": 1, "hearts": 1, "spades": 1, "clubs": 1, "nil": 2, "court": 2, "leasters": 1}
TOTAL_POINTS = 120
MAKE, HIGH, LOW = 61, 90, 31


def score_goathead(game: str, frame: pd.DataFrame, rules: dict[str, Any]) -> pd.DataFrame:
    """Score Goathead rounds (see the module docstring); ``rules`` already resolved."""
    n_seats, hand_size = F.table(game)
    con = F.contracts(frame, CONTRACTS, game)
    mult = F.multiplier(frame)
    n = len(frame)
    leasters = con.is_("leasters")
    declared = ~leasters
    F.require(frame, ["declarer"], "goathead scoring")
    declarer = F.ints(frame, "declarer")
    payouts = np.zeros((n, n_seats))
    stake = np.zeros(n, dtype=np.int64)
    made = np.zeros(n, dtype=bool)
    count = np.zeros(n, dtype=np.int64)
    base = con.lookup(BASE)

    if declared.any():
        rows = declared
        F.require(frame, ["side_mask", "side_points", "side_tricks", "kitty_points", "exchanged"],
                  "goathead contracts with a declarer")
        d = F.ints(frame, "declarer", 0, n_seats - 1, rows)
        side = F.ints(frame, "side_mask", 1, (1 << n_seats) - 2, rows)
        pts = F.ints(frame, "side_points", 0, TOTAL_POINTS, rows)
        tricks = F.ints(frame, "side_tricks", 0, hand_size, rows)
        kitty = F.ints(frame, "kitty_points", 0, TOTAL_POINTS, rows)
        exch = F.bools(frame, "exchanged", rows)
        if ((side >> np.clip(d, 0, n_seats - 1)) & 1 == 0)[rows].any():
            raise ValueError("side_mask must contain the declarer's seat")
        if (pts + kitty > TOTAL_POINTS)[rows].any():
            raise ValueError(f"side_points + kitty_points exceed the {TOTAL_POINTS} points in the deck")
        if n_seats == 3 and (side != (1 << np.clip(d, 0, 2)))[rows].any():
            raise ValueError("three-player Goathead: side_mask must be the declarer alone")
        alone_contract = con.is_("nil", "court")
        if (alone_contract & rows & (side != (1 << np.clip(d, 0, n_seats - 1)))).any():
            raise ValueError("nil and court are played alone: side_mask must be the declarer alone")

        kitty_counts = np.ones(n, dtype=bool) if rules["kitty_points"] == "declarer" else exch
        total = pts + np.where(kitty_counts, kitty, 0)
        nil = con.is_("nil")
        won = np.where(nil, tricks == 0, total >= MAKE)
        # The winning side's bonus: every trick beats >= 90 points; nil has neither.
        all_tricks = np.where(won, tricks == hand_size, tricks == 0)
        high = np.where(won, total >= HIGH, total < LOW)
        bonus = np.where(nil, 0, np.where(all_tricks, 2, np.where(high, 1, 0)))
        no_exch = ~exch & (won | (rules["no_exchange_bonus"] == "won_or_lost"))
        st = (base + bonus + no_exch) * mult
        on_side = F.mask_matrix(side, n_seats)
        pay = F.side_payouts(on_side, np.where(won, st, -st))
        F.put(payouts, pay, rows)
        F.put(stake, st, rows)
        F.put(made, won, rows)
        F.put(count, total, rows)

    if leasters.any():
        rows = leasters
        F.require(frame, [*F.seat_columns("points", n_seats), *F.seat_columns("tricks", n_seats),
                          "last_trick_winner", "kitty_points"], "goathead leasters")
        pts = F.int_block(frame, "points", n_seats, 0, TOTAL_POINTS, rows)
        F.int_block(frame, "tricks", n_seats, 0, hand_size, rows)
        last = F.ints(frame, "last_trick_winner", 0, n_seats - 1, rows)
        kitty = F.ints(frame, "kitty_points", 0, TOTAL_POINTS, rows)
        pts = pts + kitty[:, None] * (np.arange(n_seats) == np.clip(last, 0, n_seats - 1)[:, None])
        if (pts.sum(axis=1) != TOTAL_POINTS)[rows].any():
            raise ValueError(f"leasters: points_* plus kitty_points must add up to {TOTAL_POINTS}")
        st = base * mult
        pay = leasters_payouts(pts, st, rules["leasters_tie"])
        F.put(payouts, pay, rows)
        F.put(stake, st, rows)
    if (declarer[leasters] != -1).any():
        raise ValueError("leasters has no declarer: declarer must be -1 on leasters rows")
    return F.result_frame(frame, payouts, {
        "made": F.na_bool(made, declared),
        "stake": stake,
        "declarer_points": F.na_int(count, declared),
    })


def payout_cuts_goathead(game: str, frame: pd.DataFrame, rules: dict[str, Any]) -> np.ndarray:
    """The ``side_points`` values where the payout of a suit or court round can change.

    ``frame`` has ``contract`` (suit or court), ``kitty_points`` and ``exchanged``;
    ``rules`` are resolved.  Returns ``int64[rows, 5]``: 1 (the defenders take every trick
    below it), the declarer's count 31, 61 and 90 shifted by the kitty points that count,
    and the points in play (the declarer takes every trick from it: every Goathead card is
    worth points, so every trick iff all the points, no trick iff none).  Between two
    consecutive cuts :func:`score_goathead` gives every value the same payouts, ``made``
    and ``stake`` — so a solver may stop once it knows the band (``solve_many(cuts=...)``).

    >>> import pandas as pd
    >>> f = pd.DataFrame({"contract": ["hearts"], "kitty_points": [14], "exchanged": [False]})
    >>> payout_cuts_goathead("goathead3", f, {"kitty_points": "declarer"}).tolist()
    [[1, 17, 47, 76, 106]]
    """
    con = F.contracts(frame, CONTRACTS, game)
    if con.is_("nil", "leasters").any():
        raise ValueError("payout cuts are for suit and court contracts (nil counts tricks, leasters every seat)")
    F.require(frame, ["kitty_points", "exchanged"], "goathead payout cuts")
    kitty = F.ints(frame, "kitty_points", 0, TOTAL_POINTS)
    counts = np.ones(len(frame), dtype=bool) if rules["kitty_points"] == "declarer" else F.bools(frame, "exchanged")
    counted = np.where(counts, kitty, 0)
    return np.stack([np.ones(len(frame), dtype=np.int64), LOW - counted, MAKE - counted, HIGH - counted,
                     TOTAL_POINTS - kitty], axis=1)


def leasters_payouts(points: np.ndarray, stake: np.ndarray, tie: str) -> np.ndarray:
    """Most points pays ``stake`` to fewest points (per row); ties per ``tie``.

    >>> import numpy as np
    >>> leasters_payouts(np.array([[50, 40, 30], [50, 50, 20]]), np.array([1, 1]), "nobody_pays")
    array([[-1.,  0.,  1.],
           [ 0.,  0.,  0.]])
    >>> leasters_payouts(np.array([[50, 50, 20]]), np.array([1]), "split")
    array([[-0.5, -0.5,  1. ]])
    """
    hi = points.max(axis=1, keepdims=True)
    lo = points.min(axis=1, keepdims=True)
    most = points == hi
    fewest = points == lo
    n_most = most.sum(axis=1)
    n_fewest = fewest.sum(axis=1)
    pays = (hi[:, 0] != lo[:, 0])
    if tie == "nobody_pays":
        pays &= (n_most == 1) & (n_fewest == 1)
    s = np.where(pays, stake, 0).astype(np.float64)
    return fewest * (s / n_fewest)[:, None] - most * (s / n_most)[:, None]
