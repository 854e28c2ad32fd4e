"""Issue 44, items 1, 5 and 7: what a corpus run reads may be hostile, and one bad record
costs only itself, counted with a reason.

- A JSON line nested 1 000 levels deep (before: ``RecursionError`` out of ``json.loads``,
  traceback, exit 1, 0 of 30 records written, and ``--resume`` crashed the same way).
- A JSON line too long to hold a page within ``--max-bytes`` (before: the reader's own
  limit was 256 MiB whatever ``--max-bytes`` said, and a 250 MiB line peaked at 1.2 GiB
  before it ended as ``limit:bytes``; the peak itself is measured by
  ``benchmarks/bad_inputs.py --corpus-only``).
- A WARC record cut short and followed by records appended after it (a crawler killed,
  then resumed into the same file), garbage after an intact record (before: the plain
  WARC's resync looked only for ``\nWARC/``, and lost the record after the damage).

Every input is built here; every run is checked for ``records = rows + skipped``."""

from __future__ import annotations

import gzip
import json
import random
import zlib
from collections.abc import Iterable
from pathlib import Path

import pytest

pytest.importorskip("pyarrow", reason="the corpus extra (pyarrow) is not installed")
pytest.importorskip("py3langid", reason="the corpus extra (py3langid) is not installed")

from click.testing import CliRunner  # noqa: E402

from detourage.cli import main  # noqa: E402
from detourage.corpus import Job, with_urls  # noqa: E402
from detourage.corpusrun import RunConfig, Request, readers, rows, run  # noqa: E402
from detourage.errors import DatasetError  # noqa: E402
from detourage.parse import Limits  # noqa: E402
from detourage.settings import Settings  # noqa: E402

TEXT = "The committee met on Tuesday to discuss the new budget for the public library of the town."
DEEP = 1_000


def html(n: int) -> str:
    return f"<html><head><title>Page {n}</title></head><body><article><p>{TEXT} ({n})</p></article></body></html>"


def nested(depth: int = DEEP) -> str:
    return "[" * depth + "]" * depth


def lines_with_nested(count: int = 30) -> list[str]:
    """``count`` good lines but two: one nested in an extra field, one whose ``"id"``
    is nested (the planner reads the ids: it meets it first)."""
    lines = [json.dumps({"url": f"http://j.example/{n}", "html": html(n)}) for n in range(count)]
    lines[7] = f'{{"url": "http://j.example/7", "html": "<p>seven</p>", "extra": {nested()}}}'
    lines[19] = f'{{"id": {nested()}, "url": "http://j.example/19", "html": "<p>nineteen</p>"}}'
    return lines


def accounted(summary) -> None:  # type: ignore[no-untyped-def]
    assert summary.records == summary.rows + sum(summary.skipped.values()) and summary.balanced


def cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["extract", *args])


# --- 1: a JSON line nested too deep ------------------------------------------------------

