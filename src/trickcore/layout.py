"""Layouts: a contract of a game compiled to the data the compiled core runs on.

The core knows no game.  Each contract of each game becomes a :class:`Layout`:

* which *layout bit* each card of the deck occupies.  Effective suits are contiguous bit
  ranges, each ordered by trick-taking rank (low bit = low card), and the trump suit, if
  any, is the highest range.  So the winner of a trick is simply the card with the highest
  bit among those of the led suit or of trump, and "runs of equivalent cards" for the
  solver are runs of adjacent bits;
* per-card points, the last-trick bonus, trick melds (Clover);
* lead restrictions (a suit that may not be led until broken, a forced first lead, a
  points-free first trick, a card that must be played when its suit is first led);
* the objective (card points, tricks, or Nil) and whether the declarer's side wants it high
  or low, and the rule that says which seats form the declarer's side.

Hands cross the public API as *universal* bit-boards (see :mod:`trickcore.cards`); the
layout's byte tables translate them to layout bits inside the core.

Examples
--------
>>> from trickcore.games import get_game
>>> lay = get_game("goathead3").layout("hearts")
>>> [str(c) for c in lay.suits[-1]]          # trump, low to high
['Q♥', 'K♥', '10♥', 'A♥', 'J♦', 'J♥', 'J♠', 'J♣']
>>> lay.suit_names[-1], lay.trump
('trump', True)
>>> lay.legal_moves("J♣ A♥ 10♠", led="QH")   # must follow trump with a trump
CardSet('A♥ J♣')
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

from .cards import Card, CardSet, parse_card, parse_hand

__all__ = ["Layout", "OBJECTIVES", "GOALS", "alone", "across", "holder_of", "resolve_layout", "seat_array"]

OBJECTIVES = ("points", "tricks", "nil")
GOALS = ("max", "min")

#: A side rule maps hands (universal bit-boards, shape ``(n, n_seats)``) and the declarer
#: seat per deal (shape ``(n,)``) to the declarer's side as a seat bit mask per deal.
SideRule = Callable[[np.ndarray, np.ndarray], np.ndarray]


def alone(hands: np.ndarray, declarer: np.ndarray) -> np.ndarray:
    """The declarer plays alone against everybody else."""
    return (np.uint8(1) << np.asarray(declarer, dtype=np.uint8)).astype(np.uint8)


def across(hands: np.ndarray, declarer: np.ndarray) -> np.ndarray:
    """Fixed partnerships of four seats: the declarer and the seat across (declarer + 2)."""
    d = np.asarray(declarer, dtype=np.uint8)
    return ((np.uint8(1) << d) | (np.uint8(1) << ((d + 2) % 4))).astype(np.uint8)


def holder_of(card: Card | str) -> SideRule:
    """The declarer and whoever holds ``card`` (the declarer alone if they hold it)."""
    bit = np.uint64(1) << np.uint64(parse_card(card))

    def rule(hands: np.ndarray, declarer: np.ndarray) -> np.ndarray:
        hands = np.asarray(hands, dtype=np.uint64)
        holds = (hands & bit) != 0  # (n, seats)
        seats = np.arange(hands.shape[1], dtype=np.uint8)
        partner = (holds * (np.uint8(1) << seats)).sum(axis=1).astype(np.uint8)
        return (alone(hands, declarer) | partner).astype(np.uint8)

    rule.__name__ = f"holder_of_{parse_card(card).ascii()}"
    return rule


@dataclass(frozen=True, eq=False)
class Layout:
    """One contract of one game, as the compiled core sees it.

    Parameters
    ----------
    game, contract:
        Identifiers (``"goathead3"``, ``"hearts"``).
    n_seats, hand_size, kitty_size:
        Seats at the table, cards per hand (= tricks in a full round), cards left over.
    suits:
        The effective suits, each a sequence of cards from low to high.  When ``trump`` is
        true the *last* suit is the trump suit.  Every card of the deck is in exactly one.
    suit_names:
        One name per effective suit (``"clubs"``, ..., ``"trump"``).
    points:
        Card points per card (cards not listed are worth 0).
    last_trick_bonus:
        Points added to the winner of the last trick (Clover: ``-2``).
    objective, goal:
        ``"points"``, ``"tricks"`` or ``"nil"``, and whether the declarer's side wants the
        value high (``"max"``) or low (``"min"``, e.g. Hearts points under the paranoid
        reduction).
    side_rule:
        Which seats form the declarer's side (see :func:`alone`, :func:`across`,
        :func:`holder_of`).
    lead_restricted, breakers, unlock_trick:
        Cards that may not be led until *broken*, i.e. until a card of ``breakers`` has been
        played (in this or an earlier trick) or trick index ``unlock_trick`` is reached,
        unless the leader holds nothing else.
    first_lead:
        A card whose holder must lead it to the first trick (2♣ in Hearts, 9♣ in Gamut).
    first_trick_forbidden:
        On the first trick a player who cannot follow must play a card outside this set if
        they hold one (Hearts' points-free first trick).
    must_play_first:
        A card its holder must play when its effective suit is led for the first time
        (Sheepshead's called ace).
    trick_meld_rank, trick_meld_table, bell:
        Trick melds (Clover): a small rank index per card, a table of meld values indexed by
        the trick's sorted rank indices (3 bits each) plus 4096 when the trick holds every
        card of ``bell``.
    rules:
        The rule options the layout was built with (for re-creation and display).
    """

    game: str
    contract: str
    n_seats: int
    hand_size: int
    kitty_size: int
    suits: tuple[tuple[Card, ...], ...]
    suit_names: tuple[str, ...]
    trump: bool = False
    points: Mapping[Card, int] = field(default_factory=dict)
    last_trick_bonus: int = 0
    objective: str = "points"
    goal: str = "max"
    side_rule: SideRule = alone
    lead_restricted: CardSet = field(default_factory=CardSet)
    breakers: CardSet = field(default_factory=CardSet)
    unlock_trick: int = 127
    first_lead: Card | None = None
    first_trick_forbidden: CardSet = field(default_factory=CardSet)
    must_play_first: Card | None = None
    trick_meld_rank: Mapping[Card, int] | None = None
    trick_meld_table: np.ndarray | None = None
    bell: CardSet = field(default_factory=CardSet)
    rules: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        suits = tuple(tuple(parse_card(c) for c in s) for s in self.suits)
        object.__setattr__(self, "suits", suits)
        object.__setattr__(self, "points", {parse_card(c): int(v) for c, v in dict(self.points).items()})
        for name in ("lead_restricted", "breakers", "first_trick_forbidden", "bell"):
            object.__setattr__(self, name, parse_hand(getattr(self, name)))
        for name in ("first_lead", "must_play_first"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, parse_card(getattr(self, name)))
        cards = [c for s in suits for c in s]
        if len(set(cards)) != len(cards):
            raise ValueError(f"{self.name}: a card appears in two effective suits")
        if len(cards) > 64:
            raise ValueError(f"{self.name}: more than 64 cards")
        if len(self.suit_names) != len(suits):
            raise ValueError(f"{self.name}: {len(suits)} suits but {len(self.suit_names)} names")
        if len(suits) > 8:
            raise ValueError(f"{self.name}: at most 8 effective suits")
        # One seat is allowed: Gamut Clubs with three folded players is played out alone.
        if not 1 <= self.n_seats <= 8:
            raise ValueError(f"{self.name}: n_seats must be 1..8")
        if self.n_seats * self.hand_size + self.kitty_size != len(cards):
            raise ValueError(
                f"{self.name}: {self.n_seats} seats x {self.hand_size} + kitty {self.kitty_size} "
                f"!= {len(cards)} cards in the deck"
            )
        if self.objective not in OBJECTIVES:
            raise ValueError(f"{self.name}: objective must be one of {OBJECTIVES}")
        if self.goal not in GOALS:
            raise ValueError(f"{self.name}: goal must be one of {GOALS}")
        deck = self.deck
        for name in ("lead_restricted", "breakers", "first_trick_forbidden", "bell"):
            extra = getattr(self, name) - deck
            if extra:
                raise ValueError(f"{self.name}: {name} holds cards outside the deck: {extra}")
        for c in self.points:
            if c not in deck:
                raise ValueError(f"{self.name}: points given for {c}, which is not in the deck")
        if self.trick_meld_table is not None:
            if self.n_seats > 4:
                raise ValueError(f"{self.name}: trick melds need at most 4 seats")
            table = np.ascontiguousarray(self.trick_meld_table, dtype=np.int16)
            if table.shape != (8192,):
                raise ValueError(f"{self.name}: trick_meld_table must have 8192 entries")
            object.__setattr__(self, "trick_meld_table", table)
            if self.trick_meld_rank is None or set(self.trick_meld_rank) != set(cards):
                raise ValueError(f"{self.name}: trick_meld_rank must give every card a rank 0-7")
            object.__setattr__(self, "trick_meld_rank", {parse_card(c): int(v) for c, v in self.trick_meld_rank.items()})

    # -- identity ------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return f"{self.game}/{self.contract}"

    def __repr__(self) -> str:
        rules = "".join(f", {k}={v!r}" for k, v in self.rules.items())
        if self.__dict__.get("_is_variant"):
            rules += f", objective={self.objective!r}"
        return f"<Layout {self.name}{rules}>"

    def __reduce__(self):  # layouts travel to workers as (game, contract, rules, objective)
        return (_rebuild_layout, (self.game, self.contract, dict(self.rules), self.objective))

    def with_objective(self, objective: str) -> Layout:
        """This layout with another solver objective: ``"nil"`` asks whether the
        declarer's side can take no trick at all (play stops at its first trick, value 0 or
        1, and the side wants it low), ``"tricks"`` counts tricks (the goal kept),
        ``"points"`` card points (only for a layout that has them).  The same object comes
        back for the same objective.

        A Spades hand's nil, say, is a question of the Nil objective: it costs a few dozen
        nodes where the fewest tricks the seat can be held to (``goal='min'``) can cost
        millions.

        >>> from trickcore import get_game
        >>> lay = get_game("spades").layout("spades")
        >>> nil = lay.with_objective("nil")
        >>> nil.objective, nil.goal, lay.objective, nil.with_objective("nil") is nil
        ('nil', 'min', 'tricks', True)
        """
        if objective == self.objective:
            return self
        if objective not in OBJECTIVES:
            raise ValueError(f"{self.name}: objective must be one of {OBJECTIVES}, not {objective!r}")
        if objective == "points" and not self.points:
            raise ValueError(f"{self.name}: no card points, so no points objective")
        variant = self._objective_variants.get(objective)
        if variant is None:
            goal = "min" if objective == "nil" else self.goal
            variant = replace(self, objective=objective, goal=goal)
            self._objective_variants[objective] = variant
            # both ways: the variant's own variants are the base and its siblings
            variant.__dict__["_objective_variants"] = self._objective_variants
            variant.__dict__["_is_variant"] = True
            self._objective_variants.setdefault(self.objective, self)
        return variant

    @cached_property
    def _objective_variants(self) -> dict[str, Layout]:
        return {}

    # -- derived card tables -------------------------------------------------------------
    @cached_property
    def deck(self) -> CardSet:
        """Every card in play (hands and kitty)."""
        return CardSet([c for s in self.suits for c in s])

    @cached_property
    def bit_to_card(self) -> np.ndarray:
        """Universal card id of each layout bit (``-1`` past the deck), ``int8[64]``."""
        out = np.full(64, -1, dtype=np.int8)
        cards = [c for s in self.suits for c in s]
        out[: len(cards)] = cards
        return out

    @cached_property
    def card_to_bit(self) -> np.ndarray:
        """Layout bit of each universal card id (``-1`` if not in the deck), ``int8[64]``."""
        out = np.full(64, -1, dtype=np.int8)
        for b, c in enumerate(self.bit_to_card):
            if c >= 0:
                out[c] = b
        return out

    @cached_property
    def suit_masks(self) -> np.ndarray:
        """Layout-bit mask of each effective suit, ``uint64[n_suits]``."""
        masks, start = [], 0
        for s in self.suits:
            masks.append(((1 << len(s)) - 1) << start)
            start += len(s)
        return np.array(masks, dtype=np.uint64)

    def effective_suit(self, card: Card | str) -> int:
        """Index of the effective suit ``card`` belongs to in this contract."""
        card = parse_card(card)
        for i, s in enumerate(self.suits):
            if card in s:
                return i
        raise ValueError(f"{card} is not in the deck of {self.name}")

    def rank_order(self, card: Card | str) -> int:
        """Trick-taking strength: the layout bit (higher wins within the same suit)."""
        card = parse_card(card)
        b = int(self.card_to_bit[card])
        if b < 0:
            raise ValueError(f"{card} is not in the deck of {self.name}")
        return b

    def point_table(self) -> np.ndarray:
        """Card points per universal card id, ``int16[64]``."""
        out = np.zeros(64, dtype=np.int16)
        for c, v in self.points.items():
            out[c] = v
        return out

    @cached_property
    def total_points(self) -> int:
        """All card points in the deck plus the last-trick bonus."""
        return sum(self.points.values()) + self.last_trick_bonus

    @cached_property
    def core(self):
        """The compiled-core view of this layout (a ``trickcore._layout.CoreLayout``)."""
        from ._layout import CoreLayout

        return CoreLayout(self)

    # -- conversions ---------------------------------------------------------------------
    def to_layout_bits(self, hands: Any) -> np.ndarray:
        """Translate universal bit-boards (any shape, kept) to this layout's bits.

        ``ValueError`` for anything but non-negative integers, and for a card outside the
        deck, which has no layout bit (it would vanish from the hand).  The library's own
        callers, which have checked their deals already, use ``self.core.to_layout_bits``.

        >>> from trickcore.games import get_game
        >>> lay = get_game("goathead3").layout("hearts")
        >>> int(lay.to_universal(lay.to_layout_bits(CardSet("AH JC").mask))) == CardSet("AH JC").mask
        True
        >>> lay.to_layout_bits([[CardSet("AH").mask, CardSet("9C").mask]])
        Traceback (most recent call last):
          ...
        ValueError: 9♣ not in the deck of goathead3/hearts (first at [0, 1])
        """
        a = bitboards(hands, f"hands must be universal bit-boards (non-negative integers) for {self.name}")
        deck = self.deck.mask
        # one OR over the whole array: the valid path pays a single pass for the check
        outside = int(np.bitwise_or.reduce(a, axis=None)) & ~deck
        if outside:
            raise ValueError(f"{CardSet(outside)} not in the deck of {self.name}{_first_at(a, _ALL_BITS ^ deck)}")
        return self.core.to_layout_bits(a).reshape(a.shape)

    def to_universal(self, masks: Any) -> np.ndarray:
        """Translate layout-bit bit-boards (any shape, kept) back to universal ids.

        ``ValueError`` for anything but non-negative integers, and for a bit at or past the
        deck's card count, which stands for no card.

        >>> from trickcore.games import get_game
        >>> get_game("goathead3").layout("hearts").to_universal([1 << 20])
        Traceback (most recent call last):
          ...
        ValueError: layout bit 20 past the 20 cards of goathead3/hearts (first at [0])
        """
        a = bitboards(masks, f"masks must be layout bit-boards (non-negative integers) for {self.name}")
        n = len(self.deck)
        past = int(np.bitwise_or.reduce(a, axis=None)) >> n
        if past:
            bits = [str(n + b) for b in range(64 - n) if past >> b & 1]
            raise ValueError(f"layout bit{'s' if len(bits) > 1 else ''} {', '.join(bits)} past the {n} cards "
                             f"of {self.name}{_first_at(a, _ALL_BITS ^ ((1 << n) - 1))}")
        return self.core.to_universal(a).reshape(a.shape)

    # -- validation ----------------------------------------------------------------------
    def check_hands(self, hands: Sequence[Any], *, full: bool = False, equal: bool = False) -> list[CardSet]:
        """Parse one hand per seat; raise ``ValueError`` naming the offending card or hand.

        ``full`` demands ``hand_size`` cards in every hand; ``equal`` demands equal sizes.
        """
        if isinstance(hands, (str, CardSet)) or not hasattr(hands, "__len__") or len(hands) != self.n_seats:
            raise ValueError(f"{self.name} needs {self.n_seats} hands, one per seat; got {hands!r}")
        parsed: list[CardSet] = []
        seen = CardSet()
        for seat, h in enumerate(hands):
            try:
                hand = parse_hand(h)
            except ValueError as exc:
                raise ValueError(f"seat {seat}: {exc}") from None
            outside = hand - self.deck
            if outside:
                raise ValueError(f"seat {seat}: {outside} not in the deck of {self.name}")
            dup = hand & seen
            if dup:
                raise ValueError(f"seat {seat}: {dup} already in another hand")
            if len(hand) > self.hand_size:
                raise ValueError(f"seat {seat}: {len(hand)} cards, more than the {self.hand_size} of {self.name}")
            if full and len(hand) != self.hand_size:
                raise ValueError(f"seat {seat}: {len(hand)} cards, {self.name} deals {self.hand_size}")
            seen |= hand
            parsed.append(hand)
        if equal and len({len(h) for h in parsed}) > 1:
            sizes = [len(h) for h in parsed]
            raise ValueError(f"hands of unequal size {sizes}")
        return parsed

    # -- scalar helpers, mainly for people and doctests --------------------------------
    def legal_moves(
        self,
        hand: Any,
        led: Any = None,
        *,
        trick_index: int = 0,
        played: Any = None,
        suits_led: int = 0,
    ) -> CardSet:
        """The cards of ``hand`` that may be played (compiled rule, universal cards).

        ``led`` is the card that led the current trick (``None`` when leading), ``played``
        every card played so far in the round (including the current trick), ``suits_led``
        a bit mask of the effective suits led in earlier tricks.
        """
        h = parse_hand(hand)
        deck = self.deck.mask
        if h.mask & ~deck:
            raise ValueError(f"hand: {h - self.deck} not in the deck of {self.name}")
        led_card = None if led is None else parse_card(led)
        led_suit = -1 if led_card is None else self.effective_suit(led_card)
        p = parse_hand(played) if played is not None else CardSet()
        if p.mask & ~deck:
            raise ValueError(f"played: {p - self.deck} not in the deck of {self.name}")
        if h.mask & p.mask:
            raise ValueError(f"{h & p} both in the hand and played")
        if led_card is not None:
            if led_card in h:
                raise ValueError(f"the led card {led_card} is also in the hand")
            p = p | CardSet([led_card])
        if not isinstance(trick_index, (int, np.integer)) or isinstance(trick_index, bool) \
                or not 0 <= trick_index < self.hand_size:
            raise ValueError(f"trick_index must be a trick number 0..{self.hand_size - 1}, not {trick_index!r}")
        if not isinstance(suits_led, (int, np.integer)) or isinstance(suits_led, bool) \
                or not 0 <= suits_led < 1 << len(self.suits):
            raise ValueError(f"suits_led must be a bit mask of effective suits below {1 << len(self.suits)}, "
                             f"not {suits_led!r}")
        out = self.core.legal_moves_batch(
            np.array([h.mask], dtype=np.uint64),
            np.array([led_suit], dtype=np.int8),
            np.array([trick_index], dtype=np.int8),
            np.array([p.mask], dtype=np.uint64),
            np.array([suits_led], dtype=np.uint8),
        )
        return CardSet(int(out[0]))

    def trick_winner(self, cards: Sequence[Any]) -> int:
        """Position (0 = leader) of the winning card among ``cards`` in play order."""
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        try:
            cs = [parse_card(c) for c in cards]
        except TypeError:
            raise ValueError(f"cards must be the trick's cards in play order, not {cards!r}") from None
        if not 1 <= len(cs) <= self.n_seats:
            raise ValueError(f"a trick of {self.name} holds 1..{self.n_seats} cards, not {len(cs)}")
        mask = 0
        for c in cs:
            mask |= 1 << c
        if mask.bit_count() != len(cs):
            raise ValueError(f"a card appears twice in the trick {' '.join(map(str, cs))}")
        if mask & ~self.deck.mask:
            outside = [str(c) for c in cs if c not in self.deck]
            raise ValueError(f"{' '.join(outside)} not in the deck of {self.name}")
        arr = np.array([cs], dtype=np.int8)
        return int(self.core.trick_winners_batch(arr)[0])

    def sides(self, hands: Any, declarer: Any) -> np.ndarray:
        """The declarer's side as a seat bit mask per deal (``uint8``)."""
        bad = (f"hands must be {self.n_seats} universal bit-boards (one per seat) or an array "
               f"(n, {self.n_seats}) of them for {self.name}")
        h = bitboards(hands, bad)
        if h.ndim not in (1, 2) or h.shape[-1] != self.n_seats:
            raise ValueError(bad)
        single = h.ndim == 1
        h = np.atleast_2d(h)
        d = seat_array("declarer", declarer, h.shape[0], self.n_seats)
        out = np.asarray(self.side_rule(h, d), dtype=np.uint8)
        return out[0] if single else out


def resolve_layout(game: Any, contract: str | None, rules: Mapping[str, Any]) -> Layout:
    """The layout named by ``game`` (id, Game or :class:`Layout`) and ``contract``.

    The compiled entry points (playouts, solver) all accept either form; a ready Layout
    takes no contract and no rule options, which were fixed when it was built.

    >>> resolve_layout("spades", "spades", {"spade_leading": "always"}).rules
    {'spade_leading': 'always'}
    """
    from .games import get_game

    if isinstance(game, Layout):
        if contract is not None:
            raise ValueError(f"contract must be None when a Layout ({game.name}) is given; got {contract!r}")
        if rules:
            raise ValueError(
                f"rule options ({', '.join(sorted(rules))}) cannot be given with a Layout; "
                "they are fixed when the layout is built"
            )
        return game
    g = get_game(game)
    if contract is None:
        raise ValueError(f"a contract of {g.id} is needed; valid contracts: {', '.join(g.contracts)}")
    return g.layout(contract, **rules)


def bitboards(value: Any, error: str) -> np.ndarray:
    """``value`` as ``uint64`` bit-boards, or ``ValueError(error)``: integers only, none
    negative (numpy would wrap them), nothing that is not a number (no float, not even a
    whole one, which numpy would truncate, and no bool).  Cards and CardSets count as the
    integers they are.

    >>> bitboards([[1, 2]], "bad").tolist()
    [[1, 2]]
    >>> bitboards([CardSet("AH"), 2**63], "bad").tolist() == [CardSet("AH").mask, 2**63]
    True
    >>> bitboards(np.array([-1]), "hands must be bit-boards")
    Traceback (most recent call last):
      ...
    ValueError: hands must be bit-boards
    >>> bitboards([1.5], "hands must be bit-boards")
    Traceback (most recent call last):
      ...
    ValueError: hands must be bit-boards
    """
    if not isinstance(value, np.ndarray):
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError, OverflowError):   # ragged nesting
            arr = None
        if arr is None or arr.dtype.kind not in "iu":
            # CardSets and Cards, ints past int64, numpy integers of mixed types (which numpy
            # would make floats): each element must be an integer by itself
            return _index_bitboards(value, error)
        value = arr
    if value.dtype.kind not in "iu" or (value.dtype.kind == "i" and value.size and value.min() < 0):
        raise ValueError(error)
    return np.asarray(value, dtype=np.uint64)


