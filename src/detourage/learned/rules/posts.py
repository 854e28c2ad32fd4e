"""A thread's posts kept alike: on a forum page, once the model keeps the body of one
post, the body of every post is kept.

A thread is a run of posts built from one template: each post's text sits in an element
of the same tag and class (XenForo's ``<article class="message-body">``, Discourse's
``<div class="cooked">``, Stack Exchange's ``<div class="s-prose js-post-body">``,
lobste.rs' ``<div class="comment_text">``).  A model that has seen few forums keeps the
opening post, which reads like an article, and doubts the replies, which read like an
article's comments (short, conversational, under a name and a date): on wcxb-dev's
forum pages left out of training its recall falls to 0.40.  The template says what the
model cannot: the reply is the same kind of text as the post it kept.

The post body of a kept paragraph is its nearest container element (:data:`BODY_TAGS`)
with a ``class``; its tag and class make a thread's template when the page has other
elements of both, none of them holding most of the page's text (:data:`BODY_SHARE`: a
column wrapping every post is no post).  Only prose seeds it: a kept paragraph of
:data:`SEED_CHARS` characters or more, few of them in links.  What it adds, from every
element of the template:

- only paragraphs with few links, and no image (the figure step judges those);
- nothing from an element inside an ``<aside>``, ``<footer>`` or ``<nav>`` (XenForo
  writes a post's signature with the post's class), nor from a box of boilerplate
  (:func:`~.ancestors.clear_of_boilerplate`) the seed is not in;
- nothing from an element whose lines are all short (a forum's "You may not post
  replies" box, made with the posts' class);
- no line repeating an earlier line of the page (a quote of an earlier post);
- nothing a step barred.

Posts' names and dates, outside the bodies, are no part of what this adds.
"""

from __future__ import annotations

import numpy as np
from lxml import etree

from ...model import Page
from .. import features
from .ancestors import clear_of_boilerplate
from .paragraphs import column

#: the elements a post's body can be
BODY_TAGS = frozenset({"div", "article", "section", "blockquote", "td", "li", "dd"})
#: a kept paragraph seeds the step when it holds at least this many characters…
SEED_CHARS = 60
#: …and at most this share of them in links; a paragraph is added under the same bound
LINK_SHARE = 0.3
#: each element taken for a post's body holds at most this share of the page's text
BODY_SHARE = 0.6
#: how far above a paragraph's element its post body is looked for
DEPTH = 8
#: an element of a post body's tag and class inside one of these is no post (a signature)
_OUTSIDE = frozenset({"aside", "footer", "nav"})


def keep_thread_posts(page: Page, para: features.Paragraphs, keep: np.ndarray, closed: np.ndarray) -> int:
    """On a forum page: keep the paragraphs with few links inside every element of the
    tag and class of a kept post's body (:func:`_body`); the number of paragraphs added."""
    if page.tree is None or not len(para):
        return 0
    low_link = column(para, "link_density") <= LINK_SHARE
    # a quote repeats, in a later post, what an earlier one said: its lines are read once
    first: dict[str, int] = {}
    copy = np.fromiter((first.setdefault(text, i) != i for i, text in enumerate(para.lowered)), bool, len(para))
    low_link &= ~copy
    seeds = (keep & low_link & (para.chars >= SEED_CHARS)).nonzero()[0]
    if not len(seeds):
        return 0
    bodies = _template_bodies(page.tree, [page.blocks[int(para.starts[i])].node for i in seeds.tolist()],
                              int(para.chars.sum()))
    if not bodies:
        return 0
    candidates = (~keep & ~closed & low_link & (para.chars > 0)).nonzero()[0]
    # a share bar, a box of links under a post: boxes the kept post is not in
    candidates = candidates[clear_of_boilerplate(para, candidates, np.full(len(candidates), seeds[0]), ("comment",))]
    added = 0
    for lines in _lines_by_body(page, para, candidates, bodies).values():
        # a post says something: a body of short lines only is a box of the template
        # that shares the post's class (a forum's rules), not a reply
        if int(para.chars[lines].max()) >= SEED_CHARS:
            keep[lines] = True
            added += len(lines)
    return added


def _template_bodies(tree: etree._Element, seeds: list[etree._Element], total: int) -> set[etree._Element]:
    """Every element of the tag and class of a seed's post body (:func:`_body`) when at
    least two make it and none holds more than :data:`BODY_SHARE` of ``total``
    characters; those in an ``<aside>``, ``<footer>`` or ``<nav>`` left out."""
    signatures = {(body.tag, body.get("class", "")) for body in map(_body, seeds) if body is not None}
    bodies: set[etree._Element] = set()
    for tag, cls in signatures:
        found = [e for e in tree.iter(tag) if e.get("class") == cls and not _aside(e)]
        # in document order an element comes before those it holds: a wide one ends the
        # test at once, and each holding little, their texts are read once or so
        if len(found) >= 2 and not any(_wider_than(e, BODY_SHARE * total) for e in found):
            bodies.update(found)
    return bodies


def _wider_than(element: etree._Element, limit: float) -> bool:
    """Whether ``element`` holds more than ``limit`` characters of text, read only as far
    as needed (a template nested a thousand deep holds the page a thousand times over)."""
    seen = 0
    for text in element.itertext():
        seen += len(text)
        if seen > limit:
            return True
    return False


def _lines_by_body(page: Page, para: features.Paragraphs, lines: np.ndarray,
                   bodies: set[etree._Element]) -> dict[etree._Element, list[int]]:
    """Which of ``lines`` lie in which of ``bodies`` (within :data:`DEPTH` + 4 levels);
    images left to the figure step."""
    inside: dict[etree._Element, list[int]] = {}
    for i in lines.tolist():
        block = page.blocks[int(para.starts[i])]
        if block.image is not None:  # a post's pictures: the figure step's to judge
            continue
        node: etree._Element | None = block.node
        for _ in range(DEPTH + 4):
            if node is None:
                break
            if node in bodies:
                inside.setdefault(node, []).append(i)
                break
            node = node.getparent()
    return inside


def _aside(node: etree._Element | None) -> bool:
    """Whether ``node`` lies in an ``<aside>``, ``<footer>`` or ``<nav>`` (a signature
    under a post shares its body's class), within :data:`DEPTH` levels."""
    for _ in range(DEPTH):
        node = node.getparent() if node is not None else None
        if node is None:
            return False
        if node.tag in _OUTSIDE:
            return True
    return False


def _body(node: etree._Element | None) -> etree._Element | None:
    """The nearest container element with a ``class`` at or above ``node``, within
    :data:`DEPTH` levels."""
    for _ in range(DEPTH):
        if node is None:
            return None
        if node.tag in BODY_TAGS and node.get("class"):
            return node
        node = node.getparent()
    return None
