"""Features of every paragraph of a page, in one float matrix.

The unit is the paragraph view of the shared blocks (:attr:`Block.paragraph`).  Features
are meant to carry across sites and languages; every group answers one question a reader
asks of a line:

``text``
    its shape: length, words, punctuation, commas, sentence ends, digits, capitals,
    separators (``|``, ``»``…), stop words of the shipped lists (jusText's signal),
    link density;
``kind``
    heading level, list item, table cell, image, the container's tag, and how many
    paragraphs share its structure (tag path and region bits of container and parent);
``dom``
    for the container and its ancestors up to ``<html>``: how far up the nearest element
    whose tag (``article``, ``nav``, ``footer``…) or class/id/role/itemprop vocabulary
    (nav, comment, share, related, ad, content…) names a kind of region;
``region``
    for the container and four ancestors: the text, link density, paragraph count and
    share of the page of its subtree, and a Readability-style score (commas, lengths,
    spread to ancestors, times one minus link density) against the page's best;
``context``
    the neighbouring paragraphs' length, link density and stop words, and the
    paragraph's position in the page;
``page``
    title and ``og:title`` overlap and distance to the ``<h1>``, the text repeated
    elsewhere on the page, text found in JSON-LD ``articleBody``/``og:description``,
    the page's size, link density and declared type (article, product, forum…).

Everything per element or per paragraph is gathered in one Python pass each (elements
on the containers' ancestor chains, then paragraphs); the rest is numpy over the page.
Subtree sums come from cumulative sums over the paragraph range of each element, which
is contiguous in document order.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, compress, repeat
from operator import attrgetter, is_not

import numpy as np

from ..compiled import optional
from ..model import Block, Page
from ..segment import BLOCK_LEVEL

# ---------------------------------------------------------------- vocabulary

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


# --------------------------------------------------------------- characters


@lru_cache(maxsize=1)
def _char_classes() -> np.ndarray:
    """Class of every code point: 0 other letter/mark, 1 lower, 2 upper, 3 digit, 4 space,
    5 comma, 6 sentence end, 7 other punctuation, 8 separator, 9 CJK."""
    table = np.zeros(TABLE, dtype=np.uint8)
    for c in range(0x10000):
        ch = chr(c)
        if ch.islower():
            table[c] = 1
        elif ch.isupper():
            table[c] = 2
        elif ch.isdigit():
            table[c] = 3
        elif ch.isspace() or c == 0:
            table[c] = 4
        elif not ch.isalnum() and not ch.isalpha():
            table[c] = 7
    for ch in ",，、;；":
        table[ord(ch)] = 5
    for ch in ".!?。！？…":
        table[ord(ch)] = 6
    for ch in "|•·»«›‹/\\>—–-_=*~#©®™":
        table[ord(ch)] = 8
    table[0x3400:0x4DC0] = 9
    table[0x4E00:0xA000] = 9
    table[0xF900:0xFB00] = 9
    table[0x3040:0x3100] = 9
    table[0xAC00:0xD7B0] = 9
    return table


N_CLASSES = 10

#: size of the per-code-point tables: the BMP, and one entry for everything above it
TABLE = 0x10001


@lru_cache(maxsize=1)
def _stopwords() -> tuple[frozenset[str], np.ndarray]:
    """The shipped stop lists of every language (one set), and the Chinese stop characters
    as a code-point mask."""
    from ..methods.justext import LANGUAGES, stoplist

    words = frozenset().union(*(stoplist(lang) for lang in LANGUAGES if lang != "zh"))
    mask = np.zeros(TABLE, dtype=bool)
    for ch in stoplist("zh") if "zh" in LANGUAGES else ():
        if len(ch) == 1 and ord(ch) < TABLE - 1:
            mask[ord(ch)] = True
    return words, mask


@lru_cache(maxsize=1)
def _stop_set():  # type: ignore[no-untyped-def]
    """The stop words as the compiled passes' hashed set."""
    return _cfeatures.WordSet(_stopwords()[0])


# ------------------------------------------------------------------- result


@dataclass(frozen=True, slots=True)
class Paragraphs:
    """A page's paragraphs: block ranges, texts, features, and what the method needs."""

    #: first block of each paragraph, and one past its last
    starts: np.ndarray
    ends: np.ndarray
    texts: list[str]
    #: float32 (paragraphs, features), columns named by :func:`names`
    X: np.ndarray
    #: characters per paragraph
    chars: np.ndarray
    #: heading level 1–6, 0 for other paragraphs
    heading: np.ndarray
    #: index of the paragraph best matching the page title (-1: none)
    title_index: int
    #: int32 (LEVELS, 2, paragraphs): the paragraph range (first, one past the last) of
    #: each paragraph's container (level 0) and of its ancestors, for the second stage
    spans: np.ndarray
    #: int32 (paragraphs,): paragraphs of the same structure (container path and region
    #: bits) share a number, so that repeated cards, teasers or menu items can be judged together
    signature: np.ndarray
    #: the texts lower-cased (made for the page-level features; the method's steps read
    #: them too)
    lowered: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.starts)

    def column(self, name: str) -> np.ndarray:
        """One feature column, by name."""
        return self.X[:, names().index(name)]


