"""The behaviour suite (issue 32): what a user expects of the output on real pages.

In the spirit of trafilatura's ``tests/realworld_tests.py`` and Readability.js's test pages:
for each page, strings that must be kept (article text) and strings that must be dropped
(comments, related links…), each assertion named by the failure class it watches
(:data:`CLASSES`).  The pages are shared dataset pages, named ``<dataset>/<id>`` and read
from the shared data folder (never copied into the repository), and small fixtures written
for one class each.  ``tests/test_behaviour.py`` and ``benchmarks/behaviour.py`` both run
the suite through :func:`run_suite`.

An assertion is one of

- ``keep`` / ``drop``: a string that must / must not occur in the output; both sides have
  their whitespace runs collapsed to one space, so line wrapping does not matter (nothing
  else is normalised: a soft hyphen or a decomposed letter in the output fails a ``keep``);
- ``keep_re`` / ``drop_re``: a regular expression (multi-line mode) searched in the output
  as it is, for what lines and Markdown syntax show (``^\\s*- - `` empty bullets).

A crash of the method counts as a failure of every assertion on that page.
"""

from __future__ import annotations

import gzip
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DatasetError
from ..pipeline import result as page_result
from ..render import render
from ..settings import Settings

#: the failure classes of issue 32 (5 is split in three: lists, code, quotes)
CLASSES = ("comments", "appended", "boundary", "images", "lists", "code", "quotes",
           "hygiene", "nonempty")
KINDS = ("keep", "drop", "keep_re", "drop_re")
#: a page name that is not ``<dataset>/<id>`` of the shared data
FIXTURE_PREFIX = "fixture/"
#: characters shown on each side of the match (or of the output's start) in an excerpt
EXCERPT = 80


@dataclass(frozen=True, slots=True)
class Assertion:
    """One expectation on one page's output in one format."""

    id: str
    cls: str
    page: str
    kind: str
    text: str
    format: str = "txt"
    note: str = ""

    @property
    def on_fixture(self) -> bool:
        """Whether the page is one of the suite's own fixtures (always available)."""
        return self.page.startswith(FIXTURE_PREFIX)


@dataclass(frozen=True, slots=True)
class Outcome:
    """An assertion run for one method: passed or not, and what the output showed."""

    assertion: Assertion
    passed: bool
    #: the error of a crash, else a short excerpt of the output around the string
    detail: str


class Pages:
    """Page bytes and URL by page name: fixtures from a folder, the rest from shared data."""

    def __init__(self, fixtures: Path, shared: Path, urls: dict[str, str]) -> None:
        self.fixtures = fixtures
        self.shared = shared
        self._urls = urls
        self._meta: dict[str, dict[str, str | None]] = {}

    def available(self, page: str) -> bool:
        """Whether the page can be read here (shared pages need the shared folder)."""
        return page.startswith(FIXTURE_PREFIX) or self._html_path(page) is not None

    def read(self, page: str) -> tuple[bytes, str | None]:
        """The page's raw bytes (gunzipped) and its URL (from meta.jsonl for shared pages)."""
        if page.startswith(FIXTURE_PREFIX):
            return (self.fixtures / page[len(FIXTURE_PREFIX):]).read_bytes(), self._urls.get(page)
        path = self._html_path(page)
        if path is None:
            raise DatasetError(f"{page}: no such page under {self.shared}")
        data = path.read_bytes()
        data = gzip.decompress(data) if path.suffix == ".gz" else data
        dataset, doc_id = page.split("/", 1)
        return data, self._urls_of(dataset).get(doc_id)

    def gold_path(self, page: str) -> Path:
        """The gold file of a shared page (``gold/<id>.txt``)."""
        dataset, _, doc_id = page.partition("/")
        return self._dataset_dir(dataset) / "gold" / f"{doc_id}.txt"

    def _dataset_dir(self, dataset: str) -> Path:
        # wcxb-dev and later crawls live in datasets-extra, the seeds' sets in datasets
        extra = self.shared / "datasets-extra" / dataset
        return extra if extra.is_dir() else self.shared / "datasets" / dataset

    def _html_path(self, page: str) -> Path | None:
        dataset, _, doc_id = page.partition("/")
        folder = self._dataset_dir(dataset) / "html"
        for name in (f"{doc_id}.html", f"{doc_id}.html.gz"):
            if (folder / name).is_file():
                return folder / name
        return None

    def _urls_of(self, dataset: str) -> dict[str, str | None]:
        if dataset not in self._meta:
            path = self._dataset_dir(dataset) / "meta.jsonl"
            with path.open(encoding="utf-8") as fh:
                rows = [json.loads(line) for line in fh if line.strip()]
            self._meta[dataset] = {str(r["id"]): r.get("url") for r in rows}
        return self._meta[dataset]


