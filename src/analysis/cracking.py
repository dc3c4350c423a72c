"""Sheepshead: should a seat crack, and should the picker re-crack?  Their expected
payouts with and without.

After the pick, the call and the burial, each seat after the picker up to the dealer may
*crack* (rule option ``crack``, on by default): the stake doubles, and the picker, then its
partner, may answer with a *re-crack* (doubled again).  A seat decides that knowing its
hand, who picked, what was called (so whether it is the partner itself) and whether a
seat before it cracked already; :func:`crack_odds` answers the question for each such
situation: the analyst's expected payout when it says no and when it cracks, and the gain
with a paired interval.  :func:`recrack_odds` asks the picker's question after a crack
(per contract, its trumps after the burial and the cracking seat).

The model, per layout of the unseen cards (dealer the last seat, seat 0 its left, as
everywhere in :mod:`analysis`):

1. **The seats before** ``picker`` **passed and** ``picker`` **picked**, by the rule of
   :meth:`trickcore.policies.HeuristicPolicy.pick_or_pass` (:func:`~analysis.passing.heuristic_picks`):
   layouts are drawn uniformly with the analyst's hand fixed and kept when that holds
   (rejection sampling; ``attrs["acceptance"]``).
2. **The picker** calls, takes the blind, buries and may go alone as in
   :func:`~analysis.passing.pass_odds` (the same code); the hand is played double dummy
   from ``leader`` and scored by :func:`trickcore.scoring.score`: the analyst's payout at
   the unit stake.
3. **The stakes** (:mod:`analysis.stakes`): blitz and red blitz as HeuristicPolicy
   declares them (the analyst's own red blitz too); the seats between the picker and the
   analyst crack as the heuristic does (:func:`~analysis.stakes.cracks`: the partner always,
   a defender with five trumps or four with two queens).  If one of them cracked,
   the analyst has no crack to decide (the situation ``"cracked before"``).  Otherwise it
   decides: *no*, and the seats after it crack as the heuristic does; or *crack*.  After
   a crack the picker, then the partner, re-crack as the heuristic does (the analyst's
   own answer as partner too: the round engine asks the partner even when the partner
   made the crack).

The figures are those of double-dummy play at a table of heuristic bidders, as in
:func:`~analysis.passing.pass_odds`; ``advice`` is ``"crack"`` or ``"no"`` where the
gain's interval excludes 0, else ``"close"``.  Picking the better option per situation on
the same layouts that estimate it flatters the chosen option a little (a winner's curse
of the order of the gain's standard error): ``attrs["ev_advised"]`` is such an optimistic
figure, ``ev_never`` and ``ev_heuristic`` are not.

>>> t = crack_odds("QS JH QD AD 10D 9D", seat=3, picker=1, n_deals=60, seed=1)
>>> list(t.columns[:6])
['situation', 'contract', 'role', 'n', 'p', 'ev_no']
>>> sorted(set(t["situation"]))
['cracked before', 'decide']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from trickcore.games import get_game

from .constraints import Predicate, as_constraint
from .odds import _check_seat
from .stakes import _count, blitz_factor, cracked_stake, cracks, first_cracker, recracks, trump_mask
from .stats import Moments

__all__ = ["crack_odds", "recrack_odds", "crack_multipliers"]

#: Layouts :func:`crack_odds` evaluates by default.
DEFAULT_N_DEALS = 2000

#: The dealer's seat (the last; nobody after it may crack).
DEALER = 4


def crack_multipliers(contract: str, dealt: np.ndarray, played: np.ndarray, picker: int, seat: int,
                      partner: np.ndarray, rules: Mapping[str, Any] | None = None) -> dict[str, np.ndarray]:
    """The stake multiplier of each layout when ``seat`` says no and when it cracks, and
    whether a seat between the picker and ``seat`` cracked first (module docstring, step 3).

    Arrays as :func:`analysis.stakes.heuristic_multiplier` takes them (``dealt``: the hands
    as dealt; ``played``: at the start of play, the picker's after the burial; ``partner``:
    each row's partner seat, ``-1`` for none).  Returns ``{"no": int64[n], "crack":
    int64[n], "before": bool[n], "heuristic": bool[n]}``: where ``before`` is set both
    multipliers are the table's (the analyst is not asked); ``heuristic``: whether
    HeuristicPolicy would crack in ``seat`` (:func:`~analysis.stakes.cracks`), so that
    ``where(heuristic, crack, no)`` is :func:`~analysis.stakes.heuristic_multiplier`.

    >>> import numpy as np
    >>> from trickcore import CardSet
    >>> hands = ["QC QS QH JC 7C 8C", "QD JS AH 10H KH 9H", "JH JD AD 10D KD 9D",
    ...          "AC 10C KC 9C AS 10S", "KS 9S 8S 7S 8H 7H", "8D 7D"]
    >>> dealt = np.array([[CardSet(h).mask for h in hands]], dtype=np.uint64)
    >>> played = dealt.copy()
    >>> played[0, 0] = CardSet("QC QS QH JC 8D 7D").mask
    >>> # seat 1 (two trumps, a defender) is asked first and says no; seat 2 (the partner)
    >>> # decides: blitz x2, its crack x2, the picker's re-crack with six trumps x2
    >>> m = crack_multipliers("jd", dealt, played, picker=0, seat=2, partner=np.array([2]))
    >>> m["no"].tolist(), m["crack"].tolist(), m["before"].tolist()
    ([2], [8], [False])
    """
    n_seats = get_game("sheepshead").n_seats
    rules = dict(rules or {})
    dealt = np.asarray(dealt, dtype=np.uint64)
    played = np.asarray(played, dtype=np.uint64)
    partner = np.asarray(partner, dtype=np.int64)
    if not 0 <= picker < seat < n_seats:
        raise ValueError(f"seat must come after the picker (0 <= picker < seat <= {n_seats - 1}): only the seats "
                         f"after the picker may crack; got picker {picker}, seat {seat}")
    trumps = trump_mask(contract, rules)
    before = first_cracker(played, range(picker + 1, seat), partner, trumps) >= 0
    later = first_cracker(played, range(seat + 1, n_seats), partner, trumps) >= 0
    stake = cracked_stake(played, picker, partner, trumps)
    blitz = blitz_factor(dealt, picker, rules)
    # not asked after an earlier crack: both options are then the table's own stake
    no = np.where(before | later, stake, 1)
    return {"no": blitz * no, "crack": blitz * stake, "before": before,
            "heuristic": cracks(played, seat, partner, trumps)}


def crack_odds(
    hand: Any,
    seat: int,
    picker: int,
    rules: Mapping[str, Any] | None = None,
    *,
    constraints: Any = None,
    fixed: Mapping[Any, Any] | None = None,
    n_deals: int | None = None,
    seed: int | None = 0,
    leader: int = 0,
    level: float = 0.95,
    max_draws: int | None = None,
    return_samples: bool = False,
) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """The analyst's expected Sheepshead payout in pick-order ``seat`` when ``picker``, an
    earlier seat, has picked: without and with its crack, per situation it can tell apart.

    Parameters
    ----------
    hand, seat:
        The analyst's six cards and its seat (0 the dealer's left, 4 the dealer).
    picker:
        The seat that picked, before ``seat`` (only the seats after the picker may crack).
    rules:
        Sheepshead's rule options; ``crack`` must be on (the default).
    constraints, fixed:
        More knowledge of the hidden cards, as in :func:`~analysis.odds.contract_odds`.
    n_deals, seed, max_draws:
        Layouts to evaluate (default 2000), the sampling seed (the result depends only on
        it and the arguments) and the rejection budget (default ``max(100 * n_deals,
        100_000)`` layouts drawn).  Each layout is solved only as far as its payout needs
        (the scorer's cuts for the buried cards): the payouts of exact solves, in a third
        to a sixth of the time.
    leader, level:
        The seat leading the first trick (default 0) and the intervals' confidence level.
    return_samples:
        Also return the per-layout table: ``hand_0`` .. ``hand_4``, ``blind``, ``contract``,
        ``buried``, ``partner``, ``payout_base`` (the analyst's payout at the unit stake),
        ``mult_no``, ``mult_crack``, ``cracked_before``.

    Returns
    -------
    pandas.DataFrame
        One row per situation: ``situation`` (``"decide"``: the analyst is asked;
        ``"cracked before"``: a seat before it cracked), ``contract`` (as played: the call,
        or ``alone``), ``role`` (``"partner"``: the analyst holds the partner card;
        ``"defender"``), ``n``, ``p`` (share of the layouts), ``ev_no`` and ``ev_crack``
        (expected payouts; where the analyst is not asked, ``ev_no`` is the payout at the
        table's stakes and ``ev_crack`` ``NaN``), ``gain``, ``gain_lo``,
        ``gain_hi`` (``ev_crack - ev_no`` on the same layouts and its interval),
        ``advice`` (``"crack"``, ``"no"``, ``"close"``; empty where not asked) and
        ``heuristic`` (what HeuristicPolicy does there: :func:`~analysis.stakes.cracks`).
        ``attrs``: ``hand``, ``seat``, ``picker``, ``leader``, ``n_drawn``, ``acceptance``,
        ``level``, ``seed``, ``ev_never`` (never cracking), ``ev_heuristic`` (cracking as the
        heuristic), ``ev_advised`` (cracking where ``gain > 0``; optimistic, module
        docstring).

    Raises
    ------
    ValueError
        Another game's hand, a bad seat or picker (the picker must come before ``seat``),
        the ``crack`` option off, too few layouts in which the picker picks.
    """
    from .passing import heuristic_picks

    g = get_game("sheepshead")
    picker = _check_seat("picker", picker, g.n_seats)

    def picks(deals: np.ndarray) -> np.ndarray:
        return heuristic_picks(g, deals[:, picker], rules)

    def after_picker(seat: int) -> None:
        if picker >= seat:
            raise ValueError(f"the picker must come before the analyst: only the seats after the picker may crack "
                             f"(got picker {picker}, seat {seat})")

    sampled = _sampled(hand, seat, rules, picker, after_picker, [Predicate(picks, f"seat {picker} picks")],
                       constraints=constraints, fixed=fixed, n_deals=n_deals, seed=seed, leader=leader, level=level,
                       max_draws=max_draws, return_samples=return_samples)
    g, rules, seat, leader, h, deals, drawn, res, played = sampled
    n, contract, partner = len(deals), res["contract"], res["partner"]
    mult_no = np.ones(n, dtype=np.int64)
    mult_crack = np.ones(n, dtype=np.int64)
    before = np.zeros(n, dtype=bool)
    heuristic = np.zeros(n, dtype=bool)
    for c in pd.unique(contract):
        rows = np.flatnonzero(contract == c)
        m = crack_multipliers(c, deals[rows], played[rows], picker, seat, partner[rows], rules)
        mult_no[rows], mult_crack[rows] = m["no"], m["crack"]
        before[rows], heuristic[rows] = m["before"], m["heuristic"]
    role = np.where(partner == seat, "partner", "defender").astype(object)
    keys = pd.DataFrame({"situation": np.where(before, "cracked before", "decide"), "contract": contract,
                         "role": role})
    return _result(deals, drawn, res, keys, ~before, mult_no, mult_crack, heuristic, "crack",
                   {"game": g.id, "hand": str(h), "seat": seat, "picker": picker, "leader": leader, "level": level,
                    "seed": seed},
                   {"cracked_before": before}, return_samples)


def recrack_odds(
    hand: Any,
    seat: int = 0,
    rules: Mapping[str, Any] | None = None,
    *,
    constraints: Any = None,
    fixed: Mapping[Any, Any] | None = None,
    n_deals: int | None = None,
    seed: int | None = 0,
    leader: int = 0,
    level: float = 0.95,
    max_draws: int | None = None,
    return_samples: bool = False,
) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """The picker's side of :func:`crack_odds`: the analyst picks in ``seat`` (the seats
    before it passed) and a later seat cracks; its expected payout without and with its
    re-crack, per situation it can tell apart (the contract it called or went alone in,
    whether it has a partner, its trumps after the pick-up and burial, and which seat
    cracked).

    The model is :func:`crack_odds`' with the analyst as the picker: the layouts on which
    the earlier seats pass by the heuristic (the analyst picks whatever its hand), its call,
    burial and going alone as HeuristicPolicy's (:func:`~analysis.passing.pass_odds`),
    blitz and red blitz as the heuristic declares them, the first seat after it that cracks
    by the heuristic's rule cracks, double-dummy play from ``leader``.  Where nobody cracks
    there is nothing to decide (situation ``"not cracked"``).  Where the analyst does not
    re-crack, its partner may, by the heuristic's rule, as the round engine asks it.
    Arguments and results as in :func:`crack_odds` (``ev_recrack`` for ``ev_crack``;
    ``alone``, ``trumps`` and ``cracker`` for ``role``, ``alone`` true where no other seat
    holds the partner card (none called, or the analyst holds or buried it); ``heuristic``
    ``"some"`` where HeuristicPolicy re-cracks on part of a situation's layouts only (alone
    with five trumps, by its queens and jacks); ``ev_never`` never re-cracking, ``ev_heuristic``
    re-cracking as HeuristicPolicy (:func:`~analysis.stakes.recracks`: four trumps or more;
    alone six, or five with four queens and jacks), ``ev_advised`` optimistic).  ``ValueError`` for
    the dealer's seat (nobody after it may crack) and as :func:`crack_odds`.

    >>> t = recrack_odds("QC QS JD AD 10D 9H", seat=1, n_deals=60, seed=1)
    >>> list(t.columns[:8])
    ['situation', 'contract', 'alone', 'trumps', 'cracker', 'n', 'p', 'ev_no']
    """
    def not_the_dealer(seat: int) -> None:
        if seat == DEALER:
            raise ValueError(f"seat {seat} is the dealer: no seat after it may crack, so there is no re-crack to "
                             "decide")

    sampled = _sampled(hand, seat, rules, None, not_the_dealer, [], constraints=constraints, fixed=fixed,
                       n_deals=n_deals, seed=seed, leader=leader, level=level, max_draws=max_draws,
                       return_samples=return_samples)
    g, rules, seat, leader, h, deals, drawn, res, played = sampled
    n, k, contract, partner = len(deals), g.n_seats, res["contract"], res["partner"]
    mult_no = np.ones(n, dtype=np.int64)
    mult_yes = np.ones(n, dtype=np.int64)
    cracker = np.full(n, -1, dtype=np.int64)
    own_trumps = np.zeros(n, dtype=np.int64)
    heuristic = np.zeros(n, dtype=bool)
    for c in pd.unique(contract):
        rows = np.flatnonzero(contract == c)
        trumps = trump_mask(c, rules)
        held = played[rows]
        own_trumps[rows] = _count(held[:, seat], trumps)
        heuristic[rows] = recracks(held[:, seat], trumps, partner[rows] < 0)
        cracker[rows] = first_cracker(held, range(seat + 1, k), partner[rows], trumps)
        others = cracked_stake(held, seat, partner[rows], trumps, picker_recracks=False)
        blitz = blitz_factor(deals[rows], seat, rules)
        cracked = cracker[rows] >= 0
        mult_no[rows] = blitz * np.where(cracked, others, 1)
        mult_yes[rows] = blitz * np.where(cracked, 4, 1)
    asked = cracker >= 0
    # the picker decides knowing its hand after the pick-up and burial: its trumps key the
    # situations too (what HeuristicPolicy decides by, with its queens and jacks when alone)
    keys = pd.DataFrame({"situation": np.where(asked, "cracked", "not cracked"), "contract": contract,
                         "alone": partner < 0, "trumps": own_trumps, "cracker": cracker})
    return _result(deals, drawn, res, keys, asked, mult_no, mult_yes, heuristic, "recrack",
                   {"game": g.id, "hand": str(h), "seat": seat, "leader": leader, "level": level, "seed": seed},
                   {"cracker": cracker, "trumps": own_trumps}, return_samples)


def _sampled(hand: Any, seat: Any, rules: Any, picker: int | None, check_seat: Any, conditions: list[Any], *,
             constraints: Any, fixed: Any, n_deals: Any, seed: Any, leader: Any, level: Any, max_draws: Any,
             return_samples: Any) -> tuple[Any, ...]:
    """The arguments of :func:`crack_odds` and :func:`recrack_odds` checked (``check_seat``
    adds the analyst seat's own test), the layouts drawn (the seats before the picker
    pass, and ``conditions``), and the picker's call, burial and double-dummy payouts:
    ``(game, rules, seat, leader, hand, deals, drawn, picked rows, hands at the start of
    play)``.  ``picker`` None: the analyst picks."""
    from trickcore.games.base import rule_dict

    from .odds import _check_hand
    from .passing import _check_sampling, _draw, _picked_rows, earlier_seats_pass
    from .simulate import _layout_rules

    g = get_game("sheepshead")
    rules = rule_dict(rules)
    g.check_rules(rules)
    if not rules.get("crack", True):
        raise ValueError("the crack rule option is off: nobody may crack (give rules with crack=True)")
    seat = _check_seat("seat", seat, g.n_seats)
    check_seat(seat)
    picker = seat if picker is None else picker
    leader = _check_seat("leader", leader, g.n_seats)
    h = _check_hand(g, hand, seat, rules)
    n_deals, max_draws, fx, user = _check_sampling(g, seat, h, rules, DEFAULT_N_DEALS, n_deals, max_draws, 100,
                                                   seed, level, return_samples, fixed, constraints)
    cond = [earlier_seats_pass(g, picker, rules), *conditions] + ([user] if constraints is not None else [])
    deals, drawn = _draw(g, n_deals, seed, fx, as_constraint(cond), max_draws, _layout_rules(g.id, rules))
    k = g.n_seats
    # solved only as far as the payouts need: the samples hold no points
    res = _picked_rows(g, deals, np.full(len(deals), picker, dtype=np.int64), rules, seat, leader,
                       solve="dd_payout")
    played = deals[:, :k].copy()
    played[:, picker] = (deals[:, picker] | deals[:, k]) & ~res["buried"]
    return g, rules, seat, leader, h, deals, drawn, res, played


def _result(deals: np.ndarray, drawn: int, res: Mapping[str, np.ndarray], keys: pd.DataFrame, asked: np.ndarray,
            mult_no: np.ndarray, mult_yes: np.ndarray, heuristic: np.ndarray, yes: str, attrs: Mapping[str, Any],
            columns: Mapping[str, np.ndarray], return_samples: bool) -> Any:
    """The table of :func:`crack_odds` and :func:`recrack_odds` (:func:`_decision_table`)
    with its ``attrs``, and the samples when asked for: the layouts, the picker's
    ``res`` (:func:`analysis.passing._picked_rows` at the unit stake), the multipliers
    without and with the analyst's ``yes`` and the situation's ``columns``."""
    n, k = len(deals), deals.shape[1] - 1
    base = res["payout"]
    pay_no, pay_yes = base * mult_no, base * mult_yes
    table, advised = _decision_table(keys, asked, pay_no, pay_yes, heuristic, attrs["level"], yes)
    table.attrs.update({
        **attrs, "n_drawn": int(drawn), "acceptance": n / drawn, "ev_never": float(pay_no.mean()),
        "ev_heuristic": float(np.where(heuristic, pay_yes, pay_no).mean()), "ev_advised": float(advised.mean()),
    })
    if not return_samples:
        return table
    samples = pd.DataFrame({f"hand_{s}": deals[:, s] for s in range(k)})
    samples["blind"] = deals[:, k]
    samples["contract"] = res["contract"]
    samples["buried"] = res["buried"]
    samples["partner"] = res["partner"]
    for name, values in columns.items():
        samples[name] = values
    samples["payout_base"] = base
    samples["mult_no"] = mult_no
    samples[f"mult_{yes}"] = mult_yes
    return table, samples


def _decision_table(keys: pd.DataFrame, asked: np.ndarray, pay_no: np.ndarray, pay_yes: np.ndarray,
                    heuristic: np.ndarray, level: float, yes: str) -> tuple[pd.DataFrame, np.ndarray]:
    """One row per situation (the distinct rows of ``keys``; ``asked`` says where the
    analyst decides): ``n``, ``p``, ``ev_no``, ``ev_<yes>``, the paired gain and its
    interval, ``advice`` and ``heuristic``, the asked situations first, each group by
    falling share.  Also each layout's payout when the analyst follows the advice
    (``yes`` where the situation's mean gain is positive)."""
    n = len(keys)
    cols = list(keys.columns)
    rows, advised = [], pay_no.astype(float).copy()
    for key, idx in keys.assign(_asked=asked).groupby(["_asked", *cols], sort=True).indices.items():
        idx = np.asarray(idx)
        row = dict(zip(cols, key[1:]))
        row.update(n=len(idx), p=len(idx) / n, ev_no=Moments.of(pay_no[idx]).mean)
        if not key[0]:      # not asked: the payout at the table's stakes
            row.update({f"ev_{yes}": np.nan, "gain": np.nan, "gain_lo": np.nan, "gain_hi": np.nan, "advice": "",
                         "heuristic": ""})
        else:
            gain, lo, hi = Moments.of(pay_yes[idx] - pay_no[idx]).interval(level)
            row.update({f"ev_{yes}": Moments.of(pay_yes[idx]).mean, "gain": gain, "gain_lo": lo, "gain_hi": hi,
                        "advice": yes if lo > 0 else "no" if hi < 0 else "close",
                        "heuristic": yes if heuristic[idx].all() else "some" if heuristic[idx].any() else "no",
                        "_asked": True})
            if gain > 0:
                advised[idx] = pay_yes[idx]
        row.setdefault("_asked", False)
        rows.append(row)
    table = pd.DataFrame(rows).sort_values(["_asked", "p"], ascending=[False, False], kind="stable")
    return table.drop(columns="_asked").reset_index(drop=True), advised
