"""Which boxes are the player's hand, and the backs of a concealed kong the finder missed.

1. ``without_duplicates``: of two boxes on one tile, the surer reading's stays (such pairs found
   later, and boxes whose centres lie too close for two tiles, ``on_one_tile``, the reading
   search keeps one of at most).
2. ``slivers``: boxes both small and doubtful, set aside before the hand is picked.
3. ``in_hand``: the rows of touching tiles nearest the camera are the hand (``hand_links``);
   other tiles the photo shows (walls, discards, other hands) stay apart (``hand_and_apart``).
4. ``probe_backs``: beside two equal faces the slots of a concealed kong's backs are classified.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from fanscan.scoring.tiles import BACK, CLASS_LABELS
from fanscan.vision import flower_set, hand_links
from fanscan.vision.detections import TileReading
from fanscan.vision.evidence import box_features, load_evidence
from fanscan.vision.image_io import Photo
from fanscan.vision.locate import CROP_MIN_SIDE, short_sides
from fanscan.vision.numeric import median, overlapping_pairs, quad_areas, quad_iou
from fanscan.vision.tile_reading import CROP_H, CROP_W

BACK_PROBE_ALONE = 0.8
"""Both slots beside two equal faces are taken as a concealed kong's missed backs only when each
reads as a back with this probability (0.5 when the finder found one of the two)."""
STRAY_CLUSTER = 2
"""A cluster of tiles (``hand_links.linked_clusters``) apart from the hand's with at most this many tiles
holds only flowers."""
SLIVER_AREA = 0.5
"""A box under this share of the median box's area..."""
SLIVER_CONFIDENCE = 0.9
"""...read with less confidence than this is a sliver, not a tile (``slivers``). With
refined boxes, of 7,833 boxes on true tiles of 500 generated scenes none is under 0.56 of the
median area, while 8 of the 19 boxes on no tile are, read at 0.6-0.95. On the real table photos
the rule pays a little: with no box set aside, 11 labelled tiles fewer are found on folds 0-3 and
2 fewer on the held-out fold 4 (``docs/benchmarks.md``, session 42)."""
DUPLICATE_IOU = 0.35
"""Two boxes overlapping more than this (intersection over union) hold one tile, and the less
confident reading goes (``without_duplicates``). On the real table photos the choice is flat
between 0.2 and 0.5: read with 0.15, 0.2, 0.25, 0.35 and 0.5, the fitting folds 0-3 had
5,080, 5,085, 5,086, 5,074 and 5,067 of 5,571 labelled tiles right, the held-out fold 4 1,413
(0.25), 1,423 (0.35) and 1,421 (0.5) of 1,528 (``docs/benchmarks.md``, session 43). Kept above
the overlap of true neighbours' refined boxes, which on generated scenes reach 0.23 (a box across
two tiles and a true one 0.30; duplicates seen there overlapped 0.38-0.78)."""
ONE_TILE_CENTRES = 0.6
"""Two overlapping boxes whose centres lie closer than this many short sides of the typical box
(the median of the boxes searched) are on one tile, whatever their overlap: two tiles side by side
have their centres about a tile's width apart, and a box across two tiles, or one of a tile's two
halves boxed apart, sits under half a width from a tile's centre. Measured on the reading search's
boxes of rf-chinese folds 0-3 (the labeller's own boxes, ``docs/benchmarks.md``, session 72): of
120 overlapping pairs on two labelled tiles none lay closer than 0.64 short sides; 56 other
overlapping pairs did, and the hand kept both boxes of 7 of them (a fourth 8m or 9s
making a false kong). The held-out fold 4's 18 pairs on two tiles lay 1.0 or more apart."""
_BACK_INDEX = CLASS_LABELS.index(BACK)
_FLOWER_CODES = frozenset(CLASS_LABELS[CLASS_LABELS.index("1f") : CLASS_LABELS.index("8f") + 1])


def _may_match(a: TileReading, b: TileReading) -> bool:
    """Whether two tiles may show the same face (not a flower): read alike, or one's reading
    among the other's guesses (a kong's face misread; the search may then mend it)."""
    if a.code == b.code:
        return a.code not in _FLOWER_CODES
    guesses_a = {c for c, _ in a.candidates} | {a.code}
    guesses_b = {c for c, _ in b.candidates} | {b.code}
    return bool((guesses_a & guesses_b) - _FLOWER_CODES - {BACK})


