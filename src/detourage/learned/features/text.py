"""The ``text`` group: a paragraph's shape (length, words, punctuation, digits,
capitals, separators), stop words of the shipped lists, copyright and year marks."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ...compiled import optional


@lru_cache(maxsize=1)
def _char_classes() -> np.ndarray:
    """Class of every code point: 0 other letter/mark, 1 lower, 2 upper, 3 digit, 4 space,
    5 comma, 6 sentence end, 7 other punctuation, 8 separator, 9 CJK."""
    table = np.zeros(TABLE, dtype=np.uint8)
    for c in range(0x10000):
        ch = chr(c)
        if ch.islower():
            table[c] = 1
        elif ch.isupper():
            table[c] = 2
        elif ch.isdigit():
            table[c] = 3
        elif ch.isspace() or c == 0:
            table[c] = 4
        elif not ch.isalnum() and not ch.isalpha():
            table[c] = 7
    for ch in ",，、;；":
        table[ord(ch)] = 5
    for ch in ".!?。！？…":
        table[ord(ch)] = 6
    for ch in "|•·»«›‹/\\>—–-_=*~#©®™":
        table[ord(ch)] = 8
    table[0x3400:0x4DC0] = 9
    table[0x4E00:0xA000] = 9
    table[0xF900:0xFB00] = 9
    table[0x3040:0x3100] = 9
    table[0xAC00:0xD7B0] = 9
    return table


N_CLASSES = 10


#: size of the per-code-point tables: the BMP, and one entry for everything above it
TABLE = 0x10001


@lru_cache(maxsize=1)
def _stopwords() -> tuple[frozenset[str], np.ndarray]:
    """The shipped stop lists of every language (one set), and the Chinese stop characters
    as a code-point mask."""
    from ...methods.justext import LANGUAGES, stoplist

    words = frozenset().union(*(stoplist(lang) for lang in LANGUAGES if lang != "zh"))
    mask = np.zeros(TABLE, dtype=bool)
    for ch in stoplist("zh") if "zh" in LANGUAGES else ():
        if len(ch) == 1 and ord(ch) < TABLE - 1:
            mask[ord(ch)] = True
    return words, mask


@lru_cache(maxsize=1)
def _stop_set() -> Any:  # a compiled WordSet (the compiled modules have no stubs)
    """The stop words as the compiled passes' hashed set."""
    assert _cfeatures is not None  # called only by the compiled passes
    return _cfeatures.WordSet(_stopwords()[0])


