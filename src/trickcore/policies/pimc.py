"""Perfect Information Monte Carlo (PIMC) card play.

For a card-play decision the policy deals the cards it cannot place — consistently with
everything its seat has seen: its own hand, every card played, the voids other seats
showed (a seat that did not follow a suit holds none of it), cards it knows another seat
holds (cards it passed, announced queens or jacks), cards it knows lie in the kitty (what
it buried) and every seat's hand size — then solves each sample double dummy with
:func:`trickcore.solve` and plays the card with the best average value for its side.

Which side?  The seat's own side is known to it in every sample: the sides are recomputed
from the sampled hands with the layout's side rule (so a hidden partner is whoever holds
the partner card in that sample).  Games without a declaring side use the paranoid
reduction (the seat against everybody), as the solver does.  An Oh Hell player who already
has its bid, a Spades nil bidder and a Nil declarer play to lose tricks.

Other decisions (bids, exchanges, calls, folds) are delegated to a fallback policy
(:class:`~trickcore.policies.HeuristicPolicy` by default), and so is card play while more
than ``max_cards`` cards are still in the hands (default 30): an exact solve of a full
13-card Hearts or Spades deal takes far too long to repeat per sample, so PIMC takes over
once the position is small enough (from the start in Goathead and Sheepshead, after the
first trick in Clover and Gamut, for the last seven tricks of Hearts and Spades).

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

import hashlib
from typing import Any

import numpy as np

from ..cards import Card, CardSet
from ..rounds.state import Observation
from .base import BasePolicy
from .heuristic import HeuristicPolicy

__all__ = ["PIMCPolicy", "sample_hidden"]


def _obs_key(obs: Observation) -> int:
    """A stable digest of what the seat knows at this decision (seeds the sampler)."""
    parts = [obs.game, obs.seat, obs.dealer, obs.round_index, obs.contract, obs.declarer, int(obs.hand.mask),
             tuple((t.leader, tuple(int(c) for _, c in t.plays)) for t in obs.tricks),
             tuple(int(c) for _, c in obs.trick), tuple(sorted((k, int(v.mask)) for k, v in obs.known.items())),
             int(obs.kitty_known.mask), repr(obs.bids)]
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "little")


def sample_hidden(obs: Observation, rng: np.random.Generator, tries: int = 200) -> tuple[list[CardSet], CardSet]:
    """One deal of the unseen cards consistent with ``obs``: every seat's current hand and
    the kitty.  Voids are respected when possible (after ``tries`` failures they are
    dropped, which can only happen with inconsistent information)."""
    lay = obs.layout
    n = obs.n_seats
    played = obs.played
    deck = lay.deck
    # Folded Gamut hands sit in the kitty: a seat of size 0 gets nothing.
    hands = [CardSet() for _ in range(n)]
    hands[obs.seat] = CardSet(obs.hand)
    need = {}
    for t in range(n):
        if t == obs.seat:
            continue
        k = obs.known.get(t, CardSet()) - played
        hands[t] = CardSet(k)
        need[t] = obs.hand_sizes[t] - len(k)
    kitty = CardSet(obs.kitty_known)
    unseen = deck - played - kitty
    for h in hands:
        unseen = unseen - h
    kitty_need = len(unseen) - sum(need.values())
    cards = list(unseen)
    suit_of = {c: lay.effective_suit(c) for c in cards}
    for attempt in range(tries + 1):
        use_voids = attempt < tries
        order = list(rng.permutation(len(cards)))
        # most constrained cards first: those many seats are void in
        def allowed(c: Card) -> list[int]:
            seats = [t for t in need if not (use_voids and suit_of[c] in obs.voids.get(t, ()))]
            return seats
        order.sort(key=lambda i: len(allowed(cards[i])))
        left = dict(need)
        kleft = kitty_need
        out = {t: [] for t in need}
        kit: list[Card] = []
        ok = True
        for i in order:
            c = cards[i]
            opts = [t for t in allowed(c) if left[t] > 0]
            weights = [left[t] for t in opts] + ([kleft] if kleft > 0 else [])
            if not weights:
                ok = False
                break
            j = rng.choice(len(weights), p=np.array(weights, dtype=float) / sum(weights))
            if j < len(opts):
                out[opts[j]].append(c)
                left[opts[j]] -= 1
            else:
                kit.append(c)
                kleft -= 1
        if ok:
            for t in need:
                hands[t] = hands[t] | CardSet(out[t])
            return hands, kitty | CardSet(kit)
    raise ValueError("no deal of the unseen cards fits the observation")  # pragma: no cover


class PIMCPolicy(BasePolicy):
    """PIMC card play; ``samples`` deals per decision, ``seed`` for reproducibility."""

    def __init__(self, samples: int = 20, seed: int = 0, fallback: Any = None, tt_mb: float = 16,
                 max_cards: int = 30) -> None:
        self.samples = int(samples)
        self.max_cards = int(max_cards)
        self.seed = int(seed)
        self.fallback = fallback if fallback is not None else HeuristicPolicy()
        self.tt_mb = tt_mb

    def _delegate(self, obs: Observation) -> Any:
        return getattr(self.fallback, obs.kind)(obs)

    bid = pick_or_pass = exchange = pass_cards = call = fold = _delegate

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
        from ..solver import solve

        legal = list(obs.legal)
        if len(legal) == 1:
            return legal[0]
        lay = obs.layout
        if sum(obs.hand_sizes) > self.max_cards:
            return self.fallback.play(obs)
        rng = np.random.default_rng([self.seed, _obs_key(obs)])
        # seats of the layout: Gamut clubs_k renumbers the active seats from the first one
        # after the dealer; every other layout uses the table's seats.
        if lay.n_seats != obs.n_seats:
            seats = sorted(obs.active, key=lambda s: (s - obs.dealer - 1) % obs.n_seats)
        else:
            seats = list(range(obs.n_seats))
        idx = {s: i for i, s in enumerate(seats)}
        goal, mode = self._my_goal(obs)
        played_before = CardSet()
        suits_led = 0
        by_seat = {s: CardSet() for s in range(obs.n_seats)}
        for t in obs.tricks:
            played_before |= CardSet(c for _, c in t.plays)
            suits_led |= 1 << lay.effective_suit(t.plays[0][1])
            for s, c in t.plays:
                by_seat[s] = by_seat[s] | CardSet([c])
        for s, c in obs.trick:
            by_seat[s] = by_seat[s] | CardSet([c])
        leader = obs.leader if obs.leader is not None else obs.seat
        totals = {c: 0.0 for c in legal}
        for _ in range(self.samples):
            hands, _kitty = sample_hidden(obs, rng)
            start = np.array([[(hands[s] | by_seat[s]).mask for s in seats]], dtype=np.uint64)
            if mode == "paranoid":
                decl, side = obs.seat, 1 << idx[obs.seat]
            elif mode == "team":
                decl = obs.seat
                side = int(lay.sides(start, idx[decl])[0])
            else:
                decl = obs.declarer
                side = int(lay.sides(start, idx[decl])[0])
            my_side = bool(side >> idx[obs.seat] & 1)
            r = solve(lay, None, [hands[s] for s in seats], leader=idx[leader], declarer=idx[decl],
                      trick=[c for _, c in obs.trick], played=played_before, suits_led=suits_led,
                      goal=goal, sides=side, tt_mb=self.tt_mb)
            want_max = (goal == "max") == my_side
            for c in legal:
                v = r.card_values.get(c, 0)
                totals[c] += v if want_max else -v
        best = max(totals.values())
        # ties: the lowest card in the layout order, a deterministic choice
        return min((c for c in legal if totals[c] == best), key=lay.rank_order)
