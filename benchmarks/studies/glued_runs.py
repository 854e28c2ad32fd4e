"""Runs that meet with no space between: are they one word or two in each dataset's gold?

    PYTHONPATH=benchmarks python benchmarks/studies/glued_runs.py [--shared DIR] [--examples N]

Segmentation splits text at every tag; two runs of one paragraph that the HTML writes with
no whitespace between them (``<span>Publisher</span><span>Houghton Mifflin</span>``) are
joined as one word unless :func:`detourage.segment.apart` sets them apart.  For every such
boundary of every page of the shared datasets this prints, by the characters that meet
(``aA``: a lower-case letter against a capital, ``a1``/``A1``: a letter against a digit,
``1A``: a digit against a capital, and the pairs the rule leaves joined), how often the
gold holds the two sides as one word (``joined``: "PublisherHoughton") or as two (``apart``:
"Publisher Houghton"), counting only boundaries where the gold holds exactly one of the
two forms (the last 12 characters of the run before, the first word of the run after).
Runs inside ``<sup>``, ``<sub>``, ``<pre>`` or ``<code>`` (:data:`detourage.segment.WORD_PIECES`)
are counted apart from the rest.

It runs the Python segmentation (``segment._segment``, the compiled twin set aside while
it reads a page), which asks :func:`~detourage.segment.apart` at each boundary of one
paragraph with no space: the study records each question and its answer.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict

import _common
from detourage import segment
from detourage.api import load
from detourage.gold import load_dataset


def kind(char: str) -> str:
    """``a`` lower case, ``A`` capital, ``1`` digit, ``.`` anything else."""
    if char.isdigit():
        return "1"
    if char.islower():
        return "a"
    if char.isupper():
        return "A"
    return "."


def boundaries(html: bytes | str, url: str | None) -> list[tuple[str, str, bool, bool]]:
    """(text before, text after, apart, inside a word's pieces) for each no-space boundary."""
    seen: list[tuple[str, str, bool, bool]] = []
    asked = segment.apart

    def recording(before, text, path):  # type: ignore[no-untyped-def]
        answer = asked(before, text, path)
        if before.text and text and before.image is None:
            pieces = not (segment.WORD_PIECES.isdisjoint(path) and segment.WORD_PIECES.isdisjoint(before.path))
            seen.append((before.text, text, answer, pieces))
        return answer

    compiled = segment._compiled  # the compiled twin asks apart() from C, out of the study's reach
    segment.apart, segment._compiled = recording, None
    try:
        load(html, url=url)
    finally:
        segment.apart, segment._compiled = asked, compiled
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_shared(parser)
    parser.add_argument("--examples", type=int, default=0, help="print N joined-in-gold examples per row")
    args = parser.parse_args(argv)
    counts: Counter[tuple[str, str, str, str]] = Counter()
    pages: defaultdict[tuple[str, str, str, str], set[str]] = defaultdict(set)
    examples: defaultdict[tuple[str, str, str], list[str]] = defaultdict(list)
    folders = [p for p in (*sorted((args.shared / "datasets").glob("*")), args.shared / "datasets-extra" / "wcxb-dev")
               if (p / "html").is_dir()]
    for path in folders:
        dataset = load_dataset(path)
        for page in dataset.scorable:
            if page.gold_path is None:
                continue
            gold = re.sub(r"\s+", " ", page.gold_path.read_text(encoding="utf-8", errors="replace"))
            for before, after, answer, pieces in boundaries(page.read_html(), page.meta.get("url")):
                left, right = before.rsplit(" ", 1)[-1][-12:], after.split(" ", 1)[0][:12]
                if len(left) < 2 or len(right) < 2 or any(ord(c) >= 0x2E80 for c in left + right):
                    continue  # a drop cap, a lone digit; CJK writes no spaces
                joined, spaced = (left + right) in gold, f"{left} {right}" in gold
                if joined == spaced:
                    continue
                row = (dataset.name, "word pieces" if pieces else ("set apart" if answer else "left joined"),
                       kind(left[-1]) + kind(right[0]), "joined" if joined else "apart")
                counts[row] += 1
                pages[row].add(page.id)
                if joined and len(examples[row[:3]]) < args.examples:
                    examples[row[:3]].append(f"{page.id}: {left!r} + {right!r}")
    print(_common.table_head(["dataset", "boundary", "meet", "gold: joined (pages)", "gold: apart (pages)"],
                             "lllrr"))
    for key in sorted({row[:3] for row in counts}):
        cells = [f"{counts[(*key, side)]} ({len(pages[(*key, side)])})" for side in ("joined", "apart")]
        print(_common.table_row([*key, *cells]))
        for line in examples.get(key, []):
            print(f"    {line}")
    totals: Counter[tuple[str, str]] = Counter()
    for (name, boundary, _meet, side), n in counts.items():
        if boundary == "set apart":
            totals[name, side] += n
    print("\nset apart by detourage.segment.apart, per dataset: "
          + "; ".join(f"{name} {totals[name, 'apart']} apart in the gold, {totals[name, 'joined']} joined"
                      for name in sorted({name for name, _ in totals})))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
