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

``--cache`` also simulates the caches and the branch predictor (callgrind's
``--cache-sim=yes --branch-sim=yes``, about twice as slow) and weighs each count as
callgrind's own estimate of cycles does (:func:`estimated_cycles`: an instruction 1, a
first-level cache miss or a mispredicted branch 10, a last-level miss 100): what two trees
that execute about as many instructions may still cost apart (a working set that leaves
the cache, branches an interpreter predicts worse).  Still no clock: a model of one.

``--functions N`` reads, in each count, the instructions every C function ran itself
(its callees' not included: callgrind's self cost) and lists, for each step, the N
functions whose count grew most from the other tree to this one and the N that fell most,
summed over the pages. The Python interpreter is one function to callgrind: a change
in Python code shows as the C functions it calls (a regular expression's
``sre_ucs1_match``, a string search's ``any_find_slice``, numpy's ufuncs) and as
``_PyEval_EvalFrameDefault``.  With ``--cache`` the functions are weighed by their
estimated cycles instead: where the misses a change brings lie.

    python benchmarks/instructions_ab.py --before ../before/src --phases --functions 15
    python benchmarks/instructions_ab.py --before ../before/src --cache
    python benchmarks/instructions_ab.py --before ../before/src --cache --phases --functions 15
"""

from __future__ import annotations

import argparse
import collections
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
_TOTALS = re.compile(rb"^totals:((?:\s+\d+)+)", re.M)
_EVENTS = re.compile(rb"^events:(.*)$", re.M)
#: a callgrind name, given whole the first time and then by its number alone: "(12) name", "(12)"
_NAMED = re.compile(r"\((\d+)\)(?: (.*))?")
#: callgrind's estimate of cycles (its ``CEst``): each event's weight; events not named weigh 0
CYCLE_WEIGHTS = {"Ir": 1, "I1mr": 10, "D1mr": 10, "D1mw": 10, "ILmr": 100, "DLmr": 100, "DLmw": 100,
                 "Bcm": 10, "Bim": 10}


def estimated_cycles(events: list[str], totals: list[int]) -> int:
    """A count's cycles as callgrind estimates them (:data:`CYCLE_WEIGHTS`): its
    instructions, ten for each first-level miss and mispredicted branch, a hundred for each
    last-level miss; only the instructions when the caches were not simulated."""
    return sum(CYCLE_WEIGHTS.get(name, 0) * value for name, value in zip(events, totals))


def totals(dump: bytes) -> tuple[int, int]:
    """One dump's instructions and estimated cycles (:func:`estimated_cycles`: its
    instructions again when the caches were not simulated)."""
    events = _EVENTS.search(dump)
    values = [int(v) for v in _TOTALS.search(dump).group(1).split()]  # type: ignore[union-attr]  # every dump has totals
    names = events.group(1).decode().split() if events else ["Ir"]
    return values[names.index("Ir")], estimated_cycles(names, values)


def self_costs(path: Path) -> collections.Counter[str]:
    """What each function cost itself in one callgrind dump (``fn=`` opens a function's
    cost lines; the cost line after a ``calls=`` line is the call's, its callee's whole
    cost, and is not the caller's own): its instructions, or, when the dump holds the
    simulated caches' and branch predictor's events, its estimated cycles
    (:func:`estimated_cycles`' weights)."""
    names: dict[str, str] = {}
    out: collections.Counter[str] = collections.Counter()
    function: str | None = None
    call = False
    weights = [1]  # the events of a cost line, in the order the dump's "events:" line names them
    with path.open("rb") as fh:
        for raw in fh:
            head = raw[:4]
            if raw.startswith(b"events:"):
                events = raw[7:].decode().split()
                simulated = len(events) > 1
                weights = [CYCLE_WEIGHTS.get(name, 0) if simulated else int(name == "Ir") for name in events]
            elif head.startswith(b"fn=") or head == b"cfn=":
                found = _NAMED.fullmatch(raw[raw.index(b"=") + 1:].strip().decode("utf-8", "replace"))
                if found is None:
                    continue
                if found.group(2):
                    names[found.group(1)] = found.group(2)
                if head.startswith(b"fn="):
                    function = names.get(found.group(1), found.group(1))
            elif raw.startswith(b"calls="):
                call = True
            elif raw[:1].isdigit() or raw[:1] in (b"+", b"-", b"*"):
                if call:
                    call = False
                    continue
                fields = raw.split()
                if function is not None and len(fields) >= 2:
                    out[function] += sum(w * int(v) for w, v in zip(weights, fields[1:]))
    return out


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


def count(src: Path, method: str, sample: int, seed: int, work: Path, phases: bool = False,
          functions: bool = False, cache: bool = False) -> tuple[tuple[list[int], ...],
                                                                    tuple[collections.Counter[str], ...],
                                                                    tuple[list[int], ...]]:
    """Run :func:`child` under callgrind with ``src`` first on the path: the instructions of
    each page's parse and of its extraction (with ``phases``: of its load and of its
    method), in page order; with ``functions``, each step's instructions by function,
    summed over the pages (:func:`self_costs`); with ``cache``, each step's estimated
    cycles too (:func:`estimated_cycles`; else that third part is empty)."""
    env = {**os.environ, "PYTHONHASHSEED": "0",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")]))}
    out = work / "callgrind.out"
    simulated = ["--cache-sim=yes", "--branch-sim=yes"] if cache else []
    subprocess.run(["valgrind", "--tool=callgrind", *simulated, f"--callgrind-out-file={out}", f"--dump-before={MARK}",
                    sys.executable, __file__, "--child", "--method", method, "--sample", str(sample),
                    "--seed", str(seed), *(["--phases"] if phases else [])],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dumps = sorted(work.glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
    read = [totals(p.read_bytes()) for p in dumps]
    counts = [instructions for instructions, _ in read]
    cycles = [estimate for _, estimate in read] if cache else []
    # the first dump holds start-up, loading and warm-up; then parse, extract, parse, …
    # (with phases: parse, load, method, parse, …)
    steps, per_page = counts[1:], 3 if phases else 2
    by_function = tuple(collections.Counter[str]() for _ in range(per_page))
    if functions:
        for k, dump in enumerate(dumps[1:]):
            by_function[k % per_page].update(self_costs(dump))
    for p in work.glob("callgrind.out*"):
        p.unlink()
    if len(steps) % per_page:
        raise RuntimeError(f"callgrind closed {len(counts)} counts, not 1 + {per_page} a page")
    return (tuple(steps[k::per_page] for k in range(per_page)), by_function,
            tuple(cycles[1:][k::per_page] for k in range(per_page)) if cycles else ())


def function_changes(before: collections.Counter[str], this: collections.Counter[str],
                     most: int) -> list[tuple[str, int, int]]:
    """(function, before, this) of the ``most`` functions whose count grew most, then of the
    ``most`` that fell most (each list largest change first; a function both in none)."""
    change = sorted(((this[f] - before[f], f) for f in before.keys() | this.keys()), reverse=True)
    grew = [f for d, f in change[:most] if d > 0]
    fell = [f for d, f in reversed(change[-most:]) if d < 0 and f not in grew]
    return [(f, before[f], this[f]) for f in grew + fell]


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
    ap.add_argument("--functions", type=int, default=0, metavar="N",
                    help="list the N C functions whose instructions grew most, and fell most, in each step")
    ap.add_argument("--cache", action="store_true",
                    help="also simulate the caches and branch predictor and compare estimated cycles")
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
    functions: dict[str, tuple[collections.Counter[str], ...]] = {}
    cycles: dict[str, tuple[list[int], ...]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, src in trees.items():
            steps, functions[name], cycles[name] = count(src, args.method, args.sample, args.seed, Path(tmp),
                                                         args.phases, args.functions > 0, args.cache)
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
    if args.cache:
        print_cycles(args.method, trees, cycles, args.phases)
    if args.phases:  # counted holds parse-only, the whole extraction, the load, the method
        print_phases("instructions", args.method, {name: (steps[0], *steps[2:]) for name, steps in counted.items()})
    if args.functions:
        steps = ["parse-only", *(("load", f"{args.method} and txt") if args.phases else (args.method,))]
        print_functions(steps, functions["before"], functions["this"], args.functions, len(counted["this"][0]),
                        "estimated cycles" if args.cache else "instructions")
    return 0


def print_cycles(method: str, trees: dict[str, Path], cycles: dict[str, tuple[list[int], ...]],
                 phases: bool) -> None:
    """The estimated cycles (``--cache``) as the instructions are shown: the median page of
    each tree, its ratio to parse-only, and this tree over the other page by page."""
    print("\nmillions of estimated cycles (simulated caches and branch predictor: "
          "instructions + 10 × first-level misses and mispredicted branches + 100 × last-level misses):")
    print(_common.table_head(["tree", "parse-only", method, "ratio"], "lrrr"))
    whole: dict[str, list[int]] = {}
    for name, steps in cycles.items():
        whole[name] = [load + run for load, run in zip(steps[1], steps[2])] if phases else steps[1]
        p, e = statistics.median(steps[0]), statistics.median(whole[name])
        print(_common.table_row([f"{name} ({trees[name]})", f"{p / 1e6:.1f}", f"{e / 1e6:.1f}", f"{e / p:.3f}×"]))
    per_page = sorted(t / b for t, b in zip(whole["this"], whole["before"]))
    q1, q2, q3 = statistics.quantiles(per_page, n=4)
    print(f"\n{method}, estimated cycles, this tree over before, page by page: median {q2:.3f}, "
          f"quartiles {q1:.3f}–{q3:.3f}, total {sum(whole['this']) / sum(whole['before']):.3f} ({len(per_page)} pages)")
    if phases:
        print_phases("estimated cycles", method, cycles)


def print_phases(what: str, method: str, counted: dict[str, tuple[list[int], ...]]) -> None:
    """The extraction in two (``--phases``): each phase's median page in each tree, and this
    tree over the other (median page, all pages); ``counted`` holds parse-only, the load
    and the method, in that order, for each tree."""
    print(f"\nthe extraction in two (millions of {what}, median page; this over before):")
    print(_common.table_head(["phase", "before", "this", "this over before, median page", "all pages"], "lrrrr"))
    for k, phase in ((1, "load: decode, parse, segment…"), (2, f"{method} and txt")):
        before, this = counted["before"][k], counted["this"][k]
        print(_common.table_row([phase, f"{statistics.median(before) / 1e6:.1f}",
                                 f"{statistics.median(this) / 1e6:.1f}",
                                 f"{statistics.median(t / b for t, b in zip(this, before)):.3f}",
                                 f"{sum(this) / sum(before):.3f}"]))


def print_functions(steps: list[str], before: tuple[collections.Counter[str], ...],
                    this: tuple[collections.Counter[str], ...], most: int, pages: int,
                    what: str = "instructions") -> None:
    """For each step, a table of the C functions whose cost (``what``: instructions, or
    estimated cycles) changed most (:func:`function_changes`), in millions over the ``pages``."""
    for step, before_f, this_f in zip(steps, before, this):
        print(f"\n{step}: the C functions whose {what} changed most, all {pages} pages "
              f"(millions; this tree over before: {sum(this_f.values()) / max(sum(before_f.values()), 1):.3f})")
        print(_common.table_head(["function", "before", "this", "change"], "lrrr"))
        for function, b, t in function_changes(before_f, this_f, most):
            print(_common.table_row([f"`{function}`", f"{b / 1e6:.2f}", f"{t / 1e6:.2f}", f"{(t - b) / 1e6:+.2f}"]))


if __name__ == "__main__":
    sys.exit(main())
