"""trafilatura's ``extract`` against ``detourage.compat.trafilatura.extract``, same calls,
same pages: the time a switch of import line saves (or costs).

For each call (trafilatura's defaults, which keep comments; ``include_comments=False``;
Markdown with links and metadata) the script times both functions on the same pages,
each page given as bytes with its URL, one after the other in this process, and prints
the median and total milliseconds and the ratio.  ``include_comments=True`` costs
detourage a second labelling of the page (comment sections are given apart).

    python benchmarks/compat_speed.py                 # 100 pages of each shared dataset
    python benchmarks/compat_speed.py --sample 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import _common
from detourage.gold import load_dataset

CALLS = {
    "defaults (comments kept)": {},
    "include_comments=False": {"include_comments": False},
    "markdown, links, metadata": {"output_format": "markdown", "include_links": True, "with_metadata": True,
                                  "include_comments": False},
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=100, help="pages per dataset (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import trafilatura
    except ImportError:
        print("needs trafilatura: pip install 'detourage[peers]'", file=sys.stderr)
        return 2
    from detourage.compat import trafilatura as compat

    pages = []
    for root in _common.every_dataset():
        docs = list(load_dataset(root).documents)
        for doc in random.Random(args.seed).sample(docs, min(args.sample, len(docs))):
            pages.append((doc.read_html(), doc.meta.get("url")))
    for data, url in pages[:5]:  # warm both (models, caches)
        compat.extract(data, url=url)
        trafilatura.extract(data, url=url)
    print(f"{len(pages)} pages")
    print(_common.table_head(["call", "trafilatura ms (median / total)", "compat ms (median / total)",
                              "trafilatura ÷ compat"], "lrrr"))
    for name, kwargs in CALLS.items():
        times = {}
        for label, extract in (("trafilatura", trafilatura.extract), ("compat", compat.extract)):
            spent = []
            for data, url in pages:
                started = time.perf_counter()
                extract(data, url=url, **kwargs)
                spent.append((time.perf_counter() - started) * 1000)
            times[label] = spent
        t, c = times["trafilatura"], times["compat"]
        print(_common.table_row([name, f"{statistics.median(t):.1f} / {sum(t):.0f}",
                                 f"{statistics.median(c):.1f} / {sum(c):.0f}", f"{sum(t) / sum(c):.1f}×"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
