"""Leave-one-dataset-out: the learned extractor on datasets it never saw, beside the peers.

    python benchmarks/learned_lodo.py                  # full run (~45 min on 2 cores)
    python benchmarks/learned_lodo.py --flat           # the same with one-stage models
    python benchmarks/learned_lodo.py --quick --fold daniel   # paragraph-level proxy, one fold
    python benchmarks/learned_lodo.py --models build/folds  # also keep each fold's model
    python benchmarks/learned_lodo.py --models build/folds --reuse  # score with them again, no fitting
    python benchmarks/learned_lodo.py --models build/folds --reuse --threshold 0.45  # at another threshold
    python benchmarks/learned_lodo.py --compare a.json b.json  # two --json runs side by side
    python benchmarks/learned_lodo.py --compare a.json b.json --moved 0  # and every page that changed
    python benchmarks/learned_lodo.py --models build/folds --reuse --without keep_figures  # a step's cost
    python benchmarks/learned_lodo.py --models build/folds --reuse --no-urls  # pages cleaned from their HTML alone
    python benchmarks/learned_lodo.py --models build/folds --page wcxb-dev:dev-4900  # one held-out page, line by line

For each of cleaneval-en-dev, cleanportaleval, daniel, l3s-gn1 and wcxb-dev, a model is
trained on the four others (:func:`detourage.learned.train.fit`, the shipped settings)
and ``learned`` is run with it, through the whole pipeline, on every page of the one
left out.  Inside wcxb-dev the pages are also split into five folds grouped by host; a
model trained on the other datasets plus the other four folds cleans each fold (closer
to the shipped model, which has seen wcxb-dev but none of these hosts).  ``boilerpipe``,
``peer-trafilatura`` and ``peer-readability`` clean the same pages in the same run (their
records are cached in ``build/learned/peers.jsonl``, for the code and pages that wrote
them; ``--no-peer-cache`` reruns them).

Reported per dataset, per DANIEL language and per wcxb-dev page type: shingle F1 (the
public benchmarks' convention, P and R averaged over pages), TO F1 (CleanEval text-only,
micro) and, for Chinese, CAR F1 — and the issue's bar: shingle F1 ≥ the better peer +
0.01 and ≥ boilerpipe; then the same rows in WCXB's word F1 (the mean of the pages'
bag-of-words F1, the figure WCXB publishes), beside trafilatura.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import importlib.metadata
import json
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

import _common
import detourage
from detourage.evaluation import metrics
from detourage.evaluation.evaluate import PageScorer, evaluate
from detourage.gold import Dataset, GoldPage, align, load_dataset
from detourage.learned import features, train
from detourage.learned.forest import Model
from detourage.methods import learned
from detourage.methods.learned import Options as LearnedOptions
from detourage.model import Label
from detourage.settings import Settings
from train_learned import CACHE, dataset_paths, load_pages

PEERS = ("boilerpipe", "peer-trafilatura", "peer-readability")
#: the issue's bar: learned at least this much above the better of trafilatura and Readability
MARGIN = 0.01
PEER_CACHE = CACHE.parent / "peers.jsonl"
HOST_FOLDS = 5


def host_fold(host: str, k: int = HOST_FOLDS) -> int:
    return hashlib.sha256(host.encode()).digest()[0] % k


# --------------------------------------------------------------------- folds


def folds(pages: Sequence[train.PageData], names: Sequence[str]) -> list[tuple[str, list, set]]:
    """(fold name, training pages, ids of the pages it scores): one per dataset left out,
    then the host folds of wcxb-dev."""
    out = []
    for name in names:
        out.append((name, [p for p in pages if p.dataset != name],
                    {(name, p.id) for p in pages if p.dataset == name}))
    if "wcxb-dev" in names:
        for k in range(HOST_FOLDS):
            inside = [p for p in pages if p.dataset == "wcxb-dev" and host_fold(p.host) == k]
            ids = {(p.dataset, p.id) for p in inside}
            out.append((f"wcxb-dev/hosts{k}", [p for p in pages if (p.dataset, p.id) not in ids], ids))
    return out


def held_out(dataset: Dataset, fold: str) -> tuple[GoldPage, ...]:
    """The pages a fold's model is scored on: every scorable page of the dataset left out
    (or of the host fold), the pages the peers are scored on too, whether or not the
    aligner could label them for training."""
    if "/hosts" not in fold:
        return dataset.scorable
    k = int(fold.rsplit("hosts", 1)[1])
    return tuple(d for d in dataset.scorable if host_fold(train.host_of(d.meta.get("url"))) == k)


def without_urls(documents: Sequence[GoldPage]) -> tuple[GoldPage, ...]:
    """The pages as a harness that passes the HTML alone cleans them: their metadata but
    the URL (which a host fold is chosen by first, :func:`held_out`)."""
    return tuple(replace(d, meta={k: v for k, v in d.meta.items() if k != "url"}) for d in documents)


def char_scores(keep: np.ndarray, y: np.ndarray, chars: np.ndarray) -> tuple[float, float, float]:
    """Character P, R and F1 of the kept paragraphs against the aligned gold of one page."""
    tp, pred, gold = (float(chars[m].sum()) for m in (keep & y, keep, y))
    p = tp / pred if pred else float(not gold)
    r = tp / gold if gold else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def quick(pages: Sequence[train.PageData], names: Sequence[str], params: dict, *, workers: int,
          stacked: bool, only: Sequence[str]) -> None:
    """Paragraph-level proxy: character F1 of the kept paragraphs against the aligned gold."""
    print(_common.table_head(["fold", "pages", "char P", "char R", "char F1 (page mean)"], "lrrrr"))
    plan = [f for f in folds(pages, names) if not only or f[0] in only]
    with tempfile.TemporaryDirectory() as tmp:
        for (fold, _, scored), path in zip(plan, _fit_folds(pages, plan, params, stacked, tmp, workers)):
            model = Model.from_bytes(Path(path[0]).read_bytes(), path[0])
            rows = [char_scores(model.probabilities(p) >= model.threshold, p.y, p.chars)
                    for p in pages if (p.dataset, p.id) in scored]
            ps, rs, fs = np.array(rows).T
            print(f"| {fold} | {len(fs)} | {ps.mean():.3f} | {rs.mean():.3f} | {fs.mean():.3f} |", flush=True)


# ------------------------------------------------------------------ one page


def fold_of(dataset: str, doc: GoldPage) -> str:
    """The fold whose model never saw ``doc``: its dataset's, or for wcxb-dev its host's
    (the file name ``--models`` keeps it under, without ``.zip``)."""
    if dataset != "wcxb-dev":
        return dataset
    return f"wcxb-dev-hosts{host_fold(train.host_of(doc.meta.get('url')))}"


def page_lines(doc: GoldPage, dataset: Dataset, model: Model) -> list[tuple[float, bool, bool, str]]:
    """Each paragraph of ``doc``: the model's probability, whether the learned method
    keeps it (the page-level steps included), whether the aligned gold holds it (as
    training reads it: :func:`~detourage.learned.train.in_gold`), and its text."""
    options = replace(align.AlignOptions(), kinds=align.dataset_kinds(dataset))
    labelled = align.label_document(doc, options, dataset=dataset.name)
    if labelled.page is None:
        raise SystemExit(f"{dataset.name}:{doc.id}: {labelled.report.error} {labelled.report.message}")
    page = labelled.page
    para = features.compute(page)
    kept = [label is not Label.OTHER for label in learned.label(page, LearnedOptions(model=model)).labels]
    gold = train.in_gold(page, labelled.labels, para).tolist()
    probability = model.probabilities(para).tolist()
    return [(probability[i], any(kept[start:end]), gold[i], para.texts[i])
            for i, (start, end) in enumerate(zip(para.starts.tolist(), para.ends.tolist()))]


def show_pages(wanted: Sequence[str], folder: Path) -> str:
    """``DATASET:ID`` pages, each paragraph on a line: the probability its fold's model
    gives, ``K`` where the learned method keeps it, ``G`` where the gold holds it."""
    paths = {p.name: p for p in dataset_paths()}
    lines = []
    for item in wanted:
        name, _, page_id = item.partition(":")
        if name not in paths:
            raise SystemExit(f"--page {item}: no dataset {name!r} (one of {', '.join(paths)})")
        dataset = load_dataset(paths[name])
        doc = next((d for d in dataset.documents if d.id == page_id), None)
        if doc is None:
            raise SystemExit(f"--page {item}: {name} has no page {page_id!r}")
        fold = fold_of(name, doc)
        path = folder / f"{fold}.zip"
        if not path.is_file():
            raise SystemExit(f"--page {item}: {path} is missing: run once with --models {folder}")
        model = Model.from_bytes(path.read_bytes(), str(path))
        lines.append(f"==> {name}:{page_id} (model {fold}; probability, K kept, G in the gold) <==")
        lines += [f"{p:.2f} {'K' if k else ' '} {'G' if g else ' '} {text}"
                  for p, k, g, text in page_lines(doc, dataset, model)]
    return "\n".join(lines)


# ------------------------------------------------------------------ full run


_PAGES: Sequence[train.PageData] = ()  # the labelled pages, shared with forked fitting workers


def _fit_fold(job: tuple[str, list[int], dict, bool, str]) -> tuple[str, float]:
    """Fit one fold's model on one core and save it; returns its path and fit seconds.

    scikit-learn's trees are loaded first: ``threadpool_limits`` limits only the thread
    pools of the libraries already loaded, and the OpenMP runtime comes with them.  Loaded
    later (inside the fit), it ran every fit on all cores beside the other worker's, and
    the spinning threads made the folds several times slower (the full run on 2 cores:
    6 298 s, 2 758 s once limited)."""
    from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: F401  (see above)
    from threadpoolctl import threadpool_limits

    fold, training, params, stacked, path = job
    t0 = time.perf_counter()
    with threadpool_limits(1):
        model = train.fit([_PAGES[i] for i in training], params, meta={"name": f"lodo-{fold}"},
                          stacked=stacked)
    model.save(path)
    return path, time.perf_counter() - t0


def _fit_folds(pages: Sequence[train.PageData], plan: list, params: dict, stacked: bool, tmp: str,
               workers: int) -> list[tuple[str, float]]:
    """Every fold's model, fitted in parallel (one core each), saved under ``tmp``."""
    global _PAGES
    _PAGES = pages
    position = {(p.dataset, p.id): i for i, p in enumerate(pages)}
    jobs = [(fold, [position[p.dataset, p.id] for p in training], params, stacked,
             str(Path(tmp) / f"{fold.replace('/', '-')}.zip")) for fold, training, _ in plan]
    with cf.ProcessPoolExecutor(max(workers, 1), mp_context=mp.get_context("fork")) as pool:
        return list(pool.map(_fit_fold, jobs))


