"""``detourage fetch`` as a user watches it (issue 42 §3): a progress bar of pages done,
their outcomes and the hosts whose pages still wait when asked (on a terminal by default), a summary line
either way, sizes in KB and "1 page"; and ``extract --urls FILE``, a list of URLs as
``fetch`` reads it — against the local server of tests/fetch_server.py."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("httpx", reason="fetching needs the fetch extra (httpx)")
pytest.importorskip("warcio", reason="fetching needs the fetch extra (warcio)")
pytest.importorskip("protego", reason="fetching needs the fetch extra (protego)")
pytest.importorskip("courlan", reason="fetching needs the fetch extra (courlan)")

from click.testing import CliRunner  # noqa: E402
from fetch_server import Route, Site  # noqa: E402

from detourage.cli import main  # noqa: E402

HTML = (("Content-Type", "text/html"),)


def pages() -> dict[str, Route]:
    def body(n: int) -> bytes:
        return (f"<html><head><title>Page {n} | Site</title></head><body><h1>Page {n}</h1>"
                f"<p>The text of page {n}, long enough to be read as the page's content.</p>"
                f"<a href='/p/{n + 1}.html'>next</a> <a href='/gone/{n}.html'>gone</a></body></html>").encode()

    return {f"/p/{n}.html": Route(200, HTML, body(n)) for n in range(3)}


def on_a_terminal(args: list[str]) -> tuple[int, str]:
    """``detourage ARGS`` with standard error on a terminal (a pseudo-terminal): its exit
    status and what it wrote there."""
    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "detourage", *args], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    written = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        written += chunk
    os.close(master)
    return process.wait(timeout=60), written.decode("utf-8", "replace")


def test_fetch_shows_its_progress_on_a_terminal_and_sums_up_either_way(tmp_path: Path) -> None:
    with Site(pages()) as site:
        args = ["fetch", "--allow-private", "--delay", "0", "--crawl", site.url("/p/0.html")]
        status, terminal = on_a_terminal([*args, "-o", str(tmp_path / "a.warc.gz")])
        hidden = CliRunner().invoke(main, [*args, "-o", str(tmp_path / "b.warc.gz")])  # not a terminal
    assert status == 0 and hidden.exit_code == 0, terminal
    frames = terminal.replace("\r\n", "\n").split("\r")
    last = [f for f in frames if f.lstrip("\x1b[?25l").startswith("pages")][-1]
    assert "fetched 3" in last and "status:404 4" in last and "0 hosts waiting" in last, frames
    assert len(hidden.stderr.splitlines()) == 1 and "--no-progress" in CliRunner().invoke(main, ["fetch", "-h"]).output
    for summary in (terminal.strip().splitlines()[-1], hidden.stderr.splitlines()[-1]):
        assert summary.startswith("detourage: 3 pages fetched into") and " KB) in " in summary


def test_the_bar_counts_the_hosts_whose_pages_still_wait(tmp_path: Path) -> None:
    """Two sites of two pages each, 0.5 s between a host's requests: when the first page
    ends, both hosts still have a page held by their delay; at the end, none."""
    with Site(pages()) as one, Site(pages()) as two:
        urls = [site.url(f"/p/{n}.html") for site in (one, two) for n in range(2)]
        status, terminal = on_a_terminal(["fetch", "--allow-private", "--delay", "0.5", *urls,
                                          "-o", str(tmp_path / "two.warc.gz")])
    assert status == 0, terminal
    frames = [f for f in terminal.replace("\r\n", "\n").split("\r") if "waiting" in f]
    assert "fetched 1; 2 hosts waiting" in frames[0] and "fetched 4; 0 hosts waiting" in frames[-1], frames


def test_one_page_fetched_is_one_page_and_its_size_in_kb(tmp_path: Path) -> None:
    with Site(pages()) as site:
        result = CliRunner().invoke(main, ["fetch", "--allow-private", site.url("/p/0.html"),
                                           "-o", str(tmp_path / "one.warc.gz")])
    size = (tmp_path / "one.warc.gz").stat().st_size
    assert result.exit_code == 0 and f"1 page fetched into {tmp_path / 'one.warc.gz'} ({size / 1000:.1f} KB)" \
        in result.stderr


def test_extract_urls_reads_a_list_of_urls_as_fetch_does(tmp_path: Path) -> None:
    with Site(pages()) as site:
        (tmp_path / "list.txt").write_text(f"# two pages\n{site.url('/p/0.html')}\n{site.url('/p/1.html')}\n")
        result = CliRunner().invoke(main, ["extract", "--allow-private", "--urls", str(tmp_path / "list.txt")])
    assert result.exit_code == 0, result.output
    assert "Page 0\nThe text of page 0" in result.stdout and "Page 1\nThe text of page 1" in result.stdout
