"""The learned extractor's page-level rules: what it keeps of a page once the trees have
scored every paragraph (:mod:`detourage.learned.forest`), one module per family of steps.

:func:`apply` keeps the paragraphs at or above the decision threshold (drawn lower on a
landing page or a manual whose prose the model doubts as a whole: :mod:`.doubt`), then
runs the steps a reader expects, each changing the shared ``keep`` mask in place.  First what is no
part of the article goes, and is *barred*: no later step brings it back:

1. **comments** are left out of articles (:mod:`.comments`): when the page keeps at least
   :data:`~.comments.COMMENT_ARTICLE_CHARS` of text outside comment sections (containers
   whose class/id/role names comments) and does not declare itself a forum, what the
   model kept inside them is dropped; so is what follows the line that opens an unnamed
   comment section (a heading "Comments (12)", "310 Responses to “…”", "Wasze
   komentarze", "Комментарии:", or a short label "Leave a comment", "发表评论":
   :func:`~.comments.comment_mark`) below at least
   :data:`~.comments.MARK_ARTICLE_CHARS` of kept text; on forum pages the posts are the
   content, as the model learned; ``comments=True`` keeps comment sections, with the
   author and date lines that tell one comment from the next;
2. **related boxes** ("Latest news", "Similar posts"…) below kept text, a box of their own
   or the run of link lines after such a heading, and a news ticker's run of headlines
   each led by its time or date, in any language (:mod:`.related`), and a reader's poll
   (:func:`~.controls.drop_polls`);
3. **other articles**: the stories an infinite scroll appended beside the page's own,
   siblings of its title's container that look the same, and the boxes beside the
   article named as a newsletter sign-up, a share bar, an advertisement… (:mod:`.articles`);
   what the model kept of the site's frame, its header, menus and footer outside the
   page's article (a mega-menu's sentences, a footer's blurb: :mod:`.frame`);
   on a product page, the runs of other products' cards, each with its price ("customers
   also bought": :func:`~.cards.drop_product_carousels`), and its customers' reviews, the
   shop's comment section, unless ``comments=True`` (:mod:`.reviews`); a consent manager's banner or
   dialog ("We and our 644 partners store and access information…": :mod:`.consent`); on a
   forum, a member's signature under their posts (:mod:`.signatures`); on any page
   printing a forum's profile fields beside its posts, those fields ("Posts: 4032",
   "Joined: Thu Aug 27, 2020": :mod:`.profiles`);
   and a publisher's box closing the text with a call to action (:mod:`.promos`), and
   what lies below a rights notice ("Copyright 2008 Associated Press. All rights
   reserved.") outside the box it closes (:mod:`.notices`);
4. **copies**: a box whose lines repeat, one for one, a box kept before it (a product's
   description twice, for desktop and for mobile) is read once (:mod:`.copies`).

Then what belongs to it comes back:

5. **code blocks whole**: the lines of a ``<pre>`` are kept or dropped together, kept
   when the text around the block is kept (or the block closes the section of kept text
   before it) or the model kept most of it (:mod:`.code_blocks`);
6. **title first**: the heading that matches the page's ``og:title``/``<title>`` is kept
   when it comes before or inside the kept content (:mod:`.headings`);
7. **never empty by accident**: when the page has text and the model keeps almost none
   of it, the paragraphs it ranks near its best guess are kept instead, with the lists
   of links it ranks so inside the element that holds them (or those of the best
   Readability-style container, or the page's text it ranks best), never what a step
   barred nor the site's frame (nor is the frame counted as the page's text), and the
   details say so (``fallback``, or ``frame_only`` for a page that is nothing else:
   :mod:`.fallback`);
8. on a forum, **every post of the thread**: the body of each post made from the
   template of one the model kept (the same tag and class), but signatures, quotes of
   earlier lines and boxes of short lines (:mod:`.posts`);
9. **the standfirst** under the title (:mod:`.headings`), and the **boundary lines**: the
   lines the model doubts between kept paragraphs and just after them, in the same
   containers (a standfirst, a credit or source line, a line that is one link or an
   address, a listicle's items, a quoted post, an embedded tweet, an "Update:" note), the
   rest of a repeated structure the model mostly kept (a thread's last replies)
   (:mod:`.boundary`), the parts every card of a run shares when the model kept most of
   the run, on the kinds of page made of cards (a listing's titles and dates beside the
   teasers it kept: :mod:`.cards`, :data:`CARD_KINDS`), the list items of a section
   whose heading and next heading the model kept (a wiki's reading list, a syllabus:
   :func:`~.lists.keep_section_lists`, :data:`SECTION_KINDS`), the rest of a data table
   the model kept a cell of or that lies in kept text (a header cell, three rows, no
   table inside; not on a product page: :mod:`.tables`), a list item's own text above
   its kept sub-list (:mod:`.lists`), without the controls ("Click to expand...":
   :mod:`.controls`);
10. **figures**: the images between and beside kept paragraphs, and their captions, but
    the decorative ones (icons, avatars, smileys, pixels: :mod:`.figures`); and last the
    permalink anchors of kept headings ("¶") are left out (:mod:`.headings`).

:mod:`.paragraphs` and :mod:`.ancestors` hold what every step reads: a feature column by
name, and whether a line shares an ancestor with its neighbour or sits in a boilerplate
box.  The boundary and figure steps and those two tests have compiled twins
(``_csteps.pyx``, here), each step's constants handed to them by name.
"""

