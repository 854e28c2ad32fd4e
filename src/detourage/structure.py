"""The page's structure around the kept blocks, derived at render time from their nodes.

Segmentation stores each block's element (``Block.node``); nothing else is recorded while
segmenting, so pages rendered as plain text pay nothing and the compiled twin stays as
it is.  When a structured format is rendered, :func:`document` walks up from the node of
each *kept* block and builds a small tree of what encloses it::

    document ─ list ─ item ─ (leaf | list | table | pre | quote | figure …)
             ─ table ─ caption | row ─ cell ─ leaf
             ─ pre ─ leaf…              (rendered from the page's exact text)
             ─ quote ─ …   figure ─ leaf, figcaption ─ leaf
             ─ leaf                     (a unit's blocks: header, paragraph or list text)

A leaf is a :class:`~detourage.model.Unit` cut where the structure changes (a unit that
runs from a quote into a ``<pre>`` becomes two leaves), so the structure follows the kept
blocks: an element appears when some of its text was kept, with only its kept parts.
Inside a leaf, :func:`spans` groups the blocks under the links, emphasis, strong and
inline code that enclose them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from lxml import etree

from .formulas import ROOT_TAGS, Formula, formula, mark, on_page
from .model import Block, Label, Page, Result, Unit
from .segment import (
    BLOCK_LEVEL,
    INVISIBLE,
    VOID,
    clean_text,
    cleaned,
    count_line_end,
    ends_code_line,
    image_of,
    is_hidden,
    line_break,
    needs_cleaning,
)
from .settings import RenderOptions

Element = etree._Element


#: tags that make a node of the tree, and the node's kind
KINDS = {"ul": "list", "ol": "list", "menu": "list", "dir": "list", "li": "item",
         "table": "table", "tr": "row", "td": "cell", "th": "cell", "caption": "caption",
         "pre": "pre", "blockquote": "quote", "figure": "figure", "figcaption": "figcaption"}
#: inline tags and the span they make
SPANS = {"a": "link", "em": "em", "i": "em", "strong": "strong", "b": "strong",
         "code": "code", "kbd": "code", "samp": "code", "tt": "code"}
#: the only tags the plain-text format needs (rows on one line, ``<pre>`` lines exact)
TEXT_KINDS = frozenset({"table", "tr", "td", "th", "caption", "pre"})
_TABLE_KINDS = frozenset({"table", "row", "cell", "caption"})
#: the most nested nodes, and spans, kept around a block (the outermost ones): deeper
#: structure means nothing to a reader, and renderers recurse once per level
MAX_DEPTH, MAX_SPANS = 24, 8
#: the widest data table, in columns (``colspan`` counted)
MAX_COLUMNS = 64
#: what a data table never holds: a pipe table cannot, and layout tables do
_LAYOUT_INSIDE = ("ul", "ol", "dl", "pre", "blockquote", "form", "h1", "h2", "h3", "h4", "h5", "h6")
#: what a table without header cells holds when it lays out a page rather than data
#: (spacer and button images included)
_LAYOUT_TEXT = ("p", "div", "br", "img")


@dataclass(slots=True, eq=False)
class Node:
    """An element of the tree; its children are nodes and leaves in document order."""

    kind: str
    el: Element | None
    children: list[Node | Unit] = field(default_factory=list)


@dataclass(slots=True, eq=False)
class Span:
    """Blocks of a leaf under one inline element (``kind``: link, em, strong, code, or
    ``""`` for an element that marks nothing)."""

    kind: str
    el: Element
    children: list[Span | Block]

    @property
    def first(self) -> Block:
        child = self.children[0]
        return child if isinstance(child, Block) else child.first

    def blocks(self) -> Iterator[Block]:
        for child in self.children:
            yield from (child,) if isinstance(child, Block) else child.blocks()


#: what encloses an element: the tree's elements, the spans, whether inside a ``<pre>``,
#: whether inside a data table
_State = tuple[tuple[Element, ...], tuple[Element, ...], bool, bool]


class Context:
    """Per render: the options, the page URL, and what is computed once per element."""

    def __init__(self, result: Result, options: RenderOptions, kinds: frozenset[str] | None = None):
        self.result = result
        self.options = options
        #: whether a kept block shows a formula (:func:`~detourage.formulas.mark`): only
        #: then are the elements that can hold one walked up (a page without pays a look
        #: at each distinct path of its kept blocks)
        self.formulas = _shows_formulas(result.units, result.page)
        self._tags = _tags(options, kinds) | ROOT_TAGS if self.formulas else _tags(options, kinds)
        self._formulas: dict[Element, Formula] = {}  # the formula roots met
        self._claims: dict[Element, int] = {}
        self._data: frozenset[Element] | None = None
        self._numbers: dict[Element, dict[Element, int]] = {}
        self._columns: dict[Element, int] = {}
        self._covered: dict[Element, frozenset[int]] = {}
        self._known: dict[Element, _State] = {}
        self.inline: dict[int, tuple[Element, ...]] = {}
        #: the ``<pre>`` elements of the tree, in order
        self.pres: list[Element] = []
        #: with ``kinds`` given (plain text): the page's data tables and ``<pre>``s, and
        #: every element inside them, the only ones whose blocks are worth a walk up (none
        #: to look for when no kept block is inside such an element: a scan of the tree saved)
        self.targets = None if kinds is None else \
            self._targets() if _any_inside(result.units, self._tags) else frozenset()
        self.members = None if self.targets is None or self.formulas else frozenset(
            el for target in self.targets for el in target.iter())

    def _targets(self) -> frozenset[Element]:
        tree = self.result.page.tree
        if tree is None:
            return frozenset()
        found = list(tree.iter("table", "pre"))  # one scan of the tree, in C
        pres = frozenset(el for el in found if el.tag == "pre")
        if "table" not in self._tags or len(pres) == len(found):
            return pres
        return pres | self._data_tables([el for el in found if el.tag == "table"])

    @functools.cached_property
    def base(self) -> str | None:
        """The URL relative addresses are resolved against: the page's ``<base href>``
        (itself resolved against the page URL), else the page URL; looked up once."""
        return _base(self.result.page.tree, self.result.page.url)

    def url(self, href: str) -> str:
        """``href`` resolved against :attr:`base` (as given when there is none, or when
        either is not a valid URL)."""
        href = href.strip()
        base = self.base
        try:
            return urljoin(base, href) if base else href
        except ValueError:
            return href

    def column(self, cell: Element) -> int:
        """The column a ``<td>``/``<th>`` starts at (0 for the first), its table laid out
        once on a grid (:func:`layout`), so a table of many cells costs its size."""
        column = self._columns.get(cell)
        if column is None:
            self._lay_out(cell)
            column = self._columns.setdefault(cell, 0)  # a cell outside any row: laid out once
        return column

    def covered(self, row: Element) -> frozenset[int]:
        """The columns of ``row`` that a cell of an earlier row spans into (``rowspan``)."""
        covered = self._covered.get(row)
        if covered is None:
            first = next(row.iterchildren("td", "th"), None)
            if first is not None:
                self._lay_out(first)
            covered = self._covered.setdefault(row, frozenset())
        return covered

    def _lay_out(self, cell: Element) -> None:
        table = next(cell.iterancestors("table"), None)
        row = cell.getparent()
        grid = layout(table) if table is not None else layout_rows([row] if row is not None else [])
        self._columns.update(grid.columns)
        self._covered.update(grid.covered)

    def chain(self, block: Block) -> tuple[Element, ...]:
        """The tree's elements around ``block``, outermost first; its spans go to ``inline``."""
        if self._tags.isdisjoint(block.path):
            return ()
        node = block.node
        if self.members is not None and node not in self.members:
            return ()
        found, inline, _, _ = self._around(node)
        if inline:
            self.inline[block.id] = inline
        return found

    def _around(self, node: Element) -> _State:
        """What encloses ``node``: worked out once per element, from its parent's."""
        known = self._known
        state = known.get(node)
        if state is not None:
            return state
        above: list[Element] = []
        el: Element | None = node
        while el is not None and el not in known:
            above.append(el)
            el = el.getparent()
        state = known[el] if el is not None else ((), (), False, False)
        for el in reversed(above):
            state = known[el] = self._step(state, el)
        return state

    def _step(self, state: _State, el: Element) -> _State:
        """The state inside ``el`` given the state around it.

        Nothing inside a ``<pre>`` counts (it is written as the page's text); spans count
        from the nearest block-level element down; rows and cells count inside a data
        table only; the outermost ``MAX_DEPTH`` nodes and ``MAX_SPANS`` spans are kept.
        """
        found, inline, in_pre, data = state
        tag = el.tag
        if in_pre or not isinstance(tag, str):
            return state
        if self.formulas and (inline and inline[-1] in self._formulas or (
                tag in ROOT_TAGS and self.formula(el) is not None)):
            # a formula is a span, whole: nothing inside it counts (its glyphs, its layers)
            return state if inline and inline[-1] in self._formulas else (found, inline + (el,), in_pre, data)
        if tag in BLOCK_LEVEL:
            inline = ()
        if tag in self._tags:
            kind = KINDS.get(tag)
            if kind == "table":
                data = self.data_table(el)
            if kind is None:
                if tag in SPANS and len(inline) < MAX_SPANS and self._span(el):
                    inline += (el,)
            elif (data or kind not in _TABLE_KINDS) and len(found) < MAX_DEPTH:
                found += (el,)
        return found, inline, tag == "pre" and "pre" in self._tags, data

    def formula(self, el: Element) -> Formula | None:
        """The formula ``el`` is the root of (looked at once per element); roots only
        are remembered, so that ``el in self._formulas`` says one is."""
        found = self._formulas.get(el)
        if found is not None:
            return found
        found = formula(el)
        if found is not None:
            self._formulas[el] = found
        return found

    def claim(self, el: Element, leaf: Unit, seen: set[Element]) -> bool:
        """Whether ``leaf`` writes the formula of root ``el``: the first leaf that holds
        it does, once (a formula shown twice, MathJax 2's preview, frame and source, is
        written once)."""
        found = self._formulas[el]
        if found.key in seen:
            return False
        seen.add(found.key)
        return self._claims.setdefault(found.key, id(leaf)) == id(leaf)

    def _span(self, el: Element) -> bool:
        kind = SPANS[el.tag]
        if kind == "link":
            href = el.get("href")
            return self.options.links and bool(href and not href.strip().lower().startswith("javascript:"))
        return self.options.formatting

    def data_table(self, table: Element) -> bool:
        """Whether ``table`` holds data (rendered as a table) rather than laying out a page.

        Readability's test, simplified: no table, list, heading, ``<pre>``, quote or form
        inside (a pipe table could not hold them), and no row wider than ``MAX_COLUMNS``
        (nobody reads such a table, and its empty cells would be written for every row);
        header cells or a caption make it data;
        otherwise it needs two rows and two columns, and no paragraphs, divisions, line
        breaks or images (the marks of a page laid out in cells).
        """
        return table in self._data_tables()

    def _data_tables(self, tables: list[Element] | None = None) -> frozenset[Element]:
        """The page's data tables (``tables``: all its tables, when known), found once: a
        table holding another lays out the page (found by looking up from each table,
        cheaper than down) unless it holds data tables in its cells (:func:`holds_data`),
        the others are tested."""
        if self._data is None:
            tree = self.result.page.tree
            if tables is None:
                tables = list(tree.iter("table")) if tree is not None else []
            outer = {next(t.iterancestors("table"), None) for t in tables}
            data = {t for t in tables if t not in outer and is_data_table(t)}
            data.update(t for t in tables if t in outer and holds_data(t, outer, data))
            self._data = frozenset(data)
        return self._data

    def number(self, item: Element) -> int | None:
        """The number of an ``<ol>`` item (``start`` and ``value`` honoured)."""
        parent = item.getparent()
        if parent is None or parent.tag != "ol":
            return None
        numbers = self._numbers.get(parent)
        if numbers is None:
            numbers = self._numbers[parent] = _numbers(parent)
        return numbers.get(item)


