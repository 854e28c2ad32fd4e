"""benchmarks/learned_lodo.py --compare: two runs' rows and the pages that moved."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _bench(name: str):  # type: ignore[no-untyped-def]
    """The script ``benchmarks/NAME.py`` (``studies/NAME`` for a study) as a module, with
    benchmarks/ on the path for its imports, as when it runs."""
    sys.path.insert(0, str(BENCH))
    path = BENCH / f"{name}.py"
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lodo():  # type: ignore[no-untyped-def]
    return _bench("learned_lodo")


def _run(path: Path, f1: float, pages: dict[str, float], met: bool, no_wcxb: float = 0.0) -> Path:
    rows = [{"rows": "daniel", "learned": {"shingle_f1": f1}, "bar_met": met},
            {"rows": "wcxb-dev", "learned": {"shingle_f1": 0.1}, "learned (host folds)": {"shingle_f1": f1 + 0.1},
             "bar_met": False}]
    def record(dataset: str, page: str, method: str, p: float) -> dict:
        tp = round(100 * p)  # precision = recall = p
        return {"dataset": dataset, "id": page, "lang": "en", "method": method, "shingle_p": p, "shingle_r": p,
                "shingle_tp": tp, "shingle_fp": 100 - tp, "shingle_fn": 100 - tp}

    records = [record("daniel", i, "learned", p) for i, p in pages.items()]
    records += [record("wcxb-dev", "w", "learned", no_wcxb), record("wcxb-dev", "w", "learned (host folds)", 0.9)]
    path.write_text(json.dumps({"rows": rows, "records": records}))
    return path


def test_compare_reads_the_judged_column_and_counts_moved_pages(tmp_path):
    a = _run(tmp_path / "a.json", 0.8, {"1": 0.9, "2": 0.5, "3": 0.7}, True)
    b = _run(tmp_path / "b.json", 0.6, {"1": 0.9, "2": 0.1, "3": 0.75}, False, no_wcxb=0.1)
    lines = _lodo().compare([a, b]).splitlines()
    # wcxb-dev is judged by its host folds (0.9), not by the run that never saw it (0.1)
    assert lines[0] == "a.json: rows met 1/2, mean of the rows 0.8500 | 0.800 0.900"
    assert lines[1] == "b.json: rows met 0/2, mean of the rows 0.6500 | 0.600 0.700"
    # page 2 moved by 0.4, page 3 by 0.05; the wcxb page is read from its host-fold record
    assert lines[2] == "b.json against a.json: 2 of 4 pages changed (1 up, 1 down), 1 by more than 0.1"
    assert lines[3] == "    daniel 2: 0.500 -> 0.100"
    # then each row's change with its paired interval: daniel's pages 0.5 -> 0.1 and 0.7 -> 0.75
    table = "\n".join(lines[4:])
    assert "| row | pages | b.json − a.json [95 % interval] |" in table
    assert "| daniel | 3 | -0.117 [" in table and "| wcxb-dev | 1 | +0.000 [+0.000, +0.000] |" in table
    # and wcxb-dev as the model that never saw a WCXB page cleans it (0.0 -> 0.1)
    assert "| wcxb-dev, no WCXB page | 1 | +0.100 [+0.100, +0.100] |" in table
    # --moved 0 lists every page that changed, the largest loss first
    every = _lodo().compare([a, b], moved_by=0).splitlines()
    assert every[2] == "b.json against a.json: 2 of 4 pages changed (1 up, 1 down), 2 by more than 0"
    assert every[3:5] == ["    daniel 2: 0.500 -> 0.100", "    daniel 3: 0.700 -> 0.750"]
    # records written before the evaluation counted words have no word F1 rows
    assert "(word F1)" not in table


def test_word_f1_rows_follow_when_the_records_count_words(tmp_path):
    module = _lodo()
    runs = [_run(tmp_path / "a.json", 0.8, {"1": 0.9, "2": 0.5}, True),
            _run(tmp_path / "b.json", 0.8, {"1": 0.9, "2": 0.1}, True)]
    for path, words in zip(runs, ({"1": 0.8, "2": 0.6}, {"1": 0.8, "2": 0.2})):
        data = json.loads(path.read_text())
        for r in data["records"]:
            r["word_f1"] = words.get(r["id"], 0.5)
        path.write_text(json.dumps(data))
    table = module.compare(runs)
    # the mean of the pages' word F1 moved by (0.2 - 0.6) / 2, every resample alike on page 2
    assert "| daniel (word F1) | 2 | -0.200 [-0.400, +0.000] |" in table
    ours = [{"dataset": "d", "id": str(i), "word_f1": 0.9} for i in range(20)]
    theirs = [{"dataset": "d", "id": str(i), "word_f1": 0.8 + 0.01 * (i % 3)} for i in range(20)]
    diff, (low, high) = module.word_paired(ours, theirs)
    assert diff == pytest.approx(0.09, abs=0.001) and 0.08 <= low <= diff <= high <= 0.1
    # the report's second table: the same rows in word F1, beside trafilatura
    records = []
    for method, f1 in (("learned", 0.9), ("boilerpipe", 0.7), ("peer-trafilatura", 0.8), ("peer-readability", 0.6)):
        records += [{"dataset": "daniel", "id": str(i), "lang": lang, "method": method, "ok": True, "word_f1": f1,
                     "shingle_tp": 9, "shingle_fp": 1, "shingle_fn": 1, "to_matched": 9, "to_pred": 10,
                     "to_gold": 10, "car_matched": 9, "car_pred": 10, "car_gold": 10}
                    for i, lang in enumerate(("en", "zh"))]
    text, _ = module.report(records, {})
    assert "| rows (word F1) | pages | learned | boilerpipe | peer-trafilatura | peer-readability |" in text
    assert "| daniel/en | 1 | 0.900 | 0.700 | 0.800 | 0.600 | +0.100 [+0.100, +0.100] |" in text
    assert "daniel/zh" not in text.split("rows (word F1)")[1]  # \w+ runs of Chinese are no words


def test_stability_fits_a_fold_twice_and_counts_what_moved(tmp_path, monkeypatch, capsys):
    """benchmarks/studies/learned_stability.py on a small set: the fold and its refit without one
    training page, the held-out decisions compared."""
    import dataclasses

    import pytest

    pytest.importorskip("sklearn")
    from test_learned import _dataset

    from detourage.learned import train

    stability = _bench("studies/learned_stability")
    pages = train.collect([_dataset(tmp_path / "ds")])
    pages = [dataclasses.replace(p, dataset="daniel" if i < 3 else "l3s-gn1") for i, p in enumerate(pages)]
    monkeypatch.setattr(stability, "dataset_paths", lambda: [])
    monkeypatch.setattr(stability, "load_pages", lambda paths, workers: pages)
    params = '{"max_iter": 5, "min_samples_leaf": 2}'
    assert stability.main(["--fold", "daniel", "--drop", "1", "--params", params, "--workers", "1"]) == 0
    row = capsys.readouterr().out.splitlines()[-1].split(" | ")
    held = sum(len(p.y) for p in pages if p.dataset == "daniel")
    assert row[0] == "| daniel" and row[1] == "3" and row[2] == str(held)
    assert 0 <= int(row[3].split()[0]) <= held
    with pytest.raises(SystemExit):
        stability.main(["--fold", "nowhere", "--workers", "1"])


def test_reuse_reads_each_folds_saved_model_and_names_the_missing_ones(tmp_path):
    import pytest
    from test_learned import _constant_forest

    from detourage.learned import features
    from detourage.learned.forest import Model

    lodo = _lodo()
    plan = [("daniel", [], set()), ("wcxb-dev/hosts0", [], set())]
    one_leaf = _constant_forest(0.0)
    Model(one_leaf, features.names(), 0.5, {"name": "saved"}).save(str(tmp_path / "daniel.zip"))
    with pytest.raises(SystemExit, match="wcxb-dev-hosts0.zip"):
        lodo._saved_folds(plan, tmp_path, None, str(tmp_path))
    Model(one_leaf, features.names(), 0.5, {"name": "saved"}).save(str(tmp_path / "wcxb-dev-hosts0.zip"))
    assert lodo._saved_folds(plan, tmp_path, None, "") == [(str(tmp_path / "daniel.zip"), 0.0),
                                                           (str(tmp_path / "wcxb-dev-hosts0.zip"), 0.0)]
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    copies = lodo._saved_folds(plan, tmp_path, 0.45, str(scratch))  # copies deciding at 0.45
    assert [Path(path).parent for path, _ in copies] == [scratch, scratch]
    assert [Model.from_bytes(Path(path).read_bytes(), path).threshold for path, _ in copies] == [0.45, 0.45]
    assert Model.from_bytes((tmp_path / "daniel.zip").read_bytes(), "saved").threshold == 0.5  # left alone
    with pytest.raises(SystemExit):  # --reuse without --models
        lodo.main(["--reuse", "--report", str(tmp_path / "none.json")])
    with pytest.raises(SystemExit):  # --threshold without --reuse
        lodo.main(["--threshold", "0.4", "--report", str(tmp_path / "none.json")])


def test_a_fold_is_fitted_on_one_thread_in_a_fresh_process():
    """threadpool_limits only limits the libraries already loaded: scikit-learn's OpenMP
    runtime was loaded inside the fit, after the limit, and each fold then ran on every
    core beside the other worker's (a full run took 6 298 s; 2 758 s once limited)."""
    import subprocess
    import textwrap

    import pytest

    pytest.importorskip("sklearn")
    script = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(BENCH)!r})
        import learned_lodo
        from detourage.learned import train
        assert "sklearn.ensemble" not in sys.modules
        seen = {{}}
        class Saved:
            def save(self, path):
                pass
        def fit(pages, params, meta, stacked):
            from threadpoolctl import threadpool_info
            seen["openmp"] = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "openmp"]
            return Saved()
        train.fit = fit
        learned_lodo._fit_fold(("fold", [], {{}}, True, "unused.zip"))
        print(json.dumps(seen))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["openmp"] and set(seen["openmp"]) == {1}


