"""Cross-page détourage (seed 004 §4.4, issue 6): differing text, the body element,
templates fitted once and applied, the ``template`` method and its commands."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from detourage import methods
from detourage.api import extract, load, run, with_models
from detourage.cli import main
from detourage.errors import DetourageError, TemplateError
from detourage.learned.forest import load_model
from detourage.methods import template as tm
from detourage.site import content
from detourage.site import template as st

pytest.importorskip("sklearn")

ARTICLES = [
    ("Floods close the river road",
     ["Heavy rain closed the river road on Monday morning after the water rose by two metres.",
      "Engineers said the embankment held but the road will stay shut until the weekend.",
      "Residents were told to avoid the lower town and to follow the council's updates."]),
    ("Library opens a new reading room",
     ["The city library opened a reading room for children with three thousand new books.",
      "Volunteers will read aloud every Saturday, starting with stories from the region.",
      "The mayor thanked the donors who paid for the furniture and the lighting."]),
    ("Market prices fall before winter",
     ["Vegetable prices at the central market fell for the third week in a row.",
      "Traders blamed a large harvest and fewer buyers from the neighbouring towns.",
      "Apples were cheapest, while the price of onions stayed almost the same."]),
    ("School choir wins the national prize",
     ["The school choir won the national prize in the capital on Sunday evening.",
      "Forty pupils sang four songs, two of them written by their music teacher.",
      "The choir will perform at the town hall for the new year celebrations."]),
    ("New bus line links the hospital",
     ["A new bus line links the railway station with the hospital from next month.",
      "Buses will run every twenty minutes on weekdays and every hour on Sundays.",
      "The transport office hopes the line will ease parking near the hospital."]),
]
TEASERS = ["Ten gardening tips for a cold spring", "Why the old bridge needs repairs",
           "Interview with the new head of the museum", "The best walks around the lake"]


def page(i: int, *, comments: int = 0) -> str:
    title, paragraphs = ARTICLES[i]
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    said = "".join(f"<div class='c'><p>Reader {k} wrote a long and different opinion on "
                   f"article {i}: {' '.join(['words'] * 30)} {k * 7 + i}</p></div>"
                   for k in range(comments))
    teaser = TEASERS[i % len(TEASERS)]
    return f"""<html><head><title>{title} - Town News</title></head><body>
