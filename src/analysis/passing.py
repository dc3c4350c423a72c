"""Odds of *passing*: what the analyst's hand can expect when it does not pick (Sheepshead)
or does not bid at its first turn in the auction (Goathead, 3 and 4 players; see
"Goathead" below) — the games of :data:`PASS_GAMES`.

:func:`analysis.odds.contract_odds` answers "what do I get if I pick (and call this
contract)"; :func:`pass_odds` answers the other half of the decision, "what do I get if I
pass", so the two can be compared on the same scale (the analyst's payout from
:func:`trickcore.scoring.score`).  At a seat after the first, "if I pick" should assume
what "if I pass" assumes, that the seats before passed: give ``contract_odds`` the
constraint :func:`earlier_seats_pass` (``trickcore odds ... --pass`` does).  Goathead's
``bids_before`` ("seat 0 bid hearts, seat 1 passed") conditions on the earlier seats'
actual actions instead; :func:`earlier_seats_bid` is the matching constraint
(``trickcore odds ... --pass --bids-before hearts pass`` gives it to both tables).

Seats
-----
As everywhere in :mod:`analysis`: seats ``0 .. 4`` in play order, the **dealer is the last
seat, 4**; seat 0 sits left of the dealer, decides first whether to pick and leads the first
trick (``leader``, default 0, as in :func:`~analysis.odds.contract_odds`).  ``seat`` is the
analyst's position in that pick order.

The model, per layout of the unseen cards (the other four hands and the two-card blind)
-----------------------------------------------------------------------------------------
1. **The seats before** ``seat`` **passed.**  Layouts are drawn uniformly with the analyst's
   hand fixed and kept only when every earlier seat would pass by the heuristic
   (:func:`heuristic_picks`, the rule of
   :meth:`trickcore.policies.HeuristicPolicy.pick_or_pass`: pick with at least three trumps
   of which at least two are queens or jacks) — rejection sampling; ``attrs["acceptance"]``
   is the share of drawn layouts kept.
2. **The analyst passes.**  The seats after it decide in order by the same heuristic; the
   first who picks is the picker.
3. **A picker** takes the blind, names its partner card as the round engine's call does
   with :meth:`~trickcore.policies.HeuristicPolicy.call` (the first legal call): under
   ``partner='jd'`` the contract ``jd`` (a picker holding J♦ plays alone; with
   ``jd_picker='call_jack'`` it calls the first of J♣ J♠ J♥ it lacks; with
   ``announce_alone`` it announces ``alone``), under ``partner='called_ace'`` the first
   fail suit (♣ ♠ ♥) it holds without its ace (its ten when it holds all three aces), else
   ``alone``.  Then it buries and may go alone exactly as the ``"heuristic"`` kitty
   policy of :func:`~analysis.odds.contract_odds` does for a picker (the same code,
   :func:`analysis.odds._heuristic_pick`).  The hand is played double dummy from seat
   ``leader`` and scored with that picker as declarer; the analyst is the partner (it
   holds the partner card) or a defender.
4. **Nobody picks** (every seat after the analyst passes too): the rule option
   ``no_pick`` decides —

   * ``'dealer_picks'`` (default): the dealer must pick — step 3 with the dealer as
     picker.  If the analyst *is* the dealer, passing is not allowed there:
     ``ValueError``.
   * ``'leaster'``: the leaster is evaluated for the analyst as
     :func:`analysis.paranoid.seat_frame` (and ``contract_odds(..., policy="paranoid")``)
     evaluates it: the analyst's **paranoid value** — the fewest card points it can hold
     itself to, double dummy, when all four others play against it, plus the blind's
     points when it wins the last trick along that line (pessimistic: real opponents
     also protect themselves).  That value gives **no payout**
     (who wins a leaster depends on every player's points), so the ``no_pick`` row's
     ``ev`` is ``NaN`` and ``leaster_value`` is the mean paranoid value; the ``pass``
     row's ``ev`` is ``NaN`` too whenever some layout ends in a leaster, and
     ``attrs["ev_bounds"]`` bounds it: the picked layouts' payouts plus the leaster's
     worst (−1) and best (+4) payout for every all-pass layout.
   * ``'redeal'`` and ``'doubler'``: the hand is thrown in: payout 0 for everybody.  The
     doubler's doubled *next* hand is not included (it is another deal, whose value does
     not depend on this hand).

Goathead (``"goathead3"``, ``"goathead4"``)
-------------------------------------------
Seats as above: the dealer is the last seat, seat 0 bids first and leads the first trick
whatever the contract (so ``leader`` must be 0).  Per layout of the unseen cards (the
other hands and the kitty, the analyst's hand fixed):

1. **The seats before** ``seat`` **passed** — or, with ``bids_before``, **acted as
   given**: layouts are kept only when every earlier seat passes by
   :class:`~trickcore.policies.HeuristicPolicy` with nobody having bid
   (:func:`heuristic_opens`, read off the policy's own hand evaluation), or, with
   ``bids_before`` (one action per earlier seat, in order: a contract of the ladder,
   ``"pass"`` or ``"steal"``), when HeuristicPolicy at each earlier seat, facing the
   actions before it, answers exactly its action (:func:`earlier_seats_bid`, the same
   hand evaluation) — rejection sampling, ``attrs["acceptance"]``.  The round engine
   confirms it on every kept layout (driven to the analyst's first decision, the announced
   actions compared).  Some hands make this impossible (the unseen cards always give an
   earlier seat a bid): then no layout is kept and the call is a ``ValueError`` giving
   acceptance 0; "seat 0 bid, the others passed" is far likelier at a late seat than
   "everybody passed" (``bids_before`` was made for it).
2. **The round engine** (:func:`trickcore.rounds.start_round` on the layout, dealer the
   last seat, match ``scores`` as given — equal by default, so nobody may steal) is
   driven from the deal to the first card of play: the analyst answers ``"pass"`` to its
   bid (and is out of the auction); HeuristicPolicy takes every other decision — the
   later seats' bids and steals (an earlier bidder bids again when the auction comes back
   to it), the declarer's kitty pick-up, burial and raise
   (3 players), and every 4-player kitty swap, **the analyst's own swap included** (it is
   not a bidding decision; the heuristic stands in for the analyst there).
3. **Somebody declared**: the engine's final contract, declarer, side and hands after
   the exchange are solved double dummy from seat 0 (:func:`trickcore.solve_many`, Nil
   with its own objective) and scored by :func:`trickcore.scoring.score` as
   :func:`~analysis.odds.contract_odds` scores a declared contract (the kitty after the
   exchange and its points, the declarer's ``exchanged`` flag).  The analyst is a
   ``defender`` — with 3 players always — or, with 4, a ``partner`` when the engine's
   side (black jacks / called queen) includes it.
4. **Everybody passed**: leasters (``no_pick`` row, ``attrs["no_pick"] = "leasters"``),
   evaluated as the Sheepshead leaster above: the analyst's paranoid value, no payout,
   ``ev`` ``NaN`` and ``attrs["ev_bounds"]`` from Goathead's leasters payouts −1 .. +1
   (:data:`GOATHEAD_LEASTERS_PAYOUT_RANGE`; under either ``leasters_tie`` option).

The engine is Python (about a millisecond a layout), so the default is 1000 layouts
(about a second).  ``return_samples`` gives, per layout, ``hand_*`` and ``kitty`` as
dealt, ``declarer`` (−1: leasters), ``bid`` (the auction's contract before any raise),
``contract`` (as played), ``exchanged``, ``final_*`` and ``final_kitty`` (after the
exchange), ``side_mask``, ``outcome``, ``payout`` and ``leaster_value``.

Stakes: by default every payout is at the unit stake (multiplier 1), as in
:func:`~analysis.odds.contract_odds`; ``stakes="heuristic"`` multiplies each Sheepshead
layout's payout by the blitzes and cracks HeuristicPolicy players declare there
(:mod:`analysis.stakes`).  Play is double dummy (every player sees every card).
The heuristic pickers are a model of the table, not of any real player.

The result: one row per outcome — ``pass`` (every layout: the expected payout of passing),
``partner`` and ``defender`` (someone after the analyst picked; the analyst's side), and
``no_pick`` (everybody passed; ``no_pick`` rule) — with ``n`` layouts, ``p`` the share of
layouts (a 95 % Wilson interval ``p_lo`` .. ``p_hi``), ``ev`` the analyst's mean payout in
that outcome (a 95 % t interval ``ev_lo`` .. ``ev_hi``) and ``leaster_value`` (the mean
paranoid value over the outcome's layouts that end in a leaster; ``NaN`` without any).

Examples
--------
>>> t = pass_odds("sheepshead", "QC QS JD AH 10H 9C", seat=1, n_deals=40, seed=1)
>>> t.outcome.tolist()
['pass', 'partner', 'defender', 'no_pick']
>>> int(t.n.iloc[0]), bool(t.ev_lo.iloc[0] <= t.ev.iloc[0] <= t.ev_hi.iloc[0])
(40, True)
>>> bool(abs(t.attrs["p_pick"] + t.attrs["p_all_pass"] - 1) < 1e-12), 0 < t.attrs["acceptance"] <= 1
(True, True)
>>> g = pass_odds("goathead3", "JC JS AH 10H KH QH", seat=1, n_deals=30, seed=1)
>>> g.attrs["no_pick"], int(g.set_index("outcome").loc["defender", "n"])   # 3 players: always a defender
('leasters', 30)
>>> b = pass_odds("goathead3", "JC JS AH 10H KH QH", seat=2, n_deals=30, seed=1, bids_before=["clubs", "pass"])
>>> b.attrs["bids_before"], 0 < b.attrs["acceptance"] < 1
(('clubs', 'pass'), True)
>>> pass_odds("goathead3", "JC JS AH 10H KH QH", seat=2, bids_before=["hearts", "diamonds"])
Traceback (most recent call last):
  ...
ValueError: bids_before[1] (after hearts): illegal bid 'diamonds' by seat 1 (the bid must be higher than hearts); ...
>>> pass_odds("hearts", "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S")
Traceback (most recent call last):
  ...
ValueError: pass odds are implemented for sheepshead, goathead3 and goathead4 only; got hearts
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from trickcore.cards import Card, CardSet
from trickcore.games import Game, get_game
from trickcore.policies.heuristic import GOATHEAD_BID_STRENGTH, SHEEPSHEAD_PICK_HIGH, SHEEPSHEAD_PICK_TRUMPS

from . import engine
from .constraints import Predicate, as_constraint
from .stakes import check_stakes, heuristic_multiplier
from .stats import Moments, wilson_interval, z_value

__all__ = ["pass_odds", "earlier_seats_pass", "earlier_seats_bid", "check_bids_before", "heuristic_picks",
           "heuristic_opens", "picker_call", "PASS_GAMES", "OUTCOMES"]

#: Games whose first decision :func:`pass_odds` analyses: Sheepshead's pick-or-pass and
#: Goathead's (3 and 4 players) first bid-or-pass in the auction.
PASS_GAMES = frozenset({"sheepshead", "goathead3", "goathead4"})

#: The Goathead games of :data:`PASS_GAMES` (the round engine drives them).
GOATHEAD_GAMES = frozenset({"goathead3", "goathead4"})

#: The rows of :func:`pass_odds`, in order.
OUTCOMES = ("pass", "partner", "defender", "no_pick")

#: The worst and best payout a seat can get from a leaster (scorer: the winner +4, every
#: other player −1; a tie scores 0 or shares the units, in between).
LEASTER_PAYOUT_RANGE = (-1.0, 4.0)

#: The same for Goathead's leasters (:mod:`trickcore.scoring.goathead`): the most points
#: pays the base 1 to the fewest, so a seat gets −1, 0 or +1; under either
#: ``leasters_tie`` option a tie pays nothing or shares the unit (−1/2, +1/2), in between.
GOATHEAD_LEASTERS_PAYOUT_RANGE = (-1.0, 1.0)

#: Layouts :func:`pass_odds` evaluates by default: Goathead drives the (Python) round
#: engine per layout, so it takes fewer.
DEFAULT_N_DEALS = {"sheepshead": 2000, "goathead3": 1000, "goathead4": 1000}

_FAIL = (("clubs", "C"), ("spades", "S"), ("hearts", "H"))


def _game(game: str | Game) -> Game:
    g = get_game(game)
    if g.id not in PASS_GAMES:
        raise ValueError(f"pass odds are implemented for sheepshead, goathead3 and goathead4 only; got {g.id}")
    return g


def _sheepshead(game: str | Game, what: str) -> Game:
    g = get_game(game)
    if g.id != "sheepshead":
        raise ValueError(f"{what} is Sheepshead's pick rule; got {g.id}")
    return g


def _goathead(game: str | Game, what: str) -> Game:
    g = get_game(game)
    if g.id not in GOATHEAD_GAMES:
        raise ValueError(f"{what} is Goathead's opening bid rule (goathead3, goathead4); got {g.id}")
    return g


def heuristic_picks(game: str | Game, hands: Any, rules: Mapping[str, Any] | None = None) -> np.ndarray:
    """``bool[n]``: whether each hand (universal bit-boards) picks by the rule of
    :meth:`trickcore.policies.HeuristicPolicy.pick_or_pass`: at least three trumps, at
    least two of them queens or jacks.

    >>> heuristic_picks("sheepshead", [CardSet.parse("QC JD 7D AH KS 9C").mask,
    ...                                CardSet.parse("QC AD 7D AH KS 9C").mask]).tolist()
    [True, False]
    """
    from .simulate import _layout_rules

    g = _sheepshead(game, "heuristic_picks")
    lay = g.layout("jd", **_layout_rules(g.id, rules or {}))
    trump = CardSet(lay.suits[-1])
    high = CardSet(c for c in trump if c.rank_name in ("Q", "J"))
    h = np.asarray(hands, dtype=np.uint64)
    n_trump = np.bitwise_count(h & np.uint64(trump.mask))
    n_high = np.bitwise_count(h & np.uint64(high.mask))
    return (n_trump >= SHEEPSHEAD_PICK_TRUMPS) & (n_high >= SHEEPSHEAD_PICK_HIGH)


def _fail_mask(g: Game, letter: str) -> int:
    return CardSet(c for c in CardSet(g.deck).suit(letter) if c.rank_name not in ("Q", "J")).mask


def picker_call(game: str | Game, pools: Any, rules: Mapping[str, Any] | None = None) -> np.ndarray:
    """The contract a picker holding ``pools`` (its hand plus the blind, bit-boards) names
    when it answers the round engine's call with the first legal choice, as
    :meth:`~trickcore.policies.HeuristicPolicy.call` does (module docstring, step 3);
    an object array of contract names.

    >>> picker_call("sheepshead", [CardSet.parse("QC JD 7D AH KS 9C 8C 7S").mask],
    ...             {"partner": "called_ace"}).tolist()
    ['called_ace_clubs']
    >>> picker_call("sheepshead", [CardSet.parse("QC JD 7D AH KS 9C 8C 7S").mask]).tolist()
    ['jd']
    """
    from trickcore.scoring._frame import resolve_rules

    g = _sheepshead(game, "picker_call")
    full = resolve_rules(g.id, rules)
    pool = np.asarray(pools, dtype=np.uint64)
    n = len(pool)
    out = np.full(n, "alone", dtype=object)

    def has(mask: int) -> np.ndarray:
        return (pool & np.uint64(mask)) != 0

    if full.get("partner", "jd") == "jd":
        jd = has(Card.parse("JD").mask)
        out[:] = "jd"
        if full.get("jd_picker", "alone") == "call_jack":
            chosen = np.zeros(n, dtype=bool)
            out[jd] = "alone"
            for contract, card in (("jc", "JC"), ("js", "JS"), ("jh", "JH")):
                take = jd & ~chosen & ~has(Card.parse(card).mask)
                out[take] = contract
                chosen |= take
        elif full.get("announce_alone", False):
            out[jd] = "alone"
        return out
    aces = sum(has(Card.make("A", letter).mask).astype(np.int64) for _, letter in _FAIL)
    chosen = np.zeros(n, dtype=bool)
    for word, rank in (("ace", "A"), ("ten", "10")):
        rows = (aces == 3) if rank == "10" else (aces < 3)
        for name, letter in _FAIL:
            take = rows & ~chosen & ~has(Card.make(rank, letter).mask) & has(_fail_mask(g, letter))
            out[take] = f"called_{word}_{name}"
            chosen |= take
    return out


@functools.lru_cache(maxsize=32)
def _open_weights(gid: str, rules_key: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(deck bit indices, weights[contract, card], constants[contract])``:
    :meth:`HeuristicPolicy._goathead_eval <trickcore.policies.HeuristicPolicy>` of every
    contract of the ladder is a sum over the hand's cards (a trump 1 or 1.5, a plain suit's
    top card 1; Nil: 1 per low card, minus 1), so each card's weight is read off the policy
    itself, on one-card hands of the seat-0 opening observation."""
    from trickcore.policies import HeuristicPolicy
    from trickcore.rounds import start_round
    from trickcore.rounds.goathead import LADDER

    g = get_game(gid)
    pol = HeuristicPolicy()
    obs = start_round(gid, seed=0, dealer=g.n_seats - 1, **dict(rules_key)).observe(0)
    cards = sorted(g.deck, key=int)
    w = np.zeros((len(LADDER), len(cards)))
    const = np.zeros(len(LADDER))
    for i, c in enumerate(LADDER):
        const[i] = pol._goathead_eval(dataclasses.replace(obs, hand=CardSet()), c)
        for j, card in enumerate(cards):
            w[i, j] = pol._goathead_eval(dataclasses.replace(obs, hand=CardSet([card])), c) - const[i]
    return np.array([int(c) for c in cards], dtype=np.uint64), w, const


