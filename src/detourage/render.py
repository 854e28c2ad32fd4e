"""Renderers: labelled blocks → output units → txt, CleanEval, Markdown, HTML or JSON.

Renderers read a :class:`Result`: what a method kept is entirely said by its labels.
CleanEval writes the units; the other formats write the structure around the kept
blocks (:mod:`detourage.structure`: lists, tables, ``<pre>``, quotes, figures, links,
emphasis), read from the blocks' nodes, with :class:`RenderOptions` saying what to keep.
The page's metadata (:mod:`detourage.metadata`) is read only by the formats that show
it: JSON, XML, CSV, HTML (its ``<title>``), and txt or Markdown with ``with_metadata``.
"""

from __future__ import annotations

import builtins
import html as htmllib
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from typing import Any

from . import formats, metadata as meta
from .credits import credits, near_picture
from .errors import UnknownFormat
from .formulas import math_html
from .model import Block, Label, Result, Unit
from .segment import collector_paused
from .settings import RenderOptions
from .structure import (
    TEXT_KINDS,
    Context,
    Node,
    Span,
    breaks_before,
    caption,
    cells,
    colspan,
    document,
    join,
    language,
    pipe_table,
    plain,
    pre_lines,
    row_is_header,
    rowspan,
    spans,
    tex_text,
    with_breaks,
)

#: output unit kind → CleanEval marker
MARKERS = {Label.HEADER: "h", Label.PARAGRAPH: "p", Label.LIST: "l"}


def units(blocks: Sequence[Block], labels: Sequence[Label]) -> tuple[Unit, ...]:
    """Group kept blocks into units: a header, paragraph or list label opens one, and
    continuations join it (a continuation with nothing open opens a paragraph).  A
    figure's caption is a unit of its own: a continuation into or out of a
    ``<figcaption>`` opens a paragraph, so that a unit is all caption (:attr:`Unit.caption`,
    which the text outputs leave out) or none.  A unit that is a picture's credit is
    marked so (:attr:`Unit.credit`, :mod:`detourage.credits`)."""
    out: list[Unit] = []
    current: list[Block] = []
    kind = Label.PARAGRAPH
    other, continuation = Label.OTHER, Label.CONTINUATION
    in_caption = caption = False
    path = None
    for block, label in zip(blocks, labels, strict=True):
        if label is other:
            continue
        if block.path is not path:  # the blocks of an element share its path: looked at once
            path = block.path
            caption = "figcaption" in path
        if label is continuation and current and caption is in_caption:
            current.append(block)
            continue
        if current:
            out.append(Unit(kind, join(current), tuple(current)))
        current, in_caption = [block], caption
        kind = Label.PARAGRAPH if label is continuation else label
    if current:
        out.append(Unit(kind, join(current), tuple(current)))
    for i in credits([u.text for u in out]):
        first, last = out[i].blocks[0], out[i].blocks[-1]
        if _at(blocks, first) and _at(blocks, last) and near_picture(blocks, first.id, last.id):
            out[i] = replace(out[i], credit=True)
    return tuple(out)


def _at(blocks: Sequence[Block], block: Block) -> bool:
    """Whether ``block`` is at its id in ``blocks`` (a page's blocks; not a test's few)."""
    return block.id < len(blocks) and blocks[block.id] is block


_OPTION_NAMES = frozenset(f.name for f in fields(RenderOptions))


def render(result: Result, format: str = "txt", **options: Any) -> str:
    """Render ``result`` in ``format``.

    ``links``, ``images``, ``tables`` and ``formatting`` (:class:`RenderOptions`) apply to
    every format that has a structure and are ignored by CleanEval; other options go to
    the format's renderer (``id``, ``url_line`` for CleanEval, ``blocks`` for JSON).
    ``with_metadata`` puts the page's metadata before txt and Markdown as YAML front
    matter (JSON, XML and CSV always carry it; CleanEval and HTML ignore it).
    """
    try:
        renderer = RENDERERS[format]
    except KeyError:
        raise UnknownFormat(f"unknown format {format!r} (known: {', '.join(RENDERERS)})") from None
    structure = {k: options.pop(k) for k in _OPTION_NAMES & options.keys()}
    with_metadata = bool(options.pop("with_metadata", False))
    if renderer is not render_cleaneval:
        options["options"] = RenderOptions(**structure)
    with collector_paused(len(result.page.blocks)):
        text = renderer(result, **options)
    if with_metadata and format in ("txt", "markdown"):
        return formats.front_matter(meta.metadata(result.page)) + text
    return text


# ---------------------------------------------------------------------------- txt, CleanEval

def render_txt(result: Result, *, options: RenderOptions = RenderOptions()) -> str:
    """One unit per line; a table row on one line, cells joined by `` | ``; ``<pre>`` lines
    as the page has them.  Text is what a reader reads of the page's own text: an
    illustration's alt text and a figure's caption are left out (:attr:`Result.text_units`; a
    decorative image's alt text, an emoji or an icon's word, is read in its sentence)."""
    root, ctx = document(result, options, TEXT_KINDS)
    if not ctx.targets and not ctx.formulas:  # no data table, <pre> nor formula: the units, one per line
        return "".join(u.text + "\n" for u in result.text_units)
    lines: list[str] = []
    _txt(root, ctx, lines)
    return "".join(line + "\n" for line in lines)


