"""Gamut rounds: the turned card picks the game; Hearts, Spades, Clubs, or the Diamonds choice.

* The dealer's last card is dealt face up (everybody sees it): ♥ Hearts, ♠ Spades,
  ♣ Clubs.  ♦: from the dealer, each player in turn names ``'hearts'``, ``'spades'`` or
  ``'clubs'`` or passes (``bid``, phase ``"choose_game"``); when all four pass the hand is
  thrown in and the same dealer deals again, and the next hand scores double — consecutive
  throw-ins multiply (option ``diamonds_doubling='multiply'``) or double once (``'once'``).
  The ``multiplier`` column carries it.
* Hearts: each player passes one card left and one right at once (``pass_cards``,
  ``count=2``: left first); the 9♣ holder leads it.
* Spades: bids 0–8 in turn from the dealer's left; partners across; the dealer leads.
  With ``team_bid_cap`` (default) the second partner to bid may bid only
  ``0 .. 8 - partner's bid`` (:func:`spades_legal_bids`), so a team bids at most 8.
* Clubs: from the dealer's left, each player may fold (``fold``) before the first lead;
  a folded hand scores 0 and its cards are out of play.  The dealer leads, or the first
  active player to the dealer's left.  The contract is ``clubs`` or ``clubs_k`` with ``k``
  active players.  Choice where the texts are silent (option ``last_may_fold``, default
  ``False``): the last player to decide may not fold when everybody else has (someone
  must play).  With ``last_may_fold=True`` they may; when all four fold the round is void:
  ``all_folded`` is announced, no card is played, the round is recorded as thrown in
  (payouts 0, no contract) and the deal passes left.
* Scoring frame: ``points_{s}`` (Hearts penalty points), ``hearts_{s}``, ``queen_{s}``,
  ``bid_{s}``, ``tricks_{s}``, ``folded_{s}``.

>>> from trickcore.rounds.gamut import TURNED_GAME
>>> TURNED_GAME
{'H': 'hearts', 'S': 'spades', 'C': 'clubs', 'D': None}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..cards import Card, CardSet
from .state import Decision, RoundState

__all__ = ["GamutRound", "TURNED_GAME", "spades_legal_bids"]

TURNED_GAME = {"H": "hearts", "S": "spades", "C": "clubs", "D": None}


def spades_legal_bids(partner_bid: int | None, tricks: int = 8, cap: bool = True) -> tuple[int, ...]:
    """A Gamut Spades bidder's legal bids: ``0 .. tricks``, or with ``cap`` (rule option
    ``team_bid_cap``) and the partner's bid already made, ``0 .. tricks - partner_bid``.

    >>> spades_legal_bids(None), spades_legal_bids(8), spades_legal_bids(5)
    ((0, 1, 2, 3, 4, 5, 6, 7, 8), (0,), (0, 1, 2, 3))
    >>> spades_legal_bids(8, cap=False)[-1]
    8
    """
    top = tricks - partner_bid if cap and partner_bid is not None else tricks
    return tuple(range(0, top + 1))


class GamutRound(RoundState):
    """One round of Gamut; see the module docstring."""

    def flow(self) -> Iterator[Decision]:
        self.bid_of = [0] * self.n
        self.folded = [False] * self.n
        throw_ins = 0
        while True:
            self.deal()
            self.turned = self.dealer_last_card()
            self.reveal(self.dealer, CardSet([self.turned]))
            game = TURNED_GAME[self.turned.suit_letter]
            chooser = None
            if game is None:
                for s in self.order_from(self.dealer):
                    c = yield Decision(s, "bid", ("pass", "hearts", "spades", "clubs"), phase="choose_game")
                    self.announce(s, "choose_game", c)
                    if c != "pass":
                        game, chooser = c, s
                        break
            if game is not None:
                break
            throw_ins += 1
            self.announce(self.dealer, "thrown_in", throw_ins)
            self.bids_before_redeal = list(self.bids)
            once = self.rules.get("diamonds_doubling", "multiply") == "once"
            self.multiplier = 2 if once else self.multiplier * 2
            self.known = [dict() for _ in range(self.n)]
        self.extra["gamut_game"] = game
        self.extra["throw_ins"] = throw_ins
        self.extra["chooser"] = -1 if chooser is None else chooser  # Gamut has no declarer
        if game == "hearts":
            self.set_contract("hearts", None)
            targets = {s: [self.left(s), self.left(s, -1)] for s in range(self.n)}
            yield from self.pass_round(range(self.n), targets, 2, "pass_left_right")
            nine = Card.parse("9C")
            leader = next(s for s in range(self.n) if nine in self.hands[s])
            yield from self.play_tricks(leader)
        elif game == "spades":
            self.set_contract("spades", None)
            cap = self.rules.get("team_bid_cap", True)
            made: dict[int, int] = {}
            for s in self.order_from(self.left(self.dealer)):
                partner = made.get(self.left(s, 2))
                legal = spades_legal_bids(partner, self.game.hand_size, cap)

                def why(b: Any, partner: int | None = partner, legal: tuple[int, ...] = legal) -> str:
                    if partner is not None and isinstance(b, int) and legal[-1] < b <= self.game.hand_size:
                        return (f"team_bid_cap: the partner bid {partner}, so a team's bids may add up to "
                                f"at most {self.game.hand_size}")
                    return f"a bid is a whole number of tricks from 0 to {legal[-1]}"

                b = yield Decision(s, "bid", legal, phase="bid", explain=why)
                made[s] = b
                self.bid_of[s] = b
                self.announce(s, "bid", b)
            yield from self.play_tricks(self.dealer)
        else:
            order = self.order_from(self.left(self.dealer))
            may_fold_last = self.rules.get("last_may_fold", False)
            for i, s in enumerate(order):
                last_standing = i == len(order) - 1 and all(self.folded[t] for t in order[:-1])
                legal = (False,) if last_standing and not may_fold_last else (False, True)
                f = yield Decision(s, "fold", legal, phase="fold", explain=lambda a, ls=last_standing: (
                    "last_may_fold=False: the others folded, someone must play" if ls and a is True
                    else "fold is True or False"))
                self.announce(s, "fold", f)
                if f:
                    self.folded[s] = True
                    self.kitty = self.kitty | self.hands[s]
                    for t in range(self.n):  # a folded hand's known cards are in the kitty now
                        if t != s and s in self.known[t]:
                            self.kitty_known[t] = self.kitty_known[t] | self.known[t].pop(s)
                    self.hands[s] = CardSet()
            if all(self.folded):  # only under last_may_fold: the round is void, all score 0
                self.announce(self.dealer, "all_folded", True)
                self.thrown_in = True
                return
            self.active = tuple(s for s in range(self.n) if not self.folded[s])
            k = len(self.active)
            self.set_contract("clubs" if k == self.n else f"clubs_{k}", None)
            leader = self.dealer if not self.folded[self.dealer] else self.order_from(self.left(self.dealer), self.active)[0]
            yield from self.play_tricks(leader, self.active)

    def frame(self) -> dict[str, Any]:
        f = self.base_frame()
        f["declarer"] = -1
        f["side_mask"] = 0
        f["side_points"] = 0
        f["side_tricks"] = 0
        qs = Card.parse("QS")
        for s in range(self.n):
            won = self.cards_won(s)
            f[f"hearts_{s}"] = len(won.suit("H"))
            f[f"queen_{s}"] = int(qs in won)
            f[f"bid_{s}"] = self.bid_of[s]
            f[f"folded_{s}"] = int(self.folded[s])
        return f
