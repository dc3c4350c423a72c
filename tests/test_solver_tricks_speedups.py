"""Speed-ups of the trick-count kernel (``trickcore._solve_tricks``) that must never move a
value: each is switched off or pushed to an extreme through the kernel's test hooks
(``_tune``, ``_set_search_options``) and the values compared, on full bridge deals (spades
trump, the DDS bench's setting) and on short deals of the other trick games.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_solver_tricks import _batch, _random_deals  # noqa: E402

import trickcore  # noqa: E402
from trickcore import solver  # noqa: E402

_solve_tricks = pytest.importorskip("trickcore._solve_tricks")


def _bridge_deals(n: int, seed: int) -> np.ndarray:
    import test_solver_dds as dds

    return dds.random_deals(n, seed)


@pytest.fixture
def tricks_kernel(monkeypatch):
    monkeypatch.setattr(solver, "KERNEL", "tricks")
    yield
    _solve_tricks._tune()
    _solve_tricks._set_search_options()


def _bridge(deals, leader=0, declarer=1):
    return trickcore.solve_many("spades", "spades", deals, leader=leader, declarer=declarer,
                                spade_leading="always")


def test_first_probe_guess_changes_no_value(tricks_kernel):
    """Full bridge deals start with a probe one trick above an estimate from the side's top
    cards, trumps and short suits (``_tune(guess=0)``: bisect the bounds instead).  Any
    first probe gives the same values and lines (a guess far too low or far too high
    too).  The nodes it saves are measured over hundreds of deals by the bench (2-4%): on a
    handful of deals either order of probes may come out ahead, so no count is asserted."""
    deals = _bridge_deals(16, 5)
    guessed = _bridge(deals)
    runs = []
    for kw in (dict(guess=0), dict(guess_up=-9), dict(guess_up=9)):
        _solve_tricks._tune(**kw)
        runs.append(_bridge(deals))
    _solve_tricks._tune()
    for other in runs:
        assert other.value.tolist() == guessed.value.tolist()
        assert other.side_tricks.tolist() == guessed.side_tricks.tolist()
        assert other.last_trick_winner.tolist() == guessed.last_trick_winner.tolist()
    assert guessed.nodes.tolist() != runs[0].nodes.tolist()      # the guess did change the search
    # either team declaring, any leader: still the same values
    other_side = _bridge(deals, leader=1, declarer=0)
    _solve_tricks._tune(guess=0)
    assert _bridge(deals, leader=1, declarer=0).value.tolist() == other_side.value.tolist()


def test_table_before_bounds_changes_no_value(tricks_kernel):
    """From ``tt_first`` tricks left the table is probed before the quick-trick bounds (the
    default 5, as DDS).  Probing it first everywhere, or never, gives the same values on
    full bridge deals and on 8-trick endings of either team with any leader."""
    deals = _bridge_deals(10, 9)
    layout, endings, kw = _batch("spades", "spades", {"spade_leading": "always"}, 8, None, 40, 23, 24)
    default = (_bridge(deals), trickcore.solve_many(layout, None, endings, **kw))
    for first in (2, 99):
        _solve_tricks._tune(tt_first=first)
        other = (_bridge(deals), trickcore.solve_many(layout, None, endings, **kw))
        for a, b in zip(default, other):
            assert a.value.tolist() == b.value.tolist()
            assert a.side_tricks.tolist() == b.side_tricks.tolist()


@pytest.mark.parametrize("game", ["goathead3", "goathead4"])
def test_nil_bounds_change_no_value(game, tricks_kernel):
    """Nil's own bounds (the declarer surely ducks every suit / is surely caught in one)
    decide most Goathead Nil deals at their first trick boundaries.  With every bound off
    (``_set_search_options(bounds=False)``) the search alone must find the same values on
    full deals, random leaders and declarers; with them on it must spend fewer nodes
    (the bounds fire: 67% and 48% fewer here; no other bound cuts a Nil search).  Many
    deals: a subtly unsound variant (each opponent's own ``r``-th lowest card taken to
    bound the ``r``-th lead) moved 0.2% of the values."""
    layout = trickcore.get_game(game).layout("nil")
    deals = trickcore.random_deals(game, 6000, seed=17)[:, :layout.n_seats]
    rng = np.random.default_rng(3)
    kw = dict(leader=rng.integers(0, layout.n_seats, len(deals)),
              declarer=rng.integers(0, layout.n_seats, len(deals)))
    on = trickcore.solve_many(layout, None, deals, **kw)
    _solve_tricks._set_search_options(bounds=False)
    off = trickcore.solve_many(layout, None, deals, **kw)
    assert on.value.tolist() == off.value.tolist()
    assert on.side_tricks.tolist() == off.side_tricks.tolist()
    assert 0 < on.value.sum() < len(deals)          # both outcomes occur
    assert on.nodes.sum() < 0.75 * off.nodes.sum()


def test_each_deal_of_a_batch_is_searched_as_if_alone(tricks_kernel):
    """Distinct deals of one ``solve_many`` call start from an empty table, no killer card
    and no history count (another deal's entries only lengthened the lists a probe walks,
    and its killer cards misled the lead's order): each deal's node count in the batch is
    its count solved alone, in any order."""
    deals = _bridge_deals(6, 31)
    batch = _bridge(deals)
    alone = [int(_bridge(deals[i:i + 1]).nodes[0]) for i in range(len(deals))]
    assert batch.nodes.tolist() == alone
    backwards = _bridge(deals[::-1])
    assert backwards.nodes.tolist() == alone[::-1]
    assert backwards.value.tolist() == batch.value.tolist()[::-1]
    # a paranoid minimum (Oh Hell's fewest tricks), whose order reads the killer card
    layout, short, kw = _batch("ohhell", "hearts", {}, 7, "min", 12, 3, 4)
    many = trickcore.solve_many(layout, None, short, **kw)
    one = [trickcore.solve_many(layout, None, short[i:i + 1], leader=kw["leader"][i], declarer=kw["declarer"][i],
                                goal="min", sides=kw["sides"][i:i + 1]) for i in range(len(short))]
    assert many.nodes.tolist() == [int(r.nodes[0]) for r in one]
    assert many.value.tolist() == [int(r.value[0]) for r in one]


def test_positions_of_one_deal_share_the_table(tricks_kernel):
    """Positions of one deal (each legal card of the seat to move, as ``solve_after_cards``
    asks) keep one table: together they take fewer nodes than one at a time."""
    from trickcore.solver import solve_after_cards

    deal = _bridge_deals(1, 32)
    hand = trickcore.CardSet(int(deal[0, 0]))
    cards = list(hand)[:6]
    kw = dict(leader=0, declarer=1, spade_leading="always")
    together = solve_after_cards("spades", "spades", deal, cards, **kw)
    apart = [solve_after_cards("spades", "spades", deal, [card], **kw) for card in cards]
    assert together.value.tolist() == [int(r.value[0]) for r in apart]
    assert together.nodes.sum() < 0.9 * sum(int(r.nodes.sum()) for r in apart)


def test_the_tables_generations_wrap_around(tricks_kernel):
    """Each deal starts a new generation of the table's heads, and every 255 generations
    the heads are zeroed, so that a head of an old deal can never read as one of the
    current generation.  A whole deal, then 254 short positions (each another deal, each
    storing a few heads), then the whole deal again, in the generation it first had: it
    must take the nodes it takes alone (a head left from its first solve would point at
    links that later deals overwrote)."""
    layout = trickcore.get_game("gamut").layout("clubs")
    whole = _random_deals(layout, 1, 8, seed=5)
    short = _random_deals(layout, 254, 3, seed=6)
    deals = np.concatenate([whole, short, whole, short[:10]])
    kw = dict(leader=0, declarer=0)
    many = trickcore.solve_many(layout, None, deals, **kw)
    assert _solve_tricks._last_stats()["table_clears"] >= 255     # every row another deal
    alone = trickcore.solve_many(layout, None, whole, **kw)
    assert many.nodes[255] == many.nodes[0] == alone.nodes[0]
    assert many.value[255] == alone.value[0]
    rest = trickcore.solve_many(layout, None, np.concatenate([short, short[:10]]), **kw)
    assert many.value[1:255].tolist() + many.value[256:].tolist() == rest.value.tolist()


def _solve_bridge(deal, **kw):
    hands = [trickcore.CardSet(int(h)) for h in deal]
    return trickcore.solve("spades", "spades", hands, leader=0, declarer=1, spade_leading="always", **kw)


def test_a_table_kept_between_calls_is_taken_again_empty(tricks_kernel):
    """``solve`` and ``solve_many`` keep their table for the next call of its size
    (``_free_tables``: fresh pages cost a ``solve`` per bridge deal 7-10% of its time) and
    start it in a new generation.  A call on a table another layout used, on one whose
    generations wrap around (the heads zeroed), or after a search stopped by a budget
    (its table is not kept) searches as on fresh memory: the same values and nodes.  A
    table above the default size is not kept."""
    deals = _bridge_deals(3, 41)
    _solve_tricks._free_tables.clear()
    fresh = [_solve_bridge(d) for d in deals]            # the first on fresh memory
    assert len(_solve_tricks._free_tables) == 1
    for d, first in zip(deals, fresh):
        _solve_tricks._free_tables.clear()
        alone = _solve_bridge(d)
        assert (alone.value, alone.card_values, alone.nodes) == (first.value, first.card_values, first.nodes)
    # another layout of the same table size (52 live cards) wrote the table just before
    ohhell = trickcore.get_game("ohhell").layout("hearts")
    other = trickcore.random_deals(ohhell, 1, seed=2)[:, :4]
    trickcore.solve_many(ohhell, None, other, leader=1, declarer=1)
    again = _solve_bridge(deals[0])
    assert (again.value, again.nodes) == (fresh[0].value, fresh[0].nodes)
    # the generation about to wrap: the heads of the first call (generation 1) must read
    # as empty, not as this call's
    _solve_tricks._free_tables.clear()
    _solve_bridge(deals[0])
    (table,) = _solve_tricks._free_tables.values()
    table[2] = 255
    wrapped = _solve_bridge(deals[0])
    assert (wrapped.value, wrapped.nodes) == (fresh[0].value, fresh[0].nodes)
    assert 1 <= table[2] < 255              # given back in the generations after the wrap
    # a search stopped by its budget keeps its table out of the cache
    _solve_tricks._free_tables.clear()
    with pytest.raises(TimeoutError):
        _solve_bridge(deals[1], node_budget=5_000)
    assert not _solve_tricks._free_tables
    after = _solve_bridge(deals[1])
    assert (after.value, after.nodes) == (fresh[1].value, fresh[1].nodes)
    # a table above the default size (a larger tt_mb) is not kept: it would stay resident
    _solve_tricks._free_tables.clear()
    big = _solve_bridge(deals[1], tt_mb=1024)
    assert big.value == fresh[1].value and not _solve_tricks._free_tables


def test_threads_take_tables_of_their_own(tricks_kernel):
    """Concurrent calls (the GIL released) never share a kept table: each takes one out of
    the cache for the whole call or makes its own."""
    from concurrent.futures import ThreadPoolExecutor

    deals = _bridge_deals(6, 43)
    alone = [_solve_bridge(d) for d in deals]
    with ThreadPoolExecutor(max_workers=3) as pool:
        together = list(pool.map(_solve_bridge, deals))
    assert [(r.value, r.card_values, r.nodes) for r in together] == \
        [(r.value, r.card_values, r.nodes) for r in alone]
