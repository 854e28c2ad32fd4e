""""Train for your genre": Victor trained on 50 pages of one DANIEL language vs the
shipped default model, both scored on that language's held-out pages.

    PYTHONPATH=benchmarks python benchmarks/studies/victor_genre.py [--datasets ../shared/datasets] [--pages 50]
        [--langs el en pl ru zh] [--source held-out|train] [--leave-out]

For each language, ``--pages`` pages of the language are labelled from their gold (the
"genre pages") and three models clean the language's test pages:

- **default**: the shipped model (trained on the training half of the fixed split of all
  four shared datasets, :func:`detourage.gold.split_of`);
- **pages alone**: a model trained on the genre pages only, with the shipped configuration;
- **default + pages**: the shipped model retrained on its own training pages plus the genre
  pages (:func:`detourage.victor.crf.train_more`, ``detourage train victor PAGES --base
  default``).

``--source held-out`` (the default): the genre pages are the first ``--pages`` held-out
pages of the language (dataset order), pages no model has seen, as a user's would be; the
test pages are the language's other held-out pages.  ``--source train``: the genre pages
are the first ``--pages`` training-half pages (which the default itself was trained on);
the test pages are all the language's held-out pages.

``--leave-out`` adds two columns, the situation of a user whose genre the shipped model
never saw: a "default" trained exactly as the shipped one (``benchmarks/train_victor.py``)
but without the language's DANIEL pages, and that model retrained with the genre pages.

Scores: TO F1 (CleanEval text-only, micro over pages).  No page is scored by a model that
saw it.
"""

from __future__ import annotations

import argparse
import sys
import time

import _common
from detourage.api import load
from detourage.evaluation import metrics
from detourage.gold import load_dataset, split_of
from detourage.render import MARKERS, units
from detourage.victor import training
from detourage.victor.config import default
from detourage.victor.crf import CRFModel, Example, load_model, train, train_more

NAMES = ("cleaneval-en-dev", "cleanportaleval", "daniel", "l3s-gn1")


def score(model: CRFModel, docs: list) -> float:
    """Micro TO F1 of a model over pages."""
    sums = metrics.Counts(0, 0, 0)
    for doc in docs:
        page = load(doc.read_html())
        pred = [(MARKERS[u.kind], u.text) for u in units(page.blocks, model.tag(page.blocks)) if u.text]
        sums += metrics.cleaneval_scores(pred, list(doc.gold_blocks), metrics.Mode.TO)
    return 100 * sums.f1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_datasets(parser)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--langs", nargs="+", default=["el", "en", "pl", "ru", "zh"])
    parser.add_argument("--source", choices=["held-out", "train"], default="held-out",
                        help="Half of the split the genre pages come from (see the module docstring).")
    parser.add_argument("--leave-out", action="store_true",
                        help="Also a default trained without the language's DANIEL pages, alone and + the pages.")
    args = parser.parse_args()
    folder = args.datasets / "daniel"
    dataset = load_dataset(folder)
    shipped = load_model()
    everything = None
    if args.leave_out:
        everything = training.gather([args.datasets / n for n in NAMES], split="train").samples
    head = (f"| lang | genre pages | test pages | default | {args.pages} pages alone | default + {args.pages} pages "
            "| train + retrain s |")
    rule = "|---|--:|--:|--:|--:|--:|--:|"
    if args.leave_out:
        head += f" default without the language | that + {args.pages} pages |"
        rule += "--:|--:|"
    print(head)
    print(rule, flush=True)
    for lang in args.langs:
        material = training.gather([folder], split=args.source, langs=[lang], limit=args.pages)
        genre = [Example(s.blocks, s.labels, s.name) for s in material.samples]
        used = {s.name.split("/", 1)[1] for s in material.samples}
        test = [d for d in dataset.scorable if d.lang == lang and d.id not in used
                and split_of(dataset.name, d.id) == "held-out"]
        t0 = time.perf_counter()
        alone = train(genre, default())
        t1 = time.perf_counter()
        more = train_more(shipped, genre)
        t2 = time.perf_counter()
        row = (f"| {lang} | {len(genre)} | {len(test)} | {score(shipped, test):.2f} | {score(alone, test):.2f} | "
               f"{score(more, test):.2f} | {t1 - t0:.0f} + {t2 - t1:.0f} |")
        if everything is not None:
            rest = [Example(s.blocks, s.labels, s.name) for s in everything
                    if not (s.dataset == "daniel" and s.lang == lang)]
            row += f" {score(train(rest, default()), test):.2f} | {score(train(rest + genre, default()), test):.2f} |"
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
