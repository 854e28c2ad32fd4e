"""Writes the generated pages of the fidelity set and their gold, and trims the real ones.

    npm install --prefix /tmp/fidelity-tools katex@0.19.1 mathjax-full@3.2.2 highlight.js@11.12.0 prismjs@1.30.0 \
        shiki@4.6.0 highlightjs-line-numbers.js@2.9.1 jsdom@29.1.1
    pip install latex2mathml==3.81.1 pygments==2.20.0
    python benchmarks/data/fidelity/make_pages.py --tools /tmp/fidelity-tools

Each generated page is an article written here once (:data:`ARTICLES`): paragraphs whose
formulas are TeX, code listings as source, tables as their HTML with a hand-written gold.
The page's formulas and listings are rendered by the tool a site uses (KaTeX, MathJax 3,
MathJax 2 as authored, presentation MathML from latex2mathml, MediaWiki's MathML with its
fallback image, LaTeXML, ``$`` left in the text; Pygments, highlight.js, Prism, Hexo's
gutter table, SyntaxHighlighter, ``<br>`` in ``<pre>``, Shiki in VitePress' box), and the
article is set in a page with navigation, a sidebar and a footer (:func:`page`).  The gold is the same article
written as Markdown: TeX between ``$``/``$$``, fenced code with its language, pipe
tables or, where a pipe table cannot hold one, the table's HTML.  The tools' versions are
written to ``versions.json``.

``--real`` re-trims the real pages (wcxb-dev, ``../shared/datasets-extra``; their gold is
written by hand, not here): scripts, styles, SVG, comments and the listed parts dropped.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html as htmlmod
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
WCXB = HERE.parents[3] / "shared" / "datasets-extra" / "wcxb-dev" / "html"


# ------------------------------------------------------------------ the article model


@dataclass(frozen=True)
class F:
    """A formula (inline unless ``display``)."""

    tex: str
    display: bool = False


@dataclass(frozen=True)
class Code:
    src: str
    lang: str


@dataclass(frozen=True)
class Table:
    html: str
    gold: str


@dataclass(frozen=True)
class Article:
    id: str
    title: str
    #: how formulas and listings are rendered (keys of MATH and CODE)
    math: str
    code: str
    template: str
    #: parts: ("h2", text), ("p", [str | F, ...]), F(display), Code, Table, ("ul", [str, ...])
    parts: tuple


# ------------------------------------------------------------------ renderers


class Tools:
    """The npm tools, called in one batch through render.mjs; Python tools directly."""

    def __init__(self, prefix: Path):
        self.prefix = prefix
        self.requests: list[dict] = []
        self.versions: dict[str, str] = {"latex2mathml": version("latex2mathml"), "Pygments": version("Pygments")}

    def later(self, **request: object) -> str:
        """A placeholder replaced by the tool's HTML once the batch has run."""
        self.requests.append(dict(request))
        return f"\0{len(self.requests) - 1}\0"

    def fill(self, pages: dict[str, str]) -> dict[str, str]:
        env = {**os.environ, "NODE_PATH": str(self.prefix / "node_modules")}
        done = subprocess.run(["node", str(HERE / "render.mjs")], input=json.dumps(self.requests), env=env,
                              capture_output=True, text=True, check=True)
        out = json.loads(done.stdout)
        self.versions.update(json.loads(done.stderr))
        for key, text in pages.items():
            for i, rendered in enumerate(out):
                text = text.replace(f"\0{i}\0", rendered)
            pages[key] = text
        return pages


def mathml(tex: str, display: bool) -> str:
    import latex2mathml.converter

    return latex2mathml.converter.convert(tex, display="block" if display else "inline")


def _digest(tex: str) -> str:
    """A stable stand-in for the image's name (MediaWiki's is a hash of the formula)."""
    return hashlib.sha1(tex.encode()).hexdigest()


