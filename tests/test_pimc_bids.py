"""PIMC bidding: legal, reproducible, blind to unseen cards, sensible on clear hands."""

from __future__ import annotations

import numpy as np
import pytest

from trickcore.cards import CardSet
from trickcore.games import get_game
from trickcore.policies import HeuristicPolicy, PIMCPolicy
from trickcore.rounds import play_round, start_round


def reshuffle(hands, kitty, keep, rng):
    """The same deal with every card outside the seats in ``keep`` (kitty included) dealt
    again at random, same hand and kitty sizes (as in ``test_policies``)."""
    hands = [CardSet(h) for h in hands]
    pool = CardSet(kitty)
    for s, h in enumerate(hands):
        if s not in keep:
            pool |= h
    cards = list(pool)
    rng.shuffle(cards)
    out, i = [], 0
    for s, h in enumerate(hands):
        if s in keep:
            out.append(h)
        else:
            out.append(CardSet(cards[i:i + len(h)]))
            i += len(h)
    return out, CardSet(cards[i:])


def deal(game, seed):
    r = start_round(game, seed=seed)
    return list(r.hands), CardSet(r.kitty)

BID_GAMES = [("goathead3", {}), ("goathead4", {}), ("sheepshead", {}),
             ("sheepshead", {"partner": "called_ace"}), ("ohhell", {"hand_size": 4})]


def decide(policy, obs):
    return getattr(policy, obs.kind)(obs)


def first_decision(game, rules, seed):
    r = start_round(game, seed=seed, **rules)
    return r, r.observe(r.pending.seat)


@pytest.mark.parametrize("game,rules", BID_GAMES)
def test_pimc_bids_are_legal_and_reproducible(game, rules):
    for seed in range(4):
        r, obs = first_decision(game, rules, seed)
        a = decide(PIMCPolicy(bid_samples=6, seed=seed), obs)
        assert a in obs.legal, (game, seed, a, obs.legal)
        assert decide(PIMCPolicy(bid_samples=6, seed=seed), obs) == a
    # whole rounds where every seat bids with PIMC: every answer passes the round's checks
    n = get_game(game).n_seats
    pols = [PIMCPolicy(samples=2, bid_samples=4, seed=s, max_cards=24, shortlist=2) for s in range(n)]
    a = play_round(game, pols, seed=9, **rules)
    pols = [PIMCPolicy(samples=2, bid_samples=4, seed=s, max_cards=24, shortlist=2) for s in range(n)]
    b = play_round(game, pols, seed=9, **rules)
    assert a.bids == b.bids and a.payouts == b.payouts


def test_bids_later_in_the_auction_stay_legal():
    # Goathead 3p: seat 1 bids hearts, seat 2 answers with PIMC from the higher contracts
    for seed in range(3):
        r = start_round("goathead3", seed=seed, dealer=0)
        r.act("hearts")
        obs = r.observe(2)
        a = PIMCPolicy(bid_samples=6, seed=1).bid(obs)
        assert a in obs.legal and a not in ("diamonds", "hearts")


def test_goathead3_bid_ignores_unseen_cards():
    rng = np.random.default_rng(10)
    for seed in range(4):
        hands, kitty = deal("goathead3", seed)
        answers = set()
        for k in range(4):
            h, kit = (hands, kitty) if k == 0 else reshuffle(hands, kitty, {1}, rng)
            r = start_round("goathead3", hands=h, kitty=kit, dealer=0)
            answers.add(PIMCPolicy(bid_samples=6, seed=2).bid(r.observe(1)))
        assert len(answers) == 1, (seed, answers)


def test_goathead4_bid_ignores_unseen_cards():
    rng = np.random.default_rng(11)
    for seed in range(4):
        hands, kitty = deal("goathead4", seed)
        answers = set()
        for k in range(4):
            h, kit = (hands, kitty) if k == 0 else reshuffle(hands, kitty, {1, 2}, rng)
            r = start_round("goathead4", hands=h, kitty=kit, dealer=0)
            r.act("diamonds")                              # seat 1 opens; seat 2 answers
            answers.add(PIMCPolicy(bid_samples=6, seed=2).bid(r.observe(2)))
        assert len(answers) == 1, (seed, answers)


