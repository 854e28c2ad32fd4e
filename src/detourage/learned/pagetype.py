"""What kind of page this is: an article, a forum thread, a product, a collection of
products, a listing of stories, a documentation page or a service's landing page.

The kind changes how much the learned extractor keeps (:data:`THRESHOLD_SHIFT`): an
article's text is one column of sentences, and a line the model doubts is more often
boilerplate than not; a listing's content is its run of short cards (a title, a date, a
teaser), a service page's its sections of short claims, a documentation page's its
short lines of code and parameters — lines a model trained mostly on articles doubts.

:func:`guess` reads what the page says of itself first (JSON-LD and microdata types,
``og:type``), then its address (``/forum/``, ``/docs/``, ``/products/``,
``/collections/``, a site's home page; the one the page declares, ``<link rel=canonical>``
or ``og:url``, when the caller gives none), then its text (prices, code); what nothing names
is an article, the kind that costs nothing when wrong.  A user who knows better forces
the kind (``page_type`` of the learned method's options, ``--page-type`` on the command
line).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, urlsplit

if TYPE_CHECKING:  # the kinds are read by the command line, which loads no numpy for them
    from . import features

#: the kinds, as WCXB names its page types
TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")

#: the decision threshold's shift on each kind: a lower threshold keeps more of the lines
#: the model doubts (the ``recall`` side of ``favor``, on the kinds whose content is made
#: of short lines)
THRESHOLD_SHIFT = {
    "article": 0.0, "forum": 0.0, "product": 0.0, "collection": -0.2, "listing": -0.2,
    "documentation": -0.1, "service": -0.1,
}


def address(page_url: str | None, para: features.Paragraphs) -> str | None:
    """The page's address: the URL it was fetched from when the caller gives one, else
    the one it gives itself (``<link rel=canonical>``, ``og:url``: :attr:`Paragraphs.address
    <detourage.learned.features.Paragraphs.address>`), as a benchmark's harness or a
    crawl's record without its URL leaves it, else None."""
    return page_url or para.address or None


def guess(page_url: str | None, para: features.Paragraphs) -> tuple[str, str]:
    """The page's kind and what told it: ``declared`` (its JSON-LD, microdata or
    ``og:type``), ``address`` (its URL, or where none is given the one it declares:
    :func:`address`), ``text`` (prices, code), or ``default``.

    A forum or documentation type the page declares comes first; then the address, which
    names a kind more surely than the ``Article`` every blog engine and documentation
    theme declares of every page; then that ``Article``, which also wins over the lists
    and products an article holds (a "best of" article declares an ``ItemList`` of
    ``Product`` s); then the other declared kinds, a site's home page (a service's
    landing page), the text."""
    types = para.types
    page_url = address(page_url, para)
    if types & _FORUM_TYPES:
        return "forum", "declared"
    if types & _DOC_TYPES:
        return "documentation", "declared"
    addressed = _addressed(page_url)
    if addressed == "shop":  # a shop's address holds its catalogue and its products
        return ("product" if _one_product(types) else "collection"), "address"
    if addressed:
        return addressed, "address"
    declared = _declared(types)
    if declared:
        return declared, "declared"
    if home(page_url):
        return "service", "address"
    shown = _shown(para)
    if shown:
        return shown, "text"
    return "article", "default"


def _declared(types: frozenset[str]) -> str:
    """The kind the page's declared types name, or "" (``WebPage``, ``Organization``…
    name none; an FAQ's ``Question`` s are no forum's)."""
    if types & _ARTICLE_TYPES:
        return "article"
    if types & _LIST_TYPES:
        return "collection" if types & _PRODUCT_TYPES else "listing"
    if types & _PRODUCT_TYPES:
        return "product"
    if types & _SERVICE_TYPES:
        return "service"
    return ""


def _one_product(types: frozenset[str]) -> bool:
    """Whether the declared types are one product on sale: a ``Product`` with an
    ``Offer``, in no list (a catalogue page declares an ``ItemList`` of them, a choice
    of models an ``AggregateOffer`` or no offer at all)."""
    return bool(types & _PRODUCT_TYPES) and "offer" in types and not types & _LIST_TYPES


