"""Run methods over gold datasets and score them: the engine behind ``detourage evaluate``.

    datasets × methods ─▶ PageJob … ─execute─▶ page records ─aggregate─▶ summary rows
                                                          └─ task (DANIEL) ─▶ Table 3

Each page is extracted under the same time limit and error handling as ``extract``
(a failed page is scored as an empty output: a crash is a miss, and is also counted by
reason) and scored in the worker that extracted it, so scoring runs in parallel too.
Pages whose gold cannot be read are listed, never scored.  The summary's layout is the
one :mod:`detourage.evaluation.report` renders.
"""

from __future__ import annotations

import hashlib
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import LimitExceeded
from ..gold import Dataset, GoldBlock, GoldPage, load_dataset, split_of
from ..gold.text import UNSEGMENTED_LANGS
from ..pipeline import result as page_result
from ..render import MARKERS
from ..settings import Settings
from ..supervision import SettingsBounds, attempt, execute
from . import metrics
from .metrics import Counts, Mode

Record = dict[str, Any]

#: the CleanEval modes scored, with their column prefix in page records
MODES = {Mode.TO: "to", Mode.TM: "tm_labelled", Mode.TM_UNLABELLED: "tm_unlabelled", Mode.CAR: "car"}


@dataclass(frozen=True, slots=True)
class PageJob:
    """One page of one dataset, to be cleaned by one method (or chain) and scored."""

    dataset: str
    doc: GoldPage
    method: str

    @property
    def id(self) -> str:
        return self.doc.id


@dataclass(frozen=True, slots=True, kw_only=True)
class PageScorer(SettingsBounds):
    """Extract and score one page; picklable, so process pools can run it.  The method
    is the job's (several are scored in one run); the rest of the page's road is
    ``settings``."""

    settings: Settings = field(default_factory=Settings)
    #: keep the predicted blocks in the record (needed by downstream tasks)
    keep_blocks: bool = False

    def __call__(self, job: PageJob) -> Record:
        t0 = time.perf_counter()
        blocks, reason, message = attempt(lambda: _clean(job, self.settings), self.timeout)
        ms = (time.perf_counter() - t0) * 1000
        record: Record = {"dataset": job.dataset, "id": job.doc.id, "lang": job.doc.lang,
                          "method": job.method, "ok": reason is None, "error": reason,
                          "message": message, "ms": round(ms, 3)}
        pred = blocks or []
        record.update(score_page(pred, job.doc))
        if self.keep_blocks:
            record["blocks"] = pred
        return record


def _clean(job: PageJob, settings: Settings) -> list[GoldBlock]:
    result = page_result(job.doc.read_html(settings.limits.max_bytes), settings, url=job.doc.meta.get("url"),
                         method=job.method)
    return [(MARKERS[u.kind], u.text) for u in result.text_units]


def score_page(pred: Sequence[GoldBlock], doc: GoldPage) -> Record:
    """Every metric of one page's output against its gold, as flat record fields."""
    if doc.gold_kind == "snippets":
        counts = metrics.snippet_counts(list(pred), doc.gold_snippets or {})
        return {"snippet_tp": counts.tp, "snippet_fp": counts.fp, "snippet_fn": counts.fn,
                "snippet_tn": counts.tn, "snippet_accuracy": counts.accuracy}
    gold = list(doc.gold_blocks)
    out: Record = {}
    for mode, name in MODES.items():
        c = metrics.cleaneval_scores(list(pred), gold, mode)
        out.update({f"{name}_matched": c.matched, f"{name}_pred": c.pred, f"{name}_gold": c.gold,
                    f"{name}_p": c.precision, f"{name}_r": c.recall, f"{name}_f1": c.f1})
    words = metrics.word_counts(list(pred), gold)
    out.update({"word_matched": words.matched, "word_pred": words.pred, "word_gold": words.gold,
                "word_p": words.precision, "word_r": words.recall, "word_f1": words.f1})
    shingle = metrics.shingle_counts(list(pred), gold)
    out.update({"shingle_tp": shingle.tp, "shingle_fp": shingle.fp, "shingle_fn": shingle.fn,
                "shingle_p": shingle.precision, "shingle_r": shingle.recall})
    cos = metrics.cosine_page(list(pred), gold, unit="chars" if _unsegmented(doc.lang) else "words")
    out.update({"cos": cos.cos, "cos_equal": cos.equal, "cos_pred_in_gold": cos.pred_in_gold,
                "cos_gold_in_pred": cos.gold_in_pred})
    return out


