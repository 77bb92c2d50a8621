"""The hand read again in its own rows' frame, when the cluster it was read in ran another way.

``read_tiles`` reads each cluster of tiles in one frame: the way most of its tiles' nearest
neighbours lie (``geometry.hand_frame``). A hand with discards or a wall within a cluster's reach
shares their frame, and where those outnumber it (a pile turned every way, a wall's column) the
hand's rows may run 30 to 60 degrees off it: its faces are cut askew, and its rows
(``geometry.rows_and_groups``, measured across that frame) run into one another, a meld laid
behind the row taken into it. Once the hand is picked:

1. its own frame is the frame of its tiles alone (``geometry.hand_frame``); within
   ``geometry.FRAME_AGREES`` of the frame they were read in, the tiles keep their looks (cut that
   little askew, a face reads alike) but lie in the rows of their own frame: a cluster's frame
   set by the wall or discards around the hand, 20 degrees off, makes a row climb across it as
   far as a meld laid behind the row lies above it, and the two would run into one;
2. otherwise every tile is cut again in the hand's own frame, each one lying sideways there both
   ways across its row (``geometry.ways_up``), the flowers' second looks taken;
3. the tiles so read are the hand's when they read more surely, on average, than as first read
   (the comparison a frame group's quarter-turned trial makes, ``tile_reading._read_group``);
4. otherwise the tiles keep their first looks, but the hand's rows still lie in its own frame, as
   in step 1: its tiles' neighbours say which way its rows run, whichever frame read its faces
   more surely. A cluster's frame a quarter turn off (a wall's column beside the row) reads each
   upright tile as one lying sideways, turned both ways, and the surer of two looks is surer than
   the one look the tile gets upright in its own frame; the faces come out the same, but measured
   in the cluster's frame every tile was a row of its own, a claimed tile alone (three of 150
   generated cluttered tables, session 73). Each tile lies sideways in the hand's rows only when
   its box there is as wide as a sideways tile's too (``geometry.sideways_flags``); a tile that
   is, read upright first, is judged again after (``tile_reading.read_sideways_again``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from fanscan.scoring.tiles import BACK, CLASS_LABELS
from fanscan.vision import geometry
from fanscan.vision.detections import TileReading
from fanscan.vision.flowers import FlowerLooks
from fanscan.vision.image_io import Photo
from fanscan.vision.locate import CROP_MIN_SIDE
from fanscan.vision.tile_reading import CROP_H, CROP_W, cast_table_of, reading_of
from fanscan.vision.way_looks import WayLooks

FEWEST_TILES = 5
"""A hand of fewer tiles has too few neighbours to set a frame of its own against its cluster's."""


def read_in_own_frame(photo: Photo, readings: list[TileReading], right: np.ndarray, up: np.ndarray,
                      classifier: Any, flower_looks: FlowerLooks | None = None,
                      ) -> tuple[list[TileReading], np.ndarray, np.ndarray]:
    """The hand's ``readings`` and the frame to lay its rows in (the module's steps): within
    ``FRAME_AGREES`` of the frame they were read in (``right``, ``up``), the readings as read in
    their own frame; beyond it, the tiles cut again in their own frame when they read more surely
    so, else as read but in the rows of their own frame (step 4)."""
    if len(readings) < FEWEST_TILES:
        return readings, right, up
    quads = np.stack([r.box for r in readings])
    own_right, own_up = geometry.hand_frame(quads)
    if abs(float(own_up @ up)) >= np.cos(geometry.FRAME_AGREES):
        return _laid_in(readings, *_same_way(own_right, own_up, up))
    across = geometry.sideways_flags(quads, own_right, own_up)
    choices = geometry.ways_up(own_up, own_right, across)
    scale = photo.scale_for(quads, CROP_MIN_SIDE)
    table = cast_table_of(photo, readings, scale)
    face_down = np.array([r.code == BACK for r in readings])
    looker = WayLooks(photo, quads, face_down, classifier, scale, (CROP_W, CROP_H), lambda _: table)
    got = looker.best_ways(range(len(readings)), choices)
    rows = got.probs if flower_looks is None else flower_looks.reweigh(got.probs, CLASS_LABELS, got.crops.__getitem__)
    frame_up = (float(own_up[0]), float(own_up[1]))
    sideways = geometry.read_sideways(across, got.picks)
    again = [reading_of(rows[t], float(got.no_tile[t]), got.boxes[t], choices[t][got.picks[t]], sideways[t],
                        position=float(old.box.mean(axis=0) @ own_right), finder_score=old.finder_score,
                        frame_up=frame_up, face_down=bool(face_down[t]))
             for t, old in enumerate(readings)]
    if np.mean([r.confidence for r in again]) <= np.mean([r.confidence for r in readings]):
        # Step 4: the looks as read, sideways only where their boxes lie across the own rows too,
        # and the own frame the one a cut of the hand is laid in (geometry.in_their_frame).
        as_read = [replace(r, sideways=r.sideways and flag, frame_up=frame_up) for r, flag in zip(readings, across)]
        return _laid_in(as_read, own_right, own_up)
    return again, own_right, own_up


def _same_way(own_right: np.ndarray, own_up: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The hand's own frame turned to point the way ``up`` does (the frame its tiles were read in)."""
    return (own_right, own_up) if float(own_up @ up) >= 0 else (-own_right, -own_up)


def _laid_in(readings: list[TileReading], right: np.ndarray, up: np.ndarray,
             ) -> tuple[list[TileReading], np.ndarray, np.ndarray]:
    """The readings as read, their positions along the rows of the frame (``right``, ``up``)."""
    return [r.placed_along(right) for r in readings], right, up