@lru_cache(maxsize=1)
def names() -> tuple[str, ...]:
    """The feature columns, in order."""
    text = ["log_chars", "log_words", "link_density", "mean_word_len", "share_lower", "share_upper",
            "share_digit", "share_punct", "share_cjk", "commas", "sentence_ends", "separators",
            "punct_per_word", "ends_sentence", "starts_upper", "stop_ratio", "stop_cjk_ratio",
            "blocks", "log_link_chars", "has_copyright", "has_year"]
    kind = ["heading_level", "is_list", "is_cell", "is_image", "container_tag", "log_same_structure"]
    dom = [f"dist_{g}" for g in GROUPS] + ["depth"]
    region = [f"l{lv}_{f}" for lv in range(LEVELS)
              for f in ("log_chars", "link_density", "log_paragraphs", "share", "mean_chars", "score",
                        "stop_ratio", "sentences_per_word")]
    region += ["in_top", "top_share", "top_link_density"]
    context = [f"{side}{k}_{f}" for side in ("prev", "next") for k in (1, 2)
               for f in ("log_chars", "link_density", "stop_ratio", "heading")]
    context += ["win_link_density", "win_log_chars", "position", "chars_before"]
    page = ["title_overlap", "is_title", "after_title", "title_distance", "after_h1", "h1_distance",
            "repeated", "in_jsonld", "page_log_chars", "page_log_paragraphs", "page_link_density",
            *(f"type_{t}" for t in PAGE_TYPES)]
    return tuple(text + kind + dom + region + context + page)


# ------------------------------------------------------------------ compute


def compute(page: Page) -> Paragraphs:
    """The paragraphs of a page and their features."""
    blocks = page.blocks
    n_blocks = len(blocks)
    width = len(names())
    if not n_blocks:
        empty = np.zeros(0, dtype=np.int64)
        return Paragraphs(empty, empty, [], np.zeros((0, width), np.float32), empty, empty, -1,
                          np.zeros((LEVELS, 2, 0), np.int32), np.zeros(0, np.int32))
    para = np.fromiter(map(_PARAGRAPH, blocks), dtype=np.int64, count=n_blocks)
    change = np.empty(n_blocks, dtype=bool)
    change[0] = True
    np.not_equal(para[1:], para[:-1], out=change[1:])
    starts = np.flatnonzero(change)
    ends = np.append(starts[1:], n_blocks)
    block_texts = list(map(_TEXT, blocks))
    texts = [block_texts[s] if e - s == 1 else " ".join(block_texts[s:e])
             for s, e in zip(starts.tolist(), ends.tolist())]
    link = np.fromiter(map(_LINK_CHARS, blocks), dtype=np.float64, count=n_blocks)
    link_chars = np.add.reduceat(link, starts)
    columns = _Columns()
    joined = "\x1f".join(texts)  # "\x1f": a whitespace character no block text holds
    lowered = joined.lower()
    chars, words, stop = _text(texts, joined, lowered, columns)
    columns["link_density"] = np.minimum(link_chars / np.maximum(chars, 1), 1.0)
    columns["log_link_chars"] = np.log1p(link_chars)
    columns["blocks"] = (ends - starts).astype(np.float64)
    firsts = list(map(blocks.__getitem__, starts.tolist()))
    paths, path_id = _path_ids(firsts)
    heading = _kind(firsts, paths, path_id, columns)
    tree = _Tree(firsts)
    tree.distances(columns)
    signature = _signatures(path_id, tree, columns)
    spans = _regions(tree, chars, link_chars, words, stop, columns)
    _context(chars, columns, heading, stop / np.maximum(words, 1))
    lowered_texts = lowered.split("\x1f")
    title_index = _page(page, lowered, lowered_texts, chars, link_chars, heading, columns)
    return Paragraphs(starts, ends, texts, columns.matrix(len(texts)), chars.astype(np.int64), heading,
                      title_index, spans, signature, lowered_texts)


class _Columns(dict):  # type: ignore[type-arg]
    """The feature columns by name, as the passes make them: one array each, or tables
    of consecutive columns (:meth:`table`), copied whole into the matrix."""

    def __init__(self) -> None:
        super().__init__()
        #: first column's name → a table of consecutive columns
        self.tables: dict[str, np.ndarray] = {}

    def table(self, columns: tuple[str, ...], values: np.ndarray) -> None:
        """``values`` (paragraphs, len(columns)): the columns ``columns``, consecutive in
        :func:`names`."""
        at = _position()[columns[0]]
        if names()[at:at + len(columns)] != columns:
            raise ValueError(f"columns {columns[0]}… are not consecutive features")
        self.tables[columns[0]] = values
        for j, name in enumerate(columns):
            self[name] = values[:, j]

    def matrix(self, n: int) -> np.ndarray:
        """float32 (n, features), rows contiguous for the forests: tables copied whole,
        the runs of single columns between them one C-level copy each."""
        order = names()
        X = np.empty((n, len(order)), np.float32)
        at = 0
        while at < len(order):
            table = self.tables.get(order[at])
            if table is not None:
                X[:, at:at + table.shape[1]] = table
                at += table.shape[1]
                continue
            end = at + 1
            while end < len(order) and order[end] not in self.tables:
                end += 1
            X[:, at:end] = np.array([self[name] for name in order[at:end]]).T
            at = end
        return X


