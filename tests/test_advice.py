"""``analysis.card_odds``: each legal card judged over the layouts a seat cannot see.

The truth check enumerates the layouts again with plain ``itertools`` and solves every
card on every layout with the brute-force reference (``bruteforce.py``, which shares no
code with the solver), so the layouts (which deals fit the voids and the known cards), the
sides, the cards taken before and every card's value are checked independently."""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bruteforce as bf  # noqa: E402

from analysis import card_odds  # noqa: E402
from trickcore import get_game  # noqa: E402
from trickcore.cards import Card, CardSet  # noqa: E402


def _text(cards) -> str:
    return " ".join(str(Card(c)) for c in cards)


def _random_play(rules: bf.Rules, rng: random.Random, tricks_left: int, on_table: int):
    """A deal and a random legal play up to the position: (start hands, kitty, sequence,
    position)."""
    hands, kitty = bf.deal(rules, rng)
    leader = 0
    if rules.first_lead is not None:
        leader = next(s for s, h in enumerate(hands) if rules.first_lead in h)
    pos = bf.Position(rules, [set(h) for h in hands], leader, deal=[frozenset(h) for h in hands], kitty=kitty)
    sequence = []
    for _ in range((rules.hand_size - tricks_left) * rules.n_seats + on_table):
        c = rng.choice(pos.legal())
        sequence.append(c)
        pos = pos.play(c)
    return hands, kitty, sequence, leader


def _replay(rules: bf.Rules, start: list, leader: int, sequence: list, declarer: int) -> bf.Position:
    pos = bf.Position(rules, [set(h) for h in start], leader, declarer=declarer,
                      deal=[frozenset(h) for h in start])
    for c in sequence:
        pos = pos.play(c)
    return pos


def _taken(rules: bf.Rules, leader: int, sequence: list, side) -> int:
    n = rules.n_seats
    total = 0
    for k in range(0, len(sequence) - len(sequence) % n, n):
        trick = sequence[k:k + n]
        won = (leader + rules.winner(trick)) % n
        if won in side:
            total += 1 if rules.objective != "points" else sum(rules.points.get(c, 0) for c in trick)
        leader = won
    return min(total, 1) if rules.objective == "nil" else total


def reference(rules: bf.Rules, seat: int, start_hand, sequence: list, leader: int, declarer, known: dict,
              kitty_known, aim, keep=lambda start: True):
    """``{card: [whole-hand value on every layout]}``, whether the seat wants the value
    high on each layout, and the layouts' count: the slow way."""
    n = rules.n_seats
    plays_by = {s: [] for s in range(n)}
    voids = {s: set() for s in range(n)}
    lead_seat = leader
    for k, c in enumerate(sequence):
        at = k % n
        if at == 0 and k:
            trick = sequence[k - n:k]
            lead_seat = (lead_seat + rules.winner(trick)) % n
        mover = (lead_seat + at) % n
        plays_by[mover].append(c)
        led = sequence[k - at]
        if at and rules.suit_of(c) != rules.suit_of(led):
            voids[mover].add(rules.suit_of(led))
    seen = set(start_hand) | set(sequence) | set(kitty_known)
    for t, cs in known.items():
        seen |= set(cs)
    unseen = sorted(set(rules.deck) - seen)
    others = [t for t in range(n) if t != seat]
    need = {t: rules.hand_size - len(plays_by[t]) - len(set(known.get(t, ())) - set(sequence)) for t in others}
    values: dict[int, list[int]] = {}
    wishes: list[bool] = []
    layouts_seen: list[tuple] = []      # (side, kitty) of each layout, for the payouts
    count = 0

    def layouts(i, left, chosen):
        if i == len(others):
            yield dict(chosen)
            return
        t = others[i]
        ok = [c for c in left if rules.suit_of(c) not in voids[t]]
        for combo in itertools.combinations(ok, need[t]):
            chosen[t] = combo
            yield from layouts(i + 1, [c for c in left if c not in combo], chosen)

    for lay in layouts(0, unseen, {}):
        start = [None] * n
        start[seat] = set(start_hand)
        for t in others:
            start[t] = set(lay[t]) | set(plays_by[t]) | set(known.get(t, ()))
        if not keep(start):
            continue
        count += 1
        if aim == "declarer":
            side, goal = rules.side(start, declarer), rules.goal
        elif aim == "team":
            side, goal = {seat, (seat + 2) % n}, "max"
        else:
            side, goal = {seat}, aim
        pos = _replay(rules, start, leader, sequence, declarer if declarer is not None else seat)
        search = bf.BruteForce(rules, side, goal)
        wishes.append((goal == "max") == (seat in side))
        assigned = set().union(*(set(lay[t]) for t in others))
        layouts_seen.append((side, set(unseen) - assigned | set(kitty_known), start))
        base = _taken(rules, leader, sequence, side)
        for c in pos.legal():
            v = search.after(pos, c)
            values.setdefault(c, []).append(max(base, v) if rules.objective == "nil" else base + v)
    reference.layouts = layouts_seen
    return values, wishes, count