def _txt(node: Node, ctx: Context, lines: list[str]) -> None:
    for child in node.children:
        if isinstance(child, Unit):
            if not child.caption and (text := plain(child, ctx)):
                lines.append(text)
        elif child.kind == "pre":
            lines.extend(pre_lines(child, ctx))
        elif child.kind == "row":
            texts = [t for t in (_cell_text(c, ctx) for c in child.children) if t]
            if texts:
                lines.append(" | ".join(texts))
        else:
            _txt(child, ctx, lines)


def _cell_text(cell: Node | Unit, ctx: Context) -> str:
    if isinstance(cell, Unit):
        return plain(cell, ctx)
    return " ".join(t for t in (_cell_text(c, ctx) for c in cell.children) if t)


def render_cleaneval(result: Result, *, id: str | None = None, url_line: bool = False) -> str:
    """CleanEval lines (``<h> ``, ``<p> ``, ``<l> ``), optionally wrapped for submission."""
    lines = [f"<{MARKERS[u.kind]}> {u.text}" for u in result.text_units]
    if url_line:
        lines.insert(0, f"URL: {result.page.url or ''}")
    if id is not None:
        lines = [f'<text id="{htmllib.escape(id)}">', *lines, "</text>"]
    return "".join(line + "\n" for line in lines)


# ---------------------------------------------------------------------------- Markdown

