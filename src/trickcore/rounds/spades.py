"""Spades rounds (CardsWithCats rules): bids from the dealer's left, nil, first bidder leads.

Bids 0–13 (0 is nil), one each in turn from the dealer's left; that first bidder leads
the first trick.  Partners sit across (seats 0 & 2 against 1 & 3).  The layout enforces
the ``spade_leading`` option.  Scoring frame: ``bid_{s}``, ``tricks_{s}``; bags and the
running totals are the match helpers' business.

>>> from trickcore.rounds import start_round
>>> r = start_round("spades", seed=2, dealer=3)
>>> r.pending.seat, r.pending.legal[:3]
(0, (0, 1, 2))
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .state import Decision, RoundState

__all__ = ["SpadesRound"]


class SpadesRound(RoundState):
    """One round of Spades; see the module docstring."""

    def flow(self) -> Iterator[Decision]:
        self.deal()
        self.set_contract("spades", None)
        self.bid_of = [0] * self.n
        first = self.left(self.dealer)
        for s in self.order_from(first):
            b = yield Decision(s, "bid", tuple(range(0, self.game.hand_size + 1)), phase="bid")
            self.bid_of[s] = b
            self.announce(s, "bid", b)
        yield from self.play_tricks(first)

    def frame(self) -> dict[str, Any]:
        f = self.base_frame()
        for s in range(self.n):
            f[f"bid_{s}"] = self.bid_of[s]
        return f
