"""Clover: four players in fixed partnerships (across), 32 cards, Jass-style trumps and melds.

Contracts: ``clubs``, ``diamonds``, ``hearts``, ``spades`` (that suit is trump) and
``notrump``.  The declaring team (the declarer and the seat across) wants the most trick
points (objective ``"points"``, goal ``"max"``, side rule :func:`~trickcore.layout.across`).

* Trump suit, high to low: J 9 A 10 K Q 8 7, worth 20 14 11 10 4 3 0 0.
* Plain suits, high to low: A 10 K Q J 9 8 7, worth 11 10 4 3 2 0 0 0.
* No-trump: the plain order in every suit; 8s are worth 8, jacks 2, nines 0.
* 152 card points in the deck; the winner of the last trick scores -2, so 150 in all
  (``last_trick_bonus = -2``).

Trick melds (RULINGS "Melds in tricks") are compiled into the layout: the winner's team
scores the best partition of the trick's cards into

* runs of ranks in any suits, in the natural order A K Q J 10 9 8 7 (no wrap-around):
  3 cards 20, 4 cards 50, 5 or more 100 (:data:`RUN_VALUES`);
* sets of three of a rank: 20;
* sets of four: jacks 200, aces, kings or queens 100 (:data:`SET_OF_FOUR_VALUES`);

where every card serves at most one of these, plus the Bell -- K and Q of trump both in the
trick -- worth 20, which may share cards with the others.  So ``J♣ 8♣ 10♥ 9♦`` scores 50
and, with clubs trump, ``Q♣ K♣ A♣ 10♠`` scores 40 (run of three 20 + Bell 20).
No-trump has no Bell.

Choices where the texts are silent
----------------------------------
* Four 10s, 9s, 8s or 7s in one trick: the texts list only four jacks (200) and four
  aces/kings/queens (100).  By default such a trick scores the set of three it contains
  (20), the only listed meld it holds.  Rule option ``four_low_ranks='jass'`` scores them
  as the Jass family does instead (four 9s 150, four 10s 100; four 8s or 7s stay a set of
  three, 20).  Hand melds (the scorer's business) have no sets of three, so by default four
  low cards in hand score nothing; under ``'jass'`` the same 150 / 100 apply.
* A trick cannot hold two melds of three plus something else (it has four cards), so the
  "best partition" is the largest of: a set of four, a run of four, a run or a set of three.

Where the text contradicts itself
---------------------------------
* Melds of the defenders when the declaring team is set: the text's note says "You also
  cannot score them if you 'set' the declaring team", while its worked example (Team 2 =
  46) lets the defenders keep them.  RULINGS follows the example: rule option
  ``melds_when_set`` (read by the scorer, :mod:`trickcore.scoring.clover`) is
  ``'defenders_keep'`` by default; ``'defenders_lose'`` follows the note (the defenders
  still take the declarers' trick and meld points and their own trick points).

>>> from trickcore.games import get_game
>>> lay = get_game("clover").layout("clubs")
>>> [str(c) for c in lay.suits[-1]]
['7♣', '8♣', 'Q♣', 'K♣', '10♣', 'A♣', '9♣', 'J♣']
>>> sum(lay.points.values()), lay.total_points
(152, 150)
>>> import numpy as np
>>> from trickcore.cards import CardSet
>>> tricks = [CardSet.parse(t).mask for t in ("J♣ 8♣ 10♥ 9♦", "Q♣ K♣ A♣ 10♠")]
>>> lay.core.trick_meld_values(np.array(tricks, dtype=np.uint64)).tolist()
[50, 40]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..cards import DECK32, Card
from ..layout import Layout, across
from .base import Game, RuleOption, suit_cards

__all__ = [
    "CLOVER",
    "CloverGame",
    "CLOVER_CONTRACTS",
    "TRUMP_ORDER",
    "PLAIN_ORDER",
    "TRUMP_POINTS",
    "PLAIN_POINTS",
    "NOTRUMP_POINTS",
    "NATURAL_ORDER",
    "RUN_VALUES",
    "SET_OF_THREE_VALUE",
    "SET_OF_FOUR_VALUES",
    "BELL_VALUE",
    "LAST_TRICK_BONUS",
    "trick_meld_value",
]

CLOVER_CONTRACTS = ("clubs", "diamonds", "hearts", "spades", "notrump")
"""Contract ids: the trump suit, or no trump."""

TRUMP_ORDER = ("J", "9", "A", "10", "K", "Q", "8", "7")
"""Trump suit ranks, high to low."""
PLAIN_ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")
"""Plain-suit ranks (and every suit in no-trump), high to low."""

TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
"""Card points of the trump suit's cards by rank (62 in the suit)."""
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
"""Card points of plain-suit cards by rank (30 per suit)."""
NOTRUMP_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 8, "7": 0}
"""Card points in a no-trump contract, every suit (38 per suit)."""
LAST_TRICK_BONUS = -2
"""Points to the winner of the last trick: 152 card points - 2 = 150 per hand."""

