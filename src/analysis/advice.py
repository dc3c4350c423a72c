"""Which card to play now: each legal card's outcome over the layouts a seat cannot see.

A player in the middle of a hand knows its own cards, the cards played so far (and so the
suits each seat has shown void in), and perhaps a few more (a card passed, the picker's
buried cards).  :func:`card_odds` takes that position and, for every legal card, reports
what the card leads to over the deals of the unseen cards that fit what the seat saw —
the analysis that openschafkopf's ``suggest-card`` gives Schafkopf players, here for every
game of trickcore.

How a card is judged
--------------------
Every layout (a deal of the unseen cards, with the kitty) is solved double dummy after
each legal card (:func:`trickcore.solve`): from there every seat plays perfectly, seeing
all the cards.  So the figures say what each card keeps *if the rest is played well by
everybody*, averaged over what the seat cannot know.  This is the usual "perfect
information Monte Carlo" view (bridge's and Skat's advisers work so): it is optimistic for
the side that would need to guess later.  The layouts that fit the voids and the known
cards count alike, but for the trick bids of Spades and Oh Hell (``bids=``, weighed as PIMC
weighs them) and what ``where=`` assumes: what the other seats' auctions and earlier choices
say beyond that is not read.

Columns, one row per legal card (best first for the seat):

* ``value`` — the mean whole-hand value of the *reference side*: with a declaring side
  (Goathead's contracts but leasters, Sheepshead's picking contracts, Clover) the card
  points (or tricks; a nil: whether the nil side takes a trick, 0 or 1) the declaring side
  takes over the whole hand, the tricks already played included — the same figure as
  every table of the library; without one (Hearts, leasters, Gamut Hearts and Clubs, Oh
  Hell, Spades) the seat's own points or tricks, or its team's (Spades, Gamut Spades),
  against the other seats (the paranoid value of :mod:`analysis.paranoid`).  ``value_lo``
  and ``value_hi``: its confidence interval (the point itself when every layout was
  enumerated).  The attribute ``frame.attrs["better"]`` says whether the seat wants it
  ``"higher"`` or ``"lower"``.
* ``best`` — the share of the layouts on which the card is one of the seat's best cards;
  ``loss`` — the mean of what the card gives away against the layout's best card (0 on
  every layout for a card that is always best), in the units of ``value``.
* With a declaring side and a scorer for the contract: ``p_make`` (the declaring side
  makes the contract) with ``p_make_lo``/``_hi`` (Wilson), and ``payout`` — the seat's
  own mean payout, the game's scoring of the whole hand — with ``payout_lo``/``_hi``.
* ``diff`` — the card against the first row, paired on the same layouts (what the two
  cards have in common cancels): the seat's payout, or without one its value in the
  seat's favour (``loss`` of the first row minus this one's), with ``diff_lo``/``_hi``.

Rows are ranked by the payout where there is one, else by ``loss``.

Which layouts
-------------
Every layout when there are at most ``exact_limit`` of them (``method="auto"``, the
default; ``"exact"`` insists): the figures are then exact, as
:func:`analysis.contract_odds`' are for a whole hand.  Otherwise ``samples`` layouts drawn
uniformly from those that fit (:class:`trickcore.policies.pimc.HiddenDeals`, seeded by
``seed``).  Late in a hand the layouts are few: Goathead for three at the fourth trick has
a few hundred (92 and 560 in ``benches/bench_advice.py``), Sheepshead at the fifth about
two thousand (1,944 to 2,706 on three heuristic rounds with voids shown).

Cost
----
Every layout's position after each legal card is solved exactly, with a line where a
declaring side's payout needs one (its tricks and melds), the value alone otherwise (then
one card of each run of equivalent cards, :func:`trickcore.solver.card_runs`).  The
layouts go to the compiled solver in groups, every position of a group in one
:func:`trickcore.solver.solve_after_cards` call, a layout's cards side by side so that
they share the solver's table.  ``benches/bench_advice.py``, heuristic rounds, one call of
200 layouts unless every layout was fewer, at the second or fourth trick: Goathead
0.01-0.03 s, Sheepshead 0.02-0.07 s, Gamut 0.02-0.07 s, Oh Hell 0.03-0.39 s, Clover
0.04-0.27 s, Spades 0.15-1.6 s.  A whole Hearts hand is the solver's slow case (a seat's
fewest points): 20-30 s a layout at the second trick, half a second at the fourth, so
give ``time_budget`` there (the ``advise`` command's ``--time-budget``) and read the
layouts it reached.

Examples
--------
Goathead for three, clubs trump (the jacks above the clubs); seat 0 declared, seat 1 led.
In the fourth trick seat 0 leads the A♣ and seat 1 follows with the 10♣; seat 2 must
follow with a trump and holds the J♦, which wins the trick, and the K♣, which gives the
A♣ the trick and 4 points more.  Over the 36 layouts of the cards seat 2 cannot see:

>>> f = card_odds("goathead3", "clubs", "QD JC 10S JD KH KC", seat=2, declarer=0, leader=1,
...               play="10D QD QC  JS JH JC  10S AS KS  AC 10C")
>>> f[["card", "value", "best", "p_make", "payout"]].round(2)
  card  value  best  p_make  payout
0   J♦  53.42   1.0    0.75   -1.00
1   K♣  78.94   0.0    1.00   -2.67
>>> f.attrs["layouts"], f.attrs["exact"], f.attrs["better"]
(36, True, 'lower')

(``value`` is the declarer's card points over the whole hand, which seat 2 wants low;
the J♦ is best on every layout, and the declarer still makes the contract on 3 in 4.)
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from trickcore.cards import Card, CardSet, parse_hand
from trickcore.games import Game, get_game
from trickcore.layout import Layout
from trickcore.rounds.state import Observation, Trick
from trickcore.solver import card_runs

from .constraints import Constraint, as_constraint
from .engine import check_seed, whole
from .odds import _check_seat, _positive
from .paranoid import seat_kind
from .review import _parse_play
from .simulate import _layout_rules, _scored_columns
from .stats import mean_interval, t_value, wilson_interval

__all__ = ["card_odds"]

METHODS = ("auto", "exact", "sample")

#: Games where the seat's aim depends on its own bid (Spades: a nil; Oh Hell: the exact bid).
BID_GAMES = ("spades", "ohhell")

#: ``method="exact"`` refuses more layouts than this (each is a few solves).
EXACT_MOST = 200_000


@dataclasses.dataclass
class _Position:
    """The hand replayed up to the seat's decision, and what the seat knows."""

    layout: Layout
    seat: int
    first_leader: int
    hand: CardSet                        # the seat's cards now
    plays_by: list[CardSet]              # each seat's cards played so far
    tricks: list[Trick]
    trick: list[tuple[int, Card]]        # the current trick's plays
    trick_leader: int
    played_before: CardSet               # the cards of the finished tricks
    suits_led: int
    voids: dict[int, set[int]]
    known: dict[int, CardSet]            # seat -> cards it is known to hold now
    kitty_known: CardSet
    legal: CardSet


