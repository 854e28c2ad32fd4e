"""One page cannot take the machine: the block limit trips early and cheaply, and blocks
are lean (issue 31, item 4).

A 4 MB ``<pre>`` of 2 million lines reached 3 GB before the runner's memory limit; 400 000
table cells took over 1 GB.  Segmentation now counts blocks as it makes them and stops at
``Limits.max_blocks`` (``limit:blocks``), and blocks of one page share their equal path
and crossing tuples.  The pages are generated here at a scale that keeps each test fast.
"""

from __future__ import annotations

import time
import tracemalloc

import pytest

import detourage
from detourage.errors import LimitExceeded
from detourage.parse import Limits, parse
from detourage.segment import segment

#: one page shape per way of making many blocks from few bytes
SHAPES = {
    "pre-lines": lambda n: "<pre>" + "a\n" * n + "</pre>",
    "table-cells": lambda n: "<table>" + ("<tr>" + "<td>a</td>" * 10 + "</tr>") * (n // 10) + "</table>",
    "list-items": lambda n: "<ul>" + "<li>a</li>" * n + "</ul>",
    "br-lines": lambda n: "<p>" + "a<br>" * n + "</p>",
    "spans-in-one-paragraph": lambda n: "<p>" + "<span>a</span>" * n + "</p>",
}


def test_millions_of_lines_stop_at_the_default_block_limit_within_seconds() -> None:
    """4 MB of one-character lines: before, every line became a block (30 s, 3 GB)."""
    page = "<html><body><pre>" + "a\n" * 2_000_000 + "</pre></body></html>"
    start = time.process_time()
    with pytest.raises(LimitExceeded) as raised:
        detourage.load(page)
    assert raised.value.reason == "limit:blocks"
    assert raised.value.limit == Limits().max_blocks
    assert time.process_time() - start < 3.0


@pytest.mark.parametrize("shape", SHAPES)
def test_the_limit_trips_before_the_page_is_cut_up(shape: str) -> None:
    """Ten times more blocks than the limit: the memory used is that of the blocks made
    up to the limit, not of the whole page (counted as they are made)."""
    limits = Limits(max_blocks=2_000)
    tree = parse(SHAPES[shape](20_000), limits)
    tracemalloc.start()
    try:
        with pytest.raises(LimitExceeded, match="blocks"):
            segment(tree, limits)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000 * 600


@pytest.mark.parametrize("shape", SHAPES)
def test_blocks_are_lean(shape: str) -> None:
    """About 250 bytes a block (the block, its text, its element's proxy); a path and a
    crossing tuple per block made it over 400."""
    tree = parse(SHAPES[shape](20_000))
    tracemalloc.start()
    try:
        blocks = segment(tree)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(blocks) == 20_000
    assert peak / len(blocks) < 330

