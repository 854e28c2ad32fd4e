"""detourage's own extractor: gradient-boosted trees over paragraph features.

The story of :func:`label`: compute the features of every paragraph
(:mod:`detourage.learned.features`), score them with the shipped tree ensembles
(:mod:`detourage.learned.forest`: a first stage on the paragraph's own features, a second
that also sees the first stage's verdicts around it, :mod:`detourage.learned.context`),
keep those at or above the decision threshold, then the page-level steps a reader
expects.  First what is no part of the article goes, and is *barred*: no later step
brings it back:

1. **comments** are left out of articles: when the page keeps at least
   :data:`COMMENT_ARTICLE_CHARS` of text outside comment sections (containers whose
   class/id/role names comments) and does not declare itself a forum, what the model kept
   inside them is dropped; so is what follows the line that opens an unnamed comment
   section (a heading "Comments (12)", "310 Responses to “…”", "Wasze komentarze",
   "Комментарии:", or a short label "Leave a comment", "发表评论": :func:`comment_mark`)
   below at least :data:`MARK_ARTICLE_CHARS` of kept text; on forum pages the posts are
   the content, as the model learned; ``comments=True`` keeps comment sections, with the
   author and date lines that tell one comment from the next;
2. **related boxes** ("Latest news", "Similar posts"…) below kept text, a box of their own
   or the run of link lines after such a heading (:func:`_drop_related_boxes`);
3. **other articles**: the stories an infinite scroll appended beside the page's own,
   siblings of its title's container that look the same (:func:`_drop_appended_articles`),
   and the boxes beside the article named as a newsletter sign-up, a share bar, an
   advertisement… (:func:`_drop_boxes_beside`).

Then what belongs to it comes back:

4. **code blocks whole**: the lines of a ``<pre>`` are kept or dropped together, kept
   when the text around the block is kept or the model kept most of it
   (:func:`_whole_code_blocks`);
5. **title first**: the heading that matches the page's ``og:title``/``<title>`` is kept
   when it comes before or inside the kept content;
6. **never empty by accident**: when the page has text and the model keeps almost none
   of it, the paragraphs it ranks near its best guess are kept instead (or those of the
   best Readability-style container, or the page's text it ranks best), never what a
   step barred, and the labels' details say so (``details["learned"]["fallback"]``);
7. **boundary lines**: the lines the model doubts between kept paragraphs and just
   after them, in the same containers (a standfirst, a credit or source line, a line that
   is one link or an address, a listicle's items, a quoted post, an embedded tweet, an
   "Update:" note), the rest of a repeated structure the model mostly kept (a thread's
   last replies), without the controls ("Click to expand...": :func:`_keep_boundary_lines`);
8. **figures**: the images between and beside kept paragraphs, and their captions, but
   the decorative ones (icons, avatars, smileys, pixels: :func:`_keep_figures`).

The shipped model (``data/learned-default.zip``) is rebuilt by
``python benchmarks/train_learned.py --write``; ``detourage train learned`` trains one on
your own gold and ``--model`` uses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import repeat
from functools import lru_cache, partial
from pathlib import Path
from typing import Literal

import numpy as np

from ..compiled import optional
from ..learned import features
from ..learned.forest import Model, load_model
from ..model import Block, Labels, Page
from ..segment import BLOCK_LEVEL
from .common import label_paragraphs

_csteps = optional("methods._csteps")

NAME = "learned"
SEED = "own"
DESCRIPTION = ("detourage's own extractor: gradient-boosted trees classify every paragraph from "
               "features that carry across sites (DOM context, densities, title, JSON-LD, neighbours)")

#: threshold shift of ``favor``: trafilatura's favor_precision / favor_recall
FAVOR_SHIFT = {"balanced": 0.0, "precision": 0.15, "recall": -0.15}

#: fall back when the model keeps fewer than this share of the page's characters…
FALLBACK_SHARE = 0.05
#: …on a page with at least this many characters (a smaller one: when it keeps none)
FALLBACK_PAGE_CHARS = 500
#: the fallback keeps the low-link paragraphs scoring at least this share of the page's best…
FALLBACK_RELATIVE = 0.3
#: …unless they hold more than this share of the page's text (then the best container)
RANKED_SHARE = 0.5

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

    def __post_init__(self) -> None:
        if self.favor not in FAVOR_SHIFT:
            raise ValueError(f"favor must be one of {', '.join(FAVOR_SHIFT)}, not {self.favor!r}")


def label(page: Page, options: Options = Options()) -> Labels:
    """Score every paragraph and keep the content."""
    model = options.model
    if not isinstance(model, Model):
        model = load_model(None if model is None else str(model))
    model.check(features.names())
    para = features.compute(page)
    details: dict = {"model": model.meta.get("name", "learned")}
    if not len(para):
        return Labels(NAME, (), {NAME: details})
    probability = model.probabilities(para)
    threshold = model.threshold + FAVOR_SHIFT[options.favor]
    choice = _column(para, "container_tag") != _OPTION_CODE  # a drop-down's entries are never content
    keep = (probability >= threshold) & choice
    # what a step left out as no part of the content (comments, related boxes): the
    # steps that add paragraphs back, the fallback among them, pass it over
    barred = np.zeros_like(keep)
    details.update(_comments(para, keep, barred, (probability >= threshold / 3) & choice, options.comments))
    boxes = _drop_related_boxes(para, keep, barred)
    if boxes:
        details["related_boxes"] = boxes
    appended = _drop_appended_articles(page, para, keep, barred)
    if appended:
        details["appended_articles"] = appended
    _drop_boxes_beside(para, keep, barred)
    promo = _drop_closing_promos(para, keep, barred)
    if promo:
        details["closing_promo"] = promo
    _whole_code_blocks(para, keep)
    _keep_title(para, keep)
    if options.fallback:
        details.update(_fallback(para, keep, probability, choice, barred))
    closed = barred | ~choice  # what no step that adds lines back may take
    _keep_standfirst(para, keep, closed, probability)
    _keep_boundary_lines(page, para, keep, closed, probability)
    _keep_parent_items(para, keep, closed, probability)
    _drop_controls(para, keep)
    _keep_figures(page, para, keep, closed)
    per_block = np.repeat(keep, para.ends - para.starts)
    _drop_permalinks(page, para, keep, per_block)
    details.update(threshold=round(threshold, 3), paragraphs=len(para), kept=int(keep.sum()))
    return Labels(NAME, label_paragraphs(page.blocks, per_block.tolist()), {NAME: details})


def _drop_permalinks(page: Page, para: features.Paragraphs, keep: np.ndarray, per_block: np.ndarray) -> None:
    """Leave out the permalink anchors documentation generators put in headings
    (``<a class="headerlink">¶</a>``: Sphinx, MkDocs…): a link in a kept heading whose
    whole text is one of :data:`PERMALINK_MARKS`."""
    for p in np.flatnonzero(keep & (para.heading > 0)).tolist():
        for i in range(para.starts[p], para.ends[p]):
            block = page.blocks[i]
            if block.text in PERMALINK_MARKS and block.link_chars and not _HEADINGS.isdisjoint(block.path):
                per_block[i] = False


#: the whole text of a heading's permalink anchor
PERMALINK_MARKS = frozenset({"¶", "#", "§", "🔗", "⚓", "⚓︎", "🔗︎"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: ``container_tag`` of a paragraph that is an ``<option>`` of a ``<select>`` or ``<datalist>``
_OPTION_CODE = features.CONTAINER_TAGS.index("option") + 1


def comment_mark(text: str, heading: bool) -> bool:
    """Whether a line opens a comment section: a heading of at most six words with a
    comment word among its first three ("Comments (12)", "Wasze komentarze", "Have your
    say"), or a label of at most three words ending with one, with nothing but a count
    after it and no full stop ("Leave a comment", "Dodaj komentarz", "Комментарии: 0",
    "发表评论"), or a notice that comments are closed ("Comments are now closed for this
    story"), or a counted heading ("310 Responses to “Title”", "30 thoughts on “Title”");
    "He declined to comment." is not, nor "Comments: CVPR 2026" but as a heading."""
    line = text.strip().lower()
    if _CLOSED.match(line) and len(line) <= MARK_CHARS:
        return True
    if _ANNOUNCED.match(line) and len(line) <= COUNTED_MARK_CHARS:
        return True
    if _COUNTED.match(line) and len(line) <= COUNTED_MARK_CHARS and not line.endswith("."):
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
    """A Latin or Cyrillic comment word must start a word; a CJK one need not."""
    return at == 0 or not text[at - 1].isalpha() or text[at] >= "\u3000"


#: the heading WordPress themes give a comment list: a count, then what it counts and the
#: post's title ("310 Responses to “…”", "30 thoughts on “…”", "One reply to …")
_COUNTED = re.compile(r"\s*(?:\d+|one|no|two|three)\s+(?:responses?|repl(?:y|ies)|thoughts?|comments?"
                      r"|reactions?|opinions?)\s+(?:to|on)\b")
#: …at most this long (the title may be long)
COUNTED_MARK_CHARS = 200
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
_COUNT_TAIL = re.compile(r"[\s\d():\[\]#№-]*$")
_LABEL = re.compile(r"[\w\s'’-]+")


def _comments(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
              doubted: np.ndarray, wanted: bool) -> dict:
    """Leave the comment sections out of an article, and mark them in ``barred``; or,
    ``wanted``, keep them and the paragraphs of them the model ``doubted``.  The details.

    Comment sections are the containers whose class/id/role/itemprop names comments,
    when the page keeps at least
    :data:`COMMENT_ARTICLE_CHARS` outside them and is no forum; and what follows the
    line that opens an unnamed one (:func:`_comment_mark_region`)."""
    in_comments = _comment_sections(para)
    if wanted:
        keep |= in_comments & (doubted | _comment_headers(para) | _comment_bodies(para))
        return {}
    if _column(para, "type_forum")[0]:
        return {}
    if para.chars[keep & ~in_comments].sum() >= COMMENT_ARTICLE_CHARS:
        keep &= ~in_comments
        barred |= in_comments
    found = _comment_mark_region(para, keep)
    if found is None:
        return {}
    mark, region = found
    keep &= ~region
    barred |= region
    return {"comment_mark": mark}


def _comment_headers(para: features.Paragraphs) -> np.ndarray:
    """The short lines that head a comment (its author, its date: at most
    :data:`COMMENT_HEADER_CHARS`), which a reader needs to tell one comment from the
    next; not a form's, nor a button's ("Reply", "Report")."""
    short = (para.chars > 0) & (para.chars <= COMMENT_HEADER_CHARS) & (_column(para, "dist_t_form") > 1)
    out = np.zeros(len(para), bool)
    for i in np.flatnonzero(short).tolist():
        out[i] = _COMMENT_CONTROL.fullmatch(para.texts[i].strip().lower()) is None
    return out


def _comment_bodies(para: features.Paragraphs) -> np.ndarray:
    """What people wrote in a comment section: the lines outside its forms, mostly not
    links (the model, trained on articles, rates a short comment low)."""
    return (para.chars > COMMENT_HEADER_CHARS) & (_column(para, "dist_t_form") > 1) & \
        (_column(para, "link_density") < 0.5)


COMMENT_HEADER_CHARS = 80
_COMMENT_CONTROL = re.compile(r"(?:reply|report|quote|like|share|flag|permalink|edit|delete|vote|upvote|downvote"
                              r"|(?:log|sign) in to reply|says:?|said:?|\W*)")


def _comment_sections(para: features.Paragraphs) -> np.ndarray:
    """The paragraphs of containers named as comments (class/id/role/itemprop, at most
    :data:`COMMENT_LEVELS` up).  Not an element of schema.org type ``Comment``: forums
    (XenForo) mark their replies so."""
    return _column(para, "dist_comment") <= COMMENT_LEVELS


def _comment_mark_region(para: features.Paragraphs, keep: np.ndarray) -> tuple[str, np.ndarray] | None:
    """The first :func:`comment_mark` line below :data:`MARK_ARTICLE_CHARS` of kept
    text, and the comment section it opens; None when there is no such line.

    Where the line sits in the article's own container (its parent holds kept paragraphs
    above it: a flat page, comments as the article's siblings), the section is
    everything from it on; where it heads a box of its own ("Have your say" inside a
    story), it is what lies below it outside the containers of the article above, and
    the article resumes after the box."""
    kept_chars = np.where(keep, para.chars, 0)
    below = np.cumsum(kept_chars) - kept_chars >= MARK_ARTICLE_CHARS  # the kept text above each paragraph
    # a counted heading ("310 Responses to “…”") names the post, and an announcement
    # ("The following are comments from the readers…") says more: both may be longer
    longer = np.flatnonzero((para.chars <= COUNTED_MARK_CHARS) & below)
    if not len(longer):
        return None
    texts = para.texts
    counted = [i for i in longer[para.heading[longer] > 0].tolist() if _COUNTED.match(texts[i].lower())]
    worded, started = _comment_lines(para, longer)
    bylines = _comment_bylines(para, [i for i in started if _COMMENT_BYLINE.match(texts[i].lower())])
    announced = [i for i in started if _ANNOUNCED.match(texts[i].strip().lower())]
    if not (worded or counted or announced or bylines):
        return None
    link = _column(para, "link_density")
    for i in sorted(set(worded + counted + announced + bylines[:1])):
        heading = bool(para.heading[i])
        if i not in bylines and (not comment_mark(para.texts[i], heading) or (not heading and link[i] >= 0.5)
                                 or (para.chars[i] > MARK_CHARS and not heading and i not in announced)):
            continue
        parent = para.spans[1]  # (2, paragraphs): each paragraph's parent's range
        above = np.flatnonzero(keep[:i])
        region = np.zeros(len(keep), bool)
        if parent[0, i] <= above[-1]:  # a flat page
            region[i:] = True
        else:
            parents = _span_keys(para)[1].tolist()  # each paragraph's parent's range, as one number
            article = set(map(parents.__getitem__, above.tolist()))
            region[i:] = np.fromiter((p not in article for p in parents[i:]), bool, len(keep) - i)
        region[[b for b in bylines if b >= i]] = True  # a comment's byline beside the article's text
        return para.texts[i], region
    return None


def _comment_bylines(para: features.Paragraphs, lines: list[int]) -> list[int]:
    """Those of ``lines`` (starting with :data:`_COMMENT_BYLINE`) that head or sign a
    comment the way comment templates write them ("Posted by: NAME | January 14, 2008
    06:24 PM", "Posted by: NAME on 11:56am Wed 9 Jan 08": a colon after "by", then a
    time or date), when there are at least :data:`COMMENT_BYLINES` of them; a post's own
    byline has no colon ("Posted by Seb Ruiz at 15:39": a blog planet's posts are
    content)."""
    found = [i for i in lines if para.chars[i] <= COMMENT_HEADER_CHARS * 2 and _DIGIT.search(para.texts[i])]
    return found if len(found) >= COMMENT_BYLINES else []


#: a comment thread is told by at least this many comment bylines
COMMENT_BYLINES = 2
_COMMENT_BYLINE = re.compile(r"\s*(?:posted|written|submitted|added|comment(?:ed)?|sent)\s+by\s*:\s*\S")
_DIGIT = re.compile(r"\d")


def _comment_lines(para: features.Paragraphs, lines: np.ndarray) -> tuple[list[int], list[int]]:
    """Among ``lines`` (in order), those of at most :data:`MARK_CHARS` holding a comment
    word (:data:`COMMENT_WORDS`: their texts joined, searched for the words' stems
    :data:`_COMMENT_STEMS`), and those starting
    like a comment's byline or an announcement of comments (:data:`_COMMENT_LINE_START`,
    one search over the lines: :func:`_starting`)."""
    lowered_texts = _lowered(para)
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
            offsets = np.cumsum(lengths) - lengths  # where each short text starts in the joined one
            worded = [i for i in sorted(set(short[np.searchsorted(offsets, hits, side="right") - 1].tolist()))
                      if COMMENT_WORDS.search(lowered_texts[i])]
    return worded, _starting(lowered_texts, lines.tolist(), _COMMENT_LINE_START)


def _starting(lowered_texts: list[str], lines: list[int], pattern: re.Pattern[str]) -> list[int]:
    """Those of ``lines`` whose lower-cased text ``pattern`` matches at its start: one
    search over their texts, each led by ``\x1f`` (which ``pattern`` starts with, so the
    search skips from one line start to the next), rather than a match per line."""
    pieces = list(map(lowered_texts.__getitem__, lines))
    joined = "\x1f" + "\x1f".join(pieces)
    at = [found.start() for found in pattern.finditer(joined)]
    if not at:
        return []
    lengths = np.fromiter(map(len, pieces), np.int64, len(pieces)) + 1
    offsets = np.cumsum(lengths) - lengths  # where each line's "\x1f" stands
    k = np.searchsorted(offsets, at, side="right") - 1  # the line holding each match…
    return [lines[j] for j in k[offsets[k] == at].tolist()]  # …that starts it


def _lowered(para: features.Paragraphs) -> list[str]:
    """The paragraphs' texts lower-cased: those the features made, or (a page built by
    hand, without them) made now."""
    return para.lowered or [text.lower() for text in para.texts]


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
#: led by the "\x1f" that :func:`_starting` puts before each line
_COMMENT_LINE_START = re.compile(r"\x1f[ \t\xa0]*(?:posted|written|submitted|added|comment|sent|the following"
                                 r"|following|reader|user)")


#: the heading of a box of links to other pages, whole (lower case, spaces collapsed, a
#: trailing ":", "»"… allowed), in the languages of the shipped stop lists and a few more;
#: only phrases that do not head a section of an article or a label ("see also", "more on
#: X", "most popular languages" and a bare "recommended:" do)
RELATED_PHRASES = (
    r"latest (?:news|stories|articles|headlines|posts)", r"the latest (?:news|stories|articles|headlines|posts)",
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
    r"powiązane (?:artykuły|tematy|wiadomości)", r"читайте (?:также|еще|ещё)", r"смотрите также",
    r"похожие (?:новости|статьи|материалы)", r"последние новости", r"самое (?:читаемое|популярное)",
    r"новости по теме", r"другие новости", r"τελευταία νέα", r"δείτε (?:επίσης|ακόμα|ακόμη)",
    r"διαβάστε (?:επίσης|ακόμα|ακόμη)", r"σχετικά (?:άρθρα|θέματα|νέα)", r"δημοφιλή(?: άρθρα)?",
    r"相关(?:新闻|阅读|文章|报道)", r"相關(?:新聞|閱讀|文章|報導)", r"推荐阅读", r"延伸阅读", r"猜你喜欢",
    r"热门(?:新闻|文章|推荐)", r"最新(?:新闻|文章)", r"lees ook", r"meer nieuws", r"leia também", r"mais lidas",
    r"notícias relacionadas", r"ilgili haberler", r"benzer haberler", r"çok okunanlar",
    r"similar (?:posts|articles|stories|news|products|items|recipes)", r"more (?:posts|like this|to (?:read|explore))",
    r"more in .+", r"recent (?:posts|articles|stories|news)", r"other (?:posts|articles|stories) you .+",
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


#: the literal start of each phrase (up to its first pattern character), and its first
#: word: a line starting with none of them is no heading of the kind, without the pattern
_RELATED_PREFIXES = tuple(sorted({_literal_start(phrase) for phrase in RELATED_PHRASES}))
_RELATED_FIRST_WORDS = tuple(sorted({prefix.split(" ")[0] for prefix in _RELATED_PREFIXES}))
#: a related box's heading is at most this long…
RELATED_CHARS = 50
#: …and follows at least this many kept characters (teasers need an article to be teasers of)
RELATED_ARTICLE_CHARS = 200


def related_mark(text: str) -> bool:
    """Whether a line is the whole heading of a box of links to other pages ("Latest
    news", "Related articles:", "Czytaj także", "Читайте также", "相关新闻")."""
    if len(text) > RELATED_CHARS or text.lstrip()[:1].lower() not in _RELATED_FIRST:
        return False
    line = " ".join(text.lower().split())
    return line.startswith(_RELATED_PREFIXES) and RELATED_WORDS.fullmatch(line) is not None


def _drop_related_boxes(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> list[str]:
    """Drop every box (the smallest ancestor of its heading that holds paragraphs after
    it) headed by a :func:`related_mark` line below :data:`RELATED_ARTICLE_CHARS` of kept
    text, when the box holds none of the kept text above the heading, and mark it in
    ``barred``; the headings.

    The last condition keeps a section of the article whose heading happens to read
    "Related…" in flat markup (its container holds the article above it); a box of
    teasers ("Latest news" and five headlines with their summaries) is a container of
    its own.  The model keeps such summaries readily: they are sentences of prose."""
    kept_chars = np.where(keep, para.chars, 0)
    kept_before = np.cumsum(kept_chars) - kept_chars
    short = np.flatnonzero((para.chars <= RELATED_CHARS) & (kept_before >= RELATED_ARTICLE_CHARS)
                           & (_column(para, "link_density") < 0.5))
    found = []
    lowered = _lowered(para)
    for i in short.tolist():
        # a phrase's first word first (whitespace collapsed or not, it starts the line)
        if not lowered[i].lstrip().startswith(_RELATED_FIRST_WORDS) or not related_mark(para.texts[i]):
            continue
        end = _related_box_end(para, keep, i)
        if end > i + 1:
            keep[i:end] = False
            barred[i:end] = True
            found.append(para.texts[i])
    links = np.flatnonzero(keep & (para.chars <= RELATED_LINE_CHARS) & (_column(para, "link_density") >= 0.5))
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
    kept text above; in the article's own container (flat markup), the run of link lines
    (titles of other pages) that follows the heading, and the short line ending with a
    colon that may lead it ("You may also be interested in the following articles:")."""
    kept = _running(keep[:i])  # kept paragraphs before each index up to i
    for start, end in para.spans[:, :, i].tolist():
        if kept[i] > kept[start]:  # the box would hold the kept text above the heading
            break
        if end > i + 1:
            return end
    link = _column(para, "link_density")
    end = i + 1
    if (end < len(keep) and not para.heading[end] and para.chars[end] <= RELATED_LEAD_CHARS
            and para.texts[end].rstrip().endswith((":", "：", "…", "..."))):
        end += 1
    while end < len(keep) and not para.heading[end] and (link[end] >= 0.5 or not para.chars[end]):
        end += 1
    return end if link[i + 1:end].any() else i + 1


def _drop_appended_articles(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> list[str]:
    """Drop the other articles a page holds beside its own (the next story an infinite
    scroll appended, the previous one of a series), and mark them in ``barred``; their
    headings.

    The page's article is the largest container of its title heading (at most
    :data:`features.LEVELS` - 1 levels up) that holds no other heading of the title's
    level or above and at least :data:`APPENDED_ARTICLE_CHARS` of kept text; another
    article is a sibling of it that looks the same (tag, and class or id words:
    :func:`_similar_elements`) and holds a heading of that level.  What lies between them
    (a newsletter box, a share bar) goes with the other articles when it holds less than
    half the page's article's kept text."""
    found = _title_article(para, keep)
    if found is None:
        return []
    level, start, end, kept_chars = found
    element = _ancestor(page.blocks[para.starts[para.title_index]], level)
    parent = element.getparent() if element is not None else None
    if parent is None:
        return []
    tops = (para.heading > 0) & (para.heading <= para.heading[para.title_index])
    ranges = [_element_range(page, para, sibling, int(h)) for h in np.flatnonzero(tops).tolist()
              if (h < start or h >= end)
              and (sibling := _child_holding(parent, page.blocks[para.starts[h]].node)) is not None
              and _similar_elements(sibling, element)]
    if not ranges:
        return []
    region = np.zeros(len(keep), bool)
    for first, last in ranges:
        region[first:last] = True
    # what lies between: with the other articles, unless it holds more text than the
    # page's own (then the title's container was only the article's head)
    between = np.zeros(len(keep), bool)
    between[min(min(r[0] for r in ranges), end):max(max(r[1] for r in ranges), start)] = True
    between &= ~region
    between[start:end] = False
    if para.chars[between & keep].sum() <= kept_chars / 2:
        region |= between
    headings = [para.texts[h] for h in np.flatnonzero(tops & region & keep).tolist()]
    keep &= ~region
    barred |= region
    return headings


def _drop_boxes_beside(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> None:
    """Drop what the model kept outside the page's article (:func:`_article_span`) in a
    box whose class/id/role names what is no article (:data:`BESIDE_GROUPS`: a
    newsletter sign-up, a share bar, an advertisement, related links, a menu, a footer;
    its container or the two elements above), and mark it in ``barred``.  Inside the
    article the model's verdict stands: a box there may be named so for its style."""
    found = _article_span(para, keep)
    if found is None:
        return
    start, end = found
    outside = keep.copy()
    outside[start:end] = False
    lines = np.flatnonzero(outside)
    if not len(lines):
        return
    dropped = lines[(para.X[lines][:, _group_columns(BESIDE_GROUPS)] <= 2).any(axis=1)]
    keep[dropped] = False
    barred[dropped] = True


def _drop_closing_promos(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> str:
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
    kept = np.flatnonzero(keep)
    tail = kept[-PROMO_LINES:]
    long = np.flatnonzero(para.chars[tail] > PROMO_LINE_CHARS)
    if len(long):
        tail = tail[long[-1] + 1:]
    if not len(tail):
        return ""
    lowered = _lowered(para)
    for at, i in enumerate(tail.tolist()):
        if not promo_line(lowered[i]):
            continue
        before = _running(np.where(keep, para.chars, 0))
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


def _article_span(para: features.Paragraphs, keep: np.ndarray) -> tuple[int, int] | None:
    """The paragraphs (first, one past the last) of the smallest ancestor of the kept
    title heading that holds :data:`ARTICLE_SHARE` of the kept text and at least
    :data:`APPENDED_ARTICLE_CHARS` besides the title; None when there is none."""
    title = para.title_index
    if title < 0 or not para.heading[title] or not keep[title]:
        return None
    kept = _running(np.where(keep, para.chars, 0))
    for level in range(1, features.LEVELS):
        start, end = para.spans[level, :, title].tolist()
        inside = kept[end] - kept[start]
        if inside >= ARTICLE_SHARE * kept[-1]:
            return (start, end) if inside - para.chars[title] >= APPENDED_ARTICLE_CHARS else None
    return None


#: the page's article holds at least this share of the kept text
ARTICLE_SHARE = 2 / 3
#: the groups of class/id/role words that name a box beside an article
BESIDE_GROUPS = ("social", "ad", "related", "nav", "footer", "t_nav", "t_footer")


#: the page's article holds at least this many kept characters besides its title
APPENDED_ARTICLE_CHARS = 300


def _title_article(para: features.Paragraphs, keep: np.ndarray) -> tuple[int, int, int, int] | None:
    """(level, first, one past the last paragraph, kept characters) of the largest
    ancestor of the title heading holding no other heading of its level or above, when it
    holds :data:`APPENDED_ARTICLE_CHARS` of kept text besides the title and is not the
    topmost level :attr:`Paragraphs.spans` knows (its parent is needed)."""
    title = para.title_index
    if title < 0 or not para.heading[title] or not keep[title]:
        return None
    tops = _running((para.heading > 0) & (para.heading <= para.heading[title]))
    kept = _running(np.where(keep, para.chars, 0))
    best = None
    for level in range(1, features.LEVELS - 1):
        start, end = para.spans[level, :, title].tolist()
        if tops[end] - tops[start] > 1:
            break
        best = (level, start, end, int(kept[end] - kept[start] - para.chars[title]))
    if best is None or best[3] < APPENDED_ARTICLE_CHARS:
        return None
    return best


def _running(x: np.ndarray) -> np.ndarray:
    """0, then the running sums of ``x`` (int64): ``out[j] - out[i]`` sums ``x[i:j]``
    (``np.r_[0, np.cumsum(x)]`` without ``np.r_``'s parsing of its index, 5 µs a call)."""
    out = np.zeros(len(x) + 1, np.int64)
    np.cumsum(x, out=out[1:])
    return out


def _ancestor(block: Block, level: int):  # type: ignore[no-untyped-def]
    """The element ``level`` levels above a block's container (its nearest block-level
    element, level 0: the elements :attr:`Paragraphs.spans` counts)."""
    node = block.node
    while node is not None and not (isinstance(node.tag, str) and node.tag in BLOCK_LEVEL):
        node = node.getparent()
    for _ in range(level):
        if node is None:
            return None
        node = node.getparent()
    return node


def _child_holding(parent, node):  # type: ignore[no-untyped-def]
    """The child of ``parent`` that is ``node`` or holds it; None when ``parent`` does not."""
    while node is not None:
        up = node.getparent()
        if up is parent:
            return node
        node = up
    return None


def _element_range(page: Page, para: features.Paragraphs, element,  # type: ignore[no-untyped-def]
                   at: int) -> tuple[int, int]:
    """The paragraphs (first, one past the last) of ``element``, which holds paragraph ``at``."""
    inside = set(element.iter())
    blocks, starts = page.blocks, para.starts
    first, last = at, at + 1
    while first > 0 and blocks[starts[first - 1]].node in inside:
        first -= 1
    while last < len(starts) and blocks[starts[last]].node in inside:
        last += 1
    return first, last


def _similar_elements(a, b) -> bool:  # type: ignore[no-untyped-def]
    """Whether two elements look like two articles of a kind: two ``<article>``s, or the
    same tag and half their class and id words in common (digits left out: ``post-12``
    and ``post-13`` are alike), one of which names an article (``post``, ``story``…;
    not two ``<section class="chapter">`` of one story)."""
    if a.tag != b.tag:
        return False
    words_a, words_b = _element_words(a), _element_words(b)
    common = words_a & words_b
    if a.tag == "article" and not (words_a | words_b):
        return True
    return (len(common) >= 0.5 * len(words_a | words_b)
            and (a.tag == "article" or any(_ARTICLE_WORD.search(w) for w in common)))


def _element_words(el) -> frozenset[str]:  # type: ignore[no-untyped-def]
    """The class and id words of an element, digits left out."""
    return frozenset(w for w in _DIGITS.sub("", f"{el.get('class') or ''} {el.get('id') or ''}").split()
                     if w.strip("-_"))


_DIGITS = re.compile(r"\d+")
#: a class or id word naming an article
_ARTICLE_WORD = re.compile(r"post|article|story|entry|news|blog")


def _whole_code_blocks(para: features.Paragraphs, keep: np.ndarray) -> None:
    """Keep or drop each code block (a ``<pre>``, one line per paragraph) whole:
    kept when the text around it is kept (a paragraph among the :data:`CODE_CONTEXT` before
    it and among those after it, or before it when it ends the page) or when the model
    kept most of its characters; dropped otherwise.  Half a listing is no use to a reader,
    and a code line's own features (few stop words, much punctuation) look like
    boilerplate, so the lines of one block are decided together from their context."""
    code = np.flatnonzero(_column(para, "dist_t_code") == 0)
    if not len(code):
        return
    n = len(keep)
    first, end = para.spans[0, 0, code].astype(np.int64), para.spans[0, 1, code].astype(np.int64)
    key = first * (n + 1) + end
    blocks = np.array(sorted(set(key.tolist())), np.int64)  # np.unique costs far more on a page's few
    member = np.searchsorted(blocks, key)
    first, end = blocks // (n + 1), blocks % (n + 1)
    weight = para.chars[code] + 1.0
    share = np.bincount(member, weight * keep[code]) / np.bincount(member, weight)
    padded = np.zeros(len(keep) + 2 * CODE_CONTEXT, bool)
    padded[CODE_CONTEXT:CODE_CONTEXT + len(keep)] = keep
    before = np.zeros(len(blocks), bool)
    after = np.zeros(len(blocks), bool)
    for k in range(1, CODE_CONTEXT + 1):
        before |= padded[first + CODE_CONTEXT - k]
        after |= padded[end + CODE_CONTEXT + k - 1]  # at most n + 2 * CODE_CONTEXT - 1: in the padding
    after = np.where(end >= n, before, after)
    keep[code] = ((before & after) | (share >= 0.5))[member]


#: a code block in kept text: a kept paragraph among this many before it and after it
CODE_CONTEXT = 2


def _keep_boundary_lines(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
                         probability: np.ndarray) -> None:
    """Keep the lines the model doubts at the edges of what it kept and in its gaps: a
    paragraph between two kept ones (at most :data:`GAP` apart) that shares an ancestor
    with one of them (a standfirst in a box of its own under the title, a line that is
    only a link or an address, an item's text under a kept heading of a listicle, a
    quoted post inside a forum post, an embedded tweet); and the short ones
    (:data:`EDGE_CHARS`, at most :data:`EDGE`) after the last kept paragraph of a run, in
    its parent (a credit line, "Additional reporting by…", an italic "Update:" note,
    a bold closing line, the rest of a description written as ``<br>``-separated lines).

    The model judges each line from its own look, and these look like boilerplate (short,
    no sentence, a link), while a reader reads them as part of the text around them.
    A line inside a box that names boilerplate (:data:`BOUNDARY_GROUPS`, the box not
    around the kept neighbour too), a line with links (but one that is a single link in
    the kept text's own container, or a quote's, or links that are only e-mail addresses
    or phone numbers: a contact line), a figure's caption (it goes with its
    image: :func:`_keep_figures`), a code line (it goes with its block) and a line the
    model rejects outright (under :data:`BOUNDARY_FLOOR`) stay out.

    Compiled: ``_csteps.keep_boundary_lines`` (one pass over the page's arrays, the text
    tests asked of the lines they can still decide), else
    :func:`_keep_boundary_lines_numpy`."""
    if _csteps is None:
        _keep_boundary_lines_numpy(page, para, keep, barred, probability)
        return
    _csteps.keep_boundary_lines(para.X, keep, np.ascontiguousarray(barred), para.chars, probability, _span_keys(para),
                                para.signature, para.texts, partial(_address_lines, page, para), _closing_sentence,
                                _linked_sentence, _boundary_columns(), *_boxes(), *_boxes(("meta",)), _BOUNDARY_PARAMETERS)


def _keep_boundary_lines_numpy(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
                               probability: np.ndarray) -> None:
    """The twin of ``_csteps.keep_boundary_lines``, in array expressions."""
    density = _column(para, "link_density")
    quoted = _column(para, "dist_t_quote") <= 1
    eligible = (~barred & ~keep & (para.chars > 0) & (probability >= BOUNDARY_FLOOR)
                & (_column(para, "dist_t_figure") > 1) & (_column(para, "dist_t_code") > 0))
    # an embedded post's attribution links its author and date: a quote may hold links
    plain = (density <= PLAIN_LINKS) | (quoted & (density < 0.5))
    plain[_address_lines(page, para, np.flatnonzero(eligible & ~plain & (para.chars <= EDGE_CHARS)))] = True
    media = _column(para, "dist_media") <= 1
    _keep_like_kept(para, keep, eligible & plain & ~media)
    _fill_gaps(para, keep, eligible, plain, density >= LINK_LINE, media)
    within = eligible & (para.chars <= EDGE_CHARS)
    _extend_edges(para, keep, within & plain, within & ~plain & (density < EDGE_LINKS), media, quoted)


def _keep_parent_items(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
                       probability: np.ndarray) -> None:
    """Keep the own text of a list item whose sub-list the model kept ("Optimize query
    performance using:" above its three kept sub-items, "Mock interview" above the three
    steps of the interview): a line in a list, just before a kept paragraph, that starts
    an element (its container or the element above) holding that paragraph, outside a
    boilerplate box the kept paragraph is not in.  The model judges the short label by
    its look and lets it go; the sub-items then hang under an empty bullet.  A line that
    is only a link (a menu's parent entry) stays out."""
    n = len(keep)
    if n < 2:
        return
    lines = np.flatnonzero(~keep[:-1] & keep[1:] & ~barred[:-1] & (para.chars[:-1] > 0)
                           & (probability[:-1] >= BOUNDARY_FLOOR) & (_column(para, "is_list")[:-1] > 0)
                           & (_column(para, "link_density")[:-1] < LINK_LINE))
    if not len(lines):
        return
    first, end = para.spans[:2, 0, :][:, lines], para.spans[:2, 1, :][:, lines]  # (container/parent, lines)
    heads = ((first == lines) & (end > lines + 1)).any(axis=0)
    lines = lines[heads]
    if len(lines):
        keep[lines[_clear_of_boilerplate(para, lines, lines + 1)]] = True


def _address_lines(page: Page, para: features.Paragraphs, lines: np.ndarray) -> list[int]:
    """Those of ``lines`` whose links all go to an e-mail address or a phone number
    (``mailto:``, ``tel:``): a contact line, whose "link" is no way to another page."""
    found = []
    texts = para.texts
    for i in lines.tolist():
        if "@" not in texts[i] and not _DIGIT.search(texts[i]):  # no address, no number
            continue
        hrefs = [_link_href(block.node) for block in page.blocks[para.starts[i]:para.ends[i]] if block.link_chars]
        if hrefs and all(href.startswith(_ADDRESS_SCHEMES) for href in hrefs):
            found.append(i)
    return found


_ADDRESS_SCHEMES = ("mailto:", "tel:")


def _link_href(node) -> str:  # type: ignore[no-untyped-def]
    """The lower-cased ``href`` of the link around a block's element (itself or an
    ancestor at most three levels up); "" when none is found."""
    for _ in range(4):
        if node is None:
            break
        if node.tag == "a":
            return (node.get("href") or "").strip().lower()
        node = node.getparent()
    return ""


def _keep_like_kept(para: features.Paragraphs, keep: np.ndarray, eligible: np.ndarray) -> None:
    """Keep the ``eligible`` paragraphs of a structure (:attr:`Paragraphs.signature`:
    the posts of a thread, the items of a list) that repeats at least :data:`LIKE_KEPT`
    times and whose text is mostly kept (:data:`LIKE_KEPT_SHARE`): the model judges
    the last replies of a thread by their neighbourhood, the footer, and lets them go."""
    signature = para.signature
    weight = para.chars + 1.0
    total = np.bincount(signature, weight)
    kept = np.bincount(signature, weight * keep, minlength=len(total))
    count = np.bincount(signature)
    like = (count >= LIKE_KEPT) & (kept >= LIKE_KEPT_SHARE * total)
    keep |= eligible & like[signature]


#: a structure repeated this many times, whose text is kept at least this share, is kept whole
LIKE_KEPT = 3
LIKE_KEPT_SHARE = 0.5


def _fill_gaps(para: features.Paragraphs, keep: np.ndarray, eligible: np.ndarray, plain: np.ndarray,
               link_line: np.ndarray, media: np.ndarray) -> None:
    """Keep the ``eligible`` paragraphs between two kept ones at most :data:`GAP` apart
    that share an ancestor with one of them (``plain`` sentences: a standfirst; a
    ``plain`` line that is no sentence, only one whose parent or grandparent holds both:
    an item of the text's own list, not a date line or byline) or whose parent holds both
    (a ``link_line``), outside boilerplate boxes; a line in a box named as a caption or a
    credit only in the kept text's own container (a photo's caption goes with the
    photo: :func:`_keep_figures`)."""
    kept = np.flatnonzero(keep)
    lines = np.flatnonzero(eligible & (plain | link_line))
    if len(kept) < 2 or not len(lines):
        return
    at = np.searchsorted(kept, lines)
    inside = (at > 0) & (at < len(kept))
    lines, at = lines[inside], at[inside]
    before, after = kept[at - 1], kept[np.minimum(at, len(kept) - 1)]
    near = after - before - 1 <= GAP
    lines, before, after = lines[near], before[near], after[near]
    if not len(lines):
        return
    # a line of a box of its own beside the text (a standfirst) is kept when it is a
    # sentence; one that is none (a date line, a byline, a source: "2012-01-11",
    # "By Jane Doe / Reuters") only inside the text's own containers (a list's items)
    own_before, own_after = _share(para, lines, before, 1, 1), _share(para, lines, after, 1, 1)
    shared = plain[lines] & own_before & own_after
    # each further test only on the lines it can still decide (a page has few such lines)
    rest = np.flatnonzero(plain[lines] & ~shared)
    if len(rest):
        rest = rest[np.fromiter(map(_closing_sentence, map(para.texts.__getitem__, lines[rest].tolist())), bool,
                                len(rest))]
        shared[rest] = _share(para, lines[rest], before[rest], 3, 2) | _share(para, lines[rest], after[rest], 3, 2)
    rest = np.flatnonzero(link_line[lines] & ~shared)
    if len(rest):
        shared[rest] = _share(para, lines[rest], before[rest], 1, 2) & _share(para, lines[rest], after[rest], 1, 2)
    shared &= ~media[lines] | own_before | own_after
    if shared.any():
        chosen = np.flatnonzero(shared)
        keep[lines[chosen[_clear_of_boilerplate(para, lines[chosen], before[chosen])]]] = True


def _extend_edges(para: features.Paragraphs, keep: np.ndarray, short: np.ndarray, linked: np.ndarray,
                  media: np.ndarray, quoted: np.ndarray) -> None:
    """Keep the ``short`` lines after the last paragraph of each kept run, one after the
    other while each is a line of the previous one's own element or parent
    (``<br>``-separated lines, the next ``<p>``), or a sentence
    (:func:`_closing_sentence`: not "Print", "Font size:", a teaser's title) or a line
    of a quote (an embedded post's attribution) sharing the previous one's parent (at
    most :data:`EDGE`; a line in a box named as a caption or a credit, its very
    parent).  The line just after the run may sit a level further out, in a box of its
    own, even one named for an article's meta data, when it is a sentence ("Walter
    Gibbs contributed reporting.", "John Harris can be reached at …"); or it may hold
    some links (``linked``: under :data:`EDGE_LINKS` of its text) when it is a sentence
    of the run's own element or parent ("Additional contributions by <a>…</a>, <a>…</a>.",
    "A version of this post also appeared in <a>the Register</a>.")."""
    n = len(keep)
    ends = np.flatnonzero(keep[:-1] & ~keep[1:] & (short | linked)[1:]).tolist()
    if not ends:
        return
    # how each line that may follow a run joins the line before it, for all at once
    lines = np.array(sorted({line for last in ends for line in range(last + 1, min(n, last + 1 + EDGE))}))
    lines = lines[short[lines]]
    before = lines - 1
    own = _share(para, lines, before, 1, 1)
    sentence = np.fromiter(map(_closing_sentence, map(para.texts.__getitem__, lines.tolist())), bool, len(lines))
    near = np.where(media[lines], own, _share(para, lines, before, 2, 1))
    joined = (own | ((sentence | quoted[lines]) & near)) & _clear_of_boilerplate(para, lines, before)
    # the line just after the run, a level further out
    outer = (~media[lines] & sentence & _share(para, lines, before, 3, 2)
             & _clear_of_boilerplate(para, lines, before, allowed=("meta",)))
    joins, first = dict(zip(lines.tolist(), joined.tolist())), dict(zip(lines.tolist(), outer.tolist()))
    for last in ends:
        line = last + 1
        if linked[line]:
            if not _linked_closing(para, line, media):
                continue
            keep[line] = True
            line += 1
        while line < min(n, last + 1 + EDGE) and short[line] and not keep[line]:
            if not (joins[line] or (line == last + 1 and first[line])):
                break
            keep[line] = True
            line += 1


def _linked_closing(para: features.Paragraphs, line: int, media: np.ndarray) -> bool:
    """Whether a line with some links, just after a kept run, closes it: a sentence of
    the previous line's own element or parent, outside boilerplate boxes."""
    lines, before = np.array([line]), np.array([line - 1])
    return (not media[line] and bool(_share(para, lines, before, 1, 1)[0])
            and _linked_sentence(para.texts[line]) and bool(_clear_of_boilerplate(para, lines, before)[0]))


def _linked_sentence(text: str) -> bool:
    """Whether a line with links reads as a sentence closing an article
    (:func:`_closing_sentence`) that is no call to action ("Join us on Facebook,
    Twitter.": :func:`promo_line`)."""
    return _closing_sentence(text) and not promo_line(text.lower())


def _closing_sentence(text: str) -> bool:
    """Whether a line reads as a sentence closing an article: at least
    :data:`SENTENCE_WORDS` words (or :data:`SENTENCE_CJK` CJK characters) ending with a
    full stop, an exclamation or a question mark, few of its characters digits (no
    date line, no "Posted on 3.1.2008 at 10:15.")."""
    text = text.strip()
    if _SENTENCE_END.search(text) is None or sum(map(str.isdigit, text)) > len(text) * SENTENCE_DIGITS:
        return False
    return len(text) >= SENTENCE_CJK if text[0] >= "\u3000" else len(text.split()) >= SENTENCE_WORDS


_SENTENCE_END = re.compile(r"[.!?。！？…][\"'”’»)\]]*$")
#: a closing sentence has at least this many words (or CJK characters)…
SENTENCE_WORDS = 4
SENTENCE_CJK = 10
#: …and at most this share of digits
SENTENCE_DIGITS = 0.2

#: a gap of at most this many paragraphs between two kept ones is filled
GAP = 5
#: a boundary line holds at most this share of link text (a line of one link aside)
PLAIN_LINKS = 0.0
#: the short lines (at most EDGE_CHARS) after a kept one are kept, at most EDGE of them
EDGE = 6
EDGE_CHARS = 250
#: a line the model gives less than this is not brought back
BOUNDARY_FLOOR = 0.05
#: a line of at least this link density (a link alone) may fill a gap inside its parent
LINK_LINE = 0.9
#: the line just after a kept run may hold less than this share of link text (a credit
#: line linking its authors, a source line linking its source) when it is a sentence
EDGE_LINKS = 0.6
#: a line in a box named so (class/id/role or tag, its container or parent) is no boundary line
BOUNDARY_GROUPS = ("nav", "footer", "header", "sidebar", "comment", "social", "related", "ad", "meta", "overlay",
                   "t_nav", "t_footer", "t_aside", "t_form", "t_header")


#: the constants of the boundary step, in the order ``_csteps.keep_boundary_lines`` reads them
_BOUNDARY_PARAMETERS = (BOUNDARY_FLOOR, PLAIN_LINKS, EDGE_CHARS, GAP, EDGE, LIKE_KEPT, LIKE_KEPT_SHARE, LINK_LINE,
                        EDGE_LINKS)


@lru_cache(maxsize=1)
def _boundary_columns() -> tuple[int, ...]:
    """The feature columns ``_csteps.keep_boundary_lines`` reads: link density, quote,
    figure, code and media."""
    positions = _positions()
    return tuple(positions[name] for name in ("link_density", "dist_t_quote", "dist_t_figure", "dist_t_code",
                                              "dist_media"))


def _column(para: features.Paragraphs, name: str) -> np.ndarray:
    """A feature column by name, its position looked up in a table
    (``Paragraphs.column`` searches the names)."""
    return para.X[:, _positions()[name]]


@lru_cache(maxsize=1)
def _positions() -> dict[str, int]:
    return {name: i for i, name in enumerate(features.names())}


def _share(para: features.Paragraphs, lines: np.ndarray, others: np.ndarray, up: int, up_other: int) -> np.ndarray:
    """Whether each of ``lines`` and the paragraph ``others`` beside it (-1: none) have a
    common ancestor at most ``up`` levels above the line's container and ``up_other``
    above the other's (the same paragraph range at both places; compiled:
    ``_csteps.share``, else :func:`_share_numpy`)."""
    keys = _span_keys(para)
    if _csteps is not None:
        return _csteps.share(keys, _indices(lines), _indices(others), up, up_other)
    return _share_numpy(keys, lines, others, up, up_other)


def _share_numpy(keys: np.ndarray, lines: np.ndarray, others: np.ndarray, up: int, up_other: int) -> np.ndarray:
    """The twin of ``_csteps.share``: ``keys`` as :func:`_span_keys` makes them."""
    mine = keys[:up + 1, lines]  # (levels, lines)
    theirs = keys[:up_other + 1, np.maximum(others, 0)]
    return (mine[:, None] == theirs[None, :]).any(axis=(0, 1)) & (others >= 0)


def _indices(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def _span_keys(para: features.Paragraphs) -> np.ndarray:
    """int64 (levels, paragraphs): each range of :attr:`Paragraphs.spans` as one number
    (first << 32 | end), made once per page (the last page's are kept)."""
    global _KEYS
    cached = _KEYS
    if cached[0] is para:
        return cached[1]
    spans = para.spans.astype(np.int64)
    keys = np.ascontiguousarray((spans[:, 0] << 32) | spans[:, 1])
    _KEYS = (para, keys)
    return keys


_KEYS: tuple[features.Paragraphs | None, np.ndarray] = (None, np.zeros((0, 0), np.int64))


def _clear_of_boilerplate(para: features.Paragraphs, lines: np.ndarray, others: np.ndarray,
                          allowed: tuple[str, ...] = ()) -> np.ndarray:
    """Whether each of ``lines`` lies in no box of :data:`BOUNDARY_GROUPS` (but the
    ``allowed`` ones: its container or parent) that the kept paragraph ``others`` beside
    it is not inside too; an embedded post (a ``<blockquote class="twitter-tweet">``) is
    a quote, not a share bar."""
    columns, social = _boxes(allowed)
    if _csteps is not None:
        return _csteps.clear_of_boilerplate(para.X, _indices(lines), _indices(others), columns,
                                            _positions()["dist_t_quote"], social)
    return _clear_of_boilerplate_numpy(para.X, lines, others, columns, _positions()["dist_t_quote"], social)


def _clear_of_boilerplate_numpy(X: np.ndarray, lines: np.ndarray, others: np.ndarray, columns: np.ndarray,
                                quote: int, social: int) -> np.ndarray:
    """The twin of ``_csteps.clear_of_boilerplate``."""
    boxed = (X[lines][:, columns] <= 1) & (X[others][:, columns] > 3)  # (lines, groups)
    if social >= 0:
        boxed[:, social] &= ~(X[lines, quote] <= 1)
    return ~boxed.any(axis=1)


@lru_cache(maxsize=8)
def _boxes(allowed: tuple[str, ...] = ()) -> tuple[np.ndarray, int]:
    """The columns of the boilerplate boxes (:data:`BOUNDARY_GROUPS` but ``allowed``) and
    the position of the social one among them (-1: allowed)."""
    groups = tuple(group for group in BOUNDARY_GROUPS if group not in allowed)
    return _group_columns(groups), groups.index("social") if "social" in groups else -1


@lru_cache(maxsize=8)
def _group_columns(groups: tuple[str, ...]) -> np.ndarray:
    """The feature columns ``dist_<group>`` of ``groups``, in order."""
    positions = _positions()
    return np.array([positions[f"dist_{group}"] for group in groups], np.int64)


def _drop_controls(para: features.Paragraphs, keep: np.ndarray) -> None:
    """Leave out the kept lines that are a control, not text: "Click to expand...",
    "Show more" (a forum quote's or a long post's toggle)."""
    lowered = _lowered(para)
    for i in np.flatnonzero(keep & (para.chars <= CONTROL_CHARS)).tolist():
        line = lowered[i].strip()
        if line.startswith(_CONTROL_STARTS) and _CONTROL.fullmatch(line):
            keep[i] = False


CONTROL_CHARS = 30
_CONTROL = re.compile(r"(?:click to (?:expand|shrink)|(?:show|see|view) (?:more|less)|expand|collapse)\s*(?:\.\.\.|…)?")
_CONTROL_STARTS = ("click", "show", "see", "view", "expand", "collapse")


def _keep_figures(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> None:
    """Keep the article's images and their captions: an image paragraph between two kept
    paragraphs (at most :data:`GAP` apart) sharing an ancestor with one of them, or among
    the :data:`FIGURE_EDGE` before or after the kept text, sharing an ancestor with it (a
    lead image above the title, a figure after the last paragraph), or among the
    :data:`FIGURE_LEAD` before it when the image's parent holds the kept text's parent (a
    lead image above a byline and a share bar); then a caption
    (``<figcaption>``, or the text of the image's ``<figure>``) beside a kept image.  Not
    an icon, an avatar, a smiley, a tracking pixel or an advertisement
    (``Block.decorative``), nor an image in a box that names boilerplate (but an
    "overlay" one: a figure's zoom layer, or its ``no_overlay`` class).

    Compiled: ``_csteps.keep_figures``, else :func:`_keep_figures_numpy`."""
    if _csteps is None:
        _keep_figures_numpy(page, para, keep, barred)
        return
    _csteps.keep_figures(para.X, keep, np.ascontiguousarray(barred), para.chars, _span_keys(para),
                         partial(_illustrated, page, para), _FIGURE_COLUMNS, *_boxes(_FIGURE_ALLOWED),
                         (GAP, FIGURE_EDGE, FIGURE_LEAD))


def _illustrated(page: Page, para: features.Paragraphs, i: int) -> bool:
    """Whether paragraph ``i`` is images only, not all decorative (:func:`_illustration`)."""
    return _illustration(page, int(para.starts[i]), int(para.ends[i]))


def _keep_figures_numpy(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> None:
    """The twin of ``_csteps.keep_figures``, in array expressions."""
    kept = np.flatnonzero(keep)
    images = np.flatnonzero(~keep & ~barred & (_column(para, "is_image") > 0))
    if not len(kept) or not len(images):
        return
    # illustrations first: many pages have decorative images only (icons, pixels)
    images = images[np.fromiter(map(_illustration, repeat(page), para.starts[images].tolist(),
                                    para.ends[images].tolist()), bool, len(images))]
    if not len(images):
        return
    at = np.searchsorted(kept, images)
    before = np.where(at > 0, kept[np.maximum(at - 1, 0)], -1)
    after = np.where(at < len(kept), kept[np.minimum(at, len(kept) - 1)], -1)
    between = (before >= 0) & (after >= 0) & (after - before - 1 <= GAP)
    near = (between | ((before >= 0) & (images - before <= FIGURE_EDGE))
            | ((after >= 0) & (after - images <= FIGURE_LEAD)))
    if not near.any():
        return
    images, before, after, between = images[near], before[near], after[near], between[near]
    between &= _share(para, images, before, 3, 2) | _share(para, images, after, 3, 2)
    edge = (((before >= 0) & (images - before <= FIGURE_EDGE) & _share(para, images, before, 2, 2))
            | ((after >= 0) & (after - images <= FIGURE_EDGE) & _share(para, images, after, 2, 2))
            | ((after >= 0) & (after - images <= FIGURE_LEAD) & _share(para, images, after, 1, 2)))
    clean = _clear_of_boilerplate(para, images, np.where(before >= 0, before, after), allowed=_FIGURE_ALLOWED)
    chosen = images[(between | edge) & clean]
    keep[chosen] = True
    _keep_captions(para, keep, barred, chosen)


def _illustration(page: Page, start: int, end: int) -> bool:
    """Whether the blocks ``start``…``end`` are images only, not all decorative."""
    blocks = page.blocks[start:end]
    return all(b.image for b in blocks) and not all(b.decorative for b in blocks)


#: an image at most this many paragraphs before or after the kept text is the article's
FIGURE_EDGE = 2
#: …and a lead image at most this many before it when its parent holds the kept text's
#: parent (the article's head: a title, a byline, a share bar between image and text)
FIGURE_LEAD = 12
#: the boilerplate boxes an article's image may sit in: an "overlay" (a figure's zoom
#: layer; the vocabulary also reads ``no_overlay`` so)
_FIGURE_ALLOWED = ("overlay",)
#: the feature columns ``_csteps.keep_figures`` reads: image, figure and quote
_FIGURE_COLUMNS = tuple(features.names().index(name) for name in ("is_image", "dist_t_figure", "dist_t_quote"))


def _keep_captions(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray, images: np.ndarray) -> None:
    """Keep the caption beside each of the kept ``images``: the next or previous
    paragraph, when it is in a ``<figcaption>`` or shares the image's ``<figure>``."""
    figure = _column(para, "dist_t_figure")
    for i in images.tolist():
        for j in (i + 1, i - 1):
            if 0 <= j < len(keep) and not keep[j] and not barred[j] and figure[j] <= 1 and para.chars[j]:
                if _share(para, np.array([j]), np.array([i]), 1, 1)[0]:
                    keep[j] = True


def _keep_standfirst(para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray,
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
    after = np.flatnonzero(keep[title + 1:title + 2 + STANDFIRST_GAP])
    if not len(after) or after[0] == 0:
        return
    lines = np.arange(title + 1, title + 1 + int(after[0]))
    lines = lines[~barred[lines] & (probability[lines] >= STANDFIRST_FLOOR)
                  & (_column(para, "link_density")[lines] == 0) & (_column(para, "dist_t_figure")[lines] > 1)
                  & (para.heading[lines] == 0)]
    candidates = [i for i in lines.tolist() if len(para.texts[i].split()) >= STANDFIRST_WORDS]
    if not candidates:
        return
    # a teaser repeating the body's first lines is no standfirst: it would be read twice
    first = np.flatnonzero(keep[title + 1:])[:3] + title + 1
    body = " ".join(" ".join(para.texts[i].split()) for i in first.tolist())
    lines = np.array([i for i in candidates if " ".join(para.texts[i].split())[:STANDFIRST_SAME] not in body],
                     dtype=np.int64)
    if not len(lines):
        return
    lines = lines[_clear_of_boilerplate(para, lines, np.full(len(lines), title), allowed=("meta",))]
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


def _keep_title(para: features.Paragraphs, keep: np.ndarray) -> None:
    """Keep the title heading when it precedes or sits inside the kept content."""
    i = para.title_index
    if i < 0 or keep[i] or not para.heading[i]:
        return
    kept = np.flatnonzero(keep)
    if len(kept) and i <= kept[-1]:
        keep[i] = True


def _fallback(para: features.Paragraphs, keep: np.ndarray, probability: np.ndarray,
              choice: np.ndarray, barred: np.ndarray) -> dict:
    """When the model kept almost nothing of a page (or nothing at all of a small page
    that has text): keep the low-link paragraphs it ranks near its best guess, or else
    the best container's, or else the page's text it ranks best (of the paragraphs in
    ``choice``).  What the steps dropped (``barred``) is neither rescued nor counted in
    the page's text: a comment section is no part of what the kept text is compared with.

    On a page unlike its training pages the model's probabilities can all fall below
    the threshold while their order is still right (a short article under a 900-entry
    category menu: its paragraphs score 0.3–0.45, the menu below 0.13), so the first
    rescue keeps what scores at least :data:`FALLBACK_RELATIVE` of the page's best.  The
    last makes sure a page with text never comes out empty: a small page whose few
    lines the model all rejects (an opening-hours notice under a menu)."""
    total = int(para.chars[~barred].sum())
    choice = choice & ~barred
    kept = int(para.chars[keep].sum())
    if kept >= FALLBACK_SHARE * total or (total < FALLBACK_PAGE_CHARS and kept) or not total:
        return {}
    low_link = (_column(para, "link_density") < 0.5) & choice
    probability = np.where(choice, probability, 0.0)
    reason = f"the model kept {kept} of {total} characters"
    ranked = low_link & (probability >= FALLBACK_RELATIVE * probability.max())
    container = low_link & (_column(para, "in_top") > 0)
    # a ranking that singles out no part of the page (most of its text near the best
    # guess) says nothing: the container then, and that ranking only when nothing else is
    singled = ranked if int(para.chars[ranked].sum()) <= RANKED_SHARE * total else np.zeros_like(keep)
    best = choice & (para.chars > 0) & (probability >= probability[choice & (para.chars > 0)].max(initial=0.0))
    for name, rescue in (("model-ranked", singled), ("best-container", container), ("page-text", ranked),
                         ("best-paragraph", best)):
        if int(para.chars[rescue].sum()) > kept:
            keep |= rescue
            return {"fallback": name, "reason": reason}
    return {}
