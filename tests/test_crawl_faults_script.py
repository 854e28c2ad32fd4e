"""``benchmarks/crawl_faults.py`` (issue 31): its generated inputs are what the issue
describes, its verdict fails what must fail, and one real row runs end to end."""

from __future__ import annotations

import gzip
import importlib.util
import json
import sys
import zlib
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "crawl_faults", Path(__file__).resolve().parents[1] / "benchmarks" / "crawl_faults.py")
assert _SPEC is not None and _SPEC.loader is not None
cf = importlib.util.module_from_spec(_SPEC)
sys.modules["crawl_faults"] = cf
_SPEC.loader.exec_module(cf)

SMALL = cf.Sizes().scaled(0.01)


def _records(data: bytes) -> list[bytes]:
    """The WARC records of a (possibly truncated) multi-member .warc.gz, split on their
    version line."""
    out, rest = [], data
    while rest:
        unpack = zlib.decompressobj(31)
        out.append(unpack.decompress(rest))
        rest = unpack.unused_data
    return b"".join(out).split(b"WARC/1.0\r\n")[1:]


def test_the_pages_have_the_issues_sizes() -> None:
    sizes = cf.Sizes()
    made = {s.name: s.make(sizes) for s in cf.page_specs() if s.name in ("attrs-80k", "class-markers")}
    assert 690_000 < len(made["attrs-80k"]) < 730_000  # "a 709 KB page"
    assert made["attrs-80k"].count(b"=x") == 80_000
    assert len(made["class-markers"]) == 140_046 and made["class-markers"].count(b"<b>1</b>") == 5_000


def test_the_spaces_bomb_is_one_valid_gzip_member_of_spaces(tmp_path: Path) -> None:
    path = tmp_path / "bomb.html.gz"
    cf.write_spaces_bomb(path, 32)
    raw = gzip.decompress(path.read_bytes())  # checks the CRC and size written
    assert raw.startswith(b"<html><body><p> ") and len(raw) == 15 + (32 << 20)
    assert raw.count(b" ") == 32 << 20 and path.stat().st_size < 40_000


def test_bad_utf8_is_declared_utf8_with_invalid_sequences_in_good_french() -> None:
    data = cf.bad_utf8(17_000, 100)
    assert b'charset="utf-8"' in data and len(data) > 17_000
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    text = data.decode("utf-8", errors="replace")
    assert "café" in text and text.count("\ufffd") >= 100


def test_a_lie_warc_holds_71_records_the_11th_lying(tmp_path: Path) -> None:
    path, expect = cf.lie_warc(tmp_path, "gzip-on-plain", SMALL)
    records = _records(path.read_bytes())
    assert len(records) == 71 == expect.records[0]
    assert b"Content-Encoding: gzip" in records[10] and b"<!DOCTYPE html>" in records[10]
    assert len(expect.good) == 67 and cf.url("gzip-on-plain", 10) not in expect.good


def test_the_truncated_warc_ends_inside_its_31st_record(tmp_path: Path) -> None:
    path, expect = cf.truncated_warc(tmp_path, SMALL)
    records = _records(path.read_bytes())
    assert len(records) == 31 and expect.records == (31,)
    assert b"</html>" not in records[30] and expect.bad == {cf.url("truncated", 30)}
    with pytest.raises(EOFError):
        gzip.decompress(path.read_bytes())


def test_the_warc_folder_holds_good_and_damaged_files(tmp_path: Path) -> None:
    folder, expect = cf.warc_folder(tmp_path / "warcs", SMALL)
    names = sorted(p.stem.removesuffix(".warc") for p in folder.iterdir())
    assert names == sorted(["good-1", "good-2", *cf.DAMAGES])
    assert expect.damaged and expect.records[0] == 8 * SMALL.folder_records
    minus = _records((folder / "length-minus-5000.warc.gz").read_bytes())[10]
    declared = int(minus.split(b"Content-Length: ")[1].split(b"\r\n")[0])
    assert declared == len(minus.split(b"\r\n\r\n", 1)[1]) - 4 - 5000


