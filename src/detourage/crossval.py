"""k-fold cross-validation of Victor, and feature ablations (seed 003 §5–6, Table 6.1).

Pages are dealt into ``k`` folds after a seeded shuffle, dataset by dataset (so every
fold holds a share of every dataset); each fold is tagged by a model trained on the
other ``k − 1``.  Every page is therefore scored exactly once, by a model that never saw
it.  Measures (seed 003 §5):

1. labelling accuracy on the full label set (header / paragraph / list / continuation /
   other) against the labels of the training data (hand ``.anno`` files or the
   automatic labeller of :mod:`.align`);
2. the same, content vs noise only;
3. cleaning performance against the page's gold text: CleanEval TO (text only) and TM
   (text + labelled markup), P / R / F1, micro (summed over pages) and macro (mean of
   page F1, the CleanEval convention).

With a **base** model (``crossval victor PAGES --base default``) the two settings are
``base`` (the base model as it is) and ``base+pages`` (the base retrained on its own
training pages plus the other folds, :func:`detourage.victor.crf.train_more`): whether your pages make
the shipped model better on pages like them, before you ship the result.

Folds run in worker processes (fork): each trains a CRF, which is the cost.

It sits above Victor and the evaluation (it trains the one and scores with the other), so
that neither imports the other.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from .evaluation import metrics
from .model import Label
from .render import MARKERS, units
from .victor.config import ABLATIONS, Config
from .victor.crf import CRFModel, Example, train, train_more
from .victor.training import Sample


@dataclass(frozen=True, slots=True)
class FoldOutcome:
    """One held-out page under one setting."""

    setting: str
    name: str
    dataset: str
    lang: str
    fold: int
    blocks: int
    correct: int
    correct_content_noise: int
    #: (matched, predicted, gold) token counts for TO and TM
    to: tuple[int, int, int]
    tm: tuple[int, int, int]


def assign_folds(samples: Sequence[Sample], k: int, seed: int = 0) -> list[int]:
    """Fold of each sample: per dataset, a seeded shuffle dealt round-robin."""
    by_dataset: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(samples):
        by_dataset[s.dataset].append(i)
    rng = random.Random(seed)
    fold = [0] * len(samples)
    offset = 0
    for name in sorted(by_dataset):
        idx = sorted(by_dataset[name], key=lambda i: samples[i].name)
        rng.shuffle(idx)
        for j, i in enumerate(idx):
            fold[i] = (j + offset) % k
        offset += len(idx)
    return fold


# state shared with forked workers (set before the pool starts)
_STATE: dict[str, Any] = {}


#: the settings of a cross-validation with a base model
BASE_SETTINGS = ("base", "base+pages")


def crossval(samples: Sequence[Sample], config: Config, *, folds: int = 6, seed: int = 0,
             settings: Sequence[str] = ("none",), workers: int = 1,
             train_options: dict[str, Any] | None = None, base: CRFModel | None = None,
             progress: Callable[[str], None] | None = None) -> list[FoldOutcome]:
    """Every page scored once per setting (an ablation name of :data:`ABLATIONS`, or
    ``without:feature,feature``) by a model trained on the other folds; with ``base``, by
    the base model and by the base retrained with the other folds (:data:`BASE_SETTINGS`).

    ``progress`` is called with one line after each fold of each setting ("fold 2/6 of
    base+pages: 41 pages in 83.2 s; 3 of 12 runs done")."""
    if folds < 2 or folds > len(samples):
        raise ValueError(f"need 2 ≤ folds ≤ pages, got folds={folds} for {len(samples)} pages")
    fold_of = assign_folds(samples, folds, seed)
    _STATE.update(samples=samples, fold_of=fold_of, train_options=train_options or {}, base=base)
    if base is not None:
        jobs = [(base.config, s, f) for s in BASE_SETTINGS for f in range(folds)]
    else:
        jobs = [(setting_config(config, s), s, f) for s in settings for f in range(folds)]
    results: dict[int, list[FoldOutcome]] = {}

    def done(index: int, outcomes: list[FoldOutcome], seconds: float) -> None:
        results[index] = outcomes
        if progress is not None:
            progress(f"fold {jobs[index][2] + 1}/{folds} of {jobs[index][1]}: {len(outcomes)} pages in "
                     f"{seconds:.1f} s; {len(results)} of {len(jobs)} runs done")

    if workers <= 1:
        for index, job in enumerate(jobs):
            done(index, *_run_fold(*job))
    else:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = {pool.submit(_run_fold, *job): index for index, job in enumerate(jobs)}
            for future in as_completed(futures):
                done(futures[future], *future.result())
    return [o for index in range(len(jobs)) for o in results[index]]


def setting_config(config: Config, setting: str) -> Config:
    """The configuration of a named ablation (or ``without:f1,f2``)."""
    if setting.startswith("without:"):
        return config.without(*setting[len("without:"):].split(","))
    parts = setting.split("+")
    unknown = [p for p in parts if p not in ABLATIONS]
    if unknown:
        raise ValueError(f"unknown ablation {unknown[0]!r} (known: {', '.join(ABLATIONS)}, without:F,…)")
    off = [f for p in parts for f in (config.get("crf-extra") if p == "seed" else ABLATIONS[p])]
    return config.without(*off)


def _run_fold(config: Config, setting: str, fold: int) -> tuple[list[FoldOutcome], float]:
    """The outcomes of one fold under one setting, and the seconds it took."""
    start = time.perf_counter()
    samples: Sequence[Sample] = _STATE["samples"]
    fold_of: list[int] = _STATE["fold_of"]
    examples = (Example(s.blocks, s.labels, s.name) for s, f in zip(samples, fold_of) if f != fold)
    base: CRFModel | None = _STATE["base"]
    if base is None:
        model = train(examples, config, **_STATE["train_options"])
    else:
        model = base if setting == "base" else train_more(base, examples)
    return ([score(setting, fold, s, model.tag(s.blocks)) for s, f in zip(samples, fold_of) if f == fold],
            time.perf_counter() - start)


def score(setting: str, fold: int, sample: Sample, predicted: Sequence[Label]) -> FoldOutcome:
    """Labelling accuracy and cleaning counts of one page."""
    correct = sum(p is g for p, g in zip(predicted, sample.labels))
    cn = sum(p.kept == g.kept for p, g in zip(predicted, sample.labels))
    pred = [(MARKERS[u.kind], u.text) for u in units(sample.blocks, predicted) if u.text]
    gold = list(sample.gold)
    to = metrics.cleaneval_scores(pred, gold, metrics.Mode.TO)
    tm = metrics.cleaneval_scores(pred, gold, metrics.Mode.TM)
    return FoldOutcome(setting, sample.name, sample.dataset, sample.lang, fold, len(sample.blocks),
                   correct, cn, (to.matched, to.pred, to.gold), (tm.matched, tm.pred, tm.gold))


# --------------------------------------------------------------------------- tables


def table(outcomes: Iterable[FoldOutcome], by: Sequence[str] = ("setting", "dataset")) -> list[dict[str, Any]]:
    """Rows of accuracy and cleaning scores grouped by ``by`` (FoldOutcome fields)."""
    groups: dict[tuple, list[FoldOutcome]] = defaultdict(list)
    for o in outcomes:
        groups[tuple(getattr(o, f) for f in by)].append(o)
    return [{**dict(zip(by, key)), **_row(items)} for key, items in sorted(groups.items())]


def _row(items: list[FoldOutcome]) -> dict[str, Any]:
    blocks = sum(o.blocks for o in items) or 1
    row: dict[str, Any] = {"pages": len(items), "blocks": blocks,
                           "acc_full": 100 * sum(o.correct for o in items) / blocks,
                           "acc_content_noise": 100 * sum(o.correct_content_noise for o in items) / blocks}
    for name in ("to", "tm"):
        pages = [metrics.Counts(*getattr(o, name)) for o in items]
        total = sum(pages, metrics.Counts(0, 0, 0))
        row[f"{name}_p"], row[f"{name}_r"] = 100 * total.precision, 100 * total.recall
        row[f"{name}_f1"] = 100 * total.f1
        row[f"{name}_f1_macro"] = 100 * sum(c.f1 for c in pages) / len(pages)
    return row


COLUMNS = (("pages", "pages", "{:d}"), ("acc_full", "acc full", "{:.2f}"),
           ("acc_content_noise", "acc c/n", "{:.2f}"), ("to_f1", "TO F1", "{:.2f}"),
           ("to_f1_macro", "TO F1 macro", "{:.2f}"), ("tm_f1", "TM F1", "{:.2f}"),
           ("tm_f1_macro", "TM F1 macro", "{:.2f}"))


def markdown(rows: Sequence[dict[str, Any]], by: Sequence[str]) -> str:
    """A Markdown table of :func:`table` rows."""
    head = [*by, *(title for _, title, _ in COLUMNS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [str(row[f]) for f in by] + [fmt.format(row[key]) for key, _, fmt in COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