@pytest.mark.parametrize("name", ["nested.jsonl", "nested.jsonl.gz"])
def test_a_deeply_nested_json_line_costs_only_itself_and_resume_works(tmp_path: Path, name: str) -> None:
    data = ("\n".join(lines_with_nested()) + "\n").encode()
    (tmp_path / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    out = tmp_path / "run"
    done = cli(str(tmp_path / name), "-o", str(out), "--to", "jsonl", "--shard-size", "4")
    assert done.exit_code == 0, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
    saved = json.loads((out / "summary.json").read_text())
    assert saved["balanced"] and saved["records"] == 30
    assert saved["rows"] == saved["ok"] == 28 and saved["skipped"] == {"jsonl:too-deep": 2}
    urls = [r["url"] for r in rows(out)]
    assert urls == [f"http://j.example/{n}" for n in range(30) if n not in (7, 19)]
    for marker in (out / "markers").glob("part-0000[135].done"):  # three shards to run again
        marker.unlink()
    again = cli(str(tmp_path / name), "-o", str(out), "--to", "jsonl", "--shard-size", "4", "--resume")
    assert again.exit_code == 0, again.output
    assert json.loads((out / "summary.json").read_text())["skipped"] == {"jsonl:too-deep": 2}
    assert [r["url"] for r in rows(out)] == urls


def test_the_json_line_parsers_never_raise_on_depth() -> None:
    for depth in (DEEP, 100_000):
        line = f'{{"html": "<p>x</p>", "x": {nested(depth)}}}\n'.encode()
        assert readers.jsonl_item(line, 0, "f.jsonl") == "jsonl:too-deep"
        assert readers.jsonl_row(line) is None
    assert readers.jsonl_item(b'{"html": 1}\n', 0, "f.jsonl") == "jsonl:bad-line"
    cut = readers.jsonl_item(b'{"html": "<p>cut', 9, "f.jsonl")
    assert isinstance(cut, readers.Damage) and cut.reason == "jsonl:truncated"


def test_a_nested_urls_line_is_a_dataset_error_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "urls.jsonl").write_text('{"id": "a", "url": "http://x.example/a"}\n'
                                         f'{{"id": "b", "url": {nested()}}}\n')
    with pytest.raises(DatasetError, match=r"urls.jsonl:2: .*nested deeper"):
        with_urls([Job(id="a", path="a.html")], str(tmp_path / "urls.jsonl"))
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "a.html").write_text(html(1))
    done = cli(str(tmp_path / "pages"), "--url-map", str(tmp_path / "urls.jsonl"), "-o", str(tmp_path / "o.jsonl"))
    assert done.exit_code == 2 and "nested deeper" in done.output


# --- 7: a JSON line too long for the page limit ------------------------------------------------

def escaped(text: str) -> str:
    """A JSON line whose page is ``text``, every non-ASCII character written ``\\uXXXX``."""
    return json.dumps({"url": "http://j.example/escaped", "html": text}, ensure_ascii=True)


def test_a_line_is_refused_by_the_page_limit_not_a_fixed_one(tmp_path: Path) -> None:
    """Before: the line limit was 256 MiB whatever --max-bytes said: a line of 3 MiB under
    --max-bytes 1000000 was read whole, parsed, and ended as a limit:bytes row.  A line
    longer still whose page fits, its characters escaped, is read."""
    big = json.dumps({"url": "http://j.example/big", "html": "<p>" + "a" * (3 << 20) + "</p>"})
    cyrillic = "<p>" + "Привет, мир! " * 40_000 + "</p>"  # 2.5 MB of JSON for a 0.9 MB page
    lines = [json.dumps({"url": "http://j.example/0", "html": html(0)}), big, escaped(cyrillic),
             json.dumps({"url": "http://j.example/3", "html": html(3)})]
    assert len(cyrillic.encode()) < 1_000_000 and len(escaped(cyrillic)) > 1_000_000 + (1 << 20)  # + LINE_ROOM
    (tmp_path / "long.jsonl").write_text("\n".join(lines) + "\n")
    settings = Settings(timeout=30, limits=Limits(max_bytes=1_000_000))
    summary = run(Request(paths=(str(tmp_path / "long.jsonl"),), shard_records=2,
                          config=RunConfig(folder=str(tmp_path / "run"), to="jsonl", settings=settings)))
    accounted(summary)
    assert dict(summary.skipped) == {"jsonl:too-long": 1} and summary.rows == summary.ok == 3
    got = rows(tmp_path / "run")
    assert [r["url"] for r in got] == ["http://j.example/0", "http://j.example/escaped", "http://j.example/3"]
    assert "Привет, мир!" in got[1]["text"]