def _base(tree: Element | None, url: str | None) -> str | None:
    """The first ``<base href>`` of the page resolved against ``url`` (a browser's rule;
    without a page URL, only an absolute one counts), or ``url``."""
    base = None if tree is None else next((el for el in tree.iter("base") if el.get("href")), None)
    if base is None:
        return url
    href = (base.get("href") or "").strip()
    try:
        if url:
            return urljoin(url, href)
        return href if urlsplit(href).scheme in ("http", "https") else url
    except ValueError:
        return url


@dataclass(frozen=True, slots=True, eq=False)
class Grid:
    """A table's cells placed as a browser places them: each cell's first column, and
    per row the columns a cell of an earlier row spans into (``rowspan``)."""

    columns: dict[Element, int]
    covered: dict[Element, frozenset[int]]


def layout(table: Element) -> Grid:
    """The grid of ``table``'s own rows (those of a table nested in a cell left out)."""
    rows = [tr for tr in table.iter("tr") if next(tr.iterancestors("table"), None) is table]
    return layout_rows(rows)


def layout_rows(rows: Sequence[Element]) -> Grid:
    """The grid of ``rows`` in order: a cell starts at the first column that no cell to
    its left and no ``rowspan`` from above holds; a ``rowspan`` ends with its row group
    (``<thead>``, ``<tbody>``, ``<tfoot>``), as in HTML's table model."""
    columns: dict[Element, int] = {}
    covered: dict[Element, frozenset[int]] = {}
    pending: dict[int, int] = {}  # column → rows below still spanned into
    group = None
    for row in rows:
        if row.getparent() is not group:
            group, pending = row.getparent(), {}
        held = covered[row] = frozenset(pending)
        below = {c: n - 1 for c, n in pending.items() if n > 1}
        column = 0
        for cell in row.iterchildren("td", "th"):
            while column in held:
                column += 1
            columns[cell] = column
            width, height = colspan(cell), rowspan(cell)
            if height > 1:
                below.update(dict.fromkeys(range(column, column + width), height - 1))
            column += width
        pending = below
    return Grid(columns, covered)


