"""analysis.review: a played hand reviewed card by card against double-dummy play.

The reference is the naive minimax of ``tests/bruteforce.py`` (no solver, no compiled core):
on random endings of several games a random legal line is played out and every row of the
review (the value with the mover's best card, after the card played, the loss, the best
cards) is checked against the brute force.  Whole rounds played by the round engine are
reviewed too, and what the review says the side took is checked against the round's own
record.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import bruteforce as bf  # noqa: E402

from analysis.cli import main  # noqa: E402
from analysis.review import review_play, review_round  # noqa: E402
from trickcore.cards import parse_card  # noqa: E402
from trickcore.games import get_game  # noqa: E402
from trickcore.policies import HeuristicPolicy, RandomPolicy  # noqa: E402
from trickcore.rounds import play_round  # noqa: E402

# (game, contract, perspective, tricks left at the start of the ending)
CASES = [
    ("goathead3", "hearts", "side", 3),
    ("goathead3", "court", "side", 3),
    ("goathead3", "nil", "side", 3),
    ("goathead4", "clubs", "side", 3),
    ("sheepshead", "jd", "side", 2),
    ("sheepshead", "called_ace_clubs", "side", 3),     # the called ace's must-play rule: suits led
    ("sheepshead", "leaster", "seat", 2),
    ("clover", "hearts", "side", 3),
    ("spades", "spades", "side", 3),
    ("hearts", "hearts", "seat", 3),
    ("gamut", "clubs", "seat", 3),
]


def _layout_suits_led(layout, pos):
    """The position's effective suits led, as the layout's bit mask (the reference names
    trump ``"T"`` and plain suits by their printed index)."""
    mask = 0
    for c in pos.played[:: pos.rules.n_seats]:          # the lead of every finished trick
        mask |= 1 << layout.effective_suit(c)
    return mask


def _expected_rows(pos, line, side, goal, perspective):
    """Each card's (seat, before, after, loss, best cards) by brute force, in whole-play terms."""
    r = pos.rules
    n = r.n_seats
    taken = [0] * n
    cur = pos
    rows = []
    refs = {}
    for c in line:
        mover = cur.to_move
        ref_side = side if perspective == "side" else frozenset([mover])
        if r.objective == "nil" and sum(taken[s] for s in ref_side):
            rows.append((mover, 1, 1, 0, [], len(cur.legal()) == 1))     # decided: the nil failed
            cur = cur.play(c)
            continue
        want_max = (mover in ref_side) == (goal == "max")
        key = (ref_side, goal)
        if key not in refs:
            refs[key] = bf.BruteForce(r, ref_side, goal)
        vals = refs[key].card_values(cur)
        base = sum(taken[s] for s in ref_side)
        best = max(vals.values()) if want_max else min(vals.values())
        rows.append((mover, base + best, base + vals[c], abs(best - vals[c]),
                     sorted(x for x, v in vals.items() if v == best), len(vals) == 1))
        trick = cur.trick + (c,)
        nxt = cur.play(c)
        if len(trick) == n:
            w = (cur.leader + r.winner(trick)) % n
            if r.objective == "nil":
                taken[w] = 1 if w in side else 0
            elif r.objective == "tricks":
                taken[w] += 1
            else:
                taken[w] += sum(r.points.get(x, 0) for x in trick)
                if not any(nxt.hands):
                    taken[w] += r.last_trick_bonus
        cur = nxt
    return rows


