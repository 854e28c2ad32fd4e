"""Corpus runs (issue 14): WARC / JSON lines / pages in, Parquet or JSON-lines shards out,
resumable, on the local pool or Dask."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pyarrow", reason="the corpus extra (pyarrow) is not installed")
pytest.importorskip("py3langid", reason="the corpus extra (py3langid) is not installed")

from click.testing import CliRunner  # noqa: E402

from detourage.cli import main  # noqa: E402
from detourage.corpus import attempt  # noqa: E402
from detourage.corpusrun import RunConfig, Request, rows, run, sinks  # noqa: E402
from detourage.corpusrun.plan import RunError, plan  # noqa: E402
from detourage.corpusrun.readers import warc_record  # noqa: E402
from detourage.settings import Settings

TEXTS = {
    "en": "The committee met on Tuesday to discuss the new budget for the public library of the town.",
    "fr": "Le conseil municipal s'est réuni mardi pour discuter du nouveau budget de la bibliothèque.",
    "ru": "Городской совет собрался во вторник, чтобы обсудить новый бюджет публичной библиотеки.",
    "pl": "Rada miasta zebrała się we wtorek, aby omówić nowy budżet biblioteki publicznej w mieście.",
}


def page(lang: str, n: int, paragraphs: int = 6) -> bytes:
    body = "".join(f"<p>{TEXTS[lang]} ({n}.{i})</p>" for i in range(paragraphs))
    return (f"<html><head><title>Page {n} | Site</title></head><body><nav><a href='/'>Home</a></nav>"
            f"<article><h1>Page {n}</h1>{body}</article><footer>© Site</footer></body></html>").encode("utf-8")


def make_warc(path: Path, pages: int, paragraphs: int = 6) -> int:
    """A WARC.gz of ``pages`` HTML responses (4 hosts) and, every 5th page, four other
    records; the number of HTML records."""
    langs = sorted(TEXTS)
    with open(path, "wb") as out:
        for n in range(pages):
            out.write(warc_record(f"http://site{n % 4}.example/a/{n}", page(langs[n % 4], n, paragraphs),
                                  content_type="text/html"))
            if n % 5 == 0:
                out.write(warc_record(f"http://site0.example/i{n}.jpg", b"\xff\xd8\xff", content_type="image/jpeg"))
                out.write(warc_record(f"http://site0.example/q{n}", b"GET / HTTP/1.1\r\n\r\n", record_type="request"))
                out.write(warc_record(f"http://site0.example/m{n}", b"<html>gone</html>", status=404))
                out.write(warc_record(f"http://site0.example/b{n}", b"PK\x03\x04 binary", content_type=None))
    return pages


@pytest.fixture(scope="module")
def warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("warc") / "crawl.warc.gz"
    make_warc(path, 20)
    return path


def config(folder: Path, method: str = "default", **kw) -> RunConfig:
    return RunConfig(folder=str(folder), settings=Settings(method=method, timeout=10), **kw)


def test_warc_html_responses_become_rows_the_others_reasons(warc: Path, tmp_path: Path) -> None:
    summary = run(Request(paths=(str(warc),), config=config(tmp_path / "run"), shard_records=7))
    assert summary.rows == 20 and summary.ok == 20 and summary.balanced
    assert dict(summary.skipped) == {"content-type:image/jpeg": 4, "warc:request": 4, "status:404": 4,
                                     "not-html:sniffed": 4}
    got = rows(tmp_path / "run")
    assert len(got) == 20 and len({r["id"] for r in got}) == 20
    first = got[0]
    assert first["url"] == "http://site0.example/a/0" and first["record_id"].startswith("<urn:uuid:")
    assert first["date"] == "2024-01-01T00:00:00+00:00" and first["error"] is None
    assert first["title"] == "Page 0" and "committee" in first["text"]
    assert {r["language"] for r in got} == set(TEXTS)
    assert list(first) == list(sinks.columns())
    saved = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert saved["rows"] == 20 and saved["balanced"]


@pytest.mark.skipif(sys.platform != "linux", reason="the workers must be forked to inherit the patched page")
def test_a_page_that_kills_its_worker_costs_only_its_own_row(warc: Path, tmp_path: Path, monkeypatch) -> None:
    """A worker dies in the middle of a shard: the shard is run again page by page, each
    page in a process of its own, and only the page that kills its process is lost."""
    from detourage.corpusrun import work

    clean = work._content

    def deadly(item, config):  # type: ignore[no-untyped-def]
        if item.url == "http://site1.example/a/9":
            os._exit(1)
        return clean(item, config)

    monkeypatch.setattr(work, "_content", deadly)
    summary = run(Request(paths=(str(warc),), config=config(tmp_path / "run"), shard_records=7, workers=2))
    assert summary.rows == 20 and summary.ok == 19 and summary.balanced
    assert dict(summary.failed) == {"worker-crashed": 1}
    got = {r["url"]: r for r in rows(tmp_path / "run")}
    assert len(got) == 20 and got["http://site1.example/a/9"]["error"] == "worker-crashed"
    assert all(r["error"] is None for url, r in got.items() if url != "http://site1.example/a/9")
    assert "committee" in got["http://site0.example/a/8"]["text"]



def test_a_shard_s_pages_stream_through_its_worker_a_few_at_a_time(tmp_path: Path, monkeypatch) -> None:
    """A shard's pages are read as its worker cleans them, never all at once: at most the
    supervisor's window (4 pages a worker) waits for its row, that page included."""
    from detourage.corpusrun import readers, work
    from detourage.corpusrun.plan import Shard

    make_warc(tmp_path / "w.warc.gz", 40)
    waiting: list[int] = []
    read, done = [0], [0]
    shard_items, as_row = work.shard_items, work._as_row

    def items(shard, config):  # type: ignore[no-untyped-def]
        for got in shard_items(shard, config):
            if isinstance(got, readers.Item):
                read[0] += 1
                waiting.append(read[0] - done[0])
            yield got

    def row(record, item, config, ms):  # type: ignore[no-untyped-def]
        done[0] += 1
        return as_row(record, item, config, ms)

    monkeypatch.setattr(work, "shard_items", items)
    monkeypatch.setattr(work, "_as_row", row)
    monkeypatch.setattr(work.langid, "identify", lambda text: "en")  # no model to load: a quick test
    (tmp_path / "run" / "shards").mkdir(parents=True)
    marker = work.process_shard(Shard(0, "warc", str(tmp_path / "w.warc.gz"), count=72),
                                config(tmp_path / "run", to="jsonl"))
    assert marker["rows"] == 40 and marker["ok"] == 40 and sum(marker["skipped"].values()) == 32
    assert max(waiting) <= 4

