"""Issue 13: hostile inputs through the runner and the CLI, the memory ceiling, gzipped
pages, and the run's balance (inputs read = outputs + error records)."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from detourage.cli import main
from detourage.corpus import Job, Step, Summary, counted, execute, read_inputs
from detourage.parse import Limits
from detourage.settings import Settings

CASES = Path(__file__).parent / "cases"
PAGE = b"<html><body><nav>menu</nav><h1>Title</h1><p>Some body text of the page.</p></body></html>"
#: XML internal-entity expansion ("billion laughs") in an XHTML page
LAUGHS = (b'<?xml version="1.0"?>\n<!DOCTYPE html [\n <!ENTITY lol "lol">\n'
          + b"".join(b' <!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                     for i in range(1, 10))
          + b']>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>L</title></head><body>'
          + b"<h1>Laughs</h1><p>&lol9;</p><p>After the entity.</p></body></html>")


def gzip_bomb(megabytes: int) -> bytes:
    """``megabytes`` MiB of zeros, gzipped (about 1 KB per MiB)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9) as packed:
        for _ in range(megabytes):
            packed.write(bytes(1 << 20))
    return buffer.getvalue()


def hostile_folder(folder: Path) -> dict[str, str | None]:
    """Good and hostile pages; page id → the error expected (None: an output)."""
    folder.mkdir()
    pages: dict[bytes, tuple[bytes, str | None]] = {
        b"good.html": (PAGE, None),
        b"packed.html.gz": (gzip.compress(PAGE), None),
        b"bomb.html.gz": (gzip_bomb(64), "limit:bytes"),
        b"empty.html": (b"", None),
        b"nul.html": (bytes(100_000) + PAGE, "not-html"),
        b"plaintext.html": (b"<html><body><h1>T</h1><p>before</p><plaintext><p>not a tag</p>", None),
        b"laughs.xhtml": (LAUGHS, None),
        b"mixed.html": ("<meta charset=utf-8><p>Grüße aus Köln. Привет!</p>".encode("utf-8")
                        + "<p>Привет, мир!</p>".encode("cp1251"), None),
        b"tables.html": (b"<table><tr><td>" * 100_000 + b"deep", "limit:depth"),
        b"attribute.html": (b"<p title='" + b"a" * 10_000_000 + b"'>text</p>", None),
        b"caf\xe9.html": (PAGE, None),  # a file name that is not UTF-8
    }
    expected = {}
    for name, (data, error) in pages.items():
        (folder / os.fsdecode(name)).write_bytes(data)
        expected[re.sub(r"\.(html\.gz|html|xhtml)$", "", name.decode("utf-8", "backslashreplace"))] = error
    return expected


