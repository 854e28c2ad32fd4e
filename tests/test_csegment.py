"""The compiled segmentation gives exactly the blocks of the Python reference ``_segment``.

Both are called directly here, so these tests run whatever ``DETOURAGE_PURE_PYTHON`` says;
the rest of the suite runs through :func:`detourage.segment.segment`, i.e. the active one.
"""

from __future__ import annotations

import random
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from conftest import DATASETS
from detourage import segment as seg
from detourage.decode import decode
from detourage.errors import LimitExceeded
from detourage.parse import DEFAULT_LIMITS, Limits, parse

_csegment = pytest.importorskip(
    "detourage._csegment", reason="the compiled extension is not built (pure-Python install)")

CASES = Path(__file__).parent / "cases"
FIELDS = ("id", "text", "path", "crossed", "link_chars", "space_before", "paragraph", "image", "decorative")


def outcome(func, root, limits: Limits = DEFAULT_LIMITS):
    """The blocks as comparable tuples (nodes kept as objects) and whether one may show
    a formula, or the error raised."""
    try:
        blocks, formulas = func(root, limits)
    except LimitExceeded as exc:
        return ("raised", type(exc), exc.args)
    return [tuple(getattr(b, f) for f in FIELDS) + (b.node,) for b in blocks], formulas


def assert_same(root, limits: Limits = DEFAULT_LIMITS) -> None:
    if root is None:
        return
    python, compiled = outcome(seg._segment, root, limits), outcome(_csegment.segment, root, limits)
    if python[0] == "raised" or compiled[0] == "raised":
        assert compiled == python
        return
    (python, formulas), (compiled, compiled_formulas) = python, compiled
    assert compiled_formulas == formulas
    assert [b[:-1] for b in compiled] == [b[:-1] for b in python]
    assert [tuple(map(type, b)) for b in compiled] == [tuple(map(type, b)) for b in python], "field types differ"
    assert all(c[-1] is p[-1] for c, p in zip(compiled, python)), "nodes differ"


def test_a_compiled_block_is_the_block_its_constructor_makes() -> None:
    """The walk fills each block's slots itself (no call of the dataclass's ``__init__``):
    the object is a ``Block`` like any other, equal field for field to one built by its
    constructor, collected by the garbage collector, and it releases what it holds."""
    import gc
    import sys

    from detourage.model import Block

    text = "a text held only here " + "x" * 40
    root = parse(f"<body><p>{text}<img src='a.png' alt='An image'></p></body>")
    block, image = _csegment.segment(root, DEFAULT_LIMITS)[0]
    built = Block(block.id, block.text, block.path, block.crossed, block.link_chars, block.node,
                  block.space_before, block.paragraph, block.image, block.decorative)
    assert type(block) is Block and gc.is_tracked(block)
    assert [getattr(block, f) for f in FIELDS] == [getattr(built, f) for f in FIELDS] and block.node is built.node
    assert image.image == "a.png" and image.text == "An image" and type(image.space_before) is bool
    block.text = "changed"  # a slot like another's
    assert block.text == "changed"
    path = block.path  # held by both blocks (twice by each where the crossed tags are the path)
    times, held = sum(getattr(block, f) is path for f in FIELDS), sys.getrefcount(path)
    del block
    assert sys.getrefcount(path) == held - times
    del built
    assert sys.getrefcount(path) == held - 2 * times


def test_dispatch_follows_the_environment() -> None:
    assert seg.IMPLEMENTATION in ("compiled", "python")
    assert (seg._compiled is None) == (seg.IMPLEMENTATION == "python")


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if (p / "page.html").exists()))
def test_golden_case_pages(case: str) -> None:
    assert_same(parse(decode((CASES / case / "page.html").read_bytes()).text))


