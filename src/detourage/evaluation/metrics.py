"""Scores of a cleaned text against its gold: pure functions on strings and block lists.

What each number means is in DESIGN.md ("Evaluation — what the numbers mean"); the
choices this module makes where the seeds leave room are:

* **Normalisation** (seed 002 §4.1): NFC, control characters (Unicode ``Cc``) become
  spaces, whitespace runs become one space.
* **Word tokens** (TO, TM, cosine): the normalised text is cut at whitespace and at
  every punctuation character (Unicode general category ``P*``, any script: ``, . ; 、 。
  « » ’``); punctuation is a separator and is *dropped*, never a token.  Seed 002 cuts
  "à chaque signe de ponctuation ou espace"; keeping punctuation as tokens would make
  ``,`` and ``.`` the commonest tokens, reward punctuation-only alignments and penalise
  mere typographic differences (``l’épidémie`` vs ``l'épidémie`` both give ``l``,
  ``épidémie``).  Symbols (``S*``: ``$ € © | + <``) stay in tokens; ``%`` is punctuation.
* **CAR tokens**: every non-space character of the normalised text, punctuation
  included (seed 002: "un *token* correspond à un caractère").
* **TM**: each block contributes its marker then its word tokens; labelled markers keep
  their type (``<p>``, ``<h>``, ``<l>``), unlabelled ones are all the same token.  Markers
  are internal tokens that no text can produce, so a literal "<p>" in a text never
  matches a marker.  P and R count words and markers together.
* **Alignment**: Ratcliff/Obershelp as seed 002 describes it, i.e. exactly the matching
  blocks of ``difflib.SequenceMatcher(None, pred, gold, autojunk=False)``.  CleanEval's
  own scorer (Evert's ``cleaneval.py``) ran difflib with its defaults, whose "popular
  element" heuristic (``autojunk``) silently stops tokens that make up more than 1 % of
  a gold text of 200+ tokens (``the``, ``<p>``…) from anchoring a match: scores then
  depend on gold length and isolated frequent words go unmatched.  We keep the pure
  algorithm by default; ``autojunk=True`` reproduces the old scorer (through difflib).
  :func:`matching_blocks` computes the same blocks as difflib, much faster (see its
  docstring); ``benchmarks/check_alignment.py`` checks the equality on all datasets.
* **Empty sides**: P = matched/pred and R = matched/gold; a 0/0 ratio is 1.0 when
  *both* sides are empty (nothing to find, nothing output) and 0.0 otherwise (an empty
  output on a page with gold scores P = R = 0, as in CleanEval's scorer).
* **Averages**: *micro* sums matched/pred/gold over pages, *macro* averages the
  per-page P, R and F1 (macro F1 is the mean of page F1s).
* **Shingle F1**: the convention of the public article-extraction benchmark, kept
  as is so figures compare: tokens ``\\w+`` (case kept), 4-token shingles (a text with
  fewer tokens is one shingle), per-page multiset TP/FP/FN; P averaged over pages with
  output, R over pages with gold, F1 from the averages, bootstrap over pages.
* **Word F1**: the convention of WCXB (the web content extraction benchmark), kept as
  is so figures compare: tokens ``\\w+`` of the lower-cased text, per-page multiset
  overlap, P = matched/pred and R = matched/gold with the empty sides above; its figure
  is the mean of the page F1s (the *macro* F1 of :func:`summarize`).  Unlike shingles,
  word order is ignored: a menu's words count wherever the gold holds the same words.
* **Cosine** (seed 004 §5.2): bag-of-words cosine on word tokens (or characters, for
  Chinese); ``T = T*`` and the strict inclusions compare token multisets.
* **Snippets**: a snippet is found when its normalised text is a substring of the
  normalised output (case-sensitive); empty snippets are ignored.
"""

from __future__ import annotations

import difflib
import enum
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from detourage.gold.dataset import BLOCK_KINDS, GoldBlock, parse_cleaneval
from detourage.gold.text import char_tokens, matched_count, normalize_text, word_tokens

#: what every scoring function takes for a text: blocks, or a string read as CleanEval
#: text by parse_cleaneval (markers, ``URL:`` line and wrapper dropped; plain text gives
#: one block per line)
Text = str | Sequence[GoldBlock]


