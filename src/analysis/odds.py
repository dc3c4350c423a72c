"""Odds for the analyst's own hand: how likely each contract makes and what it pays.

:func:`contract_odds` takes one hand in one seat and, for every contract, averages over the
layouts of the unseen cards (the other hands and the kitty):

* **exactly** when there are few enough layouts (3-player Goathead: 14 unseen cards give
  14! / (6! 6! 2!) = 84,084 layouts): every layout is dealt once by
  :func:`trickcore.deals.enumerate_deals` and the figures are exact (intervals collapse
  to the point);
* otherwise by **sampling** uniformly random layouts, chunk by chunk, until the standard
  errors of every make probability *and* every expected payout reach their targets
  (``target_se``; ``target_ev_se``, by default relative to the payouts' range) or
  ``max_deals`` layouts were used; the intervals are 95 % Wilson (probabilities) and t
  (payouts) intervals.

The result says which it did (column ``method`` and ``attrs["method"]``) and what stopped
it (``attrs["stopped_by"]``).

Play is double dummy (every player sees every card: the usual yardstick, optimistic for
the side that benefits from seeing), from the start; the first lead is seat ``leader``
(default 0, left of the dealer).

Kitty decisions, by ``kitty_policy``, in the games that have them: 3-player Goathead and
Sheepshead (the declarer / picker takes the whole kitty and buries two cards) and 4-player
Goathead (the kitty round: each player in turn may swap one card, see below):

``"none"``
    never pick up (Goathead: the no-exchange point is collected; Sheepshead, where the
    picker must take the blind: the blind's own two cards are buried, the same play).
``"heuristic"`` (default)
    a simple rule a player could follow:

    * *pick up* unless the hand is already strong: at least 5 of its 6 cards are trumps
      or side aces for the contract (then keep it and collect the no-exchange point);
      Nil always picks up;
    * *bury* the two cards least worth keeping: never a trump or a side ace if anything
      else is left; among the rest the highest card points first (a buried ten's points
      are safe in the kitty, a ten held without its ace is likely lost); for Nil the two
      highest-ranking cards;
    * *raise* after the exchange to the higher-ranking contract (not Nil) whose trumps
      plus side aces in the new hand beat the declared contract's count by at least 2.

    Sheepshead: the picker always takes the blind (picking *is* taking it) and buries by
    the same rule; with a called ace / ten it keeps its most valued card of the called
    suit (the rule that the picker keeps one).  Its *raise* is going alone instead of
    calling a partner (called ace / ten / jack contracts), when all six cards are trumps
    or fail aces.  A called card that reached the picker's hand leaves the picker alone,
    as the contract's side rule does.
``"dd_best"``
    per layout, the best of every choice — no exchange (Goathead), or each of the 28 ways
    to bury two of eight cards, each with every contract the declarer may switch to (Goathead:
    at or above the one declared; Sheepshead: the call or alone; a burial that leaves no card
    of a called suit is not allowed) — by the double-dummy payout.  It knows the hidden
    hands, so it is an **optimistic** bound (``attrs["optimistic"] = True``); it costs up to
    29 (Goathead) or 56 (Sheepshead) solves per layout and contract.

4-player Goathead, the kitty round (:func:`heuristic_swaps`): the declarer, then each other
player to the left, then the dealer once more, may swap one card with the kitty.
The kitty policy is the declarer's; the other players always follow the heuristic: each
swaps the kitty card it values most for its least valued card when that is a gain (a
defender gives its cheapest card, since the kitty counts for the declarer's side; under Nil
the others do not swap).  ``"heuristic"``: the declarer does the same, but keeps a hand with
3 of 4 trumps / side aces for the no-exchange point; ``"dd_best"``: the declarer's choice
(keep, or any of the 16 swaps) is the best by double dummy per layout (optimistic, and never
below the other two policies on any layout); ``"none"``: the declarer keeps its hand.
``p_exchange`` is how often the declarer swapped; there is no raise (the contract is fixed
before the round).

Sheepshead's real decision is pick *or pass*, and the table above answers only "if you
pick".  :func:`analysis.passing.pass_odds` gives the other half: the expected payout of
passing with the same hand in the same seat — the earlier seats passed (layouts
conditioned on the heuristic passing), a later seat picks by the heuristic and plays with
this module's ``"heuristic"`` kitty policy (the analyst then its partner or a defender),
or nobody picks and the rule option ``no_pick`` decides — on the same payout scale, so
``ev`` there and here compare directly (CLI: ``trickcore odds sheepshead "HAND" --pass``).
It covers Goathead too (``goathead3``, ``goathead4``): passing at the analyst's first
turn in the auction, the round engine with HeuristicPolicy deciding the later bids, the
kitty and the swaps, leasters when everybody passes (CLI: ``odds goathead3 ... --pass``).

Games without a declaring side and trick-bid games (Spades, Gamut, Oh Hell, Hearts, and
leasters with ``policy="paranoid"``) are analysed for the analyst's seat as
:mod:`analysis.paranoid` and :mod:`analysis.bids` describe: a row per contract and bid
(``bid`` −1 where nothing is bid), ``p_make`` and ``ev`` as those modules define them
(double dummy; paranoid where the seat plays alone against all), ``points`` the mean of
the seat's double-dummy ``value``.  There the unseen cards have far too many layouts to
enumerate, so they are sampled; full 13-card deals cost seconds or more each — give
``max_deals`` and/or ``time_budget``.

Examples
--------
>>> odds = contract_odds("goathead3", "JC JS JH JD AC 10C", contracts=["clubs", "court"],
...                      method="sample", target_se=0.05, max_deals=200, seed=1)
>>> odds[["contract", "method"]].values.tolist()
[['clubs', 'sampled'], ['court', 'sampled']]
>>> bool((odds.p_make >= 0.9).all()), odds.attrs["kitty_policy"]
(True, 'heuristic')
>>> contract_odds("goathead3", "JC JS JH JD AC")
Traceback (most recent call last):
  ...
ValueError: the hand has 5 cards; goathead3 deals 6

Oh Hell with three cards, no trump: the chance of each exact bid and what it pays:

>>> o = contract_odds("ohhell", "AS KS 2H", seat=0, rules={"hand_size": 3}, contracts="notrump",
...                   max_deals=40, seed=1)
>>> o[["contract", "bid", "n", "method"]].values.tolist()[:2]
[['notrump', 0, 40, 'sampled'], ['notrump', 1, 40, 'sampled']]
>>> bool((o.p_make_lo <= o.p_make).all() and (o.ev_lo <= o.ev).all())
True
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from trickcore.cards import CardSet, parse_hand
from trickcore.games import Game, get_game

from . import engine
from .constraints import as_constraint, fixed_masks
import time

from .simulate import NO_DECLARER_CONTRACTS, _layout_rules, _play, _scored_frame, bid_contracts, declarer_count
from .stakes import check_stakes, heuristic_multiplier
from .stats import Moments, wilson_interval

__all__ = ["contract_odds", "compare_kitty_policies", "deal_probability", "KITTY_POLICIES", "EXCHANGE_GAMES",
           "SWAP_GAMES", "heuristic_exchange", "heuristic_swaps"]

KITTY_POLICIES = ("heuristic", "dd_best", "none")

#: Games in which the declarer takes the whole kitty and buries as many cards.
EXCHANGE_GAMES = frozenset({"goathead3", "sheepshead"})

#: Games with a kitty round: each player in turn may swap one card with the kitty.
SWAP_GAMES = frozenset({"goathead4"})

#: Default: enumerate when at most this many layouts agree with what is known.
EXACT_LIMIT = 100_000


# -- input checks ----------------------------------------------------------------------

def _is_seat(value: Any, n_seats: int) -> bool:
    """Whether ``value`` is a seat number (an int, numpy ints too, not a bool) below ``n_seats``."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and 0 <= value < n_seats


