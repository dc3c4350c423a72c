"""Scoring: the rule texts' worked examples, every table row, the rule options, net zero,
hand melds against a brute force, match totals and bad input."""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trickcore.cards import DECK32
from trickcore.scoring import hand_melds, hand_melds_batch, match_totals, score


def frame(**cols):
    return pd.DataFrame({k: v if isinstance(v, list) else [v] for k, v in cols.items()})


def payouts(result, n):
    return result[[f"payout_{s}" for s in range(n)]].to_numpy().tolist()


# --------------------------------------------------------------------------- Goathead

def goat(contract, points, kitty=0, tricks=3, exchanged=True, declarer=0, side_mask=None, **extra):
    return frame(contract=contract, declarer=declarer,
                 side_mask=(1 << declarer) if side_mask is None else side_mask,
                 side_points=points, kitty_points=kitty, side_tricks=tricks, exchanged=exchanged, **extra)


def test_goathead_example_1_suit_66_points():
    r = score("goathead3", goat("hearts", 60, kitty=6))
    assert payouts(r, 3) == [[2, -1, -1]]
    assert bool(r["made"].iloc[0]) and r["stake"].iloc[0] == 1


def test_goathead_example_2_court_29_points():
    r = score("goathead3", goat("court", 29, tricks=1))
    assert payouts(r, 3) == [[-6, 3, 3]]
    assert not r["made"].iloc[0]


def test_goathead_example_3_all_tricks_no_exchange():
    r = score("goathead3", goat("spades", 110, kitty=10, tricks=6, exchanged=False))
    assert payouts(r, 3) == [[8, -4, -4]]


def test_goathead_bonus_thresholds():
    cases = [  # (declarer count, side tricks) -> declarer payout, suit contract, exchanged
        (61, 3, 2), (60, 3, -2), (89, 4, 2), (90, 4, 4), (119, 5, 4), (120, 6, 6),
        (31, 2, -2), (30, 2, -4), (0, 0, -6), (15, 0, -6),
    ]
    for count, tricks, decl in cases:
        r = score("goathead3", goat("clubs", count, tricks=tricks))
        assert r["payout_0"].iloc[0] == decl, (count, tricks)


def test_goathead_nil_has_no_point_bonus():
    made = score("goathead3", goat("nil", 0, tricks=0))
    assert payouts(made, 3) == [[4, -2, -2]]
    lost = score("goathead3", goat("nil", 0, tricks=1, exchanged=False))
    assert payouts(lost, 3) == [[-6, 3, 3]]  # base 2 + no-exchange 1, no bonus for 0 points
    lost_won_only = score("goathead3", goat("nil", 0, tricks=1, exchanged=False), {"no_exchange_bonus": "won_only"})
    assert payouts(lost_won_only, 3) == [[-4, 2, 2]]


def test_goathead_no_exchange_bonus_option():
    lost = goat("diamonds", 40, tricks=2, exchanged=False)
    assert payouts(score("goathead3", lost), 3) == [[-4, 2, 2]]
    assert payouts(score("goathead3", lost, {"no_exchange_bonus": "won_only"}), 3) == [[-2, 1, 1]]
    won = goat("diamonds", 70, tricks=4, exchanged=False)
    assert payouts(score("goathead3", won, {"no_exchange_bonus": "won_only"}), 3) == [[4, -2, -2]]


def test_goathead_kitty_points_option():
    rows = goat("hearts", 55, kitty=10, exchanged=False)
    assert score("goathead3", rows)["made"].iloc[0]  # 65 counted
    r = score("goathead3", rows, {"kitty_points": "if_exchanged"})
    assert not r["made"].iloc[0] and r["declarer_points"].iloc[0] == 55
    # with an exchange both readings count the kitty
    rows_ex = goat("hearts", 55, kitty=10, exchanged=True)
    assert score("goathead3", rows_ex, {"kitty_points": "if_exchanged"})["made"].iloc[0]


