"""How do the two template clusterings behave on DANIEL's sites?

For the DANIEL hosts with at least 5 pages (all 71 by default, or a seeded sample of
``--hosts N``), every page is loaded (detourage.api.load), given its MinHash signature
(detourage.site.distance), and each host's distance matrix is clustered with both methods
of detourage.site.cluster.  Per method it reports the mean k, the share of pages that are
outliers, the mean silhouette (over hosts where one was computed; how many ended with one cluster),
determinism (clustered twice: identical labels), the clustering time per host, and the
agreement of the two methods (adjusted Rand index, outliers each their own label).

    PYTHONPATH=benchmarks python benchmarks/studies/template_clusters.py [--hosts N] [--seed 4] [--max-k 10]
    PYTHONPATH=benchmarks python benchmarks/studies/template_clusters.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

try:
    from sklearn.metrics import adjusted_rand_score  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - the script needs the extra
    raise SystemExit('template_clusters.py needs scikit-learn: pip install "detourage[site]"') from None

import _common
from detourage.api import load
from detourage.gold import GoldPage, load_dataset
from detourage.site import cluster as sc, distance as sd


def hosts_of(docs: list[GoldPage], hosts: int | None, seed: int) -> dict[str, list[GoldPage]]:
    """Hosts with ≥ 5 pages (all, or a seeded sample of ``hosts``), pages sorted by id."""
    by_host: dict[str, list[GoldPage]] = defaultdict(list)
    for doc in docs:
        by_host[str(doc.meta.get("host") or "")].append(doc)
    eligible = sorted(h for h, d in by_host.items() if h and len(d) >= 5)
    if hosts is not None:
        eligible = sorted(random.Random(seed).sample(eligible, min(hosts, len(eligible))))
    return {h: sorted(by_host[h], key=lambda d: d.id) for h in eligible}


def _distinct(labels: tuple[int, ...]) -> list[int]:
    """Labels with each outlier its own cluster (for the Rand index)."""
    return [lab if lab >= 0 else -1 - i for i, lab in enumerate(labels)]


def measure_host(docs: list[GoldPage], max_k: int | None, seed: int) -> dict[str, Any]:
    """Cluster one host's pages with both methods, twice each."""
    d = sd.distances([sd.signature(load(doc.read_html()).tree) for doc in docs])
    out: dict[str, Any] = {"pages": len(docs)}
    for method in sc.METHODS:
        t0 = time.perf_counter()
        first = sc.cluster(d, method=method, max_k=max_k, seed=seed)  # type: ignore[arg-type]
        elapsed = time.perf_counter() - t0
        second = sc.cluster(d, method=method, max_k=max_k, seed=seed)  # type: ignore[arg-type]
        out[method] = {"k": first.k, "outliers": len(first.outliers),
                       "silhouette": first.silhouette, "same": first == second,
                       "seconds": elapsed, "labels": first.labels}
    a, b = (out[m]["labels"] for m in sc.METHODS)
    out["ari"] = float(adjusted_rand_score(_distinct(a), _distinct(b)))
    return out


def summarise(results: dict[str, dict[str, Any]], method: str) -> dict[str, Any]:
    """One method's figures over all hosts."""
    rows = [r[method] for r in results.values()]
    pages = sum(r["pages"] for r in results.values())
    split = [r["silhouette"] for r in rows if r["silhouette"] == r["silhouette"]]
    return {
        "mean_k": statistics.mean(r["k"] for r in rows),
        "outlier_share": sum(r["outliers"] for r in rows) / pages,
        "mean_silhouette": statistics.mean(split) if split else float("nan"),
        "hosts_split": len(split),
        "hosts_one_cluster": sum(r["k"] == 1 for r in rows),
        "deterministic": sum(r["same"] for r in rows) / len(rows),
        "ms_per_host": 1e3 * statistics.mean(r["seconds"] for r in rows),
    }


def report(results: dict[str, dict[str, Any]], runtime: float) -> dict[str, Any]:
    """Print the Markdown table; return the figures."""
    hosts, pages = len(results), sum(r["pages"] for r in results.values())
    summary = {m: summarise(results, m) for m in sc.METHODS}
    ari = [r["ari"] for r in results.values()]
    print(f"{hosts} hosts, {pages} pages\n")
    print(_common.table_head(["method", "mean k", "outlier share", "mean silhouette (hosts scored)", "hosts k=1",
                              "identical on rerun", "ms/host"]))
    for method, s in summary.items():
        print(f"| {method} | {s['mean_k']:.2f} | {s['outlier_share']:.3f} "
              f"| {s['mean_silhouette']:.2f} ({s['hosts_split']}) | {s['hosts_one_cluster']} "
              f"| {s['deterministic']:.0%} | {s['ms_per_host']:.1f} |")
    print(f"\nagreement (adjusted Rand index, agglomerative vs kmeans): mean "
          f"{statistics.mean(ari):.2f}, median {statistics.median(ari):.2f}, "
          f"identical partitions on {sum(a == 1.0 for a in ari)}/{hosts} hosts")
    print(f"runtime {runtime:.1f} s (loading, signatures, clustering)")
    return {"hosts": hosts, "pages": pages, "methods": summary,
            "ari_mean": statistics.mean(ari), "ari_median": statistics.median(ari),
            "runtime_s": runtime}


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_datasets(ap)
    ap.add_argument("--hosts", type=int, default=None, help="seeded sample of hosts (default all)")
    ap.add_argument("--seed", type=int, default=4, help="host sample and K-Means seed")
    ap.add_argument("--max-k", type=int, default=None,
                    help=f"largest k tried (default {sc.DEFAULT_MAX_K})")
    _common.add_json(ap)
    args = ap.parse_args(argv)
    folder = args.datasets / "daniel"
    if not folder.exists():
        print(f"{folder} is absent: point --datasets at the shared datasets", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    hosts = hosts_of(list(load_dataset(folder).documents), args.hosts, args.seed)
    results = {h: measure_host(d, args.max_k, args.seed) for h, d in hosts.items()}
    overall = report(results, time.perf_counter() - t0)
    if args.json:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()},
                                         "hosts": results, "overall": overall}, indent=1,
                                        default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main())