def _index_bitboards(value: Any, error: str) -> np.ndarray:
    """:func:`bitboards` element by element (``operator.index``) for what numpy does not
    read as an integer array by itself."""
    try:
        obj = np.array(value, dtype=object)
        flat = [operator.index(v) if not isinstance(v, (bool, np.bool_)) else None for v in obj.reshape(-1)]
    except (TypeError, ValueError):
        raise ValueError(error) from None
    if any(v is None or not 0 <= v <= _ALL_BITS for v in flat):
        raise ValueError(error)
    return np.array(flat, dtype=np.uint64).reshape(obj.shape)


#: Every bit of a 64-bit bit-board.
_ALL_BITS = (1 << 64) - 1


def _first_at(a: np.ndarray, bits: int) -> str:
    """`` (first at [i, j])``: the index of the first bit-board of ``a`` with one of
    ``bits``, for an error message (nothing for a single bit-board)."""
    if a.ndim == 0:
        return ""
    i = int(np.flatnonzero(a & np.uint64(bits))[0])
    return f" (first at {[int(k) for k in np.unravel_index(i, a.shape)]})"


def seat_array(name: str, value: Any, n: int, n_seats: int) -> np.ndarray:
    """One seat per deal (``int64[n]``) from a seat number or an array of them.

    >>> seat_array("leader", 2, 3, 4)
    array([2, 2, 2])
    >>> seat_array("leader", [0, 4], 2, 4)
    Traceback (most recent call last):
      ...
    ValueError: leader 4 out of range for 4 seats (deal 1)
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if not 0 <= value < n_seats:     # one seat for every deal: no array work
            raise ValueError(f"{name} {value} out of range for {n_seats} seats")
        return np.full(n, value, dtype=np.int64)
    arr = np.asarray(value)
    if arr.ndim == 0:
        arr = np.full(n, arr)
    if arr.shape != (n,):
        raise ValueError(f"{name} must be an int or an array of shape ({n},); got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        if arr.dtype.kind not in "f" or not np.all(np.mod(arr, 1) == 0):
            raise ValueError(f"{name} must hold seat numbers (integers)")
    bad = (arr < 0) | (arr >= n_seats)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name} {arr[i]} out of range for {n_seats} seats (deal {i})")
    return arr.astype(np.int64)


def _rebuild_layout(game: str, contract: str, rules: dict, objective: str | None = None) -> Layout:
    from .games import get_game

    layout = get_game(game).layout(contract, **rules)
    return layout if objective is None else layout.with_objective(objective)
