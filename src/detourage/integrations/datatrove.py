"""A datatrove extractor step: détourage where datatrove's trafilatura step goes; and a
WARC reader that reads what a corpus run reads.

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.writers import JsonlWriter
    from detourage.integrations.datatrove import Detourage, WarcReader

    LocalPipelineExecutor(pipeline=[
        WarcReader("crawl/", glob_pattern="*.warc.gz"),   # skips error pages, counting them
        Detourage(output_format="markdown", with_metadata=True),
        JsonlWriter("out/"),
    ], tasks=4).run()

:class:`Detourage` is a datatrove ``BaseExtractor``: each document's HTML (``doc.text``,
as the reader decoded it) becomes its main content, pages run in datatrove's sandbox (one
child process, killed and started again past ``timeout``), and what happened to each
page is in datatrove's stats under its trafilatura step's names (``extracted``,
``timeout``, ``broken_process``, ``clean_error``, ``forwarded``, ``dropped``) and, for a
page detourage refused, its reason as well (``limit:bytes``, ``not-html``,
``limit:memory``…).

Options are detourage's (:class:`~detourage.settings.Settings`) or, by the names of the
trafilatura step's and ``extract``'s arguments, ``favour_precision``/``favour_recall``
(the learned extractor's ``favor``), ``include_comments``, ``include_tables``,
``include_links``, ``include_images``, ``include_formatting`` (what the output keeps);
``output_format`` is any detourage format (``txt``, ``markdown``, ``html``, ``json``…).
``with_metadata`` adds the page's metadata to ``doc.metadata``, every field a string, the
same keys on every document (``title``, ``authors`` joined by ``"; "``,
``date_published``, ``site_name``, ``declared_language``…; the reader's ``url`` and
``date``, and datatrove's ``language``, are left as they are).  Given a ``Settings``, the
step takes its timeout, memory ceiling and ``with_metadata`` from it, and refuses the
keywords that would build another.  Needs the ``datatrove`` extra.

:class:`WarcReader` is datatrove's, reading as ``detourage extract --to`` does: only HTML
responses of status 200 are documents, decoded as detourage decodes (the HTTP header's
charset heard); every other record is skipped and counted in the reader's stats under the
corpus run's reason (``status:404``, ``content-type:image/png``, ``warc:request``…:
:mod:`detourage.corpusrun.readers`).  datatrove's own reader keeps a crawl's error pages
(a 404's HTML becomes a document).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .. import bounded, methods, pipeline
from ..corpusrun.http import media_type
from ..corpusrun.readers import HTML_TYPES
from ..corpusrun.sinks import METADATA_RENAMED
from ..decode import decode
from ..errors import MissingExtra, UnknownFormat
from ..metadata import metadata
from ..render import RENDERERS, render
from ..settings import DEFAULT_LIMITS, Limits, RenderOptions, Settings

try:
    from datatrove.data import DocumentsPipeline
    from datatrove.pipeline.extractors.base import BaseExtractor, ExtractorSandbox
    from datatrove.pipeline.readers import WarcReader as DatatroveWarcReader
    from datatrove.utils.typeshelper import StatHints
except ImportError:  # pragma: no cover - the extra's absence is tested by name
    raise MissingExtra("the datatrove step needs datatrove: pip install 'detourage[datatrove]'") from None



class Detourage(BaseExtractor):
    """détourage as a datatrove extractor step.

    Args:
        settings: the page's road (method, its options, limits, render options); built
            from the keywords below when not given.
        output_format: a detourage format (``txt``, ``markdown``, ``html``, ``json``, ``xml``…).
        method: a method or chain (``detourage methods``); ``default`` is the learned extractor.
        favour_precision: less text, less boilerplate (the learned extractor's ``favor``).
        favour_recall: more text, less loss.
        include_comments: keep comment sections (left out by default, as the trafilatura step does).
        include_tables, include_links, include_images, include_formatting: what the
            structured formats keep (:class:`~detourage.structure.RenderOptions`).
        with_metadata: add the page's metadata to ``doc.metadata``.
        timeout: seconds per page, held by datatrove's sandbox (the child is killed past it);
            default: the settings', else 1 (datatrove's).
        max_memory: bytes of address space of the sandbox's child (``RLIMIT_AS``); default:
            the settings', else no ceiling.
        max_bytes: the largest page read, in bytes (:class:`~detourage.parse.Limits`).
    """

    name = "✂ Detourage"
    _requires_dependencies = ["lxml"]

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        output_format: str = "txt",
        method: str | None = None,
        favour_precision: bool | None = None,
        favour_recall: bool | None = None,
        include_comments: bool | None = None,
        include_tables: bool | None = None,
        include_links: bool | None = None,
        include_images: bool | None = None,
        include_formatting: bool | None = None,
        with_metadata: bool | None = None,
        timeout: float | None = None,
        max_memory: int | None = None,
        max_bytes: int | None = None,
    ) -> None:
        road = {"method": method, "favour_precision": favour_precision, "favour_recall": favour_recall,
                "include_comments": include_comments, "include_tables": include_tables,
                "include_links": include_links, "include_images": include_images,
                "include_formatting": include_formatting, "max_bytes": max_bytes}
        given = [name for name, value in road.items() if value is not None]
        if settings is not None and given:
            raise ValueError(f"{', '.join(given)}: part of the Settings given; set them there")
        if output_format not in RENDERERS:
            raise UnknownFormat(f"unknown format {output_format!r} (known: {', '.join(RENDERERS)})")
        if settings is None:
            render = RenderOptions(links=bool(include_links), images=bool(include_images),
                                   tables=include_tables is not False, formatting=bool(include_formatting))
            settings = _settings(method or "default", bool(favour_precision), bool(favour_recall),
                                 bool(include_comments), render,
                                 DEFAULT_LIMITS if max_bytes is None else Limits(max_bytes=max_bytes))
            timeout = 1.0 if timeout is None else timeout  # datatrove's extractors' default
        super().__init__(settings.timeout if timeout is None else timeout)
        methods.require(settings.method)
        self.with_metadata = settings.with_metadata if with_metadata is None else with_metadata
        # the metadata goes into doc.metadata, never as front matter into the text
        self.settings = dataclasses.replace(settings, with_metadata=False)
        self.output_format = output_format
        self.max_memory = settings.max_memory if max_memory is None else max_memory
        self._limited = False

    def extract(self, text: str) -> str:
        """The main content of one page's HTML (datatrove's extractor interface; no
        memory ceiling here: that is the sandbox child's, in :meth:`run`)."""
        outcome = self._outcome(text, None)
        if outcome[0] == "error":
            raise RuntimeError(f"{outcome[1]}: {outcome[2]}")
        return outcome[1]

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        """Each document's text replaced by its main content (the URL the reader gave used
        for links and metadata); a page that gives none, times out or is refused is not
        forwarded, and counted."""
        with ExtractorSandbox(timeout=self.timeout, warmup_text=("", None)) as sandbox:
            for doc in data:
                self.stat_update(StatHints.total)
                with self.track_time():
                    try:
                        outcome = sandbox.process_document((doc.text, doc.metadata.get("url")), self._in_child)
                    except TimeoutError:
                        self.stat_update("timeout")
                        continue
                    except EOFError:  # the child died (the OOM killer, a crash in C code)
                        self.stat_update("broken_process")
                        continue
                if outcome[0] == "error":
                    self.stat_update("clean_error", outcome[1])
                    continue
                self.stat_update("extracted")
                _, doc.text, found = outcome
                if found:
                    doc.metadata.update(found)
                if doc.text.strip():
                    self.stat_update(StatHints.forwarded)
                    self.update_doc_stats(doc)
                    yield doc
                else:
                    self.stat_update(StatHints.dropped)

    def _in_child(self, html: str, url: str | None) -> tuple[str, Any, Any]:
        """:meth:`_outcome` in the sandbox's child, under the memory ceiling (set there
        once, never in the process that runs the pipeline)."""
        if not self._limited:
            bounded.limit_memory(self.max_memory)
            self._limited = True
        return self._outcome(html, url)

    def _outcome(self, html: str, url: str | None) -> tuple[str, Any, Any]:
        """``("ok", text, metadata)`` or ``("error", reason, message)``; never raises, so
        that one page's error does not end the sandbox's child."""
        try:
            result = pipeline.result(html, self.settings, url=url)
            page = result.page
            text = render(result, self.output_format, **self.settings.render_options())
            return "ok", text, _metadata(page) if self.with_metadata else {}
        except Exception as exc:  # noqa: BLE001 - every failure becomes the page's outcome, counted by reason
            failed = bounded.failure(exc)
            return "error", failed.reason, failed.message