def _saved_folds(plan: list, folder: Path, threshold: float | None, scratch: str) -> list[tuple[str, float]]:
    """Every fold's model as an earlier run saved it in ``folder`` (fit seconds 0); with a
    ``threshold``, a copy in ``scratch`` that decides at that threshold instead."""
    paths = [folder / f"{fold.replace('/', '-')}.zip" for fold, _, _ in plan]
    missing = [path.name for path in paths if not path.is_file()]
    if missing:
        raise SystemExit(f"--reuse: {folder} has no {', '.join(missing)}: run once with --models {folder}")
    if threshold is None:
        return [(str(path), 0.0) for path in paths]
    out = []
    for path in paths:
        model = Model.from_bytes(path.read_bytes(), str(path))
        copy = str(Path(scratch) / path.name)
        replace(model, threshold=threshold).save(copy)
        out.append((copy, 0.0))
    return out


def learned_records(pages: Sequence[train.PageData], datasets: dict[str, Dataset], workers: int,
                    params: dict, stacked: bool = True, keep: Path | None = None,
                    reuse: bool = False, threshold: float | None = None, urls: bool = True) -> list[dict]:
    """Every scored page of every fold, cleaned by ``learned`` with that fold's model
    (folds fitted in parallel, one core each); the models are kept in ``keep`` if given,
    or, with ``reuse``, read from there instead of fitted (at ``threshold`` if given).
    Without ``urls`` the pages are cleaned without the URL their dataset knows, as a
    benchmark's harness that passes the HTML alone cleans them (the folds stay the same)."""
    plan = folds(pages, list(datasets))
    records = []
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        if reuse and keep:
            fitted = _saved_folds(plan, keep, threshold, scratch)
        else:
            fitted = _fit_folds(pages, plan, params, stacked, str(keep) if keep else scratch, workers)
        for (fold, training, _), (path, seconds) in zip(plan, fitted):
            t0 = time.perf_counter()
            name = fold.split("/")[0]
            documents = held_out(datasets[name], fold)
            subset = replace(datasets[name], documents=documents if urls else without_urls(documents))
            scorer = PageScorer(settings=Settings(options=(("learned", LearnedOptions(model=path)),)))
            run = evaluate([subset], ["learned"], workers=workers, scorer=scorer)
            label = "learned" if "/" not in fold else "learned (host folds)"
            records += [{**r, "method": label} for r in run.pages]
            print(f"  fold {fold}: trained on {len(training)} pages in {seconds:.0f} s, scored "
                  f"{len(run.pages)} in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return records


def peer_cache_key(datasets: dict[str, Dataset]) -> str:
    """What the peers' records depend on: the package's code outside the learned extractor
    (reading a page, its blocks, mapping a peer's output back onto them, scoring,
    boilerpipe), the gold files, the pages' addresses and the peers' versions.  A cache
    kept across a change in how pages are read scored five wcxb-dev pages as that older
    code read them."""
    h = hashlib.sha256(train._package_source(Path(detourage.__file__).parent, skip="learned").encode())
    for name, ds in sorted(datasets.items()):
        for doc in ds.scorable:
            size = doc.gold_path.stat().st_size if doc.gold_path else 0
            h.update(f"{name}/{doc.id}/{size}/{doc.meta.get('url', '')}".encode())
    for dist in ("trafilatura", "readability-lxml"):
        try:
            h.update(f"{dist} {importlib.metadata.version(dist)}".encode())
        except importlib.metadata.PackageNotFoundError:
            h.update(f"{dist} missing".encode())
    return h.hexdigest()


def peer_records(datasets: dict[str, Dataset], workers: int, use_cache: bool) -> list[dict]:
    """The peers' records on every scorable page, from the cache when it was written by
    this code for these pages (:func:`peer_cache_key`) and is complete."""
    wanted = {(name, d.id, m) for name, ds in datasets.items() for d in ds.scorable for m in PEERS}
    key = peer_cache_key(datasets)
    if use_cache and PEER_CACHE.is_file():
        with PEER_CACHE.open(encoding="utf-8") as fh:
            head = json.loads(fh.readline() or "{}")
            cached = [json.loads(line) for line in fh] if head.get("key") == key else []
        if {(r["dataset"], r["id"], r["method"]) for r in cached} >= wanted:
            return [r for r in cached if (r["dataset"], r["id"], r["method"]) in wanted]
    t0 = time.perf_counter()
    run = evaluate(list(datasets.values()), list(PEERS), workers=workers)
    print(f"  peers: {len(run.pages)} pages in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    PEER_CACHE.parent.mkdir(parents=True, exist_ok=True)
    with PEER_CACHE.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"key": key}) + "\n")
        for r in run.pages:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    return run.pages


