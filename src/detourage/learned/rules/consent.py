"""A consent manager's banner or dialog ("We and our 644 partners store and access
information on your device…", "Strictly Necessary Cookies", "Reject cookies"): the
text a cookie law puts on every page of a site, which no reader counts as the page's.

The model sees it as sentences in a box of its own, often long ones, and keeps some of
it: the ``overlay`` words of the vocabulary (``cookie``, ``consent``, ``gdpr``…) are one
feature among many, shared with hidden boxes and screen-reader text that do hold the
content.  This step reads the box's own name instead.
"""

from __future__ import annotations

import re

import numpy as np
from lxml import etree

from ...model import Page
from .. import features
from .ancestors import around_title, nearest_named
from .articles import holding_share
from .paragraphs import NONE_ABOVE, column


def drop_consent_boxes(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> int:
    """Drop the kept lines inside an element whose class or id names a consent banner
    (:data:`CONSENT`: ``#onetrust-consent-sdk``, ``.cookie-consent``,
    ``#gdpr-banner``, ``.cookielawinfo-row``, ``#privacy-cmp-banner``…), the nearest such
    element above each line, and mark them in ``barred``.  But a box inside the element
    that holds the rest of the page's text (:func:`_main_span`: a documentation's
    ``<section id="cookies">``) is a part of it, and a box that holds the page's title
    (or, on a page with neither a title nor other kept text, at least
    :data:`CONSENT_SHARE` of the kept text) is the page itself (a ``<body
    class="cookie-consent-given">``, a cookie policy's own text): their lines stay.  Only
    the lines under an ``overlay`` word (the ``dist_overlay`` column) are looked at, which
    a consent box always is.  The lines the model did not keep are left to
    :func:`consent_lines`, which the fallback asks on the few pages it rescues.  Returns
    how many lines were dropped."""
    boxes = _boxes(page, para, (keep & (column(para, "dist_overlay") < NONE_ABOVE)).nonzero()[0])
    if not boxes:
        return 0
    above_title = around_title(page, para)
    # the element holding the page's text, found without the boxes (the model may have
    # kept little else than a consent dialog)
    outside = keep.copy()
    for inside in boxes.values():
        outside[inside] = False
    main = _main_span(para, outside) if outside.any() else None
    total = float(para.chars[keep].sum())
    dropped = 0
    for box, inside in boxes.items():
        # the kept lines of the box are those found under it: every one of them has an
        # overlay word above it, the box's own
        if main is not None and main[0] <= inside[0] and inside[-1] < main[1]:
            continue  # a part of the page's text: a section named for what it explains
        if box in above_title or (main is None and _page_itself(para, box, inside, above_title, total)):
            continue  # the page itself
        keep[inside] = False
        barred[inside] = True
        dropped += len(inside)
    return dropped


def consent_lines(page: Page, para: features.Paragraphs, lines: np.ndarray) -> np.ndarray:
    """Which of ``lines`` (a mask) lie in a consent manager's box that is not the page
    itself (a box holding the title, or, on a page without one, at least
    :data:`CONSENT_SHARE` of the text of ``lines``): on a page the model kept nothing
    of, what the fallback must not take for its text (a OneTrust dialog is often the
    longest prose of a page the model failed on)."""
    out = np.zeros(len(lines), bool)
    boxes = _boxes(page, para, (lines & (para.chars > 0) & (column(para, "dist_overlay") < NONE_ABOVE)).nonzero()[0])
    if not boxes:
        return out
    above_title = around_title(page, para)
    total = float(para.chars[lines].sum())
    for box, inside in boxes.items():
        if not _page_itself(para, box, inside, above_title, total):
            out[inside] = True
    return out


def _page_itself(para: features.Paragraphs, box: etree._Element, inside: list[int],
                 above_title: set[etree._Element], total: float) -> bool:
    """Whether a consent box is the page itself: it holds the title, or, on a page without
    one, at least :data:`CONSENT_SHARE` of the ``total`` characters (a cookie policy)."""
    return box in above_title or (para.title_index < 0 and para.chars[inside].sum() >= CONSENT_SHARE * total)


def _boxes(page: Page, para: features.Paragraphs, lines: np.ndarray) -> dict[etree._Element, list[int]]:
    """The consent boxes above ``lines`` (indices), each with the lines under it."""
    boxes: dict[etree._Element, list[int]] = {}
    known: dict[etree._Element, etree._Element | None] = {}  # each element's box, found once
    for line in lines.tolist():
        box = nearest_named(page.blocks[para.starts[line]].node, CONSENT, known)
        if box is not None:
            boxes.setdefault(box, []).append(line)
    return boxes


def _main_span(para: features.Paragraphs, keep: np.ndarray) -> tuple[int, int] | None:
    """The paragraphs (first, one past the last) of the element that holds the page's
    kept text (:func:`~.articles.holding_share`) around the kept title or, without one,
    the longest kept paragraph; None when there is none."""
    title = para.title_index
    anchor = title if title >= 0 and keep[title] else int(np.argmax(np.where(keep, para.chars, -1)))
    found = holding_share(para, keep, anchor)
    return None if found is None else found[:2]


#: class or id words of a consent manager's banner and dialog: the generic ones and the
#: common platforms' (OneTrust, Cookiebot, Didomi, Usercentrics, TrustArc's ``truste-``,
#: Quantcast's ``qc-cmp2``, consentmanager's ``cmpbox``, Civic's ``ccc``, Ethyca's
#: ``fides``); a consent management platform's ``cmp`` otherwise only as a banner, since
#: ``cmp-`` is the prefix of every Adobe Experience Manager component (``cmp-text``,
#: ``cmp-container``, a glossary's ``cmp-modal``)
CONSENT = re.compile(r"cookie|consent|gdpr|onetrust|didomi|usercentrics|trustarc|truste[-_]"
                     r"|(?<![a-z])(?:ccc|fides)(?![a-z])|(?<![a-z])(?:cmpbox|cmp-?banner|qc-cmp)")
#: a consent box holding at least this share of the page's kept text is the page itself
CONSENT_SHARE = 0.5
