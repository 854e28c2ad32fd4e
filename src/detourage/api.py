"""The public road: bytes or text → :class:`Page` → labels → :class:`Result` → output.

``load`` decodes, parses and segments once; ``run`` applies a method or a chain; ``extract``
does both and renders.  A chain ``a+b`` feeds *a*'s kept content, rendered as HTML, to
*b*, as seed 002 chains cleaners (BP-JTA, JTA-BP): one element per unit, without the
page's structure, so the next method sees what the cleaners of the seed saw.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import time
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import bounded, methods
from .decode import decode, looks_binary, repair as repair_text
from .errors import DetourageError, NotHTML, UnknownFormat, UnknownMethod, UnknownOption
from .metadata import Document, metadata
from .model import Decoded, Labels, Page, Result
from .parse import DEFAULT_LIMITS, Limits, parse, repaired
from .render import render as render_result, render_units_html, units
from .segment import page_title, segment, show_noscript
from .structure import RenderOptions


def load(
    html: str | bytes,
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    repair: bool = False,
) -> Page:
    """Decode (bytes only), parse and segment a page.

    Bytes that are binary data, not a text document (a PDF, an image…: a known file
    signature, or binary bytes making a real share of the first 4 KB), raise
    :class:`NotHTML`; text given as ``str`` is always taken.  ``repair`` undoes the
    mojibake of text double-encoded before it reached you (:func:`detourage.decode.repair`,
    the ``repair`` extra); off by default."""
    t0 = time.perf_counter()
    if isinstance(html, (bytearray, memoryview)):
        html = bytes(html)
    if not isinstance(html, (str, bytes)):
        raise TypeError(f"a page is given as bytes (best: its encoding is then detected) or str, "
                        f"not {type(html).__name__}")
    if isinstance(html, bytes):
        if looks_binary(html):
            raise NotHTML("binary data, not a text document")
        decoded = decode(html, headers)
    else:
        decoded = Decoded(html, "str", "given as text")
    if repair:
        decoded = repair_text(decoded)
    t1 = time.perf_counter()
    tree = parse(decoded.text, limits)
    t2 = time.perf_counter()
    blocks = segment(tree, limits)
    if not blocks and decoded.text.strip():
        tree = parse(repaired(decoded.text), limits)
        blocks = segment(tree, limits)
    if show_noscript(tree, blocks):  # a page whose text is all in <noscript>
        blocks = segment(tree, limits)
    t3 = time.perf_counter()
    timings = {"decode": t1 - t0, "parse": t2 - t1, "segment": t3 - t2}
    return Page(decoded.text, decoded, tree, blocks, page_title(tree), url, timings, limits)


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
            page = load(render_units_html(result), url=page.url, limits=page.limits or DEFAULT_LIMITS)
        t0 = time.perf_counter()
        labels = step.run(page, options.get(step.name))
        timings[f"label:{i}:{step.name}" if len(chain) > 1 else "label"] = time.perf_counter() - t0
        result = Result(page, labels, units(page.blocks, labels.labels), timings)
    assert result is not None  # chain() never returns an empty list
    if len(chain) > 1:
        result = Result(result.page, Labels(method, result.labels.labels, result.labels.details),
                        result.units, timings)
    return result


#: the methods that take a trained model, by the module of their ``Options``: what the
#: model is called in messages, and the command that trains one
_MODEL_KINDS = {"detourage.methods.ncleaner": ("an NCleaner", "ncleaner"),
                "detourage.methods.victor": ("a Victor", "victor"),
                "detourage.methods.learned": ("a learned-extractor", "learned")}


def with_models(method: str, model: Any) -> dict[str, Any]:
    """Options giving the steps of ``method`` (a method or a chain) that take a trained
    model their model, each checked now, once, on a small page.

    ``model`` is one file (or loaded model) for every such step, or a mapping from a step's
    name to its own (``{"ncleaner": "a.json.gz", "victor": "b.zip"}``).  A missing file, a
    file of another method or a model that does not fit raises :class:`DetourageError`
    saying what was expected ("not an NCleaner model: it is a Victor model").
    """
    steps = [m for m in methods.chain(method) if "model" in getattr(m.options, "__dataclass_fields__", {})]
    if not steps:
        raise UnknownMethod(f"--model: no method of {method!r} takes a model "
                            f"(those that do: {', '.join(sorted(k for _, k in _MODEL_KINDS.values()))})")
    given = {}
    for name, value in (model.items() if isinstance(model, Mapping) else [(None, model)]):
        for step in _steps_named(steps, name, method):
            given[step.name] = value
    return {s.name: s.options(**{**dict(s.defaults), "model": _checked(s, v)}) for s in steps
            if (v := given.get(s.name)) is not None}


def _steps_named(steps: list[methods.Method], name: str | None, method: str) -> list[methods.Method]:
    """The steps a ``name=`` of ``--model`` designates: all of them for no name; else the
    step of that name, or the steps of that method's variants (``ncleaner`` for ``ncleaner-nl``)."""
    if name is None:
        return steps
    wanted = methods.get(name)
    found = [s for s in steps if s.name == wanted.name] or [s for s in steps if s.options is wanted.options]
    if not found:
        raise UnknownMethod(f"--model {name}=…: no step of {method!r} named {name!r} takes a model "
                            f"(steps that do: {', '.join(s.name for s in steps)})")
    return found


