"""What the page declares of itself: JSON-LD ``articleBody`` and types, ``og:type``,
microdata item types, its own address (``<link rel=canonical>``, ``og:url``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ...model import Page
from ...segment import declared_elements


@dataclass(frozen=True, slots=True)
class Hints:
    """What the page says of itself: its title, body text and types."""

    #: ``og:title`` when given, else ``<title>``
    title: str
    #: JSON-LD articleBody/text/description and og:description, lower-cased, spaces collapsed
    body: str
    #: JSON-LD ``@type`` values, ``og:type`` and schema.org microdata ``itemtype`` values
    #: (but ``Comment``, which blogs and forums alike mark up), lower-cased
    types: frozenset[str]
    #: the address the page gives itself: ``<link rel=canonical>``'s ``href``, else
    #: ``og:url`` (as written: it may be relative), "" when it gives none
    address: str = ""


def page_hints(page: Page) -> Hints:
    """The page's ``og:`` metadata and JSON-LD, read from the tree."""
    tree = page.tree
    if tree is None:
        return Hints(page.title, "", frozenset())
    meta: dict[str, str] = {}
    scripts = []
    microdata: list[str] = []  # the itemtype values (Discourse declares its threads only so)
    canonical = ""
    # the segmentation's walk found them (the compiled one passes over the elements the
    # tests below reject outright); a page built by hand is walked here
    elements = page.declared if page.declared is not None else declared_elements(tree)
    for el in elements:
        itemtype = el.get("itemtype")
        if itemtype:
            microdata.append(itemtype)
        if el.tag == "script":
            if (el.get("type") or "").strip().lower() == "application/ld+json":
                scripts.append(el.text or "")
        elif el.tag == "meta":
            key = el.get("property") or el.get("name")
            if key and key.lower() in ("og:title", "og:description", "og:type", "og:url", "description"):
                meta.setdefault(key.lower(), el.get("content") or "")
        elif el.tag == "link" and not canonical and "canonical" in (el.get("rel") or "").lower().split():
            canonical = (el.get("href") or "").strip()
    bodies = [meta.get("og:description", ""), meta.get("description", "")]
    types = {meta.get("og:type", "").lower()}
    if microdata:
        types.update(t for t in map(str.lower, _ITEMTYPE.findall(" ".join(microdata))) if t != "comment")
    for text in scripts:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            continue
        _walk_ld(data, bodies, types, 0)
    body = " ".join(" ".join(bodies).lower().split())
    return Hints(meta.get("og:title") or page.title, body, frozenset(t for t in types if t),
                 canonical or meta.get("og:url", "").strip())


#: a schema.org type in an ``itemtype`` value (a list of URLs)
_ITEMTYPE = re.compile(r"https?://schema\.org/(\w+)", re.IGNORECASE)


def _walk_ld(node: object, bodies: list[str], types: set[str], depth: int) -> None:
    if depth > 8:
        return
    if isinstance(node, list):
        for item in node[:50]:
            _walk_ld(item, bodies, types, depth + 1)
    elif isinstance(node, dict):
        kind = node.get("@type")
        for t in kind if isinstance(kind, list) else [kind]:
            if isinstance(t, str):
                types.add(t.lower())
        for key in ("articleBody", "text", "description", "reviewBody"):
            value = node.get(key)
            if isinstance(value, str):
                bodies.append(value)
        for key, value in node.items():
            if isinstance(value, (dict, list)) and key != "@context":
                _walk_ld(value, bodies, types, depth + 1)

