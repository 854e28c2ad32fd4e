"""What the report says: its tables and sections, built once and rendered as Markdown
(:mod:`.markdown`) and HTML (:mod:`.html`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from .data import (
    INSPECTOR,
    NA,
    REFERENCE,
    WORST_PAGES,
    Histogram,
    _cos,
    _count,
    _dig,
    _failures,
    _interval,
    _map,
    _ms,
    _pct,
    _Run,
)
from .svg import _bar_chart, _histogram_plot, _scatter


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


def _md_linked(table: _Table) -> list[list[str]]:
    """The rows, a linked cell written ``[text](address)``."""
    return [[f"[{v}]({table.links[r, c]})" if (r, c) in table.links else v for c, v in enumerate(row)]
            for r, row in enumerate(table.rows)]


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
               "CAR F1", "Shingle F1 [95% CI]", "Word F1", "Exactitude", "cos mean", "Snippet F1",
               "ms median", "ms p95", "Failed"]
    rows, values = [], []
    for method in run.methods:
        r = _map(run.row(method, run.pooled))
        nums = [_dig(r, "to", "micro", "f1"), _dig(r, "to", "macro", "f1"),
                _dig(r, "tm_labelled", "micro", "f1"), _dig(r, "car", "micro", "f1"),
                _dig(r, "shingle", "f1"), _dig(r, "word", "macro", "f1"), _dig(r, "cosine", "exactitude"),
                _dig(r, "cosine", "mean"), _dig(r, "snippets", "f1"), _dig(r, "ms", "median"),
                _dig(r, "ms", "p95")]
        values.append([None] * 3 + nums + [None])
        rows.append([method, _count(r.get("pages")), _count(r.get("scored")),
                     *map(_pct, nums[:4]), _interval(r.get("shingle")), _pct(nums[5]),
                     _pct(nums[6]), _cos(nums[7]), _pct(nums[8]), _ms(nums[9]), _ms(nums[10]),
                     _failures(r.get("failed"))])
    directions = {c: c < 12 for c in range(3, 14)}
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
    """Rows per language × method: TO, TM-l, CAR, shingle F1, word F1, cos mean, exactitude."""
    headers = ["Lang", "Method", "Pages", "TO F1", "TM-l F1", "CAR F1", "Shingle F1", "Word F1",
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
                    _dig(r, "car", "micro", "f1"), _dig(r, "shingle", "f1"), _dig(r, "word", "macro", "f1"),
                    _dig(r, "cosine", "mean"), _dig(r, "cosine", "exactitude")]
            block.append(len(rows))
            values.append([None] * 3 + nums + [None])
            rows.append([lang, method, _count(r.get("pages")), *map(_pct, nums[:5]),
                         _cos(nums[5]), _pct(nums[6]), _failures(r.get("failed"))])
        blocks.append(block)
    directions = dict.fromkeys(range(3, 10), True)
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
        "interval; word F1 = WCXB's bag of words, the mean of page F1s; exactitude = "
        "pages with cos ≥ 0.9 and cos mean (seed 004); ms per page. Best value of each "
        "column in bold (HTML)."], tables=[_headline(run)])


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
    rows: list[list[str]] = []
    links: dict[tuple[int, int], str] = {}
    breaks: set[int] = set()
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
