"""The behaviour suite (issue 32) for the default method, one test per assertion.

Today's default fails many of the assertions: that is what the suite is for.  The ones it
passed when ``tests/behaviour/expected-default.json`` was written must keep passing (a
failure is a regression); the others are expected failures, and one that passes now
shows as XPASS, asking for the file to be rewritten with
``python benchmarks/behaviour.py --update-expected``.  Assertions on shared pages skip
when ../shared is absent; the fixtures always run.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import SHARED

from detourage.errors import DatasetError
from detourage.evaluation.behaviour import (
    CLASSES,
    Assertion,
    Pages,
    judge,
    load_suite,
    output,
)

SUITE = Path(__file__).parent / "behaviour"
EXPECTED_FILE = SUITE / "expected-default.json"
ASSERTIONS, URLS = load_suite(SUITE / "cases.json")
EXPECTED = frozenset(json.loads(EXPECTED_FILE.read_text(encoding="utf-8"))["passing"])
PAGES = Pages(SUITE / "fixtures", SHARED, URLS)
UPDATE = "python benchmarks/behaviour.py --update-expected"
#: typographic quotes and dashes, which the gold files sometimes straighten
PLAIN = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-",
                       "\xa0": " "})


@functools.cache
def _default(page: str, fmt: str) -> str | Exception:
    return output(PAGES, page, "default", fmt)


def _param(a: Assertion) -> object:
    if a.id in EXPECTED:
        return pytest.param(a, id=a.id)
    why = f"known failure; once it passes, run `{UPDATE}`"
    return pytest.param(a, id=a.id, marks=pytest.mark.xfail(reason=why, strict=False))


def _needs(page: str) -> None:
    if not PAGES.available(page):
        pytest.skip(f"{page}: the shared data folder {SHARED} is absent")


@pytest.mark.parametrize("assertion", [_param(a) for a in ASSERTIONS])
def test_behaviour(assertion: Assertion) -> None:
    _needs(assertion.page)
    outcome = judge(assertion, _default(assertion.page, assertion.format))
    assert outcome.passed, (f"{assertion.kind} {assertion.text!r} on {assertion.page} "
                            f"({assertion.format}) no longer holds: {outcome.detail}")


# ------------------------------------------------------------------ the suite itself


def test_expected_file_names_only_existing_assertions() -> None:
    """A renamed or removed assertion must leave the expected file too."""
    assert EXPECTED <= {a.id for a in ASSERTIONS}


def test_every_class_has_several_assertions() -> None:
    tally = Counter(a.cls for a in ASSERTIONS)
    assert set(tally) == set(CLASSES) and min(tally.values()) >= 6, tally
    assert len(ASSERTIONS) >= 60


def test_every_fixture_is_used() -> None:
    used = {a.page.removeprefix("fixture/") for a in ASSERTIONS if a.on_fixture}
    assert used == {p.name for p in (SUITE / "fixtures").glob("*.html")}


@pytest.mark.parametrize("a", [a for a in ASSERTIONS if a.kind == "drop"], ids=lambda a: a.id)
def test_dropped_strings_are_on_the_page(a: Assertion) -> None:
    """A drop assertion on text the page does not have could never fail."""
    _needs(a.page)
    keep = dataclasses.replace(a, kind="keep")
    assert judge(keep, output(PAGES, a.page, "fulltext", "txt")).passed


@pytest.mark.parametrize("a", [a for a in ASSERTIONS if a.kind in ("keep", "drop")
                               and a.format == "txt" and not a.on_fixture], ids=lambda a: a.id)
def test_shared_strings_agree_with_the_gold(a: Assertion) -> None:
    """Kept strings are in the page's gold, dropped ones are not (quotes straightened)."""
    _needs(a.page)
    gold = re.sub(r"^<[phl]> ", "", PAGES.gold_path(a.page).read_text(encoding="utf-8"),
                  flags=re.MULTILINE)
    in_gold = _plain(a.text) in _plain(gold)
    assert in_gold == (a.kind == "keep")


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(PLAIN)).strip()


# ------------------------------------------------------------------ the checker


def _a(kind: str, text: str) -> Assertion:
    return Assertion("lists-x", "lists", "fixture/x.html", kind, text)


def test_strings_match_across_line_breaks_but_not_across_soft_hyphens() -> None:
    out = "The first line\nand the second.\nWasser\u00adaufbereitung"
    assert judge(_a("keep", "first line and the second"), out).passed
    assert not judge(_a("keep", "Wasseraufbereitung"), out).passed
    assert not judge(_a("drop", "the  second"), out).passed


def test_patterns_see_the_lines_and_the_excerpt_shows_invisible_characters() -> None:
    out = "- item\n- - empty bullet\nWasser\u00adaufbereitung"
    assert not judge(_a("drop_re", r"^\s*- - "), out).passed
    assert judge(_a("keep_re", r"^- item$"), out).passed
    assert "<U+00AD>" in judge(_a("keep", "Wasseraufbereitung"), out).detail


def test_a_crash_fails_keep_and_drop_alike() -> None:
    for kind in ("keep", "drop"):
        outcome = judge(_a(kind, "x"), RuntimeError("boom"))
        assert not outcome.passed and "RuntimeError: boom" in outcome.detail


def test_a_malformed_suite_is_refused(tmp_path: Path) -> None:
    bad = {"pages": [{"page": "fixture/x.html", "checks": [
        {"id": "code-x", "class": "lists", "keep": "y"}]}]}
    (tmp_path / "cases.json").write_text(json.dumps(bad))
    with pytest.raises(DatasetError, match="does not start with its class"):
        load_suite(tmp_path / "cases.json")
