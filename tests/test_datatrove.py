"""The datatrove step: a local pipeline WarcReader → Detourage → JsonlWriter over a WARC
written here, its options, and what it counts in datatrove's stats."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("datatrove", reason="the datatrove step needs the datatrove extra")
pytest.importorskip("warcio", reason="datatrove's WarcReader needs warcio (the datatrove extra)")
try:
    import magic  # noqa: F401  (datatrove's WarcReader imports it; python-magic needs libmagic)
except ImportError as exc:  # pragma: no cover - depends on the machine's libmagic
    pytest.skip(f"datatrove's WarcReader needs python-magic with libmagic: {exc}", allow_module_level=True)

from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import WarcReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

from detourage import load  # noqa: E402
from detourage.corpusrun.readers import warc_record  # noqa: E402
from detourage.integrations import datatrove as integration  # noqa: E402
from detourage.integrations.datatrove import Detourage  # noqa: E402

STORY = ("The harbour council met on Tuesday to decide the future of the old fish market, which has stood "
         "empty since the last trawler company left the town in the spring of that year.")


def page(n: int, extra: str = "") -> bytes:
    body = "".join(f"<p>{STORY} Paragraph {k} of story {n}.</p>" for k in range(6))
    return (f"<html><head><title>Story {n} | Harbour Times</title>"
            f"<meta property='article:published_time' content='2024-05-0{n % 9 + 1}'></head><body>"
            f"<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></nav>"
            f"<article><h1>Story {n}</h1>{body}{extra}</article>"
            f"<footer>© Harbour Times · <a href='/privacy'>Privacy</a></footer></body></html>").encode("utf-8")


def write_warc(path: Path) -> None:
    """Five article responses, one of them slow (see ``slow``), one over the byte limit,
    an image response and a request record."""
    with open(path, "wb") as out:
        for n in range(5):
            extra = "<p>SLOW-PAGE marker for the test.</p>" if n == 3 else ""
            out.write(warc_record(f"http://harbour.example/story/{n}", page(n, extra), identified_type="text/html",
                                  record_id=f"<urn:test:story-{n}>"))
        big = page(9, "".join(f"<p>{STORY} Filler {k}.</p>" for k in range(400)))
        out.write(warc_record("http://harbour.example/big", big, identified_type="text/html",
                              record_id="<urn:test:big>"))
        out.write(warc_record("http://harbour.example/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64),
                              content_type="image/png", identified_type="image/png"))
        out.write(warc_record("http://harbour.example/q", b"GET / HTTP/1.1\r\n\r\n", record_type="request"))


def run_pipeline(tmp_path: Path, step: Detourage) -> tuple[list[dict], dict]:
    (tmp_path / "warc").mkdir()
    write_warc(tmp_path / "warc" / "crawl.warc.gz")
    LocalPipelineExecutor(pipeline=[WarcReader(str(tmp_path / "warc")), step,
                                    JsonlWriter(str(tmp_path / "out"), compression=None)],
                          tasks=1, logging_dir=str(tmp_path / "logs")).run()
    rows = [json.loads(line) for f in sorted((tmp_path / "out").iterdir()) for line in f.open()]
    stats = json.loads(next((tmp_path / "logs" / "stats").iterdir()).read_text())
    extractor = next(s for s in stats if "Detourage" in s["name"])["stats"]
    return rows, {k: v["total"] if isinstance(v, dict) else v for k, v in extractor.items()}


def slow(monkeypatch) -> None:
    """A page holding SLOW-PAGE sleeps 30 s in the sandbox's child (forked from this
    process, the patch included): the step's timeout must end it."""
    real = integration.render

    def render(result, *args, **kwargs):
        if "SLOW-PAGE" in result.page.html:
            time.sleep(30)
        return real(result, *args, **kwargs)

    monkeypatch.setattr(integration, "render", render)


def test_a_local_pipeline_cleans_the_warcs_html_and_counts_the_rest(tmp_path: Path, monkeypatch) -> None:
    slow(monkeypatch)
    started = time.monotonic()
    rows, stats = run_pipeline(tmp_path, Detourage(timeout=2, with_metadata=True, max_bytes=60_000))
    assert time.monotonic() - started < 25  # the slow page was cut at its timeout
    assert sorted(r["id"] for r in rows) == [f"<urn:test:story-{n}>" for n in (0, 1, 2, 4)]
    first = next(r for r in rows if r["id"] == "<urn:test:story-0>")
    assert first["text"].startswith("Story 0\n") and "Paragraph 5 of story 0." in first["text"]
    assert "Home" not in first["text"] and "Privacy" not in first["text"]
    meta = first["metadata"]
    assert meta["url"] == "http://harbour.example/story/0"  # the reader's, kept
    assert meta["title"] == "Story 0" and meta["date_published"] == "2024-05-01"
    assert stats["total"] == 6 and stats["extracted"] == 4 and stats["forwarded"] == 4
    assert stats["timeout"] == 1
    assert stats["clean_error"] == 1 and stats["limit:bytes"] == 1


