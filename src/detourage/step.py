"""The corpus step: one page's job in, its record out (the text in a format, or why not).

:class:`Step` loads, labels and renders a page through its :class:`Settings`
(:func:`detourage.pipeline.result`), within the bounds the settings give
(:class:`detourage.supervision.SettingsBounds`), so a bad page becomes an error record.
``detourage extract`` runs it over many pages with :func:`detourage.supervision.execute`
and writes the records with :class:`detourage.output.Writer`.

    read_inputs(paths) ─▶ Job … ─▶ execute(jobs, Step(…), workers) ─▶ record … ─▶ Writer
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .formats import csv_row
from .loading import Job, job_bytes
from .metadata import metadata
from .pipeline import result as page_result
from .render import as_record, render
from .settings import Settings
from .supervision import EMPTY, Record, SettingsBounds


@dataclass(frozen=True, slots=True, kw_only=True)
class Step(SettingsBounds):
    """Extract one page: a picklable callable, so process pools can run it."""

    #: the page's road: method, options, limits, timeout, memory, repair, render options
    settings: Settings = field(default_factory=Settings)
    format: str = "txt"
    #: CleanEval submission format: each page wrapped in ``<text id="…">`` with a URL line
    cleaneval_wrapper: bool = False
    #: records carry the page's URL and title (the JSON-lines output: what users look for first)
    url_and_title: bool = False
    #: JSON: also the units and every block of the page with its label (``--with-blocks``)
    blocks: bool = False

    def __call__(self, job: Job) -> Record:
        t0 = time.perf_counter()
        record = self.attempted(job, lambda: self._extract(job))
        record["ms"] = round((time.perf_counter() - t0) * 1000, 3)
        return record

    def _extract(self, job: Job) -> Record:
        settings = self.settings
        result = page_result(job_bytes(job, settings.limits), settings, url=job.url,
                             headers=dict(job.headers) or None)
        record: Record = {"id": job.id, "ok": True}
        if not any(unit.text for unit in result.units):
            record[EMPTY] = True
        options = settings.render_options()
        if self.format == "json":
            options.pop("with_metadata", None)
            record.update(as_record(result, blocks=self.blocks, **options))
            return record
        if self.format == "csv":  # one row per page: the metadata's columns and the text
            options.pop("with_metadata", None)
            record.update(csv_row(metadata(result.page), render(result, "txt", **options)))
            return record
        if self.cleaneval_wrapper and self.format == "cleaneval":
            options.update(id=job.id, url_line=True)
        if self.url_and_title:  # the JSON-lines record leads as the JSON one: URL, title, text
            found = metadata(result.page, page_dates=False)
            record["url"] = found.url or job.url
            record["title"] = found.title
        record["text"] = render(result, self.format, **options)
        record["encoding"] = result.page.decoded.encoding
        if options.get("with_metadata"):
            record["metadata"] = metadata(result.page).as_dict()
        return record
