"""Sheepshead's crack question (:mod:`analysis.cracking`): the stakes of each option
against the round engine, the table's figures, bad input and the command line."""

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.cracking import crack_multipliers, crack_odds, recrack_odds
from analysis.stakes import heuristic_multiplier
from trickcore import CardSet
from trickcore.policies import HeuristicPolicy
from trickcore.rounds import play_round

DEALER = 4


class Answers(HeuristicPolicy):
    """HeuristicPolicy, but the analyst's seat answers its ``phase`` question ("crack" or
    "recrack") with ``answer``, and picks when asked (the re-crack question's picker)."""

    def __init__(self, answer, phase="crack"):
        super().__init__()
        self.answer = answer
        self.phase = phase
        self.asked = 0

    def bid(self, obs):
        if obs.phase == self.phase:
            self.asked += 1
            return self.answer
        return super().bid(obs)

    def pick_or_pass(self, obs):
        return True if self.phase == "recrack" else super().pick_or_pass(obs)


def _cards(mask):
    return CardSet([c for c in range(64) if (int(mask) >> c) & 1])


@pytest.mark.parametrize("seat,picker,rules", [(3, 1, {}), (4, 0, {}), (2, 0, {"partner": "called_ace"}),
                                               (4, 2, {"blitz": False})])
def test_both_options_are_the_round_engines_stakes(seat, picker, rules):
    """Each sampled layout played by the round engine, the analyst answering no and then
    crack: the picker, the contract, the partner and the multiplier are the model's.

    Where the odds tools' picker goes alone (their documented model, :func:`pass_odds`:
    it raises to ``alone`` when that hand looks stronger) the engine's HeuristicPolicy
    plays the call instead; those layouts are left out, and they are few."""
    hand = "JD QH AC 10C 9D 7S"
    # enough layouts that a seat between the picker and the analyst cracks on some (a
    # defender needs five trumps or four with two queens)
    table, s = crack_odds(hand, seat=seat, picker=picker, rules=rules, n_deals=150, seed=3, return_samples=True)
    asked = compared = 0
    for i in range(len(s)):
        hands = [_cards(s[f"hand_{k}"].iloc[i]) for k in range(5)]
        for answer, column in (("no", "mult_no"), ("crack", "mult_crack")):
            me = Answers(answer)
            pols = [me if k == seat else HeuristicPolicy() for k in range(5)]
            rec = play_round("sheepshead", pols, hands=hands, kitty=_cards(s["blind"].iloc[i]), dealer=DEALER,
                             **rules)
            assert rec.declarer == picker
            if rec.contract != s["contract"].iloc[i]:
                assert s["contract"].iloc[i] == "alone"
                continue
            compared += 1
            assert rec.extra["partner"] == s["partner"].iloc[i]
            assert rec.multiplier == s[column].iloc[i], (i, answer, rec.bids)
            # asked exactly where no seat between the picker and the analyst cracked
            assert me.asked == (0 if s["cracked_before"].iloc[i] else 1)
            asked += me.asked
    assert compared >= 1.5 * len(s)
    assert 0 < asked < compared or seat == picker + 1   # both situations were met


def test_the_heuristic_option_is_the_stakes_model():
    # where the analyst answers as HeuristicPolicy would, the multiplier is analysis.stakes'
    for hand in ("JD QH AC 10C 9D 7S", "QC QS JC JH 9D 8D", "7C 8C 9S 7H 8H AS"):
        _, s = crack_odds(hand, seat=3, picker=1, n_deals=80, seed=5, return_samples=True)
        for c in s["contract"].unique():
            rows = s[s["contract"] == c]
            dealt = rows[[f"hand_{k}" for k in range(5)] + ["blind"]].to_numpy(dtype=np.uint64)
            played = dealt[:, :5].copy()
            played[:, 1] = (dealt[:, 1] | dealt[:, 5]) & ~rows["buried"].to_numpy(dtype=np.uint64)
            partner = rows["partner"].to_numpy()
            m = crack_multipliers(c, dealt, played, 1, 3, partner)
            expected = heuristic_multiplier("sheepshead", c, dealt, played, 1, partner)
            np.testing.assert_array_equal(np.where(m["heuristic"], m["crack"], m["no"]), expected)
            np.testing.assert_array_equal(m["no"], rows["mult_no"].to_numpy())


