"""Fit once, apply many: a site's templates learnt from its pages (issue 6 item 4).

:func:`fit` reads pages once each, grouped by a site key (the host by default), and keeps
of each page only a :class:`PageSummary` (MinHash signature, the page's (key, text) pairs
and its texts by XPath; never the parsed tree), so memory grows with the pages' text, not
their trees.  Per site the summaries are clustered into templates
(:func:`detourage.site.cluster.cluster` on :func:`detourage.site.distance.distances`); per
template (cluster) the :class:`TemplateCluster` keeps:

* the pivot's signature and the largest member distance to it (the *radius*), to assign a
  new page to the template;
* the (key, text) pairs held by at least two member pages — the template text;
* the pivot's texts by XPath, and a second member's (the pivot's nearest), the reference
  a page is paired with (the pivot compares with the second);
* the fingerprints of the member pages, so that a page that was fitted is recognised
  (its own texts are then discounted from the counts) and the site's outliers too.

A :class:`Template` is saved as gzipped JSON (:func:`save`, :func:`load`) and applied by
:func:`reference_for`, which tells which :class:`~detourage.site.content.Reference` a page
is compared with — or why there is none (unknown site, outlier, no comparable template),
in which case the method falls back to a single-page method.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import re
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from ..errors import TemplateError
from ..loading import job_bytes, load as load_page
from ..model import Page
from ..settings import Settings
from ..supervision import SettingsBounds, execute
from . import cluster as site_cluster, distance as site_distance
from .content import BlockText, Reference, block_texts, pivot_texts, recurring_pairs

#: the site key of a template fitted on all pages as one group (``--group-by all``)
ALL = "*"
GROUPINGS = ("host", "all")

FORMAT = "detourage-template"
VERSION = 1
#: a new page joins the nearest template when its distance to the pivot is at most
#: radius × RADIUS_SLACK + RADIUS_MARGIN
RADIUS_SLACK = 1.5
RADIUS_MARGIN = 0.05
#: a new page that holds this share of a template's common text (the pairs at least half
#: its pages hold) is of that template, without computing its signature
CORE_SHARE = 0.5


def site_key(url: str | None) -> str:
    """The site of a URL: its host, lower case, without ``www.`` (empty when unknown)."""
    if not url:
        return ""
    host = (urlsplit(url if "//" in url else f"//{url}").hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


_CANONICAL = re.compile(
    r"""<(?:link[^>]+rel=["']?canonical["']?[^>]*href|meta[^>]+property=["']?og:url["']?[^>]*content)"""
    r"""=["']?([^"' >]+)""", re.IGNORECASE)


def page_url(page: Page) -> str | None:
    """The page's URL as given, else its canonical link or og:url (first 64 KB)."""
    if page.url:
        return page.url
    match = _CANONICAL.search(page.html[:65536])
    return match.group(1) if match else None


def fingerprint(page: Page) -> str:
    """A stable hash of the page's decoded text: the same page is recognised later."""
    return hashlib.blake2b(page.html.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


@dataclass(slots=True)
class PageSummary:
    """What fitting keeps of a page."""

    id: str
    fingerprint: str
    #: None in a page being matched (:func:`probe`): computed only when needed
    signature: np.ndarray | None
    pairs: set[str]
    texts: dict[str, str]
    #: the pairs of the page's long blocks (≥ :data:`LONG_TOKENS` tokens): its article
    long: set[str] = field(default_factory=set)
    #: the page's URL without fragment (two crawls of one URL are one article)
    url: str = ""


#: a block this long is article-like; two pages sharing most of their long blocks are copies
LONG_TOKENS = 8
#: Jaccard index of the long blocks above which two pages are the same article
DUPLICATE_JACCARD = 0.8


def summarise(page: Page, page_id: str = "", texts: Sequence[BlockText] | None = None) -> PageSummary:
    """What fitting keeps of a page (``texts``: its :func:`block_texts`, if known)."""
    texts = block_texts(page) if texts is None else texts
    return PageSummary(page_id, fingerprint(page), site_distance.signature(page.tree),
                       recurring_pairs(texts), pivot_texts(page, texts),
                       recurring_pairs([t for t in texts if t.tokens >= LONG_TOKENS]),
                       (page_url(page) or "").split("#")[0].rstrip("/"))


def probe(page: Page, texts: Sequence[BlockText]) -> PageSummary:
    """The little a page being matched needs: fingerprint and (key, text) pairs; the
    signature is computed by :func:`reference_for` only if the page was not fitted."""
    return PageSummary("", fingerprint(page), None, recurring_pairs(texts), {})


def duplicate_groups(pages: Sequence[PageSummary]) -> list[int]:
    """A group number per page: pages holding the same article (same fingerprint or URL,
    or long blocks with Jaccard ≥ :data:`DUPLICATE_JACCARD`) share one.  A site crawled daily
    holds such copies; counted apart, a copy would make its article look like template text.
    """
    n = len(pages)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int) -> None:
        parent[find(i)] = find(j)

    first: dict[str, int] = {}
    for i, page in enumerate(pages):
        for key in (page.fingerprint, f"url:{page.url}" if page.url else None):
            if key is not None:
                union(i, first.setdefault(key, i))
    # candidates for the long-block test: pages sharing a long block that few pages hold
    # (an article's paragraph, not the template's), so the test stays near-linear
    holders: dict[str, list[int]] = defaultdict(list)
    for i, page in enumerate(pages):
        for pair in page.long:
            holders[pair].append(i)
    rare = max(2, n // 10)
    candidates = {(a, b) for idx in holders.values() if 1 < len(idx) <= rare
                  for k, a in enumerate(idx) for b in idx[k + 1:]}
    for a, b in sorted(candidates):
        la, lb = pages[a].long, pages[b].long
        if len(la & lb) / len(la | lb) >= DUPLICATE_JACCARD:
            union(a, b)
    return [find(i) for i in range(len(pages))]


@dataclass(slots=True)
class TemplateCluster:
    signature: np.ndarray
    radius: float
    recurring: dict[str, int]
    pivot: dict[str, str]
    #: the reference of the pivot page itself (another member's texts)
    second: dict[str, str]
    pivot_fingerprint: str
    members: frozenset[str]
    pivot_id: str = ""
    #: fingerprints of the pivot and its copies: they are paired with ``second``
    pivot_copies: frozenset[str] = frozenset()
    #: for members with copies in the cluster: the pairs their group holds (discounted
    #: once, like a page's own pairs)
    own: dict[str, list[str]] = field(default_factory=dict)
    #: distinct articles (groups of copies) among the members
    groups: int = 0
    _core: frozenset[str] | None = None

    @property
    def core(self) -> frozenset[str]:
        """The template text most members hold (pairs held by at least half the groups)."""
        if self._core is None:
            self._core = frozenset(p for p, n in self.recurring.items() if 2 * n >= self.groups)
        return self._core


@dataclass(slots=True)
class Site:
    key: str
    pages: int
    clusters: list[TemplateCluster] = field(default_factory=list)
    outliers: frozenset[str] = frozenset()
    method: str = "agglomerative"
    silhouette: float = float("nan")


@dataclass(slots=True)
class Template:
    sites: dict[str, Site] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        return sum(s.pages for s in self.sites.values())


@dataclass(frozen=True, slots=True)
class TemplateMatch:
    """The outcome of :func:`reference_for` for one page."""

    reference: Reference | None
    site: str
    cluster: int = -1
    distance: float | None = None
    #: why there is no reference: "unknown site", "outlier", "no comparable template",
    #: "single page"
    reason: str | None = None
    #: the share of the template's common text the page holds (pages not fitted)
    share: float | None = None


def fit(pages: Iterable[tuple[str, PageSummary]], *, method: site_cluster.Method = "agglomerative",
        max_k: int | None = None) -> Template:
    """Learn the templates of the sites of (site key, page summary) pairs."""
    by_site: dict[str, list[PageSummary]] = defaultdict(list)
    for key, summary in pages:
        by_site[key].append(summary)
    template = Template()
    for key in sorted(by_site):
        template.sites[key] = fit_site(key, by_site[key], method=method, max_k=max_k)
    return template


def fit_site(key: str, pages: Sequence[PageSummary], *, method: site_cluster.Method = "agglomerative",
             max_k: int | None = None) -> Site:
    """One site's templates (a site of one page has none: that page is an outlier)."""
    if len(pages) < 2:
        return Site(key, len(pages), [], frozenset(p.fingerprint for p in pages), method)
    d = site_distance.distances([p.signature for p in pages])  # type: ignore[misc]  # fitted pages carry one
    clustering = site_cluster.cluster(d, method=method, max_k=max_k)
    group = duplicate_groups(pages)
    clusters = []
    alone = list(clustering.outliers)
    for c, members in enumerate(clustering.members):
        pivot = clustering.pivots[c]
        others = [m for m in members if group[m] != group[pivot]]
        if not others:  # copies of one article: nothing to compare with
            alone.extend(members)
            continue
        second = min(others, key=lambda m: (d[pivot, m], m))
        held: dict[int, set[str]] = defaultdict(set)
        for m in members:
            held[group[m]] |= pages[m].pairs
        copies = Counter(group[m] for m in members)
        counts: Counter[str] = Counter()
        for pairs in held.values():
            counts.update(pairs)
        clusters.append(TemplateCluster(
            signature=pages[pivot].signature,  # type: ignore[arg-type]  # as above
            radius=float(max(d[pivot, m] for m in members)),
            recurring={p: n for p, n in sorted(counts.items()) if n >= 2},
            pivot=pages[pivot].texts, second=pages[second].texts,
            pivot_fingerprint=pages[pivot].fingerprint,
            members=frozenset(pages[m].fingerprint for m in members), pivot_id=pages[pivot].id,
            pivot_copies=frozenset(pages[m].fingerprint for m in members if group[m] == group[pivot]),
            own={pages[m].fingerprint: sorted(held[group[m]]) for m in members
                 if copies[group[m]] > 1}, groups=len(held)))
    outliers = frozenset(pages[i].fingerprint for i in alone)
    return Site(key, len(pages), clusters, outliers, method, clustering.silhouette)


def reference_for(template: Template, site: str, summary: PageSummary,
                  tree: Any = None) -> TemplateMatch:
    """The reference a page is compared with, or why there is none.  A template fitted
    with every page in one group (site key :data:`ALL`) serves every site.  A summary
    without signature (:func:`probe`) gets one from ``tree`` when it is needed."""
    entry = template.sites.get(site) or template.sites.get(ALL)
    if entry is None:
        return TemplateMatch(None, site, reason="unknown site")
    for c, cl in enumerate(entry.clusters):
        if summary.fingerprint in cl.members:
            own = frozenset(cl.own.get(summary.fingerprint, summary.pairs))
            pivot = cl.second if summary.fingerprint in cl.pivot_copies else cl.pivot
            return TemplateMatch(Reference(cl.recurring, pivot, own, cl.groups - 1), site, c, 0.0)
    if summary.fingerprint in entry.outliers:
        return TemplateMatch(None, site, reason="outlier" if entry.pages > 1 else "single page")
    if not entry.clusters:
        return TemplateMatch(None, site, reason="single page")
    # the template whose common text the page holds most; enough of it is a match
    shares = [len(summary.pairs & cl.core) / len(cl.core) if cl.core else 0.0 for cl in entry.clusters]
    best = int(np.argmax(shares))
    if shares[best] >= CORE_SHARE:
        cl = entry.clusters[best]
        return TemplateMatch(Reference(cl.recurring, cl.pivot, others=cl.groups), site, best, None, share=shares[best])
    # otherwise the nearest template by structure, if within its radius
    signature = summary.signature if summary.signature is not None else site_distance.signature(tree)
    dists = [site_distance.distance(signature, cl.signature) for cl in entry.clusters]
    best = int(np.argmin(dists))
    cl = entry.clusters[best]
    if dists[best] > cl.radius * RADIUS_SLACK + RADIUS_MARGIN:
        return TemplateMatch(None, site, best, dists[best], reason="no comparable template", share=shares[best])
    return TemplateMatch(Reference(cl.recurring, cl.pivot, others=cl.groups), site, best, dists[best],
                         share=shares[best])


# --------------------------------------------------------------------- fitting many pages


@dataclass(frozen=True, slots=True, kw_only=True)
class Summarise(SettingsBounds):
    """Read, parse and summarise one page (a :class:`detourage.loading.Job`): picklable,
    so :func:`detourage.supervision.execute` runs it in worker processes, with the usual
    time limit and error records."""

    #: the limits, repair and timeout pages are read with (the method is not run)
    settings: Settings = field(default_factory=Settings)
    group_by: str = "host"

    def __call__(self, job: Any) -> dict[str, Any]:
        def work() -> dict[str, Any]:
            page = load_page(job_bytes(job, self.settings.limits), self.settings, url=job.url)
            site = ALL if self.group_by == "all" else site_key(page_url(page))
            return {"id": job.id, "ok": True, "site": site, "summary": summarise(page, job.id)}

        return self.attempted(job, work)


def fit_jobs(jobs: Iterable[Any], *, workers: int = 1, group_by: str = "host",
             method: site_cluster.Method = "agglomerative",
             settings: Settings | None = None) -> tuple[Template, list[dict[str, Any]]]:
    """Fit a template on pages given as corpus jobs; also returns the failed pages' records."""
    if group_by not in GROUPINGS:
        raise ValueError(f"group_by {group_by!r}; expected one of {GROUPINGS}")
    summaries: list[tuple[str, PageSummary]] = []
    failed = []
    for record in execute(list(jobs), Summarise(settings=settings or Settings(), group_by=group_by), workers):
        if record.get("ok"):
            summaries.append((record["site"], record["summary"]))
        else:
            failed.append(record)
    summaries.sort(key=lambda item: (item[0], item[1].id))  # the same pages, the same template
    return fit(summaries, method=method), failed


@contextlib.contextmanager
def fitted(jobs: Iterable[Any], *, workers: int = 1, group_by: str = "host",
           settings: Settings | None = None) -> Iterator[tuple[str, Template, list[dict[str, Any]]]]:
    """Fit a template on the pages themselves (``-m template`` on a batch): its file, in
    a temporary folder removed afterwards, the template, and the pages that could not be
    read."""
    template, failed = fit_jobs(jobs, workers=workers, group_by=group_by, settings=settings)
    with tempfile.TemporaryDirectory(prefix="detourage-template-") as folder:
        path = os.path.join(folder, "template.json.gz")
        save(template, path)
        yield path, template, failed


def describe(template: Template) -> list[dict[str, Any]]:
    """One row per site: pages, templates, outliers (``detourage template show``)."""
    return [{"site": key, "pages": s.pages, "templates": len(s.clusters),
             "outliers": len(s.outliers), "method": s.method,
             "silhouette": None if s.silhouette != s.silhouette else round(s.silhouette, 3)}
            for key, s in sorted(template.sites.items())]


# ------------------------------------------------------------------------------ the file


def to_json(template: Template) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "sites": {
        key: {"pages": s.pages, "method": s.method,
              "silhouette": None if s.silhouette != s.silhouette else s.silhouette,
              "outliers": sorted(s.outliers),
              "clusters": [{"signature": [int(x) for x in cl.signature], "radius": cl.radius,
                            "pivot_id": cl.pivot_id, "pivot_fingerprint": cl.pivot_fingerprint,
                            "members": sorted(cl.members), "recurring": cl.recurring,
                            "pivot_copies": sorted(cl.pivot_copies), "own": cl.own,
                            "groups": cl.groups,
                            "pivot": cl.pivot, "second": cl.second}
                           for cl in s.clusters]}
        for key, s in template.sites.items()}}


def from_json(data: Any) -> Template:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TemplateError("not a detourage template file")
    if data.get("version") != VERSION:
        raise TemplateError(f"template format version {data.get('version')!r}; this detourage reads {VERSION}")
    template = Template()
    try:
        for key, s in data["sites"].items():
            clusters = [TemplateCluster(
                signature=np.asarray(cl["signature"], dtype=np.uint64), radius=float(cl["radius"]),
                recurring={str(k): int(v) for k, v in cl["recurring"].items()},
                pivot=dict(cl["pivot"]), second=dict(cl["second"]),
                pivot_fingerprint=str(cl["pivot_fingerprint"]), members=frozenset(cl["members"]),
                pivot_id=str(cl.get("pivot_id", "")), pivot_copies=frozenset(cl["pivot_copies"]),
                own={str(k): list(v) for k, v in cl["own"].items()}, groups=int(cl["groups"]))
                for cl in s["clusters"]]
            sil = s.get("silhouette")
            template.sites[key] = Site(key, int(s["pages"]), clusters, frozenset(s["outliers"]),
                                       str(s.get("method", "")), float("nan") if sil is None else float(sil))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise TemplateError(f"malformed template file: {exc!r}") from None
    return template


def save(template: Template, path: str | os.PathLike[str]) -> None:
    """Write a template as gzipped JSON (mtime 0: the same template gives the same bytes)."""
    raw = json.dumps(to_json(template), ensure_ascii=False, sort_keys=True).encode("utf-8")
    Path(path).write_bytes(gzip.compress(raw, mtime=0))


def load(path: str | os.PathLike[str]) -> Template:
    """Read a template written by :func:`save`."""
    try:
        raw = gzip.decompress(Path(path).read_bytes())
        data = json.loads(raw)
    except OSError as exc:
        raise TemplateError(f"cannot read template {os.fspath(path)!r}: {exc}") from None
    except (ValueError, EOFError) as exc:
        raise TemplateError(f"{os.fspath(path)!r} is not a template file: {exc}") from None
    return from_json(data)
