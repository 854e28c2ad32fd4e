"""Corpus statistics (seed 000 §3, Tables 1–5): paragraphs, lines, words, characters and
files per language, for the raw pages, the gold and each method's output.

The seed counted with command-line tools (its ``scripts/stat.py`` runs, per file,
``grep '<p>' | wc -l``, ``wc -l``, ``wc -w`` and ``wc -c``), so its "caractères" column
is *bytes*.  On the DANIEL pages that are unchanged since then (all of ``el``) these
rules give the seed's Table 1 figures to the unit; they are kept for ``kind="raw"``:

- ``paragraphs``: lines that contain ``<p>`` (case-sensitive, as ``grep '<p>'``; a
  ``<p class=…>`` is not counted, two ``<p>`` on one line count once);
- ``lines``: newline characters (``wc -l``);
- ``words``: runs of characters between whitespace, where whitespace is what glibc's
  ``iswspace`` says (ASCII spaces and controls ``\\t\\n\\v\\f\\r``, U+1680, U+2000–U+2006,
  U+2008–U+200A, U+2028, U+2029, U+205F, U+3000): no-break spaces (U+00A0, U+2007,
  U+202F) do not separate words.  This is ``wc -w`` of coreutils 8 in a UTF-8 locale, the
  seed's; coreutils 9 also splits at no-break spaces (0.05 % more words on DANIEL);
- ``characters``: Unicode characters (``wc -m``); ``nbytes``: UTF-8 bytes (``wc -c``,
  the seed's "caractères").

A CleanEval text (``kind="cleaneval"``: gold files, method outputs) is read as lines:
blank lines, a ``<text …>`` / ``</text>`` wrapper and a first ``URL:`` line are not
content.  ``paragraphs`` counts the lines opening a ``<p>`` block, like the seed's
``grep '<p>'`` (its gold and its baseline wrote ``<p>`` tags); ``<h>`` and ``<l>`` blocks
are not paragraphs, and a marker with nothing after it opens no block.  ``lines`` counts
the content lines (a block may continue over unmarked lines), and words, characters and
bytes are those of the content lines without their markers (the marker and one space
after it), each line with its newline.  ``kind="plain"`` (an output without markup, such
as Boilerpipe's in Table 4) counts the same way but markers are text: ``paragraphs`` is 0.

Words in unsegmented scripts.  ``wc -w`` is no word count for Chinese, Japanese or Thai,
which put no spaces between words: a whole sentence is one "word" (hence the seed's
12 278 words for 1.1 MB of Chinese gold).  So every count also has ``words_script``:

- for a text in such a language (``lang`` in :data:`UNSEGMENTED_LANGS`), or any text in
  which more than half of the tokens below are letters of such a script, each Han,
  Hiragana, Katakana, Bopomofo, Thai, Lao, Khmer or Myanmar letter is one word (with the
  combining marks that follow it), and the other runs are words cut at whitespace and
  punctuation (a single ``'``, ``’``, ``-``, ``.`` or ``,`` between two word characters
  stays inside: ``don't``, ``H1N1``, ``3.5``, ``1,000``);
- for any other text, and for a text without a single such letter, it is ``words``.

Counting a character as a word overstates the number of words: a segmenter such as
jieba (not a dependency) cuts Chinese news text into words of about 1.5 characters on
average, i.e. about two thirds of this figure.  For Thai, where a word is several
letters, it is only an upper bound.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields, replace
from functools import cache
from itertools import chain
from pathlib import Path
from typing import Any, Literal

from detourage import methods
from detourage.decode import decode
from detourage.errors import DetourageError
from detourage.gold import GoldPage, load_dataset
from detourage.gold.text import UNSEGMENTED_LANGS
from detourage.loading import Job, read_page
from detourage.settings import DEFAULT_LIMITS, TIMEOUT, Settings
from detourage.step import Step
from detourage.supervision import Record, error_record, execute

Kind = Literal["raw", "cleaneval", "plain"]
Source = Literal["raw", "gold", "method"]


#: the key of the all-languages total in :func:`corpus_stats`
ALL = "all"

WORD_NOTE = (
    "words (wc -w): runs between whitespace, as the seed's `wc -w` (no-break spaces do not "
    "separate); a Chinese or Japanese sentence is one such \"word\". "
    "words (script-aware): the same count, except for text in zh/ja/th… or mostly in "
    "Han/Kana/Thai… letters (rows marked †), where each such letter counts as one word and "
    "other runs are cut at whitespace and punctuation; a segmenter such as jieba (not a "
    "dependency) would give about 2/3 of that for Chinese (words of ~1.5 characters). "
    "characters: Unicode characters (`wc -m`); bytes: UTF-8 bytes (`wc -c`, the seed's "
    "\"caractères\")."
)


@dataclass(frozen=True, slots=True)
class TextStats:
    """Counts for one text or, summed with ``+``, for many."""

    paragraphs: int = 0
    lines: int = 0
    #: whitespace-separated tokens (``wc -w``)
    words: int = 0
    #: words counted per script (see the module docstring); ``words`` for spaced text
    words_script: int = 0
    #: letters of unsegmented scripts (Han, Kana, Thai…)
    unsegmented: int = 0
    characters: int = 0
    #: UTF-8 bytes (``wc -c``; for raw pages, the file's size)
    nbytes: int = 0
    files: int = 0
    #: (reason, pages) for the pages that could not be counted, sorted by reason
    failures: tuple[tuple[str, int], ...] = ()

    def __add__(self, other: TextStats) -> TextStats:
        if not isinstance(other, TextStats):
            return NotImplemented
        counts = {f.name: getattr(self, f.name) + getattr(other, f.name)
                  for f in fields(self) if f.name != "failures"}
        failures = Counter(dict(self.failures)) + Counter(dict(other.failures))
        return TextStats(**counts, failures=tuple(sorted(failures.items())))

    @property
    def failed(self) -> int:
        """Number of pages that could not be counted."""
        return sum(n for _, n in self.failures)

    @property
    def mostly_unsegmented(self) -> bool:
        """More than half of the script-aware words are Han/Kana/Thai… letters."""
        return 2 * self.unsegmented > self.words_script


# ------------------------------------------------------------------ one text

#: glibc's iswspace in a UTF-8 locale, i.e. what ``wc -w`` splits at
_WC_SPACE = "\t\n\v\f\r \u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000"
_WC_WORD = re.compile(f"[^{_WC_SPACE}]+")
_MARKER = re.compile(r"\s*<([phl])> ?", re.IGNORECASE)
_WRAPPER = re.compile(r"\s*(<text(\s.*)?>|</text>)\s*$", re.IGNORECASE)
_URL = re.compile(r"\s*URL:", re.IGNORECASE)

#: blocks of the scripts written without spaces; their letters (L*, Nl) are words
_UNSEGMENTED_BLOCKS = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3031, 0x3035), (0x303B, 0x303C),  # kana repeat marks, 〻 〼
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F), (0x31A0, 0x31FF),  # Bopomofo, Katakana extensions
    (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),  # Han
    (0xFF66, 0xFF9F),  # halfwidth Katakana
    (0x1B000, 0x1B16F),  # Kana supplement
    (0x20000, 0x323AF),  # Han extensions B–H
)
#: where combining marks are (planes 0–1 and the variation selectors supplement)
_MARK_BLOCKS = ((0, 0x1FFFF), (0xE0100, 0xE01EF))


def count_text(text: str, *, lang: str | None = None, kind: Kind = "plain") -> TextStats:
    """Counts for one text (``files`` = 1); ``lang`` decides the script-aware word rule."""
    return settle(measure(text, kind), lang)


def measure(text: str, kind: Kind) -> TextStats:
    """Counts that do not depend on the language; ``words_script`` is always per script."""
    if kind == "raw":
        return _measure_raw(text)
    if kind not in ("cleaneval", "plain"):
        raise ValueError(f"unknown kind {kind!r} (known: raw, cleaneval, plain)")
    paragraphs, content = _content(text, markers=kind == "cleaneval")
    body = "".join(line + "\n" for line in content)
    words_script, unsegmented = _script_words(body)
    return TextStats(
        paragraphs=paragraphs, lines=len(content), words=_wc_words(body),
        words_script=words_script, unsegmented=unsegmented, characters=len(body),
        nbytes=_utf8_len(body), files=1,
    )


def settle(stats: TextStats, lang: str | None) -> TextStats:
    """Keep the per-script word count only where the text is in an unsegmented script."""
    if (lang or "").lower() in UNSEGMENTED_LANGS or stats.mostly_unsegmented:
        return stats
    return replace(stats, words_script=stats.words)


def _measure_raw(text: str) -> TextStats:
    words_script, unsegmented = _script_words(text)
    return TextStats(
        paragraphs=sum(1 for line in text.split("\n") if "<p>" in line),
        lines=text.count("\n"), words=_wc_words(text), words_script=words_script,
        unsegmented=unsegmented, characters=len(text), nbytes=_utf8_len(text), files=1,
    )


def _content(text: str, *, markers: bool) -> tuple[int, list[str]]:
    """(paragraphs, content lines): blank and wrapper lines dropped, markers removed."""
    lines = [line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n") if line.strip()]
    if not markers:
        return 0, lines
    lines = [line for line in lines if not _WRAPPER.match(line)]
    if lines and _URL.match(lines[0]):
        lines = lines[1:]
    paragraphs, content = 0, []
    for line in lines:
        if m := _MARKER.match(line):
            line = line[m.end():]
            if m.group(1).lower() == "p" and line.strip():
                paragraphs += 1
        if line.strip():
            content.append(line)
    return paragraphs, content


def _wc_words(text: str) -> int:
    return len(_WC_WORD.findall(text))


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _script_words(text: str) -> tuple[int, int]:
    """(words counted per script, letters of unsegmented scripts)."""
    unsegmented = len(_unsegmented_letter().findall(text))
    if not unsegmented:  # spaced text: skip the slower tokeniser (words_script is settled)
        return len(_WC_WORD.findall(text)), 0
    return len(_script_token().findall(text)), unsegmented


@cache
def _unsegmented_letter() -> re.Pattern[str]:
    """One letter (category L* or Nl) of an unsegmented script."""
    return re.compile(f"[{_char_class(_UNSEGMENTED_BLOCKS, ('L', 'Nl'))}]")


@cache
def _script_token() -> re.Pattern[str]:
    """An unsegmented letter with its marks, or a run of other word characters."""
    letters = _char_class(_UNSEGMENTED_BLOCKS, ("L", "Nl"))
    marks = _char_class(_MARK_BLOCKS, ("M",))
    word = f"(?:[^\\W{letters}]|[{marks}])"
    run = f"[^\\W{letters}]{word}*"
    return re.compile(f"[{letters}][{marks}]*|{run}(?:['’.,\\-]{run})*")


def _char_class(blocks: Iterable[tuple[int, int]], categories: tuple[str, ...]) -> str:
    """A regex class body of the code points in ``blocks`` whose category starts with one
    of ``categories``, as ranges."""
    parts = []
    for lo, hi in _ranges(cp for start, end in blocks for cp in range(start, end + 1)
                          if unicodedata.category(chr(cp)).startswith(categories)):
        parts.append(re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
    return "".join(parts)


def _ranges(codepoints: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Sorted code points to (first, last) runs."""
    run: list[int] = []
    for cp in codepoints:
        if run and cp == run[1] + 1:
            run[1] = cp
            continue
        if run:
            yield run[0], run[1]
        run = [cp, cp]
    if run:
        yield run[0], run[1]


