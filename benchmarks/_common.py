"""What the benchmark scripts share: where the shared data is, their common options, tables.

The shared data folder sits beside the repository (``../shared``): the gold datasets in
``datasets/<name>/`` (``html/``, ``gold/``, ``meta.jsonl``) and those whose pages are
gzipped (wcxb-dev) in ``datasets-extra/<name>/``.  A script of this folder, run as
``python benchmarks/NAME.py``, has the folder on its import path and reads ``import
_common``; a study of ``studies/`` builds on them and runs with the folder on its path
(``PYTHONPATH=benchmarks python benchmarks/studies/NAME.py``).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from pathlib import Path

#: the repository
ROOT = Path(__file__).resolve().parents[1]
#: the shared data folder, beside the repository
SHARED = ROOT.parent / "shared"
#: the gold datasets, one folder each
DATASETS = SHARED / "datasets"
#: the gold datasets whose pages are gzipped (``html/<id>.html.gz``)
DATASETS_EXTRA = SHARED / "datasets-extra"


def every_dataset() -> list[Path]:
    """Every shared gold dataset's folder: those of :data:`DATASETS` by name, then wcxb-dev."""
    return [*sorted(p for p in DATASETS.glob("*") if (p / "html").is_dir()), DATASETS_EXTRA / "wcxb-dev"]


def add_shared(parser: argparse.ArgumentParser) -> None:
    """``--shared DIR``: the shared data folder (default: :data:`SHARED`)."""
    parser.add_argument("--shared", type=Path, default=SHARED, metavar="DIR",
                        help="the shared data folder (default: %(default)s)")


def add_datasets(parser: argparse.ArgumentParser, default: Path = DATASETS,
                 help: str = "folder holding the shared datasets (default: %(default)s)") -> None:
    """``--datasets DIR``: the folder holding the datasets (default: :data:`DATASETS`)."""
    parser.add_argument("--datasets", type=Path, default=default, metavar="DIR", help=help)


def add_json(parser: argparse.ArgumentParser, what: str = "every figure") -> None:
    """``--json PATH``: also write ``what`` to this file, as JSON."""
    parser.add_argument("--json", type=Path, default=None, metavar="PATH", help=f"also write {what} as JSON")


def table_row(cells: Iterable[object]) -> str:
    """One line of a Markdown table: ``| a | b |``."""
    return "| " + " | ".join(map(str, cells)) + " |"


def table_head(names: Sequence[object], align: str = "") -> str:
    """A Markdown table's head and the line under it.  One letter of ``align`` a column:
    ``r`` right, ``l`` left (also the columns past its end): ``"lr"`` gives ``|---|---:|``."""
    rule = "".join("---:|" if a == "r" else "---|" for a in align.ljust(len(names), "l"))
    return f"{table_row(names)}\n|{rule}"