@lru_cache(maxsize=1)
def _position() -> dict[str, int]:
    return {name: i for i, name in enumerate(names())}


def _text(texts: list[str], joined: str, lowered: str,
          out: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Character-class counts of every paragraph, and the stop words (of ``lowered``:
    ``joined``, the paragraphs joined by ``\x1f``, lower-cased)."""
    n = len(texts)
    stopwords, cjk_stop = _stopwords()
    stats = _compiled_char_stats if _compiled_char_stats is not None else char_stats_numpy
    counts, split_words, stop_cjk, ends, upper = stats(texts, _char_classes(), cjk_stop.view(np.uint8),
                                                       _ending_table().view(np.uint8))
    chars = np.fromiter(map(len, texts), dtype=np.float64, count=n)
    words = np.maximum(split_words, counts[:, 9])  # a CJK character is a word
    if _compiled_stop_counts is not None:
        stop = _compiled_stop_counts(lowered, n, _stop_set())
    else:  # the words of str.split, in order: the table's spaces are str.isspace's
        is_stop = np.fromiter(map(stopwords.__contains__, lowered.split()), dtype=np.float64)
        stop = np.bincount(np.repeat(np.arange(n), split_words), weights=is_stop, minlength=n)
    safe = np.maximum(chars, 1)
    safe_words = np.maximum(words, 1)
    punct = counts[:, 5] + counts[:, 6] + counts[:, 7]
    out.update(
        log_chars=np.log1p(chars), log_words=np.log1p(words),
        mean_word_len=np.minimum(chars / safe_words, 30),
        share_lower=counts[:, 1] / safe, share_upper=counts[:, 2] / safe,
        share_digit=counts[:, 3] / safe, share_punct=punct / safe, share_cjk=counts[:, 9] / safe,
        commas=np.log1p(counts[:, 5]), sentence_ends=np.log1p(counts[:, 6]),
        separators=np.log1p(counts[:, 8]), punct_per_word=punct / safe_words,
        stop_ratio=stop / safe_words, stop_cjk_ratio=stop_cjk / np.maximum(counts[:, 9], 1),
        ends_sentence=ends, starts_upper=upper,
    )
    if _compiled_marks is not None:
        year, held = _compiled_marks(joined, n)
        out["has_year"] = year * (counts[:, 3] >= 4)  # the same candidates as below
        out["has_copyright"] = held
    else:
        out["has_copyright"] = _holding(joined, chars, COPYRIGHT_MARKS)
        out["has_year"] = _marks(texts, _YEAR, counts[:, 3] >= 4)
    return chars, words, stop + stop_cjk


def char_stats_numpy(texts: list[str], classes: np.ndarray, cjk_stop: np.ndarray,
                     ending: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per paragraph: character-class counts (paragraphs, N_CLASSES), word starts, CJK stop
    characters, ends like a sentence, starts upper-case; one numpy pass over the page (the
    compiled ``_cfeatures.char_stats`` is its twin)."""
    n = len(texts)
    joined = "\x1f".join(texts)  # a whitespace character no block text holds
    # code points above the BMP share the last table entry (class 0, no stop, no ending):
    # 64 Ki-entry tables stay in the CPU cache, 1.1 Mi-entry ones do not
    codes = np.minimum(np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32), TABLE - 1)
    kinds = classes[codes]
    owner = np.cumsum(codes == 0x1F)  # paragraph of each character (separators go with the next)
    counts = np.bincount(owner * N_CLASSES + kinds, minlength=n * N_CLASSES)
    counts = counts.reshape(n, N_CLASSES).astype(np.float64)
    counts[1:, 4] -= 1  # the separator
    space = kinds == 4
    starts_word = ~space & np.r_[True, space[:-1]]
    split_words = np.bincount(owner, weights=starts_word, minlength=n).astype(np.int64)
    stop_cjk = np.bincount(owner, weights=cjk_stop[codes], minlength=n)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    begin = np.r_[0, np.cumsum(lengths[:-1] + 1)].astype(np.int64)  # offset of each paragraph
    nonempty = lengths > 0
    last = np.r_[codes, 0][np.maximum(begin + lengths - 1, 0)]  # padded: a page may hold no character
    ends = (ending[last] & nonempty).astype(np.float64)
    upper = ((np.r_[kinds, 0][begin] == 2) & nonempty).astype(np.float64)
    return counts, split_words, stop_cjk, ends, upper