SNIPPETS = [
    "<p>Hello <b><i>world</i></b>!</p>",
    "<div><p>a</p><p>b<br><br>c</p></div>",
    "<p>Glued<b>word</b> spaced <i>word</i>!</p>",
    "<div>a <a href='#'>b</a> c<p>d</p>e<br>f</div>",
    "<p>x <a href='/y'>link</a> <a name='n'>anchor</a></p>",
    "<pre>one\ntwo\n\nthree</pre>tail <pre>  \n </pre> after",
    "<p>see <img src='a.png' alt=' a  cat '> here <img data-src='d.png'><img alt=''><img src=''></p>",
    "<head><title>T</title><script>s</script></head><body><style>x</style><p hidden>h</p>"
    "<p style='display:none'>n</p><p style='color: red'>red</p><p style=''>e</p>"
    "<noscript>ns</noscript><p>ok</p><template>t</template><svg><text>s</text></svg></body>",
    "<p>a<script>x</script>b</p><p>a <script>x</script>b</p>",
    "<p>a &amp; b &lt;c&gt; &nbsp; &copy; &unknown; &#x41;</p>",
    "<div>" * 400 + "deep" + "</div>" * 400 + "<p>after</p>",
    "<fb:like>x</fb:like><p xml:lang='en' hidden='hidden'>y</p><P STYLE='DISPLAY : NONE'>z</P>",
    "<table><tr><td>a<td>b</table><ul><li>x<li>y</ul><select><option>o</select>",
    "<p>\u00e9t\u00e9 \u4e2d\u6587 \U0001f600 <b>\u0391\u03b8\u03ae\u03bd\u03b1</b></p>",
    "plain text only",
    "<br><hr><wbr><input value='x'>text",
    "<p style='vis\u0131bility:h\u0131dden'>dotless</p><p style='DISPLAY:None'>y</p>z",
    "<p>a\x0bb\x1fc \u2003 d\re</p><p> x  y </p><p>x y</p>",
    "<pre><code><span class='line'><i>npm</i> i</span><span class='line'></span><span class=line>cd x</span>"
    "</code></pre><pre><span data-line>a</span>\n<span data-line=''>b</span><div>c</div>d<p hidden>h</p>e</pre>",
    "<pre><div class='token-line'>a</div><div class='token-line'><span class='x-line'>b\n</span></div>"
    "<div><div>c</div></div><span class='line'>d\n</span><br><span class='line'></span>e</pre>",
    "<p>co\u00adop zero\u200bwidth \ufeff<b>\u200b</b>x Mu\u0308nchen \u0645\u06cc\u200c\u062e</p>"
    "<pre>Gru\u0308\u00dfe\u00ad\n\u200b\nx</pre><img alt='Cafe\u0301\u00ad'>",
    "<p><img src='data:,' data-src='r.jpg'><img srcset='a.jpg 1x, b.jpg 2x'><picture><source srcset='p.webp'>"
    "<img alt='p'></picture><img src='/blank.gif'><noscript><img src='n.jpg'></noscript>"
    "<img src='/smilies/x.gif' alt=':P'><img src='t.gif' width=1 height=1><img src='a.jpg' class='avatar'></p>",
    "<figure><div data-bg='/m/a.jpg'></div><noscript><img src='/m/a.jpg' alt='A tram'></noscript>"
    "<figcaption>Cap</figcaption></figure><p>x<noscript><img src='https://www.facebook.com/tr?id=1' width=1 height=1>"
    "</noscript><span><img data-src='s.jpg'></span><noscript><img src='s.jpg'></noscript><noscript>no image</noscript></p>",
]


@pytest.mark.parametrize("html", SNIPPETS, ids=range(len(SNIPPETS)))
def test_snippets(html: str) -> None:
    assert_same(parse(html))


def test_entities_comments_and_pis_built_by_hand() -> None:
    """The HTML parser makes none of these, but a tree built with lxml can hold them."""
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    p = etree.SubElement(body, "p")
    p.text = "before "
    amp = etree.Entity("amp")
    amp.tail = " after the entity"
    p.append(amp)
    comment = etree.Comment("c")
    comment.tail = " comment tail"
    p.append(comment)
    pi = etree.ProcessingInstruction("php", "x")
    pi.tail = " pi tail"
    body.append(pi)
    pre = etree.SubElement(body, "pre")
    pre.text = "a\nb"
    unknown = etree.Entity("nope")
    unknown.tail = "c\nd"
    pre.append(unknown)
    root.tail = "ignored"
    assert_same(root)
    assert_same(p)


def test_a_subtree_and_its_tail() -> None:
    root = parse("<div><p>a <b>b</b> c</p> tail of p <p>next</p></div>")
    assert_same(root.find(".//p"))
    assert_same(root.find(".//b"))


@pytest.mark.parametrize("limits", [Limits(max_nodes=5), Limits(max_depth=3), Limits(max_depth=1),
                                    Limits(max_nodes=1), Limits(max_blocks=3), Limits(max_blocks=0)])
