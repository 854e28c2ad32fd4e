"""Training and tagging with a linear-chain CRF (CRFsuite through python-crfsuite).

Seed 003 used CRF++; CRFsuite is the maintained equivalent with Python bindings: the
same model (state features from the templates, label bigrams as transitions), trained by
L-BFGS with L1 (``c1``) and L2 (``c2``) regularisation.

A **model file** is a zip archive holding ``model.crfsuite`` (CRFsuite's binary model),
``victor.conf`` (the exact configuration it was trained with, ablations included, so the
features at tagging time are the features at training time) and ``meta.json`` (format,
training pages and their provenance, parameters, label counts, training time); and, when
it was trained with ``keep_data``, ``training.npz.xz``: its training pages as discretised
feature matrices and labels (no text), so that :func:`train_more` can retrain it on its
own pages plus a user's — the shipped model keeps them (0.7 MB).
"""

from __future__ import annotations

import io
import json
import lzma
import os
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import add
from pathlib import Path
from typing import Any

import numpy as np
import pycrfsuite

from ..errors import DetourageError, ModelError
from ..model import Block, Label
from ..shipped import model_bytes
from . import features
from .config import Config

FORMAT = "detourage-victor/1"
LABELS = {label.value: label for label in Label}


@dataclass
class CRFModel:
    """A trained CRF with its configuration; :meth:`tag` labels a page's blocks."""

    config: Config
    crf: bytes
    meta: dict[str, Any] = field(default_factory=dict)
    #: the training pages, when the model keeps them (see :meth:`training_data`)
    data: TrainingData | None = None
    #: ``training.npz.xz`` as read from a model file: decoded only when needed (0.2 s)
    packed_data: bytes | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._tagger = pycrfsuite.Tagger()
        self._tagger.open_inmemory(self.crf)
        self._weights = Weights.of(self._tagger, self.config)

    def tag(self, blocks: Sequence[Block]) -> tuple[Label, ...]:
        """Viterbi labels of the blocks, from the weight tables (no attribute strings)."""
        if not blocks:
            return ()
        return self._weights.viterbi(features.compute(blocks, self.config))

    def tag_crfsuite(self, blocks: Sequence[Block]) -> tuple[Label, ...]:
        """The same labels through CRFsuite's own tagger (the reference :meth:`tag` is
        checked against)."""
        if not blocks:
            return ()
        xseq = features.items(features.compute(blocks, self.config), self.config)
        return tuple(LABELS[y] for y in self._tagger.tag(xseq))

    def training_data(self) -> TrainingData | None:
        """The pages the model was trained on, if it kept them."""
        if self.data is None and self.packed_data is not None:
            self.data = TrainingData.from_bytes(self.packed_data, self.config,
                                                str(self.meta.get("name", "model")))
        return self.data

    def save(self, path: str | Path) -> None:
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
            z.writestr("model.crfsuite", self.crf)
            z.writestr("victor.conf", self.config.text)
            z.writestr("meta.json", json.dumps({**self.meta, "format": FORMAT,
                                                "disabled": list(self.config.disabled)}, indent=1))
            packed = self.data.to_bytes() if self.data is not None else self.packed_data
            if packed is not None:
                z.writestr("training.npz.xz", packed, compress_type=zipfile.ZIP_STORED)

    @classmethod
    def load(cls, path: str | Path) -> CRFModel:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise ModelError(f"cannot read Victor model {path}: {exc.strerror}") from None
        return cls.from_bytes(raw, str(path))

    @classmethod
    def from_bytes(cls, raw: bytes, name: str) -> CRFModel:
        try:
            with zipfile.ZipFile(io.BytesIO(raw)) as z:
                meta = json.loads(z.read("meta.json"))
                text = z.read("victor.conf").decode("utf-8")
                crf = z.read("model.crfsuite")
                data = z.read("training.npz.xz") if "training.npz.xz" in z.namelist() else None
        except (zipfile.BadZipFile, KeyError, ValueError) as exc:
            raise ModelError(f"{name}: not a Victor model ({exc})") from None
        if meta.get("format") != FORMAT:
            raise ModelError(f"{name}: not a Victor model (format {meta.get('format')!r})")
        config = Config.parse(text, f"{name}:victor.conf").without(*meta.get("disabled", []))
        return cls(config, crf, meta, packed_data=data)


