"""Conditions as text (``analysis.constraints.parse_constraint``) and the command line's
``--where`` and ``--fixed``: a constraint's printed form reads back as the same constraint,
every clause means what the classes mean, and bad text is a ``ValueError`` (exit code 2 on
the command line) that says where it went wrong."""

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.constraints import (KITTY, Count, Holds, HoldsAny, Points, parse_constraint, sample_deals,
                                  suit_cards, trumps)
from trickcore import get_game
from trickcore.cards import CardSet

GAMES = ["goathead3", "sheepshead", "clover", "spades"]


def _random_constraint(rng, game, depth=0):
    """A random constraint of every kind the text can say, nested up to two levels."""
    g = get_game(game)
    cards = list(g.deck)
    seats = list(range(g.n_seats)) + ([KITTY] if g.kitty_size else [])
    kind = rng.integers(0, 7 if depth < 2 else 4)
    seat = int(rng.choice(seats))
    some = CardSet(cards[i] for i in rng.choice(len(cards), size=int(rng.integers(1, 6)), replace=False))
    if kind == 0:
        return Holds(seat, some)
    if kind == 1:
        return HoldsAny(seat, some)
    if kind == 2:
        lo = int(rng.integers(0, len(some) + 1))
        form = rng.integers(0, 3)
        if form == 0:
            return Count(seat, some, min=lo)
        if form == 1:
            return Count(seat, some, max=lo)
        return Count(seat, some, min=lo, max=int(rng.integers(lo, len(some) + 1)))
    if kind == 3:
        lo = int(rng.integers(0, 40))
        form = rng.integers(0, 3)
        if form == 0:
            return Points(game, seat, min=lo)
        if form == 1:
            return Points(game, seat, max=lo)
        return Points(game, seat, min=lo, max=lo + int(rng.integers(0, 30)))
    if kind == 4:
        return ~_random_constraint(rng, game, depth + 1)
    a, b = _random_constraint(rng, game, depth + 1), _random_constraint(rng, game, depth + 1)
    return a & b if kind == 5 else a | b


@pytest.mark.parametrize("game", GAMES)
def test_printed_constraints_read_back_as_the_same_constraint(game):
    rng = np.random.default_rng(11)
    deals = sample_deals(game, 2000, seed=5)
    seen_true = seen_false = 0
    for _ in range(150):
        c = _random_constraint(rng, game)
        back = parse_constraint(repr(c), game)
        assert repr(back) == repr(c)
        expected = c.mask(deals)
        assert np.array_equal(back.mask(deals), expected), repr(c)
        seen_true += int(expected.any())
        seen_false += int(not expected.all())
    assert seen_true > 50 and seen_false > 50      # the sample tells constraints apart


def test_each_clause_means_what_the_classes_mean():
    deals = sample_deals("goathead3", 3000, seed=8)

    def same(text, constraint, contract=None):
        assert np.array_equal(parse_constraint(text, "goathead3", contract).mask(deals), constraint.mask(deals)), text

    hearts_trumps = trumps("goathead3", "hearts")
    same("seat 2 holds at least 3 of trumps", Count(2, hearts_trumps, min=3), contract="hearts")
    same("seat 2 holds at least 3 of trumps:hearts", Count(2, hearts_trumps, min=3))
    for suit in ("hearts", "Hearts", "H", "h", "♥"):
        same(f"seat 1 holds at most 1 of {suit}", Count(1, suit_cards("goathead3", "H"), max=1))
    same("the kitty holds any of AC, AS", HoldsAny(KITTY, "AC AS"))
    same("kitty holds AC", Holds(KITTY, "AC"))
    same("seat 0 holds 10 to 25 card points", Points("goathead3", 0, min=10, max=25))
    # and binds before or; not before both; parentheses regroup
    a, b, c = Holds(0, "JC"), Holds(1, "JD"), HoldsAny(2, "AH AC")
    same("seat 0 holds JC or seat 1 holds JD and seat 2 holds any of AH AC", a | (b & c))
    same("(seat 0 holds JC or seat 1 holds JD) and seat 2 holds any of AH AC", (a | b) & c)
    same("not seat 0 holds JC and seat 1 holds JD", (~a) & b)
    same("not (seat 0 holds JC and seat 1 holds JD)", ~(a & b))


@pytest.mark.parametrize("text, message", [
    ("", "an empty condition"),
    ("holds JD", "expected a clause"),
    ("seat x holds JD", "expected a number after 'seat', not 'x'"),
    ("seat 1 has JD", "expected 'holds' after the seat, not 'has'"),
    ("seat 1 holds", "expected cards, a suit or 'trumps', but the condition ends"),
    ("seat 1 holds JD JD", "JD names a card twice"),
    ("seat 1 holds 9C", "9C is not in the deck of goathead3"),
    ("seat 1 holds ZZ", "malformed card 'ZZ'"),
    ("seat 1 holds at lest 3 of H", "expected 'least' or 'most' after 'at', not 'lest'"),
    ("seat 1 holds at least x of H", "expected a number after 'at least', not 'x'"),
    ("seat 1 holds 3 to 1 of H", "3 to 1 is an empty range"),
    ("seat 1 holds at least 3 card pints", "expected 'points' after 'card', not 'pints'"),
    ("seat 1 holds trumps", "'trumps' needs a contract"),
    ("seat 1 holds trumps:bridge", "unknown contract 'bridge'"),
    ("seat 1 holds trumps:nil", "has no trumps"),
    ("seat 1 holds JD or", "expected a clause"),
    ("(seat 1 holds JD", "expected ')' after a parenthesised condition"),
    ("seat 1 holds JD)", "expected 'and', 'or' or the end, not ')'"),
    ("seat 7 holds JD", "no seat 7 at a table of 3"),
])
def test_bad_text_says_what_is_wrong(text, message):
    with pytest.raises(ValueError) as err:
        parse_constraint(text, "goathead3")
    assert message in str(err.value)


