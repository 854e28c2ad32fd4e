"""Where the learned method's time goes: milliseconds per page for each of its steps.

``benchmarks/speed.py`` times whole methods; this script splits ``learned`` into its
steps, on the same pages (the ``.html`` pages of the chosen datasets, bytes in memory,
one process), so that work on its speed aims at the step that costs:

``load``
    decode + parse + segment (:func:`detourage.api.load`), what every method pays;
``features``
    :func:`detourage.learned.features.compute`, and inside it each of its passes
    (``f:text``, ``f:kind``, ``f:walk``, ``f:distances``, ``f:signatures``, ``f:regions``,
    ``f:context``, ``f:page``) and ``f:rest``, what compute does around them (the
    paragraphs' grouping and texts, the feature matrix's assembly);
``forests``
    :meth:`Model.probabilities`: both stages' tree walks and the second stage's context
    columns;
``steps``
    the rest of :func:`detourage.methods.learned.label`, and inside it (the steps of
    :func:`detourage.learned.rules.apply`) the comment
    section's cut (``s:comments``), the related boxes (``s:related``), a product's
    carousels (``s:carousels``), the closing promotional box (``s:promos``), the later
    copies (``s:copies``), code blocks and formulas (``s:code``), the title (``s:title``),
    the fallback (``s:fallback``), the standfirst (``s:standfirst``), whole cards
    (``s:cards``), permalinks (``s:permalinks``), an unnamed comment thread
    (``s:threads``), a news ticker (``s:ticker``), a poll (``s:polls``), a consent box
    (``s:consent``), a product's reviews (``s:reviews``), a forum's posts (``s:posts``),
    paragraphs led by a picture (``s:pictured``), a section's lists (``s:sections``),
    data tables (``s:tables``), the site's frame (``s:frame``), what follows a closing
    notice (``s:notice``), a doubted page's lower line (``s:doubt``), signatures
    (``s:signatures``), a poster's profile fields (``s:profiles``), the page-type guess (``s:type``,
    :func:`detourage.learned.pagetype.guess`), the labels of the blocks (``s:labels``) and
    ``s:rest`` (threshold,
    comment containers, details);
``units``
    the kept blocks grouped into output units (:func:`detourage.render.units`, which
    :func:`detourage.api.run` calls for every method);
``render``
    the units to text (:func:`detourage.render.render`).

Each step is timed by wrapping its function with ``time.perf_counter`` (a wrapper costs
well under a microsecond, against steps of tens of microseconds and more).  Medians do
not add up; means do: the table gives both, and each step's share of the learned
method's mean (load excluded).  A warm-up pass runs first.

``parse-only`` (decode + parse, :mod:`benchmarks.speed`'s yardstick) is timed too, and the
table ends with ``(load + learned) / parse-only`` of the means and of the medians: what
``speed.py`` checks against its 4× target, estimated from the same pages.

On a shared machine one timing of a page is noisy; ``--repeat K`` runs every page K times
and keeps, step by step, the fastest of the K (the page's cost with the least interference),
which makes before/after comparisons of a change steady to a few per cent.

    python benchmarks/learned_profile.py                  # all pages (~30 s)
    python benchmarks/learned_profile.py --sample 100     # 100 pages per dataset
    python benchmarks/learned_profile.py --sample 60 --repeat 5   # steady figures for A/B
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable

import _common
from speed import load_pages

#: features' passes: attribute of detourage.learned.features (a function, or a method of _Tree)
PASSES = {"f:text": "_text", "f:kind": "_kind", "f:walk": "_Tree.__init__", "f:distances": "_Tree.distances",
          "f:signatures": "_signatures", "f:regions": "_regions", "f:context": "_context", "f:page": "_page"}


#: the method's page-level steps: attribute of detourage.learned.rules (the names its
#: ``apply`` calls them by); the labels of the blocks: of detourage.methods.learned
RULE_STEPS = {"s:comments": "drop_comments", "s:related": "drop_related_boxes", "s:appended": "drop_appended_articles",
              "s:beside": "drop_boxes_beside", "s:carousels": "drop_product_carousels",
              "s:promos": "drop_closing_promos", "s:copies": "drop_later_copies", "s:code": "whole_code_blocks",
              "s:title": "keep_title", "s:fallback": "fall_back", "s:standfirst": "keep_standfirst",
              "s:boundary": "keep_boundary_lines", "s:cards": "keep_whole_cards", "s:parents": "keep_parent_items",
              "s:controls": "drop_controls",
              "s:figures": "keep_figures", "s:permalinks": "drop_permalinks",
              "s:threads": "drop_stamped_threads", "s:ticker": "drop_dated_headlines", "s:polls": "drop_polls",
              "s:consent": "drop_consent_boxes", "s:reviews": "drop_product_reviews", "s:posts": "keep_thread_posts",
              "s:pictured": "keep_pictured_paragraphs", "s:sections": "keep_section_lists",
              "s:tables": "keep_data_tables", "s:frame": "drop_site_frame", "s:notice": "drop_after_notice",
              "s:doubt": "lower_when_doubted", "s:signatures": "drop_signatures",
              "s:profiles": "drop_profile_fields"}
LABELS = {"s:labels": "label_paragraphs"}
#: the page-type guess: attribute of detourage.learned.pagetype
TYPE_STEPS = {"s:type": "guess"}
STEPS = {**RULE_STEPS, **LABELS, **TYPE_STEPS}


class Clock:
    """Seconds spent per step on the current page."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)

    def wrap(self, name: str, func: Callable) -> Callable:
        spent, clock = self.spent, time.perf_counter

        def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
            t0 = clock()
            try:
                return func(*args, **kwargs)
            finally:
                spent[name] += clock() - t0
        return timed


