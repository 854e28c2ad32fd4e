"""The ``detourage`` command: a thin layer over the library (see ``detourage --help``)."""

from __future__ import annotations

import sys
import click

from . import __version__, methods
from .corpus import Job, Step, Summary, Writer, default_workers, execute, read_inputs
from .errors import DetourageError
from .parse import Limits
from .render import RENDERERS


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="detourage")
def main() -> None:
    """Détourage of web pages: keep the main content (title, headings, paragraphs, lists)."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-m", "--method", default="default", show_default=True,
              help="Method or chain a+b (see `detourage methods`).")
@click.option("-f", "--format", "fmt", type=click.Choice(list(RENDERERS)), default="txt",
              show_default=True, help="Output format.")
@click.option("-o", "--out", default=None,
              help="FOLDER for one file per page, or FILE.jsonl for one JSON line per page; "
                   "default: standard output.")
@click.option("-w", "--workers", type=int, default=1, show_default=True,
              help="Worker processes (0: one per CPU).")
@click.option("--timeout", type=float, default=30.0, show_default=True,
              help="Seconds allowed per page (0: no limit).")
@click.option("--max-bytes", type=int, default=Limits().max_bytes, show_default=True,
              help="Largest page accepted, in bytes.")
@click.option("--url", default=None, help="URL of the page (single input only).")
@click.option("--cleaneval-id", is_flag=True,
              help="With --format cleaneval: wrap each page in <text id=\"…\"> with a URL: line.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar (default: when standard error is a terminal).")
def extract(paths: tuple[str, ...], method: str, fmt: str, out: str | None, workers: int,
            timeout: float, max_bytes: int, url: str | None, cleaneval_id: bool,
            progress: bool | None) -> None:
    """Extract the main content of pages: files, folders (recursive) or - for stdin."""
    try:
        methods.chain(method)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    jobs = list(read_inputs(paths))
    if not jobs:
        raise click.UsageError("no input pages found")
    if url is not None:
        if len(jobs) != 1:
            raise click.UsageError("--url needs exactly one input page")
        jobs = [Job(jobs[0].id, jobs[0].path, jobs[0].data, url)]
    step = Step(method=method, format=fmt, limits=Limits(max_bytes=max_bytes), timeout=timeout,
                cleaneval_wrapper=cleaneval_id)
    summary = _run(jobs, step, workers or default_workers(), Writer(out, fmt), progress)
    click.echo(f"detourage: {summary}", err=True)
    if summary.ok == 0:
        sys.exit(1)


def _run(jobs: list[Job], step: Step, workers: int, writer: Writer, progress: bool | None) -> Summary:
    summary = Summary()
    show = sys.stderr.isatty() if progress is None else progress
    records = execute(jobs, step, workers)
    try:
        with click.progressbar(records, length=len(jobs), file=sys.stderr, label="pages",
                               hidden=not show) as bar:
            for record in bar:
                writer.write(record)
                summary.add(record)
    finally:
        writer.close()
    return summary


@main.command("methods")
def list_methods() -> None:
    """List the methods, with their seed and what they do."""
    rows = [(m.name, m.seed, m.description) for m in methods.available()]
    rows += [(alias, "", f"alias of {target}") for alias, target in methods.ALIASES.items()]
    width = max(len(name) for name, _, _ in rows)
    click.echo(f"{'name':<{width}}  seed  description")
    for name, seed, description in rows:
        click.echo(f"{name:<{width}}  {seed:<4}  {description}")
