"""Fetching from the web (detourage.web, ``detourage fetch``, ``extract https://…``),
against a local server (tests/fetch_server.py) that logs every request: politeness,
outcomes, sitemaps and feeds, the WARC, the log and resuming."""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytest.importorskip("httpx", reason="fetching needs the fetch extra (httpx)")
pytest.importorskip("warcio", reason="fetching needs the fetch extra (warcio)")
pytest.importorskip("protego", reason="fetching needs the fetch extra (protego)")
pytest.importorskip("courlan", reason="fetching needs the fetch extra (courlan)")

from click.testing import CliRunner  # noqa: E402
from fetch_server import Route, Site, site_of_pages, standard_site  # noqa: E402
from warcio.archiveiterator import ArchiveIterator  # noqa: E402

from detourage.cli import main  # noqa: E402
from detourage.web import Fetcher, Politeness, crawl, feed_urls, fetch, log_path, sitemap_urls  # noqa: E402

#: fast but polite: robots.txt's Crawl-delay (0.2 s) still holds on the standard site
FAST = Politeness(allow_private=True, delay=0.0, timeout=1.5, retries=2, backoff=0.05)


@pytest.fixture(scope="module")
def site():
    with Site(standard_site()) as running:
        yield running


def log_entries(warc: Path) -> list[dict]:
    return [json.loads(line) for line in log_path(warc).read_text().splitlines()]


def warc_records(path: Path) -> list:
    with open(path, "rb") as stream:
        return [(r.rec_type, r.rec_headers, r.http_headers, r.content_stream().read())
                for r in ArchiveIterator(stream, check_digests="raise")]


# ---------------------------------------------------------------------------- one URL

@pytest.mark.parametrize(("path", "outcome", "status", "exchanges"), [
    ("/articles/1.html", "fetched", 200, 1),
    ("/private/secret.html", "robots", None, 0),
    ("/old-article", "fetched", 200, 2),
    ("/loop-a", "redirect-loop", 302, 2),
    ("/chain/0", "too-many-redirects", 302, 11),
    ("/slow", "timeout", None, 0),
    ("/huge", "too-large", None, 0),
    ("/bomb", "too-large", None, 0),
    ("/image.png", "content-type:image/png", None, 0),
    ("/doc.pdf", "content-type:application/pdf", None, 0),
    ("/no-type", "fetched", 200, 1),
    ("/dropped", "error:RemoteProtocolError", None, 0),
    ("/404-page", "status:404", 404, 1),
    ("/500", "status:500", 500, 1),
])
def test_every_fetch_ends_with_an_outcome(site, path, outcome, status, exchanges) -> None:
    with Fetcher(FAST) as fetcher:
        result = fetcher.fetch(site.url(path))
    assert (result.outcome, result.status, len(result.exchanges)) == (outcome, status, exchanges)
    assert result.ok == (outcome == "fetched")
    if result.ok:
        assert b"<html" in result.content.lower() and result.final_url.endswith(("/articles/1.html", "/no-type"))


def test_the_gzip_bomb_is_stopped_without_decoding_it(site) -> None:
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with Fetcher(Politeness(allow_private=True, delay=0, max_bytes=1 << 20)) as fetcher:
        assert fetcher.fetch(site.url("/bomb")).outcome == "too-large"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 * 1024  # KiB: far from 1 GiB


def test_429_and_503_wait_for_retry_after(site) -> None:
    with Fetcher(FAST) as fetcher:
        throttled = fetcher.fetch(site.url("/throttled"))
        unavailable = fetcher.fetch(site.url("/unavailable"))
        always = fetcher.fetch(site.url("/always-503"))
    assert throttled.outcome == unavailable.outcome == "fetched"
    assert always.outcome == "status:503"
    times = [r.time for r in site.requests if r.path == "/throttled"]
    assert len(times) == 2 and times[1] - times[0] >= 0.95  # Retry-After: 1
    assert site.requested("/always-503") == 1 + FAST.retries


def test_the_user_agent_is_sent_and_robots_read_once_per_host(site) -> None:
    with Fetcher(Politeness(allow_private=True, delay=0, user_agent="test-crawler/1.0")) as fetcher:
        before = site.requested("/robots.txt")
        for n in (2, 3):
            assert fetcher.fetch(site.url(f"/articles/{n}.html")).ok
    assert site.requested("/robots.txt") == before + 1
    assert site.requests[-1].headers["user-agent"] == "test-crawler/1.0"


