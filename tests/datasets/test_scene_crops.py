"""Scene crops: the reader's cuts of a generated scene, labelled by the scene's truth, upright."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from fanscan.datasets import tile_art
from fanscan.datasets.formats.crops import load_crops, training_crops
from fanscan.datasets.scene_crops import parse_seeds, quad_iou, write_scene_crops
from fanscan.datasets.scenes import SCENE_STYLES, generate_scene
from fanscan.errors import FanscanError
from fanscan.vision import finder

SEED = 3_000_008  # a concealed kong (two backs) and two chows with one tile sideways


def _gray(image: np.ndarray) -> np.ndarray:
    small = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (24, 32), interpolation=cv2.INTER_AREA)
    small = small.astype(np.float32) - small.mean()
    return small.ravel() / (np.linalg.norm(small) + 1e-6)


def test_scene_crops_quad_iou_of_overlapping_squares() -> None:
    a = np.float32([[0, 0], [2, 0], [2, 2], [0, 2]])
    assert quad_iou(a, a[[2, 3, 0, 1]]) == pytest.approx(1.0)
    assert quad_iou(a, a + np.float32([1, 0])) == pytest.approx(2 / 6)
    assert quad_iou(a, a + np.float32([5, 0])) == 0.0


@pytest.mark.parametrize("text", ["5", "10:5", "a:b", "-3:4"])
def test_scene_crops_bad_seed_range_is_refused(text: str) -> None:
    with pytest.raises(FanscanError, match="--seeds"):
        parse_seeds(text)


@pytest.mark.slow
@pytest.mark.skipif(not finder.MODEL_PATH.is_file(), reason="no tile finder model")
@pytest.mark.skipif(not set(SCENE_STYLES) & set(tile_art.available_styles()), reason="no tile art")
def test_scene_crops_codes_match_truth_and_faces_are_upright(tmp_path) -> None:
    scene = generate_scene(SEED)
    counts = write_scene_crops([SEED], tmp_path, progress=False)
    assert counts.tiles == len(scene.tiles)
    codes = {f"s{SEED}_{j:02d}": tile.code for j, tile in enumerate(scene.tiles)}
    rows = {kind: load_crops(tmp_path / kind) for kind in ("finder", "true")}
    assert Counter(r.label for r in rows["true"]) == Counter(t.code for t in scene.tiles)
    assert "back" in {r.label for r in rows["true"]}
    assert len(rows["finder"]) == counts.matched >= 0.8 * len(scene.tiles)
    for kind_rows in rows.values():
        for row in kind_rows:
            stem = row.file.split("/")[1].removesuffix(".png")
            assert row.label == codes[stem] == row.file.split("/")[0]
    true_images = {r.file: cv2.imread(str(tmp_path / "true" / r.file)) for r in rows["true"]}
    sideways = {f"{t.code}/s{SEED}_{j:02d}.png" for j, t in enumerate(scene.tiles) if t.sideways}
    assert sideways & {r.file for r in rows["finder"]}
    for crop in training_crops(tmp_path / "finder"):
        image = crop.load()
        assert image.shape == (128, 96, 3)
        if crop.code == "back":
            continue
        # A finder crop looks like the face at its true corners (or that turned 180 degrees),
        # more than like it turned a quarter: never saved a quarter-turn off.
        true = true_images[f"{crop.code}/{crop.path.name}"]
        upright = max(_gray(image) @ _gray(true), _gray(image) @ _gray(cv2.rotate(true, cv2.ROTATE_180)))
        quarter = max(_gray(image) @ _gray(cv2.rotate(true, turn))
                      for turn in (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE))
        assert upright > quarter, crop.path.name


@pytest.mark.slow
@pytest.mark.skipif(not finder.MODEL_PATH.is_file(), reason="no tile finder model")
@pytest.mark.skipif(not set(SCENE_STYLES) & set(tile_art.available_styles()), reason="no tile art")
def test_scene_crops_of_a_standing_hand_are_that_scenes_tiles(tmp_path) -> None:
    seed = 3_100_002  # seven tiles standing, two sets lying flat beside them
    standing, laid = generate_scene(seed, standing=True), generate_scene(seed)
    counts = write_scene_crops([seed], tmp_path, progress=False, standing=True)
    assert counts.tiles == len(standing.tiles)
    true_codes = Counter(r.label for r in load_crops(tmp_path / "true"))
    assert true_codes == Counter(t.code for t in standing.tiles) != Counter(t.code for t in laid.tiles)
    assert any(t.standing for t in standing.tiles) and any(not t.standing for t in standing.tiles)
    assert counts.matched >= 0.5 * len(standing.tiles)
