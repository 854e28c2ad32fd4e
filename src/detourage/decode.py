"""Bytes to text, always: choose an encoding for a page's bytes and say why.

:func:`decode` is total (resiliparse's ``bytes_to_str``): it never raises, whatever the
bytes, and returns a :class:`~detourage.model.Decoded` holding the text, the Python codec
used, the reason it was chosen and the label the page declared.  Evidence is weighed in
this order, the first that holds wins:

1. a byte order mark (UTF-8, UTF-32, UTF-16), which is stripped;
2. declarations: the caller's ``declared`` label, the HTTP ``Content-Type`` charset, then
   ``<meta charset>`` / ``<meta http-equiv>`` / ``<?xml encoding>`` near the top of the
   page.  Declarations lie (shared datasets hold UTF-8 pages that still declare
   iso-8859-1 or gb2312), so each is checked against the bytes first: valid UTF-8 with
   non-ASCII bytes beats any other declaration, a UTF-8 declaration holds when most
   non-ASCII bytes form valid UTF-8 sequences (the invalid ones replaced by U+FFFD, as a
   browser does), a multibyte declaration (GBK, Big5,
   Shift_JIS, EUC…) the bytes decode under but for a few invalid sequences holds, with
   those replaced by U+FFFD as a browser does, any other declaration the bytes do not
   decode under is set aside, a UTF-16 declaration on bytes that are not UTF-16 is ignored;
3. detection: the zero-byte pattern of UTF-16 without a BOM, valid UTF-8, UTF-8 with
   stray bytes (most non-ASCII bytes in valid sequences), charset-normalizer's best guess
   among the encodings browsers know, checked by a second look that short texts need
   (bytes in pairs that read as CJK text are that CJK codec; a single-byte guess whose
   letters fit no language gives way to cp1252 when cp1252's fit a Western one: the
   note says ``"cp1257 set aside, …"``), the multibyte encoding the bytes are mostly
   valid in, and finally cp1252.

Labels follow the WHATWG Encoding Standard (through ``webencodings``), mapped to the
Python codec that decodes what browsers decode: ``gb2312`` and ``gbk`` become
``gb18030``, ``iso-8859-1`` and ``ascii`` become ``cp1252``, and so on.

Reasons read ``head`` or ``head (note; note)``.  The head names the step that chose the
encoding: ``bom``, ``declared``, ``http``, ``meta``, ``utf-16-sniffed``, ``utf-8-valid``,
``utf-8-mostly``, ``detected``, ``detected-mostly`` or ``fallback``.  Notes say which
declarations were set aside and why, as ``<source>:<label> <why>``, e.g.
``"utf-8-valid (meta:iso-8859-1 overridden, bytes are valid utf-8)"`` or
``"detected (http:utf-8 failed validation, bytes are not valid utf-8)"``, and how many
invalid sequences were replaced when the chosen encoding did not fit every byte:
``"meta (meta:gb2312 mostly valid, 3 invalid sequences of gb18030 replaced)"``.

:func:`repair` is the one step that goes beyond the bytes: a page whose own bytes were
double-encoded before anyone fetched it (``Ã©`` for ``é``, ``Â²Ã…`` where the gold has
clean Chinese) decodes to that mojibake whatever the codec, and ``ftfy`` (the ``repair``
extra) undoes it.  Only ftfy's encoding fixes run, and the reason gets a note:
``"utf-8-valid (repaired by ftfy: 12 lines)"``.  It is an option (``load(…, repair=True)``,
``--repair-text``), off by default: ``benchmarks/repair_check.py`` measures what it
repairs and what it harms on the shared datasets.
"""

from __future__ import annotations

import codecs
import functools
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import webencodings

from detourage.errors import MissingExtra
from detourage.model import Decoded

if TYPE_CHECKING:
    from charset_normalizer import CharsetMatches

__all__ = ["decode", "python_codec", "repair", "sniff_declared", "text_fixer"]

