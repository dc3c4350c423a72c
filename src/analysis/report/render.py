"""Render a report document to a self-contained HTML page and its Markdown twin.

A :class:`Document` is a title and a list of :class:`Section` s; a section holds
paragraphs, tables (pandas DataFrames) and figures (matplotlib Figures).  The HTML page
embeds every figure as a base64 PNG, so it opens anywhere without its folder; the Markdown
twin links PNG files written beside it.

>>> import pandas as pd
>>> doc = Document("Demo", [Section("Numbers", paragraphs=["Two rows."],
...                                tables=[("t", pd.DataFrame({"a": [1, 2]}))])])
>>> "<h2 id=\\"numbers\\">Numbers</h2>" in doc.to_html()
True
>>> print(doc.to_markdown(figure_dir="fig").splitlines()[0])
# Demo
"""

from __future__ import annotations

import base64
import html
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

__all__ = ["Document", "Section", "slug"]

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #446;padding-bottom:.2em}
h2{margin-top:2em;border-bottom:1px solid #ccd}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}
th,td{border:1px solid #ccd;padding:.25em .6em;text-align:right}
th{background:#eef}
td:first-child,th:first-child{text-align:left}
figure{margin:1em 0}
figcaption{font-size:.85em;color:#555}
nav ul{columns:2}
.note{color:#555;font-size:.9em}
.error{background:#fee;border:1px solid #c33;color:#900;padding:.5em 1em;white-space:pre-wrap;font-family:monospace;font-size:.85em}
img{max-width:100%}
"""


def slug(text: str) -> str:
    """An HTML id / file stem for a heading."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


@dataclass
class Section:
    """One titled part of a report."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    figures: list[tuple[str, object]] = field(default_factory=list)  # (caption, matplotlib Figure)
    errors: list[str] = field(default_factory=list)  # failures shown in a red box, never hidden

    @property
    def id(self) -> str:
        return slug(self.title)


@dataclass
class Document:
    """A report page: a title, an introduction and sections."""

    title: str
    sections: list[Section]
    intro: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)  # (text, href) shown under the title
    # each figure's PNG, rendered once for the HTML page and the Markdown twin alike
    _pngs: dict[object, bytes] = field(default_factory=dict, repr=False, compare=False)

    # -- figures -------------------------------------------------------------------------
    def _png(self, fig) -> bytes:
        """``fig`` as PNG bytes.  Rendering is most of a report's own time (150-190 ms a
        figure, with or without the tight bounding box), so a figure is rendered once per
        document and :meth:`write`'s two pages share it (figures hash by identity)."""
        if fig not in self._pngs:
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
            self._pngs[fig] = buf.getvalue()
        return self._pngs[fig]

    # -- HTML ----------------------------------------------------------------------------
    def to_html(self) -> str:
        out = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{html.escape(self.title)}</title>",
            f"<style>{_CSS}</style></head><body>",
            f"<h1>{html.escape(self.title)}</h1>",
        ]
        if self.links:
            out.append("<p>" + " · ".join(f'<a href="{html.escape(h)}">{html.escape(t)}</a>' for t, h in self.links) + "</p>")
        out += [f"<p>{html.escape(p)}</p>" for p in self.intro]
        out.append("<nav><ul>" + "".join(f'<li><a href="#{s.id}">{html.escape(s.title)}</a></li>' for s in self.sections) + "</ul></nav>")
        for s in self.sections:
            out.append(f'<section><h2 id="{s.id}">{html.escape(s.title)}</h2>')
            out += [f'<pre class="error">{html.escape(e)}</pre>' for e in s.errors]
            out += [f"<p>{html.escape(p)}</p>" for p in s.paragraphs]
            for caption, table in s.tables:
                out.append(f"<p class=\"note\">{html.escape(caption)}</p>" if caption else "")
                # a plain row number carries no information: only a named index is shown
                out.append(table.to_html(border=0, float_format=lambda v: f"{v:.4g}", na_rep="–",
                                         index=not isinstance(table.index, pd.RangeIndex)))
            for caption, fig in s.figures:
                data = base64.b64encode(self._png(fig)).decode("ascii")
                out.append(
                    f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
                    f"<figcaption>{html.escape(caption)}</figcaption></figure>"
                )
            out.append("</section>")
        out.append("</body></html>")
        return "\n".join(out)

    # -- Markdown ------------------------------------------------------------------------
    def to_markdown(self, figure_dir: str | Path, write_figures: bool = False, base: Path | None = None) -> str:
        """Markdown twin; figures are linked as ``figure_dir/<section>-<n>.png`` (written
        under ``base`` when ``write_figures``)."""
        lines = [f"# {self.title}", ""]
        if self.links:
            lines += [" · ".join(f"[{t}]({h.replace('.html', '.md')})" for t, h in self.links), ""]
        lines += [*(p + "\n" for p in self.intro)]
        for s in self.sections:
            lines += [f"## {s.title}", ""]
            lines += ["```text\nERROR: " + e + "\n```\n" for e in s.errors]
            lines += [p + "\n" for p in s.paragraphs]
            for caption, table in s.tables:
                if caption:
                    lines += [f"*{caption}*", ""]
                lines += [_markdown_table(table), ""]
            for k, (caption, fig) in enumerate(s.figures):
                name = f"{s.id}-{k + 1}.png"
                rel = Path(figure_dir) / name
                if write_figures:
                    target = (base or Path(".")) / rel
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(self._png(fig))
                lines += [f"![{caption}]({rel.as_posix()})", ""]
        return "\n".join(lines)

    def write(self, folder: str | Path, stem: str = "index") -> Path:
        """Write ``stem.html`` and ``stem.md`` (+ figures) into ``folder``; returns the HTML path."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        page = folder / f"{stem}.html"
        page.write_text(self.to_html(), encoding="utf-8")
        (folder / f"{stem}.md").write_text(
            self.to_markdown(figure_dir=f"figures/{stem}", write_figures=True, base=folder), encoding="utf-8"
        )
        return page


def _markdown_table(df: pd.DataFrame) -> str:
    frame = df.reset_index() if not isinstance(df.index, pd.RangeIndex) else df

    def fmt(v: object) -> str:
        if isinstance(v, float):
            return "–" if v != v else f"{v:.4g}"
        return str(v).replace("|", "\\|")

    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(fmt(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])
