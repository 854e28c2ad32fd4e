"""Bad inputs: the ``detourage extract`` command must survive every one of them.

In a temporary folder it writes eighteen inputs: an empty file; 1 MiB of random bytes
(seeded); a 30 MB page (the gold paragraphs of a real page, repeated); 100 000 nested
``<div>``s; invalid UTF-8 declared as UTF-8 (latin-1 bytes under ``<meta charset=utf-8>``);
UTF-16LE without BOM or declaration; a small valid PNG; one real, good page; and, from
issue 13, a gzip bomb (``.html.gz``, 1 GiB of zeros); 1 000 000 sibling elements; a 10 MB
attribute value; 100 000 nested ``<table>``s; XML internal-entity expansion ("billion
laughs") in an XHTML page; ``<plaintext>``; a page that is mostly NUL bytes; one page
mixing UTF-8 and cp1251; the good page under a file name that is not valid UTF-8; and a
page whose canonical link and ``og:url`` no URL parser reads (``http://[``).

For each method (fulltext, baseline, eatiht, or ``--methods``; one that does not import
is skipped with a note) it runs the CLI as a subprocess, under a wall-clock guard:

1. once over the whole folder, ``detourage extract FOLDER -m M -o OUT.jsonl --timeout 20``,
   and checks: no traceback on stderr, exit status 0 (the good page succeeds), exactly
   one record per input, the good page's text identical to a run of that page alone and
   to ``detourage.extract`` in this process, and no U+FFFD in the output of the UTF-16
   and the mis-declared page (whose words fulltext must also render correctly);
2. once per input alone, and checks: no traceback, one record, exit status 0 when the
   record is ok, 4 when it is ok with no text (the empty file: nothing to show) and 1
   when it is an error (nothing succeeded);
3. once more for the 30 MB page with ``--max-bytes`` raised above its size, so that it
   is really processed (or stopped by ``--timeout``): time and memory of a huge page;
4. the memory ceiling: the 30 MB page (``--max-bytes`` raised) and the good page together
   under ``--max-memory 256``: the big page must be an error record ``limit:memory``, the
   good page's text unchanged, exit status 0, no traceback.

Then, from issue 44, the inputs of a corpus run (``detourage extract INPUT -o RUN --to
jsonl``), each checked for exit status, no traceback, ``records = rows + skipped`` and the
reasons counted: a JSON-lines file whose one line is nested 1 000 levels deep (then
``--resume`` with a shard to run again); a JSON line of 250 MiB under the default
``--max-bytes`` (16 MiB), whose peak memory must stay under :data:`LONG_LINE_RSS_MIB`
(before: 1.2 GiB, the line read whole and parsed); a plain WARC whose record 10 is cut
short with records appended after it (a crawler killed, then resumed into the same file),
and one with 5 000 bytes of garbage after record 30 (before: one intact record lost and
not counted).  The nested file's run is resumed (a shard to run again), and the killed
crawl's is resumed with its input named ``./NAME`` (before: refused, other paths).

Each run's peak memory is the CLI process's own ``ru_maxrss`` (see :data:`LAUNCHER`).  Prints one
table per method, one for the corpus inputs, and exits 1 if any check fails.

    python benchmarks/bad_inputs.py [--methods fulltext baseline] [--keep DIR] [--json PATH]
    python benchmarks/bad_inputs.py --corpus-only      # the corpus-run inputs alone (~1 min)
"""

from __future__ import annotations

import argparse
import gzip
import html
import io
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
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import _common
from detourage.cli.extract import NO_TEXT

DEFAULT_METHODS = ("fulltext", "baseline", "eatiht")
#: the real page used as the good input and as the source of the 30 MB page's paragraphs
GOOD_PAGE = ("cleanportaleval", "bbc.co.uk_news_01")
BIG_BYTES = 30_000_000
NESTED_DIVS = 100_000
NESTED_TABLES = 100_000
SIBLINGS = 1_000_000
ATTRIBUTE_BYTES = 10_000_000
BOMB_MIB = 1024
#: --max-memory (MiB) of the memory-ceiling run: far below what the 30 MB page needs
MEMORY_CEILING_MIB = 256
#: the JSON line far over the page limit (issue 44: it peaked at 1.2 GiB)
LONG_LINE_MIB = 250
#: the peak RSS (MiB) its run must stay under: the reader holds at most what a page of
#: 16 MiB may take as JSON (:func:`detourage.corpusrun.readers.line_fits`), not the line
LONG_LINE_RSS_MIB = 400
PAGE_TIMEOUT = 20  # --timeout given to the CLI, seconds per page
GUARD = 120  # wall-clock seconds allowed to one CLI run
#: a page slower than this (or stopped by --timeout) is worth a warning, not a failure
SLOW_MS = 5_000
TRACEBACK = "Traceback (most recent call last)"

