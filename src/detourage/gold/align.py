"""Labels for a page's blocks from its gold text, with a report of how well they align.

Victor trains on annotated pages (seed 003 §2.3); the gold datasets give cleaned text
instead.  This module turns a page and its gold into one :class:`Label` per block, and
says how trustworthy that is, because a bad alignment silently poisons training.

How a page is labelled (:func:`label_page`):

1. **Tokens**, as the metrics cut them (:mod:`detourage.evaluation.metrics`): word
   tokens (TO), or characters (CAR) for languages written without spaces (``unit``
   "auto": zh, ja, th, lo, km, my — the languages whose cosine evaluation scores over
   characters).  The page's token stream is its blocks' tokens in order; where two runs
   touch with no space between them (``<b>Hel</b>lo``) the word they split is one token
   shared by both blocks, as in the rendered text and the gold.
2. **Alignment**: the page stream against the gold stream (units in order), exactly as
   the CleanEval scorer aligns them (Ratcliff/Obershelp, :func:`metrics.matching_blocks`).
3. **Content**: a block is content when at least ``threshold`` of its tokens are
   matched (default 0.5, see the measurements below).
4. **Units**: a content block belongs to the gold unit (line) most of its matched tokens
   fall into (the earliest on a tie).  The first content block of a unit gets the unit's
   kind, the following ones CONTINUATION — also across OTHER blocks in between, which is
   how :func:`detourage.render.units` joins them.  The kind comes from the gold markers
   (``kinds="gold"``: p → PARAGRAPH, h → HEADER, l → LIST) or, for gold without
   structure, from the markup (``kinds="markup"``: :func:`methods.common.kind_of`), the
   unit still coming from the gold line.  ``kinds="auto"`` takes the gold's kinds when
   it has a header or list item, else the markup's; :func:`label_dataset` decides once per
   dataset (``STRUCTURED_SHARE`` of its pages with a header or list item: CleanEval,
   CleanPortalEval and L3S use their markers, DANIEL — ``<p>`` only — the markup), and a
   page whose metadata says ``has_markup: false`` uses the markup.  (In the shared
   datasets ``has_markup`` is true everywhere: it says nothing about structure.)
5. **Blocks without tokens** (punctuation only — "," "»" "(" — or an image with no alt
   text; in character mode only the latter) cannot be aligned and follow their
   neighbours: a run of them between two content blocks of the same unit continues
   it; otherwise a non-empty one in the same paragraph (``Block.paragraph``) as the
   content block just before continues that block's unit ("word" "." ), and one in the
   same paragraph as the first block of the next unit opens that unit ("•" "item").
   Anything else, and empty image blocks outside a unit, are OTHER.

The :class:`Report` of a page counts gold tokens and those covered by content blocks,
content and other blocks, blocks matched only partly (0 < share < 1, by bucket of
``BUCKETS``), content blocks whose matched tokens span several gold units, and the
share of content-block tokens that are matched (how much unmatched text training sees
as content).  :func:`summarize` and :func:`format_report` aggregate reports per dataset
and language; :func:`label_dataset` runs whole datasets
(:func:`detourage.victor.anno.write_anno_dataset` writes them as ``.anno`` files), never
crashing on a bad page (its report carries the reason).

Measurements (``label_dataset`` with default options but for the threshold, every page
of the four shared datasets, one process, throwaway script; means of per-page values):

================  =====  =====================  =======  =====================  =======
dataset           pages  coverage at threshold  partial  content precision      ms/page
                         0.3 / 0.5 / 0.7        share    0.3 / 0.5 / 0.7
================  =====  =====================  =======  =====================  =======
cleaneval-en-dev   57+1  0.994 / 0.994 / 0.991  0.044    0.988 / 0.988 / 0.989  27
cleanportaleval    70+1  0.959 / 0.959 / 0.959  0.002    1.000 / 1.000 / 1.000  12
daniel             1689  0.983 / 0.982 / 0.981  0.003    0.997 / 0.998 / 0.999  13
l3s-gn1             621  0.996 / 0.996 / 0.996  0.001    0.998 / 0.998 / 1.000   8
================  =====  =====================  =======  =====================  =======

(+1: a page whose gold is empty, reported as failed.)  The partial share does not
depend on the threshold; partly matched blocks are so rare (CleanEval's, 4 %, are
mostly long blocks whose gold text the annotator edited) that the threshold hardly
matters: 0.5 keeps the coverage of 0.3 and nearly the precision of 0.7.  Coverage is
bounded by the gold tokens found anywhere in the blocks (0.993, 0.984, 0.979, 0.998):
what is missing is gold text the page does not show as blocks (hidden or absent: the
"no article" page of CleanPortalEval, DANIEL pl 0.964 and ru 0.954 — we-dwoje.pl, aif.ru
comment rules —, two L3S pages whose HTML is broken).  ``summarize`` counts the pages
under ``LOW_COVERAGE`` (CleanPortalEval 9, DANIEL 70, L3S 3, CleanEval 0): the ones to
look at, or leave out, before training.  Time: about two thirds aligning (tokenising
every block dominates), one third loading the page.  DANIEL's per-language coverage:
el 0.993, en 0.997, pl 0.964, ru 0.954, zh 0.990 (characters).
"""

