"""Comment sections: left out of an article, or kept whole when asked (``comments=True``).

A comment section is a container whose class/id/role names comments
(:func:`drop_comments`), or what follows the line that opens an unnamed one: a heading
"Comments (12)", "310 Responses to “…”", "Wasze komentarze", "Комментарии:", a short
label "Leave a comment", "发表评论" (:func:`comment_mark`), comment bylines
("Posted by: NAME | January 14, 2008").
"""

from __future__ import annotations

import re

import numpy as np
from lxml import etree

from ...model import Page
from .. import features
from ..features.vocabulary import names_group
from .ancestors import ancestor, span_keys
from .cards import cards_of, lines_of, node_of, runs_of
from .paragraphs import DIGIT, HEADING_TAGS, column, lower_case, running, starting

#: a comment section: a container at most this many levels up names comments
COMMENT_LEVELS = 4
#: comment sections are dropped from a page keeping at least this many characters outside them
COMMENT_ARTICLE_CHARS = 1000
#: an unnamed comment section is cut when its opening line follows this many kept characters
MARK_ARTICLE_CHARS = 500

#: the words that name comments, in the languages of the shipped stop lists and a few
#: more (lower case; a Latin or Cyrillic one starts a word: checked per hit); not
#: "commentary", nor "most commented" (a box of popular stories, not a comment section)
COMMENT_WORDS = re.compile(
    r"comment(?!ar|at|ed)|kommentar|commentaire|coment[aá]ri|komentarz|koment[aá][rř]|reactie"
    r"|leserbrief|коммент(?!ируем)|σχόλι|yorum|评论|評論|留言|跟帖|コメント|댓글|have your say")
#: a comment section's opening line is at most this long (a heading; a label: LABEL_CHARS)
MARK_CHARS = 60
LABEL_CHARS = 40


def comment_mark(text: str, heading: bool) -> bool:
    """Whether a line opens a comment section: a heading of at most six words with a
    comment word among its first three ("Comments (12)", "Wasze komentarze", "Have your
    say"), or a label of at most three words ending with one, with nothing but a count
    after it and no full stop ("Leave a comment", "Dodaj komentarz", "Комментарии: 0",
    "发表评论", "| 13 Comment(s)"), or a notice that comments are closed ("Comments are now closed for this
    story"), or a counted heading ("310 Responses to “Title”", "30 thoughts on “Title”");
    "He declined to comment." is not, nor "Comments: CVPR 2026" but as a heading, nor a
    question ("Comment choisir son barbecue charbon ?": French "comment" is "how")."""
    # a separator before a counted label and a plural in brackets ("| 13 Comment(s)")
    line = _PLURAL.sub(r"\1s", _SEPARATED.sub("", text.strip().lower()))
    if line.endswith(("?", "？")):  # a question heads a section: "Comment choisir son barbecue ?" (French: how)
        return False
    if _CLOSED.match(line) and len(line) <= MARK_CHARS:
        return True
    if _ANNOUNCED.match(line) and len(line) <= COUNTED_MARK_CHARS:
        return True
    if _COUNTED.match(line) and len(line) <= COUNTED_MARK_CHARS and not line.endswith("."):
        return True
    if _OPINIONS_COUNTED.fullmatch(line):
        return True
    found = COMMENT_WORDS.search(line)
    if found is None or len(line) > MARK_CHARS or not _word_start(line, found.start()):
        return False
    words = _WORDS.findall(line)
    if heading and len(words) <= 6 and len(_WORDS.findall(line[:found.start()])) <= 2:
        return True
    core = _COUNT_TAIL.sub("", line)
    words = [w for w in _WORDS.findall(core) if not w.isdigit()]
    if (len(line) > LABEL_CHARS or line.endswith(".") or not words or len(words) > 3
            or not _LABEL.fullmatch(core)):
        return False
    if core.endswith("have your say"):
        return True
    last = COMMENT_WORDS.search(core, len(core) - len(words[-1]))
    return last is not None and _word_start(core, last.start())


def _word_start(text: str, at: int) -> bool:
    """A Latin or Cyrillic comment word must start a word (an identifier's part, as in
    ``scrape_comments()``, does not); a CJK one need not."""
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_") or text[at] >= "\u3000"


#: the heading WordPress themes give a comment list: a count, then what it counts and the
#: post's title ("310 Responses to “…”", "30 thoughts on “…”", "One reply to …")
_COUNTED = re.compile(r"\s*(?:\d+|one|no|two|three)\s+(?:responses?|repl(?:y|ies)|thoughts?|comments?"
                      r"|reactions?|opinions?)\s+(?:to|on)\b")
