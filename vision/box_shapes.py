"""Boxes whose shape says what they hold: far too small or too streaky for a tile (no tile), or two
tiles side by side in one box.

``without_specks`` drops boxes far smaller than the photo's typical tile and streaks far longer
than a tile; ``split_pairs`` cuts a box that holds two upright tiles whose seam the finder missed
into its two halves. Both judge a box against the photo's own typical box, so they need a few boxes;
``split_pairs`` asks the same of the box's nearest boxes, in the frame their row makes.
"""

from __future__ import annotations

import numpy as np

from fanscan.vision import geometry
from fanscan.vision.detections import TileDetections
from fanscan.vision.numeric import inside_any, median, quad_areas

SPECK_AREA = 0.3
"""A box with less than this share of the median box's area is no tile (tiles of one hand differ
by perspective, well under a factor of two)."""
FACE_ASPECT = 1.35
"""A tile face's length over its width."""
STREAK_ASPECT = 4.5
"""A box more than this many times as long as it is wide is no tile: a tile's face is 1.35 times as
long as wide and a claimed tile looks about twice as long as high with the camera tilted 45
degrees, its box up to about 3.2 times. A strip along the photo's edge read as a face-down tile was
about 10. On a photo stretched in export (a wide photo squeezed to a square, as data sets do)
every tile is stretched alike: the bound grows with the photo's typical box over a face
(``without_specks``), which kept the tiles of such photos (their boxes 5-7 times as long as wide)."""
PAIR_ALONG = (1.7, 2.8)
"""A box this many typical tiles long along its row (two tiles at the near end of a slanted row,
their sides boxed too, run to about 2.5)..."""
PAIR_ACROSS = 0.2
"""...and as high across it as a typical tile, within this share, holds two upright tiles side by
side whose seam the finder missed (seen where a tilted camera makes faces look square, so the
finder's own split of long marks cannot tell a pair from a tile)."""
PAIR_NEIGHBOURS = 4
"""A box is measured so against the photo's typical box and again against its nearest boxes, in
the frame their row makes (``_pair_frame``): a hand standing below a heap of smaller, turned
discards has its own rows' direction and size, which the photo's boxes as a whole can miss."""


def _aspects(quads: np.ndarray) -> np.ndarray:
    """Each quad's long side over its short side (opposite sides averaged)."""
    sides = np.linalg.norm(np.roll(quads, -1, axis=1) - quads, axis=2)
    one, other = (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2
    return np.maximum(one, other) / np.maximum(np.minimum(one, other), 1e-6)


def without_specks(detections: TileDetections) -> TileDetections:
    """The detections less boxes far smaller than the photo's typical tile (``SPECK_AREA``): a
    blob of table pattern or a tile's coloured side, which the classifier would take for a blank
    white dragon (a phantom P in the hand); and less streaks (``STREAK_ASPECT``), such as a strip
    along the photo's edge, which reads as a face-down tile."""
    if len(detections) < 5:
        return detections
    areas, aspects = quad_areas(detections.quads), _aspects(detections.quads)
    stretch = max(1.0, median(aspects) / FACE_ASPECT)  # a photo stretched in export stretches every tile
    return detections.subset((areas >= SPECK_AREA * median(areas)) & (aspects <= STREAK_ASPECT * stretch))


def split_pairs(detections: TileDetections) -> tuple[TileDetections, np.ndarray]:
    """The detections with each box that holds two tiles side by side cut in two at the middle of
    its sides along its row, and which of the boxes are such halves.

    A box holds two tiles when it is shaped so (``PAIR_ALONG``, ``PAIR_ACROSS``: its chords through
    its centre along and across the rows) against the photo's typical box, the rows running the
    way of the photo's boxes as a whole (``geometry.hand_frame``), and again against its nearest
    boxes, in the frame their row makes (``_pair_frame``), across which it is cut."""
    quads = detections.quads
    none = np.zeros(len(quads), bool)
    if len(quads) < 5:
        return detections, none
    right, up = geometry.hand_frame(quads)
    along, across = (np.diff(geometry.chords(quads, direction), axis=1)[:, 0] for direction in (right, up))
    length = along / max(median(along.tolist()), 1e-6)
    height = across / max(median(across.tolist()), 1e-6)
    rows_of = {int(i): _pair_frame(quads, int(i))
               for i in np.flatnonzero(_pair_shaped(length, height))}
    pairs = np.array([rows_of.get(i) is not None for i in range(len(quads))])
    if not pairs.any():
        return detections, none
    out_quads, scores, backs, halves = [], [], [], []
    for i, (quad, score, back) in enumerate(zip(quads, detections.scores, detections.backs)):
        row = rows_of.get(i)
        parts = _halves(quad, row) if row is not None else [quad]
        out_quads += parts
        scores += [score] * len(parts)
        backs += [back] * len(parts)
        halves += [row is not None] * len(parts)
    return (TileDetections(np.stack(out_quads).astype(np.float32), np.array(scores, np.float32),
                           np.array(backs, bool)), np.array(halves))


def _pair_shaped(length: np.ndarray, height: np.ndarray) -> np.ndarray:
    """Which boxes, ``length`` typical tiles long along their row and ``height`` high across it,
    are shaped as two tiles side by side."""
    return (length >= PAIR_ALONG[0]) & (length <= PAIR_ALONG[1]) & (np.abs(height - 1) <= PAIR_ACROSS)


def _pair_frame(quads: np.ndarray, index: int) -> np.ndarray | None:
    """The direction of the row of box ``index`` when, against its ``PAIR_NEIGHBOURS`` nearest
    boxes in the frame it and they make (``geometry.hand_frame``), it is shaped as two tiles side
    by side; None when it is not, or has fewer than two neighbours to say."""
    centres = quads.mean(axis=1)
    chosen = [index]
    for j in np.argsort(np.linalg.norm(centres - centres[index], axis=1)):
        # A box on a box already chosen (a duplicate, a half, the box it lies in) is no neighbour.
        on_chosen = inside_any(centres[j : j + 1], quads[chosen])[0]
        if j == index or on_chosen or inside_any(centres[chosen], quads[j : j + 1]).any():
            continue
        chosen.append(int(j))
        if len(chosen) > PAIR_NEIGHBOURS:
            break
    if len(chosen) < 3:
        return None
    group = quads[chosen]
    right, up = geometry.hand_frame(group)
    along, across = (np.diff(geometry.chords(group, direction), axis=1)[:, 0] for direction in (right, up))
    length = along[:1] / max(median(along[1:].tolist()), 1e-6)
    height = across[:1] / max(median(across[1:].tolist()), 1e-6)
    return right if bool(_pair_shaped(length, height)[0]) else None


def _halves(quad: np.ndarray, right: np.ndarray) -> list[np.ndarray]:
    """The quad (clockwise) cut in two across ``right``, at the middle of its two sides that run
    most nearly along it; each half clockwise from the same corner as the quad."""
    top = quad[1] - quad[0] + quad[2] - quad[3]
    side = quad[2] - quad[1] + quad[3] - quad[0]
    along_top = abs(top @ right) / np.linalg.norm(top) >= abs(side @ right) / np.linalg.norm(side)
    shift = 0 if along_top else 1
    a, b, c, d = np.roll(quad, -shift, axis=0)  # a->b and d->c run along the row
    ab, dc = (a + b) / 2, (d + c) / 2
    return [np.roll(np.array(half), shift, axis=0) for half in ([a, ab, dc, d], [ab, b, c, dc])]
