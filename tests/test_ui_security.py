"""The inspector as an attacker tries it (issue 31, items 16-18), and gzip bombs given to
every reader of pages (item 5): each test builds its hostile input itself.

* off the loopback, every request needs the printed access token; on it, the write
  token goes only to this machine;
* only the files a page references inside its own folder are served, never a dot-file;
* what the shown page holds cannot run, whatever parser quirk it leans on; bad JSON
  values are refused with 400; an Origin on another port may not write;
* a ``.html.gz`` that unpacks to hundreds of megabytes is refused after the limit,
  unpacked no further, by the inspector, ``evaluate`` and the corpus statistics.
"""

from __future__ import annotations

import gzip
import json
import time
import tracemalloc
import zlib
from pathlib import Path
from typing import Any

import pytest
from lxml import html as lxml_html
from ui_pages import make_dataset

from detourage import api
from detourage.errors import LimitExceeded
from detourage.evaluation.evaluate import PageJob, PageScorer
from detourage.gold import load_dataset
from detourage.evaluation.stats import corpus_stats
from detourage.parse import DEFAULT_LIMITS
from detourage.settings import Settings

ARTICLE = "news/article"
#: the access token of the test servers off the loopback
SECRET = "s3cret-access-token-for-the-tests"
#: the Host an honest client on the local network sends
LAN_HOST = "192.168.1.5:8765"


@pytest.fixture
def flask() -> Any:
    return pytest.importorskip("flask", reason="the ui extra (Flask) is not installed")


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return make_dataset(tmp_path)


@pytest.fixture
def session(flask: Any, dataset: Path, tmp_path: Path) -> Any:
    from detourage.ui.catalog import catalog
    from detourage.ui.session import Session

    return Session(catalog([str(dataset)]), ["fulltext"], tmp_path / "annotations")


def _app(session: Any, **options: Any) -> Any:
    from detourage.ui.app import create_app

    return create_app(session, **options)


def _write(client: Any, session: Any, path: str, body: Any, **headers: str) -> Any:
    from detourage.ui.app import TOKEN_HEADER

    return client.post(path, data=json.dumps(body), content_type="application/json",
                       headers={TOKEN_HEADER: session.token, **headers})


# --------------------------------------------------------------- 16: who may talk to it


def test_off_the_loopback_every_request_needs_the_access_token(session: Any) -> None:
    from detourage.ui.app import ACCESS_HEADER

    client = _app(session, hosts=["0.0.0.0"], access_token=SECRET).test_client()
    for host in (LAN_HOST, "localhost:8765", "127.0.0.1:8765"):  # Host: localhost no longer opens it
        for path in ("/", "/api/session", f"/api/page?key={ARTICLE}", f"/render?key={ARTICLE}",
                     "/?token=guess", f"/?token={SECRET[:-1]}"):
            response = client.get(path, headers={"Host": host})
            assert response.status_code == 403, (host, path)
            assert session.token not in response.get_data(as_text=True)
    opened = client.get(f"/?token={SECRET}", headers={"Host": LAN_HOST})
    assert opened.status_code == 200 and session.token in opened.get_data(as_text=True)
    cookie = opened.headers["Set-Cookie"]
    assert SECRET in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    # the client keeps the cookie, as the browser does for the inspector's own requests
    assert client.get("/api/session", headers={"Host": LAN_HOST}).status_code == 200
    assert client.get(f"/render?key={ARTICLE}", headers={"Host": LAN_HOST}).status_code == 200
    other = _app(session, hosts=["0.0.0.0"], access_token=SECRET).test_client()
    assert other.get("/api/session", headers={"Host": LAN_HOST, ACCESS_HEADER: SECRET}).status_code == 200
    assert other.get("/api/session", headers={"Host": LAN_HOST, ACCESS_HEADER: "guess"}).status_code == 403


def test_off_the_loopback_a_write_needs_both_tokens(session: Any) -> None:
    client = _app(session, hosts=["0.0.0.0"], access_token=SECRET).test_client()
    body = {"key": ARTICLE, "labels": ["o"] * 3}
    assert _write(client, session, "/api/anno", body, Host=LAN_HOST).status_code == 403  # no access token
    client.get(f"/?token={SECRET}", headers={"Host": LAN_HOST})
    response = _write(client, session, "/api/anno", body, Host=LAN_HOST)
    assert response.status_code == 400 and "labels" in response.get_json()["error"]  # past both checks


