"""``ncleaner``: Evert's NCleaner (LREC 2008) as seed 002 §3.2 describes it.

Two character n-gram language models, one of main content and one of boilerplate; each
paragraph of the page (the paragraph view, :attr:`Block.paragraph`) goes to the model
that gives its text the higher probability (plus a prior).  The seed's configurations:

- ``NC``: the shipped default model (``data/ncleaner-default.json.gz``), trained on a
  fixed, documented split of the four shared datasets, all languages together;
- ``NCNL``: the non-lexical variant, letters mapped to ``a`` and digits to ``0`` before
  training and scoring (``Options(nonlexical=True)``, ``data/ncleaner-nonlexical.json.gz``);
- ``NCT-x``: a model trained from x (raw page, cleaned text) pairs with :func:`train`
  (``detourage train ncleaner PAIRS… --out MODEL``), used with ``Options(model=MODEL)``.

Choices the seed leaves open:

- **text**: a paragraph's text is its blocks' texts joined (a space where the page had
  one); image alt texts are left out, an image follows its paragraph's decision, and a
  paragraph without text is boilerplate.  Each text is framed by ``order - 1`` start
  symbols and one end symbol, so the models also learn how paragraphs begin and end.
- **smoothing**: interpolated Witten-Bell, down to a uniform distribution over the
  training alphabet plus one unknown character: P(c|h) = (C(hc) + T(h)·P(c|h')) /
  (C(h) + T(h)), T(h) the number of distinct characters seen after h.  It needs no
  discount to tune and behaves on pruned counts (C and T are recomputed from what the
  file keeps, so the pruned model is still a distribution).
- **decision**: keep a paragraph when log P_content − log P_boilerplate + prior > 0, the
  prior being log(#content / #boilerplate paragraphs) of the training data (see
  ``NCleanerModel.normalise`` for the length normalisation, chosen by measurement).
- **training labels**: a paragraph of a training page is content when at least
  ``threshold`` (0.5) of its character 6-grams (lower-cased, whitespace collapsed, a
  space on each side, so short paragraphs must match whole words) occur in the gold text.

Scoring is vectorised: a page's paragraphs become one array of code points and every
n-gram (order ≤ 3, 21 bits a character) one exact 63-bit integer key, looked up with
``numpy.searchsorted`` in sorted tables; the backoff runs only where a longer n-gram is
missing.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .. import loading
from ..errors import DetourageError
from ..model import Block, Labels, Page
from .common import label_paragraphs

NAME = "ncleaner"
SEED = "002"
DESCRIPTION = "NCleaner (Evert 2008): character n-gram models of content vs boilerplate"

DEFAULT_MODEL = "ncleaner-default.json.gz"
NONLEXICAL_MODEL = "ncleaner-nonlexical.json.gz"
FORMAT = "detourage-ncleaner/1"

#: paragraph frame symbol (control characters never survive segmentation)
BOUNDARY = "\x02"
#: bits per character in an n-gram key: every Unicode code point fits in 21 bits
_BITS = 21
MAX_ORDER = 3
CLASSES = ("content", "boilerplate")


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    #: a model file written by :meth:`NCleanerModel.save`, or a :class:`NCleanerModel` in memory; None
    #: for the shipped model
    model: str | Path | NCleanerModel | None = None
    #: with ``model=None``: the shipped non-lexical model (NCNL) instead of NC
    nonlexical: bool = False


def label(page: Page, options: Options = Options()) -> Labels:
    """Group the blocks into paragraphs, score each under both models, keep the winners."""
    model = options.model
    if not isinstance(model, NCleanerModel):
        model = load_model(model, options.nonlexical)
    blocks = page.blocks
    owner, texts = paragraphs(blocks)
    scores = model.scores(texts)
    keep = [bool(scores[i] > 0) and bool(texts[i]) for i in owner]
    details = {"model": model.name, "paragraphs": len(texts), "kept": int((scores > 0).sum())}
    return Labels(NAME, label_paragraphs(blocks, keep), details)


def paragraphs(blocks: Sequence[Block]) -> tuple[list[int], list[str]]:
    """For each block, the index of its paragraph; and each paragraph's text."""
    owner: list[int] = []
    parts: list[list[str]] = []
    current = None
    for block in blocks:
        if block.paragraph != current or not parts:
            current = block.paragraph
            parts.append([])
        owner.append(len(parts) - 1)
        if block.image is None and block.text:
            part = parts[-1]
            part.append(" " + block.text if part and block.space_before else block.text)
    return owner, ["".join(p).strip() for p in parts]


# --- text to code points ----------------------------------------------------------------


