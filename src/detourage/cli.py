"""The ``detourage`` command: a thin layer over the library (see ``detourage --help``)."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import click

from . import __version__, methods
from .corpus import (PAGE_PATTERNS, Job, Step, Summary, Writer, default_max_memory, default_workers, execute,
                     output_kind, read_inputs)
from .errors import DetourageError
from .parse import Limits
from .render import RENDERERS, RenderOptions
from .settings import Settings


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
            raise _Refused(_os_message(exc)) from None


def _os_message(exc: OSError) -> str:
    """``PATH: reason`` for a file that cannot be read or written."""
    if exc.filename is None:
        return exc.strerror or str(exc)
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason[:1].lower()}{reason[1:]}"


#: the help of --repair-text (extract, evaluate)
_REPAIR_HELP = ("Undo the mojibake of text double-encoded before the page was saved (Ã© for é) "
                "with ftfy (pip install 'detourage[repair]'); off by default (README: Text repair).")


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
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
              help="FOLDER for one file per page, FILE.jsonl for one JSON line per page, (-f csv) "
                   "FILE.csv for one row per page, or a file with an extension (out.txt) for one "
                   "page; default: standard output (several pages: each after a line ==> ID <==).")
@click.option("-w", "--workers", type=int, default=1, show_default=True,
              help="Worker processes (0: one per CPU).")
@click.option("--timeout", type=float, default=30.0, show_default=True,
              help="Seconds allowed per page (0: no limit).")
@click.option("--max-bytes", type=int, default=Limits().max_bytes, show_default=True,
              help="Largest page accepted, in bytes (gzipped .html.gz pages: unpacked).")
@click.option("--max-memory", type=int, default=None,
              help="Memory ceiling of each worker process, in MiB; a page needing more is an "
                   "error record limit:memory (default: 4096, or half the machine's memory if "
                   "less; 0: none).")
@click.option("--to", "run_to", type=click.Choice(["parquet", "jsonl", "jsonl.gz", "jsonl.zst"]),
              default=None, help="A corpus run: -o is then a run folder of shards in this format, "
                                 "with a manifest and a summary (README: Corpus runs). Exit status 3: "
                                 "done, but the input was damaged; 130: interrupted (--resume).")
@click.option("--shard-size", type=int, default=1000, show_default=True,
              help="--to: records per shard (WARC and JSON-lines records, or page files).")
@click.option("--resume", is_flag=True, help="--to: finish the run of this folder, skipping finished shards.")
@click.option("--dask", default=None,
              help="--to: run the shards on Dask: local:N (a LocalCluster of N workers) or "
                   "tcp://HOST:8786 (a running cluster).")
@click.option("--with-markdown", is_flag=True, help="--to: also a markdown column.")
@click.option("--with-html", is_flag=True, help="--to: also an html column.")
@click.option("--timings/--no-timings", default=True, show_default=True,
              help="--to: the ms column (without it, a run writes the same bytes on any executor).")
@click.option("--url", default=None, help="URL of the page (single input only).")
@click.option("--urls", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A JSON-lines file of {\"id\": …, \"url\": …} giving the pages' URLs.")
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
                   "csv always carry it).")
@click.option("--comments", is_flag=True,
              help="Keep comment sections (methods that can: learned).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar (default: when standard error is a terminal).")
@click.option("--glob", "patterns", multiple=True,
              help="In folders, also read the files whose name matches this pattern (repeatable; "
                   "always read: *.html, *.htm, *.xhtml, *.shtml and their .gz).")
@click.option("--repair-text", is_flag=True, help=_REPAIR_HELP)
def extract(paths: tuple[str, ...], method: str, fmt: str, out: str | None, workers: int,
            timeout: float, max_bytes: int, url: str | None, urls: str | None, model: tuple[str, ...],
            template_file: str | None, cleaneval_id: bool, progress: bool | None,
            max_memory: int | None, run_to: str | None, shard_size: int, resume: bool, dask: str | None,
            with_markdown: bool, with_html: bool, timings: bool,
            links: bool, images: bool, tables: bool, formatting: bool, with_metadata: bool,
            comments: bool, patterns: tuple[str, ...], repair_text: bool) -> None:
    """Extract the main content of pages: files, folders (recursive) or - for stdin."""
    if cleaneval_id and fmt != "cleaneval":
        raise click.BadParameter("goes with -f cleaneval (the <text id=…> wrapper of CleanEval "
                                 "submissions)", param_hint="'--cleaneval-id'")
    if repair_text:
        _check_repair()
    render = {"links": links, "images": images, "tables": tables, "formatting": formatting}
    if with_metadata:
        render["with_metadata"] = True
    try:
        options = _models(method, model)
        options.update(methods.with_template(method, template_file))
        if comments:
            options = _with_comments(method, options)
        fit_batch = template_file is None and methods.uses_template(method)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    if run_to is not None:
        given = {"-f": fmt != "txt", "--url": url, "--urls": urls, "--cleaneval-id": cleaneval_id,
                 "--with-metadata": with_metadata}
        if out is None:
            raise click.UsageError("--to writes a run folder: give it with -o FOLDER")
        if any(given.values()):
            raise click.UsageError(f"{', '.join(k for k, v in given.items() if v)}: not for --to, whose "
                                   "rows hold the text as txt (--with-markdown, --with-html add columns)")
        described = {"method": method, "to": run_to, "models": list(model), "template": template_file,
                     "comments": comments, "render": render, "markdown": with_markdown, "html": with_html,
                     "timings": timings, "max_bytes": max_bytes, "timeout": timeout}
        if repair_text:  # only when on: runs started before the option stay resumable
            described["repair"] = True
        config = _run_config(out, run_to, _settings(method, options, render, max_bytes, timeout, max_memory,
                                                    repair_text), with_markdown, with_html, timings)
        _corpus_run(paths, config, described, shard_size, resume, workers, dask, patterns, progress,
                    fit_batch)
        return
    jobs = _inputs(paths, patterns, out, fmt)
    if url is not None:
        if len(jobs) != 1:
            raise click.UsageError("--url needs exactly one input page")
        jobs = [Job(jobs[0].id, jobs[0].path, jobs[0].data, url)]
    jobs = _with_urls(jobs, urls)
    if fit_batch and len(jobs) == 1:
        click.echo(f"detourage: {method}: no --template, and a template is fitted on several pages "
                   f"of a site: this page falls back to {_fallback(method)}", err=True)
    settings = _settings(method, options, render, max_bytes, timeout, max_memory, repair_text)
    if fit_batch and len(jobs) > 1:
        with _fitted(jobs, workers or default_workers(), settings) as path:
            _extract(jobs, settings.with_options(methods.with_template(method, path)), fmt, out, workers,
                     cleaneval_id, progress)
        return
    _extract(jobs, settings, fmt, out, workers, cleaneval_id, progress)


def _inputs(paths: tuple[str, ...], patterns: tuple[str, ...], out: str | None, fmt: str) -> list[Job]:
    """The pages of PATHS, checked before the run: every path exists, an output folder
    inside an input folder is not read back, one output file is for one page."""
    from .corpusrun.plan import input_kind

    named = [p for p in paths if input_kind(p) != "page" and not os.path.isdir(p)]
    if named:
        raise click.UsageError(f"{named[0]}: WARC and JSON-lines files are read by a corpus run: "
                               "-o RUN_FOLDER --to parquet (or jsonl, jsonl.gz, jsonl.zst)")
    try:
        jobs = list(read_inputs(paths, patterns=patterns, exclude=[out] if out else []))
    except FileNotFoundError as exc:
        raise click.BadParameter(_os_message(exc), param_hint="PATHS") from None
    if not jobs:
        raise click.UsageError("no input pages found (folders are read for "
                               f"{', '.join(PAGE_PATTERNS)}; add others with --glob)")
    if output_kind(out, fmt) == "page" and len(jobs) > 1:
        raise click.BadParameter(f"{out} is one file, for one page; for {len(jobs)} pages give a "
                                 "folder or FILE.jsonl", param_hint="'-o'")
    return jobs


def _models(method: str, given: tuple[str, ...]) -> dict[str, Any]:
    """Options from ``--model FILE`` (every step that takes a model) or ``--model STEP=FILE``
    (repeatable), each model checked now (:func:`detourage.api.with_models`)."""
    if not given:
        return {}
    from .api import with_models

    named = [g.partition("=") for g in given]
    if all(sep for _, sep, _ in named):
        return with_models(method, {name: file for name, _, file in named})
    if len(given) > 1 or any(sep for _, sep, _ in named):
        raise click.BadParameter("one FILE for every step, or STEP=FILE for each", param_hint="'--model'")
    return with_models(method, given[0])


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
             progress: bool | None) -> None:
    step = Step(settings=settings, format=fmt, cleaneval_wrapper=cleaneval_id)
    writer = Writer(out, fmt, headers=len(jobs) > 1 and not cleaneval_id)
    summary = _run(jobs, step, workers or default_workers(), writer, progress)
    click.echo(f"detourage: {summary}", err=True)
    if summary.ok == 0 or not summary.balanced:
        sys.exit(1)


def _check_repair() -> None:
    """Refuse --repair-text up front when ftfy is not installed."""
    from .decode import text_fixer

    text_fixer()


def _run_config(out: str, to: str, settings: Settings, markdown: bool, html: bool, timings: bool) -> Any:
    """The workers' settings of a corpus run (``--to``)."""
    from .corpusrun import Config

    return Config(folder=os.path.abspath(out), to=to, settings=settings, markdown=markdown, html=html,
                  timings=timings)


