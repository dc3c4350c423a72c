"""analysis.pass_odds(..., bids_before=...): passing at the first turn in a Goathead
auction after the earlier seats acted as given (HeuristicPolicy reproduces those actions on
every kept layout), its validation, Sheepshead's pass-only case and the CLI's
``--bids-before``.  Checked against the round engine driven independently here."""

from __future__ import annotations

import collections
import json
import re

import numpy as np
import pandas as pd
import pytest

from analysis import contract_odds, pass_odds
from analysis.cli import main
from analysis.passing import check_bids_before, earlier_seats_bid
from trickcore.cards import CardSet
from trickcore.deals import deal_chunk
from trickcore.policies import HeuristicPolicy
from trickcore.rounds import start_round

_POLICY = HeuristicPolicy()
HAND3 = "JC JS AH 10H KH QH"
HAND4 = "JC AH 10H KH"


def replay(gid: str, row: pd.Series, seat: int, scores=None):
    """The round engine on a sample row, HeuristicPolicy everywhere but the analyst's first
    bid (a pass), up to the first card.  ``(first-round actions before the analyst, round,
    every (seat, action) of the auction)``."""
    k = 3 if gid == "goathead3" else 4
    hands = [CardSet(int(row[f"hand_{s}"])) for s in range(k)]
    r = start_round(gid, hands=hands, kitty=CardSet(int(row["kitty"])), dealer=k - 1, scores=scores)
    before: list[str] = []
    auction: list[tuple[int, str]] = []
    analyst_done = False
    while r.pending.kind != "play":
        d = r.pending
        if d.kind == "bid" and d.phase == "bid" and d.seat == seat:
            assert not analyst_done, "the analyst passed and bid again"
            analyst_done = True
            auction.append((seat, "pass"))
            r.act("pass")
            continue
        answer = getattr(_POLICY, d.kind)(r.observe(d.seat))
        if d.kind == "bid" and d.phase == "bid":
            auction.append((d.seat, answer))
            if not analyst_done:
                before.append(answer)
        r.act(answer)
    return before, r, auction


def engine_actions(gid: str, row: np.ndarray, seat: int, scores=None) -> tuple[str, ...]:
    k = len(row) - 1
    r = start_round(gid, hands=[CardSet(int(x)) for x in row[:k]], kitty=CardSet(int(row[k])), dealer=k - 1,
                    scores=scores)
    out = []
    for _ in range(seat):
        a = _POLICY.bid(r.observe(r.pending.seat))
        out.append(a)
        r.act(a)
    return tuple(out)


def test_every_kept_layout_reproduces_bids_before_and_the_figures_follow_the_engine():
    t, s = pass_odds("goathead3", HAND3, seat=2, bids_before=["clubs", "pass"], n_deals=80, seed=3,
                     return_samples=True)
    assert t.attrs["bids_before"] == ("clubs", "pass")
    assert 0.05 < t.attrs["acceptance"] < 0.4 and t.attrs["n_drawn"] > 80
    for _, row in s.iterrows():
        before, r, _ = replay("goathead3", row, 2)
        assert before == ["clubs", "pass"]
        # seat 1 and the analyst passed: seat 0 declares its clubs (or raises it)
        assert r.declarer == 0 == row["declarer"] and row["bid"] == "clubs" and r.contract == row["contract"]
        assert [h.mask for h in r.hands] == [int(row[f"final_{q}"]) for q in range(3)]
    assert (s["outcome"] == "defender").all() and t.n.tolist() == [80, 0, 80, 0]
    assert t.ev.iloc[0] == pytest.approx(s["payout"].mean())


def test_steals_and_an_earlier_bidder_bidding_again_after_the_analyst_passed():
    scores = (3, 0, 0, 0)   # seats 1..3 may steal from seat 0, seat 0 from nobody
    acts = ["diamonds", "steal", "pass"]
    t, s = pass_odds("goathead4", HAND4, seat=3, bids_before=acts, scores=scores, n_deals=60, seed=2,
                     return_samples=True)
    assert 0 < t.attrs["acceptance"] < 0.3 and t.attrs["scores"] == scores
    again = 0
    for _, row in s.iterrows():
        before, r, auction = replay("goathead4", row, 3, scores)
        assert before == acts
        assert r.declarer == row["declarer"] and r.contract == row["contract"] and r.side_mask == row["side_mask"]
        # after the analyst's pass the auction comes back to seat 0 (seat 1 holds the stolen diamonds)
        assert auction[4][0] == 0
        again += auction[4][1] != "pass"
    assert 0 < again < len(s)    # seat 0 sometimes bids again: the engine's choice, not the condition's


@pytest.mark.parametrize("gid,seat,scores", [("goathead3", 2, None), ("goathead4", 3, None),
                                             ("goathead4", 3, (3, 2, 1, 0)), ("goathead3", 2, (2, 1, 0))])
