"""A list item's own text above the sub-list the model kept ("Mock interview" above the
three steps of the interview), so that the sub-items hang under no empty bullet."""

from __future__ import annotations

import numpy as np

from .. import features
from .ancestors import clear_of_boilerplate
from .boundary import BOUNDARY_FLOOR, LINK_LINE
from .paragraphs import column


def keep_parent_items(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
                      probability: np.ndarray) -> None:
    """Keep the own text of a list item whose sub-list the model kept ("Optimize query
    performance using:" above its three kept sub-items, "Mock interview" above the three
    steps of the interview): a line in a list, just before a kept paragraph, that starts
    an element (its container or the element above) holding that paragraph, outside a
    boilerplate box the kept paragraph is not in.  The model judges the short label by
    its look and lets it go; the sub-items then hang under an empty bullet.  A line that
    is only a link (a menu's parent entry) stays out."""
    n = len(keep)
    if n < 2:
        return
    lines = (~keep[:-1] & keep[1:] & ~barred[:-1] & (para.chars[:-1] > 0)
             & (probability[:-1] >= BOUNDARY_FLOOR) & (column(para, "is_list")[:-1] > 0)
             & (column(para, "link_density")[:-1] < LINK_LINE)).nonzero()[0]
    if not len(lines):
        return
    first, end = para.spans[:2, 0, :][:, lines], para.spans[:2, 1, :][:, lines]  # (container/parent, lines)
    heads = ((first == lines) & (end > lines + 1)).any(axis=0)
    lines = lines[heads]
    if len(lines):
        keep[lines[clear_of_boilerplate(para, lines, lines + 1)]] = True
