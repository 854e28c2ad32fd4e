"""Unit tests of detourage.evaluation.metrics on small hand-made cases with known answers."""

from __future__ import annotations

import difflib
import random
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from detourage.gold import text as gold_text
from detourage.gold.text import char_tokens, matched_count, matching_blocks, normalize_text, word_tokens
from detourage.evaluation.metrics import (
    Counts,
    PRF,
    Mode,
    ShingleCounts,
    SnippetCounts,
    cleaneval_all,
    cleaneval_scores,
    cosine,
    cosine_page,
    cosine_summary,
    markup_tokens,
    mode_tokens,
    shingle_counts,
    shingle_difference,
    shingle_summary,
    shingles,
    snippet_counts,
    summarize,
    summarize_by,
    word_counts,
)


def difflib_blocks(a, b):
    """The reference: difflib without the popularity heuristic."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [tuple(x) for x in matcher.get_matching_blocks()]


# ------------------------------------------------------------------ normalisation


def test_normalize_controls_whitespace_nfc():
    assert normalize_text("  a\tb\r\n\x00c\x85d\u00a0e  ") == "a b c d e"
    assert normalize_text("e\u0301") == "\u00e9"


def test_word_tokens_drop_punctuation_in_any_script():
    assert word_tokens("Hello, world! (it's 3.5)") == ["Hello", "world", "it", "s", "3", "5"]
    expected = ["l", "épidémie", "grippe"]
    assert word_tokens("l’épidémie « grippe »") == expected
    assert word_tokens('l\'épidémie "grippe"') == expected
    assert word_tokens("北京，欢迎你。再见") == ["北京", "欢迎你", "再见"]
    assert word_tokens("Γεια σου; κόσμε·") == ["Γεια", "σου", "κόσμε"]


def test_word_tokens_keep_symbols():
    assert word_tokens("$100 | 5% © a+b") == ["$100", "|", "5", "©", "a+b"]


def test_char_tokens_drop_spaces_keep_punctuation():
    assert char_tokens(" a b,\nc ") == ["a", "b", ",", "c"]


def test_no_punctuation_above_scan_limit():
    above = (c for c in range(gold_text._PUNCT_SCAN_LIMIT, sys.maxunicode + 1))
    assert not any(unicodedata.category(chr(c)).startswith("P") for c in above)


def test_markup_tokens_labelled_and_unlabelled():
    blocks = [("h", "Title"), ("p", "A b.")]
    assert markup_tokens(blocks) == ["\x00h", "Title", "\x00p", "A", "b"]
    assert markup_tokens(blocks, labelled=False) == ["\x00", "Title", "\x00", "A", "b"]


def test_literal_marker_text_is_not_a_marker():
    assert mode_tokens([("p", "<p>")], Mode.TM) == ["\x00p", "<p>"]
    assert cleaneval_scores([("p", "x")], [("p", "<p> x")], "tm").matched == 2


def test_string_input_is_read_as_cleaneval():
    text = "URL: http://x\n<h> Title\n<p> Body text"
    assert mode_tokens(text, Mode.TO) == ["Title", "Body", "text"]
    assert mode_tokens(text, Mode.TM) == ["\x00h", "Title", "\x00p", "Body", "text"]


def test_unknown_block_kind_rejected():
    with pytest.raises(ValueError):
        mode_tokens([("x", "a")], Mode.TO)


# -------------------------------------------------------------------- CleanEval


def test_to_scores():
    c = cleaneval_scores("a b c d", "a b x d e", Mode.TO)
    assert c == Counts(3, 4, 5)
    assert c.precision == 0.75 and c.recall == 0.6
    assert c.f1 == pytest.approx(2 * 0.75 * 0.6 / 1.35)


def test_tm_labelled_vs_unlabelled():
    pred, gold = [("h", "A B")], [("p", "A B")]
    assert cleaneval_scores(pred, gold, Mode.TM) == Counts(2, 3, 3)
    assert cleaneval_scores(pred, gold, Mode.TM_UNLABELLED) == Counts(3, 3, 3)
    assert cleaneval_scores(pred, gold, "to") == Counts(2, 2, 2)


def test_car_scores_chinese():
    assert cleaneval_scores("北京欢迎你", "北京欢迎您", Mode.TO) == Counts(0, 1, 1)
    assert cleaneval_scores("北京欢迎你", "北京欢迎您", Mode.CAR) == Counts(4, 5, 5)


def test_cleaneval_all_modes():
    out = cleaneval_all([("p", "a b")], [("l", "a b")])
    assert set(out) == set(Mode)
    assert out[Mode.TM].matched == 2 and out[Mode.TM_UNLABELLED].matched == 3


def test_empty_sides():
    both = cleaneval_scores("", "", Mode.TO)
    assert (both.precision, both.recall, both.f1) == (1.0, 1.0, 1.0)
    no_pred = cleaneval_scores("", "a b", Mode.TO)
    assert (no_pred.precision, no_pred.recall, no_pred.f1) == (0.0, 0.0, 0.0)
    no_gold = cleaneval_scores("a b", "", Mode.TO)
    assert (no_gold.precision, no_gold.recall, no_gold.f1) == (0.0, 0.0, 0.0)


def test_autojunk_reproduces_difflib_defaults():
    rng = random.Random(3)
    words = ["the", "of", "a", "cat", "dog", "sat", "x", "y"]
    gold = " ".join(rng.choice(words) for _ in range(400))
    pred = " ".join(w for w in gold.split() if rng.random() < 0.9)
    a, b = word_tokens(pred), word_tokens(gold)
    expected = sum(x.size for x in difflib.SequenceMatcher(None, a, b).get_matching_blocks())
    assert cleaneval_scores(pred, gold, "to", autojunk=True).matched == expected
    assert cleaneval_scores(pred, gold, "to").matched == sum(k for *_, k in difflib_blocks(a, b))


# -------------------------------------------------------------------- alignment


@pytest.mark.parametrize("direct", [20_000, -1], ids=["difflib-path", "aligner-path"])
def test_difflib_documented_examples(direct, monkeypatch):
    monkeypatch.setattr(gold_text, "_DIFFLIB_PAIRS", direct)
    assert matching_blocks("abxcd", "abcd") == [(0, 0, 2), (3, 2, 2), (5, 4, 0)]
    assert matching_blocks(" abcd", "abcd abcd") == difflib_blocks(" abcd", "abcd abcd")
    assert matching_blocks("", "abc") == [(0, 3, 0)]
    assert matching_blocks("abc", "") == [(3, 0, 0)]
    assert matched_count("qabxcd", "abycdf") == 4


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([0] * 300, [0] * 200),
        ([0] * 150 + [1] + [0] * 150, [0] * 100 + [2] + [0] * 120),
        (list("ab" * 200), list("ab" * 120 + "c" + "ab" * 80)),
        (list("x" + "_" * 300 + "hello world" * 20),
         list("_" * 200 + "hello world" * 15 + "_" * 9)),
    ],
    ids=["constant", "constant-noise", "periodic", "runs"],
)
@pytest.mark.parametrize("small,budget", [(0, 1 << 19), (0, 7), (4096, 1 << 19)])
def test_repetitive_sequences_match_difflib(a, b, small, budget, monkeypatch):
    monkeypatch.setattr(gold_text, "_DIFFLIB_PAIRS", -1)  # always the fast aligner
    monkeypatch.setattr(gold_text._Aligner, "SMALL", small)
    monkeypatch.setattr(gold_text._Aligner, "BUDGET", budget)
    assert matching_blocks(a, b) == difflib_blocks(a, b)


seqs = st.lists(st.integers(0, 3), max_size=60) | st.lists(st.integers(0, 12), max_size=60)


@st.composite
def related_pairs(draw):
    """A random sequence and a copy with random edits (so long matches exist)."""
    a = draw(seqs)
    b = list(a)
    for _ in range(draw(st.integers(0, 8))):
        op = draw(st.sampled_from(["del", "ins", "sub", "cut"]))
        pos = draw(st.integers(0, max(len(b) - 1, 0)))
        if op == "del" and b:
            del b[pos]
        elif op == "ins":
            b.insert(pos, draw(st.integers(0, 12)))
        elif op == "sub" and b:
            b[pos] = draw(st.integers(0, 12))
        elif op == "cut":
            b = b[pos:] + b[:pos]
    return a, b


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.tuples(seqs, seqs), related_pairs()), st.sampled_from([0, 4096]),
       st.sampled_from([1 << 19, 5]))
def test_fast_alignment_equals_difflib(pair, small, budget):
    a, b = pair
    old = gold_text._DIFFLIB_PAIRS, gold_text._Aligner.SMALL, gold_text._Aligner.BUDGET
    gold_text._DIFFLIB_PAIRS, gold_text._Aligner.SMALL, gold_text._Aligner.BUDGET = -1, small, budget
    try:
        assert matching_blocks(a, b) == difflib_blocks(a, b)
    finally:
        gold_text._DIFFLIB_PAIRS, gold_text._Aligner.SMALL, gold_text._Aligner.BUDGET = old


def test_fast_alignment_on_words_equals_difflib():
    """Large enough (~10^6 equal pairs) to take the aligner path by default."""
    rng = random.Random(7)
    words = ["the", "of", "a", "epidemic", "flu", "in", "city", "said", "<p>", "x"]
    gold = [rng.choice(words) for _ in range(3000)]
    pred = [w for w in gold if rng.random() < 0.85]
    pred = [rng.choice(words) for _ in range(500)] + pred + [rng.choice(words) for _ in range(500)]
    assert matching_blocks(pred, gold) == difflib_blocks(pred, gold)


# --------------------------------------------------------------------- shingles


def test_shingles_short_text_is_one_shingle():
    assert shingles("a b") == {("a", "b"): 1}
    assert shingles("") == {}
    assert shingles("a b c d e") == {("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1}


def test_shingle_counts_multisets():
    c = shingle_counts("a b c d e f", "a b c d e x")
    assert c == ShingleCounts(tp=2, fp=1, fn=1)
    assert (c.precision, c.recall) == (2 / 3, 2 / 3)
    assert c.fractions == (0.5, 0.25, 0.25)
    assert shingle_counts("a b c d a b c d", "a b c d") == ShingleCounts(1, 4, 0)


def test_shingle_undefined_sides():
    c = shingle_counts("", "a b c d")
    assert c.precision is None and c.recall == 0.0


def test_shingle_summary_averages_and_bootstrap():
    pages = [ShingleCounts(1, 1, 0), ShingleCounts(3, 0, 1), ShingleCounts(0, 0, 2)]
    s = shingle_summary(pages, n_bootstrap=200, seed=1)
    assert s.precision == pytest.approx((0.5 + 1.0) / 2)  # third page: no output, left out
    assert s.recall == pytest.approx((1.0 + 0.75 + 0.0) / 3)
    assert s.f1 == pytest.approx(2 * s.precision * s.recall / (s.precision + s.recall))
    assert s.f1_std > 0 and s.f1_interval[0] <= s.f1_interval[1]
    assert shingle_summary(pages, n_bootstrap=200, seed=1) == s
    assert shingle_summary(pages, n_bootstrap=200, seed=2) != s


def test_shingle_difference_is_paired():
    good = [ShingleCounts(90, 10, 10), ShingleCounts(10, 90, 90), ShingleCounts(50, 50, 50)] * 20
    # the same pages, each a little worse: every resample shows the same sign
    worse = [ShingleCounts(c.tp - 1, c.fp + 1, c.fn + 1) for c in good]
    diff, (lo, hi) = shingle_difference(good, worse, n_bootstrap=300, seed=0)
    expected = shingle_summary(good, n_bootstrap=0).f1 - shingle_summary(worse, n_bootstrap=0).f1
    assert diff == pytest.approx(expected) and 0 < lo <= diff <= hi
    # unpaired, the pages' own spread would swamp so small a difference
    assert shingle_summary(good, n_bootstrap=300).f1_interval[0] < shingle_summary(worse, n_bootstrap=0).f1
    assert shingle_difference(good, good, n_bootstrap=100) == (0.0, (0.0, 0.0))
    with pytest.raises(ValueError, match="differ in number"):
        shingle_difference(good, worse[:-1])


def test_shingle_summary_empty():
    s = shingle_summary([])
    assert (s.pages, s.precision, s.recall, s.f1) == (0, 0.0, 0.0, 0.0)


# -------------------------------------------------------------- word F1 (WCXB)


def test_word_counts_are_a_bag_of_lower_cased_words():
    # order is ignored, case too, and punctuation only separates (Men’s = men + s)
    c = word_counts([("p", "Men’s shoes, on SALE.")], [("p", "sale on men's shoes")])
    assert c == Counts(5, 5, 5) and c.f1 == 1.0
    # each word as often as the rarer side holds it
    c = word_counts("the the the cat", "the cat sat")
    assert c == Counts(2, 4, 3)
    assert (c.precision, c.recall) == (0.5, 2 / 3)


def test_word_counts_empty_sides_as_wcxb_scores_them():
    assert word_counts("", "").f1 == 1.0  # nothing to find, nothing output
    assert word_counts("a menu", "").f1 == 0.0  # output on a page whose gold is empty
    nothing = word_counts("", "the story")
    assert (nothing.precision, nothing.recall, nothing.f1) == (0.0, 0.0, 0.0)
    # the figure is the mean of the pages' F1s
    pages = [word_counts("a b", "a b"), word_counts("", "c d"), word_counts("a x", "a y")]
    assert summarize(pages).macro.f1 == pytest.approx((1.0 + 0.0 + 0.5) / 3)


# ----------------------------------------------------------------------- cosine


def test_cosine_values():
    assert cosine("a b c", "c b a") == 1.0
    assert cosine("a b", "c d") == 0.0
    assert cosine("a a b", "a b") == pytest.approx(3 / (5**0.5 * 2**0.5))
    assert cosine("", "") == 1.0 and cosine("", "a") == 0.0
    assert cosine("北京欢迎你", "北京欢迎您", unit="chars") == pytest.approx(4 / 5)
    with pytest.raises(ValueError):
        cosine("a", "a", unit="bytes")


def test_cosine_page_relations():
    eq = cosine_page("a b c", "a b c")
    assert (eq.equal, eq.pred_in_gold, eq.gold_in_pred) == (True, False, False)
    low = cosine_page("a b", "a b c")
    assert (low.equal, low.pred_in_gold, low.gold_in_pred) == (False, True, False)
    high = cosine_page("menu a b c", "a b c")
    assert (high.equal, high.pred_in_gold, high.gold_in_pred) == (False, False, True)
    other = cosine_page("a x", "a b")
    assert (other.equal, other.pred_in_gold, other.gold_in_pred) == (False, False, False)
    assert not cosine_page("", "a").pred_in_gold  # nothing extracted is not "inside"


def test_cosine_summary():
    pages = [cosine_page("a b c", "a b c"), cosine_page("a b", "a b c"), cosine_page("x", "a")]
    s = cosine_summary(pages)
    assert s.pages == 3
    assert s.exactitude == pytest.approx(1 / 3)  # cos("a b", "a b c") = 0.816 < 0.9
    assert s.mean_cos == pytest.approx((1 + 2 / (2**0.5 * 3**0.5) + 0) / 3)
    assert (s.equal, s.pred_in_gold, s.gold_in_pred) == (1, 1, 0)
    assert s.share(s.equal) == pytest.approx(1 / 3)
    assert cosine_summary([]).exactitude == 0.0


# --------------------------------------------------------------------- snippets


def test_snippet_counts():
    gold = {"with": ["Main  text", "second\nline", "missing"], "without": ["Menu", "Footer"]}
    c = snippet_counts("Menu\nMain text here. second line", gold)
    assert c == SnippetCounts(tp=2, fp=1, fn=1, tn=1)
    assert (c.precision, c.recall, c.accuracy) == (2 / 3, 2 / 3, 3 / 5)
    assert c.f1 == pytest.approx(2 / 3)


def test_snippet_edge_cases():
    assert snippet_counts("x", {"with": ["  "], "without": []}) == SnippetCounts(0, 0, 0, 0)
    assert SnippetCounts(0, 0, 0, 0).accuracy == 1.0
    assert SnippetCounts(1, 0, 0, 1) + SnippetCounts(0, 1, 1, 0) == SnippetCounts(1, 1, 1, 1)


# ------------------------------------------------------------------ aggregation


def test_summarize_micro_and_macro():
    pages = [Counts(1, 2, 1), Counts(3, 3, 6)]
    s = summarize(pages)
    assert s.pages == 2 and s.totals == Counts(4, 5, 7)
    assert (s.micro.precision, s.micro.recall) == (4 / 5, 4 / 7)
    assert s.macro.precision == pytest.approx((0.5 + 1.0) / 2)
    assert s.macro.recall == pytest.approx((1.0 + 0.5) / 2)
    assert s.macro.f1 == pytest.approx((2 / 3 + 2 / 3) / 2)


def test_summarize_by_language():
    out = summarize_by([("en", Counts(1, 1, 1)), ("zh", Counts(0, 1, 1)), ("en", Counts(1, 2, 2))])
    assert list(out) == ["en", "zh", "all"]
    assert out["en"].pages == 2 and out["all"].pages == 3
    assert out["all"].totals == Counts(2, 4, 4)
    assert summarize([]).micro == summarize([]).macro == PRF(0.0, 0.0, 0.0)


def test_summarize_snippets():
    s = summarize([SnippetCounts(2, 0, 0, 1), SnippetCounts(0, 1, 2, 0)])
    assert s.totals == Counts(2, 3, 4)
