"""Formulas: which element of a page is a formula, and its TeX.

A page shows a formula in one of a few ways, and most carry the formula's TeX beside what
they draw; the TeX is taken from the page where it has one, in this order:

- MathML's ``<annotation encoding="application/x-tex">`` (KaTeX, MathJax 3's assistive
  MathML, Wikipedia, LaTeXML), then ``<math alttext>`` (LaTeXML, arXiv's HTML);
- MathJax 2's source, ``<script type="math/tex">`` (``; mode=display`` for display math):
  segmentation makes it a block (:func:`math_script`), and the rendered parts beside it
  (``MathJax_Preview``, the ``MathJax`` frame) are that same formula;
- an image whose ``alt`` is the TeX (Wikipedia's fallback ``{\\displaystyle …}``,
  WordPress's ``class="latex"``);
- otherwise presentation MathML converted to TeX (:func:`mathml_tex`: the common
  elements; PyPI's converters were last released in 2019–2020 or have no users).

A *root* is the outermost element of one formula (KaTeX's ``span.katex`` holds its
MathML, its annotation and its HTML rendering: one root, one formula).  Two roots with
the same :attr:`Formula.key` are one formula shown twice; renderers write it once.
"""

from __future__ import annotations

import html as htmllib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

if TYPE_CHECKING:
    from .model import Block, Page

Element = etree._Element

#: the tags a formula's root can have
ROOT_TAGS = frozenset({"math", "mjx-container", "span", "div", "nobr", "script", "img"})
#: tags of elements whose blocks tell a page holds a formula (a kept block inside one)
MARKS = frozenset({"math", "mjx-container", "script"})

_MATH_SCRIPT = re.compile(r"\s*math/tex\b", re.I)
_ROOT_CLASS = re.compile(r"(?:^|\s)(?:katex(?:-display)?|mwe-math-element|"
                         r"MathJax(?:_Display|_SVG(?:_Display)?|_CHTML|_PHTML|_MathML|_Preview)?)(?:\s|$)")
_MATHJAX2 = re.compile(r"(?:^|\s)MathJax")
_IMAGE_CLASS = re.compile(r"(?:^|\s)(?:tex|latex|mwe-math-fallback-image-(?:inline|display))(?:\s|$)")
_WRAPPED = re.compile(r"^\{\\(?:display|text)style\s*(.*)\}$", re.S)
_TEX_ENCODINGS = frozenset({"application/x-tex", "tex", "application/x-latex", "text/x-tex", "latex"})


@dataclass(frozen=True, slots=True)
class Formula:
    """One formula: its TeX, whether it is displayed apart, where the TeX came from
    (``annotation``, ``alttext``, ``script``, ``alt``, ``mathml`` when converted), the
    element that identifies it, and the page's ``<math>`` when it has one."""

    tex: str
    display: bool
    source: str
    key: Element
    mathml: Element | None = None


def math_script(el: Element) -> str | None:
    """The TeX of a MathJax 2 source ``<script type="math/tex">``, whitespace collapsed;
    None for any other script (or an empty one)."""
    kind = el.get("type")
    if not kind or _MATH_SCRIPT.match(kind) is None:
        return None
    tex = " ".join((el.text or "").split())
    return tex or None


def tex_alt(alt: str) -> bool:
    """Whether an image's alt text is a formula's TeX as Wikipedia writes it."""
    return alt.startswith(("{\\displaystyle", "{\\textstyle"))


def mark(block_path: tuple[str, ...], alt: str | None) -> bool:
    """Whether a block of ``block_path`` (``alt``: its text when an image) shows a
    formula is on the page: one inside ``<math>``, ``<mjx-container>`` or a math script,
    or an image whose alt text is Wikipedia's TeX."""
    return not MARKS.isdisjoint(block_path) or (alt is not None and tex_alt(alt))


def shows(block: Block) -> bool:
    """Whether ``block`` shows a formula (:func:`mark` of its path and, for an image, its
    alt text)."""
    return mark(block.path, None if block.image is None else block.text)


def on_page(page: Page) -> bool:
    """Whether a block of ``page`` may show a formula (:func:`mark`): what segmentation
    found (:attr:`Page.formulas <detourage.model.Page.formulas>`), or, on a page built
    by hand, its blocks asked one by one."""
    if page.formulas is not None:
        return page.formulas
    return any(map(shows, page.blocks))


