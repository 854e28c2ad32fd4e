"""detourage.compat.trafilatura: trafilatura's documented calls (docs/usage-python.rst of
trafilatura 2.x, "Extraction functions" to "LXML objects"), its return types and shapes,
and the options it cannot honour refused by name."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from lxml import etree
from lxml import html as lxml_html

from detourage.compat import trafilatura as compat
from detourage.compat.trafilatura import LRUCache, TrafilaturaDocument, bare_extraction, extract, extract_metadata
from detourage.errors import UnsupportedOption

URL = "https://www.example.org/2024/03/05/the-river-project"
PARAGRAPHS = [
    "The river project began in the spring, when three villages agreed to share the cost of a new "
    "footbridge across the water that had divided them for a century.",
    "Engineers from the regional office surveyed both banks for six weeks before they chose a site "
    "where the current was slow and the ground on either side was firm enough to hold the piers.",
    "Work started in June and went on through a wet summer; the builders lost eleven days to floods "
    "but finished the deck in October, two weeks ahead of the date the councils had announced.",
    "Children from both schools walked across it together on the opening day, and the old ferry, "
    "which had run since 1921, made its last crossing the same afternoon with the mayors on board.",
]
COMMENTS = [
    "What a wonderful story, I crossed that river by ferry every week as a child and will miss it.",
    "Great to see the councils working together for once, more of this please in other valleys too.",
]


def article(*, with_date: bool = True, comments: bool = True) -> str:
    date = '<meta property="article:published_time" content="2024-03-05T08:00:00Z">' if with_date else ""
    body = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    thread = "".join(f'<li class="comment"><p class="comment-author">Reader {i}</p><p>{c}</p></li>'
                     for i, c in enumerate(COMMENTS, 1))
    section = (f'<section id="comments" class="comments-area"><h2>2 comments</h2>'
               f'<ol class="comment-list">{thread}</ol></section>') if comments else ""
    return (f'<html lang="en"><head><title>The river project | Valley News</title>'
            f'<meta property="og:site_name" content="Valley News">{date}'
            f'<meta name="author" content="Ana Ferreira"></head><body>'
            f'<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>'
            f'<article><h1>The river project</h1>{body}'
            f'<p>The councils counted the crossings each year:</p>'
            f'<table><caption>Crossings by ferry and by bridge</caption><tr><th>Year</th><th>Ferry</th>'
            f'<th>Bridge</th></tr>'
            + "".join(f"<tr><td>{year}</td><td>{4100 - 300 * k} crossings</td><td>{900 * k} crossings</td></tr>"
                      for k, year in enumerate(range(2019, 2025)))
            + '</table>'
            f'<p>More in <a href="/bridges">our bridges series</a> and the '
            f'<a href="https://other.example/report">council report</a>, which the villages published.</p>'
            f'<figure><img src="/img/bridge.jpg" alt="The new footbridge at dawn"></figure>'
            f'</article>{section}<footer>© Valley News 2024</footer></body></html>')


downloaded = article()


# ---------------------------------------------------------------------------- documented calls

def test_extract_returns_the_main_text_as_a_string() -> None:
    result = extract(downloaded)
    assert isinstance(result, str)
    assert PARAGRAPHS[0] in result and PARAGRAPHS[-1] in result
    assert "Home" not in result.split("\n") and "© Valley News" not in result


def test_comments_are_included_by_default_after_the_text_and_can_be_left_out() -> None:
    with_comments = extract(downloaded)
    assert COMMENTS[0] in with_comments
    assert with_comments.index(COMMENTS[0]) > with_comments.index(PARAGRAPHS[-1])
    without = extract(downloaded, include_comments=False)
    assert COMMENTS[0] not in without and PARAGRAPHS[0] in without


def test_xml_output_is_trafilaturas_doc_main_comments() -> None:
    doc = etree.fromstring(extract(downloaded, output_format="xml").encode())
    assert doc.tag == "doc" and [c.tag for c in doc] == ["main", "comments"]
    assert doc.find("main/head").get("rend") == "h1"
    assert PARAGRAPHS[1] in "".join(doc.find("main").itertext())
    assert COMMENTS[1] in "".join(doc.find("comments").itertext())


def test_json_with_metadata_has_trafilaturas_keys() -> None:
    record = json.loads(extract(downloaded, output_format="json", with_metadata=True, url=URL))
    assert list(record) == ["title", "author", "hostname", "date", "fingerprint", "id", "license", "comments",
                            "raw_text", "text", "language", "image", "pagetype", "filedate", "source",
                            "source-hostname", "excerpt", "categories", "tags"]
    assert record["title"] == "The river project"
    assert record["author"] == "Ana Ferreira"
    assert record["date"] == "2024-03-05"
    assert record["hostname"] == "example.org"
    assert record["source"] == URL and record["source-hostname"] == "Valley News"
    assert COMMENTS[0] in record["comments"] and COMMENTS[0] not in record["text"]
    assert set(json.loads(extract(downloaded, output_format="json"))) == {"text", "comments"}


def test_tables_links_and_images_follow_the_include_options() -> None:
    plain = extract(downloaded, include_comments=False)
    assert "2019 | 4100 crossings | 0 crossings" in plain
    no_tables = extract(downloaded, include_tables=False, include_links=True)
    assert "4100 crossings" not in no_tables
    assert "[council report](https://other.example/report)" in no_tables
    assert "](" not in plain  # links are off by default
    assert "The new footbridge at dawn" not in plain  # images are off by default, alt text too
    with_images = extract(downloaded, include_images=True)
    assert "![The new footbridge at dawn](/img/bridge.jpg)" in with_images


def test_links_in_xml_are_made_absolute_with_the_url() -> None:
    doc = etree.fromstring(extract(downloaded, output_format="xml", include_links=True, url=URL).encode())
    targets = [ref.get("target") for ref in doc.iter("ref")]
    assert "https://www.example.org/bridges" in targets and "https://other.example/report" in targets


def test_precision_recall_and_fast_run() -> None:
    for kwargs in ({"favor_precision": True}, {"favor_recall": True}, {"fast": True},
                   {"include_comments": False, "include_tables": False, "fast": True}):
        result = extract(downloaded, **kwargs)
        assert PARAGRAPHS[0] in result, kwargs


def test_favor_maps_onto_the_learned_extractors_favor(monkeypatch) -> None:
    seen = []
    real = compat.run

    def spy(page, method, options):
        seen.append(next(iter(options.values())).favor)
        return real(page, method, options)

    monkeypatch.setattr(compat, "run", spy)
    extract(downloaded, favor_precision=True, include_comments=False)
    extract(downloaded, favor_recall=True, include_comments=False)
    extract(downloaded, include_comments=False)
    assert seen == ["precision", "recall", "balanced"]


def test_prune_xpath_removes_what_it_selects() -> None:
    assert PARAGRAPHS[1] in extract(downloaded)
    pruned = extract(downloaded, prune_xpath="//article/p[2]")
    assert PARAGRAPHS[1] not in pruned and PARAGRAPHS[0] in pruned
    both = extract(downloaded, prune_xpath=["//article/p[1]", "//article/p[3]"])  # one after the other
    assert PARAGRAPHS[0] not in both and PARAGRAPHS[3] not in both
    assert PARAGRAPHS[1] in both and PARAGRAPHS[2] in both


def test_target_language_discards_other_languages() -> None:
    pytest.importorskip("py3langid", reason="target_language needs py3langid (the corpus extra)")
    assert extract(downloaded, target_language="de") is None
    assert extract(downloaded, target_language="en") is not None
    assert bare_extraction(downloaded, target_language="en").language == "en"


def test_record_id_goes_into_the_json() -> None:
    record = json.loads(extract(downloaded, record_id="doc-042", output_format="json", with_metadata=True))
    assert record["id"] == "doc-042"


def test_date_extraction_params_are_honoured() -> None:
    kept = extract(downloaded, output_format="xml", with_metadata=True,
                   date_extraction_params={"extensive_search": True, "max_date": "2025-01-01"})
    assert etree.fromstring(kept.encode()).get("date") == "2024-03-05"
    later = extract(downloaded, output_format="xml", with_metadata=True,
                    date_extraction_params={"extensive_search": True, "max_date": "2018-07-01"})
    assert etree.fromstring(later.encode()).get("date") is None
    formatted = bare_extraction(downloaded, with_metadata=True, date_extraction_params={"outputformat": "%d/%m/%Y"})
    assert formatted.date == "05/03/2024"


def test_only_with_metadata_needs_date_title_and_url() -> None:
    undated = article(with_date=False)
    assert bare_extraction(undated, only_with_metadata=True) is None
    found = bare_extraction(undated, only_with_metadata=True, url=URL)  # the date in the URL
    assert found is not None and found.date == "2024-03-05"


def test_bare_extraction_returns_a_document() -> None:
    document = bare_extraction(downloaded)
    assert isinstance(document, TrafilaturaDocument)
    assert PARAGRAPHS[0] in document.text and COMMENTS[0] in document.comments
    assert document.body.tag == "body" and document.commentsbody.tag == "body"
    assert document.title is None  # metadata only with with_metadata, as in trafilatura
    data = document.as_dict()
    assert set(data) >= {"title", "author", "url", "text", "comments", "body", "commentsbody", "raw_text"}
    assert bare_extraction(downloaded, as_dict=True)["text"] == document.text
    assert bare_extraction(downloaded, with_metadata=True).title == "The river project"


def test_a_response_object_and_its_url() -> None:
    class Response:
        data = downloaded.encode("utf-8")
        url = URL

    found = bare_extraction(Response.data, url=Response.url, with_metadata=True)
    assert found.url == URL
    assert bare_extraction(Response(), with_metadata=True).url == URL


def test_lxml_objects() -> None:
    my_doc = """<html><body><article><p>
                Here is the main text.
                </p></article></body></html>"""
    mytree = lxml_html.fromstring(my_doc)
    assert extract(mytree) == "Here is the main text."


def test_extract_metadata() -> None:
    found = extract_metadata(downloaded, default_url=URL)
    assert isinstance(found, TrafilaturaDocument)
    assert (found.title, found.author, found.date, found.sitename) == (
        "The river project", "Ana Ferreira", "2024-03-05", "Valley News")
    assert found.filedate is not None and found.text is None
    assert extract_metadata(downloaded, author_blacklist={"Ana Ferreira"}).author is None


# ---------------------------------------------------------------------------- formats and filters

def test_csv_is_one_tab_separated_row_of_trafilaturas_columns() -> None:
    row = next(csv.reader(io.StringIO(extract(downloaded, output_format="csv", url=URL)), delimiter="\t"))
    assert len(row) == 11
    assert row[0] == "null"  # the URL is metadata: with_metadata only, as in trafilatura
    assert PARAGRAPHS[0] in row[7] and COMMENTS[0] in row[8]
    with_meta = next(csv.reader(io.StringIO(extract(downloaded, output_format="csv", url=URL, with_metadata=True)),
                                delimiter="\t"))
    assert with_meta[0] == URL and with_meta[4] == "The river project" and with_meta[6] == "2024-03-05"


def test_txt_with_metadata_starts_with_a_yaml_header() -> None:
    out = extract(downloaded, with_metadata=True, url=URL)
    header, text = out.split("---\n")[1:3]
    assert 'title: "The river project"' in header and 'date: "2024-03-05"' in header
    assert text.startswith("The river project")


def test_markdown_and_html_outputs() -> None:
    markdown = extract(downloaded, output_format="markdown", include_comments=False)
    assert markdown.startswith("# The river project")
    page = etree.fromstring(extract(downloaded, output_format="html", with_metadata=True).encode(),
                            etree.HTMLParser())
    assert page.find(".//head/meta[@name='title']").get("content") == "The river project"
    assert page.find(".//body/h1").text == "The river project"


def test_deduplicate_drops_what_was_seen_more_than_twice() -> None:
    cache = LRUCache()
    outputs = [extract(downloaded, include_comments=False, deduplicate=cache) for _ in range(4)]
    assert all(PARAGRAPHS[0] in out for out in outputs[:3])
    # the 4th time, each long paragraph was seen thrice before: they go, the short lines stay
    assert PARAGRAPHS[0] not in outputs[3] and "The river project" in outputs[3]
    while (again := extract(downloaded, include_comments=False, deduplicate=cache)) is not None:
        assert again == outputs[3]  # until what is left was itself seen three times
    fresh = ("A new closing paragraph about the ferry, written for this test only, long enough to be "
             "counted by the duplicate test.")
    changed = extract(article().replace(PARAGRAPHS[3], fresh), include_comments=False, deduplicate=cache)
    assert fresh in changed and PARAGRAPHS[0] not in changed  # the repeated paragraphs went
    assert PARAGRAPHS[0] in extract(downloaded, include_comments=False)  # no cache, no deduplication


def test_fingerprint_is_trafilaturas_simhash() -> None:
    traf = pytest.importorskip("trafilatura.deduplication", reason="trafilatura (the peers extra) compares")
    for text in (PARAGRAPHS[0], " ".join(PARAGRAPHS), "", "短文本。另一个句子。", "a b c"):
        assert compat.fingerprint(text) == traf.content_fingerprint(text), text


def test_filters_give_none() -> None:
    assert extract(downloaded, url=URL, url_blacklist={URL}) is None
    assert extract(downloaded, max_tree_size=10) is None
    assert extract("") is None
    assert extract(b"\x89PNG\r\n\x1a\n" + bytes(200)) is None


def test_same_shapes_as_trafilatura_itself() -> None:
    trafilatura = pytest.importorskip("trafilatura", reason="trafilatura (the peers extra) compares")
    ours = json.loads(extract(downloaded, output_format="json", with_metadata=True, url=URL))
    theirs = json.loads(trafilatura.extract(downloaded, output_format="json", with_metadata=True, url=URL))
    assert list(ours) == list(theirs)
    assert set(bare_extraction(downloaded).as_dict()) == set(trafilatura.bare_extraction(downloaded).as_dict())
    for fmt in ("xml", "csv"):
        ours_xml, theirs_xml = (f(downloaded, output_format=fmt, url=URL) for f in (extract, trafilatura.extract))
        if fmt == "xml":
            assert etree.fromstring(ours_xml.encode()).tag == etree.fromstring(theirs_xml.encode()).tag == "doc"
        else:
            assert len(next(csv.reader(io.StringIO(ours_xml), delimiter="\t"))) == \
                len(next(csv.reader(io.StringIO(theirs_xml), delimiter="\t")))


FIXTURES = sorted((Path(__file__).parent / "behaviour" / "fixtures").glob("*.html"))


def _kind(value: object) -> object:
    """A value's shape: its type (an lxml element is an element, whatever its class), a
    list's with the types of its items."""
    if isinstance(value, etree._Element):
        return "element"
    if isinstance(value, list):
        return ("list", frozenset(type(v).__name__ for v in value))
    return type(value).__name__


