"""A classifier stand-in for the tests of how faces are cut, and the glyph it reads.

``Glyph`` reads ``1m`` surely only in a crop whose glyph (``draw_glyph``: a red dot in the top-left
quarter, a blue one to its right on the same line; no turn makes it its own mirror image) stands
upright and unmirrored; any other crop it reads poorly, as ``2m``. ``CountingGlyph`` also counts
the crops it is shown.
"""

from __future__ import annotations

import cv2
import numpy as np
from fanscan.scoring.tiles import CLASS_LABELS


def draw_glyph(face: np.ndarray) -> np.ndarray:
    """``face`` (an upright face, 40 wide at least) with the glyph drawn at its top left."""
    cv2.circle(face, (9, 9), 4, (40, 40, 230), -1)  # red
    cv2.circle(face, (26, 9), 4, (230, 40, 40), -1)  # blue
    return face


class Glyph:
    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        probs = np.full((len(crops), len(CLASS_LABELS)), 0.3 / (len(CLASS_LABELS) - 1), np.float32)
        for n, crop in enumerate(crops):
            blue, red = crop[:, :, 0].astype(int), crop[:, :, 2].astype(int)
            h, w = red.shape
            r = np.unravel_index(int((red - blue).argmax()), red.shape)
            b = np.unravel_index(int((blue - red).argmax()), red.shape)
            upright = r[0] < h / 2 and r[1] < w / 2 and abs(b[0] - r[0]) < h / 10 and b[1] > r[1]
            probs[n, CLASS_LABELS.index("1m" if upright else "2m")] = 0.99 if upright else 0.7
        return probs / probs.sum(axis=1, keepdims=True)


class CountingGlyph(Glyph):
    def __init__(self) -> None:
        self.seen = 0

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        self.seen += len(crops)
        return super().probabilities(crops)
