"""Polite HTTP: one URL fetched the way a well-behaved crawler does.

:class:`Fetcher` wraps an httpx client (HTTP/2 optional) and keeps, per host, its
``robots.txt`` (read with Protego, Scrapy's parser: wildcards, ``Crawl-delay``) and the
time of its last request, so that a host gets one request at a time and ``delay``
seconds between them (its ``Crawl-delay`` when longer).  A fetch follows redirects hop by
hop: each hop is a request of its own, which passes the rules of :mod:`.policy` (scheme,
no userinfo, the fetch's site when it has one, no private address unless allowed) and
is asked of robots.txt and the host's delay, and kept for the WARC.  It retries 429 and
503 after their ``Retry-After`` (else with a doubling backoff), stops a body past
``max_bytes`` (and a compressed one that would decode past it: a gzip bomb,
:mod:`detourage.codings`), stops a response past ``timeout`` seconds in all, and reads no
body whose content type is not wanted.  Every fetch ends with an outcome: ``fetched``,
``robots``, ``status:404``, ``too-large``, ``timeout``, ``content-type:image/png``,
``redirect-loop``, ``too-many-redirects``, ``bad-redirect``, ``off-site``,
``private-address``, ``userinfo``, ``error:ConnectError``…
"""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

from ..codings import BROKEN, OVER, accept_encoding, decode
from ..errors import MissingExtra
from ..settings import DEFAULT_LIMITS, FETCH_TIMEOUT
from ..version import __version__
from .deadline import bounded_transport, until
from .policy import PrivateAddress, refusal, site

#: the media types a page fetch keeps (a response without a type is kept: the corpus run sniffs it)
HTML_TYPES = ("text/html", "application/xhtml+xml")
#: robots.txt is read up to this many bytes (RFC 9309 asks for at least 500 KiB), the rest cut
ROBOTS_BYTES = 512 * 1024


@dataclass(frozen=True, slots=True, kw_only=True)
class Politeness:
    """How a crawler behaves toward the sites it fetches from."""

    #: the ``User-Agent`` sent, and the name robots.txt rules are matched against
    user_agent: str = f"detourage/{__version__} (+https://pypi.org/project/detourage/)"
    #: seconds between two requests to one host (its robots.txt ``Crawl-delay`` when longer)
    delay: float = 1.0
    #: obey robots.txt
    robots: bool = True
    #: seconds one response may take, headers and body (a slow drip included)
    timeout: float = FETCH_TIMEOUT
    #: bytes of a body, as sent and as decoded; a longer one is ``too-large``
    max_bytes: int = DEFAULT_LIMITS.max_bytes
    #: tries after a 429, a 503 or a failed connection
    retries: int = 3
    #: the longest ``Retry-After`` waited for, in seconds; a longer one ends the fetch
    max_retry_after: float = 120.0
    #: the longest robots.txt ``Crawl-delay`` kept to, in seconds; a host asking for more
    #: is not crawled (its pages end as ``crawl-delay``)
    max_crawl_delay: float = 60.0
    #: seconds of the first backoff without ``Retry-After`` (doubled at each try)
    backoff: float = 1.0
    #: redirects followed, each a request of its own
    max_redirects: int = 10
    #: the media types kept; others end as ``content-type:TYPE`` without their body
    content_types: tuple[str, ...] = HTML_TYPES
    #: requests to one host at a time (more than 1 only for a host that allows it: your own)
    per_host: int = 1
    #: HTTP/2 where the server offers it (needs the ``h2`` package)
    http2: bool = False
    #: fetch from hosts whose addresses are loopback, private, link-local or reserved
    #: (your own machine, an intranet); off, such a host is ``private-address``
    allow_private: bool = False

    def __post_init__(self) -> None:
        for name in ("delay", "timeout", "max_retry_after", "max_crawl_delay", "backoff"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"{name}: seconds, 0 or more, not {getattr(self, name)!r}")
        if self.timeout == 0:
            raise ValueError("timeout: seconds above 0")
        if not (isinstance(self.per_host, int) and self.per_host >= 1):
            raise ValueError(f"per_host: a whole number, 1 or more, not {self.per_host!r}")
        for name in ("max_bytes", "retries", "max_redirects"):
            if not (isinstance(getattr(self, name), int) and getattr(self, name) >= 0):
                raise ValueError(f"{name}: a whole number, 0 or more, not {getattr(self, name)!r}")


