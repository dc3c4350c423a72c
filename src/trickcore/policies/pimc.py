"""Perfect Information Monte Carlo (PIMC) card play and decisions.

For a card-play decision the policy deals the cards it cannot place — uniformly over the
deals consistent with everything its seat has seen (:class:`HiddenDeals`): its own hand,
every card played, the voids other seats showed (a seat that did not follow a suit holds
none of it), cards it knows another seat holds (cards it passed, announced queens or
jacks), cards it knows lie in the kitty (what it buried) and every seat's hand size — then
solves each sample double dummy (every sample's positions after each legal card in one
:func:`trickcore.solver.solve_after_cards` call) and plays the card with the best average
value for its side.

Which side?  The seat's own side is known to it in every sample: the sides are recomputed
from the sampled hands with the layout's side rule (so a hidden partner is whoever holds
the partner card in that sample).  Games without a declaring side use the paranoid
reduction (the seat against everybody), as the solver does.  An Oh Hell player who already
has its bid, a Spades nil bidder and a Nil declarer play to lose tricks.

Every decision before the play is decided the same way, over ``bid_samples`` deals of the
cards the seat cannot see (default 12; the kitty or blind is hidden and sampled too,
unless the seat has seen it).  Each candidate answer is applied to every sample, the
resulting deals are solved double dummy with :func:`trickcore.solve_many` from the first
trick and scored with :func:`trickcore.scoring.score`; the seat takes the candidate with
the best mean payout for itself.  The fallback's own answer is always a candidate and wins
ties.  Where a decision has many answers only a shortlist is solved: the fallback's answer
and the next most plausible ones in the heuristic's order, ``shortlist`` in all (default
6; :func:`~trickcore.policies.heuristic.shortlist`).  Decisions taken later by other seats
(their passes, bids, buries) are modelled with the fallback on their sampled hands.

Trick bids already made (Spades, Oh Hell, Gamut's Spades game) weigh the samples, for card
play and for the later bids alike (``bid_inference``, on by default): ``bid_oversample``
times as many deals are sampled, each weighed by how well the fallback, bidding each
other seat's sampled hand, matches the bid that seat made, and the deals solved are drawn
in proportion to those weights (:mod:`trickcore.policies.inference`).  So a seat that bid
nil is dealt few high cards, one that bid five many.  The other games' auctions are not
read (they say less, and what they say depends on the seat's turn and the bids before).

* Goathead bidding (3 and 4 players): every legal contract (a ``"steal"`` stands for the
  current high contract) solved with this seat as declarer and the dealer's left leading,
  assuming it keeps its hand (no-exchange bonus; four players: the sides follow the
  sampled hands' black jacks / called queen); the best contract if its mean payout is
  above 0 (what passing pays), else pass.
* Goathead three players, kitty: taken unless keeping the hand (with the no-exchange
  bonus) pays more; taking, the sampled kitty joins the hand and the heuristic buries.
* Goathead three players, bury: the shortlisted pairs, each worth the best contract it
  allows in the raise that follows (the buried points count as the kitty).
* Goathead three players, raise: every legal contract on the hands after the exchange;
  ties stay with the current (cheapest) contract.
* Goathead four players, kitty round: keeping the hand and every swap with the cards the
  seat sees in the kitty (at most 17 answers, all solved); the later swappers are assumed
  to keep their hands and a defender assumes the declarer did not swap (swaps are
  private).  The called queen is no decision of its own: it is the bid suit's queen.
* Sheepshead pick or pass: pick when the mean payout as picker is positive; per sample
  the picker takes the sampled blind, names the partner as the fallback would (J♦, the
  first jack or ace it may call) and buries as the heuristic does.
* Sheepshead partner call: every legal call, each with the heuristic's bury for it.
* Sheepshead bury: the shortlisted pairs that keep the called suit, under the call made.
* Blitz and red blitz: declared when this seat's mean payout with the picker taking the
  sampled blind (as for the pick) is positive — the ×2 then doubles a gain; crack and
  re-crack likewise on the known contract, the hidden partner being whoever holds the
  partner card in each sample.
* Clover bids (both rounds): each contract this seat may declare, with the partner's pass
  and the card passed back as the fallback makes them, hand melds as the round counts
  them and trick melds along the solver's line; declared if the mean margin of its team's
  score over the other team's is positive (passing counts as an even round), else pass.
* Clover passes (partner to declarer, declarer back): the shortlisted cards, by that
  margin.
* Gamut, Diamonds turned: Hearts (passes by the fallback, the 9♣ holder leading, this
  seat alone against the others), Spades (the fallback's bids, this seat's team against
  the other) and Clubs (nobody folds; alone against the others), each by mean payout;
  the best if it is above 0 (passing: the next player chooses or the hand is redealt),
  else pass.
* Gamut Hearts pass (one card left, one right): the fallback's pair and the shortlisted
  pairs of the most dangerous cards, each in both directions; least penalty for this seat.
* Gamut Clubs fold: fold (scores 0) when playing on — with the seats that have not
  folded, the later ones assumed to play — has a negative mean payout.
* Spades, Oh Hell and Gamut Spades trick bids: the median over samples of the tricks this
  seat takes double dummy playing alone against the others (the paranoid reduction),
  rounded to the nearest legal bid.

Cost and what stays with the fallback.  A whole deal is solved per sample and candidate,
so these decisions are taken with the solver only while the deal holds at most
``max_deal_cards`` cards in the hands (default 40): all of Goathead, Sheepshead, Clover,
Gamut and Oh Hell up to ten cards each.  Trick bids need one solve per sample and are
counted by the trick-count kernel (:mod:`trickcore._solve_tricks`, a third of a second for
a typical 52-card deal), so they are solved up to ``max_trick_deal_cards`` (default 52:
full-hand Spades and 13-card Oh Hell bids too).  The Hearts pass goes to the fallback
(:class:`~trickcore.policies.HeuristicPolicy` by default): a full Hearts deal is a points
game, whose exact solve took 6 s to 96 s on the loaded shared machine, far too long to
repeat for each of a dozen samples and up to 286 candidate passes.  The small games cost well under a
second per decision with the defaults, Gamut's passes a few seconds; Clover's 32-card
deals vary most (0.06 s to 4 s each), so a Clover bid or pass takes 2 s to 20 s: lower
``bid_samples`` and ``shortlist`` for quick play.  Card
play is delegated while more than ``max_cards`` cards are still in the hands (default 30):
PIMC takes over once the position is small enough (from the start in Goathead and
Sheepshead, after the first trick in Clover and Gamut, for the last seven tricks of
Hearts and Spades).  ``solve_bids=False`` leaves every decision before the play to the
fallback (card play only).

The sampling is seeded from ``seed`` and the observation only, so the decision does not
depend on where the unseen cards really are.

>>> from trickcore.policies import PIMCPolicy, RandomPolicy
>>> from trickcore.rounds import play_round
>>> rec = play_round("goathead3", [PIMCPolicy(samples=4, seed=1), RandomPolicy(seed=1),
...                                RandomPolicy(seed=2)], seed=11)
>>> len(rec.tricks) > 0
True
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..cards import Card, CardSet
from ..layout import Layout
from ..rounds.state import Observation
from .base import BasePolicy
from .heuristic import HeuristicPolicy, _layout, bury_key, danger_key, shortlist
from .inference import bid_weights, resample, trick_bidders, weighted_median

__all__ = ["PIMCPolicy", "sample_hidden", "HiddenDeals", "cards_played_by"]


def _obs_key(obs: Observation) -> int:
    """A stable digest of what the seat knows at this decision (seeds the sampler)."""
    parts = [obs.game, obs.seat, obs.dealer, obs.round_index, obs.contract, obs.declarer, int(obs.hand.mask),
             tuple((t.leader, tuple(int(c) for _, c in t.plays)) for t in obs.tricks),
             tuple(int(c) for _, c in obs.trick), tuple(sorted((k, int(v.mask)) for k, v in obs.known.items())),
             int(obs.kitty_known.mask), repr(obs.bids)]
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "little")


def sample_hidden(obs: Observation, rng: np.random.Generator, tries: int = 2048) -> tuple[list[CardSet], CardSet]:
    """One deal of the unseen cards consistent with ``obs``, uniform over those that fit:
    every seat's current hand and the kitty (see :class:`HiddenDeals`, which draws many
    deals of one observation without working out what it fixes each time)."""
    return HiddenDeals(obs).draw(rng, tries)


class HiddenDeals:
    """Deals of the cards ``obs``'s seat cannot see, consistent with what it has seen.

    What the observation fixes (the cards each seat is known to hold, how many more it
    needs, the unseen cards and the seats each may go to) is worked out once.  Each
    :meth:`draw` deals the unseen cards in a uniformly random order to the places left in
    the other hands and the kitty, and deals again while a seat receives a suit it showed
    void in: every deal that fits is then equally likely (rejection).  Dealing the most
    constrained cards first instead, each to a seat with a chance proportional to the room
    left there (this class until session 25), always fits but is far from uniform once a
    few seats have shown voids: on Sheepshead positions with five voids shown, some deals
    came 3-4 times as often as they should and others a quarter as often
    (``tests/test_policies.py``).  That method remains the fallback for a deal that fits
    rarely (after ``tries`` rejections), and only inconsistent information makes it drop
    the voids.
    """

    def __init__(self, obs: Observation) -> None:
        lay = obs.layout
        n = obs.n_seats
        played = obs.played
        # Folded Gamut hands sit in the kitty: a seat of size 0 gets nothing.
        self.base = [0] * n
        self.base[obs.seat] = obs.hand.mask
        self.need: dict[int, int] = {}
        for t in range(n):
            if t == obs.seat:
                continue
            # a card the seat holds itself is not elsewhere, whatever it knew before (a card
            # passed back to it, e.g. the turned card of a Gamut dealer passed on)
            k = obs.known.get(t, CardSet()) - played - obs.hand
            self.base[t] = k.mask
            self.need[t] = obs.hand_sizes[t] - len(k)
        self.kitty = obs.kitty_known.mask
        unseen = lay.deck - played - obs.kitty_known
        for h in self.base:
            unseen = unseen - CardSet(h)
        self.kitty_need = len(unseen) - sum(self.need.values())
        self.cards = [int(c) for c in unseen]
        suits = [lay.effective_suit(c) for c in unseen]
        # the seats each card may go to: respecting the voids, and ignoring them (the last try)
        self.allowed_voids = [[t for t in self.need if s not in obs.voids.get(t, ())] for s in suits]
        self.allowed_any = [list(self.need) for _ in suits]
        # the places of a plain deal: each seat's missing cards, then the kitty's (-1)
        self.slots = np.array([t for t in self.need for _ in range(self.need[t])] + [-1] * self.kitty_need,
                              dtype=np.int64)
        self.suits = np.array(suits, dtype=np.int64)
        self.banned = np.zeros((n + 1, max(len(lay.suits), 1)), dtype=bool)    # row -1: the kitty
        for t in self.need:
            for su in obs.voids.get(t, ()):
                self.banned[t, su] = True

    #: Random orders tried at once by :meth:`draw` (one numpy call for many rejections).
    BATCH = 32

    def draw(self, rng: np.random.Generator, tries: int = 2048) -> tuple[list[CardSet], CardSet]:
        """One deal, uniform over those that fit: every seat's hand now and the kitty."""
        m = len(self.cards)
        if len(self.slots) == m and m:
            for _ in range(0, tries, self.BATCH):
                orders = np.argsort(rng.random((self.BATCH, m)), axis=1)     # uniform random orders
                fits = ~self.banned[self.slots, self.suits[orders]].any(axis=1)
                if fits.any():
                    order = orders[int(np.argmax(fits))]                     # the first that fits
                    masks = list(self.base) + [self.kitty]
                    for slot, i in zip(self.slots.tolist(), order.tolist()):
                        masks[slot] |= 1 << self.cards[i]
                    return [CardSet(x) for x in masks[:-1]], CardSet(masks[-1])
        elif len(self.slots) == m:          # nothing unseen
            return [CardSet(x) for x in self.base], CardSet(self.kitty)
        return self.draw_constrained(rng)

    def draw_constrained(self, rng: np.random.Generator, tries: int = 200) -> tuple[list[CardSet], CardSet]:
        """One deal that fits, the most constrained cards dealt first (not uniform: the
        fallback of :meth:`draw`)."""
        cards = self.cards
        for attempt in range(tries + 1):
            allowed = self.allowed_voids if attempt < tries else self.allowed_any
            order = list(rng.permutation(len(cards)))
            # most constrained cards first: those many seats are void in
            order.sort(key=lambda i: len(allowed[i]))
            left = dict(self.need)
            kleft = self.kitty_need
            out = dict.fromkeys(self.need, 0)
            kit = 0
            for i in order:
                opts = [t for t in allowed[i] if left[t] > 0]
                weights = [left[t] for t in opts] + ([kleft] if kleft > 0 else [])
                if not weights:
                    break
                j = _choice(weights, rng)
                if j < len(opts):
                    out[opts[j]] |= 1 << cards[i]
                    left[opts[j]] -= 1
                else:
                    kit |= 1 << cards[i]
                    kleft -= 1
            else:
                hands = [CardSet(h | out.get(t, 0)) for t, h in enumerate(self.base)]
                return hands, CardSet(self.kitty | kit)
        raise ValueError("no deal of the unseen cards fits the observation")  # pragma: no cover


