"""Second-stage features: what the first stage thought of a paragraph's surroundings.

A paragraph classifier judges one line at a time; a reader judges a line by the region it
sits in.  The second stage (auto-context) sees, beside the paragraph's own features, the
first stage's probabilities around it: over the subtree of its container and of each
ancestor (is this list of cards mostly content?), its neighbours, a window, the page as a
whole, and where it lies against the span the first stage kept.  Everything is cumulative
sums over contiguous paragraph ranges: numpy over the page, no per-paragraph loop.

Training uses out-of-fold first-stage probabilities (:func:`detourage.learned.train.fit`),
so that the second stage learns how far a first-stage guess on an unseen site can be
trusted, not how well it fits its own training pages.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .features import LEVELS

#: the first-stage probability that counts as "kept" for the span features
KEPT = 0.5


@lru_cache(maxsize=1)
def names() -> tuple[str, ...]:
    """The second-stage columns appended to the first stage's, in order."""
    region = [f"q{lv}_{f}" for lv in range(LEVELS) for f in ("mean", "para_mean", "kept_share")]
    around = [f"q_{side}{k}" for side in ("prev", "next") for k in (1, 2)]
    around += ["q_win3", "q_win10"]
    page = ["q", "q_page_mean", "q_page_max", "q_page_kept_share", "q_in_span", "q_gap", "q_before",
            "q_after"]
    return tuple(page + region + around)


def compute(q: np.ndarray, spans: np.ndarray, chars: np.ndarray) -> np.ndarray:
    """float32 (paragraphs, len(names())) from first-stage probabilities ``q``, the
    paragraphs' ancestor ``spans`` (:attr:`Paragraphs.spans`) and their lengths."""
    n = len(q)
    out: dict[str, np.ndarray] = {}
    if n == 0:
        return np.zeros((0, len(names())), np.float32)
    q = q.astype(np.float64)
    w = chars.astype(np.float64) + 1.0  # +1: an empty paragraph (an image) still counts
    kept = q >= KEPT
    cs_qw = np.r_[0.0, np.cumsum(q * w)]
    cs_w = np.r_[0.0, np.cumsum(w)]
    cs_q = np.r_[0.0, np.cumsum(q)]
    cs_kw = np.r_[0.0, np.cumsum(kept * w)]
    for lv in range(LEVELS):
        lo, hi = spans[lv, 0], spans[lv, 1]
        weight = cs_w[hi] - cs_w[lo]
        out[f"q{lv}_mean"] = (cs_qw[hi] - cs_qw[lo]) / weight
        out[f"q{lv}_para_mean"] = (cs_q[hi] - cs_q[lo]) / np.maximum(hi - lo, 1)
        out[f"q{lv}_kept_share"] = (cs_kw[hi] - cs_kw[lo]) / weight
    idx = np.arange(n)
    for side, sign in (("prev", -1), ("next", 1)):
        for k in (1, 2):
            at = idx + sign * k
            ok = (at >= 0) & (at < n)
            out[f"q_{side}{k}"] = np.where(ok, q[np.clip(at, 0, n - 1)], -1.0)
    for k in (3, 10):
        lo, hi = np.maximum(idx - k, 0), np.minimum(idx + k + 1, n)
        out[f"q_win{k}"] = (cs_qw[hi] - cs_qw[lo]) / (cs_w[hi] - cs_w[lo])
    _page(q, w, kept, cs_kw, out)
    return np.column_stack([out[name] for name in names()]).astype(np.float32)


def _page(q: np.ndarray, w: np.ndarray, kept: np.ndarray, cs_kw: np.ndarray,
          out: dict[str, np.ndarray]) -> None:
    """The page's mean and best guess, and each paragraph against the kept span."""
    n = len(q)
    total = cs_kw[-1]
    out["q"] = q
    out["q_page_mean"] = np.full(n, float((q * w).sum() / w.sum()))
    out["q_page_max"] = np.full(n, float(q.max()))
    out["q_page_kept_share"] = np.full(n, float(total / w.sum()))
    idx = np.arange(n)
    where = np.flatnonzero(kept)
    if not len(where):
        out["q_in_span"] = np.zeros(n)
        out["q_gap"] = np.full(n, 99.0)
        out["q_before"] = out["q_after"] = np.zeros(n)
        return
    out["q_in_span"] = ((idx >= where[0]) & (idx <= where[-1])).astype(np.float64)
    nxt = np.searchsorted(where, idx)  # the first kept paragraph at or after i
    after = np.abs(where[np.minimum(nxt, len(where) - 1)] - idx)
    before = np.abs(idx - where[np.maximum(nxt - 1, 0)])
    out["q_gap"] = np.log1p(np.minimum(after, before))
    out["q_before"] = cs_kw[idx] / total  # share of the kept text before the paragraph
    out["q_after"] = (total - cs_kw[idx + 1]) / total
