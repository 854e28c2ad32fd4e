"""A picture's credit: left out of the text formats, kept in the structured ones."""

from __future__ import annotations

import json

import pytest

import detourage
from detourage.credits import credits, is_credit

STORY = ("<p>The storm reached the coast on Tuesday night, bringing winds of up to 120 km/h and heavy rain to "
         "the towns along the bay, officials said.</p>")


def page(*middle: str) -> str:
    return f"<html><body><article><h1>Storm hits coast</h1>{STORY}{''.join(middle)}{STORY}</article></body></html>"


@pytest.mark.parametrize("line", [
    "Photo: Jane Doe / Reuters", "Image credit: NASA", "Photograph by : Uriel Sinai/Getty Images",
    "DGLimages via Getty Images", "Getty Images", "Image used under license from Shutterstock",
    "(AP Photo/Evan Vucci)", "Credit: Serious Eats", "Photo via Pexels", "Фото: ИТАР-ТАСС", "Fot. PAP",
    "Zdjęcie: Jan Kowalski", "Φωτογραφία: Eurokinissi", "图片来源：新华社", "Crédit photo : AFP",
    "Tontine Coffee House, New York City, 1797 — via Wikimedia Commons",
])
def test_a_credit_is_read_as_one(line: str) -> None:
    assert is_credit(line)


@pytest.mark.parametrize("line", [
    "The photo was taken in 1990.", "Images", "Photos of the week",
    "A painting on a wall is for sale on eBay. Photo / Reuters",  # a caption and its credit
    "Photo: a reader asks what to do, and the council answers that the roads open again by Friday.",
    "Getty Images bought the archive of the agency in 2019 for an undisclosed sum.",
])
def test_a_line_that_says_more_is_no_credit(line: str) -> None:
    assert not is_credit(line)


def test_credits_are_found_among_many_lines_in_any_script() -> None:
    texts = ["Über uns", "x" * 200, "İstanbul'da bir gün", "Photo: Jane Doe", "Fotoğraf", "Foto: dpa"]
    assert credits(texts) == [3, 5]
    assert credits(["Paragraph one.", "Paragraph two."]) == []


def test_a_credit_beside_a_picture_is_not_text() -> None:
    html = page('<div class="image"><img src="b.jpg" alt="Flooded street"><p>Photo: Jane Doe / Reuters</p></div>',
                '<p><img src="c.jpg" alt="A fallen tree"></p><p>DGLimages via Getty Images</p>')
    text = detourage.extract(html, "fulltext")
    assert "Reuters" not in text and "Getty" not in text and text.count("storm reached") == 2
    markdown = detourage.extract(html, "fulltext", "markdown")
    assert "![Flooded street](b.jpg)\n\nPhoto: Jane Doe / Reuters" in markdown and "DGLimages via Getty" in markdown
    record = json.loads(detourage.extract(html, "fulltext", "json"))
    assert "Reuters" not in record["text"]
    assert any(item.get("text") == "Photo: Jane Doe / Reuters" for item in record["structure"])
    assert "Reuters" not in detourage.extract(html, "fulltext", "markdown", images=False)  # with its image


def test_a_credit_far_from_any_picture_or_an_icon_is_text() -> None:
    far = page("<p>Photo: Jane Doe / Reuters</p>")
    assert "Photo: Jane Doe / Reuters" in detourage.extract(far, "fulltext")
    icon = page('<p><img src="camera.svg" alt="" width="16" height="16"> Photo: Jane Doe</p>')
    assert "Photo: Jane Doe" in detourage.extract(icon, "fulltext")
