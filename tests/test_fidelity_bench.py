"""benchmarks/fidelity.py (issue 46): its reading of Markdown, its scores on small hand-made
cases, and the fidelity set's files."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
SET = BENCH / "data" / "fidelity"


def _bench():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("fidelity", BENCH / "fidelity.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["fidelity"] = module  # dataclasses look their module up while it runs
    spec.loader.exec_module(module)
    return module


fidelity = _bench()


@pytest.fixture
def scorers() -> None:
    """The scores need rapidfuzz (edit distance) and apted (tree edit distance)."""
    pytest.importorskip("rapidfuzz", reason="the fidelity scores need rapidfuzz")
    pytest.importorskip("apted", reason="TEDS needs apted")


# ------------------------------------------------------------------ reading Markdown

DOC = r"""# Title

Inline $e^{i\pi}+1=0$ and `$not a formula$` and \(a+b\).

$$\int_0^1 x\,dx$$

```python
def f(x):
    return x  # $x$ here is code
```

    indented = "code"
    second = line

- a list item
    continued, not code

| a | b |
|---|---|
| 1 | 2 |

<table><tr><td>x</td></tr></table>
"""


def test_elements_reads_each_kind_in_order() -> None:
    found = fidelity.by_kind(fidelity.elements(DOC))
    assert [e.text for e in found["formula"]] == [r"e^{i\pi}+1=0", r"a+b", r"\int_0^1 x\,dx"]
    assert [e.display for e in found["formula"] if e.text.startswith(r"\int")] == [True]
    assert [(e.lang, e.text) for e in found["code"]] == [
        ("python", 'def f(x):\n    return x  # $x$ here is code\n'), ("", 'indented = "code"\nsecond = line')]
    assert [e.text[:5] for e in found["table"]] == ["| a |", "<tabl"]


def test_a_fence_in_a_list_item_loses_its_indentation_only() -> None:
    md = "1. Run:\n\n    ```go\n    func f() {\n      \treturn\n    }\n  x\n    ```\n"
    assert [(e.lang, e.text) for e in fidelity.elements(md)] == [("go", "func f() {\n  \treturn\n}\nx\n")]


def test_a_table_tag_in_a_sentence_is_no_table() -> None:
    assert fidelity.elements("- `<table></table>` in select - fine\n\nA <table> tag.</table>") == []


def test_formulas_keep_document_order() -> None:
    found = fidelity.by_kind(fidelity.elements("$a$ then $$b$$ then \\(c_1\\) then \\[d^2\\]"))["formula"]
    assert [e.text for e in found] == ["a", "b", "c_1", "d^2"]
    assert {e.text for e in found if e.display} == {"b", "d^2"}


def test_a_dollar_amount_with_spaces_and_an_escaped_footnote_mark_are_no_formulas() -> None:
    assert fidelity.elements("It costs $ 5 and $ 6 in total.") == []
    assert fidelity.elements(r"JavaScript \[1\] and \(note\)") == []
    assert [e.text for e in fidelity.elements(r"\[x^2\] and \(a+b\)")] == ["x^2", "a+b"]


# ------------------------------------------------------------------ scores

GOLD_TABLE = ('<table><tr><th rowspan="2">Method</th><th colspan="2">Time (ms)</th></tr>'
              "<tr><th>small</th><th>large</th></tr><tr><td>A</td><td>1</td><td>2</td></tr></table>")


def test_identical_elements_score_one(scorers: None) -> None:
    score = fidelity.score_page("p", "m", DOC, DOC)
    assert score.scores == {"formula": 1.0, "code": 1.0, "table": 1.0}
    assert score.text_f1 == 1.0
    assert score.lang == (1, 1)


def test_the_issue_s_shifted_header_scores_below_one(scorers: None) -> None:
    shifted = "| Method | Time (ms) |  |\n|---|---|---|\n| small | large |  |\n| A | 1 | 2 |"
    gold = fidelity.table_tree(GOLD_TABLE)
    assert fidelity.teds(gold, fidelity.table_tree(GOLD_TABLE)) == 1.0
    assert 0.3 < fidelity.teds(gold, fidelity.table_tree(shifted)) < 0.9


def test_a_cell_s_text_costs_its_edit_distance(scorers: None) -> None:
    a = fidelity.table_tree("| x | y |\n|---|---|\n| 1 | 2 |")
    b = fidelity.table_tree("| x | y |\n|---|---|\n| 1 | 3 |")
    # 7 nodes (table, 2 rows, 4 cells); one cell renamed at full cost
    assert fidelity.teds(a, b) == pytest.approx(1 - 1 / 7)


def test_th_td_sections_and_markdown_marks_do_not_count(scorers: None) -> None:
    html = "<table><thead><tr><th>x</th></tr></thead><tbody><tr><td><b>1</b></td></tr></tbody></table>"
    assert fidelity.teds(fidelity.table_tree(html), fidelity.table_tree("| x |\n|---|\n| **1** |")) == 1.0
    assert fidelity.cell_text(r"\[1, 2\] **b** \*x\* a\|b <br> [l](http://x)") == "[1, 2] b *x* a|b l"


def test_a_nested_table_is_part_of_its_cell(scorers: None) -> None:
    nested = "<table><tr><td>a<table><tr><td>in</td></tr></table></td></tr></table>"
    flat = "<table><tr><td>a in</td></tr></table>"
    assert fidelity.table_tree(nested).size() == 6
    assert fidelity.teds(fidelity.table_tree(nested), fidelity.table_tree(flat)) < 0.6


def test_a_missing_formula_scores_zero_for_it(scorers: None) -> None:
    gold = "Let $x^2$ and $y^2$ be squares."
    assert fidelity.score_page("p", "m", gold, "Let $x^2$ and y2 be squares.").scores["formula"] == 0.5
    assert fidelity.score_page("p", "m", gold, "Let x2 and y2 be squares.").scores["formula"] == 0.0


def test_a_formula_written_twice_costs_its_share(scorers: None) -> None:
    got = "Let $x^2$ and $y^2$ be squares, $y^2$"
    assert fidelity.score_page("p", "m", "Let $x^2$ and $y^2$ be squares.", got).scores["formula"] == \
        pytest.approx(2 / 3)


def test_formulas_are_paired_in_order_with_the_best_sum(scorers: None) -> None:
    gold = [fidelity.Element(kind="formula", text=t) for t in ("a+b", "c+d", "e+f")]
    got = [fidelity.Element(kind="formula", text=t) for t in ("c+d", "e+f")]
    assert [(i, j) for i, j, _ in fidelity.paired(gold, got)] == [(1, 0), (2, 1)]


def test_line_numbers_in_a_listing_cost_their_characters(scorers: None) -> None:
    gold = "```python\nx = 1\ny = 2\n```"
    numbered = "```\n1\n2\nx = 1\ny = 2\n```"
    score = fidelity.score_page("p", "m", gold, numbered)
    assert score.scores["code"] == pytest.approx(1 - 4 / 15)
    assert score.lang == (0, 1)


def test_no_element_in_the_gold_leaves_the_kind_unscored(scorers: None) -> None:
    score = fidelity.score_page("p", "m", "Just text.", "Just text.\n\n| a |\n|---|\n| b |")
    assert score.scores["table"] is None and score.counts["table"] == 1


def test_text_f1_punishes_kept_boilerplate() -> None:
    gold = "# Title\n\nThe article says this."
    assert fidelity.text_f1(gold, gold) == 1.0
    assert fidelity.text_f1(gold, gold + "\n\nHome About Contact Privacy Terms Subscribe") < 0.7
    assert fidelity.text_f1(gold, "") == 0.0
    assert fidelity.words("[link](http://x.org/a) <td colspan=2>cell</td>") == ["link", "cell"]


def test_a_missing_peer_says_so(monkeypatch: pytest.MonkeyPatch, scorers: None) -> None:
    def missing(html: str) -> str:
        raise fidelity.NotInstalled("nowhere")

    monkeypatch.setitem(fidelity.PEERS, "markdownify", missing)
    scores, absent = fidelity.run(["markdownify"], only=["t-simple"])
    assert scores == [] and absent == {"markdownify": "not installed (nowhere)"}
    assert "not installed (nowhere)" in fidelity.report(scores, ["markdownify"], absent)


def test_a_page_a_method_fails_on_is_a_miss_not_a_crash(monkeypatch: pytest.MonkeyPatch, scorers: None) -> None:
    def broken(html: str) -> str:
        raise RuntimeError("boom")

    monkeypatch.setitem(fidelity.PEERS, "markdownify", broken)
    scores, absent = fidelity.run(["markdownify", "no-such-method"], only=["t-simple"])
    assert [(s.error, s.scores["table"], s.text_f1) for s in scores] == [("RuntimeError", 0.0, 0.0)]
    assert list(absent) == ["no-such-method"]
    text = fidelity.report(scores, ["markdownify", "no-such-method"], absent)
    assert "markdownify failed on 1 page(s): RuntimeError" in text and "no such method" in text


def test_compare_names_the_pages_that_moved() -> None:
    def run_(score: float) -> dict:
        row = {"formula": score, "code": None, "code_lang": None, "table": None, "text_f1": 1.0}
        page = {"method": "default", "page": "f-katex", "text_f1": 1.0,
                "scores": {"formula": score, "code": None, "table": None}}
        return {"rows": {"default": row}, "pages": [page]}

    text = fidelity.compare(run_(0.0), run_(1.0))
    assert "| default | before | 0.000 |" in text and "| default | after | 1.000 |" in text
    assert "| default | f-katex | formula | 0.000 | 1.000 |" in text
    assert "| f-katex |" not in fidelity.compare(run_(1.0), run_(1.0))


# ------------------------------------------------------------------ the set


def _readme_ids() -> list[str]:
    return re.findall(r"^\| ([a-z]+-[a-z0-9-]+) \|", (SET / "README.md").read_text(encoding="utf-8"), re.M)


def test_every_page_has_its_gold_and_its_readme_row() -> None:
    pages = fidelity.page_ids()
    assert 25 <= len(pages) <= 40
    assert pages == sorted(p.stem for p in (SET / "gold").glob("*.md"))
    assert sorted(_readme_ids()) == pages


def test_pages_are_small_utf8() -> None:
    for path in (SET / "pages").glob("*.html"):
        assert path.stat().st_size < 60_000, path.name
        path.read_text(encoding="utf-8")


def test_every_gold_scores_one_against_itself_and_holds_its_kind(scorers: None) -> None:
    """The gold reads back into elements, and a page named for a kind holds one."""
    prefix = {"f": "formula", "c": "code", "t": "table"}
    for page in fidelity.page_ids():
        gold = (SET / "gold" / f"{page}.md").read_text(encoding="utf-8")
        score = fidelity.score_page(page, "gold", gold, gold)
        assert all(v in (None, 1.0) for v in score.scores.values()), page
        kind = prefix.get(page[0])
        if kind and page != "t-layout":
            assert score.gold_counts[kind] > 0, page
    assert fidelity.score_page("t-layout", "gold", *(2 * [(SET / "gold" / "t-layout.md").read_text()])) \
        .gold_counts["table"] == 0
