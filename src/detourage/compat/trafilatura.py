"""trafilatura's extraction API, with its arguments, meanings and return types, on detourage.

Switching is an import line::

    >>> from detourage.compat.trafilatura import extract
    >>> extract("<html><body><article><p>Here is the main text.</p></article></body></html>")
    'Here is the main text.'

``extract`` returns a string or None, ``bare_extraction`` a :class:`TrafilaturaDocument` (or None),
``extract_metadata`` a :class:`TrafilaturaDocument` of metadata, in trafilatura's shapes: the same
JSON keys, XML elements (``<doc>``, ``<main>``, ``<comments>``), tab-separated CSV
columns, YAML header fields and ``Document`` attributes (``comments`` None when they are
left out, a tag per ``<meta>`` as the page writes it, None for an input that is no page).
``fetch_url`` downloads a page as trafilatura's does, through detourage's polite client
(:mod:`detourage.web`).  trafilatura itself is not needed.

How each argument is honoured (``docs/trafilatura-compat.md`` has the table):

- ``include_tables``, ``include_images``, ``include_links``, ``include_formatting``: what
  the renderers keep (:class:`~detourage.structure.RenderOptions`); txt and CSV with
  formatting, links or images become Markdown, as in trafilatura;
- ``include_comments`` (on by default, as there): the learned extractor's comment
  sections, given apart (``comments``, ``<comments>``, after the text in txt), without
  what surrounds a comment's text (its author's "Tomasz says:" line, its date, "Reply"
  links, the "8 Responses to" and "Leave a Reply" headings, the form): trafilatura
  keeps only the comments' text;
- ``favor_precision`` / ``favor_recall``: the learned extractor's ``favor``; ``fast``
  (``no_fallback``): its ``fallback`` off;
- ``deduplicate``: trafilatura's rule, a segment of more than 100 characters seen more
  than twice (in this process, or in the cache given) is dropped, and a whole document
  of more than 100 characters seen more than twice gives None;
- ``max_tree_size``: :class:`~detourage.parse.Limits` ``max_nodes`` (a larger page gives None);
- ``target_language``: the text's language by py3langid (the ``corpus`` extra);
- ``date_extraction_params``: ``extensive_search``, ``original_date``, ``outputformat``,
  ``min_date``, ``max_date``;
- ``prune_xpath``: the elements it selects are removed before détourage;
- ``with_metadata``, ``only_with_metadata``, ``url_blacklist``, ``author_blacklist``,
  ``record_id``, ``url``: as there.

``tei_validation=True``, ``output_format="xmltei"``, ``settingsfile``, ``config``,
``options`` (trafilatura's own configuration objects) and other ``date_extraction_params``
raise :class:`~detourage.errors.UnsupportedOption` naming them.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import inspect
import io
import json
import logging
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

import numpy as np
from lxml import etree

from .. import methods
from ..api import load, run
from ..decode import decode
from ..errors import LimitExceeded, NotHTML, UnsupportedOption
from ..metadata import Metadata, metadata
from ..model import Label, Labels, Page, Result
from ..parse import DEFAULT_LIMITS, drop_element
from ..render import html_body, render, units
from ..settings import RenderOptions
from ..structure import is_data_table
from ..web import Politeness, fetch

LOGGER = logging.getLogger(__name__)

#: output formats of :func:`extract` (``python``: :func:`bare_extraction`'s Document)
FORMATS = ("txt", "markdown", "json", "xml", "csv", "html", "python")
#: the fields of trafilatura's YAML header, ``<doc>`` attributes and HTML ``<meta>``s
_YAML_FIELDS = ("title", "author", "url", "hostname", "description", "sitename", "date", "categories",
                "tags", "fingerprint", "id", "license")
_XML_FIELDS = ("sitename", "title", "author", "date", "url", "hostname", "description", "categories",
               "tags", "license", "id", "fingerprint", "language")
#: trafilatura's deduplication: segments longer than this are counted …
DEDUP_MIN_CHARS = 100
#: … and dropped once seen more than this many times
DEDUP_REPETITIONS = 2
_DATE_PARAMS = frozenset({"extensive_search", "original_date", "outputformat", "min_date", "max_date"})


@dataclass(slots=True)
class TrafilaturaDocument:
    """trafilatura's ``Document``: metadata as strings, the content as lxml elements
    (``body``, ``commentsbody``) and as text."""

    title: str | None = None
    #: the authors, joined by ``"; "``
    author: str | None = None
    url: str | None = None
    hostname: str | None = None
    description: str | None = None
    sitename: str | None = None
    date: str | None = None
    categories: list[str] | None = None
    tags: list[str] | None = None
    #: a 64-bit Charikar simhash of the title and text, in hexadecimal
    fingerprint: str | None = None
    id: str | None = None
    license: str | None = None
    body: etree._Element | None = None
    comments: str | None = None
    commentsbody: etree._Element | None = None
    raw_text: str | None = None
    text: str | None = None
    language: str | None = None
    image: str | None = None
    pagetype: str | None = None
    filedate: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The attributes as a dictionary (a copy)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


class LRUCache:
    """trafilatura's counting cache for ``deduplicate``: the last ``maxsize`` segments
    and how often each was seen."""

    def __init__(self, maxsize: int = 2**16) -> None:
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self._seen: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def increment(self, key: str) -> int:
        """Count ``key`` once more; how often it was seen before."""
        with self._lock:
            before = self._seen.pop(key, 0)
            self._seen[key] = before + 1
            if len(self._seen) > self.maxsize:
                self._seen.popitem(last=False)
            return before

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()


#: the process-wide cache of ``deduplicate=True`` (trafilatura's ``LRU_TEST``)
LRU_TEST = LRUCache()


@dataclass(frozen=True, slots=True)
class _Request:
    """The arguments, checked and resolved once."""

    format: str
    render: RenderOptions
    comments: bool
    favor: str
    fallback: bool
    dedup: LRUCache | None
    target_language: str | None
    with_metadata: bool
    only_with_metadata: bool
    max_nodes: int | None
    url_blacklist: frozenset[str]
    author_blacklist: frozenset[str]
    prune_xpath: tuple[str, ...]
    date_params: Mapping[str, Any]
    record_id: str | None


def extract(
    filecontent: Any,
    url: str | None = None,
    record_id: str | None = None,
    fast: bool = False,
    no_fallback: bool = False,
    favor_precision: bool = False,
    favor_recall: bool = False,
    include_comments: bool = True,
    output_format: str = "txt",
    tei_validation: bool = False,
    target_language: str | None = None,
    include_tables: bool = True,
    include_images: bool = False,
    include_formatting: bool | None = None,
    include_links: bool = False,
    deduplicate: bool | LRUCache = False,
    date_extraction_params: dict[str, Any] | None = None,
    with_metadata: bool = False,
    only_with_metadata: bool = False,
    max_tree_size: int | None = None,
    url_blacklist: set[str] | None = None,
    author_blacklist: set[str] | None = None,
    settingsfile: str | None = None,
    prune_xpath: str | list[str] | None = None,
    config: Any = None,
    options: Any = None,
) -> str | None:
    """The main content in ``output_format`` (txt, markdown, json, xml, csv, html), or
    None when the page has none (or a filter discards it), as trafilatura's ``extract``."""
    if output_format == "python":
        raise UnsupportedOption("output_format='python' is bare_extraction's (extract returns a string)")
    request = _request(**_arguments(locals()))
    found = _extraction(filecontent, url, request)
    return None if found is None else _serialised(*found, request)