def scores(records: Sequence[dict]) -> dict[str, float]:
    """Shingle F1 (page-averaged P and R), TO and CAR F1 (micro) of a group of pages."""
    shingle = metrics.shingle_summary(
        [metrics.ShingleCounts(r["shingle_tp"], r["shingle_fp"], r["shingle_fn"]) for r in records],
        n_bootstrap=0)
    out = {"pages": len(records), "shingle_f1": shingle.f1, "shingle_p": shingle.precision,
           "shingle_r": shingle.recall}
    for mode in ("to", "car"):
        s = metrics.summarize(metrics.Counts(r[f"{mode}_matched"], r[f"{mode}_pred"], r[f"{mode}_gold"])
                              for r in records)
        out[f"{mode}_f1"] = s.micro.f1
    worded = [r["word_f1"] for r in records if "word_f1" in r]
    out["word_f1"] = statistics.fmean(worded) if len(worded) == len(records) else None
    out["failed"] = sum(not r["ok"] for r in records)
    return out


def groups(records: Iterable[dict], page_types: dict[tuple[str, str], str]) -> dict[str, list[dict]]:
    """Records by row of the report: dataset, DANIEL language, wcxb-dev page type."""
    out: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        out[r["dataset"]].append(r)
        if r["dataset"] == "daniel":
            out[f"daniel/{r.get('lang', '?')}"].append(r)
        if r["dataset"] == "wcxb-dev":
            out[f"wcxb-dev/{page_types.get((r['dataset'], r['id']), '?')}"].append(r)
    return out


