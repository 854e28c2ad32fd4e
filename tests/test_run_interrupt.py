"""Issue 31, item 11: a corpus run killed or interrupted leaves no worker behind, and
``--resume`` then holds every record exactly once.

Before: a driver killed with SIGKILL left its pool's workers running (they went on
writing shards, alongside the ``--resume``); Ctrl-C pressed twice printed ``Aborted!``
and hung over 90 s; pressed once, the run went on about 10 s with no hint."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("pyarrow", reason="the corpus extra (pyarrow) is not installed")
pytest.importorskip("py3langid", reason="the corpus extra (py3langid) is not installed")

from detourage.corpusrun import rows  # noqa: E402
from detourage.corpusrun.readers import warc_record  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="process groups and /proc: Linux")

TEXT = "The committee met on Tuesday to discuss the new budget for the public library of the town."
PAGES = 24


@pytest.fixture(scope="module")
def warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("crawl") / "crawl.warc.gz"
    with open(path, "wb") as out:
        for n in range(PAGES):
            body = "".join(f"<p>{TEXT} ({n}.{i})</p>" for i in range(40))
            out.write(warc_record(f"http://site.example/{n}", f"<html><body>{body}</body></html>".encode()))
    return path


def start(warc: Path, folder: Path, *extra: str) -> subprocess.Popen:
    """The run as a terminal starts it: a process group of its own."""
    command = [sys.executable, "-m", "detourage", "extract", str(warc), "-o", str(folder), "--to", "parquet",
               "--shard-size", "2", *extra]
    return subprocess.Popen(command, start_new_session=True, stderr=subprocess.PIPE, text=True)


def wait_for_shards(process: subprocess.Popen, folder: Path, count: int) -> None:
    deadline = time.monotonic() + 60
    while len(list((folder / "markers").glob("*.done"))) < count:
        assert process.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() < deadline
        time.sleep(0.02)


def group(pgid: int) -> list[int]:
    """The live processes of a process group (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(entry.name))
    return found


def gone(pgid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while group(pgid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def resumed_exactly(warc: Path, folder: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "detourage", "extract", str(warc), "-o", str(folder), "--to",
                           "parquet", "--shard-size", "2", "--resume"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    urls = [r["url"] for r in rows(folder)]
    assert sorted(urls) == sorted(f"http://site.example/{n}" for n in range(PAGES))  # each once
    assert not list((folder / "shards").glob("*tmp-*"))


@contextmanager
def running(warc: Path, folder: Path, *extra: str) -> Iterator[subprocess.Popen]:
    """The run, started as a terminal starts it: once the test is done with it, none of
    its processes is left (whatever the test found), and ``--resume`` then holds every
    record once."""
    process = start(warc, folder, *extra)
    try:
        yield process
        assert gone(process.pid, within=3), f"workers left: {group(process.pid)}"
    finally:
        if group(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
    resumed_exactly(warc, folder)


def interrupted(process: subprocess.Popen, presses: int, within: float) -> str:
    """Ctrl-C pressed ``presses`` times 1 s apart, as a terminal sends it (to the whole
    group): the run's messages, once it ended within ``within`` seconds with status 130
    and said how to finish."""
    t0 = time.monotonic()
    for press in range(presses):
        time.sleep(1 if press else 0)
        os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=within + 10)
    assert time.monotonic() - t0 < within
    assert process.returncode == 130
    assert "shards done; finish with --resume" in err and "Traceback" not in err
    return err


def test_a_driver_killed_leaves_no_worker_and_resume_is_exact(warc: Path, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    with running(warc, folder, "-w", "2") as process:
        wait_for_shards(process, folder, 2)
        os.kill(process.pid, signal.SIGKILL)  # the driver only: its workers must follow
        process.wait()
        assert gone(process.pid, within=5), f"workers left: {group(process.pid)}"


def test_ctrl_c_twice_ends_the_run_at_once(warc: Path, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    with running(warc, folder, "-w", "2") as process:
        wait_for_shards(process, folder, 1)
        interrupted(process, 2, within=5)


def test_ctrl_c_once_stops_handing_out_shards_and_says_how_to_finish(warc: Path, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    with running(warc, folder, "-w", "1") as process:
        wait_for_shards(process, folder, 1)
        err = interrupted(process, 1, within=10)  # the running shard ends, or is abandoned after 3 s
        assert "stopping: no more shards start" in err
        done = len(list((folder / "markers").glob("*.done")))
        assert 0 < done < PAGES // 2
