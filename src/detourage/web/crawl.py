"""A polite crawl of a list of URLs, sitemaps and feeds into a WARC file, with a log of
every URL's outcome, that a second run resumes.

The log (JSON lines, beside the WARC: ``crawl.warc.gz`` → ``crawl.log.jsonl``) has one
line per thing fetched, written when it ends:

- ``{"kind": "page", "url", "outcome", "status", "final_url", "bytes", "exchanges", "warc_end", "time"}``
  for every page URL (a page whose links are followed: with ``links``, the new ones it gave)
  (``outcome``: ``fetched``, ``robots``, ``status:404``, ``too-large``, ``timeout``,
  ``content-type:image/png``, ``redirect-loop``…; ``message`` says more);
- ``{"kind": "robots", "url", "outcome", "text"}`` for each host's robots.txt;
- ``{"kind": "sitemap" | "feed", "url", "outcome", "pages", "sitemaps"}`` for each file read
  to find pages (``message`` when it was not read whole: ``too-large``, ``too-many-urls``,
  ``unreadable``, ``off-site``…);
- ``{"kind": "warcinfo", "warc_end"}`` when a new WARC is started.

``warc_end`` is the WARC's size once the page's records were written.  A crawl started
again with the same WARC reads the log first: the WARC is cut back to the last
``warc_end`` (a record a stopped crawl left half-written goes), robots.txt files,
sitemaps and feeds already read are not fetched again, nor any page the log has an
outcome for; only what is missing is fetched (with ``retry_failed``, also the pages whose
last outcome may pass another time: the log's last line for a URL is its outcome).

Pages are fetched by ``workers`` threads, URLs of different hosts interleaved, each
request through the :class:`~detourage.web.client.Fetcher`'s per-host turn (one request
at a time per host by default, ``delay`` seconds apart).  A page reached by following
links, or found in a sitemap or feed of a site (``same_host``), is fetched held to its
site (:mod:`.policy`): a redirect off it ends as ``off-site``; a URL given in the list
may be redirected to any host the policy allows.

Stopping: setting ``stop`` (the command's first Ctrl-C) sends no new request; the pages
whose request is under way end and are logged.  A ``KeyboardInterrupt`` in the caller's
thread does the same in a library caller; a second one (or one once ``stop`` is set)
abandons the pages in flight at once: nothing more is written to the WARC or the log,
which stay whole, and a resumed crawl fetches what they do not record.
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import zip_longest
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import RunError
from .archive import WarcWriter, open_append
from .client import Fetched, Fetcher, Politeness
from .discover import Discoverer, Source, page_links
from .policy import site


@dataclass(frozen=True, slots=True)
class CrawlProgress:
    """Where a crawl stands when a page ends (``crawl(on_progress=…)``)."""

    #: the page that ended
    page: Fetched
    #: the outcomes of this run's pages so far, this one included
    outcomes: Counter[str]
    #: pages queued and not yet ended: waiting for a worker, for their host's turn (its
    #: delay, its robots.txt) or for their answer
    pages_waiting: int
    #: the hosts of those pages
    hosts_waiting: int


@dataclass(frozen=True, slots=True)
class CrawlSummary:
    """What a crawl did: outcomes of the pages it fetched now, those the log already had."""

    outcomes: Counter[str] = field(default_factory=Counter)
    #: pages of the log from an earlier run, not fetched again
    resumed: int = 0
    #: the WARC's size at the end
    warc_bytes: int = 0
    seconds: float = 0.0

    @property
    def fetched(self) -> int:
        return self.outcomes.get("fetched", 0)


def log_path(warc: str | os.PathLike[str]) -> Path:
    """The log beside a WARC: ``crawl.warc.gz`` → ``crawl.log.jsonl``."""
    path = Path(warc)
    name = path.name
    for suffix in (".warc.gz", ".warc"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    return path.with_name(f"{name}.log.jsonl")


@dataclass(slots=True)
class _Log:
    """What a log says: outcomes of pages, robots.txt texts, sources read, the WARC's end."""

    pages: dict[str, str] = field(default_factory=dict)
    robots: dict[str, str | None] = field(default_factory=dict)
    sources: dict[tuple[str, str], tuple[list[str], list[str]]] = field(default_factory=dict)
    #: the links followed pages gave, in the order they were found
    links: list[str] = field(default_factory=list)
    warc_end: int | None = None

    @classmethod
    def read(cls, path: Path) -> _Log:
        log = cls()
        if not path.exists():
            return log
        with open(path, "rb") as lines:
            for line in lines:
                try:
                    entry = json.loads(line)
                except ValueError:  # a line a stopped crawl left half-written
                    continue
                kind = entry.get("kind")
                if kind == "page":
                    log.pages[entry["url"]] = entry["outcome"]
                    log.links.extend(entry.get("links", ()))
                elif kind == "robots":
                    log.robots[entry["url"].rsplit("/robots.txt", 1)[0]] = entry.get("text")
                elif kind in ("sitemap", "feed"):
                    log.sources[kind, entry["url"]] = (entry.get("pages", []), entry.get("sitemaps", []))
                if "warc_end" in entry:
                    log.warc_end = max(log.warc_end or 0, int(entry["warc_end"]))
        return log


