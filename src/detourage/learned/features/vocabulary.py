"""The class/id/role/itemprop vocabulary and the tag groups that name kinds of regions
(navigation, comments, content…), the container tags, the page types, and the bits the
ancestor walk reads of an element's words."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress
from typing import Any

from lxml import etree

from ...compiled import optional

#: class/id/role/itemprop vocabulary: group → words matched at a token start (a letter
#: ``a``–``z`` after anything else) of the lower-cased string; a word ending in ``$`` only
#: where no letter follows it (``tab`` in ``tab-2``, not in ``table``)
CLASS_GROUPS: dict[str, tuple[str, ...]] = {
    "nav": ("nav", "menu", "breadcrumb", "pagination", "pager", "toolbar", "topbar", "skip", "dropdown",
            "tab$", "tabs$"),
    "footer": ("foot", "copyright", "colophon", "legal", "bottom", "contentinfo", "disclaimer"),
    "header": ("header", "masthead", "banner", "branding", "logo", "site-title", "sitetitle"),
    "sidebar": ("sidebar", "side", "aside", "widget", "rail", "complementary", "secondary", "sticky"),
    "comment": ("comment", "reply", "replies", "respond", "discuss", "disqus", "feedback", "conversation"),
    "social": ("share", "sharing", "social", "facebook", "twitter", "follow", "subscri", "newsletter", "signup",
               "whatsapp", "pinterest", "linkedin"),
    "related": ("related", "recommend", "popular", "trending", "more", "also", "next", "prev", "teaser",
                "suggest", "outbrain", "taboola"),
    "ad": ("ad$", "ads$", "advert", "adsense", "adslot", "sponsor", "promo", "dfp", "doubleclick", "commercial",
           "affiliate"),
    "content": ("article", "content", "post", "entry", "story", "body", "text", "main", "blog", "prose",
                "markdown", "rte", "rich"),
    "meta": ("meta", "byline", "author", "date", "time", "tag$", "tags$", "categor", "publish", "dateline",
             "stamp", "info"),
    "media": ("caption", "credit", "gallery", "photo", "image", "img", "figure", "slide", "carousel", "video",
              "media", "lightbox", "thumb"),
    "overlay": ("hidden", "hide", "modal", "popup", "cookie", "consent", "overlay", "dialog", "gdpr", "notice",
                "alert", "sr-only", "visually", "screen-reader", "screenreader"),
    "title": ("title", "headline", "heading", "hed$"),
    "forum": ("message", "thread", "topic", "forum", "postbody", "bbcode", "quote", "answer", "question"),
    "product": ("product", "price", "descr", "spec", "detail", "review", "rating", "cart", "buy", "sku", "offer"),
    "card": ("card", "item", "tile", "grid", "list", "result", "feed", "col$", "column", "excerpt", "summary"),
    "doc": ("doc$", "docs$", "documentation", "toc$", "api$", "reference", "manual", "guide", "highlight",
            "code"),
}


def group_pattern(words: Sequence[str]) -> str:
    """A group's words as one regular expression (without the token-start condition)."""
    return "|".join(re.escape(w[:-1]) + "(?![a-z])" if w.endswith("$") else re.escape(w) for w in words)


#: tag groups of the same ancestor walk
TAG_GROUPS: dict[str, frozenset[str]] = {
    "t_article": frozenset({"article"}),
    "t_main": frozenset({"main"}),
    "t_aside": frozenset({"aside"}),
    "t_nav": frozenset({"nav", "menu"}),
    "t_footer": frozenset({"footer"}),
    "t_header": frozenset({"header"}),
    "t_form": frozenset({"form", "fieldset", "select", "button", "label", "option", "textarea"}),
    "t_table": frozenset({"table"}),
    "t_list": frozenset({"ul", "ol", "dl", "menu"}),
    "t_quote": frozenset({"blockquote", "q"}),
    "t_figure": frozenset({"figure", "figcaption", "picture"}),
    "t_section": frozenset({"section"}),
    "t_heading": frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "hgroup"}),
    "t_code": frozenset({"pre", "code"}),
    "t_link": frozenset({"a"}),
    "t_address": frozenset({"address", "time"}),
}


GROUPS = (*CLASS_GROUPS, *TAG_GROUPS)


_DISTANCE_NAMES = tuple(f"dist_{g}" for g in GROUPS)


_TAG_BITS: dict[str, int] = {}


for _i, _tags in enumerate(TAG_GROUPS.values()):
    for _t in _tags:
        _TAG_BITS[_t] = _TAG_BITS.get(_t, 0) | 1 << (len(CLASS_GROUPS) + _i)


