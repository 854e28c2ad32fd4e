"""A local HTTP/1.1 server that serves a scripted site and logs every request, for the
fetcher's tests and benchmark.

    with Site(standard_site()) as site:
        crawl(site.url("/"))
        assert site.requested("/private/secret.html") == 0

A :class:`Route` scripts one response: status, headers, body, and the faults a fetcher
must survive (a slow answer, a connection dropped mid-body, a huge streamed body, a
429/503 sequence). Any path without a route answers 404.

Bodies are templates: the text ``{base}`` (:data:`BASE`) in a bytes body or a header
value is replaced, when served, by the running site's base (``http://127.0.0.1:PORT``),
so a route table can name absolute URLs before the port is known. A callable body is
built on demand (once, if it caches itself) and served as it is, without substitution.

The server is stdlib only: a :class:`~http.server.ThreadingHTTPServer` on 127.0.0.1 (a
free port, one daemon thread per connection) run by a background thread. Leaving the
``with`` block wakes slow responses, closes open connections and stops the server
within a fraction of a second.
"""

from __future__ import annotations

import base64
import gzip
import itertools
import socket
import socketserver
import struct
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from email.message import Message
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from xml.sax.saxutils import escape

#: the placeholder for the site's base URL in bodies and header values
BASE = "{base}"
HOST = "127.0.0.1"


@dataclass(frozen=True)
class Route:
    """One scripted response.

    ``body`` is bytes (a ``{base}`` template) or a callable returning the bytes.
    ``delay`` seconds pass before the answer (a slow server). ``drop_after`` declares the
    full Content-Length but closes the connection after that many body bytes. ``stream``
    serves an HTML body of that many bytes made in chunks, never held in memory (``body``
    is then ignored). ``gzip`` compresses the body when served (a ``.xml.gz`` file, not
    a Content-Encoding). A non-empty ``sequence`` replaces all of this: the n-th request of
    the path gets ``sequence[n]``, and the last one repeats.
    """

    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes | Callable[[], bytes] = b""
    delay: float = 0.0
    drop_after: int | None = None
    stream: int | None = None
    gzip: bool = False
    sequence: tuple[Route, ...] = ()


@dataclass(frozen=True)
class Request:
    """One logged request: when it arrived (``time.monotonic()``), its method, its path
    with the query string, and its headers (names in lower case)."""

    time: float
    method: str
    path: str
    headers: dict[str, str]


HTML = (("Content-Type", "text/html; charset=utf-8"),)
TEXT = (("Content-Type", "text/plain; charset=utf-8"),)
XML = (("Content-Type", "application/xml"),)
GZIP = (("Content-Type", "application/x-gzip"),)
NOT_FOUND = Route(404, TEXT, b"not found\n")


class Site:
    """The scripted site, served while inside a ``with`` block.

    ``routes`` maps a path (without query string) to its :class:`Route`; none means an
    empty site, where every path is a 404. ``base`` is known once the site has started.
    """

    def __init__(self, routes: Mapping[str, Route] | None = None) -> None:
        self.routes: dict[str, Route] = dict(routes or {})
        self.requests: list[Request] = []
        self.base = ""
        self.closing = threading.Event()  # set on exit: wakes the slow responses
        self._lock = threading.Lock()
        self._served: dict[str, int] = {}
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Site:
        self._server = _Server(self)
        self.base = f"http://{HOST}:{self._server.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        name=f"fetch-server-{self._server.port}", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        assert self._server is not None and self._thread is not None, "the site never started"
        self.closing.set()
        self._server.shutdown()
        self._server.close_connections()
        self._server.server_close()
        self._thread.join()

    def url(self, path: str) -> str:
        """The absolute URL of ``path`` on this site."""
        return self.base + path

    def requested(self, path: str) -> int:
        """How many requests asked for ``path`` exactly (query string included)."""
        with self._lock:
            return sum(1 for request in self.requests if request.path == path)

    def add(self, path: str, route: Route) -> None:
        """Serve ``route`` at ``path`` from now on."""
        with self._lock:
            self.routes[path] = route

    def record(self, method: str, path: str, headers: Message) -> None:
        """Log one request (called by the handler as soon as its headers are read)."""
        names = {name.lower(): value for name, value in headers.items()}
        with self._lock:
            self.requests.append(Request(time.monotonic(), method, path, names))

    def route_for(self, path: str) -> Route:
        """The route answering ``path`` now: its query string is ignored, and a sequence
        advances by one."""
        key = path.partition("?")[0]
        with self._lock:
            route = self.routes.get(key, NOT_FOUND)
            if not route.sequence:
                return route
            turn = self._served.get(key, 0)
            self._served[key] = turn + 1
        return route.sequence[min(turn, len(route.sequence) - 1)]

    def render(self, text: bytes) -> bytes:
        """``text`` with ``{base}`` replaced by this site's base."""
        return text.replace(BASE.encode(), self.base.encode())


