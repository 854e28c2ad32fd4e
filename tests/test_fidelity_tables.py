"""Tables as the page laid them out (issue 46): spans placed on a grid before rendering, and
in Markdown an HTML table where a pipe table would put cells under the wrong header."""

from __future__ import annotations

import json

import pytest

import detourage
from detourage.structure import layout

markdown_it = pytest.importorskip("markdown_it")
PARSER = markdown_it.MarkdownIt("commonmark").enable("table")

SPANNED_HEADER = ("<h1>Results</h1><table><thead><tr><th rowspan='2'>Method</th><th colspan='2'>Time (ms)</th></tr>"
                  "<tr><th>small</th><th>large</th></tr></thead>"
                  "<tbody><tr><td>A</td><td>1</td><td>10</td></tr><tr><td>B</td><td>2</td><td>20</td></tr></tbody></table>")


def extract(html: str, format: str) -> str:
    return detourage.extract(html, "fulltext", format)


def cells(structure: list[dict]) -> list[tuple[str, int, int]]:  # type: ignore[type-arg]
    """(text, column, rowspan) of every cell of a JSON structure."""
    out = []
    for record in structure:
        if record.get("type") == "cell":
            out.append((record["children"][0]["text"], record["column"], record.get("rowspan", 1)))
        out += cells(record.get("children", []))
    return out


def test_a_rowspan_in_the_header_does_not_slide_the_next_header_row_left() -> None:
    found = cells(json.loads(extract(SPANNED_HEADER, "json"))["structure"])
    assert found[:4] == [("Method", 0, 2), ("Time (ms)", 1, 1), ("small", 1, 1), ("large", 2, 1)]
    markdown = extract(SPANNED_HEADER, "markdown")
    assert markdown == ("# Results\n\n<table>\n<thead>\n"
                        '<tr><th rowspan="2">Method</th><th colspan="2">Time (ms)</th></tr>\n'
                        "<tr><th>small</th><th>large</th></tr>\n</thead>\n<tbody>\n"
                        "<tr><td>A</td><td>1</td><td>10</td></tr>\n<tr><td>B</td><td>2</td><td>20</td></tr>\n"
                        "</tbody>\n</table>\n")
    # GFM reads it as one HTML block, not as a pipe table of misaligned cells
    assert [t.type for t in PARSER.parse(markdown)][3:] == ["html_block"]
    assert "<thead>\n<tr><th rowspan=\"2\">Method</th>" in extract(SPANNED_HEADER, "html")


def test_a_rowspan_in_the_body_leaves_its_columns_to_the_cell_above() -> None:
    html = ("<table><tr><th>Town</th><th>Year</th><th>Votes</th></tr>"
            "<tr><td rowspan=2>Wray</td><td>2020</td><td>980</td></tr><tr><td>2024</td><td>1204</td></tr></table>")
    assert [(t, c) for t, c, _ in cells(json.loads(extract(html, "json"))["structure"])] == [
        ("Town", 0), ("Year", 1), ("Votes", 2), ("Wray", 0), ("2020", 1), ("980", 2), ("2024", 1), ("1204", 2)]
    html_out = extract(html, "html")
    assert "<tr><td>2024</td><td>1204</td></tr>" in html_out  # no empty cell under the span
    assert '<tr><td rowspan="2">Wray</td>' in html_out
    assert extract(html, "markdown").startswith("<table>\n")
    assert extract(html, "txt") == "Town | Year | Votes\nWray | 2020 | 980\n2024 | 1204\n"


def test_a_rowspan_ends_with_its_row_group() -> None:
    table = detourage.load("<table><thead><tr><th rowspan=3>a</th><th>b</th></tr></thead>"
                           "<tbody><tr><td>c</td><td>d</td></tr></tbody></table>").tree
    grid = layout(next(table.iter("table")))
    assert [grid.columns[el] for el in table.iter("td")] == [0, 1]


def test_a_plain_table_stays_a_pipe_table() -> None:
    html = "<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"
    assert extract(html, "markdown") == "| A | B |\n| --- | --- |\n| 1 | 2 |\n"


def test_a_cell_of_several_paragraphs_is_kept_apart_in_an_html_table() -> None:
    html = "<table><tr><th>A</th><th>B</th></tr><tr><td><p>one</p><p>two</p></td><td>2</td></tr></table>"
    markdown = extract(html, "markdown")
    assert "<tr><td>one<br>two</td><td>2</td></tr>" in markdown and "| --- |" not in markdown
    assert "<td>one<br>two</td>" in extract(html, "html")


def test_a_layout_table_stays_text() -> None:
    html = ("<table><tr><td rowspan=2><p>Menu</p></td><td><p>Article text, a paragraph.</p></td></tr>"
            "<tr><td><p>More text.</p></td></tr></table>")
    assert extract(html, "markdown") == "Menu\n\nArticle text, a paragraph.\n\nMore text.\n"


def test_a_data_table_holding_data_tables_in_its_cells_is_one_html_table() -> None:
    html = ("<table><tr><th>Plan</th><th>Limits</th></tr><tr><td>Free</td><td><table><tr><td>Projects</td>"
            "<td>3</td></tr><tr><td>Storage</td><td>1 GB</td></tr></table></td></tr></table>")
    assert extract(html, "markdown") == (
        "<table>\n<thead>\n<tr><th>Plan</th><th>Limits</th></tr>\n</thead>\n<tbody>\n<tr><td>Free</td><td><table>\n"
        "<tbody>\n<tr><td>Projects</td><td>3</td></tr>\n<tr><td>Storage</td><td>1 GB</td></tr>\n</tbody>\n"
        "</table></td></tr>\n</tbody>\n</table>\n")
    assert extract(html, "txt") == "Plan | Limits\nFree | Projects 3 Storage 1 GB\n"
    # a page laid out in tables: the outer table has no header cells of its own
    layout = html.replace("<th>", "<td>").replace("</th>", "</td>")
    assert "<table>" not in extract(layout, "markdown")