#: …at most this long (the title may be long)
COUNTED_MARK_CHARS = 200
#: readers' opinions or reactions as a label with their count in brackets ("Opinie (1103)",
#: "Reactions (12)", "Мнения [5]"): without the count, the word heads a newspaper's
#: opinion section as often
_OPINIONS_COUNTED = re.compile(r"(?:opinie|opinions?|reakcje|reactions?|réactions?|мнения|reacties)"
                               r"\s*[(\[]\s*\d+\s*[)\]]")
#: …at most this long
OPINIONS_CHARS = 30
#: the notice that stands where a closed comment section starts ("Comments are now closed
#: for this story"); the comments people left before may follow it
_CLOSED = re.compile(r"(?:comments|commenting) (?:are|is|has been|have been) (?:now )?(?:closed|disabled)\b")
#: the sentence that introduces readers' comments ("The following are comments from the
#: readers. In no way do they represent…", "Comments from our readers")
_ANNOUNCED = re.compile(r"(?:the )?following (?:are )?(?:readers?['’]? |users?['’]? )?comments (?:are )?"
                        r"(?:from|by|of|posted)\b"
                        r"|(?:readers?['’]?|users?['’]?) comments (?:are|below)\b"
                        r"|comments (?:from|by) (?:the |our )?readers\b")
_WORDS = re.compile(r"\w+")
#: a separator from the line before ("| 13 Comment(s)", "• 4 comments")
_SEPARATED = re.compile(r"^[|•·»/\s]+")
#: a word's plural written in brackets ("Comment(s)")
_PLURAL = re.compile(r"(\w)\(s\)")
_COUNT_TAIL = re.compile(r"[\s\d():\[\]#№*-]*$")  # a count, or a form's "required" star
_LABEL = re.compile(r"[\w\s'’-]+")


def drop_comments(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray, probability: np.ndarray,
                  doubted: np.ndarray, wanted: bool, forum: bool = False, page: Page | None = None) -> dict:
    """Leave the comment sections out of an article, and mark them in ``barred``; or,
    ``wanted``, keep them and the paragraphs of them the model ``doubted``.  The details.

    Comment sections are the containers whose class/id/role/itemprop names comments,
    when the page keeps at least :data:`COMMENT_ARTICLE_CHARS` outside them (anywhere in
    them counts as inside: :func:`_within_sections`) and is no forum (``forum``: the
    page's kind, :mod:`detourage.learned.pagetype`, or a forum type it declares); and
    what follows the line that opens an unnamed one (:func:`_comment_mark_region`)."""
    in_comments = _comment_sections(para, page, keep)
    if wanted:
        keep |= in_comments & (doubted | _comment_headers(para) | _comment_bodies(para))
        return {}
    if forum or column(para, "type_forum")[0]:
        return {}
    if in_comments.any() and para.chars[keep & ~_within_sections(para, in_comments)].sum() >= COMMENT_ARTICLE_CHARS:
        keep &= ~in_comments
        barred |= in_comments
    found = _comment_mark_region(para, keep, probability)
    if found is None:
        return {}
    mark, region = found
    keep &= ~region
    barred |= region
    return {"comment_mark": mark}


def discussion(para: features.Paragraphs, keep: np.ndarray) -> bool:
    """Whether a page taken for an article is a discussion: a link aggregator's thread, a
    story's page that is its readers' comments (lobste.rs, Slashdot), where what people
    wrote is the content.  Its comment sections (:func:`_comment_sections`) hold at least
    :data:`DISCUSSION_POSTS` bodies (:func:`_comment_bodies`) of at least
    :data:`DISCUSSION_CHARS` characters together, and the model keeps under
    :data:`DISCUSSION_ARTICLE_CHARS` outside them: no story for the comments to be
    under (an article with comments keeps its text)."""
    in_comments = _comment_sections(para)
    if not in_comments.any():
        return False
    bodies = in_comments & _comment_bodies(para)
    if int(bodies.sum()) < DISCUSSION_POSTS or int(para.chars[bodies].sum()) < DISCUSSION_CHARS:
        return False
    return int(para.chars[keep & ~_within_sections(para, in_comments)].sum()) < DISCUSSION_ARTICLE_CHARS