@dataclass(frozen=True)
class TrainingData:
    """A model's training pages as the CRF saw them: discretised features and labels.

    ``values`` holds every page's feature matrix (``config.features`` columns) one after
    the other, ``lengths`` each page's number of blocks, ``labels`` one label per block;
    no text is kept.
    """

    names: tuple[str, ...]
    values: np.ndarray  # int8 [blocks, features]
    lengths: np.ndarray  # int64 [pages]
    labels: tuple[Label, ...]

    @classmethod
    def of(cls, matrices: Sequence[features.Matrix], labels: Sequence[Sequence[Label]]) -> TrainingData:
        names = matrices[0].names if matrices else ()
        width = len(names)
        values = np.concatenate([m.values for m in matrices]) if matrices else np.zeros((0, width))
        return cls(names, values.astype(np.int8), np.array([len(m.values) for m in matrices], dtype=np.int64),
                   tuple(y for page in labels for y in page))

    def pages(self) -> Iterable[tuple[features.Matrix, tuple[Label, ...]]]:
        at = 0
        for n in self.lengths.tolist():
            yield (features.Matrix(self.names, self.values[at:at + n].astype(np.int32)),
                   self.labels[at:at + n])
            at += n

    def to_bytes(self) -> bytes:
        order = list(LABELS)
        out = io.BytesIO()
        np.savez(out, names=np.array(self.names), values=self.values, lengths=self.lengths,
                 labels=np.array([order.index(y.value) for y in self.labels], dtype=np.int8),
                 label_names=np.array(order))
        return lzma.compress(out.getvalue())  # half the size of the npz's own deflate

    @classmethod
    def from_bytes(cls, raw: bytes, config: Config, name: str) -> TrainingData:
        try:
            with np.load(io.BytesIO(lzma.decompress(raw)), allow_pickle=False) as z:
                names = tuple(z["names"].tolist())
                order = z["label_names"].tolist()
                data = cls(names, z["values"], z["lengths"],
                           tuple(LABELS[order[k]] for k in z["labels"].tolist()))
        except (KeyError, ValueError, OSError, lzma.LZMAError) as exc:
            raise ModelError(f"{name}: unreadable training.npz.xz ({exc})") from None
        if names != config.features or not int(data.lengths.sum()) == len(data.values) == len(data.labels):
            raise ModelError(f"{name}: training.npz.xz does not match the model's features")
        return data


class Weights:
    """The CRF's weights as arrays: tagging is table lookups and a Viterbi pass.

    Building CRFsuite items means one string per (block, attribute) — most of the cost of
    tagging a page.  The model is linear in one-hot attributes, so the state score of a
    block is a sum of table entries indexed by its discretised feature values; the
    tables come from CRFsuite's own dump of the model (weights printed to 6 decimals).
    """

    def __init__(self, labels: list[str], tables: list[tuple[int, np.ndarray, np.ndarray]],
                 extras: dict[str, np.ndarray], transitions: np.ndarray) -> None:
        self.labels = tuple(LABELS[y] for y in labels)
        #: per offset: matrix columns, their weights flattened to [column × MAX_VALUE + value, L]
        #: and each column's first row in that table
        self.tables = [(o, cols, table.reshape(-1, table.shape[-1]),
                        np.arange(len(cols), dtype=np.intp) * table.shape[1]) for o, cols, table in tables]
        self.extras = extras  # bias → weights[L]
        self.transitions = transitions  # [from, to]

    @classmethod
    def of(cls, tagger: pycrfsuite.Tagger, config: Config) -> Weights:
        info = tagger.info()
        labels = sorted(info.labels, key=lambda y: int(info.labels[y]))
        index = {y: k for k, y in enumerate(labels)}
        names = config.features
        column = {name: j for j, name in enumerate(names)}
        groups = features.template_columns(config, names)
        slots = {o: {c: i for i, c in enumerate(cols)} for o, cols in groups}
        tables = {o: np.zeros((len(cols), features.MAX_VALUE, len(labels))) for o, cols in groups}
        extras = {"bias": np.zeros(len(labels))}
        for (attr, y), w in info.state_features.items():
            if attr in extras:
                extras[attr][index[y]] = w
                continue
            if "=" not in attr:
                raise ModelError(f"attribute {attr!r} of the CRF is not one this version makes: "
                                 "retrain the model")
            offset, name, value = _split_attribute(attr)
            slot = slots.get(offset, {}).get(column.get(name, -1))
            if slot is not None:
                tables[offset][slot, value, index[y]] = w
        trans = np.zeros((len(labels), len(labels)))
        for (a, b), w in info.transitions.items():
            trans[index[a], index[b]] = w
        return cls(labels, [(o, np.asarray(cols, dtype=np.intp), tables[o]) for o, cols in groups], extras, trans)

    def viterbi(self, matrix: features.Matrix) -> tuple[Label, ...]:
        compiled = features._compiled
        if compiled is not None:
            scores = compiled.state_scores(matrix.values, self.tables, self.extras["bias"])
            return tuple(self.labels[k] for k in compiled.best_path(scores, self.transitions))
        values = matrix.values
        n = len(values)
        scores = np.tile(self.extras["bias"], (n, 1))
        for offset, cols, flat, first in self.tables:
            lo, hi = max(0, -offset), min(n, n - offset)
            if lo >= hi:
                continue
            rows = values[lo + offset:hi + offset].take(cols, axis=1)
            rows += first
            scores[lo:hi] += flat.take(rows, axis=0).sum(axis=1)
        return tuple(self.labels[k] for k in _best_path(scores, self.transitions))


def _split_attribute(attr: str) -> tuple[int, str, int]:
    """``"-1:split.p=2"`` → (-1, "split.p", 2)."""
    offset = 0
    if attr[0] in "+-" and ":" in attr:
        head, attr = attr.split(":", 1)
        offset = int(head)
    name, value = attr.rsplit("=", 1)
    return offset, name, int(value)


