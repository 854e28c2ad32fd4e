"""A hostile web site on the loopback (issue 44): redirects that try to steer the crawler
(other ports, other hosts, ``//host``, userinfo, ``javascript:``), private addresses,
sitemaps and feeds too large or nested too deep, compression tricks, and Ctrl-C while a
slow page is in flight.  Each test failed on 1aa80b9.

The tests also run against an older tree (``PYTHONPATH=OLD/src``) to show what failed
there: :func:`polite` passes ``allow_private`` only where :class:`Politeness` has it."""

from __future__ import annotations

import gzip
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("httpx", reason="fetching needs the fetch extra (httpx)")
pytest.importorskip("warcio", reason="fetching needs the fetch extra (warcio)")
pytest.importorskip("protego", reason="fetching needs the fetch extra (protego)")
pytest.importorskip("courlan", reason="fetching needs the fetch extra (courlan)")

from click.testing import CliRunner  # noqa: E402
from fetch_server import BASE, HTML, TEXT, XML, Route, Site, page, sitemap_index, urlset  # noqa: E402

from detourage.cli import main  # noqa: E402
from detourage.web import Fetcher, Politeness, crawl, feed_urls, fetch, log_path, sitemap_urls  # noqa: E402


def polite(**given) -> Politeness:
    """A fast politeness that may fetch from the loopback (where the field exists)."""
    if "allow_private" in Politeness.__dataclass_fields__:
        given.setdefault("allow_private", True)
    return Politeness(**{"delay": 0.0, "timeout": 3.0, "retries": 0, **given})


def entries(warc: Path, kind: str = "page") -> dict[str, dict]:
    return {e["url"]: e for e in map(json.loads, log_path(warc).read_text().splitlines()) if e["kind"] == kind}


def html_page(n: int, links: str = "") -> Route:
    return Route(200, HTML, page(f"Page {n}", f"<p>Text of page {n}.</p>{links}"))


# ---------------------------------------------------------------------------- redirects

def test_crawl_stays_on_its_host_and_port_through_redirects(tmp_path: Path) -> None:
    with Site({"/secret": html_page(99, '<a href="/more">more</a>'), "/more": html_page(98)}) as other:
        routes = {"/start": html_page(0, "".join(f'<a href="/r{n}">r{n}</a>' for n in range(4))),
                  "/r0": Route(302, (("Location", other.url("/secret")),)),            # another port
                  "/r1": Route(302, (("Location", "//localhost:" + other.base.rsplit(":", 1)[1] + "/secret"),)),
                  "/r3": Route(302, (("Location", "/x"),)),                              # same site: followed
                  "/x": html_page(3)}
        with Site(routes) as own:
            own.add("/r2", Route(301, (("Location", own.base.replace("127.0.0.1", "localhost") + "/x"),)))  # other host
            summary = crawl(out=tmp_path / "c.warc.gz", follow=[own.url("/start")], politeness=polite())
            assert other.requested("/secret") == 0 and other.requested("/more") == 0
            assert not [r for r in own.requests if r.headers.get("host", "").startswith("localhost")]
    outcomes = {u.rsplit("/", 1)[1]: e["outcome"] for u, e in entries(tmp_path / "c.warc.gz").items()}
    assert {k: outcomes[k] for k in ("start", "r0", "r1", "r2", "r3")} == {
        "start": "fetched", "r0": "off-site", "r1": "off-site", "r2": "off-site", "r3": "fetched"}
    assert summary.outcomes["off-site"] == 3  # the nav's own links (/, /articles/1.html) are 404s


@pytest.mark.parametrize(("location", "outcome"), [
    ("javascript:alert(1)", "bad-redirect"),
    ("data:text/html,<p>x</p>", "bad-redirect"),
    ("http://a_b.example:8o/", "bad-redirect"),
    ("http://exa mple.org/", "bad-redirect"),
    ("http://xn--/", "bad-redirect"),
    ("http://admin:secret@127.0.0.1:1/a", "userinfo"),
])
def test_a_location_that_is_no_fetchable_url_ends_as_documented(location: str, outcome: str) -> None:
    with Site({"/r": Route(302, (("Location", location),)), "/a": html_page(1)}) as own:
        result = fetch(own.url("/r"), politeness=polite(robots=False))
        assert (result.outcome, len(result.exchanges)) == (outcome, 1), result.message
        assert own.requested("/a") == 0


