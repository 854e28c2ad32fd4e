"""A page's metadata — title, authors, dates, site, description, URL, language, tags,
image, licence — read from the tree the page was parsed into, never parsed again.

Sources, in order of trust for each field: JSON-LD (``@graph`` included; the page's main
object is the first of an article type, then any other typed object), ``<meta>``
(OpenGraph ``og:``, ``article:``, Twitter cards, Dublin Core, plain names), microdata
(``itemprop``), ``<link rel=canonical|license>``, ``<html lang>``, and the page itself
(``<title>``, ``<h1>``, author links, a date in the URL).  Computed only when asked (the
``json``, ``xml`` and ``csv`` outputs, ``--with-metadata``, :func:`detourage.document`):
plain text extraction never pays for it.  Methods do not import this module.

Dates are ISO 8601 calendar dates (``YYYY-MM-DD``), as trafilatura and htmldate give
them.  When the page declares none, the URL (``/2011/11/01/``) and then the page itself
are read (:func:`_page_date`): a run saying ``Posted …``, the first ``<time>`` after the
title, the date nearest the title, in a dozen languages' month names, never a member's
``Joined`` date.  htmldate's extensive search is an opt-in last resort
(``metadata(page, htmldate=True)``): ``benchmarks/metadata.py`` finds the page reading
alone dates more of DANIEL's 2011 news pages and of the hand-labelled forums than
htmldate does; asked only where the page reading finds nothing, htmldate adds a little
(figures and the choice: ``docs/metadata.md``).
"""

from __future__ import annotations

import html as htmllib
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date as Date
from email.utils import parsedate
from typing import Any, cast
from urllib.parse import urljoin, urlsplit

from lxml import etree

from .errors import MissingExtra
from .model import Page, Result, Unit
from .parse import head_markup, parse
from .settings import DEFAULT_LIMITS


@dataclass(frozen=True, slots=True, kw_only=True)
class Metadata:
    """What a page says about itself; empty strings, ``None`` and ``()`` where it says nothing."""

    #: the document's title, without the site's name (``"… | Site"`` → ``"…"``)
    title: str = ""
    authors: tuple[str, ...] = ()
    #: date published, ``YYYY-MM-DD``
    date: str | None = None
    #: date last modified, ``YYYY-MM-DD``
    date_modified: str | None = None
    site_name: str = ""
    description: str = ""
    #: the canonical URL (``<link rel=canonical>``, ``og:url``), else the URL given
    url: str | None = None
    #: the URL's host, without ``www.``
    hostname: str = ""
    #: BCP 47 language tag as declared (``en``, ``pt-BR``)
    language: str = ""
    tags: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    #: the main image's URL
    image: str | None = None
    #: the licence's URL or name (``<link rel=license>``, JSON-LD ``license``)
    license: str | None = None
    #: the declared kind of page: ``og:type`` or the main JSON-LD ``@type`` (``article``…)
    page_type: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: tuples become lists."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


