"""Running shards on Dask distributed: a LocalCluster (``--dask local:N``) or a running
cluster (``--dask tcp://HOST:8786``).

Each shard is one task; the workers read the inputs and write the run folder
themselves, so both must be on a file system every worker sees (the same paths).  A
worker loads the models once, when the plugin is registered or the worker starts
(:class:`Warm`).  Workers are best started with one thread each (``dask worker
tcp://HOST:8786 --nworkers N --nthreads 1``): pages are CPU-bound Python, and threads of
one process share its interpreter lock.

A LocalCluster is started with :data:`LOCAL_CONFIG`, which removes what made a Dask
worker spend about a third more CPU per page than a process of the local pool
(build/notes/issue14-dask.md): the malloc trim threshold Dask sets in its workers' environment
(64 KiB: memory handed back to the system after almost every page, then faulted in again),
the statistical profiler sampling the running task's stack every 10 ms, and the event loop's
20 ms tick, which takes the interpreter lock from the page 50 times a second.  A cluster
reached at an address keeps its own configuration (docs/corpus-runs.md, "Running on a
cluster", says how to start one the same way).  Its workers must not be daemons, since each
shard's pages run in processes of their own: start them with
``DASK_DISTRIBUTED__WORKER__DAEMON=False``.

The processes of a LocalCluster die with the driver, even killed with SIGKILL
(:class:`DieWithDriver`), and leave Ctrl-C to it; after a stop, the tasks not started are
cancelled and the running ones get the stop's grace (:mod:`.executors`).
"""

from __future__ import annotations

import collections
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import dask

from ..errors import DetourageError, MissingExtra
from .executors import POLL, Stop
from .work import RunConfig, warm, worker_setup

try:
    from distributed import Client, LocalCluster, NannyPlugin, WorkerPlugin, wait
    from distributed.scheduler import KilledWorker
except ImportError:  # the module is only imported for --dask; the message says what to install
    raise MissingExtra("--dask needs Dask distributed: pip install 'detourage[corpus]'") from None


#: Dask settings of the LocalCluster of ``--dask local:N`` (see the module's docstring);
#: its workers are no daemons, so that each can run its pages in processes of their own
LOCAL_CONFIG: dict[str, Any] = {
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,  # glibc's default, as the local pool
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.daemon": False,
}


#: seconds to wait for the scheduler of ``--dask tcp://…``
CONNECT_TIMEOUT = 30


class Warm(WorkerPlugin):
    """Loads the models in each worker, once, before its first shard; the workers of a
    LocalCluster also die with their nanny and leave Ctrl-C to the driver."""

    name = "detourage-warm"

    def __init__(self, config: RunConfig, local: bool = False) -> None:
        self.config = config
        self.local = local

    def setup(self, worker: Any) -> None:
        if self.local:
            worker_setup(0)
        warm(self.config)


class DieWithDriver(NannyPlugin):
    """The nannies of a LocalCluster die with the driver that started them, even killed
    with SIGKILL (their workers die with them), and leave Ctrl-C to it."""

    name = "detourage-die-with-driver"

    def setup(self, nanny: Any) -> None:
        worker_setup(0)


class DaskExecutor:
    """Tasks on a Dask cluster: started here (``local:N``) or reached at an address."""

    def __init__(self, spec: str) -> None:
        self.cluster: LocalCluster | None = None
        if spec.startswith("local:"):
            workers = _count(spec)
            with dask.config.set(LOCAL_CONFIG):
                self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                            dashboard_address=None)
            self.client = Client(self.cluster)
            self.client.register_plugin(DieWithDriver())
        elif "://" in spec:
            try:
                self.client = Client(spec, timeout=CONNECT_TIMEOUT)
            except OSError as exc:
                raise DetourageError(f"--dask {spec}: no Dask scheduler answers there ({exc})") from None
        else:
            raise DetourageError(f"--dask {spec}: expected local:N or tcp://HOST:PORT")
        info = self.client.scheduler_info().get("workers", {})
        self.workers = max(1, len(info))
        #: tasks handed out at a time: one per worker thread, and one more to keep them busy
        self.slots = max(1, sum(w.get("nthreads", 1) for w in info.values())) + 1

    def prepare(self, config: RunConfig) -> None:
        """Register the plugin that loads ``config``'s models in every worker (again,
        replacing the previous one, when the config changes)."""
        self.client.register_plugin(Warm(config, local=self.cluster is not None))

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]],
            stop: Stop | None = None) -> Iterator[tuple[int, bool, Any]]:
        run = uuid.uuid4().hex[:8]
        pending = collections.deque(range(len(tasks)))
        running: dict[Any, int] = {}
        try:
            while pending or running:
                if stop is not None and stop.requested:
                    pending.clear()
                    self._unqueue(running)
                    if not running or stop.expired():
                        return
                while pending and len(running) < self.slots:
                    i = pending.popleft()
                    running[self.client.submit(fn, *tasks[i], key=f"detourage-{run}-{i}", pure=False)] = i
                yield from self._finished(running)
        finally:
            if running:
                self.client.cancel(list(running))

    def _finished(self, running: dict[Any, int]) -> Iterator[tuple[int, bool, Any]]:
        try:
            done = wait(list(running), timeout=POLL, return_when="FIRST_COMPLETED").done
        except TimeoutError:
            return
        for future in done:
            i = running.pop(future)
            try:
                yield i, True, future.result()
            except KilledWorker:
                yield i, False, None
            except AssertionError as exc:  # multiprocessing's, in a daemonic worker
                raise DetourageError(f"--dask: the workers cannot start the processes pages run in "
                                     f"({exc}): start them with DASK_DISTRIBUTED__WORKER__DAEMON=False") from None
            finally:
                future.release()

    def _unqueue(self, running: dict[Any, int]) -> None:
        """Cancel the tasks handed out that no worker has started."""
        started = {key for keys in self.client.processing().values() for key in keys}
        queued = [f for f in running if f.key not in started]
        if queued:
            self.client.cancel(queued)
            for future in queued:
                running.pop(future)

    def abort(self) -> None:
        """Kill a LocalCluster's processes now (those of a cluster reached at an address
        finish their shard)."""
        if self.cluster is None:
            return
        import psutil

        for child in psutil.Process().children(recursive=True):
            try:
                child.kill()
            except psutil.Error:
                pass

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _count(spec: str) -> int:
    try:
        count = int(spec.partition(":")[2])
    except ValueError:
        count = 0
    if count < 1:
        raise DetourageError(f"--dask {spec}: local:N needs a number of workers N ≥ 1")
    return count
