"""The box refiner's training (``models/train_refiner.py``): its examples' turns and corner
matching, and the network's shape."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.models.train_refiner import matched_corners, turned
from fanscan.vision import refine

_SQUARE = np.float32([[0, 0], [refine.SIDE, 0], [refine.SIDE, refine.SIDE], [0, refine.SIDE]])


def test_refiner_training_turns_keep_each_corner_at_its_square_corner() -> None:
    corners = np.float32([[12.5, 10.5], [50.5, 14.5], [54.5, 52.5], [9.5, 49.5]]) * np.float32(refine.SIDE / 64)
    square = np.zeros((refine.SIDE, refine.SIDE, 3), np.uint8)
    for k, (x, y) in enumerate(corners.astype(int)):
        square[y, x] = 50 * (k + 1)  # a dot of its own under each corner
    for quarter_turns in range(4):
        for flip in (False, True):
            out_square, out = turned(square, corners, quarter_turns, flip)
            nearest = [int(np.argmin(np.abs(_SQUARE - c).sum(axis=1))) for c in out]
            assert nearest == [0, 1, 2, 3]
            dots = sorted(int(out_square[y, x, 0]) for x, y in out.astype(int))
            assert dots == [50, 100, 150, 200]  # each corner still lies on its own dot
    same_square, same = turned(square, corners, 4, False)
    np.testing.assert_array_equal(same_square, square)
    np.testing.assert_allclose(same, corners)


def test_refiner_training_matches_true_corners_to_the_boxs_corners() -> None:
    box = np.float32([[0, 0], [10, 0], [10, 14], [0, 14]])
    truth = np.float32([[11, 15], [1, 1], [11, 1], [1, 15]])  # any order
    np.testing.assert_array_equal(matched_corners(box, truth), [[1, 1], [11, 1], [11, 15], [1, 15]])


def test_refiner_network_gives_four_corners_inside_the_square() -> None:
    torch = pytest.importorskip("torch")
    from fanscan.models.train_refiner import build_net

    with torch.no_grad():
        out = build_net().eval()(torch.rand(2, 3, refine.SIDE, refine.SIDE))
    assert tuple(out.shape) == (2, 4, 2)
    assert float(out.min()) >= 0 and float(out.max()) <= refine.SIDE


def test_a_narrower_refiner_network_has_the_same_input_and_output_and_fewer_weights() -> None:
    torch = pytest.importorskip("torch")
    from fanscan.models.train_refiner import build_net

    def weights(net) -> int:
        return sum(p.numel() for p in net.parameters())

    narrow, shipped = build_net(0.5).eval(), build_net().eval()
    with torch.no_grad():
        out = narrow(torch.rand(2, 3, refine.SIDE, refine.SIDE))
    assert tuple(out.shape) == (2, 4, 2)
    assert weights(narrow) < weights(shipped) / 3  # half the channels: about a quarter of the weights
    assert narrow.stem[0].out_channels == 8 and shipped.stem[0].out_channels == 16


@pytest.mark.train
def test_refiner_training_writes_its_sidecar_beside_the_model(
    tmp_path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import json

    from fanscan.models import train_refiner

    rng = np.random.default_rng(0)
    squares = rng.integers(0, 255, (40, refine.SIDE, refine.SIDE, 3), dtype=np.uint8)
    corners = rng.uniform(8, refine.SIDE - 8, (40, 4, 2)).astype(np.float32)
    monkeypatch.setattr(train_refiner, "build_examples", lambda *_, **__: (squares, corners))
    out = tmp_path / "refiner.onnx"
    train_refiner.train(3, 2, out, width=0.5)
    record = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert record["training"]["width"] == 0.5
    assert record["input"]["name"] == "squares"
    assert record["output"]["name"] == "corners"
    training = record["training"]
    assert (training["steps"], training["scenes"], training["examples"]) == (2, 3, 40)
    base = train_refiner.TRAIN_SEED_BASE
    assert training["scene_seeds"] == [base, base + 3]
    assert out.is_file()
    assert out.with_suffix(".pt").is_file()


@pytest.mark.train
def test_a_refiner_of_smaller_squares_declares_its_side_and_the_reader_cuts_them(
    tmp_path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import json

    from fanscan.models import train_refiner
    from fanscan.vision.onnx_session import LazySession

    side = 48
    rng = np.random.default_rng(2)
    squares = rng.integers(0, 255, (40, side, side, 3), dtype=np.uint8)
    corners = rng.uniform(6, side - 6, (40, 4, 2)).astype(np.float32)
    asked: list[int] = []
    monkeypatch.setattr(train_refiner, "build_examples",
                        lambda *_, side=refine.SIDE: asked.append(side) or (squares, corners))
    out = tmp_path / "small.onnx"
    train_refiner.train(3, 2, out, side=side)
    assert asked == [side]
    assert json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["input"]["side"] == side
    session = LazySession(out)
    assert refine.square_side(session) == side
    assert session.run(np.zeros((2, 3, side, side), np.float32)).shape == (2, 4, 2)


def test_scene_examples_cached_at_another_side_are_not_used(tmp_path, monkeypatch) -> None:
    from fanscan.models import train_refiner

    cache = tmp_path / "examples.npz"
    np.savez(cache, squares=np.zeros((3, 64, 64, 3), np.uint8), corners=np.zeros((3, 4, 2), np.float32), scenes=5)
    assert train_refiner.build_examples(5, cache, side=64)[0].shape == (3, 64, 64, 3)
    made: list[int] = []

    def scene(seed: int, side: int = refine.SIDE, standing: bool = False):
        made.append(side)
        return np.zeros((1, side, side, 3), np.uint8), np.zeros((1, 4, 2), np.float32)

    monkeypatch.setattr(train_refiner, "scene_examples", scene)
    monkeypatch.setattr(train_refiner, "ProcessPoolExecutor", _InlinePool)
    squares, _ = train_refiner.build_examples(2, cache, side=48)
    assert squares.shape == (2, 48, 48, 3) and made == [48, 48]


def test_standing_scene_examples_come_from_their_own_seeds_and_cache(tmp_path, monkeypatch) -> None:
    from fanscan.models import train_refiner

    cache = tmp_path / "laid.npz"
    np.savez(cache, squares=np.zeros((3, 48, 48, 3), np.uint8), corners=np.zeros((3, 4, 2), np.float32), scenes=5)
    asked: list[tuple[int, bool]] = []

    def scene(seed: int, side: int = refine.SIDE, standing: bool = False):
        asked.append((seed, standing))
        return np.full((1, side, side, 3), 7, np.uint8), np.zeros((1, 4, 2), np.float32)

    monkeypatch.setattr(train_refiner, "scene_examples", scene)
    monkeypatch.setattr(train_refiner, "ProcessPoolExecutor", _InlinePool)
    # The laid scenes' cache is no standing hands' examples.
    squares, _ = train_refiner.build_examples(2, cache, side=48, standing=True)
    base = train_refiner.STANDING_SEED_BASE
    assert asked == [(base, True), (base + 1, True)] and squares.shape == (2, 48, 48, 3)
    standing_cache = tmp_path / "standing.npz"
    train_refiner.build_examples(2, standing_cache, side=48, standing=True)
    asked.clear()
    assert train_refiner.build_examples(2, standing_cache, side=48, standing=True)[0].shape == (2, 48, 48, 3)
    assert asked == []  # read back from its own cache
    assert train_refiner.build_examples(2, standing_cache, side=48)[0].shape == (2, 48, 48, 3)
    assert asked == [(train_refiner.TRAIN_SEED_BASE, False), (train_refiner.TRAIN_SEED_BASE + 1, False)]


def test_each_kind_of_examples_keeps_its_own_last_share_apart() -> None:
    from fanscan.models.train_refiner import _split_each

    laid = (np.arange(20)[:, None], np.arange(20))
    standing = (np.arange(100, 110)[:, None], np.arange(100, 110))
    (train_squares, train_corners), (test_squares, test_corners) = _split_each([laid, standing], 0.1)
    assert list(test_corners) == [18, 19, 109] and list(test_squares[:, 0]) == [18, 19, 109]
    assert len(train_corners) == 27 and 109 not in train_corners and 17 in train_corners and 108 in train_corners


@pytest.mark.train
def test_training_with_standing_scenes_records_them(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import json

    from fanscan.models import train_refiner

    rng = np.random.default_rng(3)
    kinds: list[bool] = []

    def examples(scenes, cache, side=refine.SIDE, standing=False):
        kinds.append(standing)
        n = 30 if standing else 40
        return (rng.integers(0, 255, (n, side, side, 3), dtype=np.uint8),
                rng.uniform(8, side - 8, (n, 4, 2)).astype(np.float32))

    monkeypatch.setattr(train_refiner, "build_examples", examples)
    out = tmp_path / "refiner.onnx"
    train_refiner.train(3, 2, out, width=0.5, standing_scenes=4)
    training = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["training"]
    base = train_refiner.STANDING_SEED_BASE
    assert kinds == [False, True]
    assert training["standing_scenes"] == 4 and training["standing_scene_seeds"] == [base, base + 4]
    assert training["examples"] == 70


class _InlinePool:
    """A stand-in for ProcessPoolExecutor that maps in this process."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def __enter__(self):
        return self

    def __exit__(self, *_) -> None:
        return None

    def map(self, fn, items, chunksize: int = 1):
        return map(fn, items)