def report(records: Sequence[dict], page_types: dict[tuple[str, str], str]) -> tuple[str, list[dict]]:
    by_method: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_method[r["method"]].append(r)
    methods = [m for m in ("learned", "learned (host folds)", *PEERS) if m in by_method]
    grouped = {m: groups(by_method[m], page_types) for m in methods}
    table = {m: {g: scores(rs) for g, rs in grouped[m].items()} for m in methods}
    rows = []
    lines = [_common.table_head(["rows", "pages", *methods, "learned − best peer [95 % interval]",
                                 "learned − boilerpipe [95 % interval]",
                                 f"bar: learned ≥ best peer + {MARGIN} and ≥ boilerpipe"], "lr" + "r" * len(methods))]
    for g in sorted(table["learned"], key=_order):
        cell = {m: table[m].get(g) for m in methods}
        best = max((p for p in ("peer-trafilatura", "peer-readability") if cell.get(p)),
                   key=lambda p: cell[p]["shingle_f1"])
        # wcxb-dev is judged on its host folds (the protocol inside wcxb-dev)
        judged = "learned (host folds)" if cell.get("learned (host folds)") else "learned"
        ours = cell[judged]["shingle_f1"]
        ok = ours >= cell[best]["shingle_f1"] + MARGIN and ours >= cell["boilerpipe"]["shingle_f1"]
        vs_peer, vs_boilerpipe = (paired(grouped[judged][g], grouped[other][g]) for other in (best, "boilerpipe"))
        metric = "car_f1" if g.endswith("/zh") else "to_f1"
        fmt = " | ".join(f"{c['shingle_f1']:.3f} ({c[metric] * 100:.1f})" if c else "–" for c in cell.values())
        verdict = "met" if ok else "not met"
        if not ok and vs_peer[1][1] >= MARGIN and vs_boilerpipe[1][1] >= 0:
            verdict += ", within the intervals"
        lines.append(f"| {g} | {cell['learned']['pages']} | {fmt} | {_interval(vs_peer)} {best.removeprefix('peer-')} "
                     f"| {_interval(vs_boilerpipe)} | {verdict} |")
        rows.append({"rows": g, **{m: c for m, c in cell.items()}, "bar_met": ok,
                     "vs_best_peer": {"peer": best, "diff": vs_peer[0], "interval": vs_peer[1]},
                     "vs_boilerpipe": {"diff": vs_boilerpipe[0], "interval": vs_boilerpipe[1]}})
    lines.append(_means(table, methods))
    words = _word_table(table, grouped, methods)
    legend = ("\nshingle F1, with TO F1 ×100 in brackets (CAR F1 for Chinese); "
              "`learned`: leave-one-dataset-out; `learned (host folds)`: trained on the other datasets and "
              "four fifths of wcxb-dev, scored on the hosts of the fifth it never saw (the bar is judged on "
              "this column for wcxb-dev rows). Differences are on the pages both methods cleaned, with a "
              "paired bootstrap interval (pages resampled together, 1 000 draws); \"within the intervals\": "
              "the bar is missed but both intervals reach it, so these pages cannot tell.")
    if words:
        legend += ("\n\n" + "\n".join(words) + "\nWCXB's word F1: the mean of the pages' bag-of-words F1 "
                   "(tokens \\w+, lower-cased; no Chinese rows, whose runs of characters are no words); the "
                   "difference is the judged column's (host folds for wcxb-dev) on the pages both cleaned, "
                   "with a paired bootstrap interval.")
    return "\n".join(lines) + legend, rows


