"""React's streamed segments put where a browser shows them (:mod:`detourage.reveal`)."""

from __future__ import annotations

import pytest

from lxml import etree

from detourage.loading import load
from detourage.parse import parse
from detourage.reveal import place_streamed, show_hidden_body
from detourage.segment import is_hidden


def _placed(html: str) -> tuple[bool, etree._Element]:
    root = parse(html)
    assert root is not None
    return place_streamed(root, html), root


def _body(root: etree._Element) -> str:
    body = root.find("body")
    assert body is not None
    return "".join(etree.tostring(child, encoding="unicode") for child in body).strip()


def test_a_completed_boundary_takes_the_segments_content_in_place_of_its_template() -> None:
    moved, root = _placed('<body><main>a <template id="B:0"></template> b</main>'
                          '<div hidden id="S:0">c <p>d</p> e</div> f<script>$RC("B:0","S:0")</script></body>')
    assert moved
    assert _body(root) == '<main>a c <p>d</p> e b</main> f<script>$RC("B:0","S:0")</script>'


def test_a_completed_segment_goes_where_its_placeholder_is() -> None:
    moved, root = _placed('<body><p>one <template id="P:3"></template> three</p>'
                          '<div hidden id="S:3"><b>two</b></div><script>$RS("S:3","P:3")</script></body>')
    assert moved
    assert root.findtext(".//p") == "one " and "".join(root.find(".//p").itertext()) == "one two three"
    assert root.find('.//div[@id="S:3"]') is None


def test_instructions_run_in_order_so_a_segment_inside_a_segment_lands_too() -> None:
    html = ('<body><main><template id="B:0"></template></main>'
            '<div hidden id="S:0"><h1>Title</h1><template id="B:1"></template></div><script>$RC("B:0","S:0")</script>'
            '<div hidden id="S:1"><p>late paragraph</p></div><script>$RC("B:1","S:1")</script></body>')
    moved, root = _placed(html)
    assert moved
    assert [el.tag for el in root.find(".//main")] == ["h1", "p"]


def test_a_page_saved_without_its_scripts_pairs_boundary_n_with_segment_n() -> None:
    moved, root = _placed('<body><main><template id="B:2"></template></main>'
                          '<div hidden="" id="S:2"><p>the article</p></div></body>')
    assert moved
    assert root.find(".//main/p").text == "the article"


def test_without_scripts_a_segment_with_no_boundary_goes_to_its_placeholder() -> None:
    """The shape of a Next.js article saved without its scripts: each section a segment
    whose placeholder ``P:n`` sits in another segment (the one of its table-of-contents
    entry), which boundary ``B:n`` shows; no ``$RS`` kept to pair them."""
    html = ('<body><main><h1>Index funds</h1><template id="B:2"></template><div>Loading paragraph...</div></main>'
            '<div hidden id="S:2"><div id="toc_how"><template id="P:f"></template></div></div>'
            '<div hidden id="S:f"><h2>How they work</h2><p>They track an index.</p></div></body>')
    moved, root = _placed(html)
    assert moved
    assert "".join(root.find(".//main").itertext()) == "Index fundsHow they workThey track an index.Loading paragraph..."
    assert root.find('.//div[@id="S:f"]') is None and root.find('.//template') is None


def test_a_completed_boundary_s_fallback_goes_as_react_takes_it_out() -> None:
    """``$RC`` removes what stands between the placeholder and ``<!--/$-->``; the parse
    drops the comments, so the fallback is read in the page's text and taken out when the
    elements after the placeholder hold its text (React's ``<!-- -->`` between text pieces
    and the tags do not count); the last one's tail, what follows the boundary, stays."""
    html = ('<body><main><h1>T</h1><!--$?--><template id="B:0"></template><div>Loading <!-- -->paragraph'
            '<!-- -->...</div><div class="skeleton"><span>&amp; more</span></div><!--/$--> after'
            '<p>kept</p></main><div hidden id="S:0"><p>The paragraph.</p></div>'
            '<script>$RC("B:0","S:0")</script></body>')
    moved, root = _placed(html)
    assert moved
    assert "".join(root.find(".//main").itertext()) == "TThe paragraph. afterkept"


def test_a_fallback_the_tree_does_not_match_is_left() -> None:
    segment = '<div hidden id="S:0"><p>The paragraph.</p></div><script>$RC("B:0","S:0")</script>'
    pages = {
        # bare text: no element to take out
        '<body><main><!--$?--><template id="B:0"></template>Loading...<!--/$--></main>' + segment: "Loading...",
        # the parse moved the fallback away from the placeholder (a <div> closes the <p>)
        '<body><main><p>intro<!--$?--><template id="B:0"></template><div>Loading</div><!--/$--></p></main>'
        + segment: "Loading",
        # a boundary with no closing comment
        '<body><main><!--$?--><template id="B:0"></template><div>Loading</div><p>next</p></main>' + segment: "Loading",
    }
    for html, left in pages.items():
        moved, root = _placed(html)
        assert moved, html
        text = "".join(root.find(".//main").itertext())
        assert "The paragraph." in text and left in text