@pytest.mark.parametrize("game,contract,perspective,tricks_left", CASES)
def test_review_matches_brute_force(game, contract, perspective, tricks_left):
    layout = get_game(game).layout(contract)
    rules = bf.rules_for(game, contract)
    rng = random.Random(f"{game}/{contract}")
    losses = 0
    for _ in range(12):
        pos = bf.random_position(rules, rng, tricks_left)
        side = pos.side()
        line, cur = [], pos
        while cur.trick or any(cur.hands):
            c = rng.choice(cur.legal())
            line.append(c)
            cur = cur.play(c)
        hands = [" ".join(bf.name(c) for c in sorted(h)) for h in pos.hands]
        played = " ".join(bf.name(c) for c in pos.played)
        mask = sum(1 << s for s in side)
        rev = review_play(layout, None, hands, [bf.name(c) for c in line], leader=pos.leader,
                          played=played or None, suits_led=_layout_suits_led(layout, pos),
                          sides=mask if perspective == "side" else None, perspective=perspective)
        expected = _expected_rows(pos, line, side, rules.goal, perspective)
        assert len(rev.moves) == len(line)
        for (_, row), (seat, before, after, loss, best, forced) in zip(rev.moves.iterrows(), expected):
            assert row.seat == seat and bool(row.forced) == forced and row.exact
            if forced and perspective == "seat":
                assert math.isnan(row.before) and row.loss == 0
                continue
            assert (row.before, row.after, row.loss) == (before, after, loss), (pos.describe(), row.to_dict())
            if not forced:
                assert set(row.best_cards.split()) == {str(parse_card(bf.name(b))) for b in best}
            losses += loss > 0
        if perspective == "side":
            assert rev.result == expected[-1][2]          # what the side took at the end
    assert losses > 0                                       # random play errs: the test sees losses


def test_side_values_chain_and_optimal_line_loses_nothing():
    """From the side's view the value after a card is the value before the next one, and the
    solver's own optimal line loses nothing and ends where it started."""
    from trickcore import solve
    from trickcore.deals import random_deals

    deals = random_deals("sheepshead", 3, seed=8)
    for d in deals:
        hands = [int(h) for h in d[:5]]
        best = solve("sheepshead", "jd", hands)
        rev = review_play("sheepshead", "jd", hands, best.line)
        assert (rev.moves.loss == 0).all()
        assert rev.start == rev.result == best.value
        m = rev.moves
        assert (m.after.iloc[:-1].to_numpy() == m.before.iloc[1:].to_numpy()).all()


@pytest.mark.parametrize("game,n", [("goathead3", 3), ("goathead4", 4), ("sheepshead", 5), ("clover", 4),
                                    ("spades", 4), ("hearts", 4), ("gamut", 4)])
def test_review_round_agrees_with_the_record(game, n):
    for seed in range(3):
        policies = [HeuristicPolicy() if s % 2 == 0 else RandomPolicy(seed=seed * 10 + s) for s in range(n)]
        rec = play_round(game, policies, seed=seed)
        if not rec.tricks or len({s for t in rec.tricks for s, _ in t.plays}) != n:
            continue                                        # thrown in, or seats folded
        # whole Hearts deals can take minutes a position: a node budget keeps the test short
        # (and deterministic); the rows it stops are marked inexact
        rev = review_round(rec, node_budget=20_000 if game == "hearts" else None)
        m = rev.moves
        assert len(m) == sum(len(t.plays) for t in rec.tricks)
        assert (m.loss.dropna() >= 0).all()
        if rev.perspective == "side":
            chain = m.after.iloc[:-1].to_numpy() == m.before.iloc[1:].to_numpy()
            assert chain.all()
            if "side_points" in rec.frame and rev.objective == "points":
                assert rev.result == rec.frame["side_points"]
            if rev.objective == "tricks":
                assert rev.result == sum(rec.trick_counts[s] for s in range(n) if rev.side >> s & 1)
        else:
            assert (game == "hearts" or (game == "gamut" and rec.contract != "spades")) and rev.side == 0


def test_review_round_refuses_oh_hell_and_thrown_in_rounds():
    rec = play_round("ohhell", [HeuristicPolicy() for _ in range(4)], seed=0)
    with pytest.raises(ValueError, match="Oh Hell is not reviewed"):
        review_round(rec)
    with pytest.raises(ValueError, match="no card play to review"):
        review_round(object())


HANDS = ["AC 10C", "10D JC", "JD QC"]


