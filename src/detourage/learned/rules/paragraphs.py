"""Reading the paragraphs' arrays as every rule does: a feature column by name, running
sums, the texts lower-cased, a digit."""

from __future__ import annotations

import re

import numpy as np

from .. import features


def column(para: features.Paragraphs, name: str) -> np.ndarray:
    """A feature column by name (:meth:`Paragraphs.column <detourage.learned.features.Paragraphs.column>`)."""
    return para.X[:, features.positions()[name]]


def running(x: np.ndarray) -> np.ndarray:
    """0, then the running sums of ``x`` (int64): ``out[j] - out[i]`` sums ``x[i:j]``
    (``np.r_[0, np.cumsum(x)]`` without ``np.r_``'s parsing of its index, 5 µs a call)."""
    out = np.zeros(len(x) + 1, np.int64)
    np.cumsum(x, out=out[1:])
    return out


def lower_case(para: features.Paragraphs) -> list[str]:
    """The paragraphs' texts lower-cased: those the features made, or (a page built by
    hand, without them) made now."""
    return para.lowered or [text.lower() for text in para.texts]


#: a digit: a line without one holds no date, no time, no phone number
DIGIT = re.compile(r"\d")
