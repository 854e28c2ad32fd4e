"""Native ``boilerpipe`` against the peer BoilerPy3, per shared dataset (shingle F1 vs gold).

    pip install boilerpy3
    PYTHONPATH=benchmarks python benchmarks/studies/boilerpipe_agreement.py [--limit N] [--only NAME…]
        [--variant article|default|both] [--explain] [--worst N] [--jobs N]

Both sides start from the same decoded HTML (:func:`detourage.decode.decode`).  Per
dataset with CleanEval-style gold it prints the shingle F1 of

- *ours*: the native method (:mod:`detourage.methods.boilerpipe`);
- *raw*: BoilerPy3's extractor of the same name on the decoded page.  BoilerPy3 parses
  with ``html.parser``, which repairs nothing (see :func:`peer_text`);
- *sound*: the same extractor on the page re-serialised from our lxml parse
  (``lxml.html.tostring``: stray end tags dropped, ``<body>`` present, ``<br/>`` written
  ``<br>``), which takes BoilerPy3's front end out of the comparison; the target for the
  article variant is |ours − sound| ≤ 0.03;
- *sound\\**: the same, nested ``<a>`` elements (which libxml2 keeps, and on which both
  BoilerPy3's and Boilerpipe's anchor counters go negative, so that every later word of
  the page counts as link text) unwrapped first, as an HTML5 parser would have them;

then the share of pages where ours and the sound\\* peer keep nearly the same text
(shingle F1 between the two outputs ≥ 0.9), and the median milliseconds per page of
``label()`` beside lxml's parse.

``--explain`` (article variant) separates the two halves of each method, the front end
(page → text blocks) and the filter chain (blocks → content), by crossing them:
*py3-chain* runs BoilerPy3's ArticleExtractor chain on our text blocks, *java-chain* runs
our chain (Java boilerpipe 1.2's) on the blocks of BoilerPy3's front end (fed the sound\\*
page, given Boilerpipe 1.2's ``<li>``/``<h1-3>`` labels and end events for void elements
so that its tag levels do not drift).  Each page where ours and sound\\* differ is then
classified by the first half that separates them (``chain``: ours vs py3-chain;
``front end``: py3-chain vs sound\\*), and each chain difference by the Java 1.2 filter
whose removal brings our output back to py3-chain's (:data:`JAVA_ONLY`).
``--worst N`` lists the N pages of each dataset where ours and sound\\* differ most.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import lxml.html

import _common
from detourage import methods
from detourage.api import load, run
from detourage.decode import decode
from detourage.evaluation import metrics
from detourage.gold import GoldPage, load_dataset
from detourage.methods import boilerpipe as bp, peers
from detourage.model import Page

PEERS = {"article": "ArticleExtractor", "default": "DefaultExtractor"}
SAME = 0.9  # shingle F1 between two outputs above which they keep "nearly the same" text


def f1(c: metrics.ShingleCounts) -> float:
    p, r = c.precision or 0.0, c.recall or 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def agreement(a: str, b: str) -> float:
    """Shingle F1 between two outputs (1 when both are empty)."""
    if not metrics.shingles(a) and not metrics.shingles(b):
        return 1.0
    return f1(metrics.shingle_counts(a, b))


# --- the peer's inputs ---------------------------------------------------------------------


def peer_text(variant: str, html: str) -> str:
    """BoilerPy3's content for ``html``; its failures count as empty output.

    On raw pages its ``html.parser`` front end breaks: a stray ``</a>`` drives its anchor
    counter below zero, after which an anchor start marker is never closed and every later
    word counts as link text (link density 1: nothing is content); text counts only inside
    an explicit ``<body>`` tag, so a page without one has no text; ``<br/>`` is ignored.
    """
    from boilerpy3 import extractors

    try:
        return str(getattr(extractors, PEERS[variant])(raise_on_failure=False).get_content(html))
    except Exception:  # noqa: BLE001 - the peer's failures count as empty output
        return ""


def sound_html(page: Page, unnest: bool = False) -> str:
    """The page re-serialised from our lxml tree; with ``unnest``, ``<a>`` elements inside
    another ``<a>`` are unwrapped (their text stays, inside the outer link)."""
    if page.tree is None:
        return ""
    html = lxml.html.tostring(page.tree, encoding="unicode")
    if not unnest:
        return html
    root = lxml.html.document_fromstring(html)
    nested = [a for a in root.iter("a") if next(a.iterancestors("a"), None) is not None]
    if not nested:
        return html
    for a in nested:
        a.drop_tag()
    return lxml.html.tostring(root, encoding="unicode")


def has_nested_anchor(page: Page) -> bool:
    return page.tree is not None and any(
        next(a.iterancestors("a"), None) is not None for a in page.tree.iter("a"))


# --- crossing front ends and chains (--explain) ----------------------------------------------


def py3_chain(doc: list[bp.TextBlock], title: str) -> str:
    """BoilerPy3's ArticleExtractor chain run on our text blocks."""
    from boilerpy3 import extractors
    from boilerpy3.document import TextBlock, TextDocument

    blocks = []
    for tb in doc:
        b = TextBlock(tb.text, set(), tb.words, tb.anchor_words, tb.wrapped_words,
                      tb.wrapped_lines, tb.start)
        b.tag_level = tb.tag_level
        blocks.append(b)
    text_doc = TextDocument(blocks, title or None)
    extractors.ArticleExtractor(raise_on_failure=False).filter.process(text_doc)
    return str(text_doc.content)


