"""``boilerpipe``: shallow text features (Kohlschütter et al., WSDM 2010), seed 002 §3.1.

Each text block is described by its number of words, its link density (words inside
``<a>`` over words), its text density (words per line when the block is wrapped at 80
characters) and the same features of the previous and next blocks; published decision
trees say which blocks are content.  Two extractors are offered, as the reference
implementation (Java boilerpipe 1.2, ``de.l3s.boilerpipe.extractors``) names them
(``Options.variant``):

- ``"default"`` (DefaultExtractor): fuse neighbours of equal text density, then the
  density rules (:func:`density_rules`);
- ``"article"`` (ArticleExtractor, the default here because it is the one users call
  "boilerpipe" and the one tuned for news articles), its twelve filters in Java's order
  (:func:`article`): mark terminating blocks ("comments", "© Reuters"…) and the block
  matching the page title, the number-of-words rules (:func:`num_words_rules`), drop
  everything after a terminating block once 60 full-text words were seen, drop trailing
  headings, fuse each content block into the block before it, drop boilerplate but the
  title, fuse neighbouring content of one tag level, keep the largest content block and
  the large (150+ words) blocks of its tag level around it, expand back to the title,
  add large (100+ words) blocks of that tag level and the link-free list items nested
  right after it.

Blocks.  Boilerpipe's text block is the text between two tags that are neither inline
(``b i em strong span sup sub code tt var u strike font abbr acronym``) nor ``<a>``;
``<br>`` and ``<img>`` end a block too.  Those are regrouped here from the page's runs
(:func:`boilerpipe_blocks`): a run starts a new block when a non-inline tag was crossed
since the previous run.  ``<option>`` text is ignored, as Boilerpipe ignores it.  Words
are tokens holding a letter or digit, tokens being runs of word characters and
``"'.,!@-:;$?()/`` (Boilerpipe's ``UnicodeTokenizer``); a block whose tokens hold no word
("|", "»") is a block with 0 words, as in Boilerpipe.  Every word inside an ``<a>`` (with
or without ``href``) is an anchor word.  A block inside ``<h1>``–``<h3>`` is a heading, one
inside ``<li>`` a list item (the labels Boilerpipe's tag actions give).  The tag level of
a block is the number of its enclosing elements that are not inline.

Known differences from Boilerpipe, all from the shared parse (lxml, where Boilerpipe
used NekoHTML) and segmentation: hidden elements (``display:none``), ``<iframe>``,
``<svg>``, ``<template>``, ``<audio>``/``<video>`` fallback text are not blocks here; a
``<script>`` (or another element the segmentation skips) inside a paragraph does not
split it; image alt text is never content; a block's heading/list-item labels come from
its last run's ancestors, where Boilerpipe's handler, which flushes a block lazily, may
also give it those of an element opened right after it; an ``<a>`` nested in another
(libxml2 keeps such nesting) is anchor text like its parent, where Boilerpipe's anchor
counter, handed such nesting, goes below zero and counts every later word of the page as
anchor text.
BoilerPy3 (``peer-boilerpy3``) ports an older chain (Boilerpipe 1.1's title matching, no
trailing-headline, keep-title, same-level, expansion, large-block or list filters) on a
front end of its own; both differences are measured and explained by
``benchmarks/studies/boilerpipe_agreement.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple

from ..model import Block, Labels, Page
from .common import label_paragraphs

NAME = "boilerpipe"
SEED = "002"
DESCRIPTION = "Boilerpipe: shallow text features (words, link and text density) and article rules"

#: tags that neither end a block nor change the tag level (Boilerpipe's tag action map)
INLINE = frozenset("strike u b i em strong span sup code tt sub var abbr acronym font".split())
#: ``<a>`` does not end a block, but raises the tag level
ANCHOR = "a"
#: elements Boilerpipe skips whose text the shared segmentation keeps
IGNORED = frozenset({"option"})
#: tags whose blocks Boilerpipe labels (its ``DefaultTagActionMap``)
HEADINGS = ("h1", "h2", "h3")
LIST_ITEM = "li"

VARIANTS = ("article", "default")

#: block labels (Boilerpipe's ``DefaultLabels``)
END_OF_TEXT = "end-of-text"
TITLE = "title"
HEADING = "heading"
LI = "li"
MIGHT_BE_CONTENT = "might-be-content"
VERY_LIKELY_CONTENT = "very-likely-content"

#: crossed tags that leave a run in the current block
_STAYS = INLINE | {"/" + t for t in INLINE} | {ANCHOR, "/" + ANCHOR}
#: crossed tags that separate tokens without ending the block (anchors, ``abbr``/``acronym``)
_SPACING = frozenset({ANCHOR, "/" + ANCHOR, "abbr", "/abbr", "acronym", "/acronym"})

#: Boilerpipe's tokens (runs of word characters and ``"'.,!@-:;$?()/``) and its words, the
#: tokens holding a letter or digit: one pattern finds the words directly.  It starts only
#: where a token does (the lookbehind) and never backtracks (possessive quantifiers): a
#: token without a letter or digit (``____``) is read once, not once from each of its
#: characters (quadratic: 20 KB of ``_`` took seconds)
_TOKEN_CHARS = r"[\w\"'.,!@\-:;$?()/]"
_NON_WORD_CHARS = r"[_\"'.,!@\-:;$?()/]"
_WORD = re.compile(f"(?<!{_TOKEN_CHARS}){_NON_WORD_CHARS}*+[^\\W_]{_TOKEN_CHARS}*+")


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    #: "article" (ArticleExtractor) or "default" (DefaultExtractor); see the module doc
    variant: str = "article"
    #: width of a wrapped line in characters (the paper's 80-column display)
    line_width: int = 80
    #: full-text words to see before a terminating block ends the article
    #: (``IgnoreBlocksAfterContentFilter.DEFAULT_INSTANCE``)
    min_words_before_end: int = 60
    #: words a block of the largest block's tag level needs to join it
    #: (``KeepLargestBlockFilter.INSTANCE_EXPAND_TO_SAME_TAGLEVEL_MIN_WORDS``)
    expand_min_words: int = 150
    #: words a boilerplate block of that tag level needs to become content
    #: (``LargeBlockSameTagLevelToContentFilter``)
    large_block_words: int = 100


# --- blocks and features -----------------------------------------------------------------


@dataclass(slots=True, eq=False)
class TextBlock:
    """A Boilerpipe text block: features of one or more fused groups of runs."""

    runs: list[int]
    #: the text of its first group (:attr:`text` is the whole block's)
    first_text: str
    words: int
    anchor_words: int
    #: words of the lines before the last (all words when the block fits on one line)
    wrapped_words: int
    wrapped_lines: int
    start: int
    end: int
    tag_level: int = 0
    content: bool = False
    labels: set[str] = field(default_factory=set)
    #: the texts of the groups fused into it, in order: joined only when read, as
    #: rebuilding the text at each fusion is quadratic (10 000 fused blocks: 6 s)
    fused_texts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The block's text, its groups' texts a line apart."""
        return "\n".join([self.first_text, *self.fused_texts]) if self.fused_texts else self.first_text

    @property
    def text_density(self) -> float:
        return self.wrapped_words / self.wrapped_lines if self.wrapped_lines else 0.0

    @property
    def link_density(self) -> float:
        return self.anchor_words / self.words if self.words else 0.0

    def merge(self, other: TextBlock) -> None:
        """Fuse ``other`` (the next block) into this one: features add up."""
        self.runs += other.runs
        self.fused_texts.append(other.first_text)
        self.fused_texts += other.fused_texts
        self.words += other.words
        self.anchor_words += other.anchor_words
        self.wrapped_words += other.wrapped_words
        self.wrapped_lines += other.wrapped_lines
        self.start, self.end = min(self.start, other.start), max(self.end, other.end)
        self.tag_level = min(self.tag_level, other.tag_level)
        self.content |= other.content
        self.labels |= other.labels


