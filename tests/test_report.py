"""The report renderer: files written, Markdown tables, well-formed self-contained HTML."""

from __future__ import annotations

import csv
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from lxml import html as lxml_html

from detourage.tables import markdown_table
from detourage.evaluation.report import (
    FILES,
    INSPECTOR,
    NA,
    PAGE_COLUMNS,
    REFERENCE,
    histograms,
    render_html,
    render_markdown,
    write_reports,
)

METHODS = ["fulltext", "baseline", "eatiht", "baseline+eatiht"]
DATASETS = {"daniel": ["el", "en", "pl", "ru", "zh"], "cleaneval": ["en"],
            "news|zh": ["zh"]}


def _prf(rng: random.Random, base: float) -> dict[str, float]:
    p, r = (min(1.0, max(0.0, base + rng.uniform(-0.1, 0.1))) for _ in range(2))
    return {"p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def _row(rng: random.Random, method: str, dataset: str, lang: str, pages: int,
         quality: float, *, failed: bool = False) -> dict[str, Any]:
    if failed:
        return {"method": method, "dataset": dataset, "lang": lang, "pages": pages,
                "scored": 0, "failed": {"crash": pages}, "to": None, "tm_labelled": None,
                "tm_unlabelled": None, "car": None, "shingle": None, "cosine": None,
                "snippets": None, "ms": {"median": None, "p95": None}}
    f1 = _prf(rng, quality)["f1"]
    cleaneval = {k: {"micro": _prf(rng, quality), "macro": _prf(rng, quality - 0.05)}
                 for k in ("to", "tm_labelled", "tm_unlabelled", "car")}
    return {
        "method": method, "dataset": dataset, "lang": lang, "pages": pages,
        "scored": pages - 1, "failed": {"timeout": 1} if rng.random() < 0.3 else {},
        **cleaneval,
        "shingle": {"p": f1, "r": f1, "f1": f1, "f1_low": f1 - 0.03, "f1_high": f1 + 0.02},
        "cosine": {"exactitude": quality, "mean": quality + 0.05, "equal": pages // 4,
                   "pred_in_gold": 2, "gold_in_pred": 3},
        "snippets": ({"p": 0.9, "r": 0.8, "f1": 0.85, "accuracy": 0.88}
                     if dataset == "cleaneval" else None),
        "ms": {"median": 0.4 * 3 ** METHODS.index(method) if method in METHODS else 5.0,
               "p95": 2.0 * 3 ** METHODS.index(method) if method in METHODS else 20.0},
    }


