"""The ``trickcore`` command line: output, JSON, and one-line errors with exit code 2."""

import json
import subprocess
import sys

import pytest

from analysis.cli import main, parse_rules
from trickcore.cards import CardSet

HANDS = ["JC AH", "JD KH", "AS AC"]


def test_solve_prints_value_card_values_and_line(capsys):
    assert main(["solve", "goathead3", "hearts", "--hands", *HANDS]) == 0
    out = capsys.readouterr().out.splitlines()
    # Declarer leads J♣ or A♥; either way seat 1 keeps J♦ to beat A♥, so 17 points.
    assert out == ["value 17", "cards J♣ 17 A♥ 17", "line J♣ K♥ A♣ A♥ J♦ A♠"]


def test_solve_takes_sides_goal_and_objective(capsys):
    # seat 0 alone against the others: it cannot keep clean (Nil objective: 1), and the
    # fewest tricks it can be held to are 2 (A♣ forced on the second club, then A♠)
    hands = ["AC AS 2C", "KC 3C 3S", "QC 4C 4S", "JC 5C 5S"]
    base = ["solve", "spades", "spades", "--hands", *hands, "--leader", "1", "--sides", "1", "--json"]
    assert main([*base, "--objective", "nil"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 1
    assert main([*base, "--goal", "min"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 2
    assert main(["solve", "spades", "spades", "--hands", *hands, "--objective", "points"]) == 2
    assert "no card points" in capsys.readouterr().err


def test_solve_json_is_machine_readable(capsys):
    assert main(["solve", "goathead3", "hearts", "--hands", *HANDS, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == 17
    assert data["card_values"] == {"J♣": 17, "A♥": 17}
    assert len(data["line"]) == 6 and data["nodes"] > 0


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "goathead3", "hearts", "--hands", "JC AH", "JD KX", "AS AC"], "malformed card 'KX'"),
        (["solve", "goathead3", "blah", "--hands", *HANDS], "unknown contract 'blah'"),
        (["solve", "goathead3", "hearts", "--hands", "JC AH", "JC KH", "AS AC"], "J♣"),
        (["solve", "goathead3", "hearts", "--hands", *HANDS, "--leader", "7"], "leader"),
        (["odds", "goathead3", "JC JS AH 10H KH QH", "--rule", "steal=maybe"], "steal cannot be 'maybe'"),
        (["odds", "goathead3", "JC JS AH 10H KH QH", "--rule", "colour=red"], "unknown rule option"),
        (["advise", "goathead3", "clubs", "QD JC 10S JD KH KC", "--seat", "2", "--declarer", "0", "--play", "10D"],
         "seat 1's turn, not seat 2's"),
        (["advise", "goathead3", "clubs", "QD JC 10S JD KH KC", "--seat", "2", "--declarer", "0",
          "--known", "1:QC"], "--known takes SEAT=CARDS"),
        (["advise", "spades", "spades", "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "--seat", "0"], "bid="),
        (["advise", "goathead3", "clubs", "QD JC 10S JD KH KC", "--seat", "2", "--declarer", "0",
          "--trumps", "0:3"], "--trumps takes SEAT=MIN"),
        (["advise", "hearts", "hearts", "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "--seat", "0",
          "--trumps", "1=2"], "has no trumps"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("trickcore: error: ") and message in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("argv", [["frob"], ["solve", "bridge", "x", "--hands", "AS"], ["simulate", "hearts"]])
def test_bad_arguments_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("trickcore: error: ") and err.count("\n") == 1


def test_every_subcommand_has_help():
    for sub in ("report", "solve", "odds", "simulate", "advise"):
        proc = subprocess.run([sys.executable, "-m", "analysis.cli", sub, "--help"], capture_output=True, text=True)
        assert proc.returncode == 0 and "usage: trickcore" in proc.stdout


ADVISE = ["advise", "goathead3", "clubs", "QD JC 10S JD KH KC", "--seat", "2", "--declarer", "0", "--leader", "1",
          "--play", "10D QD QC  JS JH JC  10S AS KS  AC 10C"]


def test_advise_prints_each_card(capsys):
    assert main(ADVISE) == 0
    out = capsys.readouterr().out.splitlines()
    assert "every one of the 36 layouts" in out[0] and "lower is better for you" in out[1]
    assert out[2].split() == ["card", "value", "best", "loss", "p_make", "payout", "diff"]   # exact: no intervals
    assert out[3].split() == ["J♦", "53.417", "1.000", "0.000", "0.750", "-1.000", "0.000"]
    assert out[4].split()[-1] == "-1.667"
    assert out[4].split()[0] == "K♣"
    assert main([*ADVISE, "--method", "sample", "--samples", "50", "--known", "0=AH"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "50 layouts drawn at random" in out[0] and "value_lo" in out[2]


def test_advise_assumes_the_trumps_it_is_told(capsys):
    # seat 0, the declarer, ruffed the first trick: assume it held four trumps or more
    assert main([*ADVISE[:-2], "--play", "10D QD QC  JS JH JC", "--json"]) == 0
    every = json.loads(capsys.readouterr().out)
    assert main([*ADVISE[:-2], "--play", "10D QD QC  JS JH JC", "--trumps", "0=4", "--json"]) == 0
    strong = json.loads(capsys.readouterr().out)
    assert 0 < strong["attrs"]["layouts"] < every["attrs"]["layouts"] == 1050
    assert strong["rows"][0]["p_make"] > every["rows"][0]["p_make"]


def test_advise_reads_the_bids(capsys):
    # Spades seed 3 of the heuristic table, seat 1 at the twelfth trick (test_advice.py)
    from trickcore.policies import HeuristicPolicy
    from trickcore.rounds import start_round

    h, r = HeuristicPolicy(), start_round("spades", seed=3)
    while not (r.pending.kind == "play" and len(r.observe(0).tricks) == 11 and len(r.observe(0).trick) == 1):
        r.act(getattr(h, r.pending.kind)(r.observe(r.pending.seat)))
    obs = r.observe(r.pending.seat)
    seat = obs.seat
    start = obs.hand | CardSet(c for t in obs.tricks for s, c in t.plays if s == seat)
    plays = " ".join(str(c) for t in obs.tricks for _, c in t.plays) + " " + str(obs.trick[0][1])
    bids = [f"{s}={b}" for s, phase, b in obs.bids if phase == "bid"]
    base = ["advise", "spades", "spades", str(start), "--seat", str(seat), "--leader", str(obs.tricks[0].leader),
            "--play", plays]
    assert main([*base, "--bids", *bids]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "weighed by the bids (effective layouts" in out[0]
    assert main([*base, "--bids", "1:3"]) == 2
    assert "--bids takes SEAT=TRICKS" in capsys.readouterr().err


def test_advise_json_has_the_rows_and_what_they_mean(capsys):
    assert main([*ADVISE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["attrs"]["layouts"] == 36 and data["attrs"]["exact"] is True
    assert [r["card"] for r in data["rows"]] == ["J♦", "K♣"] and data["rows"][0]["p_make"] == 0.75


def test_rules_are_typed_by_the_options_choices():
    assert parse_rules("spades", ["spade_leading=always", "sandbags=false"]) == {
        "spade_leading": "always",
        "sandbags": False,
    }
    assert parse_rules("ohhell", ["hand_size=7"]) == {"hand_size": 7}
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_rules("spades", ["sandbags"])


def test_odds_prints_each_contract_with_intervals(capsys):
    argv = ["odds", "goathead3", "JH AH 10H KH AC KD", "--contract", "hearts", "--contract", "court",
            "--method", "sample", "--max-deals", "200", "--target-se", "0.05", "--chunk-size", "50",
            "--jobs", "1", "--json"]
    assert main(argv) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["contract"] for r in rows] == ["hearts", "court"]
    # the library's figures for the arguments given (the CLI's seed is 2026, its kitty
    # policy the heuristic's): the CLI passes every option through and prints them all
    from analysis import contract_odds

    want = contract_odds("goathead3", "JH AH 10H KH AC KD", contracts=["hearts", "court"], method="sample",
                         max_deals=200, target_se=0.05, chunk_size=50, n_jobs=1, seed=2026,
                         kitty_policy="heuristic", progress=False)
    assert (want.n < 200).all() and want.attrs["stopped_by"] == "target_se"   # before the budget
    for r, (_, w) in zip(rows, want.iterrows()):
        assert r["method"] == "sampled" and r["n"] == w.n
        for col in ("p_make", "p_make_lo", "p_make_hi", "ev", "ev_lo", "ev_hi"):
            assert r[col] == pytest.approx(w[col], rel=1e-9, abs=1e-9), col
        assert r["p_make_lo"] < r["p_make"] < r["p_make_hi"] and r["ev_lo"] < r["ev"] < r["ev_hi"]


def test_odds_passes_bags_and_says_what_stopped_the_sampling(capsys):
    argv = ["odds", "spades", "AS KS QS JS 10S 9S 8S 7S AH KH AD KD AC", "--method", "sample",
            "--max-deals", "8", "--jobs", "1"]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert "stopped by: max_deals" in plain
    assert main(argv + ["--bags", "9", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    # nine bags carried: one overtrick already costs the roll-over, so some bid pays less
    assert any(r["bag_penalty"] < 0 for r in rows)
    assert main(argv + ["--bags", "9", "--rule", "sandbags=false"]) == 2
    assert "bags" in capsys.readouterr().err


def test_odds_stops_at_the_time_budget(capsys):
    # 100,000 layouts of six Goathead contracts take some 15 s, a 64-layout chunk some 10 ms
    argv = ["odds", "goathead3", "JC JS AH 10H KH QH", "--method", "sample", "--max-deals", "100000",
            "--jobs", "1"]
    assert main(argv + ["--chunk-size", "64", "--time-budget", "0.5"]) == 0
    assert "stopped by: time_budget" in capsys.readouterr().out
    # a 2,048-layout chunk takes far longer than a millisecond, and its solves stop there
    assert main(argv + ["--time-budget", "0.001"]) == 3
    assert "no chunk of 2048 layouts was solved within the time budget of 0.001 s" in capsys.readouterr().err
    assert main(argv + ["--time-budget", "0"]) == 2
    assert "time_budget must be a positive number of seconds" in capsys.readouterr().err
    assert main(argv + ["--chunk-size", "0"]) == 2
    assert "chunk_size must be >= 1" in capsys.readouterr().err


def test_odds_paranoid_policy_reaches_the_leasters(capsys):
    argv = ["odds", "goathead3", "JC JS AH 10H KH QH", "--contract", "leasters", "--method", "sample",
            "--max-deals", "64", "--jobs", "1", "--json"]
    assert main(argv) == 2
    assert "no declarer" in capsys.readouterr().err
    assert main(argv + ["--policy", "paranoid"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["contract"] for r in rows} == {"leasters"} and all(r["n"] == 64 for r in rows)


def test_odds_dealer_under_no_equal_total_needs_the_earlier_bids(capsys):
    argv = ["odds", "ohhell", "AS KS QS", "--rule", "hand_size=3", "--rule", "no_equal_total=true",
            "--seat", "3", "--method", "sample", "--max-deals", "8", "--jobs", "1"]
    assert main(argv) == 2
    assert "bids_before" in capsys.readouterr().err
    assert main(argv + ["--bids-before", "2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert 1 not in {r.get("bid") for r in rows}   # 2 + 1 = 3 tricks: forbidden for the dealer


def test_simulate_writes_a_dataset_and_resumes(tmp_path, capsys):
    import pandas as pd

    out = tmp_path / "run"
    argv = ["simulate", "goathead3", "-n", "50", "--out", str(out), "--jobs", "1"]
    assert main(argv) == 0
    files = sorted(out.glob("*.parquet"))
    first = pd.read_parquet(files[0])
    assert len(files) >= 1 and len(first) > 0
    mtimes = [f.stat().st_mtime_ns for f in files]
    assert main(argv) == 0  # a rerun finds every chunk done and recomputes none
    assert [f.stat().st_mtime_ns for f in sorted(out.glob("*.parquet"))] == mtimes
    assert main(["simulate", "goathead3", "-n", "50", "--out", str(out), "--seed", "7", "--jobs", "1"]) == 2
    assert "trickcore: error:" in capsys.readouterr().err
    # payout-only solving: a dataset of its own, with value bands; a game without cuts is refused
    fast = tmp_path / "fast"
    assert main(["simulate", "goathead3", "-n", "30", "--out", str(fast), "--jobs", "1", "--policy", "dd_payout"]) == 0
    rows = pd.concat(pd.read_parquet(f) for f in sorted(fast.glob("*.parquet")))
    assert len(rows) == 30 * 6 and (rows.policy == "dd_payout").all()
    assert (rows.side_points_lo <= rows.side_points_hi).where(rows.contract != "nil", True).all()
    capsys.readouterr()
    assert main(["simulate", "clover", "-n", "5", "--out", str(tmp_path / "s"), "--policy", "dd_payout"]) == 2
    assert "dd_payout" in capsys.readouterr().err


def test_simulate_prints_the_summary_of_the_whole_dataset(tmp_path, capsys):
    """The summary covers every deal of the store, those of a resumed run included, and is
    the plain mean of what the store holds."""
    from analysis.store import read_store

    out = tmp_path / "run"
    argv = ["simulate", "goathead3", "-n", "60", "--out", str(out), "--jobs", "1", "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0                              # every chunk read back, none recomputed
    again = json.loads(capsys.readouterr().out)
    assert again == first
    rows = read_store(out)
    assert len(rows) == 60 * 6
    for r in first["rows"]:
        part = rows[rows.contract == r["contract"]]
        assert r["n"] == 60
        assert r["p_make"] == pytest.approx(part.made.astype(float).mean())
        assert r["declarer_payout"] == pytest.approx(part.payout_0.mean())
        assert r["p_make_lo"] <= r["p_make"] <= r["p_make_hi"]
    assert main(argv[:-1]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith("wrote 60 deals of goathead3") and text[1].split()[:3] == ["contract", "n", "p_make"]