def extract_with_metadata(filecontent: Any, url: str | None = None, **kwargs: Any) -> str | None:
    """:func:`extract` with ``with_metadata=True``."""
    return extract(filecontent, url=url, with_metadata=True, **kwargs)


def bare_extraction(
    filecontent: Any,
    url: str | None = None,
    fast: bool = False,
    no_fallback: bool = False,
    favor_precision: bool = False,
    favor_recall: bool = False,
    include_comments: bool = True,
    output_format: str = "python",
    target_language: str | None = None,
    include_tables: bool = True,
    include_images: bool = False,
    include_formatting: bool | None = None,
    include_links: bool = False,
    deduplicate: bool | LRUCache = False,
    date_extraction_params: dict[str, Any] | None = None,
    with_metadata: bool = False,
    only_with_metadata: bool = False,
    max_tree_size: int | None = None,
    url_blacklist: set[str] | None = None,
    author_blacklist: set[str] | None = None,
    as_dict: bool = False,
    prune_xpath: str | list[str] | None = None,
    config: Any = None,
    options: Any = None,
) -> TrafilaturaDocument | dict[str, Any] | None:
    """The extraction as a :class:`TrafilaturaDocument` (``.text``, ``.comments``, ``.body``…, the
    metadata with ``with_metadata``), or None, as trafilatura's ``bare_extraction``;
    ``as_dict``: its ``as_dict()``."""
    request = _request(**_arguments(locals()))
    found = _extraction(filecontent, url, request)
    if found is None:
        return None
    document = found[0]
    return document.as_dict() if as_dict else document


