"""A picture's credit: the line beside an image that says whose it is.

"Photo: Jane Doe / Reuters", "DGLimages via Getty Images", "Image credit: NASA",
"Фото: ИТАР-ТАСС", "(AP Photo/Evan Vucci)": like a caption, a credit stands with its
picture.  The structured formats (Markdown, HTML, JSON) keep it where the page has it;
the text ones leave it out, as they leave out a ``<figcaption>`` (:attr:`Unit.caption`):
text is what a reader reads of the page's own text.  A credit is known by its words and
its place: a short line (:data:`CREDIT_CHARS`, :data:`CREDIT_WORDS`) that is all credit (:func:`is_credit`),
within :data:`NEAR` paragraphs of a picture (not an icon), whether or not the method
kept the picture.

On the shared pages (``PYTHONPATH=benchmarks python benchmarks/studies/credits.py --models
DIR``), of the credits beside a picture that the leave-one-dataset-out models keep, 85 are
not in the gold and 26 are (L3S-GN1's four, a Polish magazine's "Fot. MW Media", one
blog's "Photo Credit: …" under each picture).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from .model import Block

#: a credit is at most this long (characters)…
CREDIT_CHARS = 120
#: …and at most this many words: names, not a sentence ("Photo: a reader asks what to
#: do. The council answers…" is a paragraph)
CREDIT_WORDS = 12
#: a picture at most this many paragraphs before or after the line makes it a credit
NEAR = 2

#: what a credit calls the picture, in the languages of the shared pages and a few more
_LABEL = (r"(?:photo(?:graph)?s?|images?|pictures?|pics?|illustrations?|foto(?:s|grafie|grafia|graf[ií]a)?"
          r"|bild(?:er)?|zdj[eę]ci[ea]|fot\.?|фото(?:графия|графии)?|φωτο(?:γραφία|γραφίες)?|imagen|immagine"
          r"|图片|圖片|照片|摄影|攝影)")
#: how it names whose the picture is
_WHOSE = r"(?:credits?|cr[ée]dits?|cr[ée]ditos?|by|courtesy(?:\s+of)?|sources?|via|źródło|источник|来源|來源)"
#: picture libraries: their name alone, or after a photographer's, is a credit
_LIBRARY = (r"(?:getty\s*images|shutterstock|istock(?:photo)?|unsplash|pexels|pixabay|adobe\s*stock|alamy(?:\s+stock"
            r"\s+photo)?|dreamstime|depositphotos|wikimedia\s*commons)")

#: a whole line that is a credit led by what it credits (lower case, spaces collapsed)
_LED = re.compile(
    rf"\(?{_LABEL}(?:\s*{_WHOSE})?\s*[:：|/]\s*\S.*"  # "Photo: …", "Image credit: …", "Фото: …", "图片来源：…"
    r"|fot\.\s*\S.*"  # "Fot. PAP"
    rf"|\(?{_LABEL}\s+{_WHOSE}\s+\S.*"  # "Photo via Pexels", "Image courtesy of NASA"
    r"|(?:credits?|cr[ée]dits?(?:\s+photos?)?)\s*[:：]\s*\S.*"  # "Credit: Serious Eats"
    r"|\(?(?:ap|afp|reuters|epa|pa)\s+photos?\s*[:/]\s*\S.*"  # "(AP Photo/Evan Vucci)"
)
#: a picture library, after a name or not: "Getty Images", "DGLimages via Getty Images",
#: "Image used under license from Shutterstock" (no sentence before it: a caption's
#: credit stays with the caption)
_FROM_LIBRARY = re.compile(
    rf"[^.!?]{{0,80}}?(?:\bvia\b|/|\||–|—|-|©|\(c\)|:|\bfrom\b)?\s*©?\s*{_LIBRARY}(?:\.com)?\s*\)?\.?")
#: the libraries' names as :data:`_FROM_LIBRARY` reads them (a line holding none is not matched)
_LIBRARIES = ("getty", "shutterstock", "istock", "unsplash", "pexels", "pixabay", "adobe", "alamy", "dreamstime",
              "depositphotos", "wikimedia")


#: the words at least one of which a credit holds (a page whose short lines hold none
#: is not searched further)
_HINTS = ("photo", "image", "pic", "credit", "crédit", "illustration", "foto", "fot.", "bild", "zdj", "фото", "φωτο",
          "immagine", "图片", "圖片", "照片", "摄影", "攝影", "getty", "shutterstock", "istock", "unsplash", "pexels",
          "pixabay", "adobe stock", "alamy", "dreamstime", "depositphotos", "wikimedia")


def is_credit(text: str) -> bool:
    """Whether ``text`` is all a picture's credit, its place aside."""
    if len(text) > CREDIT_CHARS:
        return False
    words = text.lower().split()
    if len(words) > CREDIT_WORDS:
        return False
    line = " ".join(words)
    return _LED.fullmatch(line) is not None or (any(name in line for name in _LIBRARIES)
                                                and _FROM_LIBRARY.fullmatch(line) is not None)


def credits(texts: Sequence[str]) -> list[int]:
    """The indices of ``texts`` that are all a credit.  The short ones are joined and
    searched for each of :data:`_HINTS` (a plain substring search, many times faster than
    a pattern of them all tried at every character), then for where those it holds are;
    only the lines holding one are matched."""
    short = [i for i, text in enumerate(texts) if len(text) <= CREDIT_CHARS]
    if not short:
        return []
    pieces = [texts[i] for i in short]
    joined = "\x1f".join(pieces).lower()
    present = [hint for hint in _HINTS if hint in joined]
    if not present:
        return []
    hits = [found.start() for found in re.finditer("|".join(map(re.escape, present)), joined)]
    # where each piece starts in the joined text (lower-casing may lengthen a piece: "İ")
    starts = list(accumulate((len(piece) + 1 for piece in joined.split("\x1f")), initial=0))
    lines = sorted({short[bisect_right(starts, hit) - 1] for hit in hits})
    return [i for i in lines if is_credit(texts[i])]


def near_picture(blocks: Sequence[Block], first: int, last: int) -> bool:
    """Whether a picture (an image block that is no decoration) lies within :data:`NEAR`
    paragraphs of ``blocks[first:last + 1]``."""
    low, high = blocks[first].paragraph - NEAR, blocks[last].paragraph + NEAR
    i = first - 1
    while i >= 0 and blocks[i].paragraph >= low:
        if _picture(blocks[i]):
            return True
        i -= 1
    i = last + 1
    while i < len(blocks) and blocks[i].paragraph <= high:
        if _picture(blocks[i]):
            return True
        i += 1
    return any(_picture(blocks[j]) for j in range(first, last + 1))


def _picture(block: Block) -> bool:
    return block.image is not None and not block.decorative
