"""A gradient-boosted tree ensemble as plain arrays, and the model file that holds it.

Training uses scikit-learn's ``HistGradientBoostingClassifier`` (:mod:`.train`); running
needs only numpy: the trees are flattened into one node table (feature, threshold,
left, right, leaf value) and scored by :func:`raw_scores`, which uses the compiled
``detourage.learned._cforest`` when it is built and a vectorised numpy walk otherwise (the two
agree to float rounding; the test suite checks it).  A model file is a zip holding
``forest.npz`` and ``meta.json`` (feature names, decision threshold, training
provenance).
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..compiled import optional
from ..errors import ModelError
from ..shipped import model_bytes
from . import context

FORMAT = "detourage-learned/1"
DEFAULT_MODEL = "learned-default.zip"


@dataclass(frozen=True, eq=False)
class Forest:
    """Trees flattened into one node table; tree ``t`` starts at node ``roots[t]``.

    A node is a leaf when ``left[i] < 0``; otherwise a row goes left when
    ``X[row, feature[i]] <= threshold[i]``.  The raw score of a row is ``bias`` plus the
    value of the leaf it reaches in every tree (a log-odds for a binary classifier).
    """

    feature: np.ndarray  # int32
    threshold: np.ndarray  # float64
    left: np.ndarray  # int32, -1 for leaves
    right: np.ndarray  # int32
    value: np.ndarray  # float64
    roots: np.ndarray  # int32
    bias: float

    @classmethod
    def from_sklearn(cls, model: Any) -> Forest:
        """The trees of a fitted binary ``HistGradientBoostingClassifier``.

        Reads its predictors' node tables (``_predictors[i][0].nodes``, the layout
        scikit-learn ≥ 1.0 uses); categorical splits are not supported (we train none).
        """
        feature, threshold, left, right, value, roots = [], [], [], [], [], []
        offset = 0
        for (predictor,) in model._predictors:
            nodes = predictor.nodes
            if nodes["is_categorical"].any():
                raise ModelError("categorical splits are not supported")
            leaf = nodes["is_leaf"].astype(bool)
            roots.append(offset)
            feature.append(np.where(leaf, 0, nodes["feature_idx"]).astype(np.int32))
            threshold.append(nodes["num_threshold"].astype(np.float64))
            left.append(np.where(leaf, -1, nodes["left"].astype(np.int64) + offset).astype(np.int32))
            right.append(np.where(leaf, -1, nodes["right"].astype(np.int64) + offset).astype(np.int32))
            value.append(np.where(leaf, nodes["value"], 0.0))
            offset += len(nodes)
        bias = float(np.ravel(model._baseline_prediction)[0])
        return cls(np.concatenate(feature), np.concatenate(threshold), np.concatenate(left),
                   np.concatenate(right), np.concatenate(value), np.array(roots, np.int32), bias)

    @classmethod
    def mean(cls, forests: Sequence[Forest]) -> Forest:
        """One forest scoring the mean log-odds of ``forests`` (bagging): their trees
        in one table, leaf values and biases divided by their number."""
        k = len(forests)
        offsets = np.cumsum([0] + [len(f.feature) for f in forests[:-1]])

        def shifted(children: np.ndarray, offset: int) -> np.ndarray:
            return np.where(children < 0, -1, children + offset).astype(np.int32)

        return cls(np.concatenate([f.feature for f in forests]),
                   np.concatenate([f.threshold for f in forests]),
                   np.concatenate([shifted(f.left, o) for f, o in zip(forests, offsets)]),
                   np.concatenate([shifted(f.right, o) for f, o in zip(forests, offsets)]),
                   np.concatenate([f.value for f in forests]) / k,
                   np.concatenate([f.roots + o for f, o in zip(forests, offsets)]).astype(np.int32),
                   sum(f.bias for f in forests) / k)

    @property
    def trees(self) -> int:
        return len(self.roots)

    @cached_property
    def threshold32(self) -> np.ndarray:
        """Each threshold as the largest float32 at most equal to it: a float32 feature is
        at most the one exactly when it is at most the other (the compiled walk compares
        in float32)."""
        rounded = self.threshold.astype(np.float32)
        above = rounded.astype(np.float64) > self.threshold
        rounded[above] = np.nextafter(rounded[above], np.float32(-np.inf))
        return rounded

    def raw_scores(self, X: np.ndarray) -> np.ndarray:
        """Log-odds of every row of ``X`` (float32 or float64, rows × features)."""
        X = np.ascontiguousarray(X, dtype=np.float32)
        if not len(X):
            return np.zeros(0)
        if _compiled is not None:
            nodes, value, roots = self.packed
            return _compiled(X, nodes, value, roots, self.bias)
        return self.raw_scores_numpy(X)

    @cached_property
    def packed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The node table as the compiled walk reads it: one record a node
        (:data:`NODE`: its :attr:`threshold32`, its feature or -1 for a leaf, its right
        child), its left child the next record, then the leaf values and the roots in the
        same numbering.  Trees whose nodes are in depth-first order (scikit-learn writes
        them so) keep it; others are renumbered into it."""
        order = _depth_first(self.left, self.right, self.roots)
        number = np.full(len(self.left), -1, np.int64)
        number[order] = np.arange(len(order))
        leaf = self.left[order] < 0
        nodes = np.zeros(len(order), NODE)
        nodes["threshold"] = self.threshold32[order]
        nodes["feature"] = np.where(leaf, -1, self.feature[order])
        nodes["right"] = np.where(leaf, -1, number[np.maximum(self.right[order], 0)])
        return nodes, np.ascontiguousarray(self.value[order]), number[self.roots].astype(np.int32)

    def raw_scores_numpy(self, X: np.ndarray) -> np.ndarray:
        """The reference walk: every (row, tree) pair moves down one level per step."""
        X = np.asarray(X, dtype=np.float32)
        rows = np.repeat(np.arange(len(X)), self.trees)
        node = np.tile(self.roots, len(X)).astype(np.int64)
        active = np.flatnonzero(self.left[node] >= 0)
        while len(active):
            at = node[active]
            go_left = X[rows[active], self.feature[at]] <= self.threshold[at]
            node[active] = np.where(go_left, self.left[at], self.right[at])
            active = active[self.left[node[active]] >= 0]
        return self.bias + self.value[node].reshape(len(X), self.trees).sum(axis=1)

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.raw_scores(X)))

    def arrays(self) -> dict[str, np.ndarray]:
        return {"feature": self.feature, "threshold": self.threshold, "left": self.left,
                "right": self.right, "value": self.value, "roots": self.roots,
                "bias": np.array([self.bias])}


