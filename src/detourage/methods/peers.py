"""Peers: other extractors' documented defaults, mapped back onto the page's blocks.

``peer-trafilatura``, ``peer-readability`` (readability-lxml), ``peer-justext``,
``peer-boilerpy3`` and ``peer-resiliparse`` let ``evaluate`` put detourage's methods
beside the tools users already use.  They need the ``peers`` extra
(``pip install -U pip && pip install 'detourage[peers]'``: pip 23.2's resolver fails
on it); each library is imported only when its peer runs,
and a missing one raises :class:`MissingExtra` with that install hint.

A peer returns *text*, and detourage methods label *blocks*, so each peer's output is
aligned back onto the page (:func:`align`):

    peer lines that are page text (:func:`mappable`) ─tokens─▶ P
    page blocks ─tokens─▶ T (each token knows its block)
    matching_blocks(T, P)  (difflib's longest-match-first recursion, junk off), then once
    more between the P tokens left over and the blocks not kept (text the peer moved),
    counting runs of 8 tokens or more;
    a block is kept when at least ``min_share`` of its tokens were matched;
    a block with no word token (``|``, ``!``) is kept when its paragraph's neighbours are

Kept blocks are labelled by :func:`~detourage.methods.common.label_paragraphs` (headers
and list items come from our structure, not from the peer).  Text a peer emits that is
no block of the page cannot be mapped: no label can carry it.  Such lines
(:func:`unmapped`) are set aside before the alignment, where their common words would
keep blocks by chance, and reported as the ``unmapped`` lines of the labels' details
(``benchmarks/peers_mapping.py`` counts them apart from the mapping's fidelity).
boilerpy3 prints the code of ``<script>`` elements on some pages (its ``html.parser``
front end passes a stray ``</script>`` on, its ignorable-element counter goes below zero,
and the next script's code then counts as text); resiliparse prints ``<noscript>``/player
fallback strings and, now and then, the ``<title>``; peers add their own markup
(trafilatura's ``|`` table cells, list bullets), which tokens ignore.  ``img alt`` text is
a block of ours, so it maps.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..errors import MissingExtra
from ..model import Block, Labels, Page
from .common import label_paragraphs

SEED = "peer"
#: pip first: pip 23.2's resolver fails on this extra's dependencies
INSTALL_HINT = "pip install -U pip && pip install 'detourage[peers]'"


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """Options every peer shares: only the mapping of its text onto our blocks."""

    #: share of a block's word tokens the peer's text must contain for the block to be kept;
    #: 0.5 keeps a block the peer cut in two and drops one that only shares stray words
    min_share: float = 0.5


@dataclass(frozen=True, slots=True, kw_only=True)
class JustextOptions(Options):
    #: jusText stoplist name (``justext.get_stoplists()``); a Page carries no language,
    #: so the library's own example default, English, is used unless told otherwise
    language: str = "English"


# --------------------------------------------------------------------------- alignment

#: scripts written without spaces: one token per character, so that a peer's line breaks
#: and our block boundaries need not agree on word boundaries
_UNSPACED = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_UNSPACED}]|[^\W{_UNSPACED}]+")


def tokens(text: str) -> list[str]:
    """Case-folded word tokens; punctuation and whitespace are ignored (peers re-space them)."""
    return _TOKEN.findall(text.casefold())


def align(blocks: Sequence[Block], text: str | Sequence[str], *, min_share: float = 0.5) -> list[bool]:
    """Which blocks the peer's ``text`` (one string or its lines) contains.

    A first pass aligns the whole texts in order.  Peers sometimes move text (trafilatura
    may print a footer table before the article), which one in-order pass cannot follow,
    so the peer tokens left over are aligned again with the blocks not yet kept, counting
    only runs of ``_MOVED_RUN`` tokens or more so that stray words do not keep a block.
    """
    peer = tokens(text if isinstance(text, str) else "\n".join(text))
    owner: list[int] = []  # block index of each page token
    page: list[str] = []
    for i, block in enumerate(blocks):
        words = tokens(block.text)
        page.extend(words)
        owner.extend([i] * len(words))
    sizes = [0] * len(blocks)
    for i in owner:
        sizes[i] += 1
    matched = [0] * len(blocks)
    left = list(range(len(peer)))  # peer token positions not matched yet
    for min_run in (1, _MOVED_RUN):
        keep = [n > 0 and matched[i] >= min_share * n for i, n in enumerate(sizes)]
        rest = [k for k, i in enumerate(owner) if not keep[i]]
        used: set[int] = set()
        for a, b, size in _matching_blocks([page[k] for k in rest], [peer[j] for j in left]):
            if size >= min_run:
                for d in range(size):
                    matched[owner[rest[a + d]]] += 1
                    used.add(left[b + d])
        left = [j for j in left if j not in used]
        if not left:
            break
    keep = [n > 0 and matched[i] >= min_share * n for i, n in enumerate(sizes)]
    return _fill_wordless(blocks, sizes, keep)


#: shortest run of tokens the second, out-of-order pass of :func:`align` counts
_MOVED_RUN = 8


def mappable(blocks: Sequence[Block], lines: Sequence[str]) -> tuple[list[str], list[str]]:
    """The peer's lines split into those that are page text and the :func:`unmapped` ones.
    Only the first are aligned: the others (script code) would keep blocks by chance."""
    skipped = unmapped(blocks, lines)
    if not skipped:
        return list(lines), []
    left = Counter(skipped)
    kept = []
    for line in lines:
        if left[line]:
            left[line] -= 1
        else:
            kept.append(line)
    return kept, skipped


def unmapped(blocks: Sequence[Block], lines: Sequence[str]) -> list[str]:
    """The peer's lines that are text of no block: under half of their word tokens stand
    beside a neighbour of theirs as they do somewhere in the page's blocks (a one-token
    line: the token is nowhere in them).  Script code a peer prints shares single words
    with the page ("i", "0", "document") but not their pairs."""
    words = [t for block in blocks for t in tokens(block.text)]
    single, pairs = set(words), set(zip(words, words[1:]))
    out = []
    for line in lines:
        toks = tokens(line)
        if len(toks) == 1:
            held = toks[0] in single
        else:
            paired = [p in pairs for p in zip(toks, toks[1:])]
            covered = sum(1 for i in range(len(toks))
                          if (i and paired[i - 1]) or (i < len(paired) and paired[i]))
            held = covered >= len(toks) / 2
        if toks and not held:
            out.append(line)
    return out


def _matching_blocks(a: list[str], b: list[str]) -> list[tuple[int, int, int]]:
    """difflib's matching blocks over integer ids (junk heuristic off: a long page is no
    reason to ignore its frequent words)."""
    ids: dict[str, int] = {}
    ia = [ids.setdefault(t, len(ids)) for t in a]
    ib = [ids.setdefault(t, len(ids)) for t in b]
    matcher = difflib.SequenceMatcher(None, ia, ib, autojunk=False)
    return [m for m in matcher.get_matching_blocks() if m.size]


def _fill_wordless(blocks: Sequence[Block], sizes: list[int], keep: list[bool]) -> list[bool]:
    """Keep a block without word tokens (``|``, ``!``, an image without alt) when the
    nearest worded blocks of its paragraph, before and after it, are all kept and there
    is at least one: ``Hello <b>world</b>!`` keeps the ``!``, ``Home | News`` drops the ``|``."""
    out = list(keep)
    worded = [i for i, n in enumerate(sizes) if n]
    before: int | None = None
    k = 0  # worded[k] is the first worded block after the current one
    for i, block in enumerate(blocks):
        if sizes[i]:
            before, k = i, k + 1
            continue
        after = worded[k] if k < len(worded) else None
        near = [j for j in (before, after) if j is not None and blocks[j].paragraph == block.paragraph]
        out[i] = bool(near) and all(keep[j] for j in near)
    return out


# --------------------------------------------------------------------------- peers


def _require(module: str, peer: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{peer} needs the peers extra: {INSTALL_HINT}") from None


def _lines(text: str | None) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def _trafilatura(page: Page, options: Options) -> list[str]:
    trafilatura = _require("trafilatura", "peer-trafilatura")
    return _lines(trafilatura.extract(page.html, url=page.url))


def _readability(page: Page, options: Options) -> list[str]:
    readability = _require("readability", "peer-readability")
    summary = readability.Document(page.html).summary()
    return _html_paragraphs(summary)


def _html_paragraphs(html: str) -> list[str]:
    """The paragraphs of an HTML fragment, segmented as detourage segments pages."""
    from ..parse import parse
    from ..render import join
    from ..segment import segment

    paragraphs: dict[int, list[Block]] = {}
    for block in segment(parse(html)):
        paragraphs.setdefault(block.paragraph, []).append(block)
    return [text for run in paragraphs.values() if (text := join(run).strip())]


def _justext(page: Page, options: Options) -> list[str]:
    justext = _require("justext", "peer-justext")
    language = getattr(options, "language", JustextOptions().language)
    paragraphs = justext.justext(page.html, justext.get_stoplist(language))
    return [p.text for p in paragraphs if not p.is_boilerplate]


def _boilerpy3(page: Page, options: Options) -> list[str]:
    extractors = _require("boilerpy3.extractors", "peer-boilerpy3")
    return _lines(extractors.ArticleExtractor().get_content(page.html))


def _resiliparse(page: Page, options: Options) -> list[str]:
    html2text = _require("resiliparse.extract.html2text", "peer-resiliparse")
    return _lines(html2text.extract_plain_text(page.html, main_content=True))


@dataclass(frozen=True, slots=True)
class Peer:
    """One peer: its registry entry and the call of its library's documented default."""

    name: str
    description: str
    options: type[Options]
    #: the peer's output paragraphs (or lines) for a page
    extract_text: Callable[[Page, Any], list[str]]
    #: the distribution that provides it, for install hints and version reports
    distribution: str

    def label(self, page: Page, options: Options | None = None) -> Labels:
        """Run the peer, then keep the blocks its text contains."""
        options = options if options is not None else self.options()
        if not page.blocks:
            return Labels(self.name, ())
        lines = self.extract_text(page, options)
        text, skipped = mappable(page.blocks, lines)
        keep = align(page.blocks, text, min_share=options.min_share)
        details = {"peer_text": lines, "unmapped": skipped}
        return Labels(self.name, label_paragraphs(page.blocks, keep), details)