def render_markdown(result: Result, *, options: RenderOptions = RenderOptions()) -> str:
    """CommonMark with pipe tables (GFM): ``#`` headings, ``-`` and ``1.`` lists with nesting,
    tables, fenced code, ``>`` quotes, ``[text](href)``, ``*em*``, ``**strong**``, `` `code` ``,
    ``![alt](src)``; text escaped so that a CommonMark parser reads it back as text."""
    root, ctx = document(result, options)
    text = _Markdown(ctx).children(root.children)
    return text + "\n" if text else ""


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>])|&(?=#?\w+;)")
_MD_ORDERED = re.compile(r"\d{1,9}(?=[.)](?:\s|$))")
_MD_LINE = re.compile(r"#{1,6}(?:\s|$)|[-+](?:\s|$)|(?:-\s*){3,}$|-+\s*$|=+\s*$|~~~")
_MD_CLOSING_HASHES = re.compile(r"(^|\s)(#+)$")
_MD_DEST = {ord(c): f"%{ord(c):02X}" for c in " ()<>\\|\n"}


def _escape_line(line: str) -> str:
    """Escape what would make a line start a block (heading, list item, rule, fence)."""
    ordered = _MD_ORDERED.match(line)
    if ordered:
        return line[:ordered.end()] + "\\" + line[ordered.end():]
    return "\\" + line if _MD_LINE.match(line) else line


def _bare_bang(text: str) -> bool:
    """Whether the text ends with a ``!`` that no backslash escapes."""
    stripped = text[:-1]
    return text.endswith("!") and (len(stripped) - len(stripped.rstrip("\\"))) % 2 == 0


def _punct(c: str) -> bool:
    """A neighbour that is punctuation for CommonMark (``"\x00"``: an enclosing delimiter)."""
    return c == "\x00" or unicodedata.category(c)[0] in "PS"


def _space(c: str) -> bool:
    return c in " \t\n\r\f" or unicodedata.category(c) == "Zs"


def _not_word(c: str) -> bool:
    """A delimited character that may count as punctuation (anything but a letter or digit:
    unsure means the stricter rule)."""
    return unicodedata.category(c)[0] not in "LN"


def _flanks(before: str, inner: str, after: str) -> bool:
    """Whether ``*`` delimiters around ``inner`` open and close (CommonMark's flanking rules).

    ``before``/``after`` are the neighbouring characters (a space at a line's end); a
    neighbour that is itself a ``*`` would merge with the delimiter, so it never flanks.
    """
    if not inner or "*" in (before, after):
        return False
    first, last = inner[0], inner[-1]
    opens = not _space(first) and (not _not_word(first) or _space(before) or _punct(before))
    closes = not _space(last) and (not _not_word(last) or _space(after) or _punct(after))
    return opens and closes


class _Markdown:
    """The Markdown of one result; ``cell`` is set while a table cell is written."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.options = ctx.options
        self.cell = False
        self.pipes = False
        #: inline items already written, by (item, neighbours): a span's Markdown depends
        #: on its neighbours' first characters, which are written ahead once, not again
        #: at every level of nesting
        self.written: dict[tuple[int, str, str, bool], tuple[Span, str]] = {}

    # -- blocks

    def children(self, children: Sequence[Node | Unit], in_item: bool = False) -> str:
        """Blocks separated by a blank line; list items of one list by a newline.

        ``marker`` is the bullet or delimiter of the previous block when it was a list:
        the next list alternates (``-``/``*``, ``.``/``)``) so CommonMark does not merge them.
        """
        out: list[str] = []
        marker = ""  # the previous block's list marker, if it was a list
        loose = False  # whether the previous block was a list-labelled leaf
        after_text = False  # whether the previous block was a leaf
        for child in with_breaks(children, self.ctx, in_item):
            tight = False
            if isinstance(child, list):  # lines of one paragraph
                text = "\\\n".join(t for t in (self.leaf(u, pipes=True) for u in child) if t)
                marker, loose, after_text = "", False, True
            elif isinstance(child, Unit):
                text = self.leaf(child)
                if not text:
                    continue
                if child.kind is Label.LIST and not in_item:
                    tight = loose
                    bullet = marker if loose else _other("-", marker)
                    text, marker = f"{bullet} " + _indent(text, 2), bullet
                else:
                    marker = ""
                loose, after_text = child.kind is Label.LIST and not in_item, True
            else:
                if child.kind == "list":
                    text, mark, first = self.list(child, marker)
                    # inside an item, a list may follow its text directly if it can
                    # interrupt a paragraph (bullets, or numbers from 1)
                    tight = in_item and after_text and first == 1
                else:
                    text, mark = self.node(child), ""
                if not text:
                    continue
                marker, loose, after_text = mark, False, False
            out.append(("\n" if tight else "\n\n") + text if out else text)
        return "".join(out)

    def node(self, node: Node) -> str:
        kind = node.kind
        if kind == "pre":
            return self.pre(node)
        if kind == "table":
            return self.table(node)
        if kind == "quote":
            inner = self.children(node.children)
            return "\n".join("> " + line if line else ">" for line in inner.split("\n")) if inner else ""
        return self.children(node.children)

    def list(self, node: Node, previous: str) -> tuple[str, str, int]:
        """A list's Markdown, its marker, and the number of its first item (1 for bullets)."""
        ordered = node.el is not None and node.el.tag == "ol"  # el None: <li>s outside a list
        mark = _other("." if ordered else "-", previous)
        out: list[str] = []
        first = number = 0
        for item in node.children:
            content = self.children(item.children, in_item=True) if isinstance(item, Node) \
                else self.leaf(item)
            if not content:
                continue
            found = self.ctx.number(item.el) if isinstance(item, Node) and item.el is not None else None
            number = found if ordered and found is not None else number + 1
            first = first or number
            marker = f"{number}{mark} " if ordered else f"{mark} "
            out.append(marker + _indent(content, len(marker)))
        return "\n".join(out), mark, first if ordered else 1

    def pre(self, node: Node) -> str:
        lines = pre_lines(node, self.ctx)
        if not lines:
            return ""
        body = "\n".join(lines)
        fence = "`" * max(3, _longest_run(body, "`") + 1)
        return f"{fence}{language(node)}\n{body}\n{fence}"

    def table(self, node: Node) -> str:
        """A pipe table; an empty header row when the page's first kept row is not one;
        as HTML when a pipe table cannot hold it (:func:`~detourage.structure.pipe_table`)."""
        before: list[str] = []
        rows: list[Node] = []
        for child in node.children:
            if isinstance(child, Node) and child.kind == "row":
                rows.append(child)
            else:
                text = self.leaf(child) if isinstance(child, Unit) else self.children(child.children)
                if text:
                    before.append(text)
        if rows and not pipe_table(rows):
            return _Html(self.ctx).table(node)
        cells = [self.row(row) for row in rows]
        rows, cells = [r for r, c in zip(rows, cells) if any(c)], [c for c in cells if any(c)]
        if not rows:
            return "\n\n".join(before)
        width = max(map(len, cells))
        if row_is_header(rows[0]):
            header, cells = cells[0], cells[1:]
        else:
            header = []
        lines = [_pipe_row(header, width), _pipe_row(["---"] * width, width)]
        lines += [_pipe_row(c, width) for c in cells]
        return "\n\n".join([*before, "\n".join(lines)])

    def row(self, row: Node) -> builtins.list[str]:  # list: a method of this class
        """The row's cells in their columns; columns not kept, and those a cell spans
        beyond its first, are empty."""
        self.cell = True
        out: list[str] = []
        for column, child in cells(row, self.ctx):
            text = " ".join(t for t in (self.leaf(u) for u in _units(child)) if t)
            out += [""] * (column - len(out)) + [text]
        self.cell = False
        return out

    # -- inline

    def leaf(self, leaf: Unit, pipes: bool = False) -> str:
        """A leaf's inline Markdown; a header gets its ``#`` unless in a table cell.

        ``|`` is escaped in cells, and in paragraphs of several lines, where a line
        of pipes and dashes would make a table (``pipes``: the leaf is one such line)."""
        heading = leaf.kind is Label.HEADER and not self.cell
        single = heading or self.cell
        items = spans(leaf, self.ctx)
        while heading and len(items) == 1 and isinstance(items[0], Span) and items[0].kind in ("em", "strong"):
            items = items[0].children  # a heading all in bold or italics: the heading says it
        self.pipes = pipes or self.cell or (not single and any(breaks_before(b, self.ctx) for b in leaf.blocks[1:]))
        self.written.clear()  # keyed by id(): valid while this leaf's items live
        text = self.sequence(items, " ", " ", single)
        if not text:
            return ""
        text = "\n".join(map(_escape_line, text.split("\n")))
        if heading:
            text = _MD_CLOSING_HASHES.sub(r"\1\\\2", text)
            return "#" * leaf.level + " " + text
        return text

    def sequence(self, items: Sequence[Span | Block], before: str, after: str, single: bool) -> str:
        """Inline items in order, each wrapped in its markup where CommonMark allows it."""
        items = _merged_code(items, self.ctx)
        seps = [""] + [self.separator(_first(item), single) for item in items[1:]]
        out: list[str] = []
        for k, item in enumerate(items):
            sep = seps[k]
            left = right = " "
            if isinstance(item, Span) and item.kind in ("em", "strong"):  # needs its neighbours
                left = sep[-1:] if sep else (out[-1][-1:] if out and out[-1] else before)
                nxt = seps[k + 1] if k + 1 < len(items) else ""
                right = nxt[:1] if nxt else (self.item(items[k + 1], " ", " ", single)[:1]
                                             if k + 1 < len(items) else after)
            text = self.item(item, left or " ", right or " ", single)
            if text:
                if not sep and text[0] == "[" and out and _bare_bang(out[-1]):
                    out[-1] = out[-1][:-1] + "\\!"  # "![" would open an image
                out.append(sep + text if out else text)
        return "".join(out)

    def separator(self, block: Block, single: bool) -> str:
        if not single and breaks_before(block, self.ctx):
            return "\\\n"
        return " " if block.space_before else ""

    def item(self, item: Span | Block, before: str, after: str, single: bool) -> str:
        if isinstance(item, Block):
            return self.text(item)
        key = (id(item), before, after, single)
        known = self.written.get(key)
        if known is None:
            # the item is held beside its text: its id cannot be reused while the leaf is written
            known = self.written[key] = (item, self.span(item, before, after, single))
        return known[1]

    def span(self, item: Span, before: str, after: str, single: bool) -> str:
        kind = item.kind
        if kind == "code":
            return self.code(item)
        if kind == "math":
            text = tex_text(self.ctx.formula(item.el))
            return text.replace("|", "\\|") if self.cell else text
        if kind == "link":
            inner = self.sequence(item.children, "[", "]", single)
            href = self.ctx.url(item.el.get("href") or "").translate(_MD_DEST)
            return f"[{inner}]({href})" if inner else ""
        if kind in ("em", "strong"):
            delim = "*" if kind == "em" else "**"
            inner = self.sequence(item.children, "\x00", "\x00", single)  # "\x00": a delimiter
            if _flanks(before, inner, after):
                return delim + inner + delim
        return self.sequence(item.children, before, after, single)

    def code(self, span: Span) -> str:
        text = join([b for b in span.blocks()])
        if self.cell:
            text = text.replace("|", "\\|")
        fence = "`" * (_longest_run(text, "`") + 1)
        pad = " " if text.startswith("`") or text.endswith("`") else ""
        return f"{fence}{pad}{text}{pad}{fence}" if text else ""

    def text(self, block: Block) -> str:
        if shows_image(block, self.options):
            src = self.ctx.url(block.image or "").translate(_MD_DEST)
            return f"![{self.escape(block.text)}]({src})"
        return "" if block.silent else self.escape(block.text)

    def escape(self, text: str) -> str:
        if _may_hold_tex(text):
            return _text_tex(text, self._escape, self.pipes)
        return self._escape(text)

    def _escape(self, text: str) -> str:
        text = _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), text)
        return text.replace("|", "\\|") if self.pipes else text