@lru_cache(maxsize=1)
def _ending_table() -> np.ndarray:
    """Code points that end a sentence-like paragraph."""
    table = np.zeros(TABLE, dtype=bool)
    table[[ord(c) for c in ".!?。！？…:;\"'”»)"]] = True
    return table


def _marks(texts: list[str], pattern: re.Pattern[str], candidates: np.ndarray) -> np.ndarray:
    """1 for the paragraphs among ``candidates`` where ``pattern`` matches, else 0 (one
    search over the candidates joined by ``\x1f``, which the patterns never match)."""
    out = np.zeros(len(texts))
    which = np.flatnonzero(candidates)
    if not len(which):
        return out
    chosen = [texts[i] for i in which.tolist()]
    at = [m.start() for m in pattern.finditer("\x1f".join(chosen))]
    if at:
        begin = np.cumsum([0] + [len(t) + 1 for t in chosen[:-1]])
        out[which[np.searchsorted(begin, at, side="right") - 1]] = 1.0
    return out


#: a paragraph holding one of these has ``has_copyright``
COPYRIGHT_MARKS = ("©", "opyright")


def _holding(joined: str, chars: np.ndarray, needles: Sequence[str]) -> np.ndarray:
    """1 for the paragraphs (``joined`` by ``\x1f``, ``chars`` long) that hold one of
    ``needles``, else 0: ``str.find`` over the whole text, far faster than a regular
    expression's alternation tried at every position."""
    at = []
    for needle in needles:
        i = joined.find(needle)
        while i >= 0:
            at.append(i)
            i = joined.find(needle, i + 1)
    out = np.zeros(len(chars))
    if at:
        lengths = chars + 1
        out[np.searchsorted(np.cumsum(lengths) - lengths, at, side="right") - 1] = 1.0
    return out


_PARAGRAPH = attrgetter("paragraph")
_TEXT = attrgetter("text")
_LINK_CHARS = attrgetter("link_chars")
_VOCABULARY_ATTRIBUTES = ("class", "id", "role", "itemprop")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def _path_ids(firsts: Sequence[Block]) -> tuple[list[tuple[str, ...]], np.ndarray]:
    """The distinct tag paths of the paragraphs' first blocks in order of appearance, and
    each paragraph's index among them (a path tuple is hashed once per paragraph here,
    then only its number is)."""
    index: dict[tuple[str, ...], int] = {}
    # len(index) is read before the call: a new path gets the next number
    path_id = np.fromiter([index.setdefault(path, len(index)) for path in map(_PATH, firsts)], np.int64, len(firsts))
    return list(index), path_id


def _kind(firsts: Sequence[Block], paths: list[tuple[str, ...]], path_id: np.ndarray,
          out: dict[str, np.ndarray]) -> np.ndarray:
    """Heading level, list item, table cell, image and container tag, from the paths
    (``paths``, distinct, and each paragraph's ``path_id`` among them)."""
    n = len(firsts)
    distinct = np.fromiter(chain.from_iterable(map(_path_kind, paths)), np.float64, 4 * len(paths))
    table = distinct.reshape(len(paths), 4)[path_id]
    out["heading_level"], out["is_list"], out["is_cell"], out["container_tag"] = table.T
    out["is_image"] = np.fromiter(map(is_not, map(_IMAGE, firsts), repeat(None)), np.float64, n)
    return table[:, 0].astype(np.int64)


@lru_cache(maxsize=1 << 14)
def _path_kind(path: tuple[str, ...]) -> tuple[int, int, int, int]:
    """Heading level, list item, table cell and container tag code of a path."""
    level = lst = cell = 0
    for tag in reversed(path):
        if not level and tag in _HEADING_LEVEL:
            level = _HEADING_LEVEL[tag]
        elif not lst and not level and tag in _LIST:
            lst = 1
        elif not cell and tag in _CELL:
            cell = 1
    return level, lst, cell, _TAG_CODE.get(path[-1], 0) if path else 0


def _signatures(path_id: np.ndarray, tree: _Tree, out: dict[str, np.ndarray]) -> np.ndarray:
    """A number per distinct structure (the container's tag path, by its number
    ``path_id``, and its own and its parent's region bits), and how many paragraphs
    share each paragraph's."""
    bits = tree.bits[tree.container]
    parent_bits = tree.bits[tree.parent[tree.container]]
    # each paragraph gets the index of the first paragraph of its structure; renumbered
    # 0, 1, 2… in order of first appearance
    seen: dict = {}
    n = len(path_id)
    first_of = np.fromiter(map(seen.setdefault, zip(path_id.tolist(), bits.tolist(), parent_bits.tolist()),
                               range(n)), np.int64, n)
    # first_of holds first-appearance indices: their rank among the distinct ones is the number
    signature = (np.cumsum(first_of == np.arange(n)) - 1)[first_of].astype(np.int32)
    out["log_same_structure"] = np.log1p(np.bincount(signature)[signature])
    return signature