def _cut_partial_line(log: Path) -> None:
    """Cut a last line a stopped crawl left half-written (no newline), so that the next
    line does not run into it."""
    if not log.exists() or log.stat().st_size == 0:
        return
    with open(log, "r+b") as stream:
        end = stream.seek(0, os.SEEK_END)
        position = end
        while position > 0:  # back from the end, a block at a time, to the last newline
            start = max(0, position - (1 << 16))
            stream.seek(start)
            block = stream.read(position - start)
            if position == end and block.endswith(b"\n"):
                return
            newline = block.rfind(b"\n")
            if newline >= 0:
                stream.truncate(start + newline + 1)
                return
            position = start
        stream.truncate(0)


class _Recorder:
    """The WARC and the log, written together under one lock."""

    def __init__(self, warc: Path, log: Path, end: int | None, logged_pages: int) -> None:
        fresh = not warc.exists() or warc.stat().st_size == 0
        if not fresh and end is None:
            raise RunError(f"{warc} exists and {log} says nothing of it: give a new WARC, or its log to resume")
        if fresh and logged_pages:
            raise RunError(f"{log} names {logged_pages} pages of a WARC that is gone or empty ({warc}): "
                           "give a new WARC, or move the log away")
        if not fresh and end is not None and warc.stat().st_size < end:
            raise RunError(f"{warc} is shorter ({warc.stat().st_size} bytes) than its log says ({end}): "
                           "it was cut or replaced; give a new WARC")
        _cut_partial_line(log)
        self._lock = threading.Lock()
        #: set when the crawl is abandoned: nothing more is written
        self._sealed = False
        self._stream = open_append(str(warc), None if fresh else end)
        self._log = open(log, "a", encoding="utf-8", errors="backslashreplace")  # noqa: SIM115 - closed in close()
        self._warc = WarcWriter(self._stream, info={"operator": "detourage fetch"} if fresh else None)
        if fresh:
            self._write_line({"kind": "warcinfo", "warc_end": self._stream.tell()})

    def page(self, fetched: Fetched, links: list[str] | None = None) -> None:
        """The page's records and its log line (``links``: those a followed page adds)."""
        with self._lock:
            if self._sealed:
                return
            end = self._stream.tell()
            for exchange in fetched.exchanges:
                end = self._warc.write(exchange)
            entry: dict[str, Any] = {"kind": "page", "url": fetched.url, "outcome": fetched.outcome,
                                     "status": fetched.status, "final_url": fetched.final_url,
                                     "bytes": len(fetched.content), "exchanges": len(fetched.exchanges),
                                     "warc_end": end, "time": _now()}
            if fetched.message and not fetched.ok:
                entry["message"] = fetched.message[:300]
            if links is not None:
                entry["links"] = links
            self._write_line(entry)

    def robots(self, origin: str, outcome: str, text: str | None) -> None:
        with self._lock:
            if self._sealed:
                return
            self._write_line({"kind": "robots", "url": f"{origin}/robots.txt", "outcome": outcome, "text": text,
                              "time": _now()})

    def source(self, source: Source) -> None:
        entry: dict[str, Any] = {"kind": source.kind, "url": source.url, "outcome": source.outcome,
                                 "pages": list(source.pages), "sitemaps": list(source.sitemaps), "time": _now()}
        if source.message:
            entry["message"] = source.message[:300]
        with self._lock:
            if not self._sealed:
                self._write_line(entry)

    def seal(self) -> None:
        """Write nothing more (a crawl abandoned with pages in flight): waits only for a
        write under way, so the WARC and the log end on a whole page."""
        with self._lock:
            self._sealed = True

    def size(self) -> int:
        with self._lock:
            return self._stream.tell()

    def close(self) -> None:
        with self._lock:
            self._stream.close()
            self._log.close()

    def _write_line(self, entry: dict[str, Any]) -> None:
        self._log.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._log.flush()