def test_http_charset_goes_to_the_decoder(tmp_path: Path) -> None:
    text = "<html><body><p>Городской совет собрался во вторник, чтобы обсудить бюджет.</p></body></html>"
    path = tmp_path / "cp.warc.gz"
    path.write_bytes(warc_record("http://ru.example/", text.encode("cp1251"),
                                 content_type="text/html; charset=windows-1251")
                     + warc_record("http://ru.example/x", b"<!doctype html><p>sniffed as html</p>", content_type=None))
    run(Request(paths=(str(path),), config=config(tmp_path / "run")))
    got = rows(tmp_path / "run")
    assert got[0]["encoding"] == "cp1251" and got[0]["encoding_reason"].startswith("http")
    assert "Городской" in got[0]["text"] and got[0]["language"] == "ru"
    assert "sniffed as html" in got[1]["text"]


@pytest.mark.parametrize("to", ["jsonl", "jsonl.gz", "jsonl.zst"])
def test_jsonl_outputs_hold_the_parquet_rows(warc: Path, tmp_path: Path, to: str) -> None:
    run(Request(paths=(str(warc),), config=config(tmp_path / "p", timings=False, markdown=True),
                shard_records=9))
    run(Request(paths=(str(warc),), config=config(tmp_path / "j", to=to, timings=False, markdown=True),
                shard_records=9))
    parquet, jsonl = rows(tmp_path / "p"), rows(tmp_path / "j")
    assert parquet == jsonl and "ms" not in parquet[0] and parquet[0]["markdown"].startswith("# Page 0")


def test_inputs_jsonl_html_gz_and_folders(tmp_path: Path) -> None:
    (tmp_path / "in" / "sub").mkdir(parents=True)
    (tmp_path / "in" / "sub" / "a.html.gz").write_bytes(gzip.compress(page("fr", 1)))
    (tmp_path / "in" / "b.html").write_bytes(page("pl", 2))
    make_warc(tmp_path / "in" / "c.warc.gz", 3)
    lines = [json.dumps({"url": "http://j.example/1", "html": page("ru", 3).decode()}), "", "not json"]
    (tmp_path / "pages.jsonl").write_text("\n".join(lines) + "\n")
    summary = run(Request(paths=(str(tmp_path / "in"), str(tmp_path / "pages.jsonl")),
                          config=config(tmp_path / "run"), shard_records=2))
    got = {r["id"]: r for r in rows(tmp_path / "run")}
    assert summary.rows == 3 + 2 + 1 and summary.skipped["jsonl:bad-line"] == 1 and summary.balanced
    assert got["sub/a"]["language"] == "fr" and got["b"]["language"] == "pl"
    assert got["pages.jsonl@0"]["url"] == "http://j.example/1"