#: the empty block standing before the first and after the last block
EMPTY = TextBlock([], "", 0, 0, 0, 1, -1, -1)


def wrap(tokens: Sequence[str], width: int = 80) -> tuple[int, int]:
    """(words in the lines before the last, number of lines) of ``tokens`` wrapped at
    ``width``; a text on one line gives (all its words, 1), as Boilerpipe's handler."""
    lengths = [len(t) for t in tokens]
    if sum(lengths) + len(lengths) - 1 <= width:  # most blocks fit on one line
        return len(lengths), 1
    length, lines, on_line = -1, 0, 0  # -1: the first word needs no space
    for n in lengths:
        on_line += 1
        length += n + 1
        if length > width:
            lines += 1
            length, on_line = n, 1
    return (len(lengths), 1) if lines == 0 else (len(lengths) - on_line, lines)


Run = tuple[str, bool, bool]  # (text, separated from the previous run, inside a link)


def features(runs: Sequence[Run], width: int = 80) -> tuple[int, int, int, int]:
    """(words, anchor words, wrapped words, wrapped lines) of a block's runs, each given as
    (text, space before, inside a link).  Link boundaries always separate tokens."""
    words: list[str] = []
    anchor = 0
    for linked, segment in groupby(runs, key=itemgetter(2)):
        tokens = _WORD.findall(join_runs(list(segment)))
        words += tokens
        anchor += len(tokens) if linked else 0
    wrapped_words, lines = wrap(words, width)
    return len(words), anchor, wrapped_words, lines