def _wiki(tex: str, display: bool, tools: Tools) -> str:
    """MediaWiki's Math extension: MathML for assistive technology (hidden), the SVG
    fallback image shown, both carrying ``{\\displaystyle …}``."""
    tex_d = "{\\displaystyle " + tex + "}"
    mode = "display" if display else "inline"
    inner = mathml(tex, display).split(">", 1)[1].rsplit("</math>", 1)[0]
    math = (f'<math xmlns="http://www.w3.org/1998/Math/MathML" alttext="{htmlmod.escape(tex_d)}">'
            f'<semantics><mrow class="MJX-TeXAtom-ORD"><mstyle displaystyle="true" scriptlevel="0">{inner}'
            f'</mstyle></mrow><annotation encoding="application/x-tex">{htmlmod.escape(tex_d)}</annotation>'
            "</semantics></math>")
    img = (f'<img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/{_digest(tex)}" '
           f'class="mwe-math-fallback-image-{mode} mw-invert skin-invert" aria-hidden="true" '
           f'style="vertical-align: -0.838ex; width:12.1ex; height:2.843ex;" alt="{htmlmod.escape(tex_d)}">')
    span = (f'<span class="mwe-math-element mwe-math-element-{mode}"><span class="mwe-math-mathml-{mode} '
            f'mwe-math-mathml-a11y" style="display: none;">{math}</span>{img}</span>')
    return f"<dl><dd>{span}</dd></dl>" if display else span


def _wiki_img(tex: str, display: bool, tools: Tools) -> str:
    tex_d = htmlmod.escape("{\\displaystyle " + tex + "}")
    mode = "display" if display else "inline"
    img = (f'<img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/{_digest(tex)}" '
           f'class="mwe-math-fallback-image-{mode}" aria-hidden="true" alt="{tex_d}">')
    return f"<dl><dd>{img}</dd></dl>" if display else img


_LATEXML_N = [0]


def _latexml(tex: str, display: bool, tools: Tools) -> str:
    """LaTeXML (arXiv's HTML): ``alttext`` and the TeX annotation; a display equation in
    its numbered equation table."""
    _LATEXML_N[0] += 1
    inner = mathml(tex, display).split(">", 1)[1].rsplit("</math>", 1)[0]
    math = (f'<math id="S2.p1.m{_LATEXML_N[0]}" class="ltx_Math" alttext="{htmlmod.escape(tex)}" '
            f'display="{"block" if display else "inline"}" intent=":literal"><semantics>{inner}'
            f'<annotation encoding="application/x-tex">{htmlmod.escape(tex)}</annotation></semantics></math>')
    if not display:
        return math
    return (f'<table id="S2.E{_LATEXML_N[0]}" class="ltx_equation ltx_eqn_table"><tbody>'
            '<tr class="ltx_equation ltx_eqn_row ltx_align_baseline">'
            '<td class="ltx_eqn_cell ltx_eqn_center_padleft"></td>'
            f'<td class="ltx_eqn_cell ltx_align_center">{math}</td>'
            '<td class="ltx_eqn_cell ltx_eqn_center_padright"></td>'
            '<td rowspan="1" class="ltx_eqn_cell ltx_eqn_eqno ltx_align_middle ltx_align_right">'
            f'<span class="ltx_tag ltx_tag_equation ltx_align_right">({_LATEXML_N[0]})</span></td></tr>'
            '</tbody></table>')


MATH = {
    "katex": lambda tex, d, t: t.later(tool="katex", src=tex, display=d),
    "mathjax3": lambda tex, d, t: t.later(tool="mathjax3", src=tex, display=d),
    "mathjax3-svg": lambda tex, d, t: t.later(tool="mathjax3-svg", src=tex, display=d),
    # MathJax 2 as authored (kramdown, Jekyll): the TeX in a script, typeset in the browser
    "mathjax2": lambda tex, d, t: f'<script type="math/tex{"; mode=display" if d else ""}">{tex}</script>',
    "mathml": lambda tex, d, t: mathml(tex, d),
    "wiki": _wiki,
    "wiki-img": _wiki_img,
    "latexml": _latexml,
    # rendered in the browser by a script that looks for $…$ in the text
    "dollar": lambda tex, d, t: htmlmod.escape(f"$${tex}$$" if d else f"${tex}$"),
}


