"""Each box's face: cut upright from the photo, balanced for the light, classified.

``read_tiles`` is the reader's third step. Each cluster of tiles (``frame_groups``) is read in its
own frame (``geometry.hand_frame``), which says which way its rows run and which tiles lie
sideways; each face is cut from the smallest decode that still shows it in detail
(``Photo.crop_quad``, perspective corrected, upright), white-balanced on the face-up tiles' bodies
(``_cast_table``, once a cluster) and classified (a doubtful crop also turned 180 degrees);
possible flowers get a second look (``flowers``). Sideways tiles are tried turned both ways, and
when a cluster's tiles read poorly it is tried a quarter turn off, its up the one pointing up the
photo (``geometry.up_the_photo``: the classifier reads a face either way up alike, so only the
camera says which way up a cluster lies); a group of tiles none of which touches another
(``geometry.lone_tiles``: single tiles photographed apart, a scatter of discards) has no row to
set its frame, and each of its tiles is read both quarter turns; the frames share the looks already taken
(``way_looks``). Each reading keeps the classifier's whole
probability vector for the search (``interpret``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from fanscan.scoring.tiles import BACK, CLASS_LABELS
from fanscan.vision import geometry, white_balance
from fanscan.vision.detections import TileDetections, TileReading
from fanscan.vision.flowers import FlowerLooks
from fanscan.vision.image_io import Photo
from fanscan.vision.locate import CROP_MIN_SIDE
from fanscan.vision.numeric import median
from fanscan.vision.evidence import face_probabilities
from fanscan.vision.way_looks import WayLooks, wide_tile_reading

CROP_W, CROP_H = 96, 128
FACE_OVER_BACK = 0.75
"""A box the finder marks face-down is taken as a back unless the classifier reads a face there
with at least this probability. The real table photos label no backs, and there the value moves
nothing: read with 0.5, 0.75 and 0.9, folds 0-3 had the same 5,074 of 5,571 tiles right and 198
photos exact (``docs/benchmarks.md``, session 43). On 700 generated scenes no true back read as a
face other than P above 0.38; faces marked face-down read 0.85-0.99 (a face beside a concealed
kong's back, a flower with a round yellow-green picture). A white dragon never overrules the
mark: a plain face is what a back is most often taken for (of the face-down boxes read as a face
above 0.1 in those scenes, 5 of 7 read P)."""
FLOWER_AT_LEAST = 0.5
"""See ``_likeliest``. On held-out real crops (fold models) and crops of held-out scenes: 1,316 of
1,352 and 1,505 of 1,553 right with no such floor (0), 1,316 and 1,508 with 0.5, 1,315 and 1,511
without the rule."""
CANDIDATES = 3
"""Each tile keeps this many of the classifier's guesses (its ``candidates``: the doubts and the
pages' pickers show them; the search reads the whole probability vector)."""
FAR_GUESS_MIN = 0.001
"""...and, as far guesses for completing a hand, the other faces at least this likely."""
CAST_IGNORED = 0.05
"""A colour cast whose gains all lie within this of 1 (in log) is left alone."""
DIM_BELOW = 0.7
"""Crops whose tile bodies are less bright than this share of the ivory the classifier learnt
are brightened (to ``BRIGHTENED_TO`` of it, by at most ``MAX_BRIGHTEN`` times): it misread
numerals in dim crops (1m as 8m, 9m as 5m) that it reads right brightened."""
BRIGHTENED_TO = 0.95
MAX_BRIGHTEN = 3.0
TURN_BELOW = 0.75
"""When the tiles' mean confidence is below this, the frame a quarter turn away is tried too.
Never upside down: the classifier learnt every crop either way up, so two opposite frames read
alike and the surer is noise; choosing by it read 36 of rf-chinese's 427 least-turned photos'
hands upside down, their order reversed and their flowers' numbers out of the numeral reader's
band (``docs/reader.md``, *Which way up*)."""
TRIAL_TILES = 24
"""A frame is first tried on at most this many tiles, those the finder is surest of, and read whole
only when they read more surely in it (and kept only when the whole then does): which way up a hand
lies shows on any two dozen of its tiles, and a table photo's 50-150 boxes, read whole in three
more frames, were a third of its read."""
OWN_FRAME_TILES = 3
"""A cluster of tiles (``geometry.clusters``) of at least this many, enough for a set, is read in
its own frame (``frame_groups``): a pile of discards or another player's hand lies at its own
angle, and the nearest-neighbour steps of a pile, taken with a hand's, set the hand's rows
crosswise. A smaller cluster (a flower laid aside, a lone discard), whose own frame its boxes'
shape alone would give, is read in its nearest big cluster's."""
NO_TILE_ABOVE = 0.8
"""A box the classifier judges to hold no tile with more than this probability
(``TileReading.no_tile``) is no tile (``tiles_only``): of 0.5, 0.6, 0.7, 0.8, 0.9 and 0.95, the
least at which the reader's boxes on the labelled tiles of rf-chinese folds 0-3 lose at most one in 1,000
(2 of 4,766; at 0.5, 17: tiles of dark or unusual sets among them). Losing a tile loses the hand,
while a box of no tile kept may still be left out by the reading search..."""
PLAIN_FACES = frozenset({"P", BACK})
"""...unless it is read as a face with no picture: a blank white dragon or a tile's back looks like
a plain patch of table or rack, and only its place among the tiles tells them apart (on the
held-out real photos, of the boxes so read that a first stage-8 model judged no tile at 0.5, 14
were blank white dragons on labelled tiles and 8 backs of tiles, against 32 boxes of no tile)."""
_BACK_INDEX = CLASS_LABELS.index(BACK)
_FLOWER_SLICE = slice(CLASS_LABELS.index("1f"), CLASS_LABELS.index("8f") + 1)
_FLOWER_CODES = frozenset(CLASS_LABELS[_FLOWER_SLICE])




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


def frame_groups(quads: np.ndarray) -> list[np.ndarray]:
    """The tiles read in one frame (index arrays): each cluster (``geometry.clusters``) of at least
    ``OWN_FRAME_TILES`` tiles, the smaller clusters joined to the nearest such one; every tile as
    one group when no cluster is that large."""
    if len(quads) < 2:
        return [np.arange(len(quads))]
    cluster, sizes, big = geometry.large_clusters(list(quads), OWN_FRAME_TILES)
    if len(big) <= 1:
        return [np.arange(len(quads))]
    centres = quads.mean(axis=1)
    owner = cluster.copy()
    for i in np.flatnonzero(sizes < OWN_FRAME_TILES):
        owner[i] = min(big, key=lambda c: float(np.linalg.norm(centres[cluster == c] - centres[i], axis=1).min()))
    return [np.flatnonzero(owner == c) for c in big]


@dataclass(frozen=True)
class _GroupRead:
    """One frame group's reading: per tile its ways up tried, the one chosen, its probabilities
    (and of no tile), oriented box and crop; the group's frame."""

    tiles: np.ndarray
    choices: list[list[np.ndarray]]
    picks: list[int]
    probs: np.ndarray
    no_tile: np.ndarray
    boxes: list[np.ndarray]
    crops: list[np.ndarray]
    sideways: list[bool]
    right: np.ndarray
    up: np.ndarray


def _read_group(photo: Photo, detections: TileDetections, tiles: np.ndarray,
                classifier: Any, scale: float) -> _GroupRead:
    """Classify the tiles ``tiles`` (indices into ``detections``) in their own frame: each in its
    way up, the group then tried a quarter turn off while it reads poorly (``TURN_BELOW``).
    The light's cast is judged on the tiles the finder saw face up: a wall's coloured backs
    outnumber a hand's faces and would tint them."""
    quads, scores, backs = detections.quads[tiles], detections.scores[tiles], detections.backs[tiles]
    right, up = geometry.hand_frame(quads)
    sideways = geometry.sideways_flags(quads, right, up)
    scattered = bool(geometry.lone_tiles(quads).all())  # no row among them sets their frame

    way_looks = WayLooks(photo, quads, backs, classifier, scale, (CROP_W, CROP_H), _cast_table)

    def best(choices: list[list[np.ndarray]], only: np.ndarray | None = None,
             ) -> tuple[list[int], np.ndarray, np.ndarray, list[np.ndarray], list[np.ndarray]]:
        """Each tile's chosen way up, its probabilities, its probability of no tile, box and crop
        (as cut, before the balance); of the tiles ``only`` (indices) when given."""
        members = list(range(len(choices)) if only is None else only)
        got = way_looks.best_ways(members, [choices[t] for t in members])
        return got.picks, got.probs, got.no_tile, got.boxes, got.crops

    def mean_confidence(tile_probs: np.ndarray, among: np.ndarray) -> float:
        return float(tile_probs[among].max(axis=1).mean())

    def tried(other: list[list[np.ndarray]], among: np.ndarray) -> tuple | None:
        """The whole reading in the frame ``other`` when the tiles ``among`` read more surely in
        it than as read now: first judged on their ``TRIAL_TILES`` surest boxes, then on all."""
        trial = among[np.argsort(-scores[among], kind="stable")][:TRIAL_TILES]
        sample = best(other, trial)[1]
        if float(sample.max(axis=1).mean()) <= mean_confidence(probs, trial):
            return None
        whole = best(other)
        return whole if mean_confidence(whole[1], among) > mean_confidence(probs, among) else None

    choices = geometry.ways_up(up, right, sideways, scattered)
    picks, probs, no_tile, boxes, crops = best(choices)
    everything = np.arange(len(choices))
    if not scattered and mean_confidence(probs, everything) < TURN_BELOW:  # scattered: both turns read
        # Read poorly: the rows may run the other way (a grid of faces, whose nearest neighbours
        # lie across the rows; a photo whose EXIF turn was lost). The quarter-turned frame is
        # tried, its own sideways tiles both ways, and kept when it reads better.
        turned_up = geometry.up_the_photo(right)
        turned_right = np.array([-turned_up[1], turned_up[0]])
        turned_sideways = geometry.sideways_flags(quads, turned_right, turned_up)
        turned = geometry.ways_up(turned_up, turned_right, turned_sideways)
        if (read := tried(turned, everything)) is not None:
            choices, (picks, probs, no_tile, boxes, crops) = turned, read
            right, up, sideways = turned_right, turned_up, turned_sideways
    if not scattered:
        sideways = geometry.read_sideways(sideways, picks)
    return _GroupRead(tiles, choices, picks, probs, no_tile, boxes, crops, sideways, right, up)


def holds_no_tile(reading: TileReading) -> bool:
    """Whether the classifier's reading says the box holds no tile (``NO_TILE_ABOVE``,
    ``PLAIN_FACES``): a rack's rim, felt, a tile's side, a box across two tiles."""
    return reading.no_tile > NO_TILE_ABOVE and reading.code not in PLAIN_FACES


def tiles_only(readings: list[TileReading]) -> list[TileReading]:
    """The readings less the boxes of no tile (``holds_no_tile``); before the hand is looked for,
    so none is taken into it."""
    return [r for r in readings if not holds_no_tile(r)]


def _photo_frame(groups: list[_GroupRead]) -> tuple[np.ndarray, np.ndarray]:
    """(right, up) of the photo: the groups' ups summed by their sizes (a player photographs the
    tiles facing them), or the largest group's where they cancel out."""
    largest = max(groups, key=lambda g: len(g.tiles))
    total = sum(len(g.tiles) * g.up for g in groups)
    norm = float(np.linalg.norm(total))
    up = total / norm if norm > 0.5 * sum(len(g.tiles) for g in groups) else largest.up
    return np.array([-up[1], up[0]]), up


def read_tiles(
    photo: Photo, detections: TileDetections, classifier: Any, flower_looks: FlowerLooks | None = None
) -> tuple[list[TileReading], np.ndarray, np.ndarray]:
    """Classify every detection in its best orientation, each cluster of tiles in its own frame
    (``frame_groups``); returns the readings (each with its frame's ``frame_up``) and the photo's
    frame (``_photo_frame``)."""
    scale = photo.scale_for(detections.quads, CROP_MIN_SIDE)
    groups = [_read_group(photo, detections, tiles, classifier, scale)
              for tiles in frame_groups(detections.quads)]
    n = len(detections.quads)
    group_of, slot_of = np.zeros(n, int), np.zeros(n, int)
    for g, group in enumerate(groups):
        group_of[group.tiles], slot_of[group.tiles] = g, np.arange(len(group.tiles))
    probs = np.zeros((n, len(CLASS_LABELS)), np.float32)
    no_tile = np.zeros(n, np.float32)
    boxes: list[np.ndarray] = [np.empty(0)] * n
    crops: list[np.ndarray] = [np.empty(0)] * n
    for group in groups:
        probs[group.tiles] = group.probs
        no_tile[group.tiles] = group.no_tile
        for slot, t in enumerate(group.tiles):
            boxes[t], crops[t] = group.boxes[slot], group.crops[slot]

    if flower_looks is not None:
        probs = flower_looks.reweigh(probs, CLASS_LABELS, crops.__getitem__)
    readings = []
    for i, quad in enumerate(detections.quads):
        group, slot = groups[group_of[i]], slot_of[i]
        readings.append(reading_of(
            probs[i], float(no_tile[i]), boxes[i], group.choices[slot][group.picks[slot]], group.sideways[slot],
            position=float(quad.mean(axis=0) @ group.right), finder_score=float(detections.scores[i]),
            frame_up=(float(group.up[0]), float(group.up[1])), face_down=bool(detections.backs[i])))
    right, up = _photo_frame(groups)
    return readings, right, up


def read_quality(photo: Photo, classifier: Any, flower_looks: FlowerLooks | None = None,
                 ) -> Callable[[TileDetections], float]:
    """A judge of sets of boxes (``locate``'s ``judge``): the median, over a set's boxes read as
    ``read_tiles`` reads them, of the probability that the box holds a tile read as its likeliest
    face (the confidence times the probability of a tile). Whole tiles read surely; pieces of a
    face, a blob of several tiles, a wall's side do not."""
    def quality(detections: TileDetections) -> float:
        if not len(detections):
            return 0.0
        readings, _, _ = read_tiles(photo, detections, classifier, flower_looks)
        return median(np.array([surety(r) for r in readings]))
    return quality


def surety(reading: TileReading) -> float:
    """The probability that a box holds a tile read as its face (confidence times tile probability)."""
    return reading.confidence * (1.0 - reading.no_tile)


def reading_of(probs: np.ndarray, no_tile: float, box: np.ndarray, face_up: np.ndarray, sideways: bool, *,
               position: float, finder_score: float, frame_up: tuple[float, float],
               face_down: bool = False) -> TileReading:
    """A box's reading from the classifier's probabilities (the flowers' second looks taken) and
    the way its face was cut; a box the finder marked ``face_down`` stays a back unless a face
    other than the white dragon is read surely (``FACE_OVER_BACK``)."""
    index = _likeliest(probs)
    code, confidence = CLASS_LABELS[index], float(probs[index])
    if face_down and code != BACK and (confidence < FACE_OVER_BACK or code == "P"):
        code, confidence = BACK, max(finder_score, float(probs[_BACK_INDEX]))
    near = _candidates(probs, code, confidence)
    return TileReading(code=code, confidence=confidence, box=box, orientation=geometry.orientation_degrees(face_up),
                       sideways=sideways, position=position, candidates=near,
                       far_guesses=_far_guesses(probs, {c for c, _ in near}), probs=probs,
                       finder_score=finder_score, frame_up=frame_up, no_tile=no_tile)


def look_at_cuts(photo: Photo, readings: list[TileReading], cuts: list[np.ndarray], classifier: Any,
                 flower_looks: FlowerLooks | None = None, *, mirrored: bool = False,
                 ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """The faces' probabilities (the flowers' second looks taken), the probabilities of no tile
    and the crops of new ``cuts`` (quads) among the ``readings``' tiles, cut and balanced as
    their crops are (``mirrored``: a cut the photo's frame cuts shows its part inside mirrored
    beyond it, ``Photo.crop_quad``)."""
    scale = photo.scale_for(np.stack([r.box for r in readings]), CROP_MIN_SIDE)
    crops = white_balance.balanced([photo.crop_quad(cut, CROP_W, CROP_H, scale, mirrored=mirrored) for cut in cuts],
                                   cast_table_of(photo, readings, scale))
    looks = classifier.looks(crops)
    probs = np.asarray(looks.probs, np.float32)
    if flower_looks is not None:
        probs = flower_looks.reweigh(probs, CLASS_LABELS, crops.__getitem__)
    return probs, np.asarray(looks.no_tile, np.float32), crops


def cast_table_of(photo: Photo, readings: list[TileReading], scale: int) -> np.ndarray | None:
    """``_cast_table`` judged on the face-up tiles among ``readings``, cut as they were read."""
    faces = [r for r in readings if r.code != BACK]
    if not faces:
        return None
    quads = np.stack([r.box for r in faces])
    as_read = geometry.orient_boxes(quads, np.array([geometry.face_up_of(r.orientation) for r in faces]))
    return _cast_table([photo.crop_quad(b, CROP_W, CROP_H, scale) for b in as_read])


def read_sideways_again(photo: Photo, readings: list[TileReading], right: np.ndarray, up: np.ndarray,
                        classifier: Any, flower_looks: FlowerLooks | None = None) -> list[TileReading]:
    """The hand's readings with the tiles that lie sideways judged again in the hand's own frame
    (``right``, ``up``): each face-up tile read as upright but sideways there is cut again both
    ways across the rows, and its readings weighed as a wide tile's three looks are
    (``way_looks.wide_tile_reading``: the upright one kept by the fitted margin, the faces mixed).

    ``read_tiles`` judges a tile sideways against the typical tile of its whole cluster, before
    the hand is picked: a pile of discards turned every way in the same cluster raises the typical
    tile's width, and a claimed tile beside the hand passes for upright, its face cut a quarter
    turn off (a sideways 8m read as C at 40 %). The error runs that way only: on the held-out
    real photos the tiles read sideways that the hand's frame judged upright were standing tiles
    seen steeply, read right as they were (4s) and wrong upright (4p at 98 %)."""
    if len(readings) < 2:
        return readings
    quads = np.stack([r.box for r in readings])
    flags = geometry.sideways_flags(quads, right, up)
    again = [i for i, (r, flag) in enumerate(zip(readings, flags)) if flag and not r.sideways and r.code != BACK]
    if not again:
        return readings
    scale = photo.scale_for(quads, CROP_MIN_SIDE)
    table = cast_table_of(photo, readings, scale)
    looker = WayLooks(photo, quads, np.zeros(len(readings), bool), classifier, scale, (CROP_W, CROP_H), lambda _: table)
    got = looker.best_ways(again, [(-right, right)] * len(again))
    rows = got.probs if flower_looks is None else flower_looks.reweigh(got.probs, CLASS_LABELS, got.crops.__getitem__)
    priors = geometry.way_priors(quads, again, [(-right, right, up)] * len(again))
    out = list(readings)
    for j, i in enumerate(again):
        old = readings[i]
        looks = np.stack([rows[j], rows[j], face_probabilities(old)])
        pick, probs, no_tile = wide_tile_reading(looks, np.array([got.no_tile[j], got.no_tile[j], old.no_tile]),
                                                 priors[j][2])
        upright = pick == 2
        box, face_up = ((old.box, geometry.face_up_of(old.orientation)) if upright
                        else (got.boxes[j], (-right, right)[got.picks[j]]))
        out[i] = reading_of(probs, no_tile, box, face_up, not upright, position=old.position,
                            finder_score=old.finder_score, frame_up=old.frame_up)
    return out
