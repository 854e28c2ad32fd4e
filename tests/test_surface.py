"""The public surface: exported names, CLI help, documentation coverage (README and docs/)."""

from __future__ import annotations

import re
from pathlib import Path

import click
from click.testing import CliRunner

import detourage
from detourage.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: README is a landing page (issue 33): the manual lives in docs/
README_MAX_LINES = 220


def documentation() -> str:
    """README.md and every page of the docs site, as one text."""
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


def test_all_matches_the_public_names() -> None:
    public = {n for n in dir(detourage) if not n.startswith("_")}
    modules = {n for n in public if type(getattr(detourage, n)).__name__ == "module"}
    assert set(detourage.__all__) == public - modules


def test_every_command_has_help_and_is_documented() -> None:
    docs = documentation()
    assert isinstance(main, click.Group)
    for name, command in main.commands.items():
        assert command.help, name
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0, name
        assert f"detourage {name}" in docs, f"neither README nor docs/ show `detourage {name}`"


def test_every_public_name_is_documented() -> None:
    docs = documentation()
    missing = [name for name in detourage.__all__
               if not re.search(rf"(`|\bdetourage\.){re.escape(name)}\b", docs)]
    assert not missing, f"public names neither README nor docs/ mention: {missing}"


def test_readme_is_a_landing_page() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; the manual belongs in docs/"


def test_readme_starts_with_a_two_command_quick_start() -> None:
    text = README.read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = [line for line in quick.splitlines() if line.startswith(("pip ", "python "))]
    assert len(commands) == 2, commands
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci


def test_the_docs_home_page_shows_the_readme_results() -> None:
    """docs/index.md repeats the README's results table (the site's home page): the two
    must give the same figures, or one of them is days behind."""
    def tables(path: Path) -> list[str]:
        return [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("|")]

    readme = tables(README)
    assert readme, "README.md has no results table"
    assert tables(ROOT / "docs" / "index.md") == readme
