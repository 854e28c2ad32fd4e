"""Seed 000 §3, Tables 1–3: corpus statistics of DANIEL, beside the seed's own figures.

Table 1 counts the raw pages, Table 2 the gold, Table 3 the output of the HTML Killer
baseline (``baseline``, CleanEval format); ``--methods`` adds tables for other methods
(the seed has figures for the baseline only: its Tables 4 and 5 are Boilerpipe and
Readability, which detourage does not run).  Each table is printed as
:func:`detourage.evaluation.stats.stats_table` gives it, then compared with the seed
column by column (ratio = ours / seed), then the differences are explained.

    PYTHONPATH=benchmarks python benchmarks/studies/seed000_tables.py [--workers N] [--json out.json]
    PYTHONPATH=benchmarks python benchmarks/studies/seed000_tables.py --methods baseline eatiht
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import _common
from detourage.evaluation.stats import ALL, Source, TextStats, as_dict, corpus_stats, stats_table

#: seed 000 Tables 1–3: (paragraphs, lines, words, "caractères", files) per language.
#: The seed counted with scripts/stat.py of Slayerxoxo/CME_Project: grep '<p>' | wc -l,
#: wc -l, wc -w, wc -c; its "caractères" are bytes, so they are compared with our bytes.
SEED: dict[int, dict[str, tuple[int, int, int, int, int]]] = {
    1: {  # raw corpus
        "el": (866, 516581, 2172414, 31783683, 273),
        "en": (7875, 823076, 2363492, 38811928, 475),
        "pl": (4725, 279697, 1129605, 18176086, 274),
        "ru": (3901, 323108, 1195397, 21818585, 267),
        "zh": (4652, 388332, 1101700, 25116896, 405),
    },
    2: {  # gold
        "el": (2659, 4144, 116398, 1426722, 273),
        "en": (7269, 9220, 225764, 1453612, 475),
        "pl": (3084, 4812, 115872, 900604, 274),
        "ru": (2035, 4393, 70331, 936467, 267),
        "zh": (4409, 5310, 12278, 1133436, 405),
    },
    3: {  # cleaned by Html_killer (the baseline)
        "el": (687, 1794, 26503, 464836, 273),
        "en": (7514, 9810, 198690, 1271535, 475),
        "pl": (4372, 6217, 122633, 919232, 274),
        "ru": (2366, 3729, 67194, 910438, 267),
        "zh": (2665, 4491, 13172, 683570, 405),
    },
}

TITLES = {
    1: "Table 1 — raw corpus (html/)",
    2: "Table 2 — gold corpus (gold/)",
    3: "Table 3 — corpus cleaned by the HTML Killer baseline (method `baseline`, CleanEval output)",
}

COMMON_NOTES = """\
Why the figures differ from the seed's:
- Corpus version: ours is DANIEL v2.1 (rundimeco/waddle@be875ce), 1689 pages (el 273, en 475,
  pl 274, ru 266, zh 401); the seed had 1694 (ru 267, zh 405). Its raw pages were UTF-8 as ours
  are (its html_killer.py reads them as UTF-8, and the zh byte totals agree within 0.4 %), so
  encoding is not a source of difference; the gold is a later re-annotation.
- Counting rules are the seed's (its scripts/stat.py runs grep '<p>' | wc -l, wc -l, wc -w and
  wc -c on each file), so its "caractères" column is bytes and is compared with our bytes.
  Words follow the coreutils-8 wc -w of 2014 (no-break spaces do not separate words); today's
  coreutils 9 also splits at U+00A0 and would count 2 173 623 el raw words instead of 2 172 414.
- Our "words (script-aware)" and "characters" columns have no counterpart in the seed."""

NOTES = {
    1: """\
- el: all four counts match the seed's to the unit: the Greek pages are the seed's.
- pl: paragraphs and words match to the unit; 6 more lines and 2 445 more bytes (a few pages
  differ). en and ru are within 0.5 %, except ru lines (+2.1 % with one page fewer): some
  pages of v2.1 differ from the seed's.
- zh: 4 pages fewer. Its whitespace "words" (†) are no word count: a line of Chinese between
  two tags is one "word"; counting each Han character gives 3.57 M.""",
    2: """\