def extract_metadata(
    filecontent: Any,
    default_url: str | None = None,
    date_config: dict[str, Any] | None = None,
    extensive: bool = True,
    author_blacklist: set[str] | None = None,
) -> TrafilaturaDocument:
    """The page's metadata as a :class:`TrafilaturaDocument` (no content), as trafilatura's
    ``extract_metadata``; ``filedate`` is ``max_date`` when given, else today."""
    date_params = {"extensive_search": extensive, **(date_config or {})}
    _check_date_params(date_params)
    data, url = _input(filecontent, default_url)
    try:
        page = load(data, url=url)
    except (NotHTML, LimitExceeded):
        return TrafilaturaDocument(url=url, filedate=Date.today().isoformat())
    return _with_metadata(TrafilaturaDocument(), page, frozenset(a.lower() for a in author_blacklist or ()),
                          date_params)


def html2txt(content: Any, clean: bool = True) -> str:
    """All the page's text, navigation and footers included (the ``fulltext`` method),
    as trafilatura's ``html2txt``; ``clean=False`` is refused (detourage never reads
    scripts and styles)."""
    if not clean:
        raise UnsupportedOption("html2txt(clean=False): scripts and styles are never text here")
    data, url = _input(content, None)
    try:
        return render(run(load(data, url=url), "fulltext"), "txt").strip()
    except (NotHTML, LimitExceeded):
        return ""


#: how :func:`fetch_url` behaves toward a site unless told: detourage's defaults
POLITENESS = Politeness()


def fetch_url(url: str, no_ssl: bool = False, config: Any = None, options: Any = None, *,
              politeness: Politeness = POLITENESS) -> str | None:
    """The page at ``url`` as a decoded string, or None when the download failed or the
    answer is not a 200 with a body, as trafilatura's ``fetch_url`` (``extract(fetch_url(url))``).

    It goes through detourage's client (:func:`detourage.web.fetch`), politely: robots.txt
    obeyed, every redirect a request of its own that passes the fetch policy (http(s)
    only, no user name in the URL, no loopback, private or link-local address unless
    ``politeness`` allows it: ``Politeness(allow_private=True)``), the body bounded.  Why
    a download gave None is logged, as trafilatura does.  ``no_ssl`` (skip certificate
    checks) and trafilatura's ``config`` and ``options`` are refused by name."""
    for name, value, why in (("no_ssl", no_ssl, "certificates are always checked"),
                             ("config", config, "trafilatura's configparser settings have no counterpart"),
                             ("options", options, "trafilatura's Extractor object is not read")):
        if value not in (None, False):
            raise UnsupportedOption(f"{name}: {why}")
    fetched = fetch(url, politeness=politeness)
    if fetched.status != 200 or not fetched.ok or not fetched.content:
        LOGGER.error("download failed: %s %s%s", url, fetched.outcome,
                     f" ({fetched.message})" if fetched.message else "")
        return None
    return decode(fetched.content, dict(fetched.headers)).text


# ---------------------------------------------------------------------------- arguments

