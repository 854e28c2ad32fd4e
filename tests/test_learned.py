"""The learned extractor: features, the tree scorer, training, the method and its options."""

from __future__ import annotations

import dataclasses

import gzip
import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

import detourage
from detourage.api import load, run
from detourage.cli import main
from detourage.errors import ModelError
from detourage.learned import context, features, forest, rules, train
from detourage.learned.forest import Forest, Model
from detourage.methods import learned
from detourage import segment
from detourage.segment import BLOCK_LEVEL

ARTICLE = """<html><head><title>Storm floods the old harbour - Daily Gazette</title>
<meta property="og:title" content="Storm floods the old harbour">
<script type="application/ld+json">{"@type": "NewsArticle",
 "articleBody": "The storm reached the coast on Monday night. Boats were lifted onto the quay."}</script>
</head><body>
<nav class="top-menu"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/sport">Sport</a></li></ul></nav>
<div class="ad-slot">Advertisement</div>
<article><h1>Storm floods the old harbour</h1>
<p>The storm reached the coast on Monday night. Boats were lifted onto the quay, and the water
rose higher than anyone in the town could remember, people said.</p>
<p>The mayor said the repairs would take months, and that the harbour would stay closed to
visitors until the walls have been checked by engineers.</p></article>
<div id="comments"><p>Great article, thanks for sharing this with us all!</p></div>
<footer class="site-footer"><p>© 2026 Daily Gazette. All rights reserved.</p></footer>
</body></html>"""


def column(para: features.Paragraphs, name: str) -> np.ndarray:
    return para.X[:, features.names().index(name)]


def test_features_describe_the_page():
    para = features.compute(load(ARTICLE))
    assert para.X.shape == (len(para.texts), len(features.names()))
    assert np.isfinite(para.X).all()
    texts = para.texts
    home, ad = texts.index("Home"), texts.index("Advertisement")
    first = next(i for i, t in enumerate(texts) if t.startswith("The storm"))
    assert column(para, "link_density")[home] == 1.0
    assert column(para, "dist_nav")[home] <= 2 and column(para, "dist_t_nav")[home] <= 3
    assert column(para, "dist_ad")[ad] == 0
    assert column(para, "dist_t_article")[first] == 1
    assert column(para, "in_jsonld")[first] == 1 and column(para, "in_jsonld")[home] == 0
    assert column(para, "type_article")[0] == 1
    assert texts[para.title_index] == "Storm floods the old harbour"
    assert para.heading[para.title_index] == 1
    comment = texts.index("Great article, thanks for sharing this with us all!")
    assert column(para, "dist_comment")[comment] <= 1 and column(para, "dist_comment")[first] == 99


def test_the_distance_to_the_title_stops_growing_a_few_paragraphs_after_it():
    # a long story: its 40th paragraph is no further from the title, to the model, than
    # its 6th, so the length of the training pages' stories does not carry to longer ones
    body = "".join(f"<p>Paragraph {i} of a long story that goes on, and on, and on.</p>" for i in range(40))
    para = features.compute(load(f"<html><head><title>A long story</title></head><body>"
                                 f"<p><a href='/'>Home</a></p><h1>A long story</h1>{body}</body></html>"))
    distance = column(para, "title_distance")
    title = para.title_index
    assert para.texts[title] == "A long story"
    assert distance[title - 1] < 0 < distance[title + 1] < distance[title + 2]
    assert distance[title + 6] == distance[-1] == np.float32(np.log1p(features.page.NEAR))
    assert (column(para, "after_title")[title + 1:] == 1).all()


def test_microdata_declares_the_page_type_but_a_comment_does_not():
    def forum(html: str) -> float:
        return column(features.compute(load(f"<body>{html}<p>Text of the post.</p></body>")), "type_forum")[0]

    assert forum("<div itemscope itemtype='http://schema.org/DiscussionForumPosting'>Thread</div>") == 1
    assert forum('<div itemtype="https://schema.org/QAPage">Q</div>') == 1
    assert forum('<div itemtype="https://schema.org/Comment">a blog\'s comment</div>') == 0
    assert features.page_hints(load('<p itemtype="https://schema.org/Product">x</p>')).types == {"product"}


@pytest.mark.skipif(features.text._cfeatures is None, reason="the compiled _cfeatures is not built")
def test_the_compiled_lower_case_is_str_lower_for_every_character():
    """``_cfeatures.lower`` maps a text below U+10000 by one table: for every character
    of the plane, alone and beside letters of one, two and four bytes (so that the
    result's width is chosen as ``str.lower`` chooses it), it gives what ``str.lower``
    gives; İ and a Σ (final or not by its context) go to ``str.lower`` itself."""
    lower = features.text._cfeatures.lower
    for code in range(0x10000):
        char = chr(code)
        for text in (char, f"Ab{char}c", f"\u0141{char}", f"{char}\u0416", f"\u5b57{char}\U0001F600"):
            assert lower(text) == text.lower(), (hex(code), text)
    for text in ("ΣΊΣΥΦΟΣ ΟΔΟΣ", "İSTANBUL", "Ÿ", "ẞ", "", "ascii ONLY"):
        assert lower(text) == text.lower()


@pytest.mark.skipif(segment._csegment is None, reason="the compiled _csegment is not built")
def test_compiled_hint_elements_give_the_hints_of_every_meta_and_script(monkeypatch):
    """The compiled walks pass over only elements the hints reject: with the elements the
    segmentation collected, with the compiled walk of their own and with the full
    ``iter()`` of ``<meta>``, ``<script>``, ``<link>`` and ``itemtype`` the hints are the
    same, whatever the case, spacing, entities or place (body, nested, after the body,
    hidden, in a ``<noscript>``) of the keys and types."""
    ld = '{"@type": "NewsArticle", "articleBody": "Body text"}'
    pages = [
        f'<html><head><meta property="OG:Title" content="A"><meta name=" Description" content="B">'
        f'<meta name="description" content="C"><meta property="og:type" content="Article">'
        f'<script type=" Application/LD+JSON ">{ld}</script><script>var x = 1;</script>'
        f'<meta property="og&#58;description" content="D"><meta charset="utf-8"></head>'
        f'<body><div><meta itemprop="name" content="E"><script type="application/ld+json">[{ld}]</script></div>'
        f'<p>Text</p><meta name="og:title" property="" content="F"></body></html><meta name="description" content="G">',
        '<html><body><script type="application/ld&#43;json">{"@type": "Recipe", "description": "H"}</script>'
        '<meta property="description" content="I"><meta name="DESCR" content="J"></body></html>',
        "<p>no meta at all</p>",
        '<html><head><meta itemprop="x" itemscope itemtype="HTTPS://Schema.org/Product"></head><body>'
        '<div itemscope itemtype="https://schema.org/Recipe http://schema.org/HowTo"><p>Text</p></div>'
        '<script itemtype="https://schema.org/Event">var x;</script><p itemtype="schema.org/Thing">y</p>'
        '<span itemtype="https://schema.org/Comment">z</span><i itemtype="https://schema.org/comment">c</i>'
        '<!-- itemtype="https://schema.org/Movie" --></body></html>',
        # the page's address: the first canonical link (rel holds it, any case), else og:url
        '<html><head><link rel="stylesheet" href="/a.css"><meta property="og:url" content=" https://e.example/og ">'
        '<link rel="Alternate CANONICAL" href=" /docs/x "><link rel="canonical" href="/second"></head>'
        '<body><link rel="canonical&#32;" href="/entity"><p>Text</p></body></html>',
        '<html><head><meta property="og:url" content="https://e.example/og"><link rel="canonical"></head></html>',
    ]
    pages.append('<html><body><div style="display:none"><script type="application/ld+json">'
                 '{"@type": "Product", "description": "K"}</script><span itemtype="https://schema.org/Offer">o'
                 '</span></div><noscript><div itemtype="https://schema.org/Event">e</div></noscript><p>Text</p>'
                 '<svg><meta name="description" content="L"/></svg></body></html>')
    for html in pages:
        page = load(html)
        assert page.declared is not None
        collected = features.page_hints(page)
        walked = features.page_hints(dataclasses.replace(page, declared=None))
        monkeypatch.setattr(segment, "_csegment", None)
        assert features.page_hints(dataclasses.replace(page, declared=None)) == walked == collected
        monkeypatch.undo()
    hidden = features.page_hints(load(pages[-1]))
    assert hidden.body == "l k" and {"product", "offer", "event"} <= hidden.types
    hints = features.page_hints(load(pages[0]))
    assert hints.title == "A" and "newsarticle" in hints.types and "body text" in hints.body
    # every schema.org URL of an itemtype, in any element, but a Comment's; never one in a comment
    assert features.page_hints(load(pages[3])).types == {"product", "recipe", "howto", "event"}
    assert features.page_hints(load(pages[4])).address == "/docs/x"
    assert features.page_hints(load(pages[5])).address == "https://e.example/og"  # a canonical with no href
    assert hints.address == "" and features.compute(load(pages[4])).address == "/docs/x"


