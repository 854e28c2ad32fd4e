"""Victor (seed 003): configuration, features, CRF training and tagging, cross-validation, CLI."""

from __future__ import annotations

import gzip
import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from detourage.api import extract, load
from detourage.cli import main
from detourage.model import Label
from detourage.victor import features, training
from detourage.errors import ConfigError, ModelError
from detourage.victor.config import ABLATIONS, Config, default
from detourage.errors import DetourageError
from detourage.victor.crf import Example, CRFModel, load_model, train, train_more
from detourage.crossval import assign_folds, crossval, setting_config, table
from detourage.victor.training import Sample

from conftest import DATASETS

P, H, L, C, O = Label.PARAGRAPH, Label.HEADER, Label.LIST, Label.CONTINUATION, Label.OTHER


def raw_of(html: str, config: Config | None = None) -> tuple[list[str], dict[str, np.ndarray]]:
    page = load(html)
    return [b.text for b in page.blocks], features.raw(page.blocks, config or default())


def column(html: str, name: str) -> list[float]:
    texts, raw = raw_of(html)
    return raw[name].tolist()


# ------------------------------------------------------------------ configuration


def test_config_arrays_append_and_regexps_take_whole_lines() -> None:
    config = Config.parse("container-tags: p a\ncontainer-tags: td\nregexp-url: a b c\nregexp-url: x\n"
                          "crf-features: container.p\nfeature-position-scale: 4\n")
    assert config.get("container-tags") == ("p", "a", "td")
    assert config.get("regexp-url") == ("a b c", "x")
    assert config.features == ("container.p",)


