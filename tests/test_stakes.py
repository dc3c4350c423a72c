"""Sheepshead's stakes model (:mod:`analysis.stakes`) against the round engine, and its
use by the odds tools (``stakes="heuristic"``)."""

import numpy as np
import pytest

from analysis.odds import contract_odds
from analysis.passing import pass_odds
from analysis.stakes import heuristic_multiplier
from trickcore import CardSet, get_game
from trickcore.deals import random_deals
from trickcore.policies import HeuristicPolicy
from trickcore.rounds import play_round

DEALER = 4  # analysis's convention: the dealer is the last seat


def _engine_rounds(n, seed, **rules):
    """Heuristic rounds on seeded deals: (record, dealt hands) pairs."""
    deals = random_deals("sheepshead", n, seed=seed)
    for d in deals:
        hands = \
            [CardSet([c for c in range(64) if (int(x) >> c) & 1]) for x in d[:5]]
        kitty = CardSet([c for c in range(64) if (int(d[5]) >> c) & 1])
        rec = play_round("sheepshead", [HeuristicPolicy() for _ in range(5)], hands=hands, kitty=kitty,
                         dealer=DEALER, **rules)
        yield rec, d


@pytest.mark.parametrize("rules", [{}, {"blitz": False}, {"crack": False}, {"partner": "called_ace"},
                                   {"blitz": False, "crack": False}])
def test_multiplier_is_the_round_engines(rules):
    """Every round the engine plays with HeuristicPolicy: the same multiplier."""
    seen = set()
    for rec, dealt in _engine_rounds(150, 7, **rules):
        played = np.zeros(5, dtype=np.uint64)
        for t in rec.tricks:
            for s, c in t.plays:
                played[s] |= np.uint64(1) << np.uint64(int(c))
        got = heuristic_multiplier("sheepshead", rec.contract, dealt[None, :5], played[None, :],
                                   picker=rec.declarer, partner=np.array([rec.extra["partner"]]), rules=rules)
        assert int(got[0]) == rec.multiplier, (rec.contract, rec.declarer, rec.bids)
        seen.add(rec.multiplier)
    if not rules.get("blitz", True) and not rules.get("crack", True):
        assert seen == {1}
    else:
        assert len(seen) >= 3   # the test sees blitzes, cracks and re-cracks, not only x1


def test_multiplier_bad_input():
    d = np.zeros((2, 6), dtype=np.uint64)
    with pytest.raises(ValueError, match="picker must be a seat"):
        heuristic_multiplier("sheepshead", "jd", d, d, picker=5, partner=np.array([-1, -1]))
    with pytest.raises(ValueError, match="one seat per"):
        heuristic_multiplier("sheepshead", "jd", d, d, picker=0, partner=np.array([-1]))
    with pytest.raises(ValueError, match="has none"):
        heuristic_multiplier("goathead3", "clubs", d, d, picker=0, partner=np.array([-1, -1]))


def test_contract_odds_stakes():
    hand = "QC QS JD AH 10H 9C"   # both black queens: the heuristic picker always blitzes
    kw = dict(seat=0, contracts=["jd"], method="sample", max_deals=300, seed=3, target_se=1e-9)
    base = contract_odds("sheepshead", hand, **kw)
    staked = contract_odds("sheepshead", hand, stakes="heuristic", **kw)
    assert staked.attrs["stakes"] == "heuristic" and base.attrs["stakes"] == "base"
    assert (base.multiplier == 1).all()
    # at least the blitz (x2) on every layout, more where somebody cracks or red-blitzes
    assert staked.multiplier.iloc[0] > 2
    # same layouts, same play: the make rate does not move, the payout scales layout by layout
    assert staked.p_make.iloc[0] == base.p_make.iloc[0]
    assert abs(staked.ev.iloc[0]) > 2 * abs(base.ev.iloc[0]) - 1e-9 or np.sign(staked.ev.iloc[0]) != np.sign(base.ev.iloc[0])
    off = contract_odds("sheepshead", hand, stakes="heuristic", rules={"blitz": False, "crack": False}, **kw)
    plain = contract_odds("sheepshead", hand, rules={"blitz": False, "crack": False}, **kw)
    assert off.ev.iloc[0] == pytest.approx(plain.ev.iloc[0]) and (off.multiplier == 1).all()
    with pytest.raises(ValueError, match="unknown stakes"):
        contract_odds("sheepshead", hand, stakes="double", **kw)
    with pytest.raises(ValueError, match="has none"):
        contract_odds("goathead3", "JC JS JH JD AC 10C", stakes="heuristic", max_deals=10)


