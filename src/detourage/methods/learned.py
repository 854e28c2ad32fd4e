"""detourage's own extractor: gradient-boosted trees over paragraph features.

Every paragraph gets the features of :mod:`detourage.learned.features`; the shipped tree
ensembles score them (:mod:`detourage.learned.forest`: a first stage on the paragraph's
own features, a second that also sees the first stage's verdicts around it,
:mod:`detourage.learned.context`); the page-level rules of :mod:`detourage.learned.rules`
keep those at or above the decision threshold and then what a reader expects (no comment
sections, no related boxes, the title, the boundary lines, the figures…).

The shipped model (``data/learned-default.zip``) is rebuilt by
``python benchmarks/train_learned.py --write``; ``detourage train learned`` trains one on
your own gold and ``--model`` uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..learned import features, pagetype, rules
from ..learned.forest import Model, load_model
from ..learned.rules.comments import discussion
from ..model import Labels, Page
from .common import label_paragraphs

NAME = "learned"
SEED = "own"
DESCRIPTION = ("detourage's own extractor: gradient-boosted trees classify every paragraph from "
               "features that carry across sites (DOM context, densities, title, JSON-LD, neighbours)")

#: threshold shift of ``favor``: trafilatura's favor_precision / favor_recall
FAVOR_SHIFT = {"balanced": 0.0, "precision": 0.15, "recall": -0.15}


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    #: a model file written by ``detourage train learned``, or a :class:`Model`; None
    #: for the shipped model
    model: str | Path | Model | None = None
    #: move the decision threshold toward precision (less boilerplate) or recall (less loss)
    favor: Literal["balanced", "precision", "recall"] = "balanced"
    #: also keep comment sections
    comments: bool = False
    #: keep the best container when the model keeps almost nothing of a page with text
    fallback: bool = True
    #: the page's kind (:data:`detourage.learned.pagetype.TYPES`: "article", "listing"…),
    #: which moves the decision threshold (a listing keeps more of the lines the model
    #: doubts); "auto" guesses it from the page (:func:`detourage.learned.pagetype.guess`)
    page_type: str = "auto"

    def __post_init__(self) -> None:
        if self.favor not in FAVOR_SHIFT:
            raise ValueError(f"favor must be one of {', '.join(FAVOR_SHIFT)}, not {self.favor!r}")
        if self.page_type != "auto" and self.page_type not in pagetype.TYPES:
            raise ValueError(f"page_type must be auto or one of {', '.join(pagetype.TYPES)}, not {self.page_type!r}")


def label(page: Page, options: Options = Options()) -> Labels:
    """Score every paragraph and keep the content (:func:`detourage.learned.rules.apply`)."""
    model = options.model
    if not isinstance(model, Model):
        model = load_model(None if model is None else str(model))
    model.check(features.names())
    para = features.compute(page)
    details: dict = {"model": model.meta.get("name", "learned")}
    if not len(para):
        return Labels(NAME, (), {NAME: details})
    kind, told = ((options.page_type, "given") if options.page_type != "auto"
                  else pagetype.guess(page.url, para))
    probability = model.probabilities(para)
    base = model.threshold + FAVOR_SHIFT[options.favor]
    if (told != "given" and kind == "article"
            and discussion(para, probability >= base + pagetype.THRESHOLD_SHIFT[kind])):
        # a thread the page declares or leaves unnamed as an article: its posts are the text
        kind, told = "forum", "thread"
    threshold = base + pagetype.THRESHOLD_SHIFT[kind]
    details.update(page_type=kind, page_type_from=told)
    per_block, found = rules.apply(page, para, probability, threshold, comments=options.comments,
                                   fallback=options.fallback, kind=kind)
    details.update(found)
    return Labels(NAME, label_paragraphs(page.blocks, per_block.tolist()), {NAME: details})
