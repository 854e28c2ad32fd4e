"""Is this tree's method as fast as another commit's, relative to parsing? Many short runs of
``benchmarks/speed.py``, alternating between the two trees, then the median of each.

One run of ``speed.py`` times each page once; on a shared machine the ratio it reports for
a method (its median over parse-only's median) moves by ±10 % from run to run, with the
machine's load, and by a few per cent from process to process (where the memory lands).
A change of a few per cent shows only against the other commit measured the same way, at
the same time: so ``--rounds`` runs of each, alternating (before, this, before, this…),
each in a fresh process, and the median, lowest and highest ratio of each tree.

Runs of whole passes still see the machine's load move between one tree's pass and the
other's: on a busy machine the median of one tree moves by 10 % from run to run, more than
the gap a change makes.  ``--paired`` compares the trees page by page instead: two worker
processes, one a tree, both alive at once; each page is timed in one, then at once in the
other (which goes first alternates), ``--repeat`` times each, and the fastest kept.  A
change of load then touches both sides of a page alike.  Each round starts a fresh pair of
processes (where memory lands changes with the process), and a page's time is the median
of its rounds.  The figure is each page's time in this tree over its time in the other:
its median over the pages (the median page) with a 95 % bootstrap interval over pages,
and the same for parse-only, the same code in both trees, whose ratio shows what the
instrument resolves (it should be 1.00).

The other commit needs its own checkout with its compiled modules built (``git worktree
add ../before COMMIT && cd ../before && python setup.py build_ext --inplace``); its
``src`` is put first on ``PYTHONPATH`` for its runs.  Both use this tree's ``speed.py``.

    python benchmarks/speed_ab.py --before ../before/src                # default, 6 rounds
    python benchmarks/speed_ab.py --before ../before/src --method learned --rounds 10 --sample 40
    python benchmarks/speed_ab.py --before ../before/src --paired --rounds 4 --repeat 3
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

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


def serve(method: str, sample: int) -> int:
    """A worker of ``--paired``: loads the pages and the tree on its path, warms up, says
    how many pages it holds, then for each page number read from standard input times
    parse-only and ``method`` on that page and writes both times (seconds) as a line."""
    import speed

    pages = speed.load_pages(_common.DATASETS, None, sample, 0)
    funcs = speed.stages([method])
    funcs = {name: funcs[name] for name in (speed.YARDSTICK, method)}
    gc.collect()
    gc.freeze()
    speed.warm_up(pages, funcs, 10)
    import detourage

    print(json.dumps({"pages": len(pages), "package": str(Path(detourage.__file__).resolve().parents[1])}), flush=True)
    clock = time.perf_counter
    for line in sys.stdin:
        data = pages[int(line)].data
        times = []
        for func in funcs.values():
            t0 = clock()
            func(data)
            times.append(clock() - t0)
        print(json.dumps(times), flush=True)
    return 0


class Worker:
    """One ``serve`` process with ``src`` first on its path."""

    def __init__(self, src: Path, method: str, sample: int) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")]))}
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--method", method, "--sample", str(sample)],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = json.loads(self._line())
        if Path(hello["package"]) != src:
            raise RuntimeError(f"the worker for {src} imported detourage from {hello['package']}")
        self.pages = int(hello["pages"])

    def _line(self) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"a worker ended (exit status {self.process.wait()})")
        return line

    def time(self, page: int) -> tuple[float, float]:
        """(parse-only, method) seconds on page number ``page``."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{page}\n")
        self.process.stdin.flush()
        parse, method = json.loads(self._line())
        return parse, method

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def paired(trees: dict[str, Path], method: str, rounds: int, repeat: int, sample: int) -> dict[str, np.ndarray]:
    """Stage → (tree, round, page) array of seconds: each page's fastest of ``repeat`` times
    in each round, the two trees' workers taking turns page by page."""
    names = list(trees)
    out: dict[str, np.ndarray] = {}
    for round_ in range(rounds):
        workers = [Worker(trees[name], method, sample) for name in names]
        n = workers[0].pages
        if not out:
            out = {stage: np.full((len(names), rounds, n), np.inf) for stage in ("parse-only", method)}
        order = list(range(n))
        random.Random(round_).shuffle(order)
        for k, page in enumerate(order):
            for rep in range(repeat):
                turn = range(len(names)) if (k + rep + round_) % 2 == 0 else reversed(range(len(names)))
                for t in turn:
                    for stage, seconds in zip(("parse-only", method), workers[t].time(page)):
                        out[stage][t, round_, page] = min(out[stage][t, round_, page], seconds)
        for worker in workers:
            worker.close()
        ratio = np.median(out[method][1, round_] / out[method][0, round_])
        print(f"round {round_ + 1}: {names[1]} / {names[0]} at the median page {ratio:.3f}", flush=True)
    return out