@pytest.mark.parametrize("text, message", [
    ("no colon here", ":1: expected 'variable: value'"),
    ("crf-features: container.zz", "unknown features container.zz"),
    ("regexp-url: (unclosed", ":1: bad regular expression"),
    ("crf-features: position", "feature 'position' has neither"),
])
def test_config_errors_say_where(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        Config.parse(text, "my.conf")


def test_default_config_has_seed_features_and_switchable_extra_group() -> None:
    config = default()
    assert len(setting_config(config, "seed").features) == 46  # seed 003: "~46 features"
    assert {"link.density", "classid.noise"} <= set(config.features)
    content = setting_config(config, "content-only").features
    markup = setting_config(config, "markup-only").features
    assert not any(f.startswith(("container.", "split.")) for f in content)
    assert not any(f.startswith(("char.", "token.", "sentence.")) for f in markup)
    assert set(ABLATIONS["exp3"]) > set(ABLATIONS["exp2"])


def test_templates_give_each_feature_offset_pair_once() -> None:
    config = Config.parse("crf-features: split.p split.br\nsplit-tags: p br\nfeature-split.p-values: 0 1\n"
                          "feature-split.br-values: 0 1 2\ncrf-template: * 0\ncrf-template: split.* 0 -1\n")
    cols = features.template_columns(config, config.features)
    assert cols == ((0, (0, 1)), (-1, (0, 1)))


# ------------------------------------------------------------------ features


def test_discretise_is_largest_threshold_at_or_below_and_scales_ratios() -> None:
    x = np.array([0, 1, 2, 4, 5, 100])
    assert features.discretise(x, "values", (0, 1, 3, 5)).tolist() == [0, 1, 1, 2, 3, 3]
    r = np.array([0.0, 0.09, 0.1, 0.55, 1.0])
    assert features.discretise(r, "scale", 10).tolist() == [0, 0, 1, 5, 9]


def test_container_and_split_features() -> None:
    html = "<body><p>one <a href=x>two</a></p><br><br>three<h2><i>four</i></h2></body>"
    texts, raw = raw_of(html)
    assert texts == ["one", "two", "three", "four"]
    assert raw["container.p"].tolist() == [1, 1, 0, 0]
    assert raw["container.a"].tolist() == [0, 1, 0, 0]
    assert raw["container.class-header"].tolist() == [0, 0, 0, 1]
    assert raw["container.class-italic"].tolist() == [0, 0, 0, 1]
    assert raw["split.br"].tolist()[2] == 2
    assert raw["split.p"].tolist()[2] == 1  # </p>


def test_char_token_and_sentence_features() -> None:
    html = "<p>Hello world. It is 2007, ok? x1 --</p>"
    texts, raw = raw_of(html)
    assert raw["char.count"][0] == len(texts[0])
    assert raw["char.num"][0] == 5  # 2007 and the 1 of x1
    assert raw["char.white"][0] == texts[0].count(" ")
    assert raw["token.alpha-abs"][0] == 5  # Hello world It is ok
    assert raw["token.num-abs"][0] == 1
    assert raw["token.mix-abs"][0] == 1
    assert raw["token.other-abs"][0] == 1
    assert raw["sentence.count"][0] == 2
    assert raw["sentence.begin"][0] == 1 and raw["sentence.end"][0] == 0
    assert raw["sentence.avg-length"][0] == pytest.approx(8 / 2)


def test_duplicates_count_letters_only_and_mark_the_first() -> None:
    html = "<p>Read more…</p><p>Story one.</p><p>read MORE</p><p>Story two.</p><p>Read more!</p>"
    assert column(html, "duplicate-count") == [3, 1, 3, 1, 3]
    assert column(html, "first-duplicate") == [1, 0, 0, 0, 0]


def test_regexp_features_number_the_first_matching_expression() -> None:
    html = ("<p>see www.example.org now</p><p>12 March 2007</p><p>2011-11-03</p>"
            "<p>at 10:45 pm</p><p>plain words</p>")
    assert column(html, "regexp.url") == [2, 0, 0, 0, 0]
    assert column(html, "regexp.date")[1:3] == [3, 1]
    assert column(html, "regexp.time") == [0, 0, 0, 1, 0]
    assert column(html, "regexp.date")[4] == 0


def test_bullet_is_a_bit_set_of_matching_patterns() -> None:
    values = column("<p>1. first</p><p>a) second</p><p>• third</p><p>plain</p>", "bullet")
    assert values[0] == 1 and values[1] == 2 and values[2] == 8 and values[3] == 0


def test_div_groups_follow_the_seed_example() -> None:
    # seed 003 §4.2: <div> a <div> b c </div> d <div> e f </div> g </div> → (a,d,g) (b,c) (e,f)
    html = "<body><div>a<div>b<i>c</i></div>d<div>e<i>f</i></div>g</div></body>"
    texts, raw = raw_of(html)
    assert texts == list("abcdefg")
    group = raw["div-group"].tolist()
    assert group[0] == group[3] == group[6]
    assert group[1] == group[2] != group[0]
    assert group[4] == group[5] not in (group[0], group[1])
    assert raw["div-group.word-ratio"].tolist() == pytest.approx([3 / 7, 2 / 7, 2 / 7, 3 / 7, 2 / 7, 2 / 7, 3 / 7])
    assert raw["document.max-div-group"][0] == pytest.approx(3 / 7)


def test_group_ratio_counts_only_words_outside_links() -> None:
    html = "<body><div><a href=x>menu one two</a></div><div>text words here now</div></body>"
    ratio = column(html, "div-group.word-ratio")
    assert ratio == [0.0, 1.0]


def test_position_and_document_counts() -> None:
    html = "<p>one. two.</p><p>three</p><p>four five</p><p>six</p>"
    texts, raw = raw_of(html)
    assert raw["position"].tolist() == [0, 0.25, 0.5, 0.75]
    assert set(raw["document.word-count"].tolist()) == {6}
    assert set(raw["document.sentence-count"].tolist()) == {2}
    assert set(raw["document.block-count"].tolist()) == {4}


def test_extra_group_link_density_and_class_id_tokens() -> None:
    html = ('<body><div class="nav-menu"><a href=x>Home</a></div>'
            '<div id="main-content"><p>The text of the story.</p></div></body>')
    texts, raw = raw_of(html)
    assert raw["link.density"].tolist() == [1.0, 0.0]
    assert raw["classid.noise"].tolist()[0] == 1
    assert raw["classid.content"].tolist() == [0, 1]


def test_features_of_an_empty_page() -> None:
    matrix = features.compute((), default())
    assert matrix.values.shape == (0, len(default().features))
    assert features.items(matrix, default()) == []


def test_items_carry_bias_offsets_and_only_nonzero_values() -> None:
    page = load("<p>one</p><p>two</p>")
    config = default()
    xseq = features.items(features.compute(page.blocks, config), config)
    assert len(xseq) == 2
    assert xseq[0][0] == "bias" and xseq[1][0] == "bias"
    assert any(a.startswith("+1:") for a in xseq[0]) and not any(a.startswith("-1:") for a in xseq[0])
    assert all(not a.endswith("=0") for item in xseq for a in item)


# ------------------------------------------------------------------ CRF


def synthetic_page(rng: random.Random, n: int) -> tuple[str, list[tuple[str, str]]]:
    """A page with a link menu, a headed article and a footer; and its gold."""
    words = "alpha beta gamma delta epsilon zeta theta iota kappa lambda sigma omega".split()

    def sentence() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(6, 14))).capitalize() + "."

    menu = "".join(f'<li><a href="/{i}">Menu {i}</a></li>' for i in range(rng.randint(3, 7)))
    title = f"Story number {n}"
    paras = [" ".join(sentence() for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(2, 5))]
    body = "".join(f"<p>{p}</p>" for p in paras)
    html = (f'<html><body><div class="nav"><ul>{menu}</ul></div><div class="story"><h1>{title}</h1>'
            f'{body}</div><div class="footer">© 2007 Company | <a href="/t">Terms</a></div></body></html>')
    return html, [("h", title), *(("p", p) for p in paras)]


