"""The trick-count kernel (``trickcore._solve_tricks``) against the brute force and against
the general kernel (``trickcore._solve``).

``solver.KERNEL`` picks the kernel: ``"tricks"`` sends layouts with objective 'tricks' or
'nil' to the specialised kernel, ``"general"`` forces ``_solve``.  Checked here, per trick
game and contract type (tricks / nil / paranoid-min):

* random positions 2–4 tricks from the end (often mid-trick) against the independent brute
  force (``tests/bruteforce.py``): value, every card value, and the returned line (legal,
  each card optimal, reaching the value);
* deeper positions (5–8 tricks, mid-trick too), where the winning-rank table really works,
  against the general kernel: value and every card value;
* ``solve_many`` batches (one table shared by the deals, full short deals, Gamut's
  ``clubs_3/2/1`` with folded hands in the kitty) against the general kernel, with the side
  tricks of the line equal to the value;
* turning the table and the bounds off changes no value.

The default run samples a few hundred positions; ``pytest -m slow`` runs ≥ 2,000 per game
and contract type against the brute force and ≥ 2,000 against the general kernel.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bruteforce as bf  # noqa: E402
import test_solver_truth as truth  # noqa: E402
from test_solver_api import random_position  # noqa: E402

import trickcore  # noqa: E402
from trickcore import Card, get_game, solver  # noqa: E402

_solve_tricks = pytest.importorskip("trickcore._solve_tricks")

# (game, contract, rule options, variant) as in test_solver_truth; variant "paranoid-min":
# the declarer alone wanting few tricks.
CASES = [
    ("goathead3", "nil", {}, None),
    ("goathead4", "nil", {}, None),
    ("gamut", "spades", {}, None),
    ("gamut", "clubs", {}, None),
    ("gamut", "clubs", {}, "paranoid-min"),
    ("spades", "spades", {}, None),
    ("spades", "spades", {"spade_leading": "always"}, None),
    ("spades", "spades", {"spade_leading": "after_first_trick"}, None),
    ("spades", "spades", {}, "paranoid-min"),
    ("ohhell", "hearts", {}, None),
    ("ohhell", "notrump", {}, None),
    ("ohhell", "spades", {"hand_size": 5}, None),
    ("ohhell", "diamonds", {"hand_size": 13}, None),
    ("ohhell", "clubs", {}, "paranoid-min"),
]


def case_type(case) -> str:
    return truth.case_type(bf.rules_for(case[0], case[1], **case[2]), case[3])


TYPES: dict = {}
for _c in CASES:
    TYPES[(_c[0], case_type(_c))] = TYPES.get((_c[0], case_type(_c)), 0) + 1


@pytest.fixture
def tricks_kernel(monkeypatch):
    monkeypatch.setattr(solver, "KERNEL", "tricks")


def _solve_both(game, contract, opts, variant, pos):
    out = []
    for kernel in ("tricks", "general"):
        old = solver.KERNEL
        solver.KERNEL = kernel
        try:
            side = frozenset([pos.declarer]) if variant == "paranoid-min" else pos.side()
            goal = "min" if variant == "paranoid-min" else None
            out.append(truth.call_solver(game, contract, opts, pos, bf.mask(side), goal))
        finally:
            solver.KERNEL = old
    return out


def run_general(case, n, tricks, seed):
    game, contract, opts, variant = case
    r = bf.rules_for(game, contract, **opts)
    rng = random.Random(f"general-{truth.case_id(case)}-{seed}")
    failures = []
    for _ in range(n):
        tl = rng.choice([t for t in tricks if t <= r.hand_size])
        pos = bf.random_position(r, rng, tl, rng.randrange(r.n_seats))
        mine, ref = _solve_both(game, contract, opts, variant, pos)
        if mine.value != ref.value or mine.card_values != ref.card_values:
            failures.append(f"{pos.describe()}: general {ref.value} {ref.card_values}, "
                            f"tricks kernel {mine.value} {mine.card_values}")
        elif len(mine.line) == 0 or mine.line[0] not in mine.card_values:
            failures.append(f"{pos.describe()}: line {mine.line} does not start with a legal card")
        elif mine.card_values[mine.line[0]] != mine.value:
            failures.append(f"{pos.describe()}: line starts with {mine.line[0]} of value "
                            f"{mine.card_values[mine.line[0]]}, not {mine.value}")
    return failures


def _ids(case):
    return truth.case_id(case)


# --------------------------------------------------------------------------- dispatch
def test_dispatch_picks_the_trick_kernel_for_trick_layouts(monkeypatch):
    from trickcore import _solve, _solve_3x20x4, _solve_4x52x4

    monkeypatch.setattr(solver, "KERNEL", "tricks")
    for game, contract, opts, _ in CASES:
        assert solver._kernel(get_game(game).layout(contract, **opts)) is _solve_tricks
    # a point layout: the general kernel, in its build for the layout's shape (every point
    # game's shape has one: test_shape_builds)
    assert solver._kernel(get_game("goathead3").layout("hearts")) is _solve_3x20x4
    assert solver._kernel(get_game("hearts").layout("hearts")) is _solve_4x52x4
    monkeypatch.setattr(solver, "KERNEL", "general")
    assert solver._kernel(get_game("spades").layout("spades")) is _solve
    monkeypatch.setattr(solver, "KERNEL", "fast")
    with pytest.raises(ValueError, match="KERNEL"):
        solver._kernel(get_game("spades").layout("spades"))


def test_kernel_refuses_point_layouts():
    layout = get_game("goathead3").layout("hearts")
    assert not _solve_tricks.supports(layout.core)
    with pytest.raises(ValueError, match="trick-count"):
        _solve_tricks.solve_position(layout.core, np.zeros(64, np.int8), np.zeros(3, np.uint64), 0,
                                     np.zeros(0, np.int8), 0, 0, 0, 1, True, 1.0, False)


# --------------------------------------------------------------------------- brute force
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_matches_bruteforce(case, tricks_kernel):
    n = 12 if case[0] in ("goathead3", "goathead4") else 10
    failures = truth.run_case(case, n, (2, 3, 4), seed=101, deep_every=2)
    assert not failures, f"{len(failures)}/{n} positions disagree:\n" + "\n".join(failures[:5])


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_matches_bruteforce_2000_per_game_and_type(case, tricks_kernel):
    n = -(-2000 // TYPES[(case[0], case_type(case))])
    failures = truth.run_case(case, n, (2, 3, 4), seed=102, deep_every=5)
    assert not failures, f"{len(failures)}/{n} positions disagree:\n" + "\n".join(failures[:5])


# --------------------------------------------------------------------------- general kernel
def _deep_tricks(case):
    return (4, 5, 6) if case[0] in ("goathead3", "goathead4") else (5, 6, 7, 8)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_matches_general_kernel_on_deeper_positions(case):
    n = 10
    failures = run_general(case, n, _deep_tricks(case), seed=1)
    assert not failures, f"{len(failures)}/{n} positions disagree:\n" + "\n".join(failures[:5])


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_matches_general_kernel_2000_per_game_and_type(case):
    n = -(-2000 // TYPES[(case[0], case_type(case))])
    failures = run_general(case, n, _deep_tricks(case) + (2, 3, 4), seed=2)
    assert not failures, f"{len(failures)}/{n} positions disagree:\n" + "\n".join(failures[:5])


# --------------------------------------------------------------------------- solve_many
def _random_deals(layout, n_deals, tricks, seed):
    rng = np.random.default_rng(seed)
    return np.array([[h.mask for h in random_position(layout, rng, tricks)] for _ in range(n_deals)],
                    dtype=np.uint64)


MANY = [
    ("spades", "spades", {"spade_leading": "always"}, 7, None),
    ("spades", "spades", {}, 6, None),
    ("spades", "spades", {}, 6, "min"),
    ("gamut", "spades", {}, 8, None),
    ("gamut", "clubs", {}, 8, None),
    ("gamut", "clubs_3", {}, 8, None),
    ("gamut", "clubs_2", {}, 8, None),
    ("gamut", "clubs_1", {}, 8, None),
    ("ohhell", "notrump", {"hand_size": 7}, 7, None),
    ("ohhell", "hearts", {"hand_size": 1}, 1, None),
    ("ohhell", "clubs", {"hand_size": 3}, 3, "min"),
    ("goathead3", "nil", {}, 6, None),
    ("goathead4", "nil", {}, 4, None),
]


def _batch(game, contract, opts, tricks, goal, n_deals, seed, seats_seed):
    """A layout, random deals and solve_many keywords: random leaders and declarers (with
    goal 'min', the declarer alone as the side)."""
    layout = get_game(game).layout(contract, **opts)
    deals = _random_deals(layout, n_deals, tricks, seed=seed)
    rng = np.random.default_rng(seats_seed)
    leaders = rng.integers(0, layout.n_seats, len(deals))
    declarers = rng.integers(0, layout.n_seats, len(deals))
    kw = dict(leader=leaders, declarer=declarers, goal=goal)
    if goal == "min":
        kw["sides"] = (1 << declarers).astype(np.int64)
    return layout, deals, kw


@pytest.mark.parametrize("game,contract,opts,tricks,goal", MANY,
                         ids=[f"{m[0]}-{m[1]}-{m[3]}{'-' + m[4] if m[4] else ''}" for m in MANY])
def test_solve_many_matches_general_kernel(game, contract, opts, tricks, goal, monkeypatch):
    layout, deals, kw = _batch(game, contract, opts, tricks, goal, 12, len(game) * 100 + tricks, tricks)
    monkeypatch.setattr(solver, "KERNEL", "general")
    ref = trickcore.solve_many(layout, None, deals, **kw)
    monkeypatch.setattr(solver, "KERNEL", "tricks")
    mine = trickcore.solve_many(layout, None, deals, **kw)
    assert mine.value.tolist() == ref.value.tolist()
    assert mine.side.tolist() == ref.side.tolist()
    if layout.objective == "tricks":
        assert mine.side_tricks.tolist() == mine.value.tolist()
    else:
        assert mine.side_tricks.tolist() == mine.value.tolist()  # nil: play stops at the first trick
    assert ((mine.last_trick_winner >= 0) & (mine.last_trick_winner < layout.n_seats)).all()
    assert not mine.side_melds.any() and not mine.opp_melds.any()
    assert (mine.nodes > 0).all()


def test_search_switches_change_no_value():
    layout = get_game("ohhell").layout("spades", hand_size=6)
    deals = _random_deals(layout, 8, 5, seed=3)
    old = solver.KERNEL
    solver.KERNEL = "tricks"
    try:
        full = trickcore.solve_many(layout, None, deals)
        _solve_tricks._set_search_options(tt=False, bounds=False)
        try:
            bare = trickcore.solve_many(layout, None, deals)
        finally:
            _solve_tricks._set_search_options(tt=True, bounds=True)
    finally:
        solver.KERNEL = old
    assert bare.value.tolist() == full.value.tolist()
    assert bare.nodes.sum() > full.nodes.sum()


def test_spades_full_deal_equals_dds():
    """One full 52-card deal (bridge double dummy, spades trump) against DDS."""
    endplay = pytest.importorskip("endplay")  # noqa: F841
    import test_solver_dds as dds

    deals = dds.random_deals(3, 11)
    old = solver.KERNEL
    solver.KERNEL = "tricks"
    try:
        res = trickcore.solve_many("spades", "spades", deals, leader=0, declarer=1, spade_leading="always")
    finally:
        solver.KERNEL = old
    from endplay.types import Denom

    want = [dds.dds_ns_tricks(h, Denom.spades) for h in deals]
    assert res.value.tolist() == want
    assert res.side_tricks.tolist() == want


def test_mid_trick_card_values_of_a_known_ending(tricks_kernel):
    """Bridge ending, spades trump, West led the ♥A.  North holding a heart must follow and
    only ruffs the ♥K later (one trick); void in hearts, either trump wins both tricks."""
    r = trickcore.solve("spades", "spades", ["KH", "2S 4H", "QD JD", "5C 6C"], leader=0,
                        declarer=1, trick=["AH"], spade_leading="always")
    assert r.value == 1 and {str(c): v for c, v in r.card_values.items()} == {"4♥": 1}
    r = trickcore.solve("spades", "spades", ["KH", "2S 3S", "QD JD", "5C 6C"], leader=0,
                        declarer=1, trick=["AH"], spade_leading="always")
    assert r.value == 2 and {str(c): v for c, v in r.card_values.items()} == {"2♠": 2, "3♠": 2}
    assert [str(c) for c in r.line][:1] in (["2♠"], ["3♠"])


def _trump_swaps(layout, n, tricks, seed, suits=(-1,)):
    """Random deals, each followed by variants with a card of one of ``suits`` (indices
    into ``layout.suits``; the trumps by default) swapped between two seats of different
    teams (every suit length stays): the same table keys, other holders."""
    rng = np.random.default_rng(seed)
    masks = [sum(1 << int(c) for c in layout.suits[i]) for i in suits]
    out = []
    for hands in _random_deals(layout, n, tricks, seed):
        out.append(hands.copy())
        for _ in range(3):
            trumps = masks[int(rng.integers(len(masks)))]
            a, b = (int(x) for x in rng.choice(layout.n_seats, 2, replace=False))
            ta, tb = int(hands[a]) & trumps, int(hands[b]) & trumps
            if a % 2 == b % 2 or not ta or not tb:
                continue
            if rng.random() < 0.5:     # the seats' top cards of the suit, or any of them
                ca, cb = 1 << (ta.bit_length() - 1), 1 << (tb.bit_length() - 1)
            else:
                ca = 1 << int(rng.choice([i for i in range(64) if ta >> i & 1]))
                cb = 1 << int(rng.choice([i for i in range(64) if tb >> i & 1]))
            hands = hands.copy()
            hands[a] = np.uint64((int(hands[a]) & ~ca) | cb)
            hands[b] = np.uint64((int(hands[b]) & ~cb) | ca)
            out.append(hands)
    return np.array(out, dtype=np.uint64)


@pytest.mark.parametrize("tricks", [4, 6, 7])
def test_sure_trump_tricks_record_the_trumps_they_count(tricks, monkeypatch):
    """The sure-trump-trick bound relies on the holders of every trump down to the lowest
    one it counts, the guarded-king bound on the holders of the two best trumps.  Deals
    that differ only in which team holds some trumps share one table in a batch; had a
    bound recorded fewer of those cards (or none), an entry of one deal would answer for
    the next with a wrong count (recording none of them failed all three cases, only the
    top one of the counted trumps the 6- and 7-trick cases; no cards for the guarded king
    failed the 7-trick case)."""
    layout = get_game("spades").layout("spades", spade_leading="always")
    deals = _trump_swaps(layout, 300, tricks, seed=tricks + 10)
    monkeypatch.setattr(solver, "KERNEL", "general")
    ref = trickcore.solve_many(layout, None, deals, leader=0, declarer=1)
    monkeypatch.setattr(solver, "KERNEL", "tricks")
    mine = trickcore.solve_many(layout, None, deals, leader=0, declarer=1)
    assert mine.value.tolist() == ref.value.tolist()


def test_partner_entry_when_the_leader_keeps_only_trumps(monkeypatch):
    """Quick tricks through the partner's entry: the leader leads its only card of a suit
    to the partner's top cards and holds nothing but trumps after it, so it must ruff the
    partner's next winner and takes the lead back (the partner's later winners may be
    stranded).  Positions built for that corner, trick kernel against the general one."""
    layout = get_game("spades").layout("spades", spade_leading="always")
    rng = random.Random(3)
    deals = []
    for _ in range(150):
        k = rng.choice([3, 4])
        cards = list(layout.deck)
        rng.shuffle(cards)
        spades = [c for c in cards if Card(c).suit == 3]
        hearts = sorted((c for c in cards if Card(c).suit == 2), key=lambda c: -Card(c).rank)
        lead, partner = [hearts[-1]] + spades[:k - 1], hearts[:k]
        rest = [c for c in cards if c not in lead and c not in partner]
        hands = [lead, rest[:k], partner, rest[k:2 * k]]
        deals.append([sum(1 << int(c) for c in h) for h in hands])
    deals = np.array(deals, dtype=np.uint64)
    monkeypatch.setattr(solver, "KERNEL", "general")
    ref = trickcore.solve_many(layout, None, deals, leader=0, declarer=0)
    monkeypatch.setattr(solver, "KERNEL", "tricks")
    mine = trickcore.solve_many(layout, None, deals, leader=0, declarer=0)
    assert mine.value.tolist() == ref.value.tolist()


SMALL_CARDS = [
    ("spades", "spades", {"spade_leading": "always"}, 8, None),
    ("spades", "spades", {}, 7, "min"),
    ("ohhell", "notrump", {"hand_size": 9}, 8, None),
    ("ohhell", "hearts", {"hand_size": 8}, 7, None),
    ("gamut", "clubs_3", {}, 8, None),
    ("goathead3", "nil", {}, 6, None),
]


@pytest.mark.parametrize("game,contract,opts,tricks,goal", SMALL_CARDS,
                         ids=[f"{m[0]}-{m[1]}-{m[3]}{'-' + m[4] if m[4] else ''}" for m in SMALL_CARDS])
def test_small_card_pruning_changes_no_value(game, contract, opts, tricks, goal, monkeypatch):
    """After a card whose result relied on no card of its suit at or below it, the search
    skips the lower cards of that suit (they would give the same result: DDS's small
    cards).  Deals solved with and without the pruning, one table per batch: the same
    values and side tricks, and fewer nodes with it (a threshold one card too high, at the
    lowest card that mattered, changed values here)."""
    layout, deals, kw = _batch(game, contract, opts, tricks, goal, 40, len(game) * 7 + tricks, tricks + 5)
    monkeypatch.setattr(solver, "KERNEL", "tricks")
    pruned = trickcore.solve_many(layout, None, deals, **kw)
    _solve_tricks._set_search_options(prune=False)
    try:
        full = trickcore.solve_many(layout, None, deals, **kw)
    finally:
        _solve_tricks._set_search_options()
    assert pruned.value.tolist() == full.value.tolist()
    assert pruned.side_tricks.tolist() == full.side_tricks.tolist()
    assert pruned.nodes.sum() < full.nodes.sum()


def test_dds_weights_change_no_value_and_save_nodes(monkeypatch):
    """With four seats in two partnerships that both want tricks, every card is ordered by
    DDS's weights for its place in the trick (the default; ``_tune(followmode=0)``: only
    the leads, ``_tune(leadmode=0)``: neither, the table's card first): the same values on
    8-trick bridge endings (every seat on lead, either team declaring), fewer nodes with
    each step."""
    layout, deals, kw = _batch("spades", "spades", {"spade_leading": "always"}, 8, None, 60, 21, 22)
    monkeypatch.setattr(solver, "KERNEL", "tricks")
    dds = trickcore.solve_many(layout, None, deals, **kw)
    try:
        _solve_tricks._tune(followmode=0)
        leads = trickcore.solve_many(layout, None, deals, **kw)
        _solve_tricks._tune(leadmode=0)
        plain = trickcore.solve_many(layout, None, deals, **kw)
    finally:
        _solve_tricks._tune()
    assert dds.value.tolist() == leads.value.tolist() == plain.value.tolist()
    assert dds.nodes.sum() < 0.9 * leads.nodes.sum() and leads.nodes.sum() < 0.9 * plain.nodes.sum()


@pytest.mark.parametrize("tricks", [5, 7])
def test_a_team_securing_the_trick_records_its_card(tricks, monkeypatch):
    """Mid-trick, a team whose seats still to play hold the best card of the led suit that
    is left (no seat of the other team able to ruff) takes the trick: the bound relies on
    the holders of the cards down to that card.  Deals that differ only in which team holds
    a card of some suit share one table in a batch; had the bound recorded no card, an entry
    of one deal would answer for the next with a wrong count (it did here)."""
    layout = get_game("spades").layout("spades", spade_leading="always")
    deals = _trump_swaps(layout, 250, tricks, seed=tricks + 30, suits=(0, 1, 2, 3))
    monkeypatch.setattr(solver, "KERNEL", "general")
    ref = trickcore.solve_many(layout, None, deals, leader=0, declarer=1)
    monkeypatch.setattr(solver, "KERNEL", "tricks")
    mine = trickcore.solve_many(layout, None, deals, leader=0, declarer=1)
    assert mine.value.tolist() == ref.value.tolist()


@pytest.mark.parametrize("game,contract,opts,tricks", [("spades", "spades", {"spade_leading": "always"}, 7),
                                                       ("spades", "spades", {}, 6),
                                                       ("ohhell", "hearts", {}, 8)])
def test_line_outputs_depend_on_the_position_alone(game, contract, opts, tricks, monkeypatch):
    """The last trick's winner is read off one optimal line, whose cards are tried in an
    order of the position alone (no table card, killer card or history): a deal gives the
    same outputs alone, in a batch or in another order.  (With the table's card and the
    killer cards in the line's order, 3 of these 80 Oh Hell deals, alone, ended with
    another winner.)"""
    monkeypatch.setattr(solver, "KERNEL", "tricks")
    lay = get_game(game).layout(contract, **opts)
    rng = np.random.default_rng(41)
    deals = np.array([[h.mask for h in random_position(lay, rng, tricks)] for _ in range(80)], dtype=np.uint64)
    batch = trickcore.solve_many(lay, None, deals)
    backwards = trickcore.solve_many(lay, None, deals[::-1])
    fields = ("value", "side_tricks", "last_trick_winner")
    for f in fields:
        assert (getattr(backwards, f)[::-1] == getattr(batch, f)).all(), f
    for d in range(len(deals)):
        alone = trickcore.solve_many(lay, None, deals[d:d + 1])
        assert all(getattr(alone, f)[0] == getattr(batch, f)[d] for f in fields), d
