"""Griffe extension for the API reference (mkdocs.yml loads it for mkdocstrings).

- A public name that shadows its own module: ``detourage/__init__.py`` does
  ``from .render import render`` (and the same for ``decode``). At run time
  ``detourage.render`` is the function, but Griffe's static view keeps the submodule
  under that name, so mkdocstrings would not show the function. For each name of the
  package's ``__all__`` that Griffe holds as a submodule with a member of the same name,
  an alias to that member takes the module's place. No module path is written here, so
  the reference follows the code when modules move.
- The docstrings use reST roles (``:class:`Page```); mkdocstrings renders Markdown, so
  each role becomes inline code (```Page```).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):`~?([^`]+)`")


class PublicNames(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        _plain_roles(pkg)
        for name in pkg.exports or ():
            member = pkg.members.get(name)
            if isinstance(member, griffe.Module) and name in member.members:
                pkg.set_member(name, griffe.Alias(name, member.members[name], parent=pkg))


def _plain_roles(obj: griffe.Object) -> None:
    """Every docstring under ``obj``, its reST roles turned into inline code."""
    if obj.docstring is not None:
        obj.docstring.value = ROLE.sub(r"`\1`", obj.docstring.value)
    for member in obj.members.values():
        if not member.is_alias:
            _plain_roles(member)
