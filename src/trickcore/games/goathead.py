"""Goathead for three and four players (20-card deck A 10 K Q J).

Contracts (low to high in the bidding): ``diamonds`` < ``hearts`` < ``nil`` < ``spades`` <
``clubs`` < ``court``; ``leasters`` is played when everybody passes.

* Suit contracts: trump J♣ J♠ J♥ J♦ then A 10 K Q of the named suit; fail suits A 10 K Q.
* Court and leasters: the four jacks alone are trump; fail suits A 10 K Q (RULINGS: the
  text's "A-10-K-9-8-7" for leasters belongs to a 32-card deck).
* Nil: no trump, every suit A 10 K Q J; the declarer must take no trick, and play stops at
  the declarer's first trick (objective ``"nil"``).
* Card points A 11, 10 10, K 4, Q 3, J 2: 120 in all.

Sides.  Three players: the declarer alone against two; leasters every seat for itself
(the paranoid reduction: the analysed seat against the others, wanting few points).  Four
players, suit contracts: the holders of J♣ and J♠ are partners; a player holding both
partners the holder of the called suit's queen, or plays alone if they hold it too or it
lies in the kitty; if a black jack lies in the kitty, the holder of the other one partners
the holder of the called queen (alone if none).  If both black jacks lie in the kitty the
declarer plays alone (the rulings are silent; this is the family's usual reading).  The
declarer's side is whichever side the declarer is on.  Court and Nil: alone against three.

Rule options (:data:`GOATHEAD_OPTIONS`, the same for three and four players; none changes a
layout): ``kitty_points``, ``no_exchange_bonus``, ``leasters_tie``, ``steal``,
``raise_without_exchange``, ``rounds``.

Choices where the texts are silent
----------------------------------
* Both black jacks in the kitty (four players): no jack partnership exists; the declarer
  plays alone against three.
* Leasters in the four-player game: every seat for itself, like three players.
* Nil: the deck keeps its card points (120) although only tricks matter; the objective
  ``"nil"`` tells the solver to stop at the declarer's first trick.
* Raising without the kitty (three players): the text lets the declarer raise "after
  exchanging cards" and says nothing of a declarer who declines the kitty.  By default they
  may raise all the same, as a Skat hand player may announce a higher game (option
  ``raise_without_exchange=True``); with False a declarer who does not take the kitty plays
  the bid contract.  The four-player game has no raise step (the kitty goes round and the
  others swap knowing the trumps), so the option changes nothing there.

>>> g = get_game("goathead4")
>>> lay = g.layout("clubs")
>>> import numpy as np
>>> from trickcore.cards import CardSet
>>> hands = [CardSet.parse(h).mask for h in ("JC QH", "JS KD", "QC AD", "AC 10C")]
>>> bin(int(lay.sides(np.array(hands, dtype=np.uint64), 2)))   # declarer 2 faces seats 0 and 1
'0b1100'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import DECK20, Card
from ..layout import Layout, alone
from .base import Game, RuleOption, suit_cards

__all__ = ["GOATHEAD3", "GOATHEAD4", "GoatheadGame", "GOATHEAD_POINTS", "GOATHEAD_OPTIONS"]

GOATHEAD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
"""Card points by rank, the same in every suit and contract (120 in the deck)."""
SUIT_CONTRACTS = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
FAIL_ORDER = ("A", "10", "K", "Q")
NIL_ORDER = ("A", "10", "K", "Q", "J")
JACKS_HIGH_FIRST = ("C", "S", "H", "D")  # J♣ J♠ J♥ J♦


def _jacks_low_to_high() -> tuple[Card, ...]:
    return tuple(Card.make("J", s) for s in reversed(JACKS_HIGH_FIRST))


def _black_jack_side_rule(called_suit: str):
    """Goathead 4p partnership: black jacks, else the called suit's queen (see module doc)."""
    jc, js, q = (np.uint64(1) << np.uint64(Card.make(r, s)) for r, s in (("J", "C"), ("J", "S"), ("Q", called_suit)))

    def holder(hands: np.ndarray, bit: np.uint64) -> np.ndarray:
        held = (hands & bit) != 0
        return np.where(held.any(axis=1), held.argmax(axis=1), -1)

    def rule(hands: np.ndarray, declarer: np.ndarray) -> np.ndarray:
        hands = np.asarray(hands, dtype=np.uint64)
        n_seats = hands.shape[1]
        hc, hs, hq = holder(hands, jc), holder(hands, js), holder(hands, q)
        one = np.int64(1)
        both_held_apart = (hc >= 0) & (hs >= 0) & (hc != hs)
        # The lone black-jack holder (both in one hand, or the other jack in the kitty).
        lone = np.where(hc >= 0, hc, hs)
        queen_partner = (hq >= 0) & (hq != lone)
        team = np.where(
            both_held_apart,
            (one << hc.clip(0)) | (one << hs.clip(0)),
            np.where(lone >= 0, (one << lone.clip(0)) | np.where(queen_partner, one << hq.clip(0), 0), 0),
        )
        d = np.asarray(declarer, dtype=np.int64)
        everyone = (one << n_seats) - 1
        on_team = (team >> d) & 1 == 1
        side = np.where(team == 0, one << d, np.where(on_team, team, everyone & ~team))
        return side.astype(np.uint8)

    rule.__name__ = f"black_jacks_or_Q{called_suit}"
    return rule


