"""The numbers behind one game's report page: deals, their play, matches; computed once.

Every section of a page reads a :class:`GameData`: the same random deals (dealt once from
the report's seed) are played under each policy, each leader and each rule option, so every
difference the report shows is *paired* on common deals.  Play and scoring go through
:func:`analysis.report.evaluation.evaluate_contract` (solve once, score many: a scoring-only option re-scores the same
solved deals with :func:`trickcore.scoring.score`; only an option that changes the layout is
re-solved).  Chunks of deals run in parallel through :func:`analysis.engine.run_chunks`.

>>> d = GameData("goathead3", plan_for("goathead3", 6), seed=1, n_jobs=1)
>>> frame = d.primary
>>> sorted(frame["contract"].unique()) == sorted(d.plan.dd_contracts)
True
>>> len(frame) == 6 * len(d.plan.dd_contracts)
True
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from trickcore.games import get_game

__all__ = ["Plan", "DEFAULT_PLANS", "PLANS", "plan_for", "GameData", "declarer_payout"]


@dataclass(frozen=True)
class Plan:
    """How much of what to compute for one game (sizes are per game: a 13-card double-dummy
    solve costs thousands of times a 6-card one)."""

    dd_contracts: tuple[str, ...]      # solved double dummy (contracts with a declaring side)
    play_contracts: tuple[str, ...]    # played out by the greedy policy (every analysed contract)
    dd_deals: int                      # deals solved double dummy
    play_deals: int                    # deals played out greedily
    seat_deals: int                    # deals re-solved with every other leader
    variant_deals: int                 # deals re-solved per layout-changing option value
    matches: int                       # full matches with the heuristic policy
    variant_matches: int               # matches per bidding/match option value
    pimc_rounds: int                   # rounds played by PIMC and the heuristic (paired)
    pimc_samples: int = 8              # PIMC samples per decision
    notes: tuple[str, ...] = ()        # why the contracts were chosen
    primary: str = "dd"                # the main figures' policy when contracts are solved
    seat_dd_deals: int = 0             # games without a declaring side: deals solved for seat 0
    seat_dd_tricks: int = 0            # Hearts: tricks solved at the end after a greedy opening
    seat_dd_hand_size: int = 0         # Oh Hell: the (short) hand size of those deals
    balance_deals: int = 0             # payout balancer's deals (0: dd_deals, else play_deals)

    @property
    def primary_policy(self) -> str:
        """The policy of the page's main figures: double dummy when it can be afforded."""
        return "dd" if self.dd_contracts and self.dd_deals and self.primary == "dd" else "greedy"


_GH = ("diamonds", "hearts", "nil", "spades", "clubs", "court")
_SUITS_SAME = ("The four suit contracts are the same game up to renaming the suits, so one of them "
               "stands for all four (fewer solves, the same answer).")