def _choices(rules: bf.Rules, name: str, tricks_left: int, on_table: int):
    """Random positions where the seat to move has a choice, one per trial that has one:
    ``(trial, rng, start hands, kitty, sequence, first leader, seat)``."""
    for trial in range(40):
        rng = random.Random(f"{name}/{trial}")
        start, kitty, sequence, leader = _random_play(rules, rng, tricks_left, on_table)
        pos = _replay(rules, start, leader, sequence, 0)
        if len(pos.legal()) >= 2:
            yield trial, rng, start, kitty, sequence, leader, pos.to_move


CASES = [
    # game, contract, tricks left, cards on the table, aim (declarer / team / a goal alone), rules
    ("goathead3", "hearts", 3, 1, "declarer", {}),
    ("goathead3", "nil", 3, 2, "declarer", {}),
    ("goathead4", "clubs", 2, 2, "declarer", {}),
    ("goathead3", "leasters", 3, 1, "min", {}),
    ("sheepshead", "jd", 2, 3, "declarer", {}),
    ("sheepshead", "called_ace_clubs", 2, 4, "declarer", {}),
    ("sheepshead", "leaster", 2, 4, "min", {}),
    ("clover", "hearts", 2, 1, "declarer", {}),
    ("gamut", "hearts", 2, 2, "min", {}),
    ("gamut", "clubs", 2, 1, "max", {}),
    ("gamut", "spades", 2, 3, "team", {}),
    ("hearts", "hearts", 2, 1, "min", {}),
    ("spades", "spades", 2, 2, "team", {"bid": 4}),
    ("spades", "spades", 2, 1, "min", {"bid": 0}),
    ("ohhell", "notrump", 2, 1, "ohhell", {"rules": {"hand_size": 4}}),
]


@pytest.mark.parametrize("game,contract,tricks_left,on_table,aim,extra", CASES)
def test_card_values_equal_the_brute_force_over_every_layout(game, contract, tricks_left, on_table, aim, extra):
    """Every card's mean whole-hand value, best share and loss over every layout that fits
    the seat's view equal the brute force's on the same enumeration; the layouts' count
    equals itertools'."""
    rules_opts = extra.get("rules", {})
    rules = bf.rules_for(game, contract, **rules_opts)
    checked = 0
    for trial, rng, start, kitty, sequence, leader, seat in _choices(rules, f"{game}/{contract}", tricks_left,
                                                                      on_table):
        declarer = rng.randrange(rules.n_seats) if aim == "declarer" else None
        kw = {k: v for k, v in extra.items() if k != "rules"}
        known_kitty = kitty if game == "ohhell" else ()      # (Oh Hell's 36 undealt cards would be too many)
        this_aim = aim
        if game == "ohhell":
            kw["bid"] = rng.randrange(rules.hand_size + 1)
            taken = _taken(rules, leader, sequence, {seat})
            this_aim = "min" if taken >= kw["bid"] else "max"
        known = {}
        if trial % 2:        # a card the seat saw go to another seat (passed, turned) before the play
            t = rng.choice([t for t in range(rules.n_seats) if t != seat])
            known = {t: [rng.choice(sorted(start[t]))]}
        values, wishes, count = reference(rules, seat, start[seat], sequence, leader, declarer, known, known_kitty,
                                          this_aim)
        f = card_odds(game, contract, _text(start[seat]), seat=seat, play=_text(sequence), leader=leader,
                      declarer=declarer, kitty=_text(known_kitty) or None, rules=rules_opts, exact_limit=5000,
                      known={t: _text(cs) for t, cs in known.items()}, **kw)
        assert f.attrs["exact"] and f.attrs["layouts"] == count
        # (Goathead 4p: a seat holding one black jack may not know whose side it is on)
        better = "mixed" if len(set(wishes)) == 2 else "higher" if wishes[0] else "lower"
        assert f.attrs["better"] == better
        assert set(f["card"]) == {str(Card(c)) for c in values}
        sign = np.where(wishes, 1, -1)
        signed = {c: np.array(v) * sign for c, v in values.items()}
        best = np.max(np.vstack(list(signed.values())), axis=0)
        for _, row in f.iterrows():
            c = next(c for c in values if str(Card(c)) == row["card"])
            assert row["value"] == pytest.approx(float(np.mean(values[c])), abs=1e-9), (row["card"], trial)
            assert row["value_lo"] == row["value"] == row["value_hi"]
            assert row["best"] == pytest.approx(float(np.mean(signed[c] == best)), abs=1e-9)
            assert row["loss"] == pytest.approx(float(np.mean(best - signed[c])), abs=1e-9)
        checked += 1
        if checked == 4:
            break
    assert checked == 4, f"too few positions with a choice ({checked})"


