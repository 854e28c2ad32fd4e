"""The pages of files, folders and standard input, as jobs (:class:`~detourage.loading.Job`).

:func:`read_inputs` names each page by a unique id (its path relative to the folder
given, less a web extension) and reads nothing but the folders' listings: a job's bytes
are read in the worker (:func:`detourage.loading.job_bytes`).  :func:`with_urls` gives
the jobs the URLs of a JSON-lines file.  The readers of a corpus run (WARC, JSON lines)
are :mod:`detourage.corpusrun.readers`.
"""

from __future__ import annotations

import collections
import dataclasses
import errno
import fnmatch
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from . import safejson
from .errors import DatasetError
from .loading import WEB_SUFFIXES, Job, gzipped


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


def _page_id(relative: Path) -> str:
    """The page's id: its path relative to the input folder, less a web extension."""
    if gzipped(relative):
        relative = relative.with_suffix("")
    if relative.suffix.lower() in WEB_SUFFIXES:
        relative = relative.with_suffix("")
    return _page_name(relative)


def _page_name(relative: Path) -> str:
    """A relative path as text: a file name that is not valid UTF-8 keeps its bytes as
    surrogate escapes, shown as ``\\xNN`` so that records can be written as UTF-8."""
    return relative.as_posix().encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


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