from __future__ import annotations

import numpy as np

from ...model import Page
from .. import features, pagetype
from .articles import drop_appended_articles, drop_boxes_beside
from .boundary import keep_boundary_lines
from .cards import drop_product_carousels, keep_whole_cards
from .code_blocks import whole_code_blocks
from .comments import drop_comments, drop_stamped_threads
from .consent import drop_consent_boxes
from .controls import drop_controls, drop_polls
from .copies import drop_later_copies
from .doubt import lower_when_doubted
from .fallback import fall_back
from .figures import keep_figures, keep_pictured_paragraphs
from .frame import drop_site_frame
from .headings import drop_permalinks, keep_standfirst, keep_title
from .lists import keep_parent_items, keep_section_lists
from .notices import drop_after_notice
from .paragraphs import OPTION_CODE, column
from .posts import keep_thread_posts
from .profiles import drop_profile_fields
from .promos import drop_closing_promos
from .related import drop_dated_headlines, drop_related_boxes
from .reviews import drop_product_reviews
from .signatures import drop_signatures
from .tables import keep_data_tables

#: the kinds of page whose content is a run of cards (:mod:`detourage.learned.pagetype`):
#: on an article a run the model kept is more often a box of teasers beside the text, on
#: a forum the posts, whose names and dates are no part of the text
CARD_KINDS = frozenset({"listing", "collection", "service"})

#: the kinds of page whose sections' lists are kept whole (:func:`~.lists.keep_section_lists`):
#: on a product page the lists under its headings are as often other products, on a
#: forum the posts' own lists
SECTION_KINDS = frozenset({"article", "documentation", "collection", "listing", "service"})

#: the kinds of page whose threshold goes down when the model doubts much of their prose
#: (:mod:`.doubt`): a landing page's claims, a manual's short lines.  On an article or a
#: forum the doubted lines are more often the teasers and the comments around the story
#: the model kept, on a product page the shop's own notes (shipping, returns, the
#: seller), and a listing's or a collection's threshold is already that much lower
DOUBTED_KINDS = frozenset({"documentation", "service"})


