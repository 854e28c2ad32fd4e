"""Grouping a site's pages into templates (seed 004 §4.3, issue 6 item 2).

Input is the symmetric matrix of structural distances between the pages of one site
(:func:`detourage.site.distance.distances`); output is a :class:`Clustering`: a cluster
label per page, and per cluster a *pivot* page with which the cluster's other pages are
paired for the cross-page comparison.

Two methods:

* ``"kmeans"`` — seed 004's way: the distance matrix is embedded in the plane by classical
  (Torgerson) multidimensional scaling, :data:`MDS_DIMENSIONS` = 2 dimensions as in the
  seed ("un espace à deux dimensions était suffisant"), and scikit-learn's K-Means is run
  for k = 2…``max_k``.  The seed notes that MDS + K-Means is not deterministic; here the
  MDS is an exact eigendecomposition (eigenvector signs fixed) and K-Means gets a fixed
  ``random_state`` and ``n_init``, so a given matrix always gives the same labels.
* ``"agglomerative"`` (default) — average-linkage agglomerative clustering of the
  precomputed distances, cut at k = 2…``max_k`` clusters.  Deterministic by construction
  and needs no embedding (the seed set hierarchical clustering aside for its parameters;
  with k chosen by silhouette it has none left).

For both, k is the one with the best mean silhouette (computed on the *original*
distances, not the embedding; ties go to the smaller k).  When even the best silhouette is
below :data:`MIN_SILHOUETTE`, or the site has fewer than 3 pages, or all pages are at
distance 0, the site is one cluster (k = 1).  A cluster of one page is an *outlier*
(label −1, no pivot), as in the seed ("si l'élément est seul dans sa classe … outlier").
The pivot of a cluster is its medoid: the member with the smallest summed distance to the
other members (lowest index on ties) — the seed takes the page nearest the K-Means
centroid, which the medoid estimates without depending on the embedding.

scikit-learn is an optional dependency (the ``site`` extra), imported on the first call;
without it :func:`cluster` raises :class:`~detourage.errors.MissingExtra`.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

import numpy as np

from ..errors import MissingExtra

INSTALL_HINT = 'pip install "detourage[site]"'

Method = Literal["agglomerative", "kmeans"]
METHODS: tuple[str, ...] = ("agglomerative", "kmeans")

#: below this best mean silhouette the site is one template.  0.1 is a conservative floor:
#: Kaufman & Rousseeuw read < 0.25 as "no substantial structure"; a lower floor lets the
#: one-far-page case (every other page s = 1 − a/b, the lone page s = 0) through
MIN_SILHOUETTE = 0.1
#: largest k tried when ``max_k`` is not given (and never more than pages − 1)
DEFAULT_MAX_K = 10
#: dimensions of the MDS embedding for "kmeans" (seed 004: two were enough)
MDS_DIMENSIONS = 2
#: K-Means restarts; fixed so that results do not change with scikit-learn's default
KMEANS_N_INIT = 10


@dataclass(frozen=True, slots=True, kw_only=True)
class Clustering:
    """Pages of one site grouped by template.

    ``labels[i]`` is page i's cluster (0…k−1, numbered in order of first appearance) or
    −1 for an outlier; ``pivots[c]`` the index of cluster c's medoid page.
    """

    labels: tuple[int, ...]
    pivots: tuple[int, ...]
    k: int
    #: mean silhouette of the chosen partition (outliers counted as one-page clusters);
    #: nan when k < 2 was chosen for lack of structure or pages
    silhouette: float
    method: str

    def __eq__(self, other: object) -> bool:
        """Field by field, with two nan silhouettes equal (a rerun must compare equal)."""
        if not isinstance(other, Clustering):
            return NotImplemented
        same_score = self.silhouette == other.silhouette or (
            np.isnan(self.silhouette) and np.isnan(other.silhouette))
        return (self.labels, self.pivots, self.k, self.method) == (
            other.labels, other.pivots, other.k, other.method) and bool(same_score)

    def __hash__(self) -> int:
        return hash((self.labels, self.pivots, self.k, self.method))

    @property
    def members(self) -> tuple[tuple[int, ...], ...]:
        """The page indices of each cluster, in cluster order."""
        return tuple(tuple(i for i, lab in enumerate(self.labels) if lab == c)
                     for c in range(self.k))

    @property
    def outliers(self) -> tuple[int, ...]:
        """The pages alone in their cluster."""
        return tuple(i for i, lab in enumerate(self.labels) if lab == -1)


def _sklearn() -> tuple[ModuleType, ModuleType]:
    """scikit-learn's ``cluster`` and ``metrics`` modules, or :class:`MissingExtra`."""
    try:
        return (importlib.import_module("sklearn.cluster"),
                importlib.import_module("sklearn.metrics"))
    except ImportError:
        raise MissingExtra(f"template clustering needs the site extra: {INSTALL_HINT}") from None


