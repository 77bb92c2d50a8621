"""Box refinement: each found box's corners moved onto its tile face's corners.

The finder marks tiles on a map at half of its working size, shrunk and grown back, so on a small
tile a corner can be off by a fifth to a third of the tile: enough to cut a flower's numeral off
or let a neighbour in. With every box snapped to its true corners, 29 of the 38 generated scenes
the reader got wrong (of 500) read exactly.

A small keypoint network (``models/box_refiner.onnx``, trained on generated scenes by
``models/train_refiner.py``) looks at each box grown by ``GROW`` about its centre and warped to
a square of the side its input declares (box corner i to the square's corner i, clockwise from
the top left), and gives, by a soft arg-max over four heat maps, where the face's four corners
lie in that square; they are mapped back through the warp.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import fanscan.models
import numpy as np
from fanscan.vision.box_shapes import split_pairs
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import Photo
from fanscan.vision.numeric import quad_areas
from fanscan.vision.onnx_session import LazySession, shared_session

SIDE = 48
"""The square each grown box is warped to, in pixels, when the model does not declare its own
(``square_side``), and the side ``train_refiner`` trains at by default: the shipped refiner's
(64 until session 29: 2.7 times the work a square, no more accurate on the held-out real photos;
``models/MODEL_CARD.md``)."""
GROW = 1.6
"""Each box is grown by this factor about its centre before warping, to show the face's true
edges when the box is off by up to a third of a tile."""
MIN_SHORT = 36
"""Boxes are cut from the coarsest decode in which a tile's short side spans this many pixels
(the square shows it about SIDE / GROW = 30 across, so the warp never enlarges it)."""
MAX_MOVE = 0.6
"""A refined corner further than this share of the box's short side from where the finder put
it is not believed: that box keeps the finder's corners. On the real table photos, read with
0.4, 0.6 and 0.9: folds 0-3 5,083, 5,074 and 5,064 of 5,571 labelled tiles right (hand photos
exact 74, 75, 75), the held-out fold 4 1,414 (0.4) and 1,423 (0.6) of 1,528 (``docs/benchmarks.md``,
session 43): no value clearly better. On 400 generated scenes, of the refined boxes whose farthest
corner moved 0.5-0.6 of the short side, 13 of 16 fitted their tile far better (IoU 0.6-0.7 ->
0.88-0.98), none worse (3 were boxes of no tile); beyond 0.6, 3 of 9 fitted better and 1 worse."""
SETTLE_PASSES = 3
"""A box whose refinement moved too far is refined again from where it went, up to this many
times..."""
SETTLED = 0.1
"""...and believed once a pass moves no corner more than this share of its short side: the
refiner agrees with its own box. On the real table photos, read with 0.05, 0.1 and 0.2: folds
0-3 5,058, 5,074 and 5,079 of 5,571 labelled tiles right, the held-out fold 4 1,423 (0.1) and
1,416 (0.2) of 1,528 (``docs/benchmarks.md``, session 43). On 400 generated scenes, 7 boxes moved
too far: 3 settled, 2 onto their tile (IoU 0.63-0.68 -> 0.95-0.97) and 1 box of no tile (no
worse); the 4 that kept moving stay as found."""
MODEL_PATH = Path(fanscan.models.__file__).resolve().parent / "box_refiner.onnx"
MAX_SQUARES = 32
"""Squares per onnxruntime call (a photo can bring a hundred boxes and more)."""


def _get_session() -> LazySession | None:
    """The refiner's shared session, or None when its model is not installed."""
    return shared_session(MODEL_PATH, max_batch=MAX_SQUARES) if MODEL_PATH.is_file() else None


def square_side(session: LazySession) -> int:
    """The side of the squares ``session``'s model takes: its input's last dimension, or ``SIDE``
    when that is not a fixed number."""
    last = session.input_shape()[-1]
    return last if isinstance(last, int) and last > 0 else SIDE


def grown(quads: np.ndarray, factor: float = GROW) -> np.ndarray:
    """Quads (n, 4, 2) scaled by ``factor`` about their centres."""
    centres = quads.mean(axis=1, keepdims=True)
    return centres + (quads - centres) * np.float32(factor)


def square_warps(quads: np.ndarray, to_image: float, side: int = SIDE) -> list[np.ndarray]:
    """For each quad (full-size pixels), the homography from an image ``to_image`` times the
    photo's size onto the refiner's ``side`` x ``side`` square, the grown quad's corner i on the
    square's corner i."""
    square = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    return [cv2.getPerspectiveTransform((q * np.float32(to_image)).astype(np.float32), square)
            for q in grown(quads)]


