"""Decoding on real pages: does any page come out with U+FFFD or mojibake?

Every ``html/<id>.html`` of every shared dataset goes through
``load`` → ``run(page, "fulltext")`` → ``render(result, "txt")`` (what
``detourage.extract(bytes, method="fulltext")`` does), keeping the page so the chosen
encoding and ``page.decoded.reason`` can be shown.  fulltext keeps all visible text, so
any decoding damage anywhere on the page shows up in its output.

Each marker found in the output is put in one of three bins:

``gold``
    the page's gold text (``gold/<id>.txt``) holds the same string: the annotators kept
    it, it is part of the page; ignored.
``source``
    the page's own bytes hold it: the raw bytes are valid UTF-8 and their UTF-8 text
    (HTML entities unescaped) holds the same string, or the entities of the page's ASCII
    part spell it (``&Atilde;&copy;``).  UTF-8 validity is all but proof of the encoding,
    so such a page was double-encoded (or had characters replaced) before we saw it;
    no decoder can undo that, a browser shows the same.  Counted apart, for information.
``detourage``
    neither: the damage appeared between the bytes and our output (a wrong codec, or
    parse/segment introducing U+FFFD).  **These are the pages the target of 0 is about.**

Markers (a documented, deliberately conservative list; every hit is printed):

``U+FFFD``
    the replacement character: bytes the chosen codec could not decode.
``utf8-as-cp1252``
    UTF-8 read as cp1252 / latin-1: a UTF-8 lead byte shown as a Latin-1 letter
    followed by the right number of continuation bytes (0x80–0xBF) shown as cp1252 or
    latin-1 characters — ``Ã©`` (é), ``Ã¨``, ``Ã\\xa0`` (à), ``Ã¶``, ``Ã¼``, ``Â©``,
    ``Ð°`` / ``Ñ\\x8f`` (Cyrillic), ``Î±`` (Greek), ``Å‚`` (Polish ł), ``â€™`` / ``â€œ`` (quotes),
    ``ä¸\\xad`` (CJK, three bytes)…  Two-byte leads are ``Â``–``ß`` (0xC2–0xDF), three-byte
    ``à``–``ï`` (0xE0–0xEF), four-byte ``ð``–``ô`` (0xF0–0xF4).
``utf8-as-cp1251``
    UTF-8 Cyrillic read as cp1251: at least two ``Р``/``С`` (0xD0/0xD1) each followed by a
    cp1251 continuation byte, e.g. ``РїСЂРёРІРµС‚`` (привет).
``utf8-as-greek``
    UTF-8 Greek read as cp1253 / iso-8859-7: at least two ``Ξ``/``Ο`` (0xCE/0xCF) each
    followed by a continuation byte in that code page, e.g. ``ΞµΞ»`` (ελ).
``legacy-as-latin1``
    a non-Latin legacy page (cp1251, gb18030, cp1253…) read as cp1252: four or more
    Latin-1 letters in a row (``Ïðèâåò``, привет in cp1251; ``ÆÀÂÛ``, 评论 in GBK), which
    no European language writes.
``latin-in-wrong-codec``
    a Western (cp1252) page read with another legacy codec: a lowercase ASCII letter
    joined, inside one word, to a Greek, Cyrillic, Hebrew, Arabic, Thai, box-drawing,
    kana or CJK character — ``don┤t`` (cp866), ``Klein痴`` (cp932), ``cafι`` (cp1253).
    Only looked for when the chosen codec is not a UTF (a UTF cannot produce it, and
    runs joined across tags, ``новостей`` + ``<sup>new``, would match); a mixed-script
    word of a real legacy CJK page (``iPhone手机``) would also match: read the snippet.
``c1-control`` (looked for in the decoded page, markup included: block text loses its
control characters, ``segment.CONTROL_CHARS``, before any output)
    a C1 control character (U+0080–U+009F): never text; what cp1252's quotes and dashes
    (bytes 0x80–0x9F) become when a page is read as latin-1 or another iso-8859 codec.

Two more uses:

``--outputs PATH`` / ``--compare PATH``
    write every page's codec, reason and a digest of its output; compare with such a file
    written by an earlier version, and list the pages whose output changed (how a fix is
    shown to leave the pages that were right before alone).
``--tolerance``
    the measurement behind ``decode.MOSTLY_MULTIBYTE_RATIO``: every page's text re-encoded
    in each single-byte codec able to hold it (cp1250-1253, koi8-r, iso8859-7), decoded
    with each multibyte codec with replacement; the fewest invalid sequences per valid
    character a wrong multibyte codec leaves, and how many pages each ratio would accept.

``--undeclared``
    detection beside charset-normalizer's own: pages with no declaration in a legacy
    codec, and what detourage and ``charset_normalizer.from_bytes(data).best()`` read.
    A sample of the shared pages (their decoded text, every charset declaration taken
    out) is encoded in each legacy codec able to hold it, whole and cut to the page's
    first 300 characters of text in a bare page (short pages are where detectors fail);
    so are Python's own CJK test texts (``test/cjkencodings``, when the Python install
    has them: EUC-KR, CP949, GB2312, GBK, Big5, Shift_JIS, EUC-JP, whole and cut), and a
    few Western sentences in latin-1 (French, German, Spanish, Portuguese, Italian).
    A reading is right when its text is the original text.

Pages are ``html/<id>.html`` or gzipped ``html/<id>.html.gz`` (``datasets-extra``).

    python benchmarks/decode_check.py [--datasets DIR] [--only NAME…] [--short] [--json PATH]
                                      [--outputs PATH] [--compare PATH] [--tolerance] [--undeclared]

Exit status 0 when no page is in the ``detourage`` bin, 1 otherwise, 2 when the datasets
are missing.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html
import json
import re
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

import _common

SNIPPET = 30  # characters of context either side of a marker


def _continuations(codec: str) -> str:
    """How bytes 0x80–0xBF look when a page is decoded with ``codec`` (or as latin-1)."""
    chars = set()
    for byte in range(0x80, 0xC0):
        chars.add(chr(byte))  # latin-1, and WHATWG's cp1252 for its 5 undefined bytes
        try:
            chars.add(bytes([byte]).decode(codec))
        except UnicodeDecodeError:
            pass
    return "".join(sorted(chars))


def _cls(chars: str) -> str:
    return "[" + "".join(re.escape(c) for c in chars) + "]"


_C1252 = _cls(_continuations("cp1252"))
_C1251 = _cls(_continuations("cp1251"))
_CGREEK = _cls(_continuations("cp1253") + _continuations("iso8859-7"))
#: scripts a Western page's accented letters and quotes turn into under a wrong legacy
#: codec: Greek, Cyrillic, Hebrew, Arabic, Thai, box drawing, kana, CJK, half-width forms
_FOREIGN = ("[\u0370-\u03ff\u0400-\u04ff\u0590-\u05ff\u0600-\u06ff\u0e00-\u0e7f"
            "\u2500-\u259f\u3040-\u30ff\u3400-\u9fff\uff61-\uff9f]")

MARKERS: dict[str, re.Pattern[str]] = {
    "U+FFFD": re.compile("\ufffd"),
    "utf8-as-cp1252": re.compile(
        f"[\u00c2-\u00df]{_C1252}|[\u00e0-\u00ef]{_C1252}{{2}}|[\u00f0-\u00f4]{_C1252}{{3}}"
    ),
    "utf8-as-cp1251": re.compile(f"(?:[РС]{_C1251}){{2,}}"),
    "utf8-as-greek": re.compile(f"(?:[ΞΟ]{_CGREEK}){{2,}}"),
    "legacy-as-latin1": re.compile("[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff]{4,}"),
    "latin-in-wrong-codec": re.compile(f"[a-z]{_FOREIGN}|{_FOREIGN}[a-z]"),
    "c1-control": re.compile("[\u0080-\u009f]"),
}

#: markers only a legacy (non-UTF) codec can produce: on a UTF-decoded page a match comes
#: from runs joined across tags (``новостей`` + ``<sup>new``), not from decoding
LEGACY_ONLY = frozenset({"latin-in-wrong-codec"})


@dataclass
class Hit:
    dataset: str
    id: str
    #: "detourage" or "source" (see the module docstring), "crash" for an exception
    where: str
    marker: str
    match: str
    count: int
    encoding: str
    reason: str
    declared: str | None
    snippet: str


@dataclass
class DatasetStats:
    name: str
    pages: int = 0
    #: pages with damage attributed to detourage, by kind (the target is 0 for both)
    fffd: int = 0
    mojibake: int = 0
    crashed: int = 0
    #: pages whose own bytes hold the damage (information only)
    source_fffd: int = 0
    source_mojibake: int = 0
    seconds: float = 0.0
    reasons: Counter[str] = field(default_factory=Counter)
    encodings: Counter[str] = field(default_factory=Counter)


def read_gold(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return ""


def reference_text(data: bytes) -> str:
    """What the page's bytes say independently of our decoder (see ``source`` above)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("ascii", "ignore")  # only entities can then be trusted
    return html.unescape(text) if "&" in text else text


