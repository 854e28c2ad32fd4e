"""The optional compiled twins, each beside the Python it twins: ``_csegment`` (segment),
``victor._cvictor``, ``learned._cfeatures``, ``learned._cforest`` and ``learned.rules._csteps``.

Each is built from its ``.pyx`` at install time when Cython and a C compiler are there
(``setup.py``); every one has a pure-Python (or numpy) twin that gives the same result.
``DETOURAGE_PURE_PYTHON=1`` makes every caller use the twins, to test or compare them.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def optional(name: str) -> ModuleType | None:
    """The compiled module ``detourage.<name>`` (``name`` dotted below the package:
    ``"learned._cforest"``), or None when it is not built or
    ``DETOURAGE_PURE_PYTHON`` is set."""
    if os.environ.get("DETOURAGE_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module(f"detourage.{name}")
    except ImportError:
        return None