#: How far into the page a <meta> charset is looked for.  WHATWG's prescan stops at
#: 1024 bytes, but browsers also honour a later <meta> while parsing the head; on the
#: shared datasets 212 declarations sit between 1 and 4 KB and 37 between 4 and 16 KB.
SNIFF_BYTES = 16_384
#: How many bytes charset-normalizer sees: enough text to tell encodings apart, and it
#: keeps detection of a large page to tens of milliseconds.
DETECT_BYTES = 65_536
#: UTF-8 with at most one invalid sequence per this many valid non-ASCII characters is
#: UTF-8 with stray bytes (a pasted cp1252 quote, a page cut and joined): legacy
#: encodings form valid UTF-8 sequences only by accident, for roughly one character in
#: ten (GBK) or far fewer (cp1252), so they stay well below this.
MOSTLY_UTF8_RATIO = 10
#: Bytes declared UTF-8, or not declared, are UTF-8 with damaged sequences (CESU-8 or
#: WTF-8 surrogates, 5-byte forms, a pasted cp1252 byte) when more of their non-ASCII
#: bytes lie in valid multibyte sequences than outside them, as a browser reads them:
#: UTF-8, the bad bytes replaced.  Legacy text forms valid sequences only by accident:
#: cp1252 and cp1251 text next to never (a letter then a C1 or symbol byte), GBK, Big5
#: and EUC-KR about one character in ten, so far below half.
DOMINANT_UTF8_SHARE = 0.5
#: A multibyte codec's text with at most one invalid sequence per this many valid
#: non-ASCII characters, and at least MOSTLY_MULTIBYTE_MIN of them, is that codec with a
#: few damaged bytes (a page cut and joined, a pasted byte), decoded with U+FFFD for them
#: as a browser does; otherwise the bytes are taken for another encoding.  Measured with
#: ``benchmarks/decode_check.py --tolerance``: the shared pages (datasets and
#: datasets-extra) re-encoded in single-byte codecs (cp1250-1253, koi8-r, iso8859-7) and
#: decoded with each multibyte codec.  Among decodings with 100 valid characters or more,
#: the most valid characters per invalid sequence were 35 under gb18030, big5 and euc-kr
#: and 5 under euc-jp; below 100, one invalid sequence in 85-98 characters happens, so
#: short pages stay strict.  Shift_JIS reads bytes 0xA1-0xDF alone as katakana: koi8-r
#: Russian decodes under it with 1 invalid sequence per 213 characters, hence its ratio.
MOSTLY_MULTIBYTE_RATIO = 50
MOSTLY_RATIO_BY_CODEC = {"cp932": 250}
MOSTLY_MULTIBYTE_MIN = 100
#: How close to charset-normalizer's best a candidate must be to count as a tie (mess
#: ratio, then coherence; see ``_pick``).  Chosen on daniel pages re-encoded without
#: their <meta> (50 a language: ru cp1251/koi8-r, el cp1253/iso8859-7, pl
#: cp1250/iso8859-2, zh gb18030/big5, en cp1252): 405 of 431 decoded exactly, against 362
#: for charset-normalizer's own best among the same codecs.  A mess tie of 0.03
#: confused cp1250 with cp1252.
#: 0.05 rather than 0.01 since a French latin-1 page scored cp1257 0.017 and cp1252 0.051.
CHAOS_TIE = 0.05
COHERENCE_TIE = 0.1
#: How many bytes the UTF-16 zero-pattern test reads.
UTF16_SNIFF_BYTES = 1024

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    # UTF-32 LE before UTF-16 LE: its BOM (FF FE 00 00) starts with UTF-16 LE's (FF FE)
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

#: Python codecs that decode less than browsers do under the same name, mapped to the
#: superset browsers actually use (WHATWG decodes gbk as gb18030, shift_jis as the
#: Windows code page, latin-1 as windows-1252).  Keys are canonical ``codecs`` names, so
#: the table serves both WHATWG labels and charset-normalizer's answers.
_SUPERSETS = {
    "gbk": "gb18030",
    "gb2312": "gb18030",
    "shift_jis": "cp932",
    "euc_kr": "cp949",
    "big5": "big5hkscs",
    "iso8859-1": "cp1252",
    "ascii": "cp1252",
}
#: WHATWG encodings that name no text encoding Python can decode
_UNUSABLE = frozenset({"replacement", "x-user-defined"})
_UTF16 = frozenset({"utf-16-le", "utf-16-be"})
#: Python codecs of the WHATWG encodings, roughly in order of use on the web (W3Techs'
#: character-encoding survey).  Detection only considers these: a browser cannot show
#: a page in any other encoding either.  Left out: UTF-8 and UTF-16, recognised before
#: detection, ISO-2022-JP, whose 7-bit bytes pass as UTF-8 unless declared, and
#: encodings next to unused on the web that
#: charset-normalizer picks for Western and Polish text when given the chance
#: (iso8859-3, -4, -10, -14, -16, mac-roman, mac-cyrillic).
_WEB_CODECS = (
    "cp1252", "cp1251", "cp932", "gb18030", "cp949", "euc_jp", "iso8859-2", "cp1250",
    "iso8859-15", "big5hkscs", "cp1254", "cp1256", "cp1253", "iso8859-7", "cp874",
    "cp1255", "iso8859-8", "koi8-r", "cp1257", "iso8859-13", "iso8859-5", "koi8-u",
    "cp1258", "cp866", "iso8859-6",
)
_WEB_RANK = {codec: rank for rank, codec in enumerate(_WEB_CODECS)}
#: codecs whose characters take two bytes or more: a sample with no two adjacent
#: non-ASCII bytes cannot be one of them (cp1252's "’s", 0x92 0x73, is a valid cp932 pair)
_MULTIBYTE = frozenset({"cp932", "gb18030", "cp949", "euc_jp", "big5hkscs"})
_TWO_HIGH = re.compile(rb"[\x80-\xff]{2}")
_C1_CONTROL = re.compile("[\x80-\x9f]")

