"""A corpus run: plan the shards, run those not done, sum up.

    run(request, on_shard) ─▶ manifest (new, or checked on --resume)
                           ─▶ [template fitted per host, -m template without --template]
                           ─▶ pending shards on the executor ─▶ part files + .done markers
                           ─▶ RunSummary, also written as RUN/summary.json and summary.txt

A run killed at any moment loses only the shards in flight: their temporary files are
removed when it is resumed, and they run again; a shard's file counts only once its
marker is written, so every record is in the output exactly once.
"""

from __future__ import annotations

import collections
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import methods
from . import executors, langid, plan, sinks, templates
from .plan import RunError, Shard
from .work import Config, process_shard

TEMPLATE_FILE = "template.json.gz"


@dataclass(frozen=True, slots=True, kw_only=True)
class Request:
    """What to run: the inputs, the run folder (in ``config``) and how."""

    paths: tuple[str, ...]
    config: Config
    shard_records: int = 1000
    resume: bool = False
    workers: int = 1
    #: None: the local pool; ``local:N`` or ``tcp://HOST:PORT``: Dask
    dask: str | None = None
    patterns: tuple[str, ...] = ()
    #: fit a site template on the run's pages first (``-m template`` without ``--template``)
    fit_template: bool = False
    #: the options that make the output, as JSON (kept in the manifest, checked on resume)
    described: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class RunSummary:
    """What the run folder holds (every session's shards) and what this session did."""

    folder: str
    shards: int = 0
    done: int = 0
    records: int = 0
    rows: int = 0
    ok: int = 0
    failed: collections.Counter[str] = field(default_factory=collections.Counter)
    skipped: collections.Counter[str] = field(default_factory=collections.Counter)
    session_shards: int = 0
    session_rows: int = 0
    session_records: int = 0
    #: from the workers ready to the last shard written: what pages/s is counted over
    seconds: float = 0.0
    #: starting the workers (a Dask cluster; the local pool forks its processes inside
    #: ``seconds``) and stopping them: fixed costs of a session, whatever its size
    start_seconds: float = 0.0
    stop_seconds: float = 0.0
    executor: str = ""

    @property
    def balanced(self) -> bool:
        """Whether every record of the finished shards is one row or one skip reason."""
        return self.records == self.rows + sum(self.skipped.values())

    def as_dict(self) -> dict[str, Any]:
        data = {k: getattr(self, k) for k in self.__dataclass_fields__}
        data.update(failed=dict(self.failed.most_common()), skipped=dict(self.skipped.most_common()),
                    balanced=self.balanced, pages_per_second=round(self.rate, 2))
        return data

    @property
    def rate(self) -> float:
        return self.session_rows / self.seconds if self.seconds > 0 else 0.0

    def __str__(self) -> str:
        failed = sum(self.failed.values())
        line = (f"run {self.folder}: {self.done}/{self.shards} shards done, {self.records} records: "
                f"{self.rows} HTML pages → {self.ok} ok, {failed} failed{_reasons(self.failed)}; "
                f"{sum(self.skipped.values())} records skipped{_reasons(self.skipped)}")
        verdict = "=" if self.balanced else "≠ (RECORDS LOST OR DUPLICATED)"
        line += f"; {self.records} records {verdict} {self.rows} rows + {sum(self.skipped.values())} skipped"
        return (line + f"; this session: {self.session_shards} shards, {self.session_rows} pages in "
                f"{self.seconds:.1f} s, {self.rate:.1f} pages/s ({self.executor}; starting it "
                f"{self.start_seconds:.1f} s, stopping it {self.stop_seconds:.1f} s)")


def _reasons(counts: collections.Counter[str]) -> str:
    return f" ({', '.join(f'{k}: {n}' for k, n in counts.most_common())})" if counts else ""


def run(request: Request, on_shard: Callable[[dict[str, Any]], None] | None = None,
        on_plan: Callable[[int], None] | None = None) -> RunSummary:
    """Run the shards not done yet; ``on_plan(records to clean)`` before, ``on_shard(marker)``
    after each shard."""
    config = request.config
    folder = Path(config.folder)
    langid.warm()  # the extras, checked here before any worker starts
    if config.to in ("parquet", "jsonl.zst"):
        sinks.pyarrow()
    shards = _prepare(request, folder)
    done = _finished(folder)
    pending = [s for s in shards if s.name not in done]
    if on_plan is not None:
        on_plan(sum(s.count for s in pending))
    t_start = time.perf_counter()
    executor = executors.executor(request.dask, request.workers)
    described = f"Dask {request.dask}" if request.dask else f"local pool of {request.workers}"
    t0 = time.perf_counter()
    try:
        if request.fit_template and pending:
            config = _with_template(request, config, shards, executor)
        executor.prepare(config)
        markers = _run_shards(pending, config, executor, on_shard)
        seconds = time.perf_counter() - t0
    finally:
        t_stop = time.perf_counter()
        executor.close()
    summary = summarise(folder, shards)
    summary.session_shards = len(markers)
    summary.session_rows = sum(m["rows"] for m in markers)
    summary.session_records = sum(m["records"] for m in markers)
    summary.seconds = seconds
    summary.start_seconds = t0 - t_start
    summary.stop_seconds = time.perf_counter() - t_stop
    summary.executor = f"{described} worker{'s' * (executor.workers > 1)}"
    _write_summary(folder, summary)
    return summary


