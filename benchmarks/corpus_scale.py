"""Corpus scale (issue 14): a WARC.gz built from the shared datasets' pages, cleaned to
Parquet by ``detourage extract --to parquet`` on the local pool and on Dask.

1. Builds ``bench.warc.gz``: every page of the shared datasets (``datasets/*`` and
   ``datasets-extra/wcxb-dev``) as an HTTP 200 ``text/html`` response with its URL, and,
   every second page, a request record, an image response, a 404 or a redirect in turn,
   so that a third of the records are not pages to clean.
2. Reads it with FastWARC and with warcio (when installed): records/s and MB/s of each.
3. Runs ``detourage extract bench.warc.gz --to parquet`` with the local pool at 1 and 2
   workers and Dask (``--dask local:N``) at 1 and 2: pages/s, CPU seconds per page (all
   processes of the run), the peak resident memory of each worker process, and the row
   count, which must equal the number of HTML records.

    python benchmarks/corpus_scale.py [--out build/corpus_scale] [--runs local:1,local:2,dask:1,dask:2]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil

import _common
from detourage.corpusrun.readers import warc_record


def pages() -> list[tuple[str, bytes]]:
    """(URL, bytes) of every page of the shared datasets, in a fixed order."""
    out = []
    for folder in _common.every_dataset():
        urls = {}
        for line in (folder / "meta.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            urls[row["id"]] = row.get("url")
        for path in sorted((folder / "html").iterdir()):
            page_id = path.name.split(".html")[0]
            data = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
            url = (urls.get(page_id) or f"http://{folder.name}.example/{page_id}").strip().replace(" ", "%20")
            out.append((url, data))
    return out


def build(path: Path) -> tuple[int, int]:
    """Write the WARC.gz; (records, HTML records)."""
    records = html = 0
    with open(path, "wb") as out:
        for n, (url, data) in enumerate(pages()):
            out.write(warc_record(url, data, content_type="text/html", date=f"2024-01-{1 + n % 28:02d}T00:00:00Z"))
            records, html = records + 1, html + 1
            if n % 2 == 0:  # every second page, one record of another kind, in turn
                out.write(_other(url, n // 2 % 4))
                records += 1
    return records, html


def _other(url: str, kind: int) -> bytes:
    """A record that is no page to clean: a request, an image, a 404, a redirect."""
    if kind == 0:
        return warc_record(url, f"GET {url} HTTP/1.1\r\n\r\n".encode(), record_type="request")
    if kind == 1:
        return warc_record(url + ".png", b"\x89PNG\r\n\x1a\n" + bytes(200), content_type="image/png")
    if kind == 2:
        return warc_record(url + "/missing", b"<html><p>Not found</p></html>", status=404)
    return warc_record(url + "/old", b"", status=301, content_type=None)


def read_speed(path: Path) -> dict[str, dict[str, float]]:
    """Records/s and MB/s of reading every record's payload (HTTP parsed) with each reader."""
    size = path.stat().st_size / 1e6
    speeds = {}
    from fastwarc.warc import ArchiveIterator

    t0 = time.perf_counter()
    count = 0
    with open(path, "rb") as handle:
        for record in ArchiveIterator(handle, parse_http=True, fsspec_args=False):
            record.reader.read()
            count += 1
    speeds["fastwarc"] = _speed(count, size, time.perf_counter() - t0)
    try:
        from warcio.archiveiterator import ArchiveIterator as WarcioIterator
    except ImportError:
        return speeds
    t0 = time.perf_counter()
    count = 0
    with open(path, "rb") as handle:
        for record in WarcioIterator(handle):
            record.content_stream().read()
            count += 1
    speeds["warcio"] = _speed(count, size, time.perf_counter() - t0)
    return speeds


def _speed(count: int, size: float, seconds: float) -> dict[str, float]:
    return {"records": count, "seconds": round(seconds, 3), "records_per_s": round(count / seconds),
            "mb_per_s": round(size / seconds, 1)}


