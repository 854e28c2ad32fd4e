"""Metadata: detourage against trafilatura, and against the gold the datasets carry.

For every page of the chosen datasets (default: the four shared datasets and wcxb-dev) it
reads detourage's metadata (:func:`detourage.metadata.metadata` of the loaded page) and
trafilatura's (``trafilatura.extract_metadata`` of the same decoded text and URL, its
defaults: extensive date search), and prints:

- per field, the share of pages where each found a value, where both did, and among those
  where the values agree (compared case-, space- and punctuation-insensitively, quotes
  and dashes folded; authors, tags and categories as sets, tags split at commas; URLs
  without ``www.`` and a trailing slash);
- title accuracy against wcxb-dev's ``title`` (``meta.jsonl``), for both: exact (spaces
  collapsed) and folded (the comparison key above);
- date published against DANIEL's crawl date (``date`` in its ``meta.jsonl``: news pages
  fetched the day they appeared): share dated, share within 0–2 days before the crawl,
  for detourage's declared dates (and URL) alone, with its page-text fallback (the
  default), htmldate's fast search alone (``find_date(extensive_search=False)`` on a
  re-parse, since it needs ``lxml.html`` elements) and trafilatura (htmldate's extensive
  search inside);
- language against the datasets' ``lang`` (primary subtag);
- the median cost of detourage's metadata per page (the ``metadata`` stage of
  ``benchmarks/speed.py`` times it beside extraction).

``--samples PATH`` writes, per field, disagreements drawn at random (``--seed``) to read
and judge.

    PYTHONPATH=benchmarks python benchmarks/studies/metadata_agreement.py    # ~4 000 pages, a few minutes
    PYTHONPATH=benchmarks python benchmarks/studies/metadata_agreement.py --sample 100 --samples disagreements.md
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date as Date
from pathlib import Path
from typing import Any

import _common

#: detourage field → trafilatura's
FIELDS = {"title": "title", "authors": "author", "date": "date", "site_name": "sitename",
          "description": "description", "url": "url", "hostname": "hostname", "image": "image",
          "tags": "tags", "categories": "categories", "license": "license", "page_type": "pagetype"}
SETS = {"authors", "tags", "categories"}
_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})


def key(value: str) -> str:
    """Case, spaces, punctuation, quotes and dashes aside."""
    return " ".join(re.sub(r"[^\w]+", " ", value.translate(_FOLD).lower()).split())


def normal(name: str, value: Any) -> Any:
    """A comparable form of a field's value; None or empty when nothing was found."""
    if value is None:
        return None
    if name in SETS:
        items = value.split(";") if isinstance(value, str) else value
        if name != "authors":  # trafilatura keeps a keywords list as one string
            items = [part for item in items for part in item.split(",")]
        return frozenset(k for k in map(key, items) if k) or None
    if name in ("url", "image", "license"):
        return str(value).strip().replace("://www.", "://").rstrip("/") or None
    if name in ("hostname", "page_type"):
        return str(value).strip().lower() or None
    if name == "date":
        return str(value)[:10] or None
    return key(str(value)) or None


@dataclass
class Tally:
    ours: int = 0
    theirs: int = 0
    both: int = 0
    agree: int = 0
    disagreements: list[tuple[str, Any, Any]] = field(default_factory=list)


def trafilatura_metadata(html: str, url: str | None) -> dict[str, Any]:
    import trafilatura

    found = trafilatura.extract_metadata(html, default_url=url)
    return {} if found is None else {name: getattr(found, name, None) for name in FIELDS.values()}


def crawl_window(found: str | None, crawled: str) -> bool:
    """Whether ``found`` (YYYY-MM-DD) is the crawl day or up to two days before it."""
    if not found:
        return False
    try:
        delta = (Date.fromisoformat(crawled[:4] + "-" + crawled[4:6] + "-" + crawled[6:8])
                 - Date.fromisoformat(found[:10])).days
    except ValueError:
        return False
    return 0 <= delta <= 2


def htmldate_alone(html: str, url: str | None) -> str | None:
    """htmldate's fast search (no dates guessed from the whole text), as the fallback would be."""
    from htmldate import find_date

    try:
        found = find_date(html, url=url, extensive_search=False, original_date=True)
    except Exception:  # noqa: BLE001 - a failure is an undated page
        return None
    return found if isinstance(found, str) else None


def run(datasets: list[Path], sample: int | None, seed: int) -> dict[str, Any]:
    from detourage import metadata as md
    from detourage.api import load
    from detourage.gold import load_dataset

    tallies = {name: Tally() for name in FIELDS}
    titles: Counter[str] = Counter()
    dates: Counter[str] = Counter()
    langs: Counter[str] = Counter()
    cost: list[float] = []
    pages = 0
    for folder in datasets:
        docs = list(load_dataset(folder).documents)
        if sample is not None and sample < len(docs):
            docs = random.Random(seed).sample(docs, sample)
        for doc in docs:
            url = doc.meta.get("url")
            page = load(doc.read_html(), url=url)
            t0 = time.perf_counter()
            ours = md.metadata(page).as_dict()
            cost.append(time.perf_counter() - t0)
            theirs = trafilatura_metadata(page.html, url)
            pages += 1
            for name, other in FIELDS.items():
                tally_field(tallies[name], f"{folder.name}/{doc.id}", name, ours.get(name), theirs.get(other))
            if "title" in doc.meta and folder.name.startswith("wcxb"):
                tally_title(titles, doc.meta["title"], ours["title"], theirs.get("title") or "")
            if folder.name == "daniel" and doc.meta.get("date"):
                tally_dates(dates, doc.meta["date"], page, ours["date"], theirs.get("date"))
            if doc.meta.get("lang"):
                langs["pages"] += 1
                found = ours["language"].split("-")[0].lower()
                langs["found"] += bool(found)
                langs["right"] += found == doc.meta["lang"].split("-")[0].lower()
    return {"pages": pages, "tallies": tallies, "titles": titles, "dates": dates, "langs": langs,
            "cost_ms": statistics.median(cost) * 1000 if cost else float("nan"),
            "cost_p95_ms": sorted(cost)[int(0.95 * (len(cost) - 1))] * 1000 if cost else float("nan")}