def heuristic_opens(game: str | Game, hands: Any, rules: Mapping[str, Any] | None = None) -> np.ndarray:
    """``bool[n]``: whether each hand (universal bit-boards) *bids* when the Goathead
    auction reaches it with nobody having bid yet (every earlier seat passed), by the rule
    of :class:`trickcore.policies.HeuristicPolicy`: bid the contract whose hand strength
    is highest when it reaches 3.5 (three players) or 2.5 (four players), else pass.  Such
    a seat sees no contract to steal, so the answer depends on its hand only.

    >>> heuristic_opens("goathead3", [CardSet.parse("JC JS AH 10H KH QH").mask,
    ...                               CardSet.parse("QC KS QS KD QD 10D").mask]).tolist()
    [True, False]
    """
    g = _goathead(game, "heuristic_opens")
    rules = g.check_rules(rules)
    strength = _goathead_strength(g, hands, rules)
    need = GOATHEAD_BID_STRENGTH[g.n_seats]
    return strength.max(axis=1) >= need


def earlier_seats_pass(game: str | Game, seat: int, rules: Mapping[str, Any] | None = None) -> Predicate:
    """The constraint that every seat before ``seat`` passes by the heuristic
    (Sheepshead: :func:`heuristic_picks`; Goathead: :func:`heuristic_opens`): what
    :func:`pass_odds` conditions its layouts on, and what
    :func:`~analysis.odds.contract_odds` takes as ``constraints`` to answer "if I pick"
    on the same footing (the CLI's ``odds --pass`` does).

    >>> import numpy as np
    >>> from trickcore.cards import CardSet
    >>> c = earlier_seats_pass("sheepshead", 1)
    >>> deals = np.array([[CardSet.parse(h).mask for h in ("QC QS JD 7C 8C 9C", "AH", "", "", "", "")],
    ...                   [CardSet.parse(h).mask for h in ("AC 10C KC 7H 8H 9H", "AH", "", "", "", "")]],
    ...                  dtype=np.uint64)
    >>> c.mask(deals).tolist()      # seat 0 would pick with three trumps, two of them queens
    [False, True]
    """
    g = _game(game)
    rules = g.check_rules(rules)
    bids = heuristic_opens if g.id in GOATHEAD_GAMES else heuristic_picks

    def earlier_pass(deals: np.ndarray) -> np.ndarray:
        ok = np.ones(len(deals), dtype=bool)
        for s in range(seat):
            ok &= ~bids(g, deals[:, s], rules)
        return ok

    name = "every seat before the analyst passes" if seat else "nothing (the analyst decides first)"
    return Predicate(earlier_pass, name)


