"""Evaluation that says what it scored (issue 18 item 4): training pages, the split, the
sample, the default method."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from detourage.cli import main
from detourage.evaluation.evaluate import page_jobs, sampled, training_notes
from detourage.gold import load_dataset, split_of
from detourage.settings import Settings

SHARED = Path("/work/shared/datasets")
needs_shared = pytest.mark.skipif(not (SHARED / "daniel").is_dir(), reason="shared datasets not here")


def small_dataset(root: Path, name: str, langs: dict[str, int]) -> Path:
    """A dataset folder (html/ + gold/) with pages per language, named so that the first
    pages by id are all of the first language."""
    folder = root / name
    (folder / "html").mkdir(parents=True)
    (folder / "gold").mkdir()
    lines = []
    for lang, n in langs.items():
        for i in range(n):
            page_id = f"{lang}{i:03d}"
            (folder / "html" / f"{page_id}.html").write_text(
                f"<html><body><nav>Menu</nav><p>Article {page_id} text, a sentence or two.</p></body></html>")
            (folder / "gold" / f"{page_id}.txt").write_text(f"Article {page_id} text, a sentence or two.\n")
            lines.append(f'{{"id": "{page_id}", "lang": "{lang}"}}')
    (folder / "meta.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def test_a_sample_spreads_over_languages_not_the_first_pages(tmp_path: Path) -> None:
    dataset = load_dataset(small_dataset(tmp_path, "mixed", {"aa": 20, "bb": 5, "cc": 5}))
    if {d.lang for d in dataset.scorable} != {"aa", "bb", "cc"}:
        pytest.skip("the dataset layout does not give languages this way")
    chosen = sampled(dataset.name, dataset.scorable, 9)
    assert Counter(d.lang for d in chosen) == {"aa": 3, "bb": 3, "cc": 3}
    assert [d.id for d in chosen] != [d.id for d in dataset.scorable[:9]]
    assert chosen == sampled(dataset.name, dataset.scorable, 9)  # a fixed draw
    assert len(sampled(dataset.name, dataset.scorable, 100)) == 30


@needs_shared
def test_training_pages_are_counted_for_each_shipped_model() -> None:
    dataset = load_dataset(SHARED / "cleanportaleval")
    jobs = list(page_jobs([dataset], ["ncleaner", "victor", "learned", "fulltext"], None))
    notes = {note.split("'s ")[0]: note for note in training_notes(jobs, {})}
    train = sum(split_of(dataset.name, d.id) == "train" for d in dataset.scorable)
    assert set(notes) == {"ncleaner", "victor", "learned"}
    assert f"trained on {train} of the {len(dataset.scorable)} pages scored" in notes["victor"]
    assert "--split held-out" in notes["victor"] and "--split held-out" in notes["ncleaner"]
    assert f"{len(dataset.scorable)} of the {len(dataset.scorable)} pages scored here are training pages" \
        in notes["learned"]
    assert "benchmarks/learned_lodo.py" in notes["learned"]
    held_out = list(page_jobs([dataset], ["ncleaner", "victor", "learned"], None, "held-out"))
    assert [n.split("'s ")[0] for n in training_notes(held_out, {})] == ["learned"]


@needs_shared
def test_a_model_given_by_the_user_is_not_judged() -> None:
    from detourage import methods

    jobs = list(page_jobs([load_dataset(SHARED / "cleanportaleval")], ["victor"], 5))
    victor = methods.get("victor")
    given = {victor.name: victor.options(model="my-own.zip")}
    assert training_notes(jobs, given) == []


@needs_shared
def test_evaluate_without_m_evaluates_default_and_the_report_says_what_it_scored(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["evaluate", str(SHARED / "cleanportaleval"), "--sample", "3",
                                       "-o", str(tmp_path / "ev"), "--bootstrap", "10", "-w", "1"])
    assert result.exit_code == 0, result.output
    assert "no -m given: evaluating default (learned)" in result.stderr
    assert "| default |" in result.stdout
    assert "detourage: note: default: learned's shipped model" in result.stderr
    report = (tmp_path / "ev" / "report.md").read_text()
    assert "pages: every page, both halves of the fixed split; a sample of 3 per dataset" in report
    assert "**Note**: default: learned's shipped model was trained on every page" in report
    assert "training pages" in (tmp_path / "ev" / "report.html").read_text()
    held = CliRunner().invoke(main, ["evaluate", str(SHARED / "cleanportaleval"), "--sample", "2", "-m",
                                     "fulltext", "--split", "held-out", "-o", str(tmp_path / "ho"),
                                     "--bootstrap", "10"])
    assert held.exit_code == 0, held.output
    assert "the 'held-out' half of the fixed split (gold.split_of) only" in (tmp_path / "ho" / "report.md").read_text()
    assert "note:" not in held.stderr


def test_the_scorer_applies_its_limits_to_every_page(tmp_path: Path) -> None:
    from detourage.evaluation.evaluate import PageJob, PageScorer
    from detourage.parse import Limits

    doc = load_dataset(small_dataset(tmp_path, "tiny", {"aa": 1})).scorable[0]
    job = PageJob("tiny", doc, "fulltext")
    assert PageScorer()(job)["ok"]
    record = PageScorer(settings=Settings(limits=Limits(max_bytes=20)))(job)  # the page has ~90 bytes
    assert not record["ok"] and record["error"] == "limit:bytes", record


def test_evaluate_scores_wcxb_s_word_f1_per_page_and_its_mean(tmp_path: Path) -> None:
    from detourage.evaluation.evaluate import evaluate

    dataset = load_dataset(small_dataset(tmp_path, "tiny", {"aa": 2}))
    run = evaluate([dataset], ["fulltext"], workers=1)
    # fulltext keeps the menu: 1 word in 8 of the output is not in the gold
    for page in run.pages:
        assert (page["word_matched"], page["word_pred"], page["word_gold"]) == (7, 8, 7)
        assert page["word_f1"] == pytest.approx(2 * (7 / 8) / (1 + 7 / 8))
    row = next(r for r in run.summary(bootstrap=10)["rows"] if r["dataset"] == "tiny" and r["lang"] == "all")
    assert row["word"]["macro"]["f1"] == pytest.approx(run.pages[0]["word_f1"])
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "tiny"), "-m", "fulltext",
                                       "-o", str(tmp_path / "ev"), "--bootstrap", "10", "-w", "1"])
    assert result.exit_code == 0, result.output
    assert "word F1" in result.stdout and "93.33" in result.stdout