def _unsegmented(lang: str) -> bool:
    """Languages written without spaces between words: cosine over characters (seed 002 §4.1)."""
    return lang.split("-")[0] in UNSEGMENTED_LANGS


# --------------------------------------------------------------------------- running


@dataclass(slots=True)
class Evaluation:
    """The outcome of an evaluation run: page records, summary rows, task tables."""

    datasets: list[Dataset]
    methods: list[str]
    pages: list[Record] = field(default_factory=list)
    seconds: float = 0.0
    #: the half of the fixed split scored (None: every page)
    split: str | None = None
    #: what a reader must know to trust the figures: :func:`training_notes`
    notes: list[str] = field(default_factory=list)
    #: ``--sample N``: N pages of each dataset (None: every page)
    sample: int | None = None

    def summary(self, *, command: str = "", bootstrap: int = 1000) -> dict[str, Any]:
        return {
            "command": command,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "version": _version(),
            "seconds": round(self.seconds, 1),
            "split": self.split,
            "sample": self.sample,
            "notes": self.notes,
            "datasets": [dataset_info(d) for d in self.datasets],
            "methods": self.methods,
            "rows": summary_rows(self.pages, bootstrap=bootstrap),
            "task": None,
        }


def evaluate(
    datasets: Iterable[str | Path | Dataset],
    methods: Sequence[str],
    *,
    workers: int = 1,
    sample: int | None = None,
    scorer: PageScorer = PageScorer(),
    progress: Any = None,
    split: str | None = None,
) -> Evaluation:
    """Clean every scorable page of every dataset with every method, and score it
    (``split``: only the pages of one half of :func:`gold.split_of`)."""
    loaded = [d if isinstance(d, Dataset) else load_dataset(d) for d in datasets]
    jobs = list(page_jobs(loaded, methods, sample, split))
    notes = training_notes(jobs, dict(scorer.settings.options))
    t0 = time.perf_counter()
    pages = []
    for record in execute(jobs, scorer, workers):
        pages.append(record)
        if progress is not None:
            progress(record)
    return Evaluation(loaded, list(methods), pages, time.perf_counter() - t0, split, notes, sample)


def page_jobs(datasets: Sequence[Dataset], methods: Sequence[str], sample: int | None,
              split: str | None = None) -> Iterator[PageJob]:
    """Jobs for the scorable pages (of one split, if given; then ``sample`` pages of each
    dataset, if given: :func:`sampled`)."""
    for dataset in datasets:
        docs: Sequence[GoldPage] = dataset.scorable
        if split is not None:
            docs = [d for d in docs if split_of(dataset.name, d.id) == split]
        docs = sampled(dataset.name, docs, sample) if sample else docs
        for method in methods:
            for doc in docs:
                yield PageJob(dataset.name, doc, method)


def sampled(dataset: str, docs: Sequence[GoldPage], n: int) -> list[GoldPage]:
    """``n`` of a dataset's pages, spread over its languages (in turn, each language's
    pages in the order of sha256("<dataset>/<id>"), so the draw is fixed and not the
    first pages by name), returned in the dataset's order."""
    by_lang: dict[str, list[GoldPage]] = defaultdict(list)
    for doc in sorted(docs, key=lambda d: hashlib.sha256(f"{dataset}/{d.id}".encode()).digest()):
        by_lang[doc.lang].append(doc)
    queues = [by_lang[lang] for lang in sorted(by_lang)]
    chosen: set[str] = set()
    while len(chosen) < min(n, len(docs)):
        for queue in queues:
            if queue and len(chosen) < n:
                chosen.add(queue.pop(0).id)
    return [d for d in docs if d.id in chosen]


def training_notes(jobs: Sequence[PageJob], options: Mapping[str, Any]) -> list[str]:
    """A sentence per method that is scored on pages its shipped model was trained on
    (a model given with ``--model`` is the user's: nothing is known of it)."""
    from .. import methods as registry

    notes = []
    for method in dict.fromkeys(job.method for job in jobs):
        scored = [job for job in jobs if job.method == method]
        for step in registry.chain(method):
            given = options.get(step.name)
            if "model" not in getattr(step.options, "__dataclass_fields__", {}) or getattr(given, "model", None):
                continue
            trained, every_page = _shipped_training(step)
            seen = sum(trained(job.dataset, job.doc.id) for job in scored)
            if seen:
                notes.append(_training_note(method, step.name, seen, len(scored), every_page))
    return notes


