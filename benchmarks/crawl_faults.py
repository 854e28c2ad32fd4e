"""Crawl faults (issue 31): can a crawl be trusted to detourage?

Every input of issue 31 is generated in a temporary folder (``--keep DIR`` keeps it, with
every output) and run from outside, as a subprocess, so that a page that hangs or blows up
is measured, not suffered: each run is killed (its whole process tree) at a hard cap — the
page's ``--timeout`` plus ``--cap-margin`` seconds — or when its processes hold more than
``MEMORY_CAP_MIB`` together.  Peak RSS is that of the largest process of the run: polled
with psutil every 0.1 s and, for a run that ends, the ``ru_maxrss`` of its process tree
(read by a tiny launcher, so that this process's own RSS is not counted).

Roads:

- ``cli``: ``detourage extract PAGE -o OUT.jsonl --timeout 5`` (``-m``, ``-f`` as the
  issue says); the page's seconds are the run's wall time less the CLI's start-up, measured
  once per method and format on a tiny page;
- ``library``: ``detourage.extract(bytes, ..., timeout=5)`` in a subprocess, timed around
  the call;
- ``corpus-local`` and ``corpus-dask``: ``detourage extract INPUT -o RUN --to jsonl
  --timeout 5`` with ``-w 2`` or ``--dask local:2``; RUN/summary.json gives ``records =
  rows + skipped``, the shard files give the rows (url, id, error, ms);
- ``evaluate``: ``detourage evaluate`` on a dataset folder holding the gzip bomb;
- ``kill``: a corpus run whose driver is killed with SIGKILL: no process may be left 3 s
  later, and ``--resume`` must then account for every record once;
- ``fetch`` (issue 44): ``detourage fetch`` against a hostile site on the loopback
  (``tests/fetch_server.py``): redirects off the crawl's host and port, ``//host``,
  userinfo, ``javascript:`` and malformed ``Location``, loops and chains, a private
  address without ``--allow-private``, a valid sitemap of 50 000 URLs (20 MB, gzipped),
  a gzipped sitemap past 50 MiB, a JSON feed nested 100 000 deep, a slow drip, an endless
  body and a gzip bomb: each URL's logged outcome must be the documented one, and no
  request may reach what the policy refuses (:func:`_web_cases`).

Inputs (sizes scaled by ``--scale``; ``--quick`` is ``--scale 0.05``):

- pages: a ``<p>`` with 80 000 and with 500 000 attributes; ``class="x…"`` (100 000
  characters) around 5 000 ``<b>1</b>`` (``-f json``); 20 000 spaces in ``<meta
  name=author>`` and in a JSON-LD author (``-f json``); 20 KB of ``.`` (``-m eatiht``) and
  of ``_`` (``-m boilerpipe``); 192 KB of ``<html ``; 2.3 MB of ``<span>``s in one
  paragraph (``-f json``); a 4 MB ``<pre>`` of 2 million lines (default and ``-m
  fulltext``); 400 000 table cells; a ``.html.gz`` of 2 GiB of spaces (also through
  ``evaluate``); a PDF-like and a PNG-like file (the library must raise ``NotHTML``); a
  page declared UTF-8 with about 100 invalid sequences in 17 KB of French ("café" must
  come out right); ``a.html``, ``a.html.gz`` and ``a.htm`` in one folder (three outputs);
- corpus inputs: 71-record WARCs whose 11th record lies about its HTTP coding (``gzip`` on
  a plain body, broken chunk framing, a false ``br``, a false ``chunked``) or is a valid
  ``chunked`` + ``gzip`` record; a ``.warc.gz`` cut in the middle of a record; a folder
  of good WARCs beside damaged ones (bad gzip CRC, corrupt gzip member, garbage between
  members, ``Content-Length`` off by +5 000 and -5 000, negative), each damaged one also
  alone; a WARC gzipped whole; JSON lines with a lone surrogate in line 5 and with
  duplicate ids; every page above in one folder, beside three good pages.

A row's verdict is ``ok`` when the run ended before its cap, each page within its timeout
+ 2 s, the largest process under ``MEMORY_BOUND_MIB`` (every page here is at most 5 MB),
``records = rows + skipped`` with the input's true record count, every good record planted
an ok row (by URL) and no truncated record an ok row, ids unique, and the exit status the
documented one (:data:`EXIT`).  ``Verdict: PASS`` when every row is ok.

    python benchmarks/crawl_faults.py [--quick] [--only PATTERN…] [--keep DIR] [--json PATH]
"""

from __future__ import annotations

import argparse
import fnmatch
import gzip
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil

from detourage.cli.extract import NO_TEXT

# --- what is expected: adjust here when the documented behaviour changes ------------------

PAGE_TIMEOUT = 5.0  # --timeout of every row (issue 31)
TIME_SLACK = 2.0  # a page must end within its timeout + this
CAP_MARGIN = 30.0  # a run is killed this many seconds past its timeout (plus its start-up)
MEMORY_BOUND_MIB = 1024  # issue 31: a page of at most 5 MB stays under 1 GB peak RSS
MEMORY_CAP_MIB = 4096  # a run whose processes hold more than this together is killed
#: exit statuses as documented: README "Never stops on a bad page" (1 when no page
#: succeeded), corpusrun/readers.py (3 when a corpus run's input is damaged),
#: docs/command-line.md (4 when every page was read and none has main content)
EXIT = {"page-ok": 0, "page-empty": NO_TEXT, "page-failed": 1, "run-clean": 0, "run-damaged": 3, "evaluate": 0}
WORKERS = 2  # -w of the local pool and N of --dask local:N
SHARD_SIZE = 10  # --shard-size of the kill row, so that the run has shards in flight
TRACEBACK = "Traceback (most recent call last)"


@dataclass(frozen=True)
class Sizes:
    """The sizes of the generated inputs: issue 31's by default."""

    attrs: int = 80_000
    attrs_big: int = 500_000
    class_chars: int = 100_000
    class_bolds: int = 5_000
    author_spaces: int = 20_000
    dots: int = 20_000
    html_repeat_bytes: int = 192_000
    span_bytes: int = 2_300_000
    pre_lines: int = 2_000_000
    table_cells: int = 400_000
    bomb_mib: int = 2048
    utf8_bytes: int = 17_000
    utf8_bad: int = 100
    warc_records: int = 71
    folder_records: int = 21
    jsonl_lines: int = 20

    def scaled(self, factor: float) -> Sizes:
        """Every page size times ``factor``; the record counts stay (they are cheap).  The
        bomb stays above the default --max-bytes (16 MiB) so that it is still one."""
        fixed = {"warc_records", "folder_records", "jsonl_lines", "utf8_bad"}
        values = {k: v if k in fixed else max(int(v * factor), 1) for k, v in asdict(self).items()}
        values["bomb_mib"] = max(values["bomb_mib"], 32)
        values["utf8_bytes"] = max(values["utf8_bytes"], 4_000)
        return Sizes(**values)


# --- generated pages -----------------------------------------------------------------------

WORDS = ("le café du matin était prêt près de la forêt où les élèves lisaient un journal sur "
         "la table une réunion publique a eu lieu hier soir dans la salle municipale avec le maire "
         "et plusieurs habitants du quartier qui ont posé des questions précises").split()
GOOD_SENTENCE = "Le café était déjà prêt à l'été, près de la forêt où naïve Zoë lisait."


def prose(rng: random.Random, words: int) -> str:
    """Sentences of French words: text every method keeps, not too compressible."""
    out = []
    for start in range(0, words, 12):
        sentence = " ".join(rng.choice(WORDS) for _ in range(min(12, words - start)))
        out.append(sentence[:1].upper() + sentence[1:] + ".")
    return " ".join(out)