#: container tags worth a flag of their own
CONTAINER_TAGS = ("p", "div", "li", "td", "th", "span", "h1", "h2", "h3", "h4", "h5", "h6", "a",
                  "pre", "blockquote", "dd", "dt", "section", "article", "font", "center", "figcaption",
                  "caption", "label", "button", "option", "b", "strong", "em", "i", "small", "time",
                  "cite", "header", "footer", "nav", "aside", "form", "table", "tr", "ul", "ol", "img",
                  "main", "body")


_TAG_CODE = {t: i + 1 for i, t in enumerate(CONTAINER_TAGS)}


_HEADING_LEVEL = {f"h{i}": i for i in range(1, 7)}


_LIST = frozenset({"li", "dd", "dt"})


_CELL = frozenset({"td", "th"})


#: JSON-LD / og:type words → page-type flags
PAGE_TYPES = {
    "article": ("article", "newsarticle", "blogposting", "reportage", "scholarlyarticle", "techarticle"),
    "product": ("product", "offer", "aggregateoffer", "productgroup"),
    "forum": ("discussionforumposting", "qapage", "question", "socialmediaposting", "comment"),
    "listing": ("itemlist", "collectionpage", "searchresultspage", "offercatalog"),
    "howto": ("recipe", "howto", "faqpage", "course", "event", "jobposting"),
}


LEVELS = 5  # the container and four ancestors


#: the attributes whose words the vocabulary reads
_VOCABULARY_ATTRIBUTES = ("class", "id", "role", "itemprop")


def _own_bits(el: etree._Element, tag_bits: dict[str, int], vocabulary: Callable[[str], int]) -> int:
    """The groups an element's own tag and class/id/role/itemprop vocabulary name."""
    tag = el.tag
    bits = tag_bits.get(tag, 0) if isinstance(tag, str) else 0
    keys = el.keys()
    if not keys:
        return bits
    words = " ".join(el.get(k) or "" for k in _VOCABULARY_ATTRIBUTES if k in keys)
    return bits | vocabulary(words) if words else bits


@lru_cache(maxsize=1 << 16)
def _vocabulary_bits(words: str) -> int:
    """Class-group bits of a class/id/role/itemprop string (class names recur across pages).

    A group's words start at a token start (a letter after a non-letter) and span at most
    :data:`_WINDOW` - 1 characters and a look-ahead one, so the groups found at a token
    start depend on the window there only; windows (``content``, ``nav-item``…) recur
    across class strings far more than whole strings do, and are looked up once each.
    """
    words = words.lower()
    bits = 0
    for m in _TOKEN_START.finditer(words):
        p = m.start()
        bits |= _window_bits(words[p:p + _WINDOW])
    return bits


@lru_cache(maxsize=1 << 16)
def _window_bits(window: str) -> int:
    """Bits of the groups whose words begin ``window`` (a token start): one match of
    every group's look-ahead, each capturing when its group's words are there."""
    return sum(compress(_GROUP_BITS, _GROUPS_AT_START.match(window).groups()))  # type: ignore[union-attr, arg-type]  # look-aheads: it always matches


def names_group(words: str, group: str) -> bool:
    """Whether a class/id/role/itemprop string names ``group`` (a key of
    :data:`CLASS_GROUPS`), as the features read it."""
    return bool(_vocabulary_bits(words) & 1 << list(CLASS_GROUPS).index(group))


@lru_cache(maxsize=1)
def compiled_vocabulary() -> Any:  # a compiled Vocabulary (the compiled modules have no stubs)
    """The twin of :func:`_vocabulary_bits` in C (``_cfeatures.Vocabulary``): the compiled
    walk matches the attribute values' bytes without making a Python string of them."""
    assert _cfeatures is not None  # called only by the compiled walk
    return _cfeatures.Vocabulary([(w.removesuffix("$"), 1 << j, w.endswith("$"))
                                  for j, words in enumerate(CLASS_GROUPS.values()) for w in words])


_TOKEN_START = re.compile(r"(?<![a-z])[a-z]")


#: longer than any group's word plus its look-ahead character (checked by the tests)
_WINDOW = 16


_GROUPS_AT_START = re.compile("".join(f"(?:(?=({group_pattern(w)})))?" for w in CLASS_GROUPS.values()))


_GROUP_BITS = [1 << j for j in range(len(CLASS_GROUPS))]


_cfeatures = optional("learned._cfeatures")
