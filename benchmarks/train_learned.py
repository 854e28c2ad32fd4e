"""Rebuild the learned extractor's shipped model from every shared gold dataset.

    python benchmarks/train_learned.py            # train, report, write nothing
    python benchmarks/train_learned.py --write    # also write src/detourage/data/learned-default.zip

Pages: every page with text gold of ``../shared/datasets/*`` (CleanEval, CleanPortalEval,
DANIEL, L3S-GN1) and ``../shared/datasets-extra/wcxb-dev``, labelled by the gold aligner
(:mod:`detourage.learned.train`).  Deterministic: pages in dataset/id order, trees with
``random_state=0`` and no early stopping, so the same data gives the same model bytes.
The labelled pages are cached in ``build/learned/pages.pkl`` (keyed by the feature code
and the data), which ``learned_lodo.py`` shares; ``--no-cache`` rebuilds it.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import pickle
import sys
import time
from pathlib import Path

from detourage import api, segment
from detourage.learned import features, train
from detourage.learned.forest import DEFAULT_MODEL

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATASETS = ("cleaneval-en-dev", "cleanportaleval", "daniel", "l3s-gn1")
EXTRA = ("wcxb-dev",)
CACHE = ROOT / "build" / "learned" / "pages.pkl"


def dataset_paths(shared: Path = SHARED) -> list[Path]:
    paths = [shared / "datasets" / d for d in DATASETS] + [shared / "datasets-extra" / d for d in EXTRA]
    missing = [str(p) for p in paths if not p.is_dir()]
    if missing:
        sys.exit(f"datasets missing: {', '.join(missing)} (the shared folder goes beside the repository)")
    return paths


def _key(paths: list[Path]) -> str:
    """What the cache depends on: the feature, labelling and page-loading code, and the gold files."""
    code = (inspect.getsource(features) + inspect.getsource(train.page_data) + str(train.CONTENT_SHARE)
            + inspect.getsource(segment) + inspect.getsource(api.load))
    h = hashlib.sha256(code.encode())
    for path in paths:
        for gold in sorted((path / "gold").iterdir()):
            h.update(gold.name.encode() + str(gold.stat().st_size).encode())
    return h.hexdigest()


def load_pages(paths: list[Path], *, workers: int = 2, cache: Path | None = CACHE) -> list[train.PageData]:
    """The labelled pages of the datasets, from the cache when it is current."""
    key = _key(paths)
    if cache is not None and cache.is_file():
        with cache.open("rb") as fh:
            stored = pickle.load(fh)
        if stored.get("key") == key:
            return stored["pages"]
    t0 = time.perf_counter()
    pages = train.collect(paths, workers=workers)
    print(f"labelled {len(pages)} pages in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        with cache.open("wb") as fh:
            pickle.dump({"key": key, "pages": pages}, fh, protocol=pickle.HIGHEST_PROTOCOL)
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help=f"write src/detourage/data/{DEFAULT_MODEL}")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared folder (default: beside the repo)")
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
        out = ROOT / "src" / "detourage" / "data" / DEFAULT_MODEL
        model.save(out)
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