def _arguments(given: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of :func:`extract` or :func:`bare_extraction` (their ``locals()``)
    that :func:`_request` reads; those one of them lacks keep their defaults."""
    return {name: given[name] for name in _REQUEST_ARGUMENTS if name in given}


def _request(*, output_format: str, fast: bool, no_fallback: bool, favor_precision: bool, favor_recall: bool,
             include_comments: bool, target_language: str | None, include_tables: bool, include_images: bool,
             include_formatting: bool | None, include_links: bool, deduplicate: Any,
             date_extraction_params: Mapping[str, Any] | None, with_metadata: bool, only_with_metadata: bool,
             max_tree_size: int | None, url_blacklist: Iterable[str] | None,
             author_blacklist: Iterable[str] | None, prune_xpath: Any, config: Any, options: Any,
             tei_validation: bool = False, settingsfile: str | None = None,
             record_id: str | None = None) -> _Request:
    """Every argument checked before any work: an option that cannot be honoured raises
    :class:`UnsupportedOption` naming it."""
    for name, value, why in (
            ("settingsfile", settingsfile, "trafilatura's settings file has no counterpart; pass the options"),
            ("config", config, "trafilatura's configparser settings have no counterpart; pass the options"),
            ("options", options, "trafilatura's Extractor object is not read; pass its fields as arguments"),
            ("tei_validation", tei_validation, "there is no XML-TEI output to validate")):
        if value not in (None, False):
            raise UnsupportedOption(f"{name}: {why}")
    if output_format not in FORMATS:
        raise UnsupportedOption(_format_message(output_format))
    if favor_precision and favor_recall:
        raise UnsupportedOption("favor_precision and favor_recall: one or the other")
    if max_tree_size is not None and not (isinstance(max_tree_size, int) and max_tree_size > 0):
        raise UnsupportedOption(f"max_tree_size: a number of elements above 0, not {max_tree_size!r}")
    date_params = dict(date_extraction_params or {})
    _check_date_params(date_params)
    if deduplicate is True:
        dedup: LRUCache | None = LRU_TEST
    elif deduplicate is False or deduplicate is None:
        dedup = None
    elif callable(getattr(deduplicate, "increment", None)):
        dedup = deduplicate  # trafilatura's LRUCache, or this module's
    else:
        raise UnsupportedOption(f"deduplicate: True, False or an LRUCache, not {type(deduplicate).__name__}")
    formatting = output_format == "markdown" if include_formatting is None else bool(include_formatting)
    return _Request(
        format=output_format,
        render=RenderOptions(links=bool(include_links), images=bool(include_images), tables=bool(include_tables),
                             formatting=formatting),
        comments=bool(include_comments),
        favor="precision" if favor_precision else "recall" if favor_recall else "balanced",
        fallback=not (fast or no_fallback),
        dedup=dedup,
        target_language=target_language or None,
        # as in trafilatura: a blacklist needs the metadata (the page's URL, its authors)
        with_metadata=bool(with_metadata or only_with_metadata or url_blacklist or author_blacklist),
        only_with_metadata=bool(only_with_metadata),
        max_nodes=max_tree_size,
        url_blacklist=frozenset(url_blacklist or ()),
        author_blacklist=frozenset(a.lower() for a in author_blacklist or ()),
        prune_xpath=(prune_xpath,) if isinstance(prune_xpath, str) else tuple(prune_xpath or ()),
        date_params=date_params,
        record_id=record_id,
    )


_REQUEST_ARGUMENTS = tuple(inspect.signature(_request).parameters)


def _format_message(output_format: str) -> str:
    if output_format == "xmltei":
        return "output_format='xmltei': detourage writes no XML-TEI (output_format='xml' is trafilatura's XML)"
    return f"output_format={output_format!r}: one of {', '.join(FORMATS)}"


def _check_date_params(params: Mapping[str, Any]) -> None:
    unknown = sorted(params.keys() - _DATE_PARAMS)
    if unknown:
        raise UnsupportedOption(f"date_extraction_params {', '.join(unknown)}: not honoured "
                                f"(honoured: {', '.join(sorted(_DATE_PARAMS))})")


def _input(filecontent: Any, url: str | None) -> tuple[str | bytes, str | None]:
    """The page's text or bytes, and its URL: a string, bytes, an lxml tree (serialised
    again), or a response object with ``data`` (trafilatura's and urllib3's)."""
    if isinstance(filecontent, (str, bytes)):
        return filecontent, url
    if isinstance(filecontent, etree._Element):
        return etree.tostring(filecontent, encoding="unicode", method="html"), url
    data = getattr(filecontent, "data", None)
    if isinstance(data, (str, bytes)):
        return data, url or getattr(filecontent, "url", None)
    raise TypeError(f"incompatible input type: {type(filecontent).__name__} "
                    "(a string, bytes, an lxml tree or a response with .data)")


# ---------------------------------------------------------------------------- extraction

def _extraction(filecontent: Any, url: str | None,
                request: _Request) -> tuple[TrafilaturaDocument, Result, Result] | None:
    """The Document, the main content's result and the comments' (None when the page has
    no content or a filter discards it)."""
    page = _page(filecontent, url, request)
    if page is None:
        return None
    main, comments = _labelled(page, request)
    document = _document(page, main, comments, request)
    return None if document is None else (document, main, comments)


def _page(filecontent: Any, url: str | None, request: _Request) -> Page | None:
    """The page loaded (then pruned), or None for no input (``extract(fetch_url(…))``
    when the download failed), an input that is no page (``extract(5)``), or no page
    within the limits."""
    if filecontent is None:
        return None
    try:
        data, url = _input(filecontent, url)
    except TypeError as error:  # trafilatura logs it and returns None
        LOGGER.error("%s", error)
        return None
    limits = DEFAULT_LIMITS if request.max_nodes is None else dataclasses.replace(DEFAULT_LIMITS,
                                                                                   max_nodes=request.max_nodes)
    try:
        page = load(data, url=url, limits=limits)
        if request.prune_xpath and page.tree is not None:
            page = load(_pruned(page.tree, request.prune_xpath), url=url, limits=limits)
    except (NotHTML, LimitExceeded):
        return None
    return page


def _labelled(page: Page, request: _Request) -> tuple[Result, Result]:
    """The main content and the comment sections, each without what the request leaves
    out (images, data tables, repeated paragraphs)."""
    main = run(page, "default", _method_options(request, comments=False))
    comments = _only(page, [], "comments")
    if request.comments:
        with_comments = run(page, "default", _method_options(request, comments=True))
        comments = _without_comment_chrome(_added(page, main.labels.labels, with_comments.labels.labels))
    if not request.render.images:  # trafilatura leaves images out, alt texts included
        main, comments = _without_images(main), _without_images(comments)
    if not request.render.tables:  # trafilatura leaves data tables out
        main, comments = _without_tables(main), _without_tables(comments)
    if request.dedup is not None:
        main, comments = _deduplicated(main, request.dedup), _deduplicated(comments, request.dedup)
    return main, comments


def _document(page: Page, main: Result, comments: Result, request: _Request) -> TrafilaturaDocument | None:
    """The Document of the results, or None when it has no text or a filter (duplicate,
    metadata, language) discards it."""
    raw_text = _text(main, RenderOptions(links=False, images=False, tables=request.render.tables,
                                         formatting=False))
    if not raw_text:
        return None
    if request.dedup is not None:  # a document is counted whatever its length, judged over 100 characters
        whole = " ".join(raw_text.split())
        if _seen_too_often(whole, request.dedup) and len(whole) > DEDUP_MIN_CHARS:
            return None
    document = TrafilaturaDocument(
        body=_element(main, request.render, "body"), commentsbody=_element(comments, request.render, "body"),
        raw_text=raw_text, text=_text(main, request.render),
        comments=_text(comments, request.render) if request.comments else None, id=request.record_id)
    if request.with_metadata:
        document = _with_metadata(document, page, request.author_blacklist, request.date_params)
        if document.url in request.url_blacklist:  # the page's own URL (canonical, else the one given)
            return None
        if request.only_with_metadata and not (document.date and document.title and document.url):
            return None
    if request.target_language:
        from ..corpusrun import langid

        document.language = langid.identify(raw_text)
        if document.language != request.target_language.lower().split("-")[0]:
            return None
    document.fingerprint = fingerprint(f"{document.title} {raw_text}")
    return document


def _method_options(request: _Request, *, comments: bool) -> dict[str, Any]:
    """The learned extractor's options (``default``'s): favor, fallback, comments."""
    return {step.name: step.options(**{**dict(step.defaults), "favor": request.favor,
                                       "fallback": request.fallback, "comments": comments})
            for step in methods.chain("default")}


def _added(page: Page, before: tuple[Label, ...], after: tuple[Label, ...]) -> Result:
    """What ``after`` keeps and ``before`` does not (the comment sections)."""
    return _only(page, [a if b is Label.OTHER else Label.OTHER for a, b in zip(after, before, strict=True)],
                 "comments")


def _only(page: Page, labels: list[Label], method: str) -> Result:
    """A result keeping ``labels`` (all OTHER when empty); a continuation whose kept
    neighbour above went opens a paragraph."""
    labels = labels or [Label.OTHER] * len(page.blocks)
    previous = Label.OTHER
    for i, label in enumerate(labels):
        if label is Label.CONTINUATION and previous is Label.OTHER:
            labels[i] = Label.PARAGRAPH
        previous = label
    chosen = tuple(labels)
    return Result(page, Labels(method, chosen), units(page.blocks, chosen))


#: class and id words of what surrounds a comment's text (WordPress, Disqus-like themes):
#: its author and "says:", its date, "Reply" links, the section's heading, the reply form
_COMMENT_CHROME = re.compile(
    r"comment-?(?:author|meta|metadata|reply(?:-link|-title)?|respond|notes|form(?:-\w+)?|awaiting-moderation|"
    r"date|time|permalink|edit-link)|commentmetadata|comments?-title|reply(?:-title|-link)?|respond|says|vcard|"
    r"logged-in-as|form-submit|akismet\w*", re.IGNORECASE)
#: lines that are a comment's chrome whatever their markup
_COMMENT_CHROME_TEXT = re.compile(
    r"(?:leave a (?:reply|comment)|post a comment|cancel reply|reply|\d+ (?:responses?|comments?|thoughts?|replies)"
    r"(?: (?:to|on) .*)?|.{1,80}\s+(?:says|said|wrote):|(?:\w+ \d{1,2}, \d{4}|\d{1,2} \w+ \d{4})"
    r"(?:,? (?:at )?\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?)?)", re.IGNORECASE)
_COMMENT_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "form", "label", "button"})


def _without_comment_chrome(comments: Result) -> Result:
    """The comment sections' text only: the blocks in a comment's chrome (by the class or
    id of an element around them, in a heading or a form, or a line that reads as chrome)
    leave, as trafilatura keeps only what the commenters wrote."""
    labels = [Label.OTHER if label is not Label.OTHER and _is_comment_chrome(block) else label
              for block, label in zip(comments.page.blocks, comments.labels.labels, strict=True)]
    return comments if tuple(labels) == comments.labels.labels else _only(comments.page, labels, "comments")


def _is_comment_chrome(block: Any) -> bool:
    if block.within(*_COMMENT_HEADINGS) or _COMMENT_CHROME_TEXT.fullmatch(" ".join(block.text.split())):
        return True
    for el in (block.node, *block.node.iterancestors()):
        words = f"{el.get('class') or ''} {el.get('id') or ''}".split()
        if any(_COMMENT_CHROME.fullmatch(word) for word in words):
            return True
    return False


def _without_images(result: Result) -> Result:
    labels = [Label.OTHER if block.image is not None else label
              for block, label in zip(result.page.blocks, result.labels.labels, strict=True)]
    return result if tuple(labels) == result.labels.labels else _only(result.page, labels, result.labels.method)


def _without_tables(result: Result) -> Result:
    """``result`` without the blocks of data tables (a table laying out the page stays:
    :func:`~detourage.structure.is_data_table`)."""
    tested: dict[Any, bool] = {}

    def in_data_table(block: Any) -> bool:
        table = next(block.node.iterancestors("table"), None) if block.node.tag != "table" else block.node
        if table is None:
            return False
        if table not in tested:
            tested[table] = next(table.iterdescendants("table"), None) is None and is_data_table(table)
        return tested[table]

    labels = [Label.OTHER if label is not Label.OTHER and block.within("table") and in_data_table(block) else label
              for block, label in zip(result.page.blocks, result.labels.labels, strict=True)]
    return result if tuple(labels) == result.labels.labels else _only(result.page, labels, result.labels.method)


def _deduplicated(result: Result, cache: LRUCache) -> Result:
    """``result`` without the units of more than :data:`DEDUP_MIN_CHARS` characters seen
    more than :data:`DEDUP_REPETITIONS` times before (each unit is counted once more)."""
    dropped = {id(block) for unit in result.units
               if len(text := " ".join(unit.text.split())) > DEDUP_MIN_CHARS and _seen_too_often(text, cache)
               for block in unit.blocks}
    if not dropped:
        return result
    labels = [Label.OTHER if id(block) in dropped else label
              for block, label in zip(result.page.blocks, result.labels.labels, strict=True)]
    return _only(result.page, labels, result.labels.method)


def _seen_too_often(text: str, cache: LRUCache) -> bool:
    return cache.increment(text) > DEDUP_REPETITIONS


def _pruned(tree: etree._Element, xpaths: tuple[str, ...]) -> str:
    """The page's tree (already decoded, checked and bounded by :func:`~detourage.load`)
    without the elements ``xpaths`` select, as HTML to load again."""
    for xpath in xpaths:
        try:
            selected = tree.xpath(xpath)
        except etree.XPathError as error:
            raise UnsupportedOption(f"prune_xpath {xpath!r}: {error}") from None
        if not isinstance(selected, list) or not all(isinstance(el, etree._Element) for el in selected):
            raise UnsupportedOption(f"prune_xpath {xpath!r}: selects values, not elements to remove")
        for el in selected:
            drop_element(el)  # type: ignore[arg-type]  # every one an element: checked above
    return etree.tostring(tree, encoding="unicode", method="html")


# ---------------------------------------------------------------------------- metadata

def _with_metadata(document: TrafilaturaDocument, page: Page, author_blacklist: frozenset[str],
                   date_params: Mapping[str, Any]) -> TrafilaturaDocument:
    found: Metadata = metadata(page, page_dates=bool(date_params.get("extensive_search", True)))
    authors = [a for a in found.authors if a.lower() not in author_blacklist]
    day = found.date if date_params.get("original_date", True) else (found.date_modified or found.date)
    return dataclasses.replace(
        document, title=_safe(found.title), author=_safe("; ".join(authors)), url=_safe(found.url),
        hostname=_safe(found.hostname), description=_safe(found.description), sitename=_safe(found.site_name),
        date=_date(day, date_params), categories=[_safe(c) or "" for c in found.categories],
        tags=[_safe(t) or "" for t in _meta_tags(page) or found.tags], license=_safe(found.license),
        language=document.language or _safe(found.language), image=_safe(found.image),
        pagetype=_safe(found.page_type), filedate=_filedate(date_params))


def _filedate(date_params: Mapping[str, Any]) -> str:
    """trafilatura's ``filedate``: the ``max_date`` given, else today."""
    return str(date_params.get("max_date") or Date.today().isoformat())[:10]


