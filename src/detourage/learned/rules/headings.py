"""The headings' rules: the title heading kept when it leads the kept text, the
standfirst under it, and the permalink anchors ("¶") left out of kept headings."""

from __future__ import annotations

import numpy as np

from ...model import Page
from .. import features
from .ancestors import clear_of_boilerplate
from .paragraphs import HEADING_TAGS, column


def keep_title(para: features.Paragraphs, keep: np.ndarray) -> None:
    """Keep the title heading when it precedes or sits inside the kept content."""
    i = para.title_index
    if i < 0 or keep[i] or not para.heading[i]:
        return
    kept = keep.nonzero()[0]
    if len(kept) and i <= kept[-1]:
        keep[i] = True


def keep_standfirst(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
                    probability: np.ndarray) -> None:
    """Keep the standfirst: of the lines between the kept title heading and the first
    kept paragraph after it (at most :data:`STANDFIRST_GAP` apart), the one the model
    ranks best, when it is a sentence of prose (:data:`STANDFIRST_WORDS` words, no
    link), not a caption, the model gives it :data:`STANDFIRST_FLOOR` and it sits in
    no boilerplate box (a box named for the article's meta data aside: the title block's).

    A standfirst (the summary under a headline: "Explore a shape that can't pass
    through itself…") sits in a box of its own between the title block's byline, date
    and share buttons and the body, too far from the body for the boundary step's gaps,
    and the model doubts it (0.3–0.45): a lone sentence among meta lines.  A teaser that
    repeats the body's first lines (its first :data:`STANDFIRST_SAME` characters in one
    of the first three kept paragraphs) stays out."""
    title = para.title_index
    if title < 0 or not para.heading[title] or not keep[title]:
        return
    after = keep[title + 1:title + 2 + STANDFIRST_GAP].nonzero()[0]
    if not len(after) or after[0] == 0:
        return
    lines = np.arange(title + 1, title + 1 + int(after[0]))
    lines = lines[~barred[lines] & (probability[lines] >= STANDFIRST_FLOOR)
                  & (column(para, "link_density")[lines] == 0) & (column(para, "dist_t_figure")[lines] > 1)
                  & (para.heading[lines] == 0)]
    candidates = [i for i in lines.tolist() if len(para.texts[i].split()) >= STANDFIRST_WORDS]
    if not candidates:
        return
    # a teaser repeating the body's first lines is no standfirst: it would be read twice
    first = keep[title + 1:].nonzero()[0][:3] + title + 1
    body = " ".join(" ".join(para.texts[i].split()) for i in first.tolist())
    lines = np.array([i for i in candidates if " ".join(para.texts[i].split())[:STANDFIRST_SAME] not in body],
                     dtype=np.int64)
    if not len(lines):
        return
    lines = lines[clear_of_boilerplate(para, lines, np.full(len(lines), title), allowed=("meta",))]
    if len(lines):
        keep[lines[np.argmax(probability[lines])]] = True


#: the standfirst lies at most this many paragraphs after the title heading…
STANDFIRST_GAP = 12
#: …is a line of at least this many words…
STANDFIRST_WORDS = 8
#: …that the model gives at least this probability, and whose first characters (this
#: many) do not start one of the body's first kept paragraphs
STANDFIRST_FLOOR = 0.25
STANDFIRST_SAME = 50


def drop_permalinks(page: Page, para: features.Paragraphs, keep: np.ndarray, per_block: np.ndarray) -> None:
    """Leave out the permalink anchors documentation generators put in headings
    (``<a class="headerlink">¶</a>``: Sphinx, MkDocs…): a link in a kept heading whose
    whole text is one of :data:`PERMALINK_MARKS`."""
    for p in (keep & (para.heading > 0)).nonzero()[0].tolist():
        for i in range(para.starts[p], para.ends[p]):
            block = page.blocks[i]
            if block.text in PERMALINK_MARKS and block.link_chars and not HEADING_TAGS.isdisjoint(block.path):
                per_block[i] = False


#: the whole text of a heading's permalink anchor
PERMALINK_MARKS = frozenset({"¶", "#", "§", "🔗", "⚓", "⚓︎", "🔗︎"})
