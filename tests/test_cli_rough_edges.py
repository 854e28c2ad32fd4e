"""The rough edges a new user met in their first week (issue 42 §3), each as the user
typed it: JSON that leads with the text, corpus runs with the metadata's columns,
``--urls`` with one meaning, an empty page, a run folder left tidy, ``-v``, the HTML
output's title."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from detourage.cli import main
from detourage.cli.main import size_text
from detourage.corpusrun import rows
from detourage.corpusrun.readers import warc_record

ARTICLE = (b"<html><head><title>Mills of the valley | The Courier</title>"
           b"<meta name='author' content='Ana Ferreira'>"
           b"<meta property='article:published_time' content='2024-06-14'>"
           b"<meta property='article:tag' content='history'><meta property='article:tag' content='rivers'>"
           b"</head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
           b"<article><h1>Mills of the valley</h1>"
           + b"<p>Thirty volunteers walked twelve miles of the valley looking for the remains of its mills.</p>" * 4
           + b"</article><footer>Copyright The Courier</footer></body></html>")


def invoke(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input)


# ---------------------------------------------------------------- -f json: the text first

def test_json_leads_with_the_text_and_gives_the_blocks_only_when_asked(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(ARTICLE)
    record = json.loads(invoke("extract", str(tmp_path / "a.html"), "-f", "json").stdout)
    assert list(record)[2:6] == ["url", "title", "text", "metadata"]  # after the run's id and ok
    assert record["text"].startswith("Mills of the valley\nThirty volunteers") and "Home" not in record["text"]
    assert record["title"] == "Mills of the valley" and record["metadata"]["authors"] == ["Ana Ferreira"]
    assert "blocks" not in record and "units" not in record
    full = json.loads(invoke("extract", str(tmp_path / "a.html"), "-f", "json", "--with-blocks").stdout)
    assert full["text"] == record["text"] and any(b["text"] == "Home" for b in full["blocks"])
    assert len(json.dumps(record)) < len(json.dumps(full))
    refused = invoke("extract", str(tmp_path / "a.html"), "--with-blocks")
    assert refused.exit_code == 2 and "-f json" in refused.output


def test_json_lines_records_lead_as_the_json_record_does(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(ARTICLE)
    invoke("extract", str(tmp_path / "a.html"), "-o", str(tmp_path / "out.jsonl"))
    line = json.loads((tmp_path / "out.jsonl").read_text())
    json_record = json.loads(invoke("extract", str(tmp_path / "a.html"), "-f", "json").stdout)
    assert list(line)[:5] == ["id", "ok", "url", "title", "text"]
    assert line["title"] == json_record["title"] and line["text"] == json_record["text"]


# ---------------------------------------------------------------- the HTML output's title

def test_the_html_title_is_the_metadata_title_without_the_site_name(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(ARTICLE)
    html = invoke("extract", str(tmp_path / "a.html"), "-f", "html").stdout
    assert "<title>Mills of the valley</title>" in html


# ---------------------------------------------------------------- an empty page

def test_an_empty_file_is_a_page_with_no_text_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty.html").write_bytes(b"")
    result = invoke("extract", str(tmp_path / "empty.html"))
    assert result.exit_code == 4 and result.stdout == ""
    assert "1 page, 0 ok, 1 with no text, 0 failed" in result.stderr
    (tmp_path / "a.html").write_bytes(ARTICLE)
    both = invoke("extract", str(tmp_path / "empty.html"), str(tmp_path / "a.html"), "-o", str(tmp_path / "o.jsonl"))
    assert both.exit_code == 0 and "2 pages, 1 ok, 1 with no text, 0 failed" in both.stderr
    assert all("empty" not in json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines())


def test_v_is_verbose_and_q_quiet(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(ARTICLE)
    loud = invoke("extract", str(tmp_path / "a.html"), "-v")
    assert loud.exit_code == 0 and "1 page, 1 ok, 0 failed" in loud.stderr
    (tmp_path / "empty.html").write_bytes(b"")
    quiet = invoke("extract", str(tmp_path / "a.html"), str(tmp_path / "empty.html"), "-q")
    assert quiet.exit_code == 0 and quiet.stderr == ""


# ---------------------------------------------------------------- --urls: one meaning

def test_urls_is_a_list_of_urls_and_the_old_map_names_url_map(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(ARTICLE)
    (tmp_path / "map.jsonl").write_text('{"id": "a", "url": "https://courier.example/mills"}\n')
    old = invoke("extract", str(tmp_path / "a.html"), "--urls", str(tmp_path / "map.jsonl"))
    assert old.exit_code == 2 and len(old.stderr.splitlines()) == 1 and "--url-map" in old.stderr
    fit = invoke("template", "fit", str(tmp_path), "--urls", str(tmp_path / "map.jsonl"), "-o", str(tmp_path / "t.gz"))
    assert fit.exit_code == 2 and len(fit.stderr.splitlines()) == 1 and "--url-map" in fit.stderr
    mapped = invoke("extract", str(tmp_path / "a.html"), "--url-map", str(tmp_path / "map.jsonl"), "-f", "json")
    assert mapped.exit_code == 0 and json.loads(mapped.stdout)["url"] == "https://courier.example/mills"
    (tmp_path / "list.txt").write_text("# nothing here but a comment\n")
    nothing = invoke("extract", "--urls", str(tmp_path / "list.txt"))
    assert nothing.exit_code == 2 and "nothing to extract" in nothing.output


# ---------------------------------------------------------------- corpus runs

def write_warc(path: Path) -> None:
    with open(path, "wb") as out:
        out.write(warc_record("https://courier.example/mills", ARTICLE))
        out.write(warc_record("https://courier.example/gone", b"<html><body><h1>Error code: 404</h1></body></html>",
                              status=404))


@pytest.mark.parametrize("to", ["parquet", "jsonl"])
def test_a_corpus_run_with_metadata_has_its_columns(tmp_path: Path, to: str) -> None:
    if to == "parquet":
        pytest.importorskip("pyarrow", reason="Parquet needs the corpus extra (pyarrow)")
    write_warc(tmp_path / "crawl.warc.gz")
    result = invoke("extract", str(tmp_path / "crawl.warc.gz"), "-o", str(tmp_path / "run"), "--to", to,
                    "--with-metadata")
    assert result.exit_code == 0, result.output
    (row,) = rows(tmp_path / "run")
    assert row["title"] == "Mills of the valley" and row["authors"] == ["Ana Ferreira"]
    assert row["tags"] == ["history", "rivers"] and row["canonical_url"] == "https://courier.example/mills"
    assert row["date_published"] == (datetime.date(2024, 6, 14) if to == "parquet" else "2024-06-14")
    assert row["url"] == "https://courier.example/mills" and "Thirty volunteers" in row["text"]
    assert not row["text"].startswith("---")  # columns, not front matter
    if to == "parquet":
        import pyarrow.parquet as pq

        schema = pq.read_schema(next((tmp_path / "run" / "shards").glob("*.parquet")))
        assert str(schema.field("authors").type) == "list<element: string>"
        assert str(schema.field("date_published").type) == "date32[day]"
    again = invoke("extract", str(tmp_path / "crawl.warc.gz"), "-o", str(tmp_path / "run"), "--to", to, "--resume")
    assert again.exit_code == 2 and "--with-metadata" in again.output  # resumed with other columns: refused


def test_a_finished_run_folder_is_tidy(tmp_path: Path) -> None:
    write_warc(tmp_path / "crawl.warc.gz")
    result = invoke("extract", str(tmp_path / "crawl.warc.gz"), "-o", str(tmp_path / "run"), "--to", "jsonl")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "run" / ".lock").exists()
    for name in ("summary.txt", "summary.json"):
        assert (tmp_path / "run" / name).read_bytes().endswith(b"\n")
    plain = [row for row in rows(tmp_path / "run")]
    assert "authors" not in plain[0]  # without --with-metadata: the columns of before
    resumed = invoke("extract", str(tmp_path / "crawl.warc.gz"), "-o", str(tmp_path / "run"), "--to", "jsonl",
                     "--resume")
    assert resumed.exit_code == 0 and "1/1 shard done" in resumed.stderr
    assert "this session: 1 shard, " in result.stderr and "1 shards" not in result.stderr + resumed.stderr


def test_a_run_summary_counts_one_of_a_thing_in_the_singular() -> None:
    from detourage.corpusrun import RunSummary

    one = str(RunSummary("run", shards=1, done=1, records=1, rows=1, ok=1, session_shards=1, session_rows=1,
                         unread=["shards/0"]))
    assert "1/1 shard done, 1 record: 1 HTML page → 1 ok" in one and "this session: 1 shard, 1 page in" in one
    assert "1 record = 1 row + 0 skipped" in one and "; 1 shard could not be read" in one
    assert "0/2 shards done, 0 records: 0 HTML pages" in str(RunSummary("run", shards=2))


# ---------------------------------------------------------------- sizes people read

def test_sizes_are_written_as_people_read_them() -> None:
    assert [size_text(n) for n in (1, 812, 8_700, 2_694, 1_234_567, 3_400_000_000)] == \
        ["1 byte", "812 bytes", "8.7 KB", "2.7 KB", "1.2 MB", "3.4 GB"]
