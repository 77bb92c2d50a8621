"""Camera effects shared by the crop generators and the training augmentations."""

from __future__ import annotations

import cv2
import numpy as np


def motion_blur(image: np.ndarray, length: float, angle_degrees: float) -> np.ndarray:
    """``image`` smeared along a straight line ``length`` pixels long at ``angle_degrees``, as a
    hand that moves while the shutter is open does; same size and dtype."""
    size = max(3, int(np.ceil(length)) | 1)
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    dx, dy = np.cos(np.deg2rad(angle_degrees)) * length / 2, np.sin(np.deg2rad(angle_degrees)) * length / 2
    cv2.line(kernel, (round(centre - dx), round(centre - dy)), (round(centre + dx), round(centre + dy)), 1.0, 1,
             cv2.LINE_AA)
    kernel /= kernel.sum()
    return cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REPLICATE)


def random_motion_blur(image: np.ndarray, rng: np.random.Generator, longest: float) -> np.ndarray:
    """A motion blur of a random direction, 2 to ``longest`` pixels long."""
    return motion_blur(image, rng.uniform(2, max(2.5, longest)), rng.uniform(0, 180))


# Per-channel gains (B, G, R) of light far from daylight: tungsten, warm, cool shade, fluorescent green.
CASTS = ((0.55, 0.8, 1.1), (0.75, 0.92, 1.08), (1.15, 1.0, 0.8), (0.85, 1.1, 0.85))


def random_cast(rng: np.random.Generator) -> np.ndarray:
    """BGR gains of a strong colour cast, each jittered a little (float32, shape (3,))."""
    gains = np.float32(CASTS[int(rng.integers(len(CASTS)))])
    return gains * rng.uniform(0.95, 1.05, 3).astype(np.float32)


def random_exposure(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A float32 BGR image (levels 0-255) as another exposure would give it, one of three drawn
    evenly: hazier (every level drawn towards white, to 0.3-0.8 of its distance: flare, glare on a
    screen or a window), over-exposed (1.3-2.2 times the light, clipped at white) or through a
    gamma of 0.5-2 (a phone's tone curve, a dim or bright print)."""
    kind = int(rng.integers(3))
    if kind == 0:
        return hazier(image, float(rng.uniform(0.3, 0.8)))
    if kind == 1:
        return over_exposed(image, float(rng.uniform(1.3, 2.2)))
    gamma = np.float32(np.exp(rng.uniform(np.log(0.5), np.log(2.0))))
    return 255.0 * (np.clip(image, 0.0, 255.0) / 255.0) ** gamma


def hazier(image: np.ndarray, share: float) -> np.ndarray:
    """A float32 BGR image with every level drawn towards white, to ``share`` of its distance."""
    return 255.0 - (255.0 - image) * np.float32(share)


def over_exposed(image: np.ndarray, gain: float) -> np.ndarray:
    """A float32 BGR image under ``gain`` times the light, clipped at white."""
    return np.minimum(image * np.float32(gain), 255.0)


def random_camera_fault(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A float32 BGR image (levels 0-255) as a poorer photo would show it, one of four faults drawn
    evenly: another exposure (``random_exposure``: hazier, over-exposed and clipped, another tone
    curve), out of focus (a Gaussian blur of sigma 0.6-2.5 px), a moving hand (a motion blur 2-8 px
    long) or too little light (0.3-0.6 of it, sensor noise of sigma 3-9). Sized for pictures at the
    scale a model sees them (the finder's working image, a 256-px training window)."""
    kind = int(rng.integers(4))
    if kind == 0:
        return random_exposure(image, rng)
    if kind == 1:
        return cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.6, 2.5)))
    if kind == 2:
        return random_motion_blur(image, rng, 8.0)
    dim = image * np.float32(rng.uniform(0.3, 0.6))
    return np.clip(dim + rng.normal(0.0, rng.uniform(3.0, 9.0), image.shape).astype(np.float32), 0.0, 255.0)


def black_and_white(image: np.ndarray) -> np.ndarray:
    """A BGR image as a camera without colour would give it: three equal channels."""
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
