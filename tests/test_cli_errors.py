"""A user's mistake, from any subcommand, ends in one clear line and exit status 2 (issue 18 item 1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from detourage.cli import main

PAGE = b"<html><body><h1>Title</h1><p>Some body text.</p></body></html>"


@pytest.fixture
def mistakes(tmp_path: Path) -> Path:
    """A folder of pages given where a dataset (html/ + gold/) is expected, a file that is
    no template, an existing file where a folder should be."""
    (tmp_path / "site" / "html").mkdir(parents=True)
    (tmp_path / "site" / "html" / "a.html").write_bytes(PAGE)
    (tmp_path / "notes.json.gz").write_text("not a template")
    (tmp_path / "taken").write_text("a file")
    return tmp_path


#: every subcommand with a realistic mistake (paths relative to the ``mistakes`` folder)
BAD = {
    "extract missing path": ["extract", "{d}/nope.html"],
    "extract URL in a corpus run": ["extract", "http://127.0.0.1:9/page", "-o", "{d}/run", "--to", "parquet"],
    "fetch not a .warc.gz": ["fetch", "http://127.0.0.1:9/page", "-o", "{d}/out.warc"],
    "extract onto a file": ["extract", "{d}/site/html", "-m", "fulltext", "-o", "{d}/taken"],
    "extract wrong model": ["extract", "{d}/site/html", "-m", "victor", "--model", "{d}/notes.json.gz"],
    "evaluate not a dataset": ["evaluate", "{d}/site/html", "-m", "fulltext", "-o", "{d}/ev"],
    "stats not a dataset": ["stats", "{d}/site/html"],
    "train ncleaner not a dataset": ["train", "ncleaner", "{d}/site/html", "-o", "{d}/m.json.gz"],
    "train victor not a dataset": ["train", "victor", "{d}/site/html", "-o", "{d}/m.zip"],
    "train learned not a dataset": ["train", "learned", "{d}/site/html", "-o", "{d}/m.zip"],
    "crossval victor not a dataset": ["crossval", "victor", "{d}/site/html"],
    "anno not a dataset": ["anno", "{d}/site/html", "-o", "{d}/annos"],
    "template fit missing path": ["template", "fit", "{d}/nope", "-o", "{d}/t.json.gz"],
    "template fit unwritable": ["template", "fit", "{d}/site/html", "-o", "{d}/taken/t.json.gz"],
    "template show not a template": ["template", "show", "{d}/notes.json.gz"],
    "methods extra argument": ["methods", "extra"],
    "ui missing path": ["ui", "{d}/nope", "--port", "0"],
}


def assert_refused(result, *names: str) -> None:  # type: ignore[no-untyped-def]
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    error_lines = [line for line in result.stderr.splitlines() if "rror: " in line]
    assert len(error_lines) == 1, result.stderr
    for name in names:
        assert name in error_lines[0]


@pytest.mark.parametrize("case", list(BAD))
def test_every_subcommand_refuses_a_mistake_in_one_line(case: str, mistakes: Path) -> None:
    args = [a.format(d=mistakes) for a in BAD[case]]
    assert_refused(CliRunner().invoke(main, args))


def test_the_cases_cover_every_subcommand() -> None:
    def leaves(group, prefix=()):  # type: ignore[no-untyped-def]
        for name, command in group.commands.items():
            if hasattr(command, "commands"):
                yield from leaves(command, (*prefix, name))
            else:
                yield " ".join((*prefix, name))

    def command_of(args: list[str]) -> str:
        words = []
        for arg in args:
            if arg.startswith(("{", "-", "http")):
                break
            words.append(arg)
        return " ".join(words[:2] if words[0] in main.commands and hasattr(main.commands[words[0]], "commands")
                        else words[:1])

    assert set(leaves(main)) == {command_of(args) for args in BAD.values()}


def test_a_dataset_error_names_the_folder(mistakes: Path) -> None:
    result = CliRunner().invoke(main, ["stats", str(mistakes / "site" / "html")])
    assert_refused(result, "site/html", "not a dataset")
    assert result.stderr.startswith("detourage: error: ")


def test_an_existing_file_as_output_folder_is_refused_before_the_run(mistakes: Path) -> None:
    result = CliRunner().invoke(main, ["extract", str(mistakes / "site" / "html"), "-m", "fulltext",
                                       "-o", str(mistakes / "taken")])
    assert_refused(result, "taken", "a file, not a folder")
    assert "pages/s" not in result.stderr  # refused before any page was read
    assert (mistakes / "taken").read_text() == "a file"


def test_template_fit_without_the_site_extra_says_what_to_install(mistakes: Path) -> None:
    # scikit-learn made unimportable, as in an install without the site extra
    code = ("import sys; sys.modules['sklearn'] = None; from detourage.cli import main; "
            "main(['template', 'fit', sys.argv[1], sys.argv[2], '-o', sys.argv[3]])")
    (mistakes / "site" / "html" / "b.html").write_bytes(PAGE.replace(b"Title", b"Other"))
    done = subprocess.run([sys.executable, "-c", code, str(mistakes / "site" / "html" / "a.html"),
                           str(mistakes / "site" / "html" / "b.html"), str(mistakes / "t.json.gz")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "site extra" in lines[0] and "pip install" in lines[0], lines


def test_ui_without_the_ui_extra_says_what_to_install(mistakes: Path) -> None:
    # werkzeug made unimportable, as in an install without the ui extra
    code = ("import sys; sys.modules['werkzeug'] = None; sys.modules['werkzeug.serving'] = None; "
            "from detourage.cli import main; main(['ui', sys.argv[1]])")
    done = subprocess.run([sys.executable, "-c", code, str(mistakes / "site" / "html" / "a.html")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "ui extra" in lines[0] and "pip install 'detourage[ui]'" in lines[0], lines


def test_ui_on_a_port_in_use_is_one_line(mistakes: Path) -> None:
    pytest.importorskip("werkzeug", reason="the ui extra is not installed")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["ui", str(mistakes / "site" / "html" / "a.html"), "-p", str(port)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and f"cannot listen on 127.0.0.1:{port}" in lines[0] and "-p" in lines[0], lines
