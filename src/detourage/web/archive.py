"""Fetched pages into a WARC file, with warcio's writer (webrecorder's, the reference
Python WARC library).

Each exchange becomes a ``request`` record and its ``response`` record, a redirect
included (each hop is an exchange of its own), with the headers a Common Crawl tool
expects: ``WARC-Record-ID``, ``WARC-Date`` (when the request was sent),
``WARC-Target-URI``, ``WARC-IP-Address``, ``WARC-Concurrent-To`` (the request to its
response), block and payload digests (SHA-1, base 32), and
``WARC-Identified-Payload-Type`` for an HTML response.  Every record is gzipped on its
own, so that a corpus run (``extract --to parquet``) splits the file into shards.  The
body is kept as the server sent it (its ``Content-Encoding`` too, which the corpus run
undoes), without its ``Transfer-Encoding``: that field is renamed
``X-Crawler-Transfer-Encoding`` and ``Content-Length`` gives the bytes kept (the original
value, when it differed, as ``X-Crawler-Content-Length``).
"""

from __future__ import annotations

import io
from typing import IO, Any

from ..errors import MissingExtra
from ..version import __version__
from .client import Exchange

_RENAMED = {"transfer-encoding": "X-Crawler-Transfer-Encoding", "content-length": "X-Crawler-Content-Length"}


class WarcWriter:
    """Writes exchanges to a binary stream opened for appending; :meth:`write` returns
    the stream's position after the records (a crawl's log keeps it, to resume)."""

    def __init__(self, stream: IO[bytes], *, info: dict[str, str] | None = None) -> None:
        try:
            from warcio.warcwriter import WARCWriter
        except ImportError:
            raise MissingExtra("writing WARC files needs warcio: pip install 'detourage[fetch]'") from None
        self._stream = stream
        self._writer = WARCWriter(stream, gzip=True, warc_version="1.1")
        if info is not None:
            fields = {"software": f"detourage/{__version__} (warcio)", "format": "WARC File Format 1.1", **info}
            self._writer.write_record(self._writer.create_warcinfo_record(getattr(stream, "name", ""), fields))

    def write(self, exchange: Exchange) -> int:
        """The exchange's request and response records; the position after them."""
        from warcio.statusandheaders import StatusAndHeaders

        writer = self._writer
        path = _request_target(exchange.url)
        request_line = f"GET {path} {exchange.http_version if exchange.http_version else 'HTTP/1.1'}"
        request = writer.create_warc_record(
            exchange.url, "request", payload=io.BytesIO(b""),
            http_headers=StatusAndHeaders(request_line, list(exchange.request_headers), is_http_request=True),
            warc_headers_dict=self._common(exchange))
        response = writer.create_warc_record(
            exchange.url, "response", payload=io.BytesIO(exchange.body), length=len(exchange.body),
            http_headers=StatusAndHeaders(f"{exchange.status} {exchange.reason}".strip(), _stored(exchange),
                                          protocol=exchange.http_version or "HTTP/1.1"),
            warc_headers_dict={**self._common(exchange), **_identified(exchange)})
        request.rec_headers.replace_header("WARC-Concurrent-To", response.rec_headers.get_header("WARC-Record-ID"))
        writer.write_record(request)
        writer.write_record(response)
        self._stream.flush()
        return self._stream.tell()

    @staticmethod
    def _common(exchange: Exchange) -> dict[str, str]:
        fields = {"WARC-Date": exchange.date.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}
        if exchange.ip:
            fields["WARC-IP-Address"] = exchange.ip
        return fields


def _stored(exchange: Exchange) -> list[tuple[str, str]]:
    """The response's header fields as stored: ``Transfer-Encoding`` renamed (the body
    is kept de-chunked) and ``Content-Length`` the length kept."""
    out = []
    for name, value in exchange.headers:
        lower = name.lower()
        if lower == "content-length" and value.strip() == str(len(exchange.body)):
            continue
        out.append((_RENAMED.get(lower, name), value))
    out.append(("Content-Length", str(len(exchange.body))))
    return out


def _identified(exchange: Exchange) -> dict[str, str]:
    media = next((v for k, v in exchange.headers if k.lower() == "content-type"), "").partition(";")[0]
    media = media.strip().lower()
    return {"WARC-Identified-Payload-Type": media} if media in ("text/html", "application/xhtml+xml") else {}


def _request_target(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def open_append(path: str, truncate_at: int | None = None) -> Any:
    """The WARC file opened for appending; ``truncate_at``: first cut what follows that
    position (a record a stopped crawl left half-written)."""
    stream = open(path, "r+b" if truncate_at is not None else "ab")  # noqa: SIM115 - returned open, for the caller
    if truncate_at is not None:
        stream.truncate(truncate_at)
        stream.seek(truncate_at)
    return stream
