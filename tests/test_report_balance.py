"""The payout balancer's suggestions: the linear model of each game's knob is checked against
the real scorer (re-scoring with the knob moved), and the suggested settings equalise the
contracts' expected values under that model."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.report.balancer import (
    GAMUT_KNOBS,
    Knob,
    game_knobs,
    gamut_slope,
    solve_knobs,
)
from analysis.report.data import GameData, plan_for
from analysis.report.evaluation import rescore

_SIZES = {"goathead3": 120, "gamut": 160, "sheepshead": 80, "clover": 200}
_DATA: dict[str, GameData] = {}


def _data(game: str, n: int) -> GameData:
    """One GameData per game for the module: the section test reuses the cached knobs."""
    if game not in _DATA:
        _DATA[game] = GameData(game, plan_for(game, n), seed=7, n_jobs=1)
    return _DATA[game]


def _equalised(knobs: list[Knob], sol: dict) -> None:
    """Under the model EV_c(b) = EV_c + (b - b0) * S_c every finite suggestion hits T."""
    for k in knobs:
        b = sol[k.contract]
        if np.isfinite(b):
            moved = k.payout + (b - k.current) * k.slope
            assert moved.mean() == pytest.approx(sol["__target__"], abs=1e-9)
            assert b >= k.floor - 1e-9


def test_solve_knobs_equalises_and_respects_floors():
    rng = np.random.default_rng(1)
    knobs = [Knob(f"c{i}", "base", float(rng.integers(1, 4)), rng.normal(i - 2, 3, 50), rng.uniform(-1, 2, 50),
                  np.ones(50), floor=-np.inf if i % 2 else 0.0) for i in range(5)]
    sol = solve_knobs(knobs)
    w = np.array([len(k.payout) for k in knobs])
    assert sol["__target__"] == pytest.approx(np.dot(w, [k.payout.mean() for k in knobs]) / w.sum())
    _equalised(knobs, sol)
    assert sum(np.isfinite(sol[k.contract]) for k in knobs) >= 3
    # a knob the payouts do not depend on cannot be tuned
    flat = Knob("flat", "base", 1.0, np.array([0.0, 5.0]), np.zeros(2), np.ones(2))
    assert np.isnan(solve_knobs([flat, knobs[0]])["flat"])


def test_goathead_base_stake_is_what_the_scorer_pays(monkeypatch):
    """Raising a contract's base by one moves each declarer payout by p / stake, exactly as
    the balancer's slope says: re-scored with the scorer's own BASE table changed."""
    from trickcore.scoring import goathead

    d = _data("goathead3", _SIZES["goathead3"])
    knobs, bids, n = game_knobs(d)
    assert n == 120 and len(knobs) >= 2
    sol = solve_knobs(knobs)
    _equalised(knobs, sol)
    for k in knobs:
        f = k.frame
        assert len(f) == len(k.payout) == int((bids == k.contract).sum())
        monkeypatch.setitem(goathead.BASE, k.contract, goathead.BASE[k.contract] + 1)
        moved = rescore("goathead3", f, d.rules)
        monkeypatch.setitem(goathead.BASE, k.contract, goathead.BASE[k.contract] - 1)
        p1 = moved["payout_0"].to_numpy(dtype=float)
        np.testing.assert_allclose(p1, k.payout + k.slope)


def test_gamut_knobs_match_the_scorer(monkeypatch):
    from trickcore.scoring import gamut

    d = _data("gamut", _SIZES["gamut"])
    knobs, _, _ = game_knobs(d)
    assert {k.contract for k in knobs} <= set(GAMUT_KNOBS)
    _equalised(knobs, solve_knobs(knobs))
    for k in knobs:
        f = k.frame
        assert (f["payout_0"].to_numpy(dtype=float) == k.payout).all()
        if k.contract == "hearts":  # Q♠ penalty 8 -> 9 through the scorer's own constant
            monkeypatch.setattr(gamut, "QUEEN", 9)
            moved = rescore("gamut", f, d.rules)["payout_0"].to_numpy(dtype=float)
            monkeypatch.setattr(gamut, "QUEEN", 8)
            np.testing.assert_allclose(moved, k.payout + k.slope)
        elif k.contract == "clubs":  # 2 per trick, -z with none
            t = f["tricks_0"].to_numpy()
            np.testing.assert_array_equal(k.payout, np.where(t == 0, -6, 2 * t))
            np.testing.assert_array_equal(k.slope, -(t == 0).astype(float))
        else:  # spades: exact e + bid, over e - overtricks, under -2 bid (team 0)
            tb, tt = f["team_bid_0"].to_numpy(dtype=int), f["team_tricks_0"].to_numpy(dtype=int)
            e = 5
            np.testing.assert_array_equal(k.payout, np.where(tt == tb, e + tb, np.where(tt > tb, e - (tt - tb), -2 * tb)))
            np.testing.assert_array_equal(k.slope, (tt >= tb).astype(float))


def test_gamut_slope_needs_a_known_game():
    with pytest.raises(ValueError, match="no knob"):
        gamut_slope("diamonds", pd.DataFrame())


def test_sheepshead_and_clover_knobs():
    d = _data("sheepshead", _SIZES["sheepshead"])
    knobs, bids, _ = game_knobs(d)
    assert len(knobs) >= 2 and set(bids) <= {"pick", "pass"} and {k.contract for k in knobs} <= {"jd", "alone", "leaster"}
    _equalised(knobs, solve_knobs(knobs))
    for k in knobs:
        f = k.frame
        if k.contract == "leaster":  # +4 to the winner, -1 to the others, 0 on a tie: 4 * {1, -1/4, 0}
            assert set(np.unique(k.payout)) <= {4.0, -1.0, 0.0}
        else:  # the table's picker column: 2 (partner) or 4 (alone) times the opponents' unit
            np.testing.assert_array_equal(k.payout, -k.current * f["unit"].to_numpy(dtype=float))
    c = _data("clover", _SIZES["clover"])
    knobs, bids, _ = game_knobs(c)
    assert len(knobs) >= 2
    _equalised(knobs, solve_knobs(knobs))
    for k in knobs:
        f = k.frame
        np.testing.assert_array_equal(k.payout, f["side_score"].to_numpy(dtype=float) - f["opp_score"].to_numpy(dtype=float))
        np.testing.assert_array_equal(k.slope, f["made"].astype(float).to_numpy())


@pytest.mark.parametrize("game", ["goathead3", "gamut", "sheepshead", "clover", "hearts", "spades", "ohhell"])
def test_balancer_section_renders_for_every_game(game):
    """Every game's page gets the section: a table and a figure where contracts are
    balanced, a sentence saying why where there is a single contract."""
    from analysis.report.balancer import KNOBS
    from analysis.report.render import Document

    if game in KNOBS:
        from analysis.report.balancer import balancer_section

        sec = balancer_section(_data(game, _SIZES[game]))
        (_, table), = sec.tables
        assert len(table) >= 2 and len(sec.figures) == 1
        assert {"contract", "knob", "current", "suggested"} <= set(table.columns)
    else:
        from analysis.report.balancer import balancer_section

        sec = balancer_section(GameData(game, plan_for(game, 4), seed=7, n_jobs=1))
        text = sec.paragraphs[0]
        assert not sec.tables and ("single contract" in text or "not a choice" in text)
    assert "Payout balancer" in Document("t", [sec]).to_html()
