"""Saving played rounds to JSON Lines and loading them back (trickcore.rounds.record_io),
and the CLI around it: ``trickcore play ... --out FILE``, ``trickcore review --record FILE``."""

import dataclasses
import json
import math
import os
import re

import numpy as np
import pandas as pd
import pytest

from analysis.cli import main
from analysis.review import review_round
from trickcore.cards import Card, CardSet
from trickcore.games import GAME_IDS, get_game
from trickcore.policies import HeuristicPolicy, RandomPolicy
from trickcore.rounds import RoundRecord, Trick, load_records, play_match, play_round, save_records
from trickcore.rounds import record_io


def heuristic_round(game, seed=3, **kwargs):
    return play_round(game, [HeuristicPolicy() for _ in range(get_game(game).n_seats)], seed=seed, **kwargs)


def roundtrip(records, tmp_path, name="rounds.jsonl"):
    path = tmp_path / name
    save_records(records, path)
    return load_records(path)


def assert_same(loaded, records):
    """Equal by the dataclasses' ==, and of the same types all the way down (repr shows
    2 against 2.0, (..) against [..], True against 1, Card against int)."""
    assert loaded == records
    assert [repr(r) for r in loaded] == [repr(r) for r in records]


# --------------------------------------------------------------------------------------
# round trips

@pytest.mark.parametrize("game", GAME_IDS)
def test_a_round_of_every_game_comes_back_equal(game, tmp_path):
    rec = heuristic_round(game)
    assert rec.tricks and not rec.thrown_in
    loaded = roundtrip([rec], tmp_path)
    assert_same(loaded, [rec])
    back = loaded[0]
    assert all(isinstance(c, Card) for t in back.tricks for _, c in t.plays)
    assert all(isinstance(t, Trick) and isinstance(t.plays, tuple) for t in back.tricks)
    assert all(isinstance(b, tuple) for b in back.bids)


def test_special_rounds_come_back_equal(tmp_path):
    n = {g: get_game(g).n_seats for g in GAME_IDS}
    rounds = {
        # all five pass under no_pick='redeal': thrown in, no contract, no trick
        "sheepshead thrown in": heuristic_round("sheepshead", seed=79, no_pick="redeal"),
        # blitz, crack and re-crack (x8), a called ace: bids and a partner in `extra`
        "sheepshead called ace": heuristic_round("sheepshead", seed=7, partner="called_ace", blitz=True,
                                                 crack=True, jd_picker="call_jack"),
        # Gamut Clubs with a folded seat: three plays a trick, contract clubs_3
        "gamut folded": heuristic_round("gamut", seed=17),
        # a diamond turned and passed round: a redeal doubles the round (multiplier 2)
        "gamut redealt": heuristic_round("gamut", seed=55),
        # every seat folds under last_may_fold: thrown in
        "gamut all folded": play_round("gamut", [RandomPolicy(seed=126 * 4 + s) for s in range(4)], seed=126,
                                       last_may_fold=True),
        # a nil lost at the first trick: the play stops after one trick
        "goathead nil": play_round("goathead3", [RandomPolicy(seed=49 * 3 + s) for s in range(3)], seed=49),
        # Oh Hell's sixth round deals 5 cards; a later dealer
        "ohhell round 5": heuristic_round("ohhell", seed=2, round_index=5, dealer=1, no_equal_total=True),
        "hearts passing across": heuristic_round("hearts", seed=4, round_index=2, dealer=3),
    }
    r = rounds
    assert r["sheepshead thrown in"].thrown_in and r["sheepshead thrown in"].contract is None
    assert r["sheepshead called ace"].multiplier == 8 and r["sheepshead called ace"].extra["partner"] >= 0
    assert r["gamut folded"].contract == "clubs_3" and len(r["gamut folded"].tricks[0].plays) == 3
    assert r["gamut redealt"].multiplier == 2
    assert r["gamut all folded"].thrown_in and not r["gamut all folded"].tricks
    assert r["goathead nil"].contract == "nil" and len(r["goathead nil"].tricks) == 1
    assert len(r["ohhell round 5"].tricks) == 5
    records = list(rounds.values())
    assert_same(roundtrip(records, tmp_path), records)
    # a whole match, thrown-in rounds and all
    match = play_match("sheepshead", [HeuristicPolicy()] * n["sheepshead"], seed=5, rounds=3, no_pick="doubler")
    assert_same(roundtrip(match.rounds, tmp_path, "match.jsonl"), match.rounds)


