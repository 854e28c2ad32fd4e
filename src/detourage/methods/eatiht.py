"""``eatiht``: the Wutsi / eatiht extractor of seed 001, on the shared block model.

The seed's two phases, as it states them:

*Cleaning* — remove comments (the parser already drops them); the non-textual elements
``head style script nav iframe noscript header footer aside``; social-network embeds;
elements whose id or class names a useless section (``footer``, ``comments``,
``related_posts``, ``top_nav``, ``addthis_tool``, ``embedly-card`` "etc."); then the
elements left empty.

*Extraction* — (1) select the text nodes of 20 characters or more and take their
parents; (2) score each parent by the number of sentences it contains; (3) take the
argmax; (4) fuse with it every selected node that has the same parent.  Images inside
the result are kept.

The page's tree is shared by every method, so nothing is deleted: the cleaning phase
marks each block as removed when one of its ancestors is (one walk up from each block,
memoised per element, so each element is judged once), and the extraction phase only
sees the blocks left.  Elements "left empty" by the cleaning are exactly those without a
remaining block, so ignoring removed blocks *is* the seed's last cleaning step.

Choices the seed leaves open (the tunable ones are :class:`Options` fields); "the Wutsi
code" is the authors' published extractor (github.com/wutsi/wutsi-extractor, ``filter/
SanitizeFilter.java`` and ``ContentFilter.java``), "eatiht" R. Palacios' original Python:

- the id/class vocabulary is data (``data/eatiht_useless.txt``), matched by whole
  tokens (see :class:`Vocabulary`), never by substring; a name that also says
  ``content`` or ``body`` is spared (see ``GUARDS``), and so are <html> and <body>;
- ``button``, ``select`` and ``textarea`` are added to the seed's tag list: they hold
  control labels and user input, not text (``svg``, ``template`` and the like never
  become blocks at all, see :mod:`detourage.segment`);
- a text run's *parent* is its nearest non-inline ancestor: the text of
  ``<p>… <b>long text</b> …</p>`` belongs to the ``<p>``, as in the Wutsi code (which
  treats a/span/b/i/em/strong… as part of the enclosing block) — otherwise the
  argmax could be a ``<span>`` and the fusion its sibling spans;
- link text does not select its parent (eatiht's XPath excludes ``a`` parents, and the
  Wutsi code strips links before measuring): menus of long link titles are not content;
- sentences are counted by :func:`sentences`, a language-independent splitter, over
  the node's whole remaining text (image alt texts excluded); a node with text scores
  at least 1;
- ties of the argmax go to the node whose sibling group holds the most sentences;
  ``argmax="group"`` ranks groups first, as the published implementations do (see
  :func:`argmax`);
- the fusion keeps the *selected* siblings, as the Wutsi code does, with every block
  inside them, images included; images outside them (a <figure> beside the paragraphs)
  are lost — the seed reports importing only half of the images.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lxml.etree import _Element as Element

from ..model import Block, Label, Labels, Page
from .common import label_paragraphs

NAME = "eatiht"
SEED = "001"
DESCRIPTION = "Wutsi/eatiht: drop useless sections, keep the sentence-richest node and its siblings"

#: seed 001's non-textual elements, plus form controls (their text is control labels)
REMOVED_TAGS = frozenset(
    "head style script nav iframe noscript header footer aside button select textarea".split()
)

#: inline elements: a text run inside one belongs to the block that encloses it
INLINE = frozenset(
    """a abbr acronym b bdi bdo big cite code data del dfn em font i ins kbd label mark
    nobr q s samp small span strike strong sub sup time tt u var wbr""".split()
)

#: never removed by the id/class rule: a class on <body> describes the whole page
_NEVER_BY_NAME = frozenset({"html", "body"})

#: tokens that name the text itself: an element called "content-sidebar-wrap" (Genesis
#: themes), "entry-content has-comments" or "article-advert-body" wraps the article,
#: whatever else its name says.  Mean bag-of-tokens F1 against gold over the first 400
#: pages of each shared dataset: no guard 0.809, {content} 0.836, {content, body} 0.839,
#: adding main and article 0.833 ("main_footer", "article_related" are sections).
GUARDS = frozenset({"content", "body"})

#: the packaged vocabulary of useless ids and class names
VOCABULARY = "eatiht_useless.txt"


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    #: shortest text run (characters, whitespace collapsed) that selects its parent;
    #: seed 001: "20 caractères et plus" (15 scores +0.004 F1 on the shared data, 30
    #: −0.003: not worth leaving the seed)
    min_chars: int = 20
    #: elements removed with their content in the cleaning phase (seed 001's list + controls)
    tags: frozenset[str] = REMOVED_TAGS
    #: id/class vocabulary: None for the packaged file, a path to a file in the same format,
    #: or the entries themselves
    vocabulary: str | Path | frozenset[str] | None = None
    #: the parent of a run inside inline elements is the enclosing block (see module doc;
    #: F1 0.839 with it, 0.815 without, same data as ``GUARDS``)
    lift_inline: bool = True
    #: text inside <a href> never selects its parent (eatiht's XPath excludes a-parents;
    #: F1 0.839 with it, 0.820 without)
    skip_links: bool = True
    #: "node": the sentence-richest node (seed 001's text); "group": the parent whose
    #: selected children hold the most sentences (the published code), see :func:`argmax`.
    #: "group" scores far better on news pages (all shared pages: l3s-gn1 F1 0.909 vs
    #: 0.841, daniel 0.882 vs 0.822), but the seed describes "node"
    argmax: str = "node"


def label(page: Page, options: Options = Options()) -> Labels:
    """Clean, select, score, take the argmax, fuse with its siblings; keep what is inside."""
    blocks = page.blocks
    removed = cleaning(blocks, options.tags, vocabulary(options.vocabulary))
    selected = selection(blocks, removed, options)
    if not selected:
        return Labels(NAME, (Label.OTHER,) * len(blocks), {"reason": "no text node selected"})
    owners, texts = ownership(blocks, removed, selected)
    pieces = [Pieces.of(block.text) for block in blocks]
    scores = {node: max(1, Pieces.join(pieces[i] for i in texts[node]).count) for node in selected}
    family = parents_of(scores)
    totals = group_totals(scores, family)
    best = argmax(scores, family, totals, options.argmax)
    kept = fusion(best, family)
    keep = [not kept.isdisjoint(own) for own in owners]
    details = {
        "node": best.getroottree().getpath(best),
        "score": scores[best],
        "group_score": totals[family[best]],
        "selected": len(selected),
        "fused": len(kept),
        "removed_blocks": sum(removed),
    }
    return Labels(NAME, label_paragraphs(blocks, keep), details)


# --- cleaning ---------------------------------------------------------------------------


def cleaning(blocks: Sequence[Block], tags: frozenset[str], names: Vocabulary) -> list[bool]:
    """For each block, whether the cleaning phase removes it (an ancestor-or-self is useless).

    Each element is judged once: the walk up from a block stops at the first element
    already judged, and a removed element's verdict passes down to its descendants.
    """
    verdicts: dict[Element, bool] = {}

    def judge(el: Element | None) -> bool:
        chain: list[Element] = []
        while el is not None and el not in verdicts:
            chain.append(el)
            el = el.getparent()
        verdict = verdicts[el] if el is not None else False
        for el in reversed(chain):
            verdict = verdict or useless(el, tags, names)
            verdicts[el] = verdict
        return verdict

    out: list[bool] = []
    for block in blocks:
        verdict = verdicts.get(block.node)
        out.append(judge(block.node) if verdict is None else verdict)
    return out


def useless(el: Element, tags: frozenset[str], names: Vocabulary) -> bool:
    """An element the cleaning phase removes by its tag, id or class."""
    tag = el.tag
    if tag in tags:
        return True
    if tag in _NEVER_BY_NAME:
        return False
    cls = el.get("class")
    if cls and names.matches(cls):
        return True
    ident = el.get("id")
    return bool(ident) and names.matches(ident)


_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATOR = re.compile(r"[-_\s]+")


def tokens(name: str) -> tuple[str, ...]:
    """``"relatedPosts__list"`` → ``("related", "posts", "list")``."""
    return tuple(t for t in _SEPARATOR.split(_HUMP.sub("-", name).lower()) if t)


class Vocabulary:
    """Useless-section names, matched by whole consecutive tokens of an id or class name.

    ``"comments"`` matches ``"post-comments"`` and ``"commentsArea"`` but not
    ``"commentary"``; ``"related_posts"`` matches ``"yarpp-related-posts"``.  A class
    attribute is split at whitespace first: tokens never run across two class names.  An
    entry written ``=name`` matches only a whole name equal to it (case aside).
    """

    def __init__(self, entries: Iterable[str]) -> None:
        entries = list(entries)
        #: entries written ``=name`` match that whole name only (``=hidden`` spares the
        #: responsive ``hidden-xs``, which is visible on wide screens)
        self.exact = frozenset(e[1:].lower() for e in entries if e.startswith("="))
        entries = [e for e in entries if not e.startswith("=")]
        self.entries = frozenset(t for t in map(tokens, entries) if t)
        self.longest = max((len(e) for e in self.entries), default=0)
        self.firsts = frozenset(e[0] for e in self.entries)
        # attribute values repeat within a page and across a site's pages
        self.matches = lru_cache(maxsize=1 << 16)(self._matches)

    def _matches(self, value: str) -> bool:
        entries, longest = self.entries, self.longest
        found = False
        for name in value.split()[:_MOST_NAMES]:
            if "/" in name:  # a URL (CleanEval's <text id="http://…">), not a name
                continue
            parts = tokens(name)
            if not GUARDS.isdisjoint(parts):
                return False
            if found or name.lower() in self.exact:
                found = True
                continue
            if self.firsts.isdisjoint(parts):
                continue
            found = any(
                parts[i:j] in entries
                for i in range(len(parts))
                for j in range(i + 1, min(i + longest, len(parts)) + 1)
            )
        return found


#: the class names of one attribute that are read: real ones hold a few (18 at most in a
#: third of the shared pages), and reading 100 000 took a second
_MOST_NAMES = 200


@lru_cache(maxsize=16)
def vocabulary(spec: str | Path | frozenset[str] | None = None) -> Vocabulary:
    """The vocabulary an :class:`Options` names (loaded once per distinct value)."""
    if isinstance(spec, frozenset):
        return Vocabulary(spec)
    if spec is None:
        text = resources.files("detourage").joinpath("data", VOCABULARY).read_text("utf-8")
    else:
        text = Path(spec).read_text("utf-8")
    return Vocabulary(parse_vocabulary(text))


def parse_vocabulary(text: str) -> list[str]:
    """Entries of a vocabulary file: one per line, ``#`` starts a comment."""
    return [entry for line in text.splitlines() if (entry := line.split("#", 1)[0].strip())]