def _check(distances: np.ndarray) -> np.ndarray:
    """The matrix as float64, symmetrised, zero diagonal, no negatives; or ValueError."""
    d = np.asarray(distances, dtype=np.float64)
    if d.ndim != 2 or d.shape[0] != d.shape[1]:
        raise ValueError(f"distances must be a square matrix, got shape {d.shape}")
    if not np.all(np.isfinite(d)):
        raise ValueError("distances must be finite")
    d = np.clip((d + d.T) / 2.0, 0.0, None)
    np.fill_diagonal(d, 0.0)
    return d


def classical_mds(distances: np.ndarray, dimensions: int = MDS_DIMENSIONS) -> np.ndarray:
    """Torgerson's classical scaling: n points in ``dimensions`` whose distances fit.

    Double-centres the squared distances, keeps the largest positive eigenvalues (fewer
    columns, or zeros, when there are fewer); each eigenvector's sign is fixed so that its
    largest-magnitude entry is positive, which makes the embedding reproducible.
    """
    d = np.asarray(distances, dtype=np.float64)
    n = len(d)
    centre = np.eye(n) - np.full((n, n), 1.0 / n)
    gram = -0.5 * centre @ (d ** 2) @ centre
    values, vectors = np.linalg.eigh((gram + gram.T) / 2.0)
    order = np.argsort(values, kind="stable")[::-1][:dimensions]
    values, vectors = values[order], vectors[:, order]
    keep = values > 1e-12 * max(1.0, float(np.abs(values).max(initial=0.0)))
    values, vectors = values[keep], vectors[:, keep]
    if not values.size:
        return np.zeros((n, 1))
    pivot_rows = np.abs(vectors).argmax(axis=0)
    vectors = vectors * np.sign(vectors[pivot_rows, np.arange(vectors.shape[1])])
    coords: np.ndarray = vectors * np.sqrt(values)
    return coords


def _kmeans(sk_cluster: ModuleType, distances: np.ndarray,
            seed: int) -> Callable[[int], np.ndarray]:
    """Labels for k clusters: K-Means in the MDS plane (embedding computed once)."""
    coords = classical_mds(distances)

    def fit(k: int) -> np.ndarray:
        model = sk_cluster.KMeans(n_clusters=k, n_init=KMEANS_N_INIT, random_state=seed)
        return np.asarray(model.fit_predict(coords))
    return fit


def _agglomerative(sk_cluster: ModuleType, distances: np.ndarray,
                   seed: int) -> Callable[[int], np.ndarray]:
    """Labels for k clusters: average linkage on the precomputed distances (no randomness)."""
    del seed  # deterministic: nothing to seed

    def fit(k: int) -> np.ndarray:
        model = sk_cluster.AgglomerativeClustering(n_clusters=k, metric="precomputed",
                                                   linkage="average")
        return np.asarray(model.fit_predict(distances))
    return fit


