"""Tests of detourage.gold: CleanEval text parsing and strict dataset reading."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from detourage.errors import DatasetError
from detourage.gold import format_cleaneval, load_dataset, parse_cleaneval

SHARED = Path(__file__).resolve().parents[2] / "shared"
DATASETS = SHARED / "datasets"

# --------------------------------------------------------------- CleanEval text


def test_parse_markers_and_continuations():
    text = "<h> Title\n<p> First line\nwrapped   here\n\n<l>item\n<P> Upper"
    assert parse_cleaneval(text) == [
        ("h", "Title"), ("p", "First line wrapped here"), ("l", "item"), ("p", "Upper"),
    ]


def test_parse_text_before_first_marker_is_a_paragraph():
    assert parse_cleaneval("intro\nmore\n<h> Head") == [("p", "intro more"), ("h", "Head")]


def test_parse_skips_wrapper_url_and_bom():
    text = ('\ufeff<text id="http://x" title="a > b" encoding="utf-8">\n'
            "URL: http://x\n<p> Body\n</text>\n")
    assert parse_cleaneval(text) == [("p", "Body")]


def test_parse_url_only_skipped_on_first_line():
    assert parse_cleaneval("<p> a\nURL: kept") == [("p", "a URL: kept")]
    assert parse_cleaneval("URL: http://x\n") == []


def test_parse_plain_text_one_block_per_line():
    assert parse_cleaneval("First para.\n\n  Second\tpara. \n") == [
        ("p", "First para."), ("p", "Second para."),
    ]


def test_parse_drops_empty_blocks_and_keeps_inner_markers():
    assert parse_cleaneval("<p>\n<h>   \n<p> a <p> b") == [("p", "a <p> b")]
    assert parse_cleaneval("") == [] and parse_cleaneval(" \n\n") == []


def test_parse_drops_blocks_made_only_of_html_comments():
    assert parse_cleaneval("<p> <!-- this page contains no article -->\n") == []
    assert parse_cleaneval("<!-- a note -->\nplain line") == [("p", "plain line")]
    assert parse_cleaneval("<p> before <!-- kept --> after\n<h> <!-- a --> <!--\nb -->") == [
        ("p", "before <!-- kept --> after")]


def test_gold_of_html_comments_only_is_an_empty_gold(tmp_path):
    for folder in ("html", "gold"):
        (tmp_path / folder).mkdir()
    (tmp_path / "html" / "none.html").write_bytes(b"<p>No article here</p>")
    (tmp_path / "gold" / "none.txt").write_bytes(b"<p> <!-- this page contains no article -->\n")
    ds = load_dataset(tmp_path)
    assert ds.scorable == ()
    assert dict(ds.problems)["none"] == "empty gold (HTML comments only)"


def test_format_cleaneval():
    assert format_cleaneval([("h", "T"), ("p", " a\n b "), ("l", "")]) == "<h> T\n<p> a b\n"
    assert format_cleaneval([]) == ""
    with pytest.raises(ValueError):
        format_cleaneval([("x", "a")])


# text without control characters or line breaks (what a normalised block holds)
block_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1
).map(lambda t: " ".join(t.split())).filter(bool)


@given(st.lists(st.tuples(st.sampled_from("phl"), block_text), max_size=8))
def test_format_parse_round_trip(blocks):
    assert parse_cleaneval(format_cleaneval(blocks)) == blocks


# ------------------------------------------------------------------ dataset folders


def make_dataset(root: Path, gold: dict[str, bytes], html: list[str], meta: list[dict] | None):
    """Write a small dataset folder."""
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    for doc_id in html:
        (root / "html" / f"{doc_id}.html").write_bytes(b"<p>x</p>")
    for name, data in gold.items():
        (root / "gold" / name).write_bytes(data)
    if meta is not None:
        (root / "meta.jsonl").write_text("".join(json.dumps(x) + "\n" for x in meta))
    return root


def test_load_dataset_strict_gold(tmp_path):
    gold = {
        "ok.txt": "\ufeff<h> T\n<p> body".encode(),
        "latin.txt": "caf\xe9".encode("latin-1"),
        "empty.txt": b"URL: http://x\n\n",
        "snip.json": json.dumps({"with": ["a"], "without": ["b"]}).encode(),
        "badjson.json": b"{",
        "shape.json": json.dumps({"with": "a"}).encode(),
        "nosnip.json": json.dumps({"with": [" "], "without": []}).encode(),
        "both.txt": b"<p> a", "both.json": b"{}",
        "orphan.txt": b"<p> a",
    }
    ids = ["ok", "latin", "empty", "snip", "badjson", "shape", "nosnip", "both", "missing"]
    meta = [{"id": i, "lang": "en"} for i in ids if i != "ok"] + [{"id": "ghost"}]
    ds = load_dataset(make_dataset(tmp_path / "toy", gold, ids, meta))
    assert ds.name == "toy" and len(ds) == len(ids)
    docs = {d.id: d for d in ds}
    assert docs["ok"].gold_blocks == (("h", "T"), ("p", "body")) and docs["ok"].scorable
    assert docs["ok"].gold_kind == "cleaneval" and docs["ok"].lang == "und"
    assert docs["snip"].gold_snippets == {"with": ("a",), "without": ("b",)}
    assert docs["snip"].gold_kind == "snippets" and docs["snip"].lang == "en"
    assert docs["snip"].read_html() == b"<p>x</p>"
    reasons = dict(ds.problems)
    assert "not UTF-8" in reasons["latin"]
    assert reasons["empty"] == "empty gold" and reasons["nosnip"] == "empty gold"
    assert "not JSON" in reasons["badjson"] and "not {" in reasons["shape"]
    assert reasons["both"].startswith("two gold files")
    assert reasons["missing"] == "missing gold"
    assert reasons["orphan"] == "gold without html"
    assert reasons["ghost"] == "metadata without html"
    assert reasons["ok"] == "no metadata in meta.jsonl"
    assert {d.id for d in ds.scorable} == {"ok", "snip"}
    for doc_id in ("latin", "empty", "badjson", "shape", "nosnip", "both", "missing"):
        assert docs[doc_id].gold_problem == reasons[doc_id] and not docs[doc_id].scorable


def test_load_dataset_without_meta(tmp_path):
    ds = load_dataset(make_dataset(tmp_path / "d", {"a.txt": b"x"}, ["a"], None))
    assert ds.documents[0].gold_blocks == (("p", "x"),)
    assert ("meta.jsonl", "missing: languages unknown") in ds.problems


@pytest.mark.parametrize("line", ["{", "[1]", '{"lang": "en"}'])
def test_broken_meta_is_an_error(tmp_path, line):
    root = make_dataset(tmp_path / "d", {"a.txt": b"x"}, ["a"], None)
    (root / "meta.jsonl").write_text(line + "\n")
    with pytest.raises(DatasetError, match="meta.jsonl:1"):
        load_dataset(root)


def test_duplicate_meta_id_is_an_error(tmp_path):
    root = make_dataset(tmp_path / "d", {"a.txt": b"x"}, ["a"], [{"id": "a"}, {"id": "a"}])
    with pytest.raises(DatasetError, match="duplicate"):
        load_dataset(root)


def test_not_a_dataset(tmp_path):
    with pytest.raises(DatasetError):
        load_dataset(tmp_path)
    (tmp_path / "html").mkdir()
    with pytest.raises(DatasetError):
        load_dataset(tmp_path)


# ------------------------------------------------------------------- real datasets

needs_shared = pytest.mark.skipif(
    not DATASETS.is_dir(), reason=f"shared datasets not found at {DATASETS}"
)

# counts from each dataset's README.md
EXPECTED = {
    "cleaneval-en-dev": (58, {"en": 58}, {"32"}),
    "cleanportaleval": (71, {"en": 71}, {"bbc.co.uk_news_05", "bbc.co.uk_news_04"}),
    "daniel": (1689, {"en": 475, "zh": 401, "pl": 274, "el": 273, "ru": 266}, set()),
    "l3s-gn1": (621, {"en": 621}, set()),
}


@needs_shared
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_dataset_counts_and_problems(name):
    count, langs, empty = EXPECTED[name]
    ds = load_dataset(DATASETS / name)
    assert len(ds) == count
    assert Counter(d.lang for d in ds) == langs
    comment_only = {"bbc.co.uk_news_04"}  # "<p> <!-- this page contains no article -->"
    assert dict(ds.problems) == {i: "empty gold" + (" (HTML comments only)" if i in comment_only else "")
                                 for i in empty}
    assert len(ds.scorable) == count - len(empty)
    assert all(d.gold_kind == "cleaneval" and d.gold_blocks for d in ds.scorable)


@needs_shared
@pytest.mark.parametrize(
    ("name", "blocks"),
    [("cleaneval-en-dev", {"p": 2485, "h": 1169, "l": 697}),
     ("l3s-gn1", {"p": 9491, "h": 864, "l": 77})],
)
def test_real_block_counts(name, blocks):
    kinds = Counter(k for d in load_dataset(DATASETS / name) for k, _ in d.gold_blocks)
    assert kinds == blocks  # README: "Block counts"


@needs_shared
def test_daniel_loads_fast():
    load_dataset(DATASETS / "daniel")  # warm the file cache
    start = time.perf_counter()
    load_dataset(DATASETS / "daniel")
    assert time.perf_counter() - start < 2.0  # ~0.2 s; generous for slow machines


def test_split_is_fixed_and_evaluate_keeps_one_half(tmp_path):
    from detourage.evaluation.evaluate import page_jobs
    from detourage.gold import split_of

    ids = [f"p{i}" for i in range(40)]
    ds = load_dataset(make_dataset(tmp_path / "toy", {f"{i}.txt": b"<p> text" for i in ids}, ids, None))
    halves = {i: split_of("toy", i) for i in ids}
    assert set(halves.values()) == {"train", "held-out"}
    assert split_of("toy", "p0") == split_of("toy", "p0")  # fixed: a hash, no state
    held = [job.doc.id for job in page_jobs([ds], ["fulltext"], None, "held-out")]
    assert held == [i for i in sorted(ids) if halves[i] == "held-out"]
    assert len(list(page_jobs([ds], ["fulltext"], None, None))) == 40
