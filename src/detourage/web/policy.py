"""The rules every request passes, a redirect's as much as a listed URL's: one policy on
every road that fetches (URL lists, sitemaps, feeds, ``--crawl``, ``extract URL``,
:func:`detourage.fetch`).

- **scheme**: ``http`` or ``https`` only (``not-http``; a redirect elsewhere, to
  ``javascript:`` or ``data:``, or a ``Location`` that is no URL: ``bad-redirect``);
- **no userinfo**: ``http://user:pass@host/`` is refused (``userinfo``): it hides the
  host from a reader (``http://trusted.example@evil.example/``) and would send
  credentials nobody typed;
- **host scope**: a fetch may be held to one *site* (:func:`site`: the host, ``www.``
  aside, and its port when not the scheme's default): a redirect off it ends the page as
  ``off-site``.  ``--crawl`` holds its pages to the start page's site, sitemaps and feeds
  hold theirs to the site they describe (unless ``--all-hosts``); a URL given in a list
  may be redirected to any host;
- **no private addresses**: a host that resolves to a loopback, private, link-local,
  shared (CGNAT), multicast, reserved or unspecified address is refused
  (``private-address``) unless allowed (``allow_private``, ``--allow-private``).  The check
  is made on the address actually connected to: :class:`AddressGuard` sits in the HTTP
  client's network backend, resolves the host once, checks every address and connects
  to a checked one, so DNS cannot answer one address to the check and another to the
  connection (DNS rebinding).  An IP literal is refused before any request;
- robots.txt and politeness (the host's turn, its delay) hold for every hop: the client
  (:mod:`.client`) asks them of each request.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import Any
from urllib.parse import urlsplit

#: what a user types to fetch from the loopback or an intranet
ALLOW_HINT = "--allow-private (Politeness(allow_private=True)) allows it"
_DEFAULT_PORTS = {"http": 80, "https": 443}


class PrivateAddress(Exception):
    """A connection refused: every address of the host is one the policy forbids."""

    def __init__(self, host: str, address: str, kind: str) -> None:
        super().__init__(f"{host} is {address} ({kind} address): not fetched; {ALLOW_HINT}")


def refusal(url: str, *, allow_private: bool) -> tuple[str, str] | None:
    """(outcome, message) when ``url`` may not be requested at all, else None (its
    addresses are checked again on connecting: :class:`AddressGuard`)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return "bad-url", f"{url}: {exc}"
    if parts.scheme.lower() not in ("http", "https"):
        return "not-http", f"{url!r}: not an http(s) URL"
    if "@" in parts.netloc:
        return "userinfo", f"{url}: a URL with a user name or password is not fetched"
    if not parts.hostname or not _HOST.fullmatch(_ascii(parts.hostname)) or port == 0:
        return "bad-url", f"{url}: no host name, or not one that can be resolved"
    kind = None if allow_private else _literal_kind(parts.hostname)
    if kind is not None:
        return "private-address", f"{url}: {parts.hostname} ({kind} address) is not fetched; {ALLOW_HINT}"
    return None


#: a host name as DNS has them (ASCII, after IDNA), or an IP literal
_HOST = re.compile(r"(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}"
                   r"[a-z0-9_])?\.?|\[?[0-9a-f:.]+(?:%[\w.-]+)?\]?", re.I)


def _ascii(host: str) -> str:
    """The host in ASCII (IDNA), or "" when it has none."""
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return ""


def site(url: str) -> str:
    """The site a URL belongs to for host scope: its host in lower case, ``www.`` aside,
    with the port when it is not the scheme's default (``http://a.example/`` and
    ``https://www.a.example/`` are one site; ``http://a.example:8080/`` another)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return ""
    host = (parts.hostname or "").lower()
    host = host[4:] if host.startswith("www.") else host
    if port is None or port == _DEFAULT_PORTS.get(parts.scheme.lower()):
        return host
    return f"{host}:{port}"


def address_kind(address: str) -> str | None:
    """Why an IP address may not be fetched from (``loopback``, ``private``…), or None
    for a public one."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "unreadable"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for kind in ("loopback", "link_local", "multicast", "unspecified", "reserved", "private"):
        if getattr(ip, f"is_{kind}"):
            return kind.replace("_", "-")
    return None if ip.is_global else "non-global"


def _literal_kind(host: str) -> str | None:
    """The kind of a host given as an IP literal (None for a public one or a name)."""
    try:
        ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return "loopback" if host.lower() == "localhost" or host.lower().endswith(".localhost") else None
    return address_kind(host.strip("[]"))


class AddressGuard:
    """httpcore's ``NetworkBackend``: a TCP connection only to an address the policy
    allows.  The host is resolved once here; the connection is made to one of the
    checked addresses itself (TLS still verifies the certificate for the host's name,
    which httpcore passes to ``start_tls``)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Any = None) -> Any:
        import httpcore

        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            raise httpcore.ConnectError(f"{host}: {exc}") from exc
        addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
        allowed = [a for a in addresses if address_kind(a) is None]
        if not allowed:
            raise PrivateAddress(host, addresses[0], address_kind(addresses[0]) or "forbidden")
        failure: Exception | None = None
        for address in allowed:
            try:
                return self._inner.connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        assert failure is not None
        raise failure

    def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> Any:
        raise PrivateAddress(path, path, "unix socket")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)
