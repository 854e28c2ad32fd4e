"""datatrove's trafilatura step against detourage's, in the same pipeline on the same pages.

The shared datasets' pages are written into one WARC (each a ``response`` record with
its URL from ``meta.jsonl`` and ``WARC-Identified-Payload-Type: text/html``, as Common
Crawl writes them); then, for each step, datatrove runs ``WarcReader → step →
JsonlWriter`` on one task (``LocalPipelineExecutor``), and the script prints:

- pages/s of the whole pipeline (wall time of the executor's run: reading, extraction in
  the step's sandbox, writing) and of the step alone (its time in datatrove's stats);
- what the step counted (extracted, forwarded, dropped, timeout, clean_error);
- shingle F1 of each step's text against the gold, per dataset: precision and recall
  averaged over pages, F1 from the averages (``detourage evaluate``'s measure); a page a
  step did not forward counts as an empty output.

detourage's shipped model was trained on these datasets: its F1 here is on pages it saw.
With ``--models DIR`` (the fold models ``benchmarks/learned_lodo.py --models DIR`` keeps,
``DIR/<dataset>.zip`` fitted without that dataset) the F1 of detourage is measured again,
each dataset's pages through the step with the model that never saw them: that is the
figure to compare.  The speed is the shipped model's.

The steps run with their defaults, those of FineWeb's pipeline for trafilatura
(``Trafilatura(favour_precision=True, deduplicate=True)``) and ``Detourage()``; both get
``--timeout`` seconds a page.  Both read the text datatrove's reader decoded (UTF-8, else
cchardet's guess), not the bytes.

    python benchmarks/datatrove_step.py                       # every page, a few minutes
    python benchmarks/datatrove_step.py --sample 100 --json datatrove.json
    python benchmarks/datatrove_step.py --models build/learned/folds-base  # F1 on unseen pages
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import _common
from detourage.corpusrun.readers import warc_record
from detourage.evaluation.metrics import shingle_counts, shingle_summary
from detourage.gold import load_dataset


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=None, metavar="NAME", help="these datasets (default: all five)")
    parser.add_argument("--sample", type=int, default=None, help="pages per dataset (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds a page, for both steps (default 5)")
    parser.add_argument("--steps", nargs="+", default=["trafilatura", "detourage"],
                        choices=["trafilatura", "detourage"])
    parser.add_argument("--models", type=Path, default=None, metavar="DIR",
                        help="fold models DIR/<dataset>.zip, each fitted without its dataset: detourage's F1 "
                             "on pages its model never saw")
    _common.add_json(parser, "the figures")
    return parser.parse_args(argv)


def write_warcs(datasets: list[Path], sample: int | None, seed: int, folder: Path) -> dict[str, tuple[str, object]]:
    """The pages with gold, one WARC a dataset (``folder/<dataset>/pages.warc.gz``);
    record id → (dataset, gold blocks)."""
    golds: dict[str, tuple[str, object]] = {}
    for root in datasets:
        (folder / root.name).mkdir(parents=True)
        with open(folder / root.name / "pages.warc.gz", "wb") as out:
            pages = [d for d in load_dataset(root).documents if d.scorable and d.gold_blocks]
            if sample is not None and sample < len(pages):
                pages = random.Random(seed).sample(pages, sample)
            for doc in pages:
                record_id = f"<urn:detourage:{root.name}/{doc.id}>"
                url = doc.meta.get("url") or f"http://{root.name}.example/{doc.id}"
                out.write(warc_record(url, doc.read_html(), identified_type="text/html", record_id=record_id,
                                      content_type=None))
                golds[record_id] = (root.name, doc.gold_blocks)
    return golds


def make_step(name: str, timeout: float, model: Path | None = None) -> object:
    if name == "trafilatura":
        from datatrove.pipeline.extractors import Trafilatura

        return Trafilatura(favour_precision=True, timeout=timeout)
    from detourage import Settings, with_models
    from detourage.integrations.datatrove import Detourage

    if model is None:
        return Detourage(timeout=timeout)
    return Detourage(Settings(options=tuple(with_models("default", str(model)).items())), timeout=timeout)


def run_step(name: str, warc_dir: Path, work: Path, timeout: float, model: Path | None = None) -> dict:
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter

    label = name if model is None else f"{name}-{model.stem}"
    out, logs = work / f"out-{label}", work / f"logs-{label}"
    step = make_step(name, timeout, model)
    started = time.perf_counter()
    LocalPipelineExecutor(pipeline=[WarcReader(str(warc_dir)), step, JsonlWriter(str(out), compression=None)],
                          tasks=1, logging_dir=str(logs)).run()
    wall = time.perf_counter() - started
    texts = {row["id"]: row["text"] for f in sorted(out.iterdir()) for row in map(json.loads, f.open())}
    stats = json.loads(next((logs / "stats").iterdir()).read_text())
    extractor = next(s for s in stats if "EXTRAC" in s["name"])
    counted = {k: (v["total"] if isinstance(v, dict) else v) for k, v in extractor["stats"].items()
               if k in ("total", "extracted", "forwarded", "dropped", "timeout", "clean_error", "broken_process")}
    return {"wall_s": wall, "step_s": extractor["time_stats"]["total"], "counted": counted, "texts": texts}


def scores(golds: dict[str, tuple[str, object]], texts: dict[str, str]) -> dict[str, dict]:
    by_dataset: dict[str, list] = {}
    for record_id, (dataset, gold) in golds.items():
        by_dataset.setdefault(dataset, []).append(shingle_counts(texts.get(record_id, ""), gold))
    by_dataset["all"] = [c for name in list(by_dataset) for c in by_dataset[name]]
    out = {}
    for dataset, counts in by_dataset.items():
        summary = shingle_summary(counts, n_bootstrap=200)
        out[dataset] = {"pages": summary.pages, "precision": summary.precision, "recall": summary.recall,
                        "f1": summary.f1, "f1_interval": summary.f1_interval}
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    datasets = [d for d in _common.every_dataset() if args.only is None or d.name in args.only]
    if not all((d / "html").is_dir() for d in datasets):
        print(f"the shared datasets are not in {_common.SHARED}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="datatrove-bench-") as tmp:
        work = Path(tmp)
        golds = write_warcs(datasets, args.sample, args.seed, work / "warc")
        size = sum(f.stat().st_size for f in (work / "warc").rglob("*.warc.gz"))
        print(f"{len(golds)} pages with gold from {len(datasets)} datasets, WARCs of {size / 2**20:.1f} MiB; "
              f"timeout {args.timeout:g} s a page; one task", file=sys.stderr)
        results = {}
        for name in args.steps:
            print(f"running the {name} step…", file=sys.stderr)
            run = run_step(name, work / "warc", work, args.timeout)
            results[name] = {**{k: v for k, v in run.items() if k != "texts"}, "scores": scores(golds, run["texts"])}
        unseen = None
        if args.models is not None and "detourage" in args.steps:
            texts: dict[str, str] = {}
            for root in datasets:
                print(f"running the detourage step on {root.name} with {args.models / root.name}.zip…",
                      file=sys.stderr)
                texts.update(run_step("detourage", work / "warc" / root.name, work, args.timeout,
                                      args.models / f"{root.name}.zip")["texts"])
            unseen = scores(golds, texts)
    n = len(golds)
    print(_common.table_head(["step", "pages", "pipeline pages/s", "step pages/s", "forwarded", "dropped",
                              "timeout", "error"], "lrrrrrrr"))
    for name, r in results.items():
        c = r["counted"]
        read = c.get("total", n)  # the pages the reader passed on (it drops what it cannot decode)
        print(_common.table_row([name, read, f"{read / r['wall_s']:.1f}", f"{read / r['step_s']:.1f}",
                                 c.get("forwarded", 0),
                                 c.get("dropped", 0), c.get("timeout", 0),
                                 c.get("clean_error", 0) + c.get("broken_process", 0)]))
    print()
    columns = {name: r["scores"] for name, r in results.items()}
    if "detourage" in columns:
        columns["detourage (shipped model: saw these pages)"] = columns.pop("detourage")
    if unseen is not None:
        columns["detourage (model without the dataset)"] = unseen
    rows = list(next(iter(columns.values())))
    print(_common.table_head(["dataset", "pages", *(f"{s} F1 (P / R)" for s in columns)], "lr" + "r" * len(columns)))
    for dataset in rows:
        cells = [f"{c[dataset]['f1']:.3f} ({c[dataset]['precision']:.3f} / {c[dataset]['recall']:.3f})"
                 for c in columns.values()]
        label = f"**{dataset}**" if dataset == "all" else dataset
        print(_common.table_row([label, next(iter(columns.values()))[dataset]["pages"], *cells]))
    if args.json:
        Path(args.json).write_text(json.dumps({"pages": n, "timeout": args.timeout, "results": results,
                                               "unseen": unseen}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
