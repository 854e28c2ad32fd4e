"""Useful-content detection across sibling pages (seed 004 §4.4, issue 6 item 3).

Seed 004's principle: on two pages built on the same template, the useful content is the
text that differs.  The seed tokenises the HTML tree (every token a leaf under the element
whose text it is), weighs each element by its differing tokens, back-propagates the
weights to the root and walks the weighted tree with heuristics to the *minimal element
holding the article body*.  Here:

* **Tokens** come from the shared blocks (:class:`detourage.model.Block`, one text run
  between two tags, attached to ``block.node``): tokens are ``\\w+`` runs, one per
  character in scripts written without spaces (the seed's "token" is the word).
* **Pairing** (seed: "XPath … et les mêmes attributs"): a block is identified by
  :attr:`BlockText.xpath`, the positional XPath of its element plus the element's id and
  classes, and by :attr:`BlockText.key`, the same path without positions (robust to a
  paragraph more or less above it).  Digit runs are folded to ``0`` in attributes and in
  the compared text, so that "12 comments" and "3 comments" are the same template text.
* **Differing text** (:func:`weights`): a block weighs 0 when its text recurs at the same
  :attr:`~BlockText.key` on another page of the template (the seed: "un texte issu de
  template sera strictement le même quelle que soit la page"); otherwise it weighs its
  tokens × (1 − cos), the cosine (seed: "similarité cosinus") between its text and the
  text at the same XPath of the reference page (the cluster's pivot), 1 − 0 when the
  reference has nothing there.
* **Common text** (:func:`common_text`): the blocks whose text most of the template's
  other articles hold at the same key — what the ``template`` method's filter drops from
  a single-page method's output (the weights above call a text held by one other page
  template text; the filter asks for more, see :func:`common_text`).
* **Selection** (:func:`select`): weights are summed up the tree (the seed's
  back-propagation); comment and gallery elements (id or class, seed: "commentaires",
  "gallery") and the elements a reader cannot see weigh nothing.  Among the elements
  holding at least :attr:`ContentOptions.floor` (the seed's 2 %) of the page's differing text,
  the body is the one with the largest *differential* — its weight minus its heaviest
  child's, the seed's "différentiel de poids", the text it gathers beyond any one child —
  so that an element holding many differing paragraphs wins over both one paragraph and
  an ancestor that adds little.  The title is the heading (h1–h3) nearest before the body,
  outside it, whose text differs (the seed's "premier élément … le titre", ranked by
  offset, smaller than the body).  The blocks kept are those inside the body and the
  title; with :attr:`ContentOptions.prune` the body's template text (identical on siblings:
  "share", "read more") is dropped too.

The reference data — recurring (key, text) pairs and the pivot's texts by XPath — is a
:class:`Reference`, built by :mod:`detourage.site.template` from a template's pages.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from lxml import etree

from ..model import Block, Page
from ..parse import nearest_above

#: characters of scripts written without spaces: each is a token
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")
_DIGITS = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")
#: ids and classes of the elements seed 004 drops before choosing: comments and photo
#: galleries (their captions are much differing text), in the languages of the shared data
#: and common CMS names
NOISE = re.compile(r"comment|komment|коммент|σχολι|评论|disqus|gallery|galer|diaporama|"
                   r"slideshow|carousel", re.IGNORECASE)
HEADINGS = ("h1", "h2", "h3")


def tokens(text: str) -> list[str]:
    """The seed's tokens: word runs, each CJK character alone; lower case."""
    return _TOKEN.findall(text.lower())


def normalise(text: str) -> str:
    """Text as compared between pages: lower case, digit runs as 0, spaces collapsed."""
    return _SPACE.sub(" ", _DIGITS.sub("0", text.lower())).strip()


def digest(text: str) -> str:
    """A stable 64-bit hash (hex) of a normalised text."""
    return hashlib.blake2b(normalise(text).encode("utf-8"), digest_size=8).hexdigest()


def cosine(a: str, b: str) -> float:
    """Cosine of the token bags of two texts (1 for two equal texts, 0 if one is empty)."""
    if normalise(a) == normalise(b):
        return 1.0
    ca, cb = Counter(tokens(_DIGITS.sub("0", a))), Counter(tokens(_DIGITS.sub("0", b)))
    if not ca or not cb:
        return 0.0
    dot = sum(n * cb[t] for t, n in ca.items())
    return dot / math.sqrt(sum(n * n for n in ca.values()) * sum(n * n for n in cb.values()))


# ------------------------------------------------------------------------ block identities


def _attrs(el: etree._Element) -> str:
    """An element's id and sorted class tokens, digit runs folded."""
    ident = _DIGITS.sub("0", el.get("id") or "")
    classes = sorted({_DIGITS.sub("0", c) for c in (el.get("class") or "").split()})
    return f"{ident}.{'.'.join(classes)}" if ident or classes else ""


