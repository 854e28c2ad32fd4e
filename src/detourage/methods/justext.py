"""``justext``: Pomikálek's jusText (seed 002 §3.3), on the shared block model.

The story of :func:`label` is jusText's ``justext()``: group the page's blocks into
jusText paragraphs, classify each paragraph alone (*context-free*), revise the classes
from the neighbours (*context-sensitive*), keep the good ones.

*Context-free* classes, from the paragraph's length in characters, its link density
(characters inside links / characters) and its stop-word density (words of the stop
list / words): ``bad`` (too many links, a copyright sign, inside a ``<select>``, short
and holding a link, or too few stop words), ``short``, ``neargood``, ``good``.  A
paragraph inside ``<h1>``…``<h6>`` is a *heading*.

*Context-sensitive* revision (jusText's ``revise_paragraph_classification``): a short
heading followed within ``max_heading_distance`` characters by a good paragraph becomes
near-good; a ``short`` paragraph becomes good when the nearest good/bad paragraphs on
both sides are good, bad when both are bad, and good next to a bad one only when a
near-good one lies between; a near-good paragraph is bad only between two bad ones; a
heading left bad, but not bad by itself, is good when a good paragraph follows closely.

Two configurations, as in seed 002: **JTA** (``justext``) uses the stop-word list of the
page's language (``Options.language``, or detected, see :func:`detect_language`);
**JTS** (``justext-nostop``, ``Options(stoplist=False)``) is jusText's language-independent
mode: an empty stop list and both stop-word thresholds set to 0, as jusText's command
line does when no stop list is given — then every paragraph that is long enough and
not link-heavy is near-good or good.

Choices the algorithm leaves to us (see ``benchmarks/studies/justext_agreement.py`` for the
measurements):

- *Paragraphs* follow jusText's own rule, read from each block's crossed tags: a new
  paragraph starts at the opening or closing of one of jusText's ``PARAGRAPH_TAGS`` and
  at the second of two ``<br>`` with no text between them; a single ``<br>`` only adds
  a space.  ``paragraphs="view"`` uses the shared paragraph view instead (which splits
  at every ``<br>``), for comparison.
- jusText's cleaner removes form controls (``button input select textarea``) with their
  text, and never sees image alt text: such blocks take no part in the paragraphs; an
  image is kept with the paragraph it sits in.
- Link characters are the blocks' ``link_chars`` (text inside ``<a href>``; jusText
  counts every ``<a>``).
- *Chinese*: jusText splits words at white space, so a Chinese paragraph is one "word"
  and has stop-word density 0 (seed 002 finds JTA = JTS on zh).  Here a Chinese
  paragraph's stop-word density is counted over characters: the share of its CJK
  ideographs that are single-character entries of the stopwords-iso ``zh`` list
  (的 了 是 在 和…), with thresholds and lengths of their own (``zh_*`` options), chosen
  by TO F1 on the DANIEL zh pages (see the benchmark's report).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import NamedTuple

from ..model import Block, Labels, Page
from .common import HEADINGS, label_paragraphs

NAME = "justext"
SEED = "002"
DESCRIPTION = "jusText (JTA): paragraphs classed by length, link and stop-word density, revised by context"

JTS_NAME = "justext-nostop"

#: jusText's ``PARAGRAPH_TAGS``: opening or closing one starts a new paragraph
PARAGRAPH_TAGS = frozenset(
    """body blockquote caption center col colgroup dd div dl dt fieldset form legend
    optgroup option p pre table td textarea tfoot th thead tr ul li h1 h2 h3 h4 h5 h6""".split()
)
#: elements jusText's cleaner removes with their content (``forms=True``)
REMOVED = frozenset({"button", "input", "select", "textarea"})

#: languages with a stop list in ``data/stoplist_<code>.txt``
LANGUAGES = ("en", "el", "pl", "ru", "fr", "de", "es", "cs", "zh")

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

GOOD, BAD, NEARGOOD, SHORT = "good", "bad", "neargood", "short"


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    # jusText 3.0.2's defaults (core.py: LENGTH_LOW_DEFAULT … MAX_HEADING_DISTANCE_DEFAULT)
    length_low: int = 70
    length_high: int = 200
    stopwords_low: float = 0.30
    stopwords_high: float = 0.32
    max_link_density: float = 0.2
    max_heading_distance: int = 200
    no_headings: bool = False
    #: ISO 639-1 code of the page's language; None: detected from the shipped stop lists
    language: str | None = None
    #: False: jusText's language-independent mode (JTS)
    stoplist: bool = True
    #: "justext" (jusText's paragraph rule) or "view" (the shared paragraph view)
    paragraphs: str = "justext"
    # Chinese (character-based stop-word density): best TO F1 of the sweep on the 401
    # DANIEL zh pages (benchmarks/studies/justext_agreement.py zh-sweep): macro F1 0.820 against
    # 0.290 for jusText's lengths 70/200 (any density thresholds) and 0.290 for JTS
    zh_length_low: int = 35
    zh_length_high: int = 100
    zh_stopwords_low: float = 0.05
    zh_stopwords_high: float = 0.08


JTS_OPTIONS = Options(stoplist=False)


@dataclass(slots=True)
class Paragraph:
    """A jusText paragraph: consecutive blocks, with what the classifier reads."""

    blocks: list[Block] = field(default_factory=list)
    text: str = ""
    link_chars: int = 0
    heading: bool = False
    in_select: bool = False
    cf_class: str = ""
    class_type: str = ""

    @property
    def link_density(self) -> float:
        return self.link_chars / len(self.text) if self.text else 0.0


def label(page: Page, options: Options = Options()) -> Labels:
    """Classify the page's paragraphs as jusText does and keep the good ones."""
    paragraphs, owner, language = classified(page, options)
    good = [p.class_type == GOOD for p in paragraphs]
    keep = [index is not None and good[index] for index in owner]
    name = NAME if options.stoplist else JTS_NAME
    details = {"language": language, "classes": [p.class_type for p in paragraphs]}
    return Labels(name, label_paragraphs(page.blocks, keep), details)


