"""A deadline on a whole response, headers included.

httpx's timeouts bound each socket read, so a server that sends its headers one byte
every half second never trips them.  :func:`bounded_transport` gives an httpx transport
whose connections (httpcore's public ``NetworkBackend`` interface, wrapping its own)
read and write only until the deadline the calling thread set with :func:`until`:
every read waits at most what is left, and none starts past it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import DetourageError
from .policy import AddressGuard

_state = threading.local()


@contextmanager
def until(deadline: float) -> Iterator[None]:
    """Bound this thread's reads and writes by ``deadline`` (``time.monotonic()``)."""
    before = getattr(_state, "deadline", None)
    _state.deadline = deadline
    try:
        yield
    finally:
        _state.deadline = before


def _left(timeout: float | None) -> float | None:
    deadline = getattr(_state, "deadline", None)
    if deadline is None:
        return timeout
    import httpcore

    left = deadline - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the response's deadline passed")
    return left if timeout is None else min(timeout, left)


def bounded_transport(http2: bool, limits: Any, *, guarded: bool = False) -> Any:
    """An httpx transport whose network reads and writes keep to :func:`until`'s deadline
    (a plain one where httpx's transport is not built as this expects); ``guarded``: its
    connections go only to addresses the policy allows (:class:`.policy.AddressGuard`),
    and a transport that cannot be guarded is refused rather than left open."""
    import httpx

    transport = httpx.HTTPTransport(http2=http2, limits=limits)
    pool = getattr(transport, "_pool", None)
    backend = getattr(pool, "_network_backend", None)
    if backend is None:
        if guarded:
            raise DetourageError("this httpx/httpcore does not let detourage check the addresses it connects to: "
                                 "fetching needs httpx 0.23 or later (or allow_private=True)")
        return transport
    assert pool is not None  # it has a backend
    pool._network_backend = _Backend(AddressGuard(backend) if guarded else backend)  # httpcore's documented interface
    return transport


class _Backend:
    """httpcore's ``NetworkBackend``: the wrapped one's connections, bounded."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Any = None) -> _Stream:
        return _Stream(self._inner.connect_tcp(host, port, _left(timeout), local_address, socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> _Stream:
        return _Stream(self._inner.connect_unix_socket(path, _left(timeout), socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _Stream:
    """httpcore's ``NetworkStream``: each read and write waits at most what is left."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _left(timeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> _Stream:
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, _left(timeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)