# [^<>] rather than [^>]: a scan never runs past the next tag, so a page of unclosed
# "<meta" costs linear time
_META = re.compile(rb"""<meta[^<>]*?charset\s*=\s*["']?\s*([\w.:()+-]+)""", re.IGNORECASE)
_XML_DECL = re.compile(rb"""\A\s*<\?xml[^>]*?encoding\s*=\s*["']\s*([\w.:()+-]+)""")
_COMMENT_START = re.compile(rb"<!--")
#: spans that hold no text: comments, scripts, styles (group 1 names the element)
_SPAN_START = re.compile(rb"<!--|<(script|style)\b", re.IGNORECASE)
_SPAN_END = {
    b"": re.compile(rb"-->"),
    b"script": re.compile(rb"</script", re.IGNORECASE),
    b"style": re.compile(rb"</style", re.IGNORECASE),
}
_TAG = re.compile(rb"<[^<>]*>")
_NON_ASCII = re.compile(rb"[\x80-\xff]")
_ASCII_BYTES = bytes(range(0x80))
_SPACES = re.compile(rb"\s+")
#: a non-ASCII symbol between two letters, the mark of a wrong single-byte codec; quotes
#: used as apostrophes, the middle dot and CJK punctuation are left out, as real text has them
#: (the symbol first, then the letter before it by a look-behind over both: the engine
#: skips to candidate symbols instead of trying a look-behind at every character, 4× faster)
_SYMBOL_IN_WORD = re.compile(
    r"[^\w\s\x00-\x7f\u2018\u2019\u00b7\u3000-\u303f\uff00-\uffef](?<=[^\W\d_].)(?=[^\W\d_])"
)
_HTTP_CHARSET = re.compile(r"""charset\s*=\s*["']?\s*([^\s"';,]+)""", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the bytes themselves say, computed once and shared by every check."""

    #: the text when the bytes are valid UTF-8 (a last character cut off is allowed), or
    #: mostly valid UTF-8 (see ``utf8_errors``)
    utf8: str | None
    #: invalid UTF-8 sequences replaced in ``utf8`` (or ``utf8_dominant``); 0 when the
    #: bytes are valid UTF-8
    utf8_errors: int
    #: the text, invalid sequences replaced, when the bytes are valid UTF-8 or most of
    #: their non-ASCII bytes lie in valid sequences (DOMINANT_UTF8_SHARE), else None
    utf8_dominant: str | None
    ascii: bool
    #: ``"utf-16-le"`` or ``"utf-16-be"`` when the zero-byte pattern says UTF-16
    utf16: str | None
    #: whether ``utf8`` is the bytes decoded as UTF-8 strictly, to the last byte
    utf8_exact: bool


def decode(
    data: bytes, headers: Mapping[str, str] | None = None, *, declared: str | None = None
) -> Decoded:
    """Decode a page's bytes; never raises.

    ``headers`` are the HTTP response headers (names in any case); ``declared`` is a label
    the caller knows from elsewhere (a WARC record, a user option), weighed before the
    HTTP header and validated like it.
    """
    if not isinstance(data, bytes):
        data = bytes(data)
    from_bom = _from_bom(data)
    if from_bom is not None:
        return from_bom
    facts = _facts(data)
    notes: list[str] = []
    first_label: str | None = None
    for source, label in _declarations(data, headers, declared):
        first_label = first_label or label
        verdict = _judge(data, facts, source, label)
        if isinstance(verdict, str):
            notes.append(verdict)
            continue
        text, codec, note = verdict
        return Decoded(text, codec, _reason(source, [*notes, note] if note else notes), label,
                       exact_utf8=facts.utf8_exact and text is facts.utf8)
    text, codec, head, note = _detect(data, facts)
    return Decoded(text, codec, _reason(head, [*notes, note] if note else notes), first_label,
                   exact_utf8=facts.utf8_exact and text is facts.utf8)


def repair(decoded: Decoded) -> Decoded:
    """``decoded`` with the mojibake of double-encoded text undone by ftfy (see the module
    docstring), a note added to its reason; unchanged (the same object) when there was
    none.  Raises :class:`~detourage.errors.MissingExtra` without the ``repair`` extra."""
    fixed = text_fixer()(decoded.text)
    if fixed == decoded.text:
        return decoded
    before, after = decoded.text.splitlines(), fixed.splitlines()
    lines = sum(a != b for a, b in zip(before, after)) + abs(len(before) - len(after))
    note = f"repaired by ftfy: {lines} line{'s' if lines != 1 else ''}"
    reason = decoded.reason
    reason = f"{reason[:-1]}; {note})" if reason.endswith(")") else f"{reason} ({note})"
    return replace(decoded, text=fixed, reason=reason, exact_utf8=False)


@functools.cache
def text_fixer() -> Callable[[str], str]:
    """ftfy's ``fix_text`` with only its encoding fixes (mojibake, its lost bytes and C1
    controls): markup, entities, quotes, widths, ligatures, line breaks, control characters
    and normalisation are left as the page has them.  Raises MissingExtra without ftfy."""
    try:
        import ftfy
    except ImportError:
        raise MissingExtra("repairing text needs ftfy: pip install 'detourage[repair]'") from None
    config = ftfy.TextFixerConfig(
        unescape_html=False, remove_terminal_escapes=False, fix_latin_ligatures=False,
        fix_character_width=False, uncurl_quotes=False, fix_line_breaks=False, fix_surrogates=False,
        remove_control_chars=False, normalization=None, explain=False)
    return functools.partial(ftfy.fix_text, config=config)


def python_codec(label: str) -> str | None:
    """The Python codec for a WHATWG encoding label, or None when unknown or unusable.

    >>> python_codec("gb2312"), python_codec("latin1"), python_codec("x-user-defined")
    ('gb18030', 'cp1252', None)
    """
    encoding = _whatwg(label)
    if encoding is None or encoding.name in _UNUSABLE:
        return None
    return _canonical(encoding.codec_info.name)


def sniff_declared(data: bytes) -> str | None:
    """The charset label a page declares in a ``<meta>`` or ``<?xml?>`` near its top."""
    head = bytes(data[:SNIFF_BYTES])
    # a <meta> inside a comment declares nothing (WHATWG's prescan skips comments)
    if b"<!--" in head:
        head = _drop_spans(head, _COMMENT_START)
    found = _META.search(head) or _XML_DECL.search(head)
    return found.group(1).decode("ascii") if found else None


def _from_bom(data: bytes) -> Decoded | None:
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return Decoded(data[len(bom) :].decode(codec, "replace"), codec, "bom")
    return None


def _facts(data: bytes) -> _Facts:
    utf8, dominant, errors, exact = _utf8(data)
    return _Facts(utf8=utf8, utf8_errors=errors, utf8_dominant=dominant, ascii=data.isascii(),
                  utf16=_sniff_utf16(data), utf8_exact=exact)


def _utf8(data: bytes) -> tuple[str | None, str | None, int, bool]:
    """The UTF-8 text when the bytes are valid or mostly valid UTF-8
    (MOSTLY_UTF8_RATIO), the text when valid sequences dominate (DOMINANT_UTF8_SHARE), the
    number of invalid sequences replaced, and whether the bytes are valid to the last."""
    # one plain decode first: this is the whole cost for most pages
    try:
        text: str | None = data.decode("utf-8")
        return text, text, 0, True
    except UnicodeDecodeError:
        pass
    text = _strict(data, "utf-8")
    if text is not None:
        return text, text, 0, False
    text = data.decode("utf-8", "replace")
    # U+FFFD written in the page itself is not an error
    errors = text.count("\ufffd") - data.count("\ufffd".encode())
    valid = len(text) - len(text.encode("ascii", "ignore")) - text.count("\ufffd")
    dominant = text if _valid_share(data, text, errors) > DOMINANT_UTF8_SHARE else None
    return (text if valid >= MOSTLY_UTF8_RATIO * errors else None), dominant, errors, False


def _valid_share(data: bytes, text: str, errors: int) -> float:
    """The share of the non-ASCII bytes of ``data`` that lie in valid UTF-8 sequences, from
    its UTF-8 decoding ``text`` with ``errors`` sequences replaced: ASCII bytes decode to
    themselves even after a bad byte, each replaced sequence is one 3-byte U+FFFD."""
    high = len(data.translate(None, _ASCII_BYTES))
    if not high:
        return 1.0
    valid = len(text.encode("utf-8")) - (len(data) - high) - 3 * errors
    return valid / high


def _sniff_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM: ASCII-heavy markup puts a zero in every other byte."""
    head = data[:UTF16_SNIFF_BYTES]
    if b"\x00" not in head:
        return None
    pairs = len(head) // 2
    even, odd = head[0:pairs * 2:2].count(0), head[1:pairs * 2:2].count(0)
    # "<" is 3C 00 in LE and 00 3C in BE; binary data has zeros at both positions
    if odd and odd >= pairs / 4 and even <= odd / 8:
        return "utf-16-le"
    if even and even >= pairs / 4 and odd <= even / 8:
        return "utf-16-be"
    return None


