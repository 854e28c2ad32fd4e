"""The shared pages read as their scripts show them, and how the methods clean them.

    PYTHONPATH=benchmarks python benchmarks/studies/hidden_pages.py        # ~2 min on 2 cores

Three kinds of page hide, as served, what every reader sees once the scripts have run,
and :func:`detourage.loading.load` reads each as shown:

- ``noscript``: a page that shows (almost) no text without JavaScript, while its
  ``<noscript>`` holds more, or little text while its ``<noscript>`` holds
  :data:`~detourage.segment.NOSCRIPT_RATIO` times as much
  (:func:`detourage.segment.show_noscript`: every Discourse forum thread);
- ``streamed``: a page React streams, whose late segments wait in hidden ``<div>`` s
  for a script to move them into place (:func:`detourage.reveal.place_streamed`);
- ``hidden body``: a page that shows under :data:`~detourage.reveal.HIDDEN_PAGE_CHARS`
  characters (or whose ``<main>`` does) and hides many times that in one element until
  a script has run (:func:`detourage.reveal.show_hidden_body`).

And one kind of text is on the page but no reader sees it: the text for screen readers
only (:data:`detourage.segment.SCREEN_READER_CLASSES`), which segmentation leaves out.
The text a CSS framework's class hides until a script shows it (:data:`HIDING_CLASSES`)
is read: a click shows some of it.

This lists which pages of ``../shared/datasets`` and ``datasets-extra/wcxb-dev`` take
each path, prints for every page searched by ``hidden body`` the ratio its rule reads
(its hidden element's text over the text shown: the evidence for
:data:`~detourage.reveal.HIDDEN_BODY_RATIO`) and, for every page showing under
:data:`NOSCRIPT_SEEN` characters, its ``<noscript>`` text over the text shown (the
evidence for :data:`~detourage.segment.NOSCRIPT_RATIO`), then scores ``learned``, ``boilerpipe`` and
the peers on the pages of each path: shingle F1 (page-averaged P and R).  Last, for each
dataset, how many pages hold text for screen readers only and how many of its pieces
(an element of such a class, its words as one string) the gold holds, and the same in
pieces and words for each class that may hide.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import _common
from detourage import loading, reveal, segment
from detourage.evaluation import metrics
from detourage.evaluation.evaluate import evaluate
from detourage.gold import load_dataset
from detourage.parse import parse
from train_learned import dataset_paths

METHODS = ("learned", "boilerpipe", "peer-trafilatura", "peer-readability")

#: the loading steps watched, by the name of the path they open
PATHS = {"noscript": "show_noscript", "streamed": "place_streamed", "hidden body": "show_hidden_body"}


def paths_taken(html: bytes | str, ratios: list[float], noscript: list[tuple[float, int]] | None = None) -> list[str]:
    """The paths :func:`detourage.loading.load` takes on this page; the ratio read by the
    hidden-body rule appended to ``ratios`` when it searched the page, and the page's
    ``<noscript>`` text over its text shown (with the text shown) to ``noscript`` when it
    shows under :data:`NOSCRIPT_SEEN` characters and its ``<noscript>`` holds some."""
    taken: list[str] = []
    real = {name: getattr(loading, attr) for name, attr in PATHS.items()}

    def spy(name: str) -> Callable[..., bool]:
        def call(*args: Any) -> bool:
            if name == "hidden body":
                ratios.extend(_ratio(*args))
            if name == "noscript" and noscript is not None:
                noscript.extend(_noscript_ratio(*args))
            done = bool(real[name](*args))
            if done:
                taken.append(name)
            return done
        return call

    for name, attr in PATHS.items():
        setattr(loading, attr, spy(name))
    try:
        loading.load(html)
    finally:
        for name, attr in PATHS.items():
            setattr(loading, attr, real[name])
    return taken


def _ratio(root: Any, blocks: tuple[Any, ...]) -> list[float]:
    """What :func:`~detourage.reveal.show_hidden_body` weighs on a page it searches (the
    page, or its ``<main>``: :func:`~detourage.reveal.hidden_body_scope`): the largest
    hidden element's text there over the text shown there (none when it does not search)."""
    if root is None:
        return []
    scope, shown = reveal.hidden_body_scope(root, blocks)
    if scope is None:
        return []
    element, chars = reveal.largest_hidden(scope)
    return [chars / max(shown, 1)] if element is not None else []