def test_a_boundary_nested_in_a_fallback_is_counted_to_find_its_end() -> None:
    html = ('<!--$?--><template id="B:0"></template><div>Wait <!--$--><b>inner</b><!--/$--></div><!--/$--><p>after</p>'
            '<!--$?--><template id="B:1"></template><i>x</i><!--/$-->')
    from detourage.reveal import _fallbacks

    assert {name: html[start:end] for name, (start, end) in _fallbacks(html).items()} == {
        "B:0": "<div>Wait <!--$--><b>inner</b><!--/$--></div>", "B:1": "<i>x</i>"}
    assert _fallbacks('<!--$?--><template id="B:0"></template><div>never closed</div>') == {}


def test_many_nested_boundaries_cost_linear_time() -> None:
    """Each fallback is read once, and one longer than FALLBACK_CHARS is left: a page of
    thousands of nested pending boundaries, each completed, takes no quadratic time."""
    import time

    n = 20_000  # each boundary's fallback runs to the end of all those opened after it
    html = ("<body><main>" + "".join(f'<!--$?--><template id="B:{i:x}"></template><i>L</i>' for i in range(n))
            + "<!--/$-->" * n + "</main>"
            + "".join(f'<div hidden id="S:{i:x}"><p>part {i}</p></div>' for i in range(n)) + "</body>")
    started = time.perf_counter()
    moved, root = _placed(html)
    assert moved and time.perf_counter() - started < 5.0
    text = "".join(root.find(".//main").itertext())
    # the outer fallbacks, over FALLBACK_CHARS, stay; an inner one, short, goes with the
    # boundaries nested in it, as $RC takes them (their segments then land nowhere)
    assert "part 0" in text and "part 19000" in text and "part 19999" not in text


def test_what_is_not_react_s_pattern_is_left_as_it_is() -> None:
    pages = [
        '<body><p>no streamed segment at all</p><div hidden id="menu">x</div></body>',
        # a segment that is not hidden, a placeholder that is not a template
        '<body><span id="B:0"></span><div id="S:0">x</div><script>$RC("B:0","S:0")</script></body>',
        # the placeholder inside its own segment: a page React never writes
        '<body><div hidden id="S:0"><template id="B:0"></template></div><script>$RC("B:0","S:0")</script></body>',
        # an instruction naming ids that are not there
        '<body><p>text</p><script>$RC("B:7","S:7")</script><div id="S:x">y</div></body>',
    ]
    for html in pages:
        root = parse(html)
        before = etree.tostring(root)
        assert not place_streamed(root, html)
        assert etree.tostring(root) == before


def test_loading_a_streamed_page_shows_its_late_content_in_the_blocks() -> None:
    html = ('<html><body><nav><a href="/">Home</a></nav><main><template id="B:0"></template></main>'
            '<div hidden id="S:0"><p>The late article text.</p></div><script>$RC("B:0","S:0")</script></body></html>')
    page = load(html)
    texts = [block.text for block in page.blocks]
    assert texts == ["Home", "The late article text."]
    assert page.blocks[1].path[-2:] == ("main", "p")


_ARTICLE = "<p>" + "A paragraph a reader sees once the gate script has run. " * 8 + "</p>"


def _gated(visible: str, hidden_style: str = 'style="display: none"', paragraphs: int = 6) -> str:
    return (f"<html><body><header><a href='/'>Shop</a></header>{visible}"
            f"<div class='gate-content' {hidden_style}><h1>The product</h1>{_ARTICLE * paragraphs}"
            "<div class='modal' style='display:none'><p>Sign in to continue</p></div></div></body></html>")


def test_a_page_that_hides_its_whole_body_until_a_script_runs_is_read_shown() -> None:
    for style in ('style="display: none"', 'style="VISIBILITY:hidden;min-height:100vh"', "hidden"):
        page = load(_gated("", style))
        texts = [block.text for block in page.blocks]
        assert texts[:2] == ["Shop", "The product"], style
        assert "Sign in to continue" not in texts  # hidden inside the shown body: still hidden
        gate = page.tree.find(".//div[@class='gate-content']")
        assert not is_hidden(gate) and gate.get("style") in (None, "", ";min-height:100vh"), style


def test_a_hidden_menu_or_tab_on_a_page_with_text_stays_hidden() -> None:
    # the page shows enough text: the tree is not searched, whatever it hides
    assert "The product" not in [b.text for b in load(_gated(_ARTICLE * 3)).blocks]
    # little text shown, but the hidden element holds no more than a few times it
    visible = "<p>" + "Visible words of a short page. " * 8 + "</p>"
    assert "The product" not in [b.text for b in load(_gated(visible, paragraphs=1)).blocks]