def _any_inside(units: Sequence[Unit], tags: frozenset[str]) -> bool:
    """Whether a block of ``units`` lies inside an element of one of ``tags``."""
    last = None
    for unit in units:
        for block in unit.blocks:
            if block.path is not last:  # the blocks of one element share their path
                last = block.path
                if not tags.isdisjoint(last):
                    return True
    return False


@functools.lru_cache(maxsize=64)
def _tags(options: RenderOptions, kinds: frozenset[str] | None) -> frozenset[str]:
    """The tags that count for ``options`` (``kinds``: only these; None: all)."""
    tags = set(kinds if kinds is not None else (*KINDS, *SPANS))
    if not options.links:
        tags.discard("a")
    if not options.formatting:
        tags -= {t for t, kind in SPANS.items() if kind != "link"}
    if not options.tables:
        tags -= {"table", "tr", "td", "th", "caption"}
    return frozenset(tags)


def caption(node: Element) -> str:
    """The caption of the figure holding an image: the ``<figcaption>`` of its
    ``<figure>``, or the ``wp-caption-text`` of a WordPress ``wp-caption``; "" when none."""
    found = None
    for el in node.iterancestors():
        if el.tag == "figure":
            found = next(el.iter("figcaption"), None)
            break
        if _WP_CAPTION.search(el.get("class") or "") is not None:
            found = next((c for c in el.iter() if _WP_CAPTION_TEXT.search(c.get("class") or "")), None)
            break
    if found is None:
        return ""
    text = "".join(t for t in found.itertext() if isinstance(t, str))
    return " ".join(cleaned(text).split())