NATURAL_ORDER = ("7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank order for runs, low to high (the text's A K Q J 10 9 8 7); its index is the
layout's ``trick_meld_rank``."""
RUN_VALUES = {3: 20, 4: 50, 5: 100}
"""Run values by length (5 or more: 100)."""
SET_OF_THREE_VALUE = 20
"""Three cards of a rank (in tricks only)."""
SET_OF_FOUR_VALUES = {"J": 200, "A": 100, "K": 100, "Q": 100}
"""Four cards of a rank, as the text lists them (see ``four_low_ranks`` for the others)."""
JASS_FOUR_VALUES = {"9": 150, "10": 100}
"""Four 9s and four 10s under ``four_low_ranks='jass'``."""
BELL_VALUE = 20
"""K and Q of trump together (may share cards with another meld)."""

_SUITS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}

CLOVER_OPTIONS = {
    o.name: o
    for o in (
        RuleOption(
            "notrump_outbid", True, (True, False),
            "RULINGS: 'a no-trump call stands only if no later player in that round names a "
            "suit'. False: a no-trump call is final.",
        ),
        RuleOption(
            "turned_suit_again", False, (False, True),
            "RULINGS: 'a player may name any suit other than the one turned down, or no-trump "
            "... (option: the turned suit may be named again)'.",
        ),
        RuleOption(
            "meld_tie", "neither", ("neither", "both"),
            "RULINGS: 'Only the team with more meld points keeps its melds; on a tie neither "
            "does (option)'. 'both': on a tie both teams keep their melds.",
        ),
        RuleOption(
            "melds_when_set", "defenders_keep", ("defenders_keep", "defenders_lose"),
            "RULINGS: 'If set, the declaring team's trick and meld points all go to the "
            "defenders, who also keep their own melds (as in the text's worked example, Team 2 "
            "= 46)'. 'defenders_lose': the text's note ('You also cannot score them if you "
            "\"set\" the declaring team'): the defenders score their own trick points and the "
            "declarers' trick and meld points, not their own melds (the example's Team 2: 42).",
        ),
        RuleOption("rounds", 8, (8, 12), "Text: 'Game is played either 8 or 12 rounds'."),
        RuleOption(
            "four_low_ranks", "set_of_three", ("set_of_three", "jass"),
            "Not in the texts (they list sets of four only for J 200 and A/K/Q 100). "
            "'set_of_three': four 10s/9s/8s/7s in a trick score the set of three they hold "
            "(20), in hand nothing. 'jass': four 9s 150, four 10s 100 (8s, 7s as 'set_of_three').",
            affects_layout=True,
        ),
    )
}
"""Clover's rule options; ``four_low_ranks`` changes the trick-meld table."""


def _four_value(rank: str, four_low_ranks: str) -> int:
    if rank in SET_OF_FOUR_VALUES:
        return SET_OF_FOUR_VALUES[rank]
    if four_low_ranks == "jass" and rank in JASS_FOUR_VALUES:
        return JASS_FOUR_VALUES[rank]
    return SET_OF_THREE_VALUE  # the set of three inside it


