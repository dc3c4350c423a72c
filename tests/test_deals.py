"""Tests of trickcore.deals: shapes, reproducibility, exact uniformity, fixed cards,
exact enumeration and input validation.

Statistical tests use fixed seeds, so every run is deterministic.  Each statistical test
rejects at significance level ``ALPHA`` = 1e-4 (Bonferroni-divided when one test checks
several cards): for a correct sampler and a random seed, a given test fails with
probability at most 1e-4.  ``test_chi_square_has_power`` shows the same machinery does
reject a classic biased shuffle at these sample sizes.

Exactness (no modulo bias) is not something sampling can show at 64-bit resolution, so it
is checked two other ways: the batched bounded-draw algorithm is verified exhaustively on
a small word size, and the compiled kernel is checked to reproduce, word for word, a
plain-Python reference of that algorithm fed by the same bit-generator stream.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from trickcore import GAME_IDS, get_game
from trickcore._deal import DealPlan
from trickcore.cards import CardSet
from trickcore.deals import (
    BIT_GENERATOR,
    _plan,
    chunk_seeds,
    count_deals,
    deal_chunk,
    enumerate_deals,
    fixed_columns,
    random_deals,
    table_of,
)

ALPHA = 1e-4


# ---------------------------------------------------------------------------------------
# Statistics helpers (no scipy in the test dependencies)
# ---------------------------------------------------------------------------------------
def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x) (series / Lentz continued fraction)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(100_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square with ``df`` degrees of freedom."""
    return _gamma_q(df / 2, x / 2)


def chi2_pvalue(observed, probs) -> float:
    """Pearson goodness-of-fit p-value of counts ``observed`` against ``probs``."""
    observed = np.asarray(observed, dtype=float)
    expected = np.asarray(probs, dtype=float) * observed.sum()
    assert expected.min() >= 5, "merge bins: expected counts below 5"
    stat = float(((observed - expected) ** 2 / expected).sum())
    return chi2_sf(stat, len(observed) - 1)


def test_chi2_sf_known_values():
    # Textbook critical values: the 5% and 0.1% points of chi-square with 1, 3 and 10 df.
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(7.814727903251178, 3) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(29.588298445074418, 10) == pytest.approx(0.001, rel=1e-8)
    # Large df: the median of chi-square(k) is close to k (1 - 2/(9k))^3.
    k = 34649
    assert chi2_sf(k * (1 - 2 / (9 * k)) ** 3, k) == pytest.approx(0.5, abs=1e-3)
    # Closed forms (no scipy here): for even df = 2m, P(X >= x) = P(Poisson(x / 2) < m); for
    # odd df = 2m + 1, erfc(sqrt(x / 2)) + sum_{i=1..m} e^{-x/2} (x/2)^{i-1/2} / Gamma(i + 1/2).
    # Both branches of _gamma_q (series: x/2 < df/2 + 1; continued fraction: above), small
    # and very large df.
    def closed(x, df):
        h, m = x / 2, df // 2
        if df % 2 == 0:
            return math.fsum(math.exp(-h + i * math.log(h) - math.lgamma(i + 1)) for i in range(m))
        return math.erfc(math.sqrt(h)) + math.fsum(math.exp(-h + (i - 0.5) * math.log(h) - math.lgamma(i + 0.5))
                                                   for i in range(1, m + 1))

    for x, df in [(0.5, 1), (9.0, 1), (3.0, 8), (12.0, 8), (7.0, 2), (12.0, 7), (2.0, 7), (150.0, 99),
                  (150.0, 100), (35000.0, 34649), (34000.0, 34649), (35000.0, 34650)]:
        assert chi2_sf(x, df) == pytest.approx(closed(x, df), rel=1e-9), (x, df)


def popcount(a: np.ndarray) -> np.ndarray:
    return np.bitwise_count(np.asarray(a, dtype=np.uint64)).astype(np.int64)


def column_of_card(deals: np.ndarray, card: int) -> np.ndarray:
    """The column (seat or kitty) holding ``card`` in each deal."""
    held = (deals & np.uint64(1 << card)) != 0
    assert (held.sum(axis=1) == 1).all()
    return held.argmax(axis=1)


