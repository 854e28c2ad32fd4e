"""Rebuild Victor's shipped model (``src/detourage/data/victor-default.zip``).

    python benchmarks/train_victor.py [--datasets ../shared/datasets] [--write] [--out FILE]

**Training set**: every scorable page of the *training* half of the fixed split
(:func:`detourage.gold.split_of`: first byte of sha256("<dataset>/<id>")
even) of the four shared datasets — CleanEval-EN dev, CleanPortalEval, DANIEL (el, en,
pl, ru, zh), L3S-GN1 — labelled from their gold by :mod:`detourage.gold.align`
(threshold 0.5).  The *held-out* half is what the model may be scored on:
``detourage evaluate DATASETS -m victor --split held-out``.

Configuration: the shipped ``victor.conf`` (seed 003's features plus the extra group),
L-BFGS with its c1 / c2 / iterations.  The model keeps its training pages (features and
labels, no text: ``training.npz.xz``) so that ``detourage train victor PAGES --base default``
can retrain it with a user's pages added.  Prints the alignment report, the training
time and the model size.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import _common
from detourage.gold import align
from detourage.victor import training
from detourage.victor.config import default
from detourage.victor.crf import DEFAULT_MODEL, Example, train

NAMES = ("cleaneval-en-dev", "cleanportaleval", "daniel", "l3s-gn1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_datasets(parser)
    parser.add_argument("--write", action="store_true", help="Write the shipped model into src/detourage/data/.")
    parser.add_argument("--out", type=Path, default=None, help="Write the model here instead.")
    args = parser.parse_args()
    t0 = time.perf_counter()
    material = training.gather([args.datasets / n for n in NAMES], split="train")
    prepared = time.perf_counter() - t0
    print(align.format_report(material.reports))
    examples = [Example(s.blocks, s.labels, s.name) for s in material.samples]
    provenance = {"script": "benchmarks/train_victor.py", "split": "train",
                  "datasets": list(NAMES), "selection": "sha256('<dataset>/<id>')[0] even"}
    model = train(examples, default(), provenance=provenance, keep_data=True)
    model.meta["name"] = "victor-default"
    out = _common.ROOT / "src" / "detourage" / "data" / DEFAULT_MODEL if args.write else args.out
    print(f"pages {len(examples)}, skipped {len(material.skipped)}; labelling {prepared:.1f} s, "
          f"training {model.meta['seconds']} s; labels {model.meta['labels']}")
    if out is not None:
        model.save(out)
        print(f"model → {out} ({out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
