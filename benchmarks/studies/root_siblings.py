"""The shared pages libxml2 parses into more than one top-level element, and what they lose.

    PYTHONPATH=benchmarks python benchmarks/studies/root_siblings.py      # ~1 min

Markup after a premature ``</body></html>``, a second document appended, or what follows
a broken ``<html …/>`` start tag goes, for libxml2, into a second top-level ``<html>``
beside the root, which no walk of the root sees; :func:`detourage.parse.one_root` moves
it into the body, as a browser reads it.  For every page of ``../shared/datasets`` and
``datasets-extra/wcxb-dev`` this parses the decoded text as libxml2 alone does (the
parser of :mod:`detourage.parse`, without ``one_root``), and lists the pages with such a
sibling: the characters of text it holds outside scripts and styles, against the root's.
"""

from __future__ import annotations

import sys

from lxml import etree

from detourage.decode import decode
from detourage.gold import load_dataset
from detourage.parse import _parser
from train_learned import dataset_paths

#: elements whose text no reader sees
_UNSEEN = frozenset({"script", "style", "template", "noscript"})


def visible_chars(el: etree._Element) -> int:
    """Characters of text under ``el``, outside :data:`_UNSEEN` elements (the text after
    one counts)."""
    count, todo = 0, [el]
    while todo:
        node = todo.pop()
        if node.tag in _UNSEEN:
            continue
        count += len((node.text or "").strip())
        for child in node:
            count += len((child.tail or "").strip())
            todo.append(child)
    return count


def main() -> int:
    total = with_sibling = 0
    rows: list[tuple[int, int, str]] = []
    for path in dataset_paths():
        for doc in load_dataset(path):
            total += 1
            text = decode(doc.read_html()).text.replace("\x00", "")
            try:
                root = etree.fromstring(text.encode("utf-8", "surrogatepass"), _parser())
            except (etree.ParserError, etree.XMLSyntaxError, ValueError):
                continue
            if root is None or root.getnext() is None:
                continue
            with_sibling += 1
            beside = sum(visible_chars(s) for s in root.itersiblings() if isinstance(s.tag, str))
            rows.append((beside, visible_chars(root), f"{path.name}/{doc.id}"))
    print(f"{with_sibling} of {total} pages have an element beside the root; "
          f"{sum(1 for r in rows if r[0])} of them with text there (characters beside the root, in it):")
    for beside, inside, page in sorted(rows, reverse=True):
        if beside:
            print(f"  {beside:8d} {inside:8d}  {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
