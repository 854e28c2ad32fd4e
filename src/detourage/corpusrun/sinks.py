"""Writing a shard's rows: Parquet (pyarrow) or JSON lines (plain, gzip or zstd).

Every shard is written whole or not at all (:func:`~detourage.corpusrun.plan.atomic_write`)
and then marked done, so that a reader of the run folder reads only finished shards.
Writing is deterministic: the same rows give the same bytes (gzip without a timestamp,
Parquet without one either), whichever executor or machine wrote them.

The columns (:data:`COLUMNS`), in this order; ``markdown`` and ``html`` only when asked,
``ms`` unless ``--no-timings``:

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
from pathlib import Path
from typing import Any

from ..errors import MissingExtra
from .plan import atomic_write

COLUMNS = ("id", "source", "url", "record_id", "date", "language", "title", "text", "markdown", "html",
           "method", "encoding", "encoding_reason", "error", "message", "ms")
#: the output formats of a corpus run (``--to``) and their file extension
SUFFIXES = {"parquet": ".parquet", "jsonl": ".jsonl", "jsonl.gz": ".jsonl.gz", "jsonl.zst": ".jsonl.zst"}


def columns(*, markdown: bool = False, html: bool = False, timings: bool = True) -> tuple[str, ...]:
    """The columns written, in order."""
    wanted = {"markdown": markdown, "html": html, "ms": timings}
    return tuple(c for c in COLUMNS if wanted.get(c, True))


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

    schema = pa.schema([(c, pa.float64() if c == "ms" else pa.string()) for c in names])
    table = pa.table({c: [row.get(c) for row in rows] for c in names}, schema=schema)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return bytes(sink.getvalue())


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
