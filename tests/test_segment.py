"""Segmentation: blocks, their containers, crossed tags, links, paragraphs, limits."""

from __future__ import annotations

import pytest

from detourage.api import extract
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


@pytest.mark.parametrize("walk", ["_segment", "_compiled"])
def test_runs_a_style_sheet_sets_apart_are_two_words(walk: str) -> None:
    """A label and its value in sibling spans ("Publisher" + "Houghton"), a letter against
    a digit ("Weight" + "12 Oz"), a digit against a capital ("€49.99" + "VAT") are two
    words though the HTML writes no space; a drop cap, a styled syllable, an ordinal, an
    index and a footnote's call stay joined, and so does code."""
    import detourage.segment as seg

    if walk == "_compiled" and seg._compiled is None:
        pytest.skip("the compiled extension is not built (pure-Python install)")
    html = ("<div><span>Publisher</span><span>Houghton Mifflin</span></div>"
            "<p><span>Item Weight</span><span>12 Oz</span> <b>€49.99</b><i>VAT</i></p>"
            "<p><b>T</b>he child<i>ren</i> the 20<sup>th</sup> CO<sub>2</sub> Rust<sup>1</sup></p>"
            "<p><code><span>get</span><span>Value</span></code></p>")
    out = getattr(seg, walk)(parse(html, Limits()), Limits())[0]
    assert [(b.text, b.space_before) for b in out] == [
        ("Publisher", True), ("Houghton Mifflin", True),
        ("Item Weight", True), ("12 Oz", True), ("€49.99", True), ("VAT", True),
        ("T", True), ("he child", False), ("ren", False), ("the 20", True), ("th", False), ("CO", True),
        ("2", False), ("Rust", True), ("1", False),
        ("get", True), ("Value", False)]


def test_a_panel_named_by_its_class_is_read_while_the_page_hides_it() -> None:
    """An accordion's section or an expander's text that the page hides until a reader
    opens it, named so by its class (AEM's ``cmp-accordion__panel``, Amazon's
    ``a-expander-content``), is read like an ARIA panel; a hidden menu is not."""
    out = blocks("<dl><dt>Question</dt><dd class='cmp-accordion__panel cmp-accordion__panel--hidden' hidden>"
                 "<p>Answer</p></dd></dl><div class='a-expander-content' style='display: none'>More</div>"
                 "<ul class='menu' hidden><li>Home</li></ul>")
    assert [b.text for b in out] == ["Question", "Answer", "More"]


@pytest.mark.parametrize("walk", ["_segment", "_compiled"])
def test_the_hidden_answer_of_a_question_or_an_accordion_item_is_read(walk: str) -> None:
    """A hidden element whose parent's class names a frequently asked question's item or
    an accordion's (Chakra's ``chakra-accordion__item`` around its ``chakra-collapse``)
    is the panel a reader opens; its text for screen readers stays out, and so does a
    hidden box elsewhere."""
    import detourage.segment as seg
    if walk == "_compiled" and seg._compiled is None:
        pytest.skip("the compiled extension is not built (pure-Python install)")
    html = ("<div class='faq-item'><h3>Why?</h3>"
            "<div class='answer' style='display: none'><p>Because.</p></div></div>"
            "<div class='chakra-accordion__item'><button>Specs<span class='visually-hidden'>expand</span></button>"
            "<div class='chakra-collapse' style='overflow:hidden;display:none'>24 inches</div></div>"
            "<div class='item'><div style='display:none'>Sign in</div></div>")
    out = getattr(seg, walk)(parse(html, Limits()), Limits())[0]
    assert [b.text for b in out] == ["Why?", "Because.", "Specs", "24 inches"]


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