def _word_table(table: dict[str, dict[str, dict]], grouped: dict[str, dict[str, list[dict]]],
                methods: list[str]) -> list[str]:
    """The rows again in WCXB's word F1 (the mean of the pages' bag-of-words F1, the figure
    WCXB publishes), beside trafilatura with a paired interval; nothing for records
    written before the evaluation counted words."""
    if any(c.get("word_f1") is None for m in methods for c in table[m].values()):
        return []
    lines = [_common.table_head(["rows (word F1)", "pages", *methods, "learned − trafilatura [95 % interval]"],
                                "lr" + "r" * len(methods) + "l")]
    for g in sorted(table["learned"], key=_order):
        if g.endswith("/zh"):  # \w+ runs of Chinese characters are phrases, not words
            continue
        cell = {m: table[m].get(g) for m in methods}
        judged = "learned (host folds)" if cell.get("learned (host folds)") else "learned"
        diff = word_paired(grouped[judged][g], grouped["peer-trafilatura"][g])
        lines.append(f"| {g} | {cell['learned']['pages']} | "
                     + " | ".join(f"{c['word_f1']:.3f}" if c else "–" for c in cell.values())
                     + f" | {_interval(diff)} |")
    return lines


def word_paired(ours: Sequence[dict], theirs: Sequence[dict], n_bootstrap: int = 1000,
                seed: int = 0) -> tuple[float, tuple[float, float]]:
    """Mean word F1 of ``ours`` minus ``theirs`` on the pages both scored, with a paired
    bootstrap 95 % interval (the pages resampled together)."""
    other = {(r["dataset"], r["id"]): r["word_f1"] for r in theirs}
    d = np.array([r["word_f1"] - other[r["dataset"], r["id"]] for r in ours if (r["dataset"], r["id"]) in other])
    if not len(d):
        return 0.0, (0.0, 0.0)
    means = np.random.default_rng(seed).choice(d, size=(n_bootstrap, len(d))).mean(axis=1)
    return float(d.mean()), (float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5)))


