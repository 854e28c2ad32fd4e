"""The quality gate's sample and measurement, shared by its test and its floor script.

The sample is the first ``PAGES`` scorable pages (by id) of each shared dataset; its
digest is pinned with the floors, so a change of data is seen, never scored silently.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from detourage.evaluation.evaluate import Evaluation, PageScorer, digest, evaluate
from detourage.gold import load_dataset
from detourage.settings import Settings

PAGES = 10
METHODS = ("fulltext", "baseline", "eatiht", "boilerpipe", "justext", "justext-nostop", "ncleaner",
           "ncleaner-nl", "victor", "learned")
DATASETS = ("cleaneval-en-dev", "cleanportaleval", "daniel", "l3s-gn1")
FLOORS = Path(__file__).with_name("quality_floors.json")


def sample_digests(root: Path) -> dict[str, str]:
    return {name: digest(load_dataset(root / name).scorable[:PAGES]) for name in DATASETS}


def measure(root: Path) -> tuple[Evaluation, dict[str, dict[str, float]]]:
    """TO F1 (micro) per method and dataset on the sample; a failed page scores as empty."""
    # the first PAGES pages by id (the digested sample), not evaluate's spread --sample draw
    datasets = []
    for name in DATASETS:
        ds = load_dataset(root / name)
        datasets.append(replace(ds, documents=ds.scorable[:PAGES]))
    ev = evaluate(datasets, METHODS, scorer=PageScorer(settings=Settings(timeout=60)))
    rows = ev.summary(bootstrap=0)["rows"]
    scores: dict[str, dict[str, float]] = {}
    for row in rows:
        if row["lang"] == "all" and row["dataset"] != "all":
            scores.setdefault(row["method"], {})[row["dataset"]] = row["to"]["micro"]["f1"]
    return ev, scores


def read_floors() -> dict[str, Any]:
    return json.loads(FLOORS.read_text(encoding="utf-8"))
