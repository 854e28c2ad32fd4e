"""Tests of detourage.gold.align: labels for a page's blocks from its gold text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import needs_shared
from detourage.api import load
from detourage.errors import LimitExceeded
from detourage.gold import load_dataset
from detourage.model import Label
from detourage.gold import align
from detourage.victor import anno
from detourage.gold.align import AlignOptions, Report, label_page

P, H, L, C, O = Label.PARAGRAPH, Label.HEADER, Label.LIST, Label.CONTINUATION, Label.OTHER

ARTICLE = """<html><body>
<div class="nav"><a href="/">Home</a> <a href="/news">News</a></div>
<h1>Storm hits the coast</h1>
<p>Heavy rain fell on <a href="/town">the town</a> overnight, officials said.</p>
<p>Residents were told to stay indoors.</p>
<ul><li>Schools closed</li><li>Roads flooded</li></ul>
<div class="footer">Copyright 2024 News Corp</div>
</body></html>"""

GOLD = [("h", "Storm hits the coast"),
        ("p", "Heavy rain fell on the town overnight, officials said."),
        ("p", "Residents were told to stay indoors."),
        ("l", "Schools closed"), ("l", "Roads flooded")]


def texts_and_labels(html: str, gold: list[tuple[str, str]],
                     **options: object) -> list[tuple[str, Label]]:
    page = load(html)
    labels, _ = label_page(page, gold, AlignOptions(**options))  # type: ignore[arg-type]
    return [(b.text, label) for b, label in zip(page.blocks, labels)]


# ------------------------------------------------------------------------- labelling


def test_article_is_labelled_as_an_annotator_would():
    assert texts_and_labels(ARTICLE, GOLD) == [
        ("Home", O), ("News", O),
        ("Storm hits the coast", H),
        ("Heavy rain fell on", P), ("the town", C), ("overnight, officials said.", C),
        ("Residents were told to stay indoors.", P),
        ("Schools closed", L), ("Roads flooded", L),
        ("Copyright 2024 News Corp", O),
    ]


def test_report_counts():
    _, report = label_page(load(ARTICLE), GOLD)
    assert report.gold_units == 5
    assert report.gold_tokens == report.covered_tokens == report.matched_tokens == 23
    assert report.coverage == 1.0 and report.precision == 1.0
    assert (report.blocks, report.token_blocks, report.content, report.other) == (10, 10, 7, 3)
    assert report.partial == (0, 0, 0, 0) and report.partial_share == 0.0
    assert report.multi_unit == 0 and report.units_missed == 0
    assert (report.kinds, report.unit, report.lang) == ("gold", "words", "und")
    assert report.ok and report.align_seconds > 0


def test_other_blocks_inside_a_unit_do_not_break_it():
    html = "<p>Alpha beta <a href='/ad'>Buy now cheap</a> gamma delta</p>"
    assert texts_and_labels(html, [("p", "Alpha beta gamma delta")]) == [
        ("Alpha beta", P), ("Buy now cheap", O), ("gamma delta", C)]


def test_threshold_decides_partly_matched_blocks():
    html = "<p>one two three four five six seven eight nine ten</p><p>End here</p>"
    gold = [("p", "one two three four five six"), ("p", "End here")]
    assert texts_and_labels(html, gold)[0][1] is P  # 6 of 10 tokens
    assert texts_and_labels(html, gold, threshold=0.7)[0][1] is O
    _, report = label_page(load(html), gold, AlignOptions(threshold=0.7))
    assert report.partial == (0, 0, 1, 0)
    assert report.coverage == pytest.approx(2 / 8)
    assert report.matched_tokens == 8


def test_a_block_spanning_units_takes_the_majority_unit_and_is_reported():
    html = "<p>Short title</p><p>First unit words. Second unit has many more words here</p>"
    gold = [("h", "Short title"), ("p", "First unit words."),
            ("l", "Second unit has many more words here")]
    labels, report = label_page(load(html), gold)
    assert labels == (H, L)
    assert report.multi_unit == 1
    assert report.units_missed == 1


def test_a_word_split_by_tags_is_one_token():
    html = "<p><b>Hel</b>lo wor<i>ld</i> again</p>"
    assert texts_and_labels(html, [("p", "Hello world again")]) == [
        ("Hel", P), ("lo wor", C), ("ld", C), ("again", C)]


# ---------------------------------------------------------------- blocks without tokens


def test_punctuation_between_blocks_of_one_unit_continues_it():
    html = "<p><a href='/a'>Paris</a>, <a href='/b'>London</a> and Rome</p>"
    assert texts_and_labels(html, [("p", "Paris London and Rome")]) == [
        ("Paris", P), (",", C), ("London", C), ("and Rome", C)]


def test_trailing_punctuation_in_the_same_paragraph_continues_the_unit():
    html = "<p>Read <a href='/x'>the report</a>.</p><p>»</p><p>Next one</p>"
    assert texts_and_labels(html, [("p", "Read the report"), ("p", "Next one")]) == [
        ("Read", P), ("the report", C), (".", C), ("»", O), ("Next one", P)]


def test_leading_bullet_in_the_same_paragraph_opens_the_unit():
    html = "<p>Intro text here</p><ul><li><span>•</span> <a href='/1'>First item</a></li></ul>"
    assert texts_and_labels(html, [("p", "Intro text here"), ("l", "First item")]) == [
        ("Intro text here", P), ("•", L), ("First item", C)]


def test_empty_images_continue_only_inside_a_unit():
    html = ("<p><img src='logo.png'></p><p>Words before <img src='x.png'> words after</p>"
            "<p><img src='y.png'></p>")
    assert texts_and_labels(html, [("p", "Words before words after")]) == [
        ("", O), ("Words before", P), ("", C), ("words after", C), ("", O)]
    _, report = label_page(load(html), [("p", "Words before words after")])
    assert (report.blocks, report.token_blocks, report.content, report.other) == (5, 2, 3, 2)


def test_punctuation_between_units_is_other():
    html = "<p>First part</p><p>|</p><p>Second part</p>"
    gold = [("p", "First part"), ("p", "Second part")]
    assert texts_and_labels(html, gold)[1] == ("|", O)  # "|" is a symbol: a token, unmatched
    html = "<p>First part</p><p>--</p><p>Second part</p>"
    assert texts_and_labels(html, gold)[1] == ("--", O)  # punctuation only, own paragraph


def test_labels_never_start_with_a_continuation_and_can_be_written():
    html = "<p>(</p><p>( <b>Text</b></p>"
    page = load(html)
    labels, _ = label_page(page, [("p", "Text")])
    assert labels == (O, P, C)
    anno.dumps(page.blocks, labels)  # no orphan continuation


# -------------------------------------------------------------------------- kinds


def test_markup_kinds_for_gold_without_structure():
    gold = [("p", t) for t, _ in (("Storm hits the coast", 0),
                                  ("Heavy rain fell on the town overnight, officials said.", 0),
                                  ("Residents were told to stay indoors.", 0),
                                  ("Schools closed", 0), ("Roads flooded", 0))]
    page = load(ARTICLE)
    labels, report = label_page(page, gold)  # auto: no h / l in the gold
    assert report.kinds == "markup"
    assert labels == (O, O, H, P, C, C, P, L, L, O)
    gold_labels, _ = label_page(page, gold, AlignOptions(kinds="gold"))
    assert gold_labels == (O, O, P, P, C, C, P, P, P, O)


def test_markup_kinds_keep_gold_lines_as_units():
    html = "<p>Line one</p><p>still line one</p><p>Line two</p>"
    gold = [("p", "Line one still line one"), ("p", "Line two")]
    assert [lab for _, lab in texts_and_labels(html, gold, kinds="markup")] == [P, C, P]


def test_gold_kinds_forced_even_without_structure():
    html = "<ul><li>Item text</li></ul>"
    assert texts_and_labels(html, [("p", "Item text")], kinds="gold") == [("Item text", P)]
    assert texts_and_labels(html, [("p", "Item text")], kinds="markup") == [("Item text", L)]


# -------------------------------------------------------------------------- units


def test_chars_for_unsegmented_languages():
    html = "<p>导航 首页</p><p>新华网北京<b>12月</b>9日电，记者报道。</p><p>版权所有</p>"
    gold = [("p", "新华网北京12月9日电，记者报道。")]
    page = load(html)
    labels, report = label_page(page, gold, lang="zh")
    assert report.unit == "chars"
    assert labels == (O, P, C, C, O)
    assert report.gold_tokens == len("新华网北京12月9日电，记者报道。")
    _, words = label_page(page, gold, lang="zh", options=AlignOptions(unit="words"))
    assert words.unit == "words"
    assert label_page(page, gold, AlignOptions(unit="chars"))[1].unit == "chars"


def test_options_are_checked():
    with pytest.raises(ValueError, match="threshold"):
        AlignOptions(threshold=0.0)
    with pytest.raises(ValueError, match="kinds"):
        AlignOptions(kinds="both")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unit"):
        AlignOptions(unit="bytes")  # type: ignore[arg-type]


def test_empty_page_and_empty_gold():
    labels, report = label_page(load(""), GOLD)
    assert labels == () and report.coverage == 0.0 and report.gold_tokens == 23
    labels, report = label_page(load(ARTICLE), [])
    assert set(labels) == {O} and report.gold_tokens == 0 and report.coverage == 0.0


# -------------------------------------------------------------------------- datasets


def make_dataset(root: Path) -> Path:
    """A tiny dataset: a good page, one with no gold, one with snippet gold, a zh page."""
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    (root / "html" / "good.html").write_text(ARTICLE, encoding="utf-8")
    (root / "gold" / "good.txt").write_text(
        "".join(f"<{k}> {t}\n" for k, t in GOLD), encoding="utf-8")
    (root / "html" / "nogold.html").write_text("<p>x</p>", encoding="utf-8")
    (root / "html" / "snip.html").write_text("<p>x</p>", encoding="utf-8")
    (root / "gold" / "snip.json").write_text('{"with": ["x"]}', encoding="utf-8")
    (root / "html" / "zh.html").write_text("<p>首页</p><p>新华网北京电。</p>", encoding="utf-8")
    (root / "gold" / "zh.txt").write_text("<p> 新华网北京电。\n", encoding="utf-8")
    meta = [{"id": "good", "lang": "en"}, {"id": "nogold", "lang": "en"},
            {"id": "snip", "lang": "en"}, {"id": "zh", "lang": "zh", "has_markup": False}]
    (root / "meta.jsonl").write_text("".join(json.dumps(m) + "\n" for m in meta), encoding="utf-8")
    return root


def test_label_dataset_reports_failures_without_crashing(tmp_path: Path):
    items = {item.document.id: item for item in align.label_dataset(make_dataset(tmp_path / "ds"))}
    assert set(items) == {"good", "nogold", "snip", "zh"}
    good = items["good"]
    assert good.page is not None and good.labels[2] is H
    assert good.report.dataset == "ds" and good.report.lang == "en" and good.report.kinds == "gold"
    assert good.report.load_seconds > 0
    nogold = items["nogold"].report
    assert (nogold.error, nogold.message) == ("gold", "missing gold")
    assert items["nogold"].page is None and items["nogold"].labels == ()
    assert items["snip"].report.error == "snippet-gold"
    assert items["zh"].report.kinds == "markup" and items["zh"].report.unit == "chars"
    assert items["zh"].labels == (O, P)


def test_a_page_that_fails_to_load_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    real_load = align.load

    def load_or_fail(html: bytes, *args: object, **kwargs: object) -> object:
        if b"Storm" in html:
            raise LimitExceeded("nodes", 10, 5)
        return real_load(html, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(align, "load", load_or_fail)
    items = {i.document.id: i for i in align.label_dataset(make_dataset(tmp_path / "ds"))}
    assert items["good"].page is None and items["good"].labels == ()
    assert items["good"].report.error == "limit:nodes"
    assert "nodes limit exceeded" in str(items["good"].report.message)
    assert items["zh"].report.ok


def test_dataset_kinds():
    ds_root = needs_shared("datasets", "daniel")
    assert align.dataset_kinds(load_dataset(ds_root)) == "markup"
    assert align.dataset_kinds(load_dataset(needs_shared("datasets", "cleaneval-en-dev"))) == "gold"


def test_dataset_kinds_on_a_small_dataset(tmp_path: Path):
    ds = load_dataset(make_dataset(tmp_path / "ds"))
    assert align.dataset_kinds(ds) == "gold"  # one of two cleaneval pages has an <h>


def test_write_anno_dataset_round_trips_through_the_anno_format(tmp_path: Path):
    root = make_dataset(tmp_path / "ds")
    out = tmp_path / "anno"
    summary = anno.write_anno_dataset(root, out)
    assert sorted(p.name for p in out.iterdir()) == ["good.anno", "zh.anno"]
    assert (summary.pages, summary.failed) == (2, 2)
    assert summary.reasons == {"gold": 1, "snippet-gold": 1}
    text = (out / "good.anno").read_text(encoding="utf-8")
    assert text.startswith("# source: ../ds/html/good.html\n# gold: ../ds/gold/good.txt\n# aligned")
    page, labels = anno.load_annotated(out / "good.anno")
    assert labels == label_page(page, GOLD)[0]


def test_summarize_and_format_report():
    a = Report(id="a", dataset="d", lang="en", gold_tokens=10, matched_tokens=9, covered_tokens=8,
               blocks=5, token_blocks=4, content=2, partial=(1, 0, 0, 1), content_tokens=10,
               content_matched=9, align_seconds=0.5)
    b = Report(id="b", dataset="d", lang="zh", gold_tokens=30, matched_tokens=30, covered_tokens=30,
               blocks=5, token_blocks=5, content=3, content_tokens=30, content_matched=30)
    c = Report(id="c", dataset="d", lang="zh", error="gold", message="missing gold")
    s = align.summarize([a, b, c])
    assert (s.pages, s.failed, s.reasons, s.low_coverage) == (2, 1, {"gold": 1}, 1)
    assert s.coverage == pytest.approx(38 / 40) and s.mean_coverage == pytest.approx((0.8 + 1) / 2)
    assert s.found == pytest.approx(39 / 40)
    assert s.partial == (1, 0, 0, 1) and s.partial_share == pytest.approx(2 / 9)
    assert s.mean_partial_share == pytest.approx(0.25)
    assert s.precision == pytest.approx(39 / 40) and s.seconds == pytest.approx(0.5)
    table = align.format_report([a, b, c])
    lines = table.splitlines()
    assert lines[0].startswith("| dataset | lang | pages | failed |")
    assert [line.split("|")[2].strip() for line in lines[2:]] == ["en", "zh", "all"]
    assert align.summarize([]).pages == 0


# ----------------------------------------------------------------------- shared data


def test_shared_cleaneval_pages_align_well():
    root = needs_shared("datasets", "cleaneval-en-dev")
    ds = load_dataset(root)
    docs = [d for d in ds.scorable if any(k != "p" for k, _ in d.gold_blocks)][:5]
    for doc in docs:
        item = align.label_document(doc, AlignOptions(kinds="gold"), dataset=ds.name)
        assert item.report.ok, item.report.message
        assert item.report.coverage > 0.9, doc.id
        assert item.page is not None
        kinds = {label for label in item.labels}
        assert Label.OTHER in kinds and Label.PARAGRAPH in kinds, doc.id
        anno.loads(anno.dumps(item.page.blocks, item.labels))  # writable
