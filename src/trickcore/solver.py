"""Exact double-dummy solving: the value of a position when every card is visible.

:func:`solve` answers for one position (a full deal, a position after some tricks, or a
position in the middle of a trick) with the value, the value of every legal card (like
DDS ``SolveBoard``) and one optimal line of play.  :func:`solve_many` solves many deals,
or many positions (cards on the table, earlier tricks), in one compiled loop that runs
without the GIL.

The value always counts what the *declarer's side* takes in the remaining play:

* ``points`` objective: card points of the tricks it wins, plus the last-trick bonus if it
  wins the last trick;
* ``tricks``: the number of tricks it wins;
* ``nil``: 1 if the declarer's side takes a trick (play stops there), else 0.

The declarer's side optimises the value as the layout's ``goal`` says (``'max'`` or
``'min'``; override with ``goal=``), every other seat the opposite way.  Games without a
declaring side use the paranoid reduction: the declarer seat alone against all others.

The search is exact: null-window alpha-beta probes bisecting the value range, a
transposition table at trick boundaries holding value bounds, one card per run of
equivalent cards, move ordering and sure-trick bounds.  Two compiled kernels implement it
(:data:`KERNEL` chooses):

* ``trickcore._solve`` for every layout.  For the point games its table is keyed by
  relative rank, and an entry proved with other cards still bounds the value, shifted by
  the point differences of the cards that stand for each other (quasi-symmetry); for the
  other objectives it is keyed by the exact hands (by relative rank in suits whose cards
  differ only in rank).  The point games' layouts are solved by builds of it with their
  seats, deck and suits fixed at compile time (``trickcore._solve_5x32x4`` for Sheepshead,
  etc.: the same search, 6-9% fewer instructions).
* ``trickcore._solve_tricks`` for trick-count layouts (objective ``tricks`` or ``nil``),
  after DDS: relative ranks and "winning ranks" in the table, so that one entry serves
  every position agreeing on the cards that mattered.

``nodes`` counts the positions visited; ``benches/bench_solver_speed.py`` prints time and
nodes per deal for each game.  Cards of a run of equivalent cards share one value in
``card_values``.

Examples
--------
Goathead, 3 players, hearts trump, two cards each; the declarer (seat 0) leads:

>>> from trickcore import solve
>>> r = solve("goathead3", "hearts", ["JC AS", "QH 10S", "KS QS"])
>>> r.value                       # A♠ 10♠ Q♠ (24) and J♣ Q♥ K♠ (9), in either order
33
>>> {str(c): v for c, v in sorted(r.card_values.items())}
{'J♣': 33, 'A♠': 33}
>>> [str(c) for c in r.line]
['A♠', '10♠', 'Q♠', 'J♣', 'Q♥', 'K♠']

Mid-trick: seat 1 led Q♥ and seat 2 followed with K♠ (both now hold one card fewer):

>>> r = solve("goathead3", "hearts", ["JC AS", "10S", "QS"], leader=1, trick=["QH", "KS"])
>>> r.value, {str(c): v for c, v in sorted(r.card_values.items())}
(33, {'J♣': 33})
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
import contextlib
import contextvars
from dataclasses import dataclass, field
import importlib
import math
import time
from typing import Any
import weakref

import numpy as np

from .cards import Card, CardSet, parse_card, parse_hand
from .games import Game
from .layout import Layout, resolve_layout, seat_array

__all__ = ["solve", "solve_many", "solve_after_cards", "card_runs", "solve_deadline", "SolveResult", "ManyResult"]


@dataclass
class SolveResult:
    """Result of :func:`solve`.

    Attributes
    ----------
    value:
        Exact value of the remaining play for the declarer's side.
    card_values:
        Value of playing each legal card of the seat to move (``Card`` → int); the best
        of them (max or min by who moves) equals ``value``.
    line:
        One optimal line of play from the position to the end (for ``nil``: until the
        declarer's side takes a trick, when play stops): at every turn the first card,
        in the solver's static move order, that keeps the value, so the line depends on
        the position alone (not on earlier solves or the search's table).
    nodes:
        Search nodes visited (a regression signature, not a time).
    side:
        Seat bit mask of the declarer's side used.
    """

    value: int
    card_values: dict[Card, int] = field(default_factory=dict)
    line: list[Card] = field(default_factory=list)
    nodes: int = 0
    side: int = 0


@dataclass
class ManyResult:
    """Result of :func:`solve_many`: one entry per deal in each numpy array.

    Solved with ``cuts``, ``value`` and ``value_hi`` bound a band that holds the value and
    no cut; otherwise ``value`` is exact and ``value_hi`` is ``value``."""

    value: np.ndarray
    side_tricks: np.ndarray
    last_trick_winner: np.ndarray
    side_melds: np.ndarray
    opp_melds: np.ndarray
    nodes: np.ndarray
    side: np.ndarray
    value_hi: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.value_hi is None:
            self.value_hi = self.value

    def __len__(self) -> int:
        return len(self.value)

    def to_frame(self):
        """The results as a pandas DataFrame, one row per deal."""
        import pandas as pd

        return pd.DataFrame(
            {
                "value": self.value,
                "side_tricks": self.side_tricks,
                "last_trick_winner": self.last_trick_winner,
                "side_melds": self.side_melds,
                "opp_melds": self.opp_melds,
                "nodes": self.nodes,
                "side": self.side,
                "value_hi": self.value_hi,
            }
        )


# ------------------------------------------------------------------------------------------
# helpers

#: Kernel switch (module level, for tests and benches): ``"auto"`` solves layouts whose
#: objective is ``'tricks'`` or ``'nil'`` with the specialised ``trickcore._solve_tricks``
#: (relative-rank table with winning ranks) and every other layout with the general
#: ``trickcore._solve`` (a point game's layout with that kernel's build for its shape);
#: ``"general"`` forces the general kernel everywhere; ``"tricks"`` is ``"auto"``
#: (layouts the trick kernel cannot take still go to ``_solve``).
KERNEL = "auto"


def _kernel(layout: Layout):
    """The compiled module that solves ``layout`` under :data:`KERNEL`: for the point
    games' shapes, the general kernel's build for that shape (same search, its seats, deck
    and suits fixed at compile time; ``_solve.shape_build``)."""
    from . import _solve

    if KERNEL not in ("auto", "general", "tricks"):
        raise ValueError(f"solver.KERNEL must be 'auto', 'general' or 'tricks', not {KERNEL!r}")
    if KERNEL == "general" or layout.objective not in ("tricks", "nil"):
        shape = _solve.shape_build(layout.core)
        return importlib.import_module(shape) if shape else _solve
    from . import _solve_tricks

    return _solve_tricks if _solve_tricks.supports(layout.core) else _solve


_CLASS_CACHE: "weakref.WeakKeyDictionary[Layout, np.ndarray]" = weakref.WeakKeyDictionary()


def _classes(layout: Layout) -> np.ndarray:
    """Equivalence class per layout bit: cards of one suit that may share a run must agree
    on points and on every rule flag (restricted lead, breaker, first-trick rules, forced
    cards).  Cards differing in any of these are never merged."""
    cls = _CLASS_CACHE.get(layout)
    if cls is not None:
        return cls
    keys: dict[tuple, int] = {}
    out = np.zeros(64, dtype=np.int8)
    for b, card in enumerate(layout.bit_to_card):
        if card < 0:
            continue
        card = Card(int(card))
        k = (
            layout.points.get(card, 0),
            card in layout.lead_restricted,
            card in layout.breakers,
            card in layout.first_trick_forbidden,
            card == layout.first_lead,
            card == layout.must_play_first,
            card if card in (layout.first_lead, layout.must_play_first) else None,
        )
        cid = keys.setdefault(k, len(keys))
        if cid > 127:  # an int8 per bit; never merge two different classes
            raise ValueError(f"{layout.name}: more than 128 card classes")
        out[b] = cid
    _CLASS_CACHE[layout] = out
    return out


def _check_seat(name: str, value: Any, n_seats: int) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a seat number 0..{n_seats - 1}, not {value!r}")
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a seat number 0..{n_seats - 1}, not {value!r}") from None
    if seat != value or not 0 <= seat < n_seats:
        raise ValueError(f"{name} must be a seat number 0..{n_seats - 1}, not {value!r}")
    return seat


def _with_objective(layout: Layout, objective: Any) -> Layout:
    # Layout.with_objective checks the name (any value outside OBJECTIVES is refused)
    return layout if objective is None else layout.with_objective(objective)


def _check_goal(layout: Layout, goal: Any) -> bool:
    goal = layout.goal if goal is None else goal
    if goal not in ("max", "min"):
        raise ValueError(f"goal must be 'max' or 'min', not {goal!r}")
    return goal == "max"


def _check_tt(tt_mb: Any) -> float:
    if isinstance(tt_mb, (bool, np.bool_)):
        raise ValueError(f"tt_mb must be a positive number of megabytes, not {tt_mb!r}")
    try:
        mb = float(tt_mb)
    except (TypeError, ValueError):
        raise ValueError(f"tt_mb must be a positive number of megabytes, not {tt_mb!r}") from None
    if not mb > 0 or mb > 65536:
        raise ValueError(f"tt_mb must be a positive number of megabytes (at most 65536), not {tt_mb!r}")
    return mb


#: The deadline of :func:`solve_deadline` (``time.time()`` seconds), or None.
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("trickcore_solve_deadline", default=None)


@contextlib.contextmanager
def solve_deadline(at: float | None) -> Iterator[None]:
    """Inside the block, every :func:`solve` and :func:`solve_many` stops with
    ``TimeoutError`` once the clock (``time.time()``) passes ``at`` (``None``: no deadline),
    as with a ``time_budget`` of the time left (the smaller of the two where both are
    given).  A whole analysis can so be held to one deadline: the solves it makes need
    not know.  A solve checks the clock every few milliseconds of search, so a small
    position may still finish past the deadline.

    >>> import time
    >>> from trickcore.deals import random_deals
    >>> deal = random_deals("hearts", 1, seed=11)[:, :4]     # about a second to solve
    >>> with solve_deadline(time.time() + 0.01):
    ...     try:
    ...         solve_many("hearts", "hearts", deal, leader=3, sides=1, goal="min")
    ...     except TimeoutError as stop:
    ...         print(len(stop.partial_result), "deals solved")
    0 deals solved
    """
    if at is not None:
        try:
            at = float(at)
        except (TypeError, ValueError):
            raise ValueError(f"solve_deadline takes a time.time() value or None, not {at!r}") from None
        if math.isnan(at):
            raise ValueError("solve_deadline takes a time.time() value or None, not nan")
    token = _DEADLINE.set(at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _check_time_budget(time_budget: Any) -> float:
    """Seconds a solve may search (0: no limit, the kernels' "none"): ``time_budget``
    (``None``: none), capped by the time left to :func:`solve_deadline`'s deadline."""
    seconds = 0.0
    if time_budget is not None:
        try:
            seconds = float(time_budget)
        except (TypeError, ValueError):
            raise ValueError(f"time_budget must be a positive number of seconds or None, not {time_budget!r}") from None
        if not 0 < seconds < float("inf") or isinstance(time_budget, bool):
            raise ValueError(f"time_budget must be a positive number of seconds or None, not {time_budget!r}")
    at = _DEADLINE.get()
    if at is not None and at < float("inf"):
        # past the deadline: the least budget, so that the search stops at its first poll
        left = max(at - time.time(), 1e-9)
        seconds = left if seconds == 0 else min(seconds, left)
    return seconds


def _check_node_budget(node_budget: Any) -> int:
    """Nodes a solve may search (0: no limit): ``node_budget`` (``None``: none)."""
    if node_budget is None:
        return 0
    if isinstance(node_budget, (bool, np.bool_)) or not isinstance(node_budget, (int, np.integer)) \
            or not 0 < node_budget < 2**62:
        raise ValueError(f"node_budget must be a positive whole number of nodes or None, not {node_budget!r}")
    return int(node_budget)


def _check_side(side: Any, n_seats: int) -> int:
    if isinstance(side, (bool, np.bool_)):
        raise ValueError(f"sides must be a seat bit mask, not {side!r}")
    try:
        s = int(side)
    except (TypeError, ValueError):
        raise ValueError(f"sides must be a seat bit mask, not {side!r}") from None
    if s != side or not 0 < s < (1 << n_seats):
        raise ValueError(f"sides must be a non-empty seat bit mask below {1 << n_seats}, not {side!r}")
    return s


def _parse_suits_led(layout: Layout, suits_led: Any, played: CardSet) -> int:
    if suits_led is None:
        mask = 0
        for card in played:
            mask |= 1 << layout.effective_suit(card)
        return mask
    if isinstance(suits_led, (int, np.integer)) and not isinstance(suits_led, bool):
        mask = int(suits_led)
        if not 0 <= mask < (1 << len(layout.suits)):
            raise ValueError(f"suits_led bit mask must be below {1 << len(layout.suits)}, not {suits_led!r}")
        return mask
    if isinstance(suits_led, str):
        suits_led = [suits_led]   # one suit name
    elif not isinstance(suits_led, Iterable) or isinstance(suits_led, bool):
        raise ValueError(f"suits_led must be a bit mask or suit names/indices, not {suits_led!r}")
    mask = 0
    for s in suits_led:
        if isinstance(s, str) and s in layout.suit_names:
            mask |= 1 << layout.suit_names.index(s)
        elif isinstance(s, (int, np.integer)) and 0 <= int(s) < len(layout.suits):
            mask |= 1 << int(s)
        else:
            raise ValueError(f"unknown suit {s!r} in suits_led; valid: {layout.suit_names} or their indices")
    return mask


_BIT_TABLES: "weakref.WeakKeyDictionary[Layout, tuple]" = weakref.WeakKeyDictionary()


def _bit_tables(layout: Layout) -> tuple[tuple, list[int], list[int]]:
    """``(card of each layout bit, layout bit of each universal card id, effective suit of
    each layout bit)`` as plain Python sequences, made once per layout: :func:`solve`
    reads a few dozen entries a call, which numpy's per-element indexing and ``Card``'s
    checks made a third of a small solve's time."""
    tables = _BIT_TABLES.get(layout)
    if tables is None:
        cards = tuple(Card(int(c)) if c >= 0 else None for c in layout.bit_to_card)
        suit_of = [-1] * 64
        for i, m in enumerate(layout.suit_masks):
            for b in range(64):
                if int(m) >> b & 1:
                    suit_of[b] = i
        tables = _BIT_TABLES[layout] = (cards, [int(b) for b in layout.card_to_bit], suit_of)
    return tables


# ------------------------------------------------------------------------------------------
# public API


def solve(
    game: str | Game | Layout,
    contract: str | None,
    hands: Sequence[Any],
    *,
    leader: int = 0,
    declarer: int = 0,
    trick: Sequence[Any] = (),
    played: Any = None,
    suits_led: Any = None,
    goal: str | None = None,
    sides: int | None = None,
    objective: str | None = None,
    tt_mb: float = 256,
    time_budget: float | None = None,
    node_budget: int | None = None,
    card_values: bool = True,
    **rules: Any,
) -> SolveResult:
    """Exact double-dummy value of one position, with card values and an optimal line.

    Parameters
    ----------
    game, contract:
        Game id (or :class:`~trickcore.games.Game`) and contract; or a ready
        :class:`~trickcore.layout.Layout` with ``contract=None``.
    hands:
        One hand per seat (text such as ``"JC AH TH"`` / ``"J♣ A♥ 10♥"``, a ``CardSet`` or
        a universal bit-board).  Hands may hold fewer cards than a full deal.
    leader:
        Seat that leads the current trick (the trick of ``trick``, or the next trick).
    declarer:
        The declarer's seat; its side comes from ``layout.sides`` (with the table cards
        put back in their hands) unless ``sides`` is given.
    trick:
        Cards already on the table, in play order starting with ``leader``'s card; the
        seats that played them hold one card fewer than the others.
    played:
        Cards played in earlier tricks.  They decide whether a restricted suit is broken.
        The trick index (for first-trick rules and unlock tricks) is
        ``(hand_size * n_seats - cards in hands and on the table) // n_seats``.
    suits_led:
        Effective suits led in earlier tricks (bit mask, or suit names/indices), for a
        must-play card such as Sheepshead's called ace.  Default (``None``): every
        effective suit with a card in ``played`` counts as led — pass it explicitly when a
        card of that suit was only discarded.
    goal:
        ``'max'`` or ``'min'``: overrides ``layout.goal`` (what the declarer's side wants).
    sides:
        Seat bit mask of the declarer's side, overriding ``layout.sides`` (needed when the
        card that decides the partnership was played already).
    objective:
        Overrides ``layout.objective`` (:meth:`~trickcore.layout.Layout.with_objective`):
        ``'nil'`` asks whether the declarer's side can take no trick at all (value 0 or 1;
        play stops at its first trick), e.g. a Spades nil; ``'tricks'`` counts tricks.
    tt_mb:
        Upper bound of the transposition tables' memory in megabytes (2^20 bytes), all
        tables together: five-seat layouts (Sheepshead) keep tables of their own for
        two-trick positions and for a boundary's leads beside the main one.  The tables
        are also sized to the position, so small positions stay cheap to set up: at the
        default, 0.5-1.1 MB up to 32 live cards (Goathead 3p 0.5, Clover 0.6, Sheepshead
        1.1), 56 MB for 40 and 224 MB for 52 points-game cards; the trick-count kernel
        0.3 MB up to 20 live cards, 5.5 MB up to 32, 176 MB for a whole bridge deal.
        Positions of more than 40 live cards take more when ``tt_mb`` allows it (the
        largest power-of-two table within it): the heaviest whole-deal searches, a seat's
        paranoid minimum in Spades or Hearts, need up to a third fewer nodes at 1024.  The
        trick-count kernel keeps one table of each size up to the default for the next call
        (as DDS keeps its own): fresh memory is zeroed by the system as a search first
        writes it, 7-10% of a bridge deal's ``solve``.  Only the pages a search wrote are
        resident (about 40 MB after whole bridge deals).
    time_budget:
        Seconds the search may take (default ``None``: no limit; checked every few
        milliseconds of search; :func:`solve_deadline` may set a nearer end).  Past it the
        solve stops with ``TimeoutError``, which carries what was proved, as an interrupt
        does (below).
    node_budget:
        The most search nodes (default ``None``: no limit): as ``time_budget``, but the
        same on every machine and run (the search is deterministic), so where it stops and
        the bounds it had proved are reproducible.  The search stops at the first trick
        boundary past the budget.
    card_values:
        ``False``: the value and the line only (``card_values`` is then empty), one exact
        search instead of one per legal card.
    **rules:
        Rule options of the game (see ``Game.options``).

    Returns
    -------
    SolveResult

    Raises
    ------
    ValueError
        On malformed, duplicate or foreign cards, hand sizes that do not fit the trick,
        seats out of range, unknown contracts or options.
    KeyboardInterrupt
        On Ctrl-C during the search, which looks for pending signals every few
        milliseconds (any exception a signal handler raises stops it likewise).
    TimeoutError
        When ``time_budget`` or ``node_budget`` runs out.  Like an interrupt's exception
        it carries what the search had proved: ``value_bounds``, ``(lo, hi)`` with
        ``lo <= value <= hi``, and ``card_values``, the values of the cards finished (each
        card is solved in turn; the position's value is the best of them).

    Examples
    --------
    A 2-card Goathead court (jacks trump) ending; seat 0 declares and leads:

    >>> r = solve("goathead3", "court", ["JC AH", "JD 10H", "KH QH"])
    >>> r.value, [str(c) for c in r.line]
    (32, ['A♥', '10♥', 'Q♥', 'J♣', 'J♦', 'K♥'])
    >>> solve("goathead3", "court", ["JC AH", "JD", "KH QH"])
    Traceback (most recent call last):
      ...
    ValueError: hand sizes [2, 1, 2] do not fit a trick of 0 card(s) led by seat 0

    A whole Hearts deal can take minutes; with a budget, what was proved in that time:

    >>> from trickcore.deals import random_deals
    >>> deal = random_deals("hearts", 1, seed=11)[0, :4]      # seat 3 holds the 2♣
    >>> try:
    ...     solve("hearts", "hearts", deal.tolist(), leader=3, sides=1, goal="min", time_budget=0.01)
    ... except TimeoutError as stop:
    ...     lo, hi = stop.value_bounds                        # the value is 19
    >>> 0 <= lo <= 19 <= hi <= 26
    True
    """
    layout = _with_objective(resolve_layout(game, contract, rules), objective)
    n = layout.n_seats
    leader = _check_seat("leader", leader, n)
    declarer = _check_seat("declarer", declarer, n)
    goal_max = _check_goal(layout, goal)
    mb = _check_tt(tt_mb)
    budget = _check_time_budget(time_budget)
    node_limit = _check_node_budget(node_budget)
    if not isinstance(card_values, (bool, np.bool_)):
        raise ValueError(f"card_values must be True or False, not {card_values!r}")
    parsed = layout.check_hands(hands)
    if not isinstance(trick, Iterable):
        raise ValueError(f"trick must be the cards on the table in play order, not {trick!r}")
    if isinstance(trick, (str, CardSet)):
        trick_cards = list(parse_hand(trick)) if isinstance(trick, CardSet) else [parse_card(t) for t in trick.replace(",", " ").split()]
    else:
        trick_cards = [parse_card(t) for t in trick]
    if len(trick_cards) >= n:
        raise ValueError(f"trick holds {len(trick_cards)} cards; a trick of {n} seats is complete with {n}")
    if len(set(trick_cards)) != len(trick_cards):
        raise ValueError("a card appears twice in trick")
    in_hands = CardSet()
    for h in parsed:
        in_hands |= h
    for card in trick_cards:
        if card not in layout.deck:
            raise ValueError(f"trick card {card} is not in the deck of {layout.name}")
        if card in in_hands:
            raise ValueError(f"trick card {card} is also in a hand")
    played_set = parse_hand(played) if played is not None else CardSet()
    if played_set - layout.deck:
        raise ValueError(f"played cards {played_set - layout.deck} are not in the deck of {layout.name}")
    overlap = played_set & (in_hands | CardSet(trick_cards))
    if overlap:
        raise ValueError(f"played cards {overlap} are also in a hand or on the table")
    sizes = [len(h) for h in parsed]
    k = len(trick_cards)
    full = sizes[(leader + k) % n] if k < n else 0
    expect = [full - 1 if (s - leader) % n < k else full for s in range(n)]
    if sizes != expect or (k and full < 1):
        raise ValueError(f"hand sizes {sizes} do not fit a trick of {k} card(s) led by seat {leader}")
    remaining = sum(sizes) + k
    trick_index = (layout.hand_size * n - remaining) // n
    if len(played_set) > layout.hand_size * n + layout.kitty_size - remaining:
        raise ValueError(f"{len(played_set)} played cards cannot have left {remaining} in play")
    suits_mask = _parse_suits_led(layout, suits_led, played_set)
    if sides is None:
        start = [h.mask for h in parsed]
        for i, card in enumerate(trick_cards):
            start[(leader + i) % n] |= 1 << int(card)
        side = int(layout.sides(np.array(start, dtype=np.uint64), declarer))
    else:
        side = _check_side(sides, n)
    if remaining == 0:
        return SolveResult(0, {}, [], 0, side)
    bit_cards, card_to_bit, _ = _bit_tables(layout)
    # every hand and the played cards in layout bits, in one compiled call
    bits = layout.core.to_layout_bits(np.array([h.mask for h in parsed] + [played_set.mask], dtype=np.uint64))
    hand_bits = bits[:n]
    trick_bits = np.array([card_to_bit[c] for c in trick_cards], dtype=np.int8)
    turn = (leader + k) % n
    legal = layout.legal_moves(
        parsed[turn], trick_cards[0] if trick_cards else None, trick_index=trick_index,
        played=played_set | CardSet(trick_cards), suits_led=suits_mask,
    )
    try:
        value, values, line, nodes = _kernel(layout).solve_position(
            layout.core, _classes(layout), hand_bits, leader, trick_bits, int(bits[n]),
            suits_mask, trick_index, side, goal_max, mb, bool(card_values), budget, node_limit,
        )
    except BaseException as exc:
        progress = getattr(exc, "solve_progress", None)
        if progress is not None:   # stopped inside the search: keep what it had proved
            lo, hi = progress["value_bounds"]
            exc.value_bounds = (int(lo), int(hi))
            exc.card_values = (_card_values(layout, legal, progress["cards"], progress["values"])
                               if card_values else {})
            if hasattr(exc, "add_note"):
                exc.add_note(f"solve: stopped before the end; the value lies in [{lo}, {hi}] and "
                             f"{len(exc.card_values)} of {len(legal)} cards' values are known "
                             "(the exception's value_bounds and card_values)")
        raise
    by_card = _card_values(layout, legal, sorted(values), values) if card_values else {}
    return SolveResult(int(value), by_card, [bit_cards[b] for b in line], int(nodes), side)


def _card_values(layout: Layout, legal: CardSet, rep_bits: Iterable[int], values: dict[int, int]) -> dict[Card, int]:
    """Each legal card's value, sorted by card: the value of the card searched for its run
    of equivalent cards (its representative, the run's highest bit: the lowest
    representative at or above the card's bit in its effective suit), for the runs whose
    representative has a value in ``values``."""
    _, card_to_bit, suit_of = _bit_tables(layout)
    reps = sorted(rep_bits)
    out = {}
    for card in legal:
        b = card_to_bit[card]
        rep = next(r for r in reps if r >= b and suit_of[r] == suit_of[b])
        if rep in values:
            out[card] = int(values[rep])
    return dict(sorted(out.items()))


def _check_deals(layout: Layout, hands: np.ndarray) -> None:
    """``ValueError`` naming the first deal of ``hands`` (``uint64[n, n_seats]``) with a
    card outside the deck or in two hands, hands of unequal size or more cards than a
    hand holds (found in one compiled pass, :func:`trickcore._layout.first_bad_deal`)."""
    from ._layout import first_bad_deal

    d, code = first_bad_deal(hands, layout.deck.mask, layout.n_seats, layout.hand_size, False)
    if code == 0:
        return
    row = [int(h) for h in hands[d]]
    if code == 1:
        s = next(s for s, h in enumerate(row) if h & ~layout.deck.mask)
        raise ValueError(f"deal {d}, seat {s}: {CardSet(row[s] & ~layout.deck.mask)} not in the deck of {layout.name}")
    if code == 2:
        raise ValueError(f"deal {d}: a card is in two hands")
    sizes = [h.bit_count() for h in row]
    if code == 3:
        raise ValueError(f"deal {d}: hands of unequal size {sizes}")
    raise ValueError(f"deal {d}: {sizes[0]} cards, more than the {layout.hand_size} of {layout.name}")


def solve_many(
    game: str | Game | Layout,
    contract: str | None,
    hands: Any,
    *,
    leader: Any = 0,
    declarer: Any = 0,
    sides: Any = None,
    goal: str | None = None,
    objective: str | None = None,
    tt_mb: float = 256,
    cuts: Any = None,
    line: bool = True,
    time_budget: float | None = None,
    node_budget: int | None = None,
    trick: Any = None,
    played: Any = None,
    suits_led: Any = None,
    **rules: Any,
) -> ManyResult:
    """Solve many deals or positions in one compiled loop (no GIL held).

    Parameters
    ----------
    game, contract, goal, objective, tt_mb, **rules:
        As in :func:`solve`.  The transposition table is set up once for the call (the
        trick-count kernel takes the one its last call of that size kept).  The
        trick-count kernel starts each row that is another deal than the row before
        (more cards moved than a trick holds) with an empty table, so a deal's ``nodes``
        do not depend on the other deals of the call, and keeps it for consecutive
        positions of one deal (as :func:`solve_after_cards` sends them); the point
        kernel's table serves every row.
    hands:
        ``uint64`` array ``(n, n_seats)`` or ``(n, n_seats + 1)`` (a trailing kitty column
        is ignored) of universal bit-boards; within a deal every hand holds the same number
        of cards (a full deal, or the position at the start of a later trick — then, without
        ``played``, no restricted suit counts as broken and no suit as led), or one card
        fewer for the seats that played to ``trick``.
    leader, declarer:
        A seat, or an int array ``(n,)``.  ``leader`` leads the trick of ``trick``.
    trick, played, suits_led:
        Positions, as in :func:`solve`: the cards on the table in play order from
        ``leader`` (a sequence of cards for every deal, or an int array ``(n, k)`` of
        universal card ids), the cards of earlier tricks (a ``CardSet``, text or universal
        bit-board for every deal, or a ``uint64`` array ``(n,)``), and the effective suits
        led in earlier tricks (a bit mask or an int array ``(n,)``; default: every suit
        with a card in ``played``).  Each deal is then solved as :func:`solve` solves it
        (the same value), with the outputs along the line from the position on: its
        trick in progress included, the tricks finished before it not.
    sides:
        Declarer's side seat masks (int or ``(n,)``); default ``layout.sides(hands, declarer)``.
    cuts:
        Solve only as far as a scorer needs (point objectives without trick melds): the
        values ``t`` where the outcome changes, one sequence for every deal or an int
        array ``(n, k)`` (at most 16 per deal, any order).  For each cut the solver
        settles whether the value is ``>= t`` and no more: ``value`` and ``value_hi``
        bound the band of the value, with no cut in ``(value, value_hi]``.  A scorer that
        changes only at the cuts scores every value of the band alike, and a band costs
        a fraction of the exact value's search (a null-window probe per cut at most).
        ``side_tricks`` and the rest then follow a line that stays in the band: exact
        when the band is one value, and e.g. "every trick" iff the band is the side's
        total.
    line:
        ``False``: do not follow a line after the value is known (a sixth of the nodes
        of a Goathead band, a twentieth of an exact value).  ``side_tricks``,
        ``last_trick_winner``, ``side_melds`` and ``opp_melds`` are then -1.
    time_budget:
        Seconds the whole call may search (default ``None``: no limit; :func:`solve_deadline`
        may set a nearer end).  Past it the call stops with ``TimeoutError``, carrying what
        was done as an interrupt does.
    node_budget:
        The most search nodes of the whole call (default ``None``: no limit), counted
        over its deals in order: as ``time_budget``, but reproducible on every machine.

    Interrupting: the search runs in compiled code without the GIL, and looks for pending
    signals every few milliseconds, so Ctrl-C (``KeyboardInterrupt``) or any exception a
    signal handler raises (e.g. a ``signal.alarm`` time limit) stops it there.  The
    exception then carries ``partial_result``: a :class:`ManyResult` of the deals solved
    before it, the first ones; and ``value_bounds``: ``(lo, hi)`` proved so far for the
    value of the deal it stopped in (the next one), or ``None``.

    Returns
    -------
    ManyResult
        ``value`` int16, ``side_tricks`` int8 (tricks of the declarer's side along the
        optimal line found), ``last_trick_winner`` int8 (seat; for ``nil`` the winner of
        the trick where play stopped), ``side_melds`` / ``opp_melds`` int16 (Clover trick
        melds collected along that line), ``nodes`` int64, ``side`` uint8; ``value_hi``
        int16 (with ``cuts``: the band's top, else ``value``).

    Examples
    --------
    >>> import numpy as np
    >>> from trickcore import CardSet
    >>> deal = [CardSet.parse(h).mask for h in ("JC AS", "QH 10S", "KS QS")]
    >>> r = solve_many("goathead3", "hearts", np.array([deal, deal], dtype=np.uint64), leader=[0, 1])
    >>> r.value.tolist(), r.side_tricks.tolist(), r.last_trick_winner.tolist()
    ([33, 33], [2, 2], [0, 0])

    Only whether the side reaches 20 and 40 points (it has 33):

    >>> b = solve_many("goathead3", "hearts", np.array([deal], dtype=np.uint64), cuts=[20, 40])
    >>> int(b.value[0]) <= 33 <= int(b.value_hi[0]), int(b.value[0]) >= 20, int(b.value_hi[0]) < 40
    (True, True, True)

    Positions: seat 1 has led Q♥ (it holds one card fewer); what :func:`solve` gives for
    each, in one call:

    >>> mid = [CardSet.parse(h).mask for h in ("JC AS", "10S", "KS QS")]
    >>> solve_many("goathead3", "hearts", np.array([mid, mid], dtype=np.uint64), leader=1, trick=["QH"]).value.tolist()
    [33, 33]
    """
    layout = _with_objective(resolve_layout(game, contract, rules), objective)
    n = layout.n_seats
    goal_max = _check_goal(layout, goal)
    mb = _check_tt(tt_mb)
    budget = _check_time_budget(time_budget)
    node_limit = _check_node_budget(node_budget)
    if not isinstance(line, (bool, np.bool_)):
        raise ValueError(f"line must be True or False, not {line!r}")
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] not in (n, n + 1):
        raise ValueError(f"hands must have shape (n_deals, {n}) or (n_deals, {n + 1}), got {arr.shape}")
    if arr.dtype.kind == "O" or arr.dtype.kind not in "iu":
        raise ValueError(f"hands must be integer bit-boards (uint64), not {arr.dtype}")
    if arr.dtype.kind == "i" and arr.size and arr.min() < 0:
        raise ValueError("hands hold negative bit-boards")
    h = np.ascontiguousarray(arr[:, :n], dtype=np.uint64)
    n_deals = h.shape[0]
    leaders = seat_array("leader", leader, n_deals, n)
    positions: dict[str, np.ndarray] = {}
    if trick is None and played is None and suits_led is None:
        _check_deals(layout, h)
    else:
        h, positions = _positions(layout, h, leaders, trick, played, suits_led)
    declarers = seat_array("declarer", declarer, n_deals, n)
    if sides is None:
        side = np.asarray(layout.sides(h, declarers), dtype=np.uint8).reshape(n_deals) if n_deals else np.zeros(0, np.uint8)
    else:
        sarr = np.asarray(sides)
        if sarr.ndim == 0:
            sarr = np.full(n_deals, sarr)
        if sarr.shape != (n_deals,) or sarr.dtype.kind not in "iu":
            raise ValueError(f"sides must be a seat mask or an int array of {n_deals} masks")
        if n_deals and (sarr.min() <= 0 or sarr.max() >= (1 << n)):
            raise ValueError(f"sides must be non-empty seat masks below {1 << n}")
        side = sarr.astype(np.uint8)
    side = np.ascontiguousarray(side, dtype=np.uint8)
    bits = layout.core.to_layout_bits(h)   # h checked by _check_deals: no second pass
    value = np.zeros(n_deals, dtype=np.int16)
    side_tricks = np.zeros(n_deals, dtype=np.int8)
    last = np.full(n_deals, -1, dtype=np.int8)
    side_melds = np.zeros(n_deals, dtype=np.int16)
    opp_melds = np.zeros(n_deals, dtype=np.int16)
    nodes = np.zeros(n_deals, dtype=np.int64)
    band = ()   # cuts: point objectives only, so the general kernel, which takes them
    if cuts is not None:
        band = (_check_cuts(layout, cuts, n_deals), np.zeros(n_deals, dtype=np.int16))
    solved = np.full(1, -1, dtype=np.int64)   # the kernel writes how many deals it finished
    try:
        _kernel(layout).solve_batch(
            layout.core, _classes(layout), bits, leaders.astype(np.int8), side, goal_max, mb,
            value, side_tricks, last, side_melds, opp_melds, nodes, *band, line=line, solved=solved,
            time_budget=budget, node_budget=node_limit, **positions,
        )
    except BaseException as exc:
        k = int(solved[0])
        if k >= 0:   # raised inside the search (Ctrl-C, the time budget): keep what was done
            exc.partial_result = ManyResult(value[:k], side_tricks[:k], last[:k], side_melds[:k],
                                            opp_melds[:k], nodes[:k], side[:k], *(a[:k] for a in band[1:]))
            bounds = getattr(exc, "solve_progress", {}).get("value_bounds") if k < n_deals else None
            exc.value_bounds = None if bounds is None else (int(bounds[0]), int(bounds[1]))
            if hasattr(exc, "add_note"):
                more = f"; deal {k}'s value lies in [{bounds[0]}, {bounds[1]}] (value_bounds)" if bounds else ""
                exc.add_note(f"solve_many: the first {k} of {n_deals} deals were solved; "
                             f"the exception's partial_result holds them{more}")
        raise
    return ManyResult(value, side_tricks, last, side_melds, opp_melds, nodes, side, *band[1:])


def _positions(layout: Layout, hands: np.ndarray, leaders: np.ndarray, trick: Any, played: Any,
               suits_led: Any) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """:func:`solve_many`'s positions, checked as :func:`solve` checks one: the hands with
    the table cards put back (what the kernel replays from, and what ``layout.sides``
    reads), and the kernel's ``trick`` (layout bits), ``played`` (layout bits),
    ``suits_led`` and ``trick_index`` arrays."""
    n, n_deals = layout.n_seats, hands.shape[0]
    rows = np.arange(n_deals)
    table = _trick_array(trick, n_deals)
    k = table.shape[1]
    if k >= n:
        raise ValueError(f"trick holds {k} cards; a trick of {n} seats is complete with {n}")
    deck = layout.deck.mask
    start = hands.copy()
    for i in range(k):
        cards = table[:, i].astype(np.uint64)
        bad = np.flatnonzero(~((np.uint64(deck) >> cards) & np.uint64(1)).astype(bool))
        if bad.size:
            raise ValueError(f"deal {bad[0]}: trick card {Card(int(table[bad[0], i]))} is not in the deck of {layout.name}")
        card_bits = np.uint64(1) << cards
        clash = np.flatnonzero((np.bitwise_or.reduce(start, axis=1) & card_bits) != 0)
        if clash.size:
            raise ValueError(f"deal {clash[0]}: trick card {Card(int(table[clash[0], i]))} is also in a hand "
                             "or twice in the trick")
        start[rows, (leaders + i) % n] |= card_bits
    sizes = np.bitwise_count(start)
    uneven = np.flatnonzero((sizes != sizes[:, :1]).any(axis=1)) if n_deals else []
    if len(uneven):
        d = int(uneven[0])
        raise ValueError(f"deal {d}: hand sizes {np.bitwise_count(hands[d]).tolist()} do not fit a trick of "
                         f"{k} card(s) led by seat {leaders[d]}")
    _check_deals(layout, start)
    done = _card_masks(played, n_deals, "played")
    outside = np.flatnonzero(done & ~np.uint64(deck))
    if outside.size:
        d = int(outside[0])
        raise ValueError(f"deal {d}: played cards {CardSet(int(done[d]) & ~deck)} are not in the deck of {layout.name}")
    overlap = np.flatnonzero(done & np.bitwise_or.reduce(start, axis=1)) if n_deals else []
    if len(overlap):
        d = int(overlap[0])
        raise ValueError(f"deal {d}: played cards {CardSet(int(done[d] & np.bitwise_or.reduce(start[d])))} are "
                         "also in a hand or on the table")
    remaining = sizes.sum(axis=1) if n_deals else np.zeros(0, np.int64)
    over = np.flatnonzero(np.bitwise_count(done) > layout.hand_size * n + layout.kitty_size - remaining)
    if over.size:
        d = int(over[0])
        raise ValueError(f"deal {d}: {int(np.bitwise_count(done[d]))} played cards cannot have left "
                         f"{int(remaining[d])} in play")
    done_bits = layout.core.to_layout_bits(done.reshape(-1, 1)).reshape(n_deals)
    if suits_led is None:
        led = np.zeros(n_deals, dtype=np.int32)
        for su, mask in enumerate(layout.suit_masks):
            led |= ((done_bits & mask) != 0).astype(np.int32) << su
    else:
        led = np.asarray(suits_led)
        if led.ndim == 0:
            led = np.full(n_deals, led)
        top = 1 << len(layout.suits)
        if led.shape != (n_deals,) or led.dtype.kind not in "iu" or (n_deals and (led.min() < 0 or led.max() >= top)):
            raise ValueError(f"suits_led must be a bit mask below {top} or an int array of {n_deals} of them")
    trick_index = (layout.hand_size * n - remaining) // n
    return start, {
        "trick": np.ascontiguousarray(layout.card_to_bit[table] if k else np.zeros((n_deals, 0)), dtype=np.int8),
        "played": np.ascontiguousarray(done_bits, dtype=np.uint64),
        "suits_led": np.ascontiguousarray(led, dtype=np.int32),
        "trick_index": np.ascontiguousarray(trick_index, dtype=np.int16),
    }


def _trick_array(trick: Any, n_deals: int) -> np.ndarray:
    """``trick`` as universal card ids ``int64[n_deals, k]``."""
    if trick is None:
        return np.zeros((n_deals, 0), dtype=np.int64)
    if isinstance(trick, np.ndarray) and trick.ndim == 2:
        if trick.dtype.kind not in "iu" or trick.shape[0] != n_deals:
            raise ValueError(f"trick must be cards, or an int array ({n_deals}, k) of card ids; got {trick.dtype} "
                             f"{trick.shape}")
        if trick.size and (trick.min() < 0 or trick.max() > 63):
            raise ValueError("trick card ids must lie in 0..63")
        return trick.astype(np.int64)
    if isinstance(trick, str):
        cards = [parse_card(t) for t in trick.replace(",", " ").split()]
    elif isinstance(trick, CardSet) or not isinstance(trick, Iterable):
        raise ValueError(f"trick must be the cards on the table in play order, not {trick!r}")
    else:
        cards = [parse_card(t) for t in trick]
    return np.tile(np.array([int(c) for c in cards], dtype=np.int64), (n_deals, 1))


def _card_masks(cards: Any, n_deals: int, name: str) -> np.ndarray:
    """``cards`` (one set for every deal, or a bit-board array ``(n_deals,)``) as ``uint64[n_deals]``."""
    if cards is None:
        return np.zeros(n_deals, dtype=np.uint64)
    if isinstance(cards, np.ndarray) and cards.ndim == 1:
        if cards.shape != (n_deals,) or cards.dtype.kind not in "iu" or (cards.dtype.kind == "i" and cards.size and cards.min() < 0):
            raise ValueError(f"{name} must be cards, or a bit-board array of {n_deals} deals; got {cards.dtype} {cards.shape}")
        return cards.astype(np.uint64)
    return np.full(n_deals, parse_hand(cards).mask, dtype=np.uint64)


def solve_after_cards(
    game: str | Game | Layout,
    contract: str | None,
    hands: Any,
    cards: Any,
    *,
    leader: int = 0,
    trick: Sequence[Any] = (),
    played: Any = None,
    suits_led: Any = None,
    declarer: Any = 0,
    sides: Any = None,
    goal: str | None = None,
    line: bool = True,
    tt_mb: float = 256,
    time_budget: float | None = None,
    **rules: Any,
) -> ManyResult:
    """For many deals of one position, the value of each of ``cards``: what
    :func:`solve`'s ``card_values`` gives for one deal, here for every deal in one
    :func:`solve_many` call (the analyses that average a card's value over the layouts a
    seat cannot see, ``analysis.card_odds`` and PIMC).

    ``hands`` (``uint64`` array ``(n, n_seats)``) are every seat's cards now, as in
    :func:`solve`; ``leader``, ``trick``, ``played`` and ``suits_led`` are the position,
    the same in every deal; ``cards`` are cards the seat to move holds in every deal
    (legal ones).  The result has a row per deal and card, the deals' rows one after the
    other (row ``d * len(cards) + i``: deal ``d`` after card ``i``): the value of the play
    from the position when the seat plays the card and everybody plays perfectly after
    it, the current trick included, as in ``card_values``; with ``line``, the side's
    tricks, the last trick's winner and the trick melds from the position on along an
    optimal line after the card.  Each deal's positions after the cards are solved side by
    side by :func:`solve_many` (a card that completes the trick hands the lead to its
    winner, whose trick is added back), so they share the solver's table, as a deal's
    cards do in one :func:`solve`.  An interrupt's ``partial_result`` holds the first rows
    solved, in this form too.

    Examples
    --------
    >>> import numpy as np
    >>> from trickcore import CardSet
    >>> deal = [CardSet.parse(h).mask for h in ("JC AS", "QH 10S", "KS QS")]
    >>> r = solve_after_cards("goathead3", "hearts", np.array([deal], dtype=np.uint64), ["JC", "AS"])
    >>> r.value.tolist()          # after J♣ (not yet in a trick) and A♠: 33 each
    [33, 33]
    """
    layout = resolve_layout(game, contract, rules)
    n = layout.n_seats
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] != n or arr.dtype.kind not in "iu":
        raise ValueError(f"hands must be a bit-board array (n_deals, {n}), got {arr.dtype} {arr.shape}")
    h = np.ascontiguousarray(arr, dtype=np.uint64)
    leader = _check_seat("leader", leader, n)
    table = [Card(int(c)) for c in _trick_array(trick, 1)[0]]
    if len(table) >= n:
        raise ValueError(f"trick holds {len(table)} cards; a trick of {n} seats is complete with {n}")
    if not isinstance(cards, Iterable):
        raise ValueError(f"cards must be one or more different cards, not {cards!r}")
    chosen = list(parse_hand(cards)) if isinstance(cards, (str, CardSet)) else [parse_card(c) for c in cards]
    if not chosen or len(set(chosen)) != len(chosen):
        raise ValueError(f"cards must be one or more different cards, not {cards!r}")
    before = parse_hand(played) if played is not None else CardSet()
    led = _parse_suits_led(layout, suits_led, before)
    mover = (leader + len(table)) % n
    mask = CardSet(chosen).mask
    short = np.flatnonzero((h[:, mover] & np.uint64(mask)) != np.uint64(mask)) if len(h) else []
    if len(short):
        raise ValueError(f"deal {short[0]}: seat {mover}, to play, does not hold every card of {CardSet(chosen)}")
    leaders, tricks, dones = [], [], []
    for card in chosen:
        after = table + [card]
        if len(after) == n:                 # the card completes the trick
            leaders.append((leader + layout.trick_winner(after)) % n)
            tricks.append([])
            dones.append((before | CardSet(after)).mask)
        else:
            leaders.append(leader)
            tricks.append([int(c) for c in after])
            dones.append(before.mask)
    after_led = led | (1 << layout.effective_suit(table[0] if table else chosen[0])) if len(table) + 1 == n else led
    k = len(chosen)
    rows = np.repeat(h, k, axis=0)
    rows[:, mover] &= ~np.tile(np.array([1 << int(c) for c in chosen], dtype=np.uint64), len(h))
    if sides is None:
        start = h.copy()
        for i, c in enumerate(table):
            start[:, (leader + i) % n] |= np.uint64(1 << int(c))
        sides = np.asarray(layout.sides(start, seat_array("declarer", declarer, len(h), n)), dtype=np.int64).reshape(-1)
    side = np.asarray(sides)
    if side.ndim and side.shape != (len(h),):
        raise ValueError(f"sides must be a seat mask or an int array of {len(h)} masks, one per deal")
    side = np.repeat(side, k) if side.ndim else np.full(len(rows), side)
    left = not len(h) or int(np.bitwise_count(h[0]).sum()) > 1      # cards after the seat's
    closing = [_closed_trick(layout, table + [card], leader, left) if len(table) + 1 == n else None
               for card in chosen]
    try:
        r = solve_many(layout, None, rows, leader=np.tile(leaders, len(h)), sides=side, goal=goal, line=line,
                       tt_mb=tt_mb, time_budget=time_budget,
                       trick=np.array(tricks * len(h), dtype=np.int64).reshape(len(rows), -1),
                       played=np.tile(np.array(dones, dtype=np.uint64), len(h)), suits_led=after_led)
    except BaseException as exc:
        part = getattr(exc, "partial_result", None)
        if part is not None:
            _add_closed_tricks(layout, part, closing, side, line)
        raise
    _add_closed_tricks(layout, r, closing, side, line)
    return r


def _closed_trick(layout: Layout, trick: list[Card], leader: int, left: bool) -> tuple[int, int, int]:
    """The trick a card completes: its winner, its points for the winner (with the
    last-trick bonus when no card is ``left``) and its melds."""
    winner = (leader + layout.trick_winner(trick)) % layout.n_seats
    points = sum(layout.points.get(c, 0) for c in trick) + (0 if left else layout.last_trick_bonus)
    melds = 0
    if layout.trick_meld_table is not None:
        melds = int(layout.core.trick_meld_values(np.array([CardSet(trick).mask], dtype=np.uint64))[0])
    return winner, points, melds


def _add_closed_tricks(layout: Layout, r: ManyResult, closing: list, side: np.ndarray, line: bool) -> None:
    """Add to :func:`solve_after_cards`'s rows the trick each card completes (in place)."""
    k = len(closing)
    for i, closed in enumerate(closing):
        if closed is None:
            continue
        winner, points, melds = closed
        at = np.arange(i, len(r), k)
        won = (side[at].astype(np.int64) >> winner) & 1 == 1
        if layout.objective == "points":
            r.value[at] += np.where(won, points, 0).astype(r.value.dtype)
        elif layout.objective == "tricks":
            r.value[at] += won.astype(r.value.dtype)
        else:                               # nil: a trick taken ends the play
            r.value[at] = np.where(won, 1, r.value[at]).astype(r.value.dtype)
        if line:
            r.side_tricks[at] = np.where(won & (layout.objective == "nil"), 1,
                                         r.side_tricks[at] + won).astype(r.side_tricks.dtype)
            r.last_trick_winner[at] = np.where((r.last_trick_winner[at] < 0) | (won & (layout.objective == "nil")),
                                               winner, r.last_trick_winner[at]).astype(np.int8)
            r.side_melds[at] += np.where(won, melds, 0).astype(r.side_melds.dtype)
            r.opp_melds[at] += np.where(won, 0, melds).astype(r.opp_melds.dtype)


def card_runs(layout: Layout, cards: Iterable[Card], played: Any = None) -> list[list[Card]]:
    """``cards`` of one seat in runs of cards that have one value whatever the other
    hands: adjacent in their effective suit but for ``played`` cards (any other card may be
    live in some deal and keeps them apart) and of one class (points and rule flags).  The
    solver's own runs (which it may join further) hold within each, so one card of a run
    stands for it.

    Sheepshead: 7♠ and 9♠ are one run once the 8♠ is played; the K♠ scores 4:

    >>> from trickcore import get_game
    >>> lay = get_game("sheepshead").layout("jd")
    >>> [[str(c) for c in run] for run in card_runs(lay, ["7S", "9S", "KS"], played="8S")]
    [['7♠', '9♠'], ['K♠']]
    >>> [[str(c) for c in run] for run in card_runs(lay, ["7S", "9S", "KS"])]
    [['7♠'], ['9♠'], ['K♠']]
    """
    cls = _classes(layout)
    bit = layout.card_to_bit
    gone = {int(bit[int(c)]) for c in (parse_hand(played) if played is not None else CardSet())}
    mine = [parse_card(c) for c in cards]
    if any(c not in layout.deck for c in mine):
        raise ValueError(f"cards {CardSet(c for c in mine if c not in layout.deck)} are not in the deck of {layout.name}")
    runs: list[list[Card]] = []
    for card in sorted(mine, key=lambda c: int(bit[int(c)])):
        b = int(bit[int(card)])
        if runs:
            a = int(bit[int(runs[-1][-1])])
            if (layout.effective_suit(card) == layout.effective_suit(runs[-1][-1]) and cls[a] == cls[b]
                    and all(x in gone for x in range(a + 1, b))):
                runs[-1].append(card)
                continue
        runs.append([card])
    return runs


#: Most cuts per deal :func:`solve_many` takes (the kernel's ``MAX_CUTS``).
MAX_CUTS = 16


def _check_cuts(layout: Layout, cuts: Any, n_deals: int) -> np.ndarray:
    """``cuts`` as a sorted ``int16[n_deals, k]`` array, or ``ValueError``."""
    if layout.objective != "points":
        raise ValueError(f"cuts are for point objectives; {layout.name} counts {layout.objective}")
    if layout.trick_meld_table is not None:
        raise ValueError(f"cuts cannot be used with {layout.name}: its trick melds depend on the line of play")
    arr = np.asarray(cuts)
    if arr.dtype.kind not in "iu" or arr.ndim not in (1, 2):
        raise ValueError("cuts must be integers: a sequence for every deal or an array (n_deals, k)")
    if arr.ndim == 1:
        arr = np.broadcast_to(arr, (n_deals, arr.shape[0]))
    if arr.shape[0] != n_deals or not 1 <= arr.shape[1] <= MAX_CUTS:
        raise ValueError(f"cuts must hold 1..{MAX_CUTS} values per deal for {n_deals} deals, got shape {arr.shape}")
    if arr.size and (arr.min() < -4000 or arr.max() > 4000):
        raise ValueError("cuts must lie in -4000..4000")
    return np.ascontiguousarray(np.sort(arr, axis=1), dtype=np.int16)
