""""Train for your genre": Victor trained on 50 pages of one DANIEL language vs the
shipped default model, both scored on that language's held-out pages.

    python benchmarks/victor_genre.py [--datasets ../shared/datasets] [--pages 50]
        [--langs el en pl ru zh] [--leave-out]

With ``--leave-out`` a third column: a "default" trained exactly as the shipped one
(``benchmarks/train_victor.py``) but without the language's DANIEL pages — the situation
of a user whose genre the shipped model never saw.

For each language: the first ``--pages`` pages of the *training* half of the fixed split
(:func:`detourage.evaluation.gold.split_of`, dataset order) are labelled from their gold
and a model is trained on them with the shipped configuration; then both that model and
the shipped default (trained on the training half of all four datasets) clean every
*held-out* page of the language.  TO P/R/F1 (CleanEval text-only, micro over pages; CAR
for zh as well).  No page is scored by a model that saw it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from detourage.api import load
from detourage.evaluation import metrics
from detourage.evaluation.gold import load_dataset, split_of
from detourage.render import MARKERS, units
from detourage.victor import training
from detourage.victor.config import default
from detourage.victor.crf import Example, Model, load_model, train

DATASETS = Path(__file__).resolve().parents[2] / "shared" / "datasets"


def score(model: Model, docs: list) -> dict[str, float]:
    """Micro TO and CAR P/R/F1 of a model over pages."""
    sums = {mode: metrics.Counts(0, 0, 0) for mode in (metrics.Mode.TO, metrics.Mode.CAR)}
    for doc in docs:
        page = load(doc.read_html())
        pred = [(MARKERS[u.kind], u.text) for u in units(page.blocks, model.tag(page.blocks)) if u.text]
        for mode in sums:
            sums[mode] += metrics.cleaneval_scores(pred, list(doc.gold_blocks), mode)
    return {mode.name: 100 * counts.f1 for mode, counts in sums.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=DATASETS)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--langs", nargs="+", default=["el", "en", "pl", "ru", "zh"])
    parser.add_argument("--leave-out", action="store_true",
                        help="Also score a default trained without the language's DANIEL pages.")
    args = parser.parse_args()
    folder = args.datasets / "daniel"
    dataset = load_dataset(folder)
    shipped = load_model()
    everything = None
    if args.leave_out:
        names = ("cleaneval-en-dev", "cleanportaleval", "daniel", "l3s-gn1")
        everything = training.gather([args.datasets / n for n in names], split="train").samples
    print(f"| lang | training pages | held-out pages | default TO F1 | {args.pages}-page model TO F1 | "
          "default CAR F1 | genre CAR F1 | training s | default without the language TO F1 |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for lang in args.langs:
        material = training.gather([folder], split="train", langs=[lang], limit=args.pages)
        t0 = time.perf_counter()
        model = train([Example(s.blocks, s.labels, s.name) for s in material.samples], default())
        seconds = time.perf_counter() - t0
        held = [d for d in dataset.scorable if d.lang == lang and split_of(dataset.name, d.id) == "held-out"]
        base, genre = score(shipped, held), score(model, held)
        without = "–"
        if everything is not None:
            rest = [Example(s.blocks, s.labels, s.name) for s in everything
                    if not (s.dataset == "daniel" and s.lang == lang)]
            without = f"{score(train(rest, default()), held)['TO']:.2f}"
        print(f"| {lang} | {len(material.samples)} | {len(held)} | {base['TO']:.2f} | {genre['TO']:.2f} | "
              f"{base['CAR']:.2f} | {genre['CAR']:.2f} | {seconds:.0f} | {without} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