@dataclass(frozen=True, slots=True)
class Exchange:
    """One request and its response, as a WARC keeps them: the body as sent (its
    ``Content-Encoding`` kept, its ``Transfer-Encoding`` undone)."""

    url: str
    #: the request's header fields, as sent
    request_headers: tuple[tuple[str, str], ...]
    #: ``HTTP/1.1`` or ``HTTP/2``
    http_version: str
    status: int
    reason: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    #: when the request was sent (UTC)
    date: datetime
    #: the server's address, when known
    ip: str | None = None


@dataclass(frozen=True, slots=True)
class Fetched:
    """What fetching a URL gave: its outcome, the final response's body (decoded) and
    header fields, and every exchange on the way (redirects included)."""

    url: str
    outcome: str
    status: int | None = None
    #: the URL of the last response (after redirects)
    final_url: str | None = None
    #: the final response's header fields
    headers: tuple[tuple[str, str], ...] = ()
    #: the final response's body, ``Content-Encoding`` undone (empty unless ``fetched``)
    content: bytes = b""
    exchanges: tuple[Exchange, ...] = ()
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome == "fetched"

    def header(self, name: str) -> str | None:
        """A header field of the final response (case-insensitive)."""
        name = name.lower()
        return next((v for k, v in self.headers if k.lower() == name), None)


class _Stop(Exception):
    """Ends a fetch with an outcome."""

    def __init__(self, outcome: str, message: str = "") -> None:
        super().__init__(message or outcome)
        self.outcome = outcome


@dataclass(slots=True)
class _Host:
    """A host's robots.txt rules, its requests in flight and the time its next request
    may start."""

    slots: threading.Semaphore
    #: guards the start times (held briefly)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: held while robots.txt is read, once (other threads wanting the host wait on it)
    robots_lock: threading.Lock = field(default_factory=threading.Lock)
    robots: Any = None  # a Protego parser, or True (allow all) / False (disallow all)
    robots_delay: float | None = None
    #: why robots.txt could not be read at all (the host unreachable): its pages end so too
    robots_failure: str | None = None
    next_time: float = 0.0