def probe_backs(
    photo: Photo,
    readings: list[TileReading],
    rows: list[list[list[int]]],
    right: np.ndarray,
    classifier: Any,
) -> list[TileReading]:
    """Face-down tiles the finder missed at the ends of a concealed kong's two faces.

    A concealed kong is laid back, face, face, back. For two neighbouring faces in a row that
    may be equal (``_may_match``), the slot one tile beyond each end must hold a back or be empty
    (dark backs on dark tables are the finder's commonest miss: half of the backs of scenes
    1000-1059). Each empty slot is cut out and classified; when then both ends are backs, the
    new ones are added. With no back found there at all, both must read as backs surely.
    """
    if len(readings) < 2:
        return readings
    centres = np.array([r.box.mean(axis=0) for r in readings])
    scale = photo.scale_for(np.stack([r.box for r in readings]), CROP_MIN_SIDE)
    added: list[TileReading] = []
    taken: list[np.ndarray] = []  # centres of slots already filled
    for row in rows:
        tiles = sorted((i for group in row for i in group), key=lambda i: readings[i].position)
        for a, b in zip(tiles, tiles[1:]):
            if BACK in (readings[a].code, readings[b].code) or not _may_match(readings[a], readings[b]):
                continue
            pitch = centres[b] - centres[a]
            width = (np.linalg.norm(readings[a].box[1] - readings[a].box[0])
                     + np.linalg.norm(readings[b].box[1] - readings[b].box[0])) / 2
            if np.linalg.norm(pitch) > 1.5 * width:
                continue  # not neighbours
            empty, backs_there = [], 0
            for slot in (readings[a].box - pitch, readings[b].box + pitch):
                distance = np.linalg.norm(centres - slot.mean(axis=0), axis=1)
                near = int(np.argmin(distance))
                if distance[near] < 0.6 * np.linalg.norm(pitch):
                    backs_there += readings[near].code == BACK
                elif not any(np.linalg.norm(c - slot.mean(axis=0)) < 0.6 * np.linalg.norm(pitch) for c in taken):
                    empty.append(slot)
            if not empty or backs_there + len(empty) != 2:
                continue
            probs = np.asarray(classifier.probabilities([photo.crop_quad(s, CROP_W, CROP_H, scale) for s in empty]))
            if (probs[:, _BACK_INDEX] >= (BACK_PROBE_ALONE if backs_there == 0 else 0.5)).all():
                for slot, row_probs in zip(empty, probs):
                    p = float(row_probs[_BACK_INDEX])
                    taken.append(slot.mean(axis=0))
                    added.append(TileReading(BACK, p, slot.astype(np.float32),
                                             readings[a].orientation, False,
                                             float(slot.mean(axis=0) @ right),
                                             probs=np.asarray(row_probs, np.float32), finder_score=p))
    return readings + added


def without_duplicates(readings: list[TileReading]) -> list[TileReading]:
    """The readings less the less confident of each two boxes overlapping more than
    ``DUPLICATE_IOU``: the finder and the refiner sometimes put a second box on a tile, shifted."""
    overlapping: dict[int, set[int]] = {}
    pairs = overlapping_pairs(np.stack([r.box for r in readings]), DUPLICATE_IOU) if len(readings) > 1 else []
    for i, j in pairs:
        overlapping.setdefault(i, set()).add(j)
        overlapping.setdefault(j, set()).add(i)
    kept: set[int] = set()
    for i in sorted(range(len(readings)), key=lambda i: -readings[i].confidence):
        if not overlapping.get(i, set()) & kept:
            kept.add(i)
    return [readings[i] for i in sorted(kept)]


def on_one_tile(readings: list[TileReading]) -> list[tuple[int, int]]:
    """The pairs of boxes (i < j) on one tile, of which the search keeps one at most: those
    overlapping more than ``DUPLICATE_IOU`` (found after the duplicates went, a gap's probe cut
    where a box first read as no tile lies, that box then read again as a tile in the hand's
    frame), and those overlapping at all whose centres lie closer than ``ONE_TILE_CENTRES``
    (a box across two tiles, or two halves of one tile)."""
    if len(readings) < 2:
        return []
    quads = np.stack([np.asarray(r.box, np.float64) for r in readings])
    pairs = set(overlapping_pairs(quads, DUPLICATE_IOU)) | set(_close_centres(quads))
    return sorted(pairs)


def _close_centres(quads: np.ndarray) -> list[tuple[int, int]]:
    """The pairs (i < j) of overlapping quads whose centres lie closer than ``ONE_TILE_CENTRES``
    short sides of the median quad."""
    centres = quads.mean(axis=1)
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    close = np.argwhere(np.triu(apart < ONE_TILE_CENTRES * median(short_sides(quads).tolist()), 1))
    return [(int(i), int(j)) for i, j in close if quad_iou(quads[i], quads[j]) > 0]


def kept_twin(pairs: list[tuple[int, int]], box: int, kept: set[int]) -> int | None:
    """The box among ``kept`` that ``pairs`` (``on_one_tile``) put on the same tile as ``box``."""
    for a, b in pairs:
        other = b if a == box else a if b == box else None
        if other is not None and other in kept:
            return other
    return None


