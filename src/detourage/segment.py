"""Segmentation: the lxml tree → the page's text blocks, written once for every method.

Blocks follow Victor's precleaning (seed 003 §3.2–3.3): text is split at every tag;
each block knows its containers (``path``) and the tags crossed since the previous block
(``crossed``, Victor's ``distance``); inside ``<pre>`` every line is its own block, the
newline counting as a crossed ``br``; an ``<img>`` contributes its ``alt`` text as a block
of its own, with the source a reader would get (:func:`image_of`: lazy loading resolved,
icons and tracking pixels marked ``decorative``).
Invisible content (scripts, styles, ``<head>``, ``hidden`` elements…) is never a block,
but for the TeX of a MathJax 2 formula (``<script type="math/tex">``,
:func:`~detourage.formulas.math_script`): a block of its own, the script its node.
On top of the runs, ``Block.paragraph`` numbers the *paragraph view*: runs not separated
by a block-level tag or a ``<br>`` share a number.

Block text is cleaned in one place, :func:`clean_text` (soft hyphens, invisible
zero-width characters and control characters out, NFC), before it is split into words.  A page has at most
``Limits.max_blocks`` blocks: the count is checked as each block is made, so a page of
millions of one-character lines fails with ``limit:blocks`` before it takes the memory.
Blocks of one page share their ``path`` and ``crossed`` tuples when equal (a page of
400 000 table cells holds a handful of distinct ones).

``_segment`` is the reference.  When the optional extension ``detourage._csegment`` is
built, :func:`segment` runs its compiled twin instead (same blocks, read straight from
libxml2's nodes); ``DETOURAGE_PURE_PYTHON=1`` forces the Python loop, and
``IMPLEMENTATION`` says which one is active (``"compiled"`` or ``"python"``).
"""

from __future__ import annotations

import contextlib
import gc
import re
import unicodedata
from collections.abc import Callable, Iterator
from operator import attrgetter

from lxml import etree

from .compiled import optional
from .errors import LimitExceeded
from .formulas import mark, math_script, tex_alt
from .model import Block
from .settings import DEFAULT_LIMITS, Limits

#: elements whose content is never shown as text (Victor's ``tag-delete`` plus the
#: HTML5 elements that render no text of their own).  ``<head>`` is not among them: its
#: normal children all are, and libxml2 sometimes leaves body content inside it.  Nor is
#: ``<source>``: libxml2 does not know it is void and nests the ``<img>`` of a
#: ``<picture>`` inside it (in ``<audio>`` and ``<video>`` it is hidden with them).
INVISIBLE = frozenset(
    """script style noscript template iframe object embed applet svg canvas
    audio video map param track datalist title meta link base""".split()
)

#: elements that start a new line in a browser: a run after one of them is a new paragraph
BLOCK_LEVEL = frozenset(
    """address article aside blockquote body br caption center dd details dialog dir div
    dl dt fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup
    hr html legend li main menu nav ol option p pre section select summary table tbody
    td textarea tfoot th thead tr ul""".split()
)

#: elements whose runs are a word's pieces whatever their letters: an index ("CO" + "2"),
#: an exponent, a footnote's call ("Rust" + "1"), code (:func:`apart`)
WORD_PIECES = frozenset({"sup", "sub", "pre", "code"})


def apart(before: Block, text: str, path: tuple[str, ...]) -> bool:
    """Whether the run ``text`` and the run ``before`` it, which meet in one paragraph with
    no space between, are two words all the same: a lower-case letter against a capital
    ("Publisher" + "Houghton Mifflin"), a letter against a digit, or a digit against a
    capital ("Item Weight" + "12 Oz", "€49.99" + "VAT").  A shop's label and its value, a
    menu's links, a price and its tax note are elements a style sheet lays out apart
    though the HTML writes no space between them; a word of prose seldom changes case or
    turns to digits across a tag, while drop caps ("T" + "he"), a styled syllable ("child" +
    "ren") and ordinals ("20" + "th") stay joined.  WCXB's gold, the page as shown, holds
    such runs apart; the other golds, taken from the HTML's text, join a few (a menu's
    "Enlarge" + "Close"): ``benchmarks/studies/glued_runs.py`` counts both, and
    docs/output-quality.md ("Words a style sheet sets apart") gives the figures.  Not
    inside :data:`WORD_PIECES`, nor after an image's alt text."""
    if not text or not before.text or before.image is not None:
        return False
    left, right = before.text[-1], text[0]
    if not (left.islower() and (right.isupper() or right.isdigit())
            or left.isupper() and right.isdigit()
            or left.isdigit() and right.isupper()):
        return False
    return WORD_PIECES.isdisjoint(path) and WORD_PIECES.isdisjoint(before.path)


#: elements with no closing tag: they are crossed once, as an opening tag
VOID = frozenset("area base br col embed hr img input keygen link meta param source track wbr".split())

_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


#: the ARIA roles of a panel a reader opens (an accordion's section, a tab's panel): its
#: content is the page's, shown at a click, and read even while the page hides it
#: (on the LODO run, 6 wcxb-dev pages gained 0.11 to 0.64 in F1 and one lost 0.13,
#: no row moved down: docs/output-quality.md, "Pages whose scripts show their content")
PANEL_ROLES = frozenset({"region", "tabpanel"})


