"""Game definitions: registry, contracts, decks and points, rule options, sides, pickling."""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pytest

from trickcore.cards import DECK20, DECK32, DECK52, Card, CardSet
from trickcore.games import GAME_IDS, GAMES, Game, RuleOption, get_game
from trickcore.layout import Layout

EXPECTED_CONTRACTS = {
    "goathead3": ("diamonds", "hearts", "nil", "spades", "clubs", "court", "leasters"),
    "goathead4": ("diamonds", "hearts", "nil", "spades", "clubs", "court", "leasters"),
    "clover": ("clubs", "diamonds", "hearts", "spades", "notrump"),
    "gamut": ("hearts", "spades", "clubs", "clubs_3", "clubs_2", "clubs_1"),
    "sheepshead": (
        "jd", "jc", "js", "jh", "called_ace_clubs", "called_ace_spades", "called_ace_hearts",
        "called_ten_clubs", "called_ten_spades", "called_ten_hearts", "alone", "leaster",
    ),
    "hearts": ("hearts",),
    "spades": ("spades",),
    "ohhell": ("clubs", "diamonds", "hearts", "spades", "notrump"),
}

#: Every rule option named in the team brief, with its default.
BRIEF_OPTIONS = {
    "goathead3": {"kitty_points": "declarer", "no_exchange_bonus": "won_or_lost", "leasters_tie": "nobody_pays",
                  "steal": True, "rounds": 15},
    "clover": {"notrump_outbid": True, "turned_suit_again": False, "meld_tie": "neither", "rounds": 8},
    "gamut": {"diamonds_doubling": "multiply", "target": 40},
    "sheepshead": {"partner": "jd", "jd_picker": "alone", "no_pick": "dealer_picks", "crack": True, "blitz": True,
                   "announce_alone": False, "rounds": 10},
    "hearts": {"jack_of_diamonds": False, "queen_breaks_hearts": False, "points_on_first_trick": False,
               "passing": "cycle", "target": 100},
    "spades": {"spade_leading": "after_broken", "sandbags": True, "target": 500},
    "ohhell": {"hand_size": 10, "no_equal_total": False, "trump_card": "last_dealt", "sequence": "10-1-10",
               "trick_points": "always", "target": 100},
}
BRIEF_OPTIONS["goathead4"] = BRIEF_OPTIONS["goathead3"]


def all_layouts():
    for gid, game in GAMES.items():
        names = game.layout_options
        for contract in game.contracts:
            for combo in itertools.product(*(list(game.options[n].choices) for n in names)):
                yield game.layout(contract, **dict(zip(names, combo)))


class TestRegistry:
    def test_ids(self):
        assert GAME_IDS == ("goathead3", "goathead4", "clover", "gamut", "sheepshead", "hearts", "spades", "ohhell")
        for gid in GAME_IDS:
            assert get_game(gid).id == gid
            assert get_game(get_game(gid)) is get_game(gid)
            assert isinstance(get_game(gid), Game)

    @pytest.mark.parametrize("bad", ["bridge", "", "Goathead3", None, 3])
    def test_unknown_game_lists_the_valid_ones(self, bad):
        with pytest.raises(ValueError) as e:
            get_game(bad)
        assert repr(bad) in str(e.value)
        for gid in GAME_IDS:
            assert gid in str(e.value)

    def test_contracts(self):
        for gid, contracts in EXPECTED_CONTRACTS.items():
            assert get_game(gid).contracts == contracts

    def test_unknown_contract_lists_the_valid_ones(self):
        for gid, game in GAMES.items():
            with pytest.raises(ValueError) as e:
                game.layout("misere")
            msg = str(e.value)
            assert "'misere'" in msg and gid in msg
            assert all(c in msg for c in game.contracts)

    def test_every_brief_option_with_its_default(self):
        for gid, opts in BRIEF_OPTIONS.items():
            game = get_game(gid)
            for name, default in opts.items():
                assert name in game.options, (gid, name)
                assert game.options[name].default == default, (gid, name)
                assert game.options[name].doc, (gid, name)
            assert game.check_rules() == {n: o.default for n, o in game.options.items()}

    def test_layout_options(self):
        assert get_game("hearts").layout_options == ("jack_of_diamonds", "queen_breaks_hearts", "points_on_first_trick")
        assert get_game("spades").layout_options == ("spade_leading",)
        assert get_game("ohhell").layout_options == ("hand_size",)
        assert get_game("clover").layout_options == ("four_low_ranks",)
        for gid in ("goathead3", "goathead4", "gamut", "sheepshead"):
            assert get_game(gid).layout_options == ()

    def test_unknown_option_lists_the_valid_ones(self):
        for gid, game in GAMES.items():
            with pytest.raises(ValueError) as e:
                game.layout(game.contracts[0], colour="red")
            msg = str(e.value)
            assert "colour" in msg and gid in msg
            assert all(n in msg for n in game.options)
            with pytest.raises(ValueError, match="colour"):
                game.check_rules(colour="red")

    @pytest.mark.parametrize(
        "gid, name, value, shown",
        [
            ("spades", "spade_leading", "sometimes", "'after_broken', 'after_first_trick', 'always'"),
            ("hearts", "queen_breaks_hearts", "yes", "False, True"),
            ("hearts", "queen_breaks_hearts", 1, "False, True"),  # 1 is not True here
            ("ohhell", "hand_size", 14, "an integer from 1 to 13"),
            ("ohhell", "hand_size", 0, "an integer from 1 to 13"),
            ("ohhell", "hand_size", True, "an integer from 1 to 13"),
            ("ohhell", "hand_size", 5.0, "an integer from 1 to 13"),
            ("clover", "rounds", 10, "8, 12"),
            ("sheepshead", "partner", "called_ten", "'jd', 'called_ace'"),
            ("goathead3", "kitty_points", None, "'declarer', 'if_exchanged'"),
            ("gamut", "diamonds_doubling", "twice", "'multiply', 'once'"),
        ],
    )
    def test_bad_option_value_lists_the_valid_ones(self, gid, name, value, shown):
        with pytest.raises(ValueError) as e:
            get_game(gid).check_rules(**{name: value})
        assert repr(name) in str(e.value) and repr(value) in str(e.value) and shown in str(e.value)

    def test_numpy_values_are_accepted_and_made_plain(self):
        rules = get_game("ohhell").check_rules(hand_size=np.int64(3), no_equal_total=np.bool_(True))
        assert rules["hand_size"] == 3 and type(rules["hand_size"]) is int
        assert rules["no_equal_total"] is True
        assert get_game("ohhell").layout("clubs", hand_size=np.int8(4)).hand_size == 4

    def test_rule_option_default_must_be_valid(self):
        with pytest.raises(ValueError, match="default"):
            RuleOption("x", 3, (1, 2))


