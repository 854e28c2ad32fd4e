"""The wcxb-dev pages whose gold is empty, and what each method makes of them.

    PYTHONPATH=benchmarks python benchmarks/studies/shell_pages.py        # ~1 min
    PYTHONPATH=benchmarks python benchmarks/studies/shell_pages.py --models DIR

WCXB leaves the gold of a page empty when the page holds no main content; its own
scorer gives such a page 1 when the output is empty too, and 0 otherwise (the shared
evaluation leaves these pages out: a page without gold is not scorable).  Most of them
are a site's frame without the content its script would have fetched (a shop's header
and footer around nothing, an AliExpress item's page before its script ran); a few are
full pages whose gold was never written (a 49 000-character buying guide).

For each such page: its type, the characters of text it shows, and the words each
method gives (``learned`` with the shipped model, and with ``--models DIR`` also with
the fold models ``learned_lodo.py --models DIR`` fitted: the one of the page's host
fold, and the one that never saw a wcxb-dev page; ``peer-trafilatura`` and
``peer-readability``), with the learned extractor's fallback (the JSON details' reason
when it fired).  Then, per method, how many pages come out empty: what WCXB's scorer
counts.  Last, over every wcxb-dev page, those whose text lies almost all (95 %) inside a
``<header>``, ``<nav>`` or ``<footer>`` outside any ``<article>``/``<main>``, and how much
of it :func:`detourage.learned.rules.frame.site_frame` takes for the site's frame: a
shell's, all; a page swallowed by a ``<header>`` left open, none of its story.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import _common
from detourage.gold import load_dataset
from detourage.learned import features
from detourage.learned.forest import Model, load_model
from detourage.learned.rules.frame import framed_by_tags, site_frame
from detourage.loading import load
from detourage.methods.learned import Options
from detourage.pipeline import result as page_result
from detourage.settings import Settings
from learned_lodo import fold_of

PEERS = ("peer-trafilatura", "peer-readability")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=Path, help="the fold models of learned_lodo.py --models DIR")
    args = parser.parse_args()
    root = _common.SHARED / "datasets-extra" / "wcxb-dev"
    meta = {row["id"]: row for row in map(json.loads, (root / "meta.jsonl").read_text().splitlines())}
    dataset = load_dataset(root)
    empty = [doc for doc in dataset.documents if meta.get(doc.id, {}).get("empty_gold")]
    models: dict[str, Model | None] = {"learned": None}
    columns = ["learned"]
    if args.models:
        columns += ["learned (host fold)", "learned (no WCXB page)"]
    columns += list(PEERS)
    print(_common.table_head(["page", "type", "text shown", *columns, "fallback"], "lllr" + "r" * len(columns) + "l"))
    emptied = dict.fromkeys(columns, 0)
    for doc in empty:
        raw = doc.read_html()
        url = meta[doc.id]["url"]
        row, fallback = [], ""
        for name in columns:
            settings, method = Settings(), name
            if name.startswith("learned"):
                method = "learned"
                if name != "learned":
                    fold = fold_of("wcxb-dev", doc) if "host" in name else "wcxb-dev"
                    if fold not in models:
                        models[fold] = load_model(str(args.models / f"{fold}.zip"))
                    settings = Settings(options=(("learned", Options(model=models[fold])),))
            result = page_result(raw, settings, url=url, method=method)
            words = len(result.text.split())
            emptied[name] += not words
            row.append(str(words))
            if name == "learned":
                details = result.labels.details.get("learned", {})
                fallback = details.get("frame_only") or (details.get("reason", "") if "fallback" in details else "")
                shown = sum(len(block.text) for block in result.page.blocks)
        print(f"| {doc.id} | {meta[doc.id]['page_type']} | {shown} | " + " | ".join(row) + f" | {fallback} |")
    print()
    print(f"{len(empty)} pages with an empty gold; left empty: "
          + ", ".join(f"{name} {count}" for name, count in emptied.items()))
    print()
    print(_common.table_head(["page", "gold", "characters", "inside a header, menu or footer", "frame"], "llrrr"))
    for doc in dataset.documents:
        page = load(doc.read_html())
        para = features.compute(page)
        total = int(para.chars.sum())
        boxed = framed_by_tags(para)
        if total and para.chars[boxed].sum() >= 0.95 * total:
            gold = "empty" if meta.get(doc.id, {}).get("empty_gold") else "text"
            print(f"| {doc.id} | {gold} | {total} | {int(para.chars[boxed].sum())} "
                  f"| {int(para.chars[site_frame(para)].sum())} |")


if __name__ == "__main__":
    main()