def test_train_learned_labels_once_then_reads_the_cache_until_the_gold_changes(tmp_path, capsys):
    """benchmarks/train_learned.py labels through train.collect, as `detourage train learned`
    does, with the cache: read while current, relabelled and rewritten when a gold file changes."""
    from test_learned import _dataset

    from detourage.learned import train

    module = _bench("train_learned")
    folder, cache = _dataset(tmp_path / "ds"), tmp_path / "cache" / "pages.pkl"
    first = module.load_pages([folder], workers=1, cache=cache)
    assert cache.is_file() and "labelled 8 pages" in capsys.readouterr().err
    again = module.load_pages([folder], workers=1, cache=cache)
    assert capsys.readouterr().err == "" and [p.id for p in again] == [p.id for p in first]
    train.collect([folder], cache=cache, split="train")  # another split: another key, the cache rewritten
    module.load_pages([folder], workers=1, cache=cache)
    assert "labelled 8 pages" in capsys.readouterr().err
    (folder / "gold" / "p0.txt").write_text("Storm.\n", encoding="utf-8")
    module.load_pages([folder], workers=1, cache=cache)
    assert "labelled" in capsys.readouterr().err


def test_the_labelled_pages_cache_key_follows_every_module_loading_reaches(tmp_path, monkeypatch):
    """The key reads the whole package: reveal.py and the compiled walk's .pyx change what a
    page's blocks are without being in loading.load or segment.py (they were not keyed
    before, so a cache outlived a change to them)."""
    from detourage import loading
    from detourage.learned import train

    root = Path(loading.__file__).parent
    source = train._package_source(root)
    assert (root / "reveal.py").read_text(encoding="utf-8") in source
    pyx = root / "_csegment.pyx"
    if pyx.is_file():  # a source tree (an installed package ships the compiled module alone)
        assert pyx.read_text(encoding="utf-8") in source
    assert (root / "learned" / "features" / "__init__.py").read_text(encoding="utf-8") in source
    key = train._cache_key([], None)
    monkeypatch.setattr(train, "_package_source", lambda root: source + "# an edit to reveal.py\n")
    assert train._cache_key([], None) != key