def _check_seat(name: str, value: Any, n_seats: int) -> int:
    if not _is_seat(value, n_seats):
        raise ValueError(f"{name} must be a seat 0..{n_seats - 1}; got {value!r}")
    return int(value)


def _positive(name: str, value: Any, what: str) -> float:
    """``value`` as a float if it is a positive number, else ``ValueError`` naming ``name``."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = float("nan")
    if isinstance(value, (bool, np.bool_)) or not v > 0:
        raise ValueError(f"{name} must be a positive {what}; got {value!r}")
    return v


def _check_hand(g: Game, hand: Any, seat: int, rules: Mapping[str, Any] | None = None) -> CardSet:
    from trickcore.deals import table_of

    hand_size = table_of(g, **_layout_rules(g.id, rules or {})).hand_size if rules else g.hand_size
    try:
        h = parse_hand(hand)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"bad hand {hand!r}: {exc}") from None
    outside = h - g.deck
    if outside:
        raise ValueError(f"{outside} not in the deck of {g.id}")
    if len(h) != hand_size:
        raise ValueError(f"the hand has {len(h)} cards; {g.id} deals {hand_size}")
    if not _is_seat(seat, g.n_seats):
        raise ValueError(f"seat must be 0..{g.n_seats - 1}; got {seat!r}")
    return h


def _contracts(g: Game, contracts: Any, policy: str = "dd") -> tuple[str, ...]:
    if contracts is None:
        return bid_contracts(g)
    if isinstance(contracts, str):
        contracts = [contracts]
    if not isinstance(contracts, Iterable):
        raise ValueError(f"contracts must be a contract name or a list of them; got {contracts!r}")
    out = tuple(g.check_contract(c) for c in contracts)
    if len(set(out)) != len(out):
        raise ValueError(f"contract listed twice in {list(out)}")
    from .paranoid import seat_kind

    for c in out:
        kind = seat_kind(g, c)  # raises for contracts not analysed at all
        if c in NO_DECLARER_CONTRACTS and policy != "paranoid":
            raise ValueError(f"{c!r} has no declarer, so it has no make probability; choose among {bid_contracts(g)}, "
                             "or pass policy='paranoid' for the seat's paranoid value (analysis.paranoid)")
        if policy == "paranoid" and kind is None:
            raise ValueError(f"policy 'paranoid' is for contracts without a declaring side; {c!r} has one")
    if not out:
        raise ValueError("contracts must name at least one contract")
    return out


# -- kitty decisions ---------------------------------------------------------------------

def _bits(masks: np.ndarray, deck: np.ndarray) -> np.ndarray:
    """bool[n, len(deck)]: which deck cards each mask holds."""
    return ((masks[:, None] >> deck[None, :].astype(np.uint64)) & np.uint64(1)).astype(bool)


def _strength(g: Game, contract: str, masks: np.ndarray, rules: Mapping[str, Any]) -> np.ndarray:
    """Trumps plus side aces held: the heuristic's measure of a hand for a contract."""
    lay = g.layout(contract, **_layout_rules(g.id, rules))
    trump = CardSet(lay.suits[-1]).mask if lay.trump else 0
    aces = sum(CardSet(s[-1:]).mask for s in (lay.suits[:-1] if lay.trump else lay.suits))
    good = np.uint64(trump | aces)
    return np.bitwise_count(masks & good).astype(np.int64)