#: the classes of text written for screen readers only, which every CSS framework and
#: theme (Bootstrap, Tailwind, WordPress, Drupal, Foundation…) clips to nothing on
#: screen: "Skip to content", "(opens in a new tab)", "Option: BILLY bookcase…" on a
#: product card, "Posted on".  On wcxb-dev 541 of the 1 293 scored pages hold some; of
#: their pieces 6 151 are not in the gold and 604 are (mostly words the gold holds
#: anyway: "next", "search"): benchmarks/studies/hidden_pages.py
SCREEN_READER_CLASSES = frozenset(
    """sr-only sr_only screen-reader-text screenreader-only visually-hidden visuallyhidden
    u-visually-hidden hidden-visually show-for-sr element-invisible assistive-text a11y-hidden""".split()
)


def is_hidden(el: etree._Element) -> bool:
    """An element the page hides from readers (``hidden`` attribute, inline style, a
    class of text for screen readers only), unless it is a panel they open
    (:data:`PANEL_ROLES`, :func:`panel_class`); an element the attribute or the style
    hides is one too when its parent's class names an accordion's item or a question's
    (:data:`PANEL_PARENT_WORDS`: Chakra's ``chakra-accordion__item`` around its
    ``chakra-collapse``, a ``faq-item`` around its answer)."""
    style = el.get("style")
    markup = el.get("hidden") is not None or bool(style and _HIDDEN_STYLE.search(style))
    if not markup and not _screen_reader_only(el.get("class")):
        return False
    if el.get("role") in PANEL_ROLES or panel_class(el.get("class")):
        return False
    return not (markup and panel_parent(el.getparent()))


#: the words of a class naming a panel a reader opens: an accordion's section, an
#: expander's text (the class of its element or of a part of it: ``cmp-accordion__panel``,
#: ``a-expander-content``)
PANEL_CLASS_WORDS = ("accordion", "expander")


def panel_class(classes: str | None) -> bool:
    """Whether a class attribute names a panel a reader opens (:data:`PANEL_CLASS_WORDS`)."""
    return _names(classes, PANEL_CLASS_WORDS)


def _names(classes: str | None, words: tuple[str, ...]) -> bool:
    """Whether a class attribute (None: none) holds one of ``words``, in any case."""
    if not classes:
        return False
    lowered = classes.lower()
    return any(word in lowered for word in words)


#: the words of a class naming the item whose hidden child is the panel a reader opens:
#: an accordion's, a frequently asked question's (its answer)
PANEL_PARENT_WORDS = ("accordion", "faq")


def panel_parent(parent: etree._Element | None) -> bool:
    """Whether an element's parent names an item whose hidden child a reader opens."""
    return parent is not None and panel_item_class(parent.get("class"))


def panel_item_class(classes: str | None) -> bool:
    """Whether a class attribute names such an item (:data:`PANEL_PARENT_WORDS`)."""
    return _names(classes, PANEL_PARENT_WORDS)


#: a theme's or a component's own name for such a class, its prefix or suffix around one
#: of the same words ("wt-cli-sr-only", "u-srOnly", "plp-price__sr-text",
#: "is-screenreader-only", "okeReviews-a11yText", "SrOnly-module_srOnly__3NH1o": a CSS
#: module's hash); not a modifier saying a field's label is hidden, which sits on the
#: field and its text ("field--label-visually_hidden")
_SCREEN_READER_NAME = re.compile(
    r"(?<![a-z])(?<!label-)(?<!label_)(?:sr[-_]?only|sr[-_]text|screen[-_]?reader(?:[-_]?(?:text|only))?"
    r"|visually[-_]?hidden|a11y[-_]?text|offscreen|assistive[-_]?text|hidden[-_]?accessible|ada[-_]?hidden)"
    r"(?:[-_]focusable)?(?:__[a-z0-9]{5})?$")


def _screen_reader_only(classes: str | None) -> bool:
    if classes is None:
        return False
    names = classes.split()
    if not SCREEN_READER_CLASSES.isdisjoint(names):
        return True
    lowered = classes.lower()  # the pattern's words all hold one of these parts: most classes hold none
    return any(part in lowered for part in _SCREEN_READER_PARTS) and \
        any(_SCREEN_READER_NAME.search(name) for name in lowered.split())


_SCREEN_READER_PARTS = ("sr", "reader", "isually", "a11y", "offscreen", "assistive", "accessible", "ada")


#: the attributes :func:`is_hidden` reads: an element with none of them is shown
_MAY_HIDE = frozenset({"hidden", "style", "class"})


def unhide(el: etree._Element) -> None:
    """Show ``el`` (not its descendants) as :func:`is_hidden` reads it: its ``hidden``
    attribute and the hiding declarations of its inline style taken out."""
    if el.get("hidden") is not None:
        del el.attrib["hidden"]
    style = el.get("style")
    if style is not None:
        el.set("style", _HIDDEN_STYLE.sub("", style))


