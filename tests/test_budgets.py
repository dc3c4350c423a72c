"""Budgets of nodes and what a stopped search reports (``node_budget``, ``value_bounds``).

A budget of nodes stops the search deterministically, so the bounds it reports can be
checked exactly, position by position, against the exact values: every bound must hold,
and a larger budget, which runs the same search further, can only narrow them.
"""

import numpy as np
import pytest

from trickcore import get_game
from trickcore.deals import random_deals
from trickcore.solver import solve, solve_many

BUDGETS = (40, 160, 640, 2_560, 10_240, 40_960)

# (game, contract, hands of this many cards (0: whole deals), deals, keywords):
# points (both kinds of root search: bisection, and Goathead's one full window), the
# paranoid minimum of one seat, and the trick kernel
LAYOUTS = [
    ("sheepshead", "jd", 0, 6, {}),
    ("clover", "hearts", 0, 3, {}),
    ("goathead3", "hearts", 0, 6, {}),
    ("hearts", "hearts", 7, 4, {"sides": 1, "goal": "min"}),
    ("spades", "spades", 9, 4, {"declarer": 1}),
    ("ohhell", "hearts", 9, 4, {"sides": 1, "goal": "min"}),
]


def positions(game, tricks, n, seed=7):
    """``n`` deals of the game, or endings of ``tricks`` cards a hand (the highest cards of
    each hand: suits need not fit)."""
    deals = random_deals(game, n, seed=seed)[:, :get_game(game).n_seats]
    if not tricks:
        return deals
    out = np.zeros_like(deals)
    for d, row in enumerate(deals):
        for s, h in enumerate(row):
            bits = [b for b in range(64) if (int(h) >> b) & 1]
            out[d, s] = sum(1 << b for b in bits[-tricks:])
    return out


@pytest.mark.parametrize("game,contract,tricks,n,kw", LAYOUTS, ids=[f"{g}-{c}" for g, c, *_ in LAYOUTS])
def test_node_budget_bounds_hold_and_narrow(game, contract, tricks, n, kw):
    deals = positions(game, tricks, n)
    exact = solve_many(game, contract, deals, line=False, **kw)
    stopped = 0
    for d in range(n):
        lo, hi = -10**6, 10**6
        for budget in BUDGETS:
            try:
                r = solve_many(game, contract, deals[d:d + 1], line=False, node_budget=budget, **kw)
            except TimeoutError as stop:
                assert len(stop.partial_result) == 0
                b_lo, b_hi = stop.value_bounds
                assert b_lo <= int(exact.value[d]) <= b_hi, (d, budget)
                # the same search, stopped later: the interval can only narrow
                assert lo <= b_lo and b_hi <= hi, (d, budget, (lo, hi), (b_lo, b_hi))
                lo, hi = b_lo, b_hi
                stopped += 1
                # and the same stop on a second run
                with pytest.raises(TimeoutError) as again:
                    solve_many(game, contract, deals[d:d + 1], line=False, node_budget=budget, **kw)
                assert again.value.value_bounds == (b_lo, b_hi)
            else:
                assert int(r.value[0]) == int(exact.value[d])
                assert lo <= int(r.value[0]) <= hi
                break
    assert stopped >= n, f"the budgets stopped only {stopped} searches of {n} positions"


def test_node_budget_over_a_batch_keeps_the_deals_before():
    deals = positions("sheepshead", 0, 5, seed=3)
    whole = solve_many("sheepshead", "jd", deals)
    budget = int(whole.nodes[:2].sum()) + 1         # the third deal's first node
    with pytest.raises(TimeoutError) as info:
        solve_many("sheepshead", "jd", deals, node_budget=budget)
    part = info.value.partial_result
    # the stop comes at the first trick boundary past the budget: in the third deal, or
    # as the fourth starts if the third ends before one
    assert len(part) in (2, 3)
    assert part.value.tolist() == whole.value[:len(part)].tolist()
    if len(part) == 2:
        lo, hi = info.value.value_bounds
        assert lo <= whole.value[2] <= hi
    # a budget the whole call stays within
    again = solve_many("sheepshead", "jd", deals, node_budget=int(whole.nodes.sum()) + 1)
    assert again.value.tolist() == whole.value.tolist()


def test_node_budget_card_values_of_a_stopped_solve():
    deal = positions("sheepshead", 0, 3, seed=5)[1].tolist()
    full = solve("sheepshead", "jd", deal)
    seen = 0
    for budget in (1_000, 4_000, 16_000, 64_000):
        try:
            r = solve("sheepshead", "jd", deal, node_budget=budget)
        except TimeoutError as stop:
            lo, hi = stop.value_bounds
            assert lo <= full.value <= hi
            assert set(stop.card_values) <= set(full.card_values)
            assert all(full.card_values[c] == v for c, v in stop.card_values.items())
            seen += len(stop.card_values)
        else:
            assert (r.value, r.card_values) == (full.value, full.card_values)
    assert seen, "no card's value was finished within the budgets"


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, "many", 2**63])
def test_node_budget_must_be_a_positive_whole_number(bad):
    deals = positions("goathead3", 0, 2)
    with pytest.raises(ValueError, match="node_budget must be a positive whole number"):
        solve_many("goathead3", "hearts", deals, node_budget=bad)
    with pytest.raises(ValueError, match="node_budget must be a positive whole number"):
        solve("goathead3", "hearts", ["JC AH", "JD KH", "AS AC"], node_budget=bad)