def card_odds(
    game: str | Game,
    contract: str,
    hand: Any,
    *,
    seat: int,
    play: Any = (),
    leader: int = 0,
    declarer: int | None = None,
    known: Mapping[int, Any] | None = None,
    kitty: Any = None,
    bid: int | None = None,
    bids: Sequence[tuple[int, int]] | None = None,
    where: Any = None,
    exchanged: bool = False,
    multiplier: int = 1,
    rules: Mapping[str, Any] | None = None,
    method: str = "auto",
    samples: int = 200,
    exact_limit: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    time_budget: float | None = None,
    tt_mb: float = 64,
) -> pd.DataFrame:
    """Each legal card of ``seat`` now, judged over the layouts of the cards it cannot see.

    Parameters
    ----------
    game, contract:
        The game and the contract being played.
    hand:
        The seat's cards at the start of the play (after any exchange), e.g. ``"JC AH 10H"``.
    seat:
        The seat asking; it must be its turn after ``play``.
    play:
        Every card played so far in the hand, in order from the first lead (text such as
        ``"AS QS KS AH"`` or a sequence of cards); ``leader`` led the first trick.
    declarer:
        The declarer's seat (the bidder, the picker), for contracts with a declaring side;
        its side follows from the cards by the contract's rule (Sheepshead's J♦ partner
        included, which the seat may not know: the layouts decide it).
    known:
        ``{seat: cards}`` the asking seat knows another seat held at the start of play (a
        card it passed, a turned card that went to the dealer).
    kitty:
        Cards the seat knows lie in the kitty or blind, or out of play: the picker's buried
        cards, Oh Hell's turned trump card.
    bid:
        The seat's own bid, needed where the seat's aim depends on it: Spades (0 is a nil:
        the seat then wants no trick; else its team wants the most, a partner's nil not
        modelled), Oh Hell (the most tricks while it is short of its bid, then the fewest:
        PIMC's aims).
    bids:
        Spades and Oh Hell: every trick bid of the round in order, as ``(seat, tricks)``
        pairs, the seat's own included (then ``bid`` may be left out).  The layouts are
        weighed by how likely the other seats' bids are under each (PIMC's bid inference,
        :mod:`trickcore.policies.inference`: the heuristic's bid on each bidder's hand
        against the bid it made, one trick off keeping 61% of the weight); the figures are
        then weighted means, sampled ones with intervals from the weights' effective sample
        size (``attrs["n_eff"]``).
    where:
        What the seat assumes about the other hands beyond what it saw: a predicate of
        :mod:`analysis.constraints` on the deal at the start of the play (``uint64[n,
        n_seats + 1]``, the kitty last), e.g. ``Count(0, trumps("sheepshead", "jd"),
        min=3)`` for a picker holding three trumps or more.  Only the layouts where it holds
        are judged (enumerated ones filtered; samples drawn by rejection, at most 1,000
        draws a sample, else ``ValueError``).
    exchanged, multiplier:
        For the payout: whether the declarer took the kitty (Goathead), the stake
        multiplier (doubles, cracks, blitzes).
    rules:
        Rule options of the game.
    method, samples, exact_limit, seed:
        ``"auto"``: every layout when there are at most ``exact_limit``, else ``samples``
        drawn with ``seed``; ``"exact"``: every layout (at most 200,000); ``"sample"``.
    level:
        Confidence level of the intervals.
    time_budget:
        Seconds for the whole call (default none): the layouts not reached in time are
        left out, the frame reports on those it has (``attrs["layouts"]``,
        ``attrs["stopped"]``); ``TimeoutError`` if none was.  Ctrl-C
        (``KeyboardInterrupt``) likewise carries the frame of the layouts finished as
        ``partial_result``.
    tt_mb:
        Transposition table of each solver call, a group of layouts (see :func:`trickcore.solve`).

    Returns
    -------
    pandas.DataFrame
        One row per legal card (the seat's best first; see the module docstring), with
        ``attrs``: ``layouts`` (how many were solved), ``exact``, ``better`` (``"higher"``
        or ``"lower"`` for the seat; ``"mixed"`` where the seat cannot tell whose side it
        is on, Goathead 4p's black jacks: compare the payouts), ``reference`` (whose
        ``value`` it is) and ``stopped`` (by the time budget).

    Raises
    ------
    ValueError
        An unknown game, contract or rule; a hand or play that does not fit (a card
        twice, a card the seat does not hold, an illegal card of the seat, a seat playing
        a suit it showed void in, a card known elsewhere); not the seat's turn; a bad
        parameter.
    """
    g = get_game(game)
    contract = g.check_contract(contract)
    rules = g.check_rules(rules)
    kind = seat_kind(g, contract)               # (refuses Gamut's folded clubs games)
    lay = g.layout(contract, **_layout_rules(g.id, rules))
    n = lay.n_seats
    seat = _check_seat("seat", seat, n)
    leader = _check_seat("leader", leader, n)
    if kind is None:
        if declarer is None:
            raise ValueError(f"{g.id} {contract!r} has a declaring side: give declarer= (the bidder or picker)")
        declarer = _check_seat("declarer", declarer, n)
    elif declarer is not None:
        raise ValueError(f"{g.id} {contract!r} has no declarer; leave declarer out")
    made = _check_bids(g, lay, bids, seat)
    if bid is None and made:
        bid = dict(made).get(seat)
    elif made and seat in dict(made) and dict(made)[seat] != bid:
        raise ValueError(f"bid={bid!r} but bids give seat {seat} {dict(made)[seat]}")
    if g.id in BID_GAMES:
        if bid is None or isinstance(bid, bool) or not isinstance(bid, (int, np.integer)) \
                or not 0 <= bid <= lay.hand_size:
            raise ValueError(f"{g.id}: give the seat's own bid= (0..{lay.hand_size}); the seat's aim depends on it, "
                             f"got {bid!r}")
        bid = int(bid)
    elif bid is not None:
        raise ValueError(f"the seat's aim in {g.id} {contract!r} does not depend on its bid; leave bid out")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    samples = int(_positive("samples", whole("samples", samples), "whole number of layouts"))
    exact_limit = int(_positive("exact_limit", whole("exact_limit", exact_limit), "whole number of layouts"))
    if not isinstance(exchanged, (bool, np.bool_)):
        raise ValueError(f"exchanged must be True or False; got {exchanged!r}")
    check_seed(seed)
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ValueError(f"level must be a number between 0 and 1; got {level!r}")
    if isinstance(multiplier, bool) or not isinstance(multiplier, (int, np.integer)) or multiplier < 1:
        raise ValueError(f"multiplier must be a whole number >= 1; got {multiplier!r}")
    if time_budget is not None:
        time_budget = _positive("time_budget", time_budget, "number of seconds")

    pos = _replay(lay, seat, hand, play, leader, known, kitty)
    cond = None
    if where is not None:
        cond = as_constraint(where)
        cond.check_seats(n)
    worlds, exact = _worlds(pos, method, samples, exact_limit, seed, cond)
    aim = _Aim.of(lay, kind, pos, declarer, bid)
    deadline = None if time_budget is None else time.monotonic() + time_budget
    scored = kind is None           # a declaring side: the game's scorer prices the whole hand
    weigh = _bid_weigher(pos, made, rules) if made else None
    tally = _Tally()
    try:
        stopped = _solve_worlds(lay, pos, aim, worlds, scored, deadline, tt_mb, tally, weigh)
    except KeyboardInterrupt as exc:
        if tally.records:     # (Ctrl-C) what was solved travels with the exception
            rows = tally.rows(g, lay, pos, aim, rules, exchanged, multiplier)
            exc.partial_result = _summary(pos, aim, rows, False, level, True, scored,  # type: ignore[attr-defined]
                                          weigh is not None)
        raise
    rows = tally.rows(g, lay, pos, aim, rules, exchanged, multiplier)
    return _summary(pos, aim, rows, exact and not stopped, level, stopped, scored, weigh is not None)


