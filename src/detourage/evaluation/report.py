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
"""

from __future__ import annotations

import csv
import heapq
import html
import json
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlencode

#: columns of pages.csv / keys of pages.jsonl, in this order; any other key of the first
#: page follows in the CSV (every key is kept in the JSONL)
PAGE_COLUMNS = (
    "dataset", "id", "lang", "method", "ok", "error", "ms",
    "to_p", "to_r", "to_f1", "tm_labelled_f1", "tm_unlabelled_f1", "car_f1",
    "shingle_p", "shingle_r", "cos", "snippet_accuracy",
)

#: file kind -> file name, as returned by write_reports
FILES = {
    "json": "summary.json",
    "csv": "pages.csv",
    "jsonl": "pages.jsonl",
    "md": "report.md",
    "html": "report.html",
}

#: what a missing or non-computable value prints as (seed 002 Table 3)
NA = "N/A"
#: the row of a downstream task scored on gold-cleaned text (seed 002 Table 3)
REFERENCE = "Référence"
#: Okabe & Ito's colour-blind-safe palette, yellow last (weak on white)
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000",
           "#F0E442")
REFERENCE_COLOUR = "#7f7f7f"
#: bins of the per-page score histograms, over [0, 1]
BINS = 20
#: gold problems listed per dataset in the HTML (all of them are in summary.json)
MAX_PROBLEMS_HTML = 200
#: pages listed per method, lowest TO F1 first, each linked to the inspector
WORST_PAGES = 10
#: the port ``detourage ui`` listens on by default, and the address report links open
INSPECTOR_PORT = 8765
INSPECTOR = f"http://127.0.0.1:{INSPECTOR_PORT}/"

_FONT = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif'
_TITLE = "detourage evaluation"


# ------------------------------------------------------------------------- writing


def write_reports(
    summary: Mapping[str, Any], pages: Iterable[Mapping[str, Any]], out_dir: str | Path
) -> dict[str, Path]:
    """Write summary.json, pages.csv, pages.jsonl, report.md and report.html in out_dir.

    ``pages`` is read once, as a stream.  Returns the path of each file by kind (keys of
    :data:`FILES`: ``json``, ``csv``, ``jsonl``, ``md``, ``html``).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {kind: out / name for kind, name in FILES.items()}
    _write(paths["json"], json.dumps(_finite(summary), ensure_ascii=False, indent=2) + "\n")
    with _atomic(paths["csv"]) as f_csv, _atomic(paths["jsonl"]) as f_jsonl:
        hists = write_pages(pages, f_csv, f_jsonl)
    _write(paths["md"], render_markdown(summary, hists))
    _write(paths["html"], render_html(summary, hists))
    return paths


def write_pages(
    pages: Iterable[Mapping[str, Any]], csv_out: TextIO, jsonl_out: TextIO
) -> dict[str, Histogram]:
    """Stream pages to CSV and JSONL; return the per-method TO F1 histograms on the way."""
    hists: dict[str, Histogram] = {}
    writer = csv.writer(csv_out, lineterminator="\n")
    columns: list[str] | None = None
    for page in pages:
        if columns is None:
            columns = [*PAGE_COLUMNS, *(k for k in page if k not in PAGE_COLUMNS)]
            writer.writerow(columns)
        writer.writerow([_csv_value(page.get(k)) for k in columns])
        jsonl_out.write(_json_line(page))
        method = page.get("method")
        hist = hists.get(method) if isinstance(method, str) else None
        if hist is None:
            hist = hists.setdefault(str(method), Histogram())
        hist.add(page)
    if columns is None:
        writer.writerow(PAGE_COLUMNS)
    return hists


def _json_line(page: Mapping[str, Any]) -> str:
    """The page as one JSON line: known columns first, in order, then its other keys."""
    record = {k: page.get(k) for k in PAGE_COLUMNS}
    record.update(page)
    try:
        return json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError:  # NaN or infinity somewhere: null, so the line stays standard JSON
        return json.dumps(_finite(record), ensure_ascii=False) + "\n"


def _csv_value(value: Any) -> Any:
    """Empty for None and NaN, true/false for booleans, floats to 6 decimals."""
    if value is None:
        return ""
    kind = type(value)
    if kind is float:
        return repr(round(value, 6)) if math.isfinite(value) else ""
    if kind is bool:
        return "true" if value else "false"
    return value


def _finite(value: Any) -> Any:
    """A copy with NaN and infinities as None, so the JSON stays standard."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


class _atomic:
    """A text file written under a temporary name and renamed into place on success."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp = path.with_name(path.name + ".tmp")

    def __enter__(self) -> TextIO:
        self.file = self.tmp.open("w", encoding="utf-8", newline="")
        return self.file

    def __exit__(self, exc_type: object, *_: object) -> None:
        self.file.close()
        if exc_type is None:
            os.replace(self.tmp, self.path)
        else:
            self.tmp.unlink(missing_ok=True)


def _write(path: Path, text: str) -> None:
    with _atomic(path) as f:
        f.write(text)


