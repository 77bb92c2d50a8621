"""Augmentations of real crops during training (pure cv2/numpy, seeded by the caller's rng).

Real crops are tight, upright face crops; the photo reader's crops may come upside down, slightly
rotated, loose or tight, blurred (focus or a moving hand) or differently lit, so each training view varies those.
"""

from __future__ import annotations

import cv2
import numpy as np

from fanscan.datasets.photo_effects import black_and_white, random_cast, random_exposure, random_motion_blur


def augment_real(image: np.ndarray, rng: np.random.Generator, grey: float = 0.0,
                 exposure: float = 0.0) -> np.ndarray:
    """A randomly varied view of a resized BGR uint8 crop, same size; with probability ``grey``
    a grey one (three equal channels: a table photographed in black and white), with probability
    ``exposure`` one seen hazier, over-exposed or through another tone curve (``random_exposure``)."""
    height, width = image.shape[:2]
    scale = rng.uniform(0.88, 1.12)
    angle = rng.normal(0, 4)
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, scale)
    matrix[:, 2] += rng.uniform(-0.06, 0.06, 2) * (width, height)
    # Anisotropic squeeze, as a finder's box that is a little off the tile's aspect.
    matrix[0, :2] *= rng.uniform(0.92, 1.08)
    view = cv2.warpAffine(image, matrix, (width, height), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    view *= rng.uniform(0.7, 1.2) * rng.uniform(0.92, 1.08, 3).astype(np.float32)
    if rng.random() < 0.1:
        view *= random_cast(rng)
    view += rng.uniform(-20, 20)
    if rng.random() < 0.3:
        view = cv2.GaussianBlur(view, (0, 0), rng.uniform(0.4, 1.2))
    elif rng.random() < 0.15:
        view = random_motion_blur(view, rng, 0.1 * width)
    if rng.random() < 0.3:
        # A low-resolution crop, upscaled again as the preprocessing would.
        factor = rng.uniform(0.35, 0.7)
        small = cv2.resize(view, (max(8, int(width * factor)), max(8, int(height * factor))),
                           interpolation=cv2.INTER_AREA)
        view = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    if exposure and rng.random() < exposure:
        view = random_exposure(view, rng)
    view += rng.normal(0, rng.uniform(0, 6), view.shape).astype(np.float32)
    view = np.clip(view, 0, 255).astype(np.uint8)
    if grey and rng.random() < grey:
        view = black_and_white(view)
    return cv2.rotate(view, cv2.ROTATE_180) if rng.random() < 0.5 else view
