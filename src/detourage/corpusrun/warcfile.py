"""The WARC scanner of corpus runs: the records of a ``.warc`` or ``.warc.gz`` file, and
its damaged spans, each an :class:`WarcEntry` with the file offset where a shard may start.

WARC files are scanned here, not with FastWARC's iterator: a damaged member or a bad
``Content-Length`` must not end the file, and FastWARC 2.0.1 stops silently after a record
with both ``Transfer-Encoding`` and ``Content-Encoding`` (build/notes/fastwarc-chunked-gzip.md).
A ``.warc.gz`` is read gzip member by member (zlib; each member's CRC and size are
checked); after damage the scan resynchronises on the next gzip member (``1f 8b 08``
that inflates to a ``WARC/`` line) or, inside the data, on the next record start: a
``WARC/1.x`` line followed by a header field, wherever it begins — a record cut short
and followed by appended ones (a crawler killed, then resumed into the same file) runs
into the next record with no line end before it.  A record whose block ends where its
length says, with its ``\r\n\r\n``, is whole even when garbage follows it (the garbage
is damage of its own), unless a record begins inside what its length took.
The damage an entry reports (its ``problem``) is one of the damage reasons of
:mod:`.readers`: ``warc:truncated``, ``warc:bad-length``, ``warc:damaged``.  Only as much
of a record's block is kept as the caller's :data:`Keep` asks for; the rest is read past.

    warc_entries(path, offset, keep) ─▶ WarcEntry (a record, or a damaged span) …
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

GZIP_MAGIC = b"\x1f\x8b\x08"
#: bytes read from a file at a time
READ_SIZE = 1 << 20
#: compressed bytes given to zlib at a time, counted from the member's start, so that
#: whoever reads a member (the planner, a worker) meets the same errors at the same place
FEED_SIZE = 64 << 10
#: most decompressed bytes produced at a time (a gzip bomb never unpacks further)
SLICE_SIZE = 1 << 20
#: a WARC header block longer than this is damage
HEADER_MAX = 64 << 10
_VERSION = re.compile(rb"WARC/(?:1\.[01]|0\.\d{1,2})\r?\n")
#: what the file ends with when it ends inside a version line
_VERSION_START = re.compile(rb"W(?:A(?:R(?:C(?:/(?:[01](?:\.\d{0,2}\r?)?)?)?)?)?)?")
_BLANK = b"\r\n"
#: what ends a record's block
_END = b"\r\n\r\n"
#: a record's start as a resynchronisation looks for it: a version line, then a header
#: field (or the end of the data)
_RECORD_START = re.compile(rb"WARC/(?:1\.[01]|0\.\d{1,2})\r?\n(?:[!-9;-~]{1,100}:|\Z)")
#: how many bytes from a ``WARC/`` :data:`_RECORD_START` looks at
_START_SIZE = 128
#: a header line that ends in a version line: the header was cut short, a record begins
_VERSION_END = re.compile(rb"WARC/(?:1\.[01]|0\.\d{1,2})\r?\n\Z")
_CONTENT_LENGTH = re.compile(rb"\ncontent-length:([^\r\n]*)", re.IGNORECASE)


class _Plain:
    """The bytes of an uncompressed WARC from an offset, read forward; its one "member"
    is the rest of the file, which can be sought back into (to resynchronise)."""

    compressed = False

    def __init__(self, handle: IO[bytes], offset: int) -> None:
        self.handle = handle
        self.member, self.members, self.status = offset, 1, "ok"
        #: (offset, size, reason) of bytes between gzip members that are none
        self.garbage: list[tuple[int, int, str]] = []
        self.rewind(offset)

    def rewind(self, offset: int) -> None:
        self.handle.seek(offset)
        self.base, self.data, self.pos, self.ended = offset, bytearray(), 0, False

    def where(self) -> int:
        """The file offset of the next unread byte."""
        return self.base + self.pos

    def fresh(self) -> bool:
        return True  # any record of a plain file can be read from its offset

    def unread(self) -> int:
        return len(self.data) - self.pos

    def fill(self, n: int) -> bool:
        """Whether ``n`` unread bytes are there (reading more if needed)."""
        while self.unread() < n and not self.ended:
            self._compact()
            self._more()
        return self.unread() >= n

    def _more(self) -> None:
        chunk = self.handle.read(READ_SIZE)
        if chunk:
            self.data += chunk
        else:
            self.ended = True

    def _compact(self) -> None:
        if self.pos > READ_SIZE:
            del self.data[:self.pos]
            self.base += self.pos
            self.pos = 0

    def drop(self, n: int, blank: bool = False) -> None:
        self.pos += n

    def back(self, n: int) -> None:
        """Step back over the last ``n`` bytes read (still in the buffer: it is only
        compacted while more is read)."""
        self.pos -= n

    def next_member(self) -> bool:
        return False


class _Gzip(_Plain):
    """The decompressed bytes of a ``.warc.gz`` from a member's offset, member by member.

    ``status`` tells how the current member ended: ``""`` (still inflating), ``ok``,
    ``bad-crc`` (its data inflated, but its checksum or size does not match),
    ``corrupt`` (its deflate data is broken), ``truncated`` (the file ends inside it),
    ``none`` (no member left)."""

    compressed = True

    def __init__(self, handle: IO[bytes], offset: int) -> None:
        self.handle = handle
        self.garbage = []
        self.members, self.status, self.is_fresh, self.end = 0, "none", False, 0
        self.data, self.pos, self.base, self.ended = bytearray(), 0, 0, True
        self._seek_raw(offset)
        if not self._open(offset):
            self._resync(offset)

    def _seek_raw(self, offset: int) -> None:
        self.handle.seek(offset)
        self.raw, self.raw_base, self.raw_ended = bytearray(), offset, False

    def _raw_at(self, offset: int, n: int) -> bytes:
        """Up to ``n`` compressed bytes from file offset ``offset`` (at or after the buffer's start)."""
        while self.raw_base + len(self.raw) < offset + n and not self.raw_ended:
            if offset - self.raw_base > READ_SIZE:
                del self.raw[:offset - self.raw_base]
                self.raw_base = offset
            chunk = self.handle.read(READ_SIZE)
            if chunk:
                self.raw += chunk
            else:
                self.raw_ended = True
        start = offset - self.raw_base
        return bytes(self.raw[start:start + n])

    def _open(self, offset: int) -> bool:
        """Start the member at ``offset``; False when no gzip member starts there."""
        head = self._raw_at(offset, 512)
        size = _gzip_header(head)
        if size is None and len(head) == 512:  # a long name or extra field
            size = _gzip_header(self._raw_at(offset, HEADER_MAX))
        if size is None:
            return False
        self.member, self.feed_at, self.members = offset, offset + size, self.members + 1
        self.inflate, self.crc, self.size = zlib.decompressobj(-zlib.MAX_WBITS), 0, 0
        self.status, self.ended, self.is_fresh = "", False, True
        self.data, self.pos, self.base = bytearray(), 0, 0
        return True

    def where(self) -> int:
        return self.member

    def fresh(self) -> bool:
        """Whether nothing but line ends was read from the current member yet."""
        return self.is_fresh

    def drop(self, n: int, blank: bool = False) -> None:
        self.pos += n
        self.is_fresh = self.is_fresh and (blank or n == 0)

    def _more(self) -> None:
        """Inflate the next slice of the member; at its end, check its trailer."""
        piece = self.inflate.unconsumed_tail
        if not piece:
            piece = self._raw_at(self.feed_at, FEED_SIZE)
            if not piece:
                self.status, self.ended = "truncated", True
                return
            self.feed_at += len(piece)
        before = self.inflate.copy()
        try:
            out = self.inflate.decompress(piece, SLICE_SIZE)
        except zlib.error:  # zlib gives nothing of a call that meets corrupt data: feed it again,
            out = _salvage(before, piece)  # a little at a time, for what comes before the damage
            self.status, self.ended = "corrupt", True
        self.data += out
        self.crc, self.size = zlib.crc32(out, self.crc), self.size + len(out)
        if self.inflate.eof and not self.ended:
            self._trailer(self.feed_at - len(self.inflate.unused_data))

    def _trailer(self, at: int) -> None:
        trailer = self._raw_at(at, 8)
        self.ended = True
        if len(trailer) < 8:
            self.status = "truncated"
            return
        crc, size = struct.unpack("<II", trailer)
        self.status = "ok" if (crc, size) == (self.crc, self.size & 0xFFFFFFFF) else "bad-crc"
        self.end = at + 8

    def next_member(self) -> bool:
        """Go on to the next member (noting the garbage skipped before it); False at the
        end of the file."""
        if self.status == "bad-crc" and self._swallowed():
            return True
        if self.status in ("ok", "bad-crc"):
            if not self._raw_at(self.end, 1):
                self.status = "none"
                return False
            return self._open(self.end) or self._resync(self.end)
        if self.status == "corrupt":  # where its data ends is unknown: not garbage of its own
            return self._resync(self.member + 1, report=False)
        self.status = "none"
        return False

    def _swallowed(self) -> bool:
        """Open the first member that begins inside the current one, whose checksum
        failed: cut short, its data ran on into the members written after it (a crawler
        killed, then resumed into the same file).  False when none does."""
        found = _find_member(self.handle, self.member + 1, self.end)
        if found is None:
            return False
        self.status, self.ended, self.data, self.pos = "none", True, bytearray(), 0
        self._seek_raw(found)
        return self._open(found)

    def _resync(self, start: int, report: bool = True) -> bool:
        """Open the next member from ``start`` that inflates to a WARC record; the bytes
        before it (unless only padding) are garbage."""
        found = _find_member(self.handle, start)
        end = found if found is not None else _file_size(self.handle)
        if report and end > start and not _padding(self.handle, start, end):
            self.handle.seek(start)
            cut = found is None and self.handle.read(3) == GZIP_MAGIC  # a member the file ends in
            self.garbage.append((start, end - start, "warc:truncated" if cut else "warc:damaged"))
        self.status, self.ended, self.data, self.pos = "none", True, bytearray(), 0
        if found is None:
            return False
        self._seek_raw(found)
        return self._open(found)


#: compressed bytes given to zlib at a time when salvaging what comes before corrupt data
SALVAGE_STEP = 256


def _salvage(inflate: zlib._Decompress, piece: bytes, step: int = SALVAGE_STEP) -> bytes:
    """What ``piece`` inflates to before the corrupt data in it (at most
    :data:`SLICE_SIZE`), fed ``step`` bytes at a time to ``inflate`` (a copy of the
    decompressor before the call that failed), the step that fails again byte by byte."""
    out = bytearray()
    for at in range(0, len(piece), step):
        before = inflate.copy() if step > 1 else inflate
        try:
            out += inflate.decompress(piece[at:at + step], SLICE_SIZE - len(out))
        except zlib.error:
            if step > 1:
                out += _salvage(before, piece[at:at + step], 1)[:SLICE_SIZE - len(out)]
            break
        if len(out) >= SLICE_SIZE or inflate.eof:  # (only then is some of the step left unconsumed)
            break
    return bytes(out)


def _gzip_header(head: bytes) -> int | None:
    """The size of the gzip member header at the start of ``head``, or None."""
    if len(head) < 10 or not head.startswith(GZIP_MAGIC) or head[3] & 0xE0:
        return None
    flags, at = head[3], 10
    if flags & 4:  # FEXTRA
        at += 2 + int.from_bytes(head[at:at + 2], "little")
    for bit in (8, 16):  # FNAME, FCOMMENT: zero-terminated
        if flags & bit:
            zero = head.find(b"\0", at)
            if zero < 0:
                return None
            at = zero + 1
    if flags & 2:  # FHCRC
        at += 2
    return at if at <= len(head) else None


def _find_member(handle: IO[bytes], start: int, stop: int | None = None) -> int | None:
    """The offset of the first gzip member at or after ``start`` (and before ``stop``)
    whose data begins with a ``WARC/`` line: a magic number alone is found by chance in
    compressed data."""
    at = start
    while stop is None or at < stop:
        handle.seek(at)
        block = handle.read(READ_SIZE if stop is None else min(READ_SIZE, stop - at + len(GZIP_MAGIC) - 1))
        if len(block) < len(GZIP_MAGIC):
            return None
        hit = block.find(GZIP_MAGIC)
        while hit >= 0:
            if _inflates_to_warc(handle, at + hit):
                return at + hit
            hit = block.find(GZIP_MAGIC, hit + 1)
        at += len(block) - len(GZIP_MAGIC) + 1
    return None


def _inflates_to_warc(handle: IO[bytes], offset: int) -> bool:
    handle.seek(offset)
    head = handle.read(HEADER_MAX + 4096)
    size = _gzip_header(head)
    if size is None:
        return False
    try:
        out = zlib.decompressobj(-zlib.MAX_WBITS).decompress(head[size:size + 4096], 64)
    except zlib.error:
        return False
    return out.lstrip(_BLANK).startswith(b"WARC/")


def _file_size(handle: IO[bytes]) -> int:
    return handle.seek(0, 2)


def _padding(handle: IO[bytes], start: int, end: int) -> bool:
    """Whether the bytes from ``start`` to ``end`` are only NULs and white space (some
    writers pad a file: no damage)."""
    if end - start > READ_SIZE:
        return False
    handle.seek(start)
    return not handle.read(end - start).strip(b"\0\r\n\t ")


def _stream(handle: IO[bytes], offset: int) -> _Plain:
    """The reader of a WARC file, by its first bytes (not its name): gzip or plain."""
    handle.seek(0)
    compressed = handle.read(3) == GZIP_MAGIC
    return _Gzip(handle, offset) if compressed else _Plain(handle, offset)


@dataclass(frozen=True, slots=True)
class WarcEntry:
    """What scanning a WARC file finds, in order: a record, or a damaged span
    (``problem`` set, ``header`` empty).  Every entry counts as one record of the run."""

    #: the file offset of the record: of its gzip member in a ``.warc.gz``
    offset: int
    #: the entries begun in the same gzip member before it (0 in a plain WARC)
    index: int
    #: whether reading the file from ``offset`` begins with this entry (a shard may start here)
    start: bool
    header: bytes = b""
    #: the first bytes of the record's block (as many as the reader asked for)
    block: bytes = b""
    #: the block's length, its Content-Length
    length: int = 0
    problem: str = ""
    message: str = ""


#: how many bytes of a record's block to keep: ``keep(header, None)`` says how many to
#: read first, ``keep(header, first_bytes)`` how many in all
Keep = Callable[[bytes, bytes | None], int]


def warc_entries(path: str, offset: int = 0, keep: Keep | None = None) -> Iterator[WarcEntry]:
    """The entries of a WARC file from ``offset`` (a gzip member or a record start)."""
    with open(path, "rb") as handle:
        yield from _Scan(_stream(handle, offset), keep or _keep_nothing).entries()


def _keep_nothing(header: bytes, first: bytes | None) -> int:
    return 0


class _Scan:
    """The WARC records of a stream, one :class:`WarcEntry` each, and its damaged spans.

    A record is yielded once the bytes after it are seen, so that the last record of a
    gzip member is marked when the member's checksum fails or the file ends inside it."""

    def __init__(self, stream: _Plain, keep: Keep) -> None:
        self.stream = stream
        self.keep = keep
        self.member, self.index = -1, 0
        #: the member whose bad end an entry has reported already
        self.reported = -1

    def entries(self) -> Iterator[WarcEntry]:
        stream = self.stream
        while True:
            yield from self._garbage()
            self._skip_blank()
            if stream.fill(1):
                entry = self._record()
                yield from self._garbage()
                yield self._checked(entry)
                continue
            end = self._member_end()
            if end is not None:
                yield end
            if not stream.next_member():
                yield from self._garbage()
                return

    def _begin(self) -> tuple[int, int, bool]:
        """(offset, index, start) of an entry that begins here."""
        stream = self.stream
        if not stream.compressed:
            return stream.where(), 0, True
        if stream.members != self.member:
            self.member, self.index = stream.members, 0
        self.index += 1
        return stream.member, self.index - 1, stream.fresh()

    def _garbage(self) -> Iterator[WarcEntry]:
        while self.stream.garbage:
            offset, size, reason = self.stream.garbage.pop(0)
            what = "a gzip member cut short by the end of the file" if reason == "warc:truncated" \
                else "no gzip member of a WARC record"
            yield WarcEntry(offset, 0, False, problem=reason, message=f"{size} bytes at byte {offset}: {what}")

    def _skip_blank(self) -> None:
        stream = self.stream
        while stream.fill(1):
            head = bytes(stream.data[stream.pos:stream.pos + 4096])
            blank = len(head) - len(head.lstrip(_BLANK))
            if blank == 0:
                return
            stream.drop(blank, blank=True)

    def _at(self) -> str:
        stream = self.stream
        if stream.compressed:
            return f"byte {stream.base + stream.pos} of the gzip member at byte {stream.member}"
        return f"byte {stream.where()}"

    def _member_problem(self) -> str:
        """The skip reason of a record cut by the end of its member (or of the file)."""
        stream = self.stream
        if not stream.compressed:
            return "warc:truncated"
        if stream.status in ("truncated", "corrupt", "bad-crc"):
            self.reported = stream.members
        return "warc:truncated" if stream.status == "truncated" else "warc:damaged"

    def _member_end(self) -> WarcEntry | None:
        """A damaged span for a member that ended badly after its last record."""
        stream = self.stream
        if stream.status not in ("truncated", "corrupt") or self.reported == stream.members:
            return None
        offset, index, _ = self._begin()
        what = "the file ends inside it" if stream.status == "truncated" else "its compressed data is corrupt"
        return WarcEntry(offset, index, False, problem="warc:truncated" if stream.status == "truncated"
                     else "warc:damaged", message=f"the gzip member at byte {stream.member}: {what}, "
                     f"after {stream.base + stream.pos} bytes")

    def _checked(self, entry: WarcEntry) -> WarcEntry:
        """The entry, marked when it is the last of a gzip member whose checksum fails or
        that the file ends in."""
        stream = self.stream
        if entry.problem == "warc:truncated" or not stream.compressed:
            return entry
        self._skip_blank()
        if stream.fill(1) or stream.status not in ("bad-crc", "truncated") or self.reported == stream.members:
            return entry  # corrupt data after the record: _member_end reports it
        self.reported = stream.members
        if stream.status == "bad-crc":  # which also explains a record found damaged
            return _marked(entry, "warc:damaged", f"the gzip member at byte {stream.member} fails its "
                           "checksum: its data cannot be trusted")
        return _marked(entry, "warc:truncated", f"the file ends inside the gzip member at byte {stream.member}, "
                       "after this record")

    def _record(self) -> WarcEntry:
        offset, index, start = self._begin()
        line = self._line(256)
        if not _VERSION.fullmatch(line):
            if not line.endswith(b"\n") and not self.stream.fill(1) and _VERSION_START.fullmatch(line):
                return WarcEntry(offset, index, False, problem=self._member_problem(),
                             message=f"a WARC header cut short at {self._at()}")
            self.stream.back(len(line))  # a record may begin inside the line
            skipped = self._skip_to_version()
            return WarcEntry(offset, index, False, problem="warc:damaged",
                         message=f"{skipped} bytes that are no WARC record at {self._at()}")
        header = bytearray(line)
        while not header.endswith((b"\r\n\r\n", b"\n\n")):
            line = self._line(HEADER_MAX - len(header))
            if not line.endswith(b"\n"):
                problem = self._member_problem() if not self.stream.fill(1) else "warc:damaged"
                return WarcEntry(offset, index, start, bytes(header), problem=problem,
                             message=f"a WARC header cut short or over {HEADER_MAX} bytes at {self._at()}")
            cut = _VERSION_END.search(line)
            if cut:  # the header was cut short, and another record written after it
                self.stream.back(cut.end() - cut.start())
                return WarcEntry(offset, index, start, bytes(header), problem="warc:damaged",
                                 message=f"a WARC header cut short by a record that begins at {self._at()}")
            header += line
        return self._block(offset, index, start, bytes(header))

    def _line(self, limit: int) -> bytes:
        """The next line (with its line end), at most ``limit`` bytes, within the member."""
        stream = self.stream
        seen = 0
        while True:
            end = stream.data.find(b"\n", stream.pos + seen, stream.pos + limit)
            if end >= 0:
                line = bytes(stream.data[stream.pos:end + 1])
                break
            seen = stream.unread()
            if seen >= limit or not stream.fill(seen + 1):
                line = bytes(stream.data[stream.pos:stream.pos + min(seen, limit)])
                break
        stream.drop(len(line))
        return line

    def _skip_to_version(self) -> int:
        """Skip to the next record start of the member (or its end): here a ``WARC/1.x``
        line, further on one followed by a header field (:data:`_RECORD_START`), wherever
        it begins; the bytes skipped."""
        stream = self.stream
        stream.fill(16)
        if _VERSION.match(stream.data, stream.pos):
            return 0
        skipped = 0
        while stream.fill(1):
            unread = bytes(stream.data[stream.pos:])
            hit = unread.find(b"WARC/")
            while hit >= 0:
                stream.fill(hit + _START_SIZE)
                if _RECORD_START.match(stream.data, stream.pos + hit, stream.pos + hit + _START_SIZE):
                    stream.drop(hit)
                    return skipped + hit
                hit = unread.find(b"WARC/", hit + 1)
            keep = min(len(unread), 4)  # a "WARC/" cut by the end of what is read so far
            stream.drop(len(unread) - keep)
            skipped += len(unread) - keep
            if not stream.fill(keep + 1):
                stream.drop(keep)
                return skipped + keep
        return skipped

    def _block(self, offset: int, index: int, start: bool, header: bytes) -> WarcEntry:
        stream = self.stream
        found = _CONTENT_LENGTH.search(header)
        text = found.group(1).strip().decode("latin-1") if found else ""
        if not text.isdigit():
            message = f"Content-Length {text[:20]!r} at {self._at()}"
            self._skip_to_version()
            return WarcEntry(offset, index, start, header, problem="warc:bad-length", message=message)
        length = int(text)
        block_at = stream.where() if not stream.compressed else 0
        block, problem, message = self._read_block(length, header, block_at)
        if not problem:
            problem, message = self._separator(length, block_at)
        return WarcEntry(offset, index, start, header, block, length, problem, message)

    def _read_block(self, length: int, header: bytes, block_at: int) -> tuple[bytes, str, str]:
        """The kept bytes of a block of ``length`` bytes (read across members when it spans
        them), and why it could not be read whole."""
        first = min(length, self.keep(header, None))
        kept, want, left, decided = bytearray(), first, length, first == 0
        while left:
            stream = self.stream
            if not stream.fill(1):
                stop = self._block_end(length, left, block_at)
                if stop is not None:
                    return bytes(kept), *stop
                continue
            n = min(left, stream.unread())
            if len(kept) < want:
                n = min(n, want - len(kept))
                kept += stream.data[stream.pos:stream.pos + n]
            stream.drop(n)
            left -= n
            if not decided and len(kept) >= first:
                want, decided = min(length, max(first, self.keep(header, bytes(kept)))), True
        return bytes(kept), "", ""

    def _block_end(self, length: int, left: int, block_at: int) -> tuple[str, str] | None:
        """Why a block stops where its member (or the file) ends, or None when the next
        member goes on with it."""
        stream = self.stream
        read, member = length - left, stream.member
        if not stream.compressed:
            return self._file_end(length, read, block_at)
        if stream.status != "ok":
            return self._member_problem(), f"{read} of the record's {length} bytes read when its gzip " \
                                           f"member ended ({stream.status}) at {self._at()}"
        if not stream.next_member():
            return "warc:truncated", f"the file ends {read} bytes into a record of {length} " \
                                     f"(gzip member at byte {member})"
        if stream.garbage or self._starts_record():
            return "warc:bad-length", f"Content-Length {length}, but the gzip member at byte {member} " \
                                      f"ends {read} bytes into the record"
        return None

    def _file_end(self, length: int, read: int, block_at: int) -> tuple[str, str]:
        """A plain file ending inside a block: a length past its end (when a record begins
        inside what it took), or a file cut short."""
        stream = self.stream
        stream.rewind(block_at)
        self._skip_to_version()
        if stream.fill(1):
            return "warc:bad-length", f"Content-Length {length} runs past the end of the file, but a " \
                                      f"record begins at byte {stream.where()}"
        return "warc:truncated", f"the file ends {read} bytes into a record of {length} at byte {block_at}"

    def _starts_record(self) -> bool:
        stream = self.stream
        stream.fill(64)
        return bytes(stream.data[stream.pos:stream.pos + 64]).lstrip(_BLANK).startswith(b"WARC/")

    def _separator(self, length: int, block_at: int) -> tuple[str, str]:
        """Check that the record ends where its length says: line ends, then the member's
        (or the file's) end or the next ``WARC/`` line.  A block followed by its
        ``\r\n\r\n`` and then by bytes that are no record is whole (the next entry reports
        those bytes) unless, in a plain file, a record begins inside it: then its length
        ran over a record written after it was cut short."""
        stream = self.stream
        stream.fill(len(_END))
        closed, after = bytes(stream.data[stream.pos:stream.pos + len(_END)]) == _END, stream.where()
        self._skip_blank()
        if not stream.fill(5) and not stream.unread() or bytes(stream.data[stream.pos:stream.pos + 5]) == b"WARC/":
            return "", ""
        message = f"Content-Length {length}, but no record boundary follows at {self._at()}"
        if stream.compressed:
            if not closed:
                self._skip_to_version()
            return ("", "") if closed else ("warc:bad-length", message)
        stream.rewind(block_at)  # the next record may begin inside what the length took
        self._skip_to_version()
        if closed and stream.where() >= block_at + length:
            stream.rewind(after)
            return "", ""
        return "warc:bad-length", message


def _marked(entry: WarcEntry, problem: str, message: str) -> WarcEntry:
    return WarcEntry(entry.offset, entry.index, entry.start, entry.header, entry.block, entry.length, problem, message)
