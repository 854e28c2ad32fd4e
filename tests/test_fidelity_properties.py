"""Formulas, listings and tables in any arrangement and under any labelling (issue 46):
every format renders, and each formula's TeX is written once."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings, strategies as st

import detourage
from detourage.model import Label, Labels, Result
from detourage.render import render, units

EXAMPLES = int(os.environ.get("DETOURAGE_EXAMPLES", "150"))

#: one formula of each kind, each with a TeX no other holds (``t0`` … ``t5`` are set in)
FORMULAS = [
    "<span class='katex'><span class='katex-mathml'><math><semantics><mi>k</mi><annotation "
    "encoding='application/x-tex'>{tex}</annotation></semantics></math></span><span class='katex-html'>"
    "<span class='mord'>k</span></span></span>",
    "<script type='math/tex'>{tex}</script>",
    "<span class='MathJax_Preview'>p</span><span class='MathJax' id='MathJax-Element-9-Frame'><nobr>j</nobr></span>"
    "<script type='math/tex; mode=display'>{tex}</script>",
    "<math alttext='{tex}'><mi>a</mi></math>",
    "<img class='mwe-math-fallback-image-inline' src='f.svg' alt='{{\\displaystyle {tex}}}'>",
    "<mjx-container display='true'><mjx-assistive-mml><math><semantics><mi>m</mi><annotation "
    "encoding='application/x-tex'>{tex}</annotation></semantics></math></mjx-assistive-mml></mjx-container>",
]
OTHERS = [
    "<p>Some words here.</p>",
    "<table><tr><th rowspan=2>A</th><th colspan=2>B</th></tr><tr><td>1</td><td>2</td></tr></table>",
    "<figure class='highlight'><table><tr><td class='gutter'><pre>1<br>2</pre></td><td class='code'><pre>"
    "<span class='line'>x = 1</span><br><span class='line'>y = 2</span></pre></td></tr></table></figure>",
    "<div class='code-toolbar'><pre class='language-js'><code>let a;</code></pre><button>Copy</button></div>",
]


@st.composite
def pages(draw: st.DrawFn) -> str:
    formulas = [f.format(tex=f"t{i}+x_{i}") for i, f in enumerate(FORMULAS)]
    pieces = draw(st.lists(st.sampled_from(formulas + OTHERS), min_size=1, max_size=8, unique=True))
    wrappers = draw(st.lists(st.sampled_from(["p", "li", "td", "div", "em"]), min_size=len(pieces),
                             max_size=len(pieces)))
    cell = "<table><tr><th>h</th></tr><tr><td>{}</td></tr></table>"
    body = "".join(cell.format(p) if w == "td" else f"<{w}>word {p} end</{w}>" for w, p in zip(wrappers, pieces))
    return f"<html><body>{body}</body></html>"


LABELS = st.sampled_from([Label.PARAGRAPH, Label.CONTINUATION, Label.OTHER, Label.LIST, Label.HEADER])


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages(), st.data())
def test_every_format_renders_and_a_formula_is_written_once(html: str, data: st.DataObject) -> None:
    page = detourage.load(html)
    labels = data.draw(st.lists(LABELS, min_size=len(page.blocks), max_size=len(page.blocks)))
    for result in (detourage.run(page, "fulltext"),
                   Result(page, Labels("random", tuple(labels)), units(page.blocks, labels))):
        outputs = {fmt: render(result, fmt, links=True) for fmt in ("markdown", "txt", "html", "json", "xml")}
        json.loads(outputs["json"])
        for fmt in ("markdown", "txt"):
            for i in range(len(FORMULAS)):
                assert outputs[fmt].count(f"t{i}+x_{i}") <= 1, (fmt, outputs[fmt])