@pytest.mark.parametrize("game,contract,tricks_left,on_table", [
    ("goathead3", "clubs", 3, 1), ("goathead3", "nil", 3, 2), ("goathead4", "hearts", 2, 3),
    ("goathead4", "court", 2, 3)])
def test_payouts_equal_the_scorer_on_brute_force_values(game, contract, tricks_left, on_table):
    """``payout`` and ``p_make`` are the game's scorer applied to every layout's whole hand.
    Reference: the brute force's value of each card on each layout, the layout's kitty,
    scored by :func:`trickcore.scoring.score` (every Goathead card has points, so the side
    took every trick exactly when it took every point, and none when it took no point;
    nil: the value is whether it took a trick)."""
    import pandas as pd

    from trickcore.scoring import score

    rules = bf.rules_for(game, contract)
    total = sum(rules.points.get(c, 0) for c in rules.deck)
    checked = 0
    for trial, rng, start, _kitty, sequence, leader, seat in _choices(rules, f"payout/{game}/{contract}",
                                                                       tricks_left, on_table):
        declarer = rng.randrange(rules.n_seats)
        exchanged = bool(trial % 2)
        mult = 1 + trial % 3
        values, wishes, count = reference(rules, seat, start[seat], sequence, leader, declarer, {}, (), "declarer")
        layouts = reference.layouts
        f = card_odds(game, contract, _text(start[seat]), seat=seat, play=_text(sequence), leader=leader,
                      declarer=declarer, exchanged=exchanged, multiplier=mult, exact_limit=5000)
        assert f.attrs["layouts"] == count
        for c, vals in values.items():
            rows = []
            for v, (side, kit, _start) in zip(vals, layouts):
                kitty_points = sum(rules.points.get(x, 0) for x in kit)
                in_tricks = total - kitty_points
                if contract == "nil":
                    points, tricks = 0, v
                else:
                    points = v      # every trick holds points: all of them = every trick, none = no trick
                    tricks = rules.hand_size if v == in_tricks else 0 if v == 0 else 1
                rows.append({"contract": contract, "declarer": declarer, "side_mask": sum(1 << s for s in side),
                             "side_points": points, "side_tricks": tricks, "kitty_points": kitty_points,
                             "exchanged": exchanged, "multiplier": mult})
            scored = score(game, pd.DataFrame(rows))
            row = f[f["card"] == str(Card(c))].iloc[0]
            assert row["payout"] == pytest.approx(scored[f"payout_{seat}"].mean(), abs=1e-9), (str(Card(c)), trial)
            assert row["p_make"] == pytest.approx(scored["made"].astype(float).mean(), abs=1e-9)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


@pytest.mark.parametrize("game,contract", [("goathead3", "hearts"), ("goathead4", "clubs"), ("sheepshead", "jd"),
                                           ("sheepshead", "called_ace_spades"), ("clover", "hearts")])
