"""``baseline``: the HTML Killer rules of seed 000 §2.1 (Daureu, Marie, Goubeau, 2015).

The rules, as the seed states them:
- start at the first ``<h1>`` (the whole body when the page has none), stop at ``</body>``;
- drop ``<script>``, ``<img>``, comments, ``<form>`` and ``<li>`` with their content;
- unwrap ``<a>``, ``<span>`` and ``<div>`` (their text stays, their tags split nothing);
- the first ``<h1>`` is the title (a header); ``<h2>``…``<h6>`` are dropped;
- ``</p>`` becomes ``<br>``, and paragraphs are split at ``<br>``: any other tag is
  unwrapped, so text on both sides of it stays in one paragraph.
The authors' published script (``scripts/html_killer.py``) also drops every paragraph
containing ``|`` or ``ags: `` (menus, tag lists); ``drop_separators`` reproduces that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Block, Label, Labels, Page

NAME = "baseline"
SEED = "000"
DESCRIPTION = "HTML Killer: from the first <h1> to </body>, paragraphs split on <br> and </p>"

DROPPED = frozenset({"script", "img", "form", "li", "h2", "h3", "h4", "h5", "h6"})
SPLITS = frozenset({"br", "/p", "/h1"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    #: drop paragraphs containing "|" or "ags: ", as the authors' script does
    drop_separators: bool = True


def label(page: Page, options: Options = Options()) -> Labels:
    """Apply the HTML Killer rules to the page's blocks."""
    blocks = page.blocks
    dropped, in_h1 = _inside(blocks)
    start = next((b.id for b in blocks if in_h1[b.id]), 0)
    labels = [Label.OTHER] * len(blocks)
    title_seen = False
    for paragraph in _paragraphs(blocks[start:], in_h1):
        kept = [b for b in paragraph if not dropped[b.id]]
        if not kept or (options.drop_separators and _has_separator(kept)):
            continue
        is_title = not title_seen and in_h1[kept[0].id]
        title_seen = title_seen or is_title
        labels[kept[0].id] = Label.HEADER if is_title else Label.PARAGRAPH
        for block in kept[1:]:
            labels[block.id] = Label.CONTINUATION
    return Labels(NAME, tuple(labels))


def _inside(blocks: Sequence[Block]) -> tuple[list[bool], list[bool]]:
    """For each block, whether it is dropped (an image, or inside a dropped element), and
    whether it is inside an ``<h1>``.  Read once per distinct path: blocks share their
    path tuples, and a path can be hundreds of tags long (20 000 runs 900 elements deep:
    seconds when each block read its path again)."""
    seen: dict[int, tuple[bool, bool]] = {}  # id of a path (all alive with the blocks)
    dropped, in_h1 = [], []
    for block in blocks:
        facts = seen.get(id(block.path))
        if facts is None:
            facts = seen[id(block.path)] = (not DROPPED.isdisjoint(block.path), "h1" in block.path)
        dropped.append(block.image is not None or facts[0])
        in_h1.append(facts[1])
    return dropped, in_h1


def _paragraphs(blocks: Sequence[Block], in_h1: Sequence[bool]) -> list[list[Block]]:
    """Split at <br>, </p> and the end of the title: the only boundaries HTML Killer has."""
    paragraphs: list[list[Block]] = []
    for block in blocks:
        if not paragraphs or any(tag in SPLITS for tag in block.crossed) or (
            in_h1[block.id] and not in_h1[paragraphs[-1][-1].id]
        ):
            paragraphs.append([])
        paragraphs[-1].append(block)
    return paragraphs


def _has_separator(blocks: Sequence[Block]) -> bool:
    return any("|" in b.text or "ags: " in b.text for b in blocks)