# --- extraction -------------------------------------------------------------------------


def selection(
    blocks: Sequence[Block], removed: Sequence[bool], options: Options
) -> dict[Element, None]:
    """Step 1: the parents of the remaining text runs of ``min_chars`` or more, in order.

    Image alt texts are not text nodes and select nothing.
    """
    parents: dict[Element, Element] = {}
    selected: dict[Element, None] = {}
    for block, gone in zip(blocks, removed, strict=True):
        if gone or block.image is not None or len(block.text) < options.min_chars:
            continue
        if options.skip_links and block.link_chars:
            continue
        node = block.node
        if options.lift_inline:
            parent = parents.get(node)
            if parent is None:
                parent = parents[node] = enclosing_block(node)
            node = parent
        selected[node] = None
    return selected


def enclosing_block(el: Element) -> Element:
    """The nearest ancestor-or-self of ``el`` that is not an inline element."""
    while el.tag in INLINE:
        parent = el.getparent()
        if parent is None:
            break
        el = parent
    return el


def ownership(
    blocks: Sequence[Block], removed: Sequence[bool], selected: dict[Element, None]
) -> tuple[list[tuple[Element, ...]], dict[Element, list[int]]]:
    """For each block, the selected nodes that contain it; for each selected node, the
    indices of the remaining blocks inside it (its "whole text", images excluded)."""
    nearest: dict[Element, Element | None] = {}  # element → nearest selected ancestor-or-self

    def up(el: Element | None) -> Element | None:
        chain: list[Element] = []
        while el is not None and el not in nearest:
            if el in selected:
                nearest[el] = el
                break
            chain.append(el)
            el = el.getparent()
        found = nearest[el] if el is not None else None
        for e in chain:
            nearest[e] = found
        return found

    texts: dict[Element, list[int]] = {node: [] for node in selected}
    owners: list[tuple[Element, ...]] = []
    for i, (block, gone) in enumerate(zip(blocks, removed, strict=True)):
        own: list[Element] = []
        if not gone:
            node = up(block.node)
            while node is not None:
                own.append(node)
                if block.image is None:
                    texts[node].append(i)
                node = up(node.getparent())
        owners.append(tuple(own))
    return owners, texts