def test_the_vectorised_filter_is_exactly_the_engine(gid, seat, scores):
    # every first-round sequence that occurs on random layouts: the predicate keeps exactly
    # the layouts on which the engine + HeuristicPolicy say it
    deals = np.asarray(deal_chunk(gid, np.random.SeedSequence(11), 600), dtype=np.uint64)
    seqs = [engine_actions(gid, row, seat, scores) for row in deals]
    counts = collections.Counter(seqs)
    assert len(counts) > 10
    if scores is not None:
        assert any("steal" in q for q in counts)
    for q in counts:
        kept = earlier_seats_bid(gid, seat, list(q), scores=scores).mask(deals)
        assert kept.tolist() == [x == q for x in seqs], q


def test_none_and_all_pass_are_the_previous_behaviour():
    # figures of pass_odds before bids_before existed (same arguments, same seed)
    previous = {("goathead3", HAND3, 1): (1315, [150, 0, 150, 0], -0.32666666666666666),
                ("goathead4", HAND4, 2): (7209, [150, 148, 0, 2], None),
                ("sheepshead", "QC QS JD AH 10H 9C", 1): (209, [150, 128, 0, 22], 1.78)}
    for (gid, hand, seat), (drawn, ns, ev) in previous.items():
        t, s = pass_odds(gid, hand, seat=seat, n_deals=150, seed=5, return_samples=True)
        assert t.attrs["n_drawn"] == drawn and t.n.tolist() == ns and t.attrs["bids_before"] is None
        if ev is not None:
            assert t.ev.iloc[0] == ev
        t2, s2 = pass_odds(gid, hand, seat=seat, n_deals=150, seed=5, return_samples=True,
                           bids_before=["pass"] * seat)
        assert t2.attrs["bids_before"] == ("pass",) * seat
        pd.testing.assert_frame_equal(t, t2)
        pd.testing.assert_frame_equal(s, s2)


def test_the_late_seat_question_has_an_answer_where_all_passing_had_none():
    with pytest.raises(ValueError, match=r"acceptance 0\.0000"):
        pass_odds("goathead3", HAND3, seat=2, n_deals=50)
    # seat 0 cannot open hearts when the analyst holds A K Q 10 of hearts: legal, unreachable
    with pytest.raises(ValueError, match=r"acceptance 0\.0000.*hearts, pass"):
        pass_odds("goathead3", HAND3, seat=2, n_deals=50, bids_before=["hearts", "pass"])
    t = pass_odds("goathead3", HAND3, seat=2, n_deals=300, seed=1, bids_before=["Clubs", " pass"])
    assert t.attrs["bids_before"] == ("clubs", "pass") and 0.1 < t.attrs["acceptance"] < 0.2
    assert -1 < t.ev.iloc[0] < 1 and t.ev_lo.iloc[0] < t.ev.iloc[0] < t.ev_hi.iloc[0]
    assert t.attrs["p_pick"] == 1.0     # seat 0 declared clubs: no leasters


@pytest.mark.parametrize("acts,match", [
    (["hearts", "diamonds"], r"bids_before\[1\] \(after hearts\): illegal bid 'diamonds' by seat 1 "
                             r"\(the bid must be higher than hearts\)"),
    (["steal", "pass"], r"bids_before\[0\] .*illegal bid 'steal' by seat 0 \(there is no contract to steal\)"),
    (["spades", "steal"], r"bids_before\[1\] .*'steal' by seat 1 \(a steal needs fewer game points"),
    (["trumps", "pass"], r"bids_before\[0\] .*'trumps' .*not a contract of the ladder"),
    (["pass"], r"bids_before has 1 action\(s\); seat 2 has 2 seat\(s\) before it"),
    (["pass", "pass", "pass"], r"has 3 action\(s\)"),
    ("hearts pass", r"bids_before must be a list of actions"),
    (["hearts", 3], r"bids_before\[1\] = 3 \(seat 1\) is not an action"),
])
def test_illegal_sequences_are_named(acts, match):
    with pytest.raises(ValueError, match=match):
        pass_odds("goathead3", HAND3, seat=2, bids_before=acts, n_deals=10)


def test_a_steal_is_legal_only_where_the_scores_allow_it():
    assert check_bids_before("goathead3", 2, ["spades", "steal"], scores=(2, 0, 0)) == ("spades", "steal")
    with pytest.raises(ValueError, match=r"bids_before\[1\].*seat 1 has 2, seat 0 has 0"):
        check_bids_before("goathead3", 2, ["spades", "steal"], scores=(0, 2, 0))
    with pytest.raises(ValueError, match=r"stealing is off"):
        check_bids_before("goathead3", 2, ["spades", "steal"], rules={"steal": False}, scores=(2, 0, 0))