def slivers(readings: list[TileReading], image_size: tuple[int, int] | None = None) -> set[int]:
    """The boxes both small (under ``SLIVER_AREA`` of the median box) and read with little
    confidence (under ``SLIVER_CONFIDENCE``): no tile. Such is a sliver of a tile's side seen at a slant
    between two groups: kept, it may be taken for a flower to complete the hand. A box read as
    a flower likelier than not (``likely_flowers``, in a photo of ``image_size``: the test a
    flower apart joins the hand by) is none: a flower lying flat beyond a hand standing on edge
    is small beside the standing faces, and read at 0.7-0.9; the slivers taken for flowers on
    cluttered tables are read at 0.1-0.4."""
    if len(readings) < 5:
        return set()
    areas = quad_areas(np.stack([r.box for r in readings]))
    typical = median(areas.tolist())
    small = {i for i, (r, area) in enumerate(zip(readings, areas))
             if area < SLIVER_AREA * typical and r.confidence < SLIVER_CONFIDENCE}
    if small and image_size is not None:
        small -= set(np.flatnonzero(likely_flowers(readings, image_size)).tolist())
    return small


def likely_flowers(readings: list[TileReading], image_size: tuple[int, int]) -> np.ndarray:
    """Which readings are likelier than not a tile bearing the flower read: the flower's
    probability times the box's probability of holding a tile (the reading search's fitted
    ``evidence`` among all the photo's boxes, given the photo's ``image_size``)."""
    flower = np.array([r.code in _FLOWER_CODES for r in readings], bool)
    if not flower.any():
        return flower
    p_tile = load_evidence().tiles.tile_probability(box_features(readings, image_size))
    return flower & (np.array([r.confidence for r in readings]) * p_tile > 0.5)


def in_hand(readings: list[TileReading], up: np.ndarray, image_size: tuple[int, int] | None = None) -> list[bool]:
    """Which readings are the player's hand, the rest being other tiles the photo shows.

    The tiles are joined into clusters by the links the fitted model finds likelier than not
    (``hand_links``: a hand's rows and the melds beside them, not the discards, walls and other
    players' tiles a tile's length or two away). A cluster of more than ``STRAY_CLUSTER`` tiles
    can hold a set; of those, the hand is the one the fitted choice scores first (the rows of
    touching tiles nearest the camera: low in the photo along the hand's ``up``, large, in
    lines). A smaller cluster is no hand's part (a meld has three tiles; the winning tile stands
    within reach) except for its flowers, which a player lays aside: they join the hand when
    likelier than not a tile bearing that flower (the flower's probability times the box's
    probability of holding a tile, the reading search's fitted ``evidence`` among all the
    photo's boxes, given the photo's ``image_size``: a discard cut by the photo's edge read as a
    flower at 51 % is none of the hand's; a box taken for a flower at 6-33 %, a sleeve or a
    rack's corner, was never one: 25 such joined the hands of the real fitting photos, no true
    flower) and the tile nearest them outside their own cluster is the hand's (a discard read as
    a flower among the discards and walls is theirs, however near the hand's cluster comes).
    When no cluster can hold a set the largest is the hand; with under five tiles every tile is."""
    if len(readings) < 5:
        return [True] * len(readings)
    made = hand_links.clusters(readings, up, STRAY_CLUSTER)
    cluster, sizes, big = made.cluster, made.sizes, made.candidates
    centres = made.links.frames.centre
    hand = hand_links.choose(readings, made, up) if big else int(cluster[np.argmax(sizes)])

    def nearest_cluster(i: int) -> int:
        """The cluster of the tile nearest tile ``i`` outside its own cluster."""
        others = np.flatnonzero(cluster != cluster[i])
        return int(cluster[others[np.argmin(np.linalg.norm(centres[others] - centres[i], axis=1))]])

    strays = {i for i, r in enumerate(readings) if sizes[i] <= STRAY_CLUSTER and r.code in _FLOWER_CODES}
    flowers = (likely_flowers(readings, image_size) if strays and image_size is not None
               else np.array([r.confidence > 0.5 for r in readings]))
    return [bool(c == hand or (i in strays and flowers[i] and nearest_cluster(i) == hand))
            for i, c in enumerate(cluster)]


def hand_and_apart(readings: list[TileReading], up: np.ndarray, image_size: tuple[int, int] | None = None,
                   ) -> tuple[list[TileReading], list[TileReading]]:
    """The readings of the hand (``in_hand``, in a photo of ``image_size``), and those of the tiles
    the photo shows apart from it (slivers among them: set aside before the hand is picked); its
    flowers first made one set's."""
    readings = flower_set.one_of_each_flower(readings)
    sliver = slivers(readings, image_size)
    whole = [i for i in range(len(readings)) if i not in sliver]
    kept = dict(zip(whole, in_hand([readings[i] for i in whole], up, image_size)))
    return ([r for i, r in enumerate(readings) if kept.get(i, False)],
            [r for i, r in enumerate(readings) if not kept.get(i, False)])


_PHOTO_UP = np.array([0.0, -1.0])


def without_strays(readings: list[TileReading], up: np.ndarray = _PHOTO_UP) -> list[TileReading]:
    """The readings of the hand alone (``in_hand``; by default "up" is up the photo)."""
    return [r for r, kept in zip(readings, in_hand(readings, up)) if kept]
