"""Small shared pieces of the report: interval formatting, summaries, figure set-up.

>>> fmt_ci(0.5, 0.4, 0.6)
'0.500 [0.400, 0.600]'
>>> s = proportion(np.array([True, False, True, True]))
>>> s["n"], round(s["mean"], 2)
(4, 0.75)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..stats import mean_interval, wilson_interval

__all__ = ["made_float", "row_value", "fmt_ci", "proportion", "mean_ci", "paired", "figure", "contract_summary", "is_per_seat",
           "seat_payouts", "CI_NOTE"]

CI_NOTE = ("Brackets are 95% intervals: Wilson intervals for rates, Student-t intervals for means "
           "(paired differences on common deals for deltas); n is the number of deals or rounds.")


def fmt_ci(m: float, lo: float, hi: float, digits: int = 3) -> str:
    """``mean [lo, hi]`` with ``digits`` decimals (``–`` when undefined)."""
    if m is None or not np.isfinite(m):
        return "–"
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def proportion(x: Any) -> dict[str, Any]:
    """Rate of a boolean sample with its Wilson interval (missing values dropped)."""
    a = pd.Series(x).dropna().astype(bool).to_numpy()
    n = int(a.size)
    if n == 0:
        return {"n": 0, "mean": float("nan"), "lo": float("nan"), "hi": float("nan")}
    lo, hi = wilson_interval(int(a.sum()), n)
    return {"n": n, "mean": float(a.mean()), "lo": float(lo), "hi": float(hi)}


def mean_ci(x: Any) -> dict[str, Any]:
    """Mean of a sample with its t interval (missing values dropped)."""
    a = np.asarray(pd.Series(x, dtype=float).dropna(), dtype=float)
    if a.size == 0:
        return {"n": 0, "mean": float("nan"), "lo": float("nan"), "hi": float("nan")}
    m, lo, hi = mean_interval(a)
    return {"n": int(a.size), "mean": float(m), "lo": float(lo), "hi": float(hi)}


def paired(a: Any, b: Any) -> dict[str, Any]:
    """Mean of ``a - b`` on common items with its t interval (rows missing in either dropped)."""
    x = pd.Series(np.asarray(a, dtype=float)) - pd.Series(np.asarray(b, dtype=float))
    return mean_ci(x)


def figure(ncols: int = 1, nrows: int = 1, width: float = 5.2, height: float = 3.4):
    """A matplotlib figure and its axes grid, drawn by the Agg canvas (no display needed).
    The figure is not registered with pyplot, so it is freed once the page is written."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width * ncols, height * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


def is_per_seat(frame: pd.DataFrame) -> pd.Series:
    """Rows without a declarer (scored per seat)."""
    return frame["declarer"] < 0


def made_float(x: Any) -> np.ndarray:
    """A ``made`` column as floats: 1.0 made, 0.0 set, ``nan`` where there is no declarer."""
    return pd.array(pd.Series(x).to_numpy(dtype=object), dtype="boolean").astype("Float64").to_numpy(
        dtype=float, na_value=np.nan)


def row_value(frame: pd.DataFrame) -> np.ndarray:
    """Each row's reported payout: the declarer's, or seat 0's where the row has no declarer."""
    from .data import declarer_payout

    return np.where(is_per_seat(frame).to_numpy(), frame["payout_0"].to_numpy(dtype=float), declarer_payout(frame))


def seat_payouts(frame: pd.DataFrame) -> list[str]:
    return [c for c in frame.columns if c.startswith("payout_")]


def contract_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per contract: n, make rate and expected declarer payout with intervals
    (per-seat contracts: seat 0's payout instead), as numbers (``*_lo``/``*_hi``)."""
    from .data import declarer_payout

    rows = []
    if frame.empty:
        return pd.DataFrame()
    dp = declarer_payout(frame)
    for c in frame["contract"].cat.categories if hasattr(frame["contract"], "cat") else frame["contract"].unique():
        m = (frame["contract"] == c).to_numpy()
        if not m.any():
            continue
        sub = frame[m]
        per_seat = bool(is_per_seat(sub).all())
        made = proportion(sub["made"]) if not per_seat and "made" in sub else proportion([])
        pay = mean_ci(sub["payout_0"] if per_seat else dp[m])
        row = {"contract": c, "n": int(m.sum()), "scored": "per seat (seat 0)" if per_seat else "declarer",
               "make": made["mean"], "make_lo": made["lo"], "make_hi": made["hi"],
               "ev": pay["mean"], "ev_lo": pay["lo"], "ev_hi": pay["hi"]}
        if "declarer_points" in sub and not per_seat:
            pts = mean_ci(pd.to_numeric(sub["declarer_points"], errors="coerce"))
            row.update(points=pts["mean"], points_lo=pts["lo"], points_hi=pts["hi"])
        rows.append(row)
    return pd.DataFrame(rows)


def shown(summary: pd.DataFrame, cols: dict[str, str]) -> pd.DataFrame:
    """A display table: ``cols`` maps a summary stem (``make``) to its column title; each
    becomes ``mean [lo, hi]`` text; other columns pass through."""
    out = pd.DataFrame(index=summary.index)
    for k, title in cols.items():
        if f"{k}_lo" in summary:
            out[title] = [fmt_ci(m, lo, hi) for m, lo, hi in zip(summary[k], summary[f"{k}_lo"], summary[f"{k}_hi"])]
        elif k in summary:
            out[title] = summary[k]
    return out
