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
:mod:`.session` (labels, caches, saving), :mod:`.app` (the Flask routes and the safety
rules), ``static/`` (the HTML, CSS and JavaScript; no build step).  Needs the ``ui``
extra (Flask).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

from ..evaluation.report import INSPECTOR_PORT

__all__ = ["INSPECTOR_PORT", "make_server", "serve"]


def make_server(inputs: Sequence[str], method_names: Sequence[str] = (), *, port: int = INSPECTOR_PORT,
                host: str = "127.0.0.1", annotations: str | os.PathLike[str] = "annotations",
                remote_assets: bool = False) -> Any:
    """A server (werkzeug, one thread per request) for the pages of ``inputs`` (dataset
    folders, page files, folders of pages); ``port`` 0 takes any free port.  Its
    ``session`` attribute holds the :class:`~.session.Session`."""
    from werkzeug.serving import make_server as werkzeug_server

    from .app import create_app
    from .catalog import catalog
    from .session import Session

    session = Session(catalog(inputs), method_names, annotations, remote_assets=remote_assets)
    server = werkzeug_server(host, port, create_app(session, hosts=[host]), threaded=True)
    server.session = session
    return server


def serve(inputs: Sequence[str], method_names: Sequence[str] = (), *, port: int = INSPECTOR_PORT,
          host: str = "127.0.0.1", annotations: str | os.PathLike[str] = "annotations",
          remote_assets: bool = False, echo: Any = print) -> None:
    """Serve the inspector until interrupted, saying where on ``echo``."""
    server = make_server(inputs, method_names, port=port, host=host, annotations=annotations,
                         remote_assets=remote_assets)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    name = f"[{host}]" if ":" in host else host
    session = server.session
    echo(f"detourage: inspector at http://{name}:{server.server_port}/ — {len(session.catalog)} pages, "
         f"methods {', '.join(session.methods)}; annotations in {session.annotations}; Ctrl-C stops it")
    if host not in ("127.0.0.1", "localhost", "::1"):
        echo(f"detourage: warning: listening on {host}: anyone who can reach it can read these pages")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
