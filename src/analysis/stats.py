"""Confidence intervals for the figures the analysis layer reports.

* :func:`wilson_interval` — a proportion (make probability) from ``k`` successes in ``n``
  independent trials.  Unlike the plain normal ("Wald") interval it stays inside [0, 1]
  and keeps close to its nominal coverage for small ``n`` and probabilities near 0 or 1.
* :func:`mean_interval` — a mean (expected payout) from a sample: Student's *t* interval,
  which for the sample sizes used here is the normal interval.
* :func:`diff_interval` — the mean of paired differences (two contracts or two rule
  options on the *same* deals), which is :func:`mean_interval` of the differences.
* :class:`Moments` — count, sum and sum of squares that add across chunks, so a run of
  millions of deals keeps only a few numbers per group.

All functions accept scalars or numpy arrays.  An *exact* figure (every layout enumerated)
has no sampling error: pass ``exact=True`` and the interval collapses to the point.

Examples
--------
>>> lo, hi = wilson_interval(45, 100)
>>> round(float(lo), 4), round(float(hi), 4)
(0.3561, 0.5476)
>>> m, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
>>> float(m), round(float(lo), 3), round(float(hi), 3)
(2.5, 0.446, 4.554)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import math
from statistics import NormalDist

import numpy as np

__all__ = ["z_value", "t_value", "wilson_interval", "mean_interval", "diff_interval", "Moments"]


def z_value(level: float = 0.95) -> float:
    """Two-sided normal quantile for a confidence ``level`` (1.96 for 0.95)."""
    if not isinstance(level, (int, float, np.integer, np.floating)) or isinstance(level, bool) or not 0 < level < 1:
        raise ValueError(f"confidence level must be in (0, 1); got {level!r}")
    return NormalDist().inv_cdf(0.5 + level / 2)


def t_value(level: float, dof: int) -> float:
    """Two-sided Student-t quantile with ``dof`` degrees of freedom.

    Exact for 1 and 2 degrees of freedom; from 3 on the Cornish-Fisher expansion
    (Abramowitz & Stegun 26.7.5) refined by Newton steps on the t distribution function
    (integrated by Simpson's rule), which keeps SciPy out of the dependencies.

    >>> round(t_value(0.95, 10), 3), round(t_value(0.95, 1), 3)
    (2.228, 12.706)
    """
    if dof < 1:
        return float("nan")
    p = 0.5 + level / 2
    if dof == 1:
        return math.tan(math.pi * (p - 0.5))
    if dof == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = z_value(level)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    nu = float(dof)
    t = z + g1 / nu + g2 / nu**2 + g3 / nu**3 + g4 / nu**4
    if dof >= 200:
        return t
    c = math.exp(math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2)) / math.sqrt(nu * math.pi)
    for _ in range(3):  # Newton: solve CDF(t) - 1/2 = p - 1/2
        x = np.linspace(0.0, t, 401)
        f = c * (1 + x * x / nu) ** (-(nu + 1) / 2)
        area = (t / 1200) * (f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum())
        t -= (area - (p - 0.5)) / f[-1]
    return float(t)


def wilson_interval(k: Any, n: Any, level: float = 0.95, *, exact: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a proportion ``k / n``.

    Parameters
    ----------
    k, n:
        Successes and trials (scalars or arrays; ``0 <= k <= n``).  ``n == 0`` gives ``nan``.
    level:
        Confidence level.
    exact:
        ``True`` when ``k / n`` is not a sample but the whole population (every layout
        enumerated): the interval is the point itself.

    >>> [round(float(x), 4) for x in wilson_interval(0, 20)]
    [0.0, 0.1611]
    >>> [float(x) for x in wilson_interval(3, 4, exact=True)]
    [0.75, 0.75]
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("need 0 <= k <= n for a proportion")
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        if exact:
            return p, p
        z = z_value(level)
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        lo = np.clip(centre - half, 0.0, 1.0)
        hi = np.clip(centre + half, 0.0, 1.0)
    # At k == 0 or k == n the Wilson bound is exactly 0 or 1; clip rounding noise.
    lo = np.where(k == 0, 0.0, lo)
    hi = np.where(k == n, 1.0, hi)
    return lo, hi


def mean_interval(x: Any, level: float = 0.95, *, exact: bool = False) -> tuple[float, float, float]:
    """Mean of a sample and its Student-t confidence interval ``(mean, lo, hi)``.

    >>> m, lo, hi = mean_interval([2.0, 2.0, 2.0])
    >>> float(m), float(lo), float(hi)
    (2.0, 2.0, 2.0)
    """
    x = np.asarray(x, dtype=float).ravel()
    mom = Moments.of(x)
    return mom.interval(level, exact=exact)


def diff_interval(a: Any, b: Any, level: float = 0.95) -> tuple[float, float, float]:
    """Paired difference ``mean(a - b)`` with its t interval (``a``, ``b`` on the same deals).

    >>> m, lo, hi = diff_interval([3, 4, 5, 6], [1, 3, 3, 5])
    >>> float(m), round(float(lo), 3), round(float(hi), 3)
    (1.5, 0.581, 2.419)
    """
    a = np.asarray(a, dtype=float).ravel()
    b = np.asarray(b, dtype=float).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples must have the same length; got {a.size} and {b.size}")
    return mean_interval(a - b, level)


@dataclass
class Moments:
    """Count, sum and sum of squares of a sample; ``+`` merges two samples.

    Sums are kept in float64 about a fixed ``shift`` so that large-valued payouts do not
    lose precision when squared (payouts are small integers, so the shift is 0 by default).

    >>> a = Moments.of([1.0, 2.0]) + Moments.of([3.0, 4.0])
    >>> a.n, a.mean, round(a.std, 4)
    (4, 2.5, 1.291)
    """

    n: int = 0
    s1: float = 0.0
    s2: float = 0.0

    @classmethod
    def of(cls, x: Any) -> Moments:
        x = np.asarray(x, dtype=float).ravel()
        return cls(int(x.size), float(x.sum()), float((x * x).sum()))

    def __add__(self, other: Moments) -> Moments:
        return Moments(self.n + other.n, self.s1 + other.s1, self.s2 + other.s2)

    @property
    def mean(self) -> float:
        return self.s1 / self.n if self.n else float("nan")

    @property
    def var(self) -> float:
        """Unbiased sample variance (``nan`` below two observations)."""
        if self.n < 2:
            return float("nan")
        return max(self.s2 - self.s1 * self.s1 / self.n, 0.0) / (self.n - 1)

    @property
    def std(self) -> float:
        return float(np.sqrt(self.var))

    @property
    def se(self) -> float:
        """Standard error of the mean."""
        return float(np.sqrt(self.var / self.n)) if self.n >= 2 else float("nan")

    def interval(self, level: float = 0.95, *, exact: bool = False) -> tuple[float, float, float]:
        """``(mean, lo, hi)``; with ``exact`` (the whole population) ``lo == hi == mean``."""
        m = self.mean
        if exact:
            return m, m, m
        if self.n >= 2 and self.var == 0.0:
            return m, m, m
        half = t_value(level, self.n - 1) * self.se
        return m, m - half, m + half