def tally_field(tally: Tally, page: str, name: str, ours: Any, theirs: Any) -> None:
    a, b = normal(name, ours), normal(name, theirs)
    tally.ours += a is not None
    tally.theirs += b is not None
    if a is not None and b is not None:
        tally.both += 1
        if a == b:
            tally.agree += 1
        else:
            tally.disagreements.append((page, ours, theirs))


def tally_title(titles: Counter[str], gold: str, ours: str, theirs: str) -> None:
    titles["pages"] += 1
    titles["ours exact"] += " ".join(ours.split()) == " ".join(gold.split())
    titles["ours folded"] += key(ours) == key(gold)
    titles["trafilatura exact"] += " ".join(theirs.split()) == " ".join(gold.split())
    titles["trafilatura folded"] += key(theirs) == key(gold)


def tally_dates(dates: Counter[str], crawled: str, page: Any, ours: str | None, theirs: str | None) -> None:
    from detourage import metadata as md

    declared = md.metadata(page, page_dates=False).date
    alone = htmldate_alone(page.html, page.url)
    dates["pages"] += 1
    for name, value in (("declared and URL only", declared), ("then the page's text (default)", ours),
                        ("htmldate alone", alone), ("trafilatura", theirs)):
        dates[f"{name}|dated"] += bool(value)
        dates[f"{name}|window"] += crawl_window(value, crawled)


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}" if d else "–"


def report(result: dict[str, Any]) -> str:
    pages = result["pages"]
    lines = [f"Pages: {pages}; detourage metadata median {result['cost_ms']:.3f} ms/page "
             f"(p95 {result['cost_p95_ms']:.2f} ms)", "",
             "| field | detourage found % | trafilatura found % | both % | agree % of both |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for name, t in result["tallies"].items():
        lines.append(f"| {name} | {pct(t.ours, pages)} | {pct(t.theirs, pages)} | {pct(t.both, pages)} | "
                     f"{pct(t.agree, t.both)} |")
    titles = result["titles"]
    if titles["pages"]:
        lines += ["", f"Title accuracy against wcxb-dev's titles ({titles['pages']} pages):", "",
                  "| extractor | exact % | folded % |", "| --- | ---: | ---: |"]
        for who in ("ours", "trafilatura"):
            name = "detourage" if who == "ours" else who
            lines.append(f"| {name} | {pct(titles[who + ' exact'], titles['pages'])} | "
                         f"{pct(titles[who + ' folded'], titles['pages'])} |")
    dates = result["dates"]
    if dates["pages"]:
        lines += ["", f"Date published against DANIEL's crawl dates ({dates['pages']} pages):", "",
                  "| dates from | dated % | within 0–2 days before the crawl, % of pages |", "| --- | ---: | ---: |"]
        for name in ("declared and URL only", "then the page's text (default)", "htmldate alone", "trafilatura"):
            lines.append(f"| {name} | {pct(dates[name + '|dated'], dates['pages'])} | "
                         f"{pct(dates[name + '|window'], dates['pages'])} |")
    langs = result["langs"]
    if langs["pages"]:
        lines += ["", f"Language against the datasets' lang ({langs['pages']} pages): declared on "
                  f"{pct(langs['found'], langs['pages'])} %, right on {pct(langs['right'], langs['pages'])} % "
                  f"of pages ({pct(langs['right'], langs['found'])} % of those declaring one)"]
    return "\n".join(lines)


def write_samples(result: dict[str, Any], path: Path, per_field: int, seed: int) -> None:
    out = ["# Metadata disagreements (detourage vs trafilatura), drawn at random", ""]
    for name, t in result["tallies"].items():
        if not t.disagreements:
            continue
        out += [f"## {name} ({len(t.disagreements)} disagreements)", ""]
        for page, ours, theirs in random.Random(seed).sample(t.disagreements, min(per_field, len(t.disagreements))):
            out += [f"- `{page}`", f"  - detourage: {json.dumps(ours, ensure_ascii=False)}",
                    f"  - trafilatura: {json.dumps(theirs, ensure_ascii=False, default=list)}"]
        out.append("")
    path.write_text("\n".join(out), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("datasets", nargs="*", type=Path, default=_common.every_dataset(),
                        help="dataset folders (default: the shared datasets and wcxb-dev)")
    parser.add_argument("--sample", type=int, default=None, metavar="N", help="N pages per dataset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=Path, default=None, metavar="PATH",
                        help="write random disagreements per field (Markdown)")
    parser.add_argument("--per-field", type=int, default=10, help="disagreements per field in --samples")
    args = parser.parse_args(argv)
    try:
        import trafilatura  # noqa: F401
    except ImportError:
        sys.exit('metadata_agreement: needs trafilatura: pip install -U pip && pip install ".[peers]"')
    result = run(args.datasets, args.sample, args.seed)
    print(report(result))
    if args.samples:
        write_samples(result, args.samples, args.per_field, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