def test_a_real_label_is_a_target_only_for_a_box_square_to_the_photo() -> None:
    from fanscan.models.train_refiner import _square_to_the_photo

    def rotated(degrees: float) -> np.ndarray:
        angle = np.radians(degrees)
        rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        return (np.float32([[-10, -14], [10, -14], [10, 14], [-10, 14]]) @ rotation.T + 50).astype(np.float32)

    assert _square_to_the_photo(rotated(0))
    assert _square_to_the_photo(rotated(4))
    assert _square_to_the_photo(rotated(88))  # a quarter turn off is square too
    assert not _square_to_the_photo(rotated(15))
    assert not _square_to_the_photo(rotated(45))


def test_real_examples_take_every_box_on_a_label_a_slanted_one_fitted_into_it(monkeypatch) -> None:
    import fanscan.vision.locate as locate_module
    from fanscan.models.train_refiner import real_photo_examples
    from fanscan.vision.detections import TileDetections

    image = np.full((240, 320, 3), 40, np.uint8)
    image[60:120, 40:84] = 230  # a tile face, labelled exactly
    image[60:120, 200:244] = 230  # another, whose finder box lies at a slant
    labels = np.float32([[40, 60, 84, 120], [200, 60, 244, 120]])
    square_box = np.float32([[43, 64], [86, 63], [86, 122], [43, 123]])  # a little off
    centre = np.float32([222, 90])
    angle = np.radians(20)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    slanted = (np.float32([[-22, -30], [22, -30], [22, 30], [-22, 30]]) @ rotation.T + centre).astype(np.float32)
    off_the_tiles = square_box + np.float32([60, 0])  # its centre on no label: no example
    detections = TileDetections(np.stack([square_box, slanted, off_the_tiles]), np.full(3, 0.9, np.float32),
                                np.zeros(3, bool))
    monkeypatch.setattr(locate_module, "locate", lambda photo, refine=True: (None, detections))
    squares, corners = real_photo_examples(image, labels, seed=0)
    assert squares.shape == (4, refine.SIDE, refine.SIDE, 3)  # each box on a label, and its jittered target
    # the square box's target: the label's corners, which lie about where the box's own corners do
    expected = refine.grown(np.float32([[0, 0], [refine.SIDE, 0], [refine.SIDE, refine.SIDE], [0, refine.SIDE]])[None],
                            1 / refine.GROW)[0]
    near = 6 * refine.SIDE / 64  # square pixels: 6 of a 64-pixel square
    assert np.abs(corners[0] - expected).max() < near
    # the label's bright face fills the target quad in the square
    x0, y0 = corners[0].min(axis=0).astype(int) + 2
    x1, y1 = corners[0].max(axis=0).astype(int) - 2
    assert squares[0][y0:y1, x0:x1].mean() > 200
    # the slanted box's target keeps its slant: its corners are not the label's rectangle's
    assert np.abs(corners[2] - expected).max() > near


