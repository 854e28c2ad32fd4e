"""A site's page URLs from its sitemaps and feeds, as trafilatura's ``--sitemap`` and
``--feed`` find them.

Sitemaps: the URL given when it is one (XML ``urlset`` or ``sitemapindex``, gzipped or
not, or a text file of URLs, or an RSS/Atom feed used as a sitemap), else the site's
robots.txt ``Sitemap:`` lines, else ``/sitemap.xml`` and ``/sitemap_index.xml``; indexes
are followed to their sitemaps, nested ones too (at most ``max_sources`` files).  Feeds:
the URL given when it is one (RSS 2.0, RSS 1.0/RDF, Atom, JSON Feed), else the feeds a
home page announces (``<link rel="alternate" type="application/rss+xml">``…), else its
links whose address says feed, rss or atom.

URLs are made absolute, their scheme and host lowered, fragments and tracking
parameters (``utm_…``, ``fbclid``…) dropped, and kept on the site's host (``www.`` aside) unless ``same_host`` is False; each
is given once.  Every sitemap or feed file is fetched politely (robots.txt, the host's
delay) and reported to ``on_source`` with the URLs it gave, and ``known`` gives those of
files already read, by (kind, URL) (a resumed crawl reads none twice).
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

from lxml import etree

from .client import Fetcher, Fetched

#: what a sitemap or feed file gave: page URLs, and the sitemap files it names
Found = tuple[list[str], list[str]]

_FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/feed+json", "application/rdf+xml",
               "application/rss", "application/x-rss+xml", "application/json")
_FEED_WORDS = re.compile(r"(?:^|[/._?=-])(?:rss|atom|feeds?)(?:$|[/._?=&-])", re.I)
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, recover=True, huge_tree=False,
                              remove_comments=True, remove_pis=True)


@dataclass(frozen=True, slots=True)
class Source:
    """A sitemap or feed file that was read: its outcome and what it gave."""

    url: str
    kind: str  # "sitemap" or "feed" (a page read to find feeds is "feed")
    outcome: str
    pages: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()


class Discoverer:
    """Page URLs from sitemaps and feeds, fetched with ``fetcher``."""

    def __init__(self, fetcher: Fetcher, *, same_host: bool = True, max_sources: int = 1000,
                 known: Mapping[tuple[str, str], Found] | None = None, on_source: Callable[[Source], None] | None = None) -> None:
        self.fetcher = fetcher
        self.same_host = same_host
        self.max_sources = max_sources
        self._known = dict(known or {})
        self._on_source = on_source
        self._read = 0

    def sitemap(self, url: str) -> Iterator[str]:
        """The page URLs of ``url``'s sitemaps (``url``: a sitemap, or any page of the site)."""
        pages, sitemaps = self._source(url, "sitemap")
        if not pages and not sitemaps:  # not a sitemap: the site's own
            origin = _origin(url)
            sitemaps = list(self.fetcher.robots_sitemaps(origin)) or [f"{origin}/sitemap.xml",
                                                                    f"{origin}/sitemap_index.xml"]
        return self._walk(url, pages, sitemaps)

    def feed(self, url: str) -> Iterator[str]:
        """The page URLs of ``url``'s feeds (``url``: a feed, or a page announcing feeds)."""
        pages, feeds = self._source(url, "feed")
        seen: set[str] = set()
        for page in pages:
            if page not in seen:
                seen.add(page)
                yield page
        for feed in feeds:
            for page in self._source(feed, "feed")[0]:
                if page not in seen:
                    seen.add(page)
                    yield page

    def _walk(self, root: str, pages: list[str], sitemaps: list[str]) -> Iterator[str]:
        seen: set[str] = set()
        visited = {root}
        queue = list(sitemaps)
        while True:
            for page in pages:
                if page not in seen and self._kept(page, root):
                    seen.add(page)
                    yield page
            while queue and queue[0] in visited:
                queue.pop(0)
            if not queue or self._read >= self.max_sources:
                return
            current = queue.pop(0)
            visited.add(current)
            pages, more = self._source(current, "sitemap")
            queue.extend(m for m in more if m not in visited)

    def _source(self, url: str, kind: str) -> Found:
        """What a file gave (read once for each ``kind``: ``known`` first)."""
        if (kind, url) in self._known:
            return self._known[kind, url]
        fetched = self.fetcher.fetch(url, content_types=())
        if fetched.outcome == "stopped":  # not read: a resumed crawl reads it
            return [], []
        self._read += 1
        found: Found = ([], [])
        if fetched.ok:
            found = _parse(fetched, kind, self.fetcher.politeness.max_bytes)
            base = fetched.final_url or url
            found = ([u for u in (_clean(p, base) for p in found[0]) if u],
                     [u for u in (_clean(s, base) for s in found[1]) if u])
        self._known[kind, url] = found
        if self._on_source is not None:
            self._on_source(Source(url, kind, fetched.outcome, tuple(found[0]), tuple(found[1])))
        return found

    def _kept(self, url: str, root: str) -> bool:
        return not self.same_host or _host(url) == _host(root)