#: characters a reader never sees that break words apart for a search: the soft hyphen
#: (``&shy;``), the zero-width space, the word joiner and the zero-width no-break space
#: (a BOM inside text).  ZWNJ and ZWJ (U+200C, U+200D) stay: Persian and Indic scripts
#: and emoji sequences need them.
_INVISIBLE_CHARS = "\u00ad\u200b\u2060\ufeff"
#: C0 and C1 control characters, and DEL: never text (a page's stray ``\x01`` or ``\x1a``,
#: a C1 byte of a legacy page), a browser shows nothing or a box.  Those ``str.split``
#: takes for whitespace stay (tab, the line ends, ``\x0b``, ``\x0c``, ``\x1c``-``\x1f``,
#: NEL ``\x85``): the text model makes them spaces and, inside ``<pre>``, line ends.
CONTROL_CHARS = "".join(chr(c) for c in (*range(0x00, 0x09), *range(0x0e, 0x1c), *range(0x7f, 0xa0))
                        if not chr(c).isspace())
_INVISIBLE = re.compile(f"[{_INVISIBLE_CHARS}{re.escape(CONTROL_CHARS)}]")
_ASCII_CONTROL = re.compile(f"[{re.escape(''.join(c for c in CONTROL_CHARS if c.isascii()))}]")


#: a text of nothing but zero-width joiners and non-joiners (and spaces): they join no
#: letters, and a reader sees nothing (Webflow's rich text writes an empty paragraph so,
#: ``<p>\u200d</p>``, which was a blank line of txt)
_JOINERS_ONLY = re.compile(r"[\s\u200c\u200d]*[\u200c\u200d][\s\u200c\u200d]*")


def clean_text(text: str) -> str:
    """``text`` without invisible characters (``_INVISIBLE_CHARS``) and control characters
    (``CONTROL_CHARS``), in NFC: some CMSs emit decomposed text ("u" and a combining
    diaeresis), which a search for "ü" misses.  A text of zero-width joiners alone
    (``_JOINERS_ONLY``) is no text: "".

    Every run of block text goes through here before it is split into words; ASCII text
    without a control character needs nothing, and callers skip it (:func:`needs_cleaning`).
    The compiled segmentation calls it only for text it can change (``_csegment._clean``)."""
    if _INVISIBLE.search(text) is not None:
        text = _INVISIBLE.sub("", text)
    if _JOINERS_ONLY.fullmatch(text) is not None:
        return ""
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text


def needs_cleaning(text: str) -> bool:
    """Whether :func:`clean_text` can change ``text``: it is not ASCII, or holds an ASCII
    control character (``str.isascii`` costs nothing; the search runs only on ASCII text)."""
    return not text.isascii() or _ASCII_CONTROL.search(text) is not None


def cleaned(text: str) -> str:
    """``text`` through :func:`clean_text` when it needs it."""
    return clean_text(text) if needs_cleaning(text) else text


#: a page whose visible text is shorter than this is also read inside its ``<noscript>``
#: when that holds more
NOSCRIPT_PAGE_CHARS = 200
#: … and a page showing less than this, when its ``<noscript>`` holds this many times
#: its text: a forum's header and tagline (201 characters on a Discourse thread) beside
#: the thread's posts in ``<noscript>`` (eighty times that).  On the shared pages showing
#: under 3 000 characters, the other ``<noscript>``s hold "enable JavaScript" notices and
#: tracking pixels' words, at most as much as the text shown (``benchmarks/studies/hidden_pages.py``)
NOSCRIPT_SHOWN_CHARS = 1000
NOSCRIPT_RATIO = 5

#: blocks whose characters are counted at a time (most pages pass a bar in their first)
_STRIDE = 32
_TEXT = attrgetter("text")


def shown_chars(blocks: tuple[Block, ...], bar: int) -> int:
    """The characters of the blocks' text, counted up to ``bar`` (the count stops as soon
    as it reaches it: most pages pass a bar of a few hundred in their first blocks)."""
    shown = 0
    for first in range(0, len(blocks), _STRIDE):
        shown += sum(map(len, map(_TEXT, blocks[first:first + _STRIDE])))
        if shown >= bar:
            break
    return shown


def show_noscript(root: etree._Element | None, blocks: tuple[Block, ...]) -> bool:
    """Turn the ``<noscript>`` elements into ``<div>`` when the page shows little text
    and they hold more: single-page applications that serve their content to browsers
    without JavaScript there (every Discourse forum thread, some shop and documentation
    shells).  They do when the page shows under :data:`NOSCRIPT_PAGE_CHARS` characters
    and they hold more, or under :data:`NOSCRIPT_SHOWN_CHARS` and they hold
    :data:`NOSCRIPT_RATIO` times as much.  True when it did, and the page must be
    segmented again.  On every other page ``<noscript>`` stays invisible (its usual
    content: "enable JavaScript", tracking pixels); the block count is checked first, so
    that a page of many blocks pays one comparison."""
    if root is None or len(blocks) >= NOSCRIPT_SHOWN_CHARS:  # a block holds a character (but an image without alt text)
        return False
    shown = shown_chars(blocks, NOSCRIPT_SHOWN_CHARS)
    if shown >= NOSCRIPT_SHOWN_CHARS:
        return False
    hidden, held = noscript_text(root)
    if held <= (NOSCRIPT_PAGE_CHARS if shown < NOSCRIPT_PAGE_CHARS else NOSCRIPT_RATIO * shown):
        return False
    for el in hidden:
        el.tag = "div"
    return True