@pytest.mark.parametrize("html", [
    # Prism (prism-react-renderer, Gatsby): lines as <div class="token-line">, or spans
    "<pre><div class='token-line'><span class='token'>one</span>()</div><div class='token-line'>two()</div></pre>",
    "<pre><code><span class='token-line'>one()</span><span class='token-line'>two()</span></code></pre>",
    "<pre><code><span class='code-line'>one()</span><span class='ec-line'>two()</span></code></pre>",
    # a line element holding its own newline (gatsby-remark-prismjs): one break, not two
    "<pre><code><span class='gatsby-highlight-code-line'>one()\n</span><span class='line'>two()\n</span></code></pre>",
    # nested line elements end one line, not one per level
    "<pre><div><div>one()</div></div><div><div>two()</div></div></pre>",
    # highlight.js line numbers: a row per line, an empty <div> in its number cell
    "<pre><code><table class='hljs-ln'><tr><td class='hljs-ln-numbers'><div class='hljs-ln-n' data-line-number='1'>"
    "</div></td><td class='hljs-ln-code'>one()</td></tr><tr><td class='hljs-ln-numbers'><div class='hljs-ln-n' "
    "data-line-number='2'></div></td><td class='hljs-ln-code'>two()</td></tr></table></code></pre>",
])
def test_each_line_element_of_highlighted_code_is_one_line(html: str) -> None:
    out = blocks(html)
    assert [b.text for b in out][-1] == "two()"
    assert out[-1].crossed.count("br") == 1 and len({b.paragraph for b in out}) == 2


def test_class_names_that_merely_contain_line_do_not_break() -> None:
    out = blocks("<pre><code><span class='linenumber'>1</span><span class='newline'>x</span>"
                 "<span class='underline'>y</span></code></pre>")
    assert "br" not in out[1].crossed and "br" not in out[2].crossed


def test_soft_hyphens_and_zero_width_characters_leave_the_text() -> None:
    out = blocks("<p>co\u00adop\u00adera\u00adtion zero\u200bwidth \u2060joined \ufeffbom</p>")
    assert [b.text for b in out] == ["cooperation zerowidth joined bom"]
    # a run of nothing else is no text, and no space either
    assert [(b.text, b.space_before) for b in blocks("<p>a<b>\u200b</b><i>b</i></p>")] == \
        [("a", True), ("b", False)]


def test_control_characters_leave_the_text_whitespace_ones_become_spaces() -> None:
    """A page's stray controls (``\x01``, SUB ``\x1a``, ESC, DEL, a C1 ``\x96``) are no
    text, in ASCII text as in any other; tab, form feed and NEL are spaces."""
    out = blocks("<title>T\x01itle</title><p>Hello\x01 world\x1a end\x1b\x7f</p><p>Caf\u00e9\x96 ok\x0ctab\tnel\x85x</p>"
                 "<p><img alt='al\x01t' src='a.png'></p><pre>a\x01b\n\x1ac</pre>")
    assert [b.text for b in out] == ["Hello world end", "Caf\u00e9 ok tab nel x", "alt", "ab", "c"]
    assert page_title(parse("<title>T\x01it\x1ale</title>")) == "Title"
    assert [b.text for b in blocks("<p>a<b>\x01</b><i>b</i></p>")] == ["a", "b"]


def test_zwnj_and_zwj_stay_for_the_scripts_and_emoji_that_need_them() -> None:
    text = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \U0001F469\u200d\U0001F4BB"
    assert [b.text for b in blocks(f"<p>{text}</p>")] == [text]
    # …but a joiner that joins nothing is no text: Webflow's empty paragraph, <p>&zwj;</p>
    assert [b.text for b in blocks("<p>Before</p><p>\u200d</p><p> \u200c </p><p>After \u200d</p>")] == \
        ["Before", "After \u200d"]
    page = "<html><body><article><h1>Title</h1>" + "<p>A sentence of the story, long enough.</p><p>\u200d</p>" * 5
    assert "\u200d" not in extract(page + "</article></body></html>")


def test_decomposed_text_is_composed_to_nfc() -> None:
    out = blocks("<title>Mu\u0308nchen</title><p>Mu\u0308nchen <img alt='Cafe\u0301' src='c.jpg'></p>"
                 "<pre>Gru\u0308\u00dfe</pre>")
    assert [b.text for b in out] == ["M\u00fcnchen", "Caf\u00e9", "Gr\u00fc\u00dfe"]
    assert page_title(parse("<title>Mu\u0308n\u00adchen</title>")) == "M\u00fcnchen"


def images(html: str) -> list[tuple[str, str | None, bool]]:
    return [(b.text, b.image, b.decorative) for b in blocks(html) if b.tag == "img"]


