"""Match-level balance: full simulated matches with the heuristic policy at every seat."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .common import CI_NOTE, figure, fmt_ci, mean_ci, proportion
from .data import GameData
from .render import Section

__all__ = ["matches_section"]


def matches_section(d: GameData) -> Section:
    sec = Section("Match-level balance")
    mt, rd = d.matches()
    n_seats = d.g.n_seats
    if mt.empty:
        sec.paragraphs.append("No matches were played (the plan has none).")
        return sec
    n = len(mt)
    sec.paragraphs.append(
        f"{n} whole matches played by the heuristic policy at every seat (bidding, exchanges, partner calls "
        "and card play by the game's usual rules of thumb), with the game's default end (fixed rounds or a "
        f"target score). Match i is dealt from seed {d.seed}·1000003 + i; seat 0 deals the first round and the deal "
        "rotates left. A tied win counts for every tied winner. " + CI_NOTE)
    rows = []
    for s in range(n_seats):
        w = proportion(mt[f"win_{s}"])
        sc = mean_ci(mt[f"score_{s}"])
        rows.append({"seat": s, "matches": n, "win rate": fmt_ci(w["mean"], w["lo"], w["hi"]),
                     "mean final score": fmt_ci(sc["mean"], sc["lo"], sc["hi"], digits=2),
                     "_w": w["mean"], "_lo": w["lo"], "_hi": w["hi"]})
    wt = pd.DataFrame(rows)
    sec.tables.append(("Win rate and final score per seat", wt.drop(columns=["_w", "_lo", "_hi"])))
    rl = mean_ci(mt["rounds"])
    played = rd[~rd["thrown_in"]]
    sec.paragraphs.append(
        f"Rounds per match: {fmt_ci(rl['mean'], rl['lo'], rl['hi'], 2)} (n = {n} matches; min {mt['rounds'].min()}, "
        f"max {mt['rounds'].max()}); {int(rd['thrown_in'].sum())} of {len(rd)} rounds were thrown in.")
    crow = []
    for c, sub in played.groupby("contract", dropna=False, sort=False):
        made = pd.to_numeric(sub["made"], errors="coerce")
        p = proportion(made.dropna().astype(bool)) if made.notna().any() else {"n": 0, "mean": np.nan, "lo": np.nan, "hi": np.nan}
        decl = sub["declarer"].to_numpy()
        pay = sub[[f"payout_{s}" for s in range(n_seats)]].to_numpy(dtype=float)
        dp = np.where(decl >= 0, pay[np.arange(len(sub)), np.clip(decl, 0, None)], np.nan)
        e = mean_ci(dp) if np.isfinite(dp).any() else {"mean": np.nan, "lo": np.nan, "hi": np.nan}
        crow.append({"contract": str(c), "rounds": len(sub), "share of rounds": len(sub) / max(1, len(played)),
                     "make rate": fmt_ci(p["mean"], p["lo"], p["hi"]) if p["n"] else "–",
                     "declarer's mean payout": fmt_ci(e["mean"], e["lo"], e["hi"], 2),
                     "_m": p["mean"], "_mlo": p["lo"], "_mhi": p["hi"]})
    ct = pd.DataFrame(crow).sort_values("rounds", ascending=False).reset_index(drop=True)
    sec.tables.append(("How often each contract is played and made (heuristic matches)", ct.drop(columns=["_m", "_mlo", "_mhi"])))
    if "turned" in played and played["turned"].notna().any():
        grows = []
        for t, sub in played.groupby("turned", sort=False):
            pay = sub[[f"payout_{s}" for s in range(n_seats)]].to_numpy(dtype=float)
            tot = mean_ci(pay.sum(axis=1))
            spread = mean_ci(pay.max(axis=1) - pay.min(axis=1))
            grows.append({"turned card picks": t, "rounds": len(sub), "share of rounds": len(sub) / len(played),
                          "games played": ", ".join(f"{k} {v}" for k, v in sub["contract"].value_counts().items()),
                          "points handed out per round (all seats)": fmt_ci(tot["mean"], tot["lo"], tot["hi"], 2),
                          "best − worst seat per round": fmt_ci(spread["mean"], spread["lo"], spread["hi"], 2)})
        gt = pd.DataFrame(grows)
        sec.tables.append(("Gamut's four games as the turned card picks them (Diamonds: a player chooses)", gt))
        d.results["gamut_games"] = gt
    fig, axes = figure(ncols=3, width=4.0, height=3.2)
    ax = axes[0][0]
    err = np.vstack([wt["_w"] - wt["_lo"], wt["_hi"] - wt["_w"]])
    ax.bar(wt["seat"], wt["_w"], yerr=err, capsize=3, color="#4a7bb7")
    ax.axhline(1 / n_seats, color="k", ls="--", lw=1, label="fair share")
    ax.set_xticks(range(n_seats), [f"seat {s}" for s in range(n_seats)])
    ax.set_ylabel("match win rate")
    ax.legend(fontsize=7)
    ax.set_title(f"Win rate per seat (n={n})")
    ax = axes[0][1]
    ax.hist(mt["rounds"], bins=np.arange(mt["rounds"].min(), mt["rounds"].max() + 2) - 0.5, color="#7a9a4a")
    ax.set_xlabel("rounds per match")
    ax.set_ylabel("matches")
    ax.set_title("Match length")
    ax = axes[0][2]
    x = np.arange(len(ct))
    ax.bar(x, ct["share of rounds"], color="#c9773b", label="share of rounds")
    ax2 = ax.twinx()
    ok = ct["_m"].notna().to_numpy()
    if ok.any():
        m = ct["_m"].to_numpy(dtype=float)
        e2 = np.vstack([m - ct["_mlo"].to_numpy(dtype=float), ct["_mhi"].to_numpy(dtype=float) - m])
        ax2.errorbar(x[ok], m[ok], yerr=e2[:, ok], fmt="o", color="#222", capsize=3, label="make rate")
        ax2.set_ylim(0, 1.05)
        ax2.set_ylabel("make rate")
    ax.set_xticks(x, ct["contract"], rotation=40, ha="right", fontsize=7)
    ax.set_ylabel("share of rounds")
    ax.set_title("Contracts played / made")
    sec.figures.append((f"Match win rate per seat, match length and contracts played and made "
                        f"({n} heuristic matches, {len(played)} rounds played).", fig))
    d.results["matches"] = {"win": wt.drop(columns=["_w", "_lo", "_hi"]), "rounds": rl, "contracts": ct.drop(columns=["_m", "_mlo", "_mhi"]),
                            "n": n}
    return sec
