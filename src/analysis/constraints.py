"""What the analyst knows or assumes about the hidden hands.

Two kinds of knowledge:

* **fixed cards** — cards known to lie in a given seat's hand (or the kitty): a mapping
  ``{seat: cards}``, normalised by :func:`fixed_masks` to one bit-board per seat plus the
  kitty.  Fixed cards are dealt as fixed, never rejected for.
* **predicates** on a whole deal — composable :class:`Constraint` objects evaluated
  vectorised on a deals array ``uint64[n, n_seats + 1]`` (hands as universal bit-boards,
  the kitty last), e.g. "seat 1 holds J♦" (:class:`Holds`) or "seat 2 has at least three
  trumps" (:class:`Count`).  Combine them with ``&``, ``|`` and ``~``.

Seats are ``0 .. n_seats - 1``; :data:`KITTY` (``-1``, the last column) names the kitty.

:func:`sample_deals` draws deals that satisfy the predicates by rejection: deals are drawn
with the fixed cards in place and kept when every predicate holds, within a budget of drawn
deals; when not enough are found within it, a ``ValueError`` says how many were.

Examples
--------
>>> import numpy as np
>>> from trickcore.cards import CardSet
>>> deals = np.array([[CardSet.parse("JD AH").mask, CardSet.parse("JC QS").mask, 0],
...                   [CardSet.parse("JC AH").mask, CardSet.parse("JD QS").mask, 0]], dtype=np.uint64)
>>> partner_jd = Holds(1, "JD")
>>> partner_jd.mask(deals).tolist()
[False, True]
>>> (partner_jd | Count(0, "JC JS JH JD", min=1)).mask(deals).tolist()
[True, True]
>>> (~partner_jd).mask(deals).tolist(), repr(~partner_jd)
([True, False], 'not seat 1 holds J♦')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from trickcore.cards import CardSet, parse_card, parse_hand
from trickcore.games import Game, get_game

__all__ = [
    "KITTY",
    "Constraint",
    "Holds",
    "HoldsAny",
    "Count",
    "Points",
    "Predicate",
    "fixed_masks",
    "trumps",
    "suit_cards",
    "as_constraint",
    "parse_constraint",
    "sample_deals",
]

#: The kitty's column in a deals array (the last one).
KITTY = -1


def _seat_name(seat: int) -> str:
    return "the kitty" if seat == KITTY else f"seat {seat}"


def _popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(np.asarray(x, dtype=np.uint64)).astype(np.int64)


class Constraint:
    """A predicate on deals, evaluated on a whole ``uint64[n, n_seats + 1]`` array at once.

    Subclasses implement :meth:`mask`; ``&``, ``|`` and ``~`` build compound predicates.
    """

    def mask(self, deals: np.ndarray) -> np.ndarray:  # pragma: no cover - interface
        """``bool[n]``: which deals satisfy the predicate."""
        raise NotImplementedError

    def __call__(self, deals: np.ndarray) -> np.ndarray:
        return self.mask(deals)

    def __and__(self, other: Any) -> Constraint:
        return _All((self, as_constraint(other)))

    def __or__(self, other: Any) -> Constraint:
        return _Any((self, as_constraint(other)))

    def __invert__(self) -> Constraint:
        return _Not(self)

    def check_seats(self, n_seats: int) -> None:
        """Raise ``ValueError`` when a seat named here does not exist at this table."""
        for seat in self._seats():
            if seat != KITTY and not 0 <= seat < n_seats:
                raise ValueError(f"{self!r}: no seat {seat} at a table of {n_seats} (seats 0..{n_seats - 1}, KITTY = -1)")

    def _seats(self) -> tuple[int, ...]:
        return ()


class _All(Constraint):
    def __init__(self, parts: tuple[Constraint, ...]) -> None:
        self.parts = parts

    def mask(self, deals: np.ndarray) -> np.ndarray:
        out = np.ones(len(deals), dtype=bool)
        for p in self.parts:
            out &= p.mask(deals)
        return out

    def _seats(self) -> tuple[int, ...]:
        return tuple(s for p in self.parts for s in p._seats())

    def __repr__(self) -> str:
        return "(" + " and ".join(map(repr, self.parts)) + ")"


class _Any(_All):
    def mask(self, deals: np.ndarray) -> np.ndarray:
        out = np.zeros(len(deals), dtype=bool)
        for p in self.parts:
            out |= p.mask(deals)
        return out

    def __repr__(self) -> str:
        return "(" + " or ".join(map(repr, self.parts)) + ")"


class _Not(Constraint):
    def __init__(self, part: Constraint) -> None:
        self.part = part

    def mask(self, deals: np.ndarray) -> np.ndarray:
        return ~self.part.mask(deals)

    def _seats(self) -> tuple[int, ...]:
        return self.part._seats()

    def __repr__(self) -> str:
        return f"not {self.part!r}"


class Count(Constraint):
    """Seat ``seat`` holds between ``min`` and ``max`` cards of ``cards`` (inclusive).

    >>> Count(2, "JC JS JH JD AC 10C KC QC", min=3)     # at least three club-contract trumps
    seat 2 holds at least 3 of J♣ J♠ J♥ J♦ A♣ 10♣ K♣ Q♣
    """

    def __init__(self, seat: int, cards: Any, min: int = 0, max: int | None = None) -> None:
        self.seat = int(seat)
        self.cards = parse_hand(cards)
        self.shown = _display(cards)
        self.min = int(min)
        self.max = len(self.cards) if max is None else int(max)
        if self.min > self.max:
            raise ValueError(f"Count: min {self.min} > max {self.max}")

    def _seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def mask(self, deals: np.ndarray) -> np.ndarray:
        deals = np.asarray(deals, dtype=np.uint64)
        k = _popcount(deals[:, self.seat] & np.uint64(self.cards.mask))
        return (k >= self.min) & (k <= self.max)

    def __repr__(self) -> str:
        cards = self.shown
        if self.max >= len(self.cards):
            what = f"at least {self.min}"
        elif self.min == 0:
            what = f"at most {self.max}"
        else:
            what = f"{self.min} to {self.max}"
        return f"{_seat_name(self.seat)} holds {what} of {cards}"


def _display(cards: Any) -> str:
    """Cards in the order the analyst typed them when given as text, else as a hand."""
    if isinstance(cards, str):
        try:
            return " ".join(str(parse_card(t)) for t in re.split(r"[\s,;]+", cards.strip()) if t)
        except ValueError:
            pass
    return str(parse_hand(cards))


class Holds(Count):
    """Seat ``seat`` holds every card of ``cards``.

    >>> Holds(1, "JD")
    seat 1 holds J♦
    """

    def __init__(self, seat: int, cards: Any) -> None:
        cs = parse_hand(cards)
        super().__init__(seat, cs, min=len(cs), max=len(cs))
        self.shown = _display(cards)

    def __repr__(self) -> str:
        return f"{_seat_name(self.seat)} holds {self.shown}"


class HoldsAny(Count):
    """Seat ``seat`` holds at least one card of ``cards``."""

    def __init__(self, seat: int, cards: Any) -> None:
        super().__init__(seat, cards, min=1)

    def __repr__(self) -> str:
        return f"{_seat_name(self.seat)} holds any of {self.shown}"


class Points(Constraint):
    """Seat ``seat``'s cards are worth between ``min`` and ``max`` card points in ``game``.

    >>> import numpy as np
    >>> from trickcore.cards import CardSet
    >>> deals = np.array([[CardSet.parse("AC 10C").mask, 0, 0, 0]], dtype=np.uint64)
    >>> Points("goathead3", 0, min=21).mask(deals).tolist()
    [True]
    """

    def __init__(self, game: str | Game, seat: int, min: int = -(10**9), max: int = 10**9, contract: str | None = None) -> None:
        g = get_game(game)
        self.seat, self.min, self.max = int(seat), int(min), int(max)
        lay = g.layout(contract or g.contracts[0])
        self.table = lay.point_table().astype(np.int64)

    def _seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def mask(self, deals: np.ndarray) -> np.ndarray:
        h = np.asarray(deals, dtype=np.uint64)[:, self.seat]
        pts = np.zeros(len(h), dtype=np.int64)
        for card in np.flatnonzero(self.table):
            pts += ((h >> np.uint64(card)) & np.uint64(1)).astype(np.int64) * self.table[card]
        return (pts >= self.min) & (pts <= self.max)

    def __repr__(self) -> str:
        if self.max >= 10**9:
            what = f"at least {self.min}"
        elif self.min <= -(10**9):
            what = f"at most {self.max}"
        else:
            what = f"{self.min} to {self.max}"
        return f"{_seat_name(self.seat)} holds {what} card points"


class Predicate(Constraint):
    """Any vectorised function ``f(deals) -> bool[n]``, with a name for messages.

    >>> import numpy as np
    >>> kitty_empty_of_aces = Predicate(lambda d: (d[:, -1] & np.uint64(0x1000100010001000)) == 0, "no ace in the kitty")
    >>> kitty_empty_of_aces
    no ace in the kitty
    """

    def __init__(self, func: Callable[[np.ndarray], Any], name: str | None = None) -> None:
        self.func = func
        self.name = name or getattr(func, "__name__", "predicate")

    def mask(self, deals: np.ndarray) -> np.ndarray:
        out = np.asarray(self.func(np.asarray(deals, dtype=np.uint64)), dtype=bool)
        if out.shape != (len(deals),):
            raise ValueError(f"predicate {self.name!r} returned shape {out.shape}, expected ({len(deals)},)")
        return out

    def __repr__(self) -> str:
        return self.name


def as_constraint(obj: Any) -> Constraint:
    """A :class:`Constraint` from a constraint, a callable, or a list of them (all must hold)."""
    if obj is None:
        return _All(())
    if isinstance(obj, Constraint):
        return obj
    if callable(obj):
        return Predicate(obj)
    if isinstance(obj, (list, tuple)):
        return _All(tuple(as_constraint(o) for o in obj))
    raise ValueError(f"not a constraint: {obj!r} (use Holds, Count, Points, Predicate or a function of the deals)")


#: Full suit names a condition may use for a printed suit (letters and symbols work too).
_SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
_CONNECTIVES = {"and", "or", ")"}


def parse_constraint(text: str, game: str | Game, contract: str | None = None, **rules: Any) -> Constraint:
    """A :class:`Constraint` from its text: the words the constraints print, so that
    ``parse_constraint(repr(c), game)`` is ``c`` again (the command line's ``--where``).

    One clause names a seat (``seat N`` or ``the kitty``) and what it holds::

        seat 1 holds J♦ A♥                    every one of these cards      (Holds)
        seat 1 holds any of J♦ J♥             at least one                  (HoldsAny)
        seat 2 holds at least 3 of trumps     at least / at most N of, or   (Count)
        seat 2 holds 1 to 2 of hearts         N to M of
        seat 0 holds at least 30 card points  card points: at least, at     (Points)
                                              most, N to M

    Cards are written as anywhere else (``JD``, ``J♦``, ``10h``); a suit's name, letter or
    symbol (``hearts``, ``H``, ``♥``) stands for the printed suit's cards (Sheepshead's hearts
include Q♥ and J♥, which are trumps there), ``trumps`` for
    ``contract``'s trumps and ``trumps:CONTRACT`` for another contract's.  Clauses combine
    with ``not``, ``and``, ``or`` (``and`` binds first) and parentheses.  Anything else is
    a ``ValueError`` that quotes the text and says what was expected where.

    >>> c = parse_constraint("seat 1 holds J♦ and not seat 2 holds at least 3 of trumps", "goathead3", "hearts")
    >>> c
    (seat 1 holds J♦ and not seat 2 holds at least 3 of J♠ A♥ K♥ Q♥ J♥ 10♥ J♦ J♣)
    >>> parse_constraint(repr(c), "goathead3").mask(sample_deals("goathead3", 4, seed=3, where=c)).tolist()
    [True, True, True, True]
    >>> parse_constraint("seat 1 holds at lest 3 of hearts", "goathead3")
    Traceback (most recent call last):
      ...
    ValueError: cannot read the condition 'seat 1 holds at lest 3 of hearts': expected 'least' or 'most' after 'at', not 'lest'
    """
    g = get_game(game)
    tokens = re.findall(r"[()]|[^\s(),;]+", str(text))
    if not tokens:
        raise ValueError("an empty condition: write e.g. 'seat 1 holds J♦'")
    reader = _ConditionReader(text, tokens, g, contract, rules)
    cond = reader.expr()
    if reader.more():
        reader.fail(f"expected 'and', 'or' or the end, {reader.found()}")
    cond.check_seats(g.n_seats)
    return cond


class _ConditionReader:
    """Recursive descent over the words of one condition (:func:`parse_constraint`)."""

    def __init__(self, text: str, tokens: list[str], game: Game, contract: str | None, rules: dict) -> None:
        self.text, self.tokens, self.i = text, tokens, 0
        self.game, self.contract, self.rules = game, contract, rules

    def fail(self, why: str) -> None:
        raise ValueError(f"cannot read the condition {self.text!r}: {why}")

    def more(self) -> bool:
        return self.i < len(self.tokens)

    def peek(self) -> str:
        return self.tokens[self.i].lower() if self.more() else ""

    def found(self) -> str:
        """What stands where something else was expected, for a message."""
        return f"not {self.tokens[self.i]!r}" if self.more() else "but the condition ends"

    def take(self, *words: str, after: str = "") -> str:
        word = self.peek()
        if word not in words:
            wanted = " or ".join(repr(w) for w in words)
            self.fail(f"expected {wanted}{f' after {after}' if after else ''}, {self.found()}")
        self.i += 1
        return word

    def number(self, after: str) -> int:
        word = self.peek()
        if not word.lstrip("-").isdigit():
            self.fail(f"expected a number after {after}, {self.found()}")
        self.i += 1
        return int(word)

    def joined(self, word: str, part: Callable[[], Constraint], kind: type[_All]) -> Constraint:
        """``part`` once, or several times joined by ``word`` into ``kind``."""
        parts = [part()]
        while self.peek() == word:
            self.i += 1
            parts.append(part())
        return parts[0] if len(parts) == 1 else kind(tuple(parts))

    def expr(self) -> Constraint:
        return self.joined("or", self.term, _Any)       # "or" binds last

    def term(self) -> Constraint:
        return self.joined("and", self.factor, _All)

    def factor(self) -> Constraint:
        word = self.peek()
        if word == "not":
            self.i += 1
            return _Not(self.factor())
        if word == "(":
            self.i += 1
            inner = self.expr()
            self.take(")", after="a parenthesised condition")
            return inner
        return self.clause()

    def clause(self) -> Constraint:
        if self.peek() == "the":
            self.i += 1
            self.take("kitty", after="'the'")
            seat = KITTY
        elif self.peek() == "kitty":
            self.i += 1
            seat = KITTY
        elif self.peek() == "seat":
            self.i += 1
            seat = self.number("'seat'")
        else:
            self.fail(f"expected a clause ('seat N holds ...', 'the kitty holds ...'), {self.found()}")
        self.take("holds", after="the seat")
        word = self.peek()
        if word == "any":
            self.i += 1
            self.take("of", after="'any'")
            return HoldsAny(seat, self.cards())
        if word == "at":
            self.i += 1
            bound = self.take("least", "most", after="'at'")
            n = self.number(f"'at {bound}'")
            lo, hi = (n, None) if bound == "least" else (None, n)
        elif re.fullmatch(r"-?\d+", word):
            lo = self.number("'holds'")
            self.take("to", after=f"'{lo}'")
            hi = self.number("'to'")
        else:
            return Holds(seat, self.cards())
        if lo is not None and hi is not None and lo > hi:
            self.fail(f"{lo} to {hi} is an empty range")
        if self.peek() == "card":
            self.i += 1
            self.take("points", after="'card'")
            return Points(self.game, seat, min=-(10**9) if lo is None else lo,
                          max=10**9 if hi is None else hi, contract=self.contract)
        self.take("of", "card", after="the count")
        cards = self.cards()
        return Count(seat, cards, min=0 if lo is None else lo, max=hi)

    def cards(self) -> CardSet:
        out = CardSet()
        start = self.i
        while self.more() and self.peek() not in _CONNECTIVES:
            word = self.tokens[self.i]
            low = word.lower()
            if low == "trumps" or low.startswith("trumps:"):
                contract = word.split(":", 1)[1] if ":" in word else self.contract
                if not contract:
                    self.fail("'trumps' needs a contract: write trumps:CONTRACT (e.g. trumps:hearts)")
                try:
                    cards = trumps(self.game, contract, **self.rules)
                except ValueError as exc:
                    self.fail(str(exc))
                if not cards:
                    self.fail(f"{self.game.id} {contract!r} has no trumps")
            elif low in _SUIT_WORDS or len(word) == 1:
                try:
                    cards = self.game.deck.suit(_SUIT_WORDS.get(low, word))
                except ValueError as exc:
                    self.fail(str(exc))
            else:
                try:
                    cards = CardSet([parse_card(word)])
                except ValueError as exc:
                    self.fail(f"{exc} (a card, a suit or 'trumps')")
                if not cards.mask & self.game.deck.mask:
                    self.fail(f"{word} is not in the deck of {self.game.id}")
            if cards.mask & out.mask:
                self.fail(f"{word} names a card twice")
            out = out | cards
            self.i += 1
        if self.i == start:
            self.fail(f"expected cards, a suit or 'trumps', {self.found()}")
        return out


def trumps(game: str | Game, contract: str, **rules: Any) -> CardSet:
    """The trump cards of ``contract`` (empty when it has no trump).

    >>> trumps("goathead3", "hearts")
    CardSet('J♠ A♥ K♥ Q♥ J♥ 10♥ J♦ J♣')
    """
    lay = get_game(game).layout(contract, **rules)
    return CardSet(lay.suits[-1]) if lay.trump else CardSet()


def suit_cards(game: str | Game, suit: str) -> CardSet:
    """The cards of one printed suit (letter or symbol) in ``game``'s deck."""
    return get_game(game).deck.suit(suit)


