"""Make rate against the declarer's hand features: trumps held, card points, top trumps."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .common import made_float, figure, fmt_ci, proportion, mean_ci, is_per_seat
from .data import GameData, declarer_payout
from .render import Section

__all__ = ["hand_features", "features_section"]

#: Bridge-style high-card points, for contracts whose cards carry no points.
_HCP = {12: 4, 11: 3, 10: 2, 9: 1}


def _count(masks: np.ndarray, cards: list[int]) -> np.ndarray:
    out = np.zeros(len(masks), dtype=np.int64)
    for c in cards:
        out += ((masks >> np.uint64(c)) & np.uint64(1)).astype(np.int64)
    return out


def hand_features(game: str, contract: str, hands: np.ndarray, rules: dict | None = None) -> pd.DataFrame:
    """Per hand: ``trumps`` held, ``top trumps`` (the four highest trumps), ``card points``
    (the contract's card points; high-card points A4 K3 Q2 J1 where cards carry none).
    Contracts without trumps count aces as their "trumps" and the top four cards of every
    suit as their "top trumps".

    >>> from trickcore.cards import CardSet
    >>> f = hand_features("goathead3", "hearts", np.array([CardSet.parse("JC JS AH 10H AC KD").mask], dtype=np.uint64))
    >>> f.iloc[0].tolist()
    [4, 2, 40]
    """
    from trickcore.games import get_game

    lay = get_game(game).layout(contract, **{k: v for k, v in (rules or {}).items() if k in get_game(game).options})
    hands = np.asarray(hands, dtype=np.uint64)
    if lay.trump:
        trumps = [int(c) for c in lay.suits[-1]]
        top = trumps[-4:]
    else:
        trumps = [int(s[-1]) for s in lay.suits]
        top = [int(c) for s in lay.suits for c in s[-4:]]
    table = lay.point_table().astype(np.int64)
    pts = np.zeros(len(hands), dtype=np.int64)
    if table.any():
        for c in np.flatnonzero(table):
            pts += ((hands >> np.uint64(c)) & np.uint64(1)).astype(np.int64) * int(table[c])
    else:
        for c in [int(x) for x in lay.deck]:
            w = _HCP.get(c % 16, 0)
            if w:
                pts += ((hands >> np.uint64(c)) & np.uint64(1)).astype(np.int64) * w
    return pd.DataFrame({"trumps": _count(hands, trumps), "top trumps": _count(hands, top), "card points": pts})


def features_section(d: GameData) -> Section:
    f = d.primary
    if (~is_per_seat(f)).any():  # contracts with a declarer: make rates (per-seat ones have none)
        f = f[~is_per_seat(f)]
    per_seat = bool(is_per_seat(f).all())
    metric = "seat 0's expected payout" if per_seat else "make rate"
    sec = Section("Make rate against hand features")
    sec.paragraphs.append(
        ("Seat 0's expected payout by what its own hand holds" if per_seat else
         "The declarer's (seat 0's) make rate by what its hand holds") + f", on the deals above ({d.primary_label})."
        " Contracts without a declarer are left out where others have one. For contracts without trumps, 'trumps' counts aces and "
        "'top trumps' the top four cards of every suit; where cards carry no points, 'card points' are "
        "high-card points (A 4, K 3, Q 2, J 1). Points are grouped in bins; a group is shown only "
        "with at least 10 deals. Bars are 95% intervals.")
    contracts = [c for c in f["contract"].cat.categories if (f["contract"] == c).any()]
    feats = ("trumps", "top trumps", "card points")
    fig, axes = figure(ncols=3, width=4.2, height=3.3)
    rows = []
    dp = f["payout_0"].to_numpy(dtype=float) if per_seat else declarer_payout(f)
    for c in contracts:
        m = (f["contract"] == c).to_numpy()
        sub = f[m]
        hf = hand_features(d.game, c, sub["hand_0"].to_numpy(dtype=np.uint64), d.rules)
        y = dp[m] if per_seat else made_float(sub["made"])
        for j, feat in enumerate(feats):
            v = hf[feat].to_numpy()
            if feat == "card points" and len(np.unique(v)) > 10:
                edges = np.unique(np.quantile(v, np.linspace(0, 1, 9)))
                b = np.clip(np.searchsorted(edges, v, side="right") - 1, 0, len(edges) - 2)
                centers = {i: (edges[i] + edges[i + 1]) / 2 for i in range(len(edges) - 1)}
                labels = {i: f"{edges[i]:g}–{edges[i + 1]:g}" for i in range(len(edges) - 1)}
            else:
                b = v
                centers = {u: u for u in np.unique(v)}
                labels = {u: f"{u:g}" for u in np.unique(v)}
            xs, ms, los, his = [], [], [], []
            for key in sorted(centers):
                sel = b == key
                if sel.sum() < 10:
                    continue
                s = mean_ci(y[sel]) if per_seat else proportion(y[sel])
                xs.append(centers[key]); ms.append(s["mean"]); los.append(s["lo"]); his.append(s["hi"])
                rows.append({"contract": str(c), "feature": feat, "value": labels[key], "n": s["n"],
                             metric: fmt_ci(s["mean"], s["lo"], s["hi"])})
            if xs:
                ms_a = np.asarray(ms)
                axes[0][j].errorbar(xs, ms_a, yerr=[ms_a - np.asarray(los), np.asarray(his) - ms_a], marker="o",
                                    ms=3, capsize=2, label=str(c))
    for j, feat in enumerate(feats):
        ax = axes[0][j]
        ax.set_xlabel(f"{feat} held by seat 0")
        ax.set_ylabel(metric)
        if not per_seat:
            ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    sec.figures.append((f"{metric.capitalize()} by trumps held, top trumps held and card points "
                        f"(n per point in the table).", fig))
    if rows:
        t = pd.DataFrame(rows)
        t["cell"] = t[metric] + " (n=" + t["n"].astype(str) + ")"
        order = {v: i for i, v in enumerate(dict.fromkeys(t["value"]))}
        wide = t.pivot_table(index=["feature", "value"], columns="contract", values="cell", aggfunc="first",
                             sort=False).reindex(columns=[str(c) for c in contracts if str(c) in set(t["contract"])])
        wide = wide.reset_index()
        wide["_f"] = wide["feature"].map({f: i for i, f in enumerate(feats)})
        wide["_v"] = wide["value"].map(order)
        wide = wide.sort_values(["_f", "_v"]).drop(columns=["_f", "_v"]).fillna("–")
        wide.columns.name = None
        sec.tables.append((f"{metric.capitalize()} by hand feature (rows) and contract (columns)", wide.reset_index(drop=True)))
    return sec