def test_limits_raise_the_same_errors(limits: Limits) -> None:
    for html in ["<p>x</p>" * 10, "<div>" * 10 + "x", "<img src=a><br>" * 5, "<p>x</p>", "<pre>a\nb\nc\nd</pre>"]:
        assert_same(parse(html), limits)


TAGS = ["p", "div", "span", "b", "a", "h1", "ul", "li", "br", "pre", "img", "script", "style", "picture", "source",
        "table", "td", "tr", "nav", "form", "article", "title", "head", "body", "hr", "select",
        "option", "textarea", "noscript", "svg", "wbr", "x-custom"]
ATTRS = ["", " href='#'", " href", " name='n'", " alt='x  y'", " src='s.png'", " data-src='d.png'",
         " srcset='a.png 1x, b.png 2x'", " src='data:,x'", " width='16'", " class='avatar'", " class='token-line'",
         " hidden", " style='display:none'", " style='visibility: hidden'", " style='color:red'",
         " style='DISPLAY :NONE'", " style='visıbility: hıdden'", " style='font: hidden none'",
         " style='x:\u00e9'", " style", " hidden role='region'", " style='display:none' role='tabpanel'",
         " role='tabpanel'", " hidden role='button'", " class='sr-only'", " class='btn visually-hidden'",
         " class='sr-onlyx user reader'", " class='screen-reader-text' role='region'", " class='a-offscreen'",
         " class='Slds-Assistive-Text'", " class='x AdaHidden'", " class='canada offscreen-menu'",
         " class='c'", " src='s.png' alt=' an  image '", " class='x line'", " data-line",
         " hidden class='cmp-accordion__panel'", " style='display:none' class='a-expander-content'"]
TEXT = st.lists(st.sampled_from([*"abA1 \n\t\r\x0b\x1f\u00a0\u2003é中\u00ad\u200b\u0308", "&amp;", "&lt;", "&nbsp;",
                                 "&bogus;", "&#169;", "<!-- c -->", "<?pi x?>"]),
                max_size=12).map("".join)


@st.composite
def tag_soup(draw: st.DrawFn) -> str:
    """Random open and close tags, attributes, entities and text; often unbalanced, sometimes deep."""
    parts = []
    for _ in range(draw(st.integers(0, 60))):
        kind = draw(st.sampled_from(["open", "open", "close", "text", "text", "deep"]))
        tag = draw(st.sampled_from(TAGS))
        if kind == "open":
            parts.append(f"<{tag}{draw(st.sampled_from(ATTRS))}>")
        elif kind == "close":
            parts.append(f"</{tag}>")
        elif kind == "deep":
            parts.append(f"<{tag}>" * draw(st.integers(1, 30)))
        else:
            parts.append(draw(TEXT))
    return "".join(parts)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html=tag_soup(), max_nodes=st.sampled_from([500_000, 40]), max_depth=st.sampled_from([1_000, 12]))
def test_tag_soup(html: str, max_nodes: int, max_depth: int) -> None:
    assert_same(parse(html), Limits(max_nodes=max_nodes, max_depth=max_depth))


#: the values an ``<img>`` takes in ``image_tag``: the compiled walk decides the usual image
#: itself (``_csegment._usual_image``) and must agree with ``segment.image_of`` at each edge
IMG_VALUES = {
    "src": [None, "", "  ", "a.jpg", " a.jpg ", "\x1ca.jpg\x1f", "a.jpg\u00a0", "\u00e9.jpg", "/img/blank.gif",
            "/x/spacer.GIF?v=1", "LAZY-load.png#x", "/1X1.svg", "/images/pixel.png?a=b/c", "pix.png?blank.gif",
            "/blank.gif.jpg", "blank.gifx", "/a/b/empty.svg#", "a//b/placeholder-img.png?x#y", "data:,x",
            "DATA:image/gif;base64,R0l", "https://ad.doubleclick.net/x.jpg", "//ads.example.com/a.jpg",
            "http://adserver.x/y.png", "https://www.facebook.com/tr?id=1", "https://m.facebook.com/a.jpg",
            "/ads/x.jpg", "/ad/y.jpg", "https://CRITEO.com/x", "/smilies/icon_razz.gif", "/img/Logo.PNG",
            "/lexicon.jpg", "/chart?logo=1", "/a#icon", "/avatar/u.jpg", "http:", "//"],
    "alt": [None, "", " ", "a  cat", ":P", ";-)", ":smile:", "Smiley face", "AVATAR", "Google Pixel",
            "Cafe\u0301", "x\u00ady", "\u212a", "  lead", "a\tb", "\u00a0", "x" * 13],
    "width": [None, "", "1", "16", "32", "33", "800", " 12px ", "12 px", "12PX", "1234567", "0012",
              "\u0661\u0662", "100%", "\x1c5\x1f", "5\n"],
    "class": [None, "", "avatar", "wp-smiley", "Icon", "iconic", "x-logo-y", "emo_ji", "\u212aicon", "LOGOS"],
}
IMG_EXTRA = ["", " border=0", " srcset='s.jpg 2x'", " data-srcset='d.jpg'", " data-src='ds.jpg'", " data-src=''",
             " data-url='u.jpg'", " nitro-lazy-src='n.jpg'", " x-original='o.jpg'", " data-foo='1'", " alt='twice'"]