def join_runs(runs: Sequence[Run]) -> str:
    """The runs' texts, a space where the page had whitespace or a break between them, or
    where a link starts or ends (Boilerpipe's handler adds one there)."""
    out = []
    for k, (text, space, linked) in enumerate(runs):
        if k and (space or linked != runs[k - 1][2]):
            out.append(" ")
        out.append(text)
    return "".join(out)


def starts_block(block: Block) -> bool:
    """Whether a non-inline tag was crossed since the previous run (``<pre>``'s line
    breaks excepted: they are characters to Boilerpipe, not tags)."""
    if block.crossed == ("br",) and block.within("pre"):
        return False
    return not _STAYS.issuperset(block.crossed)


def tag_level(block: Block) -> int:
    """Boilerpipe's tag level: the enclosing elements that are not inline."""
    return sum(1 for t in block.path if t not in INLINE)


class _BoilerpipePath(NamedTuple):
    """What Boilerpipe reads of a block's path."""

    anchor: bool
    heading: bool
    item: bool
    ignored: bool
    level: int


def _path_facts(blocks: Sequence[Block]) -> list[_BoilerpipePath]:
    """Each block's :class:`_BoilerpipePath`, read once per distinct path: blocks share their
    path tuples, and a path can be hundreds of tags long (40 000 runs 900 elements deep
    took 1.5 s when each block read its path again)."""
    seen: dict[int, _BoilerpipePath] = {}  # by id of the path (all alive with the blocks)
    out: list[_BoilerpipePath] = []
    for block in blocks:
        facts = seen.get(id(block.path))
        if facts is None:
            path = block.path
            facts = seen[id(path)] = _BoilerpipePath(
                ANCHOR in path, any(h in path for h in HEADINGS), LIST_ITEM in path,
                bool(IGNORED) and not IGNORED.isdisjoint(path), tag_level(block))
        out.append(facts)
    return out


def _groups(blocks: Sequence[Block], facts: Sequence[_BoilerpipePath]) -> list[list[int]]:
    """The runs of each Boilerpipe text block.  Image alt texts and ``<option>`` texts are
    no text to Boilerpipe: they end a block and belong to none."""
    groups: list[list[int]] = []
    for i, block in enumerate(blocks):
        if block.image is not None or facts[i].ignored:
            groups.append([])
            continue
        if not groups or not groups[-1] or starts_block(block):
            groups.append([])
        groups[-1].append(i)
    return [g for g in groups if g]


def boilerpipe_blocks(blocks: Sequence[Block], width: int = 80) -> list[TextBlock]:
    """Regroup the page's runs into Boilerpipe's text blocks, with their features.

    Every group makes a block, with 0 words when its tokens hold no letter or digit
    (Boilerpipe's handler keeps a block that has any token).  The heading and list-item
    labels come from the elements around the last run (the ones still open when
    Boilerpipe's handler flushes the block).
    """
    out: list[TextBlock] = []
    facts = _path_facts(blocks)
    for n, members in enumerate(_groups(blocks, facts)):
        first, last = facts[members[0]], facts[members[-1]]
        if len(members) == 1:  # most blocks: one run, no joining or link splitting
            text = blocks[members[0]].text
            tokens = _WORD.findall(text)
            words, anchor = len(tokens), len(tokens) if first.anchor else 0
            wrapped_words, lines = wrap(tokens, width)
        else:
            runs = [_run(blocks[i], facts[i]) for i in members]
            words, anchor, wrapped_words, lines = features(runs, width)
            text = join_runs(runs)
        tb = TextBlock(members, text, words, anchor, wrapped_words, lines, n, n, first.level)
        if last.heading:
            tb.labels.add(HEADING)
        if last.item:
            tb.labels.add(LI)
        out.append(tb)
    return out


