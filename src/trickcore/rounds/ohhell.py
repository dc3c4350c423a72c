"""Oh Hell rounds (CardsWithCats rules): hand-size sequence, trump card, bids, play.

* Hand size of round ``i`` (:func:`hand_size_for`): with ``sequence='10-1-10'`` the
  sequence ``h, h-1, …, 1, 2, …, h`` where ``h`` is the ``hand_size`` option (10 by
  default: 19 rounds); with ``'always_13'`` every round deals 13.
* Trump (option ``trump_card``): ``'last_dealt'`` — the dealer's last card is shown and
  its suit is trump; ``'next_card'`` — the next undealt card is turned (known to all) and
  its suit is trump, no trump when no card is left.
* Bids 0…hand size from the dealer's left; with ``no_equal_total`` the dealer, bidding
  last, may not make the bids add up to the number of tricks.  The first bidder leads.
* Scoring frame: ``bid_{s}``, ``tricks_{s}``.

>>> from trickcore.rounds.ohhell import hand_size_for
>>> [hand_size_for(i, {"hand_size": 3, "sequence": "10-1-10"}) for i in range(5)]
[3, 2, 1, 2, 3]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..cards import CardSet
from .state import Decision, RoundState

__all__ = ["OhHellRound", "hand_size_for"]

_SUIT_CONTRACT = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def hand_size_for(round_index: int, rules: dict[str, Any]) -> int:
    """Cards dealt to each player in round ``round_index`` of a match."""
    if rules.get("sequence", "10-1-10") == "always_13":
        return 13
    h = int(rules.get("hand_size", 10))
    seq = list(range(h, 0, -1)) + list(range(2, h + 1))
    return seq[round_index % len(seq)]


class OhHellRound(RoundState):
    """One round of Oh Hell; see the module docstring."""

    def flow(self) -> Iterator[Decision]:
        k = hand_size_for(self.round_index, self.rules)
        self.deal(hand_size=k)
        if self.rules.get("trump_card", "last_dealt") == "last_dealt":
            self.turned = self.dealer_last_card()
            self.reveal(self.dealer, CardSet([self.turned]))
            contract = _SUIT_CONTRACT[self.turned.suit_letter]
        elif len(self.kitty):
            cards = sorted(self.kitty)
            self.turned = cards[int(self.rng.integers(len(cards)))]
            for s in range(self.n):
                self.kitty_known[s] = CardSet([self.turned])
            contract = _SUIT_CONTRACT[self.turned.suit_letter]
        else:
            contract = "notrump"
        self.set_contract(contract, None, hand_size=k)
        self.extra["hand_size"] = k
        self.bid_of = [0] * self.n
        first = self.left(self.dealer)
        total = 0
        for s in self.order_from(first):
            legal = list(range(k + 1))
            if self.rules.get("no_equal_total", False) and s == self.dealer:
                legal.remove(k - total) if 0 <= k - total <= k else None
            def why(b: Any, total: int = total) -> str:
                if b == k - total and s == self.dealer:
                    return f"no_equal_total: the dealer may not make the bids add up to {k} tricks"
                return f"a bid is a whole number of tricks from 0 to {k}"

            b = yield Decision(s, "bid", tuple(legal), phase="bid", explain=why)
            self.bid_of[s] = b
            total += b
            self.announce(s, "bid", b)
        yield from self.play_tricks(first)

    def frame(self) -> dict[str, Any]:
        f = self.base_frame()
        for s in range(self.n):
            f[f"bid_{s}"] = self.bid_of[s]
        f["hand_size"] = self.extra["hand_size"]
        return f
