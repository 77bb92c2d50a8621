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


def _contrast(view: np.ndarray) -> float:
    """The crop's dark-to-bright spread as a share of its bright level (brightness aside)."""
    dark, bright = np.percentile(view, [5, 95])
    return float((bright - dark) / max(bright, 1.0))


def test_augment_real_sees_the_share_asked_under_another_exposure_and_none_by_default():
    # A mid-grey crop with a dark stroke across its middle: hazier, clipped or re-toned, its
    # contrast moves far more than brightness, blur and noise move it.
    image = np.full((128, 96, 3), 128, np.uint8)
    image[40:88, 20:76] = 30
    plain = augment_real(image, np.random.default_rng(5))
    assert np.array_equal(plain, augment_real(image, np.random.default_rng(5), exposure=0.0))  # the old draws
    exposed = [_contrast(augment_real(image, np.random.default_rng(seed), exposure=1.0)) for seed in range(60)]
    usual = [_contrast(augment_real(image, np.random.default_rng(seed))) for seed in range(60)]
    assert np.std(exposed) > 2 * np.std(usual)
    assert min(exposed) < 0.5 < min(usual)  # a hazy view keeps under half the spread; no usual view does
    rng = np.random.default_rng(9)
    halves = [_contrast(augment_real(image, rng, exposure=0.5)) < 0.5 for _ in range(200)]
    assert 0.02 < np.mean(halves) < 0.4  # some of the half seen so are hazy ones
