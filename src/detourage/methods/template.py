"""``template``: cross-page détourage (seed 004) with a template fitted on the site's pages.

A template (``detourage template fit PAGES… --out T.json.gz``, or fitted on the batch by
``detourage extract -m template`` and ``detourage evaluate -m template``) tells, for a page
of a known site, which of its texts are the site's template text (see
:mod:`detourage.site.content`).  Two modes, chosen with ``Options.mode``:

* ``"filter"`` (default): the single-page method ``inner`` (boilerpipe by default) labels
  the page, and every kept block whose text is template text — the same text at the same
  place on a sibling page of the template, or at the same XPath of the pivot — is dropped.
  On DANIEL's multi-page sites this beats every single-page method it was tried with
  (``benchmarks/template_eval.py``): the siblings remove what one page alone cannot tell
  from content.
* ``"element"``: seed 004 §4.4 as written: the minimal element holding the differing text
  of the article body (and the title heading before it) is kept whole, less its template
  text and link-list paragraphs.

A page without a comparable template — no template given, a site the template does not
know, an outlier of its site, or too far from every template of it — is labelled by the
``fallback`` method, and the labels' details say so (``details["template"]["fallback"]``,
shown in the JSON output).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any

from ..errors import UnknownMethod
from ..model import Labels, Page
from ..site import content
from ..site import template as site_template
from .common import label_paragraphs

NAME = "template"
SEED = "004"
DESCRIPTION = ("cross-page: drops the site's template text, learnt from sibling pages "
               "(--template FILE, or fitted on the batch); other pages fall back")
MODES = ("filter", "element")


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    #: a template file written by ``detourage template fit`` (None: every page falls back)
    template: str | None = None
    #: "filter" or "element" (see the module's docstring)
    mode: str = "filter"
    #: the single-page method whose labels "filter" cleans of template text
    inner: str = "boilerpipe"
    #: the method for pages without a comparable template
    fallback: str = "boilerpipe"
    #: the page's site key; None: the host of its URL (given, or canonical link / og:url)
    site: str | None = None
    #: element mode: the seed's 2 % floor, the title, link-list paragraphs dropped
    floor: float = 0.02
    title: bool = True
    links: float = 0.5


@functools.lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> site_template.Template:
    return site_template.load(path)


def load_template(path: str) -> site_template.Template:
    """A template file, read once per process (re-read when the file changes)."""
    return _load(os.path.abspath(path), os.path.getmtime(path))


def _run(name: str, page: Page) -> Labels:
    from . import get

    return get(name).run(page)


def label(page: Page, options: Options = Options()) -> Labels:
    """Label the page against its site's template, or with the fallback method."""
    if options.mode not in MODES:
        raise UnknownMethod(f"template mode {options.mode!r}; expected one of {MODES}")
    site = options.site if options.site is not None else site_template.site_key(site_template.page_url(page))
    if options.template is None:
        match = site_template.Match(None, site, reason="no template given")
    else:
        texts = content.block_texts(page)
        match = site_template.reference_for(load_template(options.template), site,
                                            site_template.probe(page, texts), page.tree)
    report: dict[str, Any] = {"site": site, "mode": options.mode, "cluster": match.cluster,
                              "distance": match.distance, "share": match.share, "fallback": None}
    if match.reference is None:
        labels = _run(options.fallback, page)
        report["fallback"] = {"method": options.fallback, "reason": match.reason}
        return Labels(NAME, labels.labels, {"template": report})
    weight = content.weights(page, texts, match.reference)
    root = page.tree.getroottree() if page.tree is not None else None
    if options.mode == "filter":
        inner = _run(options.inner, page)
        keep = [lab.kept and not (w <= 0 and t.tokens > 0)
                for lab, w, t in zip(inner.labels, weight, texts, strict=True)]
        report["inner"] = options.inner
        report["dropped"] = sum(lab.kept for lab in inner.labels) - sum(keep)
    else:
        sel = content.select(page, weight, content.Options(
            floor=options.floor, title=options.title, prune=True, links=options.links))
        keep = list(sel.keep)
        if root is not None:
            report["body"] = root.getpath(sel.body) if sel.body is not None else None
            report["title"] = root.getpath(sel.title) if sel.title is not None else None
    report["differing_tokens"] = round(sum(weight), 2)
    return Labels(NAME, label_paragraphs(page.blocks, keep), {"template": report})