def check_complete(deals: np.ndarray, table) -> None:
    """Every card dealt exactly once per deal, every column of the right size."""
    assert deals.dtype == np.uint64 and deals.shape[1] == table.n_seats + 1
    assert (np.bitwise_or.reduce(deals, axis=1) == np.uint64(table.deck)).all()
    sizes = popcount(deals)
    assert (sizes.sum(axis=1) == table.deck.bit_count()).all()   # so the columns are disjoint
    expected = [table.hand_size] * table.n_seats + [table.kitty_size]
    assert (sizes == np.array(expected)).all()


# ---------------------------------------------------------------------------------------
# Shapes, sizes, every game
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_deals_full_hands(game_id):
    g = get_game(game_id)
    table = table_of(game_id)
    assert (table.n_seats, table.kitty_size, table.deck) == (g.n_seats, g.kitty_size, g.deck.mask)
    assert table.hand_size == g.hand_size
    deals = random_deals(game_id, 2000, seed=11)
    assert deals.shape == (2000, g.n_seats + 1) and deals.dtype == np.uint64
    check_complete(deals, table)
    assert len({tuple(r) for r in deals.tolist()}) == 2000   # no repeated stream


@pytest.mark.parametrize("hand_size", [1, 5, 10, 13])
def test_ohhell_hand_size_option(hand_size):
    deals = random_deals("ohhell", 500, seed=hand_size, hand_size=hand_size)
    assert popcount(deals[:, :4]).tolist() == [[hand_size] * 4] * 500
    assert (popcount(deals[:, 4]) == 52 - 4 * hand_size).all()   # undealt cards: the kitty
    check_complete(deals, table_of("ohhell", hand_size=hand_size))


def test_empty_and_tiny_requests():
    assert random_deals("goathead3", 0, seed=1).shape == (0, 4)
    assert deal_chunk("goathead3", np.random.SeedSequence(1), 0).shape == (0, 4)
    assert random_deals("goathead3", 1, seed=1, chunk_size=1).shape == (1, 4)


def test_layout_and_game_object_give_the_same_deals():
    g = get_game("goathead4")
    a = random_deals("goathead4", 300, seed=5)
    assert (random_deals(g, 300, seed=5) == a).all()
    assert (random_deals(g.layout("clubs"), 300, seed=5) == a).all()


# ---------------------------------------------------------------------------------------
# Reproducibility and chunking
# ---------------------------------------------------------------------------------------
def test_same_seed_same_deals_and_different_seed_different_deals():
    a = random_deals("sheepshead", 5000, seed=123)
    assert (random_deals("sheepshead", 5000, seed=123) == a).all()
    assert not (random_deals("sheepshead", 5000, seed=124) == a).all()
    ss = np.random.SeedSequence(99)
    b = random_deals("sheepshead", 100, seed=ss)
    assert (random_deals("sheepshead", 100, seed=ss) == b).all()   # not advanced by use
    assert (random_deals("sheepshead", 100, seed=99) == b).all()


def test_unseeded_runs_differ():
    a = random_deals("goathead3", 200)
    b = random_deals("goathead3", 200)
    check_complete(a, table_of("goathead3"))
    assert not (a == b).all()


def test_chunk_seeds_are_the_spawned_children():
    for seed in (0, 7, [1, 2, 3], np.random.SeedSequence(42).spawn(2)[1]):
        mine = chunk_seeds(seed, 5)
        root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        ref = np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key, pool_size=root.pool_size).spawn(5)
        for x, y in zip(mine, ref):
            assert (x.generate_state(8) == y.generate_state(8)).all()
    # Child i does not depend on how many chunks are asked for.
    assert (chunk_seeds(3, 10)[2].generate_state(4) == chunk_seeds(3, 3)[2].generate_state(4)).all()