def test_first_card_of_the_optimal_line_pays_what_the_simulation_pays(game, contract):
    """With every card known (one layout), at the first lead, the card the solver's optimal
    line starts with is worth the deal's double-dummy value and pays what
    :func:`analysis.evaluate` pays for the deal: the same scorer, fed by play results
    (side tricks, last trick, Clover's trick melds) read off a different line of code."""
    from analysis import evaluate
    from trickcore import solve
    from trickcore.deals import random_deals

    g = get_game(game)
    lay = g.layout(contract)
    n = g.n_seats
    for i, deal in enumerate(random_deals(game, 4, seed=11)):
        declarer = i % n
        hands = [CardSet(int(deal[s])) for s in range(n)]
        best = solve(lay, None, hands, leader=0, declarer=declarer)
        kitty = CardSet(int(deal[n])) if g.kitty_size else None
        f = card_odds(game, contract, hands[0], seat=0, leader=0, declarer=declarer,
                      known={t: hands[t] for t in range(1, n)}, kitty=kitty)
        assert f.attrs["layouts"] == 1 and f.attrs["exact"]
        row = f[f["card"] == str(best.line[0])].iloc[0]
        assert row["value"] == best.value
        want = evaluate(game, contract, np.asarray([deal]), declarer=declarer, leader=0).iloc[0]
        assert row["payout"] == float(want["payout_0"]), (i, str(best.line[0]))
        assert row["p_make"] == float(bool(want["made"]))
        values = {str(c): v for c, v in best.card_values.items()}
        assert dict(zip(f["card"], f["value"])) == values


def test_sampled_intervals_cover_the_exact_figures():
    """Sampled layouts (seeded) give intervals around the exact figures of every layout,
    and the same seed the same figures."""
    args = ("goathead3", "clubs", "QD JC 10S JD KH KC")
    kw = dict(seat=2, declarer=0, leader=1, play="10D QD QC  JS JH JC")
    exact = card_odds(*args, method="exact", **kw).set_index("card")
    # 99.9% intervals: twelve of them must all cover (the z-scores of 30 seeds' samples
    # had mean 0.04 and standard deviation 1.02 against the exact figures)
    sampled = card_odds(*args, method="sample", samples=300, seed=3, level=0.999, **kw).set_index("card")
    assert exact.attrs["exact"] and exact.attrs["layouts"] == 1050
    assert not sampled.attrs["exact"] and sampled.attrs["layouts"] == 300
    assert card_odds(*args, **kw).attrs["exact"]                   # auto: 1,050 layouts are few enough
    assert card_odds(*args, exact_limit=1000, **kw).attrs["layouts"] == 200   # else 200 samples
    for c in exact.index:
        e, s = exact.loc[c], sampled.loc[c]
        assert s["value_lo"] < e["value"] < s["value_hi"], c
        assert s["payout_lo"] <= e["payout"] <= s["payout_hi"], c
        assert s["p_make_lo"] <= e["p_make"] <= s["p_make_hi"], c
        assert s["diff_lo"] <= e["payout"] - exact["payout"].iloc[0] <= s["diff_hi"], c
        assert e["diff"] == pytest.approx(e["payout"] - exact["payout"].iloc[0], abs=1e-12)
    again = card_odds(*args, method="sample", samples=300, seed=3, level=0.999, **kw).set_index("card")
    assert again.equals(sampled)


def test_a_budget_too_short_for_one_layout(capsys):
    from analysis.cli import main

    with pytest.raises(TimeoutError, match="before a first layout"):
        card_odds("sheepshead", "jd", "QC JD AH 10H 9C 7S", seat=0, declarer=0, leader=0, time_budget=1e-9)
    assert main(["advise", "sheepshead", "jd", "QC JD AH 10H 9C 7S", "--seat", "0", "--declarer", "0",
                 "--time-budget", "1e-9"]) == 3
    assert "before a first layout" in capsys.readouterr().err


def test_time_budget_keeps_the_layouts_solved():
    f = card_odds("sheepshead", "jd", "QC JD AH 10H 9C 7S", seat=0, declarer=0, leader=0, method="sample",
                  samples=100_000, time_budget=1.5)
    assert f.attrs["stopped"] and 0 < f.attrs["layouts"] < 100_000 and not f.attrs["exact"]
    assert len(f) == 6 and f["value"].notna().all()


