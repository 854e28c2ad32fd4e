"""The language of a page's main text, for the ``language`` column of a corpus run.

py3langid (langid.py's model in numpy, maintained; its model ships in the wheel, nothing
is downloaded) was chosen on the shared datasets' gold texts
(``benchmarks/studies/langid_choice.py``): 99.8 % of 3 682 pages right in el, en, fr, pl, ru and
zh, beside lingua (99.9 %, a 96 MB wheel, 4× slower) and CLD2 (99.95 %, but CLD2 is no
longer maintained).  Its few misses are Chinese pages from Hong Kong it calls ``yue``
(Cantonese) and one ``wuu`` (Wu), and two English pages.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import MissingExtra

#: the text identified: its first characters.  On the shared gold texts, 2 000 characters
#: give 99.78 % right against 99.81 % for the whole text (one English page more wrong),
#: at 0.7 instead of 3.1 ms a page (``benchmarks/studies/langid_choice.py --only py3langid``)
MAX_CHARS = 2000


@lru_cache(maxsize=1)
def _identifier() -> Any:
    """py3langid, its model loaded (once per process: py3langid keeps it)."""
    try:
        import py3langid
    except ImportError:
        raise MissingExtra("the language column needs py3langid: pip install 'detourage[corpus]'") from None
    py3langid.classify("load the model")
    return py3langid


def identify(text: str | None) -> str | None:
    """The language code of ``text`` (``en``, ``zh``…), or None when it has no letters."""
    if not text:
        return None
    sample = text[:MAX_CHARS]
    if not any(c.isalpha() for c in sample):
        return None
    language, _ = _identifier().classify(sample)
    return str(language)


def warm() -> None:
    """Load the model now (a worker does it once, before its first page)."""
    _identifier()
