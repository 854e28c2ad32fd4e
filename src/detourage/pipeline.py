"""A loaded page through a method or a chain, to a :class:`Result`; a page's whole road
under one :class:`Settings`.

:func:`run` applies a method or a chain ``a+b``: a chain feeds *a*'s kept content,
rendered as HTML, to *b*, as seed 002 chains cleaners (BP-JTA, JTA-BP): one element per
unit, without the page's structure, so the next method sees what the cleaners of the
seed saw.  :func:`result` loads bytes (:func:`detourage.loading.load`) and runs the
settings' method with its options: the road of the corpus step, a corpus run's workers,
the evaluation's scorer and the datatrove step.  It sits above the methods and the
renderers and below everything that processes pages, :mod:`detourage.api` included.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from . import methods
from .loading import load
from .model import Labels, Page, Result
from .render import render_units_html, units
from .settings import DEFAULT_LIMITS, Settings


def run(page: Page, method: str = "default", options: Mapping[str, Any] | None = None) -> Result:
    """Label ``page`` with a method or a chain ``a+b+…`` and assemble the output units.

    ``options`` maps a step's name to its ``Options`` instance (a name no step has is
    passed over here: :func:`detourage.api.checked_options` refuses it for the callers
    that give options by hand).
    """
    chain = methods.chain(method)
    options = options or {}
    timings: dict[str, float] = {}
    result: Result | None = None
    for i, step in enumerate(chain):
        if result is not None:
            page = load(render_units_html(result), Settings(limits=page.limits or DEFAULT_LIMITS), url=page.url)
        t0 = time.perf_counter()
        labels = step.run(page, options.get(step.name))
        timings[f"label:{i}:{step.name}" if len(chain) > 1 else "label"] = time.perf_counter() - t0
        result = Result(page, labels, units(page.blocks, labels.labels), timings)
    assert result is not None  # chain() never returns an empty list
    if len(chain) > 1:
        result = Result(result.page, Labels(method, result.labels.labels, result.labels.details),
                        result.units, timings)
    return result


def result(data: str | bytes, settings: Settings, *, url: str | None = None,
           headers: Mapping[str, str] | None = None, method: str | None = None) -> Result:
    """Load a page within the settings and label it with their method (or ``method``,
    for a scorer that runs several) and its options."""
    page = load(data, settings, url=url, headers=headers)
    return run(page, settings.method if method is None else method, dict(settings.options))