def formula(el: Element) -> Formula | None:
    """The formula ``el`` is the root of, or None when it is none."""
    tag = el.tag
    if tag not in ROOT_TAGS:
        return None
    if tag == "script":
        tex = math_script(el)
        return None if tex is None else Formula(tex, "mode=display" in (el.get("type") or ""), "script", el)
    if tag == "img":
        return _image(el, el)
    if tag in ("math", "mjx-container"):
        math = el if tag == "math" else next(el.iter("math"), None)
        display = (el.get("display") or "") in ("block", "true")
        return _math(math, el, display) if math is not None else None
    classes = el.get("class") or ""
    if _ROOT_CLASS.search(classes) is None:
        return None
    if _MATHJAX2.search(classes) is not None and (script := _partner(el)) is not None:
        return formula(script)
    display = "display" in classes or "Display" in classes or (  # MediaWiki's: its parts say it
        "mwe-math" in classes and any("display" in (d.get("class") or "") for d in el.iterdescendants("span", "img")))
    math = next(el.iter("math"), None)
    if math is not None:
        return _math(math, el, display)
    img = next(el.iter("img"), None)
    return _image(img, el) if img is not None else None


def _math(math: Element, key: Element, display: bool) -> Formula:
    """The formula of a ``<math>``: its TeX annotation, its ``alttext``, or converted."""
    display = display or math.get("display") == "block" or math.get("mode") == "display"
    for note in math.iter("annotation"):
        if (note.get("encoding") or "").lower() in _TEX_ENCODINGS and (tex := _unwrapped(note.text or "")):
            return Formula(tex, display, "annotation", key, math)
    if tex := _unwrapped(math.get("alttext") or ""):
        return Formula(tex, display, "alttext", key, math)
    return Formula(mathml_tex(math), display, "mathml", key, math)


def _image(img: Element, key: Element) -> Formula | None:
    alt = img.get("alt") or ""
    if not alt.strip() or (_IMAGE_CLASS.search(img.get("class") or "") is None and not tex_alt(alt)):
        return None
    display = "display" in (img.get("class") or "")  # Wikipedia's inline formulas are \displaystyle too
    return Formula(_unwrapped(alt), display, "alt", key)


def _unwrapped(tex: str) -> str:
    """TeX with whitespace collapsed, out of Wikipedia's ``{\\displaystyle …}``."""
    tex = " ".join(tex.split())
    found = _WRAPPED.match(tex)
    return found.group(1).strip() if found else tex


def _partner(el: Element) -> Element | None:
    """The source script of a MathJax 2 preview or frame: named by the frame's id
    (``MathJax-Element-3-Frame``), or the first script after it (or after its display
    ``<div>``) past MathJax's other parts."""
    for start in (el, el.getparent()):
        if start is None:
            continue
        for sibling in start.itersiblings():
            if sibling.tag == "script" and math_script(sibling) is not None:
                return sibling
            if not isinstance(sibling.tag, str) or _MATHJAX2.search(sibling.get("class") or "") is None:
                break
    return None


# ---------------------------------------------------------------------------- MathML → TeX

