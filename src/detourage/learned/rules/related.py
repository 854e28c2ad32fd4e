"""Related boxes: a box of links to other pages ("Latest news", "Related articles",
"Czytaj także", "相关新闻") below the kept text, and the lines led by such a phrase
("Related: …", "READ MORE: …") between an article's paragraphs."""

from __future__ import annotations

import re

import numpy as np

from .. import features
from .paragraphs import column, lower_case, running, starting

#: the heading of a box of links to other pages, whole (lower case, spaces collapsed, a
#: trailing ":", "»"… allowed), in the languages of the shipped stop lists and a few more;
#: only phrases that do not head a section of an article or a label ("see also", "more on
#: X", "most popular languages" and a bare "recommended:" do)
RELATED_PHRASES = (
    r"latest(?: [\w.'’-]+){0,3} (?:news|stories|articles|headlines|posts)",
    r"the latest(?: [\w.'’-]+){0,3} (?:news|stories|articles|headlines|posts)",
    r"related(?: (?:articles?|stories|news|posts|content|links|coverage|topics|videos|publications|reports))?",
    r"more (?:news|stories|articles|headlines)", r"more from .+",
    r"most (?:read|popular|viewed|shared|emailed)(?: (?:stories|articles|news|posts|now|today))?",
    r"top (?:stories|news|headlines)", r"recommended (?:for you|stories|articles|reading|posts)",
    r"you (?:may|might) also (?:like|enjoy|be interested in)", r"may also (?:like|enjoy|be interested in)",
    r"might also (?:like|enjoy|be interested in)",
    r"read (?:also|next)", r"also read", r"trending(?: (?:now|stories|articles|news))?",
    r"popular (?:now|stories|articles|posts)", r"what to read next",
    r"ähnliche (?:artikel|beiträge|themen)", r"weitere (?:artikel|nachrichten|meldungen)", r"mehr zum thema",
    r"meistgelesen(?:e artikel)?", r"das könnte sie auch interessieren", r"à lire aussi", r"lire aussi",
    r"sur le même sujet", r"les plus lus", r"articles similaires", r"noticias relacionadas", r"te puede interesar",
    r"lo más leído", r"más noticias", r"articoli correlati", r"potrebbe interessarti", r"i più letti",
    r"czytaj (?:też|także|również)", r"zobacz (?:też|także|również)",
    r"najnowsze(?: (?:wiadomości|artykuły|informacje))?", r"polecamy", r"najczęściej czytane",
    r"podobne(?: (?:artykuły|wiadomości|tematy|do .+))?", r"więcej (?:wiadomości|artykułów|newsów)",
    r"powiązane (?:artykuły|tematy|wiadomości)", r"читайте (?:также|еще|ещё)", r"смотрите также",
    r"похожие (?:новости|статьи|материалы)", r"последние новости", r"самое (?:читаемое|популярное)",
    r"новости по теме", r"на ту же тему", r"по теме", r"последние публикации(?: на сайте)?", r"другие новости",
    r"τελευταία νέα", r"δείτε (?:επίσης|ακόμα|ακόμη)",
    r"διαβάστε (?:επίσης|ακόμα|ακόμη)", r"σχετικά (?:άρθρα|θέματα|νέα)", r"δημοφιλή(?: άρθρα)?",
    r"相关(?:新闻|阅读|文章|报道)", r"相關(?:新聞|閱讀|文章|報導)", r"推荐阅读", r"延伸阅读", r"猜你喜欢",
    r"热门(?:新闻|文章|推荐)", r"最新(?:新闻|文章)", r"lees ook", r"meer nieuws", r"leia também", r"mais lidas",
    r"notícias relacionadas", r"ilgili haberler", r"benzer haberler", r"çok okunanlar",
    r"similar (?:posts|articles|stories|news|products|items|recipes)", r"more (?:posts|like this|to (?:read|explore))",
    r"more in .+", r"recent (?:posts|articles|stories|news|headlines)",
    r"more recent (?:posts|articles|stories|news)",
    r"other (?:recent )?(?:news|articles|stories|posts|headlines)", r"other (?:posts|articles|stories) you .+",
    r"more (?:posts|articles|stories) you .+", r"editor['’]?s['’]? picks", r"don['’]?t miss", r"up next",
    r"keep reading", r"related reading",
    r"weitere beiträge", r"das könnte (?:dich|sie) auch interessieren", r"à lire également", r"vous aimerez aussi",
    r"articles liés", r"dans la même rubrique", r"artículos relacionados", r"otras noticias",
    r"también te puede interesar", r"leggi anche", r"altre notizie", r"veja também", r"artigos relacionados",
    r"gerelateerde artikelen", r"ook interessant",
)
RELATED_WORDS = re.compile("(?:" + "|".join(RELATED_PHRASES) + r")[\s:.»›>|-]*")
#: the letters such a heading starts with (each phrase starts with a literal one): a line
#: starting otherwise is no heading of the kind, without the whole pattern
_RELATED_FIRST = frozenset(phrase[0] for phrase in RELATED_PHRASES)