def py3_blocks(html: str) -> tuple[list[bp.TextBlock], str]:
    """BoilerPy3's front end (on sound HTML), as our text blocks, with Boilerpipe 1.2's
    ``<li>``/``<h1-3>`` labels and balanced tag levels; and the title it read."""
    from boilerpy3 import parser

    actions = dict(parser.default_tag_action_map)
    for tag, labels in (("LI", (bp.LI,)), ("H1", (bp.HEADING,)), ("H2", (bp.HEADING,)),
                        ("H3", (bp.HEADING,))):
        actions[tag] = parser.BlockTagLabelAction(parser.LabelAction(*labels))

    class Balanced(parser.BoilerpipeHTMLParser):
        """Void elements end where they start (lxml writes ``</embed>`` but no ``</br>``)."""

        def handle_starttag(self, tag: str, attrs: Any) -> None:
            super().handle_starttag(tag, attrs)
            if tag in _VOID:  # html.parser gives no end event: the tag level would drift
                self.end_element(tag)

        def handle_endtag(self, tag: str) -> None:
            if tag not in _VOID:
                super().handle_endtag(tag)

    front = Balanced(raise_on_failure=False)
    front.tag_actions = actions
    try:
        front.feed(html)
    except Exception:  # noqa: BLE001 - html.parser's own failures: keep the blocks read so far
        pass
    text_doc = front.to_text_document()
    doc = [bp.TextBlock([], tb.text, tb.num_words, tb.num_words_in_anchor_text,
                        tb.num_words_in_wrapped_lines, tb.num_wrapped_lines,
                        tb.offset_blocks_start, tb.offset_blocks_end, tb.tag_level,
                        labels=set(tb.labels) & {bp.LI, bp.HEADING})
           for tb in text_doc.text_blocks]
    return doc, text_doc.title or ""


_VOID = frozenset("area base br col embed hr img input keygen link meta param source track wbr".split())

Step = Callable[[list[bp.TextBlock], str, bp.Options], list[bp.TextBlock]]