LATIN1_TEXT = (
    "Le café était déjà prêt à l'été, près de la forêt où naïve Zoë lisait. "
    "Les élèves français apprécient les crêpes et la crème brûlée après le dîner. "
)
UTF16_TEXT = "Grüße aus Köln: Äpfel, Öl und Übermut. 東京の天気は晴れです。 Привет, мир! "
LAUGHS = (b'<?xml version="1.0"?>\n<!DOCTYPE html [\n <!ENTITY lol "lol">\n'
          + b"".join(b' <!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                     for i in range(1, 10))
          + b']>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Laughs</title></head><body>'
          + b"<h1>Billion laughs</h1><p>&lol9;</p><p>Text after the entity.</p></body></html>")


@dataclass
class Input:
    name: str
    id: str
    path: Path
    #: words the fulltext output must hold (the page's text decoded correctly)
    expect: str | None = None


@dataclass
class Run:
    command: list[str]
    rc: int | None
    seconds: float
    maxrss_mib: float
    stderr_last: str
    traceback: bool
    guard_hit: bool
    records: list[dict] = field(default_factory=list)


# --- inputs -----------------------------------------------------------------------------

def png_bytes(width: int = 16, height: int = 16) -> bytes:
    """A valid RGB PNG: signature, IHDR, one zlib-compressed IDAT, IEND."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    # filter byte 0, then one (red, green, blue) pixel per column: a small gradient
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (x * 16 % 256, y * 16 % 256, 128))
                    for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))


def gzip_bomb(mebibytes: int) -> bytes:
    """``mebibytes`` MiB of zeros, gzipped (about 1 KB per MiB), written chunk by chunk."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9) as packed:
        zeros = bytes(1 << 20)
        for _ in range(mebibytes):
            packed.write(zeros)
    return buffer.getvalue()


def article(title: str, paragraphs: list[str]) -> str:
    body = "".join(f"<p>{html.escape(p)}</p>\n" for p in paragraphs)
    return f"<h1>{html.escape(title)}</h1>\n{body}"


def gold_paragraphs(gold: Path) -> list[str]:
    lines = gold.read_text(encoding="utf-8", errors="replace").splitlines()
    paragraphs = [line.split(" ", 1)[1] if line.startswith("<") and " " in line else line for line in lines]
    return [p for p in paragraphs if len(p) > 40] or ["A paragraph of ordinary text. " * 5]


def make_inputs(folder: Path, datasets: Path) -> list[Input]:
    folder.mkdir(parents=True, exist_ok=True)
    good_dataset, good_id = GOOD_PAGE
    good_html = datasets / good_dataset / "html" / f"{good_id}.html"
    good_gold = datasets / good_dataset / "gold" / f"{good_id}.txt"
    if not good_html.is_file():  # any real page will do
        good_html = next(iter(sorted(datasets.glob("*/html/*.html"))))
        good_gold = good_html.parent.parent / "gold" / f"{good_html.stem}.txt"
    inputs: list[Input] = []

    from detourage.corpus import read_inputs

    def add(name: str | bytes, data: bytes, expect: str | None = None) -> None:
        path = folder / (os.fsdecode(name) if isinstance(name, bytes) else name)
        path.write_bytes(data)
        page_id = next(read_inputs([str(path)])).id  # as the CLI names it
        shown = name.decode("utf-8", "backslashreplace") if isinstance(name, bytes) else name
        inputs.append(Input(shown, page_id, path, expect))

    add("empty.html", b"")
    add("random.bin", random.Random(0).randbytes(1 << 20))
    unit = article("A big page", gold_paragraphs(good_gold)).encode("utf-8")
    head = b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Big</title></head><body>\n'
    add("big-30mb.html", head + unit * (BIG_BYTES // len(unit) + 1) + b"</body></html>\n")
    add("nested-divs.html", b"<html><body>" + b"<div>" * NESTED_DIVS + b"deep text"
        + b"</div>" * NESTED_DIVS + b"</body></html>")
    latin = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Café</title></head><body>'
             + article("Un café à l'été", [LATIN1_TEXT * 3] * 4) + "</body></html>")
    add("bad-utf8.html", latin.encode("latin-1"), expect="Le café était déjà prêt")
    utf16 = ("<html><head><title>Grüße</title></head><body>"
             + article("Grüße aus Köln", [UTF16_TEXT * 3] * 4) + "</body></html>")
    add("utf16le.html", utf16.encode("utf-16-le"), expect="Grüße aus Köln: Äpfel")
    add("image.png", png_bytes())
    add("good.html", good_html.read_bytes())
    add("bomb.html.gz", gzip_bomb(BOMB_MIB))
    add("siblings.html", b"<html><body>" + b"<p>x</p>" * SIBLINGS + b"</body></html>")
    add("attribute.html", b"<html><body><p title='" + b"a" * ATTRIBUTE_BYTES + b"'>A paragraph after a "
        b"long attribute.</p></body></html>", expect="A paragraph after a long attribute.")
    add("nested-tables.html", b"<html><body>" + b"<table><tr><td>" * NESTED_TABLES + b"deep"
        + b"</td></tr></table>" * NESTED_TABLES + b"</body></html>")
    add("laughs.xhtml", LAUGHS, expect="Text after the entity.")
    add("plaintext.html", b"<html><body><h1>Plain</h1><p>before</p><plaintext><p>after, not a tag</p>"
        b"</body></html>", expect="<p>after, not a tag</p>")
    add("mostly-nul.html", bytes(1 << 20) + b"<p>a little text</p>")
    add("mixed-encodings.html", ('<html><head><meta charset="utf-8"></head><body><p>'
                                 + UTF16_TEXT * 3 + "</p>").encode("utf-8")
        + ("<p>" + "Привет, мир! Это другая кодировка. " * 20 + "</p></body></html>").encode("cp1251"))
    add(b"caf\xe9-not-utf8-name.html", good_html.read_bytes())
    add("broken-address.html", ('<html><head><link rel="canonical" href="http://[">'
                                '<meta property="og:url" content="https://[::1/2026/05/story.html">'
                                '</head><body>' + article("An address no parser reads", [LATIN1_TEXT * 3] * 4)
                                + "</body></html>").encode("utf-8"), expect="Le café était déjà prêt")
    return inputs


# --- running the CLI ----------------------------------------------------------------------

def cli() -> list[str]:
    script = shutil.which("detourage")
    if script:
        return [script]
    return [sys.executable, "-c", "import sys; from detourage.cli import main; sys.exit(main())"]


#: Runs the command and writes "<exit status> <ru_maxrss of its children>" to argv[1].  A
#: child forked from this (larger) process would report this process's RSS as its own
#: peak (Linux keeps the high-water mark across fork and exec), so a small launcher
#: forks the CLI instead.
LAUNCHER = (
    "import resource, subprocess, sys\n"
    "rc = subprocess.call(sys.argv[2:])\n"
    "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "open(sys.argv[1], 'w').write(f'{rc} {rss}')\n"
)


def run_cli(args: list[str], out: Path, guard: float) -> Run:
    """Run the CLI through :data:`LAUNCHER`, killed (whole process group) after ``guard`` s."""
    command = [*cli(), *args]
    err_path, usage_path = out.with_suffix(".stderr"), out.with_suffix(".usage")
    usage_path.unlink(missing_ok=True)
    with open(err_path, "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(usage_path), *command],
                                stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        try:
            proc.wait(timeout=guard)
            hit = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            hit = True
        seconds = time.perf_counter() - t0
    rc, rss_kib = None, 0.0
    if usage_path.is_file():
        code, rss = usage_path.read_text().split()
        rc, rss_kib = int(code), float(rss)
    stderr = err_path.read_text(encoding="utf-8", errors="replace")
    lines = [line for line in stderr.splitlines() if line.strip()]
    records = []
    if out.is_file():
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line]
    return Run(command, rc, seconds, rss_kib / 1024, lines[-1][:160] if lines else "",
               TRACEBACK in stderr, hit, records)


# --- checks ---------------------------------------------------------------------------------

@dataclass
class Row:
    input: str
    bytes: int
    folder: str  # "ok", "ok (empty)" or the error reason, in the folder run
    folder_ms: float | None
    alone: str
    alone_rc: int | None
    alone_s: float
    alone_maxrss_mib: float
    stderr_last: str
    failed: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def outcome(record: dict | None) -> str:
    if record is None:
        return "MISSING"
    if record.get("ok"):
        return "ok" if record.get("text") else "ok (empty)"
    return f"error {record.get('error')}"


def check_method(method: str, inputs: list[Input], work: Path, guard: float) -> tuple[Run, list[Row], Run, list[str]]:
    """Folder run, runs alone, the big page with a raised byte limit; failed folder checks."""
    import detourage

    folder = inputs[0].path.parent
    out = work / f"{method}-folder.jsonl"
    whole = run_cli(["extract", str(folder), "--glob", "*", "-m", method, "-o", str(out),  # every file
                     "--timeout", str(PAGE_TIMEOUT)], out, guard)
    by_id = {r.get("id"): r for r in whole.records}
    failed = []
    if whole.guard_hit:
        failed.append(f"folder run killed after {guard:.0f} s")
    if whole.traceback:
        failed.append("traceback on stderr")
    if whole.rc != 0:
        failed.append(f"exit status {whole.rc}, expected 0")
    if len(whole.records) != len(inputs) or set(by_id) != {i.id for i in inputs}:
        failed.append(f"{len(whole.records)} records for {len(inputs)} inputs "
                      f"(ids {sorted(map(str, by_id))})")

    rows = []
    for item in inputs:
        alone_out = work / f"{method}-{item.name}.jsonl"
        alone = run_cli(["extract", str(item.path), "-m", method, "-o", str(alone_out),
                         "--timeout", str(PAGE_TIMEOUT)], alone_out, guard)
        record = by_id.get(item.id)
        single = alone.records[0] if len(alone.records) == 1 else None
        row = Row(item.name, item.path.stat().st_size, outcome(record),
                  record.get("ms") if record else None, outcome(single), alone.rc,
                  alone.seconds, alone.maxrss_mib, alone.stderr_last)
        row.failed += check_alone(alone, single, guard)
        row.failed += check_content(method, item, record, single)
        row.warnings += slow(record, "folder run") + slow(single, "alone")
        rows.append(row)

    good = next(i for i in inputs if i.name == "good.html")
    big = next(i for i in inputs if i.name.startswith("big"))
    big_out = work / f"{method}-big-raised-limit.jsonl"
    big_run = run_cli(["extract", str(big.path), "-m", method, "-o", str(big_out), "--timeout",
                       str(PAGE_TIMEOUT), "--max-bytes", str(2 * BIG_BYTES)], big_out, guard)
    big_single = big_run.records[0] if len(big_run.records) == 1 else None
    big_row = Row(f"{big.name} --max-bytes {2 * BIG_BYTES}", big.path.stat().st_size, "",
                  None, outcome(big_single), big_run.rc, big_run.seconds, big_run.maxrss_mib,
                  big_run.stderr_last)
    big_row.failed += check_alone(big_run, big_single, guard)
    big_row.warnings += slow(big_single, "alone")
    rows.append(big_row)

    rows.append(check_memory(method, big, good, work, guard))

    good_row = next(r for r in rows if r.input == good.name)
    in_folder = by_id.get(good.id, {}).get("text")
    alone_text = _alone_text(work / f"{method}-{good.name}.jsonl")
    if in_folder is None or in_folder != alone_text:
        good_row.failed.append("good page: folder output differs from the page run alone")
    if in_folder != detourage.extract(good.path.read_bytes(), method=method, format="txt"):
        good_row.failed.append("good page: folder output differs from detourage.extract")
    if not in_folder:
        good_row.failed.append("good page: empty output")
    return whole, rows, big_run, failed


def check_memory(method: str, big: Input, good: Input, work: Path, guard: float) -> Row:
    """The big page and the good one under --max-memory: limit:memory, then the good page."""
    out = work / f"{method}-memory-ceiling.jsonl"
    run = run_cli(["extract", str(big.path), str(good.path), "-m", method, "-o", str(out), "--timeout",
                   str(PAGE_TIMEOUT), "--max-bytes", str(2 * BIG_BYTES), "--max-memory",
                   str(MEMORY_CEILING_MIB)], out, guard)
    by_id = {r.get("id"): r for r in run.records}
    row = Row(f"{big.name} + {good.name} --max-memory {MEMORY_CEILING_MIB}", big.path.stat().st_size,
              "", None, f"{outcome(by_id.get(big.id))}, {outcome(by_id.get(good.id))}", run.rc,
              run.seconds, run.maxrss_mib, run.stderr_last)
    row.failed += [f"killed after {guard:.0f} s"] * run.guard_hit + ["traceback on stderr"] * run.traceback
    if by_id.get(big.id, {}).get("error") != "limit:memory":
        row.failed.append(f"big page: {outcome(by_id.get(big.id))}, expected error limit:memory")
    if by_id.get(good.id, {}).get("text") != _alone_text(work / f"{method}-{good.name}.jsonl"):
        row.failed.append("good page: output differs from the page run alone")
    if run.rc != 0 or len(run.records) != 2:
        row.failed.append(f"exit status {run.rc}, {len(run.records)} records; expected 0 and 2")
    return row


def _alone_text(path: Path) -> str | None:
    if not path.is_file():
        return None
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return records[0].get("text") if len(records) == 1 else None


def check_alone(run: Run, record: dict | None, guard: float) -> list[str]:
    failed = []
    if run.guard_hit:
        failed.append(f"killed after {guard:.0f} s")
    if run.traceback:
        failed.append("traceback on stderr")
    if record is None:
        failed.append(f"{len(run.records)} records, expected 1")
        return failed
    # a page read but with no main content (an empty file) is no failure, but a run
    # whose only page has none exits with NO_TEXT, so that a script can tell it apart
    expected = (0 if record.get("text") else NO_TEXT) if record.get("ok") else 1
    if run.rc != expected:
        failed.append(f"exit status {run.rc}, expected {expected}")
    return failed


def slow(record: dict | None, where: str) -> list[str]:
    if record is None:
        return []
    if record.get("error") == "limit:time":
        return [f"{where}: stopped by --timeout {PAGE_TIMEOUT}"]
    if (record.get("ms") or 0) > SLOW_MS:
        return [f"{where}: {record['ms'] / 1000:.1f} s"]
    return []


def check_content(method: str, item: Input, *records: dict | None) -> list[str]:
    """The decoding inputs: never U+FFFD; fulltext must show their words."""
    if item.expect is None:
        return []
    failed = []
    for record in records:
        if record is None or not record.get("ok"):
            failed.append(f"{item.name}: {outcome(record)}, expected text")
            continue
        text = record.get("text", "")
        if "\ufffd" in text:
            failed.append(f"{item.name}: U+FFFD in output")
        if method == "fulltext" and item.expect not in text:
            failed.append(f"{item.name}: {item.expect!r} not in output (got {text[:60]!r})")
    return sorted(set(failed))


# --- corpus-run inputs (issue 44) --------------------------------------------------------------

CORPUS_TEXT = "The committee met on Tuesday to discuss the new budget for the public library of the town."


@dataclass
class CorpusCase:
    name: str
    path: Path
    #: what the summary must say: exit status, records, rows, skip reasons
    rc: int
    records: int
    rows: int
    skipped: dict[str, int]
    #: the peak RSS (MiB) the run must stay under, if any
    rss_mib: float | None = None
    #: extra arguments; run again with --resume after removing a marker; the input named so then
    args: tuple[str, ...] = ()
    resume_as: str | None = None


def corpus_page(n: int) -> bytes:
    body = "".join(f"<p>{CORPUS_TEXT} (page {n}, paragraph {i})</p>" for i in range(4))
    return f"<html><head><title>Page {n}</title></head><body><article>{body}</article></body></html>".encode()


def make_corpus_inputs(folder: Path) -> list[CorpusCase]:
    from detourage.corpusrun.readers import warc_record

    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"url": f"http://j.example/{n}", "html": corpus_page(n).decode()}) for n in range(30)]
    lines[7] = '{"url": "http://j.example/7", "html": "<p>seven</p>", "x": ' + "[" * 1000 + "]" * 1000 + "}"
    (folder / "nested.jsonl").write_text("\n".join(lines) + "\n")
    with open(folder / "long-line.jsonl", "wb") as out:
        out.write(lines[0].encode() + b"\n" + b'{"url": "http://j.example/long", "html": "<p>')
        chunk = b"a" * (1 << 20)
        for _ in range(LONG_LINE_MIB):
            out.write(chunk)
        out.write(b'</p>"}\n' + lines[1].encode() + b"\n")
    plain = [warc_record(f"http://site.example/{n}", corpus_page(n), compress=False) for n in range(32)]
    (folder / "killed-then-resumed.warc").write_bytes(b"".join(plain[:10]) + plain[10][:-200]
                                                      + b"".join(plain[11:20]))
    (folder / "garbage-after-30.warc").write_bytes(b"".join(plain[:31]) + random.Random(1).randbytes(5000)
                                                   + plain[31])
    return [
        CorpusCase("nested.jsonl", folder / "nested.jsonl", 0, 30, 29, {"jsonl:too-deep": 1},
                   resume_as=str(folder / "nested.jsonl")),
        CorpusCase(f"long-line.jsonl ({LONG_LINE_MIB} MiB line)", folder / "long-line.jsonl", 0, 3, 2,
                   {"jsonl:too-long": 1}, rss_mib=LONG_LINE_RSS_MIB),
        CorpusCase("killed-then-resumed.warc", folder / "killed-then-resumed.warc", 3, 20, 19,
                   {"warc:bad-length": 1}, args=("--shard-size", "5"), resume_as="./killed-then-resumed.warc"),
        CorpusCase("garbage-after-30.warc", folder / "garbage-after-30.warc", 3, 33, 32, {"warc:damaged": 1}),
    ]