#: the field names, in output order (columns of the CSV output, attributes of the XML one)
FIELDS = tuple(Metadata.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class Document:
    """A page's main content and its metadata (:func:`detourage.document`)."""

    metadata: Metadata
    #: the main content as plain text (the ``txt`` format)
    text: str
    #: the page, labels and units, for :func:`detourage.render` in any other format
    result: Result

    @property
    def units(self) -> tuple[Unit, ...]:
        return self.result.units


def metadata(page: Page, *, page_dates: bool = True, htmldate: bool = False) -> Metadata:
    """The metadata of a loaded page (:func:`detourage.load`).

    ``page_dates``: look for the date published in the page's text when neither the page
    nor its URL declares one.  ``htmldate``: when the page still gives no date, ask
    htmldate's extensive search (``find_date(original_date=True)``); it parses the page
    again, so only those pages pay for it (on DANIEL's news pages it raises the share
    dated right from 73 % to 74.5 %, ``docs/metadata.md``).  Needs htmldate (the ``dates``
    extra; trafilatura, of the ``peers`` extra, brings it too): :class:`~detourage.errors.MissingExtra`
    without it.
    """
    tree = page.tree
    if tree is None:
        return Metadata(url=page.url, hostname=hostname(page.url))
    head = _lost_head(page, tree)
    found = _Sources.read(tree, head)
    base = page.url
    url = _first(_absolute(found.link("canonical"), base), _absolute(found.meta("og:url"), base),
                 _absolute(found.ld_str("url"), base), base)
    site = _site_name(found, url)
    modified = _date(lambda: [found.ld_str("dateModified"), *found.metas(*_MODIFIED)],
                     lambda: [found.micro("dateModified")])
    return Metadata(
        title=_title(found, site, url),
        authors=_all_authors(page, found, site, hostname(url)),
        # a page that declares only when it was modified was published then or before
        date=_published(page, found, url, page_dates=page_dates, htmldate=htmldate) or modified,
        date_modified=modified,
        site_name=site,
        description=_clean(_first(found.meta("og:description"), found.meta("description"),
                                  found.meta("twitter:description"), found.ld_str("description"),
                                  found.meta("dc.description"))),
        url=url or None,
        hostname=hostname(url),
        language=_language(found, tree if head is None else head),
        tags=_unique(_split_list(v) for v in _found(*found.metas(*_TAGS), found.ld("keywords"))
                     or [found.micro("keywords")]),
        categories=_unique(_split_list(v, ",") for v in _found(*found.metas(*_SECTIONS), found.ld("articleSection"))
                           or [found.micro("articleSection")]),
        image=_absolute(_first(found.meta("og:image"), found.meta("og:image:url"), found.meta("og:image:secure_url"),
                               found.meta("twitter:image"), found.meta("twitter:image:src"),
                               _ld_url(found.ld("image"))) or found.micro("image"), base or url) or None,
        license=_first(_absolute(found.link("license"), base or url), _ld_url(found.ld("license")),
                       found.meta("dcterms.license"), found.meta("dc.rights")) or None,
        page_type=_first(found.meta("og:type"), found.main_type).lower(),
    )


def _published(page: Page, found: _Sources, url: str | None, *, page_dates: bool, htmldate: bool) -> str | None:
    """The date published: the one declared, unless the URL or the page's date line
    corrects it (:func:`_corrected`); else the URL's; else the page's own; else htmldate's
    when asked."""
    declared = _date(lambda: [found.ld_str("datePublished"), *found.metas(*_PUBLISHED), *found.published_metas()],
                     lambda: [found.ld_str("dateCreated"), found.micro("datePublished", main=True),
                              found.micro("dateCreated", main=True), found.time_published()])
    in_url = _url_date(page.url) or _url_date(url)
    if declared is not None:
        return _corrected(declared, in_url, _dateline(page, found) if page_dates else ())
    return (in_url or (_page_date(page, found) if page_dates else None)
            or (_htmldate(page) if htmldate else None))


def _corrected(declared: str, in_url: str | None, dateline: tuple[tuple[str, ...], ...]) -> str:
    """The declared date, or what the page shows instead of it:

    - the URL's date when it is a day away (a UTC timestamp near midnight, ``T02:41Z``,
      falls on the next day; the URL was written in the site's own calendar);
    - the date line's date (:func:`_dateline`) when the line shows one date only, read one
      way only (not ``8/1/2025``), more than a day before the declared one: the declared
      date is a later publication of the page (a CMS declaring the day it last published
      it), the line the first.  Several dates by the title are a list (a table, related
      stories), not a date line.  A later date there is not taken: whether a page's
      ``Updated`` date is its date is a matter of taste, and golds differ on it.
    """
    if in_url is not None and _days(declared, in_url) == 1:
        return in_url
    shown = set(dateline)
    if len(shown) == 1 and len(only := shown.pop()) == 1 and _days(only[0], declared) < -1:
        return only[0]
    return declared


def _days(day: str, other: str) -> int:
    """``day`` − ``other`` in days (both ``YYYY-MM-DD``)."""
    return (Date.fromisoformat(day) - Date.fromisoformat(other)).days


#: the runs on either side of the title read as its date line, and their most characters
#: (``Published: 03 Dec 2025``, ``By Ana Lee | June 3, 2026``; a sentence of the story
#: that names a day is longer)
_DATELINE_RUNS = 10
_DATELINE_CHARS = 40


def _dateline(page: Page, found: _Sources) -> tuple[tuple[str, ...], ...]:
    """The dates of the short runs within :data:`_DATELINE_RUNS` of the title (the first
    ``<h1>``), each as its readings (two for ``8/1/2025``: day or month first); not the
    headline's own, nor a member's registration."""
    title = found.title_el
    if title is None:
        return ()
    blocks = page.blocks
    inside = set(title.iter())
    start = next((i for i, block in enumerate(blocks) if block.node in inside), None)
    if start is None:
        return ()
    days = []
    for i in range(max(0, start - _DATELINE_RUNS), min(len(blocks), start + _DATELINE_RUNS + 1)):
        text = blocks[i].text
        label = blocks[i - 1].text.lower() if i else ""  # ``Joined`` in a run of its own, then the date
        if (len(text) <= _DATELINE_CHARS and blocks[i].node not in inside and _DIGIT.search(text)
                and not _says_member(text.lower()) and not _says_member(label[:40]) and (day := _text_date(text))):
            other = _parse_date(text, month_first=True) if _DMY.search(text) else None
            days.append((day,) if other in (None, day) else (day, other))
    return tuple(days)


# ---------------------------------------------------------------------------- sources

_PUBLISHED = ("article:published_time", "og:published_time", "article:published", "datepublished",
              "publishdate", "publish-date", "pubdate", "published-date", "date", "dc.date",
              "dc.date.issued", "dcterms.date", "dcterms.issued", "dcterms.created", "dc.date.created",
              "citation_publication_date", "citation_date", "sailthru.date", "parsely-pub-date",
              "article.published", "originalpublicationdate", "og:article:published_time")
#: a ``<meta>`` name, less its punctuation, that says it dates the publication
_PUBLISHED_KEY = re.compile(r"(?:publish(?:ed)?|pub|publication)(?:date|time)|date(?:published|pub)"
                            r"|firstpublished|published$")
#: a vendor's plain date: a prefix, a dot or colon, ``date`` (not an update's, an expiry's)
_VENDOR_DATE = re.compile(r"(?!.*(?:modif|updat|expir|review|revis))[a-z]+[.:]date")
_MODIFIED = ("article:modified_time", "og:updated_time", "article:modified", "datemodified",
             "last-modified", "dcterms.modified", "dc.date.modified", "og:article:modified_time")
_TAGS = ("article:tag", "keywords", "news_keywords", "parsely-tags", "sailthru.tags", "og:article:tag")
_SECTIONS = ("article:section", "parsely-section", "og:article:section", "section")
_AUTHORS = ("author", "article:author", "dc.creator", "dcterms.creator", "citation_author",
            "parsely-author", "sailthru.author", "byl", "og:article:author", "twitter:creator")
#: JSON-LD types of a page's main object, best first
_ARTICLE_TYPES = ("article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
                  "opinionnewsarticle", "scholarlyarticle", "techarticle", "report", "review",
                  "socialmediaposting", "discussionforumposting", "liveblogposting", "recipe", "howto",
                  "qapage", "product", "event", "videoobject", "podcastepisode", "creativework")
_PAGE_TYPES = ("webpage", "itempage", "aboutpage", "collectionpage", "faqpage", "profilepage",
               "searchresultspage", "contactpage")
#: the elements read in the one pass over the tree (libxml2 filters the tags); microdata
#: (any element with ``itemprop``) is looked up only when these leave a field empty
_TAGS_READ = ("meta", "link", "script", "a", "time", "title", "h1")
_ITEMPROPS = etree.XPath("//@itemprop")


@dataclass(slots=True)
class _Sources:
    """What the page declares, gathered in one pass over the elements that can say it."""

    metas_: dict[str, list[str]] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    objects: list[dict[str, Any]] = field(default_factory=list)
    main: dict[str, Any] = field(default_factory=dict)
    main_type: str = ""
    tree: etree._Element | None = None
    micros_: dict[str, list[etree._Element]] | None = None
    times: list[etree._Element] = field(default_factory=list)
    #: the first ``<h1>`` with text (a logo's is no title), and how many of ``times`` come before it
    title_el: etree._Element | None = None
    times_before_h1: int | None = None
    titles: list[str] = field(default_factory=list)
    h1s: list[str] = field(default_factory=list)
    rel_authors: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, tree: etree._Element, head: etree._Element | None = None) -> _Sources:
        """What ``tree`` declares; ``head``: a head parsed apart (:func:`_lost_head`), read first."""
        found = cls(tree=tree)
        for el in _elements_read(tree, head):
            tag = el.tag
            if tag == "meta":
                found._meta(el)
            elif tag == "a":
                if el.get("rel") is not None or "/author/" in el.get("href", ""):
                    found._link(el)
            elif tag == "link":
                found._link(el)
            elif tag == "script":
                if el.get("type", "").strip().lower() == "application/ld+json" and el.text:
                    found.objects.extend(_ld_objects(el.text))
            elif tag == "time":
                found.times.append(el)
            elif tag == "title":
                if not found.titles:
                    found.titles.append(_text(el))
            elif tag == "h1" and len(found.h1s) < 5:
                found.h1s.append(_text(el))
                if found.title_el is None and found.h1s[-1]:
                    found.title_el, found.times_before_h1 = el, len(found.times)
        found.main, found.main_type = _main_object(found.objects)
        return found

    def _meta(self, el: etree._Element) -> None:
        content = el.get("content")
        if content is None or not content.strip():
            return
        for attr in ("property", "name", "http-equiv"):
            key = el.get(attr)
            if key:
                self.metas_.setdefault(key.strip().lower(), []).append(content.strip())
        if (el.get("name") or "").strip().lower() == "script:ld+json":  # Next.js's metadata writes JSON-LD so
            self.objects.extend(_ld_objects(content))

    def _link(self, el: etree._Element) -> None:
        rels = (el.get("rel") or "").lower().split()
        href = (el.get("href") or "").strip()
        if el.tag == "a" and "author" not in rels and "/author/" in href:
            self.rel_authors.append(_text(el))
        for rel in rels:
            if rel == "author" and el.tag == "a":
                self.rel_authors.append(_text(el))
            elif href and rel in ("canonical", "license") and rel not in self.links:
                self.links[rel] = href

    def meta(self, key: str) -> str:
        values = self.metas_.get(key)
        return values[0] if values else ""

    def metas(self, *keys: str) -> Iterator[str]:
        for key in keys:
            yield from self.metas_.get(key, ())

    def published_metas(self) -> Iterator[str]:
        """The values of the ``<meta>`` not in :data:`_PUBLISHED` whose name says it dates the
        publication (``w-published-date``, ``published``, ``cxenseparse:publishtime``), or
        is a vendor's plain date (``ms.date``, ``cludo:date``, as ``dc.date``)."""
        for key, values in self.metas_.items():
            if key in _PUBLISHED:
                continue
            if ("pub" in key and _PUBLISHED_KEY.search(re.sub(r"[^a-z]", "", key))) or _VENDOR_DATE.fullmatch(key):
                yield from values

    def link(self, rel: str) -> str:
        return self.links.get(rel, "")

    def ld(self, key: str) -> Any:
        """``key`` of the main JSON-LD object, else of the first object that has it."""
        if key in self.main:
            return self.main[key]
        for obj in self.objects:
            if key in obj:
                return obj[key]
        return None

    def ld_str(self, key: str) -> str:
        value = self.ld(key)
        if isinstance(value, list) and value:
            value = value[0]
        return value.strip() if isinstance(value, str) else ""

    @property
    def micros(self) -> dict[str, list[etree._Element]]:
        """Microdata: ``itemprop`` → the elements carrying it (read on first use)."""
        if self.micros_ is None:
            self.micros_ = {}
            if self.tree is not None:
                # @itemprop: attribute values, each a smart string whose parent is its element
                for attr in cast("list[Any]", _ITEMPROPS(self.tree)):
                    for prop in str(attr).split():
                        self.micros_.setdefault(prop, []).append(attr.getparent())
        return self.micros_

    def micro(self, prop: str, main: bool = False) -> str:
        """The first value of ``prop``; with ``main``, not one of a reply's (an item typed
        ``Comment`` or ``Answer``: a thread's replies, a question's answers)."""
        for el in self.micros.get(prop, ()):
            if main and _is_reply(_item(el)):
                continue
            value = (el.get("content") or el.get("datetime") or el.get("src") or el.get("href")
                     or _text(el))
            if value:
                return value
        return ""

    def first_time(self, after_title: bool = True) -> tuple[etree._Element, str] | None:
        """The first ``<time datetime>`` after the title (the first ``<h1>`` with text) and
        its date: a thread's first post, an article's date line; not one dating a member's
        registration.  None on a page without a title: its first ``<time>`` is as likely a
        header's clock.  ``after_title=False``: the first of all, title or not."""
        start = 0 if not after_title else self.times_before_h1
        if start is None:
            return None
        for el in self.times[start:start + _TIMES_READ]:
            day = _parse_date(el.get("datetime", "").strip()[:_DATE_CHARS])
            if day and not _membership(el):
                return el, day
        return None

    def time_above_title(self) -> tuple[etree._Element, str] | None:
        """The last ``<time datetime>`` before the title, and its date (:func:`_page_date`
        takes it when it stands just above the title: a date line over the headline)."""
        if not self.times_before_h1:
            return None
        el = self.times[self.times_before_h1 - 1]
        day = _parse_date(el.get("datetime", "").strip()[:_DATE_CHARS])
        return (el, day) if day and not _membership(el) else None

    def time_published(self) -> str:
        """A ``<time datetime>`` marked as the publication (``pubdate``, or a class saying so)."""
        for el in self.times:
            marks = (el.get("class") or "") + " " + " ".join(el.keys())  # type: ignore[arg-type]  # lxml-stubs: an HTML tree's names and texts are str
            if "pubdate" in marks or "publish" in marks or "posted" in marks:
                return el.get("datetime", "")
        return ""


