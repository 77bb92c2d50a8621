"""The tile finder: every tile face in a photo, face up or face down, as a quadrilateral.

A small segmentation network (``tile_finder.onnx``, trained on generated scenes by
``train_finder.py``) looks at the photo downscaled to ``WORK_SIDE`` pixels and marks the middle
of every tile's top face (face or back), shrunk to ``SHRINK`` of its size so that touching tiles
stay apart. Each blob becomes a quadrilateral (its convex outline simplified to four corners),
grown back around its centre to the whole face. Classical thresholds could not tell touching ivory
faces apart from each other and from white tables reliably; the network learns the seams.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

from fanscan.errors import FanscanError
from fanscan.vision.detections import TileDetections

WORK_SIDE = 640
"""Long side, in pixels, of the image the finder works on."""
SHRINK = 0.7
"""The network marks each tile shrunk to this share of its size, so touching tiles stay apart."""
MODEL_PATH = Path(__file__).with_name("tile_finder.onnx")

TILE_BELOW = 0.7
"""Pixels where the table's probability is below this belong to a tile."""
CORE_ABOVE = 0.9
"""Each tile grows (watershed) from a core where the tile's probability is above this."""
_MIN_AREA = 12  # px of a blob in the working image: smaller ones are noise
_session = None
_lock = threading.Lock()


def _get_session():  # noqa: ANN202 - onnxruntime is imported lazily
    global _session
    with _lock:
        if _session is None:
            import onnxruntime

            if not MODEL_PATH.is_file():
                raise FanscanError("not_found", f"the tile finder model is missing: {MODEL_PATH}")
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            _session = onnxruntime.InferenceSession(
                str(MODEL_PATH), options, providers=["CPUExecutionProvider"]
            )
    return _session


def order_clockwise(quad: np.ndarray) -> np.ndarray:
    """Corners sorted clockwise (image coordinates, y down) starting from the top-left-most."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    start = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -start, axis=0).astype(np.float32)


def _quad_of(contour: np.ndarray) -> np.ndarray:
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.04, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            return order_clockwise(approx.reshape(4, 2).astype(np.float32))
    return order_clockwise(cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32))


def working_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The image resized so its long side is WORK_SIDE, and the factor from it back to ``image``."""
    h, w = image.shape[:2]
    factor = WORK_SIDE / max(h, w)
    size = (max(8, round(w * factor)), max(8, round(h * factor)))
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    small = cv2.resize(image, size, interpolation=interpolation)
    return small, w / size[0]


def tile_maps(small: np.ndarray) -> np.ndarray:
    """Per-pixel probabilities (h, w, 3: table, face, back) for the working image."""
    h, w = small.shape[:2]
    ph, pw = -(-h // 8) * 8, -(-w // 8) * 8
    padded = cv2.copyMakeBorder(small, 0, ph - h, 0, pw - w, cv2.BORDER_REPLICATE)
    tensor = padded[:, :, ::-1].astype(np.float32).transpose(2, 0, 1)[None] / 255.0
    session = _get_session()
    (logits,) = session.run(None, {session.get_inputs()[0].name: np.ascontiguousarray(tensor)})
    logits = logits[0].transpose(1, 2, 0)
    logits = cv2.resize(logits, (pw, ph), interpolation=cv2.INTER_LINEAR)[:h, :w]
    logits -= logits.max(axis=2, keepdims=True)
    probs = np.exp(logits)
    return probs / probs.sum(axis=2, keepdims=True)


def _blobs(tile: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Connected tile blobs; blobs joined by a weak bridge are cut apart by a watershed from
    their confident cores."""
    cores = (tile > CORE_ABOVE).astype(np.uint8)
    count, markers = cv2.connectedComponents(cores, connectivity=4)
    region = tile > 1.0 - TILE_BELOW
    markers[~region] = 0
    markers[region & (cores == 0)] = 0
    markers = markers.astype(np.int32)
    background = count
    markers[~region] = background
    relief = cv2.cvtColor(((1.0 - tile) * 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    cv2.watershed(relief, markers)
    labels = np.where((markers > 0) & (markers < background), markers, 0).astype(np.int32)
    ys, xs = np.nonzero(labels)
    ids = labels[ys, xs]
    lo_x = np.full(count, labels.shape[1], np.int64)
    lo_y = np.full(count, labels.shape[0], np.int64)
    hi_x = np.full(count, -1, np.int64)
    hi_y = np.full(count, -1, np.int64)
    np.minimum.at(lo_x, ids, xs)
    np.minimum.at(lo_y, ids, ys)
    np.maximum.at(hi_x, ids, xs)
    np.maximum.at(hi_y, ids, ys)
    area = np.bincount(ids, minlength=count)
    stats = np.stack([lo_x, lo_y, hi_x - lo_x + 1, hi_y - lo_y + 1, area], axis=1)
    return count, labels, stats


def find_tiles(small: np.ndarray) -> TileDetections:
    """Tile quads in the working image (see ``working_image``), with a face/back flag each."""
    probs = tile_maps(small)
    count, components, stats = _blobs(1.0 - probs[:, :, 0])
    quads, scores, backs = [], [], []
    for index in range(1, count):
        if stats[index, cv2.CC_STAT_AREA] < _MIN_AREA:
            continue
        x, y, w, h = stats[index, :4]
        blob = (components[y : y + h, x : x + w] == index).astype(np.uint8)
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        quad = _quad_of(max(contours, key=cv2.contourArea)) + np.float32([x, y])
        centre = quad.mean(axis=0)
        quads.append(centre + (quad - centre) / SHRINK)
        inside = probs[y : y + h, x : x + w][blob > 0]
        back = float(inside[:, 2].mean()) > float(inside[:, 1].mean())
        backs.append(back)
        scores.append(float(inside[:, 1:].sum(axis=1).mean()))
    if not quads:
        return TileDetections.empty()
    return TileDetections(np.stack(quads), np.array(scores, np.float32), np.array(backs, bool))
