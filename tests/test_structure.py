"""The structure around kept blocks: what follows the labels, what counts as a data table,
``<pre>`` lines, the render options, and Markdown read back by a CommonMark parser."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import detourage
from detourage.model import Label, Labels, Result
from detourage.render import render, render_units_html, units
from detourage.structure import RenderOptions, document

markdown_it = pytest.importorskip("markdown_it")
PARSER = markdown_it.MarkdownIt("commonmark").enable("table")
NEWS = Path(__file__).parent / "cases" / "news-page-with-every-structure" / "page.html"
L = Label

TABLE = ("<table><tr><th>Town</th><th>Votes</th></tr><tr><td>Bentham</td><td>1204</td></tr>"
         "<tr><td>Wray</td><td>980</td></tr></table>")


def labelled(html: str, keep: callable, url: str | None = None) -> Result:  # type: ignore[valid-type]
    """``html`` with the blocks whose text ``keep`` accepts kept as paragraphs."""
    page = detourage.load(html, url=url)
    labels = [L.PARAGRAPH if keep(b.text) else L.OTHER for b in page.blocks]
    return Result(page, Labels("test", tuple(labels)), units(page.blocks, labels))


def test_a_partly_kept_table_renders_its_kept_rows() -> None:
    result = labelled(TABLE, lambda t: t not in ("Wray", "980"))
    assert render(result, "markdown") == "| Town | Votes |\n| --- | --- |\n| Bentham | 1204 |\n"
    assert render(result, "txt") == "Town | Votes\nBentham | 1204\n"
    assert "<thead>\n<tr><th>Town</th><th>Votes</th></tr>\n</thead>" in render(result, "html")


def test_a_table_without_its_header_row_gets_an_empty_one() -> None:
    result = labelled(TABLE, lambda t: t in ("Wray", "980", "Bentham"))
    assert render(result, "markdown") == "|  |  |\n| --- | --- |\n| Bentham |  |\n| Wray | 980 |\n"


def test_a_single_kept_cell_still_sits_in_its_table_in_markdown_but_is_its_text_in_txt() -> None:
    result = labelled(TABLE, lambda t: t == "980")
    assert render(result, "txt") == "980\n"
    tokens = [t.type for t in PARSER.parse(render(result, "markdown"))]
    assert "table_open" in tokens


@pytest.mark.parametrize("html, data", [
    (TABLE, True),
    ("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>", True),
    ("<table><tr><td>a</td><td>b</td></tr></table>", False),  # one row
    ("<table><tr><td>a</td></tr><tr><td>b</td></tr></table>", False),  # one column
    ("<table><tr><td>a</td><td><p>b</p></td></tr><tr><td>c</td><td>d</td></tr></table>", False),
    ("<table><tr><th>a</th><td><table><tr><td>x</td></tr></table></td></tr></table>", False),
    ("<table role='presentation'><tr><th>a</th><th>b</th></tr></table>", False),
    ("<table><tr><th>a</th><td><ul><li>x</li></ul></td></tr></table>", False),
])
def test_data_tables_and_layout_tables(html: str, data: bool) -> None:
    result = detourage.run(detourage.load(html), "fulltext")
    assert ("| --- |" in render(result, "markdown")) is data


def test_pre_lines_keep_their_whitespace_and_follow_the_labels() -> None:
    html = "<pre>\n  one\n\n\ttwo <b>2</b>\nthree</pre>"
    everything = detourage.run(detourage.load(html), "fulltext")
    assert render(everything, "txt") == "  one\n\n\ttwo 2\nthree\n"
    assert render(everything, "markdown") == "```\n  one\n\n\ttwo 2\nthree\n```\n"
    assert render(labelled(html, lambda t: t != "three"), "txt") == "  one\n\n\ttwo 2\n"
    # a line kept in part is written as its kept runs
    assert render(labelled(html, lambda t: t in ("one", "2")), "txt") == "  one\n\n2\n"


def test_minified_highlighter_lines_keep_their_breaks() -> None:
    html = ("<pre class='shiki'><code><span class='line'><span>npm</span><span> create vite</span></span>"
            "<span class='line'></span><span class='line'><span>cd</span><span> my-project</span></span></code></pre>")
    everything = detourage.run(detourage.load(html), "fulltext")
    assert render(everything, "txt") == "npm create vite\n\ncd my-project\n"
    assert render(everything, "markdown") == "```\nnpm create vite\n\ncd my-project\n```\n"


def test_structure_follows_the_labels_not_the_units() -> None:
    """A unit running from a quote into a <pre> and a paragraph is written apart."""
    html = "<blockquote>quoted</blockquote><pre>code  here</pre><p>after</p>"
    page = detourage.load(html)
    labels = [L.PARAGRAPH, L.CONTINUATION, L.CONTINUATION]
    result = Result(page, Labels("test", tuple(labels)), units(page.blocks, labels))
    assert [u.text for u in result.units] == ["quoted code here after"]
    assert render(result, "markdown") == "> quoted\n\n```\ncode  here\n```\n\nafter\n"
    assert render(result, "txt") == "quoted\ncode  here\nafter\n"
    assert render(result, "cleaneval") == "<p> quoted code here after\n"


def test_markdown_reads_back_into_the_same_structure() -> None:
    page = detourage.load(NEWS.read_bytes(), url="https://news.example.org/2026/03/river.html")
    markdown = render(detourage.run(page, "fulltext"), "markdown", links=True)
    tokens = list(_flat(PARSER.parse(markdown)))
    types = [t.type for t in tokens]
    assert types.count("th_open") == 3 and types.count("tr_open") == 3
    ordered = next(t for t in tokens if t.type == "ordered_list_open")
    assert ordered.attrGet("start") is None  # starts at 1
    nested = types.index("ordered_list_open") < types.index("bullet_list_open") < types.index("ordered_list_close")
    assert nested
    fence = next(t for t in tokens if t.type == "fence")
    assert fence.info == "text" and fence.content == "level  time\n3.42   03:00\n    (provisional)\n"
    assert "blockquote_open" in types
    hrefs = [t.attrGet("href") for t in tokens if t.type == "link_open"]
    assert hrefs == ["https://news.example.org/", "https://news.example.org/news/",
                     "https://news.example.org/data/gauges"]
    assert {"em_open", "strong_open", "code_inline"} <= set(types)
    image = next(t for t in tokens if t.type == "image")
    assert image.attrGet("src") == "https://news.example.org/img/gauge.jpg"
    assert any(t.type == "text" and t.content.startswith("1. not a list") for t in tokens)


def _flat(tokens):  # type: ignore[no-untyped-def]
    for token in tokens:
        yield token
        yield from _flat(token.children or [])


@pytest.mark.parametrize("option, mark", [
    ({"links": False}, "gauges]("), ({"tables": False}, "| --- |"), ({"images": False}, "!["),
    ({"formatting": False}, "**"),
])
def test_each_option_drops_what_it_names(option: dict[str, bool], mark: str) -> None:
    html = NEWS.read_bytes()
    full = detourage.extract(html, "fulltext", "markdown", links=True)
    assert mark in full
    assert mark not in detourage.extract(html, "fulltext", "markdown", **{"links": True, **option})
    # the text stays: the words of txt are there, whatever is dropped
    assert detourage.extract(html, "fulltext", "txt", **option).split()[:8] == \
        detourage.extract(html, "fulltext", "txt").split()[:8]


def test_defaults_are_trafilatura_s_but_images() -> None:
    assert RenderOptions() == RenderOptions(links=False, images=True, tables=True, formatting=True)
    markdown = detourage.extract(NEWS.read_bytes(), "fulltext", "markdown")
    assert "](https://" not in markdown.replace("![", "") and "![" in markdown


def test_lines_split_by_br_are_one_paragraph_with_breaks() -> None:
    result = detourage.run(detourage.load("<p>one<br>two</p><p>three</p>"), "fulltext")
    assert render(result, "markdown") == "one\\\ntwo\n\nthree\n"
    assert "<p>one<br>two</p>" in render(result, "html")
    assert render(result, "txt") == "one\ntwo\nthree\n"


def test_chains_still_read_the_units() -> None:
    """The input of a chain's next method: one element per unit, as before structure."""
    result = detourage.run(detourage.load("<p>One <b>two</b>.</p><ol><li>a</li></ol>"), "fulltext")
    assert "<p>One two.</p>\n<ul>\n<li>a</li>\n</ul>" in render_units_html(result)


