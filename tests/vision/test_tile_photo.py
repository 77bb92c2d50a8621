"""The "does this photo show tiles?" check: its features, its model file, and the reader refusing
a photo of no tiles in one line."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import numpy as np
import pytest
from fanscan.vision.detections import TileReading
from fanscan.vision.tile_photo import FEATURES, MODEL_PATH, TilePhotoModel, load_model, photo_features


def _box(code: str, confidence: float = 0.9, score: float = 0.8, w: float = 30.0, h: float = 40.0,
         x: float = 0.0) -> TileReading:
    quad = np.float32([[x, 0], [x + w, 0], [x + w, h], [x, h]])
    return TileReading(code, confidence, quad, 0.0, False, x, finder_score=score)


def _feature(features: np.ndarray, name: str) -> float:
    return float(features[FEATURES.index(name)])


def test_the_features_count_backs_blanks_flowers_and_distinct_faces() -> None:
    boxes = [_box("back"), _box("P"), _box("P"), _box("3f", 0.95), _box("5m", 0.95, x=40)]
    features = photo_features(boxes)
    assert features.shape == (len(FEATURES),)
    assert _feature(features, "log_boxes") == pytest.approx(np.log(5))
    assert _feature(features, "backs") == pytest.approx(1 / 5)
    assert _feature(features, "blanks") == pytest.approx(2 / 4)
    assert _feature(features, "flowers") == pytest.approx(1 / 4)
    assert _feature(features, "distinct_faces") == pytest.approx(3 / 4)
    assert _feature(features, "log_aspect") == pytest.approx(np.log(40 / 30))
    assert _feature(features, "finder_logit") == pytest.approx(np.log(0.8 / 0.2))
    assert _feature(features, "sure_named") == pytest.approx(np.log(3))  # 3f and 5m, not the blanks
    assert _feature(features, "distinct_sure") == pytest.approx(np.log(3))


def test_sure_faces_count_only_faces_with_a_picture_read_surely() -> None:
    boxes = [_box("P", 0.99), _box("5m", 0.95), _box("5m", 0.97, x=31), _box("7s", 0.5, x=62)]
    features = photo_features(boxes)
    assert _feature(features, "sure_named") == pytest.approx(np.log(1 + 2))
    assert _feature(features, "distinct_sure") == pytest.approx(np.log(1 + 1))
    assert _feature(features, "named_high") > np.log(0.9 / 0.1)
    none_named = photo_features([_box("P", 0.99), _box("back")])
    assert _feature(none_named, "sure_named") == 0.0
    assert _feature(none_named, "named_high") < -9  # no face with a picture at all


def test_surer_faces_have_higher_confidence_features() -> None:
    unsure = photo_features([_box("5m", 0.4), _box("6m", 0.5), _box("7m", 0.6)])
    sure = photo_features([_box("5m", 0.97), _box("6m", 0.98), _box("7m", 0.99)])
    for name in ("face_logit", "named_high"):
        assert _feature(sure, name) > _feature(unsure, name)


def test_a_photo_of_backs_only_has_features_too() -> None:
    features = photo_features([_box("back"), _box("back", x=31)])
    assert np.isfinite(features).all() and _feature(features, "backs") == 1.0


def test_no_boxes_have_no_features() -> None:
    with pytest.raises(ValueError, match="no boxes"):
        photo_features([])


def _model(weights: list[float], bias: float = 0.0) -> TilePhotoModel:
    n = len(FEATURES)
    return TilePhotoModel(tuple(weights), bias, (0.0,) * n, (1.0,) * n)


def test_the_model_is_a_logistic_of_the_standardised_features_held_in_range() -> None:
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("face_logit")] = 1.0
    model = _model(weights)
    features = np.zeros(len(FEATURES))
    assert model.probability(features) == pytest.approx(0.5)
    features[FEATURES.index("face_logit")] = 2.0
    assert model.probability(features) == pytest.approx(1 / (1 + np.exp(-2.0)))
    features[FEATURES.index("face_logit")] = 1e6  # held at Z_RANGE standard deviations
    assert model.probability(features) == pytest.approx(1 / (1 + np.exp(-4.0)))
    assert not model.shows_tiles([])
    assert model.shows_tiles([_box("5m", 0.99)]) is True and isinstance(model.probability(features), float)


def test_the_model_file_round_trips_and_refuses_other_features(tmp_path) -> None:
    model = _model([0.5] * len(FEATURES), 1.5)
    assert TilePhotoModel.from_json(model.to_json()) == model
    other = model.to_json() | {"features": ["log_boxes", "colour"], "weights": [0.5, 0.5],
                               "mean": [0.0, 0.0], "scale": [1.0, 1.0]}
    with pytest.raises(ValueError, match="other features"):
        TilePhotoModel.from_json(other)
    short = model.to_json() | {"weights": [0.5]}
    with pytest.raises(ValueError, match="do not match"):
        TilePhotoModel.from_json(short)
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model.to_json()))
    assert load_model(path) == model
    assert load_model(tmp_path / "missing.json") is None


def test_the_shipped_model_is_installed_with_its_sidecar() -> None:
    assert load_model() is not None
    about = json.loads(MODEL_PATH.with_suffix(".about.json").read_text(encoding="utf-8"))
    assert about["features"] == list(FEATURES)
    assert about["fit"]["photos_of_tiles"] > 0 and about["fit"]["photos_of_none"] > 0


@pytest.fixture(scope="module")
def bricks_photo(tmp_path_factory) -> str:
    """A brick wall: 50-odd boxes for the finder, no tile (the shipped model gives it about 1e-4)."""
    import cv2
    from fanscan.datasets.no_tile_photos import no_tile_photo

    image, _ = no_tile_photo(1, "bricks", size=(800, 600))
    path = tmp_path_factory.mktemp("no-tiles") / "bricks.jpg"
    cv2.imwrite(str(path), image)
    return str(path)


def test_the_reader_refuses_a_photo_of_no_tiles_in_one_line(bricks_photo: str) -> None:
    from fanscan.errors import FanscanError
    from fanscan.vision.reader import read_photo

    with pytest.raises(FanscanError) as refused:
        read_photo(bricks_photo)
    assert refused.value.code == "no_tiles"
    assert "no mahjong tiles were recognised" in refused.value.message and "\n" not in refused.value.message


def test_it_is_the_check_that_refuses_it_and_a_photo_to_label_keeps_every_box(bricks_photo: str,
                                                                            monkeypatch) -> None:
    from fanscan.vision import reader, tile_photo

    assert len(reader.read_photo(bricks_photo, one_hand=False).tiles) > 10
    monkeypatch.setattr(tile_photo, "load_model", lambda: None)
    assert len(reader.read_photo(bricks_photo).tiles) > 10


def test_fanscan_read_and_score_say_so_and_exit_non_zero(bricks_photo: str) -> None:
    for command in ("read", "score"):
        done = subprocess.run([sys.executable, "-m", "fanscan", command, bricks_photo],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "no mahjong tiles were recognised" in lines[0]
        assert "Traceback" not in done.stderr


def test_an_earlier_fit_on_fewer_features_judges_by_its_own() -> None:
    """A model file that names fewer of FEATURES (an earlier fit) loads, and weighs those alone."""
    earlier = TilePhotoModel.from_json({"features": ["face_logit"], "weights": [1.0], "bias": 0.0,
                                        "mean": [0.0], "scale": [1.0]})
    features = np.zeros(len(FEATURES))
    features[FEATURES.index("face_logit")] = 2.0
    features[FEATURES.index("no_tile_logit")] = 50.0  # not among its features: no weight
    assert earlier.probability(features) == pytest.approx(1 / (1 + np.exp(-2.0)))


def test_new_features_count_extra_copies_and_boxes_lying_as_tiles_in_a_row() -> None:
    row = [_box("9p", x=31 * k) for k in range(6)]  # six 9p touching: two more than a set holds
    features = photo_features(row)
    assert _feature(features, "excess_copies") == pytest.approx(2 / 6)
    assert _feature(features, "touching") == 1.0
    apart = [_box(code, x=200 * k) for k, code in enumerate(["1m", "2m", "3m"])]
    features = photo_features(apart)
    assert _feature(features, "excess_copies") == 0.0 and _feature(features, "touching") == 0.0


def test_touching_is_counted_alike_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    from fanscan.vision import tile_photo

    rng = np.random.default_rng(4)
    boxes = [_box("1m", x=float(x)) for x in rng.uniform(0, 3000, 40)]
    whole = _feature(photo_features(boxes), "touching")
    monkeypatch.setattr(tile_photo, "_ROWS_AT_ONCE", 3)
    assert _feature(photo_features(boxes), "touching") == whole and 0 < whole < 1


def test_a_refusal_carries_how_likely_the_boxes_were_to_show_tiles_and_the_bar_can_be_raised(monkeypatch) -> None:
    from fanscan.errors import FanscanError
    from fanscan.vision import tile_photo

    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("face_logit")] = 1.0
    monkeypatch.setattr(tile_photo, "load_model", lambda: _model(weights))
    readings = [_box("5m", 0.8), _box("6m", 0.8, x=31)]
    probability = _model(weights).probability(photo_features(readings))
    assert 0.5 < probability < 0.9
    tile_photo.refuse_unless_tiles(readings, "p.jpg")  # passes the usual bar of a half
    tile_photo.refuse_unless_tiles(readings, "p.jpg", at_least=probability - 1e-6)
    with pytest.raises(tile_photo.TilesNotShown) as refused:
        tile_photo.refuse_unless_tiles(readings, "p.jpg", at_least=probability + 1e-6)
    assert isinstance(refused.value, FanscanError) and refused.value.code == "no_tiles"
    assert refused.value.probability == pytest.approx(probability)
    assert "\n" not in refused.value.message and "p.jpg" in refused.value.message
    again = pickle.loads(pickle.dumps(refused.value))  # as a worker process sends it back
    assert (again.code, again.message, again.probability) == ("no_tiles", refused.value.message, probability)