PEERS: dict[str, Peer] = {
    peer.name: peer
    for peer in (
        Peer("peer-trafilatura", "trafilatura.extract(html) with its defaults, mapped onto blocks",
             Options, _trafilatura, "trafilatura"),
        Peer("peer-readability", "readability-lxml Document(html).summary(), mapped onto blocks",
             Options, _readability, "readability-lxml"),
        Peer("peer-justext", "jusText justext(html, stoplist) non-boilerplate paragraphs, mapped onto blocks",
             JustextOptions, _justext, "jusText"),
        Peer("peer-boilerpy3", "boilerpy3 ArticleExtractor().get_content(html), mapped onto blocks",
             Options, _boilerpy3, "boilerpy3"),
        Peer("peer-resiliparse", "resiliparse extract_plain_text(html, main_content=True), mapped onto blocks",
             Options, _resiliparse, "resiliparse"),
    )
}


def label_trafilatura(page: Page, options: Options = Options()) -> Labels:
    return PEERS["peer-trafilatura"].label(page, options)


def label_readability(page: Page, options: Options = Options()) -> Labels:
    return PEERS["peer-readability"].label(page, options)


def label_justext(page: Page, options: JustextOptions = JustextOptions()) -> Labels:
    return PEERS["peer-justext"].label(page, options)


def label_boilerpy3(page: Page, options: Options = Options()) -> Labels:
    return PEERS["peer-boilerpy3"].label(page, options)


def label_resiliparse(page: Page, options: Options = Options()) -> Labels:
    return PEERS["peer-resiliparse"].label(page, options)


_LABELS: dict[str, Callable[..., Labels]] = {
    "peer-trafilatura": label_trafilatura,
    "peer-readability": label_readability,
    "peer-justext": label_justext,
    "peer-boilerpy3": label_boilerpy3,
    "peer-resiliparse": label_resiliparse,
}


def registrations() -> list[tuple[str, str, str, type, Callable[..., Labels]]]:
    """(name, seed, description, Options class, label function) of every peer, in order."""
    return [(p.name, SEED, p.description, p.options, _LABELS[p.name]) for p in PEERS.values()]


def installed(name: str) -> bool:
    """Whether the library behind peer ``name`` can be imported."""
    module = {"peer-trafilatura": "trafilatura", "peer-readability": "readability",
              "peer-justext": "justext", "peer-boilerpy3": "boilerpy3.extractors",
              "peer-resiliparse": "resiliparse.extract.html2text"}[name]
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True
