"""Seed 004 Figure 5.1 on DANIEL's multi-page sites: the template method beside the
single-page methods, on the same pages.

The pages are those of the DANIEL hosts with at least ``--min-pages`` pages (5: 71 hosts,
985 pages), or ``--per-site N`` of each such host (seed 004 repeats its table with 5 pages
per site; the sample is seeded).  The template is fitted on those pages themselves —
their HTML only, never their gold, as ``detourage evaluate -m template`` does — grouped by
the host of their URL.  Every method then extracts every page and is scored with seed 004's
measures (detourage.evaluation.metrics.cosine_page: bag-of-words cosine, characters for
Chinese): exactitude (cos ≥ 0.9), mean cos, T = T*, T ⊂ T*, T* ⊂ T, per site and overall.

    python benchmarks/template_eval.py [--methods template boilerpipe …] [--per-site 5]
        [--min-pages 5] [--seed 4] [--workers 2] [--clustering kmeans] [--sites] [--json out.json]

The first method is the one shown per site (``--sites``); the overall table has all; the
closing lines list the sites where the first method's exactitude is below the best
single-page method's.
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

from detourage import methods as registry
from detourage.corpus import Job
from detourage.evaluation import metrics
from detourage.evaluation.evaluate import PageJob, PageScorer
from detourage.evaluation.gold import Document, load_dataset
from detourage.corpus import execute
from detourage.site import template as site_template

DEFAULT_DATASETS = Path(__file__).resolve().parents[2] / "shared" / "datasets"
DEFAULT_METHODS = ["template", "template-element", "template-victor", "boilerpipe", "victor",
                   "justext", "eatiht", "ncleaner", "baseline", "fulltext"]


def pages_of(docs: list[Document], min_pages: int, per_site: int | None, seed: int) -> list[Document]:
    """The pages of the hosts with ≥ min_pages pages (all, or a seeded sample per host)."""
    by_host: dict[str, list[Document]] = defaultdict(list)
    for doc in docs:
        by_host[str(doc.meta.get("host") or "")].append(doc)
    out = []
    for host in sorted(h for h, d in by_host.items() if h and len(d) >= min_pages):
        chosen = sorted(by_host[host], key=lambda d: d.id)
        if per_site is not None:
            chosen = sorted(random.Random(f"{seed}:{host}").sample(chosen, min(per_site, len(chosen))),
                            key=lambda d: d.id)
        out.extend(chosen)
    return out


def summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    s = metrics.cosine_summary([metrics.CosinePage(r["cos"], r["cos_equal"], r["cos_pred_in_gold"],
                                                   r["cos_gold_in_pred"]) for r in records])
    return {"pages": s.pages, "exactitude": s.exactitude, "cos": s.mean_cos, "equal": s.equal,
            "pred_in_gold": s.pred_in_gold, "gold_in_pred": s.gold_in_pred}


def row(name: str, s: dict[str, Any]) -> str:
    return (f"| {name} | {100 * s['exactitude']:.1f} % | {s['cos']:.3f} | {s['equal']} | "
            f"{s['pred_in_gold']} | {s['gold_in_pred']} | {s['pages']} |")


HEADER = "| {} | exactitude | cos θ | T = T* | T ⊂ T* | T* ⊂ T | pages |\n|---|--:|--:|--:|--:|--:|--:|"


def run_methods(docs: list[Document], names: list[str], template: site_template.Template,
                workers: int) -> dict[str, list[dict[str, Any]]]:
    """Every method on every page (the template methods with ``template``), scored."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "template.json.gz")
        site_template.save(template, path)
        options: dict[str, Any] = {}
        for name in names:
            if registry.uses_template(name):
                options.update(registry.with_template(name, path))
        scorer = PageScorer(options=tuple(options.items()))
        records = list(execute([PageJob("daniel", d, m) for m in names for d in docs], scorer, workers))
    by_method: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_method[r["method"]].append(r)
    return by_method