@pytest.mark.parametrize("img, src", [
    ("<img src='data:image/gif;base64,R0lGODlhAQABAAAAACw=' data-src='real.jpg'>", "real.jpg"),
    ("<img src='/img/blank.gif' data-lazy-src='lazy.jpg'>", "lazy.jpg"),
    ("<img data-original='orig.jpg'>", "orig.jpg"),
    ("<img src='small.jpg' data-src='large.jpg'>", "large.jpg"),  # the lazy source is the real one
    ("<img src='data:image/svg+xml,%3Csvg%3E' srcset='s.jpg 300w, l.jpg 1024w, m.jpg 600w'>", "l.jpg"),
    ("<img data-srcset='a.jpg 1x, https://cdn.example/b,c.jpg 2x'>", "https://cdn.example/b,c.jpg"),
    ("<img src='fallback.jpg' srcset='big.jpg 2x'>", "fallback.jpg"),  # src is what a browser loads
    ("<picture><source srcset='p.webp 1x, p2.webp 2x'><source srcset='q.jpg'><img alt='a'></picture>", "p2.webp"),
    ("<img src='/lazy-placeholder.png' alt='a'><noscript><img src='/real.jpg'></noscript>", "/real.jpg"),
    ("<span><img class='lazy' alt='a'></span><noscript><img src='ns.jpg'></noscript>", "ns.jpg"),
    # a lazy loader's own attributes (NitroPack)
    ("<img src='data:image/svg+xml;base64,PHN2Zz4=' nitro-lazy-srcset='n1.webp 1024w, n2.webp 2048w'>", "n2.webp"),
    ("<img src='data:image/svg+xml;base64,PHN2Zz4=' nitro-lazy-src='n.webp'>", "n.webp"),
])
def test_lazy_loaded_images_get_their_real_source(img: str, src: str) -> None:
    [(_, found, _)] = images(f"<p>{img}</p>")
    assert found == src


def test_a_noscript_image_with_no_image_beside_it_is_the_illustration() -> None:
    # a lazy loader drawing the picture as a background leaves only its <noscript> fallback
    figure = ("<figure><div class='lazy' data-bg='/m/tram.jpg'></div><noscript><img src='/m/tram.jpg' "
              "alt='A tram on a curve'></noscript><figcaption>The curve.</figcaption></figure>")
    assert images(figure) == [("A tram on a curve", "/m/tram.jpg", False)]
    # beside an image, the fallback only gives that image its source; a pixel stays out
    assert images("<p><img class='lazy' alt='a'><noscript><img src='n.jpg'></noscript></p>") == [("a", "n.jpg", False)]
    assert images("<body><noscript><img src='https://www.facebook.com/tr?id=1' width='1' height='1'></noscript>"
                  "<p>Text</p></body>") == []


@pytest.mark.parametrize("img", [
    "<img src='/images/smilies/icon_razz.gif' alt=':P'>",
    "<img src='https://s.w.org/images/core/emoji/14.0.0/72x72/1f600.png' class='wp-smiley' alt='\U0001F600'>",
    "<img src='https://secure.gravatar.com/avatar/abc?s=48' class='avatar avatar-48 photo' alt=''>",
    "<img src='/t.gif' width='1' height='1'>",
    "<img src='/img/star.png' width='16' height='16' alt='rating'>",
    "<img src='https://ad.doubleclick.net/ddm/ad/x.gif' alt='Advertisement'>",
    "<img src='https://www.facebook.com/tr?id=1&ev=PageView' alt=''>",
    "<img src='/static/site-logo.svg' alt='Example News'>",
    "<img src='data:image/gif;base64,R0lGODlhAQABAAAAACw='>",
])
def test_icons_avatars_smilies_pixels_and_ads_are_decorative(img: str) -> None:
    [(_, _, decorative)] = images(f"<p>text {img} text</p>")
    assert decorative


@pytest.mark.parametrize("img", [
    "<img src='/uploads/2024/mill.jpg' alt='The old mill' width='800' height='600'>",
    "<img src='/photos/lexicon-cover.jpg' alt='Google Pixel 8 review unit'>",
    "<figure><img src='/img/logo-redesign.png' alt='The new logo'><figcaption>The new logo.</figcaption></figure>",
])
def test_illustrations_are_not_decorative(img: str) -> None:
    [(_, _, decorative)] = images(img)
    assert not decorative


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
    with pytest.raises(LimitExceeded, match="blocks") as raised:
        blocks("<pre>" + "x\n" * 100 + "</pre>", max_blocks=50)
    assert raised.value.reason == "limit:blocks" and raised.value.value == 51
    assert len(blocks("<p>x</p>" * 50, max_blocks=50)) == 50


