"""Matches: rounds in a row, the dealer rotating left, until the game's end; the winner.

How each game ends (rule options in brackets):

* Goathead: a fixed number of rounds (``rounds``, 15).
* Clover: 8 or 12 rounds (``rounds``).
* Gamut: until a player reaches ``target`` (40) at the end of a round.
* Sheepshead: ``rounds`` hands actually played (10); a hand thrown in under
  ``no_pick='redeal'``/``'doubler'`` passes the deal and is not counted (a doubler makes
  the next hand count double, consecutive doublers multiply).
* Hearts: until a player's penalty points reach ``target`` (100); the lowest wins.
* Spades: until a team reaches ``target`` (500).
* Oh Hell: the hand-size sequence ``h … 1 … h`` (``h`` = ``hand_size``) or, with
  ``sequence='always_13'``, rounds of 13 until a player reaches ``target``.

Scores are the match totals of :func:`trickcore.scoring.match_totals` (the sums of the
round payouts, Spades bag penalties included; Hearts totals are penalty points, the lowest
wins).  Ties are reported as several winners.

>>> from trickcore.rounds import play_match
>>> from trickcore.policies import RandomPolicy
>>> m = play_match("goathead3", [RandomPolicy(seed=s) for s in range(3)], seed=1, rounds=2)
>>> len(m.rounds), abs(sum(m.scores)) < 1e-9
(2, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..games import get_game

__all__ = ["MatchRecord", "play_match", "match_length"]

#: A safety net against a match that never ends (e.g. endless throw-ins).
MAX_ROUNDS = 1000


@dataclass
class MatchRecord:
    """The rounds of a match, the final scores and the winner(s)."""

    game: str
    rules: dict[str, Any]
    rounds: list = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    @property
    def winner(self) -> int:
        """The winning seat (the first of several on a tie)."""
        return self.winners[0]

    def frame(self):
        """One DataFrame row per round."""
        import pandas as pd

        return pd.DataFrame([r.row() for r in self.rounds])


def match_length(game: Any, rules: dict[str, Any]) -> int | None:
    """Rounds in a fixed-length match, ``None`` for a match played to a target."""
    gid = get_game(game).id
    if gid in ("goathead3", "goathead4", "clover", "sheepshead"):
        return int(rules["rounds"])
    if gid == "ohhell" and rules.get("sequence", "10-1-10") == "10-1-10":
        return 2 * int(rules.get("hand_size", 10)) - 1
    return None


def play_match(game: Any, policies: Sequence[Any], *, seed: Any = None, first_dealer: int = 0,
               **rules: Any) -> MatchRecord:
    """Play a whole match; returns a :class:`MatchRecord` (``.frame()`` gives a DataFrame).

    Running totals, the end of a match played to a target and the winners come from
    :func:`trickcore.scoring.match_totals` (Spades bags, Hearts' lowest total, the
    Sheepshead tie-break).  Unknown rule options or values raise ``ValueError`` listing the
    valid ones.
    """
    import pandas as pd

    from ..scoring import match_totals
    from . import play_round

    g = get_game(game)
    full = g.check_rules(rules)
    n = g.n_seats
    if not hasattr(policies, "__len__") or len(policies) != n:
        got = len(policies) if hasattr(policies, "__len__") else repr(policies)
        raise ValueError(f"{g.id} needs {n} policies, one per seat; got {got}")
    if not isinstance(first_dealer, (int, np.integer)) or isinstance(first_dealer, bool) \
            or not 0 <= first_dealer < n:
        raise ValueError(f"first_dealer must be a seat 0..{n - 1}, got {first_dealer!r}")
    try:
        seeds = np.random.SeedSequence(seed)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad seed {seed!r}: {exc}") from None
    rec = MatchRecord(g.id, full)
    scored: list[dict[str, Any]] = []
    totals = None
    dealer = first_dealer % n
    multiplier = 1
    while True:
        if len(rec.rounds) >= MAX_ROUNDS:
            raise RuntimeError(f"{g.id} match did not end in {MAX_ROUNDS} rounds")
        (child,) = seeds.spawn(1)
        current = [0.0] * n if totals is None else [float(totals[f"total_{s}"]) for s in range(n)]
        r = play_round(g, policies, seed=child, dealer=dealer, round_index=len(scored),
                       scores=current, multiplier=multiplier, **full)
        rec.rounds.append(r)
        dealer = (dealer + 1) % n
        if r.thrown_in:
            if g.id == "sheepshead" and full.get("no_pick") == "doubler":
                multiplier *= 2
            continue
        multiplier = 1
        scored.append(r.scored)
        frame = pd.DataFrame(scored)
        last = match_totals(g.id, frame, full).iloc[-1]
        totals = last
        if bool(last["over"]):
            rec.winners = [s for s in range(n) if int(last["winners"]) >> s & 1]
            break
    rec.scores = [float(totals[f"total_{s}"]) for s in range(n)]
    return rec
