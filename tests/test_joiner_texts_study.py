"""benchmarks/studies/joiner_texts.py: texts of zero-width joiners alone, per dataset."""

from __future__ import annotations

import json

from test_learned_lodo import _bench


def test_the_study_counts_texts_of_joiners_alone_not_joiners_between_letters(tmp_path, capsys):
    study = _bench("studies/joiner_texts")
    root = tmp_path / "shared" / "datasets" / "tiny"
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    pages = {"p1": "<p>One</p><p>\u200d</p><p> \u200c </p><img alt='\u200d' src='a.png'>",
             "p2": "<p>\u0645\u06cc\u200c\u062e \U0001F469\u200d\U0001F4BB</p>"}
    for pid, body in pages.items():
        (root / "html" / f"{pid}.html").write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
        (root / "gold" / f"{pid}.txt").write_text("One\n", encoding="utf-8")
    (root / "meta.jsonl").write_text("".join(json.dumps({"id": pid, "lang": "en"}) + "\n" for pid in pages))
    assert study.main(["--shared", str(tmp_path / "shared")]) == 0
    assert "| tiny | 2 | 1 | 3 |" in capsys.readouterr().out