def _corpus_run(paths: tuple[str, ...], config: Any, described: dict, shard_size: int, resume: bool,
                workers: int, dask: str | None, patterns: tuple[str, ...], progress: bool | None,
                fit_template: bool) -> None:
    """A corpus run (``--to``): shards of rows in a run folder, a progress bar with pages/s
    and the time left on a terminal, the run's summary on stderr (and in the folder).
    Exits with :attr:`detourage.corpusrun.RunSummary.exit_status` (0, 1, 3 for a damaged
    input, 130 after Ctrl-C)."""
    import time

    from .corpusrun import Request, Stop, run

    request = Request(paths=paths, config=config, shard_records=shard_size, resume=resume,
                      workers=workers or default_workers(), dask=dask, patterns=patterns,
                      fit_template=fit_template, described=described)
    show = sys.stderr.isatty() if progress is None else progress
    stop = Stop()
    with contextlib.ExitStack() as stack:
        bar: list[Any] = []
        pages, t0 = [0], time.perf_counter()

        def on_plan(records: int) -> None:
            bar.append(stack.enter_context(click.progressbar(
                length=records, label="records", file=sys.stderr, hidden=not show,
                item_show_func=lambda rate: rate)))

        def on_shard(marker: dict) -> None:
            pages[0] += marker["rows"]
            bar[0].update(marker["records"], f"{pages[0] / (time.perf_counter() - t0):.1f} pages/s")

        stack.enter_context(_ctrl_c(stop))
        summary = run(request, on_shard, on_plan, stop)
    click.echo(f"detourage: {summary}", err=True)
    if summary.interrupted:
        click.echo(f"detourage: interrupted: {summary.done} of {summary.shards} shards done; finish with "
                   "--resume", err=True)
    sys.exit(summary.exit_status)


