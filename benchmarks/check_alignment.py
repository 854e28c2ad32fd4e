"""Check the fast Ratcliff/Obershelp alignment against difflib on every gold file, and time both.

For each scorable page of each dataset under ``--datasets`` and each scoring mode, the
prediction is (a) the raw text of the page (``lxml.html.fromstring(bytes).text_content()``,
one "p" block per line) and (b) a seeded perturbation of the gold (blocks dropped,
duplicated, swapped, relabelled, edited; boilerplate blocks inserted).  Both
``detourage.gold.text.matching_blocks`` and
``difflib.SequenceMatcher(None, pred, gold, autojunk=False).get_matching_blocks()`` run;
the script reports whether the blocks are identical, the largest absolute difference of
P, R and F1 per page, and the times.  Any difference makes the exit status 1.

difflib visits every pair of equal tokens of a range, so on characters (CAR) a large
page costs minutes (CleanEval dev page 15: 184 s); pages whose first difflib step would
visit more than ``--difflib-max-pairs`` pairs are timed with the fast method only and
counted as skipped.

    PYTHONPATH=src python benchmarks/check_alignment.py --jobs 2
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
import time
import zlib
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import lxml.html

import _common
from detourage.evaluation.metrics import Counts, Mode, mode_tokens
from detourage.gold import GoldBlock, load_dataset
from detourage.gold.text import matching_blocks

NOISE = ["Home", "|", "News", "|", "Contact", "Share", "this", "article", "©", "2012", "the", "of"]


def page_blocks(html: bytes) -> list[GoldBlock]:
    """The raw text of a page, one "p" block per non-blank line."""
    text = lxml.html.fromstring(html).text_content()
    return [("p", line) for line in text.splitlines() if line.strip()]


def perturbed(gold: list[GoldBlock], seed: int) -> list[GoldBlock]:
    """A seeded perturbation of gold blocks (what an imperfect cleaner returns)."""
    rng = random.Random(seed)
    out: list[GoldBlock] = []
    for kind, text in gold:
        roll = rng.random()
        if rng.random() < 0.1:
            out.append(("p", " ".join(rng.choices(NOISE, k=rng.randint(1, 12)))))
        if roll < 0.1:
            continue
        words = text.split()
        if roll < 0.25 and words:
            del words[rng.randrange(len(words))]
            words.insert(rng.randrange(len(words) + 1), rng.choice(NOISE))
        if roll > 0.95:
            kind = rng.choice("phl")
        out.append((kind, " ".join(words)))
        if roll > 0.9:
            out.append((kind, " ".join(words)))
    if len(out) > 2 and rng.random() < 0.5:
        x = rng.randrange(len(out) - 1)
        out[x], out[x + 1] = out[x + 1], out[x]
    return out


def difflib_pairs(a: list[str], b: list[str]) -> int:
    """Pairs of equal tokens: what difflib's first step visits."""
    cb = Counter(b)
    return sum(n * cb[t] for t, n in Counter(a).items())


Task = tuple[str, str, Path, list[GoldBlock], list[str], int]
Record = dict[str, Any]


def check_one(task: Task) -> list[Record]:
    """All modes and predictions of one page: equality, score differences, times."""
    dataset, doc_id, html_path, gold, modes, max_pairs = task
    preds = {"page": page_blocks(html_path.read_bytes()),
             "perturbed": perturbed(gold, zlib.crc32(doc_id.encode()))}
    records = []
    for pred_name, pred in preds.items():
        for mode in modes:
            a, b = mode_tokens(pred, mode), mode_tokens(gold, mode)
            t0 = time.perf_counter()
            fast = matching_blocks(a, b)
            t_fast = time.perf_counter() - t0
            rec: Record = {
                "dataset": dataset, "id": doc_id, "pred": pred_name, "mode": mode,
                "pred_tokens": len(a), "gold_tokens": len(b), "fast_s": t_fast,
            }
            pairs = difflib_pairs(a, b)
            if pairs > max_pairs:
                rec["skipped_pairs"] = pairs
                records.append(rec)
                continue
            t0 = time.perf_counter()
            matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
            slow = [tuple(x) for x in matcher.get_matching_blocks()]
            rec["difflib_s"] = time.perf_counter() - t0
            cf = Counts(sum(k for *_, k in fast), len(a), len(b))
            cs = Counts(sum(k for *_, k in slow), len(a), len(b))
            rec["same_blocks"] = fast == slow
            rec["max_abs_diff"] = max(abs(cf.precision - cs.precision), abs(cf.recall - cs.recall),
                                      abs(cf.f1 - cs.f1))
            records.append(rec)
    return records


