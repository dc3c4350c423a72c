"""The balance report: a tiny report is written with every section and figure, its Markdown
twin links figure files that exist, and headless Chromium renders it without console errors."""

from __future__ import annotations

import base64
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from analysis.report import SECTIONS, write_report
from analysis.report.common import contract_summary, fmt_ci, proportion
from analysis.report.data import plan_for
from analysis.report.render import slug
from analysis.stats import wilson_interval

GAMES = ("goathead3", "hearts")
N_DEALS = 8


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    index = write_report(list(GAMES), n_deals=N_DEALS, out=out, seed=5, n_jobs=1)
    return out, index


def _first_table(fragment: str) -> pd.DataFrame:
    """The first HTML table of ``fragment`` as text cells (stdlib parser: no lxml needed)."""
    from html.parser import HTMLParser

    class P(HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.cell, self.done = [], None, False

        def handle_starttag(self, tag, attrs):
            if self.done:
                return
            if tag == "tr":
                self.rows.append([])
            elif tag in ("td", "th"):
                self.cell = ""

        def handle_endtag(self, tag):
            if tag in ("td", "th") and self.cell is not None and not self.done:
                self.rows[-1].append(self.cell.strip())
                self.cell = None
            elif tag == "table":
                self.done = True

        def handle_data(self, data):
            if self.cell is not None:
                self.cell += data

    p = P()
    p.feed(fragment)
    return pd.DataFrame(p.rows[1:], columns=p.rows[0])


def _img_count(text: str) -> int:
    return len(re.findall(r'<img [^>]*src="data:image/png;base64,', text))


def test_pages_exist(report):
    out, index = report
    assert index == out / "index.html"
    for name in ("index.html", "index.md", "crossgame.html", "crossgame.md"):
        assert (out / name).is_file(), name
    for g in GAMES:
        assert (out / g / "index.html").is_file()
        assert (out / g / "index.md").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_game_page_has_every_section_and_figure(report, game):
    out, _ = report
    text = (out / game / "index.html").read_text(encoding="utf-8")
    assert 'class="error"' not in text
    for title in SECTIONS:
        assert f'<h2 id="{slug(title)}">' in text, title
    # every figure is an embedded, decodable PNG
    pngs = re.findall(r'src="data:image/png;base64,([^"]+)"', text)
    assert len(pngs) >= 5
    for data in pngs:
        assert base64.b64decode(data)[:8] == b"\x89PNG\r\n\x1a\n"
    # provenance: seed, deal counts and version are stated
    assert "seed 5" in text and "trickcore" in text and f"{N_DEALS} played out greedily" in text
    # no page refers to a machine path; the links lead back to the index and cross-game page
    assert "/tmp/" not in text
    assert 'href="../index.html"' in text and 'href="../crossgame.html"' in text
    assert (out / game / "../crossgame.html").resolve().is_file()


@pytest.mark.parametrize("game", GAMES)
def test_markdown_twin_links_existing_figures(report, game):
    out, _ = report
    md = (out / game / "index.md").read_text(encoding="utf-8")
    html = (out / game / "index.html").read_text(encoding="utf-8")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", md)
    assert len(links) == _img_count(html)
    for rel in links:
        assert (out / game / rel).is_file(), rel
    for title in SECTIONS:
        assert f"## {title}" in md
    assert "(../index.md)" in md


def test_goathead_numbers_are_consistent(report):
    out, _ = report
    text = (out / "goathead3" / "index.html").read_text(encoding="utf-8")
    # six bid contracts solved on N_DEALS deals each: the contracts table states n
    table = _first_table(text.split('id="contracts-make-rate-and-expected-payout"')[1])
    dd = table[table["play"] == "double dummy"]
    assert sorted(dd["contract"]) == sorted(["diamonds", "hearts", "nil", "spades", "clubs", "court"])
    assert (dd["n"].astype(int) == N_DEALS).all()
    for cell in dd["make rate"]:  # "m [lo, hi]": k of the N_DEALS deals made, Wilson interval
        m, lo, hi = map(float, re.match(r"([\d.]+) \[([\d.]+), ([\d.]+)\]", cell).groups())
        k = round(m * N_DEALS)
        assert m == round(k / N_DEALS, 3), cell
        w_lo, w_hi = wilson_interval(k, N_DEALS)
        assert (lo, hi) == (round(float(w_lo), 3), round(float(w_hi), 3)), cell


def test_crossgame_page_lists_groups(report):
    out, _ = report
    text = (out / "crossgame.html").read_text(encoding="utf-8")
    assert "Goathead: 3 players against 4 players" in text
    assert "CardsWithCats: Hearts, Spades, Oh Hell" in text
    assert 'class="error"' not in text


def test_summary_helpers():
    assert fmt_ci(float("nan"), 0, 1) == "–"
    p = proportion([True, True, False, None])
    assert p["n"] == 3 and p["mean"] == pytest.approx(2 / 3)      # the missing value dropped
    assert (p["lo"], p["hi"]) == tuple(pytest.approx(float(x)) for x in wilson_interval(2, 3))
    f = pd.DataFrame({"contract": pd.Categorical(["a", "a", "b"]), "declarer": [0, 0, -1], "made": [True, False, pd.NA],
                      "payout_0": [2.0, -4.0, 1.0], "payout_1": [-2.0, 4.0, -1.0]})
    s = contract_summary(f).set_index("contract")
    assert s.loc["a", "make"] == 0.5 and s.loc["a", "ev"] == -1.0
    assert np.isnan(s.loc["b", "make"]) and s.loc["b", "ev"] == 1.0


def test_each_figure_is_rendered_once(tmp_path, monkeypatch):
    """The HTML page and the Markdown twin share each figure's PNG: one rendering per
    figure (rendering was most of the report's own time, done twice)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    from analysis.report.render import Document, Section

    figs = []
    for k in range(2):
        fig, ax = plt.subplots()
        ax.plot([0, 1], [k, 1 - k])
        figs.append((f"figure {k}", fig))
    calls = []
    real = Figure.savefig
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **kw: (calls.append(self), real(self, *a, **kw))[1])
    page = Document("Demo", [Section("Lines", figures=figs)]).write(tmp_path)
    assert len(calls) == 2 and {id(f) for f in calls} == {id(f) for _, f in figs}
    embedded = [base64.b64decode(m) for m in re.findall(r'src="data:image/png;base64,([^"]+)"', page.read_text())]
    files = [(tmp_path / "figures" / "index" / f"lines-{k}.png").read_bytes() for k in (1, 2)]
    assert embedded == files and embedded[0] != embedded[1]
    for _, fig in figs:
        plt.close(fig)


def test_bad_input():
    with pytest.raises(ValueError, match="unknown game"):
        write_report(["bridge"], n_deals=4)
    with pytest.raises(ValueError, match="n_deals"):
        plan_for("goathead3", 1)


def test_failing_section_is_shown_and_raised(tmp_path, monkeypatch):
    import analysis.report as R

    def boom(d):
        raise ZeroDivisionError("kaboom")

    real = R._sections
    # one real section and one that fails keep the test quick
    monkeypatch.setattr(R, "_sections", lambda: [real()[0], ("Payout balancer", boom)])
    with pytest.raises(RuntimeError, match="Payout balancer"):
        write_report(["goathead4"], n_deals=4, out=tmp_path, seed=1, n_jobs=1)
    text = (tmp_path / "goathead4" / "index.html").read_text(encoding="utf-8")
    assert 'class="error"' in text and "kaboom" in text


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.parametrize("game", GAMES)
def test_renders_in_headless_chromium(report, tmp_path, game):
    browser = _chromium()
    if browser is None:
        pytest.skip("no chromium/chromium-browser/google-chrome on PATH (install Debian's chromium)")
    out, _ = report
    page = out / game / "index.html"
    html = page.read_text(encoding="utf-8")
    # A probe script runs after load and writes what the browser really shows into the DOM:
    # every section heading, and every image decoded with a non-zero natural size.
    probe = """<script>window.addEventListener('load', () => {
      const imgs = [...document.images];
      const ok = imgs.filter(i => i.complete && i.naturalWidth > 0 && i.naturalHeight > 0).length;
      const h2 = [...document.querySelectorAll('h2')].map(h => h.id).join(',');
      const d = document.createElement('div'); d.id = 'probe';
      d.textContent = `images=${imgs.length};decoded=${ok};sections=${h2}`;
      document.body.appendChild(d);
    });</script>"""
    probed = tmp_path / "probed.html"
    probed.write_text(html.replace("</body>", probe + "</body>"), encoding="utf-8")
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
           "--virtual-time-budget=5000", "--dump-dom", probed.as_uri()]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    m = re.search(r'<div id="probe">images=(\d+);decoded=(\d+);sections=([^<]*)</div>', res.stdout)
    assert m, res.stdout[-2000:]
    n_img, n_ok, ids = int(m.group(1)), int(m.group(2)), m.group(3).split(",")
    assert n_img == _img_count(html) and n_ok == n_img
    assert ids == [slug(t) for t in SECTIONS]
    console = [ln for ln in res.stderr.splitlines() if "CONSOLE" in ln or "Uncaught" in ln]
    assert not console, console
    # and a screenshot is produced (the page lays out)
    shot = tmp_path / "shot.png"
    res = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={shot}",
                          "--window-size=1200,2000", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert shot.is_file() and shot.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("game,contract,policy", [
    ("hearts", "hearts", "greedy"), ("gamut", "hearts", "greedy"), ("gamut", "spades", "dd"),
    ("gamut", "clubs", "dd"), ("ohhell", "clubs", "greedy"), ("sheepshead", "jd", "dd"),
    ("sheepshead", "leaster", "greedy"), ("clover", "clubs", "greedy"), ("spades", "spades", "greedy"),
])
def test_evaluation_builds_consistent_scoring_columns(game, contract, policy):
    from trickcore.cards import CardSet
    from trickcore.deals import random_deals
    from trickcore.games import get_game
    from trickcore.scoring import hand_melds

    from analysis.report.evaluation import evaluate_contract

    g = get_game(game)
    deals = random_deals(game, 6, 11)
    f = evaluate_contract(game, contract, deals, policy=policy)
    n, hs = g.n_seats, g.layout(contract).hand_size
    assert len(f) == 6 and f["deal"].tolist() == list(range(6))
    assert np.isfinite(f[[f"payout_{s}" for s in range(n)]].to_numpy(dtype=float)).all()
    if policy == "dd" and not f[[c for c in f.columns if c.startswith("tricks_")]].shape[1]:
        # double dummy knows the declaring side's tricks only (no per-seat split invented)
        assert ((0 <= f["side_tricks"]) & (f["side_tricks"] <= hs)).all()
    else:
        assert (f[[f"tricks_{s}" for s in range(n)]].sum(axis=1) == hs).all()
    if "hearts_0" in f:
        n_hearts = 13 if game == "hearts" else 8
        assert (f[[f"hearts_{s}" for s in range(n)]].sum(axis=1) == n_hearts).all()
        assert (f[[f"queen_{s}" for s in range(n)]].sum(axis=1) == 1).all()
    if game == "sheepshead" and contract == "jd":
        jd = CardSet.parse("JD").mask
        for row in f.itertuples():
            holder = [s for s in range(n) if int(getattr(row, f"hand_{s}")) & jd]
            assert row.partner == (holder[0] if holder and holder[0] != 0 else -1)
    if game == "clover":
        for row in f.itertuples():
            mine = sum(hand_melds(CardSet(int(getattr(row, f"hand_{s}"))), trump=contract)
                       for s in range(n) if row.side_mask >> s & 1)
            assert row.side_hand_melds == mine
    if (game, contract) in (("spades", "spades"), ("gamut", "spades")):
        assert (f["declarer"] == 0).all() and f["made"].notna().all()