def _pygments(src: str, lang: str, linenos: str, cssclass: str = "highlight") -> str:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name

    return highlight(src, get_lexer_by_name(lang), HtmlFormatter(linenos=linenos, cssclass=cssclass))


def _sphinx(code: Code, tools: Tools) -> str:
    """Sphinx with ``linenos``: Pygments' line-number table in ``highlight-LANG``."""
    return f'<div class="highlight-{code.lang} notranslate">{_pygments(code.src, code.lang, "table")}</div>'


def _inline_numbers(code: Code, tools: Tools) -> str:
    return _pygments(code.src, code.lang, "inline", f"highlight lang-{code.lang}")


def _hljs(code: Code, tools: Tools) -> str:
    """highlight.js under a header with the language's name and a Copy button."""
    body = tools.later(tool="hljs", src=code.src, lang=code.lang)
    return (f'<div class="code-block"><div class="code-header"><span class="code-lang">{code.lang.title()}</span>'
            f'<button class="copy-btn" type="button">Copy</button></div>'
            f'<pre><code class="hljs language-{code.lang}">{body}</code></pre></div>')


def _hljs_ln(code: Code, tools: Tools) -> str:
    """highlight.js with highlightjs-line-numbers.js: a table of one row a line, an empty
    number cell (the number is CSS) beside the line's code, no newline between lines."""
    body = tools.later(tool="hljs-ln", src=code.src, lang=code.lang)
    return f'<pre><code class="hljs language-{code.lang}">{body}</code></pre>'


def _prism(code: Code, tools: Tools) -> str:
    """Prism with its line-numbers, show-language and copy-to-clipboard plugins, as the
    page reads once they have run."""
    rows = "<span></span>" * code.src.rstrip("\n").count("\n") + "<span></span>"
    body = tools.later(tool="prism", src=code.src.rstrip("\n"), lang=code.lang)
    return (f'<div class="code-toolbar"><pre class="line-numbers language-{code.lang}" tabindex="0">'
            f'<code class="language-{code.lang}">{body}<span aria-hidden="true" class="line-numbers-rows">{rows}'
            f'</span></code></pre><div class="toolbar"><div class="toolbar-item"><span>{code.lang.title()}</span>'
            '</div><div class="toolbar-item"><button class="copy-to-clipboard-button" type="button" '
            'data-copy-state="copy"><span>Copy</span></button></div></div></div>')


def _hexo(code: Code, tools: Tools) -> str:
    """Hexo's highlight: a gutter cell of line numbers beside the code cell, one
    ``<span class="line">`` per line, lines ended by ``<br>`` (no newline in the source)."""
    lines = code.src.rstrip("\n").split("\n")
    gutter = "".join(f'<span class="line">{n}</span><br>' for n in range(1, len(lines) + 1))
    body = "".join(f'<span class="line">{tools.later(tool="hljs", src=line, lang=code.lang)}</span><br>'
                   for line in lines)
    return (f'<figure class="highlight {code.lang}"><table><tr><td class="gutter"><pre>{gutter}</pre></td>'
            f'<td class="code"><pre>{body}</pre></td></tr></table></figure>')


def _brush(code: Code, tools: Tools) -> str:
    """SyntaxHighlighter as authored: the escaped source in ``<pre class="brush: …">``."""
    return f'<pre class="brush: {code.lang}; gutter: true; toolbar: false">{htmlmod.escape(code.src)}</pre>'