@dataclass
class Histogram:
    """Per-page TO F1 of one method, binned (:data:`BINS` bins over [0, 1])."""

    bins: list[int] = field(default_factory=lambda: [0] * BINS)
    pages: int = 0
    failed: int = 0
    total: float = 0.0
    #: the :data:`WORST_PAGES` lowest-scored pages, as (-score, order, dataset, id, lang)
    #: in a heap whose top is the best of them
    worst: list[tuple[float, int, str, str, str]] = field(default_factory=list)

    def add(self, page: Mapping[str, Any]) -> None:
        self.pages += 1
        score = _number(page.get("to_f1"))
        if not page.get("ok", True) or score is None:
            self.failed += 1
            return
        score = min(1.0, max(0.0, score))
        self.bins[min(BINS - 1, int(score * BINS))] += 1
        self.total += score
        item = (-score, -self.pages, str(page.get("dataset")), str(page.get("id")), str(page.get("lang")))
        if len(self.worst) < WORST_PAGES:
            heapq.heappush(self.worst, item)
        elif item > self.worst[0]:
            heapq.heapreplace(self.worst, item)

    def lowest(self) -> list[tuple[float, str, str, str]]:
        """(score, dataset, id, lang) of the worst pages, lowest score first (then first seen)."""
        return [(-s, d, i, g) for s, _, d, i, g in sorted(self.worst, reverse=True)]

    @property
    def scored(self) -> int:
        return self.pages - self.failed

    @property
    def mean(self) -> float | None:
        return self.total / self.scored if self.scored else None


def histograms(pages: Iterable[Mapping[str, Any]]) -> dict[str, Histogram]:
    """Per-method histograms of per-page TO F1 (failed or unscored pages counted apart)."""
    hists: dict[str, Histogram] = {}
    for page in pages:
        hists.setdefault(str(page.get("method")), Histogram()).add(page)
    return hists


# ------------------------------------------------------------------------- numbers