# -- the position ------------------------------------------------------------------------

def _check_bids(g: Game, lay: Layout, bids: Any, seat: int) -> tuple[tuple[int, int], ...]:
    """``bids`` as ``((seat, tricks), ...)`` in order (empty for ``None``)."""
    if bids is None:
        return ()
    if g.id not in BID_GAMES:
        raise ValueError(f"bids are read in {' and '.join(BID_GAMES)} only, not in {g.id}")
    bad = (f"bids must be the round's trick bids in order as (seat, tricks) pairs, tricks 0..{lay.hand_size}, "
           f"a seat at most once; got {bids!r}")
    try:
        pairs = tuple((int(s), int(t)) for s, t in bids)
    except (TypeError, ValueError):
        raise ValueError(bad) from None
    for (s, t), given in zip(pairs, bids):
        if any(isinstance(x, (bool, np.bool_)) or isinstance(x, float) and not float(x).is_integer() for x in given):
            raise ValueError(bad)
        _check_seat("a seat of bids", s, lay.n_seats)
        if not 0 <= t <= lay.hand_size:
            raise ValueError(bad)
    if len({s for s, _ in pairs}) != len(pairs):
        raise ValueError(bad)
    return pairs


def _cards(name: str, value: Any, lay: Layout) -> CardSet:
    try:
        cs = parse_hand(value)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"bad {name} {value!r}: {exc}") from None
    if cs - lay.deck:
        raise ValueError(f"{name}: {cs - lay.deck} not in the deck of {lay.name}")
    return cs


