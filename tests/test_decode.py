"""Tests of detourage.decode: each way an encoding is chosen, totality, and the shared pages."""

from __future__ import annotations

import codecs
import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from detourage.decode import decode, looks_binary, python_codec, sniff_declared
from detourage.model import Decoded

#: the shared data folder beside the repository (absent on a bare clone)
SHARED = Path(__file__).resolve().parents[2] / "shared"
DATASETS = SHARED / "datasets"

RUSSIAN = (
    "Москва - столица России, город федерального значения, административный центр "
    "Центрального федерального округа и центр Московской области. "
) * 3
JAPANESE = (
    "日本国は、東アジアに位置する民主制国家。首都は東京都。気候は四季の変化に富み、"
    "国土の多くは山地で、人口の大半は沿岸部の平野に住んでいる。"
) * 3
KOREAN = (
    "대한민국은 동아시아의 한반도 남부에 위치한 민주공화국이다. "
    "수도는 서울특별시이며 국기는 태극기, 국가는 애국가이다."
) * 3
POLISH = (
    "Polska, Rzeczpospolita Polska - państwo unitarne w Europie Środkowej, położone między "
    "Morzem Bałtyckim a Sudetami i Karpatami. Zażółć gęślą jaźń. "
) * 3
FRENCH = (
    "La France est un pays situé en Europe de l'Ouest. Sa capitale est Paris; elle compte "
    "des régions d'outre-mer. Où êtes-vous allés cet été ? "
) * 3
#: 镕 is in GBK but not in GB2312: a strict gb2312 decoder fails on it
GBK_ONLY = "朱镕基总理今天在北京会见了来访的外国客人，双方就共同关心的问题交换了意见。"


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}<title>t</title></head><body><p>{body}</p></body></html>"


def meta(label: str) -> str:
    return f'<meta charset="{label}">'


# --- byte order marks -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("bom", "codec"),
    [
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
        (codecs.BOM_UTF32_LE, "utf-32-le"),
        (codecs.BOM_UTF32_BE, "utf-32-be"),
    ],
)
def test_bom_wins_and_is_stripped(bom: bytes, codec: str) -> None:
    html = page("café", meta("iso-8859-1"))
    result = decode(bom + html.encode(codec), {"Content-Type": "text/html; charset=koi8-r"})
    assert (result.text, result.encoding, result.reason) == (html, codec, "bom")


# --- declarations ---------------------------------------------------------------------


def test_http_header_wins_over_meta_when_valid() -> None:
    data = page(RUSSIAN, meta("iso-8859-5")).encode("cp1251")
    result = decode(data, {"Content-Type": "text/html; charset=windows-1251"})
    assert (result.encoding, result.reason, result.declared) == ("cp1251", "http", "windows-1251")
    assert RUSSIAN in result.text


@pytest.mark.parametrize("name", ["content-type", "CONTENT-TYPE", "Content-type"])
def test_http_header_name_is_case_insensitive(name: str) -> None:
    result = decode(page(RUSSIAN).encode("koi8-r"), {name: 'text/html; Charset="KOI8-R"'})
    assert (result.encoding, result.reason) == ("koi8-r", "http")


def test_http_header_that_fails_validation_falls_to_meta() -> None:
    data = page(GBK_ONLY, meta("gb2312")).encode("gbk")
    result = decode(data, {"content-type": "text/html; charset=utf-8"})
    assert result.encoding == "gb18030"
    assert result.reason == "meta (http:utf-8 failed validation, bytes are not valid utf-8)"
    assert GBK_ONLY in result.text


def test_caller_declared_label_comes_first() -> None:
    data = page(RUSSIAN, meta("koi8-r")).encode("cp1251")
    result = decode(data, {"Content-Type": "text/html; charset=koi8-r"}, declared="cp1251")
    assert (result.encoding, result.reason, result.declared) == ("cp1251", "declared", "cp1251")


@pytest.mark.parametrize(
    "head",
    [
        '<meta charset="windows-1251">',
        "<meta charset=windows-1251>",
        "<META CHARSET='Windows-1251'/>",
        '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
        '<meta content="text/html;charset=windows-1251" http-equiv="content-type">',
    ],
)
def test_meta_declarations(head: str) -> None:
    result = decode(page(RUSSIAN, head).encode("cp1251"))
    assert (result.encoding, result.reason) == ("cp1251", "meta")
    assert result.declared is not None and result.declared.lower() == "windows-1251"
    assert RUSSIAN in result.text