def test_gold_conventions_shares_what_gold_keeps_of_bylines_captions_and_titles():
    module = _bench("studies/gold_conventions")
    import numpy as np

    from detourage.learned import features, train

    names = features.names()
    X = np.full((5, len(names)), 99.0, np.float32)
    X[:, names.index("is_title")] = 0
    X[0, names.index("dist_meta")] = 0  # a byline the gold keeps
    X[1, names.index("dist_meta")] = 1  # a date in the byline's box, left out
    X[2, names.index("dist_media")] = 0  # a caption, left out
    # row 3: the body, long and in no such region
    X[4, names.index("is_title")] = 1  # the title: L3S-GN1 keeps it, WCXB does not
    chars = np.array([20, 30, 50, 900, 40])
    spans, structure = np.zeros((features.LEVELS, 2, 5), np.int32), np.zeros(5, np.int32)
    page = train.PageData("l3s-gn1", "1", "en", "article", "example.org", X,
                          np.array([True, False, False, True, True]), chars, spans, structure)
    wcxb = train.PageData("wcxb-dev", "2", "en", "forum", "example.org", X, np.array([False] * 5), chars,
                          spans, structure)
    table = module.shares([page, wcxb])
    assert table["l3s-gn1"] == {"meta": (0.4, 50), "media": (0.0, 50), "title": (1.0, 40)}
    assert table["wcxb-dev/forum"]["meta"] == (0.0, 50) and table["wcxb-dev/forum"]["title"] == (0.0, 40)


