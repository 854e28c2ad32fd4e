"""``report.html``: one self-contained file (inline style and SVG, no script)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...tables import numeric_columns
from .data import _FONT, _TITLE, MAX_PROBLEMS_HTML, NA, Histogram, _Run
from .markdown import _notes, _provenance
from .svg import _e, _hatches
from .tables import _Section, _sections, _Table

_CSS = """
body{font:14px/1.45 %s;color:#1b1b1b;background:#fff;margin:0 auto;max-width:1240px;
padding:1.2rem 1.5rem 3rem}
h1{font-size:1.6rem;margin:.2rem 0 .4rem}
h2{font-size:1.2rem;margin:2rem 0 .5rem;padding-bottom:.2rem;border-bottom:2px solid #e3e6ea}
p{margin:.35rem 0;max-width:75rem}
nav{margin:.6rem 0 1rem;font-size:.92rem}
nav a{margin-right:.9rem;white-space:nowrap}
a{color:#0b5cad}
.meta{color:#444}
.wrap{overflow-x:auto;margin:.5rem 0 1.2rem}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:13px}
th,td{padding:.22rem .55rem;border-bottom:1px solid #e3e6ea;white-space:nowrap}
th{background:#f1f3f5;font-weight:600;text-align:center}
td{text-align:left}
td.n{text-align:right}
tbody tr:nth-child(even){background:#fafbfc}
tbody tr:hover{background:#eef4fb}
td.best{font-weight:700}
tr.brk td{border-top:2px solid #b9bfc6}
td.na{color:#8a8a8a}
th.group{border-left:2px solid #fff}
svg.plot{display:block;max-width:100%%;height:auto;margin:.6rem 0 1rem;font-family:%s}
pre{background:#f6f8fa;border:1px solid #e3e6ea;padding:.6rem .8rem;overflow-x:auto;
white-space:pre-wrap;word-break:break-all}
ul.problems{columns:2;font-size:13px}
""" % (_FONT, _FONT)  # noqa: UP031 - CSS is full of braces: format() would double each


def render_html(summary: Mapping[str, Any], hists: Mapping[str, Histogram] | None = None) -> str:
    """report.html: one self-contained page (inline style and SVG, no script, no link)."""
    run = _Run(summary)
    sections = _sections(run, hists or {})
    nav = " ".join(f'<a href="#{s.anchor}">{_e(s.title)}</a>' for s in sections)
    files = ", ".join(f'<a href="{n}">{n}</a>' for n in ("pages.csv", "pages.jsonl",
                                                        "summary.json", "report.md"))
    body = [f"<h1>{_e(_TITLE)}</h1>", f'<p class="meta">{_e(_provenance(run))}</p>',
            *(f'<p class="note"><strong>Note</strong>: {_e(n)}</p>' for n in _notes(run)),
            f'<p class="meta">Per-page scores and every figure: {files}.</p>',
            f"<nav>{nav}</nav>", _hatches(len(run.methods)), *map(_html_section, sections)]
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>'
            '<meta name="viewport" content="width=device-width, initial-scale=1"/>'
            f"<title>{_e(_TITLE)}</title><style>{_CSS}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _html_section(section: _Section) -> str:
    parts = [f'<section id="{section.anchor}"><h2>{_e(section.title)}</h2>']
    parts += [f"<p>{_e(t)}</p>" for t in section.text]
    parts += section.plots
    parts += [_html_table(t) for t in section.tables]
    if section.items:
        shown = section.items[:MAX_PROBLEMS_HTML]
        parts.append('<ul class="problems">' + "".join(f"<li>{_e(i)}</li>" for i in shown)
                     + "</ul>")
        if len(section.items) > len(shown):
            parts.append(f"<p>… and {len(section.items) - len(shown)} more in summary.json.</p>")
    if section.code:
        parts.append(f"<pre><code>{_e(section.code)}</code></pre>")
    return "\n".join(parts) + "</section>"


def _html_table(table: _Table) -> str:
    numeric = numeric_columns(table.headers, table.rows)
    head = ""
    if table.groups:
        head = "<tr>" + "".join(f'<th class="group" colspan="{span}">{_e(g)}</th>'
                                for g, span in table.groups) + "</tr>"
    head += "<tr>" + "".join(f"<th>{_e(h)}</th>" for h in table.headers) + "</tr>"
    body = "".join(("<tr class=\"brk\">" if r in table.breaks else "<tr>")
                   + "".join(_html_cell(table, r, c, v, numeric[c])
                                    for c, v in enumerate(row)) + "</tr>"
                   for r, row in enumerate(table.rows))
    return f'<div class="wrap"><table><thead>{head}</thead><tbody>{body}</tbody></table></div>'


def _html_cell(table: _Table, r: int, c: int, value: str, numeric: bool) -> str:
    classes = [k for k, on in (("n", numeric), ("best", (r, c) in table.best),
                               ("na", value == NA)) if on]
    attr = f' class="{" ".join(classes)}"' if classes else ""
    link = table.links.get((r, c))
    content = f'<a href="{_e(link)}">{_e(value)}</a>' if link else _e(value)
    return f"<td{attr}>{content}</td>"
