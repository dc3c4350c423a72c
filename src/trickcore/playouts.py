"""Playouts: play many deals to the end with a simple policy, in compiled code.

:func:`playout` takes full hands (universal bit-boards, one row per deal) and plays every
trick, every card chosen among the legal cards of the contract's
:class:`~trickcore.layout.Layout` (lead restrictions, forced first lead, points-free first
trick, called-ace rule: the compiled ``legal_moves`` kernel).  All deals run in one
``nogil`` loop; the inputs are validated here first.

Policies
--------
``"random"``
    Uniform among the legal cards (Lemire's unbiased bounded integers on 32-bit draws)
    from a numpy bit generator used through its C API: ``SFC64`` seeded from ``seed``, or
    the generator given.  The same seed gives the same play.  Every card played by a
    random seat consumes one draw, a forced card too.
``"greedy"``
    A one-trick-deep heuristic, deterministic.  A card's *value* orders cards from
    cheap to precious: a trump is worth more than any plain card, then card points
    decide (only when the objective is points; trick and Nil contracts count 0), then
    the rank inside the effective suit (``value = 8192 * trump + 64 * points + rank``).
    What the current trick is *worth* is the card points in it (plus the last-trick
    bonus on the last trick) for a points objective, and 1 for tricks and Nil objectives
    (a trick is worth 1).  Ties between equal values go to the lowest layout bit.

    * Goal ``"max"`` (the declarer's side wants points or tricks): when leading, lead the
      lowest-value card.  When following, if the trick is worth more than 0, the current
      winner is not on your side and you hold a card that beats it, win with your
      cheapest winning card (lowest value); otherwise play your lowest-value card.
      Sides are the layout's side rule applied to the hands and ``declarer``: the
      declarer's side against all other seats (for ``alone`` layouts this is the
      paranoid reduction the layout itself declares, so the other seats spare each
      other's winning cards).
    * Goal ``"min"`` (Hearts, leasters, Nil: avoid taking points / tricks): lead the
      lowest-value card; when following, play your highest-value card that does *not*
      win the trick (the highest card under the winner, or, void, your highest-point
      card); if every legal card wins, play the one with the fewest points — the
      strongest of those when you play last, the weakest otherwise.  A trick worth less
      than 0 (Hearts' J♦ option) is taken with the cheapest winning card.  Sides play no
      part.

    Trick melds (Clover) are scored but do not steer the greedy choice.

A per-seat mix is given as a sequence of names, one per seat, or as a mapping
``{"declarer": name, "defenders": name}`` resolved per deal with the side rule.

Scoring recorded
----------------
``tricks`` and ``points`` (card points of the tricks won, the last-trick bonus to the
winner of the last trick) per seat; kitty cards are never played, their points are in
``kitty_points`` so that ``points.sum(1) + kitty_points == layout.total_points`` for every
completed round.  In a Nil contract (objective ``"nil"``) play stops right after the first
trick the declarer wins; ``tricks_played`` says how many tricks were played.

Examples
--------
>>> import numpy as np
>>> from trickcore.cards import Card, CardSet
>>> hands = np.array([[CardSet.parse(h).mask for h in (
...     "JC JS AH 10H AC KD", "JH JD KH QH 10C QS", "AD 10D QD AS 10S KS", "KC QC")]],
...     dtype=np.uint64)                       # three hands and the kitty
>>> r = playout("goathead3", "hearts", hands, policy="greedy")
>>> r.tricks.tolist(), r.points.tolist(), int(r.kitty_points[0])
([[5, 1, 0]], [[104, 9, 0]], 7)
>>> int(r.points.sum()) + int(r.kitty_points[0])
120
>>> [str(Card(c)) for c in r.cards[0, 0]]     # trick 0: the cards of seats 0, 1, 2
['K♦', 'J♦', 'Q♦']
>>> rr = playout("goathead3", "hearts", np.repeat(hands, 1000, axis=0), seed=7)
>>> sorted(set(rr.tricks.sum(axis=1).tolist())), int(rr.points.sum(axis=1).max())
([6], 113)
>>> playout("goathead3", "hearts", hands, policy="smart")
Traceback (most recent call last):
  ...
ValueError: unknown policy 'smart'; valid policies: random, greedy
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .cards import Card
from .games import Game
from .layout import Layout, resolve_layout, seat_array

__all__ = ["POLICIES", "PlayoutResult", "playout", "resolve_layout"]

#: Policy names accepted by :func:`playout`.
POLICIES = ("random", "greedy")


@dataclass(frozen=True, eq=False)
class PlayoutResult:
    """The outcome of :func:`playout`: numpy arrays with one row per deal.

    Attributes
    ----------
    layout:
        The layout that was played.
    tricks:
        ``int8[n, n_seats]`` tricks won by each seat.
    points:
        ``int16[n, n_seats]`` card points won (last-trick bonus included).
    melds:
        ``int16[n, n_seats]`` trick-meld points won (Clover; 0 elsewhere).
    winners, leaders:
        ``int8[n, hand_size]`` seat that won / led each trick, ``-1`` for tricks not
        played (Nil stops early).
    cards:
        ``int8[n, hand_size, n_seats]`` the universal card id each seat played to each
        trick (``-1`` for tricks not played).  With ``leaders`` it replays the round.
    last_trick_winner:
        ``int8[n]`` winner of the round's last trick (``-1`` when play stopped early).
    tricks_played:
        ``int8[n]`` tricks played (``hand_size`` except in stopped Nil rounds).
    side:
        ``uint8[n]`` seat bit mask of the declarer's side (the layout's side rule).
    declarer:
        ``int8[n]`` the declarer of each deal.
    kitty_points:
        ``int16[n]`` card points of the cards in no hand (never played).
    """

    layout: Layout
    tricks: np.ndarray
    points: np.ndarray
    melds: np.ndarray
    winners: np.ndarray
    leaders: np.ndarray
    cards: np.ndarray
    last_trick_winner: np.ndarray
    tricks_played: np.ndarray
    side: np.ndarray
    declarer: np.ndarray
    kitty_points: np.ndarray

    def __len__(self) -> int:
        return int(self.tricks.shape[0])

    def side_total(self, what: str = "auto") -> np.ndarray:
        """Per deal, the declarer's side's total of ``"tricks"``, ``"points"`` or
        ``"melds"`` (``"auto"``: tricks for trick and Nil objectives, else points).

        >>> import numpy as np
        >>> from trickcore.cards import CardSet
        >>> hands = np.array([[CardSet.parse(h).mask for h in (
        ...     "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        ...     "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C")]],
        ...     dtype=np.uint64)
        >>> r = playout("spades", "spades", hands, declarer=0, leader=0, policy="greedy")
        >>> r.tricks.tolist(), r.side_total().tolist()   # spades win every trick
        ([[13, 0, 0, 0]], [13])
        """
        if what == "auto":
            what = "points" if self.layout.objective == "points" else "tricks"
        if what not in ("tricks", "points", "melds"):
            raise ValueError(f"what must be 'tricks', 'points', 'melds' or 'auto'; got {what!r}")
        values = getattr(self, what).astype(np.int32)
        seats = np.arange(self.layout.n_seats, dtype=np.uint8)
        mine = ((self.side[:, None] >> seats) & 1).astype(bool)
        return (values * mine).sum(axis=1)


def _check_hands(layout: Layout, hands: Any) -> np.ndarray:
    """Validated ``uint64[n, n_seats]`` universal hands (kitty column dropped)."""
    arr = np.asarray(hands)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"hands must be an integer array of bit-boards; got dtype {arr.dtype}")
    if arr.dtype.kind == "i" and (arr < 0).any():
        raise ValueError("hands must be non-negative bit-boards")
    ns = layout.n_seats
    if arr.ndim != 2 or arr.shape[1] not in (ns, ns + 1):
        raise ValueError(
            f"hands must have shape (n, {ns}) or (n, {ns + 1}) (with a kitty column) for "
            f"{layout.name}; got shape {arr.shape}"
        )
    arr = arr[:, :ns].astype(np.uint64, copy=False)
    from ._layout import first_bad_deal

    bad, _ = first_bad_deal(arr, layout.deck.mask, ns, layout.hand_size, True)
    if bad < 0:
        return arr
    # Word the error from the first bad deal (the compiled pass only finds it).
    row = arr[bad]
    outside = row & ~np.uint64(layout.deck.mask)
    if outside.any():
        s = int(np.flatnonzero(outside)[0])
        cards = [str(Card(c)) for c in range(64) if (int(outside[s]) >> c) & 1]
        raise ValueError(f"deal {bad}, seat {s}: {' '.join(cards)} not in the deck of {layout.name}")
    sizes = np.bitwise_count(row)
    if np.bitwise_count(np.bitwise_or.reduce(row)) != sizes.sum():
        raise ValueError(f"deal {bad}: a card is in two hands (overlapping hands)")
    if (sizes != sizes[0]).any():
        raise ValueError(f"deal {bad}: hands of unequal size {sizes.tolist()}")
    raise ValueError(
        f"deal {bad}: hands of {int(sizes[0])} cards; {layout.name} plays full hands of "
        f"{layout.hand_size} cards from the start of play"
    )


def _bit_generator(seed: Any) -> np.random.BitGenerator:
    """The bit generator random seats draw from: the one of a ``Generator`` or
    ``BitGenerator`` given (its state advances), else numpy's ``SFC64`` (its fastest,
    as in :mod:`trickcore.deals`) seeded with ``SeedSequence(seed)``."""
    if isinstance(seed, np.random.Generator):
        return seed.bit_generator
    if isinstance(seed, np.random.BitGenerator):
        return seed
    if isinstance(seed, (bool, np.bool_, float, str, bytes)):
        raise ValueError(f"seed must be None, an int, a sequence of ints, a SeedSequence, a Generator or a BitGenerator; got {seed!r}")
    try:
        return np.random.SFC64(seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad seed {seed!r}: {exc}") from None


def _greedy_seats(layout: Layout, policy: Any, side: np.ndarray) -> np.ndarray:
    """Per deal, the seat mask of the seats that play greedily."""
    ns = layout.n_seats
    everyone = (1 << ns) - 1

    def code(name: Any) -> int:
        if not isinstance(name, str) or name not in POLICIES:
            raise ValueError(f"unknown policy {name!r}; valid policies: {', '.join(POLICIES)}")
        return 1 if name == "greedy" else 0

    if isinstance(policy, str):
        return np.full(side.shape, everyone * code(policy), dtype=np.uint8)
    if isinstance(policy, Mapping):
        if set(policy) != {"declarer", "defenders"}:
            raise ValueError("a policy mapping needs exactly the keys 'declarer' and 'defenders'")
        mask = np.zeros(side.shape, dtype=np.uint8)
        if code(policy["declarer"]):
            mask |= side
        if code(policy["defenders"]):
            mask |= np.uint8(everyone) & ~side
        return mask
    if isinstance(policy, Sequence) and len(policy) == ns:
        mask = sum(code(p) << s for s, p in enumerate(policy))
        return np.full(side.shape, mask, dtype=np.uint8)
    raise ValueError(
        f"policy must be one of {', '.join(POLICIES)}, a sequence of {ns} of them (one per "
        f"seat) or a mapping {{'declarer': ..., 'defenders': ...}}; got {policy!r}"
    )


def playout(
    game: str | Game | Layout,
    contract: str | None,
    hands: Any,
    *,
    policy: str | Sequence[str] | Mapping[str, str] = "random",
    leader: Any = 0,
    declarer: Any = 0,
    seed: Any = None,
    **rules: Any,
) -> PlayoutResult:
    """Play every deal of ``hands`` to the end of the round.

    Parameters
    ----------
    game, contract:
        A game id or :class:`~trickcore.games.Game` and a contract, or a
        :class:`~trickcore.layout.Layout` (then ``contract`` is ``None``).
    hands:
        ``uint64[n, n_seats]`` universal bit-boards, or ``uint64[n, n_seats + 1]`` whose
        last column (the kitty) is ignored: the full hands at the start of play.
    policy:
        ``"random"`` or ``"greedy"`` (see the module documentation), a sequence of names
        one per seat, or ``{"declarer": name, "defenders": name}``.
    leader:
        Seat that leads the first trick (int or ``int[n]``); overridden by the holder of
        the layout's ``first_lead`` card when that card is in a hand.
    declarer:
        Declarer seat (int or ``int[n]``): sets the sides (layout side rule) and, in Nil,
        whose first trick ends the round.
    seed:
        ``None`` (fresh entropy), an int or sequence of ints, a ``SeedSequence`` (these
        seed numpy's ``SFC64`` bit generator), or a ``Generator`` / ``BitGenerator``
        whose state then advances.  The same seed gives the same play.
    **rules:
        Rule options of the game (only with a game id or Game).

    Returns
    -------
    PlayoutResult

    Examples
    --------
    >>> import numpy as np
    >>> from trickcore.cards import CardSet
    >>> hands = np.array([[CardSet.parse(h).mask for h in (
    ...     "AC 10C KC QC AD 10D", "AH 10H KH QH AS 10S", "KD QD KS QS JC JS", "JD JH")]],
    ...     dtype=np.uint64)
    >>> r = playout("goathead3", "clubs", hands, seed=1, leader=0, declarer=0)
    >>> r.tricks.sum(), r.points.sum() + r.kitty_points.sum()
    (np.int64(6), np.int64(120))
    >>> r = playout("goathead3", "clubs", hands, policy=["greedy", "random", "random"], seed=1)
    >>> r.tricks_played.tolist(), r.winners.shape
    ([6], (1, 6))
    """
    layout = resolve_layout(game, contract, rules)
    if isinstance(policy, str) and policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; valid policies: {', '.join(POLICIES)}")
    arr = _check_hands(layout, hands)
    n = arr.shape[0]
    leaders = seat_array("leader", leader, n, layout.n_seats).astype(np.int8)
    declarers = seat_array("declarer", declarer, n, layout.n_seats).astype(np.int8)
    if n:
        side = np.ascontiguousarray(layout.sides(arr, declarers), dtype=np.uint8)
        if side.shape != (n,):
            raise ValueError(f"{layout.name}: the side rule returned shape {side.shape}, not ({n},)")
    else:
        side = np.zeros(0, dtype=np.uint8)
    greedy = _greedy_seats(layout, policy, side)
    bit_generator = _bit_generator(seed)
    from . import _playout

    # arr checked by _check_hands: the core translates it without a second pass
    raw = _playout.run(layout.core, layout.core.to_layout_bits(arr), leaders, declarers, side, greedy, bit_generator)
    return PlayoutResult(layout=layout, side=side, declarer=declarers, **raw)