def find_hits(text: str, gold: str, reference: str, encoding: str,
              decoded: str = "") -> dict[tuple[str, str], tuple[re.Match[str], int]]:
    """(where, marker) → (first match there, number of matches there); gold ones skipped.
    ``text`` is the output, ``decoded`` the decoded page (for ``c1-control``)."""
    from detourage.segment import clean_text

    cleaned = clean_text(reference)  # as block text is: no invisible or control characters, NFC
    found: dict[tuple[str, str], tuple[re.Match[str], int]] = {}
    for name, pattern in MARKERS.items():
        if name in LEGACY_ONLY and encoding.startswith("utf"):
            continue
        c1 = name == "c1-control"
        for match in pattern.finditer(decoded if c1 else text):
            got = match.group()
            if got in gold:
                continue
            key = ("source" if got in (reference if c1 else cleaned) else "detourage", name)
            first, count = found.get(key, (match, 0))
            found[key] = (first, count + 1)
    return found


def snippet(text: str, match: re.Match[str]) -> str:
    start, end = max(0, match.start() - SNIPPET), match.end() + SNIPPET
    return visible(text[start:end].replace("\n", " ⏎ "))


def visible(text: str) -> str:
    """Control characters (C0/C1) made visible; everything else printed as is."""
    return "".join(c if c.isprintable() or c == " " else f"\\x{ord(c):02x}" for c in text)


