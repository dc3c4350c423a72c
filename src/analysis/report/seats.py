"""Seat and lead advantage: the same deals with another player on lead; payouts per seat."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .common import made_float, CI_NOTE, figure, fmt_ci, is_per_seat, mean_ci, paired, proportion
from .data import GameData, declarer_payout
from .render import Section

__all__ = ["seats_section"]


def seats_section(d: GameData) -> Section:
    sec = Section("Seat and lead advantage")
    n_seats = d.g.n_seats
    f = d.primary
    decl_contracts = [c for c in f["contract"].cat.categories
                      if ((f["contract"] == c) & ~is_per_seat(f)).any()]
    if decl_contracts and d.plan.seat_deals:
        sec.paragraphs.append(
            f"The first {d.plan.seat_deals} deals are played again ({d.primary_label}) with each other seat on "
            "lead to the first trick; the declarer is seat 0 throughout, so 'leader k' is the player k seats "
            "after the declarer. Differences are paired on the same deals. " + CI_NOTE)
        base = d.reevaluate("seat:0", decl_contracts, d.plan.seat_deals, leader=0)
        rows = []
        curves = {c: [] for c in decl_contracts}
        for k in range(n_seats):
            fk = base if k == 0 else d.reevaluate(f"seat:{k}", decl_contracts, d.plan.seat_deals, leader=k)
            dpk, dp0 = declarer_payout(fk), declarer_payout(base)
            for c in decl_contracts:
                mk = (fk["contract"] == c).to_numpy()
                m0 = (base["contract"] == c).to_numpy()
                made_k = made_float(fk.loc[mk, "made"])
                made_0 = made_float(base.loc[m0, "made"])
                p = proportion(made_k)
                e = mean_ci(dpk[mk])
                row = {"contract": c, "leader": k, "n": p["n"], "make rate": fmt_ci(p["mean"], p["lo"], p["hi"]),
                       "expected payout": fmt_ci(e["mean"], e["lo"], e["hi"])}
                if k:
                    dm, de = paired(made_k, made_0), paired(dpk[mk], dp0[m0])
                    row["Δ make vs declarer leads"] = fmt_ci(dm["mean"], dm["lo"], dm["hi"])
                    row["Δ payout vs declarer leads"] = fmt_ci(de["mean"], de["lo"], de["hi"])
                rows.append(row)
                curves[c].append((k, p["mean"], p["lo"], p["hi"], e["mean"], e["lo"], e["hi"]))
        sec.tables.append(("Declarer's results by who leads to the first trick", pd.DataFrame(rows)))
        fig, axes = figure(ncols=2)
        for c, pts in curves.items():
            a = np.asarray(pts, dtype=float)
            axes[0][0].errorbar(a[:, 0], a[:, 1], yerr=[a[:, 1] - a[:, 2], a[:, 3] - a[:, 1]], marker="o", capsize=3, label=str(c))
            axes[0][1].errorbar(a[:, 0], a[:, 4], yerr=[a[:, 4] - a[:, 5], a[:, 6] - a[:, 4]], marker="o", capsize=3, label=str(c))
        for ax, lab in zip(axes[0], ("make rate", "declarer's expected payout")):
            ax.set_xticks(range(n_seats), ["declarer"] + [f"+{k}" for k in range(1, n_seats)])
            ax.set_xlabel("seat on lead (relative to the declarer)")
            ax.set_ylabel(lab)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        sec.figures.append((f"Make rate and expected payout by the seat on lead (n = {d.plan.seat_deals} deals per point).", fig))
        d.results["lead"] = pd.DataFrame(rows)
    # payouts per seat where rounds are scored per seat (every seat for itself)
    ps = d.play[is_per_seat(d.play)] if not d.play.empty else d.play
    if not ps.empty:
        rows = []
        fig, axes = figure()
        ax = axes[0][0]
        contracts = [c for c in ps["contract"].cat.categories if (ps["contract"] == c).any()]
        width = 0.8 / max(1, len(contracts))
        for j, c in enumerate(contracts):
            sub = ps[ps["contract"] == c]
            ms = []
            for s in range(n_seats):
                st = mean_ci(sub[f"payout_{s}"])
                ms.append(st)
                rows.append({"contract": c, "seat": s, "n": st["n"], "expected payout": fmt_ci(st["mean"], st["lo"], st["hi"])})
            mean = np.array([m["mean"] for m in ms])
            err = np.array([[m["mean"] - m["lo"] for m in ms], [m["hi"] - m["mean"] for m in ms]])
            ax.bar(np.arange(n_seats) + j * width, mean, width=width, yerr=err, capsize=3, label=str(c))
        ax.set_xticks(np.arange(n_seats) + 0.4 - width / 2, [f"seat {s}" + (" (leads)" if s == 0 else "") for s in range(n_seats)])
        ax.set_ylabel("expected payout per round")
        ax.axhline(0, color="#444", lw=0.6)
        ax.legend(fontsize=7)
        sec.paragraphs.append(
            "Contracts without a declarer are scored per seat: the expected payout of each seat on the same "
            f"{d.plan.play_deals} deals played out greedily, seat 0 leading to the first trick (unless a rule "
            "makes the holder of a given card lead)." + (" Payouts are penalty points (lower is better)."
                                                          if d.game in ("hearts",) else ""))
        sec.tables.append(("Expected payout per seat (greedy play-outs)", pd.DataFrame(rows)))
        sec.figures.append((f"Expected payout per seat, 95% intervals (n = {d.plan.play_deals} deals).", fig))
    if not sec.tables:
        sec.paragraphs.append("No seat-dependent figure is defined for this game's analysed contracts.")
    sec.paragraphs.append("Seat advantage over whole matches (win rate per seat) is in the match section below.")
    return sec