def _elements_read(tree: etree._Element, head: etree._Element | None) -> Iterator[etree._Element]:
    if head is not None:
        yield from head.iter(*_TAGS_READ)
    yield from tree.iter(*_TAGS_READ)


def _lost_head(page: Page, tree: etree._Element) -> etree._Element | None:
    """The head of a page loaded again from its ``<body`` tag (:func:`detourage.parse.repaired`:
    its first parse gave no text, as on Discourse's threads, whose head holds elements
    libxml2 does not know), parsed on its own: the tree read has no ``<head>``, and the
    page's ``<meta>``, JSON-LD, links, title and language were there.  The blocks stay
    those of the tree read."""
    if tree.find("head") is not None:
        return None
    markup = head_markup(page.html)
    if "<" not in markup:
        return None
    return parse(markup, page.limits or DEFAULT_LIMITS)


def _ld_objects(text: str) -> list[dict[str, Any]]:
    """The typed objects of a JSON-LD script, ``@graph`` and lists flattened."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        try:  # a trailing comma or a stray control character is a common fault
            data = json.loads(re.sub(r",\s*([}\]])", r"\1", text), strict=False)
        except (ValueError, RecursionError):
            return []
    out: list[dict[str, Any]] = []
    stack = [data]  # next node last: popping from the front would copy the stack each time
    while stack and len(out) < 100:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(reversed(node[:100]))
        elif isinstance(node, dict):
            if "@graph" in node:
                stack.append(node["@graph"])
            if isinstance(node.get("mainEntity"), (dict, list)):  # WebPage → its thread, question, article
                stack.append(node["mainEntity"])
            if "@type" in node:
                out.append(node)
    return out


def _types(obj: dict[str, Any]) -> list[str]:
    kind = obj.get("@type")
    return [t.lower() for t in (kind if isinstance(kind, list) else [kind]) if isinstance(t, str)]


def _main_object(objects: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """The object the page is about: an article type first, then a page type."""
    for wanted in (_ARTICLE_TYPES, _PAGE_TYPES):
        for obj in objects:
            for kind in _types(obj):
                if kind in wanted:
                    return obj, str(obj.get("@type") if isinstance(obj.get("@type"), str) else kind)
    return {}, ""


# ---------------------------------------------------------------------------- fields

#: what separates a title from the site's name: `` | ``, `` - ``, `` – ``, `` — ``, `` :: ``,
#: `` · ``, `` • ``, `` » ``, `` / ``, and reddit's `` : ``
_SEPARATOR = re.compile(r"\s+(?:[|\-–—·•»/]|::|:)\s+|\s*\|\s*")


def _title(found: _Sources, site: str, url: str | None) -> str:
    """The document's title without the site's name.

    An ``<h1>`` wins when a declared title (``og:title``, JSON-LD ``headline``, Twitter,
    ``<title>``) starts with it or it starts with one of them: it is the title as the reader
    sees it, without the suffix.  So does the page's only ``<h1>`` when it has three words
    or more and does not name the site (a headline the declared titles reword; on the first
    600 pages of wcxb-dev this rule gains 7 exact titles and loses none).  Otherwise the
    first declared title, less the parts naming the site.
    """
    declared = [_clean(t)[:_TITLE_CHARS] for t in (found.meta("og:title"), found.ld_str("headline"),
                                                   found.meta("twitter:title"), *found.titles,
                                                   found.meta("dc.title"), found.micro("headline"))]
    declared = [t for t in declared if t]
    keys = [_key(t) for t in declared]
    heads = [_clean(h)[:_TITLE_CHARS] for h in found.h1s]
    for head in heads:
        key = _key(head)
        if key and any(k.startswith(key) or (len(k) > 10 and key.startswith(k)) for k in keys):
            return head
    heads = [h for h in heads if h]
    host = hostname(url)
    if len(heads) == 1 and len(heads[0].split()) >= 3 and not _names_site(heads[0], site, host):
        return heads[0]
    if not declared:
        return heads[0] if heads else ""
    return _strip_site(declared[0], site, host)


#: the characters of a title kept: real ones are far shorter, and each part of a title
#: is compared with the site's name (a 200 KB title of parts took a second)
_TITLE_CHARS = 1000


def _strip_site(title: str, site: str, host: str) -> str:
    """``title`` less the leading or trailing parts that name the site (its name, its host's
    words); failing that, a last part of at most three words after a longer first one."""
    parts = _SEPARATOR.split(title)
    if len(parts) < 2:
        return title
    while len(parts) > 1 and _names_site(parts[-1], site, host):
        parts.pop()
    first = 0  # parts dropped from the front are skipped, not popped (each pop(0) copies)
    while first < len(parts) - 1 and (_names_site(parts[first], site, host) or _text_date(parts[first])):
        first += 1
    parts = parts[first:]
    if len(parts) == 2 and len(parts[-1].split()) <= 3 < len(parts[0].split()):
        parts.pop()
    return _rejoin(title, parts)


_HOST_WORDS = {"www", "com", "org", "net", "edu", "gov", "co", "uk", "html", "blog", "news"}


def _names_site(text: str, site: str, host: str) -> bool:
    """Whether ``text`` is the site's name or a word of its host (``Pluralsight``,
    ``virtualbox.org``), spaces and case aside."""
    key = _key(text).replace(" ", "")
    if not key:
        return False
    names = {_key(site).replace(" ", "")} if site else set()
    names |= {w for w in re.split(r"[.\-]", host.lower()) if len(w) > 2 and w not in _HOST_WORDS}
    return any(n == key or (len(n) > 3 and n in key) or (len(key) > 3 and key in n) for n in names)


def _rejoin(title: str, parts: list[str]) -> str:
    """The span of ``title`` from the first to the last of ``parts`` (separators kept)."""
    start = title.find(parts[0])
    end = title.rfind(parts[-1]) + len(parts[-1])
    return title[start:end].strip() if 0 <= start < end else parts[0]


def _site_name(found: _Sources, url: str | None) -> str:
    publisher = found.ld("publisher")
    name = ""
    if isinstance(publisher, list) and publisher:
        publisher = publisher[0]
    if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
        name = publisher["name"]
    website = next((o.get("name") for o in found.objects if "website" in _types(o)
                    and isinstance(o.get("name"), str)), "")
    handle = found.meta("twitter:site").lstrip("@")
    return _clean(_first(found.meta("og:site_name"), website, name, found.meta("application-name"),
                         found.meta("apple-mobile-web-app-title"), handle if " " in handle else ""))


def _all_authors(page: Page, found: _Sources, site: str, host: str) -> tuple[str, ...]:
    """The authors: those the page declares, else a visible byline, else the declared
    names that name the site (``Martin Fowler`` on martinfowler.com, ``Swoogo`` on
    swoogo.events: on a personal or a company's site the byline is the site's owner, and
    a publication named as author beside people, ``A and B, The Commercial Appeal``, is
    dropped from them).  A host name (``Rizospastis.gr``) is never an author."""
    declared = _authors(found)
    people = tuple(a for a in declared if not _names_site(a, site, host))
    return people or _page_authors(page, found.title_el) or tuple(a for a in declared if not _HOST_NAME.fullmatch(a))


#: a host name given as an author (``Rizospastis.gr``, ``paperium.net``): the site, no one
_HOST_NAME = re.compile(r"[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}")


def _authors(found: _Sources) -> tuple[str, ...]:
    names = _ld_names(found.ld("author")) or _ld_names(found.ld("creator"))
    if not names:
        names = [n for v in found.metas(*_AUTHORS) if not _is_url(v) and not v.startswith("@")
                 for n in _split_names(v)]
    if not names:
        names = _item_authors(found.micros.get("author", []))
    if not names:
        # the first author link only: the others are often a sidebar's or a thread's
        names = [n for t in found.rel_authors[:1] if len(t.split()) <= 6 for n in _split_names(t)]
    # a name without a letter is an account's number (``article:author`` of 262588213843476)
    return _unique([_clean(_BY.sub("", n)) for n in _less_credentials(names)
                    if 1 < len(n.strip()) <= 100 and any(c.isalpha() for c in n)])


#: what opens a byline: ``By``, ``Written by``, ``Posted by``, ``Article by``, ``This post
#: was written by``, ``Author:``, ``Author(s)``, ``Contributors:``, and their French,
#: German, Spanish, Portuguese, Dutch, Italian, Swedish forms
_BY_WORDS = (r"(?:(?:written|posted|words|story|text|reported|photos?|article)\s+by"
             r"|(?:this\s+)?(?:post|article)\s+(?:was\s+)?written\s+by|by|author\(s\)|authors?|contributors?"
             r"|autor|auteur|autore|par|von|por|door|di|av|escrito\s+por|écrit\s+par|geschrieben\s+von)")
#: a byline: the opening words, then a name (up to five capitalised words, ``van der``
#: and such particles allowed), maybe more after ``and`` or a comma; it must end the run or
#: stop at a separator (``| June 3, 2026``, ``•``, ``on …``, a digit)
_NAME = r"(?:[Tt]he\s+)?[A-Z][\w.'’-]*(?:\s+(?:[A-Z][\w.'’-]*|(?:de|da|van|von|der|di|le|la|du|dos|del)\b)){0,4}"
_BYLINE = re.compile(rf"(?i:{_BY_WORDS})\s*:?\s+({_NAME}(?:\s*(?:,|and|und|et|y|&)\s+{_NAME})*)"
                     r"(?=\s*(?:$|[|•·–—,(]|on\s|\d))")
#: a run that is only the opening words (``By``, ``Written by:``): the name is the next run
_BY_ALONE = re.compile(rf"(?i:{_BY_WORDS})\s*:?")
_BY_START = re.compile(rf"(?i:{_BY_WORDS})\b")
#: letters after a name that are a credential, not a second name (``Ana Ferreira, MD``)
_CREDENTIAL = re.compile(r"(?:[A-Z]{2,6}|Ph\.?D\.?|M\.?D\.?|Dr\.?|Jr\.?|Sr\.?)")
#: the short runs after the title read for a byline, and before it (a byline may stand just
#: above the headline; menus that sort ``By Category`` come well before it)
_BYLINE_RUNS = 400
_BYLINE_BEFORE = 3


def _page_authors(page: Page, title: etree._Element | None = None) -> tuple[str, ...]:
    """The names of a visible byline (``By Ana Ferreira | 14 June 2026``, ``Written by``
    then the linked name in a run of its own), when no source names an author.

    Read from just before the title's run on (bylines stand by it, or close the article;
    menus that sort ``By Category`` come well before it); the names must be capitalised
    words that do not open with an article, a pronoun, a month or a menu word, so a
    sentence (``By the way, …``) is no byline.  Failing a byline, the name that the
    page's markup marks as its author's near the title (:func:`_marked_author`).
    """
    blocks = page.blocks
    start = _title_run(blocks, title)
    for i in range(max(0, start - _BYLINE_BEFORE), min(len(blocks), start + _BYLINE_RUNS)):
        text = blocks[i].text
        if len(text) > 80 or not _BY_START.match(text):
            continue
        if _BY_ALONE.fullmatch(text) and (after := _next_words(blocks, i + 1)):
            text = "By " + after[:80]
        if (m := _BYLINE.match(text)) and (names := _byline_names(m[1])):
            return names
    return _marked_author(blocks, start)


def _next_words(blocks: Any, start: int) -> str:
    """The text of the first run from ``start`` that has a letter (a ``By`` is followed by
    an avatar's empty run or a ``:`` before the name), among the next three."""
    for block in blocks[start:start + 3]:
        if any(c.isalpha() for c in block.text):
            return block.text
    return ""


#: class or id words of an element holding an author's name (``author-name``,
#: ``byline``, a forum's ``username``), and those of one that is beside the name, not it
#: (``author-bio``, ``author-title``, ``author-avatar``) or in the comments
_AUTHOR_HINT = re.compile(r"author|byline|user-?name|contributor", re.I)
_NOT_NAME_HINT = re.compile(r"avatar|image|img|photo|bio|desc|title|role|job|about|date|time|count", re.I)
_REPLY_HINT = re.compile(r"comment|reply|respon", re.I)
#: the runs before and after the title's read for a name marked as the author's
_MARKED_BEFORE = 5
_MARKED_AFTER = 40
#: a forum member's handle: one token of letters, digits, ``.``, ``_``, ``-``
_HANDLE = re.compile(r"[\w.-]{2,30}")
_MARKED_NAME = re.compile(rf"(?i:by\s+)?({_NAME}|[\w.-]{{2,30}})(?:\s+(?:in|on)|\s*[|•·,(-].*)?")


def _marked_author(blocks: Any, start: int) -> tuple[str, ...]:
    """The name in a short run near the title (``start``) whose element, or one of its two
    parents, has a class or id saying author, byline or username (the byline of a blog
    theme without a ``By``; a thread's first poster), not one beside the name (its bio,
    job title, avatar) nor one in the comments."""
    for block in blocks[max(0, start - _MARKED_BEFORE):start + _MARKED_AFTER]:
        text = block.text
        if len(text) > 60 or block.image is not None or (m := _MARKED_NAME.fullmatch(text)) is None:
            continue
        if any(c.isalpha() for c in m[1]) and _author_marked(block.node):
            names = _byline_names(m[1])
            if names and names[0].lower() not in _NOT_NAMES:
                return names
    return ()


def _author_marked(el: etree._Element | None) -> bool:
    if el is None or _NOT_NAME_HINT.search(_names(el)):
        return False
    marked = False
    for _ in range(3):
        if el is None:
            break
        names = _names(el)
        if _REPLY_HINT.search(names):
            return False
        marked = marked or _AUTHOR_HINT.search(names) is not None
        el = el.getparent()
    return marked


#: last words of a team's name, which may open with ``The`` (``By the Lavazza Team``)
_TEAM_WORDS = {"team", "staff", "editors", "desk", "newsroom", "editorial"}


def _byline_names(value: str) -> tuple[str, ...]:
    """The names of a byline's text, up to the first that is no name (a month, a weekday,
    a menu word: ``Ziyi Xu, Dec 3``); none when the first is no name."""
    names = []
    for name in _less_credentials(_split_names(value)):
        words = name.split()
        if len(name) <= 1:
            continue
        first = words[0].lower()
        if ((first in _NOT_NAMES and words[-1].lower() not in _TEAM_WORDS)
                or (len(words) == 1 and first.rstrip(".") in _DATE_ABBREVIATIONS)):
            break
        names.append(_sentence_end_off(name))
    return _unique([n.title() if n.isupper() and len(n) > 6 else n for n in map(_clean, names)])


def _sentence_end_off(name: str) -> str:
    """``Posted by Ann.``: the sentence's full stop is no part of the name; an initial's
    (``John Q.``) or an abbreviation's (``Jr.``) is."""
    last = name.split()[-1]
    if last.endswith(".") and len(last) > 3 and last[:-1].isalpha() and last.lower() not in _NAME_ABBREVIATIONS:
        return name[:-1]
    return name


_NAME_ABBREVIATIONS = {"jr.", "sr.", "esq.", "dr.", "phd.", "inc.", "ltd."}


#: first words of what follows ``By`` in a sentence or a menu, not a name
_NOT_NAMES = {"the", "a", "an", "this", "that", "these", "those", "clicking", "continuing", "using", "signing",
              "default", "category", "categories", "state", "style", "industry", "role", "size", "type", "topic",
              "date", "name", "price", "brand", "manufacturer", "location", "region", "company", "service", "our",
              "my", "your", "his", "her", "their", "its", "way", "now", "then", "far", "all", "means", "email",
              "phone", "appointment", "subject", "product", "products", "popular", "newest", "oldest", "relevance",
              "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
              "november", "december", "today", "yesterday", "monday", "tuesday", "wednesday", "thursday", "friday",
              "saturday", "sunday", "by", "written", "posted", "author", "autor", "auteur", "words", "story",
              "reported", "photo", "photos", "authors", "contributors", "username", "user", "login", "log", "sign",
              "password", "guest", "article", "post", "via", "learn", "read", "more", "view", "see", "follow",
              "contact", "share"}
#: a month's or a weekday's abbreviation, no name when it stands alone after a name (``By
#: Ziyi Xu, Dec 3, 2025``); a first name may be one (``Jan van der Berg``)
_DATE_ABBREVIATIONS = {"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon",
                       "tue", "wed", "thu", "fri", "sat", "sun"}


def _less_credentials(names: list[str]) -> list[str]:
    """``names`` less the credentials that a comma put after a name (``Ana Lee, MD, PhD``):
    the first is kept, whatever it looks like (``JGD`` is a forum member)."""
    return names[:1] + [n for n in names[1:] if not _CREDENTIAL.fullmatch(n.strip())]


def _title_run(blocks: Any, title: etree._Element | None) -> int:
    """The index of the first run inside ``title`` (the first ``<h1>`` with text; 0 when
    there is none or no run is in it)."""
    if title is None:
        return 0
    inside = set(title.iter())
    return next((i for i, block in enumerate(blocks) if block.node in inside), 0)


def _item_authors(elements: list[etree._Element]) -> list[str]:
    """The names of ``elements`` (``itemprop=author``) that describe the same item as the
    first that names someone: on a thread, the first post's author, not every reply's
    (each reply is an item of its own)."""
    named = [(el, name) for el in elements[:50] if (name := _text(el, "name"))]
    if not named:
        return []
    owner = _item(named[0][0])
    return [name for el, name in named if _item(el) is owner][:5]


def _is_reply(item: etree._Element | None) -> bool:
    kind = (item.get("itemtype") or "").rsplit("/", 1)[-1].lower() if item is not None else ""
    return kind in ("comment", "answer")


def _item(el: etree._Element) -> etree._Element | None:
    """The item an ``itemprop`` element describes: its nearest ancestor with ``itemscope``."""
    for parent in el.iterancestors():
        if parent.get("itemscope") is not None:
            return parent
    return None


def _ld_names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [] if _is_url(value) else _split_names(value)
    if isinstance(value, dict):
        name = value.get("name")
        if isinstance(name, list):
            return [n for n in name if isinstance(n, str)]
        # one object may name several people and their paper (``A and B, The Commercial Appeal``)
        return _split_names(_clean(name)) if isinstance(name, str) else []
    if isinstance(value, list):
        return [n for v in value[:20] for n in _ld_names(v)]
    return []


_BY = re.compile(r"^\s*(?:by|von|par|por|di|door|av|od|przez|от)\s*[:\-]?\s+", re.I)
#: what separates names; the spaces around are stripped from the names, not matched (a
#: leading ``\s*`` reads a long run of spaces again from each of its spaces: quadratic)
_NAME_SEPARATOR = re.compile(r";|,|&|\band\b|\bund\b|\bet\b|\by\b")


def _split_names(value: str) -> list[str]:
    return [n.strip() for n in _NAME_SEPARATOR.split(value) if n.strip()]


_ISO = re.compile(r"(\d{4})-?(\d{1,2})-?(\d{1,2})(?![\d])")
_DMY = re.compile(r"\b(\d{1,2})([./-])(\d{1,2})\2(\d{4})\b")
#: a date in a URL's path, after a ``/``, ``_`` or ``-``: ``/2011/11/01/``, ``-2011-11-01``,
#: ``/2011/1215/``, ``/20111101``, ``_20111104533720.php`` (an id glued on), and day first,
#: ``/28/11/2011/``, ``/05.01.2012/``; with separators, no digit may follow the day, so
#: that an id after a year and month (``/2011/11/140286``) is no date
_URL_DATE = re.compile(r"[/_-]((?:19|20)\d{2})(?:[/_-]([01]\d)[/_-]?([0-3]\d)(?!\d)|([01]\d)([0-3]\d)\d{0,6}(?!\d))"
                       r"|[/_-]([0-3]\d)([/.-])([01]\d)\7((?:19|20)\d{2})(?!\d)")
#: month names by month, folded (lower case, accents dropped: :func:`_fold`), as the
#: shortest prefix that tells the month in each language: English, French, German, Spanish,
#: Polish, Czech, Russian, Greek (the languages of the shared stop lists), Italian,
#: Portuguese, Dutch and Ukrainian.  A word is a month when one of its prefixes is listed
#: (the longest wins), so each stem covers the nominative, the genitive and the
#: abbreviation: ``listopad``, ``listopada``, ``lis.``; ``ноябрь``, ``ноября``, ``нояб.``;
#: ``Νοέμβριος``, ``Νοεμβρίου``, ``Νοε.``.  Czech June and July share their first five
#: letters and are listed whole; stems that are English words (``set``, ``out``, ``gen``)
#: are longer than they need be.
_MONTH_STEMS = (
    "jan ene genn led sty янв січ ιαν",
    "feb fev unor lut фев лют φεβ",
    "mar maa brez мар бер μαρ",
    "apr avr abr dub kwi апр кві απρ",
    "may mai mei magg maj kvet май мая тра μαι μαη",
    "jun juin giug cerven cervna cze июн чер ιουν",
    "jul juil lugl cervenec cervence lip июл лип ιουλ",
    "aug aou ago srp sie авг сер αυγ",
    "sep sete sett seti zari wrz сен вер σεπ",
    "oct okt ottob outu rijen rijna paz окт жов οκτ",
    "nov lis ноя лис νοε",
    "dec dez dic pros gru дек гру δεκ",
)
_MONTHS = {stem: month for month, stems in enumerate(_MONTH_STEMS, 1) for stem in stems.split()}
_LONGEST_STEM = max(map(len, _MONTHS))
#: a month's name between the day and the year, or before the day: ``1 November 2011``,
#: ``3. März 2011``, ``4 января 2012 г.``, ``05 Ιαν. 2012``, ``3 de noviembre de 2011``,
#: ``Nov. 1, 2011``; any word of letters there, :func:`_month` decides (every repetition is
#: bounded: the search is linear in the text)
_WORDY = re.compile(r"(?:\b(\d{1,2})(?:st|nd|rd|th|\.)?\s+(?:de\s+)?([^\W\d_]{3,12})\.?,?\s+(?:de\s+)?(\d{4})"
                    r"|(?<![^\W\d_])([^\W\d_]{3,12})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}))\b")
#: a day, a month and a two-digit year, read only with the time after it: ``04/11/11-11:21``,
#: ``06.01.12 08:49`` (without one, ``1.2.11`` is as likely a version)
_DMY_SHORT = re.compile(r"\b(\d{1,2})([./-])(\d{1,2})\2(\d{2})[\s,-]{1,3}\d{1,2}:\d{2}\b")


def _fold(word: str) -> str:
    """Lower case without accents: ``Νοεμβρίου`` → ``νοεμβριου``, ``Février`` → ``fevrier``."""
    return "".join(c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c))


