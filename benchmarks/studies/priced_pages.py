"""The pages whose text names their kind by its prices, and how far their priced lines
spread.

    PYTHONPATH=benchmarks python benchmarks/studies/priced_pages.py     # ~1 min

:func:`detourage.learned.pagetype.guess` calls a page a collection when nothing else
names its kind and at least :data:`~detourage.learned.pagetype.PRICES` of its short lines
hold a price — a shop's grid of priced cards.  An advertiser's box of offers under a
story ("от 750 руб.", a car dealer's listings beside the news) holds as many.  For every
shared page (the news datasets without their URLs, as their harness cleans them; wcxb-dev
with its URL) that has that many priced lines and that nothing else names, this prints
its dataset, its true kind (wcxb-dev's gold page type; "news" for the others), how many
priced lines it has, and the share of its text from the first priced line to the last
(the span :data:`~detourage.learned.pagetype.PRICE_SPAN` bounds), sorted by that span.
"""

from __future__ import annotations

import _common
from detourage.gold import load_dataset
from detourage.learned import features, pagetype
from detourage.learned.rules.paragraphs import lower_case
from detourage.loading import load

NEWS = ("cleaneval-en-dev", "cleanportaleval", "daniel", "l3s-gn1")


def priced(para: features.Paragraphs) -> tuple[int, float]:
    """How many short lines hold a price, and the span of the page's text they cover."""
    lines, lowered = pagetype.short_lines(para), lower_case(para)
    hits = sum(pagetype.price_in(lowered[i]) for i in lines)
    return hits, pagetype._priced_span(para, lowered, lines)


def main() -> None:
    rows = []
    sources = [(name, _common.SHARED / "datasets" / name, False) for name in NEWS]
    sources.append(("wcxb-dev", _common.DATASETS_EXTRA / "wcxb-dev", True))
    for name, path, with_url in sources:
        if not path.is_dir():
            continue
        for doc in load_dataset(path).scorable:
            url = doc.meta.get("url") if with_url else None
            para = features.compute(load(doc.read_html(), url=url))
            hits, span = priced(para)
            if hits < pagetype.PRICES or pagetype.guess(url, para)[1] not in ("text", "default"):
                continue
            rows.append((span, name, doc.meta.get("page_type") or "news", hits, doc.id))
    print(_common.table_head(["dataset", "kind", "priced lines", "span of the text", "page"], "llrrl"))
    for span, name, kind, hits, page in sorted(rows):
        print(f"| {name} | {kind} | {hits} | {span:.2f} | {page} |")
    print(f"\nPRICE_SPAN = {pagetype.PRICE_SPAN}: a page under it is no collection by its prices")


if __name__ == "__main__":
    main()