def synthetic_dataset(root: Path, pages: int = 24, seed: int = 1) -> Path:
    rng = random.Random(seed)
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    with open(root / "meta.jsonl", "w") as meta:
        for i in range(pages):
            html, gold = synthetic_page(rng, i)
            (root / "html" / f"{i:03d}.html").write_text(html)
            (root / "gold" / f"{i:03d}.txt").write_text("".join(f"<{k}> {t}\n" for k, t in gold))
            meta.write(json.dumps({"id": f"{i:03d}", "lang": "en", "has_markup": True}) + "\n")
    return root


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synthetic_dataset(tmp_path_factory.mktemp("victor") / "synthetic")


@pytest.fixture(scope="module")
def material(dataset: Path) -> training.Material:
    return training.gather([dataset])


@pytest.fixture(scope="module")
def model(material: training.Material) -> CRFModel:
    examples = [Example(s.blocks, s.labels, s.name) for s in material.samples[:16]]
    return train(examples, default(), max_iterations=60)


def test_gather_labels_dataset_pages_from_gold(material: training.Material) -> None:
    assert len(material.samples) == 24 and not material.skipped
    sample = material.samples[0]
    assert sample.labels[0] is O  # the menu
    heading = [b.text for b, y in zip(sample.blocks, sample.labels) if y is H]
    assert heading == ["Story number 0"]
    assert all(r.coverage > 0.99 for r in material.reports)


def test_trained_model_cleans_unseen_pages(material: training.Material, model: CRFModel) -> None:
    for sample in material.samples[16:]:
        predicted = model.tag(sample.blocks)
        accuracy = sum(p is g for p, g in zip(predicted, sample.labels)) / len(predicted)
        assert accuracy >= 0.9, (sample.name, accuracy)


