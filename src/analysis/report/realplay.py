"""Double dummy against real play: how optimistic the double-dummy figures are."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from .common import made_float, row_value, CI_NOTE, figure, fmt_ci, mean_ci, paired, proportion
from .data import GameData
from .render import Section

__all__ = ["realplay_section", "pimc_rounds"]


def _round_pair(game: str, rules: dict, samples: int, seed: int) -> dict:
    from trickcore.games import get_game
    from trickcore.policies import HeuristicPolicy, PIMCPolicy
    from trickcore.rounds import play_round

    n = get_game(game).n_seats
    out = {"seed": seed}
    for tag, first in (("heuristic", HeuristicPolicy()), ("pimc", PIMCPolicy(samples=samples, seed=seed))):
        r = play_round(game, [first] + [HeuristicPolicy() for _ in range(n - 1)], seed=seed, **rules)
        out[f"{tag}_payout"] = float(r.payouts[0]) if r.payouts else 0.0
        out[f"{tag}_contract"] = r.contract
        out[f"{tag}_declarer"] = -1 if r.declarer is None else r.declarer
        made = r.scored.get("made") if r.scored else None
        out[f"{tag}_made"] = np.nan if made is None or made is pd.NA else float(bool(made))
        out[f"{tag}_side0"] = bool(r.side_mask & 1) if r.declarer is not None else False
    return out


def pimc_rounds(game: str, n_rounds: int, seed: int, *, rules: dict | None = None, samples: int = 8,
                n_jobs: int = -1) -> pd.DataFrame:
    """Rounds played twice from the same deal: seat 0 by the heuristic policy, then by PIMC
    (``samples`` double-dummy samples per card); every other seat heuristic.  Bids and
    exchanges are the heuristic's in both (PIMC delegates them), so the contract is the same
    and only seat 0's card play differs."""
    import joblib

    from ..engine import default_n_jobs

    seeds = [int(seed) * 7_919 + i for i in range(n_rounds)]
    task = functools.partial(_round_pair, game, dict(rules or {}), samples)
    jobs = min(default_n_jobs(n_jobs), max(1, n_rounds))
    res = [task(s) for s in seeds] if jobs <= 1 else joblib.Parallel(n_jobs=jobs)(joblib.delayed(task)(s) for s in seeds)
    return pd.DataFrame(res)


def _pimc_max_cards() -> int:
    from trickcore.policies import PIMCPolicy

    return int(PIMCPolicy().max_cards)


