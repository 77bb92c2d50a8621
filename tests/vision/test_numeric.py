"""The median and quantile helpers agree with numpy's."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fanscan.vision.numeric import median, quantile


@pytest.mark.parametrize("n", [1, 2, 3, 10, 11])
def test_numeric_median_matches_numpy(n: int) -> None:
    values = np.random.default_rng(n).normal(size=n)
    assert median(values) == pytest.approx(float(np.median(values)))
    assert median(values.tolist()) == pytest.approx(float(np.median(values)))


def test_numeric_median_of_nothing_is_nan() -> None:
    assert math.isnan(median([]))


@pytest.mark.parametrize("n", [1, 2, 3, 10, 11])
@pytest.mark.parametrize("q", [0.0, 0.1, 0.5, 0.9, 1.0])
def test_numeric_quantile_matches_numpy(n: int, q: float) -> None:
    values = np.random.default_rng(100 + n).normal(size=n)
    assert quantile(values, q) == pytest.approx(float(np.quantile(values, q)))


def test_numeric_quantile_of_nothing_is_nan_and_out_of_range_refused() -> None:
    assert math.isnan(quantile([], 0.5))
    with pytest.raises(ValueError):
        quantile([1.0, 2.0], 1.5)
