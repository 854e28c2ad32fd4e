"""Features of every paragraph of a page, in one float matrix.

The unit is the paragraph view of the shared blocks (:attr:`Block.paragraph`).  Features
are meant to carry across sites and languages; every group answers one question a reader
asks of a line:

``text``
    its shape: length, words, punctuation, commas, sentence ends, digits, capitals,
    separators (``|``, ``»``…), stop words of the shipped lists (jusText's signal),
    link density;
``kind``
    heading level, list item, table cell, image, the container's tag, and how many
    paragraphs share its structure (tag path and region bits of container and parent);
``dom``
    for the container and its ancestors up to ``<html>``: how far up the nearest element
    whose tag (``article``, ``nav``, ``footer``…) or class/id/role/itemprop vocabulary
    (nav, comment, share, related, ad, content…) names a kind of region;
``region``
    for the container and four ancestors: the text, link density, paragraph count and
    share of the page of its subtree, and a Readability-style score (commas, lengths,
    spread to ancestors, times one minus link density) against the page's best;
``context``
    the neighbouring paragraphs' length, link density and stop words, and the
    paragraph's position in the page;
``page``
    title and ``og:title`` overlap and distance to the ``<h1>``, the text repeated
    elsewhere on the page, text found in JSON-LD ``articleBody``/``og:description``,
    the page's size, link density and declared type (article, product, forum…).

One module per group: :mod:`.text`, :mod:`.tree` (``kind`` and ``dom``), :mod:`.regions`,
:mod:`.neighbours` (``context``), :mod:`.page` with :mod:`.hints`; :mod:`.vocabulary`
holds the words and tags the groups read, :mod:`.columns` the columns' names and the
result.  Each group's compiled pass (``_cfeatures``) sits in its module, beside its twin.

Everything per element or per paragraph is gathered in one Python pass each (elements
on the containers' ancestor chains, then paragraphs); the rest is numpy over the page.
Subtree sums come from cumulative sums over the paragraph range of each element, which
is contiguous in document order.
"""

from __future__ import annotations

import numpy as np

from ...model import Page
from .columns import Paragraphs, _Columns, names, positions
from .hints import Hints, page_hints
from .neighbours import WINDOW, _context, neighbours_numpy
from .page import SHORT, _page, title_overlap_python
from .regions import _regions, regions_numpy
from .text import COPYRIGHT_MARKS, _text, char_stats_numpy, lower
from .tree import _LINK_CHARS, _PARAGRAPH, _TEXT, _kind, _path_ids, _signatures, _Tree, walk_python
from .vocabulary import (
    CLASS_GROUPS,
    CONTAINER_TAGS,
    GROUPS,
    LEVELS,
    PAGE_TYPES,
    TAG_GROUPS,
    compiled_vocabulary,
    group_pattern,
)


def compute(page: Page) -> Paragraphs:
    """The paragraphs of a page and their features."""
    blocks = page.blocks
    n_blocks = len(blocks)
    width = len(names())
    if not n_blocks:
        empty = np.zeros(0, dtype=np.int64)
        return Paragraphs(empty, empty, [], np.zeros((0, width), np.float32), empty, empty, -1,
                          np.zeros((LEVELS, 2, 0), np.int32), np.zeros(0, np.int32))
    para = np.fromiter(map(_PARAGRAPH, blocks), dtype=np.int64, count=n_blocks)
    change = np.empty(n_blocks, dtype=bool)
    change[0] = True
    np.not_equal(para[1:], para[:-1], out=change[1:])
    starts = change.nonzero()[0]
    ends = np.empty_like(starts)  # each paragraph's one-past-last block
    ends[:-1] = starts[1:]
    ends[-1] = n_blocks
    block_texts = list(map(_TEXT, blocks))
    texts = list(map(block_texts.__getitem__, starts.tolist()))  # most paragraphs are one block
    for i in (ends - starts > 1).nonzero()[0].tolist():
        texts[i] = " ".join(block_texts[starts[i]:ends[i]])
    link = np.fromiter(map(_LINK_CHARS, blocks), dtype=np.float64, count=n_blocks)
    link_chars = np.add.reduceat(link, starts)
    columns = _Columns()
    joined = "\x1f".join(texts)  # "\x1f": a whitespace character no block text holds
    lowered = lower(joined)
    chars, words, stop = _text(texts, joined, lowered, columns)
    columns["link_density"] = np.minimum(link_chars / np.maximum(chars, 1), 1.0)
    columns["log_link_chars"] = np.log1p(link_chars)
    columns["blocks"] = (ends - starts).astype(np.float64)
    firsts = list(map(blocks.__getitem__, starts.tolist()))
    paths, path_id = _path_ids(firsts)
    heading = _kind(firsts, paths, path_id, columns)
    tree = _Tree(firsts)
    tree.distances(columns)
    signature = _signatures(path_id, tree, columns)
    spans = _regions(tree, chars, link_chars, words, stop, columns)
    _context(chars, columns, heading, stop / np.maximum(words, 1))
    lowered_texts = lowered.split("\x1f")
    title_index, hints = _page(page, lowered, lowered_texts, chars, link_chars, heading, columns)
    return Paragraphs(starts, ends, texts, columns.matrix(len(texts)), chars.astype(np.int64), heading,
                      title_index, spans, signature, lowered_texts, hints.types, hints.address)


__all__ = ["CLASS_GROUPS", "CONTAINER_TAGS", "COPYRIGHT_MARKS", "GROUPS", "Hints", "LEVELS", "PAGE_TYPES",
           "Paragraphs", "SHORT", "TAG_GROUPS", "WINDOW", "char_stats_numpy", "compiled_vocabulary", "compute",
           "group_pattern", "names", "neighbours_numpy", "page_hints", "positions", "regions_numpy",
           "title_overlap_python", "walk_python"]