BAD = [
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, play="AH AH"),
     "card 2 of the play, A♥: played twice"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, play="AS"),
     "seat 0 \\(the seat asking\\) is to play and does not hold it"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=2, declarer=0, play="AS JC"),
     "seat 1 is to play it, but it is in the hand of seat 2"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, play="AH"),
     "it is seat 1's turn, not seat 0's"),
    (dict(game="goathead3", contract="hearts", hand="AC KS QS AS KD QD", seat=0, declarer=0,
          play="AS KC QC  KS 10S"), "card 5 of the play, 10♠: seat 1 showed void in spades before"),
    (dict(game="goathead3", contract="hearts", hand="AC KS QS AS KD QD", seat=0, declarer=0, play="KS",
          leader=0), "after the play it is seat 1's turn, not seat 0's"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH", seat=0, declarer=0), "the hand has 5 cards"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH 9H", seat=0, declarer=0), "bad hand|not in the deck"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0), "give declarer="),
    (dict(game="goathead3", contract="grand", hand="JC AH 10H KH QH JS", seat=0, declarer=0), "unknown contract"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=3, declarer=0), "seat must be a seat"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, known={1: "JC"}),
     "placed twice"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, known={0: "AS"}),
     "the seat asking"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0,
          kitty="AS KS QS"), "leaves 2 out of the hands"),
    (dict(game="goathead3", contract="hearts", hand="AC KS QS AS KD QD", seat=1, declarer=0, play="AS",
          known={2: "KC"}, kitty="KC"), "placed twice"),
    (dict(game="spades", contract="spades", hand="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", seat=0), "bid="),
    (dict(game="hearts", contract="hearts", hand="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", seat=0, bid=2),
     "leave bid out"),
    (dict(game="hearts", contract="hearts", hand="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", seat=0, declarer=1),
     "no declarer"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, method="all"),
     "method must be one of"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, samples=0),
     "samples must be a positive"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, level=1.5),
     "level must be"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, multiplier=0),
     "multiplier must be"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, samples=2.5),
     "samples must be a whole number"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, exchanged="yes"),
     "exchanged must be True or False"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, seed=-1),
     "seed"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, where="picker"),
     "not a constraint"),
    (dict(game="goathead3", contract="hearts", hand="AC KS QS AS KD QD", seat=0, declarer=0, leader=1,
          play="10S JS KD"), "card 3 of the play, K♦: not a legal card for seat 0 here \\(legal: A♠ K♠ Q♠\\)"),
    (dict(game="goathead3", contract="hearts", hand="JC AH 10H KH QH JS", seat=0, declarer=0, rules={"x": 1}),
     "unknown rule option"),
    (dict(game="hearts", contract="hearts", hand="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", seat=0,
          bids=[(1, 3)]), "bids are read in spades and ohhell only"),
    (dict(game="spades", contract="spades", hand="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", seat=0,
          bids=[(1, 3), (1, 4)]), "a seat at most once"),
    (dict(game="spades", contract="spades", hand="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", seat=0,
          bids=[(1, 14)]), "tricks 0..13"),
    (dict(game="spades", contract="spades", hand="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", seat=0,
          bids=[(1, "x")]), "bids must be"),
    (dict(game="spades", contract="spades", hand="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", seat=0, bid=5,
          bids=[(0, 4), (1, 2)]), "bid=5 but bids give seat 0 4"),
    (dict(game="spades", contract="spades", hand="AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", seat=0,
          bids=[(1, 2)]), "give the seat's own bid"),
]


@pytest.mark.parametrize("kw,message", BAD)
def test_bad_input_is_a_clear_value_error(kw, message):
    kw = dict(kw)
    with pytest.raises(ValueError, match=message):
        card_odds(kw.pop("game"), kw.pop("contract"), kw.pop("hand"), **kw)


