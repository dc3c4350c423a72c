"""A plain-Python reference of the rules: legal moves, trick winners and Clover trick melds.

Written from the rule texts and ``RULINGS.md`` on their own terms -- cards, printed suits,
rank lists typed out again from the texts -- and deliberately *independent* of
:class:`~trickcore.layout.Layout` (no layout bits, no ``Layout.suits``).  It is slow and
obvious; the property tests check the compiled kernels against it on many random positions.

Positions are described the way a person at the table would describe them:

``hand``
    the cards of the player to move;
``trick``
    the cards already played to the current trick, in play order (empty when leading);
``trick_index``
    how many tricks have been completed this round (0 on the first trick);
``played``
    every card played in *earlier* tricks;
``earlier_leads``
    the card that led each earlier trick (to know whether a suit has been led before).

Cards may be given as :class:`~trickcore.cards.Card` objects or text (``"10♥"``, ``"TH"``).

Examples
--------
>>> reference_legal_moves("goathead3", "hearts", "J♣ A♥ 10♠", ["Q♥"])
CardSet('A♥ J♣')
>>> reference_legal_moves("gamut", "clubs", "J♠ A♠ 7♥", ["7♣"])      # J♠ is a club
CardSet('J♠')
>>> reference_legal_moves("hearts", "hearts", "A♥ Q♠ 4♦", ["3♣"], trick_index=0)
CardSet('4♦')
>>> reference_trick_winner("sheepshead", "jd", ["A♣", "10♣", "7♦", "J♦", "K♣"])
3
>>> reference_trick_melds("clover", "clubs", ["Q♣", "K♣", "A♣", "10♠"])
40
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from .cards import Card, CardSet, parse_card, parse_hand

__all__ = [
    "RankingRules",
    "ranking",
    "card_key",
    "reference_legal_moves",
    "reference_trick_winner",
    "reference_trick_melds",
]

# ---------------------------------------------------------------------------------------
# Rank lists, typed out again from the texts (high to low).
# ---------------------------------------------------------------------------------------
_SUIT_NAME = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

_GOATHEAD_FAIL = "A 10 K Q"  # goathead.md: fail suits A-10-K-Q
_GOATHEAD_NIL = "A 10 K Q J"  # goathead.md, Nil: "Ace-Ten order: A-10-K-Q-J"
_GOATHEAD_JACKS = "J♣ J♠ J♥ J♦"  # goathead.md: "the four Jacks ... J♣-J♠-J♥-J♦"
_CLOVER_TRUMP = "J 9 A 10 K Q 8 7"  # clover.md table, trump rank
_CLOVER_PLAIN = "A 10 K Q J 9 8 7"  # clover.md table, off-suit rank
_PIQUET = "A K Q J 10 9 8 7"  # gamut.md: high [A-K-Q-J-10-9-8-7] low
_GAMUT_CLUBS_TRUMP = "J♣ J♠ A♣ K♣ Q♣ 10♣ 9♣ 8♣ 7♣"  # RULINGS, Gamut Clubs
_SHEEPSHEAD_TRUMP = "Q♣ Q♠ Q♥ Q♦ J♣ J♠ J♥ J♦ A♦ 10♦ K♦ 9♦ 8♦ 7♦"  # sheepshead.md
_SHEEPSHEAD_FAIL = "A 10 K 9 8 7"  # sheepshead.md: fail suits
_FULL = "A K Q J 10 9 8 7 6 5 4 3 2"  # a full 52-card suit

_DECK_RANKS = {
    "goathead3": "A 10 K Q J", "goathead4": "A 10 K Q J",
    "clover": _PIQUET, "gamut": _PIQUET, "sheepshead": _PIQUET,
    "hearts": _FULL, "spades": _FULL, "ohhell": _FULL,
}


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def _suit(ranks: str, letter: str) -> tuple[Card, ...]:
    return tuple(Card.parse(r + letter) for r in ranks.split())


@dataclass(frozen=True)
class RankingRules:
    """How the cards of one contract rank: the trumps and the plain suits, high to low.

    ``plain`` maps a printed suit letter (``"C"``, ``"D"``, ``"H"``, ``"S"``) to the cards
    that follow that suit; a card listed in ``trumps`` belongs to no plain suit.
    """

    deck: frozenset
    trumps: tuple[Card, ...]
    plain: Mapping[str, tuple[Card, ...]]

    def suit_of(self, card: Card) -> str:
        """``"trump"`` or the printed suit letter the card follows."""
        if card in self.trumps:
            return "trump"
        return "CDHS"[card.suit]

    def strength(self, card: Card) -> int:
        """Higher is stronger within the card's own suit (trumps among trumps)."""
        group = self.trumps if card in self.trumps else self.plain["CDHS"[card.suit]]
        return len(group) - group.index(card)


