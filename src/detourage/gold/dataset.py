"""Gold data: the CleanEval text format and dataset folders.

A dataset folder (DESIGN.md, "Data formats") holds ``html/<id>.html`` (raw bytes, or
``html/<id>.html.gz`` gzipped, as ``datasets-extra`` and crawls store them),
``gold/<id>.txt`` (CleanEval ``<p>``/``<h>``/``<l>`` lines, or plain paragraphs one per
line) or ``gold/<id>.json`` (``{"with": [...], "without": [...]}`` snippets),
``meta.jsonl`` and a README.

Gold is read strictly: a page whose gold is missing, not UTF-8, not valid JSON or
empty stays in the dataset but carries ``gold_problem`` (and is listed in
``Dataset.problems``); it is never scored as if its gold were empty.  A block made only
of HTML comments is no text (cleanportaleval's ``<p> <!-- this page contains no
article -->``): a gold file of such blocks alone is an empty gold.  A leading UTF-8
BOM is valid UTF-8 and is dropped.  Gold files are small, so all are read when the
dataset is loaded (DANIEL, 1689 pages, loads in about 0.2 s warm); pages are read on demand,
within the size limit of ``detourage extract`` (a ``.html.gz`` is unpacked no further), so
a page that unpacks to gigabytes fails alone, as ``limit:bytes``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from detourage.errors import DatasetError
from detourage.parse import DEFAULT_LIMITS

from ..loading import read_page

#: a block of cleaned text: (kind, text), kind in {"p", "h", "l"}
GoldBlock = tuple[str, str]

BLOCK_KINDS = ("p", "h", "l")

GoldKind = Literal["cleaneval", "snippets"]

_MARKER = re.compile(r"\s*<([phl])>", re.IGNORECASE)
_WRAPPER = re.compile(r"\s*(<text(\s.*)?>|</text>)\s*$", re.IGNORECASE)
_URL = re.compile(r"\s*URL:", re.IGNORECASE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


# ------------------------------------------------------------------ CleanEval text


def _collapse(text: str) -> str:
    """Whitespace runs to one space, ends stripped."""
    return " ".join(text.split())


def _content_lines(text: str) -> list[str]:
    """Non-blank lines without the <text …> wrapper and a first ``URL:`` line."""
    lines = [
        line
        for line in text.lstrip("\ufeff").splitlines()
        if line.strip() and not _WRAPPER.match(line)
    ]
    if lines and _URL.match(lines[0]):
        lines = lines[1:]
    return lines


def parse_cleaneval(text: str) -> list[GoldBlock]:
    """CleanEval text to blocks; plain text (no marker) gives one "p" block per line.

    A line starting with ``<p>``, ``<h>`` or ``<l>`` opens a block; unmarked lines
    continue it (joined with a space); unmarked text before the first marker is a "p"
    block.  Whitespace is collapsed, blank lines and empty blocks are dropped, and so are
    blocks made only of HTML comments (an annotator's note, not the page's text).
    """
    lines = _content_lines(text)
    if not any(_MARKER.match(line) for line in lines):
        return [("p", t) for t in map(_collapse, lines) if _COMMENT.sub("", t).strip()]
    blocks: list[GoldBlock] = []
    kind = "p"
    parts: list[str] = []
    for line in lines:
        m = _MARKER.match(line)
        if m:
            blocks.append((kind, _collapse(" ".join(parts))))
            kind, parts = m.group(1).lower(), [line[m.end() :]]
        else:
            parts.append(line)
    blocks.append((kind, _collapse(" ".join(parts))))
    return [b for b in blocks if _COMMENT.sub("", b[1]).strip()]


def format_cleaneval(blocks: Sequence[GoldBlock]) -> str:
    """Blocks to CleanEval text, one ``<kind> text`` line per non-empty block."""
    lines = []
    for kind, text in blocks:
        if kind not in BLOCK_KINDS:
            raise ValueError(f"unknown block kind {kind!r}; expected one of {BLOCK_KINDS}")
        if text := _collapse(text):
            lines.append(f"<{kind}> {text}\n")
    return "".join(lines)


# ------------------------------------------------------------------------ datasets


@dataclass(frozen=True, slots=True)
class GoldPage:
    """One page of a dataset: where its HTML is, its gold, and its metadata."""

    id: str
    html_path: Path
    gold_path: Path | None
    gold_kind: GoldKind | None
    #: CleanEval gold (gold_kind "cleaneval"), empty otherwise
    gold_blocks: tuple[GoldBlock, ...] = ()
    #: snippet gold {"with": (...), "without": (...)} (gold_kind "snippets")
    gold_snippets: Mapping[str, tuple[str, ...]] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    #: why this page cannot be scored (missing / undecodable / empty gold), else None
    gold_problem: str | None = None

    @property
    def lang(self) -> str:
        """Language code from the metadata ("und" when unknown)."""
        return str(self.meta.get("lang") or "und")

    @property
    def scorable(self) -> bool:
        """Whether the page has usable gold."""
        return self.gold_problem is None

    def read_html(self, max_bytes: int = DEFAULT_LIMITS.max_bytes) -> bytes:
        """The raw page bytes (gunzipped when the file is ``.html.gz``);
        :class:`~detourage.errors.LimitExceeded` beyond ``max_bytes``, read or unpacked."""
        return read_page(str(self.html_path), max_bytes)


@dataclass(frozen=True, slots=True)
class Dataset:
    """A dataset folder: its documents (sorted by id) and what is wrong with it."""

    name: str
    path: Path
    documents: tuple[GoldPage, ...]
    #: (id, reason) for every page with a gold problem and every dataset-level oddity
    problems: tuple[tuple[str, str], ...]

    def __len__(self) -> int:
        """Number of documents (pages with an HTML file)."""
        return len(self.documents)

    def __iter__(self) -> Iterator[GoldPage]:
        """The documents, sorted by id."""
        return iter(self.documents)

    @property
    def scorable(self) -> tuple[GoldPage, ...]:
        """The documents whose gold can be scored."""
        return tuple(d for d in self.documents if d.scorable)


def load_dataset(path: str | os.PathLike[str]) -> Dataset:
    """Read a dataset folder (gold strictly, pages lazily); raise DatasetError if it is none."""
    root = Path(path)
    html_dir, gold_dir = root / "html", root / "gold"
    if not html_dir.is_dir() or not gold_dir.is_dir():
        raise DatasetError(f"{root}: not a dataset (needs html/ and gold/ folders)")
    problems: list[tuple[str, str]] = []
    meta = _read_meta(root / "meta.jsonl", problems)
    html = _files(html_dir, (".html", ".html.gz"))
    gold = _gold_files(gold_dir)
    documents = []
    for doc_id in sorted(html):
        doc = _document(doc_id, html[doc_id][0], gold.get(doc_id, []), meta.get(doc_id))
        if doc.gold_problem:
            problems.append((doc_id, doc.gold_problem))
        elif doc_id not in meta and meta:
            problems.append((doc_id, "no metadata in meta.jsonl"))
        documents.append(doc)
    problems += [(i, "gold without html") for i in sorted(gold.keys() - html.keys())]
    problems += [(i, "metadata without html") for i in sorted(meta.keys() - html.keys())]
    return Dataset(root.name, root, tuple(documents), tuple(problems))


def _files(folder: Path, suffixes: tuple[str, ...]) -> dict[str, list[Path]]:
    """Files of a folder with one of the suffixes, by id (name without suffix)."""
    out: dict[str, list[Path]] = {}
    for entry in os.scandir(folder):
        for suffix in suffixes:
            if entry.name.endswith(suffix) and not entry.name.startswith(".") and entry.is_file():
                out.setdefault(entry.name[: -len(suffix)], []).append(Path(entry.path))
    return out


def _gold_files(folder: Path) -> dict[str, list[Path]]:
    """Gold files by id (a well-formed dataset has exactly one per id)."""
    return _files(folder, (".txt", ".json"))


def _read_meta(path: Path, problems: list[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """meta.jsonl as {id: object}; a missing file is a problem, a broken one an error."""
    if not path.is_file():
        problems.append(("meta.jsonl", "missing: languages unknown"))
        return {}
    out: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{path}:{lineno}: not JSON ({exc.msg})") from exc
            if not isinstance(obj, dict) or "id" not in obj:
                raise DatasetError(f"{path}:{lineno}: not an object with an id")
            if str(obj["id"]) in out:
                raise DatasetError(f"{path}:{lineno}: duplicate id {obj['id']!r}")
            out[str(obj["id"])] = obj
    return out


def _document(doc_id: str, html: Path, gold: list[Path], meta: dict[str, Any] | None) -> GoldPage:
    """A GoldPage with its gold read strictly."""
    meta = meta or {}
    if not gold:
        return GoldPage(doc_id, html, None, None, meta=meta, gold_problem="missing gold")
    if len(gold) > 1:
        return GoldPage(doc_id, html, None, None, meta=meta,
                        gold_problem="two gold files (.txt and .json)")
    path = gold[0]
    kind: GoldKind = "snippets" if path.suffix == ".json" else "cleaneval"
    try:
        text = _read_utf8(path)
        if kind == "snippets":
            return GoldPage(doc_id, html, path, kind, gold_snippets=_snippets(text), meta=meta)
        blocks = tuple(parse_cleaneval(text))
        if not blocks:
            raise _GoldProblem("empty gold" + (" (HTML comments only)" if "<!--" in text else ""))
        return GoldPage(doc_id, html, path, kind, gold_blocks=blocks, meta=meta)
    except _GoldProblem as exc:
        return GoldPage(doc_id, html, path, kind, meta=meta, gold_problem=str(exc))


class _GoldProblem(Exception):
    """A gold file that cannot be scored; the message is the reason."""


def _read_utf8(path: Path) -> str:
    """A gold file's text, strictly UTF-8 (a BOM is dropped)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _GoldProblem(f"gold unreadable: {exc.strerror}") from exc
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as exc:
        reason = f"gold is not UTF-8 (byte {data[exc.start]:#04x} at {exc.start})"
        raise _GoldProblem(reason) from exc


