"""Quality gate: pinned TO F1 floors per method and dataset on a fixed sample.

A floor may only go down with a reason recorded in its history (``quality_floors.json``);
``python benchmarks/quality_floors.py`` measures the sample and proposes floors.
"""

from __future__ import annotations

import pytest

from conftest import needs_shared
from quality_gate import DATASETS, METHODS, measure, read_floors, sample_digests


def test_floor_history_never_drops_without_a_reason() -> None:
    for method, per_dataset in read_floors()["floors"].items():
        for dataset, floor in per_dataset.items():
            history = floor["history"]
            assert history and history[-1]["value"] == floor["value"], (method, dataset)
            assert all(entry.get("reason") for entry in history), (method, dataset)
            for before, after in zip(history, history[1:]):
                if after["value"] < before["value"]:
                    assert "lower" in after["reason"].lower(), (method, dataset, after)


@pytest.fixture(scope="module")
def measured() -> dict[str, dict[str, float]]:
    root = needs_shared("datasets")
    floors = read_floors()
    assert sample_digests(root) == floors["sample"]["digests"], (
        "the gate's sample changed: re-measure with benchmarks/quality_floors.py")
    return measure(root)[1]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dataset", DATASETS)
def test_score_is_above_its_floor(measured: dict[str, dict[str, float]], method: str, dataset: str) -> None:
    floor = read_floors()["floors"][method][dataset]["value"]
    assert measured[method][dataset] >= floor, f"{method} on {dataset}: {measured[method][dataset]:.4f} < {floor}"
