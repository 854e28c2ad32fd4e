"""``boilerpipe``: shallow text features (Kohlschütter et al., WSDM 2010), seed 002 §3.1.

Each text block is described by its number of words, its link density (words inside
``<a>`` over words), its text density (words per line when the block is wrapped at 80
characters) and the same features of the previous and next blocks; published decision
trees say which blocks are content.  Two extractors are offered, as the reference
implementations name them (``Options.variant``):

- ``"default"`` (DefaultExtractor): fuse neighbours of equal text density, then the
  density rules (:func:`density_rules`);
- ``"article"`` (ArticleExtractor, the default here because it is the one users call
  "boilerpipe" and the one tuned for news articles): mark terminating blocks ("comments",
  "© Reuters"…), mark blocks equal to the page title (or its longest part), the
  number-of-words rules (:func:`num_words_rules`), drop everything after a terminating
  block once 60 full-text words were seen, fuse neighbouring content, keep the largest
  content region, and expand it back to the title.

Blocks.  Boilerpipe's text block is the text between two tags that are neither inline
(``b i em strong span sup sub code tt var u strike font abbr acronym``) nor ``<a>``;
``<br>`` and ``<img>`` end a block too.  Those are regrouped here from the page's runs
(:func:`boilerpipe_blocks`): a run starts a new block when a non-inline tag was crossed
since the previous run.  Words are the BoilerPy3 tokenizer's (runs of word characters and
``"'.,!@-:;$?()/``, holding at least one letter or digit); a run inside ``<a href>`` gives
anchor words.

The filter chain follows BoilerPy3 (github.com/jmriebold/BoilerPy3, ``extractors.py``),
the peer this method is measured against; the Java original (kohlschutter/boilerpipe
1.2) adds ``TrailingHeadlineToBoilerplateFilter``, keeps title blocks in
``BoilerplateBlockFilter``, fuses content only at the same tag level, expands the
largest block to its tag level and adds ``LargeBlockSameTagLevelToContentFilter`` and
``ListAtEndFilter``; those are not reproduced.  Known differences from BoilerPy3, all
from the shared parse: hidden elements (``display:none``), ``<iframe>``, ``<svg>``,
``<textarea>``/``<select>`` text are not blocks here; ``<br/>`` ends a block here (BoilerPy3
ignores self-closing tags); image alt text is never content (Boilerpipe has none); a
``<script>`` inside a paragraph does not split it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter

from ..model import Block, Label, Labels, Page
from .common import label_paragraphs

NAME = "boilerpipe"
SEED = "002"
DESCRIPTION = "Boilerpipe: shallow text features (words, link and text density) and article rules"

#: tags that neither end a block nor change the tag level (BoilerPy3's tag action map)
INLINE = frozenset("strike u b i em strong span sup code tt sub var abbr acronym font".split())
#: ``<a>`` does not end a block, but raises the tag level
ANCHOR = "a"

VARIANTS = ("article", "default")

#: crossed tags that leave a run in the current block
_STAYS = INLINE | {"/" + t for t in INLINE} | {ANCHOR, "/" + ANCHOR}

#: Boilerpipe's tokens (BoilerPy3 ``PAT_WORD``: runs of word characters and
#: ``"'.,!@-:;$?()/``) and its words, the tokens holding a letter or digit: one pattern
#: finds the words directly (a token without a letter or digit fails it at every start)
_TOKEN_CHARS = r"[\w\"'.,!@\-:;$?()/]"
_WORD = re.compile(f"{_TOKEN_CHARS}*[^\\W_]{_TOKEN_CHARS}*")


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    #: "article" (ArticleExtractor) or "default" (DefaultExtractor); see the module doc
    variant: str = "article"
    #: width of a wrapped line in characters (the paper's 80-column display)
    line_width: int = 80
    #: full-text words to see before a terminating block ends the article
    #: (``IgnoreBlocksAfterContentFilter``'s published default)
    min_words_before_end: int = 60


# --- blocks and features -----------------------------------------------------------------


@dataclass(slots=True, eq=False)
class TextBlock:
    """A Boilerpipe text block: features of one or more fused groups of runs."""

    runs: list[int]
    text: str
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

    @property
    def text_density(self) -> float:
        return self.wrapped_words / self.wrapped_lines if self.wrapped_lines else 0.0

    @property
    def link_density(self) -> float:
        return self.anchor_words / self.words if self.words else 0.0

    def merge(self, other: TextBlock) -> None:
        """Fuse ``other`` (the next block) into this one: features add up."""
        self.runs += other.runs
        self.text = f"{self.text}\n{other.text}"
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


def features(runs: Sequence[tuple[str, bool, bool]], width: int = 80) -> tuple[int, int, int, int]:
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


def join_runs(runs: Sequence[tuple[str, bool, bool]]) -> str:
    """The runs' texts, a space where the page had whitespace or a break between them."""
    return "".join((" " if k and space else "") + text for k, (text, space, _) in enumerate(runs))


def starts_block(block: Block) -> bool:
    """Whether a non-inline tag was crossed since the previous run (``<pre>``'s line
    breaks excepted: they are characters to Boilerpipe, not tags)."""
    if block.crossed == ("br",) and block.within("pre"):
        return False
    return not _STAYS.issuperset(block.crossed)


def tag_level(block: Block) -> int:
    """Boilerpipe's tag level: the enclosing elements that are not inline."""
    return sum(1 for t in block.path if t not in INLINE)


