"""Data tables kept whole: a schedule, a training plan, a comparison, a reference
table, once the model keeps some of their cells or they lie in kept text."""

from __future__ import annotations

from itertools import islice

import numpy as np
from lxml import etree

from ...model import Block, Page
from .. import features
from ..features.tree import container
from .boundary import BOUNDARY_FLOOR, LINK_LINE
from .code_blocks import in_context
from .paragraphs import column


def keep_data_tables(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
                     probability: np.ndarray) -> int:
    """Keep the rest of every data table the model kept a cell of, or that lies in kept
    text (:func:`~.code_blocks.in_context`: a kept paragraph just before it and one
    just after it, a training plan the model doubts cell by cell): a ``<table>`` with a
    header cell (``<th>`` or ``<thead>``), at least :data:`DATA_ROWS` rows and no table
    inside it, at most :data:`features.LEVELS` - 1 levels above a cell's container; its
    lines the model doubts (at least :data:`~.boundary.BOUNDARY_FLOOR`) that are no link
    (under :data:`~.boundary.LINK_LINE` of link text: a comparison's links to other
    products) or whose links lead within the page (a reference's table of functions,
    each linking to its entry below), and that no step barred.  The model judges each
    cell by its look (a number, a day, "Rest") and keeps the longer ones; a reader reads
    the table whole.  A layout table (no header cell, or tables inside it: an old news
    site's columns) is left to the model.  Each table is judged by what was kept before
    this step.  Returns how many lines were kept."""
    is_cell = column(para, "is_cell") > 0
    if not is_cell.any():
        return 0
    kept = keep.copy()  # what the model and the steps before kept: each table judged by it
    doubted = ~keep & ~barred & (para.chars > 0) & (probability >= BOUNDARY_FLOOR)
    # a table none of whose cells is kept or doubted has nothing to give: its cells (an
    # old news site's layout, thousands of them) are not walked
    cells = (is_cell & (keep | doubted)).nonzero()[0]
    linked = column(para, "link_density") >= LINK_LINE
    done = np.zeros(len(keep), bool)  # the lines of the data tables already kept
    verdicts: dict[etree._Element, bool] = {}  # each table tested once (a data table may lie in a layout one)
    added = 0
    for line in cells.tolist():
        if done[line]:
            continue
        found = _table_level(page.blocks[para.starts[line]])
        if found is None:
            continue
        level, table = found
        if table not in verdicts:
            verdicts[table] = _data_table(table)
        if not verdicts[table]:
            continue
        start, end = para.spans[level, :, line].tolist()
        done[start:end] = True  # a data table holds no table: its lines are judged together
        if kept[start:end].any() or in_context(start, end, kept):
            lines = [i for i in (doubted[start:end].nonzero()[0] + start).tolist()
                     if not linked[i] or _in_page_links(page, para, i)]
            keep[lines] = True
            added += len(lines)
    return added


def _in_page_links(page: Page, para: features.Paragraphs, line: int) -> bool:
    """Whether every link of paragraph ``line`` leads within the page (``href="#…"``,
    not a bare ``#``: a script's "Show more")."""
    for block in page.blocks[para.starts[line]:para.ends[line]]:
        if block.link_chars:
            anchor = next(block.node.iterancestors("a"), None) if block.node.tag != "a" else block.node
            href = anchor.get("href", "") if anchor is not None else ""
            if len(href) < 2 or not href.startswith("#"):  # a bare "#" is a script's control
                return False
    return True


def _table_level(block: Block) -> tuple[int, etree._Element] | None:
    """The table holding the block and how many levels above the block's container (its
    nearest block-level element) it stands, when within :data:`features.LEVELS` - 1
    levels; None otherwise."""
    node: etree._Element | None = container(block)
    for level in range(features.LEVELS):
        if node is None:
            return None
        if node.tag == "table":
            return level, node
        node = node.getparent()
    return None


def _data_table(table: etree._Element) -> bool:
    """A table of data: it has a header cell, at least :data:`DATA_ROWS` rows, holds no
    table, and is no month's calendar."""
    if next(table.iter("th", "thead"), None) is None or next(table.iterdescendants("table"), None) is not None:
        return False
    return len(list(islice(table.iter("tr"), DATA_ROWS))) == DATA_ROWS and not _calendar(table)


def _calendar(table: etree._Element) -> bool:
    """Whether a table is a month's calendar (an archive's widget beside the story): at
    least :data:`CALENDAR_CELLS` cells with text, nearly all (:data:`CALENDAR_SHARE`) a
    day of the month or a weekday's initials ("п", "Mo", "Tue")."""
    texts = [" ".join("".join(t for t in cell.itertext() if isinstance(t, str)).split())
             for cell in islice(table.iter("td", "th"), CALENDAR_READ)]
    texts = [text for text in texts if text]
    days = sum(len(text) <= 2 and text.isdecimal() and int(text) <= 31 or (len(text) <= 3 and text.isalpha())
               for text in texts)
    return len(texts) >= CALENDAR_CELLS and days >= CALENDAR_SHARE * len(texts)


#: a calendar shows two weeks at least…
CALENDAR_CELLS = 14
#: …and its cells are days and weekdays, but a month's name or a "«" link
CALENDAR_SHARE = 0.9
#: the cells read to tell (a calendar has at most 49 and a header)
CALENDAR_READ = 64


#: a data table has at least this many rows (a toolbar's one row of "Print", "Discuss"
#: is laid out as a table with a header cell on some old news sites)
DATA_ROWS = 3
