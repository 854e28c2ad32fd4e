"""Round trip of the structured formats, on generated pages (hypothesis).

For any page, the Markdown output read back by a CommonMark parser (markdown-it-py, with
GFM tables) has the same words as the ``txt`` output, and so does the ``html`` output
read back by detourage: structure and escaping never lose, add or garble text.  For any
labelling of the page's blocks, the same holds of the characters (see :func:`_letters`).  ``"|"`` is markup in both (a table's cell separator), so it is left out of
the comparison.  The Markdown test runs ``EXAMPLES`` generated pages (300; set
``DETOURAGE_EXAMPLES`` for a longer search), the HTML one a third as many;
``--hypothesis-show-statistics`` prints the counts.
"""

from __future__ import annotations

import html as htmllib
import os
import re
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import detourage
from detourage.model import Label, Labels, Result
from detourage.render import render, units

markdown_it = pytest.importorskip("markdown_it")
PARSER = markdown_it.MarkdownIt("commonmark").enable("table")

EXAMPLES = int(os.environ.get("DETOURAGE_EXAMPLES", "300"))

#: text with what Markdown reads as syntax: markers, escapes, entities, pipes, digits
WORDS = st.sampled_from(["word", "Text", "1.", "2)", "#", "##", "-", "+", "*", "**", "_x_", "`",
                         "```", "~~~", "[a]", "(b)", "<div>", "&amp;", "&copy;", "\\", "|",
                         "---", "===", "> q", "!", "é", "中文", "a*b", "x_y", ".", '"q"'])
