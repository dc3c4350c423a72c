"""Contract make rates and expected payouts, and score distributions."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .common import CI_NOTE, contract_summary, figure, is_per_seat, row_value, shown
from .data import GameData
from .render import Section

__all__ = ["contracts_section", "distribution_section"]


def _bars(ax, labels, means, los, his, ylabel, color):
    x = np.arange(len(labels))
    means = np.asarray(means, dtype=float)
    err = np.vstack([means - np.asarray(los, dtype=float), np.asarray(his, dtype=float) - means])
    ax.bar(x, means, color=color, yerr=np.nan_to_num(err), capsize=4)
    ax.set_xticks(x, labels, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.axhline(0, color="#444", lw=0.6)


def contracts_section(d: GameData) -> Section:
    """Make rate and expected payout of every contract, with 95% intervals."""
    frames = [d.primary]
    extra = None
    if d.plan.primary_policy == "dd" and not d.play.empty:  # per-seat contracts are only played out
        extra = d.play[is_per_seat(d.play) & ~d.play["contract"].isin(list(d.plan.dd_contracts))]
    summ = contract_summary(d.primary)
    summ.insert(1, "play", d.primary_label)
    if extra is not None and not extra.empty:
        es = contract_summary(extra)
        es.insert(1, "play", "greedy play-outs")
        summ = pd.concat([summ, es], ignore_index=True)
        frames.append(extra)
    sec = Section("Contracts: make rate and expected payout")
    sec.paragraphs.append(
        f"Every contract is evaluated on the same {d.plan.dd_deals if d.plan.primary_policy == 'dd' else d.plan.play_deals} "
        f"random deals ({d.primary_label}); "
        + ("seat 0 (left of the dealer) declares and leads, plays the dealt hand without a kitty exchange, and "
           "the kitty's card points count as the rules say. " if (~is_per_seat(d.primary)).any() else
           "seat 0 (left of the dealer) leads and every seat plays its dealt hand. ") +
        "The expected payout is the declarer's (for contracts without a declarer, seat 0's) "
        "payout per round in the game's own units. " + CI_NOTE)
    sec.paragraphs.extend(d.plan.notes)
    table = shown(summ, {"contract": "contract", "play": "play", "n": "n", "make": "make rate",
                         "ev": "expected payout", "points": "declarer's points"})
    sec.tables.append(("Per contract", table))
    has_make = summ["make"].notna().any()
    fig, axes = figure(ncols=2 if has_make else 1)
    labels = [str(c) for c in summ["contract"]]
    k = 0
    if has_make:
        _bars(axes[0][0], labels, summ["make"], summ["make_lo"], summ["make_hi"], "make rate", "#4a7bb7")
        axes[0][0].set_ylim(0, 1)
        axes[0][0].set_title("Make rate (95% interval)")
        k = 1
    _bars(axes[0][k], labels, summ["ev"], summ["ev_lo"], summ["ev_hi"], "expected payout", "#c9773b")
    axes[0][k].set_title("Expected payout (95% interval)")
    sec.figures.append((f"Make rate and expected payout per contract (n per contract in the table; {d.primary_label}).", fig))
    d.results["contracts"] = summ
    return sec


def distribution_section(d: GameData) -> Section:
    """Distributions of the declarer's payout and card points per contract."""
    f = d.primary
    sec = Section("Score distributions")
    sec.paragraphs.append(
        "How the round's result is spread, per contract, on the same deals as above "
        f"({d.primary_label}). Payouts are the declarer's; contracts without a declarer show seat 0's.")
    contracts = [c for c in f["contract"].cat.categories if (f["contract"] == c).any()]
    pay = row_value(f)
    fig, axes = figure(ncols=2, width=5.4)
    ax = axes[0][0]
    vals = sorted(set(np.round(pay[np.isfinite(pay)], 3)))
    rows = []
    for c in contracts:
        m = (f["contract"] == c).to_numpy()
        x = pay[m]
        x = x[np.isfinite(x)]
        rows.append({"contract": c, "n": len(x), "mean": x.mean(), "sd": x.std(ddof=1) if len(x) > 1 else np.nan,
                     "min": x.min(), "median": float(np.median(x)), "max": x.max(),
                     "P(payout > 0)": float((x > 0).mean())})
    if len(vals) <= 25:
        # discrete payouts: one thin bar per contract beside each value actually taken
        step = min(np.diff(vals)) if len(vals) > 1 else 1.0
        width = 0.8 * step / max(1, len(contracts))
        for j, c in enumerate(contracts):
            m = (f["contract"] == c).to_numpy()
            x = pay[m]
            x = x[np.isfinite(x)]
            u, cnt = np.unique(np.round(x, 3), return_counts=True)
            ax.bar(u + (j - (len(contracts) - 1) / 2) * width, cnt / max(1, len(x)), width=width, label=str(c))
    else:
        for c in contracts:
            m = (f["contract"] == c).to_numpy()
            ax.hist(pay[m][np.isfinite(pay[m])], bins=30, histtype="step", density=True, label=str(c))
    ax.set_xlabel("payout (declarer, or seat 0)")
    ax.set_ylabel("share of deals")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7)
    ax.set_title("Payout per round")
    ax = axes[0][1]
    if "declarer_points" in f and not is_per_seat(f).any() and pd.to_numeric(f["declarer_points"], errors="coerce").notna().any():
        pts = pd.to_numeric(f["declarer_points"], errors="coerce").to_numpy(dtype=float)
        for c in contracts:
            m = (f["contract"] == c).to_numpy()
            ax.hist(pts[m][np.isfinite(pts[m])], bins=24, histtype="step", density=True, label=str(c))
        ax.set_xlabel("declarer's count (card points incl. kitty, or tricks)")
        ax.set_title("Declarer's count")
    else:
        col = "points_0" if "points_0" in f and f["points_0"].abs().sum() > 0 else "tricks_0"
        if col in f:
            for c in contracts:
                m = (f["contract"] == c).to_numpy()
                ax.hist(f.loc[m, col].to_numpy(dtype=float), bins=20, histtype="step", density=True, label=str(c))
            ax.set_xlabel(col.replace("_0", " taken by seat 0"))
            ax.set_title("Seat 0's take")
        else:
            side = f["side_tricks"].to_numpy(dtype=float)
            for c in contracts:
                m = (f["contract"] == c).to_numpy()
                ax.hist(side[m], bins=np.arange(side.max() + 2) - 0.5, histtype="step", density=True, label=str(c))
            ax.set_xlabel("tricks taken by the declarer's side")
            ax.set_title("Declarer side's tricks")
    ax.legend(fontsize=7)
    sec.figures.append((f"Distribution of the round's result per contract (n = {len(f['deal'].unique())} deals each).", fig))
    sec.tables.append(("Payout distribution per contract", pd.DataFrame(rows)))
    return sec
