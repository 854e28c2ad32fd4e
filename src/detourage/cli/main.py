"""The ``detourage`` group, its one-line error handling, and what several commands share
(``--model``, ``--urls``, ``--repair-text``, a template fitted on the batch)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
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
        click.echo(f"detourage: warning: {unknown.pages} pages have no URL (no --urls, no canonical "
                   "link or og:url): fitted together as one site named ''; give their URLs with --urls, "
                   "or --group-by all to say they are one site", err=True)


def with_urls(jobs: list[Job], urls: str | None) -> list[Job]:
    """The jobs with the URLs of ``--urls`` (:func:`detourage.inputs.with_urls`); a bad line
    is a usage error."""
    try:
        return inputs.with_urls(jobs, urls)
    except DatasetError as exc:
        raise click.UsageError(str(exc)) from None


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
