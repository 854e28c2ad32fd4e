"""A small dataset for the inspector's tests (tests/test_ui*.py): an article with a
stylesheet beside it, a page full of scripts, and a secret file outside the dataset."""

from __future__ import annotations

import json
from pathlib import Path

ARTICLE = """<!DOCTYPE html>
<html><head><title>Rain in Nantes</title><link rel="stylesheet" href="style.css"></head>
<body><div class="nav"><a href="/">Home</a> <a href="/news">News</a></div>
<h1>Rain in Nantes</h1>
<p>It rained all day in Nantes, and the river rose by a metre before the evening.</p>
<p>The mayor said the <b>new dikes</b> held, and nobody was hurt in the city.</p>
<ul><li>Schools closed early.</li><li>Trams ran late.</li></ul>
<pre>line one
line two</pre>
<img src="photo.png" alt="The river at dusk">
<form><select><option>Choose</option></select></form>
<div class="footer">© 2024 Example News</div></body></html>
"""

ARTICLE_GOLD = """<h> Rain in Nantes
<p> It rained all day in Nantes, and the river rose by a metre before the evening.
<p> The mayor said the new dikes held, and nobody was hurt in the city.
<l> Schools closed early.
<l> Trams ran late.
"""

SCRIPTED = """<!DOCTYPE html>
<html><head><title>Scripted</title>
<meta http-equiv="refresh" content="0;url=http://example.org/">
<script>document.title = "pwned"; try { parent.document.title = "pwned"; } catch (e) {}</script>
</head>
<body onload="document.title='pwned'"><h1>A page with scripts</h1>
<p>Its text is here, and its scripts must never run in the inspector.</p>
<img src="missing.png" alt="" onerror="document.title='pwned'">
<a href="javascript:document.title='pwned'">a link</a>
<iframe srcdoc="&lt;script&gt;parent.document.title='pwned'&lt;/script&gt;"></iframe>
<object data="javascript:alert(1)"></object>
<script>document.body.setAttribute('data-ran', 'yes'); fetch('/api/anno', {method: 'POST'});</script>
<p>After the scripts.</p>
</body></html>
"""

SCRIPTED_GOLD = """<h> A page with scripts
<p> Its text is here, and its scripts must never run in the inspector.
<p> After the scripts.
"""

#: the article's paragraphs in this colour come from its own stylesheet
STYLE = "p { color: rgb(1, 2, 3) }\n"


def make_dataset(folder: Path) -> Path:
    """Write the dataset under ``folder/news`` and a secret at ``folder/secret.txt``."""
    root = folder / "news"
    (root / "html").mkdir(parents=True)
    (root / "gold").mkdir()
    (root / "html" / "article.html").write_text(ARTICLE, encoding="utf-8")
    (root / "gold" / "article.txt").write_text(ARTICLE_GOLD, encoding="utf-8")
    (root / "html" / "scripted.html").write_text(SCRIPTED, encoding="utf-8")
    (root / "gold" / "scripted.txt").write_text(SCRIPTED_GOLD, encoding="utf-8")
    (root / "html" / "style.css").write_text(STYLE, encoding="utf-8")
    (root / "meta.jsonl").write_text("".join(json.dumps({"id": i, "lang": "en"}) + "\n"
                                             for i in ("article", "scripted")), encoding="utf-8")
    (folder / "secret.txt").write_text("not for the browser\n", encoding="utf-8")
    (root / "html" / "link.txt").symlink_to(folder / "secret.txt")
    return root
