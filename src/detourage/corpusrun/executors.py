"""Where shards run: a local process pool, or a Dask cluster (:mod:`.cluster`).

An executor only decides where a task runs; every task is a module-level function of
picklable arguments, so both run the same code and write the same bytes.  ``map`` yields
``(index, done, value)`` in completion order; ``done`` is False when the process running
the task died (a segfault, the kernel's OOM killer, Dask's nanny), and the caller then
runs that task again carefully (:func:`detourage.corpusrun.work.process_shard`).  Each
worker process loads the models once, when it starts (:func:`.work.warm`).
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from .work import Config, warm


class Executor(Protocol):
    """Runs tasks on workers."""

    workers: int

    def prepare(self, config: Config) -> None:
        """Load ``config``'s models in every worker (before the tasks that need them)."""

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]]) -> Iterator[tuple[int, bool, Any]]:
        """Run ``fn(*task)`` for each task: ``(index, done, value)`` in completion order."""

    def close(self) -> None:
        """Release the workers."""


class LocalPool:
    """``workers`` processes on this machine, started for each ``map``."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self.config: Config | None = None

    def prepare(self, config: Config) -> None:
        """The config whose models the next pools' processes load when they start."""
        self.config = config

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]]) -> Iterator[tuple[int, bool, Any]]:
        if not tasks:
            return
        warmed = {"initializer": warm, "initargs": (self.config,)} if self.config else {}
        with cf.ProcessPoolExecutor(min(self.workers, len(tasks)), **warmed) as pool:  # type: ignore[arg-type]
            futures = {pool.submit(fn, *task): i for i, task in enumerate(tasks)}
            for future in cf.as_completed(futures):
                try:
                    yield futures[future], True, future.result()
                except cf.process.BrokenProcessPool:
                    yield futures[future], False, None

    def close(self) -> None:
        """Nothing to release: each ``map`` closes its pool."""


def executor(dask: str | None, workers: int) -> Executor:
    """The local pool, or a Dask cluster for ``--dask local:N`` or ``--dask tcp://HOST:PORT``."""
    if dask is None:
        return LocalPool(workers)
    from .cluster import DaskExecutor

    return DaskExecutor(dask)
