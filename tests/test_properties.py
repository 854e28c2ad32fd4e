"""Invariants checked on generated input (hypothesis)."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import detourage
from detourage import methods
from detourage.decode import looks_binary
from detourage.gold import parse_cleaneval
from detourage.render import MARKERS

#: detourage's own methods (the peers need an optional extra and are tested in test_peers)
METHODS = [m.name for m in methods.available() if m.seed != "peer"]
FORMATS = ["txt", "cleaneval", "markdown", "html", "json"]

TAGS = ["p", "div", "span", "b", "a", "h1", "h2", "ul", "li", "br", "pre", "img", "script",
        "table", "td", "nav", "footer", "form", "article"]
text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)


@st.composite
def html_pages(draw: st.DrawFn) -> str:
    """Tag soup: random open/close tags with attributes and text, often unbalanced."""
    parts = []
    for _ in range(draw(st.integers(0, 40))):
        tag = draw(st.sampled_from(TAGS))
        kind = draw(st.sampled_from(["open", "close", "text"]))
        if kind == "open":
            attrs = draw(st.sampled_from(["", " href='#'", " class='comments'", " alt='x y'",
                                          " hidden", " style='display:none'", " id='footer'"]))
            parts.append(f"<{tag}{attrs}>")
        elif kind == "close":
            parts.append(f"</{tag}>")
        else:
            parts.append(draw(text))
    return "".join(parts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=3000), method=st.sampled_from(METHODS), format=st.sampled_from(FORMATS))
def test_arbitrary_bytes_never_raise(data: bytes, method: str, format: str) -> None:
    """Anything but the documented refusal of binary data gives text."""
    try:
        out = detourage.extract(data, method, format)
    except detourage.NotHTML:
        assert looks_binary(data)
    else:
        assert isinstance(out, str)


@settings(max_examples=150, deadline=None)
@given(page=html_pages(), method=st.sampled_from(METHODS))
def test_labels_line_up_and_output_is_within_the_full_text(page: str, method: str) -> None:
    data = page.encode("utf-8", "surrogatepass")
    assume(not looks_binary(data))  # pages of control characters are refused as NotHTML
    loaded = detourage.load(data)
    result = detourage.run(loaded, method)
    assert len(result.labels.labels) == len(loaded.blocks)
    # characters, not tokens: runs glued in the full text ("0<b>0</b>" → "00") may be kept apart
    full = Counter("".join(detourage.render(detourage.run(loaded, "fulltext"), "txt").split()))
    assert not Counter("".join(detourage.render(result, "txt").split())) - full


@settings(max_examples=150, deadline=None)
@given(page=html_pages(), method=st.sampled_from(METHODS))
def test_cleaneval_output_round_trips_through_its_parser(page: str, method: str) -> None:
    result = detourage.run(detourage.load(page), method)
    expected = [(MARKERS[u.kind], " ".join(u.text.split())) for u in result.units if u.text.strip()]
    assert parse_cleaneval(detourage.render(result, "cleaneval")) == expected
