"""The cross-game page: Goathead 3p against 4p, Gamut's games, Sheepshead's variants and the
three CardsWithCats games, from the figures the game pages computed (no new runs)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .common import CI_NOTE, figure, fmt_ci, shown
from .data import GameData
from .render import Document, Section

__all__ = ["crossgame_document", "GROUPS"]

#: (title, games, what the comparison is about)
GROUPS = (
    ("Goathead: 3 players against 4 players", ("goathead3", "goathead4"),
     "The same contracts with 6 cards each and a 2-card kitty (3 players) or 4 cards each, a 4-card kitty "
     "and black-jack partnerships (4 players)."),
    ("Gamut: its four games", ("gamut",),
     "The turned card picks Hearts, Spades or Clubs, or Diamonds, where players choose among the three; the "
     "match table shows how often each is played once the Diamonds choices are made."),
    ("Sheepshead: its variants", ("sheepshead",),
     "Partner by J♦ against the called ace, the picker alone, and the leaster; rule options below."),
    ("CardsWithCats: Hearts, Spades, Oh Hell", ("hearts", "spades", "ohhell"),
     "Three games of the same app, each every player (or partnership) for itself."),
)


def _contract_rows(datas: dict[str, GameData], games) -> pd.DataFrame:
    parts = []
    for g in games:
        s = datas[g].results.get("contracts")
        if s is not None and not s.empty:
            s = s.copy()
            s.insert(0, "game", g)
            parts.append(s)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _match_rows(datas: dict[str, GameData], games) -> pd.DataFrame:
    rows = []
    for g in games:
        m = datas[g].results.get("matches")
        if not m:
            continue
        win = m["win"]
        rl = m["rounds"]
        rows.append({"game": g, "matches": m["n"], "rounds per match": fmt_ci(rl["mean"], rl["lo"], rl["hi"], 2),
                     **{f"seat {s} win rate": w for s, w in zip(win["seat"], win["win rate"])}})
    return pd.DataFrame(rows)


def crossgame_document(datas: dict[str, GameData], seed: int) -> Document:
    """The cross-game page from the game pages' results (only groups with a game present)."""
    sections = []
    for title, games, about in GROUPS:
        present = [g for g in games if g in datas]
        if not present:
            continue
        sec = Section(title, paragraphs=[about + " Figures are the game pages' own (same deals, seeds and sizes; "
                                         "see each page for how it was produced). " + CI_NOTE])
        cr = _contract_rows(datas, present)
        if not cr.empty:
            sec.tables.append(("Contracts (from each game page)", shown(cr, {
                "game": "game", "contract": "contract", "play": "play", "n": "n", "make": "make rate",
                "ev": "expected payout", "points": "declarer's points"})))
            fig, axes = figure(ncols=2 if cr["make"].notna().any() else 1, width=5.6)
            labels = [str(c) for c in cr["contract"]]
            x = np.arange(len(cr))
            colors = [f"C{present.index(g)}" for g in cr["game"]]
            k = 0
            if cr["make"].notna().any():
                m = cr["make"].to_numpy(dtype=float)
                err = np.vstack([m - cr["make_lo"].to_numpy(dtype=float), cr["make_hi"].to_numpy(dtype=float) - m])
                axes[0][0].bar(x, np.nan_to_num(m), yerr=np.nan_to_num(err), color=colors, capsize=2)
                axes[0][0].set_xticks(x, labels, rotation=60, fontsize=7)
                axes[0][0].set_ylabel("make rate")
                axes[0][0].set_ylim(0, 1)
                k = 1
            e = cr["ev"].to_numpy(dtype=float)
            err = np.vstack([e - cr["ev_lo"].to_numpy(dtype=float), cr["ev_hi"].to_numpy(dtype=float) - e])
            axes[0][k].bar(x, e, yerr=np.nan_to_num(err), color=colors, capsize=2)
            axes[0][k].set_xticks(x, labels, rotation=60, fontsize=7)
            from matplotlib.patches import Patch

            axes[0][k].legend(handles=[Patch(color=f"C{i}", label=g) for i, g in enumerate(present)], fontsize=7)
            axes[0][k].set_ylabel("expected payout (declarer or seat 0)")
            axes[0][k].axhline(0, color="#444", lw=0.6)
            sec.figures.append(("Make rate and expected payout per contract across the games (95% intervals; "
                                "n per bar in the table).", fig))
        mr = _match_rows(datas, present)
        if not mr.empty:
            sec.tables.append(("Whole matches with the heuristic policy", mr))
        for g in present:
            m = datas[g].results.get("matches")
            if m and g == "gamut":
                gg = datas[g].results.get("gamut_games")
                if gg is not None:
                    sec.tables.append(("Gamut: the four games in heuristic matches", gg))
                sec.tables.append(("Gamut: contracts played in heuristic matches", m["contracts"]))
            v = datas[g].results.get("variants")
            if v is not None and not v.empty and g == "sheepshead":
                sec.tables.append(("Sheepshead: rule variants (from its page)", v))
        sections.append(sec)
    if not sections:
        sections.append(Section("Cross-game comparison", paragraphs=[
            "The report was written for games that form no comparison group here "
            f"({', '.join(datas)}); run it with the games of a group to compare them."]))
    return Document("Cross-game comparison", sections,
                    intro=[f"Comparisons across games from the game pages of this report (seed {seed})."],
                    links=[("index", "index.html")] + [(datas[g].g.title, f"{g}/index.html") for g in datas])
