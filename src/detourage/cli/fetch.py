"""``detourage fetch``: URLs, sitemaps and feeds fetched politely into a WARC file; and the
pages ``detourage extract https://…`` fetches in memory."""

from __future__ import annotations

import re
import signal
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click

from ..errors import DetourageError
from ..loading import Job
from ..settings import FETCH_TIMEOUT, Limits
from .main import URLS_HELP, main, progress_bar, size_text, url_list

#: the defaults of the politeness flags (docs/fetching.md explains each)
_DELAY, _RETRIES, _WORKERS = 1.0, 3, 8
_ALLOW_PRIVATE_HELP = ("Also fetch from hosts on this machine or an intranet (loopback, private, link-local "
                       "addresses), refused by default; redirects too.")
#: where ``extract``'s --allow-private leaves its value for :func:`fetched_jobs`
_ALLOW_PRIVATE_KEY = "detourage.allow_private"


def allow_private_option(command: Any) -> Any:
    """``--allow-private`` on a command that fetches URLs in memory (``extract``): its
    value goes to the click context, where :func:`fetched_jobs` reads it, so that the
    command's own signature stays as it is."""
    def keep(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
        ctx.meta[_ALLOW_PRIVATE_KEY] = value
        return value

    return click.option("--allow-private", is_flag=True, expose_value=False, callback=keep,
                        help=_ALLOW_PRIVATE_HELP)(command)


@main.command()
@click.argument("urls", nargs=-1)
@click.option("-o", "--out", required=True, help="The WARC file written (FILE.warc.gz; its log beside it: "
                                                 "FILE.log.jsonl). Given again, the crawl resumes.")
@click.option("--urls", "url_file", type=click.Path(exists=True, dir_okay=False), default=None, help=URLS_HELP)
@click.option("--sitemap", "sitemaps", multiple=True,
              help="The pages of a sitemap, or of a site's sitemaps (its robots.txt's, else /sitemap.xml).")
@click.option("--feed", "feeds", multiple=True, help="The pages of an RSS or Atom feed, or of the feeds a page "
                                                     "announces.")
@click.option("--crawl", "follow", multiple=True,
              help="Start here and follow the links of each page on the same host (robots.txt's "
                   "nofollow and rel=nofollow obeyed), up to --max-pages.")
@click.option("--max-pages", type=click.IntRange(min=1), default=1000, show_default=True,
              help="--crawl: the most pages reached by following links, in all.")
@click.option("--log", default=None, help="The log of every URL's outcome (default: beside the WARC).")
@click.option("--user-agent", default=None, help="The User-Agent sent, and matched in robots.txt "
                                                 "(default: detourage/VERSION and its PyPI page).")
@click.option("--delay", type=click.FloatRange(min=0), default=_DELAY, show_default=True,
              help="Seconds between two requests to a host (its robots.txt Crawl-delay when longer).")
@click.option("--per-host", type=click.IntRange(min=1), default=1, show_default=True,
              help="Requests to one host at a time (raise it only for a site that allows it: your own).")
@click.option("-w", "--workers", type=click.IntRange(min=1), default=_WORKERS, show_default=True,
              help="Pages fetched at a time, hosts taking turns.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=FETCH_TIMEOUT, show_default=True,
              help="Seconds a response may take, headers and body.")
@click.option("--max-bytes", type=click.IntRange(min=1), default=Limits().max_bytes, show_default=True,
              help="Largest body kept, as sent and decoded (larger: too-large).")
@click.option("--retries", type=click.IntRange(min=0), default=_RETRIES, show_default=True,
              help="Tries again after 429, 503 (honouring Retry-After) or a refused connection.")
@click.option("--retry-failed", is_flag=True, help="Resuming: also fetch again the pages whose outcome may pass "
                                                   "(timeout, network error, 429, 5xx).")
@click.option("--all-hosts", is_flag=True, help="Keep the URLs of sitemaps and feeds on other hosts.")
@click.option("--ignore-robots", is_flag=True, help="Do not read robots.txt (only for sites you may crawl so).")
@click.option("--http2", is_flag=True, help="HTTP/2 where the server offers it (pip install 'httpx[http2]').")
@click.option("--allow-private", is_flag=True, help=_ALLOW_PRIVATE_HELP)
@click.option("--progress/--no-progress", default=None,
              help="Progress bar: pages done, their outcomes so far, hosts with pages still waiting (default: "
                   "when standard error is a terminal).")
@click.option("-q", "--quiet", is_flag=True, help="No summary line on standard error.")
def fetch(urls: tuple[str, ...], out: str, url_file: str | None, sitemaps: tuple[str, ...], feeds: tuple[str, ...],
          follow: tuple[str, ...], max_pages: int, log: str | None, user_agent: str | None, delay: float,
          per_host: int, workers: int, timeout: float, max_bytes: int, retries: int, retry_failed: bool,
          all_hosts: bool, ignore_robots: bool, http2: bool, allow_private: bool, progress: bool | None,
          quiet: bool) -> None:
    """Fetch web pages politely into a WARC file, then clean it with
    `detourage extract FILE.warc.gz -o RUN --to parquet`.

    URLs are given as arguments, in a file (--urls), or found in sitemaps and feeds.
    robots.txt is obeyed, one request goes to a host at a time, --delay seconds apart;
    every request, redirects included, passes the same rules (http(s), no user:password@,
    the site's own host for --crawl, sitemaps and feeds, no private address unless
    --allow-private); every URL's outcome is logged (fetched, robots, status:404,
    too-large, timeout, off-site, private-address…).
    Ctrl-C: no new request, the pages under way end and are logged; twice: stop now.
    Given again, the crawl fetches only what is missing."""
    from ..web import crawl, log_path

    if not out.lower().endswith(".warc.gz"):
        raise click.BadParameter("a .warc.gz file (each record gzipped on its own)", param_hint="'-o'")
    given = list(urls) + (url_list(url_file) if url_file else [])
    bad = [u for u in given + list(sitemaps) + list(feeds) + list(follow) if not _is_http(u)]
    if bad:
        raise click.BadParameter(f"{bad[0]}: not an http(s) URL", param_hint="URLS")
    if not (given or sitemaps or feeds or follow):
        raise click.UsageError("nothing to fetch: give URLs, --urls FILE, --sitemap URL, --feed URL or --crawl URL")
    politeness = _politeness(user_agent, delay, per_host, timeout, max_bytes, retries, ignore_robots, http2,
                             allow_private)
    stop = threading.Event()
    with _stopping(stop), _interrupted(), _Progress(progress) as shown:
        summary = crawl(given, out=out, sitemaps=sitemaps, feeds=feeds, follow=follow, max_pages=max_pages,
                        politeness=politeness, workers=workers, same_host=not all_hosts, log=log,
                        on_progress=shown.page, stop=stop, retry_failed=retry_failed)
    if not quiet:
        click.echo(f"detourage: {summary.fetched} page{'s' * (summary.fetched != 1)} fetched into {out} "
                   f"({size_text(summary.warc_bytes)}) in {summary.seconds:.1f} s; outcomes: "
                   f"{_outcomes(summary.outcomes) or 'none'}; already in the log: {summary.resumed}; "
                   f"log: {log or log_path(out)}", err=True)
    if stop.is_set():
        click.echo("detourage: interrupted: give the same command again to fetch what is missing", err=True)
        raise SystemExit(130)


def _politeness(user_agent: str | None, delay: float, per_host: int, timeout: float, max_bytes: int, retries: int,
                ignore_robots: bool, http2: bool, allow_private: bool) -> Any:
    from ..web import Politeness

    given: dict[str, Any] = {"user_agent": user_agent} if user_agent else {}
    return Politeness(**given, delay=delay, per_host=per_host, timeout=timeout, max_bytes=max_bytes,
                      retries=retries, robots=not ignore_robots, http2=http2, allow_private=allow_private)


def _outcomes(counts: Counter[str]) -> str:
    """``fetched 12, status:404 3``: the outcomes, most frequent first."""
    return ", ".join(f"{outcome} {n}" for outcome, n in counts.most_common())


class _Progress:
    """The crawl's progress bar (:func:`~detourage.cli.main.progress_bar`, as ``extract``
    draws it): pages done, their outcomes so far, the hosts whose pages still wait
    (queued, held by the host's delay, under way).  The crawl tells it of each page in
    turn (:class:`~detourage.web.crawl.CrawlProgress`)."""

    def __init__(self, progress: bool | None) -> None:
        self.bar = progress_bar(progress, label="pages", item_show_func=lambda line: line)

    def __enter__(self) -> _Progress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(*exc)

    def page(self, progress: Any) -> None:
        hosts = progress.hosts_waiting
        self.bar.update(1, f"{_outcomes(progress.outcomes)}; {hosts} host{'s' * (hosts != 1)} waiting")


def _is_http(text: str) -> bool:
    parts = urlsplit(text)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


@contextmanager
def _stopping(stop: threading.Event) -> Iterator[None]:
    """Ctrl-C sets ``stop``: no new request, the pages in flight end and are logged."""
    previous = signal.getsignal(signal.SIGINT)

    def interrupted(signum: int, frame: object) -> None:
        stop.set()
        # a second Ctrl-C raises KeyboardInterrupt: the crawl abandons its pages in flight
        signal.signal(signal.SIGINT, signal.default_int_handler)

    signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _interrupted() -> Iterator[None]:
    """A second Ctrl-C: one line and exit 130 (what was logged stays; run again to resume)."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo("detourage: interrupted: give the same command again to fetch what is missing", err=True)
        raise SystemExit(130) from None


# ---------------------------------------------------------------------------- extract https://…

def is_url(text: str) -> bool:
    """Whether an input of ``extract`` is a URL to fetch."""
    return text.lower().startswith(("http://", "https://")) and _is_http(text)


def fetched_jobs(urls: list[str], save: str | None, timeout: float, max_bytes: int) -> list[Job]:
    """The pages at ``urls``, fetched politely in memory (robots.txt obeyed), as jobs with
    their final URL and header fields; ``save``: their exchanges appended to that WARC.
    A URL that gives no page is refused, saying why.  Private addresses are refused
    unless the command's ``--allow-private`` (:func:`allow_private_option`) is given."""
    from ..web import Fetcher, Politeness
    from ..web.archive import WarcWriter, open_append

    context = click.get_current_context(silent=True)
    allow_private = bool(context and context.meta.get(_ALLOW_PRIVATE_KEY))
    jobs = []
    with Fetcher(Politeness(timeout=timeout, max_bytes=max_bytes, allow_private=allow_private)) as fetcher:
        results = [fetcher.fetch(url) for url in urls]
    if save is not None:
        new = not Path(save).exists() or Path(save).stat().st_size == 0
        with open_append(save) as stream:
            writer = WarcWriter(stream, info={"operator": "detourage extract --save"} if new else None)
            for result in results:
                for exchange in result.exchanges:
                    writer.write(exchange)
    for result in results:
        if not result.ok:
            raise DetourageError(f"{result.url}: {result.outcome}" + (f" ({result.message})" if result.message
                                                                      and result.message != result.outcome else ""))
        jobs.append(Job(_url_id(result.final_url or result.url), data=result.content,
                        url=result.final_url or result.url, headers=result.headers))
    return jobs


def _url_id(url: str) -> str:
    """A page id from its URL: host and path, ``example.org/news/a``."""
    parts = urlsplit(url)
    path = parts.path.strip("/")
    text = f"{parts.netloc}/{path}" if path else parts.netloc
    text = re.sub(r"\.(?:html?|php|aspx?)$", "", text)
    return re.sub(r"[^\w./-]+", "_", text) or "page"
