"""Markdown tables as detourage's reports print them: numeric columns right-aligned,
cells on one line with Markdown's markup characters escaped."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

NUMERIC = re.compile(r"^(N/A|[-+]?[\d,.]+( \[[\d.]+–[\d.]+\])?( \(.*\))?)$")


def numeric_columns(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[bool]:
    """Columns whose every cell is a number (or N/A), to be right-aligned."""
    return [bool(rows) and all(NUMERIC.match(r[i]) for r in rows) for i in range(len(headers))]


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table; numeric columns right-aligned, '|' escaped."""
    cells = [[md_cell(c) for c in row] for row in rows]
    head = [md_cell(h) for h in headers]
    rule = ["---:" if n else "---" for n in numeric_columns(head, cells)]
    lines = [head, rule, *cells]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines) + "\n"


def md_cell(value: Any) -> str:
    """One line, with the characters Markdown would read as markup backslash-escaped."""
    return re.sub(r"([\\|<*`])", r"\\\1", " ".join(str(value).split()))