def paired(ours: Sequence[dict], theirs: Sequence[dict]) -> tuple[float, tuple[float, float]]:
    """Shingle F1 of ``ours`` minus ``theirs`` on the pages both scored, with its paired
    bootstrap 95 % interval (:func:`detourage.evaluation.metrics.shingle_difference`)."""
    other = {(r["dataset"], r["id"]): r for r in theirs}
    pairs = [(r, other[r["dataset"], r["id"]]) for r in ours if (r["dataset"], r["id"]) in other]

    def counts(r: dict) -> metrics.ShingleCounts:
        return metrics.ShingleCounts(r["shingle_tp"], r["shingle_fp"], r["shingle_fn"])

    return metrics.shingle_difference([counts(a) for a, _ in pairs], [counts(b) for _, b in pairs])


def _interval(d: tuple[float, tuple[float, float]]) -> str:
    return f"{d[0]:+.3f} [{d[1][0]:+.3f}, {d[1][1]:+.3f}]"


def _means(table: dict[str, dict[str, dict]], methods: list[str]) -> str:
    """A row of each method's mean shingle F1 over the datasets (wcxb-dev by its host folds)."""
    datasets = [g for g in table["learned"] if "/" not in g]
    cells = []
    for m in methods:
        if m == "learned (host folds)":
            cells.append("–")
            continue
        per = [(table["learned (host folds)"] if m == "learned" and g in table.get("learned (host folds)", {})
                else table[m])[g]["shingle_f1"] for g in datasets]
        cells.append(f"{sum(per) / len(per):.3f}")
    return f"| mean of the {len(datasets)} datasets (wcxb-dev: host folds) | | " + " | ".join(cells) + " | | | |"


def compare(runs: Sequence[Path], moved_by: float = 0.1) -> str:
    """Runs written by ``--json``, one line each: the rows whose bar is met, the mean shingle
    F1 of all rows (wcxb-dev's by host folds) and each row's; then, for each run against the
    first, how many held-out pages changed at all (up, down) and by more than ``moved_by``
    shingle F1 (``--moved``), and those pages (dataset, id, F1 before -> after), the
    largest loss first."""
    lines, pages = [], []
    for path in runs:
        data = json.loads(path.read_text())
        judged = [r.get("learned (host folds)") or r["learned"] for r in data["rows"]]
        values = [c["shingle_f1"] for c in judged]
        met = sum(bool(r["bar_met"]) for r in data["rows"])
        lines.append(f"{path.name}: rows met {met}/{len(values)}, mean of the rows {statistics.mean(values):.4f} | "
                     + " ".join(f"{v:.3f}" for v in values))
        pages.append({(r["dataset"], r["id"]): _page_f1(r) for r in _judged(data["records"])})
    for path, run in zip(runs[1:], pages[1:]):
        delta = {k: run[k] - pages[0][k] for k in run.keys() & pages[0].keys()}
        moved = sorted((d, k) for k, d in delta.items() if abs(d) > max(moved_by, CHANGED))
        up, down = sum(d > CHANGED for d in delta.values()), sum(d < -CHANGED for d in delta.values())
        lines.append(f"{path.name} against {runs[0].name}: {up + down} of {len(run)} pages changed ({up} up, "
                     f"{down} down), {len(moved)} by more than {moved_by}")
        lines += [f"    {dataset} {page}: {pages[0][dataset, page]:.3f} -> {run[dataset, page]:.3f}"
                  for _, (dataset, page) in moved]
    lines.append("")
    lines += _row_intervals(runs)
    return "\n".join(lines)


