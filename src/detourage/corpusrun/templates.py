"""The cross-page ``template`` method over a corpus run: site templates fitted per host,
in parallel, before the pages are cleaned.

Pass one summarises every HTML page of every shard on the workers (one task per shard,
as :class:`detourage.site.template.Summarise` does for a batch); pass two fits the
sites, batched so that a task holds a few hundred pages, on the workers too.  The
template is saved in the run folder (``template.json.gz``) and a resumed run reuses it.
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import Any

from ..site import template as site_template
from .executors import Executor
from .plan import RunError, Shard
from .work import RunConfig, _counted, shard_items

#: pages per task when fitting sites: small sites are fitted together
PAGES_PER_TASK = 500


def summarise_shard(shard: Shard, config: RunConfig, group_by: str) -> tuple[list[tuple[str, Any]], int]:
    """(site, page summary) of the shard's pages that could be read, and how many could not."""
    step = site_template.Summarise(settings=config.settings, group_by=group_by)
    found, failed = [], 0
    for item in _counted(shard_items(shard, config), collections.Counter()):
        record = step(item)
        if record.get("ok"):
            found.append((record["site"], record["summary"]))
        else:
            failed += 1
    return found, failed


def fit_sites(batch: Sequence[tuple[str, list[Any]]]) -> list[tuple[str, Any]]:
    """The fitted :class:`~detourage.site.template.Site` of each (site, summaries)."""
    return [(key, site_template.fit_site(key, pages)) for key, pages in batch]


def fit(shards: Sequence[Shard], executor: Executor, config: RunConfig,
        group_by: str = "host") -> tuple[site_template.Template, int]:
    """The template of the pages of ``shards``, and the number of pages not read."""
    summaries: list[tuple[str, Any]] = []
    failed = 0
    for i, done, value in executor.map(summarise_shard, [(s, config, group_by) for s in shards]):
        if not done:
            raise RunError(f"{shards[i].name}: a worker died summarising its pages for the template")
        summaries.extend(value[0])
        failed += value[1]
    summaries.sort(key=lambda item: (item[0], item[1].id))  # the same pages, the same template
    by_site: dict[str, list[Any]] = collections.defaultdict(list)
    for key, summary in summaries:
        by_site[key].append(summary)
    batches: list[list[tuple[str, list[Any]]]] = [[]]
    for key in sorted(by_site):
        if sum(len(p) for _, p in batches[-1]) >= PAGES_PER_TASK:
            batches.append([])
        batches[-1].append((key, by_site[key]))
    template = site_template.Template()
    fitted: dict[str, Any] = {}
    for _, done, value in executor.map(fit_sites, [(b,) for b in batches if b]):
        if not done:
            raise RunError("a worker died fitting site templates")
        fitted.update(value)
    template.sites = {key: fitted[key] for key in sorted(fitted)}
    return template, failed
