"""The inspector (``detourage ui``) over HTTP, without a browser: pages, labels, saving
``.anno`` files, training, the evaluation report's links, and the safety rules (files
only from the roots, nothing of the page runs, writes need the session token)."""

from __future__ import annotations

import functools
import re
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import html as lxml_html
from ui_pages import make_dataset

pytest.importorskip("flask", reason="the ui extra (Flask) is not installed")

from detourage import api  # noqa: E402
from detourage.cli import main  # noqa: E402
from detourage.settings import Settings  # noqa: E402
from detourage.evaluation.report import INSPECTOR, WORST_PAGES, histograms, render_html, write_reports  # noqa: E402
from detourage.ui import make_server  # noqa: E402
from detourage.ui.browser import running  # noqa: E402
from detourage.ui.app import TOKEN_HEADER, create_app  # noqa: E402
from detourage.ui.catalog import annotation_path, catalog, inside  # noqa: E402
from detourage.ui.markup import BLOCK_ATTRIBUTE, display  # noqa: E402
from detourage.ui.session import Session  # noqa: E402
from detourage.ui.training import anno_folders, export, plan  # noqa: E402
from detourage.victor import anno  # noqa: E402

ARTICLE = "news/article"
SCRIPTED = "news/scripted"


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return make_dataset(tmp_path)


@pytest.fixture
def session(dataset: Path, tmp_path: Path) -> Session:
    return Session(catalog([str(dataset)]), ["fulltext", "baseline"], tmp_path / "annotations")


@pytest.fixture
def client(session: Session):  # type: ignore[no-untyped-def]
    client = create_app(session).test_client()
    # reads as the inspector page sends them: with the session token (labels need it)
    client.get = functools.partial(client.get, headers={TOKEN_HEADER: session.token})
    return client


def _save(client, session: Session, key: str, labels: list[str], **headers: str):  # type: ignore[no-untyped-def]
    return client.post("/api/anno", json={"key": key, "labels": labels},
                       headers={TOKEN_HEADER: session.token, **headers})


# ------------------------------------------------------------------ the shown page


def test_every_block_is_outlined_except_form_fields(dataset: Path) -> None:
    page = api.load((dataset / "html" / "article.html").read_bytes())
    shown = display(page.tree, page.blocks)
    tree = lxml_html.fromstring(shown.html)
    marked = {int(el.get(BLOCK_ATTRIBUTE)): el for el in tree.xpath(f"//*[@{BLOCK_ATTRIBUTE}]")}
    options = [b.id for b in page.blocks if b.tag == "option"]
    assert shown.located == len(page.blocks) - len(options) == len(marked)
    for block in page.blocks:
        if block.id in marked:
            el = marked[block.id]
            text = el.get("alt") if el.tag == "img" else el.text_content()
            assert " ".join(text.split()) == block.text
    assert [marked[b.id].text for b in page.blocks if b.tag == "pre"] == ["line one", "line two"]


def test_the_page_keeps_its_text_around_the_blocks(dataset: Path) -> None:
    page = api.load((dataset / "html" / "article.html").read_bytes())
    before = " ".join("".join(page.tree.find("body").itertext()).split())
    shown = lxml_html.fromstring(display(page.tree, page.blocks).html)
    assert " ".join(shown.find("body").text_content().split()) == before


def test_the_api_gives_blocks_labels_and_units(client) -> None:  # type: ignore[no-untyped-def]
    info = client.get("/api/page", query_string={"key": ARTICLE}).get_json()
    assert info["sources"] == ["fulltext", "baseline", "gold"]
    assert info["located"] == len(info["blocks"]) - 1  # the <option>
    gold = client.get("/api/labels", query_string={"key": ARTICLE, "source": "gold"}).get_json()
    assert len(gold["labels"]) == len(info["blocks"])
    assert [u["kind"] for u in gold["units"]] == ["h", "p", "p", "l", "l"]
    assert gold["units"][2]["text"] == "The mayor said the new dikes held, and nobody was hurt in the city."
    method = client.get("/api/labels", query_string={"key": ARTICLE, "source": "baseline"}).get_json()
    assert set(method["labels"]) <= set("hplco")