@pytest.mark.parametrize(
    ("game_id", "fixed", "rules"),
    [("goathead3", None, {}), ("sheepshead", {0: "QC JD", "kitty": "7H"}, {}), ("ohhell", None, {"hand_size": 3})],
)
def test_random_deals_is_the_concatenation_of_chunks(game_id, fixed, rules):
    n, size = 1050, 250
    whole = random_deals(game_id, n, seed=2024, fixed=fixed, chunk_size=size, **rules)
    seeds = chunk_seeds(2024, 5)
    parts = [deal_chunk(game_id, seeds[i], min(size, n - i * size), fixed=fixed, **rules) for i in range(5)]
    assert (np.concatenate(parts) == whole).all()
    # A chunk dealt alone (as a worker would) equals the same rows of the whole run.
    assert (deal_chunk(game_id, chunk_seeds(2024, 5)[3], size, fixed=fixed, **rules) == whole[750:1000]).all()


# ---------------------------------------------------------------------------------------
# Exactness of the bounded draws
# ---------------------------------------------------------------------------------------
def _batch_decode(r: int, ranges, bits: int):
    """The batched method on a ``bits``-bit word: the draws and the final low word."""
    mask = (1 << bits) - 1
    out = []
    for n in ranges:
        x = r * n
        out.append(x >> bits)
        r = x & mask
    return tuple(out), r


