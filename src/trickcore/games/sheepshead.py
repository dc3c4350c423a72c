"""Sheepshead for five players: 32 cards, six each, two in the blind.

* Trumps, high to low: Q♣ Q♠ Q♥ Q♦ J♣ J♠ J♥ J♦ A♦ 10♦ K♦ 9♦ 8♦ 7♦ (14 cards; every
  diamond is trump and a trump lead counts as a diamond lead).
* Fail suits ♣ ♠ ♥, high to low: A 10 K 9 8 7.
* Card points A 11, 10 10, K 4, Q 3, J 2, 9 8 7 nothing: 120 in all.

Contracts (the picker is the declarer; objective ``"points"``):

``jd``
    The holder of J♦ partners the picker (:func:`~trickcore.layout.holder_of`); a picker
    who holds J♦ plays alone (RULINGS default ``jd_picker='alone'``).
``jc``, ``js``, ``jh``
    Option ``jd_picker='call_jack'``: a picker holding J♦ calls a jack they lack; its holder
    is the partner.
``called_ace_clubs``, ``called_ace_spades``, ``called_ace_hearts``
    Option ``partner='called_ace'``: the holder of the called fail ace is the partner and must
    play it when that suit is first led (``must_play_first``).
``called_ten_clubs``, ``called_ten_spades``, ``called_ten_hearts``
    The same with a fail ten, when the picker holds all three fail aces.
``alone``
    The picker against four.
``leaster``
    Nobody picked (option ``no_pick='leaster'``): every player for themself wanting few
    points (goal ``"min"``, the paranoid reduction); the blind goes to the last trick's
    winner (the round engine adds it).

Choices where the texts are silent
----------------------------------
* The called card's holder must play it when its suit is first led *by another player*
  (RULINGS: "when that suit is first led").  A partner who leads the called suit first may
  lead any card of it, and a partner void in a led suit may discard the called card.  Both
  are the text's silence, not a ruling; the layout field ``must_play_first`` covers only the
  following player.
* If the called card lies in the blind or was buried, or the picker holds it, the picker
  plays alone (what :func:`~trickcore.layout.holder_of` does).
* A called ten is played under the same must-play rule as a called ace (the text gives the
  ten only as the ace's stand-in).
* Leaster keeps the usual trumps and fail order (the text names no change).
* A called jack (``jc``/``js``/``jh``) carries no must-play rule.
* A leaster tie for fewest points among the players who took a trick: RULINGS names one
  winner (+4, every other −1) and is silent on a tie.  Option ``leaster_tie``:
  ``'nobody_scores'`` (default, as Goathead's ``leasters_tie``: every player 0) or
  ``'split'`` — every player not tied scores −1 and the *k* tied players share those
  5 − k units equally, (5 − k)/k each (two tied +1.5, three +2/3, four +1/4, all five 0);
  with one winner this is the ruling's +4 / −1, and every hand stays net zero.

>>> from trickcore.games import get_game
>>> lay = get_game("sheepshead").layout("called_ace_hearts")
>>> [str(c) for c in lay.suits[-1]][-4:]
['Q♦', 'Q♥', 'Q♠', 'Q♣']
>>> lay.legal_moves("A♥ 7♥ Q♣", led="10♥")      # the called ace when hearts are first led
CardSet('A♥')
>>> lay.legal_moves("A♥ 7♥ Q♣", led="10♥", suits_led=1 << lay.effective_suit("10♥"))
CardSet('A♥ 7♥')
"""

from __future__ import annotations

from typing import Any

from ..cards import DECK32, Card
from ..layout import Layout, alone, holder_of
from .base import Game, RuleOption, suit_cards

__all__ = [
    "SHEEPSHEAD",
    "SheepsheadGame",
    "SHEEPSHEAD_CONTRACTS",
    "TRUMPS",
    "FAIL_ORDER",
    "SHEEPSHEAD_POINTS",
]

SHEEPSHEAD_CONTRACTS = (
    "jd", "jc", "js", "jh",
    "called_ace_clubs", "called_ace_spades", "called_ace_hearts",
    "called_ten_clubs", "called_ten_spades", "called_ten_hearts",
    "alone", "leaster",
)
"""Contract ids (the partner card, or alone, or leaster)."""