def _keep_values(g: Game, contract: str, rules: Mapping[str, Any], defender: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Deck card ids and how much the heuristic wants to keep each (low = bury first).

    The declarer's side banks the points of what it buries, so among the cards that are
    neither trumps nor aces it gives away the most points first; a ``defender`` (Goathead
    4p kitty round) would hand those points to the declarer, so gives the fewest first."""
    lay = g.layout(contract, **_layout_rules(g.id, rules))
    deck = np.array(sorted(int(c) for c in lay.deck), dtype=np.int64)
    pts = lay.point_table().astype(np.int64)
    keep = np.zeros(len(deck), dtype=np.int64)
    if lay.objective == "nil" and not defender:
        # Nil: bury the strongest cards (highest rank within their suit).
        for i, c in enumerate(deck.tolist()):
            suit = lay.suits[lay.effective_suit(c)]
            keep[i] = -suit.index(c) * 10 - int(pts[c])
        return deck, keep
    trump = set(lay.suits[-1]) if lay.trump else set()
    fails = lay.suits[:-1] if lay.trump else lay.suits
    aces = {s[-1] for s in fails if s}
    for i, c in enumerate(deck.tolist()):
        if c in trump:
            keep[i] = 1000 + int(lay.card_to_bit[c])
        elif c in aces:
            keep[i] = 500
        elif defender:
            keep[i] = 10 * int(pts[c]) + int(lay.card_to_bit[c]) % 16
        else:
            keep[i] = -10 * int(pts[c]) - int(lay.card_to_bit[c]) % 16
    return deck, keep


def heuristic_exchange(game: str | Game, contract: str, hands: np.ndarray, kitty: np.ndarray,
                       rules: Mapping[str, Any] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The heuristic's pick-up and burial for ``contract`` (module docstring).

    Returns ``(exchanged bool[n], new_hand uint64[n], buried uint64[n])``; where nothing is
    exchanged the hand is unchanged and ``buried`` is the original kitty.  It is the rule of
    the games in :data:`EXCHANGE_GAMES`; given another game with a kitty it still takes the
    whole kitty and buries as many cards (4-player Goathead's own rule, one swap per player,
    is :func:`heuristic_swaps`).

    >>> import numpy as np
    >>> h = np.array([CardSet.parse("JC QC KH QH KS QS").mask], dtype=np.uint64)
    >>> k = np.array([CardSet.parse("JS 10H").mask], dtype=np.uint64)
    >>> ex, new, buried = heuristic_exchange("goathead3", "clubs", h, k)
    >>> bool(ex[0]), str(CardSet(int(new[0]))), str(CardSet(int(buried[0])))
    (True, 'Q♠ J♠ K♥ Q♥ Q♣ J♣', 'K♠ 10♥')
    """
    g = get_game(game)
    rules = dict(rules or {})
    hands = np.asarray(hands, dtype=np.uint64)
    kitty = np.asarray(kitty, dtype=np.uint64)
    lay = g.layout(contract, **_layout_rules(g.id, rules))
    nil = lay.objective == "nil"
    strong = _strength(g, contract, hands, rules) >= g.hand_size - 1
    # Sheepshead: picking means taking the blind, so the picker always exchanges.
    exchanged = np.ones(len(hands), dtype=bool) if (nil or g.id == "sheepshead") else ~strong
    pool = hands | kitty
    deck, keep = _keep_values(g, contract, rules)
    held = _bits(pool, deck)
    score = np.where(held, keep[None, :], np.iinfo(np.int64).max)
    hold = _hold_card_index(g, contract, pool, deck, keep)
    if hold is not None:
        # A called-ace picker must keep a card of the called suit: never bury the one
        # the heuristic values most.
        rows = np.flatnonzero(hold >= 0)
        score[rows, hold[rows]] = np.iinfo(np.int64).max - 1
    order = np.argsort(score, axis=1, kind="stable")[:, : g.kitty_size]
    buried = np.zeros(len(hands), dtype=np.uint64)
    for j in range(g.kitty_size):
        buried |= np.uint64(1) << deck[order[:, j]].astype(np.uint64)
    new_hand = np.where(exchanged, pool & ~buried, hands)
    buried = np.where(exchanged, buried, kitty)
    return exchanged, new_hand, buried


def _called_suit_mask(g: Game, contract: str) -> int:
    """Sheepshead called ace / ten: the fail cards of the called suit (0 for other contracts)."""
    if g.id != "sheepshead" or not contract.startswith("called_"):
        return 0
    letter = {"clubs": "C", "spades": "S", "hearts": "H"}[contract.split("_")[2]]
    return CardSet(c for c in CardSet(g.deck).suit(letter) if c.rank_name not in ("Q", "J")).mask


def _hold_card_index(g: Game, contract: str, pool: np.ndarray, deck: np.ndarray, keep: np.ndarray) -> np.ndarray | None:
    """Per row, the deck index of the called-suit card the picker keeps (−1: none in the
    pool); ``None`` when the contract calls no suit."""
    called = _called_suit_mask(g, contract)
    if not called:
        return None
    in_suit = _bits(pool & np.uint64(called), deck)
    best = np.argmax(np.where(in_suit, keep[None, :], np.iinfo(np.int64).min), axis=1)
    return np.where(in_suit.any(axis=1), best, -1)


def _higher(g: Game, contract: str) -> list[str]:
    """The declared contract and those the declarer may switch to after the exchange.

    Goathead 3p: every higher contract.  Sheepshead: going alone instead of calling a
    partner card (called ace / ten, or a called jack), which the picker decides after
    taking the blind; ``jd`` fixes the partner by the cards, so nothing to choose.
    """
    if g.id == "sheepshead":
        choose = contract.startswith("called_") or contract in ("jc", "js", "jh")
        return [contract, "alone"] if choose else [contract]
    if g.id != "goathead3":
        return [contract]
    order = [c for c in g.contracts if c not in NO_DECLARER_CONTRACTS]
    return order[order.index(contract):]


def _heuristic_raise(g: Game, contract: str, target: str, base: np.ndarray, best: np.ndarray,
                     s: np.ndarray) -> np.ndarray:
    """Rows where the heuristic switches to ``target``: Goathead, when the target's trumps
    plus side aces beat the declared contract's by at least 2; Sheepshead, going alone
    when all six cards are trumps or fail aces."""
    if g.id == "sheepshead":
        return s >= g.hand_size
    return (s >= base + 2) & (s > best)


def heuristic_swaps(game: str | Game, contract: str, deals: np.ndarray, declarer: int, *,
                    rules: Mapping[str, Any] | None = None, leader: int = 0,
                    first: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The Goathead 4p kitty round played by the heuristic: ``(new_deals, declarer_swapped)``.

    In turn — the declarer, each other player to the left, the dealer once more (the
    dealer sits before ``leader``) — a player swaps the kitty card they value most for the
    card of their hand they value least, when that is a gain (trumps, then aces, are worth
    most).  The declarer keeps a strong hand (3 of 4 cards trumps or side aces) for the
    no-exchange point and gives away points (the kitty counts for its side); the others
    give away their cheapest card.  Under Nil only the declarer swaps (it wants low cards;
    what helps the defenders is not modelled).  ``first``: the declarer's own swap, given
    as ``(swap bool[n], give id[n], take id[n])``, instead of the heuristic's.

    >>> import numpy as np
    >>> d = np.array([[CardSet.parse(h).mask for h in ("AD KD 10H QS", "JC AC KC QC", "JS AS KS QH",
    ...                                              "JH AH KH QD", "JD 10D 10C 10S")]], dtype=np.uint64)
    >>> new, swapped = heuristic_swaps("goathead4", "diamonds", d, 0)
    >>> str(CardSet(int(new[0, 0]))), bool(swapped[0])     # the declarer took J♦, gave 10♥
    ('Q♠ A♦ K♦ J♦', True)
    >>> str(CardSet(int(new[0, 1])))                        # seat 1 took 10♦ for Q♣
    '10♦ A♣ K♣ J♣'
    """
    g = get_game(game)
    if g.id not in SWAP_GAMES:
        raise ValueError(f"{g.id} has no kitty round; games with one: {', '.join(sorted(SWAP_GAMES))}")
    rules = dict(rules or {})
    d = np.array(deals, dtype=np.uint64, copy=True)
    n, k = g.n_seats, g.n_seats
    m = len(d)
    nil = g.layout(contract, **_layout_rules(g.id, rules)).objective == "nil"
    dealer = (int(leader) - 1) % n
    order = [int(declarer), *((int(declarer) + j) % n for j in range(1, n)), dealer]
    deck, keep_d = _keep_values(g, contract, rules)
    _, keep_o = _keep_values(g, contract, rules, defender=True)
    swapped = np.zeros(m, dtype=bool)
    for i, s in enumerate(order):
        is_decl = s == int(declarer)
        if nil and not is_decl:
            continue
        if is_decl and i == 0 and first is not None:
            do, give, take = (np.asarray(x) for x in first)
        else:
            keep = keep_d if is_decl else keep_o
            hand_b, kit_b = _bits(d[:, s], deck), _bits(d[:, k], deck)
            worst = np.argmin(np.where(hand_b, keep[None, :], np.iinfo(np.int64).max), axis=1)
            best = np.argmax(np.where(kit_b, keep[None, :], np.iinfo(np.int64).min), axis=1)
            do = keep[best] > keep[worst]
            if is_decl and i == 0 and not nil:
                do &= _strength(g, contract, d[:, s], rules) < g.hand_size - 1
            give, take = deck[worst], deck[best]
        gb = np.uint64(1) << give.astype(np.uint64)
        tb = np.uint64(1) << take.astype(np.uint64)
        d[:, s] = np.where(do, (d[:, s] & ~gb) | tb, d[:, s])
        d[:, k] = np.where(do, (d[:, k] & ~tb) | gb, d[:, k])
        if is_decl:
            swapped |= do
    return d, swapped


# -- one chunk of layouts ---------------------------------------------------------------

def _score_rows(g: Game, contract_per_row: np.ndarray, deals: np.ndarray, exchanged: np.ndarray,
                buried: np.ndarray, rules: Mapping[str, Any], seat: int, leader: int,
                solve: str = "dd") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve and score rows that may play different contracts; returns (payout, made, points).
    ``solve="dd_payout"`` solves each row only as far as its payout needs (the scorer's cuts
    for its kitty and exchange): the same payouts and makes, and the points unknown (NaN)."""
    n = len(deals)
    pay = np.zeros(n)
    made = np.zeros(n)
    pts = np.zeros(n) if solve == "dd" else np.full(n, np.nan)
    for c in pd.unique(contract_per_row):
        rows = np.flatnonzero(contract_per_row == c)
        d = deals[rows]
        played = _play(g.id, c, d, rules, seat, leader, solve, None, exchanged=exchanged[rows], kitty=buried[rows])
        f = _scored_frame(g, c, d, played, rules, seat, leader, solve, exchanged=exchanged[rows], kitty=buried[rows])
        pay[rows] = f[f"payout_{seat}"].to_numpy(dtype=float)
        made[rows] = f["made"].astype("float").fillna(0.0).to_numpy()
        if solve == "dd":
            pts[rows] = declarer_count(f).to_numpy()
    return pay, made, pts


def _heuristic_pick(g: Game, contract: str, deals: np.ndarray, rules: Mapping[str, Any],
                    seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``"heuristic"`` kitty policy for declarer ``seat`` declaring ``contract`` on
    every row of ``deals``: pick up and bury (:func:`heuristic_exchange`), then the raise
    (module docstring).  Returns ``(played contract per row (object array), deals after
    the exchange (the declarer's new hand, the buried cards as the kitty), exchanged bool,
    buried uint64)``.  :func:`analysis.passing.pass_odds` uses it for the picker too."""
    n_seats = g.n_seats
    kitty = deals[:, n_seats]
    hand = deals[:, seat]
    n = len(deals)
    ex, new_hand, buried = heuristic_exchange(g, contract, hand, kitty, rules)
    played = np.full(n, contract, dtype=object)
    if g.layout(contract, **_layout_rules(g.id, rules)).objective != "nil":
        base = _strength(g, contract, new_hand, rules)
        best = base.copy()
        for c in _higher(g, contract)[1:]:
            if g.layout(c, **_layout_rules(g.id, rules)).objective == "nil":
                continue
            ex_c, new_c, bur_c = heuristic_exchange(g, c, hand, kitty, rules)
            s = _strength(g, c, new_c, rules)
            better = ex & ex_c & _heuristic_raise(g, contract, c, base, best, s)
            if better.any():
                best = np.where(better, s, best)
                played = np.where(better, c, played)
                new_hand = np.where(better, new_c, new_hand)
                buried = np.where(better, bur_c, buried)
    d = deals.copy()
    d[:, seat] = new_hand
    d[:, n_seats] = buried
    return played, d, ex, buried


def _stake_multiplier(g: Game, played: np.ndarray, dealt: np.ndarray, after: np.ndarray, rules: Mapping[str, Any],
                      seat: int, stakes: str) -> np.ndarray:
    """Per layout, the stake multiplier of the analyst picking in ``seat`` and playing the
    contract ``played`` (per row) with the hands ``after`` (:mod:`analysis.stakes`; 1 under
    ``stakes="base"``)."""
    mult = np.ones(len(dealt))
    if stakes == "heuristic":
        for c in pd.unique(played):
            rows = played == c
            mult[rows] = heuristic_multiplier(g, c, dealt[rows], after[rows], seat, rules=rules)
    return mult


def _odds_rows(g: Game, contract: str, deals: np.ndarray, rules: Mapping[str, Any], seat: int, leader: int,
               policy: str, stakes: str = "base", solve: str = "dd") -> dict[str, np.ndarray]:
    """Per-layout results of declaring ``contract`` under the kitty ``policy``; payouts
    times the ``stakes`` multiplier (a ``multiplier`` entry in Sheepshead); ``solve`` as
    :func:`_score_rows`."""
    n_seats = g.n_seats
    kitty = deals[:, n_seats]
    hand = deals[:, seat]
    n = len(deals)
    if g.id in SWAP_GAMES:
        return _swap_rows(g, contract, deals, rules, seat, leader, policy, solve)
    staked = {} if g.id != "sheepshead" else {"multiplier": np.ones(n)}
    if policy == "none" or g.id not in EXCHANGE_GAMES or g.kitty_size == 0:
        ex = np.zeros(n, dtype=bool)
        contracts = np.full(n, contract, dtype=object)
        pay, made, pts = _score_rows(g, contracts, deals, ex, kitty, rules, seat, leader, solve)
        if staked:
            staked["multiplier"] = _stake_multiplier(g, contracts, deals, deals, rules, seat, stakes)
            pay = pay * staked["multiplier"]
        return {"payout": pay, "made": made, "points": pts, "exchanged": ex.astype(float), "raised": np.zeros(n),
                **staked}
    if policy == "heuristic":
        played, d, ex, buried = _heuristic_pick(g, contract, deals, rules, seat)
        pay, made, pts = _score_rows(g, played, d, ex, buried, rules, seat, leader, solve)
        if staked:
            staked["multiplier"] = _stake_multiplier(g, played, deals, d, rules, seat, stakes)
            pay = pay * staked["multiplier"]
        return {"payout": pay, "made": made, "points": pts, "exchanged": ex.astype(float),
                "raised": (played != contract).astype(float), **staked}
    # dd_best: every option, keep the best payout per layout.
    best_pay = np.full(n, -np.inf)
    out = {k: np.zeros(n) for k in ("made", "points", "exchanged", "raised")}
    # Goathead may keep the hand (no exchange); a Sheepshead picker always takes the blind
    # (burying the blind's own two cards is one of the burials).
    options: list[tuple[str, bool, Any]] = [(contract, False, None)] if g.id == "goathead3" else []
    for c in _higher(g, contract):
        for pair in itertools.combinations(range(g.hand_size + g.kitty_size), g.kitty_size):
            options.append((c, True, pair))
    pool = hand | kitty
    deck = np.array(sorted(int(x) for x in g.deck), dtype=np.int64)
    held = _bits(pool, deck)
    # The ids of each layout's pooled cards, low to high: (n, hand + kitty).
    ids = np.where(held, deck[None, :], 10**6)
    ids = np.sort(ids, axis=1)[:, : g.hand_size + g.kitty_size].astype(np.uint64)
    for c, exch, pair in options:
        if exch:
            buried = np.zeros(n, dtype=np.uint64)
            for j in pair:
                buried |= np.uint64(1) << ids[:, j]
            d = deals.copy()
            d[:, seat] = pool & ~buried
            d[:, n_seats] = buried
        else:
            buried, d = kitty, deals
        exv = np.full(n, exch)
        contracts = np.full(n, c, dtype=object)
        pay, made, pts = _score_rows(g, contracts, d, exv, buried, rules, seat, leader, solve)
        mult = _stake_multiplier(g, contracts, deals, d, rules, seat, stakes)
        pay = pay * mult
        called = np.uint64(_called_suit_mask(g, c))
        if called:
            # The picker must keep a card of the called suit (when the pool has one).
            pay = np.where(((pool & called) != 0) & ((d[:, seat] & called) == 0), -np.inf, pay)
        better = pay > best_pay
        best_pay = np.where(better, pay, best_pay)
        out["made"] = np.where(better, made, out["made"])
        out["points"] = np.where(better, pts, out["points"])
        out["exchanged"] = np.where(better, float(exch), out["exchanged"])
        out["raised"] = np.where(better, float(c != contract), out["raised"])
        if staked:
            staked["multiplier"] = np.where(better, mult, staked["multiplier"])
    out["payout"] = best_pay
    return {**out, **staked}


def _swap_rows(g: Game, contract: str, deals: np.ndarray, rules: Mapping[str, Any], seat: int, leader: int,
               policy: str, solve: str = "dd") -> dict[str, np.ndarray]:
    """Goathead 4p: the kitty round (:func:`heuristic_swaps`); the declarer keeps its hand
    (``none``), swaps by the heuristic, or (``dd_best``) takes the best of keeping and the
    16 swaps per layout; the others always follow the heuristic.  No raise: the contract
    is fixed before the round."""
    n = len(deals)
    k = g.n_seats
    keep = (np.zeros(n, dtype=bool), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))
    firsts: list[Any] = [None] if policy == "heuristic" else [keep]
    if policy == "dd_best":
        deck = np.array(sorted(int(x) for x in g.deck), dtype=np.int64)

        def ids(masks: np.ndarray, size: int) -> np.ndarray:
            held = _bits(masks, deck)
            return np.sort(np.where(held, deck[None, :], 10**6), axis=1)[:, :size]

        hand_ids, kit_ids = ids(deals[:, seat], g.hand_size), ids(deals[:, k], g.kitty_size)
        for i in range(g.hand_size):
            for j in range(g.kitty_size):
                firsts.append((np.ones(n, dtype=bool), hand_ids[:, i], kit_ids[:, j]))
    best_pay = np.full(n, -np.inf)
    out = {x: np.zeros(n) for x in ("made", "points", "exchanged", "raised")}
    for first in firsts:
        d, swapped = heuristic_swaps(g, contract, deals, seat, rules=rules, leader=leader, first=first)
        pay, made, pts = _score_rows(g, np.full(n, contract, dtype=object), d, swapped, d[:, k], rules, seat, leader,
                                     solve)
        better = pay > best_pay
        best_pay = np.where(better, pay, best_pay)
        out["made"] = np.where(better, made, out["made"])
        out["points"] = np.where(better, pts, out["points"])
        out["exchanged"] = np.where(better, swapped.astype(float), out["exchanged"])
    out["payout"] = best_pay
    return out


def _odds_chunk(spec: dict[str, Any], index: int, seed_seq: np.random.SeedSequence, size: int) -> pd.DataFrame:
    """Sums for one chunk of layouts: enumerated (``spec['deals']``) or sampled; its solves
    stop at ``spec['deadline']`` (``time.time()``, or None) with ``TimeoutError``."""
    from trickcore import solve_deadline

    with solve_deadline(spec.get("deadline")):
        return _chunk_sums(spec, index, seed_seq, size)


def _chunk_sums(spec: dict[str, Any], index: int, seed_seq: np.random.SeedSequence, size: int) -> pd.DataFrame:
    g = get_game(spec["game"])
    if spec["deals"] is not None:
        start = index * spec["chunk_size"]
        deals = spec["deals"][start:start + size]
    else:
        from .simulate import _sample_deals

        deals = _sample_deals(g, size, seed_seq, spec["fixed"], spec["where"],
                              max(spec["budget_factor"] * size, 10_000), spec["rules"])
    rows = []
    for c in spec["contracts"]:
        if spec.get("per_seat", {}).get(c):
            rows.extend(_seat_odds_rows(g, c, deals, spec))
            continue
        r = _odds_rows(g, c, deals, spec["rules"], spec["seat"], spec["leader"], spec["kitty_policy"],
                       spec.get("stakes", "base"), spec.get("solve", "dd"))
        row = {"contract": c, "bid": -1, "n": len(deals), "payout__k": float(len(deals))}
        for k, v in r.items():
            row[f"{k}__s1"] = float(np.sum(v))
            row[f"{k}__s2"] = float(np.sum(v * v))
        row.update(_range(r["payout"]))
        rows.append(row)
    return pd.DataFrame(rows)


def _seat_odds_rows(g: Game, contract: str, deals: np.ndarray, spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Sums per bid of the per-seat double-dummy rows (:func:`analysis.paranoid.seat_frame`)."""
    from .paranoid import seat_frame, seat_kind

    seat = spec["seat"]
    if seat_kind(g, contract) in ("team_bid", "exact_bid"):
        from .bids import bid_frame, bids_of

        bids = [b for b in bids_of(g, contract, spec["rules"]) if b != spec.get("forbidden_bid")]
        f = bid_frame(g, contract, deals, seat=seat, leader=spec["leader"], rules=spec["rules"], bids=bids,
                      bags=spec.get("bags"))
    else:
        f = seat_frame(g, contract, deals, seat=seat, leader=spec["leader"], rules=spec["rules"])
    rows = []
    for bid, part in f.groupby("bid", sort=True):
        pay = part[f"payout_{seat}"].to_numpy(dtype=float)
        ok = ~np.isnan(pay)
        pay = np.nan_to_num(pay)
        made = part["made"].to_numpy(dtype=float)
        val = part["value"].to_numpy(dtype=float)
        row: dict[str, Any] = {"contract": contract, "bid": int(bid), "n": len(part)}
        for k, v in (("made", made), ("payout", pay), ("points", val), ("exchanged", 0 * val), ("raised", 0 * val)):
            row[f"{k}__s1"] = float(np.sum(v))
            row[f"{k}__s2"] = float(np.sum(v * v))
        row["payout__k"] = float(ok.sum())
        row.update(_range(pay[ok]))
        if "bag_penalty" in part.columns:
            row["bag_penalty__s1"] = float(part["bag_penalty"].to_numpy(dtype=float).sum())
        rows.append(row)
    return rows


def _range(v: np.ndarray) -> dict[str, float]:
    """The payout's smallest and largest value (the scale of the payout stopping rule)."""
    if not len(v):
        return {"payout__min": np.inf, "payout__max": -np.inf}
    return {"payout__min": float(np.min(v)), "payout__max": float(np.max(v))}


def _default_chunk(g: Game, per_seat: Mapping[str, bool], rules: Mapping[str, Any]) -> int:
    """Chunk size: large for cheap declarer games, small where one deal takes seconds."""
    if not any(per_seat.values()):
        return 2048
    from trickcore.deals import table_of

    hs = table_of(g, **_layout_rules(g.id, rules)).hand_size
    # Spades' two solves (team maximum, nil) take ~12 ms a 13-card deal; a Hearts or a
    # 10-card Oh Hell minimum up to seconds (analysis.bids, "Cost")
    return 64 if hs <= 8 or g.id == "spades" else 4


def known_cards(g: Game, fixed: Mapping[Any, Any] | None, seat: int, hand: CardSet,
                rules: Mapping[str, Any]) -> np.ndarray:
    """The fixed cards of every seat and the kitty (``fixed_masks`` form) with the
    analyst's ``hand`` in ``seat``; fixing the analyst's own seat again is a ``ValueError``."""
    from .simulate import _fixed_masks

    known = dict(fixed or {})
    if seat in known:
        raise ValueError(f"seat {seat} is the analyst's hand; do not fix its cards again")
    known[seat] = hand
    return _fixed_masks(g, known, rules)


def contract_odds(
    game: str | Game,
    hand: Any,
    seat: int = 0,
    rules: Mapping[str, Any] | None = None,
    contracts: Sequence[str] | str | None = None,
    constraints: Any = None,
    *,
    fixed: Mapping[Any, Any] | None = None,
    method: str = "auto",
    target_se: float = 0.005,
    max_deals: int = 100_000,
    kitty_policy: str = "heuristic",
    seed: int | None = 0,
    leader: int = 0,
    level: float = 0.95,
    exact_limit: int = EXACT_LIMIT,
    chunk_size: int | None = None,
    n_jobs: int = 1,
    backend: Any = "loky",
    progress: bool | None = None,
    policy: str = "dd",
    time_budget: float | None = None,
    target_ev_se: float | None = None,
    bags: int = 0,
    bids_before: int | None = None,
    stakes: str = "base",
) -> pd.DataFrame:
    """Make probability and expected payout of every contract for ``hand`` held in ``seat``.

    Parameters
    ----------
    game, hand, seat:
        The game, the analyst's hand (text such as ``"J♣ J♠ A♣ 10♣ K♣ Q♥"``) and seat;
        the analyst is the declarer.
    rules:
        Rule options (defaults: the rulings).
    contracts:
        Contracts to evaluate (default: every biddable one).
    constraints:
        Predicates on the hidden cards (:mod:`analysis.constraints`), e.g.
        ``Holds(1, "JD")``; layouts that fail them are left out (conditional odds).
    fixed:
        More known cards ``{seat: cards}`` (``"kitty"`` for the kitty).
    method:
        ``"exact"`` (enumerate every layout), ``"sample"``, or ``"auto"``: exact when at
        most ``exact_limit`` layouts agree with what is known.
    target_se, target_ev_se, max_deals:
        Sampling stops when both targets are reached — the standard error of every make
        probability at most ``target_se`` and that of every expected payout at most
        ``target_ev_se`` (absolute, in payout units) — or after ``max_deals`` layouts.
        ``target_ev_se=None`` (default) makes the payout target relative: ``target_se``
        times the range (largest minus smallest) of the payouts seen for that row, i.e. the
        same precision on the scale where a probability's range is 1.  Checked after each
        chunk, in chunk order, so the result does not depend on ``n_jobs``;
        ``attrs["stopped_by"]`` says what ended the run (``"exact"``, ``"target_se"``,
        ``"max_deals"``, ``"time_budget"``).  Ctrl-C while sampling raises
        ``KeyboardInterrupt`` as usual, carrying ``partial_result``: the table of the
        layouts sampled so far (``stopped_by`` ``"interrupted"``), once a chunk is done.
    kitty_policy:
        ``"heuristic"``, ``"dd_best"`` (optimistic) or ``"none"`` (module docstring); used
        in 3-player Goathead, Sheepshead and 4-player Goathead.
    bags:
        Spades: the analysed seat's team's running bag count before this hand (default
        0).  The bag roll-over (rule option ``sandbags``) is then in ``ev``: every multiple
        of ten the count passes costs 110 (so ``bags=0`` charges only ten or more
        overtricks in one hand); the column ``bag_penalty`` is its expected part of ``ev``.
        Non-zero ``bags`` with another game or with ``sandbags=False`` is a ``ValueError``.
    bids_before:
        Oh Hell with the rule option ``no_equal_total``: when the seat is the dealer (the
        seat before ``leader``; it bids last), the sum of the earlier bids — required there,
        as the forbidden bid ``hand_size - bids_before`` depends on it; that bid's row is
        left out (``attrs["forbidden_bid"]``).  Other seats are not restricted and their
        figures do not change (:mod:`analysis.bids`).
    stakes:
        Sheepshead: ``"base"`` (default: every payout at the unit stake, multiplier 1) or
        ``"heuristic"``: the blitzes, red blitzes, cracks and re-cracks that a table of
        :class:`~trickcore.policies.HeuristicPolicy` players declares on each layout under
        the rule options ``blitz`` and ``crack`` (:mod:`analysis.stakes`; the analyst's
        own as the heuristic would), multiplying that layout's payout.  The column
        ``multiplier`` is the mean multiplier.  ``"heuristic"`` with another game is a
        ``ValueError``: only Sheepshead declares stakes.
    seed, chunk_size, n_jobs, backend:
        Sampling seed and parallelism (see :mod:`analysis.engine`).  ``chunk_size``
        defaults to 2048 layouts, 64 for per-seat analyses of hands up to 8 cards and of
        Spades, and 4 for the others (13-card Hearts, Oh Hell from 9 cards: up to seconds
        per layout).
    policy:
        ``"dd"`` (default: double dummy; for games without a declaring side the seat's
        paranoid value, :mod:`analysis.paranoid`), ``"dd_payout"`` (Goathead and
        Sheepshead: each layout solved only as far as its payout needs, the scorer's cuts
        for its kitty and exchange, as ``simulate(policy="dd_payout")``: the same make
        rates, payouts and kitty choices, 3-4x less CPU on Sheepshead, and the
        ``points`` column ``NaN``) or ``"paranoid"`` (needed to analyse leasters of
        Goathead and Sheepshead).
    time_budget:
        Seconds: when sampling, stop once this budget is spent.  The solves of a chunk
        of layouts stop at the budget's end too (:func:`trickcore.solve_deadline`: 13-card
        layouts can take minutes each), and the table covers the chunks finished by then,
        so a run asked for exactly that many layouts gives the same figures; none finished
        raises ``TimeoutError``.  The result depends on the machine's speed — ``n`` says
        how many layouts were used; leave it ``None`` for reproducible runs.

    Returns
    -------
    pandas.DataFrame
        One row per contract (per contract and ``bid`` for per-seat analyses, with the
        ``bid`` column; ``ev`` is then the seat's payout as :mod:`analysis.bids` /
        :mod:`analysis.paranoid` define it, ``NaN`` for leasters): ``n`` layouts used,
        ``method`` (``"exact"`` or
        ``"sampled"``), ``p_make`` with ``p_make_lo``/``p_make_hi``, ``ev`` (the declarer's
        expected payout) with ``ev_lo``/``ev_hi``, ``points`` (the declarer's mean count),
        ``p_exchange`` and ``p_raise`` (how often the kitty policy picked up / raised;
        0 for per-seat analyses, where ``points`` is the mean of the seat's double-dummy
        ``value``: tricks or penalty / card points, as :mod:`analysis.paranoid` and
        :mod:`analysis.bids` define it).
        Spades adds ``bag_penalty`` (the expected roll-over penalty, part of ``ev``),
        Sheepshead ``multiplier`` (the mean stake multiplier; 1 under ``stakes="base"``).
        ``attrs`` holds ``stakes``, ``method``, ``n_layouts`` (layouts agreeing with the fixed cards),
        ``kitty_policy``, ``optimistic``, ``level``, ``stopped_by``, ``target_se``,
        ``target_ev_se``, ``bags`` and ``forbidden_bid``.

    Examples
    --------
    Spades, every hand known (one layout), carrying 9 bags: a team bid of 5 takes 12 tricks,
    7 bags pass the tenth and cost 110:

    >>> hands = ["AS KS QS JS TS 9S AH KH QH AD KD AC KC", "8S 7S 6S 5S 4S 3S 2S JH TH 9H 8H 7H 6H",
    ...          "QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D QC JC"]
    >>> o = contract_odds("spades", hands[0], fixed={1: hands[1], 2: hands[2]}, bags=9).set_index("bid")
    >>> float(o.loc[5, "ev"]), float(o.loc[5, "bag_penalty"]), o.attrs["stopped_by"]
    (-53.0, -110.0, 'exact')

    Raises
    ------
    ValueError
        A hand with the wrong number of cards or cards not in the deck, an unknown contract
        or policy, constraints that no layout satisfies (within the budget when sampling).
    """
    g = get_game(game)
    from trickcore.games.base import rule_dict

    rules = rule_dict(rules)
    from trickcore.scoring._frame import resolve_rules

    resolve_rules(g.id, rules)
    h = _check_hand(g, hand, seat, rules)
    seat = int(seat)
    _check_seat("leader", leader, g.n_seats)
    _positive("target_se", target_se, "standard error")
    max_deals = engine.whole("max_deals", max_deals)
    if max_deals < 1:
        raise ValueError(f"max_deals must be at least 1; got {max_deals}")
    exact_limit = engine.whole("exact_limit", exact_limit)
    if exact_limit < 0:
        raise ValueError(f"exact_limit must be >= 0; got {exact_limit}")
    if fixed is not None and not isinstance(fixed, Mapping):
        raise ValueError(f"fixed must be a mapping {{seat: cards}}; got {fixed!r}")
    engine.check_seed(seed)
    from .stats import z_value

    z_value(level)   # a bad confidence level fails now, not after the run
    if policy not in ("dd", "dd_payout", "paranoid"):
        raise ValueError(f"unknown policy {policy!r}; valid policies: dd, dd_payout, paranoid")
    if policy == "dd_payout":
        from .simulate import _check_policy

        _check_policy(g, policy)
    cons = _contracts(g, contracts, policy)
    from .simulate import _seat_rows

    per_seat = {c: _seat_rows(g.id, c, policy) for c in cons}
    from .bids import check_bags, forbidden_bid

    bags = check_bags(g, rules, bags)
    forbidden = forbidden_bid(g, rules, seat, leader, bids_before)
    if target_ev_se is not None:
        _positive("target_ev_se", target_ev_se, "payout standard error")
    if chunk_size is None:
        chunk_size = _default_chunk(g, per_seat, rules)
    chunk_size = engine.whole("chunk_size", chunk_size)
    if time_budget is not None:
        _positive("time_budget", time_budget, "number of seconds")
    check_stakes(g, stakes)
    if kitty_policy not in KITTY_POLICIES:
        raise ValueError(f"unknown kitty_policy {kitty_policy!r}; valid policies: {', '.join(KITTY_POLICIES)}")
    if method not in ("auto", "exact", "sample"):
        raise ValueError(f"unknown method {method!r}; valid methods: auto, exact, sample")
    if not 0 <= int(leader) < g.n_seats:
        raise ValueError(f"leader must be a seat 0..{g.n_seats - 1}; got {leader!r}")
    fx = known_cards(g, fixed, seat, h, rules)
    cond = as_constraint(constraints)
    cond.check_seats(g.n_seats)
    from trickcore.deals import count_deals, enumerate_deals

    lrules = _layout_rules(g.id, rules)
    n_layouts = count_deals(g.id, [int(x) for x in fx], **lrules)
    exact = method == "exact" or (method == "auto" and n_layouts <= exact_limit)
    spec: dict[str, Any] = {
        "game": g.id, "contracts": cons, "rules": rules, "seat": seat, "leader": int(leader),
        "kitty_policy": kitty_policy, "chunk_size": int(chunk_size), "fixed": fx, "where": cond,
        "budget_factor": 200, "deals": None, "per_seat": per_seat, "bags": bags, "forbidden_bid": forbidden,
        "stakes": stakes, "solve": "dd_payout" if policy == "dd_payout" else "dd",
    }
    stopped_by = "exact" if exact else "max_deals"

    def table(sums: pd.DataFrame, stop: str) -> pd.DataFrame:
        """The result over ``sums``, ``stop`` saying what ended the run."""
        out = _finish(sums, cons, level, exact)
        if not any(per_seat.values()):
            out = out.drop(columns="bid")
        out.attrs.update({
            "method": "exact" if exact else "sampled", "n_layouts": int(n_layouts), "kitty_policy": kitty_policy,
            "optimistic": kitty_policy == "dd_best", "level": level, "seat": seat, "hand": str(h), "game": g.id,
            "policy": policy, "stopped_by": stop, "target_se": target_se, "target_ev_se": target_ev_se,
            "bags": bags, "forbidden_bid": forbidden, "stakes": stakes,
        })
        return out

    if exact:
        deals = enumerate_deals(g.id, [int(x) for x in fx], max_count=max(exact_limit, 5_000_000 if method == "exact" else exact_limit),
                                **lrules)
        ok = cond.mask(deals)
        if not ok.any():
            raise ValueError(f"no layout of the unseen cards satisfies {cond!r}")
        deals = deals[ok]
        spec["deals"] = deals
        task = functools.partial(_odds_chunk, spec)
        sums = engine.run_chunks(task, len(deals), seed=seed, chunk_size=chunk_size, n_jobs=n_jobs, backend=backend,
                                 reduce=_add, progress=progress, desc="layouts")
    else:
        if time_budget is not None:
            # wall-clock time, which every worker process reads alike (on a Dask cluster,
            # as far as the machines' clocks agree)
            spec["deadline"] = time.time() + float(time_budget)
        task = functools.partial(_odds_chunk, spec)
        sums = None
        plan = engine.chunk_plan(int(max_deals), chunk_size)
        bar = None
        if progress or (progress is None and len(plan) > 8):
            from tqdm.auto import tqdm

            bar = tqdm(total=int(max_deals), desc="layouts", unit="deal")
        results = engine.iter_chunks(task, iter(plan), seed=seed, n_jobs=n_jobs, backend=backend)
        try:
            for _, part in results:
                sums = _add(sums, part)
                if bar is not None:
                    bar.update(int(part["n"].iloc[0]))
                if _precise_enough(sums, target_se, target_ev_se):
                    stopped_by = "target_se"
                    break
                if time_budget is not None and time.time() > spec["deadline"]:
                    stopped_by = "time_budget"
                    break
        except TimeoutError as exc:
            # a chunk's solves ran into the budget's end: the chunks before it are the result
            if time_budget is None:
                raise
            if sums is None:
                raise TimeoutError(f"contract_odds: no chunk of {chunk_size} layouts was solved within the "
                                   f"time budget of {float(time_budget):g} s; a larger time budget or a "
                                   "smaller chunk size lets one finish") from exc
            stopped_by = "time_budget"
        except KeyboardInterrupt as exc:
            # Ctrl-C: the interrupt goes on (a script's loop must stop too), carrying the
            # figures of the layouts sampled so far
            if sums is not None:
                exc.partial_result = table(sums, "interrupted")
            raise
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()
            if bar is not None:
                bar.close()
    return table(sums, stopped_by)


def _add(state: pd.DataFrame | None, part: pd.DataFrame) -> pd.DataFrame:
    if "bid" in part.columns:
        part = part.assign(bid=part["bid"].fillna(-1).astype(np.int64))
    part = part.set_index(["contract", "bid"] if "bid" in part.columns else "contract")
    if state is None:
        return part
    out = state.add(part, fill_value=0)
    for c, how in (("payout__min", "min"), ("payout__max", "max")):  # not sums
        if c in part.columns:
            out[c] = pd.concat([state[c], part[c]], axis=1).agg(how, axis=1)
    return out


def _precise_enough(sums: pd.DataFrame, target_se: float, target_ev_se: float | None = None) -> bool:
    """Both stopping targets reached: every make probability's standard error at most
    ``target_se`` and every expected payout's at most ``target_ev_se`` (absolute, payout
    units) or, when that is ``None``, at most ``target_se`` times the range of the payouts
    seen (so on the scale where a probability's range is 1, the same target)."""
    n = sums["n"].to_numpy(dtype=float)
    p = sums["made__s1"].to_numpy() / n
    se = np.sqrt(np.maximum(p * (1 - p), 1.0 / n) / n)  # a floor so p = 0 or 1 needs some n
    if not bool((se <= target_se).all()):
        return False
    k = sums["payout__k"].to_numpy(dtype=float)
    defined = k > 0  # leasters: no payout, nothing to reach
    s1, s2 = sums["payout__s1"].to_numpy(dtype=float), sums["payout__s2"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.maximum(s2 - s1 * s1 / k, 0.0) / (k - 1)
        ev_se = np.where(k >= 2, np.sqrt(var / k), np.inf)
    if target_ev_se is None:
        target = target_se * (sums["payout__max"].to_numpy(dtype=float) - sums["payout__min"].to_numpy(dtype=float))
    else:
        target = np.full(len(k), float(target_ev_se))
    return bool((~defined | (ev_se <= target)).all())


def _finish(sums: pd.DataFrame, contracts: Sequence[str], level: float, exact: bool) -> pd.DataFrame:
    rows = []
    keys = [(c, b) for c in contracts for (c2, b) in sorted(k for k in sums.index if k[0] == c)]
    for c, b in keys:
        r = sums.loc[(c, b)]
        n = int(r["n"])
        lo, hi = wilson_interval(r["made__s1"], n, level, exact=exact)
        k = int(r["payout__k"])  # layouts whose payout is defined (leasters: none)
        if k == 0:
            ev = ev_lo = ev_hi = np.nan
        else:
            ev, ev_lo, ev_hi = Moments(k, r["payout__s1"], r["payout__s2"]).interval(level, exact=exact)
        rows.append({
            "contract": c, "bid": int(b), "n": n, "method": "exact" if exact else "sampled",
            "p_make": r["made__s1"] / n, "p_make_lo": float(lo), "p_make_hi": float(hi),
            "ev": ev, "ev_lo": ev_lo, "ev_hi": ev_hi,
            "points": r["points__s1"] / n,
            "p_exchange": r["exchanged__s1"] / n, "p_raise": r["raised__s1"] / n,
        })
        if "bag_penalty__s1" in r.index:
            rows[-1]["bag_penalty"] = r["bag_penalty__s1"] / n
        if "multiplier__s1" in r.index:
            rows[-1]["multiplier"] = r["multiplier__s1"] / n
    return pd.DataFrame(rows)


def deal_probability(
    game: str | Game,
    event: Any,
    *,
    fixed: Mapping[Any, Any] | None = None,
    given: Any = None,
    rules: Mapping[str, Any] | None = None,
    method: str = "auto",
    n: int = 10_000,
    seed: int | None = 0,
    level: float = 0.95,
    exact_limit: int = EXACT_LIMIT,
) -> dict[str, Any]:
    """Probability that a predicate on the deal holds, given fixed cards: exact or sampled.

    Returns ``{"p", "lo", "hi", "n", "method"}``.  Useful on its own ("how often does my
    partner hold J♦?") and as a known-answer check of the sampler and the intervals.
    ``given`` conditions on more than the fixed cards (a constraint, as ``event``): the
    probability of ``event`` among the deals where ``given`` holds, ``n`` of them
    (enumerated, or drawn by rejection: :func:`analysis.constraints.sample_deals`).
    ``rules`` are the game's rule options; those that change the table (Oh Hell's
    ``hand_size``) change the deals.

    >>> from analysis.constraints import Holds
    >>> r = deal_probability("goathead3", Holds(1, "JD"), fixed={0: "JC JS JH AC 10C KC"})
    >>> r["method"], round(r["p"], 4)        # J♦ is one of 14 unseen cards; seat 1 gets 6
    ('exact', 0.4286)
    >>> r = deal_probability("goathead3", Holds(1, "JD"), fixed={0: "JC JS JH AC 10C KC"},
    ...                      method="sample", n=2000, seed=3)
    >>> r["method"], r["lo"] <= 6 / 14 <= r["hi"]
    ('sampled', True)
    >>> r = deal_probability("goathead3", Holds(1, "JD"), fixed={0: "JC JS JH AC 10C KC"}, given=Holds(1, "AD"))
    >>> r["n"], round(r["p"], 4)              # 5 of seat 1's other cards from the other 13: 5/13
    (36036, 0.3846)
    """
    from trickcore.deals import count_deals, enumerate_deals, random_deals

    g = get_game(game)
    rules = dict(rules or {})
    fx = [int(x) for x in fixed_masks(g, fixed, **rules)]
    cond = as_constraint(event)
    cond.check_seats(g.n_seats)
    if method not in ("auto", "exact", "sample"):
        raise ValueError(f"unknown method {method!r}; valid methods: auto, exact, sample")
    n = engine.whole("n", n)
    if n < 1:
        raise ValueError(f"n must be at least 1 deal to sample; got {n}")
    condition = None if given is None else as_constraint(given)
    if condition is not None:
        condition.check_seats(g.n_seats)
    total = count_deals(g.id, fx, **rules)
    if method == "exact" or (method == "auto" and total <= exact_limit):
        deals = enumerate_deals(g.id, fx, max_count=max(exact_limit, 5_000_000 if method == "exact" else 1),
                                **rules)
        if condition is not None:
            deals = deals[condition.mask(deals)]
            if not len(deals):
                raise ValueError(f"no deal satisfies {condition!r} with the fixed cards")
        k = int(cond.mask(deals).sum())
        return {"p": k / len(deals), "lo": k / len(deals), "hi": k / len(deals), "n": len(deals), "method": "exact"}
    if condition is None:
        deals = random_deals(g.id, int(n), seed=seed, fixed=fx, **rules)
    else:
        from .constraints import sample_deals

        deals = sample_deals(g, int(n), seed, fixed={s: m for s, m in enumerate(fx) if m}, where=condition,
                             **rules)
    k = int(cond.mask(deals).sum())
    lo, hi = wilson_interval(k, int(n), level)
    return {"p": k / int(n), "lo": float(lo), "hi": float(hi), "n": int(n), "method": "sampled"}


def _policy_diff_chunk(spec: dict[str, Any], index: int, seed_seq: np.random.SeedSequence, size: int) -> pd.DataFrame:
    """Sums of both kitty policies' payouts and of their per-layout difference."""
    g = get_game(spec["game"])
    if spec["deals"] is not None:
        start = index * spec["chunk_size"]
        deals = spec["deals"][start:start + size]
    else:
        from .constraints import sample_deals

        fixed = {s: int(m) for s, m in enumerate(spec["fixed"]) if m}
        deals = sample_deals(g, size, seed_seq, fixed=fixed, where=spec["where"],
                             budget=max(spec["budget_factor"] * size, 10_000))
    rows = []
    for c in spec["contracts"]:
        ra = _odds_rows(g, c, deals, spec["rules"], spec["seat"], spec["leader"], spec["policies"][0])
        rb = _odds_rows(g, c, deals, spec["rules"], spec["seat"], spec["leader"], spec["policies"][1])
        row: dict[str, Any] = {"contract": c, "n": len(deals)}
        for k, v in (("a", ra["payout"]), ("b", rb["payout"]), ("diff", ra["payout"] - rb["payout"])):
            row[f"{k}__s1"] = float(np.sum(v))
            row[f"{k}__s2"] = float(np.sum(v * v))
        rows.append(row)
    return pd.DataFrame(rows)


def compare_kitty_policies(
    game: str | Game,
    hand: Any,
    a: str = "heuristic",
    b: str = "none",
    *,
    seat: int = 0,
    rules: Mapping[str, Any] | None = None,
    contracts: Sequence[str] | str | None = None,
    constraints: Any = None,
    fixed: Mapping[Any, Any] | None = None,
    method: str = "auto",
    max_deals: int = 20_000,
    seed: int | None = 0,
    leader: int = 0,
    level: float = 0.95,
    exact_limit: int = EXACT_LIMIT,
    chunk_size: int = 2048,
    n_jobs: int = 1,
    backend: Any = "loky",
) -> pd.DataFrame:
    """Paired comparison of two kitty policies for one hand, on the SAME layouts.

    Per contract: the declarer's expected payout under ``a`` and ``b`` and the mean of the
    per-layout difference ``a - b`` with its interval (exact, so a point, when every layout
    is enumerated; otherwise ``max_deals`` sampled layouts and a t interval).

    >>> c = compare_kitty_policies("goathead3", "JC JS AH 10H AC KD", "heuristic", "none",
    ...                            contracts="hearts", fixed={1: "JH JD KH QH 10C QS"})
    >>> c.attrs["method"], int(c.n.iloc[0]), bool(c["diff"].iloc[0] == c.a.iloc[0] - c.b.iloc[0])
    ('exact', 28, True)
    """
    g = get_game(game)
    h = _check_hand(g, hand, seat)
    seat = int(seat)
    cons = _contracts(g, contracts)
    rules = dict(rules or {})
    from trickcore.scoring._frame import resolve_rules

    resolve_rules(g.id, rules)
    for p in (a, b):
        if p not in KITTY_POLICIES:
            raise ValueError(f"unknown kitty_policy {p!r}; valid policies: {', '.join(KITTY_POLICIES)}")
    if method not in ("auto", "exact", "sample"):
        raise ValueError(f"unknown method {method!r}; valid methods: auto, exact, sample")
    known = dict(fixed or {})
    if seat in known:
        raise ValueError(f"seat {seat} is the analyst's hand; do not fix its cards again")
    known[seat] = h
    fx = fixed_masks(g, known)
    cond = as_constraint(constraints)
    cond.check_seats(g.n_seats)
    from trickcore.deals import count_deals, enumerate_deals

    n_layouts = count_deals(g.id, [int(x) for x in fx])
    exact = method == "exact" or (method == "auto" and n_layouts <= exact_limit)
    spec: dict[str, Any] = {
        "game": g.id, "contracts": cons, "rules": rules, "seat": seat, "leader": int(leader),
        "policies": (a, b), "chunk_size": int(chunk_size), "fixed": fx, "where": cond,
        "budget_factor": 200, "deals": None,
    }
    n = int(max_deals)
    if exact:
        deals = enumerate_deals(g.id, [int(x) for x in fx], max_count=max(exact_limit, 5_000_000 if method == "exact" else 1))
        deals = deals[cond.mask(deals)]
        if not len(deals):
            raise ValueError(f"no layout of the unseen cards satisfies {cond!r}")
        spec["deals"] = deals
        n = len(deals)
    sums = engine.run_chunks(functools.partial(_policy_diff_chunk, spec), n, seed=seed, chunk_size=chunk_size,
                             n_jobs=n_jobs, backend=backend, reduce=_add, progress=False)
    rows = []
    for c in cons:
        r = sums.loc[c]
        k = int(r["n"])
        row: dict[str, Any] = {"contract": c, "n": k, "a": r["a__s1"] / k, "b": r["b__s1"] / k}
        row["diff"], row["diff_lo"], row["diff_hi"] = Moments(k, r["diff__s1"], r["diff__s2"]).interval(level, exact=exact)
        rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs.update({"method": "exact" if exact else "sampled", "a": a, "b": b, "n_layouts": int(n_layouts),
                      "optimistic": "dd_best" in (a, b)})
    return out