def noscript_text(root: etree._Element) -> tuple[list[etree._Element], int]:
    """The page's ``<noscript>`` elements that :func:`show_noscript` may show (the body's,
    or the page's without a body: one of the head holds links and styles, never text), and
    the characters of their text."""
    body = root.find("body")
    hidden = list((root if body is None else body).iter("noscript"))
    return hidden, sum(len(" ".join(el.itertext()).strip()) for el in hidden)  # type: ignore[arg-type, misc]  # lxml-stubs: an HTML tree's names and texts are str


def page_title(root: etree._Element | None) -> str:
    """The text of the document's ``<title>``, whitespace collapsed."""
    if root is None:
        return ""
    title = root.find("head/title")  # where a page has it: found without a walk of the tree
    if title is None:
        title = next(root.iter("title"), None)
    if title is None or not title.text:
        return ""
    return " ".join(cleaned(title.text).split())


def segment(root: etree._Element | None, limits: Limits = DEFAULT_LIMITS) -> tuple[Block, ...]:
    """Cut the page into text blocks in document order."""
    return segmented(root, limits)[0]


def segmented(root: etree._Element | None,
              limits: Limits = DEFAULT_LIMITS) -> tuple[tuple[Block, ...], bool, tuple[etree._Element, ...]]:
    """The page's blocks (:func:`segment`), whether one of them may show a formula
    (:func:`~detourage.formulas.mark` is True of it: a ``<math>`` or ``<mjx-container>``
    holds it, it is a MathJax source's TeX, or an image whose alt text is TeX), and the
    elements where the page may declare itself (:func:`declared_elements`).  The walk
    finds the formulas for nothing (a count of the open elements that mark one), where a
    look at every block afterwards cost a page tens of microseconds, twice: the learned
    method's formula step and the renderers ask it of every page.  The compiled walk
    collects the declarations as it passes them: a walk of their own, later, found the
    tree's nodes gone from the processor's caches (``benchmarks/learned_profile.py``'s
    ``f:page``, and the paired timings of docs/speed.md)."""
    if root is None:
        return (), False, ()
    with collector_paused():  # the walkers pause it once a page has PAUSE_BLOCKS blocks
        if _compiled is None:
            blocks, formulas = _segment(root, limits)
            return tuple(blocks), formulas, tuple(declared_elements(root))
        declared: list[etree._Element] = []
        blocks, formulas = _compiled(root, limits, declared)
        return tuple(blocks), formulas, tuple(declared)


def declared_elements(root: etree._Element) -> list[etree._Element]:
    """The elements of ``root`` where the page may declare itself, in document order:
    every ``<meta>``, ``<script>`` and ``<link>``, and every element with an ``itemtype``
    (:func:`detourage.learned.features.page_hints` reads its ``og:`` metadata, JSON-LD,
    canonical address and microdata types there).  The compiled twin
    (``_csegment.declared_elements``, and the compiled walk's collection) passes over
    the elements its reader rejects outright."""
    if _csegment is not None:
        return list(_csegment.declared_elements(root))
    return [el for el in root.iter() if el.tag in ("meta", "script", "link") or el.get("itemtype")]


#: a page of this many blocks is segmented and rendered with Python's cycle collector
#: paused: both make a few objects per block and no reference cycles, and on a page of
#: 200 000 blocks the collector's passes over them took a third to a half of the time.
#: Below, the collector runs as usual: one pass over a whole page's new objects at the
#: end, once it is running again, cost more than its usual small passes.
PAUSE_BLOCKS = 10_000


@contextlib.contextmanager
def collector_paused(blocks: int | None = None) -> Iterator[None]:
    """Python's cycle collector paused for a big page: from the start when ``blocks``
    (the page's blocks, known when rendering) reaches :data:`PAUSE_BLOCKS`; while
    segmenting (``None``), from the :data:`PAUSE_BLOCKS`-th block on, where the walkers
    pause it.  The state found is restored (a caller that paused it keeps it paused)."""
    enabled = gc.isenabled()
    if blocks is not None and blocks >= PAUSE_BLOCKS:
        gc.disable()
    try:
        yield
    finally:
        if enabled and not gc.isenabled():
            gc.enable()