def test_plain_text_walks_up_only_in_data_tables_and_pre() -> None:
    result = detourage.run(detourage.load("<ul><li>a <b>b</b></li></ul><table><tr><td>x</td></tr></table>"),
                           "fulltext")
    root, ctx = document(result, RenderOptions(), frozenset({"table", "tr", "td", "th", "caption", "pre"}))
    assert ctx.targets == frozenset() and root.children == list(result.units)


def test_the_command_line_passes_the_options() -> None:
    from click.testing import CliRunner

    from detourage.cli import main

    def markdown(*options: str) -> str:
        args = ["extract", "-", "-m", "fulltext", "-f", "markdown", "--url", "https://e.org/a/", *options]
        result = CliRunner().invoke(main, args, input=b"<p>See <a href='b'>b</a>, <em>c</em>.</p>")
        assert result.exit_code == 0, result.output
        return result.stdout

    assert markdown() == "See b, *c*.\n"
    assert markdown("--links", "--no-formatting") == "See [b](https://e.org/a/b), c.\n"


@pytest.mark.parametrize("html", [
    "<ul><li>x" * 490 + "</li></ul>" * 490,
    "<blockquote>" * 980 + "q" + "</blockquote>" * 980,
    "<pre>" + "<b>" * 980 + "a\n b" + "</b>" * 980 + "</pre>",
    "<p>" + "<a href='x'><i>" * 490 + "a" + "</i></a>" * 490 + "</p>",
])
def test_deep_structure_renders_without_recursing_as_deep(html: str) -> None:
    txt = detourage.extract(html, "fulltext", "txt")
    for format in ("markdown", "html", "json"):
        detourage.extract(html, "fulltext", format, links=True)
    markdown = detourage.extract(html, "fulltext", "markdown")
    assert "".join(markdown.split()).replace(">", "").replace("-", "").replace("`", "").replace("*", "") \
        == "".join(txt.split())


