"""Issue 43 §2: the page's kind (an article, a listing, a product…) and the runs of cards.

The kind is guessed from what the page declares, its address and its text
(:mod:`detourage.learned.pagetype`), moves the learned extractor's threshold, and a user
forces it (``page_type``, ``--page-type``); a run of cards the model mostly kept is read
whole (:mod:`detourage.learned.rules.cards`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st
from test_learned_steps import _constant, _split  # a model splitting paragraphs by length; one keeping all

from detourage.api import load, run
from detourage.learned import features, pagetype, train
from detourage.learned.forest import Model
from detourage.methods import learned

TEASER = ("The council met on Tuesday evening to discuss the plan, and after a long debate, the members "
          "agreed that the works would start in the spring.")


#: keeps the long paragraphs, rejects the short lines outright
ONLY_LONG = _split(100, -9.0)
#: keeps the long paragraphs, doubts the short lines (probability 0.38: under the
#: article's threshold 0.5, over a listing's 0.3)
DOUBTS_SHORT = _split(100, -0.5)


def page(body: str, head: str = "") -> str:
    return (f"<html><head><title>News - The Gazette</title>{head}</head><body>"
            "<nav class='menu'><ul><li><a href='/'>Home</a></li><li><a href='/sport'>Sport</a></li></ul></nav>"
            f"{body}<footer class='site-footer'><p>© 2026 The Gazette.</p></footer></body></html>")


def cards(n: int, advert_after: int | None = None) -> str:
    out = []
    for i in range(n):
        out.append(f"<article class='card'><h2><a href='/story/{i}'>Story number {i} of the week</a></h2>"
                   f"<span class='date'>May {i + 1}, 2026</span><p>Teaser {i}. {TEASER}</p></article>")
        if advert_after == i:
            out.append("<div class='promo'><a href='/subscribe'>Subscribe now</a></div>")
    return f"<section class='stories'>{''.join(out)}</section>"


def extract(html: str, model: Model, url: str = "https://gazette.example/2026/05/harbour.html", **options):  # type: ignore[no-untyped-def]
    return run(load(html, url=url), "learned", {"learned": learned.Options(model=model, **options)})


# ------------------------------------------------------------------ cards


LISTING = "https://gazette.example/news/"


def test_each_card_of_a_run_the_model_mostly_kept_gets_its_title_and_date():
    result = extract(page(cards(5, advert_after=2)), ONLY_LONG, url=LISTING)
    text = result.text
    assert all(f"Story number {i} of the week" in text and f"May {i + 1}, 2026" in text for i in range(5))
    assert "Subscribe now" not in text  # a box between two cards is no part of them
    assert "Sport" not in text and "2026 The Gazette" not in text
    assert result.labels.details["learned"]["card_lines"] == 10


def test_two_cards_are_no_run():
    text = extract(page(cards(2)), ONLY_LONG, url=LISTING).text
    assert "Teaser 0." in text and "Story number 0" not in text


def test_an_article_s_run_of_teasers_is_not_completed():
    # on an article a run the model kept is more often a box of teasers beside the text
    result = extract(page(cards(5)), ONLY_LONG)
    assert result.labels.details["learned"]["page_type"] == "article"
    assert "Teaser 0." in result.text and "Story number 0" not in result.text


def test_a_run_the_model_left_out_stays_out():
    body = f"<main><p>Lead. {TEASER} {TEASER}</p><p>More. {TEASER} {TEASER}</p></main>"
    related = cards(4).replace("<p>Teaser", "<p class='x'>Teaser").replace(TEASER, "Short.")
    text = extract(page(body + related), ONLY_LONG, url=LISTING).text
    assert "Lead." in text and "Story number" not in text


# ------------------------------------------------------------------ product carousels


PRODUCT = "https://shop.example/products/blue-mug-123"
#: the model keeps every line
EVERYTHING = _constant(9.0)


def product_page(others: str) -> str:
    own = (f"<main><h1>Blue mug</h1><p class='price'>$14.99</p><p>About the mug. {TEASER}</p>"
           f"<p>Care. {TEASER}</p></main>")
    return page(own + others).replace("News - The Gazette", "Blue mug")


def carousel(n: int, tag: str = "ul", card: str = "li") -> str:
    items = "".join(f"<{card}{' class=snap' if i % 4 == 0 else ''}><a href='/products/mug-{i}'>Green mug {i}</a>"
                    f"<span>${i + 10}.99</span></{card}>" for i in range(n))
    return f"<section><h2>Customers also bought</h2><{tag} class='carousel'>{items}</{tag}></section>"


def test_a_product_page_leaves_out_the_carousel_of_other_products():
    result = extract(product_page(carousel(8)), EVERYTHING, url=PRODUCT)
    details = result.labels.details["learned"]
    assert details["page_type"] == "product"
    assert "About the mug." in result.text and "$14.99" in result.text  # its own price is one line
    assert "Green mug" not in result.text and "$10.99" not in result.text
    assert "Customers also bought" not in result.text  # its heading goes with it
    assert details["product_carousels"] == 9  # 8 cards, a line each (a title and its price), and the heading


def test_two_carousels_are_two_runs():
    # one box holding both would hold the page's title: each is judged on its own box
    html = product_page(carousel(4) + f"<p>Between. {TEASER}</p>" + carousel(5))
    text = extract(html, EVERYTHING, url=PRODUCT).text
    assert "Green mug" not in text and "Between." in text


def test_a_carousel_stays_on_other_kinds_and_below_three_cards():
    assert "Green mug 0" in extract(product_page(carousel(8)), EVERYTHING).text  # an article
    assert "Green mug 0" in extract(product_page(carousel(2)), EVERYTHING, url=PRODUCT).text


def test_a_comparison_of_prices_stays():
    # a table compares the product with others; a grid of cells holds few prices among them
    row = "".join(f"<td>${i + 10}.99</td>" for i in range(4))
    table = f"<table><tr><th>Price</th>{row}</tr><tr><th>Size</th>{'<td>Large mug</td>' * 4}</tr></table>"
    cells = "".join(f"<div>${i + 10}.99</div>" for i in range(4)) + "".join(
        f"<div>Holds {i} cups of tea</div>" for i in range(12))
    text = extract(product_page(table + f"<div class='grid'>{cells}</div>"), EVERYTHING, url=PRODUCT).text
    assert "$10.99" in text and "Large mug" in text and "Holds 3 cups" in text


# ------------------------------------------------------------------ page types


def _kind(html: str, url: str | None) -> tuple[str, str]:
    loaded = load(html, url=url)
    return pagetype.guess(url, features.compute(loaded))


def _ld(kind: str) -> str:
    data = json.dumps({"@context": "https://schema.org", "@type": kind})
    return f"<script type='application/ld+json'>{data}</script>"


@pytest.mark.parametrize(("head", "url", "kind", "told"), [
    (_ld("NewsArticle"), "https://gazette.example/2026/05/harbour.html", "article", "declared"),
    (_ld("DiscussionForumPosting"), None, "forum", "declared"),
    (_ld("Product"), None, "product", "declared"),
    (_ld("CollectionPage"), None, "listing", "declared"),
    (_ld("TechArticle"), None, "documentation", "declared"),
    (_ld("FAQPage") + _ld("Question"), "https://gazette.example/2026/05/harbour.html", "article", "default"),
    ("", "https://forum.example.org/t/sourdough-starter/1234", "forum", "address"),
    ("", "https://example.org/docs/install", "documentation", "address"),
    ("", "https://shop.example/products/blue-mug", "product", "address"),
    ("", "https://shop.example/collections/mugs", "collection", "address"),
    ("", "https://example.com/shop/mugs/", "collection", "address"),
    (_ld("Product") + _ld("Offer"), "https://example.com/shop/mugs/blue-mug/", "product", "address"),
    (_ld("Product"), "https://example.com/store/buy-mugs", "collection", "address"),
    (_ld("ItemList") + _ld("Product") + _ld("Offer"), "https://example.com/shop/mugs/", "collection", "address"),
    ("", "https://gazette.example/news/", "listing", "address"),
    ("", "https://startup.example/", "service", "address"),
    ("", "https://gazette.example/2026/05/harbour.html", "article", "default"),
    ("", None, "article", "default"),
    # a news site's sections in a story's address: "/c/" its channel, "/item/", "/t/"
    ("", "http://news.example.cn/c/2012/01/17/2495969.htm", "article", "default"),
    ("", "http://news.example.cn/c/p/2011-12-15/235923639870.shtml", "article", "default"),
    ("", "http://finance.example.com/money/collection/20120112/5440560.shtml", "article", "default"),
    ("", "http://beijing.example.cn/c/201201/12/n3600487.shtml", "article", "default"),
    ("", "http://tech.example.com/t/2012-01/17/content_36585100.htm", "article", "default"),
    ("", "http://www.example.gr/europe/article/item/253589-smoling", "article", "default"),
    ("", "https://developers.example.org/story/25/12/19/236259/grads", "article", "default"),
    ("", "https://community.example.io/t/2024-4-4-2024-5-0-issue-stuck/724779", "forum", "address"),
    # a forum engine's thread: a board's, Simple Machines' and Invision's queries, a "ShowTopic"
    ("", "https://games.example.com/boards/189706-switch/80702016", "forum", "address"),
    ("", "https://www.example.org/community/index.php?topic=589061.0", "forum", "address"),
    ("", "https://www.example.org/index.php?showtopic=1234", "forum", "address"),
    ("", "https://www.example.com/ShowTopic-g294232-i525-k15476375-Tips", "forum", "address"),
    # …but not a news site's topic number, nor a dashboard
    ("", "http://news.example.com/NewsItems.asp?ID=IER20080106&Page=R&Topic=0", "article", "default"),
    ("", "https://example.com/dashboards/sales", "article", "default"),
])
def test_the_kind_is_read_from_the_declared_type_then_the_address(head, url, kind, told):
    assert _kind(page(f"<p>{TEASER}</p>", head), url) == (kind, told)


@pytest.mark.parametrize(("head", "url", "kind"), [
    ("<link rel='canonical' href='https://shop.example/collections/mugs'>", None, "collection"),
    ("<meta property='og:url' content='https://forum.example.org/t/sourdough-starter/1234'>", None, "forum"),
    ("<link rel='Alternate Canonical' href='/docs/install'>", None, "documentation"),  # a path alone
    ("<link rel='canonical' href='https://startup.example/'>", None, "service"),
    # canonical before og:url; the URL given before both
    ("<meta property='og:url' content='https://shop.example/products/blue-mug'>"
     "<link rel='canonical' href='https://shop.example/collections/mugs'>", None, "collection"),
    ("<link rel='canonical' href='https://startup.example/'>", "https://startup.example/blog/", "listing"),
    ("<link rel='canonical' href=''><link rel='stylesheet' href='/products/blue-mug'>", None, "article"),
])
def test_without_a_url_the_address_is_the_one_the_page_declares(head, url, kind):
    """A harness that passes the HTML alone, a crawl's record without its URL: the
    page's own ``<link rel=canonical>``, else its ``og:url``, tells what the URL would."""
    assert _kind(page(f"<p>{TEASER}</p>", head), url) == (kind, "address" if kind != "article" else "default")