from __future__ import annotations

import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, NamedTuple

import numpy as np

from ..loading import load
from ..methods.common import kind_of
from ..model import Block, Label, Page
from ..settings import TIMEOUT
from ..supervision import attempt
from ..tables import markdown_table
from .dataset import Dataset, GoldBlock, GoldPage, load_dataset
from .text import UNSEGMENTED_LANGS, char_tokens, matching_blocks, word_tokens

Kinds = Literal["auto", "gold", "markup"]
Unit = Literal["auto", "words", "chars"]

#: languages aligned over characters with ``unit="auto"``: those written without spaces
#: between words (the set evaluation scores cosine over characters for)
CHAR_LANGUAGES = UNSEGMENTED_LANGS

#: upper edges of the partial-match buckets: share < 0.3, < 0.5, < 0.7, < 1
BUCKETS = (0.3, 0.5, 0.7, 1.0)

#: ``kinds="auto"`` in :func:`label_dataset`: the gold's kinds are used when at least
#: this share of the dataset's pages has a header or list item (CleanEval 0.95, L3S
#: 0.98, CleanPortalEval 0.99, DANIEL 0.0006: one page of 1689)
STRUCTURED_SHARE = 0.1

#: pages whose coverage is below this are counted apart by :func:`summarize` (worth a
#: look before training on them: gold text the page does not show, a broken page…)
LOW_COVERAGE = 0.9

_GOLD_KINDS = {"p": Label.PARAGRAPH, "h": Label.HEADER, "l": Label.LIST}


@dataclass(frozen=True, slots=True, kw_only=True)
class AlignOptions:
    """How gold text becomes labels."""

    #: share of a block's tokens that must align for it to be content (0.3 / 0.5 / 0.7
    #: measured: see the module docstring)
    threshold: float = 0.5
    #: where a unit's kind comes from: gold markers, the markup, or decided from the gold
    kinds: Kinds = "auto"
    #: token unit: word tokens, characters, or characters for CHAR_LANGUAGES only
    unit: Unit = "auto"
    #: seconds a page may take in :func:`label_dataset` (loading included)
    timeout: float = TIMEOUT

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], not {self.threshold}")
        if self.kinds not in ("auto", "gold", "markup"):
            raise ValueError(f"kinds must be 'auto', 'gold' or 'markup', not {self.kinds!r}")
        if self.unit not in ("auto", "words", "chars"):
            raise ValueError(f"unit must be 'auto', 'words' or 'chars', not {self.unit!r}")