def _goathead_strength(g: Game, hands: np.ndarray, rules: Mapping[str, Any]) -> np.ndarray:
    """``float[n, len(LADDER)]``: HeuristicPolicy's hand strength of each hand for each
    contract of the ladder (its ``_goathead_eval``, additive over the cards)."""
    ids, w, const = _open_weights(g.id, tuple(sorted(rules.items())))
    h = np.asarray(hands, dtype=np.uint64).reshape(-1)
    bits = ((h[:, None] >> ids[None, :]) & np.uint64(1)).astype(float)
    return bits @ w.T + const[None, :]


def check_bids_before(game: str | Game, seat: int, bids_before: Any, rules: Mapping[str, Any] | None = None,
                      scores: Sequence[float] | None = None) -> tuple[str, ...] | None:
    """``bids_before`` checked against the rules: ``None`` (every earlier seat passed) or a
    tuple of one action per seat before ``seat`` in the first round of the auction, in
    order, each legal where it is said given the ones before it (Goathead: the round
    engine's own ``Decision.legal`` — a contract above the current one, ``"pass"``, or
    ``"steal"`` where ``scores`` allow it; Sheepshead: ``"pass"`` only, a pick ends the
    picking).  ``ValueError`` naming the first bad action.

    >>> check_bids_before("goathead3", 2, ["Hearts", "pass"])
    ('hearts', 'pass')
    >>> check_bids_before("sheepshead", 1, ["pick"])
    Traceback (most recent call last):
      ...
    ValueError: bids_before[0] = 'pick' (seat 0): the only action before the analyst's turn in sheepshead is 'pass' ...
    """
    from trickcore.games.base import rule_dict

    g = _game(game)
    seat = int(seat)
    if bids_before is None:
        return None
    if isinstance(bids_before, (str, bytes)) or not isinstance(bids_before, Sequence):
        raise ValueError(f"bids_before must be a list of actions, one per seat before seat {seat} "
                         f"(e.g. ['hearts', 'pass']); got {bids_before!r}")
    acts: list[str] = []
    for i, a in enumerate(bids_before):
        if not isinstance(a, str):
            raise ValueError(f"bids_before[{i}] = {a!r} (seat {i}) is not an action: a contract name, "
                             "'pass' or 'steal'")
        acts.append(a.strip().lower())
    if len(acts) != seat:
        raise ValueError(f"bids_before has {len(acts)} action(s); seat {seat} has {seat} seat(s) before it in "
                         f"the first round of bidding (seats 0..{seat - 1})" if seat else
                         f"bids_before has {len(acts)} action(s); seat 0 decides first (give none)")
    if g.id not in GOATHEAD_GAMES:
        for i, a in enumerate(acts):
            if a != "pass":
                raise ValueError(f"bids_before[{i}] = {bids_before[i]!r} (seat {i}): the only action before the "
                                 f"analyst's turn in {g.id} is 'pass' (the first seat to pick ends the picking)")
        return tuple(acts)
    _bid_steps(g, acts, rule_dict(rules), _check_scores(g, scores))
    return tuple(acts)


