"""The median and quantile helpers agree with numpy's."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fanscan.vision.numeric import median, quantile, quantiles


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


@pytest.mark.parametrize("n", [1, 2, 7, 1000, 100_001])
def test_numeric_quantiles_at_once_match_numpy_s_one_by_one(n: int) -> None:
    values = np.random.default_rng(n).integers(0, 256, n).astype(np.uint8)  # ties, as grey levels have
    qs = (0.01, 0.999, 0.5, 0.0, 1.0, 0.995)
    assert quantiles(values, qs) == pytest.approx([float(np.quantile(values, q)) for q in qs])
    assert quantiles(values, qs)[2] == quantile(values, 0.5)


def test_numeric_quantile_of_nothing_is_nan_and_out_of_range_refused() -> None:
    assert math.isnan(quantile([], 0.5))
    with pytest.raises(ValueError):
        quantile([1.0, 2.0], 1.5)
    assert [math.isnan(q) for q in quantiles([], (0.1, 0.9))] == [True, True]
    with pytest.raises(ValueError):
        quantiles([1.0, 2.0], (0.5, -0.1))


def test_overlapping_pairs_are_the_pairs_over_the_bound_and_no_others() -> None:
    from fanscan.vision.numeric import overlapping_pairs, quad_iou

    def box(x: float, y: float, w: float = 30, h: float = 40) -> np.ndarray:
        return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])

    quads = np.stack([box(0, 0), box(31, 0), box(5, 0), box(200, 0), box(33, 2, 20, 30)])
    assert quad_iou(quads[0], quads[2]) > 0.35 and quad_iou(quads[0], quads[1]) == 0
    assert overlapping_pairs(quads, 0.35) == [(0, 2), (1, 4)]
    assert overlapping_pairs(quads, 0.9) == []
    assert overlapping_pairs(quads[:1], 0.0) == []


def test_overlapping_pairs_agree_with_every_pair_measured() -> None:
    # The bounding boxes' bound only skips pairs: the pairs found are those measured one by one.
    from fanscan.vision.numeric import overlapping_pairs, quad_iou

    rng = np.random.default_rng(7)
    for _ in range(60):
        n = int(rng.integers(2, 25))
        centres, sizes, turns = rng.uniform(0, 200, (n, 2)), rng.uniform(10, 45, (n, 2)), rng.uniform(0, np.pi, n)
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) / 2
        quads = np.stack([(corners * size) @ np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]]) + c
                          for c, size, t in zip(centres, sizes, turns)]).astype(np.float32)
        every = [(i, j) for i in range(n) for j in range(i + 1, n) if quad_iou(quads[i], quads[j]) > 0.3]
        assert overlapping_pairs(quads, 0.3) == every
