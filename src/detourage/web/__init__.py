"""Pages from the web, fetched politely into WARC files and cleaned from the same bytes.

    >>> from detourage.web import fetch, sitemap_urls        # doctest: +SKIP
    >>> page = fetch("https://example.org/a")                # doctest: +SKIP
    >>> page.outcome, page.header("content-type"), len(page.content)   # doctest: +SKIP

- :func:`fetch`: one URL, robots.txt obeyed, redirects followed, limits held; a
  :class:`Fetched` (outcome, status, final URL, header fields, body);
- :func:`sitemap_urls`, :func:`feed_urls`: the page URLs of a site's sitemaps or feeds;
- :func:`crawl`: many URLs (and sitemaps, feeds, links followed from start pages) into a
  WARC, with a log of every URL's outcome, resumable (``detourage fetch``).

Needs the ``fetch`` extra (httpx, warcio, Protego, courlan).
"""

from __future__ import annotations

from collections.abc import Iterator

from .client import Exchange, Fetched, Fetcher, Politeness
from .crawl import CrawlProgress, CrawlSummary, crawl, log_path
from .discover import Discoverer, Source

__all__ = ["CrawlProgress", "CrawlSummary", "Discoverer", "Exchange", "Fetched", "Fetcher", "Politeness", "Source",
           "crawl", "feed_urls", "fetch", "log_path", "sitemap_urls"]


def fetch(url: str, *, politeness: Politeness = Politeness()) -> Fetched:
    """Fetch one URL politely (its host's robots.txt read first); never raises for what
    the server or the network does: :attr:`Fetched.outcome` says it."""
    with Fetcher(politeness) as fetcher:
        return fetcher.fetch(url)


def sitemap_urls(url: str, *, politeness: Politeness = Politeness(), same_host: bool = True) -> Iterator[str]:
    """The page URLs of a site's sitemaps (``url``: a sitemap, or a page of the site)."""
    with Fetcher(politeness) as fetcher:
        yield from Discoverer(fetcher, same_host=same_host).sitemap(url)


def feed_urls(url: str, *, politeness: Politeness = Politeness(), same_host: bool = True) -> Iterator[str]:
    """The page URLs of a feed, or of the feeds a page announces."""
    with Fetcher(politeness) as fetcher:
        yield from Discoverer(fetcher, same_host=same_host).feed(url)