def _literal_start(pattern: str) -> str:
    """The characters every match of ``pattern`` starts with: up to its first pattern
    character (less the character before a ``?``, ``*`` or ``{``, which may be absent)."""
    found = re.search(r"[(\[?.*+|\\{]", pattern)
    if found is None:
        return pattern
    return pattern[:found.start() - (found.group() in "?*{")]


def _by_first_letter(words: tuple[str, ...]) -> str:
    """A pattern matching a line that starts with one of ``words``: one group a first
    letter (a match tries the letters, not every word: "a(?:lso|rticles)|b(?:enzer)");
    a one-letter word matches its letter alone."""
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[0], []).append(word[1:])
    parts = [re.escape(first) + ("" if "" in rests else "(?:" + "|".join(map(re.escape, rests)) + ")")
             for first, rests in groups.items()]
    return "(?:" + "|".join(parts) + ")"


#: the literal start of each phrase (up to its first pattern character), and its first
#: word: a line starting with none of them is no heading of the kind, without the pattern
_RELATED_PREFIXES = tuple(sorted({_literal_start(phrase) for phrase in RELATED_PHRASES}))
_RELATED_FIRST_WORDS = tuple(sorted({prefix.split(" ")[0] for prefix in _RELATED_PREFIXES}))
#: a lower-cased line starting (after white space) with one of those words, led by the
#: "\x1f" that :func:`~.paragraphs.starting` puts before each line
_RELATED_START = re.compile(r"\x1f[^\w\x1f]*" + _by_first_letter(_RELATED_FIRST_WORDS))
#: a related box's heading is at most this long…
RELATED_CHARS = 50
#: …and follows at least this many kept characters (teasers need an article to be teasers of)
RELATED_ARTICLE_CHARS = 200


#: the symbols around a heading that are no part of it: bullets, arrows, stars, rules
_ORNAMENT = re.compile(r"^[^\w(]+|[^\w:.!?)»›>|-]+$")


def related_mark(text: str) -> bool:
    """Whether a line is the whole heading of a box of links to other pages ("Latest
    news", "Related articles:", "Czytaj także", "Читайте также", "相关新闻")."""
    if len(text) > RELATED_CHARS:
        return False
    line = " ".join(_ORNAMENT.sub("", text).lower().split())  # "▪ ПОСЛЕДНИЕ ПУБЛИКАЦИИ ▪"
    if line[:1] not in _RELATED_FIRST:
        return False
    return line.startswith(_RELATED_PREFIXES) and RELATED_WORDS.fullmatch(line) is not None