def _declarations(
    data: bytes, headers: Mapping[str, str] | None, declared: str | None
) -> Iterator[tuple[str, str]]:
    """(source, label) pairs, strongest first; the page is only scanned if needed."""
    if declared:
        yield "declared", declared.strip()
    http = _http_charset(headers)
    if http:
        yield "http", http
    meta = sniff_declared(data)
    if meta:
        yield "meta", meta


def _http_charset(headers: Mapping[str, str] | None) -> str | None:
    if not headers:
        return None
    for name, value in headers.items():
        if isinstance(name, str) and name.lower() == "content-type" and isinstance(value, str):
            found = _HTTP_CHARSET.search(value)
            return found.group(1) if found else None
    return None


def _judge(data: bytes, facts: _Facts, source: str, label: str) -> tuple[str, str, str | None] | str:
    """(text, codec, note or None) when the declaration holds for these bytes, else a note
    saying why not."""
    tag = f"{source}:{label}"
    codec = python_codec(label)
    if codec is None:
        return f"{tag} {'unusable' if _whatwg(label) else 'unknown'} label"
    if codec in _UTF16:
        # a declaration readable as ASCII cannot be truthful about UTF-16 (WHATWG)
        if facts.utf16 is None:
            return f"{tag} ignored, bytes are not utf-16"
        return data.decode(facts.utf16, "replace"), facts.utf16, None
    if facts.utf16 is not None:
        return f"{tag} ignored, bytes look like {facts.utf16}"
    if facts.utf8 is not None and facts.utf8_errors == 0 and codec == "utf-8":
        return facts.utf8, codec, None
    if facts.utf8_dominant is not None and codec == "utf-8":
        return facts.utf8_dominant, codec, f"{tag} mostly valid, {_replaced(facts.utf8_errors, codec)}"
    if facts.utf8 is not None and codec != "utf-8" and not facts.ascii:
        return f"{tag} overridden, bytes are {'mostly' if facts.utf8_errors else 'valid'} utf-8"
    text = _strict(data, codec)
    if text is not None:
        return text, codec, None
    mostly = _mostly(data, codec)
    if mostly is None:
        return f"{tag} failed validation, bytes are not valid {codec}"
    text, errors = mostly
    return text, codec, f"{tag} mostly valid, {_replaced(errors, codec)}"


