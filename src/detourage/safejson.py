"""JSON read from inputs that may be hostile (JSON-lines corpora, ``--urls`` files): one
:func:`loads` whose every failure is a ``ValueError``.

``json.loads`` raises ``RecursionError`` on a value nested deeper than the interpreter's
recursion limit (about 1 000 levels: ``[[[[…]]]]``), and ``RecursionError`` is no
``ValueError``: a reader that catches only ``ValueError`` lets one such line end a whole
corpus run, and every ``--resume`` of it (issue 44).  Readers of input call this and catch
``ValueError`` alone; :class:`TooDeep` says which failure it was.
"""

from __future__ import annotations

import json
from typing import Any


class TooDeep(ValueError):
    """JSON nested deeper than the parser can follow."""


def loads(data: str | bytes | bytearray) -> Any:
    """``json.loads(data)``; any failure (invalid JSON, bytes that are not UTF-8, a value
    nested too deep) a ``ValueError``."""
    try:
        return json.loads(data)
    except RecursionError:
        raise TooDeep("JSON nested deeper than the parser can follow") from None