class TestLayouts:
    def test_every_contract_of_every_game_builds(self):
        n = 0
        for lay in all_layouts():
            n += 1
            assert isinstance(lay, Layout)
            assert lay.core is not None
            assert len(lay.deck) == lay.n_seats * lay.hand_size + lay.kitty_size
            assert lay.deck == get_game(lay.game).deck
            assert lay.trump == (lay.suit_names[-1] == "trump")
        assert n == 7 + 7 + 10 + 6 + 12 + 8 + 3 + 5 * 13

    def test_decks(self):
        assert get_game("goathead3").deck == get_game("goathead4").deck == DECK20
        for gid in ("clover", "gamut", "sheepshead"):
            assert get_game(gid).deck == DECK32
        for gid in ("hearts", "spades", "ohhell"):
            assert get_game(gid).deck == DECK52

    def test_tables(self):
        for gid, (n, h, k) in {
            "goathead3": (3, 6, 2), "goathead4": (4, 4, 4), "clover": (4, 8, 0), "gamut": (4, 8, 0),
            "sheepshead": (5, 6, 2), "hearts": (4, 13, 0), "spades": (4, 13, 0), "ohhell": (4, 10, 12),
        }.items():
            lay = get_game(gid).layout(get_game(gid).contracts[0])
            assert (lay.n_seats, lay.hand_size, lay.kitty_size) == (n, h, k), gid
        for h in range(1, 14):
            lay = get_game("ohhell").layout("spades", hand_size=h)
            assert (lay.hand_size, lay.kitty_size) == (h, 52 - 4 * h)

    @pytest.mark.parametrize("gid", ["goathead3", "goathead4", "sheepshead"])
    def test_ace_ten_points(self, gid):
        for contract in get_game(gid).contracts:
            lay = get_game(gid).layout(contract)
            assert sum(lay.points.values()) == lay.total_points == 120
            assert lay.points[Card.parse("A♥")] == 11 and lay.points[Card.parse("10♣")] == 10
            assert lay.points[Card.parse("K♠")] == 4 and lay.points[Card.parse("Q♦")] == 3
            assert lay.points[Card.parse("J♣")] == 2

    def test_clover_points(self):
        for contract in get_game("clover").contracts:
            lay = get_game("clover").layout(contract)
            assert sum(lay.points.values()) == 152
            assert lay.total_points == 150 and lay.last_trick_bonus == -2
        lay = get_game("clover").layout("hearts")
        pts = {str(c): lay.points.get(c, 0) for c in lay.deck}
        assert [pts[r + "♥"] for r in ("J", "9", "A", "10", "K", "Q", "8", "7")] == [20, 14, 11, 10, 4, 3, 0, 0]
        assert [pts[r + "♠"] for r in ("A", "10", "K", "Q", "J", "9", "8", "7")] == [11, 10, 4, 3, 2, 0, 0, 0]
        nt = get_game("clover").layout("notrump")
        assert nt.points[Card.parse("8♦")] == 8 and nt.points[Card.parse("J♦")] == 2
        assert nt.points.get(Card.parse("9♦"), 0) == 0

    def test_hearts_points(self):
        lay = get_game("hearts").layout("hearts")
        assert sum(lay.points.values()) == 26 and lay.points[Card.parse("Q♠")] == 13
        assert all(lay.points[c] == 1 for c in DECK52.suit("H"))
        lay = get_game("hearts").layout("hearts", jack_of_diamonds=True)
        assert sum(lay.points.values()) == 16 and lay.points[Card.parse("J♦")] == -10
        gamut = get_game("gamut").layout("hearts")
        assert sum(gamut.points.values()) == 16 and gamut.points[Card.parse("Q♠")] == 8

    def test_trick_games_have_no_points(self):
        for gid, contract in [("spades", "spades"), ("gamut", "spades"), ("gamut", "clubs"), ("ohhell", "hearts")]:
            lay = get_game(gid).layout(contract)
            assert lay.total_points == 0 and lay.objective == "tricks" and lay.goal == "max"

    def test_objectives_and_goals(self):
        want = {
            ("goathead3", "clubs"): ("points", "max"), ("goathead3", "nil"): ("nil", "min"),
            ("goathead3", "leasters"): ("points", "min"), ("clover", "notrump"): ("points", "max"),
            ("gamut", "hearts"): ("points", "min"), ("gamut", "spades"): ("tricks", "max"),
            ("gamut", "clubs_2"): ("tricks", "max"), ("sheepshead", "jd"): ("points", "max"),
            ("sheepshead", "leaster"): ("points", "min"), ("hearts", "hearts"): ("points", "min"),
            ("spades", "spades"): ("tricks", "max"), ("ohhell", "notrump"): ("tricks", "max"),
        }
        for (gid, contract), (objective, goal) in want.items():
            lay = get_game(gid).layout(contract)
            assert (lay.objective, lay.goal) == (objective, goal), (gid, contract)

    def test_ohhell_trump(self):
        assert get_game("ohhell").layout("notrump").trump is False
        lay = get_game("ohhell").layout("diamonds")
        assert lay.trump and set(lay.suits[-1]) == set(DECK52.suit("D"))

    def test_pickling_round_trips(self):
        for lay in [get_game("goathead4").layout("clubs"), get_game("ohhell").layout("hearts", hand_size=3),
                    get_game("hearts").layout("hearts", jack_of_diamonds=True, queen_breaks_hearts=True),
                    get_game("clover").layout("spades", four_low_ranks="jass"),
                    get_game("sheepshead").layout("called_ten_spades"), get_game("gamut").layout("clubs_1")]:
            data = pickle.dumps(lay)
            assert pickle.loads(data) is lay          # in this process: the game's cached layout
            get_game(lay.game)._layouts.clear()       # elsewhere (a worker) it is rebuilt
            back = pickle.loads(data)
            assert back is not lay
            for f in ("game", "contract", "n_seats", "hand_size", "kitty_size", "suits", "suit_names", "trump",
                      "points", "rules", "lead_restricted", "breakers", "unlock_trick", "first_lead",
                      "first_trick_forbidden", "must_play_first", "objective", "goal", "bell"):
                assert getattr(back, f) == getattr(lay, f), f
            assert (back.trick_meld_table is None) == (lay.trick_meld_table is None)
            if lay.trick_meld_table is not None:
                assert np.array_equal(back.trick_meld_table, lay.trick_meld_table)
            h = np.array([[c.mask for c in list(lay.deck)[: lay.n_seats]]], dtype=np.uint64)
            assert np.array_equal(back.sides(h, [0]), lay.sides(h, [0]))