def _mostly(data: bytes, codec: str) -> tuple[str, int] | None:
    """(text, invalid sequences replaced) when ``data`` is a multibyte codec's text with a
    few damaged bytes (see MOSTLY_MULTIBYTE_RATIO), else None."""
    if codec not in _MULTIBYTE:
        return None
    text = data.decode(codec, "replace")
    # U+FFFD written in the page itself is not an error
    written = "\ufffd".encode(codec, "ignore")
    errors = text.count("\ufffd") - (data.count(written) if written else 0)
    valid = len(text) - len(text.encode("ascii", "ignore")) - text.count("\ufffd")
    ratio = MOSTLY_RATIO_BY_CODEC.get(codec, MOSTLY_MULTIBYTE_RATIO)
    # no error at all: the bytes are valid, and whoever rejected them judged their text
    return (text, errors) if errors > 0 and valid >= max(ratio * errors, MOSTLY_MULTIBYTE_MIN) else None


def _replaced(errors: int, codec: str) -> str:
    return f"{errors} invalid sequence{'s' if errors != 1 else ''} of {codec} replaced"


def _detect(data: bytes, facts: _Facts) -> tuple[str, str, str, str | None]:
    """(text, codec, reason head, note or None) from the bytes alone."""
    if facts.utf16 is not None:
        return data.decode(facts.utf16, "replace"), facts.utf16, "utf-16-sniffed", None
    if facts.utf8_dominant is not None:
        return facts.utf8_dominant, "utf-8", "utf-8-mostly" if facts.utf8_errors else "utf-8-valid", None
    sample = _sample(data)
    guess = _guess(sample)
    second = _second_look(sample, guess, _declared_language(data))
    if second is not None:
        return data.decode(second[0], "replace"), second[0], "detected", second[1]
    if guess is not None:
        return data.decode(guess, "replace"), guess, "detected", None
    # charset-normalizer drops every codec a single byte fails: a GBK page with one
    # damaged character would otherwise end as cp1252 mojibake
    mostly = _mostly_multibyte(data)
    if mostly is not None:
        text, codec, errors = mostly
        return text, codec, "detected-mostly", _replaced(errors, codec)
    return data.decode("cp1252", "replace"), "cp1252", "fallback", None


def _mostly_multibyte(data: bytes) -> tuple[str, str, int] | None:
    """(text, codec, errors) for the multibyte codec ``data`` is mostly valid in, if any.

    GB18030's byte ranges hold most of the other codecs' pairs, so the fewest invalid
    sequences would not tell them apart: each candidate's text, its damaged bytes left
    out, is judged by charset-normalizer like any undeclared page (see ``_pick``).
    """
    sample = _sample(data)
    candidates = [codec for codec in _WEB_CODECS if codec in _MULTIBYTE and _mostly(sample, codec)]
    if len(candidates) > 1:
        candidates = [_best_cleaned(sample, candidates)]
    mostly = _mostly(data, candidates[0]) if candidates else None
    if mostly is None:
        return None
    return mostly[0], candidates[0], mostly[1]


def _best_cleaned(sample: bytes, candidates: list[str]) -> str:
    """The candidate whose text (invalid sequences dropped) charset-normalizer finds least
    messy, then most coherent; the first (most used on the web) when it judges none."""
    from charset_normalizer import from_bytes

    scores = []
    for codec in candidates:
        cleaned = sample.decode(codec, "replace").replace("\ufffd", "").encode(codec, "ignore")
        try:
            best = from_bytes(_strip_markup(cleaned), cp_isolation=[codec]).best()
        except Exception:  # noqa: BLE001 - a detector failure must not break decode's totality
            best = None
        if best is not None:
            scores.append((best.chaos, -best.coherence, _web_rank(codec), codec))
    if not scores:
        return candidates[0]
    least = min(scores)[0]
    return min(s for s in scores if s[0] <= least + CHAOS_TIE)[3]