def _bid_steps(g: Game, acts: Sequence[str], rules: Mapping[str, Any],
               scores: Sequence[float] | None) -> list[tuple[tuple, str | None]]:
    """Replays ``acts`` on the round engine (any deal: legality does not depend on the
    cards) and returns, per action, ``(legal, current high contract or None)``."""
    from trickcore.rounds import start_round

    k = g.n_seats
    r = start_round(g.id, seed=0, dealer=k - 1, scores=scores, **rules)
    steps: list[tuple[tuple, str | None]] = []
    cur: str | None = None
    for i, a in enumerate(acts):
        d = r.pending
        if d is None or d.kind != "bid" or d.phase != "bid" or d.seat != i:  # pragma: no cover - engine order
            raise RuntimeError(f"{g.id}: the round engine's first decisions are not seats 0..{len(acts) - 1} bidding")
        try:
            r.act(a)
        except ValueError as exc:
            after = ", ".join(acts[:i]) if i else "nothing (the auction's first action)"
            raise ValueError(f"bids_before[{i}] (after {after}): {exc}") from None
        steps.append((tuple(d.legal), cur))
        if a not in ("pass", "steal"):
            cur = a
    return steps


def earlier_seats_bid(game: str | Game, seat: int, bids_before: Any, rules: Mapping[str, Any] | None = None,
                      scores: Sequence[float] | None = None) -> Predicate:
    """The constraint that the seats before ``seat`` acted as ``bids_before`` says
    (:func:`check_bids_before`) by :class:`~trickcore.policies.HeuristicPolicy`: each
    earlier seat, facing the actions before it, answers exactly its action (a steal when
    the current contract's strength reaches the bar; else the strongest higher contract,
    the lowest on a tie, when it reaches the bar; else pass — the policy's rule, with its
    hand evaluation read off the policy as :func:`heuristic_opens` does).  What
    :func:`pass_odds` conditions its layouts on with ``bids_before``, and what
    :func:`~analysis.odds.contract_odds` takes as ``constraints`` to answer "if I bid" on
    the same footing (``trickcore odds ... --bids-before``).  ``bids_before`` ``None`` or
    all ``"pass"``: :func:`earlier_seats_pass`.

    >>> import numpy as np
    >>> from trickcore.cards import CardSet
    >>> c = earlier_seats_bid("goathead3", 2, ["hearts", "pass"])
    >>> deals = np.array([[CardSet.parse(h).mask for h in ("JH AH KH 10H QD AC", "QC KS QS KD 9D 10D", "", "")],
    ...                   [CardSet.parse(h).mask for h in ("JH AH KH 10H QD AC", "JC JS AS 10S KS AD", "", "")]],
    ...                   dtype=np.uint64)
    >>> c.mask(deals).tolist()      # seat 1 of the second layout outbids hearts
    [True, False]
    """
    from trickcore.games.base import rule_dict
    from trickcore.rounds.goathead import LADDER

    g = _game(game)
    acts = check_bids_before(g, seat, bids_before, rules, scores)
    if acts is None or all(a == "pass" for a in acts):
        return earlier_seats_pass(g, seat, rules)
    rules = g.check_rules(rule_dict(rules))
    steps = _bid_steps(g, acts, rules, _check_scores(g, scores))
    need = GOATHEAD_BID_STRENGTH[g.n_seats]

    def acted(deals: np.ndarray) -> np.ndarray:
        ok = np.ones(len(deals), dtype=bool)
        for s, (a, (legal, cur)) in enumerate(zip(acts, steps)):
            rows = np.flatnonzero(ok)
            if not len(rows):
                break
            st = _goathead_strength(g, deals[rows, s], rules)
            stole = (st[:, LADDER.index(cur)] >= need) if "steal" in legal else np.zeros(len(rows), dtype=bool)
            higher = [LADDER.index(c) for c in legal if c not in ("pass", "steal")]
            if higher:
                sub = st[:, higher]
                j = sub.argmax(axis=1)  # the first maximum: max() over the legal list, low to high
                opens = sub[np.arange(len(rows)), j] >= need
                named = np.array([LADDER[i] for i in higher], dtype=object)[j]
            else:
                opens = np.zeros(len(rows), dtype=bool)
                named = np.full(len(rows), "", dtype=object)
            if a == "steal":
                good = stole
            elif a == "pass":
                good = ~stole & ~opens
            else:
                good = ~stole & opens & (named == a)
            ok[rows[~good]] = False
        return ok

    return Predicate(acted, f"the seats before the analyst act {', '.join(acts)} (HeuristicPolicy)")


