"""A site's page URLs from its sitemaps and feeds, as trafilatura's ``--sitemap`` and
``--feed`` find them.

Sitemaps: the URL given when it is one (XML ``urlset`` or ``sitemapindex``, gzipped or
not, or a text file of URLs, or an RSS/Atom feed used as a sitemap), else the site's
robots.txt ``Sitemap:`` lines, else ``/sitemap.xml`` and ``/sitemap_index.xml``; indexes
are followed to their sitemaps, nested ones too (at most ``max_sources`` files).  A file
is read within the sitemap protocol's own limits (sitemaps.org: :data:`MAX_URLS` URLs
and :data:`MAX_BYTES` bytes uncompressed, gzipped or not), feeds too: a file over them
is ``too-large`` (nothing kept), one listing more URLs is ``too-many-urls`` (the first
ones kept), one that cannot be parsed (a JSON feed nested too deeply…) ``unreadable``;
each with its message, never an empty ``fetched``.  Feeds:
the URL given when it is one (RSS 2.0, RSS 1.0/RDF, Atom, JSON Feed), else the feeds a
home page announces (``<link rel="alternate" type="application/rss+xml">``…), else its
links whose address says feed, rss or atom.

URLs are made absolute, their scheme and host lowered, fragments and tracking
parameters (``utm_…``, ``fbclid``…) dropped, and kept on the site (:func:`.policy.site`:
its host, ``www.`` aside, and port) unless ``same_host`` is False; each is given once.
With ``same_host``, the files read stay on the site too: a child sitemap, a
``Sitemap:`` line or an announced feed elsewhere is not fetched (its line says
``off-site``), nor followed through a redirect off the site.  Every sitemap or feed file
is fetched politely (robots.txt, the host's delay, :mod:`.policy`) and reported to
``on_source`` with the URLs it gave, and ``known`` gives those of files already read, by
(kind, URL) (a resumed crawl reads none twice).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

from lxml import etree

from ..codings import BROKEN, OVER, decode
from .client import Fetched, Fetcher
from .policy import site

#: the most URLs one sitemap (or index, or feed) gives: the sitemap protocol's limit
MAX_URLS = 50_000
#: the largest sitemap or feed, uncompressed: the sitemap protocol's 50 MiB
MAX_BYTES = 50 * 1024 * 1024

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
    #: why it gave nothing, or not everything
    message: str = ""


class _Unread(Exception):
    """A file fetched but not read whole: its outcome and why."""

    def __init__(self, outcome: str, message: str, found: tuple[list[str], list[str]] = ([], [])) -> None:
        super().__init__(message)
        self.outcome, self.found = outcome, found


class Discoverer:
    """Page URLs from sitemaps and feeds, fetched with ``fetcher``."""

    def __init__(self, fetcher: Fetcher, *, same_host: bool = True, max_sources: int = 1000,
                 known: Mapping[tuple[str, str], Found] | None = None,
                 on_source: Callable[[Source], None] | None = None) -> None:
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
            if not self._in_scope(feed, url, "feed"):
                continue
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
            if not self._in_scope(current, root, "sitemap"):
                pages = []
                continue
            pages, more = self._source(current, "sitemap")
            queue.extend(m for m in more if m not in visited)

    def _source(self, url: str, kind: str) -> Found:
        """What a file gave (read once for each ``kind``: ``known`` first)."""
        if (kind, url) in self._known:
            return self._known[kind, url]
        fetched = self.fetcher.fetch(url, content_types=(), max_bytes=MAX_BYTES,
                                     scope=site(url) if self.same_host else None)
        if fetched.outcome == "stopped":  # not read: a resumed crawl reads it
            return [], []
        self._read += 1
        found: Found = ([], [])
        outcome, message = fetched.outcome, fetched.message
        if fetched.ok:
            try:
                found = _parse(fetched, kind)
            except _Unread as unread:
                outcome, message, found = unread.outcome, str(unread), unread.found
            base = fetched.final_url or url
            found = ([u for u in (_clean(p, base) for p in found[0]) if u],
                     [u for u in (_clean(s, base) for s in found[1]) if u])
        self._known[kind, url] = found
        self._report(Source(url, kind, outcome, tuple(found[0]), tuple(found[1]), message))
        return found

    def _in_scope(self, url: str, root: str, kind: str) -> bool:
        """Whether a file named by another may be read (on the root's site, unless every
        host is kept); one that may not is reported ``off-site``, unfetched."""
        if not self.same_host or site(url) == site(root):
            return True
        if (kind, url) not in self._known:
            self._known[kind, url] = ([], [])
            self._report(Source(url, kind, "off-site", message=f"not on {site(root)}: not fetched"))
        return False

    def _report(self, source: Source) -> None:
        if self._on_source is not None:
            self._on_source(source)

    def _kept(self, url: str, root: str) -> bool:
        return not self.same_host or site(url) == site(root)


# ---------------------------------------------------------------------------- parsing

def _parse(fetched: Fetched, kind: str) -> Found:
    """(pages, sitemaps or feeds to read next) of a fetched file, at most :data:`MAX_URLS`
    of each; :class:`_Unread` when it cannot be read whole."""
    data = _gunzipped(fetched.content)
    try:
        found = _found(data, kind, (fetched.header("content-type") or "").partition(";")[0].strip().lower())
    except RecursionError:  # json.loads of an array nested thousands deep
        raise _Unread("unreadable", "nested too deeply to be read") from None
    except Exception as exc:  # noqa: BLE001 - a file no rule foresaw is its own outcome, never the crawl's end
        raise _Unread("unreadable", f"{type(exc).__name__}: {exc}"[:300]) from None
    over = max(len(found[0]), len(found[1])) - MAX_URLS
    if over > 0:
        raise _Unread("too-many-urls", f"{over} URLs over the sitemap protocol's {MAX_URLS}: the first kept",
                      (found[0][:MAX_URLS], found[1][:MAX_URLS]))
    return found


def _found(data: bytes, kind: str, media: str) -> Found:
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head == b"{" or media in ("application/feed+json", "application/json"):
        return _json_feed(data), []
    if head != b"<":
        return ([line.strip() for line in data.decode("utf-8", "replace").splitlines()
                 if line.strip().lower().startswith(("http://", "https://"))], [])
    if media in ("text/html", "application/xhtml+xml") or re.match(rb"\s*<!doctype html|\s*<html", data[:200], re.I):
        return ([], _announced_feeds(data)) if kind == "feed" else ([], [])
    return _xml(data)


def _xml(data: bytes) -> Found:
    root = etree.fromstring(data, _XML_PARSER)  # what recovery cannot mend raises: unreadable
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
    feed = json.loads(data.decode("utf-8", "replace"))  # ValueError, RecursionError: unreadable
    items = feed.get("items") if isinstance(feed, dict) else None
    return [item["url"] for item in items if isinstance(item, dict) and isinstance(item.get("url"), str)] \
        if isinstance(items, list) else []


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


def _gunzipped(data: bytes) -> bytes:
    """A sitemap served as a ``.gz`` file (not a ``Content-Encoding``), unpacked within
    :data:`MAX_BYTES` (:mod:`detourage.codings`); beyond it, or broken: :class:`_Unread`."""
    if data[:2] != b"\x1f\x8b":
        return data
    decoded = decode(data, "gzip", MAX_BYTES)
    if decoded.state == OVER:
        raise _Unread("too-large", f"unpacks past {MAX_BYTES} bytes, the sitemap protocol's limit")
    if decoded.state == BROKEN:
        raise _Unread("bad-encoding", decoded.note)
    return decoded.data


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
    own = site(fetched.final_url or fetched.url)
    found: dict[str, None] = {}
    for count, anchor in enumerate(tree.iter("a")):
        if count >= MAX_LINKS:
            break
        if "nofollow" in (anchor.get("rel") or "").lower().split():
            continue
        url = _clean(anchor.get("href") or "", base)
        if url and site(url) == own and not _NOT_PAGE.search(urlsplit(url).path) and not is_not_crawlable(url):
            found.setdefault(url, None)
    return list(found)