def test_make_server_off_the_loopback_prints_one_url_with_a_random_token(flask: Any, dataset: Path,
                                                                         tmp_path: Path) -> None:
    from detourage.ui import announce, make_server

    servers = [make_server([str(dataset)], ["fulltext"], port=0, host=host, annotations=tmp_path / "a")
               for host in ("0.0.0.0", "0.0.0.0", "127.0.0.1")]
    try:
        first, second, local = servers
        assert first.access_token and second.access_token and first.access_token != second.access_token
        assert len(first.access_token) >= 40 and local.access_token is None
        lines = announce(first, "0.0.0.0")
        assert f":{first.server_port}/?token={first.access_token} " in lines[0]
        assert sum(first.access_token in line for line in lines) == 1 and "warning" in lines[1]
        assert "token" not in " ".join(announce(local, "127.0.0.1"))
    finally:
        for server in servers:
            server.server_close()


def test_on_the_loopback_the_write_token_goes_to_this_machine_only(session: Any) -> None:
    client = _app(session, hosts=["127.0.0.1"]).test_client()
    assert session.token in client.get("/", headers={"Host": "localhost:8765"}).get_data(as_text=True)
    remote = client.get("/", headers={"Host": "localhost:8765"}, environ_base={"REMOTE_ADDR": "192.168.1.7"})
    assert remote.status_code == 403 and session.token not in remote.get_data(as_text=True)
    assert client.get("/", headers={"Host": "evil.example:8765"}).status_code == 403


def test_an_origin_on_another_port_may_not_write(session: Any) -> None:
    client = _app(session).test_client()
    body = {"key": ARTICLE, "labels": "pppp"}
    for origin in ("http://localhost:9999", "http://localhost", "https://localhost:8765", "null"):
        response = _write(client, session, "/api/anno", body, Host="localhost:8765", Origin=origin)
        assert response.status_code == 403 and "origin" in response.get_json()["error"], origin
    same = _write(client, session, "/api/anno", body, Host="localhost:8765", Origin="http://localhost:8765")
    assert same.status_code == 400  # past the Origin check, refused for its labels


# ------------------------------------------------------------------ 17: what it reads


def _home(tmp_path: Path) -> Path:
    """A home folder with a page, what it references, and secrets beside it."""
    home = tmp_path / "home"
    for name, text in {".ssh/id_rsa": "PRIVATE KEY", ".env": "PASSWORD=x", "notes.txt": "private notes",
                       "img/a.png": "png", "img/b.png": "png", ".hidden/c.png": "png",
                       "fonts/f.woff": "woff", "style.css": "@import 'more.css'; p { background: url(img/b.png) }",
                       "more.css": "@font-face { src: url(\"fonts/f.woff\") } b { background: url(../outside.png) }",
                       "pages/other.html": "<p>another page</p>"}.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text, encoding="utf-8")
    (tmp_path / "outside.png").write_text("png", encoding="utf-8")
    (home / "img" / "link.png").symlink_to(tmp_path / "outside.png")
    (home / "page.html").write_text(
        '<html><head><link rel="stylesheet" href="style.css"></head><body>'
        '<p>A page saved in the home folder, with an image.</p><img src="img/a.png" alt="a">'
        '<img src="img/link.png"><img src=".hidden/c.png"><img srcset="img/../.ssh/id_rsa 2x, img/a.png 1x">'
        '<img src="../outside.png"><img src="/etc/passwd"><img src="file:///etc/passwd">'
        '<a href="notes.txt">my notes</a><a href="pages/other.html">another page</a></body></html>',
        encoding="utf-8")
    return home


