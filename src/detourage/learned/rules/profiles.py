"""A poster's profile: the fields a forum prints beside each post ("Posts: 4032",
"Joined: Thu Aug 27, 2020 2:37 pm", "Registered: 2012-09-03", "Location: United Kingdom").

phpBB, FluxBB, vBulletin, SMF and their kin print them in the post's box, a line each, so
the model reads them beside the post's text and keeps many: short lines of a number or a
date, in the post's container.  Readers skip them and golds leave them out (a scratch
study before this step, not in the repo, found such lines on wcxb-dev's forum pages and
CleanEval's, in no gold of a forum page).  An article's one "Reputation: 5%" or
an API's "Location: /api/users/12345" in a code block is no poster's box: a page's fields
are left out only when it prints at least :data:`PROFILE_LINES` of those that a forum
alone prints with a number or a date (:data:`_COUNTED`), outside code.
"""

from __future__ import annotations

import re

import numpy as np

from .. import features
from .paragraphs import column, lower_case, starting

#: a profile's field is a line of at most this many characters…
PROFILE_CHARS = 60
#: …and a page prints at least this many counted ones (a post's count and its author's
#: date of joining, under even the one post of a thread)
PROFILE_LINES = 2

#: the fields only a forum prints, each with a number or a date: a member's posts, when
#: they joined, their reputation, in the languages of the shipped stop lists and a few more
_COUNTED_NAMES = (r"posts|joined|join date|registered|member since|reputation|rep power|reaction score"
                  r"|likes received|karma|beiträge|registriert(?: seit)?|mitglied seit|сообщений|сообщения"
                  r"|зарегистрирован|репутация|posty|dołączył\(?a?\)?|inscrit le|δημοσιεύσεις|εγγραφή"
                  r"|帖子|注册时间|註冊時間|积分|積分")
#: the other fields of the same box, left out with them: where the member lives, their
#: messages, thanks and points
_OTHER_NAMES = (r"location|from|messages|thanks|points|wohnort|откуда|skąd|lokalizacja|来自|來自")
_VALUE = r"\s*[:：]\s*\S.{0,40}"
_COUNTED = re.compile(rf"[^\w\x1f]*(?:{_COUNTED_NAMES}){_VALUE}")
_FIELD = re.compile(rf"[^\w\x1f]*(?:{_COUNTED_NAMES}|{_OTHER_NAMES}){_VALUE}")
#: how a field starts, led by the "\x1f" that :func:`~.paragraphs.starting` puts before each line
_COUNTED_START = re.compile(rf"\x1f[^\w\x1f]*(?:{_COUNTED_NAMES})\s*[:：]")
_FIELD_START = re.compile(rf"\x1f[^\w\x1f]*(?:{_COUNTED_NAMES}|{_OTHER_NAMES})\s*[:：]")


def drop_profile_fields(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> int:
    """Leave out the lines that are a poster's profile field, and mark them in ``barred``
    (the steps that add lines back pass them over), on a page printing at least
    :data:`PROFILE_LINES` counted ones (:data:`_COUNTED`: "Posts: 4032", "Joined: Thu Aug
    27, 2020"), kept or not; the other fields of the box go with them ("Location: United
    Kingdom").  Lines in code, headings and lines over :data:`PROFILE_CHARS` stay.
    Returns how many kept lines were left out."""
    short = (para.chars <= PROFILE_CHARS) & (para.heading == 0) & (column(para, "dist_t_code") > 0)
    # a counted field holds a number or a date: the lines without a digit are not searched
    counted_lines = (short & (column(para, "share_digit") > 0)).nonzero()[0].tolist()
    if len(counted_lines) < PROFILE_LINES:
        return 0
    lowered = lower_case(para)
    counted = [i for i in starting(lowered, counted_lines, _COUNTED_START)
               if _COUNTED.fullmatch(lowered[i].strip())]
    if len(counted) < PROFILE_LINES:
        return 0
    fields = [i for i in starting(lowered, short.nonzero()[0].tolist(), _FIELD_START)
              if _FIELD.fullmatch(lowered[i].strip())]
    dropped = int(keep[fields].sum())
    keep[fields] = False
    barred[fields] = True
    return dropped
