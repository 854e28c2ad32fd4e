"""The fetcher's test server (:mod:`fetch_server`) does what its routes say: it starts
and stops fast, logs every request, and serves the scripted site and its faults."""

from __future__ import annotations

import gzip
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from xml.etree import ElementTree

import httpx
import pytest

from fetch_server import BOMB_HEAD, BOMB_SIZE, Route, Site, site_of_pages, standard_site

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@pytest.fixture
def site() -> Iterator[Site]:
    with Site(standard_site()) as running:
        yield running


@pytest.fixture
def client(site: Site) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=site.base, headers={"User-Agent": "detourage-test/1"}) as http:
        yield http


def locs(xml: bytes) -> list[str]:
    """The ``<loc>`` URLs of a sitemap or a sitemap index."""
    return [loc.text or "" for loc in ElementTree.fromstring(xml).iter(f"{SITEMAP}loc")]


def test_starts_and_stops_fast() -> None:
    started = time.monotonic()
    with Site(standard_site()) as site:
        assert httpx.get(site.url("/")).status_code == 200
    assert time.monotonic() - started < 1.0
    with pytest.raises(httpx.ConnectError):
        httpx.get(site.url("/"))


def test_routes_types_and_404(client: httpx.Client) -> None:
    home = client.get("/")
    assert home.headers["content-type"] == "text/html; charset=utf-8"
    assert 'type="application/rss+xml" href="/feed.rss"' in home.text
    assert "Article 7" in client.get("/articles/7.html").text
    missing = client.get("/nowhere")
    assert (missing.status_code, missing.headers["content-type"]) == (404, "text/plain; charset=utf-8")
    assert client.get("/404-page").status_code == 404
    assert client.get("/500").status_code == 500
    assert "content-type" not in client.get("/no-type").headers
    assert client.get("/image.png").content.startswith(b"\x89PNG")
    assert client.get("/doc.pdf").content.startswith(b"%PDF")


def test_every_request_is_logged(site: Site, client: httpx.Client) -> None:
    before = time.monotonic()
    client.get("/articles/3.html?ref=feed")
    client.get("/articles/3.html")
    first = site.requests[0]
    assert (first.method, first.path) == ("GET", "/articles/3.html?ref=feed")
    assert first.headers["user-agent"] == "detourage-test/1"
    assert before <= first.time <= time.monotonic()
    assert site.requested("/articles/3.html") == 1
    assert site.requested("/private/secret.html") == 0


def test_sequences_then_repeat_the_last(site: Site, client: httpx.Client) -> None:
    throttled = [client.get("/throttled") for _ in range(3)]
    assert [r.status_code for r in throttled] == [429, 200, 200]
    assert throttled[0].headers["retry-after"] == "1"
    assert [client.get("/unavailable").status_code for _ in range(4)] == [503, 503, 200, 200]
    site.add("/late", Route(sequence=(Route(503), Route(200, body=b"ok"))))
    assert [client.get("/late?try=1").status_code for _ in range(2)] == [503, 200]


def test_slow_times_out_and_exit_stays_fast() -> None:
    with Site(standard_site()) as site:
        with pytest.raises(httpx.ReadTimeout):
            httpx.get(site.url("/slow"), timeout=0.5)
        errors: list[Exception] = []
        waiting = threading.Thread(target=_get_into, args=(site.url("/slow"), errors))
        waiting.start()
        while site.requested("/slow") < 2:
            time.sleep(0.01)
        leaving = time.monotonic()
    assert time.monotonic() - leaving < 2.0
    waiting.join(2.0)
    assert isinstance(errors[0], httpx.RemoteProtocolError)  # closed without an answer


def _get_into(url: str, errors: list[Exception]) -> None:
    try:
        httpx.get(url, timeout=30)
    except httpx.HTTPError as error:
        errors.append(error)


def test_dropped_connection_is_an_error(client: httpx.Client) -> None:
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        client.get("/dropped")


