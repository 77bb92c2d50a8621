"""Labelled photos for the format tests: a small drawn scene and its labels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fanscan.datasets.labels import LabelGroup, PhotoLabels, TileLabel

# Two upright tiles and one lying at an angle (corners clockwise from the face's top-left).
UPRIGHT_A = ((20.0, 30.0), (60.0, 30.0), (60.0, 85.0), (20.0, 85.0))
UPRIGHT_B = ((70.0, 30.0), (110.0, 30.0), (110.0, 85.0), (70.0, 85.0))
TILTED = ((200.0, 60.0), (240.0, 100.0), (200.0, 140.0), (160.0, 100.0))


def draw_tile(image: np.ndarray, corners: tuple[tuple[float, float], ...]) -> None:
    """A white face with a red mark near its top-left corner, so orientation can be checked."""
    import cv2

    quad = np.float32(corners)
    cv2.fillConvexPoly(image, np.int32(np.round(quad)), (255, 255, 255))
    centre = quad.mean(axis=0)
    mark = quad[0] + (centre - quad[0]) * 0.35
    cv2.circle(image, (round(mark[0]), round(mark[1])), 5, (0, 0, 255), -1)


@pytest.fixture
def scene() -> PhotoLabels:
    """Labels of the drawn scene, with groups, both sources and a mix of confidences."""
    return PhotoLabels(
        image="table/hand.png",
        width=320,
        height=200,
        tiles=(
            TileLabel("5p", UPRIGHT_A, 0.55, "model", 0),
            TileLabel("E", UPRIGHT_B, 1.0, "person", 0),
            TileLabel("back", TILTED, 0.875, "model", 1),
        ),
        groups=(LabelGroup("concealed"), LabelGroup("kong", concealed=True)),
        status="reviewed",
        reader="fake-reader 1",
    )


@pytest.fixture
def scene_root(tmp_path: Path, scene: PhotoLabels) -> Path:
    """A folder holding the scene's photo at ``scene.image``."""
    import cv2

    image = np.full((scene.height, scene.width, 3), 60, np.uint8)
    for tile in scene.tiles:
        draw_tile(image, tile.corners)
    path = tmp_path / "photos" / scene.image
    path.parent.mkdir(parents=True)
    cv2.imwrite(str(path), image)
    return tmp_path / "photos"