def test_title_distance_puts_the_gold_in_bands_from_the_title():
    module = _bench("studies/title_distance")
    import numpy as np

    from detourage.learned import features, train

    names = features.names()
    n = 40
    X = np.zeros((n, len(names)), np.float32)
    X[2, names.index("is_title")] = 1  # two menu lines, the title, a story of 37 paragraphs
    y = np.zeros(n, bool)
    y[3:] = True
    y[35:] = False  # the last five: a footer
    spans, structure = np.zeros((features.LEVELS, 2, n), np.int32), np.zeros(n, np.int32)
    page = train.PageData("daniel", "1", "en", "article", "example.org", X, y, np.full(n, 50), spans, structure)
    untitled = train.PageData("wcxb-dev", "2", "en", "forum", "example.org", np.zeros((3, len(names)), np.float32),
                              np.array([True, False, True]), np.full(3, 50), spans[:, :, :3], structure[:3])
    table = module.bands([page, untitled])
    assert table["daniel"] == {"before": (0, 3), "1-5": (5, 5), "6-30": (25, 25), ">30": (2, 7)}
    assert table["wcxb-dev/forum"] == {"no title": (2, 3)}


def test_the_peer_cache_is_kept_for_the_code_and_pages_that_wrote_it(tmp_path, monkeypatch):
    lodo = _bench("learned_lodo")
    from detourage.gold import load_dataset

    root = tmp_path / "ds"
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    (root / "html" / "1.html").write_text("<html><body><p>A page of text, long enough to score.</p></body></html>")
    (root / "gold" / "1.txt").write_text("A page of text, long enough to score.")
    datasets = {"ds": load_dataset(root)}
    key = lodo.peer_cache_key(datasets)
    assert key == lodo.peer_cache_key(datasets)
    (root / "gold" / "1.txt").write_text("A page of text, long enough to score, and more.")
    assert lodo.peer_cache_key({"ds": load_dataset(root)}) != key  # other gold, other records
    calls = []
    monkeypatch.setattr(lodo, "PEER_CACHE", tmp_path / "peers.jsonl")
    monkeypatch.setattr(lodo, "evaluate", lambda sets, methods, workers: calls.append(1) or type(
        "Run", (), {"pages": [{"dataset": "ds", "id": "1", "method": m} for m in methods]})())
    datasets = {"ds": load_dataset(root)}
    assert len(lodo.peer_records(datasets, 1, True)) == len(lodo.PEERS) and len(calls) == 1
    assert len(lodo.peer_records(datasets, 1, True)) == len(lodo.PEERS) and len(calls) == 1  # from the cache
    monkeypatch.setattr(lodo, "peer_cache_key", lambda sets: "written by other code")
    lodo.peer_records(datasets, 1, True)
    assert len(calls) == 2  # a cache another code wrote is not read