def _replay(lay: Layout, seat: int, hand: Any, play: Any, leader: int, known: Mapping[int, Any] | None,
            kitty: Any) -> _Position:
    """Check the inputs against each other and replay the play up to the seat's turn."""
    n = lay.n_seats
    start = _cards("hand", hand, lay)
    if len(start) != lay.hand_size:
        raise ValueError(f"the hand has {len(start)} cards; {lay.name} deals {lay.hand_size} a seat")
    kitty_size = len(lay.deck) - n * lay.hand_size
    kit = CardSet() if kitty is None else _cards("kitty", kitty, lay)
    if len(kit) > kitty_size:
        raise ValueError(f"kitty: {len(kit)} cards, but {lay.name} leaves {kitty_size} out of the hands")
    if kit & start:
        raise ValueError(f"{kit & start} both in the hand and in the kitty")
    known_at_start: dict[int, CardSet] = {}
    if known is not None:
        if not isinstance(known, Mapping):
            raise ValueError(f"known must be a mapping {{seat: cards}}; got {known!r}")
        taken = start | kit
        for t, cards in known.items():
            t = _check_seat("a seat of known", t, n)
            if t == seat:
                raise ValueError(f"known: seat {t} is the seat asking; its cards are the hand")
            cs = _cards(f"known cards of seat {t}", cards, lay)
            if cs & taken:
                raise ValueError(f"known cards of seat {t}: {cs & taken} placed twice")
            if len(cs) > lay.hand_size:
                raise ValueError(f"known cards of seat {t}: {len(cs)} cards, more than a hand of {lay.hand_size}")
            taken |= cs
            known_at_start[t] = cs
    cards = _parse_play(play)
    hand_now = start
    plays_by = [CardSet() for _ in range(n)]
    voids: dict[int, set[int]] = {s: set() for s in range(n)}
    tricks: list[Trick] = []
    trick: list[tuple[int, Card]] = []
    trick_leader = leader
    played_before = CardSet()
    suits_led = 0
    seen = CardSet()
    for i, card in enumerate(cards):
        where = f"card {i + 1} of the play, {card}"
        if card not in lay.deck:
            raise ValueError(f"{where}: not in the deck of {lay.name}")
        if card in seen:
            raise ValueError(f"{where}: played twice")
        if len(tricks) == lay.hand_size:
            raise ValueError(f"{where}: the hand is over after {lay.hand_size} tricks")
        mover = (trick_leader + len(trick)) % n
        led = trick[0][1] if trick else None
        if mover == seat:
            if card not in hand_now:
                raise ValueError(f"{where}: seat {seat} (the seat asking) is to play and does not hold it")
            legal = lay.legal_moves(hand_now, led, trick_index=len(tricks), played=seen, suits_led=suits_led)
            if card not in legal:
                raise ValueError(f"{where}: not a legal card for seat {seat} here (legal: {legal})")
            hand_now = hand_now - CardSet([card])
        else:
            if card in start:
                raise ValueError(f"{where}: seat {mover} is to play it, but it is in the hand of seat {seat}")
            if card in kit:
                raise ValueError(f"{where}: seat {mover} is to play it, but it lies in the kitty")
            owner = next((t for t, cs in known_at_start.items() if card in cs), mover)
            if owner != mover:
                raise ValueError(f"{where}: seat {mover} is to play it, but seat {owner} is known to hold it")
            su = lay.effective_suit(card)
            if su in voids[mover]:
                raise ValueError(f"{where}: seat {mover} showed void in {lay.suit_names[su]} before")
        if led is not None and lay.effective_suit(card) != lay.effective_suit(led):
            voids[mover].add(lay.effective_suit(led))
        plays_by[mover] = plays_by[mover] | CardSet([card])
        seen = seen | CardSet([card])
        trick.append((mover, card))
        if len(trick) == n:
            won = (trick_leader + lay.trick_winner([c for _, c in trick])) % n
            tricks.append(Trick(trick_leader, tuple(trick), won))
            suits_led |= 1 << lay.effective_suit(trick[0][1])
            played_before = played_before | CardSet(c for _, c in trick)
            trick = []
            trick_leader = won
    for t, cs in known_at_start.items():
        if len(cs - seen) > lay.hand_size - len(plays_by[t]):
            raise ValueError(f"known cards of seat {t}: {cs - seen} still to play, but it holds "
                             f"{lay.hand_size - len(plays_by[t])} cards")
        for c in cs - seen:
            if lay.effective_suit(c) in voids[t]:
                raise ValueError(f"known cards of seat {t}: it holds {c} but showed void in "
                                 f"{lay.suit_names[lay.effective_suit(c)]}")
    if not hand_now:
        raise ValueError("the hand is over: no card is left to choose")
    mover = (trick_leader + len(trick)) % n
    if mover != seat:
        raise ValueError(f"after the play it is seat {mover}'s turn, not seat {seat}'s")
    led = trick[0][1] if trick else None
    legal = lay.legal_moves(hand_now, led, trick_index=len(tricks), played=seen, suits_led=suits_led)
    return _Position(layout=lay, seat=seat, first_leader=leader, hand=hand_now, plays_by=plays_by, tricks=tricks,
                     trick=trick, trick_leader=trick_leader, played_before=played_before, suits_led=suits_led,
                     voids=voids, known={t: cs - seen for t, cs in known_at_start.items() if cs - seen},
                     kitty_known=kit, legal=legal)


# -- the layouts -------------------------------------------------------------------------

def _observation(pos: _Position, bids: Sequence[tuple[int, int]] = (),
                 rules: Mapping[str, Any] | None = None) -> Observation:
    """The seat's view as the round engine would give it (what :class:`HiddenDeals` and
    the bid inference read): the dealer sits before the first leader, who bid first."""
    lay = pos.layout
    n = lay.n_seats
    return Observation(
        game=lay.game, n_seats=n, seat=pos.seat, dealer=(pos.first_leader - 1) % n, round_index=0, kind="play",
        phase="play", legal=tuple(pos.legal), count=1, hand=pos.hand,
        hand_sizes=tuple(lay.hand_size - len(pos.plays_by[s]) for s in range(n)),
        bids=tuple((s, "bid", t) for s, t in bids), contract=lay.contract,
        declarer=None, multiplier=1, layout=lay, turned=None, partner_cards=CardSet(), known=dict(pos.known),
        kitty_known=pos.kitty_known, kitty_size=len(lay.deck) - n * lay.hand_size, tricks=tuple(pos.tricks),
        trick=tuple(pos.trick), leader=pos.trick_leader, voids={s: frozenset(v) for s, v in pos.voids.items()},
        active=tuple(range(n)), scores=(0.0,) * n, rules=dict(rules or {}))


