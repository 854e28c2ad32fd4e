"""Crawling a local site of the shared pages through its sitemaps, then cleaning the WARC.

The shared datasets' pages are served by the tests' local server
(``tests/fetch_server.py``, ``site_of_pages``: a robots.txt naming a sitemap index,
sitemaps of 1 000 URLs, every other one gzipped) on 127.0.0.1.  ``detourage fetch``'s
crawl (:func:`detourage.web.crawl`) finds the URLs through robots.txt and the sitemaps
and fetches them with the per-host delay at 0 and ``--per-host`` requests at a time
(the politeness a site gives its owner); the script prints pages/s, the WARC's size
and the outcomes.  Then ``detourage extract WARC -o RUN --to parquet`` cleans it, and
the script prints its rows and time.

Server and crawler share this machine's cores: the pages/s are a floor for a crawler
whose server is elsewhere.

    python benchmarks/fetch_site.py                       # every shared page (about 3 700)
    python benchmarks/fetch_site.py --sample 200 --per-host 4
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common

sys.path.insert(0, str(_common.ROOT / "tests"))

from fetch_server import Site, site_of_pages

from detourage.gold import load_dataset
from detourage.web import Politeness, crawl


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=None, help="pages per dataset (default: all)")
    parser.add_argument("--per-host", type=int, default=8, help="requests at a time to the site (default 8)")
    parser.add_argument("--workers", type=int, default=8, help="crawler threads (default 8)")
    parser.add_argument("--extract-workers", type=int, default=0, help="extract -w (default 0: one per CPU)")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def shared_pages(sample: int | None, seed: int) -> dict[str, bytes]:
    """Path on the local site → page bytes, for the shared datasets' pages."""
    pages: dict[str, bytes] = {}
    for root in _common.every_dataset():
        docs = list(load_dataset(root).documents)
        if sample is not None and sample < len(docs):
            docs = random.Random(seed).sample(docs, sample)
        for doc in docs:
            pages[f"/{root.name}/{doc.id}.html"] = doc.read_html()
    return pages


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not all((d / "html").is_dir() for d in _common.every_dataset()):
        print(f"the shared datasets are not in {_common.SHARED}", file=sys.stderr)
        return 2
    pages = shared_pages(args.sample, args.seed)
    size = sum(map(len, pages.values()))
    with tempfile.TemporaryDirectory(prefix="fetch-bench-") as tmp, Site(site_of_pages(pages)) as site:
        warc = Path(tmp) / "crawl.warc.gz"
        politeness = Politeness(delay=0, per_host=args.per_host, timeout=30,
                                allow_private=True)  # its own loopback site
        started = time.perf_counter()
        summary = crawl(out=warc, sitemaps=[site.url("/")], politeness=politeness, workers=args.workers)
        seconds = time.perf_counter() - started
        sitemaps = sum(1 for r in site.requests if "sitemap" in r.path)
        print(f"{len(pages)} pages ({size / 2**20:.1f} MiB of HTML) served on {site.base}; "
              f"{len(site.requests)} requests (robots.txt 1, sitemap files {sitemaps})")
        print()
        print(_common.table_head(["stage", "pages", "seconds", "pages/s", "output"], "lrrrl"))
        outcomes = ", ".join(f"{k} {v}" for k, v in summary.outcomes.most_common())
        print(_common.table_row(["crawl (sitemaps, then pages)", summary.fetched, f"{seconds:.1f}",
                                 f"{summary.fetched / seconds:.0f}",
                                 f"WARC {summary.warc_bytes / 2**20:.1f} MiB; {outcomes}"]))
        run = Path(tmp) / "run"
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "detourage", "extract", str(warc), "-o", str(run), "--to",
                               "parquet", "-w", str(args.extract_workers), "--no-progress"],
                              capture_output=True, text=True)
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        import pyarrow.parquet as pq

        table = pq.read_table(run / "shards", columns=["error"])
        ok = sum(1 for e in table.column("error").to_pylist() if not e)
        print(_common.table_row(["extract --to parquet", ok, f"{seconds:.1f}", f"{ok / seconds:.0f}",
                                 f"{table.num_rows} rows, {table.num_rows - ok} with an error"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
