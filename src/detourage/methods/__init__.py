"""The registry of methods.

A method is a module with ``NAME``, ``SEED``, ``DESCRIPTION``, a frozen keyword-only
``Options`` dataclass and ``label(page, options) -> Labels``; it labels the page's blocks
and owns nothing else.  Chains (``a+b``, seed 002 §3) are run by :mod:`detourage.api`.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..errors import DetourageError, MissingExtra, UnknownMethod
from ..model import Labels, Page

#: name → module, in the order ``detourage methods`` lists them
MODULES = {
    "fulltext": "detourage.methods.fulltext",
    "baseline": "detourage.methods.baseline",
    "eatiht": "detourage.methods.eatiht",
    "boilerpipe": "detourage.methods.boilerpipe",
    "justext": "detourage.methods.justext",
    "ncleaner": "detourage.methods.ncleaner",
    "victor": "detourage.methods.victor",
    "template": "detourage.methods.template",
    "learned": "detourage.methods.learned",
}

#: named configurations of a registered method: name → (method, its ``Options`` keyword
#: arguments, description).  ``--method NAME`` then runs that method with those options.
VARIANTS: dict[str, tuple[str, dict[str, Any], str]] = {
    "boilerpipe-default": ("boilerpipe", {"variant": "default"},
                           "Boilerpipe's DefaultExtractor (density rules, no article steps)"),
    "eatiht-group": ("eatiht", {"argmax": "group"},
                     "eatiht with the published code's argmax: the parent whose selected children "
                     "hold the most sentences"),
    "justext-nostop": ("justext", {"stoplist": False},
                       "jusText without stop-word list (language-independent): seed 002's JTS"),
    "ncleaner-nl": ("ncleaner", {"nonlexical": True},
                    "NCleaner, non-lexical model (letters → a, digits → 0): seed 002's NCNL"),
    "template-element": ("template", {"mode": "element"},
                         "cross-page, seed 004 §4.4 as written: the minimal element holding the "
                         "article's differing text"),
    "learned-precision": ("learned", {"favor": "precision"},
                          "the learned extractor, threshold moved toward precision (less boilerplate)"),
    "learned-recall": ("learned", {"favor": "recall"},
                       "the learned extractor, threshold moved toward recall (less content lost)"),
    "learned-comments": ("learned", {"comments": True},
                         "the learned extractor, comment sections kept"),
    "template-victor": ("template", {"inner": "victor"},
                        "cross-page: victor's output less the site's template text"),
}

#: modules that register several methods through ``registrations()`` (the peers)
GROUPS: tuple[str, ...] = ("detourage.methods.peers",)

#: ``default`` names the method that does best on datasets it never saw: the learned
#: extractor, judged leave-one-dataset-out beside trafilatura, Readability and boilerpipe
#: on the same pages (docs/choosing-the-default.md; ``benchmarks/learned_lodo.py``).
ALIASES = {"default": "learned"}


@dataclass(frozen=True, slots=True)
class Method:
    name: str
    seed: str
    description: str
    options: type
    label: Callable[[Page, Any], Labels]
    #: keyword arguments of ``options`` for a named configuration (a variant)
    defaults: tuple[tuple[str, Any], ...] = ()

    def run(self, page: Page, options: Any = None) -> Labels:
        if options is None:
            options = self.options(**dict(self.defaults))
        labels = self.label(page, options)
        if labels.method != self.name:  # a variant or a group member labels under its own name
            labels = Labels(self.name, labels.labels, labels.details)
        return labels


def get(name: str) -> Method:
    """The method registered under ``name`` (or an alias or variant of it)."""
    target = ALIASES.get(name, name)
    if target in MODULES:
        return _load(importlib.import_module(MODULES[target]))
    if target in VARIANTS:
        base, defaults, description = VARIANTS[target]
        method = get(base)
        return Method(target, method.seed, description, method.options, method.label,
                      tuple(sorted(defaults.items())))
    for method in _grouped():
        if method.name == target:
            return method
    names = [*MODULES, *VARIANTS, *(m.name for m in _grouped()), *ALIASES]
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise UnknownMethod(f"unknown method {name!r} ({hint}known: {', '.join(names)})")


def require(spec: str) -> list[Method]:
    """The methods of a chain, each checked to be runnable here: a peer whose library is
    not installed raises :class:`MissingExtra` with the install hint now, before a batch
    turns every page into an error."""
    steps = chain(spec)
    from . import peers  # the peers' module imports nothing heavy; their libraries are checked

    for step in steps:
        if step.name in peers.PEERS and not peers.installed(step.name):
            raise MissingExtra(f"{step.name} needs the peers extra: {peers.INSTALL_HINT}")
    return steps


def _grouped() -> list[Method]:
    return [Method(*entry) for group in GROUPS
            for entry in importlib.import_module(group).registrations()]


def chain(spec: str) -> list[Method]:
    """The methods of a chain such as ``"baseline+eatiht"``, first to last."""
    names = [part.strip() for part in spec.split("+")]
    if not all(names):
        raise UnknownMethod(f"malformed method chain {spec!r}")
    return [get(name) for name in names]


def with_template(spec: str, template: str | None) -> dict[str, Any]:
    """Options giving a template file to every method of a chain that takes one."""
    return _with_field(spec, "template", template)


def with_comments(spec: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with ``comments=True`` for every method of the chain whose ``Options``
    has that field (keeping a model or template already set); an error when none has."""
    return _with_set(spec, options, "comments", True, f"--comments: no method of {spec!r} keeps comments "
                     "(try -m learned)")


