"""The public road, on top: bytes or text → :class:`Page` → labels → :class:`Result` → output.

``load`` decodes, parses and segments once (:mod:`detourage.loading`); ``run`` applies a
method or a chain (:mod:`detourage.pipeline`); ``extract`` and ``document`` do both and
render.  Each takes a :class:`Settings` (``settings=``), or builds one from its keywords
as a convenience (``limits``, ``repair``, ``options``, ``model``, ``render``…); given
both, a keyword that would build another is refused (:class:`UnknownOption`).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from . import bounded, loading, methods, pipeline
from .errors import DetourageError, UnknownFormat, UnknownMethod, UnknownOption
from .metadata import Document, metadata
from .model import Page, Result
from .render import render as render_result
from .settings import DEFAULT_LIMITS, Limits, RenderOptions, Settings


def load(
    html: str | bytes,
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    repair: bool = False,
    settings: Settings | None = None,
) -> Page:
    """Decode (bytes only), parse and segment a page within ``settings`` (its limits and
    repair), or within ``limits`` and ``repair`` (:func:`detourage.loading.load`).

    Bytes that are binary data, not a text document (a PDF, an image…: a known file
    signature, or binary bytes making a real share of the first 4 KB), raise
    :class:`NotHTML`; text given as ``str`` is always taken.  ``repair`` undoes the
    mojibake of text double-encoded before it reached you (:func:`detourage.decode.repair`,
    the ``repair`` extra); off by default."""
    if settings is None:
        settings = Settings(limits=limits, repair=repair)
    else:
        _refuse_beside(settings, limits=limits is not DEFAULT_LIMITS, repair=repair)
    return loading.load(html, settings, url=url, headers=headers)


def run(page: Page, method: str | None = None, options: Mapping[str, Any] | None = None, *,
        settings: Settings | None = None) -> Result:
    """Label ``page`` with a method or a chain ``a+b+…`` (default: ``default``, or the
    method of ``settings``) and assemble the output units.

    ``options`` maps a step's name to its ``Options`` instance (or take those of
    ``settings``); a name that is no step of the method, or a value of another type,
    raises :class:`UnknownOption` (see :func:`checked_options`).
    """
    if settings is not None:
        _refuse_beside(settings, options=options is not None)
        return pipeline.run(page, settings.method if method is None else method, dict(settings.options))
    method = "default" if method is None else method
    return pipeline.run(page, method, checked_options(method, options))


def checked_options(method: str, options: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """``options`` checked against the steps of ``method``: each key a step's name, each
    value that step's ``Options`` (``{"learned": Options(page_type="product")}``).  A key
    that names no step (``{"page_type": "product"}``: the method would run without it)
    or a value of another type raises :class:`UnknownOption` before any work."""
    if not options:
        return options
    if not isinstance(options, Mapping):
        raise UnknownOption(f"options: a mapping from a step's name to its Options, not {type(options).__name__}")
    steps = {step.name: step for step in methods.chain(method)}
    for name, value in options.items():
        step = steps.get(name)
        if step is None:
            raise UnknownOption(f"options: {name!r} is no step of method {method!r} (its steps: "
                                f"{', '.join(steps)}); options map a step's name to its Options, as "
                                f"{{{next(iter(steps))!r}: Options(…)}}")
        if isinstance(step.options, type) and not isinstance(value, step.options):
            raise UnknownOption(f"options[{name!r}]: a {step.options.__module__}.{step.options.__qualname__}, "
                                f"not {type(value).__name__}")
    return options


def _refuse_beside(settings: Settings, **given: bool) -> None:
    """Refuse the keywords given beside ``settings`` that would build other settings."""
    named = sorted(name for name, present in given.items() if present)
    if named:
        raise UnknownOption(f"{', '.join(named)}: given beside settings, which hold "
                            f"{'them' if len(named) > 1 else 'it'} (use dataclasses.replace on the settings)")


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
    except Exception as exc:  # noqa: BLE001 - any failure reading the file: say what it is instead
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
        except Exception:  # noqa: BLE001 - not this kind
            continue
        return kind
    return None


def extract(
    html: str | bytes,
    method: str | None = None,
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
    settings: Settings | None = None,
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

    ``settings`` (a :class:`Settings`) holds the method, its options, the limits, repair
    and the render options in one object; the keywords that would build other settings
    are then refused (the format's own keywords and ``timeout`` are still taken: a
    ``Settings``' ``timeout`` bounds the pages of a batch, not one call).

    ``timeout``: seconds the page may take, a bound that holds whatever code runs (libxml2
    parsing a hostile tag included).  The page then runs in a child process forked from
    this one, killed if it overruns, and :class:`LimitExceeded` (``time``) is raised
    here; a child that dies raises :class:`WorkerCrashed`.  The output is the same as
    without ``timeout``; each call starts a child (12–22 ms measured on a busy 2-core
    machine): for many pages, :func:`detourage.supervision.execute` (``detourage extract``)
    keeps its workers and costs far less per page.  On a platform without
    ``fork`` only an alarm bounds the page, which cannot stop C code.  Without ``timeout``
    (the default) nothing is bounded and no process is started.  Bytes that are not a
    text document raise :class:`NotHTML` (see :func:`load`).
    """
    settings, own = _settings(format, settings, method, options, model, limits, repair, render, render_options)

    def extracted() -> str:
        result = pipeline.result(html, settings, url=url, headers=headers)
        return render_result(result, format, **settings.render_options(), **own)

    return extracted() if timeout is None else bounded.call(extracted, _seconds(timeout))


