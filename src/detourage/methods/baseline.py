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
    start = _first_h1(blocks)
    labels = [Label.OTHER] * len(blocks)
    title_seen = False
    for paragraph in _paragraphs(blocks[start:]):
        kept = [b for b in paragraph if not _dropped(b)]
        if not kept or (options.drop_separators and _has_separator(kept)):
            continue
        is_title = not title_seen and "h1" in kept[0].path
        title_seen = title_seen or is_title
        labels[kept[0].id] = Label.HEADER if is_title else Label.PARAGRAPH
        for block in kept[1:]:
            labels[block.id] = Label.CONTINUATION
    return Labels(NAME, tuple(labels))


def _first_h1(blocks: Sequence[Block]) -> int:
    return next((b.id for b in blocks if "h1" in b.path), 0)


def _dropped(block: Block) -> bool:
    return block.image is not None or any(tag in DROPPED for tag in block.path)


def _paragraphs(blocks: Sequence[Block]) -> list[list[Block]]:
    """Split at <br>, </p> and the end of the title: the only boundaries HTML Killer has."""
    paragraphs: list[list[Block]] = []
    for block in blocks:
        if not paragraphs or any(tag in SPLITS for tag in block.crossed) or (
            "h1" in block.path and "h1" not in paragraphs[-1][-1].path
        ):
            paragraphs.append([])
        paragraphs[-1].append(block)
    return paragraphs


def _has_separator(blocks: Sequence[Block]) -> bool:
    return any("|" in b.text or "ags: " in b.text for b in blocks)
