"""Fidelity of formulas, code and tables: issue 46's instrument.

    python benchmarks/fidelity.py                           # default and the peers, every page
    python benchmarks/fidelity.py --method default --method markdownify --json fidelity.json
    python benchmarks/fidelity.py --method default --page f-katex --show   # what it wrote
    python benchmarks/fidelity.py --compare before.json after.json          # two --json runs

The fidelity set (``benchmarks/data/fidelity/``: ``pages/<id>.html``, the hand-checked
Markdown of each page's main content in ``gold/<id>.md``, provenance in its README) is
cleaned by each method, and each output is read back as Markdown into its elements
(:func:`elements`): formulas (``$…$``, ``$$…$$``, and ``\\(…\\)``, ``\\[…\\]`` holding one of
``\\ ^ _ { } = +``: Markdown escapes brackets), code blocks (fenced, at any indentation, or
indented by four spaces) and tables (pipe tables, and HTML ``<table>`` opening a line).
The scores are WebMainBench's (OpenDataLab, 2025), per element:

- formula and code: edit-distance similarity, ``1 - Levenshtein(a, b) / max(len(a), len(b))``
  (formulas with their runs of white space made one space, code exact but for trailing
  white space at the ends of lines and blank lines around the block);
- table: TEDS (Zhong et al., 2020), ``1 - TED(a, b) / max(|a|, |b|)`` over the trees
  table → rows → cells, a cell's label its ``colspan``/``rowspan`` and a rename between
  two cells costing the normalised Levenshtein distance of their texts (apted's tree edit
  distance).  ``<th>`` and ``<td>`` are both cells, ``thead``/``tbody`` are dropped, a
  row of empty cells too (a pipe table needs a header, empty or not).

WebMainBench joins every formula (code block, table) of a page into one string and
compares the two strings; here the gold's elements and the output's are paired in order
(:func:`paired`: the pairing that maximises the summed similarity without crossing), and
a page's score for a kind is the summed similarity of its pairs over the larger of the
two counts, so that a formula written twice, or one missing, costs its share.  The
column of a kind is the mean over the pages whose gold has that kind; the elements a
method writes on the other pages are counted apart (the second table).  ``code lang``: of the
gold's code blocks that name a language, the share whose paired block names the same.
``text F1``: word-token F1 of the whole output against the whole gold (markup, link
targets and HTML tags left out), so that a converter that keeps the whole page is not
rewarded for it.

Methods: any detourage method (``default``…) through ``detourage.extract(html, method,
"markdown")``; ``peer-trafilatura`` (``trafilatura.extract(html, output_format="markdown")``,
WebMainBench's call); ``peer-resiliparse`` (``extract_plain_text(html, main_content=True)``:
plain text, it writes no Markdown); ``markdownify`` (the whole page converted, no
extraction: what a Markdown converter alone gives).  A library that is not installed
gives its row ``not installed``, not a crash; a page a method raises on is an empty
output, named under the table.  The scores need ``rapidfuzz`` and ``apted``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import _common

#: the fidelity set: pages/<id>.html, gold/<id>.md, README.md
SET = _common.ROOT / "benchmarks" / "data" / "fidelity"
KINDS = ("formula", "code", "table")
DEFAULT_METHODS = ("default", "peer-trafilatura", "peer-resiliparse", "markdownify")


# ------------------------------------------------------------------ elements


@dataclass(frozen=True, slots=True, kw_only=True)
class Element:
    """One formula, code block or table of a Markdown text."""

    kind: str
    #: a formula's TeX, a block's code, a table's source (pipe table or HTML)
    text: str
    #: a code block's language (the first word of its fence's info string), else ""
    lang: str = ""
    #: display formula (``$$``, ``\\[``), else inline
    display: bool = False


#: a fenced block, at any indentation (inside a list item a fence is indented as its item)
_FENCE = re.compile(r"^( *)(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n`]*\n(.*?)^ *\2[`~]*[ \t]*$", re.M | re.S)
_INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
#: an HTML table opens an HTML block: at the start of a line (``<table>`` in a sentence is text)
_HTML_TABLE = re.compile(r"^ {0,3}<table\b.*?</table\s*>", re.I | re.S | re.M)
_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_FORMULA = re.compile(
    r"(?<![\\$])\$\$(?P<d1>.+?)(?<!\\)\$\$"          # $$…$$
    r"|(?<!\\)\\\[(?P<d2>.+?)(?<!\\)\\\]"            # \[…\]
    r"|(?<!\\)\\\((?P<i2>.+?)(?<!\\)\\\)"            # \(…\)
    r"|(?<![\\$\w])\$(?P<i1>[^\s$](?:[^$\n]|\n(?!\n))*?(?<![\s\\]))\$(?![\d$])",  # $…$, pandoc's rule
    re.S)


def elements(markdown: str) -> list[Element]:
    """The formulas, code blocks and tables of ``markdown``, in document order within a
    kind: code first (its text is no formula or table), then tables, then formulas in
    what is left (inline code spans removed)."""
    found: list[Element] = []
    rest = _FENCE.sub(lambda m: _code(found, m.group(4), m.group(3), m.group(1)), markdown)
    rest = _indented_code(found, rest)
    html_tables = _HTML_TABLE.findall(rest)  # set aside, each put back in its place by the pipe pass
    rest = _HTML_TABLE.sub(_placeholders(), rest)
    rest = _pipe_tables(found, rest, html_tables)
    rest = _INLINE_CODE.sub(" ", rest)
    for m in _FORMULA.finditer(rest):
        tex = next(g for g in m.group("d1", "d2", "i2", "i1") if g is not None)
        if m.group("d1") is None and m.group("i1") is None and not _TEX_SIGN.search(tex):
            continue  # \[1\] is an escaped footnote mark in Markdown, not math
        found.append(Element(kind="formula", text=tex.strip(), display=m.group("d1", "d2") != (None, None)))
    return found


#: what the inside of ``\[…\]`` or ``\(…\)`` must hold to be read as math
_TEX_SIGN = re.compile(r"[\\^_{}=+]")


def _code(found: list[Element], body: str, info: str, indent: str) -> str:
    """A fenced block's code: each line loses as many of its leading spaces as the fence
    is indented by, no more (CommonMark)."""
    lines = [line[min(len(indent), len(line) - len(line.lstrip(" "))):] for line in body.split("\n")]
    found.append(Element(kind="code", text="\n".join(lines), lang=info.split("{")[0].strip(".").lower()))
    return "\n\n"


_LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s")


def _indented_code(found: list[Element], text: str) -> str:
    """Indented code blocks: lines indented by four spaces or a tab after a blank line,
    unless they continue a list item (CommonMark's rule, simplified)."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        if _opens_indented(lines, i, out):
            j = i
            while j < len(lines) and (_indented(lines[j]) or
                                      (not lines[j].strip() and j + 1 < len(lines) and _indented(lines[j + 1]))):
                j += 1
            body = [line[4:] if line.startswith("    ") else line[1:] for line in lines[i:j]]
            found.append(Element(kind="code", text="\n".join(body)))
            out.append("")
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


def _indented(line: str) -> bool:
    return line.startswith(("    ", "\t"))


def _opens_indented(lines: list[str], i: int, before: list[str]) -> bool:
    if not _indented(lines[i]) or not lines[i].strip() or (before and before[-1].strip()):
        return False
    previous = next((line for line in reversed(before) if line.strip()), "")
    return not (_LIST_ITEM.match(previous) or _indented(previous))


_PLACED = re.compile(r"^\0(\d+)\0$")


def _placeholders() -> Callable[[re.Match[str]], str]:
    """A ``re.sub`` replacement putting the n-th match's number on a line of its own."""
    n = iter(range(sys.maxsize))
    return lambda m: f"\n\n\0{next(n)}\0\n\n"


def _pipe_tables(found: list[Element], text: str, html_tables: Sequence[str]) -> str:
    """GFM pipe tables (a row with a ``|``, the delimiter row under it, and the rows with
    a ``|`` that follow) and, in their place, the HTML tables set aside."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        if placed := _PLACED.match(lines[i]):
            found.append(Element(kind="table", text=html_tables[int(placed.group(1))]))
            out.append("")
            i += 1
        elif "|" in lines[i] and i + 1 < len(lines) and _DELIMITER_ROW.match(lines[i + 1]) and "-" in lines[i + 1]:
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                j += 1
            found.append(Element(kind="table", text="\n".join(lines[i:j])))
            out.append("")
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


def by_kind(found: Sequence[Element]) -> dict[str, list[Element]]:
    return {kind: [e for e in found if e.kind == kind] for kind in KINDS}


# ------------------------------------------------------------------ similarity


def edit_similarity(a: str, b: str) -> float:
    """``1 - Levenshtein(a, b) / max(len(a), len(b))``; 1.0 for two empty strings."""
    from rapidfuzz.distance import Levenshtein

    return Levenshtein.normalized_similarity(a, b)


def formula_text(tex: str) -> str:
    return " ".join(tex.split())


def code_text(code: str) -> str:
    return "\n".join(line.rstrip() for line in code.split("\n")).strip("\n")


def similarity(gold: Element, got: Element) -> float:
    """The score of one pair of elements of the same kind."""
    if gold.kind == "formula":
        return edit_similarity(formula_text(gold.text), formula_text(got.text))
    if gold.kind == "code":
        return edit_similarity(code_text(gold.text), code_text(got.text))
    return teds(table_tree(gold.text), table_tree(got.text))


def paired(gold: Sequence[Element], got: Sequence[Element],
           score: Callable[[Element, Element], float] = similarity) -> list[tuple[int, int, float]]:
    """(gold index, output index, similarity) of the order-keeping pairing with the
    largest summed similarity (a longest-common-subsequence table, weighted)."""
    n, m = len(gold), len(got)
    sims = [[score(g, o) for o in got] for g in gold]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1], sims[i][j] + best[i + 1][j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if sims[i][j] > 0 and best[i][j] == sims[i][j] + best[i + 1][j + 1]:
            pairs.append((i, j, sims[i][j]))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def kind_score(gold: Sequence[Element], got: Sequence[Element]) -> float:
    """A page's score for one kind: the summed similarity of the pairs over the larger
    count (a missing element and an extra one each cost their share)."""
    if not gold and not got:
        return 1.0
    return sum(s for _, _, s in paired(gold, got)) / max(len(gold), len(got))


# ------------------------------------------------------------------ TEDS


@dataclass(frozen=True, slots=True)
class Node:
    """A node of a table's tree: ``table``, ``tr`` or ``td`` (with its spans) and, for a
    cell, its text (a nested table is a child of its cell)."""

    label: str
    text: str = ""
    children: tuple[Node, ...] = field(default=())

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children)


_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_MARKS = re.compile(r"(?<!\\)(\*\*|__|\*|`|~~)")
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def cell_text(text: str) -> str:
    """A cell's text as compared: inline Markdown marks, backslash escapes and link
    targets dropped, runs of white space made one space (a ``<br>`` or a paragraph break
    is a space)."""
    text = re.sub(r"<br\s*/?>", " ", text, flags=re.I)
    text = _MD_MARKS.sub("", _MD_LINK.sub(r"\1", text))
    return " ".join(_MD_ESCAPE.sub(r"\1", text).split())


def table_tree(source: str) -> Node:
    """The tree of a pipe table or an HTML ``<table>``."""
    if source.lstrip().startswith("<"):
        import lxml.etree
        import lxml.html

        try:
            return _html_table(lxml.html.fragment_fromstring(source.strip(), create_parent=False))
        except (ValueError, lxml.etree.ParserError):  # markup a method broke: a table of nothing
            return Node("table")
    return _pipe_table(source)


def _pipe_table(source: str) -> Node:
    rows = []
    for n, line in enumerate(source.strip().split("\n")):
        if n == 1:
            continue  # the delimiter row
        line = line.strip()
        line = line[1:] if line.startswith("|") else line
        line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
        cells = [cell_text(c.replace("\\|", "|")) for c in re.split(r"(?<!\\)\|", line)]
        rows.append(cells)
    return Node("table", children=tuple(Node("tr", children=tuple(Node("td", c) for c in row))
                                        for row in rows if any(row)))


def _html_table(table) -> Node:  # type: ignore[no-untyped-def]
    rows = []
    for tr in _own(table, "tr"):
        cells = tuple(_html_cell(td) for td in tr if isinstance(td.tag, str) and td.tag.lower() in ("td", "th"))
        if any(c.text or c.children for c in cells):
            rows.append(Node("tr", children=cells))
    return Node("table", children=tuple(rows))


def _own(table, tag: str) -> list:  # type: ignore[no-untyped-def]
    """The ``tag`` elements of ``table`` that are not inside a nested table."""
    return [el for el in table.iter(tag) if next(el.iterancestors("table"), None) is table]


def _html_cell(td) -> Node:  # type: ignore[no-untyped-def]
    nested = [t for t in td.iter("table") if next(t.iterancestors("table"), None) is next(td.iterancestors("table"))]
    words = [td.text or ""]
    for child in td:
        if child.tag != "table" and isinstance(child.tag, str):
            words.append(" " + " ".join(t for t in _text_outside_tables(child)) + " ")
        words.append(child.tail or "")
    spans = f"td colspan={_span(td, 'colspan')} rowspan={_span(td, 'rowspan')}"
    return Node(spans, cell_text("".join(words)), tuple(_html_table(t) for t in nested))


def _text_outside_tables(el) -> list[str]:  # type: ignore[no-untyped-def]
    if el.tag == "table":
        return []
    out = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str):
            out.extend(_text_outside_tables(child))
        out.append(child.tail or "")
    return out


def _span(td, name: str) -> int:  # type: ignore[no-untyped-def]
    digits = re.match(r"\s*(\d+)", td.get(name) or "")
    return max(1, int(digits.group(1))) if digits else 1


def _label(node: Node) -> str:
    """A pipe cell is a ``td`` without spans."""
    return "td colspan=1 rowspan=1" if node.label == "td" else node.label


def teds(gold: Node, got: Node) -> float:
    """Tree-edit-distance similarity of two table trees (see the module docstring)."""
    from apted import APTED, Config

    class Costs(Config):  # type: ignore[misc]
        def rename(self, a: Node, b: Node) -> float:
            if _label(a) != _label(b):
                return 1.0
            return 1.0 - edit_similarity(a.text, b.text) if a.text or b.text else 0.0

        def children(self, node: Node) -> list[Node]:
            return list(node.children)

    distance = APTED(gold, got, Costs()).compute_edit_distance()
    return max(0.0, 1.0 - distance / max(gold.size(), got.size()))


# ------------------------------------------------------------------ text


_HTML_TAG = re.compile(r"<[^>]+>")
_WORD = re.compile(r"\w+")


def words(markdown: str) -> list[str]:
    """Case-folded word tokens of Markdown, its HTML tags and link targets left out."""
    return _WORD.findall(_HTML_TAG.sub(" ", _MD_LINK.sub(r"\1", markdown)).casefold())


def text_f1(gold: str, got: str) -> float:
    """F1 of the bags of words of two texts."""
    g, o = Counter(words(gold)), Counter(words(got))
    common = sum((g & o).values())
    if not common:
        return float(not g and not o)
    p, r = common / sum(o.values()), common / sum(g.values())
    return 2 * p * r / (p + r)


# ------------------------------------------------------------------ scoring one page


@dataclass(frozen=True, slots=True, kw_only=True)
class PageScore:
    """One method on one page: per kind the score (None where the gold has none), the
    counts, and text F1."""

    page: str
    method: str
    scores: dict[str, float | None]
    gold_counts: dict[str, int]
    counts: dict[str, int]
    #: (same language, gold blocks that name one)
    lang: tuple[int, int]
    text_f1: float
    ms: float
    #: the class of the error the method raised on the page ("" when it did not)
    error: str = ""


def score_page(page: str, method: str, gold_md: str, got_md: str, ms: float = 0.0) -> PageScore:
    gold, got = by_kind(elements(gold_md)), by_kind(elements(got_md))
    scores = {k: kind_score(gold[k], got[k]) if gold[k] else None for k in KINDS}
    return PageScore(page=page, method=method, scores=scores,
                     gold_counts={k: len(gold[k]) for k in KINDS}, counts={k: len(got[k]) for k in KINDS},
                     lang=lang_agreement(gold["code"], got["code"]), text_f1=text_f1(gold_md, got_md), ms=ms)


def lang_agreement(gold: Sequence[Element], got: Sequence[Element]) -> tuple[int, int]:
    """(paired gold blocks whose language the output names too, gold blocks naming one)."""
    same = sum(1 for i, j, _ in paired(gold, got) if gold[i].lang and gold[i].lang == got[j].lang)
    return same, sum(1 for g in gold if g.lang)


# ------------------------------------------------------------------ methods


class NotInstalled(Exception):
    """The library behind a method is missing."""


def _library(module: str):  # type: ignore[no-untyped-def]
    try:
        return importlib.import_module(module)
    except ImportError:
        raise NotInstalled(module) from None


def _trafilatura(html: str) -> str:
    return _library("trafilatura").extract(html, output_format="markdown") or ""


def _resiliparse(html: str) -> str:
    return _library("resiliparse.extract.html2text").extract_plain_text(html, main_content=True)


def _markdownify(html: str) -> str:
    """The whole page as Markdown (no extraction); scripts and styles are no text."""
    import lxml.html

    tree = lxml.html.document_fromstring(html)
    for el in tree.xpath("//script|//style|//noscript|//template"):
        el.drop_tree()
    return _library("markdownify").markdownify(lxml.html.tostring(tree, encoding="unicode"), heading_style="ATX")


PEERS: dict[str, Callable[[str], str]] = {
    "peer-trafilatura": _trafilatura, "peer-resiliparse": _resiliparse, "markdownify": _markdownify}


class UnknownName(Exception):
    """No peer and no detourage method of that name."""


def runner(method: str) -> Callable[[str], str]:
    """The function that turns a page's HTML into a method's Markdown."""
    if method in PEERS:
        return PEERS[method]
    import detourage
    from detourage import methods
    from detourage.errors import UnknownMethod

    try:
        methods.chain(method)
    except UnknownMethod as exc:
        raise UnknownName(str(exc)) from None
    return lambda html: detourage.extract(html, method, "markdown")


# ------------------------------------------------------------------ the set and the run


def page_ids(root: Path = SET) -> list[str]:
    return sorted(p.stem for p in (root / "pages").glob("*.html"))


def run(methods: Sequence[str], root: Path = SET, only: Sequence[str] = ()) -> tuple[list[PageScore], dict[str, str]]:
    """Every method on every page (or those of ``only``): the page scores, and the
    methods that could not run with the reason."""
    scores, missing = [], {}
    for method in methods:
        try:
            extract = runner(method)
        except UnknownName:
            missing[method] = "no such method (`detourage methods` lists them)"
            continue
        try:
            scores += [_scored(page, method, extract, root) for page in page_ids(root) if not only or page in only]
        except NotInstalled as exc:
            missing[method] = f"not installed ({exc})"
    return scores, missing


def _scored(page: str, method: str, extract: Callable[[str], str], root: Path) -> PageScore:
    """One page through one method, scored; a page the method fails on is an empty output
    with the error's class (a crash is a miss, not the end of the run)."""
    html = (root / "pages" / f"{page}.html").read_text(encoding="utf-8")
    error = ""
    start = time.perf_counter()
    try:
        got = extract(html)
    except NotInstalled:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of the method is that page's miss
        got, error = "", type(exc).__name__
    ms = (time.perf_counter() - start) * 1000
    gold = (root / "gold" / f"{page}.md").read_text(encoding="utf-8")
    return replace(score_page(page, method, gold, got, ms), error=error)


def summary(scores: Sequence[PageScore], method: str) -> dict[str, float | int | None]:
    """A method's row: per kind the mean over the pages with that kind in their gold,
    its extra elements elsewhere, code language agreement, text F1, median ms per page."""
    mine = [s for s in scores if s.method == method]
    row: dict[str, float | int | None] = {}
    for kind in KINDS:
        values = [s.scores[kind] for s in mine if s.scores[kind] is not None]
        row[kind] = statistics.fmean(values) if values else None
        row[f"{kind}_extra"] = sum(s.counts[kind] for s in mine if s.scores[kind] is None)
    same, named = (sum(x) for x in zip(*(s.lang for s in mine))) if mine else (0, 0)
    row["code_lang"] = same / named if named else None
    row["text_f1"] = statistics.fmean(s.text_f1 for s in mine) if mine else None
    row["ms"] = statistics.median(s.ms for s in mine) if mine else None
    return row


def _cell(value: float | int | None) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


#: the keys of a row, in the table's order
_COLUMNS = ("formula", "code", "code_lang", "table", "text_f1")


def report(scores: Sequence[PageScore], methods: Sequence[str], missing: dict[str, str]) -> str:
    """The fidelity table, then the element counts."""
    lines = [_common.table_head(["method", "formula", "code", "code lang", "table (TEDS)", "text F1", "ms/page"],
                                "lrrrrrr")]
    for method in methods:
        if method in missing:
            lines.append(_common.table_row([method, missing[method], *["–"] * 5]))
            continue
        row = summary(scores, method)
        lines.append(_common.table_row([method, *(_cell(row[k]) for k in _COLUMNS),
                                        f"{row['ms']:.1f}"]))
    ran = [m for m in methods if m not in missing]
    failed = Counter((s.method, s.error) for s in scores if s.error)
    lines += [f"\n{method} failed on {n} page(s): {error}" for (method, error), n in sorted(failed.items())]
    lines += ["", _common.table_head(["elements", "pages", "gold", *ran], "lrr" + "r" * len(ran))]
    first = [s for s in scores if s.method == (ran[0] if ran else None)]
    for kind in KINDS:
        pages = sum(1 for s in first if s.gold_counts[kind])
        gold = sum(s.gold_counts[kind] for s in first)
        written = [sum(s.counts[kind] for s in scores if s.method == m) for m in ran]
        extra = [summary(scores, m)[f"{kind}_extra"] for m in ran]
        lines.append(_common.table_row([kind, pages, gold, *written]))
        lines.append(_common.table_row([f"{kind}, on pages whose gold has none", len(first) - pages, 0, *extra]))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--method", action="append", metavar="NAME",
                        help=f"a method to score, repeatable (default: {', '.join(DEFAULT_METHODS)})")
    parser.add_argument("--page", action="append", default=[], metavar="ID", help="only this page, repeatable")
    parser.add_argument("--set", type=Path, default=SET, metavar="DIR", help="the fidelity set (default: %(default)s)")
    parser.add_argument("--show", action="store_true", help="print each method's Markdown of the pages of --page")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                        help="two --json runs: their rows side by side and the pages whose scores moved")
    _common.add_json(parser, "every page's scores and the rows")
    args = parser.parse_args(argv)
    methods = args.method or list(DEFAULT_METHODS)
    if args.compare:
        print(compare(*(json.loads(p.read_text(encoding="utf-8")) for p in args.compare)))
        return 0
    if args.show:
        return _show(methods, args.set, args.page)
    scores, missing = run(methods, args.set, args.page)
    print(report(scores, methods, missing))
    if args.json:
        rows = {m: summary(scores, m) for m in methods if m not in missing}
        args.json.write_text(json.dumps({"rows": rows, "missing": missing,
                                         "pages": [asdict(s) for s in scores]}, indent=1))
    return 0


