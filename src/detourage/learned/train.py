"""Training the learned extractor: gold → paragraph labels → features → trees.

A dataset page is labelled by the gold aligner (:mod:`detourage.gold.align`, the one
Victor trains from); a paragraph is content when at least half of its characters are in
blocks the aligner kept.  Rows are weighted so that no source dominates: every dataset
weighs ``sqrt(pages)`` in all (DANIEL's 1 689 pages count about 5× CleanEval's 58, not
29×), every page of a dataset weighs the same, and inside a page half the weight is
spread by characters (what the token metrics count) and half evenly over paragraphs (so
short menu lines still matter).  Fitting needs scikit-learn (``pip install
".[train]"``); the fitted trees are exported to a :class:`~.forest.Forest`.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import hashlib
import math
import os
import pickle
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from .. import loading
from ..errors import MissingExtra
from ..gold import Dataset, GoldPage, align, load_dataset, split_of
from ..metadata import hostname
from ..model import Label, Page
from . import context, features
from .forest import Forest, Model

#: HistGradientBoosting settings, chosen by leave-one-dataset-out (benchmarks/learned_lodo.py)
#: and by how far held-out decisions move when the training set moves a little
#: (benchmarks/studies/learned_stability.py).  Three keys are read here, not by scikit-learn:
#: ``bags`` (N fits of ``max_iter / N`` trees on bootstraps of the pages, averaged: the
#: same number of trees to walk), ``bag_learning_rate_scale`` (their learning rate, times
#: this) and ``bins`` ("all-rows": :func:`quantize`, or "subsample": scikit-learn's own
#: binning on a random 200 000 rows).  Two training pages of the DANIEL fold dropped
#: flipped 1.00 % of its held-out paragraph decisions with one fit and scikit-learn's bins,
#: 0.83 % with all-row bins, 0.68 % with 3 bags (rate ×2), 0.63 % with 5 bags (rate
#: ×2.5); the LODO table moved by no more than a run moves by chance (mean of the 17 rows
#: 0.8356 with one fit, 0.8354 with 5 bags).  ``threshold``: the model's decision threshold
#: on the second stage's probability.  Averaged bags are less sure of pages they never saw;
#: the same LODO fold models scored again (``learned_lodo.py --reuse --threshold T``) at
#: 0.40 / 0.425 / 0.45 / 0.475 / 0.50 / 0.55 gave a mean of the rows of 0.8415 / 0.8411 /
#: 0.8403 / 0.8385 / 0.8366 / 0.8356 and met 10 / 13 / 13 / 13 / 12 / 12 rows (lower thresholds gain on the
#: wcxb-dev rows and CleanEval and lose on DANIEL, whose gold is the strictest).  0.45,
#: chosen on those runs, also helped the one-fit models of the run before (0.8358 → 0.8371).
PARAMS: dict[str, Any] = {
    "max_iter": 150, "learning_rate": 0.1, "max_leaf_nodes": 31, "min_samples_leaf": 50,
    "l2_regularization": 1.0, "max_bins": 255, "early_stopping": False, "random_state": 0,
    "bins": "all-rows", "bags": 5, "bag_learning_rate_scale": 2.5, "threshold": 0.45,
}

#: the first stage of two: fewer trees, its probabilities feed the second (:mod:`.context`)
FIRST_STAGE: dict[str, Any] = {"max_iter": 60, "learning_rate": 0.2}

#: out-of-fold splits of the first stage (pages grouped by dataset and host)
STACK_FOLDS = 3

#: share of a paragraph's characters the aligner must keep for it to be content
CONTENT_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class PageData:
    """One labelled page as the trees see it."""

    dataset: str
    id: str
    lang: str
    page_type: str
    host: str
    X: np.ndarray  # float32 (paragraphs, features)
    y: np.ndarray  # bool (paragraphs,)
    chars: np.ndarray  # int (paragraphs,)
    spans: np.ndarray  # int32 (LEVELS, 2, paragraphs): ancestor paragraph ranges
    signature: np.ndarray  # int32 (paragraphs,): structure numbers


#: a page's host without ``www.`` (the folds and stacking groups by host), "" for none
host_of = hostname


def page_data(doc: GoldPage, dataset: str, options: align.AlignOptions) -> PageData | None:
    """Label one page and compute its features; None when it cannot be labelled."""
    labelled = align.label_document(doc, options, dataset=dataset)
    if labelled.page is None or not labelled.labels:
        return None
    para = features.compute(labelled.page)
    y = in_gold(labelled.page, labelled.labels, para)
    return PageData(dataset, doc.id, doc.lang, str(doc.meta.get("page_type") or ""),
                    host_of(doc.meta.get("url")), para.X, y, para.chars, para.spans,
                    para.signature)


def in_gold(page: Page, labels: Sequence[Label], para: features.Paragraphs) -> np.ndarray:
    """bool (paragraphs,): the paragraphs the aligned gold holds, ``labels`` being the
    aligner's, one per block of ``page``: at least :data:`CONTENT_SHARE` of a
    paragraph's characters in kept blocks."""
    kept = np.fromiter((len(b.text) if label.kept else 0 for b, label in zip(page.blocks, labels)),
                       dtype=np.float64, count=len(labels))
    kept_chars = np.add.reduceat(kept, para.starts) if len(para) else np.zeros(0)
    return kept_chars / np.maximum(para.chars, 1) >= CONTENT_SHARE


