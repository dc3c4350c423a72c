"""Sheepshead's stakes: the blitz, red blitz, crack and re-crack multipliers, as a table of
:class:`~trickcore.policies.HeuristicPolicy` players declares them, for many layouts at once.

The odds tools (:func:`analysis.odds.contract_odds`, :func:`analysis.passing.pass_odds`)
model the other seats' picks, calls and burials by the heuristic; with ``stakes="heuristic"``
they model the stakes the same way, so that their payouts are the ones the round engine
(:mod:`trickcore.rounds.sheepshead`) would pay at such a table.  The round engine's order
and HeuristicPolicy's answers, per layout (the dealer the last seat, as everywhere in
:mod:`analysis`):

* **blitz** (rule option ``blitz``, on by default), before the picker sees the blind: a
  picker holding both black queens blitzes (×2); then a seat holding both red queens, the
  picker included, red-blitzes (×2).  HeuristicPolicy always declares both.
* **crack** (rule option ``crack``, on by default), after the call and the burial: the
  seats after the picker up to the dealer, in order, are asked; the first that cracks by
  :func:`~trickcore.policies.heuristic.sheepshead_cracks` does (×2: the partner always, a
  defender with at least five trumps or four with two queens).  Then the picker, and
  after it the partner, may re-crack: the first of them that does by
  :func:`~trickcore.policies.heuristic.sheepshead_recracks` (at least four trumps; a picker
  alone six, or five with four queens and jacks) doubles again.  At most one crack and one
  re-crack.

Those rules are HeuristicPolicy's (its ``bid`` method); a test drives the round engine
with it on hundreds of deals and finds the same multiplier on every one.  The analyst's
own stake decisions are the heuristic's too: a model of the table, not advice (whether a
seat should crack is :func:`analysis.cracking.crack_odds`' question).

>>> import numpy as np
>>> from trickcore import CardSet
>>> hands = ["QC QS QH JC 7C 8C", "QD JS AH 10H KH 9H", "JH JD AD 10D KD 9D",
...          "AC 10C KC 9C AS 10S", "KS 9S 8S 7S 8H 7H", "8D 7D"]
>>> dealt = np.array([[CardSet(h).mask for h in hands]], dtype=np.uint64)
>>> # seat 0 picks with both black queens (blitz, x2); seat 2, its partner (J♦), cracks
>>> # (x2); the picker, after burying the blind, holds six trumps and re-cracks (x2)
>>> played = dealt.copy()
>>> played[0, 0] = CardSet("QC QS QH JC 8D 7D").mask
>>> heuristic_multiplier("sheepshead", "jd", dealt, played, picker=0, partner=np.array([2])).tolist()
[8]
>>> heuristic_multiplier("sheepshead", "jd", dealt, played, picker=0, partner=np.array([2]),
...                      rules={"blitz": False}).tolist()
[4]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from trickcore.cards import CardSet
from trickcore.games import get_game
from trickcore.policies.heuristic import sheepshead_cracks, sheepshead_recracks

__all__ = ["STAKES", "heuristic_multiplier", "partner_seats", "check_stakes", "blitz_factor", "trump_mask",
           "first_cracker", "cracked_stake", "cracks", "recracks"]

#: The ``stakes`` models of the odds tools: ``"base"`` (multiplier 1, the scorer's unit
#: stake) and ``"heuristic"`` (this module).
STAKES = ("base", "heuristic")

_BLACK_QUEENS = CardSet("QC QS").mask
_RED_QUEENS = CardSet("QH QD").mask
_QUEENS = np.uint64(CardSet("QC QS QH QD").mask)
_QUEENS_JACKS = np.uint64(CardSet("QC QS QH QD JC JS JH JD").mask)


def check_stakes(game: Any, stakes: str) -> str:
    """``stakes`` checked against :data:`STAKES`; ``"heuristic"`` only where the game has
    stakes to declare (Sheepshead).

    >>> check_stakes("goathead3", "heuristic")
    Traceback (most recent call last):
      ...
    ValueError: stakes='heuristic' models Sheepshead's blitzes and cracks; goathead3 has none (use stakes='base')
    """
    if stakes not in STAKES:
        raise ValueError(f"unknown stakes {stakes!r}; valid: {', '.join(STAKES)}")
    gid = get_game(game).id
    if stakes == "heuristic" and gid != "sheepshead":
        raise ValueError(f"stakes='heuristic' models Sheepshead's blitzes and cracks; {gid} has none "
                         "(use stakes='base')")
    return stakes


def _has_all(hands: np.ndarray, mask: int) -> np.ndarray:
    m = np.uint64(mask)
    return (hands & m) == m


def _count(hands: np.ndarray, mask: np.uint64) -> np.ndarray:
    return np.bitwise_count(hands & mask).astype(np.int64)


def partner_seats(contract: str, played: np.ndarray, picker: int) -> np.ndarray:
    """Each row's partner of ``picker`` under Sheepshead ``contract``: the seat holding the
    partner card (:func:`trickcore.rounds.sheepshead.partner_card`) in ``played``, ``-1``
    when nobody else does (alone, or the picker holds or buried it)."""
    from trickcore.rounds.sheepshead import partner_card

    card = partner_card(contract)
    out = np.full(len(played), -1, dtype=np.int64)
    if card is None:
        return out
    bit = np.uint64(1) << np.uint64(int(card))
    for s in range(played.shape[1]):
        if s != int(picker):
            out = np.where((played[:, s] & bit) != 0, s, out)
    return out


def heuristic_multiplier(game: Any, contract: str, dealt: np.ndarray, played: np.ndarray, picker: int,
                         partner: np.ndarray | None = None, rules: Mapping[str, Any] | None = None) -> np.ndarray:
    """The stake multiplier of each layout (module docstring), an ``int64`` array.

    ``dealt``: the hands as dealt, one row per layout, a column per seat (universal
    bit-boards; more columns, such as the blind's, are ignored); ``played``: the hands at
    the start of play (the picker's after the pick-up and the burial); ``picker``: the
    picking seat; ``partner``: each row's partner seat (``-1``: none; by default the holder
    of the contract's partner card in ``played`` other than the picker, as the round engine
    finds it); ``contract``: the contract called (its trumps count for the crack).  ``rules``: the rule options
    ``blitz`` and ``crack`` (both on by default, as in the rulings).
    """
    g = get_game(game)
    if g.id != "sheepshead":
        check_stakes(g, "heuristic")
    rules = dict(rules or {})
    n_seats = g.n_seats
    dealt = np.asarray(dealt, dtype=np.uint64)
    played = np.asarray(played, dtype=np.uint64)
    if partner is None and dealt.ndim == 2 and played.ndim == 2:
        partner = partner_seats(contract, played[:, :n_seats], picker)
    partner = np.asarray(partner, dtype=np.int64)
    if dealt.ndim != 2 or dealt.shape[1] < n_seats or played.shape[:1] != dealt.shape[:1] \
            or played.ndim != 2 or played.shape[1] < n_seats or partner.shape != dealt.shape[:1]:
        raise ValueError(f"dealt and played must be (layouts, >= {n_seats}) arrays and partner one seat per "
                         f"layout; got {dealt.shape}, {played.shape} and {partner.shape}")
    picker = int(picker)
    if not 0 <= picker < n_seats:
        raise ValueError(f"picker must be a seat 0..{n_seats - 1}; got {picker}")
    mult = blitz_factor(dealt, picker, rules)
    if rules.get("crack", True):
        trumps = trump_mask(contract, rules)
        cracked = first_cracker(played, range(picker + 1, n_seats), partner, trumps) >= 0   # up to the dealer
        mult *= np.where(cracked, cracked_stake(played, picker, partner, trumps), 1)
    return mult


def blitz_factor(dealt: np.ndarray, picker: int, rules: Mapping[str, Any]) -> np.ndarray:
    """Each layout's blitz and red blitz multiplier (1, 2 or 4) as HeuristicPolicy declares
    them (module docstring) under the rule option ``blitz``."""
    mult = np.ones(len(dealt), dtype=np.int64)
    if rules.get("blitz", True):
        mult *= np.where(_has_all(dealt[:, picker], _BLACK_QUEENS), 2, 1)
        red = np.zeros(len(dealt), dtype=bool)
        for s in range(get_game("sheepshead").n_seats):
            red |= _has_all(dealt[:, s], _RED_QUEENS)
        mult *= np.where(red, 2, 1)
    return mult


def trump_mask(contract: str, rules: Mapping[str, Any]) -> np.uint64:
    """The trumps of Sheepshead ``contract`` under ``rules``, as a bit-board (what a crack
    counts)."""
    from .simulate import _layout_rules

    lay = get_game("sheepshead").layout(contract, **_layout_rules("sheepshead", rules))
    return np.uint64(CardSet(lay.suits[-1]).mask) if lay.trump else np.uint64(0)


def cracks(played: np.ndarray, seat: int, partner: np.ndarray, trumps: np.uint64) -> np.ndarray:
    """Whether ``seat`` cracks on each layout, as HeuristicPolicy does
    (:func:`~trickcore.policies.heuristic.sheepshead_cracks`), by its hand in ``played``
    (at the start of play) and whether it is the row's ``partner``."""
    hand = played[:, seat]
    return sheepshead_cracks(_count(hand, trumps), _count(hand, trumps & _QUEENS), np.asarray(partner) == seat)


def recracks(hand: np.ndarray, trumps: np.uint64, alone: Any) -> np.ndarray:
    """Whether the picker or the partner holding ``hand`` (one per layout, at the start of
    play) re-cracks, as HeuristicPolicy does
    (:func:`~trickcore.policies.heuristic.sheepshead_recracks`); ``alone``: the picker has
    no partner."""
    return sheepshead_recracks(_count(hand, trumps), _count(hand, trumps & _QUEENS_JACKS), alone)


def first_cracker(played: np.ndarray, seats: range, partner: np.ndarray, trumps: np.uint64) -> np.ndarray:
    """Each layout's first seat of ``seats``, in order, that cracks as HeuristicPolicy does
    (:func:`cracks`), or ``-1``."""
    out = np.full(len(played), -1, dtype=np.int64)
    for s in reversed(seats):
        out = np.where(cracks(played, s, partner, trumps), s, out)
    return out


def cracked_stake(played: np.ndarray, picker: int, partner: np.ndarray, trumps: np.uint64,
                  picker_recracks: bool = True) -> np.ndarray:
    """Each layout's multiplier once somebody has cracked: 2, or 4 where the picker or,
    after it, the partner re-cracks (:func:`recracks`; the round engine asks them whoever
    cracked).  ``picker_recracks=False``: the picker declines, only the partner may."""
    n = len(played)
    has_partner = partner >= 0
    partner_hand = played[np.arange(n), np.where(has_partner, partner, picker)]
    recrack = has_partner & recracks(partner_hand, trumps, False)
    if picker_recracks:
        recrack |= recracks(played[:, picker], trumps, ~has_partner)
    return np.where(recrack, 4, 2)