#: TeX a page leaves in its text for the browser to render: ``$$…$$``, ``$…$`` (pandoc's
#: rule: no space inside the dollars, no digit after the closing one: "$5 and $10" is no
#: formula), ``\(…\)``, ``\[…\]``; one holding a character of TeX's markup
_TEXT_TEX = re.compile(r"\$\$[^$]+?\$\$|\$(?=\S)[^$]*?(?<=\S)\$(?!\d)|\\\(.+?\\\)|\\\[.+?\\\]")
_TEX_MARKUP = re.compile(r"[\\^_{}]")


def _may_hold_tex(text: str) -> bool:
    return "$" in text or "\\(" in text or "\\[" in text


def _text_tex(text: str, escape: Callable[[str], str], pipes: bool) -> str:
    """``text`` escaped but for the TeX in it (:data:`_TEXT_TEX`), written as the page has
    it: escaping would change the formula (``E_1`` read back as ``E\\_1``); ``|`` escaped
    where a pipe would split a table's cell (``pipes``)."""
    out: list[str] = []
    at = 0
    for found in _TEXT_TEX.finditer(text):
        if _TEX_MARKUP.search(found.group()) is None:
            continue
        out += [escape(text[at:found.start()]), found.group().replace("|", "\\|") if pipes else found.group()]
        at = found.end()
    out.append(escape(text[at:]))
    return "".join(out)


def _merged_code(items: Sequence[Span | Block], ctx: Context) -> Sequence[Span | Block]:
    """Code spans that touch made one (two would read as one fence of double backticks)."""
    out: list[Span | Block] = []
    merged: set[int] = set()  # the spans of ``out`` made here, extended in place
    for item in items:
        last = out[-1] if out else None
        if (isinstance(item, Span) and item.kind == "code" and isinstance(last, Span)
                and last.kind == "code" and not item.first.space_before
                and not breaks_before(item.first, ctx)):
            if id(last) not in merged:
                out[-1] = last = Span("code", last.el, list(last.children))
                merged.add(id(last))
            last.children.extend(item.children)
        else:
            out.append(item)
    return out


