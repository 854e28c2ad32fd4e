"""A DANIEL-style epidemic event detector: the downstream task of the extrinsic evaluation.

DANIEL (Brixtel, Lejeune, Doucet & Lucas, ICHI 2013; used by seed 002 §4.2) tells whether
a news article reports an epidemic event, in any language and script, with no parser, no
tokenizer and no word boundaries: it relies on the genre.  What matters is said in the
headline and the lead and repeated further on, so a disease name that *recurs* in the
article's paragraphs, near its beginning or end, marks an event.  Because it reads the
paragraph structure, it measures what a cleaner keeps of both content and structure.

The steps, each a function:

1. :func:`zoning`: the text is cut into zones, its paragraphs; with fewer than three, the
   body is halved or the text cut into thirds, and a very short text is one zone
   ("weak structure").
2. :func:`shared_repeats`: the character-level maximal repeated substrings of the
   collection {zones} ∪ {lexicon entries} that occur both in a zone and in an entry.
3. :func:`rank_entries`: a repeat that occurs in at least two zones (or, with weak
   structure, in the single zone) scores against each entry containing it: the ratio of
   its length to the entry's (minus a penalty when it does not start with the entry's
   first character), raised to a power that grows with the distance of its zones from
   the beginning and the end of the article, minus a penalty when it is in none of the
   two first or two last zones ("not in the headline").  An entry keeps its best score.
4. :func:`detect`: the document is relevant when the best disease scores at least the
   threshold; the event is (disease, location), the location ranked the same way in the
   location lexicon, or the lexicon's default when none scores high enough.

Faithfulness.  Each step follows the original implementation, rundimeco/daniel
``daniel.py`` at commit ac1f5d0 (the commit the lexicons of ``resources/daniel`` come
from) with its suffix array py-rstr-max; the functions below name the original function
they follow.  A Python 3 port of that original (``zoning``, ``get_desc``,
``exploit_rstr``, ``filter_desc``, ``get_score``, ``process``'s ``>= o.ratio`` filter,
over py-rstr-max) run on the raw ``gold/<id>.txt`` files of ``datasets/daniel`` gives
the same relevance decision as this module for all 1,689 documents (F1 68.57), so the
distance to seed 002 Table 3 (76.36) does not come from this implementation: the
original code ported as is scores the same.  Nothing here is case-folded or normalised,
as in the original: lexicon entries are matched as written (e.g. ``Ελονοσία`` with a
capital, ``xολέρα`` with a Latin x), and "poli" (police, policy) covers exactly 4/5 of
``polio``, which the original's inclusive threshold accepts.

Finding the repeats.  DANIEL runs a suffix array over zones and entries.  Only repeats
lying inside an entry can score, so here every substring of every entry is indexed once
per lexicon (with the characters seen around it in the lexicon), and each zone is
scanned once: at each position the longest entry substring starting there is extended
from the previous one (the set is closed under substrings, so a match one position
earlier, less its first character, still matches).  The repeats found are exactly the
suffix-array maximal repeats that occur in a zone and an entry (``tests/test_daniel.py``
checks this against brute force); a repeat too short to reach the score floor of any
entry containing it is skipped.

Lexicons are user data, read from a folder (``diseases_<lang>.json``,
``locations_<lang>.json``, as in ``resources/daniel/``), see :func:`load_lexicon`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from detourage.errors import DatasetError
from detourage.evaluation.downstream import (
    Prediction,
    TaskDocument,
    TaskLabel,
    TaskScores,
    score_relevance,
)

#: key of the location lexicon that names the location assumed when none is found
DEFAULT_LOCATION_KEY = "default_value"

_SENTENCE_END = re.compile(r"\. |\n")


#: seed 002 Table 3, row "Référence": (P, R, F1) in %, None for "N/A"
SEED_REFERENCE: dict[str, tuple[float, float, float]] = {
    "en": (68.89, 88.57, 77.50),
    "zh": (80.00, 100.0, 88.89),
    "el": (68.42, 76.47, 72.22),
    "pl": (61.76, 77.78, 68.85),
    "ru": (72.73, 82.76, 77.42),
    "all": (69.54, 84.68, 76.36),
}


@dataclass(frozen=True, kw_only=True)
class DanielOptions:
    """DANIEL's settings; every default is the one of Brixtel et al.'s implementation."""

    #: a document is relevant when its best disease scores at least this (DANIEL's ``-r``,
    #: 0.8, the setting behind seed 002 Table 3)
    threshold: float = 0.8
    #: below this, the best location is not trusted and the lexicon's default is used
    location_floor: float = 0.5
    #: ratio penalty when a repeat does not start with the entry's first character; a
    #: country name must start right, hence the larger penalty for locations
    disease_initial_penalty: float = 0.1
    location_initial_penalty: float = 0.2
    #: score penalty when the repeat is in none of the two first or two last zones
    headline_penalty: float = 0.1
    #: fewer paragraphs than this is "insufficient structure" (halves, thirds)
    min_zones: int = 3
    #: a text with fewer sentences (and too few paragraphs) is a single zone
    min_sentences: int = 5


@dataclass(frozen=True)
class Lexicon:
    """Disease and location names of one language: surface form -> canonical name."""

    lang: str
    diseases: Mapping[str, str]
    locations: Mapping[str, str]
    default_location: str = ""


@dataclass(frozen=True, slots=True)
class Repeat:
    """A maximal repeat shared by the zones and the lexicon entries."""

    text: str
    #: zones it occurs in, ascending
    zones: tuple[int, ...]
    #: entries containing it that it is long enough to score against
    entries: tuple[int, ...]
    #: (zone, character offset) of each occurrence in the zones
    positions: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class LexiconMatch:
    """An entry's best score in a document, and the repeat that gave it."""

    score: float
    entry: str
    repeat: str
    distances: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Detection:
    """DANIEL's answer for one document."""

    relevant: bool
    #: best disease score (0.0 when no disease name recurs)
    score: float
    #: disease and location as surface forms of the lexicon; None when not relevant
    disease: str | None = None
    location: str | None = None
    #: canonical names (lexicon values); None when not relevant
    event: tuple[str, str] | None = None
    #: disease entries by decreasing score
    diseases: tuple[LexiconMatch, ...] = ()
    zones: int = 0