def test_values_of_every_kind_come_back_with_their_types(tmp_path):
    rec = heuristic_round("goathead3")
    rec.extra.update({
        "np_int": np.int64(7), "np_float": np.float32(0.5), "np_bool": np.bool_(True),
        "card": Card.parse("10H"), "cards": CardSet("JC AH 10H"), "no_cards": CardSet(),
        "pair": (1, "two", (3.0, None)), "nested": {"k": [1, 2.5, False]},
        "int_keys": {1: "a", 2: (Card.parse("QS"),)}, "dollar": {"$card": "not a card"},
        "big": 2**70, "neg_zero": -0.0,
    })
    rec.frame["side_points"] = np.int64(rec.frame["side_points"])
    rec.bids.append((0, "note", (Card.parse("JD"), CardSet("QC QS"))))
    back = roundtrip([rec], tmp_path)[0]
    assert back == rec
    x = back.extra
    assert type(x["np_int"]) is int and x["np_int"] == 7
    assert type(x["np_float"]) is float and x["np_float"] == 0.5
    assert x["np_bool"] is True
    assert type(x["card"]) is Card and str(x["card"]) == "10♥"
    assert type(x["cards"]) is CardSet and x["cards"] == CardSet("JC AH 10H") and x["no_cards"] == CardSet()
    assert x["pair"] == (1, "two", (3.0, None)) and type(x["pair"][2]) is tuple
    assert x["int_keys"] == {1: "a", 2: (Card.parse("QS"),)} and x["dollar"] == {"$card": "not a card"}
    assert x["big"] == 2**70 and math.copysign(1, x["neg_zero"]) == -1
    assert type(back.frame["side_points"]) is int
    assert back.bids[-1] == (0, "note", (Card.parse("JD"), CardSet("QC QS")))
    # NaN is kept (it equals nothing, so the records differ only there)
    rec.scored["nan"] = float("nan")
    rec.scored["inf"] = float("-inf")
    back = roundtrip([rec], tmp_path, "nan.jsonl")[0]
    assert math.isnan(back.scored.pop("nan")) and back.scored.pop("inf") == float("-inf")


