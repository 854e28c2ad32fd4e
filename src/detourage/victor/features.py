"""The features of seed 003 §4 for every block of a page, in one pass, discretised.

Victor's blocks are detourage's blocks (split on every tag, ``<pre>`` per line, img alt
text as a block): ``Block.path`` is Victor's ``containers``, ``Block.crossed`` its
``distance``.  The div- and td-groups (§4.2) come from the block's node: the group of a
block is its nearest enclosing ``<div>`` (``<td>``).

:func:`raw` computes every feature as a number (one loop over the blocks, then the
document-level ones with numpy); :func:`compute` discretises the columns the CRF uses
(``feature-X-values``: largest threshold ≤ x, ``feature-X-scale``: ratio buckets);
:func:`items` turns the discretised matrix into CRFsuite items through the templates.
Only non-zero values become attributes, plus a ``bias`` attribute on every block: with
the bias, leaving out the zero bucket loses nothing (it is the reference level), and it
keeps items small, which is what makes tagging cheap.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np
from lxml import etree

from ..compiled import optional
from ..model import Block
from .config import Config

#: punctuation characters of the Basic Multilingual Plane (Unicode category P*)
_PUNCT = frozenset(chr(c) for c in range(0x10000) if unicodedata.category(chr(c)).startswith("P"))
_STRIP = "".join(sorted(c for c in _PUNCT if ord(c) < 0x3100)) + "「」『』【】《》〈〉，。、；：？！"
#: a whole run of sentence marks followed by a space, a closer or the end: it starts only
#: where a run does and never backtracks (else a long run of dots before a letter is
#: read again from each of its dots: quadratic)
_MARKS = "[.!?。！？…]"
_SENTENCE_END = re.compile(f"{_MARKS}(?<!{_MARKS}{_MARKS}){_MARKS}*+" r"(?=[\s\"'”’»)\]]|$)")
_ENDS_SENTENCE = re.compile(r"[.!?。！？…][\"'”’»)\]]*$")
_NUMBER = re.compile(r"[+-]?\d[\d.,:/%-]*")
_OPENERS = frozenset("\"'“‘«„¿¡(")
_CONTENT_WORDS = frozenset({"article", "content", "post", "story", "entry", "text", "body", "main",
                            "blogpost", "articlebody", "story-body", "post-content", "entry-content"})


@dataclass(frozen=True, slots=True)
class Matrix:
    """Discretised features: one row per block, one column per ``names`` entry."""

    names: tuple[str, ...]
    values: np.ndarray  # int32, (blocks, features)

    def row(self, i: int) -> dict[str, int]:
        return dict(zip(self.names, self.values[i].tolist()))


def compute(blocks: Sequence[Block], config: Config) -> Matrix:
    """The CRF's view of the blocks: the configured features, discretised."""
    columns = raw(blocks, config)
    names = config.features
    values = np.zeros((len(blocks), len(names)), dtype=np.int32)
    for j, (name, kind, arg) in enumerate(_bins(config)):
        values[:, j] = discretise(columns[name], kind, arg)
    np.minimum(values, MAX_VALUE - 1, out=values)
    return Matrix(names, values)


@lru_cache(maxsize=64)
def _bins(config: Config) -> tuple[tuple[str, str, np.ndarray | int], ...]:
    """(feature, kind, thresholds as an array or scale) for every CRF column."""
    out = []
    for name in config.features:
        kind, arg = config.bins(name)
        out.append((name, kind, np.asarray(arg, dtype=np.float64) if kind == "values" else arg))
    return tuple(out)  # type: ignore[arg-type]  # "values" made an array above; the others are ints


def discretise(x: np.ndarray, kind: str, arg: tuple[float, ...] | np.ndarray | int) -> np.ndarray:
    """Victor's mappings: index of the largest threshold ≤ x, or ``floor(ratio × scale)``."""
    if kind == "values":
        return np.maximum(np.searchsorted(np.asarray(arg), x, side="right") - 1, 0)
    if kind == "scale":
        n = int(arg)  # type: ignore[arg-type]  # a scale's arg is an int
        return np.minimum(np.floor(np.clip(x, 0.0, 1.0) * n), n - 1).astype(np.int32)
    return x.astype(np.int32)


