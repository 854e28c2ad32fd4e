"""Issue 44, items 1, 5 and 7: what a corpus run reads may be hostile, and one bad record
costs only itself, counted with a reason.

- A JSON line nested 1 000 levels deep (before: ``RecursionError`` out of ``json.loads``,
  traceback, exit 1, 0 of 30 records written, and ``--resume`` crashed the same way).
- A JSON line too long to hold a page within ``--max-bytes`` (before: the reader's own
  limit was 256 MiB whatever ``--max-bytes`` said, and a 250 MiB line peaked at 1.2 GiB
  before it ended as ``limit:bytes``; the peak itself is measured by
  ``benchmarks/bad_inputs.py --corpus-only``).

Every input is built here; every run is checked for ``records = rows + skipped``."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

pytest.importorskip("pyarrow", reason="the corpus extra (pyarrow) is not installed")
pytest.importorskip("py3langid", reason="the corpus extra (py3langid) is not installed")

from click.testing import CliRunner  # noqa: E402

from detourage.cli import main  # noqa: E402
from detourage.corpus import Job, with_urls  # noqa: E402
from detourage.corpusrun import RunConfig, Request, readers, rows, run  # noqa: E402
from detourage.errors import DatasetError  # noqa: E402
from detourage.parse import Limits  # noqa: E402
from detourage.settings import Settings  # noqa: E402

TEXT = "The committee met on Tuesday to discuss the new budget for the public library of the town."
DEEP = 1_000


def html(n: int) -> str:
    return f"<html><head><title>Page {n}</title></head><body><article><p>{TEXT} ({n})</p></article></body></html>"


def nested(depth: int = DEEP) -> str:
    return "[" * depth + "]" * depth


def lines_with_nested(count: int = 30) -> list[str]:
    """``count`` good lines but two: one nested in an extra field, one whose ``"id"``
    is nested (the planner reads the ids: it meets it first)."""
    lines = [json.dumps({"url": f"http://j.example/{n}", "html": html(n)}) for n in range(count)]
    lines[7] = f'{{"url": "http://j.example/7", "html": "<p>seven</p>", "extra": {nested()}}}'
    lines[19] = f'{{"id": {nested()}, "url": "http://j.example/19", "html": "<p>nineteen</p>"}}'
    return lines


def accounted(summary) -> None:  # type: ignore[no-untyped-def]
    assert summary.records == summary.rows + sum(summary.skipped.values()) and summary.balanced


def cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["extract", *args])


# --- 1: a JSON line nested too deep ------------------------------------------------------

@pytest.mark.parametrize("name", ["nested.jsonl", "nested.jsonl.gz"])
def test_a_deeply_nested_json_line_costs_only_itself_and_resume_works(tmp_path: Path, name: str) -> None:
    data = ("\n".join(lines_with_nested()) + "\n").encode()
    (tmp_path / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    out = tmp_path / "run"
    done = cli(str(tmp_path / name), "-o", str(out), "--to", "jsonl", "--shard-size", "4")
    assert done.exit_code == 0, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
    saved = json.loads((out / "summary.json").read_text())
    assert saved["balanced"] and saved["records"] == 30
    assert saved["rows"] == saved["ok"] == 28 and saved["skipped"] == {"jsonl:too-deep": 2}
    urls = [r["url"] for r in rows(out)]
    assert urls == [f"http://j.example/{n}" for n in range(30) if n not in (7, 19)]
    for marker in (out / "markers").glob("part-0000[135].done"):  # three shards to run again
        marker.unlink()
    again = cli(str(tmp_path / name), "-o", str(out), "--to", "jsonl", "--shard-size", "4", "--resume")
    assert again.exit_code == 0, again.output
    assert json.loads((out / "summary.json").read_text())["skipped"] == {"jsonl:too-deep": 2}
    assert [r["url"] for r in rows(out)] == urls


def test_the_json_line_parsers_never_raise_on_depth() -> None:
    for depth in (DEEP, 100_000):
        line = f'{{"html": "<p>x</p>", "x": {nested(depth)}}}\n'.encode()
        assert readers.jsonl_item(line, 0, "f.jsonl") == "jsonl:too-deep"
        assert readers.jsonl_row(line) is None
    assert readers.jsonl_item(b'{"html": 1}\n', 0, "f.jsonl") == "jsonl:bad-line"
    cut = readers.jsonl_item(b'{"html": "<p>cut', 9, "f.jsonl")
    assert isinstance(cut, readers.Damage) and cut.reason == "jsonl:truncated"


def test_a_nested_urls_line_is_a_dataset_error_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "urls.jsonl").write_text('{"id": "a", "url": "http://x.example/a"}\n'
                                         f'{{"id": "b", "url": {nested()}}}\n')
    with pytest.raises(DatasetError, match=r"urls.jsonl:2: .*nested deeper"):
        with_urls([Job(id="a", path="a.html")], str(tmp_path / "urls.jsonl"))
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "a.html").write_text(html(1))
    done = cli(str(tmp_path / "pages"), "--urls", str(tmp_path / "urls.jsonl"), "-o", str(tmp_path / "o.jsonl"))
    assert done.exit_code == 2 and "nested deeper" in done.output


# --- 7: a JSON line too long for the page limit ------------------------------------------------

def escaped(text: str) -> str:
    """A JSON line whose page is ``text``, every non-ASCII character written ``\\uXXXX``."""
    return json.dumps({"url": "http://j.example/escaped", "html": text}, ensure_ascii=True)


def test_a_line_is_refused_by_the_page_limit_not_a_fixed_one(tmp_path: Path) -> None:
    """Before: the line limit was 256 MiB whatever --max-bytes said: a line of 3 MiB under
    --max-bytes 1000000 was read whole, parsed, and ended as a limit:bytes row.  A line
    longer still whose page fits, its characters escaped, is read."""
    big = json.dumps({"url": "http://j.example/big", "html": "<p>" + "a" * (3 << 20) + "</p>"})
    cyrillic = "<p>" + "Привет, мир! " * 40_000 + "</p>"  # 2.5 MB of JSON for a 0.9 MB page
    lines = [json.dumps({"url": "http://j.example/0", "html": html(0)}), big, escaped(cyrillic),
             json.dumps({"url": "http://j.example/3", "html": html(3)})]
    assert len(cyrillic.encode()) < 1_000_000 and len(escaped(cyrillic)) > 1_000_000 + (1 << 20)  # + LINE_ROOM
    (tmp_path / "long.jsonl").write_text("\n".join(lines) + "\n")
    settings = Settings(timeout=30, limits=Limits(max_bytes=1_000_000))
    summary = run(Request(paths=(str(tmp_path / "long.jsonl"),), shard_records=2,
                          config=RunConfig(folder=str(tmp_path / "run"), to="jsonl", settings=settings)))
    accounted(summary)
    assert dict(summary.skipped) == {"jsonl:too-long": 1} and summary.rows == summary.ok == 3
    got = rows(tmp_path / "run")
    assert [r["url"] for r in got] == ["http://j.example/0", "http://j.example/escaped", "http://j.example/3"]
    assert "Привет, мир!" in got[1]["text"]


def test_a_long_line_is_read_past_in_chunks_never_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader holds at most what a page within the limit may take, plus one chunk."""
    monkeypatch.setattr(readers, "LINE_CHUNK", 1000)
    monkeypatch.setattr(readers, "LINE_ROOM", 500)
    long = json.dumps({"html": "x" * 50_000}) + "\n"
    path = tmp_path / "l.jsonl"
    path.write_text(json.dumps({"html": "<p>a</p>"}) + "\n" + long + "\n" + json.dumps({"html": "<p>b</p>"}))
    held: list[int] = []
    real = readers._skip_line

    def skip(handle):  # type: ignore[no-untyped-def]
        held.append(handle.tell())
        return real(handle)

    monkeypatch.setattr(readers, "_skip_line", skip)
    found = list(readers.jsonl_lines(str(path), 0, 2_000))
    first = len(json.dumps({"html": "<p>a</p>"})) + 1
    assert [position for position, _ in found] == [0, first, first + len(long) + 1]
    assert found[1][1] == b"" and found[2][1].endswith(b'"<p>b</p>"}')
    assert held and held[0] - first <= 2_000 + 500 + 1000  # refused once past the limit, not at its end
    assert readers.jsonl_item(b"", first, "l.jsonl") == "jsonl:too-long"


def test_line_fits_counts_what_escapes_can_save() -> None:
    limit = 1000
    assert readers.line_fits(limit + readers.LINE_ROOM, 0, 0, limit)
    assert not readers.line_fits(limit + readers.LINE_ROOM + 1, 0, 0, limit)
    # a page of `limit` control characters, each written \u0001: 6 bytes of JSON per byte
    assert readers.line_fits(6 * limit, limit, limit, limit)
    assert not readers.line_fits(6 * limit + readers.LINE_ROOM + 1, 0, 10 ** 9, limit)  # the hard ceiling
    # a page of `limit` newlines, each written \n: 2 bytes per byte
    assert readers.line_fits(2 * limit, limit, 0, limit)