def check_corpus(case: CorpusCase, work: Path, guard: float) -> list[Row]:
    """Run the case (and its --resume), checking each run's summary."""
    folder = work / f"corpus-{case.path.name}"
    shutil.rmtree(folder, ignore_errors=True)
    first = _corpus_row(case, str(case.path), folder, (), guard)
    rows = [first]
    if case.resume_as is not None:
        markers = sorted((folder / "markers").glob("*.done"))
        if markers:
            markers[-1].unlink()
        rows.append(_corpus_row(case, case.resume_as, folder, ("--resume",), guard, cwd=case.path.parent))
    return rows


def _corpus_row(case: CorpusCase, named: str, folder: Path, extra: tuple[str, ...], guard: float,
                cwd: Path | None = None) -> Row:
    start = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        run = run_cli(["extract", named, "-o", str(folder), "--to", "jsonl", *case.args, *extra],
                      folder.with_name(folder.name + ".none"), guard)
    finally:
        os.chdir(start)
    summary: dict[str, Any] = {}
    if (folder / "summary.json").is_file():
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    shown = (f"{summary.get('records')} records = {summary.get('rows')} rows + {summary.get('skipped')}"
             if summary else "no summary")
    row = Row(f"{case.name}{' ' + ' '.join([named, *extra]) if extra else ''}", case.path.stat().st_size,
              "", None, shown, run.rc, run.seconds, run.maxrss_mib, run.stderr_last)
    row.failed += [f"killed after {guard:.0f} s"] * run.guard_hit + ["traceback on stderr"] * run.traceback
    if run.rc != case.rc:
        row.failed.append(f"exit status {run.rc}, expected {case.rc}")
    want = {"records": case.records, "rows": case.rows, "skipped": case.skipped, "balanced": True}
    got = {k: summary.get(k) for k in want}
    if got != want:
        row.failed.append(f"summary {got}, expected {want}")
    if case.rss_mib is not None and run.maxrss_mib > case.rss_mib:
        row.failed.append(f"peak RSS {run.maxrss_mib:.0f} MiB, over {case.rss_mib:.0f}")
    return row


