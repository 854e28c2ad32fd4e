"""A corpus run's plan: its inputs cut into shards, kept in the run folder's manifest.

A shard is a run of consecutive records of one WARC or JSON-lines file (from a byte
offset, so a worker reads it alone, on any machine that sees the file), or a list of page
files.  A WARC shard begins at a gzip member: a file gzipped whole is one shard.  The
plan depends only on the inputs and the shard size, so a run resumed, or run on another
executor, cuts the same shards and writes the same output.  Planning scans every WARC
with the scanner the workers use (:func:`.warcfile.warc_entries`), so that a damaged
file's damaged spans are records of their own, counted alike by the plan and the
workers; it never stops for a damaged input.  The plan also makes every row id of the
run unique.

    RUN/manifest.json    inputs (size, mtime), options, shards
    RUN/shards/part-NNNNN.parquet (or .jsonl, .jsonl.gz, .jsonl.zst): the rows, nothing else,
                         so that Arrow, pandas, Polars or DuckDB read the folder as it is
    RUN/markers/part-NNNNN.done   each finished shard's counts (a run made before the
                         markers had their folder keeps them beside its shards: read too)
"""

from __future__ import annotations

import collections
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..errors import RunError
from ..inputs import read_inputs
from ..parse import DEFAULT_LIMITS
from . import readers, warcfile

FORMAT = "detourage-run"
VERSION = 1
WARC_SUFFIXES = (".warc", ".warc.gz")
JSONL_SUFFIXES = (".jsonl", ".jsonl.gz")


@dataclass(frozen=True, slots=True)
class Shard:
    """Records ``offset``… (``count`` of them) of a WARC or JSON-lines file, or page files."""

    n: int
    kind: str
    path: str = ""
    offset: int = 0
    count: int = 0
    #: (id, path) of the pages of a ``files`` shard
    files: tuple[tuple[str, str], ...] = ()
    #: the name its rows' ids begin with and their ``source``: the file's name, or its
    #: path when two inputs have the same name
    label: str = ""
    #: (record number in the shard, id) of the records whose id is renamed to be unique
    ids: tuple[tuple[int, str], ...] = ()

    @property
    def name(self) -> str:
        return f"part-{self.n:05d}"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shard:
        return cls(**{**data, "files": tuple(tuple(f) for f in data.get("files", ())),
                      "ids": tuple(tuple(i) for i in data.get("ids", ()))})


def input_kind(path: str) -> str:
    """``warc``, ``jsonl`` or ``page``, by the file's name."""
    name = path.lower()
    if name.endswith(WARC_SUFFIXES):
        return "warc"
    return "jsonl" if name.endswith(JSONL_SUFFIXES) else "page"


Piece = tuple[str, str, int, int, tuple[tuple[str, str], ...], str, tuple[tuple[int, str], ...]]


def plan(paths: Iterable[str], shard_records: int, *, patterns: Iterable[str] = (),
         exclude: Iterable[str] = (), max_bytes: int = DEFAULT_LIMITS.max_bytes) -> list[Shard]:
    """The shards of the inputs: those of WARC files (named, or found in folders) and
    JSON-lines files (named), in input order, then those of the web pages (named, or
    found in folders as ``extract`` finds them).  ``max_bytes``: the page size limit,
    which bounds the JSON lines read (as the workers read them).

    A damaged input never stops planning: its damaged spans are records of their own,
    read as skip reasons.  Every row id of the run is unique (:class:`_Ids`)."""
    if shard_records < 1:
        raise RunError(f"--shard-size {shard_records}: at least 1 record per shard")
    files, pages = _inputs(paths, patterns, exclude)
    labels = _labels([path for _, path in files])
    ids = _Ids(labels.values())
    pieces: list[Piece] = []
    for kind, path in files:
        pieces.extend(_cut(kind, path, labels[path], shard_records, ids, max_bytes))
    pages = [(ids.own(page_id), path) for page_id, path in pages]
    for start in range(0, len(pages), shard_records):
        chunk = tuple(pages[start:start + shard_records])
        pieces.append(("files", "", 0, len(chunk), chunk, "", ()))
    return [Shard(n, *piece) for n, piece in enumerate(pieces)]


