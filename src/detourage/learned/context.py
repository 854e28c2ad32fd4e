"""Second-stage features: what the first stage thought of a paragraph's surroundings.

A paragraph classifier judges one line at a time; a reader judges a line by the region it
sits in.  The second stage (auto-context) sees, beside the paragraph's own features, the
first stage's probabilities around it: over the subtree of its container and of each
ancestor (is this list of cards mostly content?), its neighbours, a window, the page as a
whole, where it lies against the span the first stage kept, and every paragraph of the
same structure anywhere on the page (:attr:`Paragraphs.signature`: teasers, cards and
menu items repeat one).  Everything is cumulative
sums over contiguous paragraph ranges: numpy over the page, no per-paragraph loop.

Training uses out-of-fold first-stage probabilities (:func:`detourage.learned.train.fit`),
so that the second stage learns how far a first-stage guess on an unseen site can be
trusted, not how well it fits its own training pages.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..compiled import optional
from .features import LEVELS

#: the first-stage probability that counts as "kept" for the span features
KEPT = 0.5


@lru_cache(maxsize=1)
def names() -> tuple[str, ...]:
    """The second-stage columns appended to the first stage's, in order."""
    region = [f"q{lv}_{f}" for lv in range(LEVELS) for f in ("mean", "para_mean", "kept_share")]
    around = [f"q_{side}{k}" for side in ("prev", "next") for k in (1, 2)]
    around += ["q_win3", "q_win10"]
    return (*_PAGE, *region, *around, "q_same_mean", "q_same_kept_share")


def compute(q: np.ndarray, spans: np.ndarray, chars: np.ndarray, signature: np.ndarray) -> np.ndarray:
    """float32 (paragraphs, len(names())) from first-stage probabilities ``q``, the
    paragraphs' ancestor ``spans``, their lengths and structure ``signature``
    (:class:`~.features.Paragraphs`)."""
    n = len(q)
    out = np.empty((n, len(names())), np.float32)
    if n == 0:
        return out
    q = q.astype(np.float64)
    w = chars.astype(np.float64) + 1.0  # +1: an empty paragraph (an image) still counts
    if _compiled is not None:  # the page's sums as numpy makes them (pairwise), and its log1p
        total = w.sum()
        _compiled(q, np.ascontiguousarray(spans, np.int32), w, np.ascontiguousarray(signature, np.int32),
                  out, len(_PAGE), KEPT, (q * w).sum() / total, total, np.log1p(np.arange(n + 1.0)))
        return out
    return columns_numpy(q, w, q >= KEPT, spans, signature, out)


def columns_numpy(q: np.ndarray, w: np.ndarray, kept: np.ndarray, spans: np.ndarray, signature: np.ndarray,
                  out: np.ndarray) -> np.ndarray:
    """Every column into ``out`` (the compiled ``_cfeatures.context_columns`` is its twin;
    it is given the page's two pairwise sums and the log1p values numpy makes)."""
    n = len(q)
    # one cumulative sum per quantity (columns: q·w, w, q, kept·w), read at every range end
    cs = np.zeros((n + 1, 4))
    np.cumsum(np.column_stack([q * w, w, q, kept * w]), axis=0, out=cs[1:])
    _page(q, w, kept, cs[:, 3], out)
    lo, hi = spans[:, 0, :], spans[:, 1, :]  # (LEVELS, paragraphs)
    sums = cs[hi] - cs[lo]  # (LEVELS, paragraphs, 4)
    region = np.stack([sums[..., 0] / sums[..., 1], sums[..., 2] / np.maximum(hi - lo, 1),
                       sums[..., 3] / sums[..., 1]], axis=-1)  # (LEVELS, paragraphs, 3)
    start = len(_PAGE)
    out[:, start:start + 3 * LEVELS] = region.transpose(1, 0, 2).reshape(n, 3 * LEVELS)
    idx = np.arange(n)
    at = idx[None, :] + np.array([-1, -2, 1, 2])[:, None]  # prev1, prev2, next1, next2
    around = np.where((at >= 0) & (at < n), q[np.clip(at, 0, n - 1)], -1.0)
    start += 3 * LEVELS
    out[:, start:start + 4] = around.T
    for j, k in enumerate((3, 10)):
        lo_k, hi_k = np.maximum(idx - k, 0), np.minimum(idx + k + 1, n)
        out[:, start + 4 + j] = (cs[hi_k, 0] - cs[lo_k, 0]) / (cs[hi_k, 1] - cs[lo_k, 1])
    # paragraphs of the same structure anywhere on the page (cards, teasers, menu items)
    weight = np.bincount(signature, weights=w)
    out[:, -2] = (np.bincount(signature, weights=q * w) / weight)[signature]
    out[:, -1] = (np.bincount(signature, weights=kept * w) / weight)[signature]
    return out


_PAGE = ("q", "q_page_mean", "q_page_max", "q_page_kept_share", "q_in_span", "q_gap", "q_before", "q_after")


def _page(q: np.ndarray, w: np.ndarray, kept: np.ndarray, cs_kw: np.ndarray, out: np.ndarray) -> None:
    """The page's mean and best guess, and each paragraph against the kept span, into the
    first columns of ``out``."""
    n = len(q)
    total = cs_kw[-1]
    out[:, 0] = q
    out[:, 1] = (q * w).sum() / w.sum()
    out[:, 2] = q.max()
    out[:, 3] = total / w.sum()
    where = kept.nonzero()[0]
    if not len(where):
        out[:, 4] = 0.0
        out[:, 5] = 99.0
        out[:, 6:8] = 0.0
        return
    idx = np.arange(n)
    out[:, 4] = (idx >= where[0]) & (idx <= where[-1])
    nxt = np.searchsorted(where, idx)  # the first kept paragraph at or after i
    after = np.abs(where[np.minimum(nxt, len(where) - 1)] - idx)
    before = np.abs(idx - where[np.maximum(nxt - 1, 0)])
    out[:, 5] = np.log1p(np.minimum(after, before))
    out[:, 6] = cs_kw[idx] / total  # share of the kept text before the paragraph
    out[:, 7] = (total - cs_kw[idx + 1]) / total


_cfeatures = optional("learned._cfeatures")
_compiled = None if _cfeatures is None else _cfeatures.context_columns
