"""Reading the paragraphs' arrays as every rule does: a feature column by name, running
sums, the texts lower-cased, a digit, the lines a pattern starts."""

from __future__ import annotations

import re

import numpy as np

from .. import features


def column(para: features.Paragraphs, name: str) -> np.ndarray:
    """A feature column by name (:meth:`Paragraphs.column <detourage.learned.features.Paragraphs.column>`)."""
    return para.X[:, features.positions()[name]]


#: the heading elements' tags
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

#: ``container_tag`` of a paragraph that is an ``<option>`` of a ``<select>`` or ``<datalist>``:
#: a drop-down's entries, never content
OPTION_CODE = features.CONTAINER_TAGS.index("option") + 1

#: a distance column's value (``dist_…``) where no element of the group is above (:mod:`..features.tree`)
NONE_ABOVE = 99.0


def running(x: np.ndarray) -> np.ndarray:
    """0, then the running sums of ``x`` (int64): ``out[j] - out[i]`` sums ``x[i:j]``
    (``np.r_[0, x.cumsum()]`` without ``np.r_``'s parsing of its index, 5 µs a call)."""
    out = np.zeros(len(x) + 1, np.int64)
    x.cumsum(out=out[1:])
    return out


def lower_case(para: features.Paragraphs) -> list[str]:
    """The paragraphs' texts lower-cased: those the features made, or (a page built by
    hand, without them) made now."""
    return para.lowered or [text.lower() for text in para.texts]


#: a digit: a line without one holds no date, no time, no phone number
DIGIT = re.compile(r"\d")


def starting(lowered_texts: list[str], lines: list[int], pattern: re.Pattern[str]) -> list[int]:
    """Those of ``lines`` whose lower-cased text ``pattern`` matches at its start: one
    search over their texts, each led by ``\x1f`` (which ``pattern`` starts with, so the
    search skips from one line start to the next), rather than a match per line."""
    pieces = list(map(lowered_texts.__getitem__, lines))
    joined = "\x1f" + "\x1f".join(pieces)
    at = [found.start() for found in pattern.finditer(joined)]
    if not at:
        return []
    lengths = np.fromiter(map(len, pieces), np.int64, len(pieces)) + 1
    offsets = lengths.cumsum() - lengths  # where each line's "\x1f" stands
    k = np.searchsorted(offsets, at, side="right") - 1  # the line holding each match…
    return [lines[j] for j in k[offsets[k] == at].tolist()]  # …that starts it