def test_a_slanted_box_fitted_into_its_label_keeps_its_shape_and_takes_the_labels_extent() -> None:
    from fanscan.models.train_refiner import fitted_into, label_target

    slanted = np.float32([[10, 0], [30, 5], [25, 40], [5, 35]])
    label = np.float32([100, 200, 150, 290])
    fitted = fitted_into(slanted, label)
    np.testing.assert_allclose(fitted.min(axis=0), [100, 200])
    np.testing.assert_allclose(fitted.max(axis=0), [150, 290])
    # each corner keeps its place relative to the box's bounds
    np.testing.assert_allclose((fitted - [100, 200]) / [50, 90], (slanted - [5, 0]) / [25, 40], atol=1e-6)
    np.testing.assert_array_equal(label_target(slanted, label), fitted)
    upright = np.float32([[101, 201], [149, 202], [150, 289], [100, 288]])
    np.testing.assert_array_equal(label_target(upright, label), [[100, 200], [150, 200], [150, 290], [100, 290]])


def test_training_with_real_photos_records_them_in_the_sidecar(tmp_path, monkeypatch) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import json

    from fanscan.models import train_refiner

    rng = np.random.default_rng(1)

    def examples(n: int):
        return (rng.integers(0, 255, (n, refine.SIDE, refine.SIDE, 3), dtype=np.uint8),
                rng.uniform(8, refine.SIDE - 8, (n, 4, 2)).astype(np.float32))

    monkeypatch.setattr(train_refiner, "build_examples", lambda *_, **__: examples(40))
    monkeypatch.setattr(train_refiner, "real_examples", lambda folds, turned=0.0, side=refine.SIDE: (*examples(20), 3))
    out = tmp_path / "refiner.onnx"
    train_refiner.train(3, 2, out, real_folds=[0, 1], real_share=0.4, init=refine.MODEL_PATH)
    training = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["training"]
    assert training["real_photos"] == 3 and training["real_folds"] == [0, 1]
    assert training["real_share"] == 0.4 and training["fine_tuned_from"] == refine.MODEL_PATH.name
    assert training["examples"] == 60
    assert set(training["real_held_out_corner_error_px"]) == {"as_found", "refined"}


