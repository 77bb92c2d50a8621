"""The photo reader: a phone photo of a declared hand in, the hand JSON (as far as it shows) out.

Stages (each a module of its own): ``image_io`` opens the photo (EXIF orientation, pixel limit) and
decodes it at a reduced scale; ``locate`` runs the ``finder`` on that small copy for every tile's
top face, then again on the hand's region at the scale the finder knows best, and ``refine`` moves
each box onto its face's corners; the player's hand is told from the other tiles the photo shows
(``_in_hand``: the rows of touching tiles nearest the camera; the others are kept, marked not in
the hand, and read no further than their own faces); ``layout.hand_frame`` works out which way the
rows run and which tiles lie sideways; each face is cut from the smallest decode that still shows
it in detail (``Photo.crop_quad``, perspective corrected, upright), white-balanced on the tile
bodies and classified (a doubtful crop also turned 180 degrees, inside the classifier), possible
flowers given a second look by the flower specialist and at their printed number (``flowers``, on
the same crops); sideways tiles are tried turned both ways, and when the tiles read poorly the
whole hand is tried upside down, then a quarter turn either way; beside two equal faces standing
apart the slots of a concealed kong's backs are classified too; ``layout.analyse`` makes groups,
melds, the winning tile and the doubts, ``consistency`` makes the tiles agree with a possible hand;
``annotate`` draws the result.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from fanscan.scoring.hand import Hand, Meld
from fanscan.scoring.tiles import BACK, CLASS_LABELS, TILE_BY_CODE
from fanscan.vision import annotate, consistency, finder, flowers, layout, white_balance
from fanscan.vision.detections import HandLayout, TileDetections, TileReading
from fanscan.vision.flowers import FlowerLooks
from fanscan.vision.image_io import Photo, load_photo
from fanscan.vision.locate import CROP_MIN_SIDE, find_scale, locate
from fanscan.vision.numeric import median, quad_areas, quad_iou

from fanscan.atomic import atomic_path
from fanscan.errors import FanscanError

CROP_W, CROP_H = 96, 128
BACK_PROBE_ALONE = 0.8
"""Both slots beside two equal faces are taken as a concealed kong's missed backs only when each
reads as a back with this probability (0.5 when the finder found one of the two)."""
FACE_OVER_BACK = 0.75
"""A box the finder marks face-down is taken as a back unless the classifier reads a face there
with at least this probability. In scenes 1000-1699 no true back read as a face other than P
above 0.38; faces marked face-down read 0.99 (a face beside a concealed kong's back, scene 7026)
and 0.85 (a flower with a round yellow-green picture, scene 7057). A white dragon
never overrules the mark: a plain face is what a back is most often taken for
(of the face-down boxes read as a face above 0.1 there, 5 of 7 read P)."""
STRAY_DISTANCE = 3.5
"""Tiles whose centres lie within this many tile lengths belong to one cluster..."""
STRAY_CLUSTER = 2
"""...and a cluster apart from the hand's with at most this many tiles holds only flowers."""
FLOWER_AT_LEAST = 0.5
"""See ``_likeliest``. On held-out real crops (fold models) and crops of held-out scenes: 1,316 of
1,352 and 1,505 of 1,553 right with no such floor (0), 1,316 and 1,508 with 0.5, 1,315 and 1,511
without the rule."""
CANDIDATES = 3
"""Each tile keeps this many of the classifier's guesses, for ``consistency`` to choose from."""
FAR_GUESS_MIN = 0.001
"""...and, as far guesses for completing a hand, the other faces at least this likely."""
RECUT_BELOW = 0.6
"""A tile read with less confidence than this is cut again a little moved and scaled
(``_recut_doubtful``), the looks averaged. Scenes: 452 -> 457 of 500 hands exact (6 mended, one
flower's coin toss lost); 0.9 instead mended the same hands."""
RECUT_SHIFT = 0.06
"""...moved by this share of its width and of its height, each way..."""
RECUT_SCALES = (1.08, 0.93)
"""...and scaled about its centre by each of these."""
FLOWER_TIGHT_SCALES = (0.85, 0.78)
"""A possible flower's box is also cut scaled about its centre by each of these, for the flower
specialist only (``flowers.FlowerLooks``): a box that takes in the tile's side or a neighbour
misleads it, and on small gnome tiles the tight cut read right where the box's did not. True
flowers read right of 2,321 (scenes 0-499, 7000-7499, 9000-9999): 2,294 -> 2,298, none lost."""
SLIVER_AREA = 0.5
"""A box under this share of the median box's area..."""
SLIVER_CONFIDENCE = 0.9
"""...read with less confidence than this is a sliver, not a tile (``_without_slivers``). With
refined boxes, of 7,833 boxes on true tiles of scenes 0-499 none is under 0.56 of the median
area, while 8 of the 19 boxes on no tile are, read at 0.6-0.95 (0.7 had kept two that cost a
hand each)."""
DUPLICATE_IOU = 0.35
"""Two boxes overlapping more than this (intersection over union) hold one tile, and the less
confident reading goes (``_without_duplicates``): refined boxes of true neighbours overlap up to
0.23, a box across two tiles and a true one 0.30 (scenes 0-499); the duplicates seen overlapped
0.38-0.78 (three in scenes 1000-1299; two in 2000-2499, each read as a flower, a flower too many)."""
CAST_IGNORED = 0.05
"""A colour cast whose gains all lie within this of 1 (in log) is left alone."""
DIM_BELOW = 0.7
"""Crops whose tile bodies are less bright than this share of the ivory the classifier learnt
are brightened (to ``BRIGHTENED_TO`` of it, by at most ``MAX_BRIGHTEN`` times): it misread
numerals in dim crops (1m as 8m, 9m as 5m) that it reads right brightened."""
BRIGHTENED_TO = 0.95
MAX_BRIGHTEN = 3.0
FLIP_BELOW = 0.75
"""When the upright tiles' mean confidence is below this, the hand is also tried upside down; when
all tiles' still is, the two frames a quarter turn away are read too."""
_BACK_INDEX = CLASS_LABELS.index(BACK)
_FLOWER_SLICE = slice(CLASS_LABELS.index("1f"), CLASS_LABELS.index("8f") + 1)
_FLOWER_CODES = frozenset(CLASS_LABELS[_FLOWER_SLICE])


@dataclass(frozen=True)
class FoundTile:
    """One tile as the reader reports it: ``box`` corners are the face's TL, TR, BR, BL in pixels
    of the upright photo; ``orientation`` is the face's counter-clockwise turn in degrees."""

    code: str
    confidence: float
    box: tuple[tuple[float, float], ...]
    orientation: float
    group: int
    in_hand: bool = True
    """False for a tile the photo shows that is no part of the hand (another group of tiles far
    from it: a wall, discards, another player's tiles), and for the boxes in ``left_out``."""

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "confidence": round(self.confidence, 3),
            "box": [[round(x, 1), round(y, 1)] for x, y in self.box],
            "orientation": round(self.orientation),
            "group": self.group,
            "in_hand": self.in_hand,
        }


