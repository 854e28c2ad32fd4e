"""The ``.anno`` annotation format (seed 003 §2.3): a page's blocks, one labelled line each.

::

    # source: ../datasets/cleaneval-en-dev/html/12.html
    [h] SIGWAC
    [p] SIGWAC is the Special Interest Group of the
    [c] Association for Computational Linguistics (ACL)
    [o] Last update : July, 2007

An annotation lists every block of the page in document order, each with one of
Victor's tags: ``[p]`` paragraph, ``[h]`` header, ``[l]`` list item, ``[c]``
continuation of the last ``[p]``/``[h]``/``[l]`` unit, ``[o]`` other (boilerplate).
What the seed leaves open is decided here:

* **Encoding**: UTF-8, ``\\n`` line ends (a ``\\r\\n`` file reads the same), a final
  newline.  Lines are split at ``\\n`` only, never at the other characters
  ``str.splitlines`` breaks at.
* **An entry** is a tag at the very start of a line, one space, then the block text.
  The text is written with its white space (newlines, tabs, no-break spaces: whatever
  ``str.split`` splits at) collapsed to single spaces and the ends stripped, so one block
  is always one line; reading collapses again, so a hand edit that adds spaces is
  harmless.  A block with no text (an image without alt text) is a bare tag (``[o]``):
  every block has a line, so line *n* of the entries is block *n*.
* **Comments**: a line whose first character is ``#``, anywhere.  Every entry starts
  with ``[``, so a comment is never an entry and a block text starting with ``#`` or
  ``[`` needs no escape: it comes after the tag (``[h] # Title``, ``[o] [edit]``).
  Blank lines are ignored.
* **The page**: an optional header comment ``# source: <path>`` before the first entry
  names the page, relative to the ``.anno`` file's folder (written with ``/``).  Without
  it the page is the file beside the ``.anno`` with the same stem and the suffix
  ``.html`` (else ``.htm``, ``.html.gz``).  A gzipped page (``.gz``, as wcxb-dev stores
  them) is gunzipped when read.  See :func:`page_for` and :func:`page_bytes`.
* **Reading is strict**: any other line, an unknown tag (``[x]``), a tag glued to its
  text (``[p]text``) or a ``[c]`` before any ``[p]``/``[h]``/``[l]`` raises
  :class:`AnnoError` with the file and line number.  A ``[c]`` after ``[o]`` lines is
  valid: it continues the last kept unit, as :func:`detourage.render.units` reads labels.
  :func:`dumps` refuses labels that would write such an orphan ``[c]``
  (:func:`settle` turns them into paragraphs, as rendering does).
* **Attaching** an annotation to a page (:func:`attach`) is strict by default: the same
  number of blocks and the same (collapsed) texts, so the CRF never trains on labels
  shifted by a segmentation change.  Non-strict attaching aligns entries to blocks by
  text (:func:`align_entries`), for files written by an older segmenter.

Round trip: page → blocks → labels → :func:`dumps` → :func:`loads` →
:func:`attach` (strict) gives the same labels (``tests/test_victor_anno.py``).
"""

from __future__ import annotations

import gzip
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import AnnoError
from ..gold import Dataset, GoldPage, align
from ..gold.text import matching_blocks, normalize_text
from ..loading import load
from ..model import Block, Label, Page

#: tag letter → label, in the order of seed 003 §2.3
TAGS: dict[str, Label] = {
    "p": Label.PARAGRAPH,
    "h": Label.HEADER,
    "l": Label.LIST,
    "c": Label.CONTINUATION,
    "o": Label.OTHER,
}
#: label → tag letter
LETTERS: dict[Label, str] = {label: letter for letter, label in TAGS.items()}

#: suffixes tried, in order, for the page of an ``.anno`` without a ``# source:`` line
PAGE_SUFFIXES = (".html", ".htm", ".html.gz")