def test_features_of_empty_and_tiny_pages():
    for html in ("", "<p>x</p>", "<img src=a.png>", "<table><tr><td>a<td>b</table>"):
        para = features.compute(load(html))
        assert para.X.shape[1] == len(features.names())
        assert np.isfinite(para.X).all()


_PATH_TAGS = st.sampled_from(["div", "h1", "h3", "h6", "li", "dd", "dt", "td", "th", "p", "span", "ul", "a"])


@given(st.lists(_PATH_TAGS, max_size=12).map(tuple))
def test_a_path_s_kind_is_read_from_its_innermost_tags(path):
    """The heading level is the innermost heading's; a list item counts inside it (or
    anywhere without one); a table cell anywhere: what a walk from the innermost tag
    outwards finds."""
    level = lst = cell = 0
    for tag in reversed(path):
        if not level and tag in features.vocabulary._HEADING_LEVEL:
            level = features.vocabulary._HEADING_LEVEL[tag]
        elif not lst and not level and tag in ("li", "dd", "dt"):
            lst = 1
        elif tag in ("td", "th"):
            cell = 1
    code = features.vocabulary._TAG_CODE.get(path[-1], 0) if path else 0
    assert features.tree._path_kind.__wrapped__(path) == (level, lst, cell, code)


def _toy_forest() -> Forest:
    """Two trees: keep a paragraph with low link density and more than 3 words."""
    names = features.names()
    ld, words = names.index("link_density"), names.index("log_words")
    return Forest(feature=np.array([ld, 0, 0, words, 0, 0], np.int32),
                  threshold=np.array([0.5, 0, 0, np.log1p(3), 0, 0]),
                  left=np.array([1, -1, -1, 4, -1, -1], np.int32),
                  right=np.array([2, -1, -1, 5, -1, -1], np.int32),
                  value=np.array([0, 2.0, -4.0, 0, -3.0, 1.5]),
                  roots=np.array([0, 3], np.int32), bias=0.0)


def _constant_forest(bias: float) -> Forest:
    """One leaf: every paragraph gets the log-odds ``bias`` (9: all kept, -9: none)."""
    return Forest(np.zeros(1, np.int32), np.zeros(1), np.array([-1], np.int32), np.array([-1], np.int32),
                  np.zeros(1), np.zeros(1, np.int32), bias=bias)


def _story(n: int) -> str:
    """``n`` article paragraphs, numbered from 0."""
    return "".join(f"<p>Paragraph {i} of the story, long enough to count, with words, and commas.</p>"
                   for i in range(n))


ODD = """<html><body><div class="main-content" id=""><p class="">Intro <b>bold</b> text</p>
<!-- a comment --><span>inline <a href=/x>link</a></span>
<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:text>vector</svg:text></svg:svg>
<ul role="navigation"><li itemprop="name">One</li><li class="menu item">Two</li></ul>
<table><tr><td class="sidebar widget">cell<br>two</td></tr></table><img alt="pic" src=a.png>
</div>tail text</body></html>"""


@pytest.mark.skipif(features.tree._compiled_walk is None, reason="the compiled _cfeatures is not built")
@pytest.mark.parametrize("html", [ARTICLE, ODD, "<p>x</p>", "text only"])
def test_compiled_walk_matches_python(html):
    page = load(html)
    starts = sorted({b.paragraph: i for i, b in reversed(list(enumerate(page.blocks)))}.values())
    firsts = [page.blocks[i] for i in starts]
    args = (features.vocabulary._TAG_BITS, features.vocabulary._vocabulary_bits, BLOCK_LEVEL)
    python = features.walk_python(firsts, *args)
    compiled = features.tree._compiled_walk(firsts, features.vocabulary._TAG_BITS, features.compiled_vocabulary(), BLOCK_LEVEL)
    for a, b in zip(compiled, python):
        assert np.array_equal(a, b)
    tree = features.tree._Tree(firsts)
    dist, depth = features.tree._compiled_distances(tree.container, tree.parent, tree.bits, len(features.GROUPS))
    numpy_dist, numpy_depth = tree.distances_numpy()
    assert np.array_equal(dist, numpy_dist) and np.array_equal(depth, numpy_depth)


@pytest.mark.skipif(features.regions._compiled_regions is None, reason="the compiled _cfeatures is not built")
@pytest.mark.parametrize("html", [ARTICLE, ODD, "<p>x</p>", "<div><p>" + "word, " * 30 + "</p><p>a</p></div><p>b</p>"])
def test_compiled_regions_match_numpy(html):
    page = load(html)
    para = features.compute(page)
    tree = features.tree._Tree([page.blocks[i] for i in para.starts.tolist()])
    chars = para.chars.astype(np.float64)
    rng = np.random.default_rng(len(html))
    args = (chars, rng.integers(0, 5, len(chars)).astype(np.float64), chars / 5, chars / 11,
            rng.random(len(chars)) * 3, rng.integers(0, 4, len(chars)).astype(np.float64))
    spans = np.full((features.LEVELS, 2, len(para)), -1, np.int32)
    compiled = features.regions._compiled_regions(*args, tree.first, tree.last, tree.parent, tree.container,
                                          features.LEVELS, spans)
    expected = features.regions_numpy(tree, *args)
    assert compiled.shape == expected.shape == (len(para), len(features.regions._region_names()))
    assert np.allclose(compiled, expected, rtol=1e-15, atol=0)
    assert np.array_equal(spans, tree.spans()) and np.array_equal(para.spans, spans)
    assert html != ARTICLE or expected[:, features.regions._region_names().index("l1_score")].max() == 1.0


