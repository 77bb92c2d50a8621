"""A poor camera's faults mended before any tile is searched: a dim photo brightened, a hazy one
cleared, a blurred one sharpened, each to the photos the networks learnt on.

1. ``mended`` judges a photo once, on the finder's first whole copy of it (a turned look's
   window never judges: ``TurnedPhoto.camera_judged``).
2. Its light: darker than nearly all the photos the finder learnt on, it is brightened
   (``white_balance.brightened_when_dim``).
3. Its haze (flare, glare or a smudge on the lens, lifting every level towards white), judged
   only when that pass saw a hand (a plain table, a page or noise has no dark pixel either): its
   darkest pixels lighter than nearly all of theirs (``dark_level`` above ``HAZY_ABOVE``), every
   level is stretched so that they fall to that level and white stays white (``cleared_when_hazy``).
4. Its focus, judged on the tiles of the hand that first pass saw (none seen, none judged):
   less sharp than nearly all of them (``sharpness`` below ``BLURRED_BELOW``), every
   decode of it comes through an unsharp mask (``Photo.sharpen``) of ``UNSHARP_SIGMA`` pixels of
   that copy, scaled to each decode (a decode four times the copy's size is sharpened at the same
   detail), and of the least amount that brings its tiles to ``BLURRED_BELOW``
   (``amount_to_floor``): a photo a little soft is touched a little, one badly out of focus much.
5. ``locate`` makes its first pass again when any of them changed the photo.

The sharpness is judged on the finder's copy because that is where the finder looks (a 12 MP
photo a little out of focus at full size is sharp at 640 px, and is left alone), and on the tiles
because they are what must be read: judged on the whole copy, a hand laid far away on a plain
table passed for a blurred photo (its few sharp pixels among the table's smooth ones), and
sharpened, lost tiles (the held-out photos laid far on their own tables, 87.2 -> 78.2 % found).
"""

from __future__ import annotations

import cv2
import numpy as np

from fanscan.vision import white_balance
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import Photo, unsharp
from fanscan.vision.numeric import quantile, quantiles

HAZY_ABOVE = 37.0
"""A photo whose ``dark_level`` lies above this is cleared of its haze: the 99th percentile of the
dark levels of the photos the tile finder learnt on, its two halves weighed alike: the real photos
(rf-chinese folds 0-3, 322; 99th percentile 18, highest 46) and the generated scenes (seeds
1,000,000-1,000,599; 99th percentile 37, highest 63). The held-out real photos lie at 12 and
below; every level drawn to 0.8 of its distance from white, at 51-60."""
DARK_SHARE = 0.0002
"""A photo's dark level is the level this share of its pixels lie at or below, each pixel at its
darkest channel (a haze lifts every channel; a coloured table is dark in some channel): the
darkest 60 pixels of the finder's 640 x 480 copy, as ``white_balance.BRIGHT_SHARE`` is its brightest."""
BLURRED_BELOW = 0.282
"""A photo whose tiles' ``sharpness`` lies below this is sharpened: the 1st percentile of it on
the photos the tile finder learnt on, at the finder's 640 px within the boxes of its first pass,
its two halves weighed alike: the real photos (rf-chinese folds 0-3, 322, least turned, turned
back upright; 1st percentile 0.266, lowest 0.209) and the generated scenes (seeds
1,000,000-1,000,599; 1st percentile 0.533, lowest 0.471). The held-out real photos (fold 4) lie at
0.272 and above; out of focus by a Gaussian of 1 px (of the 640 px photo), half of them at 0.223
and below; by 1.5 px, median 0.125 (lowest 0.08)."""
SHARPNESS_SHARE = 99.5
"""The percentile of the Laplacian's magnitude that stands for the tiles' sharpest edges."""
OUTLINE_GROWTH = 1.5
"""Each tile's box is grown this many times about its middle, so that its outline against the
table is judged with its face (the box refiner's window is grown 1.6 times for the same reason)."""
UNSHARP_SIGMA = 1.0
"""The unsharp mask's blur, in pixels of the finder's copy: of 1, 1.5 and 2.5 px, the one that
found the most tiles and read the most photos exactly on the real photos the finder learnt on
(rf-chinese folds 0-3, 343 sources), made out of focus by 1.5 px (94.4, 93.9, 93.5 % found) and
shaken by 5 px (91.1, 90.7, 90.9 %), each sharpened by the least amount that reaches the floor.
Chosen while the sharpness was judged on the whole copy (its floor there 0.225), not since."""
MOST_AMOUNT = 8.0
"""Where ``amount_to_floor`` stops searching: a photo that needs more is past mending (its edges
gone, not softened), and sharpened that far shows its noise and the mask's rings."""
AMOUNT_STEPS = 8
"""Halvings of ``amount_to_floor``'s search: its amount is within 8 / 2^8 = 0.03 of the least."""


def dark_level(image: np.ndarray) -> float:
    """The level ``DARK_SHARE`` of a BGR image's pixels lie at or below, each pixel taken at its
    darkest channel."""
    return white_balance.channel_level(image, DARK_SHARE, cv2.min)


