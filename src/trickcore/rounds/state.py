"""The round state, what one seat may see of it, and the record a finished round leaves.

A round is a *flow*: a generator, written once per game, that deals, runs the bidding,
exchanges and the play, and *yields* a :class:`Decision` every time a seat must choose.  The
driver (:meth:`RoundState.act`) checks the answer against the decision's legal choices —
an illegal bid or card raises ``ValueError`` saying why — and sends it back into the flow.
So the same flow serves policies (:func:`trickcore.rounds.play_round`) and a person or a
test feeding moves one at a time.

Information hiding.  A policy never sees the :class:`RoundState`; it gets an
:class:`Observation` built for its seat: its own hand, the public record (bids, calls,
cards played, voids shown, melds shown, the turned card) and the private facts that seat
learnt (cards it passed or received, the kitty it picked up or buried).  Hidden partners
stay hidden: the observation only names the cards that decide the sides (the contract's
partner card), never who holds them.

Examples
--------
>>> from trickcore.rounds import start_round
>>> r = start_round("goathead3", seed=1)
>>> r.pending.kind, r.pending.seat          # the dealer is seat 0: seat 1 bids first
('bid', 1)
>>> r.act("bogus")
Traceback (most recent call last):
  ...
ValueError: illegal bid 'bogus' by seat 1 (not a contract of the ladder); legal: 'pass', 'diamonds', 'hearts', 'nil', 'spades', 'clubs', 'court'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import Card, CardSet
from ..games import get_game
from ..games.base import _is_int
from ..layout import Layout

__all__ = ["Decision", "Observation", "RoundRecord", "RoundState", "Trick", "DECISION_KINDS"]

#: The decision points; each is one method of :class:`trickcore.policies.Policy`.
DECISION_KINDS = ("bid", "pick_or_pass", "exchange", "pass_cards", "call", "fold", "play")


@dataclass(frozen=True)
class Decision:
    """One choice a seat must make.

    ``legal`` lists the allowed answers.  When ``count`` > 1 the answer is a tuple of
    ``count`` distinct items of ``legal`` (cards to bury or pass, in order: for Gamut the
    first card goes left, the second right); ``check`` may reject a combination.
    ``phase`` names the step within the game (``"bid"``, ``"raise"``, ``"crack"``, ...).
    """

    seat: int
    kind: str
    legal: tuple
    count: int = 1
    phase: str = ""
    check: Callable[[tuple], str | None] | None = None
    explain: Callable[[Any], str] | None = None

    def _norm(self, x: Any) -> Any:
        if isinstance(x, str) and self.legal and isinstance(self.legal[0], Card):
            try:
                return Card.parse(x)
            except ValueError:
                return x
        return x

    def validate(self, answer: Any) -> Any:
        """The legal answer equal to ``answer``; ``ValueError`` saying why otherwise."""
        what = self.phase or self.kind
        if self.count == 1:
            if isinstance(answer, (tuple, list)) and len(answer) == 1 and not isinstance(self.legal[-1], tuple):
                answer = answer[0]  # a one-card pass given as a 1-tuple
            a = self._norm(answer)
            if a not in self.legal or (isinstance(a, bool) is not isinstance(self.legal[self.legal.index(a)], bool)):
                why = f" ({self.explain(a)})" if self.explain is not None else ""
                raise ValueError(
                    f"illegal {what} {_show(answer)} by seat {self.seat}{why}; legal: "
                    + ", ".join(_show(x) for x in self.legal)
                )
            return self.legal[self.legal.index(a)]
        try:
            items = tuple(self._norm(x) for x in answer)
        except TypeError:
            raise ValueError(f"{what} by seat {self.seat} needs {self.count} items, got {answer!r}") from None
        if len(items) != self.count or len(set(items)) != self.count:
            raise ValueError(f"{what} by seat {self.seat} needs {self.count} distinct items, got {_show(items)}")
        bad = [x for x in items if x not in self.legal]
        if bad:
            raise ValueError(
                f"illegal {what} {_show(bad)} by seat {self.seat}; choose from: " + ", ".join(_show(x) for x in self.legal)
            )
        if self.check is not None:
            why = self.check(items)
            if why:
                raise ValueError(f"illegal {what} {_show(items)} by seat {self.seat}: {why}")
        return tuple(self.legal[self.legal.index(x)] for x in items)


def check_scores(n_seats: int, scores: Any) -> tuple[float, ...]:
    """The match's game points so far, one finite number per seat, as floats; anything
    else (a string of digits too) is a ``ValueError``.

    >>> check_scores(3, [0, 2, 1])
    (0.0, 2.0, 1.0)
    """
    if isinstance(scores, (str, bytes)):
        raise ValueError(f"scores must be {n_seats} numbers, the game points of each seat; got {scores!r}")
    try:
        vals = tuple(float(x) for x in scores)
    except (TypeError, ValueError):
        raise ValueError(f"scores must be {n_seats} numbers, the game points of each seat; got {scores!r}") from None
    if len(vals) != n_seats or not all(np.isfinite(vals)):
        raise ValueError(f"scores must be {n_seats} finite numbers, the game points of each seat; got {scores!r}")
    return vals


def _show(x: Any) -> str:
    if isinstance(x, Card):
        return str(x)
    if isinstance(x, (tuple, list)):
        return "(" + " ".join(_show(y) for y in x) + ")"
    return repr(x)


@dataclass(frozen=True)
class Trick:
    """A finished trick: its leader, the ``(seat, card)`` plays in order, the winner."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int