@pytest.mark.skipif(features.neighbours._compiled_neighbours is None, reason="the compiled _cfeatures is not built")
@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 40])
def test_compiled_neighbours_match_numpy(n):
    rng = np.random.default_rng(n)
    chars = rng.integers(0, 300, n).astype(np.float64)
    args = (np.log1p(chars), rng.random(n), rng.random(n), rng.integers(0, 3, n).astype(np.float64), chars)
    compiled = features.neighbours._compiled_neighbours(*args, features.WINDOW)
    expected = features.neighbours_numpy(*args)
    assert compiled.shape == expected.shape == (n, len(features.neighbours._neighbour_names()))
    assert np.array_equal(compiled, expected)


@pytest.mark.skipif(features.text._compiled_char_stats is None, reason="the compiled _cfeatures is not built")
@pytest.mark.parametrize("texts", [["", "a", "\U0001F600 x", "Ab. ", "中文的。", "\ud800", " x  y ", "Β!"],
                                   features.compute(load(ARTICLE)).texts])
def test_compiled_character_statistics_match_numpy(texts):
    tables = (features.text._char_classes(), features.text._stopwords()[1].view(np.uint8),
              features.text._ending_table().view(np.uint8))
    compiled = features.text._compiled_char_stats(texts, *tables)
    for a, b in zip(compiled, features.char_stats_numpy(texts, *tables)):
        assert np.array_equal(a, b)


WORDS = ["", "the and of", "ΤΗΣ Ελλάδας της", "İstanbul i̇stanbul", "a\u00a0b\u2003c", "中文 的", "x_y z9 ²3",
         "\U0001F600 emoji \U0001F600", "The Title: of the page", "title TITLE title"]


@pytest.mark.skipif(features.text._compiled_stop_counts is None, reason="the compiled _cfeatures is not built")
@pytest.mark.parametrize("texts", [WORDS, features.compute(load(ARTICLE)).texts])
def test_compiled_stop_words_match_python(texts):
    lowered = "\x1f".join(texts).lower()
    stopwords = features.text._stopwords()[0]
    split_words = np.array([len(t.split()) for t in texts])
    is_stop = np.fromiter(map(stopwords.__contains__, lowered.split()), dtype=np.float64)
    expected = np.bincount(np.repeat(np.arange(len(texts)), split_words), weights=is_stop, minlength=len(texts))
    assert expected.sum() > 0
    assert np.array_equal(features.text._compiled_stop_counts(lowered, len(texts), features.text._stop_set()), expected)


@pytest.mark.skipif(features.page._compiled_title_overlap is None, reason="the compiled _cfeatures is not built")
@pytest.mark.parametrize("title", ["The title of the page", "Ελλάδας", "x_y 中文", ""])
@pytest.mark.parametrize("texts", [WORDS, features.compute(load(ARTICLE)).texts])
def test_compiled_title_overlap_matches_python(texts, title):
    from detourage.learned import _cfeatures

    lowered = "\x1f".join(texts).lower()
    chars = np.array([len(t) for t in texts], dtype=np.float64)
    title_words = set(features.page._WORD.findall(title.lower()))
    expected = features.title_overlap_python(lowered.split("\x1f"), chars, title_words)
    compiled = features.page._compiled_title_overlap(lowered, chars, _cfeatures.WordSet(title_words), features.SHORT)
    assert np.array_equal(compiled, expected)
    assert texts is not WORDS or not title or expected.max() > 0  # the twins are compared on hits


#: paragraphs at the edges of the year and copyright marks: runs of three, four and five
#: digits, years at both ends, Arabic-Indic and full-width digits, a "Copyright" split by
#: the paragraph boundary, a © alone
MARKS = ["1999", "in 2020.", "12020", "2020s", "x1984y", "19٨٤ and ١٩٨٤", "２０２０", "1899 2100", "19 99",
         "(c) Copyright 2011", "copy", "right", "©", "opyrigh", "Copyrigh", "t", "a © b 2001-2005", ""]


@pytest.mark.skipif(features.text._compiled_marks is None, reason="the compiled _cfeatures is not built")
@pytest.mark.parametrize("texts", [MARKS, features.compute(load(ARTICLE)).texts])
def test_compiled_marks_match_python(texts):
    joined = "\x1f".join(texts)
    chars = np.array([len(t) for t in texts], dtype=np.float64)
    digits = np.array([sum(c.isdigit() for c in t) for t in texts])
    year, held = features.text._compiled_marks(joined, len(texts))
    expected_year = features.text._marks(texts, features.text._YEAR, digits >= 4)
    assert np.array_equal(year * (digits >= 4), expected_year)
    assert np.array_equal(held, features.text._holding(joined, chars, features.COPYRIGHT_MARKS))
    assert texts is not MARKS or (expected_year.sum() >= 4 and held.sum() >= 3)


def test_vocabulary_windows_cover_every_group_word():
    """The window of :func:`features.vocabulary._vocabulary_bits` holds the longest word a group
    matches and its look-ahead character, so windows give the bits of whole strings."""
    from re import _parser as sre_parse  # the parser re itself uses (Python ≥ 3.11)

    patterns = [features.group_pattern(words) for words in features.CLASS_GROUPS.values()]
    for rx in patterns:
        assert sre_parse.parse(rx).getwidth()[1] + 1 < features.vocabulary._WINDOW, rx
    whole = [re.compile(r"(?<![a-z])(?:" + rx + ")") for rx in patterns]
    for words in VOCABULARY_STRINGS:
        bits = sum(1 << j for j, rx in enumerate(whole) if rx.search(words.lower()))
        assert features.vocabulary._vocabulary_bits.__wrapped__(words) == bits, words


#: class strings at the edges of the vocabulary's rules: token starts, bounded words
#: (``tab``, ``ads``), case, characters outside ASCII (the Kelvin sign lower-cases to ``k``,
#: ``İ`` to ``i`` and a combining dot)
VOCABULARY_STRINGS = ["main-content", "site-title sr-only", "navbar col-md-4 ads", "xnav", "tabs2 tabsx",
                      "screenreader screen-reader-text", "Post_Body PAGINATION", "a" * 40 + " comment", "tab",
                      "ta", "", "tab-é nav", "x\u212anav", "\u212anav", "SİDEBAR", "éNAV navé", "ad\u212a ad",
                      "中文 footer", "hed", "hedx shed", "\U0001F600menu"]


@pytest.mark.skipif(features.tree._compiled_walk is None, reason="the compiled _cfeatures is not built")
def test_compiled_vocabulary_matches_python():
    vocabulary = features.compiled_vocabulary()
    hits = 0
    for words in VOCABULARY_STRINGS:
        expected = features.vocabulary._vocabulary_bits.__wrapped__(words)
        assert vocabulary(words) == expected, words
        hits += expected > 0
    assert hits > 10  # the twins are compared on matches, not only on misses


@pytest.mark.skipif(features.tree._compiled_walk is None, reason="the compiled _cfeatures is not built")
def test_compiled_vocabulary_matches_python_around_every_word():
    """Each vocabulary word, cut short, extended, inside other words and after separators:
    the compiled matcher (which tries only the words of a token's first two letters) and
    the Python one agree; and a vocabulary with a one-letter word (matched by first
    letter only) agrees with a plain scan."""
    from detourage.learned import _cfeatures

    vocabulary = features.compiled_vocabulary()
    words = [entry[0] for entry in vocabulary.__reduce__()[1][0]]
    for word in words:
        for text in (word, word[:-1], word + "s", word + "-x", "x" + word, "a-" + word, word.upper(), "b_" + word + "2",
                     f"{word} {words[len(word) % len(words)]}", word[:2], word[0] + " " + word[1:]):
            assert vocabulary(text) == features.vocabulary._vocabulary_bits.__wrapped__(text), text
    short = _cfeatures.Vocabulary([("a", 1, True), ("ab", 2, False), ("b-c", 4, False)])
    for text, bits in (("a", 1), ("ab", 2), ("abc", 2), ("a b", 1), ("x a", 1), ("b-cd", 4), ("ba", 0), ("", 0)):
        assert short(text) == bits, text