def test_the_file_is_json_lines_with_a_version_and_card_text(tmp_path):
    records = [heuristic_round("goathead3", seed=s) for s in range(3)]
    path = tmp_path / "r.jsonl"
    save_records(records, path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    for line, rec in zip(lines, records):
        obj = json.loads(line)
        assert obj["format"] == "trickcore round" and obj["version"] == record_io.VERSION == 1
        assert set(obj) == {"format", "version"} | {f.name for f in dataclasses.fields(RoundRecord)}
        first = rec.tricks[0].plays[0]
        assert obj["tricks"][0]["plays"][0] == [first[0], first[1].rank_name + first[1].suit_letter]
    assert load_records(path) == records
    save_records([], tmp_path / "empty.jsonl")
    assert load_records(tmp_path / "empty.jsonl") == []


def test_a_changed_or_dropped_value_is_noticed(tmp_path):
    """The round-trip checks above can fail: every field takes part in the comparison, and
    a value lost or retyped on the way shows."""
    rec = heuristic_round("sheepshead")
    for f in dataclasses.fields(RoundRecord):
        other = dataclasses.replace(rec, **{f.name: "changed"})
        assert other != rec, f.name
    path = tmp_path / "r.jsonl"
    save_records([rec], path)
    obj = json.loads(path.read_text())
    obj["extra"].pop("partner")                # a dropped value
    obj["payouts"][0] = int(obj["payouts"][0])  # a float written as an int
    path.write_text(json.dumps(obj) + "\n")
    back = load_records(path)[0]
    assert back != rec
    assert back.payouts == rec.payouts and repr(back.payouts) != repr(rec.payouts)


# --------------------------------------------------------------------------------------
# writing: what cannot be saved, and an interrupted save

def test_unsavable_values_fail_loudly_and_leave_the_file_alone(tmp_path):
    rec = heuristic_round("goathead3")
    path = tmp_path / "r.jsonl"
    save_records([rec], path)
    before = path.read_bytes()
    for bad, where in ((np.arange(3), "records[1].extra['a']"), (object(), "records[1].extra['a']"),
                       ({1.5: {"x": {1, 2}}}, "records[1].extra['a'][1.5]['x']")):
        other = dataclasses.replace(rec, extra={"a": bad})
        with pytest.raises(TypeError, match=re.escape(f"{where}: cannot save a value of type")):
            save_records([rec, other], path)
        assert path.read_bytes() == before
    with pytest.raises(TypeError, match="records must be a list of RoundRecords"):
        save_records(rec, path)
    with pytest.raises(TypeError, match=r"records\[1\] is a dict, not a RoundRecord"):
        save_records([rec, {}], path)
    with pytest.raises(TypeError, match=r"records\[0\].tricks\[0\].plays\[0\] must be a \(seat, Card\) tuple"):
        t = rec.tricks[0]
        save_records([dataclasses.replace(rec, tricks=[Trick(t.leader, (("0", "JC"),), t.winner)])], path)
    with pytest.raises(TypeError, match=r"records\[0\].dealer must be a whole number"):
        save_records([dataclasses.replace(rec, dealer=1.0)], path)
    # a record that would not load back is not written either
    t = rec.tricks[0]
    wrong = dataclasses.replace(rec, tricks=[Trick(t.leader, t.plays, (t.winner + 1) % 3), *rec.tricks[1:]])
    with pytest.raises(ValueError, match=r"records\[0\] would not load back: trick 1 is won by seat"):
        save_records([wrong], path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["r.jsonl"]


def test_an_interrupted_save_keeps_the_old_file(tmp_path, monkeypatch):
    old = [heuristic_round("goathead3", seed=1)]
    new = [heuristic_round("goathead3", seed=s) for s in range(2, 6)]
    path = tmp_path / "r.jsonl"
    save_records(old, path)

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)      # after the lines are written, before the rename
    with pytest.raises(KeyboardInterrupt):
        save_records(new, path)
    monkeypatch.undo()
    assert load_records(path) == old
    assert os.listdir(tmp_path) == ["r.jsonl"]          # no temporary file left behind
    save_records(new, path)
    assert load_records(path) == new


# --------------------------------------------------------------------------------------
# reading: every malformed input names its line

def _good_lines(tmp_path):
    path = tmp_path / "good.jsonl"
    save_records([heuristic_round("goathead3", seed=1), heuristic_round("goathead3", seed=2)], path)
    return [json.loads(line) for line in path.read_text().splitlines()]


def _rotate_trick(layout, trick, leader):
    """The same cards played in seat order from ``leader``, with the winner they make."""
    plays = sorted(trick["plays"], key=lambda p: (p[0] - leader) % 3)
    winner = plays[layout.trick_winner([p[1] for p in plays])][0]
    return {"leader": leader, "plays": plays, "winner": winner}


def _break(case, obj):
    tricks = obj["tricks"]
    if case == "unknown game":
        obj["game"] = "bridge"
    elif case == "missing field":
        del obj["tricks"]
    elif case == "unknown field":
        obj["colour"] = "red"
    elif case == "version":
        obj["version"] = 99
    elif case == "format":
        obj["format"] = "something else"
    elif case == "bad card text":
        tricks[1]["plays"][2][1] = "XX"
    elif case == "card outside the deck":
        tricks[1]["plays"][2][1] = "2C"
    elif case == "card played twice":
        tricks[2]["plays"][1][1] = tricks[0]["plays"][2][1]
    elif case == "winner":
        tricks[0]["winner"] = (tricks[0]["winner"] + 1) % 3
    elif case == "leader field":
        tricks[0]["leader"] = (tricks[0]["leader"] + 1) % 3
    elif case == "seat order":
        p = tricks[1]["plays"]
        p[1], p[2] = p[2], p[1]
    elif case == "leader is not the last winner":
        layout = get_game("goathead3").layout(obj["contract"], **obj["rules"])
        tricks[1] = _rotate_trick(layout, tricks[1], (tricks[0]["winner"] + 1) % 3)
    elif case == "too few plays":
        tricks[3]["plays"].pop()
    elif case == "too many plays":
        tricks[3]["plays"].append([tricks[3]["leader"], "2C"])
    elif case == "trick counts":
        obj["trick_counts"] = obj["trick_counts"][::-1] if obj["trick_counts"][::-1] != obj["trick_counts"] \
            else [6, 0, 0]
    elif case == "rules":
        obj["rules"]["colour"] = "red"
    elif case == "contract":
        obj["contract"] = "grand"
    elif case == "seat":
        obj["dealer"] = 3
    elif case == "tagged value":
        obj["extra"]["x"] = {"$card": "1Z"}
    else:  # pragma: no cover
        raise AssertionError(case)
    return json.dumps(obj)


@pytest.mark.parametrize("case, message", [
    ("unknown game", "unknown game 'bridge'; valid games: goathead3"),
    ("missing field", "missing field 'tricks'"),
    ("unknown field", "unknown field 'colour'"),
    ("version", "format version 99 is not one this trickcore reads"),
    ("format", r"not a trickcore round record \(format 'something else'"),
    ("bad card text", "play 3 of trick 2: malformed card 'XX'"),
    ("card outside the deck", "play 3 of trick 2: 2♣ is not in the deck of goathead3"),
    ("card played twice", "play 2 of trick 3: .* was played already, in trick 1"),
    ("winner", r"trick 1 is won by seat \d \(.*\), not by seat \d"),
    ("leader field", r"trick 1 is led by seat \d, but its leader is seat \d"),
    ("seat order", r"trick 2: seats play in the order \[\d, \d, \d\]; from leader \d the order is"),
    ("leader is not the last winner", r"trick 2 is led by seat \d, but seat \d won trick 1"),
    ("too few plays", "trick 4 has 2 plays; a trick of goathead3/.* has 3"),
    ("too many plays", "trick 4 has 4 plays; a trick of goathead3/.* has 3"),
    ("trick counts", r"trick_counts \[.*\] do not match the tricks' winners"),
    ("rules", "rules: unknown rule option.s. colour for goathead3"),
    ("contract", "unknown contract 'grand' for goathead3"),
    ("seat", "dealer must be a seat 0..2 of goathead3, not 3"),
    ("tagged value", "extra: malformed card '1Z'"),
])
def test_malformed_records_name_the_line_and_the_problem(case, message, tmp_path):
    first, second = _good_lines(tmp_path)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(first) + "\n" + _break(case, second) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"bad.jsonl, line 2: {message}"):
        load_records(path)


