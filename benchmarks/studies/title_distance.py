"""How much of each gold dataset lies far from the page's title.

    PYTHONPATH=benchmarks python benchmarks/studies/title_distance.py

The learned extractor's ``title_distance`` and ``h1_distance`` once counted every
paragraph between a line and the title.  A model learns from them how far after the title
content still comes; this study shows what each training set teaches.  For each dataset
(and wcxb-dev page type), the paragraphs are put in bands by how many paragraphs they lie
from the title (the paragraph the features take for it, ``is_title``; "no title" when the
page has none) and the share of each band's paragraphs that the gold holds, as the aligner
labels them for training (the pages ``train_learned.py`` caches), is printed with the
band's size.  Where the news datasets hold almost no content past 30 paragraphs and WCXB
holds much, an unbounded distance carries the news stories' length to every page
(docs/choosing-the-default.md, "History of the model"; ``features.page.NEAR``).
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

import _common
from detourage.learned import features
from train_learned import dataset_paths, load_pages

#: paragraphs from the title: up to and including each bound (the last band is the rest)
BANDS = (("before", 0), ("1-5", 5), ("6-30", 30), (">30", None))


def bands(pages) -> dict[str, dict[str, tuple[int, int]]]:  # type: ignore[no-untyped-def]
    """row → band → (paragraphs the gold holds, paragraphs)."""
    column = features.names().index("is_title")
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for page in pages:
        row = page.dataset + (f"/{page.page_type}" if page.dataset == "wcxb-dev" else "")
        at = np.flatnonzero(page.X[:, column] > 0)
        if not len(at):
            cells = {"no title": np.ones(len(page.y), bool)}
        else:
            distance = np.arange(len(page.y)) - int(at[0])
            cells, low = {}, -len(page.y) - 1
            for name, bound in BANDS:
                high = len(page.y) if bound is None else bound
                cells[name] = (distance > low) & (distance <= high)
                low = high
        for name, mask in cells.items():
            cell = out[row][name]
            cell[0] += int(page.y[mask].sum())
            cell[1] += int(mask.sum())
    return {row: {name: (c[0], c[1]) for name, c in cells.items()} for row, cells in out.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.parse_args(argv)
    table = bands(load_pages(dataset_paths()))
    names = [name for name, _ in BANDS] + ["no title"]
    print(_common.table_head(["row", *(f"{n}: in gold (paragraphs)" for n in names)], "l" + "r" * len(names)))
    for row in sorted(table):
        cells = [f"{table[row][n][0] / table[row][n][1]:.0%} ({table[row][n][1]})" if table[row].get(n, (0, 0))[1]
                 else "–" for n in names]
        print(f"| {row} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
