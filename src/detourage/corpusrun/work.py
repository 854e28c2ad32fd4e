"""What a worker does: clean the pages of one shard into rows and write them.

:func:`process_shard` reads a shard, cleans each HTML page into a row
(:func:`page_row`; a failed page is a row too, with its ``error``), writes the shard's
file atomically, then its completion marker (``part-NNNNN.done``: the shard's counts by
outcome and reason).  It runs wherever the executor puts it — a process of the local
pool, a Dask worker — and only reads the input files and writes the run folder.
"""

from __future__ import annotations

import collections
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..api import load, run
from ..corpus import attempt, execute, job_bytes, limit_memory
from ..metadata import metadata
from ..parse import DEFAULT_LIMITS, Limits
from ..render import render
from . import langid, readers, sinks
from .plan import Shard, atomic_write

Row = dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """Everything a worker needs to turn a shard into its file: picklable, and the same
    for every shard of a run."""

    folder: str
    to: str = "parquet"
    method: str = "default"
    #: method name → its ``Options`` (a trained model, a template…)
    options: tuple[tuple[str, Any], ...] = ()
    render_options: tuple[tuple[str, Any], ...] = ()
    limits: Limits = DEFAULT_LIMITS
    timeout: float = 30.0
    max_memory: int | None = None
    markdown: bool = False
    html: bool = False
    timings: bool = True
    #: undo double-encoded text with ftfy after decoding (``--repair-text``)
    repair: bool = False

    @property
    def columns(self) -> tuple[str, ...]:
        return sinks.columns(markdown=self.markdown, html=self.html, timings=self.timings)

    @property
    def shards(self) -> Path:
        return Path(self.folder) / "shards"


def page_row(item: readers.Item, config: Config) -> Row:
    """The row of one page: what the input says of it, then its content, or why it failed."""
    t0 = time.perf_counter()
    row: Row = {"id": item.id, "source": item.source, "url": item.url, "record_id": item.record_id,
                "date": item.date, "method": config.method}
    values, reason, message = attempt(lambda: _content(item, config), config.timeout)
    if values is None:
        row.update(error=reason or "error", message=(message or "")[:500])
    else:
        row.update(values)
    if config.timings:
        row["ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return row


def _content(item: readers.Item, config: Config) -> Row:
    page = load(job_bytes(item, config.limits), url=item.url, headers=item.headers, limits=config.limits,
                repair=config.repair)
    result = run(page, config.method, dict(config.options))
    options = dict(config.render_options)
    text = render(result, "txt", **options)
    values: Row = {"language": langid.identify(text), "title": metadata(page, page_dates=False).title,
                   "text": text, "encoding": page.decoded.encoding, "encoding_reason": page.decoded.reason}
    if config.markdown:
        values["markdown"] = render(result, "markdown", **options)
    if config.html:
        values["html"] = render(result, "html", **options)
    return values


def shard_items(shard: Shard, config: Config) -> Iterator[readers.Item | str]:
    """The pages of a shard (and the skip reasons of its other records); a file that
    cannot be read further gives ``unreadable:<error>`` for each record not read."""
    if shard.kind == "files":
        yield from (readers.Item(i, path=p, source=p) for i, p in shard.files)
        return
    if shard.kind == "warc":
        source = readers.warc_items(shard.path, shard.offset, shard.count, config.limits.max_bytes)
    else:
        source = readers.jsonl_items(shard.path, shard.offset, shard.count)
    read = 0
    try:
        for got in source:
            read += 1
            yield got
    except (OSError, EOFError, ValueError) as exc:
        yield from [f"unreadable:{type(exc).__name__}"] * (shard.count - read)


@dataclass(frozen=True, slots=True)
class RowStep:
    """:func:`page_row` as a step of :func:`detourage.corpus.execute` (careful mode)."""

    config: Config

    @property
    def max_memory(self) -> int:
        return self.config.max_memory or 0

    def __call__(self, item: readers.Item) -> Row:
        return page_row(item, self.config)


def process_shard(shard: Shard, config: Config, careful: bool = False) -> dict[str, Any]:
    """Clean a shard, write its file and its marker; the marker's content.

    ``careful``: every page in a process of its own (:func:`detourage.corpus.execute`),
    so that a page that kills its process costs only its own row (``worker-crashed``) —
    how a shard whose worker died is run again."""
    t0 = time.perf_counter()
    skipped: collections.Counter[str] = collections.Counter()
    items = _counted(shard_items(shard, config), skipped)
    if careful:
        listed = list(items)
        rows = [_as_row(r, item, config)
                for item, r in zip(listed, execute(listed, RowStep(config), 1, isolate=True))]
    else:
        rows = [page_row(item, config) for item in items]
    failed = collections.Counter(str(r["error"]) for r in rows if r.get("error"))
    path = sinks.write(config.shards, shard.name, rows, config.columns, config.to)
    marker = {"shard": shard.name, "file": path.name, "records": shard.count, "rows": len(rows),
              "ok": len(rows) - sum(failed.values()), "failed": dict(sorted(failed.items())),
              "skipped": dict(sorted(skipped.items())), "seconds": round(time.perf_counter() - t0, 3)}
    atomic_write(config.shards / f"{shard.name}.done", json.dumps(marker).encode("utf-8"))
    return marker


def _counted(items: Iterator[readers.Item | str], skipped: collections.Counter[str]) -> Iterator[readers.Item]:
    for got in items:
        if isinstance(got, str):
            skipped[got] += 1
        else:
            yield got


def _as_row(record: Row, item: readers.Item, config: Config) -> Row:
    """A row from :func:`detourage.corpus.execute`'s output: a row already, or the error
    record of a page whose process died (``worker-crashed``)."""
    if "method" in record:
        return record
    row: Row = {"id": item.id, "source": item.source, "url": item.url, "record_id": item.record_id,
                "date": item.date, "method": config.method, "error": record.get("error"),
                "message": record.get("message")}
    if config.timings:
        row["ms"] = 0.0
    return row


def warm(config: Config) -> None:
    """Load what the method and the language identifier need, once per worker process,
    before the first page: cap the process's memory, then clean a small page."""
    limit_memory(config.max_memory)
    langid.warm()
    page_row(readers.Item("warm-up", data=b"<html><body><p>A page to load the models with.</p></body></html>"),
             config)