def test_goathead4_alone_triple_and_partnership():
    alone = score("goathead4", goat("court", 95, kitty=0, tricks=3, declarer=2))
    assert payouts(alone, 4) == [[-3, -3, 9, -3]]
    pair = score("goathead4", goat("clubs", 70, tricks=2, declarer=1, side_mask=0b1010))
    assert payouts(pair, 4) == [[-1, 1, -1, 1]]
    # the declarer partnered by two others against a lone black-jack holder
    three = score("goathead4", goat("spades", 50, tricks=2, declarer=0, side_mask=0b0111))
    assert payouts(three, 4) == [[-1, -1, -1, 3]]
    all_tricks = score("goathead4", goat("hearts", 100, tricks=4, declarer=3, side_mask=0b1001, exchanged=False))
    assert payouts(all_tricks, 4) == [[4, -4, -4, 4]]


def leasters(points, tricks, last, kitty, game="goathead3"):
    n = len(points)
    cols = {"contract": "leasters", "declarer": -1, "last_trick_winner": last, "kitty_points": kitty}
    cols.update({f"points_{s}": points[s] for s in range(n)})
    cols.update({f"tricks_{s}": tricks[s] for s in range(n)})
    return frame(**cols)


def test_goathead_leasters_and_tie_option():
    r = score("goathead3", leasters([50, 30, 20], [3, 2, 1], last=2, kitty=20))  # seat 2 gets 40
    assert payouts(r, 3) == [[-1, 1, 0]]
    assert r["made"].isna().all()
    tie = leasters([50, 50, 0], [3, 2, 1], last=1, kitty=20)  # 50 70 0
    assert payouts(score("goathead3", tie), 3) == [[0, -1, 1]]
    tie2 = leasters([50, 50, 0], [3, 2, 1], last=2, kitty=20)  # 50 50 20: tie for most
    assert payouts(score("goathead3", tie2), 3) == [[0, 0, 0]]
    assert payouts(score("goathead3", tie2, {"leasters_tie": "split"}), 3) == [[-0.5, -0.5, 1]]
    r4 = score("goathead4", leasters([40, 20, 20, 10], [1, 1, 1, 1], last=0, kitty=30, game="goathead4"))
    assert payouts(r4, 4) == [[-1, 0, 0, 1]]


def test_goathead_mixed_contracts_in_one_frame():
    rows = pd.concat([goat("hearts", 60, kitty=6), leasters([50, 30, 20], [3, 2, 1], 2, 20)], ignore_index=True)
    rows.loc[1, ["side_mask", "side_points", "side_tricks", "exchanged"]] = [0, 0, 0, False]
    r = score("goathead3", rows)
    assert payouts(r, 3) == [[2, -1, -1], [-1, 1, 0]]
    assert r["made"].tolist()[0] is True and r["made"].isna().tolist() == [False, True]


# --------------------------------------------------------------------------- Clover

def test_clover_score_sheet_team_2_scores_46():
    sheet = frame(contract=["hearts", "spades"], declarer=[0, 2], side_mask=[5, 5], side_points=[127, 75],
                  side_hand_melds=[50, 100], side_trick_melds=[20, 20],
                  opp_hand_melds=[100, 20], opp_trick_melds=[40, 20])
    r = score("clover", sheet)
    assert r["made"].tolist() == [True, False]
    # hand 1: Team 1 12 (tricks; melds 7■ crossed out), Team 2 14 + 2; hand 2: 4 + 7 + 12 + 7
    assert r["side_score"].tolist() == [12, 0] and r["opp_score"].tolist() == [16, 30]
    assert r["payout_0"].sum() == r["payout_2"].sum() == 12
    assert r["payout_1"].sum() == r["payout_3"].sum() == 46


def test_clover_meld_tie_option_and_truncation():
    rows = frame(contract="notrump", declarer=1, side_mask=0b1010, side_points=-2 + 80,
                 side_hand_melds=20, side_trick_melds=29, opp_hand_melds=49, opp_trick_melds=0)
    r = score("clover", rows)
    assert (r["side_score"].item(), r["opp_score"].item()) == (7, 7)
    both = score("clover", rows, {"meld_tie": "both"})
    assert (both["side_score"].item(), both["opp_score"].item()) == (11, 11)
    assert payouts(both, 4) == [[11, 11, 11, 11]]
    # a team that only won the last trick with blank cards has -2 trick points: truncated to 0
    low = frame(contract="clubs", declarer=0, side_mask=5, side_points=152,
                side_hand_melds=0, side_trick_melds=0, opp_hand_melds=0, opp_trick_melds=0)
    assert score("clover", low)["opp_score"].item() == 0