def _guess(sample: bytes) -> str | None:
    """The detected codec of a sample of bytes that are neither declared nor UTF-8, if any."""
    # imported here: it is slow to import and most pages never get this far
    from charset_normalizer import from_bytes

    paired = _TWO_HIGH.search(sample) is not None  # a multibyte codec needs two high bytes in a row
    codecs_ = [c for c in _WEB_CODECS if c not in _MULTIBYTE or paired]
    # text without markup first: it gives the language model words to judge; the raw
    # sample when that finds nothing (entities and soft hyphens in short texts can push
    # every candidate over charset-normalizer's mess threshold)
    for candidate in (_strip_markup(sample), sample):
        try:
            matches = from_bytes(candidate, cp_isolation=codecs_)
        except Exception:  # noqa: BLE001 - a detector failure must not break decode's totality
            return None
        best = matches.best()
        if best is not None:
            return _pick(matches, best.chaos, candidate)
    return None


def _pick(matches: CharsetMatches, best_chaos: float, sample: bytes) -> str | None:
    """Break charset-normalizer's near-ties between candidates.

    Its mess ratio often ties cp1250 with cp1252, or iso8859-2 with cp1250, and its
    coherence barely separates them.  Among candidates within CHAOS_TIE of the best
    that decode no byte to a C1 control: coherence within COHERENCE_TIE of the highest
    (cp866 read an English page with coherence 0 against cp1252's 0.9), then fewest
    symbols inside words (cp1252 reads Polish "łą" as "³¹"), then use on the web.
    """
    near = [
        (match.coherence, codec)
        for match in matches
        if match.chaos <= best_chaos + CHAOS_TIE
        for codec in match.could_be_from_charset
    ]
    clean = [(c, codec) for c, codec in near if not _C1_CONTROL.search(sample.decode(codec, "replace"))]
    near = clean or near
    top = max(coherence for coherence, _ in near)
    coherent = [codec for coherence, codec in near if coherence >= top - COHERENCE_TIE]
    symbols = {codec: _symbols_in_words(sample, codec) for codec in coherent}  # once per codec
    fewest = min(symbols.values())
    plain = (codec for codec in coherent if symbols[codec] == fewest)
    return _canonical(min(plain, key=_web_rank))


def _second_look(sample: bytes, guess: str | None, language: str | None) -> tuple[str, str] | None:
    """(codec, note) when the bytes read better than ``guess`` (charset-normalizer's pick,
    or None) in a CJK codec or in cp1252, else None.

    charset-normalizer judges short texts poorly: Korean in EUC-KR ties at mess 0 with
    iso8859-5, whose Cyrillic has no symbol inside a word, and a French latin-1 text
    scores a mess of 0.2 in cp1252 (its accents), so cp1257's "Ēa été déją" wins.  Two
    facts of the bytes settle these: CJK text pairs its high bytes, and a single-byte
    decoding is plausible when its letters are one language's alphabet (:func:`_fit`).
    """
    cjk = _cjk(sample, guess)
    if cjk is not None:
        return cjk, f"{guess or 'no guess'} set aside, {cjk} reads as CJK text"
    if guess is None or guess in _MULTIBYTE or guess == "cp1252" or _strict(sample, "cp1252") is None:
        return None
    text, guessed = _letters(sample, "cp1252"), _letters(sample, guess)
    if _symbols_in_words(sample, "cp1252") > _symbols_in_words(sample, guess):
        return None
    western = _WESTERN if language not in _WESTERN else {language: _WESTERN[language]}
    share = _fit(text, western)
    if share < LETTERS_FIT or (language not in _WESTERN and _fit(guessed, _ALPHABETS) > share - FIT_MARGIN):
        return None
    return "cp1252", f"{guess} set aside, its letters fit no alphabet and cp1252's do"


#: A decoding's letters fit an alphabet when at least this share of its non-ASCII letters
#: (occurrences) are in it: a French page may name "Łódź" or "Dvořák" now and then
LETTERS_FIT = 0.98
#: … and cp1252 replaces a charset-normalizer guess whose best alphabet holds a share of
#: its letters lower than cp1252's by at least this much ("Ēa été déją": 5 of 12 French)
FIT_MARGIN = 0.1
#: CJK text: at least this share of a decoding's non-ASCII characters are CJK, at least
#: this share of the sample's high bytes stand next to another, and this many characters
CJK_SHARE = 0.95
CJK_MIN = 4

#: the non-ASCII letters of the languages written in cp1252 (lower case), by ISO 639-1 code
_WESTERN = {
    "en": "éèêëàâäçïîôöüûñæœ", "fr": "àâæçéèêëîïôœùûüÿ", "de": "äöüßé", "es": "áéíñóúü", "pt": "áàâãçéêíóôõú",
    "it": "àèéìíîòóùú", "nl": "áéèëïóöüúà", "ca": "àçèéíïòóúü", "sv": "åäöé", "da": "æøåé", "nb": "æøåéóòô",
    "no": "æøåéóòô", "fi": "äöåšž", "is": "áðéíóúýþæö", "ga": "áéíóú", "gl": "áéíñóúü", "eu": "ñü",
    "af": "êëéèîïôûáó", "sq": "çë", "et": "äõöüšž",
}
#: … and of the languages other single-byte codecs write (what a wrong guess must not fit)
_ALPHABETS: dict[str, str] = {
    **_WESTERN, "pl": "ąćęłńóśźż", "cs": "áčďéěíňóřšťúůýž", "sk": "áäčďéíĺľňóôŕšťúýž",
    "hu": "áéíóöőúüű", "ro": "ăâîșțşţ", "hr": "čćđšž", "sl": "čšž", "lt": "ąčęėįšųūž", "lv": "āčēģīķļņšūž",
    "tr": "çğıöşüâîû", "cyrillic": "", "greek": "", "hebrew": "", "arabic": "", "thai": "",
}
#: scripts whose letters are an alphabet of their own (a range, not a list)
_SCRIPTS = {"cyrillic": ("\u0400", "\u052f"), "greek": ("\u0370", "\u03ff"), "hebrew": ("\u0590", "\u05ff"),
            "arabic": ("\u0600", "\u06ff"), "thai": ("\u0e00", "\u0e7f")}