def _job(args: tuple[GoldPage, str, align.AlignOptions]) -> PageData | None:
    return page_data(*args)


def collect(datasets: Iterable[str | os.PathLike[str] | Dataset], *, workers: int = 1,
            split: str | None = None, progress: Any = None,
            cache: str | os.PathLike[str] | None = None) -> list[PageData]:
    """Every labellable page of the datasets (of one half of the fixed split, if given).

    ``cache``: a file of labelled pages this function wrote (a pickle), read when it was
    written from the same labelling code, gold files and split; else the pages are
    labelled afresh (``progress(done, total)`` called as they are) and written there.
    """
    datasets = list(datasets)
    if cache is None:
        return _label(datasets, workers, split, progress)
    key = _cache_key(datasets, split)
    pages = _cached(Path(cache), key)
    if pages is None:
        pages = _label(datasets, workers, split, progress)
        _store(Path(cache), key, pages)
    return pages


def _label(datasets: Iterable[str | os.PathLike[str] | Dataset], workers: int, split: str | None,
           progress: Any) -> list[PageData]:
    jobs = []
    for ds in datasets:
        ds = ds if isinstance(ds, Dataset) else load_dataset(ds)
        options = replace(align.AlignOptions(), kinds=align.dataset_kinds(ds))
        docs = [d for d in ds.scorable if d.gold_kind == "cleaneval"
                and (split is None or split_of(ds.name, d.id) == split)]
        jobs += [(d, ds.name, options) for d in docs]
    out: list[PageData] = []
    with contextlib.ExitStack() as stack:
        if workers == 1:
            results: Iterable[PageData | None] = map(_job, jobs)
        else:
            pool = stack.enter_context(cf.ProcessPoolExecutor(workers or os.cpu_count()))
            results = pool.map(_job, jobs, chunksize=8)
        for i, item in enumerate(results):
            if item is not None and len(item.y):
                out.append(item)
            if progress is not None:
                progress(i + 1, len(jobs))
    return out


def _package_source(root: Path, skip: str = "") -> str:
    """The source of every module and compiled module's ``.pyx`` under ``root`` (but the
    folder ``skip`` directly under it), in path order (a change in any of them may change
    what is labelled)."""
    paths = sorted(p for p in root.rglob("*")
                   if p.suffix in (".py", ".pyx") and p.relative_to(root).parts[0] != skip)
    return "".join(path.read_text(encoding="utf-8") for path in paths)


