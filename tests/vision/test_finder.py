"""The tile finder on generated scenes: every tile found where it lies, face-down tiles flagged."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.scene_crops import quad_iou
from fanscan.datasets.scenes import SCENE_STYLES, generate_scene
from fanscan.vision import finder
from fanscan.vision.detections import TileDetections

pytestmark = pytest.mark.skipif(
    not set(SCENE_STYLES) & set(tile_art.available_styles()), reason="no tile art installed"
)


def _matches(scene, detections: TileDetections, factor: float) -> list[tuple[float, bool, bool]]:
    """(best IoU, truth is back, detection says back) per true tile."""
    out = []
    quads = detections.quads * factor
    for tile in scene.tiles:
        scores = [quad_iou(tile.quad, q) for q in quads]
        best = int(np.argmax(scores)) if scores else -1
        out.append((scores[best] if scores else 0.0, tile.code == "back", bool(detections.backs[best])))
    return out


@pytest.mark.parametrize("seed", [40, 41])
def test_finder_finds_the_tiles_of_a_scene(seed: int) -> None:
    scene = generate_scene(seed, size=(1200, 900))
    small, factor = finder.working_image(scene.image)
    assert max(small.shape[:2]) == finder.WORK_SIDE
    detections = finder.find_tiles(small)
    matches = _matches(scene, detections, factor)
    found = sum(iou > 0.5 for iou, _, _ in matches)
    assert found >= 0.85 * len(scene.tiles)
    assert len(detections) <= len(scene.tiles) + 2


def test_finder_empty_table_has_no_tiles() -> None:
    rng = np.random.default_rng(1)
    table = np.clip(rng.normal((60, 120, 40), 8, (480, 640, 3)), 0, 255).astype(np.uint8)
    assert len(finder.find_tiles(table)) == 0


def test_finder_order_clockwise() -> None:
    quad = np.float32([[10, 0], [0, 10], [0, 0], [10, 10]])
    assert finder.order_clockwise(quad).tolist() == [[0, 0], [10, 0], [10, 10], [0, 10]]


def test_finder_detections_check_shapes() -> None:
    with pytest.raises(ValueError, match="quads"):
        TileDetections(np.zeros((2, 3, 2)), np.zeros(2), np.zeros(2, bool))
    with pytest.raises(ValueError, match="scores"):
        TileDetections(np.zeros((2, 4, 2)), np.zeros(3), np.zeros(2, bool))
    assert len(TileDetections.empty()) == 0


def test_finder_split_merged_without_a_typical_size_keeps_the_blobs() -> None:
    # Two small and two large blobs: the median falls between them, so no blob is a "single"
    # tile to measure the others by; the blobs must come back unchanged, not crash.
    from fanscan.vision.finder import _split_merged

    def box(x: float, w: float, h: float) -> np.ndarray:
        return np.float32([[x, 0], [x + w, 0], [x + w, h], [x, h]])

    quads = [box(0, 5, 7), box(10, 5, 7), box(20, 20, 28), box(50, 20, 28)]
    parts = _split_merged(quads)
    assert [i for _, i in parts] == [0, 1, 2, 3]
    assert all(np.array_equal(q, quads[i]) for q, i in parts)