@dataclass(frozen=True)
class PhotoReading:
    """What a photo shows: tiles, the hand, other plausible readings and doubts.

    ``hand`` (and each alternative's) is the scoring core's ``Hand`` as far as the photo shows it,
    with the default win conditions; it is not checked, so ``score(reading.hand)`` answers a hand
    the photo shows wrongly (a tile missing, say) with a result that says why. ``to_json`` writes
    it as the contract's hand JSON.
    """

    tiles: list[FoundTile]
    hand: Hand
    alternatives: list[tuple[str, Hand]]
    doubts: list[str]
    image_size: tuple[int, int]
    groups: list[dict] = field(default_factory=list)
    left_out: list[FoundTile] = field(default_factory=list)
    """Boxes the finder drew that the reader took for no tile (``consistency.without_phantoms``)."""
    _photo: Photo | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The contract's ``read`` object, plus groups, alternatives and the image size."""
        return {
            "tiles": [t.to_json() for t in self.tiles],
            "hand": self.hand.to_json(),
            "doubts": list(self.doubts),
            "groups": self.groups,
            "alternatives": [{"description": d, "hand": h.to_json()} for d, h in self.alternatives],
            "image_size": list(self.image_size),
            "left_out": [t.to_json() for t in self.left_out],
        }

    def annotated(self, max_side: int = 2000, banner: str | None = None) -> np.ndarray:
        """The photo (long side at most about ``max_side``) with tiles, groups and doubts drawn,
        and ``banner`` (say, the total) in its top-left corner."""
        if self._photo is None:
            raise ValueError("this reading holds no photo to draw on")
        scale = 1
        while scale < 8 and max(self.image_size) / (scale * 2) >= max_side:
            scale *= 2
        image = self._photo.decode(scale)
        factor = image.shape[1] / self.image_size[0]
        groups = [(g["role"], g["tiles"]) for g in self.groups]
        apart = [i for i, t in enumerate(self.tiles) if not t.in_hand]
        if apart:
            clusters = _clusters([np.array(self.tiles[i].box) for i in apart])
            groups += [(annotate.NOT_IN_HAND, [i for i, c in zip(apart, clusters) if c == first])
                       for first in dict.fromkeys(clusters)]
        return annotate.draw(
            image,
            [np.array(t.box) for t in self.tiles],
            [t.code for t in self.tiles],
            [t.confidence for t in self.tiles],
            groups,
            factor,
            [np.array(t.box) for t in self.left_out],
            banner,
        )

    def save_annotated(self, path: str | os.PathLike[str], banner: str | None = None) -> None:
        """Write the annotated photo (JPEG or PNG by extension) atomically."""
        _write_image(Path(path), self.annotated(banner=banner))


