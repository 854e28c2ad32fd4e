"""The inspector's web application (Flask): the routes, and the rules that keep it safe.

Safety, in order of the requests:

* **Who may talk to it**: the server binds 127.0.0.1 unless told otherwise
  (:func:`detourage.ui.serve`).  On the loopback, a request whose ``Host`` is not one of
  the server's names is refused, so a web page cannot reach it through DNS rebinding.
  Bound to any other address, the server has a random *access token*, printed once in
  the URL to open (``http://HOST:PORT/?token=…``): every request, reads included, must
  present it, as that query parameter (the response then sets it as an ``HttpOnly``,
  ``SameSite=Strict`` cookie, which the inspector's own requests carry), the cookie, or
  the header :data:`ACCESS_HEADER`; any other request is refused (403), whatever its
  ``Host``.
* **What it reads**: pages only by their key in the session's catalog; other files
  (``/files/<root>/<path>``) only when a page loaded in the session references them
  inside its own folder, never a dot-file (:mod:`detourage.ui.assets`).
* **What runs**: nothing of the page.  The shown page is disarmed
  (:func:`detourage.ui.markup.disarm`), served with a content security policy that
  forbids scripts and sandboxes the document (``sandbox allow-same-origin``: the
  inspector may read it, it may run nothing), and framed by an ``<iframe sandbox>``
  without ``allow-scripts``.  Files beside the pages are served sandboxed to an opaque
  origin.
* **Who may write, or make it compute**: every ``POST``, and every request for a page's
  labels (``/api/labels``, which runs a method: seconds of CPU that any web page could
  otherwise ask for with an ``<img src>``), carries the per-session token (header
  :data:`TOKEN_HEADER`), which only the inspector page itself holds, and which is handed
  (on the loopback) only to a request with a loopback ``Host`` coming from a loopback
  address; a header is something a cross-site page cannot make a browser send; an
  ``Origin`` other than the server's own (scheme, host and port) is refused; a write
  needs a JSON body of the right types (400 otherwise).
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..errors import DetourageError, MissingExtra, UnknownPage
from ..victor.anno import LETTERS, TAGS
from .session import Session
from .training import MODELS, Trainer

try:
    from flask import Flask, Response, abort, g, jsonify, request, send_file
except ImportError as _missing:  # the ui extra is not installed
    raise MissingExtra('the inspector needs Flask: pip install "detourage[ui]"') from _missing

#: the header that carries the session token on every write
TOKEN_HEADER = "X-Detourage-Token"
#: where a request to a server off the loopback presents the access token
ACCESS_HEADER = "X-Detourage-Access"
ACCESS_PARAMETER = "token"
ACCESS_COOKIE = "detourage_access"
#: the loopback names a request may use in its Host header
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
#: the reads that make the server compute, and need the session token as writes do
COMPUTING = frozenset({"/api/labels"})
#: the folds a training run may ask for
FOLDS = range(2, 21)
STATIC = Path(__file__).parent / "static"

_APP_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
               "frame-ancestors 'none'")
_FILE_POLICY = ("sandbox; default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                "font-src 'self' data:")


def page_policy(remote: bool) -> str:
    """The policy of a shown page: no script, a sandbox the inspector may read, its own
    styles and images (from the web too when ``remote``)."""
    web = " http: https:" if remote else ""
    return ("sandbox allow-same-origin; default-src 'none'; script-src 'none'; "
            f"style-src 'self' 'unsafe-inline'{web}; img-src 'self' data:{web}; font-src 'self' data:{web}; "
            f"base-uri 'self'{web}; form-action 'none'; frame-ancestors 'self'")


def create_app(session: Session, *, hosts: Iterable[str] = (), trainer: Trainer | None = None,
               access_token: str | None = None) -> Flask:
    """The application serving ``session``; ``hosts`` are names allowed in ``Host`` besides
    the loopback ones (the address given to ``--host``); ``access_token`` is the secret
    every request must present when the server is not on the loopback (None: it is)."""
    app = Flask("detourage.ui", static_folder=str(STATIC), static_url_path="/static")
    app.config.update(JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=64 << 20)
    allowed = LOOPBACK | {h.lower() for h in hosts}
    trainer = trainer or Trainer(session)
    _guard(app, session, allowed, access_token)
    _pages(app, session)
    _writes(app, session, trainer)
    _errors(app)
    return app


def on_loopback(host: str) -> bool:
    """Whether a server bound to ``host`` can only be reached from this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name: it may resolve to any address
        return False