def apply(page: Page, para: features.Paragraphs, probability: np.ndarray, threshold: float, *,
          comments: bool, fallback: bool, kind: str = "article") -> tuple[np.ndarray, dict]:
    """Keep the paragraphs scoring at least ``threshold``, then run the steps in order
    (``comments``: keep comment sections; ``fallback``: rescue a page the model keeps
    almost nothing of; ``kind``: the page's, :mod:`detourage.learned.pagetype`).  One
    keep flag per block of ``page``, and the details: what the steps found, the
    threshold and the counts of paragraphs."""
    choice = column(para, "container_tag") != OPTION_CODE
    # a page made of short lines whose prose the model doubts as a whole gets a lower
    # line (:mod:`.doubt`); on an article or a thread the lines under it are teasers
    lowered = lower_when_doubted(para, probability, threshold, choice) if kind in DOUBTED_KINDS else 0.0
    threshold += lowered
    keep = (probability >= threshold) & choice
    # what a step left out as no part of the content (comments, related boxes): the
    # steps that add paragraphs back, the fallback among them, pass it over
    barred = np.zeros_like(keep)
    details = drop_comments(para, keep, barred, probability, (probability >= threshold / 3) & choice, comments,
                            kind == "forum", page)
    _found(details, thread_lines=drop_stamped_threads(page, para, keep, barred)
           if kind == "article" and not comments else 0)
    # a site's home page is its teasers: no article for a box of them to be related to
    home = pagetype.home(pagetype.address(page.url, para))
    _found(details, related_boxes=[] if home else drop_related_boxes(para, keep, barred),
           appended_articles=drop_appended_articles(page, para, keep, barred),
           ticker_lines=drop_dated_headlines(para, keep, barred) if kind not in CARD_KINDS else 0,
           poll_lines=drop_polls(page, para, keep, barred) if kind not in CARD_KINDS else 0)
    drop_boxes_beside(para, keep, barred)
    _found(details, frame_lines=drop_site_frame(para, keep))
    _found(details, consent_lines=drop_consent_boxes(page, para, keep, barred),
           signature_lines=drop_signatures(page, para, keep, barred) if kind == "forum" else 0,
           profile_lines=drop_profile_fields(para, keep, barred),
           product_carousels=drop_product_carousels(page, para, keep, barred) if kind == "product" else [],
           product_reviews=drop_product_reviews(page, para, keep, barred)
           if kind == "product" and not comments else 0,
           closing_promo=drop_closing_promos(para, keep, barred), rights_notice=drop_after_notice(para, keep, barred),
           later_copies=drop_later_copies(para, keep, barred))
    whole_code_blocks(para, keep, page, barred)
    keep_title(para, keep)
    if fallback and (rescue := fall_back(para, keep, probability, choice, barred, page)):
        details.update(rescue)
        # what the rescue kept may be a box the page holds twice (a product's description for desktop and
        # mobile, both in the best container): its copy goes, as it would had the model kept the first
        _found(details, later_copies=details.get("later_copies", 0) + drop_later_copies(para, keep, barred))
    closed = barred | ~choice  # what no step that adds lines back may take
    _found(details, post_lines=keep_thread_posts(page, para, keep, closed) if kind == "forum" else 0)
    keep_standfirst(para, keep, closed, probability)
    keep_boundary_lines(page, para, keep, closed, probability)
    _found(details, pictured_lines=keep_pictured_paragraphs(page, para, keep, closed))
    _found(details,
           section_lines=keep_section_lists(para, keep, closed, probability) if kind in SECTION_KINDS else 0,
           table_lines=keep_data_tables(page, para, keep, closed, probability) if kind != "product" else 0,
           card_lines=keep_whole_cards(page, para, keep, closed, probability) if kind in CARD_KINDS else 0)
    keep_parent_items(para, keep, closed, probability)
    drop_controls(para, keep)
    keep_figures(page, para, keep, closed)
    per_block = np.repeat(keep, para.ends - para.starts)
    drop_permalinks(page, para, keep, per_block)
    _found(details, doubted_page=round(-lowered, 3))
    details.update(threshold=round(threshold, 3), paragraphs=len(para), kept=int(keep.sum()))
    return per_block, details


def _found(details: dict, **steps: object) -> None:
    """Note in ``details`` what each step found, by its name, when it found something.
    The keyword arguments are evaluated in order: the steps run as written."""
    details.update((name, found) for name, found in steps.items() if found)
