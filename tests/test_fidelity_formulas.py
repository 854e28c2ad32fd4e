"""Formulas as the page meant them (issue 46): TeX in Markdown and txt (``$…$`` inline,
``$$…$$`` displayed), ``<math>`` in HTML, a formula record in JSON; the page's own TeX
where it has one, presentation MathML converted otherwise; never the same formula twice."""

from __future__ import annotations

import json

import pytest
from lxml import html as lxml_html

import detourage
from detourage import segment as seg
from detourage.formulas import formula, mathml_tex
from detourage.parse import parse

MATHML = ("<p>The identity <math><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup><mo>+</mo><mn>1</mn>"
          "<mo>=</mo><mn>0</mn></math> is famous.</p>")
MATHJAX2 = ("<p>Mass and energy: <script type='math/tex'>E=mc^2</script> as Einstein said.</p><p>The integral</p>"
            "<script type='math/tex; mode=display'>\\int_0^1 x^2\\,dx = \\frac{1}{3}</script><p>is easy.</p>")
MATHJAX2_RENDERED = (
    "<p>Let <span class='MathJax_Preview'>b</span><span class='MathJax' id='MathJax-Element-1-Frame'><nobr>"
    "<span class='math'><span class='mi'>b</span></span></nobr><span class='MJX_Assistive_MathML'><math><mi>b</mi>"
    "</math></span></span><script type='math/tex' id='MathJax-Element-1'>b_0</script> be.</p>")
KATEX = ("<p>The function <span class='katex'><span class='katex-mathml'><math><semantics><mrow><msup><mi>e</mi>"
         "<mi>x</mi></msup></mrow><annotation encoding='application/x-tex'>e^x</annotation></semantics></math></span>"
         "<span class='katex-html' aria-hidden='true'><span class='base'><span class='mord'>"
         "<span class='mord mathnormal'>e</span><span class='msupsub'><span class='mord mathnormal mtight'>x</span>"
         "</span></span></span></span></span>"
         " grows.</p>")
KATEX_DISPLAY = KATEX.replace("<span class='katex'>", "<span class='katex-display'><span class='katex'>").replace(
    "</span></span></span></span></span></span>", "</span></span></span></span></span></span></span>")
MATHJAX3 = ("<p>Area <mjx-container class='MathJax' jax='CHTML' display='true'><mjx-math><mjx-mi><mjx-c></mjx-c>"
            "</mjx-mi></mjx-math><mjx-assistive-mml display='block'><math><mi>π</mi><msup><mi>r</mi><mn>2</mn>"
            "</msup></math></mjx-assistive-mml></mjx-container> here.</p>")
WIKIPEDIA = ("<p>Mass <span class='mwe-math-element'><span class='mwe-math-mathml-inline' style='display: none;'>"
             "<math alttext='{\\displaystyle E=mc^{2}}'><semantics><mrow><mi>E</mi></mrow><annotation "
             "encoding='application/x-tex'>{\\displaystyle E=mc^{2}}</annotation></semantics></math></span>"
             "<img src='https://wikimedia.org/media/math/render/svg/1' class='mwe-math-fallback-image-inline' "
             "aria-hidden='true' alt='{\\displaystyle E=mc^{2}}'></span> holds.</p>")
LATEXML = ("<p>Sum <math alttext='x_{1}+y' class='ltx_Math' display='inline'><semantics><mrow><msub><mi>x</mi>"
           "<mn>1</mn></msub><mo>+</mo><mi>y</mi></mrow><annotation-xml encoding='MathML-Content'><apply><plus/>"
           "<ci>x1</ci><ci>y</ci></apply></annotation-xml></semantics></math> here.</p>")


def extract(html: str, format: str = "markdown") -> str:
    return detourage.extract(html, "fulltext", format)


@pytest.mark.parametrize("html, markdown", [
    (MATHML, "The identity $e^{i\\pi} + 1 = 0$ is famous.\n"),
    (MATHJAX2, "Mass and energy: $E=mc^2$ as Einstein said.\n\nThe integral\n\n"
               "$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\nis easy.\n"),
    (MATHJAX2_RENDERED, "Let $b_0$ be.\n"),
    (KATEX, "The function $e^x$ grows.\n"),
    (KATEX_DISPLAY, "The function $$e^x$$ grows.\n"),
    (MATHJAX3, "Area $$\\pi r^2$$ here.\n"),
    (WIKIPEDIA, "Mass $E=mc^{2}$ holds.\n"),
    (LATEXML, "Sum $x_{1}+y$ here.\n"),
])
def test_each_kind_of_formula_is_its_tex_once(html: str, markdown: str) -> None:
    assert extract(html) == markdown
    assert extract(html, "txt") == markdown.replace("\n\n", "\n")


