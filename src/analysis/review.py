"""Double-dummy review of a played hand: what each card cost against perfect play.

Bridge players know this from the hand viewers that print, after a deal, the double-dummy
result before and after every card; Schafkopf players from openschafkopf's analysis of a
played game.  :func:`review_play` does it for every game of trickcore: it replays the
cards, checks that each one was legal, solves the position before it
(:func:`trickcore.solve`, every legal card's exact value) and reports how much the card
played gave away against the best card of that position.

What the numbers mean
---------------------
``before`` and ``after`` are *whole-play* values: what the reference side (the declarer's
side, or the seat itself, below) ends up taking in the play if every card from this point
on is perfect (double dummy) — the points or tricks it already took in finished tricks plus
the exact value of the rest.  ``before`` is the value with the mover's best card, ``after``
the value after the card that was played, and ``loss = |before - after|`` what the card gave
away, in card points (points games) or tricks.  ``loss`` is 0 for every card on an optimal
line; a card is a *mistake* when its loss is positive.  The mover's team wants the value
high or low as the layout's goal says (the declarer's side ``goal``, every other seat the
opposite), so a loss always counts against the mover.

Kitty, blind and buried points, hand melds and payouts are not in these values: like the
solver's, they count the card play only (trick points with the last-trick bonus, or
tricks).  Clover's trick melds are not counted either (the solver's value leaves them out).
A nil (Goathead's, or ``objective='nil'``) counts 1 once the nil player's side takes a
trick, else 0; the rows after that trick are decided (value 1, no loss).

Perspectives
------------
``perspective="side"`` (default): one reference side for the whole hand, the declarer's side
(``layout.sides`` of the hands at the start of play, or ``sides=``).  Its values run from
the start to the end of the hand, so ``after`` of one card is ``before`` of the next: the
double-dummy result moves only when somebody errs.  The declarer's side of Sheepshead's
``jd`` is the picker and the J♦'s holder, found from the hands before the J♦ is played.

``perspective="seat"``: each card is judged from its own seat, that seat alone against all
the others with the layout's goal (the paranoid value that :mod:`analysis.paranoid` uses
for games without a declaring side: Hearts, Gamut Hearts and Clubs, leasters).  Values are
in the mover's own terms, so consecutive rows belong to different seats.

Cost: one exact solve with every card's value per card that was not forced (a lone legal
card costs nothing): milliseconds a hand for Goathead and Sheepshead, a few seconds for
Spades; a whole 13-card Hearts deal can take minutes a position, so give ``time_budget``
(seconds per position): a position it stops leaves ``NaN`` values and ``exact=False`` in its
row, and the review goes on.

Examples
--------
The last two tricks of a Goathead hand (hearts trump, so the jacks are trumps too); the
declarer (seat 0) leads the A♣, and seat 1, void in plain clubs, discards the 10♦ where
its J♣ would have ruffed:

>>> r = review_play("goathead3", "hearts", ["AC 10C", "10D JC", "JD QC"], "AC 10D QC 10C JC JD")
>>> r.moves[["trick", "seat", "card", "before", "after", "loss", "best_cards"]]
   trick  seat card  before  after  loss best_cards
0      5     0   A♣     0.0    0.0   0.0     10♣ A♣
1      5     1  10♦     0.0   24.0  24.0         J♣
2      5     2   Q♣    24.0   24.0   0.0         Q♣
3      6     0  10♣    24.0   24.0   0.0        10♣
4      6     1   J♣    24.0   24.0   0.0         J♣
5      6     2   J♦    24.0   24.0   0.0         J♦
>>> r.start, r.result            # double dummy the declarer's side takes nothing; it took 24
(0, 24)
>>> r.summary()                  # doctest: +NORMALIZE_WHITESPACE
      cards  decisions  mistakes  loss  largest_loss  unsolved
seat
0         2          1         0   0.0           0.0         0
1         2          1         1  24.0          24.0         0
2         2          0         0   0.0           0.0         0
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
import itertools
import math
from typing import Any

import numpy as np
import pandas as pd

from trickcore.cards import Card, CardSet, parse_card, parse_hand
from trickcore.layout import Layout, resolve_layout
from trickcore.solver import _parse_suits_led, solve

from .odds import _check_seat

__all__ = ["review_play", "review_round", "play_and_review", "PlayReview"]

PERSPECTIVES = ("side", "seat")


@dataclass
class PlayReview:
    """Result of :func:`review_play`.

    Attributes
    ----------
    moves:
        One row per card played: ``trick`` (1-based), ``seat``, ``card``, ``team``
        (``'declarer'``, ``'defender'``, or ``'alone'`` for the seat perspective),
        ``forced`` (the seat's only legal card), ``exact`` (False where a budget stopped
        the solve), ``before``, ``after``, ``loss`` (see the module's docstring),
        ``best_cards`` (the cards that keep ``before``, in text) and ``nodes`` (search
        nodes spent on the position).
    side:
        The reference side's seat mask (perspective ``'side'``; 0 for ``'seat'``).
    goal:
        What the reference side wants, ``'max'`` or ``'min'`` (for ``'seat'``: each seat).
    objective:
        ``'points'``, ``'tricks'`` or ``'nil'``: the unit of the values.
    perspective:
        ``'side'`` or ``'seat'``.
    start:
        Perspective ``'side'``: the double-dummy value of the hand at the start of play
        (``None`` if that solve was stopped by its budget, and for ``'seat'``).
    result:
        Perspective ``'side'``: what the side took in the play, once every card was played
        (else ``None``).
    note:
        Why the double-dummy columns are empty, when :func:`play_and_review` could not
        review a round double dummy (Oh Hell, folded Gamut seats).
    """

    moves: pd.DataFrame
    side: int
    goal: str
    objective: str
    perspective: str
    start: int | None
    result: int | None
    note: str = ""

    def summary(self) -> pd.DataFrame:
        """Per seat: cards played, decisions (cards not forced), mistakes (loss > 0), the
        total and the largest loss, and positions whose solve was stopped; after
        :func:`play_and_review` also the cards with a positive informed loss and its total.

        >>> r = review_play("goathead3", "hearts", ["AC 10C", "10D JC", "JD QC"], "AC 10D QC")
        >>> r.summary()[["cards", "decisions", "mistakes"]].to_dict("list")
        {'cards': [1, 1, 1], 'decisions': [1, 1, 0], 'mistakes': [0, 1, 0]}
        """
        m = self.moves
        g = m.groupby("seat")
        out = pd.DataFrame({
            "cards": g.size(),
            "decisions": g["forced"].apply(lambda f: int((~f).sum())),
            "mistakes": g["loss"].apply(lambda x: int((x > 0).sum())),
            "loss": g["loss"].sum(),
            "largest_loss": g["loss"].max(),
            "unsolved": g["exact"].apply(lambda e: int((~e).sum())),
        })
        if "ev_loss" in m:      # play_and_review's informed columns
            out["informed_mistakes"] = g["ev_loss"].apply(lambda x: int((x > 0).sum()))
            out["informed_loss"] = g["ev_loss"].sum()
        out.index.name = "seat"
        return out


def review_play(
    game: Any,
    contract: str | None,
    hands: Sequence[Any],
    play: Any,
    *,
    leader: int = 0,
    declarer: int = 0,
    played: Any = None,
    suits_led: Any = None,
    sides: int | None = None,
    goal: str | None = None,
    perspective: str = "side",
    time_budget: float | None = None,
    node_budget: int | None = None,
    **rules: Any,
) -> PlayReview:
    """Review a played hand card by card against double-dummy play.

    Parameters
    ----------
    game, contract, **rules:
        As in :func:`trickcore.solve` (a game id and contract, or a ready ``Layout`` with
        ``contract=None``).
    hands:
        Every seat's hand at the start of play (after any exchange), or at the start of a
        later trick (an ending: hands of equal size).
    play:
        The cards played, in order, from the first lead (a text such as ``"AS 10S QS"`` or a
        sequence of cards); the hand may stop anywhere.
    played, suits_led:
        For an ending, the cards of the earlier tricks and the effective suits led in them,
        as in :func:`trickcore.solve` (they decide whether a restricted suit is broken and
        whether a must-play card is still due).
    leader, declarer, sides, goal:
        The first leader; the declarer, whose side (``layout.sides``, or ``sides``) is the
        reference side of perspective ``'side'``; ``goal`` overrides what it wants.
    perspective:
        ``'side'`` or ``'seat'`` (see the module's docstring).
    time_budget, node_budget:
        Limits of each position's solve; a stopped position's row has ``exact=False``.

    Raises
    ------
    ValueError
        Bad hands or cards, a card its seat does not hold or may not play (naming the card,
        the seat and the legal cards), more cards than the hands hold, an unknown
        perspective, or the ``nil`` objective seen seat by seat.
    """
    layout = resolve_layout(game, contract, rules)
    n = layout.n_seats
    if perspective not in PERSPECTIVES:
        raise ValueError(f"perspective must be one of {', '.join(PERSPECTIVES)}, not {perspective!r}")
    if layout.objective == "nil" and perspective != "side":
        raise ValueError(f"{layout.name}: a nil is reviewed from the nil player's side only (perspective='side')")
    if goal is not None and goal not in ("max", "min"):
        raise ValueError(f"goal must be 'max' or 'min', not {goal!r}")
    goal = layout.goal if goal is None else goal
    parsed = layout.check_hands(hands, equal=True)
    if not len(parsed[0]):
        raise ValueError("the hands are empty: there is no play to review")
    leader = _check_seat("leader", leader, n)
    cards = _parse_play(play)
    if len(cards) > n * len(parsed[0]):
        raise ValueError(f"{len(cards)} cards played, but the hands hold {n * len(parsed[0])}")
    earlier = parse_hand(played) if played is not None else CardSet()
    in_hands = CardSet()
    for h in parsed:
        in_hands |= h
    if earlier - layout.deck or earlier & in_hands:
        raise ValueError(f"played cards {(earlier - layout.deck) | (earlier & in_hands)} are outside the deck "
                         "or still in a hand")
    led = _parse_suits_led(layout, suits_led, earlier)
    if perspective == "side":
        if sides is None:
            start = np.array([h.mask for h in parsed], dtype=np.uint64)
            side = int(layout.sides(start, _check_seat("declarer", declarer, n)))
        else:
            side = _side_mask(sides, n)
    else:
        side = 0
    return _Replay(layout, parsed, leader, earlier, led, side, goal, perspective, time_budget, node_budget).run(cards)


def review_round(record: Any, *, perspective: str | None = None, time_budget: float | None = None,
                 node_budget: int | None = None) -> PlayReview:
    """Review the card play of a finished round (:class:`trickcore.rounds.RoundRecord`).

    The hands at the start of play are the cards each seat played; the layout, the first
    leader and the declarer's side come from the record.  Rounds with a declaring side (or
    the partnerships of Spades and of Gamut's Spades game, seats 0 and 2 as the reference
    side) are reviewed from that side, rounds without one (Hearts, Gamut Hearts and Clubs,
    leasters) seat by seat.  Oh Hell is refused: its seats play to their bids, which
    neither a side's nor a seat's most (or fewest) tricks measure.

    >>> from trickcore.rounds import play_round
    >>> from trickcore.policies import HeuristicPolicy
    >>> rec = play_round("sheepshead", [HeuristicPolicy() for _ in range(5)], seed=1)
    >>> r = review_round(rec)
    >>> r.perspective, len(r.moves), int(r.moves.loss.min()) >= 0
    ('side', 30, True)
    """
    tricks = list(getattr(record, "tricks", None) or ())
    if not tricks:
        raise ValueError("the round has no card play to review (thrown in, or not a RoundRecord)")
    game = record.game
    if game == "ohhell":
        raise ValueError("Oh Hell is not reviewed: its seats play to their bids, which a double-dummy "
                         "count of the most or fewest tricks does not measure")
    layout_rules = dict(record.rules)
    layout = resolve_layout(game, record.contract, layout_rules)
    seats = sorted({s for t in tricks for s, _ in t.plays})
    if len(seats) != layout.n_seats or seats != list(range(layout.n_seats)):
        raise ValueError(f"only rounds every seat plays can be reviewed; here seats {seats} played")
    hands = [CardSet([c for t in tricks for s, c in t.plays if s == seat]) for seat in range(layout.n_seats)]
    play = [c for t in tricks for _, c in t.plays]
    if record.side_mask:
        kind, sides = "side", int(record.side_mask)
    elif game == "spades" or (game == "gamut" and record.contract == "spades"):
        kind, sides = "side", 0b0101                  # the partnerships: seats 0 and 2 against 1 and 3
    else:
        kind, sides = "seat", None
    return review_play(layout, None, hands, play, leader=tricks[0].leader, sides=sides,
                       perspective=perspective or kind, time_budget=time_budget, node_budget=node_budget)


def play_and_review(game: Any, policies: Sequence[Any], *, seed: Any = None, samples: int = 20,
                    review_seed: int = 0, bid_inference: bool = True, ev_max_cards: int = 32,
                    node_budget: int | None = None, time_budget: float | None = None,
                    **round_kwargs: Any) -> tuple[Any, PlayReview]:
    """Play a round with ``policies`` and review every card both against double dummy and
    against what its player could know.

    Double dummy (``before``, ``after``, ``loss``: :func:`review_round`) charges a player for
    not seeing the other hands.  The informed columns judge each card by the information
    its seat had when it played: ``samples`` deals of the cards the seat could not see,
    drawn consistent with everything it had seen (its hand, the cards played, the voids
    shown, the kitty it saw, and the trick bids with ``bid_inference``), each solved double
    dummy for every legal card, as a PIMC player decides
    (:meth:`trickcore.policies.PIMCPolicy.expected_card_values`, seeded by
    ``review_seed``):

    ``ev_best``, ``ev_played``
        the mean value of the best card and of the card played, for the mover (higher is
        better; the remaining play only, in points or tricks);
    ``ev_loss``
        ``ev_best - ev_played``: what the card gave away on average over the deals the
        player could not tell apart (0 for a forced card);
    ``ev_best_cards``
        the cards with the best mean.

    A card can lose double dummy and nothing informed (a guess that went wrong), or the
    other way round.  Positions with more than ``ev_max_cards`` cards in the hands (default
    32: whole deals of the 32-card games, the last eight tricks of the 52-card ones, where a
    position's samples take seconds in Spades and minutes in Hearts) keep ``NaN`` informed
    values.  ``node_budget`` and ``time_budget`` limit the double-dummy review's solves
    (:func:`review_round`).  The means are estimates from ``samples`` deals; PIMC's choices
    are the cards with ``ev_loss == 0`` under its own seed and samples.  Rounds the
    double-dummy review refuses (Oh Hell, Gamut rounds with folded seats) keep ``NaN``
    there, and ``note`` says why.

    Returns the round's record and the review.

    >>> from trickcore.policies import HeuristicPolicy
    >>> rec, r = play_and_review("goathead3", [HeuristicPolicy()] * 3, seed=4, samples=8)
    >>> len(r.moves) == sum(len(t.plays) for t in rec.tricks), bool((r.moves.ev_loss >= 0).all())
    (True, True)
    """
    from trickcore.policies import PIMCPolicy
    from trickcore.rounds import drive, start_round

    if isinstance(samples, (bool, np.bool_)) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ValueError(f"samples must be a whole number, at least 1, not {samples!r}")
    if isinstance(ev_max_cards, (bool, np.bool_)) or not isinstance(ev_max_cards, (int, np.integer)):
        raise ValueError(f"ev_max_cards must be a whole number of cards, not {ev_max_cards!r}")
    if not hasattr(policies, "__len__"):
        raise ValueError(f"policies must be one policy per seat, not {policies!r}")
    judge = PIMCPolicy(samples=int(samples), seed=review_seed, bid_inference=bid_inference)
    r = start_round(game, seed=seed, **round_kwargs)
    order = itertools.count()
    recorders = [_CardRecorder(p, order) for p in policies]
    record = drive(r, recorders)      # (one policy per seat: drive checks the count)
    seen = sorted((c for rec in recorders for c in rec.cards), key=lambda c: c[0])
    if len(seen) != sum(len(t.plays) for t in record.tricks):     # every card goes through play()
        raise RuntimeError(f"{len(seen)} card decisions recorded for {sum(len(t.plays) for t in record.tricks)} "
                           "cards played")
    try:
        review = review_round(record, node_budget=node_budget, time_budget=time_budget)
        moves = review.moves.copy()
    except ValueError as exc:     # a round the double-dummy review refuses: informed columns only
        review = PlayReview(pd.DataFrame(), 0, "", "", "seat", None, None, note=f"no double-dummy review: {exc}")
        moves = pd.DataFrame({
            "trick": [len(obs.tricks) + 1 for _, obs, _ in seen], "seat": [obs.seat for _, obs, _ in seen],
            "card": [str(card) for _, _, card in seen], "team": "", "forced": [len(obs.legal) == 1 for _, obs, _ in seen],
            "exact": False, "before": math.nan, "after": math.nan, "loss": math.nan, "best_cards": "", "nodes": 0})
    ev = []
    for _, obs, card in seen:
        if len(obs.legal) == 1:
            ev.append((math.nan, math.nan, 0.0, str(card)))
            continue
        if sum(obs.hand_sizes) > ev_max_cards:
            ev.append((math.nan, math.nan, math.nan, ""))
            continue
        means = judge.expected_card_values(obs)
        best = max(means.values())
        ev.append((best, means[card], best - means[card],
                   " ".join(str(c) for c in sorted(means) if means[c] == best)))
    moves["ev_best"], moves["ev_played"], moves["ev_loss"], moves["ev_best_cards"] = zip(*ev) if ev else ([],) * 4
    review.moves = moves
    return record, review


class _CardRecorder:
    """A policy that answers as ``policy`` does and keeps every card-play observation with
    the card chosen, numbered by ``order`` (shared by the seats: the order of the play)."""

    def __init__(self, policy: Any, order: Iterator[int]) -> None:
        self.policy = policy
        self.order = order
        self.cards: list[tuple[int, Any, Card]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.policy, name)

    def play(self, obs: Any) -> Any:
        card = self.policy.play(obs)
        self.cards.append((next(self.order), obs, parse_card(card)))
        return card


class _Replay:
    """The hand replayed card by card: the position before each card, solved, then the card
    played into it (hands, the trick on the table, earlier tricks, suits led, what each seat
    took)."""

    def __init__(self, layout: Layout, hands: list[CardSet], leader: int, played: CardSet, suits_led: int,
                 side: int, goal: str, perspective: str, time_budget: float | None,
                 node_budget: int | None) -> None:
        self.layout = layout
        self.n = layout.n_seats
        self.hands = list(hands)
        self.leader = leader
        self.side = side
        self.goal = goal
        self.perspective = perspective
        self.budget = {"time_budget": time_budget, "node_budget": node_budget}
        self.trick: list[Card] = []
        self.played = played                # the cards of the tricks before the current one
        self.suits_led = suits_led
        self.trick_index = layout.hand_size - len(hands[0])     # an ending starts later
        self.taken = [0] * self.n          # points (or tricks) each seat took in finished tricks
        self.points = {c: int(v) for c, v in layout.points.items()}

    def run(self, cards: list[Card]) -> PlayReview:
        rows = []
        carried: float | None = None        # perspective 'side': the value after the last card
        start: int | None = None
        for i, card in enumerate(cards):
            row = self.review_card(i, card, carried)
            rows.append(row)
            if i == 0 and row["exact"] and not math.isnan(row["before"]):
                start = int(row["before"])
            self.play_card(card)
            if self.perspective == "side":
                carried = row["after"]
        moves = pd.DataFrame(rows, columns=[
            "trick", "seat", "card", "team", "forced", "exact", "before", "after", "loss", "best_cards", "nodes"])
        result = None
        if self.perspective == "side" and cards and not any(self.hands):
            result = self.taken_by(self.side)
        return PlayReview(moves, self.side, self.goal, self.layout.objective, self.perspective, start, result)

    # -- one card -------------------------------------------------------------------------
    def review_card(self, i: int, card: Card, carried: float | None) -> dict[str, Any]:
        L, n = self.layout, self.n
        mover = (self.leader + len(self.trick)) % n
        if card not in self.hands[mover]:
            holder = next((s for s in range(n) if card in self.hands[s]), None)
            where = f"seat {holder} holds it" if holder is not None else "it was played already or is not dealt"
            raise ValueError(f"card {i + 1} of the play, {card}: seat {mover} is to play but does not hold it ({where})")
        legal = L.legal_moves(self.hands[mover], self.trick[0] if self.trick else None,
                              trick_index=self.trick_index, played=self.played | CardSet(self.trick),
                              suits_led=self.suits_led)
        if card not in legal:
            raise ValueError(f"card {i + 1} of the play, {card}: not a legal card for seat {mover} here "
                             f"(legal: {legal})")
        if self.perspective == "side":
            team, wants_max = ("declarer", self.goal == "max") if self.side >> mover & 1 \
                else ("defender", self.goal != "max")
            sides = self.side
        else:
            team, wants_max = "alone", self.goal == "max"
            sides = 1 << mover
        row = {"trick": self.trick_index + 1, "seat": mover, "card": str(card), "team": team,
               "forced": len(legal) == 1, "exact": True, "before": math.nan, "after": math.nan,
               "loss": 0.0, "best_cards": str(card), "nodes": 0}
        if self.layout.objective == "nil" and self.taken_by(self.side):
            row.update(before=1.0, after=1.0, best_cards="")        # decided: the nil failed
            return row
        if len(legal) == 1:
            # nothing to choose: the side's value stays as it was; a seat's own is not asked
            row["before"] = row["after"] = math.nan if carried is None else carried
            if carried is not None or self.perspective == "seat":
                return row
        try:
            res = solve(L, None, self.hands, leader=self.leader, trick=self.trick, played=self.played,
                        suits_led=self.suits_led, sides=sides, goal=self.goal, **self.budget)
        except TimeoutError:
            row.update(exact=False, loss=math.nan, best_cards="")
            return row
        base = self.taken_by(sides)
        values = {c: base + v for c, v in res.card_values.items()}
        best = max(values.values()) if wants_max else min(values.values())
        row.update(before=float(best), after=float(values[card]), loss=float(abs(best - values[card])),
                   best_cards=" ".join(str(c) for c, v in values.items() if v == best), nodes=int(res.nodes))
        return row

    def play_card(self, card: Card) -> None:
        mover = (self.leader + len(self.trick)) % self.n
        self.hands[mover] = self.hands[mover] - CardSet([card])
        self.trick.append(card)
        if len(self.trick) < self.n:
            return
        winner = (self.leader + self.layout.trick_winner(self.trick)) % self.n
        if self.layout.objective == "nil":
            # the nil fails at the side's first trick: the value is 1 from then on
            if self.side >> winner & 1 and not self.taken_by(self.side):
                self.taken[winner] = 1
        elif self.layout.objective == "tricks":
            self.taken[winner] += 1
        else:
            self.taken[winner] += sum(self.points.get(c, 0) for c in self.trick)
            if not any(self.hands):
                self.taken[winner] += self.layout.last_trick_bonus
        self.suits_led |= 1 << self.layout.effective_suit(self.trick[0])
        self.played = self.played | CardSet(self.trick)
        self.trick = []
        self.leader = winner
        self.trick_index += 1

    def taken_by(self, seats: int) -> int:
        return sum(self.taken[s] for s in range(self.n) if seats >> s & 1)


def _parse_play(play: Any) -> list[Card]:
    if isinstance(play, str):
        items = play.replace(",", " ").split()
    elif isinstance(play, CardSet):
        raise ValueError("play must be the cards in the order played (a text or a sequence), not a CardSet")
    else:
        try:
            items = list(play)
        except TypeError:
            raise ValueError(f"play must be the cards in the order played, not {play!r}") from None
    out = []
    for i, item in enumerate(items):
        try:
            out.append(parse_card(item))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"card {i + 1} of the play: {exc}") from None
    return out


def _side_mask(value: Any, n: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 0 < value < 1 << n:
        raise ValueError(f"sides must be a non-empty seat bit mask below {1 << n}, not {value!r}")
    return int(value)