@contextlib.contextmanager
def _ctrl_c(stop: Any) -> Iterator[None]:
    """Ctrl-C during a corpus run: the first starts no more shards and gives the running
    ones a few seconds; the second kills the workers and ends at once (status 130)."""
    import signal
    import threading

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
        _say(f"detourage: interrupted: {stop.done} of {stop.total} shards done; finish with --resume")
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


def _fallback(method: str) -> str:
    """The method that labels a page without a template (the template step's ``fallback``)."""
    found = [getattr(m.options(**dict(m.defaults)), "fallback", None) for m in methods.chain(method)]
    return next((f for f in found if f), "its fallback method")


def _warn_no_site(template: Any) -> None:
    """Say when pages without a URL were lumped into one site named ''."""
    unknown = template.sites.get("")
    if unknown is not None:
        click.echo(f"detourage: warning: {unknown.pages} pages have no URL (no --urls, no canonical "
                   "link or og:url): fitted together as one site named ''; give their URLs with --urls, "
                   "or --group-by all to say they are one site", err=True)


def _with_comments(method: str, options: dict) -> dict:
    """``options`` with ``comments=True`` for every method of the chain whose ``Options``
    has that field (keeping a model or template already set); an error when none has."""
    import dataclasses

    out = dict(options)
    for step in methods.chain(method):
        if "comments" in getattr(step.options, "__dataclass_fields__", {}):
            base = out.get(step.name) or step.options(**dict(step.defaults))
            out[step.name] = dataclasses.replace(base, comments=True)
    if out.keys() == options.keys() and all(out[k] is options[k] for k in out):
        raise DetourageError(f"--comments: no method of {method!r} keeps comments (try -m learned)")
    return out


