"""Boundary lines: the lines the model doubts at the edges of what it kept and in its
gaps, which a reader reads as part of the text around them (a standfirst, a credit or
source line, a line that is one link or an address, a listicle's items, a quoted post,
an "Update:" note), and the rest of a structure the model mostly kept (a thread's last
replies).

The step runs whole in C when ``_csteps`` is built (:func:`keep_boundary_lines`, its
constants handed over by name: :class:`BoundaryParameters`), else as array expressions
(:func:`keep_boundary_lines_numpy`); both keep the same lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np
from lxml import etree

from ...compiled import optional
from ...model import Page
from .. import features
from .ancestors import boilerplate_boxes, clear_of_boilerplate, share, span_keys
from .paragraphs import DIGIT, column
from .promos import promo_line

_csteps = optional("learned.rules._csteps")


def keep_boundary_lines(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
                        probability: np.ndarray) -> None:
    """Keep the lines the model doubts at the edges of what it kept and in its gaps: a
    paragraph between two kept ones (at most :data:`GAP` apart) that shares an ancestor
    with one of them (a standfirst in a box of its own under the title, a line that is
    only a link or an address, an item's text under a kept heading of a listicle, a
    quoted post inside a forum post, an embedded tweet); and the short ones
    (:data:`EDGE_CHARS`, at most :data:`EDGE`) after the last kept paragraph of a run, in
    its parent (a credit line, "Additional reporting by…", an italic "Update:" note,
    a bold closing line, the rest of a description written as ``<br>``-separated lines).

    The model judges each line from its own look, and these look like boilerplate (short,
    no sentence, a link), while a reader reads them as part of the text around them.
    A line inside a box that names boilerplate (:data:`~.ancestors.BOUNDARY_GROUPS`, the
    box not around the kept neighbour too), a line with links (but one that is a single
    link in the kept text's own container, or a quote's, or links that are only e-mail
    addresses or phone numbers: a contact line), a figure's caption (it goes with its
    image: :func:`~.figures.keep_figures`), a code line (it goes with its block) and a
    line the model rejects outright (under :data:`BOUNDARY_FLOOR`) stay out.

    Compiled: ``_csteps.keep_boundary_lines`` (one pass over the page's arrays, the text
    tests asked of the lines they can still decide), else
    :func:`keep_boundary_lines_numpy`."""
    if _csteps is None:
        keep_boundary_lines_numpy(page, para, keep, barred, probability)
        return
    _csteps.keep_boundary_lines(para.X, keep, np.ascontiguousarray(barred), para.chars, probability, span_keys(para),
                                para.signature, para.texts, partial(_address_lines, page, para), closing_sentence,
                                _linked_sentence, boundary_parameters())


def keep_boundary_lines_numpy(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
                              probability: np.ndarray) -> None:
    """The twin of ``_csteps.keep_boundary_lines``, in array expressions."""
    density = column(para, "link_density")
    quoted = column(para, "dist_t_quote") <= 1
    eligible = (~barred & ~keep & (para.chars > 0) & (probability >= BOUNDARY_FLOOR)
                & (column(para, "dist_t_figure") > 1) & (column(para, "dist_t_code") > 0))
    # an embedded post's attribution links its author and date: a quote may hold links
    plain = (density <= PLAIN_LINKS) | (quoted & (density < 0.5))
    plain[_address_lines(page, para, (eligible & ~plain & (para.chars <= EDGE_CHARS)).nonzero()[0])] = True
    media = column(para, "dist_media") <= 1
    _keep_like_kept(para, keep, eligible & plain & ~media)
    _fill_gaps(para, keep, eligible, plain, density >= LINK_LINE, media)
    within = eligible & (para.chars <= EDGE_CHARS)
    _extend_edges(para, keep, within & plain, within & ~plain & (density < EDGE_LINKS), media, quoted)


def _address_lines(page: Page, para: features.Paragraphs, lines: np.ndarray) -> list[int]:
    """Those of ``lines`` whose links all go to an e-mail address or a phone number
    (``mailto:``, ``tel:``): a contact line, whose "link" is no way to another page."""
    found = []
    texts = para.texts
    for i in lines.tolist():
        if "@" not in texts[i] and not DIGIT.search(texts[i]):  # no address, no number
            continue
        hrefs = [_link_href(block.node) for block in page.blocks[para.starts[i]:para.ends[i]] if block.link_chars]
        if hrefs and all(href.startswith(_ADDRESS_SCHEMES) for href in hrefs):
            found.append(i)
    return found


_ADDRESS_SCHEMES = ("mailto:", "tel:")


def _link_href(node: etree._Element | None) -> str:
    """The lower-cased ``href`` of the link around a block's element (itself or an
    ancestor at most three levels up); "" when none is found."""
    for _ in range(4):
        if node is None:
            break
        if node.tag == "a":
            return (node.get("href") or "").strip().lower()
        node = node.getparent()
    return ""


def _keep_like_kept(para: features.Paragraphs, keep: np.ndarray, eligible: np.ndarray) -> None:
    """Keep the ``eligible`` paragraphs of a structure (:attr:`Paragraphs.signature`:
    the posts of a thread, the items of a list) that repeats at least :data:`LIKE_KEPT`
    times and whose text is mostly kept (:data:`LIKE_KEPT_SHARE`): the model judges
    the last replies of a thread by their neighbourhood, the footer, and lets them go."""
    signature = para.signature
    weight = para.chars + 1.0
    total = np.bincount(signature, weight)
    kept = np.bincount(signature, weight * keep, minlength=len(total))
    count = np.bincount(signature)
    like = (count >= LIKE_KEPT) & (kept >= LIKE_KEPT_SHARE * total)
    keep |= eligible & like[signature]


#: a structure repeated this many times, whose text is kept at least this share, is kept whole
LIKE_KEPT = 3
LIKE_KEPT_SHARE = 0.5


def _fill_gaps(para: features.Paragraphs, keep: np.ndarray, eligible: np.ndarray, plain: np.ndarray,
               link_line: np.ndarray, media: np.ndarray) -> None:
    """Keep the ``eligible`` paragraphs between two kept ones at most :data:`GAP` apart
    that share an ancestor with one of them (``plain`` sentences: a standfirst; a
    ``plain`` line that is no sentence, only one whose parent or grandparent holds both:
    an item of the text's own list, not a date line or byline) or whose parent holds both
    (a ``link_line``), outside boilerplate boxes; a line in a box named as a caption or a
    credit only in the kept text's own container (a photo's caption goes with the
    photo: :func:`~.figures.keep_figures`)."""
    kept = keep.nonzero()[0]
    lines = (eligible & (plain | link_line)).nonzero()[0]
    if len(kept) < 2 or not len(lines):
        return
    at = np.searchsorted(kept, lines)
    inside = (at > 0) & (at < len(kept))
    lines, at = lines[inside], at[inside]
    before, after = kept[at - 1], kept[np.minimum(at, len(kept) - 1)]
    near = after - before - 1 <= GAP
    lines, before, after = lines[near], before[near], after[near]
    if not len(lines):
        return
    # a line of a box of its own beside the text (a standfirst) is kept when it is a
    # sentence; one that is none (a date line, a byline, a source: "2012-01-11",
    # "By Jane Doe / Reuters") only inside the text's own containers (a list's items)
    own_before, own_after = share(para, lines, before, 1, 1), share(para, lines, after, 1, 1)
    shared = plain[lines] & own_before & own_after
    # each further test only on the lines it can still decide (a page has few such lines)
    rest = (plain[lines] & ~shared).nonzero()[0]
    if len(rest):
        rest = rest[np.fromiter(map(closing_sentence, map(para.texts.__getitem__, lines[rest].tolist())), bool,
                                len(rest))]
        shared[rest] = share(para, lines[rest], before[rest], 3, 2) | share(para, lines[rest], after[rest], 3, 2)
    rest = (link_line[lines] & ~shared).nonzero()[0]
    if len(rest):
        shared[rest] = share(para, lines[rest], before[rest], 1, 2) & share(para, lines[rest], after[rest], 1, 2)
    shared &= ~media[lines] | own_before | own_after
    if shared.any():
        chosen = shared.nonzero()[0]
        keep[lines[chosen[clear_of_boilerplate(para, lines[chosen], before[chosen])]]] = True


def _extend_edges(para: features.Paragraphs, keep: np.ndarray, short: np.ndarray, linked: np.ndarray,
                  media: np.ndarray, quoted: np.ndarray) -> None:
    """Keep the ``short`` lines after the last paragraph of each kept run, one after the
    other while each is a line of the previous one's own element or parent
    (``<br>``-separated lines, the next ``<p>``), or a sentence
    (:func:`closing_sentence`: not "Print", "Font size:", a teaser's title) or a line
    of a quote (an embedded post's attribution) sharing the previous one's parent (at
    most :data:`EDGE`; a line in a box named as a caption or a credit, its very
    parent).  The line just after the run may sit a level further out, in a box of its
    own, even one named for an article's meta data, when it is a sentence ("Walter
    Gibbs contributed reporting.", "John Harris can be reached at …"); or it may hold
    some links (``linked``: under :data:`EDGE_LINKS` of its text) when it is a sentence
    of the run's own element or parent ("Additional contributions by <a>…</a>, <a>…</a>.",
    "A version of this post also appeared in <a>the Register</a>.")."""
    n = len(keep)
    ends = (keep[:-1] & ~keep[1:] & (short | linked)[1:]).nonzero()[0].tolist()
    if not ends:
        return
    # how each line that may follow a run joins the line before it, for all at once
    lines = np.array(sorted({line for last in ends for line in range(last + 1, min(n, last + 1 + EDGE))}))
    lines = lines[short[lines]]
    before = lines - 1
    own = share(para, lines, before, 1, 1)
    sentence = np.fromiter(map(closing_sentence, map(para.texts.__getitem__, lines.tolist())), bool, len(lines))
    near = np.where(media[lines], own, share(para, lines, before, 2, 1))
    joined = (own | ((sentence | quoted[lines]) & near)) & clear_of_boilerplate(para, lines, before)
    # the line just after the run, a level further out
    outer = (~media[lines] & sentence & share(para, lines, before, 3, 2)
             & clear_of_boilerplate(para, lines, before, allowed=("meta",)))
    joins, first = dict(zip(lines.tolist(), joined.tolist())), dict(zip(lines.tolist(), outer.tolist()))
    for last in ends:
        line = last + 1
        if linked[line]:
            if not _linked_closing(para, line, media):
                continue
            keep[line] = True
            line += 1
        while line < min(n, last + 1 + EDGE) and short[line] and not keep[line]:
            if not (joins[line] or (line == last + 1 and first[line])):
                break
            keep[line] = True
            line += 1


def _linked_closing(para: features.Paragraphs, line: int, media: np.ndarray) -> bool:
    """Whether a line with some links, just after a kept run, closes it: a sentence of
    the previous line's own element or parent, outside boilerplate boxes."""
    lines, before = np.array([line]), np.array([line - 1])
    return (not media[line] and bool(share(para, lines, before, 1, 1)[0])
            and _linked_sentence(para.texts[line]) and bool(clear_of_boilerplate(para, lines, before)[0]))


def _linked_sentence(text: str) -> bool:
    """Whether a line with links reads as a sentence closing an article
    (:func:`closing_sentence`) that is no call to action ("Join us on Facebook,
    Twitter.": :func:`promo_line`)."""
    return closing_sentence(text) and not promo_line(text.lower())


def closing_sentence(text: str) -> bool:
    """Whether a line reads as a sentence closing an article: at least
    :data:`SENTENCE_WORDS` words (or :data:`SENTENCE_CJK` CJK characters) ending with a
    full stop, an exclamation or a question mark, few of its characters digits (no
    date line, no "Posted on 3.1.2008 at 10:15.")."""
    text = text.strip()
    if _SENTENCE_END.search(text) is None or sum(map(str.isdigit, text)) > len(text) * SENTENCE_DIGITS:
        return False
    return len(text) >= SENTENCE_CJK if text[0] >= "\u3000" else len(text.split()) >= SENTENCE_WORDS


_SENTENCE_END = re.compile(r"[.!?。！？…][\"'”’»)\]]*$")
#: a closing sentence has at least this many words (or CJK characters)…
SENTENCE_WORDS = 4
SENTENCE_CJK = 10
#: …and at most this share of digits
SENTENCE_DIGITS = 0.2

#: a gap of at most this many paragraphs between two kept ones is filled
GAP = 5
#: a boundary line holds at most this share of link text (a line of one link aside)
PLAIN_LINKS = 0.0
#: the short lines (at most EDGE_CHARS) after a kept one are kept, at most EDGE of them
EDGE = 6
EDGE_CHARS = 250
#: a line the model gives less than this is not brought back
BOUNDARY_FLOOR = 0.05
#: a line of at least this link density (a link alone) may fill a gap inside its parent
LINK_LINE = 0.9
#: the line just after a kept run may hold less than this share of link text (a credit
#: line linking its authors, a source line linking its source) when it is a sentence
EDGE_LINKS = 0.6


@dataclass(frozen=True, slots=True, kw_only=True)
class BoundaryParameters:
    """What ``_csteps.keep_boundary_lines`` reads besides the page, each by its name:
    the step's constants, the feature columns it reads and the boilerplate boxes."""

    floor: float  #: :data:`BOUNDARY_FLOOR`
    plain_links: float  #: :data:`PLAIN_LINKS`
    edge_chars: int  #: :data:`EDGE_CHARS`
    gap: int  #: :data:`GAP`
    edge: int  #: :data:`EDGE`
    like_kept: int  #: :data:`LIKE_KEPT`
    like_kept_share: float  #: :data:`LIKE_KEPT_SHARE`
    link_line: float  #: :data:`LINK_LINE`
    edge_links: float  #: :data:`EDGE_LINKS`
    #: the feature columns: link density, and the distances to a quote, a figure, a code
    #: block and a medium
    density: int
    quote: int
    figure: int
    code: int
    media: int
    #: the boilerplate boxes' columns and the social one's position among them (-1:
    #: none), :func:`boilerplate_boxes`; and the same but the "meta" box
    groups: np.ndarray
    social: int
    groups_meta: np.ndarray
    social_meta: int


@lru_cache(maxsize=1)
def boundary_parameters() -> BoundaryParameters:
    """The boundary step's :class:`BoundaryParameters` (the columns from the feature names)."""
    positions = features.positions()
    groups, social = boilerplate_boxes()
    groups_meta, social_meta = boilerplate_boxes(("meta",))
    return BoundaryParameters(
        floor=BOUNDARY_FLOOR, plain_links=PLAIN_LINKS, edge_chars=EDGE_CHARS, gap=GAP, edge=EDGE, like_kept=LIKE_KEPT,
        like_kept_share=LIKE_KEPT_SHARE, link_line=LINK_LINE, edge_links=EDGE_LINKS,
        density=positions["link_density"], quote=positions["dist_t_quote"], figure=positions["dist_t_figure"],
        code=positions["dist_t_code"], media=positions["dist_media"],
        groups=groups, social=social, groups_meta=groups_meta, social_meta=social_meta)