@lru_cache(maxsize=None)
def _best_partition(ranks: tuple[int, ...], four_low_ranks: str) -> int:
    """Best meld value of a sorted tuple of natural rank indices, each card used once."""
    if not ranks:
        return 0
    first, rest = ranks[0], list(ranks[1:])
    best = _best_partition(tuple(rest), four_low_ranks)  # the first card in no meld
    # Sets containing the first card.
    same = rest.count(first)
    if same >= 2:
        left = list(rest)
        left.remove(first), left.remove(first)
        best = max(best, SET_OF_THREE_VALUE + _best_partition(tuple(left), four_low_ranks))
    if same >= 3:
        left = [r for r in rest if r != first] + [first] * (same - 3)
        value = _four_value(NATURAL_ORDER[first], four_low_ranks)
        best = max(best, value + _best_partition(tuple(sorted(left)), four_low_ranks))
    # Runs starting at the first card (it is the lowest rank left, so any run through it
    # starts with it).
    left = list(rest)
    length, nxt = 1, first + 1
    while nxt in left:
        left.remove(nxt)
        length, nxt = length + 1, nxt + 1
        if length >= 3:
            value = RUN_VALUES[min(length, 5)]
            best = max(best, value + _best_partition(tuple(left), four_low_ranks))
    return best


def trick_meld_value(ranks: Any, bell: bool, four_low_ranks: str = "set_of_three") -> int:
    """Meld value of a trick from its cards' natural rank names or indices (0 = 7 ... 7 = A).

    >>> trick_meld_value(["J", "8", "10", "9"], bell=False)
    50
    >>> trick_meld_value(["Q", "K", "A", "10"], bell=True)
    40
    >>> trick_meld_value(["J", "J", "J", "J"], bell=False), trick_meld_value(["9"] * 4, False)
    (200, 20)
    """
    idx = tuple(sorted(NATURAL_ORDER.index(r) if isinstance(r, str) else int(r) for r in ranks))
    return _best_partition(idx, four_low_ranks) + (BELL_VALUE if bell else 0)


@lru_cache(maxsize=None)
def _meld_table(four_low_ranks: str) -> np.ndarray:
    """The layout's 8192-entry table: index = 4 sorted 3-bit rank indices (+4096 for Bell).

    Built once per option value and shared read-only by every Clover layout."""
    table = np.zeros(8192, dtype=np.int16)
    for code in range(4096):
        ranks = [(code >> (3 * i)) & 7 for i in range(4)]
        v = trick_meld_value(ranks, False, four_low_ranks)
        table[code] = v
        table[code + 4096] = v + BELL_VALUE
    table.flags.writeable = False
    return table


class CloverGame(Game):
    """Clover (see the module docstring)."""

    def _build_layout(self, contract: str, rules: dict[str, Any]) -> Layout:
        meld_rank = {c: NATURAL_ORDER.index(c.rank_name) for c in self.deck}
        common = dict(
            game=self.id, contract=contract, n_seats=4, hand_size=8, kitty_size=0,
            last_trick_bonus=LAST_TRICK_BONUS, objective="points", goal="max",
            side_rule=across, trick_meld_rank=meld_rank,
            trick_meld_table=_meld_table(rules["four_low_ranks"]),
            rules=self._layout_rules(rules),
        )
        if contract == "notrump":
            return Layout(
                suits=tuple(suit_cards(self.deck, s, PLAIN_ORDER) for s in "CDHS"),
                suit_names=("clubs", "diamonds", "hearts", "spades"), trump=False,
                points={c: NOTRUMP_POINTS[c.rank_name] for c in self.deck}, **common,
            )
        t = _SUITS[contract]
        fails = [s for s in "CDHS" if s != t]
        points = {c: (TRUMP_POINTS if c.suit_letter == t else PLAIN_POINTS)[c.rank_name] for c in self.deck}
        return Layout(
            suits=(*(suit_cards(self.deck, s, PLAIN_ORDER) for s in fails), suit_cards(self.deck, t, TRUMP_ORDER)),
            suit_names=(*(n for n, s in _SUITS.items() if s != t), "trump"), trump=True,
            points=points, bell=[Card.make("K", t), Card.make("Q", t)], **common,
        )


CLOVER = CloverGame(
    id="clover", title="Clover", n_seats=4, hand_size=8, kitty_size=0, deck=DECK32,
    contracts=CLOVER_CONTRACTS, options=CLOVER_OPTIONS,
)
"""The Clover game."""