# --------------------------------------------------------------------- raw features


def raw(blocks: Sequence[Block], config: Config) -> dict[str, np.ndarray]:
    """Every feature of every block as a number (counts, ratios, flags, indexes)."""
    rules = _rules(config)
    texts = [b.text for b in blocks]
    out = _char_classes(texts)
    if _compiled is not None:
        table, keys = _compiled.scan(texts, rules.stopwords, _strip_table())
    else:
        table, keys = _scan_all(texts, rules.stopwords)
    out.update({name: table[:, j] for j, name in enumerate(SCAN_COLUMNS)})
    out.update(_expressions(texts, out["char.num"], rules))
    out["link.chars"] = np.fromiter((b.link_chars for b in blocks), dtype=np.float64, count=len(blocks))
    out.update(_ratios(out))
    out.update(_markup(blocks, rules))
    out.update(_duplicates(keys))
    out.update(_document(blocks, out))
    return out


#: what :func:`scan` counts in a block's text (the compiled ``_cvictor.scan`` returns the
#: same columns)
SCAN_COLUMNS = ("token.alpha-abs", "token.num-abs", "token.mix-abs", "token.other-abs",
                "stopwords", "sentence.count", "sentence.begin", "sentence.end")


def _scan_all(texts: Sequence[str], stopwords: frozenset[str]) -> tuple[np.ndarray, list[str]]:
    table = np.zeros((len(texts), len(SCAN_COLUMNS)), dtype=np.float64)
    keys = []
    for i, text in enumerate(texts):
        *row, key = scan(text, stopwords)
        table[i] = row
        keys.append(key)
    return table, keys


def scan(text: str, stopwords: frozenset[str]) -> tuple[int, int, int, int, int, int, int, int, str]:
    """Token classes, stop words, sentences and the duplicate key of one block's text.

    Tokens are the space-separated words with punctuation stripped from their ends: a
    word (letters only), a number (``[+-]?digit[digits.,:/%-]*``), a mix (letters and
    digits) or other.  A sentence ends at a run of ``.!?。！？…`` followed by a space, a
    closing quote or bracket, or the end.  The duplicate key is the block's letters,
    lower-cased.  (The reference of the compiled ``_cvictor.scan``.)
    """
    t_alpha = t_num = t_mix = t_other = stop = 0
    for token in text.split():
        core = token.strip(_STRIP)
        if core.isalpha():
            t_alpha += 1
            stop += core.lower() in stopwords
        elif _NUMBER.fullmatch(core):
            t_num += 1
        elif any(map(str.isalpha, core)) and any(map(str.isdecimal, core)):
            t_mix += 1
        else:
            t_other += 1
    first = text[:1]
    begin = first.isupper() or first in _OPENERS or (first.isalpha() and not first.islower())
    sentences = len(_SENTENCE_END.findall(text))
    end = _ENDS_SENTENCE.search(text) is not None
    key = "".join(filter(str.isalpha, text)).lower()
    return t_alpha, t_num, t_mix, t_other, stop, sentences, int(begin), int(end), key


def _expressions(texts: Sequence[str], digits: np.ndarray, rules: _Rules) -> dict[str, np.ndarray]:
    """regexp.url / date / time and bullet, each computed only on the blocks that can match:

    - a set with ``regexp-X-requires`` searches the whole page once for those strings
      (blocks joined by newlines; block texts hold none) and looks at the blocks a hit
      falls in;
    - a set whose every expression needs a digit looks at the blocks with a digit;
    - otherwise every block; a combined expression (anchored ones: one ``match``) is
      tried first, and only a block it matches is searched expression by expression.
    Most blocks match nothing: this spares the searches that dominate the cost.
    """
    n = len(texts)
    if rules.window:
        texts = [t[:rules.window] for t in texts]
    joined = "\n".join(texts) if n else ""
    ends = np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=n) + 1)
    with_digit = np.nonzero(digits > 0)[0].tolist()
    out = {}
    for name, patterns, value in (("regexp.url", rules.url, rules.url.first),
                                  ("regexp.date", rules.date, rules.date.first),
                                  ("regexp.time", rules.time, rules.time.first),
                                  ("bullet", rules.bullets, rules.bullets.bits)):
        column = np.zeros(n)
        if patterns.each:
            if patterns.requires is not None and joined.count("\n") == n - 1:
                todo: Iterable[int] = patterns.blocks_with_required(joined, ends)
            else:
                todo = with_digit if patterns.need_digit else range(n)
            test = patterns.any
            for i in todo:
                if test(texts[i]) is not None:
                    column[i] = value(texts[i])
        out[name] = column
    return out


