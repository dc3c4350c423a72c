"""Double dummy against real play: how optimistic the double-dummy figures are."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from .common import (
    CI_NOTE,
    figure,
    fmt_ci,
    made_float,
    mean_ci,
    paired,
    proportion,
    row_value,
)
from .data import GameData
from .render import Section

__all__ = ["realplay_section", "pimc_rounds"]


def _round_pair(game: str, rules: dict, samples: int, seed: int) -> dict:
    from trickcore.games import get_game
    from trickcore.policies import HeuristicPolicy, PIMCPolicy
    from trickcore.rounds import play_round

    n = get_game(game).n_seats
    out = {"seed": seed}
    # solve_bids=False: PIMC plays the cards only, so both runs reach the same contract
    pimc = PIMCPolicy(samples=samples, seed=seed, solve_bids=False)
    for tag, first in (("heuristic", HeuristicPolicy()), ("pimc", pimc)):
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
    exchanges are the heuristic's in both (``solve_bids=False`` leaves every decision before
    the play to PIMC's heuristic fallback), so the contract is the same and only seat 0's
    card play differs."""
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


def _dd_greedy_row(contract: str, made_dd, made_greedy, pay_dd, pay_greedy, made: str = "make rate",
                   dd_made: str = "DD") -> tuple[dict, tuple]:
    """One table row (and the bar values) comparing double dummy with greedy play on the
    same deals: rates, payouts and their paired differences."""
    A, B, dm = proportion(made_dd), proportion(made_greedy), paired(made_dd, made_greedy)
    EA, EB, de = mean_ci(pay_dd), mean_ci(pay_greedy), paired(pay_dd, pay_greedy)
    row = {"contract": str(contract), "n": A["n"], f"{made} {dd_made}": fmt_ci(A["mean"], A["lo"], A["hi"]),
           f"{made} greedy": fmt_ci(B["mean"], B["lo"], B["hi"]),
           f"Δ {made} (DD − greedy)": fmt_ci(dm["mean"], dm["lo"], dm["hi"]),
           "payout DD": fmt_ci(EA["mean"], EA["lo"], EA["hi"]), "payout greedy": fmt_ci(EB["mean"], EB["lo"], EB["hi"]),
           "Δ payout (DD − greedy)": fmt_ci(de["mean"], de["lo"], de["hi"])}
    return row, (A, B, EA, EB)


def _dd_greedy_bars(axes, labels: list[str], vals: list[tuple], titles: tuple[str, str], dd_label: str) -> None:
    """Two panels (rate, payout), a double-dummy and a greedy bar per contract with 95% intervals."""
    x = np.arange(len(labels))
    for j, (k1, k2, title) in enumerate(((0, 1, titles[0]), (2, 3, titles[1]))):
        ax = axes[0][j]
        for off, k, lab in ((-0.2, k1, dd_label), (0.2, k2, "greedy play")):
            m = np.array([v[k]["mean"] for v in vals])
            err = np.array([[v[k]["mean"] - v[k]["lo"] for v in vals], [v[k]["hi"] - v[k]["mean"] for v in vals]])
            ax.bar(x + off, m, width=0.4, yerr=np.nan_to_num(err), capsize=3, label=lab)
        ax.set_xticks(x, labels, rotation=30, ha="right")
        ax.set_ylabel(title)
        ax.axhline(0, color="#444", lw=0.6)
        ax.legend(fontsize=7)


def _hearts_dd(d: GameData, sec: Section) -> None:
    f = d.seat_dd
    k = d.plan.seat_dd_tricks
    n = len(f)
    g, p, diff = mean_ci(f["greedy_points"]), mean_ci(f["dd_points"]), paired(f["dd_points"], f["greedy_points"])
    cg, cp = proportion(f["greedy_points"] == 0), proportion(f["dd_points"] == 0)
    rows = [{"seat 0 in the last tricks": "greedy play (as the others)", "n": g["n"],
             "seat 0's penalty points": fmt_ci(g["mean"], g["lo"], g["hi"]),
             "P(seat 0 takes no point)": fmt_ci(cg["mean"], cg["lo"], cg["hi"])},
            {"seat 0 in the last tricks": "double dummy, alone against the other three", "n": p["n"],
             "seat 0's penalty points": fmt_ci(p["mean"], p["lo"], p["hi"]),
             "P(seat 0 takes no point)": fmt_ci(cp["mean"], cp["lo"], cp["hi"])},
            {"seat 0 in the last tricks": "Δ double dummy − greedy (paired)", "n": diff["n"],
             "seat 0's penalty points": fmt_ci(diff["mean"], diff["lo"], diff["hi"]), "P(seat 0 takes no point)": ""}]
    sec.paragraphs.append(
        f"Double dummy on shortened positions — the last {k} tricks after a greedy opening. A paranoid solve of a "
        "full 13-card Hearts deal (seat 0 alone against the other three) takes seconds to many minutes, so on "
        f"the first {n} deals of this page every seat plays the first {13 - k} tricks with the greedy play-out "
        f"policy and the last {k} tricks are solved exactly from the real position (cards played, so whether "
        "hearts are broken, "
        "and who leads): the fewest penalty points seat 0 can hold itself to when the other three, seeing every "
        "card, try to load points on it. Its points from the opening are added. The greedy row plays the same "
        "deals to the end with the greedy policy (the same opening), so the Δ is paired. Double dummy here is "
        "pessimistic about the opponents (real opponents also protect themselves) and optimistic about seat 0's "
        f"own play; hearts were already broken in {int(f['hearts_broken'].sum())} of the {n} positions. " + CI_NOTE)
    sec.tables.append((f"Hearts, seat 0: greedy play against double dummy in the last {k} tricks "
                       "(penalty points, lower is better)", pd.DataFrame(rows)))
    fig, axes = figure(ncols=2)
    bins = np.arange(0, 27) - 0.5
    axes[0][0].hist([f["greedy_points"], f["dd_points"]], bins=bins, label=["greedy", f"double dummy, last {k}"])
    axes[0][0].set_xlabel("seat 0's penalty points")
    axes[0][0].set_ylabel("deals")
    axes[0][0].legend(fontsize=7)
    delta = (f["dd_points"] - f["greedy_points"]).to_numpy()
    axes[0][1].hist(delta, bins=np.arange(delta.min(), delta.max() + 2) - 0.5, color="#7a9a4a")
    axes[0][1].axvline(0, color="k", lw=0.8)
    axes[0][1].set_xlabel("double dummy − greedy, per deal")
    axes[0][1].set_ylabel("deals")
    sec.figures.append((f"Seat 0's penalty points per deal, greedy play against double dummy in the last {k} "
                        f"tricks after the same greedy opening (n = {n} deals).", fig))
    d.results["realplay"] = pd.DataFrame(rows)


