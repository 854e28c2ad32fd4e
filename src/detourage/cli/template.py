"""``detourage template``: site templates fitted on pages, and shown."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from ..errors import DetourageError
from ..inputs import read_inputs
from ..settings import TIMEOUT, Settings, default_workers
from .main import URL_MAP_HELP, main, size_text, url_map_renamed, warn_no_site, with_url_map

if TYPE_CHECKING:  # imported where used: a command imports what it runs
    from ..site.template import Template


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
@click.option("--url-map", type=click.Path(exists=True, dir_okay=False), default=None, help=URL_MAP_HELP)
@url_map_renamed
@click.option("-w", "--workers", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes (0: one per CPU).")
@click.option("--timeout", type=click.FloatRange(min=0), default=TIMEOUT, show_default=True,
              help="Seconds allowed per page.")
def template_fit(paths: tuple[str, ...], out: str, group_by: str, clustering: str, url_map: str | None,
                 workers: int, timeout: float) -> None:
    """Learn the templates of the sites of PATHS (files, folders) and write them to --out."""
    from ..site import template as site_template

    jobs = list(read_inputs(paths))
    if not jobs:
        raise click.UsageError("no input pages found")
    jobs = with_url_map(jobs, url_map)
    template, failed = site_template.fit_jobs(jobs, workers=workers or default_workers(),
                                              group_by=group_by,
                                              method=clustering,  # type: ignore[arg-type]  # one of click.Choice's
                                              settings=Settings(timeout=timeout))
    site_template.save(template, out)
    for record in failed:
        click.echo(f"detourage: {record['id']}: {record['error']}: {record.get('message', '')}", err=True)
    warn_no_site(template)
    _show(template)
    click.echo(f"detourage: {template.pages} pages, {len(failed)} failed; template written to {out} "
               f"({size_text(os.path.getsize(out))})", err=True)


@template_group.command("show")
@click.argument("template_file", type=click.Path(exists=True, dir_okay=False))
def template_show(template_file: str) -> None:
    """Sites, templates and outliers of a template file."""
    from ..site import template as site_template

    try:
        _show(site_template.load(template_file))
    except DetourageError as exc:
        raise click.UsageError(str(exc)) from None


def _show(template: Template) -> None:
    from ..site import template as site_template

    rows = site_template.describe(template)
    width = max([4, *(len(r["site"]) for r in rows)])
    click.echo(f"{'site':<{width}}  pages  templates  outliers  silhouette")
    for r in rows:
        sil = "" if r["silhouette"] is None else f"{r['silhouette']:.3f}"
        site = r["site"] or "''"  # pages without a URL
        click.echo(f"{site:<{width}}  {r['pages']:>5}  {r['templates']:>9}  {r['outliers']:>8}  {sil:>10}")
