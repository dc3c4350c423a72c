"""Gamut: four players, 32 cards (A K Q J 10 9 8 7), eight each; the dealer's last card,
dealt face up, picks the game.

Contracts (one per game the turned card can pick; Diamonds lets the players choose one of
the other three, so it is not a layout of its own):

``hearts``
    No trump, every suit A K Q J 10 9 8 7.  The 9♣ holder leads it to the first trick.
    Hearts may not be led until a heart has been played (in this or an earlier trick),
    unless the leader holds only hearts.  Penalty points (as positive points; the scorer
    negates them): each heart 1, Q♠ 8 -- 16 in all.  Every player for themself: objective
    ``"points"``, goal ``"min"``, side ``alone`` (the paranoid reduction).
``spades``
    Spades trump, A K Q J 10 9 8 7 everywhere.  Partners across.  Spades may not be led
    until a spade has been played, unless the leader holds only spades.  Objective
    ``"tricks"``, goal ``"max"``, side ``across``.
``clubs``
    Trumps J♣ J♠ A♣ K♣ Q♣ 10♣ 9♣ 8♣ 7♣ (J♠ is a club: it follows clubs and never spades,
    so spades has seven cards A K Q 10 9 8 7); hearts and diamonds A K Q J 10 9 8 7.  The
    trick goes to the highest club, else the highest card of the led suit.  Objective
    ``"tricks"``, goal ``"max"``, side ``alone``.
``clubs_3``, ``clubs_2``, ``clubs_1``
    Clubs with one, two or three players folded: that many active seats, renumbered 0, 1,
    ... in play order from the first active seat after the dealer; the folded hands join the
    kitty (kitty 8, 16, 24 cards).  With one active player the round is played out alone.

Choices where the texts are silent
----------------------------------
* Hearts game: the text has no "safe first trick" rule, so any card may be discarded to
  the first trick (unlike CardsWithCats Hearts).
* Hearts game: a heart played to the *current* trick also breaks hearts (as in the
  CardsWithCats ruling); this only matters for leads, so it changes nothing in play.
* Spades game: "broken" means a spade has been played in an earlier trick; the leader may
  lead spades when holding nothing else.
* Who leads the first trick (the dealer, or the first active player after the dealer in
  Clubs; the 9♣ holder in Hearts) is for the round engine; layouts record only the 9♣ rule.

Rule options
------------
None changes a layout; the round engine reads them (the scorer too, for validation).

``diamonds_doubling`` (``'multiply'``; ``'once'``)
    Consecutive Diamonds throw-ins multiply the next hand's factor, or double it once.
``target`` (40)
    A match ends when a player reaches it.
``team_bid_cap`` (``True``; ``False``)
    Spades game.  RULINGS allows bids 0-8 each and scores a short team -2 x its combined
    bid, which with bids 8/0/8/0 would score -32; gamut.md gives the range -16 ... +13,
    which holds only if a team's combined bid never exceeds the 8 tricks.  So by default
    the second partner to bid may bid only ``0 .. 8 - partner's bid``; the first may bid
    0-8 (bidding runs from the dealer's left, so the third bidder and the dealer bid second
    in their teams).  Team scores then lie in -16 ... +13.  ``False``: every bid 0-8,
    uncapped.
``last_may_fold`` (``False``; ``True``)
    Clubs game; neither text covers it.  Default: the last player to decide may not fold
    when the other three have (someone must play; they play alone and take all 8 tricks).
    ``True``: they may fold too.  A round where all four fold is then void: no card is
    played, every seat scores 0 (RULINGS: a folded hand scores 0), the round is recorded as
    thrown in (``thrown_in``, an ``all_folded`` announcement, payouts 0) and the deal passes
    to the left as after any round.  This is what the fold-out (Rams/Loo) family does when
    everybody drops: the hand is dead and the deal moves on; it is not the Diamonds
    redeal, so no doubling follows (and a Diamonds factor on this hand is spent).

>>> from trickcore.games import get_game
>>> lay = get_game("gamut").layout("clubs")
>>> [str(c) for c in lay.suits[-1]]
['7♣', '8♣', '9♣', '10♣', 'Q♣', 'K♣', 'A♣', 'J♠', 'J♣']
>>> lay.legal_moves("J♠ A♠ 7♥", led="7♣")     # J♠ is a club
CardSet('J♠')
>>> get_game("gamut").layout("hearts").legal_moves("9♣ A♥ 7♠", trick_index=0)
CardSet('9♣')
"""

from __future__ import annotations

from typing import Any

