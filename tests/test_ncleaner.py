"""The ncleaner method: n-gram models, training, model files, argument parsing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from detourage import api
from detourage.errors import DetourageError
from detourage.methods import ncleaner
from detourage.model import Label

SHARED = Path("/work/shared/datasets")

ARTICLE = [
    "The committee met on Tuesday to discuss the new budget for the coming year.",
    "Several members argued that the proposed cuts would hurt the local schools.",
    "After a long debate, the vote was postponed until the next meeting in March.",
]
MENU = ["Home | News | Sport | Contact", "Login | Register", "Copyright 2024 | Privacy | Terms"]


def page(article: list[str], menu: list[str]) -> str:
    body = "".join(f"<p>{t}</p>" for t in article)
    nav = "".join(f"<div>{t}</div>" for t in menu)
    return f"<html><body>{nav}{body}<div>{menu[0]}</div></body></html>"


def gold(article: list[str]) -> str:
    return "".join(f"<p> {t}\n" for t in article)


@pytest.fixture(scope="module")
def model() -> ncleaner.NCleanerModel:
    return ncleaner.train([(page(ARTICLE, MENU), gold(ARTICLE))] * 3)


def test_training_separates_texts(model: ncleaner.NCleanerModel) -> None:
    scores = model.scores(["The members of the committee argued about the schools.", "Home | Login"])
    assert scores[0] > 0 > scores[1]
    assert model.provenance["paragraphs"] == {"content": 9, "boilerplate": 12}


def test_label_keeps_the_article(model: ncleaner.NCleanerModel) -> None:
    html = page(["The budget debate went on until the members voted on the schools."], MENU)
    labels = ncleaner.label(api.load(html), ncleaner.Options(model=model))
    kept = [b.text for b, lab in zip(api.load(html).blocks, labels.labels) if lab.kept]
    assert kept == ["The budget debate went on until the members voted on the schools."]


def test_empty_page(model: ncleaner.NCleanerModel) -> None:
    labels = ncleaner.label(api.load(""), ncleaner.Options(model=model))
    assert labels.labels == ()
    assert model.scores([]).shape == (0,)


def test_probabilities_sum_to_one(model: ncleaner.NCleanerModel) -> None:
    tables = model.tables()["content"]
    alphabet = [c for c in model.counts["content"][0] if c != ncleaner.BOUNDARY]
    for context in ("th", "zq", "e "):
        codes = np.array([ord(c) for c in context + "x"], dtype=np.int64)
        total = 0.0
        for c in [*alphabet, ncleaner.BOUNDARY, "\u00e9"]:  # é: an unknown character
            codes[-1] = ord(c)
            total += float(np.exp(tables.logprob(codes, np.array([2]), 3))[0])
        assert total == pytest.approx(1.0)


def test_save_load_round_trip(model: ncleaner.NCleanerModel, tmp_path: Path) -> None:
    path = tmp_path / "m.json.gz"
    model.save(path)
    again = ncleaner.NCleanerModel.load(path)
    texts = ["The vote was postponed.", "Privacy | Terms", ""]
    assert np.allclose(again.scores(texts), model.scores(texts))
    assert again.provenance["threshold"] == ncleaner.THRESHOLD
    (tmp_path / "bad.json").write_text('{"format": "other"}')
    with pytest.raises(DetourageError):
        ncleaner.NCleanerModel.load(tmp_path / "bad.json")


def test_nonlexical_mapping() -> None:
    assert ncleaner.nonlexical("Page 12, été ΑΒΓ 三") == "aaaa 00, aaa aaa a"
    m = ncleaner.train([(page(ARTICLE, MENU), gold(ARTICLE))], nonlexical=True)
    assert set(m.counts["content"][0]) <= {"a", "0", " ", ",", ".", ncleaner.BOUNDARY}
    # same shape, different letters: same score
    assert m.scores(["Abc def."])[0] == pytest.approx(m.scores(["Xyz uvw."])[0])


def test_pairs_from_args(tmp_path: Path) -> None:
    (tmp_path / "ds" / "html").mkdir(parents=True)
    (tmp_path / "ds" / "gold").mkdir()
    for i in ("1", "2", "3"):
        (tmp_path / "ds" / "html" / f"{i}.html").write_text("<p>x</p>")
    for i in ("1", "2"):
        (tmp_path / "ds" / "gold" / f"{i}.txt").write_text("<p> x")
    single_html, single_gold = tmp_path / "a.html", tmp_path / "a.txt"
    single_html.write_text("<p>y</p>")
    single_gold.write_text("y")
    pairs = ncleaner.pairs_from_args([str(tmp_path / "ds"), f"{single_html}:{single_gold}"])
    assert [(h.name, g.name) for h, g in pairs] == [("1.html", "1.txt"), ("2.html", "2.txt"), ("a.html", "a.txt")]
    with pytest.raises(DetourageError):
        ncleaner.pairs_from_args([str(single_html)])
    with pytest.raises(DetourageError):
        ncleaner.pairs_from_args([str(tmp_path)])
    model = ncleaner.train_from_paths(pairs)
    assert model.provenance["pages"] == 3 and len(model.provenance["pairs"]) == 3


@pytest.mark.parametrize("nonlexical", [False, True])
def test_shipped_models_load(nonlexical: bool) -> None:
    model = ncleaner.load_model(None, nonlexical)
    assert model.nonlexical is nonlexical and model.order == 3
    assert "ids" in model.provenance and model.provenance["pages"] > 0
    labels = ncleaner.label(api.load(page(ARTICLE, MENU)), ncleaner.Options(nonlexical=nonlexical))
    assert Label.OTHER in labels.labels and any(lab.kept for lab in labels.labels)


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared datasets not present (/work/shared)")
def test_real_data_scores() -> None:
    from detourage.evaluation import metrics
    from detourage.gold import load_dataset
    from detourage.render import MARKERS, units

    docs = load_dataset(SHARED / "cleanportaleval").scorable[:10]
    f1 = []
    for doc in docs:
        p = api.load(doc.read_html())
        labels = ncleaner.label(p, ncleaner.Options())
        pred = [(MARKERS[u.kind], u.text) for u in units(p.blocks, labels.labels) if u.text]
        f1.append(metrics.cleaneval_scores(pred, list(doc.gold_blocks), metrics.Mode.TO).f1)
    assert sum(f1) / len(f1) > 0.6
