"""Helpers shared by methods that keep or drop whole blocks of the paragraph view."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress

from ..model import Block, Label

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
LIST_ITEMS = frozenset({"li", "dd", "dt"})
_STRUCTURE = HEADINGS | LIST_ITEMS


def kind_of(block: Block) -> Label:
    """Header, list item or paragraph, from the innermost structural container."""
    if _STRUCTURE.isdisjoint(block.path):  # most blocks: one C-level test
        return Label.PARAGRAPH
    for tag in reversed(block.path):
        if tag in HEADINGS:
            return Label.HEADER
        if tag in LIST_ITEMS:
            return Label.LIST
    return Label.PARAGRAPH


def label_paragraphs(blocks: Sequence[Block], keep: Iterable[bool]) -> tuple[Label, ...]:
    """Label kept blocks by the paragraph view: the first kept run of a paragraph gets its
    kind, the following kept runs of the same paragraph continue it."""
    keep = list(keep)
    if len(keep) != len(blocks):
        raise ValueError(f"{len(keep)} keep flags for {len(blocks)} blocks")
    labels = [Label.OTHER] * len(blocks)
    previous = -2  # the previous kept block
    for i in compress(range(len(blocks)), keep):  # the kept blocks only
        block = blocks[i]
        if previous == i - 1 and blocks[previous].paragraph == block.paragraph:
            labels[i] = Label.CONTINUATION
        else:
            labels[i] = kind_of(block)
        previous = i
    return tuple(labels)
