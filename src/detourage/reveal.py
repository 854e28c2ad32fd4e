"""What a browser's first scripts put on the page before a reader sees it.

Two kinds of page hide, as served, what they show to every reader once their scripts
have run: the pages React streams (:func:`place_streamed`) and the pages that hide their
whole body until a script has checked something (:func:`show_hidden_body`).  Both are
read here as a reader sees them, on the parsed tree, before or right after segmenting;
``<noscript>`` shells are the third kind, :func:`detourage.segment.show_noscript`.

A page streamed by React's server renderer (React 18 and later: every Next.js App Router
site, Remix, Gatsby…) sends the content of each Suspense boundary late, at the end of
the document, inside ``<div hidden id="S:…">``, and a one-line script moves it to where
it belongs: ``$RC("B:0","S:0")`` puts segment ``S:0`` where the placeholder
``<template id="B:0">`` stands (a completed boundary), ``$RS("S:1","P:1")`` where
``<template id="P:1">`` stands (a completed segment).  Read as served, such a page holds
its article in hidden elements, which :mod:`detourage.segment` rightly never shows, and
only its skeleton where the article goes.  :func:`place_streamed` carries out those
instructions on the parsed tree, in their order, once, before the page is segmented:
the blocks, the paths and every renderer then see the page a reader sees.  A page saved
without its scripts (a crawler that strips them, a DOM snapshot) still has its hidden
segments and placeholders: there segment ``S:n`` goes where boundary ``B:n`` stands,
the pairing React's own instructions show on the pages that keep them, or, without such
a boundary, where placeholder ``P:n`` stands (``$RS`` pairs them so): a segment streamed
inside another (an article's sections, each a ``<template id="P:…">`` in the segment of
its table of contents) lands once its parent has.

The fallback a boundary showed while it waited ("Loading paragraph…", a skeleton) goes
as ``$RC`` takes it out: the comments that delimit it (``<!--$?-->`` … ``<!--/$-->``)
are dropped at parsing, so it is read in the page's text and the elements after the
placeholder go when they hold its text (:func:`_drop_fallback`).  A page saved without
those comments keeps its fallbacks.  A segment that is not a hidden ``<div>`` with its
id, or a placeholder that is not a ``<template>`` with its id, is left as it is.
"""

from __future__ import annotations

import html
import re
from typing import cast

from lxml import etree

from .model import Block
from .segment import INVISIBLE, is_hidden, shown_chars, unhide

#: one instruction of React's inline runtime: completed boundary (``$RC``), completed
#: segment (``$RS``); the first id names the placeholder or segment as React writes them
_INSTRUCTION = re.compile(r'\$R([CS])\("([BPS]:[0-9a-z]+)","([BPS]:[0-9a-z]+)"\)')


def place_streamed(root: etree._Element | None, text: str) -> bool:
    """Move each streamed segment of a React page into its placeholder (module
    docstring).  ``text`` is the decoded page.  Every placeholder is a ``<template>``: a
    page without one pays a scan of its tree in C, one with one a substring search for a
    segment's id (``id="S:``) too (over a whole page, a search costs several times the
    scan).  True when it moved one."""
    if root is None or next(root.iter("template"), None) is None or 'id="S:' not in text:
        return False
    instructions = _INSTRUCTION.findall(text)
    by_id = {name: el for el in root.iter("template", "div") if (name := el.get("id")) and name[1:2] == ":"}
    if not instructions:  # the scripts were not kept: boundary B:n shows segment S:n,
        # else placeholder P:n (a segment nested in another, once that one is in place)
        instructions = [("C", "B" + name[1:], name) if "B" + name[1:] in by_id else ("S", name, "P" + name[1:])
                        for name in by_id if name.startswith("S:")]
    moved = False
    fallbacks: dict[str, tuple[int, int]] | None = None
    for kind, first, second in instructions:
        if kind == "S":  # $RS names the segment first
            first, second = second, first
        placeholder, segment = by_id.get(first), by_id.get(second)
        if _streamed_pair(placeholder, segment):
            if kind == "C":
                fallbacks = _fallbacks(text) if fallbacks is None else fallbacks
                start, end = fallbacks.get(first, (0, 0))
                if 0 < end - start <= FALLBACK_CHARS:
                    _drop_fallback(placeholder, text[start:end])  # type: ignore[arg-type]  # checked by _streamed_pair
            _put_in_place(placeholder, segment)  # type: ignore[arg-type]  # checked by _streamed_pair
            moved = True
    return moved


