"""``detourage ui``: the inspector."""

from __future__ import annotations

import click

from ..settings import INSPECTOR_PORT, TIMEOUT
from .main import main


@main.command("ui")
@click.argument("inputs", nargs=-1, required=True)
@click.option("-m", "--method", "method_names", multiple=True,
              help="Method or chain a+b to show; repeat for several (default: default).")
@click.option("-p", "--port", type=int, default=INSPECTOR_PORT, show_default=True,
              help="Port to listen on (0: any free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; any other than the loopback requires the access token printed in the URL "
                   "at start, on every request.")
@click.option("-a", "--annotations", default="annotations", show_default=True,
              help="Folder of the .anno files written (one subfolder per dataset).")
@click.option("--remote-assets", is_flag=True,
              help="Let shown pages load their stylesheets, images and fonts from the web (their "
                   "URL); default: only files beside the pages.")
@click.option("--timeout", type=click.FloatRange(min=0), default=TIMEOUT, show_default=True,
              help="Seconds a page's loading, or one method's labels of it, may take; 0: no limit.")
def ui_command(inputs: tuple[str, ...], method_names: tuple[str, ...], port: int, host: str,
               annotations: str, remote_assets: bool, timeout: float) -> None:
    """Inspect and annotate pages in a browser: INPUTS are dataset folders, pages or folders
    of pages; see each method's blocks on the page, diff two methods or a method and the
    gold, label blocks into .anno files and train Victor or the learned extractor on them."""
    from ..ui import serve

    serve(inputs, method_names, port=port, host=host, annotations=annotations,
          remote_assets=remote_assets, timeout=timeout if timeout > 0 else None,
          echo=lambda line: click.echo(line, err=True))