@lru_cache(maxsize=None)
def ranking(game: str, contract: str) -> RankingRules:
    """The card ranking of ``contract`` in ``game``, built from the texts' rank lists.

    >>> r = ranking("goathead4", "court")
    >>> [str(c) for c in r.trumps]
    ['J♣', 'J♠', 'J♥', 'J♦']
    >>> [str(c) for c in r.plain["H"]]
    ['A♥', '10♥', 'K♥', 'Q♥']
    """
    if game not in _DECK_RANKS:
        raise ValueError(f"unknown game {game!r}; valid games: {', '.join(_DECK_RANKS)}")
    deck = frozenset(c for s in "CDHS" for c in _suit(_DECK_RANKS[game], s))
    trumps: tuple[Card, ...] = ()
    plain: dict[str, tuple[Card, ...]] = {}
    if game in ("goathead3", "goathead4"):
        if contract == "nil":
            plain = {s: _suit(_GOATHEAD_NIL, s) for s in "CDHS"}
        elif contract in ("court", "leasters"):
            trumps = _cards(_GOATHEAD_JACKS)
            plain = {s: _suit(_GOATHEAD_FAIL, s) for s in "CDHS"}
        elif contract in ("clubs", "spades", "hearts", "diamonds"):
            t = contract[0].upper()
            trumps = _cards(_GOATHEAD_JACKS) + _suit(_GOATHEAD_FAIL, t)
            plain = {s: _suit(_GOATHEAD_FAIL, s) for s in "CDHS" if s != t}
    elif game == "clover":
        if contract == "notrump":
            plain = {s: _suit(_CLOVER_PLAIN, s) for s in "CDHS"}
        elif contract in ("clubs", "spades", "hearts", "diamonds"):
            t = contract[0].upper()
            trumps = _suit(_CLOVER_TRUMP, t)
            plain = {s: _suit(_CLOVER_PLAIN, s) for s in "CDHS" if s != t}
    elif game == "gamut":
        if contract == "hearts":
            plain = {s: _suit(_PIQUET, s) for s in "CDHS"}
        elif contract == "spades":
            trumps = _suit(_PIQUET, "S")
            plain = {s: _suit(_PIQUET, s) for s in "CDH"}
        elif contract in ("clubs", "clubs_3", "clubs_2", "clubs_1"):
            trumps = _cards(_GAMUT_CLUBS_TRUMP)
            plain = {s: _suit(_PIQUET, s) for s in "DH"}
            plain["S"] = tuple(c for c in _suit(_PIQUET, "S") if str(c) != "J♠")
    elif game == "sheepshead":
        if contract in _SHEEPSHEAD_CONTRACTS:
            trumps = _cards(_SHEEPSHEAD_TRUMP)
            plain = {s: _suit(_SHEEPSHEAD_FAIL, s) for s in "CSH"}
    elif game == "hearts":
        if contract == "hearts":
            plain = {s: _suit(_FULL, s) for s in "CDHS"}
    elif game == "spades":
        if contract == "spades":
            trumps = _suit(_FULL, "S")
            plain = {s: _suit(_FULL, s) for s in "CDH"}
    elif game == "ohhell":
        if contract == "notrump":
            plain = {s: _suit(_FULL, s) for s in "CDHS"}
        elif contract in ("clubs", "spades", "hearts", "diamonds"):
            t = contract[0].upper()
            trumps = _suit(_FULL, t)
            plain = {s: _suit(_FULL, s) for s in "CDHS" if s != t}
    if not plain:
        raise ValueError(f"unknown contract {contract!r} for {game}")
    return RankingRules(deck=deck, trumps=trumps, plain=plain)


_SHEEPSHEAD_CONTRACTS = (
    "jd", "jc", "js", "jh", "called_ace_clubs", "called_ace_spades", "called_ace_hearts",
    "called_ten_clubs", "called_ten_spades", "called_ten_hearts", "alone", "leaster",
)


@lru_cache(maxsize=None)
def card_key(game: str, contract: str) -> dict[Card, tuple[str, int]]:
    """``card -> (suit it follows, strength)`` for every card of the game's deck."""
    r = ranking(game, contract)
    return {c: (r.suit_of(c), r.strength(c)) for c in r.deck}


_CARD_TYPE = {Card}


def _as_cards(cards: Any) -> list[Card]:
    """Cards in the order given (text is split on spaces/commas; PBN is read high to low)."""
    if (type(cards) is list or type(cards) is tuple) and set(map(type, cards)) <= _CARD_TYPE:
        return cards  # already cards (the common case in the property tests)
    if isinstance(cards, str):
        text = cards.strip()
        if text.count(".") == 3 and " " not in text:
            return parse_hand(text).cards_high_first()
        return [parse_card(t) for t in text.replace(",", " ").split()]
    if isinstance(cards, CardSet):
        return list(cards)
    return [c if type(c) is Card else parse_card(c) for c in cards]


