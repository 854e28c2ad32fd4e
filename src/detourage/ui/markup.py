"""The page as the inspector shows it: the page's own markup and CSS, every block wrapped
in a ``<span data-dtr-b="N">`` (an ``<img>`` block gets the attribute itself), and
nothing that could run.

Blocks are text runs (:mod:`detourage.segment`): the ``.text`` of an element or the
``.tail`` of one of its children, a line of a ``<pre>``, an image's alt text.  They are
found again in a tree parsed from the same bytes by walking its text slots in document
order: a slot belongs to a block when the block's ``node`` is the slot's owner (the
element for ``.text``, the parent for ``.tail``) and the block's words come next in the
slot's text.  Each node keeps a queue of its blocks, so a slot that is no block (a
script, a hidden element) never shifts the others; a block that is not found is simply
not outlined (:attr:`Display.located` counts those that are).

Then the tree is made inert (:func:`disarm`): scripts, frames, plugins, ``<base>``,
refresh and event-handler attributes and ``javascript:`` URLs are removed.  This is the
first of three layers: the response also carries a content security policy without
scripts and is shown in a sandboxed ``<iframe>`` without ``allow-scripts``
(:mod:`detourage.ui.app`).
"""

from __future__ import annotations

import re
from collections import defaultdict, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lxml import etree

from ..model import Block

#: the attribute that numbers a block in the shown page
BLOCK_ATTRIBUTE = "data-dtr-b"

#: elements removed from the shown page, content and all (their tail text stays)
REMOVED = frozenset("script noscript iframe frame frameset object embed applet base portal".split())
#: elements whose content a browser does not parse as markup: their blocks stay unwrapped
_RAW_TEXT = frozenset("textarea option title style script xmp plaintext".split())
#: attributes that hold a URL a browser may follow or load
_URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "data", "poster", "background")
_SCRIPT_URL = re.compile(r"^\s*(javascript|vbscript|data\s*:\s*text/html)", re.I)
#: characters lxml refuses in text (XML 1.0 forbids them): shown as a space
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True, slots=True)
class Display:
    """The HTML to show and how many of the page's blocks it outlines."""

    html: str
    located: int
    blocks: int


def display(root: etree._Element | None, blocks: Sequence[Block], *, base: str | None = None,
            style: str = "") -> Display:
    """The shown page of ``root`` (the tree the ``blocks`` were cut from; it is changed).

    ``base`` becomes the page's ``<base href>`` (relative links and stylesheets resolve
    there); ``style`` is added as the last ``<style>`` of the head."""
    if root is None:
        return Display("<!DOCTYPE html><html><head></head><body></body></html>", 0, len(blocks))
    located = wrap_blocks(root, blocks)
    disarm(root)
    head = _head(root)
    for meta in head.findall("meta"):
        if meta.get("charset") is not None or (meta.get("http-equiv") or "").lower() == "content-type":
            _drop(meta)
    head.insert(0, etree.Element("meta", charset="utf-8"))
    if base is not None:
        head.insert(1, etree.Element("base", href=base))
    if style:
        head.append(etree.Element("style"))
        head[-1].text = style
    text = etree.tostring(root, method="html", encoding="unicode")
    return Display("<!DOCTYPE html>\n" + text, located, len(blocks))


def wrap_blocks(root: etree._Element, blocks: Sequence[Block]) -> int:
    """Wrap every block found in the tree (see the module docstring); returns how many."""
    queues: dict[int, deque[int]] = defaultdict(deque)
    for block in blocks:
        queues[id(block.node)].append(block.id)
    edits = []
    images = 0
    for el, where, text in _slots(root):
        queue = queues.get(id(el if where != "tail" else el.getparent()))
        if not queue:
            continue
        if where == "img":
            if blocks[queue[0]].image is not None:
                el.set(BLOCK_ATTRIBUTE, str(queue.popleft()))
                images += 1
            continue
        pieces = _pieces(text, queue, blocks)
        if pieces:
            edits.append((el, where, text, pieces))
    for edit in edits:
        _wrap(*edit)
    return images + sum(len(pieces) for *_, pieces in edits)


def _slots(root: etree._Element) -> Iterator[tuple[etree._Element, str, str]]:
    """(element, "text" | "tail" | "img", text) in document order, as segmentation reads them."""
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if not isinstance(el.tag, str):
            if event == "end" and el.tail:
                yield el, "tail", el.tail
            continue
        if event == "start":
            if el.tag == "img":
                yield el, "img", ""
            elif el.text and el.tag not in _RAW_TEXT:
                yield el, "text", el.text
        elif el.tail and el.getparent() is not None and el.getparent().tag not in _RAW_TEXT:
            yield el, "tail", el.tail


def _pieces(text: str, queue: deque[int], blocks: Sequence[Block]) -> list[tuple[int, int, int]]:
    """(start, end, block id) of the queued blocks whose words come next in ``text``."""
    pieces = []
    cursor = 0
    while queue and blocks[queue[0]].image is None:
        words = blocks[queue[0]].text.split()
        if not words:
            break
        found = re.compile(r"\s+".join(map(re.escape, words))).search(text, cursor)
        if found is None or text[cursor:found.start()].strip():
            break
        pieces.append((found.start(), found.end(), queue.popleft()))
        cursor = found.end()
    return pieces


def _wrap(el: etree._Element, where: str, text: str, pieces: list[tuple[int, int, int]]) -> None:
    """Replace a text slot by its text with a span around each block."""
    text = _NOT_XML.sub(" ", text)
    spans = []
    for k, (start, end, block) in enumerate(pieces):
        span = etree.Element("span", {BLOCK_ATTRIBUTE: str(block)})
        span.text = text[start:end]
        after = pieces[k + 1][0] if k + 1 < len(pieces) else len(text)
        span.tail = text[end:after] or None
        spans.append(span)
    lead = text[:pieces[0][0]] or None
    if where == "text":
        el.text = lead
        for k, span in enumerate(spans):
            el.insert(k, span)
    else:
        el.tail = lead
        anchor = el
        for span in spans:
            anchor.addnext(span)
            anchor = span


def disarm(root: etree._Element) -> None:
    """Remove what could run or navigate: scripts, frames, plugins, ``<base>``, refresh,
    ``on*`` attributes, ``javascript:`` URLs and ``srcdoc``."""
    elements = [e for e in root.iter() if isinstance(e.tag, str)]
    for el in elements:
        if el.tag in REMOVED or (el.tag == "meta" and (el.get("http-equiv") or "").lower() == "refresh"):
            _drop(el)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for name in list(el.attrib):
            lowered = name.lower()
            if lowered.startswith("on") or lowered == "srcdoc":
                del el.attrib[name]
            elif lowered in _URL_ATTRIBUTES and _SCRIPT_URL.match(el.attrib[name]):
                del el.attrib[name]


def _drop(el: etree._Element) -> None:
    """Remove an element and its content, keeping the text that follows it."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def _head(root: etree._Element) -> etree._Element:
    """The document's ``<head>``, created when missing."""
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    return head
