"""The labelling page in headless Chromium: fix a code by keyboard, accept, reload, still there."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fanscan.datasets.labels import PhotoLabels, TileLabel, label_path, load_labels, save_labels

pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
]

LEFT = ((10.0, 10.0), (50.0, 10.0), (50.0, 70.0), (10.0, 70.0))
RIGHT = ((60.0, 10.0), (100.0, 10.0), (100.0, 70.0), (60.0, 70.0))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """hand.png: 7s sure, 1p unsure (really a 5p); other.png: one sure tile."""
    import cv2

    for name, tiles in (
        ("hand.png", (TileLabel("7s", LEFT, 0.97, "model"), TileLabel("1p", RIGHT, 0.41, "model"))),
        ("other.png", (TileLabel("E", LEFT, 0.9, "model"),)),
    ):
        cv2.imwrite(str(tmp_path / name), np.full((90, 120, 3), 70, np.uint8))
        save_labels(label_path(tmp_path / name), PhotoLabels(name, 120, 90, tiles))
    return tmp_path


@pytest.fixture
def page(folder: Path, fakes: Any, browser: Any) -> Iterator[Any]:
    """A fresh tab on the labelling app for ``folder`` (with the app's strict CSP in force)."""
    from fanscan.web.app import create_app

    with fakes.live_server(create_app(labelling_dir=folder)) as base:
        context = browser.new_context()
        tab = context.new_page()
        tab.base = base
        try:
            yield tab
        finally:
            context.close()


def _expect(locator: Any) -> Any:
    from playwright.sync_api import expect

    return expect(locator)


def _saved(path: Path, check: Callable[[PhotoLabels], bool]) -> PhotoLabels:
    """The label file once ``check`` holds for it (saves are asynchronous), failing after 10 s."""
    deadline = time.monotonic() + 10
    while True:
        labels = load_labels(path)
        if check(labels) or time.monotonic() > deadline:
            return labels
        time.sleep(0.05)


def _codes(page: Any) -> list[str]:
    return page.locator("#tiles li").evaluate_all("items => items.map(i => i.dataset.code)")


def test_labelling_page_keyboard_fix_accept_and_reload(page: Any, folder: Path) -> None:
    page.goto(f"{page.base}/label")
    page.wait_for_selector("#tiles li")
    assert "1 of 2" in page.text_content("#position")  # hand.png first: its 1p is the least sure
    assert _codes(page) == ["7s", "1p"]
    assert page.locator("#tiles li.selected").get_attribute("data-code") == "1p"

    page.keyboard.type("5p")
    _expect(page.locator("#save-state")).to_have_text("saved")
    assert _codes(page) == ["7s", "5p"]
    assert load_labels(folder / "hand.png.fanscan.json").tiles[1].code == "5p"  # saved at once

    page.keyboard.press("Enter")  # accept: on to the next photo
    _expect(page.locator("#position")).to_contain_text("other.png")
    saved = load_labels(folder / "hand.png.fanscan.json")
    assert saved.status == "reviewed"
    assert [(t.code, t.source) for t in saved.tiles] == [("7s", "model"), ("5p", "person")]

    page.goto(f"{page.base}/label#hand.png")
    page.reload()
    page.wait_for_selector("#tiles li")
    assert "hand.png" in page.text_content("#position")
    assert page.text_content("#status") == "reviewed"
    assert _codes(page) == ["7s", "5p"]


def test_labelling_page_draw_a_box_and_name_it(page: Any, folder: Path) -> None:
    page.goto(f"{page.base}/label#other.png")
    _expect(page.locator("#position")).to_contain_text("other.png")
    box = page.locator("#stage").bounding_box()
    scale = min(box["width"] / 120, box["height"] / 90)  # the photo is fitted, centred
    left = box["x"] + (box["width"] - 120 * scale) / 2
    top = box["y"] + (box["height"] - 90 * scale) / 2
    page.mouse.move(left + 70 * scale, top + 20 * scale)
    page.mouse.down()
    page.mouse.move(left + 100 * scale, top + 60 * scale, steps=5)
    page.mouse.up()
    page.keyboard.type("3f")
    _expect(page.locator("#tiles li")).to_have_count(2)
    path = folder / "other.png.fanscan.json"
    tiles = _saved(path, lambda labels: labels.tiles[-1].code == "3f").tiles
    assert [(t.code, t.source) for t in tiles] == [("E", "model"), ("3f", "person")]
    x0, y0, x1, y1 = tiles[1].bounds
    assert abs(x0 - 70) < 2 and abs(y0 - 20) < 2 and abs(x1 - 100) < 2 and abs(y1 - 60) < 2


def test_labelling_page_drag_a_corner_then_delete_a_tile(page: Any, folder: Path) -> None:
    page.goto(f"{page.base}/label#hand.png")
    _expect(page.locator("#position")).to_contain_text("hand.png")
    page.click("#tiles li[data-index='0']")  # the 7s, whose top-left corner is at (10, 10)
    box = page.locator("#stage").bounding_box()
    scale = min(box["width"] / 120, box["height"] / 90)
    left = box["x"] + (box["width"] - 120 * scale) / 2
    top = box["y"] + (box["height"] - 90 * scale) / 2
    page.mouse.move(left + 10 * scale, top + 10 * scale)
    page.mouse.down()
    page.mouse.move(left + 4 * scale, top + 6 * scale, steps=5)
    page.mouse.up()
    _expect(page.locator("#save-state")).to_have_text("saved")
    moved = load_labels(folder / "hand.png.fanscan.json").tiles[0]
    assert abs(moved.corners[0][0] - 4) < 1.5 and abs(moved.corners[0][1] - 6) < 1.5
    assert moved.corners[1:] == LEFT[1:] and moved.source == "person"

    page.click("#tiles li[data-index='1']")
    page.keyboard.press("Delete")
    _expect(page.locator("#tiles li")).to_have_count(1)
    left = _saved(folder / "hand.png.fanscan.json", lambda labels: len(labels.tiles) == 1)
    assert [t.code for t in left.tiles] == ["7s"]