#: a discussion has at least this many comment bodies…
DISCUSSION_POSTS = 5
#: …of at least this many characters together…
DISCUSSION_CHARS = 1500
#: …and the model keeps less than this outside its comment sections
DISCUSSION_ARTICLE_CHARS = 300


def _comment_headers(para: features.Paragraphs) -> np.ndarray:
    """The short lines that head a comment (its author, its date: at most
    :data:`COMMENT_HEADER_CHARS`), which a reader needs to tell one comment from the
    next; not a form's, nor a button's ("Reply", "Report")."""
    short = (para.chars > 0) & (para.chars <= COMMENT_HEADER_CHARS) & (column(para, "dist_t_form") > 1)
    out = np.zeros(len(para), bool)
    for i in short.nonzero()[0].tolist():
        out[i] = _COMMENT_CONTROL.fullmatch(para.texts[i].strip().lower()) is None
    return out


def _comment_bodies(para: features.Paragraphs) -> np.ndarray:
    """What people wrote in a comment section: the lines outside its forms, mostly not
    links (the model, trained on articles, rates a short comment low)."""
    return (para.chars > COMMENT_HEADER_CHARS) & (column(para, "dist_t_form") > 1) & \
        (column(para, "link_density") < 0.5)


COMMENT_HEADER_CHARS = 80
_COMMENT_CONTROL = re.compile(r"(?:reply|report|quote|like|share|flag|permalink|edit|delete|vote|upvote|downvote"
                              r"|(?:log|sign) in to reply|says:?|said:?|\W*)")


def _comment_sections(para: features.Paragraphs, page: Page | None = None,
                      keep: np.ndarray | None = None) -> np.ndarray:
    """The paragraphs of containers named as comments (class/id/role/itemprop, at most
    :data:`COMMENT_LEVELS` up).  Not an element of schema.org type ``Comment``: forums
    (XenForo) mark their replies so.  With the ``page`` and what the model ``keep`` s,
    not a section whose id only repeats its heading (:func:`_heading_slug`) and that the
    page's kept text goes on after (at least :data:`SECTION_TEXT_AFTER` characters
    outside comment sections): a comment section closes the article, a section of a
    manual titled "Respond to review comments" sits in it."""
    distance = column(para, "dist_comment")
    near = distance <= COMMENT_LEVELS
    if page is None or keep is None or not near.any():
        return near
    after = running(np.where(keep & ~near, para.chars, 0))  # kept text outside them, up to each line
    named: dict[tuple[int, int], bool] = {}  # each container's verdict, by its paragraph range
    for line in near.nonzero()[0].tolist():
        level = int(distance[line])
        start, end = para.spans[level, :, line].tolist()
        if (start, end) not in named:
            named[start, end] = (after[-1] - after[end] < SECTION_TEXT_AFTER
                                 or not _heading_slug(ancestor(page.blocks[para.starts[line]], level)))
        if not named[start, end]:
            near[line] = False
    return near


def _heading_slug(element: etree._Element | None) -> bool:
    """Whether an element is named as comments only by an id that repeats the text of its
    own heading: documentation generators (Sphinx, MkDocs) give each section or heading
    an id made of its title, so the Linux kernel's "Respond to review comments" is
    ``<section id="respond-to-review-comments">``, a part of the text, no comment
    section."""
    if element is None:
        return False
    ident = (element.get("id") or "").strip().lower()
    others = " ".join(element.get(k) or "" for k in ("class", "role", "itemprop"))
    if not ident or (others.strip() and names_group(others, "comment")):
        return False
    heading = element if element.tag in HEADING_TAGS else next(element.iter(*HEADING_TAGS), None)
    if heading is None:
        return False
    text = "".join(t for t in heading.itertext() if isinstance(t, str))
    slug = _NOT_WORD.sub("-", text.lower()).strip("-")
    return bool(slug) and _SLUG_NUMBER.sub("", ident) == slug


#: a section named as comments only by its heading's id is text when at least this many
#: kept characters outside comment sections follow it
SECTION_TEXT_AFTER = 200

_NOT_WORD = re.compile(r"[\W_]+")
#: the number a generator adds to a repeated title's id ("comments-1")
_SLUG_NUMBER = re.compile(r"-\d+$")