MELD_CASES = [
    ("JC JD JH JS AS KS QS 7C", "S", 240),
    ("AS KS QS JS 10S 9S 8S 7S", None, 120),
    ("KH QH JH 7C 8D 9S AC AD", "H", 40),
    ("QC QD QH QS KS 9H 8H 7H", "S", 140),
    ("AC AD AH AS KC KD KH KS", "C", 200),
    ("AH KH QH JH 10H 7C 8C 9D", "D", 100),
    ("AH KH QH JH 10H 9H 7C 8C", "H", 120),
    ("KS QS 7C 8D 9H AC AD 10H", "S", 20),
    ("KS QS 7C 8D 9H AC AD 10H", None, 0),
]


@pytest.mark.parametrize("hand,trump,value", MELD_CASES)
def test_hand_melds_examples(hand, trump, value):
    assert hand_melds(hand, trump) == value


def _brute_melds(cards, trump):
    """Independent reference: list every meld, search all disjoint subsets."""
    natural = [12, 11, 10, 9, 8, 7, 6, 5]  # A K Q J 10 9 8 7 (universal ranks)
    held = set(cards)
    melds = []
    for r, v in ((9, 200), (10, 100), (11, 100), (12, 100)):
        four = {16 * s + r for s in range(4)}
        if four <= held:
            melds.append((four, v))
    for s in range(4):
        for i in range(8):
            for j in range(i + 3, 9):
                run = {16 * s + r for r in natural[i:j]}
                if run <= held:
                    melds.append((run, {3: 20, 4: 50}.get(len(run), 100)))
    best = 0

    def search(k, used, value):
        nonlocal best
        best = max(best, value)
        for m in range(k, len(melds)):
            cs, v = melds[m]
            if not cs & used:
                search(m + 1, used | cs, value + v)

    search(0, set(), 0)
    if trump is not None and {16 * trump + 11, 16 * trump + 10} <= held:
        best += 20
    return best