_LETTER_IN_WORD = re.compile(r"[^\W\d_]+")


def _letters(sample: bytes, codec: str) -> Counter[str]:
    """The non-ASCII letters of the sample's text in ``codec`` (lower case), counted; a
    letter of a script beside an ASCII letter in one word counts apart, as ``"mixed"``
    (a Western page read as cp1251 spells "Зa йtй")."""
    counts: Counter[str] = Counter()
    for word in _LETTER_IN_WORD.findall(_strip_markup(sample).decode(codec, "replace").lower()):
        if word.isascii():
            continue
        mixed = not word.isalpha() or any(c.isascii() for c in word)
        for c in word:
            if not c.isascii():
                counts["mixed" if mixed and _script(c) else c] += 1
    return counts


def _script(letter: str) -> str | None:
    return next((name for name, (low, high) in _SCRIPTS.items() if low <= letter <= high), None)


def _fit(letters: Counter[str], alphabets: Mapping[str, str]) -> float:
    """The largest share of ``letters`` (occurrences) one of ``alphabets`` holds; 1 when
    there are none."""
    total = sum(letters.values())
    if not total:
        return 1.0
    best = 0
    for name, alphabet in alphabets.items():
        held = sum(n for c, n in letters.items() if (c in alphabet if alphabet else _script(c) == name))
        best = max(best, held)
    return best / total


#: Unicode ranges of CJK text: CJK punctuation, kana, Hangul syllables, CJK ideographs
#: (and extension A), full-width forms; not half-width katakana nor Hangul compatibility
#: jamo, which legacy bytes of another CJK codec turn into (EUC-JP kana read as EUC-KR)
_CJK = re.compile("[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uff01-\uff60]")
_HANGUL = re.compile("[\uac00-\ud7a3]")
_KANA = re.compile("[\u3040-\u30ff]")
#: Hangul compatibility jamo: a few in Korean text (EUC-KR spells rare syllables with
#: them), many in Japanese EUC-JP read as EUC-KR (its hiragana row is their row)
_JAMO = re.compile("[\u3131-\u318e]")
JAMO_SHARE = 0.2
#: a CJK text is Japanese when at least this share of its CJK characters are kana (Chinese
#: writes none; GB2312 has kana at EUC-JP's very code points, its kanji are not)
KANA_SHARE = 0.1
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")


def _cjk(sample: bytes, guess: str | None) -> str | None:
    """The CJK codec the sample reads in when charset-normalizer's ``guess`` is no CJK
    codec (or None), or is one but the bytes are Korean; else None.

    CJK text pairs its high bytes (a single-byte page's accents stand alone between ASCII
    letters), and its decoding is all CJK characters.  Among the codecs that read it so,
    Korean (EUC-KR) is told by Hangul syllables and few compatibility jamo
    (:data:`JAMO_SHARE`): Chinese GB2312 bytes read as EUC-KR give Hanja too, Japanese
    EUC-JP kana give jamo; Japanese by its kana
    (:data:`KANA_SHARE`); otherwise ``guess`` when it is one of them, else the most used
    on the web.
    """
    runs = _HIGH_RUN.findall(sample)
    high = sum(map(len, runs))
    # UHC and Big5 have ASCII trail bytes: when charset-normalizer found nothing at all, a
    # strict CJK reading is still better than cp1252
    if not high or (guess is not None and sum(len(r) for r in runs if len(r) > 1) < CJK_SHARE * high):
        return None
    readable = []
    for codec in (c for c in _WEB_CODECS if c in _MULTIBYTE):
        text = _strict(sample, codec)
        if text is None:
            continue
        wide = len(text) - len(text.encode("ascii", "ignore"))
        cjk, jamo = len(_CJK.findall(text)), len(_JAMO.findall(text))
        if cjk >= CJK_MIN and cjk + jamo >= CJK_SHARE * wide:
            readable.append((codec, text, cjk))
    korean = [codec for codec, text, cjk in readable
              if codec == "cp949" and len(_HANGUL.findall(text)) >= CJK_SHARE * cjk
              and len(_JAMO.findall(text)) <= JAMO_SHARE * (len(text) - len(text.encode("ascii", "ignore")))]
    japanese = [codec for codec, text, cjk in readable if codec in ("euc_jp", "cp932")
                and len(_KANA.findall(text)) >= KANA_SHARE * cjk]
    for codecs_ in (korean, japanese, [codec for codec, _, _ in readable]):
        if codecs_:
            return None if guess in codecs_ else codecs_[0]
    return None


