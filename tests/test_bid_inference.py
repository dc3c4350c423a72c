"""Bid inference for PIMC (trickcore.policies.inference): the weights, the resampling, and
that conditioned samples agree with the bids made."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trickcore import CardSet
from trickcore.policies import HeuristicPolicy, PIMCPolicy
from trickcore.policies.inference import bid_weights, model_bid, resample, trick_bidders, weighted_median
from trickcore.policies.pimc import cards_played_by, sample_hidden
from trickcore.rounds import start_round

SPADES = CardSet.parse("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S")


def after_bids(game: str, seed: int, policy=None, **rules):
    """The round once every seat has bid, and the observation of the first card's seat."""
    policy = policy or HeuristicPolicy()
    r = start_round(game, seed=seed, **rules)
    while r.pending.kind == "bid":
        r.act(policy.bid(r.observe(r.pending.seat)))
    return r, r.observe(r.pending.seat)


class CountSpades:
    """A bid model that bids the spades in the hand (and remembers what it was shown)."""

    def __init__(self):
        self.shown = []

    def bid(self, obs):
        self.shown.append(obs)
        return len(obs.hand & SPADES)


def test_weights_are_the_bids_likelihood():
    r, obs = after_bids("spades", seed=3)
    bids = {s: b for s, _, b in obs.bids}
    rng = np.random.default_rng(0)
    worlds = [[r.hands[s] for s in range(4)]] + [sample_hidden(obs, rng)[0] for _ in range(5)]
    played = {1: CardSet.parse("AS")} if CardSet.parse("AS") & r.hands[1] else {}
    for sigma in (1.0, 2.5):
        w = bid_weights(obs, worlds, played, CountSpades(), sigma=sigma)
        expect = []
        for hands in worlds:
            log = 0.0
            for s in range(4):
                if s != obs.seat:
                    k = len((hands[s] | played.get(s, CardSet())) & SPADES)
                    log -= 0.5 * ((k - bids[s]) / sigma) ** 2
            expect.append(math.exp(log))
        assert np.allclose(w, np.array(expect) / sum(expect))


def test_the_model_sees_the_hand_at_the_bid():
    r, obs = after_bids("spades", seed=4)
    # play two tricks: the bidders' hands now are two cards short of what they bid with
    h = HeuristicPolicy()
    for _ in range(8):
        r.act(h.play(r.observe(r.pending.seat)))
    obs = r.observe(r.pending.seat)
    played = cards_played_by(obs)
    model = CountSpades()
    bid_weights(obs, [[r.hands[s] for s in range(4)]], played, model)
    assert sorted(o.seat for o in model.shown) == sorted(s for s in range(4) if s != obs.seat)
    for o in model.shown:
        assert len(o.hand) == 13 and o.hand == r.hands[o.seat] | played[o.seat]
        assert o.phase == "bid" and o.legal == tuple(range(14)) and o.tricks == ()
        # the bids it saw were those before its own
        assert all(s != o.seat for s, _, _ in o.bids)


def test_ohhell_dealer_model_respects_no_equal_total():
    r, obs = after_bids("ohhell", seed=7, hand_size=5, no_equal_total=True)
    if obs.seat == obs.dealer:      # the model is asked about the other seats only
        r.act(HeuristicPolicy().play(obs))
        obs = r.observe(r.pending.seat)
    model = CountSpades()
    bid_weights(obs, [[r.hands[s] for s in range(4)]], cards_played_by(obs), model)
    dealer = next(o for o in model.shown if o.seat == obs.dealer)
    others = sum(b for s, _, b in obs.bids if s != obs.dealer)
    assert 5 - others not in dealer.legal or not 0 <= 5 - others <= 5
    assert len(dealer.legal) == (5 if 0 <= 5 - others <= 5 else 6)


def test_no_bids_no_weights():
    r = start_round("spades", seed=1)
    obs = r.observe(r.pending.seat)            # the first bidder: nobody has bid
    assert trick_bidders(obs) == {}
    assert bid_weights(obs, [[r.hands[s] for s in range(4)]], {}, HeuristicPolicy()) is None
    g = start_round("goathead3", seed=1)
    assert trick_bidders(g.observe(g.pending.seat)) == {}


def test_conditioned_samples_agree_with_the_bids():
    """Spades after the heuristic's bids: the samples PIMC draws with inference give the
    other seats hands whose heuristic bid is the bid made far more often than random
    deals of the unseen cards do."""
    model = HeuristicPolicy()
    miss = {True: [], False: []}
    for seed in range(6):
        r, obs = after_bids("spades", seed=seed)
        bids = trick_bidders(obs)
        for on in (True, False):
            p = PIMCPolicy(samples=40, seed=seed, bid_inference=on)
            worlds = p._worlds(obs, np.random.default_rng(seed), 40, {})
            assert sum(times for _, _, times in worlds) == 40
            for hands, _, times in worlds:
                for s, (b, pos) in bids.items():
                    miss[on] += [abs(model_bid(obs, model, s, hands[s], pos) - b)] * times
    on, off = np.mean(miss[True]), np.mean(miss[False])
    assert on < 0.6 * off, (on, off)