@dataclass(frozen=True)
class Observation:
    """Everything one seat may know when it decides.  Built fresh for every decision.

    Attributes
    ----------
    game, n_seats, seat, dealer, round_index:
        The table.
    kind, phase, legal, count:
        The decision asked (see :class:`Decision`).
    hand:
        The seat's cards now.
    hand_sizes:
        Cards each seat holds now (public).
    bids:
        Public announcements in order, ``(seat, phase, value)``.
    contract, declarer, multiplier, layout:
        Known once the bidding is over (``layout`` is the contract's layout).
    turned:
        A card shown to everybody (Clover's and Gamut's turned card, Oh Hell's trump card).
    partner_cards:
        Cards that decide the sides (the black jacks and the called queen, J♦, the called
        ace); who holds them is not revealed.
    known:
        ``seat -> cards`` this seat knows another seat still holds (cards it passed,
        melds shown, announcements).
    kitty_known:
        Cards this seat knows lie in the kitty/blind (what it buried), and
        ``kitty_size`` how many cards lie there.
    tricks, trick, leader:
        Finished tricks, the plays of the current trick, who led it.
    voids:
        ``seat -> effective suit indices`` (of ``layout``) that seat has shown void in.
    active:
        Seats still in the round (Gamut Clubs folding).
    scores:
        Match scores before this round.
    check:
        For multi-card answers, a function returning why a combination is illegal.
    rules:
        Every rule option in force.
    """

    game: str
    n_seats: int
    seat: int
    dealer: int
    round_index: int
    kind: str
    phase: str
    legal: tuple
    count: int
    hand: CardSet
    hand_sizes: tuple[int, ...]
    bids: tuple[tuple[int, str, Any], ...]
    contract: str | None
    declarer: int | None
    multiplier: int
    layout: Layout | None
    turned: Card | None
    partner_cards: CardSet
    known: dict[int, CardSet]
    kitty_known: CardSet
    kitty_size: int
    tricks: tuple[Trick, ...]
    trick: tuple[tuple[int, Card], ...]
    leader: int | None
    voids: dict[int, frozenset[int]]
    active: tuple[int, ...]
    scores: tuple[float, ...]
    rules: dict[str, Any]
    check: Callable[[tuple], str | None] | None = None

    @property
    def played(self) -> CardSet:
        """Every card played so far this round (finished tricks and the current one)."""
        out = CardSet()
        for t in self.tricks:
            out |= CardSet(c for _, c in t.plays)
        return out | CardSet(c for _, c in self.trick)

    def unseen(self, deck: CardSet) -> CardSet:
        """Cards of ``deck`` whose place this seat does not know."""
        out = deck - self.hand - self.played - self.kitty_known
        for cards in self.known.values():
            out = out - cards
        return out