def test_hand_melds_against_brute_force():
    rng = np.random.default_rng(7)
    deck = np.array(list(DECK32), dtype=np.int64)
    hands, brute = [], {t: [] for t in (None, 0, 1, 2, 3)}
    for i in range(600):
        # bias toward meld-rich hands: draw from a few suits/ranks now and then
        pool = deck if i % 3 else deck[np.isin(deck % 16, [9, 10, 11, 12, 8]) | (deck // 16 == i % 4)]
        cards = rng.choice(pool, size=8, replace=False)
        hands.append(int(sum(1 << int(c) for c in cards)))
        for t in brute:
            brute[t].append(_brute_melds([int(c) for c in cards], t))
    arr = np.array(hands, dtype=np.uint64)
    for t, expected in brute.items():
        assert hand_melds_batch(arr, t).tolist() == expected


def test_hand_melds_bad_input():
    with pytest.raises(ValueError, match="32-card"):
        hand_melds("2C 3C 4C", "C")
    with pytest.raises(ValueError, match="trump"):
        hand_melds("AC KC QC", "X")
    with pytest.raises(ValueError):
        hand_melds("AC AC", "C")


# --------------------------------------------------------------------------- Gamut

def seats(prefix, values):
    return {f"{prefix}_{s}": v for s, v in enumerate(values)}


def test_gamut_spades_examples():
    rows = frame(contract=["spades"] * 3, **seats("bid", [[2, 1, 1], [3, 3, 3], [1, 1, 1], [2, 2, 2]]),
                 **seats("tricks", [[2, 2, 1], [3, 2, 4], [1, 2, 0], [2, 2, 3]]))
    r = score("gamut", rows)
    assert r["payout_0"].tolist() == [8, 3, -4]  # bid 3 made; bid 2 took 4; bid 2 took 1
    assert r["payout_2"].tolist() == r["payout_0"].tolist()
    assert r["team_bid_0"].tolist() == [3, 2, 2]


def test_gamut_hearts_moon_and_penalties():
    rows = frame(contract=["hearts"] * 3, **seats("hearts", [[8, 3, 7], [0, 5, 1], [0, 0, 0], [0, 0, 0]]),
                 **seats("queen", [[1, 0, 1], [0, 0, 0], [0, 1, 0], [0, 0, 0]]))
    assert payouts(score("gamut", rows), 4) == [[12, 0, 0, 0], [-3, -5, -8, 0], [-15, -1, 0, 0]]


def test_gamut_clubs_folding_and_multiplier():
    rows = frame(contract=["clubs", "clubs_2"], multiplier=[1, 4],
                 **seats("tricks", [list(c) for c in zip([5, 3, 0, 0], [0, 6, 2, 0])]),
                 **seats("folded", [list(c) for c in zip([False] * 4, [True, False, False, True])]))
    assert payouts(score("gamut", rows), 4) == [[10, 6, -6, -6], [0, 48, 16, 0]]
    bad = rows.copy()
    bad.loc[1, "folded_3"] = False
    with pytest.raises(ValueError, match="not folded"):
        score("gamut", bad)


# --------------------------------------------------------------------------- Sheepshead

SHEEPSHEAD_TABLE = [  # picking-team total -> picker, partner, each opponent
    (120, 6, 3, -3), (119, 4, 2, -2), (91, 4, 2, -2), (90, 2, 1, -1), (61, 2, 1, -1),
    (60, -2, -1, 1), (31, -2, -1, 1), (30, -4, -2, 2), (1, -4, -2, 2), (0, -6, -3, 3),
]


@pytest.mark.parametrize("total,picker,partner,opp", SHEEPSHEAD_TABLE)
def test_sheepshead_table_rows(total, picker, partner, opp):
    kitty = min(total, 7)
    r = score("sheepshead", frame(contract="jd", declarer=1, partner=4, side_points=total - kitty, kitty_points=kitty))
    assert payouts(r, 5) == [[opp, picker, opp, opp, partner]]
    assert bool(r["made"].iloc[0]) == (total >= 61)
    alone = score("sheepshead", frame(contract="alone", declarer=1, partner=-1,
                                      side_points=total - kitty, kitty_points=kitty))
    assert payouts(alone, 5) == [[opp, -4 * opp, opp, opp, opp]]


def test_sheepshead_60_60_goes_to_opponents_and_multipliers():
    r = score("sheepshead", frame(contract="called_ace_hearts", declarer=0, partner=2, side_points=50,
                                  kitty_points=10, multiplier=4))
    assert payouts(r, 5) == [[-8, 4, -4, 4, 4]]
    # a picker holding J♦ without a partner: partner = own seat counts as alone
    same = score("sheepshead", frame(contract="jd", declarer=3, partner=3, side_points=70, kitty_points=0))
    assert payouts(same, 5) == [[-1, -1, -1, 4, -1]]


def test_sheepshead_leaster():
    base = dict(contract="leaster", declarer=-1, last_trick_winner=3, kitty_points=11)
    r = score("sheepshead", frame(**base, **seats("points", [0, 20, 30, 25, 34]), **seats("tricks", [0, 1, 2, 1, 2])))
    assert payouts(r, 5) == [[-1, 4, -1, -1, -1]]  # seat 0 took no trick; seat 3 has 36 with the blind
    r = score("sheepshead", frame(**base, **seats("points", [0, 20, 20, 9, 60]), **seats("tricks", [0, 1, 2, 1, 2])))
    assert payouts(r, 5) == [[0, 0, 0, 0, 0]]  # 20 / 20 / 20: a tie scores nothing


# --------------------------------------------------------------------------- Hearts, Spades, Oh Hell

def test_hearts_moon_and_jack_of_diamonds_option():
    rows = frame(contract=["hearts"] * 2, **seats("hearts", [[13, 4], [0, 9], [0, 0], [0, 0]]),
                 **seats("queen", [[1, 0], [0, 0], [0, 1], [0, 0]]),
                 **seats("jack", [[0, 0], [1, 0], [0, 0], [0, 1]]))
    assert payouts(score("hearts", rows), 4) == [[0, 26, 26, 26], [4, 9, 13, 0]]
    assert payouts(score("hearts", rows, {"jack_of_diamonds": True}), 4) == [[0, 16, 26, 26], [4, 9, 13, -10]]
    assert score("hearts", rows)["moon"].tolist() == [0, -1]


def spades_row(bids, tricks, **extra):
    return frame(contract="spades", **seats("bid", bids), **seats("tricks", tricks), **extra)


def test_spades_made_set_nil():
    r = score("spades", spades_row([4, 5, 0, 3], [5, 5, 0, 3]))
    assert (r["team_score_0"].item(), r["team_score_1"].item()) == (141, 80)
    failed_nil = score("spades", spades_row([4, 5, 0, 3], [3, 5, 2, 3]))  # nil took 2, team takes 5 >= 4
    assert failed_nil["team_score_0"].item() == 40 + 1 - 100
    set_ = score("spades", spades_row([6, 3, 2, 1], [3, 5, 2, 3]))
    assert (set_["team_score_0"].item(), set_["team_score_1"].item()) == (-80, 44)
    assert payouts(set_, 4) == [[-80, 44, -80, 44]]
    no_bags = score("spades", spades_row([6, 3, 2, 1], [3, 5, 2, 3]), {"sandbags": False})
    assert no_bags["team_score_1"].item() == 40 and no_bags["bags_1"].item() == 0


def test_spades_bag_roll_over():
    r = score("spades", spades_row([4, 5, 0, 3], [5, 5, 0, 3], bags_before_0=9, bags_before_1=3))
    assert r["bag_penalty_0"].item() == -110 and r["team_score_0"].item() == 141 - 110
    rounds = pd.concat([score("spades", spades_row([3, 3, 1, 3], t)) for t in
                        ([4, 3, 3, 3], [4, 3, 3, 3], [4, 3, 3, 3], [3, 3, 4, 3])], ignore_index=True)
    m = match_totals("spades", rounds)
    assert m["bag_total_0"].tolist() == [3, 6, 9, 12]
    assert m["bag_penalty_0"].tolist() == [0, 0, 0, -110]
    assert m["total_0"].tolist() == [43, 86, 129, 62]


def test_ohhell_examples_and_trick_points_option():
    rows = frame(contract=["spades"] * 2, **seats("bid", [[2, 2], [1, 1], [0, 0], [3, 3]]),
                 **seats("tricks", [[2, 3], [1, 1], [1, 1], [6, 5]]))
    assert score("ohhell", rows)["payout_0"].tolist() == [12, 3]
    assert score("ohhell", rows, {"trick_points": "exact_only"})["payout_0"].tolist() == [12, 0]
    assert score("ohhell", rows, {"trick_points": "never"})["payout_0"].tolist() == [10, 0]
    assert score("ohhell", rows)["exact_0"].tolist() == [True, False]


# --------------------------------------------------------------------------- net zero

@st.composite
def goathead_rows(draw, n_seats):
    hand = 6 if n_seats == 3 else 4
    contract = draw(st.sampled_from(["diamonds", "hearts", "nil", "spades", "clubs", "court"]))
    d = draw(st.integers(0, n_seats - 1))
    if n_seats == 3 or contract in ("nil", "court"):
        side = 1 << d
    else:
        others = draw(st.integers(0, (1 << n_seats) - 1)) & ~(1 << d)
        side = (1 << d) | others
        if side == (1 << n_seats) - 1:
            side = 1 << d
    pts = draw(st.integers(0, 120))
    kitty = draw(st.integers(0, 120 - pts))
    return dict(contract=contract, declarer=d, side_mask=side, side_points=pts, kitty_points=kitty,
                side_tricks=draw(st.integers(0, hand)), exchanged=draw(st.booleans()),
                multiplier=draw(st.integers(1, 8)))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([3, 4]).flatmap(lambda n: st.tuples(st.just(n), st.lists(goathead_rows(n), min_size=1, max_size=40))),
       st.sampled_from(["declarer", "if_exchanged"]), st.sampled_from(["won_or_lost", "won_only"]))
def test_goathead_net_zero(data, kitty_rule, bonus_rule):
    n, rows = data
    r = score(f"goathead{n}", pd.DataFrame(rows), {"kitty_points": kitty_rule, "no_exchange_bonus": bonus_rule})
    p = r[[f"payout_{s}" for s in range(n)]].to_numpy()
    assert np.allclose(p.sum(axis=1), 0)
    assert (np.abs(p[:, 1:]) > 0).any(axis=1).all()  # somebody always pays


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(-1, 4), st.integers(0, 120), st.integers(0, 30),
                          st.integers(1, 16)), min_size=1, max_size=40))