def test_a_long_line_is_read_past_in_chunks_never_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader holds at most what a page within the limit may take, plus one chunk."""
    monkeypatch.setattr(readers, "LINE_CHUNK", 1000)
    monkeypatch.setattr(readers, "LINE_ROOM", 500)
    long = json.dumps({"html": "x" * 50_000}) + "\n"
    path = tmp_path / "l.jsonl"
    path.write_text(json.dumps({"html": "<p>a</p>"}) + "\n" + long + "\n" + json.dumps({"html": "<p>b</p>"}))
    held: list[int] = []
    real = readers._skip_line

    def skip(handle):  # type: ignore[no-untyped-def]
        held.append(handle.tell())
        return real(handle)

    monkeypatch.setattr(readers, "_skip_line", skip)
    found = list(readers.jsonl_lines(str(path), 0, 2_000))
    first = len(json.dumps({"html": "<p>a</p>"})) + 1
    assert [position for position, _ in found] == [0, first, first + len(long) + 1]
    assert found[1][1] == b"" and found[2][1].endswith(b'"<p>b</p>"}')
    assert held and held[0] - first <= 2_000 + 500 + 1000  # refused once past the limit, not at its end
    assert readers.jsonl_item(b"", first, "l.jsonl") == "jsonl:too-long"


def test_line_fits_counts_what_escapes_can_save() -> None:
    limit = 1000
    assert readers.line_fits(limit + readers.LINE_ROOM, 0, 0, limit)
    assert not readers.line_fits(limit + readers.LINE_ROOM + 1, 0, 0, limit)
    # a page of `limit` control characters, each written \u0001: 6 bytes of JSON per byte
    assert readers.line_fits(6 * limit, limit, limit, limit)
    assert not readers.line_fits(6 * limit + readers.LINE_ROOM + 1, 0, 10 ** 9, limit)  # the hard ceiling
    # a page of `limit` newlines, each written \n: 2 bytes per byte
    assert readers.line_fits(2 * limit, limit, 0, limit)


# --- 5: every intact record after damage is read, and counted ------------------------------

def page_record(n: int, compress: bool = False) -> bytes:
    return readers.warc_record(f"http://site.example/{n}", html(n).encode(), compress=compress)


def scanned(path: Path) -> tuple[list[str], list[str]]:
    """The urls of the pages read from a WARC file, and the reasons of its damage."""
    found = list(readers.warc_items(str(path), 0, 10 ** 6, 100_000, path.name))
    return ([f.url or "" for f in found if isinstance(f, readers.Item)],
            [f.reason for f in found if isinstance(f, readers.Damage)])


def urls(numbers: Iterable[int]) -> list[str]:
    return [f"http://site.example/{n}" for n in numbers]


def test_a_plain_warc_cut_anywhere_in_a_record_then_appended_to_loses_only_that_record(tmp_path: Path) -> None:
    """A crawler killed while writing record 10, then resumed into the same file.  Before:
    cut in its payload, record 11 was lost and not counted ("19 records = 18 rows + 1
    skipped"); cut in its WARC header, record 11 was lost with no damage reported at all."""
    plain = [page_record(n) for n in range(20)]
    path = tmp_path / "appended.warc"
    wrong = []
    for cut in range(1, len(plain[10]) - len(b"\r\n\r\n"), 7):  # the header, the HTTP header, the payload
        path.write_bytes(b"".join(plain[:10]) + plain[10][:cut] + b"".join(plain[11:]))
        got, damage = scanned(path)
        if got != urls(n for n in range(20) if n != 10) or len(damage) != 1:
            wrong.append((cut, damage, sorted(set(urls(range(20))) - set(got))))
    assert not wrong, wrong[:5]


def test_garbage_after_an_intact_record_is_damage_of_its_own(tmp_path: Path) -> None:
    """5 000 bytes of garbage after record 30 of a plain WARC.  Before: record 30 was
    warc:bad-length and record 31 lost: "31 records = 30 rows + 1 skipped"."""
    plain = [page_record(n) for n in range(32)]
    garbage = random.Random(1).randbytes(5_000)
    (tmp_path / "garbage.warc").write_bytes(b"".join(plain[:31]) + garbage + plain[31])
    out = tmp_path / "run"
    done = cli(str(tmp_path / "garbage.warc"), "-o", str(out), "--to", "jsonl", "--shard-size", "8")
    assert done.exit_code == 3, done.output  # done, but the input was damaged
    assert "33 records = 32 rows + 1 skipped" in done.output
    saved = json.loads((out / "summary.json").read_text())
    assert saved["skipped"] == {"warc:damaged": 1} and saved["ok"] == 32 and saved["balanced"]
    assert saved["damage"][0]["offset"] == sum(map(len, plain[:31])) and "5000 bytes" in saved["damage"][0]["message"]
    assert [r["url"] for r in rows(out)] == urls(range(32))


def test_the_issue_s_crawl_killed_and_resumed_counts_every_record(tmp_path: Path) -> None:
    plain = [page_record(n) for n in range(20)]
    (tmp_path / "k.warc").write_bytes(b"".join(plain[:10]) + plain[10][:-200] + b"".join(plain[11:]))
    out = tmp_path / "run"
    done = cli(str(tmp_path / "k.warc"), "-o", str(out), "--to", "jsonl", "--shard-size", "3")
    assert done.exit_code == 3 and "20 records = 19 rows + 1 skipped" in done.output, done.output
    assert [r["url"] for r in rows(out)] == urls(n for n in range(20) if n != 10)


@pytest.mark.parametrize("layout", ["a member per record", "gzipped whole"])
def test_a_warc_gz_cut_inside_a_member_then_appended_to_loses_only_the_cut_record(tmp_path: Path, layout: str) -> None:
    """Before, a member per record: the cut member's data ran on into the next members,
    which were lost (records 11 and 12); gzipped whole, the records before the cut in the
    same 64 KiB of compressed data were lost (zlib gives nothing of a call that fails)."""
    plain = [page_record(n) for n in range(20)]
    if layout == "a member per record":
        head = b"".join(gzip.compress(r, mtime=0) for r in plain[:10])
        cut_member = gzip.compress(plain[10], mtime=0)
    else:  # one gzip stream, flushed after record 9 (as a writer flushes), killed inside record 10
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)
        head = packer.compress(b"".join(plain[:10])) + packer.flush(zlib.Z_SYNC_FLUSH)
        cut_member = packer.compress(plain[10]) + packer.flush()
    tail = b"".join(gzip.compress(r, mtime=0) for r in plain[11:])
    path = tmp_path / "k.warc.gz"
    wrong = []
    for cut in range(1, len(cut_member) - 9, 3):
        path.write_bytes(head + cut_member[:cut] + tail)
        got, damage = scanned(path)
        if got != urls(n for n in range(20) if n != 10) or not damage:
            wrong.append((cut, damage, sorted(set(urls(range(20))) - set(got))))
    assert not wrong, wrong[:5]


