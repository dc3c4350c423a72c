"""Rule-variant deltas: each named rule option's effect, paired on common deals.

An option is measured where it acts:

* it changes the layout (card points, lead rules, hand size): the deals are re-solved
  (re-played) under it;
* it changes only the scoring: the *same* solved deals are re-scored under it
  (:func:`trickcore.scoring.score` is vectorised, nothing is re-solved);
* it changes neither a single deal's play nor its score (bidding, throw-ins, match length):
  whole matches are replayed under it with the same seeds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .common import made_float, CI_NOTE, figure, fmt_ci, is_per_seat, mean_ci, paired
from .data import GameData, declarer_payout
from .render import Section

__all__ = ["variants_section", "option_values"]

#: Options with many values are numeric settings; these alternatives are tried.
_NUMERIC_TRIES = {"hand_size": (5, 13)}


def option_values(game, base: Mapping[str, Any] | None = None) -> list[tuple[str, object, object]]:
    """``(name, base value, alternative)`` for every option value the report flips: from
    ``base`` (the report's rules), else from the option's default (the rulings).

    >>> from trickcore.games import get_game
    >>> [(n, a) for n, _, a in option_values(get_game("goathead3"))][:2]
    [('kitty_points', 'if_exchanged'), ('no_exchange_bonus', 'won_only')]
    >>> [(b, a) for n, b, a in option_values(get_game("goathead3"), {"steal": False}) if n == "steal"]
    [(False, True)]
    """
    base = dict(base or {})
    out = []
    for name, opt in game.options.items():
        current = base.get(name, opt.default)
        if len(opt.choices) > 4:
            tries = [opt.default, *_NUMERIC_TRIES.get(name, ())]
            alts = list(dict.fromkeys(v for v in tries if v in opt.choices and v != current))
        else:
            alts = [v for v in opt.choices if v != current]
        out += [(name, current, v) for v in alts]
    return out


def _value(frame: pd.DataFrame, per_seat: np.ndarray) -> np.ndarray:
    dp = declarer_payout(frame)
    return np.where(per_seat, frame["payout_0"].to_numpy(dtype=float), dp)


def _delta_rows(name, value, kind, base: pd.DataFrame, alt: pd.DataFrame, paired_deals: bool) -> list[dict]:
    rows = []
    for c in base["contract"].cat.categories:
        mb = (base["contract"] == c).to_numpy()
        ma = (alt["contract"] == c).to_numpy()
        if not mb.any() or not ma.any():
            continue
        b, a = base[mb], alt[ma]
        ps_b = is_per_seat(b).to_numpy()
        vb, va = _value(b, ps_b), _value(a, is_per_seat(a).to_numpy())
        if paired_deals:
            a = a.set_index("deal").loc[b["deal"]]
            va = _value(a.reset_index(), ps_b)
            dv = paired(va, vb)
            dm = paired(made_float(a["made"]), made_float(b["made"])) if not ps_b.all() else None
        else:  # different deals (the option changes the deal itself): Welch-style interval
            sa, sb = mean_ci(va), mean_ci(vb)
            half = np.hypot(sa["hi"] - sa["mean"], sb["hi"] - sb["mean"])
            dv = {"n": min(sa["n"], sb["n"]), "mean": sa["mean"] - sb["mean"]}
            dv["lo"], dv["hi"] = dv["mean"] - half, dv["mean"] + half
            dm = None
            if not ps_b.all():
                from .common import proportion
                pa, pb = proportion(a["made"]), proportion(b["made"])
                h = np.hypot(pa["hi"] - pa["mean"], pb["hi"] - pb["mean"])
                dm = {"mean": pa["mean"] - pb["mean"], "lo": pa["mean"] - pb["mean"] - h, "hi": pa["mean"] - pb["mean"] + h}
        rows.append({"option": name, "value": str(value), "measured by": kind, "contract": str(c), "n": dv["n"],
                     "Δ make rate": "–" if dm is None else fmt_ci(dm["mean"], dm["lo"], dm["hi"]),
                     "Δ expected payout": fmt_ci(dv["mean"], dv["lo"], dv["hi"]),
                     "_d": dv["mean"], "_lo": dv["lo"], "_hi": dv["hi"]})
    return rows


def _match_rows(d: GameData, name, value) -> dict:
    n = d.plan.variant_matches
    mb, rb = d.matches(n=n)
    ma, ra = d.matches(rules={name: value}, n=n)
    dr = paired(ma["rounds"].to_numpy(), mb["rounds"].to_numpy())
    out = {"option": name, "value": str(value), "matches": n,
           "Δ rounds per match": fmt_ci(dr["mean"], dr["lo"], dr["hi"])}
    for lab, r in (("default", rb), ("option", ra)):
        played = r[~r["thrown_in"]] if not r.empty else r
        made = pd.to_numeric(played["made"], errors="coerce") if "made" in played else pd.Series(dtype=float)
        out[f"make rate ({lab})"] = f"{made.mean():.3f} (n={int(made.notna().sum())})" if made.notna().any() else "–"
        top = played["contract"].value_counts(normalize=True).head(3) if not played.empty else pd.Series(dtype=float)
        out[f"most bid ({lab})"] = ", ".join(f"{k} {v:.0%}" for k, v in top.items())
    dw = paired(ma["win_0"].astype(float).to_numpy(), mb["win_0"].astype(float).to_numpy())
    out["Δ seat 0 win rate"] = fmt_ci(dw["mean"], dw["lo"], dw["hi"])
    return out


def variants_section(d: GameData) -> Section:
    from .evaluation import rescore

    sec = Section("Rule variants")
    sec.paragraphs.append(
        "Each named rule option is flipped from its value in this report (the rulings' default unless the "
        "report's rules set it) to every other value, one at a "
        "time, and measured where it acts: an option that changes the cards' layout (points, lead rules, "
        f"hand size) is re-solved on the first {d.plan.variant_deals} deals; an option that changes only "
        "the scoring re-scores the same solved deals (no re-solve); an option that changes neither a "
        f"deal's play nor its score (bidding, throw-ins, match length) is measured on {d.plan.variant_matches} "
        "whole matches replayed with the same seeds. Deltas are the flipped value minus the report's (columns "
        "marked 'default'). " + CI_NOTE)
    rows, mrows, skipped = [], [], []
    primary = d.primary
    frames = [("primary", primary)]
    if d.plan.primary_policy == "dd" and not d.play.empty and is_per_seat(d.play).any():
        frames.append(("play", d.play[is_per_seat(d.play)].copy()))
    layout_rules = {k: v for k, v in d.rules.items() if k in d.g.layout_options}
    for name, default, value in option_values(d.g, d.rules):
        if name in d.g.layout_options:
            base = primary[primary["deal"] < d.plan.variant_deals]
            contracts = [c for c in base["contract"].cat.categories if (base["contract"] == c).any()]
            lay0 = d.g.layout(contracts[0], **layout_rules)
            lay1 = d.g.layout(contracts[0], **{**layout_rules, name: value})
            if (lay0.hand_size, lay0.kitty_size) != (lay1.hand_size, lay1.kitty_size):
                from trickcore.deals import random_deals
                from .data import evaluate_deals

                deals = np.asarray(random_deals(d.game, d.plan.variant_deals, d.seed, **{**d.rules, name: value}),
                                   dtype=np.uint64)
                alt = d._cached(f"variant:{name}={value}", lambda: evaluate_deals(
                    d.game, contracts, deals, rules={**d.rules, name: value}, policy=d.plan.primary_policy,
                    n_jobs=d.n_jobs))
                rows += _delta_rows(name, value, "new deals (hand size differs)", base, alt, paired_deals=False)
            else:
                alt = d.reevaluate(f"variant:{name}={value}", contracts, d.plan.variant_deals, rules={name: value})
                rows += _delta_rows(name, value, "re-solved" if d.plan.primary_policy == "dd" else "re-played", base, alt, True)
            continue
        changed = False
        for _, fr in frames:
            if fr.empty:
                continue
            base = rescore(d.game, fr, d.rules)
            alt = rescore(d.game, fr, {**d.rules, name: value})
            pay = [c for c in base.columns if c.startswith("payout_")]
            if not np.array_equal(base[pay].to_numpy(dtype=float), alt[pay].to_numpy(dtype=float)):
                changed = True
                rows += _delta_rows(name, value, "re-scored", base, alt, True)
        if not changed:
            if d.plan.variant_matches:
                mrows.append(_match_rows(d, name, value))
            else:
                skipped.append(f"{name}={value}")
    if rows:
        table = pd.DataFrame(rows)
        shown_t = table.drop(columns=["_d", "_lo", "_hi"])
        sec.tables.append(("Options that change a deal's play or score: deltas per contract", shown_t))
        fig, axes = figure(height=max(2.5, 0.28 * len(table) + 1.2), width=7)
        ax = axes[0][0]
        y = np.arange(len(table))[::-1]
        ax.errorbar(table["_d"], y, xerr=[table["_d"] - table["_lo"], table["_hi"] - table["_d"]], fmt="o", capsize=3)
        ax.set_yticks(y, [f"{o}={v} · {c}" for o, v, c in zip(table["option"], table["value"], table["contract"])], fontsize=7)
        ax.axvline(0, color="#444", lw=0.7)
        ax.set_xlabel("Δ expected payout (declarer; seat 0 where no declarer), option − default")
        ax.grid(alpha=0.3, axis="x")
        sec.figures.append(("Effect of each option value on the expected payout, 95% paired intervals.", fig))
    if mrows:
        sec.tables.append(("Options that act on bidding or the match: whole matches, same seeds", pd.DataFrame(mrows)))
    if skipped:
        sec.paragraphs.append("Not measured (no match budget): " + ", ".join(skipped) + ".")
    opts = [f"{n} (default {o.default!r}; values {', '.join(map(repr, o.choices)) if len(o.choices) <= 4 else f'{min(o.choices)}–{max(o.choices)}'})"
            for n, o in d.g.options.items()]
    sec.paragraphs.append("Options of this game: " + "; ".join(opts) + ". Numeric match-length options "
                          "(rounds, target) are not flipped; they only lengthen or shorten a match.")
    d.results["variants"] = pd.DataFrame(rows).drop(columns=["_d", "_lo", "_hi"]) if rows else pd.DataFrame()
    return sec