class Mode(str, enum.Enum):
    """The CleanEval scoring modes (seed 002 §4.1) plus the character variant."""

    TO = "to"  # text only: word tokens
    TM = "tm"  # text and markup, labelled markers
    TM_UNLABELLED = "tm-u"  # text and markup, all markers one token
    CAR = "car"  # characters as tokens


# --------------------------------------------------------------------------- text

def _as_blocks(x: Text) -> Sequence[GoldBlock]:
    """Blocks of a string (read by parse_cleaneval), or the given blocks, kinds checked."""
    if isinstance(x, str):
        return parse_cleaneval(x)
    for kind, _ in x:
        if kind not in BLOCK_KINDS:
            raise ValueError(f"unknown block kind {kind!r}; expected one of {BLOCK_KINDS}")
    return x


def _blocks_text(x: Text) -> str:
    """The text of the blocks, one per line (markers and URL line left out)."""
    return "\n".join(t for _, t in _as_blocks(x))


def markup_tokens(blocks: Sequence[GoldBlock], *, labelled: bool = True) -> list[str]:
    """TM tokens: for each block its marker token, then its word tokens."""
    out: list[str] = []
    for kind, text in blocks:
        out.append("\x00" + kind if labelled else "\x00")
        out.extend(word_tokens(text))
    return out


def mode_tokens(x: Text, mode: Mode | str) -> list[str]:
    """The token sequence a mode scores (markers only for TM modes)."""
    mode = Mode(mode)
    if mode is Mode.TO:
        return word_tokens(_blocks_text(x))
    if mode is Mode.CAR:
        return char_tokens(_blocks_text(x))
    return markup_tokens(_as_blocks(x), labelled=mode is Mode.TM)


# ---------------------------------------------------------------- P / R / F1 counts


def _ratio(num: int | float, den: int | float, other_den: int | float) -> float:
    """num/den; 0/0 is 1.0 when the other side is empty too, else 0.0."""
    if den:
        return num / den
    return 1.0 if not other_den else 0.0


def _f1(p: float, r: float) -> float:
    """Harmonic mean of P and R (0.0 when both are 0)."""
    return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True, slots=True)
class Counts:
    """Matched, predicted and gold token counts of one page (or a sum of pages)."""

    matched: int
    pred: int
    gold: int

    @property
    def precision(self) -> float:
        """matched / pred (see the module docstring for empty sides)."""
        return _ratio(self.matched, self.pred, self.gold)

    @property
    def recall(self) -> float:
        """matched / gold (see the module docstring for empty sides)."""
        return _ratio(self.matched, self.gold, self.pred)

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        return _f1(self.precision, self.recall)

    def __add__(self, other: Counts) -> Counts:
        """Sum of two pages' counts (micro averaging)."""
        return Counts(self.matched + other.matched, self.pred + other.pred, self.gold + other.gold)


def cleaneval_scores(
    pred: Text,
    gold: Text,
    mode: Mode | str = Mode.TO,
    *,
    autojunk: bool = False,
) -> Counts:
    """CleanEval counts of pred against gold in one mode (TO, TM, TM unlabelled, CAR)."""
    a, b = mode_tokens(pred, mode), mode_tokens(gold, mode)
    if autojunk:
        blocks = difflib.SequenceMatcher(None, a, b).get_matching_blocks()
        return Counts(sum(m.size for m in blocks), len(a), len(b))
    return Counts(matched_count(a, b), len(a), len(b))


def cleaneval_all(pred: Text, gold: Text) -> dict[Mode, Counts]:
    """CleanEval counts of pred against gold in every mode."""
    return {mode: cleaneval_scores(pred, gold, mode) for mode in Mode}


# ------------------------------------------------------------------------ shingles

_SHINGLE_TOKEN = re.compile(r"\w+")


def shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    """Multiset of n-token shingles (tokens ``\\w+``); a shorter text is one shingle."""
    tokens = _SHINGLE_TOKEN.findall(text)
    if not tokens:
        return Counter()
    if len(tokens) < n:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


