"""Behaviour suite of issue 32: pass counts per failure class and method.

    python benchmarks/behaviour.py [--methods default peer-trafilatura peer-readability]
                                   [--show-failures] [--json PATH] [--update-expected]

Runs every assertion of ``tests/behaviour/cases.json`` (strings a user expects kept or
dropped, on shared pages and on the suite's fixtures) for each method and prints a table:
one row per class, one column per method, ``passed/total`` in each cell.  Shared pages
are read from ``../shared`` beside the repository (``--shared DIR`` points elsewhere);
without it only the fixtures run, and the table says so.

``--update-expected`` rewrites ``tests/behaviour/expected-default.json``, the assertions
``default`` passes today: ``tests/test_behaviour.py`` fails when one of them stops passing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import _common
from detourage.evaluation.behaviour import (
    Assertion,
    Outcome,
    Pages,
    counts,
    load_suite,
    run_suite,
)

ROOT = _common.ROOT
SUITE_DIR = ROOT / "tests" / "behaviour"
EXPECTED = SUITE_DIR / "expected-default.json"
#: characters of an assertion's string shown by --show-failures
SHOWN = 70


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    assertions, urls = load_suite(SUITE_DIR / "cases.json")
    pages = Pages(SUITE_DIR / "fixtures", args.shared, urls)
    runnable = [a for a in assertions if pages.available(a.page)]
    results: dict[str, list[Outcome]] = {}
    seconds: dict[str, float] = {}
    for method in args.methods:
        start = time.perf_counter()
        results[method] = list(run_suite(runnable, method, pages))
        seconds[method] = time.perf_counter() - start
    print(_table(results, seconds))
    if len(runnable) < len(assertions):
        print(f"\n{len(assertions) - len(runnable)} assertions on shared pages skipped: "
              f"{args.shared} is absent")
    if args.show_failures:
        print(_failures(results))
    if args.json:
        _write_json(args.json, results, seconds)
    if args.update_expected:
        return _update_expected(results, len(runnable) == len(assertions))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--methods", nargs="+", default=["default"],
                        help="methods to run (default: %(default)s; see `detourage methods`)")
    _common.add_shared(parser)
    parser.add_argument("--show-failures", action="store_true",
                        help="list each failing assertion with the output around it")
    _common.add_json(parser, "every outcome")
    parser.add_argument("--update-expected", action="store_true",
                        help=f"rewrite {EXPECTED.relative_to(ROOT)} from default's passes")
    return parser


def _table(results: dict[str, list[Outcome]], seconds: dict[str, float]) -> str:
    """Markdown table: classes down, methods across, passed/total in each cell."""
    methods = list(results)
    per_method = {m: counts(results[m]) for m in methods}
    classes = list(per_method[methods[0]])
    rows = [_common.table_head(["class", *methods])]
    for cls in classes:
        cells = [f"{per_method[m][cls][0]}/{per_method[m][cls][1]}" for m in methods]
        rows.append(_common.table_row([cls, *cells]))
    totals = [f"**{sum(o.passed for o in results[m])}/{len(results[m])}**" for m in methods]
    rows.append(_common.table_row(["**all**", *totals]))
    rows.append(_common.table_row(["seconds", *(f"{seconds[m]:.1f}" for m in methods)]))
    return "\n".join(rows)


def _failures(results: dict[str, list[Outcome]]) -> str:
    lines = []
    for method, outcomes in results.items():
        failed = [o for o in outcomes if not o.passed]
        lines.append(f"\n## {method}: {len(failed)} failing")
        for o in failed:
            lines.append(f"- {o.assertion.id} [{o.assertion.page}, {o.assertion.format}] "
                         f"{_describe(o.assertion)}\n    output: {o.detail}")
    return "\n".join(lines)


def _describe(a: Assertion) -> str:
    text = a.text if len(a.text) <= SHOWN else a.text[:SHOWN] + "…"
    return f"{a.kind} {text!r}"


def _write_json(path: Path, results: dict[str, list[Outcome]],
                seconds: dict[str, float]) -> None:
    data = {method: {"seconds": round(seconds[method], 2),
                     "classes": {c: {"passed": p, "total": n}
                                 for c, (p, n) in counts(outcomes).items()},
                     "outcomes": [{"id": o.assertion.id, "class": o.assertion.cls,
                                   "page": o.assertion.page, "passed": o.passed,
                                   "detail": o.detail} for o in outcomes]}
            for method, outcomes in results.items()}
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _update_expected(results: dict[str, list[Outcome]], complete: bool) -> int:
    """Write default's passing assertions; refuse when some could not run or default did not."""
    if "default" not in results or not complete:
        print("--update-expected needs `default` among --methods and the shared pages "
              "(an assertion that did not run cannot be recorded)", file=sys.stderr)
        return 2
    passing = sorted(o.assertion.id for o in results["default"] if o.passed)
    EXPECTED.write_text(json.dumps({
        "about": "Assertions of cases.json that the default method passes; tests/test_behaviour.py "
                 "fails when one of them stops passing. Rewrite with "
                 "`python benchmarks/behaviour.py --update-expected`.",
        "passing": passing}, indent=1) + "\n", encoding="utf-8")
    print(f"\nwrote {EXPECTED.relative_to(ROOT)}: {len(passing)} of {len(results['default'])} pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
