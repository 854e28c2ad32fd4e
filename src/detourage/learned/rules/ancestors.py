"""Where a line sits, the two questions every step that brings lines back asks of a
handful of lines: whether a line and the paragraph beside it share an ancestor
(:func:`share`), and whether a line lies in a box named as boilerplate that its
neighbour is not in (:func:`clear_of_boilerplate`); and the element a level of
:attr:`Paragraphs.spans` stands for (:func:`ancestor`), the nearest element above a
line whose class or id a pattern names (:func:`nearest_named`), and the elements around
the page's title (:func:`around_title`).

Each has a compiled twin in ``_csteps`` (``share``, ``clear_of_boilerplate``), used when
it is built; the numpy twins give the same booleans.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
from lxml import etree

from ...compiled import optional
from ...model import Block, Page
from ...parse import nearest_above
from .. import features
from ..features.tree import container

_csteps = optional("learned.rules._csteps")


#: a line in a box named so (class/id/role or tag, its container or parent) is no boundary line
BOUNDARY_GROUPS = ("nav", "footer", "header", "sidebar", "comment", "social", "related", "ad", "meta", "overlay",
                   "t_nav", "t_footer", "t_aside", "t_form", "t_header")


def share(para: features.Paragraphs, lines: np.ndarray, others: np.ndarray, up: int, up_other: int) -> np.ndarray:
    """Whether each of ``lines`` and the paragraph ``others`` beside it (-1: none) have a
    common ancestor at most ``up`` levels above the line's container and ``up_other``
    above the other's (the same paragraph range at both places; compiled:
    ``_csteps.share``, else :func:`share_numpy`)."""
    keys = span_keys(para)
    if _csteps is not None:
        return _csteps.share(keys, _indices(lines), _indices(others), up, up_other)
    return share_numpy(keys, lines, others, up, up_other)


def share_numpy(keys: np.ndarray, lines: np.ndarray, others: np.ndarray, up: int, up_other: int) -> np.ndarray:
    """The twin of ``_csteps.share``: ``keys`` as :func:`span_keys` makes them."""
    mine = keys[:up + 1, lines]  # (levels, lines)
    theirs = keys[:up_other + 1, np.maximum(others, 0)]
    return (mine[:, None] == theirs[None, :]).any(axis=(0, 1)) & (others >= 0)


def _indices(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def span_keys(para: features.Paragraphs) -> np.ndarray:
    """int64 (levels, paragraphs): each range of :attr:`Paragraphs.spans` as one number
    (first << 32 | end), made once per page (the last page's are kept)."""
    global _KEYS
    cached = _KEYS
    if cached[0] is para:
        return cached[1]
    spans = para.spans.astype(np.int64)
    keys = np.ascontiguousarray((spans[:, 0] << 32) | spans[:, 1])
    _KEYS = (para, keys)
    return keys


_KEYS: tuple[features.Paragraphs | None, np.ndarray] = (None, np.zeros((0, 0), np.int64))


def clear_of_boilerplate(para: features.Paragraphs, lines: np.ndarray, others: np.ndarray,
                         allowed: tuple[str, ...] = ()) -> np.ndarray:
    """Whether each of ``lines`` lies in no box of :data:`BOUNDARY_GROUPS` (but the
    ``allowed`` ones: its container or parent) that the kept paragraph ``others`` beside
    it is not inside too; an embedded post (a ``<blockquote class="twitter-tweet">``) is
    a quote, not a share bar."""
    columns, social = boilerplate_boxes(allowed)
    if _csteps is not None:
        return _csteps.clear_of_boilerplate(para.X, _indices(lines), _indices(others), columns,
                                            features.positions()["dist_t_quote"], social)
    return clear_of_boilerplate_numpy(para.X, lines, others, columns, features.positions()["dist_t_quote"], social)


def clear_of_boilerplate_numpy(X: np.ndarray, lines: np.ndarray, others: np.ndarray, columns: np.ndarray,
                               quote: int, social: int) -> np.ndarray:
    """The twin of ``_csteps.clear_of_boilerplate``."""
    boxed = (X[lines][:, columns] <= 1) & (X[others][:, columns] > 3)  # (lines, groups)
    if social >= 0:
        boxed[:, social] &= ~(X[lines, quote] <= 1)
    return ~boxed.any(axis=1)


@lru_cache(maxsize=8)
def boilerplate_boxes(allowed: tuple[str, ...] = ()) -> tuple[np.ndarray, int]:
    """The columns of the boilerplate boxes (:data:`BOUNDARY_GROUPS` but ``allowed``) and
    the position of the social one among them (-1: allowed)."""
    groups = tuple(group for group in BOUNDARY_GROUPS if group not in allowed)
    return group_columns(groups), groups.index("social") if "social" in groups else -1


@lru_cache(maxsize=8)
def group_columns(groups: tuple[str, ...]) -> np.ndarray:
    """The feature columns ``dist_<group>`` of ``groups``, in order."""
    positions = features.positions()
    return np.array([positions[f"dist_{group}"] for group in groups], np.int64)


def ancestor(block: Block, level: int) -> etree._Element | None:
    """The element ``level`` levels above a block's container (its nearest block-level
    element, level 0: the elements :attr:`Paragraphs.spans` counts); None above the root."""
    node: etree._Element | None = container(block)
    for _ in range(level):
        if node is None:
            return None
        node = node.getparent()
    return node


def nearest_named(node: etree._Element | None, pattern: re.Pattern[str],
                  known: dict[etree._Element, etree._Element | None]) -> etree._Element | None:
    """The nearest element at or above ``node`` whose class or id (lower case) ``pattern``
    finds (:func:`~detourage.parse.nearest_above`; ``known``, one per pattern, holds
    the answers found)."""
    def named(element: etree._Element) -> bool:
        name = f"{element.get('class') or ''} {element.get('id') or ''}"
        return name != " " and pattern.search(name.lower()) is not None

    return nearest_above(node, named, known)


def around_title(page: Page, para: features.Paragraphs) -> set[etree._Element]:
    """The element of the page's title heading (:attr:`Paragraphs.title_index`) and its
    ancestors: a box among them is the page itself; none without a title."""
    title = para.title_index
    node = page.blocks[para.starts[title]].node if title >= 0 else None
    return {node, *node.iterancestors()} if node is not None else set()