def test_xml_declaration() -> None:
    data = ('<?xml version="1.0" encoding="KOI8-R"?>' + page(RUSSIAN)).encode("koi8-r")
    assert (decode(data).encoding, decode(data).reason) == ("koi8-r", "meta")


def test_meta_inside_a_comment_declares_nothing() -> None:
    assert sniff_declared(b'<!-- <meta charset="koi8-r"> --><meta charset="utf-8">') == "utf-8"


def test_sniff_declared_none_and_beyond_window() -> None:
    assert sniff_declared(b"<html><head><title>x</title></head></html>") is None
    assert sniff_declared(b"") is None
    assert sniff_declared(b" " * 20_000 + b'<meta charset="koi8-r">') is None


def test_lying_meta_on_utf8_bytes_gives_utf8() -> None:
    html = page("café “quoted” — naïve", meta("iso-8859-1"))
    result = decode(html.encode("utf-8"))
    assert (result.text, result.encoding, result.declared) == (html, "utf-8", "iso-8859-1")
    assert result.reason == "utf-8-valid (meta:iso-8859-1 overridden, bytes are valid utf-8)"


def test_lying_gb2312_meta_on_utf8_bytes_gives_utf8() -> None:
    html = page(GBK_ONLY, meta("gb2312"))
    result = decode(html.encode("utf-8"))
    assert (result.text, result.encoding) == (html, "utf-8")


def test_gb2312_meta_on_gbk_bytes_decodes_as_gb18030() -> None:
    result = decode(page(GBK_ONLY, meta("gb2312")).encode("gbk"))
    assert (result.encoding, result.reason, result.declared) == ("gb18030", "meta", "gb2312")
    assert GBK_ONLY in result.text


def test_iso_8859_1_label_decodes_as_cp1252() -> None:
    result = decode(b"<meta charset=iso-8859-1><p>\x93quoted\x94 caf\xe9</p>")
    assert (result.encoding, result.reason) == ("cp1252", "meta")
    assert "“quoted” café" in result.text


@pytest.mark.parametrize(("label", "codec"), [("shift_jis", "cp932"), ("x-sjis", "cp932")])
def test_shift_jis(label: str, codec: str) -> None:
    result = decode(page(JAPANESE, meta(label)).encode("shift_jis"))
    assert (result.encoding, result.reason) == (codec, "meta")
    assert JAPANESE in result.text


def test_euc_kr() -> None:
    result = decode(page(KOREAN, meta("euc-kr")).encode("euc_kr"))
    assert (result.encoding, result.reason) == ("cp949", "meta")
    assert KOREAN in result.text


def test_ascii_page_trusts_its_declaration() -> None:
    result = decode(page("plain", meta("iso-8859-1")).encode())
    assert (result.encoding, result.reason) == ("cp1252", "meta")


def test_unknown_and_unusable_labels_are_set_aside() -> None:
    result = decode(page("café", meta("no-such-charset")).encode())
    assert result.reason == "utf-8-valid (meta:no-such-charset unknown label)"
    assert result.declared == "no-such-charset"
    result = decode(page("café").encode(), {"Content-Type": "text/html; charset=x-user-defined"})
    assert result.reason == "utf-8-valid (http:x-user-defined unusable label)"


def test_utf16_meta_on_ascii_compatible_bytes_is_ignored() -> None:
    result = decode(page("café", meta("utf-16")).encode())
    assert result.encoding == "utf-8"
    assert result.reason == "utf-8-valid (meta:utf-16 ignored, bytes are not utf-16)"


def test_invalid_utf8_declared_as_utf8_does_not_raise() -> None:
    result = decode(page(FRENCH, meta("utf-8")).encode("cp1252"))
    assert result.reason == "detected (meta:utf-8 failed validation, bytes are not valid utf-8)"
    assert (result.encoding, result.declared) == ("cp1252", "utf-8")
    assert FRENCH in result.text


# --- detection ------------------------------------------------------------------------


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_sniffed(codec: str) -> None:
    html = page("Hello, world — ünïcode")
    result = decode(html.encode(codec))
    assert (result.text, result.encoding, result.reason) == (html, codec, "utf-16-sniffed")


def test_valid_utf8_without_declaration() -> None:
    html = page(JAPANESE)
    assert decode(html.encode()) == Decoded(html, "utf-8", "utf-8-valid")


