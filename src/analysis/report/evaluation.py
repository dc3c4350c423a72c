"""Play and score one contract on given deals, for every game: the report's evaluation step.

Goathead goes through :func:`analysis.evaluate`.  For the other games this module builds
the scorer's input columns from the compiled pieces directly (double-dummy
:func:`trickcore.solver.solve_many` or greedy :func:`trickcore.playouts.playout`, then
:func:`trickcore.scoring.score`):

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
_QS, _JD = 16 * 3 + 10, 16 * 1 + 9


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


def _card_points(lay, masks: np.ndarray) -> np.ndarray:
    table = lay.point_table().astype(np.int64)
    pts = np.zeros(len(masks), dtype=np.int64)
    for c in np.flatnonzero(table):
        pts += ((masks >> np.uint64(c)) & np.uint64(1)).astype(np.int64) * int(table[c])
    return pts


def _taken(cards: np.ndarray, winners: np.ndarray, n_seats: int, pred) -> np.ndarray:
    """Per seat, how many played cards satisfying ``pred(card_ids)`` its tricks took."""
    n = cards.shape[0]
    out = np.zeros((n, n_seats), dtype=np.int64)
    hit = pred(cards.astype(np.int64)) & (cards >= 0)      # (n, tricks, seats)
    per_trick = hit.sum(axis=2)                             # (n, tricks)
    for s in range(n_seats):
        out[:, s] = np.where(winners == s, per_trick, 0).sum(axis=1)
    return out


def evaluate_contract(game: str, contract: str, deals: np.ndarray, *, rules: Mapping[str, Any] | None = None,
                      policy: str = "dd", leader: int = 0, deal_index: np.ndarray | None = None) -> pd.DataFrame:
    """One row per deal: play columns, the scorer's inputs and its ``payout_{s}``, ``made``.

    ``deals`` is ``uint64[n, seats + 1]`` (hands then kitty); seat 0 declares.
    """
    g = get_game(game)
    rules = dict(rules or {})
    deals = np.asarray(deals, dtype=np.uint64)
    if g.id in ("goathead3", "goathead4") and (policy != "dd" or (g.id, contract) not in PER_SEAT):
        from ..simulate import evaluate

        return evaluate(g.id, contract, deals, rules=rules, declarer=0, leader=leader, policy=policy,
                        deal_index=deal_index)
    n_seats = g.n_seats
    m = len(deals)
    lay = g.layout(contract, **_layout_rules(g, rules))
    hands = np.ascontiguousarray(deals[:, :n_seats])
    per_seat = (g.id, contract) in PER_SEAT
    f: dict[str, Any] = {"deal": np.arange(m) if deal_index is None else np.asarray(deal_index),
                         "contract": contract, "declarer": -1 if per_seat else 0, "leader": leader, "policy": policy}
    for s in range(n_seats):
        f[f"hand_{s}"] = hands[:, s]
    f["kitty"] = deals[:, n_seats]
    seats = np.arange(n_seats)
    if policy == "dd":
        from trickcore.solver import solve_many

        if per_seat and (g.id, contract) != ("gamut", "clubs"):
            raise ValueError(f"{g.id}/{contract} has no declaring side; play it out (policy='greedy')")
        r = solve_many(g.id, contract, hands, leader=leader, declarer=0, **_layout_rules(g, rules))
        side = np.asarray(r.side, dtype=np.uint8)
        f.update(side_mask=side, side_tricks=r.value.astype(np.int64) if lay.objective == "tricks" else r.side_tricks.astype(np.int64),
                 side_points=r.value.astype(np.int64) if lay.objective == "points" else 0,
                 last_trick_winner=r.last_trick_winner.astype(np.int64), side_melds=r.side_melds.astype(np.int64),
                 opp_melds=r.opp_melds.astype(np.int64), nodes=r.nodes)
        on = ((side[:, None] >> seats[None, :].astype(np.uint8)) & 1).astype(bool)
        tricks = np.zeros((m, n_seats), dtype=np.int64)
        st = np.asarray(f["side_tricks"], dtype=np.int64)
        if (g.id, contract) in _TEAM_BID:
            bids = heuristic_bids(g.id, contract, hands, rules)
            for s in range(n_seats):
                f[f"bid_{s}"] = bids[:, s]
            # the team's tricks go to the partner with the larger bid; the other team's likewise
            first = np.where(bids[:, 0] >= bids[:, 2], 0, 2)
            tricks[np.arange(m), first] = st
            other = np.where(bids[:, 1] >= bids[:, 3], 1, 3)
            tricks[np.arange(m), other] = lay.hand_size - st
        else:
            tricks[:, 0] = st
            tricks[:, 1] = lay.hand_size - st
        for s in range(n_seats):
            f[f"tricks_{s}"] = tricks[:, s]
    else:
        from trickcore.playouts import playout

        r = playout(g.id, contract, hands, policy="greedy" if policy == "greedy" else policy, leader=leader, declarer=0,
                    seed=0, **_layout_rules(g, rules))
        side = np.asarray(r.side, dtype=np.uint8)
        on = ((side[:, None] >> seats[None, :].astype(np.uint8)) & 1).astype(bool)
        pts, trk, mld = (np.asarray(x, dtype=np.int64) for x in (r.points, r.tricks, r.melds))
        f.update(side_mask=side, side_points=(pts * on).sum(1), side_tricks=(trk * on).sum(1),
                 side_melds=(mld * on).sum(1), opp_melds=(mld * ~on).sum(1),
                 last_trick_winner=np.asarray(r.last_trick_winner, dtype=np.int64))
        for s in range(n_seats):
            f[f"points_{s}"] = pts[:, s]
            f[f"tricks_{s}"] = trk[:, s]
        cards, winners = np.asarray(r.cards), np.asarray(r.winners)
        if g.id in ("hearts",) or (g.id, contract) == ("gamut", "hearts"):
            hearts = _taken(cards, winners, n_seats, lambda c: (c // 16) == 2)
            queen = _taken(cards, winners, n_seats, lambda c: c == _QS)
            jack = _taken(cards, winners, n_seats, lambda c: c == _JD)
            for s in range(n_seats):
                f[f"hearts_{s}"] = hearts[:, s]
                f[f"queen_{s}"] = queen[:, s]
                if g.id == "hearts":
                    f[f"jack_{s}"] = jack[:, s]
        if g.id in ("spades", "ohhell") or (g.id, contract) == ("gamut", "spades"):
            bids = heuristic_bids(g.id, contract, hands, rules)
            for s in range(n_seats):
                f[f"bid_{s}"] = bids[:, s]
    f["kitty_points"] = _card_points(lay, deals[:, n_seats])
    f["exchanged"] = False
    if g.id == "sheepshead" and not per_seat:
        mates = side & ~np.uint8(1)
        f["partner"] = np.where(mates == 0, -1, np.log2(np.maximum(mates, 1)).astype(np.int64))
    if g.id == "clover":
        from trickcore.scoring.melds import hand_melds_batch

        flat = hand_melds_batch(hands.reshape(-1), trump=None if contract == "notrump" else contract,
                                four_low_ranks=rules.get("four_low_ranks", "set_of_three")).reshape(m, n_seats)
        f["side_trick_melds"] = f["side_melds"]
        f["opp_trick_melds"] = f["opp_melds"]
        f["side_hand_melds"] = (flat * on).sum(1)
        f["opp_hand_melds"] = (flat * ~on).sum(1)
    if g.id == "ohhell":
        f["hand_size"] = lay.hand_size
    return rescore(g.id, pd.DataFrame(f), rules)


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
