"""Goathead rounds, three and four players: bidding with the steal, the kitty, partners, play.

Phases (RULINGS "Goathead"):

1. Bidding from the dealer's left, contracts low to high ``diamonds < hearts < nil <
   spades < clubs < court``.  In turn a seat names a higher contract, passes (and is out),
   or — with the ``steal`` option — says ``"steal"`` when its game-point total (the match
   score before this round) is strictly lower than the current high bidder's, taking the
   current contract at the same rank.  Bidding ends when everybody but the high bidder has
   passed; when everybody passes, *leasters* is played (no declarer, no kitty exchange).
2. Three players: the declarer may pick up the kitty (``pick_or_pass``), then buries two
   cards (``exchange``, ``count=2``), then may raise the contract (``bid``, phase
   ``"raise"``: the current contract or a higher one).  ``exchanged`` records the pick-up.
   A declarer who declines the kitty is offered the raise too (option
   ``raise_without_exchange``, default True, as a Skat hand player may announce a higher
   game); with False they play the bid contract and no ``"raise"`` decision comes.
   Four players: the kitty goes round — the declarer, then each other player to the left,
   then the dealer once more — and each may swap one card with it (``exchange``: ``None``
   or a ``(give, take)`` pair).  ``exchanged`` records whether the declarer swapped.
   There is no raise with four players (the text gives it only to the three-player
   exchange, and the others swap knowing the trumps), so ``raise_without_exchange``
   changes nothing there.
3. Four players, suit contracts: the sides follow the hands after the exchanges (the
   layout's side rule: black jacks, else the called queen).  A player holding both black
   jacks announces it (both become known to everybody).  Court and Nil: alone.
4. The dealer's left leads to the first trick, whatever the contract.  Nil stops at the
   declarer's first trick.

Choices where the texts are silent: a seat that passed may not come back into the
bidding; the raise after the exchange may name any higher contract (Nil included);
the four-player swaps are private (only the last swapper, the dealer, knows the final
kitty).

Examples
--------
>>> from trickcore.rounds import play_round
>>> from trickcore.policies import RandomPolicy
>>> rec = play_round("goathead3", [RandomPolicy(seed=s) for s in range(3)], seed=7)
>>> sum(rec.trick_counts) in (1, 2, 3, 4, 5, 6)
True
>>> abs(sum(rec.payouts)) < 1e-9
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..cards import Card, CardSet
from .state import Decision, RoundState

__all__ = ["GoatheadRound", "LADDER"]

#: Contracts a player may bid, low to high.
LADDER = ("diamonds", "hearts", "nil", "spades", "clubs", "court")
_SUIT_LETTER = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}


class GoatheadRound(RoundState):
    """One Goathead round (3 or 4 players); see the module docstring."""

    def flow(self) -> Iterator[Decision]:
        self.deal()
        steal = self.rules.get("steal", True)
        high: int | None = None
        rank = -1
        passed: set[int] = set()
        turn = self.left(self.dealer)
        while True:
            others = set(range(self.n)) - ({high} if high is not None else set())
            if passed >= others:
                break
            s, turn = turn, self.left(turn)
            if s in passed or s == high:
                continue
            legal: list[Any] = ["pass", *LADDER[rank + 1:]]
            if steal and high is not None and self.scores[s] < self.scores[high]:
                legal.append("steal")
            def why(b: Any, s: int = s, high: Any = high, rank: int = rank) -> str:
                if b == "steal":
                    if not steal:
                        return "stealing is off (rule option steal=False)"
                    if high is None:
                        return "there is no contract to steal"
                    return (f"a steal needs fewer game points than the high bidder: seat {s} has "
                            f"{self.scores[s]:g}, seat {high} has {self.scores[high]:g}")
                if b in LADDER:
                    return f"the bid must be higher than {LADDER[rank]}"
                return "not a contract of the ladder"

            bid = yield Decision(s, "bid", tuple(legal), phase="bid", explain=why)
            self.announce(s, "bid", bid)
            if bid == "pass":
                passed.add(s)
            elif bid == "steal":
                high = s
            else:
                high, rank = s, LADDER.index(bid)

        if high is None:
            yield from self._leasters()
            return
        contract = LADDER[rank]
        if self.n == 3:
            take = yield Decision(high, "pick_or_pass", (True, False), phase="kitty")
            self.announce(high, "kitty", take)
            if take:
                self.exchanged = True
                self.hands[high] = self.hands[high] | self.kitty
                hand = tuple(self.hands[high].cards_high_first())
                bury = yield Decision(high, "exchange", hand, count=2, phase="bury")
                buried = CardSet(bury)
                self.hands[high] = self.hands[high] - buried
                self.kitty = buried
                self.kitty_known[high] = buried
            if take or self.rules.get("raise_without_exchange", True):
                legal = tuple(LADDER[rank:])
                contract = yield Decision(high, "bid", legal, phase="raise")
                self.announce(high, "raise", contract)
            self.set_contract(contract, high)
            self.side_mask = 1 << high
        else:
            self.set_contract(contract, high)  # the layout tells the swappers the trumps
            order = [high, *(self.left(high, k) for k in range(1, self.n)), self.dealer]
            for i, s in enumerate(order):
                kitty = tuple(self.kitty.cards_high_first())
                pairs = tuple((g, t) for g in self.hands[s].cards_high_first() for t in kitty)
                swap = yield Decision(s, "exchange", (None, *pairs), phase="kitty_swap")
                if swap is not None:
                    self.forget(s)
                    give, take = swap
                    self.hands[s] = (self.hands[s] - CardSet([give])) | CardSet([take])
                    self.kitty = (self.kitty - CardSet([take])) | CardSet([give])
                    if s == high:
                        self.exchanged = True
                if i == len(order) - 1:
                    self.kitty_known[s] = CardSet(self.kitty)
            if contract in _SUIT_LETTER:
                jc, js = Card.parse("JC"), Card.parse("JS")
                q = Card.make("Q", _SUIT_LETTER[contract])
                self.partner_cards = CardSet([jc, js, q])
                for s in range(self.n):
                    if jc in self.hands[s] and js in self.hands[s]:
                        self.announce(s, "both_black_jacks", True)
                        self.reveal(s, CardSet([jc, js]))
                hands = np.array([[h.mask for h in self.hands]], dtype=np.uint64)
                self.side_mask = int(self.layout.sides(hands, high)[0])
            else:
                self.side_mask = 1 << high

        def nil_stop(trick: Any) -> bool:
            return contract == "nil" and trick.winner == high

        yield from self.play_tricks(self.left(self.dealer), stop=nil_stop)

    def _leasters(self) -> Iterator[Decision]:
        self.set_contract("leasters", None)
        self.side_mask = 0
        yield from self.play_tricks(self.left(self.dealer))

    def frame(self) -> dict[str, Any]:
        f = self.base_frame()
        table = self.layout.point_table()
        f["kitty_points"] = int(sum(int(table[c]) for c in self.kitty))
        f["exchanged"] = bool(self.exchanged)
        self.extra["exchanged"] = bool(self.exchanged)
        return f