@dataclass
class RoundRecord:
    """What a finished round leaves: bids, contract, sides, tricks, points and payouts.

    ``row()`` flattens it to one ``dict`` (a DataFrame row); ``frame`` is the scoring frame
    row handed to :func:`trickcore.scoring.score` and ``scored`` its whole answer (payouts,
    ``made``, the game's extras such as Spades bags).  Payouts are what each seat adds to
    its match score (Hearts: penalty points).
    """

    game: str
    round_index: int
    dealer: int
    rules: dict[str, Any]
    bids: list[tuple[int, str, Any]]
    contract: str | None
    declarer: int | None
    side_mask: int
    multiplier: int
    tricks: list[Trick]
    points: list[int]
    trick_counts: list[int]
    payouts: list[float]
    thrown_in: bool = False
    frame: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    scored: dict[str, Any] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        """One flat ``dict`` per round (bids as text, per-seat columns suffixed ``_s``)."""
        out: dict[str, Any] = {
            "game": self.game,
            "round": self.round_index,
            "dealer": self.dealer,
            "bids": "; ".join(f"{s}:{p}={v}" for s, p, v in self.bids),
            "contract": self.contract,
            "declarer": -1 if self.declarer is None else self.declarer,
            "side_mask": self.side_mask,
            "multiplier": self.multiplier,
            "thrown_in": self.thrown_in,
        }
        for s, v in enumerate(self.points):
            out[f"points_{s}"] = v
        for s, v in enumerate(self.trick_counts):
            out[f"tricks_{s}"] = v
        for s, v in enumerate(self.payouts):
            out[f"payout_{s}"] = v
        for k, v in self.extra.items():
            out[k] = v if np.isscalar(v) or v is None else str(v)
        return out