@pytest.mark.skipif(context._compiled is None, reason="the compiled _cfeatures is not built")
@pytest.mark.parametrize("seed", [0, 1])
def test_compiled_context_matches_numpy(seed):
    para = features.compute(load(ARTICLE))
    q = np.random.default_rng(seed).random(len(para))
    q[::3] = 0.5  # on the kept boundary
    one = features.compute(load("<p>One line of text.</p>"))
    for page, probabilities in ((para, q), (para, q * 0.4), (para, np.full(len(q), 0.5)),  # some kept, none, all
                                (one, np.array([0.7])), (one, np.array([0.2]))):
        compiled = context.compute(probabilities, page.spans, page.chars, page.signature)
        out = np.empty_like(compiled)
        w = page.chars.astype(np.float64) + 1.0
        numpy_twin = context.columns_numpy(probabilities, w, probabilities >= context.KEPT, page.spans, page.signature,
                                           out)
        assert np.array_equal(compiled, numpy_twin)


def test_context_features_summarise_the_first_stage():
    para = features.compute(load(ARTICLE))
    q = np.where(np.char.startswith(np.array(para.texts), "The "), 0.9, 0.1)
    ctx = context.compute(q, para.spans, para.chars, para.signature)
    assert ctx.shape == (len(para), len(context.names())) and np.isfinite(ctx).all()
    col = {name: ctx[:, j] for j, name in enumerate(context.names())}
    first = next(i for i, t in enumerate(para.texts) if t.startswith("The storm"))
    home = para.texts.index("Home")
    assert col["q"][first] == pytest.approx(0.9)
    assert col["q1_mean"][first] > 0.7 > col["q1_mean"][home]  # the <article> is mostly content
    assert col["q_in_span"][first] == 1 and col["q_in_span"][home] == 0
    assert context.compute(np.zeros(0), np.zeros((features.LEVELS, 2, 0), np.int32), np.zeros(0),
                           np.zeros(0, np.int32)).shape == (0, len(context.names()))
    items = [i for i, t in enumerate(para.texts) if t in ("Home", "News", "Sport")]
    assert len(set(para.signature[items].tolist())) == 1  # the menu items share one structure
    assert column(para, "log_same_structure")[items[0]] == pytest.approx(np.log1p(3))


def test_stacked_model_round_trip(tmp_path):
    toy = _toy_forest()
    never = _constant_forest(-9.0)
    model = Model(toy, features.names(), 0.5, {"name": "two", "context": list(context.names())}, never)
    model.save(tmp_path / "m.zip")
    back = forest.load_model(str(tmp_path / "m.zip"))
    assert back.second is not None and back.meta["context"] == list(context.names())
    back.check(features.names())
    para = features.compute(load(ARTICLE))
    assert (back.probabilities(para) < 0.01).all()  # the second stage decides
    stale = Model(toy, features.names(), 0.5, {"name": "stale", "context": ["q"]}, never)
    with pytest.raises(ModelError, match="second-stage"):
        stale.check(features.names())


def test_compiled_and_numpy_scorers_agree():
    f = _toy_forest()
    rng = np.random.default_rng(0)
    X = rng.random((200, len(features.names())), dtype=np.float32) * 4
    assert np.allclose(f.raw_scores(X), f.raw_scores_numpy(X))
    assert f.raw_scores(np.zeros((0, X.shape[1]), np.float32)).shape == (0,)


def test_a_forest_out_of_depth_first_order_scores_the_same():
    """The compiled walk reads a node's left child as the next record (:attr:`Forest.packed`):
    a table in another order is renumbered, nodes no root reaches left out."""
    toy = _toy_forest()
    # the second tree first, its children swapped in the table, and an unreachable node
    order = [3, 5, 4, 0, 2, 1]
    moved = Forest(feature=np.append(toy.feature[order], 0), threshold=np.append(toy.threshold[order], 0.0),
                   left=np.array([2, -1, -1, 5, -1, -1, -1], np.int32),
                   right=np.array([1, -1, -1, 4, -1, -1, -1], np.int32),
                   value=np.append(toy.value[order], 99.0), roots=np.array([3, 0], np.int32), bias=0.0)
    nodes, value, roots = moved.packed
    assert len(nodes) == 6 and (nodes["feature"][nodes["right"] >= 0] >= 0).all()
    X = np.random.default_rng(3).random((50, len(features.names())), dtype=np.float32) * 4
    assert np.array_equal(moved.raw_scores(X), toy.raw_scores(X))
    assert np.allclose(moved.raw_scores_numpy(X), toy.raw_scores(X))


def test_forest_matches_sklearn():
    sklearn = pytest.importorskip("sklearn.ensemble")
    rng = np.random.default_rng(1)
    X = rng.normal(size=(600, 5)).astype(np.float32)
    y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int)
    clf = sklearn.HistGradientBoostingClassifier(max_iter=20, random_state=0).fit(X, y)
    f = Forest.from_sklearn(clf)
    assert np.allclose(1 / (1 + np.exp(-f.raw_scores(X))), clf.predict_proba(X)[:, 1], atol=1e-6)
    assert np.allclose(f.raw_scores_numpy(X), f.raw_scores(X))


def test_a_mean_forest_scores_the_mean_log_odds():
    sklearn = pytest.importorskip("sklearn.ensemble")
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 4)).astype(np.float32)
    y = (X[:, 0] - X[:, 3] > 0).astype(int)
    forests = [Forest.from_sklearn(sklearn.HistGradientBoostingClassifier(max_iter=5 + k, random_state=k)
                                   .fit(X[k::2], y[k::2])) for k in range(2)]
    mean = Forest.mean(forests)
    assert mean.trees == forests[0].trees + forests[1].trees
    expected = (forests[0].raw_scores(X) + forests[1].raw_scores(X)) / 2
    assert np.allclose(mean.raw_scores(X), expected) and np.allclose(mean.raw_scores_numpy(X), expected)


def test_model_round_trip_and_feature_check(tmp_path):
    model = Model(_toy_forest(), features.names(), 0.5, {"name": "toy"})
    model.save(tmp_path / "m.zip")
    back = forest.load_model(str(tmp_path / "m.zip"))
    assert back.names == model.names and back.meta["name"] == "toy"
    assert np.array_equal(back.forest.value, model.forest.value)
    with pytest.raises(ModelError, match="other features"):
        Model(_toy_forest(), ("a", "b"), 0.5).check(features.names())
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    with pytest.raises(ModelError, match="not a learned-extractor model"):
        forest.load_model(str(tmp_path / "bad.zip"))


def test_method_keeps_what_the_model_scores_and_the_title():
    toy = Model(_toy_forest(), features.names(), 0.5, {"name": "toy"})
    result = run(load(ARTICLE), "learned", {"learned": learned.Options(model=toy)})
    text = result.text
    assert text.splitlines()[0] == "Storm floods the old harbour"  # the title heading, kept
    assert "The mayor said" in text and "Home" not in text and "Sport" not in text
    assert result.labels.details["learned"]["kept"] >= 3