def crawl(urls: Iterable[str] = (), *, out: str | os.PathLike[str], sitemaps: Iterable[str] = (),
          feeds: Iterable[str] = (), follow: Iterable[str] = (), max_pages: int = 1000,
          politeness: Politeness = Politeness(), workers: int = 8, same_host: bool = True,
          log: str | os.PathLike[str] | None = None, on_page: Callable[[Fetched], None] | None = None,
          on_progress: Callable[[CrawlProgress], None] | None = None, stop: threading.Event | None = None,
          retry_failed: bool = False, transport: Any = None) -> CrawlSummary:
    """Fetch ``urls``, the pages of ``sitemaps`` and ``feeds``, and the pages reached by
    following links from ``follow`` (on each start URL's host, at most ``max_pages`` in
    all) into the WARC ``out``, resuming from its log (``log``, default :func:`log_path`)
    when it has one.

    ``retry_failed``: also fetch again the pages whose last outcome may pass
    (:func:`transient`: a timeout, a network error, 429, a 5xx).

    ``on_page`` is told each page's result as it ends, and ``on_progress`` where the
    crawl stands then (:class:`CrawlProgress`: the outcomes so far, the pages and hosts
    still waiting), in the order the pages ended; setting ``stop`` lets the pages in
    flight end and fetches no more (the log and the WARC stay whole)."""
    if workers < 1:
        raise ValueError(f"workers: 1 or more, not {workers}")
    if max_pages < 1:
        raise ValueError(f"max_pages: 1 or more, not {max_pages}")
    started = time.monotonic()
    warc, log_file = Path(out), Path(log) if log is not None else log_path(out)
    past = _Log.read(log_file)
    recorder = _Recorder(warc, log_file, past.warc_end, len(past.pages))
    stop = stop or threading.Event()
    fetcher = Fetcher(politeness, robots_text=past.robots, on_robots=recorder.robots, stop=stop, transport=transport)
    abandoned = False
    try:
        run = _Run(fetcher, recorder, past, stop, _Told(on_page, on_progress), retry_failed)
        discoverer = Discoverer(fetcher, same_host=same_host, known=past.sources, on_source=recorder.source)
        run.plan(_planned(urls, sitemaps, feeds, discoverer, same_host),
                 list(dict.fromkeys(u.strip() for u in follow if u.strip())), max_pages)
        run.fetch_all(workers)
        if run.failure is not None:  # a worker's own failure (the disk full…): the crawl stopped on it
            raise run.failure
        return CrawlSummary(run.outcomes, run.resumed, recorder.size(), time.monotonic() - started)
    except KeyboardInterrupt:
        abandoned = True
        raise
    finally:
        if not abandoned:  # abandoned, its connections are still in the hands of the pages in flight
            fetcher.close()
        recorder.close()


