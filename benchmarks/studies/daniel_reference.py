"""The "Référence" row of seed 002 Table 3: DANIEL on the gold-cleaned DANIEL corpus.

Runs the DANIEL-style detector (:mod:`detourage.evaluation.daniel`) on the hand-cleaned
texts of ``datasets/daniel`` and prints relevance P/R/F1 per language and overall beside
the seed's figures.  With ``--texts DIR`` it scores a cleaner's CleanEval outputs
(``DIR/<id>.txt``) instead, i.e. one of the other rows of Table 3.

    PYTHONPATH=benchmarks python benchmarks/studies/daniel_reference.py [--shared ../shared] [--texts DIR]

On the gold texts this gives overall F1 68.57 against the seed's 76.36.  The detector is
not the cause: the original DANIEL (rundimeco/daniel@ac1f5d0 with py-rstr-max, ported to
Python 3 unchanged) makes the same relevance decision on every one of the 1,689 gold
files with these lexicons.  The seed (TALN, June 2015) ran the DANIEL of 2015 (its
footnote 6 points to the daniel.greyc.fr API) with the lexicons and reference texts of
that time; none of these is in the public history we could read (the oldest daniel.py
and lexicon versions there differ from each other and from the seed's figures too).
The lexicons here are those of ac1f5d0 (an earlier commit, bea8bcf, has capitalised en
entries such as "Cholera", "Flu" and no ВИЧ/ОРВИ for ru), so the per-language
differences (en above all: 82 documents predicted relevant against the seed's 45) come
from the resources and texts, not from the algorithm; see the module docstring of
:mod:`detourage.evaluation.daniel`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import _common
from detourage.evaluation.daniel import SEED_REFERENCE, DanielOptions, DanielTask
from detourage.evaluation.downstream import RelevanceScores, TaskScores, load_task_dataset


def run(shared: Path, texts: Path | None, options: DanielOptions) -> tuple[TaskScores, float, Counter[str]]:
    """Predict every document and score; also count predicted diseases (for inspection)."""
    docs, labels = load_task_dataset(shared / "datasets" / "daniel", texts)
    task = DanielTask(shared / "resources" / "daniel", options)
    start = time.perf_counter()
    predictions = task.predict_all(docs)
    elapsed = time.perf_counter() - start
    diseases = Counter(str(p.details.get("disease")) for p in predictions if p.relevant)
    return task.score(predictions, labels), elapsed, diseases


def _pct(value: float | None) -> str:
    return "N/A" if value is None else f"{100 * value:.2f}"


def _row(name: str, scores: RelevanceScores) -> str:
    seed = SEED_REFERENCE.get(name)
    ours = f"{_pct(scores.precision):>7} {_pct(scores.recall):>7} {_pct(scores.f1):>7}"
    theirs = " ".join(f"{v:>7.2f}" for v in seed) if seed else ""
    counts = f"{scores.tp:>4} {scores.fp:>4} {scores.fn:>4}"
    return f"{name:<5} {ours}   {counts}   {theirs}"


def report(scores: TaskScores) -> str:
    header = f"{'lang':<5} {'P':>7} {'R':>7} {'F1':>7}   {'tp':>4} {'fp':>4} {'fn':>4}   " + (
        f"{'seed P':>7} {'seed R':>7} {'seed F1':>7}"
    )
    rows = [_row(lang, s) for lang, s in scores.per_lang.items()]
    return "\n".join([header, *rows, _row("all", scores.overall)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _common.add_shared(parser)
    parser.add_argument("--texts", type=Path, default=None, help="CleanEval outputs to score instead of gold")
    parser.add_argument("--threshold", type=float, default=DanielOptions().threshold)
    args = parser.parse_args(argv)
    if not (args.shared / "datasets" / "daniel").is_dir():
        print(f"no DANIEL dataset under {args.shared}", file=sys.stderr)
        return 2
    scores, elapsed, diseases = run(args.shared, args.texts, DanielOptions(threshold=args.threshold))
    print(report(scores))
    print(f"\n{scores.overall.documents} documents in {elapsed:.1f} s ({scores.missing} without prediction)")
    print("most predicted diseases:", ", ".join(f"{d} {n}" for d, n in diseases.most_common(8)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
