"""Both kernels against a second exact solver on whole deals and long endings.

The Python brute force (``test_solver_truth.py``) proves the kernels right on positions of
2-4 tricks; whole deals of Sheepshead and Clover and long trick-game endings are out of
its reach.  ``probe_solver.c`` is a plain alpha-beta with a table at trick boundaries (the
issue's "quick C probe"), sharing no code with the kernels, fast enough for those: where
the two agree, every pruning of the kernels (quasi-symmetry, twins, bounds, the two-trick
and lead tables, the builds per shape; winning ranks, small cards and the Nil bounds of
the trick kernel) held through them.  It knows card points or tricks and following suit,
so it covers every contract with no other rule: Goathead 3p and 4p, Clover, Sheepshead's
jack-of-diamonds partner, alone and leaster; Oh Hell's five trumps (a declarer's most
tricks and, paranoid, its fewest), Gamut's clubs for 1-4 players and Spades with spades
led at any time.

The default run takes whole deals where they are cheap and positions four tricks from the
end everywhere (six for the trick games); ``pytest -m slow`` takes many more whole deals
of every points contract and eight-trick endings of the trick games.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import probe_solver  # noqa: E402

from trickcore import random_deals  # noqa: E402
from trickcore.games import GAMES, get_game  # noqa: E402
from trickcore.solver import solve_many  # noqa: E402

LAYOUTS = []      # every points contract the probe knows
for _gid, _game in GAMES.items():
    for _contract in _game.contracts:
        try:
            probe_solver.check_layout(_game.layout(_contract))
        except ValueError:
            continue
        if _game.layout(_contract).objective == "points":
            LAYOUTS.append((_gid, _contract))

#: trick-count layouts the probe knows, (game, contract, rule options); each is checked as
#: its contract's side wants (Oh Hell: the declarer alone, most tricks) and, for Oh Hell,
#: as a paranoid minimum too (the declarer alone wanting the fewest)
TRICK_LAYOUTS = ([("ohhell", c, {}) for c in ("clubs", "diamonds", "hearts", "spades", "notrump")]
                 + [("gamut", c, {}) for c in ("clubs", "clubs_3", "clubs_2", "clubs_1")]
                 + [("spades", "spades", {"spade_leading": "always"})])
TRICK_CASES = [pytest.param(g, c, r, goal, id=f"{g}-{c}-{goal or 'side'}")
               for goal in (None, "min") for g, c, r in TRICK_LAYOUTS if goal is None or g == "ohhell"]


def random_hands(layout, n_deals: int, cards_each: int, seed: int) -> np.ndarray:
    """``n_deals`` random deals (universal bit-boards, shape ``(n_deals, n_seats)``), each hand
    cut to ``cards_each`` of its cards (a position at the start of a later trick)."""
    deals = random_deals(layout, n_deals, seed)[:, :layout.n_seats]
    if cards_each == layout.hand_size:
        return deals
    rng = np.random.default_rng(seed)
    out = np.zeros_like(deals)
    for (d, s), hand in np.ndenumerate(deals):
        cards = [b for b in range(64) if (int(hand) >> b) & 1]
        for b in rng.choice(cards, cards_each, replace=False):
            out[d, s] |= np.uint64(1) << np.uint64(b)
    return out


def assert_agree(layout, deals, leader, declarer, goal=None):
    """The kernel's values equal the probe's; ``goal="min"``: the declarer alone wanting
    the value low (a paranoid minimum)."""
    kw = {} if goal is None else dict(goal=goal, sides=np.full(len(deals), 1 << declarer, dtype=np.uint8))
    ours = solve_many(layout, None, deals, leader=leader, declarer=declarer, **kw).value
    probe, _, _ = probe_solver.probe_values(layout, deals, leader, declarer, sides=kw.get("sides"), goal=goal)
    bad = np.flatnonzero(ours != probe)
    assert not len(bad), (
        f"{layout.name}, leader {leader}, declarer {declarer}: {len(bad)} of {len(deals)} values differ, "
        f"first deal {deals[bad[0]].tolist()}: ours {ours[bad[0]]}, the probe's {probe[bad[0]]}")


def seat_pairs(layout):
    """Leader and declarer: the declarer leading, and someone else leading (one pair for a
    lone seat)."""
    n = layout.n_seats
    return [(0, 0), (1 % n, n - 1)] if n > 1 else [(0, 0)]


def test_docstring_example():
    import doctest

    result = doctest.testmod(probe_solver)
    assert result.attempted >= 3 and result.failed == 0


def test_the_probe_knows_the_layouts_without_other_rules():
    assert len(LAYOUTS) >= 20
    assert {g for g, _ in LAYOUTS} == {"goathead3", "goathead4", "clover", "sheepshead"}
    for game, contract, rules in TRICK_LAYOUTS:
        probe_solver.check_layout(get_game(game).layout(contract, **rules))
    for game, contract in [("sheepshead", "called_ace_clubs"), ("hearts", "hearts"), ("spades", "spades"),
                           ("gamut", "spades"), ("goathead3", "nil")]:
        with pytest.raises(ValueError):
            probe_solver.check_layout(get_game(game).layout(contract))


def test_the_probe_is_a_solver_of_its_own():
    """Its value of a hand worked out by hand, and a search that is not the kernels' (far
    more nodes on the same deals)."""
    layout = get_game("goathead3").layout("hearts")
    hands = [int(h) for h in layout.check_hands(["JC AH", "JD KH", "AS AC"])]
    # Seat 0 alone, leading.  J♣ (the top trump) first: seat 1 keeps J♦, which beats A♥,
    # and gives K♥: 2 + 4 + 11 = 17, then J♦ takes the A♥.  A♥ first: J♦ takes it, and
    # J♣ takes K♥ and an ace: 2 + 4 + 11 = 17 again.
    values, _, _ = probe_solver.probe_values(layout, [hands], leader=0, declarer=0)
    assert values.tolist() == [17]
    deals = random_hands(layout, 20, layout.hand_size, seed=3)
    _, probe_nodes, _ = probe_solver.probe_values(layout, deals, 0, 0)
    ours = solve_many(layout, None, deals, leader=0, declarer=0, line=False)
    assert probe_nodes.sum() > 10 * ours.nodes.sum()


@pytest.mark.parametrize("game,contract", LAYOUTS)
def test_positions_four_tricks_from_the_end(game, contract):
    layout = get_game(game).layout(contract)
    for k, (leader, declarer) in enumerate(seat_pairs(layout)):
        deals = random_hands(layout, 40, min(4, layout.hand_size), seed=100 + k)
        assert_agree(layout, deals, leader, declarer)


#: whole deals a contract and seat pair: (default run, ``-m slow``); the probe takes about
#: 0.35 ms a Goathead 3p deal, 45 ms a Sheepshead deal and 100 ms a Clover deal
WHOLE_DEALS = {"goathead3": (40, 400), "goathead4": (40, 400), "sheepshead": (8, 40), "clover": (3, 12)}


def check_whole_deals(game, contract, n_deals, seed):
    layout = get_game(game).layout(contract)
    for k, (leader, declarer) in enumerate(seat_pairs(layout)):
        assert_agree(layout, random_hands(layout, n_deals, layout.hand_size, seed + k), leader, declarer)


@pytest.mark.parametrize("game,contract", LAYOUTS)
def test_whole_deals(game, contract):
    check_whole_deals(game, contract, WHOLE_DEALS[game][0], seed=200)


@pytest.mark.slow
@pytest.mark.parametrize("game,contract", LAYOUTS)
def test_whole_deals_many(game, contract):
    check_whole_deals(game, contract, WHOLE_DEALS[game][1], seed=300)


def check_trick_endings(game, contract, rules, goal, tricks, n_deals, seed):
    layout = get_game(game).layout(contract, **rules)
    for k, (leader, declarer) in enumerate(seat_pairs(layout)):
        assert_agree(layout, random_hands(layout, n_deals, tricks, seed + k), leader, declarer, goal)


@pytest.mark.parametrize("game,contract,rules,goal", TRICK_CASES)
def test_trick_games_six_tricks_from_the_end(game, contract, rules, goal):
    check_trick_endings(game, contract, rules, goal, tricks=6, n_deals=12, seed=400)


@pytest.mark.slow
@pytest.mark.parametrize("game,contract,rules,goal", TRICK_CASES)
def test_trick_games_eight_tricks_from_the_end(game, contract, rules, goal):
    check_trick_endings(game, contract, rules, goal, tricks=8, n_deals=10, seed=500)
