"""How much a per-page decision threshold could give the learned extractor on wcxb-dev,
and which pages want a lower one.

    PYTHONPATH=benchmarks python benchmarks/studies/threshold_oracle.py --models DIR   # ~2 min on 2 cores
    PYTHONPATH=benchmarks python benchmarks/studies/threshold_oracle.py --models DIR --shifts -0.2,0,0.2

``DIR`` holds the fold models ``learned_lodo.py --models DIR`` fits.  Each wcxb-dev page
is cleaned by the model of its host fold (one that never saw its host), the whole
pipeline, once per threshold shift (every page kind's threshold moved by the same
amount), and scored by shingle F1 against its gold.  Reported, per WCXB page type: the
mean page F1 at each shift, and the mean of each page's best (an oracle: the most a
per-page threshold could give).  Then the pages by the signal :mod:`detourage.learned.rules.doubt`
reads — the characters of the lines under the threshold by less than its band (lists of
links aside) against the kept characters — with what the shift of one band down gains
on them, by the kind the page is taken for.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

import _common
from detourage import loading
from detourage.api import extract
from detourage.evaluation import metrics
from detourage.learned import features, pagetype, train
from detourage.learned.forest import load_model
from detourage.learned.rules import doubt
from detourage.learned.rules.paragraphs import OPTION_CODE, column
from detourage.methods import learned
from learned_lodo import host_fold

ROOT = _common.DATASETS_EXTRA / "wcxb-dev"
#: the ratio buckets of the doubted characters to the kept ones
BUCKETS = (0.0, 0.1, 0.3, 0.6, 1.0, 2.0, 5.0, float("inf"))

_args: argparse.Namespace


def _f1(text: str, gold: str) -> float | None:
    counts = metrics.shingle_counts(text, gold)
    p, r = counts.precision or 0.0, counts.recall
    return None if r is None else (2 * p * r / (p + r) if p + r else 0.0)


def page(meta: dict) -> tuple[str, str, str, float, dict[float, float]] | None:
    """One page: its id, WCXB type, guessed kind, doubted/kept ratio, F1 by shift."""
    if meta.get("empty_gold"):
        return None
    raw = gzip.decompress((ROOT / "html" / f"{meta['id']}.html.gz").read_bytes())
    gold = (ROOT / "gold" / f"{meta['id']}.txt").read_text()
    path = _args.models / f"wcxb-dev-hosts{host_fold(train.host_of(meta['url']))}.zip"
    model = load_model(str(path))
    para = features.compute(loading.load(raw, url=meta["url"]))
    if not len(para):
        return None
    kind, _ = pagetype.guess(meta["url"], para)
    probability = model.probabilities(para)
    threshold = model.threshold + pagetype.THRESHOLD_SHIFT[kind]
    doubted, kept = doubt.doubted_chars(para, probability, threshold, column(para, "container_tag") != OPTION_CODE)
    ratio = doubted / max(kept, 1)
    base = dict(pagetype.THRESHOLD_SHIFT)
    scores = {}
    try:
        for shift in _args.shifts:
            pagetype.THRESHOLD_SHIFT.update({k: v + shift for k, v in base.items()})
            text = extract(raw, "learned", url=meta["url"], options={"learned": learned.Options(model=model)})
            scores[shift] = _f1(text, gold)
    finally:
        pagetype.THRESHOLD_SHIFT.update(base)
    if any(v is None for v in scores.values()):
        return None
    return meta["id"], meta["page_type"], kind, ratio, scores  # type: ignore[return-value]


def _init(args: argparse.Namespace) -> None:
    global _args
    _args = args


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=Path, required=True, help="the fold models of learned_lodo.py --models")
    parser.add_argument("--shifts", default="-0.3,-0.2,-0.1,0,0.1",
                        type=lambda s: [float(x) for x in s.split(",")], help="threshold shifts, comma-separated")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if 0.0 not in args.shifts:
        parser.error("--shifts must hold 0")
    if not ROOT.is_dir():
        print(f"no wcxb-dev at {ROOT}", file=sys.stderr)
        return 1
    started = time.perf_counter()
    metas = [json.loads(line) for line in (ROOT / "meta.jsonl").read_text().splitlines() if line.strip()]
    with ProcessPoolExecutor(args.workers, initializer=_init, initargs=(args,)) as pool:
        pages = [r for r in pool.map(page, metas, chunksize=8) if r is not None]
    by_type: dict[str, list[dict[float, float]]] = defaultdict(list)
    for _, page_type, _, _, scores in pages:
        by_type[page_type].append(scores)
        by_type["all"].append(scores)
    shifts = args.shifts
    print("| WCXB type | pages | " + " | ".join(f"shift {s:+.2f}" for s in shifts) + " | each page's best |")
    print("|---|---:|" + "---:|" * (len(shifts) + 1))
    for page_type, rows in sorted(by_type.items()):
        means = " | ".join(f"{np.mean([r[s] for r in rows]):.3f}" for s in shifts)
        print(f"| {page_type} | {len(rows)} | {means} | {np.mean([max(r.values()) for r in rows]):.3f} |")
    down = min(shifts, key=lambda s: abs(s + doubt.DOUBT_BAND))
    print(f"\nF1 gained, summed over the pages, by a shift of {down:+.2f}, by doubted/kept characters "
          "and the kind the page is taken for:\n")
    kinds = sorted({k for _, _, k, _, _ in pages})
    print("| doubted / kept | " + " | ".join(kinds) + " |")
    print("|---|" + "---|" * len(kinds))
    for lo, hi in zip(BUCKETS, BUCKETS[1:]):
        cells = []
        for kind in kinds:
            gains = [s[down] - s[0.0] for _, _, k, ratio, s in pages if k == kind and lo <= ratio < hi]
            cells.append(f"{sum(gains):+.2f} ({len(gains)})" if gains else "–")
        print(f"| {lo:g} – {hi:g} | " + " | ".join(cells) + " |")
    print(f"\n{len(pages)} pages in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
