"""Numeric helpers shared by the reading stages."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np


def median(values: np.ndarray | list[float]) -> float:
    """The median of ``values`` (NaN when there are none).

    ``np.median`` gives the same, but its first call imports ``numpy.ma``, 15-45 ms of a
    one-photo command's start-up.
    """
    ordered = np.sort(np.asarray(values, dtype=np.float64).ravel())
    n = ordered.size
    if n == 0:
        return float("nan")
    middle = n // 2
    return float(ordered[middle]) if n % 2 else float((ordered[middle - 1] + ordered[middle]) / 2)


def quantile(values: np.ndarray | list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` by linear interpolation between the order statistics
    (``np.quantile``'s default method; NaN when there are none), without ``np.quantile``'s
    first-call import of ``numpy.ma``."""
    return quantiles(values, (q,))[0]


def quantiles(values: np.ndarray | list[float], qs: Sequence[float]) -> list[float]:
    """``quantile`` of ``values`` at each of ``qs``, the order statistics found by one partial
    sort (a tile region's pixels: a few hundred thousand values)."""
    if not all(0.0 <= q <= 1.0 for q in qs):
        raise ValueError(f"quantiles must be within [0, 1], not {list(qs)}")
    flat = np.asarray(values, dtype=np.float64).ravel()
    if flat.size == 0:
        return [float("nan")] * len(qs)
    last = flat.size - 1
    places = [(int(np.floor(q * last)), q * last) for q in qs]
    ordered = np.partition(flat, sorted({i for below, _ in places for i in (below, min(below + 1, last))}))
    return [float(ordered[below] + (ordered[min(below + 1, last)] - ordered[below]) * (position - below))
            for below, position in places]


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (4x2, any corner order round the quad)."""
    a = cv2.convexHull(np.asarray(a, np.float32)).reshape(-1, 2)
    b = cv2.convexHull(np.asarray(b, np.float32)).reshape(-1, 2)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def overlapping_pairs(quads: np.ndarray, above: float) -> list[tuple[int, int]]:
    """The pairs (i < j) of the quads (n, 4, 2) whose intersection over union exceeds ``above``.
    Only pairs whose bounding boxes could overlap that much are measured exactly: two quads
    intersect no more than their bounding boxes do, so their IoU is at most that overlap over
    the sum of their areas less it (touching neighbours, most of the pairs, fall below it)."""
    if len(quads) < 2:
        return []
    quads = np.asarray(quads, np.float64)
    low, high = quads.min(axis=1), quads.max(axis=1)
    sides = np.clip(np.minimum(high[:, None], high[None]) - np.maximum(low[:, None], low[None]), 0.0, None)
    meet = sides[..., 0] * sides[..., 1]
    areas = quad_areas(quads)
    bound = meet / np.maximum(areas[:, None] + areas[None] - meet, 1e-9)
    near = np.argwhere(np.triu(bound > above, 1))
    return [(int(i), int(j)) for i, j in near if quad_iou(quads[i], quads[j]) > above]


def inside_any(points: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Which points (n, 2) lie inside any of the convex quads (m, 4, 2, corners in order)."""
    if len(quads) == 0 or len(points) == 0:
        return np.zeros(len(points), bool)
    edges = np.roll(quads, -1, axis=1) - quads  # (m, 4, 2)
    to_point = points[:, None, None, :] - quads[None]  # (n, m, 4, 2)
    cross = edges[None, ..., 0] * to_point[..., 1] - edges[None, ..., 1] * to_point[..., 0]
    return ((cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)).any(axis=1)


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """Each quad's area (n, 4, 2) -> (n,), by the shoelace formula."""
    x, y = quads[:, :, 0], quads[:, :, 1]
    return 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))


Z_RANGE = 4.0
"""Standardised features are held within this many standard deviations of the fitting data's
(``held_logistic``): a linear model must not extrapolate to a case unlike any it was fitted on."""


def logit(p: np.ndarray) -> np.ndarray:
    """log(p / (1 - p)), p held within [1e-4, 1 - 1e-4]."""
    p = np.clip(np.asarray(p, np.float64), 1e-4, 1 - 1e-4)
    return np.log(p / (1 - p))


def held_logistic(features: np.ndarray, weights, bias: float, mean, scale) -> np.ndarray:
    """A fitted logistic model's probability of ``features`` (rows), standardised by ``mean``
    and ``scale`` and held within ``Z_RANGE``."""
    z = np.clip((features - np.asarray(mean)) / np.asarray(scale), -Z_RANGE, Z_RANGE)
    return 1.0 / (1.0 + np.exp(-np.clip(z @ np.asarray(weights) + bias, -30, 30)))
