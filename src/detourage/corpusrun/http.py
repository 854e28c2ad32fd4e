"""HTTP responses as a WARC record holds them: the status and header fields, and the
body with its codings undone (chunked framing here; gzip, deflate and brotli by
:mod:`detourage.codings`, the decoder the web client uses too, with its policy), its
output bounded by the page size limit so that a compression bomb never unpacks further.  A coding that
cannot be undone (a false ``Content-Encoding: gzip`` on a plain page, broken chunk
framing) leaves the body as it was sent from there on, with a note saying so (the row's
``message``).
"""

from __future__ import annotations

import re

from ..codings import BROKEN, CUT, UNKNOWN, decode

#: an HTTP response header longer than this cannot be read
HEAD_MAX = 64 << 10


def response_head(block: bytes) -> tuple[int, dict[str, str], int] | None:
    """(status, header fields, header size) of an HTTP response block, or None when its
    header cannot be read."""
    end = block.find(b"\r\n\r\n", 0, HEAD_MAX)
    size = end + 4
    if end < 0:
        end = block.find(b"\n\n", 0, HEAD_MAX)
        size = end + 2
    if end < 0:
        return None
    head = block[:end].decode("latin-1")
    parts = head.split(None, 2)
    if len(parts) < 2 or not parts[0].upper().startswith("HTTP/") or not parts[1].isdigit():
        return None
    return int(parts[1]), header_fields(block[:end + 2]), size


def media_type(fields: dict[str, str]) -> str:
    """The media type of a response, from its header fields (``text/html``), in lower case."""
    return fields.get("content-type", "").partition(";")[0].strip().lower()


def header_fields(header: bytes) -> dict[str, str]:
    """The fields of an HTTP header block, or of a WARC one (the same grammar): the lines
    after the first, names in lower case (the first of a repeated name)."""
    fields: dict[str, str] = {}
    for line in header.split(b"\n")[1:]:
        name, sep, value = line.partition(b":")
        if sep:
            key = name.strip().lower().decode("latin-1")
            if key not in fields:
                fields[key] = value.strip().decode("utf-8", "replace")
    return fields


def http_body(raw: bytes, transfer: str, content: str, limit: int) -> tuple[bytes, str]:
    """The body of an HTTP response with its transfer and content codings undone, at most
    ``limit`` bytes, and a note when a coding could not be undone: the body is then read
    from there on as it was sent (a false ``Content-Encoding: gzip`` on a plain page)."""
    codings = [c.strip().lower() for c in transfer.split(",") if c.strip()]
    data, note = raw, ""
    if "chunked" in codings:
        data, note = _dechunk(data)
        codings.remove("chunked")
    # the content codings were applied first, the transfer codings over them
    decoded = decode(data, ", ".join([content, *codings]), limit)
    if decoded.state in (BROKEN, UNKNOWN):
        note = note or f"{decoded.note}: read as is"
    elif decoded.state == CUT:
        note = note or decoded.note
    return decoded.data, note  # over the limit: its first bytes (refused later as limit:bytes)


def _dechunk(data: bytes) -> tuple[bytes, str]:
    """The chunks of a chunked body; a broken framing keeps the chunks before it and the
    rest as it is."""
    out, at = bytearray(), 0
    while True:
        eol = data.find(b"\n", at, at + 1024)
        size = _chunk_size(data[at:eol]) if eol >= 0 else None
        if size is None:
            if at == 0:
                return data, "Transfer-Encoding chunked, but the body is not chunked: read as is"
            if at >= len(data):
                return bytes(out), ""  # a body cut after a chunk: crawlers often store it so
            return bytes(out) + data[at:], f"broken chunk framing at byte {at}: the rest read as is"
        at = eol + 1
        if size == 0:
            return bytes(out), ""
        out += data[at:at + size]
        at += size
        if at > len(data):
            return bytes(out), "chunked body cut short"
        ending = 2 if data.startswith(b"\r\n", at) else 1 if data.startswith(b"\n", at) else 0
        if not ending and at < len(data):
            return bytes(out) + data[at:], f"broken chunk framing at byte {at}: the rest read as is"
        at += ending


_HEX = re.compile(rb"[0-9a-fA-F]{1,16}")


def _chunk_size(line: bytes) -> int | None:
    text = line.split(b";", 1)[0].strip()
    return int(text, 16) if _HEX.fullmatch(text) else None
