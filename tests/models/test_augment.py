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
