"""Cards, card sets and decks.

Every card has one *universal id* that is the same in every game::

    id = 16 * suit + rank        suit: 0 = ♣, 1 = ♦, 2 = ♥, 3 = ♠
                                 rank: 0 = 2, 1 = 3, ..., 8 = 10, 9 = J, 10 = Q, 11 = K, 12 = A

so a set of cards is a 64-bit integer (a *bit-board*) with bit ``id`` set for each card,
whatever the deck.  Games reorder the bits into their own trick-taking order when they
compile a contract to a :class:`~trickcore.layout.Layout`; everything that crosses the
public API (hands, deals, lines of play) uses universal ids.

Examples
--------
>>> from trickcore.cards import Card, CardSet, parse_hand
>>> Card.parse("10h") == Card.parse("TH") == Card.parse("10♥")
True
>>> str(Card.parse("jc"))
'J♣'
>>> hand = parse_hand("J♣ A♥ 10♥")
>>> len(hand), Card.parse("AH") in hand
(3, True)
>>> hand
CardSet('A♥ 10♥ J♣')
>>> CardSet.from_pbn("AKQ.J.T9.8")
CardSet('A♠ K♠ Q♠ J♥ 10♦ 9♦ 8♣')
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Iterator

import numpy as np

__all__ = [
    "SUITS",
    "SUIT_SYMBOLS",
    "RANKS",
    "Card",
    "CardSet",
    "parse_card",
    "parse_hand",
    "DECK20",
    "DECK32",
    "DECK52",
    "DECKS",
]

#: Suit letters in universal-id order (♣ ♦ ♥ ♠).
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
#: Rank names in universal-id order, low to high.
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

_SUIT_BY_TEXT = {}
for _i, (_letter, _symbol, _white) in enumerate(zip(SUITS, SUIT_SYMBOLS, "♧♢♡♤")):
    for _text in (_letter, _letter.lower(), _symbol, _white):
        _SUIT_BY_TEXT[_text] = _i
_RANK_BY_TEXT = {name: i for i, name in enumerate(RANKS)}
_RANK_BY_TEXT.update({"T": 8, "t": 8, "j": 9, "q": 10, "k": 11, "a": 12})

_CARD_RE = re.compile(r"^\s*(10|[2-9TtJjQqKkAa])\s*([CDHScdhs♣♦♥♠♧♢♡♤])\s*$")
_ALL_IDS_MASK = sum(1 << (16 * s + r) for s in range(4) for r in range(13))


#: Integer types a card id or index may be given as (numpy's too; ``bool`` is refused apart).
_INTEGERS = (int, np.integer)


class Card(int):
    """One playing card, an ``int`` equal to its universal id (``16 * suit + rank``).

    >>> c = Card.parse("Q♠")
    >>> int(c), c.rank_name, c.suit_letter, str(c)
    (58, 'Q', 'S', 'Q♠')
    >>> Card.parse("1x")
    Traceback (most recent call last):
      ...
    ValueError: malformed card '1x': expected a rank (2-10, T, J, Q, K, A) and a suit (C D H S or ♣ ♦ ♥ ♠)
    """

    __slots__ = ()

    def __new__(cls, card_id: int) -> Card:
        if type(card_id) is Card:  # already a valid card (immutable): rounds and PIMC pass these
            return card_id
        if type(card_id) is not int and (  # the common case first: Card() is hot in rounds and PIMC
                not isinstance(card_id, _INTEGERS) or isinstance(card_id, bool)):
            raise ValueError(f"a card id must be an integer (16 * suit + rank), not {card_id!r}; "
                             "parse text with Card.parse")
        card_id = int(card_id)
        if not (0 <= card_id < 64 and (_ALL_IDS_MASK >> card_id) & 1):
            raise ValueError(f"{card_id} is not a card id (16 * suit + rank, rank < 13)")
        return super().__new__(cls, card_id)

    @classmethod
    def make(cls, rank: int | str, suit: int | str) -> Card:
        """Build a card from a rank (index 0-12 or name) and a suit (index 0-3 or letter)."""
        r = _RANK_BY_TEXT.get(rank) if isinstance(rank, str) else _index(rank)
        s = _SUIT_BY_TEXT.get(suit) if isinstance(suit, str) else _index(suit)
        if r is None or not 0 <= r < 13:
            raise ValueError(f"unknown rank {rank!r}: expected 2-10, T, J, Q, K, A or an index 0-12")
        if s is None or not 0 <= s < 4:
            raise ValueError(f"unknown suit {suit!r}: expected C D H S, ♣ ♦ ♥ ♠ or an index 0-3")
        return cls(16 * s + r)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``J♣``, ``JC``, ``Jc``, ``10h``, ``Th`` or ``TH`` (also ``♧♢♡♤``)."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ValueError(f"malformed card {text!r}: expected a string such as 'J♣' or 'TH'")
        m = _CARD_RE.match(text)
        if not m:
            raise ValueError(
                f"malformed card {text!r}: expected a rank (2-10, T, J, Q, K, A) "
                "and a suit (C D H S or ♣ ♦ ♥ ♠)"
            )
        rank_text, suit_text = m.groups()
        return cls(16 * _SUIT_BY_TEXT[suit_text] + _RANK_BY_TEXT[rank_text.upper() if rank_text != "10" else "10"])

    @property
    def rank(self) -> int:
        """Rank index, 0 (two) to 12 (ace)."""
        return int(self) & 15

    @property
    def suit(self) -> int:
        """Suit index: 0 ♣, 1 ♦, 2 ♥, 3 ♠."""
        return int(self) >> 4

    @property
    def rank_name(self) -> str:
        return RANKS[self.rank]

    @property
    def suit_letter(self) -> str:
        return SUITS[self.suit]

    @property
    def suit_symbol(self) -> str:
        return SUIT_SYMBOLS[self.suit]

    @property
    def mask(self) -> int:
        """The card as a one-bit bit-board."""
        return 1 << int(self)

    def ascii(self) -> str:
        """ASCII form, e.g. ``TH`` for 10♥ (the form PBN and most engines use)."""
        return ("T" if self.rank == 8 else self.rank_name) + self.suit_letter

    def __str__(self) -> str:
        return self.rank_name + self.suit_symbol

    def __repr__(self) -> str:
        return f"Card('{self}')"


def _index(value: object) -> int | None:
    """An integer index (numpy ints too), else ``None`` (floats and bools are not indices)."""
    if isinstance(value, _INTEGERS) and not isinstance(value, bool):
        return int(value)
    return None


def parse_card(text: str | int) -> Card:
    """Parse one card; ``ValueError`` names the malformed text. See :meth:`Card.parse`."""
    if isinstance(text, int) and not isinstance(text, bool):
        return Card(text)
    return Card.parse(text)


def _card_texts(text: str) -> list[str]:
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    out: list[str] = []
    for token in tokens:
        # Allow run-together forms such as "JCAH10H" or "J♣A♥": split after each suit mark.
        pieces = re.findall(r"(?:10|[^CDHScdhs♣♦♥♠♧♢♡♤])[CDHScdhs♣♦♥♠♧♢♡♤]", token)
        if pieces and "".join(pieces) == token:
            out.extend(pieces)
        else:
            out.append(token)
    return out


class CardSet:
    """A set of cards stored as a 64-bit bit-board of universal ids.

    Set semantics (``in``, ``|``, ``&``, ``-``, ``^``, ``<=``, ``len``, iteration) and a
    readable repr.  Iteration goes by universal id: clubs low to high, then diamonds,
    hearts, spades; ``str`` shows the cards high to low, spades first, as a hand is read.

    >>> s = CardSet.parse("A♥ 10♥ J♣")
    >>> [str(c) for c in s]
    ['J♣', '10♥', 'A♥']
    >>> s | CardSet.parse("QS")
    CardSet('Q♠ A♥ 10♥ J♣')
    >>> CardSet.parse("AH AH")
    Traceback (most recent call last):
      ...
    ValueError: duplicate card A♥ in 'AH AH'
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[Card | str | int] | int | CardSet | str | None = None) -> None:
        if type(cards) is int:
            # a plain bit-board first: the set operations and the engine's masks make
            # most card sets, and the checks below cost more than the set itself
            if cards < 0 or cards & ~_ALL_IDS_MASK:
                raise ValueError(f"bit-board {cards:#x} has bits that are not cards")
            self.mask = cards
            return
        if cards is None:
            mask = 0
        elif isinstance(cards, CardSet):
            mask = cards.mask
        elif isinstance(cards, str):
            mask = CardSet.parse(cards).mask
        elif isinstance(cards, Card):
            mask = 1 << cards
        elif isinstance(cards, bool):
            raise ValueError(f"cannot make a card set from {cards!r}")
        elif isinstance(cards, numbers.Integral) and not isinstance(cards, Card):
            # A bit-board: Python ints and numpy integers (a row of a uint64 hands array).
            mask = int(cards)
            if mask < 0 or mask & ~_ALL_IDS_MASK:
                raise ValueError(f"bit-board {mask:#x} has bits that are not cards")
        else:
            try:
                items = iter(cards)
            except TypeError:
                raise ValueError(
                    f"cannot make a card set from {cards!r}: expected text, a bit-board or cards"
                ) from None
            mask = 0
            for item in items:
                card = parse_card(item)
                if mask >> card & 1:
                    raise ValueError(f"duplicate card {card}")
                mask |= 1 << card
        self.mask = mask

    # -- construction -------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse a hand such as ``"J♣ A♥ 10♥"`` or ``"JC,AH,TH"``; duplicates raise."""
        if isinstance(text, CardSet):
            return text
        if not isinstance(text, str):
            raise ValueError(f"malformed hand {text!r}: expected a string such as 'J♣ A♥ 10♥'")
        mask = 0
        for token in _card_texts(text):
            try:
                card = Card.parse(token)
            except ValueError as exc:
                raise ValueError(f"{exc} in hand {text!r}") from None
            if mask >> card & 1:
                raise ValueError(f"duplicate card {card} in {text!r}")
            mask |= 1 << card
        return cls(mask)

    @classmethod
    def from_pbn(cls, text: str) -> CardSet:
        """Parse one PBN hand ``"AKQ.J.T9.8"``: four dot-separated suits ♠ ♥ ♦ ♣, ``-`` for a void."""
        if not isinstance(text, str):
            raise ValueError(f"malformed PBN hand {text!r}: expected a string such as 'AKQ.J.T9.8'")
        parts = text.strip().split(".")
        if len(parts) != 4:
            raise ValueError(f"malformed PBN hand {text!r}: expected four suits separated by dots (♠.♥.♦.♣)")
        mask = 0
        for suit, part in zip((3, 2, 1, 0), parts):
            if part == "-":
                continue
            for ch in part:
                rank = _RANK_BY_TEXT.get(ch.upper()) if ch not in "1" else None
                if rank is None:
                    raise ValueError(f"malformed PBN hand {text!r}: unknown rank {ch!r}")
                bit = 16 * suit + rank
                if mask >> bit & 1:
                    raise ValueError(f"duplicate card {Card(bit)} in PBN hand {text!r}")
                mask |= 1 << bit
        return cls(mask)

    def pbn(self) -> str:
        """PBN form (♠.♥.♦.♣, high to low, ``T`` for ten)."""
        parts = []
        for suit in (3, 2, 1, 0):
            ranks = [r for r in range(12, -1, -1) if self.mask >> (16 * suit + r) & 1]
            parts.append("".join("T" if r == 8 else RANKS[r] for r in ranks))
        return ".".join(parts)

    # -- set protocol -------------------------------------------------------------------
    def __iter__(self) -> Iterator[Card]:
        m = self.mask
        while m:
            low = m & -m
            yield Card(low.bit_length() - 1)
            m ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = Card.parse(card)
        if not isinstance(card, int) or isinstance(card, bool):
            return False
        return 0 <= card < 64 and bool(self.mask >> int(card) & 1)

    def __int__(self) -> int:
        return self.mask

    __index__ = __int__

    def __hash__(self) -> int:
        return hash(self.mask)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def _coerce(self, other: object) -> int:
        if isinstance(other, CardSet):
            return other.mask
        if isinstance(other, Card):  # one card, not a bit-board (a Card is an int)
            return 1 << other
        if isinstance(other, str):
            return CardSet.parse(other).mask
        if isinstance(other, int):
            return int(other)
        return CardSet(other).mask  # type: ignore[arg-type]

    @classmethod
    def _of(cls, mask: int) -> CardSet:
        """A set of the cards of ``mask``, known to be cards (no checks)."""
        s = object.__new__(cls)
        s.mask = mask
        return s

    # (two sets make a set of cards: no check; any other operand goes through the checks)
    def __or__(self, other: object) -> CardSet:
        if type(other) is CardSet:
            return CardSet._of(self.mask | other.mask)
        return CardSet(self.mask | self._coerce(other))

    def __and__(self, other: object) -> CardSet:
        if type(other) is CardSet:
            return CardSet._of(self.mask & other.mask)
        return CardSet(self.mask & self._coerce(other))

    def __sub__(self, other: object) -> CardSet:
        if type(other) is CardSet:
            return CardSet._of(self.mask & ~other.mask)
        return CardSet(self.mask & ~self._coerce(other))

    def __xor__(self, other: object) -> CardSet:
        if type(other) is CardSet:
            return CardSet._of(self.mask ^ other.mask)
        return CardSet(self.mask ^ self._coerce(other))

    __ror__ = __or__
    __rand__ = __and__

    def __le__(self, other: object) -> bool:
        o = self._coerce(other)
        return self.mask & ~o == 0

    def __ge__(self, other: object) -> bool:
        o = self._coerce(other)
        return o & ~self.mask == 0

    def __lt__(self, other: object) -> bool:
        return self <= other and self.mask != self._coerce(other)

    def __gt__(self, other: object) -> bool:
        return self >= other and self.mask != self._coerce(other)

    def isdisjoint(self, other: object) -> bool:
        return self.mask & self._coerce(other) == 0

    def suit(self, suit: int | str) -> CardSet:
        """The cards of one printed suit (index or letter)."""
        s = _SUIT_BY_TEXT.get(suit) if isinstance(suit, str) else _index(suit)
        if s is None or not 0 <= s < 4:
            raise ValueError(f"unknown suit {suit!r}: expected C D H S, ♣ ♦ ♥ ♠ or an index 0-3")
        return CardSet(self.mask & (0x1FFF << (16 * s)))

    # -- display ------------------------------------------------------------------------
    def cards_high_first(self) -> list[Card]:
        """The cards ♠ ♥ ♦ ♣, each suit high to low (the order ``str`` shows)."""
        return [Card(16 * s + r) for s in (3, 2, 1, 0) for r in range(12, -1, -1) if self.mask >> (16 * s + r) & 1]

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards_high_first())

    def __repr__(self) -> str:
        return f"CardSet('{self}')"