def classified(page: Page, options: Options = Options()) -> tuple[list[Paragraph], list[int | None], str | None]:
    """The page's jusText paragraphs after both passes, each block's paragraph index
    (None: in none), and the language whose stop list was used."""
    language = _language(page, options)
    settings = _settings(options, language)
    paragraphs, owner = make_paragraphs(page.blocks, options.paragraphs)
    classify(paragraphs, stoplist(language) if options.stoplist else frozenset(), settings,
             chinese=language == "zh" and options.stoplist)
    revise(paragraphs, settings.max_heading_distance)
    return paragraphs, owner, language


def _language(page: Page, options: Options) -> str | None:
    if not options.stoplist:
        return None
    return options.language or detect_language(b.text for b in page.blocks)


def _settings(options: Options, language: str | None) -> Options:
    """The thresholds in force: jusText's language-independent mode sets both stop-word
    thresholds to 0 when there is no stop list; Chinese has thresholds of its own."""
    if not options.stoplist or language is None:
        return replace(options, stopwords_low=0.0, stopwords_high=0.0)
    if language == "zh":
        return replace(options, length_low=options.zh_length_low, length_high=options.zh_length_high,
                       stopwords_low=options.zh_stopwords_low, stopwords_high=options.zh_stopwords_high)
    return options


# -- segmentation ---------------------------------------------------------------------


def make_paragraphs(blocks: Sequence[Block], mode: str = "justext") -> tuple[list[Paragraph], list[int | None]]:
    """jusText paragraphs, and for each block the index of its paragraph (None: outside)."""
    paragraphs: list[Paragraph] = []
    owner: list[int | None] = [None] * len(blocks)
    current = Paragraph()
    parts: list[str] = []
    previous: Block | None = None
    seen: dict[int, _JustextPath] = {}
    for block in blocks:
        if previous is None or _splits(block, previous, mode):
            _close(current, parts, paragraphs)
            current, parts = Paragraph(), []
        previous = block
        facts = _path_facts(block, seen)
        if facts.removed:
            continue
        owner[block.id] = len(paragraphs)
        if block.image is None and block.text:
            _append(current, parts, block, facts)
        else:
            current.blocks.append(block)
    _close(current, parts, paragraphs)
    _drop_textless_owners(blocks, paragraphs, owner)
    return paragraphs, owner


def _splits(block: Block, previous: Block, mode: str) -> bool:
    if mode == "view":
        return block.paragraph != previous.paragraph
    opened_br = False
    for tag in block.crossed:
        name = tag[1:] if tag[0] == "/" else tag
        if name in PARAGRAPH_TAGS:
            return True
        if tag == "br":
            if opened_br:
                return True
            opened_br = True
        elif tag[0] != "/":
            opened_br = False  # jusText resets its <br> flag at any other opening tag
    return False


