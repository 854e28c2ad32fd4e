"""One parse per page: decoded text → lxml tree, tolerant of broken markup, within limits.

lxml (libxml2's HTML parser) is used for every method.  Comments and processing
instructions are dropped at parse time: no method keeps them (seed 000, 001, 003 all
delete comments) and the text on both sides of a comment then forms one run, as a
browser shows it.  ``huge_tree`` lifts libxml2's default depth cap of 256, which otherwise
stops the parse silently at the first deep spot and loses the rest of the page; our own
limits then decide, with a clear error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from .errors import LimitExceeded


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Bounds on one page; exceeding one raises :class:`LimitExceeded`.

    Defaults: 16 MiB is 16× the largest page of the shared datasets and far above the
    1 MiB at which Common Crawl truncates records; 500 000 elements and depth 1 000 are
    beyond any real page we have seen (libxml2 itself refuses depth > 2 048 even with
    ``huge_tree``).
    """

    max_bytes: int = 16 * 1024 * 1024
    max_nodes: int = 500_000
    max_depth: int = 1_000


DEFAULT_LIMITS = Limits()


def _parser() -> etree.HTMLParser:
    return etree.HTMLParser(
        encoding="utf-8",
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        huge_tree=True,
        default_doctype=False,
    )


_PARSER = _parser()


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
    try:
        root = etree.fromstring(data, _PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
    _check_parse_log(_PARSER.error_log, limits)
    return root


def _check_parse_log(log: etree._ListErrorLog, limits: Limits) -> None:
    """Turn libxml2's own resource limit or a failed allocation (a truncated tree, under
    the runner's memory ceiling) into a clear error."""
    for entry in log:
        if entry.type_name == "ERR_NO_MEMORY":
            raise MemoryError(entry.message)
        if entry.type_name == "ERR_RESOURCE_LIMIT" or "Excessive depth" in entry.message:
            raise LimitExceeded("depth", limits.max_depth + 1, limits.max_depth)


_BODY = re.compile(r"<body[\s>]", re.I)
_TITLE_START = re.compile(r"<title[^>]*>", re.I)
_HTML_START = re.compile(r"<html[^>]*>", re.I)


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
    return _HTML_START.sub("<html>", _TITLE_START.sub("", html, count=1), count=1)
