"""Peers: the alignment of a peer's text onto our blocks, the missing-extra error, and each
installed peer on a small article page (a peer whose library is absent is skipped)."""

from __future__ import annotations

import dataclasses
import sys

import pytest

import detourage
from detourage import Label
from detourage.errors import DetourageError
from detourage.methods import peers
from detourage.model import Result
from detourage.render import render, units

PARAGRAPH = ("The committee met on Tuesday to discuss the new budget for the city library, "
             "which has been underfunded for several years according to its director. ")
ARTICLE = (
    "<html><head><title>Library budget</title></head><body>"
    "<nav><a href='/'>Home</a> | <a href='/news'>News</a> | <a href='/sport'>Sport</a></nav>"
    "<article><h1>Library budget approved</h1>"
    f"<p>{PARAGRAPH * 3}</p>"
    f"<p>Members said the <b>extra money</b> would pay for longer opening hours. {PARAGRAPH * 2}</p>"
    f"<p>{PARAGRAPH * 2}The vote was unanimous!</p>"
    "</article><footer>Copyright 2024 The Daily Example. All rights reserved.</footer></body></html>"
)


def kept(html: str, text: str | list[str], **kw: float) -> list[str]:
    page = detourage.load(html)
    return [b.text for b, k in zip(page.blocks, peers.align(page.blocks, text, **kw)) if k]


# --------------------------------------------------------------------------- alignment


def test_align_keeps_the_blocks_the_text_contains_in_order() -> None:
    html = "<p>Home</p><p>First para here.</p><p>Second <b>bold</b> one.</p><p>Footer text</p>"
    assert kept(html, "First para here.\nSecond bold one.") == ["First para here.", "Second", "bold", "one."]


def test_align_ignores_case_punctuation_and_spacing() -> None:
    html = "<p>Hello,   <i>World</i> !</p><p>Other words</p>"
    assert kept(html, ["hello world"]) == ["Hello,", "World", "!"]


def test_align_is_in_order_so_a_repeated_word_maps_once() -> None:
    html = "<p>News</p><p>Big story about news today</p><p>News</p>"
    assert kept(html, "Big story about news today") == ["Big story about news today"]


def test_align_share_threshold() -> None:
    html = "<p>one two three four</p>"
    assert kept(html, "one two") == ["one two three four"]
    assert kept(html, "one") == []
    assert kept(html, "one", min_share=0.25) == ["one two three four"]


def test_align_wordless_blocks_follow_their_neighbours() -> None:
    html = "<p>left side <b>|</b> right side</p><p>|</p><p>gone <b>|</b> here</p><p>x</p><p>end <b>!</b></p>"
    assert kept(html, "left side right side\nx\nend") == ["left side", "|", "right side", "x", "end", "!"]


def test_align_unspaced_scripts_by_character() -> None:
    html = "<p>今天天气很好</p><p>导航</p>"
    assert kept(html, "今天天气\n很好") == ["今天天气很好"]


def test_align_empty_inputs() -> None:
    assert kept("<p>text</p>", "") == []
    assert peers.align((), "anything") == []


def test_text_not_in_the_page_is_lost_not_invented() -> None:
    page = detourage.load("<p>Body text of the page.</p>")
    keep = peers.align(page.blocks, "Page Title From Head\nBody text of the page.")
    assert keep == [True]


def test_unmapped_lines_are_set_aside_not_aligned() -> None:
    page = detourage.load("<p>Print this page</p><p>The value of the page is one.</p><p>Body text here.</p>")
    code = "var page = document.getElementById('print'); if (page) { page.value = 1; }"
    lines = [code, "Body text here.", "}"]
    assert peers.unmapped(page.blocks, lines) == [code]
    assert peers.mappable(page.blocks, lines) == (["Body text here.", "}"], [code])
    # aligned as it is, the code's common words ("print", "page") would keep a block
    assert kept(page.html, lines) == ["Print this page", "Body text here."]


def test_peer_reports_unmapped_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    page = detourage.load("<p>Menu</p><p>Body text of the page.</p>")
    fake = dataclasses.replace(peers.PEERS["peer-boilerpy3"],
                               extract_text=lambda page, options: ["function x() { return menu; }",
                                                                   "Body text of the page."])
    labels = fake.label(page)
    assert [lab.kept for lab in labels.labels] == [False, True]
    assert labels.details["unmapped"] == ["function x() { return menu; }"]


# --------------------------------------------------------------------------- surface


def test_registrations_are_complete() -> None:
    regs = peers.registrations()
    assert [r[0] for r in regs] == list(peers.PEERS) == [
        "peer-trafilatura", "peer-readability", "peer-justext", "peer-boilerpy3", "peer-resiliparse"]
    for name, seed, description, options, label in regs:
        assert seed == "peer" and description and callable(label)
        opts = options()
        assert dataclasses.is_dataclass(opts) and opts.min_share == 0.5
        with pytest.raises(dataclasses.FrozenInstanceError):
            opts.min_share = 0.1  # type: ignore[misc]
        with pytest.raises(TypeError):
            options(0.3)  # keyword-only
    assert peers.JustextOptions(language="German").language == "German"


def test_missing_library_raises_with_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "trafilatura", None)  # import now raises ImportError
    with pytest.raises(DetourageError) as err:
        peers.label_trafilatura(detourage.load("<p>text</p>"))
    assert err.value.reason == "missing-extra"
    assert str(err.value) == ("peer-trafilatura needs the peers extra: "
                              "pip install -U pip && pip install 'detourage[peers]'")
    assert not peers.installed("peer-trafilatura")


# --------------------------------------------------------------------------- each peer


@pytest.fixture(params=list(peers.PEERS))
def peer(request: pytest.FixtureRequest) -> peers.Peer:
    name = request.param
    if not peers.installed(name):
        pytest.skip(f"{peers.PEERS[name].distribution} is not installed ({peers.INSTALL_HINT})")
    return peers.PEERS[name]


def test_peer_keeps_the_article_and_maps_faithfully(peer: peers.Peer) -> None:
    page = detourage.load(ARTICLE)
    labels = peer.label(page)
    assert labels.method == peer.name and len(labels.labels) == len(page.blocks)
    result = Result(page, labels, units(page.blocks, labels.labels))
    text = render(result, "txt")
    assert "The vote was unanimous!" in text and "Members said the extra money" in text
    ours, theirs = peers.tokens(text), peers.tokens("\n".join(labels.details["peer_text"]))
    assert ours == theirs or set(theirs) <= set(peers.tokens(ARTICLE))


def test_peer_uses_our_structure_for_kinds(peer: peers.Peer) -> None:
    page = detourage.load(ARTICLE)
    labels = peer.label(page).labels
    body = [lab for b, lab in zip(page.blocks, labels) if b.within("p") and lab.kept]
    assert body and set(body) <= {Label.PARAGRAPH, Label.CONTINUATION}


def test_peer_on_an_empty_page(peer: peers.Peer) -> None:
    assert peer.label(detourage.load("")).labels == ()


def test_align_follows_text_the_peer_moved() -> None:
    html = ("<p>The article body comes first in the page.</p><p>menu</p>"
            "<p>Footer policy text of the whole site is printed here.</p>")
    moved = "Footer policy text of the whole site is printed here.\nThe article body comes first in the page."
    assert kept(html, moved) == ["The article body comes first in the page.",
                                 "Footer policy text of the whole site is printed here."]
    assert kept(html, "menu\nThe article body comes first in the page.") == [
        "The article body comes first in the page."]