@dataclass(frozen=True, slots=True)
class ShingleCounts:
    """Shingle TP / FP / FN of one page."""

    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float | None:
        """tp / (tp + fp); None (left out of averages) when the output has no shingle."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        """tp / (tp + fn); None (left out of averages) when the gold has no shingle."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def fractions(self) -> tuple[float, float, float]:
        """(tp, fp, fn) normalised to sum 1, as the benchmark reports them."""
        total = self.tp + self.fp + self.fn
        return (self.tp / total, self.fp / total, self.fn / total) if total else (0.0, 0.0, 0.0)


def shingle_counts(pred: Text, gold: Text, n: int = 4) -> ShingleCounts:
    """Multiset shingle TP / FP / FN of pred against gold."""
    p, g = shingles(_blocks_text(pred), n), shingles(_blocks_text(gold), n)
    tp = sum((p & g).values())
    return ShingleCounts(tp, sum(p.values()) - tp, sum(g.values()) - tp)


def word_counts(pred: Text, gold: Text) -> Counts:
    """WCXB's bag-of-words counts of pred against gold: the ``\\w+`` tokens of the
    lower-cased texts, matched as multisets (each token as often as the rarer side holds
    it)."""
    p = Counter(_SHINGLE_TOKEN.findall(_blocks_text(pred).lower()))
    g = Counter(_SHINGLE_TOKEN.findall(_blocks_text(gold).lower()))
    return Counts(sum((p & g).values()), sum(p.values()), sum(g.values()))


@dataclass(frozen=True, slots=True)
class ShingleSummary:
    """Shingle P / R / F1 over pages with their bootstrap spread."""

    pages: int
    precision: float
    recall: float
    f1: float
    precision_std: float
    recall_std: float
    f1_std: float
    #: 95 % percentile interval of F1 over the bootstrap samples
    f1_interval: tuple[float, float]


