"""Metadata accuracy: the title, the authors and the date published, against the golds we have.

Sets (rows of the table):

- ``daniel`` — DANIEL's news pages, date against the crawl date (``date`` of its
  ``meta.jsonl``: the pages were fetched the day they appeared, so a date 0–2 days before
  the crawl counts as right; ``benchmarks/studies/metadata_agreement.py``'s convention),
  overall and by language (``daniel en``, ``daniel zh``, ``daniel pl``, ``daniel el``,
  ``daniel ru``);
- ``gold forums`` and ``gold articles`` — the hand-labelled wcxb-dev pages of
  ``benchmarks/data/metadata-gold.jsonl`` (``docs/metadata.md`` says how it was made):
  date exact, authors as sets of names compared case-, space- and punctuation-insensitively
  (``right``), and whether the first name found is among the gold's (``first``).  A page
  whose record lacks a field is not counted for it;
- ``wcxb-dev`` — the 1 310 pages of wcxb-dev against WCXB's own title, author and date
  (``metadata.jsonl`` of the dataset; a field it left ``null`` is unknown, not counted):
  the title and the authors compared by :func:`name_key` (case, spaces, punctuation and
  curly quotes aside), the authors as a set (their order aside) after both sides are cut
  into names by :func:`byline_names` (``A, B and C``, ``A & B``; credentials after a comma
  dropped: ``Dylan Bailey, MS, RD`` is one name), the date at day precision (at month
  precision where the gold gives only a month); and ``wcxb-dev (date in page)``, the same
  for the dated pages whose gold date is written somewhere in the page's HTML, text or
  markup (:func:`date_in_page`: ``2025-08-13``, ``2025/08/13``, ``August 13, 2025``, ``Aug
  13, 2025``, ``13 August 2025``, ``08/13/2025``, ``13.08.2025``…): WCXB's gold date is
  found nowhere in about 30 of the pages, and split between a page's declared and its
  shown ``Updated`` date on others (``docs/metadata.md``); on this row no extractor can be
  right by a guess of a date the page does not hold;
- ``url-dated`` — the pages of l3s-gn1, cleanportaleval, cleaneval-en-dev and wcxb-dev
  whose URL holds a date (``/2008/01/07/``), loaded without their URL: the date must be
  the URL's, exactly.  A check held out from the tuning on DANIEL, of the page reading
  (and of what the page declares) alone.

Extractors (columns): detourage's :func:`detourage.metadata.metadata` of the loaded page
(its cost is timed without the load, which extraction pays anyway); htmldate's
``find_date(original_date=True)``, fast (``extensive_search=False``) and extensive (the
default), each on the decoded HTML (it parses again); trafilatura's ``extract_metadata``
(its ``date`` is htmldate's extensive search, its ``author`` and ``title`` its own); and
``detourage+htmldate``, ``metadata(page, htmldate=True)``: detourage's date or, where it
finds none, htmldate's extensive search.  Prints a Markdown
table and each extractor's median time per page.

    python benchmarks/metadata.py                      # every set, ~8 min on 2 shared cores
    python benchmarks/metadata.py --sets gold          # the hand gold only, a few seconds
    python benchmarks/metadata.py --sets wcxb --extractors detourage trafilatura htmldate-extensive
    python benchmarks/metadata.py --sets daniel --extractors detourage --misses /tmp/misses.md
    python benchmarks/metadata.py --sample 300 --json metadata.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date as Date
from pathlib import Path
from typing import Any

import _common
import detourage
from detourage import metadata as md
from detourage.gold import load_dataset

GOLD = _common.ROOT / "benchmarks" / "data" / "metadata-gold.jsonl"
EXTRACTORS = ("detourage", "htmldate-fast", "htmldate-extensive", "detourage+htmldate", "trafilatura")
#: what each extractor gives: htmldate dates only
FIELDS = {"detourage": ("title", "date", "authors"), "htmldate-fast": ("date",), "htmldate-extensive": ("date",),
          "detourage+htmldate": ("date",), "trafilatura": ("title", "date", "authors")}
_FOLD = str.maketrans({"’": "'", "‘": "'", "\u00a0": " "})


@dataclass
class Case:
    """One page to read: its set, the decoded page, and what the gold says."""

    set: str
    id: str
    page: detourage.Page
    date: str | None = None
    authors: list[str] | None = None
    crawled: str | None = None
    has: set[str] = field(default_factory=set)
    #: the page's language, where the set is counted by language too
    lang: str = ""
    title: str | None = None
    #: the authors are a byline to cut into names (:func:`byline_names`), on both sides
    byline: bool = False
    #: more rows the date is counted in (``wcxb-dev (date in page)``)
    date_rows: tuple[str, ...] = ()


def name_key(name: str) -> str:
    """A name, case, spaces and punctuation aside."""
    return " ".join(re.sub(r"[^\w]+", " ", name.translate(_FOLD).lower()).split())


def authors_right(found: list[str], gold: list[str]) -> tuple[bool, bool]:
    """(the same set of names, the first name found among the gold's); an empty gold is
    right only when nothing was found."""
    keys = {name_key(n) for n in found} - {""}
    wanted = {name_key(n) for n in gold}
    first = bool(found) and name_key(found[0]) in wanted if wanted else not keys
    return keys == wanted, first


#: what separates names in a byline, and credentials after a comma (``MS``, ``RD``, ``PhD``)
_BYLINE_SEPARATOR = re.compile(r"\s*(?:[,;&|/]|\band\b)\s*", re.I)
_CREDENTIAL = re.compile(r"[A-Z]{2,6}|Ph\.?D\.?|M\.?D\.?|Jr\.?|Sr\.?|[A-Z]\.(?:[A-Z]\.)+")


def byline_names(names: list[str]) -> list[str]:
    """The names of one or more bylines, each cut at commas, ``and``, ``&``; a piece after
    the first that is a credential (``Dylan Bailey, MS, RD, FAND``) is no name."""
    pieces = [p.strip() for n in names for p in _BYLINE_SEPARATOR.split(n) if p.strip()]
    return pieces[:1] + [p for p in pieces[1:] if not _CREDENTIAL.fullmatch(p)]


def date_right(case: Case, found: str | None) -> bool:
    """The crawl window (DANIEL), else the gold's date at its precision (a day, or a month
    where that is all it gives); a ``None`` gold is right only when nothing is found."""
    if case.crawled is not None:
        return crawl_window(found, case.crawled)
    if case.date is None or not found:
        return (found or None) == case.date
    return found[:len(case.date)] == case.date


def crawl_window(found: str | None, crawled: str) -> bool:
    """Whether ``found`` (YYYY-MM-DD) is the crawl day (YYYYMMDD) or up to two days before."""
    if not found:
        return False
    try:
        delta = (Date(int(crawled[:4]), int(crawled[4:6]), int(crawled[6:8])) - Date.fromisoformat(found[:10])).days
    except ValueError:
        return False
    return 0 <= delta <= 2


# ---------------------------------------------------------------------------- pages

def daniel_cases(sample: int | None, seed: int) -> Iterator[Case]:
    docs = [d for d in load_dataset(_common.DATASETS / "daniel").documents if d.meta.get("date")]
    if sample is not None and sample < len(docs):
        docs = random.Random(seed).sample(docs, sample)
    for doc in docs:
        page = detourage.load(doc.read_html(), url=doc.meta.get("url"))
        yield Case("daniel", doc.id, page, crawled=doc.meta["date"], has={"date"}, lang=doc.meta.get("lang", ""))


#: the sets whose URLs date some of their pages (``url-dated``)
URL_DATED = (("l3s-gn1", _common.DATASETS), ("cleanportaleval", _common.DATASETS),
             ("cleaneval-en-dev", _common.DATASETS), ("wcxb-dev", _common.DATASETS_EXTRA))


#: a year, month and day between slashes, dashes or underscores; the benchmark's own, not
#: the library's, so that the gold does not move with what it measures
URL_DAY = re.compile(r"[/_-]((?:19|20)\d{2})[/_-](\d{1,2})[/_-](\d{1,2})(?:[/_.-]|$)")


def url_day(url: str | None) -> str | None:
    if not url or (m := URL_DAY.search(url.split("?")[0])) is None:
        return None
    try:
        return Date(int(m[1]), int(m[2]), int(m[3])).isoformat()
    except ValueError:
        return None


def url_dated_cases() -> Iterator[Case]:
    """The pages whose URL holds a date, loaded without it: that date is the gold."""
    for name, root in URL_DATED:
        for doc in load_dataset(root / name).documents:
            if day := url_day(doc.meta.get("url")):
                yield Case("url-dated", doc.id, detourage.load(doc.read_html()), date=day, has={"date"})


def gold_cases(path: Path) -> Iterator[Case]:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    datasets = {}
    for record in records:
        name = record["dataset"]
        if name not in datasets:
            datasets[name] = {d.id: d for d in load_dataset(_common.DATASETS_EXTRA / name).documents}
        doc = datasets[name][record["id"]]
        kind = "forums" if doc.meta.get("page_type") == "forum" else "articles"
        page = detourage.load(doc.read_html(), url=doc.meta.get("url"))
        yield Case(f"gold {kind}", doc.id, page, date=record.get("date"), authors=record.get("authors"),
                   has={f for f in ("date", "authors") if f in record})


WCXB = _common.DATASETS_EXTRA / "wcxb-dev"


def wcxb_cases(root: Path = WCXB) -> Iterator[Case]:
    """wcxb-dev's pages against the benchmark's own title, author and date."""
    gold = {r["id"]: r for line in (root / "metadata.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip() and (r := json.loads(line))}
    for doc in load_dataset(root).documents:
        record = gold.get(doc.id)
        if record is None:
            continue
        page = detourage.load(doc.read_html(), url=doc.meta.get("url"))
        author, day = record.get("author"), record.get("date")
        yield Case("wcxb-dev", doc.id, page, date=day, title=record.get("title"),
                   authors=[author] if author else None, byline=True,
                   has={f for f, k in (("title", "title"), ("date", "date"), ("authors", "author")) if record.get(k)},
                   date_rows=("wcxb-dev (date in page)",) if day and date_in_page(page.html, day) else ())


_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")


def date_in_page(html: str, day: str) -> bool:
    """Whether the date ``day`` (``YYYY-MM-DD``, or ``YYYY-MM``) is written in ``html``, in
    any of the usual forms (ISO, slashes, dots, the month's English name or its first three
    letters, day or month first), case aside.  The benchmark's own list, not the library's
    reading, so that the row does not move with what it measures."""
    year, month, date = int(day[:4]), int(day[5:7]), int(day[8:10]) if len(day) >= 10 else 0
    name = _MONTH_NAMES[month - 1]
    if not date:
        forms = {day, f"{name} {year}", f"{name[:3]} {year}"}
    else:
        forms = {day, f"{year}/{month:02d}/{date:02d}", f"{date:02d}.{month:02d}.{year}", f"{date}.{month}.{year}",
                 f"{month}/{date}/{year}", f"{month:02d}/{date:02d}/{year}", f"{date}/{month}/{year}",
                 f"{date:02d}/{month:02d}/{year}", f"{year}{month:02d}{date:02d}"}
        for month_name in (name, name[:3], name[:3] + "."):
            forms |= {f"{month_name} {date}, {year}", f"{month_name} {date:02d}, {year}", f"{date} {month_name} {year}",
                      f"{date:02d} {month_name} {year}", f"{month_name} {date} {year}"}
    low = html.lower()
    return any(form.lower() in low for form in forms)


# ---------------------------------------------------------------------------- extractors

def run_detourage(page: detourage.Page) -> dict[str, Any]:
    found = md.metadata(page)
    return {"title": found.title, "date": found.date, "authors": list(found.authors)}


def run_htmldate(extensive: bool) -> Callable[[detourage.Page], dict[str, Any]]:
    from htmldate import find_date

    def go(page: detourage.Page) -> dict[str, Any]:
        try:
            found = find_date(page.html, url=page.url, extensive_search=extensive, original_date=True)
        except Exception:  # noqa: BLE001 - a failure is an undated page
            found = None
        return {"date": found if isinstance(found, str) else None}
    return go


def run_combined(page: detourage.Page) -> dict[str, Any]:
    """detourage's date, else htmldate's extensive search: ``metadata(page, htmldate=True)``."""
    return {"date": md.metadata(page, htmldate=True).date}


def run_trafilatura(page: detourage.Page) -> dict[str, Any]:
    from trafilatura import extract_metadata

    try:
        found = extract_metadata(page.html, default_url=page.url)
    except Exception:  # noqa: BLE001 - a failure finds nothing
        found = None
    if found is None:
        return {"title": "", "date": None, "authors": []}
    authors = [a.strip() for a in (found.author or "").split(";") if a.strip()]
    return {"title": found.title or "", "date": found.date, "authors": authors}


def extractors(names: list[str]) -> dict[str, Callable[[detourage.Page], dict[str, Any]]]:
    table = {"detourage": run_detourage, "htmldate-fast": run_htmldate(False),
             "htmldate-extensive": run_htmldate(True), "detourage+htmldate": run_combined,
             "trafilatura": run_trafilatura}
    return {n: table[n] for n in names}


# ---------------------------------------------------------------------------- measure

def measure(cases: Iterator[Case], names: list[str], misses: list[str] | None = None) -> dict[str, Any]:
    """Per set, field and extractor: pages, right (and first-right for authors); per
    extractor the seconds each page took."""
    runs = extractors(names)
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    seconds: dict[str, list[float]] = defaultdict(list)
    for case in cases:
        for name, run in runs.items():
            t0 = time.perf_counter()
            found = run(case.page)
            seconds[name].append(time.perf_counter() - t0)
            for what in FIELDS[name]:
                if what not in case.has:
                    continue
                if what == "date":
                    ok, first = date_right(case, found["date"]), False
                    gold: Any = case.crawled or case.date
                elif what == "title":
                    ok, first = name_key(found["title"] or "") == name_key(case.title or ""), False
                    gold = case.title
                else:
                    cut = byline_names if case.byline else list
                    ok, first = authors_right(cut(found["authors"]), cut(case.authors or []))
                    gold = case.authors
                rows = (case.set, f"{case.set} {case.lang}")[:2 if case.lang else 1]
                for set_name in rows + (case.date_rows if what == "date" else ()):
                    row = counts[f"{set_name}|{what}|{name}"]
                    row["pages"] += 1
                    row["right"] += ok
                    row["first"] += first
                if not ok and misses is not None:
                    misses.append(f"{case.set} {case.id} {what} {name}: {found[what]!r} (gold {gold!r})")
    return {"counts": {k: dict(v) for k, v in counts.items()},
            "median_ms": {n: statistics.median(s) * 1000 for n, s in seconds.items() if s}}


def cell(row: dict[str, int] | None, what: str) -> str:
    if not row or not row["pages"]:
        return "–"
    text = f"{100 * row['right'] / row['pages']:.1f}"
    if what == "authors":
        text += f" ({100 * row['first'] / row['pages']:.1f})"
    return text


def report(result: dict[str, Any], names: list[str]) -> str:
    counts = result["counts"]
    keys = sorted({tuple(k.split("|")[:2]) for k in counts}, key=lambda k: (k[1], k[0]))
    lines = ["% right (authors: same set of names; in brackets, the first name found is right)", "",
             _common.table_head(["set", "field", "pages", *names], "llr" + "r" * len(names))]
    for set_name, what in keys:
        pages = max(counts.get(f"{set_name}|{what}|{n}", {}).get("pages", 0) for n in names)
        lines.append(_common.table_row([set_name, what, pages,
                                        *(cell(counts.get(f"{set_name}|{what}|{n}"), what) for n in names)]))
    lines += ["", "Median time per page: " + ", ".join(f"{n} {ms:.2f} ms" for n, ms in result["median_ms"].items())]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--sets", nargs="+", choices=("daniel", "gold", "wcxb", "url-dated"),
                        default=["daniel", "gold", "wcxb", "url-dated"])
    parser.add_argument("--extractors", nargs="+", choices=EXTRACTORS, default=list(EXTRACTORS))
    parser.add_argument("--gold", type=Path, default=GOLD, help="the hand gold (default: %(default)s)")
    parser.add_argument("--sample", type=int, default=None, metavar="N", help="N of DANIEL's pages (seeded)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--misses", type=Path, default=None, metavar="PATH", help="write every wrong answer")
    _common.add_json(parser, "the counts")
    args = parser.parse_args()
    if any(n != "detourage" for n in args.extractors):
        try:
            import htmldate  # noqa: F401
            import trafilatura  # noqa: F401
        except ImportError:
            sys.exit('metadata: needs htmldate and trafilatura: pip install ".[peers]"')

    def cases() -> Iterator[Case]:
        if "daniel" in args.sets:
            yield from daniel_cases(args.sample, args.seed)
        if "gold" in args.sets:
            yield from gold_cases(args.gold)
        if "wcxb" in args.sets:
            yield from wcxb_cases()
        if "url-dated" in args.sets:
            yield from url_dated_cases()

    misses: list[str] = []
    t0 = time.perf_counter()
    result = measure(cases(), args.extractors, misses)
    print(report(result, args.extractors))
    print(f"\n{time.perf_counter() - t0:.0f} s")
    if args.misses:
        args.misses.write_text("\n".join(misses) + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
