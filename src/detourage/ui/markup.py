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

The page's own ``data-dtr-*`` attributes are removed first, so it cannot fake outlines.
Then the tree is made inert (:func:`disarm`): scripts, frames, plugins, ``<base>``,
``http-equiv`` metas, SVG animations, raw-text elements inside SVG and MathML (where a
browser parses ``<style>`` as markup), event-handler attributes, attributes with names no
browser reads as one, and ``javascript:`` (or ``data:`` other than image) URLs are
removed; so are a ``<meta name="referrer">`` and ``referrerpolicy`` and ``ping``
attributes, which would override the response's ``Referrer-Policy: no-referrer`` and
tell a remote server the inspector's address and the page's key.  It is then serialized
and parsed again, and disarmed again, until a parse finds nothing more (:func:`inert`):
what is served is checked as it will be parsed, not only as it was.  This is the first
of three layers: the response also carries a content security policy without scripts and
is shown in a sandboxed ``<iframe>`` without ``allow-scripts``
(:mod:`detourage.ui.app`).
"""

from __future__ import annotations

import re
from collections import defaultdict, deque
from collections.abc import Callable, Iterator, Sequence
from copy import deepcopy
from dataclasses import dataclass, replace

from lxml import etree

from ..errors import DetourageError
from ..model import Block
from ..parse import drop_element, parse
from .assets import page_references

#: the attribute that numbers a block in the shown page
BLOCK_ATTRIBUTE = "data-dtr-b"
#: the prefix of every attribute the inspector adds to the shown page
MARK_PREFIX = "data-dtr-"

#: elements removed from the shown page, content and all (their tail text stays); SVG's
#: animations can set a link's href to a script URL
REMOVED = frozenset("script noscript iframe frame frameset object embed applet base portal "
                    "animate animatemotion animatetransform set".split())
#: elements whose content a browser does not parse as markup: their blocks stay unwrapped
_RAW_TEXT = frozenset("textarea option title style script xmp plaintext".split())
#: raw-text and escapable raw-text elements of HTML: inside SVG or MathML a browser parses
#: their content as markup, while lxml keeps and writes it as text
_RAW_IN_HTML = frozenset("style script xmp noembed noframes noscript iframe plaintext textarea title".split())
_FOREIGN = ("svg", "math")
#: attributes that hold a URL a browser may follow or load
_URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "data", "poster", "background")
#: URL schemes that run or show a document of the page's making
_SCRIPT_SCHEMES = frozenset({"javascript", "vbscript", "livescript", "data"})
_SCHEME = re.compile(r"([a-z][a-z0-9+.-]*):")
#: what a browser's URL parser drops: tabs and newlines anywhere, C0 controls and spaces around
_URL_TABS = re.compile(r"[\t\n\r]")
_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))
#: an attribute name every parser reads the same way; others (``"onerror``, ``a<b``) are dropped
_PLAIN_NAME = re.compile(r"[A-Za-z_:][-A-Za-z0-9_:.]*\Z")
#: how many times the shown page is serialized, parsed and disarmed again at most
SETTLE_ROUNDS = 3
#: attributes an element of the shown page may keep (beyond, it keeps none: see
#: ``_keep_attributes``); real pages use a few dozen at most
MAX_ATTRIBUTES = 1_000
#: characters lxml refuses in text (XML 1.0 forbids them): shown as a space
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True, slots=True)
class Display:
    """The HTML to show and how many of the page's blocks it outlines."""

    html: str
    located: int
    blocks: int
    #: the URLs the shown page may load (see :mod:`detourage.ui.assets`)
    references: tuple[str, ...] = ()


def display(root: etree._Element | None, blocks: Sequence[Block], *, base: str | None = None,
            style: str = "") -> Display:
    """The shown page of ``root`` (the tree the ``blocks`` were cut from; it is changed).

    ``base`` becomes the page's ``<base href>`` (relative links and stylesheets resolve
    there); ``style`` is added as the last ``<style>`` of the head."""
    if root is None:
        return Display("<!DOCTYPE html><html><head></head><body></body></html>", 0, len(blocks))
    unmark(root)
    located = wrap_blocks(root, blocks)
    root = inert(root)
    references = tuple(page_references(root))
    head = _head(root)
    for meta in head.findall("meta"):
        if meta.get("charset") is not None:  # the http-equiv ones went with disarm
            drop_element(meta)
    head.insert(0, etree.Element("meta", charset="utf-8"))
    if base is not None:
        head.insert(1, etree.Element("base", href=base))
    if style:
        head.append(etree.Element("style"))
        head[-1].text = style
    text = etree.tostring(root, method="html", encoding="unicode")
    return Display("<!DOCTYPE html>\n" + text, located, len(blocks), references)


