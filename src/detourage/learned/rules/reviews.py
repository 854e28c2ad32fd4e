"""Customers' reviews on a product page: what buyers wrote of the product ("Great Active
Dynamic Microphone! Functionally, it is one of the best mics I use…"), the comment
section of a shop.  The page's text is the description and specifications the shop
wrote; the reviews are readers' comments, left out as an article's are and kept with
``comments=True`` (:mod:`.comments`).

The model keeps them: a review is the longest prose on most product pages, and the
``product`` words of the vocabulary (``review`` among ``price``, ``descr``, ``spec``)
are one feature shared with the description.  This step reads the box's own name.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
from lxml import etree

from ...model import Page
from .. import features
from .ancestors import around_title, nearest_named


def drop_product_reviews(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> int:
    """Drop the lines inside the reviews of a run (at least :data:`REVIEW_RUN` elements
    of one tag and class, each the nearest element above a line whose class or id
    names customers' reviews, :data:`REVIEWS`: ``.review-item``, ``.yotpo-review``,
    ``.jdgm-rev``…), and mark them in ``barred``, kept or not (the fallback must not
    bring them back).  One box so named is no run of reviews: an editorial review's
    ``.review-body``, a shop's press quotes.  A page whose kept lines hold no review is
    passed over (its other lines are not walked).  A box that holds the page's title is the
    page itself, and nothing is dropped from a page that would keep less than
    :data:`REVIEW_PAGE_CHARS` outside the reviews (a page of reviews, or one whose
    description the model missed: the reviews are then all it has to say).  Returns
    how many kept lines were dropped."""
    known: dict[etree._Element, etree._Element | None] = {}
    if all(nearest_named(page.blocks[para.starts[line]].node, REVIEWS, known) is None
           for line in keep.nonzero()[0].tolist()):
        return 0  # the model kept no review: the page's other lines are not walked
    above_title = around_title(page, para)
    boxes: dict[etree._Element, list[int]] = {}
    for line in (para.chars > 0).nonzero()[0].tolist():
        box = nearest_named(page.blocks[para.starts[line]].node, REVIEWS, known)
        if box is not None and box not in above_title:
            boxes.setdefault(box, []).append(line)
    alike = Counter((box.tag, box.get("class") or "") for box in boxes)
    inside = np.zeros(len(keep), bool)
    for box, lines in boxes.items():
        if alike[box.tag, box.get("class") or ""] >= REVIEW_RUN:
            inside[lines] = True
    if not (keep & inside).any() or para.chars[keep & ~inside].sum() < REVIEW_PAGE_CHARS:
        return 0
    dropped = int((keep & inside).sum())
    keep &= ~inside
    barred |= inside
    return dropped


#: class or id words of a box of customers' reviews: a word starting with ``review``
#: (``reviews``, ``review-list``, ``reviewContainer``; not ``overview``, ``preview``) and
#: the review platforms' own (Yotpo, Judge.me's ``jdgm``, Okendo, Stamped, Bazaarvoice
#: and its ``bv-``, Trustpilot, PowerReviews' ``pr-review``, Loox); not a testimonial,
#: which the shop chose and shows as its own text (an expert's word on the product)
REVIEWS = re.compile(r"(?<![a-z])(?:review|yotpo|jdgm|okendo|stamped|bazaarvoice|bv[-_]|trustpilot|loox)")
#: reviews are dropped from a page keeping at least this many characters outside them
REVIEW_PAGE_CHARS = 200
#: customers' reviews are a run: at least this many boxes of one tag and class
REVIEW_RUN = 2