def _worlds(pos: _Position, method: str, samples: int, exact_limit: int, seed: int,
            cond: Constraint | None) -> tuple[Iterable[tuple[list[CardSet], CardSet]], bool]:
    """The layouts to solve, as ``(hands now, kitty)``, and whether they are all of them.
    Samples are drawn as they are solved (a time budget then stops the draws too)."""
    from trickcore.policies.pimc import HiddenDeals

    deals = HiddenDeals(_observation(pos))
    if method != "sample":
        limit = EXACT_MOST if method == "exact" else exact_limit
        # counted first: listing them only to find there are too many cost more than
        # solving 200 samples on small positions
        every = _enumerate(deals, pos, limit) if _count(deals, limit + 1) <= limit else None
        if every is not None:
            if cond is not None and every:
                keep = cond.mask(np.array([_start_row(pos, w) for w in every], dtype=np.uint64))
                every = [w for w, k in zip(every, keep) if k]
            if not every:
                raise ValueError(_NO_LAYOUT + ("" if cond is None else f" and {cond!r}"))
            # in random order: a run stopped early (time budget, Ctrl-C) has solved a
            # uniform sample of them, which its intervals then describe
            order = np.random.default_rng(seed).permutation(len(every))
            return [every[i] for i in order], True
        if method == "exact":
            raise ValueError(f"more than {EXACT_MOST:,} layouts fit the position; use method='sample'")
    return _draws(deals, pos, np.random.default_rng(seed), samples, cond), False


_NO_LAYOUT = "no layout of the unseen cards fits the voids shown, the known cards and the hand sizes"

#: Draws allowed per sample wanted before ``where``'s rejection gives up.
DRAWS_PER_SAMPLE = 1000


def _draws(deals: Any, pos: _Position, rng: np.random.Generator, samples: int,
           cond: Constraint | None) -> Iterator[tuple[list[CardSet], CardSet]]:
    """``samples`` layouts drawn uniformly from those that fit the voids
    (:meth:`HiddenDeals.draw`) and ``cond`` (rejection)."""
    kept = drawn = 0
    budget = DRAWS_PER_SAMPLE * samples
    while kept < samples:
        if drawn >= budget:
            raise ValueError(f"only {kept} of {drawn:,} drawn layouts satisfied {cond!r} (needed {samples}); "
                             "relax the assumption or ask for fewer samples")
        drawn += 1
        world = deals.draw(rng)
        if not _fits(pos, world):      # (the sampler drops the voids only when nothing fits them)
            raise ValueError(_NO_LAYOUT)
        if cond is not None and not cond.mask(np.array([_start_row(pos, world)], dtype=np.uint64))[0]:
            continue
        kept += 1
        yield world


def _fits(pos: _Position, world: tuple[list[CardSet], CardSet]) -> bool:
    """Whether no seat holds a card of a suit it showed void in."""
    lay = pos.layout
    return not any(lay.effective_suit(c) in pos.voids[t] for t, h in enumerate(world[0]) if t != pos.seat
                   for c in h)


def _start_row(pos: _Position, world: tuple[list[CardSet], CardSet]) -> list[int]:
    """The deal at the start of the play of a layout: every seat's hand, then the kitty."""
    hands, kitty = world
    return [(h | p).mask for h, p in zip(hands, pos.plays_by)] + [kitty.mask]


def _count(deals: Any, cap: int) -> int:
    """How many layouts :func:`_enumerate` lists, or ``cap`` if at least that many: the
    ways to deal the unseen cards to the seats' missing cards and the kitty, no seat
    getting a suit it showed void in (per suit, the ways to split its cards among the
    places allowed, multiplied over the suits for every split that fills each place).
    Counting stops once past ``cap``, so a position with a great many layouts is told
    at once."""
    seats = list(deals.need)
    suits = [(int(su), int(k)) for su, k in zip(*np.unique(deals.suits, return_counts=True))]
    # the places a suit may go: the seats not void in it (HiddenDeals.banned), and the
    # kitty (the last place)
    allowed = [[i for i, t in enumerate(seats) if not deals.banned[t, su]] + [len(seats)] for su, _ in suits]

    @functools.lru_cache(maxsize=None)
    def ways(i: int, left: tuple[int, ...]) -> int:
        if i == len(suits):
            return int(not any(left))
        total = 0
        for split in _splits(suits[i][1], [left[p] for p in allowed[i]]):
            rest = list(left)
            for p, k in zip(allowed[i], split):
                rest[p] -= k
            total += math.factorial(suits[i][1]) // math.prod(math.factorial(k) for k in split) * ways(i + 1, tuple(rest))
            if total >= cap:
                return cap
        return total

    return ways(0, tuple(deals.need[t] for t in seats) + (deals.kitty_need,))