def test_gzipped_jsonl_input_is_read_in_shards(tmp_path: Path) -> None:
    lines = [json.dumps({"url": f"http://j.example/{n}", "html": page("en", n).decode()}) for n in range(5)]
    (tmp_path / "pages.jsonl.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n\nnot json\n").encode()))
    summary = run(Request(paths=(str(tmp_path / "pages.jsonl.gz"),), config=config(tmp_path / "run"),
                          shard_records=2))
    assert summary.shards == 3 and summary.rows == 5 and summary.ok == 5 and summary.balanced
    assert summary.skipped["jsonl:bad-line"] == 1
    got = rows(tmp_path / "run")
    assert [r["url"] for r in got] == [f"http://j.example/{n}" for n in range(5)]
    assert got[0]["id"] == "pages.jsonl.gz@0" and "committee" in got[4]["text"]
    # a .jsonl.gz cut short: planned and run, its lost part a damaged record, no error
    packed = (tmp_path / "pages.jsonl.gz").read_bytes()
    (tmp_path / "cut.jsonl.gz").write_bytes(packed[:len(packed) // 2])
    cut = run(Request(paths=(str(tmp_path / "cut.jsonl.gz"),), config=config(tmp_path / "cut"), shard_records=2))
    assert cut.balanced and cut.damaged == 1 and cut.skipped["jsonl:truncated"] == 1
    assert cut.records == cut.rows + 1 and cut.damage[0]["source"] == "cut.jsonl.gz"


def test_cli_repair_text_reaches_the_rows(tmp_path: Path) -> None:
    pytest.importorskip("ftfy", reason="the repair extra (ftfy) is not installed")
    broken = "Le café était ouvert. Ça va très bien, merci beaucoup à tous.".encode().decode("latin-1")
    html = f"<html><body><article><p>{broken}</p></article></body></html>"
    (tmp_path / "p.jsonl").write_text(json.dumps({"url": "http://r.example/", "html": html}) + "\n")
    runner = CliRunner()
    for folder, extra in (("plain", []), ("repaired", ["--repair-text"])):
        done = runner.invoke(main, ["extract", str(tmp_path / "p.jsonl"), "-o", str(tmp_path / folder),
                                    "--to", "jsonl", "-m", "fulltext", *extra])
        assert done.exit_code == 0, done.output
    assert "cafÃ©" in rows(tmp_path / "plain")[0]["text"]
    repaired = rows(tmp_path / "repaired")[0]
    assert "Le café était ouvert" in repaired["text"] and "ftfy" in repaired["encoding_reason"]
    manifest = json.loads((tmp_path / "repaired" / "manifest.json").read_text())
    assert manifest["options"]["repair"] is True
    assert "repair" not in json.loads((tmp_path / "plain" / "manifest.json").read_text())["options"]


def test_a_warc_compressed_as_one_gzip_member_is_one_shard(tmp_path: Path) -> None:
    make_warc(tmp_path / "m.warc.gz", 6)
    whole = tmp_path / "whole.warc.gz"
    whole.write_bytes(gzip.compress(gzip.decompress((tmp_path / "m.warc.gz").read_bytes())))
    assert len(plan([str(tmp_path / "m.warc.gz")], 3)) == 5  # 14 records
    assert len(plan([str(whole)], 3)) == 1
    summary = run(Request(paths=(str(whole),), config=config(tmp_path / "run"), shard_records=3))
    assert summary.rows == 6 and summary.balanced


def test_resume_checks_options_and_a_folder_is_not_overwritten(warc: Path, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run(Request(paths=(str(warc),), config=config(folder), shard_records=10))
    with pytest.raises(RunError, match="holds a run already"):
        run(Request(paths=(str(warc),), config=config(folder), shard_records=10))
    with pytest.raises(RunError, match=r"other options \(shard_records \(--shard-size\): 10 then, 5 now\)"):
        run(Request(paths=(str(warc),), config=config(folder), shard_records=5, resume=True))
    again = run(Request(paths=(str(warc),), config=config(folder), shard_records=10, resume=True))
    assert again.session_shards == 0 and again.rows == 20
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x").write_text("")
    with pytest.raises(RunError, match="not an empty folder"):
        run(Request(paths=(str(warc),), config=config(tmp_path / "other")))


def test_cli_refuses_a_warc_without_to_and_runs_with_it(warc: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    refused = runner.invoke(main, ["extract", str(warc)])
    assert refused.exit_code == 2 and "--to parquet" in refused.output
    done = runner.invoke(main, ["extract", str(warc), "-o", str(tmp_path / "run"), "--to", "parquet",
                                "--shard-size", "8", "--with-html"])
    assert done.exit_code == 0, done.output
    assert "20 HTML pages → 20 ok" in done.output and "16 records skipped" in done.output
    assert rows(tmp_path / "run")[0]["html"].startswith("<!DOCTYPE html>")


def test_template_fits_per_host_on_the_run(warc: Path, tmp_path: Path) -> None:
    summary = run(Request(paths=(str(warc),), config=config(tmp_path / "run", method="template"),
                          fit_template=True, shard_records=6, workers=2))
    assert summary.ok == 20 and (tmp_path / "run" / "template.json.gz").exists()
    from detourage.site import template as site_template

    fitted = site_template.load(tmp_path / "run" / "template.json.gz")
    assert sorted(fitted.sites) == [f"site{i}.example" for i in range(4)]


def test_dask_writes_the_same_bytes_as_the_local_pool(warc: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the corpus extra (Dask distributed) is not installed")
    for name, dask in (("local", None), ("dask", "local:1")):
        run(Request(paths=(str(warc),), config=config(tmp_path / name, timings=False), shard_records=8,
                    workers=2, dask=dask))
    local = sorted((tmp_path / "local" / "shards").glob("*.parquet"))
    assert len(local) == 5  # 36 records, 8 a shard
    for path in local:
        assert path.read_bytes() == (tmp_path / "dask" / "shards" / path.name).read_bytes()


def _worker_settings() -> tuple[str | None, bool]:
    import dask

    return os.environ.get("MALLOC_TRIM_THRESHOLD_"), dask.config.get("distributed.worker.profile.enabled")


def test_local_cluster_workers_run_without_dask_s_per_page_costs() -> None:
    """No 64 KiB malloc trim threshold, no statistical profiler in the workers of
    ``--dask local:N`` (they cost a Dask worker about a third more CPU per page)."""
    pytest.importorskip("distributed", reason="the corpus extra (Dask distributed) is not installed")
    from detourage.corpusrun.cluster import DaskExecutor

    executor = DaskExecutor("local:1")
    try:
        settings = list(executor.client.run(_worker_settings).values())
    finally:
        executor.close()
    assert settings == [(os.environ.get("MALLOC_TRIM_THRESHOLD_"), False)]


def spin() -> None:
    """A page stuck in Python code."""
    while True:
        pass


def test_time_limit_outside_the_main_thread() -> None:
    out: list = []
    thread = threading.Thread(target=lambda: out.append(attempt(spin, 0.2)))
    thread.start()
    thread.join(5)
    assert out == [(None, "limit:time", "time limit exceeded: over 0.2 s")]


def test_time_limits_of_threads_share_one_watchdog() -> None:
    """A page under a long limit, then one under a short limit: the watchdog, asleep until
    the first deadline, is woken for the earlier one; pages that end in time are not hit."""
    out: list = []

    def pages() -> None:
        out.append(attempt(lambda: "quick", 60))
        out.append(attempt(spin, 0.2))
        out.append(attempt(lambda: "after", 60))

    threads = [threading.Thread(target=pages) for _ in range(2)]
    t0 = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert time.perf_counter() - t0 < 5
    timed_out = (None, "limit:time", "time limit exceeded: over 0.2 s")
    assert out.count(("quick", None, None)) == 2 and out.count(timed_out) == 2
    assert out.count(("after", None, None)) == 2


def test_any_arrow_reader_reads_the_shards_folder_as_it_is(warc: Path, tmp_path: Path) -> None:
    """The shards folder holds the rows and nothing else (markers in RUN/markers,
    temporary files hidden): pyarrow.dataset reads it whole, as pandas, Polars and
    DuckDB do."""
    import pyarrow.dataset as ds

    folder = tmp_path / "run"
    summary = run(Request(paths=(str(warc),), config=config(folder, method="fulltext"), shard_records=7))
    table = ds.dataset(folder / "shards", format="parquet").to_table()
    assert table.num_rows == summary.rows == 20
    assert sorted(table.column("id").to_pylist()) == sorted(r["id"] for r in rows(folder))
    markers = sorted(p.name for p in (folder / "markers").iterdir())
    assert len(markers) == summary.shards and all(m.endswith(".done") for m in markers)
    assert all(p.suffix == ".parquet" for p in (folder / "shards").iterdir())


def test_a_run_folder_with_its_markers_beside_the_shards_resumes(warc: Path, tmp_path: Path) -> None:
    """A run folder made before the markers had their own folder: its finished shards
    are read where they are, and resuming runs only the others."""
    folder = tmp_path / "run"
    run(Request(paths=(str(warc),), config=config(folder, method="fulltext"), shard_records=7))
    for marker in (folder / "markers").iterdir():
        marker.rename(folder / "shards" / marker.name)
    (folder / "shards" / "part-00001.done").unlink()
    again = run(Request(paths=(str(warc),), config=config(folder, method="fulltext"), shard_records=7,
                        resume=True))
    assert again.session_shards == 1 and again.done == again.shards and again.rows == 20


def test_a_library_run_s_manifest_is_its_settings_and_resume_compares_them(warc: Path, tmp_path: Path) -> None:
    """Without a command's description, the manifest keeps the settings' own
    (RunConfig.described) and --resume refuses other settings, naming the options."""
    folder = tmp_path / "run"
    run(Request(paths=(str(warc),), config=config(folder, method="fulltext"), shard_records=10))
    kept = json.loads((folder / "manifest.json").read_text())["options"]
    assert kept["method"] == "fulltext" and kept["timeout"] == 10 and kept["to"] == "parquet"
    assert kept["render"] == {"links": False, "images": True, "tables": True, "formatting": True}
    with pytest.raises(RunError, match=r"method \(-m\): 'fulltext' then, 'baseline' now"):
        run(Request(paths=(str(warc),), config=config(folder, method="baseline"), shard_records=10, resume=True))
    again = run(Request(paths=(str(warc),), config=config(folder, method="fulltext"), shard_records=10, resume=True))
    assert again.rows == 20


def test_killed_run_resumed_holds_every_record_exactly_once(tmp_path: Path) -> None:
    """SIGKILL a run (the command and its workers) in the middle, resume it: each HTML
    record of the WARC is in the output once, none missing."""
    warc = tmp_path / "big.warc.gz"
    html_records = make_warc(warc, 160, paragraphs=60)
    folder = tmp_path / "run"
    command = [sys.executable, "-m", "detourage", "extract", str(warc), "-o", str(folder), "--to", "parquet",
               "--shard-size", "4", "-w", "1"]
    process = subprocess.Popen(command, start_new_session=True, stderr=subprocess.DEVNULL)
    try:
        while len(list((folder / "markers").glob("*.done"))) < 5 and process.poll() is None:
            time.sleep(0.02)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before = rows(folder)
    shards = len(json.loads((folder / "manifest.json").read_text())["shards"])
    assert 0 < len(list((folder / "markers").glob("*.done"))) < shards, "the run ended before the kill"
    resumed = subprocess.run(command + ["--resume"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    after = [r["record_id"] for r in rows(folder)]
    duplicates, missing = len(after) - len(set(after)), html_records - len(set(after))
    print(f"\nkill-and-resume: {len(before)} records before the kill, {len(after)} after the resume, "
          f"duplicates: {duplicates}, missing: {missing}")
    assert duplicates == 0 and missing == 0 and len(after) == html_records
    assert not list((folder / "shards").glob("*tmp-*"))


def test_resume_clears_what_a_killed_worker_was_writing(tmp_path: Path) -> None:
    """A worker killed while it wrote leaves ``.part-N.parquet.tmp-PID`` (dot first) in
    ``shards/`` and ``markers/``: ``--resume`` removes each once and finishes the run.
    (Both glob patterns the cleaner used matched the dotted name, so the second unlink
    failed: "no such file or directory", whenever the kill left one.)"""
    warc = tmp_path / "small.warc.gz"
    html_records = make_warc(warc, 8, paragraphs=5)
    folder = tmp_path / "run"
    command = [sys.executable, "-m", "detourage", "extract", str(warc), "-o", str(folder), "--to", "parquet",
               "--shard-size", "4", "-w", "1"]
    assert subprocess.run(command, capture_output=True, timeout=300).returncode == 0
    markers = sorted((folder / "markers").glob("*.done"))
    shard = sorted((folder / "shards").glob("part-*.parquet"))[-1]
    shard.rename(shard.with_name(f".{shard.name}.tmp-12345"))  # as the kill left it: never renamed
    (folder / "markers" / f".{markers[-1].name}.tmp-12345").write_text("{")
    markers[-1].unlink()
    resumed = subprocess.run(command + ["--resume"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert len({r["record_id"] for r in rows(folder)}) == html_records == len(rows(folder))
    assert not list(folder.glob("*/*tmp-*"))