_PATH = attrgetter("path")
_IMAGE = attrgetter("image")


def _container(block: Block):  # type: ignore[no-untyped-def]
    """The nearest block-level element holding the block's text."""
    node = block.node
    if block.path and block.path[-1] in BLOCK_LEVEL:  # most blocks: no tree access
        return node
    while node is not None and not (isinstance(node.tag, str) and node.tag in BLOCK_LEVEL):
        node = node.getparent()
    return node if node is not None else block.node


class _Tree:
    """The elements on the containers' ancestor chains, with their paragraph ranges.

    Index ``len(elements)`` is a virtual root above ``<html>`` spanning every paragraph.
    ``parent``, ``first`` and ``last`` (paragraphs), ``bits`` (region groups of the
    element's own tag and vocabulary) are per element; ``container`` per paragraph.
    """

    def __init__(self, firsts: Sequence[Block]) -> None:
        if _compiled_walk is not None:
            walked = _compiled_walk(list(firsts), _TAG_BITS, compiled_vocabulary(), BLOCK_LEVEL)
        else:
            walked = walk_python(list(firsts), _TAG_BITS, _vocabulary_bits, BLOCK_LEVEL)
        self.parent, self.first, self.last, self.container, self.bits = walked
        self.size = len(self.parent)

    def ancestors(self) -> list[np.ndarray]:
        """Element index of each paragraph's container and of its LEVELS-1 ancestors."""
        out = [self.container]
        for _ in range(LEVELS - 1):
            out.append(self.parent[out[-1]])
        return out

    def spans(self) -> np.ndarray:
        """(LEVELS, 2, paragraphs) int32: each level's ancestor's first and one-past-last paragraph."""
        levels = np.stack(self.ancestors())
        return np.stack([self.first[levels], self.last[levels] + 1], axis=1).astype(np.int32)

    def distances(self, out: _Columns) -> None:
        """Levels from each container up to the nearest element of every group (99: none)."""
        if _compiled_distances is not None:
            dist, depth = _compiled_distances(self.container, self.parent, self.bits, len(GROUPS))
        else:
            dist, depth = self.distances_numpy()
        out.table(_DISTANCE_NAMES, dist)
        out["depth"] = depth

    def distances_numpy(self) -> tuple[np.ndarray, np.ndarray]:
        """(dist, depth) level by level over all paragraphs at once; the compiled
        ``_cfeatures.distances`` is its twin."""
        root = self.size - 1
        current = self.container
        found = np.zeros(len(current), dtype=np.int64)
        new_bits = []  # per level: the groups first met at that level
        depth = np.zeros(len(current))
        while True:
            alive = current != root
            if not alive.any():
                break
            here = self.bits[current]
            new_bits.append(here & ~found)
            found |= here
            depth += alive
            current = self.parent[current]
        dist = np.full((len(current), len(GROUPS)), 99.0)
        if new_bits:
            levels = np.stack(new_bits).astype("<i8")  # (levels, paragraphs)
            as_bytes = levels.view(np.uint8).reshape(*levels.shape, 8)
            hits = np.unpackbits(as_bytes, axis=2, bitorder="little")[:, :, :len(GROUPS)]
            met = hits.any(axis=0)
            dist[met] = hits.argmax(axis=0)[met]
        return dist, depth


def walk_python(firsts: list[Block], tag_bits: dict[str, int], vocabulary, block_level: frozenset[str]):  # type: ignore[no-untyped-def]
    """(parent, first, last, container, bits) of the elements above the paragraphs' first
    blocks; the reference of the compiled ``detourage.learned._cfeatures.walk``."""
    containers = [_container(b) for b in firsts]
    index: dict = {}
    elements: list = []
    parents: list = []
    first: list[int] = []
    for p, el in enumerate(containers):
        while el is not None and el not in index:
            index[el] = len(elements)
            elements.append(el)
            first.append(p)
            el = el.getparent()
            parents.append(el)
    root = len(elements)
    parent = np.array([index.get(e, root) if e is not None else root for e in parents] + [root], dtype=np.int64)
    container = np.array([index[c] for c in containers], dtype=np.int64)
    last = np.full(root + 1, -1, dtype=np.int64)
    last[root] = len(containers) - 1
    for p in range(len(containers) - 1, -1, -1):
        i = container[p]
        while last[i] < 0:
            last[i] = p
            i = parent[i]
    bits = np.array([_own_bits(el, tag_bits, vocabulary) for el in elements] + [0], dtype=np.int64)
    return parent, np.array(first + [0], dtype=np.int64), last, container, bits


def _own_bits(el, tag_bits: dict[str, int], vocabulary) -> int:  # type: ignore[no-untyped-def]
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
    return sum(compress(_GROUP_BITS, _GROUPS_AT_START.match(window).groups()))  # type: ignore[union-attr]


