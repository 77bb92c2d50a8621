"""The hand read again in its own rows' frame (``vision.own_frame``), with a classifier stand-in
that reads a glyph surely only when its crop is cut upright (``glyph_classifier``)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from fanscan.vision import geometry, own_frame
from fanscan.vision.detections import TileReading
from fanscan.vision.image_io import load_photo
from glyph_classifier import CountingGlyph, Glyph, draw_glyph


def _slanted_row(degrees: float, count: int = 6, behind: int = 0) -> tuple:
    """A photo of ``count`` upright faces (40 x 60) side by side in a row turned ``degrees``
    counter-clockwise, and their readings as a cluster read in the photo's upright frame gives
    them: each 2m at 0.7, its frame's up the photo's. ``behind`` faces more lie in a second row
    just above the first (a meld laid behind the hand), from its second tile on."""
    canvas = np.full((600, 800, 3), 60, np.uint8)
    corners = []
    places = [(250 + 42 * k, 270) for k in range(count)] + [(292 + 42 * k, 208) for k in range(behind)]
    for x0, y0 in places:
        face = draw_glyph(np.full((60, 40, 3), 90, np.uint8))
        canvas[y0 : y0 + 60, x0 : x0 + 40] = face
        corners.append([[x0, y0], [x0 + 40, y0], [x0 + 40, y0 + 60], [x0, y0 + 60]])
    turn = cv2.getRotationMatrix2D((400, 300), degrees, 1.0)
    image = cv2.warpAffine(canvas, turn, (800, 600), borderValue=(60, 60, 60))
    boxes = [np.float32(cv2.transform(np.float32([c]), turn)[0]) for c in corners]
    readings = [TileReading("2m", 0.7, box, 0.0, False, float(box[:, 0].mean()), (("2m", 0.7),),
                            frame_up=(0.0, -1.0)) for box in boxes]
    return load_photo(cv2.imencode(".png", image)[1].tobytes()), readings


UPRIGHT = (np.array([1.0, 0.0]), np.array([0.0, -1.0]))


def test_a_hand_whose_rows_run_far_off_the_frame_it_was_read_in_is_read_again_in_its_own() -> None:
    photo, readings = _slanted_row(40)
    again, right, up = own_frame.read_in_own_frame(photo, readings, *UPRIGHT, Glyph())
    assert [r.code for r in again] == ["1m"] * 6 and min(r.confidence for r in again) > 0.75  # 0.99 of 1.29
    slant = math.radians(40)  # the row's up, turned with it (image y down)
    assert up == pytest.approx([-math.sin(slant), -math.cos(slant)], abs=0.05)
    assert all(r.frame_up == pytest.approx(tuple(up)) for r in again)
    assert [r.position for r in again] == sorted(r.position for r in again)  # along the row, in order
    rows = geometry.rows_and_groups(again, right, up)
    assert len(rows) == 1 and len(rows[0]) == 1  # one row, one group: as laid


def test_a_hand_whose_rows_run_within_the_frames_agreement_keeps_its_looks_but_lies_in_its_own_rows() -> None:
    photo, readings = _slanted_row(15)
    classifier = CountingGlyph()
    again, right, up = own_frame.read_in_own_frame(photo, readings, *UPRIGHT, classifier)
    assert classifier.seen == 0  # not cut again: cut 15 degrees askew, the faces read as they did
    assert [(r.code, r.confidence) for r in again] == [(r.code, r.confidence) for r in readings]
    assert all(np.array_equal(a.box, r.box) for a, r in zip(again, readings))
    slant = math.radians(15)
    assert up == pytest.approx([-math.sin(slant), -math.cos(slant)], abs=0.05)
    assert right == pytest.approx([math.cos(slant), -math.sin(slant)], abs=0.05)
    assert [r.position for r in again] == pytest.approx([float(r.box.mean(axis=0) @ right) for r in readings])


def test_a_meld_behind_a_row_slanted_within_the_agreement_is_a_row_of_its_own() -> None:
    """Measured across the cluster's frame, 20 degrees off, the row's tiles climb as far as the
    meld behind it lies above them, and the two rows run into one (a chow behind a hand read as
    concealed tiles); across the hand's own frame they are two."""
    photo, readings = _slanted_row(20, count=9, behind=3)
    assert len(geometry.rows_and_groups(readings, *UPRIGHT)) == 1
    again, right, up = own_frame.read_in_own_frame(photo, readings, *UPRIGHT, CountingGlyph())
    rows = geometry.rows_and_groups(again, right, up)
    assert sorted(len(row[0]) for row in rows) == [3, 9]