def page_files(folder: Path) -> list[Path]:
    """A dataset's pages, plain or gzipped."""
    return sorted([*(folder / "html").glob("*.html"), *(folder / "html").glob("*.html.gz")])


def page_bytes(path: Path) -> tuple[str, bytes]:
    """(page id, raw bytes) of a page file, gunzipped when it ends in ``.gz``."""
    if path.suffix == ".gz":
        return path.name.removesuffix(".html.gz"), gzip.decompress(path.read_bytes())
    return path.stem, path.read_bytes()


def check_page(dataset: str, path: Path, gold_dir: Path, stats: DatasetStats, hits: list[Hit],
               outputs: dict[str, list[str]]) -> None:
    from detourage.api import load, run
    from detourage.render import render

    page_id, data = page_bytes(path)
    try:
        page = load(data)
        text = render(run(page, "fulltext"), "txt")
    except Exception as exc:  # noqa: BLE001 - a crash is reported, not fatal
        stats.crashed += 1
        hits.append(Hit(dataset, page_id, "crash", "exception", type(exc).__name__, 1, "?", "?",
                        None, str(exc)[:120]))
        outputs[f"{dataset}/{page_id}"] = ["crash", type(exc).__name__, ""]
        return
    decoded = page.decoded
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
    outputs[f"{dataset}/{page_id}"] = [decoded.encoding, decoded.reason, digest]
    stats.encodings[decoded.encoding] += 1
    stats.reasons[decoded.reason.split(" ", 1)[0]] += 1
    found = find_hits(text, read_gold(gold_dir / f"{page_id}.txt"), reference_text(data), decoded.encoding,
                      decoded.text)
    markers = {where: {name for w, name in found if w == where} for where in ("detourage", "source")}
    stats.fffd += "U+FFFD" in markers["detourage"]
    stats.mojibake += bool(markers["detourage"] - {"U+FFFD"})
    stats.source_fffd += "U+FFFD" in markers["source"]
    stats.source_mojibake += bool(markers["source"] - {"U+FFFD"})
    for (where, name), (match, count) in found.items():
        hits.append(Hit(dataset, page_id, where, name, visible(match.group()), count,
                        decoded.encoding, decoded.reason, decoded.declared,
                        snippet(decoded.text if name == "c1-control" else text, match)))


