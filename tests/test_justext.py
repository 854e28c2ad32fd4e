"""Native jusText: classifier, revision, headings, JTS mode, language detection."""

from __future__ import annotations

from pathlib import Path

import pytest

import detourage
from detourage.api import load
from detourage.model import Label
from detourage.methods import justext as jt

ENGLISH = ("This is a long paragraph of text that is about the things that we are in the "
           "middle of, and it is very long indeed because it has to be. ")
GREEK_NOISE = "Αθήνα Θεσσαλονίκη Πάτρα Ηράκλειο Λάρισα Βόλος Ιωάννινα Χανιά Καβάλα Σέρρες"


def _p(text: str, link_chars: int = 0, heading: bool = False) -> jt.Paragraph:
    return jt.Paragraph(text=text, link_chars=link_chars, heading=heading)


def _classes(paragraphs, options=jt.Options(), language="en"):
    jt.classify(paragraphs, jt.stoplist(language), options)
    jt.revise(paragraphs, options.max_heading_distance)
    return [p.class_type for p in paragraphs]


# -- context-free -----------------------------------------------------------------------


@pytest.mark.parametrize(("paragraph", "expected"), [
    (_p(ENGLISH * 3), "good"),                      # long, many stop words
    (_p(ENGLISH), "neargood"),                      # between length_low and length_high
    (_p("Short text."), "short"),
    (_p("Home", link_chars=4), "bad"),              # link density
    (_p("Zebra giraffe " * 10, link_chars=1), "bad"),  # long: too few stop words
    (_p("Copyright \xa9 2020 " + ENGLISH * 3), "bad"),
    (_p(GREEK_NOISE * 3), "bad"),                   # long, no English stop words
])
def test_context_free_classes(paragraph, expected):
    jt.classify([paragraph], jt.stoplist("en"), jt.Options())
    assert paragraph.cf_class == expected


def test_short_with_a_link_is_bad():
    p = _p("More news", link_chars=1)
    jt.classify([p], jt.stoplist("en"), jt.Options(max_link_density=1.0))
    assert p.cf_class == "bad"


# -- context-sensitive ------------------------------------------------------------------


def test_short_between_good_becomes_good_and_between_bad_bad():
    good, short, bad = _p(ENGLISH * 3), _p("Short."), _p("Menu", link_chars=4)
    assert _classes([good, short, _p(ENGLISH * 3)]) == ["good", "good", "good"]
    assert _classes([bad, _p("Short."), _p("Nav", link_chars=3)]) == ["bad", "bad", "bad"]
    assert short.class_type == "good"


def test_short_between_bad_and_good_needs_a_neargood():
    assert _classes([_p("Nav", link_chars=3), _p("Short."), _p(ENGLISH * 3)])[1] == "bad"
    got = _classes([_p("Nav", link_chars=3), _p(ENGLISH), _p("Short."), _p(ENGLISH * 3)])
    assert got[2] == "good"  # the near-good paragraph before it rescues it


def test_neargood_is_bad_only_between_bad():
    assert _classes([_p("a", link_chars=1), _p(ENGLISH), _p("b", link_chars=1)])[1] == "bad"
    assert _classes([_p(ENGLISH * 3), _p(ENGLISH), _p("b", link_chars=1)])[1] == "good"


def test_edges_count_as_bad():
    assert _classes([_p(ENGLISH)]) == ["bad"]
    assert _classes([_p("Short.")]) == ["bad"]


def test_short_heading_before_good_paragraph_is_kept():
    got = _classes([_p("Nav", link_chars=3), _p("The news", heading=True), _p(ENGLISH * 3)])
    assert got == ["bad", "good", "good"]
    far = _classes([_p("Nav", link_chars=3), _p("The news", heading=True), _p("x" * 150, link_chars=150),
                    _p("y" * 150, link_chars=150), _p(ENGLISH * 3)])
    assert far[1] == "bad"  # more than max_heading_distance characters away
    assert _classes([_p("Nav", link_chars=3), _p("The news", heading=True), _p(ENGLISH * 3)],
                    jt.Options(no_headings=True))[1] == "bad"


