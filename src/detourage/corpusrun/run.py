"""A corpus run: plan the shards, run those not done, sum up.

    run(request, on_shard) ─▶ plan (new) or manifest (--resume), read only
                           ─▶ executor started ─▶ RUN/.lock taken ─▶ manifest written
                           ─▶ [template fitted per host, -m template without --template]
                           ─▶ pending shards on the executor ─▶ part files, then their markers
                           ─▶ RunSummary, also written as RUN/summary.json and summary.txt

Nothing is written before the run can start: a usage error found late (``--dask
local:0``, a scheduler that does not answer) leaves no run folder behind.  A run folder
holds one live run at a time: ``RUN/.lock`` is locked (``fcntl.flock``) for the run's
life, and the kernel releases it when the process ends, however it ends.

A run killed at any moment loses only the shards in flight: their temporary files are
removed when it is resumed, and they run again; a shard's file counts only once its
marker is written, so every record is in the output exactly once.  A run stopped by a
:class:`~detourage.corpusrun.executors.Stop` (the first Ctrl-C of ``detourage extract``)
starts no more shards and gives the running ones a few seconds; its summary says
``interrupted``.

:attr:`RunSummary.exit_status` is the status ``detourage extract --to`` exits with:

=====  ==================================================================
0      every shard done, every record accounted for, some page cleaned
1      shards not done, records lost or duplicated, or no page cleaned
2      a usage error (the command line, the run folder, the inputs)
3      done and accounted for, but the input was damaged: records lost to
       truncated or corrupt files (the summary's ``damaged`` and ``damage``)
130    interrupted (Ctrl-C): finish it with ``--resume``
=====  ==================================================================
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import methods
from . import executors, langid, plan, sinks, templates
from .plan import RunError, Shard
from .work import DAMAGE_LISTED, RunConfig, process_shard

TEMPLATE_FILE = "template.json.gz"


@dataclass(frozen=True, slots=True, kw_only=True)
class Request:
    """What to run: the inputs, the run folder (in ``config``) and how."""

    paths: tuple[str, ...]
    config: RunConfig
    shard_records: int = 1000
    resume: bool = False
    workers: int = 1
    #: None: the local pool; ``local:N`` or ``tcp://HOST:PORT``: Dask
    dask: str | None = None
    patterns: tuple[str, ...] = ()
    #: fit a site template on the run's pages first (``-m template`` without ``--template``)
    fit_template: bool = False


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
    #: records lost to a damaged input (skipped with a damage reason), and the first
    #: damaged spans with their file and byte offset
    damaged: int = 0
    damage: list[dict[str, Any]] = field(default_factory=list)
    #: shards this session could not read (an I/O error): not done, run again on --resume
    unread: list[str] = field(default_factory=list)
    interrupted: bool = False

    @property
    def exit_status(self) -> int:
        """The status ``detourage extract --to`` exits with (the module's table)."""
        if self.interrupted:
            return 130
        if self.done < self.shards or self.ok == 0 or not self.balanced:
            return 1
        return 3 if self.damaged else 0

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
        failed, skipped = sum(self.failed.values()), sum(self.skipped.values())
        line = (f"run {self.folder}: {self.done}/{counted(self.shards, 'shard')} done, "
                f"{counted(self.records, 'record')}: {counted(self.rows, 'HTML page')} → {self.ok} ok, "
                f"{failed} failed{_reasons(self.failed)}; {counted(skipped, 'record')} skipped"
                f"{_reasons(self.skipped)}")
        verdict = "=" if self.balanced else "≠ (RECORDS LOST OR DUPLICATED)"
        line += f"; {counted(self.records, 'record')} {verdict} {counted(self.rows, 'row')} + {skipped} skipped"
        line += (f"; this session: {counted(self.session_shards, 'shard')}, {counted(self.session_rows, 'page')} "
                 f"in {self.seconds:.1f} s, {self.rate:.1f} pages/s ({self.executor}; starting it "
                 f"{self.start_seconds:.1f} s, stopping it {self.stop_seconds:.1f} s)")
        if self.damaged:
            first = self.damage[0] if self.damage else None
            line += (f"; INPUT DAMAGED: {counted(self.damaged, 'record')} lost to truncated or corrupt input"
                     + (f" (first: {first['source']} at byte {first['offset']}: {first['message']})" if first else ""))
        if self.unread:
            line += (f"; {counted(len(self.unread), 'shard')} could not be read ({self.unread[0]}): "
                     "--resume runs them again")
        return line


def counted(n: int, noun: str) -> str:
    """``1 shard``, ``0 shards``, ``12 shards``: a count and its noun, in the plural but for one."""
    return f"{n} {noun}{'s' * (n != 1)}"


def _reasons(counts: collections.Counter[str]) -> str:
    return f" ({', '.join(f'{k}: {n}' for k, n in counts.most_common())})" if counts else ""


def run(request: Request, on_shard: Callable[[dict[str, Any]], None] | None = None,
        on_plan: Callable[[int], None] | None = None, stop: executors.Stop | None = None) -> RunSummary:
    """Run the shards not done yet; ``on_plan(records to clean)`` before, ``on_shard(marker)``
    after each shard; ``stop`` ends it early (its ``done``/``total`` follow the run)."""
    config = request.config
    folder = Path(config.folder)
    langid.warm()  # the extras, checked here before any worker starts
    if config.to in ("parquet", "jsonl.zst"):
        sinks.pyarrow()
    shards, new = _prepare(request, folder)
    t_start = time.perf_counter()
    executor = choose_executor(request.dask, request.workers)
    stop = stop or executors.Stop()
    stop.on_abort = executor.abort
    described = f"Dask {request.dask}" if request.dask else f"local pool of {request.workers}"
    t0 = time.perf_counter()
    try:
        with _locked(folder):
            _claim(request, folder, shards, new)
            done = plan.finished(folder)
            pending = [s for s in shards if s.name not in done]
            stop.done, stop.total = len(shards) - len(pending), len(shards)
            if on_plan is not None:
                on_plan(sum(s.count for s in pending))
            t0 = time.perf_counter()
            if request.fit_template and pending:
                config = _with_template(request, config, shards, executor)
            executor.prepare(config)
            markers, unread = _run_shards(pending, config, executor, on_shard, stop)
            seconds = time.perf_counter() - t0
            t_stop = time.perf_counter()
            summary = summarise(folder, shards)
            if summary.done == summary.shards:  # finished: no lock left behind (a resume has nothing to do)
                (folder / LOCK_FILE).unlink(missing_ok=True)
    finally:
        stop.on_abort = None
        executor.close()
    summary.session_shards = len(markers)
    summary.session_rows = sum(m["rows"] for m in markers)
    summary.session_records = sum(m["records"] for m in markers)
    summary.seconds = seconds
    summary.start_seconds = t0 - t_start
    summary.stop_seconds = time.perf_counter() - t_stop
    summary.executor = f"{described} worker{'s' * (executor.workers > 1)}"
    summary.unread = unread
    summary.interrupted = stop.requested and summary.done < summary.shards
    _write_summary(folder, summary)
    return summary


#: the lock file of a run folder (held for the run's life)
LOCK_FILE = ".lock"


def choose_executor(dask: str | None, workers: int) -> executors.Executor:
    """The local pool, or a Dask cluster for ``--dask local:N`` or ``--dask tcp://HOST:PORT``
    (imported then: it needs the ``corpus`` extra's Dask)."""
    if dask is None:
        return executors.LocalPool(workers)
    from .cluster import DaskExecutor

    return DaskExecutor(dask)


def _prepare(request: Request, folder: Path) -> tuple[list[Shard], bool]:
    """The run's shards, and whether the run is new: planned now, or read from the
    manifest of the run being resumed.  Reads only; refuses what cannot run."""
    existing = plan.read_manifest(folder)
    if existing is not None and not request.resume:
        raise RunError(f"{folder} holds a run already: --resume to finish it, or give another folder")
    if existing is not None:
        plan.check_resumable(existing, _options(request), list(request.paths))
        return [Shard.from_json(s) for s in existing["shards"]], False
    if folder.exists() and (not folder.is_dir() or any(p.name != LOCK_FILE for p in folder.iterdir())):
        raise RunError(f"{folder}: not an empty folder, and no run to resume (-o: a new folder "
                       "for a corpus run)")
    shards = plan.plan(request.paths, request.shard_records, patterns=request.patterns, exclude=[str(folder)],
                       max_bytes=request.config.settings.limits.max_bytes)
    if not shards:
        raise RunError("no input records found (WARC, JSON lines, web pages)")
    return shards, True


def _options(request: Request) -> dict[str, Any]:
    """What the manifest records of the run's options (checked on ``--resume``): the
    settings' description (:meth:`RunConfig.described`), the shard size and the patterns."""
    return {**request.config.described(), "shard_records": request.shard_records,
            "patterns": list(request.patterns)}


def _claim(request: Request, folder: Path, shards: list[Shard], new: bool) -> None:
    """Under the lock: write the new run's manifest (unless another run wrote one since
    it was planned), or remove what an interrupted session of this run left."""
    if new:
        if plan.read_manifest(folder) is not None:
            raise RunError(f"{folder} holds a run already: --resume to finish it, or give another folder")
        plan.write_manifest(folder, plan.manifest(shards, _options(request), request.paths))
        return
    for where in (plan.SHARDS, plan.MARKERS):
        for stale in (folder / where).glob("*.tmp-*"):  # pathlib's * matches a leading dot too
            stale.unlink(missing_ok=True)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the run folder's lock; refuse when a live run holds it (a dead one's lock is
    gone with its process)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK_FILE, "a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "?"
            raise RunError(f"{folder}: another run is using this folder (process {holder}); wait for it "
                           "to end, or give another folder") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield




