"""Work bounded in time and memory, whatever code it runs.

Two lines of defence.  :func:`time_limit` is the cheap first one: an alarm that
interrupts Python code (a signal in the main thread, a watchdog thread elsewhere).  It
cannot stop a long C call — libxml2 parsing one tag of 80 000 attributes runs for a
minute whatever the alarm says — so the guarantee is a process.  :func:`supervised` runs
items in worker processes forked from this one (they inherit its loaded models), knows
which item each worker is on and since when, SIGKILLs a worker still on its item
:data:`GRACE` seconds past the limit, counts that item ``limit:time`` and forks another
worker; :func:`call` does the same for one call (``detourage.extract(…, timeout=…)``).
A worker's address space can be capped (``RLIMIT_AS``), and a worker dies with the
process that forked it: at once on Linux (``PR_SET_PDEATHSIG``), elsewhere when it next
reads from its closed pipe.

    supervised(items, fn, workers, timeout=…) ─▶ (item, value or Failure) … in input order
"""

from __future__ import annotations

import collections
import functools
import os
import pickle
import signal
import struct
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, NoReturn, TypeVar

from .errors import DetourageError, LimitExceeded, WorkerCrashed

T = TypeVar("T")

#: whether work can run in a forked process that is killed past its limit (POSIX);
#: elsewhere only the alarm bounds it
CAN_FORK = hasattr(os, "fork")

#: seconds a worker may run past its limit before it is killed: the alarm, which ends a
#: page stuck in Python code within milliseconds and costs no new process, goes first
GRACE = 0.5


@dataclass(frozen=True, slots=True)
class Failure:
    """Why an item gave no value: the reason of error records, and a message."""

    reason: str
    message: str


def failure(exc: BaseException) -> Failure:
    """The reason and message of an exception raised by a page's work."""
    if isinstance(exc, DetourageError):
        return Failure(exc.reason, str(exc))
    if isinstance(exc, MemoryError):
        return Failure("limit:memory", memory_message())
    if isinstance(exc, RecursionError):
        return Failure("recursion", str(exc))
    return Failure(f"exception:{type(exc).__name__}", str(exc))


def memory_message() -> str:
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return "out of memory"
    return f"out of memory: over the worker's memory ceiling ({soft >> 20} MiB, --max-memory)"


