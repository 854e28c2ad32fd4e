"""Did a change meant to keep behaviour change what detourage writes?

For every shared page (the ``.html`` pages of ``--datasets`` and the ``.html.gz`` pages of
``--extra``), one md5 per (method, format, page) of what ``render`` writes: every
registered method and variant (the peers excluded: their libraries are not ours), every
format of :data:`detourage.render.RENDERERS` with its defaults.  The methods of ``--full``
(default: ``learned``, the default method) run on every page; the others on ``--sample``
pages of each dataset (the same pages every run: a seeded draw from the sorted names), to
keep a run affordable.  The JSON format's ``timings_ms`` are measured, so their values are
set to 0 before the digest (their names are kept).  Run it before and after the change (a
worktree at the old commit, with its own build, for "before"), then compare:

    python benchmarks/outputs_digest.py --json after.json
    python benchmarks/outputs_digest.py --compare before.json after.json

The comparison names the (method, format) pairs whose outputs differ and their first
pages; none means the change kept every output byte for byte.  A page that raises records
the error's class instead of a digest, so a new crash is a difference too.  About 2
minutes of CPU with the defaults, 4–6 minutes on a busy shared machine (``--sample 0``
runs only ``--full``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

import _common
import features_digest


def pages(datasets: Path, extra: Path) -> list[tuple[str, str, bytes]]:
    """(dataset, id, bytes) of every page, in a fixed order (those of features_digest.py)."""
    found = features_digest.pages(datasets, extra)
    return [(name.split("/", 1)[0], name.split("/", 1)[1], data) for name, data in found]


def sampled(items: list[tuple[str, str, bytes]], n: int, seed: int) -> set[tuple[str, str]]:
    """(dataset, id) of ``n`` pages drawn from each dataset (all of a smaller one)."""
    by_dataset: dict[str, list[str]] = defaultdict(list)
    for dataset, page_id, _ in items:
        by_dataset[dataset].append(page_id)
    return {(dataset, page_id) for dataset, ids in by_dataset.items()
            for page_id in (ids if n >= len(ids) else random.Random(seed).sample(sorted(ids), n))}


def every_method() -> list[str]:
    """Every registered method and variant but the peers, in listing order."""
    from detourage import methods
    from detourage.methods import peers

    return [m.name for m in methods.available() if m.name not in peers.PEERS]


def digest_page(data: bytes, names: list[str], formats: list[str]) -> dict[str, dict[str, str]]:
    """Method → format → md5 of the output (or ``error:Class``) for one page."""
    from detourage.api import load, run
    from detourage.render import render

    try:
        page = load(data)
    except Exception as exc:  # noqa: BLE001 - a page that cannot load is one result for every output
        return {name: {fmt: f"error:{type(exc).__name__}" for fmt in formats} for name in names}
    out: dict[str, dict[str, str]] = {}
    for name in names:
        try:
            result = run(page, name)
        except Exception as exc:  # noqa: BLE001 - a method's failure is its result for every format
            out[name] = {fmt: f"error:{type(exc).__name__}" for fmt in formats}
            continue
        out[name] = {fmt: _digest(lambda result=result, fmt=fmt: render(result, fmt)) for fmt in formats}
    return out


#: the JSON record's measured timings: ``"timings_ms": {"decode": 0.087, …}``
_TIMINGS = re.compile(r'("timings_ms": \{)([^}]*)(\})')


def _digest(make) -> str:
    try:
        text = _TIMINGS.sub(lambda m: m[1] + re.sub(r": [-0-9.e]+", ": 0", m[2]) + m[3], make())
        return hashlib.md5(text.encode("utf-8", "surrogatepass")).hexdigest()
    except Exception as exc:  # noqa: BLE001 - a render's failure is that output's digest
        return f"error:{type(exc).__name__}"


def digests(items: list[tuple[str, str, bytes]], full: list[str], others: list[str],
            sample: set[tuple[str, str]], formats: list[str]) -> dict[str, str]:
    """``method|format|dataset/id`` → md5, for every page and every method it runs."""
    out = {}
    for dataset, page_id, data in items:
        names = full + (others if (dataset, page_id) in sample else [])
        for name, by_format in digest_page(data, names, formats).items():
            for fmt, value in by_format.items():
                out[f"{name}|{fmt}|{dataset}/{page_id}"] = value
    return out


def compare(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """One line per (method, format) with differences, then a total."""
    common = sorted(before.keys() & after.keys())
    differ: dict[str, list[str]] = defaultdict(list)
    for key in common:
        if before[key] != after[key]:
            name, fmt, page = key.split("|", 2)
            differ[f"{name} {fmt}"].append(page)
    lines = [f"{pair}: {len(found)} pages differ: {', '.join(found[:10])}"
             for pair, found in sorted(differ.items())]
    lines.append(f"{sum(map(len, differ.values()))} of {len(common)} outputs differ")
    alone = before.keys() ^ after.keys()
    return lines + [f"{len(alone)} outputs in one run only"] * bool(alone)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--methods", help="comma-separated methods run on the sample (default: every registered "
                                      "method and variant but the peers)")
    ap.add_argument("--full", default="learned", help="comma-separated methods run on every page "
                                                      "(default: %(default)s, the default method)")
    ap.add_argument("--sample", type=int, default=40, help="pages per dataset for the other methods "
                                                           "(default: %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the sample's draw")
    ap.add_argument("--formats", help="comma-separated formats (default: every one)")
    _common.add_datasets(ap)
    ap.add_argument("--extra", type=Path, default=_common.DATASETS_EXTRA,
                    help="folder of extra datasets (.html.gz pages)")
    _common.add_json(ap, "the digests")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="compare two --json files")
    args = ap.parse_args(argv)
    if args.compare:
        before, after = (json.loads(path.read_text()) for path in args.compare)
        lines = compare(before, after)
        print("\n".join(lines))
        return 1 if len(lines) > 1 or not lines[0].startswith("0 ") else 0
    if not args.datasets.is_dir():
        print(f"no datasets folder at {args.datasets}", file=sys.stderr)
        return 2
    full = [n for n in args.full.split(",") if n]
    others = [n for n in (args.methods.split(",") if args.methods else every_method()) if n and n not in full]
    from detourage.render import RENDERERS

    formats = args.formats.split(",") if args.formats else list(RENDERERS)
    items = pages(args.datasets, args.extra)
    found = digests(items, full, others, sampled(items, args.sample, args.seed), formats)
    if args.json:
        args.json.write_text(json.dumps(found, indent=0, sort_keys=True))
    print(f"{len(found)} outputs of {len(items)} pages digested ({', '.join(full)} on every page; "
          f"{len(others)} other methods on {args.sample} pages a dataset)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
