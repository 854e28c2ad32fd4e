"""The shared pages read inside their ``<noscript>``, and how the methods clean them.

    PYTHONPATH=benchmarks python benchmarks/studies/noscript_pages.py        # ~10 s on 2 cores

A page that shows (almost) no text without JavaScript, while its ``<noscript>`` holds
more, is read with ``<noscript>`` shown (:func:`detourage.segment.show_noscript`: every
Discourse forum thread).  This lists which pages of ``../shared/datasets`` and
``datasets-extra/wcxb-dev`` take that path, then scores ``learned``, ``boilerpipe`` and
the peers on them: shingle F1 (page-averaged P and R).
"""

from __future__ import annotations

import sys
from dataclasses import replace

import _common
from detourage import api, segment
from detourage.evaluation import metrics
from detourage.evaluation.evaluate import evaluate
from detourage.gold import load_dataset
from train_learned import dataset_paths

METHODS = ("learned", "boilerpipe", "peer-trafilatura", "peer-readability")


def read_in_noscript(html: bytes | str) -> bool:
    """Whether :func:`detourage.api.load` reads this page inside its ``<noscript>``."""
    seen: list[bool] = []
    real = api.show_noscript

    def spy(root, blocks):  # type: ignore[no-untyped-def]
        seen.append(real(root, blocks))
        return seen[-1]

    api.show_noscript = spy
    try:
        api.load(html)
    finally:
        api.show_noscript = real
    return any(seen)


def main() -> int:
    datasets = [load_dataset(p) for p in dataset_paths()]
    total = 0
    chosen = []
    for ds in datasets:
        docs = tuple(d for d in ds.scorable if read_in_noscript(d.read_html()))
        total += len(ds.scorable)
        if docs:
            chosen.append(replace(ds, documents=docs))
    ids = [f"{ds.name}/{d.id}" for ds in chosen for d in ds.documents]
    print(f"{len(ids)} of {total} scorable pages are read in their <noscript> "
          f"(pages under {segment.NOSCRIPT_PAGE_CHARS} visible characters): {', '.join(ids)}")
    if not ids:
        return 0
    run = evaluate(chosen, list(METHODS), workers=2)
    print(_common.table_head(["method", "pages", "shingle F1", "P", "R"], "lrrrr"))
    for method in METHODS:
        rows = [r for r in run.pages if r["method"] == method]
        s = metrics.shingle_summary([metrics.ShingleCounts(r["shingle_tp"], r["shingle_fp"], r["shingle_fn"])
                                     for r in rows], n_bootstrap=0)
        print(f"| {method} | {len(rows)} | {s.f1:.3f} | {s.precision:.3f} | {s.recall:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
