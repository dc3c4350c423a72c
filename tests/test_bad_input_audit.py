"""Bad input at the public surface: a ``ValueError`` naming what is wrong (the CLI: one line
on stderr and exit code 2), never another exception, a traceback or a silent correction.

Each case here failed the standard before the bad-input audit (a ``TypeError`` or
``AttributeError`` from deep inside, an unclear message, or input accepted and corrected)."""

from __future__ import annotations

import numpy as np
import pytest

import analysis
from analysis.cli import main
from trickcore import Card, CardSet, get_game, parse_hand, solve
from trickcore.policies import PIMCPolicy, RandomPolicy
from trickcore.rounds import play_match, play_round, start_round
from trickcore.scoring import score

GOAT = get_game("goathead3")
HEARTS = GOAT.layout("hearts")
HANDS = ["JC AS", "QH 10S", "KS QS"]
DEAL = np.array([[CardSet(h).mask for h in HANDS]], dtype=np.uint64)
ODDS_HAND = "JC JS AH 10H KH QH"
ODDS = dict(contracts="hearts", method="sample", max_deals=8, chunk_size=8, n_jobs=1, progress=False)
SIM = dict(contracts="hearts", chunk_size=4, n_jobs=1, progress=False)


# ---------------------------------------------------------------------------------- cards

