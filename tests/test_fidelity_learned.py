"""The learned extractor keeps the formulas of the text it keeps (issue 46): a displayed
equation is content, though it reads as no prose."""

from __future__ import annotations

import detourage

PAGE = (
    "<html><head><title>Sample variance explained</title></head><body><nav><ul><li><a href='/s0'>Section "
    "0</a></li><li><a href='/s1'>Section 1</a></li><li><a href='/s2'>Section 2</a></li><li><a href='/s3'>"
    "Section 3</a></li><li><a href='/s4'>Section 4</a></li><li><a href='/s5'>Section 5</a></li><li><a hre"
    "f='/s6'>Section 6</a></li><li><a href='/s7'>Section 7</a></li><li><a href='/s8'>Section 8</a></li><l"
    "i><a href='/s9'>Section 9</a></li><li><a href='/s10'>Section 10</a></li><li><a href='/s11'>Section 1"
    '1</a></li></ul></nav><main><article><h1>Sample variance explained</h1><p>The variance of a sample me'
    'asures how far the observations spread around their mean, and it is the square of the standard devia'
    "tion that most reports quote.</p><p>We start from the mean:</p><div class='MathJax_Display'></div><s"
    "cript type='math/tex; mode=display'>\\bar{x} = \\frac{1}{n}\\sum_{i=1}^{n} x_i</script><p>Then the unbi"
    'ased estimator divides by one less than the count of observations, which corrects the bias of the pl'
    "ain mean of squares.</p><span class='katex-display'><span class='katex'><span class='katex-mathml'><"
    "math><semantics><mrow><msup><mi>s</mi><mn>2</mn></msup></mrow><annotation encoding='application/x-te"
    "x'>s^2 = \\frac{1}{n-1}\\sum (x_i-\\bar x)^2</annotation></semantics></math></span><span class='katex-h"
    "tml' aria-hidden='true'><span class='base'><span class='mord'>s</span><span class='mord'>2</span><sp"
    "an class='mrel'>=</span></span></span></span></span><p>In code, the computation is short:</p><pre><c"
    "ode class='language-python'>def var(xs):\n    m = sum(xs) / len(xs)\n    return sum((x - m) ** 2 for x"
    ' in xs) / (len(xs) - 1)</code></pre><p>For the data below the variance is 2.5, and the table lists e'
    'ach step.</p><p>So the variance is 2.5, and its square root, the standard deviation, follows:</p><ma'
    "th display='block'><mi>s</mi><mo>=</mo><msqrt><mn>2.5</mn></msqrt></math><p>That is all there is to "
    'it, and the same steps apply to any sample you meet in practice.</p></article><aside><h3>Popular</h3'
    "><ul><li><a href='/p0'>Popular story number 0</a></li><li><a href='/p1'>Popular story number 1</a></"
    "li><li><a href='/p2'>Popular story number 2</a></li><li><a href='/p3'>Popular story number 3</a></li"
    "><li><a href='/p4'>Popular story number 4</a></li><li><a href='/p5'>Popular story number 5</a></li><"
    "/ul></aside></main><footer><p>© 2026 Example Media. All rights reserved.</p><ul><li><a href='/f0'>Li"
    "nk 0</a></li><li><a href='/f1'>Link 1</a></li><li><a href='/f2'>Link 2</a></li><li><a href='/f3'>Lin"
    "k 3</a></li><li><a href='/f4'>Link 4</a></li><li><a href='/f5'>Link 5</a></li><li><a href='/f6'>Link"
    " 6</a></li><li><a href='/f7'>Link 7</a></li></ul></footer></body></html>"
)


def test_a_displayed_formula_in_kept_text_is_kept() -> None:
    units = detourage.extract(PAGE, "learned", "cleaneval").splitlines()  # the decisions, before any rendering
    assert units[-2:] == ["<p> s=2.5", "<p> That is all there is to it, and the same steps apply to any sample you "
                          "meet in practice."]
    markdown = detourage.extract(PAGE, "learned", "markdown")
    assert "$$s = \\sqrt{2.5}$$" in markdown
    assert "$$\\bar{x} = \\frac{1}{n}\\sum_{i=1}^{n} x_i$$" in markdown and "```python\ndef var(xs):" in markdown
    assert "Popular story" not in markdown and "All rights reserved" not in markdown


def test_a_formula_away_from_the_kept_text_is_not_brought_back() -> None:
    page = PAGE.replace("<aside><h3>Popular</h3>", "<aside><h3>Popular</h3><math display='block'><mi>z</mi></math>")
    assert "$$z$$" not in detourage.extract(page, "learned", "markdown")


def test_a_displayed_wikipedia_formula_is_kept_and_displayed() -> None:
    wiki = ("<dl><dd><span class='mwe-math-element'><span style='display: none;'><math alttext='{\\displaystyle "
            "s={\\sqrt {2.5}}}'><mi>s</mi></math></span><img class='mwe-math-fallback-image-display' "
            "src='https://wikimedia.org/x.svg' alt='{\\displaystyle s={\\sqrt {2.5}}}'></span></dd></dl>")
    start = PAGE.index("<math display='block'>")
    page = PAGE[:start] + wiki + PAGE[PAGE.index("</math>", start) + len("</math>"):]
    assert "- $$s={\\sqrt {2.5}}$$" in detourage.extract(page, "learned", "markdown").splitlines()