def _snippets(text: str) -> dict[str, tuple[str, ...]]:
    """Snippet gold {"with": (...), "without": (...)} from JSON text."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _GoldProblem(f"gold is not JSON ({exc.msg})") from exc
    shape = 'gold JSON is not {"with": [str], "without": [str]}'
    if not isinstance(obj, dict) or not obj.keys() <= {"with", "without"}:
        raise _GoldProblem(shape)
    out = {}
    for key in ("with", "without"):
        values = obj.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise _GoldProblem(shape)
        out[key] = tuple(values)
    if not any(v.strip() for vs in out.values() for v in vs):
        raise _GoldProblem("empty gold")
    return out


__all__ = [
    "BLOCK_KINDS", "GoldBlock", "Dataset", "GoldPage", "GoldKind",
    "format_cleaneval", "load_dataset", "parse_cleaneval",
]


# ------------------------------------------------------------------ the fixed split

#: the two halves of every dataset: shipped models train on "train" and are scored on
#: "held-out" (``detourage evaluate --split held-out``)
SPLITS = ("train", "held-out")


def split_of(dataset: str, doc_id: str) -> str:
    """"train" when the first byte of sha256("<dataset>/<id>") is even, else "held-out".

    Fixed and documented so that anyone can check that a shipped model (NCleaner's,
    Victor's) is never scored on a page it was trained on.
    """
    return "train" if hashlib.sha256(f"{dataset}/{doc_id}".encode()).digest()[0] % 2 == 0 else "held-out"