def test_where_keeps_the_layouts_it_assumes():
    """``where`` (an :mod:`analysis.constraints` predicate on the deal at the start of the
    play) judges the cards on the layouts it holds on only: exactly those of the
    reference's enumeration, and, sampled, only such layouts."""
    from analysis import Count, Holds, trumps

    rules = bf.rules_for("goathead3", "clubs")
    hand = bf.cards("QD JC TS JD KH KC")
    sequence = bf.cards("TD QD QC JS JH JC TS AS KS AC TC")
    values, _, count = reference(rules, 2, hand, sequence, 1, 0, {}, (), "declarer",
                                 keep=lambda start: bf.card("AH") in start[0])
    f = card_odds("goathead3", "clubs", _text(hand), seat=2, declarer=0, leader=1, play=_text(sequence),
                  where=Holds(0, "AH"))
    assert 0 < f.attrs["layouts"] == count < 36
    for c, v in values.items():
        assert f.set_index("card").loc[str(Card(c)), "value"] == pytest.approx(np.mean(v), abs=1e-9)
    strong = Count(0, trumps("sheepshead", "jd"), min=5)
    args = ("sheepshead", "jd", "QC JH AD 10C 9S 7H")
    kw = dict(seat=2, declarer=0, leader=0, play="AC 8C", method="sample", samples=40, seed=1)
    assumed = card_odds(*args, where=strong, **kw)
    assert assumed.attrs["layouts"] == 40
    assert assumed["p_make"].iloc[0] > card_odds(*args, **kw)["p_make"].iloc[0]
    with pytest.raises(ValueError, match="no layout of the unseen cards fits the voids shown, the known cards "
                                         "and the hand sizes and seat 0 holds Q♦"):
        card_odds("goathead3", "clubs", _text(hand), seat=2, declarer=0, leader=1, play=_text(sequence),
                  where=Holds(0, "QD"))
    with pytest.raises(ValueError, match="drawn layouts satisfied seat 0 holds at least 7"):
        card_odds(*args, where=Count(0, trumps("sheepshead", "jd"), min=7), **kw)


def test_ctrl_c_carries_the_layouts_solved(monkeypatch, capsys):
    """An interrupt (Ctrl-C) in the middle of the layouts keeps what was solved: the
    exception's ``partial_result``, and the CLI prints it before exiting with 130.  The
    layouts go to the solver 1, 2, 4, 8, ... at a time (calls this quick double the
    group), each layout's cards one after the other in a call: an interrupt keeps the
    layouts the call had finished after every card."""
    import analysis.advice as advice
    import trickcore.solver as solver
    from analysis.cli import main

    real, calls = solver.solve_many, [0]
    stop_at, finished = [4], [5]

    def interrupted(layout, contract, hands, **kwargs):
        calls[0] += 1
        if calls[0] == stop_at[0]:
            stop = KeyboardInterrupt()
            stop.partial_result = real(layout, contract, hands[:finished[0]], **{
                k: (v[:finished[0]] if isinstance(v, np.ndarray) and v.ndim and len(v) == len(hands) else v)
                for k, v in kwargs.items()})
            raise stop
        return real(layout, contract, hands, **kwargs)

    monkeypatch.setattr(solver, "solve_many", interrupted)
    monkeypatch.setattr(advice, "QUICK_CALL", float("inf"))
    args = ("goathead3", "clubs", "QD JC 10S JD KH KC")
    kw = dict(seat=2, declarer=0, leader=1, play="10D QD QC  JS JH JC  10S AS KS  AC 10C")
    # 2 cards a layout: call 1 solves layout 0, call 2 layouts 1-2, 3 layouts 3-6, 4 layouts 7-14
    for rows, kept in ((5, 7 + 2), (0, 7), (1, 7)):
        calls[0], finished[0] = 0, rows
        with pytest.raises(KeyboardInterrupt) as stop:
            card_odds(*args, **kw)
        part = stop.value.partial_result
        assert part.attrs["layouts"] == kept and part.attrs["stopped"] and not part.attrs["exact"]
    calls[0] = 0
    assert main(["advise", *args[:2], args[2], "--seat", "2", "--declarer", "0", "--leader", "1",
                 "--play", kw["play"]]) == 130
    captured = capsys.readouterr()
    assert "stopped early" in captured.out and "interrupted" in captured.err


def test_sampled_layouts_are_uniform_over_those_that_fit():
    """Drawn layouts are uniform over every layout that fits the voids: 3,600 draws over
    the 36 of the docstring's position (seat 0 has shown a void) pass a chi-square test
    against equal frequencies, and only fitting layouts are drawn."""
    from analysis.advice import _replay, _worlds

    lay = get_game("goathead3").layout("clubs")
    pos = _replay(lay, 2, "QD JC 10S JD KH KC", "10D QD QC  JS JH JC  10S AS KS  AC 10C", 1, None, None)
    assert pos.voids[0] and not pos.voids[1]          # seat 0 ruffed the first trick
    every, exact = _worlds(pos, "exact", 0, 0, 0, None)
    assert exact and len(every) == 36
    key = {tuple(h.mask for h in hands): i for i, (hands, _) in enumerate(every)}
    drawn, exact = _worlds(pos, "sample", 3600, 0, 5, None)
    counts = np.zeros(36)
    for hands, kitty in drawn:
        counts[key[tuple(h.mask for h in hands)]] += 1      # (a KeyError: a layout that does not fit)
    chi2 = float(((counts - 100) ** 2 / 100).sum())
    assert not exact and counts.sum() == 3600
    assert chi2 < 67.0          # the 99.9% point of chi-square with 35 degrees of freedom