_WP_CAPTION = re.compile(r"(?:^|\s)wp-caption(?:\s|$)")
_WP_CAPTION_TEXT = re.compile(r"(?:^|\s)wp-caption-text(?:\s|$)")


def is_data_table(table: Element) -> bool:
    """Whether a table holding no other table holds data (see :meth:`Context.data_table`).
    Its width is looked at last: only a table that holds data otherwise pays for reading
    every cell's ``colspan`` (a page laid out in tables has many cells)."""
    if (table.get("role") or "").lower() in ("presentation", "none"):
        return False
    if next(table.iterdescendants(*_LAYOUT_INSIDE), None) is not None:
        return False
    if next(table.iterdescendants("th", "thead", "caption"), None) is None:
        if next(table.iterdescendants(*_LAYOUT_TEXT), None) is not None:
            return False
        rows = [sum(1 for _ in tr.iterchildren("td", "th")) for tr in table.iter("tr")]
        if not (len(rows) >= 2 and max(rows) >= 2):
            return False
    return not any(sum(map(colspan, tr.iterchildren("td", "th"))) > MAX_COLUMNS for tr in table.iter("tr"))


def holds_data(table: Element, outer: set[Element | None], data: set[Element]) -> bool:
    """Whether a table holding tables is a data table with tables in its cells (a plan's
    limits in a price table): header cells of its own, and every table inside it a data
    table holding none (a page laid out in tables nests layout tables, or data ones
    deeper)."""
    if any(t in outer or t not in data for t in table.iterdescendants("table")):  # stops at the first
        return False
    own = (el for el in table.iterdescendants("th", "caption") if next(el.iterancestors("table")) is table)
    return next(own, None) is not None and is_data_table(table)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _numbers(ol: Element) -> dict[Element, int]:
    number = (_int(ol.get("start")) or 1) - 1
    numbers = {}
    for li in ol.iterchildren("li"):
        number = _int(li.get("value")) or number + 1
        numbers[li] = number = max(0, min(number, 999_999_999))  # what CommonMark can number
    return numbers


def document(result: Result, options: RenderOptions = RenderOptions(),
             kinds: frozenset[str] | None = None) -> tuple[Node, Context]:
    """The tree of the kept content; ``kinds`` limits the tags that count (default: all).
    With images off, a figure's caption goes with its image (:attr:`Unit.caption`)."""
    ctx = Context(result, options, kinds)
    root = Node("document", None)
    members = ctx.members
    units = result.units if options.images else tuple(u for u in result.units if not u.caption)
    if members is not None and not members:  # nothing can make a node: the units
        root.children = list(units)
        return root, ctx
    open_: list[Node] = [root]  # the open nodes, the root first
    for unit in units:
        if members is not None and all(b.node not in members for b in unit.blocks):
            del open_[1:]  # a unit outside every data table and <pre>: at the top
            root.children.append(unit)
            continue
        current: tuple[Element, ...] | None = None
        leaf: list[Block] = []
        for block in unit.blocks:
            chain = ctx.chain(block)
            if chain != current:
                _close(open_, leaf, unit)
                _open(open_, chain, ctx.pres)
                current, leaf = chain, []
            leaf.append(block)
        _close(open_, leaf, unit)
    if kinds is None or "li" in kinds:
        _lists(root)
    if ctx.pres:
        _drop_chrome(root, chrome(ctx.pres))
    return root, ctx


#: a class naming a listing's buttons and labels (Prism's ``toolbar``, ``copy-to-clipboard``)
_CHROME = re.compile(r"(?:^|[\s_-])(?:copy|clipboard|toolbar|lang|language)(?:[\s_-]|$)", re.I)
#: the most characters a listing's box holds beside its code (its buttons and labels):
#: an element holding more is the page's text, not the box
CHROME_CHARS = 80


def chrome(pres: Sequence[Element]) -> frozenset[Element]:
    """The elements, and all inside them, of the boxes around the ``pres`` that are no
    code: buttons, toolbars, copy and language labels (``_CHROME``).  A box is an
    ancestor up to :data:`CODE_WRAPPERS` levels up holding at most :data:`CHROME_CHARS`
    characters beside its code."""
    found: set[Element] = set()
    sizes: dict[Element, int] = {}  # each element's characters, counted once (a page of many <pre>)
    for pre in pres:
        inner = _chars(pre, sizes)
        around = set(pre.iterancestors())
        for depth, box in enumerate(pre.iterancestors()):
            if depth == CODE_WRAPPERS or _chars(box, sizes) - inner > CHROME_CHARS:
                break
            walker = etree.iterwalk(box, events=("start",))
            for _, el in walker:
                if el.tag in ("pre", "code"):
                    walker.skip_subtree()
                elif el in around:  # the box itself, and what holds the code
                    continue
                elif el.tag == "button" or _CHROME.search(el.get("class") or "") is not None:
                    found.update(el.iter())
                    walker.skip_subtree()
    return frozenset(found)


def _chars(el: Element, sizes: dict[Element, int]) -> int:
    size = sizes.get(el)
    if size is None:
        size = sizes[el] = sum(len(t) for t in el.itertext() if isinstance(t, str))
    return size