from ..cards import DECK32, Card, CardSet
from ..layout import Layout, across, alone
from .base import Game, RuleOption, suit_cards

__all__ = [
    "GAMUT",
    "GamutGame",
    "GAMUT_CONTRACTS",
    "NATURAL_ORDER",
    "CLUBS_TRUMPS",
    "HEARTS_GAME_POINTS",
    "HEARTS_FIRST_LEAD",
]

GAMUT_CONTRACTS = ("hearts", "spades", "clubs", "clubs_3", "clubs_2", "clubs_1")
"""Contract ids; ``clubs_N`` is Clubs with N active players after folding."""

NATURAL_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7")
"""Rank order, high to low, of every suit in Hearts and Spades and of the red suits in Clubs."""
CLUBS_TRUMPS = ("J♣", "J♠", "A♣", "K♣", "Q♣", "10♣", "9♣", "8♣", "7♣")
"""The Clubs game's trumps, high to low."""
HEARTS_GAME_POINTS = {**{f"{r}♥": 1 for r in NATURAL_ORDER}, "Q♠": 8}
"""Penalty points of the Hearts game (positive; the scorer negates them): 16 in all."""
HEARTS_FIRST_LEAD = "9♣"
"""The card its holder must lead to the first trick of the Hearts game."""

GAMUT_OPTIONS = {
    o.name: o
    for o in (
        RuleOption(
            "diamonds_doubling", "multiply", ("multiply", "once"),
            "RULINGS: 'If all pass the hand is redealt and the next hand scores double; "
            "consecutive throw-ins multiply (option: double once).'",
        ),
        RuleOption("target", 40, range(1, 1001), "RULINGS: 'Match: to 40 points.'"),
        RuleOption(
            "team_bid_cap", True, (True, False),
            "Spades game: the second partner to bid may bid at most 8 minus the partner's bid, "
            "so a team's combined bid is at most the 8 tricks (gamut.md: 'Minimum Score: -16, "
            "Maximum score: 13'); False: bids 0-8 each, uncapped (RULINGS '0-8 each' read alone).",
        ),
        RuleOption(
            "last_may_fold", False, (False, True),
            "Clubs game, silent in the texts: the last player to decide may not fold when "
            "everybody else has (someone must play); True: they may, and a round where all four "
            "fold is void (every seat scores 0, recorded as thrown in; the deal passes left).",
        ),
    )
}
"""Gamut's rule options; none changes a layout."""


class GamutGame(Game):
    """Gamut (see the module docstring)."""

    def _build_layout(self, contract: str, rules: dict[str, Any]) -> Layout:
        natural = {s: suit_cards(self.deck, s, NATURAL_ORDER) for s in "CDHS"}
        common = dict(game=self.id, contract=contract, hand_size=8, rules=self._layout_rules(rules))
        if contract == "hearts":
            hearts = CardSet(natural["H"])
            return Layout(
                n_seats=4, kitty_size=0, suits=tuple(natural[s] for s in "CDHS"),
                suit_names=("clubs", "diamonds", "hearts", "spades"), trump=False,
                points=HEARTS_GAME_POINTS, objective="points", goal="min", side_rule=alone,
                lead_restricted=hearts, breakers=hearts, first_lead=HEARTS_FIRST_LEAD, **common,
            )
        if contract == "spades":
            spades = CardSet(natural["S"])
            return Layout(
                n_seats=4, kitty_size=0, suits=tuple(natural[s] for s in "CDHS"),
                suit_names=("clubs", "diamonds", "hearts", "trump"), trump=True,
                objective="tricks", goal="max", side_rule=across,
                lead_restricted=spades, breakers=spades, **common,
            )
        n_active = 4 if contract == "clubs" else int(contract.rsplit("_", 1)[1])
        trumps = tuple(Card.parse(c) for c in reversed(CLUBS_TRUMPS))
        spades = tuple(c for c in natural["S"] if c not in trumps)
        return Layout(
            n_seats=n_active, kitty_size=32 - 8 * n_active,
            suits=(natural["D"], natural["H"], spades, trumps),
            suit_names=("diamonds", "hearts", "spades", "trump"), trump=True,
            objective="tricks", goal="max", side_rule=alone, **common,
        )


GAMUT = GamutGame(
    id="gamut", title="Gamut", n_seats=4, hand_size=8, kitty_size=0, deck=DECK32,
    contracts=GAMUT_CONTRACTS, options=GAMUT_OPTIONS,
)
"""The Gamut game (``n_seats`` 4; the ``clubs_N`` layouts have N seats)."""
