"""The ``detourage`` command: a thin layer over the library (see ``detourage --help``).

One module per command group, each turning flags into library calls: :mod:`.extract`,
:mod:`.fetch`, :mod:`.evaluate` (with ``stats``), :mod:`.train`, :mod:`.crossval`,
:mod:`.anno`, :mod:`.template`, :mod:`.ui`, :mod:`.methods`; :mod:`.main` holds the group
and its one-line error handling.
"""

from . import anno, crossval, evaluate, extract, fetch, methods, template, train, ui  # noqa: F401 - each adds its commands to main
from .main import main

__all__ = ["main"]