def _pre_br(code: Code, tools: Tools) -> str:
    """A listing whose lines are ended by ``<br>`` inside ``<pre>`` (a rich-text editor's)."""
    lines = [htmlmod.escape(line) for line in code.src.rstrip("\n").split("\n")]
    return f'<pre class="code-snippet">{"<br>".join(lines)}<br></pre>'


def _data_lang(code: Code, tools: Tools) -> str:
    return f'<div class="listing" data-lang="{code.lang}"><pre><code>{htmlmod.escape(code.src)}</code></pre></div>'


def _vitepress(code: Code, tools: Tools) -> str:
    """VitePress: Shiki's ``<pre class="shiki">`` (one ``span.line`` a line) in a
    ``language-LANG`` box with a copy button and a language label."""
    body = tools.later(tool="shiki", src=code.src.rstrip("\n"), lang=code.lang)
    return (f'<div class="language-{code.lang} vp-adaptive-theme"><button title="Copy Code" class="copy"></button>'
            f'<span class="lang">{code.lang}</span>{body}</div>')


def _plain(code: Code, tools: Tools) -> str:
    return f'<pre><code class="language-{code.lang}">{htmlmod.escape(code.src)}</code></pre>'


CODE = {"sphinx": _sphinx, "inline-numbers": _inline_numbers, "hljs": _hljs, "prism": _prism, "hexo": _hexo,
        "brush": _brush, "pre-br": _pre_br, "data-lang": _data_lang, "vitepress": _vitepress, "hljs-ln": _hljs_ln,
        "plain": _plain}


# ------------------------------------------------------------------ HTML and gold of an article


def body_html(article: Article, tools: Tools) -> str:
    out = [f"<h1>{htmlmod.escape(article.title)}</h1>"]
    for part in article.parts:
        if isinstance(part, F):
            out.append(f"<p>{MATH[article.math](part.tex, True, tools)}</p>" if article.math not in ("wiki", "wiki-img",
                       "latexml") else MATH[article.math](part.tex, True, tools))
        elif isinstance(part, Code):
            out.append(CODE[article.code](part, tools))
        elif isinstance(part, Table):
            # {{tex}} in a table's HTML is an inline formula, rendered as the page renders them
            out.append(re.sub(r"\{\{(.+?)\}\}", lambda m: MATH[article.math](m.group(1), False, tools), part.html))
        elif part[0] == "h2":
            out.append(f"<h2>{htmlmod.escape(part[1])}</h2>")
        elif part[0] == "ul":
            out.append("<ul>" + "".join(f"<li>{_inline(article, i, tools)}</li>" for i in part[1]) + "</ul>")
        else:
            out.append(f"<p>{_inline(article, part[1], tools)}</p>")
    return "\n".join(out)


def _inline(article: Article, segments: str | list, tools: Tools) -> str:
    """Text and inline formulas (a list item may be a plain string)."""
    if isinstance(segments, str):
        return htmlmod.escape(segments)
    return "".join(MATH[article.math](s.tex, False, tools) if isinstance(s, F) else htmlmod.escape(s)
                   for s in segments)


def _inline_gold(segments: str | list) -> str:
    return segments if isinstance(segments, str) else "".join(
        f"${s.tex}$" if isinstance(s, F) else s for s in segments)


def gold(article: Article) -> str:
    out = [f"# {article.title}"]
    for part in article.parts:
        if isinstance(part, F):
            out.append(f"$${part.tex}$$")
        elif isinstance(part, Code):
            out.append(f"```{part.lang}\n{part.src.rstrip(chr(10))}\n```")
        elif isinstance(part, Table):
            out.append(part.gold.strip())
        elif part[0] == "h2":
            out.append(f"## {part[1]}")
        elif part[0] == "ul":
            out.append("\n".join(f"- {_inline_gold(i)}" for i in part[1]))
        else:
            out.append(_inline_gold(part[1]))
    return "\n\n".join(out) + "\n"