def tables(docs: list[Document], names: list[str], by_method: dict[str, list[dict[str, Any]]]
           ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Seed 004's measures per method overall, and per site and method."""
    host_of = {d.id: d.meta["host"] for d in docs}
    overall = {m: summary(by_method[m]) for m in names}
    per_site: dict[str, dict[str, Any]] = defaultdict(dict)
    for m in names:
        grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in by_method[m]:
            grouped[host_of[r["id"]]].append(r)
        for host, rs in grouped.items():
            per_site[host][m] = summary(rs)
    return overall, per_site


def print_losses(names: list[str], overall: dict[str, Any], per_site: dict[str, dict[str, Any]],
                 failed_pages: int) -> None:
    """The best single-page method overall, and the sites where the first method is below
    the best single-page method on that site."""
    first = names[0]
    single = [m for m in names if not registry.uses_template(m)]
    if not single:
        return
    best = max(single, key=lambda m: overall[m]["exactitude"])
    print(f"\nbest single-page method: {best} {100 * overall[best]['exactitude']:.1f} %; "
          f"{first} {100 * overall[first]['exactitude']:.1f} %; failed pages of {first}: {failed_pages}")
    losses = []
    for host in sorted(per_site):
        mine = per_site[host][first]["exactitude"]
        top = max(single, key=lambda m: per_site[host][m]["exactitude"])
        if mine < per_site[host][top]["exactitude"]:
            losses.append(f"{host} ({per_site[host][first]['pages']} p.): {100 * mine:.0f} % vs "
                          f"{top} {100 * per_site[host][top]['exactitude']:.0f} %")
    print(f"sites where {first} is below the best single-page method there ({len(losses)} of {len(per_site)}):")
    for line in losses:
        print("  " + line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    ap.add_argument("--methods", nargs="+", default=DEFAULT_METHODS)
    ap.add_argument("--min-pages", type=int, default=5)
    ap.add_argument("--per-site", type=int, default=None)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--clustering", choices=["agglomerative", "kmeans"], default="agglomerative")
    ap.add_argument("--sites", action="store_true", help="the per-site table of the first method")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    folder = args.datasets / "daniel"
    if not (folder / "meta.jsonl").exists():
        print(f"no DANIEL dataset at {folder}", file=sys.stderr)
        return 2
    dataset = load_dataset(folder)
    docs = pages_of(list(dataset.scorable), args.min_pages, args.per_site, args.seed)
    hosts = {d.meta["host"] for d in docs}
    print(f"{len(docs)} pages of {len(hosts)} DANIEL hosts with ≥ {args.min_pages} pages"
          + (f", {args.per_site} per site (seed {args.seed})" if args.per_site else ""), file=sys.stderr)

    t0 = time.perf_counter()
    jobs = [Job(d.id, str(d.html_path), None, d.meta.get("url")) for d in docs]
    template, failed = site_template.fit_jobs(jobs, workers=args.workers,
                                              method=args.clustering)  # type: ignore[arg-type]
    fit_s = time.perf_counter() - t0
    rows = site_template.describe(template)
    print(f"template fitted in {fit_s:.1f} s: {sum(r['templates'] for r in rows)} templates, "
          f"{sum(r['outliers'] for r in rows)} outlier pages, {len(failed)} failed", file=sys.stderr)

    by_method = run_methods(docs, args.methods, template, args.workers)
    overall, per_site = tables(docs, args.methods, by_method)
    first = args.methods[0]
    if args.sites:
        print(HEADER.format(f"site ({first})"))
        for host in sorted(per_site):
            print(row(host, per_site[host][first]))
        print(row(f"total ({len(docs)} pages)", overall[first]))
        print()
    print(HEADER.format("method"))
    for m in args.methods:
        print(row(m, overall[m]))
    failed_pages = sum(1 for r in by_method[first] if r.get("ok") is False)
    print_losses(args.methods, overall, per_site, failed_pages)
    if args.json:
        args.json.write_text(json.dumps({"overall": overall, "sites": per_site,
                                         "fit_seconds": fit_s}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