def _only_images(leaf: Unit, options: RenderOptions) -> bool:
    return all(shows_image(b, options) for b in leaf.blocks)


def shows_image(block: Block, options: RenderOptions) -> bool:
    """Whether ``block`` is written as an image: an illustration with a source, images
    on; a decorative image (icon, smiley, tracking pixel) is its alt text."""
    return bool(block.image) and options.images and not block.decorative


def _other(mark: str, previous: str) -> str:
    """``mark``, or its alternative when the previous list used it."""
    if mark != previous:
        return mark
    return {"-": "*", "*": "-", ".": ")", ")": "."}[mark]


def _units(node: Node | Unit) -> list[Unit]:
    if isinstance(node, Unit):
        return [node]
    return [u for c in node.children for u in _units(c)]


def _first(item: Span | Block) -> Block:
    return item if isinstance(item, Block) else item.first


def _indent(text: str, width: int) -> str:
    pad = " " * width
    return "\n".join(line and pad + line if i else line for i, line in enumerate(text.split("\n")))


def _longest_run(text: str, char: str) -> int:
    runs = re.findall(re.escape(char) + "+", text)
    return max(map(len, runs), default=0)


def _pipe_row(cells: Sequence[str], width: int) -> str:
    cells = [*cells, *[""] * (width - len(cells))]
    return "| " + " | ".join(cells) + " |"


# ---------------------------------------------------------------------------- HTML

def render_html(result: Result, *, options: RenderOptions = RenderOptions()) -> str:
    """A small, valid HTML document of the kept content and its structure."""
    return _document(result, html_body(result, options))


def html_body(result: Result, options: RenderOptions = RenderOptions()) -> str:
    """The elements of :func:`render_html`'s ``<body>`` (the XML output maps them)."""
    root, ctx = document(result, options)
    return _Html(ctx).children(root.children)


def render_units_html(result: Result) -> str:
    """The units as HTML, one element each (``<hN>``, ``<p>``, ``<li>``): the input of a
    chain's next method, which sees the kept units as seed 002's chains did."""
    body: list[str] = []
    in_list = False
    for unit in result.units:
        is_item = unit.kind is Label.LIST
        if is_item != in_list:
            body.append("<ul>" if is_item else "</ul>")
            in_list = is_item
        inner = "".join((" " if i and b.space_before else "") + _html_piece(b, b.image or None)
                        for i, b in enumerate(b for b in unit.blocks if b.text or b.image))
        if unit.kind is Label.HEADER:
            body.append(f"<h{unit.level}>{inner}</h{unit.level}>")
        elif is_item:
            body.append(f"<li>{inner}</li>")
        else:
            body.append(f"<p>{inner}</p>")
    if in_list:
        body.append("</ul>")
    return _document(result, "\n".join(body))


def _document(result: Result, body: str) -> str:
    # the metadata's title, as JSON and the JSON lines give it: without the site's name
    title = htmllib.escape(meta.metadata(result.page, page_dates=False).title)
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
            f"<title>{title}</title></head>\n<body>\n" + body + "\n</body></html>\n")


def _html_piece(block: Block, src: str | None) -> str:
    """The block as an image of source ``src``, or as its text when ``src`` is None (an
    alt text that stands for a picture is no text: nothing, :attr:`Block.silent`)."""
    esc = htmllib.escape
    if src is not None:
        return f'<img src="{esc(src)}" alt="{esc(block.text)}">'
    return "" if block.silent else esc(block.text)


_HTML_SPANS = {"em": "em", "strong": "strong", "code": "code"}
_HTML_NODES = {"quote": "blockquote", "figure": "figure", "figcaption": "figcaption",
               "caption": "caption", "item": "li"}