@lru_cache(maxsize=1)
def compiled_vocabulary():  # type: ignore[no-untyped-def]
    """The twin of :func:`_vocabulary_bits` in C (``_cfeatures.Vocabulary``): the compiled
    walk matches the attribute values' bytes without making a Python string of them."""
    return _cfeatures.Vocabulary([(w.removesuffix("$"), 1 << j, w.endswith("$"))
                                  for j, words in enumerate(CLASS_GROUPS.values()) for w in words])


_TOKEN_START = re.compile(r"(?<![a-z])[a-z]")
#: longer than any group's word plus its look-ahead character (checked by the tests)
_WINDOW = 16
_GROUPS_AT_START = re.compile("".join(f"(?:(?=({group_pattern(w)})))?" for w in CLASS_GROUPS.values()))
_GROUP_BITS = [1 << j for j in range(len(CLASS_GROUPS))]


def _regions(tree: _Tree, chars: np.ndarray, link_chars: np.ndarray, words: np.ndarray,
             stop: np.ndarray, out: _Columns) -> np.ndarray:
    """Subtree text, link density, paragraphs, stop words, sentence ends and
    Readability-style scores by level (the compiled ``_cfeatures.region_columns``, or
    its twin :func:`regions_numpy`); returns the ancestors' paragraph spans
    (:attr:`Paragraphs.spans`)."""
    args = (chars, link_chars, words, stop, np.expm1(out["sentence_ends"]), np.expm1(out["commas"]))
    if _compiled_regions is not None:
        spans = np.empty((LEVELS, 2, len(chars)), np.int32)
        table = _compiled_regions(*args, tree.first, tree.last, tree.parent, tree.container, LEVELS, spans)
    else:
        table, spans = regions_numpy(tree, *args), tree.spans()
    out.table(_region_names(), table)
    return spans


@lru_cache(maxsize=1)
def _region_names() -> tuple[str, ...]:
    """The columns of :func:`regions_numpy`'s table, in order."""
    at = names().index("l0_log_chars")
    return names()[at:at + 8 * LEVELS + 3]


def regions_numpy(tree: _Tree, chars: np.ndarray, link_chars: np.ndarray, words: np.ndarray, stop: np.ndarray,
                  ends: np.ndarray, commas: np.ndarray) -> np.ndarray:
    """float64 (paragraphs, columns of :func:`_region_names`): for the container and its
    ancestors the subtree's text, link density, paragraphs, share, mean paragraph, score
    against the page's best, stop words and sentence ``ends`` per word; then the best
    element's extent, share and link density."""
    n = len(chars)
    total = max(chars.sum(), 1.0)
    cs_chars = _cumsum0(chars)
    cs_links = _cumsum0(link_chars)
    first, last = tree.first, tree.last + 1
    sub_chars = cs_chars[last] - cs_chars[first]
    sub_links = cs_links[last] - cs_links[first]
    sub_paras = (last - first).astype(np.float64)
    sub_words = _range_sums(words, first, last)
    sub_stop = _range_sums(stop, first, last)
    sub_ends = _range_sums(ends, first, last)
    link_density = np.minimum(sub_links / np.maximum(sub_chars, 1), 1.0)
    readable = np.where(chars >= 25, 1 + commas + np.minimum(chars / 100, 3), 0.0)
    levels = tree.ancestors()
    # the Readability score spread to the ancestors: one bincount over levels 1… in turn,
    # the same additions in the same order as successive np.add.at calls
    spread = levels[1:5]
    score = np.bincount(np.concatenate(spread), minlength=tree.size,
                        weights=np.concatenate([readable * w for w in (1.0, 0.5, 1 / 6, 1 / 9)[:len(spread)]]))
    score *= 1 - link_density
    score[-1] = 0.0  # the virtual root is no candidate
    top = int(np.argmax(score))
    best = max(score[top], 1e-9)
    # every element's values once, then one gather per level
    per_element = np.stack([
        np.log1p(sub_chars), link_density, np.log1p(sub_paras), sub_chars / total,
        np.log1p(sub_chars / np.maximum(sub_paras, 1)), score / best,
        sub_stop / np.maximum(sub_words, 1), sub_ends / np.maximum(sub_words, 1)], axis=1)
    idx = np.arange(n)
    return np.hstack([*(per_element[anc] for anc in levels),
                      ((idx >= tree.first[top]) & (idx <= tree.last[top])).astype(np.float64)[:, None],
                      np.full((n, 1), sub_chars[top] / total), np.full((n, 1), link_density[top])])


