"""Reading a corpus run's inputs: WARC (FastWARC), JSON lines of ``{url, html}`` (``.jsonl``,
``.jsonl.gz``) and pages.

A shard (:class:`~detourage.corpusrun.plan.Shard`) is read into :class:`Item` objects —
one per page to clean — and skip reasons (``str``) for the records that are no page to
clean, so that they are counted, never silently dropped.  From a WARC only HTML
responses are pages: a ``response`` record, HTTP status 200, an HTML or XHTML content
type (or none, and bytes that sniff as HTML).  The others read as reasons:

``warc:<type>``          a record that is no response (``warc:request``, ``warc:metadata``…)
``status:<code>``        a response other than 200 (``status:404``, ``status:301``)
``content-type:<type>``  a response that is no HTML (``content-type:image/jpeg``)
``not-html:sniffed``     a response without content type whose bytes are not HTML
``warc:bad-http-header`` a response whose HTTP header cannot be read
``jsonl:bad-line``       a JSON line that is not an object with an ``html`` string

FastWARC was chosen over warcio by measured speed (``benchmarks/corpus_scale.py``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from ..errors import MissingExtra

#: the content types of the responses cleaned
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: how far into a payload without content type the HTML markers are looked for
SNIFF_BYTES = 1024
_HTML_START = re.compile(rb"<(?:!doctype\s+html|html|head|body|meta|title|p|div)[\s>/]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Item:
    """One page of a shard: its bytes (or its file, read by the worker) and what the
    input says about it.  ``path``, ``data`` and ``url`` are those of a
    :class:`detourage.corpus.Job`, so :func:`detourage.corpus.job_bytes` reads it."""

    id: str
    path: str | None = None
    data: bytes | None = None
    url: str | None = None
    #: the HTTP ``Content-Type`` of a WARC response, whose charset goes to the decoder
    content_type: str | None = None
    #: the WARC-Record-ID and WARC-Date (ISO 8601) of a WARC record
    record_id: str | None = None
    date: str | None = None
    #: the input file the page was read from
    source: str = ""

    @property
    def headers(self) -> dict[str, str] | None:
        return {"Content-Type": self.content_type} if self.content_type else None


def fastwarc() -> Any:
    """The FastWARC module, or a one-line install hint."""
    try:
        from fastwarc import warc
    except ImportError:
        raise MissingExtra("reading WARC files needs FastWARC: pip install 'detourage[corpus]'") from None
    return warc


def warc_items(path: str, offset: int, count: int, max_bytes: int) -> Iterator[Item | str]:
    """``count`` records of a WARC file from the record at byte ``offset``: the HTML
    responses as items, the other records as their skip reason."""
    warc = fastwarc()
    name = Path(path).name
    with open(path, "rb") as handle:
        handle.seek(offset)
        records = warc.ArchiveIterator(handle, parse_http=False, fsspec_args=False)
        for number, record in enumerate(records):
            if number >= count:
                break
            yield _warc_item(record, f"{name}@{record.stream_pos}", name, max_bytes)


def _warc_item(record: Any, item_id: str, source: str, max_bytes: int) -> Item | str:
    """The page of a WARC record, or why it is none."""
    warc = fastwarc()
    if record.record_type != warc.WarcRecordType.response:
        return f"warc:{record.record_type}"
    try:
        record.parse_http(auto_decode="all")
    except (OSError, ValueError):
        return "warc:bad-http-header"
    if record.http_headers is None:
        return "warc:response-without-http"
    status = record.http_headers.status_code
    if status != 200:
        return f"status:{status}"
    # one byte over the limit is enough for the step to refuse the page as limit:bytes
    data = record.reader.read(max_bytes + 1)
    mime = (record.http_content_type or "").strip().lower()
    if mime and mime not in HTML_TYPES:
        return f"content-type:{mime[:60]}"
    if not mime and not _HTML_START.search(data[:SNIFF_BYTES]):
        return "not-html:sniffed"
    date = record.record_date
    return Item(item_id, data=data, url=record.headers.get("WARC-Target-URI") or None,
                content_type=record.http_headers.get("Content-Type") or None,
                record_id=record.record_id or None,
                date=date.isoformat() if isinstance(date, datetime) else None, source=source)


def warc_offsets(path: str) -> list[tuple[int, str]]:
    """(byte offset, record id) of every record of a WARC file, in order."""
    warc = fastwarc()
    with open(path, "rb") as handle:
        return [(record.stream_pos, record.record_id or "")
                for record in warc.ArchiveIterator(handle, parse_http=False, fsspec_args=False)]


def record_id_at(path: str, offset: int) -> str | None:
    """The id of the record found at ``offset``, or None: a check that the file can be
    read from there (a ``.warc.gz`` compressed as one gzip member cannot)."""
    warc = fastwarc()
    with open(path, "rb") as handle:
        handle.seek(offset)
        try:
            return next(iter(warc.ArchiveIterator(handle, parse_http=False, fsspec_args=False))).record_id
        except (StopIteration, OSError, ValueError):
            return None


def open_jsonl(path: str) -> IO[bytes]:
    """A JSON-lines file for reading, gunzipped when its name ends in ``.gz``: offsets are
    then those of the unpacked lines (a shard's seek unpacks the lines before it)."""
    return gzip.open(path, "rb") if path.lower().endswith(".gz") else open(path, "rb")


def jsonl_items(path: str, offset: int, count: int) -> Iterator[Item | str]:
    """``count`` lines of a JSON-lines file (``.jsonl``, or gzipped ``.jsonl.gz``) of
    ``{"url", "html"}`` (and an optional ``"id"``) from byte ``offset``."""
    name = Path(path).name
    with open_jsonl(path) as handle:
        handle.seek(offset)
        position, read = offset, 0
        while read < count and (line := handle.readline()):
            if line.strip():  # blank lines are no records (nor are they in jsonl_offsets)
                read += 1
                yield _jsonl_item(line, f"{name}@{position}", name)
            position += len(line)


def _jsonl_item(line: bytes, item_id: str, source: str) -> Item | str:
    try:
        row = json.loads(line)
    except ValueError:
        return "jsonl:bad-line"
    if not isinstance(row, dict) or not isinstance(row.get("html"), str):
        return "jsonl:bad-line"
    url = row.get("url")
    return Item(str(row.get("id", item_id)), data=row["html"].encode("utf-8"),
                url=url if isinstance(url, str) else None, source=source)


def jsonl_offsets(path: str) -> list[tuple[int, str]]:
    """(byte offset, "") of every non-empty line of a JSON-lines file."""
    out = []
    with open_jsonl(path) as handle:
        position = 0
        for line in handle:
            if line.strip():
                out.append((position, ""))
            position += len(line)
    return out


def warc_record(url: str, payload: bytes, *, record_type: str = "response", status: int = 200,
                content_type: str | None = "text/html; charset=utf-8", date: str = "2024-01-01T00:00:00Z",
                record_id: str | None = None) -> bytes:
    """One gzipped WARC/1.0 record (a member of a ``.warc.gz``): a response with its HTTP
    header, or another type with ``payload`` as its block.  For tests and benchmarks,
    which build WARC files from pages."""
    if record_type == "response":
        reason = {200: "OK", 404: "Not Found", 301: "Moved Permanently"}.get(status, "Status")
        head = f"HTTP/1.1 {status} {reason}\r\n"
        if content_type is not None:
            head += f"Content-Type: {content_type}\r\n"
        block = (head + f"Content-Length: {len(payload)}\r\n\r\n").encode("latin-1") + payload
        block_type = "application/http; msgtype=response"
    else:
        block, block_type = payload, "application/http; msgtype=request" if record_type == "request" else "text/plain"
    record_id = record_id or f"<urn:uuid:{hashlib.sha1(url.encode() + block).hexdigest()[:32]}>"
    header = (f"WARC/1.0\r\nWARC-Type: {record_type}\r\nWARC-Record-ID: {record_id}\r\nWARC-Date: {date}\r\n"
              f"WARC-Target-URI: {url}\r\nContent-Type: {block_type}\r\nContent-Length: {len(block)}\r\n\r\n")
    return gzip.compress(header.encode("utf-8") + block + b"\r\n\r\n", mtime=0)
