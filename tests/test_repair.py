"""Text repair (issue 18 item 6): mojibake of double-encoded pages undone by ftfy, as an option."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import detourage
from detourage.cli import main
from detourage.decode import decode, repair, text_fixer
from detourage.errors import MissingExtra

pytest.importorskip("ftfy")

#: a UTF-8 page whose text was double-encoded before it was saved (UTF-8 read as cp1252,
#: written again as UTF-8): what a shared daniel page's bytes hold
CLEAN = "Le café du marché — « 中文 » ²Å"
PAGE = f"<html><head><meta charset='utf-8'></head><body><p>{CLEAN}</p></body></html>"
DOUBLE = PAGE.replace(CLEAN, CLEAN.encode("utf-8").decode("cp1252", "replace")).encode("utf-8")


def test_double_encoded_text_is_repaired_and_the_reason_says_so() -> None:
    decoded = decode(DOUBLE)
    assert "cafÃ©" in decoded.text
    fixed = repair(decoded)
    assert CLEAN in fixed.text and "Ã" not in fixed.text
    assert fixed.encoding == decoded.encoding
    assert fixed.reason == f"{decoded.reason} (repaired by ftfy: 1 line)"


def test_clean_text_is_left_alone_as_the_same_object() -> None:
    for data in (PAGE.encode("utf-8"), "<p>Прибыль компании — «Газпром»</p>".encode("cp1251"),
                 "<p>Déjà vu, naïve café</p>".encode("cp1252"), "<p>ﬁne ＡＢＣ “quotes”</p>".encode("utf-8")):
        decoded = decode(data)
        assert repair(decoded) is decoded, data


def test_library_repairs_on_request_only() -> None:
    assert "cafÃ©" in detourage.extract(DOUBLE, method="fulltext")
    assert "Le café du marché" in detourage.extract(DOUBLE, method="fulltext", repair=True)
    page = detourage.load(DOUBLE.decode("utf-8"), repair=True)  # text given as str too
    assert "Le café du marché" in page.blocks[0].text
    assert page.decoded.reason == "given as text (repaired by ftfy: 1 line)"
    assert "Le café du marché" in detourage.document(DOUBLE, method="fulltext", repair=True).text


def test_extract_repair_text_option(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(DOUBLE)
    result = CliRunner().invoke(main, ["extract", str(path), "-m", "fulltext", "-f", "json", "--repair-text"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["encoding_reason"].endswith("(repaired by ftfy: 1 line)")
    assert "Le café du marché" in record["text"]
    plain = CliRunner().invoke(main, ["extract", str(path), "-m", "fulltext", "-w", "2"])
    assert "cafÃ©" in plain.stdout


def test_evaluate_repair_text_option(tmp_path: Path) -> None:
    for folder in ("html", "gold"):
        (tmp_path / folder).mkdir()
    (tmp_path / "html" / "p.html").write_bytes(DOUBLE)
    (tmp_path / "gold" / "p.txt").write_text(f"<p> {CLEAN}\n", encoding="utf-8")
    scores = {}
    for flag in ([], ["--repair-text"]):
        out = tmp_path / f"out{len(flag)}"
        result = CliRunner().invoke(main, ["evaluate", str(tmp_path), "-m", "fulltext", "-o", str(out),
                                           "--bootstrap", "0", *flag])
        assert result.exit_code == 0, result.output
        scores[bool(flag)] = json.loads((out / "pages.jsonl").read_text().splitlines()[0])["to_f1"]
    assert scores[True] == 1.0 and scores[False] < 0.5


def test_without_ftfy_the_option_is_one_line_with_the_extra(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(DOUBLE)
    monkeypatch.setitem(sys.modules, "ftfy", None)
    text_fixer.cache_clear()
    try:
        with pytest.raises(MissingExtra, match=r"detourage\[repair\]"):
            detourage.extract(DOUBLE, repair=True)
        for command in (["extract", str(path)], ["evaluate", str(tmp_path)]):
            result = CliRunner().invoke(main, [*command, "--repair-text"])
            assert result.exit_code == 2, result.output
            assert result.stderr == ("detourage: error: repairing text needs ftfy: "
                                     "pip install 'detourage[repair]'\n")
    finally:
        text_fixer.cache_clear()