# ------------------------------------------------------------------- corpus


def corpus_stats(
    dataset_path: str | Path,
    source: Source,
    *,
    method: str | None = None,
    workers: int = 1,
    timeout: float = TIMEOUT,
) -> dict[str, TextStats]:
    """Counts per language (``meta.jsonl`` ``lang``) and for :data:`ALL` languages.

    ``source`` is ``"raw"`` (the ``html/`` files), ``"gold"`` (the gold files) or
    ``"method"`` (``method``'s CleanEval output for each page, through the corpus
    runner, ``timeout`` seconds a page).  A page that cannot be counted (unreadable file,
    gold problem, extraction error) is not in ``files``: it is in ``failures`` with its
    reason.  Languages are sorted, ``"all"`` comes last.
    """
    dataset = load_dataset(dataset_path)
    langs = {doc.id: doc.lang for doc in dataset}
    early, jobs, step = _plan(list(dataset), source, method, timeout)
    totals: dict[str, TextStats] = {}
    for record in chain(early, execute(jobs, step, workers)):
        lang = langs[record["id"]]
        if record["ok"]:
            stats = settle(record["stats"], lang)
        else:
            stats = TextStats(failures=((record["error"], 1),))
        totals[lang] = totals.get(lang, TextStats()) + stats
    out = dict(sorted(totals.items()))
    out[ALL] = sum(totals.values(), TextStats())
    return out