TEXT = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _inline() -> st.SearchStrategy[str]:
    leaf = st.one_of(
        TEXT.map(_escape),
        st.just("<br>"),
        st.builds(lambda a: f'<img src="i/{len(a)}.png" alt="{_escape(a)}">', TEXT),
    )
    wrap = st.sampled_from(["em", "strong", "b", "i", "code", "span", "a"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.builds(lambda t, x: f'<{t}{" href=/l" if t == "a" else ""}>{x}</{t}>', wrap, inner),
            st.lists(inner, min_size=2, max_size=3).map("".join),
            st.lists(inner, min_size=2, max_size=3).map(" ".join),
        )
    return st.recursive(leaf, extend, max_leaves=6)


INLINE = _inline()


def _blocks() -> st.SearchStrategy[str]:
    simple = st.one_of(
        INLINE.map(lambda x: f"<p>{x}</p>"),
        st.builds(lambda n, x: f"<h{n}>{x}</h{n}>", st.integers(1, 3), INLINE),
        st.lists(st.lists(WORDS, max_size=3).map(" ".join), min_size=1, max_size=4)
        .map(lambda lines: "<pre>" + _escape("\n  ".join(lines)) + "</pre>"),
        st.builds(lambda h, rows: "<table>" + h + "".join(rows) + "</table>",
                  st.sampled_from(["", "<tr><th>H1</th><th>H2</th></tr>"]),
                  st.lists(st.builds(lambda a, b: f"<tr><td>{a}</td><td>{b}</td></tr>", INLINE, INLINE),
                           min_size=1, max_size=3)),
        st.builds(lambda x, c: f"<figure><img src='f.jpg' alt='{_escape(x)}'>"
                               f"<figcaption>{_escape(c)}</figcaption></figure>", TEXT, TEXT),
    )

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        items = st.lists(inner, min_size=1, max_size=3)
        return st.one_of(
            st.builds(lambda t, xs: f"<{t}>" + "".join(f"<li>{x}</li>" for x in xs) + f"</{t}>",
                      st.sampled_from(["ul", "ol"]), items),
            st.builds(lambda t, xs: f"<{t}>" + "".join(xs) + f"</{t}>",
                      st.sampled_from(["blockquote", "div"]), items),
            st.lists(inner, min_size=2, max_size=3).map("".join),
        )
    return st.recursive(simple | INLINE.map(lambda x: f"<li>{x}</li>"), extend, max_leaves=8)


PAGES = _blocks().map(lambda body: f"<html><body>{body}</body></html>")


def markdown_words(markdown: str) -> list[str]:
    """The words a CommonMark reader sees: text, code, image alt text; no markup."""
    parts: list[str] = []
    for token in PARSER.parse(markdown):
        if token.type in ("fence", "code_block"):
            parts.append(token.content)
        elif token.type == "html_block" and token.content.startswith("<table>"):
            parts.append(_table_text(token.content))  # a table no pipe table holds (issue 46)
        elif token.type == "html_block":
            parts.append("<HTML>")  # raw HTML read back: escaping failed
        elif token.children is not None:
            parts.append(_inline_text(token.children))
    return _words(" ".join(parts))


def _table_text(html: str) -> str:
    """The words of an HTML table: its cells, captions and lines apart."""
    return htmllib.unescape(re.sub(r"<[^>]*>", "", re.sub(r"<br>|</t[dh]>|</caption>", " ", html)))


def _inline_text(tokens: list) -> str:  # type: ignore[type-arg]
    out = []
    for token in tokens:
        if token.type in ("text", "code_inline"):
            out.append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif token.type == "html_inline":
            out.append("<HTML>")
        elif token.type == "image":
            continue  # its alt text stands for the image: txt leaves it out too
        elif token.children:
            out.append(_inline_text(token.children))
    return "".join(out)


def _words(text: str) -> list[str]:
    return [w for w in text.split() if w != "|"]


def _letters(text: str) -> str:
    """The text without whitespace: a labelling may join runs of two list items or cells
    into one unit, which ``txt`` writes on one line as the unit's text; the structured
    formats write the runs apart, in their items or cells.  Every ``|`` goes too: the
    table pipes ``_words`` drops stand alone only when a space follows, and a ``|`` that
    ends a run (an image's alt text) touches the next run in ``txt``."""
    return "".join(_words(text)).replace("|", "")


def _relabelled(result: Result, labels: list[Label]) -> Result:
    page = result.page
    return Result(page, Labels("random", tuple(labels)), units(page.blocks, labels))


LABELS = st.sampled_from([Label.HEADER, Label.PARAGRAPH, Label.LIST, Label.CONTINUATION,
                          Label.OTHER, Label.CONTINUATION, Label.OTHER])
SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SLOW)
@given(PAGES, st.data())
def test_markdown_reads_back_as_the_txt_text(html: str, data: st.DataObject) -> None:
    result = detourage.run(detourage.load(html, url="https://example.org/a/"), "fulltext")
    labels = data.draw(st.lists(LABELS, min_size=len(result.page.blocks), max_size=len(result.page.blocks)))
    for res, same in ((result, _words), (_relabelled(result, labels), _letters)):
        for options in ({}, {"links": True}, {"images": False, "formatting": False, "tables": False}):
            markdown = render(res, "markdown", **options)
            words, text = same(" ".join(markdown_words(markdown))), same(render(res, "txt", **options))
            if options.get("images", True):  # the figures' captions: under their images, not in txt
                captions = same(" ".join(u.text for u in res.units if u.caption and u.text))
                assert Counter(words) == Counter(text) + Counter(captions), markdown
                assert _in_order(text, words), markdown
            else:
                assert words == text, markdown


def _in_order(part: Sequence[str], whole: Sequence[str]) -> bool:
    """Whether ``part`` is a subsequence of ``whole``."""
    rest = iter(whole)
    return all(any(x == y for y in rest) for x in part)


@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=SLOW)
@given(PAGES)
def test_html_reads_back_as_the_txt_text(html: str) -> None:
    result = detourage.run(detourage.load(html), "fulltext")
    again = detourage.extract(render(result, "html", links=True), "fulltext", "txt")
    assert _words(again) == _words(render(result, "txt"))
