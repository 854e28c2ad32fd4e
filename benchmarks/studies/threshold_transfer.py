"""Whether the threshold a page wants can be told from what the model says of it: a
per-page threshold shift learned on some datasets, judged on another.

    PYTHONPATH=benchmarks python benchmarks/studies/threshold_transfer.py --models DIR --cache F   # ~15 min on 2 cores
    PYTHONPATH=benchmarks python benchmarks/studies/threshold_transfer.py --models DIR --cache F --margin 0.02
    PYTHONPATH=benchmarks python benchmarks/studies/threshold_transfer.py --models DIR --cache F \\
        --kinds collection,listing,service,product,documentation

``DIR`` holds the fold models ``learned_lodo.py --models DIR`` fits.  Every scorable page
of the leave-one-dataset-out datasets is cleaned by the model of its fold (one that never
saw its dataset, or for wcxb-dev its host), the whole pipeline, at each threshold shift
(every kind's threshold moved by the same amount), and scored by shingle F1; its profile
is read at the shipped threshold: the kind it is taken for, the share of its characters
by the distance of their line's probability to the threshold (all lines, and the lines
that are no list of links), the doubted/kept ratio :mod:`detourage.learned.rules.doubt`
reads, its counts of lines and characters.  ``--cache F`` keeps these (a later run with
the same ``F`` only fits).

Then each fold in turn is left out: gradient-boosted regressors (scikit-learn, one per
shift), fitted on the pages of the other folds, predict the F1 each shift gains on its
pages, and a page gets the shift of the best prediction when that is above ``--margin``.
Reported per LODO row: the mean page F1 at the shipped threshold, at each fixed shift,
with the predicted shifts, and with each page's best (the most any per-page threshold
could give).  With ``--kinds``, only the pages taken for those kinds get a shift, learned
on wcxb-dev's pages alone (the other datasets are news and reference pages).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from detourage import loading
from detourage.evaluation.evaluate import MARKERS, score_page
from detourage.gold import GoldPage, load_dataset
from detourage.learned import features, pagetype
from detourage.learned.forest import Model, load_model
from detourage.learned.rules import doubt
from detourage.learned.rules.paragraphs import OPTION_CODE, column
from detourage.methods.learned import Options
from detourage.pipeline import result as page_result
from detourage.settings import Settings
from learned_lodo import fold_of
from train_learned import dataset_paths

SHIFTS = (-0.3, -0.2, -0.1, -0.05, 0.0, 0.05, 0.1)
#: the distances of a line's probability to the threshold the profile counts characters by
EDGES = np.array([-1.0, -0.3, -0.2, -0.1, -0.05, 0.0, 0.05, 0.1, 0.2, 0.3, 1.01])

_models: dict[str, Model] = {}
_folder: Path


def profile(page_url: str | None, raw: bytes, model: Model) -> np.ndarray | None:
    """What the model says of a page at the shipped threshold, as one row of numbers."""
    para = features.compute(loading.load(raw, url=page_url))
    if not len(para):
        return None
    kind, _ = pagetype.guess(page_url, para)
    probability = model.probabilities(para)
    threshold = model.threshold + pagetype.THRESHOLD_SHIFT[kind]
    chars = para.chars.astype(float)
    total = max(chars.sum(), 1.0)
    distance = probability - threshold
    plain = column(para, "link_density") < 0.5
    doubted, kept = doubt.doubted_chars(para, probability, threshold, column(para, "container_tag") != OPTION_CODE)
    return np.array([*(float(kind == k) for k in pagetype.TYPES),
                     *np.histogram(distance, EDGES, weights=chars)[0] / total,
                     *np.histogram(distance[plain], EDGES, weights=chars[plain])[0] / total,
                     np.log1p(total), np.log1p(len(para)), min(doubted / max(kept, 1), 10.0), np.log1p(kept),
                     threshold])


def page(job: tuple[str, GoldPage, str]) -> tuple[str, str, str, str, np.ndarray, list[float]] | None:
    """One page: its dataset, id, fold, kind, profile and shingle F1 at each shift."""
    dataset, doc, fold = job
    if fold not in _models:
        _models[fold] = load_model(str(_folder / f"{fold}.zip"))
    model = _models[fold]
    settings = Settings(options=(("learned", Options(model=model)),))
    raw = doc.read_html(settings.limits.max_bytes)
    url = doc.meta.get("url")
    row = profile(url, raw, model)
    if row is None:
        return None
    kind = pagetype.TYPES[int(np.argmax(row[:len(pagetype.TYPES)]))]
    base = dict(pagetype.THRESHOLD_SHIFT)
    scores = []
    try:
        for shift in SHIFTS:
            pagetype.THRESHOLD_SHIFT.update({k: v + shift for k, v in base.items()})
            result = page_result(raw, settings, url=url, method="learned")
            record = score_page([(MARKERS[u.kind], u.text) for u in result.text_units], doc)
            tp, fp, fn = record["shingle_tp"], record["shingle_fp"], record["shingle_fn"]
            p = tp / (tp + fp) if tp + fp else float(not fn)
            r = tp / (tp + fn) if tp + fn else 1.0
            scores.append(2 * p * r / (p + r) if p + r else 0.0)
    finally:
        pagetype.THRESHOLD_SHIFT.update(base)
    return dataset, doc.id, fold, kind, row, scores


def _init(folder: Path) -> None:
    global _folder
    _folder = folder


def clean_all(folder: Path, workers: int) -> list[tuple]:
    jobs = [(path.name, doc, fold_of(path.name, doc)) for path in dataset_paths()
            for doc in load_dataset(path).scorable]
    jobs.sort(key=lambda job: job[2])  # a worker loads few models
    with ProcessPoolExecutor(workers, initializer=_init, initargs=(folder,)) as pool:
        return [r for r in pool.map(page, jobs, chunksize=16) if r is not None]


def chosen_shifts(pages: list[tuple], margin: float, kinds: set[str] | None) -> np.ndarray:
    """Each page's shift (an index into :data:`SHIFTS`), predicted by regressors fitted
    on the other folds' pages (with ``kinds``: wcxb-dev's pages of those kinds only)."""
    from sklearn.ensemble import HistGradientBoostingRegressor

    X = np.array([p[4] for p in pages])
    F = np.array([p[5] for p in pages])
    zero = SHIFTS.index(0.0)
    gain = F - F[:, [zero]]
    folds = np.array([p[2] for p in pages])
    eligible = np.array([kinds is None or p[3] in kinds for p in pages])
    learn_from = eligible & (np.array([p[0] == "wcxb-dev" for p in pages]) if kinds else True)
    choice = np.full(len(pages), zero)
    for fold in sorted(set(folds)):
        scored = (folds == fold) & eligible
        fitted = (folds != fold) & learn_from
        if not scored.any():
            continue
        predicted = np.zeros((int(scored.sum()), len(SHIFTS)))
        for j in range(len(SHIFTS)):
            if j != zero:
                regressor = HistGradientBoostingRegressor(max_iter=150, learning_rate=0.05, max_depth=3,
                                                          min_samples_leaf=30, l2_regularization=1.0, random_state=0)
                predicted[:, j] = regressor.fit(X[fitted], gain[fitted, j]).predict(X[scored])
        choice[scored] = np.where(predicted.max(axis=1) > margin, predicted.argmax(axis=1), zero)
    return choice


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=Path, required=True, help="the fold models of learned_lodo.py --models")
    parser.add_argument("--cache", type=Path, help="keep the cleaned pages here, or read them from here")
    parser.add_argument("--margin", type=float, default=0.0, help="the least predicted gain that moves a page")
    parser.add_argument("--kinds", type=lambda s: set(s.split(",")), help="shift only pages taken for these kinds")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    if args.cache and args.cache.is_file():
        pages = pickle.loads(args.cache.read_bytes())
    else:
        pages = clean_all(args.models, args.workers)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(pages))
    choice = chosen_shifts(pages, args.margin, args.kinds)
    F = np.array([p[5] for p in pages])
    rows: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(pages):
        rows[p[0]].append(i)
    zero = SHIFTS.index(0.0)
    print("| row | pages | " + " | ".join(f"{s:+.2f}" for s in SHIFTS)
          + " | predicted shift | moved | each page's best |")
    print("|---|---:|" + "---:|" * (len(SHIFTS) + 3))
    for name, members in sorted(rows.items()):
        at = np.array(members)
        fixed = " | ".join(f"{F[at, j].mean():.4f}" for j in range(len(SHIFTS)))
        predicted = F[at, choice[at]].mean()
        print(f"| {name} | {len(at)} | {fixed} | {predicted:.4f} ({predicted - F[at, zero].mean():+.4f}) | "
              f"{int((choice[at] != zero).sum())} | {F[at].max(axis=1).mean():.4f} |")
    print(f"\nmean page shingle F1; shifts predicted with margin {args.margin}"
          + (f", for the kinds {', '.join(sorted(args.kinds))} (learned on wcxb-dev)" if args.kinds else "")
          + f"; {len(pages)} pages in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