def _month(word: str) -> int | None:
    """The month a word names (:data:`_MONTH_STEMS`), or None."""
    word = _fold(word)
    for end in range(min(len(word), _LONGEST_STEM), 2, -1):
        if (month := _MONTHS.get(word[:end])) is not None:
            return month
    return None


def _date(*sources: Callable[[], list[str]]) -> str | None:
    """The first value that reads as a plausible date, as ``YYYY-MM-DD``; ``sources`` give
    the values in order of trust, the later ones asked only when the earlier fail."""
    for source in sources:
        for value in source():
            if value and (day := _parse_date(value.strip()[:_DATE_CHARS])):
                return day
    return None


#: the characters of a date value read (the longest date forms, with a weekday, a time
#: and a zone, are about 50): every pattern then reads a bounded text, whatever a page
#: puts in a ``<meta>``
_DATE_CHARS = 200


def _parse_date(value: str, month_first: bool = False) -> str | None:
    """``value`` as ``YYYY-MM-DD``: an ISO date at its start, else a numeric, e-mail style
    or worded date in it; a numeric date is read day first, as most of the world writes it
    (``03-01-2012`` on Polish news), unless ``month_first``; either way the other order
    when the first cannot be a date (vBulletin's ``11-29-2024``)."""
    candidates: list[tuple[int, int, int]] = []
    if m := _ISO.match(value):
        candidates.append((int(m[1]), int(m[2]), int(m[3])))
    elif m := _DMY.search(value):
        candidates += _day_month(int(m[1]), int(m[3]), int(m[4]), month_first)
    elif (t := parsedate(value)) is not None:
        candidates.append(t[:3])
    elif m := _DMY_SHORT.search(value):
        candidates += _day_month(int(m[1]), int(m[3]), 2000 + int(m[4]), month_first)
    else:
        candidates += _wordy(value)
    for year, month, day in candidates:
        if 1990 <= year <= 2100:
            try:
                return Date(year, month, day).isoformat()
            except ValueError:
                continue
    return None


