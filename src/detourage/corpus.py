"""Many pages: readers, the per-page step, executors and writers.

A bad page never stops a run: every input yields either an output record or an error
record with a reason (``limit:bytes``, ``limit:time``, ``limit:memory``,
``exception:ValueError``…), counted in the run's :class:`Summary`, which states that the
inputs read equal the outputs plus the error records.  Time and memory limits live here,
once, not in methods (:mod:`detourage.bounded` does the work): the time limit is an
alarm around each page, backed by a supervisor that kills the worker process of a page
stuck past it in C code; the memory limit a ceiling on each worker process's address
space (``RLIMIT_AS``).

    read_inputs(paths) ─▶ Job … ─▶ execute(jobs, step, workers) ─▶ record … ─▶ writer
"""

from __future__ import annotations

import collections
import dataclasses
import errno
import fnmatch
import gzip
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from . import safejson
from .bounded import CAN_FORK, Failure, failure, supervised, time_limit
from .errors import DatasetError, DetourageError, LimitExceeded
from .parse import DEFAULT_LIMITS, Limits
from .formats import CSV_COLUMNS, csv_row, csv_text
from .metadata import metadata
from .render import EXTENSIONS, as_record, render
from .settings import Settings

Record = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Job:
    """One page to process: read from ``path`` in the worker, or given as ``data``."""

    id: str
    path: str | None = None
    data: bytes | None = None
    url: str | None = None
    #: the HTTP response's header fields, for a page fetched (its charset)
    headers: tuple[tuple[str, str], ...] = ()


def read_inputs(paths: Iterable[str], stdin: IO[bytes] | None = None, *,
                patterns: Iterable[str] = (), exclude: Iterable[str] = ()) -> Iterator[Job]:
    """Jobs for files, folders and ``-`` (standard input).

    A file named is read whatever its name; a folder gives, recursively and sorted, its
    web pages (:data:`PAGE_PATTERNS`) and the files whose name matches one of
    ``patterns`` (``*.php``), except those under a folder of ``exclude`` (where the
    output goes).  A path that does not exist, or a URL, raises ``FileNotFoundError``
    before any page is read.

    Ids are unique (:func:`unique_ids`): a page's id is its path relative to its folder
    (a file named: its name) less a web extension, ``news/a.html`` → ``news/a``, and
    ``stdin`` for ``-``.
    """
    paths = list(paths)
    for name in paths:
        _check_input(name)
    skip = [Path(e).resolve() for e in exclude]
    wanted = (*PAGE_PATTERNS, *patterns)
    found = [page for name in paths for page in _pages(name, wanted, skip)]
    for (_, file), page_id in zip(found, unique_ids([relative for relative, _ in found])):
        if file is None:
            yield Job(page_id, data=(stdin or sys.stdin.buffer).read())
        else:
            yield Job(page_id, path=str(file))


def _pages(name: str, wanted: tuple[str, ...], skip: list[Path]) -> list[tuple[Path | None, Path | None]]:
    """The pages of one path given: ``(name relative to the folder given, file)``;
    ``(None, None)`` for standard input."""
    if name == "-":
        return [(None, None)]
    path = Path(name)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if _wanted(p, wanted, skip))
        return [(file.relative_to(path), file) for file in files]
    return [(Path(path.name), path)]


def unique_ids(names: list[Path | None]) -> list[str]:
    """The ids of pages named ``names`` (relative paths; None for standard input): each
    name less its web extension (:func:`_page_id`), except that pages whose ids would be
    the same (``a.html``, ``a.htm`` and ``a.html.gz`` of one folder) keep their whole
    names (``a.html``, ``a.htm``, ``a.html.gz``), and an id still taken (the same file
    name in two folders given) gets ``~2``, ``~3``… in input order.  The ids of pages
    that collide with none are never changed."""
    short = [_page_id(n) if n is not None else "stdin" for n in names]
    counts = collections.Counter(short)
    ids = [s if counts[s] == 1 or n is None else _page_name(n) for s, n in zip(short, names)]
    taken: set[str] = set()
    unique = []
    for page_id in ids:
        candidate, k = page_id, 1
        while candidate in taken:
            k += 1
            candidate = f"{page_id}~{k}"
        taken.add(candidate)
        unique.append(candidate)
    return unique


