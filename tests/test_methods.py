"""Methods: registry, fulltext, baseline (seed 000), chains."""

from __future__ import annotations

import pytest

import detourage
from detourage import Label, methods
from detourage.errors import UnknownMethod
from detourage.methods.common import kind_of, label_paragraphs


def labels(html: str, method: str) -> list[tuple[str, str]]:
    page = detourage.load(html)
    result = detourage.run(page, method)
    return [(b.text, lab.value) for b, lab in zip(page.blocks, result.labels.labels)]


def test_registry_lists_every_method_with_seed_and_description() -> None:
    listed = {m.name: m for m in methods.available()}
    assert {"fulltext", "baseline", "eatiht"} <= set(listed)
    assert listed["baseline"].seed == "000" and listed["eatiht"].seed == "001"
    assert all(m.description for m in listed.values())
    assert methods.get("default").name == methods.ALIASES["default"]


def test_unknown_method_and_bad_chain() -> None:
    with pytest.raises(UnknownMethod, match="nope"):
        methods.get("nope")
    with pytest.raises(UnknownMethod):
        methods.chain("baseline+")


def test_kind_of_uses_the_innermost_structure() -> None:
    page = detourage.load("<ul><li><h3>head in item</h3>item</li></ul><p>para</p>")
    assert [kind_of(b) for b in page.blocks] == [Label.HEADER, Label.LIST, Label.PARAGRAPH]


def test_label_paragraphs_continues_within_a_paragraph_only() -> None:
    page = detourage.load("<p>a <b>b</b></p><p>c</p>")
    assert label_paragraphs(page.blocks, [True, True, True]) == (
        Label.PARAGRAPH, Label.CONTINUATION, Label.PARAGRAPH)
    assert label_paragraphs(page.blocks, [True, False, True]) == (
        Label.PARAGRAPH, Label.OTHER, Label.PARAGRAPH)


def test_fulltext_keeps_everything_visible() -> None:
    assert all(lab != "other" for _, lab in labels("<nav>menu</nav><p>a</p><footer>f</footer>", "fulltext"))


def test_baseline_starts_at_the_first_h1_and_drops_the_seed_elements() -> None:
    out = labels("<p>before</p><h1>Title</h1><p>x <a href='#'>y</a></p><h2>sub</h2>"
                 "<ul><li>item</li></ul><form>f</form><p>z</p>", "baseline")
    assert out == [("before", "other"), ("Title", "header"), ("x", "paragraph"),
                   ("y", "continuation"), ("sub", "other"), ("item", "other"),
                   ("f", "other"), ("z", "paragraph")]


def test_baseline_unwraps_div_and_splits_on_br_and_end_of_p() -> None:
    text = detourage.extract("<div>a</div><div>b<br>c</div><p>d</p>e", "baseline", "cleaneval")
    assert text == "<p> a b\n<p> c d\n<p> e\n"


def test_baseline_separator_filter_is_an_option() -> None:
    from detourage.methods import baseline
    page = detourage.load("<p>Home | News</p><p>Body text.</p>")
    kept = baseline.label(page, baseline.Options(drop_separators=False)).labels
    assert kept == (Label.PARAGRAPH, Label.PARAGRAPH)
    assert baseline.label(page).labels == (Label.OTHER, Label.PARAGRAPH)


def test_chain_feeds_kept_content_to_the_next_method() -> None:
    html = "<p>before</p><h1>T</h1><p>one</p><ul><li>item</li></ul><p>two</p>"
    result = detourage.run(detourage.load(html), "fulltext+baseline")
    assert result.labels.method == "fulltext+baseline"
    assert [u.text for u in result.units] == ["T", "one", "two"]
    assert set(result.timings) == {"label:0:fulltext", "label:1:baseline"}


def test_labels_line_up_with_blocks_for_every_method() -> None:
    page = detourage.load("<h1>t</h1><p>" + "A sentence here. " * 5 + "</p><ul><li>x</li></ul>")
    for method in methods.available():
        if method.seed != "peer":  # peers need an extra: tests/test_peers.py
            assert len(method.run(page).labels) == len(page.blocks)


def test_a_variant_runs_its_method_with_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(methods.VARIANTS, "baseline-all", ("baseline", {"drop_separators": False},
                                                           "baseline keeping separator paragraphs"))
    page = detourage.load("<p>Home | News</p><p>Body text.</p>")
    result = detourage.run(page, "baseline-all")
    assert result.labels.method == "baseline-all"
    assert [u.text for u in result.units] == ["Home | News", "Body text."]
    assert "baseline-all" in {m.name for m in methods.available()}
    assert [u.text for u in detourage.run(page, "baseline").units] == ["Body text."]
