"""Code blocks kept or dropped whole (the lines of one ``<pre>`` decided together), and
the data tables and formulas of kept text kept whole (issue 46: a table of numbers, a
displayed equation are content, however little their lines look like prose)."""

from __future__ import annotations

import numpy as np
from lxml import etree

from ...formulas import MARKS, math_script
from ...model import Page
from ...structure import is_data_table
from .. import features
from .paragraphs import column


def whole_code_blocks(para: features.Paragraphs, keep: np.ndarray, page: Page | None = None) -> None:
    """Code blocks kept or dropped whole (:func:`code_blocks`); with the ``page``, its
    data tables (:func:`whole_tables`) and formulas (:func:`whole_formulas`) kept too."""
    code_blocks(para, keep)
    if page is not None and page.tree is not None:
        whole_tables(page, para, keep)
        whole_formulas(page, para, keep)


def code_blocks(para: features.Paragraphs, keep: np.ndarray) -> None:
    """Keep or drop each code block (a ``<pre>``, one line per paragraph) whole:
    kept when the text around it is kept (a paragraph among the :data:`CODE_CONTEXT` before
    it and among those after it, or before it when it ends the page) or when the model
    kept most of its characters; dropped otherwise.  Half a listing is no use to a reader,
    and a code line's own features (few stop words, much punctuation) look like
    boilerplate, so the lines of one block are decided together from their context."""
    code = np.flatnonzero(column(para, "dist_t_code") == 0)
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
    keep[code] = ((before & after) | (share >= 0.5))[member]


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


def whole_tables(page: Page, para: features.Paragraphs, keep: np.ndarray) -> None:
    """Keep every cell of a data table (:func:`~detourage.structure.is_data_table`) that
    lies in kept text (:func:`in_context`) or whose text the model kept most of: the
    model reads a row of numbers as no prose, and a table's header without its rows is
    no use.  Only adds: a table the model kept stays."""
    cells = np.flatnonzero(column(para, "is_cell"))
    if not len(cells):
        return
    tables: dict[etree._Element, list[int]] = {}
    for i in cells.tolist():
        table = next(page.blocks[int(para.starts[i])].node.iterancestors("table"), None)
        if table is not None:
            tables.setdefault(table, []).append(i)
    for table, members in tables.items():
        if next(table.iterdescendants("table"), None) is not None or not is_data_table(table):
            continue
        rows = np.array(members)
        weight = para.chars[rows] + 1.0
        if in_context(members[0], members[-1] + 1, keep) or (weight * keep[rows]).sum() >= weight.sum() / 2:
            keep[rows] = True


def whole_formulas(page: Page, para: features.Paragraphs, keep: np.ndarray) -> None:
    """Keep the paragraphs holding a formula that lie in kept text (:func:`in_context`, a
    run of them judged together): a displayed equation is a short line of symbols,
    which the model reads as no prose.
    A page with no ``<math>``, ``<mjx-container>`` nor MathJax source pays two scans
    of its tree in C."""
    tree = page.tree
    assert tree is not None
    if next(tree.iter("math", "mjx-container"), None) is None and \
            all(math_script(s) is None for s in tree.iter("script")):
        return
    holding = [i for i in range(len(keep)) if _holds_formula(page, para, i)]
    run: list[int] = []
    for i in [*holding, -2]:  # runs of consecutive paragraphs holding formulas, judged together
        if run and i != run[-1] + 1:
            if in_context(run[0], run[-1] + 1, keep):
                keep[run] = True
            run = []
        run.append(i)


def _holds_formula(page: Page, para: features.Paragraphs, i: int) -> bool:
    return any(not MARKS.isdisjoint(b.path) for b in page.blocks[int(para.starts[i]):int(para.ends[i])])
