"""The ``detourage`` group, its one-line error handling, and what several commands share
(``--model``, ``--urls`` and ``--url-map``, ``--repair-text``, a template fitted on the batch,
sizes in words)."""

from __future__ import annotations

import contextlib
import itertools
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import click

from .. import inputs
from ..errors import DatasetError, DetourageError
from ..loading import Job
from ..settings import Settings
from ..version import __version__


class _Refused(click.ClickException):
    """A user's mistake found during a command: one line on standard error, exit status 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"detourage: error: {self.format_message()}", err=True)


class _Main(click.Group):
    """The ``detourage`` group: every :class:`DetourageError` and every file that cannot be
    read or written, from any subcommand, ends in one clear line and exit status 2 — a
    traceback is kept for detourage's own bugs."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except DetourageError as exc:
            raise _Refused(str(exc)) from None
        except BrokenPipeError:
            raise  # click closes quietly when the reader of the output goes away
        except OSError as exc:
            raise _Refused(os_message(exc)) from None


def os_message(exc: OSError) -> str:
    """``PATH: reason`` for a file that cannot be read or written."""
    if exc.filename is None:
        return exc.strerror or str(exc)
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason[:1].lower()}{reason[1:]}"


#: the help of --repair-text (extract, evaluate)
REPAIR_HELP = ("Undo the mojibake of text double-encoded before the page was saved (Ã© for é) "
                "with ftfy (pip install 'detourage[repair]'); off by default (docs/library.md, Text repair).")


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="detourage")
def main() -> None:
    """Détourage of web pages: keep the main content (title, headings, paragraphs, lists)."""


def check_repair() -> None:
    """Refuse --repair-text up front when ftfy is not installed."""
    from ..decode import text_fixer

    text_fixer()


def models_option(method: str, given: tuple[str, ...]) -> dict[str, Any]:
    """Options from ``--model FILE`` (every step that takes a model) or ``--model STEP=FILE``
    (repeatable), each model checked now (:func:`detourage.api.with_models`)."""
    if not given:
        return {}
    from ..api import with_models

    named = [g.partition("=") for g in given]
    if all(sep for _, sep, _ in named):
        return with_models(method, {name: file for name, _, file in named})
    if len(given) > 1 or any(sep for _, sep, _ in named):
        raise click.BadParameter("one FILE for every step, or STEP=FILE for each", param_hint="'--model'")
    return with_models(method, given[0])


def warn_no_site(template: Any) -> None:
    """Say when pages without a URL were lumped into one site named ''."""
    unknown = template.sites.get("")
    if unknown is not None:
        click.echo(f"detourage: warning: {unknown.pages} pages have no URL (no --url-map, no canonical "
                   "link or og:url): fitted together as one site named ''; give their URLs with --url-map, "
                   "or --group-by all to say they are one site", err=True)


#: the help of --url-map (extract, template fit)
URL_MAP_HELP = ("A JSON-lines file of {\"id\": …, \"url\": …} giving the URLs of the pages read from files "
                "(ids as `extract` names pages).")
#: the help of --urls (fetch, extract)
URLS_HELP = "A file of URLs to fetch, one a line (# starts a comment)."


def with_url_map(jobs: list[Job], url_map: str | None) -> list[Job]:
    """The jobs with the URLs of ``--url-map`` (:func:`detourage.inputs.with_urls`); a bad
    line is a usage error."""
    try:
        return inputs.with_urls(jobs, url_map)
    except DatasetError as exc:
        raise click.UsageError(str(exc)) from None


def url_list(path: str) -> list[str]:
    """The URLs of a ``--urls`` file, one a line (``#`` starts a comment).  A JSON-lines
    file is the map of ids to URLs that ``--urls`` once named in ``extract``: refused in
    one line naming ``--url-map``."""
    with open(path, encoding="utf-8-sig") as lines:
        urls = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if urls and urls[0].startswith("{"):
        raise _Refused(f"--urls {path}: JSON lines, but --urls is a list of URLs to fetch, one a line; "
                       "a map of page ids to URLs is --url-map FILE")
    return urls


def url_map_renamed(command: Any) -> Any:
    """A hidden ``--urls`` on a command that took the JSON-lines map under that name
    (``template fit``): one line naming ``--url-map``."""
    def refuse(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        if value is not None:
            raise _Refused("--urls is now --url-map (a JSON-lines file of {\"id\", \"url\"})")

    return click.option("--urls", hidden=True, expose_value=False, callback=refuse)(command)


def progress_bar(progress: bool | None, *, label: str, length: int | None = None,
                 item_show_func: Callable[[Any], str | None] | None = None) -> Any:
    """The progress bar of every long command (``extract``, ``extract --to``, ``fetch``), on
    standard error: shown when it is a terminal unless ``--progress``/``--no-progress``
    says otherwise.  Without a ``length`` (a crawl, whose pages are found as it goes) it
    counts what was done; advance it with ``bar.update(n, item)``."""
    show = sys.stderr.isatty() if progress is None else progress
    return click.progressbar(length=length, iterable=None if length is not None else itertools.repeat(None),
                             label=label, file=sys.stderr, hidden=not show, show_pos=length is None,
                             item_show_func=item_show_func)


def size_text(size: int) -> str:
    """A size in bytes as people read it: ``812 bytes``, ``8.7 KB``, ``1.2 MB``, ``3.4 GB``."""
    if size < 1000:
        return f"{size} byte{'s' * (size != 1)}"
    scaled = float(size)
    for unit in ("KB", "MB", "GB"):  # noqa: B007 - the unit it stops at is read after it
        scaled /= 1000
        if scaled < 1000:
            break
    return f"{scaled:.1f} {unit}"


@contextlib.contextmanager
def fitted(jobs: Iterable[Job], workers: int, settings: Settings, group_by: str = "host") -> Iterator[str]:
    """Fit a template on the pages themselves, in a temporary file (``-m template`` on a
    batch), saying on standard error what was fitted."""
    from ..site import template as site_template

    with site_template.fitted(jobs, workers=workers, group_by=group_by, settings=settings) as (path, template,
                                                                                            failed):
        rows = site_template.describe(template)
        warn_no_site(template)
        click.echo(f"detourage: template fitted on {template.pages} pages of {len(rows)} sites "
                   f"({sum(r['templates'] for r in rows)} templates, {sum(r['outliers'] for r in rows)} "
                   f"outlier pages); {len(failed)} pages could not be read", err=True)
        yield path