def _within_sections(para: features.Paragraphs, in_comments: np.ndarray) -> np.ndarray:
    """Every paragraph of the containers that make ``in_comments`` (:func:`_comment_sections`),
    those deeper than :data:`COMMENT_LEVELS` in them included: what is no article beside
    the comments.  A post whose body sits in a ``<div class="commentOnSelection">`` (a
    tool to comment on a selected passage) has its paragraphs four levels under it and
    its list items five; counted apart, the list items made an "article" outside the
    "comments", and the paragraphs were dropped as comments."""
    named = in_comments.nonzero()[0]
    inside = np.zeros(len(para) + 1, np.int64)
    if len(named):
        level = column(para, "dist_comment")[named].astype(np.int64)
        np.add.at(inside, para.spans[level, 0, named], 1)
        np.add.at(inside, para.spans[level, 1, named], -1)
    return inside[:-1].cumsum() > 0


def _comment_mark_region(para: features.Paragraphs, keep: np.ndarray,
                         probability: np.ndarray) -> tuple[str, np.ndarray] | None:
    """The first :func:`comment_mark` line below :data:`MARK_ARTICLE_CHARS` of kept
    text, and the comment section it opens; None when there is no such line.  A line
    whose section holds kept text the model takes for content where it doubts the kept
    text above (its ``probability``, averaged over the characters, at least one half
    below and under it above) opens no comments: it is a tab of the sidebar ("Comments",
    beside "Most read") between the teasers a low threshold kept and the story below.

    Where the line sits in the article's own container (its parent holds kept paragraphs
    above it: a flat page, comments as the article's siblings), the section is
    everything from it on; where it heads a box of its own ("Have your say" inside a
    story), it is what lies below it outside the containers of the article above, and
    the article resumes after the box."""
    kept_chars = np.where(keep, para.chars, 0)
    below = kept_chars.cumsum() - kept_chars >= MARK_ARTICLE_CHARS  # the kept text above each paragraph
    # a counted heading ("310 Responses to “…”") names the post, and an announcement
    # ("The following are comments from the readers…") says more: both may be longer
    longer = ((para.chars <= COUNTED_MARK_CHARS) & below).nonzero()[0]
    if not len(longer):
        return None
    texts = para.texts
    counted = [i for i in longer[para.heading[longer] > 0].tolist() if _COUNTED.match(texts[i].lower())]
    # a count holds a digit: the other short lines are not matched
    opinions = longer[(para.chars[longer] <= OPINIONS_CHARS) & (column(para, "share_digit")[longer] > 0)]
    counted += [i for i in opinions.tolist() if _OPINIONS_COUNTED.fullmatch(texts[i].strip().lower())]
    worded, started = _comment_lines(para, longer)
    bylines = _comment_bylines(para, [i for i in started if _COMMENT_BYLINE.match(texts[i].lower())])
    announced = [i for i in started if _ANNOUNCED.match(texts[i].strip().lower())]
    if not (worded or counted or announced or bylines):
        return None
    link = column(para, "link_density")
    for i in sorted(set(worded + counted + announced + bylines[:1])):
        heading = bool(para.heading[i])
        if i not in bylines and (not comment_mark(para.texts[i], heading) or (not heading and link[i] >= 0.5)
                                 or (para.chars[i] > MARK_CHARS and not heading and i not in announced)):
            continue
        parent = para.spans[1]  # (2, paragraphs): each paragraph's parent's range
        above = keep[:i].nonzero()[0]
        region = np.zeros(len(keep), bool)
        if parent[0, i] <= above[-1]:  # a flat page
            region[i:] = True
        else:
            parents = span_keys(para)[1].tolist()  # each paragraph's parent's range, as one number
            article = set(map(parents.__getitem__, above.tolist()))
            region[i:] = np.fromiter((p not in article for p in parents[i:]), bool, len(keep) - i)
        region[[b for b in bylines if b >= i]] = True  # a comment's byline beside the article's text
        if _story_below(para, keep, probability, i, region):
            continue
        return para.texts[i], region
    return None


def _story_below(para: features.Paragraphs, keep: np.ndarray, probability: np.ndarray, mark: int,
                 region: np.ndarray) -> bool:
    """Whether the model takes the kept text of a comment ``region`` opened at line
    ``mark`` for content (a probability of at least :data:`BELIEVED` on average over its
    characters) where it doubts the kept text above the mark (under it): the page's
    story, below a line that only names comments, under teasers.  Readers' comments the
    model kept under a story it believes too are no story."""
    above = keep.copy()
    above[mark:] = False
    inside = keep & region
    return _mean_probability(para, probability, above) < BELIEVED <= _mean_probability(para, probability, inside)


