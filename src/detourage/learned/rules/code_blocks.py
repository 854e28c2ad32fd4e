"""Code blocks kept or dropped whole (the lines of one ``<pre>`` decided together)."""

from __future__ import annotations

import numpy as np

from .. import features
from .paragraphs import column


def whole_code_blocks(para: features.Paragraphs, keep: np.ndarray) -> None:
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