class _Html:
    """The HTML body of one result: elements mirror the tree's nodes."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.figure = False  # inside a <figure>

    def children(self, children: Sequence[Node | Unit], bare: bool = False) -> str:
        """Nodes and leaves in order; with ``bare`` (an item or caption holding a single
        leaf) the leaf's inline content without a ``<p>``."""
        out: list[str] = []
        loose: list[str] = []  # consecutive list-labelled leaves outside any list: one <ul>
        grouped = with_breaks(children, self.ctx, bare)
        single = bare and len(grouped) == 1
        for child in grouped:
            if isinstance(child, Unit) and child.kind is Label.LIST and not bare:
                if text := self.inline(child):
                    loose.append(f"<li>{text}</li>")
                continue
            if loose:
                out.append("<ul>\n" + "\n".join(loose) + "\n</ul>")
                loose = []
            if isinstance(child, list):  # lines of one paragraph
                text = "<br>".join(t for t in map(self.inline, child) if t)
                text = text if single or not text else f"<p>{text}</p>"
            else:
                text = self.leaf(child, single) if isinstance(child, Unit) else self.node(child)
            if text:
                out.append(text)
        if loose:
            out.append("<ul>\n" + "\n".join(loose) + "\n</ul>")
        return "\n".join(out)

    def leaf(self, leaf: Unit, bare: bool) -> str:
        text = self.inline(leaf)
        if not text or bare or (self.figure and _only_images(leaf, self.ctx.options)):
            return text  # an image of a figure stands in the figure, not in a paragraph
        if leaf.kind is Label.HEADER:
            return f"<h{leaf.level}>{text}</h{leaf.level}>"
        return f"<p>{text}</p>"

    def node(self, node: Node) -> str:
        kind = node.kind
        if kind == "pre":
            lines = pre_lines(node, self.ctx)
            lang = language(node)
            attr = f' class="language-{htmllib.escape(lang)}"' if lang else ""
            return f"<pre><code{attr}>" + htmllib.escape("\n".join(lines)) + "</code></pre>" if lines else ""
        if kind == "list":
            return self.list(node)
        if kind == "table":
            return self.table(node)
        outer, self.figure = self.figure, kind == "figure"
        inner = self.children(node.children, bare=kind in ("figcaption", "caption"))
        self.figure = outer
        tag = _HTML_NODES.get(kind)
        if not inner or tag is None:
            return inner
        return f"<{tag}>{inner}</{tag}>" if kind in ("figcaption", "caption") else f"<{tag}>\n{inner}\n</{tag}>"

    def list(self, node: Node) -> str:
        ordered = node.el is not None and node.el.tag == "ol"  # el None: <li>s outside a list
        items: list[str] = []
        first = None  # the number of the first item written (None: none, or not numbered)
        for item in node.children:
            inner = self.children(item.children, bare=True) if isinstance(item, Node) else self.inline(item)
            if not inner:
                continue
            if not items and isinstance(item, Node) and item.el is not None:
                first = self.ctx.number(item.el)
            items.append(f"<li>{inner}</li>")
        if not items:
            return ""
        start = f' start="{first}"' if ordered and first not in (None, 1) else ""
        tag = "ol" if ordered else "ul"
        return f"<{tag}{start}>\n" + "\n".join(items) + f"\n</{tag}>"

    def table(self, node: Node) -> str:
        """``<table>`` with its caption, a ``<thead>`` of the leading header rows when the
        first kept row is one, and a ``<tbody>``; text outside the rows goes before it as paragraphs."""
        before: list[str] = []
        caption = ""
        rows: list[tuple[Node, str]] = []
        for child in node.children:
            if isinstance(child, Unit):
                before.append(self.leaf(child, False))
            elif child.kind == "caption":
                caption = self.node(child)
            elif child.kind == "row" and (row := self.row(child)):
                rows.append((child, row))
        if not rows:
            return "\n".join(t for t in [*before, caption.replace("caption>", "p>")] if t)
        parts = [t for t in before if t] + ["<table>"] + ([caption] if caption else [])
        head = next((k for k, (row, _) in enumerate(rows) if not row_is_header(row)), len(rows))
        if head:  # the leading header rows (a rowspan does not leave its row group)
            parts.append("<thead>\n" + "\n".join(r for _, r in rows[:head]) + "\n</thead>")
            rows = rows[head:]
        if rows:
            parts.append("<tbody>\n" + "\n".join(r for _, r in rows) + "\n</tbody>")
        return "\n".join([*parts, "</table>"])

    def row(self, row: Node) -> str:
        """``<tr>`` with the kept cells in their columns (empty ``<td>`` where one was not,
        but for the columns a cell of an earlier row spans into)."""
        out: list[str] = []
        filled = False
        width = 0
        covered = self.ctx.covered(row.el) if row.el is not None else frozenset()
        for column, child in cells(row, self.ctx):
            nested = isinstance(child, Node) and any(isinstance(c, Node) for c in child.children)
            inner = self.children(child.children, bare=True) if nested else self.cell(_units(child))  # type: ignore[union-attr]  # nested: a Node
            tag, attr = "td", ""
            if isinstance(child, Node) and child.el is not None:
                tag = "th" if child.el.tag == "th" else "td"
                attr = "".join(f' {name}="{n}"' for name, n in
                               (("colspan", colspan(child)), ("rowspan", rowspan(child))) if n > 1)
            filled = filled or bool(inner)
            out += ["<td></td>"] * sum(c not in covered for c in range(width, column))
            out.append(f"<{tag}{attr}>{inner}</{tag}>")
            width = column + (colspan(child) if isinstance(child, Node) else 1)
        return "<tr>" + "".join(out) + "</tr>" if filled else ""

    def cell(self, leaves: Sequence[Unit]) -> str:
        """A cell's leaves, a ``<br>`` between two of the page's paragraphs (a cell of
        several paragraphs keeps them apart), a space otherwise."""
        out: list[str] = []
        last: Block | None = None
        for leaf in leaves:
            text = self.inline(leaf)
            if text:
                if out:
                    out.append("<br>" if last is not None and leaf.blocks[0].paragraph != last.paragraph else " ")
                out.append(text)
                last = leaf.blocks[-1]
        return "".join(out)

    def inline(self, leaf: Unit) -> str:
        return self.sequence(spans(leaf, self.ctx), top=True)

    def sequence(self, items: Sequence[Span | Block], top: bool = False) -> str:
        out: list[str] = []
        for k, item in enumerate(items):
            text = self.item(item)
            if not text:
                continue
            first = _first(item)
            if out or (k and not top):
                out.append("<br>" if breaks_before(first, self.ctx) else " " if first.space_before else "")
            out.append(text)
        return "".join(out)

    def item(self, item: Span | Block) -> str:
        if isinstance(item, Block):
            src = self.ctx.url(item.image or "") if shows_image(item, self.ctx.options) else None
            return _html_piece(item, src)
        if item.kind == "math":
            found = self.ctx.formula(item.el)
            return math_html(found) if found is not None else ""
        inner = self.sequence(item.children)
        if not inner:
            return ""
        if item.kind == "link":
            return f'<a href="{htmllib.escape(self.ctx.url(item.el.get("href") or ""))}">{inner}</a>'
        tag = _HTML_SPANS.get(item.kind)
        return f"<{tag}>{inner}</{tag}>" if tag else inner


