"""analysis.pass_odds for Goathead (3 and 4 players): passing at the first turn in the
auction, checked against hand-worked layouts and an independent recomputation (round
engine + HeuristicPolicy, then trickcore.solve + trickcore.scoring.score)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

import trickcore
from analysis import pass_odds
from analysis.cli import main
from analysis.paranoid import seat_frame
from analysis.passing import earlier_seats_pass, heuristic_opens, heuristic_picks
from trickcore.cards import CardSet
from trickcore.policies import HeuristicPolicy
from trickcore.rounds import start_round
from trickcore.scoring import score

POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
_POLICY = HeuristicPolicy()
N = {"goathead3": 3, "goathead4": 4}


def card_points(mask: int) -> int:
    return sum(POINTS[c.rank_name] for c in CardSet(int(mask)))


def policy_opens(gid: str, hand_mask: int) -> bool:
    """HeuristicPolicy's own answer at an auction nobody has bid in yet."""
    obs = start_round(gid, seed=0, dealer=N[gid] - 1).observe(0)
    return _POLICY.bid(dataclasses.replace(obs, hand=CardSet(int(hand_mask)))) != "pass"


def recompute(gid: str, row: pd.Series, seat: int) -> tuple[float, str, int]:
    """The analyst's payout on one layout from scratch: the round engine asks every seat
    (HeuristicPolicy; the analyst passes its bid), then one trickcore.solve of the hands
    at the first card and the scorer on a hand-built frame.  ``(payout, contract, side)``."""
    k = N[gid]
    hands = [CardSet(int(row[f"hand_{s}"])) for s in range(k)]
    r = start_round(gid, hands=hands, kitty=CardSet(int(row["kitty"])), dealer=k - 1)
    while r.pending.kind != "play":
        d = r.pending
        if d.kind == "bid" and d.phase == "bid" and d.seat == seat:
            r.act("pass")
            continue
        answer = getattr(_POLICY, d.kind)(r.observe(d.seat))
        if d.kind == "bid" and d.seat < seat:
            assert answer == "pass", "an earlier seat bid: the layout is not conditioned"
        r.act(answer)
    assert r.pending.seat == 0
    if r.declarer is None:
        return float("nan"), "leasters", 0
    final = [h.mask for h in r.hands]
    res = trickcore.solve(gid, r.contract, final, leader=0, declarer=r.declarer)
    assert res.side == r.side_mask
    in_play = 120 - card_points(r.kitty.mask)
    if r.contract == "nil":
        pts, tricks = 0, int(res.value)
    else:
        # every Goathead card has points: all tricks iff all points in play, none iff 0;
        # in between the scorer pays the same whatever the count (1 stands for any)
        pts = int(res.value)
        tricks = (6 if k == 3 else 4) if pts == in_play else (0 if pts == 0 else 1)
    frame = pd.DataFrame({"contract": [r.contract], "declarer": [r.declarer], "side_mask": [r.side_mask],
                          "side_points": [pts], "side_tricks": [tricks],
                          "kitty_points": [card_points(r.kitty.mask)], "exchanged": [r.exchanged]})
    return float(score(gid, frame)[f"payout_{seat}"].iloc[0]), r.contract, r.side_mask


# -- truth ----------------------------------------------------------------------------

G3 = {1: "JC JS JH JD AC AH", 2: "10C KC AS 10S AD 10H", "kitty": "KH QH"}
G3_ANALYST = "QC KS QS KD QD 10D"   # seat 0


def test_a_hand_checked_goathead3_layout():
    # seat 0 (the analyst) passes; seat 1 bids court (four jacks, two aces); seat 2 can
    # bid nothing higher; seat 1 picks up K♥ Q♥ and buries its two plain aces (the most
    # points among non-trumps), stays in court; 75 of 98 points in play + 22 in the kitty
    # = 97 >= 90 but not every trick: stake 2 + 1, so each defender pays 3
    table, s = pass_odds("goathead3", G3_ANALYST, seat=0, fixed=G3, n_deals=2, seed=0, return_samples=True)
    row = s.iloc[0]
    assert (row.declarer, row.bid, row.contract, bool(row.exchanged)) == (1, "court", "court", True)
    assert CardSet(int(row.final_kitty)) == CardSet.parse("AC AH")
    assert CardSet(int(row.final_1)) == CardSet.parse("JC JS JH JD KH QH")
    hands = [CardSet.parse(h).mask for h in (G3_ANALYST, "JC JS JH JD KH QH", G3[2])]
    value = trickcore.solve("goathead3", "court", hands, leader=0, declarer=1).value
    assert value == 75
    frame = pd.DataFrame({"contract": ["court"], "declarer": [1], "side_mask": [2], "side_points": [value],
                          "side_tricks": [4], "kitty_points": [22], "exchanged": [True]})
    assert score("goathead3", frame)["payout_0"].iloc[0] == -3.0
    assert (s.payout == -3.0).all() and (s.outcome == "defender").all()
    t = table.set_index("outcome")
    assert t.loc["pass", "ev"] == -3.0 and t.loc["defender", "p"] == 1.0
    assert table.attrs["ev_bounds"] == (-3.0, -3.0) and table.attrs["acceptance"] == 1.0