def _drop_chrome(node: Node, chrome: frozenset[Element]) -> None:
    """Leave out the leaves whose text is all in ``chrome``."""
    if not chrome:
        return
    kept: list[Node | Unit] = []
    for child in node.children:
        if isinstance(child, Node):
            _drop_chrome(child, chrome)
            kept.append(child)
        elif not all(b.node in chrome for b in child.blocks):
            kept.append(child)
    node.children = kept


def _close(open_: list[Node], blocks: list[Block], unit: Unit) -> None:
    """Add the leaf of ``blocks``: the unit itself when they are all of it."""
    if len(blocks) == len(unit.blocks):
        open_[-1].children.append(unit)
    elif blocks:
        open_[-1].children.append(Unit(unit.kind, join(blocks), tuple(blocks), unit.credit))


def _lists(node: Node) -> None:
    """Put runs of items found outside any list (``<li>`` in a ``<div>``) in a list node,
    and outdent what kept no text of its own (:func:`_outdented`)."""
    out: list[Node | Unit] = []
    whole = _all_bare(node)  # its parent puts its sublists in its place
    for child in node.children:
        if isinstance(child, Node):
            _lists(child)
        for piece in [child] if whole else _outdented(child):
            if isinstance(piece, Node) and piece.kind == "item" and node.kind != "list":
                last = out[-1] if out else None
                if not (isinstance(last, Node) and last.kind == "list" and last.el is None):
                    out.append(last := Node("list", None))
                last.children.append(piece)
            else:
                out.append(piece)
    node.children = out


def _outdented(child: Node | Unit) -> list[Node | Unit]:
    """A list level without text of its own would print an empty bullet
    (``- - 3.1 Firefox``): an item that kept nothing but sublists gives way to their
    items, and a list of nothing but such items to the sublists themselves, which keep
    their kind (bullets or numbers)."""
    if not isinstance(child, Node):
        return [child]
    if _all_bare(child):
        return [inner for item in child.children for inner in item.children]  # type: ignore[union-attr]  # _all_bare: Nodes
    if child.kind == "item" and _bare(child):
        return [item for inner in child.children for item in inner.children]  # type: ignore[union-attr]  # _bare: Nodes
    return [child]


def _bare(item: Node | Unit) -> bool:
    """An item holding sublists and nothing else."""
    return (isinstance(item, Node) and item.kind == "item" and bool(item.children)
            and all(isinstance(c, Node) and c.kind == "list" for c in item.children))


def _all_bare(node: Node) -> bool:
    return node.kind == "list" and bool(node.children) and all(map(_bare, node.children))


def _open(open_: list[Node], chain: tuple[Element, ...], pres: list[Element]) -> None:
    """Make the open nodes those of ``chain``, keeping the shared outer ones (the
    ``<pre>`` elements opened go to ``pres``)."""
    shared = 0
    for node, el in zip(open_[1:], chain):
        if node.el is not el:
            break
        shared += 1
    del open_[shared + 1:]
    for el in chain[shared:]:
        node = Node(KINDS[el.tag], el)
        if node.kind == "pre":
            pres.append(el)
        open_[-1].children.append(node)
        open_.append(node)


def join(blocks: Sequence[Block]) -> str:
    """The text of consecutive runs, with a space where the page had one: what a reader
    reads, so an illustration's alt text is left out (it stands for the image, which the
    structured formats show as an image), as is any alt text that describes a picture
    (:attr:`~detourage.model.Block.silent`); a decorative image's short alt text (an
    emoji, an icon's word) is read in the sentence that holds it."""
    if len(blocks) == 1:
        return "" if blocks[0].silent else blocks[0].text
    parts: list[str] = []
    for block in blocks:
        if not block.text or block.silent:
            continue
        if parts and block.space_before:
            parts.append(" ")
        parts.append(block.text)
    return "".join(parts)


def spans(leaf: Unit, ctx: Context) -> list[Span | Block]:
    """The leaf's blocks grouped under the inline elements that enclose them."""
    inline = ctx.inline
    items = [(b, inline.get(b.id, ())) for b in leaf.blocks]
    if not any(chain for _, chain in items):  # no link nor emphasis: the blocks themselves
        return list(leaf.blocks)
    grouped = _group(items, 0)
    return _claimed(grouped, leaf, ctx, set()) if ctx.formulas else grouped


def _claimed(items: list[Span | Block], leaf: Unit, ctx: Context, seen: set[Element]) -> list[Span | Block]:
    """``items`` without the formulas written already (:meth:`Context.claim`)."""
    out: list[Span | Block] = []
    for item in items:
        if isinstance(item, Block):
            out.append(item)
        elif item.kind == "math":
            if ctx.claim(item.el, leaf, seen):
                out.append(item)
        elif children := _claimed(item.children, leaf, ctx, seen):
            out.append(Span(item.kind, item.el, children))
    return out


def plain(leaf: Unit, ctx: Context) -> str:
    """The text of a leaf as a reader reads it: :attr:`Unit.text`, a formula's TeX
    between ``$`` (``$$`` when displayed) in place of its glyphs."""
    if not ctx.formulas or not any(b.id in ctx.inline for b in leaf.blocks):
        return leaf.text
    return _plain(spans(leaf, ctx), ctx)


