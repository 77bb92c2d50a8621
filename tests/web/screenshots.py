"""Make the screenshots in docs/web.md and docs/labelling.md, of the bundled sample photo.

Run from the repository root: ``python tests/web/screenshots.py`` (needs Chromium, playwright, the
web extra and the shipped models). The referee page reads ``vision/samples/sample_hand.jpg`` with
the project's own reader and scores it with the project's MCR rule set; the labelling page shows
the same photo pre-labelled by ``fanscan label --prelabel``.

Writes docs/web/{phone,desktop,picker}.jpg and docs/labelling/{desktop,phone}.jpg.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import expect, sync_playwright

from fanscan.web.app import create_app
from fanscan.web.server import bind, make_server

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "vision" / "samples" / "sample_hand.jpg"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def _save(png: bytes, path: Path) -> None:
    """Write a screenshot as a JPEG (the page shows a photo: a third of a palette PNG's size)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.save(path, "JPEG", quality=80, optimize=True)
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


@contextlib.contextmanager
def _serving(app: Any) -> Iterator[str]:
    sock = bind("127.0.0.1", 0)
    server = make_server(app, log_level="warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)


def referee(browser: Any, out: Path) -> None:
    with _serving(create_app()) as url:
        for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page = browser.new_context(viewport=viewport, locale="en-GB").new_page()
            page.goto(url + "/")
            expect(page.locator("body")).to_have_attribute("data-ready", "true")
            page.set_input_files("#upload", str(SAMPLE))
            expect(page.locator("#fans tbody tr").first).to_be_visible(timeout=60_000)
            page.select_option("#seat_wind", "S")  # one change, so that Undo is live
            expect(page.locator("#fans tbody tr").first).to_be_visible()
            page.wait_for_timeout(400)
            _save(page.screenshot(full_page=name == "phone"), out / f"{name}.jpg")
            if name == "phone":
                # a tap on the photo's 2m: the picker for that tile, selected in the hand too
                box = page.locator("#annotated").bounding_box()
                width = page.evaluate("() => document.getElementById('annotated').width")
                faces = page.evaluate("() => window.fanscanPhotoLabels.faces")
                codes = page.evaluate("() => window.fanscanPhotoLabels.texts")
                face = faces[next(i for i, text in enumerate(codes) if text.startswith("2m"))]
                scale = box["width"] / width
                page.mouse.click(box["x"] + (face["left"] + face["right"]) / 2 * scale,
                                 box["y"] + (face["top"] + face["bottom"]) / 2 * scale)
                expect(page.locator("#picker")).to_be_visible()
                _save(page.screenshot(), out / "picker.jpg")
            page.context.close()


def labelling(browser: Any, out: Path) -> None:
    from fanscan.cli import main

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "my_photos"
        folder.mkdir()
        shutil.copy(SAMPLE, folder / "IMG_0042.jpg")
        main(["label", str(folder), "--prelabel", "--workers", "1"])
        with _serving(create_app(labelling_dir=folder)) as url:
            for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                page = browser.new_context(viewport=viewport, has_touch=name == "phone").new_page()
                page.goto(f"{url}/label#IMG_0042.jpg")
                page.wait_for_selector("#tiles li")
                page.wait_for_timeout(600)  # the photo
                if name == "phone":
                    page.keyboard.press("+")
                    page.keyboard.press("+")
                _save(page.screenshot(full_page=name == "phone"), out / f"{name}.jpg")
                page.context.close()


def main() -> int:
    web = ROOT / "docs" / "web"
    label = ROOT / "docs" / "labelling"
    web.mkdir(parents=True, exist_ok=True)
    label.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        referee(browser, web)
        labelling(browser, label)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
