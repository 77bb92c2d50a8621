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


def test_labelling_page_a_save_the_server_did_not_take_is_shown_and_sent_again(page: Any, folder: Path) -> None:
    failures = {"left": 2}

    def flaky(route: Any) -> None:  # the first two saves never reach the server
        if route.request.method == "PUT" and failures["left"]:
            failures["left"] -= 1
            route.abort()
        else:
            route.continue_()

    page.route("**/api/label/labels*", flaky)
    page.goto(f"{page.base}/label")
    page.wait_for_selector("#tiles li")
    page.keyboard.type("5p")
    _expect(page.locator("#save-state")).to_contain_text("NOT SAVED")
    _expect(page.locator("#save-state")).to_have_class("save error")
    _expect(page.locator("#save-state")).to_be_in_viewport()
    # sent again until the server takes it, without the person doing anything (waited for in
    # Playwright: its route handler runs only while the test is inside a Playwright call)
    _expect(page.locator("#save-state")).to_have_text("saved", timeout=15_000)
    assert load_labels(folder / "hand.png.fanscan.json").tiles[1].code == "5p" and failures["left"] == 0


def test_labelling_page_a_long_photo_name_leaves_accept_and_the_save_state_on_screen(
    folder: Path, fakes: Any, browser: Any
) -> None:
    import shutil

    from fanscan.web.app import create_app

    long_name = "393097366_908914357265722_6031157077674950656_n_jpg.rf.11744594bc48c2cd3e212cb2881ddfc6.png"
    shutil.copy(folder / "other.png", folder / long_name)
    with fakes.live_server(create_app(labelling_dir=folder)) as base:
        for width, height in ((1280, 900), (390, 844)):
            context = browser.new_context(viewport={"width": width, "height": height})
            tab = context.new_page()
            tab.goto(f"{base}/label#{long_name}")
            _expect(tab.locator("#position")).to_contain_text("393097366")
            for element in ("#accept", "#save-state", "#next"):
                box = tab.locator(element).bounding_box()
                assert box["x"] + box["width"] <= width, (width, element, box)
            assert tab.evaluate("document.documentElement.scrollWidth") <= width
            context.close()


def test_labelling_page_skips_a_photo_it_cannot_open(folder: Path, fakes: Any, browser: Any) -> None:
    from fanscan.web.app import create_app

    (folder / "broken.png").write_text("no picture")  # unlabelled: it comes first in review order
    with fakes.live_server(create_app(labelling_dir=folder)) as base:
        context = browser.new_context()
        tab = context.new_page()
        tab.goto(f"{base}/label")
        _expect(tab.locator("#position")).to_contain_text("hand.png")  # the next one opened
        _expect(tab.locator("#save-state")).to_contain_text("skipped broken.png")
        assert "error" not in (tab.locator("#save-state").get_attribute("class") or "")
        tab.keyboard.type("5p")
        _expect(tab.locator("#save-state")).to_have_text("saved")  # the note goes with the next save
        context.close()


def test_labelling_page_a_refused_save_does_not_drop_the_newer_change_behind_it(page: Any, folder: Path) -> None:
    held: list[Any] = []

    def hold_first(route: Any) -> None:  # the first save waits for the test's answer
        if route.request.method == "PUT" and not held:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/label/labels*", hold_first)
    page.goto(f"{page.base}/label")
    page.wait_for_selector("#tiles li")
    page.keyboard.type("5p")  # sent, held
    page.keyboard.type("6p")  # queued behind it
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    held[0].fulfill(status=400, content_type="application/json", body='{"detail": "refused", "code": "bad_labels"}')
    _expect(page.locator("#save-state")).to_have_text("saved", timeout=10_000)
    shown = _codes(page)
    assert "6p" in shown  # the newer change reached the file, though the older one was refused
    assert [t.code for t in load_labels(folder / "hand.png.fanscan.json").tiles] == shown