# ==========================================================================================
# DEFAULT DEAL COUNTS: every default size of ``trickcore report`` is in this one table.
#
# Budget: the default report must finish in at most 10 minutes on a 2-core machine.
# Measured: these counts take 2 min 27 s (4 min 6 s of CPU) on a quiet 2-core machine
# (2026-11-22, session 4; Spades' page 36 s, Sheepshead's 24 s, Clover's 18.5 s, the others
# 11-16 s).  The index page's table gives the seconds per game and each page's provenance
# line its largest steps.  Double-dummy counts (``dd_deals``,
# ``seat_deals``, ``variant_deals``, ``seat_dd_deals``, ``balance_deals`` of the solved
# games) are the ones to raise as the solver gets faster; play-outs and matches cost little.
# Per-deal costs measured on the loaded development machine (one core): Hearts' last 7
# tricks solved for seat 0 ~32 ms (6 tricks ~8 ms, 8 tricks ~100 ms).  The trick games are
# solved by the trick-count kernel (``trickcore._solve_tricks``): a full 13-card Spades deal
# ~50 ms on average (session 4, DDS's move ordering; it was ~0.35 s), with a tail near a
# second, so Spades' double-dummy sample went from 400 to 2,000 deals.  Oh Hell's per-seat figures need both paranoid bounds of a seat (its most and its
# fewest tricks alone against the others), measured per deal and contract at 5 ms (7
# cards), 12-21 ms (8 cards) and 0.7 s (10 cards): hence 8-card hands.  (Session 15,
# benches/bench_bids.py: 3-5 ms at 8 cards, 0.09-0.18 s at 10.)
# ==========================================================================================
DEFAULT_PLANS: dict[str, Plan] = {
    "goathead3": Plan(dd_contracts=_GH, play_contracts=_GH + ("leasters",), dd_deals=2000, play_deals=6000,
                      seat_deals=400, variant_deals=1500, matches=60, variant_matches=16, pimc_rounds=60),
    "goathead4": Plan(dd_contracts=_GH, play_contracts=_GH + ("leasters",), dd_deals=2000, play_deals=6000,
                      seat_deals=400, variant_deals=1500, matches=60, variant_matches=16, pimc_rounds=60),
    "clover": Plan(dd_contracts=("clubs", "notrump"), play_contracts=("clubs", "notrump"), dd_deals=500,
                   play_deals=3000, seat_deals=60, variant_deals=100, matches=30, variant_matches=8,
                   pimc_rounds=10, pimc_samples=4, balance_deals=1000, notes=(_SUITS_SAME,)),
    "gamut": Plan(dd_contracts=("spades", "clubs"), play_contracts=("hearts", "spades", "clubs"), dd_deals=300,
                  play_deals=4000, seat_deals=80, variant_deals=80, matches=60, variant_matches=12,
                  pimc_rounds=24, pimc_samples=4, balance_deals=4000,
                  notes=("Gamut Hearts has no declaring side (every player for themselves), so it is "
                         "played out, not solved; Gamut Clubs is solved for seat 0 against the other three "
                         "(its payout is seat 0's). The fold variants of Clubs (clubs_3, clubs_2, clubs_1) "
                         "appear in the match section only.",)),
    "sheepshead": Plan(dd_contracts=("jd", "called_ace_clubs", "alone"),
                       play_contracts=("jd", "called_ace_clubs", "alone", "leaster"), dd_deals=1200,
                       play_deals=4000, seat_deals=200, variant_deals=400, matches=40, variant_matches=8,
                       pimc_rounds=24, pimc_samples=4, balance_deals=1500,
                       notes=("The called-ace contracts are alike up to the fail suit called, so clubs "
                              "stands for them; the called-jack and called-ten variants are rare fallbacks "
                              "and appear in the match section only. The picker plays the dealt hand and the "
                              "blind's points count for the picking side (no burying).",)),
    "hearts": Plan(dd_contracts=(), play_contracts=("hearts",), dd_deals=0, play_deals=6000, seat_deals=0,
                   variant_deals=2000, matches=40, variant_matches=10, pimc_rounds=12, pimc_samples=4,
                   seat_dd_deals=600, seat_dd_tricks=7,
                   notes=("Hearts has no declaring side: the main figures come from greedy play-outs "
                          "(a per-seat double-dummy value is each seat's paranoid value, not one play; a "
                          "full 13-card paranoid solve takes seconds to many minutes, so the double-dummy "
                          "figures solve the last tricks after a greedy opening, in the real-play section). "
                          "Payouts are penalty points: lower is better.",)),
    "spades": Plan(dd_contracts=("spades",), play_contracts=("spades",), dd_deals=2000, play_deals=6000,
                   seat_deals=2000, variant_deals=2000, matches=40, variant_matches=10, pimc_rounds=12,
                   pimc_samples=4, primary="greedy",
                   notes=("The main figures come from 6,000 greedy play-outs (how people play); a "
                          "2,000-deal double-dummy sample (about 50 ms a 13-card deal) measures how "
                          "optimistic double dummy is. Every "
                          "seat bids what the heuristic policy bids; 'made' is team 0 (seats 0 and 2) making "
                          "its combined bid, and the payout is team 0's score.",)),
    "ohhell": Plan(dd_contracts=(), play_contracts=("clubs", "notrump"), dd_deals=0, play_deals=6000,
                   seat_deals=0, variant_deals=2000, matches=40, variant_matches=10, pimc_rounds=12,
                   pimc_samples=4, seat_dd_deals=400, seat_dd_hand_size=8,
                   notes=(_SUITS_SAME, "Oh Hell has no declaring side (every player bids for themselves, "
                          "here what the heuristic policy bids): the main figures come from greedy play-outs; "
                          "double-dummy bid figures (8-card hands) are in the real-play section.")),
}