#: a fallback of more markup than this is left (React's are a line or a skeleton; a bound
#: keeps a page of many nested boundaries linear)
FALLBACK_CHARS = 5000

#: a boundary's opening comment (``<!--$-->``, ``<!--$?-->`` pending, ``<!--$!-->``
#: client-rendered) or its closing one (``<!--/$-->``)
_BOUNDARY_COMMENT = re.compile(r"<!--(/?)\$[?!]?-->")
#: a pending boundary: its opening comment, then its placeholder
_PENDING = re.compile(r'<!--\$\?--><template id="(B:[0-9a-z]+)"></template>')
_TAG = re.compile(r"<[^>]*+>")


def _fallbacks(text: str) -> dict[str, tuple[int, int]]:
    """Where each pending boundary's fallback is in the page's text, by its placeholder's
    id: from its ``<template>`` to the comment closing the boundary (the boundaries
    opened on the way closed first), read in the text, where the comments still are.
    Two scans of the text, whatever the number of boundaries."""
    closes: dict[int, int] = {}
    opened: list[int] = []
    for found in _BOUNDARY_COMMENT.finditer(text):
        if not found[1]:
            opened.append(found.start())
        elif opened:
            closes[opened.pop()] = found.start()
    return {found[1]: (found.end(), closes[found.start()])
            for found in _PENDING.finditer(text) if found.start() in closes}


def _drop_fallback(placeholder: etree._Element, fallback: str) -> None:
    """Take out the fallback a completed boundary showed while it waited ("Loading…", a
    skeleton), as ``$RC`` does.  The comments that delimit it are gone from the tree, so
    the elements after the placeholder are taken out only when their text is the
    fallback's (:func:`_fallbacks`; compared without whitespace, which tags and comments
    move), element after element; a fallback of bare text, or one they do not match, is
    left.  The last one's tail, which no comment separates any more from what follows
    the boundary, stays."""
    if not fallback.lstrip().startswith("<") or placeholder.tail and placeholder.tail.strip():
        return
    want = _squeezed(html.unescape(_TAG.sub("", fallback)))
    if not want:
        return
    matched = 0  # how much of it the elements taken so far hold: each compared once
    taken: list[etree._Element] = []
    for el in placeholder.itersiblings():
        own = _squeezed("".join(str(part) for part in el.itertext())) if isinstance(el.tag, str) else None
        if own is None or not want.startswith(own, matched):
            return
        matched += len(own)
        taken.append(el)
        if matched == len(want):
            for done in taken:
                _remove(done)
            return
        tail = _squeezed(el.tail or "")
        if not want.startswith(tail, matched):
            return
        matched += len(tail)


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _streamed_pair(placeholder: etree._Element | None, segment: etree._Element | None) -> bool:
    """A ``<template>`` placeholder, still in the tree, and a hidden ``<div>`` segment
    that does not hold it (React never nests them so; a page that does is left as is)."""
    if placeholder is None or segment is None or placeholder.tag != "template" or segment.tag != "div":
        return False
    if segment.get("hidden") is None or placeholder.getparent() is None or segment.getparent() is None:
        return False
    return not any(parent is segment for parent in placeholder.iterancestors())


def _put_in_place(placeholder: etree._Element, segment: etree._Element) -> None:
    """The segment's content (its text and children, not the hidden ``<div>``) where
    the placeholder was; the placeholder and the emptied segment gone, every tail kept.
    Each move is made beside an element, never at a child's index (which lxml finds by
    counting: a page of many placeholders in one parent would take quadratic time)."""
    content_text, children = segment.text, list(segment)
    _remove(segment)
    _text_before(placeholder, content_text)
    for child in children:
        placeholder.addprevious(child)  # the child's tail moves with it
    _remove(placeholder)


def _remove(el: etree._Element) -> None:
    """Take ``el`` out of the tree, its tail left where it was."""
    _text_before(el, el.tail)
    parent = el.getparent()
    assert parent is not None
    parent.remove(el)


def _text_before(el: etree._Element, text: str | None) -> None:
    """Put ``text`` just before ``el``: the previous sibling's tail, or the parent's own
    text."""
    if not text:
        return
    before = el.getprevious()
    if before is not None:
        before.tail = (before.tail or "") + text
    else:
        parent = el.getparent()
        assert parent is not None
        parent.text = (parent.text or "") + text


#: a page whose blocks hold fewer characters than this may be one that hides its body;
#: above it the tree is not searched (the pages that do, in wcxb-dev, show 0 to 400),
#: but its ``<main>`` element when the blocks inside it hold fewer
HIDDEN_PAGE_CHARS = 1000

