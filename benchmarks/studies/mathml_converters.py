"""Which presentation MathML → TeX converter writes a page's formula when it carries no
TeX of its own (issue 46).

Every ``<math>`` of the fidelity set's pages that carry no TeX (``f-mathml``:
latex2mathml's MathML; ``f-mathjax3`` and ``f-mathjax3-svg``: MathJax 3's assistive
MathML) is converted by each converter installed, and its TeX compared with the gold's
formula in the same place (WebMainBench's edit similarity, runs of white space made one
space); the report gives the mean similarity and the time per formula of:

* ``detourage`` — :func:`detourage.formulas.mathml_tex`;
* ``mathml-to-latex`` — PyPI's mathml-to-latex (1.0.0, 2024, a port of the npm package),
  when installed.

PyPI's other converters were left out unmeasured: ``mathml2latex`` (0.2.12, 2019, on
BeautifulSoup) and ``py-asciimath`` (0.3.0, 2020, an XSLT stylesheet and lark).

    PYTHONPATH=benchmarks python benchmarks/studies/mathml_converters.py
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Callable

from lxml import etree, html as lxml_html

import _common

PAGES = ("f-mathml", "f-mathjax3", "f-mathjax3-svg")
FIDELITY = _common.ROOT / "benchmarks" / "data" / "fidelity"
#: a formula of the gold: pandoc's rule (no space inside the dollars, no digit after them: "$5" is a price)
_GOLD = re.compile(r"\$\$(.+?)\$\$|\$(?=\S)([^$]*?)(?<=\S)\$(?!\d)", re.S)


def formulas() -> list[tuple[etree._Element, str]]:
    """(the page's ``<math>``, the gold's TeX) of every formula of :data:`PAGES`."""
    out = []
    for page in PAGES:
        tree = lxml_html.fromstring((FIDELITY / "pages" / f"{page}.html").read_text(encoding="utf-8"))
        gold = [a or b for a, b in _GOLD.findall((FIDELITY / "gold" / f"{page}.md").read_text(encoding="utf-8"))]
        maths = list(tree.iter("math"))
        if len(maths) == len(gold):  # a page whose formulas do not pair one for one is left out
            out += zip(maths, gold)
    return out


def converters() -> dict[str, Callable[[etree._Element], str]]:
    from detourage.formulas import mathml_tex

    found: dict[str, Callable[[etree._Element], str]] = {"detourage": mathml_tex}
    try:
        module = importlib.import_module("mathml_to_latex")
    except ImportError:
        return found
    found["mathml-to-latex"] = lambda math: module.MathMLToLaTeX.convert(
        etree.tostring(math, encoding="unicode", with_tail=False))
    return found


def similarity(a: str, b: str) -> float:
    from rapidfuzz.distance import Levenshtein

    a, b = " ".join(a.split()), " ".join(b.split())
    return 1 - Levenshtein.distance(a, b) / max(len(a), len(b), 1)


def main() -> None:
    pairs = formulas()
    print(f"{len(pairs)} formulas of {', '.join(PAGES)}\n")
    print("| converter | mean similarity | µs per formula |\n|---|---:|---:|")
    for name, convert in converters().items():
        scores, spent = [], 0.0
        for math, gold in pairs:
            start = time.perf_counter()
            try:
                tex = convert(math)
            except Exception:  # noqa: BLE001 - a converter that fails on a formula writes nothing for it
                tex = ""
            spent += time.perf_counter() - start
            scores.append(similarity(tex, gold))
        print(f"| {name} | {sum(scores) / len(scores):.3f} | {spent / len(pairs) * 1e6:.0f} |")


if __name__ == "__main__":
    main()