#: the files of a folder read as pages (case-insensitive); ``--glob`` adds others
PAGE_PATTERNS = ("*.html", "*.htm", "*.xhtml", "*.shtml", "*.html.gz", "*.htm.gz", "*.xhtml.gz")


def _wanted(path: Path, patterns: tuple[str, ...], skip: list[Path]) -> bool:
    name = path.name.lower()
    if not any(fnmatch.fnmatch(name, p.lower()) for p in patterns) or not path.is_file():
        return False
    return not skip or not any(path.resolve().is_relative_to(folder) for folder in skip)


def _check_input(name: str) -> None:
    """Refuse a path that does not exist, saying so when it is a URL."""
    if name == "-" or os.path.exists(name):
        return
    if "://" in name:
        raise FileNotFoundError(errno.ENOENT, "a URL: files are read here; fetch it first "
                                "(detourage.fetch, or detourage fetch URL -o crawl.warc.gz)", name)
    raise FileNotFoundError(errno.ENOENT, "no such file or folder", name)


#: extensions dropped from a page's id; ``.gz`` only after one of them (crawls store
#: gzipped pages as ``.html.gz``), and such files are gunzipped when read
_WEB_SUFFIXES = {".html", ".htm", ".xhtml", ".shtml"}


def _page_id(relative: Path) -> str:
    """The page's id: its path relative to the input folder, less a web extension."""
    if _gzipped(relative):
        relative = relative.with_suffix("")
    if relative.suffix.lower() in _WEB_SUFFIXES:
        relative = relative.with_suffix("")
    return _page_name(relative)


def _page_name(relative: Path) -> str:
    """A relative path as text: a file name that is not valid UTF-8 keeps its bytes as
    surrogate escapes, shown as ``\\xNN`` so that records can be written as UTF-8."""
    return relative.as_posix().encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _gzipped(path: Path) -> bool:
    return path.suffix.lower() == ".gz" and path.with_suffix("").suffix.lower() in _WEB_SUFFIXES


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """Extract one page: a picklable callable, so process pools can run it."""

    #: the page's road: method, options, limits, timeout, memory, repair, render options
    settings: Settings = field(default_factory=Settings)
    format: str = "txt"
    #: CleanEval submission format: each page wrapped in ``<text id="…">`` with a URL line
    cleaneval_wrapper: bool = False
    #: records carry the page's URL and title (the JSON-lines output: what users look for first)
    url_and_title: bool = False

    @property
    def timeout(self) -> float:
        """Seconds per page (:func:`execute` runs pages in killable workers with one)."""
        return self.settings.timeout

    @property
    def max_memory(self) -> int | None:
        """The ceiling per worker: :func:`execute` then always runs pages in workers."""
        return self.settings.max_memory

    def __call__(self, job: Job) -> Record:
        t0 = time.perf_counter()
        record, reason, message = attempt(lambda: self._extract(job), self.timeout)
        if record is None:
            record = error_record(job, reason or "error", message or "")
        record["ms"] = round((time.perf_counter() - t0) * 1000, 3)
        return record

    def _extract(self, job: Job) -> Record:
        settings = self.settings
        result = settings.run(settings.load(job_bytes(job, settings.limits), url=job.url,
                                            headers=dict(job.headers) or None))
        record: Record = {"id": job.id, "ok": True}
        options = settings.render_options()
        if self.format == "json":
            options.pop("with_metadata", None)
            record.update(as_record(result, **options))
            return record
        if self.format == "csv":  # one row per page: the metadata's columns and the text
            options.pop("with_metadata", None)
            record.update(csv_row(metadata(result.page), render(result, "txt", **options)))
            return record
        if self.cleaneval_wrapper and self.format == "cleaneval":
            options.update(id=job.id, url_line=True)
        record["text"] = render(result, self.format, **options)
        record["encoding"] = result.page.decoded.encoding
        if self.url_and_title:
            found = metadata(result.page, page_dates=False)
            record["url"] = found.url or job.url
            record["title"] = found.title
        if options.get("with_metadata"):
            record["metadata"] = metadata(result.page).as_dict()
        return record