def _day_month(first: int, second: int, year: int, month_first: bool) -> list[tuple[int, int, int]]:
    readings = [(year, second, first), (year, first, second)]
    return readings[::-1] if month_first else readings


def _wordy(value: str) -> list[tuple[int, int, int]]:
    """The first date written with a month's name in ``value``, as (year, month, day)."""
    start = 0
    while m := _WORDY.search(value, start):
        day, word, year = (m[1], m[2], m[3]) if m[1] else (m[5], m[4], m[6])
        if month := _month(word):
            return [(int(year), month, int(day))]
        start = m.start() + 1  # the next match may overlap this one (``Rok 12 listopada 2011``)
    return []


#: a year, month and day, maybe with a time glued on (``2022-11-23T08:10+02:00``)
_ISO_IN_TEXT = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:\b|(?=T\d))")
_CJK_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")


def _text_date(text: str) -> str | None:
    """A date written in running text: ``2011-11-01``, ``2011-11-01T08:10``, ``01.11.2011``, ``2011年11月1日``,
    ``1 November 2011``, ``24 listopada 2011``, ``Nov. 1, 2011``, ``06.01.12 08:49``."""
    for pattern in (_ISO_IN_TEXT, _CJK_DATE):
        if m := pattern.search(text):
            try:
                day = Date(int(m[1]), int(m[2]), int(m[3]))
            except ValueError:
                continue
            return day.isoformat() if 1990 <= day.year <= 2100 else None
    if _DMY.search(text) or _DMY_SHORT.search(text) or _WORDY.search(text):
        return _parse_date(text, month_first=_MERIDIEM.search(text) is not None)
    return None