class _JustextPath(NamedTuple):
    """What jusText reads of a block's path."""

    removed: bool
    heading: bool
    in_select: bool


def _path_facts(block: Block, seen: dict[int, _JustextPath]) -> _JustextPath:
    """The block's :class:`_JustextPath`, read once per distinct path (``seen``, by the id of
    the path: all are alive with the blocks): blocks share their path tuples, and a path
    can be hundreds of tags long."""
    facts = seen.get(id(block.path))
    if facts is None:
        path = block.path
        facts = seen[id(path)] = _JustextPath(not REMOVED.isdisjoint(path), not HEADINGS.isdisjoint(path),
                                            "select" in path)
    return facts


def _append(paragraph: Paragraph, parts: list[str], block: Block, facts: _JustextPath) -> None:
    """Add a block with text to the paragraph, its text to ``parts`` (joined once by
    :func:`_close`: adding to a string block by block is quadratic in a paragraph of
    thousands of inline elements)."""
    if not parts:
        paragraph.heading = facts.heading
        paragraph.in_select = facts.in_select
    else:
        parts.append(" " if block.space_before or "br" in block.crossed else "")
    parts.append(block.text)
    paragraph.link_chars += block.link_chars
    paragraph.blocks.append(block)


def _close(paragraph: Paragraph, parts: list[str], paragraphs: list[Paragraph]) -> None:
    """Give the paragraph its text; keep it when it has some."""
    paragraph.text = "".join(parts)
    if paragraph.text:
        paragraphs.append(paragraph)


def _drop_textless_owners(blocks: Sequence[Block], paragraphs: list[Paragraph],
                          owner: list[int | None]) -> None:
    """Blocks of a paragraph without text (an image alone) belong to no paragraph."""
    members = {id(b) for p in paragraphs for b in p.blocks}
    for block in blocks:
        if owner[block.id] is not None and id(block) not in members:
            owner[block.id] = None


# -- context-free classification ------------------------------------------------------


def classify(paragraphs: Iterable[Paragraph], stopwords: frozenset[str], options: Options,
             *, chinese: bool = False) -> None:
    """jusText's ``classify_paragraphs``: set each paragraph's ``cf_class``."""
    density = _cjk_density if chinese else _word_density
    for p in paragraphs:
        p.heading = p.heading and not options.no_headings
        p.cf_class = _cf_class(p, density(p.text, stopwords), options)


def _cf_class(p: Paragraph, stopword_density: float, o: Options) -> str:
    length = len(p.text)
    if p.link_density > o.max_link_density or "\xa9" in p.text or "&copy" in p.text or p.in_select:
        return BAD
    if length < o.length_low:
        return BAD if p.link_chars > 0 else SHORT
    if stopword_density >= o.stopwords_high:
        return GOOD if length > o.length_high else NEARGOOD
    return NEARGOOD if stopword_density >= o.stopwords_low else BAD


def _word_density(text: str, stopwords: frozenset[str]) -> float:
    words = text.split()
    return sum(w.lower() in stopwords for w in words) / len(words) if words else 0.0


def _cjk_density(text: str, stopwords: frozenset[str]) -> float:
    """Share of the CJK ideographs that are single-character stop words."""
    chars = _CJK.findall(text)
    if not chars:
        return _word_density(text, stopwords)
    return sum(c in stopwords for c in chars) / len(chars)


# -- context-sensitive revision -------------------------------------------------------


def revise(paragraphs: Sequence[Paragraph], max_heading_distance: int = 200) -> None:
    """jusText's ``revise_paragraph_classification``: set each paragraph's ``class_type``."""
    for p in paragraphs:
        p.class_type = p.cf_class
    for i, p in enumerate(paragraphs):  # good headings
        if p.heading and p.class_type == SHORT and _good_follows(paragraphs, i, max_heading_distance):
            p.class_type = NEARGOOD
    _revise_short(paragraphs)
    _revise_neargood(paragraphs)
    for i, p in enumerate(paragraphs):  # more good headings
        if (p.heading and p.class_type == BAD and p.cf_class != BAD
                and _good_follows(paragraphs, i, max_heading_distance)):
            p.class_type = GOOD