_FITTERS: dict[str, Callable[[ModuleType, np.ndarray, int], Callable[[int], np.ndarray]]] = {
    "agglomerative": _agglomerative,
    "kmeans": _kmeans,
}


def _best_k(fit: Callable[[int], np.ndarray], distances: np.ndarray, max_k: int,
            sk_metrics: ModuleType) -> tuple[np.ndarray | None, float]:
    """The labels with the best mean silhouette over k = 2…max_k, and that silhouette.

    A k whose fit yields fewer than 2 or more than n − 1 distinct labels is skipped (no
    silhouette).  Ties go to the smaller k.  (None, nan) when no k could be scored.
    """
    n = len(distances)
    best: tuple[np.ndarray | None, float] = (None, float("nan"))
    for k in range(2, max_k + 1):
        with warnings.catch_warnings():  # duplicate points: fewer distinct clusters than k
            warnings.simplefilter("ignore")
            labels = fit(k)
        if not 2 <= len(np.unique(labels)) <= n - 1:
            continue
        score = float(sk_metrics.silhouette_score(distances, labels, metric="precomputed"))
        if best[0] is None or score > best[1]:
            best = (labels, score)
    return best


def _relabel(raw: np.ndarray) -> np.ndarray:
    """Clusters numbered in order of first appearance; one-page clusters become −1."""
    values, counts = np.unique(raw, return_counts=True)
    size = dict(zip(values.tolist(), counts.tolist(), strict=True))
    mapping: dict[Any, int] = {}
    out = np.full(len(raw), -1, dtype=np.int64)
    for i, lab in enumerate(raw.tolist()):
        if size[lab] < 2:
            continue
        out[i] = mapping.setdefault(lab, len(mapping))
    return out


def medoids(distances: np.ndarray, labels: np.ndarray) -> tuple[int, ...]:
    """Per cluster 0…k−1, the member with the smallest summed distance to its cluster."""
    pivots: list[int] = []
    for c in range(int(labels.max(initial=-1)) + 1):
        members = np.flatnonzero(labels == c)
        sums = distances[np.ix_(members, members)].sum(axis=1)
        pivots.append(int(members[int(np.argmin(sums))]))
    return tuple(pivots)


def _result(distances: np.ndarray, raw: np.ndarray, silhouette: float,
            method: str) -> Clustering:
    """Relabel, find the pivots and pack a :class:`Clustering`."""
    labels = _relabel(raw)
    pivots = medoids(distances, labels)
    return Clustering(labels=tuple(int(x) for x in labels), pivots=pivots, k=len(pivots),
                      silhouette=silhouette, method=method)


def cluster(distances: np.ndarray, *, method: Method = "agglomerative",
            max_k: int | None = None, seed: int = 0) -> Clustering:
    """Group a site's pages into templates from their pairwise distances.

    ``max_k`` caps the number of clusters tried (default :data:`DEFAULT_MAX_K`, never more
    than pages − 1); ``seed`` is K-Means' ``random_state`` (the agglomerative method has no
    randomness).  The same matrix always gives the same :class:`Clustering`.  Needs
    scikit-learn (checked on every call, so small sites fail as large ones would).
    """
    if method not in _FITTERS:
        raise ValueError(f"unknown clustering method {method!r}; expected one of {METHODS}")
    sk_cluster, sk_metrics = _sklearn()
    d = _check(distances)
    n = len(d)
    limit = min(DEFAULT_MAX_K if max_k is None else max_k, n - 1)
    one = np.zeros(n, dtype=np.int64)
    if n < 3 or limit < 2 or not np.any(d > 0):
        return _result(d, one, float("nan"), method)
    labels, score = _best_k(_FITTERS[method](sk_cluster, d, seed), d, limit, sk_metrics)
    if labels is None or score < MIN_SILHOUETTE:
        return _result(d, one, float("nan"), method)
    return _result(d, labels, score, method)
