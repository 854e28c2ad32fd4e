"""Text as the gold is compared with it: normalised text, word and character tokens, and
the Ratcliff/Obershelp alignment of two token sequences (:func:`matching_blocks`, the
CleanEval scorer's, fast).  The scorer (:mod:`detourage.evaluation.metrics`), the gold
aligner (:mod:`detourage.gold.align`) and Victor's ``.anno`` files use them."""

from __future__ import annotations

import difflib
import functools
import unicodedata
from bisect import bisect_left
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

#: languages written without spaces between words (ISO 639-1 codes): their texts are
#: compared over characters rather than words
UNSEGMENTED_LANGS = frozenset({"zh", "ja", "th", "lo", "km", "my", "bo"})


# Highest code point scanned for punctuation: no P* character lies above U+1FFFF in
# Python's Unicode database (checked by tests/test_metrics.py); scanning 0x110000
# code points would cost ~0.3 s, this 0.02 s, once.
_PUNCT_SCAN_LIMIT = 0x20000


@functools.cache
def _control_table() -> dict[int, str]:
    """Translation table mapping every control character (Cc) to a space."""
    return {c: " " for c in [*range(0x20), *range(0x7F, 0xA0)]}


@functools.cache
def _punct_table() -> dict[int, str]:
    """Translation table mapping every punctuation character (P*) to a space."""
    return {
        c: " "
        for c in range(_PUNCT_SCAN_LIMIT)
        if unicodedata.category(chr(c)).startswith("P")
    }


def normalize_text(text: str) -> str:
    """NFC, control characters to spaces, whitespace runs collapsed, ends stripped."""
    text = unicodedata.normalize("NFC", text).translate(_control_table())
    return " ".join(text.split())


def word_tokens(text: str) -> list[str]:
    """Word tokens: the normalised text cut at whitespace and punctuation."""
    return normalize_text(text).translate(_punct_table()).split()


def char_tokens(text: str) -> list[str]:
    """CAR tokens: the non-space characters of the normalised text."""
    return list(normalize_text(text).replace(" ", ""))