def test_odds_where_and_fixed_are_the_librarys_constraints(capsys):
    import analysis

    hand = "J♣ J♠ A♥ 10♥ K♥ Q♥"
    base = ["odds", "goathead3", hand, "--contract", "diamonds", "--jobs", "1", "--json",
            "--fixed", '1=JD AD', "--fixed", "kitty=10C"]
    assert main(base) == 0
    plain = json.loads(capsys.readouterr().out.splitlines()[0])
    assert main([*base, "--where", "seat 2 holds at least 2 of trumps", "--where", "not seat 1 holds AS"]) == 0
    given = json.loads(capsys.readouterr().out.splitlines()[0])
    table = analysis.contract_odds("goathead3", hand, contracts=["diamonds"], fixed={1: "JD AD", "kitty": "10C"},
                                   constraints=[Count(2, trumps("goathead3", "diamonds"), min=2),
                                                ~Holds(1, "AS")])
    row = table.iloc[0]
    assert given[0]["n"] == int(row["n"]) < plain[0]["n"] == 2310
    assert given[0]["p_make"] == pytest.approx(float(row["p_make"]))
    assert given[0]["ev"] == pytest.approx(float(row["ev"]))


def test_simulate_deals_only_what_where_and_fixed_allow(tmp_path):
    import analysis
    from analysis.store import read_store

    where = "seat 1 holds any of JC JS and not the kitty holds AH"
    argv = ["simulate", "goathead3", "-n", "40", "--out", str(tmp_path / "a"), "--jobs", "1",
            "--fixed", "0=AC 10C", "--where", where]
    assert main(argv) == 0
    got = read_store(tmp_path / "a").sort_values(["deal", "contract"]).reset_index(drop=True)
    expect = analysis.simulate("goathead3", 40, seed=2026, n_jobs=1, fixed={0: "AC 10C"},
                               where=HoldsAny(1, "JC JS") & ~Holds(KITTY, "AH"))
    expect = expect.sort_values(["deal", "contract"]).reset_index(drop=True)
    assert len(got) == len(expect) == 40 * 6
    assert got["payout_0"].tolist() == expect["payout_0"].tolist()
    assert got["side_points"].tolist() == expect["side_points"].tolist()
    # a rerun into the same folder under another condition is refused, not mixed in
    assert main([*argv[:-1], "seat 1 holds JC"]) == 2


def test_advise_where_narrows_the_layouts(capsys):
    argv = ["advise", "goathead3", "clubs", "QD JC 10S JD KH KC", "--seat", "2", "--declarer", "0",
            "--leader", "1", "--play", "10D QD QC  JS JH JC", "--json"]
    assert main(argv) == 0
    every = json.loads(capsys.readouterr().out)["attrs"]["layouts"]
    assert main([*argv, "--where", "seat 0 holds at least 4 of trumps"]) == 0
    four = json.loads(capsys.readouterr().out)["attrs"]["layouts"]
    assert main([*argv, "--trumps", "0=4"]) == 0
    assert four == json.loads(capsys.readouterr().out)["attrs"]["layouts"] < every