class _Server(ThreadingHTTPServer):
    """The threaded server, which knows its site and its open connections, and stays
    quiet when a client goes away."""

    daemon_threads = True
    block_on_close = False  # a handler stuck in a write must not hold up the exit
    request_queue_size = 128  # the benchmark opens many connections at once

    def __init__(self, site: Site) -> None:
        self.site = site
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()
        super().__init__((HOST, 0), _Handler)

    @property
    def port(self) -> int:
        """The free port the system gave."""
        return int(self.socket.getsockname()[1])

    def server_bind(self) -> None:
        # HTTPServer.server_bind asks the resolver for the host's full name: slow on some
        # machines, and nothing here needs it
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = HOST, self.port

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._connections_lock:
            self._connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._connections_lock:
            self._connections.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """Shut every open connection, so that idle keep-alive handlers end too."""
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # the client closed it already

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away, or any error while closing, is no news; print the rest."""
        if isinstance(sys.exc_info()[1], ConnectionError) or self.site.closing.is_set():
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    """Answers each GET from the site's route for its path."""

    protocol_version = "HTTP/1.1"
    server: _Server

    def do_GET(self) -> None:
        site = self.server.site
        site.record(self.command, self.path, self.headers)
        route = site.route_for(self.path)
        if route.delay and site.closing.wait(route.delay):
            self.close_connection = True  # the site is closing: leave without an answer
            return
        length, chunks = _payload(route, site)
        self._send_head(route, length)
        self._write(chunks, length if route.drop_after is None else min(route.drop_after, length))
        if route.drop_after is not None:
            self.close_connection = True

    def _send_head(self, route: Route, length: int) -> None:
        self.send_response(route.status)
        for name, value in route.headers:
            self.send_header(name, value.replace(BASE, self.server.site.base))
        self.send_header("Content-Length", str(length))
        self.end_headers()

    def _write(self, chunks: Iterable[bytes], limit: int) -> None:
        """Write the first ``limit`` bytes of ``chunks``."""
        for chunk in chunks:
            if limit <= 0:
                return
            self.wfile.write(chunk[:limit])
            limit -= len(chunk)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: :attr:`Site.requests` is the log."""


def _payload(route: Route, site: Site) -> tuple[int, Iterable[bytes]]:
    """The declared length of the route's body and its chunks."""
    if route.stream is not None:
        return route.stream, _filler()
    body = route.body() if callable(route.body) else site.render(route.body)
    if route.gzip:
        body = gzip.compress(body, mtime=0)
    return len(body), (body,)


_FILLER_HEAD = b"<!doctype html><html><head><title>Huge</title></head><body>\n"
_FILLER_LINE = b"<p>One more paragraph of a page that never seems to end.</p>\n"


def _filler() -> Iterable[bytes]:
    """An endless HTML page in chunks of about 64 KiB; the writer cuts it."""
    return itertools.chain((_FILLER_HEAD,), itertools.repeat(_FILLER_LINE * 1000))


#: how the gzip bomb's decoded bytes begin (the rest are spaces, up to 1 GiB)
BOMB_HEAD = b"<!doctype html><html><body>"
BOMB_SIZE = 1 << 30


@cache
def gzip_bomb() -> bytes:
    """A gzip member that expands to :data:`BOMB_SIZE` bytes (``BOMB_HEAD`` then
    spaces), about 1 MB compressed; built once, when first asked.

    Compressing 1 GiB takes seconds, so each MiB of spaces is compressed once and its
    deflate blocks repeated: after a full flush the compressor starts afresh, so every
    later MiB would compress to the same bytes.
    """
    spaces = b" " * (1 << 20)
    first = BOMB_HEAD + spaces[len(BOMB_HEAD):]
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = deflate.compress(first) + deflate.flush(zlib.Z_FULL_FLUSH)
    block = deflate.compress(spaces) + deflate.flush(zlib.Z_FULL_FLUSH)
    count = BOMB_SIZE // len(spaces) - 1
    crc = zlib.crc32(first)
    for _ in range(count):
        crc = zlib.crc32(spaces, crc)
    member_head = struct.pack("<4sIBB", b"\x1f\x8b\x08\x00", 0, 2, 255)
    trailer = struct.pack("<II", crc, BOMB_SIZE & 0xFFFFFFFF)
    return b"".join((member_head, head, block * count, deflate.flush(), trailer))


# -- the standard site ----------------------------------------------------------------

SITE_NAME = "Example Gazette"
TOPICS = ("tidal power", "urban beekeeping", "sourdough baking", "night trains",
          "glacier retreat", "open-source maps", "harbour seals", "letterpress printing",
          "solar kilns", "chess endgames", "river restoration", "vintage radios")
