"""Downstream tasks for the extrinsic (task-based) evaluation of cleaners (seed 002 §4.2–4.3).

A cleaner is judged by what a system placed after it achieves: the same downstream task
runs on gold-cleaned text (the "Référence" row of seed 002 Table 3) and on each method's
output, and the task's own scores are compared.  This module holds what every task
shares:

- :class:`TaskDocument`: the input of a task, a cleaned document as ``(kind, text)``
  blocks (``kind`` in ``p``/``h``/``l``, as in CleanEval output) with its language;
- :class:`Prediction` and :class:`TaskLabel`: one per document, from the task and from
  the dataset (``meta.jsonl``);
- :class:`Task`: the protocol (``name``, ``predict``, ``score``); the registry of tasks
  by name is :mod:`detourage.evaluation.tasks`;
- :func:`score_relevance`: relevance precision / recall / F1 per language and overall;
- :func:`load_task_dataset`: documents (gold texts, or a method's CleanEval outputs) and
  labels of a dataset folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from detourage.errors import DatasetError
from detourage.gold import GoldBlock, parse_cleaneval

#: (predicted, gold) -> index in the counts [tp, fp, fn, tn]
_CELLS = {(True, True): 0, (True, False): 1, (False, True): 2, (False, False): 3}


@dataclass(frozen=True, slots=True)
class TaskDocument:
    """A cleaned document as a downstream task sees it."""

    id: str
    lang: str
    #: ``(kind, text)`` in reading order; kind is ``"p"``, ``"h"`` or ``"l"``
    blocks: tuple[GoldBlock, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def texts(self) -> list[str]:
        return [text for _, text in self.blocks]


@dataclass(frozen=True, slots=True)
class Prediction:
    """What a task decided about one document."""

    id: str
    relevant: bool
    #: the task's confidence in ``relevant`` (for DANIEL: the best disease's score)
    score: float = 0.0
    #: the extracted event, e.g. ``("choléra", "Haiti")``; None when not relevant
    event: tuple[str, ...] | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TaskLabel:
    """The dataset's answer for one document."""

    id: str
    lang: str
    relevant: bool
    #: gold events, e.g. ``(("cholera", "Haiti", "12"),)``; empty when not relevant
    events: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class RelevanceScores:
    """Confusion counts and P/R/F1 in [0, 1]; None where undefined (seed 002's "N/A")."""

    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None
        return 2 * p * r / (p + r)

    @property
    def documents(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


@dataclass(frozen=True, slots=True)
class TaskScores:
    """A task's scores on a labelled set of documents."""

    task: str
    overall: RelevanceScores
    per_lang: Mapping[str, RelevanceScores]
    #: labelled documents that got no prediction (counted as "not relevant")
    missing: int = 0


class Task(Protocol):
    """A downstream system whose results measure the quality of the cleaning before it."""

    name: str

    def predict(self, doc: TaskDocument) -> Prediction: ...

    def score(
        self, predictions: Iterable[Prediction], labels: Mapping[str, TaskLabel]
    ) -> TaskScores: ...


def score_relevance(
    task: str, predictions: Iterable[Prediction], labels: Mapping[str, TaskLabel]
) -> TaskScores:
    """Relevance P/R/F1 over the labelled documents, per language and overall.

    A labelled document without a prediction counts as predicted "not relevant": a
    cleaner that lost the page gave the downstream system nothing to detect.
    Predictions for unlabelled documents are ignored.
    """
    predicted = {p.id: p.relevant for p in predictions}
    counts: dict[str, list[int]] = {}
    for label in labels.values():
        cell = _CELLS[predicted.get(label.id, False), label.relevant]
        counts.setdefault(label.lang, [0, 0, 0, 0])[cell] += 1
    per_lang = {lang: RelevanceScores(*c) for lang, c in sorted(counts.items())}
    total = [sum(c[i] for c in counts.values()) for i in range(4)]
    missing = sum(1 for doc_id in labels if doc_id not in predicted)
    return TaskScores(task, RelevanceScores(*total), per_lang, missing)


def read_labels(meta_path: Path) -> dict[str, TaskLabel]:
    """Labels from a dataset's ``meta.jsonl`` (``event_relevant``, ``event_annotations``)."""
    labels = {}
    for record in _read_jsonl(meta_path):
        if "event_relevant" not in record:
            continue
        events = tuple(
            tuple(str(x) for x in event)
            for event in record.get("event_annotations") or ()
            if list(event) != ["N", "N", "N"]  # DANIEL's "no event"
        )
        label = TaskLabel(record["id"], record.get("lang", ""), bool(record["event_relevant"]), events)
        labels[label.id] = label
    return labels


def load_task_dataset(
    dataset_dir: Path | str, texts_dir: Path | str | None = None
) -> tuple[list[TaskDocument], dict[str, TaskLabel]]:
    """The documents and labels of a dataset folder.

    Texts come from ``gold/<id>.txt`` (the reference run) or, when ``texts_dir`` is
    given, from ``<texts_dir>/<id>.txt`` (a cleaner's CleanEval output); a missing output
    file is an empty document.
    """
    root = Path(dataset_dir)
    labels = read_labels(root / "meta.jsonl")
    source = Path(texts_dir) if texts_dir is not None else root / "gold"
    docs = []
    for record in _read_jsonl(root / "meta.jsonl"):
        path = source / f"{record['id']}.txt"
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        blocks = tuple(parse_cleaneval(text))
        docs.append(TaskDocument(record["id"], record.get("lang", ""), blocks, record))
    return docs, labels


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    try:
        with path.open(encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]
    except (OSError, ValueError) as exc:
        raise DatasetError(f"cannot read {path}: {exc}") from exc