_FORUM_TYPES = frozenset({"discussionforumposting", "qapage"})
_LIST_TYPES = frozenset({"itemlist", "collectionpage", "searchresultspage", "offercatalog"})
_PRODUCT_TYPES = frozenset({"product", "productgroup", "product.group", "product.item", "offer", "aggregateoffer"})
_DOC_TYPES = frozenset({"techarticle", "apireference"})
_ARTICLE_TYPES = frozenset({"article", "newsarticle", "blogposting", "reportage", "scholarlyarticle",
                            "analysisnewsarticle", "opinionnewsarticle", "reviewnewsarticle", "liveblogposting"})
_SERVICE_TYPES = frozenset({"service", "professionalservice", "financialservice", "legalservice",
                            "homeandconstructionbusiness", "movingcompany", "softwareapplication",
                            "webapplication"})


def _addressed(url: str | None) -> str:
    """The kind a URL's path or host names, ``shop`` (a shop's folder: a collection or a
    product) or ""."""
    parts = _split(url)
    if parts is None:
        return ""
    path = parts.path.lower()
    # a story's address names its section's words ("/c/2012/01/12/", "/article/item/253589-…")
    news = _NEWS_ADDRESS.search(path) is not None
    if _FORUM_QUERY.search(parts.query.lower()):  # Simple Machines' and Invision's "index.php?topic=123.0"
        return "forum"
    for kind, pattern in _ADDRESSES:
        if pattern.search(path) and not (news and kind != "listing"):
            return kind
    if news:
        return ""
    first = (parts.hostname or "").lower().split(".", 1)[0]
    if first in _FORUM_HOSTS:
        return "forum"
    if first in _DOC_HOSTS:
        return "documentation"
    return ""


def home(url: str | None) -> bool:
    """Whether ``url`` is a site's home page (no path, no query)."""
    parts = _split(url)
    return parts is not None and parts.path.strip("/") == "" and not parts.query


def _split(url: str | None) -> SplitResult | None:
    """``url``'s parts, or None for no URL and for one no parser reads (``http://[``: the
    page's own ``<link rel=canonical>`` is whatever its author wrote)."""
    if not url:
        return None
    try:
        return urlsplit(url)
    except ValueError:
        return None


_ADDRESSES = (
    ("forum", re.compile(r"/(?:forums?|threads?|discussions?|viewtopic|showthread|showtopic|boards?/)\b"
                         r"|/questions/\d|/r/\w+/comments/|/t/[^/]+/\d")),
    ("documentation", re.compile(r"/(?:docs?|documentation|reference|manual|api|sdk|quickstart"
                                 r"|getting-started)(?:/|$)|/library/[^/]+\.html?$")),
    ("product", re.compile(r"/(?:products?|p|dp|itm|item|listing|app)/[^/]*\d|/products?/[^/]+/?$")),
    ("collection", re.compile(r"/(?:collections?|category|categories|product-category|c|cat)/")),
    # the shop's own folder: its catalogue or one of its products, which the page tells
    ("shop", re.compile(r"/(?:shop|store)/")),
    ("listing", re.compile(r"^/(?:news|blog|blogs|jobs|careers|events|sections?|topics?|tags?|archives?)/?$"
                           r"|/(?:tag|tags|page)/")),
)

#: a story's address: a date as folders ("/2012/01/17/", "/201201/12/", "/2011-12-15/",
#: "/20120112/") or a folder naming stories; the other kinds' words in it are a news
#: site's sections ("/c/": its channel, "/item/", "/collection/"), no product nor forum
_NEWS_ADDRESS = re.compile(r"/(?:19|20)\d{2}(?:/\d{1,2}/|-\d{1,2}(?:-\d{1,2})?/|(?:0[1-9]|1[0-2])(?:\d{2})?/)"
                           r"|/(?:articles?|news|story|stories)/")

#: a forum engine's thread in the query: Simple Machines' ``?topic=589061.0`` (a topic and
#: the first post shown), Invision's ``?showtopic=123``; not a news site's ``&Topic=0``
_FORUM_QUERY = re.compile(r"(?:^|&)(?:topic=\d+\.\d+|showtopic=\d)")

_FORUM_HOSTS = frozenset({"forum", "forums", "community", "discuss", "discourse", "answers"})
_DOC_HOSTS = frozenset({"docs", "doc", "developer", "developers", "devdocs", "api", "learn", "manual"})


