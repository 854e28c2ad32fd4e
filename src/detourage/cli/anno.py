"""``detourage anno``: Victor ``.anno`` files written for a dataset, labelled from its gold."""

from __future__ import annotations

import click

from ..errors import DetourageError
from .main import main


@main.command("anno")
@click.argument("dataset")
@click.option("-o", "--out", required=True, help="Folder for the <id>.anno files.")
@click.option("--threshold", type=float, default=0.5, show_default=True,
              help="Share of a block's tokens that makes it content.")
def anno_command(dataset: str, out: str, threshold: float) -> None:
    """Write Victor .anno files (seed 003 §2.3) for a dataset, labelled from its gold; edit
    them by hand and train on them with `detourage train victor FOLDER`."""
    from ..gold import align
    from ..victor import anno

    try:
        summary = anno.write_anno_dataset(dataset, out, align.AlignOptions(threshold=threshold))
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"detourage: {summary.pages - summary.failed} .anno files → {out} ({summary.failed} pages "
               f"failed{', ' + str(dict(summary.reasons)) if summary.reasons else ''}); alignment: mean "
               f"coverage {summary.mean_coverage:.3f}, content precision {summary.mean_precision:.3f}, "
               f"{summary.low_coverage} pages with coverage under 0.9", err=True)