# ------------------------------------------------------------------ page templates

_NAV = ["Home", "Articles", "Tutorials", "Topics", "Newsletter", "About", "Contact"]
_RELATED = ["Ten habits of careful engineers", "What we learned from a year of on-call",
            "A gentle introduction to type systems", "Why your benchmarks lie to you"]


def page(article: Article, body: str) -> str:
    """The article in a page: head, navigation, sidebar, footer (three site templates)."""
    nav = "".join(f'<li><a href="/{n.lower()}/">{n}</a></li>' for n in _NAV)
    related = "".join(f'<li><a href="/posts/{i}/">{t}</a></li>' for i, t in enumerate(_RELATED))
    head = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{htmlmod.escape(article.title)}'
            f' | {article.template.title()} Notes</title>'
            '<link rel="stylesheet" href="/assets/site.css"></head>\n')
    if article.template == "blog":
        return (head + f'<body><header class="site-header"><a class="logo" href="/">Field Notes</a><nav><ul>{nav}'
                f'</ul></nav></header>\n<div class="container"><main><article class="post">{body}\n'
                '<p class="post-meta">Posted in <a href="/topics/math/">Math</a>, '
                '<a href="/topics/code/">Code</a> · <a href="#comments">4 comments</a></p></article>\n'
                '<section id="comments"><h3>4 comments</h3><div class="comment"><p>Great write-up, thanks! '
                'Bookmarked for later.</p></div><div class="comment"><p>Could you do a follow-up on the edge '
                'cases?</p></div></section></main>\n'
                f'<aside class="sidebar"><h3>Related posts</h3><ul>{related}</ul><h3>Subscribe</h3>'
                '<form><input type="email" placeholder="you@example.com"><button>Subscribe</button></form>'
                '</aside></div>\n<footer><p>© 2025 Field Notes. All rights reserved.</p>'
                '<p><a href="/privacy/">Privacy</a> · <a href="/terms/">Terms</a> · <a href="/rss.xml">RSS</a></p>'
                '</footer></body></html>\n')
    if article.template == "layout":
        return (head + '<body bgcolor="#ffffff"><table width="100%" cellpadding="4" border="0">'
                f'<tr><td colspan="2" class="masthead"><b>Old Web Handbook</b> · {nav}</td></tr>'
                f'<tr><td width="160" valign="top" class="leftnav"><ul>{related}</ul></td>'
                f'<td valign="top">{body}</td></tr>'
                '<tr><td colspan="2" class="footer"><font size="1">© 2003–2025 Old Web Handbook. '
                'Best viewed at 800×600.</font></td></tr></table></body></html>\n')
    if article.template == "docs":
        return (head + f'<body><div class="topbar"><a href="/">Docs</a><div class="search"><input '
                f'placeholder="Search the docs"></div></div>\n<div class="wrapper"><div class="toc-side">'
                f'<p class="caption">Contents</p><ul>{nav}</ul></div>\n<div class="document"><div class="body" '
                f'role="main">{body}\n</div><div class="prev-next"><a href="/prev/">« Previous</a> '
                '<a href="/next/">Next »</a></div></div></div>\n<div class="footer">© Copyright 2025, the '
                'project authors. Built with a documentation generator. <a href="/edit/">Edit this page</a>'
                '</div></body></html>\n')
    return (head + f'<body><div id="top"><div class="brand">The Daily Byte</div><div class="menu"><ul>{nav}</ul>'
            '</div><div class="ad">Advertisement</div></div>\n<div id="content"><div class="story">'
            f'<div class="byline">By Sam Writer · 12 March 2025</div>{body}\n<div class="share">Share: '
            '<a href="#">Twitter</a> <a href="#">Facebook</a> <a href="#">Email</a></div></div>\n'
            f'<div class="rail"><h4>Most read</h4><ol>{related}</ol><div class="ad">Advertisement</div></div>'
            '</div>\n<div id="bottom"><p>The Daily Byte · 1 Example Street · Subscribe · Advertise · '
            'Careers</p><p>Cookies help us deliver our services. <a href="/cookies/">Learn more</a></p></div>'
            '</body></html>\n')