def _range_sums(x: np.ndarray, first: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """Sum of x over each paragraph range first … stop - 1."""
    cs = _cumsum0(x)
    return cs[stop] - cs[first]


def _cumsum0(x: np.ndarray) -> np.ndarray:
    """0, then the cumulative sums of x (float64): ``cs[j] - cs[i]`` sums ``x[i:j]``."""
    cs = np.zeros(len(x) + 1)
    np.cumsum(x, out=cs[1:])
    return cs


def _context(chars: np.ndarray, out: _Columns, heading: np.ndarray, stop_ratio: np.ndarray) -> None:
    """Neighbours, a window around the paragraph, and its position (the compiled
    ``_cfeatures.neighbour_columns``, or its twin :func:`neighbours_numpy`)."""
    args = (out["log_chars"], out["link_density"], stop_ratio, heading.astype(np.float64), chars)
    if _compiled_neighbours is not None:
        table = _compiled_neighbours(*args, WINDOW)
    else:
        table = neighbours_numpy(*args)
    out.table(_neighbour_names(), table)


#: the window of ``win_*``: this many paragraphs either side
WINDOW = 3


@lru_cache(maxsize=1)
def _neighbour_names() -> tuple[str, ...]:
    """The columns of :func:`neighbours_numpy`'s table, in order."""
    at = names().index("prev1_log_chars")
    return names()[at:at + 20]


def neighbours_numpy(log_chars: np.ndarray, link_density: np.ndarray, stop_ratio: np.ndarray,
                     heading: np.ndarray, chars: np.ndarray) -> np.ndarray:
    """float64 (paragraphs, columns of :func:`_neighbour_names`)."""
    n = len(chars)
    # the four quantities in one array, two places of -1 on either side: a neighbour k
    # places away is a view k places off the paragraph's own
    padded = np.full((4, n + 4), -1.0)
    padded[:, 2:n + 2] = (log_chars, link_density, stop_ratio, heading > 0)
    columns = [padded[:, 2 + k:2 + k + n] for k in (-1, -2, 1, 2)]
    return np.column_stack([*(c.T for c in columns), _window_mean(link_density, WINDOW),
                            _window_mean(log_chars, WINDOW), np.arange(n) / max(n - 1, 1),
                            (np.cumsum(chars) - chars) / max(chars.sum(), 1)])


def _window_mean(x: np.ndarray, k: int) -> np.ndarray:
    """Mean of x over the window i-k … i+k (cut at the page's ends)."""
    n = len(x)
    cs = _cumsum0(x)
    lo = np.maximum(np.arange(n) - k, 0)
    hi = np.minimum(np.arange(n) + k + 1, n)
    return (cs[hi] - cs[lo]) / (hi - lo)


def _page(page: Page, joined: str, lowered: list[str], chars: np.ndarray, link_chars: np.ndarray,
          heading: np.ndarray, out: dict[str, np.ndarray]) -> int:
    """Title, ``<h1>``, repetition, JSON-LD and page-level features from the paragraphs'
    lower-cased texts (``lowered``, and ``joined`` by ``\x1f``); returns the title index."""
    n = len(lowered)
    hints = page_hints(page)
    title_words = set(_WORD.findall(hints.title.lower()))
    if _compiled_title_overlap is not None:
        overlap = _compiled_title_overlap(joined, chars, _cfeatures.WordSet(title_words), SHORT)
    else:
        overlap = title_overlap_python(lowered, chars, title_words)
    out["title_overlap"] = overlap
    candidates = np.where(heading > 0, overlap + 0.2, overlap)
    title_index = int(np.argmax(candidates)) if n and overlap.max() >= 0.5 else -1
    idx = np.arange(n, dtype=np.float64)
    out["is_title"] = (idx == title_index).astype(np.float64)
    _distance(out, "title", idx, title_index)
    h1 = np.flatnonzero(heading == 1)
    _distance(out, "h1", idx, int(h1[0]) if len(h1) else -1)
    seen = Counter(lowered)
    out["repeated"] = np.fromiter(map(seen.__getitem__, lowered), np.float64, n) - 1
    body = hints.body
    out["in_jsonld"] = in_jsonld = np.zeros(n)
    if body:
        long_enough = np.flatnonzero(chars >= 20).tolist()
        in_jsonld[long_enough] = [lowered[i][:60] in body for i in long_enough]
    total = chars.sum()
    out["page_log_chars"] = np.full(n, np.log1p(total))
    out["page_log_paragraphs"] = np.full(n, np.log1p(n))
    out["page_link_density"] = np.full(n, link_chars.sum() / max(total, 1))
    for kind, words in PAGE_TYPES.items():
        out[f"type_{kind}"] = np.full(n, float(any(w in hints.types for w in words)))
    return title_index


_WORD = re.compile(r"\w+")


#: paragraphs shorter than this many characters are compared with the title
SHORT = 300.0


def title_overlap_python(lowered: list[str], chars: np.ndarray, title_words: set[str]) -> np.ndarray:
    """Jaccard overlap of each short paragraph's words with the title's (0 for the rest).

    The short paragraphs' words come from one regular-expression pass (``\x1f`` tokens
    mark the paragraph boundaries); only those holding a title word are compared as sets.
    The compiled ``_cfeatures.title_overlap`` is its twin.
    """
    overlap = np.zeros(len(lowered))
    short = np.flatnonzero(chars < SHORT)
    if not title_words or not len(short):
        return overlap
    tokens = _WORD_OR_BREAK.findall("\x1f".join([lowered[i] for i in short.tolist()]))
    is_break = np.fromiter(map("\x1f".__eq__, tokens), bool, len(tokens))
    starts = np.flatnonzero(is_break) + 1
    starts = np.insert(starts, 0, 0)  # the first token of each short paragraph
    ends = np.append(starts[1:] - 1, len(tokens))
    hit = np.zeros(len(tokens) + 1, np.int64)
    hit[:-1] = np.fromiter(map(title_words.__contains__, tokens), np.int64, len(tokens))
    hits = np.add.reduceat(hit, np.minimum(starts, len(tokens)))
    for j in np.flatnonzero((hits > 0) & (ends > starts)).tolist():
        w = set(tokens[starts[j]:ends[j]])
        overlap[short[j]] = len(w & title_words) / len(w | title_words)
    return overlap


_WORD_OR_BREAK = re.compile(r"\w+|\x1f")


def _distance(out: dict[str, np.ndarray], name: str, idx: np.ndarray, at: int) -> None:
    if at < 0:
        out[f"after_{name}"] = np.zeros_like(idx)
        out[f"{name}_distance"] = np.full_like(idx, 99.0)
        return
    out[f"after_{name}"] = (idx > at).astype(np.float64)
    out[f"{name}_distance"] = np.sign(idx - at) * np.log1p(np.abs(idx - at))


# -------------------------------------------------------------- page hints


@dataclass(frozen=True, slots=True)
class Hints:
    """What the page says of itself: its title, body text and types."""

    #: ``og:title`` when given, else ``<title>``
    title: str
    #: JSON-LD articleBody/text/description and og:description, lower-cased, spaces collapsed
    body: str
    #: JSON-LD ``@type`` values, ``og:type`` and schema.org microdata ``itemtype`` values
    #: (but ``Comment``, which blogs and forums alike mark up), lower-cased
    types: frozenset[str]


def page_hints(page: Page) -> Hints:
    """The page's ``og:`` metadata and JSON-LD, read from the tree."""
    tree = page.tree
    if tree is None:
        return Hints(page.title, "", frozenset())
    meta: dict[str, str] = {}
    scripts = []
    # the compiled walk passes over the elements the tests below reject outright
    elements = tree.iter("meta", "script") if _compiled_hint_elements is None else _compiled_hint_elements(tree)
    for el in elements:
        if el.tag == "script":
            if (el.get("type") or "").strip().lower() == "application/ld+json":
                scripts.append(el.text or "")
            continue
        key = el.get("property") or el.get("name")
        if key and key.lower() in ("og:title", "og:description", "og:type", "description"):
            meta.setdefault(key.lower(), el.get("content") or "")
    bodies = [meta.get("og:description", ""), meta.get("description", "")]
    types = {meta.get("og:type", "").lower()}
    if "itemtype" in page.html:  # microdata (Discourse declares its threads only so)
        types.update(t.lower() for t in _ITEMTYPE.findall(page.html) if t != "Comment")
    for text in scripts:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            continue
        _walk_ld(data, bodies, types, 0)
    body = " ".join(" ".join(bodies).lower().split())
    return Hints(meta.get("og:title") or page.title, body, frozenset(t for t in types if t))


#: a schema.org microdata type in the page's source (case-sensitive: a literal-led search)
_ITEMTYPE = re.compile(r"""itemtype\s*=\s*["']?https?://schema\.org/(\w+)""")


def _walk_ld(node, bodies: list[str], types: set[str], depth: int) -> None:  # type: ignore[no-untyped-def]
    if depth > 8:
        return
    if isinstance(node, list):
        for item in node[:50]:
            _walk_ld(item, bodies, types, depth + 1)
    elif isinstance(node, dict):
        kind = node.get("@type")
        for t in kind if isinstance(kind, list) else [kind]:
            if isinstance(t, str):
                types.add(t.lower())
        for key in ("articleBody", "text", "description", "reviewBody"):
            value = node.get(key)
            if isinstance(value, str):
                bodies.append(value)
        for key, value in node.items():
            if isinstance(value, (dict, list)) and key != "@context":
                _walk_ld(value, bodies, types, depth + 1)


_cfeatures = optional("learned._cfeatures")
_compiled_walk = None if _cfeatures is None else _cfeatures.walk
_compiled_distances = None if _cfeatures is None else _cfeatures.distances
_compiled_char_stats = None if _cfeatures is None else _cfeatures.char_stats
_compiled_stop_counts = None if _cfeatures is None else _cfeatures.stop_counts
_compiled_title_overlap = None if _cfeatures is None else _cfeatures.title_overlap
_compiled_marks = None if _cfeatures is None else _cfeatures.marks
_compiled_regions = None if _cfeatures is None else _cfeatures.region_columns
_compiled_neighbours = None if _cfeatures is None else _cfeatures.neighbour_columns
_compiled_hint_elements = None if _cfeatures is None else _cfeatures.hint_elements
