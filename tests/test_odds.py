"""contract_odds: exact enumeration against a direct computation, sampling, policies, errors."""

import numpy as np
import pandas as pd
import pytest

from analysis import Holds, compare_kitty_policies, contract_odds, evaluate, heuristic_exchange
from analysis.constraints import Count
from trickcore.cards import CardSet
from trickcore.deals import count_deals, enumerate_deals

HAND = "JC JS AH 10H AC KD"
# Seat 1's hand known too: 8 unseen cards, C(8, 2) = 28 layouts (seat 2 and the kitty).
KNOWN = {1: "JH JD KH QH 10C QS"}


def test_exact_matches_direct_enumeration():
    odds = contract_odds("goathead3", HAND, contracts=["hearts", "court"], fixed=KNOWN, kitty_policy="none")
    assert odds.attrs["method"] == "exact" and odds.attrs["n_layouts"] == 28
    assert (odds["method"] == "exact").all() and (odds["n"] == 28).all()
    deals = enumerate_deals("goathead3", {0: HAND, **KNOWN})
    for c in ("hearts", "court"):
        f = evaluate("goathead3", c, deals)
        row = odds.set_index("contract").loc[c]
        assert row.p_make == pytest.approx(f.made.astype(float).mean())
        assert row.ev == pytest.approx(f.payout_0.mean())
        assert row.p_make_lo == row.p_make == row.p_make_hi      # exact: no sampling error
        assert row.ev_lo == row.ev == row.ev_hi


def test_sampled_interval_covers_exact_and_is_labelled():
    # Spades: made on 21 of the 28 layouts, payouts vary (hearts is made on every layout
    # for the same payout, which any interval around the sample covers)
    exact = contract_odds("goathead3", HAND, contracts="spades", fixed=KNOWN, kitty_policy="none").iloc[0]
    assert exact.p_make == 0.75
    s = contract_odds("goathead3", HAND, contracts="spades", fixed=KNOWN, kitty_policy="none", method="sample",
                      target_se=0.03, max_deals=2000, chunk_size=100, seed=4)
    row = s.iloc[0]
    assert s.attrs["method"] == "sampled" and row["method"] == "sampled"
    assert row.p_make_lo <= exact.p_make <= row.p_make_hi
    assert row.ev_lo <= exact.ev <= row.ev_hi
    # and not trivially wide: the half-widths are 1.96 standard errors of the n layouts,
    # the standard deviations known exactly from the 28 layouts
    payout = evaluate("goathead3", "spades", enumerate_deals("goathead3", {0: HAND, **KNOWN})).payout_0
    assert payout.mean() == pytest.approx(exact.ev)
    n = row.n
    assert 200 <= n < 2000                               # stopped by the target, not the budget
    se_p, se_ev = np.sqrt(0.75 * 0.25 / n), payout.std(ddof=0) / np.sqrt(n)
    assert (row.p_make_hi - row.p_make_lo) / 2 == pytest.approx(1.96 * se_p, rel=0.1)
    assert (row.ev_hi - row.ev_lo) / 2 == pytest.approx(1.96 * se_ev, rel=0.1)


def test_auto_enumerates_when_small_and_samples_when_large():
    # Kitty known as well: C(12, 6) = 924 layouts -> exact under the default limit.
    fixed = {"kitty": "KC QC"}
    assert count_deals("goathead3", {0: HAND, **fixed}) == 924
    o = contract_odds("goathead3", HAND, contracts="spades", fixed=fixed, kitty_policy="none")
    assert o.attrs["method"] == "exact" and o.n.iloc[0] == 924
    o = contract_odds("goathead3", HAND, contracts="spades", fixed=fixed, kitty_policy="none", exact_limit=900,
                      target_se=0.05, chunk_size=64, seed=1)
    assert o.attrs["method"] == "sampled" and o.n.iloc[0] < 924