def _guard(app: Flask, session: Session, allowed: frozenset[str], access_token: str | None) -> None:
    """The checks every request passes, and the headers every response carries."""

    @app.before_request
    def check() -> Response | None:
        if access_token is not None:
            refused = _access_check(access_token)
        elif _hostname(request.host or "") not in allowed:
            refused = _refuse(403, f"host {request.host!r} is not this server's (open it as http://127.0.0.1:…)")
        else:
            refused = None
        if refused is None and (request.method == "POST" or request.path in COMPUTING):
            refused = _token_check(session)
        if refused is None and request.method == "POST" and not request.is_json:
            refused = _refuse(415, "a write sends JSON (Content-Type: application/json)")
        return refused

    @app.after_request
    def headers(response: Response) -> Response:
        if g.get("access_by_parameter") and access_token is not None:
            response.set_cookie(ACCESS_COOKIE, access_token, httponly=True, samesite="Strict", path="/")
        response.headers.setdefault("Content-Security-Policy", _APP_POLICY)
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
        response.headers.setdefault("Cache-Control", "no-store")
        return response


def _access_check(token: str) -> Response | None:
    """A server off the loopback answers only requests that present its access token."""
    by_parameter = request.args.get(ACCESS_PARAMETER)
    given = by_parameter or request.headers.get(ACCESS_HEADER) or request.cookies.get(ACCESS_COOKIE) or ""
    if not _same_secret(given, token):
        return _refuse(403, "this server needs its access token: open the URL it printed "
                            f"(…/?{ACCESS_PARAMETER}=…), or send the header {ACCESS_HEADER}")
    g.access_checked = True
    g.access_by_parameter = bool(by_parameter)
    return None


def _token_check(session: Session) -> Response | None:
    """A write, or a read that computes, needs the session token and no Origin but the
    server's own."""
    if not _same_secret(request.headers.get(TOKEN_HEADER, ""), session.token):
        return _refuse(403, f"a write, or labels, need this session's token (header {TOKEN_HEADER})")
    origin = request.headers.get("Origin")
    if origin and origin.lower() != f"{request.scheme}://{request.host}".lower():
        return _refuse(403, f"origin {origin!r} may not write here")
    return None


def _same_secret(given: str, secret: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "replace"), secret.encode())


def _from_loopback() -> bool:
    """Whether the request names a loopback host and comes from a loopback address."""
    try:
        peer = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:
        return False
    return _hostname(request.host or "") in LOOPBACK and peer.is_loopback


def _hostname(host: str) -> str:
    """The name of a ``Host`` authority, without its port, lower case."""
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
        # the one response holding the write token: off the loopback the access token
        # was checked; on it, the request must come from this machine under its own name
        if not g.get("access_checked") and not _from_loopback():
            return _refuse(403, "the inspector is served to this machine only (http://127.0.0.1:…)")
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
        target = session.asset(root, relative)
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
        labels = body.get("labels")
        if not isinstance(labels, list) or not all(isinstance(x, str) and x in TAGS for x in labels):
            raise DetourageError(f"'labels' must be a list of letters, one of {' '.join(TAGS)} per block")
        return jsonify(session.save(_string(body, "key"), labels))

    @app.get("/api/train")
    def training() -> Response:
        return jsonify(trainer.status())

    @app.post("/api/train")
    def train() -> Response:
        body = _body()
        kind = _string(body, "kind")
        if kind not in MODELS:
            raise DetourageError(f"'kind' must be one of {', '.join(MODELS)}")
        folds = body.get("folds", 5)
        if folds is None:
            folds = 5
        if isinstance(folds, bool) or not isinstance(folds, int) or folds not in FOLDS:
            raise DetourageError(f"'folds' must be a whole number from {FOLDS.start} to {FOLDS.stop - 1}")
        return jsonify(trainer.start(kind, folds))


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
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # a body nested thousands deep
        raise DetourageError("the body is nested too deeply") from None
    if not isinstance(body, dict):
        raise DetourageError("the body is not a JSON object")
    return body


def _string(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str):
        raise DetourageError(f"{name!r} must be a string")
    return value


def _letter(label: Any) -> str:
    return LETTERS[label]