def limit_memory(max_memory: int | None) -> None:
    """Cap this process's address space at ``max_memory`` bytes (None: leave it); an
    allocation beyond raises MemoryError instead of taking the machine's memory."""
    if not max_memory:
        return
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    soft = max_memory if hard == resource.RLIM_INFINITY else min(max_memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# --------------------------------------------------------------------------- the alarm


class _Timeout(BaseException):
    """Raised by the alarm inside a page; a BaseException so methods cannot swallow it."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the work after ``seconds`` with :class:`LimitExceeded`: an alarm signal in
    the main thread (POSIX), a watchdog raising in the work's thread in any other thread
    (a Dask worker's task).  Either interrupts Python code only, not a long C call."""
    usable = seconds > 0 and hasattr(signal, "setitimer")
    previous: Any = None
    try:
        if usable:
            previous = signal.signal(signal.SIGALRM, _raise_timeout)
    except ValueError:  # not in the main thread
        usable = False
    alarm: _ThreadAlarm | None = None
    # an alarm may land before the work (a limit shorter than arming it takes) or after
    # it, while it is disarmed: a limit exceeded too
    try:
        try:
            if usable:
                signal.setitimer(signal.ITIMER_REAL, seconds)
            elif seconds > 0:
                alarm = _ThreadAlarm(seconds)
            yield
        finally:
            _disarm(alarm, usable, previous)
    except _Timeout:
        raise LimitExceeded("time", seconds, seconds) from None


def _disarm(alarm: _ThreadAlarm | None, timer: bool, previous: Any) -> None:
    """Cancel the watchdog's ``alarm``, or the ``timer`` and put back the handler its
    signal had before (``previous``), even when the alarm lands meanwhile."""
    try:
        if alarm is not None:
            alarm.cancel()
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        if timer:
            signal.signal(signal.SIGALRM, previous)


def _raise_timeout(signum: int, frame: object) -> None:
    raise _Timeout()


class _ThreadAlarm:
    """Raises :class:`_Timeout` in the calling thread after ``seconds``, unless cancelled
    first: the time limit of pages run outside the main thread, where no signal handler
    can be set.

    One watchdog thread per process serves every alarm (:class:`_Watchdog`): arming and
    cancelling one only takes a lock, where a timer thread per page cost about 60 µs of
    CPU and a thread switch in each page of a Dask worker."""

    def __init__(self, seconds: float) -> None:
        import threading

        self.thread = threading.get_ident()
        self.deadline = time.monotonic() + seconds
        self.fired = False
        _Watchdog.shared().arm(self)

    def cancel(self) -> None:
        if _Watchdog.shared().disarm(self):
            _async_raise(self.thread, None)  # an alarm raised but not yet delivered is taken back


class _Watchdog:
    """A daemon thread that raises :class:`_Timeout` in the thread of each alarm whose
    deadline passes.  It sleeps until the earliest deadline and is woken only when an
    alarm is armed with an earlier one, so a steady stream of pages does not wake it."""

    _instance: _Watchdog | None = None
    _pid = 0

    def __init__(self) -> None:
        import threading

        self.alarms: dict[int, _ThreadAlarm] = {}
        self.wake_at = float("inf")
        self.condition = threading.Condition()
        threading.Thread(target=self._serve, name="detourage-time-limit", daemon=True).start()

    @classmethod
    def shared(cls) -> _Watchdog:
        """This process's watchdog, started on first use (again in a forked child)."""
        if cls._instance is None or cls._pid != os.getpid():
            cls._instance, cls._pid = cls(), os.getpid()
        return cls._instance

    def arm(self, alarm: _ThreadAlarm) -> None:
        with self.condition:
            self.alarms[id(alarm)] = alarm
            if alarm.deadline < self.wake_at:
                self.condition.notify()

    def disarm(self, alarm: _ThreadAlarm) -> bool:
        """Forget ``alarm``; whether it fired."""
        with self.condition:
            self.alarms.pop(id(alarm), None)
            return alarm.fired

    def _serve(self) -> None:
        with self.condition:
            while True:
                now = time.monotonic()
                for key, alarm in list(self.alarms.items()):
                    if alarm.deadline <= now:
                        alarm.fired = True
                        del self.alarms[key]
                        _async_raise(alarm.thread, _Timeout)
                self.wake_at = min((a.deadline for a in self.alarms.values()), default=now + 3600)
                self.condition.wait(self.wake_at - now)


def _async_raise(thread: int, exception: type[BaseException] | None) -> None:
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exception)
                                               if exception is not None else None)


# --------------------------------------------------------------------------- the workers


def _dumps(value: Any) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


#: a message on a worker's pipe: its length, then its bytes (a pickle)
_HEADER = struct.Struct("!Q")

#: the buffer asked for each pipe: an item this large (a page's bytes) can wait in the
#: pipe of a busy worker, written without blocking the supervisor (Linux grants up to
#: ``/proc/sys/fs/pipe-max-size``, 1 MiB by default; other systems keep their 16–64 KB)
_PIPE_BYTES = 1 << 20


def _pipes() -> tuple[int, int, int, int]:
    """A worker's two pipes, ``(read end, write end)`` of its items (a large buffer) then
    of its values; none left open when the second cannot be made (out of descriptors)."""
    items = _pipe(_PIPE_BYTES)
    try:
        return (*items, *_pipe())
    except OSError:
        for fd in items:
            os.close(fd)
        raise


def _pipe(buffer: int = 0) -> tuple[int, int]:
    """A pipe ``(read end, write end)``, its buffer enlarged to ``buffer`` bytes where the
    system allows."""
    import fcntl  # POSIX, as fork

    read, write = os.pipe()
    try:
        if buffer:
            fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, buffer)
    except (AttributeError, OSError):  # not Linux, or over the user's quota of pipe buffers
        pass
    return read, write


