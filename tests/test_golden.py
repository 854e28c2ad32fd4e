"""Golden cases: ``tests/cases/<behaviour>/`` holds a page and its expected outputs.

A case has either ``page.html`` (committed) or ``page.ref`` (a path under
``../shared/datasets``; skipped when absent), and one ``expected-<method>.<format>`` file
per method and format checked; an optional ``options.json`` gives the page's ``url`` and
render options (``{"url": "https://…", "links": true}``).  ``pytest --update-golden``
rewrites them.  Every fix of an algorithm adds a case named after the behaviour it fixes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import detourage
from conftest import needs_shared

CASES = Path(__file__).parent / "cases"


def _expectations() -> list[Path]:
    return sorted(CASES.glob("*/expected-*"))


def _page(case: Path) -> bytes:
    if (case / "page.html").exists():
        return (case / "page.html").read_bytes()
    ref = (case / "page.ref").read_text(encoding="utf-8").strip()
    return needs_shared("datasets", ref).read_bytes()


@pytest.mark.parametrize("expected", _expectations(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case(expected: Path, update_golden: bool) -> None:
    method, _, format = expected.name.removeprefix("expected-").partition(".")
    options = _options(expected.parent)
    output = _stable(detourage.extract(_page(expected.parent), method=method, format=format, **options),
                     format)
    if update_golden:
        expected.write_text(output, encoding="utf-8")
    assert output == expected.read_text(encoding="utf-8")


def _options(case: Path) -> dict[str, object]:
    path = case / "options.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _stable(output: str, format: str) -> str:
    """Drop what varies between runs (timings) from JSON output."""
    if format != "json":
        return output
    record = json.loads(output)
    record.pop("timings_ms", None)
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def test_every_case_has_a_page_and_an_expectation() -> None:
    for case in CASES.iterdir():
        assert (case / "page.html").exists() or (case / "page.ref").exists(), case
        assert list(case.glob("expected-*")), case