@dataclass(frozen=True, slots=True)
class BlockText:
    """What the comparison needs of one block."""

    #: the element's path without positions: tag[#id.classes]/… from the root
    key: str
    #: the positional XPath of the element, with its own id and classes
    xpath: str
    #: :func:`digest` of the block text
    digest: str
    #: number of tokens
    tokens: int


def block_texts(page: Page) -> list[BlockText]:
    """The identities of the page's blocks, in block order."""
    if page.tree is None:
        return []
    root = page.tree.getroottree()
    keys: dict[etree._Element, str] = {}
    attrs: dict[etree._Element, str] = {}

    def key_of(el: etree._Element) -> str:
        known = keys.get(el)
        if known is not None:
            return known
        parent = el.getparent()
        tag = el.tag if isinstance(el.tag, str) else "?"
        own = attrs[el] = _attrs(el) if el.get("id") or el.get("class") else ""
        label = f"{tag}[{own}]" if own else tag
        out = label if parent is None else f"{key_of(parent)}/{label}"
        keys[el] = out
        return out

    out = []
    for block in page.blocks:
        node = block.node
        key = key_of(node)
        out.append(BlockText(key, f"{root.getpath(node)}#{attrs[node]}",
                             digest(block.text), len(tokens(block.text))))
    return out


def recurring_pairs(texts: Iterable[BlockText]) -> set[str]:
    """The distinct (key, text) pairs of one page, as stored in a :class:`Reference`."""
    return {f"{t.key}\t{t.digest}" for t in texts if t.tokens}


@dataclass(frozen=True, slots=True)
class Reference:
    """What a page is compared with: a template's recurring texts and its pivot's texts.

    ``recurring`` maps "key\\tdigest" to the number of the template's pages holding that
    text at that key (only pairs held by at least two pages are kept); ``pivot`` maps the
    reference page's XPaths to their text.
    """

    recurring: Mapping[str, int] = field(default_factory=dict)
    pivot: Mapping[str, str] = field(default_factory=dict)
    #: when the compared page was one of the template's pages, its own (key, text) pairs
    #: are discounted (a text it holds twice is not template text)
    own: frozenset[str] = frozenset()
    #: the template's articles (groups of copies) other than the compared page's own
    others: int = 0


def held(texts: Sequence[BlockText], reference: Reference) -> list[int]:
    """For each block, how many of the template's other articles hold its text at its
    :attr:`~BlockText.key` (0 for a block without tokens)."""
    out = []
    for t in texts:
        pair = f"{t.key}\t{t.digest}"
        out.append(reference.recurring.get(pair, 0) - (pair in reference.own) if t.tokens else 0)
    return out


def common_text(texts: Sequence[BlockText], reference: Reference, *, at_least: int,
                share: float) -> list[bool]:
    """Which blocks are the site's common text: held at their place by at least
    ``at_least`` of the template's other articles and by at least ``share`` of them.

    ``at_least`` 2 rather than 1: two pages holding one text are as often one article
    published twice (under two URLs, with other sidebars) as a template."""
    if reference.others <= 0:
        return [False] * len(texts)
    need = max(at_least, math.ceil(share * reference.others))
    return [n >= need for n in held(texts, reference)]


def pivot_texts(page: Page, texts: Sequence[BlockText]) -> dict[str, str]:
    """XPath → text of a reference page's blocks (texts of one element joined)."""
    out: dict[str, list[str]] = {}
    for block, t in zip(page.blocks, texts, strict=True):
        if t.tokens:
            out.setdefault(t.xpath, []).append(block.text)
    return {k: " ".join(v) for k, v in out.items()}


def weights(page: Page, texts: Sequence[BlockText], reference: Reference) -> list[float]:
    """Each block's differing tokens (see the module's docstring)."""
    out = []
    by_xpath: dict[str, list[int]] = {}
    for i, t in enumerate(texts):
        by_xpath.setdefault(t.xpath, []).append(i)
    cos_cache: dict[str, float] = {}
    for t, n in zip(texts, held(texts, reference), strict=True):
        if not t.tokens or n >= 1:
            out.append(0.0)
            continue
        other = reference.pivot.get(t.xpath)
        if other is None:
            out.append(float(t.tokens))
            continue
        if t.xpath not in cos_cache:
            mine = " ".join(page.blocks[i].text for i in by_xpath[t.xpath])
            cos_cache[t.xpath] = cosine(mine, other)
        out.append(t.tokens * (1.0 - cos_cache[t.xpath]))
    return out


# ------------------------------------------------------------------------------ selection