def load_suite(path: Path) -> tuple[tuple[Assertion, ...], dict[str, str]]:
    """The assertions of a cases file and the URLs it gives its fixtures.

    The file holds ``{"pages": [{"page": NAME, "url": URL?, "checks": [{"id", "class",
    one of KINDS, "format"?, "note"?}]}]}``; ids are unique and start with their class.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read the behaviour suite ({exc})") from exc
    assertions: list[Assertion] = []
    urls: dict[str, str] = {}
    for entry in data["pages"]:
        if entry.get("url"):
            urls[entry["page"]] = entry["url"]
        assertions += [_assertion(entry["page"], check, path) for check in entry["checks"]]
    _check_ids(assertions, path)
    return tuple(assertions), urls


def _assertion(page: str, check: dict[str, Any], path: Path) -> Assertion:
    kinds = [k for k in KINDS if k in check]
    cls = check.get("class")
    if len(kinds) != 1 or cls not in CLASSES:
        raise DatasetError(f"{path}: {check.get('id')}: needs one of {KINDS} and a class "
                           f"of {CLASSES}")
    return Assertion(check["id"], cls, page, kinds[0], check[kinds[0]],
                     check.get("format", "txt"), check.get("note", ""))


def _check_ids(assertions: Sequence[Assertion], path: Path) -> None:
    seen: set[str] = set()
    for a in assertions:
        if a.id in seen or not a.id.startswith(a.cls + "-"):
            raise DatasetError(f"{path}: assertion id {a.id!r} is repeated or does not "
                               f"start with its class {a.cls!r}")
        seen.add(a.id)


def run_suite(assertions: Iterable[Assertion], method: str, pages: Pages) -> Iterator[Outcome]:
    """Each assertion's outcome for ``method``; each page and format is extracted once."""
    outputs: dict[tuple[str, str], str | Exception] = {}
    for a in assertions:
        key = (a.page, a.format)
        if key not in outputs:
            outputs[key] = output(pages, a.page, method, a.format)
        yield judge(a, outputs[key])


def output(pages: Pages, page: str, method: str, fmt: str) -> str | Exception:
    """The method's output for the page in the format, or the exception it raised."""
    try:
        html, url = pages.read(page)
        return render(page_result(html, Settings(method=method), url=url), fmt)
    except Exception as exc:  # noqa: BLE001 - a crash is a failed assertion, reported with its error
        return exc


def judge(a: Assertion, result: str | Exception) -> Outcome:
    """Whether one output (or the exception raised instead) satisfies the assertion."""
    if isinstance(result, Exception):
        return Outcome(a, False, f"crash: {type(result).__name__}: {result}")
    if a.kind in ("keep", "drop"):
        text, needle = _collapse(result), _collapse(a.text)
        found = needle in text
        at = _nearest(text, needle)
    else:
        text = result
        match = re.search(a.text, result, re.MULTILINE)
        found, at = match is not None, match.start() if match else -1
    return Outcome(a, found if a.kind.startswith("keep") else not found, _excerpt(text, at))


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _nearest(text: str, needle: str) -> int:
    """Where the string, or failing that its longest tried prefix, occurs (-1: nowhere).

    A kept string that is missing is often there in a damaged form (a soft hyphen inside
    a word, a line cut short): its start shows where to look.
    """
    for size in (len(needle), 40, 20, 10, 6):
        at = text.find(needle[:size])
        if at >= 0:
            return at
    return -1


def _excerpt(text: str, at: int) -> str:
    """The output around ``at`` (its start when -1), invisible characters written out."""
    if not text.strip():
        return "(empty output)"
    start = max(0, at - EXCERPT)
    piece = text[start:start + 2 * EXCERPT]
    shown = "".join(f"<U+{ord(ch):04X}>" if unicodedata.category(ch) in ("Cf", "Mn") else ch
                    for ch in piece.replace("\n", "⏎"))
    return ("…" if start else "") + shown + ("…" if start + 2 * EXCERPT < len(text) else "")


def counts(outcomes: Iterable[Outcome]) -> dict[str, tuple[int, int]]:
    """(passed, total) per class, in the order of :data:`CLASSES`, for the classes present."""
    tally = {c: [0, 0] for c in CLASSES}
    for o in outcomes:
        tally[o.assertion.cls][0] += o.passed
        tally[o.assertion.cls][1] += 1
    return {c: (p, n) for c, (p, n) in tally.items() if n}
