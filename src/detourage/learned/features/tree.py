"""The ``kind`` and ``dom`` groups, over the paragraphs' containers and their ancestors:
tag paths, repeated structures, and how far up the nearest element of each group is."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import chain, repeat
from operator import attrgetter, is_not

import numpy as np
from lxml import etree

from ...compiled import optional
from ...model import Block
from ...segment import BLOCK_LEVEL
from .columns import _Columns
from .vocabulary import (
    _CELL,
    _DISTANCE_NAMES,
    _HEADING_LEVEL,
    _LIST,
    _TAG_BITS,
    _TAG_CODE,
    GROUPS,
    LEVELS,
    _own_bits,
    _vocabulary_bits,
    compiled_vocabulary,
)

_PARAGRAPH = attrgetter("paragraph")


_TEXT = attrgetter("text")


_LINK_CHARS = attrgetter("link_chars")




def _path_ids(firsts: Sequence[Block]) -> tuple[list[tuple[str, ...]], np.ndarray]:
    """The distinct tag paths of the paragraphs' first blocks in order of appearance, and
    each paragraph's index among them (a path tuple is hashed once per paragraph here,
    then only its number is)."""
    index: dict[tuple[str, ...], int] = {}
    # len(index) is read before the call: a new path gets the next number
    path_id = np.fromiter([index.setdefault(path, len(index)) for path in map(_PATH, firsts)], np.int64, len(firsts))
    return list(index), path_id


def _kind(firsts: Sequence[Block], paths: list[tuple[str, ...]], path_id: np.ndarray,
          out: dict[str, np.ndarray]) -> np.ndarray:
    """Heading level, list item, table cell, image and container tag, from the paths
    (``paths``, distinct, and each paragraph's ``path_id`` among them)."""
    n = len(firsts)
    distinct = np.fromiter(chain.from_iterable(map(_path_kind, paths)), np.float64, 4 * len(paths))
    table = distinct.reshape(len(paths), 4)[path_id]
    out["heading_level"], out["is_list"], out["is_cell"], out["container_tag"] = table.T
    out["is_image"] = np.fromiter(map(is_not, map(_IMAGE, firsts), repeat(None)), np.float64, n)
    return table[:, 0].astype(np.int64)


@lru_cache(maxsize=1 << 14)
def _path_kind(path: tuple[str, ...]) -> tuple[int, int, int, int]:
    """Heading level (the innermost heading's), list item (a list item inside that
    heading, or anywhere when there is none), table cell and container tag code of a
    path."""
    if not path:
        return 0, 0, 0, 0
    cell = 0 if _CELL.isdisjoint(path) else 1
    code = _TAG_CODE.get(path[-1], 0)
    if _HEADING_LEVEL.keys().isdisjoint(path):  # most paths: no loop
        return 0, 0 if _LIST.isdisjoint(path) else 1, cell, code
    at = len(path) - 1
    while path[at] not in _HEADING_LEVEL:
        at -= 1
    return _HEADING_LEVEL[path[at]], 0 if _LIST.isdisjoint(path[at + 1:]) else 1, cell, code


def _signatures(path_id: np.ndarray, tree: _Tree, out: dict[str, np.ndarray]) -> np.ndarray:
    """A number per distinct structure (the container's tag path, by its number
    ``path_id``, and its own and its parent's region bits), and how many paragraphs
    share each paragraph's."""
    bits = tree.bits[tree.container]
    parent_bits = tree.bits[tree.parent[tree.container]]
    # each paragraph gets the index of the first paragraph of its structure; renumbered
    # 0, 1, 2… in order of first appearance
    seen: dict = {}
    n = len(path_id)
    first_of = np.fromiter(map(seen.setdefault, zip(path_id.tolist(), bits.tolist(), parent_bits.tolist()),
                               range(n)), np.int64, n)
    # first_of holds first-appearance indices: their rank among the distinct ones is the number
    signature = ((first_of == np.arange(n)).cumsum() - 1)[first_of].astype(np.int32)
    out["log_same_structure"] = np.log1p(np.bincount(signature)[signature])
    return signature


_PATH = attrgetter("path")


_IMAGE = attrgetter("image")


def container(block: Block) -> etree._Element:
    """The nearest block-level element holding the block's text."""
    node: etree._Element | None = block.node
    if block.path and block.path[-1] in BLOCK_LEVEL:  # most blocks: no tree access
        return block.node
    while node is not None and not (isinstance(node.tag, str) and node.tag in BLOCK_LEVEL):
        node = node.getparent()
    return node if node is not None else block.node


class _Tree:
    """The elements on the containers' ancestor chains, with their paragraph ranges.

    Index ``len(elements)`` is a virtual root above ``<html>`` spanning every paragraph.
    ``parent``, ``first`` and ``last`` (paragraphs), ``bits`` (region groups of the
    element's own tag and vocabulary) are per element; ``container`` per paragraph.
    """

    def __init__(self, firsts: Sequence[Block]) -> None:
        if _compiled_walk is not None:
            walked = _compiled_walk(list(firsts), _TAG_BITS, compiled_vocabulary(), BLOCK_LEVEL)
        else:
            walked = walk_python(list(firsts), _TAG_BITS, _vocabulary_bits, BLOCK_LEVEL)
        self.parent, self.first, self.last, self.container, self.bits = walked
        self.size = len(self.parent)

    def ancestors(self) -> list[np.ndarray]:
        """Element index of each paragraph's container and of its LEVELS-1 ancestors."""
        out = [self.container]
        for _ in range(LEVELS - 1):
            out.append(self.parent[out[-1]])
        return out

    def spans(self) -> np.ndarray:
        """(LEVELS, 2, paragraphs) int32: each level's ancestor's first and one-past-last paragraph."""
        levels = np.stack(self.ancestors())
        return np.stack([self.first[levels], self.last[levels] + 1], axis=1).astype(np.int32)

    def distances(self, out: _Columns) -> None:
        """Levels from each container up to the nearest element of every group (99: none)."""
        if _compiled_distances is not None:
            dist, depth = _compiled_distances(self.container, self.parent, self.bits, len(GROUPS))
        else:
            dist, depth = self.distances_numpy()
        out.table(_DISTANCE_NAMES, dist)
        out["depth"] = depth

    def distances_numpy(self) -> tuple[np.ndarray, np.ndarray]:
        """(dist, depth) level by level over all paragraphs at once; the compiled
        ``_cfeatures.distances`` is its twin."""
        root = self.size - 1
        current = self.container
        found = np.zeros(len(current), dtype=np.int64)
        new_bits = []  # per level: the groups first met at that level
        depth = np.zeros(len(current))
        while True:
            alive = current != root
            if not alive.any():
                break
            here = self.bits[current]
            new_bits.append(here & ~found)
            found |= here
            depth += alive
            current = self.parent[current]
        dist = np.full((len(current), len(GROUPS)), 99.0)
        if new_bits:
            levels = np.stack(new_bits).astype("<i8")  # (levels, paragraphs)
            as_bytes = levels.view(np.uint8).reshape(*levels.shape, 8)
            hits = np.unpackbits(as_bytes, axis=2, bitorder="little")[:, :, :len(GROUPS)]
            met = hits.any(axis=0)
            dist[met] = hits.argmax(axis=0)[met]
        return dist, depth


def walk_python(firsts: list[Block], tag_bits: dict[str, int], vocabulary: Callable[[str], int],
                block_level: frozenset[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(parent, first, last, container, bits) of the elements above the paragraphs' first
    blocks; the reference of the compiled ``detourage.learned._cfeatures.walk``."""
    containers: list[etree._Element | None] = [container(b) for b in firsts]
    index: dict = {}
    elements: list = []
    parents: list = []
    first: list[int] = []
    for p, el in enumerate(containers):
        while el is not None and el not in index:
            index[el] = len(elements)
            elements.append(el)
            first.append(p)
            el = el.getparent()
            parents.append(el)
    root = len(elements)
    parent = np.array([index.get(e, root) if e is not None else root for e in parents] + [root], dtype=np.int64)
    held = np.array([index[c] for c in containers], dtype=np.int64)  # each paragraph's container
    last = np.full(root + 1, -1, dtype=np.int64)
    last[root] = len(containers) - 1
    for p in range(len(containers) - 1, -1, -1):
        i = held[p]
        while last[i] < 0:
            last[i] = p
            i = parent[i]
    bits = np.array([_own_bits(el, tag_bits, vocabulary) for el in elements] + [0], dtype=np.int64)
    return parent, np.array(first + [0], dtype=np.int64), last, held, bits


_cfeatures = optional("learned._cfeatures")
_compiled_walk = None if _cfeatures is None else _cfeatures.walk
_compiled_distances = None if _cfeatures is None else _cfeatures.distances
