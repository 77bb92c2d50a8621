"""Make docs/web/{phone,desktop,picker}.png: the page after reading a drawn photo.

Run from the repository root: ``python tests/web/screenshots.py`` (needs Chromium, playwright and
the web extra). The "photo" is this project's own tile images on a felt table, rendered by
Chromium and slightly rotated; a fake reader returns where those tiles are, one of them doubtful,
and the project's scorer scores the hand.
"""

from __future__ import annotations

import io
import math
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import expect, sync_playwright

from fanscan.web.app import create_app
from fanscan.web.server import bind, make_server
from fanscan.web.tile_faces import tile_svg

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
CONCEALED = ["2m", "3m", "4m", "2p", "3p", "4p", "6p", "7p", "8p", "5s", "5s"]
MELD = ["2s", "3s", "4s"]
FLOWERS = ["1f", "6f"]
DOUBTFUL = 9  # the first 5s
ANGLE = -3.0  # degrees the row of tiles is turned in the photo
TILE_W, TILE_H, GAP = 66, 88, 3


def _photo_html() -> str:
    tiles = [*CONCEALED, "", *MELD, "", *FLOWERS]
    cells = "".join(
        '<div class="gap"></div>' if not code else f'<div class="t">{tile_svg(code)}</div>'
        for code in tiles
    )
    return f"""<html><body style="margin:0;width:1400px;height:460px;
      background:radial-gradient(circle at 40% 40%, #2f7a56, #164430)">
      <div id="row" style="position:absolute;left:90px;top:190px;display:flex;gap:{GAP}px;
        transform:rotate({ANGLE}deg);transform-origin:0 0">{cells}</div>
      <style>.t svg{{width:{TILE_W}px;height:{TILE_H}px;display:block;
        filter:drop-shadow(2px 5px 3px rgba(0,0,0,.45))}} .gap{{width:34px}}</style>
    </body></html>"""


def _reading(offsets: list[float]) -> dict[str, Any]:
    """Tile quads in the photo: the row's offsets, turned by ANGLE about the row's corner."""
    turn = math.radians(ANGLE)

    def point(x: float, y: float) -> list[int]:
        return [
            round(90 + x * math.cos(turn) - y * math.sin(turn)),
            round(190 + x * math.sin(turn) + y * math.cos(turn)),
        ]

    codes = CONCEALED + MELD + FLOWERS
    tiles = []
    for i, (code, left) in enumerate(zip(codes, offsets, strict=True)):
        box = [
            point(left, 0),
            point(left + TILE_W, 0),
            point(left + TILE_W, TILE_H),
            point(left, TILE_H),
        ]
        confidence = 0.61 if i == DOUBTFUL else 0.93 + (i % 5) / 100
        tiles.append({"code": code, "confidence": confidence, "box": box, "orientation": 0})
    hand = {
        "concealed": CONCEALED,
        "melds": [{"type": "chow", "tiles": MELD, "concealed": False}],
        "win_tile": "8p",
        "flowers": FLOWERS,
        "self_drawn": False,
        "seat_wind": "S",
        "round_wind": "E",
        "fourth_tile": False,
        "kong": False,
        "last_tile": False,
    }
    doubts = ["tile 10 from the left may be 5s or 5p (61%): check it"]
    return {"tiles": tiles, "hand": hand, "doubts": doubts}


def _save(png: bytes, path: Path) -> None:
    """Write a screenshot as a 256-colour PNG (a fraction of the size, no visible loss here)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


def main() -> int:
    out = ROOT / "docs" / "web"
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as scratch:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS
        )
        staging = browser.new_page(viewport={"width": 1400, "height": 460})
        staging.set_content(_photo_html())
        offsets = staging.locator(".t").evaluate_all("els => els.map(e => e.offsetLeft)")
        photo = Path(scratch) / "table.jpg"
        staging.screenshot(path=str(photo), type="jpeg", quality=85)
        reading = _reading(offsets)

        app = create_app(reader=lambda _data: reading)
        sock = bind("127.0.0.1", 0)
        server = make_server(app, log_level="warning")
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
        for name, viewport, scale in (
            ("phone", {"width": 390, "height": 844}, 1),
            ("desktop", {"width": 1280, "height": 900}, 1),
        ):
            page = browser.new_page(viewport=viewport, device_scale_factor=scale)
            page.goto(url)
            expect(page.locator("body")).to_have_attribute("data-ready", "true")
            page.set_input_files("#upload", str(photo))
            expect(page.locator("#fans tbody tr").first).to_be_visible()
            _save(page.screenshot(full_page=name == "phone"), out / f"{name}.png")
            if name == "phone":
                page.locator("#concealed .tile.doubt").click()
                expect(page.locator("#picker")).to_be_visible()
                _save(page.screenshot(), out / "picker.png")
        server.should_exit = True
        thread.join(10)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
