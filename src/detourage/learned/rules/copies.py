"""The same box twice: a page that holds its text twice (a desktop and a mobile copy of
a product's description, a tab's panel and the accordion that repeats it) is read once."""

from __future__ import annotations

import re

import numpy as np

from .. import features
from .paragraphs import column, lower_case, running


def drop_later_copies(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> int:
    """Leave out, and mark in ``barred``, the paragraphs of an element whose text is,
    line for line, that of an earlier element the model kept some of; how many
    paragraphs were left out so.

    An element counts when it holds at least :data:`COPY_LINES` paragraphs and
    :data:`COPY_CHARS` characters, none of them in a quotation (a reply quoting a post
    repeats it on purpose) and the earlier copy ends before it begins.  A single repeated
    line (a tier's "Free shipping", a table's "Yes") is no copy: only a whole box is.
    The later copy is barred whether or not the model kept it: the steps that bring
    lines back (the rest of a repeated structure) would otherwise bring it back.
    The model sees that a line repeats (``repeated``) but not which copy comes first."""
    # every line of a copy repeats on the page (``repeated``, the features' count of the
    # same lower-cased text elsewhere), and the first copy holds a kept line: most pages
    # have no such run (a menu repeated in the footer is one the model left out), and pay
    # nothing more
    repeats = column(para, "repeated") > 0
    if int(repeats.sum()) < 2 * COPY_LINES or \
            _KEPT_RUN.search(np.add(repeats, repeats & keep, dtype=np.uint8).tobytes()) is None:
        return 0
    lowered = lower_case(para)
    seen: dict[tuple[str, ...], tuple[int, bool]] = {}  # an element's lines -> its first copy's end, kept
    dropped = 0
    for first, end in _elements(para, repeats, column(para, "dist_t_quote") < 99):
        if barred[first]:
            continue
        lines = tuple(lowered[first:end])
        earlier = seen.get(lines)
        if earlier is None:
            seen[lines] = (end, bool(keep[first:end].any()))
        elif earlier[1] and earlier[0] <= first:
            dropped += end - first
            keep[first:end] = False
            barred[first:end] = True
    return dropped


def _elements(para: features.Paragraphs, repeats: np.ndarray, quoted: np.ndarray) -> list[tuple[int, int]]:
    """The paragraph ranges (first, end) of the paragraphs' containers and ancestors that
    may be a copy: at least :data:`COPY_LINES` paragraphs, every one of them among
    ``repeats`` and none ``quoted``, and at least :data:`COPY_CHARS` characters; in
    document order, the largest first where they start together (a box before the part
    of it that is also a box).  Each test is one array operation over every range."""
    first, end = para.spans[:, 0], para.spans[:, 1]  # one row an ancestor level
    counted = running(repeats)
    size = end - first
    whole = (size >= COPY_LINES) & (counted[end] - counted[first] == size)
    if not whole.any():
        return []
    first, end = first[whole], end[whole]
    quotes = running(quoted)
    chars = np.zeros(len(para.chars) + 1)
    para.chars.cumsum(out=chars[1:])
    fit = (quotes[end] == quotes[first]) & (chars[end] - chars[first] >= COPY_CHARS)
    ranges = set(zip(first[fit].tolist(), end[fit].tolist()))
    return sorted(ranges, key=lambda r: (r[0], -r[1]))


#: an element repeated is a copy when it holds at least this many paragraphs…
COPY_LINES = 3
#: …and this many characters
COPY_CHARS = 80
#: COPY_LINES repeated paragraphs in a row, one of them kept, in the bytes of a page's
#: paragraphs coded 0 (not repeated), 1 (repeated) and 2 (repeated and kept): the first
#: copy of a box holds such a run, and a page without one has no copy to leave out
_KEPT_RUN = re.compile(b"|".join(b"[\x01\x02]{%d}\x02[\x01\x02]{%d}" % (k, COPY_LINES - 1 - k)
                                 for k in range(COPY_LINES)))