def test_sheepshead_net_zero(rows):
    df = pd.DataFrame([dict(contract="jd", declarer=d, partner=p, side_points=min(pt, 120 - k), kitty_points=k,
                            multiplier=m) for d, p, pt, k, m in rows])
    p = score("sheepshead", df)[[f"payout_{s}" for s in range(5)]].to_numpy()
    assert np.allclose(p.sum(axis=1), 0)


def _split(total, parts, draw, lo=0):
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total])]


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["goathead3", "goathead4", "sheepshead"]), st.sampled_from(["nobody_pays", "split"]))
def test_leasters_net_zero(data, game, tie):
    n = {"goathead3": 3, "goathead4": 4, "sheepshead": 5}[game]
    n_tricks = {"goathead3": 6, "goathead4": 4, "sheepshead": 6}[game]
    rows = []
    for _ in range(data.draw(st.integers(1, 20))):
        kitty = data.draw(st.integers(0, 40))
        pts = _split(120 - kitty, n, data.draw)
        tricks = _split(n_tricks, n, data.draw)
        last = data.draw(st.sampled_from([s for s in range(n) if tricks[s] > 0]))
        rows.append(dict(contract="leasters" if game != "sheepshead" else "leaster", declarer=-1,
                         last_trick_winner=last, kitty_points=kitty, **seats("points", pts), **seats("tricks", tricks)))
    rules = {"leasters_tie": tie} if game != "sheepshead" else None
    p = score(game, pd.DataFrame(rows), rules)[[f"payout_{s}" for s in range(n)]].to_numpy()
    assert np.allclose(p.sum(axis=1), 0)