def _splits(n: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``n`` as a sum of ``len(caps)`` parts, part ``j`` at most ``caps[j]``."""
    if not caps:
        if n == 0:
            yield ()
        return
    for k in range(min(n, caps[0]) + 1):
        for rest in _splits(n - k, caps[1:]):
            yield (k, *rest)


def _enumerate(deals: Any, pos: _Position, limit: int) -> list[tuple[list[CardSet], CardSet]] | None:
    """Every deal of the unseen cards that fits the voids and the known cards (``None``
    once there are more than ``limit``, or the walk takes too long to tell)."""
    need = dict(deals.need)
    order = sorted(need, key=lambda t: -len(pos.voids.get(t, ())))      # the constrained seats first
    lay = pos.layout
    out: list[tuple[list[CardSet], CardSet]] = []
    steps = [0]

    def walk(i: int, left: list[int], chosen: dict[int, int]) -> bool:
        steps[0] += 1
        if steps[0] > 50 * limit:
            return False
        if i == len(order):
            if len(left) != deals.kitty_need:            # pragma: no cover - the counts add up
                return True
            hands = [CardSet(h | chosen.get(t, 0)) for t, h in enumerate(deals.base)]
            out.append((hands, CardSet(deals.kitty | sum(1 << c for c in left))))
            return len(out) <= limit
        t = order[i]
        void = pos.voids.get(t, set())
        allowed = [c for c in left if lay.effective_suit(Card(c)) not in void]
        for combo in itertools.combinations(allowed, need[t]):
            rest = [c for c in left if c not in combo]
            if not walk(i + 1, rest, {**chosen, t: sum(1 << c for c in combo)}):
                return False
        return True

    return out if walk(0, list(deals.cards), {}) else None


# -- what the seat aims at ---------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Aim:
    """Whose value the rows report and which way the seat wants it."""

    mode: str          # "declarer" (the contract's sides), "team" (the seat and its partner), "alone"
    goal: str          # what the reference side wants: "max" or "min"
    declarer: int      # the seat whose side is the reference side
    seat_wants_max: bool | None     # None: decided per layout (the seat's side may vary)

    @staticmethod
    def of(lay: Layout, kind: str | None, pos: _Position, declarer: int | None, bid: int | None) -> _Aim:
        seat = pos.seat
        if kind is None:
            return _Aim("declarer", lay.goal, declarer, None)
        if kind == "team_bid":      # Spades (a nil bid alone) and Gamut Spades: the partnership
            return _Aim("alone", "min", seat, False) if bid == 0 else _Aim("team", "max", seat, True)
        if kind == "exact_bid":
            taken = sum(1 for t in pos.tricks if t.winner == seat)
            goal = "min" if taken >= bid else "max"
            return _Aim("alone", goal, seat, goal == "max")
        return _Aim("alone", lay.goal, seat, lay.goal == "max")

    def side(self, lay: Layout, start: np.ndarray) -> int:
        if self.mode == "alone":
            return 1 << self.declarer
        return int(lay.sides(start, self.declarer))


# -- solving -----------------------------------------------------------------------------

class _Tally:
    """The rows solved so far (one per layout and card), kept outside the loop so that an
    interrupted run still reports the layouts it finished."""

    PLAYED = ("side_mask", "side_tricks", "last_trick_winner", "side_melds", "opp_melds", "side_points")

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.deals: list[list[int]] = []
        self.played: dict[str, list[int]] = {k: [] for k in self.PLAYED}

    def add(self, layout: int, cards: list[Card], outcomes: list[dict[str, int]], wants_max: bool, side: int,
            row: list[int] | None, weight: float = 1.0) -> None:
        """One layout's cards, and its ``weight``; ``row`` (its deal) where the outcomes are
        scored."""
        for c, o in zip(cards, outcomes):
            self.records.append({"layout": layout, "card": c, "value": o["value"], "wants_max": wants_max,
                                 "weight": weight})
            if row is not None:
                self.deals.append(row)
                for k in self.PLAYED:
                    self.played[k].append(side if k == "side_mask" else o[k])

    def rows(self, g: Game, lay: Layout, pos: _Position, aim: _Aim, rules: Mapping[str, Any], exchanged: bool,
             multiplier: int) -> pd.DataFrame:
        """The rows, with the seat's ``payout`` and ``made`` where the layouts were scored:
        the game's scorer on the whole hand (:func:`analysis.simulate`'s own columns)."""
        rows = pd.DataFrame(self.records, columns=["layout", "card", "value", "wants_max", "weight"])
        if self.deals:
            arr = {k: np.asarray(v, dtype=np.uint8 if k == "side_mask" else np.int64) for k, v in self.played.items()}
            arr["multiplier"] = np.full(len(self.deals), multiplier, dtype=np.int64)
            if lay.objective == "nil":
                arr["_no_last_trick"] = np.ones(1, dtype=bool)
            cols = _scored_columns(g, lay.contract, np.asarray(self.deals, dtype=np.uint64), arr, rules, aim.declarer,
                                   pos.first_leader, "dd", exchanged=exchanged)
            rows["payout"] = np.asarray(cols[f"payout_{pos.seat}"], dtype=float)
            rows["made"] = pd.Series(cols["made"]).astype("float").to_numpy()
        return rows


#: Most layouts solved per compiled call (every legal card after each).  A run starts
#: with one and doubles while calls are quick (under ``QUICK_CALL`` seconds), so the
#: Python around a call costs little on small positions, while on slow ones (whole Hearts
#: hands) a time budget or Ctrl-C loses no more than the layout it stopped in, as when
#: each layout was solved on its own.  (The values do not depend on the grouping.)
LAYOUTS_PER_CALL = 32
QUICK_CALL = 0.05


def _solve_worlds(lay: Layout, pos: _Position, aim: _Aim, worlds: Iterable, scored: bool,
                  deadline: float | None, tt_mb: float, tally: _Tally,
                  weigh: Callable[[list[CardSet]], float] | None = None) -> bool:
    """Solve every layout after each legal card into ``tally``: the reference side's
    whole-hand value, whether the seat wants it high there, and (``scored``) the play
    results the scorer reads.  The layouts go to the solver in groups (see
    ``LAYOUTS_PER_CALL``), every position after each card of a group in one
    :func:`trickcore.solver.solve_after_cards` call.  Returns whether the time budget stopped it;
    layouts that a stopped call (budget or Ctrl-C) had solved after every card are
    kept."""
    n = lay.n_seats
    # unscored, only the value is read: one card of each run of equivalent cards is solved
    # (as solve() does), the others take its outcome
    runs = card_runs(lay, pos.legal, pos.played_before) if not scored else [[c] for c in pos.legal]
    heads = [run[0] for run in runs]
    chunk: list[tuple[int, list[CardSet], list[int], int, bool, float]] = []
    size = 1

    def flush() -> bool:
        nonlocal size
        if not chunk:
            return False
        began = time.monotonic()
        budget = None if deadline is None else max(deadline - began, 1e-3)
        stopped = False
        try:
            solved = _solve_after_cards(lay, pos, aim, heads, chunk, scored, budget, tt_mb)
        except TimeoutError as exc:
            solved, stopped = getattr(exc, "advice_solved", []), True
        except KeyboardInterrupt as exc:
            _tally_layouts(tally, chunk, getattr(exc, "advice_solved", []), runs, scored)
            raise
        _tally_layouts(tally, chunk, solved, runs, scored)
        chunk.clear()
        if time.monotonic() - began < QUICK_CALL:
            size = min(2 * size, LAYOUTS_PER_CALL)
        return stopped

    for w, (hands, kitty) in enumerate(worlds):
        if deadline is not None and time.monotonic() > deadline:
            flush()
            return True
        row = _start_row(pos, (hands, kitty))
        side = aim.side(lay, np.array(row[:n], dtype=np.uint64))
        in_side = bool(side >> pos.seat & 1)
        wants_max = (aim.goal == "max") == in_side if aim.seat_wants_max is None else aim.seat_wants_max
        chunk.append((w, hands, row, side, wants_max, 1.0 if weigh is None else weigh(hands)))
        if len(chunk) >= size and flush():
            return True
    return flush()


def _solve_after_cards(lay: Layout, pos: _Position, aim: _Aim, cards: list[Card],
                       chunk: list[tuple[int, list[CardSet], list[int], int, bool, float]], scored: bool,
                       budget: float | None, tt_mb: float) -> list[list[dict[str, int]]]:
    """Every layout of ``chunk`` after each of ``cards`` in one
    :func:`trickcore.solver.solve_after_cards` call: per layout, the outcome of each card
    (:func:`_outcome`).  On a time budget or Ctrl-C the exception carries
    ``advice_solved``, the outcomes of the layouts the call had finished."""
    from trickcore.solver import solve_after_cards

    points = lay.point_table()
    sides = [side for _, _, _, side, _, _ in chunk]

    before = {side: _finished(lay, pos, side, points) for side in set(sides)}

    def outcomes(r: Any, k: int) -> list[list[dict[str, int]]]:
        return [[_outcome(lay, card, before[sides[d]], (r, d * len(cards) + i)) for i, card in enumerate(cards)]
                for d in range(k)]

    try:
        r = solve_after_cards(lay, None, np.array([[h.mask for h in hands] for _, hands, _, _, _, _ in chunk],
                                                  dtype=np.uint64), cards,
                              leader=pos.trick_leader, trick=[c for _, c in pos.trick], played=pos.played_before,
                              suits_led=pos.suits_led, sides=np.array(sides), goal=aim.goal, line=scored,
                              tt_mb=tt_mb, time_budget=budget)
    except (TimeoutError, KeyboardInterrupt) as exc:
        done = getattr(exc, "partial_result", None)
        exc.advice_solved = [] if done is None else outcomes(done, len(done) // len(cards))
        raise
    return outcomes(r, len(chunk))


def _tally_layouts(tally: _Tally, chunk: list, solved: list[list[dict[str, int]]], runs: list[list[Card]],
                   scored: bool) -> None:
    """The first ``len(solved)`` layouts of ``chunk`` into ``tally`` (each run's outcome for
    every card of the run), with their deals where they are ``scored``."""
    cards = [c for run in runs for c in run]
    for (w, _, row, side, wants_max, weight), outcomes in zip(chunk, solved):
        every = [o for run, o in zip(runs, outcomes) for _ in run]
        tally.add(w, cards, every, wants_max, side, row if scored else None, weight)


def _bid_weigher(pos: _Position, bids: Sequence[tuple[int, int]],
                 rules: Mapping[str, Any]) -> Callable[[list[CardSet]], float]:
    """A layout's weight under the other seats' trick bids (:mod:`trickcore.policies.inference`,
    the heuristic as the model of how they bid)."""
    from trickcore.policies import HeuristicPolicy
    from trickcore.policies.inference import bid_log_likelihood

    obs = _observation(pos, bids, rules)
    played_by = dict(enumerate(pos.plays_by))
    model = HeuristicPolicy()
    return lambda hands: float(np.exp(bid_log_likelihood(obs, hands, played_by, model)))


def _outcome(lay: Layout, card: Card, fin: dict[str, int], solved: tuple[Any, int]) -> dict[str, int]:
    """The whole hand if the seat plays ``card`` and everybody plays perfectly after it:
    what the side took in the tricks finished before (``fin``, :func:`_finished`), then
    what the solver found from the position on (``solved``: a
    :class:`~trickcore.solver.ManyResult` of :func:`~trickcore.solver.solve_after_cards`
    and the row): the value, and, where a line was followed, the play results the scorer
    reads along it."""
    r, d = solved
    value = int(r.value[d])
    tricks = value if lay.objective == "tricks" else 0
    melds = opp = 0
    last = -1
    if r.side_tricks[d] >= 0:           # (a line was followed)
        tricks, melds, opp = int(r.side_tricks[d]), int(r.side_melds[d]), int(r.opp_melds[d])
        last = int(r.last_trick_winner[d])
        if lay.objective == "tricks" and tricks != value:
            raise RuntimeError(f"the line after {card} takes {tricks} tricks, its value is {value}")
    if lay.objective == "nil":          # the value is whether the nil side takes a trick
        caught = int(bool(fin["side_tricks"] or value))
        return {"value": caught, "side_points": 0, "side_tricks": caught, "last_trick_winner": -1,
                "side_melds": 0, "opp_melds": 0}
    # (trick objectives: no card points, as analysis.simulate scores them)
    side_points = fin["side_points"] + value if lay.objective == "points" else 0
    side_tricks = fin["side_tricks"] + tricks
    return {"value": side_points if lay.objective == "points" else side_tricks, "side_points": side_points,
            "side_tricks": side_tricks, "last_trick_winner": last, "side_melds": fin["side_melds"] + melds,
            "opp_melds": fin["opp_melds"] + opp}


def _finished(lay: Layout, pos: _Position, side: int, points: np.ndarray) -> dict[str, int]:
    """What ``side`` took in the tricks finished before the current one: points, tricks
    and the two sides' trick melds (the solver counts the rest of the hand)."""
    mine = [side >> t.winner & 1 for t in pos.tricks]
    tricks = [[int(c) for _, c in t.plays] for t in pos.tricks]
    side_points = sum(int(points[c]) for t, m in zip(tricks, mine) if m for c in t)
    side_melds = opp_melds = 0
    if lay.trick_meld_table is not None and tricks:
        masks = np.array([sum(1 << c for c in t) for t in tricks], dtype=np.uint64)
        for v, m in zip(lay.core.trick_meld_values(masks).tolist(), mine):
            side_melds += v if m else 0
            opp_melds += 0 if m else v
    return {"side_points": side_points, "side_tricks": sum(mine), "side_melds": side_melds, "opp_melds": opp_melds}


