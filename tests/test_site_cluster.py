"""Unit tests of detourage.site.cluster on synthetic distance matrices."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

from detourage.errors import MissingExtra
from detourage.site import cluster as sc

METHODS: list[sc.Method] = ["agglomerative", "kmeans"]


def blocks(sizes: list[int], *, within: float = 0.1, between: float = 0.9,
           jitter: float = 0.02, seed: int = 1) -> np.ndarray:
    """A symmetric matrix of blocks: small distances inside a block, large across."""
    group = np.repeat(np.arange(len(sizes)), sizes)
    d = np.where(group[:, None] == group[None, :], within, between).astype(float)
    rng = np.random.default_rng(seed)
    noise = rng.uniform(-jitter, jitter, size=d.shape)
    d = d + (noise + noise.T) / 2
    np.fill_diagonal(d, 0.0)
    return d


def two_blocks_interleaved() -> tuple[np.ndarray, list[int], list[int]]:
    """Pages 0, 2, 4, 6 in one template, 1, 3, 5 in another; page 2 and 3 the centres."""
    a, b = [0, 2, 4, 6], [1, 3, 5]
    d = np.full((7, 7), 0.9)
    for grp, centre in ((a, 2), (b, 3)):
        for i in grp:
            for j in grp:
                d[i, j] = 0.2
        for j in grp:
            d[centre, j] = d[j, centre] = 0.05
    np.fill_diagonal(d, 0.0)
    return d, a, b


@pytest.mark.parametrize("method", METHODS)
def test_two_blocks(method: sc.Method) -> None:
    pytest.importorskip("sklearn")
    d, a, b = two_blocks_interleaved()
    result = sc.cluster(d, method=method)
    assert result.k == 2
    assert result.method == method
    assert result.members == (tuple(a), tuple(b))  # first-appearance order: page 0's first
    assert result.labels == (0, 1, 0, 1, 0, 1, 0)
    assert result.pivots == (2, 3)
    assert result.outliers == ()
    assert result.silhouette > 0.5


@pytest.mark.parametrize("method", METHODS)
def test_far_singleton_is_outlier(method: sc.Method) -> None:
    pytest.importorskip("sklearn")
    d = blocks([4, 5, 1], between=0.8)
    d[9, :9] = d[:9, 9] = 1.0
    result = sc.cluster(d, method=method)
    assert result.k == 2
    assert result.labels[9] == -1
    assert result.outliers == (9,)
    assert result.members == ((0, 1, 2, 3), (4, 5, 6, 7, 8))
    assert len(result.pivots) == 2 and 9 not in result.pivots


@pytest.mark.parametrize("method", METHODS)
def test_deterministic(method: sc.Method) -> None:
    pytest.importorskip("sklearn")
    rng = np.random.default_rng(7)
    points = rng.normal(size=(25, 3)) + np.repeat(np.eye(3) * 4, [8, 9, 8], axis=0)
    d = np.linalg.norm(points[:, None] - points[None, :], axis=2)
    first = sc.cluster(d, method=method, seed=3)
    for _ in range(3):
        assert sc.cluster(d, method=method, seed=3) == first
    assert first.k == 3
    flat = sc.cluster(np.zeros((4, 4)), method=method)  # nan silhouette: still equal
    assert flat == sc.cluster(np.zeros((4, 4)), method=method)
    assert hash(flat) == hash(sc.cluster(np.zeros((4, 4)), method=method))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [2, 1, 0])
def test_few_pages(method: sc.Method, n: int) -> None:
    pytest.importorskip("sklearn")
    d = blocks([n]) if n else np.zeros((0, 0))
    result = sc.cluster(d, method=method)
    if n == 2:
        assert (result.k, result.labels, result.pivots) == (1, (0, 0), (0,))
    else:  # a lone page has nothing to be compared with: an outlier
        assert (result.k, result.labels, result.pivots) == (0, (-1,) * n, ())
    assert np.isnan(result.silhouette)


@pytest.mark.parametrize("method", METHODS)
def test_no_structure_is_one_cluster(method: sc.Method) -> None:
    pytest.importorskip("sklearn")
    identical = np.zeros((5, 5))
    result = sc.cluster(identical, method=method)
    assert (result.k, result.labels) == (1, (0,) * 5)
    rng = np.random.default_rng(0)
    noise = rng.uniform(0.45, 0.55, size=(12, 12))
    noise = (noise + noise.T) / 2
    np.fill_diagonal(noise, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        flat = sc.cluster(noise, method=method)
    assert flat.k == 1 and np.isnan(flat.silhouette)
    assert flat.pivots == (int(np.argmin(noise.sum(axis=1))),)


def test_max_k_caps_clusters() -> None:
    pytest.importorskip("sklearn")
    d = blocks([3, 3, 3, 3])
    assert sc.cluster(d, max_k=10).k == 4
    assert sc.cluster(d, max_k=2).k == 2


def test_classical_mds_recovers_distances() -> None:
    points = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0], [3.0, 4.0], [1.0, 1.0]])
    d = np.linalg.norm(points[:, None] - points[None, :], axis=2)
    coords = sc.classical_mds(d)
    assert coords.shape == (5, 2)
    back = np.linalg.norm(coords[:, None] - coords[None, :], axis=2)
    np.testing.assert_allclose(back, d, atol=1e-9)
    np.testing.assert_array_equal(sc.classical_mds(d), coords)


def test_medoids() -> None:
    d = np.array([[0, 1, 2, 9], [1, 0, 1, 9], [2, 1, 0, 9], [9, 9, 9, 0]], dtype=float)
    assert sc.medoids(d, np.array([0, 0, 0, -1])) == (1,)


def test_bad_input() -> None:
    pytest.importorskip("sklearn")
    with pytest.raises(ValueError, match="square"):
        sc.cluster(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="method"):
        sc.cluster(np.zeros((3, 3)), method="dbscan")  # type: ignore[arg-type]


def test_missing_sklearn(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("sklearn", "sklearn.cluster", "sklearn.metrics"):
        monkeypatch.setitem(sys.modules, name, None)  # None in sys.modules: ImportError
    with pytest.raises(MissingExtra, match=r'pip install "detourage\[site\]"') as info:
        sc.cluster(blocks([3, 3]))
    assert info.value.reason == "missing-extra"
