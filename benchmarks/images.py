"""Images: on how many pages with an article figure does the output keep one?

Issue 32's measure of images.  A page *has an article figure* when its source holds an
``<img>`` (or a ``<picture>``/lazy-loaded image: ``src``, ``data-src``, ``srcset``…) that
lies, in document order, between the first and the last block of the page whose text is
in the page's gold (the article's span), and that is not an icon (an ``<img>`` declared
50 px or less wide or high, or named like an icon, avatar, smiley, logo, pixel or spacer).
For those pages, the share whose Markdown output keeps at least one image with an
absolute URL (``http(s)://`` or ``//host``): a relative URL resolves only when the
renderer knows the page's URL, and shows the reader nothing otherwise.

Methods are detourage methods (``default``…), rendered as Markdown with the page's URL
from ``meta.jsonl``; ``trafilatura-images`` is trafilatura's own Markdown with
``include_images=True`` and the URL (the peers of ``evaluate`` map text onto blocks, which
carries no image without alt text, so trafilatura is asked directly here).

    python benchmarks/images.py                       # every dataset, default + trafilatura
    python benchmarks/images.py --sample 100 --methods default --json images.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import _common
import detourage
from detourage.gold import GoldPage, load_dataset

DATASETS = ("datasets/cleaneval-en-dev", "datasets/cleanportaleval", "datasets/daniel", "datasets/l3s-gn1",
            "datasets-extra/wcxb-dev")
#: the attributes that carry an image's address, lazy-loading ones included
SOURCES = ("src", "data-src", "data-lazy-src", "data-original", "srcset", "data-srcset")
ICON = re.compile(r"avatar|icon|smil|emoji|emoticon|logo|pixel|spacer|blank|gravatar|badge|sprite", re.I)
MARKDOWN_IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)")
#: the shortest block text matched against the gold (shorter ones match by chance)
MIN_MATCH = 25


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _gold_text(doc: GoldPage) -> str:
    if doc.gold_blocks:
        return _norm(" ".join(text for _, text in doc.gold_blocks))
    return _norm(" ".join((doc.gold_snippets or {}).get("with", ())))


def _is_figure(img) -> bool:
    """Whether an ``<img>`` element looks like a picture of the article, not an icon."""
    if not any((img.get(a) or "").strip() and not (img.get(a) or "").startswith("data:") for a in SOURCES):
        return False
    for side in ("width", "height"):
        digits = re.match(r"\s*(\d+)", img.get(side) or "")
        if digits and int(digits.group(1)) <= 50:
            return False
    named = " ".join(img.get(a) or "" for a in ("src", "data-src", "class", "id", "alt"))
    return not ICON.search(named)


def has_article_figure(doc: GoldPage, html: bytes) -> bool:
    """Whether a figure lies inside the span of the page's gold text (see the docstring)."""
    gold = _gold_text(doc)
    if not gold:
        return False
    page = detourage.load(html, url=doc.meta.get("url"))
    if page.tree is None:
        return False
    order = {el: i for i, el in enumerate(page.tree.iter())}
    matched = [order[b.node] for b in page.blocks
               if b.node in order and len(b.text) >= MIN_MATCH and _norm(b.text) in gold]
    if len(matched) < 2:
        return False
    first, last = min(matched), max(matched)
    return any(first <= order[img] <= last and _is_figure(img) for img in page.tree.iter("img"))


def absolute_images(markdown: str) -> int:
    """The images of a Markdown text whose URL is absolute."""
    return sum(1 for url in MARKDOWN_IMAGE.findall(markdown) if url.startswith(("http://", "https://", "//")))


def output(method: str, html: bytes, url: str | None) -> str:
    if method == "trafilatura-images":
        import trafilatura

        return trafilatura.extract(html, url=url, include_images=True, output_format="markdown") or ""
    return detourage.extract(html, method=method, format="markdown", url=url)


def documents(root: Path, names: list[str], sample: int | None, seed: int) -> Iterator[tuple[str, GoldPage]]:
    for name in names:
        folder = root / name
        if not folder.is_dir():
            sys.exit(f"{folder}: no such dataset (--root: the folder holding datasets/ and datasets-extra/)")
        docs = list(load_dataset(folder).scorable)
        if sample and len(docs) > sample:
            docs = random.Random(seed).sample(docs, sample)
        for doc in docs:
            yield Path(name).name, doc


def measure(args: argparse.Namespace) -> dict[str, dict[str, dict[str, int]]]:
    """Per dataset and method: pages, pages with a figure, those whose output keeps one."""
    table: dict[str, dict[str, dict[str, int]]] = {}
    for dataset, doc in documents(args.root, args.datasets, args.sample, args.seed):
        rows = table.setdefault(dataset, {m: {"pages": 0, "figure": 0, "kept": 0, "images": 0}
                                          for m in args.methods})
        html = doc.read_html()
        figure = has_article_figure(doc, html)
        for method in args.methods:
            row = rows[method]
            row["pages"] += 1
            if not figure:
                continue
            row["figure"] += 1
            try:
                found = absolute_images(output(method, html, doc.meta.get("url")))
            except Exception:  # noqa: BLE001 - a crash keeps no image
                found = 0
            row["images"] += found
            row["kept"] += found > 0
    return table


def report(table: dict[str, dict[str, dict[str, int]]], methods: list[str]) -> str:
    lines = [_common.table_head(["dataset", "pages", "with a figure",
                                 *(f"{m}: kept (share), images" for m in methods)])]
    for dataset, rows in table.items():
        first = rows[methods[0]]
        cells = [f"{r['kept']} ({r['kept'] / r['figure']:.2f}), {r['images']}" if r["figure"] else "–"
                 for r in (rows[m] for m in methods)]
        lines.append(_common.table_row([dataset, first["pages"], first["figure"], *cells]))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=_common.SHARED,
                        help="folder holding datasets/ and datasets-extra/")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--methods", nargs="+", default=["default", "trafilatura-images"])
    parser.add_argument("--sample", type=int, default=None, help="pages per dataset (seeded)")
    parser.add_argument("--seed", type=int, default=32)
    _common.add_json(parser, "the table")
    args = parser.parse_args()
    t0 = time.perf_counter()
    table = measure(args)
    print(report(table, args.methods))
    print(f"\n{time.perf_counter() - t0:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(table, indent=1))


if __name__ == "__main__":
    main()