#: a node of :attr:`Forest.packed` (the compiled walk's ``Node``)
NODE = np.dtype([("threshold", np.float32), ("feature", np.int32), ("right", np.int32), ("unused", np.int32)])


def _depth_first(left: np.ndarray, right: np.ndarray, roots: np.ndarray) -> np.ndarray:
    """The nodes in depth-first order, each node's left child right after it: the
    identity when they are already (one comparison), else the nodes the roots reach."""
    inner = (left >= 0).nonzero()[0]
    if (left[inner] == inner + 1).all():
        return np.arange(len(left))
    order: list[int] = []
    for root in roots.tolist():
        stack = [root]
        while stack:
            node = stack.pop()
            order.append(node)
            if left[node] >= 0:
                stack += [int(right[node]), int(left[node])]
    return np.array(order, np.int64)


@dataclass
class Model:
    """Forests, the feature names they were trained on, the threshold and provenance.

    ``forest`` scores the paragraphs' own features; ``second``, when present, scores
    them again with the first stage's probabilities around each paragraph appended
    (:mod:`.context`), and its probability decides.
    """

    forest: Forest
    names: tuple[str, ...]
    #: probability at or above which a paragraph is content (``favor="balanced"``)
    threshold: float = 0.5
    meta: dict[str, Any] = field(default_factory=dict)
    second: Forest | None = None
    #: the feature names last found to fit (``features.names()``, the same object at
    #: every call): checked once, not on every page
    _fits: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)

    def check(self, names: tuple[str, ...]) -> None:
        """Refuse a model trained on other features than the running code computes."""
        if names is self._fits:
            return
        if tuple(names) != self.names:
            missing = sorted(set(self.names) ^ set(names))[:5]
            raise ModelError(f"model {self.meta.get('name', '?')!r} was trained on other features "
                             f"({len(self.names)} vs {len(names)}; differing: {', '.join(missing) or 'order'}): "
                             "retrain it with `detourage train learned`")
        if self.second is not None and tuple(self.meta.get("context", ())) != context.names():
            raise ModelError(f"model {self.meta.get('name', '?')!r} was trained on other second-stage "
                             "features: retrain it with `detourage train learned`")
        self._fits = names

    def probabilities(self, page: Any, X: np.ndarray | None = None) -> np.ndarray:
        """Content probability of every paragraph of ``page`` (a
        :class:`~.features.Paragraphs`, or anything with its ``X``, ``spans``, ``chars``
        and ``signature``); ``X`` replaces the page's features."""
        X = page.X if X is None else X
        q = self.forest.probabilities(X)
        if self.second is None:
            return q
        around = context.compute(q, page.spans, page.chars, page.signature)
        return self.second.probabilities(np.concatenate((X, around), axis=1))

    def save(self, path: str | os.PathLike[str]) -> None:
        meta = {**self.meta, "format": FORMAT, "names": list(self.names), "threshold": self.threshold}
        if self.second is not None:
            meta["context"] = list(context.names())
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
            for name, forest in (("forest.npz", self.forest), ("second.npz", self.second)):
                if forest is not None:
                    buf = io.BytesIO()
                    np.savez_compressed(buf, **forest.arrays())  # type: ignore[arg-type]  # numpy's stub: allow_pickle
                    z.writestr(name, buf.getvalue(), compress_type=zipfile.ZIP_STORED)
            z.writestr("meta.json", json.dumps(meta, indent=1, sort_keys=True))

    @classmethod
    def from_bytes(cls, raw: bytes, name: str) -> Model:
        try:
            with zipfile.ZipFile(io.BytesIO(raw)) as z:
                meta = json.loads(z.read("meta.json"))
                forest = _forest(z.read("forest.npz"))
                second = _forest(z.read("second.npz")) if "second.npz" in z.namelist() else None
        except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
            raise ModelError(f"{name}: not a learned-extractor model ({exc})") from None
        if meta.get("format") != FORMAT:
            raise ModelError(f"{name}: not a learned-extractor model (format {meta.get('format')!r})")
        return cls(forest, tuple(meta.pop("names")), float(meta.pop("threshold")), meta, second)


def _forest(raw: bytes) -> Forest:
    """A forest from its ``.npz`` arrays."""
    arrays = np.load(io.BytesIO(raw))
    return Forest(arrays["feature"], arrays["threshold"], arrays["left"], arrays["right"],
                  arrays["value"], arrays["roots"], float(arrays["bias"][0]))


@lru_cache(maxsize=8)
def load_model(path: str | None = None) -> Model:
    """A model file, or the shipped default (``data/learned-default.zip``), loaded once."""
    if path is not None:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise ModelError(f"cannot read model {path}: {exc.strerror}") from None
        return Model.from_bytes(raw, str(path))
    raw = model_bytes(DEFAULT_MODEL, "model", "python benchmarks/train_learned.py --write", ModelError)
    return Model.from_bytes(raw, DEFAULT_MODEL)


_cforest = optional("learned._cforest")
_compiled = None if _cforest is None else _cforest.raw_scores
#: which scorer :meth:`Forest.raw_scores` runs: ``"compiled"`` or ``"numpy"``
IMPLEMENTATION = "numpy" if _compiled is None else "compiled"