def test_only_the_files_a_page_references_inside_its_folder_are_served(flask: Any, tmp_path: Path) -> None:
    from detourage.ui.catalog import catalog
    from detourage.ui.session import Session

    home = _home(tmp_path)
    session = Session(catalog([str(home / "page.html")]), ["fulltext"], tmp_path / "annotations")
    client = _app(session).test_client()
    key = session.catalog.entries[0].key
    assert client.get("/files/0/img/a.png").status_code == 404  # nothing is served before the page is
    assert client.get("/render", query_string={"key": key}).status_code == 200
    for served in ("img/a.png", "style.css", "img/b.png", "more.css", "fonts/f.woff"):
        assert client.get(f"/files/0/{served}").status_code == 200, served
    for refused in (".ssh/id_rsa", "img/../.ssh/id_rsa", ".env", "notes.txt", "pages/other.html",
                    "page.html", ".hidden/c.png", "img/link.png", "../outside.png", "%2e%2e/outside.png"):
        response = client.get(f"/files/0/{refused}", follow_redirects=True)
        assert response.status_code == 404, refused
        assert b"PRIVATE" not in response.get_data() and b"PASSWORD" not in response.get_data()


# ---------------------------------------------------------------- 18: what runs


@pytest.mark.parametrize("markup", [
    "<svg><style><img src=x onerror=alert(1)></style></svg>",
    "<math><mi><style><img src=x onerror=alert(1)></style></mi></math>",
    "<svg><foreignobject><style><img src=x onerror=alert(1)></style></foreignobject></svg>",
    '<img src=x "onerror=alert(1)><img src="x"/onerror=alert(1)>',
    '<a href="java&#9;script:alert(1)">a</a><a href=" JAVASCRIPT:alert(1)">b</a>',
    '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">c</a>',
    "<svg><a><animate attributeName=href values=javascript:alert(1) /><text>x</text></a></svg>",
])
def test_the_shown_page_holds_nothing_that_runs(flask: Any, markup: str) -> None:
    from detourage.ui.markup import display

    page = api.load(f"<html><body><p>Some text.</p>{markup}</body></html>".encode())
    shown = display(page.tree, page.blocks).html.lower()
    for sign in ("onerror", "javascript", "alert", "data:text", "<animate"):
        assert sign not in shown, (sign, shown)


def test_refresh_metas_go_whatever_their_spelling(flask: Any) -> None:
    from detourage.ui.markup import display

    head = ('<meta http-equiv=" Refresh" content="0;url=http://evil.example/">'
            '<meta HTTP-EQUIV="REFRESH " content="0;url=http://evil.example/">')
    page = api.load(f"<html><head>{head}</head><body><p>Text.</p></body></html>".encode())
    shown = display(page.tree, page.blocks).html
    assert "evil.example" not in shown and "http-equiv" not in shown.lower()


def test_the_page_cannot_fake_block_outlines(flask: Any) -> None:
    from detourage.ui.markup import BLOCK_ATTRIBUTE, display

    page = api.load(b'<html><body><p>One.</p><div data-dtr-b="0" data-DTR-l="h" data-dtr-d="a">'
                    b'<i data-dtr-b="7">fake</i></div></body></html>')
    tree = lxml_html.fromstring(display(page.tree, page.blocks).html)
    marked = tree.xpath(f"//*[@{BLOCK_ATTRIBUTE}]")
    assert [(el.tag, el.get(BLOCK_ATTRIBUTE)) for el in marked] == [("span", "0"), ("span", "1")]
    assert not [name for el in tree.iter() for name in el.attrib
                if name.startswith("data-dtr-") and name != BLOCK_ATTRIBUTE]


def test_a_remote_base_is_a_web_address_only(flask: Any, dataset: Path, tmp_path: Path) -> None:
    from detourage.ui.catalog import catalog
    from detourage.ui.session import Session

    meta = dataset / "meta.jsonl"
    meta.write_text(json.dumps({"id": "article", "lang": "en", "url": " javascript:alert(1)//"}) + "\n"
                    + json.dumps({"id": "scripted", "lang": "en", "url": "https://example.org/a/"}) + "\n",
                    encoding="utf-8")
    session = Session(catalog([str(dataset)]), ["fulltext"], tmp_path / "a", remote_assets=True)
    client = _app(session).test_client()
    shown = client.get("/render", query_string={"key": ARTICLE}).get_data(as_text=True)
    assert "javascript" not in shown and '<base href="/files/0/html/">' in shown
    other = client.get("/render", query_string={"key": "news/scripted"}).get_data(as_text=True)
    assert '<base href="https://example.org/a/">' in other