def _best_path(scores: np.ndarray, transitions: np.ndarray) -> list[int]:
    """Viterbi over per-block label scores and label-bigram weights (plain lists and
    C-level map/max: with a handful of labels numpy's per-call cost would dominate)."""
    rows = scores.tolist()
    into = transitions.T.tolist()  # into[b][a]: weight of a → b
    best = rows[0]
    back: list[list[int]] = []
    for row in rows[1:]:
        pointers = []
        new = []
        for column, here in zip(into, row):
            candidates = list(map(add, best, column))
            top = max(candidates)
            pointers.append(candidates.index(top))
            new.append(top + here)
        back.append(pointers)
        best = new
    path = [best.index(max(best))]
    for pointers in reversed(back):
        path.append(pointers[path[-1]])
    return path[::-1]


@dataclass(frozen=True, slots=True)
class Example:
    """One training page: its blocks and their gold labels."""

    blocks: Sequence[Block]
    labels: Sequence[Label]
    name: str = ""


def train(examples: Iterable[Example], config: Config, *, c1: float | None = None,
          c2: float | None = None, max_iterations: int | None = None,
          provenance: dict[str, Any] | None = None, verbose: bool = False,
          keep_data: bool = False, base: CRFModel | None = None) -> CRFModel:
    """L-BFGS training on labelled pages; parameters default to the configuration's.

    ``keep_data`` stores the training pages in the model (:class:`TrainingData`);
    ``base``, a model that kept its pages, adds them to the examples (:func:`train_more`).
    """
    params = {**config.crf_parameters}
    for key, value in (("c1", c1), ("c2", c2), ("max_iterations", max_iterations)):
        if value is not None:
            params[key] = value
    trainer = pycrfsuite.Trainer(algorithm="lbfgs", verbose=verbose)
    trainer.set_params({**params, "feature.possible_transitions": True})
    names: list[str] = []
    counts: Counter[str] = Counter()
    matrices: list[features.Matrix] = []
    labels: list[Sequence[Label]] = []
    start = time.perf_counter()
    kept = base.training_data() if base is not None else None
    if base is not None:
        if kept is None:
            raise DetourageError("the base model does not keep its training pages: retrain it with "
                                 "keep_data (detourage train victor --keep-data)")
        if kept.names != config.features:
            raise DetourageError("the base model's training pages have other features than this "
                                 "configuration: retrain with the base's (train_more)")
        for matrix, page_labels in kept.pages():
            trainer.append(features.items(matrix, config), [label.value for label in page_labels])
            counts.update(label.value for label in page_labels)
            if keep_data:
                matrices.append(matrix)
                labels.append(page_labels)
    for example in examples:
        if not example.blocks:
            continue
        if len(example.blocks) != len(example.labels):
            raise ValueError(f"{example.name}: {len(example.labels)} labels for {len(example.blocks)} blocks")
        matrix = features.compute(example.blocks, config)
        trainer.append(features.items(matrix, config), [label.value for label in example.labels])
        names.append(example.name)
        counts.update(label.value for label in example.labels)
        if keep_data:
            matrices.append(matrix)
            labels.append(example.labels)
    if not names:
        raise DetourageError("no training page with blocks")
    crf = _fit(trainer)
    meta = {"pages": len(names), "names": names, "labels": dict(counts), "parameters": params,
            "features": list(config.features), "seconds": round(time.perf_counter() - start, 1),
            "provenance": provenance or {}}
    if base is not None:
        meta["base"] = {"name": base.meta.get("name", "model"),
                        "pages": len(kept.lengths)}  # type: ignore[union-attr]  # kept: set with base above
    return CRFModel(config, crf, meta, TrainingData.of(matrices, labels) if keep_data else None)


def train_more(base: CRFModel, examples: Iterable[Example], *, keep_data: bool = False,
               provenance: dict[str, Any] | None = None, verbose: bool = False) -> CRFModel:
    """The base model retrained on its own training pages plus ``examples`` ("train for your
    genre" on top of the shipped model): same configuration and CRF parameters as the base."""
    params = base.meta.get("parameters", {})
    return train(examples, base.config, c1=params.get("c1"), c2=params.get("c2"),
                 max_iterations=params.get("max_iterations"), provenance=provenance, verbose=verbose,
                 keep_data=keep_data, base=base)


def _fit(trainer: pycrfsuite.Trainer) -> bytes:
    """Run the trainer into a temporary file and return the model's bytes."""
    fd, tmp = tempfile.mkstemp(suffix=".crfsuite")
    os.close(fd)
    try:
        trainer.train(tmp)
        return Path(tmp).read_bytes()
    finally:
        os.unlink(tmp)


@lru_cache(maxsize=8)
def load_model(path: str | None = None) -> CRFModel:
    """A model file, or the shipped default (``data/victor-default.zip``), loaded once."""
    if path is not None:
        return CRFModel.load(path)
    raw = model_bytes(DEFAULT_MODEL, "Victor model", "python benchmarks/train_victor.py --write", ModelError)
    return CRFModel.from_bytes(raw, DEFAULT_MODEL)


DEFAULT_MODEL = "victor-default.zip"