@pytest.mark.parametrize("extra, message", [
    (["--fixed", "1:JD"], "--fixed takes SEAT=CARDS"),
    (["--fixed", "1="], "--fixed takes SEAT=CARDS"),
    (["--fixed", "1=JD", "--fixed", "1=AD"], "--fixed names seat 1 twice"),
    (["--fixed", "1=JD JD"], "J♦"),
    (["--where", "seat 1 holds at lest 2 of H"], "cannot read the condition"),
    (["--where", "seat 1 holds JC"], "J♣"),                  # the hand holds it: no layout
])
def test_bad_conditions_exit_2_with_the_reason(extra, message, capsys):
    assert main(["odds", "goathead3", "J♣ J♠ A♥ 10♥ K♥ Q♥", "--contract", "hearts", "--jobs", "1", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("trickcore: error:") and message in err


def test_crack_where_and_fixed_are_crack_odds_constraints(capsys):
    from analysis.cracking import crack_odds

    hand = "QC QS JC AD 10D 9D"
    argv = ["crack", hand, "--seat", "3", "--picker", "1", "--deals", "150", "--json",
            "--fixed", "0=AH", "--where", "seat 1 holds at least 4 of trumps:jd"]
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    table = crack_odds(hand, seat=3, picker=1, n_deals=150, seed=2026, fixed={0: "AH"},
                       constraints=[Count(1, trumps("sheepshead", "jd"), min=4)])
    assert got["attrs"]["n_drawn"] == table.attrs["n_drawn"]
    assert len(got["rows"]) == len(table) > 0
    for row, (_, expect) in zip(got["rows"], table.iterrows()):
        assert row["n"] == expect["n"]
        assert row["ev_no"] == pytest.approx(float(expect["ev_no"]))


def test_chance_is_the_hypergeometric_answer(capsys):
    from math import comb

    mine = ["--fixed", "0=JC JS JH AC 10C KC"]
    # 14 unseen cards: seat 1 gets 6, seat 2 gets 6, the kitty 2
    assert main(["chance", "goathead3", "seat 1 holds JD", *mine]) == 0
    out = capsys.readouterr().out.strip()
    assert out == ("P(seat 1 holds J♦ | seat 0 holds J♣ J♠ J♥ A♣ 10♣ K♣) = 0.4286 "
                   "(exact: every one of the 84,084 deals)")      # C(14, 6) C(8, 6)
    assert main(["chance", "goathead3", "seat 1 holds JD", *mine, "--given", "seat 1 holds AD", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["method"] == "exact" and r["p"] == pytest.approx(5 / 13) and r["given"] == ["seat 1 holds A♦"]
    # Spades: seat 2 void in spades when seat 0 holds three of them (10 of the 39 unseen)
    void = comb(29, 13) / comb(39, 13)
    assert main(["chance", "spades", "seat 2 holds at most 0 of spades", "--fixed",
                 "0=AS KS QS 2H 3H 4H 5H 6H 7D 8D 9D 10C JC", "--deals", "40000", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["method"] == "sampled" and r["lo"] <= void <= r["hi"] and r["hi"] - r["lo"] < 0.003
    # and conditioned by rejection: a seat with the A♠ holds the K♠ no more often than 12/38
    assert main(["chance", "spades", "seat 1 holds KS", "--given", "seat 1 holds AS", "--method", "sample",
                 "--deals", "20000", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["n"] == 20000 and r["lo"] <= 12 / 51 <= r["hi"]


def test_chance_deals_the_table_the_rules_make(capsys):
    # Oh Hell with five cards a hand: seat 1 holds the A♠ with chance 5/47 given seat 0's 5 cards
    assert main(["chance", "ohhell", "seat 1 holds AS", "--rule", "hand_size=5", "--fixed", "0=2C 3C 4C 5C 6C",
                 "--deals", "40000", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["lo"] <= 5 / 47 <= r["hi"] and r["hi"] - r["lo"] < 0.01
    assert main(["chance", "ohhell", "seat 1 holds AS", "--fixed", "0=2C 3C 4C 5C 6C", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)               # the default table: 10 cards a hand, 10/47
    assert r["lo"] <= 10 / 47 <= r["hi"]


def test_chance_refuses_what_cannot_be(capsys):
    assert main(["chance", "goathead3", "seat 1 holds JD", "--fixed", "0=JD"]) == 0      # p = 0, a fine answer
    assert "= 0.0000" in capsys.readouterr().out
    impossible = ["chance", "goathead3", "seat 1 holds AD", "--given", "seat 2 holds JD", "--fixed",
                  "0=JD JC JS JH AC 10C"]
    assert main([*impossible, "--method", "exact"]) == 2
    assert "no deal satisfies (seat 2 holds J♦) with the fixed cards" in capsys.readouterr().err
    assert main([*impossible, "--method", "sample", "--deals", "100"]) == 2
    assert "no deal out of 100000 drawn satisfied (seat 2 holds J♦)" in capsys.readouterr().err
    assert main(["chance", "goathead3", "seat 1 holds", "--fixed", "0=JD"]) == 2
    assert "cannot read the condition" in capsys.readouterr().err


def test_hearts_pass_where_and_fixed_are_the_librarys_constraints(capsys):
    from analysis.hearts_pass import hearts_pass_odds

    hand = "QS AS KS 2C 3C 4C 5D 6D 7D 8H 9H 10H JH"
    passes = ["QS AS KS", "8H 9H 10H"]
    argv = ["hearts-pass", hand, "--direction", "left", "--deals", "120", "--json",
            "--candidate", passes[0], "--candidate", passes[1]]
    assert main(argv) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*argv, "--fixed", "2=AH KH", "--where", "seat 1 holds at most 1 of spades"]) == 0
    given = json.loads(capsys.readouterr().out)
    table = hearts_pass_odds(hand, "left", candidates=passes, n_deals=120, seed=2026, fixed={2: "AH KH"},
                             constraints=[Count(1, suit_cards("hearts", "S"), max=1)])
    assert [r["points"] for r in given["rows"]] == pytest.approx(table["points"].tolist())
    assert [r["points"] for r in given["rows"]] != pytest.approx([r["points"] for r in plain["rows"]])
    assert main([*argv, "--fixed", "0=2S"]) == 2
    assert "the analyst's own" in capsys.readouterr().err