def test_stopping_rule_and_njobs_independence():
    kw = dict(contracts=["hearts", "clubs"], method="sample", chunk_size=32, seed=8, kitty_policy="heuristic")
    loose = contract_odds("goathead3", HAND, target_se=0.2, max_deals=320, **kw)
    assert (loose.n == 32).all()                                   # one chunk was enough
    tight = contract_odds("goathead3", HAND, target_se=0.001, max_deals=96, **kw)
    assert (tight.n == 96).all()                                   # budget reached
    par = contract_odds("goathead3", HAND, target_se=0.001, max_deals=96, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(tight, par)


def test_dd_best_is_an_upper_bound_on_every_policy():
    kw = dict(contracts="hearts", fixed=KNOWN)
    none = contract_odds("goathead3", HAND, kitty_policy="none", **kw).iloc[0]
    heur = contract_odds("goathead3", HAND, kitty_policy="heuristic", **kw).iloc[0]
    best = contract_odds("goathead3", HAND, kitty_policy="dd_best", **kw)
    assert best.attrs["optimistic"] is True
    b = best.iloc[0]
    assert b.ev >= none.ev - 1e-12 and b.ev >= heur.ev - 1e-12


def test_heuristic_exchange_rules():
    hands = np.array([CardSet.parse("JC QC KH QH KS QS").mask, CardSet.parse("JC JS JH AC 10C AH").mask], dtype=np.uint64)
    kitty = np.array([CardSet.parse("JS 10H").mask, CardSet.parse("KC QD").mask], dtype=np.uint64)
    ex, new, buried = heuristic_exchange("goathead3", "clubs", hands, kitty)
    assert ex.tolist() == [True, False]                     # weak hand picks up, strong keeps
    assert CardSet(int(new[0])) >= CardSet.parse("JC JS QC")  # trumps are never buried
    assert CardSet.parse("10H") <= CardSet(int(buried[0]))  # the unguarded ten goes to the kitty
    assert int(new[1]) == int(hands[1]) and int(buried[1]) == int(kitty[1])
    for h, k, n_, b in zip(hands, kitty, new, buried):
        assert int(n_) | int(b) == int(h) | int(k) and int(n_) & int(b) == 0 and bin(int(b)).count("1") == 2


def test_constraints_condition_the_layouts():
    base = dict(contracts="hearts", fixed=KNOWN, kitty_policy="none")
    o = contract_odds("goathead3", HAND, constraints=Count(2, "AD 10D", min=2), **base)
    deals = enumerate_deals("goathead3", {0: HAND, **KNOWN})
    assert o.n.iloc[0] == int(Count(2, "AD 10D", min=2).mask(deals).sum())
    with pytest.raises(ValueError, match="no layout"):
        contract_odds("goathead3", HAND, constraints=Holds(2, "JD"), **base)  # J♦ is fixed in seat 1


@pytest.mark.parametrize("hand, kwargs, match", [
    ("JC JS AH 10H AC", {}, "5 cards"),
    ("JC JS AH 10H AC KD QD", {}, "7 cards"),
    ("JC JS AH 10H AC 9D", {}, "not in the deck"),
    ("JC JC AH 10H AC KD", {}, "duplicate"),
    ("JC JS AH 10H AC ZZ", {}, "malformed"),
    (HAND, {"contracts": "bridge"}, "unknown contract"),
    (HAND, {"contracts": "leasters"}, "no declarer"),
    (HAND, {"kitty_policy": "psychic"}, "unknown kitty_policy"),
    (HAND, {"method": "guess"}, "unknown method"),
    (HAND, {"seat": 3}, "seat must be"),
    (HAND, {"rules": {"colour": 1}}, "unknown rule option"),
    (HAND, {"fixed": {1: "JC"}}, "already fixed"),
])
def test_bad_input(hand, kwargs, match):
    with pytest.raises(ValueError, match=match):
        contract_odds("goathead3", hand, **kwargs)


def test_unsatisfiable_predicate_when_sampling():
    with pytest.raises(ValueError, match="no deal out of"):
        contract_odds("goathead3", HAND, contracts="hearts", method="sample", max_deals=64, chunk_size=64,
                      constraints=Count(1, "JH JD", min=2) & Count(2, "JH JD", min=1))


def test_compare_kitty_policies_is_paired():
    kw = dict(contracts="hearts", fixed=KNOWN)
    c = compare_kitty_policies("goathead3", HAND, "dd_best", "none", **kw)
    row = c.iloc[0]
    assert c.attrs["method"] == "exact" and c.attrs["optimistic"] is True
    none = contract_odds("goathead3", HAND, kitty_policy="none", **kw).iloc[0]
    best = contract_odds("goathead3", HAND, kitty_policy="dd_best", **kw).iloc[0]
    assert row.a == pytest.approx(best.ev) and row.b == pytest.approx(none.ev)
    assert row["diff"] == pytest.approx(row.a - row.b) and row["diff"] > 0    # 7.571 - 4: the kitty helps
    assert row.diff_lo == row["diff"] == row.diff_hi
    s = compare_kitty_policies("goathead3", HAND, "heuristic", "none", contracts="clubs", method="sample",
                               max_deals=64, chunk_size=32, seed=3)
    assert s.attrs["method"] == "sampled" and s.n.iloc[0] == 64
    assert s["diff"].iloc[0] == pytest.approx(s.a.iloc[0] - s.b.iloc[0])
    assert s.diff_lo.iloc[0] < s["diff"].iloc[0] < s.diff_hi.iloc[0]
    with pytest.raises(ValueError, match="unknown kitty_policy"):
        compare_kitty_policies("goathead3", HAND, "psychic", "none")


@pytest.mark.slow
def test_full_goathead_hand_is_enumerated_exactly():
    """One 3-player Goathead hand: all 84,084 layouts of the unseen cards (~20-60 s)."""
    o = contract_odds("goathead3", HAND, contracts="hearts", n_jobs=2, chunk_size=8192, progress=False)
    assert o.attrs["method"] == "exact" and o.attrs["n_layouts"] == 84084 and o.n.iloc[0] == 84084
    s = contract_odds("goathead3", HAND, contracts="hearts", method="sample", target_se=0.01, seed=2,
                      n_jobs=2, progress=False)
    assert s.p_make_lo.iloc[0] <= o.p_make.iloc[0] <= s.p_make_hi.iloc[0]


# -- payout standard error in the stopping rule ------------------------------------------

def _sums(n, made, pay_s1, pay_s2, lo, hi, k=None):
    return pd.DataFrame({"n": [n], "made__s1": [made], "payout__k": [n if k is None else k], "payout__s1": [pay_s1],
                         "payout__s2": [pay_s2], "payout__min": [lo], "payout__max": [hi]})


def test_precise_enough_needs_both_targets():
    from analysis.odds import _precise_enough

    # 400 layouts, p = 1/2: SE 0.025.  Payouts 200 x (+1) and 200 x (-1): mean 0, sd 1.0025,
    # SE 0.0501; range 2.
    s = _sums(400, 200, 0.0, 400.0, -1.0, 1.0)
    assert _precise_enough(s, 0.03)                  # payout: 0.0501 <= 0.03 * 2 = 0.06
    assert not _precise_enough(s, 0.024)             # p fails (0.025 > 0.024)
    # p = 0.1: SE 0.015 passes 0.02, the payout (0.0501 > 0.02 * 2) does not
    s1 = _sums(400, 40, 0.0, 400.0, -1.0, 1.0)
    assert not _precise_enough(s1, 0.02) and _precise_enough(s1, 0.026)
    assert not _precise_enough(s, 0.03, target_ev_se=0.05)   # absolute: 0.0501 > 0.05
    assert _precise_enough(s, 0.03, target_ev_se=0.051)
    # payouts of a 10x scale: the relative target scales with them, the absolute does not
    s10 = _sums(400, 200, 0.0, 40000.0, -10.0, 10.0)
    assert _precise_enough(s10, 0.03) and not _precise_enough(s10, 0.03, target_ev_se=0.051)
    # a payout the analysis leaves undefined (leasters) sets no target
    assert _precise_enough(_sums(400, 200, 0.0, 0.0, np.inf, -np.inf, k=0), 0.03)


def test_stopping_reports_its_criterion():
    kw = dict(contracts=["hearts", "clubs"], method="sample", chunk_size=32, seed=8, kitty_policy="none")
    loose = contract_odds("goathead3", HAND, target_se=0.2, max_deals=320, **kw)
    assert loose.attrs["stopped_by"] == "target_se" and (loose.n == 32).all()
    # the same probabilities target, a payout target it cannot reach: the budget stops it
    strict = contract_odds("goathead3", HAND, target_se=0.2, target_ev_se=1e-6, max_deals=96, **kw)
    assert strict.attrs["stopped_by"] == "max_deals" and (strict.n == 96).all()
    # an absolute payout target between: stops at the first chunk where every payout SE meets it
    t = 0.15
    mid = contract_odds("goathead3", HAND, target_se=0.2, target_ev_se=t, max_deals=3200, **kw)
    se = lambda o: (o.ev_hi - o.ev) / 1.96                                     # noqa: E731
    assert mid.attrs["stopped_by"] == "target_se" and (se(mid) <= t * 1.01).all()
    n = int(mid.n.iloc[0])
    assert n > 32
    before = contract_odds("goathead3", HAND, target_se=0.2, target_ev_se=t, max_deals=n - 32, **kw)
    assert before.attrs["stopped_by"] == "max_deals" and (se(before) > t * 0.99).any()
    exact = contract_odds("goathead3", HAND, contracts="hearts", fixed=KNOWN, kitty_policy="none")
    assert exact.attrs["stopped_by"] == "exact"
    with pytest.raises(ValueError, match="target_ev_se"):
        contract_odds("goathead3", HAND, target_ev_se=0, **kw)


# -- kitty decisions: Sheepshead and 4-player Goathead -------------------------------------

SHEEP = ["10S KH QH 10D QC 10C", "AH 7H QD 9D 7D 7C", "JH 9H KD JD 8D 9C", "KS JS 8H AD KC JC",
         "QS 9S 8S 7S 10H 8C", "AS AC"]   # seat 0 picks; the blind is A♠ A♣


def _sheep_deal():
    return np.array([[CardSet.parse(h).mask for h in SHEEP]], dtype=np.uint64)


def test_sheepshead_bury_heuristic():
    h, k = _sheep_deal()[:, 0], _sheep_deal()[:, 5]
    ex, new, buried = heuristic_exchange("sheepshead", "jd", h, k)
    assert bool(ex[0])                                        # the picker always takes the blind
    assert str(CardSet(int(buried[0]))) == "10♠ 10♣"          # the fail tens (10 points each) go
    assert CardSet.parse("AS AC QC QH 10D") <= CardSet(int(new[0]))   # trumps and fail aces stay
    # a called-ace picker keeps its only card of the called suit (K♥), burying another
    ex, new, buried = heuristic_exchange("sheepshead", "called_ace_hearts", h, k, {"partner": "called_ace"})
    assert CardSet.parse("KH") <= CardSet(int(new[0]))
    ex, new, buried = heuristic_exchange("sheepshead", "jd", np.array([CardSet.parse("KH 9S 8S QC QS JC").mask],
                                         dtype=np.uint64), np.array([CardSet.parse("AD 7S").mask], dtype=np.uint64))
    assert str(CardSet(int(buried[0]))) == "9♠ K♥"            # most points first, never a trump


def test_sheepshead_kitty_policies_against_brute_force():
    """One fully known deal: ``dd_best`` is the best of every burial (keeping a heart, the called
    suit) and going alone, each scored directly; ``heuristic`` and ``none`` score their own play."""
    import itertools

    rules = {"partner": "called_ace"}
    deal = _sheep_deal()
    fixed = {s: SHEEP[s] for s in range(1, 5)}
    cons = ["called_ace_hearts", "alone"]
    odds = {p: contract_odds("sheepshead", SHEEP[0], fixed=fixed, rules=rules, contracts=cons, kitty_policy=p)
            .set_index("contract") for p in ("none", "heuristic", "dd_best")}
    assert all(o.attrs["method"] == "exact" and (o.n == 1).all() for o in odds.values())

    def pay(contract, hand, kitty, exchanged=True):
        d = deal.copy()
        d[0, 0], d[0, 5] = hand, kitty
        return float(evaluate("sheepshead", contract, d, rules=rules, kitty=np.array([kitty], dtype=np.uint64),
                              exchanged=exchanged).payout_0.iloc[0])

    pool = CardSet(int(deal[0, 0]) | int(deal[0, 5]))
    hearts = CardSet.parse("KH").mask                          # the only fail heart in the pool
    best = {c: -np.inf for c in cons}
    for pair in itertools.combinations(list(pool), 2):
        bury = CardSet(pair).mask
        keep = pool.mask & ~bury
        for c in cons:
            targets = [c] if c == "alone" else [c, "alone"]   # a called-ace picker may go alone instead
            for t in targets:
                if t.startswith("called_") and not keep & hearts:
                    continue
                best[c] = max(best[c], pay(t, keep, bury))
    for c in cons:
        assert odds["dd_best"].loc[c, "ev"] == best[c]
        assert odds["none"].loc[c, "ev"] == pay(c, int(deal[0, 0]), int(deal[0, 5]), exchanged=False)
        ex, new, buried = heuristic_exchange("sheepshead", c, deal[:, 0], deal[:, 5], rules)
        assert odds["heuristic"].loc[c, "ev"] == pay(c, int(new[0]), int(buried[0]))
        assert odds["dd_best"].loc[c, "ev"] >= odds["heuristic"].loc[c, "ev"]
    assert odds["dd_best"].attrs["optimistic"] and (odds["heuristic"].p_exchange == 1).all()


GH4 = ["JC AD KD 10H", "JS AC KC QC", "JH AS KS QH", "JD AH KH QS", "10D 10C 10S QD"]


def test_goathead4_kitty_round_against_brute_force():
    """One fully known deal: ``dd_best`` is the best of the declarer keeping or making any of
    its 16 swaps (the others follow the heuristic), each scored directly."""
    from analysis.odds import heuristic_swaps

    deal = np.array([[CardSet.parse(h).mask for h in GH4]], dtype=np.uint64)
    fixed = {s: GH4[s] for s in range(1, 4)}
    for contract in ("court", "diamonds"):
        odds = {p: contract_odds("goathead4", GH4[0], fixed=fixed, contracts=contract, kitty_policy=p).iloc[0]
                for p in ("none", "heuristic", "dd_best")}

        def pay(first):
            d, swapped = heuristic_swaps("goathead4", contract, deal, 0, first=first)
            f = evaluate("goathead4", contract, d, kitty=d[:, 4], exchanged=swapped)
            return float(f.payout_0.iloc[0]), bool(swapped[0])

        no = (np.array([False]), np.array([0]), np.array([0]))
        options = [pay(no)] + [pay((np.array([True]), np.array([int(g)]), np.array([int(t)])))
                               for g in CardSet(int(deal[0, 0])) for t in CardSet(int(deal[0, 4]))]
        assert len(options) == 17
        assert odds["dd_best"].ev == max(p for p, _ in options)
        assert odds["none"].ev == options[0][0] and odds["none"].p_exchange == 0
        h_pay, h_swapped = pay(None)
        assert odds["heuristic"].ev == h_pay and odds["heuristic"].p_exchange == float(h_swapped)
        assert odds["dd_best"].ev >= max(odds["heuristic"].ev, odds["none"].ev)


def test_goathead4_swaps_keep_the_cards_and_the_rules():
    from analysis.odds import heuristic_swaps
    from trickcore.deals import random_deals

    deals = random_deals("goathead4", 200, seed=3)
    for contract in ("clubs", "nil", "court"):
        new, swapped = heuristic_swaps("goathead4", contract, deals, 1, leader=2)
        assert (np.bitwise_or.reduce(new, axis=1) == np.bitwise_or.reduce(deals, axis=1)).all()
        assert (np.bitwise_count(new) == 4).all()                     # four cards everywhere
        changed = (new != deals).any(axis=1)
        assert swapped.sum() <= changed.sum()
        if contract == "nil":                                         # only the declarer swaps
            assert (new[:, [0, 2, 3]] == deals[:, [0, 2, 3]]).all()
    # a strong declarer (3 of 4 trumps / side aces) keeps its hand for the no-exchange point
    strong = np.array([[CardSet.parse(h).mask for h in GH4]], dtype=np.uint64)
    _, swapped = heuristic_swaps("goathead4", "diamonds", strong, 0)
    assert not swapped[0]
    with pytest.raises(ValueError, match="no kitty round"):
        heuristic_swaps("goathead3", "clubs", deals[:, :4], 0)


def test_sheepshead_heuristic_goes_alone_with_six_trumps_and_aces():
    # The picker (Q♣ Q♠ Q♥ Q♦ A♥ 7♣) finds J♣ 8♠ in the blind: burying 7♣ 8♠ leaves six trumps
    # and fail aces, so instead of calling the club ace it plays alone.
    rules = {"partner": "called_ace"}
    hands = ["QC QS QH QD AH 7C", "JS JH AC 10C KS 9H", "JD AD 10D KC 9C 8H", "KD 9D 8D AS 10S 7H",
             "7D 8C 9S 7S 10H KH", "JC 8S"]
    o = contract_odds("sheepshead", hands[0], fixed={s: hands[s] for s in range(1, 5)}, rules=rules,
                      contracts="called_ace_clubs").iloc[0]
    assert o.n == 1 and o.p_raise == 1 and o.p_exchange == 1
    deal = np.array([[CardSet.parse(h).mask for h in hands]], dtype=np.uint64)
    deal[0, 0], deal[0, 5] = CardSet.parse("QC QS QH QD JC AH").mask, CardSet.parse("7C 8S").mask
    alone = evaluate("sheepshead", "alone", deal, rules=rules, exchanged=True).iloc[0]
    assert o.ev == alone.payout_0 and o.points == alone.picking_points


@pytest.mark.parametrize("game, hand, fixed, contracts, rules, method", [
    ("goathead3", HAND, KNOWN, ["hearts", "clubs", "court"], {}, "exact"),                    # 28 layouts
    ("goathead3", HAND, KNOWN, ["hearts", "clubs"], {"kitty_points": "if_exchanged"}, "exact"),
    ("goathead4", GH4[0], {1: GH4[1], 2: GH4[2]}, ["court", "diamonds"], {}, "exact"),       # 70
    ("sheepshead", "QC QS JD AH 10H 9C", None, ["jd", "alone"], {}, "sample"),
    ("sheepshead", "QC QS JC AD 10D 9D", None, ["called_ace_hearts", "alone"], {"partner": "called_ace"}, "sample"),
])
@pytest.mark.parametrize("kitty_policy", ["none", "heuristic", "dd_best"])
def test_payout_only_solving_gives_the_same_table_but_points(game, hand, fixed, contracts, rules, method,
                                                             kitty_policy):
    """``policy="dd_payout"`` solves each layout only to the scorer's cuts (for its own kitty
    and exchange): every make rate, payout, exchange and raise equals the exact solves'; the
    points are not known."""
    kw = dict(fixed=fixed, contracts=contracts, rules=rules, method=method, kitty_policy=kitty_policy, seed=4,
              max_deals=48, chunk_size=48, target_se=1e-9, n_jobs=1)
    exact = contract_odds(game, hand, **kw)
    fast = contract_odds(game, hand, policy="dd_payout", **kw)
    assert (exact.n > 0).all() and fast.attrs["policy"] == "dd_payout"
    same = [c for c in exact.columns if not c.startswith("points")]
    pd.testing.assert_frame_equal(fast[same], exact[same])
    assert fast.points.isna().all() and exact.points.notna().all()


def test_payout_only_solving_needs_the_scorers_cuts():
    with pytest.raises(ValueError, match="dd_payout"):
        contract_odds("clover", "JC QC KC AC 10C 9C 8C 7C", policy="dd_payout", method="sample", max_deals=8)