def _plain(items: Sequence[Span | Block], ctx: Context) -> str:
    parts: list[str] = []
    for item in items:
        block = item if isinstance(item, Block) else item.first
        if isinstance(item, Block):
            text = "" if item.silent else item.text
        elif item.kind == "math":
            text = tex_text(ctx.formula(item.el))
        else:
            text = _plain(item.children, ctx)
        if text:
            if parts and block.space_before:
                parts.append(" ")
            parts.append(text)
    return "".join(parts)


def tex_text(found: Formula | None) -> str:
    """A formula's TeX as text: ``$…$``, or ``$$…$$`` displayed."""
    if found is None:
        return ""
    return f"$${found.tex}$$" if found.display else f"${found.tex}$"


def _shows_formulas(units: Sequence[Unit], page: Page) -> bool:
    """Whether a kept block shows a formula (each distinct path looked at once); on a
    page segmentation found none on (:func:`~detourage.formulas.on_page`), no look."""
    if not on_page(page):
        return False
    last = None
    for unit in units:
        for block in unit.blocks:
            if block.path is not last:
                last = block.path
                if mark(last, block.text if block.image else None):
                    return True
    return False


def _group(items: list[tuple[Block, tuple[Element, ...]]], depth: int) -> list[Span | Block]:
    out: list[Span | Block] = []
    i = 0
    while i < len(items):
        block, chain = items[i]
        if len(chain) <= depth:
            out.append(block)
            i += 1
            continue
        el, j = chain[depth], i + 1
        while j < len(items) and len(items[j][1]) > depth and items[j][1][depth] is el:
            j += 1
        kind = SPANS.get(el.tag, "math")  # a chain holds inline elements and formula roots
        inner = items[i:j]
        if kind != "math" and any(SPANS.get(e.tag) == kind for e in chain[:depth]):
            kind = ""  # strong in strong, a link in a link (broken HTML): the inner one adds nothing
        out.append(Span(kind, el, _group(inner, depth + 1)))
        i = j
    return out


def with_breaks(children: Sequence[Node | Unit], ctx: Context, in_item: bool = False
                ) -> list[Node | Unit | list[Unit]]:
    """``children`` with each run of paragraphs that the page separates by ``<br>`` only
    (in one paragraph element) as a list: one paragraph with line breaks."""
    out: list[Node | Unit | list[Unit]] = []
    for child in children:
        last = out[-1] if out else None
        previous = last[-1] if isinstance(last, list) else last
        if (isinstance(child, Unit) and isinstance(previous, Unit) and child.kind is previous.kind
                and (child.kind is Label.PARAGRAPH or (in_item and child.kind is Label.LIST))
                and breaks_before(child.blocks[0], ctx)
                and _container(child.blocks[0]) is _container(previous.blocks[-1])):
            if isinstance(last, list):
                last.append(child)
            else:
                out[-1] = [previous, child]
        else:
            out.append(child)
    return out


def _container(block: Block) -> Element | None:
    """The nearest element around ``block`` that starts a line (``<p>``, ``<li>``, ``<td>``…)."""
    for el in (block.node, *block.node.iterancestors()):
        if el.tag in BLOCK_LEVEL:
            return el
    return None


def breaks_before(block: Block, ctx: Context) -> bool:
    """A ``<br>`` separates ``block`` from the previous run (with formatting on)."""
    return ctx.options.formatting and "br" in block.crossed


def row_is_header(row: Node) -> bool:
    """A header row: in ``<thead>``, or all its cells are ``<th>``."""
    assert row.el is not None
    parent = row.el.getparent()
    if parent is not None and parent.tag == "thead":
        return True
    cells = [c for c in row.children if isinstance(c, Node) and c.kind == "cell"]
    return bool(cells) and all(c.el is not None and c.el.tag == "th" for c in cells)


def colspan(cell: Node | Element) -> int:
    el = cell.el if isinstance(cell, Node) else cell
    assert el is not None
    return max(1, min(_int(el.get("colspan")) or 1, 100))


#: the most rows a ``rowspan`` counts (``rowspan="0"``: to the end of its row group)
MAX_ROWSPAN = 1000


def rowspan(cell: Node | Element) -> int:
    el = cell.el if isinstance(cell, Node) else cell
    assert el is not None
    value = _int(el.get("rowspan"))
    return MAX_ROWSPAN if value == 0 else max(1, min(value or 1, MAX_ROWSPAN))


def pipe_table(rows: Sequence[Node]) -> bool:
    """Whether a Markdown pipe table holds ``rows`` as the page lays them out: one header
    row at most, and first; no cell spanning rows or columns; no cell of several
    paragraphs (a pipe table's cell is one line), nor holding a table.  Otherwise a padded pipe table would
    put cells under the wrong header: the table is written as HTML, which GFM allows."""
    for k, row in enumerate(rows):
        if k and row_is_header(row):
            return False
        for cell in row.children:
            if isinstance(cell, Node) and cell.el is not None and (
                    colspan(cell) > 1 or rowspan(cell) > 1 or _paragraphs(cell) > 1
                    or any(isinstance(c, Node) for c in cell.children)):  # a table in a cell
                return False
    return True


