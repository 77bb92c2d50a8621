"""Real-crop augmentation: same size out, seeded, and it really varies the crop."""

from __future__ import annotations

import numpy as np

from fanscan.models.augment import augment_real


def test_augment_real_keeps_size_and_is_seeded():
    image = np.random.default_rng(0).integers(0, 256, (128, 96, 3), dtype=np.uint8)
    one = augment_real(image, np.random.default_rng(5))
    two = augment_real(image, np.random.default_rng(5))
    assert one.shape == image.shape and one.dtype == np.uint8
    assert np.array_equal(one, two)
    assert not np.array_equal(one, image)


def test_augment_real_makes_grey_views_at_the_share_asked_and_none_by_default():
    image = np.random.default_rng(0).integers(0, 256, (128, 96, 3), dtype=np.uint8)
    plain = augment_real(image, np.random.default_rng(5))
    assert np.array_equal(plain, augment_real(image, np.random.default_rng(5), 0.0))  # the old draws, unchanged
    assert not np.array_equal(plain[..., 0], plain[..., 1])
    grey = augment_real(image, np.random.default_rng(5), 1.0)
    assert np.array_equal(grey[..., 0], grey[..., 1]) and np.array_equal(grey[..., 1], grey[..., 2])
    rng = np.random.default_rng(9)
    views = [augment_real(image, rng, 0.3) for _ in range(200)]
    share = np.mean([np.array_equal(v[..., 0], v[..., 2]) for v in views])
    assert 0.2 < share < 0.4
