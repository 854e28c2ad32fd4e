"""Does the fast structural distance rank a site's pages as the exact one does?

For a seeded sample of DANIEL hosts with at least 5 pages (at most 8 pages each), computes
the MinHash distance (detourage.site.distance.signature / distances) and the exact ones —
the Zhang–Shasha tree edit distance over the visible element tree (capped at
``--max-nodes`` elements, normalised by n1 + n2) and the exact Jaccard distance of the
shingle sets — and reports per host and overall:

* Spearman's rank correlation between the fast and each exact distance (over page pairs);
* nearest-neighbour agreement: the share of pages whose nearest neighbour under the fast
  distance is the exact distance's nearest (NN@1), or one of its 2 nearest (NN@2);
* the median time of a signature beside the median parse time, per page.

    PYTHONPATH=benchmarks python benchmarks/studies/structure_distance.py [--hosts 8] [--pages 8] [--seed 4]
    PYTHONPATH=benchmarks python benchmarks/studies/structure_distance.py --json out.json
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

import numpy as np

import _common
from detourage.decode import decode
from detourage.gold import GoldPage, load_dataset
from detourage.parse import parse
from detourage.site import distance as sd


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation (average ranks for ties); nan when one side is constant."""
    rx, ry = _ranks(x), _ranks(y)
    if rx.std() == 0 or ry.std() == 0:
        return float("nan")
    return float(np.corrcoef(rx, ry)[0, 1])


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties sharing their mean rank."""
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[order] = np.arange(1, len(values) + 1)
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=ranks)
    return sums[inverse] / counts[inverse]


def nn_agreement(fast: np.ndarray, exact: np.ndarray, within: int) -> float:
    """Share of pages whose fast nearest neighbour is among the exact ``within`` nearest.

    Exact ties count (any page as close as the ``within``-th nearest is accepted); fast
    ties are broken at random, in expectation: a page scores the share of its tied fast
    nearest that the exact distance accepts.
    """
    n = len(fast)
    total = 0.0
    for i in range(n):
        others = np.asarray([j for j in range(n) if j != i])
        f, e = fast[i, others], exact[i, others]
        bound = np.sort(e)[min(within, len(e)) - 1]
        tied = others[f == f.min()]
        total += float(np.mean(exact[i, tied] <= bound))
    return total / n


def sample_hosts(docs: list[GoldPage], hosts: int, pages: int,
                 seed: int) -> dict[str, list[GoldPage]]:
    """A seeded sample of hosts with ≥ 5 pages, each cut to ``pages`` seeded pages."""
    by_host: dict[str, list[GoldPage]] = defaultdict(list)
    for doc in docs:
        by_host[str(doc.meta.get("host") or "")].append(doc)
    eligible = sorted(h for h, d in by_host.items() if h and len(d) >= 5)
    rng = random.Random(seed)
    chosen = sorted(rng.sample(eligible, min(hosts, len(eligible))))
    return {h: sorted(rng.sample(by_host[h], min(pages, len(by_host[h]))), key=lambda d: d.id)
            for h in chosen}


def measure_host(docs: list[GoldPage], options: sd.DistanceOptions, max_nodes: int) -> dict[str, Any]:
    """Both distance matrices of one host's pages, their agreement and the timings."""
    trees, parse_ms, sig_ms, sigs, shingles = [], [], [], [], []
    for doc in docs:
        t0 = time.perf_counter()
        tree = parse(decode(doc.read_html()).text)
        t1 = time.perf_counter()
        sigs.append(sd.signature(tree, options))
        t2 = time.perf_counter()
        parse_ms.append((t1 - t0) * 1e3)
        sig_ms.append((t2 - t1) * 1e3)
        shingles.append(sd.shingles(tree, options))
        trees.append(sd.ordered_tree(tree, max_nodes=max_nodes))
    fast = sd.distances(sigs)
    n = len(docs)
    ted = np.zeros((n, n))
    jac = np.zeros((n, n))
    t0 = time.perf_counter()
    for i in range(n):
        for j in range(i + 1, n):
            ted[i, j] = ted[j, i] = sd.normalised_tree_distance(trees[i], trees[j])
            jac[i, j] = jac[j, i] = sd.jaccard_distance(shingles[i], shingles[j])
    ted_s = time.perf_counter() - t0
    upper = np.triu_indices(n, 1)
    return {
        "pages": n, "nodes_median": statistics.median(len(t) for t in trees),
        "spearman_ted": spearman(fast[upper], ted[upper]),
        "spearman_jaccard": spearman(fast[upper], jac[upper]),
        "nn1": nn_agreement(fast, ted, 1), "nn2": nn_agreement(fast, ted, 2),
        "fast_mean": float(fast[upper].mean()), "ted_mean": float(ted[upper].mean()),
        "parse_ms": parse_ms, "sig_ms": sig_ms, "ted_s_per_pair": ted_s / len(upper[0]),
        "_fast": fast[upper], "_ted": ted[upper],
    }