#: a 12-hour clock's ``AM``/``PM`` after a digit: the run is written the American way,
#: month first (``9:42 AM on 10/07/2012`` is 7 October)
_MERIDIEM = re.compile(r"\d\s?[AaPp]\.?[Mm]\b")


#: class or id words of an element that holds a date
_DATE_HINT = re.compile(r"date|time|publi|posted|byline|meta|info|datum|fecha", re.I)
#: words of a text run that dates the content it stands by: ``Posted …``, ``Started by …``,
#: ``by Ana Lee, June 4, 2024``, ``submitted on …``, and phpBB's ``» Tue Aug 27, 2019`` after
#: the poster's name; in the languages of the shared stop lists, ``Opublikowano``, ``Data
#: publikacji``, ``Publikováno``, ``Время публикации``, ``Δημοσίευση`` (lower-cased, so Greek
#: capitals lose their accents: both spellings), ``发布时间``
_POSTED_START = ("by ", "von ", "par ", "por ", "»", "›")
_POSTED_WORDS = ("posted", "started", "submitted", "published", "asked", "publié", "veröffentlicht", "publicado",
                 "pubblicato", "gepostet", "opublikowano", "geplaatst", "publikacj", "dodano", "publikováno",
                 "zveřejněno", "vloženo", "опубликов", "публикац", "опублік", "публікац", "δημοσίευ", "δημοσιευ",
                 "发布", "发表")
