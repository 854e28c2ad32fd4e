"""The downstream tasks of the extrinsic evaluation, by name (seed 002 §4.2–4.3).

``get_task("daniel", lexicon_dir="…/resources/daniel")`` gives the epidemic event
detector of :mod:`detourage.evaluation.daniel`.  What every task shares (its input, its
predictions and scores, the :class:`~detourage.evaluation.downstream.Task` protocol) is
in :mod:`detourage.evaluation.downstream`, which the task modules import: this registry
imports them, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from detourage.errors import UnknownTask
from detourage.evaluation.daniel import DanielTask
from detourage.evaluation.downstream import Task

#: task name -> factory taking the task's keyword options
TASKS: dict[str, Callable[..., Task]] = {"daniel": DanielTask}


def get_task(name: str, **options: Any) -> Task:
    """The task registered under ``name``, built with ``options``."""
    try:
        factory = TASKS[name]
    except KeyError:
        raise UnknownTask(f"unknown task {name!r}; known: {', '.join(sorted(TASKS))}") from None
    return factory(**options)


def task_names() -> Sequence[str]:
    return sorted(TASKS)