@pytest.mark.parametrize("play,message", [
    ("AC 10C", r"card 2 of the play, 10♣: seat 1 is to play but does not hold it \(seat 0 holds it\)"),
    ("AC QC", r"card 2 of the play, Q♣: seat 1 is to play but does not hold it \(seat 2 holds it\)"),
    ("10C", r"card 1 of the play, 10♣: .*legal|not a legal card"),
    ("AC 10D QC 10C JC JD AC", r"7 cards played, but the hands hold 6"),
    ("AC XX", r"card 2 of the play"),
    (42, r"play must be the cards"),
])
def test_bad_play(play, message):
    if play == "10C":
        # 10♣ is legal for seat 0 (a lead); make the follow illegal instead: seat 2 must follow clubs
        play, message = "AC JC JD", r"card 3 of the play, J♦: not a legal card for seat 2 here \(legal: Q♣\)"
    with pytest.raises(ValueError, match=message):
        review_play("goathead3", "hearts", HANDS, play)


def test_bad_arguments():
    with pytest.raises(ValueError, match="perspective must be one of side, seat"):
        review_play("goathead3", "hearts", HANDS, "AC", perspective="north")
    with pytest.raises(ValueError, match="a nil is reviewed from the nil player's side only"):
        review_play(get_game("spades").layout("spades").with_objective("nil"), None,
                    ["AS", "KS", "QS", "JS"], "AS", perspective="seat")
    with pytest.raises(ValueError, match="goal must be 'max' or 'min'"):
        review_play("goathead3", "hearts", HANDS, "AC", goal="most")
    with pytest.raises(ValueError, match="hands of unequal size"):
        review_play("goathead3", "hearts", ["AC 10C", "10D", "JD QC"], "AC")
    with pytest.raises(ValueError, match="leader must be a seat 0..2"):
        review_play("goathead3", "hearts", HANDS, "AC", leader=3)
    with pytest.raises(ValueError, match="sides must be a non-empty seat bit mask"):
        review_play("goathead3", "hearts", HANDS, "AC", sides=0)
    with pytest.raises(ValueError, match="played cards .* still in a hand"):
        review_play("goathead3", "hearts", HANDS, "AC", played="AC")


def test_time_budget_leaves_unsolved_rows():
    """A position whose solve runs out of budget keeps its row, marked inexact."""
    from trickcore.deals import random_deals

    hands = [int(h) for h in random_deals("sheepshead", 1, seed=8)[0, :5]]
    first_card = min(get_game("sheepshead").layout("jd").legal_moves(hands[0]))
    rev = review_play("sheepshead", "jd", hands, [first_card], node_budget=1)
    first = rev.moves.iloc[0]
    assert not first.exact and math.isnan(first.loss) and math.isnan(first.before)
    assert rev.start is None
    assert rev.summary().unsolved.sum() >= 1


def test_cli_review(capsys):
    code = main(["review", "goathead3", "hearts", "--hands", *HANDS, "--play", "AC 10D QC 10C JC JD"])
    out = capsys.readouterr().out
    assert code == 0
    assert "10♦" in out and "24" in out and "J♣" in out
    assert "double-dummy value at the start 0, taken 24" in out
    code = main(["review", "goathead3", "hearts", "--hands", *HANDS, "--play", "AC QC"])
    assert code == 2
    assert "does not hold it" in capsys.readouterr().err


# --------------------------------------------------------------------------------------
# play_and_review: the informed columns

def test_pimc_players_lose_nothing_informed_under_their_own_samples():
    """PIMC plays the card with the best mean over its samples; judged with the same seed,
    samples and bid reading, every card it chose has ev_loss 0 (where it did not fall back
    to the heuristic: positions of more than max_cards cards)."""
    from analysis.review import play_and_review
    from trickcore.policies import PIMCPolicy

    checked = 0
    for game, n in (("goathead3", 3), ("sheepshead", 5)):
        pols = [PIMCPolicy(samples=6, seed=3) for _ in range(n)]
        rec, rev = play_and_review(game, pols, seed=2, samples=6, review_seed=3)
        m = rev.moves
        own = m[~m.forced]
        assert (own.ev_loss.abs() < 1e-9).all(), own[own.ev_loss.abs() >= 1e-9]
        checked += len(own)
        # the double-dummy columns are review_round's
        assert m[["before", "after", "loss"]].equals(review_round(rec).moves[["before", "after", "loss"]])
    assert checked > 20


