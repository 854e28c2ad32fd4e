"""Code blocks kept or dropped whole (the lines of one ``<pre>`` decided together), and
the formulas of kept text kept (issue 46: a displayed equation is content, however little
its line looks like prose).

Data tables are kept whole once the model keeps a cell of them or they lie in kept text,
and only tables with a header cell, three rows and no table inside (:mod:`.tables`):
keeping the rest of any table that lies in kept text, or that the model kept most of,
changed 55 of the shared
pages and lowered their mean word F1 with the shipped model (0.8267 to 0.8197; kept only
when its header row was kept and it has at most 40 cells: 27 pages, 0.8261) — the gold of
news pages leaves their layout tables out."""

from __future__ import annotations

import numpy as np

from ...formulas import on_page, shows
from ...model import Page
from .. import features
from .paragraphs import column


def whole_code_blocks(para: features.Paragraphs, keep: np.ndarray, page: Page | None = None,
                      barred: np.ndarray | None = None) -> None:
    """Code blocks kept or dropped whole (:func:`code_blocks`); with the ``page``, its
    formulas in kept text kept too (:func:`whole_formulas`); never a line an earlier
    step ``barred`` (a listing in a comment dropped with its section)."""
    code_blocks(para, keep, barred)
    if page is not None and page.tree is not None:
        whole_formulas(page, para, keep, barred)


def code_blocks(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray | None = None) -> None:
    """Keep or drop each code block (a ``<pre>``, one line per paragraph) whole:
    kept when the text around it is kept (a paragraph among the :data:`CODE_CONTEXT` before
    it and among those after it, or before it when it ends the page or closes the element
    holding that text: :func:`_closes_kept_text`) or when the model
    kept most of its characters; dropped otherwise.  Half a listing is no use to a reader,
    and a code line's own features (few stop words, much punctuation) look like
    boilerplate, so the lines of one block are decided together from their context.
    A line ``barred`` stays out."""
    code = (column(para, "dist_t_code") == 0).nonzero()[0]
    if not len(code):
        return
    n = len(keep)
    first, end = para.spans[0, 0, code].astype(np.int64), para.spans[0, 1, code].astype(np.int64)
    key = first * (n + 1) + end
    blocks = np.array(sorted(set(key.tolist())), np.int64)  # np.unique costs far more on a page's few
    member = np.searchsorted(blocks, key)
    first, end = blocks // (n + 1), blocks % (n + 1)
    weight = para.chars[code] + 1.0
    share = np.bincount(member, weight * keep[code]) / np.bincount(member, weight)
    padded = np.zeros(len(keep) + 2 * CODE_CONTEXT, bool)
    padded[CODE_CONTEXT:CODE_CONTEXT + len(keep)] = keep
    before = np.zeros(len(blocks), bool)
    after = np.zeros(len(blocks), bool)
    for k in range(1, CODE_CONTEXT + 1):
        before |= padded[first + CODE_CONTEXT - k]
        after |= padded[end + CODE_CONTEXT + k - 1]  # at most n + 2 * CODE_CONTEXT - 1: in the padding
    after = np.where(end >= n, before, after)
    for b in (before & ~after & (share < 0.5)).nonzero()[0].tolist():
        after[b] = _closes_kept_text(para, keep, int(first[b]), int(end[b]))
    keep[code] = ((before & after) | (share >= 0.5))[member]
    if barred is not None:
        keep[code] &= ~barred[code]


def _closes_kept_text(para: features.Paragraphs, keep: np.ndarray, first: int, end: int) -> bool:
    """Whether the code block ``first:end`` is the last thing of an element (a section,
    the article's column, at most :data:`features.LEVELS` - 1 levels up) that holds kept
    text before it: a tutorial's closing listing, followed by the page's navigation."""
    for level in range(1, features.LEVELS):
        start, stop = para.spans[level, :, first].tolist()
        if stop > end:
            return False
        if start < first and keep[start:first].any():
            return stop == end
    return False


#: a code block in kept text: a kept paragraph among this many before it and after it
CODE_CONTEXT = 2


def in_context(first: int, end: int, keep: np.ndarray) -> bool:
    """Whether the paragraphs ``first:end`` lie in kept text: a kept paragraph among the
    :data:`CODE_CONTEXT` before them and among those after them (before them only when
    they end the page)."""
    before = bool(keep[max(0, first - CODE_CONTEXT):first].any())
    if end >= len(keep):
        return before
    return before and bool(keep[end:end + CODE_CONTEXT].any())


def whole_formulas(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray | None = None) -> None:
    """Keep the paragraphs holding a formula that lie in kept text (:func:`in_context`, a
    run of them judged together): a displayed equation is a short line of symbols,
    which the model reads as no prose; never a line ``barred``.
    A page that segmentation found no formula on (:func:`~detourage.formulas.on_page`)
    costs nothing more."""
    if not on_page(page):
        return
    holding = [i for i in range(len(keep)) if _holds_formula(page, para, i)]
    run: list[int] = []
    for i in [*holding, -2]:  # runs of consecutive paragraphs holding formulas, judged together
        if run and i != run[-1] + 1:
            if in_context(run[0], run[-1] + 1, keep):
                keep[[line for line in run if barred is None or not barred[line]]] = True
            run = []
        run.append(i)


def _holds_formula(page: Page, para: features.Paragraphs, i: int) -> bool:
    """A block of paragraph ``i`` is a formula's (:func:`~detourage.formulas.mark`)."""
    return any(map(shows, page.blocks[int(para.starts[i]):int(para.ends[i])]))
