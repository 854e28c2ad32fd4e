"""Is this tree's method as fast as another commit's, relative to parsing? Many short runs of
``benchmarks/speed.py``, alternating between the two trees, then the median of each.

One run of ``speed.py`` times each page once; on a shared machine the ratio it reports for
a method (its median over parse-only's median) moves by ±10 % from run to run, with the
machine's load, and by a few per cent from process to process (where the memory lands).
A change of a few per cent shows only against the other commit measured the same way, at
the same time: so ``--rounds`` runs of each, alternating (before, this, before, this…),
each in a fresh process, and the median, lowest and highest ratio of each tree.

The other commit needs its own checkout with its compiled modules built (``git worktree
add ../before COMMIT && cd ../before && python setup.py build_ext --inplace``); its
``src`` is put first on ``PYTHONPATH`` for its runs.  Both use this tree's ``speed.py``.

    python benchmarks/speed_ab.py --before ../before/src                # default, 6 rounds
    python benchmarks/speed_ab.py --before ../before/src --method learned --rounds 10 --sample 40
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import _common

SPEED = Path(__file__).resolve().parent / "speed.py"
SOURCE = _common.ROOT / "src"


def ratio(src: Path, method: str, sample: int, out: Path) -> float:
    """One ``speed.py`` run of ``method`` with ``src`` first on the path: its median over
    parse-only's, over all the pages."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")]))}
    subprocess.run([sys.executable, str(SPEED), "--sample", str(sample), "--methods", method, "--json", str(out)],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return float(json.loads(out.read_text())["overall"][method]["ratio"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="the other checkout's src folder (built)")
    ap.add_argument("--method", default="default")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--sample", type=int, default=40, help="pages per dataset of each run")
    args = ap.parse_args(argv)
    if not (args.before / "detourage").is_dir():
        print(f"no detourage package under {args.before}", file=sys.stderr)
        return 2
    trees = {"before": args.before.resolve(), "this": SOURCE}
    ratios: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(1, args.rounds + 1):
            for name, src in trees.items():
                ratios[name].append(ratio(src, args.method, args.sample, Path(tmp) / f"{name}.json"))
            print(f"round {round_}: " + "  ".join(f"{n} {r[-1]:.2f}×" for n, r in ratios.items()), flush=True)
    print(f"\n{args.method} / parse-only, {args.rounds} runs each ({args.sample} pages per dataset a run):")
    print(_common.table_head(["tree", "median", "lowest", "highest"], "lrrr"))
    for name, values in ratios.items():
        print(f"| {name} ({trees[name]}) | {statistics.median(values):.2f}× | {min(values):.2f}× | {max(values):.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
