"""The supervision of one bounded page: its deadline, its memory, its error record.

A bad page never stops a run: every input yields either an output record or an error
record with a reason (``limit:bytes``, ``limit:time``, ``limit:memory``,
``exception:ValueError``…), counted in the run's :class:`Summary`, which states that the
inputs read equal the outputs plus the error records.  Time and memory limits live here,
once, not in methods (:mod:`detourage.bounded` does the work): the time limit is an
alarm around each page (:func:`attempt`), backed by a supervisor that kills the worker
process of a page stuck past it in C code (:func:`execute`); the memory limit a ceiling
on each worker process's address space (``RLIMIT_AS``).

A step declares its bounds by the :class:`PageStep` protocol; a step that holds a
:class:`Settings` takes them from it by inheriting :class:`SettingsBounds` (the corpus
step, the evaluation's scorer, the cross-page fitting's reader, a corpus run's rows).

    jobs ─▶ execute(jobs, step, workers) ─▶ record or error record … ─▶ Summary
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from .bounded import CAN_FORK, Failure, failure, supervised, time_limit
from .settings import Settings

Record = dict[str, Any]
T = TypeVar("T")


@runtime_checkable
class PageStep(Protocol):
    """What :func:`execute` asks of a step: its bounds per page, and the work of one job
    (a picklable callable, so worker processes can run it)."""

    @property
    def timeout(self) -> float:
        """Seconds per page; 0 or less for no limit."""
        ...

    @property
    def max_memory(self) -> int | None:
        """Bytes of address space per worker process; None (or 0) for no ceiling."""
        ...

    def __call__(self, job: Any, /) -> Any:
        ...


class SettingsBounds:
    """:class:`PageStep`'s bounds for a step that holds ``settings``: theirs, written once."""

    __slots__ = ()
    settings: Settings

    @property
    def timeout(self) -> float:
        """Seconds per page (:func:`execute` kills a page's worker past it)."""
        return self.settings.timeout

    @property
    def max_memory(self) -> int | None:
        """The ceiling per worker: :func:`execute` then always runs pages in workers."""
        return self.settings.max_memory

    def attempted(self, job: Any, work: Callable[[], Record]) -> Record:
        """``work``'s record within the time limit, or the job's error record."""
        record, reason, message = attempt(work, self.timeout)
        return record if record is not None else error_record(job, reason or "error", message or "")


def attempt(work: Callable[[], T], timeout: float) -> tuple[T | None, str | None, str | None]:
    """Run ``work`` within the time limit: ``(value, None, None)``, or ``(None, reason,
    message)`` for any failure — the one place where a bad page is turned into a reason.

    The limit is the alarm of :func:`detourage.bounded.time_limit`, which stops Python
    code; :func:`execute` adds the kill that stops a page stuck in C code."""
    try:
        with time_limit(timeout):
            return work(), None, None
    except Exception as exc:  # noqa: BLE001 - a bad page must become a record
        found = failure(exc)
        return None, found.reason, found.message


def error_record(job: Any, reason: str, message: str) -> Record:
    """The record of a page that failed: its id and why (any job with an ``id``)."""
    # a message may quote a file name that is not UTF-8 (surrogate escapes)
    message = message[:500].encode("utf-8", "backslashreplace").decode("utf-8")
    return {"id": job.id, "ok": False, "error": reason, "message": message}


def execute(jobs: Iterable[Any], step: PageStep | Callable[[Any], Any], workers: int = 1, *,
            isolate: bool = False) -> Iterator[Any]:
    """Run ``step`` over ``jobs``, yielding records in input order.

    With several workers, a time limit (a :class:`PageStep` whose ``timeout`` > 0), a
    memory ceiling (its ``max_memory``) or ``isolate``, pages run in worker processes
    supervised from here (:func:`detourage.bounded.supervised`), at most ``4 × workers``
    pages in flight, so memory stays bounded whatever the number of pages:

    - a page still running ``timeout`` (+ :data:`~detourage.bounded.GRACE`) seconds after
      it started has its worker killed: a ``limit:time`` record, and a new worker goes on
      with the next pages — the limit holds even inside C code, where the step's own alarm
      (:func:`attempt`) cannot reach;
    - each worker's address space is capped at the ceiling, so a page that needs more
      fails with ``limit:memory`` in its worker alone;
    - a page whose worker dies (segfault, OOM kill) is a ``worker-crashed`` record, and
      only that page.

    Without any of these, pages run here, one after the other.  A plain callable has no
    bounds.
    """
    timeout, max_memory = (step.timeout or 0, step.max_memory) if isinstance(step, PageStep) else (0, None)
    if not CAN_FORK or (workers <= 1 and not max_memory and not isolate and timeout <= 0):
        yield from map(step, jobs)
        return
    for job, value in supervised(jobs, step, workers, timeout=max(timeout, 0), max_memory=max_memory):
        yield error_record(job, value.reason, value.message) if isinstance(value, Failure) else value


#: the key of an ok record whose page has no main content (no text: an empty file, a page
#: of navigation only): :class:`Summary` counts it apart; writers leave it out
EMPTY = "empty"


@dataclass(slots=True)
class Summary:
    """What a run did: pages, successes, pages with no text, failures by reason, throughput.

    ``inputs`` is the number of pages read, counted apart from the records (by
    :func:`counted`, or given), so the line can state that nothing was lost or
    written twice: inputs read = outputs + error records.
    """

    pages: int = 0
    ok: int = 0
    failed: collections.Counter[str] = field(default_factory=collections.Counter)
    started: float = field(default_factory=time.perf_counter)
    inputs: int | None = None
    #: ok records of pages with no main content (:data:`EMPTY`), not counted in ``ok``
    empty: int = 0

    def add(self, record: Record) -> None:
        self.pages += 1
        if record.get("ok") and record.get(EMPTY):
            self.empty += 1
        elif record.get("ok"):
            self.ok += 1
        else:
            self.failed[record.get("error", "unknown")] += 1

    @property
    def balanced(self) -> bool:
        """Whether every input read gave exactly one record."""
        return self.inputs is None or self.inputs == self.pages

    def __str__(self) -> str:
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        failed = sum(self.failed.values())
        reasons = ", ".join(f"{reason}: {n}" for reason, n in self.failed.most_common())
        line = f"{_count(self.pages, 'page')}, {self.ok} ok, " + (f"{self.empty} with no text, " if self.empty else "")
        line += f"{failed} failed"
        if reasons:
            line += f" ({reasons})"
        line += f", {self.pages / elapsed:.1f} pages/s"
        if self.inputs is not None:
            verdict = "=" if self.balanced else "≠ (PAGES LOST OR DUPLICATED)"
            line += (f"; {_count(self.inputs, 'input')} read {verdict} {_count(self.ok + self.empty, 'output')} + "
                     f"{_count(failed, 'error record')}")
        return line


def _count(n: int, noun: str) -> str:
    """``1 input``, ``2 inputs``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def counted(jobs: Iterable[T], summary: Summary) -> Iterator[T]:
    """``jobs``, counting each one read into ``summary.inputs``."""
    summary.inputs = summary.inputs or 0
    for job in jobs:
        summary.inputs += 1
        yield job