#: words that make a date a member's registration, not the content's (``Joined Nov 4, 2011``)
_MEMBER_WORDS = ("joined", "member since", "join date", "registered", "registriert", "mitglied seit", "dabei seit",
                 "beigetreten", "inscrit", "inscription", "membre depuis", "miembro desde", "registrado", "iscritto",
                 "lid sinds", "dołączył", "zarejestrowany", "зарегистрирован", "регистрация", "на форуме с")


#: the words above, in lower-case text (a case-insensitive expression runs 15 times slower)
_MEMBER = re.compile("|".join(map(re.escape, _MEMBER_WORDS)))
_POSTED = re.compile("|".join(map(re.escape, _POSTED_WORDS)))
#: words that make a date an update's, not the publication's (``Updated Dec 4, 2025``,
#: ``Last modified``, ``Aktualisiert am``, ``Mis à jour le``, ``Обновлено``)
_UPDATED = re.compile("|".join(map(re.escape, (
    "updated", "modified", "aktualisiert", "mis à jour", "actualizado", "aggiornato", "zaktualizowano",
    "aktualizováno", "bijgewerkt", "обновлено", "оновлено", "ενημερώθηκε", "ενημερωθηκε", "更新"))))


def _says_member(low: str) -> bool:
    return _MEMBER.search(low) is not None


def _says_updated(low: str) -> bool:
    return _UPDATED.search(low) is not None


def _says_posted(low: str) -> bool:
    return low.startswith(_POSTED_START) or _POSTED.search(low) is not None


_DIGIT = re.compile(r"\d")
#: the ``<time>`` elements after the title read for a date, and the short runs read for one
_TIMES_READ = 20
#: the short runs with a digit read for a ``Posted …`` run once another date is found: a
#: long thread has thousands, and the first post's line is among the first
_DATE_RUNS = 100
#: the runs between a ``<time>`` and the title below it that make it the title's date line
#: (``10/12/2023 · 3 minute read``, then the headline)
_ABOVE_TITLE = 3
_RUN_CHARS = 120


def _page_date(page: Page, found: _Sources | None = None) -> str | None:
    """The date published, read in the page itself, best evidence first: whichever comes
    first of a short text run that says it dates a post (``Posted …``, ``Started by …,
    June 4, 2024``, ``Δημοσίευση: …``, or such a label in the run before) and the first
    ``<time datetime>`` after the title; else a run whose element (or one of its two
    parents) is a ``<time>``, an ``<abbr>`` or has a class or id saying date, time,
    published…; else any short run holding a date.  Among several of the same rank, the
    one nearest the title (:func:`_pick`): a header's clock showing the day the page was
    fetched comes long before it.  A ``<time>`` just above the title wins over a first one
    after it that is farther (:func:`_time_above_title`).  An update's date (``Updated …``,
    ``Last modified``) is taken only when no other date is by the title.  A date in the
    headline itself is not read.  A member's registration (``Joined``, ``Member since``,
    ``Registered``… in the run or in the run just before it) is never read: on a forum it
    precedes the first post and is years older.

    Read from the page's blocks, not by walking the tree again: a few hundred short
    strings.  Figures: ``benchmarks/metadata.py`` (``docs/metadata.md``).  One pass in
    one function: every rule reads the same state (title reached, a date found, a marked
    one found, the run before), which pieces would pass back and forth.
    """
    first_time = found.first_time() if found is not None else None
    # the runs that hold the <time>: the element itself or its parent
    anchors = (first_time[0], first_time[0].getparent()) if first_time is not None else ()
    if found is not None and (day := _time_above_title(page, found, first_time)):
        return day
    title_el = found.title_el if found is not None else None
    title = set(title_el.iter()) if title_el is not None else set()
    # the dates read, (run index, date, marked): before the title every one, from the
    # title on the first and the first marked (an untitled page's runs are all "on")
    dates: list[tuple[int, str, bool]] = []
    after, title_at = not title, None
    dated = dated_marked = False
    previous = ""
    runs = 0
    updated: list[tuple[int, str, bool]] = []  # the ``Updated …`` dates, read apart (:func:`_pick`)
    for i, block in enumerate(page.blocks):
        text = block.text
        if anchors and (block.node is anchors[0] or block.node is anchors[1]):
            return first_time[1]  # type: ignore[index]  # anchors come from first_time
        if not after and block.node in title:
            title_at, after = i, True
        if block.node is title_el:
            # a date in the headline is the story's (``Horoscope for 21–27 November``); one
            # in an element of its own inside the <h1> is not
            previous = text
            continue
        if len(text) <= _RUN_CHARS and _DIGIT.search(text):
            runs += 1
            if runs > _DATE_RUNS and dates and first_time is None:
                break
            # the run before, when it is a label (``Joined``, ``Posted``) and not a date itself
            label = previous if len(previous) <= 40 and not _DIGIT.search(previous) else ""
            low, label = text.lower(), label.lower()
            if _says_member(low) or (label and _says_member(label)):
                previous = text
                continue
            says_posted = _says_posted(low) or (bool(label) and _says_posted(label))
            if not says_posted and (_says_updated(low) or (label and _says_updated(label))):
                if day := _text_date(text):
                    updated.append((i, day, _marked(block.node)))
                previous = text
                continue
            says_date = not (after and dated_marked) and _marked(block.node)
            if (says_posted or not after or says_date or not dated) and (day := _text_date(text)):
                if says_posted:
                    return day
                dates.append((i, day, says_date))
                dated, dated_marked = dated or after, dated_marked or (after and says_date)
        previous = text
    if first_time is not None:
        return first_time[1]
    if dates or updated:
        return _pick(dates, title_at, updated)
    untitled = found.first_time(after_title=False) if found is not None else None
    return untitled[1] if untitled else None


def _time_above_title(page: Page, found: _Sources, first_time: tuple[etree._Element, str] | None) -> str | None:
    """The date of a ``<time>`` within :data:`_ABOVE_TITLE` runs above the title, when the
    first ``<time>`` after the title is not as near below it: the date line over the
    headline, where the first below is a related story's (the nearer one wins, as in
    :func:`_pick`)."""
    above = found.time_above_title()
    if above is None:
        return None
    start = _title_run(page.blocks, found.title_el)  # 0 without a title: nothing above it

    def run_of(el: etree._Element, runs: range) -> int | None:
        return next((i for i in runs if page.blocks[i].node in (el, el.getparent())), None)

    if run_of(above[0], range(max(0, start - _ABOVE_TITLE), start)) is None:
        return None
    if first_time is not None and run_of(first_time[0], range(start, min(len(page.blocks),
                                                                          start + _ABOVE_TITLE + 1))) is not None:
        return None
    return above[1]


