"""The exceptions the library raises.

    DetourageError              base of everything raised on purpose
    ├── LimitExceeded           input over a configured limit (bytes, nodes, depth, blocks, time)
    ├── UnknownMethod           a method name (or a part of a chain) not in the registry
    ├── UnknownFormat           an output format no renderer handles
    ├── UnknownOption           a keyword no renderer of the format takes (also a ``TypeError``)
    ├── UnsupportedOption       a trafilatura option the compatible API cannot honour (also a ``ValueError``)
    ├── UnknownTask             a downstream task name not in the registry
    ├── NotHTML                 bytes that are no text document (an image, an archive…)
    ├── WorkerCrashed           the process running a page (``timeout=``) died on it
    ├── MissingExtra            a method needs an optional extra (``pip install 'detourage[…]'``)
    ├── DatasetError            a dataset folder or gold file that cannot be read
    │   └── AnnoError           a Victor ``.anno`` annotation that cannot be read or does not fit its page
    ├── RunError                a corpus run folder that cannot be created or resumed
    ├── ModelError              a model file (learned extractor, Victor CRF) that cannot be read or used
    ├── ConfigError             a Victor configuration file that cannot be read
    ├── TemplateError           a site template file that cannot be read, or of another format or version
    └── UnknownPage             a key that names no page of the inspector's session

Decoding never raises: it always returns a string and says which encoding it used
(bytes that are no text document at all are refused before: :class:`NotHTML`).
Empty input gives empty output, never an error.
"""

from __future__ import annotations

from typing import Any


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

    def __reduce__(self) -> tuple[type[LimitExceeded], tuple[str, int | float, int | float], dict[str, Any]]:
        # rebuilt from its own arguments (and notes) when it crosses from a worker process
        return type(self), (self.what, self.value, self.limit), self.__dict__


class UnknownMethod(DetourageError):
    reason = "unknown-method"


class UnknownFormat(DetourageError):
    reason = "unknown-format"


class UnknownOption(DetourageError, TypeError):
    """A render keyword the format's renderer does not take (``extract(p, lnks=True)``);
    the message names it and the valid ones.  A ``TypeError`` too, as for any unknown
    keyword argument."""

    reason = "unknown-option"


class UnsupportedOption(DetourageError, ValueError):
    """An option of another tool's API that :mod:`detourage.compat` cannot honour: refused
    by name rather than ignored."""

    reason = "unsupported-option"


class UnknownTask(DetourageError):
    """A downstream task name not in the registry (``evaluate --task``)."""

    reason = "unknown-task"


class NotHTML(DetourageError):
    """Bytes that are binary data, not a text document (a PDF, an image, an archive…):
    raised by :func:`detourage.load` (so by ``extract`` and ``document``) when given such
    bytes, and a ``not-html`` record in runs.  Text given as ``str`` is never refused."""

    reason = "not-html"


class WorkerCrashed(DetourageError):
    """The process running a page died on it (a crash in C code, the kernel's OOM killer):
    ``extract(…, timeout=…)`` raises it, runs record the page as ``worker-crashed``."""

    reason = "worker-crashed"


class MissingExtra(DetourageError):
    """A method's optional dependency is not installed; the message says what to install."""

    reason = "missing-extra"


class DatasetError(DetourageError):
    reason = "dataset"


class RunError(DetourageError):
    """A corpus run folder that cannot be created or resumed with these inputs and options."""

    reason = "run"


class AnnoError(DatasetError):
    """A ``.anno`` file that cannot be read, or that does not fit its page."""

    reason = "anno"

    def __init__(self, message: str, *, name: str | None = None, line: int | None = None) -> None:
        self.name = name
        self.line = line
        where = f"{name}:{line}: " if name and line else f"{name}: " if name else ""
        super().__init__(where + message)


class ModelError(DetourageError):
    """A model file that cannot be read or used: a learned-extractor model (or one made
    for other features), a Victor CRF model."""


class ConfigError(DetourageError):
    """A Victor configuration file that cannot be read."""


class TemplateError(DetourageError):
    """A template file that cannot be read, or of another format or version."""


class UnknownPage(DetourageError):
    """A key that names no page of the inspector's session."""

    reason = "unknown-page"