class Fetcher:
    """Polite fetches, shared by threads: one request at a time per host.

    ``robots_text`` seeds the robots.txt of hosts already read (a resumed crawl), by
    ``scheme://host``; ``on_robots`` is told each robots.txt this fetcher reads
    (origin, status or outcome, text), so that a crawl can log it."""

    def __init__(self, politeness: Politeness = Politeness(), *,
                 robots_text: Mapping[str, str | None] | None = None,
                 on_robots: Callable[[str, str, str | None], None] | None = None,
                 stop: threading.Event | None = None, transport: Any = None) -> None:
        httpx = _httpx()
        self.politeness = politeness
        if politeness.http2:
            try:
                import h2  # noqa: F401 - imported only to see whether it is installed
            except ImportError:
                raise MissingExtra("HTTP/2 needs the h2 package: pip install 'httpx[http2]'") from None
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=64)
        if transport is None:  # a transport given (tests) brings its own address rules
            transport = bounded_transport(politeness.http2, limits, guarded=not politeness.allow_private)
        headers = {"User-Agent": politeness.user_agent, "Accept-Encoding": accept_encoding()}
        self._client = httpx.Client(http2=politeness.http2, limits=limits, timeout=httpx.Timeout(politeness.timeout),
                                    follow_redirects=False, headers=headers, transport=transport,
                                    event_hooks={"response": [_hold_location]})
        self._hosts: dict[str, _Host] = {}
        self._lock = threading.Lock()
        self._on_robots = on_robots
        self._stop = stop or threading.Event()
        for origin, text in (robots_text or {}).items():
            if text is not None:  # one that could not be read is read again
                host = self._host(origin)
                host.robots, host.robots_delay = _parse_robots(text, politeness.user_agent)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ one URL

    def fetch(self, url: str, *, content_types: tuple[str, ...] | None = None, max_bytes: int | None = None,
              scope: str | None = None) -> Fetched:
        """Fetch ``url`` politely, following redirects; never raises for what a server
        or the network does (the outcome says it).  ``content_types``: the media types
        kept (default: the politeness's; empty: any); ``max_bytes``: the body's limit
        (default: the politeness's); ``scope``: the site (:func:`.policy.site`) every
        redirect must stay on (None: any host)."""
        if self._stop.is_set():
            return Fetched(url, "stopped", message="the crawl was stopped")
        wanted = self.politeness.content_types if content_types is None else content_types
        limit = self.politeness.max_bytes if max_bytes is None else max_bytes
        exchanges: list[Exchange] = []
        current = urldefrag(url)[0]
        seen = {current}
        try:
            self._admit(current, None)
            for _ in range(self.politeness.max_redirects + 1):
                exchange, content = self._fetch_one(current, wanted, limit)
                exchanges.append(exchange)
                target = _redirect_target(exchange)
                if target is None:
                    outcome = "fetched" if 200 <= exchange.status < 300 else f"status:{exchange.status}"
                    return Fetched(url, outcome, exchange.status, current, exchange.headers,
                                   content if outcome == "fetched" else b"", tuple(exchanges))
                current = self._admit(_joined(current, target), scope, current)
                if current in seen:
                    raise _Stop("redirect-loop", f"{current} again after {len(exchanges)} redirects")
                seen.add(current)
            raise _Stop("too-many-redirects", f"more than {self.politeness.max_redirects} redirects")
        except _Stop as stop:
            last = exchanges[-1] if exchanges else None
            return Fetched(url, stop.outcome, last.status if last else None, current, (), b"", tuple(exchanges),
                           str(stop))
        except Exception as exc:  # noqa: BLE001 - a URL or an answer no rule above foresaw: the page's outcome
            return Fetched(url, f"error:{type(exc).__name__}", None, current, (), b"", tuple(exchanges),
                           f"{current}: {exc}")

    def _admit(self, url: str, scope: str | None, origin: str | None = None) -> str:
        """``url`` when the policy lets it be requested (``origin``: the URL that
        redirected to it, whose ``Location`` must name an http(s) URL), else :class:`_Stop`."""
        refused = refusal(url, allow_private=self.politeness.allow_private)
        if refused is not None:
            outcome, message = refused
            if origin is not None and outcome in ("not-http", "bad-url"):
                outcome = "bad-redirect"
            raise _Stop(outcome, message if origin is None else f"{origin} → {message}")
        if scope is not None and site(url) != scope:
            raise _Stop("off-site", f"{origin} → {url}: off the site {scope}")
        return url

    def allowed(self, url: str) -> bool:
        """Whether robots.txt lets this crawler fetch ``url`` (read once per host)."""
        if not self.politeness.robots:
            return True
        host = self._robots(_origin(url))
        if isinstance(host.robots, bool):
            return host.robots
        return bool(host.robots.can_fetch(url, self.politeness.user_agent))

    def robots_sitemaps(self, origin: str) -> tuple[str, ...]:
        """The ``Sitemap:`` lines of the host's robots.txt (read now if it was not, even
        when robots.txt is not obeyed: it is where a site names its sitemaps)."""
        try:
            robots = self._robots(origin).robots
        except _Stop:  # the crawl was stopped while it waited
            return ()
        return tuple(robots.sitemaps) if not isinstance(robots, bool) else ()

    def _robots(self, origin: str) -> _Host:
        """The host, its robots.txt read (once)."""
        host = self._host(origin)
        with host.robots_lock:
            if host.robots is None:
                self._read_robots(origin, host)
        return host

    def _fetch_one(self, url: str, wanted: tuple[str, ...], limit: int) -> tuple[Exchange, bytes]:
        """One request (retried after 429, 503 and failed connections)."""
        host = self._host(_origin(url))
        if not self.allowed(url):
            if host.robots_failure is not None:
                raise _Stop(host.robots_failure, f"{_origin(url)}/robots.txt could not be read: "
                                                 f"{host.robots_failure}")
            raise _Stop("robots", f"{url}: disallowed by robots.txt")
        if self.politeness.robots and (host.robots_delay or 0.0) > self.politeness.max_crawl_delay:
            raise _Stop("crawl-delay", f"{_origin(url)} asks for {host.robots_delay:g} s between requests "
                                       f"(more than {self.politeness.max_crawl_delay:g})")
        pause = self.politeness.backoff
        for attempt in range(self.politeness.retries + 1):
            exchange, content, retry_after = self._in_turn(host, lambda: self._request(url, wanted, limit))
            if exchange is not None and exchange.status not in (429, 503):
                return exchange, content
            if attempt == self.politeness.retries:
                if exchange is None:
                    raise _Stop(*retry_after)  # the last failure's outcome
                return exchange, content
            wait = pause
            if exchange is not None and retry_after is not None:
                if retry_after > self.politeness.max_retry_after:
                    return exchange, content  # status:429 / status:503: the server asks for too long
                wait = retry_after
            with host.lock:  # the whole host waits, not only this page
                host.next_time = max(host.next_time, time.monotonic() + wait)
            self._sleep(wait)
            pause *= 2
        raise AssertionError("unreachable")

    def _in_turn(self, host: _Host, request: Callable[[], Any]) -> Any:
        """``request()`` in one of the host's slots, at its turn."""
        with host.slots:
            self._take_turn(host)
            try:
                return request()
            finally:
                self._done(host)

    def _request(self, url: str, wanted: tuple[str, ...], limit: int | None = None,
                 cut: bool = False) -> tuple[Any, bytes, Any]:
        """(exchange, decoded body, Retry-After seconds) of one request, within
        ``timeout`` in all (headers included) and ``limit`` bytes (default ``max_bytes``;
        ``cut``: a longer body is cut there rather than refused).  A connection that
        could not be made gives (None, b"", (outcome, message)), to try again; the other
        failures raise :class:`_Stop`."""
        httpx = _httpx()
        limit = self.politeness.max_bytes if limit is None else limit
        deadline = time.monotonic() + self.politeness.timeout
        date = datetime.now(UTC)
        try:
            with until(deadline), self._client.stream("GET", url) as response:
                headers = response.extensions.get("fields") or tuple(response.headers.multi_items())
                media = response.headers.get("content-type", "").partition(";")[0].strip().lower()
                if 200 <= response.status_code < 300 and wanted and media and media not in wanted:
                    raise _Stop(f"content-type:{media[:60]}", f"{url}: {media}")
                declared = response.headers.get("content-length", "")
                if not cut and declared.isascii() and declared.isdigit() and int(declared) > limit:
                    raise _Stop("too-large", f"{url}: Content-Length {declared} > {limit}")
                body = _read_body(response, limit, cut, url)
                request_headers = tuple((k, v) for k, v in response.request.headers.multi_items())
                ip = _peer(response.extensions.get("network_stream"))
        except _Stop:
            raise
        except PrivateAddress as exc:  # the address connected to, checked (policy.AddressGuard)
            raise _Stop("private-address", f"{url}: {exc}") from None
        except httpx.ConnectError as exc:  # nothing was sent: tried again
            return None, b"", (f"error:{type(exc).__name__}", f"{url}: {exc}")
        except httpx.TimeoutException as exc:
            raise _Stop("timeout", f"{url}: {type(exc).__name__}") from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:  # a connection dropped mid-body, a bad URL…
            raise _Stop(f"error:{type(exc).__name__}", f"{url}: {exc}") from None
        content = _decoded(body, response.headers.get("content-encoding", ""), limit, url, cut)
        exchange = Exchange(url, request_headers, response.http_version, response.status_code,
                            response.reason_phrase or "", headers, body, date, ip)
        return exchange, content, _retry_after(response.headers.get("retry-after"))

    # ------------------------------------------------------------------ hosts

    def _host(self, origin: str) -> _Host:
        with self._lock:
            host = self._hosts.get(origin)
            if host is None:
                host = self._hosts[origin] = _Host(threading.Semaphore(self.politeness.per_host))
            return host

    def _delay(self, host: _Host) -> float:
        """Seconds between the host's requests: ``delay``, or its robots.txt's
        ``Crawl-delay`` when longer (and robots.txt is obeyed)."""
        return max(self.politeness.delay, (host.robots_delay or 0.0) if self.politeness.robots else 0.0)

    def _take_turn(self, host: _Host) -> None:
        """Wait for the host's next start time, and set the one after (``delay`` from
        this start; from this end too, in :meth:`_done`)."""
        with host.lock:
            now = time.monotonic()
            start = max(now, host.next_time)
            host.next_time = start + self._delay(host)
        if start > now:
            self._sleep(start - now)
        if self._stop.is_set():  # no new request once stopped (one waiting for the host's slot too)
            raise _Stop("stopped", "the crawl was stopped")

    def _sleep(self, seconds: float) -> None:
        """Wait, unless the crawl is stopped (the page then ends as ``stopped``, and is
        not logged: a resumed crawl fetches it)."""
        if self._stop.wait(seconds):
            raise _Stop("stopped", "the crawl was stopped")

    def _done(self, host: _Host) -> None:
        with host.lock:
            host.next_time = max(host.next_time, time.monotonic() + self._delay(host))

    def _read_robots(self, origin: str, host: _Host) -> None:
        """Fetch and parse the host's robots.txt (RFC 9309: a 4xx allows everything; a
        5xx or no answer disallows everything; the first :data:`ROBOTS_BYTES` are read,
        and redirects followed, each hop at its own host's turn)."""
        url = f"{origin}/robots.txt"
        text: str | None = None
        outcome = "error"
        for _ in range(self.politeness.max_redirects + 1):
            hop = host if _origin(url) == origin else self._host(_origin(url))
            try:
                exchange, content, failure = self._in_turn(
                    hop, lambda: self._request(url, (), ROBOTS_BYTES, True))  # noqa: B023 - called at once, in this turn
            except _Stop as stop:
                exchange, content, failure = None, b"", (stop.outcome, str(stop))
            if exchange is None:
                outcome = host.robots_failure = failure[0]
                break
            target = _redirect_target(exchange)
            if target is not None:  # followed, as RFC 9309 asks (another host's file included)
                try:
                    url = self._admit(_joined(url, target), None, url)
                except _Stop as stop:
                    outcome = stop.outcome
                    break
                continue
            outcome = f"status:{exchange.status}"
            if 200 <= exchange.status < 300:
                text = content[:ROBOTS_BYTES].decode("utf-8", "replace")
            elif 400 <= exchange.status < 500:
                text = ""
            break
        host.robots, host.robots_delay = _parse_robots(text, self.politeness.user_agent)
        self._done(host)  # the host's own Crawl-delay, now known, from the robots.txt request on
        if outcome != "stopped" and self._on_robots is not None:
            self._on_robots(origin, outcome, text)
        if outcome == "stopped":  # read again next time
            host.robots, host.robots_failure = None, None
            raise _Stop("stopped", "the crawl was stopped")