def _checked(step: methods.Method, model: Any) -> Any:
    """``model`` (a file name as ``str``), once the step has labelled a small page with it."""
    if not isinstance(model, (str, Path)):
        return model
    kind, trainer = _MODEL_KINDS.get(step.options.__module__, ("a", step.name))
    model = str(model)
    if not Path(model).is_file():
        raise DetourageError(f"--model {model}: no such file (expected {kind} model, "
                             f"written by `detourage train {trainer}`)")
    try:
        step.run(load("<p>A small page to check the model with.</p>"),
                 step.options(**{**dict(step.defaults), "model": model}))
    except Exception as exc:  # any failure reading the file: say what it is instead
        actual = _model_kind(model)
        if actual == kind:  # the right kind, but it does not fit (features of another version…)
            raise DetourageError(f"--model {model}: {exc}") from None
        what = f"it is {actual} model" if actual else f"{type(exc).__name__}: {exc}"
        raise DetourageError(f"--model {model}: not {kind} model for {step.name}: {what}") from None
    return model


def _model_kind(path: str) -> str | None:
    """Which method's model the file is, if any can read it."""
    for module, (kind, _) in _MODEL_KINDS.items():
        try:
            importlib.import_module(module).load_model(path)
        except Exception:  # not this kind
            continue
        return kind
    return None


def extract(
    html: str | bytes,
    method: str = "default",
    format: str = "txt",
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    model: Any = None,
    limits: Limits = DEFAULT_LIMITS,
    repair: bool = False,
    timeout: float | None = None,
    render: RenderOptions | None = None,
    **render_options: Any,
) -> str:
    """The main content of a page, rendered in ``format`` (txt, cleaneval, markdown, html, json,
    xml, csv; json, xml and csv carry the page's metadata).

    What the structured formats keep is ``render`` (a :class:`RenderOptions`: ``links``,
    ``images``, ``tables``, ``formatting``), or the same names as keywords; the other
    keywords are ``with_metadata`` (a YAML header before txt and Markdown) and the
    format's own (``id``, ``url_line``, ``blocks``).  An unknown keyword raises
    :class:`UnknownOption`, naming it and the valid ones, before any work.

    ``model`` gives the methods that take a trained model theirs (a file, or a mapping
    from a step of the chain to its file): see :func:`with_models`.  ``repair`` undoes
    double-encoded text first (see :func:`load`).

    ``timeout``: seconds the page may take, a bound that holds whatever code runs (libxml2
    parsing a hostile tag included).  The page then runs in a child process forked from
    this one, killed if it overruns, and :class:`LimitExceeded` (``time``) is raised
    here; a child that dies raises :class:`WorkerCrashed`.  The output is the same as
    without ``timeout``; each call starts a child (12–22 ms measured on a busy 2-core
    machine): for many pages, :func:`detourage.corpus.execute` (``detourage extract``)
    keeps its workers and costs far less per page.  On a platform without
    ``fork`` only an alarm bounds the page, which cannot stop C code.  Without ``timeout``
    (the default) nothing is bounded and no process is started.  Bytes that are not a
    text document raise :class:`NotHTML` (see :func:`load`).
    """
    render_options = _render_keywords(format, render, render_options)
    options = _with_model_options(method, model, options)

    def extracted() -> str:
        page = load(html, url=url, headers=headers, limits=limits, repair=repair)
        return render_result(run(page, method, options), format, **render_options)

    return extracted() if timeout is None else bounded.call(extracted, _seconds(timeout))