@pytest.mark.parametrize("address", ["http://[", "http://[::1", "https://[x]/2020/01/02/story"])
def test_an_address_no_parser_reads_names_no_kind(address):
    # a page's canonical link is whatever its author wrote; a URL given may be as broken
    html = page(f"<p>{TEASER}</p>", f"<link rel='canonical' href='{address}'><meta property='og:url' content='{address}'>")
    assert _kind(html, None) == _kind(html, address) == ("article", "default")
    assert not pagetype.home(address) and train.host_of(address) == ""


def test_many_prices_make_a_collection():
    items = "".join(f"<li><a href='/p/{i}'>Mug {i}</a><span>$1{i}.99</span></li>" for i in range(10))
    assert _kind(page(f"<ul>{items}</ul>"), "https://shop.example/mugs") == ("collection", "text")


@pytest.mark.parametrize("price", ["{i},99 €", "USD {i}.25", "{i}.00 EUR", "₹{i}99", "{i} 990 руб", "{i}9 $"])
def test_prices_in_any_currency_make_a_collection(price):
    """The sign after the amount (a European shop), an ISO code before it (Etsy's "USD
    55.25"), the rupee: each is a price."""
    items = "".join(f"<li><a href='/p/{i}'>Mug {i}</a><span>{price.format(i=i + 1)}</span></li>"
                    for i in range(10))
    assert _kind(page(f"<ul>{items}</ul>"), "https://shop.example/mugs") == ("collection", "text")


