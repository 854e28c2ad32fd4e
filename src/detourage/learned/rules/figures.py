"""Figures: the article's images between and beside the kept paragraphs, and their
captions, but the decorative ones (icons, avatars, smileys, pixels).

The step runs whole in C when ``_csteps`` is built (:func:`keep_figures`, its constants
handed over by name: :class:`FigureParameters`), else as array expressions
(:func:`keep_figures_numpy`); both keep the same images.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import repeat

import numpy as np

from ...compiled import optional
from ...model import Page
from .. import features
from .ancestors import boilerplate_boxes, clear_of_boilerplate, share, span_keys
from .boundary import GAP
from .paragraphs import column

_csteps = optional("learned.rules._csteps")


def keep_figures(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> None:
    """Keep the article's images and their captions: an image paragraph between two kept
    paragraphs (at most :data:`GAP` apart) sharing an ancestor with one of them, or among
    the :data:`FIGURE_EDGE` before or after the kept text, sharing an ancestor with it (a
    lead image above the title, a figure after the last paragraph), or among the
    :data:`FIGURE_LEAD` before it when the image's parent holds the kept text's parent (a
    lead image above a byline and a share bar); then a caption
    (``<figcaption>``, or the text of the image's ``<figure>``) beside a kept image.  Not
    an icon, an avatar, a smiley, a tracking pixel or an advertisement
    (``Block.decorative``), nor an image in a box that names boilerplate (but an
    "overlay" one: a figure's zoom layer, or its ``no_overlay`` class).

    Compiled: ``_csteps.keep_figures``, else :func:`keep_figures_numpy`."""
    if _csteps is None:
        keep_figures_numpy(page, para, keep, barred)
        return
    _csteps.keep_figures(para.X, keep, np.ascontiguousarray(barred), para.chars, span_keys(para),
                         partial(_illustrated, page, para), figure_parameters())


def _illustrated(page: Page, para: features.Paragraphs, i: int) -> bool:
    """Whether paragraph ``i`` is images only, not all decorative (:func:`_illustration`)."""
    return _illustration(page, int(para.starts[i]), int(para.ends[i]))


def keep_figures_numpy(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> None:
    """The twin of ``_csteps.keep_figures``, in array expressions."""
    kept = keep.nonzero()[0]
    images = (~keep & ~barred & (column(para, "is_image") > 0)).nonzero()[0]
    if not len(kept) or not len(images):
        return
    # illustrations first: many pages have decorative images only (icons, pixels)
    images = images[np.fromiter(map(_illustration, repeat(page), para.starts[images].tolist(),
                                    para.ends[images].tolist()), bool, len(images))]
    if not len(images):
        return
    at = np.searchsorted(kept, images)
    before = np.where(at > 0, kept[np.maximum(at - 1, 0)], -1)
    after = np.where(at < len(kept), kept[np.minimum(at, len(kept) - 1)], -1)
    between = (before >= 0) & (after >= 0) & (after - before - 1 <= GAP)
    near = (between | ((before >= 0) & (images - before <= FIGURE_EDGE))
            | ((after >= 0) & (after - images <= FIGURE_LEAD)))
    if not near.any():
        return
    images, before, after, between = images[near], before[near], after[near], between[near]
    between &= share(para, images, before, 3, 2) | share(para, images, after, 3, 2)
    edge = (((before >= 0) & (images - before <= FIGURE_EDGE) & share(para, images, before, 2, 2))
            | ((after >= 0) & (after - images <= FIGURE_EDGE) & share(para, images, after, 2, 2))
            | ((after >= 0) & (after - images <= FIGURE_LEAD) & share(para, images, after, 1, 2)))
    clean = clear_of_boilerplate(para, images, np.where(before >= 0, before, after), allowed=_FIGURE_ALLOWED)
    chosen = images[(between | edge) & clean]
    keep[chosen] = True
    _keep_captions(para, keep, barred, chosen)


def _illustration(page: Page, start: int, end: int) -> bool:
    """Whether the blocks ``start``…``end`` are images only, not all decorative."""
    blocks = page.blocks[start:end]
    return all(b.image for b in blocks) and not all(b.decorative for b in blocks)


#: an image at most this many paragraphs before or after the kept text is the article's
FIGURE_EDGE = 2
#: …and a lead image at most this many before it when its parent holds the kept text's
#: parent (the article's head: a title, a byline, a share bar between image and text)
FIGURE_LEAD = 12
#: the boilerplate boxes an article's image may sit in: an "overlay" (a figure's zoom
#: layer; the vocabulary also reads ``no_overlay`` so)
_FIGURE_ALLOWED = ("overlay",)


@dataclass(frozen=True, slots=True, kw_only=True)
class FigureParameters:
    """What ``_csteps.keep_figures`` reads besides the page, each by its name: the
    step's constants, the feature columns it reads and the boilerplate boxes."""

    gap: int  #: :data:`GAP`
    edge: int  #: :data:`FIGURE_EDGE`
    lead: int  #: :data:`FIGURE_LEAD`
    #: the feature columns: image, and the distances to a figure and a quote
    image: int
    figure: int
    quote: int
    #: the boilerplate boxes' columns but :data:`_FIGURE_ALLOWED`, and the social one's
    #: position among them (-1: none), :func:`boilerplate_boxes`
    groups: np.ndarray
    social: int


@lru_cache(maxsize=1)
def figure_parameters() -> FigureParameters:
    """The figure step's :class:`FigureParameters` (the columns from the feature names)."""
    positions = features.positions()
    groups, social = boilerplate_boxes(_FIGURE_ALLOWED)
    return FigureParameters(gap=GAP, edge=FIGURE_EDGE, lead=FIGURE_LEAD, image=positions["is_image"],
                            figure=positions["dist_t_figure"], quote=positions["dist_t_quote"],
                            groups=groups, social=social)


def _keep_captions(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray, images: np.ndarray) -> None:
    """Keep the caption beside each of the kept ``images``: the next or previous
    paragraph, when it is in a ``<figcaption>`` or shares the image's ``<figure>``."""
    figure = column(para, "dist_t_figure")
    for i in images.tolist():
        for j in (i + 1, i - 1):
            if (0 <= j < len(keep) and not keep[j] and not barred[j] and figure[j] <= 1 and para.chars[j]
                    and share(para, np.array([j]), np.array([i]), 1, 1)[0]):
                keep[j] = True


def keep_pictured_paragraphs(page: Page, para: features.Paragraphs, keep: np.ndarray, closed: np.ndarray) -> int:
    """Keep a paragraph of prose led by a picture (a photograph floated at the start of a
    story's first paragraph) that the model left out, when the line with text just
    before or after it is kept and of the same parent: the paragraph's features are its
    first block's, an image's, which the model reads as a figure, not as the text beside
    it.  Its text outside the images must be at least :data:`PICTURED_CHARS` characters,
    mostly no links, and no caption (a text repeating an image's alt text, or a "View
    Larger Image" under one); the leading image an illustration (not an icon or an
    avatar: a byline's); nothing a step closed (``closed``).  How many were kept.  The
    image's alt text, an illustration's, is still no text (``Block.silent``)."""
    led = (~keep & ~closed & (column(para, "is_image") > 0) & (para.chars >= PICTURED_CHARS)
           & (para.ends - para.starts > 1) & (column(para, "link_density") < 0.5)).nonzero()[0]
    if not len(led):
        return 0
    text = (para.chars > 0).nonzero()[0]
    at = np.searchsorted(text, led)  # each one's place among the lines with text
    parent = span_keys(para)[1]
    chosen = []
    for i, k in zip(led.tolist(), at.tolist()):
        beside = [int(text[j]) for j in (k - 1, k + 1) if 0 <= j < len(text)]
        if any(keep[j] and parent[j] == parent[i] for j in beside) and _pictured_prose(page, para, i):
            chosen.append(i)
    keep[chosen] = True
    return len(chosen)


def _pictured_prose(page: Page, para: features.Paragraphs, i: int) -> bool:
    """Whether paragraph ``i`` is an illustration and prose of its own beside it, not a
    caption repeating the image's alt text."""
    blocks = page.blocks[int(para.starts[i]):int(para.ends[i])]
    if not blocks[0].illustration:
        return False
    prose = " ".join(" ".join(b.text for b in blocks if not b.image).split())
    if len(prose) < PICTURED_CHARS:
        return False
    alts = [" ".join(b.text.split())[:PICTURED_ALT] for b in blocks if b.image]
    return not any(alt and alt in prose for alt in alts)


#: a paragraph led by an image is kept for its prose from this many characters
PICTURED_CHARS = 80
#: a caption repeats the first this many characters of its image's alt text
PICTURED_ALT = 40