IMG_AROUND = ["{}", "<figure>{}<figcaption>c</figcaption></figure>", "<figure><div>{}</div></figure>",
              "<picture><source srcset='p.webp'>{}</picture>", "<span>{}</span><noscript><img src='ns.jpg'></noscript>",
              "{}<noscript><img src='/blank.gif'></noscript>"]


@st.composite
def image_tag(draw: st.DrawFn) -> str:
    """An ``<img>`` of values drawn from ``IMG_VALUES`` (``height`` and ``id`` too), in a
    figure, a ``<picture>`` or beside a ``<noscript>`` sometimes."""
    def attr(name: str, values: list[str | None]) -> str:
        return _attr(name, draw(st.sampled_from(values)))
    attrs = (attr("src", IMG_VALUES["src"]) + attr("alt", IMG_VALUES["alt"]) + attr("width", IMG_VALUES["width"])
             + attr("height", IMG_VALUES["width"]) + attr("class", IMG_VALUES["class"])
             + attr("id", IMG_VALUES["class"]) + draw(st.sampled_from(IMG_EXTRA)))
    return draw(st.sampled_from(IMG_AROUND)).format(f"<img{attrs}>")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(img=image_tag())
def test_images(img: str) -> None:
    assert_same(parse(f"<p>text {img} text</p>"))


@pytest.mark.parametrize("first, second", [("src", "width"), ("src", "class"), ("src", "alt"), ("width", "height"),
                                           ("alt", "class"), ("alt", "id")])
def test_image_values_two_by_two(first: str, second: str) -> None:
    """Every pair of values of two attributes, each image alone in its paragraph."""
    def values(name: str) -> list[str | None]:
        return IMG_VALUES["width" if name == "height" else "class" if name == "id" else name]
    imgs = [f"<p>x<img{_attr(first, a)}{_attr(second, b)}></p>" for a in values(first) for b in values(second)]
    assert_same(parse("".join(imgs)))


def _attr(name: str, value: str | None) -> str:
    return "" if value is None else f' {name}="{value}"'


