"""The inspector in a real headless Chromium (Playwright): blocks coloured on the page,
three blocks relabelled with the keyboard and saved to a ``.anno`` file, and no script
of a page ever running.  Skipped, with the reason, where Playwright or Chromium is missing
(``apt-get install chromium``; ``$DETOURAGE_CHROMIUM`` names another binary)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from ui_pages import make_dataset

pytest.importorskip("flask", reason="the ui extra (Flask) is not installed")

from detourage.ui import make_server  # noqa: E402
from detourage.ui.browser import browser, missing, running, wait_ready  # noqa: E402
from detourage.victor import anno  # noqa: E402

if missing():
    pytest.skip(f"no browser test: {missing()}", allow_module_level=True)

#: label colours of static/page.css, as the browser computes them
OUTLINES = {"h": "rgb(213, 94, 0)", "p": "rgb(0, 114, 178)", "l": "rgb(0, 158, 115)"}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Any]]:
    """The inspector on the test dataset, a Chromium tab, and the annotations folder."""
    folder = tmp_path_factory.mktemp("ui")
    dataset = make_dataset(folder)
    server = make_server([str(dataset)], ["fulltext", "baseline"], port=0, annotations=folder / "annotations")
    with running(server) as url, browser() as context:
        yield url, folder / "annotations", context


def _open(site: tuple[str, Path, Any], **query: str) -> Any:
    url, _, context = site
    tab = context.new_page()
    tab.goto(url + "?" + urlencode(query))
    wait_ready(tab)
    return tab


def test_blocks_are_coloured_and_the_page_keeps_its_css(site: tuple[str, Path, Any]) -> None:
    tab = _open(site, page="news/article", method="gold")
    frame = tab.frame_locator("#frame")
    heading = frame.locator("h1 [data-dtr-b]")
    assert heading.get_attribute("data-dtr-l") == "h"
    assert heading.evaluate("el => getComputedStyle(el).outlineColor") == OUTLINES["h"]
    footer = frame.locator(".footer [data-dtr-b]")
    assert footer.get_attribute("data-dtr-l") == "o"
    paragraph = frame.locator("p").first
    assert paragraph.evaluate("el => getComputedStyle(el).color") == "rgb(1, 2, 3)"  # its style.css
    assert "Rain in Nantes" in tab.locator("#text").inner_text()
    tab.close()


def test_a_diff_marks_what_one_side_keeps(site: tuple[str, Path, Any]) -> None:
    tab = _open(site, page="news/article", method="fulltext", compare="gold")
    frame = tab.frame_locator("#frame")
    assert frame.locator(".nav [data-dtr-b]").first.get_attribute("data-dtr-d") == "a"
    assert frame.locator("h1 [data-dtr-b]").get_attribute("data-dtr-d") == "both"
    assert "kept by fulltext only" in tab.locator("#legend").inner_text()
    tab.close()


def test_three_blocks_relabelled_with_the_keyboard_are_saved(site: tuple[str, Path, Any]) -> None:
    _, annotations, _ = site
    tab = _open(site, page="news/article", method="fulltext", mode="annotate")
    frame = tab.frame_locator("#frame")
    first = frame.locator('[data-dtr-b="0"]')  # "Home", a menu link: other in the gold
    first.click()
    for key in "hpl":
        tab.keyboard.press(key)
    for block, letter in enumerate("hpl"):
        span = frame.locator(f'[data-dtr-b="{block}"]')
        assert span.get_attribute("data-dtr-l") == letter
        assert span.evaluate("el => getComputedStyle(el).outlineColor") == OUTLINES[letter]
    tab.keyboard.press("s")
    tab.wait_for_selector("#status:has-text('saved')")
    path = annotations / "news" / "article.anno"
    page, labels = anno.load_annotated(path)
    # blocks 0-2 (two menu links, the <h1>) as typed; block 3, the first paragraph, as the gold says
    assert [anno.LETTERS[x] for x in labels[:4]] == ["h", "p", "l", "p"]
    assert "✓ news/article" in tab.locator("#page").inner_text()
    assert "1 / 2 annotated" in tab.locator("#progress").inner_text()
    tab.close()


def test_the_page_scripts_never_run(site: tuple[str, Path, Any]) -> None:
    url, _, context = site
    tab = _open(site, page="news/scripted", method="fulltext")
    frame = tab.frame_locator("#frame")
    assert tab.title() == "detourage inspector"
    assert frame.locator("body").get_attribute("data-ran") is None
    assert "After the scripts." in frame.locator("body").inner_text()
    tab.goto(url + "render?key=news/scripted")  # opened on its own
    tab.wait_for_load_state("load")
    assert tab.title() == "Scripted"
    assert tab.locator("body").get_attribute("data-ran") is None
    tab.close()
