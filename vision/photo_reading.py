"""The reader's answer: every tile found, the hand, other readings and doubts, and its pictures.

``PhotoReading`` is what ``reader.read_photo`` returns and what ``fanscan read --json`` prints
(``to_json``: the contract's read object); ``FoundTile`` is one tile of it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from fanscan.scoring.hand import Hand, Meld
from fanscan.scoring.tiles import TILE_BY_CODE
from fanscan.vision import annotate
from fanscan.vision.geometry import clusters
from fanscan.vision.image_io import Photo

from fanscan.atomic import atomic_path
from fanscan.errors import FanscanError


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
    """Boxes the finder drew that the reader took for no tile (``interpret``: boxes the search read as no tile)."""
    hand_accepted: bool = False
    """Whether the rules accept the hand as read (a complete hand read as a win, a hand waiting to
    win read as waiting; ``interpret``'s ``satisfied``): the doubts say what is wrong when not."""
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
        image = self._photo.decode_as_taken(scale)  # not through the colour balance the reader used
        factor = image.shape[1] / self.image_size[0]
        groups = [(g["role"], g["tiles"]) for g in self.groups]
        apart = [i for i, t in enumerate(self.tiles) if not t.in_hand]
        if apart:
            cluster_of = clusters([np.array(self.tiles[i].box) for i in apart])
            groups += [(annotate.NOT_IN_HAND, [i for i, c in zip(apart, cluster_of) if c == first])
                       for first in dict.fromkeys(cluster_of)]
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
