"""The balance report: one self-contained HTML page per game (with a Markdown twin), a
cross-game page and an index, written by :func:`write_report` (``trickcore report``).

Each game page has these sections (one module each):

* contracts (:mod:`.contracts`): make rate and expected payout per contract, score distributions;
* hand features (:mod:`.features`): make rate against trumps held, card points, top trumps;
* seats (:mod:`.seats`): the same deals with each seat on lead, payouts per seat;
* rule variants (:mod:`.variants`): each rule option's effect, paired on common deals;
* payout balancer (:mod:`.balancer`): base payouts that equalise the contracts' values;
* real play (:mod:`.realplay`): double dummy against greedy play and PIMC (Hearts and Oh
  Hell: seat 0's paranoid double dummy on shortened positions, :mod:`.seatdd`);
* matches (:mod:`.matches`): win rate per seat, match length, contracts bid and made.

Every number carries its sample size and a 95% interval, and every page states its seed,
deal counts, rules and library version.  A section that fails is shown in a red box on its
page and :func:`write_report` raises after writing everything (a failure is a bug, never
hidden).

>>> SECTIONS[:2]
('Contracts: make rate and expected payout', 'Score distributions')
>>> index = write_report(["goathead3"], n_deals=8, out="reports-demo")  # doctest: +SKIP
"""

from __future__ import annotations

import platform
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .data import GameData, plan_for
from .render import Document, Section

__all__ = ["write_report", "game_document", "SECTIONS", "Document", "Section"]


def _sections():
    from .balancer import balancer_section
    from .contracts import contracts_section, distribution_section
    from .features import features_section
    from .matches import matches_section
    from .realplay import realplay_section
    from .seats import seats_section
    from .variants import variants_section

    return [
        ("Contracts: make rate and expected payout", contracts_section),
        ("Score distributions", distribution_section),
        ("Make rate against hand features", features_section),
        ("Seat and lead advantage", seats_section),
        ("Match-level balance", matches_section),
        ("Rule variants", variants_section),
        ("Payout balancer", balancer_section),
        ("Double dummy against real play", realplay_section),
    ]


#: Section titles of every game page, in order.
SECTIONS: tuple[str, ...] = (
    "Contracts: make rate and expected payout", "Score distributions", "Make rate against hand features",
    "Seat and lead advantage", "Match-level balance", "Rule variants", "Payout balancer",
    "Double dummy against real play",
)


def _provenance(d: GameData, seconds: float | None = None) -> list[str]:
    import trickcore

    p = d.plan
    rules = d.g.check_rules(d.rules)
    lines = [
        f"Produced by trickcore {trickcore.__version__} (trickcore report), seed {d.seed}, Python "
        f"{platform.python_version()}. Deals: {p.dd_deals} solved double dummy "
        f"({', '.join(p.dd_contracts) or 'none'}), {p.play_deals} played out greedily "
        f"({', '.join(p.play_contracts)}), {p.seat_deals} re-solved per leader, {p.variant_deals} per "
        f"layout-changing rule option; {p.matches} heuristic matches (+{p.variant_matches} per bidding/match "
        f"option value); {p.pimc_rounds} PIMC rounds ({p.pimc_samples} samples per card)"
        + (f"; {p.seat_dd_deals} deals solved for seat 0 alone against the others"
           + (f" (the last {p.seat_dd_tricks} tricks)" if p.seat_dd_tricks else "")
           + (f" (hands of {d.seat_dd_hand_size} cards)" if d.seat_dd_hand_size else "") if p.seat_dd_deals else "")
        + ".",
        ("Rules (the rulings' defaults unless stated): " if not d.rules else
         "Rules (set for this report: " + ", ".join(f"{k}={v!r}" for k, v in d.rules.items()) + "; every other "
         "option the rulings' default): ") + ", ".join(f"{k}={v!r}" for k, v in rules.items()) + ".",
    ]
    if seconds is not None:
        steps = ", ".join(f"{k.split(':')[0] if k.startswith('matches') else k} {v:.0f} s"
                          for k, v in sorted(d.timings.items(), key=lambda kv: -kv[1]) if v >= 0.5)
        lines.append(f"Computed in {seconds:.0f} s" + (f" (largest steps: {steps})." if steps else "."))
    return lines


def game_document(d: GameData, failures: list[str] | None = None) -> Document:
    """The page of one game; a failing section becomes a red error box (and is listed in
    ``failures``)."""
    sections = []
    t0 = time.perf_counter()
    for title, fn in _sections():
        try:
            sections.append(fn(d))
        except Exception:  # noqa: BLE001 - shown on the page and re-raised by write_report
            tb = traceback.format_exc()
            sections.append(Section(title, errors=[f"This section failed:\n{tb}"]))
            if failures is not None:
                failures.append(f"{d.game}: {title}: {tb.strip().splitlines()[-1]}")
    doc = Document(f"{d.g.title} — balance report", sections,
                   intro=_provenance(d, time.perf_counter() - t0),
                   links=[("index", "../index.html"), ("cross-game comparison", "../crossgame.html")])
    return doc