def test_favor_moves_the_threshold():
    toy = Model(_toy_forest(), features.names(), 0.5, {"name": "toy"})
    page = load(ARTICLE)
    kept = {favor: len(run(page, "learned", {"learned": learned.Options(model=toy, favor=favor)}).text)
            for favor in ("precision", "balanced", "recall")}
    assert kept["precision"] <= kept["balanced"] <= kept["recall"]
    with pytest.raises(ValueError, match="favor"):
        learned.Options(favor="both")


def test_comment_sections_are_left_out_of_articles_not_forums():
    everything = Model(_constant_forest(9.0), features.names(), 0.5, {"name": "everything"})
    story = _story(16)
    comments = '<div class="comment-list"><p>First! Great story.</p><p>I disagree with all of it.</p></div>'

    def text(body: str, head: str = "", **options) -> str:
        page = load(f"<html><head>{head}</head><body><article>{body}</article>{comments}</body></html>")
        return run(page, "learned", {"learned": learned.Options(model=everything, **options)}).text

    assert "Paragraph 15" in text(story) and "First!" not in text(story)
    assert "First!" in text(story, comments=True)
    forum = '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>'
    assert "First!" in text(story, forum)  # a forum's replies are its content
    assert "First!" in text("<p>A short note.</p>")  # no article to set them apart from


def test_a_post_under_a_container_named_for_comments_is_no_comment_section():
    # a post's body inside a <div class="commentOnSelection"> (a tool to comment on a
    # passage): its paragraphs four levels under it, its list items five; all of it is
    # one container named so, and no article stands outside it to set it apart from
    everything = Model(_constant_forest(9.0), features.names(), 0.5, {"name": "everything"})
    items = "".join(f"<li>Point {i}: the assistant is trained end to end, and its outputs are checked by "
                    f"people who read them closely, one by one.</li>" for i in range(10))
    body = (f"<div class='commentOnSelection'><div><div><div>{_story(6)}<ul>{items}</ul></div></div></div></div>")
    page = load(f"<html><body><h1>Scalable interpretability</h1>{body}</body></html>")
    text = run(page, "learned", {"learned": learned.Options(model=everything)}).text
    assert "Paragraph 5" in text and "Point 9" in text


@pytest.mark.parametrize("line, heading, opens", [
    ("Comments", False, True), ("12 Comments", False, True), ("Comments (33)", True, True),
    ("Leave a comment", False, True), ("Wasze komentarze [1]", True, True), ("Dodaj komentarz", False, True),
    ("Комментарии: 0", False, True), ("发表评论", False, True), ("Σχόλια", False, True),
    ("HAVE YOUR SAY", False, True), ("Comments: CVPR 2026", True, True),
    ("He declined to comment.", False, False), ("Comments: CVPR 2026", False, False),
    ("Code with comments — see it applied", False, False), ("Most commented", True, False),
    ("Самые комментируемые", True, False), ("Commentary", True, False), ("uncommented", True, False),
    (">>> print(issue['comments'])", False, False), ("Avoiding reading comments.", False, False),
    ("Comments are now closed for this story", False, True), ("Comments are closed.", False, True),
    ("Commenting is disabled", False, True), ("Comments are closing in on the mayor's office", False, False),
    ("Comment choisir son barbecue charbon ?", True, False), ("Comment ça marche ?", True, False),
    ("Оставить комментарий *", False, True), ("Leave a comment *", False, True),
    ("| 13 Comment(s)", False, True), ("• 4 comments", False, True), ("| Share (s)", False, False),
    ("| Commentary", False, False), ("Opinie (1103)", False, True), ("Reactions [12]", True, True),
    ("Opinie", True, False), ("Opinions", False, False), ("Opinie ekspertów (3)", True, False),
])
def test_comment_mark(line, heading, opens):
    assert rules.comments.comment_mark(line, heading) is opens


def test_an_unnamed_comment_section_is_cut_below_its_heading():
    everything = Model(_constant_forest(9.0), features.names(), 0.5, {"name": "everything"})
    story = _story(8)
    flat = (f"<div>{story}<h3>Comments (2)</h3><p>Posted by Ann on May 2</p><p>First! Great story.</p>"
            "<p>Posted by Bob on May 2</p><p>I disagree with all of it.</p></div>")
    boxed = (f"<div>{story}<div><h4>Have your say</h4><p>Is the harbour safe? Send us your views.</p></div>"
             "<p>The harbour reopens on Monday, the mayor said.</p></div>")

    def result(body: str, head: str = "", **options):
        page = load(f"<html><head>{head}</head><body>{body}</body></html>")
        return run(page, "learned", {"learned": learned.Options(model=everything, **options)})

    cut = result(flat)
    assert "Paragraph 7" in cut.text and "First!" not in cut.text and "Posted by" not in cut.text
    assert cut.labels.details["learned"]["comment_mark"] == "Comments (2)"
    assert "First!" in result(flat, comments=True).text
    forum = '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>'
    assert "First!" in result(flat, forum).text
    assert "First!" in result("<p>A short note.</p><h3>Comments</h3><p>First! Great story.</p>").text
    box = result(boxed).text  # a box inside the story: the story resumes after it
    assert "Send us your views" not in box and "The harbour reopens on Monday" in box


@pytest.mark.parametrize("line, heads", [
    ("Latest news", True), ("Related articles:", True), ("RELATED", True), ("More from The Gazette", True),
    ("Czytaj także", True), ("Zobacz też:", True), ("Читайте также", True), ("Τελευταία Νέα", True),
    ("相关新闻", True), ("À lire aussi »", True), ("Most read", True), ("You may also like", True),
    ("Other Recent Articles...", True), ("Other news", True), ("Recent headlines:", True),
    ("Latest British Columbia News Headlines", True), ("Podobne do Najnowsze fryzury gwiazd", True),
    ("Podobne", True), ("Więcej wiadomości", True), ("The latest on the harbour works", False),
    ("See also", False), ("Other news in the region was scarce", False), ("More on fields ¶", False), ("Recommended:", False),
    ("Most popular programming languages", False), ("Related work on tree ensembles", False),
    ("The latest news from the harbour is that it will reopen on Monday", False),
])
def test_related_mark(line, heads):
    assert rules.related.related_mark(line) is heads


def test_related_phrases_start_with_a_letter():  # the first-letter test before the pattern relies on it
    assert all(phrase[0].isalpha() and phrase[0] == phrase[0].lower() for phrase in rules.related.RELATED_PHRASES)