# ---------------------------------------------------------------------------------------
# Sides
# ---------------------------------------------------------------------------------------
def masks(*hands):
    return np.array([[CardSet.parse(h).mask for h in hands]], dtype=np.uint64)


def goathead4_side(hands, declarer, called):
    """The RULINGS' Goathead 4p partnership, written out case by case."""
    def holder(card):
        for seat, h in enumerate(hands):
            if Card.parse(card) in h:
                return seat
        return None  # in the kitty

    jc, js, q = holder("JC"), holder("JS"), holder("Q" + called)
    if jc is not None and js is not None and jc != js:
        team = {jc, js}                      # "The holders of J♣ and J♠ are partners."
    elif jc is not None or js is not None:   # both in one hand, or one in the kitty
        lone = jc if jc is not None else js
        team = {lone} if q is None or q == lone else {lone, q}
    else:
        team = set()                          # both black jacks in the kitty: not ruled
    if not team:
        return {declarer}
    if declarer in team:
        return team
    return set(range(4)) - team


class TestGoathead4Sides:
    lay = staticmethod(lambda contract="clubs": get_game("goathead4").layout(contract))

    def side(self, hands, declarer, contract="clubs"):
        bits = int(self.lay(contract).sides(masks(*hands), [declarer])[0])
        return {s for s in range(4) if bits >> s & 1}

    def test_black_jacks_held_apart_are_partners(self):
        hands = ("JC QH", "JS KD", "QC AD", "AC 10C")
        assert self.side(hands, 0) == {0, 1}
        assert self.side(hands, 2) == {2, 3}

    def test_both_black_jacks_partner_the_called_queen(self):
        hands = ("JC JS", "QS KD", "QC AD", "AC 10C")
        assert self.side(hands, 0, "clubs") == {0, 2}
        assert self.side(hands, 0, "spades") == {0, 1}
        assert self.side(hands, 3, "clubs") == {1, 3}

    def test_both_black_jacks_and_the_called_queen_play_alone(self):
        hands = ("JC JS QC", "QS KD", "AD KC", "AC 10C")
        assert self.side(hands, 0) == {0}
        assert self.side(hands, 1) == {1, 2, 3}

    def test_called_queen_in_the_kitty_plays_alone(self):
        hands = ("JC JS", "QS KD", "AD KC", "AC 10C")  # Q♣ in the kitty
        assert self.side(hands, 0) == {0}
        assert self.side(hands, 2) == {1, 2, 3}

    def test_black_jack_in_the_kitty(self):
        hands = ("JC AH", "QC KD", "AD KC", "AC 10C")  # J♠ in the kitty: J♣ + Q♣
        assert self.side(hands, 1) == {0, 1}
        assert self.side(hands, 2) == {2, 3}
        hands = ("JS AH", "QH KD", "AD KC", "AC 10C")  # J♣ and Q♣ in the kitty: J♠ alone
        assert self.side(hands, 0) == {0}
        assert self.side(hands, 3) == {1, 2, 3}

    def test_court_and_nil_are_alone(self):
        hands = ("JC QH", "JS KD", "QC AD", "AC 10C")
        assert self.side(hands, 0, "court") == {0}
        assert self.side(hands, 2, "nil") == {2}

    def test_random_deals_against_the_written_out_ruling(self):
        rng = np.random.default_rng(7)
        deck = list(DECK20)
        for contract in ("clubs", "spades", "hearts", "diamonds"):
            lay = self.lay(contract)
            for _ in range(400):
                order = rng.permutation(20)
                hands = [CardSet([deck[i] for i in order[4 * s: 4 * s + 4]]) for s in range(4)]
                d = int(rng.integers(4))
                bits = int(lay.sides(np.array([[h.mask for h in hands]], dtype=np.uint64), [d])[0])
                want = goathead4_side(hands, d, contract[0].upper())
                assert {s for s in range(4) if bits >> s & 1} == want, (hands, d, contract)

    def test_goathead3_is_alone(self):
        lay = get_game("goathead3").layout("clubs")
        assert int(lay.sides(masks("JC", "JS", "QC"), [1])[0]) == 0b010


