"""How faithfully the peers' text maps onto our blocks, and how the peers score.

For each sampled page of each dataset and each peer (``detourage.methods.peers``):

- the peer's own output text is taken (its library's documented default call);
- it is aligned onto the page's blocks (``peers.mappable``, then ``peers.align``), labelled
  and rendered as txt, exactly as ``detourage extract -m peer-…`` would;
- *fidelity*: token F1 between the peer's text and our rendered txt, tokens being
  ``peers.tokens`` (case-folded words, one token per CJK/Thai character) matched in order
  (``metrics.matched_count``, Ratcliff/Obershelp); the target is ≥ 0.97.  It measures the
  mapping, so it leaves out the peer lines that are text of no block of the page
  (``peers.unmapped``: script code, fallback strings), which no mapping can hold: their
  share of the peer's tokens is reported apart (*unmapped*), and *fidelity (all)* is the
  same F1 with them counted;
- the rendered output is scored against the gold with ``evaluate.score_page`` (TO F1,
  shingle F1), as ``detourage evaluate`` scores a method;
- peer lines that did not make it into our output (under half their tokens matched) are
  classified: in the page ``<title>``, in an attribute (alt, title, content…), in a
  ``<script>`` element's code, or other.

A page where the peer raises is scored as an empty output (a crash is a miss) and counted.

    python benchmarks/peers_mapping.py --sample 50 --jobs 2 [--json peers.json]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from multiprocessing import Pool
from typing import Any

import _common
from detourage.api import load
from detourage.evaluation import metrics
from detourage.evaluation.evaluate import score_page
from detourage.gold import GoldPage, load_dataset
from detourage.methods import peers
from detourage.methods.common import label_paragraphs
from detourage.model import Labels, Result
from detourage.render import MARKERS, render_txt, units

_SCRIPT = re.compile(r"<script[^>]*>(.*?)</script", re.I | re.S)
_ATTR = re.compile(r'(?:alt|title|content|value|aria-label|placeholder)\s*=\s*["\']([^"\']*)["\']', re.I)


def token_f1(a: list[str], b: list[str]) -> float:
    if not a and not b:
        return 1.0
    m = metrics.matched_count(a, b)
    return 2 * m / (len(a) + len(b))


def one_page(job: tuple[str, GoldPage, str]) -> dict[str, Any]:
    dataset, doc, name = job
    logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)  # nested-<a> warnings, parse errors
    peer = peers.PEERS[name]
    rec: dict[str, Any] = {"dataset": dataset, "id": doc.id, "peer": name, "error": None}
    page = load(doc.read_html(), url=doc.meta.get("url"))
    t0 = time.perf_counter()
    try:
        lines = peer.extract_text(page, peer.options())
    except Exception as exc:  # noqa: BLE001 - a crash is a miss, counted by type
        lines, rec["error"] = [], type(exc).__name__
    t1 = time.perf_counter()
    text, unmapped = peers.mappable(page.blocks, lines)
    keep = peers.align(page.blocks, text) if page.blocks else []
    labels = Labels(name, label_paragraphs(page.blocks, keep))
    result = Result(page, labels, units(page.blocks, labels.labels))
    t2 = time.perf_counter()
    rec["ms_peer"], rec["ms_align"] = (t1 - t0) * 1000, (t2 - t1) * 1000
    ours, theirs = peers.tokens(render_txt(result)), peers.tokens("\n".join(lines))
    rec["fidelity"] = token_f1(peers.tokens("\n".join(text)), ours)
    rec["fidelity_all"] = token_f1(theirs, ours)
    rec["unmapped_tokens"] = len(peers.tokens("\n".join(unmapped)))
    rec["peer_tokens"], rec["our_tokens"] = len(theirs), len(ours)
    rec["lost"] = _lost_lines(lines, ours, page)
    pred = [(MARKERS[u.kind], u.text) for u in result.units if u.text]
    if doc.gold_kind is not None and doc.scorable:
        rec.update(score_page(pred, doc))
    return rec


def _lost_lines(lines: list[str], ours: list[str], page: Any) -> list[tuple[str, str]]:
    """Peer lines under half of whose tokens occur in our output, with where they came from."""
    bag = Counter(ours)
    title = set(peers.tokens(page.title))
    attrs = set(peers.tokens(" ".join(_ATTR.findall(page.html))))
    scripts = set(peers.tokens(" ".join(_SCRIPT.findall(page.html))))
    lost = []
    for line in lines:
        toks = peers.tokens(line)
        if not toks or sum(1 for t in toks if bag[t]) >= len(toks) / 2:
            continue
        where = ("title" if set(toks) <= title else "attribute" if set(toks) <= attrs
                 else "script" if set(toks) <= scripts else "other")
        lost.append((where, line[:120]))
    return lost


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_datasets(ap)
    ap.add_argument("--only", nargs="*", help="dataset names (default: all)")
    ap.add_argument("--peers", nargs="*", default=list(peers.PEERS))
    ap.add_argument("--sample", type=int, default=50, help="pages per dataset (seeded), 0 = all")
    ap.add_argument("--jobs", type=int, default=2)
    _common.add_json(ap, "every page's record")
    args = ap.parse_args(argv)
    if not args.datasets.is_dir():
        print(f"no datasets folder at {args.datasets} (use --datasets)", file=sys.stderr)
        return 2
    missing = [n for n in args.peers if not peers.installed(n)]
    if missing:
        print(f"not installed, skipped: {', '.join(missing)} ({peers.INSTALL_HINT})", file=sys.stderr)
    names = [n for n in args.peers if n not in missing]
    jobs = []
    for path in sorted(p for p in args.datasets.iterdir() if p.is_dir()):
        if args.only and path.name not in args.only:
            continue
        docs = list(load_dataset(path).documents)
        if args.sample and len(docs) > args.sample:
            docs = sorted(random.Random(0).sample(docs, args.sample), key=lambda d: d.id)
        jobs += [(path.name, d, n) for d in docs for n in names]
    t0 = time.perf_counter()
    with Pool(args.jobs) as pool:
        records = pool.map(one_page, jobs, chunksize=4)
    print(f"{len(jobs)} page×peer runs in {time.perf_counter() - t0:.0f} s\n")
    report(records)
    if args.json:
        args.json.write_text(json.dumps(records, ensure_ascii=False, indent=1))
    return 0


def report(records: list[dict[str, Any]]) -> None:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        for ds in (r["dataset"], "all"):
            groups[r["peer"], ds].append(r)
    print(_common.table_head(["peer", "dataset", "pages", "errors", "fidelity mean", "fidelity median", "pages ≥0.97",
                              "fidelity (all) mean", "unmapped", "TO F1 (macro)", "shingle F1", "snippet acc",
                              "ms/page peer (median)", "ms/page align (median)"]))
    for (name, ds), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] == "all", kv[0][1])):
        fid = [r["fidelity"] for r in rs]
        scored = [r for r in rs if "to_f1" in r]
        to = statistics.mean(r["to_f1"] for r in scored) if scored else None
        sh = _shingle_f1(scored)
        sn = [r for r in rs if "snippet_tp" in r]
        acc = statistics.mean(r["snippet_accuracy"] for r in sn) if sn else None
        errors = Counter(r["error"] for r in rs if r["error"])
        unmapped = sum(r["unmapped_tokens"] for r in rs) / max(1, sum(r["peer_tokens"] for r in rs))
        print(f"| {name} | {ds} | {len(rs)} | {dict(errors) or 0} | {statistics.mean(fid):.4f} | "
              f"{statistics.median(fid):.4f} | {sum(f >= 0.97 for f in fid) / len(fid):.1%} | "
              f"{statistics.mean(r['fidelity_all'] for r in rs):.4f} | {unmapped:.2%} | "
              f"{_f(to)} | {_f(sh)} | {_f(acc)} | {statistics.median(r['ms_peer'] for r in rs):.1f} | "
              f"{statistics.median(r['ms_align'] for r in rs):.1f} |")
    print("\nPeer lines lost by the mapping (under half their tokens in our output), by origin:")
    for name in sorted({r["peer"] for r in records}):
        lost = [x for r in records if r["peer"] == name for x in r["lost"]]
        print(f"- {name}: {dict(Counter(w for w, _ in lost))}; e.g. "
              + "; ".join(repr(t) for _, t in lost[:4]))


def _shingle_f1(rs: list[dict[str, Any]]) -> float | None:
    """Shingle F1 as ``detourage evaluate`` reports it: F1 of the page-averaged P and R."""
    if not rs:
        return None
    counts = [metrics.ShingleCounts(r["shingle_tp"], r["shingle_fp"], r["shingle_fn"]) for r in rs]
    return metrics.shingle_summary(counts, n_bootstrap=0).f1


def _f(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


if __name__ == "__main__":
    sys.exit(main())
