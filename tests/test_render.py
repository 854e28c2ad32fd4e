"""Renderers: units from labels, and each output format."""

from __future__ import annotations

import json
import time

import pytest

import detourage
from detourage.errors import UnknownFormat
from detourage.render import units

PAGE = ("<html><head><title>T &amp; U</title></head><body><h2>Head</h2><p>One <b>two</b>.</p>"
        "<ul><li>i1</li><li>i2</li></ul><p>pic <img src='p.png' alt='alt*'> end</p></body></html>")


def out(format: str, **options: object) -> str:
    return detourage.extract(PAGE, "fulltext", format, url="http://x.org/", **options)


def test_units_group_continuations() -> None:
    page = detourage.load("<p>a <b>b</b></p><p>c</p>")
    L = detourage.Label
    got = units(page.blocks, [L.PARAGRAPH, L.CONTINUATION, L.CONTINUATION])
    assert [u.text for u in got] == ["a b c"]
    got = units(page.blocks, [L.OTHER, L.CONTINUATION, L.HEADER])
    assert [(u.kind, u.text) for u in got] == [(L.PARAGRAPH, "b"), (L.HEADER, "c")]


def test_txt() -> None:
    # an illustration's alt text is not text a reader reads (the structured formats show the image)
    assert out("txt") == "Head\nOne two.\ni1\ni2\npic end\n"


def test_cleaneval_plain_and_wrapped() -> None:
    assert out("cleaneval") == "<h> Head\n<p> One two.\n<l> i1\n<l> i2\n<p> pic end\n"
    wrapped = out("cleaneval", id="7", url_line=True).splitlines()
    assert wrapped[:2] == ['<text id="7">', "URL: http://x.org/"] and wrapped[-1] == "</text>"


def test_markdown_levels_lists_images_and_escapes() -> None:
    assert out("markdown") == ("## Head\n\nOne **two**.\n\n- i1\n- i2\n\n"
                               "pic ![alt\\*](http://x.org/p.png) end\n")
    assert out("markdown", formatting=False, images=False) == "## Head\n\nOne two.\n\n- i1\n- i2\n\npic end\n"


def test_markdown_bang_before_a_link_stays_text() -> None:
    """A "!" that ends the text before a link would make ``![…](…)``, an image."""
    html = "<p>Wow!<a href='/a'>link</a> and \\!<a href='/b'>two</a> ok!</p>"
    md = detourage.extract(html, "fulltext", "markdown", url="http://x.org/", links=True)
    assert md == "Wow\\![link](http://x.org/a) and \\\\\\![two](http://x.org/b) ok!\n"


def test_markdown_heading_all_in_bold_is_a_plain_heading() -> None:
    html = ("<h2><strong>Grow your <em>network</em>.</strong></h2><h3><em><b>Both</b></em></h3>"
            "<h3>Part <b>bold</b></h3><p><strong>A bold line</strong></p>")
    assert detourage.extract(html, "fulltext", "markdown") == \
        "## Grow your *network*.\n\n### Both\n\n### Part **bold**\n\n**A bold line**\n"


def test_html_is_a_document_that_reparses_to_the_same_content() -> None:
    html = out("html")
    assert html.startswith("<!DOCTYPE html>") and "<title>T &amp; U</title>" in html
    assert "<ul>\n<li>i1</li>\n<li>i2</li>\n</ul>" in html and "One <strong>two</strong>." in html
    assert detourage.extract(html, "fulltext", "txt") == out("txt")


def test_json_record() -> None:
    record = json.loads(out("json", blocks=True))
    assert record["title"] == "T & U" and record["method"] == "fulltext"
    assert record["url"] == "http://x.org/" and record["encoding"] == "str"
    assert record["units"][0] == {"kind": "header", "text": "Head", "level": 2}
    assert record["units"][-1]["images"] == [{"src": "http://x.org/p.png", "alt": "alt*", "caption": ""}]
    assert record["structure"][1] == {"type": "unit", "kind": "paragraph", "text": "One two.", "content": [
        {"type": "text", "text": "One "}, {"type": "strong", "content": [{"type": "text", "text": "two"}]},
        {"type": "text", "text": "."}]}
    assert record["structure"][-1]["content"][1] == {"type": "image", "src": "http://x.org/p.png", "alt": "alt*"}
    assert {b["label"] for b in record["blocks"]} <= {"header", "paragraph", "list", "continuation"}
    assert {"parse", "segment", "label"} <= set(record["timings_ms"])
    assert "blocks" not in json.loads(out("json", blocks=False))


def test_json_leads_with_the_text_and_the_metadata_and_keeps_the_blocks_for_who_asks() -> None:
    record = json.loads(out("json"))
    assert list(record)[:4] == ["url", "title", "text", "metadata"]
    assert record["text"] == out("txt") and record["title"] == record["metadata"]["title"]
    assert "blocks" not in record and "units" not in record and record["structure"]
    asked = json.loads(out("json", blocks=True))
    assert asked["text"] == record["text"] and {"units", "blocks"} <= set(asked)