class _Out:
    """The blocks made so far and what the next block needs (the compiled ``_Walk``'s
    block half): the tags crossed since the last block, the paragraph number, the
    block limit, and the tuples already made (equal paths and crossings are shared)."""

    __slots__ = ("blocks", "crossed", "paragraph", "max_blocks", "shared", "formulas")

    def __init__(self, max_blocks: int):
        self.blocks: list[Block] = []
        self.crossed: list[str] = []
        self.paragraph = 0
        self.max_blocks = max_blocks
        self.shared: dict[tuple[str, ...], tuple[str, ...]] = {}
        #: whether a block may show a formula (:func:`segmented`)
        self.formulas = False

    def add(self, space: bool, text: str, path: tuple[str, ...], node: etree._Element | None,
            links: int, image: str | None = None, decorative: bool = False) -> None:
        """Append a block; the caller resets its pending space."""
        blocks = self.blocks
        if len(blocks) >= self.max_blocks:
            raise LimitExceeded("blocks", len(blocks) + 1, self.max_blocks)
        if len(blocks) == PAUSE_BLOCKS:  # a big page: see collector_paused
            gc.disable()
        seen = tuple(self.crossed)
        seen = self.shared.setdefault(seen, seen)
        breaks = False
        for t in seen:
            if (t[1:] if t[0] == "/" else t) in BLOCK_LEVEL:
                breaks = True
                break
        if breaks and blocks:
            self.paragraph += 1
        elif not space and blocks and image is None and apart(blocks[-1], text, path):
            space = True
        blocks.append(Block(len(blocks), text, path, seen, len(text) if links else 0,
                            node,  # type: ignore[arg-type]  # a text has an element (a tail: its parent)
                            space or breaks or not blocks, self.paragraph, image, decorative))
        self.crossed.clear()
        if not self.formulas and mark(path, None if image is None else text):
            self.formulas = True

    def path(self, stack: list[str]) -> tuple[str, ...]:
        path = tuple(stack)
        return self.shared.setdefault(path, path)


def _segment(root: etree._Element, limits: Limits) -> tuple[list[Block], bool]:  # noqa: C901 - inlined: the hottest loop
    """One ``iterwalk`` pass; the body is inlined because it runs for every element.

    This is the hottest loop of the library (every method pays for it): hence local
    aliases, one text path at the end of the loop for ``.text`` and ``.tail`` alike, path
    tuples built only when a block needs one, and helper calls only for rare cases
    (``<pre>``, ``<img>``).  ``skip_subtree`` makes a skipped element's end event the very
    next one, so one variable marks it.  Inside ``<pre>``, ``line_ends`` counts the ends
    of line (:func:`ends_code_line`) since the last text, ``line_depth`` is the depth of
    the last one counted, and ``line_start`` whether the page's own newline (or a
    ``<br>``) ended the last line already.
    """
    out = _Out(limits.max_blocks)
    crossed = out.crossed
    stack: list[str] = []
    paths: list[tuple[str, ...] | None] = []  # path tuple per open element, made on demand
    closing = _CLOSING
    max_depth, max_nodes = limits.max_depth, limits.max_nodes
    nodes = links = pre = line_ends = line_depth = 0
    pending_space = line_start = False
    skip_space = True  # whether what was skipped separates the texts around it
    skipped = None
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag
        if event == "start":
            if tag.__class__ is not str:  # an entity node: only its tail is text
                continue
            keys = el.keys()
            if tag in INVISIBLE or (keys and not _MAY_HIDE.isdisjoint(keys) and is_hidden(el)):
                walker.skip_subtree()
                skipped, skip_space = el, True
                if tag == "noscript" and (shown := noscript_image(el)) is not None:
                    out.add(True, shown[1][1], out.path(stack + ["img"]), shown[0], links, shown[1][0], False)
                elif tag == "script" and (tex := math_script(el)) is not None and (tex := cleaned(tex)):
                    # a formula in the sentence: spaced as the page spaces it, its tail too
                    out.add(pending_space, tex, out.path(stack + ["script"]), el, links)
                    pending_space = skip_space = False
                continue
            nodes += 1
            if nodes > max_nodes:
                raise LimitExceeded("nodes", nodes, max_nodes)
            crossed.append(tag)
            if tag in VOID:
                if tag == "img" and (image := image_of(el)) is not None:
                    # alt text is an artificial run: always apart from its neighbours, but
                    # a formula's TeX (Wikipedia's), spaced as the page spaces the image
                    inline = tex_alt(image[1])
                    out.add(pending_space or not inline, image[1], out.path(stack + [tag]), el, links, image[0],
                            image[2])
                    pending_space = not inline
                elif tag == "br":
                    line_start = True
                continue
            stack.append(tag)
            paths.append(None)
            if len(stack) > max_depth:
                raise LimitExceeded("depth", len(stack), max_depth)
            if tag == "a":
                links += "href" in keys
            elif tag == "pre":
                pre += 1
                line_start = True
            text, node = el.text, el
        else:
            if el is skipped:
                pending_space = skip_space
            elif tag.__class__ is str and tag not in VOID:
                paths.pop()
                stack.pop()
                crossed.append(closing.get(tag) or "/" + tag)
                if tag == "a":
                    links -= "href" in el.keys()
                elif tag == "pre":
                    pre -= 1
                    line_ends = 0
                elif pre and ends_code_line(el):
                    line_ends, line_depth = count_line_end(line_ends, line_depth, line_start, len(stack))
            text, node = el.tail, None
        if not text:
            continue
        if needs_cleaning(text):
            text = clean_text(text)
            if not text:  # only invisible characters: no text, and no space either
                continue
        path = paths[-1] if paths else ()
        if path is None:
            path = paths[-1] = out.path(stack)
        if pre:
            if line_ends:
                text = line_break(text, line_ends)
                line_ends = 0
            line_start = text[-1] == "\n"
            pending_space = _pre_text(out, text, path, node if node is not None else el.getparent(), links)
            continue
        words = text.split()
        if not words:
            pending_space = True
            continue
        pending_space = pending_space or text[0].isspace()
        out.add(pending_space, " ".join(words), path, node if node is not None else el.getparent(), links)
        pending_space = text[-1].isspace()
    return out.blocks, out.formulas


