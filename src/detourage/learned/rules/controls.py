"""Kept lines that are a control, not text ("Click to expand...", "Show more"), and a
poll's question and choices."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
from lxml import etree

from ...model import Page
from .. import features
from .comments import COMMENT_WORDS
from .paragraphs import HEADING_TAGS, NONE_ABOVE, column, lower_case


def drop_controls(para: features.Paragraphs, keep: np.ndarray) -> None:
    """Leave out the kept lines that are a control, not text: "Click to expand...",
    "Show more" (a forum quote's or a long post's toggle); and the label of an
    advertisement's slot between the paragraphs ("Advertisement", "REKLAMA", "Реклама",
    "Ads by Google"), or a reader's button to read on or to share ("Continue reading the
    main story", "Czytaj dalej", "分享到:"), a page's tools ("Print | Email", "字号：T|T",
    "Compare", "Add to cart", "Print this Story", "E-mail to a friend", "Decrease font size",
    or a bar of them up to :data:`TOOLBAR_CHARS`: "E-Mail This Story Print This Story Tag
    With del.icio.us Digg This"), a code block's copy button ("Copy", "Copied!") or a
    widget's placeholder ("Loading...", "跟贴读取中..."), each a line of its own and no
    heading (a privacy policy's section "Advertising" is one), or a shop card's badge or
    button ("New arrival", "Top rated", "Sold out", "More options", "(0) 0 reviews"), or a
    post's count of likes ("24 Likes") or an attachment's placeholder; and
    a post's footer of links, one of them its count of comments ("Posted by jamie k at
    04:29 PM | Permalink | Comments (0) | TrackBack (0)", "View/Add Comments (6) |
    Category: Antarctica")."""
    lowered = lower_case(para)
    lines = (keep & (para.chars <= TOOLBAR_CHARS)).nonzero()[0]
    for i, short in zip(lines.tolist(), (para.chars[lines] <= CONTROL_CHARS).tolist()):
        line = lowered[i].strip()
        control = short and line.startswith(_CONTROL_STARTS) and _CONTROL.fullmatch(line)
        # a longer line is left out only as a bar of tools, each one of them
        if control or not para.heading[i] and (_LABELS if short else _TOOLS).fullmatch(line):
            keep[i] = False
    # a footer counts its comments: a line without a digit is none (most kept lines)
    for i in np.flatnonzero(keep & (para.chars <= FOOTER_CHARS) & (column(para, "share_digit") > 0)).tolist():
        line = lowered[i]
        if not para.heading[i] and _FOOTER_SEPARATOR.search(line) and \
                any(_COMMENT_COUNT.fullmatch(part) for part in _FOOTER_SEPARATOR.split(line)):
            keep[i] = False


CONTROL_CHARS = 40
#: a bar of a page's tools, each one of them ("E-Mail This Story Print This Story Tag With
#: del.icio.us Digg This"), is at most this long
TOOLBAR_CHARS = 100
#: a post's footer is at most this long
FOOTER_CHARS = 150
#: what sets a footer's links apart
_FOOTER_SEPARATOR = re.compile(r"[|·•]")
#: a post's count of comments, one of its footer's links ("Comments (3)", "View/Add
#: Comments (6)", "5 comments", "Komentarze [2]", "Σχόλια (0)"): a word of
#: :data:`~.comments.COMMENT_WORDS` and a number
_COMMENT_WORD = rf"(?:{COMMENT_WORDS.pattern})\w*"
_COMMENT_COUNT = re.compile(rf"\s*(?:(?:view|add|view/add|read|post|leave)\s+)?{_COMMENT_WORD}"
                            rf"\s*[(\[:]?\s*\d+\s*[)\]]?\s*"
                            rf"|\s*\d+\s+(?:{_COMMENT_WORD}|responses?|replies)\s*")
_CONTROL = re.compile(r"(?:click to (?:expand|shrink)|(?:show|see|view) (?:more|less)|expand|collapse)\s*(?:\.\.\.|…)?")
_CONTROL_STARTS = ("click", "show", "see", "view", "expand", "collapse")
#: an advertisement's label, in the languages of the shipped stop lists and a few more,
#: with the arrows or dashes around it ("Advertisement >>", "- Reklama -")
_AD_LABEL = re.compile(r"[\W_]*(?:advertisements?|ads by google|anzeige|publicité|reklama|реклама|διαφήμιση|"
                       r"广告|廣告|sponsored links|σύνδεσμοι διαφημιζομένων)[\W_]*")
#: a page's tools (print, e-mail, the text's size, a social bookmark: "Print this Story",
#: "E-mail to a friend", "Post to del.icio.us", "Printer friendly version", "Decrease font
#: size"), a shop's buttons, a copy button, a widget's placeholder while it loads
_TOOL = (r"(?:(?:print|e-?mail|digg)(?: (?:this|it))?(?: (?:story|article|page|post|item))?|e-?mail (?:story|article)"
         r"|(?:e-?mail|send|post|add|tag)(?: this(?: (?:story|article|page|post))?)? (?:to|with|on) "
         r"(?:a friend|facebook|twitter|digg|del\.icio\.us|delicious|reddit|stumbleupon|myspace)"
         r"|print(?:er)?[- ]friendly(?: (?:version|page|format))?|(?:(?:increase|decrease|reset|change) )?"
         r"(?:font|text) size:?(?: ?[a+-]){0,4}|tweet|save|bookmark)")
_TOOLS = re.compile(r"[\W_]*(?:" + _TOOL + r"(?:[\s|·•/,]+" + _TOOL + r")*"
                    r"|addthis social bookmark button|subscribe to (?:our )?rss(?: feeds?)?"
                    r"|(?:调整|調整)?字[号體体][\W_]*(?:[大中小t↑↓][\W_]*)+"
                    r"|compare|quick ?(?:view|shop)|add to (?:cart|bag|basket|wish ?list|compare)"
                    # a code block's or a link's copy button, and what it says once pressed
                    r"|copy(?: code| to clipboard| link)?|copied!?|kopieren|copiar|kopiuj|копировать|复制|複製|コピー"
                    r"|loading(?: comments| more| content)?|wird geladen|chargement(?: en cours)?|cargando|caricamento"
                    r"|ładowanie|загрузка"
                    r"|.{0,4}(?:读取中|加载中|载入中|讀取中|載入中))[\s.…]*")
#: a button to read on or to share, in the same languages
_READ_ON = re.compile(r"[\W_]*(?:continue reading(?: the (?:main )?story)?|read more|"
                      r"read (?:the )?full (?:story|article|post)|"
                      r"learn more|en savoir plus|mehr erfahren|dowiedz się więcej|подробнее|了解更多|"
                      r"czytaj (?:dalej|więcej)|читать (?:далее|полностью)|weiterlesen|lire la suite|leer más|"
                      r"leggi (?:tutto|di più)|阅读全文|閱讀全文|share(?: this(?: article| story| page| post)?)?|"
                      r"分享到|udostępnij|поделиться|κοινοποίηση)[\W_]*")
#: a shop card's badge or button, or its count of no reviews ("New arrival", "Top rated",
#: "Sold out", "More options", "(0) 0 reviews")
_SHOP = re.compile(r"[\W_]*(?:new(?: arrivals?)?|top rated|best ?sellers?|(?:in|out of) stock|sold out"
                   r"|(?:more|choose|select) options|(?:view|see) details|shop now|buy now"
                   r"|\(?0\)?\s*0? reviews?)[\W_]*")
#: a post's count of likes or reactions under it ("1 Like", "24 Likes": Discourse's,
#: XenForo's), and a forum's placeholder of an attached picture ("View attachment 441678")
_POST_COUNTS = re.compile(r"[\W_]*(?:\d[\d,.]*\s*(?:likes?|reactions?)|view attachment \d+)[\W_]*")
#: the five at once: a line is all one of them (one call a line, not five)
_LABELS = re.compile(f"(?:{_AD_LABEL.pattern})|(?:{_READ_ON.pattern})|(?:{_TOOLS.pattern})|(?:{_SHOP.pattern})"
                     f"|(?:{_POST_COUNTS.pattern})")


def drop_polls(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> int:
    """Drop the kept lines of a poll, and mark them in ``barred``: a ``<form>`` of at
    most :data:`POLL_WORDS` words holding a group of radio buttons (two at least of one
    name) and no heading but its question, its question and its choices ("Which is your
    preferred playstyle?", "Mostly PvE", "Results"), a reader's vote and no part of the
    story.  A form with other headings is a page's tool (a calculator's sections:
    "Select a Version of the Calculator", "Information You'll Need").  Returns how many
    kept lines were dropped."""
    formed = (keep & (column(para, "dist_t_form") < NONE_ABOVE)).nonzero()[0]  # in a form, a label…
    polls: dict[etree._Element, bool] = {}
    lines = []
    for i in formed.tolist():
        node = page.blocks[para.starts[i]].node
        form = None if node is None else node if node.tag == "form" else next(node.iterancestors("form"), None)
        if form is None:
            continue
        if form not in polls:
            polls[form] = _poll(form)
        if polls[form]:
            lines.append(i)
    keep[lines] = False
    barred[lines] = True
    return len(lines)


def _poll(form: etree._Element) -> bool:
    """Whether a form is a poll: a radio group, few words, no heading but one asking a
    question (a poll's own: "Tusk will not be in Smolensk. What do you think?")."""
    radios = Counter(field.get("name") for field in form.iter("input") if (field.get("type") or "").lower() == "radio")
    if max(radios.values(), default=0) < 2 or len("".join(map(str, form.itertext())).split()) > POLL_WORDS:
        return False
    headings = [" ".join(map(str, h.itertext())).strip() for h in form.iter(*HEADING_TAGS)]
    return not headings or len(headings) == 1 and headings[0].endswith(QUESTION_MARKS)


#: how a question ends: Latin, full-width (Chinese, Japanese), Arabic, Greek (";", and
#: its own U+037E)
QUESTION_MARKS = ("?", "\uff1f", "\u061f", ";", "\u037e")

#: a poll's form holds at most this many words (a page wrapped whole in a form holds more)
POLL_WORDS = 250
