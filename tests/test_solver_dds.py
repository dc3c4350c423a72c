"""The solver against DDS (Bo Haglund's bridge double-dummy solver, through ``endplay``).

Spades with ``spade_leading='always'`` is bridge double dummy with spades trump, and Oh Hell
with ``hand_size=13`` and the partnership given through ``sides`` is bridge in any
denomination, so DDS's trick counts are an independent reference on full 52-card deals.

Seat mapping (documented once, used everywhere here)
----------------------------------------------------
Our seats go round in play order ("left" is the next seat); bridge plays clockwise
W → N → E → S.  So::

    our seat 0 = West, 1 = North, 2 = East, 3 = South

and a deal is given to ``endplay`` as the PBN string ``"W:<seat0> <seat1> <seat2> <seat3>"``.
Our ``leader=0`` is West on lead, which in bridge means **South declares** (the opening lead
comes from declarer's left).  Hence, for trump ``T``:

* ``solve(..., leader=0, declarer=1)`` (side = seats 1 and 3 = North–South) equals
  ``calc_dd_table(deal)[T, Player.south]`` (and ``[T, Player.north]`` would be East on lead);
* ``solve(..., leader=0, declarer=0)`` (East–West, West to play) equals the best entry of
  ``solve_board(deal)`` with ``deal.first = West`` — and each card value of West equals
  DDS's future tricks for that card.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

endplay = pytest.importorskip("endplay")
from endplay.dds import calc_dd_table, solve_board  # noqa: E402
from endplay.types import Deal, Denom, Player  # noqa: E402

import trickcore  # noqa: E402
from trickcore import DECK52, Card, CardSet  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bruteforce as bf  # noqa: E402  (only its random play-outs and its Position type)

SEAT_TO_PLAYER = (Player.west, Player.north, Player.east, Player.south)
DENOM_OF_CONTRACT = {"clubs": Denom.clubs, "diamonds": Denom.diamonds, "hearts": Denom.hearts,
                     "spades": Denom.spades, "notrump": Denom.nt}
NS, EW = 0b1010, 0b0101  # seat masks: North(1)+South(3), West(0)+East(2)


def random_deals(n: int, seed: int) -> np.ndarray:
    """``n`` uniformly random bridge deals as universal bit-boards, shape ``(n, 4)``."""
    rng = random.Random(seed)
    deck = list(DECK52)
    out = np.zeros((n, 4), dtype=np.uint64)
    for i in range(n):
        rng.shuffle(deck)
        for s in range(4):
            out[i, s] = sum(1 << int(c) for c in deck[13 * s:13 * s + 13])
    return out


def to_endplay(hands) -> Deal:
    """Our four hands (seat 0 = West, clockwise) as an endplay Deal."""
    return Deal.from_pbn("W:" + " ".join(CardSet(int(h)).pbn() for h in hands))


def endplay_card_to_ours(card) -> Card:
    suit = {Denom.spades: "S", Denom.hearts: "H", Denom.diamonds: "D", Denom.clubs: "C"}[card.suit]
    rank = card.rank.name[1:]  # Rank.RA -> "A", Rank.RT -> "T", Rank.R9 -> "9"
    return Card.parse(rank + suit)


def dds_ns_tricks(hands, denom) -> int:
    """North–South tricks with West on lead (South declares), from DDS's table."""
    return calc_dd_table(to_endplay(hands))[denom, Player.south]


def test_seat_mapping_on_a_known_deal():
    """Hand-checkable: North–South hold every spade and the top of every suit."""
    west = CardSet.parse("2H 3H 4H 5H 6H 7H 2D 3D 4D 5D 6D 7D 2C")
    north = CardSet.parse("AS KS QS JS TS 9S 8S AH KH QH JH TH 9H")
    east = CardSet.parse("8H 8D 9D TD 3C 4C 5C 6C 7C 8C 9C TC JC")
    south = CardSet.parse("7S 6S 5S 4S 3S 2S AD KD QD JD AC KC QC")
    hands = [west.mask, north.mask, east.mask, south.mask]
    assert dds_ns_tricks(hands, Denom.spades) == 13
    r = trickcore.solve("spades", "spades", hands, leader=0, declarer=1, spade_leading="always")
    assert r.value == 13
    r = trickcore.solve("spades", "spades", hands, leader=0, declarer=0, spade_leading="always")
    assert r.value == 0


def _ending(rules, rng) -> "bf.Position":
    """A random play-out of a full deal stopped 5–8 tricks from the end, 0–3 cards on the table."""
    return bf.random_position(rules, rng, rng.randrange(5, 9), rng.randrange(4))


