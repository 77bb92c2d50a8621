"""A second look at a photo turned a quarter, when its first reading expects tiles wrong or missing.

The finder learnt tiles standing in rows across the photo; a hand photographed from the side of
the table (its tiles a quarter turned, in a column) it marks in pieces or misses, and the finder's
maps are not the same turned (``docs/benchmarks.md``, session 35: the better of the photo as it is
and turned a quarter would find 95.7 % of fold 4's tiles against 92.7 %). Nothing in the finder's
boxes says which turn is better; the reading does, through the confidences it gives its tiles:

1. ``worth_a_second_look``: the first reading's hand expects at least one tile wrong or missing
   (``expected_faults``: each face's chance of being wrong, 1 - its confidence, and the tiles it
   lacks for the smallest hand the rules allow). A hand the reader is sure of is not looked at again.
   A photo read for labelling (every tile its own reading, all "in the hand") is judged alike, with
   no hand size to be short of.
2. ``located_turned``: the finder's boxes on the photo turned a quarter clockwise
   (``QuarterTurned``), turned back into the photo's own frame, then refined on the photo itself;
   the reader reads them as any boxes, and picks the hand in the photo's own frame (the rows
   nearest the camera).
3. ``better``: a reading is worth its hand's tiles' expected right less expected wrong (each tile
   ``2 * confidence - 1``); the second reading replaces the first only when it is worth more.

``read_either_way`` runs the three for the reader (``read_turned`` steps 2 and 3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import cv2
import numpy as np
from fanscan.scoring.tiles import BACK
from fanscan.vision.detections import TileDetections
from fanscan.vision.hand_rules import HandRules
from fanscan.vision.image_io import Photo
from fanscan.vision.locate import locate, refined_and_split
from fanscan.vision.photo_reading import PhotoReading
from fanscan.errors import FanscanError

FAULTS_WORTH_A_LOOK = 1.0
"""A second look is taken when the first reading's hand expects at least one tile wrong or missing."""

Read = TypeVar("Read", bound=tuple)


@dataclass
class QuarterTurned:
    """``photo`` as seen turned a quarter clockwise: what ``locate`` asks of a photo, its decodes
    turned (and kept per scale until a colour balance changes them)."""

    photo: Photo
    _turned: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def width(self) -> int:
        return self.photo.height

    @property
    def height(self) -> int:
        return self.photo.width

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def balanced(self) -> bool:
        return self.photo.balanced

    def balance(self, table: np.ndarray) -> None:
        self.photo.balance(table)
        self._turned.clear()

    def decode(self, scale: int = 1) -> np.ndarray:
        if scale not in self._turned:
            self._turned[scale] = cv2.rotate(self.photo.decode(scale), cv2.ROTATE_90_CLOCKWISE)
        return self._turned[scale]


def turned_back(quads: np.ndarray, photo_height: int) -> np.ndarray:
    """Quads (n, 4, 2) found on the photo turned a quarter clockwise, in the photo's own pixels,
    their corners again clockwise from the top left. Turning clockwise takes (x, y) to
    (height - y, x); the turned box's first corner is the photo's bottom left one."""
    back = np.empty_like(quads)
    back[..., 0] = quads[..., 1]
    back[..., 1] = photo_height - quads[..., 0]
    return np.roll(back, -1, axis=1)


def located_turned(photo: Photo) -> tuple[np.ndarray, TileDetections]:
    """``locate``'s boxes found on the photo turned a quarter, in the photo's own frame and refined
    on it, and the image the finder saw (turned)."""
    small, found = locate(QuarterTurned(photo), refine=False)  # type: ignore[arg-type]  # less specks already
    back = TileDetections(turned_back(found.quads, photo.height), found.scores, found.backs)
    return small, refined_and_split(photo, back)


def expected_faults(reading: PhotoReading, rules: HandRules) -> float:
    """The faces of the reading's hand expected wrong (1 - confidence each) plus the tiles it lacks
    for the smallest hand ``rules`` allow (none when they ask no size; flowers counted as tiles: a
    hand that shows flowers lacks none for them). A face-down tile's confidence is the finder's
    that a tile lies there (``tile_reading``), no reading of a face, and is left out of the sum."""
    hand = [t for t in reading.tiles if t.in_hand]
    smallest = 0 if rules.kind == "any" else min(rules.sizes) - (rules.kind == "waiting")
    misread = sum(1.0 - t.confidence for t in hand if t.code != BACK)
    return float(misread) + max(0, smallest - len(hand))


def worth_a_second_look(reading: PhotoReading, rules: HandRules) -> bool:
    """Whether the reading leaves enough in doubt to read the photo turned a quarter too."""
    return expected_faults(reading, rules) >= FAULTS_WORTH_A_LOOK


def net_worth(reading: PhotoReading) -> float:
    """The hand's tiles expected right less those expected wrong."""
    return float(sum(2.0 * t.confidence - 1.0 for t in reading.tiles if t.in_hand))


def better(second: PhotoReading, first: PhotoReading) -> bool:
    """Whether the second reading is worth more than the first (a tie keeps the first)."""
    return net_worth(second) > net_worth(first)


def read_turned(photo: Photo, first: PhotoReading, read_located: Callable[[TileDetections], Read],
                ) -> tuple[np.ndarray, TileDetections, Read] | None:
    """The finder's image, boxes and reading (``read_located``'s answer, its ``PhotoReading``
    first) of the photo turned a quarter, when that reading is worth more than ``first``; else
    None (also when its boxes read as no tiles, or its decodes would pass the read's budget)."""
    try:
        small, turned = located_turned(photo)
        second = read_located(turned)
    except FanscanError:  # no tiles that way, or the decodes it asked for would pass the read's budget
        return None
    return (small, turned, second) if better(second[0], first) else None


def read_either_way(photo: Photo, small: np.ndarray, boxes: TileDetections,
                    read_located: Callable[[TileDetections], Read], rules: HandRules,
                    ) -> tuple[np.ndarray, TileDetections, Read]:
    """Steps 1-3 for the reader: the finder's image, the boxes and ``read_located``'s reading of
    them, the first look's (``small``, ``boxes``) unless the turned look's reading is worth more.
    A first look whose boxes read as no tiles is refused as it is (``no_tiles``): the "shows
    tiles?" check is fitted for one look, and a second chance let more pictures of noise through."""
    first = read_located(boxes)
    if worth_a_second_look(first[0], rules):
        turned = read_turned(photo, first[0], read_located)
        if turned is not None:
            return turned
    return small, boxes, first
