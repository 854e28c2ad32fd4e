"""Structural distance between pages of one site (seed 004 §4.3).

Seed 004 groups a site's pages by the tree edit distance (RTED) between their HTML trees,
which is quadratic in pages and far worse in nodes.  The default here is a fast estimate:

* every visible element gives its *tag path* (root-to-node tags, optionally with class
  tokens, digit runs folded to ``0``); the paths in document order are cut into shingles of
  ``k`` consecutive paths, each hashed with BLAKE2b (stable across runs and processes —
  never Python's salted ``hash()``);
* the shingle set becomes a MinHash :func:`signature` (``permutations`` hash functions
  ``(a·x + b) mod p``, ``p = 2**31 - 1``, drawn once from a fixed seed);
* :func:`distance` is 1 − the estimated Jaccard index; :func:`distances` the pairwise
  matrix of many signatures, vectorised.

For checking it there is :func:`jaccard_distance` (the exact Jaccard distance of the
shingle sets) and :func:`tree_edit_distance`, a Zhang–Shasha tree edit distance (unit
costs, labels = tag names) vectorised with numpy, over the visible element tree capped at
``max_nodes`` elements in document order (:data:`TED_MAX_NODES`).  No maintained,
permissively licensed library on PyPI does this (``zss`` 1.2.0 and ``apted`` 1.0.3 are pure
Python and unreleased since 2018 and 2017; ``edist`` is GPL-3.0 and pulls in scikit-learn),
so it is written here.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from lxml import etree

from ..segment import INVISIBLE, is_hidden

#: Mersenne prime 2**31 - 1: with a, b, x < p, a·x + b stays below 2**63, so the hash
#: family is exact in uint64 (a larger p would need a·x mod p in 128 bits; with a and x
#: kept small instead, a·x + b barely wraps and the minimum follows the smallest x)
_PRIME = np.uint64((1 << 31) - 1)
#: fixed seed of the hash family: signatures compare across runs, processes and machines
_SEED = 20041  # arbitrary; changing it changes every stored signature
_DIGITS = re.compile(r"\d+")

#: the exact distance's cap: the first 1,000 visible elements in document order (the
#: top of the page: header, navigation, the start of the body).  Measured on DANIEL pages
#: (benchmarks/studies/structure_distance.py, one CPU): ~0.8–1.1 s a pair at 1,000 elements,
#: ~3 s at 2,000; time grows with n1·depth1·n2·depth2, memory with n1·n2·depth2.
TED_MAX_NODES = 1000


@dataclass(frozen=True, slots=True, kw_only=True)
class DistanceOptions:
    """How pages are turned into shingles and signatures."""

    #: consecutive tag paths per shingle; 3 keeps sibling order without being brittle
    #: (k = 1 ignores order, larger k lets one inserted element change k shingles)
    k: int = 3
    #: add each element's class tokens (sorted, digits folded) to its path.  Off by
    #: default: tag-only paths track the tag-only exact distance more closely
    #: (benchmarks/studies/structure_distance.py, `--classes` to compare)
    classes: bool = False
    #: MinHash permutations; the Jaccard estimate's standard error is ≤ 0.5/√128 ≈ 0.044
    permutations: int = 128


DEFAULT_OPTIONS = DistanceOptions()


# ------------------------------------------------------------------------------ the walk


def _visible(el: etree._Element) -> bool:
    """Whether an element is one a reader could see (a tag, not invisible, not hidden)."""
    return isinstance(el.tag, str) and el.tag not in INVISIBLE and not is_hidden(el)


def _label(el: etree._Element, classes: bool) -> str:
    """An element's tag, with its class tokens (sorted, digit runs as 0) when asked."""
    tag = str(el.tag).lower()
    if not classes:
        return tag
    tokens = sorted({_DIGITS.sub("0", t) for t in (el.get("class") or "").split()})
    return ".".join([tag, *tokens])


