"""Where a batch's records go: JSON lines, one file per page, one page's file, CSV, or
the terminal (:class:`Writer`); and which of these ``-o`` names (:func:`output_kind`,
:func:`output_format`).

A writer knows records, never how they were made: the corpus step
(:class:`detourage.step.Step`) makes them.  A corpus run's writers (Parquet, JSON lines
by shard) are :mod:`detourage.corpusrun.sinks`.
"""

from __future__ import annotations

import errno
import json
import sys
from pathlib import Path
from typing import IO, Any

from .errors import DetourageError
from .formats import CSV_COLUMNS, csv_text
from .render import EXTENSIONS
from .supervision import EMPTY

Record = dict[str, Any]


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
            self._file = open(out, "w", encoding="utf-8", newline="")  # noqa: SIM115 - the writer's; close() closes it
        elif self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)

    def write(self, record: Record) -> None:
        record = {k: v for k, v in record.items() if k != EMPTY}  # the summary's, not the page's
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
                self._errors = open(self.folder / "errors.jsonl", "w", encoding="utf-8")  # noqa: SIM115 - as self._file
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
        assert out is not None  # named comes from out's extension
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
