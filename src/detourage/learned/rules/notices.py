"""A rights notice closes the story: "Copyright 2008 Associated Press. All rights reserved.",
"© 2007 United Press International", "© Wszystkie prawa zastrzeżone".  What the page
shows below it, outside the box the notice closes (the next story of a blog's column,
the site's own headlines, a reader's poll, the comments), is no part of the story."""

from __future__ import annotations

import re

import numpy as np

from .. import features
from .paragraphs import column, lower_case, starting

#: a notice starts, after its ornaments, with the sign, "(c)" or the word…
_HEAD = r"(?:©|\(c\)|copyright\b)"
_NOTICE = re.compile(r"[^\w(©]*" + _HEAD)
#: …found at the start of a line of lines joined by "\x1f" (:func:`.paragraphs.starting`)
_NOTICE_START = re.compile(r"\x1f[^\w(©\x1f]*" + _HEAD)
#: …and names a year or reserves the rights, in the languages of the shipped stop lists
#: and a few more (a photographer's "© AP" under a picture does neither)
_RIGHTS = re.compile(
    r"\b(?:19|20)\d\d\b|all rights reserved|may not be (?:re)?published|reproduction\b.{0,60}\bprohibited"
    r"|alle rechte vorbehalten|tous droits réservés|todos los derechos reservados|tutti i diritti riservati"
    r"|wszystkie prawa zastrzeżone|все права защищены|όλα τα δικαιώματα|版权所有|版權所有|著作権")
#: a notice is at most this long
NOTICE_CHARS = 250
#: it closes a story when at least this much kept text is above it…
NOTICE_ARTICLE_CHARS = 500


def notice_line(text: str) -> bool:
    """Whether a line is a rights notice: it starts with "©", "(c)" or "Copyright" and
    names a year or reserves the rights; at most :data:`NOTICE_CHARS` long."""
    return (len(text) <= NOTICE_CHARS and _NOTICE.match(text) is not None
            and _RIGHTS.search(text) is not None)


def drop_after_notice(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> str:
    """Drop the kept lines below the first rights notice (:func:`notice_line`) that lie
    outside the notice's container's parent, and mark them in ``barred``; the notice (""
    when none).  The notice need not be kept itself: a model that doubts "Copyright ©
    2008 Radio New Zealand" under the story still keeps the features box below it.

    The notice must follow at least :data:`NOTICE_ARTICLE_CHARS` of kept text and more
    than the kept text after it (the story is above it: a documentation page opening
    with its licence is no story closed), outside a picture's box or figure (a
    photographer's "© 2012 Getty Images" sits in the story), a quotation (a licence an
    article quotes) and a code block (a program's banner quoted in a story).  What its
    parent holds stays: an agency's notice and the lines beside it ("The full article
    contains 345 words", "Last updated: …") are the story's end; the next story of a
    blog's column, a box of the site's headlines and the comments are further away."""
    kept = keep.nonzero()[0]
    if len(kept) < 2:
        return ""
    running_kept = para.chars[kept].cumsum()  # kept characters up to each kept line, itself included
    total = int(running_kept[-1])
    # a notice stands below enough kept text and above less: after the kept line where
    # the running sum (sorted) reaches both, and above the last kept line (a notice below
    # it, the site's footer, closes nothing kept)
    reached = int(np.searchsorted(running_kept, max(NOTICE_ARTICLE_CHARS, total // 2)))
    if reached >= len(kept) - 1:
        return ""
    lowered = lower_case(para)
    lines = list(range(int(kept[reached]) + 1, int(kept[-1])))
    found = [i for i in starting(lowered, lines, _NOTICE_START) if notice_line(lowered[i])]
    if not found:
        return ""
    media, figure, quote = column(para, "dist_media"), column(para, "dist_t_figure"), column(para, "dist_t_quote")
    code = column(para, "dist_t_code")
    for i in found:
        at = int(np.searchsorted(kept, i))  # the kept lines before it
        above = int(running_kept[at - 1]) if at else 0
        below = total - above - (int(para.chars[i]) if keep[i] else 0)
        if (above < NOTICE_ARTICLE_CHARS or below >= above or code[i] == 0
                or min(media[i], figure[i], quote[i]) <= MEDIA_LEVELS):
            continue
        end = int(para.spans[1, 1, i])  # one past the last line of the container's parent
        out = kept[kept >= end]
        if not len(out):
            return ""
        keep[out] = False
        barred[end:] = True
        return para.texts[i]
    return ""


#: a notice this many levels or fewer below a box named as a picture's (caption, credit,
#: photo…) or a ``<figure>`` is a picture's credit, below a ``<blockquote>`` a quotation
MEDIA_LEVELS = 2
