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


def child(method: str, sample: int, seed: int) -> None:
    """The process callgrind counts: a warm-up page, then for every page a mark, the
    parse, a mark, the extraction; a last mark closes the last count."""
    import speed

    from detourage.api import extract
    from detourage.decode import decode
    from detourage.parse import parse

    pages = speed.load_pages(_common.DATASETS, None, sample, seed)
    extract(pages[0].data, method=method, format="txt")
    parse(decode(pages[0].data).text)
    for page in pages:
        math.gcd(1, 1)
        parse(decode(page.data).text)
        math.gcd(1, 1)
        extract(page.data, method=method, format="txt")
    math.gcd(1, 1)


def count(src: Path, method: str, sample: int, seed: int, work: Path) -> tuple[list[int], list[int]]:
    """Run :func:`child` under callgrind with ``src`` first on the path: the instructions of
    each page's parse and of its extraction, in page order."""
    env = {**os.environ, "PYTHONHASHSEED": "0",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")]))}
    out = work / "callgrind.out"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--dump-before={MARK}",
                    sys.executable, __file__, "--child", "--method", method, "--sample", str(sample),
                    "--seed", str(seed)], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    dumps = sorted(work.glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
    counts = [int(_TOTALS.search(p.read_bytes()).group(1)) for p in dumps]  # type: ignore[union-attr]
    for p in work.glob("callgrind.out*"):
        p.unlink()
    # the first dump holds start-up, loading and warm-up; then parse, extract, parse, …
    steps = counts[1:]
    if len(steps) % 2:
        raise RuntimeError(f"callgrind closed {len(counts)} counts, expected an odd number")
    return steps[0::2], steps[1::2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--before", type=Path, help="the other checkout's src folder (built)")
    ap.add_argument("--method", default="default")
    ap.add_argument("--sample", type=int, default=20, help="pages per dataset (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the draw, as speed.py's (default: 0)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.method, args.sample, args.seed)
        return 0
    if args.before is None or not (args.before / "detourage").is_dir():
        ap.exit(2, f"instructions_ab: no detourage package under --before {args.before}\n")
    if shutil.which("valgrind") is None:
        ap.exit(2, "instructions_ab: valgrind not found (Debian: apt install valgrind)\n")
    trees = {"before": args.before.resolve(), "this": SOURCE}
    counted: dict[str, tuple[list[int], list[int]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, src in trees.items():
            counted[name] = count(src, args.method, args.sample, args.seed, Path(tmp))
            print(f"{name}: {len(counted[name][0])} pages counted", flush=True)
    print(f"\nmillions of instructions, median page ({args.sample} pages per dataset, seed {args.seed}):")
    print(_common.table_head(["tree", "parse-only", args.method, "ratio"], "lrrr"))
    for name, (parses, extracts) in counted.items():
        p, e = statistics.median(parses), statistics.median(extracts)
        print(_common.table_row([f"{name} ({trees[name]})", f"{p / 1e6:.1f}", f"{e / 1e6:.1f}", f"{e / p:.3f}×"]))
    before, this = counted["before"][1], counted["this"][1]
    per_page = sorted(t / b for t, b in zip(this, before))
    q1, q2, q3 = statistics.quantiles(per_page, n=4)
    print(f"\n{args.method}, this tree over before, page by page: median {q2:.3f}, "
          f"quartiles {q1:.3f}–{q3:.3f}, total {sum(this) / sum(before):.3f} ({len(per_page)} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
