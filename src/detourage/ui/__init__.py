"""``detourage ui``: a local web inspector and annotator (Victor's annotation tool, seed 003
§2.3, in a browser).

- **Inspect**: the page as it looks (its CSS, none of its scripts), every block outlined
  in the colour of its label, beside the text a method keeps; switch methods; show two
  label sources (methods, the aligned gold, a saved annotation) as a difference.
- **Annotate**: click, select or use the keyboard (h p l c o, j/k) to label blocks; save
  ``.anno`` files that ``detourage train victor`` reads; progress over the pages.
- **Train**: cross-validate and train Victor or the learned extractor on the
  annotations, with the commands shown (:mod:`.training`).

Modules: :mod:`.catalog` (the pages and their roots), :mod:`.markup` (the shown page),
:mod:`.assets` (the files beside the pages that may be served), :mod:`.session`
(labels, caches, saving), :mod:`.app` (the Flask routes and the safety rules),
``static/`` (the HTML, CSS and JavaScript; no build step).  Needs the ``ui`` extra (Flask).

The server answers each request in its own thread, and nothing in the inspector holds
a lock while a page is parsed or labelled, so a slow page never makes the others wait.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
import socket
from collections.abc import Sequence
from typing import Any

from ..errors import DetourageError, MissingExtra
from ..settings import INSPECTOR_PORT, TIMEOUT

__all__ = ["INSPECTOR_PORT", "make_server", "serve"]


def make_server(inputs: Sequence[str], method_names: Sequence[str] = (), *, port: int = INSPECTOR_PORT,
                host: str = "127.0.0.1", annotations: str | os.PathLike[str] = "annotations",
                remote_assets: bool = False, timeout: float | None = TIMEOUT) -> Any:
    """A server (werkzeug, one thread per request) for the pages of ``inputs`` (dataset
    folders, page files, folders of pages); ``port`` 0 takes any free port.  Its
    ``session`` attribute holds the :class:`~.session.Session`; its ``access_token`` the
    secret every request must present when ``host`` is not a loopback address (None on
    the loopback).  ``timeout``: seconds a page's loading, or one method's labelling of
    it, may take (None: unbounded; see :mod:`.session`)."""
    try:
        from werkzeug.serving import make_server as werkzeug_server

        from .app import create_app, on_loopback
    except ImportError as exc:
        raise MissingExtra(f"the inspector needs the ui extra ({exc.name} is not installed): "
                           "pip install 'detourage[ui]'") from None
    from ..settings import Settings
    from .catalog import catalog
    from .session import Session

    if port:
        _check_port(host, port)
    session = Session(catalog(inputs), method_names, annotations, remote_assets=remote_assets,
                      settings=Settings(timeout=timeout or 0))
    access_token = None if on_loopback(host) else secrets.token_urlsafe(32)
    app = create_app(session, hosts=[host], access_token=access_token)
    server = werkzeug_server(host, port, app, threaded=True)
    server.session = session  # type: ignore[attr-defined]  # for announce() to read
    server.access_token = access_token  # type: ignore[attr-defined]  # the same
    return server


def _check_port(host: str, port: int) -> None:
    """Refuse a port another program listens on, in one line (werkzeug would print two
    and exit 1): bound the way the server binds it, then released."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise DetourageError(f"cannot listen on {host}:{port} ({exc.strerror or exc}): another program "
                                 "uses it; give another port with -p (0: any free one)") from None


def serve(inputs: Sequence[str], method_names: Sequence[str] = (), *, port: int = INSPECTOR_PORT,
          host: str = "127.0.0.1", annotations: str | os.PathLike[str] = "annotations",
          remote_assets: bool = False, timeout: float | None = TIMEOUT, echo: Any = print) -> None:
    """Serve the inspector until interrupted, saying where on ``echo``."""
    server = make_server(inputs, method_names, port=port, host=host, annotations=annotations,
                         remote_assets=remote_assets, timeout=timeout)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    for line in announce(server, host):
        echo(line)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def announce(server: Any, host: str) -> list[str]:
    """The lines ``serve`` prints: where the inspector is, and off the loopback the one
    URL holding the access token, with a warning."""
    session = server.session
    url = f"http://{_url_host(host)}:{server.server_port}/"
    if server.access_token is not None:
        url += f"?token={server.access_token}"
    lines = [f"detourage: inspector at {url} — {len(session.catalog)} pages, methods "
             f"{', '.join(session.methods)}; annotations in {session.annotations}; Ctrl-C stops it"]
    if server.access_token is not None:
        lines.append(f"detourage: warning: listening on {host}: anyone who has this URL (its token) can read "
                     "these pages and annotate them; share it only with those who may")
    return lines


def _url_host(host: str) -> str:
    """The host to write in the URL: this machine's name for a wildcard address
    (0.0.0.0, ::), which names no machine to connect to; IPv6 in brackets."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host
    if address.is_unspecified:
        return socket.gethostname()
    return f"[{address}]" if address.version == 6 else host