def test_bomb_is_small_and_says_how_it_begins(client: httpx.Client) -> None:
    with client.stream("GET", "/bomb") as response:
        assert response.headers["content-encoding"] == "gzip"
        raw = b"".join(response.iter_raw())
    assert len(raw) == int(response.headers["content-length"]) < 2_000_000
    assert zlib.decompressobj(31).decompress(raw, 100) == BOMB_HEAD + b" " * (100 - len(BOMB_HEAD))
    assert struct.unpack("<I", raw[-4:])[0] == BOMB_SIZE % 2**32


def test_huge_streams_its_declared_length(client: httpx.Client, capfd: pytest.CaptureFixture[str]) -> None:
    with client.stream("GET", "/huge") as response:
        assert response.headers["content-length"] == "50000000"
        assert sum(len(chunk) for chunk in response.iter_raw()) == 50_000_000
    with client.stream("GET", "/huge") as response:
        assert next(response.iter_raw()).startswith(b"<!doctype html>")
    time.sleep(0.2)  # the server writes on into the closed connection
    assert "Traceback" not in capfd.readouterr().err


def test_redirects(site: Site, client: httpx.Client) -> None:
    old = client.get("/old-article")
    assert (old.status_code, old.headers["location"]) == (301, site.url("/articles/1.html"))
    with pytest.raises(httpx.TooManyRedirects):
        client.get("/loop-a", follow_redirects=True)
    with pytest.raises(httpx.TooManyRedirects):  # httpx follows 20 by default
        client.get("/chain/0", follow_redirects=True)
    with httpx.Client(base_url=site.base, max_redirects=40) as patient:
        end = patient.get("/chain/0", follow_redirects=True)
    assert (end.status_code, len(end.history)) == (200, 30)


def test_robots_and_sitemaps_name_the_running_site(site: Site, client: httpx.Client) -> None:
    assert f"Sitemap: {site.base}/sitemap_index.xml" in client.get("/robots.txt").text
    queue, pages = [site.url("/sitemap_index.xml")], set[str]()
    while queue:
        xml = _unzipped(client.get(queue.pop()).content)
        is_index = ElementTree.fromstring(xml).tag == f"{SITEMAP}sitemapindex"
        (queue.extend if is_index else pages.update)(locs(xml))
    articles = {site.url(f"/articles/{n}.html") for n in range(1, 11)}
    assert pages == articles | {site.url("/private/secret.html"), site.url("/old-article")}
    assert client.get("/sitemap-b.xml.gz").headers["content-type"] == "application/x-gzip"
    assert client.get("/sitemap.txt").text.split() == [site.url(f"/articles/{n}.html") for n in (1, 2, 3)]
    assert site.url("/articles/11.html") in client.get("/feed.rss").text
    assert f'href="{site.url("/articles/12.html")}"' in client.get("/feed.atom").text


def test_site_of_pages_lists_every_page() -> None:
    pages = {f"/p/{n}.html": f"<html><body><p>Page {n}</p></body></html>".encode() for n in range(2500)}
    with Site(site_of_pages(pages)) as site, httpx.Client(base_url=site.base) as client:
        assert f"Sitemap: {site.base}/sitemap_index.xml" in client.get("/robots.txt").text
        sitemaps = locs(client.get("/sitemap_index.xml").content)
        assert [url.removeprefix(site.base) for url in sitemaps] == [
            "/sitemaps/0.xml", "/sitemaps/1.xml.gz", "/sitemaps/2.xml"]
        listed = [locs(_unzipped(client.get(url).content)) for url in sitemaps]
        assert [len(urls) for urls in listed] == [1000, 1000, 500]
        assert sum(listed, []) == [site.url(path) for path in pages]
        assert client.get("/p/42.html").text == "<html><body><p>Page 42</p></body></html>"


def _unzipped(data: bytes) -> bytes:
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
