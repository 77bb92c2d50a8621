"""How a photo's tiles stand: the turn that stands them upright, when they stand tilted.

A hand photographed with the camera turned (or laid slanting on the table) shows its rows
slanting; the finder learnt rows across the photo and misses more of the tiles the further they
slant (held-out fold 4 tilted by 30 degrees: 87 % of the labelled tiles found against 95 %
upright; docs/benchmarks.md, session 44). ``tiles_tilt`` reads the slant most boxes agree on
from the boxes themselves; ``tilted_turn`` says whether it is worth standing them upright.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from fanscan.vision.detections import TileDetections
from fanscan.vision.numeric import median

UPRIGHT_WITHIN = 20.0
"""Tiles whose sides run within this many degrees of the photo's axes stand upright (or lie
sideways) as far as the finder is concerned, and boxes whose slants lie within as much of each
other agree. Fitted on rf-chinese folds 0-3, each photo tilted at random within 45 degrees
either way (``bench_real_tables.py --folds 0,1,2,3 --tilt random``; labelled tiles read right of
5,394: never stood upright 4,683; at 10 / 15 / 20 / 25 degrees 4,770 / 4,807 / 4,820 / 4,777)."""


@dataclass(frozen=True)
class Tilt:
    """How the boxes' tiles stand: the clockwise turn (degrees, within (-90, 90]) that stands the
    most of them upright, and the share of the boxes (by finder score) whose slant agrees with it
    (within ``UPRIGHT_WITHIN``, a quarter turn apart alike)."""

    turn: float
    agreeing: float


def tiles_tilt(detections: TileDetections) -> Tilt | None:
    """The boxes' ``Tilt``: the slant most of them agree on (the mode of the boxes' sides' angles,
    a quarter turn apart alike, each box counting by its finder score for every slant within
    ``UPRIGHT_WITHIN`` of its own; then the median slant of the boxes agreeing with it), turned a
    quarter more when most of the boxes agreeing stand with their long sides across it. None
    without boxes."""
    if not len(detections):
        return None
    quads = detections.quads.astype(np.float64)
    across = (quads[:, 1] - quads[:, 0] + quads[:, 2] - quads[:, 3]) / 2
    down = (quads[:, 3] - quads[:, 0] + quads[:, 2] - quads[:, 1]) / 2
    # A box's slant: its down side's angle from the vertical, clockwise (y grows downwards); its
    # long side's is a quarter more for a box lying across.
    slant = np.rad2deg(np.arctan2(-down[:, 0], down[:, 1]))
    long_side = slant + 90.0 * (np.linalg.norm(across, axis=1) > np.linalg.norm(down, axis=1))
    weights = np.maximum(np.asarray(detections.scores, np.float64), 1e-6)
    # Each whole degree's support, a quarter turn apart alike: the weight of the slants within
    # UPRIGHT_WITHIN of it (a histogram: a photo of thousands of boxes costs no more than its boxes).
    degrees = np.arange(90.0)
    histogram = np.bincount(np.floor(slant % 90.0).astype(int) % 90, weights, minlength=90)
    reach = np.abs((degrees[:, None] - degrees[None, :] + 45.0) % 90.0 - 45.0) < UPRIGHT_WITHIN
    mode = float(degrees[int(np.argmax(reach @ histogram))]) + 0.5
    offsets = (slant - mode + 45.0) % 90.0 - 45.0
    agree = np.abs(offsets) < UPRIGHT_WITHIN
    rows = (mode + median(offsets[agree]) + 45.0) % 90.0 - 45.0
    # Turned by -rows, a box agreeing stands upright when its long side then runs up and down.
    across_rows = np.abs((long_side - rows) % 180.0 - 90.0) < 45.0
    upright = -rows
    if weights[agree & across_rows].sum() > weights[agree & ~across_rows].sum():
        upright = quarter_off(upright)
    return Tilt(float(upright), float(weights[agree].sum() / weights.sum()))


def quarter_off(turn: float) -> float:
    """The turn a quarter off ``turn`` that stays within (-90, 90]: the other way of standing
    boxes of one slant upright (their long sides across the slant rather than along it)."""
    return turn + 90.0 if turn <= 0 else turn - 90.0


def tilted_turn(detections: TileDetections) -> float | None:
    """The clockwise turn that stands the boxes' tiles upright when they stand tilted: further than
    ``UPRIGHT_WITHIN`` from upright or sideways, most of the boxes agreeing (a pile of tiles lying
    every way has no tilt to undo); else None."""
    tilt = tiles_tilt(detections)
    if tilt is None or tilt.agreeing <= 0.5:
        return None
    if abs(tilt.turn) < UPRIGHT_WITHIN or abs(tilt.turn) > 90.0 - UPRIGHT_WITHIN:
        return None
    return tilt.turn