#: The name earlier code used for :data:`DEFAULT_PLANS`.
PLANS = DEFAULT_PLANS


def plan_for(game: str, n_deals: int | None = None) -> Plan:
    """The default :class:`Plan` of ``game``, or one scaled to ``n_deals`` deals.

    ``n_deals`` sets the deals of every kind (double dummy, play-outs, re-solves) and scales
    the matches and PIMC rounds down with it, so a tiny report is quick.

    >>> plan_for("goathead3", 10).dd_deals, plan_for("goathead3", 10).matches
    (10, 2)
    """
    p = PLANS[get_game(game).id]
    if n_deals is None:
        return p
    from ..engine import whole

    n = whole("n_deals", n_deals)
    if n < 2:
        raise ValueError(f"n_deals must be at least 2; got {n_deals!r}")
    small = max(2, min(p.matches, n // 5))
    return replace(
        p,
        dd_deals=(n if p.primary == "dd" else min(n, p.dd_deals)) if p.dd_deals else 0,
        play_deals=n,
        seat_deals=min(n, p.seat_deals) if p.seat_deals else 0,
        variant_deals=min(n, max(p.variant_deals, n // 2)) if p.variant_deals else 0,
        matches=small,
        variant_matches=max(2, min(p.variant_matches, small)),
        pimc_rounds=max(2, min(p.pimc_rounds, n // 5)),
        pimc_samples=min(p.pimc_samples, 4),
        seat_dd_deals=min(n, p.seat_dd_deals),
        balance_deals=min(n, p.balance_deals) if p.balance_deals else 0,
    )


def declarer_payout(frame: pd.DataFrame) -> np.ndarray:
    """Each row's payout to its declarer (``nan`` where the row has no declarer)."""
    decl = frame["declarer"].to_numpy()
    n = sum(1 for c in frame.columns if c.startswith("payout_"))
    pay = frame[[f"payout_{s}" for s in range(n)]].to_numpy(dtype=float)
    out = pay[np.arange(len(frame)), np.clip(decl, 0, n - 1)]
    return np.where(decl >= 0, out, np.nan)


# -- parallel evaluation on given deals ---------------------------------------------------

def _eval_chunk(game: str, contracts: tuple[str, ...], rules: dict[str, Any], policy: str, leader: int,
                chunk_size: int, deals: np.ndarray, index: int, seed_seq: Any, size: int) -> pd.DataFrame:
    from .evaluation import evaluate_contract

    lo = index * chunk_size
    part = deals[lo:lo + size]
    idx = np.arange(lo, lo + size, dtype=np.int64)
    frames = [evaluate_contract(game, c, part, rules=rules, leader=leader, policy=policy, deal_index=idx)
              for c in contracts]
    return pd.concat(frames, ignore_index=True)


def evaluate_deals(game: str, contracts: Sequence[str], deals: np.ndarray, *, rules: Mapping[str, Any] | None = None,
                   policy: str = "dd", leader: int = 0, n_jobs: int = -1, chunk_size: int | None = None) -> pd.DataFrame:
    """Play and score ``contracts`` on the given ``deals`` (declarer seat 0), in parallel
    chunks; one row per deal and contract, ``deal`` = the row of ``deals``."""
    deals = np.ascontiguousarray(deals, dtype=np.uint64)
    n = len(deals)
    if n == 0 or not contracts:
        return pd.DataFrame()
    from ..engine import default_n_jobs, run_chunks

    jobs = default_n_jobs(n_jobs)
    cs = chunk_size or max(1, -(-n // max(1, 4 * jobs)))
    task = functools.partial(_eval_chunk, game, tuple(contracts), dict(rules or {}), policy, int(leader), cs, deals)
    out = run_chunks(task, n, seed=0, chunk_size=cs, n_jobs=n_jobs, progress=False)
    out["contract"] = pd.Categorical(out["contract"], categories=list(contracts))
    return out


# -- matches -------------------------------------------------------------------------------

def _match_task(game: str, rules: dict[str, Any], policy: str, seed: int) -> dict[str, Any]:
    from trickcore.policies import HeuristicPolicy, RandomPolicy
    from trickcore.rounds import play_match

    n = get_game(game).n_seats
    make = HeuristicPolicy if policy == "heuristic" else RandomPolicy
    pols = [make() if make is HeuristicPolicy else make(seed=seed * 31 + s) for s in range(n)]
    m = play_match(game, pols, seed=seed, **rules)
    rows = []
    for r in m.rounds:
        rows.append({"contract": r.contract, "declarer": -1 if r.declarer is None else r.declarer,
                     "thrown_in": bool(r.thrown_in), "dealer": r.dealer,
                     "made": r.scored.get("made") if r.scored else None,
                     # Gamut: the game the turned card picked ("diamonds" when a player chose)
                     "turned": ("diamonds" if r.extra.get("chooser", -1) >= 0 else r.extra.get("gamut_game"))
                     if "gamut_game" in r.extra else None,
                     **{f"payout_{s}": float(r.payouts[s]) if r.payouts else 0.0 for s in range(n)}})
    return {"seed": seed, "rounds": rows, "scores": list(m.scores), "winners": list(m.winners)}


def play_matches(game: str, n_matches: int, seed: int, *, rules: Mapping[str, Any] | None = None,
                 n_jobs: int = -1, policy: str = "heuristic") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``n_matches`` whole matches, every seat with ``policy``; returns
    ``(matches, rounds)``: one row per match (``rounds``, ``score_{s}``, ``win_{s}`` — a
    shared win counts for each winner) and one row per round.  Match ``i`` is seeded by
    ``seed * 1_000_003 + i``, so two rule options are compared on the same deals."""
    if n_matches <= 0:
        return pd.DataFrame(), pd.DataFrame()
    import joblib

    from ..engine import default_n_jobs

    g = get_game(game)
    seeds = [int(seed) * 1_000_003 + i for i in range(n_matches)]
    jobs = min(default_n_jobs(n_jobs), n_matches)
    task = functools.partial(_match_task, g.id, dict(rules or {}), policy)
    if jobs <= 1:
        results = [task(s) for s in seeds]
    else:
        results = joblib.Parallel(n_jobs=jobs)(joblib.delayed(task)(s) for s in seeds)
    mrows, rrows = [], []
    for i, res in enumerate(results):
        row: dict[str, Any] = {"match": i, "rounds": len(res["rounds"]),
                               "played": sum(1 for r in res["rounds"] if not r["thrown_in"])}
        for s in range(g.n_seats):
            row[f"score_{s}"] = res["scores"][s]
            row[f"win_{s}"] = s in res["winners"]
        mrows.append(row)
        for k, r in enumerate(res["rounds"]):
            rrows.append({"match": i, "round": k, **r})
    return pd.DataFrame(mrows), pd.DataFrame(rrows)


# -- the data of one page ------------------------------------------------------------------

@dataclass
class GameData:
    """Lazily computed, cached data of one game's page (each property computes once)."""

    game: str
    plan: Plan
    seed: int = 2026
    n_jobs: int = -1
    rules: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    results: dict[str, Any] = field(default_factory=dict)  # summaries the cross-game page reuses
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.g = get_game(self.game)
        self.game = self.g.id

    def _cached(self, key: str, fn: Any) -> Any:
        if key not in self._cache:
            t = time.perf_counter()
            self._cache[key] = fn()
            self.timings[key] = self.timings.get(key, 0.0) + time.perf_counter() - t
        return self._cache[key]

    # deals: one draw for the whole page, the larger of the two sizes; DD uses a prefix
    @property
    def deals(self) -> np.ndarray:
        from trickcore.deals import random_deals

        n = max(self.plan.dd_deals, self.plan.play_deals, 1)
        return self._cached("deals", lambda: np.asarray(random_deals(self.game, n, self.seed, **self.rules),
                                                        dtype=np.uint64))

    @property
    def seat_dd_hand_size(self) -> int:
        """Oh Hell's hand size for the per-seat double dummy: the report's ``hand_size`` rule
        when it sets one, else the plan's short hands."""
        return int(self.rules.get("hand_size", self.plan.seat_dd_hand_size)) if self.plan.seat_dd_hand_size else 0

    def dd_deals(self, n: int | None = None) -> np.ndarray:
        return self.deals[: self.plan.dd_deals if n is None else min(n, self.plan.dd_deals)]

    @property
    def dd(self) -> pd.DataFrame:
        """Double-dummy results of the solved contracts (empty when none are solved)."""
        return self._cached("dd", lambda: evaluate_deals(
            self.game, self.plan.dd_contracts, self.dd_deals(), rules=self.rules, policy="dd", n_jobs=self.n_jobs)
            if self.plan.dd_deals else pd.DataFrame())

    @property
    def play(self) -> pd.DataFrame:
        """Greedy play-outs of every analysed contract."""
        return self._cached("play", lambda: evaluate_deals(
            self.game, self.plan.play_contracts, self.deals[: self.plan.play_deals], rules=self.rules,
            policy="greedy", n_jobs=self.n_jobs))

    @property
    def primary(self) -> pd.DataFrame:
        """The frame of the main figures: double dummy where solved, else greedy play."""
        return self.dd if self.plan.primary_policy == "dd" else self.play

    @property
    def primary_label(self) -> str:
        return "double dummy" if self.plan.primary_policy == "dd" else "greedy play-outs"

    def reevaluate(self, key: str, contracts: Sequence[str], n: int, *, rules: Mapping[str, Any] | None = None,
                   leader: int = 0, policy: str | None = None) -> pd.DataFrame:
        """The primary policy's results on the first ``n`` deals under other rules / leader."""
        pol = policy or self.plan.primary_policy
        deals = self.dd_deals(n) if pol == "dd" else self.deals[: min(n, self.plan.play_deals)]
        full = {**self.rules, **dict(rules or {})}
        return self._cached(key, lambda: evaluate_deals(self.game, contracts, deals, rules=full, policy=pol,
                                                        leader=leader, n_jobs=self.n_jobs))

    @property
    def seat_dd(self) -> pd.DataFrame:
        """Seat 0's double-dummy figures of a game without a declaring side
        (:mod:`analysis.report.seatdd`): Hearts endgames on the first deals of the page, Oh
        Hell on deals of the plan's short hand size (every played contract); empty when the
        plan has none."""
        from . import seatdd

        p = self.plan
        if not p.seat_dd_deals:
            return pd.DataFrame()
        if self.game == "hearts":
            fn = functools.partial(seatdd.hearts_endgame, tricks=p.seat_dd_tricks, rules=self.rules)
            return self._cached("seat_dd", lambda: seatdd.run_parallel(fn, self.deals[: p.seat_dd_deals], self.n_jobs))
        if self.game == "ohhell":
            from trickcore.deals import random_deals

            hand_size = self.seat_dd_hand_size
            rules = {**self.rules, "hand_size": hand_size}

            def run() -> pd.DataFrame:
                deals = np.asarray(random_deals(self.game, p.seat_dd_deals, self.seed, hand_size=hand_size),
                                   dtype=np.uint64)
                return pd.concat([seatdd.run_parallel(functools.partial(seatdd.ohhell_short, c, rules=rules), deals,
                                                      self.n_jobs) for c in p.play_contracts], ignore_index=True)

            return self._cached("seat_dd", run)
        raise ValueError(f"{self.game} has no per-seat double-dummy figures in the report")

    def matches(self, rules: Mapping[str, Any] | None = None, n: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Whole matches with the heuristic policy at every seat (seeded per match)."""
        extra = dict(rules or {})
        rules = {**self.rules, **extra}
        n = self.plan.matches if n is None else n
        if not extra and n < self.plan.matches:  # the same seeds: a prefix of the main matches
            mt, rd = self.matches()
            return mt[mt["match"] < n], rd[rd["match"] < n]
        key = "matches:" + repr(sorted(rules.items())) + f":{n}"
        return self._cached(key, lambda: play_matches(self.game, n, self.seed, rules=rules, n_jobs=self.n_jobs))