def check_dataset(folder: Path, hits: list[Hit], outputs: dict[str, list[str]]) -> DatasetStats:
    stats = DatasetStats(folder.name)
    t0 = time.perf_counter()
    for path in page_files(folder):
        stats.pages += 1
        check_page(folder.name, path, folder / "gold", stats, hits, outputs)
    stats.seconds = time.perf_counter() - t0
    return stats


_COLUMNS = ("pages", "fffd", "mojibake", "crashed", "source_fffd", "source_mojibake", "seconds")
_HEADERS = ("pages", "U+FFFD", "mojibake", "crashed", "src U+FFFD", "src mojibake", "s")


def table(stats: list[DatasetStats]) -> str:
    widths = [max(5, len(h)) for h in _HEADERS]
    rows = ["| dataset            | " + " | ".join(f"{h:>{w}}" for h, w in zip(_HEADERS, widths)) + " |",
            "|--------------------|" + "|".join("-" * (w + 1) + ":" for w in widths) + "|"]
    total = DatasetStats("**all**")
    for s in [*stats, total]:
        if s is not total:
            for col in _COLUMNS:
                setattr(total, col, getattr(total, col) + getattr(s, col))
        cells = [f"{getattr(s, c):.1f}" if c == "seconds" else str(getattr(s, c)) for c in _COLUMNS]
        rows.append(f"| {s.name:<18} | " + " | ".join(f"{c:>{w}}" for c, w in zip(cells, widths)) + " |")
    return "\n".join(rows)


def decisions(stats: list[DatasetStats]) -> str:
    """How the encodings were chosen (reason heads) and which codecs, per dataset."""
    lines = []
    for s in stats:
        reasons = ", ".join(f"{r}: {n}" for r, n in s.reasons.most_common())
        codecs = ", ".join(f"{c}: {n}" for c, n in s.encodings.most_common())
        lines.append(f"- {s.name}: reasons {reasons}; codecs {codecs}")
    return "\n".join(lines)


def hit_list(hits: list[Hit], long: bool) -> str:
    if not hits:
        return "none"
    lines = []
    for h in hits:
        line = (f"- {h.dataset}/{h.id}: {h.marker} ×{h.count} {h.match!r} — encoding {h.encoding}, "
                f"reason {h.reason!r}, declared {h.declared!r}")
        lines.append(line + (f"\n    …{h.snippet}…" if long else ""))
    return "\n".join(lines)


def compare(before: dict[str, list[str]], after: dict[str, list[str]]) -> str:
    """The pages whose output changed since ``before`` (an earlier ``--outputs`` file)."""
    changed = sorted(k for k in after if k in before and before[k][2] != after[k][2])
    lines = [f"Pages whose output changed: {len(changed)} of {len(after)} "
             f"({len(set(after) - set(before))} new, {len(set(before) - set(after))} gone)"]
    for key in changed:
        lines.append(f"- {key}: {before[key][0]} → {after[key][0]}; reason {before[key][1]!r} → "
                     f"{after[key][1]!r}")
    return "\n".join(lines)


#: single-byte codecs a page's text is re-encoded in, and the multibyte codecs tried on it
TOLERANCE_SOURCES = ("cp1250", "cp1251", "cp1252", "cp1253", "koi8-r", "iso8859-7")
TOLERANCE_TARGETS = ("gb18030", "big5hkscs", "cp932", "cp949", "euc_jp")
TOLERANCE_RATIOS = (10, 25, 50, 75, 100, 150, 200, 250, 300)


def invalid_counts(data: bytes, codec: str) -> tuple[int, int]:
    """(invalid sequences, valid non-ASCII characters) of ``data`` decoded with replacement."""
    text = data.decode(codec, "replace")
    errors = text.count("\ufffd")
    return errors, len(text) - len(text.encode("ascii", "ignore")) - errors