@pytest.mark.parametrize("kwargs", [{}, {"include_comments": False}, {"with_metadata": True}])
def test_side_by_side_with_trafilatura_the_same_shapes(kwargs: dict[str, object]) -> None:
    """On the behaviour pages and this module's page: the same Document attributes, each
    of the same shape when both hold a value, ``comments`` None exactly when trafilatura's
    is, ``filedate`` a string with the metadata; the same JSON keys in the same order."""
    trafilatura = pytest.importorskip("trafilatura", reason="trafilatura (the peers extra) compares")
    pages = [downloaded.encode(), *(path.read_bytes() for path in FIXTURES)]
    compared = 0
    for html in pages:
        theirs, ours = trafilatura.bare_extraction(html, **kwargs), bare_extraction(html, **kwargs)
        if theirs is None or ours is None:
            continue
        compared += 1
        theirs, ours = theirs.as_dict(), ours.as_dict()
        assert set(ours) == set(theirs)
        for name, value in theirs.items():
            if value not in (None, []) and ours[name] not in (None, []):  # found on one side only: content
                assert _kind(ours[name]) == _kind(value), name
        assert (ours["comments"] is None) == (theirs["comments"] is None)
        assert (ours["filedate"] is None) == (theirs["filedate"] is None)
        their_json = json.loads(trafilatura.extract(html, output_format="json", **kwargs))
        our_json = json.loads(extract(html, output_format="json", **kwargs))
        assert list(our_json) == list(their_json)
        assert all(type(our_json[k]) is type(v) for k, v in their_json.items() if v is not None and our_json[k] is not None)
    assert compared >= len(pages) - 2
    assert trafilatura.extract(5) is extract(5) is None
    assert trafilatura.bare_extraction(5) is bare_extraction(5) is None