# --------------------------------------------------------------------------- match totals

def test_match_totals_fixed_rounds_and_winners():
    rows = pd.concat([goat("hearts", 70)] * 3 + [goat("hearts", 40, declarer=1)] * 2, ignore_index=True)
    s = score("goathead3", rows)
    m = match_totals("goathead3", s, {"rounds": 5})
    assert m["over"].tolist() == [False] * 4 + [True]
    # seat 0 makes three times (+2 each), then seat 1 goes down twice (-2 each)
    assert m[["total_0", "total_1", "total_2"]].iloc[-1].tolist() == [8, -7, -1]
    assert m["winners"].iloc[-1] == 0b001
    with pytest.raises(ValueError, match="after the end"):
        match_totals("goathead3", s, {"rounds": 3})
    two = pd.concat([s.assign(match=0), s.assign(match=1)], ignore_index=True)
    assert match_totals("goathead3", two, {"rounds": 5})["over"].sum() == 2


def test_match_totals_targets():
    hearts = pd.DataFrame({"payout_0": [50, 50], "payout_1": [26, 26], "payout_2": [0, 0], "payout_3": [10, 0]})
    m = match_totals("hearts", hearts)
    assert m["over"].tolist() == [False, True] and m["winners"].iloc[-1] == 0b0100
    g = match_totals("gamut", pd.DataFrame({f"payout_{s}": [20, 20] for s in range(4)}))
    assert m["round"].tolist() == [1, 2] and g["winners"].iloc[-1] == 0b1111
    oh = pd.DataFrame({f"payout_{s}": [5] * 19 for s in range(4)}).assign(payout_2=[6] * 19)
    mo = match_totals("ohhell", oh)
    assert mo["over"].tolist() == [False] * 18 + [True] and mo["winners"].iloc[-1] == 0b0100
    assert match_totals("ohhell", oh.iloc[:5], {"hand_size": 3})["over"].tolist() == [False] * 4 + [True]
    # always_13: seat 2 reaches 100 in round 17 (6 x 17 = 102)
    assert match_totals("ohhell", oh.iloc[:17], {"sequence": "always_13"})["over"].tolist() == [False] * 16 + [True]
    with pytest.raises(ValueError, match="after the end"):
        match_totals("ohhell", oh, {"sequence": "always_13"})