#: characters of MathML tokens and their TeX
SYMBOLS = {
    **{chr(0x3b1 + i): "\\" + name for i, name in enumerate(  # ε and φ: TeX's \varepsilon, \varphi
        "alpha beta gamma delta varepsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
        "varsigma sigma tau upsilon varphi chi psi omega".split())},
    **{chr(0x391 + i): "\\" + name for i, name in enumerate(
        "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho "
        "_ Sigma Tau Upsilon Phi Chi Psi Omega".split()) if name != "_"},
    "ϕ": "\\phi", "ϵ": "\\epsilon", "⊤": "\\top", "⊥": "\\perp", "†": "\\dagger", "ϑ": "\\vartheta", "ϖ": "\\varpi",
    "±": "\\pm", "∓": "\\mp", "×": "\\times", "÷": "\\div", "⋅": "\\cdot", "·": "\\cdot", "∗": "\\ast",
    "≤": "\\le", "≥": "\\ge", "≠": "\\neq", "≈": "\\approx", "≡": "\\equiv", "∼": "\\sim", "≃": "\\simeq",
    "∝": "\\propto", "≪": "\\ll", "≫": "\\gg", "∞": "\\infty", "∂": "\\partial", "∇": "\\nabla",
    "∑": "\\sum", "∏": "\\prod", "∫": "\\int", "∬": "\\iint", "∮": "\\oint", "√": "\\surd",
    "∈": "\\in", "∉": "\\notin", "∋": "\\ni", "⊂": "\\subset", "⊆": "\\subseteq", "⊃": "\\supset",
    "⊇": "\\supseteq", "∪": "\\cup", "∩": "\\cap", "∅": "\\emptyset", "∀": "\\forall", "∃": "\\exists",
    "¬": "\\neg", "∧": "\\wedge", "∨": "\\vee", "⊕": "\\oplus", "⊗": "\\otimes", "∘": "\\circ",
    "→": "\\to", "←": "\\leftarrow", "↔": "\\leftrightarrow", "⇒": "\\Rightarrow", "⇐": "\\Leftarrow",
    "⇔": "\\Leftrightarrow", "↦": "\\mapsto", "…": "\\ldots", "⋯": "\\cdots", "⋮": "\\vdots", "⋱": "\\ddots",
    "ℝ": "\\mathbb{R}", "ℕ": "\\mathbb{N}", "ℤ": "\\mathbb{Z}", "ℚ": "\\mathbb{Q}", "ℂ": "\\mathbb{C}",
    "ℏ": "\\hbar", "ℓ": "\\ell", "′": "'", "″": "''", "−": "-", "⟨": "\\langle", "⟩": "\\rangle",
    "‖": "\\|", "∣": "\\mid", "°": "^\\circ", "{": "\\{", "}": "\\}", "%": "\\%", "#": "\\#", "&": "\\&",
    "\u2061": "", "\u2062": "", "\u2063": "", "\u2064": "",  # invisible function application, times…
}
#: multi-letter identifiers TeX writes as operators
FUNCTIONS = frozenset("""sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth log ln lg exp
    lim liminf limsup max min sup inf det dim ker deg gcd arg hom Pr""".split())
#: ``<mover>`` accents and their commands
ACCENTS = {"^": "\\hat", "ˆ": "\\hat", "¯": "\\bar", "‾": "\\overline", "_": "\\overline", "→": "\\vec",
           "⃗": "\\vec", "~": "\\tilde", "˜": "\\tilde", "˙": "\\dot", "¨": "\\ddot", "⏞": "\\overbrace"}
_LARGE = frozenset({"\\sum", "\\prod", "\\int", "\\iint", "\\oint", "\\lim", "\\max", "\\min", "\\sup", "\\inf",
                    "\\bigcup", "\\bigcap"})
_COMMAND = re.compile(r"\\[A-Za-z]+$")


#: the deepest MathML converted element by element (a formula nests a few levels; a
#: page nesting thousands would exhaust Python's stack): deeper, an element's text
MAX_DEPTH = 48


def mathml_tex(math: Element) -> str:
    """Presentation MathML as TeX (the common elements; an unknown one is its content)."""
    return " ".join(_tex(math).split())


def _flat(el: Element) -> str:
    """An element's text, its characters as TeX: what lies beyond :data:`MAX_DEPTH`."""
    return "".join(SYMBOLS.get(c, c) for t in el.itertext() if isinstance(t, str) for c in t)


def _name(el: Element) -> str:
    tag = el.tag if isinstance(el.tag, str) else ""
    return tag.rpartition("}")[2].rpartition(":")[2]


def _kids(el: Element) -> list[Element]:
    return [c for c in el if isinstance(c.tag, str)]