def _paragraphs(cell: Node) -> int:
    """How many paragraphs of the page (``Block.paragraph``) the kept text of ``cell`` spans."""
    return len({b.paragraph for leaf in _leaves(cell) for b in leaf.blocks if b.text and not b.silent})


def cells(row: Node, ctx: Context) -> list[tuple[int, Node | Unit]]:
    """The row's kept cells with the column each starts at (the page's earlier cells and
    their ``colspan`` counted, so a row kept in part keeps its columns); text outside any
    cell comes after them."""
    out: list[tuple[int, Node | Unit]] = []
    end = 0
    for child in row.children:
        column = ctx.column(child.el) if isinstance(child, Node) and child.el is not None else end
        out.append((column, child))
        end = column + (colspan(child) if isinstance(child, Node) else 1)
    return out


#: a language in the class of a ``<pre>`` or its ``<code>``: ``language-x``, ``lang-x``,
#: ``highlight-x`` (Sphinx; GitHub's ``highlight-source-x``), SyntaxHighlighter's ``brush: x``
_LANGUAGE = re.compile(r"(?:^|\s)(?:(?:language|lang|highlight(?:-source)?)-|brush:\s*)([\w+#.-]+)")
#: the same around them (a wrapper's ``lang-``/``brush:`` may name something else)
_WRAPPER_LANGUAGE = re.compile(r"(?:^|\s)(?:language|highlight(?:-source)?)-([\w+#.-]+)")
#: Hexo's ``<figure class="highlight python">``
_HEXO_LANGUAGE = re.compile(r"^\s*highlight\s+([\w+#.-]+)\s*$")
#: how far up from a ``<pre>`` its language or its gutter's class is looked for
CODE_WRAPPERS = 4


def language(pre: Node) -> str:
    """The language a listing declares: on its ``<code>`` or ``<pre>`` (a class of
    :data:`_LANGUAGE`, ``data-lang``, ``data-language``), else on a wrapper up to
    :data:`CODE_WRAPPERS` levels up (``language-x``, ``highlight-x``, ``data-lang``,
    Hexo's ``<figure class="highlight x">``)."""
    assert pre.el is not None
    for el in (*pre.el.iterchildren("code"), pre.el):
        found = _declared(el, _LANGUAGE)
        if found:
            return found
    depth = 0
    for el in pre.el.iterancestors():
        if el.tag in _LISTING_TABLE:  # a listing laid out beside its line numbers
            continue
        depth += 1
        if depth > CODE_WRAPPERS or el.tag in ("article", "main", "body", "section"):
            break
        classes = el.get("class") or ""
        found = _declared(el, _WRAPPER_LANGUAGE if _HIGHLIGHTER.search(classes) is None else _LANGUAGE) or (
            _hexo(classes) if el.tag == "figure" else "")
        if found:
            return found
    return ""


#: the elements of a table that lays a listing out (Pygments' ``highlighttable``)
_LISTING_TABLE = frozenset({"table", "tbody", "thead", "tr", "td"})
#: a wrapper named by a highlighter: its ``lang-x`` names the language too
_HIGHLIGHTER = re.compile(r"(?:^|\s)(?:highlight|code|syntax|source|prettyprint|hljs)(?:[\s-]|$)")


def _declared(el: Element, pattern: re.Pattern[str]) -> str:
    found = pattern.search(el.get("class") or "")
    if found:
        return found.group(1).rstrip(";")
    return (el.get("data-lang") or el.get("data-language") or "").strip()


def _hexo(classes: str) -> str:
    found = _HEXO_LANGUAGE.match(classes)
    return found.group(1) if found else ""


#: class names of a listing's line numbers: a gutter cell or ``<pre>`` beside the code
#: (Hexo's ``gutter``, Pygments' ``linenos``, Rouge's ``rouge-gutter``/``lineno``), the
#: number of each line inside the code (Pygments' and Chroma's ``linenos``/``ln``/``lnt``,
#: Prism's ``line-numbers-rows``, ``line-number``)
_LINE_NUMBERS = re.compile(r"(?:^|\s)(?:[\w-]*gutter|linenos?|lineno|linenodiv|ln|lnt|lntd|"
                           r"line-numbers?(?:-rows)?|hljs-ln-numbers|code-line-number)(?:\s|$)")
_NUMBERS_ONLY = re.compile(r"[\d\s]*\d[\d\s]*")


def line_numbers(el: Element) -> bool:
    """Whether ``el`` (inside a listing) holds its line numbers: named so
    (:data:`_LINE_NUMBERS`) and nothing but digits."""
    return (_LINE_NUMBERS.search(el.get("class") or "") is not None
            and _NUMBERS_ONLY.fullmatch("".join(t for t in el.itertext() if isinstance(t, str))) is not None)


def gutter(pre: Element, text: str) -> bool:
    """Whether a ``<pre>`` of exact text ``text`` is the gutter of a listing laid out in
    two parts (Hexo, Pygments, Rouge and Chroma tables): nothing but digits, and named a
    gutter up to :data:`CODE_WRAPPERS` levels up, or in a table cell followed by a
    cell holding the code."""
    if _NUMBERS_ONLY.fullmatch(text) is None:
        return False
    for depth, el in enumerate((pre, *pre.iterancestors())):
        if depth > CODE_WRAPPERS:
            return False
        if _LINE_NUMBERS.search(el.get("class") or "") is not None:
            return True
        if el.tag in ("td", "th"):
            after = el.getnext()
            return after is not None and next(after.iter("pre", "code"), None) is not None
    return False