def _char_classes(texts: list[str]) -> dict[str, np.ndarray]:
    """Letters, digits, punctuation, spaces per block: one table lookup over the page."""
    n = len(texts)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    out = {"char.count": lengths.astype(np.float64)}
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32)
    classes = _class_table()[np.minimum(codes, 0x10000)]
    ends = np.cumsum(lengths)
    starts = ends - lengths
    for k, name in enumerate(("char.alpha", "char.num", "char.punct", "char.white"), 1):
        running = np.concatenate(([0], np.cumsum(classes == k)))
        out[name] = (running[ends] - running[starts]).astype(np.float64)
    return out


@lru_cache(maxsize=1)
def _strip_table() -> np.ndarray:
    """1 for the BMP characters :func:`scan` strips from the ends of a token."""
    table = np.zeros(0x10000, dtype=np.uint8)
    table[[ord(c) for c in _STRIP]] = 1
    return table


@lru_cache(maxsize=1)
def _class_table() -> np.ndarray:
    """Character class per BMP code point: 1 letter, 2 digit, 3 punctuation, 4 space,
    0 anything else (the last entry stands for every astral character)."""
    table = np.zeros(0x10001, dtype=np.uint8)
    for c in range(0x10000):
        ch = chr(c)
        if ch.isalpha():
            table[c] = 1
        elif ch.isdigit():
            table[c] = 2
        elif ch in _PUNCT:
            table[c] = 3
        elif ch.isspace():
            table[c] = 4
    return table


