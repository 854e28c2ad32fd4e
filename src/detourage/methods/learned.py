"""detourage's own extractor: gradient-boosted trees over paragraph features.

The story of :func:`label`: compute the features of every paragraph
(:mod:`detourage.learned.features`), score them with the shipped tree ensembles
(:mod:`detourage.learned.forest`: a first stage on the paragraph's own features, a second
that also sees the first stage's verdicts around it, :mod:`detourage.learned.context`),
keep those at or above the decision threshold, then four page-level steps a reader
expects:

1. **title first**: the heading that matches the page's ``og:title``/``<title>`` is kept
   when it comes before or inside the kept content;
2. **comments** are left out of articles: when the page keeps at least
   :data:`COMMENT_ARTICLE_CHARS` of text outside comment sections (containers whose
   class/id/role names comments) and does not declare itself a forum, what the model kept
   inside them is dropped; so is what follows the line that opens an unnamed comment
   section (a heading "Comments (12)", "Wasze komentarze", "Комментарии:", or a short
   label "Leave a comment", "发表评论": :func:`comment_mark`) below at least
   :data:`MARK_ARTICLE_CHARS` of kept text; on forum pages the posts are the content, as
   the model learned; ``comments=True`` keeps comment sections, and adds their paragraphs
   the model doubted;
3. **code blocks whole**: the lines of a ``<pre>`` are kept or dropped together, kept
   when the text around the block is kept or the model kept most of it
   (:func:`_whole_code_blocks`);
4. **never empty by accident**: when the page has text and the model keeps almost none
   of it, the paragraphs it ranks near its best guess are kept instead (or, failing
   that, those of the best Readability-style container), never those of a related box
   dropped above, and the labels' details say so (``details["learned"]["fallback"]``).

The shipped model (``data/learned-default.zip``) is rebuilt by
``python benchmarks/train_learned.py --write``; ``detourage train learned`` trains one on
your own gold and ``--model`` uses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from ..learned import features
from ..learned.forest import Model, load_model
from ..model import Labels, Page
from .common import label_paragraphs

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
    choice = para.column("container_tag") != _OPTION_CODE  # a drop-down's entries are never content
    keep = (probability >= threshold) & choice
    in_comments = para.column("dist_comment") <= COMMENT_LEVELS
    if options.comments:
        keep |= in_comments & (probability >= threshold / 3) & choice
    elif not para.column("type_forum")[0]:
        if para.chars[keep & ~in_comments].sum() >= COMMENT_ARTICLE_CHARS:
            keep &= ~in_comments
        mark = _cut_comment_section(para, keep)
        if mark is not None:
            details["comment_mark"] = mark
    barred = np.zeros_like(keep)  # the related boxes: the fallback does not bring them back
    boxes = _drop_related_boxes(para, keep, barred)
    if boxes:
        details["related_boxes"] = boxes
    _whole_code_blocks(para, keep)
    _keep_title(para, keep)
    if options.fallback:
        details.update(_fallback(para, keep, probability, choice & ~barred))
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
    story"); "He declined to comment." is not, nor "Comments: CVPR 2026" but as a heading."""
    line = text.strip().lower()
    if _CLOSED.match(line) and len(line) <= MARK_CHARS:
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


#: the notice that stands where a closed comment section starts ("Comments are now closed
#: for this story"); the comments people left before may follow it
_CLOSED = re.compile(r"(?:comments|commenting) (?:are|is|has been|have been) (?:now )?(?:closed|disabled)\b")
_WORDS = re.compile(r"\w+")
_COUNT_TAIL = re.compile(r"[\s\d():\[\]#№-]*$")
_LABEL = re.compile(r"[\w\s'’-]+")


def _cut_comment_section(para: features.Paragraphs, keep: np.ndarray) -> str | None:
    """Drop what the model kept in the comment section opened by the first
    :func:`comment_mark` line below :data:`MARK_ARTICLE_CHARS` of kept text; its text, or
    None.

    Where the line sits in the article's own container (its parent holds kept paragraphs
    above it: a flat page, comments as the article's siblings), everything kept below it
    goes; where it heads a box of its own ("Have your say" inside a story), only what is
    kept below it outside the containers of the article above goes, and the article
    resumes after the box."""
    kept_chars = np.where(keep, para.chars, 0)
    kept_before = np.cumsum(kept_chars) - kept_chars  # above each paragraph
    short = np.flatnonzero((para.chars <= MARK_CHARS) & (kept_before >= MARK_ARTICLE_CHARS))
    if not len(short):
        return None
    texts = para.texts
    pieces = [texts[i] for i in short.tolist()]
    joined = "\x1f".join(pieces)
    lowered = joined.lower()
    if len(lowered) != len(joined):  # a letter whose lower case is longer ("İ"): piece by piece
        pieces = [piece.lower() for piece in pieces]
        lowered = "\x1f".join(pieces)
    hits = [m.start() for m in COMMENT_WORDS.finditer(lowered)]
    if not hits:
        return None
    lengths = np.fromiter(map(len, pieces), np.int64, len(pieces)) + 1
    offsets = np.cumsum(lengths) - lengths  # where each short text starts in the joined one
    candidates = sorted(set(short[np.searchsorted(offsets, hits, side="right") - 1].tolist()))
    link = para.column("link_density")
    for i in candidates:
        heading = bool(para.heading[i])
        if not comment_mark(para.texts[i], heading) or (not heading and link[i] >= 0.5):
            continue
        parent = para.spans[1]  # (2, paragraphs): each paragraph's parent's range
        above = np.flatnonzero(keep[:i])
        if parent[0, i] <= above[-1]:  # a flat page
            keep[i:] = False
        else:
            article = set(zip(parent[0, above].tolist(), parent[1, above].tolist()))
            keep[i:] &= np.fromiter(((s, e) in article for s, e in
                                     zip(parent[0, i:].tolist(), parent[1, i:].tolist())), bool, len(keep) - i)
        return para.texts[i]
    return None


