"""Hearts, Spades and Oh Hell as the CardsWithCats app plays them (52 cards, four players).

Every suit ranks A K Q J 10 9 8 7 6 5 4 3 2 (high to low).

``hearts`` (game ``hearts``, contract ``hearts``)
    No trump; 13 cards each.  2♣ leads the first trick.  Hearts may not be led until a heart
    has been played (with ``queen_breaks_hearts`` also once Q♠ has been played), unless the
    leader holds only hearts.  On the first trick a player who cannot follow must play a
    card worth no points (not a heart, not Q♠) if they hold one, unless
    ``points_on_first_trick``.  Points: each heart 1, Q♠ 13 (26 in all); with
    ``jack_of_diamonds`` J♦ scores -10 and counts as a card worth no points.  Every player
    for themself wanting few points: objective ``"points"``, goal ``"min"``, side ``alone``.
``spades`` (game ``spades``, contract ``spades``)
    Spades trump; partners across; 13 cards each.  ``spade_leading``: ``'after_broken'``
    (default) -- no spade lead until a spade has been played, unless the leader holds only
    spades; ``'after_first_trick'`` -- no spade lead to the first trick (unless only spades
    are held); ``'always'``.  Objective ``"tricks"``, goal ``"max"``, side ``across``.
``ohhell`` (contracts ``clubs``, ``diamonds``, ``hearts``, ``spades``, ``notrump``)
    The named suit is trump (``notrump``: ``trump=False``); ``hand_size`` cards each (1..13,
    default 10), the undealt cards form the kitty.  No lead restrictions.  Objective
    ``"tricks"``, goal ``"max"``, side ``alone`` (the paranoid reduction).

Choices where the texts are silent
----------------------------------
* Hearts: the first-trick rule binds only players who cannot follow clubs (RULINGS); the
  leader of a later trick may lead Q♠ at any time.
* Hearts: only hearts are barred from the lead; Q♠ may always be led, so before hearts
  are broken a leader holding hearts and Q♠ only must lead Q♠.
* Spades ``'after_first_trick'``: the ban covers the first trick's lead only, whatever has
  been played.
* Oh Hell: no restriction on leading trump (the app has none).
* Which seat leads the first trick (2♣ holder; Spades and Oh Hell the first bidder, left of
  the dealer) is for the round engine; only the 2♣ rule is in the layout.

>>> from trickcore.games import get_game
>>> lay = get_game("hearts").layout("hearts")
>>> lay.legal_moves("2♣ A♥ Q♠", trick_index=0)
CardSet('2♣')
>>> lay.legal_moves("A♥ Q♠ 4♦", led="3♣", trick_index=0)   # safe first trick
CardSet('4♦')
>>> lay.legal_moves("A♥ 4♦", trick_index=3, played="2♣ 3♣ 4♣ 5♣")
CardSet('4♦')
>>> get_game("ohhell").layout("notrump", hand_size=3).kitty_size
40
"""

from __future__ import annotations

from typing import Any

from ..cards import DECK52, CardSet
from ..layout import Layout, across, alone
from .base import Game, RuleOption, suit_cards

__all__ = [
    "HEARTS",
    "SPADES",
    "OHHELL",
    "CardsWithCatsGame",
    "RANK_ORDER",
    "HEARTS_POINTS",
    "JACK_OF_DIAMONDS_POINTS",
    "HEARTS_FIRST_LEAD",
    "OHHELL_CONTRACTS",
]

RANK_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
"""Rank order of every suit, high to low."""
HEARTS_POINTS = {**{f"{r}♥": 1 for r in RANK_ORDER}, "Q♠": 13}
"""Hearts penalty points: each heart 1, Q♠ 13 (26 in all)."""
JACK_OF_DIAMONDS_POINTS = {"J♦": -10}
"""With ``jack_of_diamonds=True``: J♦ scores -10 for its taker."""
HEARTS_FIRST_LEAD = "2♣"
"""The card its holder must lead to the first trick of Hearts."""
OHHELL_CONTRACTS = ("clubs", "diamonds", "hearts", "spades", "notrump")
"""Oh Hell contract ids: the trump suit, or none."""

_NAMES = ("clubs", "diamonds", "hearts", "spades")
_LETTERS = dict(zip(_NAMES, "CDHS"))

HEARTS_OPTIONS = {
    o.name: o
    for o in (
        RuleOption(
            "jack_of_diamonds", False, (False, True),
            "Text: 'J♦ is -10 points: If enabled, the player who takes the jack of diamonds scores "
            "-10 points'. RULINGS: 'J♦ under the -10 option counts as no points' on the first trick.",
            affects_layout=True,
        ),
        RuleOption(
            "queen_breaks_hearts", False, (False, True),
            "Text: 'If this option is enabled, playing the queen of spades also allows hearts to be "
            "led in subsequent tricks.'",
            affects_layout=True,
        ),
        RuleOption(
            "points_on_first_trick", False, (False, True),
            "Text: 'Normally, points (hearts and the queen of spades) cannot be played on the first "
            "trick ... If this option is enabled, they can be.'",
            affects_layout=True,
        ),
        RuleOption(
            "passing", "cycle", ("cycle", "none"),
            "RULINGS: 'Passing cycles left, right, across, none.' 'none': no passing.",
        ),
        RuleOption(
            "target", 100, range(1, 1001),
            "Text: 'A match ... ends when one player reaches 100 points.'",
        ),
    )
}
"""Hearts' rule options (the first three change the layout)."""