class GoatheadGame(Game):
    """Goathead (see the module docstring for the contracts and sides)."""

    def _build_layout(self, contract: str, rules: dict[str, Any]) -> Layout:
        points = {c: GOATHEAD_POINTS[c.rank_name] for c in self.deck}
        common = dict(
            game=self.id,
            contract=contract,
            n_seats=self.n_seats,
            hand_size=self.hand_size,
            kitty_size=self.kitty_size,
            points=points,
            rules=self._layout_rules(rules),
        )
        if contract == "nil":
            suits = [suit_cards(self.deck, s, NIL_ORDER) for s in "CDHS"]
            return Layout(
                suits=tuple(suits), suit_names=("clubs", "diamonds", "hearts", "spades"),
                trump=False, objective="nil", goal="min", side_rule=alone, **common,
            )
        if contract in ("court", "leasters"):
            fails = [suit_cards(self.deck, s, FAIL_ORDER) for s in "CDHS"]
            return Layout(
                suits=(*fails, _jacks_low_to_high()),
                suit_names=("clubs", "diamonds", "hearts", "spades", "trump"),
                trump=True,
                goal="min" if contract == "leasters" else "max",
                side_rule=alone,
                **common,
            )
        trump_suit = SUIT_CONTRACTS[contract]
        fail_letters = [s for s in "CDHS" if s != trump_suit]
        fails = [suit_cards(self.deck, s, FAIL_ORDER) for s in fail_letters]
        trump = suit_cards(self.deck, trump_suit, FAIL_ORDER) + _jacks_low_to_high()
        names = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
        side_rule = alone if self.n_seats == 3 else _black_jack_side_rule(trump_suit)
        return Layout(
            suits=(*fails, trump),
            suit_names=(*(names[s] for s in fail_letters), "trump"),
            trump=True,
            side_rule=side_rule,
            **common,
        )


_CONTRACTS = ("diamonds", "hearts", "nil", "spades", "clubs", "court", "leasters")

GOATHEAD_OPTIONS = {
    o.name: o
    for o in (
        RuleOption(
            "kitty_points", "declarer", ("declarer", "if_exchanged"),
            "RULINGS: 'Kitty: its card points count for the declarer whether or not the "
            "declarer exchanged (option)'. 'if_exchanged': only when the declarer took the kitty.",
        ),
        RuleOption(
            "no_exchange_bonus", "won_or_lost", ("won_or_lost", "won_only"),
            "RULINGS: 'A declarer who does not exchange plays for one extra point of stake, won "
            "or lost (option: won only).'",
        ),
        RuleOption(
            "leasters_tie", "nobody_pays", ("nobody_pays", "split"),
            "RULINGS: 'if two tie for most or for fewest, nobody pays (option)'. 'split': the "
            "tied players share the payment.",
        ),
        RuleOption(
            "steal", True, (True, False),
            "RULINGS: 'a player whose game-point total is strictly lower than the current high "
            "bidder's may take over the current contract at the same rank.' False: no stealing.",
        ),
        RuleOption(
            "raise_without_exchange", True, (True, False),
            "Text: 'After exchanging cards, the declarer may ... choose another higher ranking "
            "contract'; silent on a declarer who declines the kitty.  True (Skat's hand game): "
            "they may raise too.  False: they play the bid contract.  Three players only (the "
            "four-player game has no raise).",
        ),
        RuleOption(
            "rounds", 15, range(1, 101),
            "Text: 'Games are played over the course of 15 rounds, or any other agreed upon number.'",
        ),
    )
}
"""Goathead's rule options (3 and 4 players); none changes a layout."""

GOATHEAD3 = GoatheadGame(
    id="goathead3", title="Goathead (3 players)", n_seats=3, hand_size=6, kitty_size=2,
    deck=DECK20, contracts=_CONTRACTS, options=GOATHEAD_OPTIONS,
)
GOATHEAD4 = GoatheadGame(
    id="goathead4", title="Goathead (4 players)", n_seats=4, hand_size=4, kitty_size=4,
    deck=DECK20, contracts=_CONTRACTS, options=GOATHEAD_OPTIONS,
)


def get_game(game_id: str) -> Game:  # for the doctest above; the registry is trickcore.games
    from . import get_game as _get

    return _get(game_id)