def hand_of_layout(obj: dict[str, Any]) -> Hand:
    """The ``Hand`` of a layout's hand dict, unchecked: the tile count may be off, and a hand read
    from tiles not meant as one (``one_hand=False``) may hold a tile more than four times."""
    return Hand(
        tuple(TILE_BY_CODE[code] for code in obj["concealed"]),
        tuple(Meld.from_json(meld, number) for number, meld in enumerate(obj["melds"], 1)),
        TILE_BY_CODE[obj["win_tile"]] if obj["win_tile"] else None,
        tuple(TILE_BY_CODE[code] for code in obj["flowers"]),
    )


def _write_image(path: Path, image: np.ndarray) -> None:
    if path.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        raise FanscanError("bad_path", f"{path} should end in .jpg or .png")
    with atomic_path(path) as temp:
        if not cv2.imwrite(str(temp), image):
            raise FanscanError("unwritable", f"cannot write {path}")


def _cast_table(crops: list[np.ndarray]) -> np.ndarray | None:
    """A lookup table that takes the light's colour cast out of the crops (``white_balance``,
    judged on every 16th pixel of each crop) and, when their bodies are dim (``DIM_BELOW``),
    brightens them too; None when the cast is slight and the light enough. Measured (15-30 scenes
    each, hands read exactly): a tungsten cast 9 -> 11 of 30, a cool one 27 -> 28, unchanged
    without a cast (171 of 200); a dim room (session 13) 35 -> 39 of 40."""
    level = white_balance.body_level([c[::4, ::4] for c in crops])
    if level is None:
        return None
    gains = white_balance.cast_gains(level)
    light = white_balance.brightness(level)
    if light < DIM_BELOW:
        gains = gains * min(BRIGHTENED_TO / light, MAX_BRIGHTEN)
    elif white_balance.cast_strength(gains) < CAST_IGNORED:
        return None
    return white_balance.lookup_table(gains)


def _balanced(crops: list[np.ndarray], table: np.ndarray | None) -> list[np.ndarray]:
    return crops if table is None else [cv2.LUT(c, table) for c in crops]


def _recuts(box: np.ndarray) -> list[np.ndarray]:
    """The box moved by ``RECUT_SHIFT`` of its width or height each way, and scaled by each of
    ``RECUT_SCALES`` about its centre."""
    centre = box.mean(axis=0)
    along = (box[1] - box[0] + box[2] - box[3]) / 2
    across = (box[3] - box[0] + box[2] - box[1]) / 2
    moved = [box + sign * RECUT_SHIFT * axis for axis in (along, across) for sign in (1, -1)]
    return [*moved, *(centre + (box - centre) * factor for factor in RECUT_SCALES)]


def _recut_doubtful(photo: Photo, probs: np.ndarray, boxes: list[np.ndarray], cast: np.ndarray | None,
                    scale: int, classifier: Any) -> tuple[np.ndarray, dict[int, list[np.ndarray]]]:
    """Probabilities with each doubtful tile's (best under ``RECUT_BELOW``) the mean of its look
    and those at its ``_recuts`` (balanced with the crops' ``cast`` table), and those tiles' new
    cuts (as cut, before the balance): on small
    tiles the finder's box can be off by a fifth of a tile's width at a corner, and a cut a
    little off reads differently."""
    doubtful = [i for i, p in enumerate(probs) if float(p.max()) < RECUT_BELOW]
    if not doubtful:
        return probs, {}
    cuts = [photo.crop_quad(moved.astype(np.float32), CROP_W, CROP_H, scale)
            for i in doubtful for moved in _recuts(np.asarray(boxes[i], np.float32))]
    looks = np.asarray(classifier.probabilities(_balanced(cuts, cast)), np.float32)
    per_tile = len(cuts) // len(doubtful)
    looks = looks.reshape(len(doubtful), per_tile, probs.shape[1])
    out = probs.copy()
    for k, i in enumerate(doubtful):
        out[i] = (probs[i] + looks[k].sum(axis=0)) / (1 + per_tile)
    return out, {i: cuts[k * per_tile : (k + 1) * per_tile] for k, i in enumerate(doubtful)}


def _likeliest(probs: np.ndarray) -> int:
    """The class index a tile is read as.

    The eight flowers look alike at a glance: when together they outweigh the best other face,
    the tile is a flower (the likeliest one) even if no single flower wins, provided that flower
    has at least ``FLOWER_AT_LEAST`` of the other face's probability (a faint spread over all
    eight is no flower: a 7m read 7f at 5 % against 2m at 17 % was one).
    """
    flowers = probs[_FLOWER_SLICE]
    other = float(np.delete(probs, np.r_[_FLOWER_SLICE]).max())
    if float(flowers.sum()) > other and float(flowers.max()) >= FLOWER_AT_LEAST * other:
        return _FLOWER_SLICE.start + int(np.argmax(flowers))
    return int(np.argmax(probs))


