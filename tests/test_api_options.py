"""Render options given typed or as keywords, refused by name when unknown; models
attached one way, checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import detourage
from detourage.cli import main
from detourage.errors import DetourageError, UnknownOption

PAGE = "<html><body><h1>Harbour</h1><p>The council met. See <a href='/report'>the report</a>.</p></body></html>"


def test_an_unknown_render_keyword_is_named_with_the_valid_ones() -> None:
    with pytest.raises(UnknownOption) as info:
        detourage.extract(PAGE, lnks=True)
    message = str(info.value)
    assert "lnks" in message and "links" in message and "with_metadata" in message
    assert isinstance(info.value, DetourageError) and isinstance(info.value, TypeError)
    with pytest.raises(UnknownOption, match="url_line"):
        detourage.document(PAGE, url_line=True)  # a CleanEval option, not txt's


def test_render_options_typed_or_as_keywords() -> None:
    url = "https://gazette.example/2026/harbour.html"
    typed = detourage.extract(PAGE, "fulltext", "markdown", url=url, render=detourage.RenderOptions(links=True))
    keywords = detourage.extract(PAGE, "fulltext", "markdown", url=url, links=True)
    assert "[the report](https://gazette.example/report)" in typed and typed == keywords
    # a keyword given beside the object wins
    assert "[the report]" not in detourage.extract(PAGE, "fulltext", "markdown", url=url,
                                                   render=detourage.RenderOptions(links=True), links=False)
    with pytest.raises(UnknownOption, match="RenderOptions"):
        detourage.extract(PAGE, render={"links": True})  # type: ignore[arg-type]


def test_evaluate_checks_its_model_as_extract_does(tmp_path: Path) -> None:
    bogus = tmp_path / "model.zip"
    bogus.write_bytes(b"not a model")
    gold = tmp_path / "set"
    (gold / "html").mkdir(parents=True)
    (gold / "gold").mkdir()
    (gold / "html" / "1.html").write_text(PAGE)
    (gold / "gold" / "1.txt").write_text("Harbour\nThe council met.\n")
    result = CliRunner().invoke(main, ["evaluate", str(gold), "-m", "learned", "--model", str(bogus),
                                       "-o", str(tmp_path / "ev")])
    assert result.exit_code == 2, result.output
    assert f"--model {bogus}: not a learned-extractor model for learned" in result.output


def test_settings_described_as_json() -> None:
    from detourage.methods.learned import Options as LearnedOptions

    settings = detourage.Settings(method="learned", timeout=5, repair=True,
                                  options=(("learned", LearnedOptions(model="my.zip", comments=True)),))
    described = settings.described()
    assert described["options"] == {"learned": {"model": "my.zip", "comments": True}}
    assert described["timeout"] == 5 and described["repair"] is True and described["method"] == "learned"
    assert "repair" not in detourage.Settings().described()
    assert settings.with_options({"learned": LearnedOptions()}).described()["options"] == {"learned": {}}


@pytest.mark.parametrize("flags, message", [
    (["-w", "-1"], "-1 is not in the range x>=0"), (["--timeout", "-5"], "-5.0 is not in the range x>=0"),
    (["--max-bytes", "0"], "0 is not in the range x>=1"), (["-m", "learnd"], "did you mean 'learned'?")])
def test_impossible_flags_and_a_mistyped_method_are_refused(flags, message, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE)
    result = CliRunner().invoke(main, ["extract", str(page), *flags])
    assert result.exit_code == 2 and message in result.output, result.output


@pytest.mark.parametrize("command", ["extract", "evaluate"])
def test_a_peer_whose_library_is_missing_is_refused_up_front(command, tmp_path: Path, monkeypatch) -> None:
    from detourage.methods import peers

    monkeypatch.setattr(peers, "installed", lambda name: name != "peer-readability")
    page = tmp_path / "set" / "html" / "1.html"
    page.parent.mkdir(parents=True)
    page.write_text(PAGE)
    (tmp_path / "set" / "gold").mkdir()
    (tmp_path / "set" / "gold" / "1.txt").write_text("Harbour\n")
    target = str(page) if command == "extract" else str(tmp_path / "set")
    result = CliRunner().invoke(main, [command, target, "-m", "peer-readability", "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "peer-readability needs the peers extra: pip install" in result.output


def test_the_output_format_follows_the_file_s_extension_unless_contradicted(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE)
    result = CliRunner().invoke(main, ["extract", str(page), "-m", "fulltext", "-o", str(tmp_path / "out.md")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out.md").read_text().startswith("# Harbour")
    refused = CliRunner().invoke(main, ["extract", str(page), "-o", str(tmp_path / "other.md"), "-f", "txt"])
    assert refused.exit_code == 2 and "names markdown by its extension" in refused.output
    assert not (tmp_path / "other.md").exists()
    same = CliRunner().invoke(main, ["extract", str(page), "-m", "fulltext", "-o", str(tmp_path / "c.txt"),
                                     "-f", "cleaneval"])
    assert same.exit_code == 0 and (tmp_path / "c.txt").read_text().startswith("<h>")


def test_json_lines_records_carry_the_url_and_the_title(tmp_path: Path) -> None:
    import json

    page = tmp_path / "page.html"
    page.write_text("<html><head><title>Harbour plan - The Gazette</title></head><body>" + PAGE[12:])
    result = CliRunner().invoke(main, ["extract", str(page), "-m", "fulltext", "-o", str(tmp_path / "out.jsonl"),
                                       "--url", "https://gazette.example/harbour"])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "out.jsonl").read_text().splitlines()[0])
    assert record["url"] == "https://gazette.example/harbour" and record["title"] == "Harbour"  # the headline the <title> and the <h1> share
    assert {"id", "ok", "text", "encoding", "ms"} <= record.keys()


def test_evaluate_on_a_snippet_only_dataset_shows_its_snippet_score(tmp_path: Path) -> None:
    import json

    dataset = tmp_path / "snips"
    (dataset / "html").mkdir(parents=True)
    (dataset / "gold").mkdir()
    for i in range(2):
        (dataset / "html" / f"{i}.html").write_text(PAGE)
        (dataset / "gold" / f"{i}.json").write_text(json.dumps({"with": ["The council met."],
                                                                "without": ["Nowhere to be seen"]}))
    result = CliRunner().invoke(main, ["evaluate", str(dataset), "-m", "fulltext", "-o", str(tmp_path / "ev"),
                                       "--bootstrap", "10"])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if line.startswith("| fulltext"))
    assert "100.00" in row  # the snippet F1, where every score of text gold is "–"
    report = (tmp_path / "ev" / "report.md").read_text()
    headline = next(line for line in report.splitlines() if line.startswith("| fulltext | 2 |"))
    assert headline.startswith("| fulltext | 2 | 2 |") and "| 100.00 |" in headline


def test_settings_given_whole_or_built_from_keywords() -> None:
    """``settings=`` is the one options object; the keywords build the same one."""
    url = "https://gazette.example/2026/harbour.html"
    settings = detourage.Settings(method="fulltext", render=detourage.RenderOptions(links=True))
    assert (detourage.extract(PAGE, format="markdown", url=url, settings=settings)
            == detourage.extract(PAGE, "fulltext", "markdown", url=url, links=True))
    page = detourage.load(PAGE, settings=settings)
    texts = lambda result: [u.text for u in result.units]  # noqa: E731
    assert texts(detourage.run(page, settings=settings)) == texts(detourage.run(detourage.load(PAGE), "fulltext"))
    assert detourage.document(PAGE, settings=settings).text == detourage.extract(PAGE, "fulltext", links=True)
    assert detourage.extract(PAGE, format="cleaneval", url_line=True, url=url,  # a format's own keyword
                             settings=settings).startswith("URL:")


def test_a_keyword_beside_settings_is_refused_by_name() -> None:
    settings = detourage.Settings(method="fulltext")
    for keywords in ({"links": True}, {"repair": True}, {"limits": detourage.Limits(max_bytes=10)},
                     {"options": {}}, {"method": "baseline"}):
        name = next(iter(keywords))
        with pytest.raises(UnknownOption, match=name):
            detourage.extract(PAGE, settings=settings, **keywords)  # type: ignore[arg-type]
    with pytest.raises(UnknownOption, match="repair"):
        detourage.load(PAGE, settings=settings, repair=True)
    with pytest.raises(UnknownOption, match="options"):
        detourage.run(detourage.load(PAGE), options={}, settings=settings)
