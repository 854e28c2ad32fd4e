"""Reading a corpus run's inputs: WARC files (``.warc``, ``.warc.gz``), JSON lines of
``{url, html}`` (``.jsonl``, ``.jsonl.gz``) and pages.

A shard (:class:`~detourage.corpusrun.plan.Shard`) is read into :class:`Item` objects —
one per page to clean — and skip reasons for the records that are no page to clean, so
that every record is counted, never silently dropped.  One bad record costs only itself:
the reader goes on with the next record whatever is wrong with this one.  From a WARC
only HTML responses are pages: a ``response`` record, HTTP status 200, an HTML or XHTML
content type (or none, and bytes that sniff as HTML).  The others read as reasons:

``warc:<type>``          a record that is no response (``warc:request``, ``warc:metadata``…)
``status:<code>``        a response other than 200 (``status:404``, ``status:301``)
``content-type:<type>``  a response that is no HTML (``content-type:image/jpeg``)
``not-html:sniffed``     a response without content type whose bytes are not HTML
``warc:bad-http-header`` a response whose HTTP header cannot be read
``warc:response-without-http``  a response whose block is not ``application/http``
``jsonl:bad-line``       a JSON line that is not an object with an ``html`` string
``jsonl:too-deep``       a JSON line nested deeper than the JSON parser follows (about
                         1 000 levels)
``jsonl:too-long``       a JSON line too long to hold a page within the size limit
                         (``--max-bytes``, :func:`line_fits`): read past, never held whole

A damaged input is a :class:`Damage`: a skip reason that also marks the run's input as
damaged (its summary says so, and ``detourage extract`` exits with status 3), with the
file and the byte offset where the damage is:

``warc:truncated``       the file ends inside this record: its bytes are not all there
``warc:bad-length``      a record whose ``Content-Length`` is not where it ends (negative,
                         too long, too short); the next record is found again
``warc:damaged``         bytes that are no readable record: a corrupt gzip member, garbage
                         between records or members, a gzip member whose checksum fails
                         (the last record read from it), a WARC header that cannot be read.
                         A damaged span counts as one record
``jsonl:truncated``      a JSON-lines file that ends inside a line, or a ``.jsonl.gz`` cut short
``jsonl:damaged``        a ``.jsonl.gz`` whose gzip data is corrupt: the lines after it
``unreadable:<error>``   records of a file that could not be read to its end
                         (:mod:`.work`, for the records of a shard it could not read)

WARC files are read by the scanner of :mod:`.warcfile` (records and damaged spans), HTTP
responses by :mod:`.http` (the header, and the body with its codings undone, bounded by
the page size limit); this module turns what they find into pages and reasons.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from .. import safejson
from ..parse import DEFAULT_LIMITS
from .http import header_fields, http_body, media_type, response_head
from .warcfile import Keep, WarcEntry, warc_entries

#: the content types of the responses cleaned
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: how far into a payload without content type the HTML markers are looked for
SNIFF_BYTES = 1024
_HTML_START = re.compile(rb"<(?:!doctype\s+html|html|head|body|meta|title|p|div)[\s>/]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Item:
    """One page of a shard: its bytes (or its file, read by the worker) and what the
    input says about it.  ``path``, ``data`` and ``url`` are those of a
    :class:`detourage.loading.Job`, so :func:`detourage.loading.job_bytes` reads it."""

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
    #: how the record was read when not as it said (an HTTP coding left undone…)
    note: str = ""

    @property
    def headers(self) -> dict[str, str] | None:
        return {"Content-Type": self.content_type} if self.content_type else None


@dataclass(frozen=True, slots=True)
class Damage:
    """A record (or a span of bytes) lost to a damaged input: counted under ``reason``
    like any skipped record, and listed with its file and byte offset."""

    reason: str
    source: str
    offset: int
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "source": self.source, "offset": self.offset, "message": self.message}


Read = Item | str | Damage
#: the skip reasons of damage (and ``unreadable:*``): a run with any says its input was damaged
DAMAGE_REASONS = frozenset({"warc:truncated", "warc:bad-length", "warc:damaged", "jsonl:truncated",
                            "jsonl:damaged"})


# --- WARC records to pages --------------------------------------------------------

#: the first bytes of a response's block read before deciding how much of it to keep
PROBE_SIZE = 64 << 10


def warc_items(path: str, offset: int, count: int, max_bytes: int, label: str) -> Iterator[Read]:
    """``count`` entries of a WARC file from byte ``offset``: the HTML responses as items,
    the other records as their skip reason, damage as :class:`Damage`.  Ids are
    ``LABEL@OFFSET`` (``LABEL@OFFSET#N`` for the N-th record of a gzip member that holds
    several: a file gzipped whole)."""
    entries = warc_entries(path, offset, _keeper(max_bytes))
    for number, entry in enumerate(entries):
        if number >= count:
            break
        yield warc_item(entry, label, max_bytes)


def warc_id(label: str, offset: int, index: int) -> str:
    return f"{label}@{offset}#{index}" if index else f"{label}@{offset}"


def _keeper(max_bytes: int) -> Keep:
    """How much of a block to keep: the first bytes of an HTTP response, then all that a
    page may be (``max_bytes``, and one more so that an oversized page is refused as
    ``limit:bytes``) when it is an HTML page."""
    def keep(header: bytes, first: bytes | None) -> int:
        if first is None and not _RESPONSE.search(header):
            return 0
        fields = header_fields(header)
        if fields.get("warc-type", "").lower() != "response" or not _is_http(fields):
            return 0
        if first is None:
            return PROBE_SIZE
        head = response_head(first)
        if head is None or head[0] != 200 or media_type(head[1]) not in (*HTML_TYPES, ""):
            return len(first)
        return head[2] + max_bytes + 1
    return keep


_RESPONSE = re.compile(rb"\nwarc-type:[ \t]*response\b", re.IGNORECASE)


def _is_http(fields: dict[str, str]) -> bool:
    return fields.get("content-type", "").lower().startswith("application/http")


def warc_item(entry: WarcEntry, label: str, max_bytes: int) -> Read:
    """The page of a WARC entry, or why it is none."""
    if entry.problem:
        return Damage(entry.problem, label, entry.offset, entry.message)
    fields = header_fields(entry.header)
    kind = fields.get("warc-type", "").lower() or "none"
    if kind != "response":
        return f"warc:{kind[:40]}"
    if not _is_http(fields):
        return "warc:response-without-http"
    head = response_head(entry.block)
    if head is None:
        return "warc:bad-http-header"
    status, http, size = head
    if status != 200:
        return f"status:{status}"
    mime = media_type(http)
    if mime and mime not in HTML_TYPES:
        return f"content-type:{mime[:60]}"
    raw = entry.block[size:]
    if entry.length - size > len(raw):  # over the page size limit: refused as limit:bytes
        data, note = raw, ""
    else:
        data, note = http_body(raw, http.get("transfer-encoding", ""), http.get("content-encoding", ""),
                               max_bytes + 1)
    if not mime and not _HTML_START.search(data[:SNIFF_BYTES]):
        return "not-html:sniffed"
    return Item(warc_id(label, entry.offset, entry.index), data=data, url=_target(fields),
                content_type=http.get("content-type") or None, record_id=fields.get("warc-record-id") or None,
                date=_date(fields.get("warc-date", "")), source=label, note=note)


def _target(fields: dict[str, str]) -> str | None:
    url = fields.get("warc-target-uri", "")
    if url.startswith("<") and url.endswith(">"):  # as some WARC/1.1 writers put it
        url = url[1:-1]
    return url or None


def _date(text: str) -> str | None:
    try:
        return datetime.fromisoformat(text).isoformat() if text else None
    except ValueError:
        return None


# --- JSON lines ------------------------------------------------------------------

#: bytes of a JSON line read at a time: a line is held only while it may still hold a
#: page within the size limit, then read past chunk by chunk (:func:`line_fits`)
LINE_CHUNK = 1 << 20
#: room in a JSON line for all that is not the page (its url, id, keys, other fields)
LINE_ROOM = 1 << 20
#: the most bytes JSON takes to write one byte of a page (a control character: ``\u0001``)
JSON_EXPANSION = 6


def line_fits(size: int, backslashes: int, escapes: int, max_bytes: int) -> bool:
    """Whether a JSON line of ``size`` bytes holding ``backslashes`` ``\\`` (``escapes`` of
    them ``\\u``) may still hold a page of at most ``max_bytes`` bytes.  Its strings decode
    to at least ``size - 4 × escapes - backslashes`` bytes (a ``\\uXXXX`` saves at most 5
    bytes, another escape 1), of which all but :data:`LINE_ROOM` are the page's; and no
    page within the limit takes over :data:`JSON_EXPANSION` bytes of JSON per byte."""
    if size > JSON_EXPANSION * max_bytes + LINE_ROOM:
        return False
    return size - 4 * escapes - backslashes <= max_bytes + LINE_ROOM


def open_jsonl(path: str) -> IO[bytes]:
    """A JSON-lines file for reading, gunzipped when its name ends in ``.gz``: offsets are
    then those of the unpacked lines (a shard's seek unpacks the lines before it)."""
    return gzip.open(path, "rb") if path.lower().endswith(".gz") else open(path, "rb")  # type: ignore[return-value]  # both read bytes as IO does


def jsonl_lines(path: str, offset: int = 0,
                max_bytes: int = DEFAULT_LIMITS.max_bytes) -> Iterator[tuple[int, bytes | Damage]]:
    """(offset, line) of the non-empty lines of a JSON-lines file from ``offset`` (a line
    that cannot hold a page of ``max_bytes``, :func:`line_fits`, is ``b""``: read past,
    never held whole), then a :class:`Damage` where the file cannot be read further (a
    ``.jsonl.gz`` cut short or corrupt)."""
    name = Path(path).name
    position = offset
    try:
        with open_jsonl(path) as handle:
            handle.seek(offset)
            while True:
                line, size = _line(handle, max_bytes)
                if not size:
                    break
                start = position
                position += size
                if line and not line.strip():
                    continue  # blank lines are no records
                yield start, line
    except EOFError:
        yield position, Damage("jsonl:truncated", name, position, f"the gzip data ends inside it, at byte {position}")
    except (zlib.error, gzip.BadGzipFile) as exc:
        yield position, Damage("jsonl:damaged", name, position, f"corrupt gzip data after byte {position}: {exc}")


def _line(handle: IO[bytes], max_bytes: int) -> tuple[bytes, int]:
    """The next line and its size; ``b""`` (and its size) for one that stops fitting
    (:func:`line_fits`) as it is read, whose rest is then read past without being kept."""
    chunks: list[bytes] = []
    size = backslashes = escapes = 0
    while chunk := handle.readline(LINE_CHUNK):
        size += len(chunk)
        backslashes, escapes = backslashes + chunk.count(b"\\"), escapes + chunk.count(b"\\u")
        ended = chunk.endswith(b"\n")
        if not line_fits(size, backslashes, escapes, max_bytes):
            return b"", size + (0 if ended else _skip_line(handle))
        chunks.append(chunk)
        if ended:
            break
    return b"".join(chunks), size


def _skip_line(handle: IO[bytes]) -> int:
    skipped = 0
    while chunk := handle.readline(LINE_CHUNK):
        skipped += len(chunk)
        if chunk.endswith(b"\n"):
            break
    return skipped


def jsonl_items(path: str, offset: int, count: int, label: str,
                max_bytes: int = DEFAULT_LIMITS.max_bytes) -> Iterator[Read]:
    """``count`` lines of a JSON-lines file (``.jsonl``, or gzipped ``.jsonl.gz``) of
    ``{"url", "html"}`` (and an optional ``"id"``) from byte ``offset``; a line that cannot
    hold a page of ``max_bytes`` is ``jsonl:too-long``."""
    for number, (position, line) in enumerate(jsonl_lines(path, offset, max_bytes)):
        if number >= count:
            break
        yield line if isinstance(line, Damage) else jsonl_item(line, position, label)


def jsonl_parsed(line: bytes) -> dict[str, Any] | str:
    """The JSON object of a line, or why there is none: ``jsonl:too-deep`` (nested deeper
    than the parser follows), ``jsonl:bad-line`` (invalid JSON, not UTF-8, no object)."""
    try:
        row = safejson.loads(line)
    except safejson.TooDeep:
        return "jsonl:too-deep"
    except ValueError:
        return "jsonl:bad-line"
    return row if isinstance(row, dict) else "jsonl:bad-line"


def jsonl_row(line: bytes) -> dict[str, Any] | None:
    """The JSON object of a line, or None."""
    row = jsonl_parsed(line)
    return row if isinstance(row, dict) else None


def jsonl_id(row: dict[str, Any] | None, label: str, position: int) -> str:
    """A JSON line's id: its own ``"id"`` (a string or a number), else ``LABEL@OFFSET``."""
    own = row.get("id") if row is not None else None
    if isinstance(own, str) and own:
        return _clean(own)
    if isinstance(own, int) and not isinstance(own, bool):
        return str(own)
    return f"{label}@{position}"


def jsonl_item(line: bytes, position: int, label: str) -> Read:
    if not line:
        return "jsonl:too-long"
    row = jsonl_parsed(line)
    if isinstance(row, str) or not isinstance(row.get("html"), str):
        if row == "jsonl:bad-line" and not line.endswith(b"\n"):  # the last line, cut short
            return Damage("jsonl:truncated", label, position, f"the file ends inside the line at byte {position}")
        return row if isinstance(row, str) else "jsonl:bad-line"
    html, url = row["html"], row.get("url")
    clean = _clean(html)
    return Item(jsonl_id(row, label, position), data=clean.encode("utf-8"),
                url=_clean(url) if isinstance(url, str) else None, source=label,
                note="lone surrogates in the html replaced by U+FFFD" if clean is not html else "")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _clean(text: str) -> str:
    """``text`` without lone surrogates (valid JSON, ``"\\ud800"``, but no UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


# --- for tests and benchmarks ------------------------------------------------------

def warc_record(url: str, payload: bytes, *, record_type: str = "response", status: int = 200,
                content_type: str | None = "text/html; charset=utf-8", date: str = "2024-01-01T00:00:00Z",
                record_id: str | None = None, http_headers: tuple[str, ...] = (), compress: bool = True,
                identified_type: str | None = None) -> bytes:
    """One WARC/1.0 record, gzipped (a member of a ``.warc.gz``) unless ``compress`` is
    False: a response with its HTTP header (and ``http_headers`` lines), or another type
    with ``payload`` as its block; ``identified_type``: its ``WARC-Identified-Payload-Type``
    (as Common Crawl writes it).  For tests and benchmarks, which build WARC files from
    pages."""
    if record_type == "response":
        reason = {200: "OK", 404: "Not Found", 301: "Moved Permanently"}.get(status, "Status")
        head = f"HTTP/1.1 {status} {reason}\r\n"
        if content_type is not None:
            head += f"Content-Type: {content_type}\r\n"
        head += "".join(f"{line}\r\n" for line in http_headers)
        block = (head + f"Content-Length: {len(payload)}\r\n\r\n").encode("latin-1") + payload
        block_type = "application/http; msgtype=response"
    else:
        block, block_type = payload, "application/http; msgtype=request" if record_type == "request" else "text/plain"
    record_id = record_id or f"<urn:uuid:{hashlib.sha1(url.encode() + block).hexdigest()[:32]}>"
    header = (f"WARC/1.0\r\nWARC-Type: {record_type}\r\nWARC-Record-ID: {record_id}\r\nWARC-Date: {date}\r\n"
              f"WARC-Target-URI: {url}\r\nContent-Type: {block_type}\r\nContent-Length: {len(block)}\r\n")
    if identified_type:
        header += f"WARC-Identified-Payload-Type: {identified_type}\r\n"
    header += "\r\n"
    record = header.encode("utf-8") + block + b"\r\n\r\n"
    return gzip.compress(record, mtime=0) if compress else record