def test_lines_that_are_not_records(tmp_path):
    first, _ = _good_lines(tmp_path)
    good = json.dumps(first)
    path = tmp_path / "bad.jsonl"
    for text, line, message in (
        (good + "\n" + good[:200] + "\n", 2, "not JSON"),                     # a line cut short
        (good + "\n\n" + good + "\n", 2, "empty line"),
        ("[1, 2]\n", 1, "not a round record .a JSON object., but list"),
        (good + "\n" + good + "\n" + "{\"format\": \"trickcore round\"}\n", 3, "missing field 'version'"),
    ):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=f"line {line}: {message}"):
            load_records(path)
    path.write_bytes(good.encode() + b"\n\xff\xfe\n")
    with pytest.raises(ValueError, match="line 2: not UTF-8 text"):
        load_records(path)
    with pytest.raises(FileNotFoundError):
        load_records(tmp_path / "missing.jsonl")


# --------------------------------------------------------------------------------------
# review from a saved round

@pytest.mark.parametrize("game", ["goathead3", "goathead4", "sheepshead", "clover", "gamut"])
def test_review_of_a_loaded_round_equals_the_review_of_the_played_one(game, tmp_path):
    rec = heuristic_round(game)
    back = roundtrip([rec], tmp_path)[0]
    a, b = review_round(rec), review_round(back)
    pd.testing.assert_frame_equal(a.moves, b.moves)
    assert (a.side, a.goal, a.perspective, a.start, a.result) == (b.side, b.goal, b.perspective, b.start, b.result)


# --------------------------------------------------------------------------------------
# the command line