def _judged(records: Sequence[dict]) -> list[dict]:
    """A run's held-out records as its rows judge them (wcxb-dev's by host folds)."""
    return [r for r in records if r["method"] == "learned (host folds)"
            or (r["method"] == "learned" and r["dataset"] != "wcxb-dev")]


def _row_intervals(runs: Sequence[Path]) -> list[str]:
    """Each row's change from the first run to each later one, with its paired bootstrap
    interval (the pages of the row resampled together, :func:`paired`); then wcxb-dev's
    rows as the model that never saw a WCXB page cleans them (:data:`NO_WCXB`): the genre
    it knows least, where a change that helps the host folds may still cost.  When every
    run counted words, the same rows follow in word F1 (:func:`word_paired`)."""
    page_types = {("wcxb-dev", m["id"]): m.get("page_type") or "" for m in _wcxb_meta()}
    records = [_records(path) for path in runs]
    lines = [_common.table_head(["row", "pages", *(f"{p.name} − {runs[0].name} [95 % interval]" for p in runs[1:])],
                                "lr" + "l" * (len(runs) - 1))]
    worded = all("word_f1" in r for run in records for r in run)
    for difference, metric in ((paired, ""), *(((word_paired, " (word F1)"),) if worded else ())):
        for select, suffix in ((_judged, ""), (_no_wcxb, NO_WCXB)):
            first, *later = (groups(select(run), page_types) for run in records)
            for name in sorted(first, key=_order):
                if metric and name.endswith("/zh"):
                    continue
                cells = [_interval(difference(run.get(name, []), first[name])) for run in later]
                lines.append(_common.table_row([name + suffix + metric, len(first[name]), *cells]))
    return lines


def _no_wcxb(records: Sequence[dict]) -> list[dict]:
    """A run's wcxb-dev records cleaned by the model trained without any WCXB page."""
    return [r for r in records if r["method"] == "learned" and r["dataset"] == "wcxb-dev"]


#: the suffix of the rows of :func:`_no_wcxb`'s records in ``--compare``
NO_WCXB = ", no WCXB page"


def _records(path: Path) -> list[dict]:
    return json.loads(path.read_text())["records"]


def _wcxb_meta() -> list[dict]:
    path = _common.DATASETS_EXTRA / "wcxb-dev" / "meta.jsonl"
    return [json.loads(line) for line in path.open(encoding="utf-8")] if path.exists() else []


#: …and changed at all past float noise
CHANGED = 1e-9


def _page_f1(record: dict) -> float:
    p, r = record["shingle_p"] or 0.0, record["shingle_r"] or 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def _order(g: str) -> tuple[int, str]:
    return (g.count("/"), g)


#: the learned method's page-level steps (as :func:`detourage.learned.rules.apply` names
#: them), any of which can be left out for an ablation (``--without``): each changes
#: ``keep`` in place and returns what it found, or nothing
ABLATABLE = ("lower_when_doubted", "drop_comments", "drop_stamped_threads", "drop_related_boxes",
             "drop_dated_headlines", "drop_polls", "drop_appended_articles", "drop_boxes_beside", "drop_site_frame",
             "drop_consent_boxes", "drop_signatures", "drop_profile_fields", "drop_product_carousels",
             "drop_product_reviews", "drop_closing_promos", "drop_after_notice",
             "drop_later_copies", "whole_code_blocks", "keep_title", "fall_back", "keep_thread_posts",
             "keep_standfirst", "keep_boundary_lines", "keep_pictured_paragraphs", "keep_section_lists",
             "keep_data_tables", "keep_whole_cards",
             "keep_parent_items", "drop_controls", "keep_figures", "drop_permalinks")

#: what a step left out returns, by its return annotation: what it returns when it finds nothing
_FOUND_NOTHING = {"float": lambda: 0.0, "int": lambda: 0, "str": lambda: "", "dict": dict, "list[str]": list,
                  "None": lambda: None}


def _leave_out(steps: list[str], page_types: bool = False) -> None:
    """Replace each named step of ``detourage.learned.rules`` by one that does nothing
    and returns what the step returns when it finds nothing (None, 0, "", [] or {}), and
    with ``page_types`` make every page kind's threshold shift 0; before the worker
    processes fork, so that they inherit it."""
    import inspect

    from detourage.learned import pagetype, rules

    if page_types:
        pagetype.THRESHOLD_SHIFT.update(dict.fromkeys(pagetype.THRESHOLD_SHIFT, 0.0))

    for name in steps:
        nothing = _FOUND_NOTHING[str(inspect.signature(getattr(rules, name)).return_annotation)]
        setattr(rules, name, lambda *args, _nothing=nothing, **kwargs: _nothing())