def _text(texts: list[str], joined: str, lowered: str,
          out: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Character-class counts of every paragraph, and the stop words (of ``lowered``:
    ``joined``, the paragraphs joined by ``\x1f``, lower-cased)."""
    n = len(texts)
    stopwords, cjk_stop = _stopwords()
    stats = _compiled_char_stats if _compiled_char_stats is not None else char_stats_numpy
    counts, split_words, stop_cjk, ends, upper = stats(texts, _char_classes(), cjk_stop.view(np.uint8),
                                                       _ending_table().view(np.uint8))
    chars = np.fromiter(map(len, texts), dtype=np.float64, count=n)
    words = np.maximum(split_words, counts[:, 9])  # a CJK character is a word
    if _compiled_stop_counts is not None:
        stop = _compiled_stop_counts(lowered, n, _stop_set())
    else:  # the words of str.split, in order: the table's spaces are str.isspace's
        is_stop = np.fromiter(map(stopwords.__contains__, lowered.split()), dtype=np.float64)
        stop = np.bincount(np.repeat(np.arange(n), split_words), weights=is_stop, minlength=n)
    safe = np.maximum(chars, 1)
    safe_words = np.maximum(words, 1)
    punct = counts[:, 5] + counts[:, 6] + counts[:, 7]
    out.update(
        log_chars=np.log1p(chars), log_words=np.log1p(words),
        mean_word_len=np.minimum(chars / safe_words, 30),
        share_lower=counts[:, 1] / safe, share_upper=counts[:, 2] / safe,
        share_digit=counts[:, 3] / safe, share_punct=punct / safe, share_cjk=counts[:, 9] / safe,
        commas=np.log1p(counts[:, 5]), sentence_ends=np.log1p(counts[:, 6]),
        separators=np.log1p(counts[:, 8]), punct_per_word=punct / safe_words,
        stop_ratio=stop / safe_words, stop_cjk_ratio=stop_cjk / np.maximum(counts[:, 9], 1),
        ends_sentence=ends, starts_upper=upper,
    )
    if _compiled_marks is not None:
        year, held = _compiled_marks(joined, n)
        out["has_year"] = year * (counts[:, 3] >= 4)  # the same candidates as below
        out["has_copyright"] = held
    else:
        out["has_copyright"] = _holding(joined, chars, COPYRIGHT_MARKS)
        out["has_year"] = _marks(texts, _YEAR, counts[:, 3] >= 4)
    return chars, words, stop + stop_cjk


def char_stats_numpy(texts: list[str], classes: np.ndarray, cjk_stop: np.ndarray,
                     ending: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per paragraph: character-class counts (paragraphs, N_CLASSES), word starts, CJK stop
    characters, ends like a sentence, starts upper-case; one numpy pass over the page (the
    compiled ``_cfeatures.char_stats`` is its twin)."""
    n = len(texts)
    joined = "\x1f".join(texts)  # a whitespace character no block text holds
    # code points above the BMP share the last table entry (class 0, no stop, no ending):
    # 64 Ki-entry tables stay in the CPU cache, 1.1 Mi-entry ones do not
    codes = np.minimum(np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32), TABLE - 1)
    kinds = classes[codes]
    owner = (codes == 0x1F).cumsum()  # paragraph of each character (separators go with the next)
    counts = np.bincount(owner * N_CLASSES + kinds, minlength=n * N_CLASSES)
    counts = counts.reshape(n, N_CLASSES).astype(np.float64)
    counts[1:, 4] -= 1  # the separator
    space = kinds == 4
    starts_word = ~space & np.r_[True, space[:-1]]
    split_words = np.bincount(owner, weights=starts_word, minlength=n).astype(np.int64)
    stop_cjk = np.bincount(owner, weights=cjk_stop[codes], minlength=n)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    begin = np.r_[0, (lengths[:-1] + 1).cumsum()].astype(np.int64)  # offset of each paragraph
    nonempty = lengths > 0
    last = np.r_[codes, 0][np.maximum(begin + lengths - 1, 0)]  # padded: a page may hold no character
    ends = (ending[last] & nonempty).astype(np.float64)
    upper = ((np.r_[kinds, 0][begin] == 2) & nonempty).astype(np.float64)
    return counts, split_words, stop_cjk, ends, upper


@lru_cache(maxsize=1)
def _ending_table() -> np.ndarray:
    """Code points that end a sentence-like paragraph."""
    table = np.zeros(TABLE, dtype=bool)
    table[[ord(c) for c in ".!?。！？…:;\"'”»)"]] = True
    return table


def _marks(texts: list[str], pattern: re.Pattern[str], candidates: np.ndarray) -> np.ndarray:
    """1 for the paragraphs among ``candidates`` where ``pattern`` matches, else 0 (one
    search over the candidates joined by ``\x1f``, which the patterns never match)."""
    out = np.zeros(len(texts))
    which = candidates.nonzero()[0]
    if not len(which):
        return out
    chosen = [texts[i] for i in which.tolist()]
    at = [m.start() for m in pattern.finditer("\x1f".join(chosen))]
    if at:
        begin = np.cumsum([0] + [len(t) + 1 for t in chosen[:-1]])
        out[which[np.searchsorted(begin, at, side="right") - 1]] = 1.0
    return out


#: a paragraph holding one of these has ``has_copyright``
COPYRIGHT_MARKS = ("©", "opyright")


def _holding(joined: str, chars: np.ndarray, needles: Sequence[str]) -> np.ndarray:
    """1 for the paragraphs (``joined`` by ``\x1f``, ``chars`` long) that hold one of
    ``needles``, else 0: ``str.find`` over the whole text, far faster than a regular
    expression's alternation tried at every position."""
    at = []
    for needle in needles:
        i = joined.find(needle)
        while i >= 0:
            at.append(i)
            i = joined.find(needle, i + 1)
    out = np.zeros(len(chars))
    if at:
        lengths = chars + 1
        out[np.searchsorted(lengths.cumsum() - lengths, at, side="right") - 1] = 1.0
    return out


_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


_cfeatures = optional("learned._cfeatures")
#: ``str.lower``, or its compiled twin (one table lookup a character below U+10000)
lower: Callable[[str], str] = str.lower if _cfeatures is None else _cfeatures.lower
_compiled_char_stats = None if _cfeatures is None else _cfeatures.char_stats
_compiled_stop_counts = None if _cfeatures is None else _cfeatures.stop_counts
_compiled_marks = None if _cfeatures is None else _cfeatures.marks
