"""Payout balancer: base payouts that would make the contracts' expected values equal for
the hands the bidding policy bids them with.

Method (shown on the page): for every deal, ask the heuristic bidding policy
(:class:`trickcore.policies.HeuristicPolicy`) what seat 0 would bid as first bidder with
its dealt hand.  Among the hands that bid contract *c*, the declarer's double-dummy payout
``p`` is proportional to the stake ``s = base + bonuses`` (Goathead scoring), so with a base
``b`` instead of the current ``b0`` the payout is ``p · (s + b − b0) / s`` and the expected
value is linear in ``b``: ``EV_c(b) = EV_c + (b − b0) · E[p / s]``.  The suggested base
solves ``EV_c(b) = T`` where ``T`` is the bid-weighted mean EV of all contracts at the
current bases; its interval is a bootstrap over the deals.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from .common import figure, fmt_ci, made_float, mean_ci
from .data import GameData, declarer_payout
from .render import Section

__all__ = ["balancer_section", "policy_bids"]

_NOT_APPLICABLE = {
    "clover": "Clover has no base payout per contract: the score is the trick and meld points themselves, "
              "so there is nothing to tune between contracts.",
    "gamut": "Gamut has no bid between contracts to balance: the dealer's turned card picks the game (only "
             "Diamonds lets a player choose), and each game's scoring has its own scale.",
    "sheepshead": "Sheepshead pays by the text's table of units for the picker's points; the picker decides "
                  "whether to pick, not between contracts with base payouts (the partner rule is a table "
                  "option, compared in the rule-variant section).",
    "hearts": "Hearts has a single contract, so there is nothing to balance between contracts.",
    "spades": "Spades has a single contract (bids are trick counts scored by one formula), so there is "
              "nothing to balance between contracts.",
    "ohhell": "Oh Hell's contracts are the trump suit turned up, not a choice, so there is nothing to balance.",
}


def policy_bids(game: str, hands: np.ndarray, contracts: tuple[str, ...], rules: dict | None = None) -> np.ndarray:
    """What :class:`~trickcore.policies.HeuristicPolicy` bids first with each hand
    (``'pass'`` or a contract), asked through its own ``bid`` method.

    >>> from trickcore.cards import CardSet
    >>> policy_bids("goathead3", np.array([CardSet.parse("JC JS JH AC 10C KC").mask], dtype=np.uint64),
    ...             ("diamonds", "hearts", "nil", "spades", "clubs", "court")).tolist()
    ['clubs']
    """
    from trickcore.cards import CardSet
    from trickcore.games import get_game
    from trickcore.policies import HeuristicPolicy

    g = get_game(game)
    pol = HeuristicPolicy()
    full = g.check_rules(dict(rules or {}))
    out = []
    for m in np.asarray(hands, dtype=np.uint64):
        obs = SimpleNamespace(game=g.id, rules=full, layout=None, hand=CardSet(int(m)), n_seats=g.n_seats,
                              legal=[*contracts, "pass"], phase="bid", bids=[], seat=0, dealer=g.n_seats - 1)
        out.append(pol.bid(obs))
    return np.asarray(out, dtype=object)


def _base_table(game: str) -> dict[str, float] | None:
    if game in ("goathead3", "goathead4"):
        from trickcore.scoring.goathead import BASE

        return dict(BASE)
    return None


def _solve_bases(rows: list[tuple[str, np.ndarray, np.ndarray]], base: dict[str, float]) -> dict[str, float]:
    evs = {c: p.mean() for c, p, s in rows}
    slopes = {c: (p / s).mean() for c, p, s in rows}
    w = np.array([len(p) for _, p, _ in rows], dtype=float)
    target = float(np.dot(w, [evs[c] for c, _, _ in rows]) / w.sum())
    out = {"__target__": target}
    for c, _, _ in rows:
        out[c] = base[c] + (target - evs[c]) / slopes[c] if slopes[c] > 1e-9 else float("nan")
    return out


def _bid_frames(d: GameData, deals: np.ndarray, bids: np.ndarray, contracts) -> dict[str, "pd.DataFrame"]:
    """For each contract, the deals whose seat 0 bids it, after seat 0's heuristic kitty
    exchange (:func:`analysis.odds.heuristic_exchange`), solved double dummy and scored."""
    from ..odds import heuristic_exchange
    from ..simulate import evaluate

    n = d.g.n_seats
    out = {}
    for c in contracts:
        idx = np.flatnonzero(bids == c)
        if len(idx) < 5:
            continue
        dc = np.array(deals[idx], dtype=np.uint64)
        ex, new, buried = heuristic_exchange(d.game, c, dc[:, 0], dc[:, n], d.rules)
        dc[:, 0], dc[:, n] = new, buried
        out[c] = evaluate(d.game, c, dc, rules=d.rules, policy="dd", exchanged=ex, kitty=buried,
                          deal_index=idx)
    return out


def balancer_section(d: GameData) -> Section:
    sec = Section("Payout balancer")
    base = _base_table(d.game)
    if base is None or d.plan.primary_policy != "dd":
        sec.paragraphs.append(_NOT_APPLICABLE.get(d.game, "This game has no per-contract base payout to tune."))
        return sec
    contracts = tuple(d.plan.dd_contracts)
    n = d.plan.dd_deals
    deals = d.dd_deals()
    hands = deals[:, 0]
    bids = d._cached("policy_bids", lambda: policy_bids(d.game, hands, contracts, d.rules))
    frames = d._cached("balancer", lambda: _bid_frames(d, deals, bids, contracts))
    rows, table, made_of = [], [], {}
    for c in contracts:
        f = frames.get(c)
        if f is None or len(f) < 5:
            continue
        rows.append((c, declarer_payout(f), f["stake"].to_numpy(dtype=float)))
        made_of[c] = made_float(f["made"])
    if len(rows) < 2:
        sec.paragraphs.append(f"Too few hands bid a contract in {n} deals to balance (need 5 per contract).")
        return sec
    sol = _solve_bases(rows, base)
    rng = np.random.default_rng(d.seed)
    boots = []
    for _ in range(300):
        rs = []
        for c, p, s in rows:
            i = rng.integers(0, len(p), len(p))
            rs.append((c, p[i], s[i]))
        boots.append(_solve_bases(rs, base))
    for c, p, s in rows:
        ev = mean_ci(p)
        made = made_of[c]
        bs = np.array([b[c] for b in boots], dtype=float)
        lo, hi = (np.nanpercentile(bs, [2.5, 97.5]) if np.isfinite(bs).mean() > 0.9 else (np.nan, np.nan))
        table.append({"contract": c, "hands bid": len(p), "share of bids": len(p) / sum(len(r[1]) for r in rows),
                      "make rate": made.mean(), "current base": base[c],
                      "expected payout now": fmt_ci(ev["mean"], ev["lo"], ev["hi"]),
                      "suggested base": fmt_ci(sol[c], lo, hi, digits=2) if np.isfinite(sol[c]) else "none (loses more as the base grows)",
                      "_s": sol[c], "_lo": lo, "_hi": hi, "_ev": ev["mean"]})
    t = pd.DataFrame(table)
    passed = int((bids == "pass").sum())
    rare = [c for c in contracts if c not in set(t["contract"])]
    if rare:
        counts = ", ".join(f"{c} {int((bids == c).sum())}" for c in rare)
        sec.paragraphs.append(f"Not balanced (the policy bid them first with fewer than 5 of the {n} hands: "
                              f"{counts}); their base stays as it is.")
    sec.paragraphs += [
        "Which base payouts would make every contract worth the same to the player who bids it? For each of "
        f"the first {n} deals, the heuristic bidding policy is asked what seat 0 would bid first with its "
        f"dealt hand (it passed with {passed}); the hands that bid contract c then exchange with the kitty as "
        "the heuristic does (analysis.odds.heuristic_exchange; the other players do not exchange) and are "
        "solved double dummy. The declarer's payout p is proportional to the stake s = base + bonuses, so with a base b instead of the current "
        "b0 the expected payout is EV_c(b) = EV_c + (b − b0)·E[p/s], linear in b. The suggested base solves "
        f"EV_c(b) = T with T = {sol['__target__']:.3f}, the bid-weighted mean expected payout of all contracts "
        "at the current bases. Intervals: 2.5–97.5% bootstrap percentiles over the deals (300 resamples). "
        "Where the declarer is set more often than not (E[p/s] < 0), a larger base only makes the contract "
        "worse, so no base balances it; such a contract is marked.",
        "This is a suggestion for designers beside the current bases, not a rule change: double-dummy play "
        "favours the declarer (see the real-play section) and the policy bids with simple hand counts.",
    ]
    sec.tables.append(("Current and suggested base payouts", t.drop(columns=["_s", "_lo", "_hi", "_ev"])))
    fig, axes = figure(ncols=2)
    x = np.arange(len(t))
    axes[0][0].bar(x - 0.2, t["current base"], width=0.4, label="current")
    ok = np.isfinite(t["_s"].to_numpy(dtype=float))
    s_ = t["_s"].to_numpy(dtype=float)
    err = np.vstack([s_ - t["_lo"].to_numpy(dtype=float), t["_hi"].to_numpy(dtype=float) - s_])
    axes[0][0].bar(x[ok] + 0.2, s_[ok], width=0.4, yerr=np.nan_to_num(err[:, ok]), capsize=3, label="suggested")
    axes[0][0].set_xticks(x, t["contract"], rotation=30, ha="right")
    axes[0][0].set_ylabel("base payout")
    axes[0][0].legend(fontsize=7)
    axes[0][0].set_title("Base payout: current and suggested")
    axes[0][1].bar(x, t["_ev"], color="#c9773b")
    axes[0][1].axhline(sol["__target__"], color="k", ls="--", lw=1, label="target T")
    axes[0][1].set_xticks(x, t["contract"], rotation=30, ha="right")
    axes[0][1].set_ylabel("declarer's expected payout now")
    axes[0][1].legend(fontsize=7)
    axes[0][1].set_title("Expected payout of the hands that bid it")
    sec.figures.append(("Current against suggested base payouts (bootstrap 95% intervals) and each contract's "
                        "expected payout for the hands that bid it (n in the table).", fig))
    d.results["balancer"] = t.drop(columns=["_s", "_lo", "_hi", "_ev"])
    return sec
