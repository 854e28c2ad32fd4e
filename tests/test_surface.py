"""The public surface: exported names, CLI help, README coverage."""

from __future__ import annotations

from pathlib import Path

import click
from click.testing import CliRunner

import detourage
from detourage.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def test_all_matches_the_public_names() -> None:
    public = {n for n in dir(detourage) if not n.startswith("_")}
    modules = {n for n in public if type(getattr(detourage, n)).__name__ == "module"}
    assert set(detourage.__all__) == public - modules


def test_every_command_has_help_and_is_in_the_readme() -> None:
    readme = README.read_text(encoding="utf-8")
    assert isinstance(main, click.Group)
    for name, command in main.commands.items():
        assert command.help, name
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0, name
        assert f"detourage {name}" in readme, f"README does not show `detourage {name}`"


def test_readme_starts_with_a_two_command_quick_start() -> None:
    text = README.read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = [line for line in quick.splitlines() if line.startswith(("pip ", "python "))]
    assert len(commands) == 2, commands
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci
