"""``template``: cross-page détourage (seed 004) with a template fitted on the site's pages.

A template (``detourage template fit PAGES… --out T.json.gz``, or fitted on the batch by
``detourage extract -m template`` and ``detourage evaluate -m template``) tells, for a page
of a known site, which of its texts are the site's template text (see
:mod:`detourage.site.content`).  Two modes, chosen with ``Options.mode``:

* ``"filter"`` (default): the single-page method ``inner`` — ``default``, the learned
  extractor, run through the registry with the ``model`` given here — labels the page,
  and the site's common text it kept is dropped: text that at least two and at least a
  fifth of the template's other articles hold at the same place
  (:func:`detourage.site.content.common_text`: "Print", "Share", the date line of the
  template, "Related links", the copyright), when it stands before or after the page's
  own kept text, or in a short paragraph of nothing else inside it.  Common text inside
  the kept text in longer paragraphs stays: on product, catalogue and documentation
  sites it is the content (a shipping notice, a feature's status box).  Issue 32 item 8.
* ``"element"``: seed 004 §4.4 as written: the minimal element holding the differing text
  of the article body (and the title heading before it) is kept whole, less its template
  text and link-list paragraphs.

A page without a comparable template — no template given, a site the template does not
know, an outlier of its site, or too far from every template of it — is labelled by the
``fallback`` method (``default`` too), and the labels' details say so
(``details["template"]["fallback"]``, shown in the JSON output).
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UnknownMethod
from ..model import Labels, Page
from ..site import content, template as site_template
from .common import label_paragraphs

NAME = "template"
SEED = "004"
DESCRIPTION = ("cross-page: the default extractor's output less the site's common text, learnt "
               "from sibling pages (--template FILE, or fitted on the batch); other pages fall back")
MODES = ("filter", "element")


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    #: a template file written by ``detourage template fit`` (None: every page falls back)
    template: str | None = None
    #: "filter" or "element" (see the module's docstring)
    mode: str = "filter"
    #: the single-page method whose labels "filter" cleans of the site's common text
    inner: str = "default"
    #: the method for pages without a comparable template
    fallback: str = "default"
    #: a trained model for ``inner`` and ``fallback`` where their ``Options`` take one
    #: (``--model``: the learned extractor's); None: their shipped model
    model: Any = None
    #: keep comment sections, where ``inner`` and ``fallback`` can (``--comments``)
    comments: bool = False
    #: the page's site key; None: the host of its URL (given, or canonical link / og:url)
    site: str | None = None
    #: filter: a text is the site's common text when at least ``common`` and at least
    #: ``share`` of the template's other articles hold it at the same place (swept on
    #: DANIEL's and wcxb-dev's multi-page hosts, leave-one-dataset-out models:
    #: benchmarks/template_eval.py, issue 32 item 8)
    common: int = 2
    share: float = 0.2
    #: filter: inside the kept text, a paragraph of common text only is dropped when it
    #: has at most this many tokens (0: common text is dropped at the edges only)
    middle: int = 8
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


def _run(name: str, page: Page, options: Options) -> Labels:
    """The page labelled by a method of the registry, with this method's model and
    comments setting where that method's ``Options`` take them."""
    from . import get

    method = get(name)
    fields = getattr(method.options, "__dataclass_fields__", {})
    given = {k: v for k, v in (("model", options.model), ("comments", options.comments or None))
             if v is not None and k in fields}
    return method.run(page, method.options(**{**dict(method.defaults), **given}) if given else None)


def label(page: Page, options: Options = Options()) -> Labels:
    """Label the page against its site's template, or with the fallback method."""
    if options.mode not in MODES:
        raise UnknownMethod(f"template mode {options.mode!r}; expected one of {MODES}")
    site = options.site if options.site is not None else site_template.site_key(site_template.page_url(page))
    texts = content.block_texts(page) if options.template is not None else []
    match = _match(page, texts, site, options.template)
    report: dict[str, Any] = {"site": site, "mode": options.mode, "cluster": match.cluster,
                              "distance": match.distance, "share": match.share, "fallback": None}
    if match.reference is None:
        labels = _run(options.fallback, page, options)
        report["fallback"] = {"method": options.fallback, "reason": match.reason}
        return Labels(NAME, labels.labels, {"template": report, **labels.details})
    weight = content.weights(page, texts, match.reference)
    if options.mode == "filter":
        inner = _run(options.inner, page, options)
        common = content.common_text(texts, match.reference, at_least=options.common, share=options.share)
        keep = filtered(page, texts, [lab.kept for lab in inner.labels], common, options.middle)
        report["inner"] = options.inner
        report["dropped"] = sum(lab.kept for lab in inner.labels) - sum(keep)
        details = inner.details
    else:
        keep = _element(page, weight, options, report)
        details = {}
    report["differing_tokens"] = round(sum(weight), 2)
    return Labels(NAME, label_paragraphs(page.blocks, keep), {"template": report, **details})


def _match(page: Page, texts: Sequence[content.BlockText], site: str,
           template: str | None) -> site_template.TemplateMatch:
    """The page's reference in the template file, or why there is none."""
    if template is None:
        return site_template.TemplateMatch(None, site, reason="no template given")
    return site_template.reference_for(load_template(template), site,
                                       site_template.probe(page, texts), page.tree)


def filtered(page: Page, texts: Sequence[content.BlockText], keep: Sequence[bool],
             common: Sequence[bool], middle: int) -> list[bool]:
    """``keep`` less the site's common text (``common``) that stands before the first or
    after the last kept block of the page's own text, and less the paragraphs inside it
    whose kept words, at most ``middle`` of them, are all common text found once on the
    page (a text found at several places of the same path is a field label of a
    listing's records — "Weight:", "Compared to" — and stays with its records).  When
    all the kept text is common text, it is all the page has: it is kept."""
    out = list(keep)
    own = [i for i, t in enumerate(texts) if keep[i] and t.tokens and not common[i]]
    if not own:
        return out
    first, last = own[0], own[-1]
    for i, is_common in enumerate(common):
        if out[i] and is_common and not first <= i <= last:
            out[i] = False
    places = Counter((t.key, t.digest) for t in texts if t.tokens)
    for blocks in _paragraphs(page, out, first, last):
        worded = [i for i in blocks if texts[i].tokens]
        if (worded and sum(texts[i].tokens for i in worded) <= middle
                and all(common[i] and places[texts[i].key, texts[i].digest] == 1 for i in worded)):
            for i in blocks:
                out[i] = False
    return out


def _paragraphs(page: Page, keep: Sequence[bool], first: int, last: int) -> list[list[int]]:
    """The kept blocks between ``first`` and ``last``, grouped by paragraph."""
    groups: dict[int, list[int]] = {}
    for i in range(first, last + 1):
        if keep[i]:
            groups.setdefault(page.blocks[i].paragraph, []).append(i)
    return list(groups.values())


def _element(page: Page, weight: Sequence[float], options: Options, report: dict[str, Any]) -> list[bool]:
    """Element mode: the body element and its title (seed 004 §4.4), said in ``report``."""
    sel = content.select(page, weight, content.ContentOptions(
        floor=options.floor, title=options.title, prune=True, links=options.links))
    if page.tree is not None:
        root = page.tree.getroottree()
        report["body"] = root.getpath(sel.body) if sel.body is not None else None
        report["title"] = root.getpath(sel.title) if sel.title is not None else None
    return list(sel.keep)