def test_a_folder_of_good_and_hostile_pages_gives_one_record_each(tmp_path: Path) -> None:
    expected = hostile_folder(tmp_path / "pages")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["extract", str(tmp_path / "pages"), "-m", "fulltext", "-o", str(out),
                                       "--max-bytes", str(1 << 24), "-w", "2"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(r["id"] for r in records) == sorted(expected)  # nothing lost, nothing twice
    got = {r["id"]: None if r["ok"] else r["error"] for r in records}
    assert got == expected
    texts = {r["id"]: r.get("text", "") for r in records}
    assert "Some body text" in texts["good"] and texts["good"] == texts["packed"] == texts["caf\\xe9"]
    assert "After the entity." in texts["laughs"] and "lollol" not in texts["laughs"]
    errors = sum(1 for e in expected.values() if e)
    assert (f"{len(expected)} inputs read = {len(expected) - errors} outputs + {errors} error records"
            in result.stderr)


def test_a_gzip_bomb_is_refused_without_unpacking_it(tmp_path: Path) -> None:
    (tmp_path / "bomb.html.gz").write_bytes(gzip_bomb(256))  # 256 MiB unpacked
    record = Step(settings=Settings(method="fulltext"))(Job("bomb", path=str(tmp_path / "bomb.html.gz")))
    assert record["error"] == "limit:bytes" and record["ms"] < 2_000
    jobs = list(read_inputs([str(tmp_path / "bomb.html.gz")]))
    assert [j.id for j in jobs] == ["bomb"]


def _address_space() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) << 10 for line in status if line.startswith("VmSize"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("given_as", ["path", "data"])
def test_a_page_over_the_memory_ceiling_is_an_error_record_and_the_run_goes_on(
        tmp_path: Path, given_as: str) -> None:
    big = b"<html><body>" + (b"<p>" + b"more words " * 100 + b"</p>") * 30_000 + b"</body></html>"
    (tmp_path / "big.html").write_bytes(big)
    job = Job("big", path=str(tmp_path / "big.html")) if given_as == "path" else Job("big", data=big)
    ceiling = _address_space() + (32 << 20)  # workers are forked: they start at our size
    step = Step(settings=Settings(method="fulltext", max_memory=ceiling, limits=Limits(max_bytes=1 << 26)))
    records = list(execute([Job("before", data=PAGE), job, Job("after", data=PAGE)], step, workers=1))
    assert [r["id"] for r in records] == ["before", "big", "after"]
    assert [r.get("error") for r in records] == [None, "limit:memory", None]


def test_summary_states_the_balance() -> None:
    summary = Summary()
    jobs = list(counted(iter([Job("a"), Job("b")]), summary))
    summary.add({"ok": True}), summary.add({"ok": False, "error": "x"})
    assert len(jobs) == 2 and summary.balanced
    assert str(summary).endswith("; 2 inputs read = 1 output + 1 error record")
    summary.add({"ok": True})
    assert not summary.balanced and "LOST OR DUPLICATED" in str(summary)


@pytest.mark.parametrize("case", sorted(p.parent.name for p in CASES.glob("*/page.html")))
def test_no_golden_page_is_refused_by_the_runner(case: str) -> None:
    record = Step(settings=Settings(method="fulltext"))(Job(case, path=str(CASES / case / "page.html")))
    assert record["ok"], record


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_workers_of_extract_die_with_it(tmp_path: Path) -> None:
    """Issue 31 item 11: SIGKILL ``detourage extract -w 2`` in the middle: within 3 s,
    none of its workers is left (they went on, orphaned, with the process pool before)."""
    psutil = pytest.importorskip("psutil")
    folder = tmp_path / "pages"
    folder.mkdir()
    body = b"".join(b"<p>Paragraph %d of a long page, with words enough to be kept.</p>" % i for i in range(2000))
    for n in range(80):
        (folder / f"page{n:03}.html").write_bytes(b"<html><body><h1>Page</h1>" + body + b"</body></html>")
    driver = subprocess.Popen([sys.executable, "-m", "detourage", "extract", str(folder), "-m", "fulltext",
                               "-o", str(tmp_path / "out"), "-w", "2"], stderr=subprocess.DEVNULL)
    try:
        workers = _children_once_there(psutil, driver.pid, 2)
    finally:
        driver.kill()
        driver.wait()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and any(_running(psutil, w) for w in workers):
        time.sleep(0.05)
    assert not [w.pid for w in workers if _running(psutil, w)]


def _children_once_there(psutil: Any, pid: int, n: int, wait: float = 60.0) -> list[Any]:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        children = psutil.Process(pid).children(recursive=True)
        if len(children) >= n:
            return children  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError(f"no {n} workers within {wait} s")


def _running(psutil: Any, process: Any) -> bool:
    """Whether the process still runs (a zombie does not: it only waits to be reaped)."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE  # type: ignore[no-any-return]
    except psutil.NoSuchProcess:
        return False


@pytest.mark.parametrize("data", [
    b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nstream\n" + bytes(range(256)) * 40,
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40,
], ids=["pdf", "png"])
def test_the_library_refuses_binary_bytes_with_not_html(data: bytes) -> None:
    """Issue 31 item 14: extract returned the binary as text; the CLI already said not-html."""
    import detourage

    for call in (detourage.extract, detourage.document, detourage.load):
        with pytest.raises(detourage.NotHTML):
            call(data)
    assert Step(settings=Settings(method="fulltext"))(Job("x", data=data))["error"] == "not-html"
    assert isinstance(detourage.extract(data.decode("latin-1"), "fulltext"), str)  # text as str is taken


def test_text_in_utf16_is_not_refused() -> None:
    import detourage

    page = "<html><body><p>Привет, мир! Some text.</p></body></html>"
    assert "Привет" in detourage.extract(page.encode("utf-16"), "fulltext")