def pre_lines(pre: Node, ctx: Context) -> list[str]:
    """The kept lines of a ``<pre>``, with the page's exact whitespace.

    The page's blocks inside the element are matched, in order, to the lines of its
    exact text (newlines and ``<br>``); a line is written exactly when its blocks are
    all kept, as its kept runs when only some are, and a blank line when it lies
    between two written lines.
    """
    assert pre.el is not None
    kept = {b.id for leaf in _leaves(pre) for b in leaf.blocks}
    if not kept:
        return []
    text = _exact_text(pre.el)
    if gutter(pre.el, text):
        return []
    lines = text.split("\n")
    if lines and not lines[0].strip():
        lines.pop(0)  # the newline after <pre> is not content (HTML), nor leading blank lines
    owners: list[list[Block]] = [[] for _ in lines]
    flat: dict[int, str] = {}
    line, offset = 0, 0
    for block in _pre_blocks(pre.el, ctx.result.page.blocks, min(kept)):
        line, offset = _place(block.text, lines, flat, line, offset)
        if line < len(lines):
            owners[line].append(block)
    out: list[str | None] = []
    for text, blocks in zip(lines, owners):
        if not blocks:
            out.append(None if text.strip() else "")
        elif all(b.id in kept for b in blocks):
            out.append(text)
        else:
            out.append(join([b for b in blocks if b.id in kept]) or None)
    return _between_written(out)


def _between_written(lines: list[str | None]) -> list[str]:
    """Written lines (non-empty), and the blank ones between two of them."""
    written = [i for i, text in enumerate(lines) if text]
    if not written:
        return []
    return [text for text in lines[written[0]:written[-1] + 1] if text is not None]


def _place(text: str, lines: list[str], flat: dict[int, str], line: int, offset: int) -> tuple[int, int]:
    """Where ``text`` (a collapsed run) continues the lines, from ``(line, offset)``;
    ``flat`` holds the lines already collapsed (a line of many runs is collapsed once)."""
    while line < len(lines):
        collapsed = flat.get(line)
        if collapsed is None:
            collapsed = flat[line] = " ".join(lines[line].split())
        start = offset + 1 if collapsed[offset:offset + 1] == " " else offset
        if collapsed.startswith(text, start):
            return line, start + len(text)
        line, offset = line + 1, 0
    return line, 0


def _leaves(node: Node) -> Iterator[Unit]:
    for child in node.children:
        yield from (child,) if isinstance(child, Unit) else _leaves(child)


def _pre_blocks(pre: Element, blocks: Sequence[Block], start: int) -> Iterator[Block]:
    """The page's blocks inside ``pre`` (a run of consecutive blocks around ``start``)."""
    def inside(block: Block) -> bool:
        return block.node is pre or any(a is pre for a in block.node.iterancestors("pre"))

    def numbers(block: Block) -> bool:  # a line's number: not in the exact text
        for el in (block.node, *block.node.iterancestors()):
            if el is pre:
                return False
            if line_numbers(el):
                return True
        return False

    first = start
    while first > 0 and inside(blocks[first - 1]):
        first -= 1
    for block in blocks[first:]:
        if not inside(block):
            break
        if not numbers(block):
            yield block


def _exact_text(pre: Element) -> str:
    """The text a browser shows for ``pre`` (whitespace kept, ``<br>`` a newline, image
    alt text, a line's end where :func:`~detourage.segment.ends_code_line` and
    :func:`~detourage.segment.count_line_end` say so), skipping what segmentation skips
    and cleaning text as it does; a loop, as elements nest deep."""
    parts: list[str] = []
    line_ends = line_depth = depth = 0
    line_start = True
    inline_end = False  # whether the pending end of line is an inline line element's
    skipped = None
    walker = etree.iterwalk(pre, events=("start", "end"))
    for event, el in walker:
        tag = el.tag
        if event == "end":
            if el is pre:
                continue
            if el is skipped or not isinstance(tag, str) or tag in VOID:
                pass
            else:
                depth -= 1
                if tag == "pre":
                    line_ends = 0
                elif ends_code_line(el):
                    line_ends, line_depth = count_line_end(line_ends, line_depth, line_start, depth)
                    inline_end = tag not in BLOCK_LEVEL
            text = el.tail
        elif not isinstance(tag, str):  # comment, entity: only their tail is text
            continue
        elif tag in INVISIBLE or is_hidden(el) or (el.keys() and line_numbers(el)):
            walker.skip_subtree()
            skipped = el
            continue
        elif tag == "br":
            if inline_end:  # Hexo's <span class="line">…</span><br>: the <br> ends that line
                line_ends = 0
            parts.append("\n")
            line_start = True
            continue
        elif tag == "img":
            found = image_of(el)
            parts.append(found[1] if found is not None else "")
            continue
        else:
            depth += el is not pre and tag not in VOID
            text = el.text
        if text and needs_cleaning(text):
            text = clean_text(text)
        if text:
            if line_ends:
                text, line_ends = line_break(text, line_ends), 0
            line_start, inline_end = text[-1] == "\n", False
            parts.append(text)
    return "".join(parts)
