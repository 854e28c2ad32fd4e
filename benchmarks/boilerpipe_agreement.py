"""Native ``boilerpipe`` against the peer BoilerPy3, per shared dataset (shingle F1 vs gold).

    pip install boilerpy3
    python benchmarks/boilerpipe_agreement.py [--limit N] [--datasets DIR] [--variant article|default|both]

Both sides get the same decoded HTML (:func:`detourage.decode.decode`).  For each dataset
with CleanEval-style gold it prints the shingle P/R/F1 of the native method and of the
peer's extractor of the same name, their difference (target: |ours − peer| ≤ 0.03 for
the article variant), the mean per-page shingle F1 between the two outputs (agreement),
and the median milliseconds per page of ``label()`` beside lxml's parse.  The last
columns repeat the F1 comparison on the "sound" pages, where BoilerPy3's anchor counting
did not break (see :func:`peer_content`).
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

from detourage import methods
from detourage.api import load, run
from detourage.decode import decode
from detourage.evaluation import metrics
from detourage.evaluation.gold import load_dataset
from detourage.methods import boilerpipe

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"
PEERS = {"article": "ArticleExtractor", "default": "DefaultExtractor"}


def f1(c: metrics.ShingleCounts) -> float:
    p, r = c.precision or 0.0, c.recall or 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def peer_content(extractor: object, html: str) -> tuple[str, bool]:
    """The peer's content and whether its anchor bookkeeping broke on this page.

    BoilerPy3 parses with ``html.parser``, which repairs nothing: a stray ``</a>`` drives
    its anchor counter below zero, after which an anchor start marker is never closed and
    every later word of the page counts as link text (link density 1: nothing is content);
    and text counts only inside an explicit ``<body>`` tag, so a page without one (HTML
    lets it be implied) has no text at all.
    """
    from boilerpy3 import parser

    class Watched(parser.BoilerpipeHTMLParser):
        broken = False
        body = False

        def start_element(self, name: str, attrs: object) -> None:
            super().start_element(name, attrs)  # type: ignore[arg-type]
            self.body |= self.in_body > 0

        def end_element(self, name: str) -> None:
            super().end_element(name)
            self.broken |= self.in_anchor < 0

    try:
        watched = Watched(raise_on_failure=False)
        watched.feed(html)
        doc = watched.to_text_document()
        extractor.filter.process(doc)  # type: ignore[attr-defined]
        return doc.content, watched.broken or watched.in_anchor_text or not watched.body
    except Exception:  # the peer's failures count as empty output
        return "", True


def measure(dataset: Path, variant: str, limit: int | None) -> dict[str, object]:
    from boilerpy3 import extractors

    peer = getattr(extractors, PEERS[variant])(raise_on_failure=False)
    options = {"boilerpipe": boilerpipe.Options(variant=variant)}
    ours, theirs, agree, label_ms, parse_ms, broken = [], [], [], [], [], []
    docs = load_dataset(dataset).scorable
    docs = [d for d in docs if d.gold_kind != "snippets"][:limit]
    for doc in docs:
        raw = doc.read_html()
        page = load(raw)
        t0 = time.perf_counter()
        result = run(page, "boilerpipe", options)
        label_ms.append((time.perf_counter() - t0) * 1000)
        parse_ms.append(page.timings["parse"] * 1000)
        peer_text, is_broken = peer_content(peer, decode(raw).text)
        broken.append(is_broken)
        gold = list(doc.gold_blocks)
        ours.append(metrics.shingle_counts(result.text, gold))
        theirs.append(metrics.shingle_counts(peer_text, gold))
        agree.append(f1(metrics.shingle_counts(result.text, peer_text)))
    if not docs:
        return {}
    a = metrics.shingle_summary(ours, n_bootstrap=0)
    b = metrics.shingle_summary(theirs, n_bootstrap=0)
    sound = [i for i, bad in enumerate(broken) if not bad]
    a2 = metrics.shingle_summary([ours[i] for i in sound], n_bootstrap=0)
    b2 = metrics.shingle_summary([theirs[i] for i in sound], n_bootstrap=0)
    return {"pages": len(docs), "ours": a, "peer": b, "agree": statistics.fmean(agree),
            "sound": len(sound), "ours_sound": a2.f1, "peer_sound": b2.f1,
            "label_ms": statistics.median(label_ms), "parse_ms": statistics.median(parse_ms)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", type=Path, default=SHARED)
    parser.add_argument("--limit", type=int, default=None, help="pages per dataset")
    parser.add_argument("--variant", choices=["article", "default", "both"], default="both")
    args = parser.parse_args()
    if not args.datasets.is_dir():
        sys.exit(f"{args.datasets}: no shared datasets here")
    logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)  # nested-<a> warnings
    methods.MODULES.setdefault("boilerpipe", "detourage.methods.boilerpipe")
    variants = ["article", "default"] if args.variant == "both" else [args.variant]
    print(f"{'variant':8} {'dataset':18} {'pages':>5} {'ours P/R/F1':>17} {'peer P/R/F1':>17}"
          f" {'diff':>6} {'agree':>6} {'label ms':>8} {'parse ms':>8}"
          f"  | sound pages: {'n':>4} {'ours':>6} {'peer':>6} {'diff':>6}")
    for variant in variants:
        for dataset in sorted(p for p in args.datasets.iterdir() if p.is_dir()):
            m = measure(dataset, variant, args.limit)
            if not m:
                continue
            a, b = m["ours"], m["peer"]
            print(f"{variant:8} {dataset.name:18} {m['pages']:5d} "
                  f"{a.precision:.3f}/{a.recall:.3f}/{a.f1:.3f} {b.precision:.3f}/{b.recall:.3f}/{b.f1:.3f} "
                  f"{a.f1 - b.f1:+.3f} {m['agree']:6.3f} {m['label_ms']:8.2f} {m['parse_ms']:8.2f}"
                  f"  |              {m['sound']:4d} {m['ours_sound']:6.3f} {m['peer_sound']:6.3f}"
                  f" {m['ours_sound'] - m['peer_sound']:+6.3f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