def _choice(weights: list[int], rng: np.random.Generator) -> int:
    """``rng.choice(len(weights), p=weights / sum(weights))`` without building arrays: the
    same uniform draw read against the same cumulative sums (numpy divides each weight by
    the total, accumulates, divides by the last sum and takes the first above the draw)."""
    total = sum(weights)
    acc, cdf = 0.0, []
    for w in weights:
        acc += w / total
        cdf.append(acc)
    u = rng.random()
    last = cdf[-1]
    for j, x in enumerate(cdf):
        if u < x / last:
            return j
    return len(cdf) - 1  # pragma: no cover - u < 1 = cdf[-1] / last


@dataclasses.dataclass(frozen=True)
class _PlayTable:
    """What a card-play observation fixes for every world solved (see
    :meth:`PIMCPolicy.card_values`): the layout's seats, the seat's goal and mode, the
    cards played before this trick and by each seat, the trick's leader and cards."""

    seats: list[int]
    idx: dict[int, int]
    goal: str
    mode: str
    played_before: CardSet
    suits_led: int
    by_seat: dict[int, CardSet]
    leader: int
    trick: list[Card]


_FAIL_LETTER = {"clubs": "C", "spades": "S", "hearts": "H"}
_SUIT_NAME = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _seen_as(obs: Observation, seat: int, hand: CardSet, **changes: Any) -> Observation:
    """What ``seat`` would see holding ``hand`` in a sampled world (no private knowledge):
    used to ask the fallback how another seat decides there."""
    return dataclasses.replace(obs, seat=seat, hand=CardSet(hand), known={}, kitty_known=CardSet(), check=None,
                               **changes)