def test_sheepshead_takes_passes_only():
    hand = "QC QS JD AH 10H 9C"
    a = pass_odds("sheepshead", hand, seat=2, n_deals=40, seed=4)
    b = pass_odds("sheepshead", hand, seat=2, n_deals=40, seed=4, bids_before=("pass", "pass"))
    pd.testing.assert_frame_equal(a, b)
    for acts, match in ((["pass", "pick"], r"bids_before\[1\] = 'pick' \(seat 1\): the only action"),
                        (["hearts", "pass"], r"bids_before\[0\] = 'hearts'"),
                        (["pass"], r"has 1 action\(s\); seat 2 has 2")):
        with pytest.raises(ValueError, match=match):
            pass_odds("sheepshead", hand, seat=2, n_deals=40, bids_before=acts)


def test_cli_passes_bids_before_to_both_tables(capsys):
    argv = ["odds", "goathead3", HAND3, "--seat", "2", "--pass", "--bids-before", "clubs", "pass",
            "--pass-deals", "60", "--method", "sample", "--max-deals", "64", "--jobs", "1"]
    assert main(argv + ["--json"]) == 0
    first, second = capsys.readouterr().out.strip().splitlines()
    want = pass_odds("goathead3", HAND3, seat=2, n_deals=60, seed=2026, bids_before=["clubs", "pass"])
    got = pd.DataFrame(json.loads(second))
    assert got.n.tolist() == want.n.tolist() and got.ev.tolist() == pytest.approx(want.ev.tolist(), nan_ok=True)
    # the contract table conditioned the same way: contract_odds with earlier_seats_bid
    table = contract_odds("goathead3", HAND3, seat=2, seed=2026, method="sample", max_deals=64, n_jobs=1,
                          constraints=earlier_seats_bid("goathead3", 2, ["clubs", "pass"]))
    rows = json.loads(first)
    assert [r["p_make"] for r in rows] == pytest.approx(table["p_make"].tolist())
    plain = contract_odds("goathead3", HAND3, seat=2, seed=2026, method="sample", max_deals=64, n_jobs=1)
    assert [r["p_make"] for r in rows] != pytest.approx(plain["p_make"].tolist())
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "the seats before you acted clubs (seat 0), pass (seat 1)" in out
    assert "after clubs only a higher one" in out


def test_cli_scores_reach_pass_odds_and_the_condition(capsys):
    """``--scores`` lets the earlier seats steal, on the command line as in the library."""
    scores = (3, 0, 0, 0)
    argv = ["odds", "goathead4", HAND4, "--seat", "3", "--pass", "--bids-before", "diamonds", "steal", "pass",
            "--scores", *map(str, scores), "--pass-deals", "60", "--method", "sample", "--max-deals", "32",
            "--jobs", "1", "--json"]
    assert main(argv) == 0
    first, second = capsys.readouterr().out.strip().splitlines()
    want = pass_odds("goathead4", HAND4, seat=3, n_deals=60, seed=2026, bids_before=["diamonds", "steal", "pass"],
                     scores=scores)
    got = pd.DataFrame(json.loads(second))
    assert got.n.tolist() == want.n.tolist() and got.ev.tolist() == pytest.approx(want.ev.tolist(), nan_ok=True)
    # without the scores nobody may steal: the same command is refused
    assert main(argv[:argv.index("--scores")] + argv[argv.index("--scores") + 5:]) == 2
    assert "steal" in capsys.readouterr().err


@pytest.mark.parametrize("argv,match", [
    (["goathead3", HAND3, "--seat", "2", "--pass", "--bids-before", "hearts", "diamonds"],
     r"bids_before\[1\] \(after hearts\): illegal bid 'diamonds'"),
    (["goathead3", HAND3, "--seat", "2", "--pass", "--bids-before", "clubs"], r"has 1 action\(s\)"),
    (["sheepshead", "QC QS JD AH 10H 9C", "--seat", "1", "--pass", "--bids-before", "pick"],
     r"bids_before\[0\] = 'pick'"),
    (["ohhell", "AS KS QS", "--rule", "hand_size=3", "--rule", "no_equal_total=true", "--seat", "3",
      "--bids-before", "1", "1"], r"--bids-before for ohhell is one whole number"),
    (["ohhell", "AS KS QS", "--rule", "hand_size=3", "--rule", "no_equal_total=true", "--seat", "3",
      "--bids-before", "two"], r"one whole number .*got 'two'"),
    (["sheepshead", "QC QS JD AH 10H 9C", "--pass", "--scores", "1", "2", "3", "4", "5"],
     r"--scores matters only for Goathead's steals"),
    (["goathead3", HAND3, "--scores", "1", "0", "0"], r"--scores is read by --pass and --bids-before"),
    (["goathead3", HAND3, "--seat", "2", "--pass", "--scores", "1", "0"], r"scores must be 3 finite numbers"),
])
def test_cli_misuse_exits_2(argv, match, capsys):
    assert main(["odds", *argv, "--method", "sample", "--max-deals", "8", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("trickcore: error: ")
    assert re.search(match, err), err
