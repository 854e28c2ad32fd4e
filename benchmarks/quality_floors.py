"""Measure the quality gate's sample and propose floors (tests/quality_floors.json).

    python benchmarks/quality_floors.py            # print measured scores and floors
    python benchmarks/quality_floors.py --write --reason "why"   # record them

Floors are the measured TO F1 minus ``--margin``.  Writing raises floors freely; a floor
that would go down is only written with ``--allow-lower`` and a reason starting with
"lower", which the gate's test requires for every decrease.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import sys
from types import ModuleType

import _common


def quality_gate() -> ModuleType:
    """``tests/quality_gate.py``: the gate's sample and measurement, which its test shares."""
    spec = importlib.util.spec_from_file_location("quality_gate", _common.ROOT / "tests" / "quality_gate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_datasets(parser)
    parser.add_argument("--margin", type=float, default=0.02)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--allow-lower", action="store_true")
    parser.add_argument("--reason", default="")
    args = parser.parse_args()
    if not args.datasets.is_dir():
        sys.exit(f"{args.datasets}: no shared datasets here")
    gate = quality_gate()
    floors_file = gate.FLOORS
    _, scores = gate.measure(args.datasets)
    old = json.loads(floors_file.read_text()) if floors_file.exists() else {"floors": {}}
    new = {"sample": {"pages_per_dataset": 10, "digests": gate.sample_digests(args.datasets)}, "floors": {}}
    today = datetime.date.today().isoformat()
    print(f"{'method':10} {'dataset':18} {'measured':>8} {'old':>6} {'new':>6}")
    for method, per in scores.items():
        for dataset, score in per.items():
            floor = round(max(0.0, score - args.margin), 3)
            previous = old["floors"].get(method, {}).get(dataset)
            history = list(previous["history"]) if previous else []
            if previous and floor < previous["value"] and not args.allow_lower:
                floor = previous["value"]
            if not history or history[-1]["value"] != floor:
                history.append({"value": floor, "date": today, "reason": args.reason or "first measurement"})
            new["floors"].setdefault(method, {})[dataset] = {"value": floor, "history": history}
            print(f"{method:10} {dataset:18} {score:8.4f} {previous['value'] if previous else '-':>6} {floor:6.3f}")
    if args.write:
        floors_file.write_text(json.dumps(new, indent=1) + "\n")
        print(f"written {floors_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
