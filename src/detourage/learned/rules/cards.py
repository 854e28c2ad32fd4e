"""A run of cards read whole: on a listing, a collection or a blog's front page the
content is the run of repeated cards (a title, a date, a teaser, a price), and a model
that keeps each card's teaser while it lets its title go (a line that is one link) cuts
every card in half.  :func:`keep_whole_cards` gives each card of a run the model mostly
kept the parts the cards share.  On a product page a run of cards with a price each is
the shop's other products, and :func:`drop_product_carousels` leaves it out."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from lxml import etree

from ...model import Page
from .. import features
from ..pagetype import PRICE_LINE, price_in
from .paragraphs import lower_case


def keep_whole_cards(page: Page, para: features.Paragraphs, keep: np.ndarray, closed: np.ndarray,
                     probability: np.ndarray) -> int:
    """Keep, in each card of a run the model mostly kept, the lines of the parts that at
    least half of the run's cards hold (the :data:`CARD_PARTS` the model ranks best);
    how many lines were added.

    A run is a structure (:attr:`~detourage.learned.features.Paragraphs.signature`: the
    teasers, the posts) repeated at least :data:`CARDS` times whose text the model kept
    at least :data:`CARD_SHARE` of.  Its cards are the children of the element holding
    every line of it, each holding some of them and none more than half.  A part is a
    structure inside the cards (their titles, their dates); one that half the cards hold
    is the cards' own, where a box inserted between two cards (an advertisement, a
    sign-up form) is not; of those the model left out, the few it ranks best (by their
    mean ``probability``) are the title, the date, the price, where a shop's card also
    holds a dozen lines of product data for the screen readers.  What a step left out
    (``closed``: comments, related boxes) stays out."""
    if not keep.any():
        return 0
    signature = para.signature
    weight = para.chars + 1.0
    total = np.bincount(signature, weight)
    kept = np.bincount(signature, weight * keep, minlength=len(total))
    count = np.bincount(signature)
    runs = ((count >= CARDS) & (kept >= CARD_SHARE * total)).nonzero()[0]
    added = 0
    for run in runs.tolist():
        added += _complete(page, para, (signature == run).nonzero()[0], keep, closed, probability)
    return added


#: a structure repeated at least this many times…
CARDS = 3
#: …whose text the model kept at least this share of is a run of cards
CARD_SHARE = 0.5
#: the most parts of its cards a run gets back
CARD_PARTS = 3


def _complete(page: Page, para: features.Paragraphs, members: np.ndarray, keep: np.ndarray,
              closed: np.ndarray, probability: np.ndarray) -> int:
    """Keep the shared parts of the cards holding ``members`` (the lines of one run)."""
    nodes = [node_of(page, para, i) for i in members.tolist()]
    holder = _common_ancestor(nodes)
    if holder is None:
        return 0
    cards = cards_of(holder, nodes)
    if not cards:
        return 0
    lines = lines_of(page, para, holder, int(members[0]), int(members[-1]))
    card_of = {j: _place(holder, node_of(page, para, j)) for j in lines}
    holders: dict[int, set[int]] = {}
    for j, card in card_of.items():
        if card in cards:
            holders.setdefault(int(para.signature[j]), set()).add(card)
    needed = max(CARDS, (len(cards) + 1) // 2)
    wanted = [j for j in lines if not (keep[j] or closed[j] or para.chars[j] == 0 or card_of[j] not in cards
                                       or len(holders[int(para.signature[j])]) < needed)]
    parts: dict[int, list[int]] = {}
    for j in wanted:
        parts.setdefault(int(para.signature[j]), []).append(j)
    best = sorted(parts.values(), key=lambda part: -float(probability[part].mean()))[:CARD_PARTS]
    chosen = [j for part in best for j in part]
    keep[chosen] = True
    return len(chosen)


def drop_product_carousels(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> int:
    """On a product page, leave out (and bar) each run of other products' cards: a
    structure repeated at least :data:`CARDS` times that is a short line holding a price
    (each card's price), whose cards look alike (:func:`cards_of`), and whose box holds
    neither the page's title nor most of the text the model kept ("customers also
    bought", "similar items", a shop's carousel of its other products), with the heading
    just before it; how many lines were left out.  The product's own price is one line,
    no run; at least :data:`CARD_SHARE` of the box's children must be cards holding a
    price, and a table's row of prices (or a grid of cells, few of them prices) compares
    the product with others, and stays."""
    if not keep.any():
        return 0
    lowered = lower_case(para)
    priced = [i for i, line in enumerate(lowered) if len(line) <= PRICE_LINE and price_in(line)]
    if len(priced) < CARDS:
        return 0
    by_structure: dict[int, list[int]] = {}
    for i in priced:
        by_structure.setdefault(int(para.signature[i]), []).append(i)
    title = para.title_index
    weight = para.chars * keep
    total = float(weight.sum())
    dropped = 0
    runs = [run for members in by_structure.values() if len(members) >= CARDS
            for run in runs_of(members, [node_of(page, para, i) for i in members])]
    for members, holder, nodes in runs:
        if _in_table(holder) or len(cards_of(holder, nodes, classes=False)) < CARD_SHARE * len(holder):
            continue
        lines = lines_of(page, para, holder, members[0], members[-1])
        first, end = lines[0], lines[-1] + 1
        if first <= title < end or float(weight[first:end].sum()) > CAROUSEL_SHARE * total:
            continue
        if first > 0 and para.heading[first - 1] and first - 1 != title:
            first -= 1  # the carousel's heading ("Similar items") goes with it
        dropped += int(keep[first:end].sum())
        keep[first:end] = False
        barred[first:end] = True
    return dropped


#: a run of one structure's lines: their paragraphs, the box holding them, their nodes
Run = tuple[list[int], etree._Element, list[etree._Element]]


def runs_of(members: list[int], nodes: list[etree._Element]) -> list[Run]:
    """The lines of one structure (``members``, their ``nodes``) split by the box each run
    of them lies in: a line's box is its nearest ancestor holding at least :data:`CARDS`
    of them (a page's two carousels are two runs, not one box holding the page); each run
    with its box and its lines' nodes, in document order.  Lines in no such box are in
    no run."""
    chains = [list(node.iterancestors()) for node in nodes]  # nearest first; the proxies stay alive
    counts: dict[int, int] = {}
    for chain in chains:
        for ancestor in chain:
            counts[id(ancestor)] = counts.get(id(ancestor), 0) + 1
    runs: dict[int, Run] = {}
    for i, node, chain in zip(members, nodes, chains):
        box = next((a for a in chain if counts[id(a)] >= CARDS), None)
        if box is not None:
            run = runs.setdefault(id(box), ([], box, []))
            run[0].append(i)
            run[2].append(node)
    return list(runs.values())


def _in_table(el: etree._Element) -> bool:
    """Whether ``el`` is a table's part or lies inside a table."""
    return el.tag in ("table", "thead", "tbody", "tfoot", "tr", "td", "th") or \
        next(el.iterancestors("table"), None) is not None


#: a run of product cards holding more than this share of the kept text is the page's
#: content (a product page that is a list of its variants), not a carousel beside it
CAROUSEL_SHARE = 0.5


def cards_of(holder: etree._Element, nodes: Sequence[etree._Element], classes: bool = True) -> set[int]:
    """The cards of a run (by their place among ``holder``'s children): the children of ``holder`` holding its lines
    (``nodes``), when at least :data:`CARDS` of them look alike (one tag and class, that
    of at least :data:`ALIKE` of them) and hold each at most two of its lines on average
    (a card holds one teaser; a list of a policy's clauses is no run of cards), else none.
    Without ``classes`` the tag alone is compared (a carousel marks every few cards
    with a class of its own)."""
    held = [_child_towards(holder, node) for node in nodes]
    distinct = {holder.index(card): card for card, node in zip(held, nodes) if card is not None and card is not node}
    if len(distinct) < CARDS or len(nodes) > 2 * len(distinct):
        return set()
    looks = [(card.tag, card.get("class") if classes else None) for card in distinct.values()]
    common = max(set(looks), key=looks.count)
    if looks.count(common) < ALIKE * len(looks):
        return set()
    return {place for place, look in zip(distinct, looks) if look == common}


#: the share of a run's cards that must look alike (one tag, one class)
ALIKE = 0.8


def node_of(page: Page, para: features.Paragraphs, i: int) -> etree._Element:
    return page.blocks[int(para.starts[i])].node


def _common_ancestor(nodes: Sequence[etree._Element]) -> etree._Element | None:
    """The deepest element holding every one of ``nodes`` (and none of them itself)."""
    chain = list(nodes[0].iterancestors())[::-1]  # root first
    depth = len(chain)
    for node in nodes[1:]:
        ancestors = list(node.iterancestors())[::-1]
        shared = 0
        for a, b in zip(chain[:depth], ancestors):
            if a is not b:
                break
            shared += 1
        depth = shared
        if depth == 0:
            return None
    return chain[depth - 1]


def _place(holder: etree._Element, node: etree._Element) -> int:
    """The place among ``holder``'s children of the one holding ``node``; -1 for none
    (an element's Python object is made anew on each access, so its ``id`` is no key)."""
    child = _child_towards(holder, node)
    return -1 if child is None else holder.index(child)


def _child_towards(holder: etree._Element, node: etree._Element) -> etree._Element | None:
    """The child of ``holder`` that holds ``node`` (``node`` itself if it is one), or None
    when ``node`` is not below ``holder``."""
    child = node
    for parent in node.iterancestors():
        if parent is holder:
            return child
        child = parent
    return None


def lines_of(page: Page, para: features.Paragraphs, holder: etree._Element, first: int, last: int) -> list[int]:
    """The paragraphs from the first of ``holder``'s cards to its last: ``first`` and
    ``last`` (the run's) widened while the paragraph beside is still below ``holder``."""
    below = _below(holder)
    while first > 0 and below(node_of(page, para, first - 1)):
        first -= 1
    while last + 1 < len(para.texts) and below(node_of(page, para, last + 1)):
        last += 1
    return list(range(first, last + 1))


def _below(holder: etree._Element) -> Callable[[etree._Element], bool]:
    """Whether an element lies below ``holder``."""
    def test(node: etree._Element) -> bool:
        return any(a is holder for a in node.iterancestors())
    return test