def test_cli_play_saves_rounds_that_review_reads(tmp_path, capsys):
    out = tmp_path / "rounds.jsonl"
    assert main(["play", "goathead3", "--seed", "5", "--rounds", "3", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and lines[-1] == f"saved 3 rounds to {out}"
    records = load_records(out)
    for i, (line, rec) in enumerate(zip(lines, records)):
        assert line.startswith(f"round {i} (dealer {i}): contract {rec.contract}, declarer {rec.declarer}; bids: ")
        assert f"; points {' '.join(map(str, rec.points))}; tricks " in line and "; payouts " in line
    # reproducible: round i is dealt from SeedSequence(seed)'s i-th child, by seat i
    children = np.random.SeedSequence(5).spawn(3)
    again = [play_round("goathead3", [HeuristicPolicy()] * 3, seed=c, dealer=i, round_index=i)
             for i, c in enumerate(children)]
    assert records == again

    assert main(["review", "--record", str(out), "--index", "1"]) == 0
    text = capsys.readouterr().out
    first = text.splitlines()[0]
    assert first == f"round 1 of {out} (goathead3, 3 rounds): contract {records[1].contract}, " \
                    f"declarer {records[1].declarer}; bids: " + \
                    "; ".join(f"seat {s} {p} {v}" for s, p, v in records[1].bids)
    rev = review_round(records[1])
    assert f"double-dummy value at the start {rev.start}, taken {rev.result}" in text
    table = rev.moves[["trick", "seat", "card", "team", "before", "after", "loss", "best_cards"]]
    assert table.to_string(index=False, na_rep="-", float_format=lambda v: f"{v:.3g}") in text
    # GAME may be given, and must then be the record's; --json names the record's game
    assert main(["review", "goathead3", "--record", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "goathead3" and data["contract"] == records[0].contract
    assert [m["card"] for m in data["moves"]] == list(review_round(records[0]).moves.card)


def test_cli_play_with_pimc_players_and_rules(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    argv = ["play", "sheepshead", "--seed", "3", "--rounds", "2", "--policy", "pimc", "--samples", "2",
            "--rule", "no_pick=leaster", "--out", str(out)]
    assert main(argv) == 0
    first = capsys.readouterr().out
    records = load_records(out)
    assert len(records) == 2 and all(r.rules["no_pick"] == "leaster" for r in records)
    assert main(argv) == 0                                         # the same rounds again
    assert capsys.readouterr().out == first and load_records(out) == records


def test_cli_play_prints_and_saves_thrown_in_rounds(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    assert main(["play", "sheepshead", "--seed", "2", "--rounds", "3", "--rule", "no_pick=redeal",
                 "--out", str(out)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("round 0 (dealer 0): thrown in; bids: seat 1 pick False; seat 2 pick False; "
                     "seat 3 pick False; seat 4 pick False; seat 0 pick False; seat 0 thrown_in redeal; "
                     "points 0 0 0 0 0; tricks 0 0 0 0 0; payouts +0 +0 +0 +0 +0")
    records = load_records(out)
    assert records[0].thrown_in and not records[1].thrown_in
    assert "no card play to review" in _error(["review", "--record", str(out)], capsys)
    assert main(["review", "--record", str(out), "--index", "1"]) == 0
    assert capsys.readouterr().out.startswith(f"round 1 of {out} (sheepshead, 3 rounds): contract ")


def _error(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("trickcore: error: ") and err.count("\n") == 1
    return err


def test_cli_record_errors_exit_2(tmp_path, capsys):
    good = tmp_path / "good.jsonl"
    save_records([heuristic_round("goathead3"), heuristic_round("sheepshead", seed=79, no_pick="redeal"),
                  heuristic_round("ohhell", hand_size=3)], good)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    review = ["review", "--record"]
    assert "cannot read the record file" in _error([*review, str(tmp_path / "missing.jsonl")], capsys)
    assert "cannot read the record file" in _error([*review, str(tmp_path)], capsys)       # a directory
    assert "--index 3 is out of range" in _error([*review, str(good), "--index", "3"], capsys)
    assert "--index -1 is out of range" in _error([*review, str(good), "--index", "-1"], capsys)
    assert "bad.jsonl, line 1: not JSON" in _error([*review, str(bad)], capsys)
    assert "holds no rounds" in _error([*review, str(empty)], capsys)
    assert "no card play to review" in _error([*review, str(good), "--index", "1"], capsys)
    assert "Oh Hell is not reviewed" in _error([*review, str(good), "--index", "2"], capsys)
    assert "a goathead3 round, not hearts" in _error(["review", "hearts", "--record", str(good)], capsys)
    assert "give no CONTRACT" in _error(["review", "goathead3", "hearts", "--record", str(good)], capsys)
    assert "give no CONTRACT" in _error([*review, str(good), "--round", "3"], capsys)
    assert "give no CONTRACT" in _error([*review, str(good), "--rule", "steal=false"], capsys)
    assert "give --record too" in _error(["review", "goathead3", "--index", "1"], capsys)
    assert "give GAME" in _error(["review", "--round", "3"], capsys)
    assert "give GAME" in _error(["review"], capsys)
    # options of another form of review are refused, not ignored
    for extra, names in ((["--leader", "1"], "--leader"), (["--declarer", "0"], "--declarer"),
                         (["--goal", "min"], "--goal"), (["--sides", "1"], "--sides"), (["--played", "AC"], "--played"),
                         (["--leader", "1", "--goal", "min"], "--leader and --goal")):
        assert f"{names} cannot be used with --record or --round" in _error([*review, str(good), *extra], capsys)
    for extra, names in ((["--samples", "5"], "--samples"), (["--policy", "pimc"], "--policy"),
                         (["--policy", "heuristic", "--samples", "5"], "--policy and --samples")):
        assert f"{names} cannot be used without --round" in _error([*review, str(good), *extra], capsys)
    assert "--leader cannot be used with --record or --round" in _error(
        ["review", "goathead3", "--round", "3", "--leader", "2"], capsys)
    assert "--perspective cannot be used with --round" in _error(
        ["review", "goathead3", "--round", "3", "--perspective", "seat"], capsys)
    hand_form = ["review", "goathead3", "hearts", "--hands", "AC", "10D", "JD", "--play", "AC 10D JD"]
    assert "--samples cannot be used without --round" in _error([*hand_form, "--samples", "4"], capsys)
    assert "--policy cannot be used without --round" in _error([*hand_form, "--policy", "pimc"], capsys)
    # play's own
    assert "--rounds must be at least 1" in _error(["play", "goathead3", "--rounds", "0"], capsys)
    assert "give --policy pimc" in _error(["play", "goathead3", "--samples", "3"], capsys)
    assert "bad seed -1" in _error(["play", "goathead3", "--seed", "-1"], capsys)
    assert "unknown rule option" in _error(["play", "goathead3", "--rule", "colour=red"], capsys)
    assert "a directory, not a file" in _error(["play", "goathead3", "--out", str(tmp_path)], capsys)
    assert "no directory" in _error(["play", "goathead3", "--out", str(tmp_path / "no" / "x.jsonl")], capsys)


def test_cli_review_keeps_its_other_forms(capsys):
    # the hand form, with --perspective given and left out
    hands = ["AC 10C", "10D JC", "JD QC"]
    base = ["review", "goathead3", "hearts", "--hands", *hands, "--play", "AC 10D QC 10C JC JD"]
    assert main(base) == 0
    plain = capsys.readouterr().out
    assert main([*base, "--perspective", "side"]) == 0
    assert capsys.readouterr().out == plain
    assert "double-dummy value at the start 0, taken 24" in plain
    assert main([*base, "--perspective", "seat"]) == 0
    assert "double-dummy value at the start" not in capsys.readouterr().out


def test_cli_stops_quietly_when_its_reader_leaves(tmp_path):
    # `trickcore play ... | head -1`: the reader closes the pipe after one line; the CLI
    # ends with SIGPIPE's code and no error message, as a tool killed by SIGPIPE does
    import os
    import subprocess
    import sys

    code = "import sys; from analysis.cli import main; sys.exit(main(sys.argv[1:]))"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.Popen([sys.executable, "-c", code, "play", "goathead3", "--rounds", "40"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert first.startswith(b"round 0")
    assert (proc.returncode, err) == (141, "")


@pytest.mark.parametrize("command", ["play", "review"])
def test_play_and_review_have_help(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: trickcore {command}") and ("--out FILE" in out or "--record FILE" in out)
