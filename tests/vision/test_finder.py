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


def test_finder_orders_clockwise_as_each_quad_alone() -> None:
    rng = np.random.default_rng(3)
    centres = rng.uniform(0, 600, (50, 1, 2))
    angles = np.sort(rng.uniform(0, 2 * np.pi, (50, 4)), axis=1)
    radii = rng.uniform(5, 40, (50, 4, 1))
    quads = (centres + radii * np.stack([np.cos(angles), np.sin(angles)], axis=2)).astype(np.float32)
    quads = quads[:, rng.permutation(4)]  # corners in any order
    many = finder.orders_clockwise(quads)
    assert all(np.array_equal(many[i], finder.order_clockwise(quads[i])) for i in range(len(quads)))
    assert finder.orders_clockwise(np.zeros((0, 4, 2), np.float32)).shape == (0, 4, 2)


def test_finder_split_merged_cuts_a_blob_of_three_touching_tiles() -> None:
    # Marks of single tiles (SHRINK of a 30 x 40 tile) in a row, and one mark across three tiles
    # whose seams never showed: it comes back as three marks of a single tile's size, in line.
    from fanscan.vision.finder import SHRINK, _split_merged

    def mark(x: float, tiles: int) -> np.ndarray:
        width, height = 30 * (tiles - 1) + 30 * SHRINK, 40 * SHRINK
        return np.float32([[x, 0], [x + width, 0], [x + width, height], [x, height]])

    quads = [mark(0, 1), mark(30, 1), mark(60, 1), mark(90, 3), mark(180, 1)]
    parts = _split_merged(quads)
    assert [i for _, i in parts] == [0, 1, 2, 3, 3, 3, 4]
    cut = np.stack([q for q, i in parts if i == 3])
    widths = cut[:, 1, 0] - cut[:, 0, 0]
    np.testing.assert_allclose(widths, 30 * SHRINK, rtol=0.05)
    np.testing.assert_allclose(cut[:, 0, 0], [90, 120, 150], atol=1.0)


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


def test_finder_blobs_report_each_blobs_box_and_area() -> None:
    tile = np.zeros((60, 80), np.float32)
    tile[10:20, 5:25] = 1.0  # a blob 20 wide and 10 high
    tile[30:52, 40:52] = 1.0  # one 12 wide and 22 high
    tile[40:44, 70:73] = 1.0  # a speck, its own blob
    count, labels, stats, pixels = finder._blobs(tile)
    assert np.array_equal(pixels, np.flatnonzero(labels))
    found = sorted(tuple(int(v) for v in stats[i]) for i in range(1, count) if stats[i, 4] > 0)
    assert found == [(5, 10, 20, 10, 200), (40, 30, 12, 22, 264), (70, 40, 3, 4, 12)]
    for x, y, w, h, area in found:
        inside = labels[y : y + h, x : x + w]
        assert (inside == inside[0, 0]).all() and inside[0, 0] > 0  # one label fills each box
        assert int((labels == inside[0, 0]).sum()) == area


def test_finder_split_merged_takes_a_blob_of_no_area_quietly() -> None:
    # A degenerate blob (all four corners on one line) has no area: no single tile, no warning.
    import warnings

    from fanscan.vision.finder import _split_merged

    flat = np.float32([[0, 0], [9, 0], [9, 0], [0, 0]])
    tiles = [np.float32([[x, 0], [x + 7, 0], [x + 7, 9], [x, 9]]) for x in (20, 30, 40)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning would fail the test
        parts = _split_merged([flat, *tiles])
    assert [i for _, i in parts] == [0, 1, 2, 3]
