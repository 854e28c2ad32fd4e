"""Tests of detourage.victor.anno: the .anno format, read, written and attached to pages."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import needs_shared
from detourage.api import load
from detourage.errors import DatasetError, DetourageError
from detourage.model import Label
from detourage.victor import anno
from detourage.errors import AnnoError

P, H, L, C, O = Label.PARAGRAPH, Label.HEADER, Label.LIST, Label.CONTINUATION, Label.OTHER

#: a page with the awkward cases: <pre> lines, img alt (and none), non-ASCII, texts that
#: start with '#' or '[' or look like an entry, no-break spaces and tabs
AWKWARD = """<html><body>
<div class="nav"><a href="/">Home</a> | <a href="/x">[edit]</a></div>
<h1># Not a comment</h1>
<p>Hello <b>world</b>! Ça va, 東京?</p>
<p>[p] looks like an entry &nbsp; and\ttabs</p>
<pre>first   line
\tsecond line

# third, a shell comment</pre>
<p><img src="a.png" alt="An   alt text"> after <img src="b.png"> the images</p>
<ul><li>• one</li><li>two</li></ul>
<p>#hashtag at the start</p>
</body></html>"""


def _labels(n: int) -> list[Label]:
    """Varied labels for n blocks, never an orphan continuation."""
    return list(anno.settle(list(itertools.islice(itertools.cycle([P, C, O, H, C, L, O, C]), n))))


# ----------------------------------------------------------------------------- writing


def test_seed_example_is_written_as_in_the_seed():
    page = load('<p> See <a href="http://example.org">our website</a>\nfor more details.</p>')
    text = anno.dumps(page.blocks, [P, C, C])
    assert text == "[p] See\n[c] our website\n[c] for more details.\n"


def test_dumps_header_and_bare_tag_for_empty_text():
    page = load('<p>x<img src="a.png"></p>')
    assert [b.text for b in page.blocks] == ["x", ""]
    assert anno.dumps(page.blocks, [P, O], "pages/a.html") == "# source: pages/a.html\n[p] x\n[o]\n"


def test_dumps_refuses_mismatched_lengths_and_orphan_continuations():
    page = load("<p>a</p><p>b</p>")
    with pytest.raises(ValueError, match="2 blocks but 1 labels"):
        anno.dumps(page.blocks, [P])
    with pytest.raises(ValueError, match="block 1 is a continuation"):
        anno.dumps(page.blocks, [O, C])
    with pytest.raises(ValueError, match="one line"):
        anno.dumps(page.blocks, [P, C], "a\nb.html")


def test_settle_turns_orphan_continuations_into_paragraphs():
    assert anno.settle([O, C, C, O, C]) == (O, P, C, O, C)
    assert anno.settle([H, O, C]) == (H, O, C)


def test_tags_and_letters_are_inverse():
    assert set(anno.TAGS) == {"p", "h", "l", "c", "o"}
    assert all(anno.TAGS[anno.LETTERS[label]] is label for label in Label)


# --------------------------------------------------------------------------- round trip


def test_round_trip_on_awkward_page_is_exact():
    page = load(AWKWARD.encode("utf-8"))
    texts = [b.text for b in page.blocks]
    assert "# Not a comment" in texts and "#hashtag at the start" in texts
    assert "An alt text" in texts and "" in texts  # alt text, and an image without alt
    assert "# third, a shell comment" in texts  # a <pre> line
    labels = _labels(len(page.blocks))
    text = anno.dumps(page.blocks, labels, "awkward.html")
    assert len([line for line in text.splitlines() if line.startswith("[")]) == len(page.blocks)
    annotation = anno.loads(text)
    assert annotation.source == "awkward.html"
    assert annotation.labels == tuple(labels)
    assert anno.attach(page, annotation) == tuple(labels)
    assert anno.attach(page, annotation, strict=False) == tuple(labels)


def test_written_text_collapses_whitespace_to_one_line():
    page = load("<pre>a\u00a0\u00a0b\tc</pre><p>x\u2028y</p>")
    text = anno.dumps(page.blocks, [P] * len(page.blocks))
    assert text.count("\n") == len(page.blocks)
    assert "a b c" in text


def test_write_and_read_files(tmp_path: Path):
    page = load(AWKWARD.encode("utf-8"))
    labels = _labels(len(page.blocks))
    path = tmp_path / "awkward.anno"
    anno.write(path, page.blocks, labels, "awkward.html")
    assert b"\r" not in path.read_bytes()
    annotation = anno.read(path)
    assert annotation.name == str(path)
    assert anno.attach(page, annotation) == tuple(labels)


@st.composite
def tag_soup(draw: st.DrawFn) -> str:
    """Random HTML made of awkward pieces."""
    pieces = ["<p>", "</p>", "<b>", "</b>", "<pre>", "</pre>", "<li>", "<br>", "\n", "\t",
              '<img src="x" alt="[o] a\nb">', '<img src="y">', "#", "[c]", " ", "&nbsp;", "é"]
    words = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
    parts = draw(st.lists(st.one_of(st.sampled_from(pieces), words), max_size=30))
    return "".join(parts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html=tag_soup(), seed=st.integers(0, 7))
def test_round_trip_property(html: str, seed: int):
    page = load(html)
    labels = anno.settle([list(Label)[(i * 7 + seed) % 5] for i in range(len(page.blocks))])
    annotation = anno.loads(anno.dumps(page.blocks, labels))
    assert anno.attach(page, annotation) == labels


def test_round_trip_on_shared_pages():
    html_dir = needs_shared("datasets", "cleaneval-en-dev", "html")
    for path in sorted(html_dir.glob("*.html"))[:8]:
        page = load(path.read_bytes())
        labels = _labels(len(page.blocks))
        annotation = anno.loads(anno.dumps(page.blocks, labels), name=path.name)
        assert anno.attach(page, annotation) == tuple(labels), path.name


# ---------------------------------------------------------------------------- reading


def test_comments_blank_lines_crlf_and_bom_are_read():
    text = ("\ufeff# source: a.html\r\n# a note\r\n\r\n[h] Title\r\n# another note\r\n"
            "[c]  more   text \r\n[o]\r\n")
    annotation = anno.loads(text)
    assert annotation.source == "a.html"
    assert annotation.entries == ((H, "Title"), (C, "more text"), (O, ""))
    assert annotation.lines == (4, 6, 7)


def test_texts_that_start_like_comments_or_tags_stay_texts():
    annotation = anno.loads("[h] # Title\n[o] [edit]\n[p] [p] x\n[c] # source: x.html\n")
    assert annotation.texts == ("# Title", "[edit]", "[p] x", "# source: x.html")
    assert annotation.source is None


@pytest.mark.parametrize("text, line, message", [
    ("[p] a\nno tag here\n", 2, "not an entry"),
    ("[p] a\n [p] indented\n", 2, "not an entry"),
    ("[x] a\n", 1, r"unknown tag \[x\]"),
    ("[P] upper\n", 1, r"unknown tag \[P\]"),
    ("[p]glued\n", 1, "a space must follow"),
    ("# note\n[c] a\n", 2, "continues nothing"),
    ("[o] a\n[c] b\n", 2, "continues nothing"),
    ("[p] a\n# source: x.html\n", 2, "before the first entry"),
    ("# source: a.html\n# source: b.html\n", 2, "second"),
    ("# source:   \n", 1, "names no file"),
])
def test_malformed_files_name_the_line(text: str, line: int, message: str):
    with pytest.raises(AnnoError, match=message) as info:
        anno.loads(text, name="x.anno")
    assert info.value.line == line
    assert str(info.value).startswith(f"x.anno:{line}: ")
    assert isinstance(info.value, DatasetError) and isinstance(info.value, DetourageError)
    assert info.value.reason == "anno"


def test_continuation_after_other_continues_the_last_unit():
    assert anno.loads("[p] a\n[o] b\n[c] c\n").labels == (P, O, C)


def test_read_rejects_non_utf8_and_missing_files(tmp_path: Path):
    bad = tmp_path / "bad.anno"
    bad.write_bytes(b"[p] caf\xe9\n")
    with pytest.raises(AnnoError, match="not UTF-8"):
        anno.read(bad)
    with pytest.raises(AnnoError, match="cannot read"):
        anno.read(tmp_path / "missing.anno")


# ---------------------------------------------------------------------------- the page


def test_page_for_source_line_relative_to_the_anno(tmp_path: Path):
    (tmp_path / "pages").mkdir()
    (tmp_path / "annos").mkdir()
    (tmp_path / "pages" / "a.html").write_text("<p>x</p>", encoding="utf-8")
    path = tmp_path / "annos" / "a.anno"
    source = anno.relative_source(tmp_path / "pages" / "a.html", path)
    assert source == "../pages/a.html"
    path.write_text(f"# source: {source}\n[p] x\n", encoding="utf-8")
    assert anno.page_for(path).resolve() == (tmp_path / "pages" / "a.html").resolve()


@pytest.mark.parametrize("suffix", [".html", ".htm", ".html.gz"])
def test_page_for_defaults_to_the_same_stem(tmp_path: Path, suffix: str):
    (tmp_path / f"page.v2{suffix}").write_text("<p>x</p>", encoding="utf-8")
    path = tmp_path / "page.v2.anno"
    path.write_text("[p] x\n", encoding="utf-8")
    assert anno.page_for(path) == tmp_path / f"page.v2{suffix}"


def test_page_for_missing_page_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "a.anno"
    path.write_text("[p] x\n", encoding="utf-8")
    with pytest.raises(AnnoError, match=r"not found \(no '# source:' line; looked for .*a\.html"):
        anno.page_for(path)
    path.write_text("# source: gone.html\n[p] x\n", encoding="utf-8")
    with pytest.raises(AnnoError, match="its '# source:' line.*gone.html"):
        anno.page_for(path)


def test_load_annotated_end_to_end(tmp_path: Path):
    html = "<h1>Title</h1><p>Some <a href='/'>linked</a> text</p><div>menu</div>"
    (tmp_path / "a.html").write_text(html, encoding="utf-8")
    page = load(html)
    anno.write(tmp_path / "a.anno", page.blocks, [H, P, C, C, O])
    loaded, labels = anno.load_annotated(tmp_path / "a.anno")
    assert [b.text for b in loaded.blocks] == ["Title", "Some", "linked", "text", "menu"]
    assert labels == (H, P, C, C, O)


# --------------------------------------------------------------------------- attaching


def test_strict_attach_names_the_first_difference():
    page = load("<h1>Title</h1><p>Body text</p><p>End</p>")
    text = "# source: a.html\n[h] Title\n[p] Body  text\n[o] Ending\n"
    annotation = anno.loads(text, name="a.anno")
    with pytest.raises(AnnoError) as info:
        anno.attach(page, annotation)
    message = str(info.value)
    assert message.startswith("a.anno:4: ")
    assert "block 2" in message and "'Ending'" in message and "'End'" in message


def test_strict_attach_names_a_count_difference():
    page = load("<p>a</p><p>b</p><p>c</p>")
    with pytest.raises(AnnoError, match=r"3 blocks, the annotation 2 entries; "
                                         r"annotation \(none\), page 'c'"):
        anno.attach(page, anno.loads("[p] a\n[p] b\n"))
    with pytest.raises(AnnoError, match=r"a.anno:3: .*2 blocks, the annotation 3 entries"):
        anno.attach(load("<p>a</p><p>b</p>"), anno.loads("[p] a\n[p] b\n[o] c\n", name="a.anno"))


def test_aligned_attach_survives_a_segmentation_change():
    # written by an older segmenter: "Intro" was one block with its link, and a block
    # that no longer exists ("Old banner")
    annotation = anno.loads("[o] Old banner\n[h] Title\n[p] Intro more\n[c] rest\n[o] Footer\n")
    page = load("<h1>Title</h1><p>Intro <a href='/'>more</a> rest</p><p>New ad</p><p>Footer</p>")
    assert [b.text for b in page.blocks] == ["Title", "Intro", "more", "rest", "New ad", "Footer"]
    result = anno.align_entries(page, annotation)
    # "rest" continued "Intro more", whose entry found no block: it opens the unit instead
    assert result.labels == (H, O, O, P, O, O)
    assert result.unmatched_entries == 2 and result.unmatched_blocks == 3
    assert anno.attach(page, annotation, strict=False) == result.labels
    with pytest.raises(AnnoError):
        anno.attach(page, annotation)


def test_aligned_attach_keeps_continuations_of_a_matched_unit():
    annotation = anno.loads("[p] a\n[o] x\n[c] b\n")
    page = load("<p>a <i>y</i> b</p>")
    assert anno.attach(page, annotation, strict=False) == (P, O, C)
