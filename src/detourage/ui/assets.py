"""The files beside the pages that the inspector may serve: exactly those a page
references (stylesheets, images, fonts, media) inside its own folder, and in turn what
those stylesheets reference, under the same rules.

A reference is followed only when it is a relative URL naming a regular file under the
page's folder, reached without a dot-file or a dot-folder (``.ssh``, ``.git``, ``.env``)
and without leaving the folder (``..``, an absolute path, a link to elsewhere).  A page
given as ``~/page.html`` thus exposes the images it shows, never the rest of the home
folder.  The page's own scripts are never listed: the shown page has none
(:func:`detourage.ui.markup.disarm`).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree

#: attributes whose value is one URL a shown page loads, on any element
URL_ATTRIBUTES = ("src", "poster", "background")
#: elements that load what their ``href`` names (a stylesheet, an icon, an SVG image);
#: a link a reader may follow (``<a href>``) is no asset
HREF_LOADERS = frozenset({"link", "image", "use", "feimage"})
#: attributes holding a list of image candidates, "URL [descriptor], …"
SRCSET_ATTRIBUTES = ("srcset", "imagesrcset")
#: how much of a stylesheet is read for its references: a real one is far smaller
MAX_STYLESHEET = 1 << 20
#: distinct references followed per page (each costs a look at the disk); a real page
#: loads a few hundred files at most, the rest of a hostile one is simply not served
MAX_REFERENCES = 10_000

_CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s"']*))\s*\)""", re.IGNORECASE)
_CSS_IMPORT = re.compile(r"""@import\s+(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)


def page_references(root: etree._Element) -> list[str]:
    """The URLs an (already disarmed) page may load: URL attributes, the ``href`` of
    stylesheets and SVG images, image candidates, and the ``url()`` and ``@import`` of its
    style attributes and ``<style>`` elements."""
    found: list[str] = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        found += [value for name in URL_ATTRIBUTES if (value := el.get(name))]
        if el.tag in HREF_LOADERS:
            found += [value for name in ("href", "xlink:href") if (value := el.get(name))]
        for name in SRCSET_ATTRIBUTES:
            found += _candidates(el.get(name) or "")
        found += css_references(el.get("style") or "")
        if el.tag == "style" and el.text:
            found += css_references(el.text)
    return found


def css_references(text: str) -> list[str]:
    """The URLs of a stylesheet's ``url(…)`` and ``@import "…"``."""
    if "url" not in text.lower() and "@import" not in text.lower():
        return []
    found = [next(g for g in m.groups() if g is not None) for m in _CSS_URL.finditer(text)]
    return found + [m.group(1) or m.group(2) or "" for m in _CSS_IMPORT.finditer(text)]


def _candidates(srcset: str) -> list[str]:
    """The URLs of a ``srcset`` ("a.png 1x, b.png 2x")."""
    return [words[0] for candidate in srcset.split(",") if (words := candidate.split())]


def servable(folder: Path, references: Iterable[str]) -> set[Path]:
    """The files of ``references`` (URLs written in a page of ``folder``) the inspector may
    serve, with the files the stylesheets among them reference in turn; resolved paths."""
    base = folder.resolve()
    found: set[Path] = set()
    todo = deque((base, reference) for reference in dict.fromkeys(references))
    seen = 0
    while todo and seen < MAX_REFERENCES:  # in the page's order, stylesheets' after
        where, reference = todo.popleft()
        seen += 1
        target = resolve(base, where, reference)
        if target is None or target in found:
            continue
        found.add(target)
        if target.suffix.lower() == ".css":
            todo.extend((target.parent, r) for r in css_references(_stylesheet(target)))
    return found


def resolve(base: Path, where: Path, reference: str) -> Path | None:
    """The file a relative URL written in ``where`` names, when it may be served: a regular
    file under ``base`` (a resolved folder), with no part of its path from ``base`` on
    starting with a dot; None otherwise (and for any URL with a scheme, a host or an
    absolute path, which the shown page never resolves to these files)."""
    parts = urlsplit(reference.strip())
    if parts.scheme or parts.netloc or not parts.path or parts.path.startswith(("/", "\\")):
        return None
    path = unquote(parts.path)
    if "\x00" in path or "\\" in path:
        return None
    target = (where / path).resolve()
    if not target.is_relative_to(base) or not target.is_file():
        return None
    if any(part.startswith(".") for part in target.relative_to(base).parts):
        return None
    return target


def _stylesheet(path: Path) -> str:
    """The start of a stylesheet, as text (a broken byte is no reference)."""
    try:
        with path.open("rb") as handle:
            return handle.read(MAX_STYLESHEET).decode("utf-8", "replace")
    except OSError:
        return ""
