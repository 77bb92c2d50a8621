"""Crops of boxes that hold no tile: the review file, straddling boxes, the reader's cuts."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.datasets import no_tile_crops
from fanscan.datasets.no_tile_crops import (
    REVIEW_FILE, ReviewedBox, format_review, parse_review, reader_cut, straddles)
from fanscan.errors import FanscanError
from fanscan.vision.image_io import load_photo
from fanscan.vision.numeric import quad_iou
from fanscan.vision.tile_reading import CROP_H, CROP_W


def _tile(x: float, y: float = 100.0, w: float = 30.0, h: float = 40.0) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_review_rows_round_trip():
    boxes = [ReviewedBox("hand_001", _tile(10), "none"), ReviewedBox("b", _tile(50), "tile")]
    again = parse_review(format_review(boxes))
    assert [(b.source, b.verdict) for b in again] == [("hand_001", "none"), ("b", "tile")]
    np.testing.assert_allclose(again[0].quad, boxes[0].quad)


@pytest.mark.parametrize("text, message", [
    ("source,x0\n", "first line"),
    (",".join(no_tile_crops.REVIEW_HEADER) + "\nhand_001,1,2,3,4,5,6,7,8,maybe\n", "line 2"),
    (",".join(no_tile_crops.REVIEW_HEADER) + "\nhand_001,1,2,3,x,5,6,7,8,none\n", "numbers"),
])
def test_a_bad_review_file_is_refused_naming_the_line(text, message):
    with pytest.raises(FanscanError, match=message):
        parse_review(text)


def test_the_shipped_review_file_holds_boxes_judged_none():
    reviewed = parse_review(REVIEW_FILE.read_text(encoding="utf-8"))
    verdicts = {box.verdict for box in reviewed}
    assert "none" in verdicts and verdicts <= {"none", "tile", "unsure"}
    assert all(box.quad.shape == (4, 2) for box in reviewed)


def test_crops_are_never_cut_from_the_held_out_folds_boxes():
    from fanscan.datasets.real_tables import HELD_OUT_FOLD, source_fold

    reviewed = parse_review(REVIEW_FILE.read_text(encoding="utf-8"))
    assert any(source_fold(box.source) == HELD_OUT_FOLD for box in reviewed)  # kept to measure by
    with pytest.raises(FanscanError, match="held out"):
        no_tile_crops.real_crops([0, HELD_OUT_FOLD], reviewed)


def test_a_straddle_lies_across_two_touching_tiles_and_on_neither():
    row = [_tile(0), _tile(31), _tile(62)]
    across = straddles(row, np.random.default_rng(0), 10)
    assert len(across) == 3
    for quad in across:
        overlaps = sorted(quad_iou(quad, t) for t in row)
        assert overlaps[-1] < 0.5 and overlaps[-2] > 0.2  # half on each of two tiles


def test_no_straddle_between_tiles_that_do_not_touch():
    apart = [_tile(0), _tile(200)]
    assert straddles(apart, np.random.default_rng(0), 5) == []
    assert straddles([_tile(0)], np.random.default_rng(0), 5) == []


def test_reader_cut_is_the_readers_crop_size_in_any_turn():
    import cv2

    image = np.full((300, 400, 3), 200, np.uint8)
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    up, right = np.array([0.0, -1.0]), np.array([1.0, 0.0])
    rng = np.random.default_rng(3)
    for sideways in (False, True):
        crop = reader_cut(photo, _tile(100), up, right, sideways, 1, rng)
        assert crop.shape == (CROP_H, CROP_W, 3)


def test_busy_crops_cut_boxes_over_no_tile_and_at_most_a_tables_share(monkeypatch):
    # A busy table whose finder boxed 40 things: every box over a drawn tile is left out, and of
    # the rest at most MOST_BUSY_BOXES are cut, so no one patterned table crowds the others out.
    import cv2

    from fanscan.datasets import scenes
    from fanscan.vision.detections import TileDetections

    drawn = _tile(100)
    picture = np.full((600, 800, 3), 120, np.uint8)

    class _Scene:
        jpeg = cv2.imencode(".jpg", picture)[1].tobytes()
        tiles = [scenes.SceneTile("1m", drawn, 0, False, False)]
        unseen = ()

    asked = {}

    def fake_scene(seed, **options):
        asked.update(options)
        return _Scene()

    elsewhere = [_tile(200 + 12 * (k % 40), 300 + (k // 40) * 50, 10, 14) for k in range(40)]
    found = TileDetections(np.stack([drawn, *elsewhere]), np.ones(41), np.zeros(41, bool))
    monkeypatch.setattr(scenes, "generate_scene", fake_scene)
    monkeypatch.setattr(no_tile_crops, "locate", lambda photo: (None, found))
    crops = no_tile_crops.busy_crops(7, np.random.default_rng(0))
    assert asked["props"] is True and set(asked["tables"]) > {"felt", "rubber", "puzzle", "photo"}
    assert 0 < len(crops) <= no_tile_crops.MOST_BUSY_BOXES
    assert all(crop.shape == (CROP_H, CROP_W, 3) for crop in crops)