def test_learned_profile_times_every_step_without_changing_the_output(monkeypatch):
    from types import SimpleNamespace

    from detourage.api import extract

    module = _bench("learned_profile")
    page = ("<html><head><title>Mills of the valley</title></head><body><nav><a href=/>Home</a></nav>"
            "<h1>Mills of the valley</h1>" + "<p>Volunteers walked the valley in 2026, and found the mills, "
            "one after the other, long forgotten.</p>" * 6 + "<footer>© 2026 Example</footer></body></html>")
    expected = extract(page, method="learned", format="txt")
    ms = module.profile([SimpleNamespace(data=page.encode())] * 3, warmup=1, patch=monkeypatch.setattr)
    assert set(module.ORDER) <= set(ms) and all(len(ms[k]) == 3 for k in module.ORDER)
    for i in range(3):  # the parts stay within their wholes
        assert ms["features"][i] + ms["forests"][i] + ms["units"][i] <= ms["learned"][i]
        assert sum(ms[k][i] for k in module.PASSES) <= ms["features"][i]
    assert "| f:regions |" in module.table(ms)
    assert extract(page, method="learned", format="txt") == expected  # wrapped, the same text
    monkeypatch.undo()
    from detourage.learned import features

    assert features.compute.__name__ == "compute"  # the wrappers are gone


def test_learned_profile_repeats_keep_each_step_fastest(monkeypatch):
    from types import SimpleNamespace

    from detourage import api

    module = _bench("learned_profile")
    page = SimpleNamespace(data=b"<html><body><h1>Title here</h1><p>A sentence of the article, long enough.</p></body></html>")
    loads = []
    monkeypatch.setattr(api, "load", lambda data, _load=api.load: loads.append(data) or _load(data))
    ms = module.profile([page], warmup=0, patch=monkeypatch.setattr, repeat=3)
    assert len(loads) == 3  # the page run three times, one figure kept per step
    assert all(len(ms[k]) == 1 for k in ("parse-only", "load", "learned", "features"))
    assert ms["parse-only"][0] > 0 and ms["load"][0] > 0
    assert "(load + learned) / parse-only" in module.table(ms)


def test_speed_ab_alternates_trees_and_reports_medians(monkeypatch, tmp_path, capsys):
    module = _bench("speed_ab")
    seen = []

    def fake(src, method, sample, out):  # type: ignore[no-untyped-def]
        seen.append(src)
        return 3.0 + len(seen) / 10

    monkeypatch.setattr(module, "ratio", fake)
    before = tmp_path / "src"
    (before / "detourage").mkdir(parents=True)
    assert module.main(["--before", str(before), "--rounds", "2"]) == 0
    assert seen == [before.resolve(), module.SOURCE] * 2  # alternating, the other tree first
    out = capsys.readouterr().out
    assert "| before" in out and "3.20×" in out and "| this" in out and "3.30×" in out
    assert module.main(["--before", str(tmp_path / "nothing")]) == 2