def _candidates(probs: np.ndarray, code: str, confidence: float) -> tuple[tuple[str, float], ...]:
    """The reading and its ``CANDIDATES - 1`` likeliest other guesses. A flower's guesses always
    hold the likeliest face that is no flower: the other flowers would crowd it out, and a suit
    tile taken for a flower is a common misreading that completing the hand can undo."""
    others = [j for j in np.argsort(-probs) if CLASS_LABELS[j] != code][: CANDIDATES - 1]
    if code in _FLOWER_CODES and all(CLASS_LABELS[j] in _FLOWER_CODES for j in others):
        best_other = max((j for j in range(len(probs)) if CLASS_LABELS[j] not in _FLOWER_CODES),
                         key=lambda j: probs[j])
        others[-1] = best_other
    return ((code, confidence), *((CLASS_LABELS[j], float(probs[j])) for j in others))


def _far_guesses(probs: np.ndarray, near: set[str]) -> tuple[tuple[str, float], ...]:
    """Faces beyond the near guesses with at least ``FAR_GUESS_MIN`` probability, likeliest first."""
    order = np.argsort(-probs)
    return tuple((CLASS_LABELS[j], float(probs[j])) for j in order
                 if probs[j] >= FAR_GUESS_MIN and CLASS_LABELS[j] not in near)


def _read_tiles(
    photo: Photo, detections: TileDetections, classifier: Any, flower_looks: FlowerLooks | None = None
) -> tuple[list[TileReading], np.ndarray, np.ndarray]:
    """Classify every detection in its best orientation; returns the readings and the hand frame."""
    right, up = layout.hand_frame(detections.quads)
    scale = photo.scale_for(detections.quads, CROP_MIN_SIDE)
    sideways = layout.sideways_flags(detections.quads, right, up)

    def options(hand_up: np.ndarray, hand_right: np.ndarray) -> list[list[np.ndarray]]:
        return [[-hand_right, hand_right] if side else [hand_up] for side in sideways]

    def best(choices: list[list[np.ndarray]],
             ) -> tuple[list[int], np.ndarray, list[np.ndarray], list[np.ndarray], np.ndarray | None]:
        """Each tile's chosen way up, its probabilities, box and crop (as cut, before the balance),
        and the crops' colour-cast table."""
        boxes = [layout.orient_box(q, w) for q, ws in zip(detections.quads, choices) for w in ws]
        crops = [photo.crop_quad(b, CROP_W, CROP_H, scale) for b in boxes]
        cast = _cast_table(crops)
        probs = np.asarray(classifier.probabilities(_balanced(crops, cast)), np.float32)
        picks, rows, chosen = [], [], []
        k = 0
        for ws in choices:
            block = probs[k : k + len(ws)]
            j = int(np.argmax(block.max(axis=1)))
            picks.append(j)
            rows.append(block[j])
            chosen.append(k + j)
            k += len(ws)
        return picks, np.array(rows), [boxes[c] for c in chosen], [crops[c] for c in chosen], cast

    choices = options(up, right)
    picks, probs, boxes, crops, cast = best(choices)
    upright = [i for i, side in enumerate(sideways) if not side]
    if upright and float(probs[upright].max(axis=1).mean()) < FLIP_BELOW:
        flipped = options(-up, -right)
        f_picks, f_probs, f_boxes, f_crops, f_cast = best(flipped)
        if float(f_probs[upright].max(axis=1).mean()) > float(probs[upright].max(axis=1).mean()):
            choices, picks, probs, boxes, crops, cast = flipped, f_picks, f_probs, f_boxes, f_crops, f_cast
            right, up = -right, -up
    if float(probs.max(axis=1).mean()) < FLIP_BELOW:
        # Still read poorly: the rows may run the other way (a grid of faces, whose nearest
        # neighbours lie across the rows; a photo whose EXIF turn was lost). Each quarter-turned
        # frame is read whole, its own sideways tiles tried both ways, and the likeliest kept.
        for turned_up in (right, -right):
            turned_right = np.array([-turned_up[1], turned_up[0]])
            turned_sideways = layout.sideways_flags(detections.quads, turned_right, turned_up)
            turned = [[-turned_right, turned_right] if side else [turned_up] for side in turned_sideways]
            t_picks, t_probs, t_boxes, t_crops, t_cast = best(turned)
            if float(t_probs.max(axis=1).mean()) > float(probs.max(axis=1).mean()):
                choices, picks, probs, boxes, crops, cast = turned, t_picks, t_probs, t_boxes, t_crops, t_cast
                right, up, sideways = turned_right, turned_up, turned_sideways

    probs, recut = _recut_doubtful(photo, probs, boxes, cast, scale, classifier)
    if flower_looks is not None:
        def cuts_of(i: int) -> list[np.ndarray]:
            centre = boxes[i].mean(axis=0)
            tight = [(centre + (boxes[i] - centre) * factor).astype(np.float32) for factor in FLOWER_TIGHT_SCALES]
            return [crops[i], *recut.get(i, []), *(photo.crop_quad(b, CROP_W, CROP_H, scale) for b in tight)]

        probs = flower_looks.reweigh(probs, CLASS_LABELS, cuts_of)
    readings = []
    for i, quad in enumerate(detections.quads):
        face_up = choices[i][picks[i]]
        index = _likeliest(probs[i])
        code, confidence = CLASS_LABELS[index], float(probs[i][index])
        if detections.backs[i] and code != BACK and (confidence < FACE_OVER_BACK or code == "P"):
            code, confidence = BACK, max(float(detections.scores[i]), float(probs[i][_BACK_INDEX]))
        readings.append(
            TileReading(
                code=code,
                confidence=confidence,
                box=boxes[i],
                orientation=layout.orientation_degrees(face_up),
                sideways=sideways[i],
                position=float(quad.mean(axis=0) @ right),
                candidates=(near := _candidates(probs[i], code, confidence)),
                far_guesses=_far_guesses(probs[i], {c for c, _ in near}),
            )
        )
    return readings, right, up


