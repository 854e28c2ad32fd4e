"""Training from what was annotated: the commands the inspector runs and shows.

* **Victor** reads ``.anno`` folders directly: ``detourage crossval victor`` (k-fold,
  seed 003 Table 6.1) then ``detourage train victor``.
* **The learned extractor** trains on datasets (page + gold text), so the annotations
  are first written as one (:func:`export`: the page, and as gold the units its labels
  make, in CleanEval format); :func:`crossval_learned` then scores k folds, each cleaned
  by a model trained on the others and by the shipped model, with CleanEval TO and TM;
  ``detourage train learned`` writes the model.

The inspector runs the commands one after the other in a child process
(:class:`Trainer`), so a long or failing run never stops the server, and shows them so
they can be run again by hand.  ``python -m detourage.ui.training export|crossval-learned``
are the two steps no other command does.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import pipeline
from ..errors import DetourageError
from ..evaluation import metrics
from ..gold import format_cleaneval, load_dataset
from ..loading import load
from ..render import MARKERS, units
from ..settings import Settings
from ..victor import anno

#: where the exported dataset and the models go, inside the annotations folder
EXPORT = "_learned-dataset"
MODELS = {"victor": "victor.zip", "learned": "learned.zip"}
#: output kept from a run (the end of it)
KEEP_OUTPUT = 20_000


def anno_folders(annotations: Path) -> list[Path]:
    """The folders of ``.anno`` files under ``annotations`` (one per dataset)."""
    if not annotations.is_dir():
        return []
    return sorted(p for p in annotations.iterdir() if p.is_dir() and any(p.glob("*.anno")))


def plan(kind: str, annotations: Path, folds: int) -> list[list[str]]:
    """The commands (argument lists) that cross-validate and train ``kind`` on the annotations."""
    if kind not in MODELS:
        raise DetourageError(f"unknown model kind {kind!r} (victor or learned)")
    folders = anno_folders(annotations)
    pages = sum(len(list(f.glob("*.anno"))) for f in folders)
    if pages < 2:
        raise DetourageError(f"annotate at least 2 pages first ({pages} in {annotations})")
    k = str(max(2, min(folds, pages)))
    model = str(annotations / MODELS[kind])
    cli = [sys.executable, "-m", "detourage"]
    if kind == "victor":
        inputs = [str(f) for f in folders]
        return [[*cli, "crossval", "victor", *inputs, "--folds", k, "--by", "all"],
                [*cli, "train", "victor", *inputs, "--out", model]]
    dataset = str(annotations / EXPORT)
    own = [sys.executable, "-m", "detourage.ui.training"]
    return [[*own, "export", str(annotations), dataset],
            [*own, "crossval-learned", dataset, "--folds", k],
            [*cli, "train", "learned", dataset, "--out", model]]


def shown(command: Sequence[str]) -> str:
    """A command as a person would type it."""
    words = list(command)
    if words[:3] == [sys.executable, "-m", "detourage"]:
        words = ["detourage", *words[3:]]
    elif words[:2] == [sys.executable, "-m"]:
        words = ["python", *words[1:]]
    return shlex.join(words)


class Trainer:
    """One training run at a time, in child processes; its commands and output."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self._lock = threading.Lock()
        self._state: dict[str, Any] = {"running": False, "kind": None, "commands": [], "output": "",
                                       "returncode": None, "model": None}

    def status(self) -> dict[str, Any]:
        """The current or last run, and the commands each kind would run now."""
        with self._lock:
            state = dict(self._state)
        planned = {}
        for kind in MODELS:
            try:
                planned[kind] = [shown(c) for c in plan(kind, self.session.annotations, 5)]
            except DetourageError as exc:
                planned[kind] = [f"# {exc}"]
        return {**state, "planned": planned}

    def start(self, kind: str, folds: int) -> dict[str, Any]:
        """Start cross-validating and training ``kind``; refused while a run is going on."""
        commands = plan(kind, self.session.annotations, folds)
        with self._lock:
            if self._state["running"]:
                raise DetourageError("a training run is already going on")
            self._state = {"running": True, "kind": kind, "commands": [shown(c) for c in commands],
                           "output": "", "returncode": None, "model": None}
        threading.Thread(target=self._run, args=(commands, kind), daemon=True).start()
        return self.status()

    def _run(self, commands: list[list[str]], kind: str) -> None:
        code = 0
        for command in commands:
            self._append(f"$ {shown(command)}\n")
            try:
                done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True, errors="replace", check=False)
                code = done.returncode
                self._append(done.stdout)
            except OSError as exc:
                code = 127
                self._append(f"{exc}\n")
            if code != 0:
                break
        model = self.session.annotations / MODELS[kind]
        with self._lock:
            self._state.update(running=False, returncode=code,
                               model=str(model) if code == 0 and model.is_file() else None)

    def _append(self, text: str) -> None:
        with self._lock:
            self._state["output"] = (self._state["output"] + text)[-KEEP_OUTPUT:]


# ------------------------------------------------------------------ learned


