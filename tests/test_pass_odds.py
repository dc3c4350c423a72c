"""analysis.pass_odds: the expected payout of passing in Sheepshead, checked against an
independent recomputation (round engine + HeuristicPolicy + solver + scorer)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

import trickcore
from analysis import pass_odds
from analysis.cli import main
from analysis.odds import heuristic_exchange
from analysis.paranoid import seat_frame
from analysis.passing import earlier_seats_pass, heuristic_picks
from trickcore.cards import Card, CardSet
from trickcore.policies import HeuristicPolicy
from trickcore.rounds import start_round
from trickcore.scoring import score

HAND = "QC QS JD AH 10H 9C"
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
_POLICY = HeuristicPolicy()
_OBS = start_round("sheepshead", seed=0, dealer=4).observe(0)


def policy_picks(hand_mask: int, rules: dict | None = None) -> bool:
    """HeuristicPolicy's own pick_or_pass answer for a hand (an observation of the round
    engine with the hand swapped in)."""
    obs = dataclasses.replace(_OBS, hand=CardSet(int(hand_mask)), rules={**_OBS.rules, **(rules or {})})
    return bool(_POLICY.pick_or_pass(obs))


def card_points(mask: int) -> int:
    return sum(POINTS.get(c.rank_name, 0) for c in CardSet(int(mask)))


def recompute(row: pd.Series, seat: int, rules: dict | None = None) -> float:
    """The analyst's payout on one layout, from scratch: the round engine asks every seat
    in pick order (HeuristicPolicy; the analyst passes), the picker calls as the heuristic
    does, buries by analysis.odds.heuristic_exchange, then solve + score."""
    rules = dict(rules or {})
    hands = [CardSet(int(row[f"hand_{s}"])) for s in range(5)]
    blind = CardSet(int(row["blind"]))
    r = start_round("sheepshead", dealer=4, hands=hands, kitty=blind, blitz=False, crack=False, **rules)
    while r.pending.kind == "pick_or_pass":
        s = r.pending.seat
        if s == seat:
            r.act(False)
            continue
        answer = _POLICY.pick_or_pass(r.observe(s))
        if s < seat:
            assert answer is False, f"seat {s} would have picked: the layout is not conditioned"
        r.act(answer)
    if r.done:  # thrown in (redeal / doubler)
        return 0.0
    picker = r.declarer
    assert picker == int(row["picker"]) if not row["forced"] else picker == 4
    contract = "jd"
    if r.pending.kind == "call":
        contract = _POLICY.call(r.observe(picker))
    assert r.pending.kind in ("exchange", "call")
    h = np.array([hands[picker].mask], dtype=np.uint64)
    k = np.array([blind.mask], dtype=np.uint64)
    _, new, buried = heuristic_exchange("sheepshead", contract, h, k, rules)
    if contract.startswith("called_"):
        # the heuristic's raise: alone when all six kept cards are trumps or fail aces
        _, new_a, bur_a = heuristic_exchange("sheepshead", "alone", h, k, rules)
        good = CardSet("QC QS QH QD JC JS JH JD AD 10D KD 9D 8D 7D AC AS AH").mask
        if bin(int(new_a[0]) & good).count("1") == 6:
            contract, new, buried = "alone", new_a, bur_a
    final = [x.mask for x in hands]
    final[picker] = int(new[0])
    value = trickcore.solve("sheepshead", contract, final, leader=0, declarer=picker).value
    partner = -1
    pc = {"jd": "JD", "jc": "JC", "js": "JS", "jh": "JH"}.get(contract)
    if contract.startswith("called_"):
        word, suit = contract.split("_")[1:]
        pc = ("A" if word == "ace" else "10") + {"clubs": "C", "spades": "S", "hearts": "H"}[suit]
    if pc is not None:
        card = Card.parse(pc).mask
        holders = [s for s in range(5) if s != picker and final[s] & card]
        partner = holders[0] if holders else -1
    assert contract == row["contract"]
    assert partner == row["partner"]
    frame = pd.DataFrame({"contract": [contract], "declarer": [picker], "partner": [partner],
                          "side_points": [int(value)], "kitty_points": [card_points(int(buried[0]))]})
    return float(score("sheepshead", frame, rules)[f"payout_{seat}"].iloc[0])


# -- truth ----------------------------------------------------------------------------

@pytest.mark.parametrize("hand, seat, rules, role", [
    (HAND, 3, None, "partner"),                                # holds J♦: always the partner
    ("7C 8C KH 9S AD 7H", 3, None, "defender"),
    ("AS AH 7C 8D KH 9C", 2, {"partner": "called_ace"}, None),  # either, by the call
])
def test_per_layout_payouts_match_an_independent_recomputation(hand, seat, rules, role):
    table, samples = pass_odds("sheepshead", hand, seat=seat, rules=rules, n_deals=80, seed=5,
                               return_samples=True)
    if role is not None:
        assert (samples.outcome[~samples.forced] == role).all()
    else:
        assert {"partner", "defender"} <= set(samples.outcome)
    picked = samples[(samples.picker >= 0) & ~samples.forced]
    rows = pd.concat([picked.head(5), samples[samples.forced].head(2)])
    assert len(rows) >= 6 and samples.forced.any()
    for _, row in rows.iterrows():
        assert recompute(row, seat, rules) == row["payout"]
    # the table is the mean of those per-layout payouts
    assert table.set_index("outcome").loc["pass", "ev"] == pytest.approx(samples.payout.mean())
    for o in ("partner", "defender", "no_pick"):
        part = samples[samples.outcome == o]
        assert table.set_index("outcome").loc[o, "n"] == len(part)


# -- conditioning -----------------------------------------------------------------------

def test_the_vectorised_pick_rule_is_heuristic_policys():
    deals = trickcore.random_deals("sheepshead", 400, seed=2)
    hands = deals[:, :5].ravel()
    mine = heuristic_picks("sheepshead", hands)
    theirs = np.array([policy_picks(int(h)) for h in hands])
    assert mine.any() and (~mine).any()
    assert (mine == theirs).all()


def test_earlier_seats_pass_and_the_first_later_picker_picks():
    table, samples = pass_odds("sheepshead", HAND, seat=3, n_deals=150, seed=7, return_samples=True)
    assert 0 < table.attrs["acceptance"] < 1
    assert table.attrs["n_drawn"] > 150
    for _, row in samples.iterrows():
        for s in range(3):
            assert not policy_picks(row[f"hand_{s}"]), "an earlier seat would have picked"
        analyst = CardSet(int(row["hand_3"]))
        assert analyst == CardSet.parse(HAND)
        expect = 4 if policy_picks(row["hand_4"]) else -1
        assert (row["picker"] if not row["forced"] else -1) == expect
    # with the acceptance as reported, p_pick and p_all_pass split the layouts
    assert table.attrs["p_pick"] + table.attrs["p_all_pass"] == pytest.approx(1.0)


def test_too_few_passing_layouts_is_a_clear_error():
    with pytest.raises(ValueError, match=r"acceptance .* every seat before the analyst passes"):
        pass_odds("sheepshead", HAND, seat=3, n_deals=1000, max_draws=1000)


# -- nobody picks -----------------------------------------------------------------------

ALL_PASS = {0: "QC 7D AC 10C KC 9C", 2: "QH 9D AH 10H KH 9H", 3: "QD JC 8C 7C 8S 7S",
            4: "8H 7H KD AD 10D JS", "kitty": "JH JD"}
ANALYST = "QS 8D AS 10S KS 9S"   # seat 1


def _all_pass(no_pick, seat=1, hand=ANALYST, fixed=None):
    return pass_odds("sheepshead", hand, seat=seat, rules={"no_pick": no_pick}, fixed=fixed or ALL_PASS,
                     n_deals=3, seed=1, return_samples=True)


def test_the_fixed_layout_has_everybody_passing():
    assert not any(policy_picks(CardSet.parse(h).mask) for h in [ANALYST, *(ALL_PASS[s] for s in (0, 2, 3, 4))])


def test_no_pick_dealer_picks_plays_the_dealers_forced_pick():
    table, samples = _all_pass("dealer_picks")
    t = table.set_index("outcome")
    assert t.loc["no_pick", "p"] == 1.0 and table.attrs["p_all_pass"] == 1.0
    assert samples.forced.all() and (samples.picker == 4).all()
    expected = recompute(samples.iloc[0], 1)
    assert (samples.payout == expected).all()
    assert t.loc["pass", "ev"] == t.loc["no_pick", "ev"] == expected


@pytest.mark.parametrize("no_pick", ["redeal", "doubler"])
def test_no_pick_thrown_in_pays_nothing(no_pick):
    table, samples = _all_pass(no_pick)
    t = table.set_index("outcome")
    assert (samples.contract == "thrown_in").all() and (samples.picker == -1).all()
    assert t.loc["pass", "ev"] == t.loc["pass", "ev_lo"] == t.loc["pass", "ev_hi"] == 0.0
    assert t.loc["no_pick", "n"] == 3 and t.loc["partner", "n"] == t.loc["defender", "n"] == 0
    assert table.attrs["ev_bounds"] == (0.0, 0.0)


def test_no_pick_leaster_reports_the_paranoid_value_and_bounds():
    table, samples = _all_pass("leaster")
    t = table.set_index("outcome")
    deals = np.array([[CardSet.parse(ALL_PASS[s] if s != 1 else ANALYST).mask for s in range(5)]
                      + [CardSet.parse(ALL_PASS["kitty"]).mask]], dtype=np.uint64)
    value = seat_frame("sheepshead", "leaster", deals, seat=1, rules={"no_pick": "leaster"})["value"].iloc[0]
    assert (samples.contract == "leaster").all() and samples.payout.isna().all()
    assert t.loc["no_pick", "leaster_value"] == value
    assert np.isnan(t.loc["no_pick", "ev"]) and np.isnan(t.loc["pass", "ev"])
    assert table.attrs["ev_bounds"] == (-1.0, 4.0)


def test_the_dealer_may_not_pass_under_dealer_picks():
    dealer_fixed = {s: ALL_PASS[s] for s in (0, 2, 3)} | {1: ANALYST, "kitty": "JH JD"}
    with pytest.raises(ValueError, match="dealer must pick.*passing is not allowed"):
        pass_odds("sheepshead", ALL_PASS[4], seat=4, fixed=dealer_fixed)
    # a leaster table lets the dealer pass
    table, _ = _all_pass("leaster", seat=4, hand=ALL_PASS[4], fixed=dealer_fixed)
    assert table.attrs["p_all_pass"] == 1.0


# -- determinism, bad input, CLI --------------------------------------------------------

def test_deterministic_from_the_seed():
    a, sa = pass_odds("sheepshead", HAND, seat=2, n_deals=60, seed=11, return_samples=True)
    b, sb = pass_odds("sheepshead", HAND, seat=2, n_deals=60, seed=11, return_samples=True)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(sa, sb)
    assert a.attrs == b.attrs
    _, sc = pass_odds("sheepshead", HAND, seat=2, n_deals=60, seed=12, return_samples=True)
    assert not sa[["hand_0", "hand_1"]].equals(sc[["hand_0", "hand_1"]])


@pytest.mark.parametrize("kwargs, message", [
    ({"game": "hearts", "hand": "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"}, "goathead4 only; got hearts"),
    ({"hand": "QC QS JD AH 10H"}, "the hand has 5 cards"),
    ({"seat": 5}, "seat must be 0..4"),
    ({"seat": True}, "seat must be 0..4"),
    ({"n_deals": 0}, "n_deals must be at least 1"),
    ({"n_deals": 2.5}, "n_deals must be a whole number"),
    ({"rules": {"no_pick": "never"}}, "no_pick"),
    ({"leader": 7}, "leader must be a seat"),
    ({"fixed": {2: "QC"}}, "Q♣"),
    ({"fixed": {2: "AS"}, "seat": 2}, "analyst's hand"),
    ({"max_draws": 5}, "max_draws must be at least n_deals"),
    ({"level": 1.5}, "confidence level"),
    ({"return_samples": "yes"}, "return_samples"),
])
def test_bad_input_raises_naming_the_problem(kwargs, message):
    args = {"game": "sheepshead", "hand": HAND, "n_deals": 10}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        pass_odds(args.pop("game"), args.pop("hand"), **args)


def test_cli_prints_the_pass_rows_after_the_contract_table(capsys):
    argv = ["odds", "sheepshead", HAND, "--seat", "3", "--pass", "--pass-deals", "60", "--contract", "jd",
            "--max-deals", "60", "--jobs", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.index("p_make") < out.index("if you pass")
    tail = out[out.index("if you pass"):]
    for word in ("pass", "partner", "defender", "no_pick", "seat 3", "dealer 4"):
        assert word in tail


def test_cli_conditions_the_contract_table_on_the_earlier_passes(monkeypatch, capsys):
    import analysis

    seen = []
    real = analysis.contract_odds

    def spy(game, hand, **kwargs):
        seen.append(kwargs.get("constraints"))
        return real(game, hand, **kwargs)

    monkeypatch.setattr(analysis, "contract_odds", spy)
    common = ["--pass", "--pass-deals", "40", "--contract", "jd", "--max-deals", "40", "--jobs", "1"]
    assert main(["odds", "sheepshead", HAND, "--seat", "3", *common]) == 0
    assert main(["odds", "sheepshead", HAND, "--seat", "0", *common]) == 0
    assert "the contract table above assumes the same" in capsys.readouterr().out
    at3, at0 = seen
    assert at0 is None
    deals = np.zeros((2, 6), dtype=np.uint64)
    deals[0, 1] = CardSet.parse("QC QS JC 7C 8C 9C").mask          # seat 1 would pick
    deals[1, 1] = CardSet.parse("AC 10C KC 7H 8H 9H").mask         # every earlier seat passes
    assert at3.mask(deals).tolist() == [False, True]
    assert earlier_seats_pass("sheepshead", 3).mask(deals).tolist() == [False, True]


@pytest.mark.parametrize("argv, message", [
    (["odds", "hearts", "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "--pass"], "goathead4 only"),
    (["odds", "sheepshead", HAND, "--seat", "4", "--pass"], "passing is not allowed"),
    (["odds", "sheepshead", HAND, "--pass-deals", "5"], "give --pass too"),
])
def test_cli_misuse_of_pass_exits_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("trickcore: error:") and message in err


def test_constraints_and_fixed_cards_condition_the_layouts_too():
    from analysis import Holds

    table, samples = pass_odds("sheepshead", HAND, seat=2, constraints=Holds(4, "QH"), fixed={3: "QD"},
                               n_deals=40, seed=2, return_samples=True)
    qh, qd = CardSet.parse("QH").mask, CardSet.parse("QD").mask
    assert all(int(h) & qh for h in samples.hand_4) and all(int(h) & qd for h in samples.hand_3)
    assert all(not policy_picks(samples[f"hand_{s}"].iloc[i]) for i in range(40) for s in (0, 1))
