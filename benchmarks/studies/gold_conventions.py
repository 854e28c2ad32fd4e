"""What each gold dataset counts as content around the article: bylines, dates, captions.

    PYTHONPATH=benchmarks python benchmarks/studies/gold_conventions.py

Datasets disagree on the lines around an article's body.  A model trained on the others
learns their convention, and is judged on the one left out by its own, so a
leave-one-dataset-out deficit on one dataset can be a difference of convention rather than
of generalisation.  For each dataset (and wcxb-dev page type), over the short paragraphs
(at most :data:`SHORT` characters) whose container or its parent names a kind of region by
its class/id (``byline``, ``author``, ``date``, ``time``, ``meta``… the ``meta`` group of
:data:`detourage.learned.features.CLASS_GROUPS`; ``caption``, ``credit``, ``photo``,
``gallery``… the ``media`` group), and for the page's title (the paragraph the features
take for it, ``is_title``: the heading or short line that best matches the ``<title>``
and ``og:title``), the share of their characters that the gold keeps, as the aligner
labels them for training (the pages ``train_learned.py`` caches).
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

import _common
from detourage.learned import features
from train_learned import dataset_paths, load_pages

#: a paragraph at most this long is a line around the article, not its body
SHORT = 120
#: the region groups reported
GROUPS = ("meta", "media")
#: a group counts when it names the paragraph's container (level 0) or its parent (level 1)
NEAR = 1


def shares(pages) -> dict[str, dict[str, tuple[float, int]]]:  # type: ignore[no-untyped-def]
    """row → group → (share of the characters gold keeps, characters)."""
    names = features.names()
    kept: dict[tuple[str, str], float] = defaultdict(float)
    total: dict[tuple[str, str], float] = defaultdict(float)
    for page in pages:
        row = page.dataset if page.dataset != "wcxb-dev" else f"wcxb-dev/{page.page_type}"
        short = (page.chars <= SHORT) & (page.chars > 3)
        for group in GROUPS:
            near = short & (page.X[:, names.index(f"dist_{group}")] <= NEAR)
            chars = page.chars[near].astype(np.float64)
            kept[row, group] += float((chars * page.y[near]).sum())
            total[row, group] += float(chars.sum())
        title = page.X[:, names.index("is_title")] == 1
        kept[row, "title"] += float((page.chars[title] * page.y[title]).sum())
        total[row, "title"] += float(page.chars[title].sum())
    out: dict[str, dict[str, tuple[float, int]]] = defaultdict(dict)
    for (row, group), chars in sorted(total.items()):
        out[row][group] = (kept[row, group] / chars if chars else float("nan"), int(chars))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_shared(parser)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    table = shares(load_pages(dataset_paths(args.shared), workers=args.workers))
    columns = (*GROUPS, "title")
    print(_common.table_head(["rows", *(f"{g}: gold keeps (characters)" for g in columns)], "l" + "r" * len(columns)))
    for row, groups in table.items():
        cells = [f"{groups[g][0]:.2f} ({groups[g][1]})" if g in groups else "–" for g in columns]
        print(_common.table_row([row, *cells]))
    print(f"\nparagraphs of at most {SHORT} characters whose container or parent names the group "
          "by its class/id, and the page's title (is_title); the share of their characters the aligned gold keeps")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
