"""The classifier's input preprocessing, shared by training and inference (pure cv2/numpy).

A crop (BGR uint8, any size) is resized to the model's input size, stretched rather than
letterboxed (tile crops are close to the 3:4 input already and every pixel counts for the small
numerals on flowers), converted to RGB, scaled to [0, 1] and normalised with the model's mean and
std, channels first. The numbers travel with the model in its JSON sidecar (``PreprocessSpec``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from fanscan.errors import FanscanError


@dataclass(frozen=True)
class PreprocessSpec:
    """How a crop becomes the model's input tensor."""

    width: int = 96
    height: int = 128
    channel_order: str = "RGB"
    mean: tuple[float, float, float] = (0.5, 0.5, 0.5)
    std: tuple[float, float, float] = (0.25, 0.25, 0.25)

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "channel_order": self.channel_order,
            "layout": "NCHW",
            "resize": "stretch (cv2.INTER_AREA when shrinking, cv2.INTER_LINEAR when enlarging)",
            "scale": "1/255",
            "mean": list(self.mean),
            "std": list(self.std),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> PreprocessSpec:
        return cls(
            width=int(obj["width"]),
            height=int(obj["height"]),
            channel_order=str(obj["channel_order"]),
            mean=tuple(float(v) for v in obj["mean"]),  # type: ignore[arg-type]
            std=tuple(float(v) for v in obj["std"]),  # type: ignore[arg-type]
        )


def as_bgr(image: np.ndarray, name: str = "image") -> np.ndarray:
    """A BGR uint8 view of a grey, BGR or BGRA uint8 image; FanscanError for anything else."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise FanscanError("bad_image", f"{name} is not a uint8 image array")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4) or min(image.shape[:2]) < 1:
        raise FanscanError("bad_image", f"{name} has shape {image.shape}, expected (h, w, 3)")
    return image[..., :3] if image.shape[2] == 4 else image


def resize_crop(image: np.ndarray, spec: PreprocessSpec) -> np.ndarray:
    """``image`` (BGR uint8) resized to the input size, still BGR uint8 (h, w, 3)."""
    height, width = image.shape[:2]
    shrinking = width * height > spec.width * spec.height
    interpolation = cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR
    return cv2.resize(image, (spec.width, spec.height), interpolation=interpolation)


def normalise(batch: np.ndarray, spec: PreprocessSpec) -> np.ndarray:
    """A (n, h, w, 3) BGR uint8 batch of resized crops as the (n, 3, h, w) float32 model input."""
    batch = np.asarray(batch)
    n, height, width = batch.shape[:3]
    tensor = np.empty((n, 3, height, width), np.float32)
    # One channel at a time: much faster than a reversed view and a 4-d transpose.
    sources = (2, 1, 0) if spec.channel_order == "RGB" else (0, 1, 2)
    for channel, source in enumerate(sources):
        plane = tensor[:, channel]
        np.subtract(batch[..., source], np.float32(spec.mean[channel] * 255), out=plane)
        plane *= np.float32(1 / (spec.std[channel] * 255))
    return tensor


def preprocess(images: Sequence[np.ndarray], spec: PreprocessSpec) -> np.ndarray:
    """BGR uint8 crops of any size -> the (n, 3, h, w) float32 model input."""
    resized = [resize_crop(as_bgr(image, f"image {i}"), spec) for i, image in enumerate(images)]
    if not resized:
        return np.zeros((0, 3, spec.height, spec.width), np.float32)
    return normalise(np.stack(resized), spec)