def walk(root: etree._Element | None, *, classes: bool = False,
         max_nodes: int | None = None) -> Iterator[tuple[int, str]]:
    """The visible elements in document order as (depth, label); invisible subtrees skipped.

    With ``max_nodes`` the walk stops after that many elements: a prefix in document order
    is still a tree (every parent comes before its children).
    """
    if root is None or not _visible(root):
        return
    count = 0
    stack: list[tuple[etree._Element, int]] = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        yield depth, _label(el, classes)
        count += 1
        if max_nodes is not None and count >= max_nodes:
            return
        stack.extend((child, depth + 1) for child in reversed(el) if _visible(child))


# ------------------------------------------------------------------------ shingles, MinHash


def tag_paths(root: etree._Element | None, *, classes: bool = False) -> list[str]:
    """Each visible element's root-to-node path (``html/body/div``), in document order
    (the paths of :func:`walk`, built in one C-level iteration of the tree)."""
    if root is None or not _visible(root):
        return []
    known: dict[etree._Element | None, str] = {root: _label(root, classes)}
    paths = [known[root]]
    for el in root.iter(etree.Element):
        parent = known.get(el.getparent())  # None: inside a skipped subtree (or the root)
        if parent is None or not _visible(el):
            continue
        path = f"{parent}/{_label(el, classes)}"
        known[el] = path
        paths.append(path)
    return paths


def _hash64(text: str) -> int:
    """A stable 64-bit hash of a string (BLAKE2b)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def shingles(root: etree._Element | None, options: DistanceOptions = DEFAULT_OPTIONS) -> np.ndarray:
    """The page's shingle set: sorted unique 64-bit hashes of ``k`` consecutive tag paths.

    A page with fewer than ``k`` elements gives one shingle of all its paths.
    """
    paths = tag_paths(root, classes=options.classes)
    if not paths:
        return np.zeros(0, dtype=np.uint64)
    k = max(1, min(options.k, len(paths)))
    hashes = {_hash64("\n".join(paths[i:i + k])) for i in range(len(paths) - k + 1)}
    return np.unique(np.fromiter(hashes, dtype=np.uint64, count=len(hashes)))


def _family(permutations: int) -> tuple[np.ndarray, np.ndarray]:
    """The fixed hash family: coefficients a ∈ [1, p), b ∈ [0, p)."""
    rng = np.random.Generator(np.random.PCG64(_SEED))
    a = rng.integers(1, int(_PRIME), size=permutations, dtype=np.uint64)
    b = rng.integers(0, int(_PRIME), size=permutations, dtype=np.uint64)
    return a, b


def minhash(hashes: np.ndarray, permutations: int = DEFAULT_OPTIONS.permutations) -> np.ndarray:
    """MinHash signature of a set of 64-bit hashes (uint64, one minimum per permutation).

    The empty set gets ``p`` everywhere, so two empty pages are at distance 0.
    """
    a, b = _family(permutations)
    if hashes.size == 0:
        return np.full(permutations, _PRIME, dtype=np.uint64)
    x = (hashes.astype(np.uint64) % _PRIME)[:, None]
    sig: np.ndarray = ((a[None, :] * x + b[None, :]) % _PRIME).min(axis=0)
    return sig


def signature(tree: etree._Element | None, options: DistanceOptions = DEFAULT_OPTIONS) -> np.ndarray:
    """A page's MinHash signature from its parsed tree (``Page.tree``)."""
    return minhash(shingles(tree, options), options.permutations)


def distance(sig_a: np.ndarray, sig_b: np.ndarray) -> float:
    """1 − the Jaccard index estimated from two signatures, in [0, 1]."""
    return float(1.0 - np.mean(sig_a == sig_b))


def distances(signatures: Sequence[np.ndarray] | np.ndarray, *, block: int = 256) -> np.ndarray:
    """The symmetric matrix of pairwise :func:`distance` (float64, zero diagonal).

    Rows are done ``block`` at a time, so memory stays at block·n·permutations booleans.
    """
    sigs = np.asarray(signatures)
    n = len(sigs)
    out = np.zeros((n, n), dtype=np.float64)
    for start in range(0, n, block):
        chunk = sigs[start:start + block]
        out[start:start + block] = 1.0 - (chunk[:, None, :] == sigs[None, :, :]).mean(axis=2)
    return out


