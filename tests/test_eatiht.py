"""The eatiht method (seed 001): cleaning rules, selection, scoring, argmax, fusion."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lxml import etree

from detourage import methods
from detourage.api import load, run
from detourage.methods import eatiht
from detourage.methods.eatiht import Options, Vocabulary, sentences
from detourage.model import Label, Page

SHARED = Path(__file__).resolve().parents[2] / "shared"

#: a paragraph rich in sentences, to make its parent win the argmax wherever it stands
RICH = "One sentence here. Two sentences here. Three sentences. Four sentences. Five!"
ARTICLE = (
    "<p>The article starts here. It has two sentences.</p>"
    "<p>The article goes on with a third sentence.</p>"
)


def page(body: str) -> Page:
    return load(f"<html><head><title>t</title></head><body>{body}</body></html>")


def kept(p: Page, options: Options = Options()) -> list[str]:
    labels = eatiht.label(p, options)
    assert len(labels.labels) == len(p.blocks)
    return [b.text for b, label in zip(p.blocks, labels.labels, strict=True) if label.kept]


def test_registered() -> None:
    method = methods.get("eatiht")
    assert (method.name, method.seed) == ("eatiht", "001")
    assert method.run(page(f"<div>{ARTICLE}</div>")).method == "eatiht"


# --- cleaning phase ---------------------------------------------------------------------


@pytest.mark.parametrize("tag", ["nav", "header", "footer", "aside", "button", "select", "textarea"])
def test_removed_tags(tag: str) -> None:
    # without the cleaning, the rich paragraph would win the argmax
    p = page(f"<{tag}><div><p>{RICH}</p></div></{tag}><div>{ARTICLE}</div>")
    assert RICH not in kept(p)
    assert kept(p) == ["The article starts here. It has two sentences.",
                       "The article goes on with a third sentence."]


@pytest.mark.parametrize(
    "attrs",
    [
        'id="footer"', 'id="comments"', 'class="related_posts"', 'id="top_nav"',
        'class="addthis_tool"', 'class="embedly-card"',  # the seed's examples
        'class="twitter-tweet"', 'class="instagram-media"', 'class="fb-post"',  # embeds
        'class="sharedaddy sd-sharing-enabled"', 'class="widget-area"', 'id="sidebar"',
        'class="yarpp-related-posts"', 'id="post-comments"', 'class="commentsArea"',
        'class="cookie-banner"', 'class="newsletter_signup"', 'class="ad-slot"',
    ],
)
def test_removed_by_name(attrs: str) -> None:
    p = page(f"<div {attrs}><p>{RICH}</p></div><div>{ARTICLE}</div>")
    assert RICH not in kept(p)


@pytest.mark.parametrize(
    "attrs",
    [
        'class="commentary-body"',  # "comments" is a token, not a substring
        'class="shadow"',  # nor is "ad"
        'id="content-sidebar-wrap"',  # names the content too: a layout wrapper
        'class="entry-content has-comments"',
        'id="http://example.com/read-comments-here/"',  # a URL, not a name
    ],
)
def test_kept_names(attrs: str) -> None:
    p = page(f"<div {attrs}><p>{RICH}</p></div><div>{ARTICLE}</div>")
    assert kept(p) == [RICH]


def test_body_and_html_classes_are_not_sections() -> None:
    p = load(f'<html class="nav-open"><body class="single has-sidebar"><div>{ARTICLE}</div></body></html>')
    assert len(kept(p)) == 2


def test_cleaning_marks_every_block_under_a_removed_element() -> None:
    p = page('<div id="comments"><p>first <b>bold</b> <img src="x.png" alt="pic"></p></div><p>after</p>')
    removed = eatiht.cleaning(p.blocks, eatiht.REMOVED_TAGS, eatiht.vocabulary(None))
    assert [(b.text, r) for b, r in zip(p.blocks, removed)] == [
        ("first", True), ("bold", True), ("pic", True), ("after", False)]


def test_everything_removed_gives_all_other() -> None:
    p = page(f"<footer><p>{RICH}</p></footer><nav><p>{ARTICLE}</p></nav>")
    labels = eatiht.label(p)
    assert set(labels.labels) == {Label.OTHER}
    assert labels.details["reason"] == "no text node selected"


def test_the_tree_is_not_mutated() -> None:
    p = page(f'<nav>menu</nav><div id="comments"><p>{RICH}</p></div><div>{ARTICLE}</div>')
    before = etree.tostring(p.tree)
    eatiht.label(p)
    assert etree.tostring(p.tree) == before


# --- the vocabulary -----------------------------------------------------------------------


def test_vocabulary_matches_whole_consecutive_tokens() -> None:
    v = Vocabulary(["comments", "related_posts", "top-nav"])
    assert v.matches("comments")
    assert v.matches("post-comments")
    assert v.matches("commentsArea")
    assert v.matches("main foo_comments")  # any class name of the attribute
    assert not v.matches("commentary-body")
    assert not v.matches("nocomments")
    assert v.matches("yarpp-related-posts")
    assert v.matches("relatedPosts")
    assert not v.matches("related")
    assert not v.matches("related other-posts")  # tokens never run across class names
    assert v.matches("top_nav") and v.matches("topNav")


def test_vocabulary_exact_entries() -> None:
    v = Vocabulary(["=hidden"])
    assert v.matches("hidden") and v.matches("box Hidden")
    assert not v.matches("hidden-xs") and not v.matches("is-hidden")


def test_vocabulary_file_format(tmp_path: Path) -> None:
    assert eatiht.parse_vocabulary("# comment\n\nfoo  # why\n bar-baz \n") == ["foo", "bar-baz"]
    path = tmp_path / "names.txt"
    path.write_text("# only this\ncolophon\n", encoding="utf-8")
    p = page(f'<div class="colophon"><p>{RICH}</p></div><div id="comments">{ARTICLE}</div>')
    assert kept(p, Options(vocabulary=str(path))) == [
        "The article starts here. It has two sentences.", "The article goes on with a third sentence."]
    assert kept(p, Options(vocabulary=frozenset({"colophon"}))) == kept(p, Options(vocabulary=path))


def test_packaged_vocabulary_has_the_seed_names() -> None:
    v = eatiht.vocabulary(None)
    for name in ["footer", "comments", "related_posts", "top_nav", "addthis_tool", "embedly-card"]:
        assert v.matches(name), name
    assert not v.matches("widget Blog")  # Blogger wraps its posts in this


# --- extraction: selection ----------------------------------------------------------------


def test_selection_needs_min_chars() -> None:
    p = page("<div><p>nineteen characters</p></div><div><p>twenty characters ok</p></div>")
    assert [len(b.text) for b in p.blocks] == [19, 20]
    selected = eatiht.selection(p.blocks, [False, False], Options())
    assert [el.text for el in selected] == ["twenty characters ok"]
    assert kept(p) == ["twenty characters ok"]
    assert kept(p, Options(min_chars=30)) == []


def test_selection_lifts_inline_parents() -> None:
    p = page("<div><p>Short. <b>A bold run of more than twenty chars.</b> End.</p></div>")
    (node,) = eatiht.selection(p.blocks, [False] * len(p.blocks), Options())
    assert node.tag == "p"
    (node,) = eatiht.selection(p.blocks, [False] * len(p.blocks), Options(lift_inline=False))
    assert node.tag == "b"
    assert kept(p) == ["Short.", "A bold run of more than twenty chars.", "End."]


def test_link_text_does_not_select() -> None:
    menu = "".join(f'<li><a href="/{i}">A long link title number {i} here.</a></li>' for i in range(9))
    p = page(f"<ul>{menu}</ul><div><p>Only this paragraph is text.</p></div>")
    assert kept(p) == ["Only this paragraph is text."]
    assert len(kept(p, Options(skip_links=False))) == 9


def test_image_alt_does_not_select() -> None:
    p = page('<div><img src="a.png" alt="an alt text that is long enough to count"></div>')
    assert kept(p) == []


# --- extraction: scoring, argmax, fusion ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("", 0),
        ("   ", 0),
        ("no punctuation at all", 1),
        ("One. Two! Three? Four", 4),
        ("It costs 3.14 dollars at example.com today.", 1),
        ('He said "stop." Then he left.', 2),
        ("Wait... what?! Really.", 3),
        ("第一句。第二句！第三句？", 3),
        ("第一句。第二句", 2),
        ("「第一句。」第二句。", 2),
        ("Πρώτη πρόταση· δεύτερη. Τρίτη\u037e Τέταρτη;", 3),  # "·" is a semicolon
        ("पहला वाक्य। दूसरा वाक्य।", 2),
        ("Առաջին նախադասություն։ Երկրորդ նախադասություն։", 2),
        ("----- ... -----", 0),
    ],
)
def test_sentences(text: str, count: int) -> None:
    assert sentences(text) == count


def test_argmax_is_the_sentence_richest_node() -> None:
    p = page(
        "<div><p>A first block with one sentence.</p></div>"
        f"<div><p>{RICH}</p></div>"
        "<div><p>A last block. With two sentences.</p></div>"
    )
    labels = eatiht.label(p)
    assert kept(p) == [RICH]
    assert labels.details["score"] == 5
    assert labels.details["node"] == "/html/body/div[2]/p"


def test_score_counts_the_whole_text_of_the_node() -> None:
    # the div's own run selects it; its score counts the sentences of its <p> children too
    p = page(
        "<div>Posted on Monday by the editor.<p>One. Two. Three.</p><p>Four. Five.</p></div>"
        "<section><p>Alpha sentence. Beta sentence. Gamma sentence. Delta.</p></section>"
    )
    labels = eatiht.label(p)
    assert labels.details["node"] == "/html/body/div"
    assert labels.details["score"] == 6
    assert kept(p) == ["Posted on Monday by the editor.", "One. Two. Three.", "Four. Five."]


def test_removed_text_does_not_score() -> None:
    p = page(
        f'<div>Posted on Monday by the editor<div class="share">{RICH} {RICH}</div></div>'
        "<section><p>Alpha sentence. Beta sentence. Gamma sentence.</p></section>"
    )
    assert kept(p) == ["Alpha sentence. Beta sentence. Gamma sentence."]


def test_fusion_keeps_selected_siblings_only() -> None:
    p = page(
        "<div>"
        "<h2>A heading long enough to select</h2>"
        f"<p>{RICH}</p>"
        "<p>A sibling paragraph of one sentence.</p>"
        "<p>short</p>"  # not selected: not kept
        "<blockquote><p>Quoted text in a nested block here.</p></blockquote>"  # a cousin
        "</div>"
        "<div><p>Another paragraph elsewhere in the page.</p></div>"
    )
    labels = eatiht.label(p)
    assert kept(p) == ["A heading long enough to select", RICH, "A sibling paragraph of one sentence."]
    assert labels.details["fused"] == 3
    kinds = [label for label in labels.labels if label.kept]
    assert kinds == [Label.HEADER, Label.PARAGRAPH, Label.PARAGRAPH]


def test_ties_go_to_the_larger_group() -> None:
    lone = "<div><p>A lonely paragraph of one sentence.</p></div>"
    group = "<div>" + "".join(f"<p>Paragraph number {i} of the article.</p>" for i in range(4)) + "</div>"
    assert len(kept(page(lone + group))) == 4
    assert len(kept(page(group + lone))) == 4


def test_group_argmax() -> None:
    group = "<div>" + "".join(f"<p>Paragraph number {i} of the article.</p>" for i in range(6)) + "</div>"
    rich = f"<div><p>{RICH}</p></div>"  # 5 sentences: the richest node, the poorer group
    assert kept(page(group + rich)) == [RICH]
    assert len(kept(page(group + rich), Options(argmax="group"))) == 6
    with pytest.raises(ValueError):
        eatiht.label(page(group), Options(argmax="best"))


def test_images_inside_kept_nodes_are_kept() -> None:
    p = page(
        '<div><img src="outside.png" alt="outside">'
        '<p>First paragraph of the story. <img src="inside.jpg" alt="inside"> It goes on.</p>'
        "<p>Second paragraph of the story.</p></div>"
    )
    labels = eatiht.label(p)
    images = [b.image for b, label in zip(p.blocks, labels.labels) if label.kept and b.image]
    assert images == ["inside.jpg"]


# --- edge cases ---------------------------------------------------------------------------


@pytest.mark.parametrize("html", ["", "   ", "<html></html>", "<p>tiny</p>", "<img src=a.png>"])
def test_empty_or_textless_pages(html: str) -> None:
    p = load(html)
    labels = eatiht.label(p)
    assert len(labels.labels) == len(p.blocks)
    assert all(label is Label.OTHER for label in labels.labels)
    assert run(p, "eatiht").text == ""


# --- golden: a tiny handmade article ------------------------------------------------------

GOLDEN_PAGE = """<!DOCTYPE html>
<html><head><title>Cats</title><style>p { color: red }</style><script>var x = 1;</script></head>
<body class="single has-sidebar">
<header><h1>The Cat Blog</h1>
  <nav><a href="/">Home</a> <a href="/about">About this blog and its many authors</a></nav></header>
