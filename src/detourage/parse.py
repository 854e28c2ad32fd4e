"""One parse per page: decoded text → lxml tree, tolerant of broken markup, within limits.

lxml (libxml2's HTML parser) is used for every method.  Comments and processing
instructions are dropped at parse time: no method keeps them (seed 000, 001, 003 all
delete comments) and the text on both sides of a comment then forms one run, as a
browser shows it.  ``huge_tree`` lifts libxml2's default depth cap of 256, which otherwise
stops the parse silently at the first deep spot and loses the rest of the page; our own
limits then decide, with a clear error.  ``collect_ids=False`` spares libxml2 a table of
the ``id`` attributes that nothing reads (XPath's ``id()`` alone would; trafilatura
parses so too): 4 % of a parse's instructions.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from functools import lru_cache

from lxml import etree

from .errors import LimitExceeded
from .settings import DEFAULT_LIMITS, Limits


def _parser() -> etree.HTMLParser:
    return etree.HTMLParser(
        encoding="utf-8",
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        huge_tree=True,
        default_doctype=False,  # type: ignore[call-arg]  # lxml-stubs 0.5 lacks this argument of lxml's
        collect_ids=False,
    )


_LOCAL = threading.local()


def _thread_parser() -> etree.HTMLParser:
    """This thread's parser: lxml releases the interpreter lock while it parses only with
    a parser no other thread uses, so threads (the inspector's requests, a Dask worker's
    tasks) never queue behind one slow page."""
    parser = getattr(_LOCAL, "parser", None)
    if parser is None:
        parser = _LOCAL.parser = _parser()
    return parser


def parse(html: str | bytes, limits: Limits = DEFAULT_LIMITS) -> etree._Element | None:
    """Parse a decoded page (or UTF-8 bytes); ``None`` for a page with no markup or text."""
    if isinstance(html, str):
        # a browser drops NUL in text; libxml2 would turn each into U+FFFD
        data = html.replace("\x00", "").encode("utf-8", "surrogatepass")
    else:
        data = html.replace(b"\x00", b"")
    if len(data) > limits.max_bytes:
        raise LimitExceeded("bytes", len(data), limits.max_bytes)
    if not data.strip():
        return None
    data = bounded_attributes(data, limits.max_attributes)
    try:
        parser = _thread_parser()
        root = etree.fromstring(data, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
    _check_parse_log(parser.error_log, limits)
    if root is not None and root.getnext() is not None:
        one_root(root)
    return root


def one_root(root: etree._Element) -> None:
    """Move into ``root`` what libxml2 left beside it, as a browser reads it.

    Markup after a page's ``</html>`` (a second template appended, the article after a
    premature ``</body></html>``, scripts) or after a broken ``<html …/>`` start tag goes,
    for libxml2, into a second top-level ``<html>`` after the root (the root is the
    document's first element), which nothing walking ``root`` sees: 131 of the 3 749
    shared pages have one, 16 with text there, two with all their article
    (``benchmarks/studies/root_siblings.py``).  A browser reads every start tag
    after the body as part of it, so its content is moved to the end of the body, in
    order: a ``<body>`` whole while the root has none, or else its content; any other
    element or text.  Another ``<head>`` goes to the root while it has no body; after
    one, what it holds shows nothing (a title, metadata, scripts) and is left out."""
    for sibling in list(root.itersiblings()):
        for part in _parts(sibling):
            _place(root, part)


def _parts(sibling: etree._Element) -> list[etree._Element | str]:
    """What a top-level element beside the root brings, in order: an ``<html>``'s own
    text and children (taken from it), or the element itself."""
    if sibling.tag != "html":
        return [sibling]
    parts: list[etree._Element | str] = [sibling.text] if sibling.text and sibling.text.strip() else []
    sibling.text = None
    return [*parts, *sibling]


def _place(root: etree._Element, part: etree._Element | str) -> None:
    """Put ``part`` (an element, with its tail, or text) at the end of ``root``'s body,
    or where :func:`one_root` says."""
    body = root.find("body")
    if not isinstance(part, str) and part.tag == "head":
        if body is None and root.find("head") is None:
            root.insert(0, part)
        elif body is None:
            root.find("head").extend(part)  # type: ignore[union-attr]  # found just above
        return
    if not isinstance(part, str) and part.tag == "body":
        if body is None:
            root.append(part)
            return
        if part.text and part.text.strip():  # its content, in order; the tag a browser ignores
            _add_text(body, part.text)
        body.extend(part)
        return
    if body is None:
        body = etree.SubElement(root, "body")
    if isinstance(part, str):
        _add_text(body, part)
    else:
        body.append(part)


def _add_text(body: etree._Element, text: str) -> None:
    """``text`` at the end of ``body``'s content."""
    if len(body):
        last = body[-1]
        last.tail = (last.tail or "") + text
    else:
        body.text = (body.text or "") + text


def _check_parse_log(log: etree._ListErrorLog, limits: Limits) -> None:
    """Turn libxml2's own resource limit or a failed allocation (a truncated tree, under
    the runner's memory ceiling) into a clear error."""
    for entry in log:
        if entry.type_name == "ERR_NO_MEMORY":
            raise MemoryError(entry.message)
        if entry.type_name == "ERR_RESOURCE_LIMIT" or "Excessive depth" in entry.message:
            raise LimitExceeded("depth", limits.max_depth + 1, limits.max_depth)


# ---------------------------------------------------------------- attributes per tag

#: HTML's whitespace, as its tokenizer reads it (``\v`` is none)
_WS = rb"\t\n\f\r "
#: one attribute as HTML's tokenizer reads it: separators (whitespace, ``/``), a name (it
#: may start with ``=``; quotes and ``<`` are name characters), then optionally ``=`` and a
#: quoted or unquoted value.  Every quantifier is possessive: no character is read twice.
_ATTRIBUTE = (rb"[" + _WS + rb"/]*+[^" + _WS + rb"/>][^" + _WS + rb"/>=]*+"
              rb"(?:[" + _WS + rb"]*+=[" + _WS + rb"]*+(?:\"[^\"]*+\"?+|'[^']*+'?+|[^" + _WS + rb">]*+))?+")
#: what ends a start tag once its attributes are read: ``>`` or the end of the text
_TAG_END = rb"[" + _WS + rb"/]*+(?:>|\Z)"
_NAME_END = rb"(?=[" + _WS + rb"/>]|\Z)"
#: elements whose content holds no tags (libxml2 2.14 reads them so, as browsers do), and
#: that content: up to the element's end tag
_RAW_TEXT = {tag: b"(?:[^<]++|<(?!/" + tag + b"))*+"
             for tag in (b"script", b"style", b"xmp", b"iframe", b"noembed", b"noframes", b"textarea", b"title")}
_RAW_CONTENT = {tag: re.compile(content, re.I) for tag, content in _RAW_TEXT.items()}
_TAG_NAME = re.compile(rb"<([a-z][^\t\n\f\r />]*)", re.I)
#: from a start tag's last kept attribute to the start of its last attribute
_BEFORE_LAST = re.compile(b"(?:" + _ATTRIBUTE + b")*?(?=" + _ATTRIBUTE + _TAG_END + b")")
#: from there to the end of the tag
_REST = re.compile(b"(?:" + _ATTRIBUTE + b")*+" + _TAG_END)


@lru_cache(maxsize=8)
def _markup(limit: int) -> re.Pattern[bytes]:
    """Markup read as HTML's tokenizer reads it, up to the first start tag of more than
    ``limit`` attributes: text, comments, the content of ``<script>``, ``<style>``… (no tag
    inside), start tags of ``limit`` attributes or fewer, end tags, ``<!…>`` and ``<?…>``."""
    start_tag = b"(?:" + _ATTRIBUTE + b"){0,%d}+" % limit + _TAG_END
    raw = b"".join(b"|<" + tag + _NAME_END + start_tag + content for tag, content in _RAW_TEXT.items())
    return re.compile(
        b"(?:[^<]++"
        b"|<!--(?:-?>|(?:[^-]++|-(?!-!?>))*+(?:--!?>)?+)"
        + raw +
        b"|<plaintext" + _NAME_END + start_tag + b"(?s:.*+)"
        b"|<[a-z][^" + _WS + b"/>]*+" + start_tag +
        b"|</[a-z][^" + _WS + b"/>]*+(?:" + _ATTRIBUTE + b")*+" + _TAG_END +
        b"|<[!?/][^>]*+>?+"
        b"|<(?![a-z!?/]))*+", re.I)


@lru_cache(maxsize=8)
def _kept(limit: int) -> re.Pattern[bytes]:
    """A start tag's name and its first ``limit`` attributes."""
    return re.compile(b"<[a-z][^" + _WS + b"/>]*+(?:" + _ATTRIBUTE + b"){%d}" % limit, re.I)


def bounded_attributes(data: bytes, limit: int) -> bytes:
    """``data`` with the attributes of each start tag beyond its first ``limit`` dropped
    (its last one kept, so that whatever ends the tag stays as it was); the text is kept.

    libxml2 takes time quadratic in the attributes of one tag, and no signal stops it.
    Pages with no such tag (all the shared pages) pay only :func:`_long_tag_possible`,
    about 1 % of the parse; the others are read as markup once, from the start.  This is
    a first line only: a tag whose quoted values hide a ``>`` after every few attributes
    gets past it.
    """
    if not _long_tag_possible(data, limit):
        return data
    cuts: list[tuple[int, int]] = []
    markup, pos, size = _markup(limit), 0, len(data)
    while (pos := markup.match(data, pos).end()) < size:  # type: ignore[union-attr]  # (...)*+ matches anywhere
        pos = _cut(data, pos, limit, cuts)
    return _without(data, cuts)


def _cut(data: bytes, start: int, limit: int, cuts: list[tuple[int, int]]) -> int:
    """Add to ``cuts`` the attributes to drop from the start tag at ``start``; where the
    markup goes on (after the tag, and after its content if that holds no tags)."""
    keep = _kept(limit).match(data, start).end()  # type: ignore[union-attr]  # a start tag of more than limit attributes is here
    last = _BEFORE_LAST.match(data, keep).end()  # type: ignore[union-attr]  # and has a last attribute
    if keep < last:
        cuts.append((keep, last))
    end = _REST.match(data, keep).end()  # type: ignore[union-attr]  # its attributes then its end
    name = _TAG_NAME.match(data, start)[1].lower()  # type: ignore[index]  # its name
    if name in _RAW_CONTENT:
        end = _RAW_CONTENT[name].match(data, end).end()  # type: ignore[union-attr]  # optional content
    elif name == b"plaintext":
        end = len(data)
    return end


def _long_tag_possible(data: bytes, limit: int) -> bool:
    """Whether ``data`` may hold a start tag of more than ``limit`` attributes.

    Such a tag spans over ``2 * limit`` bytes without a ``>`` outside its quoted values,
    so only the stretches that long without a ``>`` are read as markup, each out of its
    context (it may start inside a script): a tag found there makes the caller read the
    whole page.  The stretches are found with ``rfind`` over windows of that width, each
    window starting after the last ``>`` of the one before: each byte is looked at at
    most twice, at ``memrchr`` speed.
    """
    markup, width, i, size = _markup(limit), 2 * limit, 0, len(data)
    while i + width <= size:
        last = data.rfind(b">", i, i + width)
        if last >= 0:
            i = last + 1
            continue
        end = data.find(b">", i + width)
        stop = size if end < 0 else end + 1
        if markup.match(data, i, stop).end() < stop:  # type: ignore[union-attr]  # (...)*+ matches anywhere
            return True
        i = stop
    return False


def _without(data: bytes, cuts: list[tuple[int, int]]) -> bytes:
    """``data`` less the (ordered, disjoint) spans ``cuts``."""
    if not cuts:
        return data
    pieces, kept_from = [], 0
    for start, stop in cuts:
        pieces.append(data[kept_from:start])
        kept_from = stop
    pieces.append(data[kept_from:])
    return b"".join(pieces)


# ---------------------------------------------------------------- repair

_BODY = re.compile(r"<body[\s>]", re.I)
_TITLE_START = re.compile(r"<title", re.I)
_TITLE_END = re.compile(r"</title\s*>", re.I)
_HTML_START = re.compile(r"<html", re.I)


def repaired(html: str) -> str:
    """The page rewritten around the breakages that make libxml2 lose the whole body.

    Used only when a page with text gave no block at all.  Seen in L3S-GN1: a truncated
    ``</title`` (libxml2, like a browser, then reads the rest of the page as the title),
    an unknown element inside ``<head>`` (libxml2 keeps the body inside the head), and a
    truncated ``<html …`` start tag (libxml2 drops everything after it).  Restarting at
    ``<body`` avoids the first two; without a body tag the swallowing title and the
    broken html tag are neutralised.
    """
    body = _BODY.search(html)
    if body is not None:
        return "<html>" + html[body.start():]
    return _replace_tag(_replace_tag(html, _TITLE_START, ""), _HTML_START, "<html>")


def head_markup(html: str) -> str:
    """What a page restarted at ``<body`` (:func:`repaired`) left out: the markup before
    its body tag, its head as written ('' without a body tag), for the metadata read
    there.  A ``<title`` never closed there loses its start tag, as in :func:`repaired`:
    it would read the rest of the head as the title (a truncated ``</titl``)."""
    body = _BODY.search(html)
    if body is None:
        return ""
    head = html[:body.start()]
    return head if _TITLE_END.search(head) else _replace_tag(head, _TITLE_START, "")


def _replace_tag(html: str, start: re.Pattern[str], by: str) -> str:
    """``html`` with the first tag opening with ``start`` (up to its ``>``) replaced by
    ``by``.  Found by a search and a ``find``, not by ``start[^>]*>``: that pattern reads
    to the end of the page from every candidate when no ``>`` follows (quadratic)."""
    found = start.search(html)
    if found is None:
        return html
    end = html.find(">", found.end())
    return html if end < 0 else html[:found.start()] + by + html[end + 1:]


def drop_element(el: etree._Element) -> None:
    """Remove an element and its content from its tree, keeping the text that follows it
    (its tail); nothing for the root."""
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


def nearest_above(node: etree._Element | None, test: Callable[[etree._Element], object],
                  known: dict[etree._Element, etree._Element | None]) -> etree._Element | None:
    """The nearest element at or above ``node`` that passes ``test`` (called on elements
    only, never on a comment's or a processing instruction's node), or None; ``known``
    holds the answer for the elements already walked (the blocks of a page share their
    ancestors), and gets it for those walked now: one ``known`` per ``test``."""
    walked = []
    found = None
    while node is not None:
        if node in known:
            found = known[node]
            break
        walked.append(node)
        if isinstance(node.tag, str) and test(node):
            found = node
            break
        node = node.getparent()
    for element in walked:
        known[element] = found
    return found
