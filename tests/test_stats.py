"""Tests of detourage.evaluation.stats: counting one text, a corpus, and the table."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from detourage.errors import UnknownMethod
from detourage.evaluation.stats import (
    ALL, TextStats, as_dict, corpus_stats, count_text, measure, stats_table,
)

SHARED = Path(__file__).resolve().parents[2] / "shared"
DANIEL = SHARED / "datasets" / "daniel"

# ------------------------------------------------------------------ one text


def test_raw_counts_like_the_seeds_command_line_tools():
    text = "<html>\n<p>Hello world</p><p>again</p>\n<P>up <p class=x>a\u00a0b</p>\ntail"
    s = count_text(text, lang="en", kind="raw")
    assert s.paragraphs == 1  # grep '<p>' | wc -l: one line holds <p>, <P> and <p class> do not count
    assert s.lines == 3  # wc -l: newlines, the unterminated last line is not one
    # <html> | <p>Hello | world</p><p>again</p> | <P>up | <p | class=x>a b</p> | tail:
    # the no-break space does not separate "class=x>a b</p>"
    assert s.words == 7
    assert s.words_script == s.words  # spaced text: the script-aware count is wc's
    assert s.characters == len(text)
    assert s.nbytes == len(text.encode()) == s.characters + 1
    assert s.files == 1 and s.failures == ()


def test_raw_whitespace_is_glibcs():
    assert count_text("a\u3000b\u2003c\td\ve\u202ff", kind="raw").words == 5  # U+202F joins e, f
    assert count_text("  \n\t ", kind="raw").words == 0


def test_cleaneval_paragraphs_lines_and_marker_free_text():
    text = ("<h> Title\n<p> First para\ncontinued here\n\n<l> item\n<p>\n<P> second\n")
    s = count_text(text, kind="cleaneval")
    assert s.paragraphs == 2  # <p> blocks only; an empty <p> opens none; <h>/<l> are not paragraphs
    assert s.lines == 5  # non-empty content lines: Title, First para, continued here, item, second
    assert s.words == 7
    body = "Title\nFirst para\ncontinued here\nitem\nsecond\n"
    assert s.characters == len(body) and s.nbytes == len(body)


def test_cleaneval_wrapper_and_url_are_not_content():
    text = '\ufeff<text id="x" title="t">\nURL: http://x\n<p> Body text\n</text>\n'
    s = count_text(text, kind="cleaneval")
    assert (s.paragraphs, s.lines, s.words, s.characters) == (1, 1, 2, len("Body text\n"))


def test_plain_has_no_paragraphs_and_keeps_markers_as_text():
    s = count_text("First line\n\n<p> not a marker\r\n", kind="plain")
    assert s.paragraphs == 0
    assert s.lines == 2 and s.words == 6
    assert s.characters == len("First line\n<p> not a marker\n")


def test_chinese_gets_a_script_aware_word_count():
    text = "<p> 北京今天发布了H1N1流感疫情，3.5亿人。\n"
    s = count_text(text, lang="zh", kind="cleaneval")
    assert s.words == 1  # wc -w: the whole sentence is one "word"
    # 北 京 今 天 发 布 了 H1N1 流 感 疫 情 3.5 亿 人: every Han character one word
    assert s.unsegmented == 13 and s.words_script == 15
    assert s.mostly_unsegmented


def test_script_aware_count_without_a_language():
    japanese = count_text("日本語のテキストです。カタカナ", kind="plain")
    assert japanese.words == 1 and japanese.words_script == 14
    thai = count_text("สวัสดีครับ ผม", kind="plain")  # marks (ั ี) go with their letter
    assert thai.words == 2 and thai.words_script == 9
    # English with a few Han characters is not "dominated": the wc count stays
    mixed = count_text("The word 中文 means Chinese, don't you know", kind="plain")
    assert mixed.words_script == mixed.words == 8


def test_language_forces_the_script_rule_on_spaced_text():
    text = "SARS, H1N1 and e-mail don't"
    assert count_text(text, lang="en", kind="plain").words_script == 5
    # a zh page with no Han letter keeps the whitespace count (the tokeniser only runs on
    # text that has letters of an unsegmented script)
    assert count_text(text, lang="zh", kind="plain").words_script == 5
    assert count_text("流感，H1N1、H5N1", lang="zh", kind="plain").words_script == 4


def test_empty_text():
    for kind in ("raw", "cleaneval", "plain"):
        s = count_text("", lang="zh", kind=kind)  # type: ignore[arg-type]
        assert s == TextStats(files=1)


def test_unknown_kind():
    with pytest.raises(ValueError, match="unknown kind"):
        measure("x", "html")  # type: ignore[arg-type]


def test_addition_sums_counts_and_failures():
    a = TextStats(paragraphs=1, words=2, files=1, failures=(("x", 1),))
    b = TextStats(paragraphs=3, words=4, files=2, failures=(("x", 2), ("a", 1)))
    total = a + b
    assert (total.paragraphs, total.words, total.files) == (4, 6, 3)
    assert total.failures == (("a", 1), ("x", 3)) and total.failed == 4
    assert sum([a, b], TextStats()) == total
    assert as_dict(total)["failures"] == {"a": 1, "x": 3}


# ------------------------------------------------------------------- corpus


def _dataset(root: Path) -> Path:
    """Three pages: en with gold, zh with gold, en without gold."""
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    pages = {
        "a": ("en", "<html><body><h1>Flu</h1>\n<p>Flu cases rise in the city.</p></body></html>\n",
              "<h> Flu\n<p> Flu cases rise in the city.\n"),
        "b": ("zh", "<html><body><p>流感病例增加。</p><p>第二段</p></body></html>\n",
              "<p> 流感病例增加。\n<p> 第二段\n"),
        "c": ("en", "<html><body><p>No gold here.</p></body></html>\n", None),
    }
    with (root / "meta.jsonl").open("w", encoding="utf-8") as meta:
        for doc_id, (lang, html, gold) in pages.items():
            (root / "html" / f"{doc_id}.html").write_text(html, encoding="utf-8")
            if gold is not None:
                (root / "gold" / f"{doc_id}.txt").write_text(gold, encoding="utf-8")
            meta.write(json.dumps({"id": doc_id, "lang": lang}) + "\n")
    return root


def test_corpus_raw(tmp_path: Path):
    stats = corpus_stats(_dataset(tmp_path / "ds"), "raw")
    assert list(stats) == ["en", "zh", ALL]
    assert stats["en"].files == 2 and stats["zh"].files == 1
    assert stats["en"].paragraphs == 2  # lines holding <p>
    # wc -w: one "word"; script-aware: 9 Han characters + html, body, p ×4, body, html
    assert stats["zh"].words == 1 and stats["zh"].words_script == 9 + 8
    assert stats[ALL] == stats["en"] + stats["zh"]
    size = sum(p.stat().st_size for p in (tmp_path / "ds" / "html").iterdir())
    assert stats[ALL].nbytes == size


def test_corpus_raw_counts_gzipped_pages_unpacked(tmp_path: Path):
    plain = corpus_stats(_dataset(tmp_path / "ds"), "raw")
    for page in (tmp_path / "ds" / "html").glob("*.html"):
        page.with_name(page.name + ".gz").write_bytes(gzip.compress(page.read_bytes()))
        page.unlink()
    assert corpus_stats(tmp_path / "ds", "raw") == plain


def test_corpus_gold_counts_a_missing_gold_as_a_failure(tmp_path: Path):
    stats = corpus_stats(_dataset(tmp_path / "ds"), "gold")
    assert stats["en"].files == 1 and stats["en"].failures == (("missing gold", 1),)
    assert stats["en"].paragraphs == 1 and stats["en"].lines == 2 and stats["en"].words == 7
    assert stats["zh"].paragraphs == 2 and stats["zh"].words_script == 9
    assert stats[ALL].files == 2 and stats[ALL].failed == 1


@pytest.mark.parametrize("workers", [1, 2])
def test_corpus_method(tmp_path: Path, workers: int):
    stats = corpus_stats(_dataset(tmp_path / "ds"), "method", method="fulltext", workers=workers)
    assert stats[ALL].files == 3 and stats[ALL].failed == 0
    assert stats["en"].words >= 9  # the text of both English pages


def test_corpus_method_failures_are_counted(tmp_path: Path):
    root = _dataset(tmp_path / "ds")
    (root / "html" / "c.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))  # binary
    stats = corpus_stats(root, "method", method="fulltext")
    assert stats["en"].files == 1 and stats["en"].failures == (("not-html", 1),)


def test_corpus_method_needs_a_known_method(tmp_path: Path):
    root = _dataset(tmp_path / "ds")
    with pytest.raises(ValueError):
        corpus_stats(root, "method")
    with pytest.raises(UnknownMethod):
        corpus_stats(root, "method", method="no-such-method")
    with pytest.raises(ValueError, match="unknown source"):
        corpus_stats(root, "html")  # type: ignore[arg-type]


# -------------------------------------------------------------------- table


def test_table_has_the_seeds_columns_a_note_and_failures(tmp_path: Path):
    stats = corpus_stats(_dataset(tmp_path / "ds"), "gold")
    table = stats_table(stats, "Gold")
    lines = table.splitlines()
    assert lines[0] == "**Gold**"
    assert lines[2] == ("| Language | paragraphs | lines | words (wc -w) | words (script-aware) "
                        "| characters | bytes | files |")
    zh_row = next(line for line in lines if line.startswith("| zh |"))
    assert "2 † |" in zh_row  # the whitespace count of Chinese is flagged
    assert any(line.startswith("| **all** |") for line in lines)
    assert "jieba" in table and "wc -w" in table
    assert "Not counted: 1 page (missing gold: 1)." in table


# ------------------------------------------------------------------ real data


@pytest.mark.skipif(not DANIEL.is_dir(), reason=f"{DANIEL} is absent (shared data not beside the repo)")
def test_daniel_gold_files_per_language():
    stats = corpus_stats(DANIEL, "gold")
    files = {lang: s.files for lang, s in stats.items()}
    assert files == {"el": 273, "en": 475, "pl": 274, "ru": 266, "zh": 401, ALL: 1689}
    assert stats[ALL].failed == 0
    assert stats["zh"].words_script > 20 * stats["zh"].words  # wc -w is no word count for zh
