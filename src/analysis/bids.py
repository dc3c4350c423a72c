"""Trick-bid games: how likely each bid is made, and what it pays, for one seat.

The "contracts" of a hand in Spades, Gamut Spades and Oh Hell are its possible bids.  Every
figure is double dummy (all cards seen, perfect play), computed from one or two solves per
deal with :func:`trickcore.solver.solve_many`; a row per deal and bid.

Spades (partners across; ``bid`` 0 = the seat bids nil, 2..13 = the team's combined bid)
    * ``T`` = the team's most tricks (seat + partner against the other two, ``goal='max'``:
      an ordinary two-sided double-dummy value).  A team bid ``k`` is **made** iff
      ``T >= k``.  Team bid 1 does not exist without a nil, so bids run 2..13; the bid is
      split seat ``ceil(k/2)``, partner ``floor(k/2)`` (the split does not change the team
      score).
    * Nil: ``N`` = whether the seat takes a trick when the other three — its partner too —
      try to give it one (seat alone, the solver's Nil objective: play stops at the seat's
      first trick, ``N`` is 0 or 1): the paranoid answer, so P(nil made) is
      **pessimistic** (a real partner helps the nil).  Made iff ``N == 0``.  ``N`` is not
      the fewest tricks the seat can be held to (``seat_solve(..., goal='min')``), which
      no Spades score needs and which costs seconds a deal where the nil costs
      milliseconds (see "Cost").
    * ``payout_{s}``: the scorer's team score of a row where the team takes ``T`` tricks
      (all overtricks are bags), the opponents bid what they take (``13 - T``, split, each at
      least 1) — so ``payout`` of the seat's team depends only on its own bid and ``T``; the
      opponents' columns hold their score under that assumption.  Bag roll-overs only
      with ``bags`` (next point).  For nil the payout is the seat's nil bonus alone (+100 /
      −100), read from the scorer (a double-nil row minus the partner's made nil); the
      partner's own bid is not part of it.
    * Bag roll-over (rule option ``sandbags``, a match effect): with ``bags=`` (the seat's
      team's running bag total before this round) the scorer applies it — each multiple of
      ten the total passes this round costs 110, included in ``payout`` and shown in the
      ``bag_penalty`` column; the opponents are scored with no bags carried.  ``bags=0``
      still charges a round of ten or more overtricks (team bid 2 or 3).  Without ``bags``
      (``None``, what :func:`analysis.simulate.simulate` does) no roll-over is applied.  Nil
      rows carry no bags (their payout is the nil bonus alone).
Gamut Spades (partners across, team bids 0..8)
    * ``T`` as above; a team bid ``k`` is **made** iff ``T >= k``.  The payout is the
      scorer's team score with the team taking exactly ``T`` (it does not throw tricks to
      dodge the over-trick penalty, so for ``k < T`` it is pessimistic); the opponents
      bid ``8 - T``.  Bid split: seat ``k``, partner 0.
Oh Hell (individual exact bids 0..hand_size; every trump contract)
    * ``M`` = the seat's most tricks and ``m`` its fewest, each against the other three
      (paranoid, ``goal='max'`` / ``'min'``).  A bid ``k`` is **makeable** iff
      ``m <= k <= M``.  This is *necessary* for the seat to guarantee exactly ``k`` against
      a hostile table (it must be able to force at least ``k`` and at most ``k``) but not
      sufficient (the two guarantees need not hold in one play): an **optimistic** bound
      on the paranoid guarantee, itself pessimistic about opponents who in fact chase their
      own bids.  P(bid makeable) therefore may sum to more than 1 over the bids; and ``m``
      may exceed ``M`` (a seat of middling cards can be forced to win tricks it cannot win
      against resistance), when no bid is makeable.
    * ``payout_{seat}``: the scorer with the seat taking ``k`` tricks when makeable, else
      the bound it misses (``M`` when ``k > M``, else ``m`` when ``k < m``).  Oh Hell scores each
      player alone, so the others' bids do not matter; their payout columns are ``NaN``.
    * Rule option ``no_equal_total`` ("total bids can't equal tricks"): only the dealer, who
      bids last, is restricted — it may not bid ``hand_size - (sum of the earlier bids)``.
      The dealer is the seat before ``leader`` (the first bidder leads).  Which bid that is
      depends on the earlier bids, so :func:`forbidden_bid` needs them (``bids_before``);
      the other seats' figures do not change (their paranoid values ignore the others'
      bids).

Cost (``benches/bench_bids.py --deals 100 --min-deals 4``, CPU time per deal on one core,
seat 0 leading; session 15; figures in ``benches/RESULTS.md``):

* Spades, 13 cards: the team maximum ``T`` 10 ms on average (up to 0.6 M nodes); the nil
  (Nil objective) 2.1 ms.  Answered instead by the fewest tricks the seat can be held
  to, as until session 15, the nil took 5.7 s a deal on the bench's first four deals
  (0.1 M to 173 M nodes) against 1.1 ms, for the same made/failed answer.
* Oh Hell, per contract and deal: 8 cards, the maximum ``M`` 0.1-0.2 ms and the minimum
  ``m`` 3-5 ms; 10 cards, 0.8 ms and 0.09-0.18 s (1.3 M to 2.4 M nodes on average, up
  to 40 M).  The minimum is the costly one: the search has few bounds for a seat that wants
  few tricks (its quick tricks are not sure).
* Hearts, 13 cards, the seat's paranoid minimum (not a bid game; :mod:`analysis.paranoid`):
  1.2 s and 1.7 s for two deals, and a third had not finished after 13 minutes — full
  Hearts deals stay out of reach of per-deal analysis (play-outs with ``policy="greedy"``
  are not).
* Gamut (8 cards): about 10-80 ms per deal and contract; Goathead leasters 2 ms;
  Sheepshead leaster 0.4 s.

So Oh Hell hands of 10 cards or more need a small ``max_deals`` (or ``time_budget``) in
:func:`analysis.odds.contract_odds` and few deals in :func:`analysis.simulate.simulate`;
a Spades bid analysis costs about 12 ms a deal.

Examples
--------
>>> from trickcore.deals import random_deals
>>> d = random_deals("ohhell", 3, seed=1, hand_size=3)
>>> f = bid_frame("ohhell", "notrump", d, seat=0, rules={"hand_size": 3})
>>> f.groupby("deal").size().tolist()                # bids 0..3 for each deal
[4, 4, 4]
>>> bool((f.made == ((f.min_tricks <= f.bid) & (f.bid <= f.max_tricks))).all())
True
>>> bool((f.payout_0[f.made] == 10 + f.bid[f.made]).all())   # exact bid: 10 + tricks
True
>>> bids_of("spades")[:3], bids_of("gamut", "spades")[-1], bids_of("ohhell", rules={"hand_size": 4})
((0, 2, 3), 8, (0, 1, 2, 3, 4))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from trickcore.games import Game, get_game

from .paranoid import _layout_rules, base_frame, seat_kind, seat_solve

__all__ = ["bids_of", "bid_frame", "forbidden_bid", "check_bags"]


def bids_of(game: str | Game, contract: str | None = None, rules: Mapping[str, Any] | None = None) -> tuple[int, ...]:
    """The bids analysed for ``game``/``contract`` (Spades: 0 = nil, then team bids 2..13)."""
    g = get_game(game)
    contract = contract or g.contracts[0]
    kind = seat_kind(g, contract)
    if kind == "team_bid":
        tricks = g.hand_size
        return (0, *range(2, tricks + 1)) if g.id == "spades" else tuple(range(0, tricks + 1))
    if kind == "exact_bid":
        hs = g.layout(contract, **_layout_rules(g, rules)).hand_size
        return tuple(range(0, hs + 1))
    raise ValueError(f"{g.id}/{contract} has no bids")


def forbidden_bid(game: str | Game, rules: Mapping[str, Any] | None, seat: int, leader: int = 0,
                  bids_before: int | None = None) -> int | None:
    """The bid ``seat`` may not make under Oh Hell's ``no_equal_total`` option (``None``: none).

    The dealer (the seat before ``leader``) bids last and may not bring the total of the
    bids to the number of tricks; ``bids_before`` is the sum of the three earlier bids.
    Raises ``ValueError`` when the rule binds the seat and ``bids_before`` is missing, or
    when ``bids_before`` is given where it means nothing.

    >>> forbidden_bid("ohhell", {"no_equal_total": True, "hand_size": 3}, seat=3, bids_before=2)
    1
    >>> forbidden_bid("ohhell", {"no_equal_total": True, "hand_size": 3}, seat=3, bids_before=5) is None
    True
    >>> forbidden_bid("ohhell", {"no_equal_total": True}, seat=1) is None     # not the dealer
    True
    >>> forbidden_bid("ohhell", {"no_equal_total": True}, seat=3)
    Traceback (most recent call last):
      ...
    ValueError: ohhell with no_equal_total: seat 3 is the dealer (bids last) and may not bring the total bid to the 10 tricks; which bid that forbids depends on the earlier bids — pass bids_before (their sum, 0..30)
    """
    g = get_game(game)
    rules = dict(rules or {})
    binds = g.id == "ohhell" and bool(rules.get("no_equal_total", False))
    if bids_before is not None and not binds:
        raise ValueError("bids_before only matters for ohhell with the rule option no_equal_total=True")
    if not binds:
        return None
    hs = g.layout(g.contracts[0], **_layout_rules(g, rules)).hand_size
    dealer = (int(leader) - 1) % g.n_seats
    if int(seat) != dealer:
        if bids_before is not None:
            raise ValueError(f"bids_before is for the dealer (seat {dealer}, bidding last); seat {seat} is not")
        return None
    top = (g.n_seats - 1) * hs
    if bids_before is None:
        raise ValueError(f"ohhell with no_equal_total: seat {seat} is the dealer (bids last) and may not bring "
                         f"the total bid to the {hs} tricks; which bid that forbids depends on the earlier bids "
                         f"— pass bids_before (their sum, 0..{top})")
    b = int(bids_before)
    if not 0 <= b <= top:
        raise ValueError(f"bids_before must be the sum of {g.n_seats - 1} bids of 0..{hs}: 0..{top}; got {bids_before!r}")
    k = hs - b
    return k if k >= 0 else None


def check_bags(game: str | Game, rules: Mapping[str, Any] | None, bags: Any) -> int | None:
    """Validate a running bag count (``None`` passes through).

    Spades only, and only with ``sandbags`` on when non-zero (without sandbags no bag is
    ever counted).

    >>> check_bags("spades", {}, 7), check_bags("ohhell", {}, 0), check_bags("spades", {}, None)
    (7, None, None)
    >>> check_bags("spades", {"sandbags": False}, 3)
    Traceback (most recent call last):
      ...
    ValueError: bags=3 but the rule option sandbags is False: no bags are counted
    """
    if bags is None:
        return None
    g = get_game(game)
    if isinstance(bags, bool) or not isinstance(bags, (int, np.integer)) or int(bags) < 0:
        raise ValueError(f"bags must be a whole number of bags carried, at least 0; got {bags!r}")
    if g.id != "spades":
        if int(bags):
            raise ValueError(f"bags (the Spades bag count) means nothing for {g.id}")
        return None
    if int(bags) and not dict(rules or {}).get("sandbags", True):
        raise ValueError(f"bags={int(bags)} but the rule option sandbags is False: no bags are counted")
    return int(bags)


def _split(total: np.ndarray, low: int) -> tuple[np.ndarray, np.ndarray]:
    a = np.maximum(low, (total + 1) // 2)
    b = np.maximum(low, total // 2)
    return a, b


def bid_frame(game: str | Game, contract: str, deals: np.ndarray, *, seat: int = 0, leader: int = 0,
              rules: Mapping[str, Any] | None = None, deal_index: np.ndarray | None = None,
              bids: Any = None, bags: int | None = None) -> pd.DataFrame:
    """One row per deal and bid of ``contract`` for ``seat`` (module docstring).

    Columns as :func:`analysis.paranoid.seat_frame`, plus ``max_tricks`` (``T`` or ``M``)
    and ``min_tricks`` (``N`` for Spades, 0 or 1; ``m`` for Oh Hell; ``-1`` where not solved);
    ``value`` is the tricks the row is scored with.  ``bids`` restricts the rows to some
    bids (Spades: the nil solve, the costly one, is skipped without bid 0); ``bags`` (Spades)
    is the seat's team's bag count before the round: the roll-over is then applied and a
    ``bag_penalty`` column added (module docstring).

    >>> from trickcore.cards import CardSet
    >>> hands = ["AS KS QS JS TS 9S AH KH QH AD KD AC KC", "8S 7S 6S 5S 4S 3S 2S JH TH 9H 8H 7H 6H",
    ...          "QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D QC JC", "TC 9C 8C 7C 6C 5C 4C 3C 2C 5H 4H 3H 2H"]
    >>> d = np.array([[CardSet.parse(h).mask for h in hands] + [0]], dtype=np.uint64)
    >>> f = bid_frame("spades", "spades", d, bids=[5], bags=9)     # T = 12: 7 bags, 16 in all
    >>> r = f.iloc[0]
    >>> int(r.bid), int(r.max_tricks), float(r.payout_0), int(r.bag_penalty)
    (5, 12, -53.0, -110)
    """
    g = get_game(game)
    rules = dict(rules or {})
    solved = bid_solve(g, contract, deals, seat=seat, leader=leader, rules=rules,
                       nil=bids is None or 0 in _bid_list(g, contract, rules, bids))
    return bid_rows(g, contract, deals, solved, seat=seat, leader=leader, rules=rules, deal_index=deal_index,
                    bids=bids, bags=bags)


def _bid_list(g: Game, contract: str, rules: Mapping[str, Any], bids: Any) -> tuple[int, ...]:
    valid = bids_of(g, contract, rules)
    if bids is None:
        return valid
    out = tuple(int(b) for b in ([bids] if np.isscalar(bids) else bids))
    bad = [b for b in out if b not in valid]
    if bad or not out:
        raise ValueError(f"bid(s) {bad or list(out)} not possible in {g.id}/{contract}; valid bids: {list(valid)}")
    return out


def _setup(game: Any, contract: str, deals: np.ndarray, seat: int, rules: Any) -> tuple:
    """What :func:`bid_solve` and :func:`bid_rows` both start from."""
    g = get_game(game)
    rules = dict(rules or {})
    return (g, rules, seat_kind(g, contract), g.n_seats, len(deals), int(seat),
            g.layout(contract, **_layout_rules(g, rules)))


def bid_solve(game: str | Game, contract: str, deals: np.ndarray, *, seat: int = 0, leader: int = 0,
              rules: Mapping[str, Any] | None = None, nil: bool = True) -> dict[str, np.ndarray]:
    """The double-dummy solves behind :func:`bid_frame` (only layout options matter here,
    so one solve serves every scoring option): ``hi``, ``lo`` (−1 where not solved: Spades
    without ``nil``, Gamut), ``nodes``, ``side_mask``, ``last``.

    >>> from trickcore.deals import random_deals
    >>> d = random_deals("ohhell", 2, seed=1, hand_size=3)
    >>> s = bid_solve("ohhell", "notrump", d, seat=0, rules={"hand_size": 3})
    >>> sorted(s), bool(((0 <= s["lo"]) & (s["hi"] <= 3)).all())
    (['hi', 'last', 'lo', 'nodes', 'side_mask'], True)
    """
    g, rules, kind, n, m, seat, lay = _setup(game, contract, deals, seat, rules)
    if kind == "team_bid":
        team = np.asarray(lay.sides(np.ascontiguousarray(deals[:, :n]), seat), dtype=np.int64)
        r = seat_solve(g, contract, deals, seat=seat, goal="max", sides=team, leader=leader, rules=rules)
        hi = np.asarray(r.value, dtype=np.int64)
        nodes = np.asarray(r.nodes, dtype=np.int64)
        lo = np.full(m, -1, dtype=np.int64)
        if g.id == "spades" and nil:
            # whether the seat can take no trick at all: the Nil objective stops the search
            # at its first trick (tens of nodes where the fewest tricks cost millions)
            rn = seat_solve(g, contract, deals, seat=seat, goal=None, objective="nil", leader=leader,
                            rules=rules, line=False)
            lo = np.asarray(rn.value, dtype=np.int64)
            nodes = nodes + np.asarray(rn.nodes, dtype=np.int64)
        side_mask = team.astype(np.uint8)
        last = np.asarray(r.last_trick_winner, dtype=np.int64)
    elif kind == "exact_bid":
        rh = seat_solve(g, contract, deals, seat=seat, goal="max", leader=leader, rules=rules)
        # the minimum's value only (its line would cost a fifth more: the line's columns
        # come from the maximum's solve)
        rl = seat_solve(g, contract, deals, seat=seat, goal="min", leader=leader, rules=rules, line=False)
        hi = np.asarray(rh.value, dtype=np.int64)
        lo = np.asarray(rl.value, dtype=np.int64)
        nodes = np.asarray(rh.nodes, dtype=np.int64) + np.asarray(rl.nodes, dtype=np.int64)
        side_mask = np.full(m, 1 << seat, dtype=np.uint8)
        last = np.asarray(rh.last_trick_winner, dtype=np.int64)
    else:
        raise ValueError(f"{g.id}/{contract} has no bids")
    return {"hi": hi, "lo": lo, "nodes": nodes, "side_mask": side_mask, "last": last}


def bid_rows(game: str | Game, contract: str, deals: np.ndarray, solved: Mapping[str, np.ndarray], *,
             seat: int = 0, leader: int = 0, rules: Mapping[str, Any] | None = None,
             deal_index: np.ndarray | None = None, bids: Any = None, bags: int | None = None) -> pd.DataFrame:
    """Score the solves of :func:`bid_solve` into :func:`bid_frame`'s rows (so scoring
    options are compared on one solve).

    >>> from trickcore.deals import random_deals
    >>> d = random_deals("ohhell", 2, seed=1, hand_size=3)
    >>> s = bid_solve("ohhell", "notrump", d, seat=0, rules={"hand_size": 3})
    >>> a = bid_rows("ohhell", "notrump", d, s, rules={"hand_size": 3}, bids=[1])
    >>> b = bid_rows("ohhell", "notrump", d, s, rules={"hand_size": 3, "trick_points": "never"}, bids=[1])
    >>> bool((a.payout_0 - b.payout_0 == a.value).all())          # the per-trick points
    True
    """
    from trickcore.scoring import score

    g, rules, kind, n, m, seat, lay = _setup(game, contract, deals, seat, rules)
    tricks = lay.hand_size
    bids = _bid_list(g, contract, rules, bids)
    bags = check_bags(g, rules, bags)
    hi, lo, nodes, side_mask, last = (solved[k] for k in ("hi", "lo", "nodes", "side_mask", "last"))
    if g.id == "spades" and 0 in bids and (lo < 0).any():
        raise ValueError("the nil bid needs the seat's fewest tricks: solve with nil=True")
    base = base_frame(g, contract, deals, seat=seat, leader=leader, policy="dd", deal_index=deal_index)
    kitty_pts = np.zeros(m, dtype=np.int64)
    partner, left, right = (seat + 2) % n, (seat + 1) % n, (seat + 3) % n
    frames = []
    for k in bids:
        cols: dict[str, Any] = {"contract": np.full(m, contract, dtype=object), "declarer": np.full(m, -1)}
        t = np.zeros((m, n), dtype=np.int64)
        b = np.zeros((m, n), dtype=np.int64)
        nil_adjust = None
        if kind == "team_bid" and not (g.id == "spades" and k == 0):
            made = hi >= k
            value = hi
            t[:, seat] = hi
            t[:, left] = tricks - hi
            if g.id == "spades":
                b[:, seat], b[:, partner] = _split(np.full(m, k), 1)
                b[:, left], b[:, right] = _split(tricks - hi, 1)
            else:
                b[:, seat] = k
                b[:, left] = tricks - hi
        elif kind == "team_bid":  # Spades nil: the seat's paranoid fewest tricks
            made = lo == 0
            value = lo
            t[:, seat] = lo
            t[:, left] = tricks - lo
            b[:, left], b[:, right] = _split(tricks - lo, 1)
            # seat and partner both bid nil; the partner (0 tricks) makes its nil
            nil_adjust = "double_nil"
        else:
            made = (lo <= k) & (k <= hi)
            value = np.where(k > hi, hi, np.where(k < lo, lo, k))
            t[:, seat] = value
            t[:, left] = tricks - value
            b[:, seat] = k
            b[:, left] = tricks - value
        for s in range(n):
            cols[f"bid_{s}"] = b[:, s]
            cols[f"tricks_{s}"] = t[:, s]
        if bags is not None and nil_adjust is None:
            # The roll-over of the seat's team (team 0 = seats 0 and 2); opponents carry none.
            cols[f"bags_before_{seat % 2}"] = np.full(m, bags, dtype=np.int64)
            cols[f"bags_before_{1 - seat % 2}"] = np.zeros(m, dtype=np.int64)
        sc = score(g.id, pd.DataFrame(cols), rules)
        pay = sc[[f"payout_{s}" for s in range(n)]].to_numpy(dtype=float).copy()
        if nil_adjust:
            # The seat's nil bonus alone: the double-nil team score minus the partner's
            # made nil, which is half of the score of the same row with both nils made.
            both = pd.DataFrame({**cols, f"tricks_{seat}": np.zeros(m, dtype=np.int64),
                                 f"tricks_{left}": np.full(m, tricks, dtype=np.int64)})
            partner_part = score(g.id, both, rules)[f"payout_{seat}"].to_numpy(dtype=float) / 2
            pay = np.full((m, n), np.nan)
            pay[:, seat] = sc[f"payout_{seat}"].to_numpy(dtype=float) - partner_part
            pay[:, partner] = np.nan
        if kind == "exact_bid":
            keep = pay[:, seat].copy()
            pay[:] = np.nan
            pay[:, seat] = keep
        f = dict(base)
        f["bid"] = np.full(m, k, dtype=np.int64)
        f.update({
            "side_mask": side_mask, "value": value, "max_tricks": hi, "min_tricks": lo,
            "side_points": np.zeros(m, dtype=np.int64), "side_tricks": value,
            "last_trick_winner": last, "nodes": nodes, "kitty_points": kitty_pts,
            "exchanged": np.zeros(m, dtype=bool),
        })
        for s in range(n):
            f[f"payout_{s}"] = pay[:, s]
        f["made"] = np.asarray(made, dtype=bool)
        if bags is not None:
            pen = sc.get(f"bag_penalty_{seat % 2}")
            f["bag_penalty"] = np.zeros(m, dtype=np.int64) if pen is None else pen.to_numpy(dtype=np.int64)
        frames.append(pd.DataFrame(f))
    out = pd.concat(frames, ignore_index=True)
    return out.sort_values(["deal", "bid"], kind="stable", ignore_index=True)
