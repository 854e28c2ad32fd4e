"""Victor (Marek, Pecina & Spousta 2007; seed 003): cleaning as sequence labelling.

Every block gets one of header / paragraph / list / continuation / other from a
linear-chain CRF over the features of seed 003 §4 (:mod:`detourage.victor.features`).
The shipped model (``data/victor-default.zip``) is trained by
``benchmarks/train_victor.py`` on the training split of the shared datasets (see that
script for the split); ``detourage train victor`` trains one on your own pages and
``--model`` uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..model import Labels, Page
from ..victor.crf import CRFModel, load_model

NAME = "victor"
SEED = "003"
DESCRIPTION = "Victor (seed 003): a linear-chain CRF labels every block (trainable for your genre)"


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    #: a model file written by ``detourage train victor``, or a :class:`CRFModel` in memory;
    #: None for the shipped model
    model: str | Path | CRFModel | None = None


def label(page: Page, options: Options = Options()) -> Labels:
    """Compute the features of every block and let the CRF label the sequence."""
    model = options.model
    if not isinstance(model, CRFModel):
        model = load_model(None if model is None else str(model))
    labels = model.tag(page.blocks)
    return Labels(NAME, labels, {"model": model.meta.get("name", "victor")})