def report(records: list[Record]) -> bool:
    """Print a summary per (prediction, mode); True when every compared page agrees."""
    ok = True
    print(f"{'pred':10s} {'mode':5s} {'pages':>6s} {'compared':>8s} {'skipped':>7s} "
          f"{'identical':>9s} "
          f"{'max|dPRF|':>9s} {'fast s':>8s} {'difflib s':>9s} {'fast s (same pages)':>19s} "
          f"{'slowest fast page':>30s}")
    for key in sorted({(r["pred"], r["mode"]) for r in records}):
        rs = [r for r in records if (r["pred"], r["mode"]) == key]
        cmp = [r for r in rs if "difflib_s" in r]
        same = sum(bool(r["same_blocks"]) for r in cmp)
        diff = max((float(r["max_abs_diff"]) for r in cmp), default=0.0)
        ok &= same == len(cmp) and diff == 0.0
        slow = max(rs, key=lambda r: float(r["fast_s"]))
        print(f"{key[0]:10s} {key[1]:5s} {len(rs):6d} {len(cmp):8d} {len(rs) - len(cmp):7d} "
              f"{same:9d} "
              f"{diff:9.2g} {sum(float(r['fast_s']) for r in rs):8.2f} "
              f"{sum(float(r['difflib_s']) for r in cmp):9.2f} "
              f"{sum(float(r['fast_s']) for r in cmp):19.2f} "
              f"{float(slow['fast_s']):6.3f}s {slow['pred_tokens']}x{slow['gold_tokens']} tok")
    return ok


def main() -> int:
    """Run the check over the datasets and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_datasets(parser)
    parser.add_argument("--only", default="", help="comma-separated dataset names (default: all)")
    parser.add_argument("--modes", default=",".join(m.value for m in Mode))
    parser.add_argument("--difflib-max-pairs", type=int, default=30_000_000)
    parser.add_argument("--limit", type=int, default=0, help="pages per dataset (0: all)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--output", type=Path, help="write every page record as JSON lines")
    args = parser.parse_args()
    modes = [Mode(m).value for m in args.modes.split(",")]
    tasks: list[Task] = []
    for folder in sorted(p for p in args.datasets.iterdir() if (p / "gold").is_dir()):
        if args.only and folder.name not in args.only.split(","):
            continue
        docs = load_dataset(folder).scorable
        docs = docs[: args.limit] if args.limit else docs
        tasks += [(folder.name, d.id, d.html_path, list(d.gold_blocks), modes,
                   args.difflib_max_pairs) for d in docs]
    t0 = time.perf_counter()
    records: list[Record] = []
    with Pool(args.jobs) as pool:
        for done, rs in enumerate(pool.imap_unordered(check_one, tasks, chunksize=4), 1):
            records += rs
            if done % 250 == 0:
                print(f"{done}/{len(tasks)} pages", file=sys.stderr, flush=True)
    print(f"{len(tasks)} pages, {len(records)} alignments, {time.perf_counter() - t0:.0f} s wall")
    if args.output:
        args.output.write_text("".join(json.dumps(r) + "\n" for r in records))
    ok = report(records)
    print("OK: fast alignment identical to difflib" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
