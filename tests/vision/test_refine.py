"""The box refiner: boxes moved onto the tile faces' corners, and left alone when it cannot help."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.scene_crops import match_detections, quad_iou
from fanscan.datasets.scenes import SCENE_STYLES, generate_scene
from fanscan.vision import refine
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import load_photo
from fanscan.vision.locate import locate

needs_art = pytest.mark.skipif(
    not set(SCENE_STYLES) & set(tile_art.available_styles()), reason="no tile art installed"
)
_SQUARE = np.float32([[0, 0], [refine.SIDE, 0], [refine.SIDE, refine.SIDE], [0, refine.SIDE]])


def _mean_iou(quads: np.ndarray, truth: list[np.ndarray]) -> tuple[float, int]:
    ious = [quad_iou(quads[i], truth[j]) for i, j in enumerate(match_detections(quads, truth)) if j is not None]
    return float(np.mean(ious)), len(ious)


@needs_art
@pytest.mark.parametrize("seed", [7, 8])
def test_refine_moves_the_finders_boxes_onto_the_faces(seed: int) -> None:
    scene = generate_scene(seed)
    photo = load_photo(scene.jpeg)
    _, found = locate(photo, refine=False)
    truth = [tile.quad for tile in scene.tiles]
    before, matched = _mean_iou(found.quads, truth)
    after, matched_after = _mean_iou(refine.refine_quads(photo, found.quads), truth)
    assert matched_after >= matched
    assert after > before + 0.02
    assert after > 0.9


@needs_art
def test_locate_cuts_a_box_the_finder_drew_round_two_tiles() -> None:
    from fanscan.vision import geometry
    from fanscan.vision.box_shapes import split_pairs, without_specks

    # Scene 9574: earlier finders boxed two 2s at a slanted row's near end, with their sides, as
    # one. Here two touching tiles of its row are boxed as one on purpose, among the finder's boxes.
    scene = generate_scene(9574)
    photo = load_photo(scene.jpeg)
    _, raw = locate(photo, refine=False)
    boxes = refine.refined(photo, without_specks(raw))
    truth = [tile.quad for tile in scene.tiles]
    owner = match_detections(boxes.quads, truth)
    right, _ = geometry.hand_frame(boxes.quads)
    along = {j: float(truth[j].mean(axis=0) @ right) for j in owner if j is not None}
    width = np.median([np.linalg.norm(q[1] - q[0]) for q in truth])
    first, second = next((i, k) for i, j in enumerate(owner) for k, m in enumerate(owner)
                         if j is not None and m is not None and 0.8 * width < along[m] - along[j] < 1.2 * width
                         and np.linalg.norm(truth[j].mean(axis=0) - truth[m].mean(axis=0)) < 1.2 * width)
    a, b = geometry.orient_box(boxes.quads[first], -np.array([-right[1], right[0]])), \
        geometry.orient_box(boxes.quads[second], -np.array([-right[1], right[0]]))
    pair = np.float32([a[0], b[1], b[2], a[3]])  # the two faces' outer corners: one box round both
    keep = [i for i in range(len(boxes)) if i not in (first, second)]
    merged = TileDetections(np.concatenate([boxes.quads[keep], pair[None]]),
                            np.concatenate([boxes.scores[keep], [1.0]]).astype(np.float32),
                            np.concatenate([boxes.backs[keep], [False]]))
    split, halves = split_pairs(merged)
    assert halves.sum() == 2
    cut = refine.refined(photo, split.subset(halves)).quads
    for half, j in zip(cut, sorted((owner[first], owner[second]), key=lambda j: along[j])):
        assert quad_iou(half, truth[j]) > 0.9  # each half refined onto its own tile's face


class _FixedSession:
    """A refiner model that answers the same corners for every square of its side."""

    def __init__(self, corners: np.ndarray, side: int = refine.SIDE) -> None:
        self.corners = corners
        self.side = side

    def input_shape(self) -> tuple:
        return ("n", 3, self.side, self.side)

    def run(self, squares: np.ndarray) -> np.ndarray:
        assert squares.shape[1:] == (3, self.side, self.side)
        return np.repeat(self.corners[None], len(squares), axis=0)


def _photo() -> tuple[object, np.ndarray]:
    import cv2

    image = np.full((300, 400, 3), 90, np.uint8)
    ok, encoded = cv2.imencode(".png", image)
    assert ok
    quads = np.float32([[[100, 100], [160, 100], [160, 180], [100, 180]]])
    return load_photo(encoded.tobytes()), quads


def test_refine_maps_the_squares_corners_back_to_the_photo(monkeypatch: pytest.MonkeyPatch) -> None:
    photo, quads = _photo()
    # The box's own corners sit at the grown square's inner corners: moving them there is a no-op.
    inner = (refine.SIDE / 2 + (_SQUARE - refine.SIDE / 2) / refine.GROW).astype(np.float32)
    monkeypatch.setattr(refine, "_get_session", lambda: _FixedSession(inner))
    np.testing.assert_allclose(refine.refine_quads(photo, quads), quads, atol=0.5)
    # Moving each inner corner 4 square pixels right moves the box by 4 * GROW * 60 / SIDE photo pixels.
    monkeypatch.setattr(refine, "_get_session", lambda: _FixedSession(inner + np.float32([4, 0])))
    moved = refine.refine_quads(photo, quads)
    np.testing.assert_allclose(moved[..., 0] - quads[..., 0], 4 * refine.GROW * 60 / refine.SIDE, atol=0.5)
    np.testing.assert_allclose(moved[..., 1], quads[..., 1], atol=0.5)


@pytest.mark.parametrize("side", [40, 64])
def test_refine_cuts_squares_of_the_side_its_model_declares(monkeypatch: pytest.MonkeyPatch, side: int) -> None:
    photo, quads = _photo()
    square = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    inner = (side / 2 + (square - side / 2) / refine.GROW).astype(np.float32)
    monkeypatch.setattr(refine, "_get_session", lambda: _FixedSession(inner + np.float32([4, 0]), side))
    moved = refine.refine_quads(photo, quads)  # the session refuses squares of another side
    np.testing.assert_allclose(moved[..., 0] - quads[..., 0], 4 * refine.GROW * 60 / side, atol=0.5)


def test_refine_square_side_is_the_models_or_the_default_when_free() -> None:
    assert refine.square_side(refine._get_session()) == refine.SIDE  # the shipped refiner's: 48
    free = _FixedSession(np.zeros((4, 2), np.float32))
    free.input_shape = lambda: ("n", 3, "height", "width")
    assert refine.square_side(free) == refine.SIDE


def test_refine_keeps_a_box_whose_corner_would_jump(monkeypatch: pytest.MonkeyPatch) -> None:
    photo, quads = _photo()
    centre = np.full((4, 2), refine.SIDE / 2, np.float32)  # every corner pulled in to the middle
    monkeypatch.setattr(refine, "_get_session", lambda: _FixedSession(centre))
    np.testing.assert_array_equal(refine.refine_quads(photo, quads), quads)


@pytest.mark.parametrize(("share", "believed"), [(0.55, True), (0.65, False)])
def test_refine_believes_a_move_up_to_max_move_of_the_short_side(
    monkeypatch: pytest.MonkeyPatch, share: float, believed: bool
) -> None:
    photo, quads = _photo()  # a 60 x 80 box: its short side is 60 pixels
    assert (share < refine.MAX_MOVE) == believed
    inner = (refine.SIDE / 2 + (_SQUARE - refine.SIDE / 2) / refine.GROW).astype(np.float32)
    step = share * 60 / (refine.GROW * 60 / refine.SIDE)  # square pixels for that photo move
    monkeypatch.setattr(refine, "_get_session", lambda: _FixedSession(inner + np.float32([step, 0])))
    moved = refine.refine_quads(photo, quads)
    expected = quads + np.float32([share * 60, 0]) if believed else quads
    np.testing.assert_allclose(moved, expected, atol=0.5)


def test_refine_believes_a_far_move_that_settles(monkeypatch: pytest.MonkeyPatch) -> None:
    photo, quads = _photo()  # short side 60: a move of 48 pixels is too far for one pass
    face = quads + np.float32([48, 0])
    calls: list[int] = []

    def onto_the_face(session, image, to_image, boxes):  # every pass finds the same face
        calls.append(len(boxes))
        return np.repeat(face, len(boxes), axis=0)

    monkeypatch.setattr(refine, "_one_pass", onto_the_face)
    monkeypatch.setattr(refine, "_get_session", lambda: object())
    np.testing.assert_allclose(refine.refine_quads(photo, quads), face)
    assert calls == [1, 1]  # the first pass, then one more that agrees


def test_refine_keeps_a_far_move_that_never_settles(monkeypatch: pytest.MonkeyPatch) -> None:
    photo, quads = _photo()
    calls: list[int] = []

    def wandering(session, image, to_image, boxes):  # each pass moves the box 40 pixels on
        calls.append(len(boxes))
        return boxes + np.float32([40, 0])

    monkeypatch.setattr(refine, "_one_pass", wandering)
    monkeypatch.setattr(refine, "_get_session", lambda: object())
    np.testing.assert_array_equal(refine.refine_quads(photo, quads), quads)
    assert len(calls) == 1 + refine.SETTLE_PASSES


def test_refine_keeps_a_settled_box_unlike_the_found_one(monkeypatch: pytest.MonkeyPatch) -> None:
    photo, quads = _photo()
    point = np.repeat(quads.mean(axis=1, keepdims=True), 4, axis=1)  # a box shrunk to a point

    monkeypatch.setattr(refine, "_one_pass", lambda session, image, to_image, boxes: point.copy())
    monkeypatch.setattr(refine, "_get_session", lambda: object())
    np.testing.assert_array_equal(refine.refine_quads(photo, quads), quads)


def test_refine_keeps_degenerate_boxes_as_found() -> None:
    photo, quads = _photo()
    flat = np.float32([[[10, 10], [20, 10], [30, 10], [40, 10]], [[5, 5], [5, 5], [5, 5], [5, 5]]])
    out = refine.refine_quads(photo, np.concatenate([quads, flat]))
    np.testing.assert_array_equal(out[1:], flat)
    assert np.isfinite(out).all()


def test_refine_without_a_model_keeps_the_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    photo, quads = _photo()
    monkeypatch.setattr(refine, "MODEL_PATH", refine.MODEL_PATH.with_name("missing.onnx"))
    np.testing.assert_array_equal(refine.refine_quads(photo, quads), quads)
