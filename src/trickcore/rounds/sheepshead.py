"""Sheepshead rounds (five players): pick or pass, blitz, bury, partner call, crack, play.

Phases, in this order:

1. Pick or pass from the dealer's left (``pick_or_pass``).  If all pass, option
   ``no_pick``: ``'dealer_picks'`` (the dealer must pick), ``'redeal'`` (the hand is thrown
   in, the deal passes on), ``'doubler'`` (thrown in; the match doubles the next hand,
   consecutive doublers multiply), ``'leaster'`` (play a leaster: fewest points wins).
2. Blitz (option ``blitz``), before the picker looks at the blind: the picker holding
   both black queens may announce a blitz; then any player holding both red queens, from
   the picker on, a red blitz (``bid``, phases ``"blitz"``/``"red_blitz"``).  Each ×2; the
   queens become known to everybody.
3. The picker takes the blind and names the partner (``call``): option ``partner='jd'`` —
   J♦ (contract ``jd``); a picker holding J♦ plays alone silently (``jd_picker='alone'``,
   the contract stays ``jd``; with ``announce_alone`` it becomes ``alone``) or, with
   ``'call_jack'``, calls a jack they lack (``jc``/``js``/``jh``) or ``'alone'``.
   ``partner='called_ace'``: a fail ace the picker lacks in a fail suit they hold
   (``called_ace_<suit>``), a fail ten when they hold all three fail aces
   (``called_ten_<suit>``), or ``'alone'``.
4. The picker buries two cards (``exchange``, ``count=2``); with a called suit the picker
   must keep a card of it in hand.
5. Crack (option ``crack``): each player after the picker up to the dealer (those who had
   no chance to pick) may crack (×2); after a crack the picker, then the partner, may
   re-crack (×2 again: ×4 in all).  Choice where the text is silent: crack is offered after
   the call and the bury, so the crackers know the call.  Only declared blitzes and
   re-cracks are announced; a declined one stays private (asking is not public).
6. The dealer's left leads.  Hidden partners stay hidden: the observation names the
   partner card, never its holder.

Scoring frame: ``partner`` (seat, −1 alone), ``side_points``, ``kitty_points`` (the buried
cards; the blind for a leaster), ``multiplier``; leasters ``points_{s}``, ``tricks_{s}``,
``last_trick_winner``.

>>> from trickcore.rounds import start_round
>>> r = start_round("sheepshead", seed=1)
>>> r.pending.kind, r.pending.seat
('pick_or_pass', 1)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..cards import Card, CardSet
from .state import Decision, RoundState

__all__ = ["SheepsheadRound"]

_FAIL = {"clubs": "C", "spades": "S", "hearts": "H"}
_JACK_CONTRACT = {"jc": "JC", "js": "JS", "jh": "JH", "jd": "JD"}


def partner_card(contract: str) -> Card | None:
    """The card whose holder partners the picker under ``contract`` (None: alone/leaster)."""
    if contract in _JACK_CONTRACT:
        return Card.parse(_JACK_CONTRACT[contract])
    if contract.startswith("called_ace_"):
        return Card.make("A", _FAIL[contract[11:]])
    if contract.startswith("called_ten_"):
        return Card.make("10", _FAIL[contract[11:]])
    return None


class SheepsheadRound(RoundState):
    """One Sheepshead hand; see the module docstring."""

    def flow(self) -> Iterator[Decision]:
        self.deal()
        self.partner = -1
        blind = CardSet(self.kitty)
        picker = None
        for s in self.order_from(self.left(self.dealer)):
            p = yield Decision(s, "pick_or_pass", (True, False), phase="pick")
            self.announce(s, "pick", p)
            if p:
                picker = s
                break
        if picker is None:
            rule = self.rules.get("no_pick", "dealer_picks")
            if rule in ("redeal", "doubler"):
                self.thrown_in = True
                self.announce(self.dealer, "thrown_in", rule)
                return
            if rule == "leaster":
                self.set_contract("leaster", None)
                self.blind_points = int(sum(int(self.layout.point_table()[c]) for c in blind))
                yield from self.play_tricks(self.left(self.dealer))
                return
            picker = self.dealer
            self.announce(picker, "forced_pick", True)
        self.declarer = picker
        if self.rules.get("blitz", True):
            qc, qs, qh, qd = (Card.parse(x) for x in ("QC", "QS", "QH", "QD"))
            if qc in self.hands[picker] and qs in self.hands[picker]:
                a = yield Decision(picker, "bid", ("no", "blitz"), phase="blitz")
                if a == "blitz":  # a declined blitz is not announced: it would show the queens
                    self.announce(picker, "blitz", a)
                    self.multiplier *= 2
                    self.reveal(picker, CardSet([qc, qs]))
            for s in self.order_from(picker):
                if qh in self.hands[s] and qd in self.hands[s]:
                    a = yield Decision(s, "bid", ("no", "red_blitz"), phase="red_blitz")
                    if a == "red_blitz":
                        self.announce(s, "red_blitz", a)
                        self.multiplier *= 2
                        self.reveal(s, CardSet([qh, qd]))
        self.hands[picker] = self.hands[picker] | self.kitty
        self.kitty = CardSet()
        hand = self.hands[picker]
        jd = Card.parse("JD")
        if self.rules.get("partner", "jd") == "jd":
            if jd in hand and self.rules.get("jd_picker", "alone") == "call_jack":
                legal = tuple(c for c in ("jc", "js", "jh") if Card.parse(_JACK_CONTRACT[c]) not in hand) + ("alone",)
                contract = yield Decision(picker, "call", legal, phase="call")
            elif jd in hand and self.rules.get("announce_alone", False):
                contract = "alone"
            else:
                contract = "jd"
        else:
            aces = [n for n, s in _FAIL.items() if Card.make("A", s) in hand]
            rank = "10" if len(aces) == 3 else "A"
            word = "ten" if rank == "10" else "ace"
            legal = tuple(
                f"called_{word}_{n}" for n, s in _FAIL.items()
                if Card.make(rank, s) not in hand and self._fail_cards(hand, s)
            ) + ("alone",)
            contract = yield Decision(picker, "call", legal, phase="call")
        self.announce(picker, "call", contract)
        called_suit = _FAIL[contract[11:]] if contract.startswith("called_") else None

        def keeps_called(items: tuple) -> str | None:
            if called_suit is None:
                return None
            rest = self.hands[picker] - CardSet(items)
            if not self._fail_cards(rest, called_suit):
                return f"the picker must keep a card of the called suit {called_suit}"
            return None

        bury = yield Decision(picker, "exchange", tuple(self.hands[picker].cards_high_first()), count=2,
                              phase="bury", check=keeps_called)
        self.kitty = CardSet(bury)
        self.hands[picker] = self.hands[picker] - self.kitty
        self.kitty_known[picker] = CardSet(self.kitty)
        self.forget(picker)  # a revealed (blitz) queen may have been buried
        self.set_contract(contract, picker)
        pc = partner_card(contract)
        if pc is not None:
            self.partner_cards = CardSet([pc])
            holder = [s for s in range(self.n) if pc in self.hands[s]]
            self.partner = holder[0] if holder and holder[0] != picker else -1
        self.side_mask = (1 << picker) | ((1 << self.partner) if self.partner >= 0 else 0)
        if self.rules.get("crack", True):
            after = []
            s = self.left(picker)
            while s != self.left(self.dealer):
                after.append(s)
                s = self.left(s)
            for s in after:
                a = yield Decision(s, "bid", ("no", "crack"), phase="crack")
                self.announce(s, "crack", a)
                if a == "crack":
                    self.multiplier *= 2
                    for r in [picker] + ([self.partner] if self.partner >= 0 else []):
                        b = yield Decision(r, "bid", ("no", "recrack"), phase="recrack")
                        if b == "recrack":  # a partner's silent "no" must not unmask them
                            self.announce(r, "recrack", b)
                            self.multiplier *= 2
                            break
                    break
        yield from self.play_tricks(self.left(self.dealer))

    def _fail_cards(self, hand: CardSet, suit: str) -> CardSet:
        """Cards of fail suit ``suit`` in ``hand`` (queens and jacks are trump)."""
        return CardSet(c for c in hand.suit(suit) if c.rank_name not in ("Q", "J"))

    def frame(self) -> dict[str, Any]:
        f = self.base_frame()
        table = self.layout.point_table()
        if self.contract == "leaster":
            f["declarer"] = -1
            f["kitty_points"] = self.blind_points
            f["partner"] = -1
        else:
            f["kitty_points"] = int(sum(int(table[c]) for c in self.kitty))
            f["partner"] = self.partner
        self.extra["partner"] = f["partner"]
        return f
