"""Seed 004 Figure 5.1 on multi-page hosts: the cross-page ``template`` method beside the
default extractor and the single-page methods and peers, on the same pages.

The pages are those of the hosts of a dataset with at least ``--min-pages`` pages: DANIEL
(``--dataset daniel``, 5 pages: 71 hosts, 978 pages) or wcxb-dev (``--dataset wcxb-dev``,
3 pages: 31 hosts, 139 pages), or ``--per-site N`` of each such host (seed 004 repeats
its table with 5 pages per site; the sample is seeded).  The template is fitted on those
pages themselves — their HTML only, never their gold, as ``detourage evaluate -m
template`` does — grouped by the host of their URL.

The learned extractor (``default``, and ``template``'s inner and fallback method, which
run it) must not have seen the pages it cleans: ``--folds DIR`` gives it the
leave-one-dataset-out models that ``benchmarks/learned_lodo.py --models DIR`` keeps —
``daniel.zip`` for DANIEL, and for wcxb-dev the model of each host's fold
(``wcxb-dev-hosts<k>.zip``, trained on the other datasets and the other four fifths of
wcxb-dev's hosts); ``--model FILE`` gives one model to every page.  Without either, the
shipped model has seen these pages: use it for debugging only.  Other methods that take
a model (victor, ncleaner, ``template-victor``) run with their shipped model.

Every method extracts every page and is scored with seed 004's measures
(:func:`detourage.evaluation.metrics.cosine_page`: bag-of-words cosine, characters for
Chinese): exactitude (cos ≥ 0.9), mean cos, T = T*, T ⊂ T*, T* ⊂ T; and with shingle F1
(page-averaged P and R, bootstrap 95 % interval).  The closing lines give the first
method's difference to the second on the same pages (shingle F1 with its paired
bootstrap interval, exactitude), and the sites where the first method's exactitude is
below the best other method's.

    python benchmarks/template_eval.py [--dataset daniel|wcxb-dev] [--folds build/learned/folds-base]
        [--model M.zip] [--methods template default boilerpipe peer-trafilatura …] [--per-site 5]
        [--min-pages N] [--seed 4] [--workers 2] [--clustering kmeans] [--sites] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import _common
from detourage import methods as registry
from detourage.corpus import Job, execute
from detourage.evaluation import metrics
from detourage.evaluation.evaluate import PageJob, PageScorer
from detourage.gold import GoldPage, load_dataset
from detourage.learned.forest import Model, load_model
from detourage.methods import learned
from detourage.settings import Settings
from detourage.site import template as site_template
from learned_lodo import host_fold

DATASETS = {"daniel": _common.DATASETS / "daniel", "wcxb-dev": _common.DATASETS_EXTRA / "wcxb-dev"}
#: hosts with fewer pages are left out: 5 for DANIEL as seed 004; wcxb-dev has few hosts
#: with several pages (31 with 3 or more, 9 with 5 or more)
MIN_PAGES = {"daniel": 5, "wcxb-dev": 3}
DEFAULT_METHODS = ["template", "default", "boilerpipe", "peer-trafilatura"]


def host(doc: GoldPage) -> str:
    return site_template.site_key(doc.meta.get("url"))


def pages_of(docs: list[GoldPage], min_pages: int, per_site: int | None, seed: int) -> list[GoldPage]:
    """The pages of the hosts with ≥ min_pages pages (all, or a seeded sample per host)."""
    by_host: dict[str, list[GoldPage]] = defaultdict(list)
    for doc in docs:
        by_host[host(doc)].append(doc)
    out = []
    for name in sorted(h for h, d in by_host.items() if h and len(d) >= min_pages):
        chosen = sorted(by_host[name], key=lambda d: d.id)
        if per_site is not None:
            chosen = sorted(random.Random(f"{seed}:{name}").sample(chosen, min(per_site, len(chosen))),
                            key=lambda d: d.id)
        out.extend(chosen)
    return out


# ------------------------------------------------------------------------------ models


def fold_model(dataset: str, doc: GoldPage, folds: Path) -> Path:
    """The leave-one-dataset-out model that never saw ``doc`` (learned_lodo's names)."""
    if dataset == "wcxb-dev":
        return folds / f"wcxb-dev-hosts{host_fold(host(doc))}.zip"
    return folds / f"{dataset}.zip"


def runs_learned(name: str) -> bool:
    """Whether every model-taking step of the method is the learned extractor (so a
    learned model can be given to it): ``default``, ``learned-*``, and ``template``
    variants whose inner and fallback methods are learned."""
    method = registry.get(name)
    if method.options is learned.Options:
        return True
    if not registry.uses_template(name):
        return False
    options = method.options(**dict(method.defaults))
    steps = [registry.get(getattr(options, f)) for f in ("inner", "fallback")]
    return all(s.options is learned.Options or "model" not in s.options.__dataclass_fields__ for s in steps)


def options_for(names: list[str], template: str, model: Model | None) -> tuple[tuple[str, Any], ...]:
    """Every method's options: the template file, and the model where it runs learned."""
    options: dict[str, Any] = {}
    for name in names:
        method = registry.get(name)
        given: dict[str, Any] = {}
        if registry.uses_template(name):
            given["template"] = template
        if model is not None and runs_learned(name):
            given["model"] = model
        if given:
            options[method.name] = method.options(**{**dict(method.defaults), **given})
    return tuple(options.items())


# ----------------------------------------------------------------------------- running


def run_methods(dataset: str, docs: list[GoldPage], names: list[str], template: site_template.Template,
                models: dict[str, Path | None], workers: int) -> dict[str, list[dict[str, Any]]]:
    """Every method on every page, scored; the pages of one model are run together."""
    by_model: dict[Path | None, list[GoldPage]] = defaultdict(list)
    for doc in docs:
        by_model[models[doc.id]].append(doc)
    by_method: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "template.json.gz")
        site_template.save(template, path)
        for model_path, group in sorted(by_model.items(), key=lambda kv: str(kv[0])):
            model = load_model(str(model_path)) if model_path is not None else None
            scorer = PageScorer(settings=Settings(options=options_for(names, path, model)))
            jobs = [PageJob(dataset, d, m) for m in names for d in group]
            for r in execute(jobs, scorer, workers):
                by_method[r["method"]].append(r)
    return by_method