def parse_hand(text: str | CardSet | Iterable[Card | str | int]) -> CardSet:
    """Parse a hand given as text (``"J♣ A♥ 10♥"``, PBN ``"AKQ.J.T9.8"``), a CardSet or cards."""
    if isinstance(text, CardSet):
        return text
    if text is None:
        raise ValueError("malformed hand None: expected text such as 'J♣ A♥ 10♥', a CardSet or cards")
    if isinstance(text, str):
        stripped = text.strip()
        # No card text contains a dot: a dotted word is a (possibly malformed) PBN hand.
        if "." in stripped and not any(ch.isspace() for ch in stripped):
            return CardSet.from_pbn(stripped)
        return CardSet.parse(text)
    return CardSet(text)


def _deck(rank_names: str) -> CardSet:
    return CardSet([Card.make(r, s) for s in range(4) for r in rank_names.split()])


#: Schnapsen deck, 20 cards: A 10 K Q J.
DECK20 = _deck("A 10 K Q J")
#: Piquet deck, 32 cards: A K Q J 10 9 8 7.
DECK32 = _deck("A K Q J 10 9 8 7")
#: Full deck, 52 cards.
DECK52 = _deck(" ".join(RANKS))
DECKS = {20: DECK20, 32: DECK32, 52: DECK52}