@dataclass(frozen=True, slots=True, kw_only=True)
class ContentOptions:
    """How the body element is chosen."""

    #: share of the page's differing text an element must hold to be a candidate (seed: 2 %)
    floor: float = 0.02
    #: keep the heading nearest before the body, when its text differs
    title: bool = True
    #: drop the body's blocks whose text is template text
    prune: bool = False
    #: drop the body's paragraphs whose text is more than this share link text (1: keep all)
    links: float = 1.0


@dataclass(frozen=True, slots=True)
class Selection:
    """The outcome of :func:`select`: which blocks are kept, and why."""

    keep: tuple[bool, ...]
    body: etree._Element | None
    title: etree._Element | None
    #: the page's differing tokens, and the body's
    differing: float
    body_differing: float


def _noise(el: etree._Element) -> bool:
    value = f"{el.get('id') or ''} {el.get('class') or ''}"
    return bool(value.strip()) and NOISE.search(value) is not None


def select(page: Page, weight: Sequence[float], options: ContentOptions = ContentOptions()) -> Selection:
    """Choose the body (and title) element from the blocks' differing weights."""
    n = len(page.blocks)
    total = _totals(page, weight) if page.tree is not None else {}
    if not total:
        return Selection((False,) * n, None, None, 0.0, 0.0)
    page_total = max(total.values())
    body = _body(total, options.floor * page_total)
    inside = [_inside(b.node, body) for b in page.blocks]
    title = _title(page, body, inside, weight) if options.title else None
    linky = _link_paragraphs(page.blocks, options.links) if options.links < 1 else set()
    keep = []
    for i, block in enumerate(page.blocks):
        k = inside[i] and block.paragraph not in linky
        if k and options.prune and weight[i] <= 0 and block.text.strip():
            k = False
        keep.append(k or (title is not None and _inside(block.node, title)))
    return Selection(tuple(keep), body, title, page_total, total[body])


def _totals(page: Page, weight: Sequence[float]) -> dict[etree._Element, float]:
    """Each element's differing tokens, summed up from its blocks (the seed's
    back-propagation), blocks inside comment and gallery elements left out."""
    noisy: dict[etree._Element, etree._Element | None] = {}  # each element's noise box, found once

    def noise(el: etree._Element) -> bool:
        return el.tag not in ("html", "body") and _noise(el)

    total: dict[etree._Element, float] = {}
    for block, w in zip(page.blocks, weight, strict=True):
        if w <= 0 or nearest_above(block.node, noise, noisy) is not None:
            continue
        el: etree._Element | None = block.node
        while el is not None:
            total[el] = total.get(el, 0.0) + w
            el = el.getparent()
    return total


def _body(total: Mapping[etree._Element, float], floor: float) -> etree._Element:
    """The element above ``floor`` with the largest differential (its weight minus its
    heaviest child's); on ties the deeper one."""
    heaviest_child: dict[etree._Element, float] = {}
    for el, w in total.items():
        parent = el.getparent()
        if parent is not None and w > heaviest_child.get(parent, 0.0):
            heaviest_child[parent] = w
    body, best = None, -1.0
    for el, w in total.items():
        if w < floor or el.tag == "a":
            continue
        diff = w - heaviest_child.get(el, 0.0)
        if diff > best or (diff == best and body is not None and _inside(el, body)):
            body, best = el, diff
    assert body is not None  # the root holds every weight, and is above any floor ≤ 1
    return body


def _link_paragraphs(blocks: Sequence[Block], limit: float) -> set[int]:
    """The paragraphs whose share of characters inside links is above ``limit``."""
    chars: dict[int, list[int]] = {}
    for b in blocks:
        c = chars.setdefault(b.paragraph, [0, 0])
        c[0] += b.link_chars
        c[1] += len(b.text.strip())
    return {p for p, (link, total) in chars.items() if total and link / total > limit}


def _inside(el: etree._Element, ancestor: etree._Element) -> bool:
    cur: etree._Element | None = el
    while cur is not None:
        if cur is ancestor:
            return True
        cur = cur.getparent()
    return False


def _title(page: Page, body: etree._Element, inside: Sequence[bool],
           weight: Sequence[float]) -> etree._Element | None:
    """The heading nearest before the body, outside it, with differing text."""
    first = next((i for i, k in enumerate(inside) if k), None)
    if first is None:
        return None
    for i in range(first - 1, -1, -1):
        block = page.blocks[i]
        if weight[i] <= 0:
            continue
        for tag in HEADINGS:
            if tag in block.path:
                el: etree._Element | None = block.node
                while el is not None and el.tag != tag:
                    el = el.getparent()
                return el
    return None


def kept_blocks(blocks: Iterable[Block], keep: Iterable[bool]) -> list[Block]:
    """The kept blocks (for reports and tests)."""
    return [b for b, k in zip(blocks, keep, strict=True) if k]