def write_report(games: Sequence[str] | None = None, n_deals: int | None = None, out: str | Path = "reports",
                 seed: int = 2026, n_jobs: int = -1, rules: Mapping[str, Any] | None = None) -> Path:
    """Write the balance report into ``out``; returns the path of ``index.html``.

    Parameters
    ----------
    games:
        Game ids (default: every game).
    n_deals:
        Deals per game for every kind of run (default: each game's own plan,
        :data:`analysis.report.data.DEFAULT_PLANS`, the one table of default deal counts,
        sized so that all games finish within ten minutes on two cores); matches and PIMC
        rounds scale down with it.
    out:
        Folder; it gets ``index.html``/``.md``, ``crossgame.html``/``.md`` and one folder
        per game with ``index.html``/``.md`` and the Markdown twin's figures.
    seed, n_jobs:
        The seed of every deal and match; parallel workers (``-1``: all cores).
    rules:
        Rule options of one game (``games`` must name exactly that one): its page is
        computed under them instead of the rulings' defaults, its rule variants flipped
        from them.

    Raises
    ------
    ValueError
        Unknown game, a bad ``n_deals``, or ``rules`` for more than one game or unknown to
        it.
    RuntimeError
        When a section failed (after writing every page; the failure is on its page).
    """
    from trickcore.games import GAME_IDS, get_game

    ids = [get_game(g).id for g in (games or GAME_IDS)]
    plans = {g: plan_for(g, n_deals) for g in ids}
    if rules is not None and not isinstance(rules, Mapping):
        raise ValueError(f"rules must be a mapping of rule options, not {rules!r}")
    rules = dict(rules or {})
    if rules:
        if len(ids) != 1:
            raise ValueError(f"rules are options of one game: give exactly one game with them, not {len(ids)}")
        get_game(ids[0]).check_rules(rules)      # unknown options or values: ValueError
    if not isinstance(n_jobs, int) or isinstance(n_jobs, bool) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a number of workers (-1: all cores), not {n_jobs!r}")
    from ..engine import check_seed

    check_seed(seed)
    from ..store import make_folder

    out = make_folder(out, "report folder")
    failures: list[str] = []
    datas: dict[str, GameData] = {}
    rows = []
    for g in ids:
        t = time.perf_counter()
        d = GameData(g, plans[g], seed=seed, n_jobs=n_jobs, rules=rules)
        doc = game_document(d, failures)
        doc.write(out / g)
        datas[g] = d
        rows.append({"game": f"[{d.g.title}]({g}/index.html)", "id": g, "seconds": round(time.perf_counter() - t, 1),
                     "double-dummy deals": d.plan.dd_deals, "seat-0 double-dummy deals": d.plan.seat_dd_deals,
                     "play-out deals": d.plan.play_deals,
                     "matches": d.plan.matches})
    from .crossgame import crossgame_document

    try:
        cross = crossgame_document(datas, seed)
    except Exception:  # noqa: BLE001
        tb = traceback.format_exc()
        failures.append(f"crossgame: {tb.strip().splitlines()[-1]}")
        cross = Document("Cross-game comparison", [Section("Cross-game comparison", errors=[tb])],
                         links=[("index", "index.html")])
    cross.write(out, "crossgame")
    import trickcore

    index_rows = pd.DataFrame(rows)
    links = [(f"{datas[g].g.title}", f"{g}/index.html") for g in ids] + [("cross-game comparison", "crossgame.html")]
    idx = Document("trickcore balance report", [
        Section("Games", paragraphs=[
            "One page per game (HTML with embedded figures; a Markdown twin index.md with its figure files "
            "beside it), and a cross-game page. Each page says how it was produced."],
            tables=[("Pages, sizes and computing time", index_rows.drop(columns=["game"]))]),
        Section("How to read it", paragraphs=[
            "Double dummy (DD): every card visible, perfect play on both sides — an upper bound on what "
            "careful play achieves, and the same for every deal, so contracts and rule options are compared "
            "on common deals. Greedy play-outs, heuristic matches and PIMC rounds show real play.",
            "Every rate and mean has its sample size n and a 95% interval; deltas are paired on common deals."]),
    ], intro=[f"Written by trickcore {trickcore.__version__} with seed {seed} "
              f"({'default deal counts per game' if n_deals is None else f'{n_deals} deals per game'})"
              + (f", under the rules {', '.join(f'{k}={v!r}' for k, v in rules.items())}." if rules else ".")],
        links=links)
    page = idx.write(out, "index")
    if failures:
        raise RuntimeError("report sections failed (shown on their pages):\n" + "\n".join(failures))
    return page