@pytest.mark.parametrize("rules", [{}, {"partner": "called_ace"}])
def test_sheepshead_pick_ignores_unseen_cards(rules):
    rng = np.random.default_rng(12)
    for seed in range(3):
        hands, kitty = deal("sheepshead", seed)
        answers = set()
        for k in range(3):
            # the blind is hidden too: it is reshuffled with the other seats' cards
            h, kit = (hands, kitty) if k == 0 else reshuffle(hands, kitty, {1}, rng)
            r = start_round("sheepshead", hands=h, kitty=kit, dealer=0, **rules)
            answers.add(PIMCPolicy(bid_samples=6, seed=2).pick_or_pass(r.observe(1)))
        assert len(answers) == 1, (seed, answers)


def test_ohhell_bid_ignores_unseen_cards():
    rng = np.random.default_rng(13)
    for seed in range(4):
        r0 = start_round("ohhell", seed=seed, hand_size=5)
        hands, kitty = list(r0.hands), CardSet(r0.kitty)
        answers = set()
        for k in range(4):
            # the dealer's turned card is public: keep the dealer (0) and the bidder (1)
            h, kit = (hands, kitty) if k == 0 else reshuffle(hands, kitty, {0, 1}, rng)
            r = start_round("ohhell", hands=h, kitty=kit, dealer=0, seed=5, hand_size=5)
            assert r.pending.seat == 1
            answers.add(PIMCPolicy(bid_samples=6, seed=2).bid(r.observe(1)))
        assert len(answers) == 1, (seed, answers)


def fixed_deal(game, mine, seat, kitty=None):
    """A deal where ``seat`` holds ``mine`` (and the kitty is ``kitty``, if given) and the
    rest of the deck is dealt in order."""
    g = get_game(game)
    m = CardSet.parse(mine)
    k = CardSet.parse(kitty) if kitty else CardSet()
    rest = sorted(g.deck - m - k)
    hands, i = [], 0
    for s in range(g.n_seats):
        if s == seat:
            hands.append(m)
        else:
            hands.append(CardSet(rest[i:i + g.hand_size]))
            i += g.hand_size
    return hands, (k if kitty else CardSet(rest[i:]))


def test_goathead3_strong_hand_bids_and_weak_hand_passes():
    order = ("diamonds", "hearts", "nil", "spades", "clubs", "court")
    hands, kitty = fixed_deal("goathead3", "JC JS JH JD AH 10H", 1)
    obs = start_round("goathead3", hands=hands, kitty=kitty, dealer=0).observe(1)
    a = PIMCPolicy(seed=0).bid(obs)
    assert a in order and order.index(a) >= order.index("hearts"), a
    for weak in ("QD KD QC QS KS QH", "KD QD JD KS QH KC"):
        hands, kitty = fixed_deal("goathead3", weak, 1)
        obs = start_round("goathead3", hands=hands, kitty=kitty, dealer=0).observe(1)
        assert PIMCPolicy(seed=0).bid(obs) == "pass", weak


def test_sheepshead_strong_hand_picks_and_weak_hand_passes():
    hands, kitty = fixed_deal("sheepshead", "QC QS QH QD JC JS", 1)
    obs = start_round("sheepshead", hands=hands, kitty=kitty, dealer=0).observe(1)
    assert PIMCPolicy(seed=0).pick_or_pass(obs) is True
    hands, kitty = fixed_deal("sheepshead", "7H 8H 7S 8S 7C 8C", 1)
    obs = start_round("sheepshead", hands=hands, kitty=kitty, dealer=0).observe(1)
    assert PIMCPolicy(seed=0).pick_or_pass(obs) is False


