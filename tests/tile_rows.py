"""Readings of tiles laid in a row, written as a spec, for the tests of the hand's logic.

``tile_row("1m 2m 3m | 4p 5p* 6p")``: touching tiles, a gap at each ``|`` (the last group after
one: the winning tile), a code ending in ``*`` lying sideways (a claimed tile).
"""

from __future__ import annotations

import numpy as np
from fanscan.vision.detections import TileReading

W, H = 30.0, 40.0


def tile_row(spec: str, sure: float = 0.99, y: float = 100.0) -> list[TileReading]:
    """The tiles of ``spec``, each read at ``sure`` (its only guess), boxed as the finder would
    (finder score 0.999)."""
    tiles, x = [], 0.0
    for token in spec.split():
        if token == "|":
            x += 12
            continue
        sideways = token.endswith("*")
        code = token.rstrip("*")
        w, h = (H, W) if sideways else (W, H)
        box = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        tiles.append(TileReading(code, sure, box, 0.0, sideways, x + w / 2, ((code, sure),), finder_score=0.999))
        x += w + 1
    return tiles