def tolerance(folders: list[Path]) -> str:
    """How few invalid sequences a wrong multibyte codec leaves on real text (see --tolerance)."""
    from detourage.decode import MOSTLY_MULTIBYTE_MIN, MOSTLY_MULTIBYTE_RATIO, MOSTLY_RATIO_BY_CODEC, decode

    wrong: dict[str, list[tuple[float, int, str, str, int]]] = {c: [] for c in TOLERANCE_TARGETS}
    pages = 0
    for folder in folders:
        for path in page_files(folder):
            page_id, data = page_bytes(path)
            text = decode(data).text
            counts = Counter(c for c in text if ord(c) > 127)
            pages += 1
            for source in TOLERANCE_SOURCES:
                if sum(n for c, n in counts.items() if c.encode(source, "ignore")) < 0.95 * sum(counts.values()):
                    continue  # the text does not fit this codec
                encoded = text.encode(source, "ignore")
                for target in TOLERANCE_TARGETS:
                    errors, valid = invalid_counts(encoded, target)
                    if errors:  # valid bytes never reach the tolerant path
                        wrong[target].append((valid / errors, valid, source, f"{folder.name}/{page_id}", errors))
    lines = [f"Single-byte re-encodings of {pages} pages decoded with each multibyte codec (wrong "
             f"decodings): the most valid characters per invalid sequence seen, over all of them and "
             f"over those with ≥ {MOSTLY_MULTIBYTE_MIN} valid characters, and how many of the latter each "
             "ratio would accept", "",
             "| codec | decodings | most, all | most, ≥ min | page | in use accepts | "
             + " | ".join(f"≥{r}" for r in TOLERANCE_RATIOS) + " |",
             "|---|--:|--:|--:|---|--:|" + "--:|" * len(TOLERANCE_RATIOS)]
    for codec, rows in wrong.items():
        big = [r for r in rows if r[1] >= MOSTLY_MULTIBYTE_MIN]
        ratio = MOSTLY_RATIO_BY_CODEC.get(codec, MOSTLY_MULTIBYTE_RATIO)
        top, top_big = max(rows, default=None), max(big, default=None)
        cells = [f"{r[0]:.0f} ({r[2]}, {r[4]}/{r[1]})" if r else "–" for r in (top, top_big)]
        accepted = [sum(1 for r in big if r[0] >= at) for at in (ratio, *TOLERANCE_RATIOS)]
        lines.append(f"| {codec} | {len(rows)} | {cells[0]} | {cells[1]} | {top_big[3] if top_big else ''} | "
                     + " | ".join(map(str, accepted)) + " |")
    lines.append(f"\nIn use (decode.py): at least {MOSTLY_MULTIBYTE_MIN} valid characters and "
                 f"{MOSTLY_MULTIBYTE_RATIO} per invalid sequence ({MOSTLY_RATIO_BY_CODEC} by codec).")
    return "\n".join(lines)


#: the legacy codecs pages are re-encoded in, and the codec that reads them back
UNDECLARED_CODECS = ("latin-1", "cp1252", "cp1250", "iso8859-2", "cp1251", "koi8-r", "cp1253", "gb18030",
                     "big5hkscs", "cp932", "euc_jp", "euc_kr")
UNDECLARED_PAGES = 40  # pages drawn from each dataset (seed 0)
_DECLARATION = re.compile(r"<meta[^<>]*charset[^<>]*>|(?<=<\?xml)[^>]*encoding\s*=\s*[\"'][^\"']*[\"']", re.IGNORECASE)
#: Western sentences (the shared datasets hold next to no Western page but English)
WESTERN = {
    "fr": "Ça a été déjà vu, à côté de la forêt, où l'élève était parti. Noël approche, les enfants sont ravis.",
    "de": "Größe und Übermaß: schön für Köln, die Straße ist lang und die Bäume grün.",
    "es": "El niño comió una piña en el jardín; mañana irá a la estación con su tía.",
    "pt": "A informação está disponível, não há razão para preocupação com a ação.",
    "it": "Perché è così difficile? La città è piena di caffè e di virtù.",
}
_CUT_CHARS = 300
#: the script a codec writes: a page is re-encoded only in the codecs of its script (any
#: text fits gb18030, but no server sends English pages in it)
CODEC_SCRIPTS = {"latin-1": "latin", "cp1252": "latin", "cp1250": "latin", "iso8859-2": "latin",
                 "cp1251": "cyrillic", "koi8-r": "cyrillic", "cp1253": "greek", "gb18030": "han", "big5hkscs": "han",
                 "cp932": "kana", "euc_jp": "kana", "euc_kr": "hangul"}


