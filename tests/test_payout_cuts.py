"""Solving only as far as the payout needs: value bands (``solve_many(cuts=...)``), the
scorer's cuts (``trickcore.scoring.payout_cuts``) and ``simulate(policy="dd_payout")``.

Each layer is checked against the one it replaces: bands against exact values, cuts
against the scorer evaluated at every value, and the ``dd_payout`` tables against
``dd``'s payouts on the same deals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis import simulate, simulate_summary
from trickcore import get_game
from trickcore.scoring import payout_cuts, score
from trickcore.solver import solve_many


def random_deals(layout, n_deals, seed, cards_each=None):
    """``n_deals`` random deals (universal bit-boards), ``cards_each`` cards per hand."""
    rng = np.random.default_rng(seed)
    deck = np.array(list(layout.deck), dtype=np.uint64)
    k = cards_each or layout.hand_size
    out = np.zeros((n_deals, layout.n_seats), dtype=np.uint64)
    for d in range(n_deals):
        perm = rng.permutation(deck)
        for s in range(layout.n_seats):
            out[d, s] = np.bitwise_or.reduce(np.uint64(1) << perm[s * k:(s + 1) * k])
    return out


def points_in_play(layout, deals):
    table = layout.point_table().astype(np.int64)
    live = np.bitwise_or.reduce(deals, axis=1)
    return np.array([sum(table[c] for c in range(64) if (int(m) >> c) & 1) for m in live])


# -- the kernel's bands --------------------------------------------------------------------

BAND_CASES = [
    ("goathead3", "hearts", 6, 300),
    ("goathead3", "court", 6, 300),
    ("goathead4", "clubs", 4, 300),
    ("sheepshead", "jd", 4, 150),
    ("hearts", "hearts", 3, 150),     # a 'min' goal with negative-free points, paranoid side
]


@pytest.mark.parametrize("game,contract,tricks,n", BAND_CASES)
def test_bands_hold_the_exact_value_and_no_cut(game, contract, tricks, n):
    layout = get_game(game).layout(contract)
    deals = random_deals(layout, n, seed=17, cards_each=tricks)
    exact = solve_many(layout, None, deals)
    value = exact.value.astype(np.int64)
    total = points_in_play(layout, deals)
    rng = np.random.default_rng(3)
    # random cuts, some outside the possible values, some repeated, in any order
    cuts = rng.integers(-5, total.max() + 6, size=(n, 5))
    cuts[:, 0] = cuts[:, 1]
    band = solve_many(layout, None, deals, cuts=cuts)
    lo, hi = band.value.astype(np.int64), band.value_hi.astype(np.int64)
    assert ((lo <= value) & (value <= hi)).all()
    for j in range(cuts.shape[1]):
        assert not ((lo < cuts[:, j]) & (cuts[:, j] <= hi)).any(), "a cut inside a band is unsettled"
    # a band of one value is the exact value, and so are its side tricks
    single = lo == hi
    assert single.any()
    assert (band.side_tricks[single] == exact.side_tricks[single]).all() or game == "sheepshead"
    assert (band.nodes.sum() < exact.nodes.sum())


def test_band_line_takes_every_trick_only_in_the_top_band():
    """Goathead cards all carry points: the line kept inside the band takes every trick
    exactly when the band is the points in play, as the exact optimal line does."""
    layout = get_game("goathead3").layout("spades")
    deals = random_deals(layout, 400, seed=5)
    total = points_in_play(layout, deals)
    exact = solve_many(layout, None, deals)
    band = solve_many(layout, None, deals, cuts=np.stack([np.ones(400, int), 61 + 0 * total, total], axis=1))
    every = band.side_tricks == layout.hand_size
    assert (every == (exact.value == total)).all()
    assert ((band.side_tricks == 0) == (exact.value == 0)).all()
    assert every.any() and (band.side_tricks == 0).any()


@pytest.mark.parametrize("game,contract,cuts", [("goathead3", "hearts", [1, 31, 61, 90]),
                                               ("sheepshead", "jd", None)])
def test_solving_without_the_line_keeps_the_values(game, contract, cuts):
    layout = get_game(game).layout(contract)
    deals = random_deals(layout, 60, seed=4, cards_each=min(layout.hand_size, 4))
    full = solve_many(layout, None, deals, cuts=cuts)
    bare = solve_many(layout, None, deals, cuts=cuts, line=False)
    assert (bare.value == full.value).all() and (bare.value_hi == full.value_hi).all()
    assert bare.nodes.sum() < full.nodes.sum()
    for out in (bare.side_tricks, bare.last_trick_winner, bare.side_melds, bare.opp_melds):
        assert (out == -1).all()
    assert (full.side_tricks >= 0).all()
    # the trick kernel skips its line too
    spades = get_game("spades").layout("spades")
    d = random_deals(spades, 5, seed=1, cards_each=3)
    r, full = solve_many(spades, None, d, line=False), solve_many(spades, None, d)
    assert (r.value == full.value).all() and r.nodes.sum() < full.nodes.sum()
    for out in (r.side_tricks, r.last_trick_winner, r.side_melds, r.opp_melds):
        assert (out == -1).all()
    with pytest.raises(ValueError, match="line must be True or False"):
        solve_many(layout, None, deals, line="no")


def test_cuts_errors():
    hearts = get_game("goathead3").layout("hearts")
    deals = random_deals(hearts, 3, seed=1)
    with pytest.raises(ValueError, match="point objectives"):
        solve_many("spades", "spades", random_deals(get_game("spades").layout("spades"), 2, 1, 3), cuts=[3])
    with pytest.raises(ValueError, match="trick melds"):
        solve_many("clover", "hearts", random_deals(get_game("clover").layout("hearts"), 2, 1, 3), cuts=[30])
    with pytest.raises(ValueError, match="1..16 values per deal"):
        solve_many(hearts, None, deals, cuts=np.zeros((2, 3), dtype=int))
    with pytest.raises(ValueError, match="1..16 values per deal"):
        solve_many(hearts, None, deals, cuts=list(range(17)))
    with pytest.raises(ValueError, match="must be integers"):
        solve_many(hearts, None, deals, cuts=[30.5])
    with pytest.raises(ValueError, match="-4000..4000"):
        solve_many(hearts, None, deals, cuts=[40000])


# -- the scorer's cuts -------------------------------------------------------------------

@pytest.mark.parametrize("game", ["goathead3", "goathead4"])
@pytest.mark.parametrize("rules", [{}, {"kitty_points": "if_exchanged"}, {"no_exchange_bonus": "won_only"}])
def test_goathead_payouts_change_only_at_the_cuts(game, rules):
    """Score every value 0..points in play for random rounds; the payouts must be constant
    between consecutive cuts (a missing or misplaced cut fails this)."""
    n_seats = get_game(game).n_seats
    hand_size = get_game(game).hand_size
    rng = np.random.default_rng(11)
    rows = []
    for i in range(60):
        kitty = int(rng.choice([0, 4, 6, 13, 21, 25]))
        contract = ["hearts", "clubs", "court"][i % 3]
        alone = n_seats == 3 or contract == "court"
        rows.append({"contract": contract, "declarer": 0, "side_mask": 1 if alone else int(rng.choice([1, 5])),
                     "kitty_points": kitty, "exchanged": bool(rng.integers(2)),
                     "multiplier": int(rng.integers(1, 3))})
    base = pd.DataFrame(rows)
    cuts = payout_cuts(game, base, rules)
    for i, row in base.iterrows():
        in_play = 120 - row.kitty_points
        values = np.arange(in_play + 1)
        f = pd.DataFrame([row] * len(values)).reset_index(drop=True)
        f["side_points"] = values
        # every Goathead card is worth points: all the points is every trick, none is none
        f["side_tricks"] = np.where(values == in_play, hand_size, np.where(values == 0, 0, 1))
        s = score(game, f, rules)
        band = np.searchsorted(np.sort(cuts[i]), values, side="right")
        key = s[[f"payout_{k}" for k in range(n_seats)] + ["stake"]].astype(float)
        key["made"] = s["made"].astype(bool)
        for b in np.unique(band):
            part = key[band == b]
            assert (part.nunique() == 1).all(), (game, rules, row.to_dict(), b)


def test_sheepshead_payouts_change_only_at_the_cuts():
    """As for Goathead: every picking-team count 0..points in play, for random rounds of
    every contract with a picker, alone or with a partner, with any multiplier."""
    from trickcore.scoring.sheepshead import CONTRACTS

    rng = np.random.default_rng(12)
    rows = []
    for i in range(60):
        contract = [c for c in CONTRACTS if c != "leaster"][i % 11]
        partner = -1 if contract == "alone" or rng.integers(4) == 0 else int(rng.integers(1, 5))
        rows.append({"contract": contract, "declarer": 0, "partner": partner,
                     "kitty_points": int(rng.choice([0, 3, 11, 21])), "multiplier": int(rng.integers(1, 5))})
    base = pd.DataFrame(rows)
    cuts = payout_cuts("sheepshead", base)
    for i, row in base.iterrows():
        values = np.arange(120 - row.kitty_points + 1)
        f = pd.DataFrame([row] * len(values)).reset_index(drop=True)
        f["side_points"] = values
        s = score("sheepshead", f)
        band = np.searchsorted(np.sort(cuts[i]), values, side="right")
        key = s[[f"payout_{k}" for k in range(5)]].astype(float)
        key["made"] = s["made"].astype(bool)
        for b in np.unique(band):
            assert (key[band == b].nunique() == 1).all(), (row.to_dict(), b)
        # and every cut in play changes something (none is superfluous)
        assert len(key.drop_duplicates()) == len(np.unique(band))


def test_payout_cuts_errors():
    f = pd.DataFrame({"contract": ["nil"], "kitty_points": [0], "exchanged": [False]})
    with pytest.raises(ValueError, match="suit and court"):
        payout_cuts("goathead3", f)
    with pytest.raises(ValueError, match="defined for goathead3, goathead4, sheepshead, not hearts"):
        payout_cuts("hearts", f)
    with pytest.raises(ValueError, match="rounds with a picker"):
        payout_cuts("sheepshead", f.assign(contract="leaster"))
    with pytest.raises(ValueError, match="missing column"):
        payout_cuts("goathead3", f.assign(contract="hearts").drop(columns="exchanged"))


# -- the engine's dd_payout policy -------------------------------------------------------

@pytest.mark.parametrize("game,rules,n", [("goathead3", {}, 600), ("goathead3", {"kitty_points": "if_exchanged"}, 600),
                                          ("goathead4", {}, 600), ("sheepshead", {}, 150),
                                          ("sheepshead", {"partner": "called_ace"}, 100)])
def test_dd_payout_pays_what_dd_pays(game, rules, n):
    kw = dict(seed=9, rules=rules, n_jobs=1, chunk_size=256, progress=False)
    dd = simulate(game, n, **kw)
    fast = simulate(game, n, policy="dd_payout", **kw)
    assert len(dd) == len(fast)
    same = [c for c in dd.columns if c.startswith("payout_") or c in ("made", "stake", "unit", "contract", "deal")]
    assert len(same) > 6
    for col in same:
        assert (dd[col].astype(str) == fast[col].astype(str)).all(), col
    points = fast.contract != "nil"
    exact = dd.side_points.to_numpy(dtype=float)[points]
    assert ((fast.side_points_lo[points] <= exact) & (exact <= fast.side_points_hi[points])).all()
    count = "picking_points" if game == "sheepshead" else "declarer_points"
    assert fast.side_points[points].isna().all() and fast[count][points].isna().all()
    assert fast.nodes.sum() < 0.8 * dd.nodes.sum()
    assert fast.last_trick_winner[points].isna().all()
    # no line is followed: the trick count is known exactly where the band decides it,
    # i.e. (every Goathead card carries points) where the exact count is every trick or none
    hand_size = get_game(game).hand_size
    tricks = dd.side_tricks.to_numpy()[points]
    known = fast.side_tricks[points].notna().to_numpy()
    if game == "sheepshead":        # its 7s, 8s and 9s carry no points
        assert not known.any()
        return
    assert (known == ((tricks == 0) | (tricks == hand_size))).all()
    assert known.any() and not known.all()
    assert (fast.side_tricks[points][known].to_numpy() == tricks[known]).all()
    assert (fast.nodes[points].sum() < dd.nodes[points].sum())
    # Nil is solved exactly but without a line: its value is the declarer's trick count
    nil = ~points.to_numpy()
    assert nil.any()
    assert (fast.side_tricks[nil].to_numpy() == dd.side_tricks.to_numpy()[nil]).all()
    assert fast.last_trick_winner[nil].isna().all() and dd.last_trick_winner[nil].notna().all()
    assert fast.nodes[nil].sum() < dd.nodes[nil].sum()
    # the summary keeps payouts and make rates, and has no mean of a value it never knew
    s = simulate_summary(game, 200, policy="dd_payout", contracts=["hearts"], **kw)
    r = simulate_summary(game, 200, contracts=["hearts"], **kw)
    assert np.allclose(s[["p_make", "declarer_payout"]], r[["p_make", "declarer_payout"]])
    assert s.side_points.isna().all() and not r.side_points.isna().any()


def test_dd_payout_errors():
    with pytest.raises(ValueError, match="dd_payout.*use 'dd' for clover"):
        simulate("clover", 4, policy="dd_payout", n_jobs=1)
    with pytest.raises(ValueError, match="unknown policy"):
        simulate("goathead3", 4, policy="dd_fast", n_jobs=1)


def test_compare_dd_payout_against_dd():
    """compare() pairs the two ways of solving on the same deals: no difference at all in
    make rate or payout, and no count metric (the payout variant never knew the count)."""
    from analysis import compare

    r = compare("goathead3", 300, a={"contract": "clubs", "policy": "dd"},
                b={"contract": "clubs", "policy": "dd_payout"}, seed=2, n_jobs=1, progress=False)
    assert set(r.metric) == {"made", "declarer_payout"}
    assert (r["diff"] == 0).all() and (r["diff_lo"] == 0).all() and (r["diff_hi"] == 0).all()
    with pytest.raises(ValueError, match="dd_payout"):
        compare("clover", 4, a={"contract": "hearts"}, b={"contract": "hearts", "policy": "dd_payout"}, n_jobs=1)
