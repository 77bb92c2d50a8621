"""Faces of real tiles to paint generated scenes with: declared sets, kongs and winning tiles laid
out as the scene generator lays them, but showing real tiles of sets no model trained on.

No real photo of called sets is labelled here; this is the nearest thing the real crops allow
(``benchmarks/bench_scenes.py --real-faces``).

1. ``held_out_pool``: the crops of the labelled tiles of rf-chinese's held-out sources whose
   augmentation did not turn them (a box around a turned tile holds parts of its neighbours),
   unmirrored (``real_table_crops.upright_crops``), keeping the crops shaped like a face seen from
   above (``FACE_ASPECT``: a standing tile's box holds its top too, a stretched photo's tiles are
   squeezed) and wide enough to show the face (``MIN_WIDTH``). All 42 faces are among them.
2. ``draw_faces``: one crop per tile code, drawn at random, as ``generate_scene(faces=...)``
   takes faces: opaque BGRA of ``tile_art.FACE_SIZE``. One scene's faces may come from
   several sets.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from fanscan.datasets.tile_art import FACE_SIZE
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import TILE_CODES

FACE_ASPECT = (1.15, 1.6)
"""Height over width of the crops kept: a tile face is 4:3 (1.33); the label boxes of rf-chinese
hold a tile's top too when it stands, and the export stretched every photo to a square."""
MIN_WIDTH = 30
"""Crops narrower than this many pixels are too blurred to paint a face with."""


@dataclass(frozen=True)
class FacePool:
    """Real face crops (BGR uint8) by tile code."""

    crops: dict[str, list[np.ndarray]]

    def missing(self) -> list[str]:
        """The tile codes with no crop."""
        return [code for code in TILE_CODES if not self.crops.get(code)]


def face_shaped(crop: np.ndarray) -> bool:
    """Whether a crop has a face's shape and enough pixels to paint one (``FACE_ASPECT``,
    ``MIN_WIDTH``)."""
    height, width = crop.shape[:2]
    return width >= MIN_WIDTH and FACE_ASPECT[0] <= height / width <= FACE_ASPECT[1]


def pool_of(crops: list[np.ndarray], codes: list[str]) -> FacePool:
    """The face-shaped ``crops`` (``face_shaped``) by their ``codes``."""
    by_code: dict[str, list[np.ndarray]] = {}
    for crop, code in zip(crops, codes):
        if code in TILE_CODES and face_shaped(crop):
            by_code.setdefault(code, []).append(crop)
    return FacePool(by_code)


def held_out_pool(classifier) -> FacePool:
    """The face-shaped crops of rf-chinese's held-out, unturned sources (empty when ../shared is
    absent); ``classifier`` decides the crops' quarter turns and mirroring as ``upright_crops``
    does."""
    from fanscan.datasets.real_table_crops import upright_crops
    from fanscan.datasets.real_tables import (
        HELD_OUT_FOLD, in_folds, least_turned, load_table_photos, upright_version)

    crops: list[np.ndarray] = []
    codes: list[str] = []
    for photo in least_turned(in_folds(load_table_photos(), [HELD_OUT_FOLD])):
        version = upright_version(photo) if len(photo.codes) else None
        if version is not None and version.turn == 0:
            upright = upright_crops(photo, classifier, version)
            crops += upright.crops
            codes += list(upright.codes)
    return pool_of(crops, codes)


def draw_faces(pool: FacePool, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """One of ``pool``'s crops per tile code, as opaque BGRA faces of ``FACE_SIZE``."""
    missing = pool.missing()
    if missing:
        raise FanscanError("no_real_faces", f"no real crop of {', '.join(missing)} to paint a scene with")
    faces = {}
    for code in TILE_CODES:
        crop = pool.crops[code][int(rng.integers(len(pool.crops[code])))]
        face = cv2.resize(crop, FACE_SIZE, interpolation=cv2.INTER_AREA)
        faces[code] = cv2.cvtColor(face, cv2.COLOR_BGR2BGRA)
    return faces