def valid_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def dominant_script(text: str) -> str | None:
    """The script of most of the non-ASCII letters of ``text`` (``kana`` for Japanese,
    whose kanji are Han: any kana at all), or None without such letters."""
    counts: Counter[str] = Counter()
    for c in text:
        if c.isalpha() and not c.isascii():
            n = ord(c)
            counts["latin" if n < 0x250 else "greek" if 0x370 <= n < 0x400 else "cyrillic" if 0x400 <= n < 0x530
                   else "kana" if 0x3040 <= n < 0x3100 else "hangul" if 0xac00 <= n < 0xd7a4
                   else "han" if 0x4e00 <= n < 0xa000 else "other"] += 1
    if counts["kana"]:
        return "kana"
    return counts.most_common(1)[0][0] if counts else None


def undeclared_cases(folders: list[Path]) -> list[tuple[str, str, str]]:
    """(name, codec, text) of every case of ``--undeclared`` (see the module docstring)."""
    import random

    from detourage.api import load, run
    from detourage.render import render

    cases = []
    for folder in folders:
        paths = page_files(folder)
        for path in sorted(random.Random(0).sample(paths, min(UNDECLARED_PAGES, len(paths)))):
            page_id, data = page_bytes(path)
            page = load(data)
            whole = _DECLARATION.sub("", page.html)
            body = " ".join(render(run(page, "fulltext"), "txt").split())[:_CUT_CHARS]
            cut = (f"<html><head><title>{html.escape(page.title)}</title></head>"
                   f"<body><p>{html.escape(body)}</p></body></html>")
            cases += [(f"{folder.name}/{page_id}", "", whole), (f"{folder.name}/{page_id} cut", "", cut)]
    cases += [(f"western/{lang}", "latin-1", f"<html><body><p>{text}</p></body></html>")
              for lang, text in WESTERN.items()]
    cases += [(f"western/{lang} lang", "latin-1", f'<html lang="{lang}"><body><p>{text}</p></body></html>')
              for lang, text in WESTERN.items()]
    return cases + cjk_cases()


def cjk_cases() -> list[tuple[str, str, str]]:
    """Python's CJK test texts (``test/cjkencodings``), whole and their first line."""
    import sysconfig

    folder = Path(sysconfig.get_paths()["stdlib"]) / "test" / "cjkencodings"
    cases = []
    for name, codec in (("euc_kr", "euc_kr"), ("cp949", "cp949"), ("gb2312", "gb2312"), ("gbk", "gbk"),
                        ("big5", "big5"), ("shift_jis", "shift_jis"), ("euc_jp", "euc_jp")):
        path = folder / f"{name}.txt"
        if not path.is_file():
            continue
        text = path.read_bytes().decode(codec)
        first = next(line for line in text.splitlines() if not line.isascii())
        for label, body in (("whole", text), ("line", first)):
            cases.append((f"cjkencodings/{name} {label}", codec,
                          f"<html><body><p>{html.escape(body)}</p></body></html>"))
    return cases


