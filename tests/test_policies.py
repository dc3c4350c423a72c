"""Policies: legal answers, information hiding, and PIMC against random play."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from trickcore.cards import CardSet
from trickcore.games import get_game
from trickcore.policies import HeuristicPolicy, PIMCPolicy, Policy, RandomPolicy
from trickcore.policies.pimc import sample_hidden
from trickcore.rounds import play_round, start_round


sys.path.insert(0, str(Path(__file__).resolve().parent))
from round_checks import load_check_round  # noqa: E402

check_round = load_check_round()


def reshuffle(hands, kitty, keep, rng, keep_kitty=False):
    """The same deal with every card outside the seats in ``keep`` (and the kitty, with
    ``keep_kitty``) dealt again at random (same hand sizes, same kitty size)."""
    hands = [CardSet(h) for h in hands]
    pool = CardSet() if keep_kitty else CardSet(kitty)
    for s, h in enumerate(hands):
        if s not in keep:
            pool |= h
    cards = list(pool)
    rng.shuffle(cards)
    out = []
    i = 0
    for s, h in enumerate(hands):
        if s in keep:
            out.append(h)
        else:
            out.append(CardSet(cards[i:i + len(h)]))
            i += len(h)
    return out, (CardSet(kitty) if keep_kitty else CardSet(cards[i:]))


def deal(game, seed):
    r = start_round(game, seed=seed)
    return list(r.hands), CardSet(r.kitty)


def run_to(r, seat, kind, script):
    """Answer with ``script(decision)`` until ``seat`` must take a ``kind`` decision."""
    while not (r.pending.seat == seat and r.pending.kind == kind):
        r.act(script(r.pending))
    return r.observe(seat)


def first_legal(d):
    return d.legal[0] if d.count == 1 else tuple(d.legal[: d.count])


def all_pass_then_lead(d):
    if d.kind == "bid":
        return "pass" if "pass" in d.legal else d.legal[0]
    return first_legal(d)


POLICIES = [("heuristic", lambda: HeuristicPolicy()), ("pimc", lambda: PIMCPolicy(samples=6, seed=3))]


@pytest.mark.parametrize("name,make", POLICIES)
def test_goathead3_decisions_ignore_unseen_cards(name, make):
    rng = np.random.default_rng(0)
    for seed in range(3):
        hands, kitty = deal("goathead3", seed)
        answers = set()
        leads = set()
        follows = set()
        for k in range(4):
            h, kit = (hands, kitty) if k == 0 else reshuffle(hands, kitty, {1}, rng)
            r = start_round("goathead3", hands=h, kitty=kit, dealer=0)
            obs = r.observe(1)
            answers.add(make().bid(obs))
            obs = run_to(r, 1, "play", all_pass_then_lead)   # leasters: seat 1 leads
            leads.add(make().play(obs))
            # seat 2 answers seat 1's lead; seats 1 and 2 fixed, seat 0 and the kitty move
            h2, kit2 = (hands, kitty) if k == 0 else reshuffle(hands, kitty, {1, 2}, rng)
            r = start_round("goathead3", hands=h2, kitty=kit2, dealer=0)
            run_to(r, 1, "play", all_pass_then_lead)
            r.act(HeuristicPolicy().play(r.observe(1)))
            follows.add(make().play(r.observe(2)))
        assert len(answers) == 1 and len(leads) == 1 and len(follows) == 1, (seed, answers, leads, follows)


@pytest.mark.parametrize("name,make", POLICIES)
def test_hidden_partner_goathead4_decisions_ignore_unseen_cards(name, make):
    rng = np.random.default_rng(1)

    def script(d):
        if d.kind == "bid":
            return "hearts" if d.seat == 1 else "pass"
        if d.kind == "exchange":
            return None
        return first_legal(d)

    for seed in range(3):
        hands, kitty = deal("goathead4", seed)
        plays: dict = {}
        for k in range(6):
            h, kit = (hands, kitty) if k == 0 else reshuffle(hands, kitty, {1}, rng)
            r = start_round("goathead4", hands=h, kitty=kit, dealer=0)
            obs = run_to(r, 1, "play", script)
            assert obs.contract == "hearts"
            # a player holding both black jacks announces it: a public fact, so compare
            # only deals that look the same from seat 1
            public = (obs.bids, tuple(sorted((t, c.mask) for t, c in obs.known.items())))
            plays.setdefault(public, set()).add(make().play(obs))
        assert all(len(p) == 1 for p in plays.values()), (seed, plays)


@pytest.mark.parametrize("name,make", [("heuristic", lambda: HeuristicPolicy()),
                                       ("pimc", lambda: PIMCPolicy(samples=2, seed=5))])
def test_hidden_partner_sheepshead_decisions_ignore_unseen_cards(name, make):
    rng = np.random.default_rng(2)

    def script(d):
        if d.kind == "pick_or_pass":
            return d.seat == 1
        return first_legal(d)

    for seed in (4, 5):
        hands, kitty = deal("sheepshead", seed)
        plays, partners = set(), set()
        for k in range(4):
            # seat 1 picks the fixed blind, seat 2 decides; seats 0, 3, 4 swap cards (J♦ too)
            h = hands if k == 0 else reshuffle(hands, kitty, {1, 2}, rng, keep_kitty=True)[0]
            r = start_round("sheepshead", hands=h, kitty=kitty, dealer=0, crack=False, blitz=False)
            obs = run_to(r, 2, "play", script)        # seat 2 answers the picker's lead
            assert obs.contract == "jd" and obs.partner_cards == CardSet.parse("JD")
            plays.add(make().play(obs))
            partners.add(r.partner)
        assert len(plays) == 1, (plays, partners)


def test_observation_shows_only_what_the_seat_may_see():
    r = start_round("hearts", seed=1, passing="none")
    obs = r.observe(0)
    assert obs.hand == r.hands[0] and obs.known == {} and obs.kitty_known == CardSet()
    assert not hasattr(obs, "hands")
    assert obs.unseen(get_game("hearts").deck) == get_game("hearts").deck - r.hands[0]


def test_sampled_worlds_respect_what_the_seat_knows():
    rng = np.random.default_rng(0)
    r = start_round("hearts", seed=2, round_index=0)      # pass left
    for _ in range(4):
        r.act(r.pending.legal[:3])
    while len(r.tricks) < 3:
        r.act(HeuristicPolicy().play(r.observe(r.pending.seat)))
    seat = r.pending.seat
    obs = r.observe(seat)
    for _ in range(20):
        hands, kitty = sample_hidden(obs, rng)
        assert [len(h) for h in hands] == list(obs.hand_sizes)
        assert hands[seat] == obs.hand
        allc = obs.played | kitty
        for h in hands:
            assert not (h & allc)
            allc |= h
        assert allc == get_game("hearts").deck
        for t, cards in obs.known.items():
            assert cards <= hands[t]
        for t, voids in obs.voids.items():
            for c in hands[t]:
                assert obs.layout.effective_suit(c) not in voids


@pytest.mark.parametrize("policy", [RandomPolicy(seed=1), HeuristicPolicy(), PIMCPolicy(samples=2, seed=1)])
def test_policies_follow_the_protocol(policy):
    assert isinstance(policy, Policy)
    for game in ("goathead3", "goathead4", "sheepshead"):
        n = get_game(game).n_seats
        rec = play_round(game, [policy] * n, seed=3)
        assert len(rec.payouts) == n
        check_round(rec)                     # scores, tricks and cards of a real round


class HeuristicBidsRandomPlay(RandomPolicy):
    """The random player of the PIMC comparison: heuristic bids, random cards."""

    def __init__(self, seed):
        super().__init__(seed)
        self.h = HeuristicPolicy()

    def bid(self, obs):
        return self.h.bid(obs)

    def pick_or_pass(self, obs):
        return self.h.pick_or_pass(obs)

    def exchange(self, obs):
        return self.h.exchange(obs)


def test_pimc_beats_random_play_in_goathead():
    """Seat 0 plays the same 60 deals (same bids, same opponents) once with PIMC card play
    and once at random; PIMC must win more, by more than two standard errors."""
    diffs = []
    for seed in range(60):
        opp = lambda k: HeuristicBidsRandomPlay(1000 * k + seed)  # noqa: E731
        a = play_round("goathead3", [PIMCPolicy(samples=6, seed=seed, solve_bids=False), opp(1), opp(2)], seed=seed, dealer=seed % 3)
        b = play_round("goathead3", [HeuristicBidsRandomPlay(seed), opp(1), opp(2)], seed=seed, dealer=seed % 3)
        assert a.contract == b.contract and a.declarer == b.declarer
        diffs.append(a.payouts[0] - b.payouts[0])
    d = np.array(diffs)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() > 2 * se, (d.mean(), se)


class FoldsFirst(HeuristicPolicy):
    """Folds whenever allowed (to reach Gamut Clubs with fewer players)."""

    def fold(self, obs):
        return obs.legal[-1]


@pytest.mark.parametrize("game,rules", [("goathead4", {}), ("sheepshead", {"partner": "called_ace"}),
                                        ("sheepshead", {"no_pick": "leaster"}), ("clover", {}),
                                        ("ohhell", {"hand_size": 4}), ("spades", {})])
def test_pimc_plays_every_kind_of_game(game, rules):
    n = get_game(game).n_seats
    for seed in range(2):
        pols = [PIMCPolicy(samples=2, bid_samples=2, seed=seed, max_cards=24)] + [HeuristicPolicy()] * (n - 1)
        rec = play_round(game, pols, seed=seed, **rules)
        assert len(rec.payouts) == n and rec.tricks
        check_round(rec)                     # scores, tricks and cards of a real round


def test_pimc_in_gamut_clubs_with_folded_players():
    seed = next(s for s in range(200) if start_round("gamut", seed=s).turned.suit_letter == "C")
    # card play only: PIMC's own fold decisions could fold another seat
    pols = [PIMCPolicy(samples=2, seed=1, solve_bids=False), FoldsFirst(), HeuristicPolicy(),
            PIMCPolicy(samples=2, seed=2, solve_bids=False)]
    rec = play_round("gamut", pols, seed=seed, dealer=0)
    assert rec.contract == "clubs_3" and rec.trick_counts[1] == 0


def test_private_moves_are_not_leaked_through_known_cards():
    # A blitz shows the picker's black queens; burying one must not tell the table which.
    hands = ["JD QC QS 7H 8H 9H", "AC AS AH 10C 10S 10H", "KH QH QD JS JH KD",
             "9D 8D 7D KC 9C 8C", "7S 8S 9S KS JC AD"]
    r = start_round("sheepshead", hands=hands, kitty="7C 10D", dealer=4, crack=False)
    r.act(True).act("blitz").act("no")
    assert r.observe(1).known[0] == CardSet.parse("QC QS")
    r.act(("QC", "7H"))                              # bury a shown queen
    assert 0 not in r.observe(1).known               # forgotten, not silently corrected
    obs = r.observe(r.pending.seat)
    hands_, kitty = sample_hidden(obs, np.random.default_rng(0))
    assert [len(h) for h in hands_] == list(obs.hand_sizes)
    # Gamut: the turned card of a dealer who folds is known to lie in the kitty.
    seed = next(s for s in range(200) if start_round("gamut", seed=s).turned.suit_letter == "C")
    r = start_round("gamut", seed=seed, dealer=0)
    r.act(False).act(False).act(False).act(True)     # the dealer folds
    obs = r.observe(1)
    assert r.turned in obs.kitty_known and 0 not in obs.known
    hands_, kitty = sample_hidden(obs, np.random.default_rng(0))
    assert r.turned in kitty and len(hands_[0]) == 0


def test_hidden_deals_are_uniform_over_the_deals_that_fit():
    """PIMC's samples are uniform over every deal of the unseen cards that fits what the
    seat saw.  A Sheepshead position at the fifth trick where all five seats have shown
    voids (heuristic round of seed 17; 1,944 deals fit, enumerated by
    :mod:`analysis.advice`): 20 draws a deal pass a chi-square test against equal
    frequencies, where the constrained dealing that PIMC used before fails it by far."""
    from analysis.advice import _observation, _replay, _worlds
    from trickcore.policies.pimc import HiddenDeals

    rec = play_round("sheepshead", [HeuristicPolicy() for _ in range(5)], seed=17)
    lay = get_game("sheepshead").layout(rec.contract)
    plays = [c for t in rec.tricks for _, c in t.plays]
    seat = rec.tricks[4].leader
    hand = " ".join(str(c) for t in rec.tricks for s, c in t.plays if s == seat)
    pos = _replay(lay, seat, hand, " ".join(map(str, plays[:20])), rec.tricks[0].leader, None, None)
    assert all(pos.voids[t] for t in range(5) if t != seat)
    every, exact = _worlds(pos, "exact", 0, 5000, 0, None)
    assert exact and len(every) == 1944
    index = {(tuple(h.mask for h in hands), kitty.mask): i for i, (hands, kitty) in enumerate(every)}
    deals = HiddenDeals(_observation(pos))

    def chi2_per_dof(draw):
        rng = np.random.default_rng(3)
        counts = np.zeros(len(every))
        for _ in range(20 * len(every)):
            hands, kitty = draw(rng)
            counts[index[(tuple(h.mask for h in hands), kitty.mask)]] += 1
        return float(((counts - 20) ** 2 / 20).sum()) / (len(every) - 1)

    assert chi2_per_dof(deals.draw) < 1.15            # 1 +- 0.03 for a uniform draw
    assert chi2_per_dof(deals.draw_constrained) > 4   # (about 12)
