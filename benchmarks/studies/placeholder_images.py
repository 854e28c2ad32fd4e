"""Alt texts that describe a picture: are they text a reader reads?

    PYTHONPATH=benchmarks python benchmarks/studies/placeholder_images.py     # ~1 min on 2 cores

An illustration's alt text stands for its picture and is not text (issue 43 §1). Two
kinds of image were read as their alt text all the same: the decorative ones (an icon, a
logo, an avatar: :func:`detourage.segment.decorative`), whose alt text is often a word
read in its sentence ("PDF", an emoji's ":)") but as often a description ("Acme
Corporation logo", "Photo of the author"); and those whose source is no picture yet, a
data URI (a lazy loader's stand-in, or the picture inlined whole) or none (its loader's
script names it), which a browser shows as a picture once the page's scripts have run.
:attr:`detourage.model.Block.silent` now leaves out the alt text of both when it holds
at least :data:`~detourage.model.DESCRIBED_WORDS` words.

For every image block of the shared datasets' pages (``../shared/datasets`` and
``datasets-extra/wcxb-dev``) this counts, by dataset, by its source (``none``, ``data
URI``, a ``source`` decorative or not) and by the length of its alt text (under
DESCRIBED_WORDS words or not): how many alt texts the gold does not hold, and how many
it does (their words, lower-cased, found in the gold's as a run). An alt text found in
the gold is often a heading's or a caption's words too.
"""

from __future__ import annotations

import re
import sys
from collections import Counter

import _common
from detourage.errors import DetourageError
from detourage.gold import load_dataset
from detourage.loading import load
from detourage.model import DESCRIBED_WORDS, Block
from train_learned import dataset_paths

_WORD = re.compile(r"\w+")


def _words(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def source_kind(block: Block) -> str:
    """Where an image block's picture comes from: ``none``, ``data URI``, or a source
    (``decorative source`` for an icon, an avatar, a tracking pixel)."""
    image = block.image or ""
    if not image:
        return "none"
    if image[:5].lower() == "data:":
        return "data URI"
    return "decorative source" if block.decorative else "source"


def main() -> int:
    counts: Counter[tuple[str, str, str, bool]] = Counter()
    for path in dataset_paths():
        ds = load_dataset(path)
        for doc in ds.scorable:
            gold = _words(" ".join(text for _, text in doc.gold_blocks) if doc.gold_blocks
                          else doc.gold_path.read_text(encoding="utf-8", errors="replace"))
            try:
                page = load(doc.read_html())
            except DetourageError:  # a page detourage refuses (too large, not HTML) holds no block
                continue
            for block in page.blocks:
                words = _words(block.text)
                if block.image is None or not words:
                    continue
                long = "described" if len(block.text.split()) >= DESCRIBED_WORDS else "short"
                counts[(ds.name, source_kind(block), long, words in gold)] += 1
    print(f"alt texts of image blocks, by source and length (described: {DESCRIBED_WORDS} words or more)\n")
    print(_common.table_head(["dataset", "source", "alt text", "not in gold", "in gold"], "lllrr"))
    for ds_name, kind, long in sorted({k[:3] for k in counts}):
        print(_common.table_row([ds_name, kind, long, counts[(ds_name, kind, long, False)],
                                 counts[(ds_name, kind, long, True)]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