SPADES_OPTIONS = {
    o.name: o
    for o in (
        RuleOption(
            "spade_leading", "after_broken", ("after_broken", "after_first_trick", "always"),
            "RULINGS: 'Spade leading: always, after the first trick, or after broken (default).'",
            affects_layout=True,
        ),
        RuleOption(
            "sandbags", True, (True, False),
            "RULINGS: 'Bags: overtricks score 1 each; when the running total's units digit rolls "
            "past 9 the team loses 110.' False: overtricks score nothing.",
        ),
        RuleOption("target", 500, range(1, 10001), "Text: 'The goal is to reach 500 points'."),
    )
}
"""Spades' rule options (``spade_leading`` changes the layout)."""

OHHELL_OPTIONS = {
    o.name: o
    for o in (
        RuleOption(
            "hand_size", 10, range(1, 14),
            "Cards per player this round (the sequence starts at ten); the undealt cards form "
            "the kitty.",
            affects_layout=True,
        ),
        RuleOption(
            "no_equal_total", False, (False, True),
            "RULINGS: 'With \"total bids can't equal tricks\" the dealer, bidding last, may not "
            "make the sum equal the number of tricks.'",
        ),
        RuleOption(
            "trump_card", "last_dealt", ("last_dealt", "next_card"),
            "Text: 'by default the suit of the last card dealt is trump'; 'next_card': the next "
            "card after all hands are dealt (no trump if none is left).",
        ),
        RuleOption(
            "sequence", "10-1-10", ("10-1-10", "always_13"),
            "RULINGS: 'hand sizes 10 ... 1 ... 10 by default'; 'always_13': 13 cards every round, "
            "play to the target.",
        ),
        RuleOption(
            "trick_points", "always", ("always", "exact_only", "never"),
            "Text: 'Score 1 point per trick: ... always, never, or only when they make their exact "
            "bid' (default always).",
        ),
        RuleOption("target", 100, range(1, 1001), "Text: 'If \"Always 13\", the match lasts until "
                   "one player reaches 100 points'."),
    )
}
"""Oh Hell's rule options (``hand_size`` changes the layout)."""


def _natural_suits(deck):
    return tuple(suit_cards(deck, _LETTERS[n], RANK_ORDER) for n in _NAMES)


class CardsWithCatsGame(Game):
    """Hearts, Spades or Oh Hell (see the module docstring)."""

    def _build_layout(self, contract: str, rules: dict[str, Any]) -> Layout:
        suits = _natural_suits(self.deck)
        common = dict(game=self.id, contract=contract, rules=self._layout_rules(rules))
        if self.id == "hearts":
            hearts = CardSet(suits[2])
            qs = CardSet.parse("Q♠")
            points = dict(HEARTS_POINTS)
            if rules["jack_of_diamonds"]:
                points.update(JACK_OF_DIAMONDS_POINTS)
            return Layout(
                n_seats=4, hand_size=13, kitty_size=0, suits=suits, suit_names=_NAMES, trump=False,
                points=points, objective="points", goal="min", side_rule=alone,
                lead_restricted=hearts,
                breakers=hearts | qs if rules["queen_breaks_hearts"] else hearts,
                first_lead=HEARTS_FIRST_LEAD,
                first_trick_forbidden=CardSet() if rules["points_on_first_trick"] else hearts | qs,
                **common,
            )
        if self.id == "spades":
            spades = CardSet(suits[3])
            leading = rules["spade_leading"]
            return Layout(
                n_seats=4, hand_size=13, kitty_size=0, suits=suits, trump=True,
                suit_names=("clubs", "diamonds", "hearts", "trump"),
                objective="tricks", goal="max", side_rule=across,
                lead_restricted=CardSet() if leading == "always" else spades,
                breakers=spades if leading == "after_broken" else CardSet(),
                unlock_trick=1 if leading == "after_first_trick" else 127,
                **common,
            )
        # Oh Hell: the trump suit goes last.
        h = rules["hand_size"]
        if contract == "notrump":
            ordered, names, trump = suits, _NAMES, False
        else:
            i = _NAMES.index(contract)
            ordered = (*suits[:i], *suits[i + 1:], suits[i])
            names = (*_NAMES[:i], *_NAMES[i + 1:], "trump")
            trump = True
        return Layout(
            n_seats=4, hand_size=h, kitty_size=52 - 4 * h, suits=ordered, suit_names=names,
            trump=trump, objective="tricks", goal="max", side_rule=alone, **common,
        )


HEARTS = CardsWithCatsGame(
    id="hearts", title="Hearts (CardsWithCats)", n_seats=4, hand_size=13, kitty_size=0,
    deck=DECK52, contracts=("hearts",), options=HEARTS_OPTIONS,
)
"""Hearts."""
SPADES = CardsWithCatsGame(
    id="spades", title="Spades (CardsWithCats)", n_seats=4, hand_size=13, kitty_size=0,
    deck=DECK52, contracts=("spades",), options=SPADES_OPTIONS,
)
"""Spades."""
OHHELL = CardsWithCatsGame(
    id="ohhell", title="Oh Hell (CardsWithCats)", n_seats=4, hand_size=10, kitty_size=12,
    deck=DECK52, contracts=OHHELL_CONTRACTS, options=OHHELL_OPTIONS,
)
"""Oh Hell (``hand_size``/``kitty_size`` here are the defaults; see the ``hand_size`` option)."""