# ---------------------------------------------------------------------------- XML, CSV

def render_xml(result: Result, *, options: RenderOptions = RenderOptions()) -> str:
    """``<doc>`` with the metadata as attributes and the structure in ``<main>``
    (:func:`detourage.formats.xml_document` documents the elements)."""
    return formats.xml_document(result, meta.metadata(result.page), html_body(result, options))


def render_csv(result: Result, *, options: RenderOptions = RenderOptions()) -> str:
    """A header and one row: the metadata's fields, then the text as ``txt`` gives it."""
    return formats.csv_text([formats.csv_row(meta.metadata(result.page), render_txt(result, options=options))])


# ---------------------------------------------------------------------------- JSON

def render_json(result: Result, *, blocks: bool = False, indent: int | None = None,
                options: RenderOptions = RenderOptions()) -> str:
    """What a reader reads first — URL, title, the text as ``txt`` gives it, the metadata —
    then the method, the encoding and how it was chosen, the structure and timings;
    ``blocks``: also the units and every block of the page, boilerplate included, with
    its label (what a method decided, for evaluation and debugging)."""
    record = as_record(result, blocks=blocks, options=options)
    return json.dumps(record, ensure_ascii=False, indent=indent)


#: the keys of a method's details that the JSON output shows (JSON-ready by contract)
REPORTED_DETAILS = ("template", "learned")


def as_record(result: Result, *, blocks: bool = False, options: RenderOptions | None = None,
              **structure: Any) -> dict[str, Any]:
    """The JSON-ready dictionary behind :func:`render_json`; ``structure``: the
    :class:`RenderOptions` fields, when ``options`` is not given."""
    with collector_paused(len(result.page.blocks)):
        return _record(result, blocks, options or RenderOptions(**structure))


def _record(result: Result, blocks: bool, options: RenderOptions) -> dict[str, Any]:
    page = result.page
    found = meta.metadata(page)
    root, ctx = document(result, options)
    record: dict[str, Any] = {
        "url": page.url,
        "title": found.title,
        "text": render_txt(result, options=options),
        "metadata": found.as_dict(),
        "method": result.labels.method,
        "encoding": page.decoded.encoding,
        "encoding_reason": page.decoded.reason,
        "declared_encoding": page.decoded.declared,
        "structure": _Json(ctx).children(root.children),
    }
    if blocks:
        record["units"] = [r for r in (_unit_record(u, ctx) for u in result.units) if r["text"] or "images" in r]
        paths: dict[tuple[str, ...], str] = {}  # each distinct path joined once (blocks share them)
        record["blocks"] = [
            {"id": b.id, "label": _NAMES[label], "text": b.text,
             "path": paths.get(b.path) or paths.setdefault(b.path, "/".join(b.path))}
            for b, label in zip(page.blocks, result.labels.labels, strict=True)
        ]
    report = {k: v for k, v in result.labels.details.items() if k in REPORTED_DETAILS}
    if report:
        record["details"] = report
    timings = {**page.timings, **result.timings}
    record["timings_ms"] = {k: round(v * 1000, 3) for k, v in timings.items()}
    return record


#: a label's name (``Label.value`` is an enum property, slow when read per block)
_NAMES = {label: label.value for label in Label}


def _unit_record(unit: Unit, ctx: Context) -> dict[str, Any]:
    """A unit's kind, text and illustrations: each image's absolute source, its alt text
    and the caption of its figure ("" when none)."""
    record: dict[str, Any] = {"kind": _NAMES[unit.kind], "text": unit.text}
    if unit.kind is Label.HEADER:
        record["level"] = unit.level
    images = unit.illustrations
    if images:
        record["images"] = [{"src": ctx.url(b.image or ""), "alt": b.text, "caption": caption(b.node)}
                            for b in images]
    return record


