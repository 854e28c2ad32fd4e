"""What a worker does: clean the pages of one shard into rows and write them.

:func:`process_shard` reads a shard, cleans each HTML page into a row
(:func:`page_row`; a failed page is a row too, with its ``error``), writes the shard's
file atomically, then its completion marker (``markers/part-NNNNN.done``: the shard's counts by
outcome and reason, how many of its records are damage and the first damaged spans with
their file and byte offset).  It runs wherever the executor puts it — a process of the
local pool, a Dask worker — and only reads the input files and writes the run folder.
Each page runs in a process of its own (:func:`detourage.supervision.execute`), so that the
time and memory limits hold whatever code the page runs; every worker process, the
local pool's too (:func:`init_worker`), dies with the process that started it.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..bounded import die_with_parent, limit_memory
from ..loading import job_bytes
from ..metadata import metadata
from ..pipeline import result as page_result
from ..render import render
from ..settings import Settings
from ..supervision import SettingsBounds, attempt, execute
from . import langid, readers, sinks
from .plan import Shard, atomic_write, marker_path

Row = dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class RunConfig:
    """Everything a worker needs to turn a shard into its file: picklable, and the same
    for every shard of a run."""

    folder: str
    to: str = "parquet"
    #: the page's road: method, options, limits, timeout, memory, repair, render options
    settings: Settings = field(default_factory=Settings)
    markdown: bool = False
    html: bool = False
    #: the metadata's columns (``--with-metadata``: :data:`~detourage.corpusrun.sinks.METADATA_COLUMNS`)
    metadata: bool = False
    timings: bool = True

    @property
    def columns(self) -> tuple[str, ...]:
        return sinks.columns(markdown=self.markdown, html=self.html, metadata=self.metadata, timings=self.timings)

    def described(self) -> dict[str, Any]:
        """What makes the run's rows, as JSON: the settings (:meth:`Settings.described`),
        the output kind and the optional columns (``metadata`` only when asked, so that a
        run begun before the option existed resumes)."""
        described = {**self.settings.described(), "to": self.to, "markdown": self.markdown, "html": self.html,
                     "timings": self.timings}
        if self.metadata:
            described["metadata"] = True
        return described

    @property
    def shards(self) -> Path:
        return Path(self.folder) / "shards"


def page_row(item: readers.Item, config: RunConfig) -> Row:
    """The row of one page: what the input says of it, then its content, or why it failed."""
    t0 = time.perf_counter()
    row: Row = {"id": item.id, "source": item.source, "url": item.url, "record_id": item.record_id,
                "date": item.date, "method": config.settings.method}
    values, reason, message = attempt(lambda: _content(item, config), config.settings.timeout)
    if values is None:
        row.update(error=reason or "error", message=_noted(message or "", item.note)[:500])
    else:
        row.update(values)
        if item.note:  # an ok row says how its record was read when not as it said
            row["message"] = item.note
    if config.timings:
        row["ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return row


def _noted(message: str, note: str) -> str:
    return f"{message} ({note})" if note else message


def _content(item: readers.Item, config: RunConfig) -> Row:
    settings = config.settings
    result = page_result(job_bytes(item, settings.limits), settings, url=item.url, headers=item.headers)
    page = result.page
    options = settings.render_options()
    text = render(result, "txt", **options)
    found = metadata(page, page_dates=config.metadata)
    values: Row = {"language": langid.identify(text), "title": found.title,
                   "text": text, "encoding": page.decoded.encoding, "encoding_reason": page.decoded.reason}
    if config.metadata:
        values.update(sinks.metadata_values(found.as_dict()))
    if config.markdown:
        values["markdown"] = render(result, "markdown", **options)
    if config.html:
        values["html"] = render(result, "html", **options)
    return values


def shard_items(shard: Shard, config: RunConfig) -> Iterator[readers.Read]:
    """The pages of a shard, the skip reasons of its other records and its damage: one
    for each of the shard's ``count`` records.  Records the file no longer holds (it
    changed since the run was planned, or it cannot be read past its damage) are damage
    too.  An ``OSError`` (a disk that fails, a file removed) is raised: the shard is then
    not done, and runs again on ``--resume``."""
    if shard.kind == "files":
        yield from (readers.Item(i, path=p, source=p) for i, p in shard.files)
        return
    label = shard.label or Path(shard.path).name  # runs planned before labels: the file's name
    if shard.kind == "warc":
        source = readers.warc_items(shard.path, shard.offset, shard.count, config.settings.limits.max_bytes, label)
    else:
        source = readers.jsonl_items(shard.path, shard.offset, shard.count, label, config.settings.limits.max_bytes)
    renamed = dict(shard.ids)
    read, last = 0, None
    for got in source:
        if read in renamed and isinstance(got, readers.Item):
            got = replace(got, id=renamed[read])
        read, last = read + 1, got
        yield got
    missing = readers.Damage(last.reason if isinstance(last, readers.Damage) else "unreadable:file-changed",
                             label, shard.offset, f"{shard.count - read} records of the shard at byte "
                             f"{shard.offset} not read: the file holds fewer than when the run was planned")
    yield from [missing] * (shard.count - read)


@dataclass(frozen=True, slots=True)
class RowStep(SettingsBounds):
    """:func:`page_row` as a step of :func:`detourage.supervision.execute`, which runs each
    page in a worker process of its own and kills it past ``timeout`` (a page stuck in C
    code included) or when it needs more than ``max_memory``: the run's settings'."""

    config: RunConfig

    @property
    def settings(self) -> Settings:  # type: ignore[override]  # SettingsBounds declares the attribute read-only here
        return self.config.settings

    def __call__(self, item: readers.Item) -> Row:
        return page_row(item, self.config)


#: the damaged spans a shard's marker lists (all are counted)
DAMAGE_LISTED = 20


def process_shard(shard: Shard, config: RunConfig) -> dict[str, Any]:
    """Clean the shard's pages into its file and write its marker; the marker.

    Every page runs through :func:`detourage.supervision.execute` in a worker process of its
    own (always: the time limit must hold inside C code too), the items streamed to it a
    few at a time; a page that kills its process costs only its own row
    (``worker-crashed``), one past the time limit is a ``limit:time`` row.  A shard whose
    file cannot be read (``OSError``) is not marked done: the marker returned then has an
    ``unread`` message."""
    t0 = time.perf_counter()
    skipped: collections.Counter[str] = collections.Counter()
    damage: list[dict[str, Any]] = []
    sent: collections.deque[tuple[readers.Item, float]] = collections.deque()
    items = _counted(shard_items(shard, config), skipped, damage)
    try:
        results = execute(_sent(items, sent), RowStep(config), 1, isolate=True)
        rows = [_as_row(record, item, config, ms) for record, item, ms in _timed(results, sent)]
    except OSError as exc:
        return {"shard": shard.name, "unread": f"{shard.path}: {exc.strerror or exc}"}
    failed = collections.Counter(str(r["error"]) for r in rows if r.get("error"))
    path = sinks.write(config.shards, shard.name, rows, config.columns, config.to)
    marker = {"shard": shard.name, "file": path.name, "records": shard.count, "rows": len(rows),
              "ok": len(rows) - sum(failed.values()), "failed": dict(sorted(failed.items())),
              "skipped": dict(sorted(skipped.items())), "damaged": damage_count(skipped),
              "damage": damage[:DAMAGE_LISTED], "seconds": round(time.perf_counter() - t0, 3)}
    path = marker_path(Path(config.folder), shard.name)
    path.parent.mkdir(exist_ok=True)
    atomic_write(path, json.dumps(marker).encode("utf-8"))
    return marker


def damage_count(skipped: collections.Counter[str] | dict[str, int]) -> int:
    """How many of the skipped records are damage (:mod:`.readers`)."""
    return sum(n for reason, n in skipped.items() if reason in readers.DAMAGE_REASONS
               or reason.startswith("unreadable:"))


def _sent(items: Iterator[readers.Item],
          sent: collections.deque[tuple[readers.Item, float]]) -> Iterator[readers.Item]:
    """``items``, each kept in ``sent`` with the time it was sent until its row comes back
    (in the same order)."""
    for item in items:
        sent.append((item, time.perf_counter()))
        yield item


def _timed(results: Iterator[Row], sent: collections.deque[tuple[readers.Item, float]]
           ) -> Iterator[tuple[Row, readers.Item, float]]:
    """(record, item, ms) of each page's record: ms from when its worker could start it
    (sent, and the page before it back: one worker takes them in turn) to its record."""
    last = time.perf_counter()
    for record in results:
        item, at = sent.popleft()
        now = time.perf_counter()
        yield record, item, round((now - max(at, last)) * 1000, 3)
        last = now


def _counted(items: Iterator[readers.Read], skipped: collections.Counter[str],
             damage: list[dict[str, Any]] | None = None) -> Iterator[readers.Item]:
    """The items; the skip reasons counted in ``skipped``, the damage listed in ``damage``."""
    for got in items:
        if isinstance(got, readers.Item):
            yield got
        elif isinstance(got, readers.Damage):
            skipped[got.reason] += 1
            if damage is not None and len(damage) < DAMAGE_LISTED:
                damage.append(got.as_dict())
        else:
            skipped[got] += 1


def _as_row(record: Row, item: readers.Item, config: RunConfig, ms: float) -> Row:
    """A row from :func:`detourage.supervision.execute`'s output: a row already, or the error
    record of a page whose process died or was killed (``worker-crashed``, ``limit:time``),
    timed by the supervisor (``ms``: the page's own clock died with it)."""
    if "method" in record:
        return record
    row: Row = {"id": item.id, "source": item.source, "url": item.url, "record_id": item.record_id,
                "date": item.date, "method": config.settings.method, "error": record.get("error"),
                "message": record.get("message")}
    if config.timings:
        row["ms"] = ms
    return row


def warm(config: RunConfig) -> None:
    """Load what the method and the language identifier need, once per worker process,
    before the first page: cap the process's memory, then clean a small page."""
    limit_memory(config.settings.max_memory)
    langid.warm()
    page_row(readers.Item("warm-up", data=b"<html><body><p>A page to load the models with.</p></body></html>"),
             config)


def init_worker(config: RunConfig | None, parent: int) -> None:
    """A pool worker's start: it dies with the process that started it and leaves Ctrl-C
    to it, then loads the models (when ``config`` is given)."""
    worker_setup(parent)
    if config is not None:
        warm(config)


_SET_UP = 0


def worker_setup(parent: int) -> None:
    """Once per worker process: ignore SIGINT (a Ctrl-C reaches every process of the
    terminal's group; the driver decides what it means) and die with ``parent``."""
    global _SET_UP
    if os.getpid() == _SET_UP:
        return
    _SET_UP = os.getpid()
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread (a Dask worker's plugin): Dask handles it
        pass
    die_with_parent(parent)