def _tex(el: Element, spaced: bool = True, depth: int = 0) -> str:  # noqa: C901 - one dispatch over MathML's elements
    """The TeX of ``el``; ``spaced``: with the spaces a person writes (around operators,
    after commas, between letters), not inside a sub- or superscript (``_{i=1}``)."""
    if depth > MAX_DEPTH:
        return _flat(el)
    name = _name(el)
    kids = _kids(el)
    depth += 1
    if name in ("mi", "mn", "mo", "ms"):
        return _token(name, "".join(t for t in el.itertext() if isinstance(t, str)).strip(), el)
    if name == "mtext":
        text = " ".join("".join(t for t in el.itertext() if isinstance(t, str)).split())
        return f"\\text{{{text}}}" if text else ""
    if name in ("annotation", "annotation-xml", "mphantom", "none", "mprescripts", "mspace"):
        return ""
    if name == "semantics":
        return _tex(kids[0], spaced, depth) if kids else ""
    if name in ("msup", "msub", "msubsup", "mover", "munder", "munderover", "mroot"):
        args = [_tex(k, spaced and not i, depth) for i, k in enumerate(kids)]  # scripts written tight
    else:
        args = [_tex(k, spaced, depth) for k in kids]
    if name == "mfrac" and len(args) == 2:
        return f"\\frac{{{args[0]}}}{{{args[1]}}}"
    if name == "msqrt":
        return f"\\sqrt{{{_cat(args, spaced)}}}"
    if name == "mroot" and len(args) == 2:
        return f"\\sqrt[{args[1]}]{{{args[0]}}}"
    if name == "msup" and len(args) == 2:
        return f"{_base(args[0])}^{_arg(args[1])}"
    if name == "msub" and len(args) == 2:
        return f"{_base(args[0])}_{_arg(args[1])}"
    if name == "msubsup" and len(args) == 3:
        return f"{_base(args[0])}_{_arg(args[1])}^{_arg(args[2])}"
    if name in ("mover", "munder", "munderover") and len(args) >= 2:
        return _script(name, args, kids)
    if name == "mfenced":
        opening, closing = el.get("open", "("), el.get("close", ")")
        separator = (el.get("separators") or ",").strip()[:1]
        joint = separator + " " if spaced and separator else separator
        return SYMBOLS.get(opening, opening) + joint.join(args) + SYMBOLS.get(closing, closing)
    if name == "mtable":
        # columns aligned right then left: TeX's aligned (MathJax's, LaTeXML's), else a matrix
        env = "aligned" if (el.get("columnalign") or "").startswith("right left") else "matrix"
        return f"\\begin{{{env}}} " + " \\\\ ".join(a for a in args if a) + f" \\end{{{env}}}"
    if name in ("mtr", "mlabeledtr"):
        return " & ".join(args[1:] if name == "mlabeledtr" else args)
    if name == "mrow" and el.get("data-mjx-texclass") == "INNER" and len(args) >= 2 and \
            kids[0].get("data-mjx-texclass") == "OPEN" and kids[-1].get("data-mjx-texclass") == "CLOSE":
        # MathJax's \left( … \right)
        return f"\\left{args[0] or '.'}{_cat(args[1:-1], spaced)}\\right{args[-1] or '.'}"
    if name == "menclose" and "radical" in (el.get("notation") or ""):
        return f"\\sqrt{{{_cat(args, spaced)}}}"
    return _cat(args, spaced)


def _token(name: str, text: str, el: Element) -> str:
    if not text:
        return ""
    if name == "mi" and len(text) > 1:
        if text in FUNCTIONS:
            return "\\" + text
        if not (text.isalpha() and text.isascii()):
            return "".join(SYMBOLS.get(c, c) for c in text)
        # a name applied as a function (followed by U+2061): TeX's \operatorname
        applied = (after := el.getnext()) is not None and (after.text or "").strip() == "\u2061"
        return ("\\operatorname{" if applied else "\\mathrm{") + text + "}"
    if name == "mi" and el.get("mathvariant") == "double-struck" and text.isascii():
        return f"\\mathbb{{{text}}}"
    return "".join(SYMBOLS.get(c, c) for c in text)


def _script(name: str, args: list[str], kids: list[Element]) -> str:
    base = args[0]
    if name == "mover":
        accent = _kids(kids[1]) == [] and "".join(t for t in kids[1].itertext() if isinstance(t, str)).strip()
        if accent in ACCENTS:
            return f"{ACCENTS[accent]}{{{base}}}"
        return f"{base}^{_arg(args[1])}" if base in _LARGE else f"\\overset{{{args[1]}}}{{{base}}}"
    if name == "munder":
        return f"{base}_{_arg(args[1])}" if base in _LARGE else f"\\underset{{{args[1]}}}{{{base}}}"
    over = args[2] if len(args) > 2 else ""
    if base in _LARGE:
        return f"{base}_{{{args[1]}}}^{{{over}}}"
    return f"\\underset{{{args[1]}}}{{\\overset{{{over}}}{{{base}}}}}"


def _arg(tex: str) -> str:
    """``tex`` as the argument of ``^`` or ``_``: bare when one character or command."""
    return tex if len(tex) == 1 or _COMMAND.fullmatch(tex) else "{" + tex + "}"


def _base(tex: str) -> str:
    """``tex`` as the base of a script: braced when more than one token (a command and
    its braced arguments, ``\\hat{\\beta}``, is one)."""
    return tex if len(tex) <= 1 or _ATOM.fullmatch(tex) else "{" + tex + "}"


