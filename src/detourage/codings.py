"""HTTP content codings (``Content-Encoding``: gzip, deflate, brotli) undone within a
byte limit: the one decoder of the web client (:mod:`detourage.web.client`) and of the
WARC reader (:mod:`detourage.corpusrun.http`), with one policy.

The policy:

- **bounded**: no coding ever produces more than ``limit + 1`` bytes, so a compression
  bomb stops at the limit (the decoded body is then ``over``: its first ``limit`` bytes
  are kept, and the caller decides: the web client refuses it as ``too-large``, a WARC
  reader keeps the cut);
- **gzip** (``x-gzip`` too): every member, one after the other (RFC 1952 allows
  several; ``cat a.gz b.gz`` makes one such body), bytes after the last member ignored;
- **deflate**: zlib-wrapped, as RFC 9110 says, or raw, as many servers send it;
- **br**: only with a brotli able to bound its output (the ``brotli`` package from 1.2,
  whose ``process`` takes ``output_buffer_limit``), read incrementally within the limit;
  an older one is refused (``broken``, saying why) rather than unpacked unbounded, and
  :func:`accept_encoding` does not offer ``br`` then;
- ``identity``: nothing to undo; several codings (``gzip, br``) are undone last first;
- a coding not listed here is left as it is (``unknown``); a coding that fails
  (``broken``: not that format, corrupt) leaves the data as it was before it; a stream
  that ends before its end (``cut``) gives what it decoded.

Imports nothing of detourage: it sits on the ground floor.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import cache
from typing import Any

#: the outcomes of :func:`decode`, worst last
OK, CUT, OVER, UNKNOWN, BROKEN = "ok", "cut", "over", "unknown", "broken"


@dataclass(frozen=True, slots=True)
class Unpacked:
    """A body with its codings undone: at most ``limit`` bytes, and how it went."""

    data: bytes
    #: ``ok``; ``over`` (decodes past the limit: ``data`` is its first ``limit`` bytes);
    #: ``cut`` (a stream ended early: what it gave); ``unknown`` (a coding left as it is);
    #: ``broken`` (a coding could not be undone: ``data`` as it was before that coding)
    state: str = OK
    #: why the state is not ``ok``, for a message
    note: str = ""


def decode(data: bytes, codings: str, limit: int) -> Unpacked:
    """``data`` with the content codings of a ``Content-Encoding`` value undone (the last
    applied first), never more than ``limit`` bytes (see the module docstring)."""
    names = [c.strip().lower() for c in codings.split(",") if c.strip()]
    state, note = OK, ""
    for name in reversed(names):
        out, step, why = undo(name, data, limit)
        if step in (BROKEN, UNKNOWN):
            return Unpacked(bytes(data[:limit]), step, why)
        data = out
        if step == OVER:
            return Unpacked(bytes(data[:limit]), OVER, why)
        if step == CUT:
            state, note = CUT, why
    return Unpacked(bytes(data[:limit]), OVER if len(data) > limit else state,
                   f"over {limit} bytes" if len(data) > limit else note)


def undo(coding: str, data: bytes, limit: int) -> tuple[bytes, str, str]:
    """(data, state, note) of one coding undone within ``limit + 1`` bytes."""
    if coding in ("identity", "none", ""):
        return data, OK, ""
    if coding in ("gzip", "x-gzip"):
        if not data.startswith(b"\x1f\x8b"):
            return data, BROKEN, f"Content-Encoding {coding}, but the body is not gzip"
        return _inflate(data, 16 + zlib.MAX_WBITS, coding, limit)
    if coding == "deflate":  # zlib-wrapped as the standard says, or raw as many servers send
        out, state, note = _inflate(data, zlib.MAX_WBITS, coding, limit)
        return (out, state, note) if state != BROKEN else _inflate(data, -zlib.MAX_WBITS, coding, limit)
    if coding == "br":
        return _unbrotli(data, limit)
    return data, UNKNOWN, f"unknown coding {coding[:30]!r}: left as it is"


def _inflate(data: bytes, wbits: int, coding: str, limit: int) -> tuple[bytes, str, str]:
    """zlib, raw deflate or gzip data (every gzip member) inflated to at most ``limit + 1``
    bytes."""
    out, rest = bytearray(), data
    try:
        while rest and len(out) <= limit:
            inflate = zlib.decompressobj(wbits)
            out += inflate.decompress(rest, limit + 1 - len(out))
            if len(out) > limit:
                return bytes(out), OVER, f"{coding}: decodes past {limit} bytes"
            if not inflate.eof:
                return bytes(out), CUT, f"{coding} body cut short"
            rest = inflate.unused_data if inflate.unused_data.startswith(b"\x1f\x8b") and wbits > 15 else b""
    except zlib.error:
        if not out:
            return data, BROKEN, f"Content-Encoding {coding}, but the body does not inflate"
        return bytes(out), CUT, f"{coding} body broken after {len(out)} bytes: the part before kept"
    return bytes(out), OK, ""


@cache
def bounded_brotli() -> Any:
    """The ``brotli`` module when it can bound its output, else None."""
    try:
        import brotli
    except ImportError:
        return None
    try:
        brotli.Decompressor().process(b"", output_buffer_limit=1)
    except TypeError:  # before 1.2: process() cannot stop at a size
        return None
    return brotli


def brotli_refusal() -> str:
    """Why ``br`` cannot be undone here (empty when it can)."""
    if bounded_brotli() is not None:
        return ""
    try:
        import brotli  # noqa: F401 - imported only to see whether it is installed
    except ImportError:
        return "Content-Encoding br, but brotli is not installed (pip install 'brotli>=1.2')"
    return "Content-Encoding br, but the installed brotli cannot bound its output (1.2 or later needed)"


def _unbrotli(data: bytes, limit: int) -> tuple[bytes, str, str]:
    brotli = bounded_brotli()
    if brotli is None:
        return data, BROKEN, brotli_refusal()
    decompressor = brotli.Decompressor()
    try:
        out = bytearray(decompressor.process(data, output_buffer_limit=limit + 1))
        while len(out) <= limit and not decompressor.can_accept_more_data():
            more = decompressor.process(b"", output_buffer_limit=limit + 1 - len(out))
            if not more:
                break
            out += more
    except brotli.error:
        return data, BROKEN, "Content-Encoding br, but the body is not brotli"
    if len(out) > limit:
        return bytes(out), OVER, f"br: decodes past {limit} bytes"
    if not decompressor.is_finished():  # nothing at all: no brotli stream (plain text can pass for a prefix)
        return (bytes(out), CUT, "br body cut short") if out else (data, BROKEN, "Content-Encoding br, but "
                                                                   "the body is not brotli")
    return bytes(out), OK, ""


def accept_encoding() -> str:
    """The ``Accept-Encoding`` a client may send: the codings :func:`decode` undoes."""
    return "gzip, deflate, br" if bounded_brotli() is not None else "gzip, deflate"