def boilerpipe_blocks(blocks: Sequence[Block], width: int = 80) -> list[TextBlock]:
    """Regroup the page's runs into Boilerpipe's text blocks, with their features.

    Image alt texts are not text to Boilerpipe: an image ends a block and belongs to none.
    A group without a word makes no block (Boilerpipe's handler drops it).
    """
    groups: list[list[int]] = []
    for i, block in enumerate(blocks):
        if block.image is not None:
            groups.append([])
            continue
        if not groups or not groups[-1] or starts_block(block):
            groups.append([])
        groups[-1].append(i)
    out: list[TextBlock] = []
    for members in filter(None, groups):
        if len(members) == 1:  # most blocks: one run, no joining or link splitting
            run = blocks[members[0]]
            text, tokens = run.text, _WORD.findall(run.text)
            words, anchor = len(tokens), len(tokens) if run.link_chars else 0
            wrapped_words, lines = wrap(tokens, width)
        else:
            runs = [(blocks[i].text, blocks[i].space_before, blocks[i].link_chars > 0) for i in members]
            words, anchor, wrapped_words, lines = features(runs, width)
            text = join_runs(runs)
        if not words:
            continue
        n = len(out)
        out.append(TextBlock(members, text, words, anchor, wrapped_words, lines, n, n,
                             tag_level(blocks[members[0]])))
    return out


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

END_OF_TEXT = "end-of-text"
TITLE = "title"
MIGHT_BE_CONTENT = "might-be-content"

#: TerminatingBlocksFinder's phrases (Boilerpipe 1.2; BoilerPy3 lost the "©" and the "ä")
_END_STARTS = ("comments", "© reuters", "please rate this", "post a comment")
_END_CONTAINS = ("what you think...", "add your comment", "add comment", "reader views",
                 "have your say", "reader comments", "rätta artikeln")
_END_EQUALS = "thanks for your comments - this feedback is now closed"
_LEADING_NUMBER = re.compile(r"\d+")


def terminating(text: str) -> bool:
    """A short block that announces the end of an article ("Comments", "12 comments"…)."""
    lc = text.strip().lower()
    if len(lc) < 8:
        return False
    number = _LEADING_NUMBER.match(lc)
    if number and lc.startswith((" comments", " users responded in"), number.end()):
        return True
    return (lc.startswith(_END_STARTS) or any(p in lc for p in _END_CONTAINS)
            or lc == _END_EQUALS)


def mark_terminating(doc: list[TextBlock]) -> None:
    for tb in doc:
        if tb.words < 15 and terminating(tb.text):
            tb.labels.add(END_OF_TEXT)


_TITLE_SEPARATORS = tuple(re.compile(p) for p in
                          (r" *[|:] *", r" *[|:()] *", r" *[|:()\-] *", r" *[|,:()\-] *"))
_TITLE_WORD = re.compile(r"\w+")


def potential_titles(title: str) -> set[str]:
    """The title and, for each separator set, its longest part (lower-cased)."""
    title = title.strip()
    if not title:
        return set()
    found = {title.lower()}
    for separator in _TITLE_SEPARATORS:
        parts = separator.split(title)
        if len(parts) < 2:
            continue
        best, best_words = "", 0
        for part in parts:
            if ".com" in part:
                continue
            words = len(_TITLE_WORD.findall(part))
            if words > best_words or len(part) > len(best):
                best, best_words = part, words
        if best:
            found.add(best.strip().lower())
    return found


def mark_title(doc: list[TextBlock], title: str) -> None:
    """DocumentTitleMatchClassifier: a block equal to a potential title is the title."""
    titles = potential_titles(title)
    for tb in doc:
        if tb.text.strip().lower() in titles:
            tb.labels.add(TITLE)


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


def proximity_fusion(doc: list[TextBlock], *, content_only: bool) -> list[TextBlock]:
    """BlockProximityFusion (distance 1): a content block joins the block before it when
    at most one block lies between them (with ``content_only``, when both are content)."""
    start = 0
    if content_only:
        start = next((i for i, tb in enumerate(doc) if tb.content), len(doc))
        if start == len(doc):
            return doc
    if len(doc) < 2:
        return doc
    out = doc[: start + 1]
    prev = doc[start]
    for tb in doc[start + 1:]:
        near = tb.start - prev.end - 1 <= 1
        if tb.content and near and (prev.content or not content_only):
            prev.merge(tb)
            continue
        out.append(tb)
        prev = tb
    return out


def keep_largest(doc: list[TextBlock]) -> None:
    """KeepLargestBlockFilter: only the content block with most words stays content."""
    if len(doc) < 2:
        return
    largest = max((tb for tb in doc if tb.content), key=lambda tb: tb.words, default=None)
    for tb in doc:
        tb.content = tb is largest
        if tb is not largest:
            tb.labels.add(MIGHT_BE_CONTENT)


def expand_title(doc: list[TextBlock]) -> None:
    """ExpandTitleToContentFilter: blocks between the title and the content are content."""
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


# --- extractors --------------------------------------------------------------------------


def article(doc: list[TextBlock], title: str, options: Options) -> list[TextBlock]:
    """ArticleExtractor's chain (as BoilerPy3 runs it)."""
    mark_terminating(doc)
    mark_title(doc, title)
    classify(doc, num_words_rules)
    ignore_after_end(doc, options.min_words_before_end)
    doc = proximity_fusion(doc, content_only=False)
    doc = [tb for tb in doc if tb.content]  # BoilerplateBlockFilter
    doc = proximity_fusion(doc, content_only=True)
    keep_largest(doc)
    expand_title(doc)
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