@dataclass(frozen=True, slots=True)
class Report:
    """How well one page's blocks aligned to its gold."""

    id: str = ""
    dataset: str = ""
    lang: str = "und"
    #: where kinds came from ("gold" or "markup") and the token unit ("words" or "chars")
    kinds: str = ""
    unit: str = ""
    gold_units: int = 0
    gold_tokens: int = 0
    #: gold tokens matched by any block / by content blocks
    matched_tokens: int = 0
    covered_tokens: int = 0
    blocks: int = 0
    #: blocks with at least one token (the others cannot be aligned)
    token_blocks: int = 0
    #: blocks not labelled OTHER (blocks without tokens included)
    content: int = 0
    #: blocks with 0 < matched share < 1, by bucket of BUCKETS
    partial: tuple[int, ...] = (0, 0, 0, 0)
    #: content blocks whose matched tokens fall into several gold units
    multi_unit: int = 0
    #: gold units with no content block
    units_missed: int = 0
    #: tokens of the content blocks (those with tokens), and how many of them are matched
    content_tokens: int = 0
    content_matched: int = 0
    #: seconds: loading the page (label_dataset only), aligning and labelling
    load_seconds: float = 0.0
    align_seconds: float = 0.0
    #: why the page could not be labelled (reason, message), else None
    error: str | None = None
    message: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the page was labelled."""
        return self.error is None

    @property
    def coverage(self) -> float:
        """Share of the gold tokens covered by content blocks."""
        return self.covered_tokens / self.gold_tokens if self.gold_tokens else 0.0

    @property
    def precision(self) -> float:
        """Share of the content blocks' tokens that are matched to gold."""
        return self.content_matched / self.content_tokens if self.content_tokens else 1.0

    @property
    def other(self) -> int:
        """Blocks labelled OTHER."""
        return self.blocks - self.content

    @property
    def partial_blocks(self) -> int:
        """Blocks with 0 < matched share < 1."""
        return sum(self.partial)

    @property
    def partial_share(self) -> float:
        """Partly matched blocks / blocks with a token."""
        return self.partial_blocks / self.token_blocks if self.token_blocks else 0.0


# ------------------------------------------------------------------------- tokens


@dataclass(frozen=True, slots=True)
class Stream:
    """The page's tokens and each block's token span (a shared glued word in both)."""

    tokens: list[str]
    spans: list[tuple[int, int]]


def _use_chars(unit: Unit, lang: str) -> bool:
    """Whether to align characters rather than word tokens."""
    if unit == "auto":
        return lang.split("-")[0].lower() in CHAR_LANGUAGES
    return unit == "chars"


def block_stream(blocks: Sequence[Block], chars: bool = False) -> Stream:
    """The blocks' tokens in order; a word split by a tag with no space is one token."""
    tokens: list[str] = []
    spans: list[tuple[int, int]] = []
    glue = False  # the previous block ends inside a word
    for block in blocks:
        toks = char_tokens(block.text) if chars else word_tokens(block.text)
        if glue and toks and not block.space_before and word_tokens(block.text[:1]):
            tokens[-1] += toks[0]
            start = len(tokens) - 1
            tokens.extend(toks[1:])
        else:
            start = len(tokens)
            tokens.extend(toks)
        spans.append((start, len(tokens)))
        glue = not chars and bool(toks) and bool(word_tokens(block.text[-1:]))
    return Stream(tokens, spans)


def gold_stream(gold: Sequence[GoldBlock], chars: bool = False) -> tuple[list[str], np.ndarray]:
    """The gold's tokens in order and the unit (gold line) of each."""
    tokens: list[str] = []
    units: list[int] = []
    for u, (_, text) in enumerate(gold):
        toks = char_tokens(text) if chars else word_tokens(text)
        tokens.extend(toks)
        units.extend([u] * len(toks))
    return tokens, np.asarray(units, dtype=np.int64)


def _positions(page: Sequence[str], gold: Sequence[str]) -> np.ndarray:
    """For each page token, the gold token it is aligned to (-1: none)."""
    pos = np.full(len(page), -1, dtype=np.int64)
    for i, j, k in matching_blocks(page, gold):
        pos[i : i + k] = np.arange(j, j + k)
    return pos


# ------------------------------------------------------------------------ labelling


@dataclass(frozen=True, slots=True)
class _Match:
    """What each block's tokens aligned to."""

    tokens: list[int]
    matched: list[int]
    #: majority gold unit of the matched tokens (-1: none), and how many units
    unit: list[int]
    units: list[int]


def _match(stream: Stream, pos: np.ndarray, unit_of: np.ndarray) -> _Match:
    """Per-block token counts and units from the aligned positions."""
    tokens, matched, unit, units = [], [], [], []
    for s, e in stream.spans:
        p = pos[s:e]
        hit = unit_of[p[p >= 0]]
        tokens.append(e - s)
        matched.append(len(hit))
        if len(hit):
            values, counts = np.unique(hit, return_counts=True)
            unit.append(int(values[int(np.argmax(counts))]))  # argmax: earliest on a tie
            units.append(len(values))
        else:
            unit.append(-1)
            units.append(0)
    return _Match(tokens, matched, unit, units)