def _room(fd: int) -> int:
    """The largest message that a pipe, when empty, takes without its writer waiting."""
    import fcntl

    try:
        size = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
    except (AttributeError, OSError):
        size = 16 << 10  # the smallest buffer of the systems with fork
    return int(size) - _HEADER.size


def _send(fd: int, message: bytes) -> None:
    header = _HEADER.pack(len(message))
    # one write for a small message: the copy costs less than a second system call
    for part in ((header + message,) if len(message) < 1 << 16 else (header, message)):
        view = memoryview(part)
        while view:
            view = view[os.write(fd, view):]


@contextmanager
def _no_sigpipe() -> Iterator[None]:
    """Writing to a worker that died raises BrokenPipeError, never kills the supervisor:
    Python ignores SIGPIPE, but a program may put back its default action (which ends
    the process, as ``| head`` wants).  The signal is then blocked while writing, and one
    raised is taken back before it is unblocked."""
    if not hasattr(signal, "pthread_sigmask") or signal.getsignal(signal.SIGPIPE) is signal.SIG_IGN:
        yield
        return
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPIPE})
    try:
        yield
    finally:
        if signal.SIGPIPE not in blocked:
            if signal.SIGPIPE in signal.sigpending():
                signal.sigtimedwait({signal.SIGPIPE}, 0)
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _receive(fd: int) -> bytearray | None:
    """The next message; None for one too large to hold under the memory ceiling, read
    past so that the next message is read whole.  EOFError when the writer is gone."""
    (size,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size))
    try:
        message = bytearray(size)
    except MemoryError:
        while size:
            size -= len(_read_exactly(fd, min(size, 1 << 16)))
        return None
    view, got = memoryview(message), 0
    while got < size:
        read = os.readv(fd, [view[got:]])
        if not read:
            raise EOFError
        got += read
    return message


