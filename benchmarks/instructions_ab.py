"""Is this tree's method as cheap as another commit's, page by page?  Instructions counted
by Valgrind's callgrind, where ``speed_ab.py`` times them.

Timings on a shared machine move by ±10 % from run to run (``speed_ab.py`` says why), so
a change of a few per cent needs many rounds there.  The number of instructions a page
costs does not move with the machine's load: with ``PYTHONHASHSEED`` fixed, two runs of
the same tree count the same within a fraction of a per cent.  It is not time (a cache
miss costs more than an add), but a change of code that executes fewer instructions
is, with rare exceptions, faster; read it beside ``speed_ab.py``, not instead of it.

Each tree runs once, in one process under ``valgrind --tool=callgrind``, over the pages
``speed.py --sample N`` times (the same draw). After a warm-up page, each page is
decoded and parsed (``parse-only``, the yardstick), then extracted to text with the
method; before each of these steps the process calls ``math.gcd``, and callgrind's
``--dump-before=math_gcd`` closes a count there, so each step of each page has its own
count. Reported for each tree: the median instructions of parse-only and of the method
over the pages, their ratio (as ``speed.py`` reports it), and page by page the method's
instructions in this tree over the other's (median, quartiles, total).

The other commit needs its own checkout with its compiled modules built, as for
``speed_ab.py``; its ``src`` is put first on ``PYTHONPATH`` for its run. Valgrind runs
about 50 times slower than the process alone: 20 pages per dataset take ~3 minutes a tree.

    python benchmarks/instructions_ab.py --before ../before/src
    python benchmarks/instructions_ab.py --before ../before/src --sample 40 --method learned
    python benchmarks/instructions_ab.py --before ../before/src --phases   # load and method apart

``--phases`` counts each extraction in two, the page's load (decode, parse, segmentation
and what ``load`` does beside them) and the method with its txt rendering, and compares
each phase of the two trees apart: where a difference lies.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import _common

SOURCE = _common.ROOT / "src"
#: the C function whose calls close a count (``--dump-before``)
MARK = "math_gcd"
_TOTALS = re.compile(rb"^totals:\s*(\d+)", re.M)


def child(method: str, sample: int, seed: int, phases: bool = False) -> None:
    """The process callgrind counts: a warm-up page, then for every page a mark, the
    parse, a mark, the extraction; a last mark closes the last count.  With ``phases``
    the extraction is counted in two: the page loaded (decode, parse, segmentation and
    what ``load`` does beside them), then the method and the txt rendering."""
    import speed

    from detourage.api import extract, load, run
    from detourage.decode import decode
    from detourage.parse import parse
    from detourage.render import render

    pages = speed.load_pages(_common.DATASETS, None, sample, seed)
    extract(pages[0].data, method=method, format="txt")
    if phases:
        render(run(load(pages[0].data), method), "txt")
    parse(decode(pages[0].data).text)
    for page in pages:
        math.gcd(1, 1)
        parse(decode(page.data).text)
        math.gcd(1, 1)
        if phases:
            loaded = load(page.data)
            math.gcd(1, 1)
            render(run(loaded, method), "txt")
        else:
            extract(page.data, method=method, format="txt")
    math.gcd(1, 1)


def count(src: Path, method: str, sample: int, seed: int, work: Path,
          phases: bool = False) -> tuple[list[int], ...]:
    """Run :func:`child` under callgrind with ``src`` first on the path: the instructions of
    each page's parse and of its extraction (with ``phases``: of its load and of its
    method), in page order."""
    env = {**os.environ, "PYTHONHASHSEED": "0",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")]))}
    out = work / "callgrind.out"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--dump-before={MARK}",
                    sys.executable, __file__, "--child", "--method", method, "--sample", str(sample),
                    "--seed", str(seed), *(["--phases"] if phases else [])],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dumps = sorted(work.glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
    counts = [int(_TOTALS.search(p.read_bytes()).group(1)) for p in dumps]  # type: ignore[union-attr]
    for p in work.glob("callgrind.out*"):
        p.unlink()
    # the first dump holds start-up, loading and warm-up; then parse, extract, parse, …
    # (with phases: parse, load, method, parse, …)
    steps, per_page = counts[1:], 3 if phases else 2
    if len(steps) % per_page:
        raise RuntimeError(f"callgrind closed {len(counts)} counts, not 1 + {per_page} a page")
    return tuple(steps[k::per_page] for k in range(per_page))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--before", type=Path, help="the other checkout's src folder (built)")
    ap.add_argument("--method", default="default")
    ap.add_argument("--sample", type=int, default=20, help="pages per dataset (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the draw, as speed.py's (default: 0)")
    ap.add_argument("--phases", action="store_true",
                    help="count each extraction in two, the page's load and the method, and compare each")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.method, args.sample, args.seed, args.phases)
        return 0
    if args.before is None or not (args.before / "detourage").is_dir():
        ap.exit(2, f"instructions_ab: no detourage package under --before {args.before}\n")
    if shutil.which("valgrind") is None:
        ap.exit(2, "instructions_ab: valgrind not found (Debian: apt install valgrind)\n")
    trees = {"before": args.before.resolve(), "this": SOURCE}
    counted: dict[str, tuple[list[int], ...]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, src in trees.items():
            steps = count(src, args.method, args.sample, args.seed, Path(tmp), args.phases)
            if args.phases:  # parse-only, the extraction (its load and its method), the two
                steps = (steps[0], [load + method for load, method in zip(steps[1], steps[2])], *steps[1:])
            counted[name] = steps
            print(f"{name}: {len(counted[name][0])} pages counted", flush=True)
    print(f"\nmillions of instructions, median page ({args.sample} pages per dataset, seed {args.seed}):")
    print(_common.table_head(["tree", "parse-only", args.method, "ratio"], "lrrr"))
    for name, (parses, extracts, *_) in counted.items():
        p, e = statistics.median(parses), statistics.median(extracts)
        print(_common.table_row([f"{name} ({trees[name]})", f"{p / 1e6:.1f}", f"{e / 1e6:.1f}", f"{e / p:.3f}×"]))
    before, this = counted["before"][1], counted["this"][1]
    per_page = sorted(t / b for t, b in zip(this, before))
    q1, q2, q3 = statistics.quantiles(per_page, n=4)
    print(f"\n{args.method}, this tree over before, page by page: median {q2:.3f}, "
          f"quartiles {q1:.3f}–{q3:.3f}, total {sum(this) / sum(before):.3f} ({len(per_page)} pages)")
    if args.phases:
        print("\nthe extraction in two (millions of instructions, median page; this over before):")
        print(_common.table_head(["phase", "before", "this", "this over before, median page", "all pages"], "lrrrr"))
        for k, phase in ((2, "load: decode, parse, segment…"), (3, f"{args.method} and txt")):
            before, this = counted["before"][k], counted["this"][k]
            print(_common.table_row([phase, f"{statistics.median(before) / 1e6:.1f}",
                                     f"{statistics.median(this) / 1e6:.1f}",
                                     f"{statistics.median(t / b for t, b in zip(this, before)):.3f}",
                                     f"{sum(this) / sum(before):.3f}"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