def _assign(match: _Match, content: Sequence[bool],
            kind: Callable[[int, int], Label]) -> tuple[list[Label], list[int]]:
    """Labels of the token blocks, and each labelled block's unit (-1 for OTHER)."""
    labels = [Label.OTHER] * len(content)
    units = [-1] * len(content)
    last = -1
    for i, keep in enumerate(content):
        if not keep:
            continue
        u = units[i] = match.unit[i]
        labels[i] = Label.CONTINUATION if u == last else kind(i, u)
        last = u
    return labels, units


def _fill_tokenless(blocks: Sequence[Block], tokens: Sequence[int], labels: list[Label],
                    units: list[int]) -> None:
    """Label the runs of blocks without tokens from their neighbours (module docstring, 5)."""
    n = len(blocks)
    i = 0
    while i < n:
        if tokens[i]:
            i += 1
            continue
        j = i
        while j < n and not tokens[j]:
            j += 1
        _fill_run(blocks, labels, units, i, j)
        i = j


def _fill_run(blocks: Sequence[Block], labels: list[Label], units: list[int],
              s: int, e: int) -> None:
    """Label the token-less blocks s..e-1, between token blocks s-1 and e."""
    before = s - 1 if s > 0 and labels[s - 1].kept else None
    after = e if e < len(blocks) and labels[e].kept else None
    if before is not None and after is not None and units[before] == units[after]:
        labels[s:e] = [Label.CONTINUATION] * (e - s)
        units[s:e] = [units[before]] * (e - s)
        return
    z = s
    if before is not None:  # trailing punctuation of the unit before
        while z < e and blocks[z].text and blocks[z].paragraph == blocks[before].paragraph:
            labels[z], units[z] = Label.CONTINUATION, units[before]
            z += 1
    if after is None or labels[after] is Label.CONTINUATION:
        return
    y = e  # leading punctuation opens the unit after
    while y > z and blocks[y - 1].text and blocks[y - 1].paragraph == blocks[after].paragraph:
        y -= 1
    if y < e:
        labels[y] = labels[after]
        labels[y + 1 : e + 1] = [Label.CONTINUATION] * (e - y)
        units[y:e] = [units[after]] * (e - y)


def _bucket(share: float) -> int:
    """Index of the partial bucket of a share in (0, 1)."""
    return next(b for b, edge in enumerate(BUCKETS) if share < edge)


def _page_kinds(kinds: Kinds, gold: Sequence[GoldBlock]) -> Literal["gold", "markup"]:
    """"gold" or "markup": ``auto`` takes the gold's kinds when it has any structure."""
    if kinds != "auto":
        return kinds
    return "gold" if any(kind != "p" for kind, _ in gold) else "markup"


def label_page(page: Page | Sequence[Block], gold: Sequence[GoldBlock],
               options: AlignOptions = AlignOptions(), *,
               lang: str = "und") -> tuple[tuple[Label, ...], Report]:
    """One label per block of the page from its gold blocks, and the alignment report."""
    t0 = time.perf_counter()
    blocks = page.blocks if isinstance(page, Page) else tuple(page)
    chars = _use_chars(options.unit, lang)
    kinds = _page_kinds(options.kinds, gold)
    stream = block_stream(blocks, chars)
    gold_tokens, unit_of = gold_stream(gold, chars)
    pos = _positions(stream.tokens, gold_tokens)
    match = _match(stream, pos, unit_of)
    content = [t > 0 and m / t >= options.threshold for t, m in zip(match.tokens, match.matched)]

    def kind(i: int, u: int) -> Label:
        if kinds == "markup":
            return kind_of(blocks[i])
        return _GOLD_KINDS.get(gold[u][0], Label.PARAGRAPH)

    labels, units = _assign(match, content, kind)
    _fill_tokenless(blocks, match.tokens, labels, units)
    report = _report(stream, pos, match, content, labels, len(gold), len(gold_tokens))
    report = replace(report, lang=lang, kinds=kinds, unit="chars" if chars else "words",
                     align_seconds=time.perf_counter() - t0)
    return tuple(labels), report


