"""The ``region`` group: for the container and four ancestors, the text, link density,
paragraph count and share of the page of its subtree, and a Readability-style score."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...compiled import optional
from .columns import _Columns, names
from .tree import _Tree
from .vocabulary import LEVELS


def _regions(tree: _Tree, chars: np.ndarray, link_chars: np.ndarray, words: np.ndarray,
             stop: np.ndarray, out: _Columns) -> np.ndarray:
    """Subtree text, link density, paragraphs, stop words, sentence ends and
    Readability-style scores by level (the compiled ``_cfeatures.region_columns``, or
    its twin :func:`regions_numpy`); returns the ancestors' paragraph spans
    (:attr:`Paragraphs.spans`)."""
    args = (chars, link_chars, words, stop, np.expm1(out["sentence_ends"]), np.expm1(out["commas"]))
    if _compiled_regions is not None:
        spans = np.empty((LEVELS, 2, len(chars)), np.int32)
        table = _compiled_regions(*args, tree.first, tree.last, tree.parent, tree.container, LEVELS, spans)
    else:
        table, spans = regions_numpy(tree, *args), tree.spans()
    out.table(_region_names(), table)
    return spans


@lru_cache(maxsize=1)
def _region_names() -> tuple[str, ...]:
    """The columns of :func:`regions_numpy`'s table, in order."""
    at = names().index("l0_log_chars")
    return names()[at:at + 8 * LEVELS + 3]


def regions_numpy(tree: _Tree, chars: np.ndarray, link_chars: np.ndarray, words: np.ndarray, stop: np.ndarray,
                  ends: np.ndarray, commas: np.ndarray) -> np.ndarray:
    """float64 (paragraphs, columns of :func:`_region_names`): for the container and its
    ancestors the subtree's text, link density, paragraphs, share, mean paragraph, score
    against the page's best, stop words and sentence ``ends`` per word; then the best
    element's extent, share and link density."""
    n = len(chars)
    total = max(chars.sum(), 1.0)
    cs_chars = _cumsum0(chars)
    cs_links = _cumsum0(link_chars)
    first, last = tree.first, tree.last + 1
    sub_chars = cs_chars[last] - cs_chars[first]
    sub_links = cs_links[last] - cs_links[first]
    sub_paras = (last - first).astype(np.float64)
    sub_words = _range_sums(words, first, last)
    sub_stop = _range_sums(stop, first, last)
    sub_ends = _range_sums(ends, first, last)
    link_density = np.minimum(sub_links / np.maximum(sub_chars, 1), 1.0)
    readable = np.where(chars >= 25, 1 + commas + np.minimum(chars / 100, 3), 0.0)
    levels = tree.ancestors()
    # the Readability score spread to the ancestors: one bincount over levels 1… in turn,
    # the same additions in the same order as successive np.add.at calls
    spread = levels[1:5]
    score = np.bincount(np.concatenate(spread), minlength=tree.size,
                        weights=np.concatenate([readable * w for w in (1.0, 0.5, 1 / 6, 1 / 9)[:len(spread)]]))
    score *= 1 - link_density
    score[-1] = 0.0  # the virtual root is no candidate
    top = int(np.argmax(score))
    best = max(score[top], 1e-9)
    # every element's values once, then one gather per level
    per_element = np.stack([
        np.log1p(sub_chars), link_density, np.log1p(sub_paras), sub_chars / total,
        np.log1p(sub_chars / np.maximum(sub_paras, 1)), score / best,
        sub_stop / np.maximum(sub_words, 1), sub_ends / np.maximum(sub_words, 1)], axis=1)
    idx = np.arange(n)
    return np.hstack([*(per_element[anc] for anc in levels),
                      ((idx >= tree.first[top]) & (idx <= tree.last[top])).astype(np.float64)[:, None],
                      np.full((n, 1), sub_chars[top] / total), np.full((n, 1), link_density[top])])


def _range_sums(x: np.ndarray, first: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """Sum of x over each paragraph range first … stop - 1."""
    cs = _cumsum0(x)
    return cs[stop] - cs[first]


def _cumsum0(x: np.ndarray) -> np.ndarray:
    """0, then the cumulative sums of x (float64): ``cs[j] - cs[i]`` sums ``x[i:j]``."""
    cs = np.zeros(len(x) + 1)
    x.cumsum(out=cs[1:])
    return cs


_cfeatures = optional("learned._cfeatures")
_compiled_regions = None if _cfeatures is None else _cfeatures.region_columns