@pytest.mark.parametrize("line", ["port = rs232", "europe 12", "12 kroków", "try 3 times", "in 2024"])
def test_no_price_without_a_currency(line):
    assert not pagetype.price_in(line)


def test_a_box_of_offers_under_a_story_makes_no_collection():
    """An advertiser's offers under a long story price as many lines as a shop's grid,
    but they are a small part of the page; the same offers as the page's body make it
    a collection."""
    offers = "".join(f"<li><a href='/ad/{i}'>Flat {i}</a><span>от {i + 1}50 руб.</span></li>" for i in range(9))
    story = "".join(f"<p>{TEASER}</p>" for _ in range(12))
    address = "https://gazette.example/harbour-works"
    assert _kind(page(f"{story}<ul class='offers'>{offers}</ul>"), address) == ("article", "default")
    assert _kind(page(f"<p>{TEASER}</p><ul>{offers}</ul>"), address) == ("collection", "text")


def test_a_drop_down_of_prices_makes_no_collection():
    """A story beside a property search whose price range is a drop-down of prices."""
    options = "".join(f"<option>£{i},000</option>" for i in range(20))
    body = f"<p>{TEASER}</p><form><select name='max'>{options}</select></form>"
    assert _kind(page(body), "https://gazette.example/story/harbour") == ("article", "default")