class TestOtherSides:
    def test_partners_across(self):
        for gid, contract in [("clover", "hearts"), ("spades", "spades"), ("gamut", "spades")]:
            lay = get_game(gid).layout(contract)
            assert int(lay.sides(masks("AC", "KC", "QC", "JC"), [1])[0]) == 0b1010

    def test_every_seat_for_itself(self):
        for gid, contract in [("hearts", "hearts"), ("gamut", "hearts"), ("gamut", "clubs"), ("ohhell", "clubs")]:
            lay = get_game(gid).layout(contract)
            assert int(lay.sides(masks("AC", "KC", "QC", "JC"), [2])[0]) == 0b0100

    def test_sheepshead_partner_cards(self):
        hands = ("J♦ A♣", "Q♣ J♣", "A♥ 10♠", "K♣ J♠", "7♥ J♥")
        want = {"jd": 0b00011, "jc": 0b00110, "js": 0b01100, "jh": 0b10100, "called_ace_hearts": 0b00100,
                "called_ten_spades": 0b00100, "alone": 0b00100, "leaster": 0b00100}
        for contract, bits in want.items():
            declarer = 1 if contract == "jd" else 2
            lay = get_game("sheepshead").layout(contract)
            assert int(lay.sides(masks(*hands), [declarer])[0]) == bits, contract
        # The called ace with someone else: picker + holder.
        lay = get_game("sheepshead").layout("called_ace_clubs")
        assert int(lay.sides(masks(*hands), [3])[0]) == 0b01001