def render_corpus(rows: list[Row]) -> str:
    lines = ["## corpus-run inputs (detourage extract INPUT -o RUN --to jsonl)", "",
             "| input | bytes | summary | exit | s | max RSS MiB | stderr last line | checks |",
             "|---|--:|---|--:|--:|--:|---|---|"]
    for r in rows:
        checks = "ok" if not r.failed else "FAIL: " + "; ".join(r.failed)
        lines.append(f"| {r.input} | {r.bytes:,} | {r.alone} | {r.alone_rc} | {r.alone_s:.1f} | "
                     f"{r.alone_maxrss_mib:.0f} | {r.stderr_last.replace('|', '/')[:100]} | {checks} |")
    return "\n".join(lines)


# --- report ----------------------------------------------------------------------------------

def render(method: str, whole: Run, rows: list[Row], folder_failed: list[str]) -> str:
    lines = [f"## {method}", "",
             f"Folder run: exit {whole.rc}, {whole.seconds:.1f} s, max RSS {whole.maxrss_mib:.0f} MiB, "
             f"{len(whole.records)} records, traceback: {'YES' if whole.traceback else 'no'}; "
             f"stderr: {whole.stderr_last!r}",
             f"Folder checks: {'PASS' if not folder_failed else 'FAIL: ' + '; '.join(folder_failed)}", "",
             "| input | bytes | in folder run | ms | alone | exit | alone s | max RSS MiB | stderr last line "
             "| checks |",
             "|---|--:|---|--:|---|--:|--:|--:|---|---|"]
    for r in rows:
        ms = "" if r.folder_ms is None else f"{r.folder_ms:.0f}"
        checks = "ok" if not r.failed else "FAIL: " + "; ".join(r.failed)
        if r.warnings:
            checks += " (WARN slow: " + "; ".join(r.warnings) + ")"
        lines.append(f"| {r.input} | {r.bytes:,} | {r.folder} | {ms} | {r.alone} | {r.alone_rc} | "
                     f"{r.alone_s:.1f} | {r.alone_maxrss_mib:.0f} | {r.stderr_last.replace('|', '/')} | {checks} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    _common.add_datasets(parser)
    parser.add_argument("--methods", nargs="+", default=list(DEFAULT_METHODS), metavar="M",
                        help="methods to run (default: %(default)s); missing ones are skipped")
    parser.add_argument("--guard", type=float, default=GUARD,
                        help="wall-clock seconds allowed to one CLI run (default: %(default)s)")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="write the inputs and outputs into DIR and keep them (default: a temp folder)")
    parser.add_argument("--corpus-only", action="store_true",
                        help="run only the corpus-run inputs (no method table, no datasets needed)")
    _common.add_json(parser, "every figure and check")
    args = parser.parse_args(argv)
    if args.corpus_only:
        args.methods = []
    elif not args.datasets.is_dir():
        parser.exit(2, f"bad_inputs: datasets folder not found: {args.datasets} (use --datasets)\n")
    started = time.perf_counter()
    from detourage import methods

    for name in args.methods:
        methods.chain(name)  # an unknown method stops the run here, with the registry's message
    method_names, notes = list(args.methods), []
    if not method_names and not args.corpus_only:
        sys.exit("bad_inputs: no usable method: " + "; ".join(notes))

    work = args.keep or Path(tempfile.mkdtemp(prefix="detourage-bad-inputs-"))
    try:
        inputs = make_inputs(work / "inputs", args.datasets) if method_names else []
        print("# detourage bad inputs\n")
        print(f"CLI: {' '.join(cli())} extract … --timeout {PAGE_TIMEOUT}; guard {args.guard:.0f} s per run; "
              f"inputs in {work / 'inputs'}")
        for note in notes:
            print(f"Note: {note}")
        results: dict[str, dict[str, Any]] = {}
        all_failed = 0
        for method in method_names:
            whole, rows, _, folder_failed = check_method(method, inputs, work, args.guard)
            print()
            print(render(method, whole, rows, folder_failed))
            all_failed += len(folder_failed) + sum(len(r.failed) for r in rows)
            results[method] = {"folder_run": {k: v for k, v in asdict(whole).items() if k != "records"},
                               "folder_failed": folder_failed, "rows": [asdict(r) for r in rows]}
        corpus_rows = [row for case in make_corpus_inputs(work / "corpus-inputs")
                       for row in check_corpus(case, work, args.guard)]
        print()
        print(render_corpus(corpus_rows))
        all_failed += sum(len(r.failed) for r in corpus_rows)
        results["corpus-run inputs"] = {"rows": [asdict(r) for r in corpus_rows]}
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    children = max((r["alone_maxrss_mib"] for m in results.values() for r in m["rows"]), default=0.0)
    total = time.perf_counter() - started
    print(f"\nLargest peak RSS of a CLI run: {children:.0f} MiB")
    print(f"Verdict: {'PASS' if not all_failed else f'FAIL ({all_failed} failed checks)'}. "
          f"Script wall time {total:.1f} s.")
    if args.json:
        args.json.write_text(json.dumps({"methods": results, "notes": notes, "children_maxrss_mib": children,
                                         "failed_checks": all_failed, "wall_s": total},
                                        ensure_ascii=False, indent=1), encoding="utf-8")
    return 1 if all_failed else 0


if __name__ == "__main__":
    sys.exit(main())
