"""``benchmarks/speed_ab.py --paired``: two live workers, one a tree, timed page by page;
each page's ratio, the median page's with a bootstrap interval, parse-only's beside."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
from conftest import needs_shared

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))  # the script imports its neighbours _common and speed
_SPEC = importlib.util.spec_from_file_location("speed_ab", BENCHMARKS / "speed_ab.py")
assert _SPEC is not None and _SPEC.loader is not None
speed_ab = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(speed_ab)


def test_the_bootstrap_interval_holds_the_median_and_narrows_with_more_pages():
    rng = np.random.default_rng(1)
    few, many = rng.normal(1.0, 0.05, 20), rng.normal(1.0, 0.05, 2000)
    low, high = speed_ab.bootstrap_median(few)
    assert low <= np.median(few) <= high
    low_many, high_many = speed_ab.bootstrap_median(many)
    assert high_many - low_many < high - low
    assert speed_ab.bootstrap_median(np.full(50, 0.97)) == (0.97, 0.97)


def test_a_tree_against_itself_page_by_page():
    needs_shared("datasets")
    src = Path(__file__).resolve().parents[1] / "src"
    run = subprocess.run([sys.executable, str(BENCHMARKS / "speed_ab.py"), "--before", str(src), "--paired",
                          "--rounds", "1", "--repeat", "1", "--sample", "1", "--method", "fulltext"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = {line.split("|")[1].strip(): line for line in run.stdout.splitlines() if line.startswith("| ")}
    assert {"parse-only", "fulltext"} <= rows.keys()
    assert "of 4 |" in rows["fulltext"]  # one page of each of the four datasets, each paired