def parents_of(selected: Iterable[Element]) -> dict[Element, Element]:
    """Each selected node's parent (a node without one stands for its own family)."""
    family: dict[Element, Element] = {}
    for node in selected:
        parent = node.getparent()
        family[node] = node if parent is None else parent
    return family


def group_totals(scores: dict[Element, int], family: dict[Element, Element]) -> dict[Element, int]:
    """The summed scores of the selected nodes sharing each parent."""
    totals: dict[Element, int] = {}
    for node, score in scores.items():
        totals[family[node]] = totals.get(family[node], 0) + score
    return totals


def argmax(
    scores: dict[Element, int], family: dict[Element, Element], totals: dict[Element, int], by: str
) -> Element:
    """Step 3: the selected node with the most sentences.

    Ties (frequent on news pages, where paragraphs are one sentence long) go to the node
    whose siblings hold the most sentences — the seed's second principle, "useful content
    is grouped" — then to the first in document order.  With ``by="group"`` the group
    total decides first, as both published implementations do (eatiht's histogram over
    parent paths, Wutsi's per-parent sum); the node returned is then the group's best.
    """
    if by == "group":
        return max(scores, key=lambda n: (totals[family[n]], scores[n]))
    if by != "node":
        raise ValueError(f"argmax must be 'node' or 'group', not {by!r}")
    return max(scores, key=lambda n: (scores[n], totals[family[n]]))