def _read_exactly(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


@functools.cache
def libc_prctl() -> Callable[..., int] | None:
    """libc's ``prctl`` on Linux, else None.  Look it up before forking (the supervisor
    does, and so must a process pool before it starts workers that call
    :func:`die_with_parent`): loading a library in the child of a process with threads
    could deadlock on a lock held by one of them."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


#: prctl's option (linux/prctl.h)
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int = 0) -> None:
    """Have the kernel kill this process when its parent dies (Linux's
    ``PR_SET_PDEATHSIG``), so that a driver killed with SIGKILL leaves no worker behind;
    ``parent``: the pid it should have (0: any), a parent gone already ends this process
    now.  Elsewhere nothing is set: a worker of :func:`supervised` then ends when it
    next reads from its closed pipe.

    Linux sends the signal when the *thread* that forked this process ends: supervisors
    fork from the thread that waits for the results."""
    prctl = libc_prctl()
    if prctl is not None:
        import ctypes

        prctl(*(ctypes.c_ulong(n) for n in (_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)))
    if parent and os.getppid() != parent:
        os._exit(1)


class _Worker:
    """A process forked to run ``serve(inp, out)`` on the ends of two pipes, and the items
    it was given.

    ``others``: the workers forked before, whose pipes the new one closes — a copy held
    open in a sibling would keep a worker from seeing its pipe close."""

    def __init__(self, serve: Callable[[int, int], None], others: Iterable[_Worker] = ()) -> None:
        libc_prctl()  # looked up here, for the child
        parent = os.getpid()
        to_read, self.out, self.inp, from_write = _pipes()
        ours = [self.out, self.inp, *(fd for w in others for fd in (w.out, w.inp))]
        try:
            self.pid = os.fork()
        except OSError:
            for fd in (to_read, self.out, self.inp, from_write):
                os.close(fd)
            raise
        if self.pid == 0:
            _worker_main(functools.partial(serve, to_read, from_write), parent, ours)
        os.close(to_read)
        os.close(from_write)
        #: the largest item that can wait in the pipe while the worker is on another
        self.room = _room(self.out)
        #: ``(sequence number, item)`` of the item it is on, then of the one waiting in its
        #: pipe, if any; and since when it is on the first (``time.monotonic``)
        self.tasks: collections.deque[tuple[int, Any]] = collections.deque()
        self.since = 0.0
        self.end = ""

    def give(self, seq: int, item: Any, message: bytes) -> None:
        with _no_sigpipe():
            _send(self.out, message)
        self.tasks.append((seq, item))
        if len(self.tasks) == 1:
            self.since = time.monotonic()

    def finished(self) -> tuple[int, Any]:
        """The item it was on, now that its value is read; it is on the next one, if
        queued, since now at the latest (never earlier: a worker is not killed early)."""
        self.since = time.monotonic()
        return self.tasks.popleft()

    def kill(self) -> str:
        """Kill the process (if still running) and reap it; how it ended, in words.  Its
        pipes stay open: what it sent before can still be read, without ever waiting."""
        if self.pid:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:  # reaped already (SIGCHLD ignored by the program)
                pass
            try:
                _, status = os.waitpid(self.pid, 0)
                self.end = _ending(status)
            except ChildProcessError:  # the same
                self.end = "ended"
            self.pid = 0
            os.set_blocking(self.inp, False)
        return self.end

    def stop(self) -> str:
        """Kill the process, reap it and close its pipes; how it ended, in words."""
        end = self.kill()
        if self.out >= 0:
            os.close(self.out)
            os.close(self.inp)
            self.out = self.inp = -1
        return end


def _ending(status: int) -> str:
    if not os.WIFSIGNALED(status):
        return f"exit status {os.waitstatus_to_exitcode(status)}"
    try:
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    except ValueError:
        return f"killed by signal {os.WTERMSIG(status)}"


def _worker_main(serve: Callable[[], None], parent: int, inherited: list[int]) -> NoReturn:
    """The forked child: never returns into the parent's code, never runs its exit handlers
    nor flushes the output buffers it inherited (they are the parent's to write)."""
    code = 1
    try:
        die_with_parent(parent)
        for fd in inherited:
            os.close(fd)
        # Ctrl-C reaches the whole process group: the supervisor handles it and stops us
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        serve()
        code = 0
    finally:
        os._exit(code)


def _serve(fn: Callable[[Any], Any], max_memory: int | None, inp: int, out: int) -> None:
    """A pool worker: items in, ``fn(item)`` (or the :class:`Failure` of its exception) out,
    until its pipe closes."""
    limit_memory(max_memory)
    while True:
        try:
            message = _receive(inp)
        except (EOFError, OSError):
            return
        _send(out, _outcome(fn, message))


def _outcome(fn: Callable[[Any], Any], message: bytearray | None) -> bytes:
    try:
        if message is None:
            raise MemoryError("no room for the item under the memory ceiling")
        value = fn(pickle.loads(message))
    except Exception as exc:  # noqa: BLE001 - a failed item is answered, the worker goes on
        value = failure(exc)
    try:
        return _dumps(value)
    except Exception as exc:  # noqa: BLE001 - a value that cannot cross (MemoryError, unpicklable)
        return _dumps(failure(exc))


def supervised(items: Iterable[Any], fn: Callable[[Any], Any], workers: int = 1, *,
               timeout: float = 0.0, max_memory: int | None = None) -> Iterator[tuple[Any, Any]]:
    """``(item, fn(item))`` for each item, in input order, ``fn`` run in ``workers`` forked
    processes; in place of the value, a :class:`Failure` when ``fn`` raised or the item
    cost its worker:

    - ``limit:time``: still running ``timeout + GRACE`` seconds after it started
      (``timeout`` > 0); the worker is killed and another forked;
    - ``worker-crashed``: the worker died on it (a segfault, ``os._exit``, the OOM killer);
      only that item is lost, the others go on in a new worker.

    At most ``4 × workers`` items are read ahead of the one last yielded, so memory stays
    bounded whatever the number of items.  Items and values cross as pickles (keep them
    bytes and strings: a page's bytes, not its tree); ``fn`` is inherited by the fork, so
    it need not be picklable.  Each worker's address space is capped at ``max_memory``.
    """
    pool = _Pool(functools.partial(_serve, fn, max_memory), max(1, workers), timeout)
    try:
        yield from pool.results(iter(items))
    finally:
        pool.close()


class _Pool:
    """The supervisor of :func:`supervised`: hands items to workers, collects their
    values, and kills the workers that overrun."""

    def __init__(self, serve: Callable[[int, int], None], workers: int, timeout: float) -> None:
        self.serve = serve
        self.timeout = timeout
        self.slots: list[_Worker | None] = [None] * workers
        self.window = 4 * workers
        #: items read, not yet handed out: sequence number, item, pickled item
        self.waiting: collections.deque[tuple[int, Any, bytes]] = collections.deque()
        self.done: dict[int, tuple[Any, Any]] = {}
        self.read = 0  # items read so far
        self.given = 0  # items yielded so far
        self.more = True

    def results(self, items: Iterator[Any]) -> Iterator[tuple[Any, Any]]:
        while True:
            self._read(items)
            self._hand_out()
            if self.given in self.done:
                yield self.done.pop(self.given)
                self.given += 1
            elif self.given == self.read and not self.more:
                return
            else:
                self._collect()

    def _read(self, items: Iterator[Any]) -> None:
        while self.more and self.read - self.given < self.window:
            try:
                item = next(items)
            except StopIteration:
                self.more = False
                return
            try:
                self.waiting.append((self.read, item, _dumps(item)))
            except Exception as exc:  # noqa: BLE001 - an item that cannot cross (MemoryError…)
                self.done[self.read] = (item, failure(exc))
            self.read += 1

    def _hand_out(self) -> None:
        """An item to each idle worker, then one more to wait in the pipe of each busy
        one, so that it goes on without waiting for the supervisor to wake — when the pipe
        holds the item whole: writing it never blocks the supervisor behind a worker stuck
        in C code."""
        for depth in (1, 2):
            for slot in range(len(self.slots)):
                while self.waiting and self._queued(slot) < depth:
                    worker = self.slots[slot]
                    if depth > 1 and worker is not None and len(self.waiting[0][2]) > worker.room:
                        break
                    self._start(slot, *self.waiting.popleft())

    def _queued(self, slot: int) -> int:
        worker = self.slots[slot]
        return 0 if worker is None else len(worker.tasks)

    def _start(self, slot: int, seq: int, item: Any, message: bytes) -> None:
        """Hand ``item`` to the worker of ``slot``, forking one if the slot is empty; a
        worker found dead (its pipe closed) is replaced, once."""
        ending = "no process could be forked"
        for _ in range(2):
            try:
                worker = self.slots[slot] or self._fork(slot)
                worker.give(seq, item, message)
                return
            except OSError:  # the worker died (on its item, if it had one; or receiving this one)
                if (dead := self.slots[slot]) is not None:
                    ending = self._lose(dead, None)
        self.done[seq] = (item, Failure("worker-crashed", f"the worker process died receiving this page ({ending})"))

    def _fork(self, slot: int) -> _Worker:
        worker = self.slots[slot] = _Worker(self.serve, [w for w in self.slots if w is not None])
        return worker

    def _collect(self) -> None:
        """Wait for a value, or for the earliest deadline; kill the workers past theirs."""
        busy = {w.inp: w for w in self.slots if w is not None and w.tasks}
        if not busy:
            return
        left = None
        if self.timeout > 0:
            left = max(0.0, min(w.since for w in busy.values()) + self.timeout + GRACE - time.monotonic())
        for fd in wait(list(busy), left):
            self._receive(busy[fd])  # type: ignore[index]  # wait() gives back busy's keys
        if self.timeout > 0:
            now = time.monotonic()
            for worker in busy.values():
                if worker.tasks and worker.pid and now >= worker.since + self.timeout + GRACE:
                    message = f"{LimitExceeded('time', self.timeout, self.timeout)} (its process was killed)"
                    self._lose(worker, Failure("limit:time", message))

    def _receive(self, worker: _Worker) -> None:
        try:
            message = _receive(worker.inp)
        except (EOFError, OSError):
            self._lose(worker, None)
            return
        self._record(worker, message)

    def _record(self, worker: _Worker, message: bytearray | None) -> None:
        """The value of the item ``worker`` was on, from its message."""
        seq, item = worker.finished()
        try:
            if message is None:
                raise MemoryError("no room for the value")
            value = pickle.loads(message)
        except Exception as exc:  # noqa: BLE001 - MemoryError unpickling a large value…
            value = failure(exc)
        self.done[seq] = (item, value)

    def _lose(self, worker: _Worker, why: Failure | None) -> str:
        """Stop ``worker``: its item is recorded as ``why`` (None: the worker died on it),
        the item queued behind it, never started, is handed out again; how it ended.

        A worker that died may have sent values before (it died idle, or the supervisor
        found it dead writing to it before reading them): they are read first, so that
        only the item it died on is lost."""
        ending = worker.kill()
        while why is None and worker.tasks:
            try:
                message = _receive(worker.inp)
            except (EOFError, OSError):  # its end, or a message it did not finish
                break
            self._record(worker, message)
        worker.stop()
        self.slots[self.slots.index(worker)] = None
        if not worker.tasks:
            return ending
        seq, item = worker.tasks.popleft()
        self.done[seq] = (item, why or Failure("worker-crashed", f"the worker process died on this page ({ending})"))
        for seq, item in reversed(worker.tasks):
            self.waiting.appendleft((seq, item, _dumps(item)))
        return ending

    def close(self) -> None:
        for worker in self.slots:
            if worker is not None:
                worker.stop()
        self.slots = [None] * len(self.slots)


# --------------------------------------------------------------------------- one call


def call(fn: Callable[[], T], timeout: float) -> T:
    """``fn()`` run in a forked child, killed if it has not returned ``timeout`` seconds
    (plus :data:`GRACE`) later: its value, or the exception it raised, raised here.

    Raises :class:`LimitExceeded` (``time``) past the limit, :class:`WorkerCrashed` when
    the child dies.  ``fn`` need not be picklable (it is inherited by the fork); its value
    and exceptions must be.  Where there is no ``fork``, ``fn`` runs here under the alarm.
    """
    if not CAN_FORK:
        with time_limit(timeout):
            return fn()
    child = _Worker(functools.partial(_serve_once, fn, timeout))
    try:
        if not wait([child.inp], timeout + GRACE):
            raise LimitExceeded("time", timeout, timeout)
        try:
            message = _receive(child.inp)
        except (EOFError, OSError):
            raise WorkerCrashed(f"the process running the page died ({child.stop()})") from None
        if message is None:
            raise MemoryError("no room for the value of the page's process")
        raised, value = pickle.loads(message)
    finally:
        child.stop()
    if raised:
        raise value
    return value


def _serve_once(fn: Callable[[], Any], timeout: float, inp: int, out: int) -> None:
    """The child of :func:`call`: ``fn()`` under the alarm, then ``(raised, value)`` sent."""
    try:
        with time_limit(timeout):
            outcome = (False, fn())
    except Exception as exc:  # noqa: BLE001 - raised again in the parent
        outcome = (True, _portable(exc))
    try:
        message = _dumps(outcome)
    except Exception as exc:  # noqa: BLE001 - a value that cannot cross
        message = _dumps((True, _portable(exc)))
    _send(out, message)


def _portable(exc: Exception) -> Exception:
    """``exc`` as it can cross to the parent, with the child's traceback as a note; an
    exception that cannot be rebuilt there becomes a :class:`DetourageError` saying what it was."""
    exc.add_note("raised in the child process that ran the page:\n" + "".join(traceback.format_tb(exc.__traceback__)))
    try:
        pickle.loads(_dumps(exc))
    except Exception:  # noqa: BLE001 - not picklable, or not rebuilt from its arguments
        return DetourageError(f"{type(exc).__name__}: {exc}")
    return exc