def _draw(g: Game, n: int, seed: Any, fixed: np.ndarray, cond: Any, max_draws: int, lrules: Mapping[str, Any],
          batch: int = 4096) -> tuple[np.ndarray, int]:
    """The first ``n`` layouts satisfying ``cond`` among batches drawn from ``seed``'s
    children in order (so the result depends only on the seed); ``(deals, drawn)``."""
    from trickcore.deals import deal_chunk

    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    kept: list[np.ndarray] = []
    have = drawn = i = 0
    while have < n and drawn < max_draws:
        size = min(batch, max_draws - drawn)
        ss = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, i), pool_size=root.pool_size)
        deals = np.asarray(deal_chunk(g.id, ss, size, fixed=fixed, **lrules), dtype=np.uint64)
        i += 1
        ok = cond.mask(deals)
        # count the draws up to the n-th kept layout only, so the acceptance rate does not
        # depend on the batch size
        cum = np.cumsum(ok)
        if have + int(cum[-1]) >= n:
            last = int(np.searchsorted(cum, n - have)) + 1
            kept.append(deals[:last][ok[:last]])
            drawn += last
            have = n
            break
        kept.append(deals[ok])
        have += int(cum[-1])
        drawn += size
    if have < n:
        rate = have / drawn if drawn else 0.0
        raise ValueError(f"only {have} of {drawn} drawn layouts (acceptance {rate:.4f}) satisfy {cond!r}; "
                         f"needed n_deals={n}: lower n_deals, raise max_draws or relax the constraints")
    return np.concatenate(kept)[:n], drawn


def _picked_rows(g: Game, deals: np.ndarray, picker: np.ndarray, rules: Mapping[str, Any], seat: int,
                 leader: int, stakes: str = "base", solve: str = "dd") -> dict[str, np.ndarray]:
    """Rows with a picker (``picker >= 0``): the heuristic call, pick-up, burial and raise
    (:func:`analysis.odds._heuristic_pick`), double-dummy play and the scorer's payouts,
    times the ``stakes`` multiplier (:mod:`analysis.stakes`).

    ``solve="dd"`` solves exactly and adds ``picking_points`` (the picking team's total,
    -1 without a picker); ``"dd_payout"`` solves each layout only as far as its payout
    needs (the scorer's cuts for the buried cards, as ``contract_odds(policy="dd_payout")``):
    the same payouts for a third of the CPU, and no ``picking_points``."""
    from .odds import _heuristic_pick
    from .simulate import _play, _scored_frame

    n, k = len(deals), g.n_seats
    out = {
        "contract": np.full(n, "", dtype=object), "buried": np.zeros(n, dtype=np.uint64),
        "payout": np.full(n, np.nan), "partner": np.full(n, -1, dtype=np.int64),
        "multiplier": np.ones(n, dtype=np.int64),
    }
    if solve == "dd":
        out["picking_points"] = np.full(n, -1, dtype=np.int64)
    for p in sorted(set(picker[picker >= 0].tolist())):
        rows_p = np.flatnonzero(picker == p)
        calls = picker_call(g, deals[rows_p, p] | deals[rows_p, k], rules)
        for call in pd.unique(calls):
            rows = rows_p[calls == call]
            played, d, ex, buried = _heuristic_pick(g, call, deals[rows], rules, p)
            out["buried"][rows] = buried
            for c in pd.unique(played):
                sub = np.flatnonzero(played == c)
                r = rows[sub]
                dd = d[sub]
                result = _play(g.id, c, dd, rules, p, leader, solve, None, exchanged=ex[sub], kitty=buried[sub])
                f = _scored_frame(g, c, dd, result, rules, p, leader, solve, exchanged=ex[sub], kitty=buried[sub])
                out["contract"][r] = c
                partner = f["partner"].to_numpy(dtype=np.int64)
                mult = (heuristic_multiplier(g, c, deals[r], dd, p, partner, rules) if stakes == "heuristic"
                        else np.ones(len(r), dtype=np.int64))
                out["multiplier"][r] = mult
                out["payout"][r] = f[f"payout_{seat}"].to_numpy(dtype=float) * mult
                out["partner"][r] = partner
                if solve == "dd":
                    out["picking_points"][r] = f["picking_points"].to_numpy(dtype=np.int64)
    return out


