"""simulate / simulate_summary / compare: reproducibility, backends, known answers, errors."""

import numpy as np
import pandas as pd
import pytest

from analysis import Holds, compare, evaluate, hands_text, simulate, simulate_summary
from trickcore.cards import CardSet
from trickcore.scoring import hand_melds

SMALL = dict(seed=5, contracts=["hearts", "clubs", "nil"], chunk_size=16, progress=False)


@pytest.fixture(scope="module")
def serial():
    return simulate("goathead3", 64, n_jobs=1, **SMALL)


def test_table_shape_and_invariants(serial):
    df = serial
    assert len(df) == 64 * 3
    assert list(df.contract.cat.categories) == ["hearts", "clubs", "nil"]
    for col in ["deal", "declarer", "leader", "hand_0", "hand_1", "hand_2", "kitty", "side_mask", "side_points",
                "side_tricks", "last_trick_winner", "nodes", "kitty_points", "exchanged", "payout_0", "payout_1",
                "payout_2", "made", "stake", "declarer_points"]:
        assert col in df.columns, col
    # Each deal is a partition of the 20-card deck, the same deal for every contract.
    allcards = df.hand_0 | df.hand_1 | df.hand_2 | df.kitty
    assert (allcards == CardSet.parse("A♣ 10♣ K♣ Q♣ J♣ A♦ 10♦ K♦ Q♦ J♦ A♥ 10♥ K♥ Q♥ J♥ A♠ 10♠ K♠ Q♠ J♠").mask).all()
    per_deal = df.groupby("deal")[["hand_0", "kitty"]].nunique()
    assert (per_deal == 1).all().all()
    # The deals are those of trickcore.deals for the same chunk streams.
    from analysis.engine import chunk_seed
    from trickcore.deals import deal_chunk

    first = deal_chunk("goathead3", chunk_seed(5, 0).spawn(2)[0], 16)
    assert (df[df.contract == "hearts"].hand_0.to_numpy()[:16] == first[:, 0]).all()
    # Zero-sum payouts; the declarer (seat 0, left of the dealer) receives 2 stakes or pays them.
    assert (df[["payout_0", "payout_1", "payout_2"]].sum(axis=1) == 0).all()
    assert (df.payout_0.abs() == 2 * df.stake).all()
    pts = df[df.contract != "nil"]
    assert (pts.made == (pts.side_points + pts.kitty_points >= 61)).all()
    nil = df[df.contract == "nil"]
    assert (nil.made == (nil.side_tricks == 0)).all()
    assert (df.exchanged == False).all() and (df.declarer == 0).all()  # noqa: E712
    assert hands_text(df.head(1)).iloc[0].str.len().gt(0).all()


def test_njobs_1_equals_2(serial):
    par = simulate("goathead3", 64, n_jobs=2, **SMALL)
    pd.testing.assert_frame_equal(serial, par)


def test_dask_local_cluster_same_numbers(serial):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        via_client = simulate("goathead3", 64, backend=client, **SMALL)
        via_address = simulate("goathead3", 64, backend=cluster.scheduler_address, **SMALL)
    pd.testing.assert_frame_equal(serial, via_client)
    pd.testing.assert_frame_equal(serial, via_address)


def test_summary_matches_full_table(serial):
    s = simulate_summary("goathead3", 64, n_jobs=1, **SMALL).set_index("contract")
    g = serial.groupby("contract", observed=True)
    assert (s["n"] == 64).all()
    assert np.allclose(s["p_make"], g["made"].mean().astype(float))
    assert np.allclose(s["declarer_payout"], g["payout_0"].mean())
    assert np.allclose(s["payout_1"], g["payout_1"].mean())
    assert ((s.p_make_lo <= s.p_make) & (s.p_make <= s.p_make_hi)).all()
    assert ((s.declarer_payout_lo <= s.declarer_payout) & (s.declarer_payout <= s.declarer_payout_hi)).all()


