"""How pages are processed: one frozen :class:`Settings`, built once.

The command line builds it from its flags and the library from its arguments; the
corpus step (:class:`detourage.corpus.Step`), a corpus run's workers
(:class:`detourage.corpusrun.RunConfig`) and the scorer of ``evaluate``
(:class:`detourage.evaluation.evaluate.PageScorer`) each hold it as one field, and load,
label and render a page through it, so that every road takes a page the same way: the
same size limits, the same repair, the same method options.

    >>> from detourage.settings import Settings
    >>> settings = Settings(method="fulltext")
    >>> settings.run(settings.load(b"<p>Hello</p>")).units[0].text
    'Hello'
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .api import load, run
from .model import Page, Result
from .parse import DEFAULT_LIMITS, Limits
from .structure import RenderOptions

#: seconds a page of a batch may take by default (``--timeout``)
TIMEOUT = 30.0


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

    def load(self, data: str | bytes, *, url: str | None = None,
             headers: Mapping[str, str] | None = None) -> Page:
        """Decode, parse and segment a page within these limits (:func:`detourage.load`)."""
        return load(data, url=url, headers=headers, limits=self.limits, repair=self.repair)

    def run(self, page: Page, method: str | None = None) -> Result:
        """Label a page with the method (or ``method``, for a scorer that runs several)
        and its options."""
        return run(page, self.method if method is None else method, dict(self.options))

    def render_options(self) -> dict[str, Any]:
        """The renderers' keywords (:func:`detourage.render.render`)."""
        options = dataclasses.asdict(self.render)
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
                               "render": dataclasses.asdict(self.render), "max_bytes": self.limits.max_bytes,
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
    default = type(options)()
    return {f.name: _json(getattr(options, f.name)) for f in dataclasses.fields(options)
            if getattr(options, f.name) != getattr(default, f.name)}


def _json(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return str(value) if isinstance(value, os.PathLike) else f"<{type(value).__name__} in memory>"