def _number(value: Any) -> float | None:
    """A finite number, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _map(value: Any) -> Mapping[str, Any]:
    """value when it is a mapping, else an empty one (null sub-dicts of the summary)."""
    return value if isinstance(value, Mapping) else {}


def _dig(row: Mapping[str, Any] | None, *keys: str) -> float | None:
    """row[k1][k2]... as a number; None where any level is missing or null."""
    value: Any = row
    for key in keys:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return _number(value)


def _pct(x: float | None) -> str:
    return NA if x is None else f"{100 * x:.2f}"


def _cos(x: float | None) -> str:
    return NA if x is None else f"{x:.3f}"


def _ms(x: float | None) -> str:
    if x is None:
        return NA
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:,.0f}"


def _count(x: Any) -> str:
    """A count as an integer; a float read as a share, in percent."""
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    return _pct(_number(x))


def _failures(failed: Any) -> str:
    """'0', or '3 (timeout 2, error 1)'."""
    if not isinstance(failed, Mapping) or not failed:
        return "0"
    counts = sorted(((int(n), str(r)) for r, v in failed.items() if (n := _number(v))),
                    reverse=True)
    total = sum(n for n, _ in counts)
    return f"{total} ({', '.join(f'{r} {n}' for n, r in counts)})" if total else "0"


def _interval(shingle: Any) -> str:
    """'85.20 [83.10–87.00]' (shingle F1 with its bootstrap 95 % interval)."""
    f1 = _dig(shingle, "f1")
    lo, hi = _dig(shingle, "f1_low"), _dig(shingle, "f1_high")
    if f1 is None or lo is None or hi is None:
        return _pct(f1)
    return f"{_pct(f1)} [{_pct(lo)}–{_pct(hi)}]"


# ------------------------------------------------------------------------ the data


class _Run:
    """The summary, indexed: rows by (method, dataset, lang), methods and their colours."""

    def __init__(self, summary: Mapping[str, Any]) -> None:
        self.summary = summary
        self.rows: dict[tuple[str, str, str], Mapping[str, Any]] = {}
        for row in summary.get("rows") or ():
            key = (str(row.get("method")), str(row.get("dataset")), str(row.get("lang")))
            self.rows[key] = row
        seen = [str(m) for m in summary.get("methods") or ()]
        self.methods = list(dict.fromkeys([*seen, *(m for m, _, _ in self.rows)]))
        names = [str(d.get("name")) for d in self.datasets]
        self.dataset_names = list(dict.fromkeys(
            [*names, *(d for _, d, _ in self.rows if d != "all")]))
        self.pooled = self._pooled()

    @property
    def datasets(self) -> list[Mapping[str, Any]]:
        return list(self.summary.get("datasets") or ())

    def _pooled(self) -> str:
        """The dataset key of the pooled rows: 'all', or the only dataset when alone."""
        if any(d == "all" for _, d, _ in self.rows) or len(self.dataset_names) != 1:
            return "all"
        return self.dataset_names[0]

    def colour(self, method: str) -> str:
        """The method's fill: a palette colour, then the same colours hatched (9th on)."""
        if method == REFERENCE:
            return REFERENCE_COLOUR
        index = self.methods.index(method) if method in self.methods else len(self.methods)
        if (index // len(PALETTE)) % 2:
            return f"url(#hatch-{index % len(PALETTE)})"
        return PALETTE[index % len(PALETTE)]

    def row(self, method: str, dataset: str, lang: str = "all") -> Mapping[str, Any] | None:
        return self.rows.get((method, dataset, lang))

    def langs(self, dataset: str) -> list[str]:
        """Languages of a dataset's rows, sorted, 'all' last."""
        langs = {lang for _, d, lang in self.rows if d == dataset}
        return sorted(langs - {"all"}) + (["all"] if "all" in langs else [])

    def pages(self, dataset: str, lang: str) -> int | None:
        counts = [r.get("pages") for (_, d, g), r in self.rows.items() if (d, g) == (dataset, lang)]
        ints = [c for c in counts if isinstance(c, int)]
        return max(ints) if ints else None


# -------------------------------------------------------------------------- tables


@dataclass
class _Table:
    """A table rendered to both formats; ``groups`` spans header cells (HTML), prefixes
    them (Markdown); ``best`` holds the (row, column) cells to emphasise."""

    headers: list[str]
    rows: list[list[str]]
    groups: list[tuple[str, int]] = field(default_factory=list)
    best: set[tuple[int, int]] = field(default_factory=set)
    #: rows that start a new block (a rule above them in HTML)
    breaks: set[int] = field(default_factory=set)
    #: (row, column) → the address the cell links to
    links: dict[tuple[int, int], str] = field(default_factory=dict)

    def flat_headers(self) -> list[str]:
        if not self.groups:
            return self.headers
        prefixes = [g for g, span in self.groups for _ in range(span)]
        return [f"{g} {h}".strip() for g, h in zip(prefixes, self.headers, strict=True)]


_NUMERIC = re.compile(r"^(N/A|[-+]?[\d,.]+( \[[\d.]+–[\d.]+\])?( \(.*\))?)$")


def _numeric_columns(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[bool]:
    """Columns whose every cell is a number (or N/A), to be right-aligned."""
    return [bool(rows) and all(_NUMERIC.match(r[i]) for r in rows) for i in range(len(headers))]


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table; numeric columns right-aligned, '|' escaped."""
    cells = [[_md_cell(c) for c in row] for row in rows]
    head = [_md_cell(h) for h in headers]
    rule = ["---:" if n else "---" for n in _numeric_columns(head, cells)]
    lines = [head, rule, *cells]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines) + "\n"


def _md_linked(table: _Table) -> list[list[str]]:
    """The rows, a linked cell written ``[text](address)``."""
    return [[f"[{v}]({table.links[r, c]})" if (r, c) in table.links else v for c, v in enumerate(row)]
            for r, row in enumerate(table.rows)]


def _md_cell(value: Any) -> str:
    """One line, with the characters Markdown would read as markup backslash-escaped."""
    return re.sub(r"([\\|<*`])", r"\\\1", " ".join(str(value).split()))


def _best(values: Sequence[Sequence[float | None]], columns: Mapping[int, bool],
          blocks: Iterable[Sequence[int]]) -> set[tuple[int, int]]:
    """Cells holding the best value of their column within each block of rows.

    ``columns`` maps a column to True when higher is better; a block with fewer than two
    values has no best.
    """
    best: set[tuple[int, int]] = set()
    for block in blocks:
        for col, higher in columns.items():
            have = [(v, r) for r in block if (v := values[r][col]) is not None]
            if len(have) < 2:
                continue
            top = max(v for v, _ in have) if higher else min(v for v, _ in have)
            best.update((r, col) for v, r in have if v == top)
    return best


def _headline(run: _Run) -> _Table:
    """One row per method on everything pooled (dataset 'all', language 'all')."""
    headers = ["Method", "Pages", "Scored", "TO F1 micro", "TO F1 macro", "TM-l F1",
               "CAR F1", "Shingle F1 [95% CI]", "Exactitude", "cos mean", "ms median",
               "ms p95", "Failed"]
    rows, values = [], []
    for method in run.methods:
        r = _map(run.row(method, run.pooled))
        nums = [_dig(r, "to", "micro", "f1"), _dig(r, "to", "macro", "f1"),
                _dig(r, "tm_labelled", "micro", "f1"), _dig(r, "car", "micro", "f1"),
                _dig(r, "shingle", "f1"), _dig(r, "cosine", "exactitude"),
                _dig(r, "cosine", "mean"), _dig(r, "ms", "median"), _dig(r, "ms", "p95")]
        values.append([None] * 3 + nums + [None])
        rows.append([method, _count(r.get("pages")), _count(r.get("scored")),
                     *map(_pct, nums[:4]), _interval(r.get("shingle")),
                     _pct(nums[5]), _cos(nums[6]), _ms(nums[7]), _ms(nums[8]),
                     _failures(r.get("failed"))])
    directions = {c: c < 10 for c in range(3, 12)}
    return _Table(headers, rows, best=_best(values, directions, [range(len(rows))]))


def _cosine_table(run: _Run) -> _Table:
    """Seed 004 Figure 5.1: exactitude, mean cos, T = T*, T ⊂ T*, T* ⊂ T per method."""
    headers = ["Method", "Pages", "Exactitude", "cos θ", "T = T*", "T ⊂ T*", "T* ⊂ T"]
    rows = []
    for method in run.methods:
        r = _map(run.row(method, run.pooled))
        c = _map(r.get("cosine"))
        rows.append([method, _count(r.get("pages")), _pct(_dig(c, "exactitude")),
                     _cos(_dig(c, "mean")), _count(c.get("equal")),
                     _count(c.get("pred_in_gold")), _count(c.get("gold_in_pred"))])
    return _Table(headers, rows)


def _dataset_table(run: _Run, dataset: str) -> _Table:
    """Rows per language × method: TO, TM-l, CAR, shingle F1, cos mean, exactitude."""
    headers = ["Lang", "Method", "Pages", "TO F1", "TM-l F1", "CAR F1", "Shingle F1",
               "cos mean", "Exactitude", "Failed"]
    rows: list[list[str]] = []
    values: list[list[float | None]] = []
    blocks: list[list[int]] = []
    for lang in run.langs(dataset):
        block = []
        for method in run.methods:
            r = run.row(method, dataset, lang)
            if r is None:
                continue
            nums = [_dig(r, "to", "micro", "f1"), _dig(r, "tm_labelled", "micro", "f1"),
                    _dig(r, "car", "micro", "f1"), _dig(r, "shingle", "f1"),
                    _dig(r, "cosine", "mean"), _dig(r, "cosine", "exactitude")]
            block.append(len(rows))
            values.append([None] * 3 + nums + [None])
            rows.append([lang, method, _count(r.get("pages")), *map(_pct, nums[:4]),
                         _cos(nums[4]), _pct(nums[5]), _failures(r.get("failed"))])
        blocks.append(block)
    directions = dict.fromkeys(range(3, 9), True)
    breaks = {b[0] for b in blocks[1:] if b}
    return _Table(headers, rows, best=_best(values, directions, blocks), breaks=breaks)


def _snippet_table(run: _Run) -> _Table | None:
    """P / R / F1 / accuracy over snippets, for the rows that have snippet gold."""
    rows = []
    for (method, dataset, lang), r in run.rows.items():
        s = r.get("snippets")
        if isinstance(s, Mapping):
            rows.append([dataset, lang, method, _pct(_dig(s, "p")), _pct(_dig(s, "r")),
                         _pct(_dig(s, "f1")), _pct(_dig(s, "accuracy"))])
    if not rows:
        return None
    order = {m: i for i, m in enumerate(run.methods)}
    rows.sort(key=lambda x: (x[0] == "all", x[0], x[1] == "all", x[1], order.get(x[2], 0)))
    return _Table(["Dataset", "Lang", "Method", "P", "R", "F1", "Accuracy"], rows)


def _task_langs(task: Mapping[str, Any]) -> list[str]:
    langs = {str(r.get("lang")) for r in task.get("rows") or ()}
    return sorted(langs - {"all"}) + ["all"]


def _task_methods(run: _Run, task: Mapping[str, Any]) -> list[str]:
    """Methods in the run's order, then any other, then the Référence row (seed order)."""
    names = list(dict.fromkeys(str(r.get("method")) for r in task.get("rows") or ()))
    ordered = [m for m in run.methods if m in names] + [
        m for m in names if m not in run.methods and m != REFERENCE]
    return ordered + ([REFERENCE] if REFERENCE in names else [])


def _task_table(run: _Run, task: Mapping[str, Any]) -> _Table:
    """Seed 002 Table 3: methods + Référence × (P, R, F1) per language, then overall."""
    langs = _task_langs(task)
    cells = {(str(r.get("method")), str(r.get("lang"))): r for r in task.get("rows") or ()}
    rows, values = [], []
    for method in _task_methods(run, task):
        nums = [_dig(cells.get((method, lang)), k) for lang in langs for k in ("p", "r", "f1")]
        rows.append([method, *map(_pct, nums)])
        values.append([None, *nums] if method != REFERENCE else [None] * (1 + len(nums)))
    seed = task.get("seed")
    if isinstance(seed, Mapping) and seed:
        nums = [_dig(seed, lang, k) for lang in langs for k in ("p", "r", "f1")]
        rows.append([f"{REFERENCE} (seed 002)",
                     *(NA if x is None else f"{x:.2f}" for x in nums)])
    groups = [("", 1), *((("Overall" if g == "all" else g), 3) for g in langs)]
    headers = ["Method", *(["P", "R", "F1"] * len(langs))]
    f1_columns = {3 * i + 3: True for i in range(len(langs))}
    return _Table(headers, rows, groups, _best(values, f1_columns, [range(len(values))]))


def _datasets_table(run: _Run) -> _Table:
    headers = ["Dataset", "Pages", "Languages", "Digest", "Gold problems"]
    rows = []
    for d in run.datasets:
        langs = _map(d.get("languages"))
        rows.append([str(d.get("name")), _count(d.get("pages")),
                     ", ".join(f"{k} {v}" for k, v in sorted(langs.items())),
                     str(d.get("digest") or "")[:16], str(len(d.get("gold_problems") or ()))])
    return _Table(headers, rows)


# ------------------------------------------------------------------------ sections


@dataclass
class _Section:
    """A part of the report: text, plots (HTML only), tables, a list, a code block."""

    title: str
    anchor: str
    text: list[str] = field(default_factory=list)
    plots: list[str] = field(default_factory=list)
    tables: list[_Table] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    code: str = ""


def _sections(run: _Run, hists: Mapping[str, Histogram]) -> list[_Section]:
    """Every section, in reading order; plots are drawn only when there is data."""
    sections = [_headline_section(run), _cosine_section(run), _speed_section(run),
                _distribution_section(run, hists), _worst_section(run, hists)]
    names = run.dataset_names + (["all"] if len(run.dataset_names) > 1 else [])
    sections += [_dataset_section(run, name) for name in names
                 if len(run.langs(name)) > (name == "all")]
    snippets = _snippet_table(run)
    if snippets:
        sections.append(_Section("Snippets", "snippets", [
            "Gold given as must-contain / must-not-contain snippets: P, R, F1 and "
            "accuracy over snippets (%)."], tables=[snippets]))
    task = run.summary.get("task")
    if isinstance(task, Mapping) and task.get("rows"):
        sections.append(_task_section(run, task))
    sections += [*_data_sections(run), _Section(
        "Reproduce", "reproduce", ["This report was produced by:"],
        code=str(run.summary.get("command") or ""))]
    return [s for s in sections if s.text or s.plots or s.tables or s.items or s.code]


def _headline_section(run: _Run) -> _Section:
    where = "all datasets and languages" if run.pooled == "all" else run.pooled
    return _Section("Headline", "headline", [
        f"Every method on {where}. F1, exactitude: percent. TO = text only, TM-l = text "
        "and labelled markup, CAR = characters (CleanEval, seed 002; micro = summed "
        "counts, macro = mean of page scores); shingle F1 with its bootstrap 95% "
        "interval; exactitude = pages with cos ≥ 0.9 and cos mean (seed 004); ms per "
        "page. Best value of each column in bold (HTML)."], tables=[_headline(run)])


def _cosine_section(run: _Run) -> _Section:
    return _Section("Cosine to gold", "cosine", [
        "Seed 004 §5.2, all pages: exactitude = pages with cos ≥ 0.9 (%), mean cos θ, "
        "and the pages where the output T equals the gold T*, lies strictly inside it "
        "(cut too low) or strictly contains it (cut too high)."],
        tables=[_cosine_table(run)])


def _speed_section(run: _Run) -> _Section:
    points = []
    for method in run.methods:
        r = run.row(method, run.pooled)
        points.append((method, run.colour(method), _dig(r, "ms", "median"),
                       _dig(r, "to", "micro", "f1")))
    drawable = [p for p in points if p[2] is not None and p[2] > 0 and p[3] is not None]
    if not drawable:
        return _Section("Quality and speed", "speed")
    missing = [p[0] for p in points if p not in drawable]
    text = ["Median milliseconds per page (log scale) against TO F1 (micro), all pages."]
    if missing:
        text.append("Not drawn (no time or no score): " + ", ".join(missing) + ".")
    return _Section("Quality and speed", "speed", text, plots=[_scatter(drawable)])


def _distribution_section(run: _Run, hists: Mapping[str, Histogram]) -> _Section:
    order = run.methods + [m for m in hists if m not in run.methods]
    panels = [(m, run.colour(m), hists[m]) for m in order if m in hists and hists[m].pages]
    if not panels:
        return _Section("Score distributions", "distributions")
    return _Section("Score distributions", "distributions", [
        "Per-page TO F1 of each method over every dataset (bars: share of the method's "
        "scored pages per 5-point bin). Each page's scores are in pages.csv."],
        plots=[_histogram_plot(panels)])


def _worst_section(run: _Run, hists: Mapping[str, Histogram]) -> _Section:
    """The worst pages of each method, each linked to the inspector at that page."""
    order = run.methods + [m for m in hists if m not in run.methods]
    rows, links, breaks = [], {}, set()
    for method in (m for m in order if m in hists):
        breaks.add(len(rows))
        for score, dataset, doc_id, lang in hists[method].lowest():
            query = urlencode({"page": f"{dataset}/{doc_id}", "method": method, "compare": "gold"})
            links[len(rows), 5] = f"{INSPECTOR}?{query}"
            rows.append([method, dataset, doc_id, lang, _pct(score), "inspect"])
    if not rows:
        return _Section("Pages to look at", "worst")
    paths = [str(d.get("path") or d.get("name")) for d in run.datasets] or run.dataset_names
    command = " ".join(["detourage ui", *paths, *(f"-m {m}" for m in order if m in hists)])
    return _Section("Pages to look at", "worst", [
        f"The {WORST_PAGES} pages of each method with the lowest TO F1, each linked to the "
        f"inspector at that page: the method's blocks beside the gold's, as a difference. "
        f"Start the inspector first (it listens on {INSPECTOR}):"],
        tables=[_Table(["Method", "Dataset", "Page", "Lang", "TO F1", "Inspector"], rows,
                       breaks=breaks - {0}, links=links)], code=command)


def _dataset_section(run: _Run, dataset: str) -> _Section:
    langs = run.langs(dataset)
    title = "All datasets, by language" if dataset == "all" else f"Dataset {dataset}"
    groups = [(lang, run.pages(dataset, lang)) for lang in langs]
    series = [(m, run.colour(m), [_dig(run.row(m, dataset, g), "to", "micro", "f1")
                                  for g in langs]) for m in run.methods]
    series = [s for s in series if any(run.row(s[0], dataset, g) for g in langs)]
    plot = _bar_chart(f"f1-{dataset}", f"TO F1 (micro) per language, {title}", groups,
                      series, "TO F1, micro (%)")
    return _Section(title, _anchor(f"dataset-{dataset}"), [
        "F1 in percent per language and method (TO and TM-l and CAR micro); "
        "best of each language in bold (HTML)."], plots=[plot],
        tables=[_dataset_table(run, dataset)])


def _task_section(run: _Run, task: Mapping[str, Any]) -> _Section:
    name = str(task.get("name") or "task")
    langs = _task_langs(task)
    cells = {(str(r.get("method")), str(r.get("lang"))): r for r in task.get("rows") or ()}
    methods = _task_methods(run, task)
    series = [(m, run.colour(m), [_dig(cells.get((m, g)), "f1") for g in langs])
              for m in methods]
    groups = [("overall" if g == "all" else g, None) for g in langs]
    text = [f"Extrinsic evaluation ({name}, seed 002 Table 3): the downstream system's "
            f"relevance P / R / F1 (%) on each method's output; {REFERENCE} = on the "
            "gold-cleaned text. N/A: not computable (no true positive)."]
    if isinstance(task.get("seed"), Mapping) and task.get("seed"):
        text.append(f"The last row gives the seed's own {REFERENCE} figures, for comparison.")
    plot = _bar_chart(f"task-{name}", f"{name}: relevance F1 per language", groups, series,
                      "relevance F1 (%)")
    return _Section(f"Task: {name}", "task", text, [plot], [_task_table(run, task)])


def _data_sections(run: _Run) -> list[_Section]:
    if not run.datasets:
        return []
    sections = [_Section("Datasets", "datasets", tables=[_datasets_table(run)])]
    problems = [(str(d.get("name")), p) for d in run.datasets for p in d.get("gold_problems") or ()]
    if problems:
        items = [f"{name} / {_problem(p)}" for name, p in problems]
        sections.append(_Section("Gold problems", "gold-problems", [
            f"{len(items)} gold file(s) with a problem (excluded or flagged by the runner)."],
            items=items))
    return sections


def _problem(problem: Any) -> str:
    if isinstance(problem, list | tuple) and len(problem) == 2:
        return f"{problem[0]}: {problem[1]}"
    return str(problem)


def _anchor(text: str) -> str:
    return re.sub(r"[^\w-]+", "-", text, flags=re.ASCII).strip("-").lower() or "section"


# ------------------------------------------------------------------------ markdown


def render_markdown(summary: Mapping[str, Any], hists: Mapping[str, Histogram] | None = None) -> str:
    """report.md: the run, then every table (plots are in the HTML report)."""
    run = _Run(summary)
    out = [f"# {_TITLE}\n", _provenance(run) + "\n", *(f"**Note**: {_md_cell(n)}\n" for n in _notes(run)),
           f"Per-page scores: [pages.csv](pages.csv), [pages.jsonl](pages.jsonl); "
           f"every figure: [summary.json](summary.json); plots: [report.html](report.html).\n"]
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
        parts.append("\n".join(f"- {_md_cell(i)}" for i in section.items) + "\n")
    if section.code:
        fence = "````" if "```" in section.code else "```"
        parts.append(f"{fence}sh\n{section.code}\n{fence}\n")
    return "\n".join(parts)


# ---------------------------------------------------------------------------- html


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
""" % (_FONT, _FONT)


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


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


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
    numeric = _numeric_columns(table.headers, table.rows)
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


# ----------------------------------------------------------------------------- svg


def _hatches(methods: int) -> str:
    """Striped fills for methods past the palette, defined once for every plot."""
    if methods <= len(PALETTE):
        return ""
    patterns = "".join(
        f'<pattern id="hatch-{i}" width="6" height="6" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/>'
        f'<rect width="3.5" height="6" fill="{colour}"/></pattern>'
        for i, colour in enumerate(PALETTE))
    return (f'<svg class="defs" width="0" height="0" aria-hidden="true" '
            f'style="position:absolute"><defs>{patterns}</defs></svg>')


def _text_width(text: str, size: float) -> float:
    """Rough rendered width: wide characters (CJK) count double."""
    return size * 0.58 * sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def _svg(name: str, title: str, width: float, height: float, body: Iterable[str]) -> str:
    return (f'<svg class="plot" data-plot="{_e(name)}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'width="{width:.0f}" height="{height:.0f}" role="img">'
            f"<title>{_e(title)}</title>" + "".join(body) + "</svg>")


def _t(x: float, y: float, text: str, size: float = 12, anchor: str = "start",
       extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"'
            f'{extra}>{_e(text)}</text>')


def _line(x1: float, y1: float, x2: float, y2: float, colour: str = "#d9dde2",
          extra: str = "") -> str:
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{colour}"{extra}/>')


def _legend(items: Sequence[tuple[str, str]], x0: float, y0: float,
            width: float) -> tuple[list[str], float]:
    """Swatch + label items laid out in rows; returns the marks and the height used."""
    marks, x, y = [], x0, y0
    for label, colour in items:
        w = 22 + _text_width(label, 12) + 18
        if x > x0 and x + w > x0 + width:
            x, y = x0, y + 20
        marks.append(f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="14" height="14" rx="2" '
                     f'fill="{colour}"/>' + _t(x + 20, y + 1.5, label))
        x += w
    return marks, y - y0 + 20


def _y_axis(left: float, right: float, top: float, bottom: float, lo: float, hi: float,
            step: float, label: str) -> list[str]:
    """Horizontal grid lines with tick labels, and the rotated axis label."""
    marks = []
    v = lo
    while v <= hi + 1e-9:
        y = bottom - (v - lo) / (hi - lo) * (bottom - top)
        marks.append(_line(left, y, right, y) + _t(left - 6, y + 4, f"{v:g}", 11, "end"))
        v += step
    mid = (top + bottom) / 2
    marks.append(_t(16, mid, label, 12, "middle", f' transform="rotate(-90 16 {mid:.1f})"'))
    return marks


def _bar_chart(name: str, title: str, groups: Sequence[tuple[str, int | None]],
               series: Sequence[tuple[str, str, Sequence[float | None]]], y_label: str) -> str:
    """Grouped bars: one group per language, one bar per method, values in [0, 1]."""
    width, left, right = 980.0, 64.0, 16.0
    marks = [_t(left, 20, title, 14, extra=' font-weight="600"')]
    legend, legend_h = _legend([(s[0], s[1]) for s in series], left, 44, width - left - right)
    top = 44 + legend_h + 8
    bottom = top + 260
    marks += legend + _y_axis(left, width - right, top, bottom, 0, 100, 20, y_label)
    group_w = (width - left - right) / max(1, len(groups))
    bar_w = min(40.0, group_w * 0.82 / max(1, len(series)))
    for g, (label, pages) in enumerate(groups):
        x0 = left + g * group_w + (group_w - bar_w * len(series)) / 2
        for s, (method, colour, values) in enumerate(series):
            marks.append(_bar(x0 + s * bar_w, bar_w, values[g], top, bottom, colour,
                              f"{method}, {label}"))
        cx = left + (g + 0.5) * group_w
        marks.append(_t(cx, bottom + 18, label, 12, "middle", ' font-weight="600"'))
        if pages is not None:
            marks.append(_t(cx, bottom + 33, f"{pages} pages", 10, "middle", ' fill="#555"'))
    marks.append(_line(left, bottom, width - right, bottom, "#444"))
    return _svg(name, title, width, bottom + 44, marks)


def _bar(x: float, w: float, value: float | None, top: float, bottom: float, colour: str,
         what: str) -> str:
    """One bar with its value above it (when wide enough), or 'n/a' standing upright."""
    inner = w - 2
    if value is None:
        cx = x + w / 2
        return _t(cx, bottom - 6, "n/a", 10, "start",
                  f' fill="#777" transform="rotate(-90 {cx:.1f} {bottom - 6:.1f})"'
                  f' dy="3.5"')
    h = max(0.0, min(1.0, value)) * (bottom - top)
    tip = f"<title>{_e(what)}: {_pct(value)}</title>"
    bar = (f'<rect x="{x + 1:.1f}" y="{bottom - h:.1f}" width="{inner:.1f}" height="{h:.1f}" '
           f'fill="{colour}">{tip}</rect>')
    if inner >= 24:
        bar += _t(x + w / 2, bottom - h - 4, f"{100 * value:.1f}", 10, "middle")
    return bar


def _log_ticks(lo: float, hi: float) -> tuple[float, float, list[float]]:
    """Decade bounds around [lo, hi] and the tick values (1, 2, 5 per decade when few)."""
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    b = max(b, a + 1)
    steps = (1, 2, 5) if b - a <= 3 else (1,)
    ticks = [m * 10.0 ** e for e in range(a, b + 1) for m in steps if m * 10.0 ** e <= 10.0 ** b]
    return 10.0 ** a, 10.0 ** b, ticks


def _scatter(points: Sequence[tuple[str, str, float | None, float | None]]) -> str:
    """Median ms per page (x, log) against TO F1 (y), one labelled point per method."""
    width, height, left, right, top, bottom = 980.0, 460.0, 70.0, 190.0, 40.0, 400.0
    xs = [p[2] for p in points if p[2]]
    ys = [100 * p[3] for p in points if p[3] is not None]
    x_lo, x_hi, ticks = _log_ticks(min(xs), max(xs))
    y_lo = max(0.0, math.floor((min(ys) - 5) / 10) * 10)

    def px(v: float) -> float:
        span = math.log10(x_hi) - math.log10(x_lo)
        return left + (math.log10(v) - math.log10(x_lo)) / span * (width - left - right)

    def py(v: float) -> float:
        return bottom - (v - y_lo) / (100 - y_lo) * (bottom - top)

    marks = [_t(left, 20, "Quality against speed (all pages)", 14, extra=' font-weight="600"')]
    marks += _y_axis(left, width - right, top, bottom, y_lo, 100, 10, "TO F1, micro (%)")
    for v in ticks:
        marks.append(_line(px(v), top, px(v), bottom) + _t(px(v), bottom + 18, f"{v:g}", 11,
                                                             "middle"))
    marks.append(_t((left + width - right) / 2, bottom + 42,
                    "median milliseconds per page (log scale)", 12, "middle"))
    marks.append(_line(left, bottom, width - right, bottom, "#444"))
    placed: list[tuple[float, float, float]] = []
    for method, colour, ms, f1 in sorted(points, key=lambda p: -(p[3] or 0)):
        x, y = px(ms or 1), py(100 * (f1 or 0))
        marks.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6.5" fill="{colour}" '
                     f'stroke="#222" stroke-width="1"><title>{_e(method)}: {_pct(f1)} F1, '
                     f"{_ms(ms)} ms</title></circle>")
        marks.append(_point_label(method, x, y, placed))
    return _svg("speed", "Quality against speed", width, height, marks)


def _point_label(label: str, x: float, y: float,
                 placed: list[tuple[float, float, float]]) -> str:
    """A label right of its point, moved down until it overlaps no label already placed."""
    w = _text_width(label, 12)
    ly = y + 4
    while any(abs(ly - py) < 14 and x + 10 < px + pw and px < x + 10 + w for px, py, pw in placed):
        ly += 14
    placed.append((x + 10, ly, w))
    leader = _line(x + 6, y, x + 9, ly - 4, "#888") if ly - y > 8 else ""
    return leader + _t(x + 10, ly, label, 12)


def _histogram_plot(panels: Sequence[tuple[str, str, Histogram]]) -> str:
    """Small multiples: one histogram of per-page TO F1 per method, shared x axis."""
    width, left, right, panel_h, gap, top = 980.0, 230.0, 24.0, 84.0, 14.0, 36.0
    plot_w = width - left - right
    marks = [_t(16, 20, "Per-page TO F1, by method", 14, extra=' font-weight="600"')]
    for i, (method, colour, hist) in enumerate(panels):
        marks += _panel(method, colour, hist, top + i * (panel_h + gap), panel_h, left, plot_w)
    bottom = top + len(panels) * (panel_h + gap) - gap
    for v in range(0, 101, 20):
        x = left + v / 100 * plot_w
        marks.append(_t(x, bottom + 16, str(v), 11, "middle"))
    marks.append(_t(left + plot_w / 2, bottom + 38, "per-page TO F1 (%)", 12, "middle"))
    return _svg("distributions", "Per-page TO F1 by method", width, bottom + 50, marks)


def _panel(method: str, colour: str, hist: Histogram, y0: float, h: float, left: float,
           plot_w: float) -> list[str]:
    """One method's histogram: bars as shares of its scored pages, its counts on the left."""
    bottom = y0 + h
    peak = max(hist.bins) or 1
    scale = peak / hist.scored if hist.scored else 0.0
    marks = [f'<rect x="{left:.1f}" y="{y0:.1f}" width="{plot_w:.1f}" height="{h:.1f}" '
             f'fill="#f7f8fa"/>']
    marks += [_line(left + v / 100 * plot_w, y0, left + v / 100 * plot_w, bottom)
              for v in range(0, 101, 20)]
    bin_w = plot_w / BINS
    for b, n in enumerate(hist.bins):
        if n:
            bh = n / peak * (h - 6)
            marks.append(f'<rect x="{left + b * bin_w + 1:.1f}" y="{bottom - bh:.1f}" '
                         f'width="{bin_w - 2:.1f}" height="{bh:.1f}" fill="{colour}">'
                         f"<title>{_e(method)}: {n} page(s) with F1 in "
                         f"[{100 * b // BINS}, {100 * (b + 1) // BINS}"
                         f"{']' if b == BINS - 1 else ')'}</title></rect>")
    marks.append(_line(left, bottom, left + plot_w, bottom, "#444"))
    if hist.scored:
        marks.append(_t(left - 6, y0 + 10, f"{100 * scale:.0f}%", 10, "end", ' fill="#555"'))
    mean = "N/A" if hist.mean is None else f"{100 * hist.mean:.1f}"
    marks.append(_t(16, y0 + 22, method, 13, extra=' font-weight="600"'))
    marks.append(_t(16, y0 + 40, f"{hist.scored} scored, {hist.failed} failed", 11,
                    extra=' fill="#444"'))
    marks.append(_t(16, y0 + 56, f"mean F1 {mean}", 11, extra=' fill="#444"'))
    return marks