def document(
    html: str | bytes,
    method: str | None = None,
    *,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    model: Any = None,
    limits: Limits = DEFAULT_LIMITS,
    repair: bool = False,
    timeout: float | None = None,
    render: RenderOptions | None = None,
    settings: Settings | None = None,
    **render_options: Any,
) -> Document:
    """The page's main content (as ``txt``, with ``render`` and ``render_options`` as in :func:`extract`)
    and its metadata (:class:`~detourage.metadata.Metadata`), as one frozen object.

    ``settings``: as in :func:`extract`.

    ``timeout``: seconds the page may take, bounded as in :func:`extract`: the page runs
    first in a child process, killed if it overruns (:class:`LimitExceeded`, ``time``).
    When it ends in time, the document is built again here, since the page's tree cannot
    cross between processes: the page costs twice its time, and the document is the same
    as without ``timeout``.
    """
    settings, own = _settings("txt", settings, method, options, model, limits, repair, render, render_options)

    def built() -> Document:
        result = pipeline.result(html, settings, url=url, headers=headers)
        return Document(metadata(result.page), render_result(result, "txt", **settings.render_options(), **own),
                        result)

    def tried() -> None:  # in the child: only whether the page ends in time matters
        built()

    if timeout is not None:
        bounded.call(tried, _seconds(timeout))
    return built()


def _settings(format: str, settings: Settings | None, method: str | None, options: Mapping[str, Any] | None,
              model: Any, limits: Limits, repair: bool, render: RenderOptions | None,
              keywords: dict[str, Any]) -> tuple[Settings, dict[str, Any]]:
    """The settings of a call, and the format's own keywords (``id``, ``url_line``,
    ``blocks``): ``settings`` as given, or built from the keywords.  Every keyword is
    checked before any work.  A call with none of them (``extract(html)``) takes the
    default settings made once (built anew, they cost every call its keywords' checks)."""
    if (settings is None and method is None and options is None and model is None and limits is DEFAULT_LIMITS
            and not repair and render is None and not keywords):
        return _default_settings(format), {}
    keywords = _render_keywords(format, render, keywords)
    own = {k: keywords.pop(k) for k in keywords.keys() - _SETTINGS_KEYWORDS}
    if settings is not None:
        _refuse_beside(settings, method=method is not None and method != settings.method,
                       options=options is not None, model=model is not None,
                       limits=limits is not DEFAULT_LIMITS, repair=repair, **{k: True for k in keywords})
        return settings, own
    method = "default" if method is None else method
    options = _with_model_options(method, model, options)
    structure = {k: keywords.pop(k) for k in RenderOptions.__dataclass_fields__ if k in keywords}
    with_metadata = bool(keywords.pop("with_metadata", False))
    return Settings(method=method, options=tuple((options or {}).items()), limits=limits, repair=repair,
                    render=RenderOptions(**structure), with_metadata=with_metadata), own


@cache
def _default_settings(format: str) -> Settings:
    """The settings of a call with no keyword, ``format`` checked (:func:`_settings`)."""
    return _settings(format, None, "default", None, None, DEFAULT_LIMITS, False, None, {})[0]


#: the render keywords a :class:`Settings` holds (the others are a format's own)
_SETTINGS_KEYWORDS = frozenset({*RenderOptions.__dataclass_fields__, "with_metadata"})


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
    return {**(render.as_dict() if render is not None else {}), **given}


@cache
def _render_options(format: str) -> frozenset[str]:
    """The options a format's renderer takes (read from its signature once: 20 µs)."""
    from .render import RENDERERS

    return frozenset({*RenderOptions.__dataclass_fields__, "with_metadata",
                      *inspect.signature(RENDERERS[format]).parameters} - {"result", "options"})


def _seconds(timeout: float) -> float:
    if not timeout > 0:
        raise ValueError(f"timeout: a number of seconds above 0, or None for no limit, not {timeout!r}")
    return float(timeout)


def _with_model_options(method: str, model: Any, options: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """``options`` checked (:func:`checked_options`) with the models of :func:`with_models`:
    a step's options given win, but take the model when they name none."""
    options = checked_options(method, options)
    if model is None:
        return options
    models = with_models(method, model)
    given = {name: (dataclasses.replace(value, model=models[name].model)
                    if name in models and getattr(value, "model", True) is None else value)
             for name, value in (options or {}).items()}
    return {**models, **given}
