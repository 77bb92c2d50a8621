"""The labelling page's tools in headless Chromium: undo and redo, a new box waits for its code,
the rubber band goes away, zoom and pan (wheel, keys, pinch), bulk deletes, hiding the boxes, and
a layout that fits a phone."""

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
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

W, H = 240, 90


def _quad(x: float) -> tuple[tuple[float, float], ...]:
    return ((x, 10.0), (x + 40, 10.0), (x + 40, 70.0), (x, 70.0))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """hand.png: four tiles in a row, at 97%, 41%, 30% and 88%."""
    import cv2

    tiles = tuple(
        TileLabel(code, _quad(10 + 55 * i), confidence, "model")
        for i, (code, confidence) in enumerate((("7s", 0.97), ("1p", 0.41), ("E", 0.3), ("C", 0.88)))
    )
    cv2.imwrite(str(tmp_path / "hand.png"), np.full((H, W, 3), 70, np.uint8))
    save_labels(label_path(tmp_path / "hand.png"), PhotoLabels("hand.png", W, H, tiles))
    return tmp_path


@pytest.fixture
def open_label(folder: Path, fakes: Any, browser: Any) -> Iterator[Callable[..., Any]]:
    from fanscan.web.app import create_app

    contexts: list[Any] = []
    with fakes.live_server(create_app(labelling_dir=folder)) as base:

        def opener(viewport: dict[str, int] | None = None, **context: Any) -> Any:
            ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, **context)
            contexts.append(ctx)
            page = ctx.new_page()
            page.errors = []
            page.on("pageerror", lambda error: page.errors.append(str(error)))
            page.set_default_timeout(10_000)
            page.goto(f"{base}/label#hand.png")
            page.wait_for_selector("#tiles li")
            return page

        yield opener
        for ctx in contexts:
            ctx.close()


def _saved(folder: Path, check: Callable[[PhotoLabels], bool]) -> PhotoLabels:
    deadline = time.monotonic() + 10
    while True:
        labels = load_labels(label_path(folder / "hand.png"))
        if check(labels) or time.monotonic() > deadline:
            return labels
        time.sleep(0.05)


def _codes(page: Any) -> list[str]:
    return page.locator("#tiles li").evaluate_all("items => items.map(i => i.dataset.code)")


def _screen(page: Any, x: float, y: float) -> tuple[float, float]:
    """Where photo point (x, y) is on the screen now (whatever the zoom)."""
    return tuple(page.evaluate(
        """([x, y]) => { const s = document.getElementById('stage'); const p = s.createSVGPoint();
        p.x = x; p.y = y; const q = p.matrixTransform(s.getScreenCTM()); return [q.x, q.y]; }""",
        [x, y],
    ))


def _drag(page: Any, start: tuple[float, float], end: tuple[float, float], shift: bool = False) -> None:
    page.mouse.move(*_screen(page, *start))
    if shift:
        page.keyboard.down("Shift")
    page.mouse.down()
    page.mouse.move(*_screen(page, *end), steps=6)
    page.mouse.up()
    if shift:
        page.keyboard.up("Shift")


def _view(page: Any) -> list[float]:
    return [float(v) for v in page.get_attribute("#stage", "viewBox").split()]


def test_undo_and_redo_a_code_a_delete_and_a_move(open_label: Any, folder: Path) -> None:
    page = open_label()
    expect(page.locator("#undo")).to_be_disabled()
    assert page.locator("#tiles li.selected").get_attribute("data-code") == "E"  # least sure first
    page.keyboard.type("9p")
    assert _saved(folder, lambda l: l.tiles[2].code == "9p").tiles[2].code == "9p"
    page.click("#tiles li[data-index='0']")
    page.keyboard.press("Delete")
    assert len(_saved(folder, lambda l: len(l.tiles) == 3).tiles) == 3

    page.keyboard.press("Control+z")  # the delete
    expect(page.locator("#tiles li")).to_have_count(4)
    assert len(_saved(folder, lambda l: len(l.tiles) == 4).tiles) == 4
    page.click("#undo")  # the code
    labels = _saved(folder, lambda l: l.tiles[2].code == "E")
    assert [(t.code, t.source, t.confidence) for t in labels.tiles][2] == ("E", "model", 0.3)
    expect(page.locator("#undo")).to_be_disabled()
    page.keyboard.press("Control+Shift+z")
    assert _saved(folder, lambda l: l.tiles[2].code == "9p").tiles[2].source == "person"
    page.click("#redo")
    assert _codes(page) == ["1p", "9p", "C"]

    # dragging a box is one step as well
    page.click("#tiles li[data-index='0']")  # the 1p, at x 65-105
    _drag(page, (85, 40), (95, 45))
    moved = _saved(folder, lambda l: l.tiles[0].corners[0][0] > 70).tiles[0]
    assert abs(moved.corners[0][0] - 75) < 1.5
    page.keyboard.press("Control+z")
    assert _saved(folder, lambda l: l.tiles[0].corners[0][0] < 70).tiles[0].corners == _quad(65)
    assert page.errors == []