def _revise_short(paragraphs: Sequence[Paragraph]) -> None:
    """Short paragraphs take their class from their neighbours' (all read before any
    changes: the neighbours are looked up in :func:`_nearest`'s tables)."""
    classes = [p.class_type for p in paragraphs]
    prev, nxt = _nearest(classes, _DECIDED)
    prev_near, next_near = _nearest(classes, _DECIDED_OR_NEAR)
    for i, p in enumerate(paragraphs):
        if classes[i] != SHORT:
            continue
        if prev[i] == nxt[i]:
            p.class_type = prev[i]
        elif (prev[i] == BAD and prev_near[i] == NEARGOOD) or (nxt[i] == BAD and next_near[i] == NEARGOOD):
            p.class_type = GOOD
        else:
            p.class_type = BAD


def _revise_neargood(paragraphs: Sequence[Paragraph]) -> None:
    """A near-good paragraph is bad between two bad ones (the nearest good or bad ones,
    the revised near-good ones before it included, as jusText revises in place), else good."""
    _, nxt = _nearest([p.class_type for p in paragraphs], _DECIDED)
    before = BAD
    for i, p in enumerate(paragraphs):
        if p.class_type == NEARGOOD:
            p.class_type = BAD if before == BAD and nxt[i] == BAD else GOOD
        if p.class_type in _DECIDED:
            before = p.class_type


_DECIDED = frozenset({GOOD, BAD})
_DECIDED_OR_NEAR = frozenset({GOOD, BAD, NEARGOOD})


def _nearest(classes: Sequence[str], wanted: frozenset[str]) -> tuple[list[str], list[str]]:
    """For each paragraph, the class of the nearest one before it, and after it, whose
    class is in ``wanted`` (bad where there is none): two passes, where looking for each
    paragraph's neighbours was quadratic on a page of short paragraphs (100 KB: 115 s)."""
    before: list[str] = []
    last = BAD
    for c in classes:
        before.append(last)
        if c in wanted:
            last = c
    after: list[str] = []
    last = BAD
    for c in reversed(classes):
        after.append(last)
        if c in wanted:
            last = c
    after.reverse()
    return before, after


def _good_follows(paragraphs: Sequence[Paragraph], i: int, max_distance: int) -> bool:
    """Whether a good paragraph starts within ``max_distance`` characters after paragraph
    ``i`` (read by index: a slice of the rest would copy it for every heading)."""
    distance = 0
    for j in range(i + 1, len(paragraphs)):
        if distance > max_distance:
            return False
        if paragraphs[j].class_type == GOOD:
            return True
        distance += len(paragraphs[j].text)
    return False


# -- stop lists and language detection ------------------------------------------------


@cache
def stoplist(language: str | None) -> frozenset[str]:
    """The shipped stop list of ``language`` (lower-cased); empty when there is none."""
    if language not in LANGUAGES:
        return frozenset()
    text = resources.files("detourage").joinpath(f"data/stoplist_{language}.txt").read_text("utf-8")
    words = frozenset(w.strip().lower() for w in text.splitlines() if w.strip() and not w.startswith("#"))
    if language == "zh":  # character-based density: the single-character entries
        return frozenset(w for w in words if _CJK.fullmatch(w))
    return words


def detect_language(texts: Iterable[str], *, sample: int = 20000, min_share: float = 0.05) -> str | None:
    """A cheap vote: "zh" when CJK ideographs make up a third of the letters; otherwise the
    language whose stop list covers most of the page's words (the first ``sample``
    characters), provided it covers at least ``min_share`` of them; else None."""
    text = _head(texts, sample)
    letters = sum(c.isalpha() for c in text)
    if letters and len(_CJK.findall(text)) / letters > 1 / 3:
        return "zh"
    words = [w.lower() for w in text.split()]
    if not words:
        return None
    scores = {lang: sum(w in stoplist(lang) for w in words) for lang in LANGUAGES if lang != "zh"}
    best = max(scores, key=scores.__getitem__)
    return best if scores[best] >= min_share * len(words) else None


def _head(texts: Iterable[str], limit: int) -> str:
    parts: list[str] = []
    size = 0
    for t in texts:
        parts.append(t)
        size += len(t) + 1
        if size >= limit:
            break
    return " ".join(parts)[:limit]