#: the heading of a box of links to other pages, whole (lower case, spaces collapsed, a
#: trailing ":", "»"… allowed), in the languages of the shipped stop lists and a few more;
#: only phrases that do not head a section of an article or a label ("see also", "more on
#: X", "most popular languages" and a bare "recommended:" do)
RELATED_PHRASES = (
    r"latest (?:news|stories|articles|headlines|posts)", r"the latest (?:news|stories|articles|headlines|posts)",
    r"related(?: (?:articles?|stories|news|posts|content|links|coverage|topics|videos))?",
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
)
RELATED_WORDS = re.compile("(?:" + "|".join(RELATED_PHRASES) + r")[\s:.»›>|-]*")
#: the letters such a heading starts with (each phrase starts with a literal one): a line
#: starting otherwise is no heading of the kind, without the whole pattern
_RELATED_FIRST = frozenset(phrase[0] for phrase in RELATED_PHRASES)
#: a related box's heading is at most this long…
RELATED_CHARS = 50
#: …and follows at least this many kept characters (teasers need an article to be teasers of)
RELATED_ARTICLE_CHARS = 200


def related_mark(text: str) -> bool:
    """Whether a line is the whole heading of a box of links to other pages ("Latest
    news", "Related articles:", "Czytaj także", "Читайте также", "相关新闻")."""
    if len(text) > RELATED_CHARS or text.lstrip()[:1].lower() not in _RELATED_FIRST:
        return False
    return RELATED_WORDS.fullmatch(" ".join(text.lower().split())) is not None


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
                           & (para.column("link_density") < 0.5))
    found = []
    for i in short.tolist():
        if not related_mark(para.texts[i]):
            continue
        kept = np.r_[0, np.cumsum(keep[:i])]  # kept paragraphs before each index up to i
        for start, end in para.spans[:, :, i].tolist():
            if kept[i] > kept[start]:  # the box would hold the kept text above the heading
                break
            if end > i + 1:
                keep[i:end] = False
                barred[i:end] = True
                found.append(para.texts[i])
                break
    return found


def _whole_code_blocks(para: features.Paragraphs, keep: np.ndarray) -> None:
    """Keep or drop each code block (a ``<pre>``, one line per paragraph) whole:
    kept when the text around it is kept (a paragraph among the :data:`CODE_CONTEXT` before
    it and among those after it, or before it when it ends the page) or when the model
    kept most of its characters; dropped otherwise.  Half a listing is no use to a reader,
    and a code line's own features (few stop words, much punctuation) look like
    boilerplate, so the lines of one block are decided together from their context."""
    code = np.flatnonzero(para.column("dist_t_code") == 0)
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
    padded = np.r_[np.zeros(CODE_CONTEXT, bool), keep, np.zeros(CODE_CONTEXT, bool)]
    before = np.zeros(len(blocks), bool)
    after = np.zeros(len(blocks), bool)
    for k in range(1, CODE_CONTEXT + 1):
        before |= padded[first + CODE_CONTEXT - k]
        after |= padded[end + CODE_CONTEXT + k - 1]  # at most n + 2 * CODE_CONTEXT - 1: in the padding
    after = np.where(end >= n, before, after)
    keep[code] = ((before & after) | (share >= 0.5))[member]


#: a code block in kept text: a kept paragraph among this many before it and after it
CODE_CONTEXT = 2


def _keep_title(para: features.Paragraphs, keep: np.ndarray) -> None:
    """Keep the title heading when it precedes or sits inside the kept content."""
    i = para.title_index
    if i < 0 or keep[i] or not para.heading[i]:
        return
    kept = np.flatnonzero(keep)
    if len(kept) and i <= kept[-1]:
        keep[i] = True


def _fallback(para: features.Paragraphs, keep: np.ndarray, probability: np.ndarray,
              choice: np.ndarray) -> dict:
    """When the model kept almost nothing of a page (or nothing at all of a small page
    that has text): keep the low-link paragraphs it ranks near its best guess, or else
    the best container's (of the paragraphs in ``choice``).

    On a page unlike its training pages the model's probabilities can all fall below
    the threshold while their order is still right (a short article under a 900-entry
    category menu: its paragraphs score 0.3–0.45, the menu below 0.13), so the first
    rescue keeps what scores at least :data:`FALLBACK_RELATIVE` of the page's best."""
    total = int(para.chars.sum())
    kept = int(para.chars[keep].sum())
    if kept >= FALLBACK_SHARE * total or (total < FALLBACK_PAGE_CHARS and kept):
        return {}
    low_link = (para.column("link_density") < 0.5) & choice
    probability = np.where(choice, probability, 0.0)
    reason = f"the model kept {kept} of {total} characters"
    ranked = low_link & (probability >= FALLBACK_RELATIVE * probability.max())
    container = low_link & (para.column("in_top") > 0)
    # a ranking that singles out no part of the page (most of its text near the best
    # guess) says nothing: the container then
    if int(para.chars[ranked].sum()) > RANKED_SHARE * total:
        ranked = np.zeros_like(keep)
    for name, rescue in (("model-ranked", ranked), ("best-container", container)):
        if int(para.chars[rescue].sum()) > kept:
            keep |= rescue
            return {"fallback": name, "reason": reason}
    return {}
