"""A doubtful tile of the hand read again, cut as the hand's typical tile at its place.

The box refiner sometimes leaves a box skewed across two touching tiles of a row (one corner
pulled onto the neighbour's face), and its crop shows half of each: a second E in a row of
E E F F read as F at 57 %. The hand's other tiles say what a tile there looks like: in the
hand's own frame (``geometry.in_their_frame``: ``right`` along its rows, ``up`` to the faces'
tops) they share one width and height. So each face-up tile of the hand that the classifier
read doubtfully (under ``classifier.SECOND_LOOK_BELOW``, the same doubt that earns a crop its
look turned 180 degrees) is cut again as that typical box, square to the frame and centred on
its own box, classified (the flower specialist's second look too, not the numeral reader's:
see below), and its reading replaced when the new one is surer (the confidence times the
probability of a tile, as ``tile_reading.read_quality`` judges boxes). The tile keeps its box: the cut is a second look at the face, not a new box.

Either way the two looks' probabilities are averaged into the reading's ``probs`` (as the
classifier averages a crop's two looks): the surer look names the face, and the other look's
faces stay options of the reading search (``interpret``), priced by both looks. The wider cut can
read a face surely and wrongly where the tile's own cut was torn between two (a flower drawn as
a red leaf over a word read as 4m at 75 % where its own cut read it 7f at 45 %), and the search
can then still complete the hand with the face the other look saw.

The numeral reader (``flowers``) looked at the tile's own cut, and is not asked again (session
61): a number printed on a flower shows in its own cut, skewed or not, and on a set that prints
none the reader can be sure of a "1" in a character's strokes. In the wider cut it had made
gnome's gold 竹 (4f) and 菊 (3f), which the specialist reads right in their own cuts, 1f at
0.77-0.91, and the surer look names the face.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from fanscan.scoring.tiles import BACK
from fanscan.vision.classifier import SECOND_LOOK_BELOW
from fanscan.vision.detections import TileReading
from fanscan.vision.evidence import face_probabilities
from fanscan.vision.flowers import FlowerLooks
from fanscan.vision.image_io import Photo
from fanscan.vision.numeric import median
from fanscan.vision.tile_reading import look_at_cuts, reading_of, surety

TYPICAL_FROM = 3
"""The hand's typical tile is the median of at least this many upright face-up tiles."""


def typical_size(readings: list[TileReading], right: np.ndarray, up: np.ndarray) -> tuple[float, float] | None:
    """(width along ``right``, height along ``up``) of the hand's typical upright face-up tile,
    or None when fewer than ``TYPICAL_FROM`` tiles give one."""
    upright = [r.box for r in readings if not r.sideways and r.code != BACK]
    if len(upright) < TYPICAL_FROM:
        return None
    offsets = np.stack(upright) - np.stack(upright).mean(axis=1, keepdims=True)
    return median(2 * np.abs(offsets @ right).max(axis=1)), median(2 * np.abs(offsets @ up).max(axis=1))


def typical_box(centre: np.ndarray, size: tuple[float, float], right: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The box of ``size`` (width, height) centred on ``centre``, square to the frame, in the
    face's TL, TR, BR, BL order."""
    half_w, half_h = size[0] / 2 * right, size[1] / 2 * up
    return np.float32([centre - half_w + half_h, centre + half_w + half_h,
                       centre + half_w - half_h, centre - half_w - half_h])


def read_doubtful_again(photo: Photo, readings: list[TileReading], right: np.ndarray, up: np.ndarray,
                        classifier: Any, flower_looks: FlowerLooks | None = None) -> list[TileReading]:
    """The hand's readings (in its own frame ``right``, ``up``) with each doubtful upright face
    read again from the typical box at its place: named by the surer look, its probabilities both
    looks' mean."""
    if not getattr(classifier, "answers_no_tile", False):  # a stand-in without ``looks``: no second cut
        return readings
    size = typical_size(readings, right, up)
    doubtful = [i for i, r in enumerate(readings)
                if not r.sideways and r.code != BACK and r.confidence < SECOND_LOOK_BELOW]
    if size is None or not doubtful:
        return readings
    cuts = [typical_box(readings[i].box.mean(axis=0), size, right, up) for i in doubtful]
    # The numeral reader read each tile's own cut already: a printed number shows there wherever
    # the box lies, and a set that prints none gives it a second chance to see one in strokes.
    looks = replace(flower_looks, numerals=None) if flower_looks is not None else None
    probs, no_tile, _ = look_at_cuts(photo, readings, cuts, classifier, looks)
    out = list(readings)
    for k, i in enumerate(doubtful):
        old = readings[i]
        new = reading_of(probs[k], float(no_tile[k]), old.box, up, False, position=old.position,
                         finder_score=old.finder_score, frame_up=old.frame_up)
        both = (probs[k] + face_probabilities(old)) / 2
        if surety(new) > surety(old):
            out[i] = replace(new, orientation=old.orientation, probs=both)
        else:
            out[i] = replace(old, probs=both)
    return out
