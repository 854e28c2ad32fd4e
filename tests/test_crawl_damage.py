"""Issue 31, corpus runs: one bad record costs only itself, a damaged input never stops a
run and is said to be damaged (exit status 3), every row id is unique, a page stuck in
C code is killed at its time limit, and a usage error found late writes nothing.

Every input is built here; every run is checked for ``records = rows + skipped``."""

from __future__ import annotations

import fcntl
import gzip
import json
import socket
import time
import zlib
from pathlib import Path

import pytest

pytest.importorskip("pyarrow", reason="the corpus extra (pyarrow) is not installed")
pytest.importorskip("py3langid", reason="the corpus extra (py3langid) is not installed")

from click.testing import CliRunner  # noqa: E402

from detourage.cli import main  # noqa: E402
from detourage.corpusrun import RunConfig, Request, rows, run  # noqa: E402
from detourage.corpusrun import readers  # noqa: E402
from detourage.corpusrun.http import http_body  # noqa: E402
from detourage.corpusrun.plan import RunError  # noqa: E402
from detourage.corpusrun.readers import warc_record  # noqa: E402
from detourage.settings import Settings

TEXT = "The committee met on Tuesday to discuss the new budget for the public library of the town."


def html(n: int) -> bytes:
    body = "".join(f"<p>{TEXT} (page {n}, paragraph {i})</p>" for i in range(4))
    return f"<html><head><title>Page {n}</title></head><body><article>{body}</article></body></html>".encode()


def records(start: int, count: int, *, compress: bool = True) -> list[bytes]:
    return [warc_record(f"http://site.example/{n}", html(n), compress=compress) for n in range(start, start + count)]


def accounted(summary) -> None:  # type: ignore[no-untyped-def]
    assert summary.records == summary.rows + sum(summary.skipped.values()) and summary.balanced


def run_of(paths: list[Path], folder: Path, **kw):  # type: ignore[no-untyped-def]
    summary = run(Request(paths=tuple(map(str, paths)), config=RunConfig(folder=str(folder), settings=Settings(timeout=10)),
                          **{"shard_records": 4, **kw}))
    accounted(summary)
    return summary


def cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["extract", *args])


def with_length(record: bytes, delta: int | None = None, value: str | None = None) -> bytes:
    """An uncompressed record whose WARC Content-Length is changed."""
    head, _, rest = record.partition(b"Content-Length: ")
    number, _, tail = rest.partition(b"\r\n")
    new = value if value is not None else str(int(number) + (delta or 0))
    return head + b"Content-Length: " + new.encode() + b"\r\n" + tail


# --- 6, 7: a record whose HTTP body is not what its headers say -------------------------

def chunked(body: bytes, size: int = 100) -> bytes:
    chunks = b"".join(b"%x\r\n" % len(body[i:i + size]) + body[i:i + size] + b"\r\n"
                      for i in range(0, len(body), size))
    return chunks + b"0\r\n\r\n"


BODIES = {  # name: (body, HTTP headers, how the row reads)
    "false gzip": (html(100), ("Content-Encoding: gzip",), "not gzip: read as is"),
    "false br": (html(101), ("Content-Encoding: br",), "not brotli: read as is"),
    "false chunked": (html(102), ("Transfer-Encoding: chunked",), "not chunked: read as is"),
    "broken chunks": (chunked(html(103))[:120] + b"\r\nXYZ" + chunked(html(103))[120:],
                      ("Transfer-Encoding: chunked",), "broken chunk framing"),
    "chunked gzip": (chunked(gzip.compress(html(104))), ("Transfer-Encoding: chunked", "Content-Encoding: gzip"), ""),
    "gzip": (gzip.compress(html(105)), ("Content-Encoding: gzip",), ""),
}


