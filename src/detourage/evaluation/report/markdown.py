"""``report.md``: the sections as Markdown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...tables import markdown_table, md_cell
from .data import _TITLE, Histogram, _Run
from .tables import _md_linked, _Section, _sections


def render_markdown(summary: Mapping[str, Any], hists: Mapping[str, Histogram] | None = None) -> str:
    """report.md: the run, then every table (plots are in the HTML report)."""
    run = _Run(summary)
    out = [f"# {_TITLE}\n", _provenance(run) + "\n", *(f"**Note**: {md_cell(n)}\n" for n in _notes(run)),
           "Per-page scores: [pages.csv](pages.csv), [pages.jsonl](pages.jsonl); "
           "every figure: [summary.json](summary.json); plots: [report.html](report.html).\n"]
    for section in _sections(run, hists or {}):
        if section.tables or section.items or section.code:
            out.append(_md_section(section))
    return "\n".join(out)


def _provenance(run: _Run) -> str:
    s = run.summary
    split = ("every page, both halves of the fixed split" if s.get("split") is None
             else f"the {s['split']!r} half of the fixed split (gold.split_of) only")
    sample = f"; a sample of {s['sample']} per dataset, spread over its languages" if s.get("sample") else ""
    return (f"Created {s.get('created') or 'N/A'} by detourage {s.get('version') or 'N/A'}; "
            f"{len(run.methods)} method(s), {len(run.dataset_names)} dataset(s); pages: {split}{sample}.")


def _notes(run: _Run) -> list[str]:
    """What a reader must know to trust the figures (training pages scored)."""
    return [str(note) for note in run.summary.get("notes") or ()]


def _md_section(section: _Section) -> str:
    parts = [f"## {section.title}\n"]
    parts += [f"{t}\n" for t in section.text]
    parts += [markdown_table(t.flat_headers(), _md_linked(t)) for t in section.tables]
    if section.items:
        parts.append("\n".join(f"- {md_cell(i)}" for i in section.items) + "\n")
    if section.code:
        fence = "````" if "```" in section.code else "```"
        parts.append(f"{fence}sh\n{section.code}\n{fence}\n")
    return "\n".join(parts)