# ---------------------------------------------------------------------------- parsing

def _parse(fetched: Fetched, kind: str, limit: int) -> Found:
    """(pages, sitemaps or feeds to read next) of a fetched file."""
    data = _gunzipped(fetched.content, limit)
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    media = (fetched.header("content-type") or "").partition(";")[0].strip().lower()
    if head == b"{" or media in ("application/feed+json", "application/json"):
        return _json_feed(data), []
    if head != b"<":
        return ([line.strip() for line in data.decode("utf-8", "replace").splitlines()
                 if line.strip().lower().startswith(("http://", "https://"))], [])
    if media in ("text/html", "application/xhtml+xml") or re.match(rb"\s*<!doctype html|\s*<html", data[:200], re.I):
        return ([], _announced_feeds(data)) if kind == "feed" else ([], [])
    return _xml(data)


def _xml(data: bytes) -> Found:
    try:
        root = etree.fromstring(data, _XML_PARSER)
    except etree.XMLSyntaxError:
        return [], []
    if root is None:
        return [], []
    name = etree.QName(root).localname.lower()
    if name == "sitemapindex":
        return [], _locs(root, "sitemap")
    if name == "urlset":
        return _locs(root, "url"), []
    if name in ("rss", "rdf"):
        return [t for item in _children(root, "item") if (t := _text(item, "link") or _permalink(item))], []
    if name == "feed":
        return [href for entry in _children(root, "entry") if (href := _atom_link(entry))], []
    return [], []


def _children(root: etree._Element, name: str) -> Iterator[etree._Element]:
    return (el for el in root.iter() if isinstance(el.tag, str) and etree.QName(el).localname == name)


def _locs(root: etree._Element, parent: str) -> list[str]:
    return [t for el in _children(root, parent) if (t := _text(el, "loc"))]


def _text(el: etree._Element, name: str) -> str:
    for child in el:
        if isinstance(child.tag, str) and etree.QName(child).localname == name:
            return (child.text or "").strip()
    return ""


def _permalink(item: etree._Element) -> str:
    for child in item:
        if isinstance(child.tag, str) and etree.QName(child).localname == "guid" \
                and child.get("isPermaLink", "true").lower() != "false":
            return (child.text or "").strip()
    return ""


def _atom_link(entry: etree._Element) -> str:
    links = [c for c in entry if isinstance(c.tag, str) and etree.QName(c).localname == "link"]
    best = next((c for c in links if c.get("rel", "alternate") == "alternate"), None)
    return (best.get("href") or "").strip() if best is not None else ""


def _json_feed(data: bytes) -> list[str]:
    try:
        feed = json.loads(data.decode("utf-8", "replace"))
    except ValueError:
        return []
    items = feed.get("items") if isinstance(feed, dict) else None
    return [item["url"] for item in items or [] if isinstance(item, dict) and isinstance(item.get("url"), str)]