def test_userinfo_in_a_listed_url_is_refused_unrequested() -> None:
    with Site({"/a": html_page(1)}) as own:
        result = fetch(own.url("/a").replace("://", "://user:pw@"), politeness=polite())
        assert result.outcome == "userinfo" and not own.requests


def test_sitemaps_and_feeds_elsewhere_are_not_fetched(tmp_path: Path) -> None:
    with Site({"/sitemap.xml": Route(200, XML, urlset(["/b"])), "/feed.json": Route(200, (), b'{"items": []}')}) as far:
        port = far.base.rsplit(":", 1)[1]
        robots = f"User-agent: *\nSitemap: http://127.0.0.1:{port}/sitemap.xml\n".encode()
        routes = {"/robots.txt": Route(200, TEXT, robots), "/a": html_page(1),
                  "/index.xml": Route(200, XML, sitemap_index([]).replace(
                      b"</sitemapindex>", f"<sitemap><loc>{far.url('/sitemap.xml')}</loc></sitemap>"
                                          f"<sitemap><loc>{BASE}/own.xml</loc></sitemap></sitemapindex>".encode())),
                  "/own.xml": Route(200, XML, urlset(["/a"])),
                  "/home": Route(200, HTML, page("Home", "", head=f'<link rel="alternate" type="application/feed+json"'
                                                               f' href="{far.url("/feed.json")}">'))}
        with Site(routes) as own:
            via_robots = list(sitemap_urls(own.url("/"), politeness=polite()))
            via_index = list(sitemap_urls(own.url("/index.xml"), politeness=polite()))
            announced = list(feed_urls(own.url("/home"), politeness=polite()))
            assert far.requests == []
            crawl(out=tmp_path / "c.warc.gz", sitemaps=[own.url("/index.xml")], politeness=polite())
        assert via_robots == [] and via_index == [own.url("/a")] and announced == []
    sources = entries(tmp_path / "c.warc.gz", "sitemap")
    assert sources[far.url("/sitemap.xml")]["outcome"] == "off-site"


# ---------------------------------------------------------------------------- private addresses

def test_private_addresses_are_refused_unless_allowed(tmp_path: Path) -> None:
    with Site({"/a": html_page(1), "/robots.txt": Route(200, TEXT, b"User-agent: *\nAllow: /\n")}) as own:
        refused = fetch(own.url("/a"), politeness=Politeness(delay=0, retries=0))
        port = own.base.rsplit(":", 1)[1]
        decimal = fetch(f"http://2130706433:{port}/a", politeness=Politeness(delay=0, retries=0))  # 127.0.0.1
        assert own.requests == []  # not even robots.txt
        allowed = fetch(own.url("/a"), politeness=polite())
    assert refused.outcome == decimal.outcome == "private-address" and allowed.ok
    assert "--allow-private" in refused.message