@pytest.mark.parametrize("gid, hand, seat", [
    ("goathead3", "JC JS AH 10H KH QH", 1),
    ("goathead4", "JC AH 10H KH", 1),
    ("goathead4", "JS QD KD QS", 0),
])
def test_per_layout_payouts_match_an_independent_recomputation(gid, hand, seat):
    table, s = pass_odds(gid, hand, seat=seat, n_deals=60, seed=3, return_samples=True)
    for _, row in s.head(25).iterrows():
        pay, contract, side = recompute(gid, row, seat)
        assert contract == row.contract and side == row.side_mask
        assert pay == row.payout or (np.isnan(pay) and np.isnan(row.payout))
    if gid == "goathead3":
        assert (s.outcome == "defender").all()
    else:
        assert {"partner", "defender"} <= set(s.outcome)
        on_side = (s.side_mask.to_numpy(dtype=np.int64) >> seat) & 1 == 1
        assert ((s.outcome == "partner").to_numpy() == on_side).all()
    t = table.set_index("outcome")
    if s.payout.notna().all():
        assert t.loc["pass", "ev"] == pytest.approx(s.payout.mean())
    for o in ("partner", "defender", "no_pick"):
        assert t.loc[o, "n"] == (s.outcome == o).sum()


# -- conditioning -----------------------------------------------------------------------

@pytest.mark.parametrize("gid", ["goathead3", "goathead4"])
def test_the_vectorised_opening_rule_is_heuristic_policys(gid):
    hands = trickcore.random_deals(gid, 150, seed=2)[:, :N[gid]].ravel()
    mine = heuristic_opens(gid, hands)
    theirs = np.array([policy_opens(gid, int(h)) for h in hands])
    assert mine.any() and (~mine).any()
    assert (mine == theirs).all()


def test_layouts_are_conditioned_on_the_earlier_seats_passing():
    table, s = pass_odds("goathead4", "JC AH 10H KH", seat=2, n_deals=40, seed=4, return_samples=True)
    assert 0 < table.attrs["acceptance"] < 0.2 and table.attrs["n_drawn"] > 200
    for _, row in s.iterrows():
        assert CardSet(int(row.hand_2)) == CardSet.parse("JC AH 10H KH")
        assert not policy_opens("goathead4", row.hand_0) and not policy_opens("goathead4", row.hand_1)
    # the same predicate conditions the CLI's contract table
    deals = np.zeros((2, 5), dtype=np.uint64)
    deals[0, 1] = CardSet.parse("JS JD AS AD").mask     # seat 1 would bid
    deals[1, 1] = CardSet.parse("QS QD KS KD").mask     # seat 1 passes
    deals[:, 0] = CardSet.parse("QC KC QH QS").mask     # seat 0 passes
    assert earlier_seats_pass("goathead4", 2).mask(deals).tolist() == [False, True]


def test_no_layout_with_the_earlier_seats_passing_is_a_clear_error():
    # with J♣ J♠ and four hearts at seat 2, one of seats 0 and 1 always bids
    with pytest.raises(ValueError, match=r"only 0 of 20000 .*acceptance 0\.0000.*every seat before the analyst"):
        pass_odds("goathead3", "JC JS AH 10H KH QH", seat=2, max_draws=20000)


# -- everybody passes: leasters -------------------------------------------------------------

LEASTER_FIXED = {0: "KS QH 10H AD KD QC", 2: "QS KH QD 10D KC 10C", "kitty": "10S JD"}
LEASTER_ANALYST = "JC JS JH AC AS AH"   # seat 1: passes although it would bid


