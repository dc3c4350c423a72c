"""The report's double-dummy figures of Hearts and Oh Hell (analysis.report.seatdd): checked
against analysis.paranoid on the same positions and against an independent brute force."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.report.seatdd import hearts_endgame, ohhell_short
from trickcore.cards import CardSet
from trickcore.deals import random_deals
from trickcore.games import get_game


def _greedy_positions(deals: np.ndarray, first: int):
    """(remaining hands, cards played, leader) after ``first`` greedy tricks, per deal."""
    from trickcore.playouts import playout

    r = playout("hearts", "hearts", deals[:, :4], policy="greedy", seed=0)
    out = []
    for i in range(len(deals)):
        played = 0
        for c in np.asarray(r.cards)[i, :first].ravel():
            played |= 1 << int(c)
        out.append(([int(h) & ~played for h in deals[i, :4]], played, int(np.asarray(r.leaders)[i, first])))
    return out


def test_hearts_endgame_agrees_with_paranoid_on_unbroken_positions():
    """Where no heart was played in the opening, the position is exactly what
    analysis.paranoid.seat_solve solves (it counts no suit as broken): same values."""
    from analysis.paranoid import seat_solve

    k = 7
    deals = np.asarray(random_deals("hearts", 16, 4), dtype=np.uint64)
    f = hearts_endgame(deals, tricks=k)
    pos = _greedy_positions(deals, 13 - k)
    unbroken = np.flatnonzero(~f["hearts_broken"].to_numpy())
    assert len(unbroken) >= 2
    for i in unbroken:
        rest, _, leader = pos[i]
        v = seat_solve("hearts", "hearts", np.array([rest + [0]], dtype=np.uint64), seat=0, goal="min",
                       leader=leader).value[0]
        assert f["endgame_dd"].iloc[i] == v


def _brute_min(lay, hands: list[int], leader: int, played: int, trick: list[tuple[int, int]]) -> int:
    """Seat 0's fewest points in the rest of the round against three maximisers (minimax over
    every legal card; no pruning, no transposition table)."""
    table = lay.point_table()
    if not any(hands) and not trick:
        return 0
    seat = (leader + len(trick)) % 4
    led = trick[0][1] if trick else None
    idx = 13 - hands[leader].bit_count() - (1 if trick else 0)
    legal = lay.legal_moves(CardSet(hands[seat]), led, trick_index=idx, played=CardSet(played | sum(1 << c for _, c in trick)))
    best = None
    for c in legal:
        c = int(c)
        h = list(hands)
        h[seat] &= ~(1 << c)
        t = trick + [(seat, c)]
        if len(t) == 4:
            w = t[lay.trick_winner([x for _, x in t])][0]
            pts = sum(int(table[x]) for _, x in t) if w == 0 else 0
            v = pts + _brute_min(lay, h, w, played | sum(1 << x for _, x in t), [])
        else:
            v = _brute_min(lay, h, leader, played, t)
        if best is None or (v < best if seat == 0 else v > best):
            best = v
    return best


def test_hearts_endgame_matches_brute_force():
    k = 3
    lay = get_game("hearts").layout("hearts")
    deals = np.asarray(random_deals("hearts", 12, 11), dtype=np.uint64)
    f = hearts_endgame(deals, tricks=k)
    assert (f["endgame_dd"] > 0).sum() >= 3  # the positions are not all trivially clean
    for i, (rest, played, leader) in enumerate(_greedy_positions(deals, 13 - k)):
        assert f["endgame_dd"].iloc[i] == _brute_min(lay, rest, leader, played, [])


def test_hearts_endgame_greedy_matches_the_page_play_outs():
    from analysis.report.evaluation import evaluate_contract

    deals = np.asarray(random_deals("hearts", 8, 2), dtype=np.uint64)
    f = hearts_endgame(deals, tricks=2)
    play = evaluate_contract("hearts", "hearts", deals, policy="greedy")
    np.testing.assert_array_equal(f["greedy_points"], play["points_0"])
    assert ((f["opening_points"] <= f["greedy_points"]) & (f["dd_points"] >= f["opening_points"])).all()
    with pytest.raises(ValueError, match="tricks"):
        hearts_endgame(deals, tricks=0)


def test_ohhell_short_rows_are_the_paranoid_rows_of_the_policy_bid():
    from analysis.paranoid import seat_frame
    from analysis.report.evaluation import heuristic_bids

    rules = {"hand_size": 4}
    deals = np.asarray(random_deals("ohhell", 10, 3, hand_size=4), dtype=np.uint64)
    f = ohhell_short("hearts", deals, rules=rules)
    np.testing.assert_array_equal(f["bid"], heuristic_bids("ohhell", "hearts", deals[:, :4], rules)[:, 0])
    sf = seat_frame("ohhell", "hearts", deals, seat=0, rules=rules).set_index(["deal", "bid"])
    for row in f.itertuples():
        ref = sf.loc[(row.deal, row.bid)]
        assert (row.min_tricks, row.max_tricks, row.dd_made) == (ref.min_tricks, ref.max_tricks, bool(ref.made))
        assert row.dd_payout == ref.payout_0
    exact = f["greedy_tricks"] == f["bid"]
    assert (f["greedy_made"] == exact).all()
    np.testing.assert_array_equal(f["greedy_payout"], 10 * exact + f["greedy_tricks"])


@pytest.mark.parametrize("game", ["hearts", "ohhell"])
def test_seat_dd_part_of_the_real_play_section(game):
    from analysis.report.data import GameData, plan_for
    from analysis.report.realplay import _seat_dd_part
    from analysis.report.render import Section

    d = GameData(game, plan_for(game, 12), seed=3, n_jobs=1)
    assert d.plan.seat_dd_deals == 12
    sec = Section("Double dummy against real play")
    _seat_dd_part(d, sec)
    (_, table), = sec.tables
    assert len(sec.figures) == 1
    assert ("shortened positions" if game == "hearts" else "8 cards each") in sec.paragraphs[0]
    if game == "hearts":  # the greedy row is the page's own play-outs of the same deals
        assert table["n"].tolist() == [12, 12, 12]
        mean = float(table.iloc[0, 2].split()[0])
        assert mean == pytest.approx(d.play["points_0"].iloc[:12].mean(), abs=5e-4)
    else:
        assert sorted(table["contract"]) == sorted(d.plan.play_contracts)
        assert (table["n"] == 12).all()


def test_real_play_rounds_differ_only_in_seat_zero_card_play():
    # PIMC with solve_bids=False leaves the bidding and the kitty to the heuristic: both
    # runs of a deal reach the same contract with the same declarer
    from analysis.report.realplay import pimc_rounds

    f = pimc_rounds("goathead3", 6, seed=3, samples=2, n_jobs=1)
    assert (f["heuristic_contract"] == f["pimc_contract"]).all()
    assert (f["heuristic_declarer"] == f["pimc_declarer"]).all()
