"""How the template method scales: fit + extract for 50, 200, 1000 pages of one site, and
the cost of applying a fitted template to a new page.

The pages are real DANIEL pages of one host (``--host``, default the largest), repeated
with variations to reach the sizes: copy *i* of a page gets its own URL and, in every text
node of at least 8 words, its words rotated by a copy-dependent amount (so that each copy
is a new article on the same template, not a duplicate the fit would merge).  For each size the script
times, in one process (``--workers 1``, the default) or a pool:

* fit: read, parse and summarise every page, cluster, build the template;
* extract: ``-m template`` on every page with that template;

then fits a power law t = a·n^b over the sizes (b ≈ 1: linear) and reports the peak
resident memory (ru_maxrss) of the process.  Finally, with the template of the largest
size, it measures per page, on pages the fit has not seen (the host's pages with their
words rotated by an unseen amount), the median time of ``api.load`` alone (parse-only)
and of ``api.load`` + the template method, and their ratio (target ≤ 5×).

    python benchmarks/template_scale.py [--host H] [--sizes 50 200 1000] [--workers 1]
"""

from __future__ import annotations

import argparse
import math
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
from lxml import etree, html as lxml_html

import _common
from detourage.api import load, run
from detourage.corpus import Job, Step, execute
from detourage.gold import load_dataset
from detourage.methods import with_template
from detourage.settings import Settings
from detourage.site import template as site_template

MIN_WORDS = 8


def _rotate(text: str | None, copy: int) -> str | None:
    words = (text or "").split()
    if len(words) < MIN_WORDS:
        return text
    k = copy % len(words)
    return " ".join(words[k:] + words[:k]) + f" {copy} "


def variant(data: bytes, url: str, copy: int) -> tuple[bytes, str]:
    """Copy ``copy`` of a page: the words of its long text nodes (≥ MIN_WORDS words, the
    article's and a few others) rotated by ``copy`` and marked, its own URL."""
    if copy == 0:
        return data, url
    root = lxml_html.fromstring(data)
    for el in root.iter(etree.Element):
        if el.tag in ("script", "style"):
            continue
        el.text = _rotate(el.text, copy)
        el.tail = _rotate(el.tail, copy)
    sep = "&" if "?" in url else "?"
    return lxml_html.tostring(root, encoding="utf-8"), f"{url}{sep}copy={copy}"


def pages_for(docs: list, n: int, offset: int = 0) -> list[Job]:
    jobs = []
    for i in range(n):
        doc = docs[i % len(docs)]
        data, url = variant(doc.read_html(), doc.meta.get("url") or "", offset + i // len(docs))
        jobs.append(Job(f"{doc.id}-{offset + i // len(docs)}", None, data, url))
    return jobs


def time_size(jobs: list[Job], workers: int) -> tuple[float, float, dict]:
    t0 = time.perf_counter()
    template, failed = site_template.fit_jobs(jobs, workers=workers)
    fit_s = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "t.json.gz")
        site_template.save(template, path)
        size = Path(path).stat().st_size
        step = Step(settings=Settings(method="template", options=tuple(with_template("template", path).items())))
        t1 = time.perf_counter()
        records = list(execute(jobs, step, workers))
        extract_s = time.perf_counter() - t1
    rows = site_template.describe(template)
    return fit_s, extract_s, {"templates": sum(r["templates"] for r in rows),
                              "outliers": sum(r["outliers"] for r in rows), "failed": len(failed),
                              "extract_failed": sum(not r["ok"] for r in records), "bytes": size}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_datasets(ap)
    ap.add_argument("--host", default=None)
    ap.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--apply-pages", type=int, default=60)
    args = ap.parse_args()
    folder = args.datasets / "daniel"
    if not (folder / "meta.jsonl").exists():
        print(f"no DANIEL dataset at {folder}", file=sys.stderr)
        return 2
    docs = list(load_dataset(folder).documents)
    hosts = Counter(d.meta.get("host") for d in docs if d.meta.get("host"))
    host = args.host or hosts.most_common(1)[0][0]
    site_docs = sorted((d for d in docs if d.meta.get("host") == host), key=lambda d: d.id)
    print(f"host {host}: {len(site_docs)} real pages; workers {args.workers}")

    print("| pages | fit s | extract s | total s | ms / page | templates | outliers | template KiB |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|")
    sizes, totals = [], []
    for n in args.sizes:
        jobs = pages_for(site_docs, n)
        fit_s, extract_s, info = time_size(jobs, args.workers)
        total = fit_s + extract_s
        sizes.append(n)
        totals.append(total)
        print(f"| {n} | {fit_s:.1f} | {extract_s:.1f} | {total:.1f} | {1000 * total / n:.1f} | "
              f"{info['templates']} | {info['outliers']} | {info['bytes'] / 1024:.0f} |", flush=True)
    if len(sizes) > 1:
        b, log_a = np.polyfit(np.log(sizes), np.log(totals), 1)
        print(f"fitted exponent b (t = a·n^b): {b:.2f}  (a = {math.exp(log_a) * 1000:.1f} ms)")
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB "
          f"(this process; workers not included)")

    # applying a fitted template to pages it has not seen
    jobs = pages_for(site_docs, max(args.sizes))
    template, _ = site_template.fit_jobs(jobs, workers=args.workers)
    fresh = pages_for(site_docs, min(args.apply_pages, len(site_docs)), offset=10_000)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "t.json.gz")
        site_template.save(template, path)
        options = with_template("template", path)
        parse_ms, apply_ms, fell_back = [], [], 0
        for job in fresh:  # warm the caches (template file, victor model, …)
            run(load(job.data, url=job.url), "template", options)
        for job in fresh:
            t0 = time.perf_counter()
            load(job.data, url=job.url)
            parse_ms.append(1000 * (time.perf_counter() - t0))
            t0 = time.perf_counter()
            result = run(load(job.data, url=job.url), "template", options)
            apply_ms.append(1000 * (time.perf_counter() - t0))
            fell_back += result.labels.details["template"]["fallback"] is not None
    pm, am = statistics.median(parse_ms), statistics.median(apply_ms)
    print(f"apply to {len(fresh)} unseen pages: parse-only median {pm:.2f} ms, load + template "
          f"median {am:.2f} ms = {am / pm:.2f}× parse-only (target ≤ 5×); {fell_back} fell back")
    return 0


if __name__ == "__main__":
    sys.exit(main())
