"""benchmarks/studies/glued_runs.py: each no-space boundary read by the Python segmentation,
and the gold's form of it counted."""

from __future__ import annotations

import json

from detourage import segment
from test_learned_lodo import _bench


def test_the_study_counts_each_golds_form_of_a_boundary(tmp_path, capsys):
    study = _bench("studies/glued_runs")
    root = tmp_path / "shared" / "datasets" / "tiny"
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    html = ("<html><body><div><span>Publisher</span><span>Houghton Mifflin</span></div>"
            "<p>Ordinals: the 20<sup>th</sup> century, <b>Dr</b>ama class.</p></body></html>")
    (root / "html" / "p1.html").write_text(html, encoding="utf-8")
    (root / "gold" / "p1.txt").write_text("Publisher Houghton Mifflin\nDrama class.\n", encoding="utf-8")
    (root / "meta.jsonl").write_text(json.dumps({"id": "p1", "lang": "en"}) + "\n")
    compiled = segment._compiled
    assert study.main(["--shared", str(tmp_path / "shared")]) == 0
    assert segment._compiled is compiled and segment.apart.__name__ == "apart"  # both put back
    out = capsys.readouterr().out
    assert "| tiny | set apart | aA | 0 (0) | 1 (1) |" in out
    assert "| tiny | left joined | aa | 1 (1) | 0 (0) |" in out  # "Dr" + "ama": one word in the gold
    assert "tiny 1 apart in the gold, 0 joined" in out