def test_voids_that_no_layout_fits_are_a_value_error():
    """Goathead 3p, hearts: seat 1 leads its only club, A♣, and both others discard
    diamonds.  The three clubs left (K♣ Q♣ 10♣; J♣ is a trump) can then only lie in the
    kitty, which holds two: no layout fits, exact or sampled (the sampler's last resort,
    which ignores voids, is refused)."""
    for method in ("exact", "sample"):
        with pytest.raises(ValueError, match="no layout of the unseen cards fits the voids shown"):
            card_odds("goathead3", "hearts", "AC QS KS JS QH KH", seat=1, declarer=0, leader=1, play="AC 10D KD",
                      method=method, samples=5)


@pytest.mark.parametrize("game,contract,k", [("clover", "hearts", 9), ("clover", "spades", 14), ("sheepshead", "jd", 12),
                                            ("goathead3", "clubs", 7)])
def test_mid_hand_on_the_optimal_line_pays_what_the_simulation_pays(game, contract, k):
    """Every card known (one layout) after the first ``k`` cards of the solver's optimal
    line from the start: the line's next card is worth the deal's value, and its payout is
    :func:`analysis.evaluate`'s for the deal — the finished tricks' points, tricks and
    Clover's trick melds, read by :func:`card_odds`, and the rest of the line, which from a
    position on the line is the line's own continuation."""
    from analysis import evaluate
    from trickcore import solve
    from trickcore.deals import random_deals

    g = get_game(game)
    lay = g.layout(contract)
    n = g.n_seats
    for i, deal in enumerate(random_deals(game, 3, seed=23)):
        declarer = (i + 1) % n
        hands = [CardSet(int(deal[s])) for s in range(n)]
        best = solve(lay, None, hands, leader=0, declarer=declarer)
        # who plays the line's k-th card: replay the first k
        leader, trick, seat = 0, [], None
        for j, c in enumerate(best.line[:k + 1]):
            seat = (leader + len(trick)) % n
            if j == k:
                break
            trick.append(c)
            if len(trick) == n:
                leader = (leader + lay.trick_winner(trick)) % n
                trick = []
        kitty = CardSet(int(deal[n])) if g.kitty_size else None
        f = card_odds(game, contract, hands[seat], seat=seat, leader=0, declarer=declarer,
                      play=best.line[:k], known={t: hands[t] for t in range(n) if t != seat}, kitty=kitty)
        assert f.attrs["layouts"] == 1
        row = f[f["card"] == str(best.line[k])].iloc[0]
        assert row["value"] == best.value
        want = evaluate(game, contract, np.asarray([deal]), declarer=declarer, leader=0).iloc[0]
        assert (row["payout"], row["p_make"]) == (float(want[f"payout_{seat}"]), float(bool(want["made"]))), i