def test_html_keeps_the_math_element_and_json_says_the_tex_and_its_source() -> None:
    page = KATEX + MATHJAX2 + WIKIPEDIA + MATHML
    html = extract(page, "html")
    assert ('<p>The function <math alttext="e^x"><semantics><mrow><msup><mi>e</mi><mi>x</mi></msup></mrow>'
            '<annotation encoding="application/x-tex">e^x</annotation></semantics></math> grows.</p>') in html
    assert '<math alttext="E=mc^2"><semantics><mtext>E=mc^2</mtext>' in html
    assert "mathnormal" not in html and html.count(">e^x<") == 1
    xml = extract(page, "xml")
    assert '<p>The function <formula notation="tex">e^x</formula> grows.</p>' in xml and "exe" not in xml
    formulas = [c for u in json.loads(extract(page, "json"))["structure"] for c in u.get("content", [])
                if c["type"] == "formula"]
    assert [(f["tex"], f["display"], f["source"]) for f in formulas] == [
        ("e^x", False, "annotation"), ("E=mc^2", False, "script"),
        ("\\int_0^1 x^2\\,dx = \\frac{1}{3}", True, "script"), ("E=mc^{2}", False, "annotation"),
        ("e^{i\\pi} + 1 = 0", False, "mathml")]


def test_the_page_mathml_is_kept_without_anything_else() -> None:
    html = extract("<p>x <math><mi onclick='alert(1)'>a</mi><foo><mi href='javascript:x'>b</mi></foo></math></p>",
                   "html")
    assert '<math alttext="a b"><mi>a</mi><mi>b</mi></math>' in html
    assert "onclick" not in html and "javascript" not in html


@pytest.mark.parametrize("mathml, tex", [
    ("<mfrac><mn>1</mn><mi>n</mi></mfrac>", "\\frac{1}{n}"),
    ("<mroot><mi>x</mi><mn>3</mn></mroot>", "\\sqrt[3]{x}"),
    ("<msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup>", "x_i^2"),
    ("<munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>0</mn></mrow><mi>n</mi></munderover><mi>k</mi>",
     "\\sum_{k=0}^{n} k"),
    ("<munder><mi>lim</mi><mrow><mi>x</mi><mo>→</mo><mn>0</mn></mrow></munder>", "\\lim_{x\\to0}"),
    ("<mover><mi>v</mi><mo>→</mo></mover>", "\\vec{v}"),
    ("<mi>sin</mi><mi>θ</mi><mo>≤</mo><mn>1</mn>", "\\sin\\theta \\le 1"),
    ("<mi>max</mi><mi>x</mi>", "\\max x"),
    ("<mtext>if </mtext><mi>x</mi>", "\\text{if} x"),
    ("<mfenced><mi>a</mi><mi>b</mi></mfenced>", "(a, b)"),
    ("<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd>"
     "</mtr></mtable>", "\\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix}"),
    ("<mtable columnalign='right left'><mtr><mtd><mi>y</mi></mtd><mtd><mo>=</mo><mi>ε</mi></mtd></mtr></mtable>",
     "\\begin{aligned} y & = \\varepsilon \\end{aligned}"),  # ε is TeX's \varepsilon
    ("<mi>cov</mi><mo>\u2061</mo><mi>x</mi>", "\\operatorname{cov} x"),  # a name applied as a function
    ("<msub><mover><mi>β</mi><mo>^</mo></mover><mn>1</mn></msub>", "\\hat{\\beta}_1"),  # an accent is one base
    ("<mi mathvariant='double-struck'>R</mi>", "\\mathbb{R}"),
    ("<mo>-</mo><mi>b</mi><mo>±</mo><mi>c</mi>", "-b \\pm c"),  # a sign, then an operator
    ("<mi>a</mi><mi>t</mi><mo>,</mo><msub><mi>x</mi><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow></msub>",
     "a t, x_{i=1}"),  # letters apart, a subscript tight
    ("<mrow data-mjx-texclass='INNER'><mo data-mjx-texclass='OPEN'>(</mo><mi>x</mi>"
     "<mo data-mjx-texclass='CLOSE'>)</mo></mrow>", "\\left(x\\right)"),  # MathJax's \left( \right)
])
def test_presentation_mathml_to_tex(mathml: str, tex: str) -> None:
    math = lxml_html.fromstring(f"<p><math>{mathml}</math></p>").find(".//math")
    assert mathml_tex(math) == tex
    assert formula(math).source == "mathml"  # type: ignore[union-attr]


def test_a_math_script_is_a_block_in_both_segmentations() -> None:
    root = parse(MATHJAX2)
    python = [(b.text, b.path[-1], b.node.tag) for b in seg._segment(root, seg.DEFAULT_LIMITS)[0]]
    assert ("E=mc^2", "script", "script") in python
    if seg._compiled is not None:
        assert [(b.text, b.path[-1], b.node.tag) for b in seg._compiled(root, seg.DEFAULT_LIMITS)[0]] == python
    assert all(b.path[-1] != "script" for b in seg.segment(parse("<script>var x;</script><p>a</p>")))
    # spaced as the page spaces it: "point <script>θ</script>, each" reads "point $θ$, each"
    tight = parse("<p>a point <script type='math/tex'>x_0</script>, each<script type='math/tex'>y</script>z</p>")
    python = [(b.text, b.space_before) for b in seg._segment(tight, seg.DEFAULT_LIMITS)[0]]
    assert python == [("a point", True), ("x_0", True), (", each", False), ("y", False), ("z", False)]
    if seg._compiled is not None:
        assert [(b.text, b.space_before) for b in seg._compiled(tight, seg.DEFAULT_LIMITS)[0]] == python


