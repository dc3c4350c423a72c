"""Goathead's ``raise_without_exchange`` and Sheepshead's ``leaster_tie`` options, and rules
of both games that were correct but untested: Sheepshead's called ten, consecutive
doublers, Goathead's first lead in declared contracts, Goathead 4's two black jacks."""

from __future__ import annotations

import pandas as pd
import pytest

from trickcore.cards import Card, CardSet
from trickcore.games import get_game
from trickcore.policies import PIMCPolicy, RandomPolicy
from trickcore.rounds import play_match, start_round
from trickcore.scoring import score


def _first_legal(r):
    d = r.pending
    r.act(d.legal[0] if d.count == 1 else tuple(d.legal[: d.count]))


def _drive(r):
    """Finish the round with the first legal answers; the phases asked on the way."""
    phases = []
    while not r.done:
        phases.append(r.pending.phase or r.pending.kind)
        _first_legal(r)
    return phases


# -- Goathead: raise_without_exchange ----------------------------------------------------
G3_HANDS = ["JC JS AC 10C KC QC", "JH JD AD 10D KD QD", "AH 10H KH QH AS 10S"]


def _g3_declared(take, **rules):
    """Seat 0 bids clubs, the others pass, seat 0 takes the kitty or not."""
    r = start_round("goathead3", hands=G3_HANDS, kitty="KS QS", dealer=2, **rules)
    r.act("clubs").act("pass").act("pass")
    assert r.pending.kind == "pick_or_pass" and r.pending.seat == 0
    r.act(take)
    if take:
        r.act(("KS", "QS"))
    return r


def test_raise_without_exchange_option_is_registered_with_default_true():
    for gid in ("goathead3", "goathead4"):
        opt = get_game(gid).options["raise_without_exchange"]
        assert opt.default is True and tuple(opt.choices) == (True, False) and opt.doc
        assert get_game(gid).check_rules()["raise_without_exchange"] is True
        assert "raise_without_exchange" not in get_game(gid).layout_options


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_raise_without_exchange_rejects_bad_values(bad):
    with pytest.raises(ValueError, match="raise_without_exchange.*valid values: True, False"):
        get_game("goathead3").check_rules(raise_without_exchange=bad)
    with pytest.raises(ValueError, match="raise_without_exchange"):
        start_round("goathead4", seed=1, raise_without_exchange=bad)


def test_scorer_accepts_raise_without_exchange():
    rows = pd.DataFrame({"contract": ["hearts"], "declarer": [0], "side_mask": [1], "side_points": [60],
                         "kitty_points": [6], "side_tricks": [3], "exchanged": [True]})
    for value in (True, False):
        r = score("goathead3", rows, {"raise_without_exchange": value})
        assert r[["payout_0", "payout_1", "payout_2"]].iloc[0].tolist() == [2.0, -1.0, -1.0]
    with pytest.raises(ValueError, match="raise_without_exchange"):
        score("goathead3", rows, {"raise_without_exchange": "maybe"})


def test_declarer_declining_the_kitty_is_offered_the_raise_by_default():
    r = _g3_declared(False)
    assert r.pending.phase == "raise" and r.pending.seat == 0
    assert r.pending.legal == ("clubs", "court")
    r.act("court")
    assert r.contract == "court" and not r.exchanged
    assert (0, "raise", "court") in r.bids


@pytest.mark.parametrize("allowed", [True, False])
def test_pimc_values_keeping_the_hand_with_the_raise_only_when_allowed(allowed, monkeypatch):
    r = start_round("goathead3", hands=G3_HANDS, kitty="KS QS", dealer=2, raise_without_exchange=allowed)
    r.act("clubs").act("pass").act("pass")
    asked = []
    real = PIMCPolicy._goathead_values

    def spy(self, obs, rows, kitties, contracts, exchanged):
        asked.append((tuple(contracts), exchanged))
        return real(self, obs, rows, kitties, contracts, exchanged)

    monkeypatch.setattr(PIMCPolicy, "_goathead_values", spy)
    assert PIMCPolicy(bid_samples=2).pick_or_pass(r.observe(0)) in (True, False)
    kept = ("clubs", "court") if allowed else ("clubs",)
    assert asked == [(kept, False), (("clubs", "court"), True)]


def test_declarer_declining_the_kitty_plays_the_bid_contract_when_off():
    r = _g3_declared(False, raise_without_exchange=False)
    assert r.pending.kind == "play" and r.pending.phase != "raise"
    assert r.contract == "clubs" and r.declarer == 0 and r.side_mask == 0b001
    assert not any(p == "raise" for _, p, _ in r.bids)
    assert not r.done
    _drive(r)
    assert r.record.contract == "clubs" and r.record.frame["exchanged"] is False