def test_the_own_frame_points_the_way_the_frame_read_in_does() -> None:
    photo, readings = _slanted_row(15)
    flipped = (-UPRIGHT[0], -UPRIGHT[1])
    _, right, up = own_frame.read_in_own_frame(photo, readings, *flipped, CountingGlyph())
    assert float(up @ flipped[1]) > 0.9 and float(right @ flipped[0]) > 0.9


def test_a_hand_read_no_more_surely_in_its_own_frame_keeps_its_looks_but_lies_in_its_own_rows() -> None:
    photo, readings = _slanted_row(40)
    surer = [TileReading("2m", 0.9, r.box, 0.0, False, r.position, (("2m", 0.9),), frame_up=(0.0, -1.0))
             for r in readings]
    again, right, up = own_frame.read_in_own_frame(photo, surer, *UPRIGHT, Glyph())
    assert [(r.code, r.confidence) for r in again] == [("2m", 0.9)] * 6  # the looks as read
    assert all(np.array_equal(a.box, r.box) for a, r in zip(again, surer))
    slant = math.radians(40)
    assert up == pytest.approx([-math.sin(slant), -math.cos(slant)], abs=0.05)
    assert all(r.frame_up == pytest.approx(tuple(up)) for r in again)  # a cut of the hand lies so too
    assert [r.position for r in again] == pytest.approx([float(r.box.mean(axis=0) @ right) for r in surer])
    rows = geometry.rows_and_groups(again, right, up)
    assert len(rows) == 1 and len(rows[0]) == 1


QUARTER_OFF = (np.array([0.0, -1.0]), np.array([-1.0, 0.0]))
"""A cluster's frame a quarter turn off an upright row (a wall's column beside it set it)."""


def test_a_row_read_a_quarter_turn_off_lies_in_its_own_rows_its_tiles_upright() -> None:
    """In a frame a quarter turn off, each upright tile is wider across the frame's rows than high
    and was read as lying sideways, turned both ways: surer than its one upright look in its own
    frame, so the looks stay; but measured in that frame each tile is a row of its own, each a
    claimed tile alone. In its own rows they are one row of upright tiles."""
    photo, readings = _slanted_row(0)
    as_read = [TileReading("2m", 0.9, r.box, 90.0, True, float(r.box.mean(axis=0) @ QUARTER_OFF[0]),
                           (("2m", 0.9),), frame_up=(-1.0, 0.0)) for r in readings]
    assert len(geometry.rows_and_groups(as_read, *QUARTER_OFF)) == 6
    again, right, up = own_frame.read_in_own_frame(photo, as_read, *QUARTER_OFF, Glyph())
    assert [(r.code, r.confidence, r.orientation) for r in again] == [("2m", 0.9, 90.0)] * 6
    assert up == pytest.approx([0.0, -1.0], abs=0.05) and right == pytest.approx([1.0, 0.0], abs=0.05)
    assert not any(r.sideways for r in again)
    rows = geometry.rows_and_groups(again, right, up)
    assert len(rows) == 1 and len(rows[0]) == 1 and len(rows[0][0]) == 6


def test_too_few_tiles_set_no_frame_of_their_own() -> None:
    photo, readings = _slanted_row(40, count=own_frame.FEWEST_TILES - 1)
    classifier = CountingGlyph()
    again, _, _ = own_frame.read_in_own_frame(photo, readings, *UPRIGHT, classifier)
    assert again is readings and classifier.seen == 0
