"""Gold data: datasets of pages with their cleaned text, the text as it is compared,
and the alignment of a page's blocks with its gold.

- :mod:`.dataset`: a dataset folder (``html/``, ``gold/``, ``meta.jsonl``) read into
  :class:`GoldPage` objects, CleanEval text read and written (:class:`GoldBlock`), the
  fixed train/held-out split;
- :mod:`.text`: normalised text, word and character tokens, and the Ratcliff/Obershelp
  alignment the CleanEval scorer uses;
- :mod:`.align`: a page's blocks labelled from its gold (training labels for the learned
  extractor and Victor, the inspector's gold view).

The learned extractor, Victor and the evaluation import this package; it imports none
of them.
"""

from .dataset import (
    BLOCK_KINDS,
    Dataset,
    GoldBlock,
    GoldKind,
    GoldPage,
    format_cleaneval,
    load_dataset,
    parse_cleaneval,
    split_of,
)

__all__ = ["BLOCK_KINDS", "Dataset", "GoldBlock", "GoldKind", "GoldPage", "format_cleaneval", "load_dataset",
           "parse_cleaneval", "split_of"]