#: the pages whose ``<noscript>`` text is weighed against the text they show: those showing
#: fewer characters than this (three times :data:`~detourage.segment.NOSCRIPT_SHOWN_CHARS`)
NOSCRIPT_SEEN = 3000


def _noscript_ratio(root: Any, blocks: tuple[Any, ...]) -> list[tuple[float, int]]:
    """What :func:`~detourage.segment.show_noscript` weighs on a page showing under
    :data:`NOSCRIPT_SEEN` characters: the text of its body's ``<noscript>`` s over the text
    shown, and the text shown (none when it shows more, or holds no such text)."""
    shown = sum(len(block.text) for block in blocks)
    if root is None or shown >= NOSCRIPT_SEEN:
        return []
    _, held = segment.noscript_text(root)
    return [(held / max(shown, 1), shown)] if held else []


def main() -> int:
    datasets = [load_dataset(p) for p in dataset_paths()]
    total = 0
    chosen: dict[str, list[Any]] = {name: [] for name in PATHS}
    searched: list[tuple[float, str]] = []
    weighed: list[tuple[float, int, str]] = []
    for ds in datasets:
        by_path: dict[str, list[Any]] = {name: [] for name in PATHS}
        for doc in ds.scorable:
            ratios: list[float] = []
            noscript: list[tuple[float, int]] = []
            for name in paths_taken(doc.read_html(), ratios, noscript):
                by_path[name].append(doc)
            searched += [(ratio, f"{ds.name}/{doc.id}") for ratio in ratios]
            weighed += [(ratio, shown, f"{ds.name}/{doc.id}") for ratio, shown in noscript]
        total += len(ds.scorable)
        for name, docs in by_path.items():
            if docs:
                chosen[name].append(replace(ds, documents=tuple(docs)))
    print(f"{len(searched)} of {total} scorable pages searched for a hidden body "
          f"(under {reveal.HIDDEN_PAGE_CHARS} characters shown, on the page or in its <main> on a page of under "
          f"{reveal.MAIN_PAGE_BLOCKS} blocks, something hidden there); "
          f"hidden text over shown, shown at {reveal.HIDDEN_BODY_RATIO} and above:")
    for ratio, page in sorted(searched):
        print(f"  {ratio:9.1f}  {page}")
    print(f"\n{len(weighed)} of {total} scorable pages show under {NOSCRIPT_SEEN} characters and hold text in "
          f"<noscript>; its text over the text shown (the text shown), read at "
          f"{segment.NOSCRIPT_RATIO} and above under {segment.NOSCRIPT_SHOWN_CHARS} characters shown:")
    for ratio, shown, page in sorted(weighed):
        print(f"  {ratio:9.1f}  ({shown:4d})  {page}")
    for name, sets in chosen.items():
        ids = [f"{ds.name}/{d.id}" for ds in sets for d in ds.documents]
        print(f"\n{name}: {len(ids)} of {total} scorable pages: {', '.join(ids)}")
        if ids:
            _scores(sets)
    _hidden_by_class(datasets)
    return 0


def _hidden_by_class(datasets: list[Any]) -> None:
    """For each dataset: how many pages hold text for screen readers only, and how many
    of its pieces the gold holds; then the same, in pieces and in words, for each class
    that may hide (:data:`HIDING_CLASSES`)."""
    print("\ntext for screen readers only: pages holding some, and its pieces in the gold or not")
    print(_common.table_head(["dataset", "pages", "with some", "pieces not in the gold", "in the gold"], "lrrrr"))
    by_class = {}
    for ds in datasets:
        counts, classes = [], Counter()
        for doc in ds.scorable:
            pieces = _hidden_pieces(doc)
            counts.append((pieces["sr"][0], pieces["sr"][1]))
            classes.update({(name, k): n for name, c in pieces.items() if name != "sr" for k, n in enumerate(c)})
        by_class[ds.name] = classes
        print(f"| {ds.name} | {len(counts)} | {sum(1 for c in counts if sum(c))} | {sum(c[0] for c in counts)} "
              f"| {sum(c[1] for c in counts)} |")
    print("\ntext a class hides (outermost pieces of two words at least): pieces and words not in the gold, in it")
    print(_common.table_head(["dataset", "class", "pieces out", "pieces in", "words out", "words in"], "llrrrr"))
    for name, classes in by_class.items():
        for hiding in sorted({c for c, _ in classes}):
            print(f"| {name} | {hiding} | " + " | ".join(str(classes[hiding, k]) for k in range(4)) + " |")