<div id="top"><a href="/">Town News</a> <ul class="nav"><li><a href="/a">Local</a></li>
<li><a href="/b">Sport</a></li><li><a href="/c">Culture</a></li><li><a href="/d">Weather</a></li></ul></div>
<div id="main"><div class="article"><h1>{title}</h1><p class="date">Published {i + 3} May 2011</p>
<div class="text">{body}</div><p class="share">Share this article with your friends</p></div>
<div id="comments">{said}</div></div>
<div id="side"><h3>Most read</h3><ul><li><a href="/x">{teaser}</a></li></ul>
<p>Subscribe to our newsletter for the latest stories from the town and the region.</p></div>
<div id="footer"><p>Copyright Town News. All rights reserved. Contact the editors.</p></div>
</body></html>"""


def url(i: int) -> str:
    return f"https://www.town-news.example/story/{i}"


def summaries(n: int = 4) -> list[tuple[str, st.PageSummary]]:
    return [(st.site_key(url(i)), st.summarise(load(page(i), url=url(i)), str(i))) for i in range(n)]


def test_tokens_normalise_and_cosine() -> None:
    assert content.tokens("Hello, World 42") == ["hello", "world", "42"]
    assert content.tokens("北京大学") == ["北", "京", "大", "学"]
    assert content.normalise("  12 Comments\n") == content.normalise("3 comments")
    assert content.cosine("a b c", "a b c") == 1.0
    assert content.cosine("a b", "c d") == 0.0
    assert 0 < content.cosine("a b c", "a b d") < 1


def test_site_key() -> None:
    assert st.site_key("https://WWW.Example.org/x?y=1") == "example.org"
    assert st.site_key(None) == ""
    assert st.site_key("news.example.org/path") == "news.example.org"


def test_fit_groups_site_and_weights_only_the_article() -> None:
    template = st.fit(summaries())
    assert list(template.sites) == ["town-news.example"]
    site = template.sites["town-news.example"]
    assert site.pages == 4 and len(site.clusters) == 1 and not site.outliers
    p = load(page(1), url=url(1))
    match = st.reference_for(template, "town-news.example", st.summarise(p))
    assert match.reason is None and match.distance == 0.0
    texts = content.block_texts(p)
    weight = content.weights(p, texts, match.reference)
    differing = {b.text.strip() for b, w in zip(p.blocks, weight) if w > 0}
    title, paragraphs = ARTICLES[1]
    assert {title, *paragraphs} <= differing
    for same in ("Town News", "Sport", "Share this article with your friends",
                 "Copyright Town News. All rights reserved. Contact the editors."):
        assert same not in differing
    # digits are folded: the date line is the template's, not the article's
    assert not any(t.startswith("Published") for t in differing)


def test_select_finds_the_body_and_the_title_not_the_comments() -> None:
    pages = [(st.site_key(url(i)), st.summarise(load(page(i, comments=6), url=url(i)), str(i)))
             for i in range(4)]
    template = st.fit(pages)
    p = load(page(2, comments=6), url=url(2))
    match = st.reference_for(template, "town-news.example", st.summarise(p))
    weight = content.weights(p, content.block_texts(p), match.reference)
    sel = content.select(p, weight, content.ContentOptions(prune=True))
    assert sel.body is not None and sel.body.get("class") == "text"
    assert sel.title is not None and sel.title.tag == "h1"
    kept = [b.text for b in content.kept_blocks(p.blocks, sel.keep)]
    title, paragraphs = ARTICLES[2]
    assert kept == [title, *paragraphs]


def test_new_page_unknown_site_and_outlier() -> None:
    template = st.fit(summaries(4))
    new = load(page(4), url=url(4))
    match = st.reference_for(template, "town-news.example", st.summarise(new))
    assert match.reference is not None and match.reference.own == frozenset()
    assert st.reference_for(template, "elsewhere.example", st.summarise(new)).reason == "unknown site"
    other = load("<html><body>" + "".join(f"<table><tr><td>cell {i}</td></tr></table>" for i in range(40))
                 + "</body></html>", url=url(9))
    assert st.reference_for(template, "town-news.example", st.summarise(other)).reason == \
        "no comparable template"


def test_copies_of_one_article_are_one_page() -> None:
    pages = [("s", st.summarise(load(page(0), url=url(0)), "a")),
             ("s", st.summarise(load(page(0).replace("Most read", "Most viewed"), url=url(0)), "b")),
             ("s", st.summarise(load(page(1), url=url(1)), "c"))]
    assert st.duplicate_groups([s for _, s in pages]) == [0, 0, 2]
    template = st.fit(pages)
    # the copies count once: the article of "a" is not template text
    match = st.reference_for(template, "s", pages[0][1])
    p = load(page(0), url=url(0))
    weight = content.weights(p, content.block_texts(p), match.reference)
    assert sum(weight) > 20


def test_save_load_round_trip(tmp_path) -> None:
    template = st.fit(summaries())
    path = tmp_path / "t.json.gz"
    st.save(template, path)
    again = st.load(path)
    assert st.to_json(again) == st.to_json(template)
    st.save(again, tmp_path / "u.json.gz")
    assert (tmp_path / "u.json.gz").read_bytes() == path.read_bytes()
    (tmp_path / "bad.json.gz").write_bytes(b"not gzip")
    with pytest.raises(TemplateError):
        st.load(tmp_path / "bad.json.gz")


def test_method_filters_template_text_and_reports_fallback(tmp_path) -> None:
    path = tmp_path / "t.json.gz"
    st.save(st.fit(summaries()), path)
    options = methods.with_template("template", str(path))
    result = run(load(page(3), url=url(3)), "template", options)
    text = result.text
    title, paragraphs = ARTICLES[3]
    assert all(p in text for p in paragraphs)
    assert "Subscribe to our newsletter" not in text and "Copyright" not in text
    report = result.labels.details["template"]
    assert report["fallback"] is None and report["site"] == "town-news.example" and report["inner"] == "default"
    # a page of another site: the default extractor, and the output says why
    other = run(load(page(3), url="https://other.example/x"), "template", options)
    assert other.labels.details["template"]["fallback"] == {"method": "default", "reason": "unknown site"}
    assert [lab.kept for lab in other.labels.labels] == [lab.kept for lab in run(load(page(3)), "default").labels.labels]
    # no template at all: still an output
    record = json.loads(extract(page(3), "template", "json"))
    assert record["details"]["template"]["fallback"]["reason"] == "no template given"
    element = run(load(page(3), url=url(3)), "template-element", methods.with_template("template-element", str(path)))
    assert element.text.splitlines() == [title, *paragraphs]


def test_cli_fit_show_extract(tmp_path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    for i in range(5):
        (folder / f"p{i}.html").write_text(page(i), encoding="utf-8")
    urls = tmp_path / "urls.jsonl"
    urls.write_text("".join(json.dumps({"id": f"p{i}", "url": url(i)}) + "\n" for i in range(5)))
    runner = CliRunner()
    out = tmp_path / "t.json.gz"
    res = runner.invoke(main, ["template", "fit", str(folder), "--url-map", str(urls), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "town-news.example" in res.output
    res = runner.invoke(main, ["template", "show", str(out)])
    assert res.exit_code == 0 and "town-news.example" in res.output
    res = runner.invoke(main, ["extract", str(folder / "p2.html"), "--url-map", str(urls), "-m", "template",
                               "--template", str(out), "-f", "json"])
    assert res.exit_code == 0, res.output
    record = json.loads(res.output[res.output.index("{"):res.output.rindex("}") + 1])
    assert record["details"]["template"]["fallback"] is None
    # a batch without --template: fitted on the batch itself
    res = runner.invoke(main, ["extract", str(folder), "-m", "template", "-o", str(tmp_path / "out.jsonl"),
                               "-f", "json"])
    assert res.exit_code == 0, res.output
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert len(records) == 5 and all(r["details"]["template"]["fallback"] is None for r in records)
    assert all("Copyright" not in r["text"] for r in records)
    res = runner.invoke(main, ["extract", str(folder / "p2.html"), "-m", "boilerpipe", "--template", str(out)])
    assert res.exit_code != 0 and "no method" in res.output


# ------------------------------------------------------------- the filter on the default


def toolbox_page(i: int) -> str:
    """A page of the town site whose article holds the site's tools and newsletter line,
    which the default extractor keeps on a page alone."""
    return page(i).replace('<div class="text">', '<div class="text"><p class="tools">Listen to this story on Town News Radio</p>').replace(
        '<p class="share">', '<p class="news">Sign up to the Town News newsletter and receive the best '
        'stories of the week in your inbox every Friday morning.</p><p class="share">')


@pytest.mark.parametrize("i", [3, 4])  # a page the template was fitted on, and a new one
def test_filter_drops_the_sites_common_text_that_the_default_keeps(tmp_path, i: int) -> None:
    path = tmp_path / "t.json.gz"
    st.save(st.fit([("town-news.example", st.summarise(load(toolbox_page(k), url=url(k)), str(k)))
                    for k in range(4)]), path)
    alone = run(load(toolbox_page(i), url=url(i)), "default").text
    result = run(load(toolbox_page(i), url=url(i)), "template", methods.with_template("template", str(path)))
    title, paragraphs = ARTICLES[i]
    assert "Listen to this story on Town News Radio" in alone and "newsletter" in alone and "Share this article" in alone
    assert result.text.splitlines() == [title, *paragraphs]
    assert result.labels.details["template"]["dropped"] >= 3


def _blocks_of(p, texts_wanted: list[str]) -> list[int]:
    return [next(i for i, b in enumerate(p.blocks) if b.text.strip() == t) for t in texts_wanted]


def test_filter_keeps_common_text_inside_the_article_and_the_fields_of_records() -> None:
    long = "This disclaimer of the site is long and it stands between two paragraphs here."
    p = load("<html><body><p>Home</p><h1>A title of its own</h1><p>Print</p>"
             "<p>The first paragraph of the article, which differs on every page.</p>"
             f"<p>{long}</p><p>The second paragraph of the article, also its own.</p>"
             "<ul><li><span>Weight:</span><span>2 kg</span></li><li><span>Weight:</span><span>3 kg</span></li></ul>"
             "<p>The last paragraph of the article, its own again.</p><p>Copyright the site</p></body></html>")
    texts = content.block_texts(p)
    common_texts = ["Home", "Print", long, "Weight:", "Copyright the site"]
    common = [False] * len(p.blocks)
    for i in [i for i, b in enumerate(p.blocks) if b.text.strip() in common_texts]:
        common[i] = True
    keep = tm.filtered(p, texts, [bool(b.text.strip()) for b in p.blocks], common, middle=8)
    kept = [b.text.strip() for b, k in zip(p.blocks, keep) if k and b.text.strip()]
    assert "Home" not in kept and "Print" not in kept and "Copyright the site" not in kept
    assert long in kept and kept.count("Weight:") == 2 and "A title of its own" in kept
    # middle 0: common text is dropped at the edges only
    keep = tm.filtered(p, texts, [bool(b.text.strip()) for b in p.blocks], common, middle=0)
    assert "Print" in [b.text for b, k in zip(p.blocks, keep) if k]


def test_common_text_needs_two_other_articles_and_a_share_of_them() -> None:
    p = load("<p>Share</p><p>Subscribe now</p><p>Our own text</p>")
    texts = content.block_texts(p)
    pair = [f"{t.key}\t{t.digest}" for t in texts]

    def common(others: int, **kw: float) -> list[bool]:
        ref = content.Reference({pair[0]: 9, pair[1]: 2, pair[2]: 1}, others=others)
        return content.common_text(texts, ref, at_least=int(kw.get("at_least", 2)), share=kw.get("share", 0.2))

    assert common(10) == [True, True, False]  # held by 9, 2 and 1 of 10: one is a copy, not a template
    assert common(10, share=0.5) == [True, False, False]  # 2 of 10 is not most
    assert common(10, at_least=1, share=0.0) == [True, True, True]
    assert common(0) == [False, False, False]  # no other article to compare with
    # a page that was fitted: its own pairs are discounted
    own = content.Reference({pair[1]: 2}, own=frozenset({pair[1]}), others=3)
    assert content.common_text(texts, own, at_least=1, share=0.0) == [False, True, False]


def test_model_and_comments_reach_the_inner_and_fallback_methods(tmp_path) -> None:
    path = tmp_path / "t.json.gz"
    st.save(st.fit(summaries()), path)
    model = load_model()
    model.meta["name"] = "fold-model"
    for site in (url(3), "https://other.example/x"):  # the inner method, the fallback
        labels = tm.label(load(page(3), url=site), tm.Options(template=str(path), model=model))
        assert labels.details["learned"]["model"] == "fold-model"
    # a model file through the API: given to template, which gives it to its methods
    model.save(tmp_path / "m.zip")
    options = with_models("template", str(tmp_path / "m.zip"))
    assert options["template"].model == str(tmp_path / "m.zip")
    with pytest.raises(DetourageError, match="m.txt"):
        (tmp_path / "m.txt").write_text("not a model")
        with_models("template", str(tmp_path / "m.txt"))
    # comments kept on request: the default leaves this page's readers' comments out
    long = "".join(f"<p>Another long sentence of the report number {k} that adds more words.</p>" for k in range(12))
    commented = load(page(3, comments=6).replace('<div class="text">', '<div class="text">' + long), url=url(3))
    without = tm.label(commented, tm.Options())
    with_comments = tm.label(commented, tm.Options(comments=True))
    assert sum(lab.kept for lab in with_comments.labels) > sum(lab.kept for lab in without.labels)


def test_filter_keeps_a_page_whose_kept_text_is_all_common_text() -> None:
    p = load("<p>Home</p><p>A notice every page of the site shows.</p>")
    texts = content.block_texts(p)
    assert tm.filtered(p, texts, [True, True], [True, True], middle=8) == [True, True]