def undeclared(folders: list[Path]) -> str:
    """detourage's and charset-normalizer's readings of undeclared legacy pages (see --undeclared)."""
    from charset_normalizer import from_bytes

    from detourage.decode import decode

    rows: dict[tuple[str, str], list[int]] = {}
    misses = []
    for name, codec, text in undeclared_cases(folders):
        kind = "cut" if name.endswith((" cut", " line")) else "whole"
        script = None if codec else dominant_script(text)
        for target in (codec,) if codec else (c for c in UNDECLARED_CODECS if CODEC_SCRIPTS[c] == script):
            try:
                data = text.encode(target)
            except UnicodeEncodeError:
                continue
            if data.isascii() or valid_utf8(data):  # any reader takes it for UTF-8 (mojibake in the text)
                continue
            ours = decode(data)
            best = from_bytes(data).best()
            theirs = str(best) if best is not None else None
            row = rows.setdefault((target, kind), [0, 0, 0])
            row[0] += 1
            row[1] += ours.text == text
            row[2] += theirs == text
            if ours.text != text:
                misses.append(f"- {name} in {target}: detourage {ours.encoding} ({ours.reason}); "
                              f"charset-normalizer {best.encoding if best else None}")
    lines = ["| codec | text | pages | detourage right | charset-normalizer right |", "|---|---|--:|--:|--:|"]
    total = [0, 0, 0]
    for (target, kind), (n, ours_right, theirs_right) in sorted(rows.items()):
        lines.append(f"| {target} | {kind} | {n} | {ours_right} | {theirs_right} |")
        total = [a + b for a, b in zip(total, (n, ours_right, theirs_right))]
    lines.append(f"| **all** | | {total[0]} | {total[1]} | {total[2]} |")
    return "\n".join([*lines, "", f"detourage's misses ({len(misses)}):", *misses])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _common.add_datasets(parser)
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME",
                        help="check only these datasets (default: every folder with html/)")
    _common.add_json(parser, "the figures and every hit")
    parser.add_argument("--short", action="store_true",
                        help="one line per page whose own bytes hold the damage (no snippet)")
    parser.add_argument("--outputs", type=Path, default=None, metavar="PATH",
                        help="write every page's codec, reason and output digest as JSON")
    parser.add_argument("--compare", type=Path, default=None, metavar="PATH",
                        help="list the pages whose output differs from an earlier --outputs file")
    parser.add_argument("--tolerance", action="store_true",
                        help="only measure how few invalid sequences wrong multibyte codecs leave")
    parser.add_argument("--undeclared", action="store_true",
                        help="only read undeclared legacy pages, beside charset-normalizer's detection")
    args = parser.parse_args(argv)
    if not args.datasets.is_dir():
        parser.exit(2, f"decode_check: datasets folder not found: {args.datasets} (use --datasets)\n")
    folders = sorted(p for p in args.datasets.iterdir() if (p / "html").is_dir())
    if args.only is not None:
        folders = [p for p in folders if p.name in args.only]
    if not folders:
        sys.exit(f"decode_check: no dataset with an html/ folder under {args.datasets}")

    if args.tolerance:
        print(tolerance(folders))
        return 0
    if args.undeclared:
        print(undeclared(folders))
        return 0
    hits: list[Hit] = []
    outputs: dict[str, list[str]] = {}
    stats = [check_dataset(folder, hits, outputs) for folder in folders]
    ours = [h for h in hits if h.where in ("detourage", "crash")]
    theirs = [h for h in hits if h.where == "source"]
    print(f"# Decoding check: fulltext output vs gold and page bytes ({args.datasets})\n")
    print(table(stats))
    print("\nEncoding decisions (reason head / codec):")
    print(decisions(stats))
    print("\nDamage attributed to detourage (target: none):")
    print(hit_list(ours, long=True))
    print(f"\nDamage already in the page bytes (information; {len({(h.dataset, h.id) for h in theirs})} pages):")
    print(hit_list(theirs, long=not args.short))
    bad_pages = len({(h.dataset, h.id) for h in ours})
    if args.compare:
        print("\n" + compare(json.loads(args.compare.read_text(encoding="utf-8")), outputs))
    if args.outputs:
        args.outputs.write_text(json.dumps(outputs, ensure_ascii=False, indent=0), encoding="utf-8")
    print(f"\nTarget 0 pages damaged by detourage: {'PASS' if bad_pages == 0 else f'FAIL ({bad_pages} pages)'}")
    if args.json:
        args.json.write_text(json.dumps({
            "datasets": [{**asdict(s), "reasons": dict(s.reasons), "encodings": dict(s.encodings)}
                         for s in stats],
            "markers": {name: p.pattern for name, p in MARKERS.items()},
            "hits": [asdict(h) for h in hits],
            "pages_damaged_by_detourage": bad_pages,
        }, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0 if bad_pages == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