def test_robots_txt_unreachable_disallows_and_missing_allows() -> None:
    with Site({"/robots.txt": Route(503), "/a": Route(200, (("Content-Type", "text/html"),), b"<p>a</p>")}) as down:
        assert fetch(down.url("/a"), politeness=Politeness(allow_private=True, delay=0, retries=0)).outcome == "robots"
        assert down.requested("/a") == 0
    with Site({"/a": Route(200, (("Content-Type", "text/html"),), b"<p>a</p>")}) as plain:  # robots.txt: 404
        assert fetch(plain.url("/a"), politeness=Politeness(allow_private=True, delay=0)).ok


# ---------------------------------------------------------------------------- sitemaps and feeds

def test_sitemaps_are_found_through_robots_txt_nested_and_gzipped(site) -> None:
    urls = list(sitemap_urls(site.url("/"), politeness=FAST))
    paths = [u.removeprefix(site.base) for u in urls]
    assert sorted(paths) == sorted([f"/articles/{n}.html" for n in range(1, 11)]
                                   + ["/private/secret.html", "/old-article"])
    assert len(urls) == len(set(urls))
    text = list(sitemap_urls(site.url("/sitemap.txt"), politeness=FAST))
    assert [u.removeprefix(site.base) for u in text] == [f"/articles/{n}.html" for n in (1, 2, 3)]


def test_feeds_are_read_or_found_from_a_page(site) -> None:
    announced = [u.removeprefix(site.base) for u in feed_urls(site.url("/"), politeness=FAST)]
    assert sorted(announced) == sorted(f"/articles/{n}.html" for n in (1, 2, 3, 11, 4, 5, 12))
    atom = [u.removeprefix(site.base) for u in feed_urls(site.url("/feed.atom"), politeness=FAST)]
    assert atom == ["/articles/4.html", "/articles/5.html", "/articles/12.html"]


# ---------------------------------------------------------------------------- crawls

def test_a_crawl_is_polite_logs_every_url_and_writes_a_valid_warc(site, tmp_path: Path) -> None:
    warc = tmp_path / "crawl.warc.gz"
    start = len(site.requests)
    extra = [site.url(p) for p in ("/image.png", "/404-page", "/loop-a", "/articles/1.html")]
    summary = crawl(extra, out=warc, sitemaps=[site.url("/")], feeds=[site.url("/feed.rss")],
                    politeness=Politeness(allow_private=True, delay=0.1, timeout=2, retries=0))
    requests = site.requests[start:]
    assert not any(r.path.startswith("/private/") for r in requests)  # disallowed: never asked
    times = sorted(r.time for r in requests)
    assert min(b - a for a, b in zip(times, times[1:])) >= 0.19  # one host: Crawl-delay 0.2 between requests
    pages = [e for e in log_entries(warc) if e["kind"] == "page"]
    planned = {site.url(f"/articles/{n}.html") for n in (*range(1, 12),)} | {
        site.url(p) for p in ("/private/secret.html", "/old-article", "/image.png", "/404-page", "/loop-a")}
    assert Counter(e["url"] for e in pages) == Counter(planned)  # every URL once, with its outcome
    outcomes = {e["url"].removeprefix(site.base): e["outcome"] for e in pages}
    assert outcomes["/private/secret.html"] == "robots" and outcomes["/image.png"] == "content-type:image/png"
    assert outcomes["/404-page"] == "status:404" and outcomes["/loop-a"] == "redirect-loop"
    assert summary.fetched == 12 and summary.outcomes["robots"] == 1
    kinds = {e["kind"] for e in log_entries(warc)}
    assert kinds == {"warcinfo", "robots", "sitemap", "feed", "page"}
    records = warc_records(warc)
    assert records[0][0] == "warcinfo"
    responses = [r for r in records if r[0] == "response"]
    requests_ = [r for r in records if r[0] == "request"]
    assert len(responses) == len(requests_) == sum(e["exchanges"] for e in pages)
    for _, headers, http, _ in responses:
        for name in ("WARC-Record-ID", "WARC-Date", "WARC-Target-URI", "WARC-Payload-Digest", "WARC-Block-Digest",
                     "WARC-IP-Address"):
            assert headers.get_header(name), name
    redirect = next(r for r in responses if r[1].get_header("WARC-Target-URI").endswith("/old-article"))
    assert redirect[2].get_statuscode() == "301"  # a redirect is a record of its own
    concurrent = {r[1].get_header("WARC-Concurrent-To") for r in requests_}
    assert concurrent == {r[1].get_header("WARC-Record-ID") for r in responses}