@settings(deadline=None)
@given(st.lists(st.text(alphabet="$€£¥₹0123456789.,usdeurgbpzłkčруб \t", max_size=12), max_size=30),
       st.integers(min_value=1, max_value=10))
def test_priced_lines_are_the_lines_holding_a_price(lines, most):
    """Searching only the lines that hold a currency's sign or code counts what a search of
    every line counts."""
    each = sum(1 for line in lines if re.search(pagetype._PRICE, line))
    assert pagetype._priced_lines("\x1f".join(lines), most) == min(each, most)
    short = sum(1 for line in lines if len(line) <= 6 and re.search(pagetype._PRICE, line))
    assert pagetype._priced_lines("\x1f".join(lines), most, 6) == min(short, most)


def test_a_listing_keeps_the_lines_an_article_would_drop():
    html = page(cards(4))
    as_article = extract(html, DOUBTS_SHORT, page_type="article")
    as_listing = extract(html, DOUBTS_SHORT, url="https://gazette.example/news/")
    assert as_listing.labels.details["learned"]["page_type"] == "listing"
    assert as_listing.labels.details["learned"]["threshold"] == pytest.approx(0.3)
    assert as_article.labels.details["learned"]["threshold"] == pytest.approx(0.5)
    # the cards' titles (short link lines the model doubts, 0.38) pass a listing's
    # threshold, not an article's
    assert "Story number 0 of the week" in as_listing.text
    assert "Story number 0 of the week" not in as_article.text


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="page_type must be auto or one of article"):
        learned.Options(page_type="blog")


def test_the_command_line_forces_the_kind(tmp_path):
    path = tmp_path / "page.html"
    path.write_text(page(cards(4)), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "detourage", "extract", str(path), "--page-type", "listing",
                          "-f", "json"], capture_output=True, text=True, check=True).stdout
    details = json.loads(out)["details"]["learned"]
    assert details["page_type"] == "listing" and details["page_type_from"] == "given"
    refused = subprocess.run([sys.executable, "-m", "detourage", "extract", str(path), "--page-type", "listing",
                              "-m", "boilerpipe"], capture_output=True, text=True)
    assert refused.returncode == 2 and "no method of 'boilerpipe' takes it" in refused.stderr


def test_a_forum_s_posts_keep_no_names_and_dates_of_their_own():
    # on a thread the posts are the cards, and their names and dates are not the text
    html = page(cards(5), head=_ld("DiscussionForumPosting"))
    result = extract(html, ONLY_LONG)
    assert result.labels.details["learned"]["page_type"] == "forum"
    assert "card_lines" not in result.labels.details["learned"] and "May 1, 2026" not in result.text


def test_a_thread_at_a_forum_s_address_keeps_its_replies():
    # the replies sit in boxes named "comment" and the thread declares no forum type:
    # the address tells the kind, and on a forum the posts are the content
    op = "<div class='topic'>" + "".join(f"<p>Question {i}. {TEASER} {TEASER}</p>" for i in range(6)) + "</div>"
    replies = "".join(f"<div class='comment'><p>Reply {i}. {TEASER}</p></div>" for i in range(4))
    html = page(op + f"<div class='comments'>{replies}</div>")
    on_forum = extract(html, ONLY_LONG, url="https://forum.example.org/t/harbour-plan/4412").text
    on_story = extract(html, ONLY_LONG).text
    assert all(f"Reply {i}." in on_forum for i in range(4))
    assert "Reply 0." not in on_story


