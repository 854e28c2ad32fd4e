"""The public road: bytes or text → :class:`Page` → labels → :class:`Result` → output.

``load`` decodes, parses and segments once; ``run`` applies a method or a chain; ``extract``
does both and renders.  A chain ``a+b`` feeds *a*'s kept content, rendered as HTML, to
*b*, as seed 002 chains cleaners (BP-JTA, JTA-BP): one element per unit, without the
page's structure, so the next method sees what the cleaners of the seed saw.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from . import methods
from .decode import decode
from .metadata import Document, metadata
from .model import Decoded, Labels, Page, Result
from .parse import DEFAULT_LIMITS, Limits, parse, repaired
from .render import render, render_units_html, units
from .segment import page_title, segment


def load(
    html: str | bytes,
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Page:
    """Decode (bytes only), parse and segment a page."""
    t0 = time.perf_counter()
    if isinstance(html, bytes):
        decoded = decode(html, headers)
    else:
        decoded = Decoded(html, "str", "given as text")
    t1 = time.perf_counter()
    tree = parse(decoded.text, limits)
    t2 = time.perf_counter()
    blocks = segment(tree, limits)
    if not blocks and decoded.text.strip():
        tree = parse(repaired(decoded.text), limits)
        blocks = segment(tree, limits)
    t3 = time.perf_counter()
    timings = {"decode": t1 - t0, "parse": t2 - t1, "segment": t3 - t2}
    return Page(decoded.text, decoded, tree, blocks, page_title(tree), url, timings)


def run(page: Page, method: str = "default", options: Mapping[str, Any] | None = None) -> Result:
    """Label ``page`` with a method or a chain ``a+b+…`` and assemble the output units.

    ``options`` maps a method name to its ``Options`` instance.
    """
    chain = methods.chain(method)
    options = options or {}
    timings: dict[str, float] = {}
    result: Result | None = None
    for i, step in enumerate(chain):
        if result is not None:
            page = load(render_units_html(result), url=page.url)
        t0 = time.perf_counter()
        labels = step.run(page, options.get(step.name))
        timings[f"label:{i}:{step.name}" if len(chain) > 1 else "label"] = time.perf_counter() - t0
        result = Result(page, labels, units(page.blocks, labels.labels), timings)
    assert result is not None  # chain() never returns an empty list
    if len(chain) > 1:
        result = Result(result.page, Labels(method, result.labels.labels, result.labels.details),
                        result.units, timings)
    return result


def extract(
    html: str | bytes,
    method: str = "default",
    format: str = "txt",
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    **render_options: Any,
) -> str:
    """The main content of a page, rendered in ``format`` (txt, cleaneval, markdown, html, json,
    xml, csv; json, xml and csv carry the page's metadata).

    ``render_options`` go to :func:`detourage.render.render`: ``links``, ``images``,
    ``tables``, ``formatting`` (:class:`~detourage.render.RenderOptions`),
    ``with_metadata`` (a YAML header before txt and Markdown) and the format's own
    (``id``, ``url_line``, ``blocks``).
    """
    page = load(html, url=url, headers=headers, limits=limits)
    return render(run(page, method, options), format, **render_options)


def document(
    html: str | bytes,
    method: str = "default",
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    **render_options: Any,
) -> Document:
    """The page's main content (as ``txt``, with ``render_options`` as in :func:`extract`)
    and its metadata (:class:`~detourage.metadata.Metadata`), as one frozen object."""
    result = run(load(html, url=url, headers=headers, limits=limits), method, options)
    return Document(metadata(result.page), render(result, "txt", **render_options), result)
