"""What other seats' trick bids say about their hands: weights for sampled deals.

A PIMC player deals the cards it cannot see at random among the other seats (consistent
with voids and known cards, :class:`~trickcore.policies.pimc.HiddenDeals`), but a seat
that bid five tricks in Spades holds a stronger hand than one that bid nil.  This module
weighs each sampled deal by how likely the bids made are under it (importance sampling:
the random deal is the proposal, the deal given the bids the target), and draws the deals
to solve in proportion to those weights (:func:`resample`).

The bid model.  How a seat bids is modelled by a policy (the PIMC player's fallback, the
heuristic by default, which bids its hand's rounded trick estimate): for each seat that bid
a number of tricks, its hand *as it was at the bid* (its sampled hand now and the cards it
has played since) is shown to the model as that seat saw it then, and the model's bid
``m`` is compared with the bid ``b`` made.  The likelihood of the deal is

    ``prod over bidders of exp(-((m - b) / sigma)^2 / 2)``

a soft match: other players do not bid as the model does (a PIMC bidder solves its own
samples, people misjudge), so a deal whose model bids are a trick or two off keeps some
weight (``sigma`` = 1: one trick off keeps 61%, two 14%, three 1%).

Only trick-count bids are read (Spades, Oh Hell, Gamut's Spades game): each is a number
the model computes from the hand alone.  The other games' auctions (a Goathead contract,
a Clover call) also say something about hands, but what they say depends on the ladder
and the bids before as much as on the hand; they are not modelled.  Sheepshead passes
were (a pass the model would not make weighing as a bid two tricks off): the samples then
gave the passers a hand the heuristic would pick with 15% of the time instead of 42%, but
PIMC's choices were no better on the true deals (``benches/bench_bid_inference.py``, 300
rounds, 5,414 decisions: regret 1.639 -> 1.636 card points, the difference's 95% interval
[-0.082, +0.076]), for three times the sampling; dropped.

>>> from trickcore.rounds import start_round
>>> from trickcore.policies import HeuristicPolicy
>>> r = start_round("spades", seed=5)
>>> h = HeuristicPolicy()
>>> while r.pending.kind == "bid":
...     _ = r.act(h.bid(r.observe(r.pending.seat)))
>>> obs = r.observe(r.pending.seat)
>>> [b for _, _, b in obs.bids]
[2, 3, 1, 1]
>>> bidders = trick_bidders(obs)
>>> sorted(bidders) == [s for s in range(4) if s != obs.seat]
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..cards import CardSet
from ..rounds.state import Observation

__all__ = ["trick_bidders", "bid_weights", "bid_log_likelihood", "resample", "weighted_median"]

#: Games whose auction is a trick count per seat (Gamut: only its Spades game).
TRICK_BID_GAMES = ("spades", "ohhell", "gamut")


def trick_bidders(obs: Observation) -> dict[int, tuple[int, int]]:
    """``seat -> (bid, position in the bidding)`` for every *other* seat that bid a number
    of tricks this round (empty where the game has no trick bids, or none was made yet)."""
    if obs.game not in TRICK_BID_GAMES:
        return {}
    out: dict[int, tuple[int, int]] = {}
    for i, (seat, phase, value) in enumerate(obs.bids):
        if phase == "bid" and isinstance(value, int) and not isinstance(value, bool) and seat != obs.seat:
            out[seat] = (value, i)
    return out


def _legal_bids(obs: Observation, seat: int, tricks: int, position: int) -> tuple[int, ...]:
    """The bids ``seat`` could choose from when it bid (Oh Hell's ``no_equal_total``: the
    dealer may not make the bids add up to the tricks; Gamut's ``team_bid_cap``: the second
    partner may not make the team's bids add up to more than the tricks)."""
    if obs.game == "gamut":
        from ..rounds.gamut import spades_legal_bids

        partner = [v for s, p, v in obs.bids[:position] if p == "bid" and s == (seat + 2) % obs.n_seats]
        return spades_legal_bids(partner[0] if partner else None, tricks, obs.rules.get("team_bid_cap", True))
    legal = list(range(tricks + 1))
    if obs.game == "ohhell" and obs.rules.get("no_equal_total", False) and seat == obs.dealer:
        before = sum(v for s, p, v in obs.bids[:position] if p == "bid" and isinstance(v, int))
        if tricks - before in legal:
            legal.remove(tricks - before)
    return tuple(legal)


def model_bid(obs: Observation, model: Any, seat: int, hand: CardSet, position: int) -> int:
    """What ``model`` bids for ``seat`` holding ``hand`` at its turn in the bidding (the
    ``position``-th announcement): the observation that seat had then, as far as it
    matters to a trick bid (its hand, the contract's layout, the legal bids and the bids
    before it)."""
    seen = dataclasses.replace(
        obs, seat=seat, hand=CardSet(hand), known={}, kitty_known=CardSet(), check=None, kind="bid",
        phase="bid", legal=_legal_bids(obs, seat, len(hand), position), count=1, bids=obs.bids[:position],
        tricks=(), trick=(), leader=None, voids={}, hand_sizes=tuple(len(hand) for _ in obs.hand_sizes))
    return model.bid(seen)


def bid_weights(obs: Observation, worlds: Sequence[Sequence[CardSet]], played_by: Mapping[int, CardSet],
                model: Any, sigma: float = 1.0) -> np.ndarray | None:
    """The likelihood of the trick bids made under each sampled deal (``worlds``: every
    seat's hand now), normalised to sum 1; ``None`` when there is no bid to condition on.
    ``played_by``: the cards each seat has played this round (they were in its hand when
    it bid).

    >>> import numpy as np
    >>> float(np.exp(-0.5))     # a deal under which one bidder's model bid is one off
    0.6065306597126334
    """
    if sigma <= 0:
        raise ValueError(f"sigma must be positive, got {sigma}")
    if not trick_bidders(obs) or not worlds:
        return None
    log_w = np.array([bid_log_likelihood(obs, hands, played_by, model, sigma) for hands in worlds])
    w = np.exp(log_w - log_w.max())
    return w / w.sum()


def bid_log_likelihood(obs: Observation, hands: Sequence[CardSet], played_by: Mapping[int, CardSet],
                       model: Any, sigma: float = 1.0) -> float:
    """The log of the likelihood of the other seats' trick bids (module docstring) if every
    seat's hand now is ``hands[seat]``; 0 where there is no bid to read.  ``played_by``:
    the cards each seat has played this round.

    >>> from trickcore.rounds import start_round
    >>> r = start_round("spades", seed=5)
    >>> bid_log_likelihood(r.observe(0), r.hands, {}, None)     # no bid made yet: nothing to read
    0.0
    """
    total = 0.0
    for seat, (bid, position) in trick_bidders(obs).items():
        hand = CardSet(hands[seat]) | played_by.get(seat, CardSet())
        miss = (model_bid(obs, model, seat, hand, position) - bid) / sigma
        total -= 0.5 * miss * miss
    return total


def resample(weights: np.ndarray, n: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """Systematic resampling: ``n`` draws in proportion to ``weights`` (summing to 1), as
    ``(index, times drawn)`` pairs in index order (a deal drawn twice is solved once and
    counted twice).  Lower variance than ``n`` independent draws: a deal of weight ``w``
    is drawn ``floor(n w)`` or ``ceil(n w)`` times.

    >>> import numpy as np
    >>> resample(np.array([0.5, 0.25, 0.25, 0.0]), 4, np.random.default_rng(0))
    [(0, 2), (1, 1), (2, 1)]
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    edges = np.cumsum(weights)
    edges[-1] = 1.0             # rounding: every point falls below the last edge
    points = (rng.random() + np.arange(n)) / n
    picked = np.searchsorted(edges, points, side="right")
    idx, counts = np.unique(picked, return_counts=True)
    return [(int(i), int(c)) for i, c in zip(idx, counts)]


def weighted_median(values: Sequence[float], weights: Sequence[float]) -> float:
    """The median of ``values`` drawn with ``weights`` (the lower middle value on a tie, as
    the midpoint of the two middle values when the weight splits exactly in half, like
    :func:`numpy.median` for equal weights).

    >>> weighted_median([1, 2, 3, 10], [1, 1, 1, 1])
    2.5
    >>> weighted_median([1, 2, 3, 10], [1, 1, 1, 5])
    10.0
    """
    order = np.argsort(values, kind="stable")
    v = np.asarray(values, dtype=float)[order]
    w = np.asarray(weights, dtype=float)[order]
    cum = np.cumsum(w)
    half = cum[-1] / 2
    i = int(np.searchsorted(cum, half, side="left"))
    if math.isclose(cum[i], half, rel_tol=1e-12) and i + 1 < len(v):
        return float((v[i] + v[i + 1]) / 2)
    return float(v[i])
