"""Clover scoring, vectorised over a frame of finished rounds.

Input columns
-------------
``contract`` (``clubs diamonds hearts spades notrump``), ``declarer`` (seat 0-3),
optional ``multiplier`` (default 1), and side-level results:

* ``side_mask`` — the declaring team: the declarer and the partner across;
* ``side_points`` — trick points of the declaring team, the last trick's −2 included
  (the defenders have ``150 − side_points``);
* ``side_trick_melds``, ``opp_trick_melds`` — meld points won in tricks;
* ``side_hand_melds``, ``opp_hand_melds`` — melds declared from the hands (see
  :func:`trickcore.scoring.melds.hand_melds`; only melds declared in the first trick).

Scoring (``RULINGS.md``)
------------------------
* The declaring team makes its bid iff its trick points are strictly greater than the
  defenders' (``side_points > 75``; 75–75 is set).
* Made: both teams keep their trick points; only the team with more meld points (hand +
  trick melds) keeps its melds.  On equal meld points rule option ``meld_tie``:
  ``'neither'`` (default) or ``'both'`` keep them.
* Set: the declaring team scores nothing; the defenders score their own trick points and
  their own melds *and* the declaring team's trick points and melds — all of them, whatever
  the meld comparison (the text's worked example: Team 2 keeps its 4■ melds although Team 1
  had 12■).  Rule option ``melds_when_set``: ``'defenders_keep'`` (default, the ruling and
  the example) or ``'defenders_lose'`` (the text's note "You also cannot score them if you
  'set' the declaring team": the defenders' own melds are not scored; they still take their
  own trick points and the declaring team's trick points and melds).
* Each line is divided by ten and truncated toward zero *before* adding (127 → 12; the
  −2 of a team that only won the last trick with blank cards → 0).  In a set the four lines
  (own tricks, own melds, declarer's tricks, declarer's melds) are truncated one by one, as
  the text's example adds ``4 + 7 + 12 + 7`` (``7 + 12 + 7`` under ``'defenders_lose'``).
* The result is multiplied by ``multiplier``.  Clover is not net zero: ``payout_{s}`` is the
  game points of seat ``s``'s team (both partners show the team's score).
* A meld column above what one team can hold in a round is a ``ValueError`` naming the
  column and the bound (:data:`HAND_MELD_MAX`, :data:`TRICK_MELD_MAX`).

Output: ``payout_{s}``, ``made``, ``side_score``, ``opp_score``, ``side_melds_kept``,
``opp_melds_kept`` (bool: that team's own melds counted for it).

Examples
--------
The two hands of the text's score sheet (Team 1 = seats 0 and 2 declares both; Team 2 =
seats 1 and 3).  Hand 1: tricks 127–23, melds 70 (crossed out) against 140.  Hand 2: 75–75,
so Team 1 is set and its 120 melds and 75 trick points go to Team 2 with Team 2's own 40
melds and 75 trick points:

>>> import pandas as pd
>>> from trickcore.scoring import score
>>> sheet = pd.DataFrame({
...     "contract": ["hearts", "spades"], "declarer": [0, 2], "side_mask": [5, 5],
...     "side_points": [127, 75],
...     "side_hand_melds": [50, 100], "side_trick_melds": [20, 20],
...     "opp_hand_melds": [100, 20], "opp_trick_melds": [40, 20]})
>>> s = score("clover", sheet)
>>> s[["made", "side_score", "opp_score"]]
    made  side_score  opp_score
0   True          12         16
1  False           0         30
>>> int(s["payout_0"].sum()), int(s["payout_1"].sum())
(12, 46)

As the text's note has it instead (the defenders who set Team 1 lose their own 40 melds):

>>> lose = score("clover", sheet, {"melds_when_set": "defenders_lose"})
>>> lose["opp_score"].tolist(), int(lose["payout_1"].sum())
([16, 26], 42)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import _frame as F
from .melds import BELL

__all__ = ["score_clover", "CONTRACTS", "TOTAL_POINTS"]

CONTRACTS = ("clubs", "diamonds", "hearts", "spades", "notrump")
TOTAL_POINTS = 150  # 152 card points, −2 for the last trick
MELD_COLUMNS = ("side_trick_melds", "opp_trick_melds", "side_hand_melds", "opp_hand_melds")

#: The most hand-meld points one team (two hands of 8) can show in a trump contract, by
#: rule option ``four_low_ranks``; no-trump has no Bell, so 20 less.  A card serves one meld
#: (the Bell aside), and per card a set of four jacks is worth 50, four 9s under 'jass' 37.5,
#: any other set of four 25 and a run at most 20 (five for 100); the Bell (20) is one pair
#: of cards in one hand.  So 16 cards hold at most 4 x 50 + 12 x 25 + 20 = 520, and under
#: 'jass' 4 x 50 + 4 x 37.5 + 8 x 25 + 20 = 570, which J J J J A A A A beside
#: K K K K Q Q Q Q with the Bell (J J J J 9 9 9 9 under 'jass') reach.
HAND_MELD_MAX = {"set_of_three": 520, "jass": 570}
#: The most trick-meld points one team can win in a round (every trick, both contract
#: kinds), by ``four_low_ranks``: the best split of the 32 cards into 8 tricks under the
#: layout's trick-meld values, found by an exhaustive search over the tricks' ranks (the Bell
#: included; it never adds, as a trick holding K and Q of trump breaks the sets of four
#: kings and queens).  Reached by the sets of J, A, K, Q and four runs 10 9 8 7; under
#: 'jass' by a set of four of every rank (four 8s and four 7s count a set of three, 20).
TRICK_MELD_MAX = {"set_of_three": 700, "jass": 790}


def _tens(x: np.ndarray) -> np.ndarray:
    """Scratch the last digit: divide by ten, truncating toward zero."""
    return np.trunc(x / 10).astype(np.int64)


def _check_meld_bounds(frame: pd.DataFrame, contracts: F.Contracts, melds: dict[str, np.ndarray],
                       four_low_ranks: str) -> None:
    """``ValueError`` naming a meld column with a value above what one team can meld in a
    round (:data:`HAND_MELD_MAX`, :data:`TRICK_MELD_MAX`), its first such row and the bound."""
    for column, values in melds.items():
        hand = "hand" in column
        top = (HAND_MELD_MAX if hand else TRICK_MELD_MAX)[four_low_ranks]
        if not values.size or values.max() <= top - (BELL if hand else 0):
            continue   # the usual case: one max() per column
        notrump = contracts.is_("notrump")
        bound = np.where(notrump, top - BELL, top) if hand else np.full(len(values), top)
        over = values > bound
        if not over.any():
            continue
        i = int(np.argmax(over))
        where = ("show in hand in a " + ("no-trump" if notrump[i] else "trump") + " round") if hand \
            else "win in tricks in a round"
        raise ValueError(
            f"clover: column {column!r} has {values[i]} (row {frame.index[i]}), above {bound[i]}, the most "
            f"meld points one team can {where} (four_low_ranks={four_low_ranks!r})")


def score_clover(game: str, frame: pd.DataFrame, rules: dict[str, Any]) -> pd.DataFrame:
    """Score Clover rounds (see the module docstring); ``rules`` already resolved."""
    n_seats, _ = F.table(game)
    contracts = F.contracts(frame, CONTRACTS, game)
    F.require(frame, ["declarer", "side_mask", "side_points", *MELD_COLUMNS], "clover scoring")
    mult = F.multiplier(frame)
    d = F.ints(frame, "declarer", 0, n_seats - 1)
    side = F.ints(frame, "side_mask", 1, 15)
    expected = (1 << d) | (1 << ((d + 2) % 4))
    if (side != expected).any():
        raise ValueError("clover: side_mask must be the declarer and the partner across (seats d and d+2)")
    pts = F.ints(frame, "side_points", -2, TOTAL_POINTS + 2)
    st, ot, sh, oh = (F.ints(frame, c, 0) for c in MELD_COLUMNS)
    _check_meld_bounds(frame, contracts, dict(zip(MELD_COLUMNS, (st, ot, sh, oh))), rules["four_low_ranks"])
    if "kitty_points" in frame.columns and (F.ints(frame, "kitty_points") != 0).any():
        raise ValueError("clover has no kitty: kitty_points must be 0")
    opp = TOTAL_POINTS - pts
    side_melds, opp_melds = st + sh, ot + oh
    made = pts > opp
    tie = side_melds == opp_melds
    both_on_tie = rules["meld_tie"] == "both"
    side_keeps = (side_melds > opp_melds) | (tie & both_on_tie)
    opp_keeps = (opp_melds > side_melds) | (tie & both_on_tie)
    side_score = np.where(made, _tens(pts) + np.where(side_keeps, _tens(side_melds), 0), 0)
    opp_made = _tens(opp) + np.where(opp_keeps, _tens(opp_melds), 0)
    defenders_keep = rules["melds_when_set"] == "defenders_keep"
    opp_set = _tens(opp) + (_tens(opp_melds) if defenders_keep else 0) + _tens(pts) + _tens(side_melds)
    opp_score = np.where(made, opp_made, opp_set)
    side_score, opp_score = side_score * mult, opp_score * mult
    on_side = F.mask_matrix(side, n_seats)
    payouts = np.where(on_side, side_score[:, None], opp_score[:, None])
    return F.result_frame(frame, payouts, {
        "made": made,
        "side_score": side_score,
        "opp_score": opp_score,
        "side_melds_kept": made & side_keeps,
        "opp_melds_kept": np.where(made, opp_keeps, defenders_keep),
    })
