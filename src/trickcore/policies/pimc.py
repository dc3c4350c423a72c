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

Bids are decided the same way, over ``bid_samples`` deals of the cards the seat cannot see
(default 12; the kitty or blind is hidden and sampled too), each solved double dummy with
:func:`trickcore.solve_many` and scored with :func:`trickcore.scoring.score`:

* Goathead (3 and 4 players), the bidding phase: every legal contract (a ``"steal"``
  stands for the current high contract) is solved with this seat as declarer and the
  dealer's left leading; the seat bids the contract with the best mean payout if it is
  above 0 (what passing pays), else passes.  The evaluation assumes the declarer keeps
  its hand (no kitty exchange, so the no-exchange bonus applies; in four-player Goathead
  the sides follow the sampled hands' black jacks / called queen).
* Sheepshead pick or pass: the seat picks when the mean double-dummy payout as picker
  is positive; per sample it takes the sampled blind, names the partner as the fallback
  would (J♦, the first jack or ace it may call) and buries as the heuristic does (the
  non-trumps worth most points).  Blitz and crack are not anticipated.
* Spades and Oh Hell trick bids: the median over samples of the tricks this seat takes
  double dummy playing alone against the others (the paranoid reduction), rounded to the
  nearest legal bid.  Only while the deal has at most ``max_cards`` cards in the hands
  (short Oh Hell rounds); full 13-card deals keep the fallback's bid.

Every other decision (the Goathead raise after the exchange, blitz, crack, exchanges and
buries, partner calls, card passes, folds, Clover and Gamut bids) is delegated to a
fallback policy (:class:`~trickcore.policies.HeuristicPolicy` by default), and so is card
play while more than ``max_cards`` cards are still in the hands (default 30): an exact
solve of a full 13-card Hearts or Spades deal takes far too long to repeat per sample, so
PIMC takes over once the position is small enough (from the start in Goathead and
Sheepshead, after the first trick in Clover and Gamut, for the last seven tricks of
Hearts and Spades).

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
from typing import Any

import numpy as np

from ..cards import Card, CardSet
from ..layout import Layout
from ..rounds.state import Observation
from .base import BasePolicy
from .heuristic import HeuristicPolicy, _layout

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
    """PIMC card play and bids; ``samples`` deals per card decision, ``bid_samples`` per
    bid (``solve_bids=False`` leaves bids to the fallback), ``seed`` for reproducibility."""

    def __init__(self, samples: int = 20, seed: int = 0, fallback: Any = None, tt_mb: float = 16,
                 max_cards: int = 30, bid_samples: int = 12, solve_bids: bool = True) -> None:
        self.samples = int(samples)
        self.bid_samples = int(bid_samples)
        self.solve_bids = bool(solve_bids)  # False: bids too go to the fallback (card play only)
        self.max_cards = int(max_cards)
        self.seed = int(seed)
        self.fallback = fallback if fallback is not None else HeuristicPolicy()
        self.tt_mb = tt_mb

    def _delegate(self, obs: Observation) -> Any:
        return getattr(self.fallback, obs.kind)(obs)

    exchange = pass_cards = call = fold = _delegate

    # -- bidding --------------------------------------------------------------------------
    def bid(self, obs: Observation) -> Any:
        if not self.solve_bids or self.bid_samples < 1:
            return self.fallback.bid(obs)
        if obs.phase == "bid" and obs.game in ("goathead3", "goathead4"):
            return self._bid_goathead(obs)
        if obs.phase == "bid" and obs.game in ("spades", "ohhell") and sum(obs.hand_sizes) <= self.max_cards:
            return self._bid_tricks(obs)
        return self.fallback.bid(obs)

    def pick_or_pass(self, obs: Observation) -> Any:
        if self.solve_bids and self.bid_samples >= 1 and obs.game == "sheepshead" and set(obs.legal) == {True, False}:
            return self._pick_sheepshead(obs)
        return self.fallback.pick_or_pass(obs)

    def _lay(self, obs: Observation, contract: str) -> Layout:
        return _layout(obs.game, contract, tuple(sorted(obs.rules.items())))

    def _bid_deals(self, obs: Observation, lay: Layout) -> list[tuple[list[CardSet], CardSet]]:
        """``bid_samples`` deals of the unseen cards (hands as dealt, and the kitty)."""
        if obs.layout is None:  # before the contract: no voids yet, any layout has the deck
            obs = dataclasses.replace(obs, layout=lay)
        rng = np.random.default_rng([self.seed, _obs_key(obs), 1])
        return [sample_hidden(obs, rng) for _ in range(self.bid_samples)]

    def _mean_payout(self, obs: Observation, lay: Layout, hands: np.ndarray, kitty_points: np.ndarray,
                     extra: dict[str, Any]) -> float:
        """Solve ``hands`` (uint64 ``(n, seats)``) with this seat declaring, the dealer's
        left leading; the mean payout of this seat under the game's scoring."""
        import pandas as pd

        from .. import scoring
        from ..solver import solve_many

        n = obs.n_seats
        r = solve_many(lay, None, hands, leader=(obs.dealer + 1) % n, declarer=obs.seat, tt_mb=self.tt_mb)
        nil = lay.objective == "nil"
        value = r.value.astype(np.int64)
        frame = pd.DataFrame({
            "contract": lay.contract, "declarer": obs.seat, "multiplier": obs.multiplier,
            "side_mask": r.side.astype(np.int64),
            "side_points": np.zeros_like(value) if nil else value,
            "side_tricks": value if nil else r.side_tricks.astype(np.int64),
            "kitty_points": kitty_points, **extra})
        if obs.game == "sheepshead":
            frame["partner"] = [next((s for s in range(n) if m >> s & 1 and s != obs.seat), -1)
                                for m in frame["side_mask"]]
        out = scoring.score(obs.game, frame, obs.rules)
        return float(out[f"payout_{obs.seat}"].mean())

    def _bid_goathead(self, obs: Observation) -> Any:
        from ..rounds.goathead import LADDER

        high = [b for _, p, b in obs.bids if p == "bid" and b in LADDER]
        # a steal takes the current high contract at the same rank
        cands = {b: (high[-1] if b == "steal" else b) for b in obs.legal if b in LADDER or (b == "steal" and high)}
        if not cands:
            return "pass" if "pass" in obs.legal else self.fallback.bid(obs)
        deals = self._bid_deals(obs, self._lay(obs, next(iter(cands.values()))))
        hands = np.array([[h.mask for h in hs] for hs, _ in deals], dtype=np.uint64)
        value: dict[str, float] = {}
        for contract in dict.fromkeys(cands.values()):
            lay = self._lay(obs, contract)
            table = lay.point_table()
            kitty = np.array([sum(int(table[c]) for c in k) for _, k in deals], dtype=np.int64)
            value[contract] = self._mean_payout(obs, lay, hands, kitty, {"exchanged": False})
        # the best mean payout; ties go to the cheaper (earlier) bid
        best = max(cands, key=lambda b: (value[cands[b]], -obs.legal.index(b)))
        if value[cands[best]] > 0 or "pass" not in obs.legal:
            return best
        return "pass"

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
        fail = {"clubs": "C", "spades": "S", "hearts": "H"}
        aces = [s for s in fail.values() if Card.make("A", s) in hand]
        rank, word = ("10", "ten") if len(aces) == 3 else ("A", "ace")
        for name, s in fail.items():
            if Card.make(rank, s) not in hand and any(c.rank_name not in ("Q", "J") for c in hand.suit(s)):
                return f"called_{word}_{name}"
        return "alone"

    def _pick_sheepshead(self, obs: Observation) -> bool:
        deals = self._bid_deals(obs, self._lay(obs, "jd"))
        groups: dict[str, tuple[list, list]] = {}
        for hs, blind in deals:
            hand = hs[obs.seat] | blind
            contract = self._sheepshead_contract(obs, hand)
            lay = self._lay(obs, contract)
            trump = set(lay.suits[-1]) if lay.trump else set()
            pts = lay.point_table()
            keep_suit = {"clubs": "C", "spades": "S", "hearts": "H"}.get(contract.rsplit("_", 1)[-1]) \
                if contract.startswith("called_") else None
            ranked = sorted(hand, key=lambda c: (c in trump, -int(pts[c]), lay.rank_order(c)))
            bury = None
            for i in range(len(ranked)):
                for j in range(i + 1, len(ranked)):
                    rest = hand - CardSet([ranked[i], ranked[j]])
                    if keep_suit is None or any(c.rank_name not in ("Q", "J") for c in rest.suit(keep_suit)):
                        bury = CardSet([ranked[i], ranked[j]])
                        break
                if bury is not None:
                    break
            row = [h.mask for h in hs]
            row[obs.seat] = (hand - bury).mask
            g = groups.setdefault(contract, ([], []))
            g[0].append(row)
            g[1].append(sum(int(pts[c]) for c in bury))
        total = 0.0
        for contract, (rows, kitty) in groups.items():
            lay = self._lay(obs, contract)
            m = self._mean_payout(obs, lay, np.array(rows, dtype=np.uint64), np.array(kitty, dtype=np.int64), {})
            total += m * len(rows)
        return total / len(deals) > 0

    def _bid_tricks(self, obs: Observation) -> Any:
        from ..solver import solve_many

        lay = obs.layout
        deals = self._bid_deals(obs, lay)
        hands = np.array([[h.mask for h in hs] for hs, _ in deals], dtype=np.uint64)
        r = solve_many(lay, None, hands, leader=(obs.dealer + 1) % obs.n_seats, declarer=obs.seat,
                       sides=1 << obs.seat, goal="max", tt_mb=self.tt_mb)
        want = float(np.median(r.value))
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
