"""Screenshots of the inspector (``detourage ui``) in a headless Chromium.

    python benchmarks/ui_screenshots.py [--shared ../shared] [--out build/screenshots]

Writes four PNG files: ``news.png`` (an English news page of L3S-GN1, the blocks
coloured by the ``default`` method's labels, its text beside), ``chinese.png`` (a
Chinese DANIEL page, the same), ``diff.png`` (the news page, ``boilerpipe`` against
the gold as a difference) and ``annotate.png`` (the annotator on the news page, three
blocks relabelled with the keyboard).  Annotations go to a temporary folder.  Needs the
``ui`` extra, the ``playwright`` package and a Chromium (see
:mod:`detourage.ui.browser`); Chinese needs a CJK font (Debian: fonts-wqy-microhei).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

import _common
from detourage.ui import make_server
from detourage.ui.browser import browser, missing, running, wait_ready

NEWS = "l3s-gn1/0bf24489-9777-4821-a156-7897a890a4cd"  # news.bbc.co.uk, cricket
CHINESE = "daniel/20111209_china.huanqiu.com_1a3c15007326d6345369af9fdc8eeba42081db2adf4fd22b1cc48ad5"
SHOTS = (
    ("news.png", {"page": NEWS, "method": "default"}),
    ("chinese.png", {"page": CHINESE, "method": "default"}),
    ("diff.png", {"page": NEWS, "method": "boilerpipe", "compare": "gold"}),
)


def shoot(shared: Path, out: Path) -> list[Path]:
    """Take the screenshots; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    datasets = [str(shared / "datasets" / "l3s-gn1"), str(shared / "datasets" / "daniel")]
    written = []
    with tempfile.TemporaryDirectory(prefix="detourage-anno-") as annotations:
        server = make_server(datasets, ["default", "boilerpipe"], port=0, annotations=annotations)
        with running(server) as url, browser() as context:
            tab = context.new_page()
            for name, query in SHOTS:
                tab.goto(url + "?" + urlencode(query))
                wait_ready(tab)
                tab.wait_for_timeout(300)  # the iframe's images and fonts
                tab.screenshot(path=str(out / name))
                written.append(out / name)
            tab.goto(url + "?" + urlencode({"page": NEWS, "method": "default", "mode": "annotate"}))
            wait_ready(tab)
            frame = tab.frame_locator("#frame")
            frame.locator("[data-dtr-b]").nth(8).click()
            for key in "hpl":
                tab.keyboard.press(key)
            tab.wait_for_timeout(200)
            tab.screenshot(path=str(out / "annotate.png"))
            written.append(out / "annotate.png")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    _common.add_shared(parser)
    parser.add_argument("--out", type=Path, default=Path("build/screenshots"))
    args = parser.parse_args(argv)
    why = missing()
    if why:
        print(f"ui_screenshots: cannot run: {why}", file=sys.stderr)
        return 2
    for path in shoot(args.shared, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