@pytest.mark.parametrize(("path", "body", "message"), [
    ("/api/train", {"kind": "victor", "folds": 1e400}, "folds"),
    ("/api/train", {"kind": "victor", "folds": [1]}, "folds"),
    ("/api/train", {"kind": "victor", "folds": "5"}, "folds"),
    ("/api/train", {"kind": "victor", "folds": True}, "folds"),
    ("/api/train", {"kind": "victor", "folds": 10**30}, "folds"),
    ("/api/train", {"kind": ["victor"]}, "kind"),
    ("/api/train", {"kind": "nope"}, "kind"),
    ("/api/anno", {"key": ARTICLE, "labels": "pppp"}, "labels"),
    ("/api/anno", {"key": ARTICLE, "labels": [1, 2]}, "labels"),
    ("/api/anno", {"key": ARTICLE, "labels": ["x"]}, "labels"),
    ("/api/anno", {"key": ARTICLE, "labels": None}, "labels"),
    ("/api/anno", {"key": [ARTICLE], "labels": ["p"]}, "key"),
    ("/api/anno", [1], "object"),
])
def test_bad_json_values_are_refused_with_400(session: Any, path: str, body: Any, message: str) -> None:
    client = _app(session).test_client()
    response = _write(client, session, path, body)
    assert response.status_code == 400 and message in response.get_json()["error"], response.get_data()
    assert not session.annotations.exists()


def test_labels_as_one_string_are_refused_even_at_the_right_length(session: Any) -> None:
    client = _app(session).test_client()
    blocks = len(client.get("/api/page", query_string={"key": ARTICLE}).get_json()["blocks"])
    response = _write(client, session, "/api/anno", {"key": ARTICLE, "labels": "p" * blocks})
    assert response.status_code == 400 and "list" in response.get_json()["error"]
    assert _write(client, session, "/api/anno", {"key": ARTICLE, "labels": ["p"] * blocks}).status_code == 200


def test_a_body_nested_too_deeply_is_refused_with_400(session: Any) -> None:
    from detourage.ui.app import TOKEN_HEADER

    client = _app(session).test_client()
    response = client.post("/api/anno", data="[" * 100_000, content_type="application/json",
                           headers={TOKEN_HEADER: session.token})
    assert response.status_code == 400


# ------------------------------------------------------------- 5: gzip bombs


def _bomb(path: Path, megabytes: int = 200) -> Path:
    """A gzip file that unpacks to ``megabytes`` MiB of spaces, written in a few ms: one
    compressed MiB repeated as gzip members (a reader joins them)."""
    member = gzip.compress(b" " * (1 << 20), compresslevel=9, mtime=0)
    assert zlib.decompress(member, 31) == b" " * (1 << 20)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(member * megabytes)
    return path


def _peak(work: Any) -> tuple[Any, int]:
    """What ``work()`` returns or raises, and the peak bytes Python allocated meanwhile."""
    tracemalloc.start()
    try:
        try:
            outcome = work()
        except LimitExceeded as exc:
            outcome = exc
        return outcome, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _bomb_dataset(tmp_path: Path) -> Path:
    root = tmp_path / "bombs"
    _bomb(root / "html" / "bomb.html.gz")
    (root / "gold").mkdir()
    (root / "gold" / "bomb.txt").write_text("<p> nothing\n", encoding="utf-8")
    (root / "meta.jsonl").write_text(json.dumps({"id": "bomb", "lang": "en"}) + "\n", encoding="utf-8")
    return root


def test_a_gzip_bomb_is_unpacked_no_further_than_the_limit_by_evaluate(tmp_path: Path) -> None:
    started = time.perf_counter()
    doc = load_dataset(_bomb_dataset(tmp_path)).documents[0]
    outcome, peak = _peak(doc.read_html)
    assert isinstance(outcome, LimitExceeded) and outcome.value == DEFAULT_LIMITS.max_bytes + 1
    assert peak < 3 * DEFAULT_LIMITS.max_bytes  # 200 MiB before the fix
    record = PageScorer(settings=Settings(timeout=10))(PageJob("bombs", doc, "fulltext"))
    assert (record["ok"], record["error"]) == (False, "limit:bytes")
    assert time.perf_counter() - started < 3


def test_a_gzip_bomb_is_one_failed_page_of_the_corpus_statistics(tmp_path: Path) -> None:
    stats = corpus_stats(_bomb_dataset(tmp_path), "raw")
    assert dict(stats["all"].failures) == {"limit:bytes": 1}


