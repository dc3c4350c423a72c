"""Bad input the bad-input audit left open: a ``ValueError`` naming what is wrong instead of
a silent translation or an impossible score.

* ``Layout.to_layout_bits`` / ``Layout.to_universal`` dropped cards outside the layout's
  deck (and bits past its card count) without a word, and took floats and bools as
  bit-boards;
* ``analysis.evaluate(kitty=...)`` counted the points of a kitty that held cards outside
  the deck or cards that were also in a hand;
* Clover's scorer took any meld total, however far above what a round can hold.

Each bad-input case failed before these checks; the valid-input cases keep the checks from
refusing what is fine."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import analysis
from trickcore import CardSet, get_game
from trickcore.deals import random_deals
from trickcore.games.clover import trick_meld_value
from trickcore.scoring import hand_melds, score

HEARTS = get_game("goathead3").layout("hearts")   # 20 cards: A 10 K Q J, no 9s
DEAL = np.array([[CardSet(h).mask for h in ("JC AS", "QH 10S", "KS QS")]], dtype=np.uint64)


# --------------------------------------------------------------- layout translations

@pytest.mark.parametrize("hands, match", [
    # 9♣ is no Goathead card: it used to vanish from the translated hand
    (DEAL | np.uint64(CardSet("9C").mask), r"9♣ not in the deck of goathead3/hearts \(first at \[0, 0\]\)"),
    (np.array([CardSet("AH 9H 2S").mask], dtype=np.uint64), "2♠ 9♥ not in the deck of goathead3/hearts"),
    (CardSet("7D").mask, "7♦ not in the deck"),
    ([1.5], "universal bit-boards"),           # used to be truncated to 1
    (np.array([1.0]), "universal bit-boards"),
    ([True], "universal bit-boards"),
    ([-1], "universal bit-boards"),
    (np.array([-1], dtype=np.int64), "universal bit-boards"),  # numpy would wrap it
    ("AH", "universal bit-boards"),
    (None, "universal bit-boards"),
])
def test_to_layout_bits(hands, match):
    with pytest.raises(ValueError, match=match):
        HEARTS.to_layout_bits(hands)


@pytest.mark.parametrize("masks, match", [
    # layout bit 20 is past the 20 cards of goathead3/hearts: it used to be dropped
    (np.array([[1, 1 << 20]], dtype=np.uint64), r"layout bit 20 past the 20 cards of goathead3/hearts \(first at \[0, 1\]\)"),
    (np.array([(1 << 63) | (1 << 21) | 1], dtype=np.uint64), r"layout bits 21, 63 past the 20 cards"),
    ([0.5], "layout bit-boards"),
    ([-3], "layout bit-boards"),
    (np.array([True]), "layout bit-boards"),
])
def test_to_universal(masks, match):
    with pytest.raises(ValueError, match=match):
        HEARTS.to_universal(masks)


def test_translations_still_take_valid_input():
    # uint64 and int64 arrays, plain ints, lists of CardSets, empty arrays, any shape
    bits = HEARTS.to_layout_bits(DEAL)
    assert bits.shape == DEAL.shape and (HEARTS.to_universal(bits) == DEAL).all()
    assert (HEARTS.to_layout_bits(DEAL.astype(np.int64)) == bits).all()
    assert HEARTS.to_layout_bits([CardSet("JC AS"), CardSet("QH 10S")]).tolist() == bits[0, :2].tolist()
    assert int(HEARTS.to_universal(int(HEARTS.to_layout_bits(CardSet("AH").mask)))) == CardSet("AH").mask
    assert HEARTS.to_layout_bits([]).shape == (0,)
    assert HEARTS.to_universal(np.zeros((0, 3), dtype=np.uint64)).shape == (0, 3)
    full = get_game("hearts").layout("hearts")     # 52 cards: every card of a full deck is fine
    every = np.array([full.deck.mask], dtype=np.uint64)
    assert (full.to_universal(full.to_layout_bits(every)) == every).all()


# ------------------------------------------------------------------ evaluate's kitty

def _goat_deals():
    return random_deals("goathead3", 2, seed=1)


def _lowest(mask):
    """The lowest card of a bit-board, as a bit-board."""
    return int(mask) & -int(mask)


@pytest.mark.parametrize("kitty, match", [
    # 9♣ is no Goathead card: its 0 points used to count for the declarer unremarked
    (lambda d: np.array([d[0, 3], CardSet("9C").mask], dtype=np.uint64), "kitty of deal row 1: 9♣ not in the deck of goathead3/hearts"),
    # a card in seat 2's hand and in the kitty: its points used to count twice
    (lambda d: np.array([d[0, 3], int(d[1, 3]) | _lowest(d[1, 2])], dtype=np.uint64), r"kitty of deal row 1: .+ also in seat 2's hand"),
    (lambda d: d[:, 3].astype(np.float64), "kitty must be"),
    (lambda d: d[:1, 3], r"kitty must be .*one per deal \(2\)"),   # used to be broadcast
    (lambda d: np.array([-1, 0]), "kitty must be"),
])
def test_evaluate_checks_the_kitty(kitty, match):
    deals = _goat_deals()
    with pytest.raises(ValueError, match=match):
        analysis.evaluate("goathead3", "hearts", deals, kitty=kitty(deals))


def test_evaluate_checks_the_kitty_column_when_no_kitty_is_given():
    # the deals' last column is the kitty then, and was taken as unchecked
    deals = _goat_deals()
    deals[0, 3] |= np.uint64(_lowest(deals[0, 1]))
    with pytest.raises(ValueError, match=r"kitty column of deal row 0: .+ also in seat 1's hand"):
        analysis.evaluate("goathead3", "hearts", deals)


def test_evaluate_takes_a_valid_kitty():
    # after an exchange the kitty is the buried cards: seat 0 swaps its lowest card for the
    # kitty's, so the hands and the kitty stay disjoint
    deals = _goat_deals()
    ex = deals.copy()
    for row in ex:
        give, take = _lowest(row[0]), _lowest(row[3])
        row[0], row[3] = (int(row[0]) & ~give) | take, (int(row[3]) & ~take) | give
    f = analysis.evaluate("goathead3", "hearts", ex, kitty=ex[:, 3], exchanged=True)
    assert len(f) == 2 and f["exchanged"].all()
    assert (f["kitty_points"] >= 0).all()


# ----------------------------------------------------------------- Clover meld totals

def _clover_row(contract="clubs", **melds):
    cols = dict(contract=contract, declarer=0, side_mask=5, side_points=100, side_hand_melds=0,
                side_trick_melds=0, opp_hand_melds=0, opp_trick_melds=0)
    cols.update(melds)
    return pd.DataFrame({k: [v] for k, v in cols.items()})


@pytest.mark.parametrize("row, rules, match", [
    (_clover_row(side_hand_melds=530), {}, r"'side_hand_melds' has 530 \(row 0\), above 520"),
    (_clover_row(opp_hand_melds=10**6), {}, r"'opp_hand_melds' has 1000000 \(row 0\), above 520"),
    # no-trump has no Bell: 20 less in hand
    (_clover_row("notrump", side_hand_melds=510), {}, r"'side_hand_melds' has 510 \(row 0\), above 500"),
    (_clover_row(side_hand_melds=580), {"four_low_ranks": "jass"}, r"'side_hand_melds' has 580 .*above 570"),
    (_clover_row(side_trick_melds=710), {}, r"'side_trick_melds' has 710 \(row 0\), above 700"),
    (_clover_row(opp_trick_melds=800), {"four_low_ranks": "jass"}, r"'opp_trick_melds' has 800 .*above 790"),
])
def test_clover_meld_columns_have_an_upper_bound(row, rules, match):
    with pytest.raises(ValueError, match=match):
        score("clover", row, rules)


def test_clover_meld_bounds_are_reached():
    # each bound is a total some round can hold, so no valid round is refused
    def team(a, b, trump):
        return hand_melds(a, trump) + hand_melds(b, trump), \
            hand_melds(a, trump, four_low_ranks="jass") + hand_melds(b, trump, four_low_ranks="jass")

    # four jacks and four aces; four kings and four queens with the Bell
    assert team("JC JD JH JS AC AD AH AS", "KC KD KH KS QC QD QH QS", "C")[0] == 520
    assert team("JC JD JH JS AC AD AH AS", "KC KD KH KS QC QD QH QS", None)[0] == 500
    assert team("JC JD JH JS 9C 9D 9H 9S", "KC KD KH KS QC QD QH QS", "C")[1] == 570
    assert team("JC JD JH JS 9C 9D 9H 9S", "KC KD KH KS QC QD QH QS", None)[1] == 550
    # every trick to one team: the four sets of J, A, K, Q and four runs 10 9 8 7
    tricks = [["J"] * 4, ["A"] * 4, ["K"] * 4, ["Q"] * 4] + [["10", "9", "8", "7"]] * 4
    assert sum(trick_meld_value(t, bell=False) for t in tricks) == 700
    # 'jass': every rank a set of four (the 8s and 7s a set of three, 20)
    sets = [[r] * 4 for r in ("J", "9", "A", "K", "Q", "10", "8", "7")]
    assert sum(trick_meld_value(t, bell=False, four_low_ranks="jass") for t in sets) == 790
    at_bound = _clover_row(side_hand_melds=520, opp_hand_melds=520, side_trick_melds=700, opp_trick_melds=0)
    assert score("clover", at_bound)["made"].item()
    jass = _clover_row("notrump", side_hand_melds=550, side_trick_melds=790)
    assert score("clover", jass, {"four_low_ranks": "jass"})["made"].item()


def _most_trick_melds(four_low_ranks: str, bell: bool) -> int:
    """The most trick-meld points 8 tricks can hold, by exhaustive search over the ways to
    split the 32 cards' ranks into 8 tricks of 4 (suits ignored, which can only raise the
    total: the bound stays an upper bound), each trick scored by the game's own meld rule.
    With ``bell``, the trump Q and K are told apart so a trick holding both adds the Bell."""
    import itertools
    from functools import lru_cache

    from trickcore.games.clover import BELL_VALUE, _best_partition

    # rank types: 0..7 are 7 8 9 10 J Q K A; with the Bell, 8 = trump Q and 9 = trump K
    natural = list(range(8)) + ([5, 6] if bell else [])
    start = (4, 4, 4, 4, 4, 3, 3, 4, 1, 1) if bell else (4,) * 8

    @lru_cache(maxsize=None)
    def best(state):
        if not any(state):
            return 0
        first = next(i for i, c in enumerate(state) if c)    # the trick holding the lowest type
        rest = list(state)
        rest[first] -= 1
        types = [i for i, c in enumerate(rest) for _ in range(min(c, 3))]
        top = -1
        for combo in set(itertools.combinations(types, 3)):
            left = list(rest)
            for i in combo:
                left[i] -= 1
            if min(left) < 0:
                continue
            cards = (first,) + combo
            value = _best_partition(tuple(sorted(natural[i] for i in cards)), four_low_ranks)
            if bell and 8 in cards and 9 in cards:
                value += BELL_VALUE
            top = max(top, value + best(tuple(left)))
        return top

    return best(start)


@pytest.mark.slow
@pytest.mark.parametrize("four_low_ranks", ["set_of_three", "jass"])
def test_clover_trick_meld_bound_is_the_exhaustive_maximum(four_low_ranks):
    from trickcore.scoring.clover import TRICK_MELD_MAX

    found = max(_most_trick_melds(four_low_ranks, bell) for bell in (False, True))
    assert found == TRICK_MELD_MAX[four_low_ranks]
