"""The tile finder's own look at a slot where a tile may stand: how likely a tile lies there.

A slot probed between two tiles (``row_gaps``) is read by the classifier, whose "no tile" answer
cannot tell a blank white dragon from the plain patch of table between two sets (both are a
crop with no picture: ``tile_reading.PLAIN_FACES``). The finder can: it sees the slot among its
neighbours, a tile's edges, seams and shading around its plain face. Its first pass missed the
slot's tile (else no slot was probed), mostly because a blank face carries none of the marks it
keys on at that pass's scale; looked at again, the slot alone and at the scale the finder parts
tiles best, it marks a blank tile as a tile and a gap of table as table.

``tile_probabilities`` cuts a window around each slot from the photo's decode, scaled so that
the hand's tiles' short sides span ``locate.REFIND_SHORT`` pixels, runs the finder network on it
and averages its face and back probabilities over the slot's middle (the slot shrunk to
``finder.SHRINK``, as the network marks tiles).
"""

from __future__ import annotations

import cv2
import numpy as np
from fanscan.vision import finder
from fanscan.vision.image_io import Photo
from fanscan.vision.locate import FAR_ENLARGE, REFIND_SHORT, short_sides
from fanscan.vision.numeric import median

CONTEXT_SIDES = 2.0
"""The window reaches this many of the slot's short sides beyond it on every side: 72 px at
``REFIND_SHORT``, past the network's receptive field (65 px from its centre, ``finder``), so the
slot's middle is marked as in a look at the whole photo."""


def tile_probabilities(photo: Photo, tile_quads: np.ndarray, slots: list[np.ndarray]) -> np.ndarray:
    """The finder's probability of a tile (face up or down) over the middle of each slot (quads in
    the photo's full-resolution pixels), looked at among the tiles ``tile_quads`` at the scale at
    which their short sides span ``REFIND_SHORT`` pixels (the photo's pixels enlarged at most
    ``locate.FAR_ENLARGE`` times, as a far hand's search enlarges them)."""
    if not slots:
        return np.zeros(0)
    scale = photo.scale_for(tile_quads, REFIND_SHORT)
    image = photo.decode(scale)
    to_decode = np.float32([image.shape[1] / photo.width, image.shape[0] / photo.height])
    zoom = min(FAR_ENLARGE, REFIND_SHORT / max(1.0, median(short_sides(tile_quads * to_decode))))
    return np.array([_look(image, np.asarray(slot, np.float32) * to_decode, zoom) for slot in slots])


def _look(image: np.ndarray, quad: np.ndarray, zoom: float) -> float:
    """The finder's tile probability over the middle of ``quad`` (decode pixels), its window
    seen at ``zoom``."""
    reach = CONTEXT_SIDES * float(short_sides(quad[None])[0])
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - reach), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + reach), [image.shape[1], image.shape[0]]).astype(int)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return 0.0
    window = image[y0:y1, x0:x1]
    if zoom != 1.0:
        window = cv2.resize(window, None, fx=zoom, fy=zoom,
                            interpolation=cv2.INTER_AREA if zoom < 1.0 else cv2.INTER_LINEAR)
    table = finder.tile_maps(window)[..., 0]
    middle = (quad - [x0, y0]) * np.float32([window.shape[1] / (x1 - x0), window.shape[0] / (y1 - y0)])
    centre = middle.mean(axis=0)
    middle = centre + (middle - centre) * finder.SHRINK
    mask = np.zeros(window.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(middle).astype(np.int32), 1)
    inside = mask.astype(bool)
    return float(1.0 - table[inside].mean()) if inside.any() else 0.0