#: the ``<meta>`` trafilatura reads tags from: ``property`` article:tag, ``name`` of these
_TAG_NAMES = frozenset({"citation_keywords", "dcterms.subject", "keywords", "parsely-tags", "shareaholic:keywords",
                        "tags"})
_MARKUP = re.compile(r"<!--.*?-->|<[^>]*>", re.DOTALL)


def _meta_tags(page: Page) -> list[str]:
    """The page's tags as trafilatura gives them: one per ``<meta>`` of :data:`_TAG_NAMES`
    (or ``article:tag``), its content as written, words joined by ", " (``keywords``
    ``"a,  b, c"`` is one tag ``"a, b, c"``); empty when the head has none (then
    detourage's tags, from JSON-LD or the page's tag links, one per tag, as trafilatura's
    own fallback)."""
    if page.tree is None:
        return []
    tags = []
    for meta in page.tree.iterfind(".//head/meta[@content]"):
        content = " ".join(_MARKUP.sub("", meta.get("content") or "").split())
        prop, name = (meta.get("property") or "").lower(), (meta.get("name") or "").lower()
        if content and (prop == "article:tag" if meta.get("property") is not None else name in _TAG_NAMES):
            tags.append(", ".join(t for t in content.split(", ") if t))
    return tags


#: characters XML 1.0 forbids, which a page's metadata may hold (``&#1;`` in a title)
_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _safe(value: str | None) -> str | None:
    """A metadata string without the characters XML forbids; None when empty."""
    return _UNSAFE.sub("", value) or None if value else None