@lru_cache(maxsize=1)
def _nonlexical_table() -> np.ndarray:
    """Code point → its non-lexical replacement (letters ``a``, digits ``0``)."""
    table = np.arange(0x110000, dtype=np.int64)
    chars = [chr(i) for i in range(0x110000)]
    table[np.fromiter((c.isalpha() for c in chars), bool, 0x110000)] = ord("a")
    table[np.fromiter((c.isdigit() for c in chars), bool, 0x110000)] = ord("0")
    return table


def nonlexical(text: str) -> str:
    """``"Page 12, été"`` → ``"aaaa 00, aaa"``: seed 002's ``[:alpha:] → a``, ``[:digit:] → 0``."""
    codes = _nonlexical_table()[_codes(text)]
    return codes.astype(np.uint32).tobytes().decode("utf-32-le")


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)


def stream(texts: Sequence[str], order: int, lowercase: bool,
           lexical: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The framed texts as one code-point array, the positions predicted (all but the
    ``order - 1`` start symbols of each text), and where each text's predictions start
    in that list (for ``np.add.reduceat``)."""
    texts = [(t.lower() if lowercase else t).replace(BOUNDARY, " ") for t in texts]
    pad = BOUNDARY * (order - 1)
    codes = _codes("".join(pad + t + BOUNDARY for t in texts))
    if not lexical:
        codes = _nonlexical_table()[codes]
    lengths = np.fromiter(map(len, texts), np.int64, len(texts)) + 1  # characters + end symbol
    first = np.cumsum(lengths + order - 1) - lengths  # each text's first predicted position
    mask = np.ones(len(codes), bool)
    for j in range(1, order):
        mask[first - j] = False
    seg = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    return codes, np.flatnonzero(mask), seg


def keys(codes: np.ndarray, idx: np.ndarray, k: int) -> np.ndarray:
    """The order-k n-gram key ending at each position of ``idx``."""
    key = codes[idx].copy()
    for j in range(1, k):
        key |= codes[idx - j] << (_BITS * j)
    return key


def _gram(key: int, k: int) -> str:
    return "".join(chr((key >> (_BITS * (k - 1 - j))) & ((1 << _BITS) - 1)) for j in range(k))


def _key(gram: str) -> int:
    key = 0
    for c in gram:
        key = (key << _BITS) | ord(c)
    return key


def _lookup(table: np.ndarray, values: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whether each query key is in the sorted table, and its value (garbage where not)."""
    if len(table) == 0:
        return np.zeros(len(query), bool), np.zeros(len(query))
    pos = np.searchsorted(table, query).clip(0, len(table) - 1)
    return table[pos] == query, values[pos]


# --- the model --------------------------------------------------------------------------


@dataclass(slots=True)
class Tables:
    """One class's compiled model: per order, sorted n-gram keys with log P, and sorted
    context keys with their log backoff weight log T(h)/(C(h)+T(h))."""

    grams: list[np.ndarray]
    logp: list[np.ndarray]
    contexts: list[np.ndarray]
    backoff: list[np.ndarray]
    uniform: float

    def logprob(self, codes: np.ndarray, idx: np.ndarray, k: int) -> np.ndarray:
        """log P(c | the k-1 previous characters) at each position, Witten-Bell interpolated."""
        if k == 0:
            return np.full(len(idx), self.uniform)
        key = keys(codes, idx, k)
        found, value = _lookup(self.grams[k - 1], self.logp[k - 1], key)
        out = np.array(value, dtype=np.float64)
        miss = ~found
        if miss.any():
            sub = idx[miss]
            lower = self.logprob(codes, sub, k - 1)
            cfound, bow = _lookup(self.contexts[k - 1], self.backoff[k - 1], key[miss] >> _BITS)
            out[miss] = lower + np.where(cfound, bow, 0.0)
        return out


@dataclass(slots=True, eq=False)
class NCleanerModel:
    """Counts of character n-grams (orders 1..order) for content and boilerplate text."""

    order: int
    nonlexical: bool
    lowercase: bool
    #: divide a paragraph's log-likelihood ratio by its length (characters + 1); the prior
    #: is then per character too.  Measured on the held-out split (benchmarks/
    #: train_ncleaner.py): see the shipped model's provenance
    normalise: bool
    #: log(#content / #boilerplate) training paragraphs, added to the ratio
    prior: float
    #: class → order - 1 → {n-gram: count}
    counts: dict[str, list[dict[str, int]]]
    provenance: dict[str, Any] = field(default_factory=dict)
    name: str = "trained"
    _tables: dict[str, Tables] | None = None

    # -- scoring

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """log P_content − log P_boilerplate + prior, per text (normalised if so set)."""
        if not texts:
            return np.zeros(0)
        tables = self.tables()
        codes, idx, seg = stream(texts, self.order, self.lowercase, not self.nonlexical)
        diff = tables["content"].logprob(codes, idx, self.order)
        diff -= tables["boilerplate"].logprob(codes, idx, self.order)
        llr = np.add.reduceat(diff, seg)
        if self.normalise:
            llr /= np.diff(np.append(seg, len(idx)))
        return llr + self.prior

    def tables(self) -> dict[str, Tables]:
        if self._tables is None:
            self._tables = {c: self._compile(self.counts[c]) for c in CLASSES}
        return self._tables

    def _compile(self, counts: list[dict[str, int]]) -> Tables:
        alphabet = len(counts[0]) + 1  # the training alphabet and one unknown character
        tables = Tables([], [], [], [], float(-np.log(alphabet)))
        for k in range(1, self.order + 1):
            grams = np.array(sorted(_key(g) for g in counts[k - 1]), dtype=np.int64)
            count = np.array([counts[k - 1][_gram(int(g), k)] for g in grams], dtype=np.float64)
            ctx, inverse = np.unique(grams >> _BITS, return_inverse=True)
            total = np.bincount(inverse, weights=count, minlength=len(ctx))
            types = np.bincount(inverse, minlength=len(ctx)).astype(np.float64)
            # P(c|h') of each n-gram's suffix, from the orders already compiled
            codes = np.empty(len(grams) * k, dtype=np.int64)
            for j in range(k):
                codes[j::k] = (grams >> (_BITS * (k - 1 - j))) & ((1 << _BITS) - 1)
            idx = np.arange(k - 1, len(codes), k)
            lower = np.exp(tables.logprob(codes, idx, k - 1)) if len(grams) else np.zeros(0)
            denom = total[inverse] + types[inverse]
            tables.grams.append(grams)
            tables.logp.append(np.log((count + types[inverse] * lower) / denom))
            tables.contexts.append(ctx)
            tables.backoff.append(np.log(types / (total + types)))
        return tables

    # -- files

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "order": self.order, "nonlexical": self.nonlexical,
            "lowercase": self.lowercase, "smoothing": "interpolated Witten-Bell",
            "normalise": self.normalise, "prior": self.prior,
            "provenance": self.provenance, "counts": self.counts,
        }

    def save(self, path: str | Path) -> None:
        """Write the model as JSON, gzipped when the name ends in ``.gz``."""
        data = json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":")).encode()
        path = Path(path)
        if path.suffix == ".gz":
            data = gzip.compress(data, 9, mtime=0)
        path.write_bytes(data)

    @classmethod
    def load(cls, path: str | Path) -> NCleanerModel:
        """Read a model written by :meth:`save`."""
        raw = Path(path).read_bytes()
        return cls.from_bytes(raw, Path(path).name)

    @classmethod
    def from_bytes(cls, raw: bytes, name: str) -> NCleanerModel:
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        data = json.loads(raw)
        if data.get("format") != FORMAT:
            raise DetourageError(f"{name}: not an ncleaner model (format {data.get('format')!r})")
        return cls(data["order"], data["nonlexical"], data["lowercase"], data["normalise"],
                   data["prior"], data["counts"], data.get("provenance", {}), name)

    def pruned(self, min_count: int) -> NCleanerModel:
        """A copy without the n-grams of order ≥ 2 seen fewer than ``min_count`` times."""
        counts = {c: [levels[0]] + [{g: n for g, n in lv.items() if n >= min_count} for lv in levels[1:]]
                  for c, levels in self.counts.items()}
        provenance = {**self.provenance, "pruned_below": min_count}
        return NCleanerModel(self.order, self.nonlexical, self.lowercase, self.normalise, self.prior,
                     counts, provenance, self.name)


