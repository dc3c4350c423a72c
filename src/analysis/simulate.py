"""Monte Carlo over random deals: solve (or play out) every contract, score, tabulate.

Conventions (what a simulated round *is*)
-----------------------------------------
* Seats ``0 .. n-1`` in play order; the dealer is the last seat, so seat 0 sits left of the
  dealer: it bids first and, in every game this library covers, leads the first trick.
  So by default ``declarer=0`` and ``leader=0`` (Goathead: "the player to the left of the
  dealer leads to the first trick, regardless of who made the contract").  Both can be
  set; the declarer's side follows the contract's side rule (Goathead 4p: black jacks).
* Every contract is evaluated on *the same* deals (one solve per deal and contract), so
  differences between contracts are paired.
* The declarer plays the dealt hand: no kitty exchange (``exchanged = False``, so a
  Goathead declarer collects the no-exchange point) and the kitty's card points count for
  the declarer's side (``kitty_points``; the scorer applies the ``kitty_points`` rule
  option).  Kitty decisions — pick up, bury, raise — are analysed per hand by
  :func:`analysis.odds.contract_odds`.
* ``policy="dd"`` (default) is the double-dummy value of the declarer's side (every
  player sees every card and plays perfectly); ``"greedy"`` and ``"random"`` are
  :func:`trickcore.playouts.playout` policies, i.e. realistic-to-naive play.
* ``policy="dd_payout"`` is double dummy solved only as far as the payout needs
  (Goathead: whether the declarer's count reaches 31, 61 and 90, or every point;
  Sheepshead: whether the picking team's total reaches 1, 31, 61, 91 and 120): payouts,
  ``made`` and ``stake`` equal ``"dd"``'s on every deal, for a fraction of the search.
  The value is then a band, ``side_points_lo`` .. ``side_points_hi``, and
  ``side_points`` / ``declarer_points`` / ``picking_points`` are missing (``NaN``).  No
  line of play is followed (a sixth of the search): ``side_tricks`` is known only where
  the band decides it (Goathead, whose cards all carry points: every trick when the band
  is every point in play, none when it is 0; ``NaN`` otherwise) and
  ``last_trick_winner`` is ``NaN``.  Nil is solved exactly as under ``"dd"`` (its value
  is the declarer's trick count, which the payout reads) but without a line either: its
  ``last_trick_winner`` is ``NaN`` too (a third of Goathead Nil's search).
* Games and contracts without a declaring side (Hearts, Gamut Hearts and Clubs, Oh Hell,
  leasters) and the trick-bid games (Spades, Gamut Spades, Oh Hell) are analysed for one
  seat at a time (``seats``, default the ``declarer`` seat), double dummy as
  ``RULINGS.md`` settles it: the seat's *paranoid* value (alone against the others) and,
  for bid games, one row per deal and bid.  :mod:`analysis.paranoid` and
  :mod:`analysis.bids` say exactly what ``made``, ``value`` and the payout mean there.
  Such rows have ``declarer = -1`` and the analysed ``seat``; Hearts, Gamut and Oh Hell
  take ``policy="dd"`` for this, leasters ``policy="paranoid"`` (``"dd"`` keeps asking for
  a declarer there); ``"greedy"`` / ``"random"`` play every seat out instead (Spades and
  Oh Hell play-outs need bids from :mod:`trickcore.rounds`, not this function).

Scale
-----
Deals are generated chunk by chunk (:mod:`analysis.engine`), each chunk from its own
``SeedSequence`` child, so results do not depend on ``n_jobs`` or the backend.  The full
table is returned only when asked for; :func:`simulate_summary` keeps running sums per
contract and returns the summary, so memory stays flat for any ``n_deals``.  With
``store=`` every chunk goes to a Parquet dataset and a killed run resumes.

Outside the solver a chunk costs a few numpy passes per contract: the scorers read the
play's arrays as they are (:class:`trickcore.scoring._frame.Table`), a table is built once
per contract only when one is returned or stored, and without a store the summary sums a
table of just the columns it reads — about 2% of the solving time of a 16,384-deal
Goathead chunk (``benches/bench_engine.py`` measures it).

Examples
--------
>>> df = simulate("goathead3", 20, seed=1, contracts=["hearts", "court"], n_jobs=1)
>>> df.groupby("contract", observed=True).size().to_dict()
{'hearts': 20, 'court': 20}
>>> sorted(c for c in df.columns if c.startswith("payout_"))
['payout_0', 'payout_1', 'payout_2']
>>> bool((df[["payout_0", "payout_1", "payout_2"]].sum(axis=1) == 0).all())
True
>>> s = simulate_summary("goathead3", 20, seed=1, contracts=["hearts"], n_jobs=1)
>>> list(s.columns[:4])
['contract', 'n', 'p_make', 'p_make_lo']

Games without a declarer: one row per deal and bid (Oh Hell, 3 cards each, seat 1):

>>> oh = simulate("ohhell", 6, seed=1, contracts="notrump", rules={"hand_size": 3}, seats=[1], n_jobs=1)
>>> oh.groupby("bid").size().to_dict(), sorted(oh.seat.unique().tolist())
({0: 6, 1: 6, 2: 6, 3: 6}, [1])
>>> s = simulate_summary("ohhell", 6, seed=1, contracts="notrump", rules={"hand_size": 3}, seats=[1], n_jobs=1)
>>> s[["contract", "bid", "n"]].values.tolist()
[['notrump', 0, 6], ['notrump', 1, 6], ['notrump', 2, 6], ['notrump', 3, 6]]
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from trickcore.cards import CardSet
from trickcore.games import Game, get_game
from trickcore.layout import Layout

from . import engine
from .constraints import Constraint, as_constraint, fixed_masks, sample_deals
from .stats import Moments, wilson_interval
from .store import ChunkStore

__all__ = [
    "simulate",
    "simulate_summary",
    "compare",
    "bid_contracts",
    "evaluate",
    "declarer_count",
    "hands_text",
    "POLICIES",
    "NO_DECLARER_CONTRACTS",
]

#: How the cards are played: double dummy, a playout policy of :mod:`trickcore.playouts`,
#: or ``"paranoid"``: double dummy of one seat against all others (:mod:`analysis.paranoid`).
POLICIES = ("dd", "dd_payout", "greedy", "random", "paranoid")
#: Policies solved double dummy by :func:`trickcore.solve_many`.
DD_POLICIES = ("dd", "dd_payout")

#: Contracts nobody bids (played when everybody passes), scored per seat.
NO_DECLARER_CONTRACTS = frozenset({"leasters", "leaster"})

#: Games that have no declaring side at all: every seat is scored on its own.
_PER_SEAT_GAMES = frozenset({"hearts", "ohhell"})


def bid_contracts(game: str | Game) -> tuple[str, ...]:
    """The contracts a player can bid (every contract but the all-pass ones).

    >>> bid_contracts("goathead3")
    ('diamonds', 'hearts', 'nil', 'spades', 'clubs', 'court')
    """
    g = get_game(game)
    from .paranoid import UNSUPPORTED

    return tuple(c for c in g.contracts if c not in NO_DECLARER_CONTRACTS and (g.id, c) not in UNSUPPORTED)


def _check_contracts(g: Game, contracts: Any) -> tuple[str, ...]:
    if contracts is None:
        return bid_contracts(g)
    if isinstance(contracts, str):
        contracts = [contracts]
    if not isinstance(contracts, Iterable):
        raise ValueError(f"contracts must be a contract name or a list of them; got {contracts!r}")
    out = tuple(g.check_contract(c) for c in contracts)
    if not out:
        raise ValueError("contracts must name at least one contract")
    if len(set(out)) != len(out):
        raise ValueError(f"contract listed twice in {list(out)}")
    return out


def _per_seat(game: str, contract: str) -> bool:
    return contract in NO_DECLARER_CONTRACTS or game in _PER_SEAT_GAMES


def hands_text(frame: pd.DataFrame, n_seats: int | None = None) -> pd.DataFrame:
    """The ``hand_{s}`` / ``kitty`` bit-board columns of a result table as readable text.

    >>> df = pd.DataFrame({"hand_0": [CardSet.parse("JC AH").mask], "kitty": [0]})
    >>> hands_text(df).iloc[0].tolist()
    ['A♥ J♣', '']
    """
    cols = [c for c in frame.columns if c.startswith("hand_") or c == "kitty"]
    out = pd.DataFrame(index=frame.index)
    for c in cols:
        out[c] = [str(CardSet(int(m))) for m in frame[c].to_numpy(dtype=np.uint64)]
    return out


# -- one chunk: deal, play, score --------------------------------------------------------

def _card_points(game: str, contract: str, masks: np.ndarray, rules: Mapping[str, Any]) -> np.ndarray:
    """Card points of each bit-board of ``masks`` under ``contract``, ``int64``: the sum of
    the points of each of its 8 bytes, looked up (one gather per byte, not a pass per card).

    >>> m = np.array([CardSet.parse("AH 10H").mask, CardSet.parse("JC").mask, 0], dtype=np.uint64)
    >>> _card_points("goathead3", "hearts", m, {}).tolist()
    [21, 2, 0]
    """
    table = get_game(game).layout(contract, **_layout_rules(game, rules)).point_table()
    lut = _byte_points(table.tobytes())
    masks = np.asarray(masks, dtype=np.uint64)
    octets = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(*masks.shape, 8)  # byte k: cards 8k..
    pts = np.zeros(masks.shape, dtype=np.int64)
    for k in np.flatnonzero(lut.any(axis=1)):
        pts += lut[k][octets[..., k]]
    return pts


@functools.lru_cache(maxsize=64)
def _byte_points(table: bytes) -> np.ndarray:
    """``int64[8, 256]``: the points of each byte value at each byte of a bit-board, for a
    point table (``int16[64]`` by universal card id, as bytes)."""
    points = np.frombuffer(table, dtype=np.int16).astype(np.int64).reshape(8, 8)
    bits = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1  # (byte value, bit)
    return points @ bits.T


def _layout_rules(game: str, rules: Mapping[str, Any]) -> dict[str, Any]:
    """The rule options the game registry knows (the scorer reads the others)."""
    g = get_game(game)
    return {k: v for k, v in dict(rules).items() if k in g.options}


def _play(game: str, contract: str, deals: np.ndarray, rules: Mapping[str, Any], declarer: int,
          leader: int, policy: str, seed: Any, exchanged: Any = False,
          kitty: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Side-level play results of ``contract`` on ``deals`` for one declarer.
    ``policy="dd_payout"`` solves a point contract only up to the scorer's cuts (for the
    kitty and exchange the round is scored with): ``side_points_lo`` / ``_hi`` bound the
    value and ``side_points`` is the band's bottom, which pays what the value pays."""
    g = get_game(game)
    n = g.n_seats
    hands = np.ascontiguousarray(deals[:, :n])
    lay = g.layout(contract, **_layout_rules(game, rules))
    side = lay.sides(hands, declarer).astype(np.uint8)
    cuts = None
    if policy == "dd_payout" and lay.objective == "points":
        cuts = _payout_cuts(g, contract, deals, rules, exchanged, kitty)
    # dd_payout follows no line: a band's cuts decide the only trick counts the scorer
    # reads (every trick, none: see _band_tricks), and Nil's value is its trick count
    no_line = policy == "dd_payout" and (cuts is not None or lay.objective == "nil")
    if policy in DD_POLICIES:
        from trickcore.solver import solve_many

        r = solve_many(game, contract, hands, leader=leader, declarer=declarer, cuts=cuts,
                       line=not no_line, **_layout_rules(game, rules))
        get = (lambda k: np.asarray(r[k])) if isinstance(r, Mapping) else (lambda k: np.asarray(getattr(r, k)))
        value = get("value").astype(np.int64)
        out = {
            "side_mask": get("side").astype(np.uint8) if hasattr(r, "side") else side,
            "side_tricks": get("side_tricks").astype(np.int64),
            "last_trick_winner": get("last_trick_winner").astype(np.int64),
            "side_melds": get("side_melds").astype(np.int64),
            "opp_melds": get("opp_melds").astype(np.int64),
            "nodes": get("nodes").astype(np.int64),
        }
        out["side_points"] = value if lay.objective == "points" else np.zeros(len(hands), dtype=np.int64)
        if cuts is not None:
            out["side_points_lo"] = value
            out["side_points_hi"] = get("value_hi").astype(np.int64)
            in_play = _card_points(game, contract, np.bitwise_or.reduce(hands, axis=1), rules)
            points = lay.point_table()
            out["side_tricks"], out["_side_tricks_known"] = _band_tricks(
                value, out["side_points_hi"], in_play, lay.hand_size, all(points[int(c)] > 0 for c in lay.deck))
            out["side_melds"] = out["opp_melds"] = np.zeros(len(hands), dtype=np.int64)  # cuts: no melds
        elif no_line:  # Nil: play stops at the declarer's first trick, the value counts it
            out["side_tricks"] = value
            out["_no_last_trick"] = np.ones(1, dtype=bool)
        return out
    from trickcore.playouts import playout

    r = playout(game, contract, hands, policy=policy, leader=leader, declarer=declarer, seed=seed,
                **_layout_rules(game, rules))
    seat_bits = np.uint8(1) << np.arange(n, dtype=np.uint8)
    on_side = (side[:, None] & seat_bits[None, :]) != 0
    points = np.asarray(r.points, dtype=np.int64)
    tricks = np.asarray(r.tricks, dtype=np.int64)
    melds = np.asarray(getattr(r, "melds", np.zeros_like(points)), dtype=np.int64)
    out = {
        "side_mask": side,
        "side_points": np.where(on_side, points, 0).sum(axis=1),
        "side_tricks": np.where(on_side, tricks, 0).sum(axis=1),
        "side_melds": np.where(on_side, melds, 0).sum(axis=1),
        "opp_melds": np.where(on_side, 0, melds).sum(axis=1),
    }
    for s in range(n):
        out[f"points_{s}"] = points[:, s]
        out[f"tricks_{s}"] = tricks[:, s]
    if hasattr(r, "last_trick_winner"):
        out["last_trick_winner"] = np.asarray(r.last_trick_winner, dtype=np.int64)
    if _counts_penalty_cards(game, contract) and hasattr(r, "cards"):
        out.update(_penalty_cards_taken(game, np.asarray(r.cards), np.asarray(r.winners), n))
    return out


