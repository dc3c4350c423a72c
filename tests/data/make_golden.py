"""Produce ``golden_deals.json``: deals and positions with exact double-dummy values.

Run from the repository root (takes a few minutes, single core)::

    PYTHONPATH=src python tests/data/make_golden.py

How the values are produced: ``tests/bruteforce.py`` (full minimax over every legal card,
rules re-written from the rule texts, no solver code) on

* full deals of Goathead 3 (6 tricks) and Goathead 4 (4 tricks), sides from the deal;
* for the larger games, positions 4 or 5 tricks from the end after a random legal play-out
  (Sheepshead: 4 tricks), some in the middle of a trick.

How they are cross-checked before being written (any disagreement aborts):

1. *Seat rotation*: the same position with every seat renumbered ``s -> s + 1`` (hands,
   leader, declarer, side) must have the same value;
2. *Zero sum* (points and tricks objectives): the side's value plus the value of the
   complementary side with the same goal (the same game seen from the other side: "S
   maximises its points" is "the others minimise S's points", i.e. maximise their own)
   must equal everything still in play (points plus last-trick bonus, or tricks left);
3. the root card values must contain the value as their max (min) for the player to move.

Nothing here reads the solver; ``tests/test_solver_truth.py::test_golden_deals`` compares
the solver against this file, and re-derives the cheap entries with the brute force.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import bruteforce as bf  # noqa: E402

# (game, contract, options, variant, how many, tricks left, mid-trick allowed)
PLAN = [
    ("goathead3", "hearts", {}, None, 2, 6, False),
    ("goathead3", "clubs", {}, None, 1, 6, False),
    ("goathead3", "court", {}, None, 1, 6, False),
    ("goathead3", "nil", {}, None, 2, 6, False),
    ("goathead3", "leasters", {}, None, 1, 6, False),
    ("goathead3", "spades", {}, None, 3, 5, True),
    ("goathead4", "spades", {}, None, 4, 4, False),
    ("goathead4", "hearts", {}, None, 3, 4, False),
    ("goathead4", "court", {}, None, 2, 4, False),
    ("goathead4", "nil", {}, None, 3, 4, False),
    ("goathead4", "leasters", {}, None, 2, 4, False),
    ("clover", "hearts", {}, None, 4, 4, True),
    ("clover", "notrump", {}, None, 3, 4, True),
    ("clover", "clubs", {}, "paranoid-min", 2, 4, True),
    ("gamut", "hearts", {}, None, 3, 4, True),
    ("gamut", "spades", {}, None, 3, 4, True),
    ("gamut", "clubs", {}, None, 3, 4, True),
    ("sheepshead", "jd", {}, None, 3, 4, True),
    ("sheepshead", "called_ace_clubs", {}, None, 3, 4, True),
    ("sheepshead", "leaster", {}, None, 2, 3, True),
    ("hearts", "hearts", {}, None, 4, 5, True),
    ("hearts", "hearts", {"jack_of_diamonds": True}, None, 2, 4, True),
    ("spades", "spades", {}, None, 4, 5, True),
    ("spades", "spades", {"spade_leading": "always"}, "paranoid-min", 2, 4, True),
    ("ohhell", "diamonds", {}, None, 3, 5, True),
    ("ohhell", "notrump", {"hand_size": 5}, None, 3, 5, False),
]


def rotate(pos: bf.Position, k: int) -> bf.Position:
    n = pos.rules.n_seats
    hands = [None] * n
    for s in range(n):
        hands[(s + k) % n] = set(pos.hands[s])
    deal = None
    if pos.deal is not None:
        deal = [None] * n
        for s in range(n):
            deal[(s + k) % n] = pos.deal[s]
    return bf.Position(pos.rules, hands, (pos.leader + k) % n, pos.trick, pos.played, pos.trick_index, pos.suits_led,
                       (pos.declarer + k) % n, deal, pos.kitty)


def live_total(pos: bf.Position) -> int:
    r = pos.rules
    if r.objective == "tricks":
        return pos.tricks_left
    cs = [c for h in pos.hands for c in h] + list(pos.trick)
    return sum(r.points.get(c, 0) for c in cs) + r.last_trick_bonus


def entry(case, pos: bf.Position) -> dict:
    game, contract, opts, variant = case
    r = pos.rules
    if variant == "paranoid-min":
        side, goal = frozenset([pos.declarer]), "min"
    else:
        side, goal = pos.side(), r.goal
    brute = bf.BruteForce(r, side, goal)
    value = brute.value(pos)
    cv = brute.card_values(pos)
    mover_in_side = pos.to_move in side
    best = max(cv.values()) if mover_in_side == (goal == "max") else min(cv.values())
    assert best == value, ("card values", pos.describe())
    n = r.n_seats
    for k in (1,):
        rp = rotate(pos, k)
        rside = frozenset((s + k) % n for s in side)
        assert bf.BruteForce(r, rside, goal).value(rp) == value, ("rotation", k, pos.describe())
    if r.objective != "nil":
        other = frozenset(range(n)) - side
        comp = bf.BruteForce(r, other, goal).value(pos)
        assert value + comp == live_total(pos), ("zero sum", value, comp, live_total(pos), pos.describe())
    return {
        "game": game,
        "contract": contract,
        "rules": opts,
        "variant": variant,
        "hands": [bf.names(sorted(h)) for h in pos.hands],
        "leader": pos.leader,
        "trick": bf.names(pos.trick),
        "played": bf.names(pos.played),
        "declarer": pos.declarer,
        "sides": sorted(side),
        "goal": goal,
        "value": value,
        "card_values": {bf.name(c): v for c, v in sorted(cv.items())},
        "full_deal": not pos.played and not pos.trick and pos.tricks_left == r.hand_size,
        "brute_force_nodes": brute.nodes,
    }


def main() -> None:
    rng = random.Random(20261121)
    out = []
    for game, contract, opts, variant, count, tricks, mid in PLAN:
        r = bf.rules_for(game, contract, **opts)
        for _ in range(count):
            on_table = rng.randrange(r.n_seats) if mid else 0
            pos = bf.random_position(r, rng, tricks, on_table)
            if not pos.played and not pos.trick:
                pos.leader = rng.randrange(r.n_seats)
            out.append(entry((game, contract, opts, variant), pos))
            print(game, contract, opts, variant, out[-1]["value"], out[-1]["brute_force_nodes"], flush=True)
    doc = {
        "about": "Exact double-dummy values by tests/bruteforce.py; produced and cross-checked by "
                 "tests/data/make_golden.py (seat rotation, zero sum, card values). Cards: rank + suit "
                 "letter (T = ten). 'played' lists earlier tricks in order, each led by its first card.",
        "positions": out,
    }
    (HERE / "golden_deals.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