@pytest.mark.parametrize("compiled", [True, False])
def test_fast_tagger_equals_crfsuite(material: training.Material, model: CRFModel, compiled: bool,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    if not compiled:
        monkeypatch.setattr(features, "_compiled", None)
    for sample in material.samples:
        assert model.tag(sample.blocks) == model.tag_crfsuite(sample.blocks)


def test_model_file_round_trip_keeps_configuration(tmp_path: Path, material: training.Material) -> None:
    config = setting_config(default(), "exp3")
    examples = [Example(s.blocks, s.labels, s.name) for s in material.samples[:6]]
    trained = train(examples, config, max_iterations=20, provenance={"why": "test"})
    trained.save(tmp_path / "m.zip")
    loaded = CRFModel.load(tmp_path / "m.zip")
    assert loaded.config.features == config.features
    assert "regexp.url" not in loaded.config.features
    assert loaded.meta["provenance"] == {"why": "test"} and loaded.meta["pages"] == 6
    blocks = material.samples[7].blocks
    assert loaded.tag(blocks) == trained.tag(blocks)


def test_kept_training_pages_round_trip_and_retraining_equals_training_on_the_union(
        tmp_path: Path, material: training.Material) -> None:
    examples = [Example(s.blocks, s.labels, s.name) for s in material.samples]
    base = train(examples[:8], default(), max_iterations=30, keep_data=True)
    base.save(tmp_path / "base.zip")
    loaded = CRFModel.load(tmp_path / "base.zip")
    kept = loaded.training_data()
    assert kept is not None and kept.lengths.tolist() == [len(e.blocks) for e in examples[:8]]
    assert kept.labels == tuple(y for e in examples[:8] for y in e.labels)
    more = train_more(loaded, examples[8:12])
    union = train(examples[:12], default(), max_iterations=30)
    assert more.meta["base"]["pages"] == 8 and more.meta["pages"] == 4 and more.data is None
    assert more.meta["parameters"] == base.meta["parameters"]
    assert more.crf == union.crf  # the stored features are exactly the computed ones
    with pytest.raises(DetourageError, match="does not keep its training pages"):
        train_more(union, examples[12:14])


def test_bad_model_files_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "x.zip").write_bytes(b"not a zip")
    with pytest.raises(ModelError, match="not a Victor model"):
        CRFModel.load(tmp_path / "x.zip")
    with pytest.raises(ModelError, match="cannot read"):
        CRFModel.load(tmp_path / "missing.zip")


def test_shipped_model_loads_and_labels_a_page() -> None:
    model = load_model()
    assert model.meta["provenance"]["split"] == "train"
    kept = model.training_data()  # for `train victor --base default`
    assert kept is not None and len(kept.lengths) == model.meta["pages"]
    paragraphs = "".join(f"<p>Paragraph {i} has a long sentence of the article that goes on. " * 3 + "</p>"
                         for i in range(5))
    result = extract("<html><body><ul><li><a href=/a>Home</a></li><li><a href=/b>News</a></li></ul>"
                     f"<h1>Title of the story</h1>{paragraphs}<div class=footer>© 2020 The Company</div>"
                     "</body></html>", method="victor")
    assert "Title of the story" in result
    assert all(f"Paragraph {i} has" in result for i in range(5))


def test_shipped_model_fast_path_equals_crfsuite_on_shared_pages() -> None:
    folder = DATASETS / "l3s-gn1" / "html"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent (the shared data folder is not beside the repo)")
    model = load_model()
    for path in sorted(folder.iterdir())[:25]:
        blocks = load(path.read_bytes()).blocks
        assert model.tag(blocks) == model.tag_crfsuite(blocks), path.name


# ------------------------------------------------------------------ cross-validation


def test_folds_are_seeded_and_stratified_by_dataset() -> None:
    samples = [Sample(f"{d}/{i}", d, "en", (), (), ()) for d in "ab" for i in range(12)]
    folds = assign_folds(samples, 3, seed=4)
    assert folds == assign_folds(samples, 3, seed=4)
    for d in "ab":
        mine = [f for s, f in zip(samples, folds) if s.dataset == d]
        assert sorted(mine.count(k) for k in range(3)) == [4, 4, 4]


def test_crossval_scores_every_page_once_per_setting(material: training.Material) -> None:
    outcomes = crossval(material.samples, default(), folds=3, settings=("none", "markup-only"),
                        train_options={"max_iterations": 30})
    assert len(outcomes) == 2 * len(material.samples)
    rows = table(outcomes, ("setting",))
    assert [r["setting"] for r in rows] == ["markup-only", "none"]
    full = rows[1]
    assert full["acc_full"] > 85 and full["acc_content_noise"] >= full["acc_full"]
    assert full["to_f1"] > 90


def test_crossval_reports_each_fold_and_keeps_the_order_with_workers(material: training.Material) -> None:
    lines: list[str] = []
    kwargs = {"folds": 3, "train_options": {"max_iterations": 20}}
    alone = crossval(material.samples, default(), **kwargs)
    pooled = crossval(material.samples, default(), workers=2, progress=lines.append, **kwargs)
    assert [(o.name, o.fold, o.to) for o in pooled] == [(o.name, o.fold, o.to) for o in alone]
    assert len(lines) == 3 and all(line.startswith("fold ") and " of none: " in line for line in lines)
    assert sorted(line.rsplit("; ", 1)[1] for line in lines) == [f"{n} of 3 runs done" for n in (1, 2, 3)]