def _run(block: Block, facts: _BoilerpipePath) -> Run:
    separated = block.space_before or not _SPACING.isdisjoint(block.crossed)
    return block.text, separated, facts.anchor


# --- classifiers -------------------------------------------------------------------------


def num_words_rules(prev: TextBlock, curr: TextBlock, next_: TextBlock) -> bool:
    """ArticleExtractor's decision tree over link density and number of words."""
    if curr.link_density > 0.333333:
        return False
    if prev.link_density <= 0.555556:
        if curr.words > 16 or next_.words > 15:
            return True
        return prev.words > 4
    return curr.words > 40 or next_.words > 17


def density_rules(prev: TextBlock, curr: TextBlock, next_: TextBlock) -> bool:
    """DefaultExtractor's decision tree over link density and text density."""
    if curr.link_density > 0.333333:
        return False
    if prev.link_density <= 0.555556:
        if curr.text_density <= 9:
            if next_.text_density > 10:
                return True
            return prev.text_density > 4
        return next_.text_density != 0
    return next_.text_density > 11


Rule = Callable[[TextBlock, TextBlock, TextBlock], bool]


def classify(doc: list[TextBlock], rule: Rule) -> None:
    """Apply ``rule`` to every block with its neighbours (the empty block at the ends).

    Decisions are made left to right on features only, so classifying in place is safe.
    """
    for i, curr in enumerate(doc):
        prev = doc[i - 1] if i else EMPTY
        next_ = doc[i + 1] if i + 1 < len(doc) else EMPTY
        curr.content = rule(prev, curr, next_)


# --- article filters ---------------------------------------------------------------------

#: TerminatingBlocksFinder's phrases (Boilerpipe 1.2)
_END_STARTS = ("comments", "© reuters", "please rate this", "post a comment")
_END_CONTAINS = ("what you think...", "add your comment", "add comment", "reader views",
                 "have your say", "reader comments", "rätta artikeln")
_END_EQUALS = "thanks for your comments - this feedback is now closed"
_LEADING_NUMBER = re.compile(r"[0-9]+")
#: what Java's ``String.trim`` removes: every character up to U+0020
_JAVA_SPACE = "".join(map(chr, range(33)))


def terminating(text: str, link_density: float = 0.0) -> bool:
    """A short block that announces the end of an article ("Comments", "12 comments"…);
    below 8 characters only a linked "Comment" does."""
    text = text.strip(_JAVA_SPACE)
    if len(text) < 8:
        return link_density == 1.0 and text == "Comment"
    lc = text.lower()
    number = _LEADING_NUMBER.match(lc)
    if number and lc.startswith((" comments", " users responded in"), number.end()):
        return True
    return (lc.startswith(_END_STARTS) or any(p in lc for p in _END_CONTAINS)
            or lc == _END_EQUALS)


def mark_terminating(doc: list[TextBlock]) -> None:
    """TerminatingBlocksFinder: label the end-of-text blocks (under 15 words)."""
    for tb in doc:
        if tb.words < 15 and terminating(tb.text, tb.link_density):
            tb.labels.add(END_OF_TEXT)


#: DocumentTitleMatchClassifier's separators: each gives the longest part of the title.
#: Java's ``[ ]*[|»\-][ ]*``, written to read each space once: spaces are taken before a
#: separator only from the start of their run (else a long run of spaces before no
#: separator is read again from each of its spaces: quadratic), and a separator alone
#: matches where the match before took the spaces ahead of it
_TITLE_SEPARATORS = tuple(re.compile(f"(?:(?<![ ])[ ]*+{p}|{p})[ ]*+") for p in (
    r"[|»\-]", r"[|»:]", r"[|»:()]", r"[|»:()\-]", r"[|»,:()\-]", r"[|»,:()\-\u00a0]"))
#: ... and these give every part of four words or more (Java's ``[ ]+[|][ ]+``, same care)
_TITLE_PARTS = (re.compile(r"(?<![ ])[ ]++[|][ ]++"), re.compile(r"(?<![ ])[ ]++[\-][ ]++"))
_TITLE_SPACES = re.compile("[\b ]+")  # Java's "[\b ]+": a backspace or a space
_SITE_AFTER = re.compile(r" - [^\-]+$")
_SITE_BEFORE = re.compile(r"^[^\-]+ - ")
_TITLE_PUNCTUATION = re.compile(r"[?!.\-:]+")


