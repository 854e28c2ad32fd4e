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


def test_a_url_that_cannot_be_fetched_is_refused_saying_why() -> None:
    result = invoke("extract", "http://127.0.0.1:9/news/1", "-m", "fulltext", "--allow-private")  # port 9: nothing listens
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "http://127.0.0.1:9/news/1: error:ConnectError" in result.stderr


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
    assert json.loads((tmp_path / "out.json").read_text())["text"] == "Title\nSome body text.\n"


def test_o_with_an_extension_is_refused_for_several_pages(tmp_path: Path) -> None:
    folder = project(tmp_path)
    result = invoke("extract", str(folder), "-m", "fulltext", "-o", str(tmp_path / "out.txt"))
    assert result.exit_code == 2 and "out.txt is one file, for one page; for 3 pages" in result.stderr
    assert not (tmp_path / "out.txt").exists()


def test_same_stem_pages_get_unique_ids_and_outputs(tmp_path: Path) -> None:
    """Issue 31 item 13: ``a.html``, ``a.html.gz`` and ``a.htm`` of one folder were all
    ``a`` and overwrote each other; they keep their whole names, the others do not change."""
    import gzip

    folder = tmp_path / "pages"
    (folder / "sub").mkdir(parents=True)
    for name, data in {"a.html": PAGE.replace(b"Title", b"First"), "a.htm": PAGE.replace(b"Title", b"Second"),
                       "a.html.gz": gzip.compress(PAGE.replace(b"Title", b"Third")), "b.html": PAGE,
                       "sub/a.html": PAGE}.items():
        (folder / name).write_bytes(data)
    ids = [j.id for j in read_inputs([str(folder)])]
    assert ids == ["a.htm", "a.html", "a.html.gz", "b", "sub/a"]
    out = tmp_path / "out"
    result = invoke("extract", str(folder), "-m", "fulltext", "-o", str(out))
    assert result.exit_code == 0, result.output
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.txt"))
    assert written == ["a.htm.txt", "a.html.gz.txt", "a.html.txt", "b.txt", "sub/a.txt"]
    assert [(out / f).read_text().split("\n")[0] for f in written[:3]] == ["Second", "Third", "First"]
    lines = tmp_path / "out.jsonl"
    assert invoke("extract", str(folder), "-m", "fulltext", "-o", str(lines)).exit_code == 0
    assert [json.loads(line)["id"] for line in lines.read_text().splitlines()] == ids


def test_the_same_name_in_two_folders_gets_a_numbered_id(tmp_path: Path) -> None:
    for folder in ("x", "y"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "page.html").write_bytes(PAGE)
    ids = [j.id for j in read_inputs([str(tmp_path / "x"), str(tmp_path / "y"), str(tmp_path / "x" / "page.html")])]
    assert ids == ["page.html", "page.html~2", "page.html~3"]


def test_the_writer_never_overwrites_a_page_of_the_run(tmp_path: Path) -> None:
    """Records that repeat an id (read_inputs gives unique ones; other sources may not)."""
    from detourage.corpus import Writer

    writer = Writer(str(tmp_path / "out"), "txt")
    for page_id, text in (("a", "one\n"), ("a", "two\n"), ("a~2", "three\n")):
        writer.write({"id": page_id, "ok": True, "text": text})
    writer.close()
    got = {p.name: p.read_text() for p in (tmp_path / "out").iterdir()}
    assert got == {"a.txt": "one\n", "a~2.txt": "two\n", "a~2~2.txt": "three\n"}