@dataclass(frozen=True)
class EntryIndex:
    """Every substring of a list of entries, with what a zone scan needs to know of it."""

    entries: tuple[str, ...]
    #: all substrings of all entries (closed under substrings)
    pieces: frozenset[str]
    #: substrings -> entries they can score against (length ≥ floor × entry length)
    useful: Mapping[str, tuple[int, ...]]
    #: character before / after every lexicon occurrence of a substring: the character
    #: when it is always the same, None when they differ or one is an entry boundary
    left: Mapping[str, str | None]
    right: Mapping[str, str | None]
    min_len: int
    #: finds the cores (see :func:`build_index`), None when some entry has no core
    anchors: re.Pattern[str] | None = None
    #: how far before a core a useful piece can start
    reach: int = 0


# ---------------------------------------------------------------------------- lexicons


def load_lexicon(lexicon_dir: Path | str, lang: str) -> Lexicon:
    """Read ``diseases_<lang>.json`` and ``locations_<lang>.json`` from ``lexicon_dir``."""
    root = Path(lexicon_dir)
    diseases = _read_json(root / f"diseases_{lang}.json")
    locations = _read_json(root / f"locations_{lang}.json")
    default = str(locations.pop(DEFAULT_LOCATION_KEY, ""))
    return Lexicon(
        lang,
        {name: _canonical(name, value) for name, value in diseases.items() if name},
        {name: _canonical(name, value) for name, value in locations.items() if name},
        default,
    )