def fusion(best: Element, family: dict[Element, Element]) -> set[Element]:
    """Step 4: the argmax and every selected node that shares its parent."""
    parent = family[best]
    return {node for node, p in family.items() if p is parent}


# --- sentences --------------------------------------------------------------------------

#: sentence-final punctuation that needs a space (or the end of the text) after it, so
#: that "3.14", "example.com" or "Yahoo!News" do not end sentences: Latin . ! ? …, the
#: doubled forms, Armenian full stop, Arabic question mark, Urdu full stop, the Greek
#: question mark U+037E.  Left out: the ASCII ";" (a clause separator in most scripts,
#: even though NFC turns the Greek question mark into it) and the Greek ano teleia "·"
#: (a Greek semicolon); measured on the shared datasets, adding both changes token F1 by
#: less than 0.001.
_SPACED = ".!?\u2026\u203c\u2047\u2048\u2049\u0589\u061f\u06d4\u037e"
#: sentence-final punctuation of scripts written without spaces between sentences: CJK
#: full stops (。．｡), fullwidth ! ? ;, Devanagari danda and double danda, Ethiopic,
#: Myanmar, Tibetan and Khmer full stops.
_UNSPACED = "\u3002\uff0e\uff61\uff01\uff1f\uff1b\u0964\u0965\u1362\u104b\u0f0d\u17d4"
#: closing quotes and brackets that may follow the punctuation
_CLOSERS = "\"'\u2019\u201d\u00bb)\\]\u300d\u300f\u300b\u3009\uff09"
#: every sentence-final mark, as the inside of a character class
_FINAL = f"{re.escape(_SPACED)}{_UNSPACED}"
#: the longest run of final punctuation and closers that is followed by a space or the end
#: of the text, or that ends in (or one closer after) an unspaced stop.  Read in one pass,
#: without backtracking (a run of dots before a letter took time quadratic in its length):
#: a match starts only where a run does (the lookbehind), then (1) the whole run before a
#: space, else (2) the punctuation ending in an unspaced stop, with one closer, else
#: (3) the punctuation up to its last unspaced stop.  The pattern opens with one character
#: class so that the regex engine skips ahead to candidates.
_SENTENCE_END = re.compile(
    f"[{_FINAL}](?<![{_FINAL}][{_FINAL}])(?:"
    f"[{_FINAL}]*+[{_CLOSERS}]*+(?=\\s|$)"
    f"|[{_FINAL}]*+(?<=[{_UNSPACED}])[{_CLOSERS}]?"
    f"|(?:[{re.escape(_SPACED)}]*+[{_UNSPACED}])*+(?<=[{_UNSPACED}]))"
)
_WORD = re.compile(r"\w")