def test_a_body_that_does_not_decode_costs_at_most_its_own_record(tmp_path: Path) -> None:
    """Before: the first bad body made every later record of the shard unreadable:OSError
    (10 ok, 61 skipped), and a chunked + gzip body ended the WARC (11 rows of 71)."""
    bad = [warc_record(f"http://bad.example/{name}", body, http_headers=headers)
           for name, (body, headers, _) in BODIES.items()]
    corrupt = warc_record("http://bad.example/corrupt", b"\x1f\x8b\x08\x00" + bytes(range(256)) * 8,
                          http_headers=("Content-Encoding: gzip",))
    (tmp_path / "c.warc.gz").write_bytes(b"".join(records(0, 3) + bad + [corrupt] + records(3, 60)))
    summary = run_of([tmp_path / "c.warc.gz"], tmp_path / "run", shard_records=1000)
    assert summary.rows == 3 + len(BODIES) + 1 + 60 and summary.ok == summary.rows - 1 and not summary.skipped
    got = {r["url"]: r for r in rows(tmp_path / "run")}
    for name, (_, _, note) in BODIES.items():
        row = got[f"http://bad.example/{name}"]
        assert row["error"] is None and TEXT in row["text"], name
        assert (note in (row["message"] or "")) if note else row["message"] is None, (name, row["message"])
    assert got["http://bad.example/corrupt"]["error"] == "not-html"
    assert "does not inflate" in got["http://bad.example/corrupt"]["message"]
    assert all(got[f"http://site.example/{n}"]["error"] is None for n in range(63))
    assert summary.exit_status == 0


def test_http_bodies_are_decoded_within_the_page_limit() -> None:
    bomb = gzip.compress(b" " * 5_000_000)
    data, note = http_body(bomb, "", "gzip", 1000)
    assert len(data) == 1000 and note == ""  # over the limit: refused later as limit:bytes
    brotli = pytest.importorskip("brotli")
    data, _ = http_body(brotli.compress(b"x" * 5_000_000, quality=1), "chunked", "br", 1000)
    assert len(data) == 1000  # "chunked" on a body that is not: read as is, then unbrotlied
    data, note = http_body(zlib.compress(b"<p>deflate</p>")[2:-4], "", "deflate", 1000)
    assert data == b"<p>deflate</p>" and note == ""  # raw deflate, as many servers send it


def test_a_lone_surrogate_in_a_json_line_costs_nothing(tmp_path: Path) -> None:
    """Before: a valid line holding "\\ud800" made it and every later line of its shard
    unreadable:UnicodeEncodeError."""
    lines = [json.dumps({"url": f"http://j.example/{n}", "html": html(n).decode()}) for n in range(6)]
    lines[2] = ('{"id": "x\\udc00", "url": "http://j.example/\\ud800", "html": "<p>'
                + TEXT + ' \\ud800 end.</p>"}')
    (tmp_path / "p.jsonl").write_text("\n".join(lines) + "\n")
    summary = run_of([tmp_path / "p.jsonl"], tmp_path / "run")
    assert summary.rows == 6 and summary.ok == 6 and summary.exit_status == 0
    odd = rows(tmp_path / "run")[2]
    assert odd["id"] == "x\ufffd" and odd["url"] == "http://j.example/\ufffd" and "\ufffd end" in odd["text"]
    assert "U+FFFD" in odd["message"]


# --- 8: a file cut short ---------------------------------------------------------------

