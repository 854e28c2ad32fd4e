"""Speed: milliseconds per page for each stage of the pipeline and each method.

One process, one page at a time, the page's bytes already in memory.  For every page of
the chosen datasets it times, each stage on its own with ``time.perf_counter``:

``decode``
    :func:`detourage.decode.decode` of the bytes;
``parse-only``
    decode + :func:`detourage.parse.parse` of the decoded text: the lxml parse every
    method has to pay for, and the yardstick of the ratios below;
``load``
    decode + parse + segment (:func:`detourage.api.load`);
``<method>``
    the full extraction to text, ``detourage.extract(bytes, method=…, format="txt")``
    (load + run + render);
``<method>+metadata`` (with ``--metadata``)
    the same extraction, then the page's metadata (:func:`detourage.metadata.metadata`
    of the same loaded page); the difference of the medians is what metadata costs
    (issue 15: at most 1 ms per page).

Each stage is timed with ``time.perf_counter`` (wall clock, the figures asked for) and
``time.process_time`` (CPU time of this process, which other processes competing for
the machine do not inflate; shown beside, as ``cpu``).

A warm-up pass (``--warmup`` pages per dataset through every stage) runs first, so
imports and first-call costs are not timed.  The garbage collector stays on (its pauses
are part of the real cost); the pages' bytes are frozen out of its way with
``gc.freeze()``.  Reported per stage, overall and per dataset: median, p95 and mean
ms/page, pages/s (1000 / mean), and each method's median divided by parse-only's
median, against the targets (fulltext ≤ 2×, baseline and eatiht ≤ 4×, seed 002's
cleaners and Victor ≤ 5×).  Memory: the
process's peak RSS (``ru_maxrss``, which includes the pages held in memory, shown
apart), and the Python-heap peak (``tracemalloc``) of each method on the largest page;
tracemalloc does not see libxml2's own allocations, so the tree itself is not counted.

    python benchmarks/speed.py                        # all pages, all methods (~1 min)
    python benchmarks/speed.py --sample 50            # 50 pages per dataset, quick
    python benchmarks/speed.py --methods fulltext --json speed.json
    python benchmarks/speed.py --methods boilerpipe --metadata     # metadata's cost
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _common

DEFAULT_METHODS = ("fulltext", "baseline", "eatiht")
#: method → most its median may be, as a multiple of parse-only's median
#: ratio to parse-only: issue 2 (fulltext, baseline, eatiht), issue 4 (seed 002's cleaners),
#: issue 5 (victor), issue 12 (learned), issues 31 and 32 (default: the learned method)
TARGETS = {"fulltext": 2.0, "baseline": 4.0, "eatiht": 4.0, "learned": 4.0, "default": 4.0,
           **{name: 5.0 for name in ("boilerpipe", "boilerpipe-default", "justext", "justext-nostop",
                                     "ncleaner", "ncleaner-nl", "victor")}}
YARDSTICK = "parse-only"
#: method → (peer, how many times faster than the peer its median must be), checked when
#: both run (issue 12: learned ≥ 3× faster than trafilatura)
FASTER_THAN = {"learned": ("peer-trafilatura", 3.0), "default": ("peer-trafilatura", 3.0)}
#: most the metadata may add to an extraction's median, in ms (issue 15)
METADATA_MS = 1.0


@dataclass
class Page:
    dataset: str
    id: str
    data: bytes


@dataclass
class Timings:
    """One stage: wall and CPU seconds per page (None where it raised), and the failures."""

    seconds: list[float | None]
    cpu: list[float | None]
    errors: dict[str, str] = field(default_factory=dict)


def load_pages(root: Path, only: list[str] | None, sample: int | None, seed: int) -> list[Page]:
    pages: list[Page] = []
    for folder in sorted(p for p in root.iterdir() if (p / "html").is_dir()):
        if only is not None and folder.name not in only:
            continue
        paths = sorted((folder / "html").glob("*.html"))
        if sample is not None and sample < len(paths):
            paths = sorted(random.Random(seed).sample(paths, sample))
        pages.extend(Page(folder.name, p.stem, p.read_bytes()) for p in paths)
    return pages


def stages(method_names: list[str], metadata: bool = False) -> dict[str, Callable[[bytes], object]]:
    from detourage.api import extract, load
    from detourage.decode import decode
    from detourage.parse import parse

    table: dict[str, Callable[[bytes], object]] = {
        "decode": decode,
        YARDSTICK: lambda data: parse(decode(data).text),
        "load": load,
    }
    for name in method_names:
        table[name] = _extractor(extract, name)
        if metadata:
            table[f"{name}+metadata"] = _with_metadata(name)
    return table


def _with_metadata(method: str) -> Callable[[bytes], object]:
    from detourage.api import load, run
    from detourage.metadata import metadata
    from detourage.render import render

    def go(data: bytes) -> object:
        result = run(load(data), method)
        return render(result, "txt"), metadata(result.page)
    return go


def _extractor(extract: Callable[..., str], method: str) -> Callable[[bytes], object]:
    def run(data: bytes) -> object:
        return extract(data, method=method, format="txt")
    return run


def time_all(pages: list[Page], funcs: dict[str, Callable[[bytes], object]],
             order: str = "pages") -> dict[str, Timings]:
    """Time every stage on every page: page by page, all stages of a page in a row
    (``order="pages"``: a change of the machine's load touches every stage alike), or
    stage by stage, each over all the pages (``"stages"``: as one method runs over a
    corpus, its tables and models staying in the CPU caches from page to page)."""
    result = {name: Timings([None] * len(pages), [None] * len(pages)) for name in funcs}
    clock, cpu_clock = time.perf_counter, time.process_time
    if order == "pages":
        steps = ((i, page, name, func) for i, page in enumerate(pages) for name, func in funcs.items())
    else:
        steps = ((i, page, name, func) for name, func in funcs.items() for i, page in enumerate(pages))
    for i, page, name, func in steps:
        c0 = cpu_clock()
        t0 = clock()
        try:
            func(page.data)
        except Exception as exc:  # noqa: BLE001 - a failing page is counted, not fatal
            result[name].errors[f"{page.dataset}/{page.id}"] = f"{type(exc).__name__}: {exc}"[:200]
            continue
        t1 = clock()
        result[name].cpu[i] = cpu_clock() - c0
        result[name].seconds[i] = t1 - t0
    return result


def warm_up(pages: list[Page], funcs: dict[str, Callable[[bytes], object]], per_dataset: int) -> None:
    seen: dict[str, int] = {}
    for page in pages:
        if seen.get(page.dataset, 0) >= per_dataset:
            continue
        seen[page.dataset] = seen.get(page.dataset, 0) + 1
        for func in funcs.values():
            try:
                func(page.data)
            except Exception:  # noqa: BLE001 - errors are counted in the timed pass
                pass


def percentile(sorted_xs: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    return sorted_xs[max(0, math.ceil(q * len(sorted_xs)) - 1)]


def summarize(seconds: list[float]) -> dict[str, Any]:
    xs = sorted(s * 1000 for s in seconds)
    if not xs:
        return {"pages": 0, "median_ms": math.nan, "p95_ms": math.nan, "mean_ms": math.nan,
                "max_ms": math.nan, "pages_per_s": math.nan}
    mean = statistics.fmean(xs)
    return {"pages": len(xs), "median_ms": statistics.median(xs), "p95_ms": percentile(xs, 0.95),
            "mean_ms": mean, "max_ms": xs[-1], "pages_per_s": 1000 / mean if mean else math.inf}


def figures(pages: list[Page], timed: dict[str, Timings], dataset: str | None) -> dict[str, dict]:
    """Stage → summary over the pages of ``dataset`` (all when None), with ratio and errors."""
    out: dict[str, dict] = {}
    for name, timings in timed.items():
        chosen = [s for p, s in zip(pages, timings.seconds) if dataset is None or p.dataset == dataset]
        row = summarize([s for s in chosen if s is not None])
        cpu = [c for p, c in zip(pages, timings.cpu) if c is not None and (dataset is None or p.dataset == dataset)]
        row["cpu_median_ms"] = statistics.median(cpu) * 1000 if cpu else math.nan
        row["cpu_total_s"] = sum(cpu)
        row["wall_total_s"] = sum(s for s in chosen if s is not None)
        row["errors"] = sum(s is None for s in chosen)
        out[name] = row
    base = out[YARDSTICK]["median_ms"]
    cpu_base = out[YARDSTICK]["cpu_median_ms"]
    for name, row in out.items():
        row["ratio"] = row["median_ms"] / base if base else math.nan
        row["cpu_ratio"] = row["cpu_median_ms"] / cpu_base if cpu_base else math.nan
        target = TARGETS.get(name)
        row["target"] = target
        row["meets_target"] = None if target is None else bool(row["ratio"] <= target)
    return out


_HEAD = ("| stage      | pages | median ms |  p95 ms |  mean ms |   max ms | pages/s | × parse |"
         "      target | cpu median ms | cpu × parse | errors |\n"
         "|------------|------:|----------:|--------:|---------:|---------:|--------:|--------:|"
         "------------:|--------------:|------------:|-------:|")


def render_table(rows: dict[str, dict]) -> str:
    lines = [_HEAD]
    for name, r in rows.items():
        target = "" if r["target"] is None else (
            f"≤ {r['target']:.0f}× {'ok' if r['meets_target'] else 'MISSED'}")
        lines.append(
            f"| {name:<10} | {r['pages']:>5} | {r['median_ms']:>9.2f} | {r['p95_ms']:>7.2f} | "
            f"{r['mean_ms']:>8.2f} | {r['max_ms']:>8.1f} | {r['pages_per_s']:>7.1f} | "
            f"{r['ratio']:>6.2f}× | {target:>11} | {r['cpu_median_ms']:>13.2f} | "
            f"{r['cpu_ratio']:>10.2f}× | {r['errors']:>6} |")
    return "\n".join(lines)


def machine() -> dict[str, str]:
    from lxml import etree

    import detourage

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "unknown"
    try:
        commit = subprocess.run(["git", "-C", str(Path(__file__).parent), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "cpu": cpu,
        "cpus": str(os.cpu_count()),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "lxml": ".".join(map(str, etree.LXML_VERSION)),
        "libxml2": ".".join(map(str, etree.LIBXML_VERSION)),
        "detourage": f"{detourage.__version__} {commit}".strip(),
    }


def tracemalloc_peaks(page: Page, method_names: list[str]) -> dict[str, float]:
    """Python-heap peak (MiB) of each method's extraction of one page."""
    from detourage.api import extract

    peaks = {}
    for name in method_names:
        gc.collect()
        tracemalloc.start()
        try:
            extract(page.data, method=name, format="txt")
            peaks[name] = tracemalloc.get_traced_memory()[1] / 2**20
        except Exception:  # noqa: BLE001
            peaks[name] = math.nan
        finally:
            tracemalloc.stop()
    return peaks


def maxrss_mib() -> float:
    # Linux reports kilobytes, macOS bytes
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if sys.platform == "darwin" else rss / 1024


def faster_than(overall: dict[str, dict]) -> list[str]:
    """Print each FASTER_THAN check whose method and peer both ran; the missed ones."""
    missed = []
    for name, (peer, factor) in FASTER_THAN.items():
        if name in overall and peer in overall:
            speedup = overall[peer]["median_ms"] / overall[name]["median_ms"]
            ok = speedup >= factor
            print(f"- {name} vs {peer}: {speedup:.1f}× faster at the median (target ≥ {factor:.0f}×: "
                  f"{'ok' if ok else 'MISSED'})")
            if not ok:
                missed.append(f"{name} vs {peer}")
    return missed


def metadata_cost(overall: dict[str, dict], method_names: list[str]) -> list[str]:
    """Print what metadata adds to each method timed with it (``--metadata``); the missed ones."""
    missed = []
    for name in method_names:
        if f"{name}+metadata" in overall:
            extra = overall[f"{name}+metadata"]["median_ms"] - overall[name]["median_ms"]
            cpu = overall[f"{name}+metadata"]["cpu_median_ms"] - overall[name]["cpu_median_ms"]
            ok = extra <= METADATA_MS
            print(f"- metadata after {name}: +{extra:.3f} ms at the median (CPU +{cpu:.3f} ms; target "
                  f"≤ {METADATA_MS:g} ms: {'ok' if ok else 'MISSED'})")
            if not ok:
                missed.append(f"{name}+metadata")
    return missed


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    _common.add_datasets(parser)
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME",
                        help="datasets to time (default: all)")
    parser.add_argument("--methods", nargs="+", default=list(DEFAULT_METHODS), metavar="M",
                        help="methods to time (default: %(default)s); missing ones are skipped")
    parser.add_argument("--sample", type=int, default=None, metavar="N",
                        help="time N pages per dataset, drawn with --seed (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample (default: 0)")
    parser.add_argument("--warmup", type=int, default=10, metavar="N",
                        help="pages per dataset through every stage before timing (default: 10)")
    parser.add_argument("--order", choices=("pages", "stages"), default="pages",
                        help="time page by page, all stages of a page in a row (default), or stage by "
                             "stage, each over all the pages (its data stay in the CPU caches)")
    _common.add_json(parser, "every figure (and the per-page errors)")
    parser.add_argument("--metadata", action="store_true",
                        help="also time each method followed by the page's metadata (<method>+metadata)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a method misses its ratio target")
    args = parser.parse_args(argv)
    if not args.datasets.is_dir():
        parser.exit(2, f"speed: datasets folder not found: {args.datasets} (use --datasets)\n")
    return args