def test_unknown_pages_and_methods_are_refused(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/api/page", query_string={"key": "news/nope"})
    assert response.status_code == 404 and "no page 'news/nope'" in response.get_json()["error"]
    response = client.get("/api/labels", query_string={"key": ARTICLE, "source": "no-such-method"})
    assert response.status_code == 400 and "unknown method" in response.get_json()["error"]
    assert client.get("/render", query_string={"key": "../../secret.txt"}).status_code == 404
    assert client.get("/api/labels", query_string={"key": ARTICLE, "source": "anno"}).status_code == 400


# ------------------------------------------------------------------ annotations


def test_saved_labels_are_the_anno_that_train_victor_reads(client, session: Session) -> None:  # type: ignore[no-untyped-def]
    gold = client.get("/api/labels", query_string={"key": ARTICLE, "source": "gold"}).get_json()["labels"]
    labels = ["h", "p", "l", *gold[3:]]
    response = _save(client, session, ARTICLE, labels)
    assert response.status_code == 200, response.get_json()
    path = annotation_path(session.annotations, session.catalog.get(ARTICLE))
    assert path == session.annotations / "news" / "article.anno"
    page, read = anno.load_annotated(path)  # what `detourage train victor` does with the file
    assert [anno.LETTERS[x] for x in read] == labels
    again = client.get("/api/labels", query_string={"key": ARTICLE, "source": "anno"}).get_json()
    assert again["labels"] == labels
    info = client.get("/api/page", query_string={"key": ARTICLE}).get_json()
    assert info["annotated"] and info["sources"][-1] == "anno"
    progress = client.get("/api/session").get_json()["progress"]
    assert (progress["done"], progress["left"]) == (1, 1)


def test_a_continuation_with_nothing_to_continue_is_saved_as_a_paragraph(client, session: Session) -> None:  # type: ignore[no-untyped-def]
    blocks = len(client.get("/api/page", query_string={"key": ARTICLE}).get_json()["blocks"])
    done = _save(client, session, ARTICLE, ["c"] + ["o"] * (blocks - 1)).get_json()
    assert done["settled"] == 1 and done["labels"][0] == "p"


def test_a_wrong_number_of_labels_is_refused(client, session: Session) -> None:  # type: ignore[no-untyped-def]
    response = _save(client, session, ARTICLE, ["p", "x"])
    assert response.status_code == 400 and "labels" in response.get_json()["error"]
    assert not (session.annotations / "news").exists()


# ----------------------------------------------------------------------- safety


def test_a_write_without_the_token_is_refused(client, session: Session) -> None:  # type: ignore[no-untyped-def]
    body = {"key": ARTICLE, "labels": ["o"] * 20}
    for headers in ({}, {TOKEN_HEADER: "guess"}, {TOKEN_HEADER: session.token[:-1]}):
        response = client.post("/api/anno", json=body, headers=headers)
        assert response.status_code == 403 and "token" in response.get_json()["error"]
    assert client.post("/api/train", json={"kind": "victor"}).status_code == 403
    foreign = client.post("/api/anno", json=body, headers={TOKEN_HEADER: session.token,
                                                          "Origin": "http://evil.example"})
    assert foreign.status_code == 403
    form = client.post("/api/anno", data="key=x", headers={TOKEN_HEADER: session.token,
                                                          "Content-Type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    assert not session.annotations.exists()


def test_the_token_is_only_in_the_inspector_page(client, session: Session) -> None:  # type: ignore[no-untyped-def]
    assert session.token in client.get("/").get_data(as_text=True)
    for path in ("/api/session", f"/api/page?key={ARTICLE}", f"/render?key={ARTICLE}", "/static/app.js"):
        assert session.token not in client.get(path).get_data(as_text=True), path
    other = Session(session.catalog, ["fulltext"], session.annotations)
    assert other.token != session.token and len(session.token) >= 40


def test_another_host_name_is_refused(client) -> None:  # type: ignore[no-untyped-def]
    assert client.get("/", headers={"Host": "127.0.0.1:8765"}).status_code == 200
    assert client.get("/", headers={"Host": "[::1]:8765"}).status_code == 200
    response = client.get("/api/session", headers={"Host": "evil.example:8765"})
    assert response.status_code == 403 and "not this server's" in response.get_json()["error"]


@pytest.mark.parametrize("path", [
    "/files/0/../secret.txt", "/files/0/%2e%2e/secret.txt", "/files/0/html/../../secret.txt",
    "/files/0/%2Fetc%2Fpasswd", "/files/0//etc/passwd", "/files/0/html/link.txt",
    "/files/0/html/%00.css", "/files/1/secret.txt", "/files/-1/html/style.css", "/files/0/html",
])
def test_files_outside_the_roots_are_not_served(client, path: str) -> None:  # type: ignore[no-untyped-def]
    response = client.get(path, follow_redirects=True)  # werkzeug merges "//" by a redirect
    assert response.status_code == 404, path
    assert b"not for the browser" not in response.get_data()


def test_files_a_shown_page_references_are_served_sandboxed(client) -> None:  # type: ignore[no-untyped-def]
    assert client.get("/files/0/html/style.css").status_code == 404  # no page references it yet
    assert client.get("/render", query_string={"key": ARTICLE}).status_code == 200
    response = client.get("/files/0/html/style.css")
    assert response.status_code == 200 and b"rgb(1, 2, 3)" in response.get_data()
    policy = response.headers["Content-Security-Policy"]
    assert policy.startswith("sandbox;") and "script" not in policy.replace("default-src 'none'", "")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert client.get("/files/0/html/scripted.html").status_code == 404  # a page, not an asset


def test_inside_keeps_to_its_root(dataset: Path) -> None:
    assert inside(dataset, "html/style.css") == (dataset / "html" / "style.css").resolve()
    for relative in ("../secret.txt", "/etc/passwd", "html/link.txt", "html", "nope.css", "a\x00b"):
        assert inside(dataset, relative) is None, relative


def test_the_shown_page_runs_nothing(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/render", query_string={"key": SCRIPTED})
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'none'" in policy and "default-src 'none'" in policy
    assert policy.startswith("sandbox allow-same-origin;") and "allow-scripts" not in policy
    text = response.get_data(as_text=True)
    tree = lxml_html.fromstring(text)
    assert not tree.xpath("//script | //iframe | //object | //embed | //meta[@http-equiv]")
    assert not [a for el in tree.iter() for a in el.attrib if a.lower().startswith("on")]
    assert "javascript:" not in text and "pwned" not in text
    assert "After the scripts." in text
    index = lxml_html.fromstring(client.get("/").get_data(as_text=True))
    assert index.get_element_by_id("frame").get("sandbox") == "allow-same-origin"
    assert "script-src 'self'" in client.get("/").headers["Content-Security-Policy"]


def test_the_server_listens_on_loopback_by_default(dataset: Path, tmp_path: Path) -> None:
    server = make_server([str(dataset)], ["fulltext"], port=0, annotations=tmp_path / "a")
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()
    command = next(c for c in main.commands.values() if c.name == "ui")
    assert next(p for p in command.params if p.name == "host").default == "127.0.0.1"


def test_the_cli_refuses_a_missing_input_in_one_line() -> None:
    result = CliRunner().invoke(main, ["ui", "no/such/folder", "--port", "0"])
    assert result.exit_code == 2
    assert result.output.strip() == "detourage: error: no/such/folder: no such file or folder"


#: seconds the slow page's parse should take: long enough that a request queued behind it
#: would wait over a second, short enough for a test
SLOW_PARSE = 2.0


def _slow_page(attributes: int) -> str:
    """A <p> of many attributes: libxml2 parses a tag in time quadratic in them.  Each
    value holds a ">", which gets the tag past the parser's guard on attributes
    (detourage.parse.bounded_attributes, a first line only)."""
    return "<html><body><p " + " ".join(f'a{i}=">"' for i in range(attributes)) + ">Slow.</p></body></html>"


def _slow_attributes() -> int:
    """How many attributes take about SLOW_PARSE seconds to parse on this machine now
    (36 000 on an idle one), from the time of 10 000 and the quadratic growth."""
    from detourage.parse import parse

    probe = 10_000
    started = time.perf_counter()
    parse(_slow_page(probe))
    took = max(time.perf_counter() - started, 1e-3)
    return int(probe * min(6.0, max(1.0, (SLOW_PARSE / took) ** 0.5)))


def _pages_with_a_slow_one(folder: Path) -> Path:
    folder.mkdir()
    (folder / "slow.html").write_text(_slow_page(_slow_attributes()), encoding="utf-8")
    (folder / "small.html").write_text("<html><body><p>A small page.</p></body></html>", encoding="utf-8")
    return folder


def test_a_slow_page_does_not_hold_up_the_others(tmp_path: Path) -> None:
    """Requests run in threads and parse with their own parser, so a small page is
    answered while a slow one is parsed (before, all queued behind one module parser).
    No time limit here: the slow page is parsed in the server's own thread."""
    folder = _pages_with_a_slow_one(tmp_path / "pages")
    server = make_server([str(folder)], ["fulltext"], port=0, annotations=tmp_path / "annotations", timeout=None)
    with running(server) as url:
        slow = threading.Thread(target=lambda: urllib.request.urlopen(url + "api/page?key=pages/slow").read())
        slow.start()
        time.sleep(0.3)  # the slow page is being parsed
        started = time.perf_counter()
        with urllib.request.urlopen(url + "api/page?key=pages/small") as response:
            assert response.status == 200
        waited = time.perf_counter() - started
        assert slow.is_alive(), "the slow page was not slow: find another slow page"
        slow.join(timeout=60)
    assert waited < 1, f"the small page waited {waited:.1f} s behind the slow one"


def test_a_page_over_the_time_limit_is_cut_and_shown_as_an_error(tmp_path: Path) -> None:
    """libxml2 cannot be interrupted: the page is tried in a child process, killed at the
    limit (plus bounded.GRACE), and the inspector says so for that page only."""
    from detourage.ui.catalog import catalog as pages

    folder = _pages_with_a_slow_one(tmp_path / "pages")
    session = Session(pages([str(folder)]), ["fulltext"], tmp_path / "annotations", settings=Settings(timeout=0.5))
    client = create_app(session).test_client()
    started = time.perf_counter()
    response = client.get("/api/page", query_string={"key": "pages/slow"})
    took = time.perf_counter() - started
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("pages/slow: cannot be shown: time limit exceeded")
    assert took < 3, f"{took:.1f} s"  # killed at 0.5 s + bounded.GRACE, whatever libxml2 was doing
    assert client.get("/api/page", query_string={"key": "pages/small"}).status_code == 200


# --------------------------------------------------------------------- training


def test_training_plans_need_two_annotated_pages(client, session: Session) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(Exception, match="at least 2 pages"):
        plan("victor", session.annotations, 5)
    _annotate_both(client, session)
    victor = plan("victor", session.annotations, 5)
    assert victor[0][3:7] == ["crossval", "victor", str(session.annotations / "news"), "--folds"]
    assert victor[0][7] == "2"  # no more folds than pages
    assert victor[1][-2:] == ["--out", str(session.annotations / "victor.zip")]
    shown = client.get("/api/train").get_json()["planned"]
    assert shown["victor"][0].startswith("detourage crossval victor ")
    assert shown["learned"][0].startswith("python -m detourage.ui.training export ")


def test_export_writes_the_annotations_as_a_dataset(client, session: Session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from detourage.gold import load_dataset

    _annotate_both(client, session)
    assert anno_folders(session.annotations) == [session.annotations / "news"]
    assert export(session.annotations, tmp_path / "exported") == 2
    exported = load_dataset(tmp_path / "exported")
    assert [d.id for d in exported.scorable] == ["news__article", "news__scripted"]
    assert exported.scorable[0].gold_blocks[0] == ("h", "Rain in Nantes")


def test_training_victor_from_the_inspector(client, session: Session) -> None:  # type: ignore[no-untyped-def]
    _annotate_both(client, session)
    started = client.post("/api/train", json={"kind": "victor", "folds": 2}, headers={TOKEN_HEADER: session.token})
    assert started.status_code == 200 and started.get_json()["running"]
    again = client.post("/api/train", json={"kind": "victor"}, headers={TOKEN_HEADER: session.token})
    assert again.status_code == 400 and "already" in again.get_json()["error"]
    state = _finished(client)
    assert state["returncode"] == 0, state["output"]
    assert "TO F1" in state["output"] and state["model"].endswith("victor.zip")
    assert Path(state["model"]).is_file()


def _annotate_both(client, session: Session) -> None:  # type: ignore[no-untyped-def]
    for key in (ARTICLE, SCRIPTED):
        gold = client.get("/api/labels", query_string={"key": key, "source": "gold"}).get_json()["labels"]
        assert _save(client, session, key, gold).status_code == 200


def _finished(client, seconds: float = 180) -> dict:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get("/api/train").get_json()
        if not state["running"]:
            return state  # type: ignore[no-any-return]
        time.sleep(0.3)
    raise AssertionError("training did not finish")


# ------------------------------------------------------------- the report's links


def test_the_report_links_the_worst_pages_to_the_inspector(tmp_path: Path) -> None:
    pages = [{"dataset": "daniel", "id": f"p{i}", "lang": "en", "method": m, "ok": True, "to_f1": i / 40}
             for m in ("default", "boilerpipe+justext") for i in range(30)]
    summary = {"methods": ["default", "boilerpipe+justext"], "rows": [],
               "datasets": [{"name": "daniel", "path": "../shared/datasets/daniel", "pages": 30}]}
    document = render_html(summary, histograms(pages))
    links = lxml_html.fromstring(document).xpath("//section[@id='worst']//a/@href")
    assert len(links) == 2 * WORST_PAGES
    assert links[0] == f"{INSPECTOR}?page=daniel%2Fp0&method=default&compare=gold"
    assert links[WORST_PAGES] == f"{INSPECTOR}?page=daniel%2Fp0&method=boilerpipe%2Bjustext&compare=gold"
    assert "detourage ui ../shared/datasets/daniel -m default -m boilerpipe+justext" in document
    markdown = write_reports(summary, pages, tmp_path)["md"].read_text(encoding="utf-8")
    assert re.search(r"\[inspect\]\(http://127\.0\.0\.1:8765/\?page=daniel%2Fp9&method=default", markdown)
