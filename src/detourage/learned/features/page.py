"""The ``page`` group: title and ``og:title`` overlap, distance to the title and the
``<h1>`` (near them only), repeated text, JSON-LD text, the page's size, link density and declared type."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from ...compiled import optional
from ...model import Page
from .columns import _Columns
from .hints import Hints, page_hints
from .vocabulary import PAGE_TYPES


def _page(page: Page, joined: str, lowered: list[str], chars: np.ndarray, link_chars: np.ndarray,
          heading: np.ndarray, out: _Columns) -> tuple[int, Hints]:
    """Title, ``<h1>``, repetition, JSON-LD and page-level features from the paragraphs'
    lower-cased texts (``lowered``, and ``joined`` by ``\x1f``); returns the title index
    and what the page declares of itself (:class:`Hints`)."""
    n = len(lowered)
    hints = page_hints(page)
    title_words = set(_WORD.findall(hints.title.lower()))
    if _compiled_title_overlap is not None:
        assert _cfeatures is not None  # loaded with it
        overlap = _compiled_title_overlap(joined, chars, _cfeatures.WordSet(title_words), SHORT)
    else:
        overlap = title_overlap_python(lowered, chars, title_words)
    out["title_overlap"] = overlap
    candidates = np.where(heading > 0, overlap + 0.2, overlap)
    title_index = int(np.argmax(candidates)) if n and overlap.max() >= 0.5 else -1
    idx = np.arange(n, dtype=np.float64)
    out["is_title"] = (idx == title_index).astype(np.float64)
    _distance(out, "title", idx, title_index)
    h1 = (heading == 1).nonzero()[0]
    _distance(out, "h1", idx, int(h1[0]) if len(h1) else -1)
    seen = Counter(lowered)
    out["repeated"] = np.fromiter(map(seen.__getitem__, lowered), np.float64, n) - 1
    body = hints.body
    out["in_jsonld"] = in_jsonld = np.zeros(n)
    if body:
        long_enough = (chars >= 20).nonzero()[0].tolist()
        in_jsonld[long_enough] = [lowered[i][:60] in body for i in long_enough]
    total = chars.sum()
    row = [np.log1p(total), np.log1p(n), link_chars.sum() / max(total, 1),
           *(float(not hints.types.isdisjoint(words)) for words in PAGE_TYPES.values())]
    table = np.empty((n, len(row)))  # one value per page, the same in every row
    table[:] = row
    out.table(PAGE_COLUMNS, table)
    return title_index, hints


#: the columns that are one value for the whole page, consecutive in :func:`~.columns.names`
PAGE_COLUMNS = ("page_log_chars", "page_log_paragraphs", "page_link_density", *(f"type_{t}" for t in PAGE_TYPES))


_WORD = re.compile(r"\w+")


#: paragraphs shorter than this many characters are compared with the title
SHORT = 300.0


def title_overlap_python(lowered: list[str], chars: np.ndarray, title_words: set[str]) -> np.ndarray:
    """Jaccard overlap of each short paragraph's words with the title's (0 for the rest).

    The short paragraphs' words come from one regular-expression pass (``\x1f`` tokens
    mark the paragraph boundaries); only those holding a title word are compared as sets.
    The compiled ``_cfeatures.title_overlap`` is its twin.
    """
    overlap = np.zeros(len(lowered))
    short = (chars < SHORT).nonzero()[0]
    if not title_words or not len(short):
        return overlap
    tokens = _WORD_OR_BREAK.findall("\x1f".join([lowered[i] for i in short.tolist()]))
    is_break = np.fromiter(map("\x1f".__eq__, tokens), bool, len(tokens))
    starts = is_break.nonzero()[0] + 1
    starts = np.insert(starts, 0, 0)  # the first token of each short paragraph
    ends = np.append(starts[1:] - 1, len(tokens))
    hit = np.zeros(len(tokens) + 1, np.int64)
    hit[:-1] = np.fromiter(map(title_words.__contains__, tokens), np.int64, len(tokens))
    hits = np.add.reduceat(hit, np.minimum(starts, len(tokens)))
    for j in ((hits > 0) & (ends > starts)).nonzero()[0].tolist():
        w = set(tokens[starts[j]:ends[j]])
        overlap[short[j]] = len(w & title_words) / len(w | title_words)
    return overlap


_WORD_OR_BREAK = re.compile(r"\w+|\x1f")


#: paragraphs from the title (or the ``<h1>``) beyond which the distance no longer grows.
#: Near the title, the distance tells its byline, dateline and breadcrumbs; far from it,
#: it only told how long the training pages' stories were: past 30 paragraphs after the
#: title, 1 % of DANIEL's paragraphs and 4 % of L3S-GN1's are content, 41 % of WCXB's
#: articles' and 57 % of its documentation's.  Measured uncapped, a model that never saw a
#: WCXB page let its probabilities fall down a long article, paragraph after paragraph.
NEAR = 5.0


def _distance(out: dict[str, np.ndarray], name: str, idx: np.ndarray, at: int) -> None:
    """``after_NAME`` (past the title or ``<h1>`` at ``at``) and ``NAME_distance``: the
    signed log of the paragraphs between, no further than :data:`NEAR` (99 when the page
    has none)."""
    if at < 0:
        out[f"after_{name}"] = np.zeros_like(idx)
        out[f"{name}_distance"] = np.full_like(idx, 99.0)
        return
    out[f"after_{name}"] = (idx > at).astype(np.float64)
    out[f"{name}_distance"] = np.sign(idx - at) * np.log1p(np.minimum(np.abs(idx - at), NEAR))


_cfeatures = optional("learned._cfeatures")
_compiled_title_overlap = None if _cfeatures is None else _cfeatures.title_overlap