<div id="main">
  <article class="post">
    <h1>Why cats sleep all day long</h1>
    <p>Cats sleep up to sixteen hours a day. Their ancestors hunted at dawn and dusk.
       Sleeping saves <em>energy</em> for the hunt.</p>
    <p><img src="cat.jpg" alt="A sleeping cat"> A cat curled up on a warm windowsill.</p>
    <p>Kittens sleep even more. Old cats too!</p>
    <div class="sharedaddy"><h3>Share this:</h3><p>Share this article with your friends today.</p></div>
    <ul><li>Tags</li><li>cats</li></ul>
    <blockquote class="twitter-tweet"><p>Cats are the best. Really. I mean it. Truly. Yes.</p></blockquote>
  </article>
  <div id="comments">
    <p>Great article! I loved it. My cat sleeps all day too. She snores. It is cute. Bye.</p>
  </div>
</div>
<aside><p>Subscribe to our newsletter. It is free. You will love it. Really. Do it now!</p></aside>
<footer><p>Copyright 2024 The Cat Blog. All rights reserved. Powered by cats.</p></footer>
</body></html>
"""

GOLDEN_UNITS = [
    (Label.HEADER, "Why cats sleep all day long", ()),
    (Label.PARAGRAPH, "Cats sleep up to sixteen hours a day. Their ancestors hunted at dawn and dusk. "
     "Sleeping saves energy for the hunt.", ()),
    # the image stays an image of the unit; its alt text is not the unit's text
    (Label.PARAGRAPH, "A cat curled up on a warm windowsill.", (("cat.jpg", "A sleeping cat"),)),
    (Label.PARAGRAPH, "Kittens sleep even more. Old cats too!", ()),
]


def test_golden_article() -> None:
    result = run(load(GOLDEN_PAGE.encode("utf-8")), "eatiht")
    assert [(u.kind, u.text, u.images) for u in result.units] == GOLDEN_UNITS
    assert result.labels.details["node"] == "/html/body/div/article/p[1]"
    assert result.labels.details["score"] == 3


# --- real pages ---------------------------------------------------------------------------


@pytest.mark.skipif(not (SHARED / "datasets").is_dir(), reason="shared datasets not present (../shared)")
def test_real_pages_smoke() -> None:
    datasets = sorted(d for d in (SHARED / "datasets").iterdir() if (d / "html").is_dir())
    assert datasets
    for dataset in datasets:
        files = sorted((dataset / "html").iterdir())
        random.Random(1).shuffle(files)
        files = files[:50]
        non_empty = 0
        for path in files:
            page_ = load(path.read_bytes())
            labels = eatiht.label(page_)
            assert len(labels.labels) == len(page_.blocks)
            non_empty += any(label.kept for label in labels.labels)
        assert non_empty >= 0.85 * len(files), (dataset.name, non_empty, len(files))


# --- sentence counts fold over blocks ---------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from detourage.methods.eatiht import Pieces  # noqa: E402

_PIECE_TEXT = st.text(alphabet=st.sampled_from(list("ab1 .!?。」\"'…;")), max_size=12)


@settings(max_examples=500, deadline=None)
@given(texts=st.lists(_PIECE_TEXT, max_size=8))
def test_pieces_fold_counts_like_the_joined_text(texts: list[str]) -> None:
    folded = Pieces.join(Pieces.of(t) for t in texts).count
    assert folded == sentences(" ".join(texts))

