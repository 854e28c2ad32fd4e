"""What the learned extractor loses on a language it has no stop list for.

    PYTHONPATH=benchmarks python benchmarks/studies/learned_stoplists.py    # DANIEL's five languages (~6 min)
    PYTHONPATH=benchmarks python benchmarks/studies/learned_stoplists.py --langs el ru --model lodo-daniel.zip

Two of the learned extractor's features count a paragraph's stop words: the share of its
words in the union of the shipped jusText lists (``data/stoplist_*.txt``: cs, de, el, en,
es, fr, pl, ru) and of its characters among the Chinese stop characters.  A page in a
language with no list (Italian, Japanese, Turkish…) has none of them anywhere.  To see
what that costs, a model that never saw DANIEL (trained on the four other datasets, as
in ``learned_lodo.py``) cleans each DANIEL language twice: with every list, then with
that language's list taken out, so that its pages look like those of a language we ship
no list for.  Shingle F1 on the same pages, and the difference with its paired bootstrap
95 % interval.  Languages sharing words with another list (Polish and Czech) still find
some of theirs.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import _common
from detourage.evaluation import metrics
from detourage.evaluation.evaluate import PageScorer, evaluate
from detourage.gold import Dataset, load_dataset
from detourage.learned import features, train
from detourage.methods import justext
from detourage.methods.learned import Options as LearnedOptions
from detourage.settings import Settings
from train_learned import dataset_paths, load_pages

LEFT_OUT = "daniel"


@contextlib.contextmanager
def without_stoplist(lang: str) -> Iterator[None]:
    """The features' stop words without ``lang``'s list (``zh``: no stop characters)."""
    saved = justext.LANGUAGES
    justext.LANGUAGES = tuple(code for code in saved if code != lang)
    features.text._stopwords.cache_clear()
    features.text._stop_set.cache_clear()
    try:
        yield
    finally:
        justext.LANGUAGES = saved
        features.text._stopwords.cache_clear()
        features.text._stop_set.cache_clear()


def shingles(dataset: Dataset, model: str) -> dict[str, metrics.ShingleCounts]:
    """Each page's shingle counts, cleaned by ``learned`` with ``model`` in this process
    (so that :func:`without_stoplist` applies)."""
    scorer = PageScorer(settings=Settings(options=(("learned", LearnedOptions(model=model)),)))
    run = evaluate([dataset], ["learned"], workers=1, scorer=scorer)
    return {r["id"]: metrics.ShingleCounts(r["shingle_tp"], r["shingle_fp"], r["shingle_fn"]) for r in run.pages}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--langs", nargs="+", default=["el", "en", "pl", "ru", "zh"],
                        help="DANIEL languages to clean (default: all five)")
    parser.add_argument("--model", default=None,
                        help="a model that never saw DANIEL (default: train one on the four other datasets)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.langs) - set(justext.LANGUAGES))
    if unknown:
        parser.error(f"no shipped stop list for {', '.join(unknown)} (there are: {', '.join(justext.LANGUAGES)})")
    paths = dataset_paths()
    daniel = load_dataset(next(p for p in paths if p.name == LEFT_OUT))
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        if model is None:
            t0 = time.perf_counter()
            pages = [p for p in load_pages(paths) if p.dataset != LEFT_OUT]
            model = str(Path(tmp) / "without-daniel.zip")
            train.fit(pages, meta={"name": "without-daniel"}).save(model)
            print(f"trained on {len(pages)} pages of the four other datasets in "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
        print(_common.table_head(["language", "pages", "shingle F1, every list", "without its own list",
                                  "difference [95 % interval]"], "lrrr"))
        for lang in args.langs:
            pages_of = replace(daniel, documents=tuple(d for d in daniel.documents if d.lang == lang))
            with_list = shingles(pages_of, model)
            with without_stoplist(lang):
                without = shingles(pages_of, model)
            ids = sorted(with_list.keys() & without.keys())
            a, b = [without[i] for i in ids], [with_list[i] for i in ids]
            diff, (lo, hi) = metrics.shingle_difference(a, b)
            f1 = [metrics.shingle_summary(x, n_bootstrap=0).f1 for x in (b, a)]
            print(f"| {lang} | {len(ids)} | {f1[0]:.3f} | {f1[1]:.3f} | {diff:+.3f} [{lo:+.3f}, {hi:+.3f}] |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