def _ratios(c: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    chars = np.maximum(c["char.count"], 1)
    tokens = c["token.alpha-abs"] + c["token.num-abs"] + c["token.mix-abs"] + c["token.other-abs"]
    words = np.maximum(tokens, 1)
    other = c["char.count"] - c["char.alpha"] - c["char.num"] - c["char.punct"] - c["char.white"]
    avg = np.where(c["sentence.count"] > 0, tokens / np.maximum(c["sentence.count"], 1), tokens)
    return {
        "char.alpha-rel": c["char.alpha"] / chars, "char.num-rel": c["char.num"] / chars,
        "char.punct-rel": c["char.punct"] / chars, "char.white-rel": c["char.white"] / chars,
        "char.other-rel": np.maximum(other, 0) / chars,
        "token.alpha-rel": c["token.alpha-abs"] / words, "token.num-rel": c["token.num-abs"] / words,
        "token.mix-rel": c["token.mix-abs"] / words, "token.other-rel": c["token.other-abs"] / words,
        "token.count": tokens, "sentence.avg-length": avg,
        "link.density": c["link.chars"] / chars,
        "stopword.density": c["stopwords"] / np.maximum(c["token.alpha-abs"], 1),
    }


def _duplicates(keys: list[str]) -> dict[str, np.ndarray]:
    """duplicate-count: blocks with the same letters; first-duplicate: the first of them."""
    counts = Counter(keys)
    seen: set[str] = set()
    first = np.zeros(len(keys))
    dup = np.zeros(len(keys))
    for i, key in enumerate(keys):
        dup[i] = counts[key] if key else 1
        if key and counts[key] > 1 and key not in seen:
            first[i] = 1
            seen.add(key)
    return {"duplicate-count": dup, "first-duplicate": first}


# --------------------------------------------------------------------- markup features


def _markup(blocks: Sequence[Block], rules: _Rules) -> dict[str, np.ndarray]:
    """container.*, split.*, and the node-based group / class-id facts."""
    n = len(blocks)
    names = [*rules.container_names, *rules.split_names]
    column = {name: j for j, name in enumerate(names)}
    index: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
    rows: list[list[float]] = []
    which = []
    known = rules.rows
    if len(known) > 100_000:  # bounded memory over a long crawl
        known.clear()
    for block in blocks:  # one row per distinct (path, crossed): blocks and pages share them
        key = (block.path, block.crossed)
        k = index.get(key)
        if k is None:
            k = index[key] = len(rows)
            row = known.get(key)
            if row is None:
                row = known[key] = _markup_row(key, rules, column)
            rows.append(row)
        which.append(k)
    table = np.array(rows, dtype=np.float64).reshape(len(rows), len(names))[which] if n else np.zeros((0, len(names)))
    nodes = [b.node for b in blocks]
    if _compiled is not None:
        facts = _compiled.groups(nodes, class_id_flags)
    else:
        groups = _Groups()
        facts = np.array([groups.of(node) for node in nodes], dtype=np.int64).reshape(n, 4)
    out = {name: table[:, j] for j, name in enumerate(names)}
    return {**out, "div-group": _dense(facts[:, 0]), "td-group": _dense(facts[:, 1]),
            "classid.noise": facts[:, 2].astype(np.float64), "classid.content": facts[:, 3].astype(np.float64)}


def _dense(ids: np.ndarray) -> np.ndarray:
    """Group ids renumbered 1, 2, … (0, no group, stays 0)."""
    if not ids.size:
        return ids
    values, inverse = np.unique(ids, return_inverse=True)
    return inverse.reshape(-1) + (0 if values[0] == 0 else 1)


def _markup_row(key: tuple[tuple[str, ...], tuple[str, ...]], rules: _Rules,
                column: dict[str, int]) -> list[float]:
    """The container flags and split counts of one (path, crossed) pair."""
    path, crossed = key
    row = [0.0] * len(column)
    containers, splits = rules.containers, rules.splits
    for tag in set(path):
        for name in containers.get(tag, ()):
            row[column[name]] = 1.0
    for tag in crossed:
        for name in splits.get(tag[1:] if tag[0] == "/" else tag, ()):
            row[column[name]] += 1.0
    return row


class _Groups:
    """Per element: (nearest div id, nearest td id, noise class/id seen, content class/id
    seen) over its ancestors-or-self, memoised so every element is visited once."""

    def __init__(self) -> None:
        self.cache: dict[etree._Element, tuple[int, int, int, int]] = {}

    def of(self, node: etree._Element | None) -> tuple[int, int, int, int]:
        if node is None:
            return (0, 0, 0, 0)
        chain = []
        el: etree._Element | None = node
        while el is not None and el not in self.cache:
            chain.append(el)
            el = el.getparent()
        info = self.cache[el] if el is not None else (0, 0, 0, 0)
        for el in reversed(chain):
            info = self._step(el, info)
            self.cache[el] = info
        return info

    def _step(self, el: etree._Element, parent: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        div, td, noise, content = parent
        tag = el.tag
        if tag == "div":
            div = len(self.cache) + 1
        elif tag == "td" or tag == "th":
            td = len(self.cache) + 1
        if not (noise and content):
            attrs = (el.get("class") or "") + " " + (el.get("id") or "")
            if attrs.strip():
                is_noise, is_content = class_id_flags(attrs)
                noise = noise or is_noise
                content = content or is_content
        return div, td, noise, content


@lru_cache(maxsize=4096)
def class_id_flags(text: str) -> tuple[int, int]:
    """(noise, content): whether a word of the class and id text of one element is in
    eatiht's useless-section vocabulary, or among the usual names of a main column."""
    tokens = set(_CLASS_ID_SPLIT.split(text.lower()))
    return int(not tokens.isdisjoint(_noise_words())), int(not tokens.isdisjoint(_CONTENT_WORDS))


_CLASS_ID_SPLIT = re.compile(r"[\s_-]+")


@lru_cache(maxsize=1)
def _noise_words() -> frozenset[str]:
    text = resources.files("detourage").joinpath("data", "eatiht_useless.txt").read_text("utf-8")
    return frozenset(w for line in text.splitlines() if not line.startswith("#") for w in line.split())


_compiled = optional("victor._cvictor")


# --------------------------------------------------------------------- document features


def _document(blocks: Sequence[Block], c: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Group word ratios, position, document counts and the paragraph text density."""
    n = len(blocks)
    words = c["token.count"]
    free = np.where(c["link.chars"] > 0, 0.0, words)  # words not inside <a>
    total = max(free.sum(), 1.0)
    out = {}
    for name in ("div", "td"):
        group = c[f"{name}-group"]
        sums = np.bincount(group, weights=free) if n else np.zeros(1)
        ratio = np.where(group > 0, sums[group] / total, 0.0)
        out[f"{name}-group.word-ratio"] = ratio
        grouped = sums[1:]
        out[f"document.max-{name}-group"] = np.full(n, grouped.max() / total if grouped.size else 0.0)
    out["position"] = np.arange(n) / max(n, 1)
    out["document.word-count"] = np.full(n, words.sum())
    out["document.sentence-count"] = np.full(n, c["sentence.count"].sum())
    out["document.block-count"] = np.full(n, float(n))
    out["text.density"] = _text_density(blocks, words, c["char.count"])
    return out


def _text_density(blocks: Sequence[Block], words: np.ndarray, chars: np.ndarray) -> np.ndarray:
    """Boilerpipe's text density of the block's paragraph: words per 80-column line."""
    if not blocks:
        return np.zeros(0)
    para = np.fromiter((b.paragraph for b in blocks), dtype=np.int64, count=len(blocks))
    para = para - para.min()
    w = np.bincount(para, weights=words)
    ch = np.bincount(para, weights=chars + 1)
    lines = np.maximum(np.ceil(ch / 80.0), 1.0)
    return (w / lines)[para]


# --------------------------------------------------------------------- configuration rules


class _Rules:
    """The configuration compiled for one pass: tag → feature names, regexps, stop words."""

    def __init__(self, config: Config) -> None:
        self.containers: dict[str, list[str]] = {}
        for tag in config.get("container-tags"):
            self.containers.setdefault(tag, []).append(f"container.{tag}")
        self.splits: dict[str, list[str]] = {}
        for tag in config.get("split-tags"):
            self.splits.setdefault(tag, []).append(f"split.{tag}")
        for key, tags in config.variables.items():
            for kind, table in (("container", self.containers), ("split", self.splits)):
                if key.startswith(f"{kind}-class-"):  # container-class-bold → container.class-bold
                    for tag in tags:
                        table.setdefault(tag, []).append(f"{kind}.{key[len(kind) + 1:]}")
        self.container_names = sorted({n for names in self.containers.values() for n in names})
        #: markup rows already computed, by (path, crossed), across pages
        self.rows: dict[tuple[tuple[str, ...], tuple[str, ...]], list[float]] = {}
        self.split_names = sorted({n for names in self.splits.values() for n in names})
        self.url = _Patterns(config.get("regexp-url"), config.get("regexp-url-requires"))
        self.date = _Patterns(config.get("regexp-date"))
        self.time = _Patterns(config.get("regexp-time"))
        self.bullets = _Patterns(config.get("bullet-patterns"))
        #: characters of a block the expressions look at (0: all)
        self.window = int(config.value("regexp-window", "0"))
        self.stopwords = _stopwords()


class _Patterns:
    """A list of expressions, one combined expression that tells whether any matches, and
    what a block must hold to match (:func:`_expressions`)."""

    def __init__(self, expressions: Sequence[str], requires: Sequence[str] = ()) -> None:
        self.each = [re.compile(e) for e in expressions]
        scoped = [f"(?{e[2:e.index(')')]}:{e[e.index(')') + 1:]})" if e.startswith("(?") and
                  re.match(r"\(\?[aiLmsux]+\)", e) else f"(?:{e})" for e in expressions]
        combined = re.compile("|".join(scoped))
        #: all anchored at the start: one match attempt, not a scan
        anchored = all(e.startswith("^") for e in expressions)
        self.any = combined.match if anchored else combined.search
        #: every expression needs a digit (``\d``)
        self.need_digit = bool(expressions) and all(r"\d" in e for e in expressions)
        #: the strings one of which every match contains (``regexp-X-requires``), any case
        self.requires = (re.compile("|".join(map(re.escape, requires)), re.IGNORECASE)
                         if requires else None)

    def blocks_with_required(self, joined: str, ends: np.ndarray) -> list[int]:
        """Indexes of the blocks holding a required string (``ends``: block end + 1 in
        ``joined``, the blocks joined by newlines)."""
        assert self.requires is not None
        starts = [m.start() for m in self.requires.finditer(joined)]
        if not starts:
            return []
        return sorted(set(np.searchsorted(ends, np.array(starts), side="right").tolist()))

    def first(self, text: str) -> int:
        """The number of the first expression that matches (1-based), 0 for none."""
        for i, pattern in enumerate(self.each, 1):
            if pattern.search(text):
                return i
        return 0

    def bits(self, text: str) -> int:
        """One bit per matching expression."""
        return sum(1 << i for i, p in enumerate(self.each) if p.search(text))


@lru_cache(maxsize=8)
def _rules(config: Config) -> _Rules:
    """The configuration compiled once per configuration."""
    return _Rules(config)


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    """The union of the shipped jusText stop lists: language-independent stop-word density."""
    words: set[str] = set()
    root = resources.files("detourage").joinpath("data")
    for entry in root.iterdir():
        if entry.name.startswith("stoplist_") and entry.name != "stoplist_zh.txt":
            words.update(w.strip().lower() for w in entry.read_text("utf-8").splitlines() if w.strip())
    return frozenset(words)


# --------------------------------------------------------------------- CRF items


def items(matrix: Matrix, config: Config) -> list[list[str]]:
    """CRFsuite items: per block the ``offset:feature=value`` attributes of the templates,
    plus ``bias`` on every block (no begin / end-of-page attributes: every training page
    ends with a footer, and such an attribute learns "the last block is noise", which is
    wrong on a page without one; ``position`` says where a block is)."""
    n, names = len(matrix.values), matrix.names
    rows: list[np.ndarray] = []
    strings: list[np.ndarray] = []
    for offset, cols in template_columns(config, names):
        r, s = _attributes(matrix.values, cols, names, offset, n)
        rows.append(r)
        strings.append(s)
    out: list[list[str]] = [["bias"] for _ in range(n)]
    if n and rows:
        r = np.concatenate(rows)
        s = np.concatenate(strings)
        order = np.argsort(r, kind="stable")
        bounds = np.searchsorted(r[order], np.arange(n + 1))
        flat = s[order].tolist()
        for i in range(n):
            out[i].extend(flat[bounds[i]:bounds[i + 1]])
    return out


@lru_cache(maxsize=64)
def template_columns(config: Config, names: tuple[str, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(offset, matrix columns) the templates read, each (feature, offset) pair once."""
    by_offset: dict[int, set[int]] = {}
    for template in config.templates:
        cols = {j for j, name in enumerate(names) if template.matches(name)}
        for offset in template.offsets:
            by_offset.setdefault(offset, set()).update(cols)
    return tuple((o, tuple(sorted(c))) for o, c in sorted(by_offset.items(), key=lambda x: (x[0] != 0, x[0])) if c)


def _attributes(values: np.ndarray, cols: tuple[int, ...], names: tuple[str, ...], offset: int,
                n: int) -> tuple[np.ndarray, np.ndarray]:
    """(row, attribute string) for the non-zero values of ``cols`` seen at ``offset``."""
    src = np.arange(n) + offset
    valid = (src >= 0) & (src < n)
    dst = np.nonzero(valid)[0]
    sub = values[src[valid]][:, list(cols)]
    r, k = np.nonzero(sub)
    flat = _string_table(tuple(names[j] for j in cols), offset)
    return dst[r], flat[k * MAX_VALUE + sub[r, k]]


#: discretised values are capped below this (a bullet value is a bit set of ≤ 6 patterns)
MAX_VALUE = 64


@lru_cache(maxsize=256)
def _string_table(names: tuple[str, ...], offset: int) -> np.ndarray:
    """``[offset:]name=value`` for every (column, value), flattened row-major."""
    width = MAX_VALUE
    prefix = "" if offset == 0 else f"{offset:+d}:"
    table = np.empty((len(names), width), dtype=object)
    for i, name in enumerate(names):
        for v in range(width):
            table[i, v] = f"{prefix}{name}={v}"
    return table.reshape(-1)


def describe(matrix: Matrix, i: int) -> str:
    """One block's non-zero features, for inspection."""
    return " ".join(f"{k}={v}" for k, v in matrix.row(i).items() if v)

