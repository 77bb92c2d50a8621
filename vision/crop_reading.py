"""Crops of one tile each named (``fanscan classify``), however they were cut.

A crop as the classifier learnt it is the tile's face, upright, filling the image. People crop
otherwise: a tile lying sideways gives an image wider than tall, and a loose crop shows the table
around the face. Read as they were, held-out real crops (rf-chinese fold 4) turned a quarter were
named right 15 % of the time, with a margin of a quarter of the face each way 78 %
(docs/benchmarks.md, session 76).

1. Each crop is read as it is and, when it is wider than tall (a face lying sideways, or an upright
   face cut wide), turned a quarter too (either way: the classifier reads a face either way up
   alike, and a quarter turned less surely); the surer reading is kept. Flowers get their second
   looks (``flowers``).
2. A crop read doubtfully (``classifier.SECOND_LOOK_BELOW``) is read again at its middles
   (``MIDDLE_SHARES``, both ways when wide): the surest middle takes its place when it reads
   surer *and* looks likelier a tile (the classifier's "no tile" lower): a loose crop's middle
   drops the table; a tight crop's middle cuts the face, and looks less like a tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from fanscan.vision.classifier import SECOND_LOOK_BELOW, TileClassifier
from fanscan.vision.flowers import FlowerLooks

MIDDLE_SHARES = (0.8, 0.67, 0.5)
"""A doubtful crop's middles read again: the face within a margin of an eighth, a quarter and half
its size on every side."""


@dataclass(frozen=True)
class CropReading:
    """One crop's face: its code, the confidence, and how likely it holds no tile at all."""

    code: str
    confidence: float
    no_tile: float


def read_crops(images: Sequence[np.ndarray], classifier: TileClassifier,
               looks: FlowerLooks | None = None) -> list[CropReading]:
    """Each crop's face (steps 1 and 2 above)."""
    readings = _surest(classifier, looks, [_both_ways(image) for image in images])
    doubtful = [i for i, reading in enumerate(readings) if reading.confidence < SECOND_LOOK_BELOW]
    again = _surest(classifier, looks, [[middle for way in _both_ways(images[i]) for middle in _middles(way)]
                                        for i in doubtful])
    for i, middle in zip(doubtful, again, strict=True):
        if middle.confidence > readings[i].confidence and middle.no_tile < readings[i].no_tile:
            readings[i] = middle
    return readings


def _surest(classifier: TileClassifier, looks: FlowerLooks | None,
            views: list[list[np.ndarray]]) -> list[CropReading]:
    """For each crop, the surest reading among its ``views`` (all read in one batch)."""
    flat = [view for crop_views in views for view in crop_views]
    if not flat:
        return []
    codes, confidences, no_tiles = classifier.named(flat, looks)
    out, start = [], 0
    for crop_views in views:
        best = start + int(np.argmax(confidences[start:start + len(crop_views)]))
        out.append(CropReading(codes[best], float(confidences[best]), float(no_tiles[best])))
        start += len(crop_views)
    return out


def _both_ways(image: np.ndarray) -> list[np.ndarray]:
    """The crop, and when it is wider than tall (a face lying sideways, or an upright face cut
    wide) the crop turned a quarter too."""
    height, width = image.shape[:2]
    return [image, np.ascontiguousarray(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE))] if width > height else [image]


def _middles(image: np.ndarray) -> list[np.ndarray]:
    """The middle of ``image`` at each share of ``MIDDLE_SHARES`` of its width and height."""
    height, width = image.shape[:2]
    out = []
    for share in MIDDLE_SHARES:
        h, w = min(height, max(8, round(height * share))), min(width, max(8, round(width * share)))
        top, left = (height - h) // 2, (width - w) // 2
        out.append(image[top:top + h, left:left + w])
    return out
