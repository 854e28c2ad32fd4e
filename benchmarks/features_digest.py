"""Did a change meant to be a pure speed-up change what the learned extractor computes?

For every shared page (the ``.html`` pages of ``--datasets`` and the ``.html.gz`` pages of
``--extra``), one digest of the learned features (the matrix, the ancestors' spans, the
structure signatures and the paragraph lengths: everything the forests and the page-level
steps read) and one of the labels ``--method`` gives the blocks.  Run it before and after
the change (a worktree at the old commit, with its own build, for "before"), then compare:

    python benchmarks/features_digest.py --json after.json
    python benchmarks/features_digest.py --compare before.json after.json

The comparison names the pages whose features or labels differ; none means the change
kept every page's features bit for bit, so a leave-one-dataset-out run would retrain the
same models.  About 2–3 minutes for the ~3 750 pages on one core.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from pathlib import Path

import _common
from speed import load_pages


def pages(datasets: Path, extra: Path) -> list[tuple[str, bytes]]:
    """(dataset/id, bytes) of every page."""
    out = [(f"{p.dataset}/{p.id}", p.data) for p in load_pages(datasets, None, None, 0)]
    for path in sorted(extra.glob("*/html/*.html.gz")) if extra.is_dir() else ():
        out.append((f"{path.parents[1].name}/{path.name.removesuffix('.html.gz')}", gzip.decompress(path.read_bytes())))
    return out


def digests(items: list[tuple[str, bytes]], method: str) -> dict[str, dict[str, str]]:
    """Page → {"features": md5, "labels": md5}."""
    from detourage.api import load, run
    from detourage.learned import features

    out = {}
    for name, data in items:
        page = load(data)
        para = features.compute(page)
        arrays = (para.X, para.spans, para.signature, para.chars)
        labels = run(page, method).labels.labels
        out[name] = {"features": hashlib.md5(b"".join(a.tobytes() for a in arrays)).hexdigest(),
                     "labels": hashlib.md5(" ".join(label.value for label in labels).encode()).hexdigest()}
    return out


def compare(before: dict[str, dict[str, str]], after: dict[str, dict[str, str]]) -> list[str]:
    lines = []
    common = sorted(before.keys() & after.keys())
    for key in ("features", "labels"):
        differ = [name for name in common if before[name][key] != after[name][key]]
        lines.append(f"{key}: {len(differ)} of {len(common)} pages differ" + (f": {', '.join(differ[:20])}"
                                                                             if differ else ""))
    if before.keys() ^ after.keys():
        lines.append(f"{len(before.keys() ^ after.keys())} pages in one run only")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    _common.add_datasets(ap)
    ap.add_argument("--extra", type=Path, default=_common.DATASETS_EXTRA,
                    help="folder of extra datasets (.html.gz pages)")
    ap.add_argument("--method", default="learned", help="the method whose labels are digested")
    ap.add_argument("--json", type=Path, help="write the digests here")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="compare two --json files")
    args = ap.parse_args(argv)
    if args.compare:
        before, after = (json.loads(path.read_text()) for path in args.compare)
        print("\n".join(compare(before, after)))
        return 0
    if not args.datasets.is_dir():
        print(f"no datasets folder at {args.datasets}", file=sys.stderr)
        return 2
    found = digests(pages(args.datasets, args.extra), args.method)
    if args.json:
        args.json.write_text(json.dumps(found, indent=0, sort_keys=True))
    print(f"{len(found)} pages digested")
    return 0


if __name__ == "__main__":
    sys.exit(main())