@pytest.mark.parametrize("game,seed,rules", [("spades", 3, {}), ("spades", 8, {}), ("ohhell", 4, {"hand_size": 5})])
def test_bids_weigh_the_layouts_as_pimc_does(game, seed, rules):
    """With the round's trick bids, every card's figures are the means over every layout
    weighed by :func:`trickcore.policies.inference.bid_weights` on the round engine's own
    observation of the seat (its bids, dealer and rules), the values the brute force's."""
    from trickcore.policies import HeuristicPolicy
    from trickcore.policies.inference import bid_weights
    from trickcore.rounds import start_round

    h = HeuristicPolicy()
    r = start_round(game, seed=seed, **rules)
    tricks_left = 2
    while True:
        d = r.pending
        obs = r.observe(d.seat)
        if d.kind == "play" and len(obs.tricks) == obs.layout.hand_size - tricks_left and len(obs.trick) == 1:
            break
        r.act(getattr(h, d.kind)(obs))
    seat, lay = d.seat, obs.layout
    plays = [c for t in obs.tricks for _, c in t.plays] + [c for _, c in obs.trick]
    start_hand = obs.hand | CardSet(c for t in obs.tricks for s, c in t.plays if s == seat)
    first = obs.tricks[0].leader
    made = [(s, b) for s, phase, b in obs.bids if phase == "bid"]
    own = dict(made)[seat]
    rules_bf = bf.rules_for(game, lay.contract, **rules)
    kitty = sorted(int(c) for c in lay.deck - CardSet(c for hs in r.hands for c in hs) - CardSet(plays))
    taken = sum(1 for t in obs.tricks if t.winner == seat)
    aim = ("min" if own == 0 else "team") if game == "spades" else ("min" if taken >= own else "max")
    values, _, count = reference(rules_bf, seat, [int(c) for c in start_hand], [int(c) for c in plays], first, None,
                                 {}, kitty if game == "ohhell" else (), aim)
    starts = [[CardSet(x) for x in st] for _, _, st in reference.layouts]
    w = bid_weights(obs, starts, {}, h)
    f = card_odds(game, lay.contract, start_hand, seat=seat, play=plays, leader=first, bids=made,
                  kitty=CardSet(kitty) if game == "ohhell" else None, rules=rules).set_index("card")
    assert f.attrs["exact"] and f.attrs["layouts"] == count
    assert f.attrs["n_eff"] == pytest.approx(1 / float(np.sum(w ** 2)))      # (w sums to 1)
    varied = len(set(np.round(w, 12))) > 1
    assert varied == (seed != 8)       # (seed 8: every layout fits the bids alike, late in the hand)
    for c, v in values.items():
        assert f.loc[str(Card(c)), "value"] == pytest.approx(float(np.dot(w, v)), abs=1e-9)
    sampled = card_odds(game, lay.contract, start_hand, seat=seat, play=plays, leader=first, bids=made,
                        kitty=CardSet(kitty) if game == "ohhell" else None, rules=rules, method="sample",
                        samples=400, seed=1, level=0.999).set_index("card")
    for c in f.index:
        assert sampled.loc[c, "value_lo"] <= f.loc[c, "value"] <= sampled.loc[c, "value_hi"], c
    plain = card_odds(game, lay.contract, start_hand, seat=seat, play=plays, leader=first, bid=own,
                      kitty=CardSet(kitty) if game == "ohhell" else None, rules=rules).set_index("card")
    assert "n_eff" not in plain.attrs
    for c, v in values.items():
        assert plain.loc[str(Card(c)), "value"] == pytest.approx(float(np.mean(v)), abs=1e-9)


@pytest.mark.parametrize("game", ["goathead3", "goathead4", "sheepshead", "clover", "gamut", "ohhell"])
def test_layouts_are_counted_as_listed(game):
    """The count that decides between every layout and samples (:func:`_count`) is the
    number of layouts the walk lists, with voids shown, kitties and known cards, at
    every decision of heuristic rounds late enough to list them all."""
    from analysis.advice import _count, _enumerate, _observation, _replay
    from trickcore.policies import HeuristicPolicy
    from trickcore.policies.pimc import HiddenDeals
    from trickcore.rounds import play_round

    n = get_game(game).n_seats
    checked = 0
    for seed in range(6):
        rec = play_round(game, [HeuristicPolicy() for _ in range(n)], seed=seed)
        if not rec.tricks or len(rec.tricks[0].plays) != n:
            continue
        lay = get_game(game).layout(rec.contract, **dict(rec.rules)) if rec.rules else get_game(game).layout(rec.contract)
        plays = [(s, c) for t in rec.tricks for s, c in t.plays]
        for k in range(len(plays) // 2, len(plays), 3):
            seat = plays[k][0]
            hand = " ".join(str(c) for s, c in plays if s == seat)
            try:
                pos = _replay(lay, seat, hand, " ".join(str(c) for _, c in plays[:k]), rec.tricks[0].leader, None, None)
            except ValueError:
                continue
            deals = HiddenDeals(_observation(pos))
            count = _count(deals, 3001)
            if count > 3000:
                continue
            listed = _enumerate(deals, pos, 10 ** 6)
            assert listed is not None and len(listed) == count, (game, seed, k)
            assert _count(deals, count) == count and (count < 2 or _count(deals, count - 1) == count - 1)
            checked += 1
    assert checked >= 3
