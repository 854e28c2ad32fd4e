"""The ``detourage`` command: a thin layer over the library (see ``detourage --help``).

One module per command group, each turning flags into library calls: :mod:`.extract`,
:mod:`.fetch`, :mod:`.evaluate` (with ``stats``), :mod:`.train` (with ``crossval`` and ``anno``),
:mod:`.template`, :mod:`.ui` (with ``methods``); :mod:`.main` holds the group and its
one-line error handling.
"""

from . import evaluate, extract, fetch, template, train, ui  # noqa: F401  (each adds its commands to main)
from .main import main

__all__ = ["main"]
