"""Training material for Victor: labelled pages from datasets and ``.anno`` files.

An input is one of

- a **dataset folder** (DESIGN.md layout: ``html/`` + ``gold/``): every scorable page is
  labelled from its gold by :mod:`.align`, with the alignment report kept;
- a **``.anno`` file** (seed 003 §2.3) or a folder of them: hand labels, attached to the
  page the file names (strictly: the annotation must match the page's blocks).

For ``.anno`` pages the gold text that cleaning is scored against is the annotated
content itself (the units the labels make).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DetourageError
from ..gold import GoldBlock, align, load_dataset, split_of
from ..model import Block, Label
from ..render import MARKERS, units
from . import anno


@dataclass(frozen=True, slots=True)
class Sample:
    """A labelled page: its blocks, their labels, and the gold text its output is scored on."""

    name: str
    dataset: str
    lang: str
    blocks: Sequence[Block]
    labels: Sequence[Label]
    gold: Sequence[GoldBlock]


@dataclass
class Material:
    """Samples gathered from the inputs, and what happened on the way."""

    samples: list[Sample] = field(default_factory=list)
    reports: list[align.Report] = field(default_factory=list)
    #: (input, reason) of pages left out (failed to load, no gold, bad annotation)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def gather(inputs: Iterable[str | Path], *, split: str | None = None,
           langs: Sequence[str] = (), limit: int | None = None,
           options: align.AlignOptions = align.AlignOptions(),
           progress: Callable[[int], None] | None = None) -> Material:
    """Samples from dataset folders and ``.anno`` files (see the module docstring).

    ``split`` keeps the pages of one half of the fixed split (:func:`split_of`),
    ``langs`` the pages of these languages, ``limit`` the first N pages (in the
    dataset's order) per dataset and language, or per folder of ``.anno`` files.
    ``progress`` is called with the number of dataset pages labelled so far, after each.
    """
    material = Material()
    for item in inputs:
        path = Path(item)
        if (path / "html").is_dir():
            _from_dataset(path, material, split, langs, limit, options, progress)
        elif path.is_dir() or path.suffix == ".anno":
            files = sorted(path.glob("*.anno")) if path.is_dir() else [path]
            if not files:
                raise DetourageError(f"{path}: neither a dataset folder (html/ + gold/) nor .anno files")
            for file in files[:limit]:
                _from_anno(file, material)
        else:
            raise DetourageError(f"{path}: neither a dataset folder (html/ + gold/) nor a .anno file")
    return material


def _from_dataset(path: Path, material: Material, split: str | None, langs: Sequence[str],
                  limit: int | None, options: align.AlignOptions,
                  progress: Callable[[int], None] | None = None) -> None:
    dataset = load_dataset(path)
    kinds = align.dataset_kinds(dataset) if options.kinds == "auto" else options.kinds
    opts = align.AlignOptions(threshold=options.threshold, kinds=kinds, unit=options.unit,
                         timeout=options.timeout)
    taken: Counter[str] = Counter()
    for doc in dataset.documents:
        if split is not None and split_of(dataset.name, doc.id) != split:
            continue
        if langs and doc.lang not in langs:
            continue
        if limit is not None and taken[doc.lang] >= limit:
            continue
        labelled = align.label_document(doc, opts, dataset=dataset.name)
        material.reports.append(labelled.report)
        if progress is not None:
            progress(len(material.reports))
        if labelled.page is None:
            material.skipped.append((f"{dataset.name}/{doc.id}", labelled.report.error or "failed"))
            continue
        taken[doc.lang] += 1
        material.samples.append(Sample(f"{dataset.name}/{doc.id}", dataset.name, doc.lang,
                                       labelled.page.blocks, labelled.labels, doc.gold_blocks))


def _from_anno(file: Path, material: Material) -> None:
    try:
        page, labels = anno.load_annotated(file)
    except DetourageError as exc:
        material.skipped.append((str(file), str(exc)))
        return
    gold = [(MARKERS[u.kind], u.text) for u in units(page.blocks, labels) if u.text]
    material.samples.append(Sample(str(file), file.parent.name, "und", page.blocks, labels, gold))