def _inputs(paths: Iterable[str], patterns: Iterable[str],
            exclude: Iterable[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(kind, path) of the WARC and JSON-lines files, each once, and (id, path) of the pages."""
    files: list[tuple[str, str]] = []
    pages: list[tuple[str, str]] = []
    seen: set[str] = set()
    for path in paths:
        if path == "-":
            raise RunError("a corpus run reads files and folders, not standard input")
        for kind, file in _files(path, patterns, exclude):
            if kind == "page":
                pages.append(file)
            elif os.path.realpath(file) not in seen:  # a file named twice is read once
                seen.add(os.path.realpath(file))
                files.append((kind, file))
    return files, pages


def _files(path: str, patterns: Iterable[str], exclude: Iterable[str]) -> Iterator[tuple[str, Any]]:
    """(kind, file) for a named input: WARC and JSON-lines files as paths, pages as (id, path)."""
    if not os.path.isdir(path) and input_kind(path) != "page":
        if not os.path.exists(path):
            raise FileNotFoundError(2, "no such file or folder", path)
        yield input_kind(path), path
        return
    if os.path.isdir(path):
        skip = [Path(e).resolve() for e in exclude]
        found = sorted(p for p in Path(path).rglob("*") if p.is_file() and input_kind(str(p)) == "warc"
                       and not any(p.resolve().is_relative_to(s) for s in skip))
        for warc in found:
            yield "warc", str(warc)
    for job in read_inputs([path], patterns=patterns, exclude=exclude):
        yield "page", (job.id, job.path)


def _labels(paths: list[str]) -> dict[str, str]:
    """Each file's label: its name, or its path as found when another input has that name."""
    names = collections.Counter(Path(p).name for p in paths)
    return {p: Path(p).name if names[Path(p).name] == 1 else p for p in paths}


class _Ids:
    """Unique row ids.  WARC records' and JSON lines' own ids (``LABEL@OFFSET``,
    ``LABEL@OFFSET#N``) are unique by construction, labels being unique; an id given by
    the input (a JSON line's ``"id"``, a page's path) that is taken already, or that has
    the form of a WARC record's or JSON line's, becomes ``ID~2`` (``~3``…)."""

    def __init__(self, labels: Iterable[str]) -> None:
        self.labels = set(labels)
        self.taken: set[str] = set()

    def own(self, given: str) -> str:
        candidate, n = given, 1
        while candidate in self.taken or self._generated(candidate):
            n += 1
            candidate = f"{given}~{n}"
        self.taken.add(candidate)
        return candidate

    def _generated(self, candidate: str) -> bool:
        head, sep, tail = candidate.rpartition("@")
        return bool(sep) and head in self.labels and _GENERATED_TAIL.fullmatch(tail) is not None


_GENERATED_TAIL = re.compile(r"\d+(?:#\d+)?")


def _cut(kind: str, path: str, label: str, shard_records: int, ids: _Ids, max_bytes: int) -> list[Piece]:
    """The shards of one WARC or JSON-lines file (none when it holds no record)."""
    try:
        entries = _warc_entries(path) if kind == "warc" else _jsonl_entries(path, label, ids, max_bytes)
    except OSError as exc:  # a file that cannot be opened or read: no damage, a usage problem
        raise RunError(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    pieces: list[Piece] = []
    first = 0
    for i, (_, start, _) in enumerate(entries):
        if i - first >= shard_records and start:
            pieces.append(_piece(kind, path, label, entries, first, i))
            first = i
    if entries:
        pieces.append(_piece(kind, path, label, entries, first, len(entries)))
    return pieces


Entries = list[tuple[int, bool, str]]


def _piece(kind: str, path: str, label: str, entries: Entries, first: int, end: int) -> Piece:
    """The shard of entries ``first`` to ``end``: from the first's offset (the file's start
    for the first shard), with the ids renamed in it."""
    offset = entries[first][0] if first else 0
    renamed = tuple((i - first, entries[i][2]) for i in range(first, end) if entries[i][2])
    return kind, path, offset, end - first, (), label, renamed


def _warc_entries(path: str) -> Entries:
    """(offset, whether a shard may begin there, "") of every entry of a WARC file:
    gzip members of a file gzipped whole hold many records, and only a member's start
    can be read from."""
    return [(entry.offset, entry.start, "") for entry in warcfile.warc_entries(path)]


def _jsonl_entries(path: str, label: str, ids: _Ids, max_bytes: int) -> Entries:
    """(offset, True, renamed id or "") of every non-empty line of a JSON-lines file."""
    entries: Entries = []
    for position, line in readers.jsonl_lines(path, 0, max_bytes):
        renamed = ""
        if isinstance(line, bytes) and b'"id"' in line:
            row = readers.jsonl_row(line)
            own = readers.jsonl_id(row, label, position)
            if row is not None and "id" in row and own != f"{label}@{position}":
                final = ids.own(own)
                renamed = final if final != own else ""
        entries.append((position, True, renamed))
    return entries


def manifest(shards: list[Shard], options: dict[str, Any], inputs: Iterable[str]) -> dict[str, Any]:
    """The manifest of a new run: what makes its output (inputs as named, their size and
    modification time, the options) and its shards."""
    return {"format": FORMAT, "version": VERSION, "options": options,
            "inputs": [_stat(p) for p in inputs], "records": sum(s.count for s in shards),
            "shards": [asdict(s) for s in shards]}


def _stat(path: str) -> dict[str, Any]:
    st = os.stat(path)
    return {"path": path, "size": st.st_size if not os.path.isdir(path) else None,
            "mtime": st.st_mtime_ns if not os.path.isdir(path) else None}


#: the run folder's rows, and the finished shards' markers
SHARDS = "shards"
MARKERS = "markers"


def marker_path(folder: Path, name: str) -> Path:
    """Where a shard's marker is written (``RUN/markers/NAME.done``)."""
    return folder / MARKERS / f"{name}.done"


def read_marker(folder: Path, name: str) -> dict[str, Any] | None:
    """A shard's marker, or None while it is not finished; a run folder made before the
    markers had their folder keeps them beside the shards."""
    for path in (marker_path(folder, name), folder / SHARDS / f"{name}.done"):
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            continue
    return None


def finished(folder: Path) -> set[str]:
    """The names of the shards whose marker says they are done (their file written before it)."""
    return {p.name[:-len(".done")] for where in (MARKERS, SHARDS) for p in (folder / where).glob("*.done")}


def write_manifest(folder: Path, data: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SHARDS).mkdir(exist_ok=True)
    (folder / MARKERS).mkdir(exist_ok=True)
    atomic_write(folder / "manifest.json", json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8"))


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """The run folder's manifest, or None when there is none."""
    try:
        data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except ValueError as exc:
        raise RunError(f"{folder}/manifest.json: not a run manifest ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise RunError(f"{folder}/manifest.json: not a {FORMAT} manifest of version {VERSION}")
    return data


def check_resumable(data: dict[str, Any], options: dict[str, Any], inputs: list[str]) -> None:
    """Refuse to resume a run whose inputs or options differ from those given now."""
    if data["options"] != options:
        was = data["options"]
        changed = sorted(k for k in {*options, *was} if options.get(k) != was.get(k))
        told = "; ".join(f"{_flag(k)}: {was.get(k)!r} then, {options.get(k)!r} now" for k in changed)
        raise RunError(f"--resume: the run was started with other options ({told}); "
                       "give the same ones, or another folder")
    if not _same_inputs(data["inputs"], inputs):
        raise RunError("--resume: the inputs differ from the run's (other paths, or files changed "
                       "since); give the same ones, or another folder")


def _same_inputs(was: list[dict[str, Any]], inputs: list[str]) -> bool:
    """Whether ``inputs`` are the run's, in its order: the same files or folders, however
    named (``./x.warc.gz`` is ``x.warc.gz``), unchanged since (size, modification time).
    The manifest's paths are resolved now, as the shards' paths are when read: a relative
    path given from another folder names another file."""
    if len(was) != len(inputs):
        return False
    for old, path in zip(was, inputs):
        now = _stat(path)
        if os.path.realpath(old["path"]) != os.path.realpath(path) or \
                (old["size"], old["mtime"]) != (now["size"], now["mtime"]):
            return False
    return True


#: the manifest's option keys → the ``detourage extract`` options that set them
OPTION_FLAGS = {
    "method": "-m", "to": "--to", "models": "--model", "template": "--template", "comments": "--comments",
    "render": "--links/--images/--tables/--formatting", "markdown": "--with-markdown", "html": "--with-html",
    "metadata": "--with-metadata",
    "timings": "--timings", "max_bytes": "--max-bytes", "timeout": "--timeout", "shard_records": "--shard-size",
    "patterns": "--glob", "repair": "--repair-text", "options": "--model/--template/--comments",
}


def _flag(key: str) -> str:
    flag = OPTION_FLAGS.get(key)
    return f"{key} ({flag})" if flag else key


def atomic_write(path: Path, data: bytes) -> None:
    """Write a file whole or not at all: a temporary file beside it, then a rename.  The
    temporary file's name starts with a dot, so that readers of the folder skip it while
    it is written (and if a killed run leaves it)."""
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
