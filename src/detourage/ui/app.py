"""The inspector's web application (Flask): the routes, and the rules that keep it safe.

Safety, in order of the requests:

* **Who may talk to it**: the server binds 127.0.0.1 unless told otherwise
  (:func:`serve`), and a request whose ``Host`` is not one of the server's names is
  refused, so a web page cannot reach it through DNS rebinding.
* **What it reads**: pages only by their key in the session's catalog; other files
  (``/files/<root>/<path>``: stylesheets, images beside the pages) only inside the
  roots it was given — ``..``, absolute paths and links leading elsewhere are 404.
* **What runs**: nothing of the page.  The shown page is disarmed
  (:func:`detourage.ui.markup.disarm`), served with a content security policy that
  forbids scripts and sandboxes the document (``sandbox allow-same-origin``: the
  inspector may read it, it may run nothing), and framed by an ``<iframe sandbox>``
  without ``allow-scripts``.  Files of the roots are served sandboxed to an opaque
  origin.
* **Who may write**: every ``POST`` carries the per-session token (header
  :data:`TOKEN_HEADER`), which only the inspector page itself holds; a JSON body is
  required, and an ``Origin`` from elsewhere is refused.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..errors import DetourageError, MissingExtra
from .catalog import UnknownPage, inside
from .session import Session
from .training import Trainer

try:
    from flask import Flask, Response, abort, jsonify, request, send_file
except ImportError as _missing:  # the ui extra is not installed
    raise MissingExtra('the inspector needs Flask: pip install "detourage[ui]"') from _missing

#: the header that carries the session token on every write
TOKEN_HEADER = "X-Detourage-Token"
#: the loopback names a request may use in its Host header
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
STATIC = Path(__file__).parent / "static"

_APP_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
               "frame-ancestors 'none'")
_FILE_POLICY = "sandbox; default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:"


def page_policy(remote: bool) -> str:
    """The policy of a shown page: no script, a sandbox the inspector may read, its own
    styles and images (from the web too when ``remote``)."""
    web = " http: https:" if remote else ""
    return ("sandbox allow-same-origin; default-src 'none'; script-src 'none'; "
            f"style-src 'self' 'unsafe-inline'{web}; img-src 'self' data:{web}; font-src 'self' data:{web}; "
            f"base-uri 'self'{web}; form-action 'none'; frame-ancestors 'self'")


def create_app(session: Session, *, hosts: Iterable[str] = (), trainer: Trainer | None = None) -> Flask:
    """The application serving ``session``; ``hosts`` are names allowed in ``Host`` besides
    the loopback ones (the address given to ``--host``)."""
    app = Flask("detourage.ui", static_folder=str(STATIC), static_url_path="/static")
    app.config.update(JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=64 << 20)
    allowed = LOOPBACK | {h.lower() for h in hosts}
    trainer = trainer or Trainer(session)
    _guard(app, session, allowed)
    _pages(app, session)
    _writes(app, session, trainer)
    _errors(app)
    return app


def _guard(app: Flask, session: Session, allowed: frozenset[str]) -> None:
    """The checks every request passes, and the headers every response carries."""

    @app.before_request
    def check() -> Response | None:
        if _hostname(request.host or "") not in allowed:
            return _refuse(403, f"host {request.host!r} is not this server's (open it as http://127.0.0.1:…)")
        if request.method == "POST":
            return _write_check(session, allowed)
        return None

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", _APP_POLICY)
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
        response.headers.setdefault("Cache-Control", "no-store")
        return response


def _write_check(session: Session, allowed: frozenset[str]) -> Response | None:
    """A write needs the session token, a JSON body and no foreign Origin."""
    given = request.headers.get(TOKEN_HEADER, "")
    if not hmac.compare_digest(given.encode(), session.token.encode()):
        return _refuse(403, f"a write needs this session's token (header {TOKEN_HEADER})")
    origin = request.headers.get("Origin")
    if origin and _hostname(origin.split("://", 1)[-1]) not in allowed:
        return _refuse(403, f"origin {origin!r} may not write here")
    if not request.is_json:
        return _refuse(415, "a write sends JSON (Content-Type: application/json)")
    return None


def _hostname(host: str) -> str:
    """The name of a ``Host`` or ``Origin`` authority, without its port, lower case."""
    if host.startswith("["):  # an IPv6 literal
        return host[:host.find("]") + 1].lower()
    return host.rsplit(":", 1)[0].lower()


def _refuse(status: int, message: str) -> Response:
    response = jsonify(error=message)
    response.status_code = status
    return response


def _pages(app: Flask, session: Session) -> None:
    """The read-only routes: the inspector, pages, labels, shown pages, files."""

    @app.get("/")
    def index() -> Response:
        text = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{token}}", session.token)
        return Response(text, mimetype="text/html")

    @app.get("/api/session")
    def state() -> Response:
        return jsonify(methods=session.methods, pages=session.listing(), progress=session.progress(),
                       annotations=str(session.annotations))

    @app.get("/api/page")
    def page() -> Response:
        return jsonify(session.info(_arg("key")))

    @app.get("/api/labels")
    def labels() -> Response:
        key, source = _arg("key"), _arg("source")
        letters = [_letter(x) for x in session.labels(key, source)]
        return jsonify(key=key, source=source, labels=letters, units=session.units(key, source))

    @app.get("/render")
    def render() -> Response:
        shown = session.loaded(_arg("key")).shown
        response = Response(shown.html, mimetype="text/html")
        response.headers["Content-Security-Policy"] = page_policy(session.remote_assets)
        response.headers["X-Frame-Options"] = "SAMEORIGIN"
        return response

    @app.get("/files/<int:root>/<path:relative>")
    def files(root: int, relative: str) -> Response:
        if not 0 <= root < len(session.catalog.roots):
            abort(404)
        target = inside(session.catalog.roots[root], relative)
        if target is None:
            abort(404)
        response = send_file(target, conditional=True)
        response.headers["Content-Security-Policy"] = _FILE_POLICY
        response.headers["X-Frame-Options"] = "SAMEORIGIN"
        return response


def _writes(app: Flask, session: Session, trainer: Trainer) -> None:
    """The routes that write: annotations and training runs (token checked before)."""

    @app.post("/api/anno")
    def save() -> Response:
        body = _body()
        return jsonify(session.save(str(body.get("key")), body.get("labels") or []))

    @app.get("/api/train")
    def training() -> Response:
        return jsonify(trainer.status())

    @app.post("/api/train")
    def train() -> Response:
        body = _body()
        return jsonify(trainer.start(str(body.get("kind")), int(body.get("folds") or 5)))


def _errors(app: Flask) -> None:
    """Errors as one JSON line: 404 for unknown pages, 400 for a user's mistake."""
    handlers: dict[Any, Callable[[Any], tuple[Response, int]]] = {
        UnknownPage: lambda exc: (jsonify(error=str(exc)), 404),
        DetourageError: lambda exc: (jsonify(error=str(exc)), 400),
        ValueError: lambda exc: (jsonify(error=str(exc)), 400),
    }
    for kind, handler in handlers.items():
        app.register_error_handler(kind, handler)


def _arg(name: str) -> str:
    value = request.args.get(name)
    if not value:
        raise DetourageError(f"missing parameter {name!r}")
    return value


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise DetourageError("the body is not a JSON object")
    return body


def _letter(label: Any) -> str:
    from ..victor.anno import LETTERS

    return LETTERS[label]