def test_the_corpus_run_reads_the_warc_one_row_per_html_response(site, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="the corpus run needs pyarrow")
    warc = tmp_path / "crawl.warc.gz"
    crawl([site.url(p) for p in ("/image.png", "/404-page", "/old-article", "/no-type")], out=warc,
          sitemaps=[site.url("/sitemap-b.xml.gz")], politeness=Politeness(allow_private=True, delay=0, timeout=2))
    fetched = [e for e in log_entries(warc) if e["kind"] == "page" and e["outcome"] == "fetched"]
    result = CliRunner().invoke(main, ["extract", "--allow-private", str(warc), "-o", str(tmp_path / "run"), "--to", "parquet"])
    assert result.exit_code == 0, result.output
    table = pq.read_table(tmp_path / "run" / "shards")
    rows = [r for r in table.to_pylist() if not r["error"]]
    assert len(rows) == len(fetched) == 5
    assert sorted(r["url"] for r in rows) == sorted(e["final_url"] for e in fetched)
    assert all(r["text"] for r in rows)


def test_a_stopped_crawl_resumes_and_requests_nothing_twice(tmp_path: Path) -> None:
    pages = {f"/p/{n}.html": f"<html><body><h1>Page {n}</h1><p>Text of page {n}.</p></body></html>".encode()
             for n in range(30)}
    warc = tmp_path / "crawl.warc.gz"
    with Site(site_of_pages(pages, per_sitemap=10)) as own:
        stop = threading.Event()
        seen = []

        def on_page(result) -> None:
            seen.append(result.url)
            if len(seen) == 8:
                stop.set()

        first = crawl(out=warc, sitemaps=[own.url("/")], politeness=Politeness(allow_private=True, delay=0), workers=2,
                      on_page=on_page, stop=stop)
        assert 8 <= first.fetched < 30
        with open(warc, "ab") as stream:  # a record the stopped crawl left half-written
            stream.write(gzip.compress(b"WARC/1.1\r\nWARC-Type: response\r\n")[:20])
        second = crawl(out=warc, sitemaps=[own.url("/")], politeness=Politeness(allow_private=True, delay=0), workers=2)
        assert second.resumed == first.fetched and first.fetched + second.fetched == 30
        counts = Counter(r.path for r in own.requests)
        assert max(counts.values()) == 1, [p for p, n in counts.items() if n > 1]
    responses = [r for r in warc_records(warc) if r[0] == "response"]
    assert sorted(r[1].get_header("WARC-Target-URI").removeprefix(own.base) for r in responses) == sorted(pages)


def test_retry_failed_fetches_again_what_may_pass(tmp_path: Path) -> None:
    html = (("Content-Type", "text/html"),)
    warc = tmp_path / "crawl.warc.gz"
    with Site({"/down": Route(503), "/gone": Route(404), "/fine": Route(200, html, b"<p>fine</p>")}) as own:
        urls = [own.url(p) for p in ("/down", "/gone", "/fine")]
        polite = Politeness(allow_private=True, delay=0, retries=0)
        first = crawl(urls, out=warc, politeness=polite)
        assert first.outcomes == {"status:503": 1, "status:404": 1, "fetched": 1}
        own.add("/down", Route(200, html, b"<p>back</p>"))
        assert crawl(urls, out=warc, politeness=polite).resumed == 3 and own.requested("/down") == 1
        again = crawl(urls, out=warc, politeness=polite, retry_failed=True)
        assert again.outcomes == {"fetched": 1} and again.resumed == 2
        assert (own.requested("/down"), own.requested("/gone"), own.requested("/fine")) == (2, 1, 1)
    last = {e["url"]: e["outcome"] for e in log_entries(warc) if e["kind"] == "page"}
    assert last[own.url("/down")] == "fetched"