def _report(stream: Stream, pos: np.ndarray, match: _Match, content: Sequence[bool],
            labels: Sequence[Label], gold_units: int, gold_tokens: int) -> Report:
    """The counts of a labelled page (ids, language and timings left to the caller)."""
    spans = [pos[s:e] for (s, e), keep in zip(stream.spans, content) if keep]
    covered = np.concatenate(spans) if spans else np.empty(0, np.int64)
    partial = [0] * len(BUCKETS)
    for t, m in zip(match.tokens, match.matched):
        if 0 < m < t:
            partial[_bucket(m / t)] += 1
    kept = [i for i, keep in enumerate(content) if keep]
    return Report(
        gold_units=gold_units,
        gold_tokens=gold_tokens,
        matched_tokens=int((pos >= 0).sum()),
        covered_tokens=int(np.unique(covered[covered >= 0]).size),
        blocks=len(content),
        token_blocks=sum(1 for t in match.tokens if t),
        content=sum(1 for label in labels if label.kept),
        partial=tuple(partial),
        multi_unit=sum(1 for i in kept if match.units[i] > 1),
        units_missed=gold_units - len({match.unit[i] for i in kept}),
        content_tokens=sum(match.tokens[i] for i in kept),
        content_matched=sum(match.matched[i] for i in kept),
    )


# ------------------------------------------------------------------------- datasets


class Labelled(NamedTuple):
    """A dataset page with its labels (page None and labels empty when it failed)."""

    document: GoldPage
    page: Page | None
    labels: tuple[Label, ...]
    report: Report


def dataset_kinds(dataset: Dataset) -> Literal["gold", "markup"]:
    """"gold" when at least STRUCTURED_SHARE of the pages' gold has a header or list
    item, else "markup" (gold that is plain paragraphs)."""
    docs = [d for d in dataset.scorable if d.gold_kind == "cleaneval"]
    structured = sum(any(kind != "p" for kind, _ in d.gold_blocks) for d in docs)
    return "gold" if docs and structured >= STRUCTURED_SHARE * len(docs) else "markup"


def label_dataset(dataset: Dataset | str | os.PathLike[str],
                  options: AlignOptions = AlignOptions()) -> Iterator[Labelled]:
    """Label every page of a dataset; a page that fails carries the reason in its report."""
    ds = dataset if isinstance(dataset, Dataset) else load_dataset(dataset)
    if options.kinds == "auto":
        options = replace(options, kinds=dataset_kinds(ds))
    for doc in ds.documents:
        yield label_document(doc, options, dataset=ds.name)


def label_document(doc: GoldPage, options: AlignOptions = AlignOptions(), *, dataset: str = "") -> Labelled:
    """Load and label one dataset page, never raising (failures are in the report)."""
    base = Report(id=doc.id, dataset=dataset, lang=doc.lang)
    if not doc.scorable:
        return Labelled(doc, None, (), replace(base, error="gold", message=doc.gold_problem))
    if doc.gold_kind != "cleaneval":
        return Labelled(doc, None, (), replace(base, error="snippet-gold",
                                               message="snippet gold has no text to align"))
    if doc.meta.get("has_markup") is False:
        options = replace(options, kinds="markup")

    def work() -> tuple[Page, tuple[Label, ...], Report]:
        t0 = time.perf_counter()
        page = load(doc.read_html(), url=doc.meta.get("url"))
        t1 = time.perf_counter()
        labels, report = label_page(page, doc.gold_blocks, options, lang=doc.lang)
        return page, labels, replace(report, id=doc.id, dataset=dataset, load_seconds=t1 - t0)

    result, reason, message = attempt(work, options.timeout)
    if result is None:
        return Labelled(doc, None, (), replace(base, error=reason, message=message))
    return Labelled(doc, *result)


# -------------------------------------------------------------------------- summary


@dataclass(frozen=True, slots=True)
class AlignmentSummary:
    """Alignment figures over pages: sums, and means of the per-page shares."""

    pages: int = 0
    failed: int = 0
    #: labelled pages with coverage below LOW_COVERAGE
    low_coverage: int = 0
    #: failures by reason
    reasons: Mapping[str, int] = field(default_factory=dict)
    gold_tokens: int = 0
    matched_tokens: int = 0
    covered_tokens: int = 0
    blocks: int = 0
    token_blocks: int = 0
    content: int = 0
    partial: tuple[int, ...] = (0, 0, 0, 0)
    multi_unit: int = 0
    units_missed: int = 0
    gold_units: int = 0
    content_tokens: int = 0
    content_matched: int = 0
    #: means over the labelled pages of Report.coverage / precision / partial_share
    mean_coverage: float = 0.0
    mean_precision: float = 0.0
    mean_partial_share: float = 0.0
    seconds: float = 0.0

    @property
    def coverage(self) -> float:
        """Gold tokens covered by content blocks / gold tokens, over all pages."""
        return self.covered_tokens / self.gold_tokens if self.gold_tokens else 0.0

    @property
    def found(self) -> float:
        """Gold tokens matched by any block / gold tokens, over all pages."""
        return self.matched_tokens / self.gold_tokens if self.gold_tokens else 0.0

    @property
    def partial_share(self) -> float:
        """Partly matched blocks / blocks with a token, over all pages."""
        return sum(self.partial) / self.token_blocks if self.token_blocks else 0.0

    @property
    def precision(self) -> float:
        """Matched tokens of content blocks / their tokens, over all pages."""
        return self.content_matched / self.content_tokens if self.content_tokens else 1.0