def test_twins_compares_every_compiled_pass_with_its_twin(monkeypatch, tmp_path, capsys):
    import pytest

    from detourage.learned import features, rules

    if rules.ancestors._csteps is None or features.tree._cfeatures is None:
        pytest.skip("the compiled modules are not built")
    module = _bench("twins")
    folder = tmp_path / "datasets" / "mini"
    folder.mkdir(parents=True)
    head = ("<html><head><title>Mills</title><meta property='og:title' content='Mills'>"
            "<script type='application/ld+json'>{\"@type\": \"NewsArticle\"}</script></head><body>")
    (folder / "a.html").write_text(head + "<h1>Mills</h1>" + "<p>Volunteers walked the valley and found the mills, "
                                   "one after the other, long forgotten by all.</p>" * 5
                                   + "<figure><img src='https://example.org/a.jpg' width=900 height=600></figure>"
                                   + "<p>Walter Gibbs contributed reporting.</p></body></html>")
    (folder / "b.html").write_text("<html><body><p>One short page of text, and nothing else at all.</p></body></html>")
    assert module.main(["--datasets", str(tmp_path / "datasets"), "--repeat", "1"], patch=monkeypatch.setattr) == 0
    out = capsys.readouterr().out
    for name in module.PASSES:
        assert f"| {name} | 2 | 0 |" in out, out
    assert "Verdict: PASS" in out


def test_features_digest_names_the_pages_that_changed():
    module = _bench("features_digest")
    before = {"a/1": {"features": "x", "labels": "y"}, "a/2": {"features": "x", "labels": "y"}}
    after = {"a/1": {"features": "x", "labels": "y"}, "a/2": {"features": "z", "labels": "y"}, "b/1": {}}
    assert module.compare(before, after) == ["features: 1 of 2 pages differ: a/2", "labels: 0 of 2 pages differ",
                                             "1 pages in one run only"]
    page = "<html><body><p>" + "Words of a page, long enough to keep. " * 8 + "</p></body></html>"
    one = module.digests([("t/1", page.encode())], "learned")
    assert one == module.digests([("t/1", page.encode())], "learned")  # the same page, the same digests
    longer = page.replace("</p>", "</p><p>One more line.</p>")  # one paragraph more: other features
    assert one["t/1"]["features"] != module.digests([("t/1", longer.encode())], "learned")["t/1"]["features"]


def test_every_step_can_be_left_out_and_returns_what_finds_nothing(monkeypatch) -> None:
    """--without replaces a step by a no-op returning what the step returns when it finds
    nothing (its return annotation says which), every step of ``rules.apply`` can be
    left out so, and the replacement reaches the method."""
    import inspect

    from detourage.learned import rules

    lodo = _lodo()
    steps = {n for n in dir(rules) if n.startswith(("drop_", "keep_", "whole_", "fall_", "lower_"))}
    assert steps == set(lodo.ABLATABLE)
    for name in lodo.ABLATABLE:
        assert str(inspect.signature(getattr(rules, name)).return_annotation) in lodo._FOUND_NOTHING, name
    comments = rules.drop_comments
    monkeypatch.setattr(rules, "drop_comments", comments)
    lodo._leave_out(["drop_comments"])
    assert rules.drop_comments() == {} and rules.drop_comments() is not rules.drop_comments()
    cards = rules.keep_whole_cards
    monkeypatch.setattr(rules, "keep_whole_cards", cards)
    lodo._leave_out(["keep_whole_cards"])
    assert rules.keep_whole_cards(None, None, None, None, None) == 0
    step = rules.keep_figures
    monkeypatch.setattr(rules, "keep_figures", step)  # restored after the test
    lodo._leave_out(["keep_figures"])
    assert rules.keep_figures is not step and rules.keep_figures(None, None, None, None) is None


