"""Which language identifier fills the ``language`` column of a corpus run (issue 14).

Every page of the shared datasets whose ``meta.jsonl`` states a language is identified
from its gold text (the CleanEval markers removed), whole and cut to its first 200
characters (a short page, a title-only output); the report gives the accuracy per
language and the time per page of each identifier installed among the one detourage
uses (py3langid on the text's first 2 000 characters) and:

* ``py3langid`` — langid.py's model (97 languages) in a numpy port, model in the wheel;
* ``lingua`` — lingua-language-detector (75 languages, Rust), models in the wheel;
* ``pycld2`` — Google's CLD2 (C++), tables in the wheel.

    PYTHONPATH=benchmarks python benchmarks/studies/langid_choice.py [--limit N]
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time

import _common

_MARKER = re.compile(r"^<[phl]> ?", re.MULTILINE)


def samples(limit: int | None) -> list[tuple[str, str]]:
    """(language, gold text) of every page whose language is stated (at most ``limit`` per language)."""
    out: list[tuple[str, str]] = []
    seen: collections.Counter[str] = collections.Counter()
    for folder in _common.every_dataset():
        for line in (folder / "meta.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            lang, gold = row.get("lang"), folder / "gold" / f"{row['id']}.txt"
            if not lang or not gold.exists() or (limit and seen[lang] >= limit):
                continue
            text = _MARKER.sub("", gold.read_text(encoding="utf-8")).strip()
            if text:
                seen[lang] += 1
                out.append((lang, text))
    return out


def identifiers() -> dict[str, object]:
    """name → a function text → ISO 639-1 code, for those installed."""
    found: dict[str, object] = {}
    try:
        from detourage.corpusrun.langid import identify
        found["detourage (py3langid, first 2000 chars)"] = identify
    except ImportError:
        pass
    try:
        import py3langid
        found["py3langid"] = lambda text: py3langid.classify(text)[0]
    except ImportError:
        pass
    try:
        from lingua import LanguageDetectorBuilder
        detector = LanguageDetectorBuilder.from_all_languages().build()

        def lingua_code(text: str) -> str:
            lang = detector.detect_language_of(text)
            return lang.iso_code_639_1.name.lower() if lang else ""
        found["lingua"] = lingua_code
    except ImportError:
        pass
    try:
        import pycld2
        controls = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # CLD2 refuses them as invalid UTF-8

        def cld2_code(text: str) -> str:
            return str(pycld2.detect(controls.sub(" ", text), bestEffort=True)[2][0][1]).split("-")[0]
        found["pycld2"] = cld2_code
    except ImportError:
        pass
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="At most N pages per language.")
    parser.add_argument("--only", default=None, help="Only the identifiers whose name contains this.")
    args = parser.parse_args(argv)
    data = samples(args.limit)
    langs = sorted(collections.Counter(lang for lang, _ in data).items())
    print(f"{len(data)} pages: " + ", ".join(f"{lang} {n}" for lang, n in langs))
    print("\n| identifier | cut | " + " | ".join(lang for lang, _ in langs) + " | all | ms/page |")
    print("| --- | --- | " + " | ".join("---:" for _ in langs) + " | ---: | ---: |")
    for name, identify in identifiers().items():
        if args.only and args.only not in name:
            continue
        for cut in (None, 200):
            right: collections.Counter[str] = collections.Counter()
            t0 = time.perf_counter()
            for lang, text in data:
                right[lang] += identify(text[:cut] if cut else text) == lang  # type: ignore[operator]
            ms = (time.perf_counter() - t0) * 1000 / len(data)
            cells = " | ".join(f"{100 * right[lang] / n:.1f}" for lang, n in langs)
            print(f"| {name} | {cut or 'whole'} | {cells} | {100 * sum(right.values()) / len(data):.2f} "
                  f"| {ms:.2f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
