"""``benchmarks/instructions_ab.py --functions``: a callgrind dump read into each
function's own instructions (its callees' not counted), and the functions that changed
most between two trees."""

from __future__ import annotations

import collections
import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))  # the script imports its neighbour _common
_SPEC = importlib.util.spec_from_file_location("instructions_ab", BENCHMARKS / "instructions_ab.py")
assert _SPEC is not None and _SPEC.loader is not None
iab = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(iab)

#: main runs 10 instructions itself and calls parse (30 in all: 25 its own, 5 in
#: sre_match, which it calls twice); names are given once, then by number; positions
#: may be relative ("+2") or repeated ("*")
DUMP = """# callgrind format
version: 1
creator: callgrind-3.19.0
events: Ir
fl=(1) main.c
fn=(1) main
10 4
+2 6
cfl=(2) parse.c
cfn=(2) parse
calls=1 20
14 30
fl=(2)
fn=(2)
20 20
cfn=(3) sre_match
calls=2 40
* 5
* 5
fn=(3)
40 5
totals: 40
"""


def test_a_dump_gives_each_function_its_own_instructions(tmp_path):
    path = tmp_path / "callgrind.out.3"
    path.write_text(DUMP)
    assert iab.self_costs(path) == {"main": 10, "parse": 25, "sre_match": 5}


def test_a_dump_with_simulated_caches_gives_each_function_its_estimated_cycles(tmp_path):
    """With the caches and branch predictor simulated, a cost line holds every event: a
    function's own cost is then weighed as callgrind's estimate of cycles (a first-level
    miss or a mispredicted branch 10, a last-level miss 100); a missing value is 0."""
    path = tmp_path / "callgrind.out.4"
    path.write_text("events: Ir Dr I1mr D1mr DLmr Bc Bcm\nfn=(1) main\n10 100 50 1 2 1 20 3\n"
                    "cfn=(2) walk\ncalls=1 20\n14 999 999\nfn=(2)\n20 7 3\ntotals: 107 53\n")
    assert iab.self_costs(path) == {"main": 100 + 10 * (1 + 2 + 3) + 100 * 1, "walk": 7}


def test_the_functions_that_changed_most_come_first_each_way():
    before = collections.Counter({"walk": 100, "hidden": 0, "clean": 50, "same": 7})
    this = collections.Counter({"walk": 90, "hidden": 30, "clean": 45, "same": 7, "new": 2})
    assert iab.function_changes(before, this, 2) == [("hidden", 0, 30), ("new", 0, 2),
                                                     ("walk", 100, 90), ("clean", 50, 45)]
    assert iab.function_changes(before, this, 1) == [("hidden", 0, 30), ("walk", 100, 90)]
    assert iab.function_changes(before, before, 3) == []


def test_a_dump_gives_its_instructions_and_with_simulated_caches_its_estimated_cycles():
    assert iab.totals(DUMP.encode()) == (40, 40)  # no simulated caches: the instructions alone
    cached = DUMP.replace("events: Ir", "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim")
    cached = cached.replace("totals: 40", "totals: 1000 300 200 4 20 6 1 2 3 150 12 10 2")
    # 1000 instructions, 10 × (4 + 20 + 6) first-level misses, 100 × (1 + 2 + 3) last-level
    # misses, 10 × (12 + 2) mispredicted branches; the accesses and branches themselves weigh 0
    assert iab.totals(cached.encode()) == (1000, 1000 + 300 + 600 + 140)
