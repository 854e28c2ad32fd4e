"""Where shards run: a local process pool; what every executor is (:class:`Executor`), and
how a run is stopped (:class:`Stop`).  The Dask cluster (:mod:`.cluster`) is the other
executor; :func:`detourage.corpusrun.run.choose_executor` chooses.

An executor only decides where a task runs; every task is a module-level function of
picklable arguments, so both run the same code and write the same bytes.  ``map`` yields
``(index, done, value)`` in completion order; ``done`` is False when the process running
the task died (a segfault, the kernel's OOM killer, Dask's nanny), and the caller then
runs that task again in its own process.  Each worker process loads the models once,
when it starts (:func:`.work.warm`), and dies with the process that started it.

Tasks are handed out a few at a time (as many as there are workers), so that a
:class:`Stop` takes effect at once: no task starts after it, the running ones get
:attr:`Stop.grace` seconds to end, then their workers are killed (their shards run
again on ``--resume``).
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from ..bounded import libc_prctl
from .work import RunConfig, init_worker

#: seconds the running shards get to end after a stop (the first Ctrl-C)
GRACE = 3.0
#: how often a waiting executor looks whether a stop was asked for
POLL = 0.2


class Stop:
    """A request to stop a run, from another thread or a signal handler: ``request()``
    hands out no more tasks; ``abort()`` kills the workers now."""

    def __init__(self, grace: float = GRACE) -> None:
        self.grace = grace
        self.asked: float | None = None
        #: kills the executor's workers (set while a run has one)
        self.on_abort: Callable[[], None] | None = None
        #: shards done and in all, as the run goes
        self.done = 0
        self.total = 0

    @property
    def requested(self) -> bool:
        return self.asked is not None

    def request(self) -> None:
        if self.asked is None:
            self.asked = time.monotonic()

    def expired(self) -> bool:
        """Whether the running tasks' grace is over."""
        return self.asked is not None and time.monotonic() - self.asked >= self.grace

    def abort(self) -> None:
        self.request()
        if self.on_abort is not None:
            self.on_abort()


class Executor(Protocol):
    """Runs tasks on workers."""

    workers: int

    def prepare(self, config: RunConfig) -> None:
        """Load ``config``'s models in every worker (before the tasks that need them)."""

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
            stop: Stop | None = None) -> Iterator[tuple[int, bool, Any]]:
        """Run ``fn(*task)`` for each task: ``(index, done, value)`` in completion order;
        after ``stop``, only the tasks already running (those that end in its grace)."""

    def abort(self) -> None:
        """Kill the workers now (a second Ctrl-C)."""

    def close(self) -> None:
        """Release the workers."""


class LocalPool:
    """``workers`` processes on this machine, started for each ``map``."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self.config: RunConfig | None = None
        self.pool: cf.ProcessPoolExecutor | None = None

    def prepare(self, config: RunConfig) -> None:
        """The config whose models the next pools' processes load when they start."""
        self.config = config

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
            stop: Stop | None = None) -> Iterator[tuple[int, bool, Any]]:
        pending = collections.deque(range(len(tasks)))
        running: dict[cf.Future[Any], int] = {}
        try:
            while pending or running:
                if stop is not None and stop.requested:
                    pending.clear()
                    if not running or stop.expired():
                        return
                while pending and len(running) < self.workers:
                    i = pending.popleft()
                    running[self._submit(fn, tasks[i], len(pending) + len(running) + 1)] = i
                yield from self._finished(running)
        finally:
            self._stop(kill=bool(running))

    def _submit(self, fn: Callable[..., Any], task: tuple[Any, ...], left: int) -> cf.Future[Any]:
        if self.pool is None:
            libc_prctl()  # looked up here, not in the forked workers
            self.pool = cf.ProcessPoolExecutor(min(self.workers, left), initializer=init_worker,
                                               initargs=(self.config, os.getpid()))
        try:
            return self.pool.submit(fn, *task)
        except cf.process.BrokenProcessPool as exc:  # a worker died meanwhile
            future: cf.Future[Any] = cf.Future()
            future.set_exception(exc)
            return future

    def _finished(self, running: dict[cf.Future[Any], int]) -> Iterator[tuple[int, bool, Any]]:
        """The tasks that end within :data:`POLL` seconds.  When a worker died, every task
        of its pool is lost (done False) and the next tasks get a new pool."""
        done, _ = cf.wait(running, timeout=POLL, return_when=cf.FIRST_COMPLETED)
        broken = False
        for future in done:
            i = running.pop(future)
            try:
                yield i, True, future.result()
            except cf.process.BrokenProcessPool:
                broken = True
                yield i, False, None
        if broken:
            cf.wait(running)
            for future in list(running):
                yield running.pop(future), False, None
            self._stop(kill=True)

    def _stop(self, kill: bool) -> None:
        """Shut the pool down; ``kill``: its workers now, not after their tasks."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        if kill:
            _kill(pool)
        pool.shutdown(wait=not kill, cancel_futures=True)

    def abort(self) -> None:
        if self.pool is not None:
            _kill(self.pool)

    def close(self) -> None:
        """Nothing to release: each ``map`` closes its pool."""


def _kill(pool: cf.ProcessPoolExecutor) -> None:
    """Kill a pool's worker processes (their pages' processes die with them)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.kill()
        except (OSError, ValueError):  # gone already
            pass