def export(annotations: Path, out: Path) -> int:
    """Write the ``.anno`` files under ``annotations`` as a dataset: ``html/<id>.html`` (the
    page), ``gold/<id>.txt`` (the annotated units, CleanEval format), ``meta.jsonl``; ids
    are ``<folder>__<name>``.  Returns the number of pages written."""
    (out / "html").mkdir(parents=True, exist_ok=True)
    (out / "gold").mkdir(exist_ok=True)
    meta = []
    for folder in anno_folders(annotations):
        for file in sorted(folder.glob("*.anno")):
            annotation = anno.read(file)
            data = anno.page_bytes(anno.page_for(file, annotation))
            page = load(data)
            labels = anno.attach(page, annotation)
            gold = [(MARKERS[u.kind], u.text) for u in units(page.blocks, labels) if u.text]
            doc_id = f"{folder.name}__{file.stem}"
            (out / "html" / f"{doc_id}.html").write_bytes(data)
            (out / "gold" / f"{doc_id}.txt").write_text(format_cleaneval(gold), encoding="utf-8")
            meta.append({"id": doc_id, "lang": "und", "source": str(file)})
    written = {m["id"] for m in meta}
    for stale in [*(out / "html").glob("*.html"), *(out / "gold").glob("*.txt")]:
        if stale.stem not in written:  # an annotation removed since the last export
            stale.unlink()
    (out / "meta.jsonl").write_text("".join(json.dumps(m) + "\n" for m in meta), encoding="utf-8")
    return len(meta)


def crossval_learned(dataset: Path, folds: int = 5, seed: int = 0) -> str:
    """k-fold cross-validation of the learned extractor on a dataset: each fold cleaned by a
    model trained on the others and by the shipped model; a Markdown table of CleanEval
    TO (micro P/R/F1, macro F1) and TM F1."""
    from ..learned import train as learned_train

    ds = load_dataset(dataset)
    docs = {d.id: d for d in ds.documents}
    pages = learned_train.collect([ds])
    if len(pages) < 2:
        raise DetourageError(f"{dataset}: {len(pages)} labelled pages, need at least 2")
    order = list(range(len(pages)))
    random.Random(seed).shuffle(order)
    fold_of = {i: rank % max(2, min(folds, len(pages))) for rank, i in enumerate(order)}
    counts: dict[str, list[tuple[metrics.Counts, metrics.Counts]]] = {"cross-validated": [], "shipped model": []}
    for fold in sorted(set(fold_of.values())):
        training = [p for i, p in enumerate(pages) if fold_of[i] != fold]
        model = learned_train.fit(training, meta={"name": f"fold-{fold}"})
        for i, p in enumerate(pages):
            if fold_of[i] == fold:
                doc = docs[p.id]
                counts["cross-validated"].append(_scores(doc, model))
                counts["shipped model"].append(_scores(doc, None))
    return _table(counts) + ("\n\ncross-validated: each page cleaned by a model trained on the other folds; "
                             "shipped model: detourage's own, trained on every page of the shared datasets "
                             "(in-sample on those pages).")


def _scores(doc: Any, model: Any) -> tuple[metrics.Counts, metrics.Counts]:
    """TO and TM counts of the learned extractor (``model``; None: the shipped one) on a page."""
    from ..methods import learned

    settings = Settings(method="learned", options=(("learned", learned.Options(model=model)),))
    result = pipeline.result(doc.read_html(), settings, url=doc.meta.get("url"))
    pred = [(MARKERS[u.kind], u.text) for u in result.text_units]
    gold = list(doc.gold_blocks)
    return (metrics.cleaneval_scores(pred, gold, metrics.Mode.TO),
            metrics.cleaneval_scores(pred, gold, metrics.Mode.TM))


def _table(counts: dict[str, list[tuple[metrics.Counts, metrics.Counts]]]) -> str:
    lines = ["| model | pages | TO P | TO R | TO F1 | TO F1 macro | TM F1 |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, rows in counts.items():
        to = sum((r[0] for r in rows), metrics.Counts(0, 0, 0))
        tm = sum((r[1] for r in rows), metrics.Counts(0, 0, 0))
        macro = sum(r[0].f1 for r in rows) / len(rows)
        lines.append(f"| {name} | {len(rows)} | {100 * to.precision:.2f} | {100 * to.recall:.2f} | "
                     f"{100 * to.f1:.2f} | {100 * macro:.2f} | {100 * tm.f1:.2f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m detourage.ui.training export ANNOTATIONS OUT`` or ``crossval-learned DATASET``."""
    parser = argparse.ArgumentParser(prog="python -m detourage.ui.training", description=__doc__.split("\n")[0])
    steps = parser.add_subparsers(dest="step", required=True)
    step = steps.add_parser("export", help="write the .anno files as a dataset (html/ + gold/)")
    step.add_argument("annotations", type=Path)
    step.add_argument("out", type=Path)
    step = steps.add_parser("crossval-learned", help="k-fold cross-validation of the learned extractor")
    step.add_argument("dataset", type=Path)
    step.add_argument("--folds", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        if args.step == "export":
            print(f"detourage: {export(args.annotations, args.out)} annotated pages → {args.out}", file=sys.stderr)
        else:
            print(crossval_learned(args.dataset, args.folds))
    except (DetourageError, ValueError) as exc:
        print(f"detourage: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
