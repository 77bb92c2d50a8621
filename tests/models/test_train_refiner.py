"""The box refiner's training (``models/train_refiner.py``): its examples' turns and corner
matching, and the network's shape."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.models.train_refiner import matched_corners, turned
from fanscan.vision import refine

_SQUARE = np.float32([[0, 0], [refine.SIDE, 0], [refine.SIDE, refine.SIDE], [0, refine.SIDE]])


def test_refiner_training_turns_keep_each_corner_at_its_square_corner() -> None:
    corners = np.float32([[12.5, 10.5], [50.5, 14.5], [54.5, 52.5], [9.5, 49.5]])
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
    monkeypatch.setattr(train_refiner, "build_examples", lambda *_: (squares, corners))
    out = tmp_path / "refiner.onnx"
    train_refiner.train(3, 2, out)
    record = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert record["input"]["name"] == "squares"
    assert record["output"]["name"] == "corners"
    training = record["training"]
    assert (training["steps"], training["scenes"], training["examples"]) == (2, 3, 40)
    base = train_refiner.TRAIN_SEED_BASE
    assert training["scene_seeds"] == [base, base + 3]
    assert out.is_file()
    assert out.with_suffix(".pt").is_file()