def _mean_defined(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Row means of values[idx] ignoring NaN (0.0 for an all-NaN row)."""
    v = values[idx]
    ok = ~np.isnan(v)
    n = ok.sum(axis=1)
    return np.where(n > 0, np.where(ok, v, 0.0).sum(axis=1) / np.maximum(n, 1), 0.0)


def _page_pr(pages: Sequence[ShingleCounts]) -> tuple[np.ndarray, np.ndarray]:
    """Per-page P and R, NaN where undefined."""
    nan = float("nan")
    p = np.array([nan if c.precision is None else c.precision for c in pages], dtype=float)
    r = np.array([nan if c.recall is None else c.recall for c in pages], dtype=float)
    return p, r


def _bootstrap_f1(p: np.ndarray, r: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """F1 of the page-averaged P and R of every resample (a row of ``idx``)."""
    return _f1_array(_mean_defined(p, idx), _mean_defined(r, idx))


def _f1_array(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    return np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1.0), 0.0)


def shingle_difference(
    a: Sequence[ShingleCounts], b: Sequence[ShingleCounts], *, n_bootstrap: int = 1000, seed: int = 0
) -> tuple[float, tuple[float, float]]:
    """Shingle F1 of ``a`` minus that of ``b`` on the same pages (``a[i]`` and ``b[i]``
    are one page cleaned two ways), and its paired bootstrap 95 % interval: pages are
    resampled together, so the interval measures how much the difference depends on
    which pages were drawn, not the spread of either score alone."""
    if len(a) != len(b):
        raise ValueError(f"paired pages differ in number: {len(a)} and {len(b)}")
    (pa, ra), (pb, rb) = _page_pr(a), _page_pr(b)
    everything = np.arange(len(a))[None, :]
    diff = float(_bootstrap_f1(pa, ra, everything)[0] - _bootstrap_f1(pb, rb, everything)[0])
    if len(a) == 0 or n_bootstrap < 2:
        return diff, (diff, diff)
    idx = np.random.default_rng(seed).integers(0, len(a), size=(n_bootstrap, len(a)))
    lo, hi = np.percentile(_bootstrap_f1(pa, ra, idx) - _bootstrap_f1(pb, rb, idx), [2.5, 97.5])
    return diff, (float(lo), float(hi))


def shingle_summary(
    pages: Sequence[ShingleCounts], *, n_bootstrap: int = 1000, seed: int = 0
) -> ShingleSummary:
    """P and R averaged over pages, F1 from the averages, bootstrap std and interval."""
    p, r = _page_pr(pages)
    everything = np.arange(len(pages))[None, :]
    mp, mr = float(_mean_defined(p, everything)[0]), float(_mean_defined(r, everything)[0])
    if len(pages) == 0 or n_bootstrap < 2:
        return ShingleSummary(len(pages), mp, mr, _f1(mp, mr), 0.0, 0.0, 0.0, (_f1(mp, mr),) * 2)
    idx = np.random.default_rng(seed).integers(0, len(pages), size=(n_bootstrap, len(pages)))
    bp, br = _mean_defined(p, idx), _mean_defined(r, idx)
    bf = _f1_array(bp, br)
    lo, hi = np.percentile(bf, [2.5, 97.5])
    return ShingleSummary(
        len(pages), mp, mr, _f1(mp, mr),
        float(bp.std(ddof=1)), float(br.std(ddof=1)), float(bf.std(ddof=1)),
        (float(lo), float(hi)),
    )


# -------------------------------------------------------------------------- cosine


def _bag(x: Text, unit: str) -> Counter[str]:
    """Bag of word tokens (unit "words") or characters (unit "chars")."""
    text = _blocks_text(x)
    if unit == "words":
        return Counter(word_tokens(text))
    if unit == "chars":
        return Counter(char_tokens(text))
    raise ValueError(f"unknown unit {unit!r}; expected 'words' or 'chars'")


def _bag_cosine(t: Counter[str], g: Counter[str]) -> float:
    """Cosine of two bags; 1.0 for equal bags (both empty included), 0.0 if one is empty."""
    if t == g:
        return 1.0
    if not t or not g:
        return 0.0
    dot = sum(c * g[w] for w, c in t.items() if w in g)
    norm = math.sqrt(sum(c * c for c in t.values())) * math.sqrt(sum(c * c for c in g.values()))
    return min(1.0, dot / norm)


def cosine(pred: Text, gold: Text, *, unit: str = "words") -> float:
    """Bag-of-words cosine between output T and gold T* (seed 004 §5.2)."""
    return _bag_cosine(_bag(pred, unit), _bag(gold, unit))


@dataclass(frozen=True, slots=True)
class CosinePage:
    """Seed 004 §5.2 measures of one page."""

    cos: float
    #: T = T*: the same token multiset
    equal: bool
    #: T ⊂ T*: non-empty output strictly inside the gold (cut too low)
    pred_in_gold: bool
    #: T* ⊂ T: gold strictly inside the output (cut too high)
    gold_in_pred: bool


def cosine_page(pred: Text, gold: Text, *, unit: str = "words") -> CosinePage:
    """Cosine, equality and strict multiset inclusions of output T and gold T*."""
    t, g = _bag(pred, unit), _bag(gold, unit)
    equal = t == g
    return CosinePage(_bag_cosine(t, g), equal, bool(t) and not equal and t <= g,
                      not equal and g <= t)


@dataclass(frozen=True, slots=True)
class CosineSummary:
    """Seed 004 §5.2 table row: exactitude, mean cos, counts of =, ⊂, ⊃."""

    pages: int
    #: share of pages with cos >= threshold
    exactitude: float
    mean_cos: float
    #: pages with T = T*, T ⊂ T*, T* ⊂ T (counts, as in the seed's tables)
    equal: int
    pred_in_gold: int
    gold_in_pred: int

    def share(self, count: int) -> float:
        """A count as a share of the pages (e.g. ``s.share(s.equal)``)."""
        return count / self.pages if self.pages else 0.0


def cosine_summary(pages: Sequence[CosinePage], *, threshold: float = 0.9) -> CosineSummary:
    """Aggregate page cosine measures (exactitude = share with cos >= threshold)."""
    n = len(pages)
    return CosineSummary(
        n,
        sum(p.cos >= threshold for p in pages) / n if n else 0.0,
        sum(p.cos for p in pages) / n if n else 0.0,
        sum(p.equal for p in pages),
        sum(p.pred_in_gold for p in pages),
        sum(p.gold_in_pred for p in pages),
    )


# ------------------------------------------------------------------------ snippets


@dataclass(frozen=True, slots=True)
class SnippetCounts:
    """Snippet confusion counts: "with" found = TP, missing = FN; "without" found = FP."""

    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def matched(self) -> int:
        """TP (for aggregation with :func:`summarize`)."""
        return self.tp

    @property
    def pred(self) -> int:
        """Snippets found in the output: TP + FP."""
        return self.tp + self.fp

    @property
    def gold(self) -> int:
        """Snippets that must be found: TP + FN."""
        return self.tp + self.fn

    @property
    def precision(self) -> float:
        """TP / (TP + FP) (empty sides as for Counts)."""
        return _ratio(self.tp, self.pred, self.gold)

    @property
    def recall(self) -> float:
        """TP / (TP + FN) (empty sides as for Counts)."""
        return _ratio(self.tp, self.gold, self.pred)

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        return _f1(self.precision, self.recall)

    @property
    def accuracy(self) -> float:
        """(TP + TN) / all snippets (1.0 when there is none)."""
        total = self.tp + self.fp + self.fn + self.tn
        return (self.tp + self.tn) / total if total else 1.0

    def __add__(self, other: SnippetCounts) -> SnippetCounts:
        """Sum of two pages' counts."""
        return SnippetCounts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn,
                             self.tn + other.tn)