def test_the_table():
    hand = "QC QS JC AD 10D 9D"       # six trumps: cracking pays
    t, s = crack_odds(hand, seat=4, picker=0, n_deals=300, seed=2, return_samples=True)
    assert t["n"].sum() == 300 and abs(t["p"].sum() - 1) < 1e-12
    decide = t[t["situation"] == "decide"]
    base = s["payout_base"].to_numpy()
    for _, row in decide.iterrows():
        sel = (~s["cracked_before"] & (s["contract"] == row["contract"])
               & ((s["partner"] == 4) == (row["role"] == "partner"))).to_numpy()
        assert row["n"] == sel.sum()
        assert row["ev_no"] == pytest.approx((base * s["mult_no"].to_numpy())[sel].mean())
        assert row["ev_crack"] == pytest.approx((base * s["mult_crack"].to_numpy())[sel].mean())
        assert row["gain"] == pytest.approx(row["ev_crack"] - row["ev_no"])
        assert row["gain_lo"] <= row["gain"] <= row["gain_hi"]
    top = decide.iloc[0]
    assert (top["advice"], top["heuristic"]) == ("crack", "crack") and top["gain_lo"] > 0
    # a crack doubles: where nothing else changes, the gain is the payout at the stake it doubled
    assert (s["mult_crack"] >= s["mult_no"]).all()
    a = t.attrs
    assert a["ev_never"] <= a["ev_advised"] and a["ev_heuristic"] <= a["ev_advised"] + 1e-12
    assert 0 < a["acceptance"] <= 1 and a["picker"] == 0 and a["seat"] == 4
    # a weak hand right after the picker is told not to crack (further on, where the
    # partner cracks anyway when it comes later, a weak defender's crack costs little)
    weak = crack_odds("7C 8C 9S 7H 8H AS", seat=4, picker=3, n_deals=300, seed=2)
    row = weak[weak["situation"] == "decide"].iloc[0]
    assert (row["advice"], row["heuristic"]) == ("no", "no") and row["gain_hi"] < 0
    # the same arguments, the same table
    again = crack_odds(hand, seat=4, picker=0, n_deals=300, seed=2)
    assert again.equals(t)


def test_bad_input():
    with pytest.raises(ValueError, match="picker must come before the analyst"):
        crack_odds("JD QH AC 10C 9D 7S", seat=1, picker=1)
    with pytest.raises(ValueError, match="picker must come before the analyst"):
        crack_odds("JD QH AC 10C 9D 7S", seat=0, picker=3)
    with pytest.raises(ValueError, match="crack rule option is off"):
        crack_odds("JD QH AC 10C 9D 7S", seat=3, picker=1, rules={"crack": False})
    with pytest.raises(ValueError, match="the hand has 5 cards"):
        crack_odds("JD QH AC 10C 9D", seat=3, picker=1)
    with pytest.raises(ValueError, match="seat must be a seat"):
        crack_odds("JD QH AC 10C 9D 7S", seat=5, picker=1)
    with pytest.raises(ValueError, match="n_deals must be at least 1"):
        crack_odds("JD QH AC 10C 9D 7S", seat=3, picker=1, n_deals=0)
    with pytest.raises(ValueError, match="unknown rule option"):
        crack_odds("JD QH AC 10C 9D 7S", seat=3, picker=1, rules={"colour": "red"})
    with pytest.raises(ValueError, match="seat must come after the picker"):
        crack_multipliers("jd", np.zeros((1, 6), np.uint64), np.zeros((1, 5), np.uint64), 2, 2, np.array([-1]))


