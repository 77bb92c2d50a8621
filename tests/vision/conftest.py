"""Fixtures for the reader's tests: a stand-in classifier that needs no trained model.

``TemplateClassifier`` names a crop by its nearest face template of one art style (normalised
correlation of small colour thumbnails, with a flat coloured crop read as ``back``). It knows
nothing about scenes; it simply is a weak classifier with the shipped model's interface, so the
finder, orientation logic and layout can be tested against generated scenes without the model.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from fanscan.scoring.tiles import CLASS_LABELS

_THUMB = (24, 32)


def _thumb(image: np.ndarray, inset: float = 0.08, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
    h, w = image.shape[:2]
    y0, x0 = int(h * (inset + dy)), int(w * (inset + dx))
    inner = image[max(y0, 0) : int(h * (1 - inset + dy)), max(x0, 0) : int(w * (1 - inset + dx))]
    small = cv2.resize(inner, _THUMB, interpolation=cv2.INTER_AREA).astype(np.float32)
    small -= small.mean()
    return small.ravel() / (np.linalg.norm(small) + 1e-6)


class TemplateClassifier:
    """Nearest-template classifier over one art style's 42 faces (composited on ivory)."""

    labels = CLASS_LABELS

    def __init__(self, style: str) -> None:
        from fanscan.datasets import tile_art

        faces = tile_art.load_faces(style)
        self.codes = list(faces)
        ivory = np.float32([220, 235, 242])
        thumbs = []
        for code in self.codes:
            face = faces[code].astype(np.float32)
            alpha = face[:, :, 3:] / 255
            thumbs.append(_thumb((face[:, :, :3] * alpha + ivory * (1 - alpha)).astype(np.uint8)))
        self.templates = np.stack(thumbs)

    def probabilities(self, images: list[np.ndarray]) -> np.ndarray:
        out = np.zeros((len(images), len(CLASS_LABELS)), np.float32)
        for n, image in enumerate(images):
            h, w = image.shape[:2]
            centre = image[h // 5 : h - h // 5, w // 5 : w - w // 5]
            lab = cv2.cvtColor(centre, cv2.COLOR_BGR2LAB).astype(np.float32)
            flat = float(lab[:, :, 0].std()) < 20
            coloured = float(np.abs(lab[:, :, 1:] - 128).mean()) > 12
            if flat and coloured:
                out[n, CLASS_LABELS.index("back")] = 0.95
                out[n, 0] = 0.05
                continue
            # The best match over a few framings: a face cut a little loose, tight or off-centre.
            looks = [_thumb(image, inset, dx, dy) for inset in (0.05, 0.1) for dx in (-0.03, 0.03)
                     for dy in (-0.03, 0.03)]
            scores = (self.templates @ np.stack(looks).T).max(axis=1)
            weights = np.exp((scores - scores.max()) * 40)
            weights /= weights.sum()
            for code, weight in zip(self.codes, weights):
                out[n, CLASS_LABELS.index(code)] = weight
        return out

    def classify(self, images: list[np.ndarray]) -> tuple[list[str], np.ndarray]:
        probs = self.probabilities(images)
        return [CLASS_LABELS[i] for i in probs.argmax(axis=1)], probs.max(axis=1)


@pytest.fixture(scope="session")
def template_classifier():
    """A factory: ``template_classifier(style)`` (cached per style)."""
    cache: dict[str, TemplateClassifier] = {}

    def make(style: str) -> TemplateClassifier:
        if style not in cache:
            cache[style] = TemplateClassifier(style)
        return cache[style]

    return make
