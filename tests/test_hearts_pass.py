"""Hearts' pass question (:mod:`analysis.hearts_pass`): the passes against the round
engine, the greedy play-outs against the playout kernel and the scorer, the table, bad
input and the command line."""

import json

import numpy as np
import pandas as pd
import pytest

from analysis.cli import main
from analysis.constraints import sample_deals
from analysis.hearts_pass import PASS_OFFSETS, hearts_pass_odds, heuristic_passes, passed_hands
from trickcore import CardSet
from trickcore.deals import random_deals
from trickcore.playouts import playout
from trickcore.policies import HeuristicPolicy
from trickcore.rounds import start_round
from trickcore.scoring import score

HAND = "QS AS KS 2C 3C 4C 5D 6D 7D 8H 9H 10H JH"
ROUND_INDEX = {"left": 0, "right": 1, "across": 2, "none": 3}     # the passing cycle of the round engine


def _cards(mask):
    return CardSet([c for c in range(64) if (int(mask) >> c) & 1])


@pytest.mark.parametrize("rules", [{}, {"jack_of_diamonds": True}])
def test_heuristic_passes_are_heuristicpolicys(rules):
    """On 200 random hands and 40 holding Q♠ with two to four lower spades: the three
    cards HeuristicPolicy passes in the round engine."""
    from analysis.constraints import Count

    deals = random_deals("hearts", 50, seed=9)[:, :4]
    guarded = np.concatenate([
        sample_deals("hearts", 10, seed=s, fixed={s % 4: "QS"}, where=Count(s % 4, "2S 3S 4S 5S 6S 7S 8S 9S 10S JS",
                                                                           min=k, max=k))[:, :4]
        for s, k in enumerate((2, 3, 3, 4))])
    deals = np.concatenate([deals, guarded])
    got = heuristic_passes(deals, rules)
    policy = HeuristicPolicy()
    kept = 0
    for d in range(len(deals)):
        r = start_round("hearts", hands=[_cards(x) for x in deals[d]], dealer=3, round_index=0, **rules)
        while r.pending.kind == "pass_cards":
            s = r.pending.seat
            cards = policy.pass_cards(r.observe(s))
            assert CardSet(list(cards)).mask == int(got[d, s]), (d, s)
            queen = CardSet("QS").mask
            kept += bool(int(deals[d, s]) & queen) and not int(got[d, s]) & queen
            r.act(cards)
    assert kept >= 20      # the guarded queens were met, and kept


@pytest.mark.parametrize("direction", list(PASS_OFFSETS))
@pytest.mark.parametrize("seat", [0, 2])
def test_passed_hands_are_the_round_engines(direction, seat):
    """The hands at the first trick when the analyst passes each candidate and the others
    pass as HeuristicPolicy: the round engine's."""
    deals = random_deals("hearts", 6, seed=3)[:, :4]
    policy = HeuristicPolicy()
    for d in range(len(deals)):
        mine = _cards(deals[d, seat]).cards_high_first()
        passes = [CardSet(mine[:3]), CardSet(mine[-3:]), CardSet([mine[0], mine[5], mine[12]])]
        hands = passed_hands(deals[d:d + 1], seat, direction, passes)
        for i, p in enumerate(passes):
            r = start_round("hearts", hands=[_cards(x) for x in deals[d]], dealer=3,
                            round_index=ROUND_INDEX[direction])
            while r.pending.kind == "pass_cards":
                s = r.pending.seat
                r.act(tuple(p.cards_high_first()) if s == seat else policy.pass_cards(r.observe(s)))
            assert [h.mask for h in r.hands] == [int(x) for x in hands[i, 0]], (d, i)


def test_points_are_greedy_playouts_scored():
    t = hearts_pass_odds(HAND, n_deals=300, seed=4, candidates=["QS AS KS", "2C 3C 4C", "8H 9H 10H"])
    # recomputed: the same layouts, the kernel's greedy play and the scorer, one candidate at a time
    deals = sample_deals("hearts", 300, 4, fixed={0: CardSet(HAND)})[:, :4]
    for cand in ("QS AS KS", "2C 3C 4C", "8H 9H 10H"):
        hands = passed_hands(deals, 0, "left", [CardSet(cand)])[0]
        r = playout("hearts", "hearts", hands, policy="greedy")
        frame = {"contract": ["hearts"] * len(hands)}
        won = np.asarray(r.cards)
        winners = np.asarray(r.winners)
        for s in range(4):
            taken = np.where(winners[:, :, None] == s, won, -1)
            frame[f"hearts_{s}"] = ((taken >= 32) & (taken < 48)).sum(axis=(1, 2))
            frame[f"queen_{s}"] = (taken == 58).sum(axis=(1, 2))
        pay = score("hearts", pd.DataFrame(frame))["payout_0"].to_numpy()
        row = t[t["pass"] == str(CardSet(cand))].iloc[0]
        assert row["points"] == pytest.approx(pay.mean())
        assert row["p_zero"] == pytest.approx((pay == 0).mean())
        assert row["p_queen"] == pytest.approx((frame["queen_0"] > 0).mean())
        assert row["p_moon"] == pytest.approx(((frame["hearts_0"] == 13) & (frame["queen_0"] == 1)).mean())