# -- whole pages ------------------------------------------------------------------------


PAGE = ("<html><body><div><a href='/'>Home</a> | <a href='/a'>About</a></div>"
        "<h2>The news</h2><p>" + ENGLISH * 3 + "</p><p>Short one.</p><p>" + ENGLISH * 2
        + "</p><ul><li><a href='/x'>Link one</a></li></ul><div>Copyright \xa9 2020</div></body></html>")


def test_label_keeps_good_paragraphs_with_their_kinds():
    page = load(PAGE)
    labels = jt.label(page)
    kept = {b.text: lab for b, lab in zip(page.blocks, labels.labels)}
    assert kept["The news"] is Label.HEADER
    assert kept["Short one."] is Label.PARAGRAPH
    assert kept["Home"] is Label.OTHER and kept["Link one"] is Label.OTHER
    assert labels.details["language"] == "en" and labels.method == "justext"


def test_jts_mode_keeps_long_paragraphs_of_any_language():
    html = f"<html><body><p>{GREEK_NOISE * 4}</p><p>{GREEK_NOISE * 4}</p></body></html>"
    page = load(html)
    assert not any(lab.kept for lab in jt.label(page, jt.Options(language="en")).labels)
    jts = detourage.run(page, "justext-nostop").labels
    assert jts.method == jt.JTS_NAME and all(lab.kept for lab in jts.labels)
    assert jt.label(page, jt.JTS_OPTIONS).labels == jts.labels


def test_paragraphs_split_at_double_br_only():
    page = load("<html><body><div>one<br>two<br><br>three</div><p>four</p></body></html>")
    texts = [p.text for p in jt.make_paragraphs(page.blocks)[0]]
    assert texts == ["one two", "three", "four"]
    view = [p.text for p in jt.make_paragraphs(page.blocks, "view")[0]]
    assert view == ["one", "two", "three", "four"]


def test_form_controls_and_images_are_not_paragraph_text():
    page = load("<html><body><p>text <img src=a.png alt=picture> more</p>"
                "<form><select><option>choice</option></select><button>Go</button></form></body></html>")
    paragraphs, owner = jt.make_paragraphs(page.blocks)
    assert [p.text for p in paragraphs] == ["text more"]
    assert [owner[b.id] for b in page.blocks] == [0, 0, 0, None, None]


def test_empty_page():
    for html in ("", b"", "<html></html>"):
        page = load(html)
        assert jt.label(page).labels == tuple(Label.OTHER for _ in page.blocks)


@pytest.mark.parametrize(("text", "language"), [
    ("The cat is on the mat and it was there for the whole day.", "en"),
    ("Η γάτα είναι στο χαλί και ήταν εκεί για όλη την ημέρα.", "el"),
    ("Kot jest na macie i był tam przez cały dzień, ale nie wiem dlaczego.", "pl"),
    ("Кошка на коврике, и она была там весь день, но я не знаю почему.", "ru"),
    ("我们今天在北京的天气很好，他说这是一个好日子。", "zh"),
    ("12345 67890", None),
])
def test_detect_language(text, language):
    assert jt.detect_language([text]) == language


def test_stoplists_are_shipped():
    for language in jt.LANGUAGES:
        assert len(jt.stoplist(language)) > 50
    assert "the" in jt.stoplist("en") and "的" in jt.stoplist("zh")
    assert jt.stoplist("xx") == frozenset()


def test_chinese_density_counts_characters():
    assert jt._cjk_density("的的是书", jt.stoplist("zh")) == pytest.approx(0.75)


SHARED = Path("/work/shared/datasets")


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared datasets (/work/shared) are not mounted")
def test_real_pages_smoke():
    pages = sorted((SHARED / "cleanportaleval" / "html").glob("*.html"))[:5]
    assert pages
    for path in pages:
        page = load(path.read_bytes())
        labels = jt.label(page)
        assert len(labels.labels) == len(page.blocks)
        assert any(lab.kept for lab in labels.labels), path.name
