"""``fanscan read --debug-dir``: the reader's intermediate images, to see where a read went wrong.

Written: the finder's input and its face and back maps, the boxes found (green face up, red
face down), the crops of the hand's tiles as the classifier saw them, and the annotated answer.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from fanscan.vision import finder
from fanscan.vision.detections import TileDetections, TileReading
from fanscan.vision.image_io import Photo
from fanscan.vision.locate import CROP_MIN_SIDE, find_scale
from fanscan.vision.photo_reading import PhotoReading, _write_image
from fanscan.vision.tile_reading import CROP_H, CROP_W


def write(debug_dir: Path, photo: Photo, small: np.ndarray, detections: TileDetections,
          reading: PhotoReading, hand: list[TileReading]) -> None:
    """Write the intermediate images of one read into ``debug_dir`` (made if missing)."""
    debug_dir.mkdir(parents=True, exist_ok=True)
    maps = finder.tile_maps(small)
    overlay, _ = finder.working_image(photo.decode(find_scale(photo)))
    factor = overlay.shape[1] / reading.image_size[0]
    for quad, back in zip(detections.quads, detections.backs):
        cv2.polylines(overlay, [(quad * factor).astype(np.int32)], True, (0, 0, 255) if back else (0, 255, 0), 1)
    scale = photo.scale_for(detections.quads, CROP_MIN_SIDE)
    crops = [photo.crop_quad(r.box, CROP_W, CROP_H, scale) for r in hand]
    images = {
        "1-find-input.png": small,
        "2-face-map.png": (maps[:, :, 1] * 255).astype(np.uint8),
        "3-back-map.png": (maps[:, :, 2] * 255).astype(np.uint8),
        "4-detections.png": overlay,
        "5-crops.png": np.hstack(crops) if crops else np.zeros((CROP_H, CROP_W, 3), np.uint8),
        "6-annotated.jpg": reading.annotated(),
    }
    for name, image in images.items():
        _write_image(debug_dir / name, image)