def article(title: str, body: str, head: str = "") -> bytes:
    """A small well-formed article page."""
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title>{head}</head>'
            f"<body><article><h1>{title}</h1>{body}</article></body></html>").encode()


def good_page(seed: int, paragraphs: int = 8) -> bytes:
    """A good article of about 1 KB per paragraph."""
    rng = random.Random(seed)
    return article(f"Article {seed}", "".join(f"<p>{prose(rng, 140)}</p>" for _ in range(paragraphs)))


def many_attributes(count: int) -> bytes:
    attrs = "".join(f" a{i}=x" for i in range(count))
    return f"<html><body><p{attrs}>Text after many attributes.</p></body></html>".encode()


def class_markers(chars: int, bolds: int) -> bytes:
    """One long class name around many short digit runs: the date markers' scan."""
    return (f'<html><body><div class="{"x" * chars}">' + "<b>1</b>" * bolds + "</div></body></html>").encode()


def author_meta(spaces: int) -> bytes:
    return article("Author", f"<p>{GOOD_SENTENCE}</p>" * 5,
                   head=f'<meta name="author" content="Ana{" " * spaces}Lima">')


def author_jsonld(spaces: int) -> bytes:
    data = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle",
                       "author": "Ana" + " " * spaces + "Lima"})
    return article("Author", f"<p>{GOOD_SENTENCE}</p>" * 5,
                   head=f'<script type="application/ld+json">{data}</script>')


def one_paragraph(fill: str, count: int) -> bytes:
    return f"<html><body><p>{fill * count}</p></body></html>".encode()


def spans(total: int) -> bytes:
    unit = "<span>mot</span> "
    return f"<html><body><p>{unit * (total // len(unit))}</p></body></html>".encode()


def pre_lines(lines: int) -> bytes:
    return b"<html><body><pre>" + b"x\n" * lines + b"</pre></body></html>"


def table_cells(cells: int, per_row: int = 20) -> bytes:
    row = "<tr>" + "<td>1</td>" * per_row + "</tr>"
    return f"<html><body><table>{row * max(cells // per_row, 1)}</table></body></html>".encode()


def pdf_like(rng: random.Random) -> bytes:
    return (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Length 49152 /Filter /FlateDecode >>\nstream\n"
            + rng.randbytes(49_152) + b"\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")


def png_like(rng: random.Random) -> bytes:
    header = struct.pack(">IIBBBBB", 640, 480, 8, 2, 0, 0, 0)
    ihdr = struct.pack(">I", len(header)) + b"IHDR" + header + struct.pack(">I", zlib.crc32(b"IHDR" + header))
    return b"\x89PNG\r\n\x1a\n" + ihdr + struct.pack(">I", 49_152) + b"IDAT" + rng.randbytes(49_152)


#: invalid UTF-8: CESU-8 emoji (a surrogate pair in two 3-byte forms), WTF-8 lone surrogates,
#: 5-byte forms
BAD_UTF8 = (b"\xed\xa0\xbd\xed\xb8\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf8\x88\x80\x80\x80")


