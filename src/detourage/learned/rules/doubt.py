"""A page the model doubts as a whole: much of its prose scores just under the decision
threshold, beside the little it keeps.  A landing page's sections of short claims, its
testimonials and price cards, a manual's short lines: lines unlike the articles most of
the model's pages are, each a little below the line, and together more of the page
than what clears it.  There the line is drawn lower.

The signal is the page's own: the characters of its lines that are no list of links and
score within :data:`DOUBT_BAND` under the threshold, against the characters kept.  It is
read on the kinds of :data:`~detourage.learned.rules.DOUBTED_KINDS` only (a service
page, a documentation page): on a news page the band holds the site's teasers, on a
product page the shop's notes (shipping, returns, the seller), and lowering the line
there cost more pages than it gained (docs/page-types.md)."""

from __future__ import annotations

import numpy as np

from .. import features
from .paragraphs import column

#: how far under the threshold a line is doubted, and how far the threshold goes down
DOUBT_BAND = 0.2
#: the doubted characters, against the kept ones, that make the page doubted
DOUBT_SHARE = 0.3
#: a line whose characters are this much in links is a list of links, doubted or not
_LINK_LINE = 0.5


def doubted_chars(para: features.Paragraphs, probability: np.ndarray, threshold: float,
                  choice: np.ndarray) -> tuple[int, int]:
    """The characters of the lines under ``threshold`` by less than :data:`DOUBT_BAND`,
    not lists of links (``link_density`` under one half), and those of the lines at or
    above it; ``choice``: the lines that may be kept at all."""
    chars = para.chars
    doubted = ((probability >= threshold - DOUBT_BAND) & (probability < threshold) & choice
               & (column(para, "link_density") < _LINK_LINE))
    return int(chars[doubted].sum()), int(chars[(probability >= threshold) & choice].sum())


def lower_when_doubted(para: features.Paragraphs, probability: np.ndarray, threshold: float,
                       choice: np.ndarray) -> float:
    """How far to move the threshold down: :data:`DOUBT_BAND` when the page's doubted
    characters (:func:`doubted_chars`) are at least :data:`DOUBT_SHARE` of its kept ones,
    else 0.0."""
    doubted, kept = doubted_chars(para, probability, threshold, choice)
    return -DOUBT_BAND if doubted >= DOUBT_SHARE * kept else 0.0
