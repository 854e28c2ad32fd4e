"""The site's frame: its header, menus and footer around the page's own text, which are
no part of it whatever the model makes of their lines."""

from __future__ import annotations

import numpy as np

from .. import features
from .paragraphs import NONE_ABOVE, column


def site_frame(para: features.Paragraphs, *, title: bool = True) -> np.ndarray:
    """The lines of the site's frame: inside a ``<header>``, ``<nav>`` or ``<footer>``
    that no ``<article>`` or ``<main>`` holds (an article's own header and footer are
    its title and its tags), an ``<h1>`` there only with ``title`` (the page's title
    stands in the site's header on many a page), read as runs of consecutive such lines
    (a page's header and its menus, its footer), unless a run holds
    :data:`FRAME_TEXT_CHARS` characters outside links, more than half its text, or
    :data:`FRAME_PAGE_CHARS` characters and half the page's: a ``<header>`` left open
    that swallowed the page (its menus, then the whole story, or a shop's grid)."""
    framed = framed_by_tags(para)
    if not title:
        framed &= column(para, "heading_level") != 1
    if not framed.any():
        return framed
    edges = np.diff(np.r_[0, framed.astype(np.int8), 0])
    unlinked = (1.0 - column(para, "link_density")) * para.chars
    page = para.chars.sum()
    for start, end in zip((edges == 1).nonzero()[0].tolist(), (edges == -1).nonzero()[0].tolist()):
        prose, chars = unlinked[start:end].sum(), para.chars[start:end].sum()
        if (prose >= FRAME_TEXT_CHARS and prose >= 0.5 * chars) or (chars >= FRAME_PAGE_CHARS and chars >= 0.5 * page):
            framed[start:end] = False
    return framed


def framed_by_tags(para: features.Paragraphs) -> np.ndarray:
    """The lines inside a ``<header>``, ``<nav>`` or ``<footer>`` that no ``<article>``
    or ``<main>`` holds: the candidates :func:`site_frame` reads as runs."""
    framed = np.zeros(len(para), bool)
    for group in ("dist_t_header", "dist_t_nav", "dist_t_footer"):
        framed |= column(para, group) < NONE_ABOVE
    return framed & (column(para, "dist_t_article") >= NONE_ABOVE) & (column(para, "dist_t_main") >= NONE_ABOVE)


#: a run of the frame holding at least this many characters outside links, and more than
#: half its text, holds the page: a ``<header>`` left open that swallowed it…
FRAME_TEXT_CHARS = 1000
#: …and so does a run of at least this many characters holding half the page's (a shop's
#: grid of links inside such a header)
FRAME_PAGE_CHARS = 5000


def drop_site_frame(para: features.Paragraphs, keep: np.ndarray) -> int:
    """Drop what the model kept of the site's frame (:func:`site_frame`: a mega-menu's
    descriptions, a footer's blurb), but an ``<h1>``: the page's title is read wherever
    it stands (the title step finds only one that matches the page's ``<title>``).
    Returns how many lines.  The frame is not barred: a later step may find a run of
    cards there (a shop's grid inside a ``<header>`` left open)."""
    framed = site_frame(para, title=False)
    dropped = int((keep & framed).sum())
    keep &= ~framed
    return dropped