#: the mean probability of text the model takes for content
BELIEVED = 0.5


def _mean_probability(para: features.Paragraphs, probability: np.ndarray, lines: np.ndarray) -> float:
    """The probability of ``lines`` averaged over their characters (0.0 for none)."""
    chars = para.chars[lines]
    total = int(chars.sum())
    return float(probability[lines] @ chars) / total if total else 0.0


def _comment_bylines(para: features.Paragraphs, lines: list[int]) -> list[int]:
    """Those of ``lines`` (starting with :data:`_COMMENT_BYLINE`) that head or sign a
    comment the way comment templates write them ("Posted by: NAME | January 14, 2008
    06:24 PM", "Posted by: NAME on 11:56am Wed 9 Jan 08": a colon after "by", then a
    time or date), when there are at least :data:`COMMENT_BYLINES` of them; a post's own
    byline has no colon ("Posted by Seb Ruiz at 15:39": a blog planet's posts are
    content)."""
    found = [i for i in lines if para.chars[i] <= COMMENT_HEADER_CHARS * 2 and DIGIT.search(para.texts[i])]
    return found if len(found) >= COMMENT_BYLINES else []


#: a comment thread is told by at least this many comment bylines
COMMENT_BYLINES = 2
_COMMENT_BYLINE = re.compile(r"\s*(?:posted|written|submitted|added|comment(?:ed)?|sent)\s+by\s*:\s*\S")


def _comment_lines(para: features.Paragraphs, lines: np.ndarray) -> tuple[list[int], list[int]]:
    """Among ``lines`` (in order), those of at most :data:`MARK_CHARS` holding a comment
    word (:data:`COMMENT_WORDS`: their texts joined, searched for the words' stems
    :data:`_COMMENT_STEMS`), and those starting
    like a comment's byline or an announcement of comments (:data:`_COMMENT_LINE_START`,
    one search over the lines: :func:`~.paragraphs.starting`)."""
    lowered_texts = lower_case(para)
    short = lines[para.chars[lines] <= MARK_CHARS]
    worded: list[int] = []
    if len(short):
        pieces = list(map(lowered_texts.__getitem__, short.tolist()))
        lowered = "\x1f".join(pieces)
        # each word's stem by a plain substring search (many times faster than the
        # pattern's alternation tried at every character), the pattern on those lines
        hits = [at for stem in _COMMENT_STEMS if stem in lowered for at in _finds(lowered, stem)]
        if hits:
            lengths = np.fromiter(map(len, pieces), np.int64, len(pieces)) + 1
            offsets = lengths.cumsum() - lengths  # where each short text starts in the joined one
            worded = [i for i in sorted(set(short[np.searchsorted(offsets, hits, side="right") - 1].tolist()))
                      if COMMENT_WORDS.search(lowered_texts[i])]
    return worded, starting(lowered_texts, lines.tolist(), _COMMENT_LINE_START)


def _finds(text: str, stem: str) -> list[int]:
    """Where ``stem`` starts in ``text``, each time."""
    found, at = [], text.find(stem)
    while at >= 0:
        found.append(at)
        at = text.find(stem, at + 1)
    return found


#: the literal start of each of :data:`COMMENT_WORDS`' words (each match starts with one)
_COMMENT_STEMS = ("comment", "kommentar", "coment", "koment", "reactie", "leserbrief", "коммент", "σχόλι",
                  "yorum", "评论", "評論", "留言", "跟帖", "コメント", "댓글", "have your say")
#: how a comment byline or an announcement of comments starts (lower case, after spaces),
#: led by the "\x1f" that :func:`~.paragraphs.starting` puts before each line
_COMMENT_LINE_START = re.compile(r"\x1f[ \t\xa0]*(?:posted|written|submitted|added|comment|sent|the following"
                                 r"|following|reader|user)")