def cleared_when_hazy(photo: Photo, small: np.ndarray) -> bool:
    """Whether the photo (``small``: the finder's copy of it) was hazier than ``HAZY_ABOVE``, and so
    now cleared (``Photo.balance``): every level stretched so that its dark level falls to it and
    white stays white, every channel alike."""
    if (level := dark_level(small)) <= HAZY_ABOVE:
        return False
    levels = HAZY_ABOVE + (np.arange(256, dtype=np.float32) - level) * (255.0 - HAZY_ABOVE) / max(255.0 - level, 1.0)
    table = np.repeat(np.clip(np.round(levels), 0, 255).astype(np.uint8)[:, None], 3, axis=1)[:, None, :]
    photo.balance(table, takes_out="haze")
    return True


def sharpness(image: np.ndarray, quads: np.ndarray | None = None) -> float:
    """How sharp a BGR image's edges are, whatever its contrast: the ``SHARPNESS_SHARE``
    percentile of its grey Laplacian's magnitude over its grey range (99.9th percentile less
    the 1st), within ``quads`` (n x 4 x 2, the image's pixels, each grown ``OUTLINE_GROWTH``
    times) when given. Blur spreads an edge, lowering its Laplacian; dimming lowers both alike."""
    return _sharpness_within(image, None if quads is None else _outlines(image.shape[:2], quads))


def _outlines(shape: tuple[int, ...], quads: np.ndarray) -> np.ndarray:
    """A mask (uint8, 1 inside) of ``quads`` each grown ``OUTLINE_GROWTH`` times about its middle."""
    middles = quads.mean(axis=1, keepdims=True)
    inside = np.zeros(shape, np.uint8)
    cv2.fillPoly(inside, list(np.round(middles + (quads - middles) * OUTLINE_GROWTH).astype(np.int32)), 1)
    return inside


def _sharpness_within(image: np.ndarray, inside: np.ndarray | None) -> float:
    """``sharpness`` within the pixels ``inside`` marks (all when None)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edges = np.abs(cv2.Laplacian(grey.astype(np.float32), cv2.CV_32F))
    if inside is not None:
        grey, edges = grey[inside > 0], edges[inside > 0]
        if not grey.size:
            return float("inf")
    low, high = quantiles(grey, (1.0 / 100, 99.9 / 100))
    return quantile(edges, SHARPNESS_SHARE / 100) / max(high - low, 1.0)


def amount_to_floor(small: np.ndarray, quads: np.ndarray, sigma: float) -> float:
    """The least amount of an unsharp mask of ``sigma`` px that brings ``small``'s tiles (``quads``)
    to a ``sharpness`` of ``BLURRED_BELOW`` (``MOST_AMOUNT`` when none up to it does): a bisection,
    the sharpness rising with the amount. Its steps sharpen only the tiles' part of ``small``, with
    a margin as wide as the mask and the Laplacian reach: their sharpness is the whole copy's."""
    inside = _outlines(small.shape[:2], quads)
    rows, columns = np.nonzero(inside)
    if rows.size:
        margin = int(np.ceil(3 * sigma)) + 2
        top, left = max(int(rows.min()) - margin, 0), max(int(columns.min()) - margin, 0)
        part = np.s_[top : int(rows.max()) + margin + 1, left : int(columns.max()) + margin + 1]
        small, inside = small[part], inside[part]

    def sharp_at(amount: float) -> bool:
        return _sharpness_within(unsharp(small, sigma, amount), inside) >= BLURRED_BELOW

    low, high = 0.0, MOST_AMOUNT
    if not sharp_at(high):
        return high
    for _ in range(AMOUNT_STEPS):
        middle = (low + high) / 2
        low, high = (low, middle) if sharp_at(middle) else (middle, high)
    return high


def sharpened_when_blurred(photo: Photo, small: np.ndarray, tiles: TileDetections) -> bool:
    """Whether the photo (``small``: the finder's copy of it, where it saw ``tiles``) was less
    sharp there than ``BLURRED_BELOW``, and so now sharpened (``Photo.sharpen``) to it."""
    if sharpness(small, tiles.quads) >= BLURRED_BELOW:
        return False
    amount = amount_to_floor(small, tiles.quads, UNSHARP_SIGMA)
    photo.sharpen(UNSHARP_SIGMA * photo.width / small.shape[1], amount)
    return True


def mended(photo: Photo, small: np.ndarray, decode_scale: int, hand: TileDetections | None) -> bool:
    """Whether the photo (``small``: the finder's first copy of it; ``decode_scale``: the decode
    that copy was shrunk from; ``hand``: the tiles of a hand the finder saw there, or None) was
    brightened, cleared or sharpened; judged once a photo."""
    if photo.camera_judged:
        return False
    photo.camera_judged = True
    brightened = white_balance.brightened_when_dim(photo, small, decode_scale)
    if hand is None:  # no tile seen, no haze or focus judged: a plain table's, a page's or noise's
        return brightened
    cleared = cleared_when_hazy(photo, small)
    return sharpened_when_blurred(photo, small, hand) or brightened or cleared