def jaccard_distance(shingles_a: np.ndarray, shingles_b: np.ndarray) -> float:
    """The exact Jaccard distance of two shingle sets (0 for two empty sets)."""
    union = np.union1d(shingles_a, shingles_b).size
    if union == 0:
        return 0.0
    return 1.0 - np.intersect1d(shingles_a, shingles_b).size / union


# ------------------------------------------------------------------------ tree edit distance


@dataclass(frozen=True, slots=True)
class OrderedTree:
    """A tree in postorder, as Zhang–Shasha reads it.

    ``labels[i]`` is node i's tag; ``leftmost[i]`` the postorder index of its leftmost leaf.
    """

    labels: tuple[str, ...]
    leftmost: np.ndarray

    def __len__(self) -> int:
        return len(self.labels)


def ordered_tree(root: etree._Element | None, *, max_nodes: int = TED_MAX_NODES) -> OrderedTree:
    """The visible element tree (tags only), cut to its first ``max_nodes`` elements.

    Invisible elements (:data:`~detourage.segment.INVISIBLE`, hidden ones, comments) and
    their subtrees are left out, as :func:`walk` does.
    """
    nodes = list(walk(root, max_nodes=max_nodes))
    children: list[list[int]] = [[] for _ in nodes]
    stack: list[int] = []
    for index, (depth, _) in enumerate(nodes):
        del stack[depth:]
        if stack:
            children[stack[-1]].append(index)
        stack.append(index)
    order: list[int] = []
    leftmost: list[int] = []
    first_leaf: dict[int, int] = {}
    todo: list[tuple[int, bool]] = [(0, False)] if nodes else []
    while todo:
        node, expanded = todo.pop()
        if expanded:
            kids = children[node]
            first_leaf[node] = first_leaf[kids[0]] if kids else len(order)
            leftmost.append(first_leaf[node])
            order.append(node)
            continue
        todo.append((node, True))
        todo.extend((kid, False) for kid in reversed(children[node]))
    return OrderedTree(tuple(nodes[n][1] for n in order), np.asarray(leftmost, dtype=np.int64))


def _keyroots(leftmost: np.ndarray) -> np.ndarray:
    """Zhang–Shasha key roots: for each leftmost leaf, the highest node that has it."""
    last = np.full(len(leftmost), -1, dtype=np.int64)
    last[leftmost] = np.arange(len(leftmost))  # later (higher) nodes overwrite earlier ones
    return np.sort(last[last >= 0])


@dataclass(frozen=True, slots=True)
class _ForestColumns:
    """Every key-root forest of the second tree side by side, one column per prefix.

    A segment is one key root k: a column for the empty forest, then one per node from
    ``leftmost[k]`` to k.  Doing all segments in one numpy row is what makes this fast.
    """

    node: np.ndarray      # node of the column (0 on the empty-forest columns)
    start: np.ndarray     # empty-forest column
    full: np.ndarray      # the node's leftmost leaf is its key root's: a whole-tree prefix
    before: np.ndarray    # column of the forest left of the node's subtree (leftmost - 1)
    local: np.ndarray     # position in the segment
    offset: np.ndarray    # decreasing per segment: keeps the running minimum in its segment
    levels: tuple[np.ndarray, ...]  # columns grouped by key-root nesting level


def _columns(leftmost: np.ndarray, n1: int) -> _ForestColumns:
    """Lay out tree 2's key-root forests (see :class:`_ForestColumns`)."""
    roots = _keyroots(leftmost)
    level_of = np.full(len(leftmost), -1, dtype=np.int64)
    parts: list[list[np.ndarray]] = [[] for _ in range(7)]
    seg_level: list[int] = []
    base = 0
    for k in roots:
        lo = int(leftmost[k])
        level_of[k] = int(level_of[lo:k].max(initial=-1)) + 1
        nodes = np.arange(lo, k + 1)
        local = np.arange(len(nodes) + 1)
        parts[0].append(np.concatenate(([0], nodes)))
        parts[1].append(local == 0)
        parts[2].append(np.concatenate(([False], leftmost[nodes] == lo)))
        parts[3].append(base + np.concatenate(([0], leftmost[nodes] - lo)))
        parts[4].append(local)
        parts[5].append(np.full(len(local), len(seg_level)))
        seg_level.append(int(level_of[k]))
        base += len(local)
    node, start, full, before, local, segment = (np.concatenate(p) for p in parts[:6])
    offset = (len(roots) - segment).astype(np.int64) * (2 * (n1 + len(leftmost)) + 4)
    col_level = np.asarray(seg_level)[segment]
    levels = tuple(np.flatnonzero(col_level == lev) for lev in range(max(seg_level) + 1))
    return _ForestColumns(node, start, full, before, local, offset, levels)