def snippet_counts(output: Text, gold: Mapping[str, Sequence[str]]) -> SnippetCounts:
    """Score an output against {"with": [...], "without": [...]} snippets."""
    text = normalize_text(_blocks_text(output))
    must = [s for s in map(normalize_text, gold.get("with", ())) if s]
    must_not = [s for s in map(normalize_text, gold.get("without", ())) if s]
    tp = sum(s in text for s in must)
    fp = sum(s in text for s in must_not)
    return SnippetCounts(tp, fp, len(must) - tp, len(must_not) - fp)


# --------------------------------------------------------------------- aggregation


class Scored(Protocol):
    """Anything with per-page counts and P / R / F1 (Counts, SnippetCounts)."""

    @property
    def matched(self) -> int: ...
    @property
    def pred(self) -> int: ...
    @property
    def gold(self) -> int: ...
    @property
    def precision(self) -> float: ...
    @property
    def recall(self) -> float: ...
    @property
    def f1(self) -> float: ...


@dataclass(frozen=True, slots=True)
class PRF:
    """Precision, recall, F1."""

    precision: float
    recall: float
    f1: float


@dataclass(frozen=True, slots=True)
class ScoreSummary:
    """Micro and macro P / R / F1 over a set of pages."""

    pages: int
    #: summed counts: matched / pred / gold over all pages
    totals: Counts
    micro: PRF
    #: means of the per-page P, R and F1
    macro: PRF


def summarize(pages: Iterable[Scored]) -> ScoreSummary:
    """Micro (summed counts) and macro (mean of page scores) P / R / F1; zeros for no page."""
    pages = list(pages)
    total = Counts(sum(p.matched for p in pages), sum(p.pred for p in pages),
                   sum(p.gold for p in pages))
    n = len(pages)
    if n == 0:
        return ScoreSummary(0, total, PRF(0.0, 0.0, 0.0), PRF(0.0, 0.0, 0.0))
    macro = PRF(sum(p.precision for p in pages) / n, sum(p.recall for p in pages) / n,
                sum(p.f1 for p in pages) / n)
    return ScoreSummary(n, total, PRF(total.precision, total.recall, total.f1), macro)


def summarize_by(
    pages: Iterable[tuple[str, Scored]], *, overall: str = "all"
) -> dict[str, ScoreSummary]:
    """Summaries per key (e.g. language), sorted by key, plus ``overall`` for all pages."""
    groups: dict[str, list[Scored]] = {}
    everything: list[Scored] = []
    for key, score in pages:
        groups.setdefault(key, []).append(score)
        everything.append(score)
    out = {key: summarize(groups[key]) for key in sorted(groups)}
    out[overall] = summarize(everything)
    return out


__all__ = [
    "BLOCK_KINDS", "GoldBlock", "Counts", "CosinePage", "CosineSummary", "Mode", "PRF",
    "Scored", "ShingleCounts", "ShingleSummary", "SnippetCounts", "ScoreSummary",
    "cleaneval_all", "cleaneval_scores", "cosine", "cosine_page",
    "cosine_summary", "markup_tokens", "mode_tokens",
    "shingle_counts", "shingle_summary", "shingles", "snippet_counts",
    "summarize", "summarize_by", "Text", "word_counts", ]