def _to_set(cards: Iterable[Card]) -> CardSet:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return CardSet(mask)


def _check_deck(game: str, contract: str, cards: Iterable[Card], what: str) -> None:
    deck = ranking(game, contract).deck
    if not deck.issuperset(cards):
        bad = next(c for c in cards if c not in deck)
        raise ValueError(f"{bad} in the {what} is not in the deck of {game}")


#: The printed suit letter of every card.
_PRINTED = {Card(16 * s + r): "CDHS"[s] for s in range(4) for r in range(13)}
_QS = Card.parse("Q♠")
_TWO_CLUBS = Card.parse("2♣")
_NINE_CLUBS = Card.parse("9♣")


def reference_legal_moves(
    game: str,
    contract: str,
    hand: Any,
    trick: Any = (),
    *,
    trick_index: int = 0,
    played: Any = (),
    earlier_leads: Any = (),
    rules: Mapping[str, Any] | None = None,
) -> CardSet:
    """The cards of ``hand`` the rules allow.

    ``rules`` holds the layout-affecting rule options (``queen_breaks_hearts``,
    ``points_on_first_trick``, ``spade_leading``); missing ones take the rulings' defaults.

    >>> reference_legal_moves("spades", "spades", "A♠ 2♥", trick_index=1, played="2♣ 3♣ 4♣ 5♣")
    CardSet('2♥')
    >>> reference_legal_moves("spades", "spades", "A♠ 2♥", trick_index=1,
    ...                       rules={"spade_leading": "after_first_trick"})
    CardSet('A♠ 2♥')
    >>> reference_legal_moves("sheepshead", "called_ace_hearts", "A♥ 7♥ Q♣", ["10♥"])
    CardSet('A♥')
    """
    # ``played`` and ``earlier_leads`` are read (and parsed) only by the rules that need them.
    return _to_set(_legal(game, contract, _as_cards(hand), _as_cards(trick), trick_index,
                          played, earlier_leads, rules or {}))


def _legal(game, contract, hand, trick, trick_index, played, earlier_leads, rules) -> list[Card]:
    _check_deck(game, contract, hand, "hand")
    key = card_key(game, contract)
    if not trick and game in ("hearts", "spades", "gamut"):
        played = _as_cards(played)  # lead restrictions look at the cards already played

    if not trick:
        # ---- leading -------------------------------------------------------------------
        if trick_index == 0:
            # Hearts: "The player with the two of clubs leads it for the first trick."
            if game == "hearts" and _TWO_CLUBS in hand:
                return [_TWO_CLUBS]
            # Gamut Hearts: "The player holding the 9 of Clubs leads it to the first trick."
            if game == "gamut" and contract == "hearts" and _NINE_CLUBS in hand:
                return [_NINE_CLUBS]
        barred: list[Card] = []
        if game == "hearts":
            # "You cannot lead hearts unless a heart has been played on a previous trick";
            # with the option, Q♠ breaks hearts too.
            broken = any(_PRINTED[c] == "H" for c in played) or (
                rules.get("queen_breaks_hearts", False) and _QS in played)
            if not broken:
                barred = [c for c in hand if _PRINTED[c] == "H"]
        elif game == "gamut" and contract == "hearts":
            # "Hearts may not be led until a heart has been played."
            if not any(_PRINTED[c] == "H" for c in played):
                barred = [c for c in hand if _PRINTED[c] == "H"]
        elif game == "gamut" and contract == "spades":
            # "Spades may not be led until broken."
            if not any(_PRINTED[c] == "S" for c in played):
                barred = [c for c in hand if _PRINTED[c] == "S"]
        elif game == "spades":
            leading = rules.get("spade_leading", "after_broken")
            if leading == "after_broken" and not any(_PRINTED[c] == "S" for c in played):
                barred = [c for c in hand if _PRINTED[c] == "S"]
            elif leading == "after_first_trick" and trick_index == 0:
                barred = [c for c in hand if _PRINTED[c] == "S"]
        others = [c for c in hand if c not in barred]
        # "... unless the leader holds only hearts (spades)": then anything goes.
        return others if others else list(hand)

    # ---- following: "A player must follow the led effective suit if able." -------------
    led_suit = key[trick[0]][0]
    follow = [c for c in hand if key[c][0] == led_suit]
    if follow:
        if game == "sheepshead" and contract.startswith("called_"):
            # "the partner must play the called ace (ten) when that suit is first led"
            _, kind, suit = contract.split("_")
            called = Card.make("A" if kind == "ace" else "10", suit[0].upper())
            first_time = all(key[c][0] != led_suit for c in _as_cards(earlier_leads))
            if called in follow and first_time:
                return [called]
        return follow
    if game == "hearts" and trick_index == 0 and not rules.get("points_on_first_trick", False):
        # "The first trick of a round is 'safe'; players are not allowed to play hearts or
        # the queen of spades, even if they have no clubs" -- unless they hold nothing else.
        safe = [c for c in hand if _PRINTED[c] != "H" and c != _QS]
        if safe:
            return safe
    return list(hand)