def pass_odds(
    game: str | Game,
    hand: Any,
    seat: int = 0,
    rules: Mapping[str, Any] | None = None,
    *,
    constraints: Any = None,
    fixed: Mapping[Any, Any] | None = None,
    n_deals: int | None = None,
    seed: int | None = 0,
    leader: int = 0,
    level: float = 0.95,
    max_draws: int | None = None,
    return_samples: bool = False,
    scores: Sequence[float] | None = None,
    bids_before: Sequence[str] | None = None,
    stakes: str = "base",
) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """The analyst's expected payout when it *passes* with ``hand`` in pick-order ``seat``
    (Sheepshead), or at its first turn in the auction (Goathead).

    Parameters
    ----------
    game, hand, seat:
        ``"sheepshead"``, ``"goathead3"`` or ``"goathead4"`` (any other game is a
        ``ValueError``), the analyst's cards and its seat in the pick / bidding order: 0 is
        the dealer's left (decides first), the last seat the dealer (decides last); the
        seats before it passed (module docstring).
    rules:
        Rule options; ``no_pick`` decides what happens when everybody passes, ``partner``,
        ``jd_picker`` and ``announce_alone`` how a picker calls.
    stakes:
        Sheepshead: ``"base"`` (default, multiplier 1) or ``"heuristic"``: each layout with
        a picker pays times the blitzes, red blitzes, cracks and re-cracks a table of
        HeuristicPolicy players declares there under the rule options ``blitz`` and
        ``crack`` (:mod:`analysis.stakes`; the analyst's own crack as the heuristic would),
        as :func:`~analysis.odds.contract_odds` takes it, so the two tables still compare.
        The column ``multiplier`` is the mean multiplier of each outcome's layouts (1 for
        leasters and throw-ins).  Goathead has no stakes: ``"heuristic"`` is a ``ValueError``.
    constraints, fixed:
        More knowledge of the hidden cards, as in :func:`~analysis.odds.contract_odds`
        (:mod:`analysis.constraints` predicates; ``{seat: cards}``): layouts are kept when
        these hold *and* the earlier seats pass.
    n_deals:
        Layouts to evaluate (each kept layout is solved once, twice for nothing); default
        2000 for Sheepshead, 1000 for Goathead (:data:`DEFAULT_N_DEALS`).  A declared
        layout is solved only as far as its payout needs (the scorer's cuts for its buried
        or exchanged cards, as ``contract_odds(policy="dd_payout")``): the same payouts as
        exact solves in a half to a third of the time on Sheepshead.  Sheepshead's samples
        hold each picking team's points, so ``return_samples=True`` solves exactly.
    seed:
        Sampling seed: the result depends only on it and the arguments.
    leader:
        Seat leading the first trick (default 0, left of the dealer; Goathead: must be 0).
    level:
        Confidence level of the intervals (Wilson for ``p``, Student t for ``ev``).
    max_draws:
        Rejection budget: layouts drawn at most (default ``max(100 * n_deals, 100_000)``;
        Goathead ``max(1000 * n_deals, 1_000_000)``);
        fewer than ``n_deals`` kept within it is a ``ValueError`` giving the acceptance.
    return_samples:
        Also return the per-layout table (see Returns).
    scores:
        Goathead only: each seat's game points before this round (who may steal, as the
        round engine's ``scores``); default all equal, so nobody may steal.
    bids_before:
        What the seats before ``seat`` did at their first turn, in order: one action per
        earlier seat (``seat`` of them), each a contract of Goathead's ladder, ``"pass"``
        or ``"steal"`` (where ``scores`` allow it), legal given the ones before it
        (:func:`check_bids_before`); default ``None``: every earlier seat passed.  The
        layouts are those on which HeuristicPolicy at the earlier seats says exactly
        these actions (:func:`earlier_seats_bid`; module docstring, Goathead step 1);
        then the analyst passes and the engine goes on as usual (an earlier bidder may
        bid again when the auction comes back to it).  Sheepshead: ``None`` or all
        ``"pass"`` only.

    Returns
    -------
    pandas.DataFrame
        Rows ``pass``, ``partner``, ``defender``, ``no_pick`` (module docstring) with
        ``outcome``, ``n``, ``p``, ``p_lo``, ``p_hi``, ``ev``, ``ev_lo``, ``ev_hi``,
        ``leaster_value``, ``method`` (``"sampled"``).  An outcome without layouts has
        ``ev`` ``NaN``; an interval from a single layout is ``NaN``.  ``attrs``: ``game``,
        ``hand``, ``seat``, ``dealer``, ``leader``, ``no_pick``, ``n_drawn``,
        ``acceptance``, ``p_pick``, ``p_all_pass``, ``ev_bounds`` (``(ev, ev)``, or the
        leaster bounds), ``level``, ``seed``, ``kitty_policy`` (``"heuristic"``),
        ``bids_before`` (the checked tuple, or ``None``); Goathead also ``scores``, and
        ``no_pick`` is ``"leasters"``.
    (table, samples)
        With ``return_samples=True``; ``samples`` has one row per layout: ``hand_0`` ..
        ``hand_4`` and ``blind`` (bit-boards as dealt), ``picker`` (−1: nobody picked and
        no forced pick), ``forced`` (the dealer's forced pick), ``contract`` (as played;
        ``"leaster"``, or ``"thrown_in"`` for redeal / doubler), ``buried``, ``outcome``,
        ``partner`` (the picker's partner seat, −1 none), ``picking_points`` (the picking
        team's total, −1 without a picker), ``multiplier`` (the stakes'), ``payout``
        (the analyst's; ``NaN`` in a leaster) and ``leaster_value``.  Goathead's columns
        are listed in the module docstring.

    Raises
    ------
    ValueError
        Another game; a bad hand, seat, rule or argument (Goathead: ``leader`` other than
        0, bad ``scores``; ``scores`` for Sheepshead); an illegal or misplaced action in
        ``bids_before`` (named); the dealer passing under ``no_pick='dealer_picks'``; too
        few layouts in which the earlier seats pass (act as ``bids_before`` says).
    """
    from trickcore.games.base import rule_dict
    from trickcore.scoring._frame import resolve_rules

    from .odds import _check_hand, _check_seat
    from .simulate import _layout_rules

    g = _game(game)
    rules = rule_dict(rules)
    full = resolve_rules(g.id, rules)
    h = _check_hand(g, hand, seat, rules)
    seat = int(seat)
    leader = _check_seat("leader", leader, g.n_seats)
    dealer = g.n_seats - 1
    goathead = g.id in GOATHEAD_GAMES
    check_stakes(g, stakes)
    if goathead and leader != 0:
        raise ValueError(f"{g.id}: the dealer's left (seat 0) leads the first trick whatever the contract, "
                         f"so leader must be 0; got {leader}")
    if scores is not None and not goathead:
        raise ValueError(f"scores (the game points that allow a steal) are for goathead3 and goathead4; got {g.id}")
    scores = _check_scores(g, scores) if goathead else None
    no_pick = "leasters" if goathead else full["no_pick"]
    if no_pick == "dealer_picks" and seat == dealer:
        raise ValueError(f"seat {seat} is the dealer: under no_pick='dealer_picks' the dealer must pick when "
                         "everybody else passed, so passing is not allowed there")
    # Goathead's heuristic bids with most hands: a late seat keeps ~1 % of the layouts
    n_deals, max_draws, fx, user = _check_sampling(
        g, seat, h, rules, DEFAULT_N_DEALS[g.id], n_deals, max_draws, 1000 if goathead else 100, seed, level,
        return_samples, fixed, constraints)
    acts = check_bids_before(g, seat, bids_before, rules, scores)
    earlier = earlier_seats_pass(g, seat, rules) if acts is None else earlier_seats_bid(g, seat, acts, rules, scores)
    cond = as_constraint([earlier, user]) if constraints is not None else earlier

    deals, drawn = _draw(g, n_deals, seed, fx, cond, max_draws, _layout_rules(g.id, rules))
    n = len(deals)
    k = g.n_seats
    if goathead:
        return _goathead_pass(g, h, seat, rules, deals, drawn, scores, level, seed, return_samples, acts)

    # who picks: the first seat after the analyst whose hand picks by the heuristic
    picker = np.full(n, -1, dtype=np.int64)
    for s in range(seat + 1, k):
        picker = np.where((picker < 0) & heuristic_picks(g, deals[:, s], rules), s, picker)
    all_pass = picker < 0
    forced = all_pass & (no_pick == "dealer_picks")
    picker = np.where(forced, dealer, picker)

    # solved only as far as the payouts need, unless the samples' exact picking points are asked for
    res = _picked_rows(g, deals, picker, rules, seat, leader, stakes, "dd" if return_samples else "dd_payout")
    payout = res["payout"]
    contract = res["contract"]
    leaster_value = np.full(n, np.nan)
    if all_pass.any() and no_pick == "leaster":
        from .paranoid import seat_frame

        rows = np.flatnonzero(all_pass)
        f = seat_frame(g, "leaster", deals[rows], seat=seat, leader=leader, rules=rules)
        leaster_value[rows] = f["value"].to_numpy(dtype=float)
        contract[rows] = "leaster"
    elif no_pick in ("redeal", "doubler"):
        payout[all_pass] = 0.0
        contract[all_pass] = "thrown_in"
    on_side = res["partner"] == seat
    outcome = np.where(all_pass, "no_pick", np.where(on_side, "partner", "defender")).astype(object)

    table = _table(outcome, payout, leaster_value, level, res["multiplier"])
    n_pick = int((~all_pass).sum())
    known_pay = ~np.isnan(payout)
    part = float(payout[known_pay].sum()) / n
    p_all = float(all_pass.mean())
    if no_pick == "leaster" and all_pass.any():
        lo, hi = LEASTER_PAYOUT_RANGE
        bounds = (part + lo * p_all, part + hi * p_all)
    else:
        ev = float(table["ev"].iloc[0])
        bounds = (ev, ev)
    table.attrs.update({
        "game": g.id, "hand": str(h), "seat": seat, "dealer": dealer, "leader": leader, "no_pick": no_pick,
        "n_drawn": int(drawn), "acceptance": n / drawn, "p_pick": n_pick / n, "p_all_pass": p_all,
        "ev_bounds": bounds, "level": level, "seed": seed, "kitty_policy": "heuristic", "bids_before": acts,
        "stakes": stakes,
    })
    if not return_samples:
        return table
    samples = pd.DataFrame({f"hand_{s}": deals[:, s] for s in range(k)})
    samples["blind"] = deals[:, k]
    samples["picker"] = np.where(all_pass & ~forced, -1, picker)
    samples["forced"] = forced
    samples["contract"] = contract
    samples["buried"] = np.where(picker >= 0, res["buried"], np.uint64(0))
    samples["outcome"] = outcome
    samples["partner"] = res["partner"]
    samples["picking_points"] = res["picking_points"]
    samples["multiplier"] = res["multiplier"]
    samples["payout"] = payout
    samples["leaster_value"] = leaster_value
    return table, samples