def cut_squares(image: np.ndarray, warps: list[np.ndarray], side: int = SIDE) -> np.ndarray:
    """The (n, side, side, 3) BGR uint8 squares the warps cut from ``image``."""
    squares = [cv2.warpPerspective(image, m, (side, side), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE) for m in warps]
    return np.stack(squares) if squares else np.zeros((0, side, side, 3), np.uint8)


def as_input(squares: np.ndarray) -> np.ndarray:
    """BGR uint8 squares as the network's (n, 3, side, side) RGB float input in [0, 1]."""
    return np.ascontiguousarray(squares[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255)


def refine_quads(photo: Photo, quads: np.ndarray) -> np.ndarray:
    """``quads`` (n, 4, 2, full-size pixels, clockwise from the top left) with each corner moved
    to the face's corner the refiner sees; unchanged where it has no model, or where a corner would
    move implausibly far (``MAX_MOVE``) and refining again does not settle (``SETTLED``)."""
    session = _get_session()
    if session is None or len(quads) == 0:
        return quads
    scale = photo.scale_for(quads, MIN_SHORT)
    image = photo.decode(scale)
    to_image = image.shape[1] / photo.width
    refined = _one_pass(session, image, to_image, quads)
    sides = np.linalg.norm(np.roll(quads, -1, axis=1) - quads, axis=2).min(axis=1)
    far = np.flatnonzero(np.linalg.norm(refined - quads, axis=2).max(axis=1) > MAX_MOVE * sides)
    settled = _settled(session, image, to_image, refined[far], sides[far])
    believed = [bool(np.isfinite(s).all()) and _like(s, q) for s, q in zip(settled, quads[far])]
    refined[far] = np.where(np.array(believed, bool)[:, None, None], settled, quads[far])
    broken = ~np.isfinite(refined).all(axis=(1, 2))
    refined[broken] = quads[broken]
    return refined.astype(np.float32)


def _one_pass(session: LazySession, image: np.ndarray, to_image: float,
              quads: np.ndarray) -> np.ndarray:
    """The refiner's corners for ``quads`` (full-size pixels), seen on ``image``."""
    side = square_side(session)
    warps = square_warps(quads, to_image, side)
    corners = session.run(as_input(cut_squares(image, warps, side))).reshape(len(quads), 4, 2)
    # Every square's corners back through its warp at once; pinv: a degenerate box must not raise.
    inverse = np.linalg.pinv(np.stack(warps))
    points = np.concatenate([corners.astype(np.float64), np.ones((len(quads), 4, 1))], axis=2)
    mapped = points @ inverse.transpose(0, 2, 1)
    # A corner the warp sends to infinity (a degenerate box) comes back NaN: ``refine_quads``
    # keeps such a box as found.
    weight = np.where(np.abs(mapped[..., 2:]) > np.finfo(np.float32).eps, mapped[..., 2:], np.nan)
    return (mapped[..., :2] / weight / to_image).astype(quads.dtype)


def _like(quad: np.ndarray, found: np.ndarray) -> bool:
    """Whether ``quad`` is a convex box of about the found box's area (half to twice)."""
    area, found_area = quad_areas(np.stack([quad, found]).astype(np.float64))
    return bool(found_area > 0 and cv2.isContourConvex(quad.astype(np.float32))
                and 0.5 * found_area <= area <= 2 * found_area)


def _settled(session: LazySession, image: np.ndarray, to_image: float, quads: np.ndarray,
             sides: np.ndarray) -> np.ndarray:
    """Each of ``quads`` refined again until a pass moves it less than ``SETTLED`` of ``sides``
    (at most ``SETTLE_PASSES``); NaN for one that never settles."""
    out = np.full_like(quads, np.nan)
    moving = np.flatnonzero(np.isfinite(quads).all(axis=(1, 2)))
    current = quads.copy()
    for _ in range(SETTLE_PASSES):
        if not moving.size:
            break
        again = _one_pass(session, image, to_image, current[moving])
        moves = np.linalg.norm(again - current[moving], axis=2).max(axis=1)
        current[moving] = again
        done = np.isfinite(moves) & (moves < SETTLED * sides[moving])
        out[moving[done]] = again[done]
        moving = moving[~done & np.isfinite(moves)]
    return out


def refined(photo: Photo, detections: TileDetections) -> TileDetections:
    """The detections with refined boxes (see ``refine_quads``)."""
    return TileDetections(refine_quads(photo, detections.quads), detections.scores, detections.backs)


def refined_and_split(photo: Photo, detections: TileDetections) -> TileDetections:
    """The detections refined; refined pairs of tiles in one box (``split_pairs``) cut in two and
    the halves refined again."""
    detections = refined(photo, detections)
    split, halves = split_pairs(detections)
    if halves.any():  # split_pairs built new arrays: its quads are ours to change
        split.quads[halves] = refined(photo, split.subset(halves)).quads
    return split