def test_a_page_without_formulas_walks_no_further() -> None:
    result = detourage.run(detourage.load("<p>a <span>b</span></p><p><img src='x.png' alt='{x}'></p>"), "fulltext")
    from detourage.settings import RenderOptions
    from detourage.structure import document
    root, ctx = document(result, RenderOptions())
    assert not ctx.formulas and "span" not in ctx._tags


@pytest.mark.parametrize("text, markdown", [
    ("Let $E_1$ be $$E = 1 + \\tfrac{1}{2} E_1$$ and \\(x_2\\).",
     "Let $E_1$ be $$E = 1 + \\tfrac{1}{2} E_1$$ and \\(x_2\\).\n"),
    ("costs $5 and $10 * 2", "costs $5 and $10 \\* 2\n"),  # dollars, no formula
    ("price $_POST[x] and $y_z", "price $\\_POST\\[x\\] and $y\\_z\n"),  # no space inside: no formula
])
def test_tex_left_in_the_text_is_not_escaped(text: str, markdown: str) -> None:
    assert extract(f"<p>{text}</p>") == markdown


def test_a_formula_image_is_spaced_as_the_page_spaces_it_in_both_segmentations() -> None:
    root = parse("<p>sides <span><img src='a.svg' alt='{\\displaystyle a}'></span>, <img src='b.svg' "
                 "alt='{\\displaystyle b}'>and <img src='p.png' alt='a photo'>, end</p>")
    python = [(b.text, b.space_before) for b in seg._segment(root, seg.DEFAULT_LIMITS)[0]]
    assert python == [("sides", True), ("{\\displaystyle a}", True), (",", False), ("{\\displaystyle b}", True),
                      ("and", False), ("a photo", True), (", end", True)]  # a photo's alt text stays apart
    if seg._compiled is not None:
        assert [(b.text, b.space_before) for b in seg._compiled(root, seg.DEFAULT_LIMITS)[0]] == python
    assert extract(WIKIPEDIA.replace("</span> holds", "</span>, holds")) == "Mass $E=mc^{2}$, holds.\n"


def test_mathml_nested_deeper_than_any_formula_renders_without_exhausting_the_stack() -> None:
    html = "<p>x <math>" + "<mrow>" * 900 + "<mi>a</mi><mo>≤</mo>" + "</mrow>" * 900 + "</math></p>"
    assert extract(html) == "x $a\\le$\n"
    for format in ("html", "txt", "json", "xml"):
        assert "a" in extract(html, format)


def test_json_gives_the_tex_left_in_the_text_as_formula_records() -> None:
    html = "<p>Let $E_1$ be $$E = 1 + \\tfrac{1}{2} E_1$$ and <b>\\(x_2\\)</b>, costs $5 and $10.</p>"
    [unit] = json.loads(extract(html, "json"))["structure"]
    assert [(r["type"], r.get("tex"), r.get("display"), r.get("source")) for r in unit["content"]] == [
        ("text", None, None, None), ("formula", "E_1", False, "text"), ("text", None, None, None),
        ("formula", "E = 1 + \\tfrac{1}{2} E_1", True, "text"), ("text", None, None, None),
        ("strong", None, None, None), ("text", None, None, None)]
    assert unit["content"][5]["content"] == [{"type": "formula", "tex": "x_2", "display": False, "source": "text"}]
    assert unit["content"][-1]["text"] == ", costs $5 and $10."


@pytest.mark.parametrize(("html", "shown"), [
    ("<p>No formula here, <b>only</b> text <img src='a.png' alt='a cat'></p>", False),
    ("<p>Hidden <span hidden><math><mi>x</mi></math></span> and gone.</p>", False),
    ("<p>Area <math><mi>A</mi></math> of it.</p>", True),
    ("<p>Its tail <mjx-container><span>x</span></mjx-container> counts</p>", True),
    ("<p>Source <script type='math/tex'>E=mc^2</script> read.</p>", True),
    ("<p>An image <img src='f.png' alt='{\\displaystyle x^{2}}'> of TeX.</p>", True),
])
def test_segmentation_tells_whether_a_block_may_show_a_formula(html: str, shown: bool) -> None:
    """Both walkers find it as they go (``segmented``), and it is what asking every block
    (:func:`formulas.on_page` on a page built by hand) says; the steps that read
    formulas skip a page without one on its word."""
    import dataclasses

    from detourage.api import load
    from detourage.formulas import on_page

    root = parse(html)
    assert seg._segment(root, seg.DEFAULT_LIMITS)[1] is shown
    if seg._compiled is not None:
        assert seg._compiled(root, seg.DEFAULT_LIMITS)[1] is shown
    page = load(html)
    assert page.formulas is shown and on_page(page) is shown
    assert on_page(dataclasses.replace(page, formulas=None)) is shown