def test_a_box_of_related_teasers_is_dropped_but_not_an_article_section():
    everything = Model(_constant_forest(9.0), features.names(), 0.5, {"name": "everything"})
    teasers = ("<div><div><h3>Latest news</h3></div><ul>"
               "<li><a href='/a'>Doctors strike again</a><div>After the pharmacists, the doctors of the fund "
               "decided to strike again this week.</div></li>"
               "<li><a href='/b'>New rules for the insured</a><div>The fund sets new terms of care for "
               "farmers and their families.</div></li></ul></div>")

    def result(body: str):
        page = load(f"<html><body>{body}</body></html>")
        return run(page, "learned", {"learned": learned.Options(model=everything)})

    boxed = result(f"<article>{_story(4)}</article>{teasers}")
    assert "Paragraph 3" in boxed.text and "Latest news" not in boxed.text
    assert "doctors of the fund" not in boxed.text and "new terms of care" not in boxed.text
    assert boxed.labels.details["learned"]["related_boxes"] == ["Latest news"]
    # a heading in the article's own container that reads "Related…": a section, kept
    flat = result(f"<div>{_story(4)}<h3>Related</h3><p>The harbour was flooded in 1953 too.</p></div>")
    assert "flooded in 1953" in flat.text and "related_boxes" not in flat.labels.details["learned"]
    # teasers with no article above them (a home page): kept
    home = result(f"<div>{teasers}</div><div>{_story(2)}</div>")
    assert "doctors of the fund" in home.text
    # a site's home page is its teasers, a featured story above them or not
    front = run(load(f"<html><body><article>{_story(4)}</article>{teasers}</body></html>",
                     url="https://gazette.example/"), "learned", {"learned": learned.Options(model=everything)})
    assert "doctors of the fund" in front.text and "related_boxes" not in front.labels.details["learned"]
    # …its address given, or where none is, declared by the page itself
    declared = run(load(f"<html><head><link rel='canonical' href='https://gazette.example/'></head><body>"
                        f"<article>{_story(4)}</article>{teasers}</body></html>"),
                   "learned", {"learned": learned.Options(model=everything)})
    assert "doctors of the fund" in declared.text and "related_boxes" not in declared.labels.details["learned"]


def test_a_table_of_contents_naming_a_related_section_does_not_take_the_article():
    # a guide opens with a table of contents whose last entry names the related box at the
    # bottom: that entry heads no box, and the article under it stays (the model keeps
    # the lines of more than three words without links: not the other entries)
    toy = Model(_toy_forest(), features.names(), 0.5, {"name": "toy"})
    intro = "<p>Our editors test every laptop before they recommend one, in a lab of their own.</p>" * 3
    contents = ("<ul class='toc'><li><p>The rundown</p></li><li><p>Best overall</p></li>"
                "<li><p>More Articles You Might Enjoy</p></li></ul>")
    related = "<div><h2>More Articles You Might Enjoy</h2><ul><li><a href='/x'>The best mice</a></li></ul></div>"
    page = load(f"<html><body><main><div>{intro}</div><div>{contents}<div>{_story(6)}</div>{related}</div>"
                "</main></body></html>")
    result = run(page, "learned", {"learned": learned.Options(model=toy)})
    assert "Paragraph 5" in result.text and "The best mice" not in result.text


def test_the_fallback_does_not_bring_a_related_box_back():
    # a short article, then a box of teasers holding more prose than the article (the
    # page's "best container"), under a long menu: once the box is dropped the model has
    # kept under 5 % of the page's text, and the fallback must look elsewhere
    toy = Model(_toy_forest(), features.names(), 0.5, {"name": "toy"})
    summary = ("The fund sets new terms of care for farmers, their families, and the doctors who treat them, "
               "from the first of the month, the ministry said on Tuesday.")
    teasers = ("<div><div><h3>Latest news</h3></div><ul>"
               + "".join(f"<li><a href='/{i}'>Headline {i}</a><div>{summary}</div></li>" for i in range(4))
               + "</ul></div>")
    menu = "<ul>" + "".join(f"<li><a href='/m{i}'>Section number {i} of the site</a></li>" for i in range(250)) + "</ul>"
    page = load(f"<html><body><div>{_story(4)}</div>{teasers}{menu}</body></html>")
    result = run(page, "learned", {"learned": learned.Options(model=toy)})
    assert result.labels.details["learned"]["related_boxes"] == ["Latest news"]
    assert "Paragraph 3" in result.text and "terms of care" not in result.text


def test_a_code_block_is_kept_or_dropped_whole():
    # the model keeps lines longer than 30 characters: the story, not short code lines
    split = Forest(np.array([features.names().index("log_chars"), 0, 0], np.int32),
                   np.array([np.log1p(30.0), 0.0, 0.0]), np.array([1, -1, -1], np.int32),
                   np.array([2, -1, -1], np.int32), np.array([0.0, -9.0, 9.0]), np.zeros(1, np.int32), bias=0.0)
    long_lines = Model(split, features.names(), 0.5, {"name": "long lines"})
    code = "<pre>x = 1\ny = x + 1\nprint(y)\n</pre>"
    long_code = "<pre>z = compute_the_whole_answer(x, y)\nw = compute_the_whole_answer(z, y)\nq = 1</pre>"
    aside = "<aside><ul><li><a href=/a>Home</a></li><li><a href=/b>About</a></li></ul></aside>"

    def result(body: str) -> str:
        page = load(f"<html><body>{body}</body></html>")
        return run(page, "learned", {"learned": learned.Options(model=long_lines)}).text

    assert "x = 1\ny = x + 1\nprint(y)" in result(f"<div>{_story(3)}{code}{_story(2)}</div>")
    assert "q = 1" in result(f"{aside}{long_code}{aside}")  # most of it kept: all of it
    mostly_short = "<pre>print(compute_the_whole_answer(y))\n" + "i += 1\n" * 8 + "</pre>"
    text = result(f"<div>{_story(3)}</div>{aside}{aside}{aside}<div>{code}</div>{aside}{aside}{mostly_short}")
    assert "x = 1" not in text and "print(" not in text and "Paragraph 2" in text  # away from the story


def test_fallback_when_the_model_keeps_nothing():
    model = Model(_constant_forest(-9.0), features.names(), 0.5, {"name": "nothing"})
    body = _story(12)
    page = load(f"<html><body><div><a href=/>Home</a></div><div class=story>{body}</div></body></html>")
    result = run(page, "learned", {"learned": learned.Options(model=model)})
    assert result.labels.details["learned"]["fallback"] == "best-container"
    assert "Paragraph 11 of the story" in result.text and "Home" not in result.text
    off = run(page, "learned", {"learned": learned.Options(model=model, fallback=False)})
    assert off.text == "" and "fallback" not in off.labels.details["learned"]
    tiny = run(load("<!doctype html><p>one short line</p>"), "learned", {"learned": learned.Options(model=model)})
    assert tiny.text == "one short line" and tiny.labels.details["learned"]["fallback"] == "small-page"


def test_fallback_keeps_what_the_model_ranks_first():
    """Probabilities all under the threshold, their order right: the paragraphs near the
    page's best guess are kept, not the long low-link menu the container score prefers."""
    no_commas = features.names().index("commas")
    ranking = Forest(np.array([no_commas, 0, 0], np.int32), np.array([0.5, 0, 0]), np.array([1, -1, -1], np.int32),
                     np.array([2, -1, -1], np.int32), np.array([0.0, -3.0, -1.0]), np.zeros(1, np.int32), bias=0.0)
    model = Model(ranking, features.names(), 0.5, {"name": "ranking"})
    menu = "".join(f"<li>Category number {i} and its long descriptive name</li>" for i in range(80))
    story = "".join(f"<p>Paragraph {i} of the story, long enough, with words, and commas.</p>" for i in range(3))
    page = load(f"<html><body><ul>{menu}</ul><div class=story>{story}</div></body></html>")
    result = run(page, "learned", {"learned": learned.Options(model=model)})
    assert result.labels.details["learned"]["fallback"] == "model-ranked"
    assert "Paragraph 2 of the story" in result.text and "Category" not in result.text
    # a drop-down's 80 entries, ranked above the story: never content, the story is kept
    options = "".join(f"<option>Category number {i} and its long descriptive name</option>" for i in range(80))
    page = load(f"<html><body><form><select>{options}</select></form><div class=story>{story}</div></body></html>")
    upside_down = Model(replace(ranking, value=np.array([0.0, -1.0, -3.0])), features.names(), 0.5, {"name": "u"})
    result = run(page, "learned", {"learned": learned.Options(model=upside_down)})
    assert "Paragraph 2 of the story" in result.text and "Category" not in result.text
    everything = Model(_constant_forest(9.0), features.names(), 0.5, {"name": "everything"})
    assert "Category" not in run(page, "learned", {"learned": learned.Options(model=everything)}).text