def test_utf8_with_a_stray_byte_stays_utf8() -> None:
    data = page(GBK_ONLY * 5).encode() + b"<p>\x93</p>" + page(GBK_ONLY).encode()
    result = decode(data)
    assert (result.encoding, result.reason) == ("utf-8", "utf-8-mostly")
    assert result.text.count("\ufffd") == 1 and GBK_ONLY in result.text


def test_truncated_utf8_is_still_utf8() -> None:
    data = page(GBK_ONLY).encode()[:-1] + GBK_ONLY.encode()[:2]
    result = decode(data)
    assert (result.encoding, result.reason) == ("utf-8", "utf-8-valid")
    assert result.text.endswith("\ufffd")


def test_truncated_gbk_keeps_its_declaration() -> None:
    result = decode(page(GBK_ONLY, meta("gbk")).encode("gbk") + "镕".encode("gbk")[:1])
    assert (result.encoding, result.reason) == ("gb18030", "meta")


@pytest.mark.parametrize(
    ("text", "codec", "expected"),
    [
        (RUSSIAN, "cp1251", "cp1251"),
        (RUSSIAN, "koi8-r", "koi8-r"),
        (JAPANESE, "shift_jis", "cp932"),
        (KOREAN, "euc_kr", "cp949"),
        (GBK_ONLY * 3, "gbk", "gb18030"),
        (POLISH, "cp1250", "cp1250"),
        (POLISH, "iso8859-2", "iso8859-2"),
        (FRENCH, "cp1252", "cp1252"),
    ],
)
def test_undeclared_legacy_encodings_are_detected(text: str, codec: str, expected: str) -> None:
    html = page(text)
    result = decode(html.encode(codec))
    assert (result.text, result.encoding, result.reason) == (html, expected, "detected")


#: sentences charset-normalizer misreads when a page is short and undeclared
SHORT_FRENCH = "Ça a été déjà vu, à côté de la forêt, où l'élève était."
SHORT_KOREAN = ["오늘은 날씨가 좋습니다", "안녕하세요", "대한민국의 수도는 서울이다."]
SHORT_JAPANESE = "日本国は、東アジアに位置する民主制国家。"


@pytest.mark.parametrize("head", ["<html>", '<html lang="fr">'])
def test_undeclared_latin1_french_is_not_read_as_baltic(head: str) -> None:
    """charset-normalizer scores cp1252's French a mess of 0.2 (its accents) and reads it
    as cp1257, "Ēa été déją"; cp1252's letters are French, cp1257's no language's."""
    html = f"{head}<body><p>{SHORT_FRENCH}</p></body></html>"
    result = decode(html.encode("latin-1"))
    assert (result.text, result.encoding) == (html, "cp1252")
    assert result.reason.startswith("detected")


@pytest.mark.parametrize("text", SHORT_KOREAN)
def test_undeclared_short_euc_kr_is_korean_not_cyrillic_or_chinese(text: str) -> None:
    """Korean ties at mess 0 with iso8859-5 (Cyrillic) and gb18030; its high bytes come in
    pairs and read as Hangul syllables in cp949."""
    html = page(text)
    result = decode(html.encode("euc_kr"))
    assert (result.text, result.encoding) == (html, "cp949")


def test_undeclared_short_euc_jp_is_japanese() -> None:
    html = page(SHORT_JAPANESE)
    result = decode(html.encode("euc_jp"))
    assert (result.text, result.encoding) == (html, "euc_jp")


@pytest.mark.parametrize(("text", "codec"), [
    ("Ale się ćwiczy, a Zażółć gęślą jaźń.", "cp1250"),
    ("Příliš žluťoučký kůň úpěl ďábelské ódy.", "cp1250"),
    ("Größe und Übermaß, schön für Köln.", "cp1252"),
    ("Москва - столица России.", "cp1251"),
    ("Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.", "cp1253"),
])
def test_short_single_byte_pages_keep_their_codec(text: str, codec: str) -> None:
    """What the second look must leave alone: Central European letters are an alphabet
    of their own, and other scripts are read as they were."""
    html = page(text)
    assert decode(html.encode(codec)).text == html


def test_valid_utf8_never_reaches_the_detector(monkeypatch: pytest.MonkeyPatch) -> None:
    import charset_normalizer

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("charset-normalizer called on valid UTF-8")

    monkeypatch.setattr(charset_normalizer, "from_bytes", refuse)
    data = page(JAPANESE * 50, meta("iso-8859-1")).encode()
    assert decode(data).encoding == "utf-8"