def instrument(clock: Clock, patch: Callable[[object, str, object], None] = setattr) -> None:
    """Wrap the learned method's steps with ``clock``, replacing them by ``patch``
    (``setattr``; a test passes its undoable ``monkeypatch.setattr``)."""
    from detourage import pipeline
    from detourage.learned import features, pagetype, rules
    from detourage.learned.forest import Model
    from detourage.methods import learned

    for name, attr in PASSES.items():
        owner_name, _, func_name = attr.rpartition(".")
        owner = getattr(features, owner_name) if owner_name else features
        patch(owner, func_name, clock.wrap(name, getattr(owner, func_name)))
    for owner, steps in ((rules, RULE_STEPS), (learned, LABELS), (pagetype, TYPE_STEPS)):
        for name, attr in steps.items():
            patch(owner, attr, clock.wrap(name, getattr(owner, attr)))
    patch(pipeline, "units", clock.wrap("units", pipeline.units))  # as pipeline.run calls it
    patch(features, "compute", clock.wrap("features", features.compute))
    patch(Model, "probabilities", clock.wrap("forests", Model.probabilities))


def profile(pages: list, warmup: int, patch: Callable[[object, str, object], None] = setattr,
            repeat: int = 1) -> dict[str, list[float]]:
    """Step → milliseconds on every page, the fastest of ``repeat`` runs of the page
    (``patch``: as :func:`instrument`'s)."""
    from detourage.api import load, run
    from detourage.decode import decode
    from detourage.parse import parse
    from detourage.render import render

    clock = Clock()
    instrument(clock, patch)
    wall = time.perf_counter

    def one(data: bytes) -> dict[str, float]:
        clock.spent.clear()
        t0 = wall()
        parse(decode(data).text)
        parsed = wall() - t0
        t0 = wall()
        page = load(data)
        t1 = wall()
        result = run(page, "learned")
        t2 = wall()
        render(result, "txt")
        t3 = wall()
        spent = dict.fromkeys(STEPS, 0.0)  # a step the page's type skips costs it nothing
        spent.update(clock.spent)
        spent.update({"parse-only": parsed, "load": t1 - t0, "learned": t3 - t1, "render": t3 - t2})
        spent["steps"] = (t2 - t1) - sum(spent.get(k, 0.0) for k in ("features", "forests", "units"))
        spent["f:rest"] = spent.get("features", 0.0) - sum(spent.get(k, 0.0) for k in PASSES)
        spent["s:rest"] = spent["steps"] - sum(spent.get(k, 0.0) for k in STEPS)
        return spent

    for page in pages[:warmup]:
        one(page.data)
    out: dict[str, list[float]] = defaultdict(list)
    for page in pages:
        fastest: dict[str, float] = {}
        for _ in range(repeat):
            for name, seconds in one(page.data).items():
                fastest[name] = min(seconds, fastest.get(name, seconds))
        for name, seconds in fastest.items():
            out[name].append(seconds * 1000)
    return out


ORDER = ("parse-only", "load", "learned", "features", *PASSES, "f:rest", "forests", "steps", *STEPS, "s:rest",
         "units", "render")


def table(ms: dict[str, list[float]]) -> str:
    total = statistics.fmean(ms["learned"])
    lines = [_common.table_head(["step", "median ms", "mean ms", "share of learned (mean)"], "lrrr")]
    for name in ORDER:
        xs = ms.get(name)
        if not xs:
            continue
        mean = statistics.fmean(xs)
        share = "" if name in ("parse-only", "load") else f"{mean / total:.0%}"
        lines.append(f"| {name} | {statistics.median(xs):.3f} | {mean:.3f} | {share} |")
    parse = ms.get("parse-only")
    if parse:
        whole = [a + b for a, b in zip(ms["load"], ms["learned"])]
        lines.append(f"| (load + learned) / parse-only | "
                     f"{statistics.median(whole) / statistics.median(parse):.2f}× | "
                     f"{statistics.fmean(whole) / statistics.fmean(parse):.2f}× | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_datasets(ap)
    ap.add_argument("--only", nargs="+", help="dataset folder names (default: all)")
    ap.add_argument("--sample", type=int, help="pages per dataset (default: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--warmup", type=int, default=50, help="pages run before timing")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs of each page; each step keeps the fastest (default: 1)")
    args = ap.parse_args(argv)
    if not args.datasets.is_dir():
        print(f"no datasets folder at {args.datasets}", file=sys.stderr)
        return 2
    pages = load_pages(args.datasets, args.only, args.sample, args.seed)
    if not pages:
        print("no pages", file=sys.stderr)
        return 2
    gc.freeze()  # the pages held in memory stay out of the collector's way
    ms = profile(pages, args.warmup, repeat=max(1, args.repeat))
    print(f"learned, step by step: {len(pages)} pages of {args.datasets}, fastest of {max(1, args.repeat)} runs each")
    print(table(ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