_ENTRY = re.compile(r"\[([^\]\s]*)\](.*)", re.DOTALL)
_SOURCE = re.compile(r"#\s*source\s*:(.*)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Annotation:
    """The entries of a ``.anno`` file: (label, text) per block, in document order."""

    entries: tuple[tuple[Label, str], ...]
    #: the ``# source:`` path as written (relative to the file's folder), if any
    source: str | None = None
    #: 1-based line number of each entry, for error messages
    lines: tuple[int, ...] = ()
    #: where it was read from ("<string>" for :func:`loads` without a name)
    name: str = "<string>"

    @property
    def labels(self) -> tuple[Label, ...]:
        """The labels, one per entry."""
        return tuple(label for label, _ in self.entries)

    @property
    def texts(self) -> tuple[str, ...]:
        """The block texts, one per entry."""
        return tuple(text for _, text in self.entries)

    def line(self, index: int) -> int | None:
        """Line number of entry ``index`` (None when unknown)."""
        return self.lines[index] if 0 <= index < len(self.lines) else None


def collapse(text: str) -> str:
    """White space runs to one space, ends stripped: how a block text is written."""
    return " ".join(text.split())


# ------------------------------------------------------------------------- writing


def settle(labels: Sequence[Label]) -> tuple[Label, ...]:
    """Labels as rendering reads them: a continuation with no earlier header, paragraph
    or list item (which :func:`dumps` refuses) becomes a paragraph."""
    out = []
    opened = False
    for label in labels:
        if label is Label.CONTINUATION and not opened:
            label = Label.PARAGRAPH
        opened = opened or label in (Label.PARAGRAPH, Label.HEADER, Label.LIST)
        out.append(label)
    return tuple(out)


def dumps(blocks: Sequence[Block], labels: Sequence[Label], source: str | None = None) -> str:
    """The ``.anno`` text of labelled blocks, with a ``# source:`` header when given."""
    if len(blocks) != len(labels):
        raise ValueError(f"{len(blocks)} blocks but {len(labels)} labels")
    orphan = next((i for i, (a, b) in enumerate(zip(labels, settle(labels))) if a is not b), None)
    if orphan is not None:
        raise ValueError(f"block {orphan} is a continuation with no earlier header, "
                         "paragraph or list item (settle() makes it a paragraph)")
    lines = []
    if source is not None:
        if "\n" in source or "\r" in source or not source.strip():
            raise ValueError(f"source path {source!r} cannot be written on one line")
        lines.append(f"# source: {source.strip()}\n")
    for block, label in zip(blocks, labels):
        text = collapse(block.text)
        lines.append(f"[{LETTERS[label]}] {text}\n" if text else f"[{LETTERS[label]}]\n")
    return "".join(lines)


def write(path: str | os.PathLike[str], blocks: Sequence[Block], labels: Sequence[Label],
          source: str | None = None) -> None:
    """Write a ``.anno`` file (UTF-8, ``\\n`` line ends)."""
    text = dumps(blocks, labels, source)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def relative_source(page_path: str | os.PathLike[str], anno_path: str | os.PathLike[str]) -> str:
    """The ``# source:`` value naming ``page_path`` from a ``.anno`` at ``anno_path``."""
    folder = Path(anno_path).absolute().parent
    try:
        rel = os.path.relpath(Path(page_path).absolute(), folder)
    except ValueError:  # another drive (Windows): no relative path exists
        rel = str(Path(page_path).absolute())
    return Path(rel).as_posix()


# ------------------------------------------------------------------------- reading


def loads(text: str, *, name: str = "<string>") -> Annotation:
    """Read ``.anno`` text; :class:`AnnoError` names the line of any malformed entry."""
    entries: list[tuple[Label, str]] = []
    lines: list[int] = []
    source: str | None = None
    opened = False
    for number, line in enumerate(text.lstrip("\ufeff").split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if line.startswith("#"):
            source = _source_line(line, source, bool(entries), name, number) or source
            continue
        label, body = _entry(line, name, number)
        if label is Label.CONTINUATION and not opened:
            raise AnnoError("[c] continues nothing: no [p], [h] or [l] entry before it",
                            name=name, line=number)
        opened = opened or label in (Label.PARAGRAPH, Label.HEADER, Label.LIST)
        entries.append((label, body))
        lines.append(number)
    return Annotation(tuple(entries), source, tuple(lines), name)


def _source_line(line: str, source: str | None, after_entries: bool, name: str,
                 number: int) -> str | None:
    """The path of a ``# source:`` comment (None for any other comment)."""
    m = _SOURCE.fullmatch(line)
    if m is None:
        return None
    if after_entries:
        raise AnnoError("'# source:' must come before the first entry", name=name, line=number)
    if source is not None:
        raise AnnoError("a second '# source:' line", name=name, line=number)
    path = m.group(1).strip()
    if not path:
        raise AnnoError("'# source:' names no file", name=name, line=number)
    return path


def _entry(line: str, name: str, number: int) -> tuple[Label, str]:
    """(label, collapsed text) of an entry line."""
    m = _ENTRY.match(line)
    if m is None:
        shown = line if len(line) <= 60 else line[:57] + "..."
        raise AnnoError(f"not an entry ('[p] text', '[h]', '[l]', '[c]', '[o]') nor a "
                        f"comment ('#'): {shown!r}", name=name, line=number)
    tag, rest = m.group(1), m.group(2)
    if tag not in TAGS:
        raise AnnoError(f"unknown tag [{tag}] (known: {' '.join(f'[{t}]' for t in TAGS)})",
                        name=name, line=number)
    if rest and not rest[0].isspace():
        raise AnnoError(f"a space must follow the tag [{tag}]", name=name, line=number)
    return TAGS[tag], collapse(rest)


def read(path: str | os.PathLike[str]) -> Annotation:
    """Read a ``.anno`` file (strictly UTF-8)."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise AnnoError(f"cannot read: {exc.strerror}", name=name) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AnnoError(f"not UTF-8 (byte {data[exc.start]:#04x} at offset {exc.start})",
                        name=name) from exc
    return loads(text, name=name)


def page_for(anno_path: str | os.PathLike[str], annotation: Annotation | None = None) -> Path:
    """The page file of a ``.anno``: its ``# source:``, else ``<stem>.html``/``.htm``/``.html.gz``
    beside it."""
    path = Path(anno_path)
    if annotation is None:
        annotation = read(path)
    if annotation.source is not None:
        candidates = [path.parent / annotation.source]
    else:
        candidates = [path.with_suffix(suffix) for suffix in PAGE_SUFFIXES]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    how = "its '# source:' line" if annotation.source is not None else "no '# source:' line"
    raise AnnoError(f"page not found ({how}; looked for {tried})", name=str(path))


def page_bytes(page_path: str | os.PathLike[str]) -> bytes:
    """A page file's bytes, gunzipped when its name ends in ``.gz`` (``12.html.gz``)."""
    data = Path(page_path).read_bytes()
    if Path(page_path).suffix.lower() != ".gz":
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError) as exc:
        raise AnnoError(f"cannot gunzip the page: {exc}", name=str(page_path)) from exc


def load_annotated(anno_path: str | os.PathLike[str], *,
                   strict: bool = True) -> tuple[Page, tuple[Label, ...]]:
    """Read a ``.anno``, load its page (gunzipped if ``.gz``) and attach the labels (see
    :func:`attach`)."""
    annotation = read(anno_path)
    page = load(page_bytes(page_for(anno_path, annotation)))
    return page, attach(page, annotation, strict=strict)


# ----------------------------------------------------------------------- attaching


@dataclass(frozen=True, slots=True)
class Attachment:
    """Labels for a page's blocks from an annotation aligned by text."""

    labels: tuple[Label, ...]
    #: entries whose text no block had (their labels are lost)
    unmatched_entries: int
    #: blocks no entry matched (labelled OTHER)
    unmatched_blocks: int


def attach(page: Page | Sequence[Block], annotation: Annotation, *,
           strict: bool = True) -> tuple[Label, ...]:
    """Labels for the page's blocks, one per block.

    Strict: the annotation must have one entry per block with the same collapsed text;
    otherwise :class:`AnnoError` names the first differing entry, its line and both
    texts.  Not strict: entries are aligned to blocks by text (:func:`align_entries`);
    blocks no entry matches are OTHER (use :func:`align_entries` to count them).
    """
    blocks = page.blocks if isinstance(page, Page) else page
    if not strict:
        return align_entries(blocks, annotation).labels
    texts = [collapse(b.text) for b in blocks]
    for i, (text, (_, entry)) in enumerate(zip(texts, annotation.entries)):
        if text != entry:
            raise _mismatch(annotation, i, entry, text, "the texts differ")
    n, m = len(texts), len(annotation.entries)
    if n != m:
        i = min(n, m)
        extra = annotation.entries[i][1] if i < m else None
        raise _mismatch(annotation, i, extra, texts[i] if i < n else None,
                        f"the page has {n} blocks, the annotation {m} entries")
    return annotation.labels


def _mismatch(annotation: Annotation, index: int, entry: str | None, block: str | None,
              why: str) -> AnnoError:
    """The error of a strict attach, at entry ``index``."""
    def shown(text: str | None) -> str:
        if text is None:
            return "(none)"
        return repr(text if len(text) <= 80 else text[:77] + "...")

    line = annotation.line(index)
    return AnnoError(f"does not fit the page at block {index}: {why}; annotation {shown(entry)}, "
                     f"page {shown(block)} (attach(strict=False) aligns by text)",
                     name=annotation.name, line=line)


def align_entries(page: Page | Sequence[Block], annotation: Annotation) -> Attachment:
    """Labels from entries matched to blocks by text (Ratcliff/Obershelp on the sequences
    of normalised texts); a ``[c]`` whose unit opener found no block takes the opener's
    kind, so a lost first entry does not glue its unit onto the previous one."""
    blocks = page.blocks if isinstance(page, Page) else page
    keys_a = [normalize_text(t) for t in annotation.texts]
    keys_b = [normalize_text(b.text) for b in blocks]
    entry_of: dict[int, int] = {}
    for i, j, k in matching_blocks(keys_a, keys_b):
        for t in range(k):
            entry_of[j + t] = i + t
    openers = _openers(annotation.labels)
    labels: list[Label] = []
    unit = -1  # opener index of the last kept block's unit
    for j in range(len(blocks)):
        e = entry_of.get(j)
        label = annotation.entries[e][0] if e is not None else Label.OTHER
        if label is Label.CONTINUATION and e is not None and openers[e] != unit:
            label = annotation.entries[openers[e]][0] if openers[e] >= 0 else Label.PARAGRAPH
        if label.kept:
            unit = openers[e] if e is not None else -1
        labels.append(label)
    matched = len(entry_of)
    return Attachment(tuple(labels), len(annotation.entries) - matched, len(blocks) - matched)


def _openers(labels: Sequence[Label]) -> list[int]:
    """For each entry, the index of the [p]/[h]/[l] entry that opens its unit (-1: none)."""
    out = []
    opener = -1
    for i, label in enumerate(labels):
        if label.kept and label is not Label.CONTINUATION:
            opener = i
        out.append(opener)
    return out


def write_anno_dataset(dataset: Dataset | str | os.PathLike[str], out_dir: str | os.PathLike[str],
                       options: align.AlignOptions | None = None) -> align.AlignmentSummary:
    """Write ``<id>.anno`` for every page of a dataset that could be labelled, each with a
    ``# source:`` line pointing at the dataset's page and its alignment figures as
    comments; returns the summary of all pages (failed ones included)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    reports = []
    for doc, page, labels, report in align.label_dataset(dataset, options or align.AlignOptions()):
        reports.append(report)
        if page is None:
            continue
        path = out / f"{doc.id}.anno"
        text = dumps(page.blocks, labels, relative_source(doc.html_path, path))
        source, rest = text.split("\n", 1)
        anno_text = f"{source}\n{_comment(doc, report, path)}{rest}"
        path.write_text(anno_text, encoding="utf-8", newline="\n")
    return align.summarize(reports)


def _comment(doc: GoldPage, report: align.Report, path: Path) -> str:
    """Header comments of a written ``.anno``: the gold and the alignment figures."""
    gold = relative_source(doc.gold_path, path) if doc.gold_path else "?"
    return (f"# gold: {gold}\n"
            f"# aligned ({report.kinds} kinds, {report.unit}): coverage {report.coverage:.3f}, "
            f"content precision {report.precision:.3f}, partial blocks {report.partial_blocks}"
            f"/{report.token_blocks}, multi-unit blocks {report.multi_unit}, "
            f"gold units missed {report.units_missed}/{report.gold_units}\n")


__all__ = [
    "LETTERS", "PAGE_SUFFIXES", "TAGS", "Annotation", "write_anno_dataset", "Attachment",
    "align_entries", "attach", "collapse", "dumps", "load_annotated", "loads", "page_bytes",
    "page_for",
    "read", "relative_source", "settle", "write",
]