def test_pass_odds_stakes_scale_each_layout():
    """Per layout, the staked payout is the base payout times the engine-checked multiplier."""
    kw = dict(seat=1, n_deals=120, seed=5, return_samples=True)
    hand = "QH QD AC 10S 9S 8H"      # both red queens: a red blitz whoever picks
    base, sb = pass_odds("sheepshead", hand, **kw)
    staked, ss = pass_odds("sheepshead", hand, stakes="heuristic", **kw)
    picked = sb.picker.to_numpy() >= 0
    assert picked.any()
    m = ss.multiplier.to_numpy()
    assert (m[picked] >= 2).all() and (m[~picked] == 1).all()
    np.testing.assert_allclose(ss.payout.to_numpy()[picked], sb.payout.to_numpy()[picked] * m[picked])
    assert staked.attrs["stakes"] == "heuristic"


def test_cli_odds_stakes(capsys):
    from analysis.cli import main

    args = ["odds", "sheepshead", "QC QS JD AH 10H 9C", "--contract", "jd", "--method", "sample",
            "--max-deals", "64", "--jobs", "1", "--json"]
    assert main(args + ["--stakes", "heuristic", "--pass", "--pass-deals", "40"]) == 0
    import json

    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert lines[0][0]["multiplier"] > 2 and all(r["multiplier"] is None or r["multiplier"] >= 1 for r in lines[1])
    assert main(["odds", "goathead3", "JC JS JH JD AC 10C", "--stakes", "heuristic", "--max-deals", "8"]) == 2
    assert "has none" in capsys.readouterr().err


def test_heuristic_crack_answers_follow_the_rules():
    """Every crack answer of the engine's HeuristicPolicy table, and every re-crack it
    announces (a declined one stays private), is the rule of :func:`sheepshead_cracks` /
    :func:`sheepshead_recracks` recomputed from the round's record, and the rounds reach
    the rules' branches (a partner cracking with few trumps, a defender declining with
    four, a re-crack with four)."""
    from trickcore.policies.heuristic import sheepshead_cracks, sheepshead_recracks

    branches = set()
    for rec, _ in _engine_rounds(300, 11):
        if rec.contract == "leaster":
            continue
        hand = {s: CardSet([c for t in rec.tricks for p, c in t.plays if p == s]) for s in range(5)}
        trumps = set(get_game("sheepshead").layout(rec.contract).suits[-1])
        partner = rec.extra["partner"]
        for seat, phase, answer in rec.bids:
            if phase not in ("crack", "recrack"):
                continue
            t = [c for c in hand[seat] if c in trumps]
            queens = sum(c.rank_name == "Q" for c in t)
            high = queens + sum(c.rank_name == "J" for c in t)
            if phase == "crack":
                want = sheepshead_cracks(len(t), queens, seat == partner)
                if seat == partner and len(t) < 4:
                    branches.add("partner cracks with few trumps")
                if seat != partner and len(t) == 4 and not want:
                    branches.add("defender with four trumps declines")
            else:
                want = sheepshead_recracks(len(t), high, seat == rec.declarer and partner < 0)
                if want and len(t) == 4:
                    branches.add("re-crack with four")
            assert (answer == phase) == want, (seat, phase, answer, str(hand[seat]), partner)
    assert branches == {"partner cracks with few trumps", "defender with four trumps declines", "re-crack with four"}
