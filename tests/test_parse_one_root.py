"""What libxml2 leaves beside the root element is read as a browser reads it (parse.one_root).

Markup after a premature ``</body></html>``, a second document appended, or a broken
``<html …/>`` start tag: libxml2 puts what follows into a second top-level ``<html>``,
which no walk of the root sees (131 of the 3 749 shared pages have one; on some, all the
article is there).  A browser puts it in the body.
"""

from __future__ import annotations

from lxml import etree

import detourage
from detourage.parse import _parser, parse


def tops(root: etree._Element) -> list[etree._Element]:
    return [*reversed(list(root.itersiblings(preceding=True))), root, *root.itersiblings()]


def text_of(root: etree._Element) -> str:
    return " ".join(" ".join(root.itertext()).split())


def test_markup_after_the_end_of_the_page_goes_to_the_end_of_its_body() -> None:
    html = "<html><body><p>First.</p></body></html><div><p>After the end.</p></div>"
    assert len(tops(etree.fromstring(html.encode(), _parser()))) == 2  # what libxml2 does
    root = parse(html)
    assert root is not None and text_of(root) == "First. After the end."
    body = root.find("body")
    assert [el.tag for el in body] == ["p", "div"]  # type: ignore[union-attr]
    assert all(not len(top) and not top.text for top in tops(root)[1:])  # the shell left empty


def test_a_broken_html_start_tag_leaves_the_whole_page_beside_the_root() -> None:
    html = '<!DOCTYPE html><html xmogo.jpg" alt="A" width="1"/></a></td><body><p>The story.</p></body></html>'
    root = parse(html)
    assert root is not None and [el.tag for el in root] == ["body"] and text_of(root) == "The story."


def test_a_second_document_appended_adds_its_body_content_not_its_head() -> None:
    html = ("<html><head><title>One</title></head><body><p>A.</p></body></html>"
            "<html><head><title>Two</title><style>p{}</style></head><body>Loose <p>B.</p> end</body></html>")
    root = parse(html)
    assert root is not None
    assert [el.tag for el in root] == ["head", "body"]
    assert text_of(root.find("head")) == "One"  # type: ignore[arg-type]
    assert text_of(root.find("body")) == "A. Loose B. end"  # type: ignore[arg-type]


def test_text_after_the_end_is_kept_after_the_body_content() -> None:
    root = parse("<html><body><p>A.</p></body></html>Tail words")
    assert root is not None and text_of(root.find("body")) == "A. Tail words"  # type: ignore[arg-type]


def test_a_page_with_one_root_is_left_as_parsed() -> None:
    html = "<html><head><title>T</title></head><body><div><p>A.</p>tail</div></body></html>"
    root = parse(html)
    assert root is not None
    assert etree.tostring(root) == etree.tostring(etree.fromstring(html.encode(), _parser()))


def test_the_article_after_a_premature_end_is_extracted() -> None:
    """The shape of a WordPress theme that closes its header template with
    ``</body></html>``: the article came out empty before."""
    story = " ".join(f"Sentence {i} of the article body, with enough words to read as prose." for i in range(12))
    html = ("<html><head><title>Six types of outsourcing</title></head><body>"
            "<header><nav><ul>" + "".join(f'<li><a href="/{i}">Menu {i}</a></li>' for i in range(8))
            + "</ul></nav></header></body></html>"
            f"<div class='blog-detail-page'><h1>Six types of outsourcing</h1><p>{story}</p><p>{story}</p></div>"
            "<footer><a href='/privacy'>Privacy</a></footer></body></html>")
    text = detourage.extract(html)
    assert "Sentence 11 of the article body" in text
    assert "Menu 3" not in text