FEED_LINKS = ('<link rel="alternate" type="application/rss+xml" href="/feed.rss">'
              '<link rel="alternate" type="application/atom+xml" href="/feed.atom">')


def standard_site() -> dict[str, Route]:
    """The site the fetcher's tests crawl: home page, articles 1-12, robots.txt,
    sitemaps (nested, gzipped, plain text), feeds, redirects, faults and odd types."""
    return {**_pages(), **_discovery(), **_redirects(), **_faults(), **_odd_types()}


def page(title: str, body: str, head: str = "") -> bytes:
    """A small but complete HTML page: nav, the body in ``<main>``, footer."""
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{title}</title>{head}</head>\n<body>\n"
            f'<nav><a href="/">Home</a> | <a href="/articles/1.html">Latest</a></nav>\n'
            f"<main>\n<h1>{title}</h1>\n{body}\n</main>\n"
            f"<footer><p>{SITE_NAME}, a test site. All rights reserved.</p></footer>\n"
            f"</body></html>\n").encode()


def article(n: int) -> bytes:
    """Article ``n``: four paragraphs of text of its own, about ``TOPICS[n - 1]``."""
    topic = TOPICS[(n - 1) % len(TOPICS)]
    paragraphs = (
        f"Report number {n} looks at {topic}, the subject our readers asked about more "
        f"than any other this season. The story begins with the people who gave years to it.",
        f"The second part of article {n} follows a small team that works on {topic} every "
        f"day. They describe the slow progress, the setbacks and the rare good mornings.",
        f"Experts interviewed for piece {n} disagree about what {topic} will look like in "
        f"ten years, but all of them say the next two years will decide much of it.",
        f"This closes article {n}. Further reading on {topic} is in our archive, and "
        f"letters from readers will appear in a later issue.",
    )
    body = "\n".join(f"<p>{text}</p>" for text in paragraphs)
    return page(f"Article {n}: {topic}", body)


def _pages() -> dict[str, Route]:
    """The home page, the twelve articles and the private page."""
    links = "\n".join(f'<li><a href="/articles/{n}.html">Article {n}</a></li>' for n in range(1, 6))
    home = page(SITE_NAME, f"<p>Today's stories.</p>\n<ul>\n{links}\n</ul>", head=FEED_LINKS)
    routes = {"/": Route(200, HTML, home)}
    routes |= {f"/articles/{n}.html": Route(200, HTML, article(n)) for n in range(1, 13)}
    routes["/private/secret.html"] = Route(200, HTML, page("Staff only", "<p>Not for robots.</p>"))
    return routes


def urlset(paths: Iterable[str]) -> bytes:
    """A sitemap listing ``{base}`` + each path."""
    urls = "".join(f"<url><loc>{escape(BASE + path)}</loc></url>\n" for path in paths)
    return _sitemap_xml("urlset", urls)


def sitemap_index(paths: Iterable[str]) -> bytes:
    """A sitemap index listing the sitemaps ``{base}`` + each path."""
    sitemaps = "".join(f"<sitemap><loc>{escape(BASE + path)}</loc></sitemap>\n" for path in paths)
    return _sitemap_xml("sitemapindex", sitemaps)


def _sitemap_xml(root: str, entries: str) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<{root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{entries}</{root}>\n").encode()


def _articles(*numbers: int) -> list[str]:
    return [f"/articles/{n}.html" for n in numbers]


def _discovery() -> dict[str, Route]:
    """robots.txt, the sitemap tree and the feeds."""
    robots = (f"User-agent: *\nDisallow: /private/\nCrawl-delay: 0.2\n\n"
              f"Sitemap: {BASE}/sitemap_index.xml\n").encode()
    return {
        "/robots.txt": Route(200, TEXT, robots),
        "/sitemap_index.xml": Route(200, XML, sitemap_index(
            ["/sitemap-a.xml", "/sitemap-b.xml.gz", "/sitemap-nested.xml"])),
        "/sitemap-a.xml": Route(200, XML, urlset(
            _articles(1, 2, 3, 4, 5) + ["/private/secret.html", "/old-article"])),
        "/sitemap-b.xml.gz": Route(200, GZIP, urlset(_articles(6, 7, 8)), gzip=True),
        "/sitemap-nested.xml": Route(200, XML, sitemap_index(["/sitemap-c.xml"])),
        "/sitemap-c.xml": Route(200, XML, urlset(_articles(9, 10))),
        "/sitemap.txt": Route(200, TEXT, "".join(
            f"{BASE}{path}\n" for path in _articles(1, 2, 3)).encode()),
        "/feed.rss": Route(200, (("Content-Type", "application/rss+xml"),),
                           rss(_articles(1, 2, 3, 11))),
        "/feed.atom": Route(200, (("Content-Type", "application/atom+xml"),),
                            atom(_articles(4, 5, 12))),
    }


def rss(paths: Iterable[str]) -> bytes:
    """An RSS 2.0 feed with one item per path."""
    items = "".join(f"<item><title>{path}</title><link>{BASE}{path}</link>"
                    f"<guid>{BASE}{path}</guid></item>\n" for path in paths)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>\n'
            f"<title>{SITE_NAME}</title><link>{BASE}/</link><description>News</description>\n"
            f"{items}</channel></rss>\n").encode()


