"""The public road: bytes or text → :class:`Page` → labels → :class:`Result` → output.

``load`` decodes, parses and segments once; ``run`` applies a method or a chain; ``extract``
does both and renders.  A chain ``a+b`` feeds *a*'s kept content, rendered as HTML, to
*b*, as seed 002 chains cleaners (BP-JTA, JTA-BP): one element per unit, without the
page's structure, so the next method sees what the cleaners of the seed saw.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import methods
from .decode import decode, repair as repair_text
from .errors import DetourageError, UnknownMethod
from .metadata import Document, metadata
from .model import Decoded, Labels, Page, Result
from .parse import DEFAULT_LIMITS, Limits, parse, repaired
from .render import render, render_units_html, units
from .segment import page_title, segment, show_noscript


def load(
    html: str | bytes,
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    repair: bool = False,
) -> Page:
    """Decode (bytes only), parse and segment a page.

    ``repair`` undoes the mojibake of text double-encoded before it reached you
    (:func:`detourage.decode.repair`, the ``repair`` extra); off by default."""
    t0 = time.perf_counter()
    if isinstance(html, (bytearray, memoryview)):
        html = bytes(html)
    if not isinstance(html, (str, bytes)):
        raise TypeError(f"a page is given as bytes (best: its encoding is then detected) or str, "
                        f"not {type(html).__name__}")
    if isinstance(html, bytes):
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
    **render_options: Any,
) -> str:
    """The main content of a page, rendered in ``format`` (txt, cleaneval, markdown, html, json,
    xml, csv; json, xml and csv carry the page's metadata).

    ``render_options`` go to :func:`detourage.render.render`: ``links``, ``images``,
    ``tables``, ``formatting`` (:class:`~detourage.render.RenderOptions`),
    ``with_metadata`` (a YAML header before txt and Markdown) and the format's own
    (``id``, ``url_line``, ``blocks``).

    ``model`` gives the methods that take a trained model theirs (a file, or a mapping
    from a step of the chain to its file): see :func:`with_models`.  ``repair`` undoes
    double-encoded text first (see :func:`load`).
    """
    options = _with_model_options(method, model, options)
    page = load(html, url=url, headers=headers, limits=limits, repair=repair)
    return render(run(page, method, options), format, **render_options)


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
    **render_options: Any,
) -> Document:
    """The page's main content (as ``txt``, with ``render_options`` as in :func:`extract`)
    and its metadata (:class:`~detourage.metadata.Metadata`), as one frozen object."""
    options = _with_model_options(method, model, options)
    result = run(load(html, url=url, headers=headers, limits=limits, repair=repair), method, options)
    return Document(metadata(result.page), render(result, "txt", **render_options), result)


def _with_model_options(method: str, model: Any, options: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """``options`` with the models of :func:`with_models` (options given win)."""
    if model is None:
        return options
    return {**with_models(method, model), **(options or {})}