def _training_note(method: str, step: str, seen: int, scored: int, every_page: bool) -> str:
    whose = f"{method}'s" if method == step else f"{method}: {step}'s"
    if every_page:
        return (f"{whose} shipped model was trained on every page of the datasets it was built from: "
                f"{seen} of the {scored} pages scored here are training pages, so these figures flatter "
                "it; its honest figures are leave-one-dataset-out (benchmarks/learned_lodo.py).")
    return (f"{whose} shipped model was trained on {seen} of the {scored} pages scored (the 'train' "
            "half of the split); score it on --split held-out for honest figures.")


def _shipped_training(step: Any) -> tuple[Callable[[str, str], bool], bool]:
    """A predicate (dataset, id) → whether the step's shipped model was trained on that
    page, read from the model's provenance, and whether it took every page of its datasets."""
    import importlib

    module = importlib.import_module(step.options.__module__)
    options = step.options(**dict(step.defaults))
    if hasattr(options, "nonlexical"):  # NCleaner: the provenance lists the ids per dataset/lang
        provenance = module.load_model(None, options.nonlexical).provenance
        ids = {(key.split("/")[0], i) for key, values in provenance.get("ids", {}).items() for i in values}
        return (lambda dataset, doc_id: (dataset, doc_id) in ids), False
    meta = module.load_model(None).meta
    if "names" in meta:  # Victor: every training page as dataset/id
        names = set(meta["names"])
        return (lambda dataset, doc_id: f"{dataset}/{doc_id}" in names), False
    datasets = set(meta.get("datasets", ()))  # learned: every page of its datasets
    return (lambda dataset, doc_id: dataset in datasets), True


def dataset_info(dataset: Dataset) -> dict[str, Any]:
    """Name, size, languages, digest and gold problems of a dataset."""
    return {"name": dataset.name, "path": str(dataset.path), "pages": len(dataset),
            "languages": dict(sorted(Counter(d.lang for d in dataset).items())),
            "digest": digest(dataset.documents), "gold_problems": [list(p) for p in dataset.problems]}


def digest(documents: Iterable[GoldPage]) -> str:
    """SHA-256 over the ids, HTML bytes and gold files of documents: what was scored."""
    h = hashlib.sha256()
    for doc in documents:
        try:
            html = doc.read_html()
        except LimitExceeded:  # scored as limit:bytes; hashed as stored (a gzip bomb stays packed)
            html = doc.html_path.read_bytes()
        h.update(doc.id.encode() + b"\0" + html + b"\0")
        if doc.gold_path is not None:
            h.update(doc.gold_path.read_bytes())
    return h.hexdigest()[:16]


def _version() -> str:
    from ..version import __version__

    return __version__


# ----------------------------------------------------------------------- aggregation


def summary_rows(pages: Sequence[Record], *, bootstrap: int = 1000) -> list[Record]:
    """One row per (method, dataset, lang), with ``"all"`` pooling datasets or languages."""
    groups: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for page in pages:
        for dataset in (page["dataset"], "all"):
            for lang in (page["lang"], "all"):
                groups[page["method"], dataset, lang].append(page)
    return [row(method, dataset, lang, group, bootstrap=bootstrap)
            for (method, dataset, lang), group in sorted(groups.items(), key=_row_order)]


def _row_order(item: tuple[tuple[str, str, str], list[Record]]) -> tuple[str, bool, str, bool, str]:
    method, dataset, lang = item[0]
    return method, dataset != "all", dataset, lang != "all", lang


def row(method: str, dataset: str, lang: str, pages: Sequence[Record], *, bootstrap: int = 1000) -> Record:
    """The aggregated scores of a group of page records."""
    scored = [p for p in pages if "to_matched" in p]
    snippets = [p for p in pages if "snippet_tp" in p]
    # pages scored against their gold: text gold, or snippets (a snippet-only set is scored too)
    out: Record = {"method": method, "dataset": dataset, "lang": lang, "pages": len(pages),
                   "scored": len(scored) + len(snippets),
                   "failed": dict(Counter(p["error"] for p in pages if not p["ok"]).most_common())}
    for name in MODES.values():
        out[name] = _averages(scored, name)
    # WCXB's word F1 (records written before it have no word counts)
    out["word"] = _averages([p for p in scored if "word_matched" in p], "word")
    out["shingle"] = _shingles(scored, bootstrap) if scored else None
    out["cosine"] = _cosines(scored) if scored else None
    out["snippets"] = _snippets(snippets)
    ms = sorted(p["ms"] for p in pages)
    out["ms"] = {"median": statistics.median(ms), "p95": _percentile(ms, 0.95)} if ms else None
    return out


