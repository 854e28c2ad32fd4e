"""Report of an evaluation run: the files a person reads, sorts and archives.

The evaluation runner hands over two things, both plain JSON-able data:

* ``summary``: the run (command, date, version), the datasets (pages, languages, digest,
  gold problems), the methods, one row of aggregated scores per (method, dataset,
  language) — ``"all"`` pooling datasets or languages — and optionally the rows of a
  downstream task (seed 002 Table 3);
* ``pages``: one dict per (page, method) with its scores, possibly a stream of millions.

:func:`write_reports` writes, into one folder:

* ``summary.json``: the summary as given (non-finite floats become ``null``);
* ``pages.csv`` and ``pages.jsonl``: one line per page, columns in :data:`PAGE_COLUMNS`
  order, so a user can sort on a score and find the pages a method fails on;
* ``report.md``: the tables;
* ``report.html``: one self-contained file (inline style, inline SVG drawn here, no
  script, no outside resource) with the same tables and plots: F1 per language and
  method (one chart per dataset, one for the downstream task), per-page score
  distributions, quality against speed.  Pages are aggregated (histograms); only the
  :data:`WORST_PAGES` worst of each method are listed, each linked to the inspector
  (``detourage ui``, :data:`INSPECTOR`) at that page, with the method and the gold as a
  difference; so its size depends on methods × languages, not on pages.  Colours are
  Okabe & Ito's colour-blind-safe palette; methods past its eight colours get them hatched.

Both reports are built from one list of sections (:class:`_Section`), rendered twice.
Numbers read as in the seeds: P / R / F1 and shares are percentages with two decimals;
"N/A" marks a value that could not be computed (seed 002 Table 3).

The package holds one module per output: :mod:`.files` writes them, :mod:`.tables` says
what they show, :mod:`.markdown`, :mod:`.html` and :mod:`.svg` render it; :mod:`.data`
holds the constants, the run and the numbers.
"""

from .data import (
    BINS,
    FILES,
    INSPECTOR,
    INSPECTOR_PORT,
    MAX_PROBLEMS_HTML,
    NA,
    PAGE_COLUMNS,
    PALETTE,
    REFERENCE,
    REFERENCE_COLOUR,
    WORST_PAGES,
    Histogram,
    histograms,
)
from .files import write_pages, write_reports
from .html import render_html
from .markdown import render_markdown

__all__ = ["BINS", "FILES", "INSPECTOR", "INSPECTOR_PORT", "MAX_PROBLEMS_HTML", "NA", "PAGE_COLUMNS", "PALETTE",
           "REFERENCE", "REFERENCE_COLOUR", "WORST_PAGES", "Histogram", "histograms",
           "render_html", "render_markdown", "write_pages", "write_reports"]