def _plan(
    docs: list[GoldPage], source: Source, method: str | None, timeout: float
) -> tuple[list[Record], list[Job], _CountFile | _CountMethod]:
    """(records of pages failed before any work, jobs, the step that counts a job)."""
    if source == "raw":
        return [], [Job(d.id, path=str(d.html_path)) for d in docs], _CountFile("raw")
    if source == "gold":
        early, jobs = [], []
        for doc in docs:
            if doc.gold_problem or doc.gold_path is None:
                reason = (doc.gold_problem or "missing gold").split(" (")[0]
                early.append(error_record(Job(doc.id), reason, doc.gold_problem or reason))
            elif doc.gold_kind == "snippets":
                early.append(error_record(Job(doc.id), "snippet gold", "snippet gold is no text"))
            else:
                jobs.append(Job(doc.id, path=str(doc.gold_path)))
        return early, jobs, _CountFile("gold")
    if source == "method":
        if not method:
            raise ValueError('source "method" needs a method name')
        methods.chain(method)  # an unknown name fails here, not once per page
        jobs = [Job(d.id, path=str(d.html_path), url=d.meta.get("url")) for d in docs]
        return [], jobs, _CountMethod(Step(settings=Settings(method=method, timeout=timeout), format="cleaneval"))
    raise ValueError(f"unknown source {source!r} (known: raw, gold, method)")