def test_the_address_checked_is_the_address_connected_to(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name that resolves to the loopback is refused when connecting; and a resolver
    that answers a public address first, the loopback after (DNS rebinding), never gets
    the crawler to the loopback: the connection goes to the address checked."""
    real = socket.getaddrinfo
    calls = []

    def resolver(host, port, *args, **kwargs):
        calls.append(host)
        if host == "inside.test":
            return real("127.0.0.1", port, *args, **kwargs)
        if host == "rebind.test":  # a public address first (example.com's), the loopback after
            return real("93.184.215.14" if calls.count(host) == 1 else "127.0.0.1", port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    with Site({"/a": html_page(1)}) as own:
        port = own.base.rsplit(":", 1)[1]
        polite_ = Politeness(delay=0, retries=0, robots=False, timeout=1.0)
        inside = fetch(f"http://inside.test:{port}/a", politeness=polite_)
        assert inside.outcome == "private-address" and own.requests == []
        swapped = fetch(f"http://rebind.test:{port}/a", politeness=polite_)
        assert not swapped.ok and own.requests == []
        assert calls.count("rebind.test") == 1  # resolved once: the connection went to that address


def test_extract_and_fetch_commands_refuse_the_loopback_unless_allowed(tmp_path: Path) -> None:
    with Site({"/a": html_page(1)}) as own:
        refused = CliRunner().invoke(main, ["extract", own.url("/a")])
        assert refused.exit_code == 2 and "private-address" in refused.output and own.requests == []
        allowed = CliRunner().invoke(main, ["extract", "--allow-private", own.url("/a")])
        assert allowed.exit_code == 0 and "Text of page 1" in allowed.output
        warc = tmp_path / "f.warc.gz"
        CliRunner().invoke(main, ["fetch", own.url("/a"), "-o", str(warc), "--delay", "0"])
        assert entries(warc)[own.url("/a")]["outcome"] == "private-address"


# ---------------------------------------------------------------------------- sitemaps and feeds

def big_sitemap(count: int, path_chars: int) -> bytes:
    tail = "x" * path_chars
    return urlset(f"/p/{n}/{tail}" for n in range(count)).replace(BASE.encode(), b"http://big.example")


@pytest.mark.parametrize("zipped", [True, False])
def test_a_valid_sitemap_of_50000_urls_and_20_mb_is_read_whole(tmp_path: Path, zipped: bool) -> None:
    body = big_sitemap(50_000, 360)
    assert 16 << 20 < len(body) < 50 << 20
    route = Route(200, (("Content-Type", "application/x-gzip"),) if zipped else XML, lambda: gzip.compress(body, 1)
                  if zipped else body)
    with Site({"/sitemap.xml": route}) as own:
        urls = list(sitemap_urls(own.url("/sitemap.xml"), politeness=polite(), same_host=False))
    assert len(urls) == 50_000


def test_a_sitemap_past_the_protocol_limits_says_so(tmp_path: Path) -> None:
    over = gzip.compress(b"<urlset>" + b" " * (51 << 20) + b"</urlset>", 9)
    routes = {"/many.xml": Route(200, XML, lambda: big_sitemap(50_001, 5)),
              "/bomb.xml.gz": Route(200, (("Content-Type", "application/x-gzip"),), lambda: over),
              "/a": html_page(1)}
    with Site(routes) as own:
        crawl(out=tmp_path / "c.warc.gz", sitemaps=[own.url("/many.xml"), own.url("/bomb.xml.gz")],
              politeness=polite(), same_host=False)
    sources = entries(tmp_path / "c.warc.gz", "sitemap")
    many, bomb = sources[own.url("/many.xml")], sources[own.url("/bomb.xml.gz")]
    assert many["outcome"] == "too-many-urls" and len(many["pages"]) == 50_000 and many["message"]
    assert bomb["outcome"] == "too-large" and bomb["pages"] == [] and str(50 << 20) in bomb["message"]


def nested_json(depth: int = 100_000) -> bytes:
    return b'{"items": ' + b"[" * depth + b"]" * depth + b"}"


def test_a_deeply_nested_json_feed_is_an_outcome_on_every_road(tmp_path: Path) -> None:
    routes = {"/feed.json": Route(200, (("Content-Type", "application/feed+json"),), nested_json()),
              "/home": Route(200, HTML, page("Home", "<p>home</p>", head='<link rel="alternate" '
                                                                        'type="application/feed+json" href="/feed.json">')),
              "/a": html_page(1)}
    with Site(routes) as own:
        assert list(feed_urls(own.url("/feed.json"), politeness=polite())) == []
        assert list(feed_urls(own.url("/home"), politeness=polite())) == []
        for option in ("--feed", "--sitemap"):
            warc = tmp_path / f"{option[2:]}.warc.gz"
            result = CliRunner().invoke(main, ["fetch", *allow_flag(), option, own.url("/feed.json"), own.url("/a"),
                                               "-o", str(warc), "--delay", "0"])
            assert result.exit_code == 0, result.output
            source = entries(warc, option[2:])[own.url("/feed.json")]
            assert source["outcome"] == "unreadable" and "nested" in source["message"]
            assert entries(warc)[own.url("/a")]["outcome"] == "fetched"


# ---------------------------------------------------------------------------- codings

def test_a_body_of_several_gzip_members_is_read_whole() -> None:
    body = page("Two members", "<p>first half</p>")
    half = len(body) // 2
    two = gzip.compress(body[:half]) + gzip.compress(body[half:])
    with Site({"/a": Route(200, (("Content-Type", "text/html"), ("Content-Encoding", "gzip")), two)}) as own:
        result = fetch(own.url("/a"), politeness=polite())
    assert result.ok and result.content == body


def test_a_brotli_bomb_stops_at_the_limit() -> None:
    brotli = pytest.importorskip("brotli")
    bomb = brotli.compress(b"<html><body>" + b" " * (200 << 20), quality=5)
    with Site({"/b": Route(200, (("Content-Type", "text/html"), ("Content-Encoding", "br")), bomb)}) as own:
        result = fetch(own.url("/b"), politeness=polite(max_bytes=1 << 20))
    assert result.outcome in ("too-large", "bad-encoding")


# ---------------------------------------------------------------------------- Ctrl-C

def fetch_command(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "detourage", "fetch", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env)


def allow_flag() -> list[str]:
    return ["--allow-private"] if "allow_private" in Politeness.__dataclass_fields__ else []


def wait_for(condition, limit: float) -> None:
    end = time.monotonic() + limit
    while not condition() and time.monotonic() < end:
        time.sleep(0.02)
    assert condition()


def test_after_a_first_ctrl_c_no_new_request_is_sent(tmp_path: Path) -> None:
    routes = {"/robots.txt": Route(200, TEXT, b"User-agent: *\nAllow: /\n", delay=2.0), "/a": html_page(1),
              "/next": html_page(2)}
    with Site(routes) as own:
        # one: two pages wait for their host's robots.txt (2 s) when Ctrl-C comes: robots.txt
        # ends and is logged, the pages are never requested (a resumed crawl fetches them)
        warc = tmp_path / "one.warc.gz"
        command = fetch_command(own.url("/a"), own.url("/next"), "-o", str(warc), "--delay", "0", "-w", "2",
                                *allow_flag())
        wait_for(lambda: own.requested("/robots.txt") == 1, 20)
        time.sleep(0.3)
        command.send_signal(signal.SIGINT)
        assert command.wait(15) == 130
        assert own.requested("/a") == own.requested("/next") == 0
        assert entries(warc) == {} and list(entries(warc, "robots"))


def test_a_second_ctrl_c_exits_now_and_the_log_stays_whole(tmp_path: Path) -> None:
    routes = {"/next": html_page(2), "/slower": Route(200, HTML, page("Slower", "<p>slower</p>"), delay=30.0)}
    with Site(routes) as own:
        # the 30 s page is abandoned, the log whole; a resumed crawl fetches what it lacks
        warc = tmp_path / "two.warc.gz"
        command = fetch_command(own.url("/slower"), own.url("/next"), "-o", str(warc), "--delay", "0", "-w", "1",
                                "--ignore-robots", *allow_flag())
        wait_for(lambda: own.requested("/slower") == 1, 20)
        command.send_signal(signal.SIGINT)
        time.sleep(0.3)
        started = time.monotonic()
        command.send_signal(signal.SIGINT)
        try:
            status = command.wait(5)
        finally:
            command.kill()
        assert status == 130 and time.monotonic() - started < 5
        assert all(line.endswith("}") for line in log_path(warc).read_text().splitlines())
        own.add("/slower", html_page(3))
        again = crawl([own.url("/slower"), own.url("/next")], out=warc, politeness=polite(robots=False))
        assert again.outcomes == {"fetched": 2}