def test_all_pass_goes_to_leasters_with_the_paranoid_value_and_bounds():
    table, s = pass_odds("goathead3", LEASTER_ANALYST, seat=1, fixed=LEASTER_FIXED, n_deals=3, seed=1,
                         return_samples=True)
    assert (s.contract == "leasters").all() and (s.declarer == -1).all() and s.payout.isna().all()
    deals = np.array([[CardSet.parse(LEASTER_FIXED[0]).mask, CardSet.parse(LEASTER_ANALYST).mask,
                       CardSet.parse(LEASTER_FIXED[2]).mask, CardSet.parse("10S JD").mask]], dtype=np.uint64)
    value = seat_frame("goathead3", "leasters", deals, seat=1)["value"].iloc[0]
    t = table.set_index("outcome")
    assert t.loc["no_pick", "n"] == 3 and t.loc["no_pick", "leaster_value"] == value
    assert np.isnan(t.loc["pass", "ev"]) and np.isnan(t.loc["no_pick", "ev"])
    assert table.attrs["p_all_pass"] == 1.0 and table.attrs["no_pick"] == "leasters"
    assert table.attrs["ev_bounds"] == (-1.0, 1.0)
    split, _ = pass_odds("goathead3", LEASTER_ANALYST, seat=1, fixed=LEASTER_FIXED, n_deals=3, seed=1,
                         rules={"leasters_tie": "split"}, return_samples=True)
    assert split.attrs["ev_bounds"] == (-1.0, 1.0)


def test_ev_bounds_mix_declared_payouts_and_the_leasters_range():
    table, s = pass_odds("goathead4", "JC AH 10H KH", seat=1, n_deals=1000, seed=0, return_samples=True)
    leasters = s.outcome == "no_pick"
    assert leasters.any() and (~leasters).any()
    part = s.payout[~leasters].sum() / len(s)
    p = leasters.mean()
    assert table.attrs["ev_bounds"] == pytest.approx((part - p, part + p))


# -- determinism, bad input, CLI --------------------------------------------------------

def test_deterministic_from_the_seed():
    a, sa = pass_odds("goathead4", "JC AH 10H KH", seat=1, n_deals=50, seed=9, return_samples=True)
    b, sb = pass_odds("goathead4", "JC AH 10H KH", seat=1, n_deals=50, seed=9, return_samples=True)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(sa, sb)
    assert a.attrs == b.attrs
    _, sc = pass_odds("goathead4", "JC AH 10H KH", seat=1, n_deals=50, seed=10, return_samples=True)
    assert not sa[["hand_0", "hand_2"]].equals(sc[["hand_0", "hand_2"]])


@pytest.mark.parametrize("kwargs, message", [
    ({"hand": "JC AH 10H KH"}, "the hand has 4 cards; goathead3 deals 6"),
    ({"game": "goathead4"}, "the hand has 6 cards; goathead4 deals 4"),
    ({"seat": 3}, "seat must be 0..2"),
    ({"leader": 1}, "leader must be 0"),
    ({"scores": [1, 2]}, "scores must be 3 finite numbers"),
    ({"scores": [0, 1, float("nan")]}, "scores must be 3 finite numbers"),
    ({"game": "sheepshead", "hand": "QC QS JD AH 10H 9C", "scores": [0] * 5}, "scores .* are for goathead"),
    ({"rules": {"leasters_tie": "coin"}}, "leasters_tie"),
    ({"n_deals": 0}, "n_deals must be at least 1"),
    ({"fixed": {1: "JC"}}, "J♣"),
    ({"game": "hearts", "hand": "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"}, "goathead3 and goathead4 only"),
])
def test_bad_input_raises_naming_the_problem(kwargs, message):
    args = {"game": "goathead3", "hand": "JC JS AH 10H KH QH", "n_deals": 5}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        pass_odds(args.pop("game"), args.pop("hand"), **args)


def test_the_pick_and_open_rules_belong_to_their_games():
    with pytest.raises(ValueError, match="Goathead's opening bid rule"):
        heuristic_opens("sheepshead", [0])
    with pytest.raises(ValueError, match="Sheepshead's pick rule"):
        heuristic_picks("goathead3", [0])


def test_cli_pass_for_goathead3(capsys):
    argv = ["odds", "goathead3", "JC JS AH 10H KH QH", "--seat", "1", "--pass", "--pass-deals", "60",
            "--contract", "court", "--jobs", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.index("court") < out.index("if you pass")
    tail = out[out.index("if you pass"):]
    for word in ("seat 1", "dealer 2", "no_pick=leasters", "the contract table above assumes the same",
                 "defender", "no_pick"):
        assert word in tail
    # a seat the earlier seats never pass to: a one-line error, exit 2
    assert main(["odds", "goathead3", "JC JS AH 10H KH QH", "--seat", "2", "--pass", "--pass-deals", "5"]) == 2
    assert "acceptance 0.0000" in capsys.readouterr().err
