"""Texts of nothing but zero-width joiners: how many the shared pages hold, and where.

    PYTHONPATH=benchmarks python benchmarks/studies/joiner_texts.py [--shared DIR]   # ~1 min

A zero-width joiner (U+200D) or non-joiner (U+200C) joins or parts the letters on either
side of it: Persian and Indic scripts and emoji sequences need them, and the text keeps
them there.  A text node of joiners and spaces alone joins nothing and shows nothing;
Webflow's rich text writes an empty paragraph so, ``<p>&zwj;</p>``.  Until 2026-12-02 each
was a block, and a kept one a blank-looking line of txt; now
:func:`detourage.segment.clean_text` makes it "" (``segment._JOINERS_ONLY``).  This counts,
per dataset, the text nodes (an element's text or tail, and ``alt`` texts) that are so,
and the pages holding one, from the parsed trees (what either segmentation reads).
"""

from __future__ import annotations

import argparse
from collections import Counter

import _common
from detourage.decode import decode
from detourage.gold import load_dataset
from detourage.parse import parse
from detourage.segment import _JOINERS_ONLY


def joiner_texts(html: str) -> int:
    """How many of the page's texts are joiners and spaces alone."""
    root = parse(html)
    if root is None:
        return 0
    count = 0
    for el in root.iter():
        for text in (el.text, el.tail, el.get("alt") if el.tag == "img" else None):
            if text and _JOINERS_ONLY.fullmatch(text):
                count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_shared(parser)
    args = parser.parse_args(argv)
    texts: Counter[str] = Counter()
    pages: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    folders = [p for p in (*sorted((args.shared / "datasets").glob("*")), args.shared / "datasets-extra" / "wcxb-dev")
               if (p / "html").is_dir()]
    for path in folders:
        dataset = load_dataset(path)
        for doc in dataset.scorable:
            found = joiner_texts(decode(doc.read_html()).text)
            seen[dataset.name] += 1
            texts[dataset.name] += found
            pages[dataset.name] += found > 0
    print(_common.table_head(["dataset", "pages", "pages with a text of joiners alone", "such texts"], "lrrr"))
    for name in seen:
        print(f"| {name} | {seen[name]} | {pages[name]} | {texts[name]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
