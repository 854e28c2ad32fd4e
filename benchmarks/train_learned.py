"""Rebuild the learned extractor's shipped model from every shared gold dataset.

    python benchmarks/train_learned.py            # train, report, write nothing
    python benchmarks/train_learned.py --write    # also write src/detourage/data/learned-default.zip

Pages: every page with text gold of ``../shared/datasets/*`` (CleanEval, CleanPortalEval,
DANIEL, L3S-GN1) and ``../shared/datasets-extra/wcxb-dev``, labelled by the gold aligner
(:mod:`detourage.learned.train`).  Deterministic: pages in dataset/id order, trees with
``random_state=0`` and no early stopping, so the same data gives the same model bytes.
The labelled pages are cached in ``build/learned/pages.pkl`` (keyed by the feature code
and the data), which ``learned_lodo.py`` shares; ``--no-cache`` rebuilds it.

The road is ``detourage train learned``'s: :func:`detourage.learned.train.collect` labels
the pages (here through the cache), :func:`~detourage.learned.train.fit` fits the trees.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import _common
from detourage.learned import train
from detourage.learned.forest import DEFAULT_MODEL

DATASETS = ("cleaneval-en-dev", "cleanportaleval", "daniel", "l3s-gn1")
EXTRA = ("wcxb-dev",)
CACHE = _common.ROOT / "build" / "learned" / "pages.pkl"


def dataset_paths(shared: Path = _common.SHARED) -> list[Path]:
    paths = [shared / "datasets" / d for d in DATASETS] + [shared / "datasets-extra" / d for d in EXTRA]
    missing = [str(p) for p in paths if not p.is_dir()]
    if missing:
        sys.exit(f"datasets missing: {', '.join(missing)} (the shared folder goes beside the repository)")
    return paths


def load_pages(paths: list[Path], *, workers: int = 2, cache: Path | None = CACHE) -> list[train.PageData]:
    """The labelled pages of the datasets, from the cache when it is current; when they are
    labelled, how long it took goes to stderr."""
    t0 = time.perf_counter()
    labelled: list[int] = []
    pages = train.collect(paths, workers=workers, cache=cache, progress=lambda done, _: labelled.append(done))
    if labelled:
        print(f"labelled {len(pages)} pages in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help=f"write src/detourage/data/{DEFAULT_MODEL}")
    _common.add_shared(parser)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-cache", action="store_true", help="relabel the pages")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    pages = load_pages(dataset_paths(args.shared), workers=args.workers,
                       cache=None if args.no_cache else CACHE)
    t1 = time.perf_counter()
    model = train.fit(pages, meta={"name": "learned-default",
                                   "rebuild": "python benchmarks/train_learned.py --write"})
    t2 = time.perf_counter()
    counts: dict[str, int] = {}
    for p in pages:
        counts[p.dataset] = counts.get(p.dataset, 0) + 1
    print(f"pages: {len(pages)} ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}); "
          f"rows {model.meta['rows']}, content share {model.meta['content_share']}")
    stages = [f for f in (model.forest, model.second) if f is not None]
    print(f"labelling + features {t1 - t0:.1f} s, fitting {t2 - t1:.1f} s, trees "
          + " + ".join(str(f.trees) for f in stages) + ", nodes " + " + ".join(str(len(f.feature)) for f in stages))
    if args.write:
        out = _common.ROOT / "src" / "detourage" / "data" / DEFAULT_MODEL
        model.save(out)
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
