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
reached at an address keeps its own configuration (the README says how to start one the same
way).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import dask

from ..errors import DetourageError, MissingExtra
from .work import Config, warm

try:
    from distributed import Client, LocalCluster, WorkerPlugin, as_completed
    from distributed.scheduler import KilledWorker
except ImportError:  # the module is only imported for --dask; the message says what to install
    raise MissingExtra("--dask needs Dask distributed: pip install 'detourage[corpus]'") from None


#: Dask settings of the LocalCluster of ``--dask local:N`` (see the module's docstring)
LOCAL_CONFIG: dict[str, Any] = {
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,  # glibc's default, as the local pool
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.interval": "2s",
}


class Warm(WorkerPlugin):
    """Loads the models in each worker, once, before its first shard."""

    name = "detourage-warm"

    def __init__(self, config: Config) -> None:
        self.config = config

    def setup(self, worker: Any) -> None:
        warm(self.config)


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
        elif "://" in spec:
            try:
                self.client = Client(spec, timeout=30)
            except OSError as exc:
                raise DetourageError(f"--dask {spec}: no Dask scheduler answers there ({exc})") from None
        else:
            raise DetourageError(f"--dask {spec}: expected local:N or tcp://HOST:PORT")
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))

    def prepare(self, config: Config) -> None:
        """Register the plugin that loads ``config``'s models in every worker (again,
        replacing the previous one, when the config changes)."""
        self.client.register_plugin(Warm(config))

    def map(self, fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]]) -> Iterator[tuple[int, bool, Any]]:
        run = uuid.uuid4().hex[:8]
        futures = {self.client.submit(fn, *task, key=f"detourage-{run}-{i}", pure=False): i
                   for i, task in enumerate(tasks)}
        for future in as_completed(futures):
            try:
                yield futures[future], True, future.result()
            except KilledWorker:
                yield futures[future], False, None
            finally:
                future.release()

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
