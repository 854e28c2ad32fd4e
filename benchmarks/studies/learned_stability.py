"""How far the learned extractor's held-out decisions move when its training set moves a little.

    PYTHONPATH=benchmarks python benchmarks/studies/learned_stability.py    # the DANIEL fold, 2 pages dropped
    PYTHONPATH=benchmarks python benchmarks/studies/learned_stability.py --fold l3s-gn1 --drop 5 --seed 1
    # one fit, scikit-learn's bins:
    PYTHONPATH=benchmarks python benchmarks/studies/learned_stability.py --params '{"bins": "subsample", "bags": 1}'

A fold of ``learned_lodo.py`` (a dataset left out, or a wcxb-dev host fold) is fitted
twice: on its training pages, and on the same less ``--drop`` pages drawn at random. Both
models score the held-out pages (paragraph decisions against the aligned gold, as
``learned_lodo.py --quick`` does). A model worth measuring barely notices two pages of
3 700: the report gives the share of held-out paragraphs whose decision flips, the pages
whose character F1 moves by more than 0.1, and each model's mean character F1.
Deterministic; about 10 minutes for the DANIEL fold on 2 cores (the two fits run side by side).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np

import _common
from detourage.learned.forest import Model
from learned_lodo import _fit_folds, char_scores, folds
from train_learned import DATASETS, EXTRA, dataset_paths, load_pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fold", action="append", default=[],
                        help="a fold of learned_lodo.py (repeatable; default daniel)")
    parser.add_argument("--drop", type=int, default=2, help="training pages left out of the second fit")
    parser.add_argument("--seed", type=int, default=0, help="which pages are left out")
    parser.add_argument("--params", default="{}", help="JSON overriding train.PARAMS")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    params = json.loads(args.params)
    pages = load_pages(dataset_paths(), workers=args.workers)
    wanted = args.fold or ["daniel"]
    plan = []
    for fold, training, scored in folds(pages, (*DATASETS, *EXTRA)):
        if fold not in wanted:
            continue
        rng = np.random.default_rng(args.seed)
        dropped = set(rng.choice(len(training), size=min(args.drop, len(training) - 1), replace=False).tolist())
        plan.append((fold, training, scored))
        plan.append((f"{fold}-less{args.drop}", [p for i, p in enumerate(training) if i not in dropped], scored))
    unknown = set(wanted) - {fold for fold, _, _ in plan}
    if unknown:
        parser.error(f"no such fold: {', '.join(sorted(unknown))}")
    print(_common.table_head(["fold", "held-out pages", "paragraphs", "decisions flipped", "pages moved > 0.1 char F1",
                              "char F1, all pages", "char F1, less pages"], "lrrrrrr"))
    with tempfile.TemporaryDirectory() as tmp:
        fitted = _fit_folds(pages, plan, params, True, tmp, args.workers)
        for k in range(0, len(plan), 2):
            fold, _, scored = plan[k]
            models = [Model.from_bytes(Path(path).read_bytes(), path) for path, _ in fitted[k:k + 2]]
            held = [p for p in pages if (p.dataset, p.id) in scored]
            flipped = paragraphs = moved = 0
            f1 = np.zeros((2, len(held)))
            for j, page in enumerate(held):
                keep = [m.probabilities(page) >= m.threshold for m in models]
                flipped += int((keep[0] != keep[1]).sum())
                paragraphs += len(page.y)
                for i in (0, 1):
                    f1[i, j] = char_scores(keep[i], page.y, page.chars)[2]
                moved += abs(f1[0, j] - f1[1, j]) > 0.1
            print(f"| {fold} | {len(held)} | {paragraphs} | {flipped} ({flipped / max(paragraphs, 1):.2%}) "
                  f"| {moved} | {f1[0].mean():.4f} | {f1[1].mean():.4f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