_CLOSING = {tag: "/" + tag for tag in BLOCK_LEVEL | {"a", "b", "i", "span", "em", "strong", "font", "small"}}


#: class names of a highlighter's line element (Shiki and highlight.js ``line``, Prism's
#: ``token-line``, rehype's ``code-line``, Gatsby's ``gatsby-highlight-code-line``,
#: Expressive Code's ``ec-line``): a token ``line`` or ending in ``-line``/``_line``
_LINE_CLASS = re.compile(r"(?:^|[\s_-])line(?:\s|$)")


def ends_code_line(el: etree._Element) -> bool:
    """Whether the end of ``el`` inside a ``<pre>`` ends a line as a browser shows it: a
    block-level element but a table cell (a line-numbered listing's number and code
    cells share a row: highlight.js's ``hljs-ln``), or a highlighter's line
    (``_LINE_CLASS``, rehype-pretty-code's ``data-line``), whose markup need not hold
    the newlines when the page is minified."""
    if el.tag in BLOCK_LEVEL:
        return el.tag not in _NO_LINE_END
    keys = el.keys()
    return bool(keys) and ("data-line" in keys or _LINE_CLASS.search(el.get("class") or "") is not None)


#: block-level elements whose end ends no line of a ``<pre>``
_NO_LINE_END = frozenset({"pre", "td", "th"})


def count_line_end(line_ends: int, line_depth: int, line_start: bool, depth: int) -> tuple[int, int]:
    """The ends of line inside a ``<pre>`` once an element that ends one closes at
    ``depth`` (its parent's): ``(line_ends, line_depth)``.

    Nothing when the page's own newline ended the line already (``line_start``, a
    highlighter line holding its ``\\n``); nothing when it encloses the last end counted
    (``<div><div>a</div></div>``: one line), nor when it is nested deeper than the last
    one (an empty ``<div>`` in a row's line-number cell); one more for an empty line
    element after another at the same depth (a blank line)."""
    if line_ends:
        return (line_ends + 1, depth) if depth == line_depth else (line_ends, line_depth)
    return (0, line_depth) if line_start else (1, depth)


def line_break(text: str, line_ends: int) -> str:
    """The text after ``line_ends`` ends of line in a ``<pre>``: a newline before it for
    each, unless the page's own newline follows them."""
    return text if text[0] == "\n" else "\n" * line_ends + text


def lines(text: str) -> Iterator[str]:
    """``text.split("\\n")``, one line at a time: a ``<pre>`` of millions of lines meets
    the block limit before it is all cut up."""
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield text[start:end]
        start = end + 1
    yield text[start:]


def _pre_text(out: _Out, text: str, path: tuple[str, ...], node: etree._Element, links: int) -> bool:
    """Inside ``<pre>`` every line is a block, the newline counting as a crossed ``br``."""
    space = True
    for i, line in enumerate(lines(text)):
        if i:
            out.crossed.append("br")
        words = line.split()
        if words:
            out.add(True, " ".join(words), path, node, links)
            space = False
    return space or text[-1].isspace()


# ---------------------------------------------------------------------------- images

#: attributes where lazy-loading scripts keep the real source (``src`` then holds a
#: placeholder, or nothing), in the order they are tried
LAZY_SOURCES = ("data-src", "data-lazy-src", "data-original", "data-lazy", "data-hi-res-src", "data-url")
LAZY_SOURCE_SETS = ("data-srcset", "data-lazy-srcset", "srcset")
_LAZY_NAMES = frozenset(LAZY_SOURCES)
#: what lazy loaders put in ``src`` until the script runs (besides an inline data URI): a
#: blank, spacer or spinner image, named so, of one of these types
PLACEHOLDER_WORDS = ("blank", "spacer", "transparent", "placeholder", "lazy", "loading", "empty", "1x1", "pixel")
PLACEHOLDER_TYPES = (".gif", ".png", ".svg")
_PLACEHOLDER_NAME = re.compile(
    rf"(?:{'|'.join(PLACEHOLDER_WORDS)})[^/]*\.(?:{'|'.join(t[1:] for t in PLACEHOLDER_TYPES)})(?:[?#]|$)", re.I)
#: words naming icons, avatars, smilies, logos and tracking pixels in a class, an id or
#: a source; a word is a run of letters ("icon_razz.gif" names an icon, "lexicon.jpg"
#: and "iconic" do not)
DECORATIVE_WORDS = frozenset("""avatar avatars gravatar icon icons favicon smilies smiley smileys
    smile smiles emoji emojis emoticon emoticons emote emotes logo logos pixel tracking tracker
    spacer""".split())