def test_a_new_box_is_saved_only_with_a_code_and_the_rubber_band_goes(
    open_label: Any, folder: Path
) -> None:
    page = open_label()
    rubber = page.locator("#rubber")
    page.mouse.move(*_screen(page, 225, 20))
    page.mouse.down()
    page.mouse.move(*_screen(page, 236, 80), steps=6)
    expect(rubber).to_be_visible()  # while dragging
    page.mouse.up()
    expect(rubber).to_be_hidden()  # and gone after
    expect(page.locator("#tile-info")).to_contain_text("New box")
    page.wait_for_timeout(300)
    assert len(load_labels(label_path(folder / "hand.png")).tiles) == 4  # nothing saved yet
    page.keyboard.press("Escape")  # dropped
    expect(page.locator(".tile.pending")).to_have_count(0)

    _drag(page, (225, 20), (236, 80))
    expect(rubber).to_be_hidden()
    page.click("#code-grid [data-code='8m']")  # picked (a phone has no keyboard)
    labels = _saved(folder, lambda l: len(l.tiles) == 5)
    assert [(t.code, t.source, t.confidence) for t in labels.tiles][-1] == ("8m", "person", 1.0)
    assert all(t.code != "back" for t in labels.tiles)
    assert page.errors == []


def test_zoom_with_the_wheel_keys_and_a_pinch_then_edit_while_zoomed(
    open_label: Any, folder: Path
) -> None:
    page = open_label()
    assert _view(page) == [0, 0, W, H]
    page.mouse.move(*_screen(page, 30, 40))
    page.mouse.wheel(0, -600)
    x, y, w, h = _view(page)
    assert w < W / 2 and abs(h / w - H / W) < 1e-6
    # the point under the cursor stays under it
    assert abs(x + (30 - x) - 30) < 1e-6 and x < 30 < x + w and y < 40 < y + h
    sx, sy = _screen(page, 30, 40)
    page.mouse.move(sx, sy)
    assert all(abs(a - b) < 2 for a, b in zip(_screen(page, 30, 40), (sx, sy)))

    page.keyboard.press("0")
    assert _view(page) == [0, 0, W, H]
    page.keyboard.press("+")
    assert _view(page)[2] == pytest.approx(W / 1.25)
    before = _view(page)
    page.keyboard.press("Shift+ArrowRight")
    assert _view(page)[0] > before[0]
    page.click("#zoom-fit")
    expect(page.locator("#zoom-level")).to_have_text("100%")

    # two fingers spreading apart: zoom in about their middle
    page.evaluate(
        """() => { const s = document.getElementById('stage'); const r = s.getBoundingClientRect();
        const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
        const ev = (type, id, x) => s.dispatchEvent(new PointerEvent(type, {pointerId: id,
            clientX: x, clientY: cy, bubbles: true, pointerType: 'touch', isPrimary: id === 1}));
        ev('pointerdown', 1, cx - 20); ev('pointerdown', 2, cx + 20);
        for (let i = 1; i <= 5; i++) { ev('pointermove', 1, cx - 20 - 16 * i); ev('pointermove', 2, cx + 20 + 16 * i); }
        ev('pointerup', 1, cx - 100); ev('pointerup', 2, cx + 100); }"""
    )
    x, y, w, h = _view(page)
    assert w == pytest.approx(W / 5, rel=0.05)
    assert x + w / 2 == pytest.approx(W / 2, abs=2)
    assert len(load_labels(label_path(folder / "hand.png")).tiles) == 4  # a pinch draws nothing

    # zoomed in, a drag still lands where the photo is: a new box over x 112-128
    _drag(page, (112, 30), (128, 60))
    page.keyboard.type("5s")
    box = _saved(folder, lambda l: len(l.tiles) == 5).tiles[-1]
    x0, y0, x1, y1 = box.bounds
    assert abs(x0 - 112) < 1 and abs(x1 - 128) < 1 and abs(y0 - 30) < 1 and abs(y1 - 60) < 1
    assert page.errors == []


def test_bulk_delete_under_a_confidence_and_inside_a_region(open_label: Any, folder: Path) -> None:
    page = open_label()
    page.fill("#below", "45")
    page.click("#delete-below")  # the 1p at 41% and the E at 30%
    assert [t.code for t in _saved(folder, lambda l: len(l.tiles) == 2).tiles] == ["7s", "C"]
    expect(page.locator("#tiles li")).to_have_count(2)
    page.keyboard.press("Control+z")  # one step brings both back
    assert len(_saved(folder, lambda l: len(l.tiles) == 4).tiles) == 4

    page.click("#region")
    _drag(page, (0, 0), (120, 90))  # the middles of the 7s and the 1p
    expect(page.locator("#rubber")).to_be_hidden()
    assert [t.code for t in _saved(folder, lambda l: len(l.tiles) == 2).tiles] == ["E", "C"]
    _drag(page, (130, 0), (239, 89), shift=True)  # Shift+drag: the same without the button
    assert _saved(folder, lambda l: len(l.tiles) == 0).tiles == ()
    assert page.errors == []


def test_hide_and_show_the_boxes(open_label: Any) -> None:
    page = open_label()
    boxes = page.locator("#boxes polygon").first
    expect(boxes).to_be_visible()
    page.keyboard.press("h")
    expect(boxes).to_be_hidden()
    expect(page.locator("#toggle-boxes")).to_have_text("Show boxes (h)")
    page.click("#toggle-boxes")
    expect(boxes).to_be_visible()
    assert page.errors == []


def test_the_page_fits_a_phone(open_label: Any, folder: Path) -> None:
    page = open_label(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    stage = page.locator("#stage").bounding_box()
    side = page.locator(".side").bounding_box()
    assert stage["width"] > 340 and stage["height"] > 250
    assert side["y"] >= stage["y"] + stage["height"] - 1  # the panel below the photo
    # a tap selects a tile, a tap on the code grid names it
    page.touchscreen.tap(*_screen(page, 30, 40))
    expect(page.locator("#tiles li.selected")).to_have_attribute("data-code", "7s")
    page.locator("#code-grid [data-code='7p']").tap()
    assert _saved(folder, lambda l: l.tiles[0].code == "7p").tiles[0].source == "person"
    assert page.errors == []