def java_split(pattern: re.Pattern[str], text: str) -> list[str]:
    """Java's ``String.split``: trailing empty parts dropped, no match gives the text."""
    parts = pattern.split(text)
    if len(parts) == 1:
        return parts
    while parts and not parts[-1]:
        parts.pop()
    return parts


#: the characters of the page's title read for potential titles
_TITLE_CHARS = 1000


def _title_key(text: str) -> str:
    return text.replace("\u00a0", " ").replace("'", "").strip(_JAVA_SPACE).lower()


def _longest_part(title: str, separator: re.Pattern[str]) -> str | None:
    parts = java_split(separator, title)
    if len(parts) == 1:
        return None
    best, best_words = "", 0
    for part in parts:
        if ".com" in part:
            continue
        words = len(java_split(_TITLE_SPACES, part))
        if words > best_words or len(part) > len(best):
            best, best_words = part, words
    return best.strip(_JAVA_SPACE) if best else None


def potential_titles(title: str) -> set[str]:
    """The lower-cased title and the parts of it a page may show as its headline:
    the longest part for each separator set, every part of four words or more between
    " | " or " - ", and the title without a " - site" end or a "site - " start.  Only the
    first ``_TITLE_CHARS`` characters are read: a title of thousands of parts costs seconds
    (each part is split again), and no page shows such a title as its headline."""
    title = _title_key(title[:_TITLE_CHARS])
    if not title:
        return set()
    found = {title}
    found.update(p for s in _TITLE_SEPARATORS if (p := _longest_part(title, s)) is not None)
    for separator in _TITLE_PARTS:
        parts = java_split(separator, title)
        if len(parts) > 1:
            found.update(p for p in parts
                         if ".com" not in p and len(java_split(_TITLE_SPACES, p)) >= 4)
    found.add(_SITE_AFTER.sub("", title, count=1))
    found.add(_SITE_BEFORE.sub("", title, count=1))
    return found


def mark_title(doc: list[TextBlock], title: str) -> None:
    """DocumentTitleMatchClassifier: the first block equal to a potential title, as it is
    or without ``?!.-:``, is the title."""
    titles = potential_titles(title)
    if not titles:
        return
    for tb in doc:
        text = _title_key(tb.text)
        if text in titles or _TITLE_PUNCTUATION.sub("", text).strip(_JAVA_SPACE) in titles:
            tb.labels.add(TITLE)
            return


def full_text_words(tb: TextBlock) -> int:
    """Words of a block dense enough (text density ≥ 9) to be running text."""
    return tb.words if tb.text_density >= 9 else 0


def ignore_after_end(doc: list[TextBlock], min_words: int) -> None:
    """IgnoreBlocksAfterContentFilter: nothing after a terminating block is content, once
    ``min_words`` full-text words of content came before it."""
    seen, ended = 0, False
    for tb in doc:
        if tb.content:
            seen += full_text_words(tb)
        ended = ended or (END_OF_TEXT in tb.labels and seen >= min_words)
        if ended:
            tb.content = False


def trailing_headlines(doc: list[TextBlock]) -> None:
    """TrailingHeadlineToBoilerplateFilter: headings after the last other content block
    are not content."""
    for tb in reversed(doc):
        if tb.content:
            if HEADING not in tb.labels:
                return
            tb.content = False


def proximity_fusion(doc: list[TextBlock], *, content_only: bool,
                     same_level: bool = False) -> list[TextBlock]:
    """BlockProximityFusion (distance 1): a content block joins the block before it when
    at most one block lies between them (with ``content_only``, when both are content;
    with ``same_level``, when both have the same tag level)."""
    if len(doc) < 2:
        return doc
    start = 0
    if content_only:
        start = next((i for i, tb in enumerate(doc) if tb.content), len(doc))
        if start == len(doc):
            return doc
    out = doc[: start + 1]
    prev = doc[start]
    for tb in doc[start + 1:]:
        near = tb.start - prev.end - 1 <= 1
        if (tb.content and near and (prev.content or not content_only)
                and (prev.tag_level == tb.tag_level or not same_level)):
            prev.merge(tb)
            continue
        out.append(tb)
        prev = tb
    return out