def twin(root: etree._Element | None, blocks: Sequence[Block]) -> tuple[etree._Element | None, list[Block]]:
    """A copy of a page's tree and its blocks pointing into the copy: :func:`display`
    changes the tree it is given, and a copy costs far less than parsing the page again."""
    if root is None:
        return None, list(blocks)
    copy = deepcopy(root)
    wanted = {id(block.node) for block in blocks}
    nodes = {id(old): new for old, new in zip(root.iter(), copy.iter()) if id(old) in wanted}
    return copy, [replace(block, node=nodes[id(block.node)]) for block in blocks]


def unmark(root: etree._Element) -> None:
    """Remove the page's own ``data-dtr-*`` attributes: only the inspector's may outline."""
    for el in root.iter():
        if isinstance(el.tag, str) and any(name.lower().startswith(MARK_PREFIX)  # type: ignore[arg-type]  # lxml-stubs: an HTML tree's names and texts are str
                                           for name in el.keys()):
            _keep_attributes(el, lambda name, _: not name.lower().startswith(MARK_PREFIX))


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


def disarm(root: etree._Element) -> int:
    """Remove what could run or navigate (see the module docstring); returns how many
    elements and attributes were removed."""
    doomed = [el for el in root.iter() if isinstance(el.tag, str) and _runs(el)]
    doomed += [el for foreign in root.iter(*_FOREIGN) for el in foreign.iterdescendants()
               if isinstance(el.tag, str) and el.tag.lower() in _RAW_IN_HTML]
    doomed = list(dict.fromkeys(doomed))
    for el in doomed:
        drop_element(el)
    return len(doomed) + sum(_disarm_attributes(el) for el in root.iter() if isinstance(el.tag, str))


def inert(root: etree._Element) -> etree._Element:
    """``root`` disarmed as a browser will read it: disarmed, then serialized, parsed and
    disarmed again until a parse finds nothing to remove; the last tree parsed.  A page
    that does not settle in SETTLE_ROUNDS is refused (:class:`DetourageError`)."""
    disarm(root)
    for _ in range(SETTLE_ROUNDS):
        again = parse(etree.tostring(root, method="html", encoding="unicode"))
        if again is None:
            return root
        if not disarm(again):
            return again
        root = again
    raise DetourageError("the page could not be made inert: each parse of it finds more to remove")


def _runs(el: etree._Element) -> bool:
    """Whether an element runs, loads a document or navigates by itself."""
    if el.tag.lower() in REMOVED:
        return True
    return el.tag.lower() == "meta" and any(name.lower() == "http-equiv" or (
        name.lower() == "name" and value.strip().lower() == "referrer") for name, value in el.attrib.items())


def _disarm_attributes(el: etree._Element) -> int:
    """Remove an element's dangerous attributes; returns how many."""
    return _keep_attributes(el, lambda name, value: not _dangerous(name, value))


def _keep_attributes(el: etree._Element, keep: Callable[[str, str], bool]) -> int:
    """Keep the attributes ``keep`` accepts (and whose name is plain); returns how many
    went.  They are cleared and set again: lxml cannot delete one named like ``a{b``.
    An element with more than MAX_ATTRIBUTES loses them all: reading an attribute's value
    costs lxml a walk through the others, and no real element has so many."""
    names = el.keys()
    if len(names) > MAX_ATTRIBUTES:
        el.attrib.clear()
        return len(names)
    items = el.attrib.items()
    kept = [(name, value) for name, value in items
            if _PLAIN_NAME.match(name) and keep(name, value)]  # type: ignore[arg-type]  # lxml-stubs: an HTML tree's names and texts are str
    if len(kept) < len(items):
        el.attrib.clear()
        for name, value in kept:
            el.set(name, value)
    return len(items) - len(kept)


def _dangerous(name: str, value: str) -> bool:
    lowered = name.lower()
    if lowered.startswith("on") or lowered in ("srcdoc", "referrerpolicy", "ping"):
        return True
    return lowered in _URL_ATTRIBUTES and script_url(value)


def script_url(value: str) -> bool:
    """Whether a URL, read as a browser reads it, runs script or shows a page's own
    document: ``javascript:`` and the like, ``data:`` other than an image."""
    url = _URL_TABS.sub("", value).strip(_C0_AND_SPACE).lower()
    scheme = _SCHEME.match(url)
    if scheme is None or scheme.group(1) not in _SCRIPT_SCHEMES:
        return False
    return not (scheme.group(1) == "data" and url.startswith("data:image/"))


def _head(root: etree._Element) -> etree._Element:
    """The document's ``<head>``, created when missing."""
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    return head