def _prepare(request: Request, folder: Path) -> list[Shard]:
    """The run's shards: planned into a new manifest, or read from the manifest of the
    run being resumed; temporary files of an interrupted session removed."""
    existing = plan.read_manifest(folder)
    options = {**request.described, "shard_records": request.shard_records, "patterns": list(request.patterns)}
    if existing is not None and not request.resume:
        raise RunError(f"{folder} holds a run already: --resume to finish it, or give another folder")
    if existing is None:
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise RunError(f"{folder}: not an empty folder, and no run to resume (-o: a new folder "
                           "for a corpus run)")
        shards = plan.plan(request.paths, request.shard_records, patterns=request.patterns,
                           exclude=[str(folder)])
        if not shards:
            raise RunError("no input records found (WARC, JSON lines, web pages)")
        plan.write_manifest(folder, plan.manifest(shards, options, request.paths))
        return shards
    plan.check_resumable(existing, options, list(request.paths))
    for stale in (folder / "shards").glob("*.tmp-*"):
        stale.unlink()
    return [Shard.from_json(s) for s in existing["shards"]]


def _finished(folder: Path) -> set[str]:
    """The shards whose marker says they are done (their file written before it)."""
    return {p.name[:-len(".done")] for p in (folder / "shards").glob("*.done")}


def _with_template(request: Request, config: Config, shards: Sequence[Shard],
                   executor: executors.Executor) -> Config:
    """``config`` with the run's site template: fitted now on every shard's pages (in
    parallel, per host), or the one a previous session fitted."""
    from ..site import template as site_template

    path = Path(config.folder) / TEMPLATE_FILE
    if not path.exists():
        executor.prepare(config)
        template, _ = templates.fit(shards, executor, config)
        temporary = path.with_name(path.name + ".tmp")
        site_template.save(template, temporary)
        temporary.replace(path)
    options = dict(config.options)
    options.update(methods.with_template(config.method, str(path)))
    return replace(config, options=tuple(options.items()))


def _run_shards(pending: Sequence[Shard], config: Config, executor: executors.Executor,
                on_shard: Callable[[dict[str, Any]], None] | None) -> list[dict[str, Any]]:
    """Run the shards; one whose worker died runs again here, each page in a process of
    its own, so that only a page that kills its process is lost (an error row)."""
    markers, died = [], []
    for i, done, marker in executor.map(process_shard, [(s, config) for s in pending]):
        if not done:
            died.append(pending[i])
            continue
        markers.append(marker)
        if on_shard is not None:
            on_shard(marker)
    for shard in died:
        marker = process_shard(shard, config, careful=True)
        markers.append(marker)
        if on_shard is not None:
            on_shard(marker)
    return markers


def summarise(folder: Path, shards: Sequence[Shard]) -> RunSummary:
    """The counts of every finished shard of the run folder."""
    summary = RunSummary(str(folder), shards=len(shards))
    for shard in shards:
        try:
            marker = json.loads((folder / "shards" / f"{shard.name}.done").read_text(encoding="utf-8"))
        except FileNotFoundError:
            continue
        summary.done += 1
        summary.records += marker["records"]
        summary.rows += marker["rows"]
        summary.ok += marker["ok"]
        summary.failed.update(marker["failed"])
        summary.skipped.update(marker["skipped"])
    return summary


def _write_summary(folder: Path, summary: RunSummary) -> None:
    plan.atomic_write(folder / "summary.json", json.dumps(summary.as_dict(), indent=1).encode("utf-8"))
    plan.atomic_write(folder / "summary.txt", (str(summary) + "\n").encode("utf-8"))


def rows(folder: str | Path) -> list[dict[str, Any]]:
    """Every row of a run's finished shards, in shard order (for tests and small runs)."""
    folder = Path(folder)
    out: list[dict[str, Any]] = []
    for name in sorted(_finished(folder)):
        marker = json.loads((folder / "shards" / f"{name}.done").read_text(encoding="utf-8"))
        out.extend(sinks.read(folder / "shards" / marker["file"]))
    return out