@pytest.mark.parametrize("value", [True, False])
def test_declarer_taking_the_kitty_is_always_offered_the_raise(value):
    r = _g3_declared(True, raise_without_exchange=value)
    assert r.pending.phase == "raise" and r.pending.legal == ("clubs", "court")
    r.act("court")
    assert r.contract == "court" and r.exchanged


@pytest.mark.parametrize("value", [True, False])
def test_goathead4_has_no_raise_either_way(value):
    for seed in range(6):
        r = start_round("goathead4", seed=seed, dealer=3, raise_without_exchange=value)
        r.act("hearts").act("pass").act("pass").act("pass")
        phases = _drive(r)
        assert phases[:5] == ["kitty_swap"] * 5
        assert "raise" not in phases
        assert r.record.contract == "hearts"


# -- Sheepshead: leaster_tie --------------------------------------------------------------
def _leaster(points, tricks, last, kitty=0, multiplier=1):
    row = dict(contract="leaster", declarer=-1, last_trick_winner=last, kitty_points=kitty,
               multiplier=multiplier)
    row.update({f"points_{s}": p for s, p in enumerate(points)})
    row.update({f"tricks_{s}": t for s, t in enumerate(tricks)})
    return pd.DataFrame([row])


def _pay(frame, **rules):
    return score("sheepshead", frame, rules)[[f"payout_{s}" for s in range(5)]].iloc[0].tolist()


def test_leaster_tie_option_is_registered_with_default_nobody_scores():
    opt = get_game("sheepshead").options["leaster_tie"]
    assert opt.default == "nobody_scores" and tuple(opt.choices) == ("nobody_scores", "split") and opt.doc
    with pytest.raises(ValueError, match="leaster_tie.*'nobody_scores', 'split'"):
        get_game("sheepshead").check_rules(leaster_tie="coin")
    with pytest.raises(ValueError, match="leaster_tie"):
        score("sheepshead", _leaster([0, 10, 10, 40, 60], [0, 1, 1, 2, 2], 4), {"leaster_tie": "coin"})


def test_leaster_single_winner_is_the_same_under_both_values():
    f = _leaster([0, 10, 20, 40, 50], [0, 1, 1, 2, 2], 3)
    for tie in ("nobody_scores", "split"):
        assert _pay(f, leaster_tie=tie) == [-1, 4, -1, -1, -1]


def test_leaster_two_tied_for_fewest():
    # seat 0 took no trick (not eligible); seats 1 and 2 tie on 10; the blind (4) goes to seat 3
    f = _leaster([0, 10, 10, 36, 60], [0, 1, 1, 2, 2], 3, kitty=4)
    assert _pay(f) == [0, 0, 0, 0, 0]
    assert _pay(f, leaster_tie="nobody_scores") == [0, 0, 0, 0, 0]
    assert _pay(f, leaster_tie="split") == [-1, 1.5, 1.5, -1, -1]
    f2 = _leaster([0, 10, 10, 36, 60], [0, 1, 1, 2, 2], 3, kitty=4, multiplier=4)
    assert _pay(f2, leaster_tie="split") == [-4, 6, 6, -4, -4]
    assert _pay(f2, leaster_tie="nobody_scores") == [0, 0, 0, 0, 0]


def test_leaster_three_and_five_tied():
    f = _leaster([0, 10, 10, 10, 90], [0, 1, 1, 1, 3], 4)
    assert _pay(f) == [0, 0, 0, 0, 0]
    split = _pay(f, leaster_tie="split")
    assert split[0] == -1 and split[4] == -1
    assert split[1:4] == pytest.approx([2 / 3] * 3)
    assert sum(split) == pytest.approx(0)
    every = _leaster([24] * 5, [1, 1, 1, 1, 2], 4)
    assert _pay(every, leaster_tie="split") == [0, 0, 0, 0, 0]
    assert _pay(every) == [0, 0, 0, 0, 0]


def test_leaster_tie_counts_the_blind_for_the_last_trick_winner():
    # seats 1 and 3 have 10 in tricks, but seat 3 won the last trick and gets the blind's 7
    f = _leaster([0, 10, 33, 10, 60], [0, 1, 1, 2, 2], 3, kitty=7)
    for tie in ("nobody_scores", "split"):
        assert _pay(f, leaster_tie=tie) == [-1, 4, -1, -1, -1]


# -- Sheepshead: called ace / called ten ---------------------------------------------------
def _called_ace_round(hands, kitty="7C KS"):
    r = start_round("sheepshead", hands=hands, kitty=kitty, dealer=0, partner="called_ace",
                    crack=False, blitz=False)
    r.act(True)  # seat 1 picks
    assert r.pending.kind == "call" and r.pending.seat == 1
    return r