#: and it is one when its largest hidden element holds this many times its visible text:
#: an element that big is the page, not a menu, a modal or a tab that a reader opens
#: (on the 3 729 pages of the LODO datasets, 14 are searched and hide something: the 9
#: menus, tabs and modals hold at most 0.6 times the text shown, the 5 hidden bodies 15
#: to 10 954 times, two of them inside the ``<main>`` of a shop whose menus show 2 613
#: characters: benchmarks/studies/hidden_pages.py)
HIDDEN_BODY_RATIO = 5

#: the elements that may be hidden (:func:`~detourage.segment.is_hidden` decides), under
#: the element searched
_HIDDEN_CANDIDATES = etree.XPath(".//*[@hidden or contains(translate(@style, 'NOEHID', 'noehid'), 'none')"
                                  " or contains(translate(@style, 'NOEHID', 'noehid'), 'hidden')]")


def show_hidden_body(root: etree._Element | None, blocks: tuple[Block, ...]) -> bool:
    """Show the element a page hides its whole body in until a script has run: an
    anti-flicker wrapper (``visibility:hidden`` until the styles load), a shop's
    age or password gate, a block shown once the page's scripts have loaded.  Only a
    page that shows little text (:data:`HIDDEN_PAGE_CHARS`), or whose ``<main>`` element
    does while its menus show more (a shop's gate inside it), is searched, and only an
    element holding :data:`HIDDEN_BODY_RATIO` times the visible text (of the page, of
    ``<main>``) is shown (its own hidden descendants stay hidden).  True when it did,
    and the page must be segmented again."""
    if root is None:
        return False
    scope, shown = hidden_body_scope(root, blocks)
    if scope is None:
        return False
    best, best_chars = largest_hidden(scope)
    if best is None or best_chars < HIDDEN_BODY_RATIO * max(shown, 1):
        return False
    unhide(best)
    return True


def hidden_body_scope(root: etree._Element, blocks: tuple[Block, ...]) -> tuple[etree._Element | None, int]:
    """Where :func:`show_hidden_body` searches, and the characters shown there: the
    page's body when it shows under :data:`HIDDEN_PAGE_CHARS`; else its first ``<main>``
    element (not hidden) when the blocks inside it do, the tree scanned for it only on
    a page of fewer blocks than :data:`MAIN_PAGE_BLOCKS` (a gated page shows its menus,
    no more); (None, 0) where nothing is searched."""
    if len(blocks) < HIDDEN_PAGE_CHARS:  # a block holds a character (but an image without alt text)
        shown = shown_chars(blocks, HIDDEN_PAGE_CHARS)
        if shown < HIDDEN_PAGE_CHARS:
            return next(root.iter("body"), root), shown
    if len(blocks) >= MAIN_PAGE_BLOCKS:
        return None, 0
    main = next(root.iter("main"), None)
    if main is None or is_hidden(main) or any(is_hidden(el) for el in main.iterancestors()):
        return None, 0
    shown = 0
    for block in blocks:
        if "main" in block.path:
            shown += len(block.text)
            if shown >= HIDDEN_PAGE_CHARS:
                return None, 0
    return main, shown


#: a page of this many blocks or more shows more than its menus: its ``<main>`` is not
#: searched (the gated shops show 151)
MAIN_PAGE_BLOCKS = 500


def largest_hidden(root: etree._Element) -> tuple[etree._Element | None, int]:
    """The hidden element under ``root`` (none of its ancestors there hidden) holding the
    most text were it shown, and how many characters (:func:`_text_chars`); (None, 0)
    when nothing there is hidden."""
    hidden = [el for el in cast("list[etree._Element]", _HIDDEN_CANDIDATES(root))
              if el.tag not in INVISIBLE and is_hidden(el)]
    inside = set(hidden)  # a hidden element under another stops its walk up at once
    best, best_chars = None, 0
    for el in hidden:
        if any(parent in inside for parent in el.iterancestors()):
            continue
        if (chars := _text_chars(el)) > best_chars:
            best, best_chars = el, chars
    return best, best_chars


def _text_chars(el: etree._Element) -> int:
    """The characters of text a reader would see in ``el`` were it shown: the text of
    its descendants that are neither invisible nor hidden, whitespace not counted."""
    chars, stack = 0, [el]
    while stack:
        node = stack.pop()
        chars += len(node.text.strip()) if node.text else 0
        for child in node:
            if isinstance(child.tag, str) and child.tag not in INVISIBLE and not is_hidden(child):
                stack.append(child)
            chars += len(child.tail.strip()) if child.tail else 0
    return chars