def _cache_key(datasets: Sequence[str | os.PathLike[str] | Dataset], split: str | None) -> str:
    """What labelled pages depend on: the whole package's code (loading a page reaches
    decoding, parsing, revealing and segmenting; labelling reaches the gold's alignment
    and the features), the gold files (names and sizes) and the split."""
    code = _package_source(Path(loading.__file__).parent) + str(CONTENT_SHARE)
    h = hashlib.sha256(code.encode())
    for ds in datasets:
        root = ds.path if isinstance(ds, Dataset) else Path(ds)
        for gold in sorted((root / "gold").iterdir()):
            h.update(gold.name.encode() + str(gold.stat().st_size).encode())
    if split is not None:
        h.update(split.encode())
    return h.hexdigest()


def _cached(path: Path, key: str) -> list[PageData] | None:
    """The pages stored in ``path`` under ``key``; None when there are none or others."""
    if not path.is_file():
        return None
    with path.open("rb") as fh:
        stored = pickle.load(fh)
    return stored["pages"] if stored.get("key") == key else None


def _store(path: Path, key: str, pages: list[PageData]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        pickle.dump({"key": key, "pages": pages}, fh, protocol=pickle.HIGHEST_PROTOCOL)


def weights(pages: Sequence[PageData], type_balance: float = 0.0, char_share: float = 0.5) -> np.ndarray:
    """Row weights: datasets by sqrt(pages), pages equal, rows half by characters.

    Inside a page, ``char_share`` of its weight goes by characters and the rest evenly
    over its paragraphs (``--params '{"char_share": 0.75}'``: more to the long lines the
    word and character metrics count, less to the short ones; 0.5 ships).

    With ``type_balance`` b > 0 (``--params '{"type_balance": 0.5}'``), a page of a type
    that ``k`` pages of its dataset share weighs ``k ** -b`` as much, its dataset's total
    unchanged: the rarer page types of WCXB (listings, products…) count for more, the
    articles for less.  0, the shipped setting: b = 0.5 lowered every leave-one-dataset-out
    row but CleanEval and the product pages most (docs/choosing-the-default.md)."""
    per_dataset: dict[str, int] = defaultdict(int)
    per_type: dict[tuple[str, str], int] = defaultdict(int)
    for p in pages:
        per_dataset[p.dataset] += 1
        per_type[p.dataset, p.page_type] += 1
    types_weight: dict[str, float] = defaultdict(float)  # each dataset's pages, weighed by type
    for (dataset, _), k in per_type.items():
        types_weight[dataset] += k * k ** -type_balance
    parts = []
    for p in pages:
        n = per_dataset[p.dataset]
        k = per_type[p.dataset, p.page_type]
        page_weight = np.sqrt(n) / n * k ** -type_balance * n / types_weight[p.dataset]
        chars = p.chars.astype(np.float64)
        share = char_share * chars / max(chars.sum(), 1.0) + (1.0 - char_share) / len(chars)
        parts.append(page_weight * share)
    w = np.concatenate(parts)
    return w * (len(w) / w.sum())


def fit(pages: Sequence[PageData], params: dict[str, Any] | None = None, *,
        meta: dict[str, Any] | None = None, stacked: bool = True) -> Model:
    """Fit the trees on labelled pages and export them.

    ``stacked`` (the default) fits two stages: a small first forest on the paragraphs'
    own features, then the final forest on those features plus the first stage's
    out-of-fold probabilities around each paragraph (:mod:`.context`).
    """
    if not pages:
        raise ValueError("no labelled pages to train on")
    y = np.concatenate([p.y for p in pages]).astype(np.int8)
    if len(set(y.tolist())) < 2:
        raise ValueError("the training pages have a single class: nothing to learn")
    settings = {**PARAMS, **(params or {})}
    w = weights(pages, float(settings.get("type_balance", 0.0)), float(settings.get("char_share", 0.5)))
    t0 = time.perf_counter()
    X = np.concatenate([p.X for p in pages])
    folds = _stack_folds(pages, y) if stacked else None
    groups = np.repeat(_page_keys(pages), [len(p.y) for p in pages])  # each row's page
    if folds is None:  # one stage
        first, second = _fit_trees(X, y, w, settings, groups), None
    else:
        first_settings = {**settings, **FIRST_STAGE}
        q = _out_of_fold(folds, X, y, w, first_settings, groups)
        first = _fit_trees(X, y, w, first_settings, groups)
        X = np.hstack([X, np.concatenate([context.compute(q[a:b], p.spans, p.chars, p.signature)
                                          for p, a, b in _rows(pages)])])
        second = _fit_trees(X, y, w, settings, groups)
    seconds = time.perf_counter() - t0
    datasets = sorted({p.dataset for p in pages})
    provenance = {"datasets": datasets, "pages": len(pages), "rows": int(len(y)),
                  "content_share": round(float(y.mean()), 4), "params": settings,
                  "first_stage": {**FIRST_STAGE, "folds": STACK_FOLDS} if folds is not None else None,
                  "fit_seconds": round(seconds, 1)}
    if second is not None:
        provenance["context"] = list(context.names())
    threshold = float(settings.get("threshold", 0.5))
    return Model(first, features.names(), threshold, {**provenance, **(meta or {})}, second)


def _fit_trees(X: np.ndarray, y: np.ndarray, w: np.ndarray, settings: dict[str, Any],
               groups: np.ndarray) -> Forest:
    """One HistGradientBoosting fit, exported; with ``bags`` > 1 in the settings, that many
    fits of ``max_iter / bags`` trees each on a bootstrap of the pages (``groups``: each
    row's page key, :func:`_page_keys`), averaged."""
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
    except ImportError:
        raise MissingExtra('training needs scikit-learn: pip install "detourage[train]"') from None
    settings = dict(settings)
    settings.pop("threshold", None)
    settings.pop("type_balance", None)
    settings.pop("char_share", None)
    bags = int(settings.pop("bags", 1))
    lr_scale = float(settings.pop("bag_learning_rate_scale", 1.0))
    bins = settings.pop("bins", "subsample")
    if bins not in ("all-rows", "subsample"):
        raise ValueError(f"bins must be 'all-rows' or 'subsample', not {bins!r}")
    edges = None
    if bins == "all-rows":
        X, edges = quantize(X, settings["max_bins"])

    def export(model: Any) -> Forest:
        forest = Forest.from_sklearn(model)
        return forest if edges is None else in_feature_units(forest, edges)

    if bags <= 1:
        return export(HistGradientBoostingClassifier(**settings).fit(X, y, sample_weight=w))
    settings["max_iter"] = max(1, round(settings["max_iter"] / bags))
    settings["learning_rate"] = settings["learning_rate"] * lr_scale
    forests = []
    for bag in range(bags):
        drawn = _poisson_draws(groups, bag, settings.get("random_state") or 0)
        inside = drawn > 0
        model = HistGradientBoostingClassifier(**settings).fit(X[inside], y[inside],
                                                              sample_weight=(w * drawn)[inside])
        forests.append(export(model))
    return Forest.mean(forests)


def _page_keys(pages: Sequence[PageData]) -> np.ndarray:
    """A number per page from its dataset and id (uint64), so that a page's bootstrap
    draws do not depend on which other pages are in the training set."""
    return np.array([int.from_bytes(hashlib.sha256(f"{p.dataset}/{p.id}".encode()).digest()[:8], "little")
                     for p in pages], np.uint64)


def _poisson_draws(keys: np.ndarray, bag: int, seed: int) -> np.ndarray:
    """How often each row's page is drawn into bootstrap ``bag`` (Poisson with mean 1),
    a function of the page's key, the bag and the seed alone."""
    salt = (seed * 0x9E3779B97F4A7C15 + (bag + 1) * 0xBF58476D1CE4E5B9) % 2**64
    mixed = np.asarray(keys, np.uint64) ^ np.uint64(salt)
    # splitmix64's finaliser spreads the keys' bits; the top 53 bits make a uniform in [0, 1)
    with np.errstate(over="ignore"):
        mixed = (mixed ^ (mixed >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        mixed = (mixed ^ (mixed >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        mixed ^= mixed >> np.uint64(31)
    uniform = (mixed >> np.uint64(11)).astype(np.float64) / 2.0**53
    cdf = np.cumsum([math.exp(-1.0) / math.factorial(k) for k in range(20)])
    return np.searchsorted(cdf, uniform, side="right")


def quantize(X: np.ndarray, max_bins: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Every feature as the number of its bin (float32), and the bin edges (float64).

    scikit-learn bins each feature at quantiles of a random subsample of 200 000 rows
    drawn anew for every training set: two sets that differ by a page draw different
    rows, and every feature's bins move.  Here the bins come from all rows, as
    scikit-learn makes them (midpoints between the distinct values, or between
    percentiles when there are more than ``max_bins``); the trees then see at most
    ``max_bins`` values per feature, which scikit-learn bins exactly.  Bin ``k`` holds
    the values ``x`` with ``edges[k - 1] < x <= edges[k]``.  (Most of a forest's
    sensitivity to its training set is not the bins: see ``PARAMS``.)
    """
    codes = np.empty(X.shape, np.float32)
    edges = []
    for j in range(X.shape[1]):
        ordered = np.sort(X[:, j].astype(np.float64))
        distinct = ordered[np.r_[True, ordered[1:] != ordered[:-1]]]
        if len(distinct) <= max_bins:
            cuts = (distinct[:-1] + distinct[1:]) * 0.5
        else:
            cuts = np.unique(np.percentile(ordered, np.linspace(0, 100, max_bins + 1)[1:-1], method="midpoint"))
        edges.append(cuts)
        codes[:, j] = np.searchsorted(cuts, X[:, j].astype(np.float64), side="left")
    return codes, edges


def in_feature_units(forest: Forest, edges: Sequence[np.ndarray]) -> Forest:
    """A forest fitted on :func:`quantize`'s bin numbers, its thresholds turned back into
    the features' own units: a row goes left at bin ``k`` or below, that is where its
    value is at most ``edges[k]``."""
    threshold = forest.threshold.copy()
    for i in np.flatnonzero(forest.left >= 0).tolist():
        cuts = edges[forest.feature[i]]
        k = int(np.floor(threshold[i]))
        threshold[i] = cuts[k] if 0 <= k < len(cuts) else (np.inf if k >= len(cuts) else -np.inf)
    return replace(forest, threshold=threshold)


def _rows(pages: Sequence[PageData]) -> list[tuple[PageData, int, int]]:
    """Each page with its first row and one past its last in the stacked matrix."""
    ends = np.cumsum([len(p.y) for p in pages])
    return [(p, int(e - len(p.y)), int(e)) for p, e in zip(pages, ends)]


def _out_of_fold(fold: np.ndarray, X: np.ndarray, y: np.ndarray, w: np.ndarray,
                 settings: dict[str, Any], groups: np.ndarray) -> np.ndarray:
    """First-stage probabilities of every row from a forest that did not see its fold."""
    q = np.zeros(len(y))
    for k in range(STACK_FOLDS):
        inside = fold == k
        forest = _fit_trees(X[~inside], y[~inside], w[~inside], settings, groups[~inside])
        q[inside] = forest.probabilities(X[inside])
    return q


def _stack_folds(pages: Sequence[PageData], y: np.ndarray) -> np.ndarray | None:
    """The out-of-fold split of every row: pages grouped by dataset and host (by page when
    there are too few hosts); None when no split leaves both classes outside every fold
    (a handful of pages: the model is then fitted in one stage)."""
    for by_page in (False, True):
        fold = np.concatenate([np.full(len(p.y), _group_fold(p, by_page), np.int8) for p in pages])
        if all(len(set(y[fold != k].tolist())) == 2 and (fold == k).any() for k in range(STACK_FOLDS)):
            return fold
    return None


def _group_fold(page: PageData, by_page: bool = False) -> int:
    """The out-of-fold split of a page: by dataset and host (where no host is known, or
    ``by_page``, by page)."""
    key = f"{page.dataset}/{page.id if by_page or not page.host else page.host}"
    return hashlib.sha256(key.encode()).digest()[0] % STACK_FOLDS