def _parse_robots(text: str | None, user_agent: str) -> tuple[Any, float | None]:
    """A Protego parser and the crawl delay; None (unreachable): disallow everything."""
    if text is None:
        return False, None
    if not text.strip():
        return True, None
    from protego import Protego

    rules = Protego.parse(text)
    delay = rules.crawl_delay(user_agent)
    return rules, float(delay) if delay is not None else None


def _hold_location(response: Any) -> None:
    """httpx parses a redirect's ``Location`` to build the next request even when it does
    not follow it, and raises on one that is no URL (``javascript:…``, a tab in it): the
    field is held aside, the response's fields kept whole for the WARC, and
    :func:`_joined` and the policy judge it (``bad-redirect``)."""
    if "location" in response.headers:
        response.extensions = {**response.extensions, "fields": tuple(response.headers.multi_items())}
        del response.headers["location"]


def _read_body(response: Any, limit: int, cut: bool, url: str) -> bytes:
    """The body as sent, within ``limit`` bytes (``cut``: the first ``limit``).  The
    deadline holds through the network reads (:mod:`.deadline`)."""
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_raw():
        size += len(chunk)
        if size > limit:
            if cut:
                chunks.append(chunk[: len(chunk) - (size - limit)])
                break
            raise _Stop("too-large", f"{url}: over {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _joined(base: str, target: str) -> str:
    """A redirect's absolute URL, without its fragment (:mod:`.policy` judges it next);
    ``bad-redirect`` when it is none."""
    httpx = _httpx()
    try:
        joined = urldefrag(urljoin(base, target.strip()))[0]
        httpx.URL(joined)  # what httpx could not request (a control character…)
    except (ValueError, httpx.InvalidURL) as exc:
        raise _Stop("bad-redirect", f"{base} → {target!r}: {exc}") from None
    return joined


def _redirect_target(exchange: Exchange) -> str | None:
    if exchange.status in (301, 302, 303, 307, 308):
        return next((v for k, v in exchange.headers if k.lower() == "location"), None) or None
    return None


def _retry_after(value: str | None) -> float | None:
    """Seconds of a ``Retry-After`` field: a number, or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _decoded(body: bytes, coding: str, max_bytes: int, url: str, cut: bool = False) -> bytes:
    """``body`` with its ``Content-Encoding`` undone (:func:`detourage.codings.decode`),
    never past ``max_bytes``: over it, ``too-large`` (``cut``: its first ``max_bytes``); a
    coding that cannot be undone is ``bad-encoding``; an unknown one leaves the body as
    it is."""
    decoded = decode(body, coding, max_bytes)
    if decoded.state == OVER and not cut:
        raise _Stop("too-large", f"{url}: decodes past {max_bytes} bytes")
    if decoded.state == BROKEN:
        raise _Stop("bad-encoding", f"{url}: {decoded.note}")
    return decoded.data


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def _peer(stream: Any) -> str | None:
    try:
        address = stream.get_extra_info("server_addr")
    except Exception:  # noqa: BLE001 - transports without the information (a mock transport)
        return None
    return str(address[0]) if address else None


def _httpx() -> Any:
    try:
        import httpx
    except ImportError:
        raise MissingExtra("fetching needs httpx: pip install 'detourage[fetch]'") from None
    return httpx