# ---------------------------------------------------------------------------- refused by name

@pytest.mark.parametrize(("kwargs", "named"), [
    ({"tei_validation": True}, "tei_validation"),
    ({"output_format": "xmltei"}, "xmltei"),
    ({"settingsfile": "settings.cfg"}, "settingsfile"),
    ({"config": object()}, "config"),
    ({"options": object()}, "options"),
    ({"date_extraction_params": {"extensive_search": True, "min_date": "2000-01-01", "skip_extensive": 1}},
     "skip_extensive"),
    ({"favor_precision": True, "favor_recall": True}, "favor_precision"),
    ({"deduplicate": "yes"}, "deduplicate"),
    ({"output_format": "python"}, "python"),
])
def test_options_that_cannot_be_honoured_are_refused_by_name(kwargs, named) -> None:
    with pytest.raises(UnsupportedOption, match=named):
        extract(downloaded, **kwargs)


def test_unknown_keywords_are_errors_and_an_input_that_is_no_page_gives_none(caplog) -> None:
    with pytest.raises(TypeError):
        extract(downloaded, include_everything=True)
    # as trafilatura: extract and bare_extraction log it and return None …
    assert extract(12345) is None and bare_extraction([]) is None
    assert "incompatible input type: int" in caplog.text
    # … extract_metadata and html2txt raise
    with pytest.raises(TypeError, match="incompatible input type"):
        extract_metadata(12345)
    with pytest.raises(TypeError, match="incompatible input type"):
        compat.html2txt(12345)