def test_compare_known_answers(serial):
    # Scoring-only change: with 'won_only' a losing declarer does not pay the no-exchange
    # point, so the declarer's payout rises by exactly 2 on every lost deal (two defenders).
    c = compare("goathead3", 64, {"contract": "hearts", "rules": {"no_exchange_bonus": "won_only"}}, "hearts",
                seed=5, chunk_size=16, n_jobs=1, progress=False).set_index("metric")
    p_make = serial[serial.contract == "hearts"].made.astype(float).mean()
    assert c.loc["declarer_payout", "diff"] == pytest.approx(2 * (1 - p_make))
    assert c.loc["made", "diff"] == 0
    # Two contracts on the same deals: the paired difference is the difference of the means.
    c2 = compare("goathead3", 64, "clubs", "hearts", seed=5, chunk_size=16, n_jobs=1, progress=False).set_index("metric")
    by = serial.groupby("contract", observed=True)["payout_0"].mean()
    assert c2.loc["declarer_payout", "diff"] == pytest.approx(by["clubs"] - by["hearts"])
    assert c2.loc["declarer_payout", "diff_lo"] <= c2.loc["declarer_payout", "diff"] <= c2.loc["declarer_payout", "diff_hi"]


def test_compare_policies_on_same_deals():
    # Greedy play against double dummy, on identical deals: each side's mean is what
    # simulate() gives for that policy with the same seed and chunking.
    kw = dict(seed=2, chunk_size=16, n_jobs=1, progress=False)
    c = compare("goathead3", 48, {"policy": "greedy"}, {"policy": "dd"}, **kw).set_index("metric")
    assert c.loc["made", "n"] == 48
    greedy = simulate("goathead3", 48, contracts="diamonds", policy="greedy", **kw)
    dd = simulate("goathead3", 48, contracts="diamonds", **kw)
    assert c.loc["declarer_points", "a"] == pytest.approx(greedy.declarer_points.astype(float).mean())
    assert c.loc["declarer_points", "b"] == pytest.approx(dd.declarer_points.astype(float).mean())
    assert (greedy.hand_1.to_numpy() == dd.hand_1.to_numpy()).all()


def test_conditional_simulation():
    df = simulate("goathead3", 30, seed=1, contracts="clubs", fixed={0: "JC JS"}, where=Holds(1, "JD"),
                  chunk_size=10, n_jobs=1, progress=False)
    assert (df.hand_0 & np.uint64(CardSet.parse("JC JS").mask) == CardSet.parse("JC JS").mask).all()
    assert (df.hand_1 & np.uint64(CardSet.parse("JD").mask) != 0).all()


def test_other_declarer_and_goathead4():
    df = simulate("goathead3", 10, seed=1, contracts="court", declarer=2, n_jobs=1, progress=False)
    assert (df.declarer == 2).all() and (df.side_mask == 4).all()
    assert (df.payout_2.abs() == 2 * df.stake).all()
    d4 = simulate("goathead4", 20, seed=1, contracts="clubs", n_jobs=1, progress=False)
    assert (d4[["payout_0", "payout_1", "payout_2", "payout_3"]].sum(axis=1) == 0).all()
    assert ((d4.side_mask & 1) == 1).all()


def test_evaluate_matches_rule_text_example():
    deal = np.array([[CardSet.parse(h).mask for h in (
        "JC JS AH 10H AC KD", "JH JD KH QH 10C QS", "AD 10D QD AS 10S KS", "KC QC")]], dtype=np.uint64)
    row = evaluate("goathead3", "hearts", deal).iloc[0]
    assert row.made and row.payout_0 == 2 * row.stake


@pytest.mark.parametrize("kwargs, match", [
    (dict(contracts="bridge"), "unknown contract"),
    (dict(rules={"colour": "red"}), "unknown rule option"),
    (dict(rules={"kitty_points": "nobody"}), "kitty_points"),
    (dict(declarer=3), "declarer must be a seat"),
    (dict(policy="psychic"), "unknown policy"),
    (dict(backend="carrier-pigeon", n_jobs=2), "unknown backend"),
    (dict(fixed={0: "9C"}), "not in the deck"),
    (dict(contracts="leasters"), "no declaring side"),
])
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        simulate("goathead3", 4, seed=1, chunk_size=4, progress=False, **{"n_jobs": 1, **kwargs})


