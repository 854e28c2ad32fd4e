"""detourage.compat.trafilatura.fetch_url: trafilatura's signature and return type (a
decoded string, or None), through detourage's polite client and its fetch policy,
against a local server (tests/fetch_server.py)."""

from __future__ import annotations

import inspect

import pytest

pytest.importorskip("httpx", reason="fetching needs the fetch extra (httpx)")
pytest.importorskip("protego", reason="fetching needs the fetch extra (protego)")

from fetch_server import Route, Site, page

from detourage.compat.trafilatura import extract, fetch_url
from detourage.errors import UnsupportedOption
from detourage.web import Politeness

LOCAL = Politeness(allow_private=True, delay=0, retries=0)
TEXT = "The bridge opened in October, two weeks ahead of the date the councils had announced. " * 4
LATIN1 = "Ça a été déjà vu, à côté de la forêt. " * 4


def routes() -> dict[str, Route]:
    html = ("text/html; charset=utf-8",)
    return {
        "/robots.txt": Route(body=b"User-agent: *\nDisallow: /private/\n"),
        "/a.html": Route(headers=(("Content-Type", html[0]),), body=page("A bridge", f"<p>{TEXT}</p>")),
        "/latin1.html": Route(headers=(("Content-Type", "text/html; charset=iso-8859-1"),),
                              body=f"<html><body><p>{LATIN1}</p></body></html>".encode("latin-1")),
        "/private/b.html": Route(headers=(("Content-Type", html[0]),), body=page("B", "<p>secret</p>")),
        "/moved": Route(status=301, headers=(("Location", "{base}/a.html"),)),
        "/to-file": Route(status=302, headers=(("Location", "file:///etc/passwd"),)),
        "/gone": Route(status=410, headers=(("Content-Type", html[0]),), body=page("Gone", "<p>gone</p>")),
    }


def test_the_signature_is_trafilaturas() -> None:
    parameters = list(inspect.signature(fetch_url).parameters)
    assert parameters[:4] == ["url", "no_ssl", "config", "options"]
    trafilatura = pytest.importorskip("trafilatura", reason="trafilatura (the peers extra) compares")
    assert list(inspect.signature(trafilatura.fetch_url).parameters) == parameters[:4]


def test_a_page_is_a_decoded_string_that_extract_reads() -> None:
    with Site(routes()) as site:
        html = fetch_url(site.url("/a.html"), politeness=LOCAL)
        assert isinstance(html, str) and TEXT.strip() in extract(html)
        assert LATIN1.strip() in fetch_url(site.url("/latin1.html"), politeness=LOCAL)
        assert TEXT.strip() in fetch_url(site.url("/moved"), politeness=LOCAL)


def test_failures_are_none_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    with Site(routes()) as site:
        assert fetch_url(site.url("/gone"), politeness=LOCAL) is None  # not a 200
        assert fetch_url(site.url("/missing"), politeness=LOCAL) is None  # 404
        assert fetch_url(site.url("/private/b.html"), politeness=LOCAL) is None  # robots.txt
        assert site.requested("/private/b.html") == 0
        assert fetch_url(site.url("/to-file"), politeness=LOCAL) is None  # a redirect is checked
    assert "status:410" in caplog.text and "robots" in caplog.text and "bad-redirect" in caplog.text
    assert extract(fetch_url("http://127.0.0.1:9/a.html", politeness=LOCAL)) is None  # nothing listening


def test_a_private_address_is_refused_unless_allowed(caplog: pytest.LogCaptureFixture) -> None:
    with Site(routes()) as site:
        assert fetch_url(site.url("/a.html")) is None
        assert site.requested("/a.html") == 0 and site.requested("/robots.txt") == 0
    assert "private-address" in caplog.text and "allow_private" in caplog.text


@pytest.mark.parametrize(("kwargs", "named"), [({"no_ssl": True}, "no_ssl"), ({"config": object()}, "config"),
                                               ({"options": object()}, "options")])
def test_what_cannot_be_honoured_is_refused_by_name(kwargs: dict[str, object], named: str) -> None:
    with pytest.raises(UnsupportedOption, match=named):
        fetch_url("https://example.org/", **kwargs)