def test_cli(capsys):
    assert main(["crack", "QC QS JC AD 10D 9D", "--seat", "4", "--picker", "0", "--deals", "200"]) == 0
    out = capsys.readouterr().out
    assert "seat 4" in out and "crack" in out and "ev_no" in out
    assert main(["crack", "QC QS JC AD 10D 9D", "--seat", "4", "--picker", "0", "--deals", "200", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["attrs"]["picker"] == 0 and {r["situation"] for r in shown["rows"]} <= {"decide", "cracked before"}
    assert main(["crack", "QC QS JC AD 10D 9D", "--seat", "0", "--picker", "2"]) == 2
    assert "picker must come before the analyst" in capsys.readouterr().err
    assert main(["crack", "QC QS JC AD 10D 9D", "--seat", "3", "--picker", "1", "--rule", "crack=false"]) == 2
    assert "crack rule option is off" in capsys.readouterr().err
    # the picker's re-crack
    assert main(["crack", "QC QS QH QD JC JS", "--seat", "0", "--recrack", "--deals", "200"]) == 0
    out = capsys.readouterr().out
    assert "you picked" in out and "ev_recrack" in out and "never re-cracking" in out
    for argv in (["--seat", "0"], ["--seat", "2", "--picker", "1", "--recrack"]):
        assert main(["crack", "QC QS QH QD JC JS", *argv]) == 2
        assert "give --picker P" in capsys.readouterr().err
    assert main(["crack", "QC QS QH QD JC JS", "--seat", "4", "--recrack"]) == 2
    assert "is the dealer" in capsys.readouterr().err


@pytest.mark.parametrize("seat,rules", [(0, {}), (1, {"partner": "called_ace"}), (2, {"blitz": False})])
def test_recrack_options_are_the_round_engines_stakes(seat, rules):
    """The picker's re-crack, no and yes, played by the round engine on every layout."""
    compared = asked = 0
    for hand in ("QC QS JD AD 10D 9H", "QH JC JS AD KD 7C"):
        _, s = recrack_odds(hand, seat=seat, rules=rules, n_deals=40, seed=4, return_samples=True)
        for i in range(len(s)):
            hands = [_cards(s[f"hand_{k}"].iloc[i]) for k in range(5)]
            for answer, column in (("no", "mult_no"), ("recrack", "mult_recrack")):
                me = Answers(answer, phase="recrack")
                pols = [me if k == seat else HeuristicPolicy() for k in range(5)]
                rec = play_round("sheepshead", pols, hands=hands, kitty=_cards(s["blind"].iloc[i]),
                                 dealer=DEALER, **rules)
                assert rec.declarer == seat
                if rec.contract != s["contract"].iloc[i]:
                    assert s["contract"].iloc[i] == "alone"     # the odds tools' raise (see above)
                    continue
                compared += 1
                assert rec.multiplier == s[column].iloc[i], (i, answer, rec.bids)
                assert me.asked == (s["cracker"].iloc[i] >= 0)
                cracks = [b for b in rec.bids if b[1] == "crack" and b[2] == "crack"]
                assert [b[0] for b in cracks] == ([s["cracker"].iloc[i]] if s["cracker"].iloc[i] >= 0 else [])
                asked += me.asked
    # (under called_ace the odds tools' picker goes alone on most of these layouts)
    assert compared >= 30 and 0 < asked < compared


def test_recrack_table_and_bad_input():
    t, s = recrack_odds("QC QS QH QD JC JS", seat=0, n_deals=300, seed=2, return_samples=True)
    assert t["n"].sum() == 300
    cracked = t[t["situation"] == "cracked"]
    # (a situation of one layout has no interval: "close")
    assert len(cracked) and ((cracked["advice"] == "recrack") | (cracked["n"] < 2)).all()
    assert (cracked["heuristic"] == "recrack").all()
    for _, row in cracked.iterrows():
        sel = ((s["cracker"] == row["cracker"]) & (s["contract"] == row["contract"])
               & (s["trumps"] == row["trumps"]) & ((s["partner"] < 0) == row["alone"])).to_numpy()
        pay = s["payout_base"].to_numpy()[sel]
        assert row["ev_recrack"] == pytest.approx((pay * s["mult_recrack"].to_numpy()[sel]).mean())
        assert row["gain"] == pytest.approx(row["ev_recrack"] - row["ev_no"])
    assert set(t.loc[t["situation"] == "not cracked", "cracker"]) == {-1}
    # HeuristicPolicy re-cracks with four trumps after the burial (alone: six, or five with
    # four queens and jacks)
    from analysis.stakes import trump_mask
    from trickcore.policies.heuristic import sheepshead_recracks
    seen = set()
    high_mask = np.uint64(CardSet("QC QS QH QD JC JS JH JD").mask)
    for hand in ("QC QS JD AD 10D 9H", "QC JH AD 9D 7S 8H", "QH 7D 8C 9C 7S 8H"):
        t, s = recrack_odds(hand, seat=1, n_deals=200, seed=7, return_samples=True)
        kept = (s["hand_1"].to_numpy(np.uint64) | s["blind"].to_numpy(np.uint64)) & ~s["buried"].to_numpy(np.uint64)
        trumps = np.bitwise_count(kept & trump_mask("jd", {}))
        alone = s["partner"].to_numpy() < 0
        yes = sheepshead_recracks(trumps, np.bitwise_count(kept & high_mask), alone)
        pay = s["payout_base"].to_numpy()
        expected = np.where(yes, pay * s["mult_recrack"].to_numpy(), pay * s["mult_no"].to_numpy()).mean()
        assert t.attrs["ev_heuristic"] == pytest.approx(expected)
        seen |= set(yes[s["cracker"].to_numpy() >= 0].tolist())
        # the picker knows its hand after the burial and whether it has a partner: each
        # situation is one trump count, alone or not
        asked = t[t["situation"] == "cracked"]
        alone_rule = np.where(asked["trumps"] >= 6, "recrack", np.where(asked["trumps"] == 5, "some", "no"))
        rule = np.where(asked["alone"], alone_rule, np.where(asked["trumps"] >= 4, "recrack", "no"))
        assert ((asked["heuristic"] == rule) | ((rule == "some") & asked["heuristic"].isin(["recrack", "no"]))).all()
        np.testing.assert_array_equal(s["trumps"].to_numpy(), trumps)
    assert seen == {False, True}
    weak = recrack_odds("JD 9D 8D AC 7S 8H", seat=2, n_deals=300, seed=2)
    assert (weak.loc[weak["situation"] == "cracked", "advice"] == "no").all()
    with pytest.raises(ValueError, match="is the dealer"):
        recrack_odds("QC QS QH QD JC JS", seat=4)
    with pytest.raises(ValueError, match="crack rule option is off"):
        recrack_odds("QC QS QH QD JC JS", seat=0, rules={"crack": False})
    with pytest.raises(ValueError, match="the hand has 7 cards"):
        recrack_odds("QC QS QH QD JC JS 7C", seat=0)


def test_known_cards_and_constraints_shape_the_layouts():
    from analysis.constraints import Holds

    ac = CardSet("AC").mask
    qd = CardSet("QD").mask
    _, s = crack_odds("JD QH 10C 9D 7S 8S", seat=3, picker=1, fixed={2: "AC"}, n_deals=50, seed=1,
                      return_samples=True)
    assert ((s["hand_2"].to_numpy(np.uint64) & np.uint64(ac)) != 0).all()
    _, s = recrack_odds("JD QH 10C 9D 7S 8S", seat=1, constraints=Holds(3, "QD"), n_deals=50, seed=1,
                        return_samples=True)
    assert ((s["hand_3"].to_numpy(np.uint64) & np.uint64(qd)) != 0).all()
    with pytest.raises(ValueError, match="do not fix its cards again"):
        crack_odds("JD QH 10C 9D 7S 8S", seat=3, picker=1, fixed={3: "AC"})
