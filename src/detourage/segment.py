"""Segmentation: the lxml tree → the page's text blocks, written once for every method.

Blocks follow Victor's precleaning (seed 003 §3.2–3.3): text is split at every tag;
each block knows its containers (``path``) and the tags crossed since the previous block
(``crossed``, Victor's ``distance``); inside ``<pre>`` every line is its own block, the
newline counting as a crossed ``br``; an ``<img>`` contributes its ``alt`` text as a block
of its own.  Invisible content (scripts, styles, ``<head>``, ``hidden`` elements…) is never
a block.  On top of the runs, ``Block.paragraph`` numbers the *paragraph view*: runs not
separated by a block-level tag or a ``<br>`` share a number.

``_segment`` is the reference.  When the optional extension ``detourage._csegment`` is
built, :func:`segment` runs its compiled twin instead (same blocks, read straight from
libxml2's nodes); ``DETOURAGE_PURE_PYTHON=1`` forces the Python loop, and
``IMPLEMENTATION`` says which one is active (``"compiled"`` or ``"python"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from lxml import etree

from .compiled import optional
from .errors import LimitExceeded
from .model import Block
from .parse import DEFAULT_LIMITS, Limits

#: elements whose content is never shown as text (Victor's ``tag-delete`` plus the
#: HTML5 elements that render no text of their own).  ``<head>`` is not among them: its
#: normal children all are, and libxml2 sometimes leaves body content inside it.
INVISIBLE = frozenset(
    """script style noscript template iframe object embed applet svg canvas
    audio video map param source track datalist title meta link base""".split()
)

#: elements that start a new line in a browser: a run after one of them is a new paragraph
BLOCK_LEVEL = frozenset(
    """address article aside blockquote body br caption center dd details dialog dir div
    dl dt fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup
    hr html legend li main menu nav ol option p pre section select summary table tbody
    td textarea tfoot th thead tr ul""".split()
)

#: elements with no closing tag: they are crossed once, as an opening tag
VOID = frozenset("area base br col embed hr img input keygen link meta param source track wbr".split())

_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def is_hidden(el: etree._Element) -> bool:
    """An element the page hides from readers (``hidden`` attribute or inline style)."""
    if el.get("hidden") is not None:
        return True
    style = el.get("style")
    return bool(style) and _HIDDEN_STYLE.search(style) is not None


#: a page whose visible text is shorter than this is also read inside its ``<noscript>``
NOSCRIPT_PAGE_CHARS = 200


def show_noscript(root: etree._Element | None, blocks: tuple[Block, ...]) -> bool:
    """Turn the ``<noscript>`` elements into ``<div>`` when the page shows (almost) no
    text and they hold more: single-page applications that serve their content to
    browsers without JavaScript there (every Discourse forum thread, some shop and
    documentation shells).  True when it did, and the page must be segmented again.
    On every other page ``<noscript>`` stays invisible (its usual content: "enable
    JavaScript", tracking pixels); the block count is checked first, so that a page
    with text pays one comparison."""
    if root is None or len(blocks) >= NOSCRIPT_PAGE_CHARS or sum(len(b.text) for b in blocks) >= NOSCRIPT_PAGE_CHARS:
        return False
    hidden = list(root.iter("noscript"))
    if sum(len(" ".join(el.itertext()).strip()) for el in hidden) <= NOSCRIPT_PAGE_CHARS:
        return False
    for el in hidden:
        el.tag = "div"
    return True


def page_title(root: etree._Element | None) -> str:
    """The text of the document's ``<title>``, whitespace collapsed."""
    if root is None:
        return ""
    title = root.find(".//title")
    return " ".join(title.text.split()) if title is not None and title.text else ""


def segment(root: etree._Element | None, limits: Limits = DEFAULT_LIMITS) -> tuple[Block, ...]:
    """Cut the page into text blocks in document order."""
    if root is None:
        return ()
    if _compiled is not None:
        return tuple(_compiled(root, limits))
    return tuple(_segment(root, limits))


def _segment(root: etree._Element, limits: Limits) -> list[Block]:  # noqa: C901
    """One ``iterwalk`` pass; the body is inlined because it runs for every element.

    This is the hottest loop of the library (every method pays for it): hence local
    aliases, one text path at the end of the loop for ``.text`` and ``.tail`` alike, path
    tuples built only when a block needs one, and helper calls only for rare cases
    (``<pre>``, ``<img>``).  ``skip_subtree`` makes a skipped element's end event the very
    next one, so one variable marks it.
    """
    blocks: list[Block] = []
    crossed: list[str] = []
    stack: list[str] = []
    paths: list[tuple[str, ...] | None] = []  # path tuple per open element, made on demand
    closing = _CLOSING
    max_depth, max_nodes = limits.max_depth, limits.max_nodes
    nodes = links = pre = paragraph = line_ends = 0
    pending_space = False
    skipped = None
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag
        if event == "start":
            if tag.__class__ is not str:  # an entity node: only its tail is text
                continue
            keys = el.keys()
            if tag in INVISIBLE or (keys and ("hidden" in keys or "style" in keys) and is_hidden(el)):
                walker.skip_subtree()
                skipped = el
                continue
            nodes += 1
            if nodes > max_nodes:
                raise LimitExceeded("nodes", nodes, max_nodes)
            crossed.append(tag)
            if tag in VOID:
                if tag == "img" and (image := _image(el)) is not None:
                    path = tuple(stack) + (tag,)
                    # alt text is an artificial run: always apart from its neighbours
                    paragraph, _ = _add(blocks, crossed, paragraph, True, image[1], path,
                                        el, links, image[0])
                    pending_space = True
                continue
            stack.append(tag)
            paths.append(None)
            if len(stack) > max_depth:
                raise LimitExceeded("depth", len(stack), max_depth)
            if tag == "a":
                links += "href" in keys
            elif tag == "pre":
                pre += 1
            text, node = el.text, el
        else:
            if el is skipped:
                pending_space = True
            elif tag.__class__ is str and tag not in VOID:
                paths.pop()
                stack.pop()
                crossed.append(closing.get(tag) or "/" + tag)
                if tag == "a":
                    links -= "href" in el.keys()
                elif tag == "pre":
                    pre -= 1
                    line_ends = 0
                elif pre and ends_code_line(el):
                    line_ends += 1
            text, node = el.tail, None
        if not text:
            continue
        path = paths[-1] if paths else ()
        if path is None:
            path = paths[-1] = tuple(stack)
        if pre:
            if line_ends:
                text = line_break(text, line_ends)
                line_ends = 0
            pending_space = _pre_text(blocks, crossed, text, path,
                                      node if node is not None else el.getparent(), links)
            paragraph = blocks[-1].paragraph if blocks else paragraph
            continue
        words = text.split()
        if not words:
            pending_space = True
            continue
        pending_space = pending_space or text[0].isspace()
        paragraph, _ = _add(blocks, crossed, paragraph, pending_space, " ".join(words), path,
                            node if node is not None else el.getparent(), links)
        pending_space = text[-1].isspace()
    return blocks


_CLOSING = {tag: "/" + tag for tag in BLOCK_LEVEL | {"a", "b", "i", "span", "em", "strong", "font", "small"}}


def _add(blocks: list[Block], crossed: list[str], paragraph: int, space: bool, text: str,
         path: tuple[str, ...], node: etree._Element | None, links: int,
         image: str | None = None) -> tuple[int, bool]:
    """Append a block; returns the paragraph number and the pending-space state."""
    seen = tuple(crossed)
    breaks = False
    for t in seen:
        if (t[1:] if t[0] == "/" else t) in BLOCK_LEVEL:
            breaks = True
            break
    if breaks and blocks:
        paragraph += 1
    blocks.append(Block(len(blocks), text, path, seen, len(text) if links else 0, node,  # type: ignore[arg-type]
                        space or breaks or not blocks, paragraph, image))
    crossed.clear()
    return paragraph, False


def _image(el: etree._Element) -> tuple[str, str] | None:
    """(src, alt) of an ``<img>`` worth a block: it has a source or alt text."""
    src = el.get("src") or el.get("data-src") or ""
    alt = " ".join((el.get("alt") or "").split())
    return (src, alt) if src or alt else None


def ends_code_line(el: etree._Element) -> bool:
    """Whether the end of ``el`` inside a ``<pre>`` ends a line as a browser shows it: a
    block-level element, or a highlighter's line (Shiki's ``<span class="line">``,
    rehype-pretty-code's ``data-line``), whose markup need not hold the newlines when the
    page is minified."""
    if el.tag in BLOCK_LEVEL:
        return el.tag != "pre"
    keys = el.keys()
    return bool(keys) and ("data-line" in keys or "line" in (el.get("class") or "").split())


def line_break(text: str, line_ends: int) -> str:
    """The text after ``line_ends`` ends of line in a ``<pre>``: a newline before it for
    each, unless the page's own newline follows them."""
    return text if text[0] == "\n" else "\n" * line_ends + text


def _pre_text(blocks: list[Block], crossed: list[str], text: str, path: tuple[str, ...],
              node: etree._Element, links: int) -> bool:
    """Inside ``<pre>`` every line is a block, the newline counting as a crossed ``br``."""
    paragraph = blocks[-1].paragraph if blocks else 0
    space = True
    for i, line in enumerate(text.split("\n")):
        if i:
            crossed.append("br")
        words = line.split()
        if words:
            paragraph, space = _add(blocks, crossed, paragraph, True, " ".join(words), path, node, links)
    return space or text[-1].isspace()


# the extension imports this module's sets: it is loaded after them
_csegment = optional("_csegment")
_compiled: Callable[[etree._Element, Limits], list[Block]] | None = None if _csegment is None else _csegment.segment
#: which segmentation :func:`segment` runs: ``"compiled"`` or ``"python"``
IMPLEMENTATION = "python" if _compiled is None else "compiled"