def _announced_feeds(data: bytes) -> list[str]:
    """The feeds a page announces (``<link rel="alternate">`` of a feed type), else its
    links whose address says feed, rss or atom."""
    tree = etree.fromstring(data, etree.HTMLParser(no_network=True, huge_tree=False))
    if tree is None:
        return []
    announced = [link.get("href", "") for link in tree.iter("link")
                 if "alternate" in (link.get("rel") or "").lower().split()
                 and (link.get("type") or "").lower() in _FEED_TYPES]
    if not announced:
        announced = [a.get("href", "") for a in tree.iter("a") if _FEED_WORDS.search(a.get("href") or "")]
    return [href.strip() for href in announced if href.strip()]


def _gunzipped(data: bytes, limit: int) -> bytes:
    """A sitemap served as a ``.gz`` file (not a ``Content-Encoding``), unpacked within
    the fetcher's byte limit (beyond it: nothing)."""
    if data[:2] != b"\x1f\x8b":
        return data
    decoder = zlib.decompressobj(47)
    try:
        out = decoder.decompress(data, limit + 1)
    except zlib.error:
        return data
    return out if len(out) <= limit else b""


# ---------------------------------------------------------------------------- URLs

#: query parameters that only track a visit, dropped from the URLs found (others are
#: kept as they are: courlan's ``normalize_url`` also drops valueless and common names,
#: which merges distinct pages such as ``showthread.php?12345-Title`` or ``?cid=9``)
_TRACKERS = re.compile(r"(?:utm_[a-z_]+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_ga|yclid)=", re.I)


def _clean(url: str, base: str) -> str | None:
    """An absolute http(s) URL: scheme and host in lower case, no fragment, tracking
    parameters (``utm_…``, ``fbclid``…) out, the rest as the page gave it; None for
    anything else."""
    url = url.strip()
    if not url:
        return None
    try:
        parts = urlsplit(urljoin(base, url))
        parts.port  # noqa: B018 - raises on a port that is no number
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    query = "&".join(q for q in parts.query.split("&") if q and not _TRACKERS.match(q))
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", query, ""))


def _host(url: str) -> str:
    host = urlsplit(url).netloc.lower()
    return host[4:] if host.startswith("www.") else host


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"



# ---------------------------------------------------------------------------- links to follow

#: the links of a page read to follow (a page of links beyond is cut)
MAX_LINKS = 2000
#: paths that name no page: media, archives, code, styles, feeds
_NOT_PAGE = re.compile(r"\.(?:jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|dmg|"
                       r"apk|iso|mp[34]|m4[av]|mov|avi|wmv|flv|webm|ogg|wav|flac|css|js|json|xml|rss|atom|"
                       r"woff2?|ttf|eot|docx?|xlsx?|pptx?|odt|csv|txt)$", re.I)


def page_links(fetched: Fetched) -> list[str]:
    """The links of a fetched HTML page worth following: on its host (``www.`` aside),
    cleaned (:func:`_clean`), no ``rel="nofollow"`` and none at all under a robots
    ``nofollow`` meta; not media, archives or feeds by their path, nor login or sign-up
    pages (courlan's ``is_not_crawlable``).  In page order, each once."""
    from courlan import is_not_crawlable

    if not fetched.ok or not fetched.content:
        return []
    tree = etree.fromstring(fetched.content, etree.HTMLParser(no_network=True, huge_tree=False))
    if tree is None:
        return []
    for meta in tree.iter("meta"):
        if (meta.get("name") or "").lower() == "robots" and "nofollow" in (meta.get("content") or "").lower():
            return []
    base = fetched.final_url or fetched.url
    declared = next((b.get("href") for b in tree.iter("base") if b.get("href")), None)
    if declared:
        base = _clean(declared, base) or base
    host = _host(fetched.final_url or fetched.url)
    found: dict[str, None] = {}
    for count, anchor in enumerate(tree.iter("a")):
        if count >= MAX_LINKS:
            break
        if "nofollow" in (anchor.get("rel") or "").lower().split():
            continue
        url = _clean(anchor.get("href") or "", base)
        if url and _host(url) == host and not _NOT_PAGE.search(urlsplit(url).path) and not is_not_crawlable(url):
            found.setdefault(url, None)
    return list(found)