def _settings(method: str, precision: bool, recall: bool, comments: bool, render: RenderOptions,
              limits: Limits) -> Settings:
    if precision and recall:
        raise ValueError("favour_precision and favour_recall: one or the other")
    options: dict[str, Any] = {}
    if precision or recall:
        options = methods.with_favor(method, options, "precision" if precision else "recall")
    if comments:
        options = methods.with_comments(method, options)
    return Settings(method=method, options=tuple(options.items()), limits=limits, render=render)


def _metadata(page: Any) -> dict[str, str]:
    """Every field, renamed as a corpus run's columns are (the reader's ``url`` and ``date``
    are the record's, datatrove's ``language`` the one its language filter predicts), each
    a string (lists joined by ``"; "``, none given as ``""``): the
    same keys and types on every document, as a Parquet writer's schema needs."""
    return {METADATA_RENAMED.get(name, name): "; ".join(value) if isinstance(value, list) else (value or "")
            for name, value in metadata(page).as_dict().items()}


class WarcReader(DatatroveWarcReader):
    """datatrove's ``WarcReader`` (same arguments), reading a WARC as a corpus run does:
    a record is a document only when it is an HTML response of status 200; the others are
    skipped and counted in the stats by reason (``status:404``, ``warc:request``…)."""

    name = "🕷 Warc (detourage)"

    def read_file(self, filepath: str) -> DocumentsPipeline:
        from warcio.archiveiterator import ArchiveIterator

        with self.data_folder.open(filepath, "rb", compression=self.compression) as stream:
            for number, record in enumerate(ArchiveIterator(stream)):
                with self.track_time():
                    reason = skip_reason(record)
                    if reason is not None:
                        self.stat_update(reason)
                        continue
                    document = self.get_document_from_dict(_page(record), filepath, number)
                if document:
                    yield document


def skip_reason(record: Any) -> str | None:
    """Why a WARC record (warcio's) is no page, named as a corpus run names it
    (:mod:`detourage.corpusrun.readers`); None for an HTML response of status 200."""
    if record.rec_type != "response":
        return f"warc:{(record.rec_type or 'none')[:40]}"
    if record.http_headers is None:
        return "warc:response-without-http"
    status = record.http_headers.get_statuscode()
    if status != "200":
        return f"status:{status}"
    mime = media_type({"content-type": record.http_headers.get_header("content-type") or ""})
    if mime and mime not in HTML_TYPES:
        return f"content-type:{mime[:60]}"
    return None


def _page(record: Any) -> dict[str, Any]:
    """A document's fields from an HTML response: its body (codings undone by warcio)
    decoded as detourage decodes a page, hearing the HTTP header's charset."""
    headers = record.rec_headers
    text = decode(record.content_stream().read(), dict(record.http_headers.headers)).text
    return {"text": text, "id": headers.get_header("WARC-Record-ID"), "url": headers.get_header("WARC-Target-URI"),
            "date": headers.get_header("WARC-Date")}
