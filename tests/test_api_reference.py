"""docs/api.md, the API reference mkdocstrings builds: every public name is there, in the
order a user needs them — the functions a user calls (``extract`` first), then the types,
then the errors, then the modules."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import detourage
from detourage import errors

API = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def entries() -> list[str]:
    """The objects of the page's ``::: name`` lines, in order."""
    return re.findall(r"^::: (\S+)", API.read_text(encoding="utf-8"), flags=re.MULTILINE)


def test_every_public_name_is_in_the_reference() -> None:
    documented = set(entries())
    error_names = {name for name, obj in vars(errors).items() if inspect.isclass(obj) and issubclass(obj, Exception)}
    for name in detourage.__all__:
        assert f"detourage.{name}" in documented or (name in error_names and "detourage.errors" in documented), name


def test_functions_then_types_then_errors_then_modules() -> None:
    names = [e.removeprefix("detourage.") for e in entries() if e != "detourage"]
    kinds = []
    for name in names:
        obj = getattr(detourage, name, None) if "." not in name else None
        kinds.append("function" if inspect.isfunction(obj) else "type" if inspect.isclass(obj)
                     else "errors" if name == "errors" else "module")
    order = ["function", "type", "errors", "module"]
    assert kinds == sorted(kinds, key=order.index), list(zip(names, kinds))
    assert names[0] == "extract"
    assert not any(inspect.isclass(getattr(detourage, n, None)) and issubclass(getattr(detourage, n), Exception)
                   for n in names)  # errors are documented once, under detourage.errors
