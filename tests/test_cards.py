"""Cards, card sets, decks and the validation of hands."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from trickcore.cards import (
    DECK20,
    DECK32,
    DECK52,
    DECKS,
    RANKS,
    SUITS,
    Card,
    CardSet,
    parse_card,
    parse_hand,
)
from trickcore.games import get_game


class TestCard:
    @pytest.mark.parametrize("text", ["J♣", "JC", "Jc", "jc", "jC", " J♣ ", "J♧"])
    def test_jack_of_clubs_notations(self, text):
        c = Card.parse(text)
        assert c == 16 * 0 + 9
        assert (c.rank, c.suit, c.rank_name, c.suit_letter) == (9, 0, "J", "C")

    @pytest.mark.parametrize("text", ["10h", "Th", "TH", "th", "10H", "10♥", "T♡"])
    def test_ten_of_hearts_notations(self, text):
        c = parse_card(text)
        assert (int(c), str(c), c.ascii()) == (16 * 2 + 8, "10♥", "TH")

    def test_every_card_round_trips_through_text(self):
        for s in range(4):
            for r in range(13):
                c = Card.make(r, s)
                assert Card.parse(str(c)) == c == Card.parse(c.ascii()) == Card.make(RANKS[r], SUITS[s])
                assert c.mask == 1 << int(c)
                assert repr(c) == f"Card('{c}')"

    def test_int_ids(self):
        assert parse_card(58) == Card.parse("Q♠")
        assert parse_card(Card.parse("2♦")) == 16

    @pytest.mark.parametrize(
        "text, words",
        [
            ("1H", ["1H"]), ("11S", ["11S"]), ("ZC", ["ZC"]), ("JX", ["JX"]), ("J", ["'J'"]),
            ("", ["''"]), ("10", ["'10'"]), ("H10", ["H10"]), ("QQ", ["QQ"]),
        ],
    )
    def test_malformed_cards_name_the_text(self, text, words):
        with pytest.raises(ValueError) as e:
            Card.parse(text)
        for w in words:
            assert w in str(e.value)

    @pytest.mark.parametrize("bad", [None, 3.5, ["AH"], True])
    def test_non_text_is_a_value_error(self, bad):
        with pytest.raises(ValueError):
            parse_card(bad)

    @pytest.mark.parametrize("card_id", [-1, 13, 15, 64, 77])
    def test_bad_ids(self, card_id):
        with pytest.raises(ValueError, match=str(card_id)):
            Card(card_id)

    def test_make_rejects_unknown_rank_and_suit(self):
        with pytest.raises(ValueError, match="unknown rank 'Z'"):
            Card.make("Z", "C")
        with pytest.raises(ValueError, match="unknown suit 'X'"):
            Card.make("A", "X")
        with pytest.raises(ValueError, match="unknown rank 13"):
            Card.make(13, 0)
        with pytest.raises(ValueError, match="unknown suit 4"):
            Card.make(0, 4)


class TestParseHand:
    def test_text_hands(self):
        want = {Card.parse("J♣"), Card.parse("A♥"), Card.parse("10♥")}
        for text in ("J♣ A♥ 10♥", "JC AH TH", "jc,ah,th", "JC, AH; 10H", "JCAH10H", "J♣A♥10♥", "  J♣\tA♥\n10♥ "):
            assert set(parse_hand(text)) == want, text

    def test_pbn(self):
        h = parse_hand("AKQ.J.T9.8")
        assert h == CardSet.parse("A♠ K♠ Q♠ J♥ 10♦ 9♦ 8♣")
        assert h.pbn() == "AKQ.J.T9.8"
        assert parse_hand("akq.j.t9.8") == h
        assert parse_hand("-.-.-.AKQJT98765432") == DECK52.suit("C")
        assert CardSet.from_pbn("-.-.-.-") == CardSet()
        assert parse_hand("") == CardSet()

    def test_pbn_round_trip_of_full_deck(self):
        assert CardSet.from_pbn(DECK52.pbn()) == DECK52
        assert len(DECK52.pbn()) == 52 + 3

    def test_other_inputs(self):
        h = CardSet.parse("Q♠ 7♦")
        assert parse_hand(h) is h
        assert parse_hand(["QS", Card.parse("7D")]) == h
        assert parse_hand([58, 21]) == h
        assert CardSet(h.mask) == h

    @pytest.mark.parametrize(
        "text, words",
        [
            ("AH XY", ["'XY'", "'AH XY'"]),
            ("AH 1H", ["'1H'"]),
            ("J♣ A♥ J♣", ["duplicate card J♣"]),
            ("JC Jc", ["duplicate card J♣"]),
            ("AKQ.J.T9", ["PBN", "four suits"]),
            ("AKQ.J.T9.8.7", ["PBN", "four suits"]),
            ("AKQ.J.T0.8", ["PBN", "'0'"]),
            ("AKQ.J.TX.8", ["PBN", "'X'"]),
            ("AA.-.-.-", ["duplicate card A♠"]),
        ],
    )
    def test_bad_hands_name_the_problem(self, text, words):
        with pytest.raises(ValueError) as e:
            parse_hand(text)
        for w in words:
            assert w in str(e.value), str(e.value)

    def test_duplicates_in_iterables(self):
        with pytest.raises(ValueError, match="duplicate card A♥"):
            parse_hand(["AH", "A♥"])
        with pytest.raises(ValueError):
            parse_hand(["AH", None])

    def test_numpy_masks_and_single_cards(self):
        h = CardSet.parse("Q♠ 7♦")
        assert CardSet(np.uint64(h.mask)) == CardSet(np.int64(h.mask)) == h
        assert parse_hand(np.array([h.mask], dtype=np.uint64)[0]) == h
        assert CardSet(Card.parse("Q♠")) == CardSet.parse("Q♠")

    @pytest.mark.parametrize("bad", [3.5, object(), True, None.__class__])
    def test_things_that_are_no_cards(self, bad):
        with pytest.raises(ValueError, match="cannot make a card set"):
            CardSet(bad)

    def test_bad_masks(self):
        with pytest.raises(ValueError, match="not cards"):
            CardSet(1 << 13)  # rank 13 does not exist
        with pytest.raises(ValueError):
            CardSet(-1)


class TestCardSet:
    def test_set_semantics(self):
        a = CardSet.parse("A♠ K♠ Q♥")
        b = CardSet.parse("K♠ 2♣")
        assert a | b == CardSet.parse("A♠ K♠ Q♥ 2♣")
        assert a & b == CardSet.parse("K♠")
        assert a - b == CardSet.parse("A♠ Q♥")
        assert a ^ b == CardSet.parse("A♠ Q♥ 2♣")
        assert a | "2♣" == CardSet.parse("A♠ K♠ Q♥ 2♣")
        assert CardSet.parse("K♠") <= a and CardSet.parse("K♠") < a and not a < a and a <= a
        assert a >= "K♠ A♠" and a > "K♠" and not a > a
        assert a.isdisjoint("2♣ 3♣") and not a.isdisjoint(b)
        assert len(a) == 3 and bool(a) and not CardSet()
        assert "A♠" in a and Card.parse("QH") in a and "2♣" not in a and 3.5 not in a
        assert a == CardSet(a.mask) and hash(a) == hash(CardSet(a.mask)) and a != b
        assert (a == "A♠ K♠ Q♥") is False  # equality only with card sets
        assert int(a) == a.mask and {a: 1}[CardSet.parse("Q♥ K♠ A♠")] == 1

    def test_iteration_is_by_universal_id(self):
        s = CardSet.parse("A♠ 2♣ 10♥ K♦")
        assert [str(c) for c in s] == ["2♣", "K♦", "10♥", "A♠"]
        assert all(type(c) is Card for c in s)
        assert [int(c) for c in s] == sorted(int(c) for c in s)

    def test_repr_and_str_read_like_a_hand(self):
        s = CardSet.parse("2♣ A♠ 10♥ K♦ 10♠")
        assert str(s) == "A♠ 10♠ 10♥ K♦ 2♣"
        assert repr(s) == "CardSet('A♠ 10♠ 10♥ K♦ 2♣')"
        assert eval(repr(s)) == s
        assert repr(CardSet()) == "CardSet('')"

    def test_suit(self):
        s = CardSet.parse("A♠ K♠ Q♥ 2♣")
        assert s.suit("S") == s.suit(3) == s.suit("♠") == CardSet.parse("A♠ K♠")
        with pytest.raises(ValueError, match="unknown suit"):
            s.suit("X")

    def test_pickles(self):
        s = CardSet.parse("A♠ K♠")
        assert pickle.loads(pickle.dumps(s)) == s
        assert pickle.loads(pickle.dumps(Card.parse("AS"))) == Card.parse("AS")


class TestDecks:
    @pytest.mark.parametrize(
        "deck, n, ranks",
        [
            (DECK20, 20, {"A", "10", "K", "Q", "J"}),
            (DECK32, 32, {"A", "K", "Q", "J", "10", "9", "8", "7"}),
            (DECK52, 52, set(RANKS)),
        ],
    )
    def test_deck(self, deck, n, ranks):
        assert len(deck) == n and DECKS[n] == deck
        assert {c.rank_name for c in deck} == ranks
        for s in range(4):
            assert len(deck.suit(s)) == n // 4
        assert DECK20 <= DECK32 <= DECK52

    def test_game_decks(self):
        assert get_game("goathead3").deck == DECK20
        assert get_game("sheepshead").deck == DECK32
        assert get_game("hearts").deck == DECK52


class TestCheckHands:
    lay3 = get_game("goathead3").layout("clubs")

    def test_good_hands(self):
        hands = self.lay3.check_hands(["J♣ A♥ 10♥ K♠ Q♠ JD", "AC", "KC QC"])
        assert [len(h) for h in hands] == [6, 1, 2]
        full = self.lay3.check_hands(
            ["J♣ J♠ J♥ J♦ A♣ 10♣", "K♣ Q♣ A♦ 10♦ K♦ Q♦", "A♥ 10♥ K♥ Q♥ A♠ 10♠"], full=True, equal=True)
        assert sum(len(h) for h in full) == 18

    def test_card_not_in_the_deck(self):
        with pytest.raises(ValueError, match=r"seat 1: 9♥ not in the deck of goathead3/clubs"):
            self.lay3.check_hands(["AC", "9H KC", ""])
        with pytest.raises(ValueError, match="2♣"):
            get_game("sheepshead").layout("jd").check_hands(["2C", "", "", "", ""])

    def test_malformed_card_names_the_seat_and_card(self):
        with pytest.raises(ValueError, match=r"seat 2: malformed card 'ZZ'"):
            self.lay3.check_hands(["AC", "KC", "ZZ"])

    def test_duplicate_within_a_hand(self):
        with pytest.raises(ValueError, match=r"seat 0: duplicate card A♣"):
            self.lay3.check_hands(["AC A♣", "", ""])

    def test_overlapping_hands(self):
        with pytest.raises(ValueError, match=r"seat 2: A♣ already in another hand"):
            self.lay3.check_hands(["AC KC", "QC", "AC"])

    def test_wrong_hand_sizes(self):
        with pytest.raises(ValueError, match=r"seat 0: 7 cards, more than the 6"):
            self.lay3.check_hands(["J♣ J♠ J♥ J♦ A♣ 10♣ K♣", "", ""])
        with pytest.raises(ValueError, match=r"seat 0: 1 cards, goathead3/clubs deals 6"):
            self.lay3.check_hands(["AC", "KC", "QC"], full=True)
        with pytest.raises(ValueError, match=r"unequal size \[2, 1, 1\]"):
            self.lay3.check_hands(["AC 10C", "KC", "QC"], equal=True)

    def test_wrong_number_of_hands(self):
        with pytest.raises(ValueError, match="needs 3 hands"):
            self.lay3.check_hands(["AC", "KC"])
        with pytest.raises(ValueError, match="needs 3 hands"):
            self.lay3.check_hands("AC KC QC")

    def test_numpy_hand_masks(self):
        masks = np.array([CardSet.parse(h).mask for h in ("AC", "KC", "QC")], dtype=np.uint64)
        assert self.lay3.check_hands([int(m) for m in masks]) == [CardSet.parse(h) for h in ("AC", "KC", "QC")]
