"""The ``context`` group: the neighbouring paragraphs' length, link density, stop words
and headings, and the paragraph's position in the page."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...compiled import optional
from .columns import _Columns, names
from .regions import _cumsum0


def _context(chars: np.ndarray, out: _Columns, heading: np.ndarray, stop_ratio: np.ndarray) -> None:
    """Neighbours, a window around the paragraph, and its position (the compiled
    ``_cfeatures.neighbour_columns``, or its twin :func:`neighbours_numpy`)."""
    args = (out["log_chars"], out["link_density"], stop_ratio, heading.astype(np.float64), chars)
    if _compiled_neighbours is not None:
        table = _compiled_neighbours(*args, WINDOW)
    else:
        table = neighbours_numpy(*args)
    out.table(_neighbour_names(), table)


#: the window of ``win_*``: this many paragraphs either side
WINDOW = 3


@lru_cache(maxsize=1)
def _neighbour_names() -> tuple[str, ...]:
    """The columns of :func:`neighbours_numpy`'s table, in order."""
    at = names().index("prev1_log_chars")
    return names()[at:at + 20]


def neighbours_numpy(log_chars: np.ndarray, link_density: np.ndarray, stop_ratio: np.ndarray,
                     heading: np.ndarray, chars: np.ndarray) -> np.ndarray:
    """float64 (paragraphs, columns of :func:`_neighbour_names`)."""
    n = len(chars)
    # the four quantities in one array, two places of -1 on either side: a neighbour k
    # places away is a view k places off the paragraph's own
    padded = np.full((4, n + 4), -1.0)
    padded[:, 2:n + 2] = (log_chars, link_density, stop_ratio, heading > 0)
    columns = [padded[:, 2 + k:2 + k + n] for k in (-1, -2, 1, 2)]
    return np.column_stack([*(c.T for c in columns), _window_mean(link_density, WINDOW),
                            _window_mean(log_chars, WINDOW), np.arange(n) / max(n - 1, 1),
                            (chars.cumsum() - chars) / max(chars.sum(), 1)])


def _window_mean(x: np.ndarray, k: int) -> np.ndarray:
    """Mean of x over the window i-k … i+k (cut at the page's ends)."""
    n = len(x)
    cs = _cumsum0(x)
    lo = np.maximum(np.arange(n) - k, 0)
    hi = np.minimum(np.arange(n) + k + 1, n)
    return (cs[hi] - cs[lo]) / (hi - lo)


_cfeatures = optional("learned._cfeatures")
_compiled_neighbours = None if _cfeatures is None else _cfeatures.neighbour_columns
