"""When the hand is a tile short: the places just beyond its rows' ends looked at.

A hand read as none the rules accept, with fewer tiles than the smallest hand they allow, after
the clusters apart were tried (``hand_joins``), lacks a tile no box was found on. Its likeliest
place is a row's end: the winning tile set a little apart, or the last tile of a row against
the photo's glare or a slant the finder missed. So, only then:

1. ``end_slots``: in the hand's own frame and rows, beyond each end of each group of upright
   face-up tiles (a row's end, or a winning tile's place before the melds laid after it), a slot
   one typical step on along the rows and one a step and a half on (a winning tile set apart),
   each where no box of the photo lies within half a step and whose centre lies in the photo (the
   slot touching the end, also just beyond the frame, ``CUT_REACH``: a row's last tile the frame
   cuts, which the finder's passes do not box; its crop shows the part inside mirrored beyond the
   frame, ``row_gaps``).
2. ``row_gaps.read_slots`` reads them as the gaps inside the rows are read: a slot that the
   classifier and the finder's look together find likelier a tile than not (never a back) is a
   candidate, the finder's look its finder score.
3. ``read_with_ends``: the hand is read again with the candidates, and that reading kept only
   when the rules accept it: the search weighs each candidate like a finder's box.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from fanscan.scoring.tiles import BACK
from fanscan.vision import geometry
from fanscan.vision.detections import TileReading
from fanscan.vision.flowers import FlowerLooks
from fanscan.vision.image_io import Photo
from fanscan.vision.interpret import MAX_LAYOUTS, HandRead
from fanscan.vision.numeric import median
from fanscan.vision.row_gaps import MIN_PAIRS, read_slots

CUT_REACH = 0.25
"""A slot's centre may lie this many typical steps beyond the photo's frame: the tile there, touching
its neighbour, still shows about a quarter of its width inside the frame (less, and its crop is
mostly the part inside mirrored). On rf-chinese's hand photos (folds 0-4), 8 of 154 had a
labelled tile the frame cut left unread."""
STEPS_BEYOND = (1.0, 1.5)
"""Slots lie this many typical steps beyond a row's end tile: touching it, and set a little apart
as a winning tile is (about half a tile's gap)."""


def end_slots(readings: list[TileReading], rows: list[list[list[int]]], right: np.ndarray, others: np.ndarray,
              image_size: tuple[int, int]) -> list[tuple[int, np.ndarray]]:
    """(end tile, slot quad) beyond each end of each group of upright face-up tiles in ``rows``
    (the groups of ``readings`` in their own frame, ``right`` along them), where no box
    (``others``: the centres of every box the photo holds) lies within half a step and whose
    centre lies in the photo (for the slot touching the end, no more than ``CUT_REACH`` steps
    beyond its frame). A step is the typical distance between neighbours in a group."""
    centres = np.array([r.box.mean(axis=0) for r in readings])
    lines = [sorted(tiles, key=lambda i: readings[i].position) for row in rows for group in row
             if (tiles := [i for i in group if not readings[i].sideways and readings[i].code != BACK])]
    steps = [float(np.linalg.norm(centres[b] - centres[a])) for tiles in lines for a, b in zip(tiles, tiles[1:])]
    if len(steps) < MIN_PAIRS:
        return []
    step = median(steps)
    width, height = image_size
    reach = CUT_REACH * step
    slots = []
    for tiles in lines:
        for end, outward in ((tiles[0], -right), (tiles[-1], right)):
            for beyond in STEPS_BEYOND:
                slot = readings[end].box + outward * beyond * step
                centre = slot.mean(axis=0)
                cut = reach if beyond == STEPS_BEYOND[0] else 0.0  # a tile set apart lies in the photo
                if not (-cut <= centre[0] < width + cut and -cut <= centre[1] < height + cut):
                    continue
                if len(others) and np.linalg.norm(others - centre, axis=1).min() < step / 2:
                    continue  # a box lies there already
                slots.append((end, slot.astype(np.float32)))
    return slots


def probe_ends(photo: Photo, readings: list[TileReading], apart: list[TileReading], right: np.ndarray,
               up: np.ndarray, classifier: Any, flower_looks: FlowerLooks | None = None) -> list[TileReading]:
    """Readings of the slots beyond the ends of the hand's rows (``end_slots``; ``apart``: the
    photo's other tiles, whose boxes fill a slot too) that may hold a tile; none when the
    classifier cannot answer "no tile" (a stand-in)."""
    if len(readings) < 2 or not getattr(classifier, "answers_no_tile", False):
        return []
    framed, frame_right, frame_up = geometry.in_their_frame(readings, right, up)
    others = np.array([r.box.mean(axis=0) for r in [*readings, *apart]])
    slots = end_slots(framed, geometry.rows_and_groups(framed, frame_right, frame_up), frame_right, others,
                      photo.size)
    return read_slots(photo, readings, slots, frame_right, classifier, flower_looks)


def read_with_ends(read: HandRead, photo: Photo, apart: list[TileReading], right: np.ndarray, up: np.ndarray,
                   classifier: Any, flower_looks: FlowerLooks | None,
                   read_part: Callable[..., tuple[HandRead, list[TileReading]]]) -> HandRead:
    """The hand read again with the tiles found beyond its rows' ends (``probe_ends``), keeping
    its tiles as read (``read_part(tiles, most_layouts, read_again)``), when the rules accept that
    reading; else ``read`` as it was."""
    found = probe_ends(photo, list(read.readings), apart, right, up, classifier, flower_looks)
    if not found:
        return read
    again, _ = read_part([*read.readings, *found], MAX_LAYOUTS, False)
    return again if again.best is not None and again.best.satisfied else read