def bad_utf8(size: int, bad: int) -> bytes:
    """Good French UTF-8 declared UTF-8, with ``bad`` invalid sequences spread in it."""
    rng = random.Random(15)
    paragraphs, length = [], 0
    while length < size:
        text = f"{GOOD_SENTENCE} {prose(rng, 40)}".encode()
        paragraphs.append(text)
        length += len(text) + 7
    cut = [bytearray(p) for p in paragraphs]
    for n in range(bad):
        p = cut[n % len(cut)]
        p[len(p) // 2:len(p) // 2] = BAD_UTF8[n % len(BAD_UTF8)]  # between two words' bytes
    body = b"".join(b"<p>" + bytes(p) + b"</p>" for p in cut)
    return (b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Caf\xc3\xa9</title></head><body>'
            b"<article>" + body + b"</article></body></html>")


def write_spaces_bomb(path: Path, mebibytes: int) -> None:
    """A ``.html.gz`` of ``mebibytes`` MiB of spaces after a page's first tags, one gzip
    member, written without holding it: a block of 16 MiB of spaces is compressed once and
    repeated (a full flush resets deflate's state, so every block compresses the same)."""
    head = b"<html><body><p>"
    block_size = 16 << 20
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = packer.compress(head) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(b" " * block_size) + packer.flush(zlib.Z_FULL_FLUSH)
    crc, blocks = zlib.crc32(head), max(mebibytes * (1 << 20) // block_size, 1)
    spaces = b" " * block_size
    for _ in range(blocks):
        crc = zlib.crc32(spaces, crc)
    size = len(head) + blocks * block_size
    with open(path, "wb") as out:
        out.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + first)
        for _ in range(blocks):
            out.write(block)
        out.write(packer.flush(zlib.Z_FINISH) + struct.pack("<II", crc, size & 0xFFFFFFFF))


@dataclass(frozen=True)
class PageSpec:
    """A hostile page and how it must end: ``ok``; ``bounded`` (ok, or an error ``limit:*``);
    ``not-html`` (refused: the CLI's ``not-html``, the library's ``NotHTML``)."""

    name: str
    filename: str
    make: Callable[[Sizes], bytes] | None
    method: str = "default"
    format: str = "txt"
    must: str = "bounded"
    contains: str | None = None
    absent: str | None = None
    library: bool = True


def page_specs() -> list[PageSpec]:
    """Issue 31's pages, in its order (items 1, 3, 4, 5, 14, 15)."""
    rng = random.Random
    return [
        PageSpec("attrs-80k", "attrs-80k.html", lambda s: many_attributes(s.attrs)),
        PageSpec("attrs-500k", "attrs-500k.html", lambda s: many_attributes(s.attrs_big)),
        PageSpec("class-markers", "class-markers.html", lambda s: class_markers(s.class_chars, s.class_bolds),
                 format="json", must="ok"),
        PageSpec("author-meta", "author-meta.html", lambda s: author_meta(s.author_spaces), format="json", must="ok"),
        PageSpec("author-jsonld", "author-jsonld.html", lambda s: author_jsonld(s.author_spaces), format="json",
                 must="ok"),
        PageSpec("eatiht-dots", "eatiht-dots.html", lambda s: one_paragraph(".", s.dots), method="eatiht",
                 must="ok"),
        PageSpec("boilerpipe-underscores", "boilerpipe-underscores.html", lambda s: one_paragraph("_", s.dots),
                 method="boilerpipe", must="ok"),
        PageSpec("html-repeat", "html-repeat.html", lambda s: b"<html " * (s.html_repeat_bytes // 6), must="ok"),
        PageSpec("spans-json", "spans-json.html", lambda s: spans(s.span_bytes), format="json", must="ok"),
        PageSpec("pre-lines", "pre-lines.html", lambda s: pre_lines(s.pre_lines)),
        PageSpec("pre-lines-fulltext", "pre-lines.html", lambda s: pre_lines(s.pre_lines), method="fulltext"),
        PageSpec("table-cells", "table-cells.html", lambda s: table_cells(s.table_cells)),
        PageSpec("spaces-bomb", "spaces-bomb.html.gz", None, library=False),
        PageSpec("pdf-like", "pdf-like.pdf", lambda s: pdf_like(rng(14)), must="not-html"),
        PageSpec("png-like", "png-like.png", lambda s: png_like(rng(14)), must="not-html"),
        PageSpec("bad-utf8", "bad-utf8.html", lambda s: bad_utf8(s.utf8_bytes, s.utf8_bad), must="ok",
                 contains="café", absent="cafÃ©"),
    ]


# --- generated crawls ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Expect:
    """What a corpus run of an input must give."""

    #: the true record count (a damaged span may count as one record more: the values allowed)
    records: tuple[int, ...]
    #: URLs (or file names) of the good records: each must be an ok row
    good: frozenset[str]
    #: records that must not be ok rows (one cut short)
    bad: frozenset[str] = frozenset()
    #: the input itself is damaged: the run must say so (EXIT["run-damaged"])
    damaged: bool = False


def url(case: str, n: int) -> str:
    return f"http://{case}.example/page/{n}"


def http_response(body: bytes, *headers: str, status: str = "200 OK",
                  content_type: str | None = "text/html; charset=utf-8") -> bytes:
    head = f"HTTP/1.1 {status}\r\n" + (f"Content-Type: {content_type}\r\n" if content_type else "")
    return (head + "".join(h + "\r\n" for h in headers) + "\r\n").encode("latin-1") + body


def warc_raw(target: str, block: bytes, *, length: int | None = None, record_type: str = "response") -> bytes:
    """One uncompressed WARC/1.0 record; ``length`` overrides its true Content-Length."""
    kind = {"response": "application/http; msgtype=response",
            "request": "application/http; msgtype=request"}[record_type]
    header = (f"WARC/1.0\r\nWARC-Type: {record_type}\r\n"
              f"WARC-Record-ID: <urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, target + record_type)}>\r\n"
              f"WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: {target}\r\nContent-Type: {kind}\r\n"
              f"Content-Length: {len(block) if length is None else length}\r\n\r\n")
    return header.encode("utf-8") + block + b"\r\n\r\n"


def good_member(target: str, body: bytes) -> bytes:
    """A good record, gzipped, as the project's own helper writes it (when it is there)."""
    try:
        from detourage.corpusrun.readers import warc_record
    except ImportError:
        return gzip.compress(warc_raw(target, http_response(body, f"Content-Length: {len(body)}")), mtime=0)
    return warc_record(target, body)


def member(raw: bytes) -> bytes:
    return gzip.compress(raw, mtime=0)


def chunked(data: bytes, size: int = 1000) -> bytes:
    pieces = [data[i:i + size] for i in range(0, len(data), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"


#: HTTP bodies that lie about their coding (issue 31 item 6) and a valid one (item 7)
LIES: dict[str, Callable[[bytes], bytes]] = {
    "gzip-on-plain": lambda body: http_response(body, f"Content-Length: {len(body)}", "Content-Encoding: gzip"),
    "chunks-broken": lambda body: http_response(b"%x\r\n" % 1000 + body[:1000] + b"\r\nzz\r\n" + body[1000:]
                                                + b"\r\n0\r\n\r\n", "Transfer-Encoding: chunked"),
    "br-false": lambda body: http_response(body, f"Content-Length: {len(body)}", "Content-Encoding: br"),
    "chunked-false": lambda body: http_response(body, "Transfer-Encoding: chunked"),
    "chunked-gzip-valid": lambda body: http_response(chunked(gzip.compress(body, mtime=0)),
                                                     "Transfer-Encoding: chunked", "Content-Encoding: gzip"),
}
SPECIAL_AT = 10  # the record after which issue 31 saw every other record lost (the 11th)


def standard_members(case: str, count: int) -> tuple[list[bytes], set[str]]:
    """``count`` gzipped records: HTML pages, with a request (20th), a 404 (30th) and an
    image (40th) among them; and the URLs of the pages."""
    members, pages = [], set()
    for n in range(count):
        target = url(case, n)
        if n == 20:
            members.append(member(warc_raw(target, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", record_type="request")))
        elif n == 30:
            members.append(member(warc_raw(target, http_response(b"<html>gone</html>", status="404 Not Found"))))
        elif n == 40:
            members.append(member(warc_raw(target, http_response(b"\x89PNG....", content_type="image/png"))))
        else:
            members.append(good_member(target, good_page(n)))
            pages.add(target)
    return members, pages


def lie_warc(folder: Path, kind: str, sizes: Sizes) -> tuple[Path, Expect]:
    """71 records, the 11th (and, for the valid kind, the 51st) with this HTTP coding."""
    count = sizes.warc_records
    members, pages = standard_members(kind, count)
    specials = [SPECIAL_AT] + ([50] if kind == "chunked-gzip-valid" and count > 50 else [])
    for n in specials:
        members[n] = member(warc_raw(url(kind, n), LIES[kind](good_page(n))))
        if kind != "chunked-gzip-valid":
            pages.discard(url(kind, n))  # a lie: it may fail, only alone
    path = folder / f"{kind}.warc.gz"
    path.write_bytes(b"".join(members))
    return path, Expect((count,), frozenset(pages))


def truncated_warc(folder: Path, sizes: Sizes) -> tuple[Path, Expect]:
    """A .warc.gz cut in the middle of its 31st record's gzip member."""
    members, _ = standard_members("truncated", sizes.warc_records)
    cut = min(30, len(members) - 1)
    data = b"".join(members[:cut]) + members[cut][:len(members[cut]) // 2]
    path = folder / "truncated.warc.gz"
    path.write_bytes(data)
    before = {url("truncated", n) for n in range(cut) if n not in (20, 30, 40)}
    return path, Expect((cut + 1,), frozenset(before), bad=frozenset({url("truncated", cut)}), damaged=True)


def whole_gzip_warc(folder: Path, sizes: Sizes) -> tuple[Path, Expect]:
    """A WARC gzipped as one member: offsets into it collide unless ids are made unique."""
    members, pages = standard_members("whole", sizes.warc_records)
    path = folder / "whole.warc.gz"
    path.write_bytes(gzip.compress(b"".join(gzip.decompress(m) for m in members), mtime=0))
    return path, Expect((len(members),), frozenset(pages))


def _damage(kind: str, case: str, n: int, rng: random.Random) -> bytes:
    """The damaged record ``n`` of a damaged WARC (issue 31 item 9)."""
    target, body = url(case, n), good_page(n)
    block = http_response(body, f"Content-Length: {len(body)}")
    if kind == "bad-crc":
        data = good_member(target, body)
        return data[:-8] + bytes(b ^ 0xFF for b in data[-8:-4]) + data[-4:]
    if kind == "corrupt-member":
        data = bytearray(good_member(target, body))
        data[len(data) // 2:len(data) // 2 + 64] = rng.randbytes(64)
        return bytes(data)
    if kind == "garbage-between":
        return good_member(target, body) + rng.randbytes(1000)
    length = {"length-plus-5000": len(block) + 5000, "length-minus-5000": len(block) - 5000,
              "length-negative": -1}[kind]
    return member(warc_raw(target, block, length=length))


DAMAGES = ("bad-crc", "corrupt-member", "garbage-between", "length-plus-5000", "length-minus-5000",
           "length-negative")


def damaged_warc(folder: Path, kind: str, sizes: Sizes) -> tuple[Path, Expect]:
    """``folder_records`` good records, the 11th damaged; the ones after it must be read."""
    count = sizes.folder_records
    at = min(SPECIAL_AT, count // 2)
    folder.mkdir(parents=True, exist_ok=True)
    members = [good_member(url(kind, n), good_page(n)) for n in range(count)]
    members[at] = _damage(kind, kind, at, random.Random(9))
    path = folder / f"{kind}.warc.gz"
    path.write_bytes(b"".join(members))
    good = {url(kind, n) for n in range(count) if n != at or kind == "garbage-between"}
    return path, Expect((count, count + 1), frozenset(good), damaged=True)


def warc_folder(folder: Path, sizes: Sizes) -> tuple[Path, Expect]:
    """Two good WARCs beside one of each damage."""
    folder.mkdir(parents=True, exist_ok=True)
    records, good = 0, set()
    for name in ("good-1", "good-2"):
        members = [good_member(url(name, n), good_page(n)) for n in range(sizes.folder_records)]
        (folder / f"{name}.warc.gz").write_bytes(b"".join(members))
        records += len(members)
        good |= {url(name, n) for n in range(sizes.folder_records)}
    for kind in DAMAGES:
        _, expect = damaged_warc(folder, kind, sizes)
        records += expect.records[0]
        good |= expect.good
    return folder, Expect(tuple(range(records, records + len(DAMAGES) + 1)), frozenset(good), damaged=True)


def jsonl_file(folder: Path, name: str, sizes: Sizes) -> tuple[Path, Expect]:
    """JSON lines: ``surrogate`` (a lone ``\\ud800`` in line 5, valid JSON) or
    ``duplicate-ids`` (ids given twice and thrice)."""
    lines, good = [], set()
    dup = {3: "dup", 4: "dup", 9: "dup", 15: "x", 16: "x"}
    for n in range(sizes.jsonl_lines):
        html = good_page(n, paragraphs=3).decode("utf-8")
        row: dict[str, Any] = {"url": url(name, n), "html": html}
        if name == "surrogate" and n == 4:
            row["html"] = html.replace("<h1>", "<h1>\ud800 ")
        else:
            good.add(row["url"])
        if name == "duplicate-ids":
            row["id"] = dup.get(n, f"doc-{n}")
        lines.append(json.dumps(row))  # ensure_ascii: the surrogate is written as \ud800
    path = folder / f"{name}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path, Expect((len(lines),), frozenset(good))


SAME_STEM = {"a.html": "alpha", "a.html.gz": "beta", "a.htm": "gamma"}


def same_stem_folder(folder: Path) -> Path:
    """``a.html``, ``a.html.gz`` and ``a.htm``, each with its own word."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, word in SAME_STEM.items():
        data = article(f"Page {word}", f"<p>Le mot de cette page est {word}. {GOOD_SENTENCE}</p>" * 4)
        (folder / name).write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    return folder


# --- running a command from outside --------------------------------------------------------

#: Runs the command and writes "<exit status> <ru_maxrss of its process tree, KiB>" to
#: argv[1].  A child forked from this (larger) process would report this process's RSS as
#: its own peak (Linux keeps the high-water mark across fork and exec), so a small launcher
#: forks the command instead.
LAUNCHER = (
    "import resource, subprocess, sys\n"
    "rc = subprocess.call(sys.argv[2:])\n"
    "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "open(sys.argv[1], 'w').write(f'{rc} {rss}')\n"
)


@dataclass
class Measured:
    rc: int | None
    seconds: float
    peak_mib: float  # the largest process
    tree_mib: float  # all the run's processes together (polled)
    killed: str
    outlived: int  # processes of the run still alive 3 s after it ended
    log: str


def cli() -> list[str]:
    script = shutil.which("detourage")
    return [script] if script else [sys.executable, "-m", "detourage"]


def _rss(process: psutil.Process) -> float:
    try:
        return process.memory_info().rss / 2**20
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return 0.0


def _family(root: psutil.Process) -> list[psutil.Process]:
    try:
        return root.children(recursive=True)
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return []


def _alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    out = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def _kill(processes: list[psutil.Process]) -> None:
    for p in processes:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass


def measure(command: list[str], cap: float, log: Path) -> Measured:
    """Run ``command`` through :data:`LAUNCHER`; kill its tree at ``cap`` seconds or above
    :data:`MEMORY_CAP_MIB`; its processes still alive 3 s after it ended are counted, then
    killed."""
    usage = log.with_suffix(".usage")
    usage.unlink(missing_ok=True)
    with open(log, "wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(usage), *command], stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
        killed, peak, tree, seen = _watch(proc, t0, cap)
        seconds = time.perf_counter() - t0
    deadline = time.perf_counter() + 3
    while _alive(seen) and time.perf_counter() < deadline:
        time.sleep(0.1)
    outlived = _alive(seen)
    _kill(outlived)
    rc, rss_kib = None, 0.0
    if usage.is_file() and not killed:
        code, rss = usage.read_text().split()
        rc, rss_kib = int(code), float(rss)
    text = log.read_text(encoding="utf-8", errors="replace")
    return Measured(rc, seconds, max(peak, rss_kib / 1024), tree, killed, len(outlived), text)


def _watch(proc: subprocess.Popen, t0: float, cap: float) -> tuple[str, float, float, list[psutil.Process]]:
    """Poll the run's processes until it ends or must be killed; (why killed, peak of one
    process, peak of all together, every process seen)."""
    launcher = psutil.Process(proc.pid)
    peak = tree = 0.0
    seen: dict[int, psutil.Process] = {}
    while proc.poll() is None:
        family = _family(launcher)
        seen.update((p.pid, p) for p in family)
        sizes = [_rss(p) for p in family]
        peak, tree = max(peak, *sizes, 0.0), max(tree, sum(sizes))
        killed = (f"killed at the {cap:.0f} s cap" if time.perf_counter() - t0 > cap else
                  f"killed above {MEMORY_CAP_MIB} MiB" if sum(sizes) > MEMORY_CAP_MIB else "")
        if killed:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            _kill(family)
            proc.wait()
            return killed, peak, tree, list(seen.values())
        time.sleep(0.1)
    return "", peak, tree, list(seen.values())


# --- rows ----------------------------------------------------------------------------------------

@dataclass
class Row:
    input: str
    road: str
    outcome: str = ""
    seconds: float = 0.0
    page_seconds: float | None = None
    peak_mib: float = 0.0
    records: str = ""
    exit: int | None = None
    failed: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        return "ok" if not self.failed else "FAIL: " + "; ".join(self.failed)


@dataclass
class Context:
    """The work folder, the sizes, the generated inputs (made once, when first needed)."""

    work: Path
    sizes: Sizes
    timeout: float = PAGE_TIMEOUT
    cap_margin: float = CAP_MARGIN
    made: dict[str, Any] = field(default_factory=dict)
    startup: dict[tuple[str, str], float] = field(default_factory=dict)

    def get(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self.made:
            self.made[key] = make()
        return self.made[key]

    def out(self, *parts: str) -> Path:
        path = self.work.joinpath("out", *parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    @property
    def inputs(self) -> Path:
        path = self.work / "inputs"
        path.mkdir(parents=True, exist_ok=True)
        return path


def page_file(ctx: Context, spec: PageSpec) -> Path:
    def make() -> Path:
        path = ctx.inputs / spec.filename
        if spec.make is None:
            write_spaces_bomb(path, ctx.sizes.bomb_mib)
        else:
            path.write_bytes(spec.make(ctx.sizes))
        return path
    return ctx.get(spec.filename, make)


def common_checks(row: Row, run: Measured, bound_seconds: float | None) -> None:
    """Killed, traceback, memory, processes left, page time."""
    if run.killed:
        row.failed.append(run.killed)
    if TRACEBACK in run.log:
        row.failed.append("traceback")
    if row.peak_mib > MEMORY_BOUND_MIB:
        row.failed.append(f"peak {row.peak_mib:.0f} MiB > {MEMORY_BOUND_MIB}")
    if run.outlived:
        row.failed.append(f"{run.outlived} processes outlived the run")
    if bound_seconds is not None and row.page_seconds is not None and row.page_seconds > bound_seconds:
        row.failed.append(f"page {row.page_seconds:.1f} s > {bound_seconds:.0f} s")


def last_line(log: str) -> str:
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    return lines[-1][:100] if lines else ""


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def cli_startup(ctx: Context, method: str, fmt: str) -> float:
    """Seconds ``detourage extract`` takes on a tiny page with this method and format."""
    key = (method, fmt)
    if key not in ctx.startup:
        tiny = ctx.inputs / "tiny.html"
        tiny.write_bytes(article("Tiny", f"<p>{GOOD_SENTENCE}</p>"))
        out = ctx.out(f"startup-{method}-{fmt}.jsonl")
        run = measure([*cli(), "extract", str(tiny), "-o", str(out), "-m", method, "-f", fmt],
                      60, out.with_suffix(".log"))
        ctx.startup[key] = run.seconds
    return ctx.startup[key]


def page_outcome(record: dict[str, Any] | None) -> str:
    if record is None:
        return "no record"
    return "ok" if record.get("ok") else f"error {record.get('error')}"


def expect_outcome(spec: PageSpec, ok: bool, reason: str | None, refused: bool) -> str | None:
    """Why the page's outcome is not the one it must have, or None."""
    if spec.must == "ok" and not ok:
        return f"expected ok, got {reason}"
    if spec.must == "not-html" and not refused:
        return "expected not-html" + (", got text" if ok else f", got {reason}")
    if spec.must == "bounded" and not ok and not str(reason).startswith("limit:"):
        return f"expected ok or limit:*, got {reason}"
    return None


def text_checks(spec: PageSpec, text: str) -> list[str]:
    failed = []
    if spec.contains and spec.contains not in text:
        failed.append(f"{spec.contains!r} not in output")
    if spec.absent and spec.absent in text:
        failed.append(f"{spec.absent!r} in output")
    return failed


def run_cli_page(ctx: Context, spec: PageSpec) -> Row:
    path = page_file(ctx, spec)
    out = ctx.out(f"cli-{spec.name}.jsonl")
    out.unlink(missing_ok=True)
    command = [*cli(), "extract", str(path), "-o", str(out), "--timeout", f"{ctx.timeout:g}",
               "-m", spec.method, "-f", spec.format]
    startup = cli_startup(ctx, spec.method, spec.format)
    run = measure(command, startup + ctx.timeout + ctx.cap_margin, out.with_suffix(".log"))
    records = read_jsonl(out)
    record = records[0] if len(records) == 1 else None
    row = Row(spec.name, "cli", page_outcome(record) if not run.killed else run.killed, run.seconds,
              max(run.seconds - startup, 0.0), run.peak_mib, exit=run.rc)
    common_checks(row, run, ctx.timeout + TIME_SLACK)
    if run.killed:
        return row
    if record is None:
        row.failed.append(f"{len(records)} records, expected 1 ({last_line(run.log)})")
        return row
    ok, reason = bool(record.get("ok")), record.get("error")
    if problem := expect_outcome(spec, ok, reason, reason == "not-html"):
        row.failed.append(problem)
    if ok:
        row.failed += text_checks(spec, json.dumps(record, ensure_ascii=False) if spec.format == "json"
                                  else record.get("text", ""))
    expected = (EXIT["page-ok"] if record.get("text") else EXIT["page-empty"]) if ok else EXIT["page-failed"]
    if run.rc != expected:
        row.failed.append(f"exit {run.rc}, expected {expected}")
    return row


#: The library road: one page through detourage.extract(..., timeout=) in a process of its own.
LIBRARY = r"""
import json, sys, time
import detourage
path, method, fmt, timeout, out = sys.argv[1:6]
data = open(path, "rb").read()
t0 = time.perf_counter()
try:
    text = detourage.extract(data, method=method, format=fmt, timeout=float(timeout))
    result = {"ok": True, "text": text[:200000]}
except Exception as exc:
    result = {"ok": False, "type": type(exc).__name__, "reason": getattr(exc, "reason", None),
              "message": str(exc)[:300], "not_html": isinstance(exc, getattr(detourage, "NotHTML", ())),
              "documented": isinstance(exc, detourage.DetourageError)}
result["seconds"] = time.perf_counter() - t0
open(out, "w", encoding="utf-8").write(json.dumps(result))
"""


def run_library_page(ctx: Context, spec: PageSpec) -> Row:
    path = page_file(ctx, spec)
    out = ctx.out(f"library-{spec.name}.json")
    out.unlink(missing_ok=True)
    command = [sys.executable, "-c", LIBRARY, str(path), spec.method, spec.format, f"{ctx.timeout:g}", str(out)]
    run = measure(command, 15 + ctx.timeout + ctx.cap_margin, out.with_suffix(".log"))
    result = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else None
    row = Row(spec.name, "library", run.killed or "no result", run.seconds, None, run.peak_mib, exit=run.rc)
    if result is not None:
        row.page_seconds = result["seconds"]
        row.outcome = "ok" if result["ok"] else f"raised {result['type']}({result['reason'] or result['message'][:60]})"
    common_checks(row, run, ctx.timeout + TIME_SLACK)
    if result is None:
        if not run.killed:
            row.failed.append(f"no result ({last_line(run.log)})")
        return row
    reason = result.get("reason") if result.get("documented") else result.get("type")
    if problem := expect_outcome(spec, result["ok"], reason, bool(result.get("not_html"))):
        row.failed.append(problem)
    if result["ok"]:
        row.failed += text_checks(spec, result["text"])
    return row


# --- corpus runs ---------------------------------------------------------------------------------

def run_rows(run_folder: Path) -> list[dict[str, Any]]:
    """Every row of the run's shard files (JSON lines)."""
    rows: list[dict[str, Any]] = []
    for path in sorted((run_folder / "shards").glob("part-*.jsonl")):
        rows += read_jsonl(path)
    return rows


def row_keys(row: dict[str, Any]) -> set[str]:
    """What a good record is recognised by: its URL, its id, its file's name."""
    keys = {str(row.get("url")), str(row.get("id"))}
    if row.get("source"):
        keys.add(Path(str(row["source"])).name)
    return keys


def reasons(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


def check_run(row: Row, expect: Expect, summary: dict[str, Any] | None, rows: list[dict[str, Any]],
              timeout: float) -> None:
    """A corpus run's accounting against what the input holds."""
    if summary is None:
        row.failed.append("no summary.json")
        return
    skipped = summary.get("skipped") or {}
    records, n_rows = summary.get("records", 0), summary.get("rows", 0)
    row.records = f"{records} = {n_rows} + {sum(skipped.values())}" + (f" ({reasons(skipped)})" if skipped else "")
    if records != n_rows + sum(skipped.values()):
        row.failed.append("records ≠ rows + skipped")
    if records not in expect.records:
        row.failed.append(f"{records} records, the input holds {expect.records[0]}")
    if len(rows) != n_rows:
        row.failed.append(f"{len(rows)} rows in the shards, summary says {n_rows}")
    ids = Counter(str(r.get("id")) for r in rows)
    if (repeated := sum(n - 1 for n in ids.values() if n > 1)):
        row.failed.append(f"{repeated} duplicate ids")
    ok_keys = set().union(*(row_keys(r) for r in rows if not r.get("error")))
    if (lost := sorted(expect.good - ok_keys)):
        row.failed.append(f"{len(lost)} good records not ok (first: {lost[0]})")
    if (wrong := sorted(expect.bad & ok_keys)):
        row.failed.append(f"cut record as an ok row ({wrong[0]})")
    slow = [r for r in rows if (r.get("ms") or 0) > (timeout + TIME_SLACK) * 1000]
    if slow:
        row.failed.append(f"{len(slow)} pages over {timeout + TIME_SLACK:.0f} s "
                          f"(slowest {max(r['ms'] for r in slow) / 1000:.0f} s)")


def run_outcome(summary: dict[str, Any] | None, rows: list[dict[str, Any]], run: Measured) -> str:
    if run.killed:
        return run.killed
    if summary is None:
        return f"no run: {last_line(run.log)}"
    failed = Counter(str(r["error"]) for r in rows if r.get("error"))
    text = f"{summary.get('ok', 0)} ok"
    return text + (f", failed: {reasons(failed)}" if failed else "")


def run_corpus(ctx: Context, name: str, road: str, source: Path, expect: Expect, cap: float,
               extra: tuple[str, ...] = ()) -> Row:
    """``detourage extract SOURCE -o RUN --to jsonl`` on the local pool or Dask, checked."""
    folder = ctx.out(f"run-{road}-{name}")
    shutil.rmtree(folder, ignore_errors=True)
    executor = ["-w", str(WORKERS)] if road == "corpus-local" else ["--dask", f"local:{WORKERS}"]
    command = [*cli(), "extract", str(source), "-o", str(folder), "--to", "jsonl", "--timeout",
               f"{ctx.timeout:g}", *executor, *extra]
    run = measure(command, cap, folder.with_name(folder.name + ".log"))
    summary_path = folder / "summary.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.is_file() else None
    rows = run_rows(folder)
    slowest = max((r.get("ms") or 0 for r in rows), default=0) / 1000 if rows else None
    row = Row(name, road, run_outcome(summary, rows, run), run.seconds, slowest, run.peak_mib, exit=run.rc)
    common_checks(row, run, None)
    if not run.killed:
        check_run(row, expect, summary, rows, ctx.timeout)
        expected = EXIT["run-damaged" if expect.damaged else "run-clean"]
        if run.rc != expected:
            row.failed.append(f"exit {run.rc}, expected {expected}")
    return row


def hostile_folder(ctx: Context) -> tuple[Path, Expect]:
    """Every page of :func:`page_specs` in one folder, beside three good pages."""
    folder = ctx.inputs / "hostile-pages"
    folder.mkdir(exist_ok=True)
    specs = {s.filename: s for s in page_specs()}
    for spec in specs.values():
        target = folder / spec.filename
        if not target.exists():
            os.link(page_file(ctx, spec), target)
    good = {f"good-{n}.html" for n in range(3)}
    for n, name in enumerate(sorted(good)):
        (folder / name).write_bytes(good_page(100 + n))
    must_ok = {s.filename for s in specs.values() if s.must == "ok" and s.method == "default"}
    refused = {s.filename for s in specs.values() if s.must == "not-html"}
    return folder, Expect((len(specs) + len(good),), frozenset(good | must_ok), bad=frozenset(refused))


# --- the rows of a run -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    input: str
    road: str
    run: Callable[[Context], Row]

    @property
    def key(self) -> str:
        return f"{self.input}/{self.road}"


def corpus_plans(name: str, make: Callable[[Context], tuple[Path, Expect]], roads: tuple[str, ...],
                 cap: float = 90.0, extra: tuple[str, ...] = ()) -> list[Plan]:
    def runner(road: str) -> Callable[[Context], Row]:
        def go(ctx: Context) -> Row:
            source, expect = ctx.get(name, lambda: make(ctx))
            return run_corpus(ctx, name, road, source, expect, cap + (30 if road == "corpus-dask" else 0), extra)
        return go
    return [Plan(name, road, runner(road)) for road in roads]


BOTH = ("corpus-local", "corpus-dask")


def plans() -> list[Plan]:
    """Every row, in the table's order."""
    out: list[Plan] = []
    for spec in page_specs():
        out.append(Plan(spec.name, "cli", lambda ctx, s=spec: run_cli_page(ctx, s)))
        if spec.library:
            out.append(Plan(spec.name, "library", lambda ctx, s=spec: run_library_page(ctx, s)))
    out.append(Plan("spaces-bomb", "evaluate", run_evaluate))
    out += [Plan("same-stem", road, lambda ctx, r=road: run_same_stem(ctx, r))
            for road in ("cli-folder", "cli-jsonl", "corpus-local")]
    for kind in LIES:
        out += corpus_plans(kind, lambda ctx, k=kind: lie_warc(ctx.inputs, k, ctx.sizes), BOTH)
    out += corpus_plans("truncated", lambda ctx: truncated_warc(ctx.inputs, ctx.sizes), BOTH)
    out += corpus_plans("warc-folder", lambda ctx: warc_folder(ctx.inputs / "warcs", ctx.sizes), BOTH)
    for kind in DAMAGES:
        out += corpus_plans(kind, lambda ctx, k=kind: damaged_warc(ctx.inputs / "damaged", k, ctx.sizes),
                            ("corpus-local",))
    out += corpus_plans("whole-gzip", lambda ctx: whole_gzip_warc(ctx.inputs, ctx.sizes), BOTH)
    for name in ("surrogate", "duplicate-ids"):
        out += corpus_plans(name, lambda ctx, n=name: jsonl_file(ctx.inputs, n, ctx.sizes), BOTH)
    out += corpus_plans("hostile-pages", hostile_folder, BOTH, cap=60 + (PAGE_TIMEOUT + TIME_SLACK) * 19 / WORKERS,
                        extra=("--glob", "*.pdf", "--glob", "*.png"))
    out.append(Plan("driver-sigkill", "kill", run_kill))
    out += [Plan(case, "fetch", lambda ctx, c=case: run_web(ctx, c)) for case in (
        "redirect-off-site", "bad-location", "private-address", "sitemap-50000-urls-gz", "sitemap-over-50-mib",
        "nested-json-feed", "slow-endless-bomb")]
    return out


# --- fetch: a hostile web site (issue 44) -------------------------------------------------------

def _web_cases() -> dict[str, tuple[Callable[[], dict[str, Any]], list[str], dict[str, str], list[str]]]:
    import gzip as _gzip

    from fetch_server import HTML, XML, Route, gzip_bomb, page, urlset

    def moved(location: str) -> Any:
        return Route(302, (("Location", location),))

    links = "".join(f'<a href="/r{n}">r{n}</a>' for n in range(4))
    # 20.8 MB on another host: read whole, its pages not fetched (off the site)
    big = urlset(f"/p/{n}/{'x' * 360}" for n in range(50_000)).replace(b"{base}", b"http://big.example")
    nested = b'{"items": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    return {
        "redirect-off-site": (lambda: {"/start": Route(200, HTML, page("Start", f"<p>x</p>{links}")),
                                       "/r0": moved("{other}/secret"), "/r1": moved("//localhost:{other_port}/secret"),
                                       "/r2": moved("http://admin:pw@{host}/secret"), "/r3": moved("/ok"),
                                       "/ok": Route(200, HTML, page("Ok", "<p>ok</p>"))},
                              ["--crawl", "{site}/start", "--max-pages", "10"],
                              {"/r0": "off-site", "/r1": "off-site", "/r2": "userinfo", "/r3": "fetched"},
                              ["other:/secret"]),
        "bad-location": (lambda: {"/j": moved("javascript:alert(1)"), "/d": moved("data:text/html,x"),
                                  "/m": moved("http://a_b.example:8o/"), "/loop": moved("/loop2"),
                                  "/loop2": moved("/loop"), **{f"/c{n}": moved(f"/c{n + 1}") for n in range(30)}},
                         ["{site}/j", "{site}/d", "{site}/m", "{site}/loop", "{site}/c0"],
                         {"/j": "bad-redirect", "/d": "bad-redirect", "/m": "bad-redirect", "/loop": "redirect-loop",
                          "/c0": "too-many-redirects"}, []),
        "private-address": (lambda: {"/a": Route(200, HTML, page("A", "<p>a</p>"))}, ["{site}/a", "--no-allow"],
                            {"/a": "private-address"}, ["/a", "/robots.txt"]),
        "sitemap-50000-urls-gz": (lambda: {"/s.xml.gz": Route(200, (("Content-Type", "application/x-gzip"),),
                                                              lambda: _gzip.compress(big, 1))},
                                  ["--sitemap", "{site}/s.xml.gz"], {"/s.xml.gz": "fetched:50000"}, ["/p/"]),
        "sitemap-over-50-mib": (lambda: {"/b.xml.gz": Route(200, XML, lambda: _gzip.compress(
            b"<urlset>" + b" " * (51 << 20) + b"</urlset>", 9))}, ["--sitemap", "{site}/b.xml.gz"],
                                {"/b.xml.gz": "too-large"}, []),
        "nested-json-feed": (lambda: {"/f.json": Route(200, (("Content-Type", "application/feed+json"),), nested),
                                      "/a": Route(200, HTML, page("A", "<p>a</p>"))},
                             ["--feed", "{site}/f.json", "{site}/a"], {"/f.json": "unreadable", "/a": "fetched"}, []),
        "slow-endless-bomb": (lambda: {"/slow": Route(200, HTML, b"<p>late</p>", delay=30.0),
                                       "/endless": Route(200, HTML, stream=10 ** 12),
                                       "/bomb": Route(200, (("Content-Type", "text/html"),
                                                            ("Content-Encoding", "gzip")), gzip_bomb)},
                              ["{site}/slow", "{site}/endless", "{site}/bomb", "--timeout", "3", "-w", "3"],
                              {"/slow": "timeout", "/endless": "too-large", "/bomb": "too-large"}, []),
    }


def run_web(ctx: Context, case: str) -> Row:
    """``detourage fetch`` against the hostile site of ``case``: every expected outcome
    logged, nothing refused requested."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from fetch_server import Site

    from detourage.web import Politeness

    make, args, expected, forbidden = _web_cases()[case]
    allow = "--no-allow" not in args and "allow_private" in Politeness.__dataclass_fields__  # not before issue 44
    row = Row(case, "fetch")
    warc = ctx.out("web", f"{case}.warc.gz")
    with Site({}) as other, Site({}) as site:
        values = {"site": site.base, "other": other.base, "host": site.base.split("//")[1],
                  "other_port": other.base.rsplit(":", 1)[1]}
        for path, route in make().items():
            headers = tuple((k, v.format(**values) if "{" in v and k == "Location" else v) for k, v in route.headers)
            site.add(path, type(route)(**{**vars(route), "headers": headers}))
        command = [*cli(), "fetch", *[a.format(**values) for a in args if a != "--no-allow"], "-o", str(warc),
                   "--delay", "0"] + (["--allow-private"] if allow else [])
        run = measure(command, 120.0, ctx.out("web", f"{case}.log"))
        reached = [f"other:{r.path}" for r in other.requests] + [r.path for r in site.requests]
    row.seconds, row.peak_mib, row.exit = run.seconds, run.peak_mib, run.rc
    common_checks(row, run, None)
    logged = {}
    log = warc.with_name(f"{case}.log.jsonl")
    for line in (log.read_text().splitlines() if log.is_file() else []):
        entry = json.loads(line)
        if entry.get("kind") in ("page", "sitemap", "feed") and entry["url"].startswith(values["site"]):
            path = entry["url"][len(values["site"]):]
            pages = f":{len(entry['pages'])}" if entry["kind"] != "page" and entry["outcome"] == "fetched" else ""
            logged[path] = entry["outcome"] + pages
    row.outcome = ", ".join(f"{p} {o}" for p, o in sorted(logged.items()) if p in expected)
    row.failed += [f"{p}: {logged.get(p)} (expected {o})" for p, o in expected.items() if logged.get(p) != o]
    row.failed += [f"{r} requested" for r in reached if any(r.startswith(f) for f in forbidden)]
    if run.rc != 0:
        row.failed.append(f"exit {run.rc}: {last_line(run.log)}")
    return row


def run_evaluate(ctx: Context) -> Row:
    """``detourage evaluate`` on a dataset folder whose one page is the spaces bomb."""
    spec = next(s for s in page_specs() if s.name == "spaces-bomb")
    dataset = ctx.inputs / "bomb-dataset"
    (dataset / "html").mkdir(parents=True, exist_ok=True)
    (dataset / "gold").mkdir(exist_ok=True)
    target = dataset / "html" / "bomb.html.gz"
    if not target.exists():
        os.link(page_file(ctx, spec), target)
    (dataset / "gold" / "bomb.txt").write_text("<p> Some gold text.\n", encoding="utf-8")
    out = ctx.out("evaluate-bomb")
    shutil.rmtree(out, ignore_errors=True)
    command = [*cli(), "evaluate", str(dataset), "-m", "fulltext", "-o", str(out), "--timeout",
               f"{ctx.timeout:g}", "--bootstrap", "0"]
    run = measure(command, 15 + ctx.timeout + ctx.cap_margin, out.with_name("evaluate-bomb.log"))
    row = Row("spaces-bomb", "evaluate", run.killed or last_line(run.log)[:60], run.seconds, None, run.peak_mib,
              exit=run.rc)
    common_checks(row, run, None)
    if not run.killed and run.rc != EXIT["evaluate"]:
        row.failed.append(f"exit {run.rc}, expected {EXIT['evaluate']}")
    return row


def run_same_stem(ctx: Context, road: str) -> Row:
    """Three same-stem pages: three outputs, three ids, each page's own word."""
    folder = ctx.get("same-stem", lambda: same_stem_folder(ctx.inputs / "same-stem"))
    if road == "corpus-local":
        expect = Expect((3,), frozenset(SAME_STEM))
        return run_corpus(ctx, "same-stem", road, folder, expect, 90.0)
    out = ctx.out("same-stem-out" + (".jsonl" if road == "cli-jsonl" else ""))
    shutil.rmtree(out, ignore_errors=True) if out.is_dir() else out.unlink(missing_ok=True)
    run = measure([*cli(), "extract", str(folder), "-o", str(out), "--timeout", f"{ctx.timeout:g}"],
                  60 + ctx.timeout, ctx.out(f"same-stem-{road}.log"))
    if road == "cli-jsonl":
        records = read_jsonl(out)
        texts, ids = [r.get("text", "") for r in records], {r.get("id") for r in records}
    else:
        files = sorted(p for p in out.glob("*") if p.name != "errors.jsonl") if out.is_dir() else []
        texts, ids = [p.read_text(encoding="utf-8") for p in files], {p.name for p in files}
    row = Row("same-stem", road, f"{len(texts)} outputs, {len(ids)} distinct", run.seconds, None, run.peak_mib,
              exit=run.rc)
    common_checks(row, run, None)
    if len(ids) != 3 or len(texts) != 3:
        row.failed.append(f"{len(texts)} outputs with {len(ids)} distinct names/ids, expected 3")
    missing = [w for w in SAME_STEM.values() if not any(w in t for t in texts)]
    if missing:
        row.failed.append(f"pages lost: {', '.join(missing)}")
    if run.rc != EXIT["page-ok"]:
        row.failed.append(f"exit {run.rc}, expected {EXIT['page-ok']}")
    return row


def run_kill(ctx: Context) -> Row:
    """SIGKILL the driver of a corpus run once its first shard is done: no process of the
    run may be alive 3 s later; ``--resume`` then accounts for every record once."""
    source, expect = ctx.get("kill-input", lambda: kill_input(ctx))
    folder = ctx.out("run-kill")
    shutil.rmtree(folder, ignore_errors=True)
    command = [*cli(), "extract", str(source), "-o", str(folder), "--to", "jsonl", "-w", str(WORKERS),
               "--shard-size", str(SHARD_SIZE), "--timeout", f"{ctx.timeout:g}"]
    t0 = time.perf_counter()
    with open(ctx.out("run-kill.log"), "wb") as log:
        driver = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        family = _await_first_shard(driver, folder, 60)
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait()
    time.sleep(3)
    left = _alive(family) + [p for p in _holding(folder) if p.pid not in {q.pid for q in family}]
    row = Row("driver-sigkill", "kill", f"{len(left)} of the driver's {len(family)} processes left 3 s after SIGKILL",
              time.perf_counter() - t0, None, 0.0)
    if left:
        row.failed.append(f"{len(left)} processes left after the driver's SIGKILL")
        _kill(left)
    if not family:
        row.failed.append("no worker process seen before the kill: nothing was checked")
    resumed = measure([*command, "--resume"], 120, ctx.out("run-kill-resume.log"))
    summary_path = folder / "summary.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.is_file() else None
    rows = run_rows(folder)
    row.outcome += f"; --resume: {run_outcome(summary, rows, resumed)}"
    row.peak_mib, row.exit = resumed.peak_mib, resumed.rc
    common_checks(row, resumed, None)
    check_run(row, expect, summary, rows, ctx.timeout)
    if resumed.rc != EXIT["run-clean"]:
        row.failed.append(f"--resume exit {resumed.rc}, expected {EXIT['run-clean']}")
    return row


def kill_input(ctx: Context) -> tuple[Path, Expect]:
    """Four good WARCs of ``warc_records`` records."""
    folder = ctx.inputs / "kill"
    folder.mkdir(exist_ok=True)
    good: set[str] = set()
    for k in range(4):
        members, pages = standard_members(f"kill{k}", ctx.sizes.warc_records)
        (folder / f"kill{k}.warc.gz").write_bytes(b"".join(members))
        good |= pages
    return folder, Expect((4 * ctx.sizes.warc_records,), frozenset(good))


def _await_first_shard(driver: subprocess.Popen, folder: Path, limit: float) -> list[psutil.Process]:
    """Wait for the run's first finished shard; the driver's processes seen meanwhile."""
    root, seen = psutil.Process(driver.pid), {}
    deadline = time.perf_counter() + limit
    while driver.poll() is None and time.perf_counter() < deadline:
        seen.update((p.pid, p) for p in _family(root))
        if any((folder / "markers").glob("*.done")):
            break
        time.sleep(0.05)
    seen.update((p.pid, p) for p in _family(root))
    return list(seen.values())


def _holding(folder: Path) -> list[psutil.Process]:
    """Live processes whose command line names the run folder (not this one)."""
    out = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            if p.pid != os.getpid() and str(folder) in " ".join(p.info["cmdline"] or ()):
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return _alive(out)


# --- report ----------------------------------------------------------------------------------------

def render(rows: list[Row]) -> str:
    lines = ["| input | road | outcome | s | page s | peak MiB | records = rows + skipped | exit | verdict |",
             "|---|---|---|--:|--:|--:|---|--:|---|"]
    for r in rows:
        page = "" if r.page_seconds is None else f"{r.page_seconds:.1f}"
        cells = [r.input, r.road, r.outcome, f"{r.seconds:.1f}", page, f"{r.peak_mib:.0f}", r.records,
                 "" if r.exit is None else str(r.exit), r.verdict]
        lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    return "\n".join(lines)


def selected(all_plans: list[Plan], patterns: list[str] | None) -> list[Plan]:
    """The rows whose ``input/road`` contains or matches one of the patterns."""
    if not patterns:
        return all_plans
    return [p for p in all_plans if any(q in p.key or fnmatch.fnmatch(p.key, q) for q in patterns)]


def header(ctx: Context, chosen: list[Plan]) -> str:
    import detourage

    source = Path(detourage.__file__).parent
    return (f"# detourage crawl faults (issue 31)\n\ndetourage {detourage.__version__} from {source}; "
            f"CLI `{' '.join(cli())}`; "
            f"--timeout {ctx.timeout:g} s, a page must end within {ctx.timeout + TIME_SLACK:g} s and stay under "
            f"{MEMORY_BOUND_MIB} MiB; runs killed at timeout + {ctx.cap_margin:g} s (plus start-up) or above "
            f"{MEMORY_CAP_MIB} MiB; {os.cpu_count()} CPUs; {len(chosen)} rows; inputs in {ctx.inputs}\n"
            f"Sizes: {asdict(ctx.sizes)}\nExpected exit statuses: {EXIT}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--quick", action="store_true", help="pages at 5 %% of the issue's sizes (--scale 0.05)")
    parser.add_argument("--scale", type=float, default=1.0, help="page sizes times this (default: the issue's)")
    parser.add_argument("--only", nargs="+", metavar="PATTERN",
                        help="rows whose input/road contains or matches PATTERN (e.g. attrs, '*/library', warc)")
    parser.add_argument("--timeout", type=float, default=PAGE_TIMEOUT, help="--timeout of every run (s)")
    parser.add_argument("--cap-margin", type=float, default=CAP_MARGIN,
                        help="a run is killed this long after its timeout (s, default: %(default)s)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="write inputs and outputs into DIR and keep them")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write every row as JSON")
    parser.add_argument("--list", action="store_true", help="list the rows and stop")
    args = parser.parse_args(argv)
    chosen = selected(plans(), args.only)
    if args.list or not chosen:
        print("\n".join(p.key for p in chosen) or "no row matches --only")
        return 0 if chosen else 2
    sizes = Sizes().scaled(0.05 if args.quick else args.scale)
    work = args.keep or Path(tempfile.mkdtemp(prefix="detourage-crawl-faults-"))
    ctx = Context(work, sizes, args.timeout, args.cap_margin)
    started = time.perf_counter()
    try:
        print(header(ctx, chosen), flush=True)
        rows = []
        for plan in chosen:
            rows.append(plan.run(ctx))
            print(f"  {plan.key}: {rows[-1].verdict} ({rows[-1].seconds:.1f} s)", file=sys.stderr, flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    failed = [r for r in rows if r.failed]
    print()
    print(render(rows))
    print("\nCLI start-up (s) by method and format: "
          + ", ".join(f"{m}/{f} {s:.1f}" for (m, f), s in sorted(ctx.startup.items())))
    print(f"Script wall time {time.perf_counter() - started:.0f} s; {len(failed)} of {len(rows)} rows failed.")
    print(f"Verdict: {'PASS' if not failed else 'FAIL'}")
    if args.json:
        args.json.write_text(json.dumps({"rows": [{**asdict(r), "verdict": r.verdict} for r in rows],
                                         "sizes": asdict(sizes), "exit": EXIT, "startup": {
                                             f"{m}/{f}": s for (m, f), s in ctx.startup.items()}},
                                        ensure_ascii=False, indent=1), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