def sentences(text: str) -> int:
    """Step 2's score: the number of sentences of ``text``, in any script.

    The text is cut after each run of sentence-final punctuation (see ``_SPACED`` and
    ``_UNSPACED``); the pieces holding at least one letter or digit are sentences.  A
    text without punctuation is one sentence (zero only when it holds no letter or digit;
    callers give any node with text at least 1).
    """
    return sum(1 for piece in _SENTENCE_END.split(text) if _WORD.search(piece))


@dataclass(frozen=True, slots=True)
class Pieces:
    """What :func:`sentences` needs to know of a text, in a form that concatenates.

    A text cut at its sentence ends gives ``ends + 1`` pieces; only the first and last
    can merge with a neighbouring text, so a text is summed up by whether those hold a
    word and how many word pieces lie between them.  Joining two summaries gives the
    summary of the two texts joined by a space (the punctuation context the pattern
    looks at never crosses that space), so a node's score is a fold over its blocks'
    summaries instead of a regex over its whole text, once per ancestor it is nested in.
    """

    ends: int
    first: bool
    last: bool
    inner: int

    @staticmethod
    def of(text: str) -> Pieces:
        parts = _SENTENCE_END.split(text)
        words = [_WORD.search(part) is not None for part in parts]
        return Pieces(len(parts) - 1, words[0], words[-1], sum(words[1:-1]))

    @property
    def count(self) -> int:
        return int(self.first) if not self.ends else self.first + self.inner + self.last

    def __add__(self, other: Pieces) -> Pieces:
        if not self.ends and not other.ends:  # one piece each: they merge into one
            word = self.first or other.first
            return Pieces(0, word, word, 0)
        if not self.ends:
            return Pieces(other.ends, self.first or other.first, other.last, other.inner)
        if not other.ends:
            return Pieces(self.ends, self.first, self.last or other.first, self.inner)
        inner = self.inner + other.inner + (self.last or other.first)
        return Pieces(self.ends + other.ends, self.first, other.last, inner)

    @staticmethod
    def join(pieces: Iterable[Pieces]) -> Pieces:
        total = Pieces(0, False, False, 0)
        for piece in pieces:
            total = total + piece
        return total