def test_match_target_options():
    hearts = pd.DataFrame({"payout_0": [50, 50], "payout_1": [26, 26], "payout_2": [0, 0], "payout_3": [10, 0]})
    assert match_totals("hearts", hearts.iloc[:1], {"target": 50})["over"].item()
    g = pd.DataFrame({f"payout_{s}": [20, 20] for s in range(4)})
    assert match_totals("gamut", g.iloc[:1], {"target": 20})["over"].item()
    sp = pd.DataFrame({"payout_0": [200], "payout_1": [-50], "payout_2": [200], "payout_3": [-50],
                       "bags_0": [0], "bags_1": [0]})
    assert not match_totals("spades", sp)["over"].item()
    assert match_totals("spades", sp, {"target": 200})["winners"].item() == 0b0101


def test_boolean_columns_accept_bool_int_and_nullable():
    base = dict(contract="hearts", **seats("hearts", [13, 0, 0, 0]))
    for q in ([True, False, False, False], [1, 0, 0, 0]):
        assert score("hearts", frame(**base, **seats("queen", q)))["moon"].item() == 0
    nullable = frame(**base, **seats("queen", [True, False, False, False])).astype({f"queen_{s}": "boolean" for s in range(4)})
    assert score("hearts", nullable)["moon"].item() == 0
    nullable.loc[0, "queen_1"] = pd.NA
    with pytest.raises(ValueError, match="missing"):
        score("hearts", nullable)
    with pytest.raises(ValueError, match="queen_0"):
        score("hearts", frame(**base, **seats("queen", [2, 0, 0, 0])))


def test_match_totals_sheepshead_tie_break_by_hands_won():
    p = pd.DataFrame({"payout_0": [4, -1], "payout_1": [-1, 1], "payout_2": [-1, 1], "payout_3": [-1, -1],
                      "payout_4": [-1, 0]})
    m = match_totals("sheepshead", p, {"rounds": 2})
    assert m[[f"total_{s}" for s in range(5)]].iloc[-1].tolist() == [3, 0, 0, -2, -1]
    assert m["winners"].iloc[-1] == 0b00001
    p2 = pd.DataFrame({"payout_0": [4, -1], "payout_1": [1, 2], "payout_2": [-2, -1], "payout_3": [-2, 0],
                       "payout_4": [-1, 0]})
    m2 = match_totals("sheepshead", p2, {"rounds": 2})  # seats 0 and 1 tie on 3; seat 1 won two hands
    assert m2["winners"].iloc[-1] == 0b00010


def test_spades_match_end_ignores_single_bags():
    p = pd.DataFrame({"payout_0": [528], "payout_1": [526], "payout_2": [528], "payout_3": [526],
                      "bags_0": [0], "bags_1": [0]})
    assert not match_totals("spades", p)["over"].item()
    p.loc[0, ["payout_0", "payout_2"]] = 531
    m = match_totals("spades", p)
    assert m["over"].item() and m["winners"].item() == 0b0101


# --------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("call,match", [
    (lambda: score("bridge", goat("hearts", 60)), "unknown game"),
    (lambda: score("goathead3", goat("grand", 60)), "unknown contract"),
    (lambda: score("goathead3", goat("hearts", 60), {"nil_bonus": 3}), "unknown rule option"),
    (lambda: score("goathead3", goat("hearts", 60), {"leasters_tie": "coin"}), "leasters_tie"),
    (lambda: score("goathead3", goat("hearts", 60).drop(columns=["exchanged", "kitty_points"])), "kitty_points, exchanged"),
    (lambda: score("goathead3", goat("hearts", 130)), "side_points"),
    (lambda: score("goathead3", goat("hearts", 100, kitty=30)), "exceed"),
    (lambda: score("goathead3", goat("hearts", 60, declarer=1, side_mask=1)), "declarer"),
    (lambda: score("goathead3", goat("hearts", 60, multiplier=0)), "multiplier"),
    (lambda: score("goathead3", goat("hearts", 60.5)), "whole"),
    (lambda: score("goathead3", "not a frame"), "DataFrame"),
    (lambda: score("sheepshead", frame(contract="alone", declarer=0, partner=2, side_points=1, kitty_points=0)), "alone"),
    (lambda: score("clover", frame(contract="clubs", declarer=0, side_mask=3, side_points=80, side_hand_melds=0,
                                   side_trick_melds=0, opp_hand_melds=0, opp_trick_melds=0)), "across"),
    (lambda: score("hearts", frame(contract="hearts", **seats("hearts", [13, 1, 0, 0]), **seats("queen", [1, 0, 0, 0]))), "13"),
    (lambda: score("hearts", frame(contract="hearts", **seats("hearts", [13, 0, 0, 0]), **seats("queen", [1, 0, 0, 0])),
                   {"jack_of_diamonds": True}), "jack_0"),
    (lambda: score("spades", spades_row([4, 5, 0, 3], [5, 5, 0, 2])), "13"),
    (lambda: score("ohhell", frame(contract="spades", **seats("bid", [1, 1, 1, 1]), **seats("tricks", [1, 1, 1, 14]))), "13"),
    (lambda: match_totals("hearts", pd.DataFrame({"payout_0": [1]})), "payout_1"),
])
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_empty_frame_scores_to_empty_result():
    empty = goat("hearts", 60).iloc[:0]
    r = score("goathead3", empty)
    assert len(r) == 0 and "payout_2" in r.columns