def test_a_detector_failure_falls_back_to_cp1252(monkeypatch: pytest.MonkeyPatch) -> None:
    import charset_normalizer

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("detector bug")

    monkeypatch.setattr(charset_normalizer, "from_bytes", broken)
    result = decode(page(RUSSIAN).encode("cp1251"))
    assert (result.encoding, result.reason) == ("cp1252", "fallback")


# --- totality -------------------------------------------------------------------------


def test_empty_bytes() -> None:
    result = decode(b"")
    assert (result.text, result.encoding, result.reason, result.declared) == (
        "", "utf-8", "utf-8-valid", None
    )


def test_png_bytes() -> None:
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000010000000100806000000") + bytes(
        range(256)
    )
    result = decode(png)
    assert isinstance(result.text, str) and result.encoding


@pytest.mark.parametrize(
    "data", [b"\x00", b"\xff", b"\xfe", b"\xef\xbb", b"\x00" * 7, b"\xff\xfe\x00", b"\x00<"]
)
def test_tiny_inputs(data: bytes) -> None:
    assert isinstance(decode(data).text, str)


def test_bytearray_and_memoryview() -> None:
    assert decode(bytearray(b"abc")).text == "abc"  # type: ignore[arg-type]
    assert decode(memoryview(b"abc")).text == "abc"  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(max_size=4096),
    header=st.text(max_size=40),
    declared=st.none() | st.text(max_size=20),
)
def test_never_raises_and_always_returns_text(
    data: bytes, header: str, declared: str | None
) -> None:
    result = decode(data, {"Content-Type": f"text/html; charset={header}"}, declared=declared)
    assert isinstance(result.text, str) and isinstance(result.encoding, str)
    assert codecs.lookup(result.encoding)
    assert result.reason.split(" ")[0] in {
        "bom", "declared", "http", "meta", "utf-16-sniffed", "utf-8-valid", "utf-8-mostly",
        "detected", "detected-mostly", "fallback",
    }


@settings(max_examples=200, deadline=None)
@given(st.text().filter(lambda s: "\x00" not in s and not s.startswith("\ufeff")))
def test_utf8_text_round_trips(text: str) -> None:
    assert decode(text.encode()).text == text


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2048))
def test_ascii_compatible_html_sniff_never_raises(data: bytes) -> None:
    label = sniff_declared(data)
    assert label is None or (label.isascii() and label)


# --- labels ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("gb2312", "gb18030"),
        ("GBK", "gb18030"),
        ("x-gbk", "gb18030"),
        ("gb18030", "gb18030"),
        ("shift_jis", "cp932"),
        ("sjis", "cp932"),
        ("euc-kr", "cp949"),
        ("big5", "big5hkscs"),
        ("iso-8859-1", "cp1252"),
        ("latin1", "cp1252"),
        ("us-ascii", "cp1252"),
        ("windows-1252", "cp1252"),
        (" UTF-8 ", "utf-8"),
        ("utf8", "utf-8"),
        ("windows-1251", "cp1251"),
        ("iso-8859-9", "cp1254"),
        ("utf-16", "utf-16-le"),
        ("x-user-defined", None),
        ("iso-2022-kr", None),
        ("no-such-charset", None),
        ("utf-8\udc80", None),
    ],
)
def test_python_codec(label: str, codec: str | None) -> None:
    assert python_codec(label) == codec


# --- the shared datasets ----------------------------------------------------------------

MOJIBAKE = ("\ufffd", "Ã©", "â€™", "ä¸")


@pytest.mark.skipif(
    not (DATASETS / "l3s-gn1").is_dir() or not (DATASETS / "daniel").is_dir(),
    reason=f"shared datasets l3s-gn1 and daniel not found under {DATASETS}",
)
def test_shared_pages_decode_without_mojibake() -> None:
    """Every page of l3s-gn1 and daniel decodes as the UTF-8 it is stored in.

    Both READMEs say the pages are stored as UTF-8, many still declaring their old charset.
    A marker of mojibake or U+FFFD absent from the gold fails the page, unless the stored
    bytes themselves hold it (64 daniel pages carry U+FFFD written by their sites, a few
    pages "Ã©"): decoding must not add any.
    """
    started = time.perf_counter()
    failures: list[str] = []
    pages = 0
    for name in ("l3s-gn1", "daniel"):
        for html in sorted((DATASETS / name / "html").glob("*.html")):
            pages += 1
            data = html.read_bytes()
            result = decode(data)
            gold = (DATASETS / name / "gold" / f"{html.stem}.txt").read_text("utf-8")
            added = [
                m for m in MOJIBAKE if m in result.text and m not in gold and m.encode() not in data
            ]
            if added or result.text != data.decode("utf-8").removeprefix("\ufeff"):
                failures.append(f"{name}/{html.name}: {result.encoding} {result.reason} {added}")
    assert pages == 621 + 1689
    assert not failures, "\n".join(failures[:20])
    assert time.perf_counter() - started < 20


