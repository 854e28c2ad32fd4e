"""Text repair (``--repair-text``, ftfy) on the shared datasets: pages repaired, pages harmed.

Every page of every dataset is decoded as ``load`` does, then repaired
(:func:`detourage.decode.repair`: ftfy's encoding fixes only).  For each dataset:

``changed``
    pages whose decoded text the repair changes (the others come out identical);
``mojibake before / after``
    pages whose ``fulltext`` output holds a mojibake marker of ``decode_check.py`` that the
    gold does not hold (its bins ``source`` and ``detourage``; U+FFFD aside, no repair
    brings back lost bytes), without and with the repair: what ``decode_check.py`` counts
    as "damage already in the page bytes";
``gold damaged``
    changed pages whose gold the same repair would change too (the annotators kept the
    mojibake: a repair then costs F1 although the text is right);
``<method> up / down / same``
    the changed pages whose F1 against the gold (TO F1, CAR F1 for Chinese and Japanese,
    as ``evaluate`` reports them) goes up, down, or stays within 0.001 with the repair,
    and the mean change over the changed pages, for each ``--method``; ``harmed``: the
    pages whose F1 goes down although their gold is clean (what the repair really
    harms).

Then every changed page is listed with its markers before and after, its F1 changes and
its first changed line, so a harmful repair can be read.  The repair's cost is timed on
every page (ms per page, median and p95), beside what ``load`` (decode, parse, segment)
costs the same page.

    python benchmarks/repair_check.py [--datasets DIR…] [--method M…] [--json PATH]

Default datasets: ``../shared/datasets/*`` and ``../shared/datasets-extra/wcxb-dev``;
default methods: ``fulltext`` and ``default``.  Needs ftfy (``pip install ".[repair]"``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import _common
from decode_check import find_hits, reference_text, visible
from detourage.api import load, run
from detourage.decode import decode, repair, text_fixer
from detourage.evaluation.evaluate import score_page
from detourage.gold import GoldPage, load_dataset
from detourage.gold.text import UNSEGMENTED_LANGS
from detourage.render import MARKERS as UNIT_MARKERS, render

SAME = 0.001  # an F1 change smaller than this is "same"


@dataclass
class Changed:
    """One page the repair changes."""

    dataset: str
    id: str
    reason: str
    markers_before: list[str]
    markers_after: list[str]
    gold_damaged: bool
    #: method → (F1 without, F1 with the repair)
    f1: dict[str, tuple[float, float]]
    first_line: tuple[str, str]


@dataclass
class Row:
    """One dataset's figures."""

    name: str
    pages: int = 0
    changed: int = 0
    mojibake_before: int = 0
    mojibake_after: int = 0
    gold_damaged: int = 0
    #: method → [up, down, same, sum of F1 changes, down with a clean gold]
    moves: dict[str, list[float]] = field(default_factory=dict)
    repair_ms: list[float] = field(default_factory=list)
    #: what ``load`` (decode, parse, segment) costs the same pages, for scale
    load_ms: list[float] = field(default_factory=list)


def mojibake(text: str, gold: str, data: bytes, encoding: str) -> list[str]:
    """The markers (U+FFFD aside) in ``text`` that the gold does not hold."""
    found = find_hits(text, gold, reference_text(data), encoding)
    return sorted({name for (_, name) in found if name != "U+FFFD"})


def f1_of(doc: GoldPage, page, method: str) -> float:  # type: ignore[no-untyped-def]
    """The page's F1 as ``evaluate`` reports it: CAR for unsegmented languages, else TO."""
    pred = [(UNIT_MARKERS[u.kind], u.text) for u in run(page, method).units if u.text]
    scores = score_page(pred, doc)
    return scores["car_f1" if doc.lang.split("-")[0] in UNSEGMENTED_LANGS else "to_f1"]


def first_change(before: str, after: str) -> tuple[str, str]:
    """The first line the repair changed, before and after (cut to 100 characters)."""
    for a, b in zip(before.splitlines(), after.splitlines()):
        if a != b:
            start = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), 0)
            return visible(a[max(0, start - 30):start + 70]), visible(b[max(0, start - 30):start + 70])
    return "", ""