def test_the_fallback_keeps_the_lists_of_links_of_the_content_it_rescued():
    """A list page (an index of languages) the model ranks low all over: the rescue of
    low-link paragraphs leaves its lists of links out; those ranked near the best guess
    inside the element holding what was rescued come back, a menu's outside it do not."""
    from detourage.learned.rules.fallback import fall_back

    nav = "".join(f'<li><a href="/n{i}">Menu entry {i}</a></li>' for i in range(30))
    items = "".join(f'<li><a href="/l{i}">Language number {i}</a></li>' for i in range(40))
    intro = "".join(f"<p>Paragraph {i} says what the list below holds, in a few words.</p>" for i in range(2))
    page = load(f"<html><body><header><ul>{nav}</ul></header><main><div class=content>{intro}"
                f"<ul>{items}</ul></div></main><footer><p>Footer line of the site.</p></footer></body></html>")
    para = features.compute(page)
    texts = list(para.texts)
    probability = np.array([0.3 if t.startswith("Paragraph") else 0.25 if t.startswith(("Language", "Menu"))
                            else 0.01 for t in texts])
    kept = {}
    for with_page in (False, True):
        keep = np.zeros(len(texts), bool)
        found = fall_back(para, keep, probability, np.ones(len(texts), bool), np.zeros(len(texts), bool),
                          page if with_page else None)
        assert found["fallback"] == "model-ranked"
        kept[with_page] = [t for t, k in zip(texts, keep) if k]
    assert kept[False] == ["Paragraph 0 says what the list below holds, in a few words.",
                           "Paragraph 1 says what the list below holds, in a few words."]
    assert kept[True] == kept[False] + [f"Language number {i}" for i in range(40)]


def _dataset(root: Path) -> Path:
    """A small dataset folder (one page gzipped) whose gold keeps the article."""
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    meta = []
    for i in range(8):
        html = ARTICLE.replace("Monday", f"day {i}")
        if i % 2:
            (root / "html" / f"p{i}.html.gz").write_bytes(gzip.compress(html.encode()))
        else:
            (root / "html" / f"p{i}.html").write_text(html, encoding="utf-8")
        page = load(html)
        gold = [t for t in features.compute(page).texts if "storm" in t.lower() or "mayor" in t.lower()]
        (root / "gold" / f"p{i}.txt").write_text("\n".join(gold) + "\n", encoding="utf-8")
        meta.append({"id": f"p{i}", "lang": "en", "url": f"https://news{i % 3}.example/a"})
    (root / "meta.jsonl").write_text("\n".join(json.dumps(m) for m in meta) + "\n")
    return root


def test_train_collect_and_fit(tmp_path):
    pytest.importorskip("sklearn")
    pages = train.collect([_dataset(tmp_path / "ds")])
    assert len(pages) == 8 and {p.host for p in pages} == {"news0.example", "news1.example", "news2.example"}
    assert all(p.y.any() and not p.y.all() for p in pages)
    w = train.weights(pages)
    assert w.shape == (sum(len(p.y) for p in pages),) and np.isclose(w.mean(), 1.0)
    # balanced by page type: one listing among seven articles weighs more, the dataset the same
    typed = [dataclasses.replace(p, page_type="listing" if i == 0 else "article") for i, p in enumerate(pages)]
    balanced = train.weights(typed, 0.5)
    rows = np.cumsum([0] + [len(p.y) for p in pages])
    per_page = [balanced[a:b].sum() / w[a:b].sum() for a, b in zip(rows[:-1], rows[1:])]
    assert np.isclose(balanced.sum(), w.sum()) and per_page[0] > 2 * max(per_page[1:])
    assert np.allclose(train.weights(typed, 0.0), w)
    # inside a page, more weight to the long lines with a larger share by characters
    first = pages[0]
    by_chars = train.weights(pages, char_share=1.0)[: len(first.y)]
    even = train.weights(pages, char_share=0.0)[: len(first.y)]
    assert np.allclose(even, even[0]) and np.allclose(by_chars / by_chars.sum(), first.chars / first.chars.sum())
    model = train.fit(pages, {"max_iter": 20, "min_samples_leaf": 2, "char_share": 0.75})
    assert model.meta["params"]["char_share"] == 0.75
    model = train.fit(pages, {"max_iter": 20, "min_samples_leaf": 2})
    assert model.meta["pages"] == 8 and model.names == features.names()
    assert model.second is not None and model.meta["first_stage"]["folds"] == train.STACK_FOLDS
    model.check(features.names())  # in memory, before any save
    flat = train.fit(pages, {"max_iter": 20, "min_samples_leaf": 2}, stacked=False)
    assert flat.second is None and flat.meta["first_stage"] is None
    bagged = train.fit(pages, {"max_iter": 20, "min_samples_leaf": 2, "bags": 2})  # two fits of 10 trees
    assert bagged.second.trees == 20 and bagged.meta["params"]["bags"] == 2
    assert not np.allclose(bagged.probabilities(pages[0]), model.probabilities(pages[0]))
    keys = train._page_keys(pages)  # the bootstraps draw pages by dataset and id, not by place
    assert len(set(keys.tolist())) == 8 and np.array_equal(train._page_keys(pages[3:]), keys[3:])
    one = train.fit(pages[:1], {"max_iter": 5, "min_samples_leaf": 2})  # no split possible: one stage
    assert one.second is None and one.meta["first_stage"] is None