# --- multibyte text with a few damaged bytes (issue 13) ----------------------------------

#: enough Chinese text for the tolerant path (MOSTLY_MULTIBYTE_MIN valid characters)
CHINESE = GBK_ONLY * 8
#: a lead byte before a space: an invalid sequence in every CJK codec
DAMAGE = b"\x81 "


def damaged(data: bytes, every: int) -> bytes:
    """``data`` with DAMAGE after every ``every`` bytes of its body."""
    start = data.index(b"<p>") + 3
    body = data[start:]
    return data[:start] + DAMAGE.join(body[i : i + every] for i in range(0, len(body), every))


def test_declared_gb2312_with_a_few_invalid_bytes_stays_gb18030() -> None:
    data = page(CHINESE, meta("gb2312")).encode("gb18030")
    data = data.replace("北京".encode("gb18030"), "北京".encode("gb18030") + DAMAGE, 2)
    result = decode(data)
    assert (result.encoding, result.declared) == ("gb18030", "gb2312")
    assert result.reason == "meta (meta:gb2312 mostly valid, 2 invalid sequences of gb18030 replaced)"
    assert result.text.count("\ufffd") == 2 and "朱镕基总理" in result.text


@pytest.mark.parametrize(("label", "codec", "text"), [
    ("big5", "big5hkscs", "朱鎔基總理今天在北京會見了來訪的外國客人，雙方就共同關心的問題交換了意見。" * 4),
    ("shift_jis", "cp932", JAPANESE * 2),
    ("euc-kr", "cp949", KOREAN * 2),
    ("euc-jp", "euc_jp", JAPANESE * 2),
])
def test_other_multibyte_declarations_tolerate_a_damaged_byte(label: str, codec: str, text: str) -> None:
    data = page(text, meta(label)).encode(codec)
    middle = len(page(text[:40], meta(label)).encode(codec)) - len(b"</p></body></html>")
    result = decode(data[:middle] + DAMAGE + data[middle:])
    assert result.encoding == codec and "mostly valid, 1 invalid sequence" in result.reason
    assert text[:40] in result.text


def test_undeclared_damaged_multibyte_text_is_detected_as_mostly_valid() -> None:
    data = page(CHINESE).encode("gb18030")
    data = data.replace("北京".encode("gb18030"), "北京".encode("gb18030") + DAMAGE, 1)
    result = decode(data)
    assert (result.encoding, result.reason) == ("gb18030", "detected-mostly (1 invalid sequence of gb18030 replaced)")


def test_heavily_damaged_or_short_multibyte_text_is_not_trusted() -> None:
    heavy = damaged(page(CHINESE, meta("gb2312")).encode("gb18030"), 40)
    assert "failed validation" in decode(heavy).reason
    short = damaged(page(GBK_ONLY, meta("gb2312")).encode("gb18030"), 40)  # 36 characters, 1 error
    assert "failed validation" in decode(short).reason


def test_single_byte_text_under_a_lying_cjk_declaration_is_not_taken_for_it() -> None:
    result = decode(page(FRENCH * 8, meta("gb2312")).encode("cp1252"))
    assert result.encoding == "cp1252" and FRENCH in result.text


# --- UTF-8 with damaged sequences (issue 31) ---------------------------------------------

#: what old encoders write where UTF-8 forbids it: a CESU-8 emoji (two encoded surrogates),
#: a WTF-8 lone surrogate, a 5-byte form
BROKEN_UTF8 = (b"\xed\xa0\xbd\xed\xb8\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80")
ACCENTED = "Le café où nous étions, à côté de la gare, était fermé ; ça m'a déçu. "


def damaged_utf8(head: str, paragraphs: int = 100) -> bytes:
    """About 17 KB of UTF-8 paragraphs, each ending in one invalid sequence."""
    body = b"".join(b"<p>" + (ACCENTED * 2).encode() + BROKEN_UTF8[i % 3] + b"</p>\n" for i in range(paragraphs))
    return f"<html><head>{head}<title>t</title></head><body>".encode() + body + b"</body></html>"


