"""``detourage train`` (ncleaner, victor, learned): models trained; the Victor options
that ``detourage crossval victor`` (:mod:`.crossval`) shares."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import DetourageError
from .main import main

if TYPE_CHECKING:  # imported where used: a command imports what it runs
    from ..victor.config import Config
    from ..victor.crf import CRFModel
    from ..victor.training import Material


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
    from ..methods import ncleaner

    try:
        found = ncleaner.pairs_from_args(pairs)
        model = ncleaner.train_from_paths(found, nonlexical=nonlexical, order=order)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    model.save(out)
    click.echo(f"detourage: trained ncleaner on {len(found)} pairs → {out}", err=True)


def victor_material(inputs: tuple[str, ...], split: str | None, langs: tuple[str, ...],
                     limit: int | None, threshold: float) -> Material:
    """Labelled pages for Victor, with the alignment report on standard error."""
    from ..gold import align
    from ..victor import training

    def labelled(count: int) -> None:
        if count % 100 == 0:
            click.echo(f"detourage: {count} pages labelled from their gold…", err=True)

    try:
        material = training.gather(inputs, split=split, langs=langs, limit=limit,
                                   options=align.AlignOptions(threshold=threshold), progress=labelled)
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    if material.reports:
        click.echo(align.format_report(material.reports), err=True)
    for name, reason in material.skipped[:20]:
        click.echo(f"detourage: skipped {name}: {reason}", err=True)
    if not material.samples:
        raise click.UsageError("no labelled page to train on")
    return material


def victor_config(config: str | None, ablation: str | None) -> Config:
    from ..crossval import setting_config
    from ..victor.config import Config

    try:
        base = Config.load(config)
        return setting_config(base, ablation) if ablation else base
    except (DetourageError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None


def victor_base(base: str | None, **fixed: Any) -> CRFModel | None:
    """The --base model (a file, or 'default'); None without --base.  The options in
    ``fixed`` must then be unset: the base model's own settings are used."""
    if base is None:
        return None
    from ..errors import ModelError
    from ..victor.crf import load_model

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


def victor_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by `train victor` and `crossval victor`."""
    for option in reversed([
        click.option("--config", "config", default=None,
                     help="Victor configuration file (default: the shipped victor.conf)."),
        click.option("--split", type=click.Choice(["train", "held-out"]), default=None,
                     help="Only dataset pages of one half of the fixed split."),
        click.option("--lang", "langs", multiple=True, help="Only dataset pages of this language (repeatable)."),
        click.option("--limit", type=int, default=None,
                     help="At most N pages per dataset and language (or per folder of .anno files)."),
        click.option("--threshold", type=float, default=0.5, show_default=True,
                     help="Gold alignment: share of a block's tokens that makes it content."),
        click.option("--c1", type=float, default=None, help="L1 coefficient (default: the configuration's)."),
        click.option("--c2", type=float, default=None, help="L2 coefficient (default: the configuration's)."),
        click.option("--max-iterations", type=int, default=None,
                     help="L-BFGS iterations (default: the configuration's)."),
    ]):
        f = option(f)
    return f


@train.command("victor")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--out", required=True, help="Model file to write (a zip: CRF + configuration + provenance).")
@click.option("--ablation", default=None,
              help="Switch features off: none, seed, exp2, exp3, content-only, markup-only, without:F,G.")
@click.option("--base", default=None,
              help="Retrain this model (a file, or 'default' for the shipped one) on its own training pages "
                   "plus INPUTS, with its configuration and parameters; it must keep its pages (--keep-data).")
@click.option("--keep-data", is_flag=True,
              help="Store the training pages in the model (features and labels, no text), so that it can be a --base.")
@victor_options
def train_victor(inputs: tuple[str, ...], out: str, ablation: str | None, base: str | None, keep_data: bool,
                 config: str | None, split: str | None, langs: tuple[str, ...], limit: int | None,
                 threshold: float, c1: float | None, c2: float | None, max_iterations: int | None) -> None:
    """Victor's CRF (seed 003) from labelled pages.

    INPUTS: dataset folders (labelled from their gold) and/or .anno files or folders of them."""
    from ..victor.crf import Example, train as train_crf, train_more

    base_model = victor_base(base, config=config, ablation=ablation, c1=c1, c2=c2,
                              max_iterations=max_iterations)
    cfg = victor_config(config, ablation) if base_model is None else base_model.config
    material = victor_material(inputs, split, langs, limit, threshold)
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
@click.option("-w", "--workers", type=click.IntRange(min=0), default=1, show_default=True,
              help="Processes labelling pages (0: one per CPU).")
@click.option("--cache", type=click.Path(dir_okay=False), default=None,
              help="Keep the labelled pages in this file and read them back while the labelling code, "
                   "the gold files and the split are the same.")
def train_learned(datasets: tuple[str, ...], out: str, split: str | None, max_iter: int | None,
                  workers: int, cache: str | None) -> None:
    """detourage's learned extractor from DATASETS (folders of html/ + gold/ text).

    Pages are labelled by aligning their blocks with the gold; add the shared datasets
    to your own to keep what the shipped model knows.  Needs scikit-learn (the train extra)."""
    from ..learned import train as learned_train

    try:
        pages = learned_train.collect(datasets, workers=workers, split=split, cache=cache)
        params = {"max_iter": max_iter} if max_iter else None
        model = learned_train.fit(pages, params, meta={"name": Path(out).stem, "inputs": list(datasets),
                                                       "split": split})
    except (DetourageError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    model.save(out)
    click.echo(f"detourage: trained learned on {len(pages)} pages ({model.meta['rows']} paragraphs) in "
               f"{model.meta['fit_seconds']} s → {out} ({Path(out).stat().st_size / 1024:.0f} KiB)", err=True)