def test_picker_with_all_three_fail_aces_is_offered_called_tens():
    hands = ["10C 10S 10H QC QS JC", "AC AS AH 7H AD 10D", "KH 9H 8H 7S 8S 9S",
             "QH QD JS JH JD KD", "9D 8D 7D KC 9C 8C"]
    r = _called_ace_round(hands)
    assert r.pending.legal == ("called_ten_clubs", "called_ten_spades", "called_ten_hearts", "alone")
    r.act("called_ten_spades").act(("7C", "KS"))
    assert r.contract == "called_ten_spades" and r.partner == 0 and r.side_mask == 0b00011
    assert r.observe(2).partner_cards == CardSet.parse("10S")
    assert r.layout.must_play_first == Card.parse("10S")


def test_picker_with_all_aces_and_one_ten_is_offered_the_other_tens():
    hands = ["7C 10S 10H QC QS JC", "AC AS AH 10C AD 10D", "KH 9H 8H 7S 8S 9S",
             "QH QD JS JH JD KD", "9D 8D 7D KC 9C 8C"]
    r = _called_ace_round(hands, kitty="7H KS")
    assert r.pending.legal == ("called_ten_spades", "called_ten_hearts", "alone")


def test_picker_with_all_fail_aces_and_tens_must_go_alone():
    hands = ["7H QC QS JC AD 10D", "AC AS AH 10C 10S 10H", "KH 9H 8H 7S 8S 9S",
             "QH QD JS JH JD KD", "9D 8D 7D KC 9C 8C"]
    r = _called_ace_round(hands)
    assert r.pending.legal == ("alone",)
    r.act("alone").act(("7C", "KS"))
    assert r.contract == "alone" and r.partner == -1 and r.side_mask == 0b00010


def test_picker_with_two_aces_calls_the_third_ace_not_a_ten():
    hands = ["7H QC QS JC AD 10D", "AC AS 9H 10C 10S 10H", "KH AH 8H 7S 8S 9S",
             "QH QD JS JH JD KD", "9D 8D 7D KC 9C 8C"]
    r = _called_ace_round(hands)
    assert r.pending.legal == ("called_ace_hearts", "alone")


# -- Sheepshead: doublers ------------------------------------------------------------------
class _PassFirst(RandomPolicy):
    """Passes the first ``passes`` pick decisions of the whole table, then always picks."""

    def __init__(self, seed, counter, passes):
        super().__init__(seed)
        self.counter, self.passes = counter, passes

    def pick_or_pass(self, obs):
        if obs.phase == "pick":
            self.counter[0] += 1
            return self.counter[0] > self.passes
        return super().pick_or_pass(obs)


def _match(no_pick, passes):
    counter = [0]
    policies = [_PassFirst(s, counter, passes) for s in range(5)]
    return play_match("sheepshead", policies, seed=3, no_pick=no_pick, rounds=2, crack=False, blitz=False)


def test_consecutive_doublers_multiply():
    m = _match("doubler", passes=10)  # two hands in a row thrown in
    assert [r.thrown_in for r in m.rounds] == [True, True, False, False]
    assert [r.multiplier for r in m.rounds] == [1, 2, 4, 1]
    played = m.rounds[2]
    plain = dict(played.frame, multiplier=1)
    once = score("sheepshead", pd.DataFrame([plain]))[[f"payout_{s}" for s in range(5)]].iloc[0].tolist()
    assert any(once)
    assert played.payouts == [4 * p for p in once]
    assert m.scores == pytest.approx([a + b for a, b in zip(m.rounds[2].payouts, m.rounds[3].payouts)])


def test_single_doubler_doubles_once_and_redeal_never():
    m = _match("doubler", passes=5)
    assert [r.thrown_in for r in m.rounds] == [True, False, False]
    assert [r.multiplier for r in m.rounds] == [1, 2, 1]
    m = _match("redeal", passes=10)
    assert [r.thrown_in for r in m.rounds] == [True, True, False, False]
    assert [r.multiplier for r in m.rounds] == [1, 1, 1, 1]