def _shown(para: features.Paragraphs) -> str:
    """The kind a page's text shows when nothing else names it: many lines that are a
    price (a collection), much code (documentation), or ""."""

    from .rules.paragraphs import column, lower_case

    if not len(para.texts):
        return ""
    # the short lines, joined by "\x1f" (which no block text holds): a page of 50 000
    # lines costs a few substring searches, not 50 000 calls.  A line lower-cased is at
    # least as long as its text ("İ" becomes two characters), so those of a longer text
    # are passed over, and _priced_lines measures the rest
    short = short_lines(para)
    lowered = lower_case(para)
    lines = "\x1f".join(map(lowered.__getitem__, short))
    if _priced_lines(lines, PRICES, PRICE_LINE) >= PRICES and _priced_span(para, lowered, short) >= PRICE_SPAN:
        return "collection"
    code = column(para, "dist_t_code") == 0
    if float(para.chars[code].sum()) >= CODE_SHARE * max(float(para.chars.sum()), 1.0):
        return "documentation"
    return ""


def short_lines(para: features.Paragraphs) -> list[int]:
    """The lines short enough to be a card's price (:data:`PRICE_LINE`); a drop-down's
    entries ("£500", "£1,000": a search form's price range) are no cards."""
    from .rules.paragraphs import OPTION_CODE, column

    return ((para.chars <= PRICE_LINE) & (column(para, "container_tag") != OPTION_CODE)).nonzero()[0].tolist()


def _priced_span(para: features.Paragraphs, lowered: list[str], lines: list[int]) -> float:
    """The share of the page's characters from the first of ``lines`` holding a price to
    the last: a shop's run of priced cards is much of its page, an advertiser's box of
    offers beside a story ("от 750 руб.", nine of them under the article) a small part.
    Read only on the few pages with :data:`PRICES` priced lines."""
    priced = [i for i in lines if price_in(lowered[i])]
    if not priced:
        return 0.0
    return float(para.chars[priced[0]:priced[-1] + 1].sum()) / max(float(para.chars.sum()), 1.0)


def _priced_lines(lines: str, most: int, longest: int | None = None) -> int:
    """How many of ``lines`` (joined by "\x1f") hold a price, counted up to ``most`` (and
    of those only the lines of at most ``longest`` characters, when given).  Every price
    holds a currency's sign or code (:data:`_CURRENCY_MARKS`): only the lines where one
    is found are searched, so that a page pays a few substring searches, not a regular
    expression tried at each of its digits."""
    starts: set[int] = set()
    for mark in _CURRENCY_MARKS:
        at = lines.find(mark)
        while at >= 0:
            starts.add(lines.rfind("\x1f", 0, at) + 1)
            at = lines.find("\x1f", at)  # on to the next line
            at = lines.find(mark, at) if at >= 0 else -1
    count = 0
    for start in sorted(starts):
        end = lines.find("\x1f", start)
        end = len(lines) if end < 0 else end
        if longest is not None and end - start > longest:
            continue
        if _PRICE_RE.search(lines, start, end) is not None:
            count += 1
            if count == most:
                break
    return count


def price_in(line: str) -> bool:
    """Whether a lower-cased line holds a price ("$12.99", "12,99 €", "1 200 руб")."""
    return _PRICE_RE.search(line) is not None


#: a short line holding a price…
PRICE_LINE = 40
#: a currency's sign before or after the amount ("$12", "12,99 €", "₹499")
_SIGNS = "$€£¥₹"
#: ISO codes written before or after the amount ("USD 55.25", "12 EUR")
_CODES = ("usd", "eur", "gbp")
#: what is written only after the amount ("12 zł", "1 200 руб")
_AFTER = ("zł", "kč", "руб")
_PRICE = (rf"(?:[{re.escape(_SIGNS)}][^\S\x1f]?\d"
          rf"|(?<!\w)(?:{'|'.join(_CODES)})[^\S\x1f]?\d"
          rf"|\d(?:[.,]\d{{2}})?[^\S\x1f]?(?:[{re.escape(_SIGNS)}]|{'|'.join(_CODES + _AFTER)})(?!\w))")
_PRICE_RE = re.compile(_PRICE)
#: what every match of ``_PRICE`` holds, one of them at least: each is a substring search
#: of a page's short lines (about 2 µs on a shop's page), so the list stays short
_CURRENCY_MARKS = (*_SIGNS, *_CODES, *_AFTER)
#: …this many times is a shop's list of products…
PRICES = 8
#: …when they span at least this share of the page's text, from the first to the last
#: (the shared pages' collections told by their prices span 0.15 and more, the news
#: pages' boxes of offers 0.10 and less: ``benchmarks/studies/priced_pages.py``)
PRICE_SPAN = 0.12
#: code holding this share of the page's text is documentation
CODE_SHARE = 0.25
