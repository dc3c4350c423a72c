"""Clover melds declared from the hand (``RULINGS.md``, Clover).

* Sets of four: four jacks 200, four aces / kings / queens 100; with the Clover rule option
  ``four_low_ranks='jass'`` also four 9s 150 and four 10s 100 (default: no other set counts
  in the hand; sets of three count only in tricks).
* Runs in one suit, natural order A K Q J 10 9 8 7: 3 cards 20, 4 cards 50, 5 or more 100.
* The Bell, K+Q of trump: 20, and it may share its cards with another meld.
* Otherwise a card serves one meld; the value is that of the best partition of the hand.
  A long run may be split: eight in a row score 100 + 20 as a run of five and a run of three.

In universal ids (``16 * suit + rank``) the ranks 7 … A of one suit are bits 5 … 12 of
that suit's 16 bits, already in natural order, so one suit's holding is an 8-bit pattern
and the best runs of every pattern come from a 256-entry table.  The batch function tries
every choice of sets of four (at most 16) and keeps the best, all in numpy.

Examples
--------
>>> hand_melds("JC JD JH JS AS KS QS 7C", trump="S")
240
>>> hand_melds("AS KS QS JS 10S 9S 8S 7S", trump=None)   # 5 + 3 beats one run of 8
120
>>> hand_melds("KH QH JH 7C 8D 9S AC AD", trump="H")    # run of 3 and the Bell share K Q
40
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..cards import DECK32, SUITS, CardSet, parse_hand

__all__ = ["hand_melds", "hand_melds_batch", "RUN_VALUE", "SET_VALUE", "BELL"]

#: Value of a run by its length (0 below three).
RUN_VALUE = {3: 20, 4: 50, 5: 100}
#: Value of a set of four by universal rank (J, Q, K, A).
SET_VALUE = {9: 200, 10: 100, 11: 100, 12: 100}
#: Extra sets of four under the rule option ``four_low_ranks='jass'`` (four 9s, four 10s).
JASS_SET_VALUE = {7: 150, 8: 100}
BELL = 20
_LOW_RANK = 5  # universal rank of the 7


def _run_value(length: int) -> int:
    return 0 if length < 3 else RUN_VALUE[min(length, 5)]


def _best_runs(length: int, memo: dict[int, int] = {}) -> int:
    """Best split of a sequence of ``length`` consecutive cards into runs."""
    if length < 3:
        return 0
    if length not in memo:
        memo[length] = max([_best_runs(length - 1)] + [_run_value(k) + _best_runs(length - k) for k in range(3, length + 1)])
    return memo[length]


def _pattern_value(pattern: int) -> int:
    total, run = 0, 0
    for bit in range(9):  # one past the top so the last run is closed
        if bit < 8 and pattern >> bit & 1:
            run += 1
        else:
            total += _best_runs(run)
            run = 0
    return total


#: Best run value of each 8-bit one-suit holding (bit 0 = 7 … bit 7 = A).
RUN_TABLE = np.array([_pattern_value(p) for p in range(256)], dtype=np.int64)

_SUIT_SHIFT = np.array([16 * s + _LOW_RANK for s in range(4)], dtype=np.uint64)


def _trump_index(trump: Any) -> int:
    """-1 for no trump, else the suit index 0-3 (C D H S)."""
    if trump is None or trump in ("notrump", "N", "NT"):
        return -1
    names = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}
    if isinstance(trump, str):
        if trump in names:
            return names[trump]
        t = trump.upper()
        if t in SUITS:
            return SUITS.index(t)
        if trump in "♣♦♥♠" and len(trump) == 1:
            return "♣♦♥♠".index(trump)
    elif isinstance(trump, (int, np.integer)) and not isinstance(trump, bool) and 0 <= int(trump) < 4:
        return int(trump)
    raise ValueError(f"trump must be a suit (C D H S, a suit name or 0-3) or None for no trump, not {trump!r}")


def hand_melds_batch(hands: Iterable[int] | np.ndarray, trump: Any,
                     four_low_ranks: str = "set_of_three") -> np.ndarray:
    """Hand-meld value of many hands (uint64 bit-boards of universal ids) under one trump.

    >>> import numpy as np
    >>> from trickcore.cards import CardSet
    >>> hands = [CardSet.parse(h).mask for h in ("AC AD AH AS KC KD KH KS", "9H 10H JH QH 7S 8S 9S AD")]
    >>> hand_melds_batch(np.array(hands, dtype=np.uint64), trump="C").tolist()
    [200, 70]
    """
    if four_low_ranks not in ("set_of_three", "jass"):
        raise ValueError(f"four_low_ranks must be 'set_of_three' or 'jass', not {four_low_ranks!r}")
    sets = {**SET_VALUE, **(JASS_SET_VALUE if four_low_ranks == "jass" else {})}
    set_ranks = tuple(sets)
    h = np.asarray(hands, dtype=np.uint64).reshape(-1)
    if (h & ~np.uint64(DECK32.mask)).any():
        raise ValueError("Clover hands hold only cards of the 32-card deck (A K Q J 10 9 8 7)")
    t = _trump_index(trump)
    # pats[i, s]: 8-bit holding of suit s (bit 0 = 7, bit 7 = A)
    pats = ((h[:, None] >> _SUIT_SHIFT[None, :]) & np.uint64(0xFF)).astype(np.int64)
    full = {r: (pats >> (r - _LOW_RANK) & 1).all(axis=1) for r in set_ranks}
    best = np.zeros(len(h), dtype=np.int64)
    for choice in range(1 << len(set_ranks)):
        ranks = [r for i, r in enumerate(set_ranks) if choice >> i & 1]
        ok = np.ones(len(h), dtype=bool)
        removed = 0
        value = 0
        for r in ranks:
            ok &= full[r]
            removed |= 1 << (r - _LOW_RANK)
            value += sets[r]
        if not ok.any():
            continue
        runs = RUN_TABLE[pats & ~removed].sum(axis=1)
        best = np.where(ok, np.maximum(best, value + runs), best)
    if t >= 0:
        k, q = 1 << (11 - _LOW_RANK), 1 << (10 - _LOW_RANK)
        best += np.where((pats[:, t] & (k | q)) == (k | q), BELL, 0)
    return best


def hand_melds(hand: str | CardSet | Iterable[Any] | int, trump: Any, four_low_ranks: str = "set_of_three") -> int:
    """Best meld value of one Clover hand; ``trump`` a suit (``"S"``, ``"spades"``, 0-3) or
    ``None``/``"notrump"``; ``four_low_ranks`` the Clover rule option (``'jass'``: four 9s
    150, four 10s 100; default: four low cards score nothing in hand).

    >>> hand_melds("QC QD QH QS KS 9H 8H 7H", trump="spades")   # Q set 100 + run 9 8 7 20 + Bell 20
    140
    >>> hand_melds("QC QD QH", trump="spades")
    0
    >>> hand_melds("9C 9D 9H 9S", trump=None), hand_melds("9C 9D 9H 9S", None, four_low_ranks="jass")
    (0, 150)
    """
    mask = hand if isinstance(hand, (int, np.integer)) and not isinstance(hand, bool) else parse_hand(hand).mask
    return int(hand_melds_batch(np.array([mask], dtype=np.uint64), trump, four_low_ranks)[0])