def linked_site(pages: int = 12) -> dict[str, Route]:
    """Pages in a chain and a tree: each page links the next two, an image, another host,
    a nofollow link and a disallowed page; one page says robots nofollow."""
    html = (("Content-Type", "text/html"),)

    def body(n: int) -> bytes:
        links = "".join(f'<a href="/p/{k}.html">page {k}</a> ' for k in (n + 1, n + 2) if k < pages)
        meta = '<meta name="robots" content="noindex, nofollow">' if n == 5 else ""
        return (f"<html><head>{meta}</head><body><h1>Page {n}</h1><p>Text of page {n}.</p>{links}"
                f'<a href="/img/{n}.jpg">photo</a> <a href="http://elsewhere.example/x">away</a> '
                f'<a href="/hidden/{n}.html" rel="nofollow">hidden</a> <a href="/private/{n}.html">private</a>'
                f"</body></html>").encode()

    routes = {f"/p/{n}.html": Route(200, html, body(n)) for n in range(pages)}
    routes["/robots.txt"] = Route(200, (("Content-Type", "text/plain"),), b"User-agent: *\nDisallow: /private/\n")
    return routes


def test_crawl_follows_links_on_the_host_within_the_budget(tmp_path: Path) -> None:
    with Site(linked_site()) as own:
        summary = crawl(out=tmp_path / "all.warc.gz", follow=[own.url("/p/0.html")], politeness=Politeness(allow_private=True, delay=0))
        paths = {r.path for r in own.requests}
        # page 5 says nofollow: pages 6 and 7 are still reached through page 4 and 6
        assert {f"/p/{n}.html" for n in range(12)} <= paths
        assert not any(p.startswith(("/img/", "/hidden/", "/private/")) for p in paths)
        # /private/N: logged as robots, never asked; page 5's own links are not followed
        assert summary.fetched == 12 and summary.outcomes["robots"] == 11
        small = crawl(out=tmp_path / "small.warc.gz", follow=[own.url("/p/0.html")], max_pages=4,
                      politeness=Politeness(allow_private=True, delay=0))
        assert sum(small.outcomes.values()) == 4
    entries = [e for e in log_entries(tmp_path / "all.warc.gz") if e["kind"] == "page"]
    assert all("links" in e for e in entries)
    assert next(e for e in entries if e["url"].endswith("/p/5.html"))["links"] == []  # robots nofollow


def test_a_stopped_link_crawl_resumes_its_frontier_from_the_log(tmp_path: Path) -> None:
    warc = tmp_path / "crawl.warc.gz"
    with Site(linked_site(20)) as own:
        stop = threading.Event()
        seen = []

        def on_page(result) -> None:
            seen.append(result.url)
            if len(seen) == 5:
                stop.set()

        start = [own.url("/p/0.html")]
        first = crawl(out=warc, follow=start, politeness=Politeness(allow_private=True, delay=0), workers=1, on_page=on_page, stop=stop)
        assert sum(first.outcomes.values()) == 5
        crawl(out=warc, follow=start, politeness=Politeness(allow_private=True, delay=0), workers=2)
        counts = Counter(r.path for r in own.requests)
        assert {f"/p/{n}.html" for n in range(20)} <= set(counts)
        assert max(counts.values()) == 1, [p for p, n in counts.items() if n > 1]


def test_the_crawl_tells_how_many_hosts_still_have_pages_waiting(tmp_path: Path) -> None:
    """Issue 42 §3: each page's progress counts the pages queued and not yet ended, and
    their hosts: the second site's pages, held by its delay, wait after the first is done."""
    def pages(name: str, count: int) -> dict[str, bytes]:
        return {f"/{name}/{n}.html": f"<html><body><p>Page {n} of {name}.</p></body></html>".encode()
                for n in range(count)}

    told = []
    with Site(site_of_pages(pages("a", 1))) as one, Site(site_of_pages(pages("b", 3))) as three:
        urls = [one.url("/a/0.html")] + [three.url(f"/b/{n}.html") for n in range(3)]
        summary = crawl(urls, out=tmp_path / "two.warc.gz", politeness=Politeness(allow_private=True, delay=0.2),
                        workers=4, on_progress=told.append)
    waiting = Counter(urlsplit(u).netloc for u in urls)
    for progress in told:  # in the order the pages ended
        waiting -= Counter({urlsplit(progress.page.url).netloc: 1})
        assert (progress.pages_waiting, progress.hosts_waiting) == (sum(waiting.values()), len(waiting))
    assert [p.pages_waiting for p in told] == [3, 2, 1, 0]
    assert any(p.hosts_waiting == 1 and p.page.url.startswith(three.base) for p in told)  # b's delay holds it
    assert told[-1].outcomes == summary.outcomes == Counter(fetched=4)