def test_unsatisfiable_predicate():
    with pytest.raises(ValueError, match="no deal out of"):
        simulate("goathead3", 4, seed=1, contracts="clubs", where=Holds(1, "JC") & Holds(2, "JC"), n_jobs=1,
                 chunk_size=4, progress=False)


def test_memory_is_flat_with_summary():
    # The summary keeps a few sums per contract: its size does not depend on n_deals.
    import tracemalloc

    peaks = []
    for n in (64, 256):
        tracemalloc.start()
        simulate_summary("goathead3", n, seed=1, contracts="clubs", chunk_size=32, n_jobs=1, progress=False)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < 1.5 * peaks[0] + 2_000_000


def test_sheepshead_partner_and_clover_melds_columns():
    sh = simulate("sheepshead", 16, seed=3, contracts="jd", n_jobs=1, chunk_size=16, progress=False)
    assert (sh[[f"payout_{s}" for s in range(5)]].sum(axis=1) == 0).all()
    # The partner is the other seat of the picking side, -1 when the picker is alone.
    alone = sh.side_mask == 1
    assert (sh.partner[alone] == -1).all()
    assert (~alone).any()
    partner = sh.partner[~alone].to_numpy()
    assert (sh.side_mask[~alone].to_numpy() == (1 | (1 << partner))).all()
    assert (sh.made == (sh.picking_points >= 61)).all()
    cl = simulate("clover", 8, seed=3, contracts="hearts", n_jobs=1, chunk_size=4, progress=False)
    for col in ("side_hand_melds", "opp_hand_melds", "side_trick_melds", "opp_trick_melds"):
        assert col in cl.columns and (cl[col] >= 0).all()
    # each team's hand melds are its two hands' melds with hearts trump (hand_melds is
    # checked against a brute force in test_scoring), the declaring team's and the other's
    team = {"side": [], "opp": []}
    for row in cl.itertuples():
        for s in range(4):
            melds = hand_melds(CardSet(int(getattr(row, f"hand_{s}"))), "hearts")
            team["side" if row.side_mask >> s & 1 else "opp"].append((row.deal, melds))
    for name in ("side", "opp"):
        want = pd.DataFrame(team[name], columns=["deal", "m"]).groupby("deal").m.sum()
        assert cl.set_index("deal")[f"{name}_hand_melds"].tolist() == want.tolist(), name
        assert cl[f"{name}_hand_melds"].any()                   # not zero everywhere
    assert (cl.side_mask == 0b0101).all()                       # the declarer (seat 0) and seat 2
    assert (cl.made == (cl.side_points > 75)).all()


def test_summary_of_a_fixed_seed_is_pinned():
    # Computed before the summary path stopped building each chunk's table (engine session
    # 6): the figures must not move, bit for bit.
    s = simulate_summary("goathead3", 400, seed=11, policy="dd_payout", chunk_size=128, n_jobs=1, progress=False)
    assert s.contract.tolist() == ["diamonds", "hearts", "nil", "spades", "clubs", "court"]
    assert s.n.tolist() == [400] * 6
    assert s.p_make.tolist() == [0.2525, 0.28, 0.12, 0.26, 0.25, 0.3025]
    assert s.declarer_payout.tolist() == [-3.115, -2.88, -4.56, -2.94, -2.955, -3.365]
    assert s.payout_1.tolist() == [1.5575, 1.44, 2.28, 1.47, 1.4775, 1.6825]
    assert s.declarer_payout_hi.tolist() == [-2.638841221897248, -2.3969859768644564, -4.17620950920802,
                                             -2.4665992987819316, -2.4969742137819178, -2.6862140278236573]
    assert s.side_points.isna().tolist() == [True, True, False, True, True, True]  # bands, not counts (nil: 0)
    s4 = simulate_summary("goathead4", 120, seed=11, contracts=["clubs", "court"], chunk_size=50, n_jobs=1,
                          progress=False)
    assert s4.p_make.tolist() == [0.625, 0.18333333333333332]
    assert s4.declarer_payout.tolist() == [0.8833333333333333, -8.65]
    assert s4.payout_1.tolist() == [-0.2, 2.8833333333333333]
    assert s4.side_points.tolist() == [53.80833333333333, 17.775]


