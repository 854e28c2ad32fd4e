"""Native ``justext`` against the jusText package, and both configurations against gold.

    PYTHONPATH=benchmarks python benchmarks/studies/justext_agreement.py agreement [--paragraphs justext|view]
    PYTHONPATH=benchmarks python benchmarks/studies/justext_agreement.py agreement --workers N
    PYTHONPATH=benchmarks python benchmarks/studies/justext_agreement.py quality [--workers N]
    PYTHONPATH=benchmarks python benchmarks/studies/justext_agreement.py zh-sweep [--workers N]
    PYTHONPATH=benchmarks python benchmarks/studies/justext_agreement.py speed

*agreement* — for every page of every shared dataset, run native ``justext`` and the
jusText package (``pip install justext lxml_html_clean``) with the same stop list: JTA with
the page's language from ``meta.jsonl`` for the languages jusText has a list for, and JTS
(empty stop list, both stop-word thresholds 0) for every page.  Alignment: each side is a
list of paragraph texts (whitespace collapsed); ``difflib.SequenceMatcher`` matches equal
texts in order, and the agreement is the share of matched paragraphs given the same
good/bad class.  Paragraphs one side has and the other not (different cleaning: hidden
elements, ``<noscript>``…) are counted as ``unmatched``, not as disagreements; a
word-weighted agreement (each peer word carries its paragraph's class, words aligned
the same way) is reported too.

*quality* — TO F1 per dataset and language of JTA and JTS, with detourage's evaluation
engine.  *zh-sweep* — the Chinese settings tried on DANIEL zh.  *speed* — median ms of
``label()`` per page against median lxml parse time.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import statistics
import sys
import time
import types

import _common
from detourage import methods
from detourage.api import load
from detourage.methods import justext as native

PEER_LISTS = {"en": "English", "el": "Greek", "pl": "Polish", "ru": "Russian",
              "fr": "French", "de": "German", "es": "Spanish", "cs": "Czech"}


def pages():
    for root in sorted(_common.DATASETS.glob("*/")):
        meta = [json.loads(line) for line in (root / "meta.jsonl").read_text().splitlines() if line]
        for m in meta:
            path = root / "html" / f"{m['id']}.html"
            if path.exists():
                yield root.name, m.get("lang", "und"), path


def _norm(text: str) -> str:
    return " ".join(text.split())


def peer_paragraphs(html: bytes, lang: str | None):
    import justext
    if lang is None:
        ps = justext.justext(html, frozenset(), stopwords_low=0, stopwords_high=0)
    else:
        ps = justext.justext(html, justext.get_stoplist(PEER_LISTS[lang]))
    return [(_norm(p.text), p.class_type == "good") for p in ps]


def native_paragraphs(html: bytes, lang: str | None, mode: str):
    options = native.Options(language=lang, stoplist=lang is not None, paragraphs=mode)
    ps, _, _ = native.classified(load(html), options)
    return [(_norm(p.text), p.class_type == "good") for p in ps]


def compare(a, b):
    """(matched, agreeing, words matched, words agreeing) between two paragraph lists."""
    sm = difflib.SequenceMatcher(None, [t for t, _ in a], [t for t, _ in b], autojunk=False)
    matched = agree = 0
    for i, j, n in sm.get_matching_blocks():
        for k in range(n):
            matched += 1
            agree += a[i + k][1] == b[j + k][1]
    wa = [(w, g) for t, g in a for w in t.split()]
    wb = [(w, g) for t, g in b for w in t.split()]
    sm = difflib.SequenceMatcher(None, [w for w, _ in wa], [w for w, _ in wb], autojunk=True)
    wm = wg = 0
    for i, j, n in sm.get_matching_blocks():
        for k in range(n):
            wm += 1
            wg += wa[i + k][1] == wb[j + k][1]
    return matched, agree, wm, wg


def _agreement_job(args):
    dataset, lang, path, mode = args
    html = path.read_bytes()
    out = []
    configs = [("JTS", None)] + ([("JTA", lang)] if lang in PEER_LISTS else [])
    for config, stop in configs:
        try:
            peer = peer_paragraphs(html, stop)
        except Exception as exc:  # noqa: BLE001 - the peer fails on some pages; counted, not scored
            out.append((dataset, lang, config, None, type(exc).__name__))
            continue
        mine = native_paragraphs(html, stop, mode)
        out.append((dataset, lang, config, (len(peer), len(mine), *compare(peer, mine)), None))
    return out


def agreement(mode: str, workers: int) -> None:
    from concurrent.futures import ProcessPoolExecutor
    jobs = [(d, lang, p, mode) for d, lang, p in pages()]
    totals: dict[tuple[str, str], list[int]] = {}
    failures: dict[str, int] = {}
    with ProcessPoolExecutor(workers) as pool:
        for result in pool.map(_agreement_job, jobs, chunksize=8):
            for dataset, lang, config, counts, error in result:
                if counts is None:
                    failures[error] = failures.get(error, 0) + 1
                    continue
                for key in ((config, f"{dataset}/{lang}"), (config, "all")):
                    t = totals.setdefault(key, [0] * 6)
                    for n, c in enumerate(counts):
                        t[n] += c
    print(f"paragraphs={mode}  peer failures: {failures}")
    print(f"{'config':6} {'group':28} {'peer¶':>7} {'native¶':>7} {'matched':>7} {'agree%':>7} {'words%':>7}")
    for (config, group), (np, nn, m, a, wm, wg) in sorted(totals.items()):
        print(f"{config:6} {group:28} {np:7d} {nn:7d} {m / max(np, 1):7.1%} {a / max(m, 1):7.2%}"
              f" {wg / max(wm, 1):7.2%}")


# -- quality against gold ---------------------------------------------------------------


def register(name: str, options: native.Options) -> None:
    """Register ``name`` in-process as native justext run with ``options``."""
    module = types.ModuleType(f"detourage.methods._bench_{name.replace('-', '_').replace('.', '_')}")
    module.NAME, module.SEED, module.DESCRIPTION = name, "002", name
    module.Options = native.Options
    module.label = lambda page, _options, _o=options: native.label(page, _o)
    sys.modules[module.__name__] = module
    methods.MODULES[name] = module.__name__


def _f1_table(names, datasets, workers):
    from detourage.evaluation.evaluate import evaluate
    ev = evaluate(datasets, names, workers=workers)
    rows = ev.summary(bootstrap=0)["rows"]
    for r in rows:
        to, car = r["to"] or {}, r["car"] or {}
        micro, macro = to.get("micro", {}), to.get("macro", {})
        print(f"{r['method']:22} {r['dataset']:16} {r['lang']:4} pages={r['pages']:4d} "
              f"TO micro P={micro.get('p', 0):.4f} R={micro.get('r', 0):.4f} F1={micro.get('f1', 0):.4f} "
              f"macro F1={macro.get('f1', 0):.4f}  CAR macro F1={car.get('macro', {}).get('f1', 0):.4f} "
              f"ms={r['ms']['median']:.1f}")
    return rows


def quality(workers: int) -> None:
    register("justext", native.Options())
    register("justext-nostop", native.JTS_OPTIONS)
    _f1_table(["justext", "justext-nostop"], sorted(str(p) for p in _common.DATASETS.glob("*/")), workers)


def zh_sweep(workers: int) -> None:
    from detourage.gold import load_dataset
    daniel = load_dataset(_common.DATASETS / "daniel")
    zh = dataclasses.replace(daniel, documents=tuple(d for d in daniel.documents if d.lang == "zh"))
    names = []
    register("zh-jts", native.JTS_OPTIONS)
    names.append("zh-jts")
    for low, high in [(0.05, 0.08), (0.10, 0.12), (0.15, 0.18), (0.20, 0.22)]:
        for length in (70, 35):
            name = f"zh-c{low}-{high}-L{length}"
            register(name, native.Options(language="zh", zh_stopwords_low=low, zh_stopwords_high=high,
                                          zh_length_low=length, zh_length_high=int(length * 200 / 70)))
            names.append(name)
    _f1_table(names, [zh], workers)


def speed() -> None:
    label_ms, parse_ms = [], []
    for _, _, path in pages():
        page = load(path.read_bytes())
        t0 = time.perf_counter()
        native.label(page)
        label_ms.append((time.perf_counter() - t0) * 1000)
        parse_ms.append(page.timings["parse"] * 1000)
    lm, pm = statistics.median(label_ms), statistics.median(parse_ms)
    print(f"pages={len(label_ms)} label median={lm:.2f} ms  parse median={pm:.2f} ms  ratio={lm / pm:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["agreement", "quality", "zh-sweep", "speed"])
    ap.add_argument("--paragraphs", default="justext", choices=["justext", "view"])
    ap.add_argument("--workers", type=int, default=8)
    a = ap.parse_args()
    if a.what == "agreement":
        agreement(a.paragraphs, a.workers)
    elif a.what == "quality":
        quality(a.workers)
    elif a.what == "zh-sweep":
        zh_sweep(a.workers)
    else:
        speed()


if __name__ == "__main__":
    main()