def test_a_warc_without_its_log_is_not_overwritten(site, tmp_path: Path) -> None:
    warc = tmp_path / "other.warc.gz"
    warc.write_bytes(b"not mine")
    result = CliRunner().invoke(main, ["fetch", "--allow-private", site.url("/articles/1.html"), "-o", str(warc)])
    assert result.exit_code == 2 and "says nothing of it" in result.output
    assert warc.read_bytes() == b"not mine"


# ---------------------------------------------------------------------------- command line

def test_fetch_command(site, tmp_path: Path) -> None:
    warc = tmp_path / "cli.warc.gz"
    result = CliRunner().invoke(main, ["fetch", "--allow-private", "--feed", site.url("/feed.atom"), site.url("/articles/9.html"),
                                       "-o", str(warc), "--delay", "0", "--user-agent", "cli-test/2"])
    assert result.exit_code == 0, result.output
    assert "4 pages fetched into" in result.output and "outcomes: fetched 4" in result.output
    assert site.requests[-1].headers["user-agent"] == "cli-test/2"
    again = CliRunner().invoke(main, ["fetch", "--allow-private", "--feed", site.url("/feed.atom"), site.url("/articles/9.html"),
                                      "-o", str(warc), "--delay", "0"])
    assert "0 pages fetched" in again.output and "already in the log: 4" in again.output


@pytest.mark.parametrize(("args", "message"), [
    (["http://x.example/a", "-o", "out.warc"], "a .warc.gz file"),
    (["ftp://x.example/a", "-o", "out.warc.gz"], "not an http(s) URL"),
    (["-o", "out.warc.gz"], "nothing to fetch"),
    (["http://x.example/a", "-o", "out.warc.gz", "--delay", "-1"], "--delay"),
])
def test_fetch_refusals(args, message, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["fetch", "--allow-private", *args])
    assert result.exit_code == 2 and message in result.output