class _Run:
    """The pages of one crawl: scheduled once each, fetched by worker threads, the links
    of followed pages scheduled as they come (within the page budget)."""

    def __init__(self, fetcher: Fetcher, recorder: _Recorder, past: _Log, stop: threading.Event, told: _Told,
                 retry_failed: bool) -> None:
        self.fetcher, self.recorder, self.past, self.stop = fetcher, recorder, past, stop
        self.told, self.retry_failed = told, retry_failed
        self.queue: queue.Queue[str | None] = queue.Queue()
        #: the pages held to their site (:mod:`.policy`): followed ones, and those of a site's sitemaps and feeds
        self.scoped: set[str] = set()
        self.outcomes: Counter[str] = Counter()
        self.resumed = 0
        #: what stopped a worker (not a page's outcome: writing the WARC or the log)
        self.failure: BaseException | None = None
        self._scheduled: set[str] = set()
        self._followed: set[str] = set()
        #: the pages queued and not yet ended, and how many of them each host has
        self._waiting: set[str] = set()
        self._hosts_waiting: Counter[str] = Counter()
        self._budget = 0
        self._lock = threading.Lock()

    def plan(self, planned: dict[str, bool], follow: list[str], max_pages: int) -> None:
        """Schedule the planned pages (URL → held to its site), the start pages to
        follow, and the links the log already holds (a resumed crawl's frontier)."""
        self._budget = max_pages
        self.scoped |= {url for url, scoped in planned.items() if scoped}
        pending = self._reserve_all(follow)
        pending += self._reserve_all(self.past.links)
        pending += [u for u in _interleaved(list(planned)) if self._reserve(u, followed=False)]
        for url in pending:
            self._enqueue(url)

    def fetch_all(self, workers: int) -> None:
        """Fetch every queued page; a ``KeyboardInterrupt`` stops (see the module
        docstring): a first one lets the pages in flight end, a second abandons them."""
        threads = [threading.Thread(target=self._worker, name=f"fetch-{i}", daemon=True) for i in range(workers)]
        for thread in threads:
            thread.start()
        try:
            self._wait()
        except KeyboardInterrupt:
            self.recorder.seal()  # the threads left behind write nothing more
            raise
        finally:
            for _ in threads:  # each thread ends after its page
                self.queue.put(None)
        for thread in threads:
            thread.join()

    def _wait(self) -> None:
        """Until the queue is done; a first interrupt (``stop`` not yet set) lets the
        pages in flight end before it propagates."""
        try:
            self.queue.join()
        except KeyboardInterrupt:
            if self.stop.is_set():  # stopped already: this is the second
                raise
            self.stop.set()
            self.queue.join()
            raise

    def _worker(self) -> None:
        while (url := self.queue.get()) is not None:
            try:
                if not self.stop.is_set():
                    self._fetch(url)
            except Exception as exc:  # noqa: BLE001 - the crawl cannot go on (the WARC or the log unwritable)
                self.failure = self.failure or exc
                self.stop.set()
            finally:
                self._ended(url)  # a page not fetched (stopped) waits no more either
                self.queue.task_done()
        self.queue.task_done()

    def _fetch(self, url: str) -> None:
        fetched = self.fetcher.fetch(url, scope=site(url) if url in self.scoped else None)
        if fetched.outcome == "stopped":  # not logged: a resumed crawl fetches it
            return
        followed = url in self._followed
        links = self._reserve_all(page_links(fetched)) if followed and fetched.ok else []
        self.recorder.page(fetched, links if followed else None)  # logged before they are fetched
        for link in links:
            self._enqueue(link)
        with self.told.lock:  # told in the order the pages ended
            self.told(self._counted(url, fetched))

    def _counted(self, url: str, fetched: Fetched) -> CrawlProgress:
        """Count ``url``'s outcome: where the crawl stands now that it ended."""
        with self._lock:
            self._forget(url)
            self.outcomes[fetched.outcome] += 1
            return CrawlProgress(fetched, self.outcomes.copy(), len(self._waiting), len(self._hosts_waiting))

    def _ended(self, url: str) -> None:
        """``url`` waits no more (said again by its worker, or said only there when it
        was not fetched: stopped)."""
        with self._lock:
            self._forget(url)

    def _forget(self, url: str) -> None:
        if url in self._waiting:
            self._waiting.remove(url)
            self._hosts_waiting -= Counter({_host(url): 1})  # a host with none left goes

    def _reserve_all(self, urls: Iterable[str]) -> list[str]:
        return [u for u in urls if self._reserve(u, followed=True)]

    def _reserve(self, url: str, *, followed: bool) -> bool:
        """Whether ``url`` is new to this crawl (a followed one within the budget)."""
        with self._lock:
            if url in self._scheduled or (followed and self._budget <= 0):
                return False
            self._scheduled.add(url)
            if followed:
                self._budget -= 1
                self._followed.add(url)
                self.scoped.add(url)
            return True

    def _enqueue(self, url: str) -> None:
        """Queue ``url`` unless the log has its outcome (and it is not to be tried again)."""
        outcome = self.past.pages.get(url)
        if outcome is not None and not (self.retry_failed and transient(outcome)):
            with self._lock:  # done before; a followed page's links came from the log
                self.resumed += 1
            return
        with self._lock:
            self._waiting.add(url)
            self._hosts_waiting[_host(url)] += 1
        self.queue.put(url)


class _Told:
    """Whom a crawl tells of each page that ends (``on_page``, ``on_progress``), one page
    at a time under :attr:`lock`."""

    def __init__(self, on_page: Callable[[Fetched], None] | None,
                 on_progress: Callable[[CrawlProgress], None] | None) -> None:
        self.on_page, self.on_progress = on_page, on_progress
        self.lock = threading.Lock()

    def __call__(self, progress: CrawlProgress) -> None:
        if self.on_page is not None:
            self.on_page(progress.page)
        if self.on_progress is not None:
            self.on_progress(progress)


def transient(outcome: str) -> bool:
    """Whether a page's outcome may be different another time: a timeout, a network
    error, 429 (too many requests) or a 5xx status."""
    return (outcome == "timeout" or outcome.startswith("error:") or outcome == "status:429"
            or outcome.startswith("status:5"))


def _planned(urls: Iterable[str], sitemaps: Iterable[str], feeds: Iterable[str], discoverer: Discoverer,
             same_host: bool) -> dict[str, bool]:
    """Every page URL to fetch, each once, in the order given and found, and whether it
    is held to its site (found in a site's sitemap or feed, ``same_host``)."""
    seen: dict[str, bool] = {}
    for url in urls:
        url = url.strip()
        if url:
            seen.setdefault(url, False)
    for sitemap in sitemaps:
        for url in discoverer.sitemap(sitemap):
            seen.setdefault(url, same_host)
    for feed in feeds:
        for url in discoverer.feed(feed):
            seen.setdefault(url, same_host)
    return seen


def _interleaved(urls: list[str]) -> list[str]:
    """The URLs, hosts taking turns (so that workers do not all wait on one host)."""
    by_host: dict[str, list[str]] = {}
    for url in urls:
        by_host.setdefault(_host(url), []).append(url)
    return [u for turn in zip_longest(*by_host.values()) for u in turn if u is not None]


def _host(url: str) -> str:
    return urlsplit(url).netloc.lower()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