def _scan(y: np.ndarray, local: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """fd[c] = min(y[c], fd[c-1] + 1) within each segment, as a running minimum."""
    z = y.astype(np.int64) - local + offset
    running: np.ndarray = np.minimum.accumulate(z) - offset + local
    return running


def _row(fd: np.ndarray, r: int, rl: int, td_row: np.ndarray, cols: _ForestColumns) -> None:
    """Forest distances of a prefix ending in a node whose subtree is not a whole prefix."""
    diag = fd[rl, cols.before] + td_row[cols.node]
    y = np.minimum(fd[r - 1] + 1, diag)
    y[cols.start] = r
    fd[r] = _scan(y, cols.local, cols.offset)


def _full_row(fd: np.ndarray, r: int, td_row: np.ndarray, costs: np.ndarray,
              cols: _ForestColumns) -> None:
    """Forest distances of a whole-tree prefix; fills this row of tree distances as it goes.

    Segments nested deeper are done first: a shallower one reads their tree distances.
    """
    for ix in cols.levels:
        full = cols.full[ix]
        node = cols.node[ix]
        diag = fd[0, cols.before[ix]] + td_row[node]
        diag[full] = fd[r - 1, ix[full] - 1] + costs[node[full]]
        y = np.minimum(fd[r - 1, ix] + 1, diag)
        y[cols.start[ix]] = r
        values = _scan(y, cols.local[ix], cols.offset[ix])
        fd[r, ix] = values
        td_row[node[full]] = values[full]


def _codes(a: OrderedTree, b: OrderedTree) -> tuple[np.ndarray, np.ndarray]:
    """The two trees' labels as integers from one shared vocabulary."""
    vocab: dict[str, int] = {}
    first = np.asarray([vocab.setdefault(t, len(vocab)) for t in a.labels], dtype=np.int64)
    second = np.asarray([vocab.setdefault(t, len(vocab)) for t in b.labels], dtype=np.int64)
    return first, second


def tree_edit_distance(a: OrderedTree, b: OrderedTree) -> int:
    """Zhang–Shasha tree edit distance with unit costs (insert, delete, relabel).

    Time grows as n1·depth1·n2·depth2 (the key-root forests' sizes multiplied), memory as
    n1·n2 + n1·n2·depth2 int32 cells (tree distances, and the root's forest table over
    all of tree 2's key-root forests side by side): ~80 MB at 1,000 × 1,000 nodes, depth 20.
    """
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        return n1 + n2
    lab1, lab2 = _codes(a, b)
    cols = _columns(b.leftmost, n1)
    td = np.zeros((n1, n2), dtype=np.int32)
    for k1 in _keyroots(a.leftmost):
        lo = int(a.leftmost[k1])
        fd = np.empty((k1 - lo + 2, len(cols.node)), dtype=np.int32)
        fd[0] = cols.local
        for r in range(1, k1 - lo + 2):
            i = lo + r - 1
            if a.leftmost[i] == lo:
                _full_row(fd, r, td[i], (lab2 != lab1[i]).astype(np.int32), cols)
            else:
                _row(fd, r, int(a.leftmost[i]) - lo, td[i], cols)
    return int(td[n1 - 1, n2 - 1])


def normalised_tree_distance(a: OrderedTree, b: OrderedTree) -> float:
    """:func:`tree_edit_distance` over n1 + n2 (its largest possible value), in [0, 1]."""
    total = len(a) + len(b)
    return tree_edit_distance(a, b) / total if total else 0.0