def test_comments_is_none_when_left_out_and_empty_when_there_are_none() -> None:
    assert bare_extraction(downloaded, include_comments=False).comments is None
    assert bare_extraction(article(comments=False)).comments == ""
    assert bare_extraction(downloaded).comments.startswith(COMMENTS[0])


def test_comment_text_is_what_the_commenters_wrote() -> None:
    """A WordPress thread: the author's "says:" line, the comment's date, the "Reply"
    links, the section's heading and the reply form's heading are no comment text."""
    page = (Path(__file__).parent / "behaviour" / "fixtures" / "comments-wordpress.html").read_bytes()
    comments = bare_extraction(page).comments
    assert comments.startswith("We did almost exactly the same thing last year")
    for chrome in ("says:", "Tomasz", "March 10, 2024 at 7:02 am", "Leave a Reply", "8 Responses to", "Reply\n",
                   "Your email address"):
        assert chrome not in comments
    assert len(comments.splitlines()) == 6
    assert "Reader 1" not in bare_extraction(downloaded).comments  # class="comment-author"


def test_a_comment_that_quotes_a_name_and_says_keeps_its_text() -> None:
    thread = ('<div id="comments"><div class="comment"><p>I agree with what John says</p>'
              '<p>March 2, 2025 at 11:04 am is when I read it, and I still think the bridge was worth every penny.</p>'
              '</div></div>')
    comments = bare_extraction(downloaded.replace("</article>", f"</article>{thread}")).comments
    assert "I agree with what John says" in comments