# --- 8: --resume and input paths; the time of a page killed at its limit -------------------

def untimed(found: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "ms"} for row in found]


def test_resume_takes_the_same_files_however_they_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: ``--resume`` compared the paths as typed: ``./x.warc`` was not ``x.warc``."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.warc").write_bytes(b"".join(page_record(n) for n in range(6)))
    monkeypatch.chdir(tmp_path)
    done = cli("in/x.warc", "-o", "run", "--to", "jsonl", "--shard-size", "2")
    assert done.exit_code == 0, done.output
    first = untimed(rows(tmp_path / "run"))
    for spelling in ("./in/x.warc", str(tmp_path / "in" / "x.warc"), "in/../in/x.warc"):
        (tmp_path / "run" / "markers" / "part-00001.done").unlink()
        again = cli(spelling, "-o", "run", "--to", "jsonl", "--shard-size", "2", "--resume")
        assert again.exit_code == 0, (spelling, again.output)
        assert untimed(rows(tmp_path / "run")) == first
    monkeypatch.chdir(tmp_path / "in")  # the run's relative path names another file from here
    refused = cli("x.warc", "-o", "../run", "--to", "jsonl", "--shard-size", "2", "--resume")
    assert refused.exit_code == 2 and "the inputs differ" in refused.output


def test_a_page_killed_at_the_time_limit_reports_the_time_it_took(tmp_path: Path, stuck_second_page: None) -> None:
    """Before: its row said ``ms = 0.0``."""
    import time

    (tmp_path / "s.warc").write_bytes(b"".join(page_record(n) for n in range(5)))
    t0 = time.perf_counter()
    summary = run(Request(paths=(str(tmp_path / "s.warc"),),
                          config=RunConfig(folder=str(tmp_path / "run"), to="jsonl", settings=Settings(timeout=1))))
    took = time.perf_counter() - t0
    accounted(summary)
    got = rows(tmp_path / "run")
    assert [r["error"] for r in got] == [None, None, "limit:time", None, None]
    assert 1000 <= got[2]["ms"] <= took * 1000  # the limit, the grace before the kill
    assert all(r["ms"] < got[2]["ms"] for r in got if r["error"] is None)