def test_a_warc_gz_cut_inside_a_record_is_damage_not_a_half_page(tmp_path: Path) -> None:
    """Before: "31 records = 31 rows", exit 0, the cut record an ok row of half its text."""
    members = records(0, 10)
    whole = b"".join(members)
    cut_at = sum(map(len, members[:6])) + len(members[6]) // 2
    (tmp_path / "cut.warc.gz").write_bytes(whole[:cut_at])
    (tmp_path / "cut.warc").write_bytes(b"".join(records(0, 10, compress=False))[:-700])
    done = cli(str(tmp_path / "cut.warc.gz"), str(tmp_path / "cut.warc"), "-o", str(tmp_path / "run"),
               "--to", "jsonl")
    assert done.exit_code == 3, done.output
    assert "INPUT DAMAGED: 2 records" in done.output and "cut.warc.gz" in done.output
    saved = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert saved["records"] == saved["rows"] + sum(saved["skipped"].values())
    assert saved["skipped"] == {"warc:truncated": 2} and saved["ok"] == 6 + 9
    assert {(d["source"], d["reason"]) for d in saved["damage"]} == {("cut.warc.gz", "warc:truncated"),
                                                                      ("cut.warc", "warc:truncated")}
    assert all(r["error"] is None for r in rows(tmp_path / "run"))


# --- 9: damaged WARCs beside good ones ------------------------------------------------------

def damaged(kind: str) -> bytes:
    """Ten records, the fifth damaged as ``kind`` says."""
    plain = records(0, 10, compress=False)
    members = [gzip.compress(r, mtime=0) for r in plain]
    fifth = bytearray(members[4])
    if kind == "bad-crc":  # intact data, a wrong checksum
        fifth[-8] ^= 0xFF
    elif kind == "corrupt-member":
        fifth[40:80] = bytes(40)
    elif kind == "garbage-between":
        fifth = bytearray(b"\x00GARBAGE\x1f\x8b\x08 not a member" * 20) + fifth
    elif kind.startswith("length"):
        delta = {"length+5000": 5000, "length-500": -500}.get(kind)
        fifth = bytearray(gzip.compress(with_length(plain[4], delta, "-5" if kind == "length-negative" else None)))
    return b"".join(members[:4]) + bytes(fifth) + b"".join(members[5:])


KINDS = {  # kind: (reasons of the damaged file's entries besides 9 or 10 good records)
    "bad-crc": {"warc:damaged": 1},
    "corrupt-member": {"warc:damaged": 1},
    "garbage-between": {"warc:damaged": 1},
    "length+5000": {"warc:bad-length": 1},
    "length-500": {"warc:bad-length": 1},
    "length-negative": {"warc:bad-length": 1},
}


