"""The median helper agrees with numpy's."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fanscan.vision.numeric import median


@pytest.mark.parametrize("n", [1, 2, 3, 10, 11])
def test_numeric_median_matches_numpy(n: int) -> None:
    values = np.random.default_rng(n).normal(size=n)
    assert median(values) == pytest.approx(float(np.median(values)))
    assert median(values.tolist()) == pytest.approx(float(np.median(values)))


def test_numeric_median_of_nothing_is_nan() -> None:
    assert math.isnan(median([]))