def with_favor(spec: str, options: Mapping[str, Any], favor: str) -> dict[str, Any]:
    """``options`` with ``favor`` (``precision``, ``recall``, ``balanced``) for every method
    of the chain that takes it; an error when none does."""
    return _with_set(spec, options, "favor", favor, f"favor: no method of {spec!r} takes it (try -m learned)")


def with_page_type(spec: str, options: Mapping[str, Any], page_type: str) -> dict[str, Any]:
    """``options`` with the pages' kind (``auto``, ``article``, ``listing``…:
    :data:`detourage.learned.pagetype.TYPES`) for every method of the chain that takes it;
    an error when none does."""
    return _with_set(spec, options, "page_type", page_type,
                     f"--page-type: no method of {spec!r} takes it (try -m learned)")


def _with_set(spec: str, options: Mapping[str, Any], name: str, value: Any, error: str) -> dict[str, Any]:
    out = dict(options)
    for step in chain(spec):
        if _takes(step, name):
            base = out.get(step.name) or step.options(**dict(step.defaults))
            out[step.name] = dataclasses.replace(base, **{name: value})
    if out.keys() == options.keys() and all(out[k] is options[k] for k in out):
        raise DetourageError(error)
    return out


def fallback_of(spec: str) -> str:
    """The method that labels a page without a template (the template step's ``fallback``)."""
    found = [getattr(m.options(**dict(m.defaults)), "fallback", None) for m in chain(spec)]
    return next((f for f in found if f), "its fallback method")


def _takes(method: Method, name: str) -> bool:
    return name in getattr(method.options, "__dataclass_fields__", {})


def _with_field(spec: str, name: str, value: str | None) -> dict[str, Any]:
    """Options setting ``name`` on every method of a chain whose ``Options`` has that field
    (its variant's defaults kept); an error when none has it."""
    if value is None:
        return {}
    out = {m.name: m.options(**{**dict(m.defaults), name: value}) for m in chain(spec) if _takes(m, name)}
    if not out:
        raise UnknownMethod(f"--{name}: no method of {spec!r} takes a {name}")
    return out


def uses_template(spec: str) -> bool:
    """Whether a method of the chain takes a template (and so can be fitted on a batch)."""
    return any(_takes(m, "template") for m in chain(spec))


def available() -> list[Method]:
    """Every registered method and variant, in listing order."""
    return [*(get(name) for name in [*MODULES, *VARIANTS]), *_grouped()]


def _load(module: ModuleType) -> Method:
    return Method(module.NAME, module.SEED, module.DESCRIPTION, module.Options, module.label)
