"""The native Boilerpipe method: features, decision rules, article filters, real pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from detourage.api import load
from detourage.methods import boilerpipe as bp
from detourage.model import Label

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"


def tb(words: int = 10, anchor: int = 0, wrapped_words: int | None = None, lines: int = 1,
       text: str = "x", start: int = 0, content: bool = False, level: int = 0,
       labels: tuple[str, ...] = ()) -> bp.TextBlock:
    return bp.TextBlock([start], text, words, anchor, words if wrapped_words is None else wrapped_words,
                        lines, start, start, level, content=content, labels=set(labels))


# --- features ----------------------------------------------------------------------------


def test_wrap_single_line_counts_all_words():
    assert bp.wrap(["a"] * 10) == (10, 1)


def test_wrap_at_80_characters():
    # two-letter words: 27 fill a line (-1 + 3 * 27 = 80), the 28th wraps; the words of
    # the unfinished last line are left out of the wrapped words
    assert bp.wrap(["ab"] * 27) == (27, 1)
    assert bp.wrap(["ab"] * 40) == (27, 1)
    assert bp.wrap(["ab"] * 60) == (54, 2)


def test_text_and_link_density():
    block = tb(words=20, anchor=5, wrapped_words=18, lines=2)
    assert block.text_density == 9
    assert block.link_density == 0.25
    assert bp.EMPTY.text_density == 0 and bp.EMPTY.link_density == 0


def test_features_count_anchor_words_and_split_at_links():
    runs = [("Read", True, False), ("the docs", False, True), ("now, please.", True, False)]
    assert bp.features(runs)[:2] == (5, 2)
    # punctuation-only tokens are not words
    assert bp.features([("a - b | c", True, False)])[0] == 3


def test_blocks_split_at_block_tags_not_inline_ones():
    page = load("<body><p>One <b>two</b> <a href='/'>three</a></p><p>four<br>five</p></body>")
    blocks = bp.boilerpipe_blocks(page.blocks)
    assert [b.text for b in blocks] == ["One two three", "four", "five"]
    assert [(b.words, b.anchor_words) for b in blocks] == [(3, 1), (1, 0), (1, 0)]


def test_blocks_as_boilerpipe_sees_them():
    page = load("<body><h2>Head</h2><p>|</p><ul><li>item <a name='x'>anchor</a>text</li></ul>"
                "<p>pick <select><option>one</option><option>two</option></select> end</p></body>")
    blocks = bp.boilerpipe_blocks(page.blocks)
    # a block without a word is a block (0 words); option text is no text; a link
    # boundary separates tokens, and an <a> without href is anchor text too
    assert [b.text for b in blocks] == ["Head", "|", "item anchor text", "pick", "end"]
    assert [(b.words, b.anchor_words) for b in blocks] == [(1, 0), (0, 0), (3, 1), (1, 0), (1, 0)]
    assert [sorted(b.labels) for b in blocks[:3]] == [[bp.HEADING], [], [bp.LI]]
    assert blocks[2].tag_level > blocks[1].tag_level


# --- classifiers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prev", "curr", "next_", "expected"),
    [
        (tb(10), tb(10, anchor=4), tb(10), False),  # curr link density > 1/3
        (tb(10), tb(17), tb(0), True),  # long block
        (tb(10), tb(10), tb(16), True),  # short block, long next
        (tb(4), tb(10), tb(10), False),  # short, between short blocks
        (tb(5), tb(10), tb(10), True),  # short, previous has 5+ words
        (tb(10, anchor=6), tb(40), tb(17), False),  # after links: needs > 40 words ...
        (tb(10, anchor=6), tb(41), tb(0), True),
        (tb(10, anchor=6), tb(10), tb(18), True),  # ... or a long next block
    ],
)
def test_num_words_rules(prev, curr, next_, expected):
    assert bp.num_words_rules(prev, curr, next_) is expected


@pytest.mark.parametrize(
    ("prev", "curr", "next_", "expected"),
    [
        (tb(10), tb(10, anchor=4), tb(10), False),
        (tb(5), tb(9), tb(11), True),  # next text density > 10
        (tb(4), tb(9), tb(10), False),  # low densities all around
        (tb(5), tb(9), tb(10), True),  # previous density > 4
        (tb(5), tb(12), bp.EMPTY, False),  # dense but nothing follows
        (tb(5), tb(12), tb(1), True),
        (tb(10, anchor=6), tb(30), tb(11), False),  # after links: next must be > 11
        (tb(10, anchor=6), tb(30), tb(12), True),
    ],
)
def test_density_rules(prev, curr, next_, expected):
    assert bp.density_rules(prev, curr, next_) is expected


# --- article filters ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Comments (3)", True), ("12 comments so far", True), ("© Reuters 2010. All rights", True),
     ("Add your comment here", True), ("Comments", True), ("no comments", False),
     ("A normal sentence.", False), ("12 users responded in this thread", True),
     ("Rätta artikeln", True), ("Comment", False)],
)
def test_terminating(text, expected):
    assert bp.terminating(text) is expected


def test_terminating_short_linked_comment():
    assert bp.terminating("Comment", link_density=1.0)
    assert not bp.terminating("Comment", link_density=0.5)


def test_potential_titles_as_boilerpipe_1_2():
    titles = bp.potential_titles("Big storm hits the coast | Example News")
    assert "big storm hits the coast" in titles
    assert "big storm hits the coast | example news" in titles
    assert "storm hits the coast" in bp.potential_titles("News » Storm hits the coast")
    # a " - site" end and a "site - " start are cut; apostrophes and case do not count
    assert "big storm hits the coast" in bp.potential_titles("Big storm hits the coast - Example")
    assert "storm's end" not in bp.potential_titles("Example - Storm's end")
    assert "storms end" in bp.potential_titles("Example - Storm's end")


def test_mark_title_marks_the_first_match_only():
    doc = [tb(text="Menu"), tb(text="Big storm hits the coast!"), tb(text="Big storm hits the coast")]
    bp.mark_title(doc, "Big storm hits the coast | Example News")
    assert [bp.TITLE in b.labels for b in doc] == [False, True, False]


def test_ignore_after_end_needs_enough_words():
    doc = [tb(70, wrapped_words=70, content=True), tb(3, text="Comments"), tb(50, content=True)]
    doc[1].labels.add(bp.END_OF_TEXT)
    bp.ignore_after_end(doc, 60)
    assert [b.content for b in doc] == [True, False, False]
    doc = [tb(20, content=True), tb(3), tb(50, content=True)]
    doc[1].labels.add(bp.END_OF_TEXT)
    bp.ignore_after_end(doc, 60)
    assert doc[2].content


def test_keep_largest_and_expand_title():
    doc = [tb(3, start=0, content=True), tb(5, start=2, content=True), tb(50, start=5, content=True)]
    doc[0].labels.add(bp.TITLE)
    bp.keep_largest(doc, 150)
    assert [b.content for b in doc] == [False, False, True]
    assert bp.VERY_LIKELY_CONTENT in doc[2].labels and bp.MIGHT_BE_CONTENT in doc[0].labels
    bp.expand_title(doc)
    assert [b.content for b in doc] == [True, True, True]


def test_keep_largest_expands_to_large_blocks_of_its_level():
    doc = [tb(160, level=3), tb(200, level=2), tb(150, level=3), tb(10, level=4),
           tb(300, level=3, content=True), tb(149, level=3), tb(170, level=4), tb(400, level=3)]
    bp.keep_largest(doc, 150)
    # up to the nearest lower level before it; deeper blocks are passed over, not joined
    assert [b.content for b in doc] == [False, False, True, False, True, False, False, True]


def test_large_blocks_of_the_largest_level_become_content():
    doc = [tb(120, level=2), tb(99, level=2), tb(300, level=2, content=True), tb(120, level=3)]
    doc[2].labels.add(bp.VERY_LIKELY_CONTENT)
    bp.large_blocks_to_content(doc, 100)
    assert [b.content for b in doc] == [True, False, True, False]


def test_list_at_end_adds_link_free_nested_items():
    doc = [tb(300, level=2, content=True, labels=(bp.VERY_LIKELY_CONTENT,)),
           tb(5, level=4, labels=(bp.MIGHT_BE_CONTENT, bp.LI)),
           tb(5, level=4, anchor=1, labels=(bp.MIGHT_BE_CONTENT, bp.LI)),
           tb(5, level=4, labels=(bp.MIGHT_BE_CONTENT, bp.LI))]
    bp.list_at_end(doc)
    assert [b.content for b in doc] == [True, True, False, False]


def test_trailing_headlines_are_boilerplate():
    # from the end, boilerplate passed over: every heading until the first other content
    doc = [tb(content=True), tb(content=True, labels=(bp.HEADING,)), tb(), tb(content=True, labels=(bp.HEADING,))]
    bp.trailing_headlines(doc)
    assert [b.content for b in doc] == [True, False, False, False]
    doc = [tb(content=True, labels=(bp.HEADING,)), tb(content=True)]
    bp.trailing_headlines(doc)
    assert [b.content for b in doc] == [True, True]


def test_proximity_fusion_joins_neighbours_only():
    doc = [tb(5, start=0, content=True), tb(5, start=2, content=True), tb(5, start=5, content=True)]
    fused = bp.proximity_fusion(doc, content_only=True)
    assert [(b.start, b.end, b.words) for b in fused] == [(0, 2, 10), (5, 5, 5)]


def test_proximity_fusion_same_tag_level():
    doc = [tb(5, start=0, content=True, level=3), tb(5, start=1, content=True, level=4),
           tb(5, start=2, content=True, level=4)]
    fused = bp.proximity_fusion(doc, content_only=True, same_level=True)
    assert [(b.start, b.end) for b in fused] == [(0, 0), (1, 2)]


# --- the method --------------------------------------------------------------------------

ARTICLE = (
    "<html><head><title>Big news | Site</title></head><body>"
    "<div><a href='/'>Home</a> <a href='/n'>News</a></div><h1>Big news</h1>"
    "<p>" + "This is a long sentence of the article with many words in it. " * 8 + "</p>"
    "<p>A second paragraph that goes on for a while, long enough to be text.</p>"
    "<div>Comments (12)</div><p>" + "Great post, thanks, I loved reading it a lot. " * 3 + "</p>"
    "</body></html>"
)


def test_article_keeps_title_and_body_and_stops_at_comments():
    page = load(ARTICLE)
    labels = bp.label(page)
    kept = " ".join(b.text for b, lab in zip(page.blocks, labels.labels) if lab.kept)
    # the first proximity fusion joins a content block to the block just before it,
    # content or not: the link bar before the title comes along, as in BoilerPy3
    assert kept.startswith("Home News Big news This is a long sentence")
    assert "second paragraph" in kept
    assert "Great post" not in kept
    assert labels.labels[[b.text for b in page.blocks].index("Big news")] is Label.HEADER


def test_default_variant_runs():
    page = load(ARTICLE)
    labels = bp.label(page, bp.Options(variant="default"))
    assert labels.details["variant"] == "default"
    assert any(lab.kept for lab in labels.labels)


def test_bad_variant_raises():
    with pytest.raises(ValueError):
        bp.label(load(ARTICLE), bp.Options(variant="largest"))


@pytest.mark.parametrize("html", ["", "<html></html>", "<p>   </p>", "<p>- | -</p>"])
def test_empty_pages(html):
    page = load(html)
    labels = bp.label(page)
    assert len(labels.labels) == len(page.blocks)
    assert not any(lab.kept for lab in labels.labels)


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared datasets not available (/work/shared)")
def test_real_pages_smoke():
    from detourage.gold import load_dataset

    for folder in sorted(p for p in SHARED.iterdir() if p.is_dir()):
        for doc in load_dataset(folder).documents[:3]:
            page = load(doc.read_html())
            for variant in bp.VARIANTS:
                labels = bp.label(page, bp.Options(variant=variant))
                assert len(labels.labels) == len(page.blocks)
