"""From a page's bytes and the :class:`Settings` to a loaded :class:`Page`: the one road.

:func:`load` decodes (bytes only), parses and segments a page within the settings'
limits, repairing its text when they ask; every room that needs a loaded page (the
public API, the corpus step, the evaluation, the aligner of gold, the trainers, the
inspector, the cross-page fitting) takes it here, below the methods, so that none
reaches up to :mod:`detourage.api` for it.  A :class:`Job` names where a page's bytes
are (a file read in the worker, or the bytes given) and :func:`job_bytes` reads them
within the byte limit (:func:`read_page`: a gzip bomb is never unpacked past it).
"""

from __future__ import annotations

import gzip
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .decode import decode, looks_binary, repair as repair_text
from .errors import LimitExceeded, NotHTML
from .model import Decoded, Page
from .parse import parse, repaired
from .reveal import place_streamed, show_hidden_body
from .segment import page_title, segmented, show_noscript
from .settings import DEFAULT_LIMITS, Limits, Settings

#: the settings of a page loaded with none given: the default limits, no repair
DEFAULT_SETTINGS = Settings()


def load(html: str | bytes, settings: Settings = DEFAULT_SETTINGS, *, url: str | None = None,
         headers: Mapping[str, str] | None = None) -> Page:
    """Decode (bytes only), parse and segment a page within ``settings.limits``.

    Bytes that are binary data, not a text document (a PDF, an image…: a known file
    signature, or binary bytes making a real share of the first 4 KB), raise
    :class:`NotHTML`; text given as ``str`` is always taken.  ``settings.repair`` undoes
    the mojibake of text double-encoded before it reached you
    (:func:`detourage.decode.repair`, the ``repair`` extra)."""
    limits = settings.limits
    t0 = time.perf_counter()
    if isinstance(html, (bytearray, memoryview)):
        html = bytes(html)
    if not isinstance(html, (str, bytes)):
        raise TypeError(f"a page is given as bytes (best: its encoding is then detected) or str, "
                        f"not {type(html).__name__}")
    if isinstance(html, bytes):
        if looks_binary(html):
            raise NotHTML("binary data, not a text document")
        decoded = decode(html, headers)
    else:
        decoded = Decoded(html, "str", "given as text")
    if settings.repair:
        decoded = repair_text(decoded)
    t1 = time.perf_counter()
    # the bytes as they came, when the text is exactly them read as UTF-8: the parser
    # reads UTF-8, and encoding the text again cost a pass over every character
    tree = parse(html if decoded.exact_utf8 else decoded.text, limits)
    place_streamed(tree, decoded.text)  # a React page's late content, where it belongs
    t2 = time.perf_counter()
    blocks, formulas, declared = segmented(tree, limits)
    if not blocks and decoded.text.strip():
        tree = parse(repaired(decoded.text), limits)
        place_streamed(tree, decoded.text)
        blocks, formulas, declared = segmented(tree, limits)
    if show_noscript(tree, blocks) or show_hidden_body(tree, blocks):  # a page whose text is all
        blocks, formulas, declared = segmented(tree, limits)  # in <noscript>, or in an element its scripts show
    t3 = time.perf_counter()
    timings = {"decode": t1 - t0, "parse": t2 - t1, "segment": t3 - t2}
    return Page(decoded.text, decoded, tree, blocks, page_title(tree), url, timings, limits, formulas, declared)


@dataclass(frozen=True, slots=True)
class Job:
    """One page to process: read from ``path`` in the worker, or given as ``data``."""

    id: str
    path: str | None = None
    data: bytes | None = None
    url: str | None = None
    #: the HTTP response's header fields, for a page fetched (its charset)
    headers: tuple[tuple[str, str], ...] = ()


def job_bytes(job: Any, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """A job's page bytes (any job with ``data`` or a ``path``), refused when over the
    size limit (binary bytes are refused next, by :func:`load`: ``not-html``)."""
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
    if not gzipped(Path(path)):
        with open(path, "rb") as handle:
            return handle.read()
    with gzip.open(path, "rb") as unpacked:
        data = unpacked.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise LimitExceeded("bytes", len(data), max_bytes)
    return data


#: extensions of a web page's file; ``.gz`` counts only after one of them (crawls store
#: gzipped pages as ``.html.gz``), and such files are gunzipped when read
WEB_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".shtml"})


def gzipped(path: Path) -> bool:
    """Whether the file is a gzipped web page (``.html.gz``…)."""
    return path.suffix.lower() == ".gz" and path.with_suffix("").suffix.lower() in WEB_SUFFIXES