def test_ohhell_bids_follow_the_hand():
    # five top spades with spades trump: five tricks; five low plain cards: none
    hands, kitty = fixed_deal("ohhell", "AS KS QS JS 10S", 1)
    # the dealer's shown card must be a spade for spades to be trump: give it spades only
    r = start_round("ohhell", hands=[CardSet.parse("9S 8S 7S 6S 5S"), hands[1],
                                     *[CardSet(sorted(get_game("ohhell").deck - CardSet.parse(
                                         "AS KS QS JS 10S 9S 8S 7S 6S 5S"))[i * 5:(i + 1) * 5]) for i in (0, 1)]],
                    dealer=0, seed=1, hand_size=5)
    assert r.layout.contract == "spades"
    assert PIMCPolicy(seed=0).bid(r.observe(1)) == 5
    r = start_round("ohhell", hands=[CardSet.parse("9S 8S 7S 6S 5S"), CardSet.parse("2C 3C 2D 3D 2H"),
                                     CardSet.parse("AC KC AD KD AH"), CardSet.parse("QC QD QH KH JH")],
                    dealer=0, seed=1, hand_size=5)
    assert PIMCPolicy(seed=0).bid(r.observe(1)) == 0


class _BidsOne(HeuristicPolicy):
    """A fallback that always bids one trick: any other bid came from the solver."""

    def bid(self, obs):
        return 1 if 1 in obs.legal else super().bid(obs)


def test_full_hand_trick_bids_are_solved_and_hearts_passes_stay_with_the_fallback():
    # the dealer's left holds all thirteen spades: thirteen sure tricks in every sample
    spades = CardSet.parse("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S")
    rest = sorted(get_game("spades").deck - spades)
    hands = [CardSet(rest[0:13]), spades, CardSet(rest[13:26]), CardSet(rest[26:39])]
    r = start_round("spades", hands=hands, kitty=CardSet(), dealer=0, seed=1)
    obs = r.observe(r.pending.seat)
    assert obs.seat == 1 and obs.phase == "bid"
    assert PIMCPolicy(seed=0, bid_samples=3, fallback=_BidsOne()).bid(obs) == 13
    # above max_trick_deal_cards the fallback bids
    assert PIMCPolicy(seed=0, fallback=_BidsOne(), max_trick_deal_cards=51).bid(obs) == 1
    # a Hearts pass (a full deal of the points game) stays with the fallback
    r = start_round("hearts", seed=1, round_index=0)
    obs = r.observe(r.pending.seat)
    assert obs.kind == "pass_cards"
    assert PIMCPolicy(seed=0).pass_cards(obs) == HeuristicPolicy().pass_cards(obs)
    # Oh Hell with ten cards (40 in the hands) is solved; above the limits it is not
    r = start_round("ohhell", seed=1, hand_size=10)
    obs = r.observe(r.pending.seat)
    assert PIMCPolicy(seed=0, max_trick_deal_cards=39).bid(obs) == HeuristicPolicy().bid(obs)


def test_a_full_random_spades_bid_is_legal_and_reproducible():
    r = start_round("spades", seed=4)
    obs = r.observe(r.pending.seat)
    bids = {PIMCPolicy(seed=2, bid_samples=2).bid(obs) for _ in range(2)}
    assert len(bids) == 1 and bids <= set(obs.legal)


def test_solve_bids_off_gives_the_fallback_bids():
    for seed in range(3):
        r, obs = first_decision("goathead3", {}, seed)
        assert PIMCPolicy(seed=0, solve_bids=False).bid(obs) == HeuristicPolicy().bid(obs)
    # and the raise after the exchange
    r = start_round("goathead3", seed=3, dealer=0)
    r.act("diamonds").act("pass").act("pass").act(True).act(r.pending.legal[:2])
    obs = r.observe(r.pending.seat)
    assert obs.phase == "raise"
    assert PIMCPolicy(seed=0, solve_bids=False).bid(obs) == HeuristicPolicy().bid(obs)