- The gold is the v2.1 re-annotation (Lejeune & Zhu), stored here as one CleanEval line per
  block ("<p> text"), so lines = paragraphs (+ a few <h>/<l> lines in ru). The seed's reference
  files held <p>...</p> HTML with other line breaks (the older version "has different paragraph
  line breaks", datasets/daniel/README.md), hence its 1.5 to 2 times more lines.
- Our words and bytes are those of the text without markers; the seed's bytes included its
  <p> and </p> tags (7 bytes a paragraph, 1.3 % for el) and the tags were glued to words.
- zh: 5 679 whitespace "words" for 336 k characters (the seed: 12 278 for its 1.1 MB);
  the script-aware count (287 k) is the one to read.""",
    3: """\
- The seed's HTML Killer (scripts/html_killer.py) is a chain of regular expressions over the
  raw text, newlines removed; one of them, <[^bph/].*?>.*?</[^ph].*?>, deletes everything from
  any other opening tag (table, td, strong, font…) to the next closing tag, which removes most
  of the article on pages laid out in tables: for el it kept 26 503 words of the gold's 116 398
  (recall 10.6 % in its Table 6). Our baseline applies the rules the seed states (§2.1) to the
  parsed tree, so it keeps far more text, more than the gold: everything after the first <h1>
  (the whole body when there is none) that is not in a dropped element.
- The seed's outputs are HTML pages with 2 wrapper lines each (<html>, <head>…<body>; 546 of
  its 1 794 el lines); ours are CleanEval text without wrapper.""",
}


def compare_table(ours: dict[str, TextStats], seed: dict[str, tuple[int, int, int, int, int]]) -> str:
    """Ours beside the seed's figures, with ours/seed ratios."""
    header = ("| Language | ¶ ours | ¶ seed | ¶ × | lines ours | lines seed | lines × | words ours "
              "| words seed | words × | bytes ours | \"caractères\" seed | bytes × | files ours | files seed |")
    rows = [header, "|---" + "|--:" * 15 + "|"]
    seed_all = tuple(map(sum, zip(*seed.values())))
    for lang, s in ours.items():
        ref = seed_all if lang == ALL else seed.get(lang)
        if ref is None:
            continue
        mine = (s.paragraphs, s.lines, s.words, s.nbytes)
        cells = [f"**{lang}**" if lang == ALL else lang]
        for value, theirs in zip(mine, ref[:4]):
            cells += [str(value), str(theirs), _ratio(value, theirs)]
        cells += [str(s.files), str(ref[4])]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _ratio(ours: int, theirs: int) -> str:
    if theirs == 0:
        return "–"
    ratio = ours / theirs
    return "**1**" if ours == theirs else f"{ratio:.3f}"


def run_table(daniel: Path, source: Source, method: str | None,
              workers: int) -> tuple[dict[str, TextStats], float]:
    """corpus_stats for one table, and the seconds it took."""
    start = time.perf_counter()
    stats = corpus_stats(daniel, source, method=method, workers=workers)
    return stats, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _common.add_shared(parser)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all CPUs)")
    parser.add_argument("--methods", nargs="+", default=["baseline"],
                        help="methods whose output is counted (Table 3 for baseline; default: baseline)")
    _common.add_json(parser)
    args = parser.parse_args(argv)
    daniel = args.shared / "datasets" / "daniel"
    if not daniel.is_dir():
        print(f"no DANIEL dataset under {args.shared} (see --shared)", file=sys.stderr)
        return 2
    plan: list[tuple[int, Source, str | None]] = [(1, "raw", None), (2, "gold", None)] + [
        (3 if m == "baseline" else 0, "method", m) for m in args.methods
    ]
    figures: dict[str, dict[str, dict[str, object]]] = {}
    total = time.perf_counter()
    print(f"DANIEL corpus statistics (seed 000 §3), {daniel}, {args.workers} workers\n")
    for number, source, method in plan:
        stats, elapsed = run_table(daniel, source, method, args.workers)
        title = TITLES.get(number) or f"Output of method `{method}` (CleanEval; no seed figures)"
        print(stats_table(stats, title))
        if number in SEED:
            print(f"Compared with the seed's Table {number} (× = ours / seed):\n")
            print(compare_table(stats, SEED[number]))
            print(NOTES[number] + "\n")
        print(f"({elapsed:.1f} s)\n")
        figures[title] = {lang: as_dict(s) for lang, s in stats.items()}
    print(COMMON_NOTES)
    print(f"\nTotal: {time.perf_counter() - total:.1f} s")
    if args.json:
        args.json.write_text(json.dumps({"figures": figures, "seed": SEED}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
