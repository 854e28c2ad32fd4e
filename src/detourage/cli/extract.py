"""``detourage extract``: pages to text, Markdown, HTML, JSON… one by one or as a corpus run
(``--to``)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any

import click

from .. import methods
from ..errors import DetourageError
from ..inputs import PAGE_PATTERNS, read_inputs
from ..learned import pagetype
from ..loading import Job
from ..output import Writer, output_format, output_kind
from ..render import RENDERERS
from ..settings import FETCH_TIMEOUT, TIMEOUT, Limits, RenderOptions, Settings, default_max_memory, default_workers
from ..step import Step
from ..supervision import Summary, execute
from .fetch import allow_private_option, fetched_jobs, is_url
from .main import (
    REPAIR_HELP,
    URL_MAP_HELP,
    URLS_HELP,
    check_repair,
    fitted,
    main,
    models_option,
    os_message,
    progress_bar,
    url_list,
    with_url_map,
)


@main.command()
@click.argument("paths", nargs=-1)
@click.option("-m", "--method", default="default", show_default=True,
              help="Method or chain a+b (see `detourage methods`).")
@click.option("-f", "--format", "fmt", type=click.Choice(list(RENDERERS)), default=None,
              help="Output format (default: the one -o FILE's extension names, else txt).")
@click.option("-o", "--out", default=None,
              help="FOLDER for one file per page, FILE.jsonl for one JSON line per page, (-f csv) "
                   "FILE.csv for one row per page, or a file with an extension (out.txt) for one "
                   "page; default: standard output (several pages: each after a line ==> ID <==).")
@click.option("-w", "--workers", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes (0: one per CPU).")
@click.option("--timeout", type=click.FloatRange(min=0), default=TIMEOUT, show_default=True,
              help="Seconds allowed per page (0: no limit).")
@click.option("--max-bytes", type=click.IntRange(min=1), default=Limits().max_bytes, show_default=True,
              help="Largest page accepted, in bytes (gzipped .html.gz pages: unpacked).")
@click.option("--max-memory", type=click.IntRange(min=0), default=None,
              help="Memory ceiling of each worker process, in MiB; a page needing more is an "
                   "error record limit:memory (default: 4096, or half the machine's memory if "
                   "less; 0: none).")
@click.option("--to", "run_to", type=click.Choice(["parquet", "jsonl", "jsonl.gz", "jsonl.zst"]),
              default=None, help="A corpus run: -o is then a run folder of shards in this format, "
                                 "with a manifest and a summary (docs/corpus-runs.md). Exit status 3: "
                                 "done, but the input was damaged; 130: interrupted (--resume).")
@click.option("--shard-size", type=click.IntRange(min=1), default=1000, show_default=True,
              help="--to: records per shard (WARC and JSON-lines records, or page files).")
@click.option("--resume", is_flag=True, help="--to: finish the run of this folder, skipping finished shards.")
@click.option("--dask", default=None,
              help="--to: run the shards on Dask: local:N (a LocalCluster of N workers) or "
                   "tcp://HOST:8786 (a running cluster).")
@click.option("--with-markdown", is_flag=True, help="--to: also a markdown column.")
@click.option("--with-blocks", is_flag=True,
              help="json: also the units and every block of the page, boilerplate included, with its label.")
@click.option("--with-html", is_flag=True, help="--to: also an html column.")
@click.option("--timings/--no-timings", default=True, show_default=True,
              help="--to: the ms column (without it, a run writes the same bytes on any executor).")
@click.option("--url", default=None, help="URL of the page (single input only).")
@click.option("--urls", "url_file", type=click.Path(exists=True, dir_okay=False), default=None, help=URLS_HELP)
@click.option("--url-map", type=click.Path(exists=True, dir_okay=False), default=None, help=URL_MAP_HELP)
@click.option("--model", multiple=True,
              help="A trained model for the method (see `detourage train`); in a chain, STEP=FILE "
                   "for each step (--model ncleaner=a.json.gz --model victor=b.zip).")
@click.option("--template", "template_file", default=None,
              help="A site template for -m template (see `detourage template fit`); without "
                   "one, -m template fits one on the pages given.")
@click.option("--cleaneval-id", is_flag=True,
              help="With --format cleaneval: wrap each page in <text id=\"…\"> with a URL: line.")
@click.option("--links/--no-links", default=RenderOptions().links, show_default=True,
              help="markdown, html, json: links as [text](href), resolved against the page URL.")
@click.option("--images/--no-images", default=RenderOptions().images, show_default=True,
              help="markdown, html, json: images as ![alt](src); off: their alt text.")
@click.option("--tables/--no-tables", default=RenderOptions().tables, show_default=True,
              help="Data tables as tables (txt: a row per line); off: a paragraph per cell.")
@click.option("--formatting/--no-formatting", default=RenderOptions().formatting, show_default=True,
              help="markdown, html, json: emphasis, strong, inline code, line breaks.")
@click.option("--with-metadata", is_flag=True,
              help="txt, markdown: the page's metadata first, as YAML front matter (json, xml and "
                   "csv always carry it); --to: its fields as columns (docs/corpus-runs.md).")
@click.option("--comments", is_flag=True,
              help="Keep comment sections (methods that can: learned).")
@click.option("--page-type", type=click.Choice(("auto", *pagetype.TYPES)), default=None,
              help="The pages' kind, which moves how much the learned extractor keeps (a listing "
                   "keeps more of the lines it doubts); default: guessed per page (docs/page-types.md).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar (default: when standard error is a terminal).")
@click.option("--glob", "patterns", multiple=True,
              help="In folders, also read the files whose name matches this pattern (repeatable; "
                   "always read: *.html, *.htm, *.xhtml, *.shtml and their .gz).")
@click.option("--repair-text", is_flag=True, help=REPAIR_HELP)
@allow_private_option
@click.option("--save", default=None, metavar="FILE.warc.gz",
              help="Pages given as URLs: also keep what was fetched in this WARC (appended).")
@click.option("--quiet/--verbose", "-q/-v", default=None,
              help="Never / always print the run's summary line on standard error (default: for several "
                   "pages, or when a page failed; one page extracted well prints nothing but its text).")
def extract(paths: tuple[str, ...], method: str, fmt: str | None, out: str | None, workers: int,
            timeout: float, max_bytes: int, url: str | None, url_file: str | None, url_map: str | None,
            model: tuple[str, ...],
            template_file: str | None, cleaneval_id: bool, progress: bool | None,
            max_memory: int | None, run_to: str | None, shard_size: int, resume: bool, dask: str | None,
            with_markdown: bool, with_blocks: bool, with_html: bool, timings: bool,
            links: bool, images: bool, tables: bool, formatting: bool, with_metadata: bool,
            comments: bool, page_type: str | None, patterns: tuple[str, ...], repair_text: bool,
            save: str | None, quiet: bool | None) -> None:
    """Extract the main content of pages: files, folders (recursive), - for stdin, or
    http(s) URLs (given, or listed in --urls FILE; fetched politely, in memory; --save
    keeps the bytes in a WARC).

    Exit status: 0 when a page gave text; 1 when none did and some failed (or pages were
    lost); 4 when every page was read but none has main content (an empty file); 2 for a
    usage error."""
    fmt = _format(out, fmt, run_to, with_blocks, cleaneval_id)
    paths += tuple(url_list(url_file)) if url_file else ()
    if not paths:
        raise click.UsageError("nothing to extract: give files, folders, - (standard input), URLs or --urls FILE")
    if repair_text:
        check_repair()
    render = {"links": links, "images": images, "tables": tables, "formatting": formatting}
    if with_metadata:
        render["with_metadata"] = True
    options = _method_options(method, model, template_file, comments, page_type)
    fit_batch = template_file is None and methods.uses_template(method)
    settings = _settings(method, options, render, max_bytes, timeout, max_memory, repair_text)
    if run_to is not None:
        _refuse_for_runs(out, {"-f": fmt != "txt", "--url": url, "--urls": url_file, "--url-map": url_map,
                               "--cleaneval-id": cleaneval_id, "--save": save})
        if any(is_url(p) for p in paths):
            raise click.UsageError("a corpus run reads files: fetch the URLs into a WARC first "
                                   "(detourage fetch URL... -o crawl.warc.gz)")
        assert out is not None  # _refuse_for_runs refused a run without -o
        config = _run_config(out, run_to, settings, with_markdown, with_html, with_metadata, timings)
        _corpus_run(paths, config, shard_size, resume, workers, dask, patterns, progress, fit_batch)
        return
    jobs = _jobs(paths, patterns, out, fmt, save, timeout, max_bytes)
    if url is not None:
        if len(jobs) != 1:
            raise click.UsageError("--url needs exactly one input page")
        jobs = [Job(jobs[0].id, jobs[0].path, jobs[0].data, url)]
    jobs = with_url_map(jobs, url_map)
    if fit_batch and len(jobs) == 1:
        click.echo(f"detourage: {method}: no --template, and a template is fitted on several pages "
                   f"of a site: this page falls back to {methods.fallback_of(method)}", err=True)
    if fit_batch and len(jobs) > 1:
        with fitted(jobs, workers or default_workers(), settings) as path:
            _extract(jobs, settings.with_options(methods.with_template(method, path)), fmt, out, workers,
                     cleaneval_id, progress, quiet, with_blocks)
        return
    _extract(jobs, settings, fmt, out, workers, cleaneval_id, progress, quiet, with_blocks)


def _format(out: str | None, fmt: str | None, run_to: str | None, with_blocks: bool, cleaneval_id: bool) -> str:
    """The output format (from ``-f`` or ``-o``'s extension), refused when an option asks
    for another."""
    try:
        fmt = output_format(out, fmt) if run_to is None else (fmt or "txt")
    except DetourageError as exc:
        raise click.BadParameter(str(exc), param_hint="'-f'") from None
    if with_blocks and fmt != "json":
        raise click.BadParameter("goes with -f json (the blocks of the page in its JSON)",
                                 param_hint="'--with-blocks'")
    if cleaneval_id and fmt != "cleaneval":
        raise click.BadParameter("goes with -f cleaneval (the <text id=…> wrapper of CleanEval "
                                 "submissions)", param_hint="'--cleaneval-id'")
    return fmt


def _jobs(paths: tuple[str, ...], patterns: tuple[str, ...], out: str | None, fmt: str, save: str | None,
          timeout: float, max_bytes: int) -> list[Job]:
    """The pages to extract: files and folders read in the workers, URLs fetched now
    (``--save``: into that WARC too)."""
    web = [p for p in paths if is_url(p)]
    if save is not None and not web:
        raise click.UsageError("--save keeps pages fetched from URLs: give some")
    jobs = _inputs(tuple(p for p in paths if not is_url(p)), patterns, out, fmt) if len(web) < len(paths) else []
    if web:
        jobs += fetched_jobs(web, save, timeout or FETCH_TIMEOUT, max_bytes)
        _check_one_output(out, fmt, len(jobs))
    return jobs


def _method_options(method: str, model: tuple[str, ...], template_file: str | None, comments: bool,
                    page_type: str | None) -> dict:
    """The method options the flags ask for (its peers installed, models checked, the
    template, comments kept, the pages' kind); a usage error when they cannot be."""
    try:
        methods.require(method)
        options = models_option(method, model)
        options.update(methods.with_template(method, template_file))
        options = methods.with_comments(method, options) if comments else options
        return methods.with_page_type(method, options, page_type) if page_type else options
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None


def _refuse_for_runs(out: str | None, given: dict[str, Any]) -> None:
    """A corpus run (``--to``) needs its folder and takes none of the one-page flags."""
    if out is None:
        raise click.UsageError("--to writes a run folder: give it with -o FOLDER")
    if any(given.values()):
        raise click.UsageError(f"{', '.join(k for k, v in given.items() if v)}: not for --to, whose "
                               "rows hold the text as txt (--with-markdown, --with-html, --with-metadata "
                               "add columns)")


def _inputs(paths: tuple[str, ...], patterns: tuple[str, ...], out: str | None, fmt: str) -> list[Job]:
    """The pages of PATHS, checked before the run: every path exists, an output folder
    inside an input folder is not read back, one output file is for one page."""
    from ..corpusrun.plan import input_kind

    named = [p for p in paths if input_kind(p) != "page" and not os.path.isdir(p)]
    if named:
        raise click.UsageError(f"{named[0]}: WARC and JSON-lines files are read by a corpus run: "
                               "-o RUN_FOLDER --to parquet (or jsonl, jsonl.gz, jsonl.zst)")
    try:
        jobs = list(read_inputs(paths, patterns=patterns, exclude=[out] if out else []))
    except FileNotFoundError as exc:
        raise click.BadParameter(os_message(exc), param_hint="PATHS") from None
    if not jobs:
        raise click.UsageError("no input pages found (folders are read for "
                               f"{', '.join(PAGE_PATTERNS)}; add others with --glob)")
    _check_one_output(out, fmt, len(jobs))
    return jobs


def _check_one_output(out: str | None, fmt: str, pages: int) -> None:
    if output_kind(out, fmt) == "page" and pages > 1:
        raise click.BadParameter(f"{out} is one file, for one page; for {pages} pages give a "
                                 "folder or FILE.jsonl", param_hint="'-o'")


def _settings(method: str, options: dict, render: dict, max_bytes: int, timeout: float,
              max_memory: int | None, repair: bool) -> Settings:
    """The page's road from the command's flags (``--max-memory`` in MiB; none given: the
    default ceiling, 0: none)."""
    memory = default_max_memory() if max_memory is None else max_memory << 20
    flags = dict(render)
    with_metadata = flags.pop("with_metadata", False)
    return Settings(method=method, options=tuple(options.items()), limits=Limits(max_bytes=max_bytes),
                    timeout=timeout, max_memory=memory or None, repair=repair, render=RenderOptions(**flags),
                    with_metadata=with_metadata)


def _extract(jobs: list[Job], settings: Settings, fmt: str, out: str | None, workers: int, cleaneval_id: bool,
             progress: bool | None, quiet: bool | None = None, blocks: bool = False) -> None:
    step = Step(settings=settings, format=fmt, cleaneval_wrapper=cleaneval_id,
                url_and_title=output_kind(out, fmt) == "jsonl", blocks=blocks)
    writer = Writer(out, fmt, headers=len(jobs) > 1 and not cleaneval_id)
    summary = _run(jobs, step, workers or default_workers(), writer, progress)
    status = exit_status(summary)
    if quiet is False or (quiet is None and (len(jobs) > 1 or summary.ok < len(jobs) or status)):
        click.echo(f"detourage: {summary}", err=True)
    if status:
        sys.exit(status)


#: ``detourage extract``'s exit status when every page was read and none has text
NO_TEXT = 4


def exit_status(summary: Summary) -> int:
    """0 when a page gave text; 1 when none did and some failed, or pages were lost;
    :data:`NO_TEXT` when every page was read well and none has main content."""
    if not summary.balanced or (summary.ok == 0 and summary.failed):
        return 1
    return NO_TEXT if summary.ok == 0 else 0


def _run_config(out: str, to: str, settings: Settings, markdown: bool, html: bool, metadata: bool,
                timings: bool) -> Any:
    """The workers' settings of a corpus run (``--to``)."""
    from dataclasses import replace

    from ..corpusrun import RunConfig

    # the metadata goes into columns of its own, never as front matter into the text
    return RunConfig(folder=os.path.abspath(out), to=to, settings=replace(settings, with_metadata=False),
                     markdown=markdown, html=html, metadata=metadata, timings=timings)


def _corpus_run(paths: tuple[str, ...], config: Any, shard_size: int, resume: bool,
                workers: int, dask: str | None, patterns: tuple[str, ...], progress: bool | None,
                fit_template: bool) -> None:
    """A corpus run (``--to``): shards of rows in a run folder, a progress bar with pages/s
    and the time left on a terminal, the run's summary on stderr (and in the folder).
    Exits with :attr:`detourage.corpusrun.RunSummary.exit_status` (0, 1, 3 for a damaged
    input, 130 after Ctrl-C).  The run's manifest describes it by its settings
    (:meth:`detourage.corpusrun.RunConfig.described`), which ``--resume`` compares."""
    import time

    from ..corpusrun import Request, Stop, run
    from ..corpusrun.run import counted

    request = Request(paths=paths, config=config, shard_records=shard_size, resume=resume,
                      workers=workers or default_workers(), dask=dask, patterns=patterns,
                      fit_template=fit_template)
    stop = Stop()
    with contextlib.ExitStack() as stack:
        bar: list[Any] = []
        pages, t0 = [0], time.perf_counter()

        def on_plan(records: int) -> None:
            bar.append(stack.enter_context(progress_bar(progress, length=records, label="records",
                                                        item_show_func=lambda rate: rate)))

        def on_shard(marker: dict) -> None:
            pages[0] += marker["rows"]
            bar[0].update(marker["records"], f"{pages[0] / (time.perf_counter() - t0):.1f} pages/s")

        stack.enter_context(_ctrl_c(stop))
        summary = run(request, on_shard, on_plan, stop)
    click.echo(f"detourage: {summary}", err=True)
    if summary.interrupted:
        click.echo(f"detourage: interrupted: {summary.done} of {counted(summary.shards, 'shard')} done; finish "
                   "with --resume", err=True)
    sys.exit(summary.exit_status)


@contextlib.contextmanager
def _ctrl_c(stop: Any) -> Iterator[None]:
    """Ctrl-C during a corpus run: the first starts no more shards and gives the running
    ones a few seconds; the second kills the workers and ends at once (status 130)."""
    import signal
    import threading

    from ..corpusrun.run import counted

    if threading.current_thread() is not threading.main_thread():  # no handler there: Python's own
        yield
        return

    def interrupted(signum: int, frame: Any) -> None:
        if not stop.requested:
            stop.request()
            _say(f"detourage: stopping: no more shards start; the running ones get {stop.grace:g} s "
                 "(Ctrl-C again to quit now)")
            return
        stop.abort()
        _say(f"detourage: interrupted: {stop.done} of {counted(stop.total, 'shard')} done; finish with --resume")
        os._exit(130)

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _say(line: str) -> None:
    """A line on standard error from a signal handler (no buffered stream, which the
    interrupted code may be writing to)."""
    os.write(2, (line + "\n").encode("utf-8", "replace"))


def _run(jobs: list[Job], step: Step, workers: int, writer: Writer, progress: bool | None) -> Summary:
    summary = Summary(inputs=len(jobs))
    try:
        with progress_bar(progress, length=len(jobs), label="pages") as bar:
            for record in execute(jobs, step, workers):
                writer.write(record)
                summary.add(record)
                bar.update(1)
    finally:
        writer.close()
    return summary