@lru_cache(maxsize=8)
def load_model(model: str | Path | None = None, nonlexical: bool = False) -> NCleanerModel:
    """The model an :class:`Options` names, loaded once per distinct value."""
    if model is not None:
        return NCleanerModel.load(model)
    name = NONLEXICAL_MODEL if nonlexical else DEFAULT_MODEL
    raw = resources.files("detourage").joinpath("data", name).read_bytes()
    return NCleanerModel.from_bytes(raw, name)


# --- training ---------------------------------------------------------------------------

#: share of a paragraph's character 6-grams that must occur in the gold for it to count
#: as content in training
THRESHOLD = 0.5
GOLD_GRAM = 6
_MARKERS = re.compile(r"<[phl]>|</?text[^>]*>|^\s*URL:.*$", re.IGNORECASE | re.MULTILINE)


def gold_grams(clean: str) -> set[str]:
    """The character 6-grams of a cleaned text (CleanEval markers dropped)."""
    text = " " + " ".join(_MARKERS.sub(" ", clean).lower().split()) + " "
    return {text[i : i + GOLD_GRAM] for i in range(len(text) - GOLD_GRAM + 1)}


def in_gold(text: str, grams: set[str], threshold: float = THRESHOLD) -> bool:
    """Whether a paragraph's text is (mostly) found in the gold text."""
    text = " " + " ".join(text.lower().split()) + " "
    if len(text) < GOLD_GRAM:
        return any(text in g for g in grams)
    mine = [text[i : i + GOLD_GRAM] for i in range(len(text) - GOLD_GRAM + 1)]
    return sum(g in grams for g in mine) >= threshold * len(mine)