def _averages(pages: Sequence[Record], name: str) -> Record | None:
    """Micro (pooled counts) and macro (mean of page scores) P/R/F1."""
    if not pages:
        return None
    s = metrics.summarize(Counts(p[f"{name}_matched"], p[f"{name}_pred"], p[f"{name}_gold"])
                          for p in pages)
    return {"micro": {"p": s.micro.precision, "r": s.micro.recall, "f1": s.micro.f1},
            "macro": {"p": s.macro.precision, "r": s.macro.recall, "f1": s.macro.f1}}


def _shingles(pages: Sequence[Record], bootstrap: int) -> Record:
    counts = [metrics.ShingleCounts(p["shingle_tp"], p["shingle_fp"], p["shingle_fn"]) for p in pages]
    s = metrics.shingle_summary(counts, n_bootstrap=bootstrap)
    return {"p": s.precision, "r": s.recall, "f1": s.f1,
            "f1_low": s.f1_interval[0], "f1_high": s.f1_interval[1]}


def _cosines(pages: Sequence[Record]) -> Record:
    s = metrics.cosine_summary([
        metrics.CosinePage(p["cos"], p["cos_equal"], p["cos_pred_in_gold"], p["cos_gold_in_pred"])
        for p in pages])
    return {"exactitude": s.exactitude, "mean": s.mean_cos, "equal": s.share(s.equal),
            "pred_in_gold": s.share(s.pred_in_gold), "gold_in_pred": s.share(s.gold_in_pred)}


def _snippets(pages: Sequence[Record]) -> Record | None:
    if not pages:
        return None
    c = sum((metrics.SnippetCounts(p["snippet_tp"], p["snippet_fp"], p["snippet_fn"], p["snippet_tn"])
             for p in pages), metrics.SnippetCounts(0, 0, 0, 0))
    return {"p": c.precision, "r": c.recall, "f1": c.f1, "accuracy": c.accuracy}


def _percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of sorted values."""
    return values[min(len(values) - 1, max(0, round(q * len(values)) - 1))]


def headline(summary: Mapping[str, Any]) -> list[Record]:
    """The pooled rows (every dataset, every language), one per method."""
    return [r for r in summary["rows"] if r["dataset"] == "all" and r["lang"] == "all"]


# ------------------------------------------------------------------ downstream tasks


def task_table(evaluation: Evaluation, name: str, resources: str | Path) -> Record | None:
    """Seed 002 Table 3: the task's scores on each method's output and on the gold
    ("Référence"), per language and overall, for the datasets that carry its labels."""
    from .daniel import SEED_REFERENCE
    from .downstream import TaskDocument, read_labels, score_relevance
    from .tasks import get_task

    task = get_task(name, lexicon_dir=resources)
    labelled = [d for d in evaluation.datasets if _has_task_labels(d)]
    if not labelled:
        return None
    labels = {}
    for dataset in labelled:
        labels.update(read_labels(dataset.path / "meta.jsonl"))
    names = {d.name for d in labelled}
    evaluated = {page["id"] for page in evaluation.pages if page["dataset"] in names}
    sources: dict[str, list[TaskDocument]] = {"Référence": [
        TaskDocument(doc.id, doc.lang, doc.gold_blocks, doc.meta)
        for d in labelled for doc in d.scorable if doc.id in evaluated]}
    for page in evaluation.pages:
        if page["dataset"] in names:
            blocks = tuple(tuple(b) for b in page.get("blocks", ()))
            sources.setdefault(page["method"], []).append(
                TaskDocument(page["id"], page["lang"], blocks))
    rows = []
    for source, docs in sources.items():
        wanted = {doc.id for doc in docs}
        scores = score_relevance(name, map(task.predict, docs),
                                 {i: label for i, label in labels.items() if i in wanted})
        for lang, s in [*scores.per_lang.items(), ("all", scores.overall)]:
            rows.append({"method": source, "lang": lang, "p": s.precision, "r": s.recall,
                         "f1": s.f1, "tp": s.tp, "fp": s.fp, "fn": s.fn})
    seed = {lang: dict(zip(("p", "r", "f1"), figures)) for lang, figures in SEED_REFERENCE.items()}
    return {"name": name, "rows": rows, "seed": seed if name == "daniel" else None}


def _has_task_labels(dataset: Dataset) -> bool:
    return any("event_relevant" in doc.meta for doc in dataset.documents[:5])
