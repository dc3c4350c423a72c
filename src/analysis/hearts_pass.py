"""Hearts: which three cards to pass.  Every choice of three cards (or the ones given)
played out on the same layouts, ranked by the penalty points it leaves the analyst.

Before the first trick each Hearts player passes three cards to the left, to the right or
across (:mod:`trickcore.rounds.hearts`).  :func:`hearts_pass_odds` answers "which three?"
by simulation, per layout of the 39 unseen cards (drawn uniformly with the analyst's hand
fixed):

1. **The other seats pass** as HeuristicPolicy does
   (:meth:`trickcore.policies.HeuristicPolicy.pass_cards`: the three most dangerous cards
   by :func:`trickcore.policies.heuristic.danger_key`, point cards of rank Q, K or A first,
   then the higher card, but Q♠ kept behind three lower spades).  So the three cards the
   analyst receives, and the hands it passes into, are the same whatever it passes.
2. **The analyst passes** each candidate in turn: every three of its cards by default
   (286), or the ``candidates`` given.
3. **Every seat plays greedily** (:func:`trickcore.playouts.playout`, policy ``"greedy"``:
   lead the lowest card, follow with the highest card that does not win, shed the dearest
   card when void; compiled, about a microsecond a deal), from the holder of 2♣, and the
   round is scored by :func:`trickcore.scoring.score` under ``rules`` (moons included,
   though greedy players never aim at one).

A double-dummy solve of a whole Hearts deal takes seconds to minutes (``benches/RESULTS.md``),
so the play is a model, the one the balance report's Hearts figures use: players who duck
and shed points, neither planning nor reading the cards.  Every candidate is played on the
same layouts, so the differences between candidates are measured more precisely than the
points themselves (``diff`` and its paired interval, against the best candidate).  The best
candidate's own mean is chosen as the smallest of many on the same layouts, so it flatters
it a little; the others' intervals do not have that bias.

>>> t = hearts_pass_odds("QS AS KS 2C 3C 4C 5D 6D 7D 8H 9H 10H JH", n_deals=200, seed=1,
...                      candidates=["QS AS KS", "2C 3C 4C", "8H 9H 10H"])
>>> t["pass"].tolist()[0], t["heuristic"].tolist()
('A♠ K♠ Q♠', [True, False, False])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from trickcore.cards import CardSet
from trickcore.games import get_game

from . import engine
from .stats import Moments, z_value

__all__ = ["hearts_pass_odds", "heuristic_passes", "passed_hands", "PASS_OFFSETS"]

#: Seats a pass moves by: ``left`` to the next seat in play order, ``right`` to the one
#: before, ``across`` two on (:mod:`trickcore.rounds.hearts`); ``none``: a round without
#: passing (every fourth of the cycle), where only the hand's own odds are asked.
PASS_OFFSETS = {"left": 1, "right": -1, "across": 2, "none": 0}

#: Layouts :func:`hearts_pass_odds` plays by default.
DEFAULT_N_DEALS = 2000

#: Rounds scored in one table (some 200 bytes a round).
_ROWS_AT_ONCE = 200_000


def _layout(rules: Mapping[str, Any]) -> Any:
    """The Hearts layout under ``rules`` (what makes a card dangerous: its points)."""
    from .simulate import _layout_rules

    return get_game("hearts").layout("hearts", **_layout_rules("hearts", dict(rules)))


def _danger_order(lay: Any) -> list[int]:
    """The deck's card ids, most dangerous first, as HeuristicPolicy's pass ranks them (its
    sort is stable over the hand's ♠ ♥ ♦ ♣ high-to-low order, so equal keys keep that order)."""
    from trickcore.policies.heuristic import danger_key

    deck = CardSet(lay.deck).cards_high_first()
    return [int(c) for c in sorted(deck, key=danger_key(lay), reverse=True)]


def heuristic_passes(hands: np.ndarray, rules: Mapping[str, Any] | None = None) -> np.ndarray:
    """The three cards HeuristicPolicy passes from each Hearts hand (universal bit-boards),
    as bit-boards: its most dangerous cards, a guarded Q♠ kept
    (:func:`trickcore.policies.heuristic.queen_guarded`).

    >>> import numpy as np
    >>> h = np.array([CardSet("QS AS KS 2C 3C 4C 5D 6D 7D 8H 9H 10H JH").mask,
    ...               CardSet("QS 2S 3S 4S AS 3C 4C 5D 6D 7D 8H 9H 10H").mask], dtype=np.uint64)
    >>> [str(CardSet(int(x))) for x in heuristic_passes(h)]
    ['A♠ K♠ Q♠', 'A♠ 10♥ 9♥']
    """
    from trickcore.cards import Card
    from trickcore.policies.heuristic import QUEEN_GUARD

    lay = _layout(rules or {})
    hands = np.asarray(hands, dtype=np.uint64)
    queen = Card.parse("QS")
    below = CardSet([c for c in lay.suits[lay.effective_suit(queen)] if lay.rank_order(c) < lay.rank_order(queen)])
    guarded = ((hands & np.uint64(queen.mask)) != 0) & (np.bitwise_count(hands & np.uint64(below.mask)) >= QUEEN_GUARD)
    guarded &= int(lay.point_table()[queen]) > 0
    out = np.zeros(hands.shape, dtype=np.uint64)
    taken = np.zeros(hands.shape, dtype=np.int64)
    for c in _danger_order(lay):
        bit = np.uint64(1) << np.uint64(c)
        pick = ((hands & bit) != 0) & (taken < 3)
        if c == int(queen):
            pick &= ~guarded
        out |= np.where(pick, bit, np.uint64(0))
        taken += pick
    return out


def passed_hands(deals: np.ndarray, seat: int, direction: str, passes: Sequence[CardSet],
                 rules: Mapping[str, Any] | None = None) -> np.ndarray:
    """The hands at the first trick, ``uint64[len(passes), n, 4]``: on each deal (``uint64[n,
    4]``, the hands as dealt) the seats other than ``seat`` pass as HeuristicPolicy
    (:func:`heuristic_passes`) and ``seat`` passes each of ``passes``, all in ``direction``."""
    k = 4
    off = PASS_OFFSETS[direction]
    to, frm = (seat + off) % k, (seat - off) % k
    deals = np.asarray(deals, dtype=np.uint64)[:, :k]
    if not off:
        return np.repeat(deals[None, :, :], len(passes), axis=0)
    give = heuristic_passes(deals, rules)
    after = deals.copy()
    for s in range(k):
        if s != seat:   # gives its pass, receives the seat before it's (the analyst's: per candidate)
            after[:, s] &= ~give[:, s]
            if s != to:
                after[:, s] |= give[:, (s - off) % k]
    after[:, seat] |= give[:, frm]      # the analyst's pass is taken out per candidate
    ours = np.array([c.mask for c in passes], dtype=np.uint64)
    hands = np.repeat(after[None, :, :], len(ours), axis=0)
    hands[:, :, seat] &= ~ours[:, None]
    hands[:, :, to] |= ours[:, None]
    return hands


def hearts_pass_odds(
    hand: Any,
    direction: str = "left",
    seat: int = 0,
    rules: Mapping[str, Any] | None = None,
    *,
    candidates: Sequence[Any] | None = None,
    n_deals: int | None = None,
    seed: int | None = 0,
    level: float = 0.95,
    constraints: Any = None,
    fixed: Mapping[Any, Any] | None = None,
) -> pd.DataFrame:
    """The analyst's expected Hearts penalty points after passing each three of its cards
    (module docstring: the others pass as HeuristicPolicy, everyone plays greedily).

    Parameters
    ----------
    hand, seat:
        The analyst's thirteen cards and its seat (0-3; the seats' order is the play order).
    direction:
        ``"left"``, ``"right"``, ``"across"``, or ``"none"`` (a round without passing: one
        row, the hand's own odds; no ``candidates``).
    rules:
        Hearts' rule options (``jack_of_diamonds``, ``queen_breaks_hearts``, ...); they
        change the play, the scoring and what the heuristic finds dangerous.
    candidates:
        The passes to compare, each three of the analyst's cards (text or a CardSet);
        default every three of them (286).
    n_deals, seed, level:
        Layouts of the unseen cards (default 2000; each is played once per candidate), the
        sampling seed (the result depends only on it and the arguments) and the intervals'
        confidence level.
    constraints, fixed:
        What the analyst knows or assumes of the other hands before the pass
        (:mod:`analysis.constraints`): predicates the layouts must satisfy and cards known
        to lie in a seat's hand ``{seat: cards}``; the layouts are drawn by rejection.

    Returns
    -------
    pandas.DataFrame
        One row per candidate, the fewest points first: ``pass`` (the three cards),
        ``points`` and its interval ``points_lo`` / ``points_hi`` (the analyst's expected
        penalty points, the scorer's ``payout``), ``diff``, ``diff_lo``, ``diff_hi`` (points
        minus the best candidate's on the same layouts, a paired interval), ``p_queen``
        (the analyst takes Q♠), ``p_zero`` (no penalty point), ``p_moon`` (it shoots the
        moon) and ``heuristic`` (the pass HeuristicPolicy makes).  ``attrs``: ``hand``,
        ``seat``, ``direction``, ``to`` (the seat passed to), ``from`` (the seat passing
        to the analyst), ``n_deals``, ``seed``, ``level``, ``policy`` (``"greedy"``).

    Raises
    ------
    ValueError
        A hand that is not thirteen Hearts cards; a bad seat, direction, rule or
        candidate (not three of the analyst's cards, or given twice).
    """
    from trickcore.games.base import rule_dict

    from .constraints import sample_deals
    from .odds import _check_hand, _check_seat
    from .simulate import _layout_rules, evaluate

    g = get_game("hearts")
    rules = rule_dict(rules)
    g.check_rules(rules)
    seat = _check_seat("seat", seat, g.n_seats)
    if direction not in PASS_OFFSETS:
        raise ValueError(f"direction must be one of {', '.join(PASS_OFFSETS)}; got {direction!r}")
    if rules.get("passing") == "none" and direction != "none":
        raise ValueError(f"the rule option passing='none' passes no cards; ask direction='none', not {direction!r}")
    h = _check_hand(g, hand, seat, rules)
    n_deals = DEFAULT_N_DEALS if n_deals is None else engine.whole("n_deals", n_deals)
    if n_deals < 1:
        raise ValueError(f"n_deals must be at least 1; got {n_deals}")
    engine.check_seed(seed)
    z_value(level)
    if direction == "none":
        if candidates is not None:
            raise ValueError("a round without passing has no passes to compare: give no candidates")
        passes = [CardSet()]
    else:
        passes = _candidates(h, candidates)

    k = g.n_seats
    off = PASS_OFFSETS[direction]
    to, frm = (seat + off) % k, (seat - off) % k
    known = dict(fixed or {})
    if seat in known:
        raise ValueError(f"fixed names seat {seat}, the analyst's own: its hand is {h}")
    deals = sample_deals("hearts", n_deals, seed, fixed={**known, seat: h}, where=constraints,
                         **_layout_rules("hearts", rules))[:, :k]
    pay = np.zeros((len(passes), n_deals))
    queen = np.zeros((len(passes), n_deals), dtype=bool)
    moon = np.zeros((len(passes), n_deals), dtype=bool)
    step = max(1, _ROWS_AT_ONCE // n_deals)     # candidates a batch: the scored table's memory stays bounded
    for i in range(0, len(passes), step):
        hands = passed_hands(deals, seat, direction, passes[i:i + step], rules)
        flat = np.concatenate([hands.reshape(-1, k), np.zeros((hands.shape[0] * n_deals, 1), np.uint64)], axis=1)
        frame = evaluate("hearts", "hearts", flat, rules=rules, policy="greedy")
        j = i + hands.shape[0]
        pay[i:j] = frame[f"payout_{seat}"].to_numpy(dtype=float).reshape(-1, n_deals)
        queen[i:j] = frame[f"queen_{seat}"].to_numpy().reshape(-1, n_deals) != 0
        moon[i:j] = frame["moon"].to_numpy().reshape(-1, n_deals) == seat

    means = pay.mean(axis=1)
    best = int(np.argmin(means))
    # HeuristicPolicy's pass (nothing in a round without passing)
    heur = int(heuristic_passes(np.array([h.mask], dtype=np.uint64), rules)[0]) if direction != "none" else 0
    rows = []
    for i, c in enumerate(passes):
        pts, lo, hi = Moments.of(pay[i]).interval(level)
        d, dlo, dhi = Moments.of(pay[i] - pay[best]).interval(level) if i != best else (0.0, 0.0, 0.0)
        rows.append({"pass": str(c) or "(none)", "points": pts, "points_lo": lo, "points_hi": hi, "diff": d,
                     "diff_lo": dlo, "diff_hi": dhi, "p_queen": float(queen[i].mean()),
                     "p_zero": float((pay[i] == 0).mean()), "p_moon": float(moon[i].mean()),
                     "heuristic": c.mask == heur})
    table = pd.DataFrame(rows).sort_values(["points", "pass"], kind="stable").reset_index(drop=True)
    table.attrs.update({"game": "hearts", "hand": str(h), "seat": seat, "direction": direction, "to": to,
                        "from": frm, "n_deals": n_deals, "seed": seed, "level": level, "policy": "greedy"})
    return table


def _candidates(hand: CardSet, candidates: Sequence[Any] | None) -> list[CardSet]:
    """The passes to compare, checked: every three of ``hand`` by default."""
    from trickcore.cards import parse_hand

    if candidates is None:
        return [CardSet(list(c)) for c in combinations(hand.cards_high_first(), 3)]
    if isinstance(candidates, (str, CardSet)) or not isinstance(candidates, Sequence) or not candidates:
        raise ValueError("candidates must be a non-empty list of passes, each three cards of the hand "
                         f"(e.g. ['QS AS KS', '2C 3C 4C']); got {candidates!r}")
    out: list[CardSet] = []
    for c in candidates:
        try:
            cs = parse_hand(c)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"bad candidate {c!r}: {exc}") from None
        if len(cs) != 3:
            raise ValueError(f"a pass is three cards; the candidate {c!r} has {len(cs)}")
        if cs - hand:
            raise ValueError(f"the candidate {c!r} passes {cs - hand}, which the hand does not hold")
        if any(cs == o for o in out):
            raise ValueError(f"the candidate {cs} is given twice")
        out.append(cs)
    return out

