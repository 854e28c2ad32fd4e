"""The page model every step shares: a decoded, parsed page, its text blocks, and labels.

A *block* is a run of text between two tags, in document order (seed 003 §3.2): the
blocks of ``<p>Hello <b>world</b>!</p>`` are "Hello", "world" and "!".  Methods never
produce text; they assign one :class:`Label` per block, and renderers turn labelled
blocks into output.  A human's annotation and a method's output are therefore the same
kind of object and compare directly.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lxml.etree import _Element as HtmlElement

if TYPE_CHECKING:
    from .settings import Limits


class Label(str, enum.Enum):
    """What a block is in the cleaned output (Victor's classes, seed 003 §2.3)."""

    HEADER = "header"
    PARAGRAPH = "paragraph"
    LIST = "list"
    #: the block continues the output unit of the previous kept block
    CONTINUATION = "continuation"
    #: boilerplate: not part of the main content
    OTHER = "other"

    @property
    def kept(self) -> bool:
        return self is not Label.OTHER


@dataclass(frozen=True, slots=True)
class Decoded:
    """The result of decoding: always a string, and how its encoding was chosen."""

    text: str
    #: Python codec name actually used, e.g. ``"utf-8"``, ``"cp1252"``, ``"gb18030"``
    encoding: str
    #: why: a first word (``bom``, ``declared``, ``http``, ``meta``, ``utf-16-sniffed``,
    #: ``utf-8-valid``, ``utf-8-mostly``, ``detected``, ``fallback``; ``given as text`` for str
    #: input) and notes, e.g. ``"utf-8-valid (meta:iso-8859-1 overridden, bytes are valid utf-8)"``
    reason: str
    #: the label the page or the HTTP header declared, if any
    declared: str | None = None
    #: whether ``text`` is the page's bytes read as UTF-8 exactly (valid to the last byte,
    #: nothing replaced): the parser then reads those bytes as they came rather than the
    #: text encoded again (:func:`detourage.loading.load`)
    exact_utf8: bool = field(default=False, compare=False, repr=False)


@dataclass(slots=True, eq=False)
class Block:
    """One text run of the page, in document order.

    ``path`` holds the tags of the enclosing elements, outermost first (Victor's
    ``containers``); ``crossed`` the tags met since the previous block, with ``"/x"`` for a
    closing tag and ``"br"`` also standing for a line break inside ``<pre>`` (Victor's
    ``distance``).  Blocks are built by :func:`detourage.segment.segment` and never changed
    afterwards.  The structure around a block (lists, tables, ``<pre>``, quotes, links,
    emphasis) is read from ``node`` when a structured format is rendered
    (:mod:`detourage.structure`), so segmentation records nothing more.
    """

    id: int
    text: str
    #: tag names of the ancestors, outermost first, ending with the element holding the text
    path: tuple[str, ...]
    #: tags opened ("p") and closed ("/p") since the previous block, in order
    crossed: tuple[str, ...]
    #: number of characters of ``text`` inside an ``<a href>``
    link_chars: int
    #: the element whose content this text is (for img alt text: the ``<img>``)
    node: HtmlElement
    #: whether whitespace or a break separated this run from the previous one
    space_before: bool = True
    #: index of the paragraph (run of blocks not separated by a block-level tag or ``<br>``)
    paragraph: int = 0
    #: for img blocks: the image source, and the text is the alt text (may be empty); the
    #: source as the page gives it (relative or not), lazy loading resolved
    image: str | None = None
    #: for img blocks: an icon, avatar, smiley, logo, tracking pixel or advert rather than
    #: an illustration (:func:`detourage.segment.decorative`); renderers show its alt text
    #: when it is short (:attr:`silent`)
    decorative: bool = False

    @property
    def tag(self) -> str:
        return self.path[-1] if self.path else ""

    @property
    def illustration(self) -> bool:
        """An image that illustrates: a picture with a source, not decorative, which the
        structured formats show; its alt text stands for it and is not text a reader
        reads."""
        return bool(self.image) and not self.decorative

    @property
    def silent(self) -> bool:
        """An image whose alt text is not read as text: an :attr:`illustration`, or an
        image whose alt text describes a picture (at least :data:`DESCRIBED_WORDS`
        words) that is decorative ("Acme Corporation logo", "Photo of the author") or
        has no source yet (none, or the data URI a lazy loader or an inline placeholder
        holds: "Screenshot of the editor").  A decorative image's short alt text (an
        emoji's ":)", an icon's "PDF") is read in the sentence that holds it."""
        if self.image is None:
            return False
        return self.illustration or len(self.text.split()) >= DESCRIBED_WORDS

    def within(self, *tags: str) -> bool:
        """True when one of ``tags`` encloses the block."""
        return any(t in self.path for t in tags)


#: the alt text of a decorative image, or of one whose source is no picture yet, describes
#: a picture and is not read when it holds at least this many words (on the shared pages,
#: 4 811 such alt texts are not in the gold and 266 are: the ones with a decorative
#: source, none, or a data URI in ``benchmarks/studies/placeholder_images.py``)
DESCRIBED_WORDS = 3


@dataclass(frozen=True, slots=True)
class Page:
    """A decoded, parsed and segmented page: the one object every method reads."""

    html: str
    decoded: Decoded
    tree: HtmlElement | None
    blocks: tuple[Block, ...]
    title: str = ""
    url: str | None = None
    #: seconds spent in decode / parse / segment
    timings: dict[str, float] = field(default_factory=dict)
    #: the limits it was loaded within (a chain's next step loads its output within them too)
    limits: Limits | None = None
    #: whether a block may show a formula, as segmentation found
    #: (:func:`detourage.segment.segmented`); None on a page built by hand, whose blocks
    #: are then asked (:func:`detourage.formulas.on_page`)
    formulas: bool | None = None
    #: the elements where the page may declare itself (its ``og:`` metadata, JSON-LD,
    #: canonical address, microdata: :func:`detourage.segment.declared_elements`), found by
    #: the segmentation's walk; None on a page built by hand, whose tree is then walked
    declared: tuple[HtmlElement, ...] | None = None


@dataclass(frozen=True, slots=True)
class Labels:
    """One label per block of a page, and the method that chose them."""

    method: str
    labels: tuple[Label, ...]
    #: optional per-block scores or method details (e.g. eatiht's chosen node path)
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not set(map(type, self.labels)) <= {Label}:
            raise TypeError("labels must be Label members")


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of output: a header, paragraph or list item made of consecutive kept blocks."""

    kind: Label
    text: str
    blocks: tuple[Block, ...]
    #: the unit is a picture's credit ("Photo: Jane Doe / Reuters" beside an image:
    #: :mod:`detourage.credits`)
    credit: bool = False

    @property
    def caption(self) -> bool:
        """Whether the unit is a figure's caption (its blocks inside a ``<figcaption>``)
        or a picture's credit (:attr:`credit`): shown with its image in the structured
        formats, left out of the text ones."""
        if self.credit:
            return True
        blocks = self.blocks  # most units are no caption: their first block tells
        return bool(blocks) and "figcaption" in blocks[0].path and all("figcaption" in b.path for b in blocks)

    @property
    def illustrations(self) -> tuple[Block, ...]:
        """The image blocks that illustrate (a decorative image counts as its alt text)."""
        return tuple(b for b in self.blocks if b.illustration)

    @property
    def images(self) -> tuple[tuple[str, str], ...]:
        """(src, alt) of the :attr:`illustrations`."""
        return tuple((b.image or "", b.text) for b in self.illustrations)

    @property
    def level(self) -> int:
        """Heading level 1–6 for a header (1 when no ``<hN>`` encloses it)."""
        for tag in reversed(self.blocks[0].path):
            if len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
                return int(tag[1])
        return 1


@dataclass(frozen=True, slots=True)
class Result:
    """A page, the labels a method gave its blocks, and the output units they make."""

    page: Page
    labels: Labels
    units: tuple[Unit, ...]
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def text_units(self) -> tuple[Unit, ...]:
        """The units the text outputs hold (txt, CleanEval, every ``text`` field, the
        evaluation): those with text, a figure's caption and a picture's credit aside.
        Text is what a reader reads of the page's own text: an illustration's alt text,
        its caption and its credit stand with the image, which the structured formats show."""
        return tuple(u for u in self.units if u.text and not u.caption)

    @property
    def text(self) -> str:
        return "\n".join(u.text for u in self.text_units)
