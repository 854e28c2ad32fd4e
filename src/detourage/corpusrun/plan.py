"""A corpus run's plan: its inputs cut into shards, kept in the run folder's manifest.

A shard is a run of consecutive records of one WARC or JSON-lines file (from a byte
offset, so a worker reads it alone, on any machine that sees the file), or a list of page
files.  The plan depends only on the inputs and the shard size, so a run resumed, or run
on another executor, cuts the same shards and writes the same output.

    RUN/manifest.json    inputs (size, mtime), options, shards
    RUN/shards/part-NNNNN.parquet (or .jsonl, .jsonl.gz, .jsonl.zst) and part-NNNNN.done
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..corpus import read_inputs
from ..errors import DetourageError
from . import readers

FORMAT = "detourage-run"
VERSION = 1
WARC_SUFFIXES = (".warc", ".warc.gz")
JSONL_SUFFIXES = (".jsonl", ".jsonl.gz")


class RunError(DetourageError):
    """A run folder that cannot be created or resumed with these inputs and options."""

    reason = "run"


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

    @property
    def name(self) -> str:
        return f"part-{self.n:05d}"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shard:
        return cls(**{**data, "files": tuple(tuple(f) for f in data.get("files", ()))})


def input_kind(path: str) -> str:
    """``warc``, ``jsonl`` or ``page``, by the file's name."""
    name = path.lower()
    if name.endswith(WARC_SUFFIXES):
        return "warc"
    return "jsonl" if name.endswith(JSONL_SUFFIXES) else "page"


def plan(paths: Iterable[str], shard_records: int, *, patterns: Iterable[str] = (),
         exclude: Iterable[str] = ()) -> list[Shard]:
    """The shards of the inputs: those of WARC files (named, or found in folders) and
    JSON-lines files (named), in input order, then those of the web pages (named, or
    found in folders as ``extract`` finds them)."""
    if shard_records < 1:
        raise RunError(f"--shard-size {shard_records}: at least 1 record per shard")
    pieces: list[tuple[str, str, int, int, tuple[tuple[str, str], ...]]] = []
    pages: list[tuple[str, str]] = []
    for path in paths:
        if path == "-":
            raise RunError("a corpus run reads files and folders, not standard input")
        for kind, file in _files(path, patterns, exclude):
            if kind == "page":
                pages.append(file)  # type: ignore[arg-type]
                continue
            pieces.extend(_cut(kind, file, shard_records))  # type: ignore[arg-type]
    for start in range(0, len(pages), shard_records):
        chunk = tuple(pages[start:start + shard_records])
        pieces.append(("files", "", 0, len(chunk), chunk))
    return [Shard(n, kind, path, offset, count, files)
            for n, (kind, path, offset, count, files) in enumerate(pieces)]


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


def _cut(kind: str, path: str, shard_records: int) -> list[tuple[str, str, int, int, tuple]]:
    """The shards of one WARC or JSON-lines file."""
    try:
        offsets = readers.warc_offsets(path) if kind == "warc" else readers.jsonl_offsets(path)
    except (OSError, EOFError) as exc:  # a .jsonl.gz that is no gzip, or one cut short
        raise RunError(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    if not offsets:
        return []
    starts = list(range(0, len(offsets), shard_records))
    if len(starts) > 1 and kind == "warc":
        # one gzip member for the whole file: records cannot be read from an offset
        offset, record_id = offsets[starts[1]]
        if readers.record_id_at(path, offset) != record_id:
            starts = [0]
            shard_records = len(offsets)
    return [(kind, path, offsets[s][0], min(shard_records, len(offsets) - s), ()) for s in starts]


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


def write_manifest(folder: Path, data: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "shards").mkdir(exist_ok=True)
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
    if data["inputs"] != [_stat(p) for p in inputs]:
        raise RunError("--resume: the inputs differ from the run's (other paths, or files changed "
                       "since); give the same ones, or another folder")


#: the manifest's option keys → the ``detourage extract`` options that set them
OPTION_FLAGS = {
    "method": "-m", "to": "--to", "models": "--model", "template": "--template", "comments": "--comments",
    "render": "--links/--images/--tables/--formatting", "markdown": "--with-markdown", "html": "--with-html",
    "timings": "--timings", "max_bytes": "--max-bytes", "timeout": "--timeout", "shard_records": "--shard-size",
    "patterns": "--glob", "repair": "--repair-text",
}


def _flag(key: str) -> str:
    flag = OPTION_FLAGS.get(key)
    return f"{key} ({flag})" if flag else key


def atomic_write(path: Path, data: bytes) -> None:
    """Write a file whole or not at all: a temporary file beside it, then a rename."""
    temporary = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