def test_crossval_with_a_base_scores_it_as_is_and_retrained(material: training.Material) -> None:
    examples = [Example(s.blocks, s.labels, s.name) for s in material.samples[:6]]
    base = train(examples, default(), max_iterations=20, keep_data=True)
    samples = material.samples[6:12]
    outcomes = crossval(samples, default(), folds=2, base=base)
    assert sorted({o.setting for o in outcomes}) == ["base", "base+pages"]
    for o in outcomes:
        sample = next(s for s in samples if s.name == o.name)
        if o.setting == "base":
            assert o.correct == sum(p is g for p, g in zip(base.tag(sample.blocks), sample.labels))
    assert len(outcomes) == 12


def test_unknown_ablation_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown ablation 'bogus'"):
        setting_config(default(), "bogus")


# ------------------------------------------------------------------ command line


def test_cli_train_then_extract_with_the_model(tmp_path: Path, dataset: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "genre.zip"
    result = runner.invoke(main, ["train", "victor", str(dataset), "-o", str(out), "--max-iterations", "30"])
    assert result.exit_code == 0, result.output
    assert out.exists() and "trained victor on 24 pages" in result.output
    page = dataset / "html" / "003.html"
    result = runner.invoke(main, ["extract", str(page), "-m", "victor", "--model", str(out)])
    assert result.exit_code == 0, result.output
    assert "Story number 3" in result.output and "Menu" not in result.output


def test_cli_train_with_a_base_model_adds_its_pages(tmp_path: Path, dataset: Path) -> None:
    runner = CliRunner()
    base, genre = tmp_path / "base.zip", tmp_path / "genre.zip"
    result = runner.invoke(main, ["train", "victor", str(dataset), "-o", str(base), "--limit", "10",
                                  "--max-iterations", "30", "--keep-data"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["train", "victor", str(dataset), "-o", str(genre), "--base", str(base)])
    assert result.exit_code == 0, result.output
    assert f"trained victor on 24 pages + the 10 pages of {base}" in result.output
    assert CRFModel.load(genre).meta["parameters"]["max_iterations"] == 30
    result = runner.invoke(main, ["train", "victor", str(dataset), "-o", str(genre), "--base", str(base),
                                  "--c2", "1"])
    assert result.exit_code == 2 and "--c2: with --base the base model's settings are used" in result.output
    result = runner.invoke(main, ["train", "victor", str(dataset), "-o", str(genre), "--base", str(genre)])
    assert result.exit_code == 2 and "does not keep its training pages" in result.output
    result = runner.invoke(main, ["crossval", "victor", str(dataset), "--base", str(base), "--folds", "2",
                                  "--by", "all"])
    assert result.exit_code == 0, result.output
    assert "| base | 24 |" in result.output and "| base+pages | 24 |" in result.output
    # progress on standard error: one line per fold and setting (issue 18 item 7)
    assert "detourage: crossval: 24 pages, 4 runs" in result.stderr
    assert "crossval: fold 2/2 of base+pages: 12 pages in " in result.stderr
    assert "4 of 4 runs done" in result.stderr and "| base |" not in result.stderr
    result = runner.invoke(main, ["crossval", "victor", str(dataset), "--base", str(base),
                                  "--ablation", "seed"])
    assert result.exit_code == 2 and "--ablation: with --base" in result.output


def test_cli_crossval_prints_table(dataset: Path) -> None:
    result = CliRunner().invoke(main, ["crossval", "victor", str(dataset), "--folds", "2",
                                       "--max-iterations", "20", "--by", "all"])
    assert result.exit_code == 0, result.output
    assert "| none | 24 |" in result.output


def test_cli_anno_round_trip_trains(tmp_path: Path, dataset: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["anno", str(dataset), "-o", str(tmp_path / "anno")])
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "anno").glob("*.anno"))
    assert len(files) == 24
    gathered = training.gather([tmp_path / "anno"])
    from_gold = training.gather([dataset])
    assert [s.labels for s in gathered.samples] == [s.labels for s in from_gold.samples]
    result = runner.invoke(main, ["train", "victor", str(tmp_path / "anno"), "-o", str(tmp_path / "m.zip"),
                                  "--max-iterations", "20"])
    assert result.exit_code == 0, result.output