def _with_urls(jobs: list[Job], urls: str | None) -> list[Job]:
    """The jobs with the URLs of a JSON-lines file of {"id", "url"} (ids as `extract` names pages)."""
    if urls is None:
        return jobs
    import json

    known = {}
    with open(urls, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    row = json.loads(line)
                    known[str(row["id"])] = row.get("url")
                except (ValueError, KeyError, TypeError) as exc:
                    raise click.UsageError(f"{urls}:{number}: not a {{\"id\", \"url\"}} line ({exc})") from None
    return [Job(j.id, j.path, j.data, known.get(j.id, j.url)) for j in jobs]


@contextlib.contextmanager
def _fitted(jobs: Iterable[Job], workers: int, settings: Settings, group_by: str = "host") -> Iterator[str]:
    """Fit a template on the pages themselves, in a temporary file (``-m template`` on a batch)."""
    from .site import template as site_template

    template, failed = site_template.fit_jobs(jobs, workers=workers, group_by=group_by, settings=settings)
    rows = site_template.describe(template)
    _warn_no_site(template)
    click.echo(f"detourage: template fitted on {template.pages} pages of {len(rows)} sites "
               f"({sum(r['templates'] for r in rows)} templates, {sum(r['outliers'] for r in rows)} "
               f"outlier pages); {len(failed)} pages could not be read", err=True)
    with tempfile.TemporaryDirectory(prefix="detourage-template-") as folder:
        path = os.path.join(folder, "template.json.gz")
        site_template.save(template, path)
        yield path


def _run(jobs: list[Job], step: Step, workers: int, writer: Writer, progress: bool | None) -> Summary:
    summary = Summary(inputs=len(jobs))
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


@main.command("evaluate")
@click.argument("datasets", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("-m", "--method", "method_names", multiple=True,
              help="Method or chain a+b; repeat for several (default: default, said on standard error).")
@click.option("-o", "--out", default="evaluation", show_default=True, help="Folder for the reports.")
@click.option("-w", "--workers", type=int, default=1, show_default=True,
              help="Worker processes (0: one per CPU).")
@click.option("--sample", type=int, default=None,
              help="Only N scorable pages of each dataset, spread over its languages (a fixed draw).")
@click.option("--task", type=click.Choice(["daniel"]), default=None,
              help="Also run a downstream task on each output (seed 002 Table 3).")
@click.option("--task-resources", type=click.Path(exists=True, file_okay=False), default=None,
              help="The task's lexicons (default: resources/<task> two levels above the dataset).")
@click.option("--timeout", type=float, default=30.0, show_default=True, help="Seconds allowed per page.")
@click.option("--model", default=None, help="A trained model for the methods that take one.")
@click.option("--bootstrap", type=int, default=1000, show_default=True,
              help="Bootstrap samples for the shingle F1 interval.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar (default: when standard error is a terminal).")
@click.option("--split", type=click.Choice(["train", "held-out"]), default=None,
              help="Only the pages of one half of the fixed split (shipped models train on "
                   "'train': score them on 'held-out').")
@click.option("--template", "template_file", default=None,
              help="A site template for the methods that take one; without it they are fitted "
                   "on the evaluated pages themselves (never on their gold).")
@click.option("--repair-text", is_flag=True, help=_REPAIR_HELP)
def evaluate_command(datasets: tuple[str, ...], method_names: tuple[str, ...], out: str, workers: int,
                     sample: int | None, task: str | None, task_resources: str | None, timeout: float,
                     model: str | None, bootstrap: int, progress: bool | None, split: str | None,
                     template_file: str | None, repair_text: bool) -> None:
    """Score methods against gold datasets (CleanEval TO/TM/CAR, shingles, cosine, snippets).

    A method whose shipped model was trained on pages scored is named in the report and on
    standard error, with where to find its honest figures."""
    if repair_text:
        _check_repair()
    if not method_names:
        method_names = ("default",)
        click.echo(f"detourage: no -m given: evaluating default ({methods.get('default').name})", err=True)
    try:
        options: dict = {}
        for name in method_names:
            methods.chain(name)
            if model is not None:
                options.update(_models(name, (model,)))
            if template_file is not None:
                options.update(methods.with_template(name, template_file))
        resources = _task_resources(task, task_resources, datasets)
        fit_batch = template_file is None and any(methods.uses_template(n) for n in method_names)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    with contextlib.ExitStack() as stack:
        if fit_batch:
            from .evaluation.evaluate import page_jobs
            from .evaluation.gold import load_dataset

            docs = {job.doc.id: job.doc for job in page_jobs([load_dataset(d) for d in datasets],
                                                              ["-"], sample, split)}
            jobs = [Job(doc.id, str(doc.html_path), None, doc.meta.get("url")) for doc in docs.values()]
            path = stack.enter_context(_fitted(jobs, workers or default_workers(), Settings(timeout=timeout)))
            for name in method_names:
                if methods.uses_template(name):
                    options.update(methods.with_template(name, path))
        _evaluate(datasets, method_names, out, workers, sample, task, timeout, bootstrap, progress,
                  split, options, resources, repair_text)


def _evaluate(datasets: tuple[str, ...], method_names: tuple[str, ...], out: str, workers: int,
              sample: int | None, task: str | None, timeout: float, bootstrap: int,
              progress: bool | None, split: str | None, options: dict, resources: str | None,
              repair: bool = False) -> None:
    from .evaluation.evaluate import PageScorer, evaluate, task_table
    from .evaluation.report import write_reports

    scorer = PageScorer(settings=Settings(options=tuple(options.items()), timeout=timeout, repair=repair),
                        keep_blocks=task is not None)
    show = sys.stderr.isatty() if progress is None else progress
    with click.progressbar(length=0, file=sys.stderr, label="pages", hidden=not show) as bar:
        ev = evaluate(datasets, method_names, workers=workers or default_workers(), sample=sample,
                      scorer=scorer, progress=lambda record: bar.update(1), split=split)
    summary = ev.summary(command=" ".join(["detourage", "evaluate", *sys.argv[2:]]), bootstrap=bootstrap)
    if task is not None and resources is not None:
        summary["task"] = task_table(ev, task, resources)
    for page in ev.pages:
        page.pop("blocks", None)
    written = write_reports(summary, ev.pages, out)
    click.echo(headline_table(summary))
    for note in ev.notes:
        click.echo(f"detourage: note: {note}", err=True)
    click.echo(f"detourage: {len(ev.pages)} page runs in {ev.seconds:.1f} s; reports: "
               + ", ".join(str(p) for p in written.values()), err=True)


def _task_resources(task: str | None, given: str | None, datasets: tuple[str, ...]) -> str | None:
    if task is None or given is not None:
        return given
    for dataset in datasets:
        guess = Path(dataset).resolve().parents[1] / "resources" / task
        if guess.is_dir():
            return str(guess)
    raise DetourageError(f"--task {task} needs --task-resources (no resources/{task} found)")


def headline_table(summary: dict) -> str:
    """The pooled scores per method, as a Markdown table."""
    from .evaluation.evaluate import headline
    from .evaluation.report import markdown_table

    def pct(block: dict | None, *keys: str) -> str:
        for key in keys:
            block = None if block is None else block.get(key)
        return "–" if block is None else f"{100 * block:.2f}"

    rows = [[r["method"], pct(r["to"], "micro", "f1"), pct(r["to"], "macro", "f1"),
             pct(r["tm_labelled"], "micro", "f1"), pct(r["car"], "micro", "f1"),
             pct(r["shingle"], "f1"), pct(r["cosine"], "mean"), pct(r["cosine"], "exactitude"),
             f"{r['ms']['median']:.1f}" if r["ms"] else "–", str(sum(r["failed"].values()))]
            for r in headline(summary)]
    headers = ["method", "TO F1 micro", "TO F1 macro", "TM F1", "CAR F1", "shingle F1",
               "cos mean", "exactitude", "ms/page", "failed"]
    return markdown_table(headers, rows)


@main.command("stats")
@click.argument("datasets", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("-s", "--source", "sources", multiple=True, type=click.Choice(["raw", "gold", "method"]),
              default=("raw", "gold"), show_default=True, help="What to count; repeat for several.")
@click.option("-m", "--method", "method_names", multiple=True,
              help="With --source method: the method(s) whose output is counted.")
@click.option("-w", "--workers", type=int, default=1, show_default=True,
              help="Worker processes (0: one per CPU).")
def stats_command(datasets: tuple[str, ...], sources: tuple[str, ...], method_names: tuple[str, ...],
                  workers: int) -> None:
    """Corpus statistics per language (seed 000 Tables 1-5): paragraphs, lines, words,
    characters, files — of the raw pages, the gold, or a method's output."""
    from .evaluation.stats import WORD_NOTE, corpus_stats, stats_table

    if "method" in sources and not method_names:
        raise click.UsageError("--source method needs at least one --method")
    try:
        for name in method_names:
            methods.chain(name)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    for dataset in datasets:
        for source in sources:
            for method in (method_names if source == "method" else (None,)):
                table = corpus_stats(dataset, source, method=method, workers=workers or default_workers())
                title = f"{Path(dataset).name}: {method or source}"
                click.echo(stats_table(table, title, note=False) + "\n")
    click.echo(WORD_NOTE)


@main.group()
def train() -> None:
    """Train a method's model on (raw page, cleaned text) pairs."""


@train.command("ncleaner")
@click.argument("pairs", nargs=-1, required=True)
@click.option("-o", "--out", required=True, help="Model file to write (gzipped JSON).")
@click.option("--nonlexical", is_flag=True, help="Letters → a, digits → 0 before training (NCNL).")
@click.option("--order", type=int, default=3, show_default=True, help="Character n-gram order.")
def train_ncleaner(pairs: tuple[str, ...], out: str, nonlexical: bool, order: int) -> None:
    """NCleaner (seed 002 §3.2) from PAIRS: dataset folders (html/ + gold/) or PAGE.html:CLEAN.txt."""
    from .methods import ncleaner

    try:
        found = ncleaner.pairs_from_args(pairs)
        model = ncleaner.train_from_paths(found, nonlexical=nonlexical, order=order)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    model.save(out)
    click.echo(f"detourage: trained ncleaner on {len(found)} pairs → {out}", err=True)


def _victor_material(inputs: tuple[str, ...], split: str | None, langs: tuple[str, ...],
                     limit: int | None, threshold: float):
    """Labelled pages for Victor, with the alignment report on standard error."""
    from .victor import align, training

    def labelled(count: int) -> None:
        if count % 100 == 0:
            click.echo(f"detourage: {count} pages labelled from their gold…", err=True)

    try:
        material = training.gather(inputs, split=split, langs=langs, limit=limit,
                                   options=align.Options(threshold=threshold), progress=labelled)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    if material.reports:
        click.echo(align.format_report(material.reports), err=True)
    for name, reason in material.skipped[:20]:
        click.echo(f"detourage: skipped {name}: {reason}", err=True)
    if not material.samples:
        raise click.UsageError("no labelled page to train on")
    return material


def _victor_config(config: str | None, ablation: str | None):
    from .victor.config import Config
    from .victor.crossval import setting_config

    try:
        base = Config.load(config)
        return setting_config(base, ablation) if ablation else base
    except (DetourageError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None


def _victor_base(base: str | None, **fixed: Any):
    """The --base model (a file, or 'default'); None without --base.  The options in
    ``fixed`` must then be unset: the base model's own settings are used."""
    if base is None:
        return None
    from .errors import ModelError
    from .victor.crf import load_model

    given = ["--" + name.replace("_", "-") for name, value in fixed.items() if value is not None]
    if given:
        raise click.UsageError(f"{', '.join(given)}: with --base the base model's settings are used")
    try:
        model = load_model(None if base == "default" else base)
    except ModelError as exc:
        raise click.UsageError(str(exc)) from None
    if model.training_data() is None:
        raise click.UsageError(f"{base}: the model does not keep its training pages "
                               "(train it with --keep-data)")
    return model


def _victor_options(f):
    """Options shared by `train victor` and `crossval victor`."""
    for option in reversed([
        click.option("--config", "config", default=None, help="Victor configuration file (default: the shipped victor.conf)."),
        click.option("--split", type=click.Choice(["train", "held-out"]), default=None,
                     help="Only dataset pages of one half of the fixed split."),
        click.option("--lang", "langs", multiple=True, help="Only dataset pages of this language (repeatable)."),
        click.option("--limit", type=int, default=None, help="At most N pages per dataset and language (or per folder of .anno files)."),
        click.option("--threshold", type=float, default=0.5, show_default=True,
                     help="Gold alignment: share of a block's tokens that makes it content."),
        click.option("--c1", type=float, default=None, help="L1 coefficient (default: the configuration's)."),
        click.option("--c2", type=float, default=None, help="L2 coefficient (default: the configuration's)."),
        click.option("--max-iterations", type=int, default=None, help="L-BFGS iterations (default: the configuration's)."),
    ]):
        f = option(f)
    return f


@train.command("victor")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--out", required=True, help="Model file to write (a zip: CRF + configuration + provenance).")
@click.option("--ablation", default=None, help="Switch features off: none, seed, exp2, exp3, content-only, markup-only, without:F,G.")
@click.option("--base", default=None,
              help="Retrain this model (a file, or 'default' for the shipped one) on its own training pages "
                   "plus INPUTS, with its configuration and parameters; it must keep its pages (--keep-data).")
@click.option("--keep-data", is_flag=True,
              help="Store the training pages in the model (features and labels, no text), so that it can be a --base.")
@_victor_options
def train_victor(inputs: tuple[str, ...], out: str, ablation: str | None, base: str | None, keep_data: bool,
                 config: str | None, split: str | None, langs: tuple[str, ...], limit: int | None,
                 threshold: float, c1: float | None, c2: float | None, max_iterations: int | None) -> None:
    """Victor's CRF (seed 003) from labelled pages.

    INPUTS: dataset folders (labelled from their gold) and/or .anno files or folders of them."""
    from .victor.crf import Example, train as train_crf, train_more

    base_model = _victor_base(base, config=config, ablation=ablation, c1=c1, c2=c2,
                              max_iterations=max_iterations)
    cfg = _victor_config(config, ablation) if base_model is None else base_model.config
    material = _victor_material(inputs, split, langs, limit, threshold)
    examples = [Example(s.blocks, s.labels, s.name) for s in material.samples]
    provenance = {"inputs": list(inputs), "split": split, "langs": list(langs), "limit": limit,
                  "threshold": threshold, "ablation": ablation, "base": base}
    try:
        if base_model is None:
            model = train_crf(examples, cfg, c1=c1, c2=c2, max_iterations=max_iterations,
                              provenance=provenance, keep_data=keep_data)
        else:
            model = train_more(base_model, examples, keep_data=keep_data, provenance=provenance)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    model.save(out)
    size = Path(out).stat().st_size
    added = f" + the {model.meta['base']['pages']} pages of {base}" if base is not None else ""
    click.echo(f"detourage: trained victor on {len(examples)} pages{added} in {model.meta['seconds']} s "
               f"→ {out} ({size / 1024:.0f} KiB)", err=True)


@train.command("learned")
@click.argument("datasets", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--out", required=True, help="Model file to write (a zip: trees + feature names + provenance).")
@click.option("--split", type=click.Choice(["train", "held-out"]), default=None,
              help="Only dataset pages of one half of the fixed split.")
@click.option("--max-iter", type=int, default=None, help="Boosting rounds (default: the shipped model's).")
@click.option("-w", "--workers", type=int, default=1, show_default=True,
              help="Processes labelling pages (0: one per CPU).")
def train_learned(datasets: tuple[str, ...], out: str, split: str | None, max_iter: int | None,
                  workers: int) -> None:
    """detourage's learned extractor from DATASETS (folders of html/ + gold/ text).

    Pages are labelled by aligning their blocks with the gold; add the shared datasets
    to your own to keep what the shipped model knows.  Needs scikit-learn (the train extra)."""
    from .learned import train as learned_train

    try:
        pages = learned_train.collect(datasets, workers=workers, split=split)
        params = {"max_iter": max_iter} if max_iter else None
        model = learned_train.fit(pages, params, meta={"name": Path(out).stem, "inputs": list(datasets),
                                                       "split": split})
    except (DetourageError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    model.save(out)
    click.echo(f"detourage: trained learned on {len(pages)} pages ({model.meta['rows']} paragraphs) in "
               f"{model.meta['fit_seconds']} s → {out} ({Path(out).stat().st_size / 1024:.0f} KiB)", err=True)


@main.group()
def crossval() -> None:
    """Cross-validate a trainable method on labelled pages."""


@crossval.command("victor")
@click.argument("inputs", nargs=-1, required=True)
@click.option("--folds", type=int, default=6, show_default=True, help="Number of folds (seed 003: 6).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the fold shuffle.")
@click.option("--ablation", "ablations", multiple=True,
              help="Setting to cross-validate (repeatable; default none): none, seed, exp2, exp3, "
                   "content-only, markup-only, a+b combinations, without:F,G.")
@click.option("--by", type=click.Choice(["dataset", "lang", "dataset-lang", "all"]), default="dataset",
              show_default=True, help="Rows of the table.")
@click.option("-w", "--workers", type=int, default=1, show_default=True, help="Folds trained in parallel (0: one per CPU).")
@click.option("--json", "json_out", default=None, help="Also write every page's outcome as JSON lines here.")
@click.option("--base", default=None,
              help="Compare this model (a file, or 'default') with itself retrained on its pages plus "
                   "the other folds (settings base, base+pages); it must keep its pages.")
@_victor_options
def crossval_victor(inputs: tuple[str, ...], folds: int, seed: int, ablations: tuple[str, ...], by: str,
                    workers: int, json_out: str | None, base: str | None, config: str | None,
                    split: str | None, langs: tuple[str, ...], limit: int | None, threshold: float,
                    c1: float | None, c2: float | None, max_iterations: int | None) -> None:
    """k-fold cross-validation of Victor (seed 003 Table 6.1): labelling accuracy, TO and TM.

    INPUTS: dataset folders (labelled from their gold) and/or .anno files or folders of them."""
    import json
    from dataclasses import asdict

    from .victor import crossval as cv

    base_model = _victor_base(base, config=config, ablation=ablations or None, c1=c1, c2=c2,
                              max_iterations=max_iterations)
    cfg = _victor_config(config, None)
    settings = ablations or ("none",)
    for setting in settings:
        _victor_config(config, setting)  # fail early on a bad name
    material = _victor_material(inputs, split, langs, limit, threshold)
    train_options = {k: v for k, v in (("c1", c1), ("c2", c2), ("max_iterations", max_iterations)) if v is not None}
    runs = len(cv.BASE_SETTINGS if base_model else settings) * folds
    click.echo(f"detourage: crossval: {len(material.samples)} pages, {runs} runs (a fold under a setting); "
               "a line after each", err=True)
    try:
        outcomes = cv.crossval(material.samples, cfg, folds=folds, seed=seed, settings=settings,
                               workers=workers or default_workers(), train_options=train_options,
                               base=base_model,
                               progress=lambda line: click.echo(f"detourage: crossval: {line}", err=True))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    group = {"dataset": ("setting", "dataset"), "lang": ("setting", "lang"),
             "dataset-lang": ("setting", "dataset", "lang"), "all": ("setting",)}[by]
    click.echo(cv.markdown(cv.table(outcomes, group), group))
    if json_out:
        with open(json_out, "w", encoding="utf-8") as fh:
            for o in outcomes:
                fh.write(json.dumps(asdict(o)) + "\n")


@main.command("anno")
@click.argument("dataset")
@click.option("-o", "--out", required=True, help="Folder for the <id>.anno files.")
@click.option("--threshold", type=float, default=0.5, show_default=True,
              help="Share of a block's tokens that makes it content.")
def anno_command(dataset: str, out: str, threshold: float) -> None:
    """Write Victor .anno files (seed 003 §2.3) for a dataset, labelled from its gold; edit
    them by hand and train on them with `detourage train victor FOLDER`."""
    from .victor import align

    try:
        summary = align.write_anno_dataset(dataset, out, align.Options(threshold=threshold))
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"detourage: {summary.pages - summary.failed} .anno files → {out} ({summary.failed} pages "
               f"failed{', ' + str(dict(summary.reasons)) if summary.reasons else ''}); alignment: mean "
               f"coverage {summary.mean_coverage:.3f}, content precision {summary.mean_precision:.3f}, "
               f"{summary.low_coverage} pages with coverage under 0.9", err=True)


@main.group("template")
def template_group() -> None:
    """Cross-page détourage (seed 004): fit site templates once, apply them to new pages."""


@template_group.command("fit")
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--out", required=True, help="Template file to write (gzipped JSON).")
@click.option("--group-by", type=click.Choice(["host", "all"]), default="host", show_default=True,
              help="Site of a page: the host of its URL (canonical link or og:url when read "
                   "from a file), or all pages as one site.")
@click.option("--clustering", type=click.Choice(["agglomerative", "kmeans"]), default="agglomerative",
              show_default=True, help="How a site's pages are grouped into templates.")
@click.option("--urls", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A JSON-lines file of {\"id\": …, \"url\": …} giving the pages' URLs "
                   "(ids as `extract` names pages).")
@click.option("-w", "--workers", type=int, default=1, show_default=True,
              help="Worker processes (0: one per CPU).")
@click.option("--timeout", type=float, default=30.0, show_default=True, help="Seconds allowed per page.")
def template_fit(paths: tuple[str, ...], out: str, group_by: str, clustering: str, urls: str | None,
                 workers: int, timeout: float) -> None:
    """Learn the templates of the sites of PATHS (files, folders) and write them to --out."""
    from .site import template as site_template

    jobs = list(read_inputs(paths))
    if not jobs:
        raise click.UsageError("no input pages found")
    jobs = _with_urls(jobs, urls)
    template, failed = site_template.fit_jobs(jobs, workers=workers or default_workers(),
                                              group_by=group_by, method=clustering,  # type: ignore[arg-type]
                                              settings=Settings(timeout=timeout))
    site_template.save(template, out)
    for record in failed:
        click.echo(f"detourage: {record['id']}: {record['error']}: {record.get('message', '')}", err=True)
    _warn_no_site(template)
    _show(template)
    click.echo(f"detourage: {template.pages} pages, {len(failed)} failed; template written to {out} "
               f"({os.path.getsize(out) / 1024:.0f} KiB)", err=True)


@template_group.command("show")
@click.argument("template_file", type=click.Path(exists=True, dir_okay=False))
def template_show(template_file: str) -> None:
    """Sites, templates and outliers of a template file."""
    from .site import template as site_template

    try:
        _show(site_template.load(template_file))
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None


def _show(template) -> None:  # type: ignore[no-untyped-def]
    from .site import template as site_template

    rows = site_template.describe(template)
    width = max([4, *(len(r["site"]) for r in rows)])
    click.echo(f"{'site':<{width}}  pages  templates  outliers  silhouette")
    for r in rows:
        sil = "" if r["silhouette"] is None else f"{r['silhouette']:.3f}"
        site = r["site"] or "''"  # pages without a URL
        click.echo(f"{site:<{width}}  {r['pages']:>5}  {r['templates']:>9}  {r['outliers']:>8}  {sil:>10}")


@main.command("ui")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-m", "--method", "method_names", multiple=True,
              help="Method or chain a+b to show; repeat for several (default: default).")
@click.option("-p", "--port", type=int, default=8765, show_default=True, help="Port to listen on (0: any free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; any other than the loopback requires the access token printed in the URL at start, on every request.")
@click.option("-a", "--annotations", default="annotations", show_default=True,
              help="Folder of the .anno files written (one subfolder per dataset).")
@click.option("--remote-assets", is_flag=True,
              help="Let shown pages load their stylesheets, images and fonts from the web (their "
                   "URL); default: only files beside the pages.")
@click.option("--timeout", type=float, default=30.0, show_default=True,
              help="Seconds a page's loading, or one method's labels of it, may take; 0: no limit.")
def ui_command(inputs: tuple[str, ...], method_names: tuple[str, ...], port: int, host: str,
               annotations: str, remote_assets: bool, timeout: float) -> None:
    """Inspect and annotate pages in a browser: INPUTS are dataset folders, pages or folders
    of pages; see each method's blocks on the page, diff two methods or a method and the
    gold, label blocks into .anno files and train Victor or the learned extractor on them."""
    from .ui import serve

    serve(inputs, method_names, port=port, host=host, annotations=annotations,
          remote_assets=remote_assets, timeout=timeout if timeout > 0 else None,
          echo=lambda line: click.echo(line, err=True))


@main.command("methods")
def list_methods() -> None:
    """List the methods, with their seed and what they do."""
    rows = [(m.name, m.seed, m.description) for m in methods.available()]
    rows += [(alias, "", f"alias of {target}") for alias, target in methods.ALIASES.items()]
    width = max(len(name) for name, _, _ in rows)
    click.echo(f"{'name':<{width}}  seed  description")
    for name, seed, description in rows:
        click.echo(f"{name:<{width}}  {seed:<4}  {description}")