def bootstrap_median(values: np.ndarray, draws: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95 % percentile interval of the median of ``values``, resampling them."""
    rng = np.random.default_rng(seed)
    medians = np.median(values[rng.integers(0, len(values), (draws, len(values)))], axis=1)
    return float(np.quantile(medians, 0.025)), float(np.quantile(medians, 0.975))


def report_paired(trees: dict[str, Path], times: dict[str, np.ndarray], method: str, rounds: int,
                  repeat: int) -> None:
    per_page = {stage: np.median(t, axis=1) for stage, t in times.items()}  # (tree, page)
    n = per_page[method].shape[1]
    print(f"\n{method}, paired page by page: {n} pages, {rounds} rounds of fresh workers, fastest of {repeat} a round")
    print(_common.table_head(["stage", "this / before at the median page", "95 % interval", "pages faster here"],
                             "lrrr"))
    for stage, t in per_page.items():
        ratios = t[1] / t[0]
        low, high = bootstrap_median(ratios)
        print(f"| {stage} | {np.median(ratios):.3f} | [{low:.3f}, {high:.3f}] | {int((ratios < 1).sum())} of {n} |")
    print()
    print(_common.table_head(["tree", f"{method} / parse-only (medians)", f"{method} median ms"], "lrr"))
    for k, (name, src) in enumerate(trees.items()):
        m, p = np.median(per_page[method][k]), np.median(per_page["parse-only"][k])
        print(f"| {name} ({src}) | {m / p:.2f}× | {m * 1000:.2f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="the other checkout's src folder (built)")
    ap.add_argument("--method", default="default")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--sample", type=int, default=40, help="pages per dataset of each run")
    ap.add_argument("--paired", action="store_true", help="time the trees page by page, in two workers at once")
    ap.add_argument("--repeat", type=int, default=3,
                    help="--paired: times each page is timed a round (the fastest kept)")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        return serve(args.method, args.sample)
    if args.before is None:
        ap.error("--before is required")
    if not (args.before / "detourage").is_dir():
        print(f"no detourage package under {args.before}", file=sys.stderr)
        return 2
    trees = {"before": args.before.resolve(), "this": SOURCE}
    if args.paired:
        report_paired(trees, paired(trees, args.method, args.rounds, args.repeat, args.sample), args.method,
                      args.rounds, args.repeat)
        return 0
    ratios: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(1, args.rounds + 1):
            for name, src in trees.items():
                ratios[name].append(ratio(src, args.method, args.sample, Path(tmp) / f"{name}.json"))
            print(f"round {round_}: " + "  ".join(f"{n} {r[-1]:.2f}×" for n, r in ratios.items()), flush=True)
    print(f"\n{args.method} / parse-only, {args.rounds} runs each ({args.sample} pages per dataset a run):")
    print(_common.table_head(["tree", "median", "lowest", "highest"], "lrrr"))
    for name, values in ratios.items():
        print(f"| {name} ({trees[name]}) | {statistics.median(values):.2f}× | {min(values):.2f}× "
              f"| {max(values):.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
