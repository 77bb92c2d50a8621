"""Numeric helpers shared by the reading stages."""

from __future__ import annotations

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