#: the classes by which CSS frameworks hide an element until a script shows it (Bootstrap's
#: ``hide``, ``d-none`` and ``invisible``, Tailwind's ``hidden``, Bulma's ``is-hidden``,
#: GOV.UK's ``js-hidden``, SUIT's ``u-hidden``) and a bare ``none``.  Segmentation reads
#: them all: leaving out the first six was tried (commit 1a0b245) and not kept, see
#: docs/output-quality.md, "Pages whose scripts show their content"
HIDING_CLASSES = ("hide", "d-none", "is-hidden", "js-hidden", "u-hidden", "display-none", "hidden", "invisible",
                  "none")

#: Bootstrap's class that shows, from a screen width on, what ``d-none`` hides below it
_SHOWN_FROM = re.compile(r"(?<![\w-])d-(?:sm|md|lg|xl|xxl)-(?!none)[a-z-]+")


def _hidden_pieces(doc: Any) -> dict[str, list[int]]:
    """Of the page's elements of a screen-reader-only class (``"sr"``: outermost ones,
    three characters of words at least): how many the gold does not hold, and how many it
    does (their words, lower-cased, found in the gold's as a run); of those a class
    hides (:func:`_hiding`; outermost ones, two words at least): the same and their words."""
    out: dict[str, list[int]] = {"sr": [0, 0]}
    root = parse(doc.read_html())
    if root is None:
        return out
    gold = _words(" ".join(text for _, text in doc.gold_blocks) if doc.gold_blocks
                  else doc.gold_path.read_text(encoding="utf-8", errors="replace"))
    for el in root.iter():
        if _screen_reader_only(el) and not any(_screen_reader_only(a) for a in el.iterancestors()):
            piece = _words(" ".join(el.itertext()))
            if len(piece.strip()) >= 3:
                out["sr"][piece in gold] += 1
        hiding = _hiding(el)
        if hiding and el.tag not in segment.INVISIBLE and not any(_hiding(a) for a in el.iterancestors()):
            piece = _words(" ".join(el.itertext()))
            if len(words := piece.split()) >= 2:
                counts = out.setdefault(hiding, [0, 0, 0, 0])
                counts[piece in gold] += 1
                counts[2 + (piece in gold)] += len(words)
    return out


def _hiding(el: Any) -> str:
    """The class of :data:`HIDING_CLASSES` by which ``el`` is hidden ("" when none is, or
    when a class of Bootstrap's shows it from a screen width on: ``d-none d-md-block``)."""
    classes = el.get("class") if isinstance(el.tag, str) else None
    if not classes or _SHOWN_FROM.search(classes):
        return ""
    names = classes.split()
    return next((name for name in HIDING_CLASSES if name in names), "")


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.lower())) + " "


def _screen_reader_only(el: Any) -> bool:
    classes = el.get("class") if isinstance(el.tag, str) else None
    return bool(classes) and not segment.SCREEN_READER_CLASSES.isdisjoint(classes.split())


def _scores(sets: list[Any]) -> None:
    run = evaluate(sets, list(METHODS), workers=2)
    print(_common.table_head(["method", "pages", "shingle F1", "P", "R"], "lrrrr"))
    for method in METHODS:
        rows = [r for r in run.pages if r["method"] == method]
        s = metrics.shingle_summary([metrics.ShingleCounts(r["shingle_tp"], r["shingle_fp"], r["shingle_fn"])
                                     for r in rows], n_bootstrap=0)
        print(f"| {method} | {len(rows)} | {s.f1:.3f} | {s.precision:.3f} | {s.recall:.3f} |")


if __name__ == "__main__":
    sys.exit(main())