@dataclass(frozen=True, slots=True)
class _CountFile:
    """Count one raw page or gold file; a picklable step for :func:`execute`."""

    source: Literal["raw", "gold"]

    def __call__(self, job: Job) -> Record:
        try:
            assert job.path is not None
            # html/<id>.html.gz: the page as zcat gives it, unpacked no further than the limit
            data = read_page(job.path, DEFAULT_LIMITS.max_bytes)
            if self.source == "raw":
                stats = replace(measure(_raw_text(data), "raw"), nbytes=len(data))
            else:
                stats = measure(data.decode("utf-8"), "cleaneval")
        except DetourageError as exc:  # a page over the size limit: limit:bytes
            return error_record(job, exc.reason, str(exc))
        except Exception as exc:  # noqa: BLE001 - a bad file must become a record
            return error_record(job, f"exception:{type(exc).__name__}", str(exc))
        return {"id": job.id, "ok": True, "stats": stats}


def _raw_text(data: bytes) -> str:
    """The page as ``wc`` reads it in a UTF-8 locale (a BOM is a character); bytes that
    are not UTF-8 are decoded by :func:`detourage.decode.decode`."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return decode(data).text


@dataclass(frozen=True, slots=True)
class _CountMethod:
    """Extract one page with the corpus runner's step, then count its CleanEval output."""

    step: Step

    def __call__(self, job: Job) -> Record:
        record = self.step(job)
        if not record.get("ok"):
            return record
        return {"id": job.id, "ok": True, "stats": measure(record["text"], "cleaneval")}


# -------------------------------------------------------------------- table

_COLUMNS = ("Language", "paragraphs", "lines", "words (wc -w)", "words (script-aware)",
            "characters", "bytes", "files")


def stats_table(stats_by_lang: Mapping[str, TextStats], title: str, *, note: bool = True) -> str:
    """A Markdown table with the seed's columns (plus script-aware words and bytes), then
    a note on how words are counted (unless ``note`` is false: several tables share one
    :data:`WORD_NOTE`) and, if any, the failed pages."""
    lines = [f"**{title}**", "", "| " + " | ".join(_COLUMNS) + " |",
             "|---" + "|--:" * (len(_COLUMNS) - 1) + "|"]
    for lang, s in stats_by_lang.items():
        mark = " †" if lang in UNSEGMENTED_LANGS or s.mostly_unsegmented else ""
        cells = (f"**{lang}**" if lang == ALL else lang, s.paragraphs, s.lines, f"{s.words}{mark}",
                 s.words_script, s.characters, s.nbytes, s.files)
        lines.append("| " + " | ".join(map(str, cells)) + " |")
    if note:
        lines += ["", WORD_NOTE]
    total = stats_by_lang.get(ALL) or sum(stats_by_lang.values(), TextStats())
    if total.failed:
        reasons = ", ".join(f"{r}: {n}" for r, n in total.failures)
        lines.append(f"Not counted: {total.failed} page{'' if total.failed == 1 else 's'} ({reasons}).")
    return "\n".join(lines) + "\n"


def as_dict(stats: TextStats) -> dict[str, Any]:
    """The counts as a JSON-ready dict (failures as {reason: pages})."""
    out: dict[str, Any] = {f.name: getattr(stats, f.name) for f in fields(stats)}
    out["failures"] = dict(stats.failures)
    return out


__all__ = [
    "ALL", "Kind", "Source", "TextStats", "WORD_NOTE",
    "as_dict", "corpus_stats", "count_text", "measure", "settle", "stats_table",
]
