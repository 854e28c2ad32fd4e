"""The registry of methods.

A method is a module with ``NAME``, ``SEED``, ``DESCRIPTION``, a frozen keyword-only
``Options`` dataclass and ``label(page, options) -> Labels``; it labels the page's blocks
and owns nothing else.  Chains (``a+b``, seed 002 §3) are run by :mod:`detourage.api`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

from ..errors import UnknownMethod
from ..model import Labels, Page

#: name → module, in the order ``detourage methods`` lists them
MODULES = {
    "fulltext": "detourage.methods.fulltext",
    "baseline": "detourage.methods.baseline",
    "eatiht": "detourage.methods.eatiht",
}

#: ``default`` names the method with the best mean F1 over the shared datasets
#: (see README, "Choosing the default"); until that table exists it is ``eatiht``.
ALIASES = {"default": "eatiht"}


@dataclass(frozen=True, slots=True)
class Method:
    name: str
    seed: str
    description: str
    options: type
    label: Callable[[Page, Any], Labels]

    def run(self, page: Page, options: Any = None) -> Labels:
        return self.label(page, options if options is not None else self.options())


def get(name: str) -> Method:
    """The method registered under ``name`` (or an alias of it)."""
    target = ALIASES.get(name, name)
    if target not in MODULES:
        known = ", ".join([*MODULES, *ALIASES])
        raise UnknownMethod(f"unknown method {name!r} (known: {known})")
    return _load(importlib.import_module(MODULES[target]))


def chain(spec: str) -> list[Method]:
    """The methods of a chain such as ``"baseline+eatiht"``, first to last."""
    names = [part.strip() for part in spec.split("+")]
    if not all(names):
        raise UnknownMethod(f"malformed method chain {spec!r}")
    return [get(name) for name in names]


def available() -> list[Method]:
    """Every registered method, in listing order."""
    return [get(name) for name in MODULES]


def _load(module: ModuleType) -> Method:
    return Method(module.NAME, module.SEED, module.DESCRIPTION, module.Options, module.label)