def test_index_is_preserved():
    rows = pd.concat([goat("hearts", 60, kitty=6), goat("court", 29)]).set_axis(["a", "b"])
    assert score("goathead3", rows).index.tolist() == ["a", "b"]


def test_a_mapping_of_columns_scores_as_its_frame():
    # score() reads a mapping of arrays (scalars: constant columns) exactly as the DataFrame
    # of the same columns, for every contract kind (declarer rows, leasters rows, mixed).
    rng = np.random.default_rng(3)
    n = 200
    pts = rng.integers(0, 100, n)
    cols = {
        "contract": pd.Categorical(rng.choice(["hearts", "court", "nil", "leasters"], n)),
        "declarer": 0, "side_mask": 1, "side_points": pts, "kitty_points": rng.integers(0, 20, n),
        "side_tricks": rng.integers(0, 7, n), "exchanged": rng.random(n) < 0.5,
        "points_0": pts, "points_1": 100 - pts, "points_2": 0, "tricks_0": 2, "tricks_1": 2, "tricks_2": 2,
        "last_trick_winner": 2,
    }
    frame = pd.DataFrame(cols)
    cols["declarer"] = np.where(frame.contract == "leasters", -1, 0)
    frame["declarer"] = cols["declarer"]
    frame["kitty_points"] = cols["kitty_points"] = 120 - 100 - np.zeros(n, dtype=np.int64)
    for rules in ({}, {"leasters_tie": "split", "kitty_points": "if_exchanged"}):
        pd.testing.assert_frame_equal(score("goathead3", cols, rules), score("goathead3", frame, rules),
                                      check_exact=True)
    from trickcore.scoring import payout_cuts

    sub = {"contract": ["hearts", "court"], "kitty_points": [3, 0], "exchanged": False}
    assert (payout_cuts("goathead3", sub) == payout_cuts("goathead3", pd.DataFrame(sub))).all()
    with pytest.raises(ValueError, match="one length"):
        score("goathead3", {"contract": ["hearts"], "declarer": [0, 0]})
    with pytest.raises(ValueError, match="missing column"):
        score("goathead3", {"contract": ["hearts"], "declarer": [0]})
    with pytest.raises(ValueError, match="DataFrame or a mapping"):
        score("goathead3", [1, 2])


def test_a_categorical_contract_column_is_read_by_its_codes():
    # A categorical contract column is read by its codes (no strings compared); only the
    # categories that occur are checked, as with any other column.
    base = {"declarer": 0, "side_mask": 1, "side_points": [70, 20], "kitty_points": 0, "side_tricks": [4, 1],
            "exchanged": True}
    cats = pd.CategoricalDtype(["bridge", "court", "hearts"])
    as_cat = score("goathead3", {**base, "contract": pd.Categorical(["court", "hearts"], dtype=cats)})
    as_str = score("goathead3", {**base, "contract": ["court", "hearts"]})
    pd.testing.assert_frame_equal(as_cat, as_str, check_exact=True)
    with pytest.raises(ValueError, match="unknown contract\\(s\\) 'bridge'"):
        score("goathead3", {**base, "contract": pd.Categorical(["bridge", "hearts"], dtype=cats)})
    with pytest.raises(ValueError, match="missing"):
        score("goathead3", {**base, "contract": pd.Categorical([None, "hearts"], dtype=cats)})