def test_a_row_kept_in_part_keeps_its_columns() -> None:
    html = ("<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td>a1</td><td>b1</td><td>c1</td></tr>"
            "<tr><td colspan=2>ab2</td><td>c2</td></tr></table>")
    result = labelled(html, lambda t: t not in ("a1", "B"))
    # a colspan: no pipe table holds it (issue 46), the Markdown holds the HTML table
    assert render(result, "markdown").startswith("<table>\n<thead>\n<tr><th>A</th><td></td><th>C</th></tr>")
    assert render(labelled(html.replace(" colspan=2", ""), lambda t: t not in ("a1", "B")), "markdown") == (
        "| A |  | C |\n| --- | --- | --- |\n|  | b1 | c1 |\n| ab2 | c2 |  |\n")
    assert render(result, "txt") == "A | C\nb1 | c1\nab2 | c2\n"
    assert "<tr><td></td><td>b1</td><td>c1</td></tr>" in render(result, "html")


NESTED = ("<ul><li><a href='#3'>3 Browsers</a><ul><li>3.1 Firefox</li><li>3.2 Chrome<ul><li>3.2.1 Old</li>"
          "</ul></li></ul></li><li>4 Other</li></ul>"
          "<ol><li>Changes<ul><li>Misc<ul><li>New gesture</li><li>Faster start</li></ul></li></ul></li></ol>")


def test_a_list_level_without_kept_text_prints_no_empty_bullet() -> None:
    result = labelled(NESTED, lambda t: t not in ("3 Browsers", "Changes", "Misc"))
    assert render(result, "markdown") == ("- 3.1 Firefox\n- 3.2 Chrome\n  - 3.2.1 Old\n- 4 Other\n\n"
                                          "* New gesture\n* Faster start\n")
    html = render(result, "html")
    assert "<li><ul>" not in html and "<ul>\n<li>New gesture</li>\n<li>Faster start</li>\n</ul>" in html
    # with every level kept, the nesting is the page's
    assert render(labelled(NESTED, lambda t: True), "markdown").startswith(
        "- 3 Browsers\n  - 3.1 Firefox\n  - 3.2 Chrome\n    - 3.2.1 Old\n- 4 Other\n\n1. Changes\n   - Misc\n")


@pytest.mark.parametrize("html", [
    "<pre class='prism-code'><div class='token-line'><span class='token keyword'>const</span> a = 1;</div>"
    "<div class='token-line'>b();</div></pre>",
    "<pre><code><span class='token-line'>const a = 1;</span><span class='token-line'>b();</span></code></pre>",
    "<pre><code><span class='gatsby-highlight-code-line'>const a = 1;\n</span>b();\n</code></pre>",
    "<pre><div><div>const a = 1;</div></div><div><div>b();</div></div></pre>",
])
def test_highlighted_code_keeps_one_line_per_line_element(html: str) -> None:
    everything = detourage.run(detourage.load(html), "fulltext")
    assert render(everything, "txt") == "const a = 1;\nb();\n"
    assert render(everything, "markdown").endswith("\nconst a = 1;\nb();\n```\n")


def test_a_table_wider_than_anyone_reads_is_not_a_pipe_table() -> None:
    wide = "<table>" + ("<tr>" + "<td>c</td>" * 65 + "</tr>") * 3 + "</table>"
    assert "| --- |" not in render(detourage.run(detourage.load(wide), "fulltext"), "markdown")
    narrow = wide.replace("<td>c</td>" * 65, "<td>c</td>" * 64)
    assert "| --- |" in render(detourage.run(detourage.load(narrow), "fulltext"), "markdown")


def test_cell_columns_are_counted_once_per_row() -> None:
    """A row of 20 000 cells: counting each cell's column from its row's start was
    quadratic (tens of seconds); counted once per row, it is linear."""
    row = "<table><tr>" + "<th>h</th>" * 2 + "</tr><tr>" + "<td>c</td>" * 20_000 + "</tr></table>"
    result = detourage.run(detourage.load(row), "fulltext")
    root, ctx = document(result, RenderOptions())
    start = time.process_time()
    columns = [ctx.column(el) for el in result.page.tree.iter("td")]
    assert columns == list(range(20_000)) and time.process_time() - start < 1.0