class RoundState:
    """The whole truth of one round; subclasses write :meth:`flow` for their game.

    Parameters
    ----------
    game:
        Game id or :class:`~trickcore.games.Game`.
    rules:
        Rule options (validated by ``Game.check_rules``).
    dealer, round_index, scores:
        Seat of the dealer, index of the round in the match, match scores so far.
    seed:
        Seed of the round's random generator (deals).
    hands, kitty:
        A fixed deal (universal cards), instead of a random one.
    """

    def __init__(
        self,
        game: Any,
        rules: dict[str, Any] | None = None,
        *,
        dealer: int = 0,
        round_index: int = 0,
        scores: Sequence[float] | None = None,
        seed: Any = None,
        hands: Sequence[Any] | None = None,
        kitty: Any = None,
        multiplier: int = 1,
    ) -> None:
        self.game = get_game(game)
        self.rules = self.game.check_rules(dict(rules or {}))
        self.n = self.game.n_seats
        if not _is_int(dealer) or not 0 <= dealer < self.n:
            raise ValueError(f"dealer must be a seat 0..{self.n - 1}, got {dealer!r}")
        self.dealer = int(dealer)
        if not _is_int(round_index) or round_index < 0:
            raise ValueError(f"round_index must be a whole number >= 0, got {round_index!r}")
        self.round_index = int(round_index)
        self.scores = check_scores(self.n, scores if scores is not None else [0] * self.n)
        try:
            self.rng = np.random.default_rng(seed)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"bad seed {seed!r}: {exc}") from None
        if not _is_int(multiplier) or multiplier < 1:
            raise ValueError(f"multiplier must be a whole number >= 1, got {multiplier!r}")
        self.multiplier = int(multiplier)
        self.bids: list[tuple[int, str, Any]] = []
        self.contract: str | None = None
        self.declarer: int | None = None
        self.layout: Layout | None = None
        self.turned: Card | None = None
        self.partner_cards = CardSet()
        self.known = [dict() for _ in range(self.n)]  # known[s][t]: cards s knows t holds
        self.kitty_known = [CardSet() for _ in range(self.n)]
        self.tricks: list[Trick] = []
        self.trick: list[tuple[int, Card]] = []
        self.leader: int | None = None
        self.voids: dict[int, set[int]] = {s: set() for s in range(self.n)}
        self.active = tuple(range(self.n))
        self.side_mask = 0
        self.thrown_in = False
        self.exchanged = False
        self.extra: dict[str, Any] = {}
        self.fixed = (hands, kitty) if hands is not None else None
        self.hands: list[CardSet] = []
        self.kitty = CardSet()
        self.start_hands: list[CardSet] = []
        self.record: RoundRecord | None = None
        self._flow: Iterator[Decision] | None = None
        self.pending: Decision | None = None

    # -- driving -------------------------------------------------------------------------
    def start(self) -> RoundState:
        """Deal and run the flow up to the first decision (or the end)."""
        self._flow = self.flow()
        self._advance(None, first=True)
        return self

    @property
    def done(self) -> bool:
        return self.record is not None

    def act(self, answer: Any) -> RoundState:
        """Answer the pending decision; ``ValueError`` if the answer is not legal."""
        if self.pending is None:
            raise ValueError("the round is over: no decision is pending")
        value = self.pending.validate(answer)
        self._advance(value)
        return self

    def _advance(self, value: Any, first: bool = False) -> None:
        try:
            self.pending = next(self._flow) if first else self._flow.send(value)
        except StopIteration:
            self.pending = None
            self.record = self.finish()

    def observe(self, seat: int, decision: Decision | None = None) -> Observation:
        """The observation of ``seat`` (for the pending decision if it is that seat's)."""
        d = decision if decision is not None else self.pending
        if d is not None and d.seat != seat:
            d = None
        # What the seat *knows*, minus cards since played: never intersected with the true
        # hands, which would leak private moves (flows make bystanders forget instead).
        gone = CardSet(c for t in self.tricks for _, c in t.plays) | CardSet(c for _, c in self.trick)
        known = {t: cards - gone for t, cards in self.known[seat].items() if t != seat}
        return Observation(
            game=self.game.id,
            n_seats=self.n,
            seat=seat,
            dealer=self.dealer,
            round_index=self.round_index,
            kind=d.kind if d else "",
            phase=d.phase if d else "",
            legal=d.legal if d else (),
            count=d.count if d else 0,
            hand=CardSet(self.hands[seat]) if self.hands else CardSet(),
            hand_sizes=tuple(len(h) for h in self.hands),
            bids=tuple(self.bids),
            contract=self.contract,
            declarer=self.declarer,
            multiplier=self.multiplier,
            layout=self.layout,
            turned=self.turned,
            partner_cards=self.partner_cards,
            known={t: c for t, c in known.items() if c},
            kitty_known=self.kitty_known[seat],
            kitty_size=len(self.kitty),
            tricks=tuple(self.tricks),
            trick=tuple(self.trick),
            leader=self.leader,
            voids={s: frozenset(v) for s, v in self.voids.items()},
            active=self.active,
            scores=self.scores,
            rules=dict(self.rules),
            check=d.check if d else None,
        )

    # -- helpers for flows ---------------------------------------------------------------
    def flow(self) -> Iterator[Decision]:  # pragma: no cover - every game writes its own
        raise NotImplementedError

    def left(self, seat: int, k: int = 1) -> int:
        return (seat + k) % self.n

    def order_from(self, first: int, seats: Sequence[int] | None = None) -> list[int]:
        seats = list(range(self.n)) if seats is None else list(seats)
        return sorted(seats, key=lambda s: (s - first) % self.n)

    def deal(self, hand_size: int | None = None, **rules: Any) -> None:
        """Deal the round (or take the fixed deal given at construction)."""
        hs = self.game.hand_size if hand_size is None else hand_size
        if self.fixed is not None:
            from ..cards import parse_hand

            hands, kitty = self.fixed
            self.fixed = None  # a redeal after a throw-in deals at random
            if isinstance(hands, (str, CardSet)) or not hasattr(hands, "__len__") or len(hands) != self.n:
                raise ValueError(f"{self.game.id} needs {self.n} hands, one per seat; got {hands!r}")
            parsed = []
            for s, h in enumerate(hands):
                try:
                    parsed.append(parse_hand(h))
                except ValueError as exc:
                    raise ValueError(f"seat {s}: {exc}") from None
            deck = self.game.deck
            seen = CardSet()
            for s, h in enumerate(parsed):
                if len(h) != hs:
                    raise ValueError(f"seat {s}: {len(h)} cards, {self.game.id} deals {hs}")
                if h - deck:
                    raise ValueError(f"seat {s}: {h - deck} not in the deck")
                if h & seen:
                    raise ValueError(f"seat {s}: {h & seen} already in another hand")
                seen |= h
            self.hands = parsed
            self.kitty = parse_hand(kitty) if kitty is not None else deck - seen
            if self.kitty & seen or self.kitty | seen != deck:
                raise ValueError("hands and kitty must partition the deck")
            return
        from ..deals import random_deals

        rules = {"hand_size": hs} if "hand_size" in self.game.options else {}
        seed = int(self.rng.integers(2**63))
        row = random_deals(self.game, 1, seed, **rules)[0]
        self.hands = [CardSet(int(h)) for h in row[: self.n]]
        self.kitty = CardSet(int(row[self.n]))

    def dealer_last_card(self) -> Card:
        """The dealer's last card (dealt face up in Clover, Gamut, Oh Hell): any card of the
        dealer's hand is equally likely to be it."""
        cards = sorted(self.hands[self.dealer])
        return cards[int(self.rng.integers(len(cards)))]

    def cards_won(self, seat: int) -> CardSet:
        out = CardSet()
        for t in self.tricks:
            if t.winner == seat:
                out |= CardSet(c for _, c in t.plays)
        return out

    def pass_round(self, seats: Sequence[int], targets: Sequence[Sequence[int]], count: int,
                   phase: str) -> Iterator[Decision]:
        """Simultaneous passing: every seat of ``seats`` chooses ``count`` cards first; card
        ``i`` goes to ``targets[seat][i]``.  Then all passes happen at once."""
        chosen = {}
        for s in seats:
            chosen[s] = yield Decision(s, "pass_cards", tuple(self.hands[s].cards_high_first()),
                                       count=count, phase=phase)
        for s in seats:
            cards = chosen[s] if count > 1 else (chosen[s],)
            for card, to in zip(cards, targets[s]):
                self.move(s, to, CardSet([card]))

    def announce(self, seat: int, phase: str, value: Any) -> None:
        self.bids.append((seat, phase, value))

    def reveal(self, seat: int, cards: CardSet, to: Sequence[int] | None = None) -> None:
        """Make ``cards`` of ``seat`` known to ``to`` (default: everybody)."""
        for t in range(self.n) if to is None else to:
            if t != seat:
                self.known[t][seat] = self.known[t].get(seat, CardSet()) | cards

    def forget(self, seat: int) -> None:
        """Everybody else forgets what they knew of ``seat``'s hand (after a private move)."""
        for t in range(self.n):
            if t != seat:
                self.known[t].pop(seat, None)

    def move(self, frm: int, to: int, cards: CardSet) -> None:
        """Pass cards between hands; both seats know where they are."""
        self.hands[frm] = self.hands[frm] - cards
        self.hands[to] = self.hands[to] | cards
        self.known[frm][to] = self.known[frm].get(to, CardSet()) | cards
        # Whoever knew ``frm`` held them knows it no longer: the receiver holds them now
        # (a turned card it saw in the dealer's hand), a bystander no longer knows where.
        for t in range(self.n):
            if t != frm and frm in self.known[t]:
                self.known[t][frm] = self.known[t][frm] - cards

    def set_contract(self, contract: str, declarer: int | None, **layout_rules: Any) -> None:
        self.contract = contract
        self.declarer = declarer
        self.layout = self.game.layout(contract, **{**self.rules, **layout_rules})

    def play_tricks(self, leader: int, seats: Sequence[int] | None = None, n_tricks: int | None = None,
                    stop: Callable[[Trick], bool] | None = None) -> Iterator[Decision]:
        """Play the tricks (a sub-flow): legal moves and winners come from the layout."""
        L = self.layout
        seats = list(self.active if seats is None else seats)
        if n_tricks is None:
            n_tricks = len(self.hands[seats[0]])
        self.start_hands = [CardSet(h) for h in self.hands]
        played = CardSet()
        suits_led = 0
        for t in range(n_tricks):
            self.leader = leader
            self.trick = []
            for s in self.order_from(leader, seats):
                led = self.trick[0][1] if self.trick else None
                legal = L.legal_moves(self.hands[s], led, trick_index=t, played=played, suits_led=suits_led)
                why = self._why_illegal(s, led, t)
                card = yield Decision(s, "play", tuple(legal.cards_high_first()), phase="play", explain=why)
                if led is not None and L.effective_suit(card) != L.effective_suit(led):
                    self.voids[s].add(L.effective_suit(led))
                self.hands[s] = self.hands[s] - CardSet([card])
                self.trick.append((s, card))
                played = played | CardSet([card])
            pos = L.trick_winner([c for _, c in self.trick])
            trick = Trick(leader, tuple(self.trick), self.trick[pos][0])
            self.tricks.append(trick)
            suits_led |= 1 << L.effective_suit(self.trick[0][1])
            self.trick = []
            leader = trick.winner
            if stop is not None and stop(trick):
                break
        self.leader = None

    def _why_illegal(self, seat: int, led: Card | None, trick_index: int) -> Callable[[Any], str]:
        """A function telling why a card may not be played now."""
        L, hand = self.layout, CardSet(self.hands[seat])

        def why(card: Any) -> str:
            if not isinstance(card, Card):
                return "not a card"
            if card not in hand:
                return f"{card} is not in seat {seat}'s hand"
            if led is not None:
                suit = L.effective_suit(led)
                follow = CardSet(c for c in hand if L.effective_suit(c) == suit)
                if follow and card not in follow:
                    return f"must follow {L.suit_names[suit]}, led with {led}"
                if L.must_play_first is not None and L.must_play_first in hand:
                    return f"must play {L.must_play_first} the first time its suit is led"
                if trick_index == 0 and card in L.first_trick_forbidden:
                    return "no points on the first trick while holding another card"
                return "not allowed here"
            if trick_index == 0 and L.first_lead is not None and L.first_lead in hand:
                return f"{L.first_lead} must lead the first trick"
            if card in L.lead_restricted:
                return f"{card} may not be led until broken"
            return "not allowed here"

        return why

    # -- results -------------------------------------------------------------------------
    def card_points(self) -> list[int]:
        """Card points each seat took in tricks, plus the last-trick bonus."""
        table = self.layout.point_table()
        pts = [0] * self.n
        for t in self.tricks:
            pts[t.winner] += int(sum(int(table[c]) for _, c in t.plays))
        if self.tricks and self.layout.last_trick_bonus and len(self.tricks) == self.layout.hand_size:
            pts[self.tricks[-1].winner] += self.layout.last_trick_bonus
        return pts

    def trick_counts(self) -> list[int]:
        out = [0] * self.n
        for t in self.tricks:
            out[t.winner] += 1
        return out

    def base_frame(self) -> dict[str, Any]:
        """Columns every game shares in the scoring frame."""
        pts, tr = self.card_points(), self.trick_counts()
        side = self.side_mask
        frame: dict[str, Any] = {
            "contract": self.contract,
            "declarer": -1 if self.declarer is None else self.declarer,
            "multiplier": self.multiplier,
            "side_mask": side,
            "side_points": sum(p for s, p in enumerate(pts) if side >> s & 1),
            "side_tricks": sum(x for s, x in enumerate(tr) if side >> s & 1),
            "last_trick_winner": self.tricks[-1].winner if self.tricks else -1,
        }
        for s in range(self.n):
            frame[f"points_{s}"] = pts[s]
            frame[f"tricks_{s}"] = tr[s]
        return frame

    def payouts(self, frame: dict[str, Any]) -> list[float]:
        """Payouts per seat from the one scoring implementation, :mod:`trickcore.scoring`."""
        import pandas as pd

        from .. import scoring

        out = scoring.score(self.game.id, pd.DataFrame([frame]), self.rules)
        self.scored = {k: (v.item() if hasattr(v, "item") else v) for k, v in out.iloc[0].to_dict().items()}
        return [float(out[f"payout_{s}"].iloc[0]) for s in range(self.n)]

    def finish(self) -> RoundRecord:
        self.scored: dict[str, Any] = {}
        if self.thrown_in:
            frame: dict[str, Any] = {}
            pay = [0.0] * self.n
        else:
            frame = self.frame()
            pay = self.payouts(frame)
        return RoundRecord(
            game=self.game.id,
            round_index=self.round_index,
            dealer=self.dealer,
            rules=dict(self.rules),
            bids=list(self.bids),
            contract=self.contract,
            declarer=self.declarer,
            side_mask=self.side_mask,
            multiplier=self.multiplier,
            tricks=list(self.tricks),
            points=self.card_points() if self.tricks else [0] * self.n,
            trick_counts=self.trick_counts(),
            payouts=pay,
            thrown_in=self.thrown_in,
            frame=frame,
            extra=dict(self.extra),
            scored=dict(self.scored),
        )

    def frame(self) -> dict[str, Any]:
        return self.base_frame()

