"""Classifier preprocessing: size, channel order, normalisation, and the images it refuses."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.errors import FanscanError
from fanscan.vision.preprocess import PreprocessSpec, preprocess

SPEC = PreprocessSpec(width=6, height=8, channel_order="RGB", mean=(0.5, 0.5, 0.5),
                      std=(0.25, 0.25, 0.25))


def test_preprocess_resizes_any_crop_to_nchw_input():
    crops = [np.zeros((100, 75, 3), np.uint8), np.zeros((3, 2, 3), np.uint8)]
    assert preprocess(crops, SPEC).shape == (2, 3, 8, 6)


def test_preprocess_swaps_bgr_to_rgb_and_normalises():
    crop = np.zeros((8, 6, 3), np.uint8)
    crop[..., 0] = 255  # blue in BGR
    tensor = preprocess([crop], SPEC)
    # Channel 2 of an RGB tensor is blue: (1 - 0.5) / 0.25 = 2; red and green: (0 - 0.5) / 0.25.
    assert np.allclose(tensor[0, 2], 2.0)
    assert np.allclose(tensor[0, 0], -2.0) and np.allclose(tensor[0, 1], -2.0)


def test_preprocess_accepts_grey_and_bgra():
    grey = np.full((8, 6), 128, np.uint8)
    bgra = np.full((8, 6, 4), 128, np.uint8)
    assert np.allclose(preprocess([grey], SPEC), preprocess([bgra], SPEC))


@pytest.mark.parametrize(
    "image",
    [
        pytest.param(np.zeros((8, 6, 3), np.float32), id="float"),
        pytest.param(np.zeros((8, 6, 2), np.uint8), id="two-channels"),
        pytest.param(np.zeros((0, 6, 3), np.uint8), id="empty"),
    ],
)
def test_preprocess_rejects_non_images(image):
    with pytest.raises(FanscanError, match="image 0"):
        preprocess([image], SPEC)


def test_preprocess_spec_round_trips_through_json():
    assert PreprocessSpec.from_json(SPEC.to_json()) == SPEC
