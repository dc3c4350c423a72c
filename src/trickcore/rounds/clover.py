"""Clover rounds: two bidding rounds, the partner's card pass, melds, play.

* The dealer's last card is dealt face up (everybody sees it).
* Round one, from the dealer's left: ``'play'`` (accept the turned suit as trump and
  declare) or ``'pass'`` (``bid``, phase ``"accept"``).
* Round two, if all passed: each in turn names a suit other than the turned one (option
  ``turned_suit_again``: the turned suit too), ``'notrump'`` or ``'pass'`` (phase
  ``"name"``).  With ``notrump_outbid`` (default) a no-trump call stands only if no later
  player of that round names a suit (the first such suit wins); otherwise any call ends
  the bidding.  If everybody passes again the hand is thrown in and the same dealer deals
  again (recorded as ``thrown_in`` announcements; the round goes on with the new deal).
* The declarer's partner (across) passes one card to the declarer, who passes one back
  (``pass_cards``, phases ``"to_declarer"`` and ``"to_partner"``).
* Melds in hand are declared in the first trick; every team declares all it has (the
  value is public — :func:`trickcore.scoring.melds.hand_melds` — the cards are not shown:
  a simplification, the policies do not use shown melds).  Trick melds go to the trick's
  winner's team (the layout's compiled table).  The declarer leads the first trick.
* Scoring frame: ``side_points``, ``side_trick_melds``, ``opp_trick_melds``,
  ``side_hand_melds``, ``opp_hand_melds`` (declaring team = declarer + partner).

>>> from trickcore.rounds import start_round
>>> r = start_round("clover", seed=4)
>>> r.pending.seat, r.pending.legal
(1, ('pass', 'play'))
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..cards import CardSet
from .state import Decision, RoundState

__all__ = ["CloverRound"]

_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_LETTER = {v: k for k, v in _NAMES.items()}


class CloverRound(RoundState):
    """One Clover round; see the module docstring."""

    def flow(self) -> Iterator[Decision]:
        throw_ins = 0
        while True:
            self.deal()
            self.turned = self.dealer_last_card()
            self.reveal(self.dealer, CardSet([self.turned]))
            turned = _NAMES[self.turned.suit_letter]
            contract = declarer = None
            for s in self.order_from(self.left(self.dealer)):
                a = yield Decision(s, "bid", ("pass", "play"), phase="accept")
                self.announce(s, "accept", a)
                if a == "play":
                    contract, declarer = turned, s
                    break
            if contract is None:
                again = self.rules.get("turned_suit_again", False)
                suits = tuple(n for n in _NAMES.values() if again or n != turned)
                outbid = self.rules.get("notrump_outbid", True)
                for s in self.order_from(self.left(self.dealer)):
                    legal = ("pass", *suits) if contract == "notrump" else ("pass", *suits, "notrump")
                    a = yield Decision(s, "bid", legal, phase="name")
                    self.announce(s, "name", a)
                    if a == "pass":
                        continue
                    contract, declarer = a, s
                    if a != "notrump" or not outbid:
                        break
            if contract is not None:
                break
            throw_ins += 1
            self.announce(self.dealer, "thrown_in", throw_ins)
            self.known = [dict() for _ in range(self.n)]
        self.extra["throw_ins"] = throw_ins
        self.set_contract(contract, declarer)
        partner = self.left(declarer, 2)
        self.side_mask = (1 << declarer) | (1 << partner)
        self.partner_cards = CardSet()
        yield from self.pass_round([partner], {partner: [declarer]}, 1, "to_declarer")
        yield from self.pass_round([declarer], {declarer: [partner]}, 1, "to_partner")
        from ..scoring.melds import hand_melds

        trump = _LETTER.get(contract)
        low = self.rules.get("four_low_ranks", "set_of_three")
        self.hand_meld = [int(hand_melds(self.hands[s], trump=trump, four_low_ranks=low)) for s in range(self.n)]
        for s in range(self.n):
            self.announce(s, "melds", self.hand_meld[s])
        yield from self.play_tricks(declarer)

    def frame(self) -> dict[str, Any]:
        f = self.base_frame()
        masks = np.array([CardSet(c for _, c in t.plays).mask for t in self.tricks], dtype=np.uint64)
        values = self.layout.core.trick_meld_values(masks) if len(masks) else []
        side = self.side_mask
        f["side_trick_melds"] = int(sum(int(v) for t, v in zip(self.tricks, values) if side >> t.winner & 1))
        f["opp_trick_melds"] = int(sum(int(v) for t, v in zip(self.tricks, values) if not side >> t.winner & 1))
        f["side_hand_melds"] = sum(m for s, m in enumerate(self.hand_meld) if side >> s & 1)
        f["opp_hand_melds"] = sum(m for s, m in enumerate(self.hand_meld) if not side >> s & 1)
        for k in ("side_trick_melds", "opp_trick_melds", "side_hand_melds", "opp_hand_melds"):
            self.extra[k] = f[k]
        return f