def _date(day: str | None, params: Mapping[str, Any]) -> str | None:
    """``day`` (``YYYY-MM-DD``) within ``min_date`` and ``max_date``, in ``outputformat``."""
    if day is None:
        return None
    for name, keep in (("min_date", lambda d, bound: d >= bound), ("max_date", lambda d, bound: d <= bound)):
        if (bound := params.get(name)) and not keep(day, str(bound)[:10]):
            return None
    fmt = params.get("outputformat")
    return Date.fromisoformat(day).strftime(fmt) if fmt else day


def fingerprint(text: str, bits: int = 64) -> str:
    """A Charikar simhash of ``text`` in hexadecimal, as trafilatura's
    ``content_fingerprint``: each word of the longer ones (the most letters that still
    leave ``bits / 2`` words) is hashed with BLAKE2b to ``bits`` bits, the bits voted on."""
    words = [t for w in text.split() if (t := w.strip(_PUNCTUATION)).isalnum()]
    if not words:  # punctuation of other scripts (Chinese 。): any punctuation splits
        spaced = "".join(" " if unicodedata.category(c).startswith("P") else c for c in text)
        words = [w for w in spaced.split() if w.isalnum()]
    for shortest in range(4, 0, -1):
        sample = [w for w in words if len(w) > shortest]
        if len(sample) >= bits / 2:
            words = sample
            break
    if not words:  # no votes: every bit set
        return f"{(1 << bits) - 1:x}"
    hashes = np.array([int.from_bytes(hashlib.blake2b(w.encode(), digest_size=bits // 8).digest(), "big")
                       for w in words], dtype=np.uint64)
    votes = ((hashes[:, None] >> np.arange(bits, dtype=np.uint64)) & np.uint64(1)).astype(np.int64) * 2 - 1
    return f"{sum(1 << i for i, v in enumerate(votes.sum(axis=0).tolist()) if v >= 0):x}"


_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"


# ---------------------------------------------------------------------------- outputs

def _text(result: Result, options: RenderOptions) -> str:
    """The text as trafilatura's txt gives it: Markdown when formatting, links or images
    are kept."""
    markdown = options.formatting or options.links or options.images
    return render(result, "markdown" if markdown else "txt", **dataclasses.asdict(options)).strip()


def _element(result: Result, options: RenderOptions, tag: str) -> etree._Element:
    """The content as trafilatura's XML elements (``<p>``, ``<head rend>``, ``<list>``…)."""
    doc = etree.fromstring(render(result, "xml", **dataclasses.asdict(options)).encode("utf-8"))
    main = doc.find("main")
    element = main if main is not None else etree.Element("main")
    element.tag = tag
    element.tail = None
    return element


def _serialised(document: TrafilaturaDocument, main: Result, comments: Result, request: _Request) -> str:
    fmt = request.format
    if fmt in ("txt", "markdown"):
        options = request.render  # Markdown's formatting is on unless include_formatting=False
        text = "\n".join(t for t in (_text(main, options), _text(comments, options)) if t)
        return _header(document) + text if request.with_metadata else text
    if fmt == "json":
        return _json(document, request.with_metadata)
    if fmt == "csv":
        return _csv(document)
    if fmt == "xml":
        return _xml(document)
    return _html(document, main, request)


def _header(document: TrafilaturaDocument) -> str:
    lines = [f"{name}: {json.dumps(value, ensure_ascii=False)}" for name in _YAML_FIELDS
             if (value := getattr(document, name))]
    return "---\n" + "".join(f"{line}\n" for line in lines) + "---\n"


def _json(document: TrafilaturaDocument, with_metadata: bool) -> str:
    plain = document.raw_text
    if not with_metadata:
        return json.dumps({"text": plain, "comments": _plain(document.commentsbody)}, ensure_ascii=False)
    out = {f.name: getattr(document, f.name) for f in dataclasses.fields(document)
           if f.name not in ("url", "sitename", "description", "categories", "tags", "body", "commentsbody")}
    out.update({"text": plain, "comments": _plain(document.commentsbody), "source": document.url,
                "source-hostname": document.sitename, "excerpt": document.description,
                "categories": ";".join(document.categories or []), "tags": ";".join(document.tags or [])})
    return json.dumps(out, ensure_ascii=False)


def _plain(element: etree._Element | None) -> str:
    if element is None:
        return ""
    return "\n".join(" ".join("".join(el.itertext()).split())  # type: ignore[arg-type]  # lxml-stubs: an HTML tree's names and texts are str
                     for el in element if "".join(el.itertext()).strip())  # type: ignore[arg-type]  # the same


def _csv(document: TrafilaturaDocument) -> str:
    out = io.StringIO()
    row = (document.url, document.id, document.fingerprint, document.hostname, document.title, document.image,
           document.date, document.text, document.comments, document.license, document.pagetype)
    csv.writer(out, delimiter="\t", quoting=csv.QUOTE_MINIMAL).writerow([v or "null" for v in row])
    return out.getvalue()


def _meta_items(document: TrafilaturaDocument) -> list[tuple[str, str]]:
    return [(name, value if isinstance(value, str) else ";".join(value)) for name in _XML_FIELDS
            if (value := getattr(document, name))]


def _xml(document: TrafilaturaDocument) -> str:
    doc = etree.Element("doc")
    for name, value in _meta_items(document):
        doc.set(name, value)
    for source, tag in ((document.body, "main"), (document.commentsbody, "comments")):
        element = etree.SubElement(doc, tag) if source is None else _renamed(source, tag)
        doc.append(element)
    return etree.tostring(doc, encoding="unicode")


def _renamed(element: etree._Element, tag: str) -> etree._Element:
    copy = etree.fromstring(etree.tostring(element))
    copy.tag = tag
    return copy


def _html(document: TrafilaturaDocument, main: Result, request: _Request) -> str:
    html = etree.Element("html")
    if request.with_metadata:
        head = etree.SubElement(html, "head")
        for name, value in _meta_items(document):
            etree.SubElement(head, "meta", name=name, content=value)
    body = etree.fromstring(f"<html><body>{html_body(main, request.render)}</body></html>".encode(),
                            etree.HTMLParser(encoding="utf-8")).find("body")
    html.append(body if body is not None else etree.Element("body"))
    return etree.tostring(html, encoding="unicode", method="html", pretty_print=True).strip()