def _dds_side_to_move(pos, denom) -> int:
    """DDS: tricks of the side to move over the remaining play (current trick included)."""
    start = [set(h) for h in pos.hands]
    for i, c in enumerate(pos.trick):
        start[(pos.leader + i) % 4].add(c)
    deal = Deal.from_pbn("W:" + " ".join(CardSet(bf.mask(h)).pbn() for h in start))
    deal.trump = denom
    deal.first = SEAT_TO_PLAYER[pos.leader]
    for c in pos.trick:
        text = Card(c).ascii()
        deal.play(text[-1] + text[:-1])  # endplay writes suit first: "S7"
    return max(t for _c, t in solve_board(deal))


@pytest.mark.parametrize("game,contract,opts", [
    ("spades", "spades", {"spade_leading": "always"}),
    ("ohhell", "notrump", {"hand_size": 13}),
    ("ohhell", "diamonds", {"hand_size": 13}),
])
def test_endings_equal_dds(game, contract, opts):
    """80 endings of real play-outs (5–8 tricks left, often mid-trick): the side to move's
    tricks.  Every seat on lead and to move occurs; quick, so it runs by default."""
    rules = bf.rules_for(game, contract, **opts)
    rng = random.Random(f"dds-{game}-{contract}")
    bad = []
    for _ in range(80):
        pos = _ending(rules, rng)
        mover = pos.to_move
        side = (1 << mover) | (1 << ((mover + 2) % 4))
        r = trickcore.solve(game, contract, [bf.mask(h) for h in pos.hands], leader=pos.leader, declarer=mover,
                            trick=[Card(c) for c in pos.trick], played=bf.mask(pos.played), sides=side, **opts)
        want = _dds_side_to_move(pos, DENOM_OF_CONTRACT[contract])
        if r.value != want:
            bad.append(f"{pos.describe()}: DDS {want} for the side of seat {mover}, ours {r.value}")
    assert not bad, f"{len(bad)}/80 endings differ:\n" + "\n".join(bad[:5])


@pytest.mark.slow
def test_spades_always_equals_dds_on_50_deals():
    deals = random_deals(50, seed=52)
    ours = trickcore.solve_many("spades", "spades", deals, leader=0, declarer=1, spade_leading="always")
    assert (ours.side == NS).all()
    bad = []
    for i, hands in enumerate(deals):
        want = dds_ns_tricks(hands, Denom.spades)
        if int(ours.value[i]) != want:
            bad.append(f"deal {i} W:{' '.join(CardSet(int(h)).pbn() for h in hands)}: "
                       f"DDS N-S {want}, ours {int(ours.value[i])}")
    assert not bad, f"{len(bad)}/50 deals differ:\n" + "\n".join(bad[:5])


def test_card_values_equal_dds_solve_board():
    """West's every opening lead: our card values (East–West tricks) = DDS future tricks
    (under a second: in the default run, as the card values' search changed in session 24)."""
    bad = []
    for i, hands in enumerate(random_deals(6, seed=7)):
        deal = to_endplay(hands)
        deal.first = Player.west
        deal.trump = Denom.spades
        want = {endplay_card_to_ours(c): t for c, t in solve_board(deal)}
        r = trickcore.solve("spades", "spades", [int(h) for h in hands], leader=0, declarer=0,
                            spade_leading="always")
        if r.card_values != want or r.value != max(want.values()):
            bad.append(f"deal {i} {deal.to_pbn()}: DDS {sorted((str(c), v) for c, v in want.items())}, "
                       f"ours value {r.value} {sorted((str(c), v) for c, v in r.card_values.items())}")
    assert not bad, "\n".join(bad[:3])


@pytest.mark.slow
@pytest.mark.parametrize("contract", ["notrump", "hearts", "clubs"])
def test_ohhell_13_cards_as_bridge_equals_dds(contract):
    """Oh Hell with 13 cards and a North–South partnership is bridge in that denomination."""
    deals = random_deals(12, seed=100 + list(DENOM_OF_CONTRACT).index(contract))
    ours = trickcore.solve_many("ohhell", contract, deals, leader=0, declarer=1, sides=NS, hand_size=13)
    bad = []
    for i, hands in enumerate(deals):
        want = dds_ns_tricks(hands, DENOM_OF_CONTRACT[contract])
        if int(ours.value[i]) != want:
            bad.append(f"deal {i} W:{' '.join(CardSet(int(h)).pbn() for h in hands)}: DDS {want}, ours {int(ours.value[i])}")
    assert not bad, "\n".join(bad[:5])