def _declared_language(data: bytes) -> str | None:
    """The primary language subtag of ``<html lang>`` (or ``xml:lang``), lower case."""
    found = _HTML_LANG.search(data[:SNIFF_BYTES])
    return found.group(1).decode("ascii").lower() if found else None


_HTML_LANG = re.compile(rb"""<html\b[^<>]*?\blang\s*=\s*["']?\s*([a-zA-Z]{2,3})\b""", re.IGNORECASE)


def _symbols_in_words(sample: bytes, codec: str) -> int:
    return len(_SYMBOL_IN_WORD.findall(sample.decode(codec, "replace")))


def _web_rank(codec: str) -> int:
    return _WEB_RANK.get(_canonical(codec) or "", len(_WEB_RANK))


def _sample(data: bytes) -> bytes:
    """Up to DETECT_BYTES of ``data`` from shortly before its first non-ASCII byte.

    ASCII markup says nothing about the encoding.  The cuts fall on character
    boundaries: the start in pure ASCII, the end before a "<", which no CJK codec uses
    inside a character, since a sample ending inside a character rules out the right codec.
    """
    first = _NON_ASCII.search(data)
    start = max(0, first.start() - 1024) if first else 0
    sample = data[start : start + DETECT_BYTES]
    if len(data) > start + DETECT_BYTES and (cut := sample.rfind(b"<")) > DETECT_BYTES // 2:
        sample = sample[:cut]
    return sample


def _strip_markup(sample: bytes) -> bytes:
    # safe on bytes: "<", ">" and ASCII spaces never occur inside a multibyte character
    return _SPACES.sub(b" ", _TAG.sub(b" ", _drop_spans(sample, _SPAN_START)))


def _drop_spans(data: bytes, starts: re.Pattern[bytes]) -> bytes:
    """``data`` without the comments (and scripts, styles) that ``starts`` finds.

    An unclosed span runs to the end, as in a browser.  A loop of searches rather than
    one ``<!--.*?-->`` regex, which takes quadratic time on many unclosed comments.
    """
    kept: list[bytes] = []
    position = 0
    while (start := starts.search(data, position)) is not None:
        kept.append(data[position : start.start()])
        element = start.group(1) if starts.groups else None
        end = _SPAN_END[(element or b"").lower()].search(data, start.end())
        if end is None:
            return b" ".join(kept)
        position = end.end()
    kept.append(data[position:])
    return b" ".join(kept)


def _strict(data: bytes, codec: str) -> str | None:
    """The text when ``data`` is valid in ``codec``, else None.

    A character cut off at the very end is allowed, and replaced: truncated pages are
    common and their encoding is still the right one.
    """
    decoder = codecs.getincrementaldecoder(codec)("strict")
    try:
        text = decoder.decode(data, final=False)
    except UnicodeDecodeError:
        return None
    decoder.errors = "replace"
    return text + decoder.decode(b"", final=True)


def _whatwg(label: str) -> webencodings.Encoding | None:
    # webencodings lowercases through UTF-8 and fails on lone surrogates; labels are ASCII
    return webencodings.lookup(label) if label.isascii() else None


def _canonical(codec: str) -> str | None:
    try:
        name = codecs.lookup(codec).name
    except LookupError:
        return None
    return _SUPERSETS.get(name, name)


def _reason(head: str, notes: list[str]) -> str:
    return f"{head} ({'; '.join(notes)})" if notes else head


#: file signatures of formats that are never HTML
_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"%PDF-", b"PK\x03\x04",
          b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00", b"RIFF", b"OggS", b"\x00\x00\x01\x00", b"wOFF", b"wOF2")
#: WHATWG MIME sniffing's "binary data bytes" (C0 controls other than whitespace and ESC)
#: the C0 controls that text never holds (tab, newlines, form feed and escape excepted)
_BINARY_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
#: How many bytes the binary test reads.
BINARY_SNIFF_BYTES = 4096
#: Bytes are binary when more than one in this many of the head are binary data bytes
#: (and at least BINARY_MIN_BYTES of them).  Random or compressed bytes hold one in
#: ten; real pages carry a few stray controls (29 in one shared daniel page, one in the
#: first KB of a Big5 page would have been enough to refuse it under WHATWG's
#: any-byte rule), and legacy multibyte encodings (GBK, Big5, Shift_JIS, EUC-KR, KOI8-R)
#: never use C0 bytes, so their text always passes.
BINARY_SHARE = 32
BINARY_MIN_BYTES = 4


def looks_binary(data: bytes) -> bool:
    """True for bytes that are not a text document: a known file signature, or binary data
    bytes making a real share of the first 4 KB, unless they sniff as UTF-16 or UTF-32."""
    if data.startswith(_MAGIC):
        return True
    head = data[:BINARY_SNIFF_BYTES]
    found = len(head) - len(head.translate(None, _BINARY_BYTES))  # a pass in C, no match objects
    if found < BINARY_MIN_BYTES or found * BINARY_SHARE <= len(head) or _sniff_utf16(data) is not None:
        return False
    return data[:4] not in (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE) and not data.startswith(
        (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
