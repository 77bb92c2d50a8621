"""Tiles the finder missed inside the hand's rows: a gap with room for one or two tiles.

A hand is rows of touching tiles, so two neighbours in a row standing about two steps apart (a
step: the typical distance between neighbours' centres) leave room for exactly one tile, and one
the finder missed often stands there (a face washed out by glare, a tile leaning against its
neighbour). Such a gap is a set the player laid apart as often: the classifier decides.

1. ``gap_slots``: in the hand's own frame (``geometry.in_their_frame``) and rows, each gap of
   ``STEPS_FOR_ONE`` steps between two upright neighbours with nothing found in it gives a slot:
   the left neighbour's box moved half way to the right one; a gap a step longer gives two, at a
   third and two thirds of the way (``MOST_MISSED``). A box the classifier finds likelier no tile
   than a tile (``OPEN_AT``: one straddling two tiles), unless read as a blank or a back, neither
   makes a neighbour nor fills a slot.
2. ``probe_gaps``: each slot is cut out, balanced on the hand's tiles and classified like any
   box (the flowers' second looks too), and the finder looks at it again among its neighbours
   (``slot_looks``). A slot the classifier finds likelier a tile than no tile, or reads as a
   blank white dragon, is looked at by the finder, and becomes a candidate of the hand when the
   two looks together find a tile likelier than not there: their odds of a tile multiplied, each
   look's taken at even odds before it, favour a tile, that is, the finder's probability of a
   tile exceeds the classifier's of no tile. The classifier's "no tile" says nothing of a blank (to
   it a blank face and a plain patch of table are alike, 0.7-0.9 for either on the generated
   tables looked at), so a blank's look must find a tile likelier than table alone. The
   classifier alone lets phantoms in: it reads a neighbour's side wall or a seam as a face (a
   flower at 0.76-0.93, "no tile" 0.2-0.5) where the finder's look is under 0.05, and the reading
   search's tile model cannot weigh so low a look (its finder feature is held within the range it
   was fitted on, the finder's own boxes, about 0.7 and up). The finder alone misses tiles: a far
   hand's tile it looks at weakly (0.44-0.48 where the classifier is sure). On the real photos of
   rf-chinese every slot on a labelled tile passes (``docs/benchmarks.md``, session 75). The
   look is the candidate's finder score, and the search keeps it or leaves it out like the
   finder's boxes. A slot read as a back is left empty: dark felt between two sets looks like a
   tile's back, and a concealed kong's backs are probed at its ends (``hand_region.probe_backs``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from fanscan.scoring.tiles import BACK
from fanscan.vision import geometry, slot_looks
from fanscan.vision.detections import TileReading
from fanscan.vision.flowers import FlowerLooks
from fanscan.vision.image_io import Photo
from fanscan.vision.numeric import median
from fanscan.vision.tile_reading import PLAIN_FACES, look_at_cuts, reading_of

BLANK = "P"
"""The white dragon, which many sets leave blank."""

STEPS_FOR_ONE = (1.6, 2.4)
"""Two neighbours this many typical steps apart have room for one tile between them (two steps,
give or take the spacing players leave and the boxes' jitter; three steps leave room for two)."""
ALONG_ROW = 0.9
"""...when the line between them runs along the row (the cosine of its angle to the row)."""
MOST_MISSED = 2
"""Neighbours n + 1 steps apart (``STEPS_FOR_ONE`` moved on by n - 1 steps) leave room for n tiles,
probed at even spaces between them, for n up to this (two tiles missed side by side, often
where boxes straddle them). With ``OPEN_AT``, on rf-chinese folds 0-4 (7,099 labelled tiles), one
/ up to two: 6 / 8 more tiles right, 1 / 2 more hand photos exact; three in a gap are rare."""
OPEN_AT = 0.5
"""The classifier's answer "no tile" at which a box is likelier no tile than a tile. Such a box (one
across two tiles, half on each) leaves its place open to be probed, unless it reads as a face with
no picture (``tile_reading.PLAIN_FACES``: a blank white dragon or a back looks like no tile to the
classifier, and a slot on it would read the same tile twice); the reading search then keeps the box
or the slot's tile, whichever its evidence finds likelier a tile. A slot so judged is not probed."""
MIN_PAIRS = 3
"""Rows with fewer neighbouring pairs than this give no typical step."""


def gap_slots(readings: list[TileReading], rows: list[list[list[int]]], right: np.ndarray,
              ) -> list[tuple[int, np.ndarray]]:
    """(left neighbour, slot quad) of each gap in the rows with room for one or two upright tiles,
    the boxes the classifier judges likelier no tile than a tile (``OPEN_AT``) counted as none
    unless they read as a plain face."""
    centres = np.array([r.box.mean(axis=0) for r in readings])
    pairs = []
    held = np.array([r.no_tile < OPEN_AT or r.code in PLAIN_FACES for r in readings], bool)
    held_centres = centres[held]
    for row in rows:
        tiles = sorted((i for group in row for i in group if held[i]), key=lambda i: readings[i].position)
        pairs += [(a, b) for a, b in zip(tiles, tiles[1:]) if not (readings[a].sideways or readings[b].sideways)]
    if len(pairs) < MIN_PAIRS:
        return []
    distances = np.array([np.linalg.norm(centres[b] - centres[a]) for a, b in pairs])
    step = median(distances)
    slots = []
    for (a, b), distance in zip(pairs, distances):
        between = centres[b] - centres[a]
        room = next((n for n in range(1, MOST_MISSED + 1)
                     if (STEPS_FOR_ONE[0] + n - 1) * step <= distance <= (STEPS_FOR_ONE[1] + n - 1) * step), 0)
        if not room:
            continue
        if abs(float(between @ right)) < ALONG_ROW * distance:
            continue
        these = [readings[a].box + between * (k / (room + 1)) for k in range(1, room + 1)]
        if any(np.linalg.norm(held_centres - slot.mean(axis=0), axis=1).min() < step / 2 for slot in these):
            continue  # a box lies there already
        slots += [(a, slot.astype(np.float32)) for slot in these]
    return slots


def probe_gaps(photo: Photo, readings: list[TileReading], right: np.ndarray, up: np.ndarray, classifier: Any,
               flower_looks: FlowerLooks | None = None) -> list[TileReading]:
    """The hand's readings and a reading of each gap slot (``gap_slots``) that the classifier
    and the finder's look together find likelier a tile than not (``read_slots``); never a back.
    A classifier that cannot answer "no tile" (``answers_no_tile``: a stand-in) gives no evidence
    either way: nothing is probed."""
    if len(readings) < 2 or not getattr(classifier, "answers_no_tile", False):
        return readings
    framed, frame_right, frame_up = geometry.in_their_frame(readings, right, up)
    slots = gap_slots(framed, geometry.rows_and_groups(framed, frame_right, frame_up), frame_right)
    return readings + read_slots(photo, readings, slots, frame_right, classifier, flower_looks)


def read_slots(photo: Photo, readings: list[TileReading], slots: list[tuple[int, np.ndarray]],
               frame_right: np.ndarray, classifier: Any, flower_looks: FlowerLooks | None = None,
               ) -> list[TileReading]:
    """A reading of each slot (the index of the reading it was moved from, its quad) that the
    classifier finds likelier a tile than no tile (or reads as a blank white dragon) and that the
    finder's look (``slot_looks``) finds likelier a tile than the classifier finds no tile (a
    blank: than table); never a back."""
    if not slots:
        return []
    # A slot the photo's frame cuts (a row's last tile, ``row_ends``) is read with its part inside
    # mirrored beyond the frame: the frame's last column repeated across the rest reads as no tile.
    probs, no_tiles, _ = look_at_cuts(photo, readings, [slot for _, slot in slots], classifier, flower_looks,
                                      mirrored=True)
    # The finder's look, asked only of the slots the classifier lets through, is weighed against
    # the classifier's "no tile" (even odds for a blank, of which that says nothing): the two
    # looks' odds of a tile multiplied favour one. The look is the candidate's finder score.
    maybe = []
    for (a, slot), slot_probs, no_tile in zip(slots, probs, no_tiles):
        reading = reading_of(np.asarray(slot_probs, np.float32), float(no_tile), slot,
                             geometry.face_up_of(readings[a].orientation), False,
                             position=float(slot.mean(axis=0) @ frame_right), finder_score=0.0,
                             frame_up=readings[a].frame_up)
        if reading.code != BACK and (no_tile < OPEN_AT or reading.code == BLANK):
            maybe.append(reading)
    looks = slot_looks.tile_probabilities(photo, np.stack([r.box for r in readings]), [r.box for r in maybe])
    return [replace(r, finder_score=float(look)) for r, look in zip(maybe, looks)
            if look > (OPEN_AT if r.code == BLANK else r.no_tile)]