#: the words of an alt text that say an avatar or a smiley ("Google Pixel 8" is a phone)
DECORATIVE_ALT_WORDS = frozenset("avatar avatars gravatar emoji emojis smiley smileys smilie smilies".split())
_LETTERS = re.compile(r"[a-z]+")
#: what every word of ``DECORATIVE_WORDS`` holds: a cheap first look
_DECORATIVE_HINTS = ("avatar", "icon", "smil", "emo", "logo", "pixel", "track", "spacer")
#: an emoticon written as the alt text of its image (":P", ";-)", ":smile:")
_EMOTICON = re.compile(r"[:;=8xX][-'^o]?[)(\]\[dDpPoO/\\|*3@$]+|:[a-z_+-]+:")
#: advertising and tracking hosts (the most common image hosts of EasyList)
AD_HOSTS = ("doubleclick.net", "googlesyndication.com", "googleadservices.com", "amazon-adsystem.com",
            "adnxs.com", "adsrvr.org", "scorecardresearch.com", "quantserve.com", "criteo.com", "criteo.net",
            "taboola.com", "outbrain.com", "moatads.com", "pubmatic.com", "rubiconproject.com", "bat.bing.com")
#: the largest side, in CSS pixels, of an icon or a smiley
ICON_PIXELS = 32


def image_of(img: etree._Element, attrs: dict[str, str] | None = None) -> tuple[str, str, bool] | None:
    """``(source, alt text, decorative)`` of an ``<img>`` worth a block (it has a source
    or alt text): the source a reader gets (:func:`image_source`), and whether the
    image only decorates (:func:`decorative`).  ``attrs``: ``dict(img.items())``, which
    the compiled segmentation reads faster than lxml (a page may hold hundreds of
    images)."""
    attrs = dict(img.items()) if attrs is None else attrs  # type: ignore[arg-type]  # lxml-stubs: an HTML tree's names and texts are str
    alt = attrs.get("alt") or ""
    alt = " ".join(cleaned(alt).split())
    src = image_source(img, attrs)
    if not (src or alt):
        return None
    return src, alt, bool(src) and decorative(img, src, alt, attrs)


def image_source(img: etree._Element, attrs: dict[str, str] | None = None) -> str:
    """The source a reader's browser ends up showing, resolving lazy loading: a lazy
    attribute (``data-src``…), then ``src`` unless it is a placeholder, then any other
    attribute named like a source (a lazy loader's own: ``nitro-lazy-src``), then the
    largest candidate of a source set (``srcset``, ``data-srcset``, any ``…srcset``, a
    ``<picture>``'s ``<source>``), then the ``<img>`` of a ``<noscript>`` beside the
    image; the placeholder itself when there is nothing else.  ``attrs``: the image's
    attributes, when read already."""
    attrs = dict(img.items()) if attrs is None else attrs  # type: ignore[arg-type]  # lxml-stubs: an HTML tree's names and texts are str
    if not _LAZY_NAMES.isdisjoint(attrs):
        for name in LAZY_SOURCES:
            value = (attrs.get(name) or "").strip()
            if value and not placeholder(value):
                return value
    src = (attrs.get("src") or "").strip()
    if src and not placeholder(src):
        return src
    for name, value in attrs.items():
        if name.endswith(("src", "original")) and name != "src":
            value = value.strip()
            if value and not placeholder(value):
                return value
    for name in [*LAZY_SOURCE_SETS, *(k for k in attrs if k.endswith("srcset"))]:
        best = best_candidate(attrs.get(name) or "")
        if best:
            return best
    return _picture_source(img) or _noscript_source(img) or src


_URL = re.compile(r"[\s,]*(\S+)")
_DESCRIPTORS = re.compile(r"[^,]*,?")


def placeholder(url: str) -> bool:
    """Whether ``url`` is a lazy loader's stand-in: a data URI, or a blank image (a GIF,
    PNG or SVG: the extension is looked at first, most images are neither)."""
    if url[:5].lower() == "data:":
        return True
    name = url.rpartition("/")[2]
    return (name.partition("?")[0].partition("#")[0][-4:].lower() in PLACEHOLDER_TYPES
            and _PLACEHOLDER_NAME.search(name) is not None)


def best_candidate(srcset: str) -> str:
    """The URL of a ``srcset`` with the largest width (or density) descriptor; the first
    one when none has a descriptor.  Parsed as the HTML standard says: a URL runs to the
    next whitespace (it may hold commas, not end with one), then its descriptors run to
    the next comma."""
    best, size, at = "", -1.0, 0
    while (found := _URL.match(srcset, at)) is not None:
        url, at, value = found.group(1), found.end(), 0.0
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            descriptors = _DESCRIPTORS.match(srcset, at)
            assert descriptors is not None  # it matches the empty string
            at = descriptors.end()
            value = max(map(_descriptor, descriptors.group().rstrip(",").split()), default=0.0)
        if url and value > size and not placeholder(url):
            best, size = url, value
    return best


def _descriptor(token: str) -> float:
    """The number of a ``300w`` or ``2x`` descriptor; 0 for any other."""
    if token[-1:] in ("w", "x"):
        try:
            return float(token[:-1])
        except ValueError:
            return 0.0
    return 0.0


