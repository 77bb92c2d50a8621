"""The finder's own look at a slot (``vision.slot_looks``)."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.scenes import SceneGroup, generate_scene
from fanscan.vision import slot_looks
from fanscan.vision.image_io import load_photo


@pytest.mark.skipif("kmahjongg-default" not in tile_art.available_styles(), reason="kmahjongg not installed")
def test_the_finder_sees_a_blank_tile_as_a_tile_and_the_table_beside_the_row_as_table() -> None:
    groups = [SceneGroup("concealed", ("2m", "3m", "4m", "P", "P", "P", "6s", "7s", "8s", "5p", "5p", "2s", "3s")),
              SceneGroup("win", ("4s",))]
    scene = generate_scene(2032, size=(1280, 960), style="kmahjongg-default", groups=groups)
    tiles = np.stack([t.quad for t in scene.tiles])
    blanks = [t.quad for t in scene.tiles if t.code == "P"]
    height = float(np.ptp(blanks[0][:, 1]))
    table = [quad + np.float32([0, 2.5 * height]) for quad in blanks]  # below the row: bare table
    looks = slot_looks.tile_probabilities(load_photo(scene.jpeg), tiles, blanks + table)
    assert (looks[:3] > 0.5).all() and (looks[3:] < 0.5).all()


def test_no_slots_no_looks_and_a_slot_past_the_photo_is_no_tile() -> None:
    import cv2

    photo = load_photo(cv2.imencode(".png", np.full((200, 300, 3), 120, np.uint8))[1].tobytes())
    tiles = np.float32([[[10, 10], [40, 10], [40, 50], [10, 50]]])
    assert slot_looks.tile_probabilities(photo, tiles, []).shape == (0,)
    outside = np.float32([[400, 300], [430, 300], [430, 340], [400, 340]])
    assert slot_looks.tile_probabilities(photo, tiles, [outside]).tolist() == [0.0]
