"""What a report is made of: its constants, the run it reads (:class:`_Run`), the
histograms of per-page scores, and the numbers as the seeds print them."""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...settings import INSPECTOR_PORT

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


#: the address report links open: the inspector (``detourage ui``) on its default port
INSPECTOR = f"http://127.0.0.1:{INSPECTOR_PORT}/"


_FONT = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif'


_TITLE = "detourage evaluation"


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