def _picture_source(img: etree._Element) -> str:
    """The best candidate of the first ``<source>`` of the ``<picture>`` holding ``img``
    (libxml2 nests the ``<img>`` inside the ``<source>`` elements before it)."""
    for el in img.iterancestors():
        if el.tag == "picture":
            for source in el.iter("source"):
                best = best_candidate(source.get("srcset") or source.get("data-srcset") or "")
                if best:
                    return best
            return ""
        if el.tag != "source":
            return ""
    return ""


def _noscript_source(img: etree._Element) -> str:
    """The source of the image in a ``<noscript>`` next to ``img`` (or next to its
    parent): the fallback lazy loaders leave for browsers without scripts."""
    parent = img.getparent()
    for el in (img.getnext(), img.getprevious(), parent.getnext() if parent is not None else None):
        if el is not None and el.tag == "noscript":
            inner = next(el.iter("img"), None)
            if inner is not None:
                src = (inner.get("src") or "").strip()
                if src and not placeholder(src):
                    return src
    return ""


def noscript_image(noscript: etree._Element) -> tuple[etree._Element, tuple[str, str, bool]] | None:
    """The ``<img>`` of a ``<noscript>`` and its :func:`image_of`, when it is the only
    form of an illustration: a lazy loader that draws the picture from a script or a
    ``data-bg`` background leaves no ``<img>`` beside its ``<noscript>`` fallback (when
    it leaves one, :func:`image_source` reads the fallback's source for it).  None for a
    decorative image (a tracking pixel's) and for a ``<noscript>`` with an image beside
    it (the element before or after it holds one)."""
    img = next(noscript.iter("img"), None)
    if img is None:
        return None
    image = image_of(img)
    if image is None or image[2] or not image[0]:
        return None
    for sibling in (noscript.getprevious(), noscript.getnext()):
        if sibling is not None and sibling.tag.__class__ is str and (
                sibling.tag in ("img", "picture") or next(sibling.iter("img"), None) is not None):
            return None
    return img, image


def decorative(img: etree._Element, src: str, alt: str, attrs: dict[str, str] | None = None) -> bool:
    """Whether an image decorates rather than illustrates: tiny (a side of at most
    ``ICON_PIXELS``, or a 1-pixel line), named an icon, avatar, smiley, logo or
    tracking pixel in its class, id or source's path, a smiley's alt text, an advertising
    host, or a data URI left in place of a source.  A figure with a caption is an
    illustration whatever its names say.  ``attrs``: the image's attributes, when read
    already."""
    attrs = dict(img.items()) if attrs is None else attrs  # type: ignore[arg-type]  # lxml-stubs: an HTML tree's names and texts are str
    width, height = attrs.get("width"), attrs.get("height")
    if width is not None or height is not None:
        sides = [n for n in (_pixels(width), _pixels(height)) if n is not None]
        if sides and (max(sides) <= ICON_PIXELS or min(sides) <= 1):
            return True
    lower = src.lower()
    if lower.startswith("data:") or _advert(lower):
        return True
    path = lower.partition("?")[0].partition("#")[0]  # a query's words are no names
    names = " ".join((attrs.get("class") or "", attrs.get("id") or "", path)).lower()
    named = (_named(names, DECORATIVE_WORDS)
             or (len(alt) <= 12 and _EMOTICON.fullmatch(alt) is not None)
             or _named(alt.lower(), DECORATIVE_ALT_WORDS))
    return named and not _captioned(img)


def _named(text: str, words: frozenset[str]) -> bool:
    """Whether lowercase ``text`` holds one of ``words`` as a word (``_DECORATIVE_HINTS``
    first: most texts hold none of them, and a few substring searches cost less than
    cutting the text into words)."""
    for hint in _DECORATIVE_HINTS:
        if hint in text:
            return not words.isdisjoint(_LETTERS.findall(text))
    return False


def _advert(src: str) -> bool:
    """A lowercase source on an advertising host, an ad server or an ad path."""
    host = src.partition("//")[2].partition("/")[0] if "//" in src else ""
    return (host.endswith(AD_HOSTS) or host.startswith(("ads.", "adserver"))
            or (host.endswith("facebook.com") and "/tr" in src) or "/ads/" in src or "/ad/" in src)


_PIXELS = re.compile(r"\s*(\d{1,6})(?:px)?\s*$")


def _pixels(value: str | None) -> int | None:
    """A ``width``/``height`` attribute in pixels (``"32"``, ``"32px"``); None otherwise."""
    if value is not None and value.isascii() and value.isdigit() and len(value) <= 6:
        return int(value)
    digits = _PIXELS.match(value) if value else None
    return int(digits.group(1)) if digits else None


def _captioned(img: etree._Element) -> bool:
    figure = next(img.iterancestors("figure"), None)
    return figure is not None and next(figure.iter("figcaption"), None) is not None


# the extension imports this module's sets: it is loaded after them
_csegment = optional("_csegment")
_compiled: Callable[..., tuple[list[Block], bool]] | None = None if _csegment is None else _csegment.segment
#: which segmentation :func:`segment` runs: ``"compiled"`` or ``"python"``
IMPLEMENTATION = "python" if _compiled is None else "compiled"