def make_run(*, methods: list[str] = METHODS, pages_per_lang: int = 14, seed: int = 1,
             task: bool = True, failing: str | None = None,
             ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A realistic summary and its pages: datasets × languages × methods, random scores."""
    rng = random.Random(seed)
    quality = {m: 0.45 + 0.12 * i for i, m in enumerate(methods)}
    rows, pages = [], []
    groups = [(d, lang) for d, langs in DATASETS.items() for lang in langs]
    for method in methods:
        bad = method == failing
        for d, lang in groups:
            rows.append(_row(rng, method, d, lang, pages_per_lang, quality[method], failed=bad))
            pages += [_page(rng, d, f"{lang}-{i:03d}", lang, method, quality[method], bad)
                      for i in range(pages_per_lang)]
        for d, langs in DATASETS.items():
            rows.append(_row(rng, method, d, "all", pages_per_lang * len(langs),
                             quality[method], failed=bad))
        for lang in sorted({g for _, g in groups}):
            n = sum(pages_per_lang for _, g in groups if g == lang)
            rows.append(_row(rng, method, "all", lang, n, quality[method], failed=bad))
        rows.append(_row(rng, method, "all", "all", pages_per_lang * len(groups),
                         quality[method], failed=bad))
    summary = {
        "command": "detourage evaluate --datasets ../shared/datasets "
                   "--methods fulltext,baseline,eatiht,baseline+eatiht --task daniel",
        "created": "2025-01-31T12:00:00+00:00", "version": "0.1.0",
        "datasets": [{"name": d, "pages": pages_per_lang * len(langs),
                      "languages": {g: pages_per_lang for g in langs},
                      "digest": "ab12cd34ef56" * 5,
                      "gold_problems": [["en-003", "empty gold"], ["x<y>", "bad & odd"]]
                      if d == "cleaneval" else []}
                     for d, langs in DATASETS.items()],
        "methods": methods, "rows": rows, "task": _task(rng, methods) if task else None,
    }
    return summary, pages


def _page(rng: random.Random, dataset: str, id: str, lang: str, method: str, quality: float,
          failed: bool) -> dict[str, Any]:
    ok = not failed and rng.random() > 0.03
    f1 = min(1.0, max(0.0, rng.gauss(quality, 0.2))) if ok else None
    return {"dataset": dataset, "id": id, "lang": lang, "method": method, "ok": ok,
            "error": None if ok else "crash: ValueError('x, \"y\"')",
            "ms": rng.uniform(0.1, 30.0), "to_p": f1, "to_r": f1, "to_f1": f1,
            "tm_labelled_f1": f1, "tm_unlabelled_f1": f1, "car_f1": f1, "shingle_p": f1,
            "shingle_r": f1, "cos": f1, "snippet_accuracy": None}


def _task(rng: random.Random, methods: list[str]) -> dict[str, Any]:
    rows = []
    for method in [*methods, REFERENCE]:
        for lang in ["el", "en", "pl", "ru", "zh", "all"]:
            undefined = method == methods[0] and lang == "zh"
            prf = {"p": None, "r": 0.0, "f1": None} if undefined else _prf(rng, 0.6)
            rows.append({"method": method, "lang": lang, **prf, "tp": 10, "fp": 4, "fn": 3})
    seed = {"all": {"p": 69.54, "r": 84.68, "f1": 76.36},
            "en": {"p": 68.89, "r": 88.57, "f1": 77.50}}
    return {"name": "daniel", "rows": rows, "seed": seed}


# --------------------------------------------------------------------------- tests


def _plots(document: str) -> list[str]:
    tree = lxml_html.fromstring(document)
    return [svg.get("data-plot") for svg in tree.iter("svg") if svg.get("class") == "plot"]


def test_write_reports_writes_every_file(tmp_path: Path) -> None:
    summary, pages = make_run()
    paths = write_reports(summary, iter(pages), tmp_path / "out")
    assert set(paths) == set(FILES)
    assert all(p.is_file() and p.stat().st_size > 0 for p in paths.values())
    assert json.loads(paths["json"].read_text(encoding="utf-8")) == summary
    assert not list((tmp_path / "out").glob("*.tmp"))


def test_markdown_headline_lists_each_method(tmp_path: Path) -> None:
    summary, pages = make_run()
    md = write_reports(summary, pages, tmp_path)["md"].read_text(encoding="utf-8")
    headline = md.split("## Headline", 1)[1].split("##", 1)[0]
    for method in METHODS:
        assert f"| {method} |" in headline
    assert summary["command"] in md
    assert "## Dataset daniel" in md and "## Dataset cleaneval" in md
    assert "## Snippets" in md and "## Gold problems" in md
    assert "x\\<y>: bad & odd" in md
    assert "## Quality and speed" not in md  # a plot only: in the HTML


def test_markdown_numbers_are_percentages_with_two_decimals() -> None:
    summary, _ = make_run()
    f1 = next(r for r in summary["rows"] if (r["method"], r["dataset"], r["lang"])
              == ("eatiht", "all", "all"))["to"]["micro"]["f1"]
    md = render_markdown(summary)
    line = next(x for x in md.splitlines() if x.startswith("| eatiht |"))
    assert f"{100 * f1:.2f}" in line


def test_task_table_follows_seed_table_3() -> None:
    summary, _ = make_run()
    md = render_markdown(summary)
    task = md.split("## Task: daniel", 1)[1].split("##", 1)[0]
    header = next(x for x in task.splitlines() if x.startswith("| Method"))
    assert header.split(" | ")[1:4] == ["el P", "el R", "el F1"]
    assert header.rstrip(" |").endswith("Overall P | Overall R | Overall F1")
    names = [x.split(" | ")[0][2:] for x in task.splitlines() if x.startswith("| ")][2:]
    assert names == [*METHODS, REFERENCE, f"{REFERENCE} (seed 002)"]
    seed_row = next(x for x in task.splitlines() if "(seed 002)" in x)
    assert "69.54 | 84.68 | 76.36" in seed_row and "68.89" in seed_row
    fulltext = next(x for x in task.splitlines() if x.startswith("| fulltext |"))
    assert NA in fulltext


def test_html_is_well_formed_and_self_contained(tmp_path: Path) -> None:
    summary, pages = make_run()
    document = write_reports(summary, pages, tmp_path)["html"].read_text(encoding="utf-8")
    etree.fromstring(document.split("\n", 1)[1].encode())  # strict XML: every tag closed
    tree = lxml_html.fromstring(document)
    assert not tree.xpath("//script") and not tree.xpath("//link")
    assert not tree.xpath("//img") and not tree.xpath("//iframe")
    for attr in ("src", "href"):
        for value in tree.xpath(f"//@{attr}"):
            if attr == "href" and value.startswith(INSPECTOR):
                continue  # a link to the local inspector (detourage ui), not a resource
            assert not re.match(r"\s*(https?:)?//", value), value
    assert "@import" not in document and "url(" not in document
    assert "<y>" not in document and "x&lt;y&gt;" in document


def test_html_has_one_svg_per_plot() -> None:
    summary, pages = make_run()
    plots = _plots(render_html(summary, histograms(pages)))
    expected = ["speed", "distributions", "f1-daniel", "f1-cleaneval", "f1-news|zh",
                "f1-all", "task-daniel"]
    assert plots == expected


def test_methods_past_the_palette_are_hatched() -> None:
    methods = [f"m{i}" for i in range(11)]
    summary, pages = make_run(methods=methods, pages_per_lang=2, task=False)
    document = render_html(summary, histograms(pages))
    tree = lxml_html.fromstring(document)
    used = set(re.findall(r'fill="url\(#([\w-]+)\)"', document))
    assert used == {"hatch-0", "hatch-1", "hatch-2"}
    assert used <= {p.get("id") for p in tree.iter("pattern")}
    assert len(tree.xpath("//svg[@class='defs']")) == 1


def test_html_size_does_not_grow_with_pages() -> None:
    summary, small = make_run(pages_per_lang=100)
    _, large = make_run(pages_per_lang=1000)
    a = render_html(summary, histograms(small))
    b = render_html(summary, histograms(large))
    assert abs(len(a) - len(b)) < 2000
    assert len(b) < 400_000


def test_csv_round_trips(tmp_path: Path) -> None:
    summary, pages = make_run(pages_per_lang=3)
    paths = write_reports(summary, pages, tmp_path)
    with paths["csv"].open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == list(PAGE_COLUMNS)
    assert len(rows) == len(pages)
    for row, page in zip(rows, pages, strict=True):
        assert row["id"] == page["id"] and row["method"] == page["method"]
        assert row["ok"] == ("true" if page["ok"] else "false")
        assert row["error"] == (page["error"] or "")
        if page["to_f1"] is None:
            assert row["to_f1"] == ""
        else:
            assert float(row["to_f1"]) == pytest.approx(page["to_f1"], abs=1e-6)
    lines = paths["jsonl"].read_text(encoding="utf-8").splitlines()
    assert [json.loads(x) for x in lines] == pages
    assert list(json.loads(lines[0])) == list(PAGE_COLUMNS)


def test_extra_page_keys_follow_the_known_columns(tmp_path: Path) -> None:
    summary, pages = make_run(pages_per_lang=1)
    pages = [{**p, "url": f"https://example.org/{i}"} for i, p in enumerate(pages)]
    path = write_reports(summary, pages, tmp_path)["csv"]
    with path.open(encoding="utf-8", newline="") as f:
        assert next(csv.reader(f)) == [*PAGE_COLUMNS, "url"]


def test_a_method_failing_everywhere_gives_na(tmp_path: Path) -> None:
    summary, pages = make_run(failing="eatiht")
    paths = write_reports(summary, pages, tmp_path)
    md = paths["md"].read_text(encoding="utf-8")
    line = next(x for x in md.splitlines() if x.startswith("| eatiht |"))
    assert line.count(NA) >= 8
    document = paths["html"].read_text(encoding="utf-8")
    etree.fromstring(document.split("\n", 1)[1].encode())
    assert "speed" in _plots(document)


def test_nan_becomes_null_in_json(tmp_path: Path) -> None:
    summary, pages = make_run(pages_per_lang=1)
    summary["rows"][0]["to"]["micro"]["f1"] = float("nan")
    pages[0]["ms"] = float("inf")
    paths = write_reports(summary, pages, tmp_path)
    assert json.loads(paths["json"].read_text(encoding="utf-8"))["rows"][0]["to"]["micro"][
        "f1"] is None
    assert json.loads(paths["jsonl"].read_text(encoding="utf-8").splitlines()[0])["ms"] is None
    assert NA in paths["md"].read_text(encoding="utf-8")


def test_single_method_no_task_single_dataset(tmp_path: Path) -> None:
    summary, pages = make_run(methods=["baseline"], task=False)
    summary["rows"] = [r for r in summary["rows"] if r["dataset"] == "daniel"]
    summary["datasets"] = summary["datasets"][:1]
    pages = [p for p in pages if p["dataset"] == "daniel"]
    paths = write_reports(summary, pages, tmp_path)
    md = paths["md"].read_text(encoding="utf-8")
    assert "| baseline |" in md.split("## Headline", 1)[1]
    assert "## Task" not in md and "## Snippets" not in md
    document = paths["html"].read_text(encoding="utf-8")
    assert _plots(document) == ["speed", "distributions", "f1-daniel"]


def test_nothing_at_all(tmp_path: Path) -> None:
    summary = {"command": "", "created": "", "version": "", "datasets": [], "methods": [],
               "rows": [], "task": None}
    paths = write_reports(summary, [], tmp_path)
    assert paths["csv"].read_text(encoding="utf-8").strip() == ",".join(PAGE_COLUMNS)
    assert paths["jsonl"].read_text(encoding="utf-8") == ""
    document = paths["html"].read_text(encoding="utf-8")
    etree.fromstring(document.split("\n", 1)[1].encode())
    assert _plots(document) == []


def test_markdown_table_aligns_numbers_and_escapes_pipes() -> None:
    table = markdown_table(["Method", "F1"], [["a|b", "85.20"], ["c\nd <e>*", NA]])
    assert table.splitlines() == ["| Method | F1 |", "| --- | ---: |",
                                  "| a\\|b | 85.20 |", "| c d \\<e>\\* | N/A |"]