def test_options_map_onto_detourage() -> None:
    markdown = Detourage(output_format="markdown", include_links=True)
    assert markdown.extract(page(1).decode()).startswith("# Story 1")
    assert markdown.settings.render.links and not markdown.settings.render.images
    precise = Detourage(favour_precision=True, include_comments=True)
    (name, options), = precise.settings.options
    assert name == "learned" and options.favor == "precision" and options.comments
    assert Detourage().settings.options == ()
    with pytest.raises(ValueError, match="favour_precision and favour_recall"):
        Detourage(favour_precision=True, favour_recall=True)
    with pytest.raises(Exception, match="unknown format 'mdown'"):
        Detourage(output_format="mdown")
    with pytest.raises(Exception, match="unknown method"):
        Detourage(method="learnd")


def test_without_datatrove_the_import_names_the_extra() -> None:
    code = ("import sys; sys.modules['datatrove'] = None\n"
            "try:\n    import detourage.integrations.datatrove\n"
            "except Exception as e:\n    print(type(e).__name__, e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("MissingExtra") and "pip install 'detourage[datatrove]'" in out


def test_settings_given_are_the_steps_own() -> None:
    import resource

    from detourage import Settings

    step = Detourage(Settings(with_metadata=True, timeout=30, max_memory=2**31))
    assert (step.timeout, step.max_memory, step.with_metadata) == (30, 2**31, True)
    assert not step.settings.with_metadata  # metadata into doc.metadata, not as front matter
    before = resource.getrlimit(resource.RLIMIT_AS)
    assert not step.extract(page(1).decode()).startswith("---")
    assert resource.getrlimit(resource.RLIMIT_AS) == before  # the ceiling is the sandbox child's only
    with pytest.raises(ValueError, match="include_links: part of the Settings given"):
        Detourage(Settings(), include_links=True)


def test_metadata_has_the_same_keys_and_types_on_every_page() -> None:
    step = Detourage(with_metadata=True)
    rich = integration._metadata(load(page(1).decode().replace(
        "<head>", "<head><meta name='author' content='Ana Ferreira'><meta name='keywords' content='a, b'>"
                  "<html lang='en'>"), settings=step.settings))
    bare = integration._metadata(load("<html><body><p>Hello there.</p></body></html>", settings=step.settings))
    assert rich.keys() == bare.keys() and "declared_language" in rich and "language" not in rich
    assert all(isinstance(v, str) for v in [*rich.values(), *bare.values()])
    assert rich["authors"] == "Ana Ferreira" and rich["tags"] == "a; b" and bare["authors"] == ""


def test_detourages_warc_reader_skips_what_a_corpus_run_skips_and_counts_it(tmp_path: Path) -> None:
    """A crawl's WARC keeps its error answers: datatrove's reader makes a 404's HTML a
    document; detourage's reads only HTML responses of status 200, counting the others
    by the corpus run's reasons."""
    (tmp_path / "warc").mkdir()
    with open(tmp_path / "warc" / "crawl.warc.gz", "wb") as out:
        out.write(warc_record("http://harbour.example/story/1", page(1), identified_type="text/html"))
        for n in (2, 3):
            out.write(warc_record(f"http://harbour.example/gone/{n}", b"<html><body><h1>Error response</h1>"
                                  b"<p>Error code: 404</p></body></html>", status=404, identified_type="text/html"))
        out.write(warc_record("http://harbour.example/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64),
                              content_type="image/png"))
        out.write(warc_record("http://harbour.example/q", b"GET / HTTP/1.1\r\n\r\n", record_type="request"))
    for reader, name in ((WarcReader, "datatrove"), (integration.WarcReader, "detourage")):
        LocalPipelineExecutor(pipeline=[reader(str(tmp_path / "warc")), Detourage(timeout=30),
                                        JsonlWriter(str(tmp_path / f"out-{name}"), compression=None)],
                              tasks=1, logging_dir=str(tmp_path / f"logs-{name}")).run()
    texts = {name: [json.loads(line)["text"] for f in (tmp_path / f"out-{name}").iterdir() for line in f.open()]
             for name in ("datatrove", "detourage")}
    assert sum("Error code: 404" in t for t in texts["datatrove"]) == 2  # what the issue saw
    assert len(texts["detourage"]) == 1 and texts["detourage"][0].startswith("Story 1\n")
    stats = json.loads(next((tmp_path / "logs-detourage" / "stats").iterdir()).read_text())
    read = next(s for s in stats if "Warc" in s["name"])["stats"]
    assert read["status:404"] == 2 and read["content-type:image/png"] == 1 and read["warc:request"] == 1