def measure(warc: Path, folder: Path, executor: str, workers: int) -> dict:
    """One ``detourage extract --to parquet`` run, watched: wall time, CPU, memory per process."""
    how = ["--dask", f"local:{workers}"] if executor == "dask" else ["-w", str(workers)]
    command = [sys.executable, "-m", "detourage", "extract", str(warc), "-o", str(folder), "--to", "parquet",
               "--shard-size", "100", "--no-progress", *how]
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    peak, cpu = _watch(psutil.Process(process.pid), process)
    wall = time.perf_counter() - t0
    stderr = process.stderr.read() if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{stderr}")
    summary = json.loads((folder / "summary.json").read_text())
    total_cpu = sum(cpu.values())
    # the worker processes: those that did a share of the work (not the scheduler, nanny, tracker)
    workers_seen = [pid for pid, c in cpu.items() if c >= 0.3 * total_cpu / max(workers, 1)
                    and pid != process.pid] or [process.pid]
    import pyarrow.parquet as pq

    row_count = sum(pq.read_metadata(p).num_rows for p in (folder / "shards").glob("*.parquet"))
    return {"executor": executor, "workers": workers, "load_before": round(load, 2), "wall_s": round(wall, 1),
            "pages_per_s": summary["pages_per_second"], "start_s": round(summary.get("start_seconds", 0.0), 1),
            "stop_s": round(summary.get("stop_seconds", 0.0), 1), "rows": row_count, "summary_rows": summary["rows"],
            "skipped": summary["skipped"], "failed": summary["failed"], "balanced": summary["balanced"],
            "cpu_s_per_page": round(total_cpu / max(summary["rows"], 1), 4),
            # CPU seconds by role: the detourage process (for Dask: its client and scheduler),
            # the processes that cleaned pages, and the rest (Dask's nannies, trackers)
            "cpu_s_driver": round(cpu.get(process.pid, 0.0), 1),
            "cpu_s_workers": round(sum(cpu[p] for p in workers_seen if p != process.pid), 1),
            "cpu_s_other": round(total_cpu - cpu.get(process.pid, 0.0)
                                 - sum(cpu[p] for p in workers_seen if p != process.pid), 1),
            "peak_rss_mib_per_worker": sorted(round(peak[p] / 2**20) for p in workers_seen),
            "peak_rss_mib_driver": round(peak.get(process.pid, 0) / 2**20), "summary": stderr.strip()}


def verdicts(results: list[dict]) -> list[str]:
    """The issue's bars on the runs measured: 2 workers ≥ 1.8× one, and Dask within 10 %
    of the local pool at the same number of workers (pages/s: from the workers ready to
    the last shard written; starting and stopping them are the start/stop columns)."""
    rate = {(r["executor"], r["workers"]): r["pages_per_s"] for r in results}
    lines = []
    for executor in ("local", "dask"):
        if (executor, 1) in rate and (executor, 2) in rate:
            ratio = rate[executor, 2] / rate[executor, 1]
            lines.append(f"- {executor}: 2 workers = {ratio:.2f}x one "
                         f"(bar >= 1.8x: {'met' if ratio >= 1.8 else 'MISSED'})")
    for workers in (1, 2):
        if ("local", workers) in rate and ("dask", workers) in rate:
            behind = 1 - rate["dask", workers] / rate["local", workers]
            lines.append(f"- {workers} worker{'s' * (workers > 1)}: Dask {behind:+.1%} behind the local pool "
                         f"(bar <= 10%: {'met' if behind <= 0.10 else 'MISSED'})")
    return lines


def _watch(root: psutil.Process, process: subprocess.Popen) -> tuple[dict[int, int], dict[int, float]]:
    """Poll the run's process tree until it ends: peak RSS and CPU seconds of each process."""
    peak: dict[int, int] = {}
    cpu: dict[int, float] = {}
    while process.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        for proc in tree:
            try:
                with proc.oneshot():
                    peak[proc.pid] = max(peak.get(proc.pid, 0), proc.memory_info().rss)
                    times = proc.cpu_times()
                    cpu[proc.pid] = times.user + times.system
            except psutil.NoSuchProcess:
                continue
        time.sleep(0.2)
    process.wait()
    return peak, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="build/corpus_scale", help="Folder for the WARC and the runs.")
    parser.add_argument("--runs", default="local:1,local:2,dask:1,dask:2",
                        help="Executor:workers pairs to measure (comma-separated).")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    warc = out / "bench.warc.gz"
    records, html = build(warc)
    print(f"{warc}: {records} records, {html} HTML responses, {warc.stat().st_size / 1e6:.1f} MB")
    for name, speed in read_speed(warc).items():
        print(f"read with {name}: {speed}")
    results = []
    for run in args.runs.split(","):
        executor, _, workers = run.partition(":")
        folder = out / f"run-{executor}-{workers}"
        subprocess.run(["rm", "-rf", str(folder)], check=True)
        result = measure(warc, folder, executor, int(workers))
        results.append(result)
        print(json.dumps(result, ensure_ascii=False), flush=True)
        assert result["rows"] == html, f"{result['rows']} rows for {html} HTML records"
    print("\n| executor | workers | load before | pages/s | wall s | start s | stop s | CPU s/page "
          "| CPU s: driver / workers / other | peak RSS per worker (MiB) | rows | HTML records |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |")
    for r in results:
        print(f"| {r['executor']} | {r['workers']} | {r['load_before']} | {r['pages_per_s']} | {r['wall_s']} "
              f"| {r['start_s']} | {r['stop_s']} | {r['cpu_s_per_page']} "
              f"| {r['cpu_s_driver']} / {r['cpu_s_workers']} / {r['cpu_s_other']} "
              f"| {', '.join(map(str, r['peak_rss_mib_per_worker']))} | {r['rows']} | {html} |")
    print()
    for line in verdicts(results):
        print(line)
    (out / "results.json").write_text(json.dumps({"records": records, "html": html, "runs": results}, indent=1))


if __name__ == "__main__":
    main()