def _check_sampling(g: Game, seat: int, hand: CardSet, rules: Mapping[str, Any], default_deals: int,
                    n_deals: Any, max_draws: Any, draws_per_deal: int, seed: Any, level: Any,
                    return_samples: Any, fixed: Any, constraints: Any) -> tuple[int, int, np.ndarray, Any]:
    """The sampling arguments shared by :func:`pass_odds` and
    :func:`analysis.cracking.crack_odds`, checked: ``(n_deals, max_draws, fixed cards
    (with the analyst's hand), the user's constraint)``; ``max_draws`` defaults to
    ``draws_per_deal`` layouts drawn per layout wanted, at least 1000 times that."""
    from .odds import known_cards

    n_deals = default_deals if n_deals is None else engine.whole("n_deals", n_deals)
    if n_deals < 1:
        raise ValueError(f"n_deals must be at least 1; got {n_deals}")
    if max_draws is None:
        max_draws = max(draws_per_deal * n_deals, 1000 * draws_per_deal)
    else:
        max_draws = engine.whole("max_draws", max_draws)
    if max_draws < n_deals:
        raise ValueError(f"max_draws must be at least n_deals ({n_deals}); got {max_draws}")
    engine.check_seed(seed)
    z_value(level)
    if not isinstance(return_samples, bool):
        raise ValueError(f"return_samples must be True or False; got {return_samples!r}")
    if fixed is not None and not isinstance(fixed, Mapping):
        raise ValueError(f"fixed must be a mapping {{seat: cards}}; got {fixed!r}")
    fx = known_cards(g, fixed, seat, hand, rules)
    user = as_constraint(constraints)
    user.check_seats(g.n_seats)
    return n_deals, max_draws, fx, user


def _table(outcome: np.ndarray, payout: np.ndarray, leaster_value: np.ndarray, level: float,
           multiplier: np.ndarray | None = None) -> pd.DataFrame:
    n = len(outcome)
    rows = []
    for name in OUTCOMES:
        sel = np.ones(n, dtype=bool) if name == "pass" else outcome == name
        k = int(sel.sum())
        lo, hi = wilson_interval(k, n, level)
        pay = payout[sel]
        if k and not np.isnan(pay).any():
            ev, ev_lo, ev_hi = Moments(k, float(pay.sum()), float((pay * pay).sum())).interval(level)
        else:
            ev = ev_lo = ev_hi = np.nan
        lv = leaster_value[sel]
        lv = lv[~np.isnan(lv)]
        rows.append({
            "outcome": name, "n": k, "p": k / n, "p_lo": float(lo), "p_hi": float(hi),
            "ev": float(ev), "ev_lo": float(ev_lo), "ev_hi": float(ev_hi),
            "leaster_value": float(lv.mean()) if len(lv) else np.nan, "method": "sampled",
        })
        if multiplier is not None:
            rows[-1]["multiplier"] = float(multiplier[sel].mean()) if k else np.nan
    return pd.DataFrame(rows)