def lexicon_languages(lexicon_dir: Path | str) -> list[str]:
    """Languages with both a disease and a location lexicon in ``lexicon_dir``."""
    root = Path(lexicon_dir)
    langs = {p.stem.removeprefix("diseases_") for p in root.glob("diseases_*.json")}
    return sorted(lang for lang in langs if (root / f"locations_{lang}.json").exists())


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DatasetError(f"cannot read lexicon {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise DatasetError(f"lexicon {path} is not a JSON object")
    return data


def _canonical(name: str, value: Any) -> str:
    # values are a canonical name, "" (the key is canonical) or, for zh, [canonical, family]
    if isinstance(value, list):
        value = value[0] if value else ""
    return str(value) or name


# ------------------------------------------------------------------------------ zoning


def zoning(texts: Sequence[str], options: DanielOptions = DanielOptions()) -> list[str]:
    """The zones of a document given as its block texts.

    Paragraphs are the zones.  With fewer than ``min_zones`` of them the structure is
    insufficient: a two-paragraph text is probably a title and a body, so the body is
    halved; otherwise the text is cut into thirds; and a text of fewer than
    ``min_sentences`` sentences is kept as one zone.  This is daniel.py@ac1f5d0 ``zoning``
    step for step, on paragraphs already split (see :func:`daniel_paragraphs` for how
    DANIEL splits a CleanEval text); the one liberty: it cuts thirds and halves in its raw
    input, paragraph markers included, here in the paragraphs joined by line breaks.
    """
    paragraphs = [t for t in texts if t.strip()]
    if len(paragraphs) >= options.min_zones:
        return paragraphs
    text = "\n".join(paragraphs)
    if _sentence_count(text) < options.min_sentences:
        return [text] if text else []
    if len(paragraphs) == 2:
        title, body = paragraphs
        half = len(body) // 2
        return [title, body[:half], body[half:]]
    third = len(text) // 3
    return [text[:third], text[third : 2 * third], text[2 * third :]]


def daniel_paragraphs(blocks: Sequence[tuple[str, str]]) -> list[str]:
    """The paragraphs DANIEL sees in a CleanEval document (``(kind, text)`` blocks).

    DANIEL splits a cleaned text on ``<p>`` only (daniel.py@ac1f5d0 ``zoning``:
    ``re.split("<p>", string)``), so a heading or list item (``<h>``, ``<l>``) stays in the
    zone of the paragraph before it, and whatever precedes the first ``<p>`` is one zone;
    a text without any ``<p>`` is cut at its line breaks (``re.split("\\n", string)``),
    i.e. one zone per block.
    """
    if not any(kind == "p" for kind, _ in blocks):
        return [text for _, text in blocks]
    paragraphs: list[str] = []
    for kind, text in blocks:
        if kind == "p" or not paragraphs:
            paragraphs.append(text)
        else:
            paragraphs[-1] += "\n" + text
    return paragraphs


def _sentence_count(text: str) -> int:
    # DANIEL's crude, language-blind count (daniel.py@ac1f5d0 zoning: re.split("\. |</p>")
    # keeping pieces longer than 2): a paragraph end is "</p>" in the "<p>…</p>\n" text its
    # own cleaning step writes (get_clean_html), a line break between paragraphs here
    return sum(1 for piece in _SENTENCE_END.split(text) if len(piece) > 2)


# ------------------------------------------------------------------- repeated substrings


@lru_cache(maxsize=64)
def build_index(entries: tuple[str, ...], floor: float) -> EntryIndex:
    """Index every substring of ``entries``; ``floor`` bounds the useful lengths.

    A substring shorter than ``floor`` × an entry's length cannot make that entry score
    ``floor`` (the score never exceeds the length ratio), so it is not kept for it.  With
    ``floor`` above one half, every useful piece of an entry contains the entry's middle
    (its *core*): a zone scan then only looks just before where a core occurs.
    """
    pieces: set[str] = set()
    useful: dict[str, list[int]] = {}
    left: dict[str, str | None] = {}
    right: dict[str, str | None] = {}
    for i, entry in enumerate(entries):
        size = len(entry)
        for start in range(size):
            before = entry[start - 1] if start else None
            for end in range(start + 1, size + 1):
                piece = entry[start:end]
                pieces.add(piece)
                _note_context(left, piece, before)
                _note_context(right, piece, entry[end] if end < size else None)
                if end - start >= floor * size - 1e-9:
                    ids = useful.setdefault(piece, [])
                    if i not in ids:
                        ids.append(i)
    min_len = min((len(p) for p in useful), default=1)
    frozen = {piece: tuple(ids) for piece, ids in useful.items()}
    anchors, reach = _anchors(entries, floor)
    return EntryIndex(
        tuple(entries), frozenset(pieces), frozen, left, right, min_len, anchors, reach
    )


def _anchors(entries: Sequence[str], floor: float) -> tuple[re.Pattern[str] | None, int]:
    """A pattern finding every entry's core, and how far before it a useful piece starts."""
    cores, reach = set(), 0
    for entry in entries:
        size = math.ceil(floor * len(entry) - 1e-9)  # shortest useful piece of the entry
        core = entry[len(entry) - size : size]  # shared by all pieces of that length or more
        if not core:
            return None, 0
        cores.add(core)
        reach = max(reach, len(entry) - size)
    if not cores:
        return None, 0
    alternatives = "|".join(re.escape(c) for c in sorted(cores, key=len, reverse=True))
    return re.compile(f"(?=(?:{alternatives}))"), reach  # lookahead: overlapping hits


def _note_context(contexts: dict[str, str | None], piece: str, char: str | None) -> None:
    # None = "not always the same character": an entry or zone boundary is unique, so it
    # differs from every other context (the suffix array's distinct separators)
    if piece not in contexts:
        contexts[piece] = char
    elif contexts[piece] != char:
        contexts[piece] = None


def match_lengths(zone: str, pieces: frozenset[str]) -> list[int]:
    """For each position of ``zone``, the length of the longest piece starting there."""
    n = len(zone)
    lengths = [0] * n
    size = 0
    for j in range(n):
        if size:
            size -= 1  # the previous match less its first character still matches
        while j + size < n and zone[j : j + size + 1] in pieces:
            size += 1
        lengths[j] = size
    return lengths


def _longest_at(zone: str, start: int, pieces: frozenset[str]) -> int:
    size = 0
    while start + size < len(zone) and zone[start : start + size + 1] in pieces:
        size += 1
    return size


def _candidates(zone: str, index: EntryIndex) -> Iterable[tuple[int, int]]:
    """(position, longest piece starting there) wherever a useful piece may start."""
    if index.anchors is None:
        return enumerate(match_lengths(zone, index.pieces))
    starts = {
        j
        for hit in index.anchors.finditer(zone)
        for j in range(max(0, hit.start() - index.reach), hit.start() + 1)
    }
    return ((j, _longest_at(zone, j, index.pieces)) for j in sorted(starts))


def shared_repeats(zones: Sequence[str], index: EntryIndex) -> list[Repeat]:
    """The maximal repeats of zones ∪ entries that occur in a zone and in an entry.

    Maximal as in a suffix array: the occurrences are neither all preceded nor all
    followed by the same character (a string boundary counts as unique).  Only repeats
    long enough to score against some entry (see :func:`build_index`) are returned.
    """
    found: dict[str, list[Any]] = {}
    for k, zone in enumerate(zones):
        _scan_zone(k, zone, index, found)
    repeats = []
    for piece, (mask, before, after, positions) in found.items():
        if _maximal(before, index.left[piece]) and _maximal(after, index.right[piece]):
            zone_ids = tuple(k for k in range(len(zones)) if mask >> k & 1)
            repeats.append(Repeat(piece, zone_ids, index.useful[piece], tuple(positions)))
    return repeats


def _scan_zone(k: int, zone: str, index: EntryIndex, found: dict[str, list[Any]]) -> None:
    """Record every occurrence of a useful piece in ``zone``: zones mask, contexts, places."""
    bit, useful, shortest = 1 << k, index.useful, index.min_len
    for j, longest in _candidates(zone, index):
        if longest < shortest:
            continue
        before = zone[j - 1] if j else None
        for end in range(j + shortest, j + longest + 1):
            piece = zone[j:end]
            if piece not in useful:
                continue
            after = zone[end] if end < len(zone) else None
            state = found.get(piece)
            if state is None:
                found[piece] = [bit, before, after, [(k, j)]]
                continue
            state[0] |= bit
            if state[1] != before:
                state[1] = None
            if state[2] != after:
                state[2] = None
            state[3].append((k, j))


def _maximal(text_context: str | None, lexicon_context: str | None) -> bool:
    # the piece occurs in the text and the lexicon, so it is repeated: it is maximal on
    # that side unless every occurrence has the same character there
    return text_context is None or lexicon_context is None or text_context != lexicon_context


# --------------------------------------------------------------------------- scoring


def rank_entries(
    zones: Sequence[str],
    index: EntryIndex,
    initial_penalty: float,
    options: DanielOptions,
    *,
    marked: bool = False,
) -> list[LexiconMatch]:
    """Each entry's best score over the repeats that recur in the article, best first.

    Only entries some repeat covers at least the index's floor of are ranked.  ``marked``:
    the article reached DANIEL as ``<p>`` paragraphs (see :func:`detect`).
    """
    best: dict[str, LexiconMatch] = {}
    weak = len(zones) == 1
    for repeat in shared_repeats(zones, index):
        # daniel.py@ac1f5d0 exploit_rstr: has_inter (in >= 2 zones and in an entry) or
        # weak_and_repeat (one zone: an occurrence there plus the entry suffices)
        if not (weak or len(repeat.zones) >= 2):
            continue  # said once is not an event: DANIEL needs the repetition
        distances, in_headline = _placement(repeat, zones, index.entries, marked)
        for i in repeat.entries:
            entry = index.entries[i]
            ratio = _length_ratio(repeat.text, entry, initial_penalty)
            score = position_score(ratio, distances, in_headline, options.headline_penalty)
            if entry not in best or score > best[entry].score:
                best[entry] = LexiconMatch(score, entry, repeat.text, distances)
    return sorted(best.values(), key=lambda m: (-m.score, m.entry))


def _length_ratio(repeat: str, entry: str, initial_penalty: float) -> float:
    # daniel.py@ac1f5d0 filter_desc: len(ss)/len(entity_name), minus 0.1 (0.2 for a
    # location) when the first characters differ case-insensitively, floored at 0
    ratio = len(repeat) / len(entry)
    if repeat[0].lower() != entry[0].lower():
        ratio = max(0.0, ratio - initial_penalty)  # a name is recognised by its start
    return ratio


def position_score(
    ratio: float, distances: Sequence[float], in_headline: bool, headline_penalty: float
) -> float:
    """DANIEL's score of a repeat covering ``ratio`` of a name, at zone ``distances``.

    ``distances`` (ascending) are, for each zone of the repeat, how many zones separate it
    from the nearest end of the article.  In the first or last two zones the score is the
    ratio; further in, the ratio is raised to ``1 + d0 × ln d1``.  A full match scores
    0.99: even a whole name is not a certainty.  daniel.py@ac1f5d0 ``get_score``: ratio 1
    becomes 0.99; ``dist[0] == 1`` gives the ratio; ``dist[1] <= 1`` the exponent
    ``1 + dist[0] * dist[1]``, else ``1 + dist[0] * log(dist[1])``; minus 0.1 when neither
    0 nor 1 is among the distances.
    """
    if ratio == 1:
        ratio = 0.99
    nearest = distances[0]
    second = distances[1] if len(distances) > 1 else nearest
    if nearest == 1:
        exponent = 1.0
    elif second <= 1:
        exponent = 1 + nearest * second
    else:
        exponent = 1 + nearest * math.log(second)
    score: float = ratio**exponent
    return score if in_headline else score - headline_penalty


def _placement(
    repeat: Repeat, zones: Sequence[str], entries: Sequence[str], marked: bool
) -> tuple[tuple[float, ...], bool]:
    """The repeat's distances to the nearest end of the article, and whether it is in the
    headline (the first or last two zones)."""
    if len(zones) == 1:
        return _weak_placement(repeat, zones[0], entries, marked)
    last = len(zones) - 1
    distances = tuple(sorted(float(min(k, last - k)) for k in repeat.zones))
    return distances, 0 in distances or 1 in distances


def _weak_placement(
    repeat: Repeat, zone: str, entries: Sequence[str], marked: bool
) -> tuple[tuple[float, ...], bool]:
    """One zone: DANIEL's distances are character offsets, as its code computes them.

    daniel.py@ac1f5d0 ``exploit_rstr`` calls ``get_normalized_pos(ss, rstr.global_suffix)``:
    every (non-overlapping) occurrence of the repeat in the suffix array's whole string,
    i.e. the text and then every lexicon entry, joined by ``chr(2)`` (py-rstr-max
    ``step1_sort_suffix``), at ``min(x, len - x) / len``, rounded to 5 places.  The lexicon's
    own occurrences count too, and ``get_score`` takes the headline to be a distance of 0
    or 1: with fractions, only a repeat that opens the whole string.  DANIEL reads a
    cleaned article with its paragraph markers (``<p>…</p>``, as its own cleaning step
    writes it, daniel.py ``get_clean_html``), so for ``marked`` input that never happens.
    The original joins the entries in Python 2 dict order, which cannot be reproduced;
    here they come in the lexicon's order (only the lexicon's occurrences move).
    """
    text = "".join(f"<p>{line}</p>\n" for line in zone.split("\n")) if marked else zone
    whole = "\x02".join([text, *entries])
    size = len(whole)
    starts = [m.start() for m in re.finditer(re.escape(repeat.text), whole)]
    distances = tuple(sorted(round(min(x, size - x) / size, 5) for x in starts))
    return distances, 0 in distances or 1 in distances


# --------------------------------------------------------------------------- detection


def detect(
    texts: Sequence[str], lexicon: Lexicon, options: DanielOptions = DanielOptions(), *, marked: bool = False
) -> Detection:
    """Run DANIEL on a document given as its paragraph texts.

    ``marked``: the document reaches DANIEL as ``<p>`` paragraphs (a cleaned page, as in
    seed 002), not as bare text; it only matters for a one-zone text, see
    :func:`_weak_placement`.
    """
    zones = zoning(texts, options)
    diseases = rank_entries(
        zones, build_index(tuple(lexicon.diseases), options.threshold),
        options.disease_initial_penalty, options, marked=marked,
    )
    top = diseases[0].score if diseases else 0.0
    # daniel.py@ac1f5d0 process(): dis_infos kept when score >= o.ratio (inclusive)
    if top < options.threshold:
        return Detection(False, top, diseases=tuple(diseases[:5]), zones=len(zones))
    disease = diseases[0].entry
    location = _location(zones, lexicon, options, marked)
    event = (lexicon.diseases[disease], lexicon.locations.get(location, location))
    return Detection(True, top, disease, location, event, tuple(diseases[:5]), len(zones))


def _location(zones: Sequence[str], lexicon: Lexicon, options: DanielOptions, marked: bool) -> str:
    index = build_index(tuple(lexicon.locations), options.location_floor)
    ranked = rank_entries(zones, index, options.location_initial_penalty, options, marked=marked)
    if ranked and ranked[0].score >= options.location_floor:
        return ranked[0].entry
    return lexicon.default_location  # the news source's own country, as DANIEL assumes


# ---------------------------------------------------------------------------- the task


@dataclass
class DanielTask:
    """Seed 002's downstream task: is this cleaned article about an epidemic event?

    ``lexicon_dir`` holds ``diseases_<lang>.json`` / ``locations_<lang>.json``; a document
    in a language without lexicons is predicted not relevant, with the reason in
    ``details``.
    """

    lexicon_dir: Path | str
    options: DanielOptions = field(default_factory=DanielOptions)
    name: str = field(default="daniel", init=False)
    _lexicons: dict[str, Lexicon | None] = field(default_factory=dict, init=False, repr=False)

    def lexicon(self, lang: str) -> Lexicon | None:
        if lang not in self._lexicons:
            present = lang in lexicon_languages(self.lexicon_dir)
            self._lexicons[lang] = load_lexicon(self.lexicon_dir, lang) if present else None
        return self._lexicons[lang]

    def predict(self, doc: TaskDocument) -> Prediction:
        lexicon = self.lexicon(doc.lang)
        if lexicon is None:
            reason = f"no lexicon for language {doc.lang!r}"
            return Prediction(doc.id, False, details={"skipped": reason})
        found = detect(daniel_paragraphs(doc.blocks), lexicon, self.options, marked=True)
        details = {
            "disease": found.disease,
            "location": found.location,
            "zones": found.zones,
            "candidates": [(m.entry, round(m.score, 4), m.repeat) for m in found.diseases],
        }
        return Prediction(doc.id, found.relevant, found.score, found.event, details)

    def predict_all(self, docs: Iterable[TaskDocument]) -> list[Prediction]:
        return [self.predict(doc) for doc in docs]

    def score(
        self, predictions: Iterable[Prediction], labels: Mapping[str, TaskLabel]
    ) -> TaskScores:
        return score_relevance(self.name, predictions, labels)
