"""The exceptions the library raises.

    DetourageError              base of everything raised on purpose
    ├── LimitExceeded           input over a configured limit (bytes, nodes, depth, time)
    ├── UnknownMethod           a method name (or a part of a chain) not in the registry
    ├── UnknownFormat           an output format no renderer handles
    ├── UnknownTask             a downstream task name not in the registry
    ├── NotHTML                 bytes that are no text document (an image, an archive…)
    ├── MissingExtra            a method needs an optional extra (``pip install 'detourage[…]'``)
    └── DatasetError            a dataset folder or gold file that cannot be read

Decoding never raises: it always returns a string and says which encoding it used.
Empty input gives empty output, never an error.
"""

from __future__ import annotations


class DetourageError(Exception):
    """Base class of the errors detourage raises on purpose."""

    #: short machine-readable reason, used in error records and run summaries
    reason: str = "error"


class LimitExceeded(DetourageError):
    """The input is larger, deeper or slower than the configured limits allow."""

    def __init__(self, what: str, value: int | float, limit: int | float) -> None:
        self.what = what
        self.value = value
        self.limit = limit
        self.reason = f"limit:{what}"
        if what == "time":  # the alarm fires at the limit: no elapsed time worth printing
            super().__init__(f"time limit exceeded: over {limit:g} s")
        else:
            super().__init__(f"{what} limit exceeded: {value} > {limit}")


class UnknownMethod(DetourageError):
    reason = "unknown-method"


class UnknownFormat(DetourageError):
    reason = "unknown-format"


class UnknownTask(DetourageError):
    """A downstream task name not in the registry (``evaluate --task``)."""

    reason = "unknown-task"


class NotHTML(DetourageError):
    """Raised by the corpus runner for binary input; the library itself decodes anything."""

    reason = "not-html"


class MissingExtra(DetourageError):
    """A method's optional dependency is not installed; the message says what to install."""

    reason = "missing-extra"


class DatasetError(DetourageError):
    reason = "dataset"
