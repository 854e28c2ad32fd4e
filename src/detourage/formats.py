"""The formats that carry a page's metadata beside its text: YAML front matter (txt and
Markdown ``--with-metadata``), CSV rows and the XML document (:mod:`detourage.render`
writes them; :mod:`detourage.metadata` finds what they carry)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from lxml import etree

from .metadata import FIELDS, Metadata
from .model import Result


def front_matter(found: Metadata) -> str:
    """The metadata as YAML front matter (``---`` lines around ``key: value``), the fields
    found only; values are JSON strings and lists, which YAML reads as they are."""
    lines = [f"{name}: {_yaml_value(value)}" for name, value in found.as_dict().items() if value]
    return "---\n" + "".join(line + "\n" for line in lines) + "---\n"


#: characters YAML does not allow unescaped (DEL, C1 controls, NEL, LS and PS read as breaks,
#: surrogates, U+FEFF, U+FFFE/F) that json.dumps leaves as they are with ``ensure_ascii=False``
_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")


def _yaml_value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


#: the CSV output's columns: the metadata's fields, then the text
CSV_COLUMNS = (*FIELDS, "text")


def csv_row(found: Metadata, text: str) -> dict[str, str]:
    """One CSV row: lists joined by ``"; "``, nothing found as an empty cell."""
    row = {name: "; ".join(v) if isinstance(v, list) else ("" if v is None else str(v))
           for name, v in found.as_dict().items()}
    row["text"] = text
    return row


def csv_text(rows: Iterable[dict[str, Any]], columns: tuple[str, ...] = CSV_COLUMNS, header: bool = True) -> str:
    """Rows as CSV (RFC 4180 quoting, ``\\n`` line ends), with a header line."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\n")
    if header:
        writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


#: HTML element of the structured body → XML element and its ``rend`` (TEI-like names, as
#: trafilatura's XML output uses them)
_XML_NAMES = {"p": ("p", None), "ul": ("list", "ul"), "ol": ("list", "ol"), "li": ("item", None),
              "table": ("table", None), "tr": ("row", None), "td": ("cell", None), "th": ("cell", None),
              "caption": ("head", None), "blockquote": ("quote", None), "figure": ("figure", None),
              "figcaption": ("caption", None), "em": ("hi", "#i"), "strong": ("hi", "#b"),
              "code": ("code", None), "pre": ("code", "block"), "a": ("ref", None),
              "img": ("graphic", None), "br": ("lb", None),
              **{f"h{n}": ("head", f"h{n}") for n in range(1, 7)}}
#: elements holding only elements: the whitespace between their children is layout
_XML_CONTAINERS = frozenset({"main", "list", "table", "row", "quote", "figure"})
_XML_BLOCKS = ("head", "p", "list", "item", "table", "row", "code", "quote", "figure", "caption", "graphic")
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_document(result: Result, found: Metadata, body_html: str) -> str:
    """The XML output::

        <doc title="…" authors="A; B" date="YYYY-MM-DD" … method="…">
          <main>
            <head rend="h1">…</head>           headings, rend h1…h6
            <p>… <hi rend="#b">…</hi> <hi rend="#i">…</hi> <code>…</code>
               <ref target="URL">…</ref> <graphic src="URL" alt="…"/> <lb/></p>
            <list rend="ul|ol" start="N"><item>…</item></list>
            <table><head>caption</head><row><cell role="head">…</cell><cell cols="2">…</cell></row></table>
            <code rend="block" lang="python">…</code>   a <pre>, its whitespace kept
            <formula notation="tex">…</formula>       a formula's TeX
            <quote>…</quote> <figure><graphic …/><caption>…</caption></figure>
          </main>
        </doc>

    Every metadata field found is an attribute of ``<doc>`` (lists joined by ``"; "``),
    followed by ``method``.  Characters XML 1.0 forbids are dropped.
    """
    doc = etree.Element("doc")
    for name, value in csv_row(found, "").items():
        if value and name != "text":
            doc.set(name, _xml_text(value))
    doc.set("method", result.labels.method)
    main = etree.SubElement(doc, "main")
    if body_html.strip():
        parsed = etree.fromstring(f"<html><body>{body_html}</body></html>",
                                  etree.HTMLParser(encoding="utf-8", remove_comments=True))
        body = parsed.find("body") if parsed is not None else None
        if body is not None:
            texts = _XmlTexts()
            _xml_children(body, main, texts)
            texts.write()
    for el in main.iter(*_XML_CONTAINERS):
        if len(el) and not (el.text or "").strip():
            el.text = "\n"
    for el in main.iter(*_XML_BLOCKS):
        parent = el.getparent()
        if parent is not None and parent.tag in _XML_CONTAINERS:
            el.tail = "\n"
    doc.text = "\n"
    main.tail = "\n"
    return etree.tostring(doc, encoding="unicode") + "\n"


def _xml_children(source: etree._Element, target: etree._Element, texts: _XmlTexts) -> None:
    """Copy ``source``'s content into ``target``, renaming elements (``thead``, ``tbody``
    and a ``<pre>``'s inner ``<code>`` unwrapped); the text goes to ``texts``."""
    if source.text and (target.tag not in _XML_CONTAINERS or source.text.strip()):
        texts.add(target, _xml_text(source.text))
    for child in source:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag == "math":  # a formula (issue 46): its TeX, which the renderer puts in alttext
            formula = etree.SubElement(target, "formula", notation="tex")
            texts.add(formula, _xml_text(child.get("alttext", "")))
        elif tag in ("thead", "tbody") or (tag == "code" and source.tag == "pre"):
            _xml_children(child, target, texts)
            if tag == "code" and (lang := (child.get("class") or "").removeprefix("language-")):
                target.set("lang", _xml_text(lang))
        elif tag in _XML_NAMES:
            name, rend = _XML_NAMES[tag]
            element = etree.SubElement(target, name)
            if rend:
                element.set("rend", rend)
            _xml_attributes(child, element)
            _xml_children(child, element, texts)
        else:
            _xml_children(child, target, texts)
        if child.tail and (target.tag not in _XML_CONTAINERS or child.tail.strip()):
            texts.add(target, _xml_text(child.tail))


def _xml_attributes(source: etree._Element, element: etree._Element) -> None:
    tag = source.tag
    if tag == "a":
        element.set("target", _xml_text(source.get("href", "")))
    elif tag == "img":
        element.set("src", _xml_text(source.get("src", "")))
        element.set("alt", _xml_text(source.get("alt", "")))
    elif tag == "th":
        element.set("role", "head")
    elif tag == "ol" and source.get("start"):
        element.set("start", source.get("start", ""))
    if source.get("colspan"):
        element.set("cols", source.get("colspan", ""))


class _XmlTexts:
    """The XML tree's text, gathered by element and set once at the end: lxml copies an
    element's whole text or tail to read or set it, so adding to it piece by piece is
    quadratic (a paragraph of 20 000 unwrapped inline elements: 28 s)."""

    def __init__(self) -> None:
        self.pieces: dict[tuple[etree._Element, str], list[str]] = {}

    def add(self, target: etree._Element, text: str) -> None:
        """Add ``text`` at the end of ``target``: its text, or its last child's tail."""
        try:
            key = (target[-1], "tail")  # the last child, found from the end (len() counts)
        except IndexError:
            key = (target, "text")
        self.pieces.setdefault(key, []).append(text)

    def write(self) -> None:
        """Set every text and tail gathered."""
        for (element, slot), pieces in self.pieces.items():
            setattr(element, slot, "".join(pieces))


def _xml_text(value: str) -> str:
    return _XML_INVALID.sub("", value)