def compare(before: dict, after: dict) -> str:
    """Two ``--json`` runs: each method's row in both, then each page and kind whose score
    moved by 0.005 or more."""
    lines = [_common.table_head(["method", "run", *_COLUMNS], "ll" + "r" * len(_COLUMNS))]
    for method in [m for m in before["rows"] if m in after["rows"]]:
        for name, run_ in (("before", before), ("after", after)):
            lines.append(_common.table_row([method, name, *(_cell(run_["rows"][method][k]) for k in _COLUMNS)]))
    old = {(p["method"], p["page"]): p for p in before["pages"]}
    moved = []
    for page in after["pages"]:
        was = old.get((page["method"], page["page"]), {"scores": {}})
        for kind in (*KINDS, "text_f1"):
            a, b = _page_value(was, kind), _page_value(page, kind)
            if a is not None and b is not None and abs(b - a) >= 0.005:
                moved.append(_common.table_row([page["method"], page["page"], kind, f"{a:.3f}", f"{b:.3f}"]))
    if moved:
        lines += ["", _common.table_head(["method", "page", "kind", "before", "after"], "lllrr"), *moved]
    return "\n".join(lines)


def _page_value(page: dict, kind: str) -> float | None:
    """A page record's score for a kind or ``text_f1`` (None: not scored, or no record)."""
    return page.get("text_f1") if kind == "text_f1" else page["scores"].get(kind)


def _show(methods: Sequence[str], root: Path, pages: Sequence[str]) -> int:
    for page in pages or page_ids(root):
        html = (root / "pages" / f"{page}.html").read_text(encoding="utf-8")
        for method in methods:
            try:
                print(f"===== {page} · {method}\n{runner(method)(html)}")
            except NotInstalled as exc:
                print(f"===== {page} · {method}: not installed ({exc})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
