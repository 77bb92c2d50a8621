"""The tile finder: every tile face in a photo, face up or face down, as a quadrilateral.

A small segmentation network (``models/tile_finder.onnx``, trained on generated scenes by
``models/train_finder.py``) looks at the photo downscaled to ``WORK_SIDE`` pixels and marks the
middle of every tile's top face (face or back), shrunk to ``SHRINK`` of its size so that touching
tiles stay apart. Each blob becomes a quadrilateral (its convex outline simplified to four corners),
grown back around its centre to the whole face. Classical thresholds could not tell touching ivory
faces apart from each other and from white tables reliably; the network learns the seams.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import fanscan.models
import numpy as np
from fanscan.vision import memory
from fanscan.vision.detections import TileDetections
from fanscan.vision.numeric import median
from fanscan.vision.onnx_session import LazySession, shared_session

from fanscan.errors import FanscanError

WORK_SIDE = 640
"""Long side, in pixels, of the image the finder works on."""
SHRINK = 0.7
"""The network marks each tile shrunk to this share of its size, so touching tiles stay apart."""
MODEL_PATH = Path(fanscan.models.__file__).resolve().parent / "tile_finder.onnx"

TILE_BELOW = 0.7
"""Pixels where the table's probability is below this belong to a tile."""
CORE_ABOVE = 0.9
"""Each tile grows (watershed) from a core where the tile's probability is above this."""
_MIN_AREA = 12  # px of a blob in the working image: smaller ones are noise
WHOLE_RUN_PIXELS = WORK_SIDE * WORK_SIDE
"""An image with more pixels than the working size's square (a finer pass on a far photo, up to
2,560 px; a hand's region searched again, up to 1,280 px) goes through the network in parts
(a whole 1,280 x 1,280 image took about 105 MB of activations)..."""
PART_SIDE = 448
"""...of at most this side (split evenly), each run with its context: a 2,560 x 1,920 pass (a far
photo's) peaked at about 80 MB in these 592 px runs, 150-170 MB in 784 px ones (parts of the
working size), for a tenth more of that pass's time; a 1,280 px pass took the same time either way
(docs/benchmarks.md, session 48)..."""
PART_CONTEXT = 72
"""...each part seen with this many pixels of the image beyond it on every side: the network's
receptive field reaches 65 pixels from its centre (131 across), so each part's own pixels come
out as from the whole image (a multiple of 8, the network's stride, keeps its grid). Square parts
carry less context than strips of whole rows: a 2,560 x 1,920 pass in strips of 160 rows ran the
network on 1.8 times its pixels (9.0 million), in parts on 1.3 times (6.6 million): the pass took
half the time (docs/benchmarks.md, session 46)."""
HAND_BACK_PIXELS = 4 * WHOLE_RUN_PIXELS
"""Before a pass on an image of more pixels (a far photo's 2,560 px copy: about 100 MB of maps and
labels at once) the heap's free pages go back to the system when the process holds more than
``memory``'s budget (``memory.hand_back_if_over``): the buffers freed by the passes before it lie
among live objects, and the pass's own came on top of them. A 12 MP picture of noise, searched at
2,560 px as it is and turned a quarter, peaked at 306-314 MB without, 290-301 MB with; far hands
10-20 MB lower too, in the same time (docs/benchmarks.md, session 80)."""


def _get_session() -> LazySession:
    """The finder's shared session, on the model at ``MODEL_PATH``."""
    if not MODEL_PATH.is_file():
        raise FanscanError("not_found", f"the tile finder model is missing: {MODEL_PATH}")
    return shared_session(MODEL_PATH)


def order_clockwise(quad: np.ndarray) -> np.ndarray:
    """Corners sorted clockwise (image coordinates, y down) starting from the top-left-most."""
    return orders_clockwise(np.asarray(quad)[None])[0]


def orders_clockwise(quads: np.ndarray) -> np.ndarray:
    """``order_clockwise`` for many quads (n, 4, 2) at once."""
    if len(quads) == 0:
        return np.zeros((0, 4, 2), np.float32)
    centres = quads.mean(axis=1, keepdims=True)
    angles = np.arctan2(quads[..., 1] - centres[..., 1], quads[..., 0] - centres[..., 0])
    rows = np.arange(len(quads))[:, None]
    quads = quads[rows, np.argsort(angles, axis=1)]
    start = np.argmin(quads.sum(axis=2), axis=1)
    return quads[rows, (start[:, None] + np.arange(4)) % 4].astype(np.float32)


