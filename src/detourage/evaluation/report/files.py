"""The report's files: ``summary.json``, ``pages.csv``, ``pages.jsonl``, ``report.md`` and
``report.html``, each written atomically."""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TextIO

from .data import FILES, PAGE_COLUMNS, Histogram
from .html import render_html
from .markdown import render_markdown


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
