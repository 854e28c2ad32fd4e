"""Segmentation: blocks, their containers, crossed tags, links, paragraphs, limits."""

from __future__ import annotations

import pytest

from detourage.errors import LimitExceeded
from detourage.parse import Limits, parse
from detourage.segment import page_title, segment


def blocks(html: str, **limits: int):
    lim = Limits(**limits)
    return segment(parse(html, lim), lim)


def test_text_is_split_at_every_tag_like_victor() -> None:
    out = blocks("<p>Hello <b><i>world</i></b>!</p>")
    assert [b.text for b in out] == ["Hello", "world", "!"]
    assert out[1].path[-3:] == ("p", "b", "i")
    assert out[2].crossed == ("/i", "/b")


def test_crossed_records_opening_and_closing_tags_in_order() -> None:
    out = blocks("<div><p>a</p><p>b<br><br>c</p></div>")
    assert out[1].crossed == ("/p", "p")
    assert out[2].crossed == ("br", "br")


def test_space_before_follows_the_source_whitespace() -> None:
    out = blocks("<p>Glued<b>word</b> spaced <i>word</i>!</p>")
    assert [b.text for b in out] == ["Glued", "word", "spaced", "word", "!"]
    assert [b.space_before for b in out] == [True, False, True, True, False]


def test_paragraph_view_merges_inline_runs_only() -> None:
    out = blocks("<div>a <a href='#'>b</a> c<p>d</p>e<br>f</div>")
    assert [b.paragraph for b in out] == [0, 0, 0, 1, 2, 3]


def test_link_characters_only_inside_href_anchors() -> None:
    out = blocks("<p>x <a href='/y'>link</a> <a name='n'>anchor</a></p>")
    assert [b.link_chars for b in out] == [0, 4, 0]


def test_pre_lines_are_blocks_separated_by_br() -> None:
    out = blocks("<pre>one\ntwo\n\nthree</pre>")
    assert [b.text for b in out] == ["one", "two", "three"]
    assert out[2].crossed == ("br", "br")


def test_minified_highlighter_lines_are_lines() -> None:
    """Shiki's line spans (and block elements) end a line of a <pre> where the minified
    markup holds no newline; a page's own newline after them is the line's end."""
    out = blocks("<pre><code><span class='line'><i>npm</i> create</span><span class='line'>cd x</span>"
                 "<span class='line'></span><span class='line'>ls</span></code></pre>")
    assert [b.text for b in out] == ["npm", "create", "cd x", "ls"]
    assert [b.paragraph for b in out] == [0, 0, 1, 2]
    assert out[3].crossed == ("/span", "span", "/span", "span", "br", "br")  # a blank line between
    spaced = blocks("<pre><span class='line'>a</span>\n<span class='line'>b</span></pre>")
    assert spaced[1].crossed == ("/span", "br", "span")


def test_img_alt_is_a_block_of_the_img() -> None:
    out = blocks("<p>see <img src='a.png' alt=' a  cat '> here</p>")
    assert [b.text for b in out] == ["see", "a cat", "here"]
    assert out[1].image == "a.png" and out[1].tag == "img"


def test_invisible_and_hidden_content_is_never_a_block() -> None:
    html = ("<head><title>T</title><script>s</script></head><body><style>x</style>"
            "<p hidden>h</p><p style='display:none'>n</p><noscript>ns</noscript><p>ok</p>"
            "<template>t</template><svg><text>s</text></svg></body>")
    assert [b.text for b in blocks(html)] == ["ok"]


def test_tail_of_a_skipped_element_is_kept() -> None:
    assert [b.text for b in blocks("<p>a<script>x</script>b</p>")] == ["a", "b"]


def test_node_is_the_element_holding_the_text() -> None:
    out = blocks("<div>x<span>y</span>z</div>")
    assert [b.node.tag for b in out] == ["div", "span", "div"]


def test_title_comes_from_head() -> None:
    assert page_title(parse("<title> My\n page </title><p>x</p>")) == "My page"
    assert page_title(None) == ""


def test_empty_input_gives_no_blocks() -> None:
    assert segment(parse("")) == ()
    assert segment(parse("   \n ")) == ()


def test_depth_beyond_libxml2_default_is_kept() -> None:
    out = blocks("<div>" * 400 + "deep" + "</div>" * 400 + "<p>after</p>")
    assert [b.text for b in out] == ["deep", "after"]


def test_limits_raise_clear_errors() -> None:
    with pytest.raises(LimitExceeded, match="depth"):
        blocks("<div>" * 60 + "x", max_depth=50)
    with pytest.raises(LimitExceeded, match="nodes"):
        blocks("<p>x</p>" * 100, max_nodes=50)
    with pytest.raises(LimitExceeded, match="bytes"):
        blocks("<p>" + "x" * 200 + "</p>", max_bytes=100)
    with pytest.raises(LimitExceeded, match="depth"):
        blocks("<div>" * 5000)


_APP_SHELL = """<html><head><title>Is MSRV a breaking change?</title>
<noscript><img src="https://tracker.example/pixel.gif" alt=""></noscript></head>
<body><div id="app"></div><noscript><div id="main-outlet">
<h1>Is changing the MSRV a non-breaking change?</h1>
<div class="post"><p>Since the MSRV aware resolver has been implicitly enabled since the 2024 edition,
can we assume that raising the MSRV is a non-breaking change for the crates that depend on us?</p></div>
<div class="post"><p>Bumping MSRV has never been broadly considered as a semver breaking change;
some projects treat it as one, but they are the minority.</p></div>
</div></noscript></body></html>"""


def test_a_page_showing_nothing_without_javascript_is_read_in_its_noscript() -> None:
    from detourage.api import load

    texts = [b.text for b in load(_APP_SHELL).blocks]
    assert texts[0] == "Is changing the MSRV a non-breaking change?" and len(texts) == 3
    # a page with text of its own keeps <noscript> out ("enable JavaScript" and the like)
    page = _APP_SHELL.replace('<div id="app"></div>', '<div id="app"><p>' + "Visible text. " * 20 + "</p></div>")
    assert [b.text for b in load(page).blocks] == [("Visible text. " * 20).strip()]
    # and one whose <noscript> says no more than its own page stays as it is
    assert [b.text for b in load("<html><body><p>Hello</p><noscript>Enable JavaScript</noscript></body></html>")
            .blocks] == ["Hello"]
