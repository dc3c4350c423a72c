"""The compiled rules kernels agree with the plain-Python reference of the rule texts.

Property tests: every hypothesis example draws a seed and builds, with numpy, a batch of
random positions for every layout of a game (every contract, every combination of the rule
options that change layouts): a hand, the cards already in the current trick, the trick
index, the cards of earlier tricks and their leads; and random tricks, complete and partial.  Hands are sometimes loaded with one
suit and earlier tricks sometimes starved of one suit, so that voids, "holds only hearts"
and unbroken suits come up often.  ``Layout.core.legal_moves_batch`` and
``trick_winners_batch`` (and Clover's ``trick_meld_values``) must give exactly what
:mod:`trickcore.reference` gives; at least 100,000 positions and 100,000 tricks per game
(and 25,000 Clover trick-meld values, whose brute-force reference is slower).

Then unit tests of each special rule on hand-made positions.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trickcore.cards import Card, CardSet, parse_hand
from trickcore.games import GAME_IDS, get_game
from trickcore.reference import (
    reference_legal_moves,
    reference_trick_melds,
    reference_trick_winner,
)

POSITIONS_PER_GAME = 100_000
BATCH = 4_000  # positions per hypothesis example, spread over the game's layouts
EXAMPLES = math.ceil(POSITIONS_PER_GAME / BATCH) + 2

#: Card object of each universal id (None for ids that are no card), to turn numpy rows of
#: ids into lists of cards at C speed.
CARDS = np.array([Card(i) if i % 16 < 13 else None for i in range(64)], dtype=object)


def layout_configs(game_id):
    """(contract, rules) for every contract and every combination of layout options."""
    game = get_game(game_id)
    names = game.layout_options
    choices = [list(game.options[n].choices) for n in names]
    return [(c, dict(zip(names, combo))) for c in game.contracts for combo in itertools.product(*choices)]


class Prepared:
    """A layout with the numpy tables the position generator needs."""

    def __init__(self, game_id, contract, rules):
        self.game_id, self.contract, self.rules = game_id, contract, rules
        self.layout = get_game(game_id).layout(contract, **rules)
        self.deck = np.array(sorted(int(c) for c in self.layout.deck), dtype=np.int64)
        self.bits = np.uint64(1) << self.deck.astype(np.uint64)
        self.natural_suit = self.deck >> 4
        # Effective suit of each universal id: the compiled API's encoding of the led suit.
        self.eff = np.full(64, -1, dtype=np.int64)
        for c in self.layout.deck:
            self.eff[int(c)] = self.layout.effective_suit(c)
        self.eff_of_deck = self.eff[self.deck]

    def _order(self, rng, key):
        order = np.argsort(key, axis=1, kind="stable")
        rank = np.empty_like(order)
        rows = np.arange(key.shape[0])[:, None]
        rank[rows, order] = np.arange(key.shape[1])[None, :]
        return order, rank

    def check_legal_moves(self, rng, n_rows):
        lay, n, H, N = self.layout, self.layout.n_seats, self.layout.hand_size, len(self.deck)
        t = rng.integers(0, H, n_rows)
        k = rng.integers(0, n, n_rows)
        m, p = H - t, t * n
        # The hand: sometimes loaded with one natural suit.
        key = rng.random((n_rows, N))
        loaded = rng.random(n_rows) < 0.3
        suit = rng.integers(0, 4, n_rows)
        key -= 0.7 * (loaded[:, None] & (self.natural_suit[None, :] == suit[:, None]))
        o1, r1 = self._order(rng, key)
        in_hand = r1 < m[:, None]
        # The current trick: any cards outside the hand.
        key = rng.random((n_rows, N)) + 10.0 * in_hand
        o2, r2 = self._order(rng, key)
        in_trick = r2 < k[:, None]
        # Earlier tricks: outside hand and trick; sometimes starved of one natural suit.
        key = rng.random((n_rows, N)) + 10.0 * (in_hand | in_trick)
        starved = rng.random(n_rows) < 0.5
        suit = rng.integers(0, 4, n_rows)
        key += 2.0 * (starved[:, None] & (self.natural_suit[None, :] == suit[:, None]))
        o3, r3 = self._order(rng, key)
        earlier = r3 < p[:, None]
        leads = r3 < t[:, None]

        hands = np.bitwise_or.reduce(np.where(in_hand, self.bits, np.uint64(0)), axis=1)
        played = np.bitwise_or.reduce(np.where(earlier | in_trick, self.bits, np.uint64(0)), axis=1)
        first = self.deck[o2[:, 0]]
        led_suit = np.where(k > 0, self.eff[first], -1)
        suits_led = np.bitwise_or.reduce(np.where(leads, 1 << self.eff_of_deck, 0), axis=1)
        got = lay.core.legal_moves_batch(hands, led_suit.astype(np.int8), t.astype(np.int8), played,
                                         suits_led.astype(np.uint8))

        hand_l, trick_l, earlier_l = (CARDS[self.deck[o]].tolist() for o in (o1, o2, o3))
        got_l = got.tolist()
        for i, (ti, ki, mi, pi) in enumerate(zip(t.tolist(), k.tolist(), m.tolist(), p.tolist())):
            hand = hand_l[i][:mi]
            trick = trick_l[i][:ki]
            before = earlier_l[i][:pi]
            want = reference_legal_moves(
                self.game_id, self.contract, hand, trick, trick_index=ti, played=before,
                earlier_leads=before[:ti], rules=self.rules,
            )
            if want.mask != got_l[i]:
                pytest.fail(
                    f"{lay!r}: hand {CardSet(hand)}, trick {[str(c) for c in trick]}, trick index {t[i]}, "
                    f"earlier {CardSet(before)}, leads {[str(c) for c in before[: t[i]]]}: "
                    f"compiled {CardSet(int(got[i]))}, reference {want}"
                )
        return n_rows

    def check_trick_winners(self, rng, n_rows):
        """Half complete tricks, half of one random length (the winner so far)."""
        n, half = self.layout.n_seats, n_rows // 2
        return (self._check_trick_winners(rng, n_rows - half, n)
                + self._check_trick_winners(rng, half, int(rng.integers(1, n + 1))))

    def _check_trick_winners(self, rng, n_rows, n):
        lay, N = self.layout, len(self.deck)
        key = rng.random((n_rows, N))
        # Half the tricks crowd one effective suit, so that following and trumping are common.
        crowded = rng.random(n_rows) < 0.5
        suit = rng.integers(0, len(lay.suits), n_rows)
        key -= 0.6 * (crowded[:, None] & (self.eff_of_deck[None, :] == suit[:, None]))
        order = np.argsort(key, axis=1)[:, :n]
        tricks = self.deck[order]
        got = lay.core.trick_winners_batch(tricks.astype(np.int8)).tolist()
        for i, cards in enumerate(CARDS[tricks].tolist()):
            want = reference_trick_winner(self.game_id, self.contract, cards)
            if want != got[i]:
                pytest.fail(f"{lay!r}: trick {[str(c) for c in cards]}: compiled {got[i]}, reference {want}")
        return n_rows

    def check_trick_melds(self, rng, n_rows):
        lay, N = self.layout, len(self.deck)
        key = rng.random((n_rows, N))
        # Crowd a window of four natural ranks so that runs and sets are common.
        natural = {r: i for i, r in enumerate((7, 8, 9, 10, 11, 12, 13, 14))}
        rank_ix = np.array([natural[(c & 15) + 2] for c in self.deck])
        start = rng.integers(0, 5, n_rows)
        crowded = rng.random(n_rows) < 0.7
        window = (rank_ix[None, :] >= start[:, None]) & (rank_ix[None, :] < start[:, None] + 4)
        key -= 0.8 * (crowded[:, None] & window)
        order = np.argsort(key, axis=1)[:, :4]
        tricks = self.deck[order]
        masks = np.bitwise_or.reduce(self.bits[order], axis=1)
        got = lay.core.trick_meld_values(masks)
        for i, cards in enumerate(CARDS[tricks].tolist()):
            want = reference_trick_melds(self.game_id, self.contract, cards, self.rules)
            if want != int(got[i]):
                pytest.fail(f"{lay!r}: trick {[str(c) for c in cards]}: compiled melds {got[i]}, reference {want}")
        return n_rows


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_compiled_rules_agree_with_reference(game_id):
    prepared = [Prepared(game_id, c, r) for c, r in layout_configs(game_id)]
    per_layout = math.ceil(BATCH / len(prepared))
    counts = Counter()

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 2**64 - 1))
    def check(seed):
        rng = np.random.default_rng(seed)
        for prep in prepared:
            counts["positions"] += prep.check_legal_moves(rng, per_layout)
            counts["tricks"] += prep.check_trick_winners(rng, per_layout)
            if prep.layout.trick_meld_table is not None:
                counts["melds"] += prep.check_trick_melds(rng, per_layout // 4)
            counts[prep.layout.name] += per_layout

    check()
    print(f"{game_id}: {counts['positions']} positions, {counts['tricks']} tricks, {counts['melds']} melds "
          f"over {len(prepared)} layouts")
    assert counts["positions"] >= POSITIONS_PER_GAME, counts
    assert counts["tricks"] >= POSITIONS_PER_GAME, counts
    # Every layout was exercised.
    assert all(counts[p.layout.name] > 0 for p in prepared)
    if game_id == "clover":
        assert counts["melds"] >= POSITIONS_PER_GAME // 4


# ---------------------------------------------------------------------------------------
# Targeted rules.  Each case runs on both the compiled layout and the reference.
# ---------------------------------------------------------------------------------------
def both_legal(game, contract, hand, trick=(), *, trick_index=0, played=(), earlier_leads=(), **rules):
    """Legal moves from the compiled layout and from the reference; they must agree."""
    lay = get_game(game).layout(contract, **rules)
    played_all = parse_hand(played) | parse_hand(list(trick))
    suits_led = 0
    for c in earlier_leads:
        suits_led |= 1 << lay.effective_suit(c)
    compiled = lay.legal_moves(hand, trick[0] if trick else None, trick_index=trick_index,
                               played=played_all, suits_led=suits_led)
    ref = reference_legal_moves(game, contract, hand, list(trick), trick_index=trick_index,
                                played=played, earlier_leads=list(earlier_leads), rules=rules)
    assert compiled == ref, (compiled, ref)
    return compiled


def both_winner(game, contract, cards, **rules):
    lay = get_game(game).layout(contract, **rules)
    compiled = lay.trick_winner(cards)
    assert compiled == reference_trick_winner(game, contract, cards)
    return compiled


C = CardSet.parse


class TestHearts:
    def test_two_of_clubs_leads(self):
        assert both_legal("hearts", "hearts", "2♣ A♥ Q♠ 3♦") == C("2♣")
        # Without 2♣ (someone else leads it) or after trick 0 anything unbarred goes.
        assert both_legal("hearts", "hearts", "2♣ 3♦", trick_index=1, played="3♣ 4♣ 5♣ 6♣") == C("2♣ 3♦")

    def test_first_trick_is_safe(self):
        assert both_legal("hearts", "hearts", "A♥ Q♠ 4♦", ["2♣"]) == C("4♦")
        assert both_legal("hearts", "hearts", "A♥ Q♠ 4♦", ["2♣"], points_on_first_trick=True) == C("A♥ Q♠ 4♦")
        # Nothing but points: anything.
        assert both_legal("hearts", "hearts", "A♥ Q♠", ["2♣"]) == C("A♥ Q♠")
        # Following clubs is never affected.
        assert both_legal("hearts", "hearts", "A♥ 3♣", ["2♣"]) == C("3♣")
        # The rule is for the first trick only.
        assert both_legal("hearts", "hearts", "A♥ Q♠ 4♦", ["2♣"], trick_index=1) == C("A♥ Q♠ 4♦")

    def test_jack_of_diamonds_is_not_points_on_the_first_trick(self):
        assert both_legal("hearts", "hearts", "A♥ J♦", ["2♣"], jack_of_diamonds=True) == C("J♦")
        assert get_game("hearts").layout("hearts", jack_of_diamonds=True).points[Card.parse("J♦")] == -10

    def test_hearts_not_led_until_broken(self):
        earlier = "2♣ 3♣ 4♣ 5♣"
        assert both_legal("hearts", "hearts", "A♥ 4♦", trick_index=1, played=earlier) == C("4♦")
        assert both_legal("hearts", "hearts", "A♥ 2♥", trick_index=1, played=earlier) == C("A♥ 2♥")
        broken = "2♣ 3♣ 4♣ 5♥"
        assert both_legal("hearts", "hearts", "A♥ 4♦", trick_index=1, played=broken) == C("A♥ 4♦")

    def test_queen_of_spades_breaks_hearts_only_with_the_option(self):
        earlier = "2♣ 3♣ 4♣ Q♠"
        assert both_legal("hearts", "hearts", "A♥ 4♦", trick_index=1, played=earlier) == C("4♦")
        assert both_legal("hearts", "hearts", "A♥ 4♦", trick_index=1, played=earlier,
                          queen_breaks_hearts=True) == C("A♥ 4♦")

    def test_no_trump(self):
        assert both_winner("hearts", "hearts", ["2♣", "A♠", "3♣", "A♥"]) == 2


class TestSpades:
    def test_spade_leading_variants(self):
        early = dict(trick_index=1, played="2♣ 3♣ 4♣ 5♣")
        assert both_legal("spades", "spades", "A♠ 2♥", **early) == C("2♥")
        assert both_legal("spades", "spades", "A♠ 2♥", **early, spade_leading="after_first_trick") == C("A♠ 2♥")
        assert both_legal("spades", "spades", "A♠ 2♥", spade_leading="after_first_trick") == C("2♥")
        assert both_legal("spades", "spades", "A♠ 2♥", spade_leading="always") == C("A♠ 2♥")
        broken = dict(trick_index=1, played="2♣ 3♣ 4♣ 2♠")
        assert both_legal("spades", "spades", "A♠ 2♥", **broken) == C("A♠ 2♥")
        assert both_legal("spades", "spades", "A♠ K♠", **early) == C("A♠ K♠")

    def test_spades_trump(self):
        assert both_winner("spades", "spades", ["A♥", "2♠", "K♥", "Q♥"]) == 1


class TestGamut:
    def test_nine_of_clubs_leads_the_hearts_game(self):
        assert both_legal("gamut", "hearts", "9♣ A♥ 7♠") == C("9♣")
        assert both_legal("gamut", "hearts", "A♥ 7♠") == C("7♠")  # hearts unbroken anyway

    def test_hearts_and_spades_not_led_until_broken(self):
        e = dict(trick_index=1, played="9♣ 10♣ J♣ Q♣")
        assert both_legal("gamut", "hearts", "A♥ 7♠", **e) == C("7♠")
        assert both_legal("gamut", "hearts", "A♥ 8♥", **e) == C("A♥ 8♥")
        assert both_legal("gamut", "spades", "A♠ 7♥", **e) == C("7♥")
        assert both_legal("gamut", "spades", "A♠ 7♥", trick_index=1, played="9♣ 10♣ J♣ 7♠") == C("A♠ 7♥")

    def test_jack_of_spades_is_a_club(self):
        assert both_legal("gamut", "clubs", "J♠ A♠ 7♥", ["7♣"]) == C("J♠")
        assert both_legal("gamut", "clubs", "J♠ 7♥", ["A♠"]) == C("J♠ 7♥")  # void in spades
        assert both_winner("gamut", "clubs", ["A♠", "J♠", "K♠", "Q♠"]) == 1
        assert both_winner("gamut", "clubs", ["A♣", "J♠", "J♣", "7♣"]) == 2
        lay = get_game("gamut").layout("clubs")
        assert len(lay.suits[lay.suit_names.index("spades")]) == 7

    def test_folded_layouts(self):
        for n in (3, 2, 1):
            lay = get_game("gamut").layout(f"clubs_{n}")
            assert (lay.n_seats, lay.hand_size, lay.kitty_size) == (n, 8, 32 - 8 * n)
        assert both_winner("gamut", "clubs_2", ["A♥", "7♣"]) == 1


class TestSheepshead:
    def test_called_ace_must_be_played_when_its_suit_is_first_led(self):
        assert both_legal("sheepshead", "called_ace_hearts", "A♥ 7♥ Q♣", ["10♥"]) == C("A♥")
        # Not the first heart lead any more: free to follow with either heart.
        assert both_legal("sheepshead", "called_ace_hearts", "A♥ 7♥ Q♣", ["10♥"], trick_index=1,
                          played="K♥ 9♥ 8♥ Q♦ J♦", earlier_leads=["K♥"]) == C("A♥ 7♥")
        # Another suit led first does not count.
        assert both_legal("sheepshead", "called_ace_hearts", "A♥ 7♥ Q♣", ["10♥"], trick_index=1,
                          played="A♣ 10♣ K♣ 9♣ 8♣", earlier_leads=["A♣"]) == C("A♥")
        # A trump lead is not a heart lead.
        assert both_legal("sheepshead", "called_ace_hearts", "A♥ 7♥ Q♣", ["7♦"]) == C("Q♣")
        assert both_legal("sheepshead", "called_ten_clubs", "10♣ 7♣ A♥", ["K♣"]) == C("10♣")
        assert both_legal("sheepshead", "jd", "A♥ 7♥ Q♣", ["10♥"]) == C("A♥ 7♥")

    def test_trumps_and_fail(self):
        assert both_legal("sheepshead", "jd", "Q♣ J♥ A♦ A♣", ["7♦"]) == C("Q♣ J♥ A♦")
        assert both_legal("sheepshead", "jd", "Q♣ K♣ A♥", ["A♣"]) == C("K♣")
        assert both_winner("sheepshead", "jd", ["A♣", "10♣", "7♦", "J♦", "K♣"]) == 3
        assert both_winner("sheepshead", "jd", ["Q♦", "J♣", "A♦", "Q♠", "7♦"]) == 3
        assert both_winner("sheepshead", "leaster", ["10♥", "K♥", "A♥", "A♠", "9♥"]) == 2

    def test_sides(self):
        import numpy as np
        hands = np.array([[C(h).mask for h in ("J♦ A♣", "Q♣", "A♥", "K♣", "7♥")]], dtype=np.uint64)
        assert get_game("sheepshead").layout("jd").sides(hands, [1])[0] == 0b00011
        assert get_game("sheepshead").layout("jd").sides(hands, [0])[0] == 0b00001
        assert get_game("sheepshead").layout("called_ace_hearts").sides(hands, [3])[0] == 0b01100
        assert get_game("sheepshead").layout("alone").sides(hands, [3])[0] == 0b01000


class TestGoathead:
    def test_jacks_are_trump(self):
        for g in ("goathead3", "goathead4"):
            assert both_legal(g, "hearts", "J♣ A♥ 10♠", ["Q♥"]) == C("J♣ A♥")
            assert both_legal(g, "hearts", "J♣ A♠ 10♥", ["K♠"]) == C("A♠")   # J♠ is not a spade
            assert both_legal(g, "court", "J♥ A♥ 10♠", ["Q♥"]) == C("A♥")
            assert both_legal(g, "court", "J♥ A♥ 10♠", ["J♦"]) == C("J♥")
            assert both_legal(g, "nil", "J♥ A♥ 10♠", ["Q♥"]) == C("J♥ A♥")   # Nil: jacks are plain
            assert both_winner(g, "diamonds", ["A♣", "Q♦", "K♣"]) == 1
            assert both_winner(g, "diamonds", ["A♦", "J♦", "10♦"]) == 1
            assert both_winner(g, "nil", ["Q♥", "J♥", "K♥"]) == 2
            assert both_winner(g, "leasters", ["A♥", "J♦", "10♥"]) == 1


class TestClover:
    def melds(self, contract, cards, **rules):
        lay = get_game("clover").layout(contract, **rules)
        compiled = int(lay.core.trick_meld_values(np.array([C(cards).mask], dtype=np.uint64))[0])
        assert compiled == reference_trick_melds("clover", contract, cards.split(), rules)
        return compiled

    def test_text_examples(self):
        assert self.melds("hearts", "J♣ 8♣ 10♥ 9♦") == 50
        assert self.melds("clubs", "Q♣ K♣ A♣ 10♠") == 40
        assert self.melds("spades", "Q♣ K♣ A♣ 10♠") == 20   # no Bell without clubs trump

    def test_sets_and_bell(self):
        assert self.melds("notrump", "J♣ J♦ J♥ J♠") == 200
        assert self.melds("notrump", "A♣ A♦ A♥ A♠") == 100
        assert self.melds("notrump", "Q♣ Q♦ Q♥ 7♠") == 20
        assert self.melds("notrump", "10♣ 10♦ 10♥ 10♠") == 20
        assert self.melds("notrump", "9♣ 9♦ 9♥ 9♠", four_low_ranks="jass") == 150
        assert self.melds("notrump", "10♣ 10♦ 10♥ 10♠", four_low_ranks="jass") == 100
        assert self.melds("hearts", "K♥ Q♥ 7♣ 9♦") == 20          # Bell alone
        assert self.melds("hearts", "K♥ Q♥ J♣ 9♦") == 40          # run Q K J (20) + Bell
        assert self.melds("hearts", "K♥ Q♥ K♣ K♦") == 40          # set of three + Bell
        assert self.melds("notrump", "K♥ Q♥ 7♣ 9♦") == 0          # no trump, no Bell
        assert self.melds("clubs", "A♣ K♦ 7♠ 8♠") == 0            # runs do not wrap

    def test_trump_order(self):
        assert both_winner("clover", "hearts", ["A♠", "9♥", "J♥", "7♠"]) == 2
        assert both_winner("clover", "hearts", ["A♥", "9♥", "7♠", "10♥"]) == 1
        assert both_winner("clover", "notrump", ["9♥", "J♥", "10♥", "8♥"]) == 2