def _parser() -> argparse.ArgumentParser:
    """The command line: a full run, a quick proxy, a reuse of saved fold models, a comparison."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="paragraph-level proxy, no pipeline, no peers")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--flat", action="store_true", help="one stage of trees, no second (context) stage")
    parser.add_argument("--fold", action="append", default=[], help="--quick: only these folds (repeatable)")
    parser.add_argument("--no-peer-cache", action="store_true")
    parser.add_argument("--params", default="{}", help="JSON overriding train.PARAMS")
    _common.add_json(parser, "the rows and every page's record")
    parser.add_argument("--models", type=Path, default=None,
                        help="keep each fold's model here (FOLD.zip), to look at a held-out page with "
                             "`detourage extract PAGE --model DIR/FOLD.zip`")
    parser.add_argument("--reuse", action="store_true",
                        help="score with the fold models an earlier run kept in --models instead of "
                             "fitting them: a change after the trees (what the method does with their "
                             "scores) is then measured without the fits' chance; the models must come "
                             "from the same features")
    parser.add_argument("--threshold", type=float, default=None,
                        help="--reuse: score the saved models at this decision threshold instead of their own")
    parser.add_argument("--report", type=Path, default=None,
                        help="rebuild the table from a --json run's records instead of running")
    parser.add_argument("--compare", type=Path, nargs="+", default=None,
                        help="--json runs: rows met, mean of the rows, pages moved against the first")
    parser.add_argument("--moved", type=float, default=0.1, metavar="F1",
                        help="--compare: list the pages whose shingle F1 changed by more than this (default: "
                             "%(default)s; 0 lists every page that changed)")
    parser.add_argument("--no-page-types", action="store_true",
                        help="score with every page's kind left without effect (no threshold shift: "
                             "the learned method as it was before page types)")
    parser.add_argument("--page", action="append", default=[], metavar="DATASET:ID",
                        help="with --models: print a held-out page's paragraphs, each with the probability "
                             "its fold's model gives, whether the learned method keeps it and whether the gold "
                             "holds it (repeatable)")
    parser.add_argument("--no-urls", action="store_true",
                        help="clean the held-out pages without the URL their dataset knows (wcxb-dev's), as "
                             "a harness that passes the HTML alone does; the peers' records stay those "
                             "cleaned with it")
    parser.add_argument("--without", action="append", default=[], choices=sorted(ABLATABLE),
                        help="score with this page-level step of the learned method left out (repeatable): "
                             "what the step costs or gains on each dataset")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.reuse and not args.models:
        parser.error("--reuse needs --models DIR")
    if args.threshold is not None and not args.reuse:
        parser.error("--threshold needs --reuse (a fitted run takes --params '{\"threshold\": T}')")
    if args.compare:
        print(compare(args.compare, args.moved))
        return 0
    if args.page:
        if not args.models:
            parser.error("--page needs --models DIR")
        print(show_pages(args.page, args.models))
        return 0
    _leave_out(args.without, args.no_page_types)
    t0 = time.perf_counter()
    paths = dataset_paths()
    pages = [] if args.report else load_pages(paths, workers=args.workers)
    params = json.loads(args.params)
    names = [p.name for p in paths]
    if args.quick:
        quick(pages, names, params, workers=args.workers, stacked=not args.flat, only=args.fold)
        return 0
    datasets = {p.name: load_dataset(p) for p in paths}
    page_types = {(name, d.id): str(d.meta.get("page_type") or "") for name, ds in datasets.items() for d in ds}
    if args.report:
        records = json.loads(args.report.read_text())["records"]
    else:
        records = learned_records(pages, datasets, args.workers, params, not args.flat, args.models,
                                  args.reuse, args.threshold, urls=not args.no_urls)
        records += peer_records(datasets, args.workers, not args.no_peer_cache)
    text, rows = report(records, page_types)
    print(text)
    ms = {m: statistics.median(r["ms"] for r in records if r["method"] == m) for m in ("learned", *PEERS)}
    print("\nmedian ms/page in this run (evaluation workers, page read + extract): "
          + ", ".join(f"{m} {v:.1f}" for m, v in ms.items()))
    print(f"wall time {time.perf_counter() - t0:.0f} s")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "ms": ms, "records": records}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