def fixed_masks(game: str | Game, fixed: Any, **rules: Any) -> np.ndarray:
    """Normalise fixed cards to ``uint64[n_seats + 1]`` (one bit-board per seat, then the kitty).

    ``rules`` are the game's rule options; those that change the table (Oh Hell's
    ``hand_size``) change how many cards a seat may hold.

    ``fixed`` is ``None``, ``{seat: cards}`` (the kitty as ``KITTY``, ``"kitty"`` or
    ``n_seats``) or one entry per seat (optionally one more for the kitty); the checks
    (cards in the deck, none twice, not more than a hand holds) are
    :func:`trickcore.deals.fixed_columns`'.

    >>> fixed_masks("goathead3", {0: "JC JS", KITTY: "AH"}).tolist() == [
    ...     CardSet.parse("JC JS").mask, 0, 0, CardSet.parse("AH").mask]
    True
    >>> fixed_masks("goathead3", {1: "9C"})
    Traceback (most recent call last):
      ...
    ValueError: seat 1: 9♣ not in the deck of goathead3
    """
    from trickcore.deals import fixed_columns, table_of

    g = get_game(game)
    if isinstance(fixed, Mapping):
        fixed = {("kitty" if k is KITTY or (isinstance(k, int) and k == KITTY) else k): v for k, v in fixed.items()}
    elif isinstance(fixed, np.ndarray) and fixed.dtype == np.uint64:
        fixed = [int(x) for x in fixed]
    return np.array(fixed_columns(table_of(g, **rules), fixed), dtype=np.uint64)