# ------------------------------------------------------------------ a thread's posts

#: keeps the paragraphs longer than 300 characters (an opening post's), rejects the rest
ONLY_VERY_LONG = _split(300, -9.0)
THREAD = "https://forum.example.org/t/harbour-plan/4412"


def thread(replies: int = 4, extra: str = "") -> str:
    opening = f"Opening post. {TEASER} {TEASER} {TEASER}"
    posts = [f"<div class='post'><div class='author'>Ann</div><div class='post-body'><p>{opening}</p></div></div>"]
    for i in range(replies):
        posts.append(f"<div class='post'><div class='author'>Bob {i}</div><div class='post-body'>"
                     f"<p>Reply {i}: I agree that the works should start in the spring, not later.</p></div>"
                     f"<aside class='signature'><div class='post-body'><p>Bob {i} — rides a 2019 bike, "
                     f"lives by the harbour, never misses a council meeting.</p></div></aside></div>")
    return page("<div class='thread'>" + "".join(posts) + extra + "</div>")


def test_a_thread_keeps_every_post_s_body_once_the_model_keeps_one():
    result = extract(thread(), ONLY_VERY_LONG, url=THREAD)
    details = result.labels.details["learned"]
    assert details["page_type"] == "forum" and details["post_lines"] == 4
    assert all(f"Reply {i}:" in result.text for i in range(4))
    # the posts' names and a signature under a post (the body's class, in an <aside>) are not the text
    assert "Bob 0" not in result.text and "rides a 2019 bike" not in result.text


def test_a_quote_of_an_earlier_post_is_not_read_twice():
    quote = ("<div class='post'><div class='post-body'><blockquote><p>Reply 0: I agree that the works should start "
             "in the spring, not later.</p></blockquote><p>Quoting Bob: yes, the spring is the right season for the "
             "harbour works.</p></div></div>")
    text = extract(thread(2, quote), ONLY_VERY_LONG, url=THREAD).text
    assert text.count("Reply 0:") == 1 and "Quoting Bob" in text


def test_a_box_of_short_lines_sharing_the_posts_class_is_no_post():
    rules = "<div class='post-body'><p>You may not post replies</p><p>HTML code is off</p></div>"
    text = extract(thread(2, rules), ONLY_VERY_LONG, url=THREAD).text
    assert "Reply 1:" in text and "You may not post replies" not in text


def test_the_posts_of_an_article_s_comments_stay_out():
    result = extract(thread(), ONLY_VERY_LONG)  # a story's address: its comments are not the text
    assert result.labels.details["learned"]["page_type"] == "article"
    assert "post_lines" not in result.labels.details["learned"] and "Reply 0:" not in result.text


def test_a_column_holding_most_of_the_page_is_no_post_body():
    # the class the kept post sits in repeats, but one of its elements wraps most of the page
    long = f"{TEASER} {TEASER} {TEASER}"
    html = page(f"<div class='col'><p>Opening post. {long}</p><p>Reply: agreed, the spring it is, and soon.</p>"
                f"<p>Another reply: the harbour needs the works badly, say the fishers.</p></div>"
                "<div class='col'><p>Elsewhere.</p></div>")
    result = extract(html, ONLY_VERY_LONG, url=THREAD)
    assert "post_lines" not in result.labels.details["learned"] and "Another reply" not in result.text


def test_the_width_of_a_post_body_is_read_only_as_far_as_needed():
    # a template nested a thousand deep holds the page a thousand times over: the test
    # of a body's width must stop reading once it knows, or it is quadratic
    from detourage.learned.rules import posts

    class Body:
        read = 0

        def itertext(self):  # type: ignore[no-untyped-def]
            for _ in range(1000):
                Body.read += 1
                yield "x" * 100

    assert posts._wider_than(Body(), 250)  # type: ignore[arg-type]
    assert Body.read == 3
    assert not posts._wider_than(Body(), 10**6)  # type: ignore[arg-type]
