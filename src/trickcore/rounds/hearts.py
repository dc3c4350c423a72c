"""Hearts rounds (CardsWithCats rules): passing, 2♣ leads, points per the options.

* Passing (option ``passing``): ``'cycle'`` passes three cards left, right, across, then
  none, by round index; ``'none'`` never passes.  Every seat chooses before any receives.
* The holder of 2♣ leads it; the layout enforces the breaking and first-trick rules
  (``queen_breaks_hearts``, ``points_on_first_trick``, ``jack_of_diamonds``).
* Scoring frame: ``points_{s}`` (penalty points incl. J♦ −10 under the option),
  ``hearts_{s}``, ``queen_{s}``, ``jack_{s}``, ``tricks_{s}``.

>>> from trickcore.rounds.hearts import pass_direction
>>> [pass_direction(i, "cycle") for i in range(5)]
['left', 'right', 'across', 'none', 'left']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..cards import Card
from .state import Decision, RoundState

__all__ = ["HeartsRound", "pass_direction"]

_OFFSETS = {"left": 1, "right": -1, "across": 2}


def pass_direction(round_index: int, passing: str = "cycle") -> str:
    """``'left'``, ``'right'``, ``'across'`` or ``'none'`` for a round of a match."""
    if passing == "none":
        return "none"
    return ("left", "right", "across", "none")[round_index % 4]


class HeartsRound(RoundState):
    """One round of Hearts; see the module docstring."""

    def flow(self) -> Iterator[Decision]:
        self.deal()
        self.set_contract("hearts", None)
        direction = pass_direction(self.round_index, self.rules.get("passing", "cycle"))
        if direction != "none":
            k = _OFFSETS[direction]
            targets = {s: [self.left(s, k)] * 3 for s in range(self.n)}
            yield from self.pass_round(range(self.n), targets, 3, f"pass_{direction}")
        self.extra["passing"] = direction
        two = Card.parse("2C")
        leader = next(s for s in range(self.n) if two in self.hands[s])
        yield from self.play_tricks(leader)

    def frame(self) -> dict[str, Any]:
        f = self.base_frame()
        qs, jd = Card.parse("QS"), Card.parse("JD")
        for s in range(self.n):
            won = self.cards_won(s)
            f[f"hearts_{s}"] = len(won.suit("H"))
            f[f"queen_{s}"] = int(qs in won)
            f[f"jack_{s}"] = int(jd in won)
        return f