def _late_observations(seeds, most_cards):
    """Card decisions (observation, round record) of heuristic Goathead rounds with at most
    ``most_cards`` cards in the hands, a choice to make, a declarer, no void shown by
    another seat and no kitty known to the mover."""
    from trickcore.rounds import drive, start_round

    for seed in seeds:
        found = []

        class Watch(HeuristicPolicy):
            def play(self, obs):
                others = [s for s in range(3) if s != obs.seat]
                if (len(obs.legal) > 1 and sum(obs.hand_sizes) <= most_cards and obs.declarer is not None
                        and not any(obs.voids[s] for s in others) and not obs.kitty_known):
                    found.append(obs)
                return super().play(obs)

        rec = drive(start_round("goathead3", seed=seed), [Watch()] * 3)
        for obs in found:
            if rec.side_mask:
                yield obs, rec


def test_informed_values_match_exact_enumeration():
    """Late in a Goathead hand, with no voids shown, the deals the mover cannot tell apart
    can be listed: each card's sampled mean comes within four standard errors of its exact
    mean over all of them (the sampler deals uniformly where no void constrains it)."""
    import itertools

    from trickcore import solve
    from trickcore.cards import CardSet
    from trickcore.policies import PIMCPolicy

    samples = 400
    checked = 0
    for obs, rec in _late_observations(range(11, 41), 12):
        others = [s for s in range(3) if s != obs.seat]
        unseen = list(obs.layout.deck - obs.played - obs.hand)
        played_before = CardSet(c for t in obs.tricks for _, c in t.plays)
        sign = 1 if rec.side_mask >> obs.seat & 1 else -1
        values = {c: [] for c in obs.legal}
        for first in itertools.combinations(unseen, obs.hand_sizes[others[0]]):
            rest = [c for c in unseen if c not in first]
            for second in itertools.combinations(rest, obs.hand_sizes[others[1]]):
                hands = [CardSet()] * 3
                hands[obs.seat], hands[others[0]], hands[others[1]] = obs.hand, CardSet(first), CardSet(second)
                r = solve(obs.layout, None, hands, leader=obs.leader if obs.leader is not None else obs.seat,
                          trick=[c for _, c in obs.trick], played=played_before, sides=rec.side_mask)
                for c in obs.legal:
                    values[c].append(sign * r.card_values[c])
        got = PIMCPolicy(samples=samples, seed=0).expected_card_values(obs)
        for c in obs.legal:
            v = values[c]
            exact = sum(v) / len(v)
            sd = (sum((x - exact) ** 2 for x in v) / len(v)) ** 0.5
            assert abs(got[c] - exact) <= 4 * sd / samples ** 0.5 + 1e-9, (c, got[c], exact, len(v))
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_play_and_review_bad_input():
    from analysis.review import play_and_review

    with pytest.raises(ValueError, match="samples must be a whole number, at least 1"):
        play_and_review("goathead3", [HeuristicPolicy()] * 3, seed=1, samples=0)
    with pytest.raises(ValueError, match="needs 3 policies"):
        play_and_review("goathead3", [HeuristicPolicy()] * 2, seed=1)
    with pytest.raises(ValueError, match="policies must be one policy per seat"):
        play_and_review("goathead3", HeuristicPolicy(), seed=1)


def test_cli_review_round(capsys):
    code = main(["review", "goathead3", "--round", "4", "--samples", "4"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("round 4 (heuristic players): contract ")
    assert "ev_loss" in out and "informed_loss" in out
    for argv, message in ((["review", "goathead3", "hearts", "--round", "4"], "--round plays a round itself"),
                          (["review", "goathead3", "hearts", "--hands", *HANDS], "give CONTRACT, --hands and --play"),
                          (["review", "goathead3", "--round", "4", "--samples", "0"], "samples must be")):
        assert main(argv) == 2
        assert message in capsys.readouterr().err


def test_play_and_review_keeps_the_informed_columns_where_double_dummy_is_refused():
    from analysis.review import play_and_review

    rec, rev = play_and_review("ohhell", [HeuristicPolicy()] * 4, seed=1, samples=2, hand_size=3)
    assert rev.note.startswith("no double-dummy review: Oh Hell is not reviewed")
    m = rev.moves
    assert len(m) == 12 and m.loss.isna().all() and not m.exact.any()
    assert (m.ev_loss.dropna() >= 0).all() and m.ev_loss.notna().all()