# -- the summary -------------------------------------------------------------------------

def _summary(pos: _Position, aim: _Aim, rows: pd.DataFrame, exact: bool, level: float, stopped: bool,
             scored: bool, weighted: bool = False) -> pd.DataFrame:
    lay = pos.layout
    cards = list(pos.legal)
    n_layouts = int(rows["layout"].nunique()) if len(rows) else 0
    if n_layouts == 0:
        raise TimeoutError("the time budget ended before a first layout was solved")
    wants_max = rows.groupby("layout")["wants_max"].first()
    if aim.seat_wants_max is None and wants_max.nunique() > 1:
        better = "mixed"                        # (the seat's side differs between layouts)
    else:
        better = "higher" if bool(wants_max.iloc[0]) else "lower"
    signed = np.where(rows["wants_max"], rows["value"], -rows["value"])
    rows = rows.assign(signed=signed)
    best = rows.groupby("layout")["signed"].transform("max")
    rows = rows.assign(is_best=(rows["signed"] == best).astype(float), loss=best - rows["signed"])
    weights = rows.groupby("layout")["weight"].first()

    def mean(x: pd.Series, w: Any) -> tuple[float, float, float]:
        return _mean(x.to_numpy(dtype=float), w.to_numpy(dtype=float) if weighted else None, level, exact)

    out = []
    for c in cards:
        r = rows[rows["card"] == c]
        w = r["weight"]
        m, lo, hi = mean(r["value"], w)
        rec = {"card": str(c), "value": m, "value_lo": lo, "value_hi": hi,
               "best": mean(r["is_best"], w)[0], "loss": mean(r["loss"], w)[0]}
        if scored:
            if weighted:                # (no scored game reads trick bids today)
                pm, plo, phi = (min(max(x, 0.0), 1.0) for x in mean(r["made"], w))
            else:
                k = int(r["made"].sum())
                plo, phi = (float(x) for x in wilson_interval(k, len(r), level, exact=exact))
                pm = k / len(r)
            pay, pay_lo, pay_hi = mean(r["payout"], w)
            rec.update(p_make=pm, p_make_lo=plo, p_make_hi=phi, payout=pay, payout_lo=pay_lo, payout_hi=pay_hi)
        rec["_rank"] = (-rec["payout"] if scored else 0, rec["loss"], lay.rank_order(c))
        out.append(rec)
    out.sort(key=lambda d: d.pop("_rank"))
    # each card against the first, paired on the layouts: what choosing it instead costs
    score = "payout" if scored else "signed"
    by = rows.pivot(index="layout", columns="card", values=score)
    top = by[next(c for c in cards if str(c) == out[0]["card"])]
    for rec in out:
        diff = by[next(c for c in cards if str(c) == rec["card"])] - top
        rec["diff"], rec["diff_lo"], rec["diff_hi"] = mean(diff, weights.loc[by.index])
    frame = pd.DataFrame(out)
    for col in frame.columns:
        if col != "card":
            frame[col] = frame[col].astype(float)
    frame.attrs.update(layouts=n_layouts, exact=bool(exact), better=better, stopped=bool(stopped),
                       reference=_reference(aim, lay))
    if weighted:
        frame.attrs["n_eff"] = float(weights.sum() ** 2 / (weights ** 2).sum())
    return frame


def _mean(x: np.ndarray, w: np.ndarray | None, level: float, exact: bool) -> tuple[float, float, float]:
    """Mean and interval of ``x``; with weights ``w`` (the bids' likelihoods) the weighted
    mean, and for a sample the self-normalised importance-sampling interval: variance
    ``sum(w^2 (x - m)^2) / sum(w)^2``, Student's t on the effective sample size
    ``sum(w)^2 / sum(w^2)`` less one."""
    if w is None:
        return mean_interval(x, level, exact=exact)
    m = float(np.sum(w * x) / np.sum(w))
    if exact:
        return m, m, m
    n_eff = float(np.sum(w) ** 2 / np.sum(w ** 2))
    half = t_value(level, max(int(n_eff) - 1, 1)) * float(np.sqrt(np.sum(w ** 2 * (x - m) ** 2)) / np.sum(w))
    return m, m - half, m + half


def _reference(aim: _Aim, lay: Layout) -> str:
    unit = {"points": "card points", "tricks": "tricks", "nil": "whether the nil side takes a trick (0/1)"}[lay.objective]
    who = {"declarer": "the declaring side", "team": "the seat's team", "alone": "the seat alone"}[aim.mode]
    return f"{unit} of {who} over the whole hand"