_SUMMED = ("gold_tokens", "matched_tokens", "covered_tokens", "blocks", "token_blocks",
           "content", "multi_unit", "units_missed", "gold_units", "content_tokens",
           "content_matched")


def summarize(reports: Iterable[Report]) -> AlignmentSummary:
    """Sums and per-page means over the pages that aligned; failures counted by reason."""
    reports = list(reports)
    ok = [r for r in reports if r.ok]
    n = len(ok)
    sums = {name: sum(getattr(r, name) for r in ok) for name in _SUMMED}
    return AlignmentSummary(
        pages=n,
        failed=len(reports) - n,
        low_coverage=sum(1 for r in ok if r.coverage < LOW_COVERAGE),
        reasons=dict(Counter(str(r.error) for r in reports if not r.ok)),
        partial=tuple(sum(r.partial[b] for r in ok) for b in range(len(BUCKETS))),
        mean_coverage=sum(r.coverage for r in ok) / n if n else 0.0,
        mean_precision=sum(r.precision for r in ok) / n if n else 0.0,
        mean_partial_share=sum(r.partial_share for r in ok) / n if n else 0.0,
        seconds=sum(r.load_seconds + r.align_seconds for r in reports),
        **sums,
    )


# no "<" in the headers: the table is printed to a terminal, where Markdown's escapes show
_HEADERS = ["dataset", "lang", "pages", "failed", f"coverage under {LOW_COVERAGE:g}", "coverage",
            "coverage (all tokens)", "found (all tokens)", "content precision",
            "content / blocks", "partial share",
            "partial under " + " / ".join(f"{edge:g}" for edge in BUCKETS), "multi-unit",
            "units missed", "ms / page"]


def format_report(reports: Iterable[Report]) -> str:
    """A Markdown table of the alignment figures per dataset and language (a dataset of
    several languages also gets an "all" row).  Shares are means of the page values,
    "(all tokens)" columns sum the tokens of all pages first."""
    groups: dict[tuple[str, str | None], list[Report]] = defaultdict(list)
    for r in reports:
        groups[(r.dataset, r.lang)].append(r)
        groups[(r.dataset, None)].append(r)  # None: all the dataset's languages
    rows = []
    for (dataset, lang), group in sorted(groups.items(), key=_row_order):
        if lang is None and len({r.lang for r in group}) == 1:
            continue
        rows.append(_row(dataset or "-", lang or "all", summarize(group)))
    return markdown_table(_HEADERS, rows)


def _row_order(item: tuple[tuple[str, str | None], list[Report]]) -> tuple[str, bool, str]:
    """Datasets in order, each one's languages in order, then its "all" row."""
    (dataset, lang), _ = item
    return dataset, lang is None, lang or ""


def _row(dataset: str, lang: str, s: AlignmentSummary) -> list[str]:
    """One row of :func:`format_report`."""
    ms = 1000 * s.seconds / (s.pages + s.failed) if s.pages + s.failed else 0.0
    return [dataset, lang, str(s.pages), str(s.failed), str(s.low_coverage),
            f"{s.mean_coverage:.3f}", f"{s.coverage:.3f}", f"{s.found:.3f}",
            f"{s.mean_precision:.3f}", f"{s.content} / {s.blocks}",
            f"{s.mean_partial_share:.3f}", " / ".join(map(str, s.partial)),
            str(s.multi_unit), f"{s.units_missed} / {s.gold_units}", f"{ms:.1f}"]


__all__ = [
    "BUCKETS", "CHAR_LANGUAGES", "LOW_COVERAGE", "STRUCTURED_SHARE", "Labelled", "AlignOptions",
    "Report", "Stream", "AlignmentSummary",
    "block_stream", "dataset_kinds", "format_report", "gold_stream", "label_dataset",
    "label_document", "label_page", "summarize",
]