@pytest.mark.parametrize("kind", KINDS)
def test_the_reader_resynchronises_after_damage(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "d.warc.gz"
    path.write_bytes(damaged(kind))
    found = list(readers.warc_items(str(path), 0, 10**6, 100_000, "d.warc.gz"))
    good = [f.url for f in found if isinstance(f, readers.Item)]
    bad = [f for f in found if isinstance(f, readers.Damage)]
    expected_good = 10 if kind == "garbage-between" else 9
    assert good == [f"http://site.example/{n}" for n in range(10) if expected_good == 10 or n != 4], kind
    assert {b.reason: 1 for b in bad} == KINDS[kind] and len(bad) == 1
    assert bad[0].source == "d.warc.gz" and bad[0].offset > 0 and bad[0].message


@pytest.mark.parametrize("delta", [5000, -500, None])
def test_a_plain_warc_with_a_wrong_length_loses_only_that_record(tmp_path: Path, delta: int | None) -> None:
    plain = records(0, 6, compress=False)
    plain[2] = with_length(plain[2], delta, "-1" if delta is None else None)
    (tmp_path / "p.warc").write_bytes(b"".join(plain))
    found = list(readers.warc_items(str(tmp_path / "p.warc"), 0, 10**6, 100_000, "p.warc"))
    urls = [f.url for f in found if isinstance(f, readers.Item)]
    assert urls == [f"http://site.example/{n}" for n in (0, 1, 3, 4, 5)]
    assert [f.reason for f in found if isinstance(f, readers.Damage)] == ["warc:bad-length"]


def test_damaged_warcs_never_stop_the_run_nor_the_good_ones_beside_them(tmp_path: Path) -> None:
    """Before: one damaged WARC in a folder aborted the run at planning (exit 2)."""
    folder = tmp_path / "crawl"
    folder.mkdir()
    (folder / "a-good.warc.gz").write_bytes(b"".join(records(0, 5)))
    for kind in KINDS:
        (folder / f"{kind}.warc.gz").write_bytes(damaged(kind))
    (folder / "z-good.warc.gz").write_bytes(b"".join(records(0, 5)))
    done = cli(str(folder), "-o", str(tmp_path / "run"), "--to", "jsonl", "--shard-size", "3")
    assert done.exit_code == 3, done.output
    saved = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert saved["records"] == saved["rows"] + sum(saved["skipped"].values()) and saved["balanced"]
    assert saved["ok"] == saved["rows"] == 5 + 5 + 10 + 9 * (len(KINDS) - 1)
    assert saved["damaged"] == len(KINDS)
    assert {d["source"] for d in saved["damage"]} == {f"{kind}.warc.gz" for kind in KINDS}


def test_a_shard_whose_file_cannot_be_read_is_not_done_and_one_that_shrank_is_damage(tmp_path: Path) -> None:
    """An I/O error (here: the file is gone) leaves the shard to --resume; a file that
    holds fewer records than planned gives the missing ones as damage, never nothing."""
    from detourage.corpusrun.plan import Shard
    from detourage.corpusrun.work import process_shard

    config = RunConfig(folder=str(tmp_path / "run"), settings=Settings(timeout=10))
    (tmp_path / "run" / "shards").mkdir(parents=True)
    gone = process_shard(Shard(0, "warc", str(tmp_path / "gone.warc.gz"), 0, 3, label="gone.warc.gz"), config)
    assert "gone.warc.gz" in gone["unread"] and not (tmp_path / "run" / "markers" / "part-00000.done").exists()
    (tmp_path / "p.jsonl").write_text(json.dumps({"html": html(1).decode()}) + "\n")
    marker = process_shard(Shard(1, "jsonl", str(tmp_path / "p.jsonl"), 0, 3, label="p.jsonl"), config)
    assert marker["records"] == marker["rows"] + sum(marker["skipped"].values()) == 3
    assert marker["skipped"] == {"unreadable:file-changed": 2} and marker["damaged"] == 2


# --- 10: unique ids ---------------------------------------------------------------------

def test_every_row_id_is_unique_in_a_run(tmp_path: Path) -> None:
    """Before: a WARC gzipped whole gave 18 duplicate FILE@OFFSET ids in 71 rows, and JSON
    lines' ids were taken verbatim, duplicates included."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "whole.warc.gz").write_bytes(gzip.compress(b"".join(records(0, 8, compress=False))))
    (tmp_path / "b" / "whole.warc.gz").write_bytes(b"".join(records(8, 3)))
    lines = [{"id": "x", "html": html(20).decode()}, {"id": "x", "html": html(21).decode()},
             {"id": "a/whole.warc.gz@0", "html": html(22).decode()}, {"id": 7, "html": html(23).decode()},
             {"html": html(24).decode()}]
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    summary = run_of([tmp_path / "a", tmp_path / "b", tmp_path / "p.jsonl"], tmp_path / "run", shard_records=3)
    assert summary.rows == 8 + 3 + 5
    ids = [r["id"] for r in rows(tmp_path / "run")]
    assert len(ids) == len(set(ids))
    label = str(tmp_path / "a" / "whole.warc.gz")
    assert ids[:3] == [f"{label}@0", f"{label}@0#1", f"{label}@0#2"]
    assert ids[-5:] == ["x", "x~2", "a/whole.warc.gz@0", "7", "p.jsonl@" + str(sum(
        len(json.dumps(line)) + 1 for line in lines[:4]))]


# --- the time limit inside a shard --------------------------------------------------------

def test_a_page_stuck_in_c_code_costs_its_row_not_the_shard(tmp_path: Path, stuck_second_page: None) -> None:
    """A page that runs C code past the time limit (no alarm reaches it) is killed:
    ``limit:time``, and the pages after it are cleaned."""
    (tmp_path / "s.warc.gz").write_bytes(b"".join(records(0, 5)))
    t0 = time.perf_counter()
    summary = run(Request(paths=(str(tmp_path / "s.warc.gz"),), config=RunConfig(folder=str(tmp_path / "run"), settings=Settings(timeout=1))))
    assert time.perf_counter() - t0 < 30
    accounted(summary)
    assert summary.ok == 4 and dict(summary.failed) == {"limit:time": 1}
    assert [r["error"] for r in rows(tmp_path / "run")] == [None, None, "limit:time", None, None]


# --- 12: a usage error found late -----------------------------------------------------------

def test_a_usage_error_found_late_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    """Before: --dask local:zero left RUN/manifest.json behind, and the corrected command
    was refused ("holds a run already")."""
    pytest.importorskip("distributed", reason="the corpus extra (Dask distributed) is not installed")
    from detourage.corpusrun import cluster

    (tmp_path / "c.warc.gz").write_bytes(b"".join(records(0, 3)))
    out = tmp_path / "run"
    refused = cli(str(tmp_path / "c.warc.gz"), "-o", str(out), "--to", "jsonl", "--dask", "local:zero")
    assert refused.exit_code == 2 and "local:N" in refused.output and not out.exists()
    with socket.socket() as probe:  # a port where no scheduler answers
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    refused = cli(str(tmp_path / "c.warc.gz"), "-o", str(out), "--to", "jsonl", "--dask", f"tcp://127.0.0.1:{port}")
    assert refused.exit_code == 2 and "no Dask scheduler answers" in refused.output and not out.exists()
    done = cli(str(tmp_path / "c.warc.gz"), "-o", str(out), "--to", "jsonl")
    assert done.exit_code == 0, done.output


def test_a_folder_holds_one_live_run(tmp_path: Path) -> None:
    (tmp_path / "c.warc.gz").write_bytes(b"".join(records(0, 3)))
    out = tmp_path / "run"
    out.mkdir()
    with open(out / ".lock", "w") as held:  # a live run's lock
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write("4242\n")
        held.flush()
        with pytest.raises(RunError, match=r"another run is using this folder \(process 4242\)"):
            run_of([tmp_path / "c.warc.gz"], out)
    assert not (out / "manifest.json").exists()
    summary = run_of([tmp_path / "c.warc.gz"], out)  # the lock of a run gone is no obstacle
    assert summary.ok == 3


# --- the same on Dask ------------------------------------------------------------------------

def test_dask_reads_a_damaged_crawl_as_the_local_pool_does(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the corpus extra (Dask distributed) is not installed")
    (tmp_path / "in").mkdir()
    for kind in ("bad-crc", "length+5000", "garbage-between"):
        (tmp_path / "in" / f"{kind}.warc.gz").write_bytes(damaged(kind))
    bad = [warc_record("http://bad.example/gz", html(9), http_headers=("Content-Encoding: gzip",))]
    (tmp_path / "in" / "cut.warc.gz").write_bytes(b"".join(records(0, 4) + bad)[:-40])
    summaries = {}
    for name, dask in (("local", None), ("dask", "local:1")):
        summaries[name] = run(Request(paths=(str(tmp_path / "in"),), shard_records=4, dask=dask, workers=1,
                                      config=RunConfig(folder=str(tmp_path / name), settings=Settings(timeout=10), timings=False)))
        accounted(summaries[name])
    local, dask = summaries["local"], summaries["dask"]
    assert (local.rows, local.ok, local.skipped, local.damaged) == (dask.rows, dask.ok, dask.skipped, dask.damaged)
    assert local.damaged == 4 and local.exit_status == 3
    assert rows(tmp_path / "local") == rows(tmp_path / "dask")
