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
        return f"{_seat_name(self.seat)} holds {self.min}..{self.max} card points"


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