def test_declared_utf8_with_damaged_sequences_stays_utf8() -> None:
    data = damaged_utf8(meta("utf-8"))
    assert 15_000 < len(data) < 20_000
    result = decode(data)
    # decoded as a browser does: UTF-8, each bad byte sequence replaced, the text intact
    assert (result.encoding, result.declared) == ("utf-8", "utf-8")
    errors = result.text.count("\ufffd")
    assert result.reason == f"meta (meta:utf-8 mostly valid, {errors} invalid sequences of utf-8 replaced)"
    assert result.text.count(ACCENTED) == 200 and "cafÃ©" not in result.text
    assert result.text == data.decode("utf-8", "replace")


def test_undeclared_utf8_with_damaged_sequences_stays_utf8() -> None:
    result = decode(damaged_utf8(""))
    assert (result.encoding, result.reason) == ("utf-8", "utf-8-mostly")
    assert result.text.count(ACCENTED) == 200


def test_cp1252_declared_utf8_with_a_few_valid_pairs_stays_cp1252() -> None:
    # "Â»" and "Ã©" are valid UTF-8 pairs in cp1252 bytes: a few, among many bad bytes
    text = (FRENCH + "Â» ") * 4 + "Ã© " + FRENCH
    result = decode(page(text, meta("utf-8")).encode("cp1252"))
    assert result.encoding == "cp1252" and text in result.text
    assert result.reason == "detected (meta:utf-8 failed validation, bytes are not valid utf-8)"


# --- binary sniffing ------------------------------------------------------------------


@pytest.mark.parametrize("codec", ["gb18030", "big5hkscs", "cp932", "cp949", "euc_jp", "koi8-r", "cp1251"])
def test_legacy_text_with_stray_control_bytes_is_not_binary(codec: str) -> None:
    text = {"big5hkscs": "朱鎔基總理今天在北京會見了來訪的外國客人。" * 3, "cp932": JAPANESE,
            "euc_jp": JAPANESE, "cp949": KOREAN, "koi8-r": RUSSIAN, "cp1251": RUSSIAN}.get(codec, GBK_ONLY * 3)
    # a CleanEval-style wrapper, no <meta>; control bytes as old editors leave them
    data = f'<text id="p1" title="\x0b{text[:10]}">\n<p>\x01{text}\x08</p>\x1f</text>'.encode(codec)
    assert not looks_binary(data)


@pytest.mark.parametrize("data", [
    random.Random(0).randbytes(4096),
    b"\x00" * 3000 + b"<p>text</p>" + b"\x00" * 3000,
    b"\x89PNG\r\n\x1a\n" + b"\x00" * 100,
    b"\x1f\x8b\x08\x00" + bytes(100),
])
def test_binary_data_is_binary(data: bytes) -> None:
    assert looks_binary(data)


def test_utf16_text_is_not_binary() -> None:
    assert not looks_binary(page(RUSSIAN).encode("utf-16-le"))


# --- the bytes the parser reads ---------------------------------------------------------


@pytest.mark.parametrize(("data", "exact"), [
    ((meta("utf-8") + FRENCH).encode(), True),  # declared and valid
    (FRENCH.encode(), True),  # undeclared and valid
    (b"<p>plain ascii</p>", True),
    ((meta("utf-8") + FRENCH).encode()[:-1] + "é".encode()[:1], False),  # a character cut off: replaced
    (damaged_utf8(meta("utf-8")), False),  # invalid sequences replaced
    ((meta("iso-8859-1") + FRENCH).encode("cp1252"), False),  # another codec
    (codecs.BOM_UTF8 + FRENCH.encode(), False),  # the BOM is not text
])
def test_exact_utf8_says_whether_the_text_is_the_bytes(data: bytes, exact: bool) -> None:
    """``Decoded.exact_utf8``: the text is the bytes read as UTF-8, nothing replaced, so
    the parser may read the bytes themselves (``loading.load``)."""
    decoded = decode(data)
    assert decoded.exact_utf8 is exact
    if exact:
        assert decoded.text.encode("utf-8") == data


def test_exact_utf8_is_no_field_of_equality_or_repr() -> None:
    decoded = decode(FRENCH.encode())
    assert decoded == Decoded(decoded.text, decoded.encoding, decoded.reason, decoded.declared)
    assert "exact_utf8" not in repr(decoded)