def test_the_table():
    t = hearts_pass_odds(HAND, n_deals=400, seed=2)
    assert len(t) == 286 and t["pass"].is_unique
    assert (np.diff(t["points"].to_numpy()) >= 0).all()
    assert t["diff"].iloc[0] == 0 and (t["diff"] >= 0).all()
    assert (t["points_lo"] <= t["points"]).all() and (t["points"] <= t["points_hi"]).all()
    assert (t["diff_lo"] <= t["diff"]).all() and (t["diff"] <= t["diff_hi"]).all()
    for col in ("p_queen", "p_zero", "p_moon"):
        assert t[col].between(0, 1).all()
    assert t["heuristic"].sum() == 1
    # keeping the unguarded A♠ K♠ Q♠ costs: the best pass sheds all three, and keeping all
    # three is clearly worse than passing them (greedy players)
    assert t["pass"].iloc[0] == "A♠ K♠ Q♠"
    keep = t[~t["pass"].str.contains("♠")]
    assert (keep["diff_lo"] > 0).all()
    a = t.attrs
    assert (a["to"], a["from"], a["direction"], a["n_deals"]) == (1, 3, "left", 400)
    across = hearts_pass_odds(HAND, "across", seat=2, n_deals=50, seed=2, candidates=["QS AS KS"])
    assert (across.attrs["to"], across.attrs["from"]) == (0, 0)
    # the same arguments, the same table
    assert hearts_pass_odds(HAND, n_deals=400, seed=2).equals(t)


def test_a_round_without_passing_gives_the_hands_own_odds():
    t = hearts_pass_odds(HAND, "none", n_deals=300, seed=4)
    assert t["pass"].tolist() == ["(none)"] and t["heuristic"].tolist() == [True]
    assert (t.attrs["to"], t.attrs["from"]) == (0, 0)
    # holding the unguarded A♠ K♠ Q♠ costs more than passing them
    passed = hearts_pass_odds(HAND, n_deals=300, seed=4, candidates=["QS AS KS"])
    assert t["points"].iloc[0] > passed["points_hi"].iloc[0]


def test_bad_input():
    with pytest.raises(ValueError, match="direction must be one of left, right, across, none"):
        hearts_pass_odds(HAND, "sideways")
    with pytest.raises(ValueError, match="passing='none' passes no cards"):
        hearts_pass_odds(HAND, "left", rules={"passing": "none"})
    assert len(hearts_pass_odds(HAND, "none", rules={"passing": "none"}, n_deals=20)) == 1
    with pytest.raises(ValueError, match="no passes to compare"):
        hearts_pass_odds(HAND, "none", candidates=["QS AS KS"])
    with pytest.raises(ValueError, match="the hand has 12 cards"):
        hearts_pass_odds("QS AS KS 2C 3C 4C 5D 6D 7D 8H 9H 10H")
    with pytest.raises(ValueError, match="seat must be a seat"):
        hearts_pass_odds(HAND, seat=4)
    with pytest.raises(ValueError, match="a pass is three cards"):
        hearts_pass_odds(HAND, candidates=["QS AS"])
    with pytest.raises(ValueError, match="which the hand does not hold"):
        hearts_pass_odds(HAND, candidates=["QS AS QH"])
    with pytest.raises(ValueError, match="given twice"):
        hearts_pass_odds(HAND, candidates=["QS AS KS", "KS QS AS"])
    with pytest.raises(ValueError, match="non-empty list of passes"):
        hearts_pass_odds(HAND, candidates="QS AS KS")
    with pytest.raises(ValueError, match="bad candidate"):
        hearts_pass_odds(HAND, candidates=["QS AS XX"])
    with pytest.raises(ValueError, match="n_deals must be at least 1"):
        hearts_pass_odds(HAND, n_deals=0)
    with pytest.raises(ValueError, match="unknown rule option"):
        hearts_pass_odds(HAND, rules={"colour": "red"})


def test_cli(capsys):
    assert main(["hearts-pass", HAND, "--deals", "200", "--top", "5"]) == 0
    out = capsys.readouterr().out
    assert "A♠ K♠ Q♠" in out and "greedily" in out and len(out.strip().splitlines()) <= 10
    assert main(["hearts-pass", HAND, "--deals", "100", "--candidate", "QS AS KS", "--candidate", "2C 3C 4C",
                 "--direction", "right", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["attrs"]["direction"] == "right" and len(shown["rows"]) == 2
    assert main(["hearts-pass", HAND, "--direction", "none", "--deals", "100"]) == 0
    assert "a round without passing" in capsys.readouterr().out
    assert main(["hearts-pass", HAND, "--candidate", "QS AS"]) == 2
    assert "a pass is three cards" in capsys.readouterr().err