def test_extract_a_url_in_memory_and_save_it(site, tmp_path: Path) -> None:
    saved = tmp_path / "saved.warc.gz"
    result = CliRunner().invoke(main, ["extract", "--allow-private", site.url("/old-article"), "--save", str(saved),
                                       "-f", "json", "--with-metadata"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["url"] == site.url("/articles/1.html")  # the final URL, for links and metadata
    assert record["metadata"]["title"] == "Article 1: tidal power"
    text = record["text"]
    assert "Report number 1 looks at tidal power" in text and "All rights reserved" not in text
    assert sum(1 for r in warc_records(saved) if r[0] == "response") == 2  # the redirect and the page
    refused = CliRunner().invoke(main, ["extract", "--allow-private", site.url("/private/secret.html")])
    assert refused.exit_code == 2 and "robots" in refused.output
    run = CliRunner().invoke(main, ["extract", "--allow-private", site.url("/articles/1.html"), "-o", str(tmp_path / "r"),
                                    "--to", "parquet"])
    assert run.exit_code == 2 and "detourage fetch" in run.output


def test_library_fetch_gives_bytes_and_headers(site) -> None:
    page = fetch(site.url("/articles/2.html"), politeness=FAST)
    assert page.ok and page.header("Content-Type").startswith("text/html")
    assert page.content.startswith(b"<!doctype html>") and b"Article 2" in page.content


# ---------------------------------------------------------------------------- hostile servers

@pytest.fixture
def raw_server():
    """A raw-socket server: path → handler(connection), for answers http.server cannot give
    (headers sent one byte at a time)."""
    import socket

    handlers = {}
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                continue
            request = connection.recv(4096).decode("latin-1")
            path = request.split(" ")[1] if " " in request else "/"
            handler = handlers.get(path)
            threading.Thread(target=lambda c=connection, h=handler: _answer(c, h), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}", handlers
    done.set()
    thread.join()
    listener.close()


def _answer(connection, handler) -> None:
    try:
        if handler is None:
            connection.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        else:
            handler(connection)
    except OSError:
        pass
    finally:
        connection.close()


def test_a_response_whose_headers_drip_ends_at_the_timeout(raw_server) -> None:
    base, handlers = raw_server

    def drip(connection) -> None:
        connection.sendall(b"HTTP/1.1 200 OK\r\n")
        for _ in range(40):  # one header byte every 0.25 s: no single read waits 1 s
            connection.sendall(b"X")
            time.sleep(0.25)

    handlers["/drip"] = drip
    started = time.monotonic()
    result = fetch(base + "/drip", politeness=Politeness(allow_private=True, delay=0, robots=False, timeout=1.0))
    assert result.outcome == "timeout" and time.monotonic() - started < 3


def test_bad_answers_are_outcomes_and_the_crawl_goes_on(tmp_path: Path) -> None:
    routes = {"/bad": Route(302, (("Location", "http://[oops/"),)),
              "/ra": Route(503, (("Retry-After", "²"),)),
              "/ok": Route(200, (("Content-Type", "text/html"),), b"<p>fine</p>")}
    with Site(routes) as own:
        summary = crawl([own.url(p) for p in ("/bad", "/ra", "/ok")], out=tmp_path / "c.warc.gz", workers=1,
                        politeness=Politeness(allow_private=True, delay=0, retries=1, backoff=0.05))
    assert summary.outcomes == {"bad-redirect": 1, "status:503": 1, "fetched": 1}


def test_retry_after_holds_the_whole_host(tmp_path: Path) -> None:
    html = (("Content-Type", "text/html"),)
    routes = {"/busy": Route(sequence=(Route(503, (("Retry-After", "1"),)), Route(200, html, b"<p>ok</p>"))),
              **{f"/p{n}": Route(200, html, b"<p>p</p>") for n in range(4)}}
    with Site(routes) as own:
        crawl([own.url(p) for p in ("/busy", "/p0", "/p1", "/p2", "/p3")], out=tmp_path / "c.warc.gz", workers=2,
              politeness=Politeness(allow_private=True, delay=0.1))
        first = next(r.time for r in own.requests if r.path == "/busy")
        assert not [r.path for r in own.requests if first < r.time < first + 0.95]


def test_a_crawl_delay_beyond_the_limit_is_an_outcome(tmp_path: Path) -> None:
    routes = {"/robots.txt": Route(200, (("Content-Type", "text/plain"),), b"User-agent: *\nCrawl-delay: 100000\n"),
              "/a": Route(200, (("Content-Type", "text/html"),), b"<p>a</p>")}
    with Site(routes) as own:
        started = time.monotonic()
        summary = crawl([own.url("/a")], out=tmp_path / "c.warc.gz", politeness=Politeness(allow_private=True, delay=0))
        assert summary.outcomes == {"crawl-delay": 1} and own.requested("/a") == 0
        assert time.monotonic() - started < 5


def test_stop_ends_a_wait_at_once_and_the_page_is_left_for_the_resume(tmp_path: Path) -> None:
    html = (("Content-Type", "text/html"),)
    with Site({f"/p{n}": Route(200, html, b"<p>p</p>") for n in range(3)}) as own:
        stop = threading.Event()
        threading.Timer(0.5, stop.set).start()
        started = time.monotonic()
        summary = crawl([own.url(f"/p{n}") for n in range(3)], out=tmp_path / "c.warc.gz", stop=stop,
                        politeness=Politeness(allow_private=True, delay=30))
        # robots.txt took the host's first turn; the first page waited 30 s for the next: cut short
        assert time.monotonic() - started < 3 and summary.outcomes == {}
        assert [e["kind"] for e in log_entries(tmp_path / "c.warc.gz")] == ["warcinfo", "robots"]
        again = crawl([own.url(f"/p{n}") for n in range(3)], out=tmp_path / "c.warc.gz",
                      politeness=Politeness(allow_private=True, delay=0))
        assert again.fetched == 3 and own.requested("/robots.txt") == 1


def test_cleaned_urls_keep_distinct_pages_distinct() -> None:
    from detourage.web.discover import _clean

    base = "http://forum.example/"
    pages = ["showthread.php?101-Some-Title", "showthread.php?102-Some-Title", "index.php?/archives/7-post.html",
             "x.pl?action=view;id=3", "page?cid=9", "page?ref=home", "Path/Case.html?x"]
    cleaned = [_clean(p, base) for p in pages]
    assert cleaned == [base + p for p in pages]
    assert _clean("HTTP://Forum.Example/a?utm_source=x&b=1&fbclid=y#top", base) == "http://forum.example/a?b=1"
    assert _clean("http://[oops/", base) is None and _clean("mailto:a@b.c", base) is None


def test_resuming_survives_a_cut_log_line_a_short_warc_and_a_lost_one(tmp_path: Path) -> None:
    from detourage.errors import RunError

    html = (("Content-Type", "text/html"),)
    with Site({"/a": Route(200, html, b"<p>a</p>"), "/b": Route(200, html, b"<p>b</p>")}) as own:
        warc = tmp_path / "c.warc.gz"
        crawl([own.url("/a")], out=warc, politeness=Politeness(allow_private=True, delay=0))
        with open(log_path(warc), "a") as log:
            log.write('{"kind": "page", "url": "' + own.url("/b") + '", "outc')  # cut by a kill
        crawl([own.url("/a"), own.url("/b")], out=warc, politeness=Politeness(allow_private=True, delay=0))
        assert [json.loads(line)["kind"] for line in log_path(warc).read_text().splitlines()][-1] == "page"
        third = crawl([own.url("/a"), own.url("/b")], out=warc, politeness=Politeness(allow_private=True, delay=0))
        assert third.resumed == 2 and own.requested("/b") == 1
        data = warc.read_bytes()
        warc.write_bytes(data[:-100])
        with pytest.raises(RunError, match="shorter"):
            crawl([own.url("/a")], out=warc)
        warc.unlink()
        with pytest.raises(RunError, match="gone or empty"):
            crawl([own.url("/a")], out=warc)


def test_a_robots_txt_unread_once_is_read_again_on_retry(tmp_path: Path) -> None:
    html = (("Content-Type", "text/html"),)
    robots = Route(sequence=(Route(200, (("Content-Type", "text/plain"),), b"", delay=3.0),
                             Route(200, (("Content-Type", "text/plain"),), b"User-agent: *\nAllow: /\n")))
    with Site({"/robots.txt": robots, "/a": Route(200, html, b"<p>a</p>")}) as own:
        warc = tmp_path / "c.warc.gz"
        first = crawl([own.url("/a")], out=warc, politeness=Politeness(allow_private=True, delay=0, timeout=1))
        assert first.outcomes == {"timeout": 1}
        again = crawl([own.url("/a")], out=warc, retry_failed=True, politeness=Politeness(allow_private=True, delay=0, timeout=1))
        assert again.outcomes == {"fetched": 1} and own.requested("/robots.txt") == 2


def test_a_robots_txt_over_the_page_limit_is_cut_not_refused() -> None:
    rules = b"User-agent: *\nDisallow: /private/\n" + b"# filler line of a long robots.txt\n" * 6000
    routes = {"/robots.txt": Route(200, (("Content-Type", "text/plain"),), rules),
              "/a": Route(200, (("Content-Type", "text/html"),), b"<p>a</p>"),
              "/private/x": Route(200, (("Content-Type", "text/html"),), b"<p>x</p>")}
    with Site(routes) as own:
        polite = Politeness(allow_private=True, delay=0, max_bytes=50_000)
        assert fetch(own.url("/a"), politeness=polite).ok
        assert fetch(own.url("/private/x"), politeness=polite).outcome == "robots"


def test_a_urls_file_with_a_byte_order_mark(site, tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text("\ufeff" + site.url("/articles/3.html") + "\n\n# a comment\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["fetch", "--allow-private", "--urls", str(urls), "-o", str(tmp_path / "u.warc.gz"),
                                       "--delay", "0"])
    assert result.exit_code == 0 and "1 page fetched" in result.output


def test_ignoring_robots_still_finds_its_sitemaps(site) -> None:
    urls = list(sitemap_urls(site.url("/"), politeness=Politeness(allow_private=True, delay=0, robots=False)))
    assert site.url("/private/secret.html") in urls and len(urls) == 12
