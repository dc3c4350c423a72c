"""Play and score one contract on given deals, for every game: the report's evaluation step.

Every game goes through the code path of :func:`analysis.simulate.simulate`: its ``_play``
(double-dummy :func:`trickcore.solver.solve_many` or greedy
:func:`trickcore.playouts.playout`) and ``_round_frame`` build the scorer's input columns,
then :func:`trickcore.scoring.score` scores them:

* Clover: trick melds from the play, hand melds of each team from
  :func:`trickcore.scoring.melds.hand_melds_batch`;
* Sheepshead: the partner is the other seat of the layout's side (the J♦ / called-ace holder);
* Hearts and Gamut Hearts: hearts and Q♠ (J♦) taken per seat, from the recorded play;
* Spades, Gamut Spades, Oh Hell: every seat bids what the heuristic bidding policy
  (:class:`trickcore.policies.HeuristicPolicy`) bids with its hand; tricks from the play.

Conventions: seat 0 declares (or, without a declarer, is the seat reported) and the kitty is
not exchanged.  Spades and Gamut Spades are reported for team 0 (seats 0 and 2): ``made`` is
team 0 making its combined bid.  Double dummy knows only the side's total, so in those games
a double-dummy row credits the team's tricks to the partner with the larger bid (a nil
bidder takes none), and in Gamut Clubs (seat 0 against the rest) the other seats' tricks are
given to seat 1; only the reported seat's payout is meaningful there.

>>> from trickcore.deals import random_deals
>>> f = evaluate_contract("hearts", "hearts", random_deals("hearts", 3, 1), policy="greedy")
>>> int(f[[f"hearts_{s}" for s in range(4)]].sum(axis=1).iloc[0]), bool((f.declarer == -1).all())
(13, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd

from trickcore.cards import CardSet
from trickcore.games import get_game

__all__ = ["evaluate_contract", "rescore", "PER_SEAT", "heuristic_bids"]

#: (game, contract) pairs scored per seat, without a declarer.
PER_SEAT = {("hearts", "hearts"), ("gamut", "hearts"), ("gamut", "clubs"), ("goathead3", "leasters"),
            ("goathead4", "leasters"), ("sheepshead", "leaster")} | {("ohhell", c) for c in
                                                                    ("clubs", "diamonds", "hearts", "spades", "notrump")}

_TEAM_BID = {("spades", "spades"), ("gamut", "spades")}


def _layout_rules(g, rules: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in dict(rules).items() if k in g.layout_options}


def heuristic_bids(game: str, contract: str, hands: np.ndarray, rules: Mapping[str, Any] | None = None) -> np.ndarray:
    """Trick bids of the heuristic policy for every hand (``int[n, seats]``), each seat
    asked with its own hand through :meth:`HeuristicPolicy.bid`.

    >>> hands = np.array([[CardSet.parse(h).mask for h in (
    ...     "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    ...     "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C")]], dtype=np.uint64)
    >>> b = heuristic_bids("spades", "spades", hands)
    >>> b.shape, bool(b[0, 0] > b[0, 1])       # thirteen spades bid more than a hand of hearts
    ((1, 4), True)
    """
    from trickcore.policies import HeuristicPolicy

    g = get_game(game)
    full = g.check_rules(dict(rules or {}))
    lay = g.layout(contract, **_layout_rules(g, full))
    pol = HeuristicPolicy()
    legal = list(range(0, lay.hand_size + 1))
    hands = np.asarray(hands, dtype=np.uint64)
    out = np.zeros(hands.shape[:2], dtype=np.int64)
    for i in range(hands.shape[0]):
        for s in range(g.n_seats):
            obs = SimpleNamespace(game=g.id, rules=full, layout=lay, hand=CardSet(int(hands[i, s])), n_seats=g.n_seats,
                                  legal=legal, phase="bid", bids=[], seat=s, dealer=g.n_seats - 1)
            out[i, s] = int(pol.bid(obs))
    return out


def _dd_trick_split(g, contract: str, hands: np.ndarray, side_tricks: np.ndarray, bids: np.ndarray | None,
                    hand_size: int) -> dict[str, np.ndarray]:
    """``tricks_{s}`` for a double-dummy row, which knows only the declaring side's total:
    in the team-bid games each team's tricks go to its partner with the larger bid (a nil
    bidder takes none); elsewhere (Gamut Clubs, seat 0 against the rest) the other seats'
    tricks go to seat 1.  Only the reported seat's payout is meaningful there."""
    m = len(hands)
    tricks = np.zeros((m, g.n_seats), dtype=np.int64)
    rows = np.arange(m)
    if bids is not None:
        tricks[rows, np.where(bids[:, 0] >= bids[:, 2], 0, 2)] = side_tricks
        tricks[rows, np.where(bids[:, 1] >= bids[:, 3], 1, 3)] = hand_size - side_tricks
    else:
        tricks[:, 0] = side_tricks
        tricks[:, 1] = hand_size - side_tricks
    return {f"tricks_{s}": tricks[:, s] for s in range(g.n_seats)}


def evaluate_contract(game: str, contract: str, deals: np.ndarray, *, rules: Mapping[str, Any] | None = None,
                      policy: str = "dd", leader: int = 0, deal_index: np.ndarray | None = None) -> pd.DataFrame:
    """One row per deal: play columns, the scorer's inputs and its ``payout_{s}``, ``made``.

    ``deals`` is ``uint64[n, seats + 1]`` (hands then kitty); seat 0 declares.  The play and
    the scorer's columns come from :mod:`analysis.simulate` (``_play`` and ``_round_frame``,
    the code path of :func:`analysis.simulate.simulate`); this function adds only the
    report's conventions (module docstring): the heuristic policy's bids, the double-dummy
    trick split, per-seat rows and team 0's ``made``.
    """
    from ..simulate import _play, _round_frame, evaluate

    g = get_game(game)
    rules = dict(rules or {})
    deals = np.asarray(deals, dtype=np.uint64)
    if g.id in ("goathead3", "goathead4") and (policy != "dd" or (g.id, contract) not in PER_SEAT):
        return evaluate(g.id, contract, deals, rules=rules, declarer=0, leader=leader, policy=policy,
                        deal_index=deal_index)
    per_seat = (g.id, contract) in PER_SEAT
    if policy == "dd" and per_seat and (g.id, contract) != ("gamut", "clubs"):
        raise ValueError(f"{g.id}/{contract} has no declaring side; play it out (policy='greedy')")
    n_seats = g.n_seats
    lay = g.layout(contract, **_layout_rules(g, rules))
    hands = np.ascontiguousarray(deals[:, :n_seats])
    played = _play(g.id, contract, deals, rules, 0, leader, policy, 0)
    extra: dict[str, Any] = {}
    bids = None
    if g.id in ("spades", "ohhell") or (g.id, contract) == ("gamut", "spades"):
        bids = heuristic_bids(g.id, contract, hands, rules)
        extra.update({f"bid_{s}": bids[:, s] for s in range(n_seats)})
    if policy == "dd" and (bids is not None or per_seat):
        extra.update(_dd_trick_split(g, contract, hands, np.asarray(played["side_tricks"]),
                                     bids if (g.id, contract) in _TEAM_BID else None, lay.hand_size))
    if g.id == "ohhell":
        extra["hand_size"] = lay.hand_size
    f = _round_frame(g, contract, deals, played, rules, 0, leader, policy, deal_index=deal_index, extra=extra)
    f["declarer"] = -1 if per_seat else 0
    return rescore(g.id, f, rules)


def rescore(game: str, frame: pd.DataFrame, rules: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """``frame`` with its scorer columns (``payout_{s}``, ``made`` …) recomputed under
    ``rules``: the same play, scored again (nothing is re-solved).

    >>> from trickcore.deals import random_deals
    >>> f = evaluate_contract("goathead3", "hearts", random_deals("goathead3", 5, 2))
    >>> g = rescore("goathead3", f, {"no_exchange_bonus": "won_only"})
    >>> bool((g.payout_0.abs() <= f.payout_0.abs()).all())
    True
    """
    from trickcore.scoring import score

    g = get_game(game)
    frame = frame.copy()
    contracts = set(frame["contract"].astype(str))
    team = any((g.id, c) in _TEAM_BID for c in contracts)
    if team:  # scored per team (no declarer); reported for team 0, whose bid plays the declarer's part
        frame["declarer"] = -1
    sc = score(g.id, frame, dict(rules or {}))
    if team:
        frame["declarer"] = 0
    for c in sc.columns:
        frame[c] = sc[c].to_numpy()
    if team:
        if "made_0" in sc:
            frame["made"] = sc["made_0"].astype("boolean").to_numpy()
        else:
            frame["made"] = (sc["team_tricks_0"] >= sc["team_bid_0"]).astype("boolean").to_numpy()
    return frame
