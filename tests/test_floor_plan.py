"""The floor plan: which room may import which (docs/development.md, "The floor plan").

:data:`FLOORS` is the plan, ground floor first: each room (a module or a package, named
from ``detourage``) on its floor.  A module belongs to the room of its longest matching
name (``learned.train`` is a room apart from ``learned``).  The test reads every module
of ``src/detourage`` with :mod:`ast` and fails on:

- a module no room holds (a new module takes its floor here, and in the doc);
- an import from a lower floor to a higher one (a room may import its own floor and
  those below);
- a circle between modules.

Every import counts wherever it stands: at the top of a module, inside a function, under
``if TYPE_CHECKING``.  A lazy import is how a module waits for an optional extra (Dask,
pyarrow, flask, the peers) or for a heavy module until it is needed; it hides no edge:
the extras themselves are not detourage's and are not in the graph, and the detourage
module that needs them sits on its floor like any other.  Names resolved at run time
(the method registry's ``importlib.import_module("detourage.methods.…")``) are not seen;
the registry names only modules of its own room.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src"
DEVELOPMENT = ROOT / "docs" / "development.md"

#: the floors, ground first: (what the floor is for, its rooms)
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ground: errors, settings and every shared default, tools that import nothing of detourage",
     ("errors", "version", "settings", "compiled", "shipped", "tables", "codings", "safejson")),
    ("the page model, decoding, parsing",
     ("model", "decode", "parse")),
    ("blocks and what the renderers read of a page",
     ("segment", "reveal", "structure", "credits", "formulas", "metadata", "formats")),
    ("bytes + settings → a loaded page",
     ("loading",)),
    ("the supervision of one bounded page",
     ("bounded", "supervision")),
    ("renderers",
     ("render",)),
    ("methods and what they are made of",
     ("methods", "learned", "victor", "site")),
    ("a page through a method; gold data and training",
     ("pipeline", "gold", "learned.train", "victor.training", "victor.anno")),
    ("batches: the corpus step, readers and writers",
     ("step", "inputs", "output")),
    ("corpus runs, fetching, evaluation, cross-validation, the inspector",
     ("corpusrun", "web", "evaluation", "crossval", "ui")),
    ("the public faces and the command line",
     ("api", "corpus", "compat", "integrations", "cli", "__main__", "")),
)

#: imports the plan forbids that are still made, each with the edit that ends it (none now;
#: a check below fails when an entry is no longer needed)
PENDING: dict[tuple[str, str], str] = {}


def room_floors() -> dict[str, int]:
    return {room: floor for floor, (_, rooms) in enumerate(FLOORS) for room in rooms}


def module_name(path: Path) -> str:
    """``learned.features.text`` for src/detourage/learned/features/text.py; ``""`` for the package."""
    parts = list(path.relative_to(SOURCE / "detourage").with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SOURCE / "detourage").rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> Iterator[tuple[str, int]]:
    """The detourage modules a module imports (relative to ``detourage``), with the line."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    package = [p for p in package if p]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names if a.name.split(".")[0] == "detourage"]
            yield from ((_known(t.partition(".")[2], known), node.lineno) for t in targets)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            elif (node.module or "").split(".")[0] == "detourage":
                module = (node.module or "").partition(".")[2]
            else:
                continue
            for alias in node.names:  # `from . import x` imports the module x when there is one
                full = f"{module}.{alias.name}" if module else alias.name
                yield _known(full if full in known else module, known), node.lineno


def _known(module: str, known: set[str]) -> str:
    """The module itself, or the nearest package holding it (a name imported from it)."""
    while module not in known and module:
        module = module.rpartition(".")[0]
    return module


def room_of(module: str, rooms: dict[str, int]) -> str | None:
    candidates = [r for r in rooms if module == r or (r and module.startswith(r + ".")) or (r == "" and module == "")]
    return max(candidates, key=len) if candidates else None


def graph() -> dict[str, dict[str, int]]:
    """module → {imported module: line of the first import}."""
    found = modules()
    known = set(found)
    out: dict[str, dict[str, int]] = {}
    for name, path in found.items():
        edges: dict[str, int] = {}
        for target, line in imported(name, path, known):
            if target != name:
                edges.setdefault(target, line)
        out[name] = edges
    return out


def circles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def upward(edges: dict[str, dict[str, int]]) -> list[str]:
    rooms = room_floors()
    out = []
    for module, targets in sorted(edges.items()):
        here = room_of(module, rooms)
        for target, line in sorted(targets.items()):
            there = room_of(target, rooms)
            if here is None or there is None or (module, target) in PENDING:
                continue
            if rooms[there] > rooms[here]:
                out.append(f"{module or 'detourage'} (floor {rooms[here]}, line {line}) imports "
                           f"{target or 'detourage'} (floor {rooms[there]})")
    return out


def floor_table() -> str:
    """The plan as the Markdown table docs/development.md shows."""
    lines = ["| floor | rooms | what the floor is for |", "|---:|---|---|"]
    for floor, (purpose, rooms) in enumerate(FLOORS):
        names = ", ".join(f"`{r}`" if r else "`detourage` (the package)" for r in rooms)
        lines.append(f"| {floor} | {names} | {purpose} |")
    return "\n".join(lines)


def test_every_module_has_a_room() -> None:
    rooms = room_floors()
    homeless = [m for m in modules() if room_of(m, rooms) is None]
    assert not homeless, f"modules on no floor of FLOORS (give each its room): {homeless}"


def test_no_import_climbs_to_a_higher_floor() -> None:
    found = upward(graph())
    assert not found, "imports from a lower floor to a higher one:\n" + "\n".join(found)


def test_no_circle_between_modules() -> None:
    edges = graph()
    for module, target in PENDING:
        edges[module].pop(target, None)
    found = circles(edges)
    assert not found, f"modules that import each other, directly or through others: {found}"


def test_the_pending_imports_are_still_there() -> None:
    """An exception of :data:`PENDING` whose import is gone goes too."""
    edges = graph()
    gone = [pair for pair in PENDING if pair[1] not in edges.get(pair[0], {})]
    assert not gone, f"remove from PENDING, the import is gone: {gone}"


def test_the_documented_plan_is_this_one() -> None:
    if not DEVELOPMENT.is_file():
        pytest.skip("no docs/development.md")
    assert floor_table() in DEVELOPMENT.read_text(encoding="utf-8"), (
        "docs/development.md's floor table differs from FLOORS; paste:\n" + floor_table())


def test_the_checks_see_a_climb_and_a_circle() -> None:
    """The checks themselves: an upward import and a circle in a made-up graph are found."""
    made_up = {"settings": {"api": 3}, "api": {"settings": 1}}
    assert upward(made_up) == ["settings (floor 0, line 3) imports api (floor 10)"]
    assert circles(made_up) == [["api", "settings"]]
    assert circles({"a": {"b": 1}, "b": {}}) == []