def split_page(html: bytes | str, clean: str, threshold: float = THRESHOLD) -> tuple[list[str], list[str]]:
    """The content and the boilerplate paragraphs of one training pair."""
    # pages must be built exactly as the ones label() sees: loaded as every road loads them
    grams = gold_grams(clean)
    _, texts = paragraphs(loading.load(html).blocks)
    content: list[str] = []
    boilerplate: list[str] = []
    for text in texts:
        if text:
            (content if in_gold(text, grams, threshold) else boilerplate).append(text)
    return content, boilerplate


def count(texts: Sequence[str], order: int, lowercase: bool, lexical: bool) -> list[dict[str, int]]:
    """Counts of the n-grams of orders 1..order of the framed texts."""
    levels: list[dict[str, int]] = []
    codes, idx, _ = stream(texts, order, lowercase, lexical)
    for k in range(1, order + 1):
        found, n = np.unique(keys(codes, idx, k), return_counts=True)
        levels.append({_gram(int(g), k): int(c) for g, c in zip(found, n)})
    return levels


def train(
    pairs: Iterable[tuple[bytes | str, str]],
    *,
    order: int = 3,
    nonlexical: bool = False,
    lowercase: bool = False,
    normalise: bool = False,
    threshold: float = THRESHOLD,
    provenance: dict[str, Any] | None = None,
) -> NCleanerModel:
    """A model from (raw page, cleaned text) pairs."""
    if not 1 <= order <= MAX_ORDER:
        raise ValueError(f"order must be 1..{MAX_ORDER}, not {order}")
    content: list[str] = []
    boilerplate: list[str] = []
    pages = 0
    for html, clean in pairs:
        c, b = split_page(html, clean, threshold)
        content += c
        boilerplate += b
        pages += 1
    prior = float(np.log((len(content) + 1) / (len(boilerplate) + 1)))
    counts = {name: count(texts, order, lowercase, not nonlexical)
              for name, texts in (("content", content), ("boilerplate", boilerplate))}
    info = {"pages": pages, "paragraphs": {"content": len(content), "boilerplate": len(boilerplate)},
            "threshold": threshold, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            **(provenance or {})}
    return NCleanerModel(order, nonlexical, lowercase, normalise, prior, counts, info)


def train_from_paths(pairs: Sequence[tuple[Path, Path]], **kwargs: Any) -> NCleanerModel:
    """:func:`train` over (page.html, clean.txt) files; the file names go in the provenance."""
    provenance = kwargs.pop("provenance", {}) or {}
    provenance.setdefault("pairs", [[str(h), str(g)] for h, g in pairs])
    provenance.setdefault("digest", _digest(pairs))
    data = ((Path(h).read_bytes(), Path(g).read_text("utf-8-sig")) for h, g in pairs)
    return train(data, provenance=provenance, **kwargs)


def _digest(pairs: Sequence[tuple[Path, Path]]) -> str:
    h = hashlib.sha256()
    for html, gold in pairs:
        h.update(Path(html).read_bytes() + b"\0" + Path(gold).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def pairs_from_args(args: Sequence[str]) -> list[tuple[Path, Path]]:
    """Training pairs from command-line arguments: a dataset folder (every
    ``html/<id>.html`` with a ``gold/<id>.txt``) or ``page.html:clean.txt``."""
    out: list[tuple[Path, Path]] = []
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            out += _dataset_pairs(path)
            continue
        html, sep, gold = arg.rpartition(":")
        if not sep or not Path(html).is_file() or not Path(gold).is_file():
            raise DetourageError(f"{arg!r}: expected a dataset folder or PAGE.html:CLEAN.txt")
        out.append((Path(html), Path(gold)))
    return out


def _dataset_pairs(root: Path) -> list[tuple[Path, Path]]:
    html_dir, gold_dir = root / "html", root / "gold"
    if not html_dir.is_dir() or not gold_dir.is_dir():
        raise DetourageError(f"{root}: not a dataset (needs html/ and gold/ folders)")
    pairs = [(h, gold_dir / (h.name[: -len(".html")] + ".txt")) for h in sorted(html_dir.glob("*.html"))]
    return [(h, g) for h, g in pairs if g.is_file()]
