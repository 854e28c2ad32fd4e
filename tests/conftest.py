"""Shared fixtures: where ../shared lives, the --update-golden switch, and the
Hypothesis profiles.

The property tests draw the same examples on every run (profile ``repeatable``), so that
a commit cannot fail CI on an example its change did not touch;
``HYPOTHESIS_PROFILE=explore`` (with ``DETOURAGE_EXAMPLES=3000``, say) draws new ones and
replays the failures it stored, to look for bugs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

#: the shared data folder beside the repository (absent on a bare clone)
SHARED = Path(__file__).resolve().parents[2] / "shared"
DATASETS = SHARED / "datasets"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite the expected outputs of tests/cases from the current code")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def needs_shared(*parts: str) -> Path:
    """The path under ../shared, or skip the test when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared data folder is not beside the repo)")
    return path


@pytest.fixture
def stuck_second_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Corpus runs in which the page of ``http://site.example/2`` runs C code for minutes,
    never looking at signals: only the supervisor's kill can end it."""
    from detourage.corpusrun import work

    clean = work._content

    def stuck(item, config):  # type: ignore[no-untyped-def]
        if item.url == "http://site.example/2":
            sum(range(10 ** 10))
        return clean(item, config)

    monkeypatch.setattr(work, "_content", stuck)
