"""The command line, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from detourage.cli import main

PAGE = b"<html><body><nav>menu</nav><h1>Title</h1><p>Some body text.</p></body></html>"


def invoke(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def test_extract_one_file_to_stdout(tmp_path: Path) -> None:
    (tmp_path / "p.html").write_bytes(PAGE)
    result = invoke("extract", str(tmp_path / "p.html"), "-m", "baseline")
    assert result.exit_code == 0, result.output
    assert result.stdout == "Title\nSome body text.\n"
    assert result.stderr == ""  # one page extracted well: its text, nothing else
    loud = invoke("extract", str(tmp_path / "p.html"), "-m", "baseline", "--verbose")
    assert "1 page, 1 ok, 0 failed" in loud.stderr
    many = invoke("extract", str(tmp_path), "-m", "baseline", "-o", str(tmp_path / "out"), "--quiet")
    assert many.exit_code == 0 and many.stderr == ""


def test_extract_stdin_and_formats() -> None:
    result = invoke("extract", "-", "-m", "fulltext", "-f", "cleaneval", input=PAGE)
    assert result.stdout == "<p> menu\n<h> Title\n<p> Some body text.\n"
    record = json.loads(invoke("extract", "-", "-m", "fulltext", "-f", "json", input=PAGE).stdout)
    # the title is the metadata's (the page has no <title>: its <h1>), as in the JSON lines
    assert record["id"] == "stdin" and record["ok"] and record["title"] == "Title"
    assert record["text"] == "menu\nTitle\nSome body text.\n"


def test_folder_with_a_failing_page_goes_on_and_records_the_error(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "good.html").write_bytes(PAGE)
    (pages / "huge.html").write_bytes(b"<p>" + b"x" * 5000 + b"</p>")
    out = tmp_path / "out.jsonl"
    result = invoke("extract", str(pages), "-m", "fulltext", "-o", str(out), "--max-bytes", "1000")
    assert result.exit_code == 0
    records = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert records["good"]["ok"] and records["huge"]["error"] == "limit:bytes"
    assert "(limit:bytes: 1)" in result.stderr


def test_cleaneval_submission_wrapper(tmp_path: Path) -> None:
    (tmp_path / "p7.html").write_bytes(PAGE)
    result = invoke("extract", str(tmp_path / "p7.html"), "-m", "baseline", "-f", "cleaneval",
                    "--cleaneval-id", "--url", "http://e.org/")
    assert result.stdout.splitlines()[:3] == ['<text id="p7">', "URL: http://e.org/", "<h> Title"]


def test_exit_status_when_nothing_succeeds(tmp_path: Path) -> None:
    (tmp_path / "big.html").write_bytes(b"x" * 2000)
    result = invoke("extract", str(tmp_path / "big.html"), "--max-bytes", "100")
    assert result.exit_code == 1 and "limit:bytes" in result.stderr


def test_usage_errors(tmp_path: Path) -> None:
    assert invoke("extract", str(tmp_path), "-m", "nope").exit_code == 2
    assert invoke("extract", str(tmp_path)).exit_code == 2  # empty folder: no pages
    assert invoke("extract", "a", "b", "--url", "u").exit_code == 2


def test_methods_lists_seed_and_description() -> None:
    result = invoke("methods")
    assert result.exit_code == 0
    rows = {line.split()[0]: line.split()[1] for line in result.stdout.splitlines()[1:]}
    assert rows["baseline"] == "000" and rows["eatiht"] == "001"


def test_console_script_runs_with_workers(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"{i}.html").write_bytes(PAGE)
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "detourage", "extract", str(tmp_path), "-m",
                           "baseline", "-o", str(out), "-w", "2"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["0.txt", "1.txt", "2.txt"]
    assert "Traceback" not in proc.stderr


def test_train_ncleaner_then_extract_with_the_model(tmp_path: Path) -> None:
    pairs = []
    for i in range(3):
        page = tmp_path / f"p{i}.html"
        page.write_text("<nav>Home | News | Sport | Contact us</nav><p>The river survey found "
                        f"fourteen old mills along the valley, said volunteer number {i}.</p>"
                        "<footer>Copyright 2026 The Courier. All rights reserved.</footer>")
        clean = tmp_path / f"p{i}.txt"
        clean.write_text(f"<p> The river survey found fourteen old mills along the valley, said volunteer number {i}.\n")
        pairs.append(f"{page}:{clean}")
    model = tmp_path / "m.json.gz"
    result = invoke("train", "ncleaner", *pairs, "--out", str(model))
    assert result.exit_code == 0, result.output
    result = invoke("extract", pairs[0].split(":")[0], "-m", "ncleaner", "--model", str(model))
    assert result.exit_code == 0
    assert "fourteen old mills" in result.stdout and "Copyright" not in result.stdout
    assert invoke("extract", pairs[0].split(":")[0], "-m", "baseline", "--model", str(model)).exit_code == 2