@pytest.mark.parametrize("game, policy, contracts, rules, by", [
    ("goathead3", "dd_payout", None, None, ["contract"]),
    ("goathead3", "dd", ["nil", "court"], None, ["contract", "declarer"]),
    ("goathead3", "dd_payout", None, None, ["exchanged", "contract"]),
    ("goathead3", "dd_payout", None, None, ["side_mask"]),
    ("goathead3", "dd_payout", None, None, ["policy"]),  # a string column
    ("goathead3", "dd_payout", None, None, ["side_tricks"]),  # float here, integer for nil
    ("goathead3", "dd_payout", None, None, ["side_points_lo"]),  # not in every contract's columns
    ("goathead3", "greedy", ["clubs", "nil"], None, ["contract", "side_tricks"]),
    ("goathead4", "dd_payout", ["clubs", "court"], None, ["contract"]),
    ("sheepshead", "dd_payout", ["jd"], None, ["contract"]),
    ("ohhell", "dd", ["notrump"], {"hand_size": 3}, ["contract", "bid"]),  # per-seat tables
])
def test_summary_sums_of_the_read_columns_are_the_tables(game, policy, contracts, rules, by):
    # Without a store the summary builds a chunk's table of just the columns it reads;
    # the sums must be those of the whole table, exactly.
    from analysis.engine import chunk_seed
    from analysis.simulate import _chunk_frame, _chunk_parts, _prepare, _summary_columns, _summary_sums

    g, spec = _prepare(game, contracts, rules, 0, None, policy, 24, None, None)
    parts = _chunk_parts(spec, 1, chunk_seed(3, 1), 24)
    narrow = _chunk_frame(spec, parts, _summary_columns(by, g.n_seats))
    assert set(narrow.columns) < set(_chunk_frame(spec, parts).columns)
    pd.testing.assert_frame_equal(_summary_sums(narrow, by, g.n_seats),
                                  _summary_sums(_chunk_frame(spec, parts), by, g.n_seats), check_exact=True)


def test_summary_with_leasters_played_out():
    # Leasters has no declarer: its `made` is missing, and the summary's make rate counts it
    # as not made, as for every other undefined `made` (it used to fail on the missing values).
    kw = dict(seed=2, contracts=["leasters", "clubs"], policy="greedy", chunk_size=16, n_jobs=1, progress=False)
    s = simulate_summary("goathead3", 30, **kw).set_index("contract")
    df = simulate("goathead3", 30, **kw)
    assert s.loc["leasters", "p_make"] == 0.0 and np.isnan(s.loc["leasters", "declarer_payout"])
    clubs = df[df.contract == "clubs"]
    assert s.loc["clubs", "p_make"] == clubs.made.astype(float).mean()
    assert s.loc["clubs", "declarer_payout"] == pytest.approx(clubs.payout_0.mean())


def test_summary_same_by_every_route(tmp_path):
    # Workers send back sums computed without the chunk's table; with a store the parent
    # sums the stored tables instead (read back on resume): the same figures, exactly.
    kw = dict(seed=4, policy="dd_payout", chunk_size=24, progress=False)
    one = simulate_summary("goathead3", 60, n_jobs=1, **kw)
    pd.testing.assert_frame_equal(one, simulate_summary("goathead3", 60, n_jobs=2, **kw), check_exact=True)
    pd.testing.assert_frame_equal(one, simulate_summary("goathead3", 60, n_jobs=1, store=tmp_path / "s", **kw),
                                  check_exact=True)
    pd.testing.assert_frame_equal(one, simulate_summary("goathead3", 60, n_jobs=2, store=tmp_path / "s", **kw),
                                  check_exact=True)