def test_the_usual_image_is_decided_without_the_python_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled walk calls ``image_of`` only for the unusual image: a plain source,
    a placeholder with nothing else and a decorative icon are decided in C."""
    calls = []
    monkeypatch.setattr(_csegment, "image_of", lambda *args: calls.append(args) or seg.image_of(*args))
    html = ("<p><img src='a.jpg' alt='A cat' width=800><img src='/img/spacer.gif' alt='x'>"
            "<img src='/icons/star.png' class='icon'><img src='b.jpg' data-src='c.jpg'></p>")
    assert [(b.image, b.decorative) for b in _csegment.segment(parse(html), DEFAULT_LIMITS)[0]] == \
        [("a.jpg", False), ("/img/spacer.gif", True), ("/icons/star.png", True), ("c.jpg", False)]
    assert len(calls) == 1  # the lazy loader's


def test_every_decorative_word_holds_a_hint() -> None:
    """``_named`` looks for a word only where a hint is, and the compiled twin looks for
    the words themselves: both agree only while every word holds a hint."""
    for word in seg.DECORATIVE_WORDS | seg.DECORATIVE_ALT_WORDS:
        assert any(hint in word for hint in seg._DECORATIVE_HINTS), word


def test_text_below_u0300_is_nfc_whatever_its_characters() -> None:
    """The compiled walk skips the NFC check of a text of characters below U+0300: none of
    them changes under NFC or combines, and no canonical pair of two of them composes."""
    below = [chr(c) for c in range(0x300)]
    assert all(unicodedata.is_normalized("NFC", c) and not unicodedata.combining(c) for c in below)
    for code in range(sys.maxunicode + 1):
        parts = unicodedata.decomposition(chr(code)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            assert int(parts[0], 16) >= 0x300 or int(parts[1], 16) >= 0x300, hex(code)


@pytest.mark.parametrize("text", [
    "caf\u00e9 co\u00adop", "\u00e9\u00e9", "\u0142\u00ad\u0142", "\u0142 \u0142", "Mu\u0308nchen",
    "\u0374\u0391", "\u212b", "\u4e2d\u200b\u6587", "\u4e2d\u6587", "\U0001F600\ufeff", "\U0001F600 \u2060",
    "\u0645\u06cc\u200c\u062e", "\u00ad", "\u200b \u2060", "\u03b1\u0301", "\u1100\u1161" "\u200d", "\u200c \u200d", "\u200d\U0001F600",
])
def test_text_hygiene(text: str) -> None:
    """Soft hyphens, zero-width characters and NFC in texts of one, two and four bytes a
    character, in a text node, an alt text and a ``<pre>``."""
    assert_same(parse(f"<p>{text}<b>{text}</b> x {text}</p><img alt='{text}'><pre>{text}\n{text}</pre>"))


@pytest.mark.parametrize("around", ["{}", "a{}b", "\u0142{}", "{}\U0001F600"])
def test_the_compiled_walk_cleans_exactly_what_clean_text_changes(around: str) -> None:
    """Every character below U+3000 (Latin-1, the combining marks, the invisible ones)
    and U+FEFF, in texts of one, two and four bytes a character: the walk's test says a
    text needs ``clean_text`` exactly when it changes it (a looser test costs a clean
    text the pass; a stricter one leaves dirt)."""
    for code in [*range(1, 0x3000), 0xFEFF]:
        text = around.format(chr(code))
        assert _csegment.needs_cleaning(text) == (seg.clean_text(text) != text), hex(code)


@pytest.mark.parametrize("code", [*range(0x01, 0x20), *range(0x7f, 0xa0)])
@pytest.mark.parametrize("around", ["a{}b", "{}", " {} ", "caf\u00e9{}", "\u4e2d{}\u6587", "\U0001F600{}x"])
def test_control_characters_are_cleaned_alike(code: int, around: str) -> None:
    """Every C0 and C1 control character, alone, in ASCII text (the fast path of both
    walks) and in texts of one, two and four bytes a character: both walks drop those of
    ``CONTROL_CHARS`` and keep the whitespace ones as spaces, in a text node, an alt text
    and a ``<pre>``."""
    text = around.format(chr(code))
    root = parse(f"<p>{text}<b>{text}</b> x {text}</p><p>{text}</p><img alt='{text}'><pre>{text}\n{text}</pre>")
    assert_same(root)
    texts = "".join(b.text for b in seg.segment(root))
    assert (chr(code) in seg.CONTROL_CHARS) != chr(code).isspace()
    assert not set(texts) & set(seg.CONTROL_CHARS)


def shared_pages(count: int = 300) -> list[Path]:
    paths = sorted(DATASETS.glob("*/html/*.html"))
    return sorted(random.Random(0).sample(paths, min(count, len(paths))))


@pytest.mark.skipif(not DATASETS.is_dir(), reason="the shared datasets are not beside the repo")
def test_shared_pages() -> None:
    pages = shared_pages()
    assert pages
    for path in pages:
        root = parse(decode(path.read_bytes()).text)
        try:
            assert_same(root)
            assert_same(root, Limits(max_nodes=300, max_depth=20))
        except AssertionError as exc:
            raise AssertionError(f"{path}: {exc}") from None


def test_every_screen_reader_class_passes_the_compiled_prefilter() -> None:
    """The compiled segmenter reads a ``class`` value only when it holds one of these parts."""
    parts = ("sr", "reader", "isually", "invisible", "assistive", "a11y")
    assert all(any(part in name for part in parts) for name in seg.SCREEN_READER_CLASSES)
