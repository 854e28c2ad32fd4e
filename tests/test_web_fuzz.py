"""The parsers a hostile site feeds, under hypothesis (issue 44): robots.txt, sitemaps,
RSS/Atom and JSON feeds, URLs and the policy, content codings.  Whatever the bytes, each
answers (an outcome, a refusal, ``None``), never raises, and stays within its limits."""

from __future__ import annotations

import gzip
import json
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("httpx", reason="fetching needs the fetch extra (httpx)")
pytest.importorskip("protego", reason="fetching needs the fetch extra (protego)")

from detourage.codings import BROKEN, CUT, OK, OVER, UNKNOWN, decode  # noqa: E402
from detourage.web.client import Fetched, _parse_robots  # noqa: E402
from detourage.web.discover import _clean, _parse, _Unread  # noqa: E402
from detourage.web.policy import refusal, site  # noqa: E402

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: pieces of the formats, so that random bytes reach past the first check of each parser
PIECES = [b"<?xml version='1.0'?>", b"<urlset>", b"</urlset>", b"<sitemapindex>", b"<sitemap>", b"<url>", b"<loc>",
          b"</loc>", b"http://a.example/x", b"<rss>", b"<channel>", b"<item>", b"<link>", b"</link>", b"<guid>",
          b"<feed xmlns='http://www.w3.org/2005/Atom'>", b"<entry>", b"<link href='/y'/>", b"<!DOCTYPE x [",
          b"<!ENTITY e SYSTEM 'file:///etc/passwd'>", b"&e;", b"{", b"}", b"[", b"]", b'"items"', b":", b",",
          b'{"url": "http://a.example/z"}', b"\x1f\x8b", b"\xef\xbb\xbf", b"<html>", b"<link rel=alternate "
          b"type='application/feed+json' href='/f.json'>", b"\x00", b"\xff"]
documents = st.lists(st.one_of(st.sampled_from(PIECES), st.binary(max_size=40)), max_size=40).map(b"".join)
nested = st.tuples(st.integers(1, 20_000), st.sampled_from([b"[", b'{"a":', b"<a>"])).map(
    lambda t: b'{"items": ' + t[1] * t[0])
media = st.sampled_from(["", "application/xml", "text/xml", "application/feed+json", "application/json",
                         "text/html", "text/plain", "application/rss+xml"])


def _fetched(body: bytes, content_type: str) -> Fetched:
    headers = (("Content-Type", content_type),) if content_type else ()
    return Fetched("http://a.example/s", "fetched", 200, "http://a.example/s", headers, body)


@FUZZ
@given(body=st.one_of(documents, nested, documents.map(gzip.compress)), content_type=media,
       kind=st.sampled_from(["sitemap", "feed"]))
def test_sitemap_and_feed_parsing_is_total(body: bytes, content_type: str, kind: str) -> None:
    try:
        pages, more = _parse(_fetched(body, content_type), kind)
    except _Unread as unread:  # an outcome with its reason, logged as the file's
        assert unread.outcome in ("unreadable", "too-large", "too-many-urls", "bad-encoding") and str(unread)
        return
    assert all(isinstance(u, str) for u in pages + more)


@FUZZ
@given(text=st.one_of(st.text(max_size=400), st.lists(st.sampled_from(
    ["User-agent: *\n", "Disallow: /", "Allow: ", "Crawl-delay: ", "1e309", "-5", "nan", "Sitemap: ", "*", "$",
     "\n", "#", "%", "\x00", "http://a.example/s.xml"]), max_size=60).map("".join)))
def test_robots_txt_parsing_is_total(text: str) -> None:
    rules, delay = _parse_robots(text, "detourage-test")
    assert delay is None or delay == delay  # a number (not NaN) or nothing
    if not isinstance(rules, bool):
        rules.can_fetch("http://a.example/x", "detourage-test")


urls = st.one_of(st.text(max_size=80), st.tuples(
    st.sampled_from(["http://", "https://", "HTTP://", "//", "javascript:", "data:", "ftp://", ""]),
    st.sampled_from(["", "user@", "user:pw@", "a@b@"]),
    st.sampled_from(["a.example", "127.0.0.1", "[::1]", "[oops", "localhost", "10.0.0.1", "0x7f.1", "xn--",
                     "a..b", "é.example", "%zz", "a b", ""]),
    st.sampled_from(["", ":80", ":0", ":99999", ":8o", ":8080"]),
    st.text(max_size=20)).map("".join))


@FUZZ
@given(url=urls, base=st.sampled_from(["http://a.example/", "https://www.a.example:8443/d/"]))
def test_urls_are_judged_never_raised_on(url: str, base: str) -> None:
    cleaned = _clean(url, base)
    assert cleaned is None or cleaned.startswith(("http://", "https://"))
    for allow in (False, True):
        judged = refusal(url, allow_private=allow)
        assert judged is None or (judged[0] in ("not-http", "userinfo", "bad-url", "private-address") and judged[1])
    if refusal(url, allow_private=False) is None:
        assert "@" not in url.split("//", 1)[-1].split("/", 1)[0] and site(url)


@FUZZ
@given(data=st.one_of(st.binary(max_size=300), documents.map(gzip.compress), documents.map(zlib.compress),
                      st.integers(1, 200).map(lambda n: gzip.compress(b" " * n * 1000) * 2)),
       coding=st.sampled_from(["gzip", "x-gzip", "deflate", "br", "identity", "gzip, gzip", "zstd", "", " GZIP "]),
       limit=st.integers(0, 5000))
def test_decoding_is_total_and_bounded(data: bytes, coding: str, limit: int) -> None:
    decoded = decode(data, coding, limit)
    assert decoded.state in (OK, CUT, OVER, UNKNOWN, BROKEN) and len(decoded.data) <= limit
    assert (decoded.state == OK) == (not decoded.note)


def test_nested_json_is_an_outcome_not_a_recursion_error() -> None:
    with pytest.raises(_Unread, match="nested too deeply"):
        _parse(_fetched(b'{"items": ' + b"[" * 100_000, "application/feed+json"), "feed")
    assert _parse(_fetched(json.dumps({"items": {"url": 1}}).encode(), ""), "feed") == ([], [])