# -- Goathead: the dealer's left leads in declared contracts -----------------------------
@pytest.mark.parametrize("gid", ["goathead3", "goathead4"])
@pytest.mark.parametrize("contract", ["diamonds", "clubs", "nil", "court"])
def test_dealer_left_leads_the_first_trick_in_declared_contracts(gid, contract):
    n = get_game(gid).n_seats
    for dealer in range(n):
        first = (dealer + 1) % n
        for k in range(1, n):  # the declarer is never the first seat to bid
            declarer = (first + k) % n
            r = start_round(gid, seed=10 * dealer + k, dealer=dealer)
            while r.pending.phase == "bid":
                r.act(contract if r.pending.seat == declarer else "pass")
            if n == 3:
                assert r.pending.kind == "pick_or_pass" and r.pending.seat == declarer
                r.act(False)          # no kitty
                r.act(contract)       # keep the contract
            else:
                while r.pending.kind == "exchange":
                    r.act(None)
            assert r.contract == contract and r.declarer == declarer
            assert r.pending.kind == "play" and r.pending.seat == first
            _drive(r)
            assert r.record.tricks[0].plays[0][0] == first
            assert r.record.tricks[0].plays[0][0] != declarer


# -- Goathead 4: both black jacks ----------------------------------------------------------
def _g4(hands, kitty, contract, declarer, swaps=()):
    """Dealer 3; ``declarer`` bids ``contract``, the others pass; ``swaps`` maps seat ->
    (give, take) for the kitty round (the others keep their cards)."""
    swaps = dict(swaps)
    r = start_round("goathead4", hands=hands, kitty=kitty, dealer=3)
    while r.pending.phase == "bid":
        r.act(contract if r.pending.seat == declarer else "pass")
    while r.pending.kind == "exchange":
        s = r.pending.seat
        if s in swaps:
            give, take = (Card.parse(x) for x in swaps.pop(s))
            r.act((give, take))
        else:
            r.act(None)
    assert not swaps
    return r


HANDS_BOTH = ["JC JS AC 10C", "JH JD AD 10D", "QH AH 10H KH", "KC QC KD QD"]
KITTY_BOTH = "AS 10S KS QS"


def test_both_black_jacks_are_announced_and_partner_the_called_queen():
    r = _g4(HANDS_BOTH, KITTY_BOTH, "hearts", declarer=0)
    assert (0, "both_black_jacks", True) in r.bids
    for s in (1, 2, 3):
        assert r.observe(s).known[0] == CardSet.parse("JC JS")
    assert r.observe(1).partner_cards == CardSet.parse("JC JS QH")
    assert 2 not in r.observe(1).known   # the queen's holder stays hidden
    assert r.side_mask == 0b0101          # J♣ J♠ holder and Q♥ holder
    _drive(r)
    assert r.record.side_mask == 0b0101 and r.record.frame["side_mask"] == 0b0101


def test_both_black_jacks_declarer_on_the_other_side():
    r = _g4(HANDS_BOTH, KITTY_BOTH, "hearts", declarer=1)
    assert (0, "both_black_jacks", True) in r.bids
    assert r.side_mask == 0b1010          # seat 1 with seat 3 against the jacks and the queen


def test_both_black_jacks_and_the_called_queen_play_alone():
    hands = ["JC JS QH AC", "JH JD AD 10D", "10C AH 10H KH", "KC QC KD QD"]
    r = _g4(hands, KITTY_BOTH, "hearts", declarer=0)
    assert (0, "both_black_jacks", True) in r.bids
    assert r.side_mask == 0b0001
    r = _g4(hands, KITTY_BOTH, "hearts", declarer=2)
    assert r.side_mask == 0b1110


def test_both_black_jacks_with_the_called_queen_in_the_kitty_play_alone():
    r = _g4(HANDS_BOTH, KITTY_BOTH, "spades", declarer=0)   # Q♠ lies in the kitty
    assert (0, "both_black_jacks", True) in r.bids
    assert r.side_mask == 0b0001
    r = _g4(HANDS_BOTH, KITTY_BOTH, "spades", declarer=3)
    assert r.side_mask == 0b1110


def test_split_black_jacks_are_not_announced():
    hands = ["JC QH AC 10C", "JS KD 10D QD", "JH JD AD KC", "AH 10H KH AS"]
    r = _g4(hands, "10S KS QS QC", "hearts", declarer=0)
    assert not any(p == "both_black_jacks" for _, p, _ in r.bids)
    assert r.side_mask == 0b0011


def test_both_black_jacks_after_a_kitty_swap_are_announced():
    # J♠ starts in the kitty; seat 1 (J♣) swaps 10D for it in the kitty round
    hands = ["AC 10C KC QC", "JC JH AD 10D", "QH AH 10H KH", "KD QD JD AS"]
    r = _g4(hands, "JS 10S KS QS", "hearts", declarer=0, swaps={1: ("10D", "JS")})
    assert (1, "both_black_jacks", True) in r.bids
    assert r.observe(0).known[1] == CardSet.parse("JC JS")
    assert r.side_mask == 0b1001          # declarer 0 (with seat 3) faces seat 1 and Q♥ (seat 2)
