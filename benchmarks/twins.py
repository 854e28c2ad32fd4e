"""Compiled passes of the learned extractor against their numpy twins: same output on every
shared page, and what each costs.

For every page of ``--datasets`` (the ``.html`` pages) and ``--extra`` (the ``.html.gz``
pages of ``datasets-extra``, beside it by default), the learned method runs as usual, and at four places the
compiled pass and its twin are both run on the same inputs and their outputs compared:

``boundary``
    ``_csteps.keep_boundary_lines`` against ``learned.rules.boundary.keep_boundary_lines_numpy``;
``figures``
    ``_csteps.keep_figures`` against ``learned.rules.figures.keep_figures_numpy``;
``context``
    ``_cfeatures.context_columns`` against ``learned.context.columns_numpy`` (the
    second stage's columns, bit for bit);
``hints``
    ``features.page_hints`` with the elements the compiled segmentation collected
    (``Page.declared``) against the full ``tree.iter()`` of ``segment.declared_elements``.

Each pass is also timed on each page, compiled and twin alternately, the fastest of
``--repeat`` runs kept (one process: no difference of process or machine load between
the two).  The table gives, per pass: pages compared, pages where the outputs differ
(must be 0), pages the step changed (a comparison of nothing proves nothing), and the
median and mean µs of each side.

    python benchmarks/twins.py                  # all pages (~1 min)
    python benchmarks/twins.py --sample 40      # 40 pages per dataset, and no extra pages
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

import _common

PASSES = ("boundary", "figures", "context", "hints")


def pages(datasets: Path, extra: Path | None, sample: int | None, seed: int) -> list[bytes]:
    out = []
    for folder in sorted(p for p in datasets.iterdir() if p.is_dir()):
        paths = sorted(folder.rglob("*.html"))
        if sample is not None:
            random.Random(seed).shuffle(paths)
            paths = paths[:sample]
        out += [p.read_bytes() for p in paths]
    if extra is not None and extra.is_dir():
        out += [gzip.decompress(p.read_bytes()) for p in sorted(extra.glob("*/html/*.html.gz"))]
    return out


def fastest(repeat: int, func, *args) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        func(*args)
        best = min(best, time.perf_counter() - t0)
    return best * 1e6


class Compare:
    """Wraps the four places; records per pass: differences, changes, µs of each side."""

    def __init__(self, repeat: int) -> None:
        self.repeat = repeat
        self.counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # compared, differ, changed
        self.us: dict[str, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))

    def record(self, name: str, same: bool, changed: bool, compiled_us: float, twin_us: float) -> None:
        counts = self.counts[name]
        counts[0] += 1
        counts[1] += not same
        counts[2] += changed
        self.us[name][0].append(compiled_us)
        self.us[name][1].append(twin_us)

    def step(self, name: str, compiled, twin):  # type: ignore[no-untyped-def]
        """A page-level step that changes ``keep`` (its third argument) in place."""
        def both(page, para, keep, *rest):  # type: ignore[no-untyped-def]
            before, expected = keep.copy(), keep.copy()
            twin(page, para, expected, *rest)
            compiled(page, para, keep, *rest)
            self.record(name, np.array_equal(keep, expected), bool((keep != before).any()),
                        fastest(self.repeat, lambda: compiled(page, para, before.copy(), *rest)),
                        fastest(self.repeat, lambda: twin(page, para, before.copy(), *rest)))
        return both


def install(compare: Compare, patch=setattr) -> None:  # type: ignore[no-untyped-def]
    """Put the comparing wrappers in place, by ``patch`` (``setattr``; a test passes its
    undoable ``monkeypatch.setattr``)."""
    from detourage import segment
    from detourage.learned import context, features, rules

    # the steps as :func:`rules.apply` calls them (its names), each with its numpy twin
    patch(rules, "keep_boundary_lines", compare.step("boundary", rules.boundary.keep_boundary_lines,
                                                     rules.boundary.keep_boundary_lines_numpy))
    patch(rules, "keep_figures", compare.step("figures", rules.figures.keep_figures,
                                              rules.figures.keep_figures_numpy))
    compute = context.compute

    def context_both(q, spans, chars, signature):  # type: ignore[no-untyped-def]
        out = compute(q, spans, chars, signature)
        w, q64 = chars.astype(np.float64) + 1.0, q.astype(np.float64)
        twin = lambda: context.columns_numpy(q64, w, q64 >= context.KEPT, spans, signature,  # noqa: E731
                                             np.empty_like(out))
        compare.record("context", np.array_equal(out, twin()), True,
                       fastest(compare.repeat, compute, q, spans, chars, signature), fastest(compare.repeat, twin))
        return out

    patch(context, "compute", context_both)
    hints, compiled_segment = features.page_hints, segment._csegment

    def hints_both(page):  # type: ignore[no-untyped-def]
        found = hints(page)
        walked = dataclasses.replace(page, declared=None)
        segment._csegment = None  # declared_elements' Python walk
        try:
            twin_us = fastest(compare.repeat, hints, walked)
            same = hints(walked) == found
        finally:
            segment._csegment = compiled_segment
        compare.record("hints", same, bool(found.body or found.types), fastest(compare.repeat, hints, page), twin_us)
        return found

    patch(features.page, "page_hints", hints_both)


def main(argv: list[str] | None = None, patch=setattr) -> int:  # type: ignore[no-untyped-def]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_datasets(ap)
    ap.add_argument("--extra", type=Path, help="the .html.gz pages' root (default: datasets-extra beside --datasets)")
    ap.add_argument("--sample", type=int, help="pages per dataset, and no extra pages (default: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=5, help="runs of each side per page; the fastest kept")
    args = ap.parse_args(argv)
    from detourage.api import load
    from detourage.errors import DetourageError
    from detourage.learned import features, rules
    from detourage.methods import learned

    if rules.ancestors._csteps is None or features.tree._cfeatures is None:
        print("the compiled modules are not built (python setup.py build_ext --inplace)", file=sys.stderr)
        return 2
    if not args.datasets.is_dir():
        print(f"no datasets folder at {args.datasets}", file=sys.stderr)
        return 2
    compare = Compare(args.repeat)
    install(compare, patch)
    extra = None if args.sample else (args.extra or args.datasets.parent / "datasets-extra")
    for data in pages(args.datasets, extra, args.sample, args.seed):
        try:
            learned.label(load(data))
        except DetourageError:
            continue
    print(_common.table_head(["pass", "pages", "differ", "changed", "compiled µs (median, mean)",
                              "twin µs (median, mean)"], "lrrrrr"))
    for name in PASSES:
        compared, differ, changed = compare.counts[name]
        fast, twin = compare.us[name]
        print(f"| {name} | {compared} | {differ} | {changed} "
              f"| {statistics.median(fast):.1f}, {statistics.fmean(fast):.1f}"
              f" | {statistics.median(twin):.1f}, {statistics.fmean(twin):.1f} |")
    differing = sum(compare.counts[name][1] for name in PASSES)
    print(f"\nVerdict: {'PASS' if not differing else 'FAIL'} ({differing} pages where a twin differs)")
    return 0 if not differing else 1


if __name__ == "__main__":
    sys.exit(main())