def cards_played_by(obs: Observation) -> dict[int, CardSet]:
    """``seat -> cards`` it has played this round (finished tricks and the current one)."""
    out = {s: CardSet() for s in range(obs.n_seats)}
    for t in obs.tricks:
        for s, c in t.plays:
            out[s] = out[s] | CardSet([c])
    for s, c in obs.trick:
        out[s] = out[s] | CardSet([c])
    return out


def _one(answer: Any) -> Any:
    """A one-card pass answered as a 1-tuple or a bare card."""
    return answer[0] if isinstance(answer, (tuple, list)) else answer


def _first_best(cands: list, values: list[float]) -> Any:
    """The candidate with the highest value; ties go to the earlier one."""
    best = max(values)
    return cands[values.index(best)]


class PIMCPolicy(BasePolicy):
    """PIMC card play and decisions; ``samples`` deals per card decision, ``bid_samples``
    per decision before the play (``solve_bids=False`` leaves all of those to the
    fallback), ``shortlist`` candidates when a decision has many, ``max_deal_cards`` the
    largest deal solved whole before the play, ``max_cards`` the largest position solved
    in card play, ``seed`` for reproducibility; ``bid_inference`` weighs the samples by
    the other seats' trick bids (``bid_oversample`` candidate deals per sample, a model
    bid ``bid_sigma`` tricks off keeping ``exp(-1/2)`` of its weight; see the module
    docstring)."""

    def __init__(self, samples: int = 20, seed: int = 0, fallback: Any = None, tt_mb: float = 16,
                 max_cards: int = 30, bid_samples: int = 12, solve_bids: bool = True, shortlist: int = 6,
                 max_deal_cards: int = 40, max_trick_deal_cards: int = 52, bid_inference: bool = True,
                 bid_oversample: int = 3, bid_sigma: float = 1.0) -> None:
        for name, value, least in (("samples", samples, 1), ("seed", seed, 0), ("max_cards", max_cards, 0),
                                   ("bid_samples", bid_samples, 0), ("shortlist", shortlist, 1),
                                   ("max_deal_cards", max_deal_cards, 0),
                                   ("max_trick_deal_cards", max_trick_deal_cards, 0),
                                   ("bid_oversample", bid_oversample, 1)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)) or value < least:
                raise ValueError(f"{name} must be a whole number, at least {least}, got {value!r}")
        if isinstance(bid_sigma, (bool, np.bool_)) or not isinstance(bid_sigma, (int, float, np.integer, np.floating)) \
                or not 0 < bid_sigma < float("inf"):
            raise ValueError(f"bid_sigma must be a positive number, got {bid_sigma!r}")
        for name, value in (("solve_bids", solve_bids), ("bid_inference", bid_inference)):
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {value!r}")
        if fallback is not None and not callable(getattr(fallback, "play", None)):
            raise ValueError(f"fallback must be a policy (with bid(), play() ... methods), got {fallback!r}")
        from ..solver import _check_tt

        _check_tt(tt_mb)   # tt_mb must be a positive number of megabytes
        self.bid_inference = bool(bid_inference)
        self.bid_oversample = int(bid_oversample)
        self.bid_sigma = float(bid_sigma)
        self.samples = int(samples)
        self.bid_samples = int(bid_samples)
        self.solve_bids = bool(solve_bids)  # False: bids too go to the fallback (card play only)
        self.max_cards = int(max_cards)
        self.max_deal_cards = int(max_deal_cards)
        self.max_trick_deal_cards = int(max_trick_deal_cards)
        self.shortlist = int(shortlist)
        self.seed = int(seed)
        self.fallback = fallback if fallback is not None else HeuristicPolicy()
        self.tt_mb = tt_mb

    def _solves(self, obs: Observation, limit: int | None = None) -> bool:
        """Decide this pre-play decision with the solver?  Only when asked to and while
        the whole deal is small enough (``limit`` cards, default ``max_deal_cards``) to
        solve once per sample and candidate."""
        limit = self.max_deal_cards if limit is None else limit
        return self.solve_bids and self.bid_samples >= 1 and sum(obs.hand_sizes) <= limit

    # -- routing --------------------------------------------------------------------------
    def bid(self, obs: Observation) -> Any:
        if obs.phase == "bid" and obs.game in ("spades", "ohhell", "gamut"):
            # one paranoid trick count per sample: the trick kernel solves a whole deal
            if self._solves(obs, self.max_trick_deal_cards):
                return self._bid_tricks(obs)
            return self.fallback.bid(obs)
        if not self._solves(obs):
            return self.fallback.bid(obs)
        if obs.phase == "bid" and obs.game in ("goathead3", "goathead4"):
            return self._bid_goathead(obs)
        if obs.phase == "raise":
            return self._raise_goathead(obs)
        if obs.phase in ("blitz", "red_blitz"):
            return self._blitz(obs)
        if obs.phase in ("crack", "recrack"):
            return self._crack(obs)
        if obs.game == "clover":
            return self._bid_clover(obs)
        if obs.phase == "choose_game":
            return self._choose_gamut(obs)
        return self.fallback.bid(obs)  # pragma: no cover - every bid phase is routed above

    def pick_or_pass(self, obs: Observation) -> Any:
        if self._solves(obs) and set(obs.legal) == {True, False}:
            if obs.game == "sheepshead":
                return self._pick_sheepshead(obs)
            if obs.phase == "kitty":
                return self._take_kitty_goathead(obs)
        return self.fallback.pick_or_pass(obs)

    def exchange(self, obs: Observation) -> Any:
        if not self._solves(obs):
            return self.fallback.exchange(obs)
        if obs.phase == "bury":
            return self._bury(obs)
        if obs.phase == "kitty_swap":
            return self._swap_goathead4(obs)
        return self.fallback.exchange(obs)  # pragma: no cover

    def pass_cards(self, obs: Observation) -> Any:
        if not self._solves(obs):
            return self.fallback.pass_cards(obs)  # Hearts: a full 52-card deal
        if obs.phase == "pass_left_right":
            return self._pass_gamut(obs)
        if obs.phase in ("to_declarer", "to_partner"):
            return self._pass_clover(obs)
        return self.fallback.pass_cards(obs)  # pragma: no cover

    def call(self, obs: Observation) -> Any:
        if self._solves(obs) and obs.game == "sheepshead":
            return self._call_sheepshead(obs)
        return self.fallback.call(obs)

    def fold(self, obs: Observation) -> Any:
        if self._solves(obs) and True in obs.legal and False in obs.legal:
            return self._fold_gamut(obs)
        return self.fallback.fold(obs)

    # -- sampling and scoring -------------------------------------------------------------
    def _lay(self, obs: Observation, contract: str) -> Layout:
        return _layout(obs.game, contract, tuple(sorted(obs.rules.items())))

    def _bid_deals(self, obs: Observation, lay: Layout, salt: int = 1) -> list[tuple[list[CardSet], CardSet]]:
        """``bid_samples`` deals of the unseen cards (every seat's hand now, and the kitty);
        ``salt`` separates the decisions of one observation."""
        if obs.layout is None:  # before the contract: no voids yet, any layout has the deck
            obs = dataclasses.replace(obs, layout=lay)
        rng = self._bid_rng(obs, salt)
        deals = HiddenDeals(obs)
        return [deals.draw(rng) for _ in range(self.bid_samples)]

    def _bid_rng(self, obs: Observation, salt: int) -> np.random.Generator:
        """The generator of a decision before the play: seeded by the policy's seed, what
        the seat knows and ``salt`` (one per kind of decision)."""
        return np.random.default_rng([self.seed, _obs_key(obs), salt])

    def _worlds(self, obs: Observation, rng: np.random.Generator, n: int,
                played_by: dict[int, CardSet]) -> list[tuple[list[CardSet], CardSet, int]]:
        """``n`` deals of the unseen cards as ``(hands, kitty, times)``: ``n`` draws of
        :func:`sample_hidden` (each once), or, where other seats' trick bids are known and
        ``bid_inference`` is on, ``n`` draws from ``bid_oversample * n`` candidates in
        proportion to the bids' likelihood under each (a deal drawn twice comes once,
        counted ``times``).  ``played_by``: each seat's cards played this round."""
        deals = HiddenDeals(obs)
        if not (self.bid_inference and trick_bidders(obs)):
            return [(*deals.draw(rng), 1) for _ in range(n)]
        cands = [deals.draw(rng) for _ in range(n * self.bid_oversample)]
        w = bid_weights(obs, [h for h, _ in cands], played_by, self.fallback, self.bid_sigma)
        return [(*cands[i], times) for i, times in resample(w, n, rng)]

    def _score_rows(self, obs: Observation, lay: Layout, hands: np.ndarray, *, declarer: int | None = None,
                    leader: int | None = None, kitty_points: Any = None, extra: dict[str, Any] | None = None,
                    sides: Any = None, goal: str | None = None) -> Any:
        """Solve ``hands`` (uint64 ``(n, seats)``) double dummy — ``declarer`` (default this
        seat) declaring, ``leader`` (default the dealer's left) leading — and score every
        row with the game's scoring (a DataFrame with ``payout_{s}``)."""
        import pandas as pd

        from .. import scoring
        from ..solver import solve_many

        n = obs.n_seats
        decl = obs.seat if declarer is None else declarer
        lead = (obs.dealer + 1) % n if leader is None else leader
        r = solve_many(lay, None, hands, leader=lead, declarer=decl, sides=sides, goal=goal, tt_mb=self.tt_mb)
        nil = lay.objective == "nil"
        value = r.value.astype(np.int64)
        cols: dict[str, Any] = {
            "contract": lay.contract, "declarer": decl, "multiplier": obs.multiplier,
            "side_mask": r.side.astype(np.int64),
            "side_points": np.zeros_like(value) if nil else value,
            "side_tricks": value if nil else r.side_tricks.astype(np.int64)}
        if kitty_points is not None:
            cols["kitty_points"] = kitty_points
        if obs.game == "clover":  # trick melds collected along the optimal line
            cols["side_trick_melds"] = r.side_melds.astype(np.int64)
            cols["opp_trick_melds"] = r.opp_melds.astype(np.int64)
        frame = pd.DataFrame({**cols, **(extra or {})})
        if obs.game == "sheepshead":
            frame["partner"] = [next((s for s in range(n) if m >> s & 1 and s != decl), -1)
                                for m in frame["side_mask"]]
        return scoring.score(obs.game, frame, obs.rules)

    def _payouts(self, obs: Observation, lay: Layout, hands: np.ndarray, **kw: Any) -> np.ndarray:
        """This seat's payout per row of ``hands`` (see :meth:`_score_rows`)."""
        return self._score_rows(obs, lay, hands, **kw)[f"payout_{obs.seat}"].to_numpy(dtype=float)

    def _mean_payout(self, obs: Observation, lay: Layout, hands: np.ndarray, kitty_points: np.ndarray,
                     extra: dict[str, Any], declarer: int | None = None) -> float:
        """The mean payout of this seat over ``hands``, ``declarer`` (default this seat)
        declaring and the dealer's left leading."""
        return float(self._payouts(obs, lay, hands, declarer=declarer, kitty_points=kitty_points,
                                   extra=extra).mean())

    def _candidate_means(self, obs: Observation, lay: Layout, rows: list[list[int]], n_cands: int,
                         **kw: Any) -> list[float]:
        """Mean payout per candidate when ``rows`` holds ``n_cands`` equal blocks of sampled
        deals, one block per candidate (one solve call for all of them)."""
        pay = self._payouts(obs, lay, np.array(rows, dtype=np.uint64), **kw)
        return [float(x) for x in pay.reshape(n_cands, -1).mean(axis=1)]

    @staticmethod
    def _masks(hands: list[CardSet]) -> list[int]:
        return [int(h.mask) for h in hands]

    # -- Goathead ---------------------------------------------------------------------------
    def _goathead_values(self, obs: Observation, rows: np.ndarray, kitties: list[CardSet],
                         contracts: Any, exchanged: bool) -> dict[str, float]:
        """Mean payout of this seat declaring each contract on the given deals."""
        value: dict[str, float] = {}
        for contract in dict.fromkeys(contracts):
            lay = self._lay(obs, contract)
            table = lay.point_table()
            kitty = np.array([sum(int(table[c]) for c in k) for k in kitties], dtype=np.int64)
            value[contract] = self._mean_payout(obs, lay, rows, kitty, {"exchanged": exchanged})
        return value

    def _bid_goathead(self, obs: Observation) -> Any:
        from ..rounds.goathead import LADDER

        high = [b for _, p, b in obs.bids if p == "bid" and b in LADDER]
        # a steal takes the current high contract at the same rank
        cands = {b: (high[-1] if b == "steal" else b) for b in obs.legal if b in LADDER or (b == "steal" and high)}
        if not cands:
            return "pass" if "pass" in obs.legal else self.fallback.bid(obs)
        deals = self._bid_deals(obs, self._lay(obs, next(iter(cands.values()))))
        hands = np.array([self._masks(hs) for hs, _ in deals], dtype=np.uint64)
        value = self._goathead_values(obs, hands, [k for _, k in deals], cands.values(), False)
        # the best mean payout; ties go to the cheaper (earlier) bid
        best = max(cands, key=lambda b: (value[cands[b]], -obs.legal.index(b)))
        if value[cands[best]] > 0 or "pass" not in obs.legal:
            return best
        return "pass"

    def _raise_goathead(self, obs: Observation) -> Any:
        """The contract after the kitty: each legal one solved on the hands as they are now
        (the buried cards count as the kitty), ties to the current (cheapest) contract."""
        exchanged = (obs.seat, "kitty", True) in obs.bids
        deals = self._bid_deals(obs, self._lay(obs, obs.legal[0]), salt=2)
        hands = np.array([self._masks(hs) for hs, _ in deals], dtype=np.uint64)
        value = self._goathead_values(obs, hands, [k for _, k in deals], obs.legal, exchanged)
        return _first_best(list(obs.legal), [value[c] for c in obs.legal])

    def _take_kitty_goathead(self, obs: Observation) -> bool:
        """Three players: take the kitty when that pays more on average than keeping the
        hand (no-exchange bonus).  Taking: each sample's kitty joins the hand and the
        heuristic buries two cards; the best contract of the raise counts, and keeping the
        hand may raise too unless ``raise_without_exchange`` is False."""
        from ..rounds.goathead import LADDER

        high = [b for _, p, b in obs.bids if p == "bid" and b in LADDER][-1]
        contracts = LADDER[LADDER.index(high):]
        kept_contracts = contracts if obs.rules.get("raise_without_exchange", True) else [high]
        lay = self._lay(obs, high)
        deals = self._bid_deals(obs, lay, salt=13)
        kitties = [k for _, k in deals]
        keep = self._goathead_values(obs, np.array([self._masks(hs) for hs, _ in deals], dtype=np.uint64),
                                     kitties, kept_contracts, False)
        rows, buried = [], []
        for hs, kitty in deals:
            hand = hs[obs.seat] | kitty
            bury = self._heuristic_bury(lay, hand, high)
            row = self._masks(hs)
            row[obs.seat] = int((hand - bury).mask)
            rows.append(row)
            buried.append(bury)
        take = self._goathead_values(obs, np.array(rows, dtype=np.uint64), buried, contracts, True)
        return max(take.values()) >= max(keep.values())

    def _swap_goathead4(self, obs: Observation) -> Any:
        """Four-player kitty round: every legal swap (and keeping the hand) solved with the
        kitty as it would lie after it.  The later swappers are assumed to keep their hands;
        a defender assumes the declarer did not swap (the swaps are private)."""
        kitty = CardSet({x[1] for x in obs.legal if x is not None})  # the seat sees the kitty
        seen = dataclasses.replace(obs, kitty_known=kitty)
        deals = self._bid_deals(seen, obs.layout, salt=3)
        fb = self.fallback.exchange(obs)
        cands = [fb] + [x for x in obs.legal if x != fb]
        table = obs.layout.point_table()
        rows, kpts, exch = [], [], []
        for cand in cands:
            hand, kit = obs.hand, kitty
            if cand is not None:
                give, take = cand
                hand = (hand - CardSet([give])) | CardSet([take])
                kit = (kit - CardSet([take])) | CardSet([give])
            pts = sum(int(table[c]) for c in kit)
            for hs, _ in deals:
                row = self._masks(hs)
                row[obs.seat] = int(hand.mask)
                rows.append(row)
                kpts.append(pts)
                exch.append(cand is not None and obs.seat == obs.declarer)
        means = self._candidate_means(obs, obs.layout, rows, len(cands), declarer=obs.declarer,
                                      kitty_points=np.array(kpts, dtype=np.int64),
                                      extra={"exchanged": np.array(exch, dtype=bool)})
        return _first_best(cands, means)

    # -- buries (Goathead three players, Sheepshead) -----------------------------------------
    def _bury_candidates(self, obs: Observation, lay: Layout) -> list[tuple]:
        """The fallback's bury, then the next most plausible ones in the heuristic's order
        (:func:`~trickcore.policies.heuristic.shortlist`), ``shortlist`` in all."""
        fb = tuple(self.fallback.exchange(obs))
        ranked = sorted(obs.legal, key=bury_key(lay))
        out = [fb]
        for pick in shortlist(ranked, obs.count, self.shortlist + 1, obs.check):
            if set(pick) != set(fb):
                out.append(pick)
        return out[: self.shortlist]

    def _bury(self, obs: Observation) -> tuple:
        """Bury the shortlisted pair with the best mean payout.  Goathead: each bury is worth
        its best contract of the raise that follows; Sheepshead: under the called contract."""
        from ..rounds.goathead import LADDER

        if obs.game == "sheepshead":
            contracts = [[b for s, p, b in obs.bids if s == obs.seat and p == "call"][-1]]
            extra: dict[str, Any] = {}
        else:
            high = [b for _, p, b in obs.bids if p == "bid" and b in LADDER][-1]
            contracts = list(LADDER[LADDER.index(high):])
            extra = {"exchanged": True}
        first = self._lay(obs, contracts[0])
        cands = self._bury_candidates(obs, first)
        deals = self._bid_deals(obs, first, salt=4)
        best = [-np.inf] * len(cands)
        for contract in contracts:
            lay = self._lay(obs, contract)
            table = lay.point_table()
            rows, kpts = [], []
            for cand in cands:
                pts = sum(int(table[c]) for c in cand)
                for hs, _ in deals:
                    row = self._masks(hs)
                    row[obs.seat] = int((obs.hand - CardSet(cand)).mask)
                    rows.append(row)
                    kpts.append(pts)
            means = self._candidate_means(obs, lay, rows, len(cands), kitty_points=np.array(kpts, dtype=np.int64),
                                          extra=extra)
            best = [max(a, b) for a, b in zip(best, means)]
        return _first_best(cands, best)

    # -- Sheepshead -------------------------------------------------------------------------
    def _sheepshead_contract(self, obs: Observation, hand: CardSet) -> str:
        """The contract a picker holding ``hand`` (blind included) plays: the round's
        rules with the fallback's call (the first legal one)."""
        jd = Card.parse("JD")
        if obs.rules.get("partner", "jd") == "jd":
            if jd in hand and obs.rules.get("jd_picker", "alone") == "call_jack":
                return next((c for c in ("jc", "js", "jh") if Card.parse(c.upper()) not in hand), "alone")
            if jd in hand and obs.rules.get("announce_alone", False):
                return "alone"
            return "jd"
        aces = [s for s in _FAIL_LETTER.values() if Card.make("A", s) in hand]
        rank, word = ("10", "ten") if len(aces) == 3 else ("A", "ace")
        for name, s in _FAIL_LETTER.items():
            if Card.make(rank, s) not in hand and any(c.rank_name not in ("Q", "J") for c in hand.suit(s)):
                return f"called_{word}_{name}"
        return "alone"

    def _heuristic_bury(self, lay: Layout, hand: CardSet, contract: str) -> CardSet:
        """The fallback's bury of ``hand`` under ``contract`` (a called suit stays in hand)."""
        keep = _FAIL_LETTER.get(contract.rsplit("_", 1)[-1]) if contract.startswith("called_") else None

        def check(pick: tuple) -> str | None:
            rest = hand - CardSet(pick)
            if keep is None or any(c.rank_name not in ("Q", "J") for c in rest.suit(keep)):
                return None
            return "keep the called suit"

        return CardSet(shortlist(sorted(hand, key=bury_key(lay)), 2, 1, check)[0])

    def _picker_mean(self, obs: Observation, deals: list, picker: int,
                     contract_for: Any = None) -> float:
        """This seat's mean payout when ``picker`` takes the (sampled) blind, names the
        partner with ``contract_for(hand)`` (default: as the fallback would) and buries as
        the heuristic does."""
        contract_for = contract_for or (lambda hand: self._sheepshead_contract(obs, hand))
        groups: dict[str, tuple[list, list]] = {}
        for hs, blind in deals:
            hand = hs[picker] | blind
            contract = contract_for(hand)
            lay = self._lay(obs, contract)
            bury = self._heuristic_bury(lay, hand, contract)
            row = self._masks(hs)
            row[picker] = int((hand - bury).mask)
            g = groups.setdefault(contract, ([], []))
            g[0].append(row)
            g[1].append(sum(int(lay.point_table()[c]) for c in bury))
        total = 0.0
        for contract, (rows, kitty) in groups.items():
            lay = self._lay(obs, contract)
            m = self._mean_payout(obs, lay, np.array(rows, dtype=np.uint64), np.array(kitty, dtype=np.int64), {},
                                  declarer=picker)
            total += m * len(rows)
        return total / len(deals)

    def _pick_sheepshead(self, obs: Observation) -> bool:
        return self._picker_mean(obs, self._bid_deals(obs, self._lay(obs, "jd")), obs.seat) > 0

    def _call_sheepshead(self, obs: Observation) -> Any:
        """Each legal call solved with the heuristic's bury for it; ties to the fallback's."""
        deals = self._bid_deals(obs, self._lay(obs, "jd"), salt=5)
        fb = self.fallback.call(obs)
        cands = [fb] + [c for c in obs.legal if c != fb]
        means = [self._picker_mean(obs, deals, obs.seat, lambda hand, c=c: c) for c in cands]
        return _first_best(cands, means)

    def _blitz(self, obs: Observation) -> Any:
        """Blitz (×2) when this seat expects to win: the picker's mean payout with the
        sampled blind, partner call and bury as the heuristic plays them."""
        deals = self._bid_deals(obs, self._lay(obs, "jd"), salt=6)
        return obs.legal[-1] if self._picker_mean(obs, deals, obs.declarer) > 0 else obs.legal[0]

    def _crack(self, obs: Observation) -> Any:
        """Crack / re-crack (×2) when this seat's mean payout on the known contract is
        positive (the hidden partner is whoever holds the partner card in the sample)."""
        deals = self._bid_deals(obs, obs.layout, salt=7)
        rows = np.array([self._masks(hs) for hs, _ in deals], dtype=np.uint64)
        table = obs.layout.point_table()
        kitty = np.array([sum(int(table[c]) for c in k) for _, k in deals], dtype=np.int64)
        m = self._mean_payout(obs, obs.layout, rows, kitty, {}, declarer=obs.declarer)
        return obs.legal[-1] if m > 0 else obs.legal[0]

    # -- Clover -----------------------------------------------------------------------------
    def _clover_margin(self, obs: Observation, contract: str, deals: list, declarer: int,
                       give: Any = None, back: Any = None, given: bool = False) -> float:
        """Mean of (this seat's team score − the other team's) when ``declarer`` plays
        ``contract`` on the sampled deals: the partner passes ``give`` (default: the
        fallback's card; ``given``: already passed) and the declarer passes ``back``
        (default: the fallback's), hand melds counted as the round counts them."""
        from ..scoring.melds import hand_melds_batch

        lay = self._lay(obs, contract)
        partner = (declarer + 2) % obs.n_seats
        rows = []
        for hs, _ in deals:
            hands = list(hs)
            if not given:
                g = give if give is not None else _one(self.fallback.pass_cards(_seen_as(
                    obs, partner, hands[partner], layout=lay, phase="to_declarer", kind="pass_cards",
                    legal=tuple(hands[partner].cards_high_first()), count=1)))
                hands[partner] -= CardSet([g])
                hands[declarer] |= CardSet([g])
            b = back if back is not None else _one(self.fallback.pass_cards(_seen_as(
                obs, declarer, hands[declarer], layout=lay, phase="to_partner", kind="pass_cards",
                legal=tuple(hands[declarer].cards_high_first()), count=1)))
            hands[declarer] -= CardSet([b])
            hands[partner] |= CardSet([b])
            rows.append(self._masks(hands))
        arr = np.array(rows, dtype=np.uint64)
        trump = None if contract == "notrump" else contract[0].upper()
        low = obs.rules.get("four_low_ranks", "set_of_three")
        melds = np.stack([hand_melds_batch(arr[:, s], trump=trump, four_low_ranks=low)
                          for s in range(obs.n_seats)], axis=1)
        side = np.zeros(obs.n_seats, dtype=bool)
        side[[declarer, partner]] = True
        extra = {"side_hand_melds": melds[:, side].sum(axis=1).astype(np.int64),
                 "opp_hand_melds": melds[:, ~side].sum(axis=1).astype(np.int64)}
        out = self._score_rows(obs, lay, arr, declarer=declarer, leader=declarer, extra=extra)
        other = (obs.seat + 1) % obs.n_seats
        return float((out[f"payout_{obs.seat}"] - out[f"payout_{other}"]).mean())

    def _bid_clover(self, obs: Observation) -> Any:
        """Declare the contract with the best mean margin over the other team if it is
        positive (passing counts as an even round, margin 0); the evaluation includes the
        partner's card pass as the fallback makes it."""
        if obs.phase == "accept":
            cands = {"play": _SUIT_NAME[obs.turned.suit_letter]}
        else:
            cands = {b: b for b in obs.legal if b != "pass"}
        deals = self._bid_deals(obs, self._lay(obs, next(iter(cands.values()))), salt=8)
        names = list(cands)
        margins = [self._clover_margin(obs, cands[b], deals, obs.seat) for b in names]
        best = _first_best(names, margins)
        return best if max(margins) > 0 or "pass" not in obs.legal else "pass"

    def _pass_clover(self, obs: Observation) -> tuple:
        """The partner's card to the declarer, or the declarer's card back: the fallback's
        card and the next most plausible ones (``shortlist`` in all) by team margin."""
        lay = obs.layout
        fb = _one(self.fallback.pass_cards(obs))
        if obs.phase == "to_declarer":  # the partner's highest trumps, then high cards
            trump = set(lay.suits[-1]) if lay.trump else set()
            order = sorted(obs.legal, key=lambda c: (c in trump, lay.rank_order(c)), reverse=True)
        else:  # the declarer's cheapest cards
            pts = lay.point_table()
            order = sorted(obs.legal, key=lambda c: (int(pts[c]), lay.rank_order(c)))
        cands = ([fb] + [c for c in order if c != fb])[: self.shortlist]
        deals = self._bid_deals(obs, lay, salt=9)
        if obs.phase == "to_declarer":
            margins = [self._clover_margin(obs, lay.contract, deals, obs.declarer, give=c) for c in cands]
        else:
            margins = [self._clover_margin(obs, lay.contract, deals, obs.seat, back=c, given=True) for c in cands]
        return (_first_best(cands, margins),)

    # -- Gamut ------------------------------------------------------------------------------
    def _gamut_payouts(self, obs: Observation, contract: str, mine: np.ndarray, *,
                       bids: np.ndarray | None = None, folded: Any = ()) -> np.ndarray:
        """This seat's Gamut payout per sample from its double-dummy result ``mine``:
        Hearts penalty points it takes (its side alone), Clubs tricks it takes, Spades
        tricks of its team (with the four seats' ``bids``).  The rest of the cards is given
        to other seats in any way the scorer accepts: only this seat's payout is read."""
        import pandas as pd

        from .. import scoring

        n, me = obs.n_seats, obs.seat
        m = len(mine)
        mine = np.asarray(mine, dtype=np.int64)
        cols: dict[str, Any] = {"contract": contract, "multiplier": obs.multiplier, "declarer": -1}
        others = [s for s in range(n) if s != me and s not in folded]
        if contract == "hearts":
            # penalty points = hearts + 8 × Q♠ (8 alone scores −8 either way; 16 is the moon)
            queen = mine > 8
            hearts = np.where(queen, mine - 8, mine)
            for s in range(n):
                cols[f"hearts_{s}"] = hearts if s == me else (8 - hearts if s == others[0] else np.zeros(m, np.int64))
                cols[f"queen_{s}"] = queen if s == me else (~queen if s == others[0] else np.zeros(m, bool))
        else:
            team = [me, (me + 2) % n] if contract == "spades" else [me]
            # Clubs alone (the others folded; ``last_may_fold``): every trick is this seat's
            rest = next((s for s in others if s not in team), None)
            for s in range(n):
                cols[f"tricks_{s}"] = mine if s == me else (8 - mine if s == rest else np.zeros(m, np.int64))
                cols[f"folded_{s}"] = np.full(m, s in folded)
            if bids is not None:
                for s in range(n):
                    cols[f"bid_{s}"] = bids[:, s]
        out = scoring.score("gamut", pd.DataFrame(cols), obs.rules)
        return out[f"payout_{me}"].to_numpy(dtype=float)

    def _gamut_hearts_rows(self, obs: Observation, lay: Layout, hs: list[CardSet], mine: tuple | None) -> tuple:
        """The hands after the one-left-one-right pass (this seat passes ``mine``, the others
        as the fallback would; ``None``: this seat too) and the 9♣ holder."""
        n = obs.n_seats
        chosen = {}
        for s in range(n):
            if s == obs.seat and mine is not None:
                chosen[s] = mine
            else:
                chosen[s] = tuple(self.fallback.pass_cards(_seen_as(
                    obs, s, hs[s], layout=lay, phase="pass_left_right", kind="pass_cards",
                    legal=tuple(hs[s].cards_high_first()), count=2)))
        hands = [CardSet(h) for h in hs]
        for s, (left, right) in chosen.items():
            hands[s] -= CardSet([left, right])
            hands[(s + 1) % n] |= CardSet([left])
            hands[(s - 1) % n] |= CardSet([right])
        nine = Card.parse("9C")
        return self._masks(hands), next(s for s in range(n) if nine in hands[s])

    def _gamut_game_means(self, obs: Observation, game: str, deals: list) -> float:
        """This seat's mean payout if ``game`` is played on the sampled deals (passes and
        Spades bids as the fallback makes them, nobody folds in Clubs)."""
        from ..solver import solve_many

        n, me = obs.n_seats, obs.seat
        lay = self._lay(obs, game)
        if game == "hearts":
            rows, leaders = zip(*(self._gamut_hearts_rows(obs, lay, hs, None) for hs, _ in deals))
            r = solve_many(lay, None, np.array(rows, dtype=np.uint64), leader=np.array(leaders), declarer=me,
                           sides=1 << me, goal="min", tt_mb=self.tt_mb, line=False)
            return float(self._gamut_payouts(obs, game, r.value).mean())
        rows = np.array([self._masks(hs) for hs, _ in deals], dtype=np.uint64)
        if game == "clubs":
            r = solve_many(lay, None, rows, leader=obs.dealer, declarer=me, sides=1 << me, goal="max",
                           tt_mb=self.tt_mb, line=False)
            return float(self._gamut_payouts(obs, game, r.value).mean())
        from ..rounds.gamut import spades_legal_bids

        cap = obs.rules.get("team_bid_cap", True)
        bids = np.zeros((len(deals), n), dtype=np.int64)
        for k, (hs, _) in enumerate(deals):
            for s in ((obs.dealer + 1 + i) % n for i in range(n)):  # bidding order; team_bid_cap
                partner = int(bids[k, (s + 2) % n]) if (s - obs.dealer - 1) % n >= 2 else None
                bids[k, s] = self.fallback.bid(_seen_as(obs, s, hs[s], layout=lay, phase="bid", kind="bid",
                                                        legal=spades_legal_bids(partner, 8, cap), count=1))
        team = (1 << me) | (1 << ((me + 2) % n))
        r = solve_many(lay, None, rows, leader=obs.dealer, declarer=me, sides=team, goal="max",
                       tt_mb=self.tt_mb, line=False)
        return float(self._gamut_payouts(obs, game, r.value, bids=bids).mean())

    def _choose_gamut(self, obs: Observation) -> Any:
        """Diamonds turned: the game with the best mean payout if it is positive, else pass
        (counted as 0: the next player chooses or the hand is dealt again)."""
        deals = self._bid_deals(obs, self._lay(obs, "hearts"), salt=10)
        games = [g for g in obs.legal if g != "pass"]
        means = [self._gamut_game_means(obs, g, deals) for g in games]
        best = _first_best(games, means)
        return best if max(means) > 0 or "pass" not in obs.legal else "pass"

    def _pass_gamut(self, obs: Observation) -> tuple:
        """Gamut Hearts' one card left, one right: the fallback's pair and the next most
        dangerous pairs (``shortlist`` of them, each in both directions), the others
        passing as the fallback would; least penalty points for this seat (paranoid)."""
        from ..solver import solve_many

        lay = obs.layout
        fb = tuple(self.fallback.pass_cards(obs))
        ranked = sorted(obs.legal, key=danger_key(lay), reverse=True)
        cands = [fb]
        for a, b in shortlist(ranked, 2, self.shortlist):
            cands.extend(p for p in ((a, b), (b, a)) if p not in cands)
        deals = self._bid_deals(obs, lay, salt=11)
        rows, leaders = [], []
        for cand in cands:
            for hs, _ in deals:
                row, lead = self._gamut_hearts_rows(obs, lay, hs, cand)
                rows.append(row)
                leaders.append(lead)
        r = solve_many(lay, None, np.array(rows, dtype=np.uint64), leader=np.array(leaders), declarer=obs.seat,
                       sides=1 << obs.seat, goal="min", tt_mb=self.tt_mb, line=False)
        pay = self._gamut_payouts(obs, "hearts", r.value).reshape(len(cands), -1).mean(axis=1)
        return _first_best(cands, [float(x) for x in pay])

    def _fold_gamut(self, obs: Observation) -> bool:
        """Fold (payout 0) when playing on has a negative mean payout: Clubs with the seats
        that have not folded (the later ones assumed to play), this seat alone against
        them, the dealer or the first active seat to its left leading."""
        from ..solver import solve_many

        n, me = obs.n_seats, obs.seat
        folded = {s for s, p, v in obs.bids if p == "fold" and v}
        seats = sorted((s for s in range(n) if s not in folded), key=lambda s: (s - obs.dealer - 1) % n)
        k = len(seats)
        contract = "clubs" if k == n else f"clubs_{k}"
        if k == n:
            seats = list(range(n))
        idx = {s: i for i, s in enumerate(seats)}
        lead = obs.dealer if obs.dealer in idx else seats[0]
        deals = self._bid_deals(obs, self._lay(obs, "clubs"), salt=12)
        rows = np.array([[int(hs[s].mask) for s in seats] for hs, _ in deals], dtype=np.uint64)
        r = solve_many(self._lay(obs, contract), None, rows, leader=idx[lead], declarer=idx[me],
                       sides=1 << idx[me], goal="max", tt_mb=self.tt_mb, line=False)
        mean = float(self._gamut_payouts(obs, contract, r.value, folded=folded).mean())
        return True if mean < 0 else False

    # -- trick-count bids ---------------------------------------------------------------------
    def _bid_tricks(self, obs: Observation) -> Any:
        from ..solver import solve_many

        lay = obs.layout
        # _bid_deals' draws, weighed by the bids made before this one
        worlds = self._worlds(obs, self._bid_rng(obs, 1), self.bid_samples, {})
        hands = np.array([self._masks(hs) for hs, _, _ in worlds], dtype=np.uint64)
        # Gamut Spades: the dealer leads; Spades and Oh Hell: the first bidder (dealer's left)
        lead = obs.dealer if obs.game == "gamut" else (obs.dealer + 1) % obs.n_seats
        r = solve_many(lay, None, hands, leader=lead, declarer=obs.seat, sides=1 << obs.seat, goal="max",
                       tt_mb=self.tt_mb, line=False)
        want = weighted_median(r.value, [times for _, _, times in worlds])
        return min(obs.legal, key=lambda b: (abs(b - want), b))

    def _my_goal(self, obs: Observation) -> tuple[str, str]:
        """(goal, mode): mode ``'paranoid'`` (me against everybody), ``'team'`` (me and my
        fixed partner, Spades) or ``'declarer'`` (the contract's sides)."""
        lay = obs.layout
        if obs.game == "ohhell":
            bid = [b for s, p, b in obs.bids if s == obs.seat and p == "bid"][0]
            taken = sum(1 for t in obs.tricks if t.winner == obs.seat)
            return ("min" if taken >= bid else "max"), "paranoid"
        if lay.objective == "tricks" and lay.contract == "spades":
            bid = [b for s, p, b in obs.bids if s == obs.seat and p == "bid"][0]
            return ("min", "paranoid") if bid == 0 else ("max", "team")
        if obs.declarer is None or lay.contract in ("leasters", "leaster"):
            return lay.goal, "paranoid"
        return lay.goal, "declarer"

    def play(self, obs: Observation) -> Any:
        legal = list(obs.legal)
        if len(legal) == 1:
            return legal[0]
        if sum(obs.hand_sizes) > self.max_cards:
            return self.fallback.play(obs)
        means = self.expected_card_values(obs)
        best = max(means.values())
        # ties: the lowest card in the layout order, a deterministic choice
        return min((c for c in legal if means[c] == best), key=obs.layout.rank_order)

    def expected_card_values(self, obs: Observation) -> dict[Card, float]:
        """Each legal card's mean double-dummy value *for this seat* (higher is better, as
        :meth:`card_values`) over ``samples`` deals of the cards the seat cannot see, drawn
        consistent with what it has seen (and weighed by the trick bids, with
        ``bid_inference``): the values :meth:`play` chooses by, whatever the position's
        size (``max_cards`` only routes :meth:`play`).  Seeded by the policy's seed and the
        observation, so the same observation gets the same values."""
        rng = np.random.default_rng([self.seed, _obs_key(obs)])
        totals = {c: 0.0 for c in obs.legal}
        weight = 0
        table = self._play_table(obs)
        worlds = self._worlds(obs, rng, self.samples, table.by_seat)
        for (_hands, _kitty, times), values in zip(worlds, self._card_values_many(obs, [w[0] for w in worlds], table)):
            for c, v in values.items():
                totals[c] += times * v
            weight += times
        return {c: v / weight for c, v in totals.items()}

    def card_values(self, obs: Observation, hands: Sequence[CardSet], table: _PlayTable | None = None) -> dict[Card, int]:
        """Each legal card's double-dummy value *for this seat* (higher is better: the
        value for its side, negated where its side wants it low) if every seat's hand now
        is ``hands[seat]``: one world of :meth:`play`, or the true deal to measure a
        choice against (``benches/bench_bid_inference.py``).  ``table``: what the
        observation fixes (:meth:`_play_table`), worked out once for all the worlds."""
        return self._card_values_many(obs, [hands], self._play_table(obs) if table is None else table)[0]

    def _card_values_many(self, obs: Observation, worlds: Sequence[Sequence[CardSet]],
                          t: _PlayTable) -> list[dict[Card, int]]:
        """:meth:`card_values` of each world, every world's positions after each card in one
        :func:`~trickcore.solver.solve_after_cards` call (one card per run of equivalent
        cards, :func:`~trickcore.solver.card_runs`): a :func:`~trickcore.solve` call per
        world cost more in Python than in search on the small positions PIMC solves."""
        from ..solver import card_runs, solve_after_cards

        lay = obs.layout
        now = np.array([[hands[s].mask for s in t.seats] for hands in worlds], dtype=np.uint64)
        if t.mode == "paranoid":
            sides = np.full(len(worlds), 1 << t.idx[obs.seat], dtype=np.int64)
        else:
            decl = obs.seat if t.mode == "team" else obs.declarer
            start = now | np.array([t.by_seat[s].mask for s in t.seats], dtype=np.uint64)
            sides = np.asarray(lay.sides(start, t.idx[decl]), dtype=np.int64).reshape(len(worlds))
        runs = card_runs(lay, obs.legal, t.played_before)
        r = solve_after_cards(lay, None, now, [run[0] for run in runs], leader=t.idx[t.leader], trick=t.trick,
                              played=t.played_before, suits_led=t.suits_led, sides=sides, goal=t.goal, line=False,
                              tt_mb=self.tt_mb)
        values = r.value.reshape(len(worlds), len(runs)).tolist()
        me = t.idx[obs.seat]
        out = []
        for side, row in zip(sides.tolist(), values):
            sign = 1 if (t.goal == "max") == bool(side >> me & 1) else -1
            by_card = {c: sign * v for run, v in zip(runs, row) for c in run}
            out.append({c: by_card[c] for c in obs.legal})
        return out

    def _play_table(self, obs: Observation) -> _PlayTable:
        """What a card-play observation fixes for :meth:`card_values`."""
        lay = obs.layout
        # seats of the layout: Gamut clubs_k renumbers the active seats from the first one
        # after the dealer; every other layout uses the table's seats.
        if lay.n_seats != obs.n_seats:
            seats = sorted(obs.active, key=lambda s: (s - obs.dealer - 1) % obs.n_seats)
        else:
            seats = list(range(obs.n_seats))
        played_before = CardSet()
        suits_led = 0
        for t in obs.tricks:
            played_before |= CardSet(c for _, c in t.plays)
            suits_led |= 1 << lay.effective_suit(t.plays[0][1])
        goal, mode = self._my_goal(obs)
        return _PlayTable(seats=seats, idx={s: i for i, s in enumerate(seats)}, goal=goal, mode=mode,
                          played_before=played_before, suits_led=suits_led, by_seat=cards_played_by(obs),
                          leader=obs.leader if obs.leader is not None else obs.seat,
                          trick=[c for _, c in obs.trick])