def realplay_section(d: GameData) -> Section:
    sec = Section("Double dummy against real play")
    rows = []
    if d.plan.dd_deals and not d.dd.empty:
        dd = d.dd
        pl = d.play[(d.play["deal"] < d.plan.dd_deals)]
        fig, axes = figure(ncols=2)
        labels, vals = [], []
        for c in dd["contract"].cat.categories:
            a = dd[dd["contract"] == c].sort_values("deal")
            b = pl[pl["contract"] == c].sort_values("deal")
            if a.empty or b.empty:
                continue
            b = b.set_index("deal").loc[a["deal"]].reset_index()
            ma, mb = made_float(a["made"]), made_float(b["made"])
            pa, pb = row_value(a), row_value(b)
            A, B, dm = proportion(ma), proportion(mb), paired(ma, mb)
            EA, EB, de = mean_ci(pa), mean_ci(pb), paired(pa, pb)
            rows.append({"contract": str(c), "n": A["n"], "make rate DD": fmt_ci(A["mean"], A["lo"], A["hi"]),
                         "make rate greedy": fmt_ci(B["mean"], B["lo"], B["hi"]),
                         "Δ make (DD − greedy)": fmt_ci(dm["mean"], dm["lo"], dm["hi"]),
                         "payout DD": fmt_ci(EA["mean"], EA["lo"], EA["hi"]),
                         "payout greedy": fmt_ci(EB["mean"], EB["lo"], EB["hi"]),
                         "Δ payout (DD − greedy)": fmt_ci(de["mean"], de["lo"], de["hi"])})
            labels.append(str(c))
            vals.append((A, B, EA, EB))
        x = np.arange(len(labels))
        for j, (k1, k2, title) in enumerate(((0, 1, "make rate"), (2, 3, "declarer's expected payout"))):
            ax = axes[0][j]
            for off, k, lab in ((-0.2, k1, "double dummy"), (0.2, k2, "greedy play")):
                m = np.array([v[k]["mean"] for v in vals])
                err = np.array([[v[k]["mean"] - v[k]["lo"] for v in vals], [v[k]["hi"] - v[k]["mean"] for v in vals]])
                ax.bar(x + off, m, width=0.4, yerr=np.nan_to_num(err), capsize=3, label=lab)
            ax.set_xticks(x, labels, rotation=30, ha="right")
            ax.set_ylabel(title)
            ax.axhline(0, color="#444", lw=0.6)
            ax.legend(fontsize=7)
        sec.paragraphs.append(
            f"The same {d.plan.dd_deals} deals, each contract played double dummy (every card visible, perfect "
            "play by both sides) and by the greedy play-out policy (one trick deep, the same policy at every seat). "
            "A positive Δ means double dummy credits the declarer with more than real play gives. " + CI_NOTE)
        sec.tables.append(("Double dummy against greedy play on the same deals", pd.DataFrame(rows)))
        sec.figures.append((f"Make rate and expected payout, double dummy against greedy play "
                            f"(n = {d.plan.dd_deals} deals per contract, 95% intervals).", fig))
        d.results["realplay"] = pd.DataFrame(rows)
    else:
        sec.paragraphs.append(
            "This game has no declaring side, so no double-dummy value describes one play of a deal (each seat's "
            "paranoid value assumes everyone else plays against it); the comparison below is between the "
            "heuristic and the double-dummy-informed PIMC policy in real rounds.")
    if d.plan.pimc_rounds:
        pr = d._cached("pimc", lambda: pimc_rounds(d.game, d.plan.pimc_rounds, d.seed, rules=d.rules,
                                                   samples=d.plan.pimc_samples, n_jobs=d.n_jobs))
        h, p = pr["heuristic_payout"].to_numpy(), pr["pimc_payout"].to_numpy()
        H, P, D = mean_ci(h), mean_ci(p), paired(p, h)
        prow = [{"seat 0 plays": "heuristic", "rounds": H["n"], "seat 0 payout": fmt_ci(H["mean"], H["lo"], H["hi"])},
                {"seat 0 plays": f"PIMC ({d.plan.pimc_samples} samples)", "rounds": P["n"],
                 "seat 0 payout": fmt_ci(P["mean"], P["lo"], P["hi"])},
                {"seat 0 plays": "Δ PIMC − heuristic (paired)", "rounds": D["n"],
                 "seat 0 payout": fmt_ci(D["mean"], D["lo"], D["hi"])}]
        decl = (pr["heuristic_declarer"] == 0) & pr["heuristic_made"].notna() & pr["pimc_made"].notna()
        if decl.any():
            mh, mp = proportion(pr.loc[decl, "heuristic_made"]), proportion(pr.loc[decl, "pimc_made"])
            prow[0]["make rate when seat 0 declares"] = fmt_ci(mh["mean"], mh["lo"], mh["hi"]) + f" (n={mh['n']})"
            prow[1]["make rate when seat 0 declares"] = fmt_ci(mp["mean"], mp["lo"], mp["hi"]) + f" (n={mp['n']})"
        sec.paragraphs.append(
            f"Real play on a small sample: {d.plan.pimc_rounds} whole rounds (bidding, exchanges, play) dealt from "
            "the same seeds are played twice, seat 0 once by the heuristic policy and once by PIMC (Perfect "
            f"Information Monte Carlo: {d.plan.pimc_samples} deals of the unseen cards consistent with what seat 0 "
            "has seen, each solved double dummy, the best average card played); every other seat is heuristic "
            "and bids are the heuristic's in both, so only seat 0's card play differs. PIMC is what double-dummy "
            "information is worth at a real table; the sample is small, so read the intervals. "
            f"PIMC solves a position only once at most {_pimc_max_cards()} cards remain in the hands (this game "
            f"deals {d.g.n_seats * d.g.hand_size}); before that it plays as the heuristic does.")
        sec.tables.append(("Heuristic against PIMC card play for seat 0, same deals", pd.DataFrame(prow)))
        d.results["pimc"] = pd.DataFrame(prow)
    return sec