def check_page(doc: GoldPage, dataset: str, gold: str, methods: list[str], row: Row) -> Changed | None:
    """Repair one page; the figures of a page it changes (None when it changes nothing)."""
    data = doc.read_html()
    decoded = decode(data)
    t0 = time.perf_counter()
    fixed = repair(decoded)
    row.repair_ms.append((time.perf_counter() - t0) * 1000)
    t0 = time.perf_counter()
    plain = load(data)
    row.load_ms.append((time.perf_counter() - t0) * 1000)
    before = mojibake(render(run(plain, "fulltext"), "txt"), gold, data, decoded.encoding)
    row.mojibake_before += bool(before)
    if fixed is decoded:
        row.mojibake_after += bool(before)
        return None
    repaired = load(data, repair=True)
    after = mojibake(render(run(repaired, "fulltext"), "txt"), gold, data, decoded.encoding)
    row.mojibake_after += bool(after)
    damaged = text_fixer()(gold) != gold
    row.changed += 1
    row.gold_damaged += damaged
    f1 = {m: (f1_of(doc, plain, m), f1_of(doc, repaired, m)) for m in methods}
    for m, (a, b) in f1.items():
        move = row.moves.setdefault(m, [0, 0, 0, 0.0, 0])
        move[0 if b - a >= SAME else 1 if a - b >= SAME else 2] += 1
        move[3] += b - a
        move[4] += a - b >= SAME and not damaged
    return Changed(dataset, doc.id, fixed.reason, before, after, damaged, f1,
                   first_change(decoded.text, fixed.text))


def check_dataset(folder: Path, methods: list[str], changed: list[Changed]) -> Row:
    dataset = load_dataset(folder)
    row = Row(dataset.name)
    for doc in dataset.documents:
        if doc.gold_kind != "cleaneval" or not doc.scorable:
            continue
        row.pages += 1
        gold = doc.gold_path.read_text(encoding="utf-8") if doc.gold_path else ""
        found = check_page(doc, dataset.name, gold, methods, row)
        if found is not None:
            changed.append(found)
    return row


def table(rows: list[Row], methods: list[str]) -> str:
    heads = ["dataset", "pages", "changed", "mojibake before", "mojibake after", "gold damaged",
             *(f"{m} up / down / same (mean Δ); harmed" for m in methods), "repair ms median / p95",
             "load ms median / p95"]
    lines = ["| " + " | ".join(heads) + " |", "|---|" + "--:|" * (len(heads) - 1)]
    for r in rows:
        moves = []
        for m in methods:
            up, down, same, total, harmed = r.moves.get(m, [0, 0, 0, 0.0, 0])
            moves.append(f"{up:.0f} / {down:.0f} / {same:.0f} ({total / r.changed if r.changed else 0:+.4f}); "
                         f"{harmed:.0f}")
        lines.append(f"| {r.name} | {r.pages} | {r.changed} | {r.mojibake_before} | {r.mojibake_after} | "
                     f"{r.gold_damaged} | " + " | ".join(moves)
                     + f" | {median_p95(r.repair_ms)} | {median_p95(r.load_ms)} |")
    return "\n".join(lines)


def median_p95(ms: list[float]) -> str:
    """``median / p95`` (nearest rank) of timings in ms."""
    if not ms:
        return "–"
    ordered = sorted(ms)
    return f"{statistics.median(ordered):.2f} / {ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]:.2f}"


def page_list(changed: list[Changed], methods: list[str]) -> str:
    lines = []
    for c in changed:
        moves = ", ".join(f"{m} {a:.3f}→{b:.3f}" for m, (a, b) in c.f1.items())
        lines.append(f"- {c.dataset}/{c.id}: markers {c.markers_before or '–'} → {c.markers_after or '–'}; "
                     f"{moves}{'; gold damaged' if c.gold_damaged else ''}\n"
                     f"    {c.first_line[0]!r}\n    → {c.first_line[1]!r}")
    return "\n".join(lines) or "none"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, nargs="*", default=_common.every_dataset())
    parser.add_argument("--method", dest="methods", nargs="*", default=["fulltext", "default"])
    _common.add_json(parser, "the figures and pages")
    args = parser.parse_args(argv)
    folders = [d for d in args.datasets if (d / "html").is_dir()]
    if not folders:
        sys.exit(f"repair_check: no dataset folder among {[str(d) for d in args.datasets]}")
    changed: list[Changed] = []
    t0 = time.perf_counter()
    rows = [check_dataset(folder, args.methods, changed) for folder in folders]
    print(f"# Text repair (ftfy) on {sum(r.pages for r in rows)} scorable pages ({time.perf_counter() - t0:.0f} s)\n")
    print(table(rows, args.methods))
    total_before, total_after = sum(r.mojibake_before for r in rows), sum(r.mojibake_after for r in rows)
    print(f"\nPages with mojibake markers in fulltext output: {total_before} → {total_after} with the repair; "
          f"pages changed: {len(changed)}\n\nHarmed (F1 down, gold clean):")
    print(page_list([c for c in changed if not c.gold_damaged
                     and any(a - b >= SAME for a, b in c.f1.values())], args.methods))
    print("\nChanged pages:")
    print(page_list(changed, args.methods))
    if args.json:
        args.json.write_text(json.dumps({"rows": [{**asdict(r), "repair_ms": None, "load_ms": None} for r in rows],
                                         "changed": [asdict(c) for c in changed]},
                                        ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