def sample_deals(
    game: str | Game,
    n: int,
    seed: Any = None,
    *,
    fixed: Mapping[int, Any] | None = None,
    where: Any = None,
    budget: int | None = None,
    batch: int = 4096,
    **rules: Any,
) -> np.ndarray:
    """``n`` random deals (``uint64[n, n_seats + 1]``) with ``fixed`` cards in place that
    satisfy ``where``, by rejection from at most ``budget`` drawn deals.

    ``seed`` may be an int or a ``SeedSequence``; batches are drawn from its children in
    order, so the result depends only on the seed.  Raises ``ValueError`` when fewer than
    ``n`` deals satisfy ``where`` within the budget (default ``max(100 * n, 100_000)``).

    >>> d = sample_deals("goathead3", 5, seed=1, fixed={0: "JC JS JH"}, where=Holds(1, "JD"))
    >>> d.shape, bool(np.all(d[:, 1] & np.uint64(CardSet.parse("JD").mask)))
    ((5, 4), True)
    >>> sample_deals("goathead3", 1, seed=1, where=Holds(1, "JC") & Holds(2, "JC"), budget=1000)
    Traceback (most recent call last):
      ...
    ValueError: no deal out of 1000 drawn satisfied (seat 1 holds J♣ and seat 2 holds J♣); relax ...
    """
    from trickcore.deals import deal_chunk

    g = get_game(game)
    cond = as_constraint(where)
    cond.check_seats(g.n_seats)
    fixed_arr = fixed_masks(g, fixed, **rules)
    n = int(n)
    budget = max(100 * n, 100_000) if budget is None else int(budget)
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    kept: list[np.ndarray] = []
    have = drawn = 0
    i = 0
    while have < n and drawn < budget:
        size = min(batch, budget - drawn)
        ss = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, i), pool_size=root.pool_size)
        deals = deal_chunk(g.id, ss, size, fixed=_fixed_arg(fixed_arr), **rules)
        i += 1
        drawn += size
        ok = cond.mask(deals)
        if ok.any():
            kept.append(deals[ok])
            have += int(ok.sum())
    if have < n:
        if have == 0:
            raise ValueError(f"no deal out of {drawn} drawn satisfied {cond!r}; relax the constraints or raise the budget")
        raise ValueError(
            f"only {have} of {drawn} drawn deals satisfied {cond!r} (needed {n}); relax the constraints or raise the budget"
        )
    return np.concatenate(kept)[:n]


def _fixed_arg(fixed_arr: np.ndarray) -> np.ndarray | None:
    """The ``fixed=`` argument for :mod:`trickcore.deals` (``None`` when nothing is fixed)."""
    return fixed_arr if fixed_arr.any() else None
