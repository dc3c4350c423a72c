"""Spades scoring (CardsWithCats rules), vectorised over a frame of finished rounds.

Input columns
-------------
``contract`` (``spades``), optional ``declarer`` (−1; Spades has no single declarer),
optional ``multiplier`` (default 1), per seat ``bid_{s}`` (0 = nil, else 1-13) and
``tricks_{s}`` (adding up to 13).  Partners sit across: team 0 = seats 0 and 2, team 1 =
seats 1 and 3.  Optional ``bags_before_0`` / ``bags_before_1``: each team's running bag
total before this round; when given, the roll-over penalty is applied here (otherwise
:func:`trickcore.scoring.match_totals` applies it over a sequence of rounds).

Scoring
-------
* A team's bid is the sum of its partners' bids (a nil counts 0).  The nil bidder's tricks
  still count toward the team's tricks.  Made (tricks ≥ bid): +10 × bid; set: −10 × bid.
  A team whose partners both bid nil has no bid: no bid points and no bags (as the app).
* Each nil: +100 to the team if the nil bidder took no trick, else −100.
* Bags: with the rule option ``sandbags`` (default True) each overtrick of a made bid
  scores +1 and counts as a bag; without it overtricks score nothing.
* Roll-over: each time a team's running bag total passes a multiple of ten (its units
  digit rolls past 9) the team loses 110.  Ten or more bags in one round count every ten
  passed (the text: "accumulates 10 or more bags"); the app compares units digits and would
  miss such a second roll — a case that needs a team bid of at most 3.
* Multiplied by ``multiplier``.  Both partners show the team's score in ``payout_{s}``.

Output: ``payout_{s}``, ``made`` (``<NA>``), per team ``team_score_{t}``, ``bags_{t}`` (bags
taken this round), ``made_{t}`` (bool; ``<NA>`` for a team with no bid) and, with
``bags_before_*``, ``bag_penalty_{t}`` (already included in the payouts).

Examples
--------
Team 0 bids 4 + nil and makes it with the nil intact (40 + 100 + 1 bag); team 1 bids 5 + 3
and takes 8:

>>> import pandas as pd
>>> from trickcore.scoring import score
>>> row = pd.DataFrame({"contract": ["spades"], "bid_0": [4], "bid_1": [5], "bid_2": [0],
...     "bid_3": [3], "tricks_0": [5], "tricks_1": [5], "tricks_2": [0], "tricks_3": [3]})
>>> score("spades", row)[["team_score_0", "team_score_1", "bags_0", "bags_1"]]
   team_score_0  team_score_1  bags_0  bags_1
0           141            80       1       0
>>> score("spades", row.assign(bags_before_0=9, bags_before_1=0))["team_score_0"].item()
31
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import _frame as F

__all__ = ["score_spades", "CONTRACTS", "BAG_PENALTY", "bag_penalties"]

CONTRACTS = ("spades",)
N_TRICKS = 13
BAG_PENALTY = 110


def bag_penalties(bags_before: np.ndarray, bags: np.ndarray) -> np.ndarray:
    """−110 for every multiple of ten the running bag total passes this round.

    >>> import numpy as np
    >>> bag_penalties(np.array([8, 9, 0, 5, 19]), np.array([1, 1, 10, 2, 12])).tolist()
    [0, -110, -110, 0, -220]
    """
    before = np.asarray(bags_before)
    return -BAG_PENALTY * ((before + np.asarray(bags)) // 10 - before // 10)


def score_spades(game: str, frame: pd.DataFrame, rules: dict[str, Any]) -> pd.DataFrame:
    """Score Spades rounds (see the module docstring); ``rules`` already resolved."""
    F.contracts(frame, CONTRACTS, game)
    mult = F.multiplier(frame)
    if "declarer" in frame.columns and (F.ints(frame, "declarer") != -1).any():
        raise ValueError("spades has no single declarer: declarer must be -1")
    F.require(frame, [*F.seat_columns("bid", 4), *F.seat_columns("tricks", 4)], "spades scoring")
    b = F.int_block(frame, "bid", 4, 0, N_TRICKS)
    t = F.int_block(frame, "tricks", 4, 0, N_TRICKS)
    if (t.sum(axis=1) != N_TRICKS).any():
        raise ValueError("spades: tricks_* must add up to 13")
    nil = b == 0
    nil_points = np.where(nil, np.where(t == 0, 100, -100), 0)
    team_bid = b[:, :2] + b[:, 2:]  # seats 0+2, 1+3
    team_tricks = t[:, :2] + t[:, 2:]  # seats 0+2, 1+3
    has_bid = team_bid > 0
    made = has_bid & (team_tricks >= team_bid)
    bags = np.where(made & rules["sandbags"], team_tricks - team_bid, 0)
    team = np.where(has_bid, np.where(made, 10 * team_bid + bags, -10 * team_bid), 0)
    team = team + nil_points[:, :2] + nil_points[:, 2:]  # seats 0+2, 1+3
    extras: dict[str, Any] = {}
    before_cols = ["bags_before_0", "bags_before_1"]
    if any(c in frame.columns for c in before_cols):
        F.require(frame, before_cols, "the spades bag roll-over")
        before = np.stack([F.ints(frame, c, 0) for c in before_cols], axis=1)
        pen = bag_penalties(before, bags)
        team = team + pen
        extras.update({f"bag_penalty_{i}": pen[:, i] * mult for i in range(2)})
    team = team * mult[:, None]
    n = len(frame)
    out: dict[str, Any] = {"made": F.na_bool(np.zeros(n, dtype=bool), np.zeros(n, dtype=bool))}
    for i in range(2):
        out[f"team_score_{i}"] = team[:, i]
        out[f"bags_{i}"] = bags[:, i]
        out[f"made_{i}"] = F.na_bool(made[:, i], has_bid[:, i])
    out.update(extras)
    return F.result_frame(frame, np.concatenate([team, team], axis=1), out)
