"""Small things a user sees (issue 18 item 7)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from detourage.cli import main
from detourage.corpus import Step, Job
from detourage.errors import LimitExceeded
from detourage.evaluation.stats import WORD_NOTE
from detourage.gold.align import format_report
from detourage.settings import Settings

PAGE = b"<html><body><h1>Title</h1><p>Some body text.</p></body></html>"


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


def test_one_page_is_one_page(tmp_path: Path) -> None:
    (tmp_path / "p.html").write_bytes(PAGE)
    assert "detourage: 1 page, 1 ok" in invoke("extract", str(tmp_path / "p.html"), "-m", "fulltext",
                                               "--verbose").stderr


def test_a_time_limit_message_does_not_compare_the_limit_with_itself() -> None:
    assert str(LimitExceeded("time", 0.0001, 0.0001)) == "time limit exceeded: over 0.0001 s"
    assert str(LimitExceeded("bytes", 12, 10)) == "bytes limit exceeded: 12 > 10"
    slow = b"<html><body>" + b"<div><p>text</p></div>" * 20000 + b"</body></html>"
    record = Step(settings=Settings(method="fulltext", timeout=0.0001))(Job("slow", data=slow))
    assert record["error"] == "limit:time" and "0.0001 > 0.0001" not in record["message"]


def test_cleaneval_id_without_cleaneval_format_is_refused(tmp_path: Path) -> None:
    (tmp_path / "p.html").write_bytes(PAGE)
    result = invoke("extract", str(tmp_path / "p.html"), "-m", "fulltext", "--cleaneval-id")
    assert result.exit_code == 2 and "goes with -f cleaneval" in result.stderr


def test_several_pages_on_standard_output_each_have_a_header_line(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.html").write_bytes(PAGE.replace(b"Title", name.upper().encode()))
    result = invoke("extract", str(tmp_path), "-m", "fulltext")
    assert result.stdout == "==> a <==\nA\nSome body text.\n\n==> b <==\nB\nSome body text.\n"
    one = invoke("extract", str(tmp_path / "a.html"), "-m", "fulltext")
    assert one.stdout == "A\nSome body text.\n"  # a single page is its text alone
    wrapped = invoke("extract", str(tmp_path), "-m", "fulltext", "-f", "cleaneval", "--cleaneval-id")
    assert "==>" not in wrapped.stdout and wrapped.stdout.count('<text id="') == 2


def test_the_stats_legend_is_printed_once(tmp_path: Path) -> None:
    folder = tmp_path / "ds"
    (folder / "html").mkdir(parents=True)
    (folder / "gold").mkdir()
    (folder / "html" / "a.html").write_bytes(PAGE)
    (folder / "gold" / "a.txt").write_text("<h> Title\n<p> Some body text.\n")
    (folder / "meta.jsonl").write_text('{"id": "a", "lang": "en"}\n')
    result = invoke("stats", str(folder), "-s", "raw", "-s", "gold")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("**ds: raw**") == 1 and result.stdout.count("**ds: gold**") == 1
    assert result.stdout.count(WORD_NOTE) == 1 and result.stdout.rstrip().endswith(WORD_NOTE)


def test_the_alignment_report_printed_to_a_terminal_has_no_markdown_escape() -> None:
    table = format_report([])
    assert "\\<" not in table and "coverage under 0.9" in table and "partial under 0.3 / 0.5" in table