def with_urls(jobs: list[Job], urls: str | None) -> list[Job]:
    """The jobs with the URLs of a JSON-lines file of ``{"id", "url"}`` (ids as
    :func:`read_inputs` names pages); a line of another shape is a :class:`DatasetError`."""
    if urls is None:
        return jobs
    known = {}
    with open(urls, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    row = safejson.loads(line)  # a line nested too deep too: a ValueError
                    known[str(row["id"])] = row.get("url")
                except (ValueError, KeyError, TypeError) as exc:
                    raise DatasetError(f"{urls}:{number}: not a {{\"id\", \"url\"}} line ({exc})") from None
    return [dataclasses.replace(j, url=known.get(j.id, j.url)) for j in jobs]


def job_bytes(job: Job, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """A job's page bytes, refused when over the size limit (binary bytes are refused
    next, by :func:`detourage.load`: ``not-html``)."""
    data = job.data if job.data is not None else read_page(job.path, limits.max_bytes)
    if len(data) > limits.max_bytes:
        raise LimitExceeded("bytes", len(data), limits.max_bytes)
    return data


def read_page(path: str | None, max_bytes: int) -> bytes:
    """The file's bytes; a file over the limit is refused before it is read, a gzipped
    page (``.html.gz``) as soon as its first ``max_bytes + 1`` bytes are unpacked, so a
    gzip bomb never unpacks further."""
    assert path is not None
    size = os.path.getsize(path)
    if size > max_bytes:
        raise LimitExceeded("bytes", size, max_bytes)
    if not _gzipped(Path(path)):
        with open(path, "rb") as handle:
            return handle.read()
    with gzip.open(path, "rb") as unpacked:
        data = unpacked.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise LimitExceeded("bytes", len(data), max_bytes)
    return data


T = TypeVar("T")


def attempt(work: Callable[[], T], timeout: float) -> tuple[T | None, str | None, str | None]:
    """Run ``work`` within the time limit: ``(value, None, None)``, or ``(None, reason,
    message)`` for any failure — the one place where a bad page is turned into a reason.

    The limit is the alarm of :func:`detourage.bounded.time_limit`, which stops Python
    code; :func:`execute` adds the kill that stops a page stuck in C code."""
    try:
        with time_limit(timeout):
            return work(), None, None
    except Exception as exc:  # noqa: BLE001 - a bad page must become a record
        found = failure(exc)
        return None, found.reason, found.message


def error_record(job: Any, reason: str, message: str) -> Record:
    """The record of a page that failed: its id and why (any job with an ``id``)."""
    # a message may quote a file name that is not UTF-8 (surrogate escapes)
    message = message[:500].encode("utf-8", "backslashreplace").decode("utf-8")
    return {"id": job.id, "ok": False, "error": reason, "message": message}


def execute(jobs: Iterable[Any], step: Callable[[Any], Record], workers: int = 1, *,
            isolate: bool = False) -> Iterator[Record]:
    """Run ``step`` over ``jobs``, yielding records in input order.

    With several workers, a time limit (``step.timeout`` > 0), a memory ceiling
    (``step.max_memory``) or ``isolate``, pages run in worker processes supervised from
    here (:func:`detourage.bounded.supervised`), at most ``4 × workers`` pages in flight,
    so memory stays bounded whatever the number of pages:

    - a page still running ``timeout`` (+ :data:`~detourage.bounded.GRACE`) seconds after
      it started has its worker killed: a ``limit:time`` record, and a new worker goes on
      with the next pages — the limit holds even inside C code, where the step's own alarm
      (:func:`attempt`) cannot reach;
    - each worker's address space is capped at the ceiling, so a page that needs more
      fails with ``limit:memory`` in its worker alone;
    - a page whose worker dies (segfault, OOM kill) is a ``worker-crashed`` record, and
      only that page.

    Without any of these, pages run here, one after the other.
    """
    max_memory = getattr(step, "max_memory", None)
    timeout = getattr(step, "timeout", 0) or 0
    if not CAN_FORK or (workers <= 1 and not max_memory and not isolate and timeout <= 0):
        yield from map(step, jobs)
        return
    for job, value in supervised(jobs, step, workers, timeout=max(timeout, 0), max_memory=max_memory):
        yield error_record(job, value.reason, value.message) if isinstance(value, Failure) else value


def default_max_memory() -> int:
    """The default ceiling per worker: 4 GiB, or half the machine's memory when smaller.

    4 GiB is 4× the largest peak seen on a 16 MiB page (the default ``--max-bytes``,
    ``benchmarks/bad_inputs.py``), and leaves room for the address space that libraries
    reserve without using it.
    """
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        physical = 0
    return min(4 << 30, physical // 2) if physical > 0 else 4 << 30


@dataclass(slots=True)
class Summary:
    """What a run did: pages, successes, failures by reason, throughput.

    ``inputs`` is the number of pages read, counted apart from the records (by
    :func:`counted`, or given), so the line can state that nothing was lost or
    written twice: inputs read = outputs + error records.
    """

    pages: int = 0
    ok: int = 0
    failed: collections.Counter[str] = field(default_factory=collections.Counter)
    started: float = field(default_factory=time.perf_counter)
    inputs: int | None = None

    def add(self, record: Record) -> None:
        self.pages += 1
        if record.get("ok"):
            self.ok += 1
        else:
            self.failed[record.get("error", "unknown")] += 1

    @property
    def balanced(self) -> bool:
        """Whether every input read gave exactly one record."""
        return self.inputs is None or self.inputs == self.pages

    def __str__(self) -> str:
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        failed = sum(self.failed.values())
        reasons = ", ".join(f"{reason}: {n}" for reason, n in self.failed.most_common())
        line = f"{_count(self.pages, 'page')}, {self.ok} ok, {failed} failed"
        if reasons:
            line += f" ({reasons})"
        line += f", {self.pages / elapsed:.1f} pages/s"
        if self.inputs is not None:
            verdict = "=" if self.balanced else "≠ (PAGES LOST OR DUPLICATED)"
            line += (f"; {_count(self.inputs, 'input')} read {verdict} {_count(self.ok, 'output')} + "
                     f"{_count(failed, 'error record')}")
        return line


def _count(n: int, noun: str) -> str:
    """``1 input``, ``2 inputs``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def counted(jobs: Iterable[T], summary: Summary) -> Iterator[T]:
    """``jobs``, counting each one read into ``summary.inputs``."""
    summary.inputs = summary.inputs or 0
    for job in jobs:
        summary.inputs += 1
        yield job


#: the CSV output's columns: the page's id, whether it succeeded and why not, then
#: the metadata and the text (:data:`detourage.formats.CSV_COLUMNS`)
CSV_RECORD_COLUMNS = ("id", "ok", "error", "message", *CSV_COLUMNS)


class Writer:
    """Writes records as JSON lines (to a file or stdout), one file per page, or, for the
    ``csv`` format, one CSV row per page (to ``FILE.csv`` or stdout; failed pages too).

    One file per page is named by the page's id and the format's extension, and never
    overwrites the file of another page of the run: a name already written (an id given
    twice: :func:`read_inputs` gives unique ones, other sources may not) gets ``~2``,
    ``~3``… before the extension."""

    def __init__(self, out: str | None, format: str, *, stream: IO[str] | None = None,
                 headers: bool = False) -> None:
        self.format = format
        #: on a stream, a line ``==> ID <==`` before each page's output (several pages)
        self.headers = headers
        self.stream = stream or sys.stdout
        kind = output_kind(out, format)
        self.jsonl = kind == "jsonl"
        self.csv = kind in ("csv", "csv-stream")
        self.page_file = Path(out) if kind == "page" and out is not None else None
        self.folder = Path(out) if kind == "folder" and out is not None else None
        self._file: IO[str] | None = None
        self._errors: IO[str] | None = None
        self._written: set[Path] = set()
        self._multiple = False
        if self.folder is not None and self.folder.exists() and not self.folder.is_dir():
            raise FileExistsError(errno.EEXIST, "a file, not a folder (-o: a folder for one file per "
                                  "page, FILE.jsonl, or a file name with the format's extension for "
                                  "one page)", out)
        if self.page_file is not None:
            self.page_file.parent.mkdir(parents=True, exist_ok=True)
        elif self.jsonl or (self.csv and out is not None):
            assert out is not None
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            self._file = open(out, "w", encoding="utf-8", newline="")
        elif self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)

    def write(self, record: Record) -> None:
        if self.csv:
            (self._file or self.stream).write(csv_text([record], CSV_RECORD_COLUMNS, header=not self._multiple))
            self._multiple = True
        elif self._file is not None:
            self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        elif self.page_file is not None:
            self._write_page_file(record)
        elif self.folder is not None:
            self._write_file(record)
        else:
            self._write_stream(record)

    def _write_file(self, record: Record) -> None:
        assert self.folder is not None
        if not record.get("ok"):
            if self._errors is None:
                self._errors = open(self.folder / "errors.jsonl", "w", encoding="utf-8")
            self._errors.write(json.dumps(record, ensure_ascii=False) + "\n")
            return
        target = self._unwritten(self.folder / record["id"], EXTENSIONS[self.format])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_payload(record, self.format), encoding="utf-8")

    def _unwritten(self, stem: Path, extension: str) -> Path:
        """``stem + extension``, or ``stem~N + extension`` when this run wrote that file."""
        target, k = Path(f"{stem}{extension}"), 1
        while target in self._written:
            k += 1
            target = Path(f"{stem}~{k}{extension}")
        self._written.add(target)
        return target

    def _write_page_file(self, record: Record) -> None:
        assert self.page_file is not None
        if self._multiple:
            raise DetourageError(f"{self.page_file}: one file holds one page; for several, give a "
                                 "folder or FILE.jsonl")
        self._multiple = True
        if not record.get("ok"):
            print(f"detourage: {record['id']}: {record['error']}: {record['message']}", file=sys.stderr)
            return
        self.page_file.write_text(_payload(record, self.format), encoding="utf-8")

    def _write_stream(self, record: Record) -> None:
        if self.format == "json":
            self.stream.write(json.dumps(record, ensure_ascii=False) + "\n")
            return
        if not record.get("ok"):
            print(f"detourage: {record['id']}: {record['error']}: {record['message']}", file=sys.stderr)
            return
        if self._multiple:
            self.stream.write("\n")
        self._multiple = True
        if self.headers:
            self.stream.write(f"==> {record['id']} <==\n")
        self.stream.write(record["text"])

    def close(self) -> None:
        for handle in (self._file, self._errors):
            if handle is not None:
                handle.close()


#: the names of ``-o`` that are one file for one page (any format's extension), not a folder
PAGE_FILE_SUFFIXES = frozenset({*EXTENSIONS.values(), ".txt", ".json", ".md", ".html", ".xml"})


#: the format a page file's extension names (``.txt`` also holds CleanEval text)
FORMAT_OF_SUFFIX = {".txt": "txt", ".md": "markdown", ".html": "html", ".json": "json", ".xml": "xml",
                    ".csv": "csv"}


def output_format(out: str | None, format: str | None) -> str:
    """The format of a run's output: ``format`` when given, else the one the extension of
    a one-page output file names (``-o page.md``: markdown), else txt.  A format that
    contradicts the file's extension (``-o page.md -f txt``) is a :class:`DetourageError`."""
    named = None
    if out is not None and not out.endswith(".jsonl") and not Path(out).is_dir():
        named = FORMAT_OF_SUFFIX.get(Path(out).suffix.lower())
    if format is None:
        return named or "txt"
    if named is not None and format != named and not (named == "txt" and format == "cleaneval"):
        raise DetourageError(f"-o {out} names {named} by its extension, -f {format} another format: "
                             f"leave -f out, or name the file {Path(out).with_suffix(EXTENSIONS[format]).name}")
    return format


def output_kind(out: str | None, format: str) -> str:
    """Where :class:`Writer` puts records: ``stream`` (or ``csv-stream``), ``jsonl``,
    ``csv`` (FILE.csv), ``page`` (one page's output as a file named with an extension) or
    ``folder`` (one file per page; an existing folder stays one whatever its name)."""
    if out is None:
        return "csv-stream" if format == "csv" else "stream"
    if out.endswith(".jsonl"):
        return "jsonl"
    if format == "csv" and out.endswith(".csv"):
        return "csv"
    if Path(out).suffix.lower() in PAGE_FILE_SUFFIXES and not Path(out).is_dir():
        return "page"
    return "folder"


def _payload(record: Record, format: str) -> str:
    if format == "json":
        return json.dumps({k: v for k, v in record.items() if k not in ("ok", "ms")}, ensure_ascii=False)
    if format == "csv":
        return csv_text([record])
    text: str = record["text"]
    return text


def default_workers() -> int:
    return max(1, (os.cpu_count() or 1))
