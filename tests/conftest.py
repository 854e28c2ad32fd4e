"""Shared fixtures: where ../shared lives, and the --update-golden switch."""

from __future__ import annotations

from pathlib import Path

import pytest

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