# ----------------------------------------------------------------------------- scoring


def _shingles(records: list[dict[str, Any]]) -> list[metrics.ShingleCounts]:
    return [metrics.ShingleCounts(r["shingle_tp"], r["shingle_fp"], r["shingle_fn"]) for r in records]


def summary(records: list[dict[str, Any]], bootstrap: int = 1000) -> dict[str, Any]:
    """Seed 004's cosine measures and shingle P / R / F1 (with its 95 % interval)."""
    s = metrics.cosine_summary([metrics.CosinePage(r["cos"], r["cos_equal"], r["cos_pred_in_gold"],
                                                   r["cos_gold_in_pred"]) for r in records])
    sh = metrics.shingle_summary(_shingles(records), n_bootstrap=bootstrap)
    return {"pages": s.pages, "exactitude": s.exactitude, "cos": s.mean_cos, "equal": s.equal,
            "pred_in_gold": s.pred_in_gold, "gold_in_pred": s.gold_in_pred,
            "shingle_f1": sh.f1, "shingle_p": sh.precision, "shingle_r": sh.recall,
            "shingle_f1_interval": list(sh.f1_interval)}


def row(name: str, s: dict[str, Any]) -> str:
    lo, hi = s["shingle_f1_interval"]
    return (f"| {name} | {100 * s['exactitude']:.1f} % | {s['cos']:.3f} | {s['shingle_f1']:.3f} "
            f"[{lo:.3f}, {hi:.3f}] | {s['shingle_p']:.3f} | {s['shingle_r']:.3f} | {s['equal']} | "
            f"{s['pred_in_gold']} | {s['gold_in_pred']} | {s['pages']} |")


HEADER = ("| {} | exactitude | cos θ | shingle F1 [95 %] | P | R | T = T* | T ⊂ T* | T* ⊂ T | pages |\n"
          "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")