def _with_template(request: Request, config: RunConfig, shards: Sequence[Shard],
                   executor: executors.Executor) -> RunConfig:
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
    settings = config.settings
    return replace(config, settings=settings.with_options(methods.with_template(settings.method, str(path))))


def _run_shards(pending: Sequence[Shard], config: RunConfig, executor: executors.Executor,
                on_shard: Callable[[dict[str, Any]], None] | None,
                stop: executors.Stop) -> tuple[list[dict[str, Any]], list[str]]:
    """Run the shards: the markers written, and the shards that could not be read.  One
    whose worker died runs again here (its pages each in a process of their own, as
    always), so that only a page that kills its process is lost (an error row)."""
    markers: list[dict[str, Any]] = []
    unread: list[str] = []
    died = []

    def finished(marker: dict[str, Any]) -> None:
        if "unread" in marker:
            unread.append(marker["unread"])
            return
        markers.append(marker)
        stop.done += 1
        if on_shard is not None:
            on_shard(marker)

    for i, done, marker in executor.map(process_shard, [(s, config) for s in pending], stop):
        if done:
            finished(marker)
        else:
            died.append(pending[i])
    for shard in died:
        if not stop.requested:
            finished(process_shard(shard, config))
    return markers, unread


def summarise(folder: Path, shards: Sequence[Shard]) -> RunSummary:
    """The counts of every finished shard of the run folder."""
    summary = RunSummary(str(folder), shards=len(shards))
    for shard in shards:
        marker = plan.read_marker(folder, shard.name)
        if marker is None:
            continue
        summary.done += 1
        summary.records += marker["records"]
        summary.rows += marker["rows"]
        summary.ok += marker["ok"]
        summary.failed.update(marker["failed"])
        summary.skipped.update(marker["skipped"])
        summary.damaged += marker.get("damaged", 0)
        summary.damage.extend(marker.get("damage", [])[:DAMAGE_LISTED - len(summary.damage)])
    return summary


def _write_summary(folder: Path, summary: RunSummary) -> None:
    plan.atomic_write(folder / "summary.json", (json.dumps(summary.as_dict(), indent=1) + "\n").encode("utf-8"))
    plan.atomic_write(folder / "summary.txt", (str(summary) + "\n").encode("utf-8"))


def rows(folder: str | Path) -> list[dict[str, Any]]:
    """Every row of a run's finished shards, in shard order (for tests and small runs)."""
    folder = Path(folder)
    out: list[dict[str, Any]] = []
    for name in sorted(plan.finished(folder)):
        marker = plan.read_marker(folder, name)
        assert marker is not None
        out.extend(sinks.read(folder / plan.SHARDS / marker["file"]))
    return out