_ATOM = re.compile(r"\\(?:[A-Za-z]+|.)(?:\{(?:[^{}]|\{[^{}]*\})*\})*")


#: the TeX of binary operators and relations: a space each side when ``spaced``
OPERATORS = frozenset("""= + - < > \\pm \\mp \\times \\cdot \\div \\le \\ge \\neq \\approx \\equiv \\sim
    \\simeq \\propto \\to \\leftarrow \\Rightarrow \\Leftarrow \\Leftrightarrow \\leftrightarrow \\in
    \\notin \\subset \\subseteq \\supset \\supseteq \\cup \\cap \\mapsto \\ll \\gg :=""".split())


#: the operators that are a sign where no operand comes before them (``-b``)
SIGNS = frozenset({"+", "-", "\\pm", "\\mp"})


def _cat(parts: list[str], spaced: bool = False) -> str:
    """Pieces of TeX in a row: a space after a command that a letter would extend; with
    ``spaced``, also around an operator (not a sign: first, or after an opening bracket,
    a comma or another operator), after a comma, and before a letter or a digit."""
    out = previous = ""  # the TeX so far, and the last piece written
    for part in (p for p in parts if p):
        if out and ((_COMMAND.search(out) and part[0].isalpha())
                    or (spaced and _gap(previous, part, sign=previous in SIGNS and _signed(out, previous)))):
            out += " "
        out += part
        previous = part
    return out


def _gap(previous: str, part: str, sign: bool) -> bool:
    """Whether a person puts a space between ``previous`` and ``part``."""
    if not previous or sign or previous[-1] in "([{" or previous.endswith(("\\{", "\\langle")):
        return False
    if part in OPERATORS or previous in OPERATORS or previous == ",":
        return True
    return part[0].isalnum()


def _signed(out: str, operator: str) -> bool:
    """Whether ``operator``, the end of ``out``, is a sign (``-b``, ``(-x``, ``= -1``)."""
    before = out[:-len(operator)].rstrip()
    return not before or before[-1] in "([{," or any(before.endswith(op) for op in OPERATORS)


# ---------------------------------------------------------------------------- MathML kept in HTML

#: the MathML elements, and the attributes, the HTML output keeps (nothing else of the
#: page's markup gets through: no event handler, no link)
MATHML_TAGS = frozenset("""math semantics annotation mrow mi mn mo ms mtext mspace msup msub msubsup
    mfrac msqrt mroot mover munder munderover mfenced mtable mtr mtd mlabeledtr mstyle mpadded
    mphantom menclose merror mmultiscripts mprescripts none""".split())
MATHML_ATTRIBUTES = frozenset("""display mathvariant encoding stretchy fence separator separators accent
    accentunder linethickness columnalign rowalign open close notation form largeop movablelimits
    symmetric scriptlevel displaystyle alttext columnspan rowspan lspace rspace width""".split())


def math_html(found: Formula) -> str:
    """The formula as a ``<math>`` element, its TeX in ``alttext``: the page's MathML (its
    elements and attributes that :data:`MATHML_TAGS` and :data:`MATHML_ATTRIBUTES` allow),
    or one made of its TeX (an ``<mtext>`` that shows it and the annotation that says it)."""
    display = ' display="block"' if found.display else ""
    tex = htmllib.escape(found.tex)
    if found.mathml is not None:
        inner = "".join(_html(child, 1) for child in found.mathml)
        text = htmllib.escape(found.mathml.text or "")
        return f'<math{display} alttext="{tex}">{text}{inner}</math>'
    return (f'<math{display} alttext="{tex}"><semantics><mtext>{tex}</mtext>'
            f'<annotation encoding="application/x-tex">{tex}</annotation></semantics></math>')


def _html(el: Element, depth: int) -> str:
    tail = htmllib.escape(el.tail or "")
    name = _name(el)
    if not name or name == "annotation-xml":
        return tail
    if depth > MAX_DEPTH:  # deeper: its text (see MAX_DEPTH)
        return htmllib.escape("".join(t for t in el.itertext() if isinstance(t, str))) + tail
    inner = htmllib.escape(el.text or "") + "".join(_html(child, depth + 1) for child in el)
    if name not in MATHML_TAGS:
        return inner + tail
    attrs = "".join(f' {k}="{htmllib.escape(str(v))}"' for k, v in el.items() if k in MATHML_ATTRIBUTES)
    return f"<{name}{attrs}>{inner}</{name}>{tail}"