# -- Goathead: the round engine from the deal to the first card ----------------------------

def _check_scores(g: Game, scores: Any) -> tuple[float, ...] | None:
    from trickcore.rounds.state import check_scores

    return None if scores is None else check_scores(g.n_seats, scores)


@functools.lru_cache(maxsize=1)
def _policy() -> Any:
    from trickcore.policies import HeuristicPolicy

    return HeuristicPolicy()


def _drive(g: Game, row: np.ndarray, seat: int, rules: Mapping[str, Any], scores: Any,
           bids_before: Sequence[str] | None = None) -> Any:
    """The round engine on one layout (dealer the last seat), from the deal up to the
    first card of play: the analyst answers ``"pass"`` to its bid, HeuristicPolicy every
    other decision (the analyst's own 4-player kitty swap included).  Returns the round.
    The earlier seats' first actions must be ``bids_before`` (default: all ``"pass"``),
    as the layout was drawn: ``RuntimeError`` otherwise."""
    from trickcore.rounds import start_round

    k = g.n_seats
    r = start_round(g.id, hands=[CardSet(int(x)) for x in row[:k]], kitty=CardSet(int(row[k])), dealer=k - 1,
                    scores=scores, **rules)
    pol = _policy()
    expect = ("pass",) * seat if bids_before is None else tuple(bids_before)
    first_round = True  # until the analyst's first turn: seats 0 .. seat-1 act once each, in order
    while r.pending is not None and r.pending.kind != "play":
        d = r.pending
        if d.kind == "bid" and d.phase == "bid" and d.seat == seat and first_round:
            first_round = False
            r.act("pass")
            continue
        answer = getattr(pol, d.kind)(r.observe(d.seat))
        if first_round and answer != expect[d.seat]:  # pragma: no cover - a bug if it happens
            raise RuntimeError(f"seat {d.seat} says {answer!r} in a layout drawn with it saying "
                               f"{expect[d.seat]!r}: the vectorised bid rule disagrees with HeuristicPolicy")
        r.act(answer)
    if r.pending is None:  # pragma: no cover - Goathead is never thrown in
        raise RuntimeError(f"the {g.id} round ended before its first card")
    return r


def _goathead_pass(g: Game, h: CardSet, seat: int, rules: Mapping[str, Any], deals: np.ndarray, drawn: int,
                   scores: tuple[float, ...] | None, level: float, seed: Any, return_samples: bool,
                   bids_before: tuple[str, ...] | None = None) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`pass_odds` for Goathead on the drawn layouts (module docstring, "Goathead")."""
    from .paranoid import seat_frame
    from .simulate import _play, _scored_frame

    n, k = len(deals), g.n_seats
    after = np.zeros_like(deals)
    declarer = np.full(n, -1, dtype=np.int64)
    side = np.zeros(n, dtype=np.int64)
    exchanged = np.zeros(n, dtype=bool)
    contract = np.full(n, "leasters", dtype=object)
    bid = np.full(n, "", dtype=object)
    for i, row in enumerate(deals):
        r = _drive(g, row, seat, rules, scores, bids_before)
        after[i, :k] = [x.mask for x in r.hands]
        after[i, k] = r.kitty.mask
        bids = [b for _, p, b in r.bids if p == "bid" and b not in ("pass", "steal")]
        if r.declarer is not None:
            declarer[i], side[i], exchanged[i] = r.declarer, r.side_mask, r.exchanged
            contract[i], bid[i] = r.contract, bids[-1]

    payout = np.full(n, np.nan)
    leaster_value = np.full(n, np.nan)
    declared = declarer >= 0
    for c in pd.unique(contract[declared]):
        for d in sorted(set(declarer[declared & (contract == c)].tolist())):
            rows = np.flatnonzero((contract == c) & (declarer == d))
            dd = after[rows]
            # solved only as far as the payout needs (the scorer's cuts for this kitty and
            # exchange): nothing here reads the points themselves
            played = _play(g.id, c, dd, rules, d, 0, "dd_payout", None, exchanged=exchanged[rows], kitty=dd[:, k])
            if (np.asarray(played["side_mask"], dtype=np.int64) != side[rows]).any():  # pragma: no cover
                raise RuntimeError(f"{g.id}/{c}: the solver's side differs from the round engine's")
            f = _scored_frame(g, c, dd, played, rules, d, 0, "dd_payout", exchanged=exchanged[rows], kitty=dd[:, k])
            payout[rows] = f[f"payout_{seat}"].to_numpy(dtype=float)
    if (~declared).any():
        rows = np.flatnonzero(~declared)
        f = seat_frame(g, "leasters", after[rows], seat=seat, leader=0, rules=rules)
        leaster_value[rows] = f["value"].to_numpy(dtype=float)
    on_side = ((side >> seat) & 1) == 1
    outcome = np.where(~declared, "no_pick", np.where(on_side, "partner", "defender")).astype(object)

    table = _table(outcome, payout, leaster_value, level)
    p_all = float((~declared).mean())
    if (~declared).any():
        lo, hi = GOATHEAD_LEASTERS_PAYOUT_RANGE
        part = float(payout[declared].sum()) / n
        bounds = (part + lo * p_all, part + hi * p_all)
    else:
        ev = float(table["ev"].iloc[0])
        bounds = (ev, ev)
    table.attrs.update({
        "game": g.id, "hand": str(h), "seat": seat, "dealer": k - 1, "leader": 0, "no_pick": "leasters",
        "n_drawn": int(drawn), "acceptance": n / drawn, "p_pick": float(declared.mean()), "p_all_pass": p_all,
        "ev_bounds": bounds, "level": level, "seed": seed, "kitty_policy": "heuristic",
        "scores": scores if scores is not None else (0.0,) * k, "bids_before": bids_before,
    })
    if not return_samples:
        return table
    samples = pd.DataFrame({f"hand_{s}": deals[:, s] for s in range(k)})
    samples["kitty"] = deals[:, k]
    samples["declarer"] = declarer
    samples["bid"] = bid
    samples["contract"] = contract
    samples["exchanged"] = exchanged
    for s in range(k):
        samples[f"final_{s}"] = after[:, s]
    samples["final_kitty"] = after[:, k]
    samples["side_mask"] = side
    samples["outcome"] = outcome
    samples["payout"] = payout
    samples["leaster_value"] = leaster_value
    return table, samples