def drop_stamped_threads(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> int:
    """Leave out an article's unnamed comment thread, and mark it in ``barred``: a box of
    its own below the kept text whose cards look alike and are headed each by a short
    line holding a date and a time (its author and when: "~ zonek [2012-01-24 19:23]",
    "Тяп Ляп Шлеп, 12.01.12 23:07:50", "04.01.2012 23:46"), at least
    :data:`THREAD_HEADERS` of them, most cards holding a line of prose besides; how many
    kept lines were dropped.  In any language: it reads digits and the page's structure.

    A blog's front page, its posts stamped alike, holds its first post in the box (the
    kept text above the first header): a thread's box holds no more than
    :data:`THREAD_LEAD_CHARS` of kept text above its first header (a sorting bar, its
    heading), and at least :data:`COMMENT_ARTICLE_CHARS` of kept text stay outside every
    thread so found (a front page's posts in two boxes are no thread each under the other)."""
    # a date and a time hold seven digits at least ("6/4/05 2:36"): the other lines are not searched
    digits = column(para, "share_digit") * para.chars  # the share is of the line's characters
    dated = ((para.chars <= COMMENT_HEADER_CHARS) & (digits >= THREAD_DIGITS - 0.5)).nonzero()[0].tolist()
    if len(dated) < THREAD_HEADERS:
        return 0
    lowered = lower_case(para)
    stamped = [i for i in dated if _CLOCK.search(lowered[i]) and _DATED.search(lowered[i])]
    by_structure: dict[int, list[int]] = {}
    for i in stamped:
        by_structure.setdefault(int(para.signature[i]), []).append(i)
    threads = [members for members in by_structure.values() if len(members) >= THREAD_HEADERS]
    if not threads:
        return 0
    kept_chars = np.where(keep, para.chars, 0)
    link = column(para, "link_density")
    boxes: list[tuple[int, int]] = []
    for members in threads:
        for headers, holder, nodes in runs_of(members, [node_of(page, para, i) for i in members]):
            if len(headers) < THREAD_HEADERS or len(cards_of(holder, nodes)) < THREAD_HEADERS:
                continue
            lines = lines_of(page, para, holder, headers[0], headers[-1])
            first, end = lines[0], lines[-1] + 1
            if int(kept_chars[first:headers[0]].sum()) > THREAD_LEAD_CHARS:
                continue  # the box holds the text above its first header: a blog's posts
            bounds = [*headers, end]
            prose = sum(bool(((link[a + 1:b] < 0.5) & (para.chars[a + 1:b] >= THREAD_PROSE_CHARS)).any())
                        for a, b in zip(bounds, bounds[1:]))
            if 2 * prose < len(headers):
                continue
            boxes.append((first, end))
    if not boxes:
        return 0
    # the article's text stays outside every thread: two boxes of a front page's stamped
    # posts are no thread each under the other (LWN's home page: 281 characters outside)
    thread = np.zeros_like(keep)
    for first, end in boxes:
        thread[first:end] = True
    if int(kept_chars[~thread].sum()) < THREAD_ARTICLE_CHARS:
        return 0
    dropped = int(keep[thread].sum())
    keep[thread] = False
    barred |= thread
    return dropped


#: a thread is dropped from a page keeping at least this many characters outside it (a
#: short news story under a long thread keeps under 1 000; a front page's two boxes of
#: stamped posts keep less, LWN's 281)
THREAD_ARTICLE_CHARS = 500
#: a comment thread is told by at least this many headers…
THREAD_HEADERS = 3
#: …in a box holding at most this many kept characters above the first (a sorting bar)…
THREAD_LEAD_CHARS = 200
#: …and half its comments hold a line of prose of at least this many characters
THREAD_PROSE_CHARS = 20
#: the fewest digits a header's date and time hold ("6/4/05 2:36"; a ticker's stamp,
#: :data:`.related.STAMP_DIGITS`, is a date or a time)
THREAD_DIGITS = 7
#: a time of day ("19:23", "23:07:50", "2:36PM")
_CLOCK = re.compile(r"(?<!\d)\d{1,2}:\d{2}(?!\d)")
#: a month's name in any language, as a word of letters ("jan", "january", "января",
#: "stycznia", "ιανουαρίου"), maybe abbreviated ("sept.")
_MONTH = r"[^\W\d_]{3,12}\.?"
#: a date: numeric ("2012-01-24", "12.01.12", "6/04/2005"), with a month's name ("Jul 19
#: 2006", "19 July 2006", "March 15, 2003", "6 Января 2012", "7. stycznia 2012") or
#: written with the CJK year, month and day signs ("2012年1月6日", "2012년 1월 6일")
_DATED = re.compile(rf"(?<!\d)(?:\d{{1,4}}[./-]\d{{1,2}}[./-]\d{{2,4}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
                    rf"|\d{{1,2}}\.?\s+{_MONTH},?\s+\d{{4}}|\d{{2,4}}\s*[年년]\s*\d{{1,2}}\s*[月월]\s*\d{{1,2}}\s*[日일])(?!\d)")
