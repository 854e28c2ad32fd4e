"""benchmarks/studies/credits.py: the credits a method keeps, beside a picture or not, in the gold or not."""

from __future__ import annotations

import json

from test_learned_lodo import _bench

STORY = "<p>The storm reached the coast on Tuesday night, bringing winds and heavy rain to the bay, officials said.</p>"


def test_the_study_counts_credits_by_place_and_gold(tmp_path, capsys):
    study = _bench("studies/credits")
    root = tmp_path / "shared" / "datasets" / "tiny"
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    html = (f"<html><body><article><h1>Storm</h1>{STORY * 3}<div><img src='b.jpg' alt='Street'>"
            f"<p>Photo: Jane Doe / Reuters</p></div>{STORY * 3}</article></body></html>")
    (root / "html" / "p1.html").write_text(html, encoding="utf-8")
    (root / "gold" / "p1.txt").write_text("Storm\n" + "The storm reached the coast.\n", encoding="utf-8")
    (root / "meta.jsonl").write_text(json.dumps({"id": "p1", "lang": "en"}) + "\n")
    assert study.main(["--shared", str(tmp_path / "shared")]) == 0
    out = capsys.readouterr().out
    assert "| tiny | 1 | 0 | 0 | 0 |" in out
    assert "tiny/p1: Photo: Jane Doe / Reuters" in out
