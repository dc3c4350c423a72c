"""Double dummy for contracts without a declaring side: one seat against all the others.

Hearts, Gamut Hearts and Clubs, Oh Hell and the leasters of Goathead and Sheepshead have no
declaring side.  ``RULINGS.md`` ("Double dummy for games without a declaring side") settles
their double-dummy value for a player: the *paranoid* value, that player alone against the
coalition of all the others (Sturtevant's reduction), so the two-sided solver
:func:`trickcore.solver.solve_many` serves every game (``sides`` = the seat alone, ``goal``
per contract).  The trick-bid games (Spades, Gamut Spades, Oh Hell) build on the same
solves in :mod:`analysis.bids`.

The hands are played as dealt: no Hearts or Gamut passing, no kitty exchange, no folding.

What the numbers mean here (one row per deal for the analysed ``seat``):

``value``
    Hearts, Gamut Hearts: the fewest penalty points (hearts 1, Q♠ 13 / 8, J♦ −10 with the
    Hearts option) the seat can hold itself to when every other player tries to load points
    on it (``goal='min'``): a **pessimistic** figure (real opponents also protect themselves).
    Leasters: the fewest card points the seat can hold itself to in tricks, plus the kitty
    (blind) when the seat wins the last trick along the optimal line found — that line
    minimises trick points only; the kitty is not in the solver's view.
    Gamut Clubs: the most tricks the seat can take against the other three
    (``goal='max'``), pessimistic likewise.
``made``
    Points games: the seat can keep clean (``value == 0``: no penalty / card point).
    Gamut Clubs: the seat takes at least one trick (so avoids the −6).
``payout_{seat}``
    What the scorer (:func:`trickcore.scoring.score`) gives the seat when it scores
    ``value``, from a row built around it (the other seats share the rest; their payout
    columns are ``NaN`` because the paranoid play says nothing about them):

    * Hearts: the penalty points (higher is worse); ``value`` 26 (all hearts and Q♠ forced
      on the seat) is scored as the seat shooting the moon (0).  Nobody else's moon is ever
      counted: one seat's value cannot tell whether another player could shoot it.  With
      ``jack_of_diamonds`` a negative value is read as J♦ taken.
    * Gamut Hearts: −hearts − 8 for Q♠; ``value`` 16 is the seat's moon (+12).
    * Gamut Clubs: 2 per trick, −6 with none, playing (not folding; folding scores 0, so
      the hand should fold when the expected payout is below 0).
    * Leasters: ``NaN`` — who pays depends on every player's points, which one seat's
      paranoid value does not give.

Cost: a seat's paranoid solve of a full 52-card Hearts deal takes seconds or more (see
:mod:`analysis.bids` for the measured figures); 32-card Gamut deals and 20/24-card leasters
take milliseconds.

Examples
--------
>>> import numpy as np
>>> from trickcore.deals import random_deals
>>> deals = random_deals("gamut", 4, seed=3)
>>> f = seat_frame("gamut", "clubs", deals, seat=1)
>>> f[["seat", "bid", "declarer"]].drop_duplicates().values.tolist()
[[1, -1, -1]]
>>> bool(((f.value >= 0) & (f.value <= 8)).all()), bool((f.made == (f.value >= 1)).all())
(True, True)
>>> bool((f.payout_1 == np.where(f.value == 0, -6, 2 * f.value)).all()), bool(f.payout_0.isna().all())
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from trickcore.games import Game, get_game

__all__ = ["seat_kind", "seat_frame", "seat_solve", "SEAT_KINDS", "UNSUPPORTED"]

#: How each kind of contract without a declarer is analysed for one seat.
SEAT_KINDS = {
    "points": "paranoid fewest points (Hearts, Gamut Hearts, leasters)",
    "tricks": "paranoid most tricks (Gamut Clubs)",
    "team_bid": "team trick bids, partners across (Spades, Gamut Spades)",
    "exact_bid": "individual exact bids (Oh Hell)",
}

#: Contracts that are not analysed per seat (Gamut Clubs with folded players: the folded
#: hands join the kitty and the seats are renumbered, so a table of four deals does not fit).
UNSUPPORTED = {("gamut", "clubs_3"), ("gamut", "clubs_2"), ("gamut", "clubs_1")}

_LEASTERS = frozenset({"leasters", "leaster"})


def seat_kind(game: str | Game, contract: str) -> str | None:
    """The kind of per-seat double-dummy analysis of ``contract`` (``None``: it has a declarer).

    >>> seat_kind("hearts", "hearts"), seat_kind("spades", "spades"), seat_kind("ohhell", "notrump")
    ('points', 'team_bid', 'exact_bid')
    >>> seat_kind("gamut", "clubs"), seat_kind("goathead3", "leasters"), seat_kind("goathead3", "clubs")
    ('tricks', 'points', None)
    """
    gid = get_game(game).id
    if contract in _LEASTERS or gid == "hearts" or (gid == "gamut" and contract == "hearts"):
        return "points"
    if gid == "spades" or (gid == "gamut" and contract == "spades"):
        return "team_bid"
    if gid == "ohhell":
        return "exact_bid"
    if gid == "gamut" and contract == "clubs":
        return "tricks"
    if (gid, contract) in UNSUPPORTED:
        raise ValueError(f"gamut {contract!r} (players folded) is not analysed per seat; analyse 'clubs' "
                         "(every player plays) and fold when its expected payout is below 0")
    return None


def _layout_rules(g: Game, rules: Mapping[str, Any] | None) -> dict[str, Any]:
    return {k: v for k, v in dict(rules or {}).items() if k in g.options}


def seat_solve(game: str | Game, contract: str, deals: np.ndarray, *, seat: int, goal: str | None,
               sides: Any = None, leader: int = 0, rules: Mapping[str, Any] | None = None,
               line: bool = True, objective: str | None = None):
    """:func:`trickcore.solver.solve_many` of ``deals`` for ``seat``'s side (default: the
    seat alone, the paranoid reduction) with the given ``goal`` (and ``objective``, e.g.
    ``'nil'``: can the seat take no trick).  ``line=False`` when only ``value`` is read:
    the optimal line's columns are then -1, and its search is saved (a fifth of the
    nodes of a 10-card Oh Hell minimum).

    >>> from trickcore.deals import random_deals
    >>> d = random_deals("gamut", 2, seed=1)
    >>> hi = seat_solve("gamut", "clubs", d, seat=0, goal="max").value
    >>> team = seat_solve("gamut", "spades", d, seat=0, goal="max", sides=0b0101).value
    >>> hi.tolist(), bool((team >= seat_solve("gamut", "spades", d, seat=0, goal="max").value).all())
    ([0, 0], True)
    """
    from trickcore.solver import solve_many

    g = get_game(game)
    n = g.n_seats
    side = (1 << int(seat)) if sides is None else sides
    return solve_many(g.id, contract, np.ascontiguousarray(np.asarray(deals, dtype=np.uint64)[:, :n]),
                      leader=leader, declarer=int(seat), sides=side, goal=goal, line=line,
                      objective=objective, **_layout_rules(g, rules))


def _card_points(g: Game, contract: str, masks: np.ndarray, rules: Mapping[str, Any] | None) -> np.ndarray:
    table = g.layout(contract, **_layout_rules(g, rules)).point_table().astype(np.int64)
    masks = np.asarray(masks, dtype=np.uint64)
    pts = np.zeros(masks.shape, dtype=np.int64)
    for card in np.flatnonzero(table):
        pts += ((masks >> np.uint64(card)) & np.uint64(1)).astype(np.int64) * table[card]
    return pts


def base_frame(g: Game, contract: str, deals: np.ndarray, *, seat: int, leader: int, policy: str,
               deal_index: np.ndarray | None) -> dict[str, Any]:
    """The columns every per-seat row starts with (hands, kitty, who, how)."""
    n = g.n_seats
    m = len(deals)
    out: dict[str, Any] = {
        "deal": np.arange(m, dtype=np.int64) if deal_index is None else np.asarray(deal_index, dtype=np.int64),
        "contract": np.full(m, contract, dtype=object),
        "bid": np.full(m, -1, dtype=np.int64),
        "seat": np.full(m, int(seat), dtype=np.int64),
        "declarer": np.full(m, -1, dtype=np.int64),
        "leader": np.full(m, int(leader), dtype=np.int64),
        "policy": np.full(m, policy, dtype=object),
    }
    for s in range(n):
        out[f"hand_{s}"] = deals[:, s]
    out["kitty"] = deals[:, n]
    return out


def _rest(n: int, seat: int, total: int, mine: np.ndarray, cols: str) -> dict[str, np.ndarray]:
    """Per-seat columns: ``mine`` for the seat, the rest of ``total`` to the next seat."""
    out = {f"{cols}_{s}": np.zeros(len(mine), dtype=np.int64) for s in range(n)}
    out[f"{cols}_{seat}"] = mine.astype(np.int64)
    out[f"{cols}_{(seat + 1) % n}"] = (total - mine).astype(np.int64)
    return out


def _hearts_payout(g: Game, value: np.ndarray, seat: int, rules: Mapping[str, Any]) -> pd.DataFrame:
    """Score the seat's paranoid hearts value with the game's scorer (decomposition in the
    module docstring); returns the scorer's frame."""
    from trickcore.scoring import score

    n = g.n_seats
    m = len(value)
    gamut = g.id == "gamut"
    queen_pts, n_hearts = (8, 8) if gamut else (13, 13)
    jack_opt = (not gamut) and bool(dict(rules or {}).get("jack_of_diamonds", False))
    jack = (value < 0) if jack_opt else np.zeros(m, dtype=bool)
    v = value + 10 * jack
    queen = v >= queen_pts
    hearts = v - queen_pts * queen
    if ((hearts < 0) | (hearts > n_hearts)).any():
        raise ValueError(f"{g.id}: a paranoid hearts value {value.tolist()} cannot be read as hearts and Q♠")
    # The rest of the hearts go to the next seat and Q♠ to the one after, so no other seat
    # ever holds every penalty card (that would be a moon the paranoid value knows nothing of).
    other = (seat + 2) % n
    cols: dict[str, Any] = {"contract": np.full(m, "hearts", dtype=object), "declarer": np.full(m, -1)}
    cols.update(_rest(n, seat, n_hearts, hearts, "hearts"))
    for s in range(n):
        cols[f"queen_{s}"] = np.where(queen, s == seat, s == other)
        if jack_opt:
            cols[f"jack_{s}"] = np.where(jack, s == seat, s == other)
    return score(g.id, pd.DataFrame(cols), dict(rules or {}))


