"""The labelling page in headless Chromium: a stale tab's save is refused and both versions shown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fanscan.datasets.labels import PhotoLabels, TileLabel, label_path, load_labels, save_labels

pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEFT = ((10.0, 10.0), (50.0, 10.0), (50.0, 70.0), (10.0, 70.0))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    import cv2

    cv2.imwrite(str(tmp_path / "hand.png"), np.full((90, 120, 3), 70, np.uint8))
    tiles = (TileLabel("1p", LEFT, 0.41, "model"),)
    save_labels(label_path(tmp_path / "hand.png"), PhotoLabels("hand.png", 120, 90, tiles))
    return tmp_path


@pytest.fixture
def tabs(folder: Path, fakes: Any, browser: Any) -> Iterator[tuple[Any, Any]]:
    from fanscan.web.app import create_app

    with fakes.live_server(create_app(labelling_dir=folder)) as base:
        context = browser.new_context()
        try:
            pair = (context.new_page(), context.new_page())
            for tab in pair:
                tab.goto(f"{base}/label#hand.png")
                tab.wait_for_selector("#tiles li")
            yield pair
        finally:
            context.close()


def test_labelling_conflict_a_stale_tab_is_shown_both_versions(tabs: tuple[Any, Any], folder: Path) -> None:
    from playwright.sync_api import expect

    first, stale = tabs
    first.keyboard.type("5p")
    expect(first.locator("#save-state")).to_have_text("saved")
    first.keyboard.press("Enter")  # accepted: reviewed
    expect(first.locator("#status")).to_have_text("reviewed")
    path = label_path(folder / "hand.png")
    assert load_labels(path).status == "reviewed"

    stale.keyboard.type("9m")  # the other tab still holds the unreviewed 1p
    dialog = stale.locator("#conflict")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".saved-version")).to_have_text("reviewed, 1 tile: 5p")
    expect(dialog.locator(".page-version")).to_have_text("unreviewed, 1 tile: 9m")
    saved = load_labels(path)
    assert (saved.status, saved.tiles[0].code) == ("reviewed", "5p")  # nothing overwritten

    stale.click("#conflict-take")
    expect(dialog).to_be_hidden()
    expect(stale.locator("#status")).to_have_text("reviewed")
    stale.keyboard.type("7s")  # now against the saved version: accepted
    expect(stale.locator("#save-state")).to_have_text("saved")
    saved = load_labels(path)
    assert (saved.status, saved.tiles[0].code) == ("reviewed", "7s")
