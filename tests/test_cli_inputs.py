"""What ``extract`` reads and where it writes, as a user gives it (issue 18 item 2)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from detourage.cli import main
from detourage.corpus import read_inputs

PAGE = b"<html><body><h1>Title</h1><p>Some body text.</p></body></html>"


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


def project(tmp_path: Path) -> Path:
    """A folder as users have them: pages beside a README and a pyproject.toml."""
    folder = tmp_path / "project"
    (folder / "sub").mkdir(parents=True)
    (folder / "index.html").write_bytes(PAGE)
    (folder / "sub" / "old.HTM").write_bytes(PAGE)
    (folder / "sub" / "page.xhtml").write_bytes(PAGE)
    (folder / "README.md").write_text("# A readme\n\nNot a page.\n")
    (folder / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (folder / "view.php").write_bytes(PAGE)
    return folder


def test_a_missing_path_is_a_usage_error_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(PAGE)
    result = invoke("extract", str(tmp_path / "a.html"), str(tmp_path / "typo.html"), "-m", "fulltext")
    assert result.exit_code == 2 and "typo.html: no such file or folder" in result.stderr
    assert "pages/s" not in result.stderr and result.stdout == ""  # nothing was extracted


def test_a_url_is_refused_with_what_to_do() -> None:
    result = invoke("extract", "https://example.org/news/1", "-m", "fulltext")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "https://example.org/news/1: a URL: detourage reads files" in result.stderr
    assert "--url" in result.stderr


def test_folders_are_read_by_extension_and_glob(tmp_path: Path) -> None:
    folder = project(tmp_path)
    assert [j.id for j in read_inputs([str(folder)])] == ["index", "sub/old", "sub/page"]
    with_php = [j.id for j in read_inputs([str(folder)], patterns=["*.php"])]
    assert with_php == ["index", "sub/old", "sub/page", "view.php"]
    out = tmp_path / "out.jsonl"
    result = invoke("extract", str(folder), "-m", "fulltext", "-o", str(out), "--glob", "*.php")
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == with_php


def test_a_file_named_is_read_whatever_its_extension(tmp_path: Path) -> None:
    (tmp_path / "page.php").write_bytes(PAGE)
    result = invoke("extract", str(tmp_path / "page.php"), "-m", "fulltext")
    assert result.exit_code == 0 and result.stdout == "Title\nSome body text.\n"


def test_a_folder_without_pages_says_what_is_read(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# notes")
    result = invoke("extract", str(tmp_path), "-m", "fulltext")
    assert result.exit_code == 2 and "no input pages found" in result.stderr and "--glob" in result.stderr


def test_an_output_folder_inside_the_input_is_not_read_back(tmp_path: Path) -> None:
    folder = project(tmp_path)
    for _ in range(2):  # the second run would find the first run's .html outputs
        result = invoke("extract", str(folder), "-m", "fulltext", "-f", "html", "-o", str(folder / "out"))
        assert result.exit_code == 0, result.output
        assert "3 pages, 3 ok" in result.stderr
    assert sorted(p.relative_to(folder / "out").as_posix() for p in (folder / "out").rglob("*.html")) == [
        "index.html", "sub/old.html", "sub/page.html"]


def test_o_with_an_extension_writes_that_file_for_one_page(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(PAGE)
    for name, fmt in [("out.txt", "txt"), ("out.json", "json"), ("page.md", "markdown")]:
        result = invoke("extract", str(tmp_path / "a.html"), "-m", "fulltext", "-f", fmt, "-o", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        assert (tmp_path / name).is_file()
    assert (tmp_path / "out.txt").read_text() == "Title\nSome body text.\n"
    assert json.loads((tmp_path / "out.json").read_text())["units"][0]["text"] == "Title"


def test_o_with_an_extension_is_refused_for_several_pages(tmp_path: Path) -> None:
    folder = project(tmp_path)
    result = invoke("extract", str(folder), "-m", "fulltext", "-o", str(tmp_path / "out.txt"))
    assert result.exit_code == 2 and "out.txt is one file, for one page; for 3 pages" in result.stderr
    assert not (tmp_path / "out.txt").exists()