def tables(docs: list[GoldPage], names: list[str], by_method: dict[str, list[dict[str, Any]]]
           ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The measures per method overall, and per site and method."""
    host_of = {d.id: host(d) for d in docs}
    overall = {m: summary(by_method[m]) for m in names}
    per_site: dict[str, dict[str, Any]] = defaultdict(dict)
    for m in names:
        grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in by_method[m]:
            grouped[host_of[r["id"]]].append(r)
        for site, rs in grouped.items():
            per_site[site][m] = summary(rs, bootstrap=0)
    return overall, per_site


def paired(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    """Method a minus method b on the same pages: shingle F1 (paired bootstrap interval),
    exactitude, and the pages each wins by more than 0.01 of shingle F1."""
    by_id = {r["id"]: r for r in b}
    pairs = [(r, by_id[r["id"]]) for r in a if r["id"] in by_id]
    diff, (lo, hi) = metrics.shingle_difference(_shingles([x for x, _ in pairs]), _shingles([y for _, y in pairs]))
    f1 = [(_f1(x), _f1(y)) for x, y in pairs]
    return {"shingle_f1": diff, "interval": [lo, hi], "pages": len(pairs),
            "exactitude": sum((x["cos"] >= 0.9) - (y["cos"] >= 0.9) for x, y in pairs) / max(len(pairs), 1),
            "better": sum(x > y + 0.01 for x, y in f1), "worse": sum(x < y - 0.01 for x, y in f1)}


def _f1(r: dict[str, Any]) -> float:
    c = metrics.ShingleCounts(r["shingle_tp"], r["shingle_fp"], r["shingle_fn"])
    p, rec = c.precision or 0.0, c.recall or 0.0
    return 2 * p * rec / (p + rec) if p + rec else 0.0


def print_comparison(names: list[str], by_method: dict[str, list[dict[str, Any]]],
                     per_site: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The first method against the second, and the sites where the first is below the
    best other method there."""
    first = names[0]
    failed = sum(1 for r in by_method[first] if r.get("ok") is False)
    d = None
    if len(names) > 1:
        d = paired(by_method[first], by_method[names[1]])
        print(f"\n{first} − {names[1]} on the same {d['pages']} pages: shingle F1 {d['shingle_f1']:+.4f} "
              f"[{d['interval'][0]:+.4f}, {d['interval'][1]:+.4f}], exactitude {100 * d['exactitude']:+.1f} "
              f"points; better on {d['better']} pages, worse on {d['worse']} (F1 ± 0.01); "
              f"failed pages of {first}: {failed}")
    losses = []
    for site in sorted(per_site):
        mine = per_site[site][first]["exactitude"]
        top = max(names[1:] or names, key=lambda m: per_site[site][m]["exactitude"])
        if mine < per_site[site][top]["exactitude"]:
            losses.append(f"{site} ({per_site[site][first]['pages']} p.): {100 * mine:.0f} % vs "
                          f"{top} {100 * per_site[site][top]['exactitude']:.0f} %")
    print(f"sites where {first} is below the best other method there ({len(losses)} of {len(per_site)}):")
    for line in losses:
        print("  " + line)
    return d


# -------------------------------------------------------------------------------- main


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", choices=sorted(DATASETS), default="daniel")
    ap.add_argument("--path", type=Path, default=None, help="the dataset folder (default: under ../shared)")
    ap.add_argument("--methods", nargs="+", default=DEFAULT_METHODS)
    ap.add_argument("--folds", type=Path, default=None,
                    help="leave-one-dataset-out models (benchmarks/learned_lodo.py --models DIR)")
    ap.add_argument("--model", type=Path, default=None, help="one learned model for every page")
    ap.add_argument("--min-pages", type=int, default=None)
    ap.add_argument("--per-site", type=int, default=None)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--clustering", choices=["agglomerative", "kmeans"], default="agglomerative")
    ap.add_argument("--sites", action="store_true", help="the per-site table of the first method")
    _common.add_json(ap)
    args = ap.parse_args()
    if args.folds is not None and args.model is not None:
        ap.error("--folds or --model, not both")
    return args


def models_of(args: argparse.Namespace, docs: list[GoldPage]) -> dict[str, Path | None]:
    """The learned model of each page (None: the shipped one); a missing fold model ends the run."""
    if args.folds is None:
        return {d.id: args.model for d in docs}
    out = {d.id: fold_model(args.dataset, d, args.folds) for d in docs}
    missing = sorted({str(p) for p in out.values() if not p.is_file()})
    if missing:
        raise SystemExit(f"no fold model {', '.join(missing)}: run benchmarks/learned_lodo.py --models {args.folds}")
    return out


def fit(docs: list[GoldPage], workers: int, clustering: str) -> tuple[site_template.Template, float]:
    t0 = time.perf_counter()
    jobs = [Job(d.id, str(d.html_path), None, d.meta.get("url")) for d in docs]
    template, failed = site_template.fit_jobs(jobs, workers=workers, method=clustering)  # type: ignore[arg-type]
    seconds = time.perf_counter() - t0
    rows = site_template.describe(template)
    print(f"template fitted in {seconds:.1f} s: {sum(r['templates'] for r in rows)} templates, "
          f"{sum(r['outliers'] for r in rows)} outlier pages, {len(failed)} failed", file=sys.stderr)
    return template, seconds


def main() -> int:
    args = parse_args()
    folder = args.path or DATASETS[args.dataset]
    if not (folder / "meta.jsonl").exists():
        print(f"no {args.dataset} dataset at {folder}", file=sys.stderr)
        return 2
    min_pages = args.min_pages or MIN_PAGES[args.dataset]
    docs = pages_of(list(load_dataset(folder).scorable), min_pages, args.per_site, args.seed)
    models = models_of(args, docs)
    print(f"{len(docs)} pages of {len({host(d) for d in docs})} {args.dataset} hosts with ≥ {min_pages} pages"
          + (f", {args.per_site} per site (seed {args.seed})" if args.per_site else "")
          + f"; learned models: {', '.join(sorted({p.name if p else 'shipped' for p in models.values()}))}",
          file=sys.stderr)
    template, fit_s = fit(docs, args.workers, args.clustering)
    by_method = run_methods(args.dataset, docs, args.methods, template, models, args.workers)
    overall, per_site = tables(docs, args.methods, by_method)
    first = args.methods[0]
    if args.sites:
        print(HEADER.format(f"site ({first})"))
        for site in sorted(per_site):
            print(row(site, per_site[site][first]))
        print(row(f"total ({len(docs)} pages)", overall[first]))
        print()
    print(HEADER.format(f"method ({args.dataset})"))
    for m in args.methods:
        print(row(m, overall[m]))
    difference = print_comparison(args.methods, by_method, per_site)
    if args.json:
        args.json.write_text(json.dumps({"dataset": args.dataset, "overall": overall, "sites": per_site,
                                         "difference": difference, "fit_seconds": fit_s,
                                         "models": sorted({str(p) for p in models.values()})}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
