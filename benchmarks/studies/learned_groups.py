"""Which feature groups the learned extractor leans on, on datasets it never saw.

    PYTHONPATH=benchmarks python benchmarks/studies/learned_groups.py               # fits the LODO models (~15 min)
    PYTHONPATH=benchmarks python benchmarks/studies/learned_groups.py --models DIR  # reuses/saves fold models in DIR

For every leave-one-dataset-out fold (``learned_lodo.folds``, the five datasets and two
wcxb-dev host folds), the fold's model scores the pages left out twice: as they are, and
with one group of feature columns shuffled across the fold's paragraphs (permutation
importance by group; the model is not retrained, so this measures what the trained model
relies on, not what a model without the group could learn instead).  Reported: the
paragraph-level character F1 (page mean) and its drop per group.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

import _common
from detourage.learned import features, train
from detourage.learned.forest import load_model
from learned_lodo import char_scores, folds
from train_learned import dataset_paths, load_pages

KEPT_FOLDS = ("cleaneval-en-dev", "cleanportaleval", "daniel", "l3s-gn1", "wcxb-dev",
              "wcxb-dev/hosts0", "wcxb-dev/hosts1")


def groups() -> dict[str, list[int]]:
    """Feature columns by group, as :mod:`detourage.learned.features` documents them."""
    names = features.names()
    kind = {"heading_level", "is_list", "is_cell", "is_image", "container_tag", "log_same_structure"}
    page = {"title_overlap", "is_title", "after_title", "title_distance", "after_h1", "h1_distance",
            "repeated", "in_jsonld", "page_log_chars", "page_log_paragraphs", "page_link_density"}
    out: dict[str, list[int]] = {g: [] for g in ("text", "kind", "dom", "region", "context", "page")}
    for j, n in enumerate(names):
        if n in kind:
            out["kind"].append(j)
        elif n.startswith("dist_") or n == "depth":
            out["dom"].append(j)
        elif (n[:2] in {f"l{i}" for i in range(features.LEVELS)} and n[2] == "_"
              or n in {"in_top", "top_share", "top_link_density"}):
            out["region"].append(j)
        elif n.startswith(("prev", "next", "win_")) or n in {"position", "chars_before"}:
            out["context"].append(j)
        elif n in page or n.startswith("type_"):
            out["page"].append(j)
        else:
            out["text"].append(j)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=Path, default=Path("build/learned/folds"))
    args = parser.parse_args(argv)
    pages = load_pages(dataset_paths())
    names = [p.name for p in dataset_paths()]
    args.models.mkdir(parents=True, exist_ok=True)
    by_group = groups()
    rng = np.random.default_rng(0)
    print(_common.table_head(["fold", "pages", "char F1", *(f"− {g} ({len(c)})" for g, c in by_group.items())],
                             "lrr" + "r" * len(by_group)))
    for fold, training, scored in folds(pages, names):
        if fold not in KEPT_FOLDS:
            continue
        path = args.models / f"{fold.replace('/', '-')}.zip"
        if not path.is_file() or load_model(str(path)).second is None:  # none yet, or a one-stage one
            train.fit(training).save(path)
            load_model.cache_clear()
        model = load_model(str(path))
        held = [p for p in pages if (p.dataset, p.id) in scored]
        X = np.concatenate([p.X for p in held])
        bounds = np.cumsum([0] + [len(p.y) for p in held])

        def score(matrix: np.ndarray, model=model, held=held, bounds=bounds) -> float:
            # both stages, page by page: the second stage reads the first one's verdicts around
            return float(np.mean([char_scores(model.probabilities(p, matrix[a:b]) >= model.threshold,
                                              p.y, p.chars)[2] for p, a, b in zip(held, bounds[:-1], bounds[1:])]))

        base = score(X)
        drops = []
        for cols in by_group.values():
            shuffled = X.copy()
            shuffled[:, cols] = X[rng.permutation(len(X))][:, cols]
            drops.append(base - score(shuffled))
        print(_common.table_row([fold, len(held), f"{base:.4f}", *(f"{d:+.4f}" for d in drops)]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