def test_a_gzip_bomb_is_an_error_shown_for_that_page_in_the_inspector(flask: Any, tmp_path: Path) -> None:
    from detourage.ui.catalog import catalog
    from detourage.ui.session import Session

    folder = tmp_path / "pages"
    _bomb(folder / "bomb.html.gz")
    (folder / "fine.html").write_text("<p>A page that is fine.</p>", encoding="utf-8")
    session = Session(catalog([str(folder)]), ["fulltext"], tmp_path / "annotations")
    entry = session.catalog.get("pages/bomb")
    outcome, peak = _peak(entry.read)
    assert isinstance(outcome, LimitExceeded) and peak < 3 * DEFAULT_LIMITS.max_bytes
    client = _app(session).test_client()
    response = client.get("/api/page", query_string={"key": "pages/bomb"})
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("pages/bomb: cannot be shown: bytes limit exceeded")
    assert client.get("/api/page", query_string={"key": "pages/fine"}).status_code == 200


def test_a_broken_gzip_page_is_an_error_shown_for_that_page(flask: Any, tmp_path: Path) -> None:
    from detourage.ui.catalog import catalog
    from detourage.ui.session import Session

    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "broken.html.gz").write_bytes(gzip.compress(b"<p>cut short</p>" * 100)[:40])
    (folder / "garbage.html.gz").write_bytes(b"\x1f\x8b\x08\x00 not gzip at all")
    session = Session(catalog([str(folder)]), ["fulltext"], tmp_path / "annotations")
    client = _app(session).test_client()
    for key in ("pages/broken", "pages/garbage"):
        response = client.get("/api/page", query_string={"key": key})
        assert response.status_code == 400 and response.get_json()["error"].startswith(f"{key}: cannot be shown")


# ------------------------------------------------------------ issue 44, item 8: the inspector


def test_labels_compute_only_for_the_inspector_page_itself(session: Any) -> None:
    """A GET any web page can make a browser send (an <img src>) ran any method: the
    labels now need the session token, a header no cross-site page can set."""
    from detourage.ui.app import TOKEN_HEADER

    client = _app(session).test_client()
    query = {"key": ARTICLE, "source": "fulltext"}
    assert client.get("/api/labels", query_string=query).status_code == 403
    assert client.get("/api/labels", query_string=query, headers={TOKEN_HEADER: "guess"}).status_code == 403
    foreign = client.get("/api/labels", query_string=query,
                         headers={TOKEN_HEADER: session.token, "Origin": "http://evil.example"})
    assert foreign.status_code == 403
    assert client.get("/api/labels", query_string=query, headers={TOKEN_HEADER: session.token}).status_code == 200


def test_the_shown_page_keeps_no_referrer_policy_of_its_own(flask: Any) -> None:
    from detourage.ui.markup import display

    head = '<meta name="referrer" content="unsafe-url"><meta NAME=" Referrer " content="unsafe-url">'
    body = ('<p>Text.</p><a href="http://evil.example/" referrerpolicy="unsafe-url" ping="http://evil.example/p">a</a>'
            '<img src="http://evil.example/i.png" referrerpolicy="unsafe-url">')
    page = api.load(f"<html><head>{head}</head><body>{body}</body></html>".encode())
    shown = display(page.tree, page.blocks).html.lower()
    assert "unsafe-url" not in shown and "referrer" not in shown and "ping=" not in shown


def test_a_page_that_failed_to_load_is_not_loaded_again(flask: Any, tmp_path: Path, monkeypatch: Any) -> None:
    from detourage.ui.catalog import catalog
    from detourage.ui.session import Session

    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "broken.html.gz").write_bytes(b"\x1f\x8b\x08\x00 not gzip at all")
    session = Session(catalog([str(folder)]), ["fulltext"], tmp_path / "annotations")
    loads = []
    load = Session._load
    monkeypatch.setattr(Session, "_load", lambda self, entry: loads.append(entry.key) or load(self, entry))
    client = _app(session).test_client()
    for _ in range(3):
        response = client.get("/api/page", query_string={"key": "pages/broken"})
        assert response.status_code == 400 and "cannot be shown" in response.get_json()["error"]
    assert client.get("/render", query_string={"key": "pages/broken"}).status_code == 400
    assert loads == ["pages/broken"]
