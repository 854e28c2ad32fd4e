"""``detourage crossval victor``: Victor cross-validated on labelled pages (seed 003 Table 6.1)."""

from __future__ import annotations

import click

from ..settings import default_workers
from .main import main
from .train import victor_base, victor_config, victor_material, victor_options


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
@click.option("-w", "--workers", type=click.IntRange(min=0), default=1, show_default=True,
              help="Folds trained in parallel (0: one per CPU).")
@click.option("--json", "json_out", default=None, help="Also write every page's outcome as JSON lines here.")
@click.option("--base", default=None,
              help="Compare this model (a file, or 'default') with itself retrained on its pages plus "
                   "the other folds (settings base, base+pages); it must keep its pages.")
@victor_options
def crossval_victor(inputs: tuple[str, ...], folds: int, seed: int, ablations: tuple[str, ...], by: str,
                    workers: int, json_out: str | None, base: str | None, config: str | None,
                    split: str | None, langs: tuple[str, ...], limit: int | None, threshold: float,
                    c1: float | None, c2: float | None, max_iterations: int | None) -> None:
    """k-fold cross-validation of Victor (seed 003 Table 6.1): labelling accuracy, TO and TM.

    INPUTS: dataset folders (labelled from their gold) and/or .anno files or folders of them."""
    import json
    from dataclasses import asdict

    from .. import crossval as cv

    base_model = victor_base(base, config=config, ablation=ablations or None, c1=c1, c2=c2,
                              max_iterations=max_iterations)
    cfg = victor_config(config, None)
    settings = ablations or ("none",)
    for setting in settings:
        victor_config(config, setting)  # fail early on a bad name
    material = victor_material(inputs, split, langs, limit, threshold)
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