def _java_terminating(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    bp.mark_terminating(doc)
    return doc


def _py3_terminating(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    """BoilerPy3's TerminatingBlocksFinder: "© reuters" and "rätta artikeln" lost their
    "©" and "ä", and a short linked "Comment" ends nothing."""
    from boilerpy3.document import TextBlock, TextDocument
    from boilerpy3.filters import TerminatingBlocksFinder

    blocks = [TextBlock(tb.text, set(), tb.words) for tb in doc]
    TerminatingBlocksFinder().process(TextDocument(blocks))
    for tb, b in zip(doc, blocks):
        if b.labels:
            tb.labels.add(bp.END_OF_TEXT)
    return doc


def _java_title(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    bp.mark_title(doc, title)
    return doc


def _py3_title(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    """BoilerPy3's DocumentTitleMatchClassifier (Boilerpipe 1.1's): every block equal to a
    potential title, case aside; four separator sets, no "»", no lower-casing of the parts."""
    from boilerpy3.filters import DocumentTitleMatchClassifier

    titles = {t.lower() for t in DocumentTitleMatchClassifier(title or None).potential_titles or ()}
    for tb in doc:
        if tb.text.strip().lower() in titles:
            tb.labels.add(bp.TITLE)
    return doc


def _skip(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    return doc


def _trailing(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    bp.trailing_headlines(doc)
    return doc


def _keep_title(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    return [tb for tb in doc if tb.content or bp.TITLE in tb.labels]


def _keep_content(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    return [tb for tb in doc if tb.content]


def _fuse_same_level(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    return bp.proximity_fusion(doc, content_only=True, same_level=True)


def _fuse_any_level(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    return bp.proximity_fusion(doc, content_only=True)


def _largest_expanded(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    bp.keep_largest(doc, o.expand_min_words)
    return doc


def _largest_only(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    bp.keep_largest(doc, sys.maxsize)  # no block has that many words: nothing joins
    return doc


def _large_blocks(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    bp.large_blocks_to_content(doc, o.large_block_words)
    return doc


def _list_at_end(doc: list[bp.TextBlock], title: str, o: bp.Options) -> list[bp.TextBlock]:
    bp.list_at_end(doc)
    return doc


#: the Java 1.2 steps BoilerPy3's ArticleExtractor leaves out or changes (its
#: ``boilerpy3/extractors.py``, ``ArticleExtractor._filter_chain``): (Java's, BoilerPy3's)
JAVA_ONLY: dict[str, tuple[Step, Step]] = {
    "terminating-1.2": (_java_terminating, _py3_terminating),
    "title-classifier-1.2": (_java_title, _py3_title),
    "trailing-headlines": (_trailing, _skip),
    "keep-title": (_keep_title, _keep_content),
    "same-level-fusion": (_fuse_same_level, _fuse_any_level),
    "expand-largest-150": (_largest_expanded, _largest_only),
    "large-blocks-100": (_large_blocks, _skip),
    "list-at-end": (_list_at_end, _skip),
}


def chain(doc: list[bp.TextBlock], title: str, java: frozenset[str]) -> list[bp.TextBlock]:
    """Our article chain with the Java-only steps not in ``java`` done BoilerPy3's way."""
    o = bp.Options()
    pick: Callable[[str], Step] = lambda name: JAVA_ONLY[name][0 if name in java else 1]  # noqa: E731
    doc = pick("terminating-1.2")(doc, title, o)
    doc = pick("title-classifier-1.2")(doc, title, o)
    bp.classify(doc, bp.num_words_rules)
    bp.ignore_after_end(doc, o.min_words_before_end)
    doc = pick("trailing-headlines")(doc, title, o)
    doc = bp.proximity_fusion(doc, content_only=False)
    doc = pick("keep-title")(doc, title, o)
    doc = pick("same-level-fusion")(doc, title, o)
    doc = pick("expand-largest-150")(doc, title, o)
    bp.expand_title(doc)
    doc = pick("large-blocks-100")(doc, title, o)
    return pick("list-at-end")(doc, title, o)


def content(doc: list[bp.TextBlock]) -> str:
    return "\n".join(tb.text for tb in doc if tb.content)


def explain(page: Page, ours: str, sound: str, html: str) -> dict[str, str]:
    """The crossed outputs of one page and the class of its difference."""
    blocks = bp.boilerpipe_blocks(page.blocks)
    mixed = py3_chain(blocks, page.title)
    theirs, their_title = py3_blocks(html)
    out = {"py3_chain": mixed, "java_chain": content(bp.article(theirs, their_title, bp.Options()))}
    if agreement(ours, sound) >= SAME:
        out["cause"] = "same"
    elif agreement(ours, mixed) < SAME:
        out["cause"] = "chain: " + _chain_cause(page, mixed)
    else:
        out["cause"] = "front end: " + _front_end_cause(page, sound)
    return out


def _front_end_cause(page: Page, sound: str) -> str:
    """Why BoilerPy3's front end sees another page: libxml2 left no ``<body>`` (the page
    stays in ``<head>``: BoilerPy3 reads text only inside ``<body>``), or the peer's
    output is mostly text that is no block of ours (hidden elements, script code that
    lxml holds as text), or else the blocks are cut or measured otherwise."""
    if page.tree is not None and page.tree.find(".//body") is None:
        return "no <body> in the tree"
    lines = [line for line in sound.splitlines() if line.strip()]
    skipped = peers.tokens("\n".join(peers.unmapped(page.blocks, lines)))
    if len(skipped) >= 0.2 * len(peers.tokens(sound)) > 0:
        return "text we do not show"
    return "blocks"


def _chain_cause(page: Page, target: str) -> str:
    """The Java-only step (or pair of steps) whose removal brings our output near
    ``target``; "other" when even BoilerPy3's choices at every step do not (the steps
    both chains share then differ in detail: terminating phrases, tie-breaking)."""
    every = frozenset(JAVA_ONLY)

    def near(removed: frozenset[str]) -> bool:
        blocks = bp.boilerpipe_blocks(page.blocks)
        return agreement(content(chain(blocks, page.title, every - removed)), target) >= SAME

    for name in JAVA_ONLY:
        if near(frozenset({name})):
            return name
    for pair in combinations(JAVA_ONLY, 2):
        if near(frozenset(pair)):
            return " + ".join(pair)
    return "several" if near(every) else "other"


# --- measuring ---------------------------------------------------------------------------------


def one_page(job: tuple[GoldPage, str, bool]) -> dict[str, Any]:
    doc, variant, want_explain = job
    raw = doc.read_html()
    page = load(raw)
    t0 = time.perf_counter()
    result = run(page, "boilerpipe", {"boilerpipe": bp.Options(variant=variant)})
    rec: dict[str, Any] = {"id": doc.id, "label_ms": (time.perf_counter() - t0) * 1000,
                           "parse_ms": page.timings["parse"] * 1000, "nested": has_nested_anchor(page)}
    unnested = sound_html(page, unnest=True)
    sound = peer_text(variant, sound_html(page))
    sound_star = peer_text(variant, unnested) if rec["nested"] else sound
    texts = {"ours": result.text, "raw": peer_text(variant, decode(raw).text),
             "sound": sound, "sound*": sound_star}
    rec["cause"] = None
    if want_explain:
        crossed = explain(page, result.text, sound_star, unnested)
        rec["cause"] = crossed.pop("cause")
        texts.update(crossed)
    gold = list(doc.gold_blocks)
    for name, text in texts.items():
        rec[name] = metrics.shingle_counts(text, gold)
    rec["agree"] = agreement(result.text, sound_star)
    return rec


def measure(dataset: Path, variant: str, limit: int | None, jobs: int, want_explain: bool) -> list[dict[str, Any]]:
    docs = [d for d in load_dataset(dataset).scorable if d.gold_kind != "snippets"][:limit]
    work = [(d, variant, want_explain) for d in docs]
    if jobs > 1:
        with Pool(jobs, initializer=_quiet) as pool:
            return pool.map(one_page, work, chunksize=8)
    _quiet()
    return [one_page(w) for w in work]


def _quiet() -> None:
    logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)  # nested-<a> warnings


def shingle_f1(records: list[dict[str, Any]], key: str) -> float:
    return metrics.shingle_summary([r[key] for r in records], n_bootstrap=0).f1


def report(variant: str, name: str, recs: list[dict[str, Any]], want_explain: bool, worst: int) -> None:
    s = {k: shingle_f1(recs, k) for k in ("ours", "raw", "sound", "sound*")}
    same = sum(r["agree"] >= SAME for r in recs) / len(recs)
    print(f"{variant:8} {name:18} {len(recs):5d}  {s['ours']:.3f} {s['raw']:.3f} {s['sound']:.3f}"
          f" {s['sound*']:.3f}  {s['ours'] - s['sound']:+.3f} {s['ours'] - s['sound*']:+.3f}"
          f"  {same:6.1%} {sum(r['nested'] for r in recs):6d}"
          f"  {statistics.median(r['label_ms'] for r in recs):8.2f}"
          f" {statistics.median(r['parse_ms'] for r in recs):8.2f}",
          flush=True)
    if want_explain:
        mixed, crossed = shingle_f1(recs, "py3_chain"), shingle_f1(recs, "java_chain")
        causes = Counter(r["cause"] for r in recs if r["cause"] != "same")
        print(f"{'':28}crossed: py3-chain on our blocks {mixed:.3f}, java-chain on BoilerPy3's blocks"
              f" {crossed:.3f}; pages that differ, by cause: {dict(causes.most_common())}")
    for r in sorted(recs, key=lambda r: r["agree"])[:worst]:
        print(f"{'':28}{r['id']:<40} agree {r['agree']:.2f}  ours {f1(r['ours']):.2f}"
              f" sound* {f1(r['sound*']):.2f}  {r['cause'] or ''}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_datasets(parser)
    parser.add_argument("--only", nargs="*", help="dataset names (default: all)")
    parser.add_argument("--limit", type=int, default=None, help="pages per dataset")
    parser.add_argument("--variant", choices=["article", "default", "both"], default="both")
    parser.add_argument("--explain", action="store_true", help="cross front ends and chains (article)")
    parser.add_argument("--worst", type=int, default=0, help="list the N most different pages")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not args.datasets.is_dir():
        sys.exit(f"{args.datasets}: no shared datasets here")
    methods.MODULES.setdefault("boilerpipe", "detourage.methods.boilerpipe")
    variants = ["article", "default"] if args.variant == "both" else [args.variant]
    print(f"{'variant':8} {'dataset':18} {'pages':>5}  {'ours':>5} {'raw':>5} {'sound':>5} {'sound*':>5}"
          f"  {'−sound':>6} {'−sound*':>6}  {'same':>6} {'nested':>6}  {'label ms':>8} {'parse ms':>8}")
    for variant in variants:
        for dataset in sorted(p for p in args.datasets.iterdir() if p.is_dir()):
            if args.only and dataset.name not in args.only:
                continue
            recs = measure(dataset, variant, args.limit, args.jobs, args.explain and variant == "article")
            if recs:
                report(variant, dataset.name, recs, args.explain and variant == "article", args.worst)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