@pytest.mark.parametrize("call, match", [
    (lambda: Card(3.5), "card id must be an integer"),
    (lambda: Card(True), "card id must be an integer"),
    (lambda: Card(None), "card id must be an integer"),
    (lambda: Card("AH"), "Card.parse"),
    (lambda: Card.make(1.5, 0), "unknown rank 1.5"),
    (lambda: Card.make(None, 0), "unknown rank None"),
    (lambda: Card.make(0, None), "unknown suit None"),
    (lambda: CardSet.from_pbn(None), "malformed PBN hand None"),
    (lambda: CardSet("AH").suit(None), "unknown suit None"),
    (lambda: parse_hand(None), "malformed hand None"),
])
def test_cards(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_set_operations_take_a_card_as_one_card():
    # a Card is an int: it used to be read as a bit-board (A♥ = id 44 = 4♣ 5♣ 7♣)
    ah = Card.parse("AH")
    assert CardSet("AH KH") - ah == CardSet("KH")
    assert CardSet("KH") | ah == CardSet("AH KH")
    assert CardSet("AH KH") & ah == CardSet("AH")


# ------------------------------------------------------------------------ rule options

@pytest.mark.parametrize("call, match", [
    (lambda: GOAT.check_rules(["steal"]), "rule options must be a mapping"),
    (lambda: GOAT.check_rules("steal"), "rule options must be a mapping"),
    (lambda: score("goathead3", {"contract": ["hearts"]}, [1]), "rule options must be a mapping"),
    (lambda: score(["hearts"], {"contract": ["hearts"]}), "unknown game"),
])
def test_rule_options_and_games(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------------------------- layout

@pytest.mark.parametrize("kwargs, match", [
    (dict(hand="9C"), "not in the deck"),
    (dict(hand="JC AH", trick_index=200), "trick_index"),
    (dict(hand="JC AH", trick_index=-1), "trick_index"),
    (dict(hand="JC AH", trick_index=1.5), "trick_index"),
    (dict(hand="JC AH", suits_led=-1), "suits_led"),
    (dict(hand="JC AH", suits_led=999), "suits_led"),
    (dict(hand="JC AH", played="9C"), "played: 9♣ not in the deck"),
    (dict(hand="JC AH", played="JC"), "both in the hand and played"),
    (dict(hand="JC AH", led="JC"), "led card J♣ is also in the hand"),
    (dict(hand=None), "malformed hand None"),
])
def test_legal_moves(kwargs, match):
    kwargs = dict(kwargs)
    hand = kwargs.pop("hand")
    with pytest.raises(ValueError, match=match):
        HEARTS.legal_moves(hand, **kwargs)


@pytest.mark.parametrize("cards, match", [
    (["JC", "JC", "AH"], "appears twice"),
    (["JC", "AH", "KH", "QH"], "holds 1..3 cards, not 4"),
    (None, "play order"),
    (5, "play order"),
])
def test_trick_winner(cards, match):
    with pytest.raises(ValueError, match=match):
        HEARTS.trick_winner(cards)


def test_trick_winner_reads_a_trick_given_as_text():
    assert HEARTS.trick_winner("QH JC 10S") == HEARTS.trick_winner(["QH", "JC", "10S"]) == 1


@pytest.mark.parametrize("hands, declarer, match", [
    (DEAL[0], 5, "declarer 5 out of range for 3 seats"),
    (DEAL[0], -1, "declarer -1 out of range"),
    (DEAL[0], 1.5, "declarer must hold seat numbers"),
    (DEAL[0], True, "declarer must hold seat numbers"),
    (np.zeros((2, 5), np.uint64), 0, r"hands must be 3 universal bit-boards"),
    (None, 0, r"hands must be 3 universal bit-boards"),
    (np.array([-1, 2, 3]), 0, r"hands must be 3 universal bit-boards"),
])
def test_sides(hands, declarer, match):
    with pytest.raises(ValueError, match=match):
        HEARTS.sides(hands, declarer)


# ------------------------------------------------------------------------------- solver

@pytest.mark.parametrize("kwargs, match", [
    (dict(hands=None), "needs 3 hands"),
    (dict(hands=5), "needs 3 hands"),
    (dict(leader=True), "leader must be a seat number"),
    (dict(declarer=True), "declarer must be a seat number"),
    (dict(sides=True), "sides must be a seat bit mask"),
    (dict(tt_mb=True), "tt_mb"),
    (dict(trick=None), "trick must be the cards on the table"),
    (dict(trick=5), "trick must be the cards on the table"),
    (dict(suits_led=1.5), "suits_led"),
])
def test_solve(kwargs, match):
    kwargs = dict(kwargs)
    hands = kwargs.pop("hands", HANDS)
    with pytest.raises(ValueError, match=match):
        solve("goathead3", "hearts", hands, **kwargs)


# ------------------------------------------------------------------------ rounds, matches

@pytest.mark.parametrize("kwargs, match", [
    (dict(dealer=1.5), "dealer must be a seat 0..2"),
    (dict(dealer=True), "dealer must be a seat 0..2"),
    (dict(dealer=None), "dealer must be a seat 0..2"),
    (dict(dealer="a"), "dealer must be a seat 0..2"),
    (dict(round_index=-1), "round_index"),
    (dict(round_index=1.5), "round_index"),
    (dict(scores=[0, 0]), "scores must be 3"),
    (dict(scores=["a", 0, 0]), "scores must be 3"),
    (dict(scores=5), "scores must be 3"),
    (dict(scores=[float("nan"), 0, 0]), "scores must be 3 finite"),
    (dict(multiplier=0), "multiplier"),
    (dict(multiplier=-2), "multiplier"),
    (dict(multiplier=1.5), "multiplier"),
    (dict(seed="a"), "bad seed 'a'"),
    (dict(seed=-1), "bad seed -1"),
    (dict(hands=5), "needs 3 hands"),
    (dict(hands=["XX", "JC", "JD"]), "seat 0: malformed card 'XX'"),
])
def test_start_round(kwargs, match):
    with pytest.raises(ValueError, match=match):
        start_round("goathead3", **kwargs)


def test_play_round_and_match_check_policies_and_seeds():
    pols = [RandomPolicy(seed=s) for s in range(3)]
    with pytest.raises(ValueError, match="needs 3 policies"):
        play_round("goathead3", None, seed=1)
    with pytest.raises(ValueError, match=r"seat 1 .* has no bid\(\) method"):
        play_round("goathead3", [object()] * 3, seed=1)
    with pytest.raises(ValueError, match="needs 3 policies"):
        play_match("goathead3", None, seed=1, rounds=1)
    with pytest.raises(ValueError, match="bad seed 'a'"):
        play_match("goathead3", pols, seed="a", rounds=1)
    for first in (7, -1, 1.5):   # used to be taken modulo 3
        with pytest.raises(ValueError, match="first_dealer must be a seat 0..2"):
            play_match("goathead3", pols, seed=1, first_dealer=first, rounds=1)


# ------------------------------------------------------------------------------ policies

@pytest.mark.parametrize("kwargs, match", [
    (dict(samples=0), "samples"),
    (dict(samples=-1), "samples"),
    (dict(samples=1.5), "samples"),
    (dict(samples=None), "samples"),
    (dict(seed=-1), "seed"),
    (dict(seed=1.5), "seed"),
    (dict(tt_mb=0), "tt_mb"),
    (dict(tt_mb="a"), "tt_mb"),
    (dict(shortlist=0), "shortlist"),
    (dict(max_cards=-1), "max_cards"),
    (dict(bid_samples=-1), "bid_samples"),
    (dict(max_deal_cards=-1), "max_deal_cards"),
    (dict(bid_oversample=1.7), "bid_oversample"),
    (dict(bid_sigma=float("inf")), "bid_sigma"),
    (dict(bid_sigma=None), "bid_sigma"),
    (dict(bid_sigma="a"), "bid_sigma"),
    (dict(solve_bids="no"), "solve_bids"),
    (dict(bid_inference="no"), "bid_inference"),
    (dict(fallback=5), "fallback"),
])
def test_pimc_policy_settings(kwargs, match):
    with pytest.raises(ValueError, match=match):
        PIMCPolicy(**kwargs)


@pytest.mark.parametrize("seed", ["a", 1.5, -1])
def test_random_policy_seed(seed):
    with pytest.raises(ValueError, match="bad seed"):
        RandomPolicy(seed=seed)


# ------------------------------------------------------------------------------ analysis

@pytest.mark.parametrize("kwargs, match", [
    (dict(seat=1.5), "seat must be 0..2"),
    (dict(seat=None), "seat must be 0..2"),
    (dict(seat=True), "seat must be 0..2"),
    (dict(leader=1.5), "leader must be a seat 0..2"),
    (dict(rules=[1]), "rule options must be a mapping"),
    (dict(contracts=["hearts", "hearts"]), "contract listed twice"),
    (dict(contracts=5), "contracts must be a contract name"),
    (dict(target_se=-1), "target_se must be a positive"),
    (dict(target_se=0), "target_se must be a positive"),
    (dict(target_se=float("nan")), "target_se must be a positive"),
    (dict(target_se="a"), "target_se must be a positive"),
    (dict(target_ev_se="a"), "target_ev_se must be a positive"),
    (dict(time_budget="a"), "time_budget must be a positive"),
    (dict(max_deals=0), "max_deals must be at least 1"),
    (dict(max_deals=1.5), "max_deals must be a whole number"),
    (dict(exact_limit=-1), "exact_limit"),
    (dict(chunk_size=1.5), "chunk_size must be a whole number"),
    (dict(seed="a"), "seed must be an int"),
    (dict(seed=-1), "bad seed -1"),
    (dict(level="a"), "confidence level"),
    (dict(fixed="AC"), "fixed must be a mapping"),
])
def test_contract_odds(kwargs, match):
    with pytest.raises(ValueError, match=match):
        analysis.contract_odds("goathead3", ODDS_HAND, **{**ODDS, **kwargs})


@pytest.mark.parametrize("fn", [analysis.simulate, analysis.simulate_summary])
@pytest.mark.parametrize("kwargs, match", [
    (dict(n=1.5), "the number of deals must be a whole number"),
    (dict(n=None), "the number of deals must be a whole number"),
    (dict(declarer=1.5), "declarer must be a seat 0..2"),
    (dict(declarer=None), "declarer must be a seat 0..2"),
    (dict(leader=1.5), "leader must be a seat 0..2"),
    (dict(chunk_size=1.5), "chunk_size must be a whole number"),
    (dict(seed="a"), "seed must be an int"),
    (dict(seed=1.5), "seed must be an int"),
    (dict(contracts=5), "contracts must be a contract name"),
    (dict(rules=[1]), "rule options must be a mapping"),
])
def test_simulate(fn, kwargs, match):
    kwargs = {**SIM, **kwargs}
    n = kwargs.pop("n", 4)
    with pytest.raises(ValueError, match=match):
        fn("goathead3", n, **kwargs)


def test_simulate_store_paths_and_summary_options(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(ValueError, match="is a file, not a directory"):
        analysis.simulate("goathead3", 4, store=str(a_file), **SIM)
    with pytest.raises(ValueError, match="cannot create the store directory"):
        analysis.simulate("goathead3", 4, store=str(a_file / "run"), **SIM)
    with pytest.raises(ValueError, match="bad seed -1"):
        analysis.simulate("goathead3", 4, seed=-1, store=str(tmp_path / "run"), **SIM)
    assert not (tmp_path / "run").exists()   # refused before the store was created
    with pytest.raises(ValueError, match="by names 'nope'"):
        analysis.simulate_summary("goathead3", 4, by=["nope"], **SIM)
    with pytest.raises(ValueError, match="confidence level"):
        analysis.simulate_summary("goathead3", 4, level="a", **SIM)


@pytest.mark.parametrize("a, match", [
    (5, "a variant is a contract name or a mapping"),
    (None, "a variant is a contract name or a mapping"),
    ({"declarer": 1.5}, "variant's declarer must be a whole number"),
    ({"declarer": "a"}, "variant's declarer must be a whole number"),
    ({"bid": "x"}, "variant's bid must be a whole number"),
    ({"rules": [1]}, "rule options must be a mapping"),
])
def test_compare_variants(a, match):
    with pytest.raises(ValueError, match=match):
        analysis.compare("goathead3", 4, a, "court", n_jobs=1, chunk_size=4)


@pytest.mark.parametrize("kwargs, match", [
    (dict(deals=np.zeros((1, 4))), "deals must be uint64"),
    (dict(deals=None), "deals must be uint64"),
    (dict(deals="x"), "deals must be uint64"),
    (dict(declarer="a"), "declarer must be a seat 0..2"),
    (dict(leader=1.5), "leader must be a seat 0..2"),
    (dict(exchanged="x"), "exchanged must be True/False or one bool per deal"),
    (dict(exchanged=[True, False, True]), "exchanged must be True/False or one bool per deal"),
    (dict(exchanged=[1, 0]), "exchanged must be True/False or one bool per deal"),
])
def test_evaluate(kwargs, match):
    from trickcore.deals import random_deals

    kwargs = dict(kwargs)
    deals = kwargs.pop("deals", random_deals("goathead3", 2, seed=1))
    with pytest.raises(ValueError, match=match):
        analysis.evaluate("goathead3", "hearts", deals, **kwargs)


@pytest.mark.parametrize("n, match", [(0, "n must be at least 1"), (1.5, "n must be a whole number")])
def test_deal_probability_sample_size(n, match):
    with pytest.raises(ValueError, match=match):
        analysis.deal_probability("goathead3", analysis.Holds(1, "JD"), method="sample", n=n)


def test_evaluate_takes_one_exchanged_flag_per_deal():
    from trickcore.deals import random_deals

    deals = random_deals("goathead3", 2, seed=1)
    per_deal = analysis.evaluate("goathead3", "hearts", deals, exchanged=np.array([True, False]))
    assert per_deal["exchanged"].tolist() == [True, False]


@pytest.mark.parametrize("progress", ["a", 1, 0.5])
def test_progress_is_a_flag(progress):
    with pytest.raises(ValueError, match="progress must be True, False or None"):
        analysis.simulate("goathead3", 4, contracts="hearts", n_jobs=1, progress=progress)


@pytest.mark.parametrize("n_deals", [2.5, "10"])
def test_report_deal_count_is_a_whole_number(n_deals, tmp_path):
    from analysis.report import write_report

    with pytest.raises(ValueError, match="n_deals must be a whole number"):
        write_report(["goathead3"], n_deals=n_deals, out=tmp_path / "r")


def test_report_checks_its_folder_workers_and_seed_before_running(tmp_path):
    from analysis.report import write_report

    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(ValueError, match="report folder .* is a file"):
        write_report(["goathead3"], n_deals=2, out=a_file)
    with pytest.raises(ValueError, match="n_jobs"):
        write_report(["goathead3"], n_deals=2, out=tmp_path / "r", n_jobs=0)
    with pytest.raises(ValueError, match="bad seed -1"):
        write_report(["goathead3"], n_deals=2, out=tmp_path / "r", seed=-1)
    assert not (tmp_path / "r").exists()


# ----------------------------------------------------------------------------------- CLI

def _cli_error(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("trickcore: error: ") and err.count("\n") == 1
    return err


def test_cli_bad_counts_and_paths(tmp_path, capsys):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    odds = ["odds", "goathead3", ODDS_HAND, "--contract", "hearts", "--method", "sample", "--jobs", "1"]
    # --max-deals 0 used to be ignored (the default 100,000 layouts were sampled)
    assert "max_deals must be at least 1" in _cli_error([*odds, "--max-deals", "0"], capsys)
    assert "target_se must be a positive" in _cli_error([*odds, "--max-deals", "8", "--target-se", "-1"], capsys)
    assert "target_se must be a positive" in _cli_error([*odds, "--max-deals", "8", "--target-se", "nan"], capsys)
    sim = ["simulate", "goathead3", "-n", "2", "--jobs", "1"]
    assert "is a file, not a directory" in _cli_error([*sim, "--out", str(a_file)], capsys)
    assert "cannot create the store directory" in _cli_error([*sim, "--out", str(a_file / "x")], capsys)
    assert "bad seed -1" in _cli_error([*sim, "--out", str(tmp_path / "s"), "--seed", "-1"], capsys)
    report = ["report", "goathead3", "--deals", "2"]
    assert "is a file, not a directory" in _cli_error([*report, "--out", str(a_file)], capsys)
    assert "n_jobs" in _cli_error([*report, "--out", str(tmp_path / "r"), "--jobs", "0"], capsys)


def test_cli_turns_an_os_error_into_one_line(monkeypatch, tmp_path, capsys):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(tmp_path / "out"))

    monkeypatch.setattr(analysis, "simulate_summary", refuse)   # what `trickcore simulate` runs
    err = _cli_error(["simulate", "goathead3", "-n", "2", "--out", str(tmp_path / "out")], capsys)
    assert "Permission denied" in err


def test_valid_input_still_works():
    # the checks above leave valid input alone: numpy ints, integral floats for counts
    assert HEARTS.legal_moves("J♣ A♥ 10♠", led="QH", trick_index=np.int64(0)) == CardSet("A♥ J♣")
    assert int(HEARTS.sides(DEAL, np.int8(2))[0]) == 4
    assert solve("goathead3", "hearts", HANDS, leader=np.int64(0)).value == 33
    assert len(analysis.simulate("goathead3", 4.0, **SIM)) == 4
    r = start_round("goathead3", dealer=np.int64(1), scores=[1, 2.5, 0], multiplier=2, seed=3)
    assert r.dealer == 1 and r.multiplier == 2
    PIMCPolicy(samples=np.int64(2), seed=np.uint32(1), bid_sigma=np.float64(0.5), solve_bids=np.bool_(False))
