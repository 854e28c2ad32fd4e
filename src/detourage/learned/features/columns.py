"""The feature columns (:func:`names`), the result of a page (:class:`Paragraphs`) and the
columns as the passes make them (:class:`_Columns`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .vocabulary import GROUPS, LEVELS, PAGE_TYPES


@dataclass(frozen=True, slots=True)
class Paragraphs:
    """A page's paragraphs: block ranges, texts, features, and what the method needs."""

    #: first block of each paragraph, and one past its last
    starts: np.ndarray
    ends: np.ndarray
    texts: list[str]
    #: float32 (paragraphs, features), columns named by :func:`names`
    X: np.ndarray
    #: characters per paragraph
    chars: np.ndarray
    #: heading level 1–6, 0 for other paragraphs
    heading: np.ndarray
    #: index of the paragraph best matching the page title (-1: none)
    title_index: int
    #: int32 (LEVELS, 2, paragraphs): the paragraph range (first, one past the last) of
    #: each paragraph's container (level 0) and of its ancestors, for the second stage
    spans: np.ndarray
    #: int32 (paragraphs,): paragraphs of the same structure (container path and region
    #: bits) share a number, so that repeated cards, teasers or menu items can be judged together
    signature: np.ndarray
    #: the texts lower-cased (made for the page-level features; the method's steps read
    #: them too)
    lowered: list[str] = field(default_factory=list)
    #: the types the page declares (:attr:`Hints.types`: JSON-LD ``@type``, ``og:type``,
    #: microdata), read by the page's kind (:mod:`detourage.learned.pagetype`)
    types: frozenset[str] = frozenset()
    #: the address the page gives itself (:attr:`Hints.address`: ``<link rel=canonical>``,
    #: ``og:url``), which the page's kind reads when the caller gives none
    address: str = ""

    def __len__(self) -> int:
        return len(self.starts)

    def column(self, name: str) -> np.ndarray:
        """One feature column, by name."""
        return self.X[:, positions()[name]]


@lru_cache(maxsize=1)
def positions() -> dict[str, int]:
    """Each feature's column in :attr:`Paragraphs.X`, by name (one table, where a search
    of :func:`names` compares up to every name)."""
    return {name: i for i, name in enumerate(names())}


@lru_cache(maxsize=1)
def names() -> tuple[str, ...]:
    """The feature columns, in order."""
    text = ["log_chars", "log_words", "link_density", "mean_word_len", "share_lower", "share_upper",
            "share_digit", "share_punct", "share_cjk", "commas", "sentence_ends", "separators",
            "punct_per_word", "ends_sentence", "starts_upper", "stop_ratio", "stop_cjk_ratio",
            "blocks", "log_link_chars", "has_copyright", "has_year"]
    kind = ["heading_level", "is_list", "is_cell", "is_image", "container_tag", "log_same_structure"]
    dom = [f"dist_{g}" for g in GROUPS] + ["depth"]
    region = [f"l{lv}_{f}" for lv in range(LEVELS)
              for f in ("log_chars", "link_density", "log_paragraphs", "share", "mean_chars", "score",
                        "stop_ratio", "sentences_per_word")]
    region += ["in_top", "top_share", "top_link_density"]
    context = [f"{side}{k}_{f}" for side in ("prev", "next") for k in (1, 2)
               for f in ("log_chars", "link_density", "stop_ratio", "heading")]
    context += ["win_link_density", "win_log_chars", "position", "chars_before"]
    page = ["title_overlap", "is_title", "after_title", "title_distance", "after_h1", "h1_distance",
            "repeated", "in_jsonld", "page_log_chars", "page_log_paragraphs", "page_link_density",
            *(f"type_{t}" for t in PAGE_TYPES)]
    return tuple(text + kind + dom + region + context + page)


class _Columns(dict):
    """The feature columns by name, as the passes make them: one array each, or tables
    of consecutive columns (:meth:`table`), copied whole into the matrix; a column of a
    table is read by its name too (made at the first read)."""

    def __init__(self) -> None:
        super().__init__()
        #: first column's name → a table of consecutive columns
        self.tables: dict[str, np.ndarray] = {}

    def table(self, columns: tuple[str, ...], values: np.ndarray) -> None:
        """``values`` (paragraphs, len(columns)): the columns ``columns``, consecutive in
        :func:`names`."""
        _check_table(columns)
        self.tables[columns[0]] = values

    def __missing__(self, name: str) -> np.ndarray:
        """A column of a table, by its name."""
        first, j = _TABLE_COLUMNS.get(name, ("", 0))
        table = self.tables.get(first)
        if table is None:
            raise KeyError(name)
        self[name] = column = table[:, j]
        return column

    def matrix(self, n: int) -> np.ndarray:
        """float32 (n, features), rows contiguous for the forests: tables copied whole,
        the runs of single columns between them one C-level copy each."""
        order = names()
        X = np.empty((n, len(order)), np.float32)
        for at, end, table in _layout(frozenset(self.tables)):
            if table:
                X[:, at:end] = self.tables[order[at]]
            else:
                X[:, at:end] = np.array([self[name] for name in order[at:end]]).T
        return X


#: each column of a table (:meth:`_Columns.table`) → the table's first column and its place in it
_TABLE_COLUMNS: dict[str, tuple[str, int]] = {}
#: a table's first column → how many columns the table holds
_TABLE_WIDTH: dict[str, int] = {}


@lru_cache(maxsize=64)
def _check_table(columns: tuple[str, ...]) -> None:
    """Refuse a table whose columns are not consecutive in :func:`names`; learn where
    each of its columns lies."""
    at = _position()[columns[0]]
    if names()[at:at + len(columns)] != columns:
        raise ValueError(f"columns {columns[0]}… are not consecutive features")
    _TABLE_COLUMNS.update((name, (columns[0], j)) for j, name in enumerate(columns))
    _TABLE_WIDTH[columns[0]] = len(columns)


@lru_cache(maxsize=16)
def _layout(tables: frozenset[str]) -> tuple[tuple[int, int, bool], ...]:
    """The matrix's column ranges (first, one past the last, whether a table), given the
    first columns of the tables (their widths: :data:`_TABLE_WIDTH`)."""
    order = names()
    width = {name: _TABLE_WIDTH[name] for name in tables}
    out = []
    at = 0
    while at < len(order):
        if order[at] in width:
            out.append((at, at + width[order[at]], True))
            at += width[order[at]]
            continue
        end = at + 1
        while end < len(order) and order[end] not in width:
            end += 1
        out.append((at, end, False))
        at = end
    return tuple(out)


@lru_cache(maxsize=1)
def _position() -> dict[str, int]:
    return {name: i for i, name in enumerate(names())}