def test_blocks_of_one_page_share_equal_paths_and_crossings() -> None:
    """A page of many cells holds a handful of distinct tuples, not one per block."""
    out = blocks("<table>" + ("<tr>" + "<td>a</td>" * 10 + "</tr>") * 100 + "</table>")
    assert len(out) == 1000
    assert len({id(b.path) for b in out}) == 1
    assert len({id(b.crossed) for b in out}) <= 3


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


def test_a_forum_header_beside_a_thread_in_noscript_does_not_hide_the_thread() -> None:
    """A Discourse thread saved as its app shows its header and tagline (over
    NOSCRIPT_PAGE_CHARS) and holds the posts, many times that, in <noscript>."""
    from detourage.api import load
    from detourage.segment import NOSCRIPT_PAGE_CHARS, NOSCRIPT_RATIO

    header = "<header><p>" + "Community Forums. " * 14 + "</p></header>"
    shown = len(("Community Forums. " * 14).strip())
    assert NOSCRIPT_PAGE_CHARS < shown < NOSCRIPT_RATIO * shown
    page = _APP_SHELL.replace('<div id="app"></div>', header + '<div id="app"></div>')
    longer = page.replace("can we assume", "can we assume " + "and so on " * (NOSCRIPT_RATIO * shown // 10))
    texts = [b.text for b in load(longer).blocks]
    assert texts[1] == "Is changing the MSRV a non-breaking change?" and len(texts) == 4  # the header first
    # a header beside a <noscript> holding less than NOSCRIPT_RATIO times its text keeps it out
    assert [b.text for b in load(page).blocks] == [("Community Forums. " * 14).strip()]


def test_words_of_a_query_string_do_not_name_an_image() -> None:
    [(_, _, decorative)] = images("<p><img src='/chart?ticker=X&logo_strength=light' alt='Twelve month chart'></p>")
    assert not decorative


@pytest.mark.parametrize("pure", [False, True])
def test_collector_is_paused_only_for_big_pages_and_restored(pure, monkeypatch):
    """The walkers pause Python's cycle collector at the PAUSE_BLOCKS-th block (a big
    page); a small page leaves it running; the state found is restored either way."""
    import gc
    import importlib
    import types

    from detourage import segment as segmentation

    if pure:
        monkeypatch.setattr(segmentation, "_compiled", None)
        walker = segmentation
    elif segmentation._compiled is None:
        pytest.skip("the compiled _csegment is not built")
    else:
        walker = importlib.import_module("detourage._csegment")
    paused = []
    recording = types.SimpleNamespace(disable=lambda: (paused.append(True), gc.disable()), enable=gc.enable,
                                      isenabled=gc.isenabled)
    monkeypatch.setattr(walker, "gc", recording)
    big = parse("<html><body>" + "<p>x</p>" * (segmentation.PAUSE_BLOCKS + 5) + "</body></html>")
    small = parse("<html><body><p>one</p><p>two</p></body></html>")
    assert len(segment(small)) == 2 and not paused and gc.isenabled()
    assert len(segment(big)) == segmentation.PAUSE_BLOCKS + 5 and paused == [True] and gc.isenabled()
    gc.disable()
    try:
        segment(big)
        assert not gc.isenabled()  # a caller that paused it keeps it paused
    finally:
        gc.enable()


def test_render_pauses_the_collector_for_big_pages_only():
    import gc
    import importlib

    from detourage.segment import PAUSE_BLOCKS, collector_paused

    rendering = importlib.import_module("detourage.render")  # the package's ``render`` is the function

    states = []
    with collector_paused(PAUSE_BLOCKS - 1):
        states.append(gc.isenabled())
    with collector_paused(PAUSE_BLOCKS):
        states.append(gc.isenabled())
    assert states == [True, False] and gc.isenabled()
    assert rendering.collector_paused is collector_paused