def keep_largest(doc: list[TextBlock], min_words: int) -> None:
    """KeepLargestBlockFilter (expanding to the same tag level): only the first content
    block with most words stays content, with the blocks of its tag level that have
    ``min_words`` words or more, up to the nearest block of a lower level on each side."""
    if len(doc) < 2:
        return
    largest = max((i for i, tb in enumerate(doc) if tb.content),
                  key=lambda i: doc[i].words, default=None)
    for i, tb in enumerate(doc):
        tb.content = i == largest
        tb.labels.add(VERY_LIKELY_CONTENT if i == largest else MIGHT_BE_CONTENT)
    if largest is None:
        return
    level = doc[largest].tag_level
    for side in (reversed(doc[:largest]), doc[largest + 1:]):
        for tb in side:
            if tb.tag_level < level:
                break
            if tb.tag_level == level and tb.words >= min_words:
                tb.content = True


def expand_title(doc: list[TextBlock]) -> None:
    """ExpandTitleToContentFilter: the title and the blocks between it and the content
    are content."""
    title = content = -1
    for i, tb in enumerate(doc):
        if content == -1 and TITLE in tb.labels:
            title = i
        if content == -1 and tb.content:
            content = i
    if title == -1 or content <= title:
        return
    for tb in doc[title:content]:
        if MIGHT_BE_CONTENT in tb.labels:
            tb.content = True


def large_blocks_to_content(doc: list[TextBlock], min_words: int) -> None:
    """LargeBlockSameTagLevelToContentFilter: blocks of ``min_words`` words or more at the
    tag level of the largest block are content."""
    level = next((tb.tag_level for tb in doc if tb.content and VERY_LIKELY_CONTENT in tb.labels),
                 None)
    if level is None:
        return
    for tb in doc:
        if not tb.content and tb.words >= min_words and tb.tag_level == level:
            tb.content = True


def list_at_end(doc: list[TextBlock]) -> None:
    """ListAtEndFilter: link-free list items nested below the largest block, right after
    it, are content."""
    level: float = float("inf")
    for tb in doc:
        if tb.content and VERY_LIKELY_CONTENT in tb.labels:
            level = tb.tag_level
        elif (tb.tag_level > level and MIGHT_BE_CONTENT in tb.labels and LI in tb.labels
              and tb.link_density == 0):
            tb.content = True
        else:
            level = float("inf")


# --- extractors --------------------------------------------------------------------------


def article(doc: list[TextBlock], title: str, options: Options) -> list[TextBlock]:
    """ArticleExtractor's chain, Java boilerpipe 1.2's twelve filters in order."""
    mark_terminating(doc)
    mark_title(doc, title)
    classify(doc, num_words_rules)
    ignore_after_end(doc, options.min_words_before_end)
    trailing_headlines(doc)
    doc = proximity_fusion(doc, content_only=False)
    doc = [tb for tb in doc if tb.content or TITLE in tb.labels]  # BoilerplateBlockFilter
    doc = proximity_fusion(doc, content_only=True, same_level=True)
    keep_largest(doc, options.expand_min_words)
    expand_title(doc)
    large_blocks_to_content(doc, options.large_block_words)
    list_at_end(doc)
    return doc


def default(doc: list[TextBlock]) -> list[TextBlock]:
    """DefaultExtractor's chain: fuse equal text densities, then the density rules (its
    proximity fusion runs before any block is content, so it fuses nothing)."""
    fused: list[TextBlock] = []
    for tb in doc:
        if fused and fused[-1].text_density == tb.text_density:
            fused[-1].merge(tb)
        else:
            fused.append(tb)
    classify(fused, density_rules)
    return fused


def label(page: Page, options: Options = Options()) -> Labels:
    """Regroup the runs into text blocks, run the chosen extractor, keep its content."""
    if options.variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, not {options.variant!r}")
    blocks = page.blocks
    doc = boilerpipe_blocks(blocks, options.line_width)
    count = len(doc)
    doc = article(doc, page.title, options) if options.variant == "article" else default(doc)
    keep = [False] * len(blocks)
    for tb in doc:
        if tb.content:
            for i in tb.runs:
                keep[i] = True
    details = {"variant": options.variant, "text_blocks": count,
               "content_blocks": sum(tb.content for tb in doc)}
    return Labels(NAME, label_paragraphs(blocks, keep), details)