def seat_frame(game: str | Game, contract: str, deals: np.ndarray, *, seat: int = 0, leader: int = 0,
               rules: Mapping[str, Any] | None = None, deal_index: np.ndarray | None = None) -> pd.DataFrame:
    """Per-seat double-dummy rows of ``contract`` on ``deals`` (``uint64[n, n_seats + 1]``).

    Paranoid contracts (Hearts, Gamut Hearts and Clubs, leasters) give one row per deal,
    ``bid = -1``; trick-bid contracts (Spades, Gamut Spades, Oh Hell) one row per deal and
    bid (:func:`analysis.bids.bid_frame`).  Columns: ``deal``, ``contract``, ``bid``,
    ``seat``, ``declarer`` (−1), ``leader``, ``policy`` (``"paranoid"``), the hands and
    kitty, ``side_mask``, ``value`` (module docstring), ``side_points`` (points games: the
    value; else 0), ``side_tricks`` (the seat's tricks along the line found),
    ``last_trick_winner``, ``nodes``, ``kitty_points``, ``exchanged`` (False),
    ``payout_{s}`` (the seat's from the scorer, ``NaN`` for the others), ``made``.

    >>> from trickcore.deals import random_deals
    >>> f = seat_frame("goathead3", "leasters", random_deals("goathead3", 3, seed=2), seat=2)
    >>> list(f.columns[:7]), bool(f.payout_2.isna().all()), bool((f.made == (f.value == 0)).all())
    (['deal', 'contract', 'bid', 'seat', 'declarer', 'leader', 'policy'], True, True)
    """
    g = get_game(game)
    contract = g.check_contract(contract)
    kind = seat_kind(g, contract)
    if kind is None:
        raise ValueError(f"{g.id}/{contract} has a declaring side; use analysis.simulate.evaluate")
    deals = np.asarray(deals, dtype=np.uint64)
    n = g.n_seats
    if deals.ndim != 2 or deals.shape[1] != n + 1:
        raise ValueError(f"deals must be uint64[n, {n + 1}] (hands then kitty); got shape {deals.shape}")
    if not 0 <= int(seat) < n:
        raise ValueError(f"seat must be 0..{n - 1}; got {seat!r}")
    seat = int(seat)
    rules = dict(rules or {})
    if kind in ("team_bid", "exact_bid"):
        from .bids import bid_frame

        return bid_frame(g, contract, deals, seat=seat, leader=leader, rules=rules, deal_index=deal_index)
    lay = g.layout(contract, **_layout_rules(g, rules))
    goal = "min" if kind == "points" else "max"
    r = seat_solve(g, contract, deals, seat=seat, goal=goal, leader=leader, rules=rules)
    m = len(deals)
    value = np.asarray(r.value, dtype=np.int64)
    last = np.asarray(r.last_trick_winner, dtype=np.int64)
    kitty_pts = _card_points(g, contract, deals[:, n], rules)
    frame = base_frame(g, contract, deals, seat=seat, leader=leader, policy="paranoid", deal_index=deal_index)
    if contract in _LEASTERS:
        value = value + np.where(last == seat, kitty_pts, 0)  # the blind goes to the last trick
    frame.update({
        "side_mask": np.full(m, 1 << seat, dtype=np.uint8),
        "value": value,
        "side_points": value if kind == "points" else np.zeros(m, dtype=np.int64),
        "side_tricks": np.asarray(r.side_tricks, dtype=np.int64),
        "last_trick_winner": last,
        "nodes": np.asarray(r.nodes, dtype=np.int64),
        "kitty_points": kitty_pts,
        "exchanged": np.zeros(m, dtype=bool),
    })
    pay = np.full((m, n), np.nan)
    extras: dict[str, Any] = {}
    if kind == "tricks":
        from trickcore.scoring import score

        cols: dict[str, Any] = {"contract": np.full(m, contract, dtype=object), "declarer": np.full(m, -1)}
        cols.update(_rest(n, seat, lay.hand_size, value, "tricks"))
        cols.update({f"folded_{s}": np.zeros(m, dtype=bool) for s in range(n)})
        pay[:, seat] = score(g.id, pd.DataFrame(cols), rules)[f"payout_{seat}"].to_numpy(dtype=float)
        made = value >= 1
    else:
        made = value == 0
        if contract not in _LEASTERS:
            sc = _hearts_payout(g, value, seat, rules)
            pay[:, seat] = sc[f"payout_{seat}"].to_numpy(dtype=float)
            if "moon" in sc.columns:
                extras["moon"] = sc["moon"].to_numpy()
    for s in range(n):
        frame[f"payout_{s}"] = pay[:, s]
    frame["made"] = made
    frame.update(extras)
    return pd.DataFrame(frame)