def _may_match(a: TileReading, b: TileReading) -> bool:
    """Whether two tiles may show the same face (not a flower): read alike, or one's reading
    among the other's guesses (a kong's face misread; ``consistency`` may then repair it)."""
    if a.code == b.code:
        return a.code not in _FLOWER_CODES
    guesses_a = {c for c, _ in a.candidates} | {a.code}
    guesses_b = {c for c, _ in b.candidates} | {b.code}
    return bool((guesses_a & guesses_b) - _FLOWER_CODES - {BACK})


def _probe_backs(
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
                for slot, p in zip(empty, probs[:, _BACK_INDEX]):
                    taken.append(slot.mean(axis=0))
                    added.append(TileReading(BACK, float(p), slot.astype(np.float32),
                                             readings[a].orientation, False,
                                             float(slot.mean(axis=0) @ right)))
    return readings + added


def _without_duplicates(readings: list[TileReading]) -> list[TileReading]:
    """The readings less the less confident of each two boxes overlapping more than
    ``DUPLICATE_IOU``: the finder and the refiner sometimes put a second box on a tile, shifted."""
    if len(readings) < 2:
        return readings
    boxes = np.stack([r.box for r in readings]).astype(np.float64)
    centres = boxes.mean(axis=1)
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    reach = np.linalg.norm(boxes[:, 0] - boxes[:, 2], axis=1)
    near = (apart < reach[:, None]).tolist()  # only boxes this close can overlap
    order = sorted(range(len(readings)), key=lambda i: -readings[i].confidence)
    kept: list[int] = []
    for i in order:
        if not any(near[i][k] and quad_iou(readings[i].box, readings[k].box) > DUPLICATE_IOU for k in kept):
            kept.append(i)
    return [readings[i] for i in sorted(kept)]


def _slivers(readings: list[TileReading]) -> set[int]:
    """The boxes both small (under ``SLIVER_AREA`` of the median box) and read with little
    confidence (under ``SLIVER_CONFIDENCE``): no tile. A sliver of a tile's side seen at a slant
    between two groups, at 0.37 of the median area and read as 1m at 60 %, then taken as a flower
    to complete the hand, was one (scenes 457 -> 458 of 500)."""
    if len(readings) < 5:
        return set()
    areas = quad_areas(np.stack([r.box for r in readings]))
    typical = median(areas.tolist())
    return {i for i, (r, area) in enumerate(zip(readings, areas))
            if area < SLIVER_AREA * typical and r.confidence < SLIVER_CONFIDENCE}


def _without_slivers(readings: list[TileReading]) -> list[TileReading]:
    """The readings less their ``_slivers``."""
    slivers = _slivers(readings)
    return [r for i, r in enumerate(readings) if i not in slivers]


def _clusters(boxes: list[np.ndarray]) -> list[int]:
    """Each box's cluster (the index of its cluster's first box): boxes whose centres lie within
    ``STRAY_DISTANCE`` tile lengths (the median box's long side) are linked, and linked boxes are
    one cluster. A hand's rows and groups lie closer than that; another player's tiles, a wall or
    the discards lie further off."""
    centres = np.array([b.mean(axis=0) for b in boxes])
    long_side = median([max(np.linalg.norm(b[1] - b[0]), np.linalg.norm(b[2] - b[1])) for b in boxes])
    near = np.linalg.norm(centres[:, None] - centres[None], axis=2) <= STRAY_DISTANCE * long_side
    cluster = -np.ones(len(boxes), int)
    for start in range(len(boxes)):
        if cluster[start] >= 0:
            continue
        cluster[start], todo = start, [start]
        while todo:
            i = todo.pop()
            for j in np.nonzero(near[i] & (cluster < 0))[0]:
                cluster[j] = start
                todo.append(int(j))
    return cluster.tolist()


def _in_hand(readings: list[TileReading], up: np.ndarray) -> list[bool]:
    """Which readings are the player's hand, the rest being other tiles the photo shows.

    The tiles are linked into clusters (``_clusters``). A cluster of more than ``STRAY_CLUSTER``
    tiles can hold a set; of those, the hand is the one nearest the camera: the player photographs
    the hand in front of them, so it lies lowest in the photo along the hand's ``up`` (its lowest
    tile lowest), and walls, discards and the other players' tiles lie beyond it. A smaller cluster
    is no hand's part (a meld has three tiles; the winning tile stands within reach) except for its
    flowers, which a player lays aside: they join the hand when no other cluster that can hold a
    set lies nearer them. Boxes of table pattern far from the hand read as blank white dragons:
    on scenes 0-499 five hands had such phantoms, one of them three. When no cluster can hold a
    set the largest is the hand; with under five tiles every tile is."""
    if len(readings) < 5:
        return [True] * len(readings)
    boxes = [r.box for r in readings]
    cluster = np.array(_clusters(boxes))
    sizes = np.bincount(cluster, minlength=len(readings))
    centres = np.array([b.mean(axis=0) for b in boxes])
    heights = centres @ up
    big = [c for c in np.unique(cluster) if sizes[c] > STRAY_CLUSTER]
    if big:
        hand = min(big, key=lambda c: (float(heights[cluster == c].min()), int(c)))
    else:
        hand = int(np.argmax(sizes))

    def nearest_big(i: int) -> int | None:
        if not big:
            return None
        return min(big, key=lambda c: float(np.linalg.norm(centres[cluster == c] - centres[i], axis=1).min()))

    return [bool(c == hand or (sizes[c] <= STRAY_CLUSTER and r.code in _FLOWER_CODES
                               and nearest_big(i) in (None, hand)))
            for i, (r, c) in enumerate(zip(readings, cluster))]


_PHOTO_UP = np.array([0.0, -1.0])


def _without_strays(readings: list[TileReading], up: np.ndarray = _PHOTO_UP) -> list[TileReading]:
    """The readings of the hand alone (``_in_hand``; by default "up" is up the photo)."""
    return [r for r, kept in zip(readings, _in_hand(readings, up)) if kept]


def _analyser(right: np.ndarray, up: np.ndarray,
              rows: list[list[list[int]]]) -> Callable[[list[TileReading]], HandLayout]:
    """The layout analysis ``consistency`` asks of each repair it tries (a repair changes a
    tile's face, never its box, so the rows stay)."""
    return lambda trial: layout.analyse(trial, right, up, rows)


_TOO_LONG = "the hand is complete without it, and too long with it"
_NO_FLOWER = "a doubtful flower at the photo's edge, on other tiles' boxes or inside a row of the hand"
_STRAY_BACK = "a face-down box in no concealed kong, and the hand is complete without it"


@dataclass(frozen=True)
class _HandRead:
    """The readings kept as a hand, their layout, the repairs said, and the boxes left out as no
    tile, each with why."""

    readings: list[TileReading]
    rows: list[list[list[int]]]
    """The readings' rows of groups as the boxes lie (``layout.rows_and_groups``)."""
    layout: HandLayout
    corrections: list[consistency.Correction]
    left_out: list[tuple[TileReading, str]]


def _reindexed(corrections: list[consistency.Correction],
               dropped: tuple[int, ...]) -> list[consistency.Correction]:
    """The corrections of the tiles kept, their indices counted without the ``dropped`` ones."""
    return [replace(c, index=c.index - sum(c.index > d for d in dropped))
            for c in corrections if c.index not in dropped]


def _rows_without(rows: list[list[list[int]]], dropped: tuple[int, ...]) -> list[list[list[int]]]:
    """The rows and groups with the ``dropped`` tiles taken out, the others' indices renumbered:
    a box of no tile leaves the groups as they were found (its removal opens no gap)."""
    def renumbered(i: int) -> int:
        return i - sum(i > d for d in dropped)
    rows = [[[renumbered(i) for i in group if i not in dropped] for group in row] for row in rows]
    return [row for row in ([g for g in row if g] for row in rows) if row]


def _completed(readings: list[TileReading], right: np.ndarray, up: np.ndarray,
               rows: list[list[list[int]]]) -> _HandRead:
    """Copies respected, the hand completed by the cheapest repair, or by leaving out boxes of no
    tile when it is too long (``consistency``)."""
    readings, corrections = consistency.respect_counts(readings)
    completed, hand_layout, completing = consistency.complete_hand(readings, _analyser(right, up, rows))
    if not consistency.is_complete(hand_layout.hand):
        phantoms = consistency.without_phantoms(
            readings, hand_layout.hand, lambda trial: _analyser(right, up, layout.rows_and_groups(trial, right, up))
        )
        if phantoms is not None:
            kept, kept_layout, repairs, dropped = phantoms
            return _HandRead(kept, layout.rows_and_groups(kept, right, up), kept_layout,
                             _reindexed(corrections, dropped) + repairs, [(readings[d], _TOO_LONG) for d in dropped])
    return _HandRead(completed, rows, hand_layout, corrections + completing, [])


def _with_kong_flowers(hand: _HandRead, right: np.ndarray, up: np.ndarray) -> _HandRead:
    """A complete hand with each doubtful flower against a declared pung taken as its kong's
    fourth tile (``consistency.kong_flowers``)."""
    if not consistency.is_complete(hand.layout.hand):
        return hand
    readings, hand_layout, in_kongs = consistency.kong_flowers(hand.readings, hand.layout,
                                                               _analyser(right, up, hand.rows))
    return replace(hand, readings=readings, layout=hand_layout, corrections=hand.corrections + in_kongs)


def _less(hand: _HandRead, dropped: tuple[int, ...], why: str, right: np.ndarray, up: np.ndarray) -> _HandRead:
    """The hand without the ``dropped`` boxes (left out, each with ``why``), its groups kept as
    they were found."""
    kept = [r for i, r in enumerate(hand.readings) if i not in dropped]
    rows = _rows_without(hand.rows, dropped)
    return _HandRead(kept, rows, layout.analyse(kept, right, up, rows), _reindexed(hand.corrections, dropped),
                     hand.left_out + [(hand.readings[i], why) for i in dropped])


def _without_phantom_flowers(hand: _HandRead, right: np.ndarray, up: np.ndarray,
                             image_size: tuple[int, int]) -> _HandRead:
    """The hand less doubtful flowers that are no tile (``consistency.phantom_flowers``), unless
    leaving them out would break a complete hand."""
    flowers = consistency.phantom_flowers(hand.readings, image_size, hand.rows)
    if not flowers:
        return hand
    less = _less(hand, flowers, _NO_FLOWER, right, up)
    if consistency.is_complete(hand.layout.hand) and not consistency.is_complete(less.layout.hand):
        return hand
    return less


def _without_stray_backs(hand: _HandRead, right: np.ndarray, up: np.ndarray) -> _HandRead:
    """The hand less face-down boxes in no concealed kong, when without them it is complete with
    every claimed group a set (``consistency.stray_backs``; scene 10110: a tile's dark side read
    as a back beside a claimed 8m 6m 7m kept the chow from being read as declared)."""
    strays = consistency.stray_backs(hand.readings, hand.layout)
    if not strays:
        return hand
    less = _less(hand, strays, _STRAY_BACK, right, up)
    return less if consistency.reads_as_declared(less.readings, less.layout) else hand


def _as_a_hand(readings: list[TileReading], right: np.ndarray, up: np.ndarray,
               rows: list[list[list[int]]], image_size: tuple[int, int]) -> _HandRead:
    """The readings made a possible hand (``consistency``), step by step."""
    hand = _with_kong_flowers(_completed(readings, right, up, rows), right, up)
    hand = _without_stray_backs(hand, right, up)
    return _without_phantom_flowers(hand, right, up, image_size)


def _found(reading: TileReading, group: int, in_hand: bool = True) -> FoundTile:
    return FoundTile(reading.code, reading.confidence, tuple((float(x), float(y)) for x, y in reading.box),
                     reading.orientation, group, in_hand)


def _apart_doubts(apart: list[TileReading]) -> list[str]:
    """A sentence when more tiles lie apart from the hand than ``STRAY_CLUSTER`` (as many as a set
    holds): the choice of the rows nearest the camera as the hand may then be wrong. A stray box
    or two is said nothing of."""
    if len(apart) <= STRAY_CLUSTER:
        return []
    return [f"{len(apart)} tiles lie apart from the hand (the rows of touching tiles nearest the "
            "camera were taken as the hand): they are listed as not in the hand and drawn in grey "
            "on the annotated photo; if the hand is elsewhere, photograph it alone."]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _tile_places(hand_layout: HandLayout) -> dict[int, str]:
    """Where each tile lies, in words a player finds it by ("the 3rd tile of the concealed tiles")."""
    place: dict[int, str] = {}
    plural = {"concealed": "concealed tiles", "meld": "declared set", "concealed_kong": "concealed kong",
              "flowers": "flowers"}
    single = {"concealed": "concealed tile", "win": "winning tile", "meld": "declared tile",
              "flowers": "flower"}
    for group in hand_layout.groups:
        for k, i in enumerate(group.members):
            if len(group.members) == 1:
                place[i] = single.get(group.role, "tile")
            else:
                place[i] = f"{_ordinal(k + 1)} tile of the {plural.get(group.role, 'group')}"
    return place


def _tile_doubts(
    readings: list[TileReading], hand_layout: HandLayout, corrections: list[consistency.Correction]
) -> list[str]:
    """A sentence for each tile taken as another guess than the classifier's first, and for each
    other tile read with little confidence."""
    place = _tile_places(hand_layout)
    corrected = {c.index: c for c in corrections}
    doubts = []
    for i, r in enumerate(readings):
        where = place.get(i, "tile")
        if i in corrected:
            c = corrected[i]
            doubts.append(
                f"The {where} looks most like {c.read} ({c.read_confidence:.0%}) but was taken as "
                f"{c.taken} ({c.taken_confidence:.0%}) because {c.reason}: check that tile."
            )
        elif r.confidence < annotate.DOUBT_BELOW:
            doubts.append(
                f"The {where} was read as {r.code} with only {r.confidence:.0%} "
                "confidence: check that tile (a sharper, less glary photo helps)."
            )
    return doubts


def _left_out_doubts(left_out: list[tuple[TileReading, str]]) -> list[str]:
    return [
        f"A box read as {r.code} with only {r.confidence:.0%} confidence was left out as no tile "
        f"({why}): check the photo there (crossed in grey on the annotated photo)." for r, why in left_out
    ]


def _debug(debug_dir: Path, photo: Photo, small: np.ndarray, detections: TileDetections,
           reading: PhotoReading, crops: list[np.ndarray]) -> None:
    """Write the intermediate images: the finder's input and maps, detections, crops, result."""
    debug_dir.mkdir(parents=True, exist_ok=True)
    maps = finder.tile_maps(small)
    overlay, _ = finder.working_image(photo.decode(find_scale(photo)))
    factor = overlay.shape[1] / reading.image_size[0]
    for quad, back in zip(detections.quads, detections.backs):
        cv2.polylines(overlay, [(quad * factor).astype(np.int32)], True, (0, 0, 255) if back else (0, 255, 0), 1)
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


def read_photo(
    source: str | os.PathLike[str] | bytes,
    *,
    classifier: Any = None,
    debug_dir: str | os.PathLike[str] | None = None,
    one_hand: bool = True,
    flower_looks: bool | FlowerLooks = True,
) -> PhotoReading:
    """Read a photo of a declared hand. Raises FanscanError ``not_found``, ``unreadable_image``,
    ``image_too_large`` or ``no_tiles``. The hand is the rows of touching tiles nearest the camera
    (``_in_hand``, slivers set aside first: ``_slivers``); every other tile found stays in
    ``tiles`` with ``in_hand`` False (after the hand's, group -1), read as its own face.
    ``one_hand=False`` (a photo of any tiles: grids, piles, several hands, e.g. for labelling)
    reads every tile as one layout, each keeping its own reading: no copy limits, no completing
    the hand, nothing left out, every tile ``in_hand``.
    ``flower_looks=False`` skips the second looks at possible flowers (``vision.flowers``); a
    ``FlowerLooks`` gives them with other models (the shipped ones by default)."""
    photo = load_photo(source)
    small, detections = locate(photo)
    if len(detections) == 0:
        raise FanscanError("no_tiles", f"no mahjong tiles were found in {photo.name}")
    if classifier is None:
        from fanscan.vision.classifier import default_classifier

        classifier = default_classifier()
    if isinstance(flower_looks, FlowerLooks):
        looks: FlowerLooks | None = flower_looks
    else:
        looks = flowers.default_flower_looks() if flower_looks else None
    readings, right, up = _read_tiles(photo, detections, classifier, looks)
    readings = _without_duplicates(readings)
    apart: list[TileReading] = []  # tiles found that are no part of the hand, in the photo's order
    if one_hand:
        slivers = _slivers(readings)
        whole = [i for i in range(len(readings)) if i not in slivers]
        in_hand = dict(zip(whole, _in_hand([readings[i] for i in whole], up)))
        apart = [r for i, r in enumerate(readings) if not in_hand.get(i, False)]
        readings = [r for i, r in enumerate(readings) if in_hand.get(i, False)]
    rows = layout.rows_and_groups(readings, right, up)
    probed = _probe_backs(photo, readings, rows, right, classifier)
    if len(probed) > len(readings):
        readings, rows = probed, layout.rows_and_groups(probed, right, up)
    if one_hand:
        hand = _as_a_hand(readings, right, up, rows, photo.size)
    else:
        hand = _HandRead(readings, rows, layout.analyse(readings, right, up, rows), [], [])
    readings, hand_layout, corrections = hand.readings, hand.layout, hand.corrections
    left_out = hand.left_out
    tiles = [_found(r, hand_layout.group_of[i]) for i, r in enumerate(readings)]
    tiles += [_found(r, -1, in_hand=False) for r in apart]
    groups = [
        {"role": g.role, "tiles": list(g.members), **({"meld": g.meld} if g.meld else {})}
        for g in hand_layout.groups
    ]
    reading = PhotoReading(
        tiles=tiles,
        hand=hand_of_layout(hand_layout.hand),
        alternatives=[(d, hand_of_layout(h)) for d, h in hand_layout.alternatives],
        doubts=_tile_doubts(readings, hand_layout, corrections) + _left_out_doubts(left_out)
        + list(hand_layout.doubts) + _apart_doubts(apart),
        image_size=photo.size,
        groups=groups,
        left_out=[_found(r, -1, in_hand=False) for r, _ in left_out],
        _photo=photo,
    )
    if debug_dir is not None:
        scale = photo.scale_for(detections.quads, CROP_MIN_SIDE)
        crops = [photo.crop_quad(r.box, CROP_W, CROP_H, scale) for r in readings]
        _debug(Path(debug_dir), photo, small, detections, reading, crops)
    return reading
