"""Writing a shard's rows: Parquet (pyarrow) or JSON lines (plain, gzip or zstd).

Every shard is written whole or not at all (:func:`~detourage.corpusrun.plan.atomic_write`)
and then marked done, so that a reader of the run folder reads only finished shards.
Writing is deterministic: the same rows give the same bytes (gzip without a timestamp,
Parquet without one either), whichever executor or machine wrote them.

The columns (:data:`COLUMNS`), in this order; ``markdown``, ``html`` and the metadata's
(:data:`METADATA_COLUMNS`) only when asked, ``ms`` unless ``--no-timings``:

=================  ========  ============================================================
id                 string    the page's id, unique in the run: ``FILE@OFFSET`` for a WARC
                             record or JSON line (``FILE@OFFSET#N`` for the N-th record of a
                             gzip member holding several: a WARC gzipped whole), a JSON
                             line's own ``id`` when it has one, the path for a page; an id
                             given twice is ``ID~2`` the second time.  FILE is the file's
                             name, or its path when two inputs have the same name
source             string    the input file the page was read from
url                string    WARC-Target-URI, the JSON line's ``url``; null for files
record_id          string    WARC-Record-ID; null for other inputs
date               string    WARC-Date, ISO 8601; null for other inputs
language           string    ISO 639-1/3 code of the text (py3langid); null without letters
title              string    the page's title (its metadata's, without the site's name)
authors            list      ``--with-metadata``: the page's authors (Parquet: list of strings)
date_published     date      ``--with-metadata``: the date published (Parquet: date32; JSON
                             lines: ``YYYY-MM-DD``); null when the page gives none
date_modified      date      ``--with-metadata``: the date last modified
site_name          string    ``--with-metadata``: the site's name ("" when none)
description        string    ``--with-metadata``: the page's description
canonical_url      string    ``--with-metadata``: the canonical URL, else the URL given
hostname           string    ``--with-metadata``: the URL's host, without ``www.``
declared_language  string    ``--with-metadata``: the language the page declares (BCP 47)
tags               list      ``--with-metadata``: the page's tags
categories         list      ``--with-metadata``: its categories
image              string    ``--with-metadata``: the main image's URL
license            string    ``--with-metadata``: the licence's URL or name
page_type          string    ``--with-metadata``: ``og:type`` or the main JSON-LD ``@type``
text               string    the main content as ``txt``; null for a failed page
markdown           string    the main content as Markdown (``--with-markdown``)
html               string    the main content as a small HTML document (``--with-html``)
method             string    the method or chain that labelled the page
encoding           string    the codec the bytes were decoded with
encoding_reason    string    why that codec (:mod:`detourage.decode`)
error              string    null, or why the page failed (``limit:time``, ``exception:…``)
message            string    the failure's message; on an ok row, how its record was read
                             when not as it said (an HTTP coding that could not be undone,
                             the body read as sent; lone surrogates replaced)
ms                 float64   milliseconds spent on the page (``--no-timings``: no column)
=================  ========  ============================================================
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import MissingExtra
from .plan import atomic_write

#: the metadata's fields (:class:`detourage.metadata.Metadata`) renamed as a record's keys,
#: where the record has its own ``url`` (the input's), ``date`` (the crawl's) and ``language``
#: (identified from the text); the datatrove step names them so too
METADATA_RENAMED = {"date": "date_published", "url": "canonical_url", "language": "declared_language"}
#: the metadata's columns (``--with-metadata``), in order; ``title`` is a column always
METADATA_COLUMNS = ("authors", "date_published", "date_modified", "site_name", "description", "canonical_url",
                    "hostname", "declared_language", "tags", "categories", "image", "license", "page_type")
COLUMNS = ("id", "source", "url", "record_id", "date", "language", "title", *METADATA_COLUMNS, "text", "markdown",
           "html", "method", "encoding", "encoding_reason", "error", "message", "ms")
#: the Parquet types of the columns that are not strings
_LISTS = frozenset({"authors", "tags", "categories"})
_DATES = frozenset({"date_published", "date_modified"})
#: the output formats of a corpus run (``--to``) and their file extension
SUFFIXES = {"parquet": ".parquet", "jsonl": ".jsonl", "jsonl.gz": ".jsonl.gz", "jsonl.zst": ".jsonl.zst"}


def columns(*, markdown: bool = False, html: bool = False, metadata: bool = False,
            timings: bool = True) -> tuple[str, ...]:
    """The columns written, in order."""
    wanted = {"markdown": markdown, "html": html, "ms": timings, **dict.fromkeys(METADATA_COLUMNS, metadata)}
    return tuple(c for c in COLUMNS if wanted.get(c, True))


def metadata_values(found: dict[str, Any]) -> dict[str, Any]:
    """A page's metadata (:meth:`detourage.metadata.Metadata.as_dict`) as the values of
    :data:`METADATA_COLUMNS`: renamed, lists as lists, dates as ``YYYY-MM-DD``."""
    renamed = {METADATA_RENAMED.get(name, name): value for name, value in found.items()}
    return {name: renamed.get(name) for name in METADATA_COLUMNS}


def pyarrow() -> Any:
    """The pyarrow module, or a one-line install hint."""
    try:
        import pyarrow as pa
    except ImportError:
        raise MissingExtra("Parquet and zstd output need pyarrow: pip install 'detourage[corpus]'") from None
    return pa


def encode(rows: Sequence[dict[str, Any]], names: Sequence[str], to: str) -> bytes:
    """The bytes of a shard file of ``rows`` in the format ``to``."""
    if to == "parquet":
        return _parquet(rows, names)
    text = "".join(json.dumps({c: row.get(c) for c in names}, ensure_ascii=False) + "\n" for row in rows)
    data = text.encode("utf-8")
    if to == "jsonl.gz":
        buffer = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as packed:
            packed.write(data)
        return buffer.getvalue()
    if to == "jsonl.zst":
        pa = pyarrow()
        return bytes(pa.Codec("zstd").compress(data, asbytes=True)) if data else b""
    return data


def _parquet(rows: Sequence[dict[str, Any]], names: Sequence[str]) -> bytes:
    pa = pyarrow()
    import pyarrow.parquet as pq

    schema = pa.schema([(c, _arrow_type(pa, c)) for c in names])
    table = pa.table({c: [_typed(c, row.get(c)) for row in rows] for c in names}, schema=schema)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return bytes(sink.getvalue())


def _arrow_type(pa: Any, column: str) -> Any:
    if column == "ms":
        return pa.float64()
    if column in _LISTS:
        return pa.list_(pa.string())
    return pa.date32() if column in _DATES else pa.string()


def _typed(column: str, value: Any) -> Any:
    """A row's value as its Parquet column holds it (a date from its ISO text)."""
    if column not in _DATES or value is None:
        return value
    try:
        return date.fromisoformat(value)
    except ValueError:  # the metadata gives ISO dates only; one that is not cannot be a date32
        return None


def write(folder: Path, name: str, rows: Sequence[dict[str, Any]], names: Sequence[str], to: str) -> Path:
    """Write the shard file ``folder/name.<ext>`` atomically; its path."""
    path = folder / (name + SUFFIXES[to])
    atomic_write(path, encode(rows, names, to))
    return path


def read(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a shard file (any format of :data:`SUFFIXES`): for tests and checks."""
    path = Path(path)
    data = path.read_bytes()
    if path.name.endswith(".parquet"):
        import pyarrow.parquet as pq

        return list(pq.read_table(io.BytesIO(data)).to_pylist())
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    elif path.name.endswith(".zst"):
        data = _unzstd(data)
    return [json.loads(line) for line in data.decode("utf-8").splitlines() if line]


def _unzstd(data: bytes) -> bytes:
    if not data:
        return b""
    pa = pyarrow()
    with pa.input_stream(pa.py_buffer(data), compression="zstd") as stream:
        return bytes(stream.read())
