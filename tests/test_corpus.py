"""The corpus runner: inputs, error records, time limit, process pool, writers."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from detourage.bounded import time_limit
from detourage.corpus import Job, Step, Summary, Writer, execute, read_inputs
from detourage.errors import LimitExceeded
from detourage.parse import Limits
from detourage.settings import Settings


def test_read_inputs_recurses_and_names_pages_by_relative_path(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.html").write_text("<p>x</p>")
    (tmp_path / "y.htm").write_text("<p>y</p>")
    (tmp_path / "z.txt").write_text("<p>z</p>")
    jobs = list(read_inputs([str(tmp_path)]))
    assert [j.id for j in jobs] == ["a/x", "y"]  # z.txt is no web page: --glob to read it


def test_step_turns_failures_into_records() -> None:
    step = Step(settings=Settings(method="fulltext", limits=Limits(max_bytes=10)))
    record = step(Job("big", data=b"<p>" + b"x" * 100 + b"</p>"))
    assert record["ok"] is False and record["error"] == "limit:bytes"
    record = Step(settings=Settings(method="fulltext"))(Job("missing", path="/nonexistent/file.html"))
    assert record["error"] == "exception:FileNotFoundError"


def test_time_limit_interrupts_a_slow_page() -> None:
    t0 = time.perf_counter()
    with pytest.raises(LimitExceeded, match="time"):
        with time_limit(0.2):
            time.sleep(5)
    assert time.perf_counter() - t0 < 2


def test_time_limit_is_cleared_after_the_page() -> None:
    with time_limit(0.2):
        pass
    time.sleep(0.3)  # no alarm may fire now


def test_an_alarm_landing_while_it_is_armed_is_a_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # a limit shorter than arming the timer takes: the signal lands inside setitimer
    import signal

    from detourage import bounded

    arm = signal.setitimer

    def arm_and_ring(which: int, seconds: float, interval: float = 0.0) -> tuple[float, float]:
        previous = arm(which, seconds, interval)
        if seconds > 0:
            signal.getsignal(signal.SIGALRM)(signal.SIGALRM, None)
        return previous

    monkeypatch.setattr(bounded.signal, "setitimer", arm_and_ring)
    with pytest.raises(LimitExceeded, match="time"), time_limit(5):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def _crash_on_bad(job: Job) -> dict:
    if job.id == "bad":
        os._exit(3)
    return {"id": job.id, "ok": True}


def test_pool_keeps_order_and_survives_a_dying_worker() -> None:
    jobs = [Job(str(i)) for i in range(6)] + [Job("bad")] + [Job(f"after{i}") for i in range(5)]
    records = list(execute(jobs, _crash_on_bad, workers=2))
    assert [r["id"] for r in records] == [j.id for j in jobs]
    assert next(r for r in records if r["id"] == "bad")["error"] == "worker-crashed"
    assert records[-1]["ok"]  # the pool was renewed


def test_pool_and_single_process_agree(tmp_path: Path) -> None:
    jobs = [Job(str(i), data=f"<h1>T{i}</h1><p>body {i}</p>".encode()) for i in range(8)]
    step = Step(settings=Settings(method="baseline"), format="cleaneval")
    strip = lambda rs: [{k: v for k, v in r.items() if k != "ms"} for r in rs]  # noqa: E731
    assert strip(execute(jobs, step, 1)) == strip(execute(jobs, step, 2))


def test_writer_folder_and_jsonl(tmp_path: Path) -> None:
    ok = {"id": "d/p", "ok": True, "text": "hello\n"}
    bad = {"id": "q", "ok": False, "error": "limit:bytes", "message": "m"}
    writer = Writer(str(tmp_path / "out"), "txt")
    writer.write(ok), writer.write(bad), writer.close()
    assert (tmp_path / "out" / "d" / "p.txt").read_text() == "hello\n"
    assert json.loads((tmp_path / "out" / "errors.jsonl").read_text())["id"] == "q"
    writer = Writer(str(tmp_path / "o.jsonl"), "txt")
    writer.write(ok), writer.write(bad), writer.close()
    lines = (tmp_path / "o.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["d/p", "q"]


def test_summary_counts_reasons() -> None:
    summary = Summary()
    for record in ({"ok": True}, {"ok": False, "error": "a"}, {"ok": False, "error": "a"}):
        summary.add(record)
    assert str(summary).startswith("3 pages, 1 ok, 2 failed (a: 2)")