class _Json:
    """The structure as nested ``{"type", …, "children"}`` records.  A text leaf is
    ``{"type": "unit", "kind": "header" | "paragraph" | "list", "text"}`` (as in
    ``units``), with ``"content"`` (its inline records: text, link, em, strong, code,
    image, break) when it is more than text."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    def children(self, children: Sequence[Node | Unit]) -> list[dict[str, Any]]:
        out = [self.leaf(c) if isinstance(c, Unit) else self.node(c) for c in children]
        return [r for r in out if r]

    def leaf(self, leaf: Unit) -> dict[str, Any]:
        if self.plain(leaf):
            content = [{"type": "text", "text": leaf.text}] if leaf.text else []
        else:
            content = self.sequence(spans(leaf, self.ctx), top=True)
        if not content:
            return {}
        record: dict[str, Any] = {"type": "unit", "kind": _NAMES[leaf.kind]}
        if leaf.kind is Label.HEADER:
            record["level"] = leaf.level
        record["text"] = plain(leaf, self.ctx)
        if _may_hold_tex(record["text"]):
            content = _text_formulas(content)
        if len(content) > 1 or content[0]["type"] != "text":
            record["content"] = content
        return record

    def plain(self, leaf: Unit) -> bool:
        """A leaf of one text block outside any inline element: its content is its text
        (the common case, spared the inline machinery)."""
        if len(leaf.blocks) != 1:
            return False
        block = leaf.blocks[0]
        return block.id not in self.ctx.inline and not shows_image(block, self.ctx.options)

    def node(self, node: Node) -> dict[str, Any]:
        record: dict[str, Any] = {"type": node.kind}
        el = node.el
        if node.kind == "pre":
            lines = pre_lines(node, self.ctx)
            return {**record, "text": "\n".join(lines), "language": language(node)} if lines else {}
        if node.kind == "list":
            record["ordered"] = el is not None and el.tag == "ol"
        elif node.kind == "item" and el is not None and (number := self.ctx.number(el)) is not None:
            record["number"] = number
        elif node.kind == "row":
            record["header"] = row_is_header(node)
        elif node.kind == "cell" and el is not None:
            record["header"] = el.tag == "th"
            record["column"] = self.ctx.column(el)
            if (span := colspan(node)) > 1:
                record["colspan"] = span
            if (span := rowspan(node)) > 1:
                record["rowspan"] = span
        children = self.children(node.children)
        return {**record, "children": children} if children else {}

    def sequence(self, items: Sequence[Span | Block], top: bool = False) -> list[dict[str, Any]]:
        """Inline records; adjacent text is merged (its pieces joined once, at the end: a
        paragraph of many spans stays linear), a ``<br>`` is ``{"type": "break"}``."""
        out: list[dict[str, Any]] = []
        text: list[str] = []  # the text after the last record of ``out``
        for k, item in enumerate(items):
            records = self.item(item)
            if not records:
                continue
            first = _first(item)
            if out or text or (k and not top):
                if breaks_before(first, self.ctx):
                    _flush_text(out, text)
                    out.append({"type": "break"})
                elif first.space_before:
                    text.append(" ")
            for record in records:
                if record["type"] == "text":
                    text.append(record["text"])
                else:
                    _flush_text(out, text)
                    out.append(record)
        _flush_text(out, text)
        return out

    def item(self, item: Span | Block) -> list[dict[str, Any]]:
        if isinstance(item, Block):
            if shows_image(item, self.ctx.options):
                return [{"type": "image", "src": self.ctx.url(item.image or ""), "alt": item.text}]
            return [{"type": "text", "text": item.text}] if item.text and not item.silent else []
        if item.kind == "math":
            found = self.ctx.formula(item.el)
            return [] if found is None else [
                {"type": "formula", "tex": found.tex, "display": found.display, "source": found.source}]
        content = self.sequence(item.children)
        if not content or not item.kind:
            return content
        record: dict[str, Any] = {"type": item.kind}
        if item.kind == "link":
            record["href"] = self.ctx.url(item.el.get("href") or "")
        return [{**record, "content": content}]


def _text_formulas(content: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Inline records with the TeX left in their text (:data:`_TEXT_TEX`) as formula
    records of source ``text``."""
    out: list[dict[str, Any]] = []
    for record in content:
        if record["type"] == "text" and _may_hold_tex(record["text"]):
            out += _text_pieces(record["text"])
            continue
        if "content" in record:
            record["content"] = _text_formulas(record["content"])
        out.append(record)
    return out


def _text_pieces(text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    at = 0
    for found in _TEXT_TEX.finditer(text):
        if _TEX_MARKUP.search(found.group()) is None:
            continue
        if found.start() > at:
            out.append({"type": "text", "text": text[at:found.start()]})
        tex = found.group()
        display = tex.startswith(("$$", "\\["))
        inner = tex[2:-2] if tex.startswith(("$$", "\\(", "\\[")) else tex[1:-1]
        out.append({"type": "formula", "tex": " ".join(inner.split()), "display": display, "source": "text"})
        at = found.end()
    if at < len(text):
        out.append({"type": "text", "text": text[at:]})
    return out


def _flush_text(out: list[dict[str, Any]], text: list[str]) -> None:
    """Write the pending text pieces as one text record."""
    if text:
        out.append({"type": "text", "text": "".join(text)})
        text.clear()


RENDERERS: dict[str, Callable[..., str]] = {
    "txt": render_txt,
    "cleaneval": render_cleaneval,
    "markdown": render_markdown,
    "html": render_html,
    "json": render_json,
    "xml": render_xml,
    "csv": render_csv,
}

#: file extension per format, for one-file-per-page output
EXTENSIONS = {"txt": ".txt", "cleaneval": ".txt", "markdown": ".md", "html": ".html", "json": ".json",
              "xml": ".xml", "csv": ".csv"}
