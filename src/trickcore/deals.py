"""Deals: exactly uniform random deals, reproducible by chunk, and exact enumeration.

A *deals array* is ``uint64[n, n_seats + 1]``: each seat's hand, then the kitty (blind,
widow; for Oh Hell the undealt cards), as universal bit-boards (:mod:`trickcore.cards`).
The kitty column is 0 in games without one.

* :func:`random_deals` deals ``n`` uniformly random deals, optionally with some cards
  *fixed* in given hands; :func:`deal_chunk` deals one chunk from one random stream and
  :func:`chunk_seeds` gives the streams, so a parallel engine can spread the chunks over
  any number of workers and still get exactly ``random_deals``' table.
* :func:`count_deals` and :func:`enumerate_deals` count and list every way the unseen
  cards can lie (an exact alternative to sampling when few cards are unseen).

Randomness.  Chunk ``i`` of a run draws from child ``i`` of
``numpy.random.SeedSequence(seed)`` fed to numpy's ``SFC64`` bit generator, used from the
compiled kernel through numpy's C interface.  numpy documents SFC64 as "statistically high
quality and very fast", lacking only jumping, which this design does not use
(streams come from ``SeedSequence.spawn``); its three mixing words come from the
SeedSequence child and its 64-bit counter guarantees distinct seeds do not run into each
other for at least 2**64 draws.  A deal takes only 1 to 4 words, so the choice matters
little for speed (PCG64 measured 2-4 % slower per deal).  Each bounded draw is exactly
uniform: several draws are taken from one 64-bit word by multiplication and the whole
batch is rejected and redrawn when it would be biased (Brackett-Rozinsky & Lemire,
"Batched Ranged Random Integer Generation", 2024).  See ``trickcore/_deal.pyx``.

Examples
--------
>>> from trickcore.deals import random_deals, count_deals
>>> from trickcore.cards import CardSet
>>> deals = random_deals("goathead3", 1000, seed=42)
>>> deals.shape, deals.dtype
((1000, 4), dtype('uint64'))
>>> hand = CardSet(int(deals[0, 0]))
>>> len(hand), len(CardSet(int(deals[0, 3])))          # six cards each, two in the kitty
(6, 2)
>>> bool((random_deals("goathead3", 1000, seed=42) == deals).all())   # same seed, same deals
True
>>> count_deals("goathead3", {0: "JC JS JH JD AC 10C"})    # one hand known: 14! / (6! 6! 2!)
84084
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ._deal import DealPlan
from .cards import CardSet, parse_hand
from .games import Game, get_game
from .layout import Layout

__all__ = [
    "BIT_GENERATOR",
    "DEFAULT_CHUNK_SIZE",
    "KITTY",
    "random_deals",
    "deal_chunk",
    "chunk_seeds",
    "count_deals",
    "enumerate_deals",
    "Table",
    "table_of",
    "fixed_columns",
]

#: The numpy bit generator every stream feeds (see the module docstring for why).
BIT_GENERATOR = np.random.SFC64
#: Deals per chunk of :func:`random_deals` (one compiled call, one random stream).
DEFAULT_CHUNK_SIZE = 65536
#: Key of the kitty in a ``fixed`` mapping (its column index ``n_seats`` is accepted too).
KITTY = "kitty"

SeedLike = int | Sequence[int] | np.random.SeedSequence | None
Fixed = Mapping[Any, Any] | Sequence[Any] | np.ndarray | None


@dataclass(frozen=True)
class Table:
    """What dealing needs to know about a game: seats, hand and kitty sizes, the deck.

    >>> t = table_of("goathead4")
    >>> t.n_seats, t.hand_size, t.kitty_size, len(CardSet(t.deck))
    (4, 4, 4, 20)
    """

    name: str
    n_seats: int
    hand_size: int
    kitty_size: int
    deck: int

    @property
    def n_cols(self) -> int:
        """Columns of a deals array: one per seat, then the kitty."""
        return self.n_seats + 1

    def size(self, col: int) -> int:
        """Cards that column ``col`` holds in a full deal."""
        return self.kitty_size if col == self.n_seats else self.hand_size

    def where(self, col: int) -> str:
        return "kitty" if col == self.n_seats else f"seat {col}"


def _table_from_layout(layout: Layout) -> Table:
    return Table(layout.game, layout.n_seats, layout.hand_size, layout.kitty_size, layout.deck.mask)


@lru_cache(maxsize=128)
def _registered_table(game_id: str, rules: tuple[tuple[str, Any], ...]) -> Table:
    g = get_game(game_id)
    return _table_from_layout(g.layout(g.contracts[0], **dict(rules)))


def table_of(game: str | Game | Layout, **rules: Any) -> Table:
    """The :class:`Table` of a game id, a :class:`~trickcore.games.Game` or a Layout.

    Rule options are validated by the game (unknown names or values raise ``ValueError``);
    ``hand_size`` of Oh Hell changes the table.  A Layout already fixes its table, so rule
    options given with one must not change it.

    >>> table_of("goathead3")
    Table(name='goathead3', n_seats=3, hand_size=6, kitty_size=2, deck=...)
    >>> table_of("goathead3", colour="red")
    Traceback (most recent call last):
      ...
    ValueError: unknown rule option(s) colour for goathead3; valid options: ...
    """
    if isinstance(game, Layout):
        table = _table_from_layout(game)
        if rules:
            try:
                g = get_game(game.game)
            except ValueError:
                raise ValueError(
                    f"rule options {sorted(rules)} given with a Layout of the unregistered game {game.game!r}"
                ) from None
            other = table_of(g, **rules)
            if (other.n_seats, other.hand_size, other.kitty_size, other.deck) != (
                table.n_seats, table.hand_size, table.kitty_size, table.deck
            ):
                raise ValueError(f"rule options {rules} change the table of {game!r}; build the Layout with them")
        return table
    g = get_game(game)
    try:
        key = tuple(sorted(rules.items()))
        hash(key)
    except TypeError:
        key = None
    if key is not None:
        try:
            registered = get_game(g.id) is g
        except ValueError:
            registered = False
        if registered:
            return _registered_table(g.id, key)
    return _table_from_layout(g.layout(g.contracts[0], **rules))


def _parse_cards(where: str, cards: Any) -> int:
    if cards is None:
        return 0
    if isinstance(cards, (int, np.integer)) and not isinstance(cards, (bool, np.bool_)):
        try:
            return CardSet(int(cards)).mask
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    try:
        return parse_hand(cards).mask
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def fixed_columns(table: Table, fixed: Fixed) -> tuple[int, ...]:
    """Validate ``fixed`` and return the fixed-card mask of every column (seats, kitty).

    ``fixed`` is ``None``, a mapping ``{seat: cards}`` (seat ``0 .. n_seats - 1``, or
    ``"kitty"`` / ``n_seats`` for the kitty), or a sequence with one entry per seat
    (optionally one more for the kitty).  Cards may be text (``"J♣ A♥"``, PBN), a
    :class:`~trickcore.cards.CardSet`, a bit-board integer, or an iterable of cards.

    >>> t = table_of("goathead3")
    >>> cols = fixed_columns(t, {0: "JC JS", "kitty": "AH"})
    >>> [str(CardSet(m)) for m in cols]
    ['J♠ J♣', '', '', 'A♥']
    >>> fixed_columns(t, {0: "JC", 1: "JC"})
    Traceback (most recent call last):
      ...
    ValueError: seat 1: J♣ is already fixed elsewhere
    >>> fixed_columns(t, {4: "JC"})
    Traceback (most recent call last):
      ...
    ValueError: unknown seat 4 in fixed cards; goathead3 has seats 0..2 and 'kitty' (or 3)
    """
    cols = [0] * table.n_cols
    if fixed is None:
        return tuple(cols)
    items: list[tuple[int, Any]] = []
    if isinstance(fixed, Mapping):
        for key, cards in fixed.items():
            if isinstance(key, str) and key.lower() == KITTY:
                col = table.n_seats
            elif isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)) and 0 <= key <= table.n_seats:
                col = int(key)
            else:
                raise ValueError(
                    f"unknown seat {key!r} in fixed cards; {table.name} has seats 0..{table.n_seats - 1} "
                    f"and 'kitty' (or {table.n_seats})"
                )
            items.append((col, cards))
    elif isinstance(fixed, (str, CardSet)):
        raise ValueError("fixed cards must be a mapping {seat: cards} or one entry per seat, not a single hand")
    else:
        try:
            entries = list(fixed)
        except TypeError:
            raise ValueError(f"fixed cards must be a mapping {{seat: cards}} or a sequence; got {fixed!r}") from None
        if len(entries) not in (table.n_seats, table.n_cols):
            raise ValueError(
                f"fixed cards: {len(entries)} entries; {table.name} needs {table.n_seats} (one per seat) "
                f"or {table.n_cols} (seats then kitty)"
            )
        items = list(enumerate(entries))
    seen = 0
    for col, cards in items:
        where = table.where(col)
        mask = _parse_cards(where, cards)
        outside = mask & ~table.deck
        if outside:
            raise ValueError(f"{where}: {CardSet(outside)} not in the deck of {table.name}")
        dup = mask & (seen | cols[col])
        if dup:
            raise ValueError(f"{where}: {CardSet(dup)} is already fixed elsewhere")
        seen |= mask
        cols[col] |= mask
        n = cols[col].bit_count()
        if n > table.size(col):
            raise ValueError(f"{where}: {n} fixed cards, but it holds {table.size(col)} in {table.name}")
    return tuple(cols)


@lru_cache(maxsize=256)
def _plan(table: Table, fixed_cols: tuple[int, ...]) -> DealPlan:
    unseen = table.deck
    for m in fixed_cols:
        unseen &= ~m
    cards = [c for c in range(64) if unseen >> c & 1]
    needs = [table.size(c) - fixed_cols[c].bit_count() for c in range(table.n_cols)]
    return DealPlan(cards, needs, fixed_cols)


def _setup(game: Any, fixed: Fixed, rules: dict[str, Any]) -> tuple[Table, DealPlan]:
    table = table_of(game, **rules)
    return table, _plan(table, fixed_columns(table, fixed))


def _root(seed: SeedLike) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, (bool, np.bool_)) or isinstance(seed, (float, str, bytes)):
        raise ValueError(f"seed must be an int, a sequence of ints, a SeedSequence or None; got {seed!r}")
    try:
        return np.random.SeedSequence(seed)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad seed {seed!r}: {exc}") from None


def chunk_seeds(seed: SeedLike, n_chunks: int) -> list[np.random.SeedSequence]:
    """The random streams of chunks ``0 .. n_chunks - 1``: the children of ``SeedSequence(seed)``.

    Child ``i`` is what ``SeedSequence(seed).spawn(k)[i]`` returns for any ``k > i``; a
    ``SeedSequence`` passed in is not advanced, so the same object always gives the same
    children.  (With ``seed=None`` fresh entropy is drawn, so the result differs per call.)

    >>> import numpy as np
    >>> a = chunk_seeds(7, 3)
    >>> b = np.random.SeedSequence(7).spawn(3)
    >>> all((x.generate_state(4) == y.generate_state(4)).all() for x, y in zip(a, b))
    True
    """
    n_chunks = int(n_chunks)
    if n_chunks < 0:
        raise ValueError(f"n_chunks must be >= 0; got {n_chunks}")
    root = _root(seed)
    return [
        np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, i), pool_size=root.pool_size)
        for i in range(n_chunks)
    ]


def _check_count(name: str, n: Any) -> int:
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"{name} must be an integer; got {n!r}")
    if n < 0:
        raise ValueError(f"{name} must be >= 0; got {n}")
    return int(n)


def deal_chunk(
    game: str | Game | Layout,
    seed_sequence: np.random.SeedSequence | int,
    size: int,
    *,
    fixed: Fixed = None,
    **rules: Any,
) -> np.ndarray:
    """One chunk of ``size`` random deals drawn from the stream ``seed_sequence``.

    The parallel engine calls this once per chunk with ``chunk_seeds(seed, k)[i]``; the
    deals depend only on the game, the rules, ``fixed``, ``seed_sequence`` and ``size``.
    An int is taken as ``SeedSequence(int)`` itself (the stream, not its child 0).

    Returns
    -------
    numpy.ndarray
        ``uint64[size, n_seats + 1]``: hands then kitty, universal bit-boards.

    >>> from trickcore.deals import chunk_seeds, deal_chunk
    >>> ss = chunk_seeds(1, 2)[1]
    >>> d = deal_chunk("goathead4", ss, 3, fixed={2: "JC JS"})
    >>> d.shape, [str(CardSet(int(h)) & "JC JS") for h in d[:, 2]]
    ((3, 5), ['J♠ J♣', 'J♠ J♣', 'J♠ J♣'])
    """
    size = _check_count("size", size)
    if not isinstance(seed_sequence, np.random.SeedSequence):
        seed_sequence = _root(seed_sequence)
    _, plan = _setup(game, fixed, rules)
    return plan.deal(BIT_GENERATOR(seed_sequence), size)


def random_deals(
    game: str | Game | Layout,
    n: int,
    seed: SeedLike = None,
    *,
    fixed: Fixed = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    **rules: Any,
) -> np.ndarray:
    """``n`` independent, exactly uniform random deals.

    Parameters
    ----------
    game
        A game id (``"sheepshead"``), a :class:`~trickcore.games.Game` or a
        :class:`~trickcore.layout.Layout`.
    n
        Number of deals.
    seed
        ``int``, sequence of ints, ``numpy.random.SeedSequence`` or ``None`` (fresh
        entropy).  Chunk ``i`` (deals ``i * chunk_size ..``) is dealt from
        ``chunk_seeds(seed, n_chunks)[i]``, so the result equals the concatenation of
        :func:`deal_chunk` over those streams, however a caller spreads them over workers.
    fixed
        Cards that must lie in given hands (see :func:`fixed_columns`); a seat may be fully
        or partly fixed.  The other cards are dealt uniformly among the free places.
    chunk_size
        Deals per stream and compiled call.  Changing it changes the streams, hence the deals.
    **rules
        Rule options of the game (``hand_size=5`` for Oh Hell).

    Returns
    -------
    numpy.ndarray
        ``uint64[n, n_seats + 1]``: each seat's hand, then the kitty (0 when none).

    Examples
    --------
    >>> d = random_deals("goathead3", 4, seed=3, fixed={1: "AC AD"})
    >>> all(CardSet(int(h)) >= "AC AD" for h in d[:, 1])
    True
    >>> import numpy as np
    >>> from trickcore.cards import DECK20
    >>> bool((np.bitwise_or.reduce(d, axis=1) == DECK20.mask).all())   # every card dealt
    True
    >>> random_deals("goathead3", 1, fixed={0: "9C"})
    Traceback (most recent call last):
      ...
    ValueError: seat 0: 9♣ not in the deck of goathead3
    """
    n = _check_count("n", n)
    chunk_size = _check_count("chunk_size", chunk_size)
    if chunk_size == 0:
        raise ValueError("chunk_size must be >= 1")
    table, plan = _setup(game, fixed, rules)
    out = np.empty((n, table.n_cols), dtype=np.uint64)
    n_chunks = -(-n // chunk_size)
    for i, ss in enumerate(chunk_seeds(seed, n_chunks)):
        plan.deal_into(BIT_GENERATOR(ss), out[i * chunk_size : (i + 1) * chunk_size])
    return out


def count_deals(game: str | Game | Layout, fixed: Fixed = None, **rules: Any) -> int:
    """How many distinct deals agree with ``fixed``: the multinomial coefficient
    ``m! / (need_0! ... need_k!)`` of the ``m`` unseen cards over the free places of each
    seat and of the kitty.

    >>> count_deals("goathead3", {0: "JC JS JH JD AC 10C"})
    84084
    >>> count_deals("goathead4", [None, None, None, None, "AC AD AH AS"])   # kitty known
    63063000
    """
    table = table_of(game, **rules)
    cols = fixed_columns(table, fixed)
    plan = _plan(table, cols)
    return _multinomial(plan.needs)


def _multinomial(needs: Sequence[int]) -> int:
    total, out = 0, 1
    for k in needs:
        total += k
        out *= math.comb(total, k)
    return out


def enumerate_deals(
    game: str | Game | Layout,
    fixed: Fixed = None,
    *,
    max_count: int = 5_000_000,
    **rules: Any,
) -> np.ndarray:
    """Every deal that agrees with ``fixed``, each exactly once (compiled).

    Returns ``uint64[count_deals(...), n_seats + 1]`` in a fixed order.  Raises
    ``ValueError`` when there are more than ``max_count`` deals (use
    :func:`random_deals` then).

    >>> d = enumerate_deals("goathead3", {0: "JC JS JH JD AC 10C"})
    >>> d.shape, len(set(map(tuple, d.tolist())))
    ((84084, 4), 84084)
    >>> enumerate_deals("goathead3", {0: "JC"})
    Traceback (most recent call last):
      ...
    ValueError: 977,728,752 deals agree with the fixed cards of goathead3, more than max_count=5,000,000
    """
    max_count = _check_count("max_count", max_count)
    table = table_of(game, **rules)
    plan = _plan(table, fixed_columns(table, fixed))
    count = _multinomial(plan.needs)
    if count > max_count:
        raise ValueError(
            f"{count:,} deals agree with the fixed cards of {table.name}, more than max_count={max_count:,}"
        )
    return plan.enumerate(count)
