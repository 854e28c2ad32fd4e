"""Never empty by accident: when the model keeps almost none of a page's text, the
paragraphs it ranks near its best guess, with the lists of links it ranks so inside the
element holding them (or the best container's, or the page's text it ranks best), are
kept instead; never the site's header, menus and footer."""

from __future__ import annotations

import numpy as np
from lxml import etree

from ...model import Page
from .. import features
from .consent import consent_lines
from .frame import site_frame
from .paragraphs import column

#: fall back when the model keeps fewer than this share of the page's characters…
FALLBACK_SHARE = 0.05
#: …on a page with at least this many characters (a smaller one: when it keeps none)
FALLBACK_PAGE_CHARS = 500
#: the fallback keeps the low-link paragraphs scoring at least this share of the page's best…
FALLBACK_RELATIVE = 0.3
#: …unless they hold more than this share of the page's text (then the best container)
RANKED_SHARE = 0.5


def fall_back(para: features.Paragraphs, keep: np.ndarray, probability: np.ndarray,
              choice: np.ndarray, barred: np.ndarray, page: Page | None = None) -> dict:
    """When the model kept almost nothing of a page (or nothing at all of a small page
    that has text): keep the low-link paragraphs it ranks near its best guess, or else
    the best container's, or else the page's text it ranks best (of the paragraphs in
    ``choice``).  What the steps dropped (``barred``) is neither rescued nor counted in
    the page's text: a comment section is no part of what the kept text is compared with;
    nor the site's header, menus and footer (:func:`~.frame.site_frame`); nor, with the
    ``page``, a consent manager's dialog (:func:`~.consent.consent_lines`).

    On a page unlike its training pages the model's probabilities can all fall below
    the threshold while their order is still right (a short article under a 900-entry
    category menu: its paragraphs score 0.3–0.45, the menu below 0.13), so the first
    rescue keeps what scores at least :data:`FALLBACK_RELATIVE` of the page's best.  A
    small page (under :data:`FALLBACK_PAGE_CHARS`) whose few lines the model all rejects
    (an opening-hours notice under a menu) keeps its low-link text whole: the order of
    lines all scored far under the threshold says little there.  The last rescue makes
    sure a page with text never comes out empty.  A page that is
    nothing but its frame (a shop's shell whose script never ran) stays empty, and the
    details say so (``frame_only``).  With the
    ``page``, the first rescue also keeps the list items and table cells of links ranked
    as high inside the element that holds most of it (:func:`_linked_items`): on a list
    page the content is lists of links, which the low-link rescue leaves out."""
    text = int(para.chars[~barred].sum())
    kept = int(para.chars[keep].sum())
    if kept >= FALLBACK_SHARE * text:  # enough of the page, so of its text outside its frame too
        return {}
    framed = site_frame(para)  # the site's frame is no part of the page's text either
    total = int(para.chars[~barred & ~framed].sum())
    choice = choice & ~barred & ~framed
    if not kept and text and not total:
        return {"frame_only": f"the model kept 0 of {text} characters, and only the site's header, menus and "
                              "footer hold text"}
    if _kept_enough(kept, total):
        return {}
    if page is not None:  # a consent dialog is no part of the page's text either
        boxed = consent_lines(page, para, ~barred & ~keep)
        if boxed.any():
            total -= int(para.chars[boxed].sum())
            choice &= ~boxed
            if _kept_enough(kept, total):
                return {}
    name = _rescue(para, keep, probability, choice, kept, total, page)
    return {"fallback": name, "reason": f"the model kept {kept} of {total} characters"} if name else {}


def _rescue(para: features.Paragraphs, keep: np.ndarray, probability: np.ndarray, choice: np.ndarray,
            kept: int, total: int, page: Page | None) -> str | None:
    """Add to ``keep`` the first rescue of :func:`fall_back` that holds more than the
    ``kept`` characters, of the paragraphs in ``choice``; its name, or None."""
    low_link = (column(para, "link_density") < 0.5) & choice
    if total < FALLBACK_PAGE_CHARS and int(para.chars[low_link].sum()):
        # a small page the model rejects whole: its order of a few lines it all scores far
        # under the threshold is noise (an opening-hours notice cut after its heading)
        keep |= low_link
        return "small-page"
    probability = np.where(choice, probability, 0.0)
    ranked_any = choice & (probability >= FALLBACK_RELATIVE * probability.max())
    ranked = low_link & ranked_any
    container = low_link & (column(para, "in_top") > 0)
    # a ranking that singles out no part of the page (most of its text near the best
    # guess) says nothing: the container then, and that ranking only when nothing else is
    singled = ranked if int(para.chars[ranked].sum()) <= RANKED_SHARE * total else np.zeros_like(keep)
    best = choice & (para.chars > 0) & (probability >= probability[choice & (para.chars > 0)].max(initial=0.0))
    for name, rescue in (("model-ranked", singled), ("best-container", container), ("page-text", ranked),
                         ("best-paragraph", best)):
        if int(para.chars[rescue].sum()) > kept:
            keep |= rescue
            if name == "model-ranked" and page is not None:
                keep |= _linked_items(page, para, rescue, ranked_any)
            return name
    return None


def _kept_enough(kept: int, total: int) -> bool:
    """Whether ``kept`` characters of a page's ``total`` need no rescue: at least
    :data:`FALLBACK_SHARE` of them, anything on a small page, or a page without text."""
    return kept >= FALLBACK_SHARE * total or (total < FALLBACK_PAGE_CHARS and kept > 0) or not total


#: the element holding this share of the rescued characters is the content's
CONTENT_ELEMENT_SHARE = 0.8


def _linked_items(page: Page, para: features.Paragraphs, rescued: np.ndarray, ranked: np.ndarray) -> np.ndarray:
    """The list items and table cells of links the model ranks near its best guess, inside
    the element that holds most of what the fallback rescued (a list page: an index of
    languages, of laureates), which the rescue of low-link paragraphs leaves out: the
    deepest element holding :data:`CONTENT_ELEMENT_SHARE` of the rescued characters
    (there is one: the root holds them all), unless that is the whole ``<body>``."""
    chars_under: dict[int, int] = {}
    depth_of: dict[int, tuple[int, etree._Element]] = {}
    total = 0
    for i in rescued.nonzero()[0].tolist():
        chars = int(para.chars[i])
        total += chars
        node = page.blocks[int(para.starts[i])].node
        for depth, el in enumerate(reversed([node, *node.iterancestors()])):
            chars_under[id(el)] = chars_under.get(id(el), 0) + chars
            depth_of[id(el)] = (depth, el)
    content = max((depth_of[key] for key, chars in chars_under.items() if chars >= CONTENT_ELEMENT_SHARE * total),
                  key=lambda found: found[0])[1]
    out = np.zeros_like(rescued)
    if content.tag in ("html", "body"):
        return out
    for i in (ranked & ~rescued).nonzero()[0].tolist():
        block = page.blocks[int(para.starts[i])]
        if ("li" in block.path or "td" in block.path) and any(a is content for a in block.node.iterancestors()):
            out[i] = True
    return out
