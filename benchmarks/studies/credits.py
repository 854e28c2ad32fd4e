"""The lines read as a picture's credit on the shared pages, and whether the gold holds them.

    PYTHONPATH=benchmarks python benchmarks/studies/credits.py --models DIR [--shared DIR]   # ~6 min on 2 cores

``DIR`` holds the fold models ``learned_lodo.py --models DIR`` fits: each page is cleaned
by the model that never saw it (its dataset's, a wcxb-dev page its host's fold); without
``--models``, the shipped model, which saw every page, cleans them.  Of the units the
``learned`` method keeps, those that are all a credit (:func:`detourage.credits.is_credit`)
are counted per dataset, split by whether a picture lies near them (the renderer then
leaves them out of the text: :attr:`detourage.model.Unit.credit`) and by whether the
gold holds them (their words, lower-cased, found in the gold's as a run).  A sample of
each kind follows.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

import _common
from detourage.api import load, run
from detourage.credits import is_credit
from detourage.gold import load_dataset
from detourage.learned.forest import Model, load_model
from detourage.methods.learned import Options
from learned_lodo import fold_of

#: examples shown of each kind
SAMPLE = 12


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_shared(parser)
    parser.add_argument("--models", type=Path, help="folder of learned_lodo.py --models (default: the shipped model)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    counts: Counter[tuple[str, bool, bool]] = Counter()
    examples: dict[tuple[bool, bool], list[str]] = defaultdict(list)
    models: dict[str, Model] = {}
    folders = [p for p in (*sorted((args.shared / "datasets").glob("*")), args.shared / "datasets-extra" / "wcxb-dev")
               if (p / "html").is_dir()]
    for path in folders:
        dataset = load_dataset(path)
        for doc in dataset.scorable:
            options = None
            if args.models:
                fold = fold_of(dataset.name, doc)
                if fold not in models:
                    models[fold] = load_model(args.models / f"{fold}.zip")
                options = {"learned": Options(model=models[fold])}
            result = run(load(doc.read_html(), url=doc.meta.get("url") or None), "learned", options)
            gold = _words(" ".join(text for _, text in doc.gold_blocks) if doc.gold_blocks
                          else doc.gold_path.read_text(encoding="utf-8", errors="replace"))
            for unit in result.units:
                if unit.credit or is_credit(unit.text):
                    key = (unit.credit, _words(unit.text) in gold)
                    counts[(dataset.name, *key)] += 1
                    examples[key].append(f"{dataset.name}/{doc.id}: {unit.text}")
    print("units kept that are all a credit: beside a picture (left out of the text) or not, in the gold or not")
    print(_common.table_head(["dataset", "beside a picture, not in the gold", "in the gold",
                              "no picture near, not in the gold", "in the gold"], "lrrrr"))
    for name in sorted({name for name, _, _ in counts}):
        print(f"| {name} | " + " | ".join(str(counts[name, near, held]) for near in (True, False)
                                           for held in (False, True)) + " |")
    rng = random.Random(args.seed)
    for (near, held), lines in sorted(examples.items(), reverse=True):
        print(f"\n{'beside a picture' if near else 'no picture near'}, {'in' if held else 'not in'} the gold "
              f"({len(lines)}):")
        for line in sorted(rng.sample(lines, min(SAMPLE, len(lines)))):
            print(f"  {line[:110]}")
    return 0


def _words(text: str) -> str:
    return " " + " ".join(text.lower().split()) + " "


if __name__ == "__main__":
    sys.exit(main())
