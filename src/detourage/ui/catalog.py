"""The pages an inspector session may show: from dataset folders or page files and
folders, each with a key, the root it may read files from, and where its annotation goes.

A dataset page's key is ``<dataset>/<id>``, the names ``pages.csv`` of ``detourage
evaluate`` uses, so the evaluation report can link to it; a page given as a file or
found in a folder is ``<folder>/<id>`` with its id as ``detourage extract`` names it.
Its *root* is the dataset folder, the folder given, or the file's folder: the URLs of the
files the inspector serves are relative to it, but only the files a page references inside
its own folder are served (:mod:`.assets`).  Its annotation is
``<annotations>/<group>/<id>.anno`` (``/`` in an id becomes ``__``), one folder per
dataset, which ``detourage train victor <annotations>/<group>`` reads.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DetourageError, UnknownPage
from ..gold import Dataset, GoldPage, load_dataset
from ..inputs import read_inputs
from ..loading import read_page
from ..settings import DEFAULT_LIMITS


@dataclass(frozen=True, slots=True)
class Entry:
    """One page of the session."""

    key: str
    group: str
    id: str
    path: Path
    root: Path
    #: the dataset page (its gold and metadata), None for a page given as a file
    doc: GoldPage | None = None
    url: str | None = None

    @property
    def lang(self) -> str:
        return self.doc.lang if self.doc is not None else "und"

    @property
    def has_gold(self) -> bool:
        """Whether the page has CleanEval gold text (block labels can be aligned to it)."""
        return self.doc is not None and self.doc.scorable and self.doc.gold_kind == "cleaneval"

    def read(self, max_bytes: int = DEFAULT_LIMITS.max_bytes) -> bytes:
        """The page's bytes (gunzipped for ``.html.gz``), as ``detourage extract`` reads
        them: :class:`~detourage.errors.LimitExceeded` beyond ``max_bytes``, a gzipped
        page unpacked no further than that; a file gone or broken is a DetourageError."""
        try:
            return read_page(str(self.path), max_bytes)
        except (OSError, EOFError, zlib.error) as exc:  # a corrupt .gz, a file removed since
            raise DetourageError(f"cannot read {self.path.name}: {exc}") from exc


@dataclass
class Catalog:
    """The session's pages in the order given, by key, and the datasets they come from."""

    entries: list[Entry] = field(default_factory=list)
    datasets: dict[str, Dataset] = field(default_factory=dict)
    roots: list[Path] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.by_key = {e.key: e for e in self.entries}

    def get(self, key: str) -> Entry:
        """The entry of ``key``; :class:`UnknownPage` for any other string."""
        entry = self.by_key.get(key)
        if entry is None:
            raise UnknownPage(f"no page {key!r} in this session")
        return entry

    def __len__(self) -> int:
        return len(self.entries)


def catalog(inputs: Sequence[str]) -> Catalog:
    """The pages of dataset folders (``html/`` + ``gold/``), page files and folders of pages;
    a page given twice is shown once, a group name given twice gets ``~2``."""
    entries: dict[Path, Entry] = {}
    datasets: dict[str, Dataset] = {}
    groups: set[str] = set()
    for item in inputs:
        path = Path(item)
        if (path / "html").is_dir() and (path / "gold").is_dir():
            dataset = load_dataset(path)
            group = _unique(dataset.name, groups)
            datasets[group] = dataset
            found = _dataset_entries(dataset, group)
        elif path.exists():
            root = (path if path.is_dir() else path.parent).resolve()
            group = _unique(root.name or "pages", groups)
            found = _page_entries(path, root, group)
        else:
            raise DetourageError(f"{item}: no such file or folder")
        groups.add(group)
        for entry in found:
            entries.setdefault(entry.path, entry)
    if not entries:
        raise DetourageError("no pages to show (give dataset folders, page files or folders of pages)")
    roots = list(dict.fromkeys(e.root for e in entries.values()))
    return Catalog(list(entries.values()), datasets, roots)


def _dataset_entries(dataset: Dataset, group: str) -> Iterable[Entry]:
    root = dataset.path.resolve()
    for doc in dataset.documents:
        yield Entry(f"{group}/{doc.id}", group, doc.id, doc.html_path.resolve(), root, doc,
                    doc.meta.get("url"))


def _page_entries(path: Path, root: Path, group: str) -> Iterable[Entry]:
    for job in read_inputs([str(path)]):
        assert job.path is not None  # read_inputs gives paths for files and folders
        yield Entry(f"{group}/{job.id}", group, job.id, Path(job.path).resolve(), root)


def _unique(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name~2``, ``name~3``… when it is taken."""
    taken = set(taken)
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}~{n}"
    return candidate


def annotation_path(folder: Path, entry: Entry) -> Path:
    """Where the ``.anno`` of ``entry`` is written under the annotations ``folder``."""
    name = entry.id.replace("/", "__").replace(os.sep, "__")
    return folder / entry.group / f"{name}.anno"


def inside(root: Path, relative: str) -> Path | None:
    """The file ``relative`` names under ``root``, or None when it is none or leads
    outside (``..``, an absolute path, a link to elsewhere)."""
    if "\x00" in relative:
        return None
    base = root.resolve()
    target = (base / relative).resolve()
    if not target.is_relative_to(base) or not target.is_file():
        return None
    return target
