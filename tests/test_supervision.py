"""The supervision of one bounded page: the declared protocol, each step's bounds from its
settings (written once), the error record."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from detourage.corpusrun.work import RowStep, RunConfig
from detourage.evaluation.evaluate import PageScorer
from detourage.loading import Job
from detourage.settings import Settings
from detourage.site.template import Summarise
from detourage.step import Step
from detourage.supervision import PageStep, execute


def test_every_step_declares_its_bounds_from_its_settings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(timeout=7, max_memory=1 << 30)
    steps = [Step(settings=settings), PageScorer(settings=settings), Summarise(settings=settings),
             RowStep(RunConfig(folder=str(tmp_path), settings=settings))]
    for step in steps:
        assert isinstance(step, PageStep), type(step).__name__
        assert (step.timeout, step.max_memory) == (7, 1 << 30), type(step).__name__


def test_the_error_record_says_why_and_the_step_goes_on() -> None:
    step = Step(settings=Settings(method="fulltext", timeout=0))
    records = list(execute([Job("ok", data=b"<p>Fine text.</p>"), Job("missing", path="/no/such/page.html"),
                            Job("pdf", data=b"%PDF-1.7 binary")], step))
    assert [r["ok"] for r in records] == [True, False, False]
    assert records[1]["error"] == "exception:FileNotFoundError" and records[2]["error"] == "not-html"


@dataclass(frozen=True)
class Undeclared:
    """A step with a timeout but not the whole protocol: it is not bounded."""

    timeout: float = 30

    def __call__(self, job: Job) -> dict[str, Any]:
        return {"id": job.id, "pid": os.getpid()}


@dataclass(frozen=True)
class Declared(Undeclared):
    """The same step, its memory ceiling declared too: a :class:`PageStep`."""

    max_memory: int | None = None


def test_only_a_declared_page_step_runs_bounded() -> None:
    """A bounded step runs in a worker process killed past its limit; a step that does not
    declare the protocol runs here, unbounded (no attribute is guessed)."""
    jobs = [Job("a"), Job("b")]
    assert not isinstance(Undeclared(), PageStep) and isinstance(Declared(), PageStep)
    assert {r["pid"] for r in execute(jobs, Undeclared(), 1)} == {os.getpid()}
    if hasattr(os, "fork"):
        assert os.getpid() not in {r["pid"] for r in execute(jobs, Declared(), 1)}