def test_inference_off_or_without_bids_draws_the_plain_samples():
    r, obs = after_bids("spades", seed=2)
    plain_rng, rng = np.random.default_rng(9), np.random.default_rng(9)
    plain = [sample_hidden(obs, plain_rng)[0] for _ in range(5)]
    got = PIMCPolicy(bid_inference=False)._worlds(obs, rng, 5, {})
    assert [h for h, _, _ in got] == plain and all(t == 1 for _, _, t in got)
    # the first bidder sees no bid: the same bid with the inference on and off
    first = start_round("spades", seed=2)
    o = first.observe(first.pending.seat)
    assert PIMCPolicy(seed=1, bid_samples=4).bid(o) == PIMCPolicy(seed=1, bid_samples=4, bid_inference=False).bid(o)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 10), min_size=1, max_size=30).filter(lambda w: sum(w) > 0),
       st.integers(1, 60), st.integers(0, 2**32 - 1))
def test_resample_draws_each_deal_in_proportion(raw, n, seed):
    w = np.array(raw) / sum(raw)
    drawn = resample(w, n, np.random.default_rng(seed))
    assert sum(k for _, k in drawn) == n
    assert [i for i, _ in drawn] == sorted({i for i, _ in drawn})
    counts = dict(drawn)
    for i, wi in enumerate(w):
        assert math.floor(n * wi - 1e-9) <= counts.get(i, 0) <= math.ceil(n * wi + 1e-9)


@given(st.lists(st.integers(-20, 20), min_size=1, max_size=25))
def test_weighted_median_with_equal_weights_is_the_median(values):
    assert weighted_median(values, [1] * len(values)) == float(np.median(values))


def test_weighted_median_counts_repeats():
    assert weighted_median([3, 7, 9], [1, 3, 1]) == 7.0
    assert weighted_median([3, 7], [1, 1]) == 5.0


@pytest.mark.parametrize("kwargs, what", [({"bid_oversample": 0}, "bid_oversample"),
                                          ({"bid_sigma": 0.0}, "bid_sigma"),
                                          ({"bid_sigma": -1.0}, "bid_sigma")])
def test_bad_inference_settings(kwargs, what):
    with pytest.raises(ValueError, match=what):
        PIMCPolicy(**kwargs)


def test_bad_resample_and_sigma():
    with pytest.raises(ValueError, match="n must be at least 1"):
        resample(np.array([1.0]), 0, np.random.default_rng(0))
    r, obs = after_bids("spades", seed=1)
    with pytest.raises(ValueError, match="sigma"):
        bid_weights(obs, [[r.hands[s] for s in range(4)]], {}, HeuristicPolicy(), sigma=0)


@pytest.mark.parametrize("game, rules", [("spades", {}), ("ohhell", {"hand_size": 7}), ("sheepshead", {}),
                                         ("goathead3", {}), ("clover", {}), ("gamut", {}), ("hearts", {})])
def test_hidden_deals_fit_what_the_seat_knows(game, rules):
    """Every play decision of two heuristic rounds (voids, known and buried cards,
    kitties): each deal, drawn uniformly or by the constrained fallback, fits what the
    seat knows (its uniformity: ``test_policies.py``)."""
    from trickcore.policies.pimc import HiddenDeals

    h = HeuristicPolicy()
    checked = 0
    for seed in range(2):
        r = start_round(game, seed=seed, **rules)
        while not r.done:
            d = r.pending
            obs = r.observe(d.seat)
            if d.kind == "play" and len(obs.tricks) % 2 == 0:
                deals = HiddenDeals(obs)
                for k in range(6):
                    rng = np.random.default_rng([seed, k])
                    hands, kitty = deals.draw(rng) if k % 2 else deals.draw_constrained(rng)
                    assert not (kitty & obs.hand) and sum(len(x) for x in hands) + len(kitty) + len(obs.played) \
                        == len(obs.layout.deck)
                    assert hands[obs.seat] == obs.hand
                    assert [len(x) for x in hands] == list(obs.hand_sizes)
                    for t, known in obs.known.items():
                        assert known - obs.played - obs.hand <= hands[t]
                    for t, voids in obs.voids.items():
                        if t != obs.seat:
                            assert not any(obs.layout.effective_suit(c) in voids for c in hands[t])
                    checked += 1
            r.act(getattr(h, d.kind)(obs))
    assert checked >= 6