@pytest.mark.parametrize("ranges", [(3,), (5, 4, 3), (7, 6, 5), (12, 11), (4, 4, 4, 4), (6, 5, 4, 3, 2)])
def test_batched_draws_are_exact_on_a_small_word(ranges):
    """Over every 10-bit word, the accepted words give each draw tuple equally often."""
    bits = 10
    P = math.prod(ranges)
    threshold = (1 << bits) % P
    counts: dict[tuple[int, ...], int] = {}
    for r in range(1 << bits):
        draws, low = _batch_decode(r, ranges, bits)
        if low >= threshold:
            counts[draws] = counts.get(draws, 0) + 1
    assert len(counts) == P
    assert set(counts.values()) == {((1 << bits) - threshold) // P}
    assert all(0 <= d < n for t in counts for d, n in zip(t, ranges))


@pytest.mark.parametrize(("game_id", "fixed"), [
    ("goathead3", None), ("sheepshead", None), ("spades", None), ("clover", None),
    ("goathead4", {1: "JC QS", "kitty": "AH"}), ("sheepshead", {0: "QC QS QH QD JC JS"}),
])
def test_batch_plans_cover_every_draw_with_exact_thresholds(game_id, fixed):
    table = table_of(game_id)
    plan = _plan(table, fixed_columns(table, fixed))
    m = sum(plan.needs)
    stop = max(plan.needs)
    ranges = list(range(m, stop, -1))
    assert plan.n_draws == len(ranges) == m - stop
    i = 0
    for k, threshold in plan.batches:
        P = math.prod(ranges[i : i + k])
        assert P < 2**64 and threshold == 2**64 % P
        i += k
    assert i == len(ranges)


def _reference_chunk(table, fixed, seed_sequence, size, plan=None):
    """Plain-Python twin of the compiled kernel (see trickcore/_deal.pyx), same stream."""
    cols = fixed_columns(table, fixed)
    plan = plan or _plan(table, cols)
    needs = plan.needs
    unseen = table.deck
    for m in cols:
        unseen &= ~m
    a = [c for c in range(64) if unseen >> c & 1]
    m = len(a)
    bottom = needs.index(max(needs))
    blocks, pos = [], m - 1
    for c, k in enumerate(needs):
        if c != bottom and k:
            blocks.append((c, pos, pos - k + 1))
            pos -= k
    bg = BIT_GENERATOR(seed_sequence)
    mask = (1 << 64) - 1
    out = []
    for _ in range(size):
        J = {}
        pos = m - 1
        for k, threshold in plan.batches:
            while True:
                r = int(bg.random_raw())
                for q in range(k):
                    x = r * (pos - q + 1)
                    J[pos - q], r = x >> 64, x & mask
                if r >= threshold:
                    break
            pos -= k
        row = list(cols)
        dealt = 0
        for c, hi, lo in blocks:
            for i in range(hi, lo - 1, -1):
                j = J[i]
                a[i], a[j] = a[j], a[i]
                row[c] |= 1 << a[i]
                dealt |= 1 << a[i]
        row[bottom] |= unseen ^ dealt
        out.append(row)
    return np.array(out, dtype=np.uint64)


@pytest.mark.parametrize(("game_id", "fixed"), [
    ("goathead3", None), ("sheepshead", None), ("spades", None),
    ("goathead4", {1: "JC QS", "kitty": "AH"}), ("hearts", {2: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"}),
])
def test_kernel_matches_python_reference_word_for_word(game_id, fixed):
    table = table_of(game_id)
    ss = np.random.SeedSequence(31337)
    got = deal_chunk(game_id, ss, 300, fixed=fixed)
    assert (got == _reference_chunk(table, fixed, ss, 300)).all()


def test_kernel_redraws_rejected_batches_like_the_reference():
    """Force a rejection about every other batch (threshold 2**63) to exercise the redraw
    path, which real plans almost never take; kernel and reference must still agree."""
    table = table_of("sheepshead")
    cols = fixed_columns(table, None)
    real = _plan(table, cols)
    forced = [(k, 1 << 63) for k, _ in real.batches]
    plan = DealPlan([c for c in range(64) if table.deck >> c & 1], real.needs, cols, batches=forced)
    ss = np.random.SeedSequence(5)
    got = plan.deal(BIT_GENERATOR(ss), 200)
    ref = _reference_chunk(table, None, ss, 200, plan=plan)
    assert (got == ref).all()
    check_complete(got, table)
    # the stream was consumed further than without rejections: the deals differ
    assert not (got == deal_chunk("sheepshead", ss, 200)).all()
    with pytest.raises(ValueError, match="batches must cover"):
        DealPlan([0, 1, 2], [1, 1, 1], [0, 0, 0], batches=[(1, 0)])


# ---------------------------------------------------------------------------------------
# Uniformity against known distributions
# ---------------------------------------------------------------------------------------
def _assert_cards_placed_uniformly(deals, table, cols_fixed, n_deals_label=""):
    """Each unseen card lies in each column with probability free places / unseen cards."""
    unseen = table.deck
    for m in cols_fixed:
        unseen &= ~m
    cards = [c for c in range(64) if unseen >> c & 1]
    free = np.array([table.size(c) - cols_fixed[c].bit_count() for c in range(table.n_seats + 1)])
    use = free > 0
    probs = free[use] / free.sum()
    alpha = ALPHA / len(cards)
    for card in cards:
        counts = np.bincount(column_of_card(deals, card), minlength=table.n_seats + 1)
        assert counts[~use].sum() == 0
        p = chi2_pvalue(counts[use], probs)
        assert p > alpha, f"card {card}: counts {counts.tolist()} p={p:.2e}"


@pytest.mark.parametrize("game_id", ["goathead3", "sheepshead", "spades"])
def test_each_card_goes_to_each_seat_with_the_right_probability(game_id):
    table = table_of(game_id)
    deals = random_deals(game_id, 100_000, seed=777)
    _assert_cards_placed_uniformly(deals, table, (0,) * (table.n_seats + 1))


def _hypergeometric(N: int, K: int, n: int) -> np.ndarray:
    return np.array([math.comb(K, k) * math.comb(N - K, n - k) / math.comb(N, n) for k in range(min(K, n) + 1)])


def _merged_bins(observed: np.ndarray, probs: np.ndarray, total: int):
    """Merge the tail bins until every expected count is at least 5."""
    obs, pr = list(observed.astype(float)), list(probs)
    while pr[-1] * total < 5:
        obs[-2] += obs.pop()
        pr[-2] += pr.pop()
    while pr[0] * total < 5:
        obs[1] += obs.pop(0)
        pr[1] += pr.pop(0)
    return np.array(obs), np.array(pr)


@pytest.mark.parametrize(("game_id", "contract", "seat"), [
    ("goathead3", "hearts", 0), ("goathead3", "court", 2), ("sheepshead", "jd", 4), ("goathead4", "clubs", 4),
])
def test_number_of_trumps_is_hypergeometric(game_id, contract, seat):
    """Trumps in a hand (seat 4 of goathead4 is the kitty) follow the exact hypergeometric law."""
    lay = get_game(game_id).layout(contract)
    trump = CardSet(list(lay.suits[-1])).mask
    table = table_of(game_id)
    n = 60_000
    deals = random_deals(game_id, n, seed=4242)
    k = popcount(deals[:, seat] & np.uint64(trump))
    size = table.size(seat)
    probs = _hypergeometric(len(lay.deck), trump.bit_count(), size)
    observed = np.bincount(k, minlength=len(probs))
    assert len(observed) == len(probs)
    obs, pr = _merged_bins(observed, probs, n)
    assert chi2_pvalue(obs, pr) > ALPHA


def test_number_of_aces_in_a_spades_hand_is_hypergeometric():
    aces = CardSet.parse("AC AD AH AS").mask
    n = 60_000
    deals = random_deals("spades", n, seed=808)
    for seat in range(4):
        k = popcount(deals[:, seat] & np.uint64(aces))
        obs, pr = _merged_bins(np.bincount(k, minlength=5), _hypergeometric(52, 4, 13), n)
        assert chi2_pvalue(obs, pr) > ALPHA / 4


def _deal_index(deals: np.ndarray, all_deals: np.ndarray) -> np.ndarray:
    """Row index of each deal in ``all_deals`` (every deal must be there)."""
    lookup = {tuple(r): i for i, r in enumerate(all_deals.tolist())}
    return np.array([lookup[tuple(r)] for r in deals.tolist()])


@pytest.mark.parametrize(("game_id", "fixed", "per_deal"), [
    # seats 0 and 1 known: the 8 other cards split 6 + 2 (28 deals)
    ("goathead3", {0: "JC JS JH JD AC 10C", 1: "KC QC AD 10D KD QD"}, 2000),
    # goathead4, seat 2 partly fixed: 11 cards split 3 + 4 + 4 (11,550 deals)
    ("goathead4", {0: "JC JS JH JD", 1: "AC 10C KC QC", 2: "AD"}, 0),
])
def test_whole_deals_are_uniform_over_the_enumeration(game_id, fixed, per_deal):
    """Every deal consistent with ``fixed`` is equally likely (chi-square over all of them)."""
    all_deals = enumerate_deals(game_id, fixed)
    count = len(all_deals)
    per_deal = per_deal or 8
    deals = random_deals(game_id, count * per_deal, seed=99, fixed=fixed)
    counts = np.bincount(_deal_index(deals, all_deals), minlength=count)
    assert chi2_pvalue(counts, np.full(count, 1 / count)) > ALPHA


def test_consecutive_deals_are_independent():
    """The kernel does not reset its shuffle array between deals; pairs of consecutive deals
    must still be uniform over all 28 x 28 pairs."""
    fixed = {0: "JC JS JH JD AC 10C", 1: "KC QC AD 10D KD QD"}
    all_deals = enumerate_deals("goathead3", fixed)
    k = len(all_deals)
    deals = random_deals("goathead3", 2 * k * k * 20, seed=2718, fixed=fixed)
    idx = _deal_index(deals, all_deals)
    pairs = idx[0::2] * k + idx[1::2]
    counts = np.bincount(pairs, minlength=k * k)
    assert chi2_pvalue(counts, np.full(k * k, 1 / (k * k))) > ALPHA


def test_chi_square_has_power():
    """The whole-deal test rejects the classic biased shuffle (swap with any position)."""
    fixed = {0: "JC JS JH JD AC 10C", 1: "KC QC AD 10D KD QD"}
    table = table_of("goathead3")
    cols = fixed_columns(table, fixed)
    all_deals = enumerate_deals("goathead3", fixed)
    unseen = [c for c in range(64) if (table.deck & ~(cols[0] | cols[1])) >> c & 1]
    n = len(all_deals) * 2000
    rng = np.random.default_rng(5)
    perm = np.tile(np.array(unseen, dtype=np.uint64), (n, 1))
    rows = np.arange(n)
    for i in range(8):   # biased: j uniform over all 8 positions instead of 0..i
        j = rng.integers(0, 8, n)
        a, b = perm[rows, i].copy(), perm[rows, j].copy()
        perm[rows, i], perm[rows, j] = b, a
    bits = np.uint64(1) << perm
    deals = np.zeros((n, 4), dtype=np.uint64)
    deals[:, 0], deals[:, 1] = cols[0], cols[1]
    deals[:, 2] = np.bitwise_or.reduce(bits[:, :6], axis=1)
    deals[:, 3] = np.bitwise_or.reduce(bits[:, 6:], axis=1)
    counts = np.bincount(_deal_index(deals, all_deals), minlength=len(all_deals))
    assert chi2_pvalue(counts, np.full(len(all_deals), 1 / len(all_deals))) < 1e-12


@pytest.mark.parametrize(("game_id", "fixed"), [
    ("goathead3", {0: "JC JS JH JD AC 10C"}),
    ("goathead3", {1: "AH", "kitty": "KD"}),
    ("sheepshead", {0: "QC QS JD", 3: "AH 10H KH 9H 8H 7H", "kitty": "AC"}),
])
def test_fixed_cards_stay_and_the_rest_is_uniform(game_id, fixed):
    table = table_of(game_id)
    cols = fixed_columns(table, fixed)
    deals = random_deals(game_id, 60_000, seed=17, fixed=fixed)
    check_complete(deals, table)
    for c, m in enumerate(cols):
        assert ((deals[:, c] & np.uint64(m)) == np.uint64(m)).all()
    _assert_cards_placed_uniformly(deals, table, cols)


# ---------------------------------------------------------------------------------------
# Exact enumeration
# ---------------------------------------------------------------------------------------
def test_count_one_known_goathead_hand():
    fixed = {0: "JC JS JH JD AC 10C"}
    assert count_deals("goathead3", fixed) == 84_084
    assert count_deals("goathead3", fixed) == math.factorial(14) // (math.factorial(6) ** 2 * math.factorial(2))
    deals = enumerate_deals("goathead3", fixed)
    assert deals.shape == (84_084, 4) and deals.dtype == np.uint64
    check_complete(deals, table_of("goathead3"))
    assert (deals[:, 0] == np.uint64(CardSet.parse(fixed[0]).mask)).all()
    # distinct + every row a valid completion + count = multinomial  =>  complete
    assert len(np.unique(deals, axis=0)) == 84_084


@pytest.mark.parametrize(("game_id", "fixed"), [
    ("goathead4", {0: "JC JS JH JD", 1: "AC 10C KC QC", "kitty": "AD 10D"}),
    ("goathead3", [None, "JC JS JH JD AC 10C", "KC QC AD 10D KD QD", None]),
    ("sheepshead", {0: "QC QS QH QD JC JS", 1: "JH JD AD 10D KD 9D", 2: "8D 7D AC 10C KC 9C",
                    3: "8C 7C 10H", "kitty": "AH"}),
])
def test_enumeration_equals_brute_force(game_id, fixed):
    """Against every assignment of each unseen card to a free place, kept when sizes fit."""
    table = table_of(game_id)
    cols = fixed_columns(table, fixed)
    got = enumerate_deals(game_id, fixed)
    taken = 0
    for m in cols:
        taken |= m
    unseen = [c for c in range(64) if (table.deck & ~taken) >> c & 1]
    needs = [table.size(c) - cols[c].bit_count() for c in range(table.n_seats + 1)]
    free = [c for c, k in enumerate(needs) if k]
    expected = set()
    for owners in itertools.product(free, repeat=len(unseen)):
        if all(owners.count(c) == needs[c] for c in free):
            row = list(cols)
            for card, c in zip(unseen, owners):
                row[c] |= 1 << card
            expected.add(tuple(row))
    assert count_deals(game_id, fixed) == len(expected) == len(got)
    assert {tuple(r) for r in got.tolist()} == expected


def test_enumeration_edge_cases():
    full = {0: "JC JS JH JD AC 10C", 1: "KC QC AD 10D KD QD", 2: "AH 10H KH QH AS 10S", "kitty": "KS QS"}
    assert count_deals("goathead3", full) == 1
    one = enumerate_deals("goathead3", full)
    assert one.shape == (1, 4) and one[0, 3] == np.uint64(CardSet.parse("KS QS").mask)
    assert count_deals("goathead3") == math.factorial(20) // (math.factorial(6) ** 3 * 2)
    assert count_deals("sheepshead", {0: "QC"}) == math.factorial(31) // (math.factorial(6) ** 4 * 120 * 2)
    with pytest.raises(ValueError, match="more than max_count=1,000"):
        enumerate_deals("goathead3", {0: "JC JS JH JD AC 10C"}, max_count=1000)
    assert len(enumerate_deals("goathead3", {0: "JC JS JH JD AC 10C"}, max_count=84_084)) == 84_084


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("fixed", "message"), [
    ({0: "9C"}, "seat 0: 9♣ not in the deck of goathead3"),
    ({0: "JC", 1: "JC"}, "seat 1: J♣ is already fixed elsewhere"),
    ({0: "JC JS JH JD AC 10C KC"}, "seat 0: 7 fixed cards, but it holds 6"),
    ({"kitty": "JC JS JH"}, "kitty: 3 fixed cards, but it holds 2"),
    ({5: "JC"}, "unknown seat 5"),
    ({-1: "JC"}, "unknown seat -1"),
    ({"north": "JC"}, "unknown seat 'north'"),
    ({True: "JC"}, "unknown seat True"),
    ({0: "XY"}, "seat 0: malformed card"),
    ({0: "JC JC"}, "duplicate card"),
    ({0: 1 << 13}, "seat 0: bit-board"),
    (["JC", None], "2 entries; goathead3 needs 3"),
    ("JC", "not a single hand"),
    (3.5, "mapping"),
])
def test_bad_fixed_cards(fixed, message):
    for call in (
        lambda: random_deals("goathead3", 5, seed=1, fixed=fixed),
        lambda: count_deals("goathead3", fixed),
        lambda: enumerate_deals("goathead3", fixed),
        lambda: deal_chunk("goathead3", np.random.SeedSequence(1), 5, fixed=fixed),
    ):
        with pytest.raises(ValueError, match=message.replace("(", r"\(")):
            call()


def test_fixed_forms_agree():
    """Mapping, list per seat (with or without the kitty), numpy mask array, CardSet, int."""
    hand, kitty = CardSet.parse("JC JS AH"), CardSet.parse("QD")
    forms = [
        {0: "JC JS AH", "kitty": "QD"},
        {0: hand, 3: kitty.mask},
        [hand.mask, None, "", "Q♦"],
        np.array([hand.mask, 0, 0, kitty.mask], dtype=np.uint64),
        {0: ["JC", "JS", "AH"], "KITTY": kitty},
    ]
    first = random_deals("goathead3", 50, seed=8, fixed=forms[0])
    for f in forms[1:]:
        assert (random_deals("goathead3", 50, seed=8, fixed=f) == first).all()
    assert (random_deals("goathead3", 50, seed=8, fixed=[hand, None, None]) ==
            random_deals("goathead3", 50, seed=8, fixed={0: hand})).all()


def test_kitty_cards_for_a_game_without_kitty():
    with pytest.raises(ValueError, match="kitty: 1 fixed cards, but it holds 0"):
        random_deals("clover", 1, fixed={"kitty": "AS"})


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown game 'bridge'"):
        random_deals("bridge", 1)
    with pytest.raises(ValueError, match="unknown rule option"):
        random_deals("goathead3", 1, colour="red")
    with pytest.raises(ValueError, match="n must be >= 0"):
        random_deals("goathead3", -1)
    with pytest.raises(ValueError, match="n must be an integer"):
        random_deals("goathead3", 1.5)
    with pytest.raises(ValueError, match="chunk_size must be >= 1"):
        random_deals("goathead3", 10, chunk_size=0)
    with pytest.raises(ValueError, match="seed"):
        random_deals("goathead3", 10, seed="abc")
    with pytest.raises(ValueError, match="seed"):
        random_deals("goathead3", 10, seed=-3)
    with pytest.raises(ValueError, match="size must be >= 0"):
        deal_chunk("goathead3", np.random.SeedSequence(1), -5)
    with pytest.raises(ValueError, match="n_chunks must be >= 0"):
        chunk_seeds(1, -1)
    with pytest.raises(ValueError, match="hand_size"):
        random_deals("ohhell", 1, hand_size=14)
    lay = get_game("ohhell").layout("spades", hand_size=5)
    assert random_deals(lay, 3, seed=1, hand_size=5).shape == (3, 5)
    with pytest.raises(ValueError, match="change the table"):
        random_deals(lay, 3, seed=1, hand_size=6)