TRUMPS = ("Q♣", "Q♠", "Q♥", "Q♦", "J♣", "J♠", "J♥", "J♦", "A♦", "10♦", "K♦", "9♦", "8♦", "7♦")
"""The 14 trumps, high to low."""
FAIL_ORDER = ("A", "10", "K", "9", "8", "7")
"""Fail-suit (♣ ♠ ♥) ranks, high to low."""
SHEEPSHEAD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
"""Card points by rank (120 in the deck)."""

_SUIT_LETTER = {"clubs": "C", "spades": "S", "hearts": "H"}

SHEEPSHEAD_OPTIONS = {
    o.name: o
    for o in (
        RuleOption(
            "partner", "jd", ("jd", "called_ace"),
            "RULINGS: 'Partner by J♦ (default) or called ace (option).'",
        ),
        RuleOption(
            "jd_picker", "alone", ("alone", "call_jack"),
            "RULINGS: 'A picker who holds J♦ plays alone by default (option: call a jack they lack).'",
        ),
        RuleOption(
            "no_pick", "dealer_picks", ("dealer_picks", "redeal", "doubler", "leaster"),
            "Text, No-Bid: the dealer must pick (default); re-deal; re-deal and double points "
            "('doubler'); or play a leaster hand.",
        ),
        RuleOption(
            "crack", True, (True, False),
            "RULINGS: 'crack (x2), re-crack (x4) ... multiply.' False: no cracking.",
        ),
        RuleOption(
            "blitz", True, (True, False),
            "RULINGS: 'blitz and red blitz (each x2) multiply.' False: no blitzes.",
        ),
        RuleOption(
            "announce_alone", False, (False, True),
            "Text: 'By default, the picking player does not have to declare that they are going "
            "alone ... There is an option to make the picking player state that they are going alone.'",
        ),
        RuleOption(
            "leaster_tie", "nobody_scores", ("nobody_scores", "split"),
            "RULINGS names one leaster winner (+4, every other -1), silent on a tie for fewest. "
            "'nobody_scores': a tie scores 0 for everybody. 'split': every player not tied pays 1 "
            "and the k tied players share the 5 - k units ((5 - k)/k each).",
        ),
        RuleOption(
            "rounds", 10, range(1, 101),
            "Text: 'The game is played for a predetermined number of rounds' (default 10).",
        ),
    )
}
"""Sheepshead's rule options; none changes a layout (the partner rule picks the contract)."""


class SheepsheadGame(Game):
    """Sheepshead (see the module docstring)."""

    def _build_layout(self, contract: str, rules: dict[str, Any]) -> Layout:
        trumps = tuple(Card.parse(c) for c in reversed(TRUMPS))
        fails = tuple(suit_cards(self.deck, s, FAIL_ORDER) for s in "CSH")
        must_play = None
        goal = "max"
        if contract == "jd" or contract in ("jc", "js", "jh"):
            side_rule = holder_of(Card.make("J", contract[1].upper()))
        elif contract.startswith("called_"):
            _, kind, suit = contract.split("_")
            must_play = Card.make("A" if kind == "ace" else "10", _SUIT_LETTER[suit])
            side_rule = holder_of(must_play)
        else:  # alone, leaster
            side_rule = alone
            goal = "min" if contract == "leaster" else "max"
        return Layout(
            game=self.id, contract=contract, n_seats=5, hand_size=6, kitty_size=2,
            suits=(*fails, trumps), suit_names=("clubs", "spades", "hearts", "trump"), trump=True,
            points={c: SHEEPSHEAD_POINTS[c.rank_name] for c in self.deck},
            objective="points", goal=goal, side_rule=side_rule, must_play_first=must_play,
            rules=self._layout_rules(rules),
        )


SHEEPSHEAD = SheepsheadGame(
    id="sheepshead", title="Sheepshead (5 players)", n_seats=5, hand_size=6, kitty_size=2,
    deck=DECK32, contracts=SHEEPSHEAD_CONTRACTS, options=SHEEPSHEAD_OPTIONS,
)
"""The Sheepshead game."""