def _pick(dates: list[tuple[int, str, bool]], title_at: int | None,
          updated: Sequence[tuple[int, str, bool]] = ()) -> str:
    """The date published among the page's dates (run index, date, marked): on a titled
    page, those by the title (within :data:`_DATELINE_RUNS` runs) if any (a related
    story's marked date far below is not the page's), else every one; among them a marked
    one if there is any; the one nearest the title, the last before it or the first after
    it (a header's clock, a ``Latest news`` list come before, related articles after),
    else the first.  An ``Updated …`` date (``updated``) is among them only when no other
    is by the title: there it is the date the page shows, and golds take it."""
    if title_at is not None:
        def by_title(found: Sequence[tuple[int, str, bool]]) -> list[tuple[int, str, bool]]:
            return [d for d in found if abs(d[0] - title_at) <= _DATELINE_RUNS]

        dates = by_title(dates) or by_title(updated) or sorted([*dates, *updated])
    elif not dates:
        dates = list(updated)
    marked = [d for d in dates if d[2]] or dates
    if title_at is None:
        return marked[0][1]
    before = [d for d in marked if d[0] < title_at]
    after = next((d for d in marked if d[0] >= title_at), None)
    if not before or (after is not None and after[0] - title_at <= title_at - before[-1][0]):
        return after[1] if after is not None else marked[0][1]
    return before[-1][1]


def _membership(el: etree._Element) -> bool:
    """Whether a ``<time>`` dates a member's registration: its parent's text says so."""
    parent = el.getparent()
    if parent is None:
        return False
    text = ""
    for piece in parent.itertext():  # the start only: the parent may hold a whole post
        text += piece  # type: ignore[operator]  # lxml-stubs: an HTML tree's names and texts are str
        if len(text) >= _RUN_CHARS:
            break
    return _says_member(text[:_RUN_CHARS].lower())


def _htmldate(page: Page) -> str | None:
    """htmldate's extensive search on the page's HTML (it needs an ``lxml.html`` tree of
    its own), ``None`` where it finds nothing or fails."""
    try:
        from htmldate import find_date
    except ImportError:
        raise MissingExtra("dating pages with htmldate needs it: pip install 'detourage[dates]'") from None
    try:
        found = find_date(page.html, url=page.url, extensive_search=True, original_date=True)
    except Exception:  # noqa: BLE001 - htmldate's failures are many and undocumented: no date
        return None
    return found if isinstance(found, str) and _parse_date(found) else None


def _marked(el: etree._Element | None) -> bool:
    for _ in range(3):
        if el is None:
            return False
        if el.tag in ("time", "abbr") or _DATE_HINT.search(_names(el)):
            return True
        el = el.getparent()
    return False


#: the characters of a class or id read for a date hint: real ones are a few words, and
#: every run of the page looks at three elements, so a 100 KB class around 5 000 runs
#: would be read 15 000 times (34 s)
_NAMES_CHARS = 200


def _names(el: etree._Element) -> str:
    """The start of the element's class and id."""
    return (el.get("class") or "")[:_NAMES_CHARS] + " " + (el.get("id") or "")[:_NAMES_CHARS]


def _url_date(url: str | None) -> str | None:
    """A date in the URL's path (:data:`_URL_DATE`)."""
    if not url:
        return None
    try:
        path = urlsplit(url).path
    except ValueError:  # a canonical link no parser reads ("http://[")
        return None
    m = _URL_DATE.search(path)
    if m is None:
        return None
    try:
        if m[1] is None:
            return Date(int(m[9]), int(m[8]), int(m[6])).isoformat()
        return Date(int(m[1]), int(m[2] or m[4]), int(m[3] or m[5])).isoformat()
    except ValueError:
        return None


def _language(found: _Sources, tree: etree._Element) -> str:
    value = _first(tree.get("lang"), tree.get("{http://www.w3.org/XML/1998/namespace}lang"),
                   found.meta("content-language"), found.meta("og:locale"), found.meta("dc.language"),
                   found.ld_str("inLanguage"), found.meta("language"))
    value = value.strip().split(",")[0].strip().replace("_", "-")
    return value if re.fullmatch(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*", value) else ""


def _split_list(value: Any, separators: str = ",;") -> list[str]:
    if isinstance(value, list):
        return [v for item in value[:50] for v in _split_list(item, separators)]
    if isinstance(value, dict):
        value = value.get("name")
    if not isinstance(value, str):
        return []
    return [_clean(v) for v in re.split(f"[{separators}]", value) if v.strip()]


def _ld_url(value: Any) -> str:
    if isinstance(value, list) and value:
        value = value[0]
    if isinstance(value, dict):
        value = value.get("url") or value.get("@id") or value.get("contentUrl")
        if isinstance(value, list) and value:
            value = value[0]
    return value.strip() if isinstance(value, str) else ""


# ---------------------------------------------------------------------------- helpers

def _text(el: etree._Element, prop: str | None = None) -> str:
    """The element's text, whitespace collapsed; with ``prop``, that of its first
    ``itemprop=prop`` descendant when it has one."""
    if prop is not None:
        inner = el.find(f".//*[@itemprop='{prop}']")
        if inner is not None:
            el = inner
            value = el.get("content")
            if value:
                return _clean(value)
    return " ".join("".join(el.itertext()).split())  # type: ignore[arg-type]  # lxml-stubs: an HTML tree's names and texts are str


def _clean(value: str) -> str:
    """Whitespace collapsed; markup and character references that a page double-escaped
    in an attribute (``&amp;#8217;``, ``<b>``) resolved or dropped, soft hyphens dropped."""
    if "&" in value or "<" in value or "\xad" in value:
        value = htmllib.unescape(_MARKUP.sub("", value)).replace("\xad", "")
    return " ".join(value.split())


_MARKUP = re.compile(r"</?[A-Za-z][^<>]*>")


def _key(value: str) -> str:
    """A comparison key: lower case, letters and digits, single spaces."""
    return " ".join(re.sub(r"[^\w]+", " ", value.lower()).split())


def _first(*values: str | None) -> str:
    return next((v.strip() for v in values if v and v.strip()), "")


def _found(*values: Any) -> list[Any]:
    """The values that say something (not None, not empty)."""
    return [v for v in values if v]


def _unique(values: Iterable[Any]) -> tuple[str, ...]:
    """Strings (or lists of them, flattened), first occurrences, case-insensitively."""
    seen: dict[str, str] = {}
    for value in values:
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item.strip():
                seen.setdefault(item.strip().lower(), item.strip())
    return tuple(seen.values())


def _is_url(value: str) -> bool:
    return value.startswith(("http://", "https://", "/", "www."))


def _absolute(value: str | None, base: str | None) -> str:
    if not value:
        return ""
    value = value.strip()
    if not base:
        return value
    try:
        return urljoin(base, value)
    except ValueError:
        return value


def hostname(url: str | None) -> str:
    """``url``'s host without a leading ``www.``; "" for no URL and for one no parser
    reads (``http://[``)."""
    if not url:
        return ""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return ""
    return host[4:] if host.startswith("www.") else host