# ------------------------------------------------------------------ real pages

#: real pages: (our id, wcxb-dev id, XPath of the parts dropped besides scripts and styles)
REAL: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("w-coryd-git", "dev-0437", ()),
    ("w-zig-thoughts", "dev-0414", ("//div[@class='content']/*[position() > 19 and position() < 45]",)),
    ("w-postgres-indexes", "dev-2864", ()),
    ("w-go-tutorial", "dev-2997", ("//article/h2[contains(., 'Call code')]/following-sibling::*",
                                      "//article/h2[contains(., 'Call code')]")),
    ("w-jefftk-backup", "dev-0495", ()),
    ("w-python-json", "dev-2994", ("//section[h1]/section",)),
    ("w-mdn-fetch", "dev-0671", ("//main/div[2]/section[position() > 3]",)),
    ("w-justhtml-swift", "dev-0449", ()),
    ("w-product-feed", "dev-4843", ()),
    ("w-wine-regions", "dev-4693", ("//div[@class='Liner'][h2]/ul/li[position() > 3]",)),
)


def trim(raw: bytes, drop: tuple[str, ...]) -> str:
    """A real page without what no extractor reads (scripts, styles, SVG, comments,
    ``<link>``, ``<iframe>``) and without the parts of ``drop`` (to keep it small)."""
    import lxml.etree
    import lxml.html

    tree = lxml.html.document_fromstring(raw.decode("utf-8"))  # every page kept is UTF-8; lxml would guess
    for el in tree.xpath("//script[not(starts-with(@type, 'math/tex'))]|//style|//svg|//link|//iframe"
                         "|//comment()|//template"):
        el.drop_tree() if hasattr(el, "drop_tree") else el.getparent().remove(el)
    for path in drop:
        for el in tree.xpath(path):
            el.drop_tree()
    for el in tree.iter():
        if isinstance(el.tag, str):
            for name in [a for a in el.attrib if a == "style" or a.startswith(("data-", "aria-", "on"))]:
                if name != "data-lang":
                    del el.attrib[name]
    if not tree.xpath("//meta[@charset]"):
        tree.find("head").insert(0, lxml.html.Element("meta", charset="utf-8"))
    return "<!DOCTYPE html>\n" + lxml.html.tostring(tree, encoding="unicode")


def write_real(wcxb: Path = WCXB) -> None:
    for name, source, drop in REAL:
        (HERE / "pages" / f"{name}.html").write_text(trim(gzip.decompress((wcxb / f"{source}.html.gz").read_bytes()),
                                                          drop), encoding="utf-8")


def write_generated(tools: Tools) -> None:
    sys.modules.setdefault("make_pages", sys.modules[__name__])  # articles.py builds on this module's classes
    from articles import ARTICLES

    pages = {a.id: page(a, body_html(a, tools)) for a in ARTICLES}
    for a_id, text in tools.fill(pages).items():
        (HERE / "pages" / f"{a_id}.html").write_text(text, encoding="utf-8")
    for a in ARTICLES:
        (HERE / "gold" / f"{a.id}.md").write_text(gold(a), encoding="utf-8")
    (HERE / "versions.json").write_text(json.dumps(tools.versions, indent=1, sort_keys=True) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", type=Path, default=Path("/tmp/fidelity-tools"),
                        help="the npm prefix where katex, mathjax-full, highlight.js and prismjs are installed")
    parser.add_argument("--real", action="store_true", help="re-trim the real pages from wcxb-dev instead")
    args = parser.parse_args()
    if args.real:
        write_real()
    else:
        write_generated(Tools(args.tools))


if __name__ == "__main__":
    main()