def test_tags_are_one_per_meta_as_the_page_writes_them() -> None:
    head = ('<meta name="keywords" content="bridges,  rivers, villages">'
            '<meta property="article:tag" content="ferry"><meta property="article:tag" content="councils">')
    document = bare_extraction(downloaded.replace("</head>", f"{head}</head>"), with_metadata=True)
    assert document.tags == ["bridges, rivers, villages", "ferry", "councils"]
    data = json.loads(extract(downloaded.replace("</head>", f"{head}</head>"), output_format="json",
                              with_metadata=True))
    assert data["tags"] == "bridges, rivers, villages;ferry;councils"


def test_extract_with_metadata_and_html2txt() -> None:
    assert compat.extract_with_metadata(downloaded, url=URL).startswith("---\ntitle: ")
    everything = compat.html2txt(downloaded)
    assert "Home" in everything and PARAGRAPHS[0] in everything and "© Valley News 2024" in everything
    with pytest.raises(UnsupportedOption, match="clean=False"):
        compat.html2txt(downloaded, clean=False)


def test_what_a_review_found() -> None:
    assert extract(None) is None and bare_extraction(None) is None  # extract(fetch_url(url)) after a failed download
    titled = downloaded.replace("<title>The river project", "<title>The river&#1; project")
    doc = etree.fromstring(extract(titled, output_format="xml", with_metadata=True).encode())
    assert doc.get("title") == "The river project"
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    assert extract(png, prune_xpath="//p") is None
    with pytest.raises(UnsupportedOption, match="selects values"):
        extract(downloaded, prune_xpath="//p/@class")
    canonical = downloaded.replace("<head>", '<head><link rel="canonical" href="https://a.example/x">')
    assert extract(canonical, url="https://b.example/y", url_blacklist={"https://a.example/x"}) is None
    assert extract(canonical, url="https://b.example/y", url_blacklist={"https://b.example/y"}) is not None
    cache = LRUCache()
    short = "<html><body><p>Page not found.</p></body></html>"
    assert all(extract(short, deduplicate=cache) for _ in range(4))  # 100 characters or less: never a duplicate
    plain = extract(downloaded, output_format="markdown", include_formatting=False, include_comments=False)
    assert plain.startswith("The river project") and "**" not in plain