def test_unknown_format() -> None:
    with pytest.raises(UnknownFormat):
        out("pdf")


def test_empty_page_renders_empty_in_every_format() -> None:
    for format in ("txt", "cleaneval", "markdown"):
        assert detourage.extract(b"", "fulltext", format) == ""


def test_json_of_a_paragraph_of_many_spans_is_linear() -> None:
    """Its text was grown by ``+=`` on a dict value, a copy per span: 100 000 spans took
    about 10 s; joined once, they take a fraction of a second."""
    page = detourage.load("<p>" + "<span>word</span> " * 100_000 + "</p>")
    result = detourage.run(page, "fulltext")
    start = time.process_time()
    record = json.loads(detourage.render(result, "json", blocks=False))
    assert time.process_time() - start < 3.0
    assert record["structure"][0]["text"] == ("word " * 100_000).strip()


FIGURES = ("<html><head><base href='https://cdn.example.org/media/'></head><body>"
           "<p>Lol <img src='/images/smilies/icon_razz.gif' alt=':P'> indeed"
           "<img src='https://secure.gravatar.com/avatar/1?s=16' class='avatar' width='16' height='16'></p>"
           "<figure><img src='data:image/gif;base64,R0lGODlhAQABAAAAACw=' data-src='mill.jpg' alt='The mill'>"
           "<figcaption>The mill in 1920.</figcaption></figure></body></html>")


def test_illustrations_render_with_absolute_sources_and_decorations_as_their_alt_text() -> None:
    markdown = detourage.extract(FIGURES, "fulltext", "markdown", url="https://example.org/a/post.html")
    assert markdown == ("Lol :P indeed\n\n![The mill](https://cdn.example.org/media/mill.jpg)\n\n"
                        "The mill in 1920.\n")
    html = detourage.extract(FIGURES, "fulltext", "html", url="https://example.org/a/post.html")
    assert ("<figure>\n<img src=\"https://cdn.example.org/media/mill.jpg\" alt=\"The mill\">\n"
            "<figcaption>The mill in 1920.</figcaption>\n</figure>") in html
    assert "<p>Lol :P indeed</p>" in html


DESCRIBED = ("<html><body><p>Before the pictures.</p>"
             "<p><img alt='Screenshot of the editor with two panes'></p>"
             "<p><img src='data:image/png;base64,iVBORw0KGgo=' alt='The gallery page in dark mode'></p>"
             "<p><img src='/img/acme-logo.png' alt='Acme Corporation company logo'></p>"
             "<p>Read the <img src='data:image/svg+xml,%3Csvg%3E' alt='PDF'> guide "
             "<img src='/icons/pdf-icon.png' alt='(PDF)'></p></body></html>")


def test_an_alt_text_that_describes_a_picture_is_no_text_wherever_the_picture_comes_from() -> None:
    # no source yet (a script names it), a data URI (a stand-in, or the picture inlined),
    # a logo: a reader sees a picture, and its description is no text; a word stays an
    # icon's, read in its sentence
    txt = detourage.extract(DESCRIBED, "fulltext")
    assert txt == "Before the pictures.\nRead the PDF guide (PDF)\n"
    markdown = detourage.extract(DESCRIBED, "fulltext", "markdown")
    assert "Read the PDF guide (PDF)" in markdown
    # none of them is shown as a picture: no source, a data URI, a decoration
    assert "Screenshot" not in markdown and "gallery" not in markdown and "Acme" not in markdown


def test_json_units_carry_their_images_with_absolute_sources_and_captions() -> None:
    record = json.loads(detourage.extract(FIGURES, "fulltext", "json", url="https://example.org/a/post.html",
                                          blocks=True))
    images = [image for unit in record["units"] for image in unit.get("images", [])]
    assert images == [{"src": "https://cdn.example.org/media/mill.jpg", "alt": "The mill",
                       "caption": "The mill in 1920."}]


def test_a_relative_base_resolves_against_the_page_and_without_a_page_url_only_an_absolute_one_counts() -> None:
    page = "<head><base href='/static/'></head><p><img src='a.jpg' alt='a'></p>"
    assert detourage.extract(page, "fulltext", "markdown", url="https://x.org/p/q.html") == \
        "![a](https://x.org/static/a.jpg)\n"
    assert detourage.extract(page, "fulltext", "markdown") == "![a](a.jpg)\n"
    absolute = page.replace("/static/", "https://cdn.x.org/s/")
    assert detourage.extract(absolute, "fulltext", "markdown") == "![a](https://cdn.x.org/s/a.jpg)\n"
