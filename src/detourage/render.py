"""Renderers: labelled blocks → output units → txt, CleanEval, Markdown, HTML or JSON.

Renderers read a :class:`Result` and never look at the tree: what a method kept is
entirely said by its labels.
"""

from __future__ import annotations

import html as htmllib
import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from .errors import UnknownFormat
from .model import Block, Label, Result, Unit

#: output unit kind → CleanEval marker
MARKERS = {Label.HEADER: "h", Label.PARAGRAPH: "p", Label.LIST: "l"}


def units(blocks: Sequence[Block], labels: Sequence[Label]) -> tuple[Unit, ...]:
    """Group kept blocks into units: a header, paragraph or list label opens one, and
    continuations join it (a continuation with nothing open opens a paragraph)."""
    out: list[Unit] = []
    current: list[Block] = []
    kind = Label.PARAGRAPH
    other, continuation = Label.OTHER, Label.CONTINUATION
    for block, label in zip(blocks, labels, strict=True):
        if label is other:
            continue
        if label is continuation and current:
            current.append(block)
            continue
        if current:
            out.append(Unit(kind, join(current), tuple(current)))
        current = [block]
        kind = Label.PARAGRAPH if label is continuation else label
    if current:
        out.append(Unit(kind, join(current), tuple(current)))
    return tuple(out)


def join(blocks: Sequence[Block]) -> str:
    """The text of consecutive runs, with a space where the page had one."""
    if len(blocks) == 1:
        return blocks[0].text
    return join_pieces(blocks, _text)


def _text(block: Block) -> str:
    return block.text


def join_pieces(blocks: Sequence[Block], piece: Callable[[Block], str]) -> str:
    """Like :func:`join`, with each block rendered by ``piece``."""
    parts: list[str] = []
    for block in blocks:
        text = piece(block)
        if not text:
            continue
        if parts and block.space_before:
            parts.append(" ")
        parts.append(text)
    return "".join(parts)


def render(result: Result, format: str = "txt", **options: Any) -> str:
    """Render ``result`` in ``format``; options are passed to that renderer."""
    try:
        renderer = RENDERERS[format]
    except KeyError:
        raise UnknownFormat(f"unknown format {format!r} (known: {', '.join(RENDERERS)})") from None
    return renderer(result, **options)


def render_txt(result: Result) -> str:
    """One unit per line; images contribute their alt text (seed 003 §3.2)."""
    return "".join(u.text + "\n" for u in result.units if u.text)


def render_cleaneval(result: Result, *, id: str | None = None, url_line: bool = False) -> str:
    """CleanEval lines (``<h> ``, ``<p> ``, ``<l> ``), optionally wrapped for submission."""
    lines = [f"<{MARKERS[u.kind]}> {u.text}" for u in result.units if u.text]
    if url_line:
        lines.insert(0, f"URL: {result.page.url or ''}")
    if id is not None:
        lines = [f'<text id="{htmllib.escape(id)}">', *lines, "</text>"]
    return "".join(line + "\n" for line in lines)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>])")
_MD_LINE_START = re.compile(r"^([#>+-]|\d+[.)])(?=\s)")


def _md(text: str) -> str:
    return _MD_LINE_START.sub(r"\\\1", _MD_SPECIAL.sub(r"\\\1", text))


def _md_piece(block: Block) -> str:
    if block.image:
        return f"![{_md(block.text)}]({block.image})"
    return _md(block.text)


def render_markdown(result: Result) -> str:
    """Markdown: ``#`` headings, ``-`` list items, paragraphs, inline ``![alt](src)`` images."""
    chunks: list[str] = []
    previous: Label | None = None
    for unit in result.units:
        text = join_pieces(unit.blocks, _md_piece)
        if not text:
            continue
        if unit.kind is Label.HEADER:
            text = "#" * unit.level + " " + text
        elif unit.kind is Label.LIST:
            text = "- " + text
        tight = previous is Label.LIST and unit.kind is Label.LIST
        chunks.append(("\n" if tight else "\n\n") + text if chunks else text)
        previous = unit.kind
    return "".join(chunks) + "\n" if chunks else ""


def _html_piece(block: Block) -> str:
    esc = htmllib.escape
    if block.image:
        return f'<img src="{esc(block.image)}" alt="{esc(block.text)}">'
    return esc(block.text)


def render_html(result: Result) -> str:
    """A small, valid HTML document of the kept content (the input of a chain's next step)."""
    body: list[str] = []
    in_list = False
    for unit in result.units:
        is_item = unit.kind is Label.LIST
        if is_item != in_list:
            body.append("<ul>" if is_item else "</ul>")
            in_list = is_item
        inner = join_pieces(unit.blocks, _html_piece)
        if unit.kind is Label.HEADER:
            body.append(f"<h{unit.level}>{inner}</h{unit.level}>")
        elif is_item:
            body.append(f"<li>{inner}</li>")
        else:
            body.append(f"<p>{inner}</p>")
    if in_list:
        body.append("</ul>")
    title = htmllib.escape(result.page.title)
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{title}</title></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def render_json(result: Result, *, blocks: bool = True, indent: int | None = None) -> str:
    """Title, encoding and how it was chosen, method, units, labelled blocks, timings."""
    return json.dumps(as_record(result, blocks=blocks), ensure_ascii=False, indent=indent)


#: the keys of a method's details that the JSON output shows (JSON-ready by contract)
REPORTED_DETAILS = ("template",)


def as_record(result: Result, *, blocks: bool = True) -> dict[str, Any]:
    """The JSON-ready dictionary behind :func:`render_json`."""
    page = result.page
    record: dict[str, Any] = {
        "url": page.url,
        "title": page.title,
        "method": result.labels.method,
        "encoding": page.decoded.encoding,
        "encoding_reason": page.decoded.reason,
        "declared_encoding": page.decoded.declared,
        "units": [_unit_record(u) for u in result.units],
    }
    if blocks:
        record["blocks"] = [
            {"id": b.id, "label": label.value, "text": b.text, "path": "/".join(b.path)}
            for b, label in zip(page.blocks, result.labels.labels, strict=True)
        ]
    report = {k: v for k, v in result.labels.details.items() if k in REPORTED_DETAILS}
    if report:
        record["details"] = report
    timings = {**page.timings, **result.timings}
    record["timings_ms"] = {k: round(v * 1000, 3) for k, v in timings.items()}
    return record


def _unit_record(unit: Unit) -> dict[str, Any]:
    record: dict[str, Any] = {"kind": unit.kind.value, "text": unit.text}
    if unit.kind is Label.HEADER:
        record["level"] = unit.level
    if unit.images:
        record["images"] = [{"src": src, "alt": alt} for src, alt in unit.images]
    return record


RENDERERS: dict[str, Callable[..., str]] = {
    "txt": render_txt,
    "cleaneval": render_cleaneval,
    "markdown": render_markdown,
    "html": render_html,
    "json": render_json,
}

#: file extension per format, for one-file-per-page output
EXTENSIONS = {"txt": ".txt", "cleaneval": ".txt", "markdown": ".md", "html": ".html", "json": ".json"}
