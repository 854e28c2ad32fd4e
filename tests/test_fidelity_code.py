"""Code listings as the page meant them (issue 46): the code alone, line for line, with
its language; gutters, line numbers, copy buttons and language labels left out."""

from __future__ import annotations

import json
import time

import pytest

import detourage

HEXO = ("<h1>Code</h1><p>Here is the code:</p><figure class='highlight python'><table><tr>"
        "<td class='gutter'><pre><span class='line'>1</span><br><span class='line'>2</span><br></pre></td>"
        "<td class='code'><pre><span class='line'><span class='keyword'>def</span> f():</span><br>"
        "<span class='line'>    <span class='keyword'>return</span> 1</span><br></pre></td></tr></table></figure>"
        "<p>Done.</p>")
PRISM = ("<p>Example:</p><div class='code-toolbar'><pre class='language-js line-numbers'><code class='language-js'>"
         "const a = 1;\nconsole.log(a);<span aria-hidden='true' class='line-numbers-rows'><span></span><span></span>"
         "</span></code></pre><div class='toolbar'><div class='toolbar-item'><span>JavaScript</span></div>"
         "<div class='toolbar-item'><button class='copy-to-clipboard-button'>Copy</button></div></div></div>"
         "<p>End.</p>")
PYGMENTS = ("<div class='highlight'><table class='highlighttable'><tr><td class='linenos'><div class='linenodiv'>"
            "<pre>1\n2\n3</pre></div></td><td class='code'><div class='highlight'><pre><span></span>"
            "<span class='k'>if</span> x:\n    y()\n\nz()</pre></div></td></tr></table></div>")
CHROMA_INLINE = ("<div class='highlight'><pre class='chroma'><code class='language-go' data-lang='go'>"
                 "<span class='line'><span class='ln'>1</span><span class='cl'>package main\n</span></span>"
                 "<span class='line'><span class='ln'>2</span><span class='cl'>  func f() {}\n</span></span>"
                 "</code></pre></div>")
CHROMA_TABLE = ("<div class='highlight'><div class='chroma'><table class='lntable'><tr><td class='lntd'>"
                "<pre class='chroma'><code><span class='lnt'>1\n</span><span class='lnt'>2\n</span></code></pre></td>"
                "<td class='lntd'><pre class='chroma'><code class='language-go' data-lang='go'>"
                "<span class='line'><span class='cl'>a := 1\n</span></span><span class='line'><span class='cl'>b := 2\n"
                "</span></span></code></pre></td></tr></table></div></div>")


def _pre(records: list[dict]) -> dict:  # type: ignore[type-arg]
    """The first ``pre`` record of a JSON structure."""
    for record in records:
        if record["type"] == "pre":
            return record
        if found := _pre(record.get("children", [])):
            return found
    return {}


def markdown(html: str) -> str:
    return detourage.extract(html, "fulltext", "markdown")


def test_a_gutter_cell_of_line_numbers_is_left_out_and_br_is_one_line_break() -> None:
    assert markdown(HEXO) == "# Code\n\nHere is the code:\n\n```python\ndef f():\n    return 1\n```\n\nDone.\n"
    assert detourage.extract(HEXO, "fulltext", "txt") == "Code\nHere is the code:\ndef f():\n    return 1\nDone.\n"


def test_prism_line_numbers_copy_button_and_language_label_are_left_out() -> None:
    assert markdown(PRISM) == "Example:\n\n```js\nconst a = 1;\nconsole.log(a);\n```\n\nEnd.\n"
    assert detourage.extract(PRISM, "fulltext", "txt") == "Example:\nconst a = 1;\nconsole.log(a);\nEnd.\n"


@pytest.mark.parametrize("html, code", [
    (PYGMENTS, "if x:\n    y()\n\nz()"),
    (CHROMA_INLINE, "package main\n  func f() {}"),
    (CHROMA_TABLE, "a := 1\nb := 2"),
])
def test_line_numbers_of_the_common_highlighters_are_left_out(html: str, code: str) -> None:
    assert markdown(html).split("\n", 1)[1] == code + "\n```\n"
    assert _pre(json.loads(detourage.extract(html, "fulltext", "json"))["structure"])["text"] == code


@pytest.mark.parametrize("html, lang", [
    ("<pre><code class='language-rust'>x</code></pre>", "rust"),
    ("<pre class='lang-ruby'>x</pre>", "ruby"),
    ("<div class='highlight-python notranslate'><div class='highlight'><pre>x</pre></div></div>", "python"),
    ("<div class='highlight highlight-source-c++'><pre>x</pre></div>", "c++"),
    ("<pre class='brush: js; gutter: false'>x</pre>", "js"),
    ("<pre><code data-lang='go'>x</code></pre>", "go"),
    ("<div class='language-ruby highlighter-rouge'><div class='highlight'><pre class='highlight'><code>x</code>"
     "</pre></div></div>", "ruby"),
    ("<figure class='highlight python'><table><tr><td class='code'><pre>x</pre></td></tr></table></figure>", "python"),
    ("<div class='lang-switch'><pre>x</pre></div>", ""),  # a wrapper's lang- names something else
    ("<div class='highlight lang-go'><pre>x</pre></div>", "go"),  # … but a highlighter's names the language
    ("<div class='highlight-python3 notranslate'><div class='highlight'><table class='highlighttable'><tr>"
     "<td class='code'><div><pre>x</pre></div></td></tr></table></div></div>", "python3"),  # Pygments' table
])
def test_the_language_is_read_from_the_common_conventions(html: str, lang: str) -> None:
    assert markdown(html) == f"```{lang}\nx\n```\n"
    assert _pre(json.loads(detourage.extract(html, "fulltext", "json"))["structure"])["language"] == lang
    html_out = detourage.extract(html, "fulltext", "html")
    assert (f'<code class="language-{lang}">' if lang else "<pre><code>x") in html_out


def test_whitespace_is_exact() -> None:
    html = "<pre>\tdef f():\n\t\treturn  1   \n\n\n    end</pre>"
    assert markdown(html) == "```\n\tdef f():\n\t\treturn  1   \n\n\n    end\n```\n"


def test_a_button_in_the_text_around_a_listing_stays() -> None:
    """Only the listing's own box loses its buttons: the page around it keeps its text."""
    text = "A long paragraph of the article that is well over the box's eighty characters of chrome."
    html = f"<div><p>{text}</p><pre>x = 1</pre><p>After <span class='lang'>it</span>.</p></div>"
    assert markdown(html) == f"{text}\n\n```\nx = 1\n```\n\nAfter it.\n"


def test_many_listings_in_a_long_text_cost_their_size() -> None:
    """The box around each listing is measured once per element: 6 000 <pre> in an
    article of 200 000 characters was quadratic."""
    html = "<div><p>" + "word " * 40_000 + "</p>" + "".join(f"<pre>line {i}</pre>" for i in range(6_000)) + "</div>"
    start = time.process_time()
    assert markdown(html).count("```") == 12_000
    assert time.process_time() - start < 5
