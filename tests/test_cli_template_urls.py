"""Cross-page détourage of pages without URLs says what it did (issue 18 item 5)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from detourage.cli import main


def pages(folder: Path) -> Path:
    """Three pages of one layout without a URL, one with a canonical link."""
    folder.mkdir()
    for i in range(3):
        (folder / f"p{i}.html").write_text(
            f"<html><body><nav>Home About Contact</nav><p>Article {i}: its own text, long enough.</p>"
            "<footer>Copyright</footer></body></html>")
    (folder / "c.html").write_text('<html><head><link rel="canonical" href="https://example.org/a"></head>'
                                   "<body><p>Elsewhere.</p></body></html>")
    return folder


def test_template_fit_warns_of_pages_without_url_with_their_count(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["template", "fit", str(pages(tmp_path / "site")),
                                       "-o", str(tmp_path / "t.json.gz")])
    assert result.exit_code == 0, result.output
    assert "warning: 3 pages have no URL" in result.stderr and "--url-map" in result.stderr
    rows = [line.split() for line in result.stdout.splitlines()[1:]]
    assert ["''", "3", "1", "0"] in rows and ["example.org", "1", "0", "1"] in rows


def test_extract_with_a_fitted_template_warns_too(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["extract", str(pages(tmp_path / "site")), "-m", "template"])
    assert result.exit_code == 0, result.output
    assert "warning: 3 pages have no URL" in result.stderr


def test_a_single_page_without_template_says_it_fell_back(tmp_path: Path) -> None:
    folder = pages(tmp_path / "site")
    result = CliRunner().invoke(main, ["extract", str(folder / "p0.html"), "-m", "template"])
    assert result.exit_code == 0, result.output
    assert "no --template" in result.stderr and "falls back to default" in result.stderr
    with_urls = tmp_path / "urls.jsonl"
    with_urls.write_text("".join(f'{{"id": "p{i}", "url": "https://news.example.com/{i}"}}\n' for i in range(3)))
    fitted = CliRunner().invoke(main, ["template", "fit", *(str(folder / f"p{i}.html") for i in range(3)),
                                       "--url-map", str(with_urls), "-o", str(tmp_path / "t.json.gz")])
    assert fitted.exit_code == 0 and "no URL" not in fitted.stderr
