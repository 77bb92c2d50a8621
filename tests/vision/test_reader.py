"""The photo reader end to end on generated scenes, with a template classifier (no trained model)."""

from __future__ import annotations

import io
import json
from collections import Counter

import cv2
import numpy as np
import pytest
from PIL import Image

from fanscan.datasets import tile_art
from fanscan.datasets.scenes import generate_scene
from fanscan.errors import FanscanError
from fanscan.vision.reader import read_photo

STYLE = "xmahjongg-real"
pytestmark = pytest.mark.skipif(STYLE not in tile_art.available_styles(), reason="xmahjongg not installed")


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return inter / (cv2.contourArea(a) + cv2.contourArea(b) - inter)


@pytest.fixture(scope="module")
def scene():
    return generate_scene(21, size=(1200, 900), style=STYLE)


@pytest.fixture(scope="module")
def reading(scene, template_classifier):
    return read_photo(scene.jpeg, classifier=template_classifier(STYLE))


def test_reader_finds_every_tile_where_it_is(scene, reading) -> None:
    assert len(reading.tiles) == len(scene.tiles)
    for truth in scene.tiles:
        best = max(_iou(truth.quad, np.array(t.box)) for t in reading.tiles)
        assert best > 0.6


def test_reader_reads_the_scene_hand(scene, reading) -> None:
    assert Counter(t.code for t in reading.tiles) == Counter(t.code for t in scene.tiles)
    assert reading.hand["win_tile"] == scene.hand["win_tile"]
    assert sorted(reading.hand["concealed"]) == sorted(scene.hand["concealed"])
    key = lambda m: (m["type"], m["tiles"], m["concealed"])  # noqa: E731
    assert sorted(map(key, reading.hand["melds"])) == sorted(map(key, scene.hand["melds"]))


def test_reader_boxes_start_at_the_face_top_left(scene, reading) -> None:
    for truth in scene.tiles:
        if truth.code == "back":
            continue
        tile = max(reading.tiles, key=lambda t: _iou(truth.quad, np.array(t.box)))
        corner_error = np.linalg.norm(np.array(tile.box) - truth.quad, axis=1).max()
        assert corner_error < 0.35 * np.linalg.norm(truth.quad[1] - truth.quad[0])


def test_reader_json_is_the_contract_object(reading) -> None:
    result = json.loads(json.dumps(reading.to_json()))
    assert set(result) >= {"tiles", "hand", "doubts"}
    assert result["image_size"] == [1200, 900]
    assert all(isinstance(d, str) and d.endswith(".") for d in result["doubts"])


def test_reader_honours_exif_orientation(scene, reading, template_classifier) -> None:
    # Store the picture turned a quarter to the left with EXIF "rotate 90 clockwise to show".
    stored = Image.open(io.BytesIO(scene.jpeg)).transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    stored.save(buffer, "JPEG", quality=92, exif=exif.tobytes())
    turned = read_photo(buffer.getvalue(), classifier=template_classifier(STYLE))
    assert turned.image_size == (1200, 900)
    assert turned.hand == reading.hand
    centres = sorted(tuple(np.round(np.mean(t.box, axis=0) / 20)) for t in turned.tiles)
    assert centres == sorted(tuple(np.round(np.mean(t.box, axis=0) / 20)) for t in reading.tiles)


def test_reader_annotated_and_debug_images(scene, template_classifier, tmp_path) -> None:
    debug = tmp_path / "debug"
    result = read_photo(scene.jpeg, classifier=template_classifier(STYLE), debug_dir=debug)
    out = tmp_path / "annotated.jpg"
    result.save_annotated(out)
    annotated = cv2.imread(str(out))
    assert annotated.shape == (900, 1200, 3)
    assert not np.array_equal(annotated, scene.image)
    assert {p.name for p in debug.iterdir()} >= {"2-face-map.png", "4-detections.png", "5-crops.png"}


def test_reader_no_tiles_on_an_empty_table() -> None:
    table = np.full((600, 800, 3), (40, 110, 50), np.uint8)
    ok, data = cv2.imencode(".png", table)
    with pytest.raises(FanscanError) as caught:
        read_photo(data.tobytes(), classifier=object())
    assert caught.value.code == "no_tiles"