def document(
    html: str | bytes,
    method: str = "default",
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    model: Any = None,
    limits: Limits = DEFAULT_LIMITS,
    repair: bool = False,
    timeout: float | None = None,
    render: RenderOptions | None = None,
    **render_options: Any,
) -> Document:
    """The page's main content (as ``txt``, with ``render`` and ``render_options`` as in :func:`extract`)
    and its metadata (:class:`~detourage.metadata.Metadata`), as one frozen object.

    ``timeout``: seconds the page may take, bounded as in :func:`extract`: the page runs
    first in a child process, killed if it overruns (:class:`LimitExceeded`, ``time``).
    When it ends in time, the document is built again here, since the page's tree cannot
    cross between processes: the page costs twice its time, and the document is the same
    as without ``timeout``.
    """
    render_options = _render_keywords("txt", render, render_options)
    options = _with_model_options(method, model, options)

    def built() -> Document:
        result = run(load(html, url=url, headers=headers, limits=limits, repair=repair), method, options)
        return Document(metadata(result.page), render_result(result, "txt", **render_options), result)

    def tried() -> None:  # in the child: only whether the page ends in time matters
        built()

    if timeout is not None:
        bounded.call(tried, _seconds(timeout))
    return built()


def _render_keywords(format: str, render: RenderOptions | None, given: dict[str, Any]) -> dict[str, Any]:
    """The renderer's keywords: ``render``'s fields, then the keywords given (which win).
    An unknown format or keyword is refused before any work (a typo such as ``lnks=True``
    must not cost a whole unbounded run before the renderer rejects it)."""
    from .render import RENDERERS

    if format not in RENDERERS:
        raise UnknownFormat(f"unknown format {format!r} (known: {', '.join(RENDERERS)})")
    if render is not None and not isinstance(render, RenderOptions):
        raise UnknownOption(f"render: a RenderOptions, not {type(render).__name__}")
    valid = _render_options(format)
    unknown = sorted(given.keys() - valid)
    if unknown:
        raise UnknownOption(f"unknown option{'s' * (len(unknown) > 1)} {', '.join(unknown)} for format "
                            f"{format!r} (valid: {', '.join(sorted(valid))})")
    return {**(dataclasses.asdict(render) if render is not None else {}), **given}


@lru_cache(maxsize=None)
def _render_options(format: str) -> frozenset[str]:
    """The options a format's renderer takes (read from its signature once: 20 µs)."""
    from .render import RENDERERS, RenderOptions

    return frozenset({*RenderOptions.__dataclass_fields__, "with_metadata",
                      *inspect.signature(RENDERERS[format]).parameters} - {"result", "options"})


def _seconds(timeout: float) -> float:
    if not timeout > 0:
        raise ValueError(f"timeout: a number of seconds above 0, or None for no limit, not {timeout!r}")
    return float(timeout)


def _with_model_options(method: str, model: Any, options: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """``options`` with the models of :func:`with_models` (options given win)."""
    if model is None:
        return options
    return {**with_models(method, model), **(options or {})}
