"""A publisher's box closing the kept text with a call to action ("Start receiving …
headlines per email", "Support our mission…", "Submit your pics: …")."""

from __future__ import annotations

import re

import numpy as np

from .. import features
from .articles import APPENDED_ARTICLE_CHARS
from .paragraphs import lower_case, running


def drop_closing_promos(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> str:
    """Drop the publisher's box that closes the kept text when it opens with a call to
    action (:func:`promo_line`: "Start receiving … headlines per email", "Support our
    mission…", "Discuss this story on…", "Submit your pics: …"), itself or after a short
    heading ("Inside KHOU.com"), and mark it in ``barred``; its first line ("" when none).

    It is dropped from that line to the end of the kept text, when that is at most
    :data:`PROMO_LINES` paragraphs of at most :data:`PROMO_LINE_CHARS` each, holding at
    most :data:`PROMO_SHARE` of the kept text before it (a third, or as much when it
    holds two calls to action or more: a box of them), and at least
    :data:`APPENDED_ARTICLE_CHARS` are kept before it.  The model keeps such boxes
    readily (sentences of prose addressed to the reader), and they close a page's text
    where a credit line or an author's note would: only the call to action tells them
    apart, and a box of them never reads as the article's end."""
    kept = keep.nonzero()[0]
    tail = kept[-PROMO_LINES:]
    long = (para.chars[tail] > PROMO_LINE_CHARS).nonzero()[0]
    if len(long):
        tail = tail[long[-1] + 1:]
    if not len(tail):
        return ""
    lowered = lower_case(para)
    for at, i in enumerate(tail.tolist()):
        if not promo_line(lowered[i]):
            continue
        before = running(np.where(keep, para.chars, 0))
        first = tail[at - 1] if at and para.chars[tail[at - 1]] <= PROMO_HEADING_CHARS else i
        dropped = tail[tail >= first]
        article = int(before[first])
        calls = sum(promo_line(lowered[j]) for j in dropped.tolist())
        if article < APPENDED_ARTICLE_CHARS or before[-1] - article > PROMO_SHARE[min(calls, 2) - 1] * article:
            return ""
        keep[dropped] = False
        barred[first:dropped[-1] + 1] = True
        return para.texts[first]
    return ""


#: a closing promotional box is at most this many kept paragraphs…
PROMO_LINES = 10
#: …of at most this many characters each…
PROMO_LINE_CHARS = 450
#: …holding at most this share of the kept text before it (one call to action, two or
#: more); its heading is at most this long
PROMO_SHARE = (1 / 3, 1.0)
PROMO_HEADING_CHARS = 80
#: a call to action to the reader, at a line's start (after a bullet or a short label)
_PROMO = re.compile(
    r"[\s•·*›»>|-]*(?:[^:.!?]{1,30}:\s*)?(?:subscribe\b|sign up\b|start receiving\b"
    r"|get (?:\S+ ){0,3}(?:headlines|newsletters?|news alerts|updates)\b|discuss this\b|digg this\b"
    r"|support (?:our|us)\b|donate\b|a message from\b|follow us\b|join (?:us|our)\b|submit your\b"
    r"|rate this\b|download (?:our|the) app\b|newsletter\b|abonnieren\b|abonnez-vous\b|inscrivez-vous\b"
    r"|suscr[ií]bete\b|inscreva-se\b|подпишитесь\b|присоединяйтесь\b|folgen sie uns\b|suivez-nous\b"
    r"|s[ií]guenos\b|seguici\b|obserwuj nas\b|dołącz do nas\b|ακολουθήστε μας\b|关注我们|關注我們)")


def promo_line(lowered: str) -> bool:
    """Whether a lower-cased line opens with a call to action to the reader (to
    subscribe, sign up, support, donate, discuss, submit…)."""
    return _PROMO.match(lowered) is not None
