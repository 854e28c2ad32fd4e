"""How often the page's kind is guessed right (issue 43 §2, docs/page-types.md).

wcxb-dev names each page's type (WCXB's seven): the table crosses them with
:func:`detourage.learned.pagetype.guess`.  The other datasets hold news articles
(CleanEval's English pages are of every kind, and left out): their row counts the pages
called something else, each a page whose threshold moved for nothing.  What told the
kind (declared type, address, text, default) is counted too.  ``--no-urls`` guesses
without the URL the dataset knows, from the HTML alone (as a benchmark's harness passes a
page): the address is then the one the page declares (``<link rel=canonical>``, ``og:url``).

    python benchmarks/page_types.py            # about a minute
    python benchmarks/page_types.py --no-urls
    python benchmarks/page_types.py --json types.json
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

import _common
from detourage.learned import features, pagetype
from detourage.loading import load

#: the datasets of news articles, and the share of DANIEL read (every third page)
ARTICLE_SETS = {"cleanportaleval": 1, "l3s-gn1": 1, "daniel": 3}


def guesses(folder: Path, every: int = 1, urls: bool = True) -> list[dict]:
    """The kind guessed for every ``every``-th page of a dataset, beside its own type
    (with the page's URL, or without ``urls`` from its HTML alone)."""
    rows = []
    metas = [json.loads(line) for line in (folder / "meta.jsonl").open(encoding="utf-8")][::every]
    for meta in metas:
        path = folder / "html" / f"{meta['id']}.html"
        gzipped = path.with_suffix(".html.gz")
        if not path.exists() and not gzipped.exists():
            continue
        data = gzip.decompress(gzipped.read_bytes()) if gzipped.exists() else path.read_bytes()
        url = meta.get("url") if urls else None
        para = features.compute(load(data, url=url))
        kind, told = pagetype.guess(url, para)
        rows.append({"dataset": folder.name, "id": meta["id"], "type": meta.get("page_type") or "article",
                     "guess": kind, "from": told, "declares_address": bool(para.address)})
    return rows


def confusion(rows: list[dict]) -> str:
    """WCXB's types (rows) against the guesses (columns), and the share guessed right."""
    pairs = Counter((r["type"], r["guess"]) for r in rows)
    lines = [_common.table_head(["type \\ guess", *pagetype.TYPES, "right"], "l" + "r" * (len(pagetype.TYPES) + 1))]
    for kind in pagetype.TYPES:
        total = sum(n for (t, _), n in pairs.items() if t == kind)
        if total:
            lines.append(_common.table_row([kind, *(pairs[(kind, g)] for g in pagetype.TYPES),
                                            f"{pairs[(kind, kind)]} / {total}"]))
    right = sum(pairs[(k, k)] for k in pagetype.TYPES)
    lines.append(f"\nright on {right} of {len(rows)} pages ({100 * right / max(len(rows), 1):.1f} %); "
                 f"told by {dict(Counter(r['from'] for r in rows))}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_shared(parser)
    _common.add_json(parser)
    parser.add_argument("--no-urls", action="store_true", help="guess from each page's HTML alone, without its URL")
    args = parser.parse_args(argv)
    wcxb = args.shared / "datasets-extra" / "wcxb-dev"
    if not wcxb.is_dir():
        print(f"no wcxb-dev under {args.shared}", file=sys.stderr)
        return 2
    rows = guesses(wcxb, urls=not args.no_urls)
    print("wcxb-dev, WCXB's page types against the guess:\n")
    print(confusion(rows))
    print(f"{sum(r['declares_address'] for r in rows)} of them declare their address (canonical link, og:url)")
    print("\nnews articles of the other datasets:\n")
    print(_common.table_head(["dataset", "pages", "article", "other kinds", "declaring an address"], "lrrlr"))
    for name, every in ARTICLE_SETS.items():
        found = guesses(args.shared / "datasets" / name, every, urls=not args.no_urls)
        rows += found
        other = Counter(r["guess"] for r in found if r["guess"] != "article")
        print(_common.table_row([name + (f" (1 in {every})" if every > 1 else ""), len(found),
                                 len(found) - sum(other.values()), dict(other) or "–",
                                 sum(r["declares_address"] for r in found)]))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
