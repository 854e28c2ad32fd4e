"""``detourage evaluate`` and ``detourage stats``: methods scored against gold datasets,
and corpus statistics."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

import click

from .. import methods
from ..errors import DetourageError
from ..loading import Job
from ..settings import TIMEOUT, Settings, default_workers
from .main import REPAIR_HELP, check_repair, fitted, main, models_option


@main.command("evaluate")
@click.argument("datasets", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("-m", "--method", "method_names", multiple=True,
              help="Method or chain a+b; repeat for several (default: default, said on standard error).")
@click.option("-o", "--out", default="evaluation", show_default=True, help="Folder for the reports.")
@click.option("-w", "--workers", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes (0: one per CPU).")
@click.option("--sample", type=int, default=None,
              help="Only N scorable pages of each dataset, spread over its languages (a fixed draw).")
@click.option("--task", type=click.Choice(["daniel"]), default=None,
              help="Also run a downstream task on each output (seed 002 Table 3).")
@click.option("--task-resources", type=click.Path(exists=True, file_okay=False), default=None,
              help="The task's lexicons (default: resources/<task> two levels above the dataset).")
@click.option("--timeout", type=click.FloatRange(min=0), default=TIMEOUT, show_default=True,
              help="Seconds allowed per page.")
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
@click.option("--repair-text", is_flag=True, help=REPAIR_HELP)
def evaluate_command(datasets: tuple[str, ...], method_names: tuple[str, ...], out: str, workers: int,
                     sample: int | None, task: str | None, task_resources: str | None, timeout: float,
                     model: str | None, bootstrap: int, progress: bool | None, split: str | None,
                     template_file: str | None, repair_text: bool) -> None:
    """Score methods against gold datasets (CleanEval TO/TM/CAR, shingles, cosine, snippets).

    A method whose shipped model was trained on pages scored is named in the report and on
    standard error, with where to find its honest figures."""
    if repair_text:
        check_repair()
    if not method_names:
        method_names = ("default",)
        click.echo(f"detourage: no -m given: evaluating default ({methods.get('default').name})", err=True)
    try:
        options: dict = {}
        for name in method_names:
            methods.require(name)
            if model is not None:
                options.update(models_option(name, (model,)))
            if template_file is not None:
                options.update(methods.with_template(name, template_file))
        resources = _task_resources(task, task_resources, datasets)
        fit_batch = template_file is None and any(methods.uses_template(n) for n in method_names)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    with contextlib.ExitStack() as stack:
        if fit_batch:
            from ..evaluation.evaluate import page_jobs
            from ..gold import load_dataset

            docs = {job.doc.id: job.doc for job in page_jobs([load_dataset(d) for d in datasets],
                                                              ["-"], sample, split)}
            jobs = [Job(doc.id, str(doc.html_path), None, doc.meta.get("url")) for doc in docs.values()]
            path = stack.enter_context(fitted(jobs, workers or default_workers(), Settings(timeout=timeout)))
            for name in method_names:
                if methods.uses_template(name):
                    options.update(methods.with_template(name, path))
        _evaluate(datasets, method_names, out, workers, sample, task, timeout, bootstrap, progress,
                  split, options, resources, repair_text)


def _evaluate(datasets: tuple[str, ...], method_names: tuple[str, ...], out: str, workers: int,
              sample: int | None, task: str | None, timeout: float, bootstrap: int,
              progress: bool | None, split: str | None, options: dict, resources: str | None,
              repair: bool = False) -> None:
    from ..evaluation.evaluate import PageScorer, evaluate, task_table
    from ..evaluation.report import write_reports

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
    from ..evaluation.evaluate import headline
    from ..tables import markdown_table

    def pct(block: Any, *keys: str) -> str:  # nested JSON: dicts down to a number
        for key in keys:
            block = None if block is None else block.get(key)
        return "–" if block is None else f"{100 * block:.2f}"

    rows = [[r["method"], pct(r["to"], "micro", "f1"), pct(r["to"], "macro", "f1"),
             pct(r["tm_labelled"], "micro", "f1"), pct(r["car"], "micro", "f1"),
             pct(r["shingle"], "f1"), pct(r.get("word"), "macro", "f1"), pct(r["cosine"], "mean"),
             pct(r["cosine"], "exactitude"), pct(r.get("snippets"), "f1"),
             f"{r['ms']['median']:.1f}" if r["ms"] else "–", str(sum(r["failed"].values()))]
            for r in headline(summary)]
    headers = ["method", "TO F1 micro", "TO F1 macro", "TM F1", "CAR F1", "shingle F1",
               "word F1", "cos mean", "exactitude", "snippet F1", "ms/page", "failed"]
    return markdown_table(headers, rows)


@main.command("stats")
@click.argument("datasets", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("-s", "--source", "sources", multiple=True, type=click.Choice(["raw", "gold", "method"]),
              default=("raw", "gold"), show_default=True, help="What to count; repeat for several.")
@click.option("-m", "--method", "method_names", multiple=True,
              help="With --source method: the method(s) whose output is counted.")
@click.option("-w", "--workers", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes (0: one per CPU).")
def stats_command(datasets: tuple[str, ...], sources: tuple[str, ...], method_names: tuple[str, ...],
                  workers: int) -> None:
    """Corpus statistics per language (seed 000 Tables 1-5): paragraphs, lines, words,
    characters, files — of the raw pages, the gold, or a method's output."""
    from ..evaluation.stats import WORD_NOTE, corpus_stats, stats_table

    if "method" in sources and not method_names:
        raise click.UsageError("--source method needs at least one --method")
    try:
        for name in method_names:
            methods.require(name)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    for dataset in datasets:
        for source in sources:
            for method in (method_names if source == "method" else (None,)):
                table = corpus_stats(dataset, source,  # type: ignore[arg-type]  # one of click.Choice's
                                     method=method, workers=workers or default_workers())
                title = f"{Path(dataset).name}: {method or source}"
                click.echo(stats_table(table, title, note=False) + "\n")
    click.echo(WORD_NOTE)
