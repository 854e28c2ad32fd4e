"""A list item's own text above the sub-list the model kept ("Mock interview" above the
three steps of the interview), so that the sub-items hang under no empty bullet."""

from __future__ import annotations

import numpy as np

from .. import features
from .ancestors import clear_of_boilerplate, share
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


def keep_section_lists(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
                       probability: np.ndarray) -> int:
    """Keep the list items of a section the model kept both ends of: the items between a
    kept heading and the next heading of its level or above, itself kept, that share an
    ancestor with the heading (at most three levels above the item's container, one above
    the heading's), outside a boilerplate box the heading is not in.  A wiki's "Further
    reading" under its heading, a documentation page's list of the functions it covers, a
    syllabus: the model judges each item by its look (short, a link, "by Craig Ringer")
    and keeps a few, while a reader reads the section whole.  A caption, a code line and a
    line the model rejects outright (under :data:`~.boundary.BOUNDARY_FLOOR`) stay out.
    Returns how many lines were kept."""
    heading = para.heading
    heads = heading.nonzero()[0]
    if len(heads) < 2:
        return 0
    ends = _section_ends(heads, heading[heads])
    closed = (ends >= 0) & keep[heads] & keep[np.maximum(ends, 0)]
    if not closed.any():
        return 0
    eligible = (~keep & ~barred & (para.chars > 0) & (heading == 0) & (probability >= BOUNDARY_FLOOR)
                & (column(para, "is_list") > 0) & (column(para, "dist_t_figure") > 1)
                & (column(para, "dist_t_code") > 0))
    # each eligible line's section: the innermost closed one around it
    owner = np.full(len(keep), -1, np.int64)
    for head, end in zip(heads[closed].tolist(), ends[closed].tolist()):
        owner[head + 1:end] = head  # sections nest: the inner one, written later, wins
    lines = (eligible & (owner >= 0)).nonzero()[0]
    if not len(lines):
        return 0
    owners = owner[lines]
    lines = lines[share(para, lines, owners, 3, 1) & clear_of_boilerplate(para, lines, owners)]
    keep[lines] = True
    return len(lines)


def _section_ends(heads: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """For each heading (``heads``, their ``levels``), the next heading of its level or
    above (a smaller number), -1 where none follows."""
    ends = np.full(len(heads), -1, np.int64)
    open_: list[int] = []  # headings still waiting for their end, levels increasing
    for k, level in enumerate(levels.tolist()):
        while open_ and levels[open_[-1]] >= level:
            ends[open_.pop()] = heads[k]
        open_.append(k)
    return ends