def test_json_lines_hold_a_lone_surrogate_and_duplicate_ids(tmp_path: Path) -> None:
    path, expect = cf.jsonl_file(tmp_path, "surrogate", SMALL)
    lines = path.read_text(encoding="ascii").splitlines()
    assert "\\ud800" in lines[4] and "\ud800" in json.loads(lines[4])["html"] and len(expect.good) == 19
    path, _ = cf.jsonl_file(tmp_path, "duplicate-ids", SMALL)
    ids = [json.loads(line)["id"] for line in path.read_text(encoding="ascii").splitlines()]
    assert len(ids) == 20 and len(set(ids)) == 17


def _row() -> cf.Row:
    return cf.Row("x", "corpus-local")


def test_the_run_check_fails_lost_duplicated_and_unbalanced_records() -> None:
    expect = cf.Expect((3,), frozenset({"u1", "u2"}), bad=frozenset({"u3"}))
    good_rows = [{"id": "a", "url": "u1"}, {"id": "b", "url": "u2"}]
    summary = {"records": 3, "rows": 2, "skipped": {"warc:request": 1}}
    row = _row()
    cf.check_run(row, expect, summary, good_rows, 5.0)
    assert row.failed == [] and row.records == "3 = 2 + 1 (warc:request 1)"

    cases = {
        "records ≠ rows + skipped": ({"records": 3, "rows": 2, "skipped": {}}, good_rows),
        "good records not ok": (summary, [{"id": "a", "url": "u1"}, {"id": "b", "url": "u2", "error": "x"}]),
        "duplicate ids": (summary, [{"id": "a", "url": "u1"}, {"id": "a", "url": "u2"}]),
        "cut record as an ok row": ({"records": 3, "rows": 3, "skipped": {}}, [*good_rows, {"id": "c", "url": "u3"}]),
        "pages over": (summary, [{"id": "a", "url": "u1", "ms": 9000}, {"id": "b", "url": "u2"}]),
        "the input holds 3": ({"records": 4, "rows": 2, "skipped": {"s": 2}}, good_rows),
    }
    for message, (given, rows) in cases.items():
        row = _row()
        cf.check_run(row, expect, given, rows, 5.0)
        assert any(message in f for f in row.failed), (message, row.failed)


def test_a_page_must_end_as_its_spec_says() -> None:
    spec = {s.name: s for s in cf.page_specs()}
    assert cf.expect_outcome(spec["attrs-80k"], False, "limit:time", False) is None
    assert cf.expect_outcome(spec["attrs-80k"], False, "error", False) is not None
    assert cf.expect_outcome(spec["class-markers"], False, "limit:time", False) is not None
    assert cf.expect_outcome(spec["pdf-like"], True, None, False) == "expected not-html, got text"
    assert cf.expect_outcome(spec["pdf-like"], False, "not-html", True) is None
    assert cf.text_checks(spec["bad-utf8"], "un cafÃ© noir") == ["'café' not in output", "'cafÃ©' in output"]


def test_only_selects_rows_by_input_and_road() -> None:
    keys = [p.key for p in cf.selected(cf.plans(), ["*/library"])]
    assert keys and all(k.endswith("/library") for k in keys)
    assert [p.key for p in cf.selected(cf.plans(), ["truncated"])] == ["truncated/corpus-local",
                                                                       "truncated/corpus-dask"]


def test_one_library_row_runs_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = cf.main(["--quick", "--only", "pdf-like/library", "--keep", str(tmp_path / "work"),
                      "--json", str(tmp_path / "rows.json")])
    rows = json.loads((tmp_path / "rows.json").read_text(encoding="utf-8"))["rows"]
    assert [(r["input"], r["road"]) for r in rows] == [("pdf-like", "library")]
    refused = rows[0]["outcome"].startswith("raised NotHTML")
    assert (rows[0]["verdict"] == "ok") == (refused and rows[0]["page_seconds"] < 7 and rows[0]["exit"] == 0)
    assert status == (0 if rows[0]["verdict"] == "ok" else 1)
    assert f"Verdict: {'PASS' if status == 0 else 'FAIL'}" in capsys.readouterr().out