def _ohhell_dd(d: GameData, sec: Section) -> None:
    f = d.seat_dd
    hs = d.seat_dd_hand_size
    rows, labels, vals = [], [], []
    for c, sub in f.groupby("contract", sort=False):
        row, v = _dd_greedy_row(c, sub["dd_made"], sub["greedy_made"], sub["dd_payout"], sub["greedy_payout"],
                                made="bid made", dd_made="DD (makeable)")
        rows.append(row)
        labels.append(str(c))
        vals.append(v)
    n = int(f["deal"].nunique())
    sec.paragraphs.append(
        f"Double dummy: {n} deals of {hs} cards each (the game's hand_size option; a paranoid solve of a "
        f"{hs}-card hand by the trick-count kernel takes milliseconds). Seat 0 bids what the "
        "heuristic policy bids. Double dummy, the bid is makeable when it lies between the fewest and the most "
        "tricks seat 0 can force alone against the other three (all cards seen) — a bound that is optimistic "
        "about seat 0 and pessimistic about opponents who in real play chase their own bids; the payout is the "
        "scorer's for that bid (analysis.bids). Greedy: the same deals played out, every seat bidding by the "
        "heuristic; made means seat 0 took exactly its bid. " + CI_NOTE)
    sec.tables.append((f"Oh Hell, {hs} cards, seat 0's heuristic bid: double dummy against greedy play",
                       pd.DataFrame(rows)))
    fig, axes = figure(ncols=2)
    _dd_greedy_bars(axes, labels, vals, ("seat 0's bid made", "seat 0's expected payout"), "double dummy (makeable)")
    sec.figures.append((f"Oh Hell with {hs} cards: seat 0's heuristic bid, double dummy against greedy play "
                        f"(n = {n} deals per contract, 95% intervals).", fig))
    d.results["realplay"] = pd.DataFrame(rows)


def _seat_dd_part(d: GameData, sec: Section) -> None:
    """The double-dummy figures of a game without a declaring side (:mod:`.seatdd`)."""
    if d.game == "hearts":
        _hearts_dd(d, sec)
    elif d.game == "ohhell":
        _ohhell_dd(d, sec)
    else:
        raise ValueError(f"{d.game} has no per-seat double-dummy figures")


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
            row, v = _dd_greedy_row(c, made_float(a["made"]), made_float(b["made"]), row_value(a), row_value(b))
            rows.append(row)
            labels.append(str(c))
            vals.append(v)
        _dd_greedy_bars(axes, labels, vals, ("make rate", "declarer's expected payout"), "double dummy")
        sec.paragraphs.append(
            f"The same {d.plan.dd_deals} deals, each contract played double dummy (every card visible, perfect "
            "play by both sides) and by the greedy play-out policy (one trick deep, the same policy at every seat). "
            "A positive Δ means double dummy credits the declarer with more than real play gives. " + CI_NOTE)
        sec.tables.append(("Double dummy against greedy play on the same deals", pd.DataFrame(rows)))
        sec.figures.append((f"Make rate and expected payout, double dummy against greedy play "
                            f"(n = {d.plan.dd_deals} deals per contract, 95% intervals).", fig))
        d.results["realplay"] = pd.DataFrame(rows)
    elif d.plan.seat_dd_deals:
        _seat_dd_part(d, sec)
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
            f"deals {d.g.n_seats * d.g.hand_size}); before that it plays as the heuristic does."
            + (" The unseen cards are dealt in proportion to how well they fit the other seats' trick bids "
               "(bid inference: a seat that bid nil gets few high cards)." if d.game in ("spades", "ohhell", "gamut")
               else ""))
        sec.tables.append(("Heuristic against PIMC card play for seat 0, same deals", pd.DataFrame(prow)))
        d.results["pimc"] = pd.DataFrame(prow)
    return sec
