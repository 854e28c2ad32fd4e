"""Kept lines that are a control, not text ("Click to expand...", "Show more")."""

from __future__ import annotations

import re

import numpy as np

from .. import features
from .paragraphs import lower_case


def drop_controls(para: features.Paragraphs, keep: np.ndarray) -> None:
    """Leave out the kept lines that are a control, not text: "Click to expand...",
    "Show more" (a forum quote's or a long post's toggle)."""
    lowered = lower_case(para)
    for i in (keep & (para.chars <= CONTROL_CHARS)).nonzero()[0].tolist():
        line = lowered[i].strip()
        if line.startswith(_CONTROL_STARTS) and _CONTROL.fullmatch(line):
            keep[i] = False


CONTROL_CHARS = 30
_CONTROL = re.compile(r"(?:click to (?:expand|shrink)|(?:show|see|view) (?:more|less)|expand|collapse)\s*(?:\.\.\.|…)?")
_CONTROL_STARTS = ("click", "show", "see", "view", "expand", "collapse")
