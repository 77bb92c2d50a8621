"""Camera effects: a motion blur smears along its direction only; casts tint the light."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.datasets.photo_effects import (CASTS, motion_blur, random_camera_fault, random_cast, random_exposure,
                                            random_motion_blur)


def _dot() -> np.ndarray:
    image = np.zeros((41, 41), np.float32)
    image[20, 20] = 100.0
    return image


@pytest.mark.parametrize(("angle", "along", "across"), [(0, 1, 0), (90, 0, 1)])
def test_motion_blur_smears_a_dot_along_its_direction(angle: float, along: int, across: int) -> None:
    smeared = motion_blur(_dot(), 9, angle)
    ys, xs = np.nonzero(smeared > 1)
    spread = [ys.max() - ys.min(), xs.max() - xs.min()]  # rows, columns
    assert spread[along] >= 7  # about the blur's length
    assert spread[across] <= 2
    assert smeared.sum() == pytest.approx(100.0, rel=0.02)  # light is moved, not lost


def test_motion_blur_keeps_size_and_dtype() -> None:
    image = np.random.default_rng(0).integers(0, 256, (30, 20, 3), dtype=np.uint8)
    out = random_motion_blur(image, np.random.default_rng(1), longest=6)
    assert out.shape == image.shape and out.dtype == np.uint8
    assert not np.array_equal(out, image)


def test_random_cast_is_one_of_the_casts_jittered() -> None:
    rng = np.random.default_rng(2)
    for _ in range(20):
        gains = random_cast(rng)
        assert gains.shape == (3,)
        assert min(np.abs(gains / np.float32(cast) - 1).max() for cast in CASTS) <= 0.051


def test_random_exposure_keeps_white_and_levels_in_range_and_draws_all_three_kinds() -> None:
    ramp = np.tile(np.linspace(0, 255, 256, dtype=np.float32), (4, 1))[..., None].repeat(3, axis=2)
    kinds = set()
    for seed in range(60):
        out = random_exposure(ramp, np.random.default_rng(seed))
        assert out.shape == ramp.shape and out.min() >= 0 and out.max() <= 255.0 + 1e-3
        assert out[0, -1, 0] == pytest.approx(255.0, abs=0.5)  # white stays white under each
        assert np.all(np.diff(out[0, :, 0]) >= -1e-3)  # no level overtakes a brighter one
        black, middle = float(out[0, 0, 0]), float(out[0, 128, 0])
        if black > 40:
            kinds.add("hazier")  # black drawn towards white
        elif out[0, 200, 0] >= 254.9:
            kinds.add("over-exposed")  # light levels clipped at white
        elif abs(middle - 128.5) > 5:
            kinds.add("tone curve")  # black and white kept, the middle moved
    assert kinds == {"hazier", "over-exposed", "tone curve"}


def test_random_camera_fault_draws_every_fault_and_keeps_levels_in_range() -> None:
    image = np.full((64, 64, 3), 120, np.float32)
    image[16:48, 16:48] = 230  # a light tile on a grey table: its edge shows blur, its body clipping
    rng = np.random.default_rng(5)
    seen = {"blurred": 0, "brighter": 0, "darker": 0, "noisy": 0}
    for _ in range(80):
        out = random_camera_fault(image, rng)
        assert out.shape == image.shape and out.dtype == np.float32
        assert out.min() >= 0 and out.max() <= 255
        edge = np.abs(np.diff(out[32, 10:22, 0])).max()
        seen["blurred"] += edge < 100  # the 110-level step at the tile's edge spread out
        seen["brighter"] += out[4, 4, 0] > 125
        seen["darker"] += out[4, 4, 0] < 90
        seen["noisy"] += out[2:12, 2:12, 0].std() > 2
    assert all(count >= 5 for count in seen.values()), seen
