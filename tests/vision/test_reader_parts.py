"""Parts of the reader that need no tile art: slivers dropped, and frames tried on a few tiles first."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision import geometry, hand_region, tile_reading
from fanscan.vision.classifier import Looks, needs_second_look
from fanscan.vision.image_io import load_photo
from glyph_classifier import CountingGlyph as _CountingGlyph, Glyph as _Glyph, draw_glyph


def _reading(x: float, width: float, confidence: float):  # noqa: ANN202
    from fanscan.vision.detections import TileReading

    box = np.float32([[x, 0], [x + width, 0], [x + width, 40], [x, 40]])
    return TileReading("5m", confidence, box, 0.0, False, x + width / 2, (("5m", confidence),))


def test_a_second_box_on_a_tile_goes_and_the_surer_reading_stays() -> None:
    row = [_reading(31.0 * k, 30, 0.99) for k in range(6)]  # touching neighbours overlap a little
    row[5] = _reading(31.0 * 5 - 3, 30, 0.95)  # 3 px into its neighbour: IoU 0.05, kept
    shifted = _reading(31.0 * 2 + 10, 30, 0.31)  # a third of a tile off row[2]: IoU 0.5
    kept = hand_region.without_duplicates([*row[:3], shifted, *row[3:]])
    assert len(kept) == 6 and all(a is b for a, b in zip(kept, row))
    surer = _reading(31.0 * 2 + 10, 30, 0.995)  # the shifted box read more surely keeps its place
    kept = hand_region.without_duplicates([*row[:3], surer, *row[3:]])
    assert [r.confidence for r in kept] == [0.99, 0.99, 0.995, 0.99, 0.99, 0.95]
    assert any(r is surer for r in kept) and not any(r is row[2] for r in kept)
    assert hand_region.DUPLICATE_IOU > 0.23  # the most two true neighbours' refined boxes overlap


def test_boxes_whose_centres_lie_under_a_tile_apart_are_on_one_tile() -> None:
    row = [_reading(31.0 * k, 30, 0.99) for k in range(4)]  # touching neighbours: centres 31 px apart
    row[3] = _reading(31.0 * 3 - 6, 30, 0.99)  # pushed 6 px into its neighbour: centres 0.8 tiles apart
    across = _reading(31.0 + 15, 30, 0.9)  # across row[1] and row[2]: IoU 0.33 and 0.30, centres 0.5 tiles apart
    halves = [_reading(0, 17, 0.99), _reading(11, 17, 0.98)]  # row[0] boxed as two halves: IoU 0.21
    assert hand_region.on_one_tile(row) == []
    assert hand_region.on_one_tile([*row, across]) == [(1, 4), (2, 4)]
    assert hand_region.on_one_tile([*halves, *row[1:]]) == [(0, 1)]
    assert hand_region.without_duplicates([*row, across]) == [*row, across]  # left to the search
    apart = [_reading(100.0 * k, 30, 0.99) for k in range(3)] + [_reading(30.5, 1, 0.9)]
    assert hand_region.on_one_tile(apart) == []  # a speck beside a tile, its centre 16 px away: no overlap, no pair


def test_slivers_small_and_doubtful_boxes_are_dropped_only_when_both() -> None:
    tiles = [_reading(31.0 * k, 30, 0.99) for k in range(6)]
    sliver = _reading(200, 12, 0.6)  # 0.4 of the median area, read at 60 %
    small_but_sure = _reading(220, 12, 0.95)
    doubtful_but_whole = _reading(240, 30, 0.3)
    assert hand_region.slivers([*tiles, sliver, small_but_sure, doubtful_but_whole]) == {6}
    assert hand_region.slivers([sliver, *tiles[:2]]) == set()  # too few to judge


def test_streaks_far_longer_than_a_tile_are_dropped() -> None:
    from fanscan.vision.detections import TileDetections
    from fanscan.vision.box_shapes import STREAK_ASPECT, without_specks

    def box(x: float, w: float, h: float) -> np.ndarray:
        return np.float32([[x, 0], [x + w, 0], [x + w, h], [x, h]])

    tiles = [box(100 * i, 90, 117) for i in range(5)]
    sideways_at_a_slant = box(600, 144, 45)  # 3.2 times as long as high: a claimed tile's box, tilted
    streak = box(800, 400, 0.9 * 400 / STREAK_ASPECT)  # a strip along the photo's edge
    found = TileDetections(np.stack([*tiles, sideways_at_a_slant, streak]), np.ones(7), np.zeros(7, bool))
    kept = without_specks(found)
    assert len(kept) == 6 and any(np.allclose(q, sideways_at_a_slant) for q in kept.quads)
    assert not any(np.allclose(q, streak) for q in kept.quads)


def test_a_photo_stretched_in_export_keeps_its_stretched_tiles() -> None:
    # A photo exported stretched (a wide photo squeezed to a square) stretches every tile alike:
    # faces 30 wide and 200 high are this photo's tiles, not streaks; a strip twice as long for
    # its width as they are still is one.
    from fanscan.vision.detections import TileDetections
    from fanscan.vision.box_shapes import FACE_ASPECT, STREAK_ASPECT, without_specks

    def box(x: float, w: float, h: float) -> np.ndarray:
        return np.float32([[x, 0], [x + w, 0], [x + w, h], [x, h]])

    tiles = [box(32 * i, 30, 200) for i in range(14)]  # 6.7 times as high as wide
    assert 200 / 30 > STREAK_ASPECT
    strip = box(500, 20, 20 * 2 * STREAK_ASPECT * (200 / 30) / FACE_ASPECT)
    found = TileDetections(np.stack([*tiles, strip]), np.ones(15), np.zeros(15, bool))
    kept = without_specks(found)
    assert len(kept) == 14 and not any(np.allclose(q, strip) for q in kept.quads)


def _row_box(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def test_a_box_holding_two_upright_tiles_is_cut_in_two() -> None:
    from fanscan.vision.detections import TileDetections
    from fanscan.vision.box_shapes import split_pairs

    row = [_row_box(100 * i, 0, 98, 100) for i in range(6)]  # square-looking faces: a tilted camera
    pair = _row_box(600, 0, 196, 100)
    claimed = _row_box(800, 30, 135, 72)  # a sideways tile: longer, but lower
    found = TileDetections(np.stack([*row, pair, claimed]), np.ones(8, np.float32), np.zeros(8, bool))
    split, halves = split_pairs(found)
    assert len(split) == 9 and halves.tolist() == [False] * 6 + [True, True] + [False]
    assert np.allclose(split.quads[6], _row_box(600, 0, 98, 100))
    assert np.allclose(split.quads[7], _row_box(698, 0, 98, 100))
    assert np.allclose(split.quads[8], claimed)


def test_pairs_are_cut_up_to_the_longest_a_pair_looks_and_no_longer() -> None:
    # Two tiles near the camera at a slanted row's end, boxes with their sides: 2.5 tiles long
    # (scene 9574: 2s 2s read as one 1m). A box over three tiles is not cut in two.
    from fanscan.vision.detections import TileDetections
    from fanscan.vision.box_shapes import PAIR_ALONG, split_pairs

    row = [_row_box(100 * i, 0, 100, 100) for i in range(6)]
    for length, cut in ((PAIR_ALONG[1] - 0.1, True), (PAIR_ALONG[1] + 0.1, False), (PAIR_ALONG[0] - 0.1, False)):
        long_box = _row_box(600, 0, 100 * length, 100)
        found = TileDetections(np.stack([*row, long_box]), np.ones(7, np.float32), np.zeros(7, bool))
        assert bool(split_pairs(found)[1].any()) is cut
    assert PAIR_ALONG[1] >= 2.5


def test_a_pair_is_cut_along_the_row_whichever_corner_its_box_starts_at() -> None:
    from fanscan.vision.detections import TileDetections
    from fanscan.vision.box_shapes import split_pairs

    row = [_row_box(0, 100 * i, 100, 98) for i in range(6)]  # a row running down the photo
    pair = np.float32([[0, 600], [100, 600], [100, 796], [0, 796]])
    found = TileDetections(np.stack([*row, pair]), np.ones(7, np.float32), np.zeros(7, bool))
    split, halves = split_pairs(found)
    assert halves.sum() == 2
    tops = sorted(float(q[:, 1].min()) for q in split.quads[halves])
    assert tops == pytest.approx([600, 698])
    assert all(float(np.ptp(q[:, 1])) == pytest.approx(98) for q in split.quads[halves])


def test_a_row_below_a_heap_of_smaller_boxes_is_measured_against_its_own_tiles() -> None:
    # rf-chinese hand_164: a standing hand below a heap of discards, boxed smaller and lying in
    # columns, so the photo's boxes as a whole run down the photo and the hand's tiles, 1.8 times
    # the heap's along that way, look like pairs; against their own row they are single tiles.
    from fanscan.vision.detections import TileDetections
    from fanscan.vision.box_shapes import split_pairs

    heap = [_row_box(60 * col, 35 * row, 40, 33) for col in range(6) for row in range(5)]
    hand = [_row_box(42 * i, 400, 40, 60) for i in range(14)]
    found = TileDetections(np.stack([*heap, *hand]), np.ones(44, np.float32), np.zeros(44, bool))
    split, halves = split_pairs(found)
    assert len(split) == 44 and not halves.any()
    wide = [_row_box(42 * i, 400, 40, 60) for i in range(6)] + [_row_box(252, 400, 80, 60)]
    found = TileDetections(np.stack(wide), np.ones(7, np.float32), np.zeros(7, bool))
    split, halves = split_pairs(found)  # the same row alone: its pair is cut across the row
    assert halves.sum() == 2 and np.allclose(split.quads[halves][0], _row_box(252, 400, 40, 60))


def test_boxes_of_single_tiles_are_never_cut() -> None:
    from fanscan.vision.detections import TileDetections
    from fanscan.vision.box_shapes import split_pairs

    nearer = [_row_box(100 * i, 0, 98 + 8 * i, 100 + 8 * i) for i in range(7)]  # perspective grows them
    found = TileDetections(np.stack(nearer), np.ones(7, np.float32), np.zeros(7, bool))
    split, halves = split_pairs(found)
    assert len(split) == 7 and not halves.any()
    few = TileDetections(np.stack([nearer[0], _row_box(200, 0, 196, 100)]), np.ones(2, np.float32), np.zeros(2, bool))
    assert len(split_pairs(few)[0]) == 2  # too few boxes to say what a tile's size is


class _Table:
    """A classifier stand-in that gives the i-th crop of every call the i-th row of ``probs``."""

    def __init__(self, probs: np.ndarray) -> None:
        self.probs = probs

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        return self.probs[: len(crops)]


def test_a_box_marked_face_down_keeps_a_face_the_classifier_is_sure_of() -> None:
    from fanscan.vision.detections import TileDetections

    image = np.full((300, 500, 3), 200, np.uint8)
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    boxes = [_row_box(50 + 62 * k, 100, 60, 80) for k in range(4)]
    probs = np.full((4, len(CLASS_LABELS)), 0.0, np.float32)
    back, face = CLASS_LABELS.index("back"), CLASS_LABELS.index("3m")
    probs[0, face], probs[0, back] = tile_reading.FACE_OVER_BACK + 0.05, 0.05 - 0.01  # sure of a face
    probs[1, face], probs[1, back] = tile_reading.FACE_OVER_BACK - 0.1, 0.2  # not sure enough
    probs[2, back], probs[2, face] = 0.9, 0.1
    probs[3, CLASS_LABELS.index("P")], probs[3, back] = 0.96, 0.04  # a plain face: the mark stands
    found = TileDetections(np.stack(boxes), np.full(4, 0.8, np.float32), np.ones(4, bool))
    readings, _, _ = tile_reading.read_tiles(photo, found, _Table(probs))
    assert [r.code for r in readings] == ["3m", "back", "back", "back"]
    assert readings[1].confidence == pytest.approx(0.8)  # the finder's surer back


def test_a_hand_whose_faces_lie_a_quarter_turn_off_its_rows_is_read_turned() -> None:
    # Three faces side by side, each 60 wide and 40 high: the row runs left to right, so the frame
    # says up is up the photo; but each glyph's top points left (as in a grid photographed from the
    # side, or a photo whose EXIF turn was lost). Only a quarter-turned frame reads them.
    from fanscan.vision.detections import TileDetections

    image = np.full((300, 400, 3), 60, np.uint8)
    boxes = []
    for k in range(3):
        x0, y0 = 80 + 62 * k, 120
        face = np.full((60, 40, 3), 60, np.uint8)  # drawn upright (40 wide, 60 high), then turned
        cv2.circle(face, (9, 9), 4, (40, 40, 230), -1)  # red
        cv2.circle(face, (26, 9), 4, (230, 40, 40), -1)  # blue
        image[y0 : y0 + 40, x0 : x0 + 60] = np.rot90(face, 1)  # top to the left
        boxes.append(_row_box(x0, y0, 60, 40))
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    found = TileDetections(np.stack(boxes), np.full(3, 0.9, np.float32), np.zeros(3, bool))
    readings, right, up = tile_reading.read_tiles(photo, found, _Glyph())
    assert [r.code for r in readings] == ["1m"] * 3
    assert up == pytest.approx([-1, 0], abs=1e-6)  # up, for these faces, is the photo's left


def _row_of_faces(count: int, glyph_turns: int | None) -> tuple:
    """A photo of ``count`` faces 40 wide and 60 high in rows of ten, each with the glyph
    ``_Glyph`` reads turned by ``glyph_turns`` quarter turns (None: no glyph), and their boxes."""
    from fanscan.vision.detections import TileDetections

    image = np.full((40 + 70 * (count // 10 + 1), 40 + 44 * 10, 3), 60, np.uint8)
    boxes = []
    for k in range(count):
        x0, y0 = 20 + 44 * (k % 10), 20 + 70 * (k // 10)
        face = np.full((60, 40, 3), 90, np.uint8)
        if glyph_turns is not None:
            cv2.circle(face, (9, 9), 4, (40, 40, 230), -1)
            cv2.circle(face, (26, 9), 4, (230, 40, 40), -1)
            face = np.ascontiguousarray(np.rot90(face, glyph_turns))
        image[y0 : y0 + 60, x0 : x0 + 40] = face
        boxes.append(_row_box(x0, y0, 40, 60))
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    scores = np.linspace(0.99, 0.5, count).astype(np.float32)
    return photo, TileDetections(np.stack(boxes), scores, np.zeros(count, bool))


def test_a_frame_that_reads_no_better_is_tried_on_the_surest_tiles_only() -> None:
    photo, found = _row_of_faces(40, None)  # no frame reads these faces any better
    classifier = _CountingGlyph()
    readings, _, up = tile_reading.read_tiles(photo, found, classifier)
    assert classifier.seen == 40 + tile_reading.TRIAL_TILES  # the quarter turn's trial, never upside down
    assert up == pytest.approx([0, -1], abs=1e-6)  # the frame as found stays


class _EitherWayGlyph(_Glyph):
    """A stand-in that, as the shipped classifier learnt to, reads a glyph upright or upside down
    as the same face (``1m``), the upside-down one a little more surely (0.7 against 0.6); a
    quarter-turned glyph it reads poorly, as ``2m``."""

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        one_m, two_m = CLASS_LABELS.index("1m"), CLASS_LABELS.index("2m")
        upright = super().probabilities(crops).argmax(axis=1) == one_m
        upside_down = super().probabilities([cv2.rotate(c, cv2.ROTATE_180) for c in crops]).argmax(axis=1) == one_m
        probs = np.full((len(crops), len(CLASS_LABELS)), 0.2 / (len(CLASS_LABELS) - 1), np.float32)
        probs[upright, one_m] = 0.6
        probs[upside_down, one_m] = 0.7
        probs[~upright & ~upside_down, two_m] = 0.4
        return probs / probs.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("glyph_turns", [0, 2])
def test_a_hand_is_read_in_the_cameras_frame_however_surely_it_reads_upside_down(glyph_turns: int) -> None:
    # Upright or upside down in the photo, the faces read as the same face either way up, a little
    # more surely upside down. Which way up a hand lies is not the classifier's to say: the
    # frame's up stays the one pointing up the photo, and the quarter turn tried reads worse.
    photo, found = _row_of_faces(40, glyph_turns)
    readings, _, up = tile_reading.read_tiles(photo, found, _EitherWayGlyph())
    assert [r.code for r in readings] == ["1m"] * 40
    assert up == pytest.approx([0, -1], abs=1e-6)
    assert {round(r.orientation) % 360 for r in readings} == {0}
    assert [r.position for r in readings[:10]] == sorted(r.position for r in readings[:10])  # left to right


def _faces_apart(glyph_turns: list[int], gap: int) -> tuple:
    """A photo of faces 40 wide and 60 high side by side, ``gap`` pixels apart, each with the
    glyph ``_Glyph`` reads turned by its ``glyph_turns`` quarter turns, and their boxes."""
    from fanscan.vision.detections import TileDetections

    image = np.full((140, 40 + (40 + gap) * len(glyph_turns), 3), 60, np.uint8)
    boxes = []
    for k, turns in enumerate(glyph_turns):
        x0, y0 = 20 + (40 + gap) * k, 40
        glyph = np.full((40, 40, 3), 90, np.uint8)
        cv2.circle(glyph, (9, 9), 4, (40, 40, 230), -1)
        cv2.circle(glyph, (26, 9), 4, (230, 40, 40), -1)
        face = np.full((60, 40, 3), 90, np.uint8)
        face[10:50] = np.rot90(glyph, turns)
        image[y0 : y0 + 60, x0 : x0 + 40] = face
        boxes.append(_row_box(x0, y0, 40, 60))
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    return photo, TileDetections(np.stack(boxes), np.full(len(boxes), 0.9, np.float32), np.zeros(len(boxes), bool))


def test_tiles_lying_apart_are_each_read_both_quarter_turns() -> None:
    # Three tiles photographed on their own, far apart: the middle one's face lies a quarter turned.
    # No row says which way up they lie, so each is read both quarter turns and the surer kept.
    photo, found = _faces_apart([0, 1, 0], gap=150)
    assert geometry.lone_tiles(found.quads).all()
    readings, _, _ = tile_reading.read_tiles(photo, found, _EitherWayGlyph())
    assert [r.code for r in readings] == ["1m", "1m", "1m"]


def test_tiles_touching_in_a_row_are_read_in_the_rows_frame_only() -> None:
    # The same faces touching in a row: the row sets the frame, and a face turned against it is
    # not turned back (each tile is cut once: no quarter turn is tried while they read surely).
    photo, found = _faces_apart([0, 0, 0, 0, 0], gap=2)
    assert not geometry.lone_tiles(found.quads).any()
    classifier = _CountingGlyph()
    readings, _, _ = tile_reading.read_tiles(photo, found, classifier)
    assert classifier.seen == 5 and [r.code for r in readings] == ["1m"] * 5


@pytest.mark.parametrize(("lying", "sideways"), [("flat", False), ("claimed", True)])
def test_a_tile_wider_than_the_row_s_is_read_upright_too_and_sideways_only_when_that_reads_surer(
        lying: str, sideways: bool) -> None:
    # Four faces standing on edge, seen from the seat, and a fifth box twice as wide as high: a
    # tile laid flat beyond them (its face upright, foreshortened) or a claimed tile lying
    # sideways (its face a quarter turned). Both are wider for their height than the row's, and
    # flagged sideways; each is cut both ways across the row and upright, and the surest kept.
    from fanscan.vision.detections import TileDetections

    image = np.full((200, 400, 3), 60, np.uint8)
    face = draw_glyph(np.full((60, 40, 3), 90, np.uint8))
    boxes = []
    for k in range(4):
        image[70:130, 20 + 42 * k : 60 + 42 * k] = face
        boxes.append(_row_box(20 + 42 * k, 70, 40, 60))
    wide = cv2.resize(face, (60, 30), interpolation=cv2.INTER_AREA) if lying == "flat" else \
        cv2.resize(np.ascontiguousarray(np.rot90(face, 1)), (60, 30), interpolation=cv2.INTER_AREA)
    image[100:130, 190:250] = wide
    boxes.append(_row_box(190, 100, 60, 30))
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    found = TileDetections(np.stack(boxes), np.full(5, 0.9, np.float32), np.zeros(5, bool))
    assert geometry.sideways_flags(found.quads, np.array([1.0, 0.0]), np.array([0.0, -1.0]))[4]
    readings, _, _ = tile_reading.read_tiles(photo, found, _SureGlyph())
    assert [r.code for r in readings] == ["1m"] * 5
    assert [r.sideways for r in readings] == [False] * 4 + [sideways]


class _SureGlyph(_Glyph):
    """``_Glyph``, sure of an upright glyph (1m at 0.98) and unsure of any other crop (2m at 0.5):
    the upright look of a wide tile must beat its sideways look's log-odds by
    ``geometry.UPRIGHT_THOUGH_WIDE`` (``_Glyph``'s 0.77 against 0.7 would not)."""

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        one_m, two_m = CLASS_LABELS.index("1m"), CLASS_LABELS.index("2m")
        sure = super().probabilities(crops).argmax(axis=1) == one_m
        probs = np.full((len(crops), len(CLASS_LABELS)), 0.5 / (len(CLASS_LABELS) - 2), np.float32)
        probs[sure] = 0.02 / (len(CLASS_LABELS) - 1)
        probs[sure, one_m] = 0.98
        probs[~sure, two_m] = 0.5
        return probs / probs.sum(axis=1, keepdims=True)


def test_ways_up_of_a_frame_and_of_scattered_tiles() -> None:
    up, right = np.array([0.0, -1.0]), np.array([1.0, 0.0])
    ways = geometry.ways_up(up, right, [False, True])
    assert [len(w) for w in ways] == [1, 3]
    # A tile wider than the row's: both ways across the row first, then upright.
    assert ways[0][0] == pytest.approx(up) and {tuple(w) for w in ways[1][:2]} == {(1.0, 0.0), (-1.0, 0.0)}
    assert ways[1][2] == pytest.approx(up)
    assert geometry.read_sideways([False, True, True], [0, 1, 2]) == [False, True, False]
    scattered = geometry.ways_up(up, right, [False, True], scattered=True)
    # Both quarter turns for every tile, the quarter turn's up the one pointing up the photo (left).
    assert all(len(w) == 2 and w[0] == pytest.approx(up) and w[1] == pytest.approx([-1.0, 0.0]) for w in scattered)


def test_lone_tiles_are_those_no_other_touches() -> None:
    row = [_row_box(42 * k, 0, 40, 60) for k in range(3)]  # touching along a row
    above = _row_box(0, -62, 40, 60)  # touching the row's first tile from above
    apart = _row_box(400, 0, 40, 60)  # far from all
    corner = _row_box(124, 60, 40, 60)  # touching the row's last tile at a corner only
    off = _row_box(180, 130, 40, 60)  # diagonally off the row, not touching it
    flags = geometry.lone_tiles(np.stack([*row, above, apart, corner, off]))
    assert flags.tolist() == [False, False, False, False, True, False, True]
    assert geometry.lone_tiles(np.stack([apart])).tolist() == [True]


def test_up_the_photo_is_the_direction_whose_y_falls_or_left_when_it_runs_across() -> None:
    assert geometry.up_the_photo(np.array([0.3, 0.9])) == pytest.approx([-0.3, -0.9])
    assert geometry.up_the_photo(np.array([0.3, -0.9])) == pytest.approx([0.3, -0.9])
    assert geometry.up_the_photo(np.array([1.0, 0.0])) == pytest.approx([-1.0, 0.0])
    assert geometry.up_the_photo(np.array([-1.0, 0.0])) == pytest.approx([-1.0, 0.0])


class _TwoLookGlyph(_Glyph):
    """``_Glyph`` with the shipped classifier's two-look interface (``one_look``, ``combined``),
    counting the crops it is shown; an upright glyph is read surely (0.97, above the second look's
    0.9), any other crop doubtfully and averaged with the crop turned 180 degrees."""

    def __init__(self) -> None:
        self.seen = 0

    def one_look(self, crops: list[np.ndarray]) -> np.ndarray:
        self.seen += len(crops)
        probs = super().probabilities(crops)
        upright = probs.argmax(axis=1) == CLASS_LABELS.index("1m")
        probs[upright] = 0.03 / (len(CLASS_LABELS) - 1)
        probs[upright, CLASS_LABELS.index("1m")] = 0.97
        return probs

    def combined(self, first: np.ndarray, turned: np.ndarray) -> Looks:
        doubtful = needs_second_look(first)[:, None]
        return Looks(np.where(doubtful, (first + turned) / 2, first), np.zeros(len(first), np.float32))


def test_the_second_look_is_the_box_cut_the_other_way_up_when_that_was_cut_already() -> None:
    from fanscan.vision.way_looks import WayLooks

    photo, found = _row_of_faces(3, 0)  # glyphs upright: sure upright, doubtful upside down
    classifier = _TwoLookGlyph()
    looks = WayLooks(photo, found.quads, found.backs, classifier, 1, (40, 60), lambda crops: None)
    up, down = np.array([0.0, -1.0]), np.array([0.0, 1.0])
    sure = looks.looks([(t, up) for t in range(3)])
    assert classifier.seen == 3
    assert [CLASS_LABELS[int(p.argmax())] for p in sure.looks.probs] == ["1m"] * 3
    turned = looks.looks([(t, down) for t in range(3)])  # doubtful: averaged with the upright looks
    assert classifier.seen == 6  # the upside-down cuts only; the upright looks were reused
    one_m = CLASS_LABELS.index("1m")
    assert turned.looks.probs[:, one_m] == pytest.approx((sure.looks.probs[:, one_m] + 0.3 / 42) / 2, rel=1e-4)
    assert [b.tolist() for b in turned.boxes] == [b.tolist() for b in geometry.orient_boxes(found.quads, np.tile(down, (3, 1)))]
    looks.looks([(t, w) for t in range(3) for w in (up, down)])
    assert classifier.seen == 6  # asked again: nothing new cut or looked at


def test_each_cluster_of_tiles_is_read_in_its_own_frame() -> None:
    # A row of four faces upright, and far to its right a column of four faces whose glyphs point
    # left (a pile or another player's tiles lying a quarter turn off): one frame for the whole
    # photo reads one of the two sideways; each cluster in its own frame reads all eight.
    from fanscan.vision.detections import TileDetections

    image = np.full((400, 900, 3), 60, np.uint8)
    boxes = []
    for k in range(4):
        x0, y0 = 40 + 42 * k, 300
        face = np.full((60, 40, 3), 90, np.uint8)
        cv2.circle(face, (9, 9), 4, (40, 40, 230), -1)
        cv2.circle(face, (26, 9), 4, (230, 40, 40), -1)
        image[y0 : y0 + 60, x0 : x0 + 40] = face
        boxes.append(_row_box(x0, y0, 40, 60))
        x1, y1 = 700, 40 + 62 * k
        image[y1 : y1 + 40, x1 : x1 + 60] = np.rot90(face, 1)  # top to the left
        boxes.append(_row_box(x1, y1, 60, 40))
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    found = TileDetections(np.stack(boxes), np.full(8, 0.9, np.float32), np.zeros(8, bool))
    groups = tile_reading.frame_groups(found.quads)
    assert sorted(sorted(g.tolist()) for g in groups) == [[0, 2, 4, 6], [1, 3, 5, 7]]
    readings, _, _ = tile_reading.read_tiles(photo, found, _Glyph())
    assert [r.code for r in readings] == ["1m"] * 8
    assert all(r.frame_up == pytest.approx((0, -1), abs=1e-6) for r in readings[0::2])
    assert all(r.frame_up == pytest.approx((-1, 0), abs=1e-6) for r in readings[1::2])


def test_a_lone_tile_is_read_in_the_frame_of_the_cluster_nearest_it() -> None:
    row = [_row_box(40 + 42 * k, 300, 40, 60) for k in range(4)]
    column = [_row_box(700, 40 + 62 * k, 60, 40) for k in range(4)]
    lone_near_the_column = _row_box(900, 400, 40, 60)
    groups = tile_reading.frame_groups(np.stack([*row, *column, lone_near_the_column]))
    assert sorted(sorted(g.tolist()) for g in groups) == [[0, 1, 2, 3], [4, 5, 6, 7, 8]]
    # With no cluster big enough for a set, all tiles are read in one frame.
    assert [g.tolist() for g in tile_reading.frame_groups(np.stack([row[0], column[0]]))] == [[0, 1]]


def test_the_hand_is_laid_out_in_the_frame_its_tiles_were_read_in() -> None:
    from dataclasses import replace

    from fanscan.vision.geometry import in_their_frame

    # Three tiles read in a frame whose up is the photo's left; the photo's frame says up is up.
    hand = [replace(_reading(0, 30, 0.9), box=_row_box(100, 50 + 42 * k, 60, 40), frame_up=(-1.0, 0.0))
            for k in range(3)]
    readings, right, up = in_their_frame(hand, np.array([1.0, 0.0]), np.array([0.0, -1.0]))
    assert up == pytest.approx([-1, 0]) and right == pytest.approx([0, -1])
    # Along the hand's right (up the photo), the lowest tile in the photo comes first.
    assert [r.position for r in readings] == pytest.approx([-70, -112, -154])


def test_clusters_of_boxes_and_which_are_large_enough() -> None:
    from fanscan.vision import geometry

    row = [_row_box(40 + 42 * k, 300, 40, 60) for k in range(5)]  # touching: one cluster
    pair = [_row_box(900, 40, 40, 60), _row_box(942, 40, 40, 60)]  # far off: another
    lone = [_row_box(500, 40, 40, 60)]
    cluster, sizes, big = geometry.large_clusters([*row, *pair, *lone], 3)
    assert cluster.tolist() == [0, 0, 0, 0, 0, 5, 5, 7]
    assert sizes.tolist() == [5, 5, 5, 5, 5, 2, 2, 1]
    assert big == [0]
    assert geometry.large_clusters([*row, *pair, *lone], 2)[2] == [0, 5]


def test_the_photo_s_up_is_its_clusters_ups_summed_by_size() -> None:
    def group(n: int, up: tuple[float, float]) -> tile_reading._GroupRead:
        return tile_reading._GroupRead(np.arange(n), [], [], np.zeros((n, 1)), np.zeros(n), [], [], [],
                                       np.zeros(2), np.array(up))

    right, up = tile_reading._photo_frame([group(6, (0.0, -1.0)), group(2, (1.0, 0.0))])
    assert up == pytest.approx(np.array([2.0, -6.0]) / np.hypot(2, 6))
    assert right == pytest.approx([-up[1], up[0]])
    # Ups that cancel out say nothing: the largest cluster's stands.
    _, up = tile_reading._photo_frame([group(5, (0.0, -1.0)), group(4, (0.0, 1.0))])
    assert up == pytest.approx([0.0, -1.0])


def test_a_file_that_is_no_photo_is_refused_before_any_session_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    # A process refused at once used to end while a thread still opened onnxruntime sessions, and
    # died ("terminate called without an active exception", exit 134) after its one-line error.
    from fanscan.errors import FanscanError
    from fanscan.vision import reader

    opened: list[object] = []
    monkeypatch.setattr(reader.session_opening, "open_meanwhile", lambda *args: opened.append(args))
    class _NeverAsked:  # the read fails at the photo, before any crop is classified
        def probabilities(self, crops):  # noqa: ANN001, ANN202
            raise AssertionError("the classifier was asked")

    with pytest.raises(FanscanError, match="not an image"):
        reader.read_photo(b"not an image at all", classifier=_NeverAsked(), flower_looks=False)
    assert opened == []


def test_the_sessions_opening_meanwhile_are_waited_for_before_the_process_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    from fanscan.vision import reader

    registered: list[object] = []
    monkeypatch.setattr(reader.session_opening, "_opening", None)
    monkeypatch.setattr(reader.session_opening.atexit, "register", registered.append)
    reader.session_opening.open_meanwhile(object(), None)
    assert registered == [reader.session_opening._opening.join]
    reader.session_opening._opening.join()



@pytest.mark.parametrize("code, no_tile, dropped", [
    ("5m", 0.9, True), ("5m", 0.5, False), ("5m", 0.0, False),
    ("P", 0.9, False), ("back", 0.99, False),  # plain faces: only their place tells them apart
])
def test_a_box_read_as_more_likely_no_tile_is_dropped_unless_its_face_is_plain(code, no_tile, dropped):
    from dataclasses import replace

    reading = replace(_reading(0.0, 10.0, 0.9), code=code, no_tile=no_tile)
    assert tile_reading.holds_no_tile(reading) is dropped
    assert tile_reading.tiles_only([reading]) == ([] if dropped else [reading])


def _row_with_a_claimed_tile() -> tuple:
    """A photo of four upright faces and, fifth, one lying sideways (its glyph's top to the
    left), and their readings as a cluster crowded with discards would give them: every tile read
    upright, the sideways one poorly (2m at 0.7)."""
    from fanscan.vision.detections import TileReading

    image = np.full((200, 400, 3), 60, np.uint8)
    face = np.full((60, 40, 3), 90, np.uint8)
    cv2.circle(face, (9, 9), 4, (40, 40, 230), -1)
    cv2.circle(face, (26, 9), 4, (230, 40, 40), -1)
    boxes = []
    for k in range(4):
        image[70:130, 20 + 42 * k : 60 + 42 * k] = face
        boxes.append(_row_box(20 + 42 * k, 70, 40, 60))
    image[90:130, 190:250] = np.rot90(face, 1)  # the claimed tile, turned a quarter to the left
    boxes.append(_row_box(190, 90, 60, 40))
    readings = [TileReading("1m", 0.99, b, 0.0, False, float(b[:, 0].mean()), (("1m", 0.99),)) for b in boxes[:4]]
    readings.append(TileReading("2m", 0.7, boxes[4], 0.0, False, 220.0, (("2m", 0.7),)))
    return load_photo(cv2.imencode(".png", image)[1].tobytes()), readings


def test_a_claimed_tile_read_upright_in_a_crowded_cluster_is_read_sideways_in_the_hand_s_frame() -> None:
    photo, readings = _row_with_a_claimed_tile()
    right, up = np.array([1.0, 0.0]), np.array([0.0, -1.0])
    again = tile_reading.read_sideways_again(photo, readings, right, up, _Glyph())
    assert again[:4] == readings[:4]  # upright tiles as they were read
    assert again[4].code == "1m" and again[4].sideways and again[4].confidence > 0.7
    assert again[4].orientation == pytest.approx(90.0)  # its top to the left


def test_a_claimed_tile_read_upright_a_little_surer_is_still_read_sideways_by_its_length() -> None:
    # Read upright as 2m at 0.9, about 1 nat surer than its sideways cut's 1m (0.77 as the stand-in
    # reads it); but it is 1.5 times as long along the row as its neighbours, so the fitted margin
    # asks about 1.6 nats.
    from dataclasses import replace

    photo, readings = _row_with_a_claimed_tile()
    readings[4] = replace(readings[4], confidence=0.9, candidates=(("2m", 0.9),))
    again = tile_reading.read_sideways_again(photo, readings, np.array([1.0, 0.0]), np.array([0.0, -1.0]), _Glyph())
    assert again[4].code == "1m" and again[4].sideways and again[4].orientation == pytest.approx(90.0)
    assert again[4].candidates[1][0] == "2m" and 0.01 < again[4].candidates[1][1] < again[4].confidence
    # Read upright surely enough, it stays upright, its sideways face the runner-up.
    readings[4] = replace(readings[4], confidence=0.99999, candidates=(("2m", 0.99999),))
    kept = tile_reading.read_sideways_again(photo, readings, np.array([1.0, 0.0]), np.array([0.0, -1.0]), _Glyph())
    assert kept[4].code == "2m" and not kept[4].sideways and np.array_equal(kept[4].box, readings[4].box)
    assert kept[4].orientation == pytest.approx(0.0) and kept[4].candidates[1][0] == "1m"


def test_a_tile_read_sideways_stays_as_read_whatever_the_hand_s_frame_says() -> None:
    from dataclasses import replace

    photo, readings = _row_with_a_claimed_tile()
    # Already read sideways (in its cluster's frame), though the hand's frame may judge otherwise:
    # only the other way round is read again.
    readings = [replace(r, sideways=True) if k == 1 else r for k, r in enumerate(readings)]
    again = tile_reading.read_sideways_again(photo, readings[:4], np.array([1.0, 0.0]), np.array([0.0, -1.0]), _Glyph())
    assert again == readings[:4]


def test_whole_tiles_read_better_than_pieces_of_them_or_blobs_of_several() -> None:
    # The judge ``locate`` asks whether a close-up's smaller copy beats the plain search.
    from fanscan.vision.classifier import default_classifier
    from fanscan.vision.detections import TileDetections
    from fanscan.vision.locate import locate
    from fanscan.vision.samples import sample_photo_path

    def boxes(quads: np.ndarray) -> TileDetections:
        return TileDetections(np.float32(quads), np.ones(len(quads), np.float32), np.zeros(len(quads), bool))

    photo = load_photo(sample_photo_path())
    _, tiles = locate(photo)
    quads = geometry.orient_boxes(tiles.quads, np.tile(np.float32([0, -1]), (len(tiles), 1)))  # TL TR BR BL
    quads = quads[np.argsort(quads[:, :, 0].mean(axis=1))]
    middle_left, middle_right = (quads[:, 0] + quads[:, 3]) / 2, (quads[:, 1] + quads[:, 2]) / 2
    tops = np.stack([quads[:, 0], quads[:, 1], middle_right, middle_left], axis=1)
    bottoms = np.stack([middle_left, middle_right, quads[:, 2], quads[:, 3]], axis=1)
    threes = np.stack([np.stack([quads[i, 0], quads[i + 2, 1], quads[i + 2, 2], quads[i, 3]])
                       for i in range(0, len(quads) - 2, 3)])
    judge = tile_reading.read_quality(photo, default_classifier())
    whole = judge(tiles)
    assert whole > 0.8
    assert judge(boxes(np.concatenate([tops, bottoms]))) < whole
    assert judge(boxes(threes)) < whole
    assert judge(boxes(np.zeros((0, 4, 2)))) == 0.0
