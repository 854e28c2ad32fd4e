"""Segmentation: the lxml tree → the page's text blocks, written once for every method.

Blocks follow Victor's precleaning (seed 003 §3.2–3.3): text is split at every tag;
each block knows its containers (``path``) and the tags crossed since the previous block
(``crossed``, Victor's ``distance``); inside ``<pre>`` every line is its own block, the
newline counting as a crossed ``br``; an ``<img>`` contributes its ``alt`` text as a block
of its own.  Invisible content (scripts, styles, ``<head>``, ``hidden`` elements…) is never
a block.  On top of the runs, ``Block.paragraph`` numbers the *paragraph view*: runs not
separated by a block-level tag or a ``<br>`` share a number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml import etree

from .errors import LimitExceeded
from .model import Block
from .parse import DEFAULT_LIMITS, Limits

#: elements whose content is never shown as text (Victor's ``tag-delete`` plus the
#: HTML5 elements that render no text of their own)
INVISIBLE = frozenset(
    """head script style noscript template iframe object embed applet svg canvas
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
    return tuple(_segment(root, limits))


def _segment(root: etree._Element, limits: Limits) -> list[Block]:  # noqa: C901
    """One pass of ``iterwalk``; the body is inlined because it runs for every element.

    It is the hottest loop of the library (every method pays for it), hence the local
    aliases and the absence of helper calls per element; ``_Runs`` only sees text.
    """
    runs = _Runs()
    skipped: set[etree._Element] = set()
    paths: list[tuple[str, ...]] = [()]
    crossed = runs.crossed
    max_depth, max_nodes = limits.max_depth, limits.max_nodes
    nodes = 0
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag
        if tag.__class__ is not str:  # an entity or other non-element node
            runs.text(el.tail, paths[-1], el.getparent())
        elif event == "start":
            if tag in INVISIBLE or el.get("hidden") is not None or (
                el.get("style") is not None and is_hidden(el)
            ):
                walker.skip_subtree()
                skipped.add(el)
                continue
            nodes += 1
            path = paths[-1] + (tag,)
            if nodes > max_nodes:
                raise LimitExceeded("nodes", nodes, max_nodes)
            if len(path) > max_depth:
                raise LimitExceeded("depth", len(path), max_depth)
            crossed.append(tag)
            if tag in VOID:
                if tag == "img":
                    runs.image(el, path)
                continue
            paths.append(path)
            if tag == "a" or tag == "pre":
                runs.enter(el, tag, 1)
            text = el.text
            if text:
                if runs.pre or not text.isspace():
                    runs.text(text, path, el)
                else:
                    runs.pending_space = True
        elif el in skipped:
            runs.pending_space = True
            runs.text(el.tail, paths[-1], el.getparent())
        else:
            if tag not in VOID:
                paths.pop()
                crossed.append("/" + tag)
                if tag == "a" or tag == "pre":
                    runs.enter(el, tag, -1)
            tail = el.tail
            if tail:
                if runs.pre or not tail.isspace():
                    runs.text(tail, paths[-1], el.getparent())
                else:
                    runs.pending_space = True
    return runs.blocks


class _Runs:
    """Turns text met during the walk into blocks, tracking what lies between them."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.crossed: list[str] = []
        self.links = 0  # depth of enclosing <a href>
        self.pre = 0  # depth of enclosing <pre>
        self.pending_space = False
        self.paragraph = 0

    def enter(self, el: etree._Element, tag: str, step: int) -> None:
        if tag == "pre":
            self.pre += step
        elif el.get("href") is not None:
            self.links += step

    def image(self, el: etree._Element, path: tuple[str, ...]) -> None:
        src = el.get("src") or el.get("data-src")
        alt = " ".join((el.get("alt") or "").split())
        if src or alt:
            self.emit(alt, path, el, image=src or "")

    def text(self, text: str | None, path: tuple[str, ...], node: etree._Element | None) -> None:
        if not text or node is None:
            return
        if self.pre and "\n" in text:
            for i, line in enumerate(text.split("\n")):
                if i:
                    self.crossed.append("br")
                self.run(line, path, node)
        else:
            self.run(text, path, node)

    def run(self, text: str, path: tuple[str, ...], node: etree._Element) -> None:
        words = text.split()
        if not words:
            self.pending_space = self.pending_space or bool(text)
            return
        self.pending_space = self.pending_space or text[0].isspace()
        self.emit(" ".join(words), path, node)
        self.pending_space = text[-1].isspace()

    def emit(self, text: str, path: tuple[str, ...], node: etree._Element, image: str | None = None) -> None:
        crossed = tuple(self.crossed)
        breaks = False
        for t in crossed:
            if (t[1:] if t[0] == "/" else t) in BLOCK_LEVEL:
                breaks = True
                break
        blocks = self.blocks
        if breaks and blocks:
            self.paragraph += 1
        blocks.append(
            Block(
                len(blocks),
                text,
                path,
                crossed,
                len(text) if self.links else 0,
                node,
                self.pending_space or breaks or not blocks,
                self.paragraph,
                image,
            )
        )
        self.crossed.clear()
        self.pending_space = image is not None
