"""The page's own article among others: the stories an infinite scroll appended beside
it (:func:`drop_appended_articles`), and the boxes beside it named as no article (a
newsletter sign-up, a share bar, an advertisement: :func:`drop_boxes_beside`)."""

from __future__ import annotations

import re

import numpy as np
from lxml import etree

from ...model import Page
from .. import features
from .ancestors import ancestor, group_columns
from .paragraphs import running


def drop_appended_articles(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> list[str]:
    """Drop the other articles a page holds beside its own (the next story an infinite
    scroll appended, the previous one of a series), and mark them in ``barred``; their
    headings.

    The page's article is the largest container of its title heading (at most
    :data:`features.LEVELS` - 1 levels up) that holds no other heading of the title's
    level or above and at least :data:`APPENDED_ARTICLE_CHARS` of kept text; another
    article is a sibling of it that looks the same (tag, and class or id words:
    :func:`_similar_elements`) and holds a heading of that level.  What lies between them
    (a newsletter box, a share bar) goes with the other articles when it holds less than
    half the page's article's kept text."""
    found = _title_article(para, keep)
    if found is None:
        return []
    level, start, end, kept_chars = found
    element = ancestor(page.blocks[para.starts[para.title_index]], level)
    parent = element.getparent() if element is not None else None
    if parent is None:
        return []
    assert element is not None  # it has a parent
    tops = (para.heading > 0) & (para.heading <= para.heading[para.title_index])
    ranges = [_element_range(page, para, sibling, int(h)) for h in tops.nonzero()[0].tolist()
              if (h < start or h >= end)
              and (sibling := _child_holding(parent, page.blocks[para.starts[h]].node)) is not None
              and _similar_elements(sibling, element)]
    if not ranges:
        return []
    region = np.zeros(len(keep), bool)
    for first, last in ranges:
        region[first:last] = True
    # what lies between: with the other articles, unless it holds more text than the
    # page's own (then the title's container was only the article's head)
    between = np.zeros(len(keep), bool)
    between[min(min(r[0] for r in ranges), end):max(max(r[1] for r in ranges), start)] = True
    between &= ~region
    between[start:end] = False
    if para.chars[between & keep].sum() <= kept_chars / 2:
        region |= between
    headings = [para.texts[h] for h in (tops & region & keep).nonzero()[0].tolist()]
    keep &= ~region
    barred |= region
    return headings


def drop_boxes_beside(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> None:
    """Drop what the model kept outside the page's article (:func:`_article_span`) in a
    box whose class/id/role names what is no article (:data:`BESIDE_GROUPS`: a
    newsletter sign-up, a share bar, an advertisement, related links, a menu, a footer;
    its container or the two elements above), and mark it in ``barred``.  Inside the
    article the model's verdict stands: a box there may be named so for its style."""
    found = _article_span(para, keep)
    if found is None:
        return
    start, end = found
    outside = keep.copy()
    outside[start:end] = False
    lines = outside.nonzero()[0]
    if not len(lines):
        return
    dropped = lines[(para.X[lines][:, group_columns(BESIDE_GROUPS)] <= 2).any(axis=1)]
    keep[dropped] = False
    barred[dropped] = True


def _article_span(para: features.Paragraphs, keep: np.ndarray) -> tuple[int, int] | None:
    """The paragraphs (first, one past the last) of the smallest ancestor of the kept
    title heading that holds :data:`ARTICLE_SHARE` of the kept text and at least
    :data:`APPENDED_ARTICLE_CHARS` besides the title; None when there is none."""
    title = para.title_index
    if title < 0 or not para.heading[title] or not keep[title]:
        return None
    found = holding_share(para, keep, title)
    if found is None:
        return None
    start, end, inside = found
    return (start, end) if inside - para.chars[title] >= APPENDED_ARTICLE_CHARS else None


def holding_share(para: features.Paragraphs, keep: np.ndarray, anchor: int) -> tuple[int, int, int] | None:
    """The paragraphs (first, one past the last) of the smallest element around
    ``anchor`` (at most :data:`features.LEVELS` - 1 levels up) that holds
    :data:`ARTICLE_SHARE` of the kept text, and the kept characters it holds; None when
    there is none."""
    kept = running(np.where(keep, para.chars, 0))
    for level in range(1, features.LEVELS):
        start, end = para.spans[level, :, anchor].tolist()
        inside = int(kept[end] - kept[start])
        if inside >= ARTICLE_SHARE * kept[-1]:
            return start, end, inside
    return None


#: the page's article holds at least this share of the kept text
ARTICLE_SHARE = 2 / 3
#: the groups of class/id/role words that name a box beside an article
BESIDE_GROUPS = ("social", "ad", "related", "nav", "footer", "t_nav", "t_footer")


#: the page's article holds at least this many kept characters besides its title
APPENDED_ARTICLE_CHARS = 300


def _title_article(para: features.Paragraphs, keep: np.ndarray) -> tuple[int, int, int, int] | None:
    """(level, first, one past the last paragraph, kept characters) of the largest
    ancestor of the title heading holding no other heading of its level or above, when it
    holds :data:`APPENDED_ARTICLE_CHARS` of kept text besides the title and is not the
    topmost level :attr:`Paragraphs.spans` knows (its parent is needed)."""
    title = para.title_index
    if title < 0 or not para.heading[title] or not keep[title]:
        return None
    tops = running((para.heading > 0) & (para.heading <= para.heading[title]))
    kept = running(np.where(keep, para.chars, 0))
    best = None
    for level in range(1, features.LEVELS - 1):
        start, end = para.spans[level, :, title].tolist()
        if tops[end] - tops[start] > 1:
            break
        best = (level, start, end, int(kept[end] - kept[start] - para.chars[title]))
    if best is None or best[3] < APPENDED_ARTICLE_CHARS:
        return None
    return best


def _child_holding(parent: etree._Element, node: etree._Element | None) -> etree._Element | None:
    """The child of ``parent`` that is ``node`` or holds it; None when ``parent`` does not."""
    while node is not None:
        up = node.getparent()
        if up is parent:
            return node
        node = up
    return None


def _element_range(page: Page, para: features.Paragraphs, element: etree._Element,
                   at: int) -> tuple[int, int]:
    """The paragraphs (first, one past the last) of ``element``, which holds paragraph ``at``."""
    inside = set(element.iter())
    blocks, starts = page.blocks, para.starts
    first, last = at, at + 1
    while first > 0 and blocks[starts[first - 1]].node in inside:
        first -= 1
    while last < len(starts) and blocks[starts[last]].node in inside:
        last += 1
    return first, last


def _similar_elements(a: etree._Element, b: etree._Element) -> bool:
    """Whether two elements look like two articles of a kind: two ``<article>``s, or the
    same tag and half their class and id words in common (digits left out: ``post-12``
    and ``post-13`` are alike), one of which names an article (``post``, ``story``…;
    not two ``<section class="chapter">`` of one story)."""
    if a.tag != b.tag:
        return False
    words_a, words_b = _element_words(a), _element_words(b)
    common = words_a & words_b
    if a.tag == "article" and not (words_a | words_b):
        return True
    return (len(common) >= 0.5 * len(words_a | words_b)
            and (a.tag == "article" or any(_ARTICLE_WORD.search(w) for w in common)))


def _element_words(el: etree._Element) -> frozenset[str]:
    """The class and id words of an element, digits left out."""
    return frozenset(w for w in _DIGITS.sub("", f"{el.get('class') or ''} {el.get('id') or ''}").split()
                     if w.strip("-_"))


_DIGITS = re.compile(r"\d+")
#: a class or id word naming an article
_ARTICLE_WORD = re.compile(r"post|article|story|entry|news|blog")
