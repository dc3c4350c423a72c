"""Vectorised scoring of finished rounds and solved deals, and match totals.

Every game's scoring is a function of the columns of a pandas DataFrame (one row per round
or per solved deal), so re-scoring a million rows under another rule option is a matter of
numpy array operations, never a replay.  Double-dummy results give only the declarer
side's totals, so games with a declaring side score from *side-level* columns
(``side_mask``, ``side_points``, ``side_tricks``, ``kitty_points`` …); games or contracts
without one score from per-seat columns (``points_{s}``, ``tricks_{s}``, ``bid_{s}`` …).
Each game module documents its input columns, its rule options and every interpretation of
the rule texts:

=============================  ==============================================
game id                        module
=============================  ==============================================
``goathead3``, ``goathead4``   :mod:`trickcore.scoring.goathead`
``clover``                     :mod:`trickcore.scoring.clover` (hand melds:
                               :mod:`trickcore.scoring.melds`)
``gamut``                      :mod:`trickcore.scoring.gamut`
``sheepshead``                 :mod:`trickcore.scoring.sheepshead`
``hearts``                     :mod:`trickcore.scoring.hearts`
``spades``                     :mod:`trickcore.scoring.spades`
``ohhell``                     :mod:`trickcore.scoring.ohhell`
=============================  ==============================================

:func:`score` returns ``payout_0 … payout_{n-1}`` (float64, per seat, on the input's index),
``made`` (nullable boolean: the declarer's contract made, ``<NA>`` where the round has no
declarer) and the game's extras.  Payouts are what each seat adds to its match score; for
Hearts that is penalty points (lower is better).  :func:`match_totals` accumulates rounds
into match scores and decides when a match ends and who wins.

Examples
--------
>>> import pandas as pd
>>> from trickcore.scoring import score
>>> rounds = pd.DataFrame({"contract": ["clubs"], "declarer": [1], "side_mask": [2],
...     "side_points": [85], "kitty_points": [7], "side_tricks": [5], "exchanged": [True]})
>>> score("goathead3", rounds)[["payout_0", "payout_1", "payout_2", "made", "stake"]]
   payout_0  payout_1  payout_2  made  stake
0      -2.0       4.0      -2.0  True      2
>>> score("goathead3", rounds, {"kitty_points": "nonsense"})
Traceback (most recent call last):
  ...
ValueError: rule option 'kitty_points' cannot be 'nonsense'; valid values: 'declarer', 'if_exchanged'
>>> score("goathead3", rounds.drop(columns=["side_points"]))
Traceback (most recent call last):
  ...
ValueError: missing column(s) side_points (needed for goathead contracts with a declarer)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from . import _frame as F
from .clover import score_clover
from .gamut import score_gamut
from .goathead import payout_cuts_goathead, score_goathead
from .hearts import score_hearts
from .match import match_totals
from .melds import hand_melds, hand_melds_batch
from .ohhell import score_ohhell
from .sheepshead import payout_cuts_sheepshead, score_sheepshead
from .spades import score_spades

__all__ = ["score", "payout_cuts", "match_totals", "hand_melds", "hand_melds_batch", "SCORERS", "PAYOUT_CUTS"]

SCORERS = {
    "goathead3": score_goathead,
    "goathead4": score_goathead,
    "clover": score_clover,
    "gamut": score_gamut,
    "sheepshead": score_sheepshead,
    "hearts": score_hearts,
    "spades": score_spades,
    "ohhell": score_ohhell,
}

#: Games whose scorers say where their payouts change (:func:`payout_cuts`).
PAYOUT_CUTS = {
    "goathead3": payout_cuts_goathead,
    "goathead4": payout_cuts_goathead,
    "sheepshead": payout_cuts_sheepshead,
}


def score(game: Any, frame: pd.DataFrame | Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Score every row of ``frame`` as a finished round of ``game``.

    Parameters
    ----------
    game : str or Game
        A game id (``goathead3 goathead4 clover gamut sheepshead hearts spades ohhell``).
    frame : pandas.DataFrame or mapping
        One row per round / solved deal with the columns the game's module documents;
        contracts may differ from row to row.  A mapping of column names to 1-d arrays
        (scalars: constant columns) is read the same way without building a DataFrame.
    rules : mapping, optional
        The game's rule options (defaults: the rulings); unknown names or values raise
        ``ValueError``.

    Returns
    -------
    pandas.DataFrame
        ``payout_0 … payout_{n-1}``, ``made`` and the game's extras, on ``frame``'s index.

    Raises
    ------
    ValueError
        Unknown game, contract or rule option; a missing column (named); values out of range.
    """
    gid = F.check_game(game)
    full = F.resolve_rules(gid, rules)
    frame = F.check_frame(frame)
    return SCORERS[gid](gid, frame, full)


def payout_cuts(game: Any, frame: pd.DataFrame | Mapping[str, Any], rules: Mapping[str, Any] | None = None):
    """The ``side_points`` values where the payout of each row of ``frame`` can change.

    ``int64[rows, k]``: between two consecutive cuts :func:`score` gives the same payouts,
    ``made`` and stake, so a double-dummy solve only needs the band of the value between
    cuts (``trickcore.solve_many(cuts=...)``, ``analysis.simulate(policy="dd_payout")``).
    The side's trick count matters to such a scorer only as "every trick", the same as
    every point in play, or "no trick", the same as no point (Goathead, whose cards all
    carry points), or not at all (Sheepshead reads its table by points): a band decides
    it, so no line of play is needed.  The columns needed are the game module's
    (Goathead: ``contract``, ``kitty_points``, ``exchanged``; Sheepshead: ``contract``,
    ``kitty_points``).

    >>> import pandas as pd
    >>> f = pd.DataFrame({"contract": ["court"], "kitty_points": [0], "exchanged": [True]})
    >>> payout_cuts("goathead3", f).tolist()
    [[1, 31, 61, 90, 120]]
    >>> payout_cuts("hearts", f)
    Traceback (most recent call last):
      ...
    ValueError: payout cuts are defined for goathead3, goathead4, sheepshead, not hearts
    """
    gid = F.check_game(game)
    if gid not in PAYOUT_CUTS:
        raise ValueError(f"payout cuts are defined for {', '.join(PAYOUT_CUTS)}, not {gid}")
    return PAYOUT_CUTS[gid](gid, F.check_frame(frame), F.resolve_rules(gid, rules))