def reference_trick_winner(game: str, contract: str, cards: Any) -> int:
    """Position (0 = leader) of the card that wins the trick ``cards`` (in play order).

    "The trick goes to the highest trump played, else the highest card of the led suit."

    >>> reference_trick_winner("goathead3", "court", ["A♥", "J♦", "10♥"])
    1
    >>> reference_trick_winner("clover", "hearts", ["A♠", "9♥", "J♥", "7♠"])
    2
    >>> reference_trick_winner("gamut", "clubs", ["A♠", "J♠", "K♠", "Q♠"])   # J♠ is a club
    1
    """
    cs = _as_cards(cards)
    if not cs:
        raise ValueError("a trick needs at least one card")
    _check_deck(game, contract, cs, "trick")
    key = card_key(game, contract)
    trumps = [c for c in cs if key[c][0] == "trump"]
    if trumps:
        best = max(trumps, key=lambda c: key[c][1])
    else:
        led = key[cs[0]][0]
        best = max((c for c in cs if key[c][0] == led), key=lambda c: key[c][1])
    return cs.index(best)


# ---------------------------------------------------------------------------------------
# Clover trick melds
# ---------------------------------------------------------------------------------------
_NATURAL = ("A", "K", "Q", "J", "10", "9", "8", "7")  # clover.md: runs in natural order


def _meld_candidates(cs: Sequence[Card], four_low_ranks: str) -> list[tuple[frozenset, int]]:
    """Every meld the cards hold: (the positions of its cards, its value)."""
    out = []
    idx = range(len(cs))
    rank_names = [c.rank_name for c in cs]
    for size in range(3, len(cs) + 1):
        for combo in combinations(idx, size):
            names = [rank_names[i] for i in combo]
            if len(set(names)) == 1:  # a set
                if size == 3:
                    out.append((frozenset(combo), 20))  # "Set of 3 (tricks only) 20"
                elif size == 4:
                    rank = names[0]
                    if rank == "J":
                        v = 200  # "Set of 4 Jacks 200"
                    elif rank in ("A", "K", "Q"):
                        v = 100  # "Set of 4 A/K/Q 100"
                    elif four_low_ranks == "jass" and rank == "9":
                        v = 150
                    elif four_low_ranks == "jass" and rank == "10":
                        v = 100
                    else:
                        v = 0  # not a listed meld; its sets of three are candidates too
                    if v:
                        out.append((frozenset(combo), v))
            positions = sorted(_NATURAL.index(n) for n in names)
            if all(b == a + 1 for a, b in zip(positions, positions[1:])):  # a run
                out.append((frozenset(combo), 20 if size == 3 else 50 if size == 4 else 100))
    return out


def _best_melds(candidates: list[tuple[frozenset, int]], used: frozenset) -> int:
    """Most points from melds that share no card ("Cards may not be used in multiple melds")."""
    best = 0
    for i, (cards, value) in enumerate(candidates):
        if not cards & used:
            best = max(best, value + _best_melds(candidates[i + 1:], used | cards))
    return best


def reference_trick_melds(game: str, contract: str, cards: Any, rules: Mapping[str, Any] | None = None) -> int:
    """Meld points of a Clover trick, by trying every way to split it into melds.

    Runs of ranks in any suits (natural order A K Q J 10 9 8 7; 3 = 20, 4 = 50, 5+ = 100),
    sets of three (20), sets of four (J 200, A/K/Q 100; others per the ``four_low_ranks``
    option), each card in at most one of these; plus the Bell (K and Q of trump, 20), which
    may share cards.

    >>> reference_trick_melds("clover", "hearts", ["J♣", "8♣", "10♥", "9♦"])
    50
    >>> reference_trick_melds("clover", "notrump", ["K♣", "Q♣", "7♥", "8♦"])
    0
    """
    if game != "clover":
        raise ValueError(f"{game} has no trick melds")
    cs = _as_cards(cards)
    _check_deck(game, contract, cs, "trick")
    four_low = dict(rules or {}).get("four_low_ranks", "set_of_three")
    best = _best_melds(_meld_candidates(cs, four_low), frozenset())
    r = ranking(game, contract)
    if r.trumps:
        t = "CDHS"[r.trumps[0].suit]
        if Card.parse("K" + t) in cs and Card.parse("Q" + t) in cs:
            best += 20  # the Bell
    return best
