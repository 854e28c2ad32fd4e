"""A short run of the fuzz harness (``benchmarks/fuzz.py``) under hypothesis: mutated
shared pages through decode → parse → segment → every method → every renderer."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

_BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(_BENCH))  # its imports, as when it runs
_SPEC = importlib.util.spec_from_file_location("fuzz", _BENCH / "fuzz.py")
assert _SPEC is not None and _SPEC.loader is not None
fuzz = importlib.util.module_from_spec(_SPEC)
sys.modules["fuzz"] = fuzz
_SPEC.loader.exec_module(fuzz)

#: small seeds keep the run to seconds: every input goes through every method and format
SEEDS = fuzz.seed_pages(limit=12, seed_bytes=3_000)
METHODS, SKIPPED = fuzz.fuzzed_methods()
HARNESS = fuzz.Harness(METHODS, hang_seconds=20.0)


def test_every_registered_method_is_fuzzed_or_skipped_with_a_reason() -> None:
    from detourage import methods

    assert {m.name for m in methods.available()} == set(METHODS) | set(SKIPPED)
    assert {"fulltext", "baseline", "boilerpipe", "victor"} <= set(METHODS)
    assert all(name.startswith(("peer-", "template")) or "fails on a plain page" in why
               for name, why in SKIPPED.items())


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.sampled_from(SEEDS), rng=st.randoms(use_true_random=False))
def test_mutated_pages_never_crash_or_hang(seed: bytes, rng: random.Random) -> None:
    HARNESS.findings.clear()
    HARNESS(fuzz.mutate(seed, rng, SEEDS))
    assert not HARNESS.findings, [(f.key, f.message, f.trace) for f in HARNESS.findings.values()]


def test_the_harness_reports_a_crash_and_goes_on() -> None:
    harness = fuzz.Harness(["fulltext"])
    harness.methods = ["fulltext", object()]  # type: ignore[list-item]  # not a method name
    harness(b"<p>x</p>")
    harness(b"<p>y</p>")
    assert harness.executions == 2 and len(harness.findings) == 1
    assert next(iter(harness.findings.values())).count == 2