#: Universal ids of the Hearts penalty cards the scorers count per seat: Q♠ and J♦.
_QUEEN_SPADES, _JACK_DIAMONDS = 16 * 3 + 10, 16 * 1 + 9


def _counts_penalty_cards(game: str, contract: str) -> bool:
    """Whether the scorer of ``contract`` counts the hearts and Q♠ each seat took."""
    return game == "hearts" or (game == "gamut" and contract == "hearts")


def _penalty_cards_taken(game: str, cards: np.ndarray, winners: np.ndarray, n_seats: int) -> dict[str, np.ndarray]:
    """``hearts_{s}``, ``queen_{s}`` (and Hearts' ``jack_{s}``): how many hearts, Q♠ and
    J♦ the tricks each seat won held, from a recorded play (``cards`` ``int[n, tricks,
    seats]`` of universal ids, −1 unplayed; ``winners`` ``int[n, tricks]``)."""
    ids = cards.astype(np.int64)
    played = ids >= 0
    kinds = {"hearts": (ids // 16 == 2), "queen": ids == _QUEEN_SPADES}
    if game == "hearts":
        kinds["jack"] = ids == _JACK_DIAMONDS
    out: dict[str, np.ndarray] = {}
    for name, hit in kinds.items():
        per_trick = (hit & played).sum(axis=2)  # (n, tricks)
        for s in range(n_seats):
            out[f"{name}_{s}"] = np.where(winners == s, per_trick, 0).sum(axis=1).astype(np.int64)
    return out


def evaluate(
    game: str | Game,
    contract: str,
    deals: np.ndarray,
    *,
    rules: Mapping[str, Any] | None = None,
    declarer: int = 0,
    leader: int = 0,
    policy: str = "dd",
    seed: Any = None,
    exchanged: Any = False,
    kitty: np.ndarray | None = None,
    deal_index: np.ndarray | None = None,
) -> pd.DataFrame:
    """Play and score one contract on ``deals`` (``uint64[n, n_seats + 1]``): one row per deal.

    ``kitty`` overrides the last column as the cards whose points count for the declarer
    (after an exchange: the buried cards); ``exchanged`` says whether the declarer
    exchanged (scalar or per deal).  The table has the hands, the side, the play columns
    and the scorer's ``payout_{s}``, ``made`` and ``stake``.  ``kitty`` is one bit-board
    per deal; a kitty (given, or the last column) holding a card outside the deck or a card
    also in a hand is a ``ValueError`` naming the deal row and the card.

    >>> from trickcore.cards import CardSet
    >>> deal = np.array([[CardSet.parse(h).mask for h in (
    ...     "JC JS AH 10H AC KD", "JH JD KH QH 10C QS", "AD 10D QD AS 10S KS", "KC QC")]], dtype=np.uint64)
    >>> row = evaluate("goathead3", "hearts", deal).iloc[0]
    >>> int(row.side_points) + int(row.kitty_points) >= 61, bool(row.made), float(row.payout_0)
    (True, True, 4.0)
    """
    g = get_game(game)
    contract = g.check_contract(contract)
    from trickcore.games.base import rule_dict
    from trickcore.layout import bitboards

    from .odds import _check_seat

    rules = rule_dict(rules)
    deals = bitboards(deals, f"deals must be uint64[n, {g.n_seats + 1}] bit-boards (hands then kitty)")
    declarer, leader = _check_seat("declarer", declarer, g.n_seats), _check_seat("leader", leader, g.n_seats)
    ex = np.asarray(exchanged)
    if ex.dtype != np.bool_ or ex.ndim > 1 or (ex.ndim == 1 and deals.ndim == 2 and len(ex) != len(deals)):
        raise ValueError(f"exchanged must be True/False or one bool per deal ({len(deals) if deals.ndim else 0}); "
                         f"got {exchanged!r}")
    _check_evaluate(g, contract, deals, declarer, policy)
    if kitty is not None:
        kitty = bitboards(kitty, f"kitty must be uint64 bit-boards, one per deal ({len(deals)})")
        if kitty.shape != (len(deals),):
            raise ValueError(f"kitty must be uint64 bit-boards, one per deal ({len(deals)}); got shape {kitty.shape}")
    _check_kitty(g.layout(contract, **_layout_rules(g.id, rules)), deals, kitty)
    played = _play(g.id, contract, deals, rules, int(declarer), int(leader), policy, seed, exchanged, kitty)
    return _scored_frame(g, contract, deals, played, rules, int(declarer), int(leader), policy,
                         exchanged=exchanged, kitty=kitty, deal_index=deal_index)


def _check_evaluate(g: Game, contract: str, deals: np.ndarray, declarer: int, policy: str) -> None:
    """``ValueError`` for what :func:`evaluate` cannot do (``contract`` already checked)."""
    _check_policy(g, policy)
    if deals.ndim != 2 or deals.shape[1] != g.n_seats + 1:
        raise ValueError(f"deals must be uint64[n, {g.n_seats + 1}] (hands then kitty); got shape {deals.shape}")
    if not 0 <= int(declarer) < g.n_seats:
        raise ValueError(f"declarer must be a seat 0..{g.n_seats - 1}; got {declarer!r}")
    if _per_seat(g.id, contract) and policy in DD_POLICIES:
        raise ValueError(
            f"{g.id}/{contract} has no declaring side: its per-seat double-dummy values are each seat's "
            "paranoid value, not one consistent play; use policy='greedy' or 'random', or simulate(..., "
            "policy='paranoid') for the paranoid values (analysis.paranoid.seat_frame)"
        )


def _check_kitty(lay: Layout, deals: np.ndarray, kitty: np.ndarray | None) -> None:
    """``ValueError`` naming the first deal row whose kitty (``kitty``, else the deals' last
    column) holds a card outside the deck of ``lay`` or a card also in a hand: its points
    would count for the declarer as well (or, outside the deck, silently as 0)."""
    n = lay.n_seats
    cards = deals[:, n] if kitty is None else kitty
    what = "kitty column" if kitty is None else "kitty"
    deck = np.uint64(lay.deck.mask)
    outside = cards & ~deck
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        raise ValueError(f"{what} of deal row {i}: {CardSet(int(outside[i]))} not in the deck of {lay.name}")
    both = deals[:, :n] & cards[:, None]
    if both.any():
        i, s = (int(k) for k in np.argwhere(both)[0])
        raise ValueError(f"{what} of deal row {i}: {CardSet(int(both[i, s]))} also in seat {s}'s hand")


def _band_tricks(lo: np.ndarray, hi: np.ndarray, in_play: np.ndarray, hand_size: int,
                 every_card_scores: bool) -> tuple[np.ndarray, np.ndarray]:
    """The side's trick count where a band of its points decides it, for the scorer.

    :func:`trickcore.scoring.payout_cuts` promises that a scorer with cuts reads the
    trick count only as "every trick", the same as every point in play (``in_play``), or
    "no trick", the same as no point, both cuts — or not at all.  When every card carries
    points, the band decides those two counts.  Returns the count the scorer is given
    (``hand_size``, 0, or 1 for "some but not every trick", which pays alike) and whether
    the band decides the count itself.

    >>> t, known = _band_tricks(np.array([0, 40, 120]), np.array([0, 60, 120]), np.array([120] * 3), 6, True)
    >>> t.tolist(), known.tolist()
    ([0, 1, 6], [True, False, True])
    >>> _band_tricks(np.array([0]), np.array([0]), np.array([120]), 6, False)[1].tolist()
    [False]
    """
    every = lo >= in_play
    none = hi <= 0
    known = (every | none) & every_card_scores
    return np.where(every, hand_size, np.where(none, 0, 1)), known


def _payout_cuts(g: Game, contract: str, deals: np.ndarray, rules: Mapping[str, Any], exchanged: Any,
                 kitty: np.ndarray | None) -> np.ndarray:
    """The scorer's cuts of ``side_points`` (:func:`trickcore.scoring.payout_cuts`) per deal."""
    from trickcore.scoring import payout_cuts

    m = len(deals)
    kitty_cards = deals[:, g.n_seats] if kitty is None else np.asarray(kitty, dtype=np.uint64)
    return payout_cuts(g.id, {
        "contract": pd.Categorical.from_codes(np.zeros(m, dtype=np.int8), dtype=_categories((contract,)),
                                              validate=False),
        "kitty_points": _card_points(g.id, contract, kitty_cards, rules),
        "exchanged": np.broadcast_to(np.asarray(exchanged, dtype=bool), (m,)),
    }, rules)


def _game_columns(g: Game, contract: str, deals: np.ndarray, frame: Mapping[str, Any],
                  rules: Mapping[str, Any], declarer: int) -> dict[str, np.ndarray]:
    """The extra side-level columns some scorers read, derived from the hands and the play."""
    n = g.n_seats
    out: dict[str, np.ndarray] = {}
    side = np.asarray(frame["side_mask"], dtype=np.int64)
    if g.id == "sheepshead" and not _per_seat(g.id, contract):
        # The partner: the other seat of the picking side (-1 when the picker is alone).
        others = side & ~(1 << declarer)
        out["partner"] = np.where(others == 0, -1, np.log2(np.maximum(others & -others, 1)).astype(np.int64))
    if g.id == "clover":
        from trickcore.scoring.melds import hand_melds_batch

        trump = None if contract == "notrump" else contract
        kw = {k: rules[k] for k in ("four_low_ranks",) if k in rules}
        melds = np.stack([hand_melds_batch(deals[:, s], trump, **kw) for s in range(n)], axis=1)
        on_side = (side[:, None] >> np.arange(n)[None, :]) & 1 == 1
        out["side_hand_melds"] = np.where(on_side, melds, 0).sum(axis=1)
        out["opp_hand_melds"] = np.where(on_side, 0, melds).sum(axis=1)
        out["side_trick_melds"] = np.asarray(frame["side_melds"], dtype=np.int64)
        out["opp_trick_melds"] = np.asarray(frame["opp_melds"], dtype=np.int64)
    return out


def _scored_frame(g: Game, contract: str, deals: np.ndarray, played: Mapping[str, np.ndarray],
                  rules: Mapping[str, Any], declarer: int, leader: int, policy: str, *,
                  exchanged: Any = False, kitty: np.ndarray | None = None,
                  deal_index: np.ndarray | None = None) -> pd.DataFrame:
    """The result table of one contract from its play results; scoring happens here only,
    so a scoring-rule change re-uses the same play (solve once, score many)."""
    return pd.DataFrame(_scored_columns(g, contract, deals, played, rules, declarer, leader, policy,
                                        exchanged=exchanged, kitty=kitty, deal_index=deal_index))


def _scored_columns(g: Game, contract: str, deals: np.ndarray, played: Mapping[str, np.ndarray],
                    rules: Mapping[str, Any], declarer: int, leader: int, policy: str, *,
                    exchanged: Any = False, kitty: np.ndarray | None = None,
                    deal_index: np.ndarray | None = None, contract_column: Any = None) -> dict[str, Any]:
    """The columns of :func:`_scored_frame`, in order (scalars stand for constant columns):
    a table is built once from them, as inserting columns one by one into a DataFrame costs
    more than the scoring itself.  ``contract_column`` replaces the ``contract`` string (the
    engine passes its chunk's categorical)."""
    cols = _round_columns(g, contract, deals, played, rules, declarer, leader, policy, exchanged=exchanged,
                          kitty=kitty, deal_index=deal_index, contract_column=contract_column)
    from trickcore.scoring import score

    scored = score(g.id, cols, dict(rules))
    for c in scored.columns:  # payout_{s}, made and the game's extras (stake, declarer_points, ...)
        if c not in cols:
            cols[c] = scored[c].to_numpy()
    if "side_points_lo" in played:
        # dd_payout: the scorer saw the band's bottom, which pays what every value of the
        # band pays; the counts themselves are not known
        m = len(deals)
        cols["side_points"] = np.full(m, np.nan)
        cols["side_tricks"] = np.where(played["_side_tricks_known"], cols["side_tricks"], np.nan)
        cols["last_trick_winner"] = np.full(m, np.nan)
        for count in ("declarer_points", "picking_points"):  # the scorers' totals
            if count in cols:
                cols[count] = pd.arrays.IntegerArray(np.zeros(m, dtype=np.int64), np.ones(m, dtype=bool))
    elif "_no_last_trick" in played:
        cols["last_trick_winner"] = np.full(len(deals), np.nan)
    return cols


def _round_frame(g: Game, contract: str, deals: np.ndarray, played: Mapping[str, np.ndarray],
                 rules: Mapping[str, Any], declarer: int, leader: int, policy: str, *,
                 exchanged: Any = False, kitty: np.ndarray | None = None,
                 deal_index: np.ndarray | None = None, extra: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """The table of one contract before scoring: who, the hands, the play results, the
    columns the game's scorer reads (:func:`_game_columns`), the kitty's points, and
    ``extra`` columns a caller adds (the balance report's bids).  :func:`_scored_frame`
    scores the same columns; :mod:`analysis.report.evaluation` scores it under its own
    conventions."""
    return pd.DataFrame(_round_columns(g, contract, deals, played, rules, declarer, leader, policy,
                                       exchanged=exchanged, kitty=kitty, deal_index=deal_index, extra=extra))


def _round_columns(g: Game, contract: str, deals: np.ndarray, played: Mapping[str, np.ndarray],
                   rules: Mapping[str, Any], declarer: int, leader: int, policy: str, *,
                   exchanged: Any = False, kitty: np.ndarray | None = None,
                   deal_index: np.ndarray | None = None, extra: Mapping[str, Any] | None = None,
                   contract_column: Any = None) -> dict[str, Any]:
    """The columns of :func:`_round_frame`, in order (scalars stand for constant columns)."""
    n = g.n_seats
    m = len(deals)
    kitty_cards = deals[:, n] if kitty is None else np.asarray(kitty, dtype=np.uint64)
    frame: dict[str, Any] = {}
    frame["deal"] = np.arange(m, dtype=np.int64) if deal_index is None else np.asarray(deal_index, dtype=np.int64)
    frame["contract"] = contract if contract_column is None else contract_column
    frame["declarer"] = -1 if _per_seat(g.id, contract) else declarer
    frame["leader"] = leader
    frame["policy"] = policy
    for s in range(n):
        frame[f"hand_{s}"] = deals[:, s]
    frame["kitty"] = deals[:, n]
    frame.update({k: v for k, v in played.items() if not k.startswith("_")})  # "_": notes for the caller
    frame.update(_game_columns(g, contract, deals, frame, rules, declarer))
    frame["kitty_points"] = _card_points(g.id, contract, kitty_cards, rules)
    frame["exchanged"] = np.broadcast_to(np.asarray(exchanged, dtype=bool), (m,)).copy()
    frame.update(extra or {})
    return frame


def declarer_count(frame: pd.DataFrame) -> pd.Series:
    """What the declarer's side counted toward its contract, as the scorer saw it: Goathead's
    ``declarer_points``, Sheepshead's ``picking_points``, else ``side_points``."""
    for c in ("declarer_points", "picking_points", "side_points"):
        if c in frame.columns:
            return frame[c].astype("float")
    raise ValueError("the table has no declarer count column (declarer_points, picking_points or side_points)")


@dataclass(frozen=True)
class _RunSpec:
    """Everything a worker needs to compute one chunk (picklable)."""

    game: str
    contracts: tuple[str, ...]
    rules: dict[str, Any]
    declarer: int
    leader: int
    policy: str
    chunk_size: int
    fixed: np.ndarray | None = None
    where: Constraint | None = None
    budget_factor: int = 100
    variants: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    seats: tuple[int, ...] = ()


def _deal(spec: _RunSpec, seed_seq: np.random.SeedSequence, size: int) -> np.ndarray:
    if spec.where is None:
        from trickcore.deals import deal_chunk

        # Layout options that change the table (Oh Hell's hand_size) change the deal.
        return np.asarray(deal_chunk(spec.game, seed_seq, size, fixed=spec.fixed,
                                     **_layout_rules(spec.game, spec.rules)), dtype=np.uint64)
    return _sample_deals(get_game(spec.game), size, seed_seq, spec.fixed, spec.where,
                         max(spec.budget_factor * size, 10_000), spec.rules)


def _fixed_masks(g: Game, fixed: Any, rules: Mapping[str, Any]) -> np.ndarray:
    """:func:`analysis.constraints.fixed_masks` on the table the rule options make (Oh Hell's
    ``hand_size`` changes how many cards a seat may hold)."""
    return fixed_masks(g, fixed, **_layout_rules(g.id, rules))


def _sample_deals(g: Game, size: int, seed_seq: Any, fixed: np.ndarray | None, where: Any, budget: int,
                  rules: Mapping[str, Any]) -> np.ndarray:
    """:func:`analysis.constraints.sample_deals` on the table of the layout rule options."""
    fx = None if fixed is None else np.asarray(fixed, dtype=np.uint64)
    fixed_d = None if fx is None else {s: int(m) for s, m in enumerate(fx) if m}
    return sample_deals(g.id, size, seed_seq, fixed=fixed_d, where=where, budget=budget,
                        **_layout_rules(g.id, rules))


def _seat_rows(game: str, contract: str, policy: str) -> bool:
    """Whether ``contract`` is analysed per seat (:mod:`analysis.paranoid`) under ``policy``."""
    from .paranoid import seat_kind

    if policy not in ("dd", "paranoid") or seat_kind(game, contract) is None:
        return False
    return policy == "paranoid" or contract not in NO_DECLARER_CONTRACTS


def _chunk_parts(spec: _RunSpec, index: int, seed_seq: np.random.SeedSequence,
                 size: int) -> list[pd.DataFrame | dict[str, Any]]:
    """One chunk's deals played and scored, per contract: the columns of its table (a
    contract with a declarer, :func:`_scored_columns`, its ``contract`` the chunk's
    categorical) or the per-seat tables (:mod:`analysis.paranoid`)."""
    deal_ss, play_ss = seed_seq.spawn(2)
    deals = _deal(spec, deal_ss, size)
    first = index * spec.chunk_size
    deal_index = np.arange(first, first + size, dtype=np.int64)
    g = get_game(spec.game)
    kinds = _contract_dtype(spec)
    parts: list[pd.DataFrame | dict[str, Any]] = []
    for i, c in enumerate(spec.contracts):
        if _seat_rows(spec.game, c, spec.policy):
            from .paranoid import seat_frame

            parts.extend(seat_frame(spec.game, c, deals, seat=s, leader=spec.leader, rules=spec.rules,
                                    deal_index=deal_index) for s in (spec.seats or (spec.declarer,)))
            continue
        # evaluate(), the contract column already the chunk's categorical
        _check_evaluate(g, c, deals, spec.declarer, spec.policy)
        seed = np.random.default_rng(play_ss.spawn(1)[0]) if spec.policy == "random" else None
        played = _play(g.id, c, deals, spec.rules, spec.declarer, spec.leader, spec.policy, seed)
        parts.append(_scored_columns(g, c, deals, played, spec.rules, spec.declarer, spec.leader, spec.policy,
                                     deal_index=deal_index,
                                     contract_column=pd.Categorical.from_codes(np.full(size, i, dtype=np.int8),
                                                                               dtype=kinds, validate=False)))
    return parts


def _contract_dtype(spec: _RunSpec) -> pd.CategoricalDtype:
    """The ``contract`` column of a run's tables: a categorical of its contracts, in order."""
    return _categories(spec.contracts)


@functools.lru_cache(maxsize=256)
def _categories(contracts: tuple[str, ...]) -> pd.CategoricalDtype:
    return pd.CategoricalDtype(list(contracts))


def _chunk_frame(spec: _RunSpec, parts: list[pd.DataFrame | dict[str, Any]],
                 columns: Sequence[str] | None = None) -> pd.DataFrame:
    """One chunk's table from :func:`_chunk_parts`; with ``columns``, only those of them
    (the same columns, of the same dtypes, as the whole table's: a concatenation settles
    each column's dtype from that column alone)."""
    if columns is not None:
        parts = [p[[k for k in columns if k in p.columns]] if isinstance(p, pd.DataFrame)
                 else pd.DataFrame({k: p[k] for k in columns if k in p}, index=pd.RangeIndex(len(p["deal"])))
                 for p in parts]
    out = pd.concat([p if isinstance(p, pd.DataFrame) else pd.DataFrame(p) for p in parts], ignore_index=True)
    kinds = _contract_dtype(spec)
    if "contract" in out and out["contract"].dtype != kinds:  # per-seat tables name their contract
        out["contract"] = pd.Categorical(out["contract"], dtype=kinds)
    if "policy" in out:
        out["policy"] = out["policy"].astype(str)
    return out


def _simulate_chunk(spec: _RunSpec, index: int, seed_seq: np.random.SeedSequence, size: int) -> pd.DataFrame:
    return _chunk_frame(spec, _chunk_parts(spec, index, seed_seq, size))


def _check_seats(g: Game, seats: Any, declarer: int) -> tuple[int, ...]:
    if seats is None:
        return (int(declarer),)
    if isinstance(seats, str):
        if seats != "all":
            raise ValueError(f"seats must be a list of seats or 'all'; got {seats!r}")
        return tuple(range(g.n_seats))
    if isinstance(seats, (int, np.integer)):
        seats = [seats]
    out = tuple(int(s) for s in seats)
    if not out or any(not 0 <= s < g.n_seats for s in out) or len(set(out)) != len(out):
        raise ValueError(f"seats must be distinct seats 0..{g.n_seats - 1}; got {seats!r}")
    return out


def _prepare(game: Any, contracts: Any, rules: Any, declarer: int, leader: int | None, policy: str,
             chunk_size: int, fixed: Any, where: Any, seats: Any = None) -> tuple[Game, _RunSpec]:
    g = get_game(game)
    contracts = _check_contracts(g, contracts)
    from trickcore.games.base import rule_dict

    from .odds import _check_seat

    rules = rule_dict(rules)
    from trickcore.scoring._frame import resolve_rules

    resolve_rules(g.id, rules)  # unknown option names / values -> ValueError listing valid ones
    declarer = _check_seat("declarer", declarer, g.n_seats)
    leader = 0 if leader is None else _check_seat("leader", leader, g.n_seats)
    chunk_size = engine.whole("chunk_size", chunk_size)
    fx = _fixed_masks(g, fixed, rules)
    cond = None if where is None else as_constraint(where)
    if cond is not None:
        cond.check_seats(g.n_seats)
    _check_policy(g, policy)
    if policy == "paranoid":
        from .paranoid import seat_kind

        bad = [c for c in contracts if seat_kind(g, c) is None]
        if bad:
            raise ValueError(f"policy 'paranoid' is for contracts without a declaring side; {bad} have one (use 'dd')")
    spec = _RunSpec(g.id, contracts, rules, int(declarer), leader, policy, int(chunk_size),
                    fx if fx.any() else None, cond, seats=_check_seats(g, seats, int(declarer)))
    return g, spec


def _check_policy(g: Game, policy: str) -> None:
    """``ValueError`` for an unknown policy, or ``dd_payout`` where the scorer has no cuts."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; valid policies: {', '.join(POLICIES)}")
    if policy == "dd_payout":
        from trickcore.scoring import PAYOUT_CUTS

        if g.id not in PAYOUT_CUTS:
            raise ValueError(f"policy 'dd_payout' needs a scorer that gives its payout cuts "
                             f"({', '.join(PAYOUT_CUTS)}); use 'dd' for {g.id}")


def _store_for(store: Any, spec: _RunSpec, seed: Any, kind: str) -> ChunkStore | None:
    if store is None:
        return None
    if isinstance(store, ChunkStore):
        return store
    import trickcore

    meta = {
        "kind": kind,
        "game": spec.game,
        "contracts": list(spec.contracts),
        "rules": spec.rules,
        "seed": None if seed is None else (int(seed) if np.isscalar(seed) else str(seed)),
        "chunk_size": spec.chunk_size,
        "declarer": spec.declarer,
        "leader": spec.leader,
        "policy": spec.policy,
        "seats": list(spec.seats),
        "fixed": None if spec.fixed is None else [int(x) for x in spec.fixed],
        "where": None if spec.where is None else repr(spec.where),
        "version": trickcore.__version__,
    }
    return ChunkStore(store, meta)


def simulate(
    game: str | Game,
    n_deals: int,
    seed: int | None = 0,
    contracts: Sequence[str] | str | None = None,
    rules: Mapping[str, Any] | None = None,
    *,
    n_jobs: int = -1,
    backend: Any = "loky",
    store: Any = None,
    chunk_size: int = engine.DEFAULT_CHUNK_SIZE,
    declarer: int = 0,
    leader: int | None = None,
    policy: str = "dd",
    fixed: Mapping[int, Any] | None = None,
    where: Any = None,
    progress: bool | None = None,
    on_chunk: Any = None,
    return_frame: bool = True,
    seats: Sequence[int] | str | None = None,
) -> pd.DataFrame | None:
    """Deal ``n_deals`` random deals, play every contract on each, score: a tidy table.

    Parameters
    ----------
    game:
        Game id (``"goathead3"``) or :class:`~trickcore.games.Game`.
    n_deals, seed:
        How many deals, and the seed that fixes them (with ``chunk_size``).
    contracts:
        Contracts to evaluate on every deal; ``None``: every biddable contract
        (:func:`bid_contracts`).
    rules:
        Rule options (defaults: the rulings); unknown names or values raise ``ValueError``.
    n_jobs, backend:
        Parallelism (see :func:`analysis.engine.run_chunks`): joblib workers (``-1`` all
        cores) and ``"loky"``, ``"dask"``, a scheduler address or a ``distributed.Client``.
    store:
        A directory: every chunk is appended to a Parquet dataset there (with the run's
        metadata) and a killed run resumes without recomputing finished chunks.
    chunk_size:
        Deals per chunk (the unit of work, of seeding and of resumption).
    declarer, leader:
        Seats (module docstring: seat 0, left of the dealer, by default).
    policy:
        ``"dd"`` double dummy; ``"dd_payout"`` double dummy solved only as far as the
        payouts need (module docstring: same payouts, value bands); or the playout
        policies ``"greedy"``, ``"random"``.
    fixed, where:
        Fixed cards ``{seat: cards}`` and predicates on the deals
        (:mod:`analysis.constraints`) — conditional simulations.
    return_frame:
        ``False`` with a ``store``: write the dataset and return ``None`` (memory stays
        flat; read it back with :func:`analysis.store.read_store`).
    seats:
        Contracts analysed per seat (no declaring side, bid games): the seats analysed,
        a list or ``"all"`` (default: ``[declarer]``); each costs its own solves.

    Returns
    -------
    pandas.DataFrame
        One row per deal and contract: ``deal``, ``contract``, ``declarer``, ``leader``,
        ``policy``, ``hand_{s}`` and ``kitty`` (universal bit-boards; :func:`hands_text`
        for text), ``side_mask``, ``side_points``, ``side_tricks``, ``last_trick_winner``,
        ``side_melds``, ``opp_melds``, ``nodes`` (double dummy), ``kitty_points``,
        ``exchanged``, ``payout_{s}``, ``made``, ``stake``, ``declarer_points``.
        ``policy="dd_payout"`` adds ``side_points_lo`` / ``side_points_hi`` (module
        docstring).  Per-seat rows (module docstring) add ``seat``, ``bid`` (−1: no bid), ``value`` and,
        for bid games, ``max_tricks`` / ``min_tricks``; payouts the analysis does not
        determine are ``NaN``.  Full 13-card deals cost seconds to minutes each
        (:mod:`analysis.bids`): keep ``n_deals`` small there.

    Examples
    --------
    >>> a = simulate("goathead3", 12, seed=3, contracts="clubs", n_jobs=1, chunk_size=5)
    >>> b = simulate("goathead3", 12, seed=3, contracts="clubs", n_jobs=2, chunk_size=5)
    >>> a.equals(b), a["deal"].tolist() == list(range(12))
    (True, True)
    >>> simulate("goathead3", 5, contracts="bridge")
    Traceback (most recent call last):
      ...
    ValueError: unknown contract 'bridge' for goathead3; valid contracts: ...
    """
    g, spec = _prepare(game, contracts, rules, declarer, leader, policy, chunk_size, fixed, where, seats)
    engine.check_seed(seed)   # before a store is created for the run
    st = _store_for(store, spec, seed, "simulate")
    if not return_frame and st is None:
        raise ValueError("return_frame=False needs a store to write to")
    task = functools.partial(_simulate_chunk, spec)
    reduce = None if return_frame else (lambda state, frame: None)
    return engine.run_chunks(task, n_deals, seed=seed, chunk_size=chunk_size, n_jobs=n_jobs, backend=backend,
                             store=st, reduce=reduce, on_chunk=on_chunk, progress=progress, desc=f"{g.id} deals")


# -- streaming summary -----------------------------------------------------------------

def _summary_sums(frame: pd.DataFrame, by: list[str], n_seats: int) -> pd.DataFrame:
    """Per-group sufficient statistics of one chunk (counts, sums, sums of squares)."""
    missing = [k for k in by if k not in frame.columns]
    if missing:
        raise ValueError(f"by names {', '.join(map(repr, missing))}, not a column of the simulated table "
                         "(see simulate's Returns)")
    f: dict[str, Any] = {k: frame[k] for k in by}
    f["n"] = 1
    f["made_k"] = 0.0
    if "made" in frame:
        made = frame["made"]
        if made.dtype == object:  # True, False and <NA> (rows without a declarer: not made)
            made = made.astype("boolean")
        f["made_k"] = made.astype("float").fillna(0.0).to_numpy()
    decl = frame["declarer"].to_numpy(dtype=np.int64)
    if "seat" in frame:  # per-seat rows: the analysed seat stands in for the declarer
        decl = np.where(decl >= 0, decl, frame["seat"].fillna(-1).to_numpy(dtype=np.int64))
    payouts = np.stack([frame[f"payout_{s}"].to_numpy(dtype=float) for s in range(n_seats)], axis=1)
    dpay = np.where(decl >= 0, payouts[np.arange(len(decl)), np.clip(decl, 0, None)], np.nan)
    cols = {"declarer_payout": dpay, "side_points": frame["side_points"].to_numpy(dtype=float)}
    for s in range(n_seats):
        cols[f"payout_{s}"] = payouts[:, s]
    cols["value"] = frame["value"].to_numpy(dtype=float) if "value" in frame else np.full(len(decl), np.nan)
    for name, v in cols.items():
        ok = ~np.isnan(v)
        v = np.nan_to_num(v)
        f[f"{name}__k"] = ok.astype(float)  # rows where the figure is defined
        f[f"{name}__s1"] = v
        f[f"{name}__s2"] = v * v
    # one DataFrame built from its columns (inserting them one by one costs more than the sums)
    return pd.DataFrame(f).groupby(by, observed=True, sort=False).sum()


def _add_sums(state: pd.DataFrame | None, part: pd.DataFrame) -> pd.DataFrame:
    return part if state is None else state.add(part, fill_value=0)


def _finish_summary(sums: pd.DataFrame, n_seats: int, level: float, exact: bool = False) -> pd.DataFrame:
    rows = []
    for key, r in sums.iterrows():
        n = int(r["n"])
        row: dict[str, Any] = dict(zip(sums.index.names, key if isinstance(key, tuple) else (key,)))
        row["n"] = n
        lo, hi = wilson_interval(r["made_k"], n, level, exact=exact)
        row["p_make"], row["p_make_lo"], row["p_make_hi"] = r["made_k"] / n, float(lo), float(hi)
        for name in ("declarer_payout", *(f"payout_{s}" for s in range(n_seats)), "side_points", "value"):
            k = int(r[f"{name}__k"]) if f"{name}__k" in r.index else n
            if name == "value" and k == 0:
                continue  # declarer contracts: no per-seat value
            if k == 0:
                m = lo = hi = np.nan
            else:
                m, lo, hi = Moments(k, r[f"{name}__s1"], r[f"{name}__s2"]).interval(level, exact=exact)
            row[f"{name}"], row[f"{name}_lo"], row[f"{name}_hi"] = m, lo, hi
        rows.append(row)
    return pd.DataFrame(rows)


def simulate_summary(
    game: str | Game,
    n_deals: int,
    seed: int | None = 0,
    contracts: Sequence[str] | str | None = None,
    rules: Mapping[str, Any] | None = None,
    *,
    by: Sequence[str] | None = None,
    level: float = 0.95,
    n_jobs: int = -1,
    backend: Any = "loky",
    store: Any = None,
    chunk_size: int = engine.DEFAULT_CHUNK_SIZE,
    declarer: int = 0,
    leader: int | None = None,
    policy: str = "dd",
    fixed: Mapping[int, Any] | None = None,
    where: Any = None,
    progress: bool | None = None,
    on_chunk: Any = None,
    seats: Sequence[int] | str | None = None,
) -> pd.DataFrame:
    """Like :func:`simulate` but keeps only running sums: one row per contract.

    ``by`` (default ``contract``; plus ``bid`` when a contract is analysed per seat, plus
    ``seat`` when several seats are) groups the rows.  Per-seat rows add ``value`` (the
    seat's double-dummy value, :mod:`analysis.paranoid`) and ``declarer_payout`` is the
    analysed seat's payout there; a payout the analysis leaves undefined (``NaN``) is
    averaged over the rows that have it (``NaN`` when none has).

    Memory does not grow with ``n_deals`` (each chunk is reduced to a few sums, then
    dropped; with ``store`` the detail goes to disk), so 10 million deals run in well under
    1 GB.  Columns: ``n``, ``p_make`` with its Wilson interval ``p_make_lo``/``p_make_hi``,
    ``declarer_payout`` and every ``payout_{s}`` with t intervals, ``side_points``.

    >>> s = simulate_summary("goathead3", 30, seed=2, contracts=["hearts", "court"], n_jobs=1)
    >>> s["n"].tolist(), bool((s.p_make_lo <= s.p_make).all() and (s.p_make <= s.p_make_hi).all())
    ([30, 30], True)
    """
    g, spec = _prepare(game, contracts, rules, declarer, leader, policy, chunk_size, fixed, where, seats)
    engine.check_seed(seed)   # before a store is created for the run
    from .stats import z_value

    z_value(level)   # a bad confidence level fails now, not after the run
    if isinstance(by, str):
        by = [by]
    st = _store_for(store, spec, seed, "simulate")
    if by is None:
        by = ["contract"]
        if any(_seat_rows(g.id, c, spec.policy) for c in spec.contracts):
            by.append("bid")
            if len(spec.seats) > 1:
                by.append("seat")
    by = list(by)
    if st is None:
        # Nothing to store: each worker reduces its chunk to a few sums, so only those
        # cross the process boundary.
        task = functools.partial(_summary_chunk, spec, by, g.n_seats)
        reduce = functools.partial(_reduce_sums, by)
    else:
        task = functools.partial(_simulate_chunk, spec)
        reduce = functools.partial(_reduce_summary, by, g.n_seats)
    sums = engine.run_chunks(task, n_deals, seed=seed, chunk_size=chunk_size, n_jobs=n_jobs, backend=backend,
                             store=st, reduce=reduce, on_chunk=on_chunk, progress=progress, desc=f"{g.id} deals")
    if sums is None:
        return pd.DataFrame()
    return _finish_summary(sums, g.n_seats, level)


def _summary_chunk(spec: _RunSpec, by: list[str], n_seats: int, index: int, seed_seq: np.random.SeedSequence,
                   size: int) -> pd.DataFrame:
    # the sums read a few columns: the chunk's table is built of those alone
    table = _chunk_frame(spec, _chunk_parts(spec, index, seed_seq, size), _summary_columns(by, n_seats))
    return _summary_sums(table, by, n_seats).reset_index()


def _summary_columns(by: list[str], n_seats: int) -> list[str]:
    """The columns of a chunk's table :func:`_summary_sums` reads."""
    return list(dict.fromkeys([*by, "made", "declarer", "seat", "side_points", "value",
                               *(f"payout_{s}" for s in range(n_seats))]))


def _reduce_sums(by: list[str], state: pd.DataFrame | None, part: pd.DataFrame) -> pd.DataFrame:
    return _add_sums(state, part.set_index(by))


def _reduce_summary(by: list[str], n_seats: int, state: pd.DataFrame | None, frame: pd.DataFrame) -> pd.DataFrame:
    return _add_sums(state, _summary_sums(frame, by, n_seats))


# -- paired comparisons ------------------------------------------------------------------

_VARIANT_KEYS = ("contract", "rules", "policy", "declarer", "bid", "bags", "bids_before")


def _variant(base: _RunSpec, v: Mapping[str, Any] | str) -> dict[str, Any]:
    from trickcore.games.base import rule_dict

    if isinstance(v, str):
        v = {"contract": v}
    if not isinstance(v, Mapping):
        raise ValueError(f"a variant is a contract name or a mapping of {', '.join(_VARIANT_KEYS)}; got {v!r}")
    v = dict(v)
    unknown = set(v) - set(_VARIANT_KEYS)
    if unknown:
        raise ValueError(f"a variant may set {', '.join(_VARIANT_KEYS)}; got {sorted(unknown)}")
    for key in ("declarer", "bid"):
        if key in v and (v[key] is not None or key == "declarer") \
                and not (isinstance(v[key], (int, np.integer)) and not isinstance(v[key], bool)):
            raise ValueError(f"a variant's {key} must be a whole number; got {v[key]!r}")
    return {
        "contract": v.get("contract", base.contracts[0]),
        "rules": {**base.rules, **rule_dict(v.get("rules"))},
        "policy": v.get("policy", base.policy),
        "declarer": int(v.get("declarer", base.declarer)),
        "bid": None if v.get("bid") is None else int(v["bid"]),
        "bags": v.get("bags"),
        "bids_before": v.get("bids_before"),
    }


def _check_seat_variant(g: Game, v: dict[str, Any], leader: int) -> None:
    """A per-seat variant (no declaring side / a bid game): the bid and the bid-game inputs."""
    from .bids import bids_of, check_bags, forbidden_bid
    from .paranoid import seat_kind

    kind = seat_kind(g, v["contract"])
    if kind in ("team_bid", "exact_bid"):
        valid = bids_of(g, v["contract"], v["rules"])
        if v["bid"] is None:
            raise ValueError(f"a {g.id}/{v['contract']} variant needs a bid: one of {list(valid)}")
        if v["bid"] not in valid:
            raise ValueError(f"bid {v['bid']} not possible in {g.id}/{v['contract']}; valid bids: {list(valid)}")
        if forbidden_bid(g, v["rules"], v["declarer"], leader, v["bids_before"]) == v["bid"]:
            raise ValueError(f"bid {v['bid']} is forbidden to the dealer by no_equal_total after earlier bids "
                             f"totalling {v['bids_before']}")
    elif v["bid"] is not None:
        raise ValueError(f"{g.id}/{v['contract']} has no bids; do not give a bid")
    elif v["bids_before"] is not None:
        forbidden_bid(g, v["rules"], v["declarer"], leader, v["bids_before"])  # says why it means nothing
    v["bags"] = check_bags(g, v["rules"], 0 if v["bags"] is None else v["bags"])  # as contract_odds


def _seat_variant_frame(g: Game, v: dict[str, Any], deals: np.ndarray, leader: int,
                        solves: dict[tuple, Any], nil: bool) -> pd.DataFrame:
    """One row per deal: the variant's bid (or the contract's per-seat row) for its seat.
    Solves are shared between variants that differ only in scoring (``solves`` cache)."""
    from .paranoid import seat_frame, seat_kind

    seat = v["declarer"]
    lrules = tuple(sorted(_layout_rules(g.id, v["rules"]).items()))
    if seat_kind(g, v["contract"]) in ("team_bid", "exact_bid"):
        from .bids import bid_rows, bid_solve

        key = ("bid", v["contract"], lrules, seat)
        if key not in solves:
            solves[key] = bid_solve(g, v["contract"], deals, seat=seat, leader=leader, rules=v["rules"], nil=nil)
        return bid_rows(g, v["contract"], deals, solves[key], seat=seat, leader=leader, rules=v["rules"],
                        bids=[v["bid"]], bags=v["bags"])
    key = ("seat", v["contract"], tuple(sorted(v["rules"].items())), seat)
    if key not in solves:
        solves[key] = seat_frame(g, v["contract"], deals, seat=seat, leader=leader, rules=v["rules"])
    return solves[key]


def _compare_chunk(spec: _RunSpec, index: int, seed_seq: np.random.SeedSequence, size: int) -> pd.DataFrame:
    deal_ss, play_ss = seed_seq.spawn(2)
    deals = _deal(spec, deal_ss, size)
    g = get_game(spec.game)
    cols = {}
    plays: dict[tuple, Any] = {}
    nil = any(v["bid"] == 0 for v in spec.variants)
    for tag, v in zip("ab", spec.variants):
        if _seat_rows(spec.game, v["contract"], v["policy"]):
            f = _seat_variant_frame(g, v, deals, spec.leader, plays, nil)
            cols[f"made_{tag}"] = f["made"].astype("float").to_numpy()
            cols[f"declarer_payout_{tag}"] = f[f"payout_{v['declarer']}"].to_numpy(dtype=float)
            cols[f"value_{tag}"] = f["value"].to_numpy(dtype=float)
            continue
        # Only the options the game registry knows can change the play; the scorer's own
        # options re-score the same play.
        key = (v["contract"], tuple(sorted(_layout_rules(spec.game, v["rules"]).items())), v["policy"], v["declarer"])
        if key not in plays:
            rng = np.random.default_rng(play_ss.spawn(1)[0]) if v["policy"] == "random" else None
            plays[key] = _play(spec.game, v["contract"], deals, v["rules"], v["declarer"], spec.leader, v["policy"], rng)
        f = _scored_frame(g, v["contract"], deals, plays[key], v["rules"], v["declarer"], spec.leader, v["policy"])
        d = v["declarer"]
        cols[f"made_{tag}"] = f["made"].astype("float").fillna(0.0).to_numpy()
        cols[f"declarer_payout_{tag}"] = f[f"payout_{d}"].to_numpy(dtype=float)
        if v["policy"] != "dd_payout":  # it knows the count's band, not the count
            cols[f"declarer_points_{tag}"] = declarer_count(f).to_numpy()
    if ("declarer_points_a" in cols) != ("declarer_points_b" in cols):
        cols.pop("declarer_points_a", None)
        cols.pop("declarer_points_b", None)
    first = index * spec.chunk_size
    out = pd.DataFrame({"deal": np.arange(first, first + size, dtype=np.int64), **cols})
    return out


def _metrics(frame: pd.DataFrame) -> list[str]:
    return [c[:-2] for c in frame.columns if c.endswith("_a")]


def _reduce_compare(state: dict[str, Moments] | None, frame: pd.DataFrame) -> dict[str, Moments]:
    state = dict(state or {})
    state.setdefault("__metrics__", _metrics(frame))
    for metric in _metrics(frame):
        a, b = frame[f"{metric}_a"].to_numpy(), frame[f"{metric}_b"].to_numpy()
        if metric == "declarer_payout":
            # Per-seat payouts the analysis leaves undefined (NaN, leasters) are left out,
            # pairwise, so both means stay on the same deals.
            ok = ~(np.isnan(a) | np.isnan(b))
            a, b = a[ok], b[ok]
        for k, x in ((f"{metric}|a", a), (f"{metric}|b", b), (f"{metric}|diff", a - b)):
            state[k] = state.get(k, Moments()) + Moments.of(x)
    return state


def compare(
    game: str | Game,
    n_deals: int,
    a: Mapping[str, Any] | str,
    b: Mapping[str, Any] | str,
    *,
    seed: int | None = 0,
    rules: Mapping[str, Any] | None = None,
    level: float = 0.95,
    n_jobs: int = -1,
    backend: Any = "loky",
    chunk_size: int = engine.DEFAULT_CHUNK_SIZE,
    declarer: int = 0,
    leader: int | None = None,
    policy: str = "dd",
    fixed: Mapping[int, Any] | None = None,
    where: Any = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Paired comparison of two variants on the SAME deals, with the interval of the difference.

    A variant is a contract name or a mapping with any of ``contract``, ``rules`` (rule
    options layered on ``rules``), ``policy`` (``"dd"``, ``"greedy"``, ``"random"``) and
    ``declarer``.  So ``a="hearts", b="clubs"`` compares two contracts;
    ``a={"rules": {"no_exchange_bonus": "won_only"}}, b={}`` two rule options;
    ``a={"policy": "greedy"}, b={"policy": "dd"}`` two ways of playing.  A variant that
    only changes scoring options is scored on the same solve (solve once, score many).

    Bid games and games without a declaring side (Spades, Gamut Spades, Oh Hell; Hearts,
    Gamut Hearts / Clubs; leasters with ``policy="paranoid"``) are compared for one seat —
    the variant's ``declarer`` — with the per-seat double-dummy figures of
    :mod:`analysis.bids` / :mod:`analysis.paranoid`.  A bid game's variant names its
    ``bid`` (Spades: 0 = nil, else the team's bid), so ``a={"bid": 4}, b={"bid": 5}``
    compares two bids, ``a={"bid": 4, "rules": {"sandbags": False}}, b={"bid": 4}`` two rule
    options, ``a={"contract": "notrump", "bid": 2}, b={"contract": "hearts", "bid": 2}`` two
    Oh Hell trumps.  Spades variants may give ``bags``, the seat's team's bag count before the
    hand (default 0, as :func:`analysis.odds.contract_odds`): the roll-over is scored
    (:func:`analysis.bids.bid_frame`; with 0, ten overtricks in one hand cost 110); an Oh Hell dealer
    under ``no_equal_total`` gives ``bids_before`` (:func:`analysis.bids.forbidden_bid`; a
    forbidden bid is a ``ValueError``).  Variants that differ only in scoring options share
    the solves.  The two variants must be of one kind (both per seat, or both with a declarer).

    Returns one row per metric (``made``, ``declarer_payout``, ``declarer_points``; per seat
    ``made``, ``declarer_payout`` — the seat's payout, deals where it is undefined left out —
    and ``value``, the seat's double-dummy value) with the means under ``a`` and ``b``,
    ``diff = a - b`` and its t interval ``diff_lo``/``diff_hi`` (paired, so the deal-to-deal
    noise shared by both variants cancels).

    >>> c = compare("goathead3", 40, "clubs", "court", seed=4, n_jobs=1)
    >>> c.metric.tolist()
    ['made', 'declarer_payout', 'declarer_points']
    >>> bool((c.diff_lo <= c["diff"]).all() and (c["diff"] <= c.diff_hi).all())
    True

    Two Oh Hell bids of seat 1 on the same 3-card deals:

    >>> c = compare("ohhell", 20, {"bid": 1}, {"bid": 0}, rules={"hand_size": 3}, declarer=1, seed=2,
    ...             n_jobs=1)
    >>> c.metric.tolist(), c.attrs["per_seat"]
    (['made', 'declarer_payout', 'value'], True)
    """
    g, spec = _prepare(game, None, rules, declarer, leader, policy, chunk_size, fixed, where)
    va, vb = _variant(spec, a), _variant(spec, b)
    kinds = []
    for v in (va, vb):
        v["contract"] = g.check_contract(v["contract"])
        _check_policy(g, v["policy"])
        if not 0 <= v["declarer"] < g.n_seats:
            raise ValueError(f"declarer must be a seat 0..{g.n_seats - 1}; got {v['declarer']!r}")
        from trickcore.scoring._frame import resolve_rules

        resolve_rules(g.id, v["rules"])
        per_seat = _seat_rows(g.id, v["contract"], v["policy"])
        if per_seat:
            _check_seat_variant(g, v, spec.leader)
        elif _per_seat(g.id, v["contract"]):
            raise ValueError(f"{g.id}/{v['contract']} has no declaring side: compare it per seat with policy "
                             "'dd' (bid games, Hearts, Gamut) or 'paranoid' (leasters); play-outs of such "
                             "games need bids from trickcore.rounds")
        elif any(v[k] is not None for k in ("bid", "bags", "bids_before")):
            raise ValueError(f"{g.id}/{v['contract']} has a declarer: bid, bags and bids_before are for bid games")
        kinds.append(per_seat)
    if kinds[0] != kinds[1]:
        raise ValueError("compare pairs like with like: one variant is analysed per seat (no declaring side), "
                         "the other has a declarer")
    from trickcore.deals import table_of

    dealt = table_of(g, **_layout_rules(g.id, spec.rules))
    for v in (va, vb):
        if table_of(g, **_layout_rules(g.id, v["rules"])) != dealt:
            raise ValueError("both variants are played on the same deals, so a variant may not change the table "
                             "(Oh Hell's hand_size): give it in rules= for both")
    spec = _RunSpec(**{**spec.__dict__, "variants": (va, vb)})
    task = functools.partial(_compare_chunk, spec)
    sums = engine.run_chunks(task, n_deals, seed=seed, chunk_size=chunk_size, n_jobs=n_jobs, backend=backend,
                             reduce=_reduce_compare, progress=progress, desc=f"{g.id} paired deals")
    rows = []
    for metric in sums["__metrics__"]:
        ma, mb, md = sums[f"{metric}|a"], sums[f"{metric}|b"], sums[f"{metric}|diff"]
        d, lo, hi = md.interval(level)
        rows.append({"metric": metric, "n": md.n, "a": ma.mean, "b": mb.mean, "diff": d, "diff_lo": lo, "diff_hi": hi})
    out = pd.DataFrame(rows)
    out.attrs.update({"a": va, "b": vb, "game": g.id, "seed": seed, "per_seat": kinds[0]})
    return out