def _fmt(x: float) -> str:
    return "–" if x != x else f"{x:.2f}"


def report(results: dict[str, dict[str, Any]], runtime: float) -> dict[str, Any]:
    """Print the Markdown table; return the overall figures."""
    print(_common.table_head(["host", "pages", "nodes (median, capped)", "mean d fast", "mean d TED", "ρ fast~TED",
                              "ρ fast~Jaccard", "NN@1", "NN@2", "TED s/pair"]))
    for host, r in results.items():
        print(f"| {host} | {r['pages']} | {r['nodes_median']:.0f} | {r['fast_mean']:.2f} "
              f"| {r['ted_mean']:.2f} | {_fmt(r['spearman_ted'])} | {_fmt(r['spearman_jaccard'])} "
              f"| {r['nn1']:.2f} | {r['nn2']:.2f} | {r['ted_s_per_pair']:.2f} |")
    rows = list(results.values())
    pages = sum(r["pages"] for r in rows)
    overall = {
        "hosts": len(rows), "pages": pages,
        "spearman_ted_mean_over_hosts": float(np.nanmean([r["spearman_ted"] for r in rows])),
        "spearman_ted_pooled": spearman(np.concatenate([r["_fast"] for r in rows]),
                                        np.concatenate([r["_ted"] for r in rows])),
        "spearman_jaccard_mean_over_hosts":
            float(np.nanmean([r["spearman_jaccard"] for r in rows])),
        "nn1": sum(r["nn1"] * r["pages"] for r in rows) / pages,
        "nn2": sum(r["nn2"] * r["pages"] for r in rows) / pages,
        "parse_ms_median": statistics.median(x for r in rows for x in r["parse_ms"]),
        "signature_ms_median": statistics.median(x for r in rows for x in r["sig_ms"]),
        "runtime_s": runtime,
    }
    print(f"\n**overall** ({overall['hosts']} hosts, {pages} pages): ρ fast~TED mean over hosts "
          f"{overall['spearman_ted_mean_over_hosts']:.2f}, "
          f"pooled {overall['spearman_ted_pooled']:.2f}; "
          f"ρ fast~Jaccard {overall['spearman_jaccard_mean_over_hosts']:.2f}; "
          f"NN@1 {overall['nn1']:.2f}, NN@2 {overall['nn2']:.2f}")
    print(f"per page: parse {overall['parse_ms_median']:.1f} ms (median), signature "
          f"{overall['signature_ms_median']:.1f} ms (median)")
    print(f"runtime {runtime:.1f} s")
    return overall


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_datasets(ap)
    ap.add_argument("--hosts", type=int, default=8, help="hosts sampled (default 8)")
    ap.add_argument("--pages", type=int, default=8, help="pages per host at most (default 8)")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--k", type=int, default=sd.DEFAULT_OPTIONS.k, help="paths per shingle")
    ap.add_argument("--classes", action="store_true", help="class tokens in the tag paths")
    ap.add_argument("--permutations", type=int, default=sd.DEFAULT_OPTIONS.permutations,
                    help="MinHash permutations")
    ap.add_argument("--max-nodes", type=int, default=sd.TED_MAX_NODES,
                    help=f"exact distance cap in elements (default {sd.TED_MAX_NODES})")
    _common.add_json(ap)
    args = ap.parse_args(argv)
    folder = args.datasets / "daniel"
    if not folder.exists():
        print(f"{folder} is absent: point --datasets at the shared datasets", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    hosts = sample_hosts(list(load_dataset(folder).documents), args.hosts, args.pages, args.seed)
    options = sd.DistanceOptions(k=args.k, classes=args.classes, permutations=args.permutations)
    results = {h: measure_host(d, options, args.max_nodes) for h, d in hosts.items()}
    overall = report(results, time.perf_counter() - t0)
    if args.json:
        clean = {h: {k: v for k, v in r.items() if not k.startswith("_")}
                 for h, r in results.items()}
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()},
                                         "hosts": clean, "overall": overall}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