def test_anno_of_gzipped_pages_trains(tmp_path: Path, dataset: Path) -> None:
    """.anno files of .html.gz pages (wcxb-dev) are trained on, not skipped as mismatches."""
    gz = tmp_path / "gz"
    shutil.copytree(dataset, gz)
    for page in sorted((gz / "html").glob("*.html")):
        page.with_name(page.name + ".gz").write_bytes(gzip.compress(page.read_bytes()))
        page.unlink()
    result = CliRunner().invoke(main, ["anno", str(gz), "-o", str(tmp_path / "anno")])
    assert result.exit_code == 0, result.output
    assert ".html.gz" in (tmp_path / "anno" / "003.anno").read_text(encoding="utf-8")
    gathered = training.gather([tmp_path / "anno"])
    assert gathered.skipped == [] and len(gathered.samples) == 24
    from_gold = training.gather([dataset])
    assert [s.labels for s in gathered.samples] == [s.labels for s in from_gold.samples]


def test_cli_rejects_inputs_that_are_not_training_material(tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("hi")
    result = CliRunner().invoke(main, ["train", "victor", str(tmp_path / "x.txt"), "-o", str(tmp_path / "m")])
    assert result.exit_code == 2 and "neither a dataset folder" in result.output


# ------------------------------------------------------------------ compiled twins


def _partition(ids: np.ndarray) -> list[int]:
    """Group ids renumbered by first appearance (0 stays 0: no group)."""
    seen: dict[int, int] = {0: 0}
    return [seen.setdefault(int(i), len(seen)) for i in ids]


def _pages_for_twins() -> list[str | bytes]:
    pages: list[str | bytes] = [
        "<body><div>a<div>b<i>c</i></div>d<div>e<i>f</i></div>g</div></body>",
        '<table><tr><td class="menu">x <a href=1>y</a></td><th id="content">z</th></tr></table>',
        '<div class="a&amp;b nav_bar"><p>t</p><div id="post-body">u<br>v</div></div>',
    ]
    folder = DATASETS / "daniel" / "html"
    if folder.is_dir():
        pages += [p.read_bytes() for p in sorted(folder.iterdir())[:40:4]]
    return pages


@pytest.mark.skipif(features._compiled is None, reason="the compiled _cvictor is not built")
@pytest.mark.parametrize("index", range(len(_pages_for_twins())))
def test_compiled_groups_equal_the_python_reference(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    page = load(_pages_for_twins()[index])
    compiled = features.raw(page.blocks, default())
    monkeypatch.setattr(features, "_compiled", None)
    python = features.raw(page.blocks, default())
    for name in compiled:
        if name in ("div-group", "td-group"):
            assert _partition(compiled[name]) == _partition(python[name]), name
        else:
            assert compiled[name].tolist() == python[name].tolist(), name


TRICKY_TEXTS = ["", " ", "Hello, world!", "«Quoted.» next", "a..b c?!", "(12:30) -5% +3,5 x2y",
                "1/2/2007.", "end…", "他说。然后！", "ÉCOLE été Ⅻ ² ½", "‘quote’", "word'", "U.S.A. 3.",
                "\u00a0", "\U0001F600 emoji", "__init__ -- --x-- 42-", "Ⅳ. item"]


@pytest.mark.skipif(features._compiled is None, reason="the compiled _cvictor is not built")
def test_compiled_scan_equals_the_python_reference() -> None:
    stopwords = frozenset({"the", "été", "word"})
    texts = TRICKY_TEXTS + [b.text for page in _pages_for_twins() for b in load(page).blocks]
    table, keys = features._compiled.scan(texts, stopwords, features._strip_table())
    for i, text in enumerate(texts):
        *row, key = features.scan(text, stopwords)
        assert (table[i].tolist(), keys[i]) == (row, key), text


@pytest.mark.skipif(features._compiled is None, reason="the compiled _cvictor is not built")
def test_compiled_viterbi_equals_the_python_reference() -> None:
    from detourage.victor.crf import _best_path

    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 300):
        scores, trans = rng.normal(size=(n, 5)), rng.normal(size=(5, 5))
        assert features._compiled.best_path(scores, trans) == _best_path(scores, trans)