def test_page_shows_a_held_out_page_line_by_line_with_its_fold_s_model(tmp_path, monkeypatch):
    """--page DATASET:ID: each paragraph with the probability its fold's model gives (the
    host fold's on wcxb-dev), K where the learned method keeps it, G where the gold holds it."""
    import pytest
    from test_learned import _dataset
    from test_learned_steps import ONLY_LONG

    lodo = _lodo()
    root = _dataset(tmp_path / "wcxb-dev")
    monkeypatch.setattr(lodo, "dataset_paths", lambda: [root])
    folds = tmp_path / "folds"
    folds.mkdir()
    with pytest.raises(SystemExit, match="wcxb-dev-hosts.*is missing"):
        lodo.show_pages(["wcxb-dev:p0"], folds)
    fold = f"wcxb-dev-hosts{lodo.host_fold('news0.example')}"
    ONLY_LONG.save(str(folds / f"{fold}.zip"))
    head, *lines = lodo.show_pages(["wcxb-dev:p0"], folds).splitlines()
    assert head.startswith(f"==> wcxb-dev:p0 (model {fold};")
    marks = {line[9:]: (float(line[:4]), line[5], line[7]) for line in lines}
    long = [text for text in marks if len(text) > 100]
    assert long and all(marks[text][:2] == (1.0, "K") for text in long)  # log-odds 9: kept
    # the headline the model rejects is kept all the same (the title step); the other short lines are not
    assert marks["Storm floods the old harbour"][:2] == (0.0, "K")
    assert all(marks[text][:2] == (0.0, " ") for text in marks if len(text) <= 100 and "Storm" not in text)
    gold = [text for text in marks if "storm" in text.lower() or "mayor" in text.lower()]
    assert gold and all(marks[text][2] == "G" for text in gold)
    assert all(marks[text][2] == " " for text in marks if text not in gold)
    with pytest.raises(SystemExit, match="has no page 'nope'"):
        lodo.show_pages(["wcxb-dev:nope"], folds)
    with pytest.raises(SystemExit, match="no dataset 'daniel'"):
        lodo.show_pages(["daniel:p0"], folds)


def test_without_urls_the_held_out_pages_keep_their_metadata_but_the_url(tmp_path):
    from test_learned import _dataset

    from detourage.gold import load_dataset

    lodo = _lodo()
    dataset = load_dataset(_dataset(tmp_path / "wcxb-dev"))
    fold = f"wcxb-dev/hosts{lodo.host_fold('news0.example')}"
    held = lodo.held_out(dataset, fold)  # chosen by their URLs' hosts
    assert held and all(d.meta.get("url") for d in held)
    bare = lodo.without_urls(held)
    assert [d.id for d in bare] == [d.id for d in held] and all("url" not in d.meta for d in bare)
    assert all({**d.meta, "url": h.meta["url"]} == dict(h.meta) for d, h in zip(bare, held))
    assert all(d.meta.get("url") for d in held)  # the dataset's own pages untouched
    assert lodo._parser().parse_args(["--no-urls"]).no_urls


def test_page_types_guesses_with_the_url_or_from_the_html_alone(tmp_path):
    import gzip

    page_types = _bench("page_types")
    folder = tmp_path / "wcxb-dev"
    (folder / "html").mkdir(parents=True)
    body = "<p>" + "The council met on Tuesday to discuss the plan for the harbour. " * 4 + "</p>"
    thread = "https://forum.example.org/t/starter/12"
    pages = {"p0": (thread, f"<link rel=canonical href='{thread}'>"), "p1": ("https://example.org/docs/install", "")}
    meta = []
    for pid, (url, head) in pages.items():
        html = f"<html><head>{head}</head><body>{body}</body></html>".encode()
        (folder / "html" / f"{pid}.html.gz").write_bytes(gzip.compress(html))
        meta.append({"id": pid, "url": url, "page_type": "forum" if pid == "p0" else "documentation"})
    (folder / "meta.jsonl").write_text("".join(json.dumps(m) + "\n" for m in meta))
    given = {r["id"]: (r["guess"], r["from"], r["declares_address"]) for r in page_types.guesses(folder)}
    alone = {r["id"]: (r["guess"], r["from"], r["declares_address"]) for r in page_types.guesses(folder, urls=False)}
    assert given == {"p0": ("forum", "address", True), "p1": ("documentation", "address", False)}
    assert alone == {"p0": ("forum", "address", True), "p1": ("article", "default", False)}  # p1 declares nothing
