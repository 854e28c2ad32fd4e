"""``detourage methods``: the registered methods, with their seed and what they do."""

from __future__ import annotations

import click

from .. import methods
from .main import main


@main.command("methods")
def list_methods() -> None:
    """List the methods, with their seed and what they do."""
    rows = [(m.name, m.seed, m.description) for m in methods.available()]
    rows += [(alias, "", f"alias of {target}") for alias, target in methods.ALIASES.items()]
    width = max(len(name) for name, _, _ in rows)
    click.echo(f"{'name':<{width}}  seed  description")
    for name, seed, description in rows:
        click.echo(f"{name:<{width}}  {seed:<4}  {description}")
