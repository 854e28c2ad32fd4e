"""Driving the inspector in a headless Chromium, for its tests and its screenshots.

Needs the ``playwright`` Python package and a Chromium on the machine (Debian:
``apt-get install chromium``); Playwright's own browser download is never used: the
browser is the one :func:`chromium_path` finds (``$DETOURAGE_CHROMIUM``, else
``chromium``, ``chromium-browser``, ``google-chrome`` on ``PATH``).  :func:`missing`
says in one line why the browser cannot run, for a test to skip with that reason.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from typing import Any

#: flags for a quiet, offline, throw-away browser
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def chromium_path() -> str | None:
    """The Chromium to drive, or None."""
    given = os.environ.get("DETOURAGE_CHROMIUM")
    if given:
        return given if os.path.isfile(given) else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def missing() -> str | None:
    """Why the inspector cannot be driven here (None when it can)."""
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (pip install playwright)"
    if chromium_path() is None:
        return "no Chromium found (apt-get install chromium, or set DETOURAGE_CHROMIUM)"
    return None


@contextlib.contextmanager
def running(server: Any) -> Iterator[str]:
    """Serve ``server`` (from :func:`detourage.ui.make_server`) in a thread; yields its URL."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextlib.contextmanager
def browser(width: int = 1400, height: int = 900) -> Iterator[Any]:
    """A Playwright browser context on a fresh profile, in a temporary folder."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="detourage-chromium-") as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=chromium_path(), args=list(FLAGS), headless=True,
            viewport={"width": width, "height": height})
        try:
            yield context
        finally:
            context.close()


def wait_ready(page: Any, timeout: float = 30_000) -> None:
    """Wait until the inspector has shown its page (``<body data-ready>``)."""
    page.wait_for_selector("body[data-ready]", state="attached", timeout=timeout)