def print_header(info: dict, args: argparse.Namespace, n_pages: int, held: float, timing_s: float,
                 overall: dict) -> None:
    """The run's machine, segmentation, sample and wall/CPU lines."""
    print("# detourage speed\n")
    print(f"Machine: {info['cpu']} ({info['cpus']} CPUs), {info['platform']}; Python {info['python']}, "
          f"lxml {info['lxml']} (libxml2 {info['libxml2']}), detourage {info['detourage']}")
    print(f"Segmentation: {__import__('detourage.segment').segment.IMPLEMENTATION}")
    sample = f"{args.sample} per dataset, seed {args.seed}" if args.sample else "all"
    print(f"Pages: {n_pages} ({sample}; {held:.1f} MiB of HTML held in memory); "
          f"warm-up {args.warmup} pages per dataset; timed pass {timing_s:.1f} s")
    wall = sum(r["wall_total_s"] for r in overall.values())
    cpu = sum(r["cpu_total_s"] for r in overall.values())
    print(f"Timed stages: {wall:.1f} s wall, {cpu:.1f} s CPU (wall/CPU {wall / cpu:.2f}; well above 1 "
          f"means other processes competed for the CPU: trust the CPU columns more)")


def print_errors(errors: dict[str, dict[str, str]]) -> None:
    """The pages that raised, per stage."""
    if any(errors.values()):
        print("\nPages that raised:")
        for name, errs in errors.items():
            for page_id, msg in errs.items():
                print(f"- {name}: {page_id}: {msg}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    pages = load_pages(args.datasets, args.only, args.sample, args.seed)
    if not pages:
        sys.exit(f"speed: no page found under {args.datasets}")
    from detourage import methods

    for name in args.methods:
        methods.chain(name)  # an unknown method stops the run here, with the registry's message
    method_names = list(args.methods)
    funcs = stages(method_names, args.metadata)
    held = sum(len(p.data) for p in pages) / 2**20
    gc.collect()
    gc.freeze()  # the pages' bytes and setup objects: not the collector's business while timing
    rss_before = maxrss_mib()

    warm_up(pages, funcs, args.warmup)
    t0 = time.perf_counter()
    timed = time_all(pages, funcs, args.order)
    timing_s = time.perf_counter() - t0
    rss_after = maxrss_mib()
    largest = max(pages, key=lambda p: len(p.data))
    peaks = tracemalloc_peaks(largest, method_names)

    info = machine()
    datasets = sorted({p.dataset for p in pages})
    overall = figures(pages, timed, None)
    per_dataset = {d: figures(pages, timed, d) for d in datasets}

    print_header(info, args, len(pages), held, timing_s, overall)
    print("\n## All datasets\n")
    print(render_table(overall))
    for d in datasets:
        print(f"\n## {d}\n")
        print(render_table(per_dataset[d]))
    errors = {name: timings.errors for name, timings in timed.items()}
    print_errors(errors)
    print("\n## Memory\n")
    print(f"- peak RSS of this process (ru_maxrss): {rss_after:.0f} MiB "
          f"(after loading the pages: {rss_before:.0f} MiB; pages held: {held:.0f} MiB)")
    peak_text = ", ".join(f"{m} {v:.1f} MiB" for m, v in peaks.items())
    print(f"- tracemalloc peak (Python heap only) on the largest page, {largest.dataset}/{largest.id} "
          f"({len(largest.data) / 1024:.0f} KiB): {peak_text}")
    missed = [n for n, r in overall.items() if r["meets_target"] is False]
    missed += faster_than(overall) + metadata_cost(overall, method_names)
    verdict = "all ratio targets met" if not missed else f"targets missed: {', '.join(missed)}"
    total = time.perf_counter() - started
    print(f"\nVerdict: {verdict}. Script wall time {total:.1f} s.")
    if args.json:
        args.json.write_text(json.dumps({
            "machine": info, "pages": len(pages), "sample": args.sample, "seed": args.seed,
            "warmup": args.warmup, "overall": overall, "datasets": per_dataset,
            "errors": errors, "memory": {"maxrss_mib": rss_after, "maxrss_after_loading_mib": rss_before,
                                         "pages_held_mib": held, "largest_page": f"{largest.dataset}/{largest.id}",
                                         "largest_page_bytes": len(largest.data),
                                         "tracemalloc_peak_mib": peaks},
            "timed_pass_s": timing_s, "wall_s": total,
        }, indent=1, default=str), encoding="utf-8")
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