def test_a_pages_bootstrap_draws_do_not_depend_on_the_other_pages():
    keys = np.arange(1, 20001, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    draws = train._poisson_draws(keys, 0, 0)
    assert abs(draws.mean() - 1.0) < 0.03 and abs(draws.var() - 1.0) < 0.05  # Poisson with mean 1
    assert abs((draws == 0).mean() - np.exp(-1.0)) < 0.01
    assert np.array_equal(train._poisson_draws(keys[5000:], 0, 0), draws[5000:])  # a page left out moves no other
    assert not np.array_equal(train._poisson_draws(keys, 1, 0), draws)  # each bag draws anew
    assert not np.array_equal(train._poisson_draws(keys, 0, 1), draws)  # and each seed


def test_trees_fitted_on_bin_numbers_score_the_features_themselves():
    """Bins from all rows (train.quantize), the thresholds turned back into the features'
    units: the exported forest scores raw features exactly as scikit-learn scores the bins."""
    sklearn = pytest.importorskip("sklearn.ensemble")
    rng = np.random.default_rng(0)
    n = 4000
    X = np.column_stack([rng.normal(size=n), rng.integers(0, 5, n), rng.exponential(size=n).round(0),
                         np.full(n, 2.0)]).astype(np.float32)
    y = ((X[:, 0] + 0.3 * X[:, 1] + rng.normal(size=n)) > 0.5).astype(np.int8)
    settings = {**train.PARAMS, "max_iter": 20, "max_bins": 31, "min_samples_leaf": 5, "bins": "all-rows",
                "bags": 1}
    codes, edges = train.quantize(X, 31)
    assert [len(e) for e in edges] == [30, 4, len(np.unique(X[:, 2])) - 1, 0]  # percentiles, distinct values
    assert np.array_equal(codes[:, 1], X[:, 1])  # 0…4: bin k holds the value k
    fitted = train._fit_trees(X, y, np.ones(n), settings, np.arange(n))
    ours = ("bins", "bags", "bag_learning_rate_scale", "threshold")  # read by train, not scikit-learn
    plain = {k: v for k, v in settings.items() if k not in ours}
    reference = sklearn.HistGradientBoostingClassifier(**plain).fit(codes, y).predict_proba(codes)[:, 1]
    assert np.allclose(fitted.probabilities(X), reference, rtol=0, atol=1e-12)
    # the same rows in another order: the same bins, the same trees
    order = rng.permutation(n)
    again = train._fit_trees(X[order], y[order], np.ones(n), settings, np.arange(n))
    assert np.allclose(again.probabilities(X), fitted.probabilities(X), rtol=0, atol=1e-9)
    with pytest.raises(ValueError, match="bins must be"):
        train._fit_trees(X, y, np.ones(n), {**settings, "bins": "some"}, np.arange(n))


def test_cli_train_learned_then_extract(tmp_path):
    pytest.importorskip("sklearn")
    ds = _dataset(tmp_path / "ds")
    out = tmp_path / "m.zip"
    runner = CliRunner()
    res = runner.invoke(main, ["train", "learned", str(ds), "--out", str(out), "--max-iter", "20"])
    assert res.exit_code == 0, res.output
    assert "trained learned on 8 pages" in res.output
    page = tmp_path / "page.html"
    page.write_text(ARTICLE, encoding="utf-8")
    res = runner.invoke(main, ["extract", str(page), "-m", "learned", "--model", str(out)])
    assert res.exit_code == 0, res.output
    assert "The mayor said" in res.output


def test_learned_is_registered_with_its_variants():
    names = {m.name for m in detourage.methods.available()}
    assert {"learned", "learned-precision", "learned-recall", "learned-comments"} <= names


def test_shipped_model_cleans_the_example_page():
    """The README's first command: the article only — no advertisement, no menu."""
    html = (Path(__file__).parents[1] / "examples" / "article.html").read_bytes()
    text = detourage.extract(html, method="learned")
    lines = text.splitlines()
    assert lines[0] == "Volunteers map the river's forgotten mills"
    assert not any("Advertisement" in line or "Summer sale" in line for line in lines)
    assert "The survey will be published this autumn" in lines[-1]
    assert forest.load_model().meta["pages"] > 1000  # trained on the shared gold


def test_a_missing_shipped_model_names_its_rebuild_command():
    from detourage.shipped import model_bytes

    with pytest.raises(ModelError, match="rebuild it with python benchmarks/train_learned.py"):
        model_bytes("absent.zip", "model", "python benchmarks/train_learned.py --write", ModelError)


def test_heading_permalinks_are_left_out():
    toy = Model(_toy_forest(), features.names(), 0.5, {"name": "toy"})
    body = " ".join(["A paragraph with enough words to be kept by the toy model."] * 3)
    html = (f"<html><body><h2>How to install the whole package<a class=headerlink href=#install>¶</a></h2>"
            f"<p>{body}</p><h2>How to use the whole package<a href=#use>#</a></h2><p>{body}</p>"
            f"<p>Type <a href=#h>#</a> and then press the enter key.</p></body></html>")
    lines = run(load(html), "learned", {"learned": learned.Options(model=toy)}).text.splitlines()
    assert "How to install the whole package" in lines and "How to use the whole package" in lines
    assert not any("¶" in line for line in lines)
    assert "Type # and then press the enter key." in lines  # a link in a paragraph stays


def test_feature_tables_must_be_consecutive_columns():
    columns = features.columns._Columns()
    with pytest.raises(ValueError, match="not consecutive"):
        columns.table(("l0_log_chars", "dist_nav"), np.zeros((1, 2)))
    names = features.names()
    columns.table(names[1:3], np.array([[1.0, 2.0]]))
    for name in names[:1] + names[3:]:
        columns[name] = np.array([float(names.index(name))])
    assert columns.matrix(1).tolist() == [[0.0, 1.0, 2.0, *map(float, range(3, len(names)))]]


def test_options_naming_no_step_are_refused_and_a_model_given_beside_options_is_used(tmp_path):
    """``options={"page_type": "product"}`` names no step: refused, not run without it;
    the step's options without a model take the one ``model=`` gives."""
    from detourage.api import extract
    from detourage.errors import UnknownOption

    with pytest.raises(UnknownOption, match="'page_type' is no step of method 'default'.*'learned'"):
        extract(ARTICLE, options={"page_type": "product"})
    with pytest.raises(UnknownOption, match="learned.Options, not dict"):
        extract(ARTICLE, "learned", options={"learned": {"page_type": "product"}})
    Model(_toy_forest(), features.names(), 0.5, {"name": "toy"}).save(tmp_path / "toy.zip")
    out = json.loads(extract(ARTICLE, "learned", "json", model=str(tmp_path / "toy.zip"),
                             options={"learned": learned.Options(page_type="product")}))
    assert out["details"]["learned"]["model"] == "toy"
    assert out["details"]["learned"]["page_type"] == "product"


def test_customers_reviews_are_left_out_of_a_product_page():
    """A product page's reviews are its comment section: left out, kept with
    ``comments=True``; a box named ``overview`` is no review box, nor one holding the
    title, and a page that would keep nothing else keeps them."""
    everything = Model(_constant_forest(9.0), features.names(), 0.5, {"name": "everything"})
    description = ("<div class='product-overview'><h1>Studio microphone SM9</h1><p>A dynamic microphone with a "
                   "built-in preamp, for voices and instruments alike, with bass roll-off and presence boost "
                   "controls and a detachable windscreen.</p><p>Ships with a stand mount and a two-year warranty "
                   "covering parts and labour.</p></div>")
    reviews = ("<section id='reviews'><h2>Customer reviews</h2><div class='review-item'><p>Great mic! I record "
               "audio books with it every day and the sound is warm and clear.</p></div><div class='review-item'>"
               "<p>Solid build, though the cable it ships with is short.</p></div></section>")

    def text(body: str, page_type: str = "product", **options) -> str:
        page = load(f"<html><body><main>{body}</main></body></html>", url="https://shop.example/products/sm9")
        return run(page, "learned", {"learned": learned.Options(model=everything, page_type=page_type,
                                                                 **options)}).text

    assert "Great mic!" not in text(description + reviews) and "built-in preamp" in text(description + reviews)
    assert "Great mic!" in text(description + reviews, comments=True)
    assert "Great mic!" in text(description + reviews, "article")
    assert "Great mic!" in text(reviews)  # nothing else to keep
    assert "Customer reviews" in text(description + reviews)  # the section's heading is no review of the run
    editorial = ("<div class='review-body'><p>We spent a month with the SM9 in a small studio, on voices, guitar "
                 "cabinets and a snare drum, and it never once needed its preamp switched off.</p></div>")
    assert "We spent a month" in text(description + editorial)  # one box so named is no run of reviews
