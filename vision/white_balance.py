"""Taking a light's colour cast out of a photo, judged on the tiles' bodies; a dim photo brightened.

A photo darker than nearly all those the networks learnt on (``DIM_BELOW``: an evening table
under a weak lamp, a camera that set its exposure by a bright window) is brought up to that
level first (``brightened_when_dim``), judged on its brightest pixels, before any tile is found:
in the dark the finder misses the tiles, so no tile can say how dark the photo is.

Tile bodies are ivory under any table, so their bright level (the 90th percentile of each channel
inside a tile) says the light's colour better than the photo's brightest pixels do: those are as
often a wooden or felt table as a tile. The gains bring the median tile's bright level to the hue
of the ivory the networks learnt (``BODY_REFERENCE``), keeping its brightness. A cast no gain
within ``MAX_GAIN`` takes out (a magenta lamp that leaves the tiles almost no green; a candle's
orange) is read in black and white too, and whichever way its boxes read better is kept
(``better_in_grey``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from fanscan.errors import FanscanError
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import Photo
from fanscan.vision.numeric import median

BODY_REFERENCE = np.float32([217, 235, 241])
"""BGR of a tile body under neutral light, as the networks learnt it (the scenes' mean ivory)."""
MAX_GAIN = 1.6
"""No channel's gain is above this or below its inverse; a cast that needs more is beyond a
balance's reach (``beyond_reach``)."""
STRONG_CAST = 0.2
"""A cast whose largest gain is further than this from 1 (in log: 22 %) is taken out of the whole
photo before the tiles are searched (``balanced_for_cast``); slighter ones are left to the crops'
own balance."""
DIM_BELOW = 173.0
"""A photo whose ``bright_level`` lies below this is brightened to it: the 1st percentile of the
bright levels of the photos the tile finder learnt on, its two halves weighed alike: the real
photos (rf-chinese folds 0-3, 322, least turned, turned back upright; 1st percentile 208, lowest
202) and the generated scenes (seeds 1,000,000-1,000,599 at 640 px; 1st percentile 169, lowest
120). Brought only to this level, a photo just below it changes by less than the finder's own
training jitter of the light (gains 0.75-1.25)."""
BRIGHT_SHARE = 0.9998
"""A photo's bright level is the level this share of its pixels lie at or below, each pixel at
its brightest channel: the brightest 60 pixels of the finder's 640 x 480 copy, about as many as
a far hand's faces fill there (14 tiles 20 px wide in a 12 MP photo are about 3 x 4 px each), so
that a far hand on a dark table still lights its photo, and a few hot pixels do not. The
brightest channel: a coloured lamp's photo is bright in some channel (a magenta one's grey
level is low)."""
CAST_SAMPLE = 0.6
"""The cast is judged on the middle of each found tile, this share of its box."""


def body_level(bodies: Sequence[np.ndarray]) -> np.ndarray | None:
    """The tiles' bright level (BGR): each body's 90th percentile per channel, the median over the
    bodies (BGR uint8 pixels of tiles, any shape ending in 3); None when there are none."""
    levels = []
    for body in bodies:
        pixels = body.reshape(-1, 3)
        if len(pixels) == 0:
            continue
        k = int(0.9 * (len(pixels) - 1))
        levels.append(np.partition(pixels, k, axis=0)[k])
    if not levels:
        return None
    bright = np.array(levels, np.float32)
    return np.maximum(np.array([median(bright[:, channel]) for channel in range(3)], np.float32), 1.0)


def _gains_needed(level: np.ndarray) -> np.ndarray:
    return level.mean() * BODY_REFERENCE / BODY_REFERENCE.mean() / level


def cast_gains(level: np.ndarray) -> np.ndarray:
    """Per-channel (BGR) gains that bring a bright ``level`` to the reference's hue, keeping its
    brightness."""
    return np.clip(_gains_needed(level), 1 / MAX_GAIN, MAX_GAIN).astype(np.float32)


def beyond_reach(level: np.ndarray) -> bool:
    """Whether bringing a bright ``level`` to the reference's hue needs a gain beyond ``MAX_GAIN``
    (or below its inverse): a light so coloured that some channel holds next to nothing."""
    return bool(cast_strength(_gains_needed(level)) > np.log(MAX_GAIN))


def brightness(level: np.ndarray) -> float:
    """A bright level's brightness as a share of the reference ivory's (1: as bright)."""
    return float(level.mean() / BODY_REFERENCE.mean())


def cast_strength(gains: np.ndarray) -> float:
    """How far from neutral the gains are: the largest of their logs' magnitudes."""
    return float(np.abs(np.log(gains)).max())


def lookup_table(gains: np.ndarray) -> np.ndarray:
    """A ``cv2.LUT`` table (256x1x3 uint8) that multiplies each BGR channel by its gain."""
    return np.clip(np.arange(256, dtype=np.float32)[:, None] * gains, 0, 255).astype(np.uint8)[:, None, :]


def balanced(images: list[np.ndarray], table: np.ndarray | None) -> list[np.ndarray]:
    """The images through ``table`` (``lookup_table``); the same list when there is none."""
    return images if table is None else [cv2.LUT(image, table) for image in images]


def channel_level(image: np.ndarray, share: float, pick: Callable = cv2.max) -> float:
    """The level ``share`` of a BGR image's pixels lie at or below, each pixel taken at the channel
    ``pick`` (``cv2.max``: its brightest, ``cv2.min``: its darkest) chooses."""
    blue, green, red = cv2.split(image)
    counts = np.cumsum(cv2.calcHist([pick(pick(blue, green), red)], [0], None, [256], [0, 256]).ravel())
    return float(np.searchsorted(counts, share * counts[-1]))


def bright_level(image: np.ndarray) -> float:
    """The level ``BRIGHT_SHARE`` of a BGR image's pixels lie at or below, each pixel taken at its
    brightest channel."""
    return channel_level(image, BRIGHT_SHARE, cv2.max)


def brightened_when_dim(photo: Photo, small: np.ndarray, decode_scale: int) -> bool:
    """Whether the photo (``small``: its finder's copy; ``decode_scale``: the decode that copy was
    shrunk from) was darker than ``DIM_BELOW``, and so now brightened to it (``Photo.balance``,
    every channel by the same gain that brings the copy to it, before the cast's). Judged on the
    first whole copy the finder sees (``camera_mending.mended``), and when that is dim on the
    decode too: a far hand's faces, a few pixels wide in the copy, blend there with the dark table they lie on
    (the bundled sample laid at 22 px a tile in 12 MP on its own blue cloth: 194 in the copy,
    214 in its decode). The gain is the copy's: a decode's brightest pixels hold more of a dim
    photo's sensor noise."""
    if (level := bright_level(small)) >= DIM_BELOW or bright_level(photo.decode(decode_scale)) >= DIM_BELOW:
        return False
    photo.balance(lookup_table(np.full(3, DIM_BELOW / max(level, 1.0), np.float32)), takes_out="dim")
    return True


def balanced_for_cast(photo: Photo, small: np.ndarray, found: TileDetections) -> bool:
    """Whether the photo was under a strong colour cast (``STRONG_CAST``, judged on the middles of
    the tiles ``found`` face up in ``small``), and so now balanced (``Photo.balance``): the finder
    and the classifier learnt tiles under near-neutral light. The photo records whether the cast
    was ``beyond_reach`` (``Photo.beyond_reach``: ``better_in_grey`` asks)."""
    if "cast" in photo.balanced_for:
        return False
    found = found.subset(~found.backs)  # a wall's coloured backs say nothing of the light
    if len(found) < 3:
        return False
    bodies = []
    for quad in found.quads:
        centre = quad.mean(axis=0)
        inner = np.round(centre + (quad - centre) * CAST_SAMPLE).astype(int)
        (x0, y0), (x1, y1) = np.maximum(inner.min(axis=0), 0), inner.max(axis=0) + 1
        bodies.append(small[y0:y1, x0:x1])
    level = body_level(bodies)
    if level is None or cast_strength(gains := cast_gains(level)) < STRONG_CAST:
        return False
    photo.balance(lookup_table(gains), beyond_reach=beyond_reach(level))
    return True


def better_in_grey(photo: Photo, located: tuple[np.ndarray, TileDetections],
                   locate_again: Callable[[], tuple[np.ndarray, TileDetections]],
                   judge: Callable[[TileDetections], float]) -> tuple[np.ndarray, TileDetections]:
    """``located`` (the working image and boxes ``locate`` found in the balanced photo), or the
    photo's tiles located again in black and white when ``judge`` (``tile_reading.read_quality``)
    finds those boxes read better; the photo is left read the way kept. Under a light beyond the
    gains' reach the faces keep colours the networks never saw, or so little of a channel that
    only their strokes are left: a magenta lamp's tiles read in grey far better (rf-chinese
    420233498's 14 labelled crops: 6 right in colour, 14 in grey), a candle's orange ones worse."""
    in_colour = judge(located[1])
    photo.read_in_grey(True)
    try:
        again = locate_again()
    except FanscanError:  # the grey copies would pass the read's memory budget: colour it is
        photo.read_in_grey(False)
        return located
    if judge(again[1]) > in_colour:
        return again
    photo.read_in_grey(False)
    return located