def drop_related_boxes(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> list[str]:
    """Drop every box (the smallest ancestor of its heading that holds paragraphs after
    it) headed by a :func:`related_mark` line below :data:`RELATED_ARTICLE_CHARS` of kept
    text, when the box holds none of the kept text above the heading, and mark it in
    ``barred``; the headings.

    The last condition keeps a section of the article whose heading happens to read
    "Related…" in flat markup (its container holds the article above it); a box of
    teasers ("Latest news" and five headlines with their summaries) is a container of
    its own.  The model keeps such summaries readily: they are sentences of prose."""
    kept_chars = np.where(keep, para.chars, 0)
    kept_before = kept_chars.cumsum() - kept_chars
    short = ((para.chars <= RELATED_CHARS) & (kept_before >= RELATED_ARTICLE_CHARS)
             & (column(para, "link_density") < 0.5)).nonzero()[0]
    found = []
    lowered = lower_case(para)
    # a phrase's first word first (whitespace collapsed or not, it starts the line)
    for i in starting(lowered, short.tolist(), _RELATED_START):
        if not related_mark(para.texts[i]):
            continue
        end = _related_box_end(para, keep, i)
        if end > i + 1:
            keep[i:end] = False
            barred[i:end] = True
            found.append(para.texts[i])
    links = (keep & (para.chars <= RELATED_LINE_CHARS) & (column(para, "link_density") >= 0.5)).nonzero()[0]
    for i in links.tolist():
        if related_line(para.texts[i]):
            keep[i] = False
            barred[i] = True
            found.append(para.texts[i])
    return found


def related_line(text: str) -> bool:
    """Whether a line is a link to another story led by a related phrase and a colon
    ("Related: Core Value #1: Safety First", "READ MORE: …", "Czytaj także: …"), which
    news sites put between an article's paragraphs; the caller checks that it is mostly
    link text."""
    return text.lstrip()[:1].lower() in _RELATED_LEAD_FIRST and _RELATED_LEAD.match(text.lower()) is not None


#: a related line is at most this long
RELATED_LINE_CHARS = 250
#: the line leading a related box's links is at most this long
RELATED_LEAD_CHARS = 100
_RELATED_LEAD = re.compile(r"\s*(?:" + "|".join((*RELATED_PHRASES, "read more", "more")) + r")\s*[:：»›|]\s*\S")
_RELATED_LEAD_FIRST = _RELATED_FIRST | {"r", "m"}


def _related_box_end(para: features.Paragraphs, keep: np.ndarray, i: int) -> int:
    """One past the last paragraph of the box headed by paragraph ``i`` (``i + 1``:
    none): the smallest ancestor holding paragraphs after it, when it holds none of the
    kept text above and no smaller one holds lines before the heading and none after (the
    heading then ends a list: an entry of a table of contents); in the article's own
    container (flat markup), or when no box is, the run of link lines
    (titles of other pages) that follows the heading, and the short line ending with a
    colon that may lead it ("You may also be interested in the following articles:")."""
    kept = running(keep[:i])  # kept paragraphs before each index up to i
    for start, end in para.spans[:, :, i].tolist():
        if kept[i] > kept[start]:  # the box would hold the kept text above the heading
            break
        if end > i + 1:
            return end
        if start < i:
            # the heading closes a group of lines before it: the last entry of a table of
            # contents that names the page's related section, whose box above would be
            # the article
            break
    link = column(para, "link_density")
    end = i + 1
    if (end < len(keep) and not para.heading[end] and para.chars[end] <= RELATED_LEAD_CHARS
            and para.texts[end].rstrip().endswith((":", "：", "…", "..."))):
        end += 1
    while end < len(keep) and not para.heading[end] and (link[end] >= 0.5 or not para.chars[end]):
        end += 1
    return end if link[i + 1:end].any() else i + 1


def drop_dated_headlines(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> int:
    """Drop the kept lines of a news ticker, and mark them in ``barred``: a run of at
    least :data:`TICKER_STAMPS` lines led by a time or a date ("11:29", "28.11.2011"),
    at most :data:`TICKER_GAP` lines apart, whose headlines (the lines saying more than
    a stamp) are mostly links: the section's other news beside or below the story
    ("11:29 ΟΓΑ: Οροι…", "28.11.2011 Религия"), in any language.  Dropped are the
    stamps, the links and the short lines of the run, and the heading just above it; a
    line of prose in it is kept, but where the stamped lines are themselves mostly links
    ("10:17 Новый город-миллионник…" and its summary under it): then the summaries of at
    most :data:`TICKER_TEASER_CHARS` go with their headlines.  A live blog's stamped
    entries are no links.

    The step waits for the page's own text: it drops nothing from a page keeping less
    than :data:`TICKER_ARTICLE_CHARS` outside its runs (a news archive, a listing whose
    headlines are its content), nor from the kinds of page made of cards (the caller's
    test).  Returns how many kept lines were dropped."""
    lowered = lower_case(para)
    # a stamp holds three digits at least ("9:05"): the other lines are not searched
    digits = column(para, "share_digit") * para.chars  # the share is of the line's characters
    candidates = ((para.chars <= TICKER_LINE_CHARS) & (digits >= STAMP_DIGITS - 0.5)).nonzero()[0].tolist()
    if len(candidates) < TICKER_STAMPS:
        return 0
    stamped = starting(lowered, candidates, _STAMP_START)
    if len(stamped) < TICKER_STAMPS:
        return 0
    text = (para.chars > 0).nonzero()[0]
    order = np.zeros(len(keep), np.int64)  # each line's rank among the lines with text
    order[text] = np.arange(len(text))
    link = column(para, "link_density")
    image = column(para, "is_image") > 0
    inside = np.zeros(len(keep), bool)
    teasers = np.zeros(len(keep), bool)  # the runs whose stamped lines are the links
    run = [stamped[0]]
    for i in [*stamped[1:], None]:
        if i is not None and order[i] - order[run[-1]] <= TICKER_GAP + 1:
            run.append(i)
            continue
        if len(run) >= TICKER_STAMPS:
            lines = text[order[run[0]]:order[run[-1]] + 1 + _last_record(run, order, text, link, image)]
            # a picture's alt text is no headline (a spacer's between the rows repeats the page's title)
            heads = [j for j in lines.tolist()
                     if not image[j] and len(_STAMP.sub("", lowered[j], count=1).strip()) > TICKER_STAMP_CHARS]
            # "10:17 Headline" a link, its summary under it: the summaries are the ticker's too
            linked = sum(link[j] >= 0.5 for j in run) >= TICKER_LINKED * len(run)
            if heads and (linked or sum(link[j] >= 0.5 for j in heads) >= TICKER_LINKED * len(heads)):
                inside[lines] = True
                teasers[lines] = linked
                above = text[order[run[0]] - 1] if order[run[0]] else -1
                if above >= 0 and para.heading[above] and para.chars[above] <= RELATED_CHARS:
                    inside[above] = True  # the ticker's own heading ("Другие новости раздела")
        if i is not None:
            run = [i]
    short = para.chars <= np.where(teasers, TICKER_TEASER_CHARS, TICKER_SHORT_CHARS)
    drop = inside & ((link >= 0.5) | short)
    if not (keep & drop).any() or int(para.chars[keep & ~inside].sum()) < TICKER_ARTICLE_CHARS:
        return 0
    dropped = int((keep & drop).sum())
    keep &= ~drop
    barred |= drop
    return dropped


def _last_record(run: list[int], order: np.ndarray, text: np.ndarray, link: np.ndarray, image: np.ndarray) -> int:
    """How many lines after a ticker's last stamp are its last entry's: where a stamp is
    a line of its own (a date cell, its headline in the next), the links and pictures
    that follow it, as many as the stamps' shortest spacing allows."""
    last = int(order[run[-1]])
    spacing = int(np.diff(order[run]).min())
    tail = 0
    while tail < spacing - 1 and last + tail + 1 < len(text):
        j = text[last + tail + 1]
        if link[j] < 0.5 and not image[j]:
            break
        tail += 1
    return tail


#: a line led by a time ("11:29", "9.05") or a numeric date ("28.11.2011", "2011-11-28",
#: "11/28/11")
_STAMP_TEXT = r"(?:\d{1,2}[:.]\d{2}(?!\d)|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{1,2}-\d{1,2})"
_STAMP = re.compile(r"\s*" + _STAMP_TEXT)
#: the same at the start of a line of lines joined by "\x1f" (:func:`.paragraphs.starting`)
_STAMP_START = re.compile(r"\x1f[^\S\x1f]*" + _STAMP_TEXT)
#: the fewest digits a stamp holds ("9:05")
STAMP_DIGITS = 3
#: a ticker is at least this many stamped lines…
TICKER_STAMPS = 4
#: …each at most this many lines with text after the one before…
TICKER_GAP = 2
#: …of at most this many characters each…
TICKER_LINE_CHARS = 200
#: …and this share of its headlines (lines with more than this many characters besides
#: their stamp) are links
TICKER_LINKED = 0.75
TICKER_STAMP_CHARS = 15
#: the lines of a ticker dropped besides the links and the stamps: its short labels ("Религия")
TICKER_SHORT_CHARS = 100
#: …and, in a run whose stamped lines are the links ("10:17 Headline"), the summaries
#: under them of at most this many
TICKER_TEASER_CHARS = 300
#: a ticker is dropped from a page keeping at least this many characters outside it
TICKER_ARTICLE_CHARS = 500