def matched_count(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Number of tokens Ratcliff/Obershelp matches between a and b."""
    return sum(k for _, _, k in matching_blocks(a, b))


def matching_blocks(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int, int]]:
    """``SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()``, fast.

    Same triples (i, j, k), same order, same final (len(a), len(b), 0).  difflib finds
    each longest match by visiting every pair of equal tokens of the current range:
    quadratic in practice (``the`` × ``the``; every ``e`` × ``e`` for CAR).  Here the
    same recursion (longest match, earliest in a then in b; then both sides of it) runs
    on integer arrays: the 2^e-grams of both sequences get exact ranks by prefix
    doubling; the maximal matches of a range of 2^e tokens or more are enumerated at
    once from its equal gram pairs (e as low as a pair budget allows), measured by
    binary lifting over the ranks, and reused by the sub-ranges.  A range whose longest
    match is one token is finished greedily, which is what the recursion does there,
    and a tiny range is handed to difflib itself.
    """
    ia, ib = _to_ints(a, b)
    if len(ia) == 0 or len(ib) == 0:
        return [(len(ia), len(ib), 0)]
    if _equal_pairs(ia, ib) <= _DIFFLIB_PAIRS:
        matcher = difflib.SequenceMatcher(None, ia.tolist(), ib.tolist(), autojunk=False)
        return [(i, j, k) for i, j, k in matcher.get_matching_blocks()]
    return _collapse(sorted(_Aligner(ia, ib).blocks()), len(ia), len(ib))


#: below this many pairs of equal tokens difflib itself is faster (measured on the
#: shared datasets: ~3 ms either way around 10 000 pairs, difflib 6x slower at 10^5)
_DIFFLIB_PAIRS = 20_000


def _equal_pairs(ia: np.ndarray, ib: np.ndarray) -> int:
    """Number of pairs of equal tokens (what difflib's first step visits)."""
    size = int(max(ia.max(), ib.max())) + 1
    return int(np.bincount(ia, minlength=size) @ np.bincount(ib, minlength=size))


def _to_ints(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray]:
    """Both sequences as int64 arrays of token ids (equal tokens, equal ids)."""
    ids: dict[Hashable, int] = {}
    ia = np.fromiter((ids.setdefault(t, len(ids)) for t in a), dtype=np.int64, count=len(a))
    ib = np.fromiter((ids.setdefault(t, len(ids)) for t in b), dtype=np.int64, count=len(b))
    return ia, ib


def _collapse(blocks: list[tuple[int, int, int]], la: int, lb: int) -> list[tuple[int, int, int]]:
    """Merge adjacent blocks and add the (la, lb, 0) sentinel, as difflib does."""
    out: list[tuple[int, int, int]] = []
    for i, j, k in blocks:
        if out and out[-1][0] + out[-1][2] == i and out[-1][1] + out[-1][2] == j:
            out[-1] = (out[-1][0], out[-1][1], out[-1][2] + k)
        else:
            out.append((i, j, k))
    out.append((la, lb, 0))
    return out


def _rank_levels(s: np.ndarray, la: int) -> list[np.ndarray]:
    """Exact ranks of the 2^e-grams of s = a + sep + b + sep, for e = 0, 1, ….

    ranks[e][x] >= 0 is shared by equal grams that occur on both sides; a gram with no
    equal on the other side (or crossing a separator or the end) gets the unique value
    -(x + 1), so two positions compare equal at level e iff their grams are equal.
    Levels stop when no gram of that length occurs on both sides.
    """
    n = len(s)
    dead = -np.arange(1, n + 1, dtype=np.int64)
    levels: list[np.ndarray] = []
    cand = np.arange(n, dtype=np.int64)
    key = s
    length = 1
    while True:
        uniq, inv = np.unique(key, return_inverse=True)
        in_b = cand > la
        has_a = np.zeros(len(uniq), dtype=bool)
        has_b = np.zeros(len(uniq), dtype=bool)
        has_a[inv[~in_b]] = True
        has_b[inv[in_b]] = True
        ok = has_a[inv] & has_b[inv] & (key >= 0)
        if not ok.any():
            return levels
        rank = dead.copy()
        rank[cand[ok]] = inv[ok]
        levels.append(rank)
        alive = np.flatnonzero(rank >= 0)
        alive = alive[alive + length < n]
        second = rank[alive + length]
        keep = second >= 0
        cand = alive[keep]
        key = rank[cand] * (len(uniq) + 1) + second[keep]
        length *= 2


@dataclass(frozen=True, slots=True)
class _Runs:
    """Maximal matches inside a range: a[i:end] == b[i+d:end+d], every one >= min_len.

    The list holds *all* the maximal matches of at least min_len tokens of its range,
    so it also answers for any sub-range: clipped to it, they are that sub-range's
    maximal matches of at least min_len tokens.
    """

    i: np.ndarray
    d: np.ndarray
    end: np.ndarray
    min_len: int

    def clip(self, alo: int, ahi: int, blo: int, bhi: int) -> _Runs:
        """The runs cut to a sub-range, those still >= min_len."""
        s = np.maximum(np.maximum(self.i, alo), blo - self.d)
        e = np.minimum(np.minimum(self.end, ahi), bhi - self.d)
        keep = e - s >= self.min_len
        return _Runs(s[keep], self.d[keep], e[keep], self.min_len)

    def longest(self, lb: int) -> tuple[int, int, int]:
        """(i, j, k) of the longest run, earliest in a then in b (difflib's choice)."""
        length = self.end - self.i
        at = np.flatnonzero(length == length.max())
        x = at[np.argmin(self.i[at] * (lb + 1) + self.i[at] + self.d[at])]
        return int(self.i[x]), int(self.i[x] + self.d[x]), int(length[x])


class _Aligner:
    """Ratcliff/Obershelp recursion of difflib on two int arrays (see matching_blocks).

    Each range of the recursion carries the runs (maximal matches) found for an
    enclosing range; while they answer (a clipped run at least min_len long), a step
    costs a few vector operations.  When they do not, the range's longest match is
    shorter than min_len and its own runs are enumerated at the lowest gram length
    whose candidate pairs fit the budget; a range whose longest match is one token is
    finished greedily, a tiny range by difflib itself.
    """

    #: most candidate pairs wanted per enumeration (and expanded at once)
    BUDGET = 1 << 19
    #: ranges with at most this many cells are handed to difflib (numpy costs more there)
    SMALL = 4096

    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        self.a, self.b = a, b
        self.off = len(a) + 1  # index of b[0] in s
        s = np.concatenate([a, [-1], b, [-2]])
        self.ranks = _rank_levels(s, len(a))
        self._a_list: list[int] = []
        self._b_list: list[int] = []
        self._b_positions: dict[int, list[int]] = {}

    def blocks(self) -> list[tuple[int, int, int]]:
        """All matching blocks of the recursion, unsorted."""
        out: list[tuple[int, int, int]] = []
        stack: list[tuple[int, int, int, int, _Runs | None]] = [
            (0, len(self.a), 0, len(self.b), None)
        ]
        while stack:
            alo, ahi, blo, bhi, runs = stack.pop()
            if (ahi - alo) * (bhi - blo) <= self.SMALL:
                out.extend(self._small(alo, ahi, blo, bhi))
                continue
            if runs is not None:
                runs = runs.clip(alo, ahi, blo, bhi)
            if runs is None or len(runs.i) == 0:
                below = runs.min_len.bit_length() - 2 if runs else len(self.ranks) - 1
                runs = self._runs(alo, ahi, blo, bhi, below)
                if runs is None:
                    out.extend(self._greedy(alo, ahi, blo, bhi))
                    continue
            i, j, k = runs.longest(len(self.b))
            out.append((i, j, k))
            if alo < i and blo < j:
                stack.append((alo, i, blo, j, runs))
            if i + k < ahi and j + k < bhi:
                stack.append((i + k, ahi, j + k, bhi, runs))
        return out

    def _grams(self, e: int, lo: int, hi: int, base: int) -> tuple[np.ndarray, np.ndarray]:
        """Positions (relative to base) and ranks of the level-e grams inside [lo, hi)."""
        end = hi - (1 << e) + 1
        if end <= lo:
            return np.empty(0, np.int64), np.empty(0, np.int64)
        r = self.ranks[e][base + lo : base + end]
        pos = np.flatnonzero(r >= 0)
        return pos + lo, r[pos]

    def _pairs(self, e: int, alo: int, ahi: int, blo: int, bhi: int) -> tuple[np.ndarray, ...]:
        """Level-e grams of the range: a positions, first equal b gram, count, sorted b."""
        ia, ra = self._grams(e, alo, ahi, 0)
        jb, rb = self._grams(e, blo, bhi, self.off)
        order = np.argsort(rb, kind="stable")
        rb, jb = rb[order], jb[order]
        first = np.searchsorted(rb, ra, "left")
        count = np.searchsorted(rb, ra, "right") - first
        hit = count > 0
        return ia[hit], first[hit], count[hit], jb

    def _count(self, e: int, alo: int, ahi: int, blo: int, bhi: int) -> int:
        """Number of equal level-e gram pairs inside the range."""
        _, ra = self._grams(e, alo, ahi, 0)
        _, rb = self._grams(e, blo, bhi, self.off)
        if len(ra) == 0 or len(rb) == 0:
            return 0
        if 4 * len(rb) >= len(self.ranks[e]):  # dense: count by rank, no sort
            return int(np.bincount(rb, minlength=len(self.ranks[e]))[ra].sum())
        rb = np.sort(rb)
        return int((np.searchsorted(rb, ra, "right") - np.searchsorted(rb, ra, "left")).sum())

    def _level(self, alo: int, ahi: int, blo: int, bhi: int, below: int) -> int:
        """Lowest gram level <= below whose pairs fit the budget and exist (0: none)."""
        top = min(below, len(self.ranks) - 1, min(ahi - alo, bhi - blo).bit_length() - 1)
        if top < 1:
            return 0
        counts: dict[int, int] = {}

        def count(e: int) -> int:
            if e not in counts:
                counts[e] = self._count(e, alo, ahi, blo, bhi)
            return counts[e]

        lo, hi = 1, top
        while lo < hi:
            mid = (lo + hi) // 2
            if count(mid) <= self.BUDGET:
                hi = mid
            else:
                lo = mid + 1
        if count(lo) == 0:  # all pairs sit at levels below lo, which are over budget
            lo -= 1
        return lo

    def _runs(self, alo: int, ahi: int, blo: int, bhi: int, below: int) -> _Runs | None:
        """All maximal matches of the range of 2^e tokens or more (None if e would be 0)."""
        e = self._level(alo, ahi, blo, bhi, below)
        if e < 1:
            return None
        ia, first, count, jb = self._pairs(e, alo, ahi, blo, bhi)
        ends = np.cumsum(count)
        parts: list[tuple[np.ndarray, np.ndarray]] = []
        start = 0
        while start < len(ia):
            stop = int(np.searchsorted(ends, ends[start] - count[start] + self.BUDGET, "right"))
            stop = max(stop, start + 1)
            parts.append(self._expand(ia[start:stop], first[start:stop], count[start:stop], jb,
                                      alo, ahi, blo, bhi))
            start = stop
        i = np.concatenate([p[0] for p in parts])
        j = np.concatenate([p[1] for p in parts])
        lcp = self._common_prefix(i, j, ahi, bhi)
        return _Runs(i, j - i, i + lcp, 1 << e)

    def _expand(self, ia: np.ndarray, first: np.ndarray, count: np.ndarray, jb: np.ndarray,
                alo: int, ahi: int, blo: int, bhi: int) -> tuple[np.ndarray, np.ndarray]:
        """The candidate pairs (i, j) that start a maximal match (nothing equal before)."""
        total = int(count.sum())
        i = np.repeat(ia, count)
        j = jb[np.repeat(first - (np.cumsum(count) - count), count) + np.arange(total)]
        r0 = self.ranks[0]
        left_max = (i == alo) | (j == blo) | (r0[i - 1] != r0[self.off + j - 1])
        return i[left_max], j[left_max]

    def _common_prefix(self, i: np.ndarray, j: np.ndarray, ahi: int, bhi: int) -> np.ndarray:
        """Length of the common prefix of a[i:ahi] and b[j:bhi], by binary lifting."""
        lcp = np.zeros(len(i), dtype=np.int64)
        for e in range(len(self.ranks) - 1, -1, -1):
            step = 1 << e
            idx = np.flatnonzero((i + lcp + step <= ahi) & (j + lcp + step <= bhi))
            if len(idx) == 0:
                continue
            x, y = i[idx] + lcp[idx], self.off + j[idx] + lcp[idx]
            eq = self.ranks[e][x] == self.ranks[e][y]
            lcp[idx[eq]] += step
        return lcp

    def _lists(self) -> tuple[list[int], list[int]]:
        """a and b as Python lists (made on first use)."""
        if not self._a_list:
            self._a_list, self._b_list = self.a.tolist(), self.b.tolist()
        return self._a_list, self._b_list

    def _small(self, alo: int, ahi: int, blo: int, bhi: int) -> list[tuple[int, int, int]]:
        """The recursion in a small range, by difflib itself (same recursion, shifted)."""
        a, b = self._lists()
        sm = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
        return [(alo + i, blo + j, k) for i, j, k in sm.get_matching_blocks() if k]

    def _greedy(self, alo: int, ahi: int, blo: int, bhi: int) -> list[tuple[int, int, int]]:
        """The recursion in a range whose longest match is one token: earliest pairs."""
        a, b = self._lists()
        if not self._b_positions:
            for j, t in enumerate(b):
                self._b_positions.setdefault(t, []).append(j)
        positions = self._b_positions
        out = []
        for i in range(alo, ahi):
            if blo >= bhi:
                break
            lst = positions.get(a[i])
            if not lst:
                continue
            x = bisect_left(lst, blo)
            if x < len(lst) and lst[x] < bhi:
                out.append((i, lst[x], 1))
                blo = lst[x] + 1
        return out
