"""``fulltext``: every visible text block, the "no cleaning" baseline.

It keeps what a reader could see (scripts, styles, ``<head>`` and hidden elements are
never blocks), with the structure of the paragraph view.  Its scores are the floor any
cleaner must beat, and its recall the ceiling.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Labels, Page
from .common import label_paragraphs

NAME = "fulltext"
SEED = "-"
DESCRIPTION = "all visible text, with headings, paragraphs and list items (no cleaning)"


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    pass


def label(page: Page, options: Options = Options()) -> Labels:
    """Keep every block."""
    return Labels(NAME, label_paragraphs(page.blocks, [True] * len(page.blocks)))
