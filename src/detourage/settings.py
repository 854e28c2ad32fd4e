"""How pages are processed, and every default of it: the ground floor, importing nothing
of detourage.

One frozen :class:`Settings` is built once: the command line builds it from its flags
and the library from its arguments (:mod:`detourage.api` takes one, or builds it from
its keywords); the corpus step (:class:`detourage.step.Step`), a corpus run's workers
(:class:`detourage.corpusrun.RunConfig`) and the scorer of ``evaluate``
(:class:`detourage.evaluation.evaluate.PageScorer`) each hold it as one field, and load
(:func:`detourage.loading.load`), label and render a page through it
(:func:`detourage.pipeline.result`), so that every road takes a page the same way: the
same size limits, the same repair, the same method options.  :class:`Limits` (what one
page may hold) and :class:`RenderOptions` (what the structured formats keep) are its
parts; the defaults that several rooms share (:data:`TIMEOUT`, :data:`FETCH_TIMEOUT`,
:data:`INSPECTOR_PORT`, :func:`default_workers`, :func:`default_max_memory`) are here
once.

    >>> from detourage.settings import Settings
    >>> Settings(method="fulltext", timeout=5).described()["timeout"]
    5
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: seconds a page of a batch may take by default (``--timeout`` of every command that
#: runs pages, the inspector's too)
TIMEOUT = 30.0

#: seconds one HTTP response may take by default, headers and body (``--timeout`` of
#: ``detourage fetch``, and the pages ``detourage extract`` fetches)
FETCH_TIMEOUT = 30.0

#: the port the inspector (``detourage ui``) listens on by default; an evaluation report
#: links to it
INSPECTOR_PORT = 8765


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Bounds on one page; exceeding one raises :class:`LimitExceeded`.

    Defaults: 16 MiB is 16× the largest page of the shared datasets and far above the
    1 MiB at which Common Crawl truncates records; 500 000 elements and depth 1 000 are
    beyond any real page we have seen (libxml2 itself refuses depth > 2 048 even with
    ``huge_tree``).
    """

    max_bytes: int = 16 * 1024 * 1024
    max_nodes: int = 500_000
    max_depth: int = 1_000
    #: text blocks of one page (segmentation stops with ``limit:blocks`` beyond): 200 000
    #: is 40x the most blocks of any shared page and lets through a 2.3 MB paragraph of
    #: 135 000 ``<span>`` runs (``benchmarks/crawl_faults.py``); a 5 MB page just under it
    #: (199 000 one-character cells) stayed under 600 MB but took 7-11 s of CPU with
    #: ``default`` on a loaded 2-core machine, within what ``--timeout`` bounds anyway
    max_blocks: int = 200_000
    #: attributes on one start tag: libxml2's time grows with the square of their number
    #: (80 000 on one ``<p>``: a minute), real pages have a few dozen at most; the
    #: attributes beyond are dropped before parsing (:func:`bounded_attributes`), the
    #: text is kept
    max_attributes: int = 1_000


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, slots=True, kw_only=True)
class RenderOptions:
    """What the structured formats keep; the defaults are trafilatura's, except images.

    trafilatura drops links by default and keeps tables; it turns formatting on for
    Markdown.  detourage keeps images (seed 001 does; trafilatura does not): with
    ``images=False`` an illustration is left out, as in ``txt`` (its alt text stands for
    the image, not for text); a decorative image is its alt text in every format.
    """

    #: links as ``[text](href)``, ``href`` resolved against the page URL
    links: bool = False
    #: images as ``![alt](src)`` with ``src`` resolved; off: left out, as in ``txt``
    images: bool = True
    #: data tables as tables (``txt``: one line per row); off: one paragraph per cell
    tables: bool = True
    #: emphasis, strong, inline code and line breaks
    formatting: bool = True

    def as_dict(self) -> dict[str, bool]:
        """The options by name (:func:`dataclasses.asdict` without its deep copies: the
        values are flags)."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """A page's road: method and its options, limits, repair, what the renderers keep.

    Picklable (process pools receive it with each step) and hashable."""

    #: a method or a chain ``a+b`` (``detourage methods``)
    method: str = "default"
    #: method name → its ``Options`` instance (a trained model, a template, comments kept…)
    options: tuple[tuple[str, Any], ...] = ()
    #: what a page may hold (bytes, nodes, depth, blocks, attributes)
    limits: Limits = DEFAULT_LIMITS
    #: seconds per page; 0 or less for no limit.  A batch runs pages in worker processes
    #: killed past it (the only way to stop a page stuck in C code)
    timeout: float = TIMEOUT
    #: bytes of address space per worker process (``RLIMIT_AS``); None for no ceiling
    max_memory: int | None = None
    #: undo double-encoded text (mojibake) with ftfy after decoding (:func:`detourage.decode.repair`)
    repair: bool = False
    #: what the structured formats keep (links, images, tables, formatting)
    render: RenderOptions = field(default_factory=RenderOptions)
    #: txt and Markdown: the page's metadata first, as YAML front matter
    with_metadata: bool = False

    def with_options(self, more: Mapping[str, Any]) -> Settings:
        """The same settings with ``more`` method options (those given win)."""
        return dataclasses.replace(self, options=tuple({**dict(self.options), **more}.items()))

    def render_options(self) -> dict[str, Any]:
        """The renderers' keywords (:func:`detourage.render.render`)."""
        options = self.render.as_dict()
        if self.with_metadata:
            options["with_metadata"] = True
        return options

    def described(self) -> dict[str, Any]:
        """What decides a page's output, as JSON (a corpus run's manifest keeps it, and
        ``--resume`` compares it): the method, each step's options that differ from its
        defaults (a model or template file by its path), the byte limit, the timeout,
        repair when on and the render options."""
        out: dict[str, Any] = {"method": self.method,
                               "options": {name: _changed(value) for name, value in self.options},
                               "render": self.render.as_dict(), "max_bytes": self.limits.max_bytes,
                               "timeout": self.timeout}
        if self.repair:
            out["repair"] = True
        if self.with_metadata:
            out["with_metadata"] = True
        return out


def _changed(options: Any) -> Any:
    """A method's options as JSON: the fields that differ from their defaults (paths as
    strings; an object held in memory by its type's name)."""
    if not dataclasses.is_dataclass(options):
        return repr(options)
    default = type(options)()  # type: ignore[misc]  # an instance: is_dataclass() also accepts classes
    return {f.name: _json(getattr(options, f.name)) for f in dataclasses.fields(options)
            if getattr(options, f.name) != getattr(default, f.name)}


def _json(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return str(value) if isinstance(value, os.PathLike) else f"<{type(value).__name__} in memory>"


def default_workers() -> int:
    """Worker processes of a batch by default: one per CPU."""
    return max(1, (os.cpu_count() or 1))


def default_max_memory() -> int:
    """The default ceiling per worker: 4 GiB, or half the machine's memory when smaller.

    4 GiB is 4× the largest peak seen on a 16 MiB page (the default ``--max-bytes``,
    ``benchmarks/bad_inputs.py``), and leaves room for the address space that libraries
    reserve without using it.
    """
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        physical = 0
    return min(4 << 30, physical // 2) if physical > 0 else 4 << 30
