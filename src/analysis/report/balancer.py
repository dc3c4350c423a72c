"""Payout balancer: the base payouts that would make the contracts' expected values equal for
the hands the bidding policy bids them with, as a suggestion beside the current ones.

Method (the same for every game; shown on the page).  The heuristic policy
(:class:`trickcore.policies.HeuristicPolicy`) is asked, through its own methods, what seat 0
would choose with each dealt hand; the hands that choose contract *c* are scored under *c*.
Each game has one tunable number per contract — its *knob* — and every payout is linear in
it, so the expected value is exactly linear too:

    ``EV_c(b) = EV_c + (b − b0) · S_c``,  ``S_c = E[∂payout/∂b]`` over those hands

(:class:`Knob` holds each hand's payout and its derivative).  The suggested setting solves
``EV_c(b) = T``, where ``T`` is the mean of the contracts' expected values weighted by how
often each is chosen (the current overall value stays where it is).  A knob with no
meaningful setting that reaches ``T`` (``S_c`` ≈ 0, or the setting would fall below the
knob's floor, such as a negative stake) is reported as such.  Intervals: 2.5–97.5%
bootstrap percentiles over the deals.

The knobs per game (:data:`KNOBS`):

* Goathead: each contract's base stake (the scorer's ``BASE``); the payout is
  ``±k·(base + bonuses)``, so ``∂p/∂b = p / stake``.  Hands are solved double dummy after
  the heuristic's kitty exchange.
* Sheepshead: the picker's unit for picking with a partner (2: the 61–90 row of the picker's
  column, the table scaled with it), for picking alone (4) and the leaster winner's payment
  (4, every other player paying a quarter of it); payouts scale with it, ``∂p/∂b = p / b0``.
* Clover: a bonus (now 0) the declaring team scores on top when it makes its contract;
  the value of a round is the declaring team's margin (its game points minus the
  defenders'), so ``∂p/∂b = made``.
* Gamut: one constant of each game's table — Hearts' Q♠ penalty (8), Spades' 5 of
  "exact: 5 + bid, over: 5 − overtricks", Clubs' penalty for taking no trick (6) — for the
  hands the policy would choose that game with in Diamonds.

Hearts, Spades and Oh Hell have a single contract each (Oh Hell's trump is turned up, not
chosen), so there is nothing to balance; their pages say so.

>>> rows = [Knob("a", "base", 1.0, np.array([1.0, 3.0]), np.array([1.0, 1.0]), np.array([1.0, 1.0])),
...         Knob("b", "base", 1.0, np.array([0.0, 0.0]), np.array([2.0, 2.0]), np.array([0.0, 1.0]))]
>>> sol = solve_knobs(rows)
>>> sol["__target__"], sol["a"], sol["b"]       # T = (2 + 0) / 2; a: 1 + (1 - 2) / 1; b: 1 + (1 - 0) / 2
(1.0, 0.0, 1.5)
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pandas as pd

from .common import figure, fmt_ci, made_float, mean_ci
from .data import GameData, declarer_payout
from .render import Section

__all__ = ["balancer_section", "policy_bids", "Knob", "solve_knobs", "KNOBS", "game_knobs"]

#: Minimum hands choosing a contract for it to be balanced.
MIN_HANDS = 5

#: What is tuned per game (a game missing here has nothing to balance: ``_NOTHING``).
KNOBS = {
    "goathead3": "base stake",
    "goathead4": "base stake",
    "sheepshead": "picker's unit (jd, alone) / leaster winner's payment",
    "clover": "bonus for a made contract",
    "gamut": "Q♠ penalty (hearts) / exact-bid constant (spades) / no-trick penalty (clubs)",
}

_NOTHING = {
    "hearts": "Hearts has a single contract (every player for themselves, penalty points), so there is no "
              "payout between contracts to balance.",
    "spades": "Spades has a single contract: bids are trick counts scored by one formula (10 per trick bid, "
              "bags, nil ±100), so there is no payout between contracts to balance.",
    "ohhell": "Oh Hell's contracts are the trump suit turned up by the dealer, not a choice, and every bid is "
              "scored by one formula (10 for an exact bid plus the tricks), so there is nothing to balance "
              "between contracts.",
}


@dataclass
class Knob:
    """One contract's tunable number and, per hand that chooses the contract, the chooser's
    payout at the current setting and its derivative with respect to the setting."""

    contract: str
    knob: str
    current: float
    payout: np.ndarray
    slope: np.ndarray
    made: np.ndarray
    floor: float = 0.0  # the smallest meaningful setting (-inf: any)
    frame: pd.DataFrame | None = None  # the scored rows (for checks; not kept by the bootstrap)


def solve_knobs(rows: list[Knob]) -> dict[str, float]:
    """The settings that make every contract's expected value equal to the choice-weighted
    mean ``T`` (``__target__``); ``nan`` where no setting at or above the floor reaches it."""
    w = np.array([len(k.payout) for k in rows], dtype=float)
    evs = np.array([k.payout.mean() for k in rows])
    target = float(np.dot(w, evs) / w.sum())
    out = {"__target__": target}
    for k, ev in zip(rows, evs):
        s = float(k.slope.mean())
        b = float(k.current + (target - ev) / s) if abs(s) > 1e-9 else float("nan")
        out[k.contract] = float(b) if b >= k.floor - 1e-9 else float("nan")
    return out


def _ask(game: str, hand: int, rules: dict, phase: str, legal: list, method: str = "bid"):
    from trickcore.cards import CardSet
    from trickcore.games import get_game
    from trickcore.policies import HeuristicPolicy

    g = get_game(game)
    obs = SimpleNamespace(game=g.id, rules=rules, layout=None, hand=CardSet(int(hand)), n_seats=g.n_seats,
                          legal=legal, phase=phase, bids=[], seat=0, dealer=g.n_seats - 1, turned=None)
    return getattr(HeuristicPolicy(), method)(obs)


def policy_bids(game: str, hands: np.ndarray, contracts: tuple[str, ...], rules: dict | None = None) -> np.ndarray:
    """What :class:`~trickcore.policies.HeuristicPolicy` chooses first with each hand
    (``'pass'`` or a contract), asked through its own methods: Goathead's and Clover's bid,
    Sheepshead's pick (``'pick'``/``'pass'``), Gamut's Diamonds choice.

    >>> from trickcore.cards import CardSet
    >>> policy_bids("goathead3", np.array([CardSet.parse("JC JS JH AC 10C KC").mask], dtype=np.uint64),
    ...             ("diamonds", "hearts", "nil", "spades", "clubs", "court")).tolist()
    ['clubs']
    """
    from trickcore.games import get_game

    g = get_game(game)
    full = g.check_rules(dict(rules or {}))
    out = []
    for m in np.asarray(hands, dtype=np.uint64):
        if g.id == "sheepshead":
            out.append("pick" if _ask(g.id, m, full, "pick", [True, False], "pick_or_pass") else "pass")
        elif g.id == "gamut":
            out.append(_ask(g.id, m, full, "choose_game", ["pass", "hearts", "spades", "clubs"]))
        elif g.id == "clover":
            out.append(_ask(g.id, m, full, "name", [*contracts, "pass"]))
        else:
            out.append(_ask(g.id, m, full, "bid", [*contracts, "pass"]))
    return np.asarray(out, dtype=object)


# -- per game: the hands that choose each contract, scored -------------------------------

def _goathead(d: GameData, deals: np.ndarray, bids: np.ndarray) -> list[Knob]:
    """Hands that bid c, after seat 0's heuristic kitty exchange
    (:func:`analysis.odds.heuristic_exchange`), solved double dummy and scored."""
    from trickcore.scoring.goathead import BASE

    from ..odds import heuristic_exchange
    from ..simulate import evaluate

    n = d.g.n_seats
    out = []
    for c in d.plan.dd_contracts:
        idx = np.flatnonzero(bids == c)
        if len(idx) < MIN_HANDS:
            continue
        dc = np.array(deals[idx], dtype=np.uint64)
        ex, new, buried = heuristic_exchange(d.game, c, dc[:, 0], dc[:, n], d.rules)
        dc[:, 0], dc[:, n] = new, buried
        f = evaluate(d.game, c, dc, rules=d.rules, policy="dd", exchanged=ex, kitty=buried, deal_index=idx)
        p = declarer_payout(f)
        out.append(Knob(c, "base stake", float(BASE[c]), p, p / f["stake"].to_numpy(dtype=float), made_float(f["made"]),
                        frame=f))
    return out


#: Sheepshead: the current knob of each contract (the picker's unit / the leaster winner's +4).
SHEEPSHEAD_UNITS = {"jd": 2.0, "alone": 4.0, "leaster": 4.0}


def _sheepshead_choice(deals: np.ndarray, picks: np.ndarray, rules: dict) -> np.ndarray:
    """pick → ``alone`` when the picker holds J♦ after taking the blind and the ``jd_picker``
    rule says alone, else ``jd``; pass → ``leaster`` (played when everybody passes)."""
    from trickcore.cards import CardSet

    jd = np.uint64(CardSet.parse("JD").mask)
    deals = np.asarray(deals, dtype=np.uint64)
    holds = ((deals[:, 0] | deals[:, -1]) & jd) != 0
    alone = holds & (rules.get("jd_picker", "alone") == "alone")
    return np.where(picks == "pick", np.where(alone, "alone", "jd"), "leaster").astype(object)


def _evaluate(d: GameData, contract: str, deals: np.ndarray, idx: np.ndarray, policy: str) -> pd.DataFrame:
    """``contract`` played and scored on the deals ``idx`` (in parallel chunks); ``deal`` is
    the index into ``deals``."""
    from .data import evaluate_deals

    f = evaluate_deals(d.game, [contract], deals[idx], rules=d.rules, policy=policy, n_jobs=d.n_jobs)
    f["deal"] = idx[f["deal"].to_numpy()]
    return f


def _sheepshead(d: GameData, deals: np.ndarray, bids: np.ndarray) -> list[Knob]:
    full = d.g.check_rules(d.rules)
    choice = _sheepshead_choice(deals, bids, full)
    out = []
    for c, label in (("jd", "picker's unit"), ("alone", "picker's unit alone"), ("leaster", "leaster winner's payment")):
        idx = np.flatnonzero(choice == c)
        if len(idx) < MIN_HANDS:
            continue
        policy = "greedy" if c == "leaster" else d.plan.primary_policy
        f = _evaluate(d, c, deals, idx, policy)
        p = f["payout_0"].to_numpy(dtype=float)
        b0 = SHEEPSHEAD_UNITS[c]
        out.append(Knob(c, label, b0, p, p / b0, made_float(f["made"]), frame=f))
    return out


def _clover(d: GameData, deals: np.ndarray, bids: np.ndarray) -> list[Knob]:
    out = []
    for c in ("clubs", "diamonds", "hearts", "spades", "notrump"):
        idx = np.flatnonzero(bids == c)
        if len(idx) < MIN_HANDS:
            continue
        f = _evaluate(d, c, deals, idx, d.plan.primary_policy)
        margin = f["payout_0"].to_numpy(dtype=float) - f["payout_1"].to_numpy(dtype=float)
        made = made_float(f["made"])
        out.append(Knob(c, "bonus for a made contract", 0.0, margin, made, made, floor=-np.inf, frame=f))
    return out


#: Gamut: the table constant tuned per game and its current value.
GAMUT_KNOBS = {"hearts": ("Q♠ penalty", 8.0), "spades": ("exact-bid constant", 5.0), "clubs": ("no-trick penalty", 6.0)}


def gamut_slope(contract: str, f: pd.DataFrame) -> np.ndarray:
    """∂(seat 0's payout)/∂(the game's knob) per row of a scored Gamut frame: Hearts −1 when
    seat 0 took Q♠ and nobody shot the moon; Spades +1 when team 0 took at least its bid
    (exact: knob + bid, over: knob − overtricks); Clubs −1 when seat 0 took no trick."""
    if contract == "hearts":
        moon = np.zeros(len(f), dtype=bool)
        for s in range(4):
            moon |= (f[f"hearts_{s}"].to_numpy() == 8) & f[f"queen_{s}"].to_numpy().astype(bool)
        return -(f["queen_0"].to_numpy().astype(bool) & ~moon).astype(float)
    if contract == "spades":
        return (f["team_tricks_0"].to_numpy(dtype=float) >= f["team_bid_0"].to_numpy(dtype=float)).astype(float)
    if contract == "clubs":
        return -(f["tricks_0"].to_numpy() == 0).astype(float)
    raise ValueError(f"gamut has no knob for {contract!r}")


def _gamut(d: GameData, deals: np.ndarray, bids: np.ndarray) -> list[Knob]:
    out = []
    for c, (label, b0) in GAMUT_KNOBS.items():
        idx = np.flatnonzero(bids == c)
        if len(idx) < MIN_HANDS:
            continue
        # greedy: every seat plays, so each seat's tricks and penalty cards are known
        f = _evaluate(d, c, deals, idx, "greedy")
        p = f["payout_0"].to_numpy(dtype=float)
        out.append(Knob(c, label, b0, p, gamut_slope(c, f), np.full(len(p), np.nan), frame=f))
    return out


_BUILDERS = {"goathead3": _goathead, "goathead4": _goathead, "sheepshead": _sheepshead, "clover": _clover,
             "gamut": _gamut}

_HOW = {
    "goathead3": "solved double dummy after seat 0's heuristic kitty exchange (analysis.odds.heuristic_exchange; "
                 "the other players do not exchange); the value is the declarer's payout",
    "sheepshead": "the hands the policy picks with play the J♦-partner contract, or alone when the picker holds "
                  "J♦ after taking the blind (rule jd_picker); the hands it passes with are scored in a leaster (what is played when "
                  "everybody passes under the no_pick='leaster' option; the default is that the dealer picks). "
                  "Picking contracts are played {policy}, the leaster (no declaring side) by greedy play-outs; the "
                  "picker plays the dealt hand and the blind's points count for the picking side (no burying); "
                  "the value is seat 0's payout",
    "clover": "the contract seat 0 names is played {policy} with seat 0's team declaring; the value is the "
              "declaring team's margin (its game points minus the defenders'), since Clover is a race to a score",
    "gamut": "the game seat 0 would choose in Diamonds (hearts, spades, clubs or pass) is played out greedily; "
             "the value is seat 0's payout in that game (no Diamonds multiplier)",
}


def game_knobs(d: GameData) -> tuple[list[Knob], np.ndarray, int]:
    """``(knobs, choices, n)``: the knobs of ``d``'s game on its first balancer deals, what the
    policy chose with each hand, and how many deals were used."""
    n = min(d.plan.balance_deals or d.plan.dd_deals or d.plan.play_deals, len(d.deals))
    deals = d.deals[:n]
    contracts = tuple(d.plan.dd_contracts) if d.g.id.startswith("goathead") else tuple(d.g.contracts)
    bids = d._cached("policy_bids", lambda: policy_bids(d.game, deals[:, 0], contracts, d.rules))
    knobs = d._cached("balancer", lambda: _BUILDERS[d.game](d, deals, bids))
    return knobs, bids, n


def balancer_section(d: GameData) -> Section:
    sec = Section("Payout balancer")
    if d.game not in _BUILDERS:
        sec.paragraphs.append(_NOTHING.get(d.game, "This game has no per-contract payout to tune."))
        return sec
    knobs, bids, n = game_knobs(d)
    if len(knobs) < 2:
        sec.paragraphs.append(f"Too few hands chose a contract in {n} deals to balance (need {MIN_HANDS} for at "
                              f"least two contracts).")
        return sec
    sol = solve_knobs(knobs)
    rng = np.random.default_rng(d.seed)
    boots = []
    for _ in range(300):
        rs = []
        for k in knobs:
            i = rng.integers(0, len(k.payout), len(k.payout))
            rs.append(Knob(k.contract, k.knob, k.current, k.payout[i], k.slope[i], k.made[i], k.floor))
        boots.append(solve_knobs(rs))
    table = []
    total = sum(len(k.payout) for k in knobs)
    for k in knobs:
        ev = mean_ci(k.payout)
        made = k.made[np.isfinite(k.made)]
        bs = np.array([b[k.contract] for b in boots], dtype=float)
        lo, hi = (np.nanpercentile(bs, [2.5, 97.5]) if np.isfinite(bs).mean() > 0.9 else (np.nan, np.nan))
        s = sol[k.contract]
        table.append({"contract": k.contract, "knob": k.knob, "hands": len(k.payout), "share": len(k.payout) / total,
                      "make rate": made.mean() if len(made) else np.nan, "current": k.current,
                      "expected value now": fmt_ci(ev["mean"], ev["lo"], ev["hi"]),
                      "∂EV/∂knob": float(k.slope.mean()),
                      "suggested": fmt_ci(s, lo, hi, digits=2) if np.isfinite(s) else "none (no setting reaches T)",
                      "_s": s, "_lo": lo, "_hi": hi, "_ev": ev["mean"]})
    t = pd.DataFrame(table)
    chosen = {c: int((bids == c).sum()) for c in dict.fromkeys(bids.tolist())}
    rare = [k for k in chosen if k not in set(t["contract"]) and k not in ("pass", "pick")]
    policy = "double dummy" if d.plan.primary_policy == "dd" else "by greedy play-outs"
    how = _HOW.get(d.game, _HOW["goathead3"]).format(policy=policy)
    sec.paragraphs += [
        f"Which {KNOBS[d.game]} would make every contract worth the same to the player who chooses it? For each of "
        f"the first {n} deals the heuristic policy is asked what seat 0 would choose with its dealt hand ("
        + ", ".join(f"{k} {v}" for k, v in chosen.items()) + f"); {how}. Every payout is linear in the knob b, "
        "so each contract's expected value is EV_c(b) = EV_c + (b − b0)·S_c with S_c = E[∂payout/∂b] (the "
        f"∂EV/∂knob column). The suggestion solves EV_c(b) = T with T = {sol['__target__']:.3f}, the mean of the "
        "contracts' expected values weighted by how often each is chosen; 'none' means no setting at or above "
        "the knob's floor (0 for stakes and penalties) reaches T. Intervals: 2.5–97.5% bootstrap percentiles "
        "over the deals (300 resamples).",
        "This is a suggestion for designers beside the current settings, not a rule change: the policy chooses "
        "with simple hand counts, and double-dummy figures differ from real play (the real-play section "
        "measures by how much, per contract).",
    ]
    if rare:
        sec.paragraphs.append("Not balanced (chosen with fewer than "
                              f"{MIN_HANDS} of the {n} hands): " + ", ".join(f"{c} {chosen[c]}" for c in rare) + ".")
    sec.tables.append(("Current and suggested settings", t.drop(columns=["_s", "_lo", "_hi", "_ev"])))
    fig, axes = figure(ncols=2)
    x = np.arange(len(t))
    axes[0][0].bar(x - 0.2, t["current"], width=0.4, label="current")
    s_ = t["_s"].to_numpy(dtype=float)
    ok = np.isfinite(s_)
    err = np.vstack([s_ - t["_lo"].to_numpy(dtype=float), t["_hi"].to_numpy(dtype=float) - s_])
    axes[0][0].bar(x[ok] + 0.2, s_[ok], width=0.4, yerr=np.abs(np.nan_to_num(err[:, ok])), capsize=3, label="suggested")
    axes[0][0].set_xticks(x, t["contract"], rotation=30, ha="right")
    axes[0][0].set_ylabel("setting")
    axes[0][0].axhline(0, color="#444", lw=0.6)
    axes[0][0].legend(fontsize=7)
    axes[0][0].set_title("Knob: current and suggested")
    axes[0][1].bar(x, t["_ev"], color="#c9773b")
    axes[0][1].axhline(sol["__target__"], color="k", ls="--", lw=1, label="target T")
    axes[0][1].set_xticks(x, t["contract"], rotation=30, ha="right")
    axes[0][1].set_ylabel("expected value now")
    axes[0][1].legend(fontsize=7)
    axes[0][1].set_title("Expected value of the hands that choose it")
    sec.figures.append((f"Current against suggested settings of the {KNOBS[d.game]} (bootstrap 95% intervals) and "
                        "each contract's expected value for the hands that choose it (n in the table).", fig))
    d.results["balancer"] = t.drop(columns=["_s", "_lo", "_hi", "_ev"])
    return sec
