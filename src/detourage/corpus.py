"""Many pages: the corpus runner's building blocks, as one public face.

This module holds no code: it names, for users of the library (``docs/api.md`` lists
``detourage.corpus`` as public), the pieces that live each in its own room, and no module
of detourage imports it (the floor plan, ``docs/development.md``, puts it on the top
floor with :mod:`detourage.api`):

- the pages of files and folders: :func:`read_inputs`, :func:`unique_ids`,
  :func:`with_urls`, :data:`PAGE_PATTERNS` (:mod:`detourage.inputs`); a page's source
  and its bytes: :class:`Job`, :func:`job_bytes`, :func:`read_page`
  (:mod:`detourage.loading`);
- the step that extracts one page: :class:`Step` (:mod:`detourage.step`);
- the supervision of a bounded page: :class:`PageStep`, :func:`attempt`,
  :func:`error_record`, :func:`execute`, :class:`Summary`, :func:`counted`
  (:mod:`detourage.supervision`);
- where records go: :class:`Writer`, :func:`output_format`, :func:`output_kind`
  (:mod:`detourage.output`);
- the defaults of a batch: :func:`default_workers`, :func:`default_max_memory`
  (:mod:`detourage.settings`).

    read_inputs(paths) ─▶ Job … ─▶ execute(jobs, step, workers) ─▶ record … ─▶ writer
"""

from __future__ import annotations

from .inputs import PAGE_PATTERNS, read_inputs, unique_ids, with_urls
from .loading import Job, job_bytes, read_page
from .output import CSV_RECORD_COLUMNS, FORMAT_OF_SUFFIX, PAGE_FILE_SUFFIXES, Writer, output_format, output_kind
from .settings import default_max_memory, default_workers
from .step import Step
from .supervision import PageStep, Record, Summary, attempt, counted, error_record, execute

__all__ = [
    "CSV_RECORD_COLUMNS",
    "FORMAT_OF_SUFFIX",
    "PAGE_FILE_SUFFIXES",
    "PAGE_PATTERNS",
    "Job",
    "PageStep",
    "Record",
    "Step",
    "Summary",
    "Writer",
    "attempt",
    "counted",
    "default_max_memory",
    "default_workers",
    "error_record",
    "execute",
    "job_bytes",
    "output_format",
    "output_kind",
    "read_inputs",
    "read_page",
    "unique_ids",
    "with_urls",
]