def atom(paths: Iterable[str]) -> bytes:
    """An Atom 1.0 feed with one entry per path."""
    updated = "<updated>2026-01-01T00:00:00Z</updated>"
    entries = "".join(f'<entry><title>{path}</title><link href="{BASE}{path}"/>'
                      f"<id>{BASE}{path}</id>{updated}</entry>\n" for path in paths)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<feed xmlns="http://www.w3.org/2005/Atom"><title>{SITE_NAME}</title>'
            f"<id>{BASE}/</id>{updated}\n{entries}</feed>\n").encode()


def redirect(status: int, location: str) -> Route:
    """A redirect with an empty body."""
    return Route(status, (("Location", location),))


def _redirects() -> dict[str, Route]:
    """A 301 with an absolute Location, a two-step loop, and a chain of 30 (relative)."""
    routes = {
        "/old-article": redirect(301, f"{BASE}/articles/1.html"),
        "/loop-a": redirect(302, "/loop-b"),
        "/loop-b": redirect(302, "/loop-a"),
        "/chain/30": Route(200, HTML, page("End of the chain", "<p>Thirty hops later.</p>")),
    }
    routes |= {f"/chain/{n}": redirect(302, f"/chain/{n + 1}") for n in range(30)}
    return routes


def _faults() -> dict[str, Route]:
    """Slow, throttled, unavailable, failing, huge, explosive and cut-off responses."""
    def later(status: int) -> Route:
        return Route(status, (("Retry-After", "1"),) + TEXT, b"try again later\n")

    def fine(title: str) -> Route:
        return Route(200, HTML, page(title, f"<p>The {title.lower()} page, served at last.</p>"))

    return {
        "/slow": Route(200, HTML, page("Slow", "<p>Worth the wait.</p>"), delay=10.0),
        "/throttled": Route(sequence=(later(429), fine("Throttled"))),
        "/unavailable": Route(sequence=(later(503), later(503), fine("Unavailable"))),
        "/always-503": later(503),
        "/huge": Route(200, HTML, stream=50_000_000),
        "/bomb": Route(200, (("Content-Type", "text/html"), ("Content-Encoding", "gzip")),
                       gzip_bomb),
        "/dropped": Route(200, HTML, article(1), drop_after=100),
        "/404-page": Route(404, HTML, page("Not found", "<p>No such page here.</p>")),
        "/500": Route(500, TEXT, b"internal server error\n"),
    }


PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
                       "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
PDF = (b"%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n"
       b"2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n"
       b"trailer <</Root 1 0 R>>\n%%EOF\n")


def _odd_types() -> dict[str, Route]:
    """Non-HTML bodies, and HTML without a Content-Type."""
    return {
        "/image.png": Route(200, (("Content-Type", "image/png"),), PNG),
        "/doc.pdf": Route(200, (("Content-Type", "application/pdf"),), PDF),
        "/no-type": Route(200, (), page("No type", "<p>Guess what I am.</p>")),
    }


# -- a site of given pages, for the benchmark -----------------------------------------

def site_of_pages(pages: Mapping[str, bytes], per_sitemap: int = 1000) -> dict[str, Route]:
    """A site serving ``pages`` (path -> HTML bytes) with a robots.txt that allows all and
    names ``/sitemap_index.xml``, an index of sitemaps of at most ``per_sitemap`` URLs
    each, every other one gzipped (``/sitemaps/0.xml``, ``/sitemaps/1.xml.gz``, ...)."""
    routes = {path: Route(200, HTML, body) for path, body in pages.items()}
    paths = list(pages)
    names = []
    for number, start in enumerate(range(0, len(paths), per_sitemap)):
        zipped = number % 2 == 1
        name = f"/sitemaps/{number}.xml" + (".gz" if zipped else "")
        routes[name] = Route(200, GZIP if zipped else XML,
                             urlset(paths[start:start + per_sitemap]), gzip=zipped)
        names.append(name)
    routes["/sitemap_index.xml"] = Route(200, XML, sitemap_index(names))
    robots = f"User-agent: *\nDisallow:\n\nSitemap: {BASE}/sitemap_index.xml\n".encode()
    routes["/robots.txt"] = Route(200, TEXT, robots)
    return routes
