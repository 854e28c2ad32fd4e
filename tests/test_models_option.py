"""Trained models given to methods, from the command line and the library (issue 18 item 3)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

import detourage
from detourage.api import with_models
from detourage.cli import main
from detourage.errors import DetourageError, UnknownMethod

DATA = resources.files("detourage").joinpath("data")
NCLEANER = str(DATA / "ncleaner-default.json.gz")
NCLEANER_NL = str(DATA / "ncleaner-nonlexical.json.gz")
VICTOR = str(DATA / "victor-default.zip")
PAGE = b"<html><body><h1>Title</h1><p>Some body text, a sentence long enough to keep.</p></body></html>"


@pytest.mark.parametrize("method, model, expected", [
    ("ncleaner", VICTOR, "not an NCleaner model for ncleaner: it is a Victor model"),
    ("victor", NCLEANER, "not a Victor model for victor: it is an NCleaner model"),
    ("learned", VICTOR, "not a learned-extractor model for learned: it is a Victor model"),
    ("learned", NCLEANER, "not a learned-extractor model for learned: it is an NCleaner model"),
])
def test_a_model_of_another_method_is_named(method: str, model: str, expected: str) -> None:
    with pytest.raises(DetourageError, match=expected):
        with_models(method, model)


def test_a_missing_model_says_what_was_expected(tmp_path: Path) -> None:
    with pytest.raises(DetourageError, match="no such file .expected a Victor model, written by "
                                             "`detourage train victor`"):
        with_models("victor", str(tmp_path / "victor.zip"))


def test_a_file_no_method_reads_says_why(tmp_path: Path) -> None:
    (tmp_path / "notes.zip").write_text("hello")
    with pytest.raises(DetourageError, match="not a Victor model for victor: ModelError"):
        with_models("victor", str(tmp_path / "notes.zip"))


def test_each_step_of_a_chain_gets_its_own_model() -> None:
    options = with_models("ncleaner+victor", {"ncleaner": NCLEANER_NL, "victor": VICTOR})
    assert options["ncleaner"].model == NCLEANER_NL and options["victor"].model == VICTOR
    with pytest.raises(DetourageError, match="it is a Victor model"):  # each checked against its step
        with_models("ncleaner+victor", {"ncleaner": VICTOR, "victor": VICTOR})
    with pytest.raises(UnknownMethod, match="no step of 'ncleaner\\+victor' named 'baseline'"):
        with_models("ncleaner+victor", {"baseline": NCLEANER})
    with pytest.raises(UnknownMethod, match="no method of 'fulltext' takes a model"):
        with_models("fulltext", NCLEANER)


def test_a_variant_takes_its_methods_model_by_the_methods_name() -> None:
    options = with_models("ncleaner-nl", {"ncleaner": NCLEANER_NL})
    assert options["ncleaner-nl"].model == NCLEANER_NL and options["ncleaner-nl"].nonlexical


def test_the_library_takes_a_model() -> None:
    given = detourage.extract(PAGE, method="ncleaner", model=NCLEANER)
    assert given == detourage.extract(PAGE, method="ncleaner")  # the shipped model, named
    assert detourage.document(PAGE, method="ncleaner", model=NCLEANER).text == given
    with pytest.raises(DetourageError, match="it is a Victor model"):
        detourage.extract(PAGE, method="ncleaner", model=VICTOR)


def test_extract_of_none_is_a_clear_type_error() -> None:
    with pytest.raises(TypeError, match="a page is given as bytes .* or str, not NoneType"):
        detourage.extract(None)  # type: ignore[arg-type]
    assert detourage.extract(bytearray(b"<p>x</p>"), method="fulltext") == "x\n"


def test_the_command_line_refuses_a_wrong_model_once_up_front(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"p{i}.html").write_bytes(PAGE)
    result = CliRunner().invoke(main, ["extract", str(tmp_path), "-m", "ncleaner", "--model", VICTOR])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("it is a Victor model") == 1 and "pages/s" not in result.stderr


def test_the_command_line_gives_each_step_its_model(tmp_path: Path) -> None:
    (tmp_path / "p.html").write_bytes(PAGE)
    result = CliRunner().invoke(main, ["extract", str(tmp_path / "p.html"), "-m", "ncleaner+victor",
                                       "--model", f"ncleaner={NCLEANER}", "--model", f"victor={VICTOR}"])
    assert result.exit_code == 0, result.output
    mixed = CliRunner().invoke(main, ["extract", str(tmp_path / "p.html"), "-m", "ncleaner+victor",
                                      "--model", NCLEANER, "--model", f"victor={VICTOR}"])
    assert mixed.exit_code == 2 and "one FILE for every step, or STEP=FILE for each" in mixed.stderr