def test_a_shop_gate_inside_main_is_read_shown_beside_a_long_menu() -> None:
    """A shop's password or age gate hides what its ``<main>`` holds while its menus,
    outside, show more than HIDDEN_PAGE_CHARS: ``<main>`` is searched on its own."""
    items = "".join(f"<li><a href='/c{i}'>Coffee category number {i}</a></li>" for i in range(60))
    menu = f"<nav><ul>{items}</ul></nav>"
    gated = ("<html><body><header>" + menu + "</header><main><div class='gate-content' style='display:none'>"
             f"<h1>Dark roast</h1>{_ARTICLE * 2}<div class='modal' style='display:none'><p>Sign in to continue</p>"
             "</div></div></main><footer><p>Contact us</p></footer></body></html>")
    texts = [block.text for block in load(gated).blocks]
    assert "Dark roast" in texts and "Coffee category number 59" in texts
    assert "Sign in to continue" not in texts
    # a <main> that shows its text keeps its hidden tab, however long
    tab = f"<div class='tab' style='display:none'><h2>Reviews</h2>{_ARTICLE * 8}</div>"
    shown = f"<html><body><header>{menu}</header><main><h1>Dark roast</h1>{_ARTICLE * 3}{tab}</main></body></html>"
    assert "Reviews" not in [block.text for block in load(shown).blocks]
    # and a <main> that shows little but hides no more than a few times it
    little = (f"<html><body><header>{menu}</header><main><h1>Dark roast</h1><p>{'Short text. ' * 30}</p>"
              f"<div class='tab' style='display:none'><p>{'Tab text. ' * 60}</p></div></main></body></html>")
    assert not any(block.text.startswith("Tab text") for block in load(little).blocks)


def test_show_hidden_body_changes_nothing_where_nothing_is_hidden() -> None:
    page = load("<html><body><p>short</p></body></html>")
    assert not show_hidden_body(page.tree, page.blocks)
    assert not show_hidden_body(None, ())


def test_text_for_screen_readers_only_is_not_read() -> None:
    page = load('<body><p>Read <a href="/r">the report<span class="sr-only"> (opens in a new tab)</span></a> now.</p>'
                '<a class="screen-reader-text skip-link" href="#c">Skip to content</a>'
                '<h2 class="title visually-hidden">Main menu</h2><p class="reader">A reader\'s letter.</p></body>')
    assert [block.text for block in page.blocks] == ["Read", "the report", "now.", "A reader's letter."]


def test_a_themes_own_name_for_text_for_screen_readers_is_read_as_one() -> None:
    """A theme's or a component's prefix or suffix around the usual words ("wt-cli-sr-only",
    "u-srOnly", "plp-price__sr-text", a CSS module's hashed "SrOnly-module_srOnly__3NH1o")
    names text for screen readers only; a field whose label is hidden
    ("field--label-visually_hidden") shows its text, and "srcset-like" or "user-reader"
    name nothing."""
    page = load('<body><p>$899.00<span class="plp-price__sr-text">Price $ 899.00</span></p>'
                '<span class="u-srOnly">Thread starter</span><b class="SrOnly-module_srOnly__3NH1o">Airtable home</b>'
                '<div class="field field--label-visually_hidden"><div class="field__label visually-hidden">Body</div>'
                '<p>The guide covers the ground.</p></div><p class="srcset-like user-reader">Shown.</p></body>')
    assert [block.text for block in page.blocks] == ["$899.00", "The guide covers the ground.", "Shown."]


@pytest.mark.parametrize("walk", ["python", "compiled"])
def test_a_shop_s_or_a_bank_s_name_for_text_for_screen_readers_is_read_as_one(walk: str, monkeypatch) -> None:
    """Amazon's "a-offscreen" price, Salesforce's "slds-assistive-text", jQuery UI's
    "ui-helper-hidden-accessible", a bank's "adahidden" footnote label hide their text,
    in any case; "offscreen-menu", "canada" and "metadata" name nothing."""
    from detourage import segment
    if walk == "compiled" and segment._compiled is None:
        pytest.skip("the compiled segmentation is not built")
    if walk == "python":
        monkeypatch.setattr(segment, "_compiled", None)
    page = load('<body><p>$12.99<span class="a-offscreen">$12.99</span></p>'
                '<p>Get $600<span class="AdaHidden">Footnotes </span><sup>3</sup></p>'
                '<span class="slds-assistive-text">Close</span><span class="ui-helper-hidden-accessible">3 results</span>'
                '<span class="ada-hidden">opens a new window</span><span class="offscreen">Skip</span>'
                '<p class="offscreen-menu canada metadata">Shown.</p></body>')
    assert [block.text for block in page.blocks] == ["$12.99", "Get $600", "3", "Shown."]


def test_many_segments_in_one_parent_land_in_order() -> None:
    # each move is made beside its placeholder: a page of thousands stays linear (a move
    # at a child's index would count the siblings every time)
    n = 3000
    html = ("<body><main>" + "".join(f'<template id="B:{i}"></template>' for i in range(n)) + "</main>"
            + "".join(f'<div hidden id="S:{i}">t{i} <b>b{i}</b> </div><script>$RC("B:{i}","S:{i}")</script>'
                      for i in range(n)) + "</body>")
    moved, root = _placed(html)
    main = root.find(".//main")
    assert moved and main is not None
    assert " ".join(main.itertext()).split() == [w for i in range(n) for w in (f"t{i}", f"b{i}")]
    assert root.find(".//template") is None and root.find(".//div") is None