def _corners_of(contour: np.ndarray) -> np.ndarray:
    """A blob's four corners (not yet ordered): its convex outline simplified to four points, or
    the outline's smallest turned rectangle."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.04, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def working_image(image: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    """The image resized so its long side is ``side``, and the factor from it back to ``image``."""
    h, w = image.shape[:2]
    factor = side / max(h, w)
    size = (max(8, round(w * factor)), max(8, round(h * factor)))
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    small = cv2.resize(image, size, interpolation=interpolation)
    return small, w / size[0]


def tile_maps(small: np.ndarray) -> np.ndarray:
    """Per-pixel probabilities (h, w, 3: table, face, back) for the working image."""
    h, w = small.shape[:2]
    return cv2.merge([upsampled(plane, h, w) for plane in half_maps(small)])


def half_maps(small: np.ndarray) -> list[np.ndarray]:
    """The table, face and back probabilities at the network's half resolution, for the working
    image padded to a multiple of 8 (``upsampled`` brings a plane to the image's pixels).
    Softmax at half resolution, then up: four times less work than the reverse."""
    h, w = small.shape[:2]
    ph, pw = -(-h // 8) * 8, -(-w // 8) * 8
    padded = small if (ph, pw) == (h, w) else cv2.copyMakeBorder(small, 0, ph - h, 0, pw - w, cv2.BORDER_REPLICATE)
    planes = list(_network_logits(padded))
    top = np.maximum(np.maximum(planes[0], planes[1]), planes[2])
    for plane in planes:  # in place: a 2,560 px pass's planes are 5 MB each
        np.subtract(plane, top, out=plane)
        np.exp(plane, out=plane)
    total = planes[0] + planes[1] + planes[2]
    for plane in planes:
        plane /= total
    return planes


def upsampled(plane: np.ndarray, h: int, w: int) -> np.ndarray:
    """One of ``half_maps``' planes at the working image's (h, w) pixels."""
    return cv2.resize(plane, (plane.shape[1] * 2, plane.shape[0] * 2), interpolation=cv2.INTER_LINEAR)[:h, :w]


def _tile_map(planes: list[np.ndarray], h: int, w: int) -> np.ndarray:
    """The probability that each pixel of the working image is tile, from ``half_maps``' planes,
    whose table plane it takes out of ``planes`` and lets go (at a 2,560 px pass each full-size
    plane is 20 MB: the subtraction is made in place)."""
    tile = upsampled(planes.pop(0), h, w)
    return np.subtract(1.0, tile, out=tile)


def network_input(image: np.ndarray) -> np.ndarray:
    """The network's (1, 3, h, w) float input for a BGR uint8 image."""
    # Plane by plane (BGR -> RGB): the same numbers as a whole-array transpose, several times faster.
    tensor = np.empty((1, 3, *image.shape[:2]), np.float32)
    for channel, plane in enumerate(cv2.split(image)[::-1]):
        tensor[0, channel] = plane
    tensor /= np.float32(255.0)
    return tensor


def _network_logits(padded: np.ndarray) -> np.ndarray:
    """The network's (3, h/2, w/2) logits for a BGR uint8 image (h, w multiples of 8), in parts
    when it is large (``WHOLE_RUN_PIXELS``), each part's input made only when it is run."""
    session = _get_session()
    height, width = padded.shape[:2]
    if height * width <= WHOLE_RUN_PIXELS:
        return session.run(network_input(padded))[0]
    out = np.empty((3, height // 2, width // 2), np.float32)
    for top, bottom in _even_parts(height):
        above, below = max(0, top - PART_CONTEXT), min(height, bottom + PART_CONTEXT)
        for left, right in _even_parts(width):
            before, after = max(0, left - PART_CONTEXT), min(width, right + PART_CONTEXT)
            part = session.run(network_input(padded[above:below, before:after]))[0]
            y, x = (top - above) // 2, (left - before) // 2
            out[:, top // 2 : bottom // 2, left // 2 : right // 2] = \
                part[:, y : y + (bottom - top) // 2, x : x + (right - left) // 2]
    return out


def _even_parts(length: int) -> list[tuple[int, int]]:
    """(start, end) of the fewest parts of at most ``PART_SIDE`` that cover ``length`` (a multiple
    of 8), about equal, each starting on a multiple of 8."""
    count = -(-length // PART_SIDE)
    cuts = [round(length * i / count / 8) * 8 for i in range(count + 1)]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def _blobs(tile: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Connected tile blobs; blobs joined by a weak bridge are cut apart by a watershed from
    their confident cores. Returns the label count, the labels, each label's stats (as
    ``cv2.connectedComponentsWithStats``) and the flat indices of the labelled pixels."""
    # Arrays changed in place where they can be: at the finder's 2,560 px pass each is 20 MB.
    count, markers = cv2.connectedComponents((tile > CORE_ABOVE).astype(np.uint8), connectivity=4)
    background = count
    # Seeds on the cores; the rest of the tile region unknown (0); off it, the background.
    markers[tile <= 1.0 - TILE_BELOW] = background
    relief = _relief(tile)
    del tile  # let go before the watershed's colour relief is made (find_tiles keeps no copy)
    cv2.watershed(cv2.cvtColor(relief, cv2.COLOR_GRAY2BGR), markers)
    del relief
    markers[(markers <= 0) | (markers >= background)] = 0  # the seams (-1) and the background
    labels = markers
    # Counted over the blobs' pixels only: the table's label 0 needs no area or span.
    inside = np.flatnonzero(labels)
    blob_of = labels.ravel()[inside]
    area = np.bincount(blob_of, minlength=count)[:count]
    rows, columns = np.divmod(inside, labels.shape[1])
    lo_x, hi_x = _spans(blob_of, columns, count, labels.shape[1])
    lo_y, hi_y = _spans(blob_of, rows, count, labels.shape[0])
    boxes = np.stack([lo_x, lo_y, hi_x, hi_y], axis=1)
    labels, area = _merge_fragments(labels, area, boxes)  # relabels pixels, never unlabels one
    stats = np.stack([boxes[:, 0], boxes[:, 1], boxes[:, 2] - boxes[:, 0] + 1,
                      boxes[:, 3] - boxes[:, 1] + 1, area], axis=1)
    return count, labels, stats, inside


def _relief(tile: np.ndarray, band: int = 256) -> np.ndarray:
    """The watershed's relief, 255 where no tile is, as 8 bits; made ``band`` rows at a time, so
    that no float copy of a large map is made."""
    relief = np.empty(tile.shape, np.uint8)
    for top in range(0, tile.shape[0], band):
        relief[top : top + band] = ((1.0 - tile[top : top + band]) * 255).astype(np.uint8)
    return relief


def _spans(blob_of: np.ndarray, places: np.ndarray, count: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Each label's first and last place (column or row, ``places`` of the pixels labelled
    ``blob_of``) holding it (``length`` and -1 for a label not present), from one histogram of
    labels against places."""
    present = np.bincount(blob_of.astype(np.int64) * length + places, minlength=count * length)
    present = present[: count * length].reshape(count, length) > 0
    first = np.where(present.any(axis=1), present.argmax(axis=1), length)
    last = np.where(present.any(axis=1), length - 1 - present[:, ::-1].argmax(axis=1), -1)
    return first.astype(np.int64), last.astype(np.int64)


def _merge_fragments(labels: np.ndarray, area: np.ndarray,
                     boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Join a blob much smaller than a tile to the touching blob it completes (a tile whose
    core broke in two); ``boxes`` (each label's x0, y0, x1, y1, inclusive) follow the joins."""
    present = area[1:][area[1:] > 0]
    if len(present) < 3:
        return labels, area
    typical = median(present)
    kernel = np.ones((3, 3), np.uint8)
    for index in np.argsort(area):
        if index == 0 or area[index] == 0 or area[index] > 0.6 * typical:
            continue
        x0, y0, x1, y1 = boxes[index]
        # The fragment's box and one pixel around it: all the dilation below can reach.
        window = labels[max(0, y0 - 1) : y1 + 2, max(0, x0 - 1) : x1 + 2]
        mask = (window == index).astype(np.uint8)
        ring = cv2.dilate(mask, kernel) > mask
        # sorted(set()), not np.unique: numpy 2 imports numpy.ma on np.unique's first call
        neighbours = [n for n in sorted(set(window[ring].tolist())) if n not in (0, index)]
        best = min(neighbours, key=lambda n: abs(area[n] + area[index] - typical), default=None)
        if best is not None and area[best] + area[index] <= 1.3 * typical:
            window[mask > 0] = best
            area[best] += area[index]
            area[index] = 0
            boxes[best, :2] = np.minimum(boxes[best, :2], boxes[index, :2])
            boxes[best, 2:] = np.maximum(boxes[best, 2:], boxes[index, 2:])
    return labels, area


def _long_angles(quads: np.ndarray) -> np.ndarray:
    """Angle (radians) of each quad's longer pair of sides, for quads (n, 4, 2)."""
    a = (quads[:, 1] - quads[:, 0]) + (quads[:, 2] - quads[:, 3])
    b = (quads[:, 2] - quads[:, 1]) + (quads[:, 3] - quads[:, 0])
    axis = np.where((np.linalg.norm(a, axis=1) >= np.linalg.norm(b, axis=1))[:, None], a, b)
    return np.arctan2(axis[:, 1], axis[:, 0]).astype(np.float64)


def _split_merged(quads: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """Cut blobs that hold k tiles side by side (their seam never showed) into k quads.

    Works in the shrunk space of the network's marks: a single tile's mark is ``SHRINK`` of the
    tile, and k merged marks span about (k - 1 + SHRINK) tiles.
    """
    quads = np.asarray(quads, np.float32)
    if len(quads) < 3:
        return [(quad, i) for i, quad in enumerate(quads)]
    sides = np.linalg.norm(np.roll(quads, -1, axis=1) - quads, axis=2)  # sides 01, 12, 23, 30
    a = (sides[:, 0] + sides[:, 2]).astype(np.float64) / 2
    b = (sides[:, 1] + sides[:, 3]).astype(np.float64) / 2
    shorts, longs = np.minimum(a, b), np.maximum(a, b)
    areas = shorts * longs
    with np.errstate(divide="ignore", invalid="ignore"):  # a blob of no area is no single tile
        single = np.abs(np.log(areas / median(areas))) < 0.4
    if not single.any():  # two clusters of sizes and none between: no single tile to measure by
        return [(quad, i) for i, quad in enumerate(quads)]
    short0 = median(shorts[single])
    long0 = median(longs[single])
    # Tiles merge along their rows only: across the dominant long axis of the single tiles.
    angles = _long_angles(quads)
    tile_axis = np.arctan2(np.sin(2 * angles[single]).sum(), np.cos(2 * angles[single]).sum()) / 2
    out = []
    for index, (quad, short, long) in enumerate(zip(quads, shorts, longs)):
        across = abs(np.cos(angles[index] - tile_axis)) < 0.5
        if not across:
            out.append((quad, index))
            continue
        # The blob's short side is a tile's height (upright tiles) or width (sideways ones).
        unit = short0 if abs(short - long0) < abs(short - short0) else long0
        width = unit / SHRINK  # a tile's pitch along the row, in the mark's space
        parts = round((long - unit) / width) + 1
        if parts < 2 or parts > 8 or abs(short / (long0 if unit == short0 else short0) - 1) > 0.35:
            out.append((quad, index))
            continue
        q = quad if sides[index, 0] >= sides[index, 1] else np.roll(quad, -1, axis=0)
        a_, b_, c_, d_ = q  # a_ -> b_ runs along the blob
        step = (long - unit) / (parts - 1) / long if parts > 1 else 0.0
        span = unit / long
        for i in range(parts):
            t0, t1 = i * step, i * step + span
            part = np.array([a_ + (b_ - a_) * t0, a_ + (b_ - a_) * t1, d_ + (c_ - d_) * t1, d_ + (c_ - d_) * t0])
            out.append((order_clockwise(part), index))
    return out


def find_tiles(small: np.ndarray) -> TileDetections:
    """Tile quads in the working image (see ``working_image``), with a face/back flag each."""
    h, w = small.shape[:2]
    if h * w > HAND_BACK_PIXELS:
        memory.hand_back_if_over()
    planes = half_maps(small)
    count, components, stats, inside = _blobs(_tile_map(planes, h, w))
    face, back = planes
    # Each blob's summed face and back probabilities, all blobs at once, over the blobs' pixels
    # only (the table's label 0 is not needed); one full-size plane at a time, for memory.
    blob_of = components.ravel()[inside]
    face_sum, back_sum = (
        np.bincount(blob_of, weights=np.ascontiguousarray(upsampled(plane, h, w)).ravel()[inside], minlength=count)
        for plane in (face, back))
    marks, offsets, scores, backs = [], [], [], []
    for index in range(1, count):
        area = stats[index, cv2.CC_STAT_AREA]
        if area < _MIN_AREA:
            continue
        x, y, w, h = stats[index, :4]
        blob = (components[y : y + h, x : x + w] == index).astype(np.uint8)
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        marks.append(_corners_of(max(contours, key=cv2.contourArea)))
        offsets.append((x, y))
        backs.append(bool(back_sum[index] > face_sum[index]))
        scores.append(float((face_sum[index] + back_sum[index]) / area))
    if not marks:
        return TileDetections.empty()
    # Each blob's corners ordered in its own box's coordinates, then moved into place.
    marks = orders_clockwise(np.stack(marks)) + np.float32(offsets)[:, None, :]
    parts = _split_merged(marks)
    shrunk = np.stack([q for q, _ in parts])
    centres = shrunk.mean(axis=1, keepdims=True)
    return TileDetections(
        centres + (shrunk - centres) / SHRINK,
        np.array([scores[i] for _, i in parts], np.float32),
        np.array([backs[i] for _, i in parts], bool),
    )