@pytest.mark.parametrize("argv", [["--real-folds", "4"], ["--real-share", "1.5"], ["--scenes", "0"],
                                  ["--init", "no-such-refiner.onnx"], ["--real-turned", "50"],
                                  ["--width", "0"], ["--side", "50"], ["--side", "8"],
                                  ["--standing-scenes", "-1"]])
def test_bad_refiner_training_arguments_are_usage_errors(argv) -> None:
    from fanscan.models import train_refiner

    if "--init" in argv:
        pytest.importorskip("torch")
    with pytest.raises(SystemExit) as exit_info:
        train_refiner.main(argv)
    assert exit_info.value.code == 2


def test_a_turned_real_photo_s_targets_are_its_square_labels_turned_with_it(monkeypatch) -> None:
    import cv2
    import fanscan.models.train_refiner as train_refiner
    import fanscan.vision.locate as locate_module
    from fanscan.vision.detections import TileDetections

    image = np.full((300, 300, 3), 90, np.uint8)
    labels = np.float32([[80, 100, 124, 160], [180, 100, 224, 160]])
    degrees = 30.0
    turn = cv2.getRotationMatrix2D((150, 150), degrees, 1.0)
    turned_labels = [cv2.transform(train_refiner._rectangle(b)[None], turn)[0] for b in labels]
    square_box = train_refiner._rectangle(labels[0]) + np.float32([2, 1])
    angle = np.radians(15)  # the second tile's finder box lies at a slant: its label only bounds it
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    slanted = (np.float32([[-22, -30], [22, -30], [22, 30], [-22, 30]]) @ rotation.T + np.float32([202, 130]))

    def found(photo, refine=True):  # noqa: ARG001
        turned_photo = photo.decode(1)[0, 0].sum() == 0  # the turn fills the corners black
        quads = [q * 0.97 + q.mean(axis=0) * 0.03 for q in turned_labels] if turned_photo else [square_box, slanted]
        return None, TileDetections(np.stack(quads).astype(np.float32), np.full(2, 0.9, np.float32), np.zeros(2, bool))

    seen: list = []
    monkeypatch.setattr(locate_module, "locate", found)
    monkeypatch.setattr(train_refiner, "_squares_of", lambda photo, quads, targets, side=refine.SIDE: seen.append(targets) or (quads, targets))
    quads, targets = train_refiner.turned_photo_examples(image, labels, degrees, seed=0)
    assert len(quads) == 2  # the square label's box and its jittered target; the slanted one left out
    for target in seen[0]:
        np.testing.assert_allclose(train_refiner.order_clockwise(target),
                                   train_refiner.order_clockwise(turned_labels[0]), atol=1e-3)


def test_a_real_photo_and_its_turned_copy_search_the_unturned_photo_once(monkeypatch) -> None:
    import fanscan.models.train_refiner as train_refiner
    import fanscan.vision.locate as locate_module
    from fanscan.vision.detections import TileDetections

    image = np.full((300, 300, 3), 90, np.uint8)
    image[100:160, 80:124] = 230
    labels = np.float32([[80, 100, 124, 160]])
    searched: list[bool] = []

    def found(photo, refine=True):  # noqa: ARG001
        turned_photo = photo.decode(1)[0, 0].sum() == 0
        searched.append(bool(turned_photo))
        quad = train_refiner._rectangle(labels[0])
        if turned_photo:
            import cv2

            quad = cv2.transform(quad[None], cv2.getRotationMatrix2D((150, 150), 20.0, 1.0))[0]
        return None, TileDetections(quad[None].astype(np.float32), np.ones(1, np.float32), np.zeros(1, bool))

    monkeypatch.setattr(locate_module, "locate", found)
    squares, corners = train_refiner._real_photo_job((0, image, labels, 20.0, refine.SIDE))
    assert sorted(searched) == [False, True]  # the unturned photo once, its turned copy once
    assert len(squares) == len(corners) == 4  # each photo's box and its jittered target
